/* More optimization remarks for tests/remarks.rs (compiled at test time, not
 * committed as a bitstream): vectorization with and without runtime checks, LICM,
 * GVN, inlining decisions, unrolling, SLP, calls that block vectorization. */
#include <stddef.h>

struct point { double x, y, z; };

extern double ext(double);
extern void sink(void *);

static inline double dot(const struct point *a, const struct point *b) {
  return a->x * b->x + a->y * b->y + a->z * b->z;
}

double total(const struct point *p, size_t n, const struct point *q) {
  double s = 0;
  for (size_t i = 0; i < n; i++)
    s += dot(&p[i], q);
  return s;
}

void scale(float *a, const float *b, float k, int n) {
  for (int i = 0; i < n; i++)
    a[i] = b[i] * k; /* may alias: runtime checks */
}

void calls_in_loop(double *a, int n) {
  for (int i = 0; i < n; i++)
    a[i] = ext(a[i]);
}

int search(const int *a, int n, int key) {
  for (int i = 0; i < n; i++)
    if (a[i] == key)
      return i; /* early exit: not vectorized */
  return -1;
}

void hoist(int *restrict out, const int *restrict in, int n, int m) {
  for (int i = 0; i < n; i++)
    out[i] = in[i] + m * 3 + (m << 2);
}

void escape(int n) {
  int buf[16];
  for (int i = 0; i < 16; i++)
    buf[i] = i * n;
  sink(buf);
}

void slp(double *restrict r, const double *restrict a) {
  r[0] = a[0] * 2.0 + 1.0;
  r[1] = a[1] * 2.0 + 1.0;
  r[2] = a[2] * 2.0 + 1.0;
  r[3] = a[3] * 2.0 + 1.0;
}

long long histogram(const unsigned char *p, int n, int *h) {
  long long s = 0;
  for (int i = 0; i < n; i++) {
    h[p[i]]++;
    s += p[i];
  }
  return s;
}
