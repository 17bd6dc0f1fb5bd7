#!/usr/bin/env bash
# Side-by-side benchmark of LLVM bitstream readers; see benches/compare/README.md.
#
#   benches/compare/run.sh [FILES...]
#
# Default FILES: the four files of benches/inputs/make.sh (made if missing).
# Environment: ROUNDS (default 3), ITERS (walks per process, default 5),
#              READERS (default "llvm14 peer-llvm-bitcode peer-llvm-bitstream ours ours-iter"),
#              MODES (default "full skip"),
#              RIGS (default "fold sink": how a walk hands operands on; see README.md).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
OUT="$REPO/target/bench-compare"
ROUNDS="${ROUNDS:-3}"
ITERS="${ITERS:-5}"
READERS="${READERS:-llvm14 peer-llvm-bitcode peer-llvm-bitstream ours ours-iter}"
MODES="${MODES:-full skip}"
RIGS="${RIGS:-fold sink}"
LLVM_CONFIG="${LLVM_CONFIG:-$(command -v llvm-config-14 || command -v llvm-config)}"
TIME=/usr/bin/time
mkdir -p "$OUT"

# ---- inputs ---------------------------------------------------------------
if [[ $# -gt 0 ]]; then
    FILES=("$@")
else
    INPUTS="$REPO/target/bench-inputs"
    FILES=("$INPUTS/lto-o0-debug.bc" "$INPUTS/lto-o3.bc" "$INPUTS/syn-debug.bc" "$INPUTS/multi4.bc")
    for f in "${FILES[@]}"; do
        [[ -s $f ]] || { "$REPO/benches/inputs/make.sh" "$INPUTS"; break; }
    done
fi

# ---- build ----------------------------------------------------------------
declare -A BIN BUILD_ERR
echo "building readers (release) ..." >&2
# LLVM 14 is linked statically when its .a files are there (libLLVM-14.so alone
# would add ~90 MB of mapped pages to the peak RSS), dynamically otherwise.
build_llvm14() {
    local cxx=(g++ -O2 $("$LLVM_CONFIG" --cxxflags) -fexceptions "$HERE/llvm14.cpp" -o "$OUT/llvm14")
    "${cxx[@]}" $("$LLVM_CONFIG" --ldflags) \
        $("$LLVM_CONFIG" --link-static --libs bitstreamreader support) \
        $("$LLVM_CONFIG" --link-static --system-libs) 2>"$OUT/llvm14.build.log" ||
    "${cxx[@]}" $("$LLVM_CONFIG" --ldflags --libs bitstreamreader support) \
        -Wl,-rpath,"$("$LLVM_CONFIG" --libdir)" 2>>"$OUT/llvm14.build.log"
}
if [[ -n $LLVM_CONFIG ]] && build_llvm14; then
    BIN[llvm14]="$OUT/llvm14"
else
    BUILD_ERR[llvm14]=1; echo "llvm14 harness failed to build: $OUT/llvm14.build.log" >&2
fi
export CARGO_TARGET_DIR="$OUT/rust"
RUSTBIN="$CARGO_TARGET_DIR/release"
if (cd "$HERE/rust" && cargo build --release --quiet \
        --bin peer-llvm-bitcode --bin peer-llvm-bitstream) 2>"$OUT/peers.build.log"; then
    BIN[peer-llvm-bitcode]="$RUSTBIN/peer-llvm-bitcode"
    BIN[peer-llvm-bitstream]="$RUSTBIN/peer-llvm-bitstream"
else
    BUILD_ERR[peer-llvm-bitcode]=1; BUILD_ERR[peer-llvm-bitstream]=1
    echo "peer harnesses failed to build: $OUT/peers.build.log" >&2
fi
# Our harness is built separately so that a broken main crate does not take
# the peers down with it.
if (cd "$HERE/rust" && cargo build --release --quiet --features ours --bin ours --bin ours-iter) \
        2>"$OUT/ours.build.log"; then
    BIN[ours]="$RUSTBIN/ours"
    BIN[ours-iter]="$RUSTBIN/ours-iter"
else
    BUILD_ERR[ours]=1; BUILD_ERR[ours-iter]=1
    echo "ours harnesses failed to build: $OUT/ours.build.log" >&2
fi

# ---- run ------------------------------------------------------------------
# One line per process: file mode rig round reader status best_ms median_ms rss_kb checksum
RESULTS="$OUT/results.tsv"
: > "$RESULTS"
for f in "${FILES[@]}"; do
    [[ -s $f ]] || { echo "missing input $f" >&2; exit 1; }
    for mode in $MODES; do
      for rig in $RIGS; do
        flag=(); [[ $mode == skip ]] && flag=(--skip-functions)
        [[ $rig == sink ]] && flag+=(--sink)
        for ((round = 1; round <= ROUNDS; round++)); do
            for r in $READERS; do
                if [[ -z ${BIN[$r]:-} ]]; then
                    printf '%s\t%s\t%s\t%d\t%s\tbuild-error\t\t\t\t\n' "$f" "$mode" "$rig" "$round" "$r" >> "$RESULTS"
                    continue
                fi
                set +e
                stdout="$("$TIME" -f %M -o "$OUT/rss.txt" "${BIN[$r]}" "$f" --iters "$ITERS" "${flag[@]}" 2>"$OUT/stderr.txt")"
                rc=$?
                set -e
                rss="$(tail -n 1 "$OUT/rss.txt" 2>/dev/null || true)"
                read -r best median < <(sed -n 's/^time_ms=//p' "$OUT/stderr.txt" | tail -n 1) || true
                sum="$(echo "$stdout" | tail -n 1)"
                if [[ $sum == unsupported ]]; then status=unsupported
                elif [[ $rc != 0 || $sum != checksum* ]]; then
                    status=error
                    echo "  $r $mode $(basename "$f"): $(grep -m1 -i error "$OUT/stderr.txt" || echo "exit $rc")" >&2
                else status=ok
                fi
                printf '%s\t%s\t%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\n' "$f" "$mode" "$rig" "$round" "$r" \
                    "$status" "${best:-}" "${median:-}" "$rss" "$sum" >> "$RESULTS"
                best=; median=
            done
        done
        echo "done: $(basename "$f") $mode $rig" >&2
      done
    done
done

# ---- report ---------------------------------------------------------------
python3 - "$RESULTS" "$ROUNDS" "$ITERS" "$READERS" <<'PY'
import os, statistics, sys
from collections import defaultdict
path, rounds, iters, readers = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4].split()
rows = [l.rstrip("\n").split("\t") for l in open(path) if l.strip()]
by = defaultdict(list)  # ((file, mode, rig), reader) -> rows
order = []
for file, mode, rig, rnd, reader, status, best, med, rss, csum in rows:
    if (file, mode, rig) not in order:
        order.append((file, mode, rig))
    by[((file, mode, rig), reader)].append(dict(round=int(rnd), status=status, best=best,
                                                med=med, rss=rss, csum=csum))
def fnum(x):
    try: return float(x)
    except ValueError: return None
for key in order:
    file, mode, rig = key
    size = os.path.getsize(file)
    print(f"\n### {os.path.basename(file)} ({size/1e6:.1f} MB), "
          f"{'full walk' if mode == 'full' else '--skip-functions'}, {rig} rig "
          f"({rounds} rounds x {iters} walks)\n")
    print("| reader | MB/s best | MB/s median | time vs LLVM 14 | peak RSS | checksum = LLVM |")
    print("|---|---:|---:|---:|---:|---|")
    ref = {r["round"]: r for r in by.get((key, "llvm14"), [])}
    for reader in readers:
        runs = by.get((key, reader), [])
        ok = [r for r in runs if r["status"] == "ok" and fnum(r["best"])]
        statuses = {r["status"] for r in runs}
        if ok:
            best = min(fnum(r["best"]) for r in ok)
            med = statistics.median(fnum(r["med"]) for r in ok)
            mbs_best, mbs_med = f"{size/1e3/best:.0f}", f"{size/1e3/med:.0f}"
            ratios = []
            for r in ok:
                rr = ref.get(r["round"])
                if rr and rr["status"] == "ok" and fnum(rr["med"]):
                    ratios.append(fnum(r["med"]) / fnum(rr["med"]))
            ratio = "1.00x" if reader == "llvm14" else (f"{statistics.median(ratios):.2f}x" +
                     (f" ({min(ratios):.2f}-{max(ratios):.2f})" if len(ratios) > 1 else "")) if ratios else "-"
        else:
            mbs_best = mbs_med = ratio = "-"
        rss = [int(r["rss"]) for r in runs if r["rss"].isdigit() and r["status"] != "unsupported"]
        rss_s = f"{max(rss)/1024:.0f} MB" if rss else "-"
        if "build-error" in statuses:
            agree = "error (build failed)"
        elif "error" in statuses:
            agree = "error"
        elif statuses == {"unsupported"}:
            agree = "unsupported"
        elif reader == "llvm14":
            agree = "(reference)"
        else:
            refsums = {rr["csum"] for rr in ref.values() if rr["status"] == "ok"}
            sums = {r["csum"] for r in ok}
            agree = "n/a" if not refsums else ("yes" if sums == refsums else "no")
        name = {"llvm14": "LLVM 14 BitstreamCursor (C++)",
                "peer-llvm-bitcode": "llvm-bitcode 0.4.1",
                "peer-llvm-bitstream": "llvm-bitstream 0.0.3",
                "ours": "llvm-bitstream-reader (ours), lending walk",
                "ours-iter": "llvm-bitstream-reader (ours), Iterator"}.get(reader, reader)
        print(f"| {name} | {mbs_best} | {mbs_med} | {ratio} | {rss_s} | {agree} |")
    sums = sorted({r["csum"] for r in by.get((key, "llvm14"), []) if r["status"] == "ok"})
    if sums:
        print(f"\nLLVM 14: `{sums[0]}`")
PY
