#!/usr/bin/env bash
# make-corpus.sh: build a corpus of real-world LLVM bitcode that nobody on the team wrote,
# for tools/fidelity/compare.py (bitstream-dump --dis against llvm-dis).
#
#   tools/fidelity/make-corpus.sh [OUT_DIR]        (default OUT_DIR: /tmp/fidelity-corpus)
#
# Layout of OUT_DIR:
#   c/<project>/clang<V>/<O0g|O2g|O3>/<file>.bc   C/C++ sources bundled in crates.io -sys
#                                                 crates, compiled by clang-13/14/15/16/19/22
#   rust/<O0|O3>/<crate>.bc                       rustc (stable) --emit=llvm-bc of serde_json,
#                                                 regex and their dependencies
#   llvm-test-bitcode/<path>.bc                   LLVM's test/Bitcode/**/*.bc, taken from a
#                                                 mirror of leaningtech/cheerp-llvm under
#                                                 /work/.mirror when present (else skipped)
#   .failed/...                                   one marker per compilation that failed
#                                                 (not retried on a re-run unless
#                                                 FIDELITY_RETRY=1)
#   .log/                                         compiler stderr of the failures, cargo logs
#
# Re-runnable: every output that exists is skipped. A source that does not compile is
# skipped and counted, never fatal.
#
# Environment: FIDELITY_WORK (throwaway cargo projects, default /tmp/fidelity-work),
# FIDELITY_JOBS (parallel compilations, default 2), FIDELITY_MAX_FILES (per project,
# default 12), FIDELITY_VERSIONS (clang versions, default "13 14 15 16 19 22"),
# FIDELITY_COMPILE_TIMEOUT (seconds per compilation, default 900), FIDELITY_LLVM_MIRROR (a
# git dir to take test/Bitcode from instead of /work/.mirror/leaningtech+cheerp-llvm*).
set -uo pipefail

OUT=${1:-/tmp/fidelity-corpus}
WORK=${FIDELITY_WORK:-/tmp/fidelity-work}
JOBS=${FIDELITY_JOBS:-2}
MAXF=${FIDELITY_MAX_FILES:-12}
VERSIONS=${FIDELITY_VERSIONS:-"13 14 15 16 19 22"}
CTIMEOUT=${FIDELITY_COMPILE_TIMEOUT:-900}
START=$(date +%s)

mkdir -p "$OUT" "$WORK" "$OUT/.log" || exit 1
OUT=$(cd "$OUT" && pwd)
export LC_ALL=C

log() { printf '[make-corpus %(%H:%M:%S)T] %s\n' -1 "$*" >&2; }

# ---------------------------------------------------------------------------------------
# 1. Fetch the -sys crates' sources with a throwaway cargo project.
SYSPROJ=$WORK/sys-crates
mkdir -p "$SYSPROJ/src"
cat > "$SYSPROJ/Cargo.toml" <<'EOF'
[package]
name = "fidelity-sys-crates"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
lz4-sys = "1"
bzip2-sys = "0.1"
libz-sys = { version = "1", features = ["static"] }
zstd-sys = "2"
pcre2-sys = "0.2"
libmimalloc-sys = "0.1"
libgit2-sys = { version = "0.18", features = ["vendored"] }
libsqlite3-sys = { version = "0.35", features = ["bundled"] }
snappy_src = "0.2"
cxx = "1"
EOF
[ -f "$SYSPROJ/src/main.rs" ] || echo 'fn main() {}' > "$SYSPROJ/src/main.rs"
log "cargo fetch (sys crates)"
if ! (cd "$SYSPROJ" && cargo fetch -q 2>"$OUT/.log/cargo-fetch-sys.log"); then
    log "cargo fetch failed (see $OUT/.log/cargo-fetch-sys.log); continuing with what is there"
fi

# Directory of a fetched crate: crate_dir NAME (the version locked in Cargo.lock).
crate_dir() {
    local name=$1 ver
    ver=$(awk -v n="$name" '$0=="name = \"" n "\"" {getline; gsub(/version = |"/,""); print; exit}' \
        "$SYSPROJ/Cargo.lock" 2>/dev/null)
    [ -n "$ver" ] || return 1
    local d
    for d in "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/"$name-$ver"; do
        [ -d "$d" ] && { echo "$d"; return 0; }
    done
    return 1
}

# ---------------------------------------------------------------------------------------
# 2. The job list: one line per (project, language, flags, source, output name); compiled
#    below for every clang version and optimisation level.
JOBLIST=$WORK/c-jobs.tsv
: > "$JOBLIST"
GEN=$WORK/generated   # headers that the crates' build scripts would generate
mkdir -p "$GEN"

# largest N FILE...: the N largest of the existing FILEs, largest first.
largest() {
    local n=$1; shift
    local f
    for f in "$@"; do [ -f "$f" ] && printf '%s %s\n' "$(stat -c %s "$f")" "$f"; done |
        sort -k1,1nr -k2 | head -n "$n" | cut -d' ' -f2-
}
# add PROJECT LANG FLAGS FILE...: queue FILEs (LANG: c or c++); FLAGS is one string of
# options split on spaces (no option here contains a space).
add() {
    local proj=$1 lang=$2 flags=$3; shift 3
    local f
    local f b
    for f in "$@"; do
        b=$(basename "$f"); b=${NAME_PREFIX:-}${b%.*}
        printf '%s\t%s\t%s\t%s\t%s\n' "$proj" "$lang" "$flags" "$f" "$b" >> "$JOBLIST"
    done
}

if d=$(crate_dir lz4-sys); then
    r=$d/liblz4
    add lz4 c "-I$r/lib -I$r/programs" $(largest "$MAXF" "$r"/lib/*.c "$r"/programs/*.c)
else log "lz4-sys not found"; fi

if d=$(crate_dir bzip2-sys); then
    r=$(echo "$d"/bzip2-*/ | awk '{print $1}'); r=${r%/}
    add bzip2 c "-I$r -D_FILE_OFFSET_BITS=64" $(largest "$MAXF" \
        "$r"/{blocksort,bzlib,compress,crctable,decompress,huffman,randtable,bzip2,bzip2recover}.c)
else log "bzip2-sys not found"; fi

if d=$(crate_dir libz-sys); then
    r=$d/src/zlib
    add zlib c "-I$r -DSTDC -D_LARGEFILE64_SOURCE -DHAVE_UNISTD_H" $(largest "$MAXF" "$r"/*.c)
else log "libz-sys not found"; fi

if d=$(crate_dir zstd-sys); then
    r=$d/zstd/lib
    add zstd c "-I$r -I$r/common -I$r/legacy -DXXH_PRIVATE_API -DZSTD_LIB_DEPRECATED=0 -DZSTD_MULTITHREAD -DZSTD_LEGACY_SUPPORT=1" \
        $(largest $((MAXF - 1)) "$r"/common/*.c "$r"/compress/*.c "$r"/decompress/*.c "$r"/dictBuilder/*.c) \
        $(largest 1 "$r"/legacy/*.c)
else log "zstd-sys not found"; fi

if d=$(crate_dir pcre2-sys); then
    r=$d/upstream
    add pcre2 c "-I$r/src -I$r/deps -I$r/include -DPCRE2_CODE_UNIT_WIDTH=8 -DHAVE_STDLIB_H=1 -DHAVE_MEMMOVE=1 -DHAVE_CONFIG_H=1 -DPCRE2_STATIC=1 -DSTDC_HEADERS=1 -DSUPPORT_PCRE2_8=1 -DSUPPORT_UNICODE=1 -DSUPPORT_JIT=1" \
        $(largest "$MAXF" $(ls "$r"/src/*.c | grep -v -E 'pcre2_(jit_match|jit_misc|ucptables)\.c$'))
else log "pcre2-sys not found"; fi

if d=$(crate_dir libmimalloc-sys); then
    for v in v2 v3; do
        r=$d/c_src/mimalloc/$v
        [ -d "$r" ] || continue
        fl="-I$r/include -I$r/src -DMI_BUILD_RELEASE -DNDEBUG -DMI_DEBUG=0"
        NAME_PREFIX=$v- add mimalloc c "$fl" "$r/src/static.c"   # v2-static, v3-static
        # v2's separate files too (the ones static.c includes that stand alone)
        [ $v = v2 ] && add mimalloc c "$fl" $(largest $((MAXF - 2)) \
            $(ls "$r"/src/*.c | grep -v -E '/(static|alloc-override|page-queue|free)\.c$'))
    done
else log "libmimalloc-sys not found"; fi

if d=$(crate_dir libgit2-sys); then
    r=$d/libgit2
    g=$GEN/libgit2
    mkdir -p "$g"
    cat > "$g/git2_features.h" <<'EOF'
#ifndef INCLUDE_features_h
#define INCLUDE_features_h
#define GIT_THREADS 1
#define GIT_TRACE 1
#define GIT_HTTPPARSER_BUILTIN 1
#define GIT_USE_NSEC 1
#define GIT_IO_POLL 1
#define GIT_IO_SELECT 1
#define GIT_USE_STAT_MTIM 1
#define GIT_ARCH_64 1
#define GIT_SHA1_COLLISIONDETECT 1
#define GIT_SHA256_BUILTIN 1
#endif
EOF
    fl="-I$g -I$r/include -I$r/src/libgit2 -I$r/src/util -I$r/deps/llhttp -I$r/deps/xdiff -I$r/deps/pcre2"
    fl="$fl -DGIT_REGEX_BUILTIN=1 -DPCRE2_STATIC -DPCRE2_CODE_UNIT_WIDTH=8 -DSUPPORT_PCRE2_8=1 -DSUPPORT_UNICODE=1"
    fl="$fl -D_FILE_OFFSET_BITS=64 -D_POSIX_C_SOURCE=200112L -D_GNU_SOURCE"
    add libgit2 c "$fl" $(largest $((MAXF - 6)) "$r"/src/libgit2/*.c) \
        $(largest 2 "$r"/src/util/*.c) $(largest 2 "$r"/deps/xdiff/*.c) \
        $(largest 1 "$r"/deps/llhttp/*.c) "$r/src/util/hash/sha1dc/sha1.c"
else log "libgit2-sys not found"; fi

if d=$(crate_dir libsqlite3-sys); then
    add sqlite c "-I$d/sqlite3 -DSQLITE_ENABLE_FTS5 -DSQLITE_ENABLE_RTREE -DSQLITE_ENABLE_JSON1 -DSQLITE_THREADSAFE=1" \
        "$d/sqlite3/sqlite3.c"
else log "libsqlite3-sys not found"; fi

if d=$(crate_dir snappy_src); then
    r=$d/snappy
    g=$GEN/snappy
    mkdir -p "$g"
    sv=${d##*+snappy.}
    IFS=. read -r smaj smin spat <<<"$sv"
    sed -e 's/\${HAVE_SYS_UIO_H_01}/1/' -e "s/\${PROJECT_VERSION_MAJOR}/${smaj:-1}/" \
        -e "s/\${PROJECT_VERSION_MINOR}/${smin:-0}/" -e "s/\${PROJECT_VERSION_PATCH}/${spat:-0}/" \
        "$r/snappy-stubs-public.h.in" > "$g/snappy-stubs-public.h"
    add snappy c++ "-std=c++14 -I$r -I$g" $(largest "$MAXF" "$r"/*.cc)
else log "snappy_src not found"; fi

if d=$(crate_dir cxx); then
    add cxx c++ "-std=c++17 -I$d/include" "$d/src/cxx.cc"
else log "cxx not found"; fi

# ---------------------------------------------------------------------------------------
# 3. Compile every job with every clang version at every optimisation level.
optflags() {
    case $1 in
        O0g) echo "-O0 -g" ;;
        O2g) echo "-O2 -g" ;;
        O3)  echo "-O3" ;;
    esac
}
compile_one() {  # PROJ LANG FLAGS SRC NAME V OPT
    local proj=$1 lang=$2 flags=$3 src=$4 base=$5 v=$6 opt=$7
    local out mark cc
    out=$OUT/c/$proj/clang$v/$opt/$base.bc
    mark=$OUT/.failed/c/$proj/clang$v/$opt/$base
    [ -s "$out" ] && return 0
    if [ -e "$mark" ] && [ "${FIDELITY_RETRY:-0}" != 1 ]; then return 0; fi
    if [ "$lang" = c++ ]; then cc=clang++-$v; else cc=clang-$v; fi
    mkdir -p "$(dirname "$out")"
    # shellcheck disable=SC2046,SC2086
    # --foreground: stay in our process group, so that stopping the script stops clang too
    if timeout --foreground "$CTIMEOUT" nice -n 10 "$cc" -c -emit-llvm -w $(optflags "$opt") $flags \
            "$src" -o "$out.tmp" 2>"$out.err"; then
        mv -f "$out.tmp" "$out"; rm -f "$out.err" "$mark"
    else
        mkdir -p "$(dirname "$mark")" "$OUT/.log/failed/$proj"
        { echo "$cc $(optflags "$opt") $flags $src"; head -c 4000 "$out.err"; } > "$mark"
        cp -f "$mark" "$OUT/.log/failed/$proj/clang$v-$opt-$base.log"
        rm -f "$out.tmp" "$out.err"
        echo "FAILED $proj clang$v $opt $src" >&2
    fi
}

njobs=$(wc -l < "$JOBLIST")
log "compiling $njobs sources x versions ($VERSIONS) x 3 opt levels, $JOBS at a time"
running=0
# Cheapest first per source: O0g, then O3/O2g; the big sqlite3.c goes first so that it
# overlaps with the small ones.
while IFS=$'\t' read -r proj lang flags src name; do
    for v in $VERSIONS; do
        command -v "clang-$v" >/dev/null || { log "clang-$v missing: skipped"; continue; }
        for opt in O0g O2g O3; do
            compile_one "$proj" "$lang" "$flags" "$src" "$name" "$v" "$opt" </dev/null &
            running=$((running + 1))
            if [ "$running" -ge "$JOBS" ]; then wait -n; running=$((running - 1)); fi
        done
    done
done < <(grep -P '^sqlite\t' "$JOBLIST"; grep -v -P '^sqlite\t' "$JOBLIST")
wait

# ---------------------------------------------------------------------------------------
# 4. Rust: serde_json and regex (and deps) as bitcode, opt-level 0 and 3.
RSPROJ=$WORK/rust-crates
mkdir -p "$RSPROJ/src"
cat > "$RSPROJ/Cargo.toml" <<'EOF'
[package]
name = "fidelity-rust-crates"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
serde_json = "1"
regex = "1"

[profile.dev]
opt-level = 0

[profile.release]
opt-level = 3
EOF
cat > "$RSPROJ/src/main.rs" <<'EOF'
fn main() {
    let re = regex::Regex::new(r"(\w+)@(\w+)\.com").unwrap();
    let v: serde_json::Value = serde_json::from_str(r#"{"a": [1, 2.5, "x", null]}"#).unwrap();
    println!("{} {}", re.is_match("me@example.com"), v);
}
EOF
TRIPLE=$(rustc -vV | sed -n 's/^host: //p')
for prof in O0 O3; do
    dest=$OUT/rust/$prof
    if ls "$dest"/*.bc >/dev/null 2>&1; then log "rust/$prof exists: skipped"; continue; fi
    if [ $prof = O0 ]; then cargs=(); pdir=debug; else cargs=(--release); pdir=release; fi
    log "cargo build rust crates ($prof)"
    # --target keeps RUSTFLAGS off build scripts and proc macros.
    if (cd "$RSPROJ" && RUSTFLAGS="--emit=llvm-bc,link -C debuginfo=2" CARGO_INCREMENTAL=0 \
            nice -n 10 cargo build -q -j "$JOBS" --target "$TRIPLE" "${cargs[@]}" \
            > "$OUT/.log/cargo-rust-$prof.log" 2>&1); then
        mkdir -p "$dest"
        for f in "$RSPROJ/target/$TRIPLE/$pdir/deps"/*.bc; do
            [ -f "$f" ] || continue
            b=$(basename "$f" .bc); b=${b%-*}   # strip cargo's -<hash>
            cp -f "$f" "$dest/$b.bc"
        done
    else
        log "rust build ($prof) failed: see $OUT/.log/cargo-rust-$prof.log"
    fi
done

# ---------------------------------------------------------------------------------------
# 5. LLVM's own test/Bitcode inputs from a mirror of leaningtech/cheerp-llvm.
LLVMT=$OUT/llvm-test-bitcode
MIRROR=${FIDELITY_LLVM_MIRROR:-}   # a git dir holding test/Bitcode; default: found below
for m in ${MIRROR:+/nonexistent} /work/.mirror/leaningtech+cheerp-llvm*; do
    [ -n "$MIRROR" ] && break
    [ -e "$m" ] || continue
    # the git dir is the mirror itself or somewhere below it
    if git --git-dir="$m" rev-parse --git-dir >/dev/null 2>&1; then MIRROR=$m; break; fi
    g=$(find "$m" -maxdepth 3 -name HEAD -printf '%h\n' 2>/dev/null | head -1)
    if [ -n "$g" ] && git --git-dir="$g" rev-parse --git-dir >/dev/null 2>&1; then MIRROR=$g; break; fi
done
if [ -z "$MIRROR" ]; then
    log "no mirror of leaningtech/cheerp-llvm under /work/.mirror: llvm-test-bitcode skipped"
else
    # Every .bc path test/Bitcode ever held (files LLVM later deleted included), each in the
    # newest version an LLVM author committed: the fork rewrote nine 3.2 files and two others
    # in its own changed format (commits by Alessandro Pignotti, 2013-2017), which no llvm-dis
    # reads ("Invalid value"), and deleted cmpxchg.3.6.
    log "copying test/Bitcode/**/*.bc (LLVM's versions) from $MIRROR"
    n=0
    while IFS= read -r path; do
        rel=${path#*test/Bitcode/}
        dest=$LLVMT/$rel
        [ -s "$dest" ] && continue
        blob=
        while read -r c author; do
            case $author in *Pignotti*) continue ;; esac
            blob=$(git --git-dir="$MIRROR" rev-parse -q --verify "$c:$path" 2>/dev/null) && break
            blob=
        done < <(git --git-dir="$MIRROR" log --format='%H %an' -- "$path")
        [ -n "$blob" ] || { log "no LLVM version of $path"; continue; }
        mkdir -p "$(dirname "$dest")"
        if git --git-dir="$MIRROR" cat-file blob "$blob" > "$dest.tmp" 2>/dev/null; then
            mv -f "$dest.tmp" "$dest"; n=$((n + 1))
        else
            rm -f "$dest.tmp"; log "could not read $path"
        fi
    done < <(git --git-dir="$MIRROR" log --format= --name-only -- test/Bitcode | grep -P '(^|/)test/Bitcode/.*\.bc$' | sort -u)
    log "llvm-test-bitcode: $n new files"
fi

# ---------------------------------------------------------------------------------------
# 6. Summary.
echo
echo "## Corpus summary ($OUT)"
echo
printf '%-28s %-8s %-5s %6s %9s\n' corpus version opt files bytes
for d in "$OUT"/c/*/clang*/*; do
    [ -d "$d" ] || continue
    opt=${d##*/}; ver=$(basename "$(dirname "$d")"); proj=$(basename "$(dirname "$(dirname "$d")")")
    printf '%-28s %-8s %-5s %6d %9d\n' "c/$proj" "$ver" "$opt" \
        "$(find "$d" -name '*.bc' | wc -l)" "$(du -sb "$d" | cut -f1)"
done
for d in "$OUT"/rust/*; do
    [ -d "$d" ] || continue
    printf '%-28s %-8s %-5s %6d %9d\n' rust rustc "${d##*/}" \
        "$(find "$d" -name '*.bc' | wc -l)" "$(du -sb "$d" | cut -f1)"
done
if [ -d "$LLVMT" ]; then
    printf '%-28s %-8s %-5s %6d %9d\n' llvm-test-bitcode - - \
        "$(find "$LLVMT" -name '*.bc' | wc -l)" "$(du -sb "$LLVMT" | cut -f1)"
else
    echo "llvm-test-bitcode: skipped (no mirror of leaningtech/cheerp-llvm)"
fi
echo
echo "C/C++ totals per clang version and opt level:"
for v in $VERSIONS; do
    for opt in O0g O2g O3; do
        printf '  clang%-3s %-4s %5d files\n' "$v" "$opt" \
            "$(find "$OUT"/c/*/clang"$v"/"$opt" -name '*.bc' 2>/dev/null | wc -l)"
    done
done
nfail=$(find "$OUT/.failed" -type f 2>/dev/null | wc -l)
nsrc=$(wc -l < "$JOBLIST")
nsrcfail=$(find "$OUT/.failed" -type f 2>/dev/null | sed 's#.*/##' | sort -u | wc -l)
echo
echo "sources queued: $nsrc; failed compilations: $nfail (over $nsrcfail distinct source names)"
if [ "$nfail" -gt 0 ]; then
    find "$OUT/.failed" -type f | sed "s#^$OUT/.failed/##" | sort | sed 's/^/  failed: /'
fi
echo "total: $(find "$OUT" -name '*.bc' -not -path '*/.failed/*' | wc -l) .bc files, $(du -sh --exclude=.log --exclude=.failed "$OUT" | cut -f1)"
echo "took $(( $(date +%s) - START )) s"
