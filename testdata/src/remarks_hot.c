/* Source for llvm19_remarks_hotness.opt.bitstream: make.sh gives every function a
 * profile entry count, so opt-19 -pass-remarks-with-hotness attaches Hotness. */
int table[64];

int lookup(const int *p, int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += table[p[i] & 63];
  return s;
}

static int square(int x) { return x * x; }

int sum_squares(int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += square(i);
  return s;
}
