"""Instruction and opcode counts over a Parquet dataset of bitcode, one module per row.

    python -m llvm_bitstream_reader.corpus PARQUET --column bitcode \\
        [--engine dask|local] [--workers N] [--memory-limit 1GB] [--scheduler ADDRESS] \\
        [--task-bytes N] [--features OUT] [--instructions OUT]

The layout is ComPile's (a column of bitcode blobs, one module per row; a blob holding
several modules counts each). PARQUET is a file or a directory of them (every file under
it whose name does not start with ``_`` or ``.``, in path order), local or any URI that
``pyarrow.fs`` opens.

The job is cut into tasks from the Parquet footers, which the driver reads: a task is
one file's run of consecutive row groups, up to ``--task-bytes`` (64 MB, uncompressed, as
the footer counts a row group), one row group at least. A task opens its file and reads
its row groups a few rows at a time (``BATCH_ROWS``), so a worker holds a batch and a
Parquet page, not a partition. With ``--engine
dask`` (the default) the tasks run on the workers of a ``dask.distributed`` cluster: a
local one of ``--workers`` processes (each limited to ``--memory-limit``), or the one at
``--scheduler``; a worker that dies has its tasks run again on another (up to
``distributed.scheduler.allowed-failures`` deaths per task), and since a task's result
depends on nothing but its rows, the summary is the same. ``--engine local`` runs the
same tasks one after another in this process. It prints one JSON object::

    {"modules": …, "functions": …, "declarations": …, "instructions": …,
     "opcodes": {"store": …, …}, "rows": …, "broken_rows": …,
     "broken": [{"row": …, "error": …}, …],
     "unread_rows": …,
     "broken_row_groups": [{"file": …, "row_group": …, "first_row": …, "rows": …,
                            "error": …}, …]}

``functions`` counts definitions (functions with a body), ``instructions`` their
instructions, as ``llvm-dis`` prints them; ``rows`` the rows read. A row that does not
decode is reported (the first ten in ``broken``) and counted, and the job goes on. A
row group that Parquet cannot read (a page that does not decompress, a torn page header,
a checksum that does not match) is listed in ``broken_row_groups`` (every one, in
dataset order), its rows counted in ``unread_rows`` and in nothing else, and the job
goes on. Rows are numbered by their place in the dataset, the unread ones included.

``--features OUT`` writes one row per function definition: ``row``, ``module``,
``name``, ``instructions``, ``opcodes`` (a map), ``file`` and ``line`` (of its
``DISubprogram``, null without debug info). Each task writes its own part, on the
worker, so no feature row passes through the driver. When OUT is a directory or ends
with ``/``, the parts are the output: a Parquet dataset of ``part-NNNNNN.parquet``, one
per task, named by task order (so rows read in name order are in dataset order; a part
may have no rows), and earlier ``part-*.parquet`` there are removed first. Otherwise
OUT is one Parquet file, which the driver copies together from the parts (one part in
memory at a time) and then removes them. With ``--scheduler``, PARQUET must be a path
every worker can read, and OUT one every worker can write.

``--instructions OUT`` writes one row per instruction the same way (parts per task, on
the workers): ``row`` and ``module``, then the columns of ``Module.instruction_table()``
(``function``, ``block``, ``index``, ``opcode``, ``type``, ``operands``, ``callee``,
``file``, ``line``, ``column``).
"""

import argparse
import json
import os
import re
import sys
import uuid

from . import BitcodeError, Module

#: How many broken rows the summary lists (all are counted).
BROKEN_LISTED = 10

#: Rows per batch read from Parquet. Modules run to megabytes (libclc's to 10 MB), and a
#: batch is held some three times over while it is read and decoded (Arrow's growing
#: buffer, then the Python bytes), so a worker holds a few batches, not a row group; it
#: holds a Parquet page too, the unit of decompression, which no reader can cut: a file
#: written with pages of whole row groups costs a row group of memory (see README).
BATCH_ROWS = 4

#: Column bytes (uncompressed, from the footer) up to which consecutive row groups of a
#: file are joined into one task: fewer, longer tasks cost less scheduling, and smaller
#: ones less work lost when a worker dies.
TASK_BYTES = 64 << 20

#: Feature rows a task buffers before it writes them to its part (a libclc module has
#: some 10,000 functions; as Python dicts they are about a kilobyte each).
FEATURE_ROWS = 50_000

#: Instruction rows a task buffers before it writes them to its part (a libclc module has
#: some 800,000; as Arrow columns they are some 60 bytes each).
INSTRUCTION_ROWS = 500_000

#: The name of a task's part of the features.
PART_NAME = "part-{:06d}.parquet"
PART_PATTERN = re.compile(r"part-\d{6}\.parquet")


def empty_summary():
    """The counts of no rows."""
    return {
        "modules": 0,
        "functions": 0,
        "declarations": 0,
        "instructions": 0,
        "opcodes": {},
        "rows": 0,
        "broken_rows": 0,
        "broken": [],
        "unread_rows": 0,
        "broken_row_groups": [],
    }


COUNTS = ("modules", "functions", "declarations", "instructions", "rows", "broken_rows", "unread_rows")


def merge(a, b):
    """Two summaries as one (the broken rows listed in row order, at most BROKEN_LISTED;
    the broken row groups all, in dataset order)."""
    out = empty_summary()
    for key in COUNTS:
        out[key] = a[key] + b[key]
    opcodes = dict(a["opcodes"])
    for op, n in b["opcodes"].items():
        opcodes[op] = opcodes.get(op, 0) + n
    out["opcodes"] = dict(sorted(opcodes.items()))
    out["broken"] = sorted(a["broken"] + b["broken"], key=lambda r: r["row"])[:BROKEN_LISTED]
    out["broken_row_groups"] = sorted(a["broken_row_groups"] + b["broken_row_groups"], key=lambda g: g["first_row"])
    return out


def process_blobs(blobs, first_row, features=None, instructions=None):
    """The summary of `blobs` (rows `first_row`, … of the dataset); with a `features`
    list, one dict per function definition appended to it; with an `instructions` list,
    each module's instruction table (`placed_instructions`)."""
    s = empty_summary()
    s["rows"] = len(blobs)
    opcodes = s["opcodes"]
    for offset, blob in enumerate(blobs):
        row = first_row + offset
        if blob is None:
            s["broken_rows"] += 1
            s["broken"].append({"row": row, "error": "null blob"})
            continue
        try:
            modules = Module.parse_all(blob)
            rows = []
            tables = []
            counted = empty_summary()
            for index, module in enumerate(modules):
                counted["modules"] += 1
                if instructions is not None:
                    tables.append(placed_instructions(module, row, index))
                for f in module.functions:
                    if f.is_declaration:
                        counted["declarations"] += 1
                        continue
                    counts = f.opcode_counts
                    n = sum(counts.values())
                    counted["functions"] += 1
                    counted["instructions"] += n
                    for op, c in counts.items():
                        counted["opcodes"][op] = counted["opcodes"].get(op, 0) + c
                    if features is not None:
                        sp = f.subprogram
                        rows.append(
                            {
                                "row": row,
                                "module": index,
                                "name": f.name,
                                "instructions": n,
                                "opcodes": counts,
                                "file": sp.file if sp else None,
                                "line": sp.line if sp else None,
                            }
                        )
        except BitcodeError as e:
            s["broken_rows"] += 1
            s["broken"].append({"row": row, "error": f"{e} (byte {e.offset})"})
            continue
        # A row counts whole or not at all.
        for key in ("modules", "functions", "declarations", "instructions"):
            s[key] += counted[key]
        for op, c in counted["opcodes"].items():
            opcodes[op] = opcodes.get(op, 0) + c
        if features is not None:
            features.extend(rows)
        if instructions is not None:
            instructions.extend(tables)
    s["broken"] = s["broken"][:BROKEN_LISTED]
    s["opcodes"] = dict(sorted(opcodes.items()))
    return s


def features_schema():
    """The schema of the per-function features."""
    import pyarrow as pa

    return pa.schema(
        [
            ("row", pa.int64()),
            ("module", pa.int32()),
            ("name", pa.string()),
            ("instructions", pa.int64()),
            ("opcodes", pa.map_(pa.string(), pa.int64())),
            ("file", pa.string()),
            ("line", pa.int64()),
        ]
    )


def instructions_schema():
    """The schema of the per-instruction rows: the dataset row and module, then
    `Module.instruction_table()`'s columns."""
    import pyarrow as pa

    return pa.schema(
        [
            ("row", pa.int64()),
            ("module", pa.int32()),
            ("function", pa.string()),
            ("block", pa.int32()),
            ("index", pa.int32()),
            ("opcode", pa.string()),
            ("type", pa.string()),
            ("operands", pa.int32()),
            ("callee", pa.string()),
            ("file", pa.string()),
            ("line", pa.int32()),
            ("column", pa.int32()),
        ]
    )


def placed_instructions(module, row, index):
    """`module.instruction_table()` with its dataset `row` and module `index` first."""
    import pyarrow as pa

    table = module.instruction_table()
    n = table.num_rows
    table = table.add_column(0, "module", pa.repeat(pa.scalar(index, pa.int32()), n))
    table = table.add_column(0, "row", pa.repeat(pa.scalar(row, pa.int64()), n))
    return table.cast(instructions_schema())


def features_table(rows):
    """The per-function features as a pyarrow Table."""
    import pyarrow as pa

    schema = features_schema()
    columns = {
        name: pa.array([r[name] for r in rows], schema.field(name).type) for name in schema.names if name != "opcodes"
    }
    # The map built from its flat keys and values: from a list of pairs per row it took
    # three times as long (50 ms for a libclc module's 11,000 functions, against 18).
    offsets, keys, counts = [0], [], []
    for r in rows:
        keys.extend(r["opcodes"])
        counts.extend(r["opcodes"].values())
        offsets.append(len(keys))
    columns["opcodes"] = pa.MapArray.from_arrays(
        pa.array(offsets, pa.int32()), pa.array(keys, pa.string()), pa.array(counts, pa.int64())
    )
    return pa.table([columns[name] for name in schema.names], schema=schema)


def write_features(rows, out):
    """The per-function features as a Parquet file."""
    import pyarrow.parquet as pq

    pq.write_table(features_table(rows), out)


# The plan: tasks from the footers.


def filesystem(path):
    """The pyarrow filesystem of `path` and the path in it (a plain path is local)."""
    import pyarrow.fs as pafs

    if "://" in str(path):
        return pafs.FileSystem.from_uri(str(path))
    return pafs.LocalFileSystem(), os.path.abspath(path)


def dataset_files(fs, path):
    """The Parquet files of a dataset: `path` itself, or every file under it whose name
    (or a folder's) does not start with ``_`` or ``.`` (``_metadata``, ``.crc`` and
    half-written files, as pyarrow's discovery skips them), in path order."""
    import pyarrow.fs as pafs

    info = fs.get_file_info(path)
    if info.type == pafs.FileType.NotFound:
        raise FileNotFoundError(path)
    if info.type != pafs.FileType.Directory:
        return [path]
    files = []
    for entry in fs.get_file_info(pafs.FileSelector(path, recursive=True)):
        relative = entry.path[len(path) :].lstrip("/")
        if entry.type == pafs.FileType.File and not any(p[:1] in "_." for p in relative.split("/")):
            files.append(entry.path)
    return sorted(files)


def plan(path, task_bytes=TASK_BYTES):
    """The job's tasks, in dataset order, from the footers of the dataset's files (read
    here): dicts of ``index``, ``filesystem``, ``file`` and ``row_groups`` (dicts of
    ``row_group``, ``first_row``, ``rows``), a task one file's consecutive row groups up
    to `task_bytes` of column data."""
    import pyarrow.parquet as pq

    fs, root = filesystem(path)
    tasks = []
    first_row = 0
    for file in dataset_files(fs, root):
        with fs.open_input_file(file) as f:
            metadata = pq.ParquetFile(f).metadata
        current, size = [], 0
        for i in range(metadata.num_row_groups):
            group = metadata.row_group(i)
            if current and size + group.total_byte_size > task_bytes:
                tasks.append({"file": file, "row_groups": current})
                current, size = [], 0
            current.append({"row_group": i, "first_row": first_row, "rows": group.num_rows})
            size += group.total_byte_size
            first_row += group.num_rows
        if current:
            tasks.append({"file": file, "row_groups": current})
    for index, task in enumerate(tasks):
        task["index"] = index
        task["filesystem"] = fs  # pyarrow filesystems pickle, so a worker opens the same
    return tasks


# A task: what both engines run.


def _open_parquet(f):
    """A Parquet file read page by page (a 1 MB buffer, not a column chunk at once), its
    page checksums checked where the writer wrote them."""
    import pyarrow.parquet as pq

    options = {"buffer_size": 1 << 20, "pre_buffer": False}
    try:
        return pq.ParquetFile(f, page_checksum_verification=True, **options)
    except TypeError:  # pyarrow 14 does not check checksums
        return pq.ParquetFile(f, **options)


class _FeatureSink:
    """A task's feature rows, written in chunks to a hidden file that becomes its part
    when the task ends (so that a killed attempt leaves no part, and its retry starts
    afresh)."""

    def __init__(self, features_dir, index):
        self.fs, self.dir = features_dir
        self.final = f"{self.dir}/{PART_NAME.format(index)}"
        self.tmp = f"{self.dir}/.{PART_NAME.format(index)}.{uuid.uuid4().hex}.tmp"
        self.schema = self.part_schema()
        self.writer = None
        self.written = 0
        self.buffer = []

    def part_schema(self):
        return features_schema()

    def flush_rows(self):
        """Rows buffered before they are written (the module's setting, read when used)."""
        return FEATURE_ROWS

    def buffered(self):
        """How many rows the buffer holds."""
        return len(self.buffer)

    def table(self):
        """The buffer as a table."""
        return features_table(self.buffer)

    def keep_buffered(self, keep):
        """Drop the buffered rows after the first `keep`."""
        del self.buffer[keep:]

    def add(self, rows):
        self.buffer.extend(rows)
        if self.buffered() >= self.flush_rows():
            self._flush()

    def mark(self):
        """How many rows the part has so far (for `truncate`)."""
        return self.written + self.buffered()

    def truncate(self, keep):
        """Drop the rows after the first `keep` (those of a row group that failed)."""
        if keep >= self.written:
            self.keep_buffered(keep - self.written)
            return
        # Written already: copy the first `keep` rows to a new file. Rare (a row group
        # that broke after flush_rows() of its rows), so simple beats fast.
        import pyarrow.parquet as pq

        self.writer.close()
        old, self.tmp = self.tmp, f"{self.dir}/.{os.path.basename(self.final)}.{uuid.uuid4().hex}.tmp"
        self.writer = pq.ParquetWriter(self.tmp, self.schema, filesystem=self.fs)
        with self.fs.open_input_file(old) as f:
            left = keep
            for batch in pq.ParquetFile(f).iter_batches(batch_size=FEATURE_ROWS):
                if left <= 0:
                    break
                self.writer.write_batch(batch.slice(0, left))
                left -= min(left, batch.num_rows)
        self.fs.delete_file(old)
        self.written = keep
        self.buffer = []

    def _flush(self):
        import pyarrow.parquet as pq

        if self.writer is None:
            # Given the path, the writer owns the stream and closes it (an object store
            # uploads on close).
            self.writer = pq.ParquetWriter(self.tmp, self.schema, filesystem=self.fs)
        if self.buffer:
            self.writer.write_table(self.table())
            self.written += self.buffered()
            self.buffer = []

    def close(self):
        """Write what is left and put the part in place (with no rows, an empty part, so
        that every task has one)."""
        self._flush()
        self.writer.close()
        self.fs.move(self.tmp, self.final)


class _InstructionSink(_FeatureSink):
    """A task's instruction rows (one `Module.instruction_table()` per module, placed by
    its row and module), written to its part as the features are."""

    def part_schema(self):
        return instructions_schema()

    def flush_rows(self):
        return INSTRUCTION_ROWS

    def buffered(self):
        return sum(t.num_rows for t in self.buffer)

    def table(self):
        import pyarrow as pa

        return pa.concat_tables(self.buffer)

    def keep_buffered(self, keep):
        kept, left = [], keep
        for t in self.buffer:
            if left <= 0:
                break
            kept.append(t.slice(0, left))
            left -= min(left, t.num_rows)
        self.buffer = kept


def run_task(task, column, features_dir=None, instructions_dir=None):
    """The summary of one task (see `plan`): its row groups read a batch at a time and
    decoded; a row group that cannot be read is reported and counts no rows. With
    `features_dir` (a pyarrow filesystem and a directory in it), the task's features
    are written to its part there; with `instructions_dir`, its instruction rows."""
    import pyarrow as pa

    summary = empty_summary()
    sinks = {}
    if features_dir:
        sinks["features"] = _FeatureSink(features_dir, task["index"])
    if instructions_dir:
        sinks["instructions"] = _InstructionSink(instructions_dir, task["index"])
    # The footer was read when the job was planned: a file that does not open now is
    # not a broken row group but a dataset that changed or went away, and fails the job.
    with task["filesystem"].open_input_file(task["file"]) as f:
        parquet = _open_parquet(f)
        for group in task["row_groups"]:
            part = empty_summary()
            kept = {name: sink.mark() for name, sink in sinks.items()}
            row = group["first_row"]
            error = None
            batches = parquet.iter_batches(
                batch_size=BATCH_ROWS, row_groups=[group["row_group"]], columns=[column], use_threads=False
            )
            while True:
                # Only the read is guarded: an error of the decoder is not the file's.
                try:
                    batch = next(batches)
                except StopIteration:
                    break
                except (OSError, pa.ArrowException) as e:
                    error = f"{type(e).__name__}: {e}".strip()
                    break
                blobs = batch.column(0).to_pylist()
                out = {name: [] for name in sinks}
                part = merge(part, process_blobs(blobs, row, out.get("features"), out.get("instructions")))
                for name, sink in sinks.items():
                    sink.add(out[name])
                row += len(blobs)
            # Arrow's allocator keeps what a row group's pages and batches took; given
            # back, the worker's resident memory (which Dask's memory limit watches) is
            # what it uses.
            pa.default_memory_pool().release_unused()
            if error is None and part["rows"] != group["rows"]:
                error = f"read {part['rows']} rows, the footer says {group['rows']}"
            if error is None:
                summary = merge(summary, part)
                continue
            # The row group counts no rows: not those decoded before the break either.
            for name, sink in sinks.items():
                sink.truncate(kept[name])
            summary["unread_rows"] += group["rows"]
            summary["broken_row_groups"].append(
                {
                    "file": task["file"],
                    "row_group": group["row_group"],
                    "first_row": group["first_row"],
                    "rows": group["rows"],
                    "error": error,
                }
            )
    for sink in sinks.values():
        sink.close()
    return summary


# Features: where the parts go, and the single file made of them.


def features_target(out):
    """Where the tasks write their parts for `--features OUT` (or `--instructions OUT`): (filesystem, directory,
    the single file to copy them to or None). The directory is made, and parts of an
    earlier run in it removed (they would join this run's)."""
    import pyarrow.fs as pafs

    fs, path = filesystem(out)
    as_dir = str(out).endswith("/") or fs.get_file_info(path).type == pafs.FileType.Directory
    directory = path.rstrip("/") if as_dir else path + ".parts"
    fs.create_dir(directory, recursive=True)
    for entry in fs.get_file_info(pafs.FileSelector(directory)):
        if PART_PATTERN.fullmatch(entry.base_name):
            fs.delete_file(entry.path)
    return fs, directory, None if as_dir else path


def finish_features(target, n_tasks, schema=None):
    """After the tasks: leftovers of killed attempts removed, every part checked to be
    there, and for a single file, the parts copied into it in order, then removed.
    `schema`: the parts' (the features' by default)."""
    import pyarrow.fs as pafs
    import pyarrow.parquet as pq

    fs, directory, single = target
    for entry in fs.get_file_info(pafs.FileSelector(directory)):
        if entry.base_name.startswith(".part-") and entry.base_name.endswith(".tmp"):
            fs.delete_file(entry.path)
    parts = [f"{directory}/{PART_NAME.format(i)}" for i in range(n_tasks)]
    missing = [p for p in parts if fs.get_file_info(p).type != pafs.FileType.File]
    if missing:
        raise RuntimeError(f"parts missing: {missing[:3]}")
    if single is None:
        return
    with pq.ParquetWriter(single, schema or features_schema(), filesystem=fs) as writer:
        for part in parts:
            with fs.open_input_file(part) as f:
                for batch in pq.ParquetFile(f).iter_batches(batch_size=FEATURE_ROWS):
                    writer.write_batch(batch)
    fs.delete_dir(directory)


# The engines.


def run_local(path, column, features_out=None, task_bytes=TASK_BYTES, instructions_out=None):
    """The job in this process, one task after another."""
    tasks = plan(path, task_bytes)
    target = features_target(features_out) if features_out else None
    instructions = features_target(instructions_out) if instructions_out else None
    summary = empty_summary()
    for task in tasks:
        summary = merge(
            summary,
            run_task(task, column, target[:2] if target else None, instructions[:2] if instructions else None),
        )
    if target:
        finish_features(target, len(tasks))
    if instructions:
        finish_features(instructions, len(tasks), instructions_schema())
    return summary


def run_dask(
    path,
    column,
    workers=None,
    scheduler=None,
    features_out=None,
    memory_limit=None,
    task_bytes=TASK_BYTES,
    client=None,
    on_done=None,
    instructions_out=None,
):
    """The job on a dask.distributed cluster: `client`'s, the one at `scheduler`, or a
    local one of `workers` processes (one thread each, `memory_limit` each, as
    LocalCluster takes it: "1GB"; default Dask's share of the machine). Each task runs
    once on some worker, again if its worker dies. Only the summaries come back to
    the driver. `on_done(done, total)` is called after each task's summary arrives."""
    from dask.distributed import Client, LocalCluster, as_completed

    tasks = plan(path, task_bytes)
    target = features_target(features_out) if features_out else None
    instructions = features_target(instructions_out) if instructions_out else None
    cluster = None
    own_client = client is None
    if client is None and scheduler:
        client = Client(scheduler)
    elif client is None:
        cluster = LocalCluster(
            n_workers=workers or 2,
            threads_per_worker=1,
            processes=True,
            memory_limit=memory_limit or "auto",
            dashboard_address=None,
        )
        client = Client(cluster)
    try:
        # Keys of their own per run: a cluster that ran this job before must not hand
        # back its results for the same arguments.
        run = uuid.uuid4().hex[:8]
        futures = client.map(
            run_task,
            tasks,
            column=column,
            features_dir=target[:2] if target else None,
            instructions_dir=instructions[:2] if instructions else None,
            key=[f"corpus-{run}-{t['index']:06d}" for t in tasks],
        )
        position = {f.key: i for i, f in enumerate(futures)}
        # Only as_completed holds the futures from here on, and it lets go of each as it
        # yields it.
        pending = as_completed(futures, with_results=True)
        del futures
        results = [None] * len(tasks)
        for done, (future, result) in enumerate(pending, 1):
            results[position[future.key]] = result
            # Released on the cluster now: a worker that dies later holds no summary
            # that would have to be made again.
            future.release()
            if on_done:
                on_done(done, len(tasks))
    finally:
        if own_client:
            client.close()
        if cluster is not None:
            cluster.close()
    summary = empty_summary()
    for result in results:
        summary = merge(summary, result)
    if target:
        finish_features(target, len(tasks))
    if instructions:
        finish_features(instructions, len(tasks), instructions_schema())
    return summary


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m llvm_bitstream_reader.corpus",
        description="Instruction and opcode counts over a Parquet dataset of bitcode (one module per row).",
    )
    parser.add_argument("parquet", help="a Parquet file or directory of them")
    parser.add_argument("--column", default="content", help="the column of bitcode blobs (ComPile's: content)")
    parser.add_argument("--engine", choices=("dask", "local"), default="dask")
    parser.add_argument("--workers", type=int, default=None, help="local cluster workers (default 2)")
    parser.add_argument(
        "--memory-limit", default=None, help='memory per local cluster worker, e.g. "1GB" (default: Dask\'s share)'
    )
    parser.add_argument("--scheduler", default=None, help="a dask.distributed scheduler address")
    parser.add_argument(
        "--task-bytes",
        type=int,
        default=TASK_BYTES,
        help="column bytes of one file's row groups joined into a task (default 64 MB; one row group at least)",
    )
    parser.add_argument(
        "--features",
        default=None,
        metavar="OUT",
        help="write per-function features: a Parquet dataset of parts if OUT is a directory or ends with /, else one file",
    )
    parser.add_argument(
        "--instructions",
        default=None,
        metavar="OUT",
        help="write one row per instruction (Module.instruction_table(), with row and module): as --features OUT",
    )
    args = parser.parse_args(argv)
    if args.engine == "local":
        summary = run_local(args.parquet, args.column, args.features, args.task_bytes, args.instructions)
    else:
        summary = run_dask(
            args.parquet,
            args.column,
            args.workers,
            args.scheduler,
            args.features,
            memory_limit=args.memory_limit,
            task_bytes=args.task_bytes,
            instructions_out=args.instructions,
        )
    json.dump(summary, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    # Run from the package's module, not from __main__: Dask ships the job's functions to
    # its workers by reference, which needs a module they can import.
    from llvm_bitstream_reader.corpus import main as package_main

    sys.exit(package_main())
