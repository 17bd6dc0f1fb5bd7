"""Shared helpers: the repository's test files and the LLVM tools the tests compare with
(the text of llvm-dis is parsed by llvm_bitstream_reader.llvm_dis_text)."""

import os
import pathlib
import shutil
import subprocess

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
TESTDATA = REPO / "testdata"


def tool(name):
    """The path of an LLVM tool; skips the test without it (fails under CI=true)."""
    path = shutil.which(name)
    if path is None:
        message = f"{name} is not installed"
        if os.environ.get("CI") == "true":
            pytest.fail(message + " (CI=true: .ci/run installs it)")
        pytest.skip(message)
    return path


def run(*args):
    """A command's standard output, as text; fails the test if it fails."""
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout
