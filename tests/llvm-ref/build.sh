#!/usr/bin/env bash
# Builds the LLVM 14 reference dumper: tests/llvm-ref/build.sh OUTDIR
# produces OUTDIR/llvm-events. Needs llvm-config-14 (Debian: llvm-14-dev) and g++.
set -euo pipefail

if [ $# -ne 1 ]; then
    echo "usage: $0 OUTDIR" >&2
    exit 2
fi
OUTDIR="$1"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

LLVM_CONFIG="${LLVM_CONFIG:-llvm-config-14}"
CXX="${CXX:-g++}"
if ! command -v "$LLVM_CONFIG" >/dev/null 2>&1; then
    echo "build.sh: $LLVM_CONFIG not found (install llvm-14-dev)" >&2
    exit 1
fi
if ! command -v "$CXX" >/dev/null 2>&1; then
    echo "build.sh: $CXX not found (install g++)" >&2
    exit 1
fi
case "$("$LLVM_CONFIG" --version)" in
    14.*) ;;
    *) echo "build.sh: $LLVM_CONFIG is not LLVM 14 ($("$LLVM_CONFIG" --version))" >&2; exit 1 ;;
esac

mkdir -p "$OUTDIR"
# On Debian `--libs bitstreamreader support` resolves to the shared -lLLVM-14.
# shellcheck disable=SC2046
"$CXX" -O2 $("$LLVM_CONFIG" --cxxflags) "$HERE/events.cpp" \
    $("$LLVM_CONFIG" --ldflags --libs bitstreamreader support) \
    -Wl,-rpath,"$("$LLVM_CONFIG" --libdir)" \
    -o "$OUTDIR/llvm-events"
echo "built $OUTDIR/llvm-events"
