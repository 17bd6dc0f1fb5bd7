#!/usr/bin/env bash
# Function bodies against LLVM 22, in the same run, with the ratios:
# - decoding every body in-process: our `cargo bench --bench bodies` (module read, module
#   constants, every body) against `materialize22` (LLVM 22's getLazyModule +
#   materializeAll of each module, built here from materialize22.cpp on llvm-22-dev), the median of ITERS
#   in-process runs each, ROUNDS rounds alternated;
# - `bitstream-dump --dis` against `llvm-dis-22` as whole processes (wall time, peak RSS),
#   after checking that both decoders count the same instructions: on one thread
#   (`--threads 1`) and on every core (`--threads $(nproc)`).
#
#   benches/bodies/run.sh [ROUNDS] [ITERS] [FILE...]
#
# Without FILEs: libclc-22's largest library (target/libclc, unpacked by .ci/run), the
# committed rustc LLVM 22 files, and the big benchmark inputs of benches/inputs/make.sh if
# they were made (target/bench-inputs).
set -euo pipefail
ROUNDS="${1:-3}"; ITERS="${2:-5}"; shift $(( $# < 2 ? $# : 2 ))
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
OUT="$REPO/target/bench-bodies"; mkdir -p "$OUT"
LLVM_CONFIG=/usr/lib/llvm-22/bin/llvm-config
[[ -x "$LLVM_CONFIG" ]] || { echo "needs llvm-22-dev (apt-get install llvm-22-dev)" >&2; exit 1; }
if [[ ! -x "$OUT/materialize22" || "$HERE/materialize22.cpp" -nt "$OUT/materialize22" ]]; then
    g++ -O2 $($LLVM_CONFIG --cxxflags) "$HERE/materialize22.cpp" \
        $($LLVM_CONFIG --ldflags --libs bitreader core support) -o "$OUT/materialize22"
fi
cargo build --release -q -p bitstream-dump --manifest-path "$REPO/Cargo.toml"
cargo bench -q --bench bodies --manifest-path "$REPO/Cargo.toml" --no-run 2>/dev/null
OURS_BENCH="$(ls -t "$REPO"/target/release/deps/bodies-* | grep -v '\.d$' | head -1)"
DUMP="$REPO/target/release/bitstream-dump"

FILES=("$@")
if [[ ${#FILES[@]} -eq 0 ]]; then
    for f in "$REPO/target/libclc/22/usr/lib/clc/amdgcn-amd-amdhsa.bc" \
             "$REPO/testdata/rustc_llvm22_o3.bc" "$REPO/testdata/rustc_llvm22_o0_debuginfo.bc" \
             "$REPO/target/bench-inputs/lto-o3.bc" "$REPO/target/bench-inputs/lto-o0-debug.bc" \
             "$REPO/target/bench-inputs/c-sqlite3-o2g.bc" "$REPO/target/bench-inputs/cxx-harfbuzz-o2g.bc"; do
        [[ -s "$f" ]] && FILES+=("$f")
    done
fi

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
CORES="$(nproc)"
printf '| file | MB | LLVM 22 materializeAll ms | ours ms | ratio | llvm-dis-22 s, MB | --dis 1 thread s, MB | ratio | --dis %s threads s, MB | ratio |\n|---|---|---|---|---|---|---|---|---|---|\n' "$CORES"
for f in "${FILES[@]}"; do
    # Both count the same instructions, or nothing is timed.
    ct="$("$OUT/materialize22" "$f" 1 | cut -d' ' -f4)"; co="$("$OURS_BENCH" "$f" 1 | cut -d' ' -f4)"
    [[ "$ct" == "$co" ]] || { echo "$(basename "$f"): LLVM counts $ct instructions, we count $co" >&2; exit 1; }
    theirs=(); ours=(); dis_t=(); dis_o=(); dis_p=()
    for _ in $(seq "$ROUNDS"); do
        theirs+=("$("$OUT/materialize22" "$f" "$ITERS" | cut -d' ' -f1)")
        ours+=("$("$OURS_BENCH" "$f" "$ITERS" | cut -d' ' -f1)")
        # Both write a file: given several modules llvm-dis writes one per module, named
        # after -o (and would make /dev/null.0, … of -o /dev/null).
        dis_t+=("$( { /usr/bin/time -f '%e %M' llvm-dis-22 "$f" -o "$OUT/llvm-dis.ll"; } 2>&1 | tail -1)")
        dis_o+=("$( { /usr/bin/time -f '%e %M' "$DUMP" --dis --threads 1 "$f" > "$OUT/ours.ll"; } 2>&1 | tail -1)")
        dis_p+=("$( { /usr/bin/time -f '%e %M' "$DUMP" --dis --threads "$CORES" "$f" > "$OUT/ours.ll"; } 2>&1 | tail -1)")
        rm -f "$OUT"/llvm-dis.ll* "$OUT/ours.ll"
    done
    t=$(printf '%s\n' "${theirs[@]}" | median); o=$(printf '%s\n' "${ours[@]}" | median)
    dt=$(printf '%s\n' "${dis_t[@]}" | cut -d' ' -f1 | median); dtm=$(printf '%s\n' "${dis_t[@]}" | cut -d' ' -f2 | median)
    do_=$(printf '%s\n' "${dis_o[@]}" | cut -d' ' -f1 | median); dom=$(printf '%s\n' "${dis_o[@]}" | cut -d' ' -f2 | median)
    dp=$(printf '%s\n' "${dis_p[@]}" | cut -d' ' -f1 | median); dpm=$(printf '%s\n' "${dis_p[@]}" | cut -d' ' -f2 | median)
    mb=$(awk -v b="$(stat -c %s "$f")" 'BEGIN {printf "%.1f", b / 1e6}')
    awk -v n="$(basename "$f")" -v mb="$mb" -v t="$t" -v o="$o" -v dt="$dt" -v dtm="$dtm" -v do_="$do_" -v dom="$dom" -v dp="$dp" -v dpm="$dpm" 'BEGIN {
        printf "| %s | %s | %.1f | %.1f | %.1fx | %.3f, %d | %.3f, %d | %.1fx | %.3f, %d | %.1fx |\n", n, mb, t, o, t / o, dt, dtm / 1024, do_, dom / 1024, dt / do_, dp, dpm / 1024, dt / dp }'
done
