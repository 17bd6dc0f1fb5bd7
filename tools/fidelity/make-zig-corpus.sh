#!/usr/bin/env bash
# Builds the Zig corpus: every program of testdata/src/zig for every target and mode below,
# with Zig's own bitcode writer (PyPI's ziglang; `pip install ziglang`). Compare it with
#   python3 tools/fidelity/compare.py --versions 22 OUT_DIR
# Usage: make-zig-corpus.sh [OUT_DIR] (default /tmp/zig-corpus). Outputs that exist are kept.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
out="${1:-/tmp/zig-corpus}"
mkdir -p "$out"
if command -v zig >/dev/null 2>&1; then zig=(zig); else zig=(python3 -m ziglang); fi
"${zig[@]}" version >/dev/null
targets=(x86_64-linux aarch64-linux arm-linux-musleabihf riscv64-linux powerpc64le-linux
    wasm32-wasi x86_64-windows aarch64-macos x86-linux)
modes=(Debug ReleaseFast ReleaseSmall)
built=0 failed=0
for src in "$root"/testdata/src/zig/*.zig; do
    name="$(basename "$src" .zig)"
    for t in "${targets[@]}"; do
        for m in "${modes[@]}"; do
            bc="$out/$name-$t-$m.bc"
            [ -e "$bc" ] && continue
            if (cd "$out" && nice -n 10 "${zig[@]}" build-obj -femit-llvm-bc="$bc" -fno-emit-bin -O"$m" \
                -target "$t" "$src" >/dev/null 2>"$bc.log"); then
                rm -f "$bc.log"; built=$((built + 1))
            else
                echo "failed: $name $t $m (see $bc.log)"; failed=$((failed + 1))
            fi
        done
    done
done
echo "zig corpus in $out: $built built, $failed failed, $(ls "$out"/*.bc | wc -l) files"
