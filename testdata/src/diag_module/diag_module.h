/* A module header with a warning: clang builds the module in a child compile that writes
 * the same .dia file, and the parent merges its diagnostics into its own. */
static int module_value(int x) { if (x = 1) return 1; return 0; }
