/* Included by diag_macros.c; includes diag_macros_b.h, so diagnostics there carry an
 * include stack. */
struct pair { int a; int b; };
#include "diag_macros_b.h"
static inline int header_unused(void) { int x; return 0; }
