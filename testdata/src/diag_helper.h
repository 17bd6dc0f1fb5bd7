/* Header included by diag_errors.c, so diagnostics carry a second file. */
#ifndef DIAG_HELPER_H
#define DIAG_HELPER_H
__attribute__((format(printf, 1, 2))) int printf_like(const char *fmt, ...);
__attribute__((deprecated("use new_api instead"))) void old_api(void);
#define HELPER_MACRO(x) ((x) + (unsigned)-1 > 0 ? (x) : (x) << 40)
#endif
