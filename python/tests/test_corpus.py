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
