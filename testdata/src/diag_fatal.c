/* Serialized-diagnostics input: a warning, then a fatal error that stops the compile. */
int f(int x) { if (x = 1) return 2; return x; }
#include "diag_does_not_exist.h"
int g(void) { return undeclared; }
