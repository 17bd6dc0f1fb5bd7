#!/usr/bin/env bash
# Dumps each installed LLVM's intrinsic attribute table (dump.cpp, built against that
# LLVM), for gen.py to turn into src/ir/upgrade/intrinsic_attrs.rs.
#   tools/gen-intrinsic-attrs/gen.sh [VERSION...]   (default: 13 14 15 16 19 22)
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
OUT="${OUT:-$HERE/../../target/gen-intrinsic-attrs}"; mkdir -p "$OUT"
VERSIONS=("$@"); [[ ${#VERSIONS[@]} -gt 0 ]] || VERSIONS=(13 14 15 16 19 22)
for v in "${VERSIONS[@]}"; do
    cfg=/usr/lib/llvm-$v/bin/llvm-config
    [[ -x "$cfg" ]] || { echo "llvm-$v-dev is not installed" >&2; exit 1; }
    g++ -O1 $($cfg --cxxflags) -fexceptions "$HERE/dump.cpp" $($cfg --ldflags --libs core support) -o "$OUT/dump$v"
    "$OUT/dump$v" > "$OUT/llvm$v.tsv"
    echo "llvm $v: $(wc -l < "$OUT/llvm$v.tsv") intrinsics" >&2
done
