"""The corpus job against the way corpora of bitcode are counted today: an ``llvm-dis``
process per module, then its text parsed (``llvm_bitstream_reader.llvm_dis_text``).

    python python/benches/corpus.py [--llvm-dis llvm-dis-22] [--rounds 3] [OUT_DIR]

The corpus: every bitcode module the Rust toolchain's rlibs carry (rustc 1.95: LLVM 22
bitcode, one module per codegen unit, 291 of them), in a Parquet file of ComPile's
layout (one module per row, column ``content``), made in OUT_DIR (default
``target/bench-corpus``). Both ways run on one worker (one process; ``llvm-dis`` runs
one at a time), the same rows, and must count the same instructions by opcode before
anything is timed. Printed: modules per second (whole processes, reading the Parquet
file included) and peak memory of the worker (for the baseline, the larger of
``llvm-dis``'s and the parsing process's), the median of the rounds; then the Dask engine on a local cluster of two workers, for the wall time.
"""

import argparse
import json
import os
import pathlib
import resource
import statistics
import subprocess
import sys
import tempfile
import time

REPO = pathlib.Path(__file__).resolve().parents[2]


def rlib_modules(out_dir):
    """The bitcode of every object in the toolchain's rlibs (`.llvmbc` sections)."""
    sysroot = subprocess.run(["rustc", "--print", "sysroot"], check=True, capture_output=True, text=True).stdout.strip()
    host = subprocess.run(["rustc", "-vV"], check=True, capture_output=True, text=True).stdout
    target = next(l.split(": ")[1] for l in host.splitlines() if l.startswith("host: "))
    lib = pathlib.Path(sysroot) / "lib" / "rustlib" / target / "lib"
    blobs = []
    with tempfile.TemporaryDirectory(dir=out_dir) as tmp:
        for rlib in sorted(lib.glob("*.rlib")):
            member_dir = pathlib.Path(tmp) / rlib.stem
            member_dir.mkdir()
            subprocess.run(["ar", "x", str(rlib)], cwd=member_dir, check=True)
            for obj in sorted(member_dir.glob("*.o")):
                bc = obj.with_suffix(".bc")
                done = subprocess.run(["objcopy", f"--dump-section=.llvmbc={bc}", str(obj), os.devnull], capture_output=True)
                if done.returncode == 0 and bc.exists() and bc.stat().st_size > 1024:
                    blobs.append(bc.read_bytes())
    return blobs


def baseline(blobs, llvm_dis):
    """An llvm-dis per module, its text parsed: (counts, seconds, peak KB of llvm-dis)."""
    from llvm_bitstream_reader.llvm_dis_text import opcode_counts

    total = {}
    start = time.perf_counter()
    for blob in blobs:
        text = subprocess.run([llvm_dis, "-", "-o", "-"], input=blob, check=True, capture_output=True).stdout
        for op, n in opcode_counts(text.decode("utf-8", "replace")).items():
            total[op] = total.get(op, 0) + n
    seconds = time.perf_counter() - start
    return total, seconds, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss


def job(parquet, *extra):
    """The corpus job as a process: (summary, seconds, peak KB)."""
    start = time.perf_counter()
    done = subprocess.run(
        ["/usr/bin/time", "-f", "%M", sys.executable, "-m", "llvm_bitstream_reader.corpus", str(parquet), *extra],
        check=True,
        capture_output=True,
        text=True,
    )
    seconds = time.perf_counter() - start
    return json.loads(done.stdout), seconds, int(done.stderr.strip().splitlines()[-1])


def baseline_process(parquet, llvm_dis):
    """The baseline in a fresh process (so that its peak memory is its own)."""
    code = (
        "import json, sys, pyarrow.parquet as pq\n"
        f"sys.path.insert(0, {str(pathlib.Path(__file__).parent)!r})\n"
        "from corpus import baseline\n"
        f"blobs = pq.read_table({str(parquet)!r}).column('content').to_pylist()\n"
        f"counts, seconds, child_kb = baseline(blobs, {llvm_dis!r})\n"
        "import resource\n"
        "print(json.dumps([counts, seconds, child_kb, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss]))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out_dir", nargs="?", default=str(REPO / "target" / "bench-corpus"))
    parser.add_argument("--llvm-dis", default="llvm-dis-22")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    import pyarrow as pa
    import pyarrow.parquet as pq

    out = pathlib.Path(args.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    parquet = out / "rlib-modules.parquet"
    if not parquet.exists():
        blobs = rlib_modules(out)
        pq.write_table(pa.table({"content": pa.array(blobs, pa.binary())}), parquet, row_group_size=32)
    n = pq.ParquetFile(parquet).metadata.num_rows
    size = sum(len(b) for b in pq.read_table(parquet).column("content").to_pylist())
    print(f"{n} modules, {size / 1e6:.1f} MB of bitcode ({parquet})")

    # The same counts first, or nothing is timed.
    ours, _, _ = job(parquet, "--engine", "local")
    theirs = baseline_process(parquet, args.llvm_dis)
    if ours["opcodes"] != dict(sorted(theirs[0].items())) or ours["broken_rows"]:
        sys.exit(f"the counts differ: ours {ours['instructions']}, llvm-dis {sum(theirs[0].values())}")
    print(f"both count {ours['instructions']} instructions in {ours['functions']} functions, by opcode alike")

    rows = {"ours": [], "theirs": [], "dask": []}
    for _ in range(args.rounds):
        _, seconds, kb = job(parquet, "--engine", "local")
        rows["ours"].append((seconds, kb))
        start = time.perf_counter()  # the whole process, as for the job
        _, _, child_kb, self_kb = baseline_process(parquet, args.llvm_dis)
        rows["theirs"].append((time.perf_counter() - start, max(child_kb, self_kb)))
        _, seconds, _ = job(parquet, "--engine", "dask", "--workers", "2")
        rows["dask"].append((seconds, 0))
    med = {k: (statistics.median(s for s, _ in v), statistics.median(m for _, m in v)) for k, v in rows.items()}
    print("| way | modules/s | peak MB per worker |")
    print("|---|---|---|")
    print(f"| `{args.llvm_dis}` per module, text parsed | {n / med['theirs'][0]:.1f} | {med['theirs'][1] / 1024:.0f} |")
    print(f"| corpus job, `--engine local` (one worker) | {n / med['ours'][0]:.1f} | {med['ours'][1] / 1024:.0f} |")
    print(f"| corpus job, Dask, 2 local workers | {n / med['dask'][0]:.1f} | |")
    print(f"one worker: {med['theirs'][0] / med['ours'][0]:.1f}x the modules per second of llvm-dis")


if __name__ == "__main__":
    main()
