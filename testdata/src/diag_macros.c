/* Serialized-diagnostics input: macro expansion chains, an include stack, fix-its, a
 * diagnostic inside a header, several files, and a command-line (location-less) warning. */
#include "diag_macros_a.h"

#define SQUARE(x) ((x) * (x))
#define WRAP(x) SQUARE(x) + INNER(x)
#define INNER(x) ((x) << 70)

int use_macros(int v) {
  int r = WRAP(v);            /* shift overflow inside nested macros: expansion notes */
  if (r = 2) r++;             /* -Wparentheses: two notes with fix-its */
  return r
}                             /* error: expected ';' with an insertion fix-it */

void designated(void) {
  struct pair p = { .a = 1, .b = 2, };
  (void)p;
  unsigned char c = 300;      /* -Wconstant-conversion */
  (void)c;
  int *ip = 0;
  long *lp = ip;              /* -Wincompatible-pointer-types */
  (void)lp;
}
