#!/usr/bin/env bash
# The long differential run of crates/bitstream-dump/tests/generated.rs: more variants of
# each input than CI's 4, with a seed of its own (default: today's date), against
# llvm-dis 14, 19 and 22. Run before each stop; report the runs and what they found.
#   tools/fidelity/generated.sh [VARIANTS] [SEED]
set -euo pipefail
cd "$(dirname "$0")/../.."
variants="${1:-40}"
seed="${2:-$(date +%Y%m%d)}"
GENERATED_VARIANTS="$variants" GENERATED_SEED="$seed" \
    cargo test --release -p bitstream-dump --test generated -- --nocapture 2>&1 |
    grep -v '^\s*[0-9]*: \|^\s*at ' | tee "${TMPDIR:-/tmp}/generated-$seed.log"
