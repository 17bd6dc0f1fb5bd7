#!/usr/bin/env python3
"""Makes a large clang serialized-diagnostics file from a small one that clang wrote:
the magic, BLOCKINFO and META blocks once, then the file's top-level DIAG blocks (each a
diagnostic with its notes, ranges and fix-its) repeated until the output reaches the size
asked for. The result is one well-formed stream, as clang writes it: the FILENAME,
CATEGORY and DIAG_FLAG records inside the first copy define the ids every later copy uses
(later copies define them again, which clang's reader and ours both accept).

usage: make_input.py SMALL.dia OUT.dia MEGABYTES
"""
import struct
import sys

BLOCK_META, BLOCK_DIAG = 8, 9


def top_level_blocks(data):
    """(block id, bytes) of each top-level block; each starts 32-bit aligned."""
    assert data[:4] == b"DIAG", "not a .dia file"
    off = 4
    while off + 8 <= len(data):
        (word,) = struct.unpack_from("<I", data, off)
        assert word & 3 == 1, "expected ENTER_SUBBLOCK at top level"
        block_id = (word >> 2) & 0xFF
        assert block_id < 128, "block id needs more than one VBR-8 chunk"
        (words,) = struct.unpack_from("<I", data, off + 4)
        end = off + 8 + 4 * words
        yield block_id, data[off:end]
        off = end


def main():
    small, out, megabytes = sys.argv[1], sys.argv[2], float(sys.argv[3])
    data = open(small, "rb").read()
    head, diags = [b"DIAG"], []
    for block_id, block in top_level_blocks(data):
        (diags if block_id == BLOCK_DIAG else head).append(block)
    assert diags, "no DIAG blocks"
    one_copy = b"".join(diags)
    target = int(megabytes * 1024 * 1024)
    copies = max(1, (target - sum(map(len, head))) // len(one_copy))
    with open(out, "wb") as f:
        f.write(b"".join(head))
        for _ in range(copies):
            f.write(one_copy)
    print(f"{out}: {copies} copies of {len(diags)} diagnostics of {small}")


if __name__ == "__main__":
    main()
