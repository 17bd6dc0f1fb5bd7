/* Source compiled with clang-14 -O2 -fsave-optimization-record=bitstream to
 * produce optimization remarks (inlining, loop vectorization, unrolling,
 * missed optimizations). */
static int helper(int x) { return x * 3 + 1; }

__attribute__((noinline)) int not_inlined(int x) { return x ^ 0x5a; }

int sum_array(const int *a, int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += helper(a[i]);
  return s;
}

void saxpy(float *restrict y, const float *restrict x, float a, int n) {
  for (int i = 0; i < n; i++)
    y[i] = a * x[i] + y[i];
}

int fixed_loop(int *p) {
  int t = 0;
  for (int i = 0; i < 4; i++)
    t += p[i] * i;
  return t + not_inlined(t);
}

double reduce(const double *d, int n) {
  double acc = 0.0;  /* FP reduction: not vectorized without -ffast-math */
  for (int i = 0; i < n; i++)
    acc += d[i];
  return acc;
}

void unknown_calls(int *p, int n) {
  extern void opaque(int *);
  for (int i = 0; i < n; i++)
    opaque(p + i);
}
