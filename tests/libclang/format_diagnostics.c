/* Prints every diagnostic of a clang serialized-diagnostics file (.dia), one per line, as
 * libclang formats it: clang_formatDiagnostic with clang_defaultDiagnosticDisplayOptions(),
 * each diagnostic followed by its children (clang_getChildDiagnostics), recursively.
 * The reference for tests/diag.rs and benches/diag/run.sh.
 *
 * Usage: format_diagnostics FILE.dia...   (exit 1 and a message on stderr if one fails to load) */
#include <clang-c/Index.h>
#include <stdio.h>

static void print_set(CXDiagnosticSet set, unsigned options) {
    unsigned n = clang_getNumDiagnosticsInSet(set);
    for (unsigned i = 0; i < n; i++) {
        CXDiagnostic diag = clang_getDiagnosticInSet(set, i);
        CXString text = clang_formatDiagnostic(diag, options);
        fputs(clang_getCString(text), stdout);
        fputc('\n', stdout);
        clang_disposeString(text);
        CXDiagnosticSet children = clang_getChildDiagnostics(diag);
        if (children)
            print_set(children, options);
        clang_disposeDiagnostic(diag);
    }
}

int main(int argc, char **argv) {
    unsigned options = clang_defaultDiagnosticDisplayOptions();
    int status = 0;
    for (int a = 1; a < argc; a++) {
        enum CXLoadDiag_Error error = CXLoadDiag_None;
        CXString message;
        CXDiagnosticSet set = clang_loadDiagnostics(argv[a], &error, &message);
        if (!set) {
            fprintf(stderr, "%s: error %d: %s\n", argv[a], (int)error, clang_getCString(message));
            clang_disposeString(message);
            status = 1;
            continue;
        }
        clang_disposeString(message);
        print_set(set, options);
        clang_disposeDiagnosticSet(set);
    }
    return status;
}
