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
        # The __LLVM,__remarks section of the object: remarks "meta" container
        # with the string table blob and the external-file path.
        "$OBJCOPY" --dump-section __LLVM,__remarks=remarks_section.bin remarks.o "$TMP/remarks.stripped.o"
        cp remarks_section.bin "$OUT/clang14_remarks_section_meta.opt.bitstream"
        cd "$SRC" && rm -rf "$RDIR"
    )
else
    say "clang-14 not found: skipping clang14_* (.dia, .pch, .opt.bitstream)"
fi

# --- bitcode written by old LLVM (3.2 to 4.0) --------------------------------------
# Not made here: no LLVM this old is packaged any more. The files are LLVM's own
# test/Bitcode inputs (Apache-2.0 WITH LLVM-exception), as kept by the llvm-ir crate
# (github.com/cdisselkoen/llvm-ir, tests/llvm_bc/, commit 39269a1954be). Give a checkout
# of it in LLVM_IR_CHECKOUT to copy them again; they exercise the format's upgrade paths
# (VERSION 0/1 value numbering, names in the module VALUE_SYMTAB, typed pointers, legacy
# linkage codes and attribute groups, VSTOFFSET + FNENTRY in 4.0).
OLD_BC_COMMIT=39269a1954be8e3f495f027a32bfbd126278f531
if [ -n "${LLVM_IR_CHECKOUT:-}" ] && git -C "$LLVM_IR_CHECKOUT" cat-file -e "$OLD_BC_COMMIT" 2>/dev/null; then
    for pair in \
        linkage-types-3.2.ll.bc:llvm32_linkage_types.bc \
        global-variables.3.2.ll.bc:llvm32_global_variables.bc \
        visibility-styles.3.2.ll.bc:llvm32_visibility_styles.bc \
        highLevelStructure.3.2.ll.bc:llvm32_high_level_structure.bc \
        attributes-3.3.ll.bc:llvm33_attributes.bc \
        local-linkage-default-visibility.3.4.ll.bc:llvm34_local_linkage_default_visibility.bc \
        weak-macho-3.5.ll.bc:llvm35_weak_macho.bc \
        compatibility-3.6.ll.bc:llvm36_compatibility.bc \
        compatibility-4.0.ll.bc:llvm40_compatibility.bc; do
        git -C "$LLVM_IR_CHECKOUT" show "$OLD_BC_COMMIT:tests/llvm_bc/${pair%%:*}" >"$OUT/${pair##*:}"
    done
else
    say "LLVM_IR_CHECKOUT not set (or without commit $OLD_BC_COMMIT): keeping llvm3*_*.bc, llvm40_*.bc"
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
