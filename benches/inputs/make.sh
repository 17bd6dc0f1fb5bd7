#!/usr/bin/env bash
# Produce the LLVM bitcode files used to benchmark llvm-bitstream-reader.
#
#   benches/inputs/make.sh [--force] [OUTDIR]
#
# OUTDIR defaults to <repo>/target/bench-inputs.  Files that already exist are
# kept unless --force is given.  See benches/inputs/README.md for what each
# file is.  Needs: cargo/rustc (any recent stable; 1.95 emits LLVM 22 bitcode),
# llvm-cat (any LLVM version: `-b` only concatenates bitcode buffers), and
# optionally llvm-bcanalyzer for the final sanity check.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"

FORCE=0
OUTDIR=""
for arg in "$@"; do
    case "$arg" in
        --force|-f) FORCE=1 ;;
        -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
        -*) echo "make.sh: unknown option $arg" >&2; exit 2 ;;
        *) OUTDIR="$arg" ;;
    esac
done
OUTDIR="${OUTDIR:-$REPO/target/bench-inputs}"
mkdir -p "$OUTDIR"
OUTDIR="$(cd "$OUTDIR" && pwd)"

LLVM_CAT="${LLVM_CAT:-$(command -v llvm-cat || command -v llvm-cat-14 || true)}"
BCANALYZER="${BCANALYZER:-$(command -v llvm-bcanalyzer || command -v llvm-bcanalyzer-14 || true)}"
TARGET="$(rustc -vV | sed -n 's/^host: //p')"
START=$(date +%s)

# Keep absolute build paths out of the debug info so the files do not depend
# on where the repository or the cargo registry live.
CARGO_HOME_DIR="${CARGO_HOME:-$HOME/.cargo}"
REMAP="--remap-path-prefix=$CARGO_HOME_DIR/registry/src=/cargo-registry --remap-path-prefix=$HERE=/bench-inputs"

# --force rebuilds from scratch (cargo does not track the extra .bc outputs).
if [[ $FORCE == 1 ]]; then
    rm -rf "$OUTDIR/cargo-target-lto" "$OUTDIR/cargo-target-percrate"
fi

# Pass --target explicitly so RUSTFLAGS apply only to target crates, never to
# build scripts or proc-macros (serde_derive and its syn 3 are host crates).
cd "$HERE"

need() { # need FILE -> true if FILE must be (re)built
    [[ $FORCE == 1 || ! -s "$OUTDIR/$1" ]]
}

newest() { # newest DIR PREFIX -> path of newest DIR/PREFIX-*.bc
    ls -t "$1"/"$2"-*.bc 2>/dev/null | head -n 1
}

build_lto() { # build_lto PROFILE OUTFILE
    local profile="$1" out="$2"
    local tdir="$OUTDIR/cargo-target-lto"
    echo "== $out: fat-LTO whole program, profile $profile" >&2
    # The profile sets lto = "fat", so cargo embeds bitcode in every rlib and
    # rustc runs fat LTO over the whole crate graph plus std; --emit=llvm-bc
    # on the final crate writes that single merged module.
    CARGO_TARGET_DIR="$tdir" RUSTFLAGS="$REMAP" \
        cargo rustc --locked --quiet --profile "$profile" --target "$TARGET" \
        --bin bench-input-program -- --emit=llvm-bc,link
    local bc
    bc="$(newest "$tdir/$TARGET/$profile/deps" bench_input_program)"
    [[ -n $bc ]] || { echo "make.sh: no .bc produced for $profile" >&2; exit 1; }
    cp "$bc" "$OUTDIR/$out"
}

PERCRATE_DEPS=""
build_percrate() { # one module per crate: codegen-units=1, debuginfo=2, opt-level 0
    [[ -n $PERCRATE_DEPS ]] && return 0
    local tdir="$OUTDIR/cargo-target-percrate"
    echo "== per-crate bitcode (profile percrate, codegen-units=1)" >&2
    CARGO_TARGET_DIR="$tdir" RUSTFLAGS="--emit=llvm-bc -C codegen-units=1 $REMAP" \
        cargo build --locked --quiet --profile percrate --target "$TARGET"
    PERCRATE_DEPS="$tdir/$TARGET/percrate/deps"
}

crate_bc() { # crate_bc CRATE_NAME -> path of its .bc (needs build_percrate)
    local bc
    bc="$(newest "$PERCRATE_DEPS" "$1")"
    [[ -n $bc ]] || { echo "make.sh: no .bc for crate $1" >&2; exit 1; }
    echo "$bc"
}

if need lto-o0-debug.bc; then build_lto lto-o0 lto-o0-debug.bc; fi
if need lto-o3.bc; then build_lto lto-o3 lto-o3.bc; fi
if need syn-debug.bc; then
    build_percrate
    cp "$(crate_bc syn)" "$OUTDIR/syn-debug.bc"
fi
if need multi4.bc; then
    build_percrate
    [[ -n $LLVM_CAT ]] || { echo "make.sh: llvm-cat not found" >&2; exit 1; }
    echo "== multi4.bc: llvm-cat -b syn serde_json regex_syntax proc_macro2" >&2
    "$LLVM_CAT" -b -o "$OUTDIR/multi4.bc" \
        "$(crate_bc syn)" "$(crate_bc serde_json)" \
        "$(crate_bc regex_syntax)" "$(crate_bc proc_macro2)"
fi

# C and C++ by clang-22, at -O2 -g, from sources bundled in crates.io -sys crates:
# sqlite3.c (libsqlite3-sys 0.35.0) and harfbuzz.cc (harfbuzz-sys 0.6.1, one unity
# translation unit). Skipped, with a message, without clang-22.
CLANG22="${CLANG22:-$(command -v clang-22 || true)}"
CLANGXX22="${CLANGXX22:-$(command -v clang++-22 || true)}"
if need c-sqlite3-o2g.bc || need cxx-harfbuzz-o2g.bc; then
    if [[ -z $CLANG22 || -z $CLANGXX22 ]]; then
        echo "make.sh: clang-22 not found: no C/C++ inputs (apt-get install clang-22)" >&2
    else
        src="$OUTDIR/c-sources"
        mkdir -p "$src/src"
        printf '[package]\nname = "c-sources"\nversion = "0.0.0"\nedition = "2021"\n[workspace]\n[dependencies]\nlibsqlite3-sys = "=0.35.0"\nharfbuzz-sys = "=0.6.1"\n' > "$src/Cargo.toml"
        echo 'fn main() {}' > "$src/src/main.rs"
        (cd "$src" && cargo fetch --quiet)
        reg() { ls -d "$CARGO_HOME_DIR"/registry/src/*/"$1" | head -n 1; }
        if need c-sqlite3-o2g.bc; then
            echo "== c-sqlite3-o2g.bc: clang-22 -O2 -g sqlite3.c" >&2
            "$CLANG22" -O2 -g -c -emit-llvm "$(reg libsqlite3-sys-0.35.0)/sqlite3/sqlite3.c" -o "$OUTDIR/c-sqlite3-o2g.bc"
        fi
        if need cxx-harfbuzz-o2g.bc; then
            echo "== cxx-harfbuzz-o2g.bc: clang++-22 -O2 -g harfbuzz.cc" >&2
            "$CLANGXX22" -std=c++11 -O2 -g -DHAVE_PTHREAD=1 -w -c -emit-llvm \
                "$(reg harfbuzz-sys-0.6.1)/harfbuzz/src/harfbuzz.cc" -o "$OUTDIR/cxx-harfbuzz-o2g.bc"
        fi
    fi
fi

END=$(date +%s)
echo "make.sh: done in $((END - START)) s; files in $OUTDIR:" >&2
for f in lto-o0-debug.bc lto-o3.bc syn-debug.bc multi4.bc c-sqlite3-o2g.bc cxx-harfbuzz-o2g.bc; do
    p="$OUTDIR/$f"
    [[ -s $p ]] || continue
    check="(llvm-bcanalyzer not found)"
    if [[ -n $BCANALYZER ]]; then
        if msg="$("$BCANALYZER" "$p" 2>&1 >/dev/null)"; then
            check="llvm-bcanalyzer: ok"
        else
            check="llvm-bcanalyzer: FAILED: $(echo "$msg" | head -n 1)"
        fi
    fi
    printf '%s\t%s bytes\t%s\n' "$p" "$(stat -c %s "$p")" "$check"
done
