#!/usr/bin/env bash
# same-output.sh: prove that two builds of bitstream-dump print exactly the same thing.
#
# Runs a bitstream-dump binary over a corpus of inputs in every output mode and records,
# for each (input, mode) pair, the exit status, stderr and stdout; then compares two such
# recordings. Meant for refactorings that must not change any output.
#
#   tools/same-output.sh record BIN OUTDIR          record BIN's outputs into OUTDIR
#   tools/same-output.sh compare OUTDIR_A OUTDIR_B  report every difference; exit 1 if any
#   tools/same-output.sh check BASE NEW [WORKDIR]   record both into WORKDIR/base and
#                                                   WORKDIR/new (default WORKDIR:
#                                                   /tmp/same-output/check), then compare.
#                                                   BASE is a binary, or an OUTDIR recorded
#                                                   before (then only NEW is run).
#   tools/same-output.sh list                       print the (input, mode) pairs, run nothing
#
# Example (baseline from a worktree of the unmodified commit):
#   git worktree add /tmp/base HEAD && (cd /tmp/base && cargo build --release -p bitstream-dump)
#   tools/same-output.sh record /tmp/base/target/release/bitstream-dump /tmp/same-output/base
#   cargo build --release -p bitstream-dump
#   tools/same-output.sh check /tmp/same-output/base target/release/bitstream-dump
#
# A full record (6759 pairs, 18 GB of output hashed) took 16-20 min wall, about 9 min of
# CPU, on 2 cores shared with other builds, and keeps 54 MB. SAME_OUTPUT_CORPORA="testdata
# cli" (5209 pairs, all small) is a quicker first check.
#
# OUTDIR layout:
#   results/<corpus>/<input>/<mode>  one file per pair: the command line (without the
#       binary's path), the exit status, size and sha256 of stdout and stderr (and of the
#       SVG for --flamegraph), then stderr and stdout in full when each is at most
#       SAME_OUTPUT_LIMIT bytes (else only the hash is kept, so that GB-sized dumps of big
#       inputs cost no disk). Nothing in it depends on time or on where OUTDIR is.
#   meta/  the binary (path, sha256), the job list, the inputs' sha256 (manifest),
#       corpus counts, per-pair run times (times.tsv) and the total time. compare reads
#       only meta/manifest (a differing input is reported as a difference: the comparison
#       would be meaningless) and meta/bin + meta/jobs (to re-run both binaries and show
#       where a large output, whose text was not kept, first differs).
#
# Every command runs with the repository root as working directory, stdin /dev/null (or
# the file for the stdin pairs), LC_ALL=C, and stderr to a file (so no progress bar).
# Inputs are named by the same path in every recording (testdata/... relative to the
# repository, the other corpora by absolute path), since outputs contain the path.
# Outputs hold no timestamps; the one thing outside the corpus that can change them:
# --remarks on testdata/clang14_remarks_darwin.o and clang14_remarks_section_meta follows
# the meta container to /tmp/llvm-bitstream-reader-remarks/remarks.opt.bitstream (absent:
# an error is recorded; testdata/make.sh creates that directory). The --flamegraph SVG is
# written to a scratch path shown as OUT.svg; only a failure to write it would print it.
#
# Corpora (each skipped with a note when absent):
#   testdata  every file under <repo>/testdata, in every mode
#   cli       usage texts, usage errors, stdin, the built-in file, several files to --nm,
#             --remarks-with
#   libclc    Debian's libclc-14/-19/-22 .bc files, unpacked as .ci/run does:
#               mkdir -p /tmp/libclc/debs && cd /tmp/libclc/debs &&
#               for v in 14 19 22; do apt-get download libclc-$v &&
#                 mkdir -p ../$v && dpkg-deb -x libclc-${v}_*.deb ../$v; done
#             Most of those .bc are symlinks to a few files; only the regular files are
#             used unless SAME_OUTPUT_LIBCLC_LINKS=1 (the links add the same bytes under
#             other names, so nothing but the file name in the output).
#   rlibs     the Rust sysroot's rlibs, $(rustc --print sysroot)/lib/rustlib/*/lib/*.rlib
#   bench     the benchmark inputs, benches/inputs/make.sh /tmp/bench-inputs
#   target    (only when listed in SAME_OUTPUT_CORPORA) .bc files the tests wrote under
#             <repo>/target/tmp; they change whenever the tests run
# Every corpus other than testdata gets every mode but --diagnostics/--remarks and plain
# --dis (the same as --dis --llvm-dis-version 22).
#
# Environment:
#   SAME_OUTPUT_CORPORA   corpora to use (default "testdata cli libclc rlibs bench")
#   SAME_OUTPUT_LIBCLC    libclc root holding 14/ 19/ 22/ (default /tmp/libclc, else
#                         <repo>/target/libclc)
#   SAME_OUTPUT_LIBCLC_LINKS=1  also the symlinked libclc .bc files
#   SAME_OUTPUT_BENCH     benchmark inputs directory (default /tmp/bench-inputs, else
#                         <repo>/target/bench-inputs)
#   SAME_OUTPUT_JOBS      parallel runs (default: the number of CPUs)
#   SAME_OUTPUT_BATCH     pairs per worker process (default 4)
#   SAME_OUTPUT_LIMIT     keep stdout/stderr text up to this many bytes (default 262144)
#   SAME_OUTPUT_TIMEOUT   seconds per run before it is killed (default 3600; a timeout is
#                         recorded as exit 124 and will show up as a difference)
#   SAME_OUTPUT_RERUN=0   compare: do not re-run binaries to locate large differences
#   SAME_OUTPUT_SHOW      compare: how many differences to show in detail (default 20;
#                         all are listed)
# shellcheck disable=SC2317 # the functions are reached through main
set -euo pipefail

SELF="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/$(basename "${BASH_SOURCE[0]}")"
REPO="${SAME_OUTPUT_REPO:-$(cd "$(dirname "$SELF")/.." && pwd)}"
export LC_ALL=C

CORPORA="${SAME_OUTPUT_CORPORA:-testdata cli libclc rlibs bench}"
JOBS="${SAME_OUTPUT_JOBS:-$(nproc 2>/dev/null || echo 2)}"
LIMIT="${SAME_OUTPUT_LIMIT:-262144}"
BATCH="${SAME_OUTPUT_BATCH:-4}"
TIMEOUT="${SAME_OUTPUT_TIMEOUT:-3600}"
FORMAT_TAG="same-output 1"

usage() { sed -n '2,/^# OUTDIR layout/p' "$SELF" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }
die() { echo "same-output: $*" >&2; exit 2; }

# ---------------------------------------------------------------------------------------
# Modes: NAME|ARGUMENTS. The input FILE is appended; @SVG@ is replaced by a scratch path.
MODES_STREAM=(
    "stats|"
    "stats-nohist|-disable-histogram"
    "dump|-dump"
    "dump-full|-dump -non-symbolic -show-binary-blobs -dump-blockinfo"
    "json|--format json"
    "events|--format events"
    "folded|--folded"
    "flamegraph|--flamegraph @SVG@"
    "list|--list"
    "summary|--summary"
    "summary-json|--summary --format json"
)
MODES_NM=(
    "nm|--nm"
    "nm-g|--nm -g"
    "nm-U|--nm -U"
    "nm-u|--nm -u"
    "nm-aSn|--nm -a -S -n"
    "nm-PA|--nm -P -A"
    "nm-j-r|--nm -j -r"
    "nm-json|--nm --format json"
    "nm-14|--nm --llvm-nm-version 14"
    "nm-19|--nm --llvm-nm-version 19"
    "nm-module|--nm --symbols-from=module"
)
MODES_DIS=(
    "dis14|--dis --llvm-dis-version 14"
    "dis19|--dis --llvm-dis-version 19"
    "dis22|--dis --llvm-dis-version 22"
)
MODES_TESTDATA_ONLY=(
    "dis|--dis"
    "diagnostics|--diagnostics"
    "diagnostics-json|--diagnostics --format json"
    "remarks|--remarks"
    "remarks-json|--remarks --format json"
)
MODES_ALL=("${MODES_STREAM[@]}" "${MODES_NM[@]}" "${MODES_DIS[@]}" "${MODES_TESTDATA_ONLY[@]}")
MODES_BIG=("${MODES_STREAM[@]}" "${MODES_NM[@]}" "${MODES_DIS[@]}")

# ---------------------------------------------------------------------------------------
# The job list: one line per pair, tab-separated: WEIGHT ID STDIN ARG... (WEIGHT: the
# input's size, so that big inputs start first; STDIN: a file or /dev/null).
JOBLIST=""
declare -A COUNT_INPUTS COUNT_PAIRS
NOTES=()

job() { # job CORPUS WEIGHT ID STDIN ARG...
    local corpus=$1
    shift
    local IFS=$'\t'
    printf '%s\n' "$*" >>"$JOBLIST"
    COUNT_PAIRS[$corpus]=$((${COUNT_PAIRS[$corpus]:-0} + 1))
}

file_jobs() { # file_jobs CORPUS KEY PATH MODE...: every mode on one input
    local corpus=$1 key=$2 path=$3
    shift 3
    local size m name args
    size=$(cd "$REPO" && stat -L -c %s "$path")
    printf '%s\n' "$path" >>"$MANIFEST_LIST"
    COUNT_INPUTS[$corpus]=$((${COUNT_INPUTS[$corpus]:-0} + 1))
    for m in "$@"; do
        name=${m%%|*}
        args=${m#*|}
        # shellcheck disable=SC2086 # the mode's arguments are split on spaces
        job "$corpus" "$size" "$corpus/$key/$name" /dev/null $args "$path"
    done
}

corpus_testdata() {
    local f
    [[ -d $REPO/testdata ]] || { NOTES+=("testdata: $REPO/testdata absent, skipped"); return; }
    while IFS= read -r f; do
        file_jobs testdata "${f#testdata/}" "$f" "${MODES_ALL[@]}"
    done < <(cd "$REPO" && find testdata -type f | sort)
}

corpus_cli() {
    local td=testdata bundled=testdata/rustc_llvm22_o0_debuginfo.bc
    [[ -f $REPO/$bundled ]] || { NOTES+=("cli: $bundled absent, skipped"); return; }
    printf '%s\n' "$bundled" >>"$MANIFEST_LIST"
    COUNT_INPUTS[cli]=1
    local j=(job cli 0)
    "${j[@]}" cli/help /dev/null --help
    "${j[@]}" cli/help-dash /dev/null -h
    "${j[@]}" cli/nm-help /dev/null --nm --help
    "${j[@]}" cli/dis-help /dev/null --dis --help
    "${j[@]}" cli/bad-option /dev/null -bogus
    "${j[@]}" cli/bad-format /dev/null --format yaml "$bundled"
    "${j[@]}" cli/two-files /dev/null "$bundled" "$bundled"
    "${j[@]}" cli/missing-file /dev/null -dump testdata/does-not-exist.bc
    "${j[@]}" cli/nm-bad-option /dev/null --nm --bogus "$bundled"
    "${j[@]}" cli/nm-U-and-u /dev/null --nm -U -u "$bundled"
    "${j[@]}" cli/nm-no-file /dev/null --nm
    "${j[@]}" cli/nm-missing-file /dev/null --nm testdata/does-not-exist.bc
    "${j[@]}" cli/dis-no-file /dev/null --dis
    "${j[@]}" cli/dis-two-files /dev/null --dis "$bundled" "$bundled"
    "${j[@]}" cli/dis-bad-version /dev/null --dis --llvm-dis-version x "$bundled"
    "${j[@]}" cli/dis-version-eq /dev/null --dis --llvm-dis-version=19 "$bundled"
    "${j[@]}" cli/dis-missing-file /dev/null --dis testdata/does-not-exist.bc
    # The built-in copy of the bundled file (no FILE).
    local m
    for m in "${MODES_STREAM[@]}"; do
        # shellcheck disable=SC2086
        "${j[@]}" "cli/bundled/${m%%|*}" /dev/null ${m#*|}
    done
    # Standard input.
    "${j[@]}" cli/stdin/stats "$bundled" -
    "${j[@]}" cli/stdin/dump "$bundled" -dump -
    "${j[@]}" cli/stdin/json "$bundled" --format json -
    "${j[@]}" cli/stdin/list "$bundled" --list -
    "${j[@]}" cli/stdin/summary "$bundled" --summary -
    "${j[@]}" cli/stdin/nm "$bundled" --nm -
    "${j[@]}" cli/stdin/dump-archive "$td"/containers/gnu_ab.a -dump -
    "${j[@]}" cli/stdin/list-archive "$td"/containers/gnu_ab.a --list -
    "${j[@]}" cli/stdin/nm-archive "$td"/containers/gnu_ab.a --nm -
    "${j[@]}" cli/stdin/diagnostics "$td"/clang14_diag_cxx.dia --diagnostics -
    "${j[@]}" cli/stdin/remarks "$td"/llvm19_remarks_hotness.opt.bitstream --remarks -
    # Several files to --nm in one run (headers between lists).
    local files=() f
    while IFS= read -r f; do files+=("$f"); done < <(cd "$REPO" && find "$td" -maxdepth 1 -name '*.bc' | sort)
    "${j[@]}" cli/nm-many-bc /dev/null --nm "${files[@]}"
    "${j[@]}" cli/nm-many-bc-A /dev/null --nm -A "${files[@]}"
    files=()
    while IFS= read -r f; do files+=("$f"); done < <(cd "$REPO" && find "$td"/containers -maxdepth 1 -type f | sort)
    "${j[@]}" cli/nm-containers /dev/null --nm "${files[@]}"
    "${j[@]}" cli/nm-containers-json /dev/null --nm --format json "${files[@]}"
    # The separate remarks layout, both ways round.
    local rf=$td/clang14_remarks_darwin.opt.bitstream rm=$td/clang14_remarks_section_meta.opt.bitstream
    "${j[@]}" cli/remarks-with /dev/null --remarks "$rf" --remarks-with "$rm"
    "${j[@]}" cli/remarks-with-reversed /dev/null --remarks "$rm" --remarks-with "$rf"
    "${j[@]}" cli/remarks-with-object /dev/null --remarks "$rf" --remarks-with "$td"/clang14_remarks_darwin.o
    "${j[@]}" cli/remarks-with-json /dev/null --remarks --format json "$rf" --remarks-with "$rm"
    "${j[@]}" cli/remarks-with-missing /dev/null --remarks "$rf" --remarks-with testdata/does-not-exist
    # LLVM's spellings of boolean options.
    "${j[@]}" cli/flags-eq /dev/null --dump=true --non-symbolic=1 --disable-histogram=false "$bundled"
}

corpus_libclc() {
    local root="${SAME_OUTPUT_LIBCLC:-}"
    if [[ -z $root ]]; then
        if [[ -d /tmp/libclc ]]; then root=/tmp/libclc; else root=$REPO/target/libclc; fi
    fi
    local v f types=(-type f)
    [[ ${SAME_OUTPUT_LIBCLC_LINKS:-0} == 1 ]] && types=(\( -type f -o -type l \))
    for v in 14 19 22; do
        local dir=$root/$v/usr/lib/clc
        if [[ ! -d $dir ]]; then
            NOTES+=("libclc: $dir absent, libclc-$v skipped")
            continue
        fi
        while IFS= read -r f; do
            file_jobs libclc "$v/$(basename "$f")" "$f" "${MODES_BIG[@]}"
        done < <(find "$dir" -maxdepth 1 "${types[@]}" -name '*.bc' | sort)
    done
}

corpus_rlibs() {
    local sysroot f n=0
    sysroot=$(rustc --print sysroot 2>/dev/null) || { NOTES+=("rlibs: no rustc, skipped"); return; }
    for f in "$sysroot"/lib/rustlib/*/lib/*.rlib; do
        [[ -f $f ]] || continue
        local rel=${f#"$sysroot"/lib/rustlib/}
        file_jobs rlibs "${rel%%/*}/$(basename "$f")" "$f" "${MODES_BIG[@]}"
        n=$((n + 1))
    done
    [[ $n -gt 0 ]] || NOTES+=("rlibs: no rlib under $sysroot/lib/rustlib, skipped")
}

corpus_bench() {
    local dir="${SAME_OUTPUT_BENCH:-}" f n=0
    if [[ -z $dir ]]; then
        if [[ -d /tmp/bench-inputs ]]; then dir=/tmp/bench-inputs; else dir=$REPO/target/bench-inputs; fi
    fi
    for f in "$dir"/*.bc; do
        [[ -f $f ]] || continue
        file_jobs bench "$(basename "$f")" "$f" "${MODES_BIG[@]}"
        n=$((n + 1))
    done
    [[ $n -gt 0 ]] || NOTES+=("bench: no .bc in $dir (run benches/inputs/make.sh $dir), skipped")
}

corpus_target() {
    local f n=0
    while IFS= read -r f; do
        file_jobs target "${f#"$REPO"/target/tmp/}" "$f" "${MODES_ALL[@]}"
        n=$((n + 1))
    done < <(find "$REPO/target/tmp" -type f -name '*.bc' 2>/dev/null | sort)
    [[ $n -gt 0 ]] || NOTES+=("target: no .bc under $REPO/target/tmp, skipped")
}

build_jobs() { # build_jobs OUTDIR: writes OUTDIR/meta/{jobs,manifest,counts}
    local meta=$1/meta c
    JOBLIST=$meta/jobs.unsorted
    MANIFEST_LIST=$meta/inputs
    : >"$JOBLIST"
    : >"$MANIFEST_LIST"
    for c in $CORPORA; do
        case $c in
            testdata | cli | libclc | rlibs | bench | target) "corpus_$c" ;;
            *) die "unknown corpus '$c' in SAME_OUTPUT_CORPORA" ;;
        esac
    done
    # Biggest inputs first, so that the slowest runs do not come last.
    sort -t $'\t' -k1,1nr -k2,2 "$JOBLIST" | cut -f2- >"$meta/jobs"
    rm -f "$JOBLIST"
    (cd "$REPO" && sort -u "$MANIFEST_LIST" | tr '\n' '\0' | xargs -0 -r sha256sum) >"$meta/manifest"
    rm -f "$MANIFEST_LIST"
    {
        for c in $CORPORA; do
            [[ -n ${COUNT_PAIRS[$c]:-} ]] || continue
            printf '%-9s %6d inputs %7d pairs\n' "$c" "${COUNT_INPUTS[$c]:-0}" "${COUNT_PAIRS[$c]}"
        done
        printf '%-9s %6s        %7d pairs\n' total "" "$(wc -l <"$meta/jobs")"
        for c in "${NOTES[@]}"; do printf 'note: %s\n' "$c"; done
    } >"$meta/counts"
}

# ---------------------------------------------------------------------------------------
# Running one pair.

# run_bin BIN STDIN ARG...: BIN as every pair runs it ('@SVG@' must be replaced already).
run_bin() {
    local bin=$1 stdin=$2
    shift 2
    [[ $stdin == /* ]] || stdin=$REPO/$stdin
    (cd "$REPO" && exec timeout -k 10 "$TIMEOUT" "$bin" "$@") <"$stdin"
}

# run_one LINE (with BIN and OUTDIR in the environment; T: a scratch directory holding
# the fifos size.fifo and head.fifo): runs one job line, writes its result file.
run_one() {
    local -a f
    IFS=$'\t' read -r -a f <<<"$1"
    local id=${f[0]} stdin=${f[1]}
    local -a args=("${f[@]:2}") shown=("${f[@]:2}")
    local res=$OUTDIR/results/$id i svg=""
    for i in "${!args[@]}"; do
        if [[ ${args[i]} == @SVG@ ]]; then
            svg=$T/out.svg
            args[i]=$svg
            shown[i]=OUT.svg
        fi
    done
    wc -c <"$T/size.fifo" >"$T/size" &
    local p1=$!
    head -c "$((LIMIT + 1))" <"$T/head.fifo" >"$T/out" &
    local p2=$!
    local start=$EPOCHREALTIME st
    set +e +o pipefail
    run_bin "$BIN" "$stdin" "${args[@]}" 2>"$T/err" | tee -p "$T/size.fifo" "$T/head.fifo" | sha256sum >"$T/sha"
    st=${PIPESTATUS[0]}
    set -e -o pipefail
    wait "$p1" "$p2"
    local end=$EPOCHREALTIME
    local size errsize sha errsha
    read -r size <"$T/size"
    read -r sha _ <"$T/sha"
    read -r errsize errsha _ < <(wc -c <"$T/err" | tr '\n' ' '; sha256sum <"$T/err")
    {
        printf 'cmd: bitstream-dump'
        printf ' %q' "${shown[@]}"
        [[ $stdin == /dev/null ]] || printf ' < %q' "$stdin"
        printf '\nexit: %s\n' "$st"
        printf 'stdout: %s bytes, sha256 %s\n' "$size" "$sha"
        printf 'stderr: %s bytes, sha256 %s\n' "$errsize" "$errsha"
        if [[ -n $svg ]]; then
            if [[ -f $svg ]]; then
                local svgsize svgsha
                read -r svgsize svgsha _ < <(wc -c <"$svg" | tr '\n' ' '; sha256sum <"$svg")
                printf 'svg: %s bytes, sha256 %s\n' "$svgsize" "$svgsha"
                rm -f "$svg"
            else
                printf 'svg: none written\n'
            fi
        fi
        if [[ $errsize -le $LIMIT ]]; then
            printf '=== stderr\n'
            cat "$T/err"
        else
            printf '=== stderr: not kept (over %s bytes)\n' "$LIMIT"
        fi
        if [[ $size -le $LIMIT ]]; then
            printf '=== stdout\n'
            cat "$T/out"
        else
            printf '=== stdout: not kept (over %s bytes)\n' "$LIMIT"
        fi
    } >"$res"
    # Microseconds, without forking.
    local us=$((${end/./} - ${start/./}))
    printf '%s\t%d.%06d\t%s\t%s\n' "$id" $((us / 1000000)) $((us % 1000000)) "$st" "$size" >>"$OUTDIR/meta/times.tsv"
}

# run_batch LINE...: run_one for each, with one scratch directory.
run_batch() {
    T=$(mktemp -d "$OUTDIR/.tmp/job.XXXXXX")
    mkfifo "$T/size.fifo" "$T/head.fifo"
    local line
    for line in "$@"; do run_one "$line"; done
    rm -rf "$T"
}

record() { # record BIN OUTDIR
    local bin=$1 out=$2
    [[ -x $bin && -f $bin ]] || die "record: $bin is not an executable file"
    bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
    if [[ -e $out ]]; then
        if [[ -f $out/meta/format ]]; then
            rm -rf "$out/results" "$out/meta" "$out/.tmp"
        elif [[ -n $(ls -A "$out") ]]; then
            die "record: $out exists and is not an earlier recording; give an empty or new directory"
        fi
    fi
    mkdir -p "$out/meta" "$out/results" "$out/.tmp"
    out=$(cd "$out" && pwd)
    echo "$FORMAT_TAG" >"$out/meta/format"
    printf '%s\n%s\n' "$bin" "$(sha256sum <"$bin" | cut -d' ' -f1)" >"$out/meta/bin"
    build_jobs "$out"
    cat "$out/meta/counts" >&2
    echo "same-output: recording $(wc -l <"$out/meta/jobs") pairs with $bin into $out ($JOBS at a time)" >&2
    : >"$out/meta/times.tsv"
    local start end
    start=$(date +%s)
    # Every result's directory first; then the jobs, a few per process.
    cut -f1 "$out/meta/jobs" | sed 's|/[^/]*$||' | sort -u | (cd "$out/results" && xargs -d '\n' mkdir -p)
    # The workers run a copy of this script, in case it is edited during the run.
    cp "$SELF" "$out/.tmp/same-output.sh"
    SAME_OUTPUT_REPO=$REPO BIN=$bin OUTDIR=$out xargs -d '\n' -n "$BATCH" -P "$JOBS" "$out/.tmp/same-output.sh" _run_batch <"$out/meta/jobs"
    end=$(date +%s)
    rm -f "$out/.tmp/same-output.sh"
    rmdir "$out/.tmp" 2>/dev/null || true
    sort -o "$out/meta/times.tsv" "$out/meta/times.tsv"
    local n
    n=$(find "$out/results" -type f | wc -l)
    {
        echo "pairs: $n"
        echo "wall: $((end - start)) s"
        echo "disk: $(du -sh "$out" | cut -f1)"
        echo "slowest:"
        sort -t $'\t' -k2,2nr "$out/meta/times.tsv" | sed -n '1,10s/^/  /p'
    } | tee "$out/meta/summary" >&2
    [[ $n == "$(wc -l <"$out/meta/jobs")" ]] || die "record: $(wc -l <"$out/meta/jobs") jobs but $n results"
}

# ---------------------------------------------------------------------------------------
# Comparing.

# locate BIN_A BIN_B ID JOBS: re-runs both binaries on one pair and shows where stdout
# first differs (for outputs too large to have been kept).
locate() {
    local a=$1 b=$2 id=$3 jobs=$4 line
    line=$(awk -F '\t' -v id="$id" '$1 == id { print; exit }' "$jobs")
    [[ -n $line ]] || return 0
    local -a f
    IFS=$'\t' read -r -a f <<<"$line"
    local stdin=${f[1]}
    local -a args=("${f[@]:2}")
    local i t
    t=$(mktemp -d)
    for i in "${!args[@]}"; do [[ ${args[i]} == @SVG@ ]] && args[i]=$t/out.svg; done
    local where
    where=$(cmp <(run_bin "$a" "$stdin" "${args[@]}" 2>/dev/null) <(run_bin "$b" "$stdin" "${args[@]}" 2>/dev/null) 2>&1 | head -n 1 | sed 's|^/dev/fd/[0-9]* /dev/fd/[0-9]* differ|A and B differ|' || true)
    echo "    re-run: ${where:-stdout identical on re-run}"
    local line_no
    line_no=$(sed -n 's/.*line \([0-9]*\).*/\1/p' <<<"$where")
    if [[ -n $line_no ]]; then
        local from=$((line_no > 3 ? line_no - 3 : 1)) to=$((line_no + 3))
        echo "    A, lines $from-$to:"
        run_bin "$a" "$stdin" "${args[@]}" 2>/dev/null | sed -n "${from},${to}p;${to}q" | cut -c1-300 | sed 's/^/      /' || true
        echo "    B, lines $from-$to:"
        run_bin "$b" "$stdin" "${args[@]}" 2>/dev/null | sed -n "${from},${to}p;${to}q" | cut -c1-300 | sed 's/^/      /' || true
    fi
    rm -rf "$t"
}

compare() { # compare A B
    local a=$1 b=$2
    local d
    for d in "$a" "$b"; do
        [[ -f $d/meta/format && -d $d/results ]] || die "compare: $d is not a recording (no meta/format)"
    done
    local show=${SAME_OUTPUT_SHOW:-20} rerun=${SAME_OUTPUT_RERUN:-1}
    local tmp
    tmp=$(mktemp -d)
    (cd "$a/results" && find . -type f | sed 's|^\./||' | sort) >"$tmp/a"
    (cd "$b/results" && find . -type f | sed 's|^\./||' | sort) >"$tmp/b"
    comm -23 "$tmp/a" "$tmp/b" >"$tmp/only-a"
    comm -13 "$tmp/a" "$tmp/b" >"$tmp/only-b"
    comm -12 "$tmp/a" "$tmp/b" >"$tmp/both"
    : >"$tmp/differ"
    local id
    while IFS= read -r id; do
        cmp -s "$a/results/$id" "$b/results/$id" || echo "$id" >>"$tmp/differ"
    done <"$tmp/both"
    # Inputs: the same paths with the same bytes on both sides?
    diff <(sort -k2 "$a/meta/manifest") <(sort -k2 "$b/meta/manifest") >"$tmp/inputs" || true

    local n_differ n_a n_b n_in
    n_differ=$(wc -l <"$tmp/differ")
    n_a=$(wc -l <"$tmp/only-a")
    n_b=$(wc -l <"$tmp/only-b")
    n_in=$(grep -c '^[<>]' "$tmp/inputs" || true)
    echo "same-output: A = $a ($(wc -l <"$tmp/a") pairs), B = $b ($(wc -l <"$tmp/b") pairs)"
    if [[ $n_in -gt 0 ]]; then
        echo "INPUTS DIFFER (path or sha256; < only in A, > only in B):"
        grep '^[<>]' "$tmp/inputs" | sed 's/^/  /'
    fi
    [[ $n_a -eq 0 ]] || { echo "ONLY IN A ($n_a):"; sed 's/^/  /' "$tmp/only-a"; }
    [[ $n_b -eq 0 ]] || { echo "ONLY IN B ($n_b):"; sed 's/^/  /' "$tmp/only-b"; }
    if [[ $n_differ -gt 0 ]]; then
        echo "DIFFERENT ($n_differ):"
        sed 's/^/  /' "$tmp/differ"
        local bin_a="" bin_b="" n_shown=0
        [[ -f $a/meta/bin ]] && bin_a=$(head -n 1 "$a/meta/bin")
        [[ -f $b/meta/bin ]] && bin_b=$(head -n 1 "$b/meta/bin")
        while IFS= read -r id && [[ $n_shown -lt $show ]]; do
            n_shown=$((n_shown + 1))
            echo
            echo "--- $id  ($(head -n 1 "$a/results/$id"))"
            diff -u --text --label "A/$id" --label "B/$id" "$a/results/$id" "$b/results/$id" | sed -n '3,60p' | cut -c1-300 || true
            if [[ $rerun == 1 ]] && grep -q '^=== stdout: not kept' "$a/results/$id" "$b/results/$id" &&
                ! diff -q <(sed -n '/^stdout:/p' "$a/results/$id") <(sed -n '/^stdout:/p' "$b/results/$id") >/dev/null; then
                if [[ -x $bin_a && -x $bin_b ]]; then
                    locate "$bin_a" "$bin_b" "$id" "$a/meta/jobs"
                else
                    echo "    (stdout not kept; the recorded binaries are gone, so it cannot be re-run)"
                fi
            fi
        done <"$tmp/differ"
        [[ $n_differ -le $show ]] || echo "... $((n_differ - show)) more (SAME_OUTPUT_SHOW=N to see more)"
    fi
    rm -rf "$tmp"
    local total=$((n_differ + n_a + n_b + n_in))
    if [[ $total -eq 0 ]]; then
        echo "same-output: no differences ($(wc -l <"$a/meta/jobs" 2>/dev/null || echo '?') pairs)"
        return 0
    fi
    echo "same-output: $n_differ pairs differ, $n_a only in A, $n_b only in B, $n_in input lines differ"
    return 1
}

check() { # check BASE NEW [WORKDIR]
    local base=$1 new=$2 work=${3:-/tmp/same-output/check}
    local base_dir
    if [[ -d $base ]]; then
        base_dir=$base
    else
        base_dir=$work/base
        record "$base" "$base_dir"
    fi
    record "$new" "$work/new"
    compare "$base_dir" "$work/new"
}

list_pairs() {
    local t
    t=$(mktemp -d)
    mkdir -p "$t/meta"
    build_jobs "$t"
    cut -f1 "$t/meta/jobs"
    cat "$t/meta/counts" >&2
    rm -rf "$t"
}

main() {
    case "${1:-}" in
        record) [[ $# -eq 3 ]] || usage; record "$2" "$3" ;;
        compare) [[ $# -eq 3 ]] || usage; compare "$2" "$3" ;;
        check) [[ $# -eq 3 || $# -eq 4 ]] || usage; check "$2" "$3" "${4:-}" ;;
        list) list_pairs ;;
        _run_batch) shift; run_batch "$@" ;;
        *) usage ;;
    esac
}

# On one line, so that bash has read the whole file before running anything: editing this
# script while it runs cannot derail the run (the workers run a copy, see record).
main "$@"; exit $?
