"""Shared helpers: the repository's test files and the LLVM tools the tests compare with
(the text of llvm-dis is parsed by llvm_bitstream_reader.llvm_dis_text)."""

import os
import pathlib
import shutil
import subprocess

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
TESTDATA = REPO / "testdata"


def missing(message):
    """Skips the test for a tool or input that is not here; under CI=true, where .ci/run
    provides it, fails it."""
    if os.environ.get("CI") == "true":
        pytest.fail(message + " (CI=true: .ci/run provides it)")
    pytest.skip(message)


def tool(name):
    """The path of an LLVM tool (see `missing`)."""
    path = shutil.which(name)
    if path is None:
        missing(f"{name} is not installed")
    return path


def libclc(version, name):
    """Debian's libclc-VERSION file NAME, as .ci/run unpacks it (see `missing`)."""
    path = REPO / "target" / "libclc" / str(version) / "usr" / "lib" / "clc" / name
    if not path.exists():
        missing(f"{path} is missing (.ci/run unpacks libclc-{version} there)")
    return path


def dump():
    """The crate's analyzer, as `cargo test` or `cargo build` built it (skips without)."""
    for build in ("release", "debug"):
        path = REPO / "target" / build / "bitstream-dump"
        if path.exists():
            return str(path)
    pytest.skip("bitstream-dump is not built (cargo build -p bitstream-dump)")


def run(*args):
    """A command's standard output, as text; fails the test if it fails."""
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout
