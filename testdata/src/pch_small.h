/* Small header precompiled with clang-14 -x c-header -emit-pch. */
#ifndef PCH_SMALL_H
#define PCH_SMALL_H
#define PCH_VERSION 3
#define PCH_MAX(a, b) ((a) > (b) ? (a) : (b))
typedef unsigned long pch_size_t;
enum pch_color { PCH_RED, PCH_GREEN = 5, PCH_BLUE };
struct pch_vec { float x, y, z; };
union pch_num { int i; float f; };
static inline float pch_dot(struct pch_vec a, struct pch_vec b) {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}
extern int pch_counter;
int pch_sum(const int *xs, pch_size_t n);
static const char pch_name[] = "pch-small";
#endif
