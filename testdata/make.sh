#!/usr/bin/env bash
# Regenerates every bitstream test file in testdata/ from the sources in
# testdata/src/. Run from anywhere:  bash testdata/make.sh
#
# Tools: LLVM 14 (llvm-as, llvm-cat, opt, llvm-objcopy, llvm-bcanalyzer via
# llvm-config-14 --bindir), rustc (any version; the committed files were made
# with rustc 1.95.0 / LLVM 22.1.2) and clang-14. Missing rustc or clang-14
# steps are skipped with a message and the existing files are left alone.
# See README.md for exactly how each file is made.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
SRC="$HERE/src"
OUT="$HERE"

if ! command -v llvm-config-14 >/dev/null 2>&1; then
    echo "make.sh: llvm-config-14 not found (install llvm-14)" >&2
    exit 1
fi
LLVM_BIN="$(llvm-config-14 --bindir)"
LLVM_AS="$LLVM_BIN/llvm-as"
LLVM_CAT="$LLVM_BIN/llvm-cat"
OPT="$LLVM_BIN/opt"
OBJCOPY="$LLVM_BIN/llvm-objcopy"
BCANALYZER="$LLVM_BIN/llvm-bcanalyzer"

TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT

say() { echo "make.sh: $*"; }

# --- llvm-as (LLVM 14) --------------------------------------------------------
say "llvm-as (LLVM $(llvm-config-14 --version))"
"$LLVM_AS" "$SRC/ir_globals.ll"      -o "$OUT/llvm14_ir_globals.bc"
"$LLVM_AS" "$SRC/ir_instructions.ll" -o "$OUT/llvm14_ir_instructions.bc"
"$LLVM_AS" "$SRC/ir_debuginfo.ll"    -o "$OUT/llvm14_ir_debuginfo.bc"
"$LLVM_AS" -opaque-pointers "$SRC/ir_opaque_ptr.ll" -o "$OUT/llvm14_ir_opaque_ptr.bc"

# Darwin triple => llvm-as writes the 0x0B17C0DE wrapper header.
"$LLVM_AS" "$SRC/ir_darwin.ll" -o "$OUT/llvm14_darwin_wrapper.bc"
magic="$(head -c 4 "$OUT/llvm14_darwin_wrapper.bc" | od -An -tx1 | tr -d ' \n')"
if [ "$magic" != "dec0170b" ]; then
    echo "make.sh: llvm14_darwin_wrapper.bc does not start with de c0 17 0b (got $magic)" >&2
    exit 1
fi

# Multi-module file: three modules concatenated at the bitstream level.
"$LLVM_CAT" -b -o "$OUT/llvm14_multi_module_cat.bc" \
    "$OUT/llvm14_ir_globals.bc" "$OUT/llvm14_ir_instructions.bc" "$OUT/llvm14_ir_debuginfo.bc"

# ThinLTO: module with a summary (GLOBALVAL_SUMMARY_BLOCK) and a ThinLTO
# bitcode file (summary + symbol table) from opt.
"$OPT" -module-summary "$SRC/ir_instructions.ll" -o "$OUT/llvm14_thinlto_module_summary.bc"
"$OPT" --thinlto-bc "$SRC/ir_globals.ll" -o "$OUT/llvm14_thinlto_bc_globals.bc"

# --- rustc (LLVM 22 bitcode) -------------------------------------------------------
if command -v rustc >/dev/null 2>&1; then
    say "rustc: $(rustc --version)"
    # Relative source path + path remapping keep the absolute checkout path
    # out of the debug info.
    (
        cd "$SRC"
        rustc --emit=llvm-bc --crate-type=lib --crate-name rust_sample \
            -C opt-level=0 -C debuginfo=2 -C codegen-units=1 \
            --remap-path-prefix="$SRC=/testdata/src" \
            rust_sample.rs -o "$OUT/rustc_llvm22_o0_debuginfo.bc"
        rustc --emit=llvm-bc --crate-type=lib --crate-name rust_sample \
            -C opt-level=3 -C codegen-units=1 \
            --remap-path-prefix="$SRC=/testdata/src" \
            rust_sample.rs -o "$OUT/rustc_llvm22_o3.bc"
    )
else
    say "rustc not found: skipping rustc_llvm22_*.bc"
fi

# --- clang-14 ----------------------------------------------------------------
if command -v clang-14 >/dev/null 2>&1; then
    say "clang-14: $(clang-14 --version | head -n1)"
    (
        cd "$SRC"
        # Serialized diagnostics: the compile fails on purpose (errors), so
        # ignore the exit status; the .dia file is still written.
        clang-14 -fsyntax-only -fno-color-diagnostics -Wall -Wextra -Wshadow \
            --serialize-diagnostics "$OUT/clang14_diagnostics.dia" \
            diag_errors.c 2>/dev/null || true
        test -s "$OUT/clang14_diagnostics.dia"

        # More serialized diagnostics, for the diag module's comparison with libclang
        # (tests/diag.rs). Each compile fails or warns on purpose.
        clang-14 -fsyntax-only -fno-color-diagnostics -Wall -Wextra -Wbogus-warning-flag \
            --serialize-diagnostics "$OUT/clang14_diag_macros.dia" diag_macros.c 2>/dev/null || true
        clang-14 -fsyntax-only -fno-color-diagnostics -std=c++17 -Wall -Wextra -Woverloaded-virtual \
            --serialize-diagnostics "$OUT/clang14_diag_cxx.dia" diag_cxx.cpp 2>/dev/null || true
        clang-14 -fsyntax-only -fno-color-diagnostics -Wall \
            --serialize-diagnostics "$OUT/clang14_diag_fatal.dia" diag_fatal.c 2>/dev/null || true
        clang-14 -c -O2 -fno-color-diagnostics -Rpass=inline -Rpass-missed=licm \
            --serialize-diagnostics "$OUT/clang14_diag_remarks.dia" diag_remarks.c -o /dev/null 2>/dev/null
        rm -rf "$TMP/module-cache"
        clang-14 -fsyntax-only -fno-color-diagnostics -Wall -fmodules -fimplicit-module-maps \
            -fmodules-cache-path="$TMP/module-cache" -Idiag_module \
            --serialize-diagnostics "$OUT/clang14_diag_modules.dia" diag_modules.c 2>/dev/null
        for f in macros cxx fatal remarks modules; do test -s "$OUT/clang14_diag_$f.dia"; done
        # Two streams in one file (libclang rejects it; the diag module reads both). Not a
        # well-formed single bitstream, so kept apart from the files every test walks.
        mkdir -p "$OUT/diag"
        cat "$OUT/clang14_diag_fatal.dia" "$OUT/clang14_diag_remarks.dia" > "$OUT/diag/clang14_diag_concatenated.dia"

        # PCH (raw "CPCH" bitstream). -fno-pch-timestamp keeps it stable.
        clang-14 -x c-header -Xclang -fno-pch-timestamp \
            pch_small.h -o "$OUT/clang14_small.pch"

        # Optimization remarks in bitstream format. On ELF targets clang-14
        # crashes in AsmPrinter::emitRemarksSection with -c/-S, so compile
        # for a Mach-O target (which is what the remarks section was designed
        # for). The separate remarks file is written to a relative path.
        # The object's remarks section records the absolute path of the
        # remarks file, so use a fixed scratch directory for reproducibility.
        RDIR=/tmp/llvm-bitstream-reader-remarks
        rm -rf "$RDIR" && mkdir -p "$RDIR"
        cp remarks.c "$RDIR/remarks.c"
        cd "$RDIR"
        clang-14 -target x86_64-apple-macosx10.15 -O2 -c \
            -fsave-optimization-record=bitstream \
            -foptimization-record-file=remarks.opt.bitstream \
            remarks.c -o remarks.o
        cp remarks.opt.bitstream "$OUT/clang14_remarks_darwin.opt.bitstream"
        # The object itself, for reading the remarks section out of a Mach-O file.
        cp remarks.o "$OUT/clang14_remarks_darwin.o"
        # The __LLVM,__remarks section of the object: remarks "meta" container
        # with the string table blob and the external-file path.
        "$OBJCOPY" --dump-section __LLVM,__remarks=remarks_section.bin remarks.o "$TMP/remarks.stripped.o"
        cp remarks_section.bin "$OUT/clang14_remarks_section_meta.opt.bitstream"
        cd "$SRC" && rm -rf "$RDIR"
    )
else
    say "clang-14 not found: skipping clang14_* (.dia, .pch, .opt.bitstream)"
fi

# --- LLVM 19 remarks (opt-19, llvm-remarkutil-19) ------------------------------------
# opt-19 -O2 on clang-14's unoptimized IR (with debug info) writes YAML remarks, which
# llvm-remarkutil-19 yaml2bitstream turns into a standalone bitstream container. Run
# in a fixed scratch directory with relative source names, so no checkout path leaks.
if command -v opt-19 >/dev/null 2>&1 && command -v llvm-remarkutil-19 >/dev/null 2>&1 \
    && command -v clang-14 >/dev/null 2>&1; then
    say "remarks: $(opt-19 --version | grep -m1 'LLVM version')"
    (
        RDIR=/tmp/llvm-bitstream-reader-remarks19
        rm -rf "$RDIR" && mkdir -p "$RDIR"
        cp "$SRC/remarks.c" "$SRC/remarks_hot.c" "$RDIR/"
        cd "$RDIR"
        clang-14 -g -O1 -Xclang -disable-llvm-passes -S -emit-llvm remarks.c -o remarks.ll
        opt-19 -O2 -pass-remarks-output=remarks.yaml remarks.ll -o /dev/null
        llvm-remarkutil-19 yaml2bitstream remarks.yaml -o "$OUT/llvm19_remarks_standalone.opt.bitstream"
        # opt-19's own bitstream output: a "separate remarks file" with no string table
        # anywhere (the table would go into an object file, and opt writes none).
        opt-19 -O2 -pass-remarks-output="$OUT/llvm19_opt_no_strtab.opt.bitstream" \
            -pass-remarks-format=bitstream remarks.ll -o /dev/null
        # Hotness needs profile counts: give every function an entry count of 12345.
        clang-14 -g -O1 -Xclang -disable-llvm-passes -S -emit-llvm remarks_hot.c -o hot.ll
        sed -i 's/^\(define .*\) !dbg \(![0-9]*\) {$/\1 !prof !90000 !dbg \2 {/' hot.ll
        echo '!90000 = !{!"function_entry_count", i64 12345}' >> hot.ll
        opt-19 -O2 -pass-remarks-with-hotness -pass-remarks-output=hot.yaml hot.ll -o /dev/null
        llvm-remarkutil-19 yaml2bitstream hot.yaml -o "$OUT/llvm19_remarks_hotness.opt.bitstream"
        cd "$SRC" && rm -rf "$RDIR"
    )
else
    say "opt-19, llvm-remarkutil-19 or clang-14 not found: skipping llvm19_*.opt.bitstream"
fi

# --- check which files LLVM 14's llvm-bcanalyzer can walk -------------------------
say "llvm-bcanalyzer -dump check:"
for f in "$OUT"/*.bc "$OUT"/*.dia "$OUT"/*.pch "$OUT"/*.opt.bitstream; do
    [ -e "$f" ] || continue
    if "$BCANALYZER" -dump "$f" >/dev/null 2>"$TMP/err"; then
        printf '  ok    %8d  %s\n' "$(stat -c %s "$f")" "$(basename "$f")"
    else
        printf '  FAIL  %8d  %s: %s\n' "$(stat -c %s "$f")" "$(basename "$f")" "$(head -n1 "$TMP/err")"
    fi
done
total=$(cat "$OUT"/*.bc "$OUT"/*.dia "$OUT"/*.pch "$OUT"/*.opt.bitstream 2>/dev/null | wc -c)
say "total size of test files: $total bytes"
