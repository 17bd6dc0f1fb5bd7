"""Shared helpers: the repository's test files and the LLVM tools the tests compare with."""

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


def llvm_dis_opcodes(text):
    """Instruction counts by opcode in llvm-dis text: what corpus jobs parse today."""
    counts = {}
    in_body = False
    for line in text.splitlines():
        if line.startswith("define "):
            in_body = True
            continue
        if line == "}":
            in_body = False
            continue
        # An instruction starts at two spaces; its continuations (a switch's cases and
        # `]`, a landingpad's clauses, an invoke's labels) are indented further or close.
        if not in_body or not line.startswith("  ") or line[2] in " ]" or line.startswith("  #dbg_"):
            continue
        words = line.split()
        if len(words) > 2 and words[1] == "=":
            words = words[2:]
        if words[0] in ("tail", "musttail", "notail"):
            words = words[1:]
        opcode = words[0].rstrip(",")  # `unreachable, !dbg !12`
        counts[opcode] = counts.get(opcode, 0) + 1
    return counts
