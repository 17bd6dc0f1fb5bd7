"""The corpus job on a Parquet file of real modules, against llvm-dis-22's text."""

import json
import os
import subprocess
import sys

import pytest

from conftest import REPO, TESTDATA, run, tool
from llvm_bitstream_reader.llvm_dis_text import opcode_counts as llvm_dis_opcodes

pa = pytest.importorskip("pyarrow") if os.environ.get("CI") != "true" else __import__("pyarrow")
import pyarrow.parquet as pq  # noqa: E402


def modules():
    """Real modules nobody here wrote: rustc 1.95's and Debian's libclc-22's."""
    files = [TESTDATA / "rustc_llvm22_o3.bc", TESTDATA / "rustc_llvm22_o0_debuginfo.bc"]
    clc = REPO / "target" / "libclc" / "22" / "usr" / "lib" / "clc"
    if clc.exists():
        files += sorted(p for p in clc.glob("*.bc") if p.stat().st_size < 3_000_000)[:4]
    elif os.environ.get("CI") == "true":
        pytest.fail(f"{clc} is missing (.ci/run unpacks libclc-22 there)")
    return files


@pytest.fixture(scope="module")
def dataset(tmp_path_factory):
    """A Parquet file in ComPile's layout: one module per row, a cut one and a null among them."""
    files = modules()
    blobs = [f.read_bytes() for f in files]
    blobs.insert(1, blobs[0][: len(blobs[0]) // 2])  # cut in the middle: a broken row
    blobs.append(None)
    path = tmp_path_factory.mktemp("corpus") / "modules.parquet"
    pq.write_table(pa.table({"content": pa.array(blobs, pa.binary())}), path, row_group_size=2)
    expected = {}
    for f in files:
        for op, n in llvm_dis_opcodes(run(tool("llvm-dis-22"), str(f), "-o", "-")).items():
            expected[op] = expected.get(op, 0) + n
    return path, len(files), expected


def job(*args):
    out = subprocess.run(
        [sys.executable, "-m", "llvm_bitstream_reader.corpus", *map(str, args)],
        check=True,
        capture_output=True,
        text=True,
        cwd=REPO,
    )
    return json.loads(out.stdout)


def check(summary, n_modules, expected):
    assert summary["modules"] == n_modules
    assert summary["opcodes"] == dict(sorted(expected.items()))
    assert summary["instructions"] == sum(expected.values())
    assert summary["broken_rows"] == 2
    assert [b["row"] for b in summary["broken"]] == [1, n_modules + 1]


def test_local_engine_counts_what_llvm_dis_prints(dataset, tmp_path):
    path, n, expected = dataset
    out = tmp_path / "features.parquet"
    summary = job(path, "--engine", "local", "--features", out)
    check(summary, n, expected)
    table = pq.read_table(out)
    assert table.num_rows == summary["functions"]
    assert sum(table.column("instructions").to_pylist()) == summary["instructions"]
    with_lines = [r for r in table.to_pylist() if r["line"] is not None]
    assert with_lines and all(r["file"] for r in with_lines)


def test_dask_engine_on_a_local_cluster(dataset, tmp_path):
    pytest.importorskip("dask.distributed") if os.environ.get("CI") != "true" else None
    path, n, expected = dataset
    out = tmp_path / "features.parquet"
    summary = job(path, "--engine", "dask", "--workers", "2", "--features", out)
    check(summary, n, expected)
    assert summary == job(path, "--engine", "local")
    assert pq.read_table(out).num_rows == summary["functions"]


def corrupt_last_page(path, row_group):
    """Overwrite 64 bytes near the end of a row group's column chunk, in its last data
    page (each module is a page of its own in the files written below), where the page's
    checksum no longer matches: a row group that pyarrow cannot read, after the pages
    before it read well."""
    chunk = pq.ParquetFile(path).metadata.row_group(row_group).column(0)
    end = chunk.data_page_offset + chunk.total_compressed_size
    with open(path, "r+b") as f:
        f.seek(end - 80)
        f.write(bytes(range(64)))


@pytest.fixture(scope="module")
def damaged(tmp_path_factory):
    """A dataset of two files with row groups of 3 and 2 rows; the second row group of
    the first file (rows 3 to 5) is damaged, and the last row (12) is null. Returned
    with the counts llvm-dis-22 gives for the rows that can be read."""
    files = modules()
    root = tmp_path_factory.mktemp("damaged")
    first = [files[i % len(files)] for i in range(6)]
    second = [files[(i + 2) % len(files)] for i in range(6)]
    pq.write_table(
        pa.table({"content": pa.array([f.read_bytes() for f in first], pa.binary())}),
        root / "a.parquet",
        row_group_size=3,
        compression="zstd",
        use_dictionary=False,
        write_page_checksum=True,
        write_batch_size=1,
        data_page_size=1,
    )
    blobs = [f.read_bytes() for f in second] + [None]
    pq.write_table(pa.table({"content": pa.array(blobs, pa.binary())}), root / "b.parquet", row_group_size=2)
    corrupt_last_page(root / "a.parquet", 1)
    text = {f: llvm_dis_opcodes(run(tool("llvm-dis-22"), str(f), "-o", "-")) for f in files}
    readable = first[:3] + second  # rows 0-2 and 6-11
    expected = {}
    for f in readable:
        for op, n in text[f].items():
            expected[op] = expected.get(op, 0) + n
    return root, len(readable), expected


def check_damaged(summary, root, n_modules, expected):
    assert summary["modules"] == n_modules
    assert summary["opcodes"] == dict(sorted(expected.items()))
    assert summary["instructions"] == sum(expected.values())
    assert summary["rows"] == 10 and summary["unread_rows"] == 3
    # The null row is named by its place in the dataset, the unread rows counted in it.
    assert summary["broken_rows"] == 1 and summary["broken"] == [{"row": 12, "error": "null blob"}]
    [group] = summary["broken_row_groups"]
    assert {k: group[k] for k in ("file", "row_group", "first_row", "rows")} == {
        "file": str(root / "a.parquet"),
        "row_group": 1,
        "first_row": 3,
        "rows": 3,
    }
    assert "CRC" in group["error"]


def test_a_corrupt_row_group_is_reported_by_both_engines(damaged, tmp_path):
    pytest.importorskip("dask.distributed") if os.environ.get("CI") != "true" else None
    root, n, expected = damaged
    local = job(root, "--engine", "local", "--features", tmp_path / "local.parquet")
    check_damaged(local, root, n, expected)
    # A task per row group, as against one per file: the same summary.
    assert job(root, "--engine", "local", "--task-bytes", "1") == local
    parts = tmp_path / "parts"
    dask_summary = job(root, "--workers", "2", "--memory-limit", "1GB", "--task-bytes", "1", "--features", f"{parts}/")
    assert dask_summary == local
    # One part per task (the damaged row group's too, empty), in dataset order by name.
    names = sorted(p.name for p in parts.iterdir())
    assert names == [f"part-{i:06d}.parquet" for i in range(6)]
    assert pq.read_table(parts / names[1]).num_rows == 0
    table = pq.read_table([parts / name for name in names])
    rows = table.column("row").to_pylist()
    assert len(rows) == local["functions"] and rows == sorted(rows)
    assert not set(rows) & {3, 4, 5, 12}
    assert table.equals(pq.read_table(tmp_path / "local.parquet"))


def test_a_row_group_that_breaks_midway_keeps_none_of_its_rows(damaged, tmp_path, monkeypatch):
    """The damaged row group breaks at its third row, after two were decoded and, with a
    batch of one row and features written every 50 rows, written to the part: they are
    taken out again, and nothing of theirs is counted."""
    from llvm_bitstream_reader import corpus

    root, n, expected = damaged
    monkeypatch.setattr(corpus, "BATCH_ROWS", 1)
    monkeypatch.setattr(corpus, "FEATURE_ROWS", 50)
    truncated = []  # (rows kept, rows written): the part had rows of the broken group
    truncate = corpus._FeatureSink.truncate

    def spy(sink, keep):
        truncated.append((keep, sink.written))
        truncate(sink, keep)

    monkeypatch.setattr(corpus._FeatureSink, "truncate", spy)
    out = tmp_path / "features.parquet"
    summary = corpus.run_local(str(root), "content", str(out))
    check_damaged(summary, root, n, expected)
    [(keep, written)] = truncated
    assert written > keep
    rows = pq.read_table(out).column("row").to_pylist()
    assert len(rows) == summary["functions"]
    assert not set(rows) & {3, 4, 5}
    assert not (tmp_path / "features.parquet.parts").exists()


def test_instruction_rows_on_dask_are_llvm_dis(damaged, tmp_path):
    """--instructions: one row per instruction of every readable row, written per task on
    the Dask workers; its opcodes are llvm-dis-22's, the damaged row group has none, and
    the parts hold what the local engine's single file and Module.instruction_table() do."""
    pytest.importorskip("dask.distributed") if os.environ.get("CI") != "true" else None
    import collections

    import llvm_bitstream_reader as lbr

    root, n, expected = damaged
    single = tmp_path / "instructions.parquet"
    local = job(root, "--engine", "local", "--instructions", single)
    check_damaged(local, root, n, expected)
    parts = tmp_path / "instruction-parts"
    summary = job(root, "--workers", "2", "--memory-limit", "1GB", "--task-bytes", "1", "--instructions", f"{parts}/")
    assert summary == local
    names = sorted(p.name for p in parts.iterdir())
    assert names == [f"part-{i:06d}.parquet" for i in range(6)]
    table = pq.read_table([parts / name for name in names])
    assert table.equals(pq.read_table(single))
    assert table.num_rows == local["instructions"]
    assert dict(collections.Counter(table.column("opcode").to_pylist())) == expected
    rows = table.column("row").to_pylist()
    assert rows == sorted(rows) and not set(rows) & {3, 4, 5, 12}
    # Row 0 is module 0 of the first file's first blob, as the API gives it.
    blob = pq.ParquetFile(root / "a.parquet").read_row_group(0).column("content")[0].as_py()
    own = lbr.Module.parse(blob).instruction_table()
    first = table.filter(pa.compute.equal(table.column("row"), 0)).drop_columns(["row", "module"])
    assert first.equals(own.cast(first.schema))
