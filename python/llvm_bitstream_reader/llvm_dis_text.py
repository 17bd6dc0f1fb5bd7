"""Instruction counts by opcode from ``llvm-dis`` text: how corpora of bitcode are counted
without this package (an ``llvm-dis`` per module, then its text parsed). The tests check
the package's counts against it, and ``benches/corpus.py`` times it."""


def definitions(text):
    """Each function definition of ``llvm-dis`` text, in order: the lines between its
    ``define`` line and the ``}`` that closes it."""
    lines = None
    for line in text.splitlines():
        if line.startswith("define "):
            lines = []
        elif lines is not None and line == "}":
            yield lines
            lines = None
        elif lines is not None:
            lines.append(line)


def opcode_counts(text):
    """Instruction counts by opcode in the text of ``llvm-dis`` (any version)."""
    counts = {}
    for body in definitions(text):
        for line in body:
            # An instruction starts at two spaces; its continuations (a switch's cases and
            # `]`, a landingpad's clauses, an invoke's labels) are indented further or close.
            if not line.startswith("  ") or line[2] in " ]" or line.startswith("  #dbg_"):
                continue
            opcode = opcode_of(line)
            counts[opcode] = counts.get(opcode, 0) + 1
    return counts


def opcode_of(instruction):
    """The opcode of an instruction's line of ``llvm-dis`` text (``%3 = tail call …``:
    ``call``)."""
    words = instruction.split()
    if len(words) > 2 and words[1] == "=":
        words = words[2:]
    if words[0] in ("tail", "musttail", "notail"):
        words = words[1:]
    return words[0].rstrip(",")  # `unreachable, !dbg !12`
