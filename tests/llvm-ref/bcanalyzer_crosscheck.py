#!/usr/bin/env python3
"""Cross-check llvm-events output against LLVM 14's llvm-bcanalyzer.

usage: bcanalyzer_crosscheck.py LLVM_EVENTS FILE...

For each FILE, converts `llvm-bcanalyzer -dump -dump-blockinfo -non-symbolic
--show-binary-blobs FILE` into the events format (enter/record/exit lines
only) and compares it line by line with `LLVM_EVENTS FILE`. Blob bytes are
compared too, except for METADATA_STRINGS, whose blob llvm-bcanalyzer decodes
into a string list (there only the presence of a blob is compared).
Exit status 0 if every file matches.
"""
import os
import re
import shutil
import subprocess
import sys

BLOCK_RE = re.compile(r"^<(.+?) (?:BlockID=(\d+) )?NumWords=(\d+) BlockCodeSize=(\d+)>$")
RECORD_RE = re.compile(r"^<(.+?)(?: codeid=(\d+))?(?: abbrevid=(\d+))?((?: op\d+=-?\d+)*)/>(.*)$")


def bcanalyzer() -> str:
    for name in ("llvm-bcanalyzer-14", "llvm-bcanalyzer"):
        if shutil.which(name):
            return name
    bindir = subprocess.run(["llvm-config-14", "--bindir"], capture_output=True, text=True).stdout.strip()
    return os.path.join(bindir, "llvm-bcanalyzer")


def unescape(t: str) -> bytes:
    """Inverse of raw_ostream::write_escaped(..., UseHexEscapes=true)."""
    out = bytearray()
    i = 0
    while i < len(t):
        c = t[i]
        if c == "\\":
            n = t[i + 1]
            if n == "x":
                out.append(int(t[i + 2:i + 4], 16))
                i += 4
                continue
            out.append({"\\": 92, "t": 9, "n": 10, '"': 34}[n])
            i += 2
            continue
        out += c.encode("utf-8", "surrogateescape")
        i += 1
    return bytes(out)


def bca_events(path: str) -> list:
    dump = subprocess.run(
        [bcanalyzer(), "-dump", "-dump-blockinfo", "-non-symbolic", "--show-binary-blobs", path],
        capture_output=True, text=True, errors="surrogateescape",
    )
    events = []
    for line in dump.stdout.split("\n"):
        s = line.strip()
        if s.startswith("Summary of"):
            break
        if s.startswith("<BITCODE_WRAPPER_HEADER"):
            continue
        s = re.sub(r" \((offset|mismatch)[^)]*\)/>", "/>", s)  # INDEX_OFFSET annotations
        m = BLOCK_RE.match(s)
        if m:
            bid = m.group(2) or re.match(r"UnknownBlock(\d+)$", m.group(1)).group(1)
            events.append(f"enter {bid} width={m.group(4)} words={m.group(3)}")
            continue
        if re.match(r"^</.+>$", s):
            events.append("exit")
            continue
        m = RECORD_RE.match(s)
        if m:
            code = m.group(2) or re.match(r"UnknownCode(\d+)$", m.group(1)).group(1)
            ops = [str(int(o.split("=")[1]) % 2**64) for o in m.group(4).split()]
            rest = m.group(5)
            if "num-strings" in rest:
                blob = "?"
            elif "blob data = '" in rest:
                t = rest[rest.index("blob data = '") + 13:]
                blob = unescape(t[:-1]).hex()
            else:
                blob = "-"
            events.append(f"record {code} abbrev={m.group(3) or 3} ops=[{','.join(ops)}] blob={blob}")
    return events


def main() -> int:
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    tool, files = sys.argv[1], sys.argv[2:]
    failed = 0
    for path in files:
        ours = subprocess.run([tool, path], capture_output=True, text=True).stdout.split("\n")
        ours = [l for l in ours if l.split(" ", 1)[0] in ("enter", "record", "exit")]
        ref = bca_events(path)
        bad = []
        if len(ours) != len(ref):
            bad.append(f"{len(ours)} events vs {len(ref)} from llvm-bcanalyzer")
        for i, (a, b) in enumerate(zip(ours, ref)):
            if b.endswith("blob=?"):
                a = a[:a.rindex("blob=")] + "blob=?"
            if a != b:
                bad.append(f"event {i + 1}:\n    llvm-events:     {a[:200]}\n    llvm-bcanalyzer: {b[:200]}")
                if len(bad) > 3:
                    break
        name = os.path.basename(path)
        if bad:
            failed += 1
            print(f"MISMATCH {name}")
            for b in bad:
                print("  " + b)
        else:
            print(f"ok {name} ({len(ref)} events)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
