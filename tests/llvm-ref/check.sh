#!/usr/bin/env bash
# Builds llvm-events into OUTDIR (default: a temp dir), runs it on every file
# in testdata/, checks each output is well formed (enter/exit balanced, ends
# with `end bits=`), and cross-checks it against llvm-bcanalyzer -dump.
#   tests/llvm-ref/check.sh [OUTDIR]
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
TESTDATA="$(cd "$HERE/../../testdata" && pwd)"
if [ $# -ge 1 ]; then
    OUTDIR="$1"
else
    OUTDIR="$(mktemp -d)"
    trap 'rm -rf "$OUTDIR"' EXIT
fi

"$HERE/build.sh" "$OUTDIR" >/dev/null
EVENTS="$OUTDIR/llvm-events"

files=()
for f in "$TESTDATA"/*.bc "$TESTDATA"/*.dia "$TESTDATA"/*.pch "$TESTDATA"/*.opt.bitstream; do
    [ -e "$f" ] && files+=("$f")
done

status=0
for f in "${files[@]}"; do
    if ! "$EVENTS" "$f" >"$OUTDIR/out.txt"; then
        echo "FAIL $(basename "$f"): $(tail -n1 "$OUTDIR/out.txt")"
        status=1
        continue
    fi
    # Balanced enter/exit, never below zero, last line `end bits=N`.
    if ! awk '
        /^enter / { d++ }
        /^exit$/  { d--; if (d < 0) bad = 1 }
        { last = $0 }
        END { if (d != 0 || bad || last !~ /^end bits=[0-9]+$/) exit 1 }
    ' "$OUTDIR/out.txt"; then
        echo "FAIL $(basename "$f"): malformed event stream"
        status=1
    fi
done

python3 "$HERE/bcanalyzer_crosscheck.py" "$EVENTS" "${files[@]}" || status=1
exit $status
