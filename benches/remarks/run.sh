#!/usr/bin/env bash
# Times `bitstream-dump --remarks` against `llvm-remarkutil-19 bitstream2yaml` on a large
# bitstream remarks file, as whole processes, and prints the ratio.
#
#   benches/remarks/run.sh [FUNCTIONS [COPIES]]
#
# The input is made once into target/bench-remarks/ (delete it to remake it): a generated
# C file of FUNCTIONS functions (default 2000) with loops, calls and inlining candidates,
# compiled by clang-14 -g to unoptimized IR, optimized by opt-19 -O2 with every pass
# writing YAML remarks; the YAML is repeated COPIES times (default 100) with the
# function names made distinct per copy (as if from COPIES translation units), then
# converted by llvm-remarkutil-19 yaml2bitstream. Both programs' outputs are checked to
# be identical before timing. Uses hyperfine if installed, else a loop of 5 runs each.
# Needs clang-14, opt-19, llvm-remarkutil-19 (Debian llvm-19).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
N="${1:-2000}"
COPIES="${2:-100}"
OUT="$REPO/target/bench-remarks"
mkdir -p "$OUT"
BIG="$OUT/big-$N-x$COPIES.opt.bitstream"

if [ ! -s "$BIG" ]; then
    echo "making $BIG ($N functions, $COPIES copies)..."
    python3 - "$N" > "$OUT/big.c" <<'PY'
import sys
n = int(sys.argv[1])
print("extern double ext(double); extern void sink(void *);")
for i in range(n):
    k = i % 5
    if k == 0:
        print(f"static int helper{i}(int x) {{ return x * {i % 7 + 2} + {i}; }}")
        print(f"int sum{i}(const int *a, int n) {{ int s = 0; for (int j = 0; j < n; j++) s += helper{i}(a[j]); return s; }}")
    elif k == 1:
        print(f"void scale{i}(float *a, const float *b, float c, int n) {{ for (int j = 0; j < n; j++) a[j] = b[j] * c + {i}.0f; }}")
    elif k == 2:
        print(f"void calls{i}(double *a, int n) {{ for (int j = 0; j < n; j++) a[j] = ext(a[j] + {i}); }}")
    elif k == 3:
        print(f"int find{i}(const int *a, int n) {{ for (int j = 0; j < n; j++) if (a[j] == {i}) return j; return -1; }}")
    else:
        print(f"double red{i}(const double *d, int n) {{ double s = 0; for (int j = 0; j < n; j++) s += d[j] * {i}; int b[8]; for (int j = 0; j < 8; j++) b[j] = j + n; sink(b); return s; }}")
PY
    (cd "$OUT" && clang-14 -g -O1 -Xclang -disable-llvm-passes -S -emit-llvm big.c -o big.ll)
    (cd "$OUT" && opt-19 -O2 -pass-remarks-output=one.yaml big.ll -o /dev/null)
    for c in $(seq 1 "$COPIES"); do
        sed "s/^\(Function: *\)\(.*\)/\1\2_tu$c/; s/^\(  - Caller: *\)\(.*\)/\1\2_tu$c/" "$OUT/one.yaml"
    done > "$OUT/big.yaml"
    llvm-remarkutil-19 yaml2bitstream "$OUT/big.yaml" -o "$BIG"
    rm -f "$OUT/big.ll" "$OUT/one.yaml" "$OUT/big.yaml"
fi

(cd "$REPO" && CARGO_BUILD_JOBS="${CARGO_BUILD_JOBS:-1}" cargo build --release -q -p bitstream-dump)
DUMP="$REPO/target/release/bitstream-dump"

echo "input: $BIG ($(stat -c %s "$BIG") bytes)"
"$DUMP" --remarks "$BIG" > "$OUT/ours.yaml"
llvm-remarkutil-19 bitstream2yaml "$BIG" > "$OUT/llvm.yaml"
cmp "$OUT/ours.yaml" "$OUT/llvm.yaml"
echo "outputs identical: $(grep -c '^--- ' "$OUT/llvm.yaml") remarks, $(stat -c %s "$OUT/llvm.yaml") bytes of YAML"
rm -f "$OUT/ours.yaml" "$OUT/llvm.yaml"

if command -v hyperfine >/dev/null 2>&1; then
    hyperfine -N --warmup 1 --runs 5 --export-json "$OUT/hyperfine.json" \
        -n bitstream-dump "$DUMP --remarks $BIG" \
        -n llvm-remarkutil-19 "llvm-remarkutil-19 bitstream2yaml $BIG" --output=null
    python3 - "$OUT/hyperfine.json" <<'PY'
import json, sys
r = {x["command"]: x for x in json.load(open(sys.argv[1]))["results"]}
ours, llvm = r["bitstream-dump"]["median"], r["llvm-remarkutil-19"]["median"]
print(f"median wall: bitstream-dump {ours*1000:.1f} ms, llvm-remarkutil-19 {llvm*1000:.1f} ms: {llvm/ours:.1f}x faster")
# On a loaded machine the wall time includes waiting for a CPU; the CPU time does not.
cpu = {k: v["user"] + v["system"] for k, v in r.items()}
ours, llvm = cpu["bitstream-dump"], cpu["llvm-remarkutil-19"]
print(f"mean CPU (user+sys): bitstream-dump {ours*1000:.1f} ms, llvm-remarkutil-19 {llvm*1000:.1f} ms: {llvm/ours:.1f}x less")
PY
else
    time_runs() {
        local best=""
        for _ in 1 2 3 4 5; do
            local s e t
            s=$(date +%s%N); "$@" > /dev/null; e=$(date +%s%N)
            t=$(( (e - s) / 1000000 ))
            if [ -z "$best" ] || [ "$t" -lt "$best" ]; then best=$t; fi
        done
        echo "$best"
    }
    ours=$(time_runs "$DUMP" --remarks "$BIG")
    llvm=$(time_runs llvm-remarkutil-19 bitstream2yaml "$BIG")
    echo "best of 5: bitstream-dump ${ours} ms, llvm-remarkutil-19 ${llvm} ms"
    python3 -c "print(f'ratio: {$llvm/max($ours,1):.1f}x')"
fi
