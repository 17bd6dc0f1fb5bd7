/* Serialized-diagnostics input: optimization remarks (-Rpass=inline), which libclang
 * reports as warnings, with -Rpass-missed notes. */
static int add(int a, int b) { return a + b; }
static int twice(int a) { return add(a, a); }
int sum(int *v, int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s = add(s, twice(v[i]));
  return s;
}
