/* Prints every diagnostic of a clang serialized-diagnostics file (.dia), one per line, as
 * libclang formats it: clang_formatDiagnostic with clang_defaultDiagnosticDisplayOptions(),
 * each diagnostic followed by its children (clang_getChildDiagnostics), recursively.
 * The reference for tests/diag.rs and benches/diag/run.sh.
 *
 * Usage: format_diagnostics [--details] FILE.dia...   (exit 1 and a message on stderr if one
 * fails to load). With --details, each line is followed by what libclang gives of the
 * diagnostic's parts, indented: "  category ID TEXT", "  option TEXT", and one
 * "  range LOC LOC" / "  fixit LOC LOC TEXT" per range and fix-it, where LOC is
 * FILE:LINE:COLUMN:OFFSET (FILE empty without a file). */
#include <clang-c/Index.h>
#include <stdio.h>
#include <string.h>

static int details;

static void print_location(CXSourceLocation loc) {
    CXFile file;
    unsigned line, column, offset;
    clang_getSpellingLocation(loc, &file, &line, &column, &offset);
    if (file) {
        CXString name = clang_getFileName(file);
        fputs(clang_getCString(name), stdout);
        clang_disposeString(name);
    }
    printf(":%u:%u:%u", line, column, offset);
}

static void print_range(const char *what, CXSourceRange range) {
    printf("  %s ", what);
    print_location(clang_getRangeStart(range));
    fputc(' ', stdout);
    print_location(clang_getRangeEnd(range));
}

static void print_details(CXDiagnostic diag) {
    CXString text = clang_getDiagnosticCategoryText(diag);
    printf("  category %u %s\n", clang_getDiagnosticCategory(diag), clang_getCString(text));
    clang_disposeString(text);
    text = clang_getDiagnosticOption(diag, NULL);
    printf("  option %s\n", clang_getCString(text));
    clang_disposeString(text);
    unsigned n = clang_getDiagnosticNumRanges(diag);
    for (unsigned i = 0; i < n; i++) {
        print_range("range", clang_getDiagnosticRange(diag, i));
        fputc('\n', stdout);
    }
    n = clang_getDiagnosticNumFixIts(diag);
    for (unsigned i = 0; i < n; i++) {
        CXSourceRange range;
        text = clang_getDiagnosticFixIt(diag, i, &range);
        print_range("fixit", range);
        printf(" %s\n", clang_getCString(text));
        clang_disposeString(text);
    }
}

static void print_set(CXDiagnosticSet set, unsigned options) {
    unsigned n = clang_getNumDiagnosticsInSet(set);
    for (unsigned i = 0; i < n; i++) {
        CXDiagnostic diag = clang_getDiagnosticInSet(set, i);
        CXString text = clang_formatDiagnostic(diag, options);
        fputs(clang_getCString(text), stdout);
        fputc('\n', stdout);
        clang_disposeString(text);
        if (details)
            print_details(diag);
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
        if (!strcmp(argv[a], "--details")) {
            details = 1;
            continue;
        }
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
