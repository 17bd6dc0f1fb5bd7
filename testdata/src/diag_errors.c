/* Deliberately broken C file: produces warnings, errors, notes and fix-its
 * for clang's serialized diagnostics (--serialize-diagnostics). */
#include "diag_helper.h"

struct point { int x; int y; };

static int unused_function(void) { return 0; }

int compare(unsigned u, int s) {
  if (u < s)                 /* -Wsign-compare */
    return 1;
  if (s = 3)                 /* -Wparentheses: note + fix-it */
    return 2;
  return 0;
}

void formats(void) {
  long l = 5;
  printf_like("%d %s\n", l, 42);   /* -Wformat with fix-it */
}

int missing_semicolon(void) {
  int a = 1
  return a;                  /* error: expected ';' (fix-it) */
}

void undeclared(void) {
  struct point p = { .x = 1, .z = 2 };  /* error: no member named 'z' */
  undeclared_fn(p.x);                    /* implicit declaration */
  int arr[2];
  arr[5] = 1;                /* -Warray-bounds + note */
}

int redefined(int x);
float redefined(int x) { return x; }     /* error: conflicting types + note */

int shadow_and_unused(int v) {
  int unused_var;
  int v2 = v;
  { int v2 = 3; (void)v2; }
  return HELPER_MACRO(v2);   /* macro expansion notes */
}

void deprecated_call(void) { old_api(); }  /* -Wdeprecated-declarations + note */
