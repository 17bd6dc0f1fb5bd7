"""The corpus job at a scale that does not fit in a worker's memory, with faults (issue 45).

    python python/benches/scale.py [DIR] [--gib 2.25] [--workers 2] [--memory-limit 1GB]
        [--no-features] [--kill-first] [--make-only]

Not run in CI: it writes gigabytes and takes minutes.

1. The dataset, made in DIR (default /tmp/llvm-bitstream-reader-scale; kept, and reused
   while its ``_manifest.json`` says it was made by the same layout): Parquet files in
   ComPile's layout (column ``content``, one module per row) of real modules nobody here
   wrote, Debian's libclc-13, -14, -15, -16, -19 and -22 (every distinct file under
   ``target/libclc/*/usr/lib/clc``) and rustc 1.95's ``testdata/rustc_*.bc``, in a fixed
   shuffled order, repeated until the files hold ``--gib`` GiB. The files differ in row
   group size (2 to 40 rows), compression and page size (a page per module, or pyarrow's
   default of a page per row group). One row group is damaged: 4 KiB in the middle of its
   column chunk overwritten, so that it no longer decompresses.
2. The local engine once, in a process of its own: the reference summary (its peak
   memory and CPU time from wait4).
3. The Dask engine on a LocalCluster of ``--workers`` workers, ``--memory-limit`` each,
   twice, each on a fresh cluster: once left alone, once with a worker killed (SIGKILL of
   its process; its nanny starts another) when half the tasks are done, while it runs a
   task. Each worker process's memory is sampled from /proc every 100 ms, its peak
   (VmHWM, the kernel's own high-water mark) kept, and its CPU time. The kill's cost is
   the difference of the two runs' wall times and of their workers' CPU seconds: on a
   machine shared with other work the wall time moves with the other work's load, the
   CPU seconds much less (the load averages are printed too).

Checked, or the script fails: the damaged row group is reported as it was planted and
nothing else breaks; both Dask summaries equal the local one; with features, every part
of both Dask runs equals the local run's; the tasks in hand of the killed worker were
sent to a worker again (the scheduler's transition log), and no task twice in the run
left alone; no worker died but the one killed; every worker's peak is under its limit.
Printed: a table and one JSON object of the figures.
"""

import argparse
import hashlib
import json
import os
import pathlib
import random
import shutil
import signal
import subprocess
import sys
import threading
import time

REPO = pathlib.Path(__file__).resolve().parents[2]

#: The files of the dataset: (rows per row group, compression, values per write batch).
#: pyarrow starts a page when a write batch ends past the page size, so 1 makes a page
#: per module and its default (1024) a page per row group.
LAYOUT = [
    (3, "snappy", 1),
    (12, "zstd", 1),
    (40, "snappy", 1),
    (7, "none", 1),
    (24, "zstd", 4),
    (16, "lz4", 1024),
    (2, "zstd", 1),
]

#: The damaged row group: (file, row group) in LAYOUT. A zstd file, so that the damage is
#: found (uncompressed pages without checksums would be read as other bytes).
DAMAGED = (1, 5)


def sources():
    """The distinct real modules: libclc's files (most are symlinks to a few) and rustc's."""
    files = {}
    for version in (13, 14, 15, 16, 19, 22):
        clc = REPO / "target" / "libclc" / str(version) / "usr" / "lib" / "clc"
        if not clc.exists():
            sys.exit(f"{clc} is missing (.ci/run unpacks libclc-{version} there)")
        for path in sorted(clc.glob("*.bc")):
            files.setdefault(path.resolve(), path)
    for path in sorted((REPO / "testdata").glob("rustc_*.bc")):
        files.setdefault(path.resolve(), path)
    return [files[k] for k in sorted(files)]


def damage(path, row_group):
    """Overwrite 4 KiB in the middle of a row group's column chunk: (offset, length)."""
    import pyarrow.parquet as pq

    chunk = pq.ParquetFile(path).metadata.row_group(row_group).column(0)
    offset = chunk.data_page_offset + chunk.total_compressed_size // 2
    noise = random.Random(45).randbytes(4096)
    with open(path, "r+b") as f:
        f.seek(offset)
        f.write(noise)
    return offset, len(noise)


def make_dataset(root, gib):
    """The dataset in `root` and its manifest (made again unless the manifest matches)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    manifest_path = root / "_manifest.json"
    recipe = {"layout": LAYOUT, "damaged": list(DAMAGED), "gib": gib}
    if manifest_path.exists():
        manifest = json.loads(manifest_path.read_text())
        if manifest["recipe"] == json.loads(json.dumps(recipe)):
            return manifest
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir(parents=True)
    files = sources()
    blobs = [f.read_bytes() for f in files]
    # One fixed order of every module, repeated: each row group mixes LLVM versions.
    order = list(range(len(blobs)))
    random.Random(45).shuffle(order)
    share = int(gib * 2**30 / len(LAYOUT)) + 1
    made = []
    row = 0
    for index, (group_rows, compression, write_batch) in enumerate(LAYOUT):
        path = root / f"modules-{index:02d}.parquet"
        schema = pa.schema([("content", pa.binary())])
        sink = pa.OSFile(str(path), "wb")
        writer = pq.ParquetWriter(
            sink, schema, compression=compression, use_dictionary=False, write_batch_size=write_batch
        )
        groups = 0
        first_row = row
        while sink.tell() < share:
            rows = [blobs[order[(row + i) % len(order)]] for i in range(group_rows)]
            writer.write_table(pa.table({"content": pa.array(rows, pa.binary())}, schema=schema))
            row += group_rows
            groups += 1
        writer.close()
        made.append(
            {
                "name": path.name,
                "first_row": first_row,
                "rows": row - first_row,
                "row_groups": groups,
                "row_group_rows": group_rows,
                "compression": compression,
                "write_batch_size": write_batch,
                "bytes": path.stat().st_size,
            }
        )
    file_index, group = DAMAGED
    group = min(group, made[file_index]["row_groups"] - 1)  # a small --gib has fewer
    path = root / made[file_index]["name"]
    offset, length = damage(path, group)
    rows_per_group = made[file_index]["row_group_rows"]
    manifest = {
        "recipe": recipe,
        "modules": [str(f.relative_to(REPO)) for f in files],
        "module_bytes": sum(len(b) for b in blobs),
        "files": made,
        "rows": row,
        "row_groups": sum(f["row_groups"] for f in made),
        "bytes": sum(f["bytes"] for f in made),
        "bitcode_bytes": sum(len(blobs[order[r % len(order)]]) for r in range(row)),
        "damaged": {
            "file": str(path),
            "row_group": group,
            "first_row": made[file_index]["first_row"] + group * rows_per_group,
            "rows": rows_per_group,
            "offset": offset,
            "length": length,
        },
    }
    manifest_path.write_text(json.dumps(manifest, indent=1))
    return manifest


def run_local(dataset, features):
    """The local engine as a process: (summary, seconds, peak RSS bytes)."""
    command = [sys.executable, "-m", "llvm_bitstream_reader.corpus", str(dataset), "--engine", "local"]
    if features:
        command += ["--features", f"{features}/"]
    load_before = os.getloadavg()[0]
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE)
    # Its peak from /proc, not wait4's ru_maxrss: that counts this process's memory too,
    # which the child had between fork and exec.
    peak = [0]
    ended = threading.Event()

    def sample():
        while not ended.wait(0.1):
            status = proc_status(process.pid)
            if status:
                peak[0] = max(peak[0], *status)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    out = process.stdout.read()
    # wait4, not wait: the CPU time of this one child.
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - start
    ended.set()
    sampler.join()
    process.returncode = os.waitstatus_to_exitcode(status)  # waited for already
    if status != 0:
        sys.exit(f"the local engine failed: {status}")
    summary = json.loads(out)
    return summary, {
        "seconds": seconds,
        "modules_per_s": summary["modules"] / seconds,
        "peak_rss": peak[0],
        "cpu_s": usage.ru_utime + usage.ru_stime,
        "load_average_1min": [load_before, os.getloadavg()[0]],
    }


CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def proc_cpu(pid):
    """The CPU seconds (user and system) a process has used (None once it is gone)."""
    try:
        fields = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError):
        return None
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS  # utime, stime


def proc_status(pid):
    """VmRSS and VmHWM of a process, in bytes (None once it is gone)."""
    try:
        text = pathlib.Path(f"/proc/{pid}/status").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    fields = dict(line.split(":", 1) for line in text.splitlines() if ":" in line)
    if "VmRSS" not in fields:
        return None  # a zombie: killed, not yet waited for
    return tuple(int(fields[k].split()[0]) * 1024 for k in ("VmRSS", "VmHWM"))


class Sampler(threading.Thread):
    """Every worker process's memory and CPU time, every `interval` s: the peak and the
    last CPU seconds seen per worker process, by the worker's name and pid (a killed
    worker's name gets a second pid)."""

    def __init__(self, cluster, interval=0.1):
        super().__init__(daemon=True)
        self.cluster = cluster
        self.interval = interval
        self.peaks = {}  # (name, pid) -> peak bytes
        self.cpu = {}  # (name, pid) -> CPU seconds
        self.first_seen = {}  # (name, pid) -> time.perf_counter()
        self.stopping = threading.Event()

    def sample(self):
        # The nannies live in this process (LocalCluster), each knows its worker's pid.
        for name, nanny in list(self.cluster.workers.items()):
            pid = nanny.pid
            status = pid and proc_status(pid)
            if not status:
                continue
            key = (name, pid)
            self.first_seen.setdefault(key, time.perf_counter())
            self.peaks[key] = max(self.peaks.get(key, 0), *status)
            self.cpu[key] = proc_cpu(pid) or self.cpu.get(key, 0)

    def run(self):
        while not self.stopping.wait(self.interval):
            self.sample()

    def stop(self):
        self.sample()
        self.stopping.set()
        self.join()


class Killer:
    """The on_done of run_dask: when half the tasks are done, and `delay` seconds later
    (a summary arrives as its worker takes its next task: killed then, it would lose
    nothing), SIGKILL the worker whose task in hand has run longest (its nanny starts
    another)."""

    def __init__(self, client, cluster, sampler, delay=3.0):
        self.client, self.cluster, self.sampler, self.delay = client, cluster, sampler, delay
        self.armed = None
        self.killed = None

    def __call__(self, done, total):
        if self.armed is None and done >= total // 2:
            self.armed = threading.Timer(self.delay, self.kill, (done, total))
            self.armed.start()

    def kill(self, done, total):
        busy = {}
        while not busy:  # between two tasks of both workers: a moment later
            workers = self.client.scheduler_info()["workers"]
            busy = {addr: [str(k) for k in keys] for addr, keys in self.client.processing().items() if keys}
            time.sleep(0 if busy else 0.2)
        sent = self.client.run_on_scheduler(sent_at, keys=[k for keys in busy.values() for k in keys])
        now = time.time()
        # A worker's oldest key is the one it runs (the other, if any, waits behind it).
        addr = max(busy, key=lambda a: now - min(sent[k] for k in busy[a]))
        name = workers[addr]["name"]
        pid = self.cluster.workers[name].pid
        self.sampler.sample()  # its peak and CPU time up to the kill
        os.kill(pid, signal.SIGKILL)
        self.killed = {
            "worker": name,
            "pid": pid,
            "tasks_done": done,
            "tasks": total,
            "in_hand": sorted(busy[addr]),
            # How long the task it ran had been on it: the work the kill threw away.
            "task_ran_s": now - min(sent[k] for k in busy[addr]),
            "at": time.perf_counter(),
        }
        # Back when a worker of its name, at another address, has joined the scheduler.
        deadline = time.perf_counter() + 60
        while time.perf_counter() < deadline:
            joined = self.client.scheduler_info()["workers"]
            if any(w["name"] == name and a != addr for a, w in joined.items()):
                self.killed["rejoined_after_s"] = time.perf_counter() - self.killed["at"]
                break
            time.sleep(0.1)


def sent_at(dask_scheduler, keys):
    """When the scheduler last sent each of `keys` to a worker (time.time() of the
    scheduler, this process's clock: run on the scheduler)."""
    at = {}
    for key, _start, finish, _recommendations, _stimulus, timestamp in dask_scheduler.transition_log:
        if str(key) in keys and finish == "processing":
            at[str(key)] = timestamp
    return at


def times_processing(dask_scheduler):
    """How many times the scheduler sent each of the job's tasks to a worker (run on the
    scheduler: its transition log, long enough for the run, see `run_dask`)."""
    counts = {}
    for key, _start, finish, *_ in dask_scheduler.transition_log:
        if str(key).startswith("corpus-") and finish == "processing":
            counts[str(key)] = counts.get(str(key), 0) + 1
    return counts


def run_dask(dataset, features, workers, memory_limit, kill):
    """The Dask engine on a fresh LocalCluster: its figures and summary."""
    import dask
    from dask.distributed import Client, LocalCluster
    from dask.utils import parse_bytes

    from llvm_bitstream_reader import corpus

    # The scheduler (in this process) keeps every transition of the run, to tell which
    # tasks ran twice.
    dask.config.set({"distributed.admin.low-level-log-length": 100_000})
    cluster = LocalCluster(
        n_workers=workers,
        threads_per_worker=1,
        processes=True,
        memory_limit=memory_limit,
        dashboard_address=None,
    )
    client = Client(cluster)
    sampler = Sampler(cluster)
    sampler.start()
    killer = Killer(client, cluster, sampler) if kill else None
    sampler.sample()
    cpu_before = dict(sampler.cpu)  # starting a worker costs CPU time that is not the job's
    load_before = os.getloadavg()[0]
    start = time.perf_counter()
    summary = corpus.run_dask(
        str(dataset), "content", features_out=f"{features}/" if features else None, client=client, on_done=killer
    )
    seconds = time.perf_counter() - start
    sampler.stop()
    sent = client.run_on_scheduler(times_processing)
    figures = {
        "seconds": seconds,
        "modules_per_s": summary["modules"] / seconds,
        # CPU seconds of the workers, the job's work whatever else the machine runs.
        "worker_cpu_s": sum(cpu - cpu_before.get(key, 0) for key, cpu in sampler.cpu.items()),
        "load_average_1min": [load_before, os.getloadavg()[0]],
        "tasks": len(sent),
        "tasks_run_again": {key: n for key, n in sorted(sent.items()) if n > 1},
    }
    limit = parse_bytes(memory_limit)
    figures["memory_limit"] = limit
    figures["workers"] = [
        {"worker": name, "pid": pid, "peak_rss": peak, "under_limit": peak < limit}
        for (name, pid), peak in sorted(sampler.peaks.items(), key=lambda kv: sampler.first_seen[kv[0]])
    ]
    if killer:
        killer.armed.join()
        if not killer.killed:
            sys.exit("no worker was killed")
        k = killer.killed
        back = [t for (name, pid), t in sampler.first_seen.items() if name == k["worker"] and pid != k["pid"]]
        k["new_process_after_s"] = (min(back) - k["at"]) if back else None
        k["at_s"] = k.pop("at") - start
        figures["killed"] = k
    client.close()
    cluster.close()
    return summary, figures


def same_parts(a, b):
    """Whether two feature datasets have the same parts with the same rows (a part at a
    time in memory)."""
    import pyarrow.parquet as pq

    names = sorted(p.name for p in a.glob("part-*.parquet"))
    if names != sorted(p.name for p in b.glob("part-*.parquet")):
        return False
    return all(pq.read_table(a / n).equals(pq.read_table(b / n)) for n in names)


def features_digest(directory):
    """Rows and a digest of a features dataset, part by part."""
    import pyarrow.parquet as pq

    rows, digest = 0, hashlib.sha256()
    for part in sorted(directory.glob("part-*.parquet")):
        table = pq.read_table(part)
        rows += table.num_rows
        digest.update(str(table.column("row").to_pylist()).encode())
    return rows, digest.hexdigest()[:16]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dir", nargs="?", default="/tmp/llvm-bitstream-reader-scale")
    parser.add_argument("--gib", type=float, default=2.25, help="size of the dataset's files (GiB)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--memory-limit", default="1GB")
    parser.add_argument("--no-features", action="store_true", help="no --features output")
    parser.add_argument("--make-only", action="store_true")
    parser.add_argument("--kill-first", action="store_true", help="the Dask run with a kill before the one without")
    args = parser.parse_args()

    root = pathlib.Path(args.dir).resolve()  # the job names files by absolute path
    dataset = root / "dataset"
    started = time.perf_counter()
    manifest = make_dataset(dataset, args.gib)
    made_s = time.perf_counter() - started
    print(
        f"dataset: {manifest['rows']:,} rows ({len(manifest['modules'])} distinct modules), "
        f"{manifest['row_groups']} row groups in {len(manifest['files'])} files, "
        f"{manifest['bytes'] / 2**30:.2f} GiB on disk, {manifest['bitcode_bytes'] / 2**30:.2f} GiB of bitcode",
        file=sys.stderr,
    )
    if args.make_only:
        return

    def features(name):
        if args.no_features:
            return None
        out = root / f"features-{name}"
        shutil.rmtree(out, ignore_errors=True)
        return out

    print("local engine (the reference) ...", file=sys.stderr)
    local, local_figures = run_local(dataset, features("local"))
    runs = {}
    for kill in (True, False) if args.kill_first else (False, True):
        print("dask, a worker killed half way ..." if kill else "dask, left alone ...", file=sys.stderr)
        name = "dask-kill" if kill else "dask"
        runs[kill] = run_dask(dataset, features(name), args.workers, args.memory_limit, kill=kill)
    (calm, calm_figures), (hit, hit_figures) = runs[False], runs[True]

    failures = []
    planted = {k: manifest["damaged"][k] for k in ("file", "row_group", "first_row", "rows")}
    reported = [{k: g[k] for k in planted} for g in local["broken_row_groups"]]
    if reported != [planted]:
        failures.append(f"broken row groups: {reported}, planted {planted}")
    if local["broken_rows"] or local["rows"] != manifest["rows"] - planted["rows"]:
        failures.append(f"rows read {local['rows']}, broken {local['broken_rows']}")
    if calm != local:
        failures.append("the Dask summary differs from the local one")
    if hit != local:
        failures.append("the Dask summary with a kill differs from the local one")
    if not args.no_features:
        for name in ("dask", "dask-kill"):
            if not same_parts(root / "features-local", root / f"features-{name}"):
                failures.append(f"features of {name} differ from the local run's")
    killed = hit_figures["killed"]
    if not set(killed["in_hand"]) <= set(hit_figures["tasks_run_again"]):
        failures.append(f"the killed worker's tasks were not run again: {hit_figures['tasks_run_again']}")
    if calm_figures["tasks_run_again"]:
        failures.append(f"tasks ran twice with no worker killed: {calm_figures['tasks_run_again']}")
    for name, figures in (("dask", calm_figures), ("dask-kill", hit_figures)):
        pids = len(figures["workers"])
        if pids != args.workers + (name == "dask-kill"):
            failures.append(f"{name}: {pids} worker processes seen (a worker died that was not killed?)")
        if not all(w["under_limit"] for w in figures["workers"]):
            failures.append(f"{name}: a worker went over its limit")

    report = {
        "dataset": {k: manifest[k] for k in ("rows", "row_groups", "bytes", "bitcode_bytes", "module_bytes")}
        | {"distinct_modules": len(manifest["modules"]), "files": manifest["files"], "damaged": manifest["damaged"]},
        "dataset_made_s": made_s,
        "summary": {k: local[k] for k in ("modules", "functions", "instructions", "rows", "unread_rows")}
        | {"broken_row_groups": local["broken_row_groups"]},
        "local": local_figures,
        "dask": calm_figures,
        "dask_kill": hit_figures,
        "kill_cost_s": hit_figures["seconds"] - calm_figures["seconds"],
        "kill_cost_worker_cpu_s": hit_figures["worker_cpu_s"] - calm_figures["worker_cpu_s"],
        "summaries_equal": calm == local and hit == local,
        "features": None if args.no_features else features_digest(root / "features-local"),
        "failures": failures,
    }
    mb = 1e6
    print("| run | wall s | modules/s | CPU s | load before, after | peak RSS per worker process (MB) |")
    print("|---|---|---|---|---|---|")
    f = local_figures
    print(
        f"| local engine, one process | {f['seconds']:.1f} | {f['modules_per_s']:.2f} | {f['cpu_s']:.0f} "
        f"| {f['load_average_1min'][0]:.1f}, {f['load_average_1min'][1]:.1f} | {f['peak_rss'] / mb:.0f} |"
    )
    for name, f in (("dask, left alone", calm_figures), ("dask, a worker killed", hit_figures)):
        peaks = ", ".join(f"{w['worker']}: {w['peak_rss'] / mb:.0f}" for w in f["workers"])
        print(
            f"| {name} | {f['seconds']:.1f} | {f['modules_per_s']:.2f} | {f['worker_cpu_s']:.0f} "
            f"| {f['load_average_1min'][0]:.1f}, {f['load_average_1min'][1]:.1f} "
            f"| {peaks} (limit {f['memory_limit'] / mb:.0f}) |"
        )
    print(
        f"kill: worker {killed['worker']} (pid {killed['pid']}) at {killed['at_s']:.1f} s, "
        f"{killed['tasks_done']}/{killed['tasks']} tasks done, in hand {killed['in_hand']}, "
        f"the one it ran for {killed['task_ran_s']:.1f} s; "
        f"run again: {hit_figures['tasks_run_again']}; a new process after {killed['new_process_after_s']:.1f} s, "
        f"joined after {killed.get('rejoined_after_s', float('nan')):.1f} s; "
        f"cost {report['kill_cost_s']:+.1f} s of wall time, {report['kill_cost_worker_cpu_s']:+.1f} s of worker CPU time"
    )
    print(json.dumps(report, indent=1, default=str))
    if failures:
        sys.exit("FAILED: " + "; ".join(failures))


if __name__ == "__main__":
    main()
