"""The Python API against llvm-dis-22, llvm-nm-22 and the crate's CLI, on real modules."""

import os
import re
import subprocess

import pytest

import llvm_bitstream_reader as lbr
from conftest import TESTDATA, dump, libclc, run, tool
from llvm_bitstream_reader.llvm_dis_text import definitions as llvm_dis_definitions
from llvm_bitstream_reader.llvm_dis_text import opcode_counts as llvm_dis_opcodes
from llvm_bitstream_reader.llvm_dis_text import opcode_of

# rustc 1.95 (LLVM 22) modules, with and without debug info, and a C module of clang-14.
LLVM22_FILES = ["rustc_llvm22_o3.bc", "rustc_llvm22_o0_debuginfo.bc"]


@pytest.mark.parametrize("name", LLVM22_FILES)
def test_module_text_is_llvm_dis(name):
    path = str(TESTDATA / name)
    expected = run(tool("llvm-dis-22"), path, "-o", "-")
    m = lbr.Module.open(path)
    assert m.dis() == expected
    assert m.dis(threads=3) == expected
    # The header fields say what the text says.
    assert f'target triple = "{m.triple}"' in expected
    assert f'target datalayout = "{m.datalayout}"' in expected
    assert f'source_filename = "{m.source_filename}"' in expected


@pytest.mark.parametrize("name", LLVM22_FILES)
def test_functions_and_globals_are_llvm_dis(name):
    path = str(TESTDATA / name)
    text = run(tool("llvm-dis-22"), path, "-o", "-")
    m = lbr.Module.open(path)
    defined = [f for f in m.functions if not f.is_declaration]
    declared = [f for f in m.functions if f.is_declaration]
    assert len(defined) == len(re.findall(r"^define ", text, re.M))
    assert len(declared) == len(re.findall(r"^declare ", text, re.M))
    assert len(m.globals) == len(re.findall(r"^@\S+ = .*\b(global|constant)\b", text, re.M))
    for f in defined:
        alone = f.dis()
        assert alone.startswith("define ")
        assert alone in text, f.name


@pytest.mark.parametrize("name", LLVM22_FILES)
def test_opcode_counts_are_llvm_dis(name):
    path = str(TESTDATA / name)
    expected = llvm_dis_opcodes(run(tool("llvm-dis-22"), path, "-o", "-"))
    counts = {}
    for f in lbr.Module.open(path).functions:
        for inst in f.instructions:
            counts[inst.opcode] = counts.get(inst.opcode, 0) + 1
    assert counts == expected
    assert sum(counts.values()) > 100


def test_locations_and_subprograms_are_llvm_dis():
    path = str(TESTDATA / "rustc_llvm22_o0_debuginfo.bc")
    text = run(tool("llvm-dis-22"), path, "-o", "-")
    nodes = dict(re.findall(r"^!(\d+) = (.*)$", text, re.M))
    m = lbr.Module.open(path)
    checked = 0
    for f in m.functions:
        if f.is_declaration:
            continue
        header = next(l for l in text.splitlines() if l.startswith("define ") and f"@{f.name}(" in l.replace('"', ""))
        node = nodes[re.search(r"!dbg !(\d+)", header).group(1)]
        sp = f.subprogram
        assert sp is not None
        assert f"line: {sp.line}," in node
        assert f'name: "{sp.name}"' in node
        located = [i for i in f.instructions if i.line is not None]
        assert located, f.name
        # Each instruction's text is its line in llvm-dis's, its !dbg location's line
        # that of the text's !dbg node.
        for inst in f.instructions:
            assert opcode_of(inst.text) == inst.opcode, inst.text
            assert "\n  " + inst.text + "\n" in text
            dbg = re.search(r"!dbg !(\d+)", inst.text)
            if dbg:
                assert f"line: {inst.line}," in nodes[dbg.group(1)]
        checked += 1
    assert checked > 10


def test_several_modules_per_file(tmp_path):
    joined = tmp_path / "two.bc"
    subprocess.run(
        [tool("llvm-cat"), "-b", "-o", str(joined), str(TESTDATA / LLVM22_FILES[0]), str(TESTDATA / LLVM22_FILES[1])],
        check=True,
    )
    modules = lbr.Module.open_all(joined)
    assert len(modules) == 2
    assert [m.source_filename for m in modules] == [
        lbr.Module.open(TESTDATA / n).source_filename for n in LLVM22_FILES
    ]
    assert len(lbr.Module.parse_all(joined.read_bytes())) == 2
    assert modules[1].functions[0].name == lbr.Module.open(TESTDATA / LLVM22_FILES[1]).functions[0].name


def test_parse_takes_bytes_and_buffers():
    data = (TESTDATA / LLVM22_FILES[0]).read_bytes()
    for source in (data, bytearray(data), memoryview(data)):
        m = lbr.Module.parse(source)
        assert m.triple == lbr.Module.open(TESTDATA / LLVM22_FILES[0]).triple
    # Without a path there is no ModuleID line, as llvm-dis prints none for a module it names.
    assert not lbr.Module.parse(data).dis().startswith("; ModuleID")
    assert lbr.Module.parse(data).dis(module_id="x.bc").startswith("; ModuleID = 'x.bc'\n")


def test_damaged_input_raises_bitcode_error_with_offset():
    data = (TESTDATA / LLVM22_FILES[0]).read_bytes()
    with pytest.raises(lbr.BitcodeError) as caught:
        lbr.Module.parse(data[:40])
    assert isinstance(caught.value, ValueError)
    assert isinstance(caught.value.offset, int) and 0 < caught.value.offset <= 40
    with pytest.raises(ValueError):
        lbr.Module.parse(b"not bitcode at all")


def test_symbols_are_llvm_nm():
    path = str(TESTDATA / LLVM22_FILES[0])
    expected = []
    for line in run(tool("llvm-nm-22"), path).splitlines():
        letter, name = line.split()[-2:]
        expected.append((name, letter))
    ours = sorted((s["name"], s["type"]) for s in lbr.symbols(path))
    assert ours == sorted(expected)
    with_debug = run(tool("llvm-nm-22"), "--debug-syms", path).splitlines()
    assert len(lbr.symbols(path, debug_syms=True)) == len(with_debug) > len(expected)
    from_bytes = lbr.symbols(open(path, "rb").read(), llvm_nm_version=19)
    assert [(s["name"], s["type"]) for s in from_bytes] == [(s["name"], s["type"]) for s in lbr.symbols(path, 19)]
    with pytest.raises(ValueError):
        lbr.symbols(path, llvm_nm_version=7)


def test_cli_agrees():
    """The CLI's --dis and the package print the same module (one decoder, two doors)."""
    path = str(TESTDATA / LLVM22_FILES[1])
    assert run(dump(), "--dis", path) == lbr.Module.open(path).dis()


def test_libclc_opcode_counts_are_llvm_dis():
    """Debian's libclc-22 (13,103 functions nobody here wrote): every instruction's opcode."""
    path = libclc(22, "amdgcn-amd-amdhsa.bc")
    expected = llvm_dis_opcodes(run(tool("llvm-dis-22"), str(path), "-o", "-"))
    counts = {}
    m = lbr.Module.open(path)
    for f in m.functions:
        for inst in f.instructions:
            counts[inst.opcode] = counts.get(inst.opcode, 0) + 1
            assert opcode_of(inst.text) == inst.opcode, inst.text
    assert counts == expected
    assert sum(counts.values()) > 300_000


@pytest.mark.parametrize("clang", [13, 14, 15, 16, 19])
def test_counts_of_older_producers_are_llvm_dis_22(clang, tmp_path):
    """Modules of clang 13-19 read as LLVM 22 reads them: debug intrinsic calls are records
    (no instructions), sized lifetime markers go, constant expressions LLVM 22 no longer has
    are instructions. The counts are llvm-dis-22's, instruction for instruction."""
    bc = tmp_path / f"dis_cases.clang{clang}.bc"
    source = TESTDATA / "src" / "dis_cases.c"
    run(tool(f"clang-{clang}"), "-O1", "-g", "-c", "-emit-llvm", "-o", str(bc), str(source))
    text = run(tool("llvm-dis-22"), str(bc), "-o", "-")
    expected = llvm_dis_opcodes(text)
    # The datalayout is LLVM 22's too (x86's i128:128 since LLVM 18).
    assert f'target datalayout = "{lbr.Module.open(str(bc)).datalayout}"' in text
    counts = {}
    for f in lbr.Module.open(str(bc)).functions:
        for inst in f.instructions:
            counts[inst.opcode] = counts.get(inst.opcode, 0) + 1
            assert opcode_of(inst.text) == inst.opcode, inst.text
    assert counts == expected
    assert sum(counts.values()) > 50
    if clang < 19:
        # The file has debug intrinsic calls, which LLVM 22 reads as records.
        assert "call void @llvm.dbg." in run(tool(f"llvm-dis-{clang}"), str(bc), "-o", "-")


@pytest.mark.parametrize("version", [13, 14, 16])
def test_libclc_counts_of_older_llvms_are_llvm_dis_22(version):
    """Debian's libclc-13, -14 and -16 (typed pointers for 13 and 14) read by LLVM 22."""
    path = libclc(version, "nvptx64--nvidiacl.bc")
    expected = llvm_dis_opcodes(run(tool("llvm-dis-22"), str(path), "-o", "-"))
    counts = {}
    for f in lbr.Module.open(str(path)).functions:
        for inst in f.instructions:
            counts[inst.opcode] = counts.get(inst.opcode, 0) + 1
    assert counts == expected
    assert sum(counts.values()) > 10_000


@pytest.mark.parametrize("name", ["clang14_diag_cxx.dia", "clang14_diag_macros.dia", "clang14_diagnostics.dia"])
def test_diagnostics_are_the_analyzers(name):
    path = TESTDATA / name
    lines = run(dump(), "--diagnostics", str(path)).splitlines()
    diags = list(lbr.diagnostics(path))
    assert [d.formatted for d in diags] == lines
    assert all(d.formatted.startswith(f"{d.file}:{d.line}:{d.column}: ") for d in diags if d.file)
    assert {d.depth for d in diags} >= {0}
    cut = path.read_bytes()[: path.stat().st_size // 2]
    with pytest.raises(lbr.BitcodeError):
        list(lbr.diagnostics(cut))
    assert len(list(lbr.diagnostics(cut, partial=True))) < len(diags)


@pytest.mark.parametrize("name", ["llvm19_remarks_hotness.opt.bitstream", "llvm19_remarks_standalone.opt.bitstream"])
def test_remarks_are_the_analyzers(name):
    path = TESTDATA / name
    yaml = run(dump(), "--remarks", str(path))
    docs = yaml.split("--- !")[1:]
    ours = list(lbr.remarks(path))
    assert len(ours) == len(docs) > 0
    for r, doc in zip(ours, docs):
        fields = dict(
            line.split(":", 1) for line in doc.splitlines()[1:] if line and not line.startswith(" ") and ":" in line
        )
        assert doc.split("\n", 1)[0] == r.kind
        assert fields["Pass"].strip() == r.pass_name
        assert fields["Function"].strip().strip("'") == r.function


def test_partial_modules_of_a_cut_file():
    data = (TESTDATA / LLVM22_FILES[1]).read_bytes()
    whole = lbr.Module.parse(data)
    modules, err = lbr.Module.parse_partial(data[: len(data) * 3 // 4])
    assert isinstance(err, lbr.BitcodeError) and err.offset is not None
    assert len(modules) == 1
    cut = modules[0]
    assert cut.triple == whole.triple
    # Complete bodies before the break are there, instruction for instruction.
    bodies = [f for f in cut.functions if f.instruction_count]
    assert bodies
    assert [f.instruction_count for f in bodies[:5]] == [
        g.instruction_count for g in whole.functions if g.instruction_count
    ][:5]
    assert cut.dis()
    modules, err = lbr.Module.parse_partial(data)
    assert err is None and len(modules) == 1
    assert modules[0].dis(module_id="m") == whole.dis(module_id="m")


def test_remarks_whose_strings_are_elsewhere_say_so():
    with pytest.raises(lbr.BitcodeError, match="string table"):
        list(lbr.remarks(TESTDATA / "clang14_remarks_darwin.opt.bitstream"))


@pytest.mark.parametrize("version", [14, 19])
def test_older_llvm_dis_versions(version):
    """Debian's libclc-14 and -19 as llvm-dis-14 and -19 print them (typed pointers in 14)."""
    path = libclc(version, "amdgcn--amdhsa.bc")
    expected = run(tool(f"llvm-dis-{version}"), str(path), "-o", "-")
    assert lbr.Module.open(str(path)).dis(llvm_version=version, threads=2) == expected


@pytest.mark.parametrize("version", [12, 23, 99])
def test_llvm_dis_versions_not_matched_are_refused(version):
    """A version whose llvm-dis the printer does not match raises, not prints another's text."""
    m = lbr.Module.open(str(TESTDATA / LLVM22_FILES[0]))
    with pytest.raises(ValueError, match=f"no llvm-dis {version}"):
        m.dis(llvm_version=version)
    with pytest.raises(ValueError, match=f"no llvm-dis {version}"):
        next(f for f in m.functions if not f.is_declaration).dis(llvm_version=version)


def _text_preds(text):
    """Each definition's blocks in llvm-dis text order: (label or None, [pred labels])."""
    out = []
    label = re.compile(r'^("(?:[^"\\]|\\.)*"|[-\w.$]+):(?:\s+; (?:preds = (.*)|No predecessors!))?$')
    for body in llvm_dis_definitions(text):
        blocks = []
        for line in filter(None, body):
            m = label.match(line)
            if m:
                preds = [p.strip()[1:] for p in m.group(2).split(", ")] if m.group(2) else []
                blocks.append((m.group(1), preds))
            elif not blocks:
                blocks.append((None, []))  # an unnamed entry block prints no label
        out.append(blocks)
    return out


@pytest.mark.parametrize("name", LLVM22_FILES)
def test_cfg_is_llvm_dis_preds(name):
    """Function.cfg() and .predecessors against llvm-dis-22's `; preds =` lines."""
    path = str(TESTDATA / name)
    text = run(tool("llvm-dis-22"), path, "-o", "-")
    m = lbr.Module.open(path)
    texts = iter(_text_preds(text))
    edges = 0
    for f in m.functions:
        if f.is_declaration:
            continue
        blocks = next(texts)
        assert len(blocks) == len(f.predecessors), f.name
        index = {label: i for i, (label, _) in enumerate(blocks) if label is not None}
        for b, (_, preds) in enumerate(blocks):
            assert f.predecessors[b] == [index.get(p, 0) for p in preds], (f.name, b)
        assert sorted(f.cfg()) == sorted((p, b) for b, ps in enumerate(f.predecessors) for p in ps)
        assert [list(s) for s in f.successors] == [[t for (s, t) in f.cfg() if s == b] for b in range(len(blocks))]
        edges += len(f.cfg())
    assert edges > 100


def test_modules_pickle_by_their_bytes():
    """A module travels as its bytes (pickle, multiprocessing, Dask) and reads the same."""
    import pickle

    path = TESTDATA / LLVM22_FILES[1]
    m = lbr.Module.open(path)
    again = pickle.loads(pickle.dumps(m))
    assert again.dis() == m.dis()  # the path it was opened from, the ModuleID, too
    assert [f.name for f in again.functions] == [f.name for f in m.functions]
    assert [f.opcode_counts for f in again.functions] == [f.opcode_counts for f in m.functions]
    # A module of a multi-module input, and one read as parse_partial reads it.
    data = path.read_bytes()
    modules, _ = lbr.Module.parse_partial(data[: len(data) * 3 // 4])
    cut = pickle.loads(pickle.dumps(modules[0]))
    assert [f.instruction_count for f in cut.functions] == [f.instruction_count for f in modules[0].functions]


@pytest.mark.parametrize("name", LLVM22_FILES)
def test_function_dis_is_cut_from_the_module_text(name):
    """Every function's dis() is its text in llvm-dis-22's module, declarations too."""
    path = str(TESTDATA / name)
    text = run(tool("llvm-dis-22"), path, "-o", "-")
    lines = set(text.splitlines())
    for f in lbr.Module.open(path).functions:
        alone = f.dis()
        if f.is_declaration:
            assert alone.startswith("declare ") and alone in lines, f.name
        else:
            assert alone.startswith("define ") and alone.endswith("\n}") and alone in text, f.name


def test_lazy_errors_carry_their_offset():
    """A body broken inside is found when it is decoded, with the byte offset of the break."""
    data = bytearray((TESTDATA / LLVM22_FILES[0]).read_bytes())
    found = 0
    for at in range(len(data) // 4, len(data) * 3 // 4, 61):
        broken = bytearray(data)
        broken[at] ^= 0xFF
        try:
            m = lbr.Module.parse(bytes(broken))
        except lbr.BitcodeError:
            continue
        try:
            for f in m.functions:
                f.instruction_count
        except lbr.BitcodeError as e:
            assert isinstance(e.offset, int) and 0 <= e.offset <= len(data), e
            found += 1
    assert found >= 3, found


def _printed_names(text):
    """How often each @name is printed outside its definition and outside metadata."""
    counts = {}
    for line in text.splitlines():
        s = line.lstrip()
        if line.startswith((";", "!", "attributes #", "source_filename")) or s.startswith("#dbg_") or line.startswith("^"):
            continue
        defined = None
        if line.startswith(("define ", "declare ")):
            defined = line.find(" @") + 1
        elif line.startswith("@"):
            defined = 0
        for m in re.finditer(r'@(?:"([^"]*)"|([-a-zA-Z$._0-9]+))', line):
            if m.start() == defined or (m.start() > 0 and re.match(r"[-a-zA-Z$._0-9]", line[m.start() - 1])):
                continue
            name = m.group(1) if m.group(1) is not None else m.group(2)
            counts[name] = counts.get(name, 0) + 1
    return counts


@pytest.mark.parametrize("name", LLVM22_FILES)
def test_uses_of_globals_are_llvm_dis(name):
    """Module.uses(name): every printed use of every global, through constants, as llvm-dis-22 prints them."""
    path = str(TESTDATA / name)
    printed = _printed_names(run(tool("llvm-dis-22"), path, "-o", "-"))
    m = lbr.Module.open(path)
    names = [g.name for g in m.globals] + [f.name for f in m.functions]
    checked = 0
    for n in names:
        if not n or '"' in n or "\\" in n:
            continue
        uses = [u for u in m.uses(n) if u["user"] in ("instruction", "bundle", "global")]
        assert len(uses) == printed.get(n, 0), n
        for u in uses:
            assert (u["function"] is None) == (u["user"] == "global"), u
        checked += len(uses)
    assert checked > 100
    with pytest.raises(KeyError):
        m.uses("no such global")


# The reference to a local or global value in llvm-dis text: `%x`, `%3`, `@g`, `@"a b"`.
_REFERENCE = re.compile(r'[%@](?:"(?:[^"\\]|\\.)*"|[-a-zA-Z$._0-9]+)')


def _instruction_lines(text):
    """Each definition's instructions in llvm-dis text: the line at two spaces that starts
    one, with the lines of a `switch`'s cases and `]` joined to it; debug records are
    not instructions."""
    out = []
    for body in llvm_dis_definitions(text):
        lines = []
        for line in body:
            if not line.startswith("  ") or line.lstrip().startswith("#dbg_"):
                continue
            if line[2] in " ]":
                lines[-1] += "\n" + line
            else:
                lines.append(line[2:])
        out.append(lines)
    return out


def _references(text, types):
    """The value references in `text` (not the struct type names `types`), counted."""
    counts = {}
    for m in _REFERENCE.finditer(text):
        if m.group(0) not in types and (m.start() == 0 or not re.match(r"[-a-zA-Z$._0-9]", text[m.start() - 1])):
            counts[m.group(0)] = counts.get(m.group(0), 0) + 1
    return counts


def _operand_modules():
    """rustc 1.95's modules and every libclc-22 target nobody here wrote (amdgcn, nvptx)."""
    return [TESTDATA / n for n in LLVM22_FILES] + [libclc(22, n) for n in ("amdgcn-amd-amdhsa.bc", "nvptx64--nvidiacl.bc")]


# Opcodes whose text prints some operands without their type: a binary operator's and a
# compare's second operand, a call's arguments (attributes between), a phi's incoming
# values; an `alloca` of one element does not print its count (`i32 1`).
_UNTYPED = {
    "alloca",
    "add", "sub", "mul", "udiv", "sdiv", "urem", "srem", "shl", "lshr", "ashr", "and", "or", "xor",
    "fadd", "fsub", "fmul", "fdiv", "frem", "icmp", "fcmp", "call", "invoke", "callbr", "phi",
}


@pytest.mark.parametrize("path", _operand_modules(), ids=lambda p: p.name)
def test_operands_are_llvm_dis(path):
    """Instruction.operands against llvm-dis-22's text of every instruction: the values
    each line references (`%x`, `%3`, `@g`, also inside constant expressions) are the
    operands' texts, each typed operand prints as `type value`, and an unnamed local's
    text is its slot."""
    text = run(tool("llvm-dis-22"), str(path), "-o", "-")
    types = set(re.findall(r'^(%(?:"(?:[^"\\]|\\.)*"|[-a-zA-Z$._0-9]+)) = type ', text, re.M))
    lines = iter(_instruction_lines(text))
    m = lbr.Module.open(path)
    checked, typed = 0, 0
    for f in m.functions:
        if f.is_declaration:
            continue
        expected = next(lines)
        instructions = f.instructions
        assert len(instructions) == len(expected), f.name
        for inst, line in zip(instructions, expected):
            operands = inst.operands
            body = line.split(" = ", 1)[1] if re.match(r'[%@]("[^"]*"|\S+) = ', line) else line
            got = _references(" ".join(f"{o.type_text or ''} {o.text}" for o in operands), types)
            assert got == _references(body, types), (f.name, line, [str(o) for o in operands])
            for o in operands:
                # A name prints bare or quoted (with escapes, which these names lack).
                if o.kind in ("argument", "instruction", "block"):
                    if o.name is None:
                        assert o.text == f"%{o.slot}", (line, o)
                    else:
                        assert o.slot is None and o.text in ("%" + o.name, f'%"{o.name}"'), (line, o)
                elif o.kind == "global" and "\\" not in o.text:
                    assert o.text in ("@" + o.name, f'@"{o.name}"'), (line, o)
                if o.type_text is not None and o.kind != "metadata":
                    if f"{o.type_text} {o.text}" in line:
                        typed += 1
                    else:
                        assert inst.opcode in _UNTYPED, (line, o)
            checked += 1
    assert next(lines, None) is None
    assert checked > 1000 and typed > checked // 2, (checked, typed)


def test_operands_cover_every_opcode_of_libclc_22():
    """The modules above hold every opcode libclc-22's amdgcn and nvptx modules have."""
    seen = set()
    for path in _operand_modules():
        m = lbr.Module.open(path)
        seen |= {i.opcode for f in m.functions for i in f.instructions}
    expected = set()
    for name in ("amdgcn-amd-amdhsa.bc", "nvptx64--nvidiacl.bc"):
        expected |= set(llvm_dis_opcodes(run(tool("llvm-dis-22"), str(libclc(22, name)), "-o", "-")))
    assert expected <= seen and len(expected) > 30, sorted(expected - seen)


def _callee_of(line):
    """The function a call line of llvm-dis text calls directly (`@f(`), else None."""
    m = re.search(r'@("(?:[^"\\]|\\.)*"|[-a-zA-Z$._0-9]+)\(', line)
    return None if m is None else m.group(1).strip('"')


@pytest.mark.parametrize("name", LLVM22_FILES)
def test_instruction_table_is_llvm_dis(name):
    """Module.instruction_table() against llvm-dis-22's instruction lines: one row each, the
    opcode, the callee of each call line, void for a line without a result, each
    `!dbg` location's line and column."""
    pa = pytest.importorskip("pyarrow") if os.environ.get("CI") != "true" else __import__("pyarrow")
    path = str(TESTDATA / name)
    text = run(tool("llvm-dis-22"), path, "-o", "-")
    locations = {
        int(i): (int(line), int(col or 0))
        for i, line, col in re.findall(r"^!(\d+) = !DILocation\(line: (\d+)(?:, column: (\d+))?", text, re.M)
    }
    m = lbr.Module.open(path)
    table = m.instruction_table()
    assert isinstance(table, pa.Table)
    assert table.schema.names == [
        "function", "block", "index", "opcode", "type", "operands", "callee", "file", "line", "column",
    ]
    rows = table.to_pylist()
    expected = [(f.name, line) for f, lines in zip([f for f in m.functions if not f.is_declaration], _instruction_lines(text)) for line in lines]
    assert len(rows) == len(expected) > 100
    located = 0
    for row, (function, line) in zip(rows, expected):
        assert row["function"] == function
        assert row["opcode"] == opcode_of(line), line
        if row["opcode"] in ("call", "invoke", "callbr"):
            assert row["callee"] == _callee_of(line), line
        else:
            assert row["callee"] is None
        if not re.match(r'%("[^"]*"|\S+) = ', line):
            assert row["type"] == "void", line
        elif row["opcode"] == "load":
            assert re.match(r"%\S+ = load (atomic )?(volatile )?" + re.escape(row["type"]) + ", ", line), line
        dbg = re.search(r"!dbg !(\d+)", line)
        assert (row["line"], row["column"]) == (locations[int(dbg.group(1))] if dbg else (None, None)), line
        located += dbg is not None
        assert (row["file"] is None) == (row["line"] is None) or row["line"] == 0
    if "debuginfo" in name:
        assert located > 100
    # The same as the objects give.
    objects = [(f.name, i.block, i.index, i.opcode, i.type_text, len(i.operands), i.callee, i.file, i.line, i.column) for f in m.functions for i in f.instructions]
    assert [tuple(r.values()) for r in rows] == objects


@pytest.mark.parametrize("name", LLVM22_FILES)
def test_call_graph_is_llvm_dis(name):
    """Module.call_graph(): the (caller, callee) pairs of llvm-dis-22's call lines, once each,
    in the order of each pair's first call; networkx takes it as it is."""
    path = str(TESTDATA / name)
    text = run(tool("llvm-dis-22"), path, "-o", "-")
    m = lbr.Module.open(path)
    expected = []
    for f, lines in zip([f for f in m.functions if not f.is_declaration], _instruction_lines(text)):
        for line in lines:
            callee = _callee_of(line) if opcode_of(line) in ("call", "invoke", "callbr") else None
            if callee is not None and (f.name, callee) not in expected:
                expected.append((f.name, callee))
    edges = m.call_graph()
    assert edges == expected and len(edges) > 10
    # networkx is in the test extra: under CI=true (.ci/run installs it) it must be there.
    nx = pytest.importorskip("networkx") if os.environ.get("CI") != "true" else __import__("networkx")
    graph = nx.DiGraph(edges)
    assert graph.number_of_edges() == len(edges)


def test_function_table_is_the_functions():
    """Module.function_table(): one row per function, as the Function objects say."""
    pytest.importorskip("pyarrow") if os.environ.get("CI") != "true" else __import__("pyarrow")
    m = lbr.Module.open(TESTDATA / LLVM22_FILES[1])
    rows = m.function_table().to_pylist()
    assert len(rows) == len(m.functions)
    for row, f in zip(rows, m.functions):
        sp = f.subprogram
        calls = sum(1 for i in f.instructions if i.callee is not None)
        assert row == {
            "name": f.name, "linkage": f.linkage, "declaration": f.is_declaration, "type": f.type_text,
            "blocks": len(f.predecessors), "instructions": f.instruction_count, "calls": calls,
            "file": sp.file if sp else None, "line": sp.line if sp else None,
        }
    assert any(r["file"] for r in rows) and any(r["declaration"] for r in rows)
