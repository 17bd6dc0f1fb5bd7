#!/usr/bin/env bash
# Times `bitstream-dump --diagnostics` against libclang 14 (tests/libclang/format_diagnostics.c:
# clang_loadDiagnostics, then clang_formatDiagnostic on every diagnostic and its notes) on
# a large .dia file, as whole processes writing to /dev/null, and prints the ratio.
#
#   bash benches/diag/run.sh [MEGABYTES]     (default 32)
#
# Needs python3, cc, libclang-14-dev; hyperfine if installed (else a timing loop).
# The input is made by make_input.py from testdata/clang14_diagnostics.dia (clang-14's).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
MB="${1:-32}"
WORK="${BENCH_DIR:-$ROOT/target/bench-diag}"
mkdir -p "$WORK"
LLVM_LIB="$(llvm-config-14 --libdir 2>/dev/null || echo /usr/lib/llvm-14/lib)"
LLVM_INC="$(dirname "$LLVM_LIB")/include"

INPUT="$WORK/large.dia"
python3 "$ROOT/benches/diag/make_input.py" "$ROOT/testdata/clang14_diagnostics.dia" "$INPUT" "$MB"
ls -l "$INPUT"

cc -O2 -I"$LLVM_INC" "$ROOT/tests/libclang/format_diagnostics.c" -L"$LLVM_LIB" -lclang \
    -Wl,-rpath,"$LLVM_LIB" -o "$WORK/format_diagnostics"
(cd "$ROOT" && CARGO_BUILD_JOBS="${CARGO_BUILD_JOBS:-1}" cargo build --release -q -p bitstream-dump)
OURS="$ROOT/target/release/bitstream-dump --diagnostics $INPUT"
THEIRS="$WORK/format_diagnostics $INPUT"

# Same output first: the comparison is only fair if both do the same work.
$OURS > "$WORK/ours.txt"
(cd "$WORK" && $THEIRS > "$WORK/theirs.txt")
cmp "$WORK/ours.txt" "$WORK/theirs.txt"
echo "identical output: $(wc -l < "$WORK/ours.txt") lines"

if command -v hyperfine > /dev/null; then
    hyperfine -N --warmup 1 --runs "${RUNS:-5}" --export-json "$WORK/hyperfine.json" \
        -n bitstream-dump "$OURS" -n libclang-14 "$THEIRS" --output=null
    python3 - "$WORK/hyperfine.json" <<'PY'
import json, sys
r = {x["command"]: x for x in json.load(open(sys.argv[1]))["results"]}
ours, theirs = r["bitstream-dump"], r["libclang-14"]
print(f"bitstream-dump {ours['mean']*1000:.1f} ms ± {ours['stddev']*1000:.1f}, "
      f"libclang-14 {theirs['mean']*1000:.1f} ms ± {theirs['stddev']*1000:.1f}: "
      f"libclang takes {theirs['mean']/ours['mean']:.2f}x as long")
PY
else
    time_ms() { local best=; for _ in 1 2 3 4 5; do local s; s=$(date +%s%N); "$@" > /dev/null; local t=$(( ($(date +%s%N) - s) / 1000000 )); [ -z "$best" ] || [ "$t" -lt "$best" ] && best=$t; done; echo "$best"; }
    o=$(time_ms $OURS); t=$(time_ms $THEIRS)
    echo "bitstream-dump ${o} ms, libclang-14 ${t} ms (best of 5): libclang takes $(python3 -c "print(f'{$t/max($o,1):.2f}')")x as long"
fi
