/* Serialized-diagnostics input: imports a module whose header has a warning (merged from
 * the module build), and has warnings of its own. */
#include "diag_module.h"
int main(void) { int unused; return module_value(2); }
