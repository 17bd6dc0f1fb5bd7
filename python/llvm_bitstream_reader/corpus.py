"""Instruction and opcode counts over a Parquet dataset of bitcode, one module per row.

    python -m llvm_bitstream_reader.corpus PARQUET --column bitcode \\
        [--engine dask|local] [--workers N] [--scheduler ADDRESS] [--features OUT]

The layout is ComPile's (a column of bitcode blobs, one module per row; a blob holding
several modules counts each). With ``--engine dask`` (the default) the partitions are
read and decoded on the workers of a ``dask.distributed`` cluster: a local one of
``--workers`` processes, or the one at ``--scheduler``. ``--engine local`` runs in this
process, one Parquet batch at a time. It prints one JSON object::

    {"modules": …, "functions": …, "declarations": …, "instructions": …,
     "opcodes": {"store": …, …}, "broken_rows": …, "broken": [{"row": …, "error": …}, …]}

``functions`` counts definitions (functions with a body), ``instructions`` their
instructions, as ``llvm-dis`` prints them. A row that does not decode is reported
(the first ten in ``broken``) and counted, and the job goes on. ``--features OUT``
writes a Parquet table of one row per function definition: ``row``, ``module``,
``name``, ``instructions``, ``opcodes`` (a map), ``file`` and ``line`` (of its
``DISubprogram``, null without debug info).
"""

import argparse
import json
import sys

from . import BitcodeError, Module

#: How many broken rows the summary lists (all are counted).
BROKEN_LISTED = 10


def empty_summary():
    """The counts of no rows."""
    return {
        "modules": 0,
        "functions": 0,
        "declarations": 0,
        "instructions": 0,
        "opcodes": {},
        "broken_rows": 0,
        "broken": [],
    }


def merge(a, b):
    """Two summaries as one (the broken rows listed in row order, at most BROKEN_LISTED)."""
    out = empty_summary()
    for key in ("modules", "functions", "declarations", "instructions", "broken_rows"):
        out[key] = a[key] + b[key]
    opcodes = dict(a["opcodes"])
    for op, n in b["opcodes"].items():
        opcodes[op] = opcodes.get(op, 0) + n
    out["opcodes"] = dict(sorted(opcodes.items()))
    out["broken"] = sorted(a["broken"] + b["broken"], key=lambda r: r["row"])[:BROKEN_LISTED]
    return out


def process_blobs(blobs, first_row, features=None):
    """The summary of `blobs` (rows `first_row`, … of the dataset); with a `features`
    list, one dict per function definition appended to it."""
    s = empty_summary()
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
            counted = empty_summary()
            for index, module in enumerate(modules):
                counted["modules"] += 1
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
    s["broken"] = s["broken"][:BROKEN_LISTED]
    s["opcodes"] = dict(sorted(opcodes.items()))
    return s


def features_table(rows):
    """The per-function features as a pyarrow Table."""
    import pyarrow as pa

    schema = pa.schema(
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
    columns = {name: [r[name] for r in rows] for name in schema.names}
    columns["opcodes"] = [list(r["opcodes"].items()) for r in rows]
    return pa.table(columns, schema=schema)


def write_features(rows, out):
    """The per-function features as a Parquet file."""
    import pyarrow.parquet as pq

    pq.write_table(features_table(rows), out)


def run_local(path, column, features_out=None):
    """The job in this process, a Parquet batch at a time."""
    import pyarrow.parquet as pq

    summary = empty_summary()
    features = [] if features_out else None
    row = 0
    for batch in pq.ParquetFile(path).iter_batches(columns=[column], batch_size=256):
        blobs = batch.column(0).to_pylist()
        summary = merge(summary, process_blobs(blobs, row, features))
        row += len(blobs)
    if features_out:
        write_features(features, features_out)
    return summary


def _partition(frame, column, want_features):
    """One Dask partition, its rows numbered from 0: (rows, summary, features or None)."""
    features = [] if want_features else None
    return len(frame), process_blobs(frame[column].tolist(), 0, features), features


def run_dask(path, column, workers=None, scheduler=None, features_out=None):
    """The job on a dask.distributed cluster: a local one of `workers` processes, or the
    one at `scheduler`. Each worker reads and decodes its partitions, once."""
    import dask
    import dask.dataframe as dd
    from dask.distributed import Client, LocalCluster

    if scheduler:
        client = Client(scheduler)
        cluster = None
    else:
        cluster = LocalCluster(n_workers=workers or 2, threads_per_worker=1, processes=True, dashboard_address=None)
        client = Client(cluster)
    try:
        frame = dd.read_parquet(path, columns=[column], index=False)
        one = dask.delayed(_partition)
        results = dask.compute(*[one(part, column, bool(features_out)) for part in frame.to_delayed()])
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    # Rows numbered across partitions (in order), so that a broken row is named by its
    # place in the dataset.
    summary = empty_summary()
    features = []
    start = 0
    for rows, part, part_features in results:
        for broken in part["broken"]:
            broken["row"] += start
        summary = merge(summary, part)
        for f in part_features or []:
            f["row"] += start
            features.append(f)
        start += rows
    if features_out:
        write_features(features, features_out)
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
    parser.add_argument("--scheduler", default=None, help="a dask.distributed scheduler address")
    parser.add_argument("--features", default=None, metavar="OUT", help="write per-function features to this Parquet file")
    args = parser.parse_args(argv)
    if args.engine == "local":
        summary = run_local(args.parquet, args.column, args.features)
    else:
        summary = run_dask(args.parquet, args.column, args.workers, args.scheduler, args.features)
    json.dump(summary, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    # Run from the package's module, not from __main__: Dask ships the job's functions to
    # its workers by reference, which needs a module they can import.
    from llvm_bitstream_reader.corpus import main as package_main

    sys.exit(package_main())
