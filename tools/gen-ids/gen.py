#!/usr/bin/env python3
"""Generates src/ids/generated.rs: the block ids, record codes and llvm-bcanalyzer names of
the LLVM bitstream formats, from LLVM's own sources.

Two steps, so that the checked-in files reproduce without LLVM's sources at hand:

  gen.py extract [SRC]  reads the LLVM sources under SRC (default: tools/gen-ids/llvm,
                        laid out as in llvm-project; see README.md for the files and
                        commits) and writes tools/gen-ids/extracted.json: every enum they
                        define and every name llvm-bcanalyzer or a writer's BLOCKINFO gives.
  gen.py render         reads extracted.json and overlay.tsv (the hand-kept facts the
                        sources do not state) and writes src/ids/generated.rs.
  gen.py check          renders into memory and fails unless src/ids/generated.rs is
                        byte for byte the same; if SRC is present, also re-extracts and
                        compares extracted.json.
  gen.py                extract (if the sources are present), then render.

Standard library only; Python 3.8 or newer.
"""

import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
DEFAULT_SRC = os.path.join(HERE, "llvm")
EXTRACTED = os.path.join(HERE, "extracted.json")
OVERLAY = os.path.join(HERE, "overlay.tsv")
OUTPUT = os.path.join(ROOT, "src", "ids", "generated.rs")

# The source files, relative to the llvm-project root, and the stream kind each feeds.
BITCODE_ENUMS = "llvm/include/llvm/Bitstream/BitCodeEnums.h"
LLVM_BITCODES = "llvm/include/llvm/Bitcode/LLVMBitCodes.h"
BITCODE_ANALYZER = "llvm/lib/Bitcode/Reader/BitcodeAnalyzer.cpp"
DIAG_HEADER = "clang/include/clang/Frontend/SerializedDiagnostics.h"
DIAG_PRINTER = "clang/lib/Frontend/SerializedDiagnosticPrinter.cpp"
REMARKS_HEADER = "llvm/include/llvm/Remarks/BitstreamRemarkContainer.h"
REMARKS_SERIALIZER = "llvm/lib/Remarks/BitstreamRemarkSerializer.cpp"
AST_HEADER = "clang/include/clang/Serialization/ASTBitCodes.h"

ENUM_SOURCES = [
    ("bitstream", BITCODE_ENUMS),
    ("ir", LLVM_BITCODES),
    ("diag", DIAG_HEADER),
    ("remarks", REMARKS_HEADER),
    ("ast", AST_HEADER),
]

# Clang's ASTWriter::WriteBlockInfoBlock names blocks with BLOCK(X) for X_ID and records
# with RECORD(X), stringifying the enumerator. These record enums have kept their codes
# across clang releases; the others are left unnamed, as before.
AST_NAMED_RECORDS = [
    ("SourceManagerRecordTypes", "SOURCE_MANAGER_BLOCK_ID"),
    ("PreprocessorDetailRecordTypes", "PREPROCESSOR_DETAIL_BLOCK_ID"),
    ("CommentRecordTypes", "COMMENTS_BLOCK_ID"),
    ("InputFileRecordTypes", "INPUT_FILES_BLOCK_ID"),
    ("ExtensionBlockRecordTypes", "EXTENSION_BLOCK_ID"),
]

# Enumerators that mark a boundary rather than name an id: emitted as constants, never
# used as a name.
MARKERS = {"FIRST_APPLICATION_BLOCKID", "FIRST_APPLICATION_ABBREV", "FIRST_EXTENSION_RECORD_ID"}


class GenError(Exception):
    pass


# --------------------------------------------------------------------------------------
# Extraction
# --------------------------------------------------------------------------------------


def strip_comments(text):
    """C/C++ comments out, line structure kept (strings in enums do not occur)."""
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


TOKEN_RE = re.compile(r"\s*(?:(0[xX][0-9a-fA-F]+|\d+)[uUlL]*|([A-Za-z_]\w*(?:::[A-Za-z_]\w*)*)|(<<|>>|[-+*|&()~]))")


def eval_expr(expr, env):
    """Evaluates an enumerator's initializer: integers, enumerators (namespace-qualified
    or not), + - * << >> | & ~ and parentheses."""
    tokens = []
    pos = 0
    expr = expr.strip()
    while pos < len(expr):
        m = TOKEN_RE.match(expr, pos)
        if not m or m.end() == pos:
            raise GenError("cannot read enum expression %r" % expr)
        pos = m.end()
        if m.group(1):
            tokens.append(("num", int(m.group(1), 0)))
        elif m.group(2):
            name = m.group(2).split("::")[-1]
            if name not in env:
                raise GenError("unknown name %r in %r" % (name, expr))
            tokens.append(("num", env[name]))
        else:
            tokens.append(("op", m.group(3)))
    tokens.append(("end", None))
    binary = {"|": 1, "&": 2, "<<": 3, ">>": 3, "+": 4, "-": 4, "*": 5}

    def primary(i):
        kind, val = tokens[i]
        if kind == "num":
            return val, i + 1
        if (kind, val) == ("op", "("):
            v, i = climb(i + 1, 0)
            if tokens[i] != ("op", ")"):
                raise GenError("unbalanced parentheses in %r" % expr)
            return v, i + 1
        if (kind, val) == ("op", "-"):
            v, i = primary(i + 1)
            return -v, i
        if (kind, val) == ("op", "~"):
            v, i = primary(i + 1)
            return ~v, i
        raise GenError("cannot read enum expression %r" % expr)

    def climb(i, min_prec):
        lhs, i = primary(i)
        while tokens[i][0] == "op" and binary.get(tokens[i][1], -1) >= min_prec and tokens[i][1] in binary:
            op = tokens[i][1]
            rhs, i = climb(i + 1, binary[op] + 1)
            lhs = {
                "|": lambda a, b: a | b,
                "&": lambda a, b: a & b,
                "<<": lambda a, b: a << b,
                ">>": lambda a, b: a >> b,
                "+": lambda a, b: a + b,
                "-": lambda a, b: a - b,
                "*": lambda a, b: a * b,
            }[op](lhs, rhs)
        return lhs, i

    value, i = climb(0, 0)
    if tokens[i][0] != "end":
        raise GenError("trailing tokens in %r" % expr)
    return value


ENUM_RE = re.compile(r"\benum\s+(class\s+|struct\s+)?(\w+)?\s*(?::\s*[\w:]+\s*)?\{(.*?)\}\s*;", re.S)


def parse_enums(text, env):
    """Every named, non-scoped enum of a C++ source whose body has no preprocessor lines:
    [(enum name, [(enumerator, value, alias-of or None)])]. `env` (enumerator -> value)
    resolves names from earlier headers and is extended with these enumerators."""
    enums = []
    for m in ENUM_RE.finditer(strip_comments(text)):
        scoped, name, body = m.group(1), m.group(2), m.group(3)
        if scoped or not name or "#" in body:
            continue
        items = []
        local = set()
        nxt = 0
        for part in body.split(","):
            part = " ".join(part.split())
            if not part:
                continue
            if "=" in part:
                ident, expr = (s.strip() for s in part.split("=", 1))
                value = eval_expr(expr, env)
                alias = expr if expr in local else None
            else:
                ident, value, alias = part, nxt, None
            if not re.fullmatch(r"[A-Za-z_]\w*", ident):
                raise GenError("cannot read enumerator %r in enum %s" % (part, name))
            if value < 0 or value > 0xFFFFFFFF:
                raise GenError("%s = %d does not fit a u32" % (ident, value))
            env[ident] = value
            local.add(ident)
            items.append([ident, value, alias])
            nxt = value + 1
        enums.append([name, items])
    return enums


def read(src, path):
    full = os.path.join(src, path)
    try:
        with open(full, encoding="utf-8") as f:
            return f.read()
    except OSError as e:
        raise GenError("cannot read %s: %s" % (full, e))


def between(text, start, end, what):
    i = text.find(start)
    j = text.find(end, i + 1) if i >= 0 else -1
    if i < 0 or j < 0:
        raise GenError("%s: cannot find %r ... %r" % (what, start, end))
    return text[i:j]


def extract_analyzer(text):
    """llvm-bcanalyzer's names: GetBlockName's and GetCodeName's switches."""
    names = []  # [kind, block enumerator or None, id enumerator, spelling, source]
    blocks = between(text, "GetBlockName(", "GetCodeName(", BITCODE_ANALYZER)
    m = re.search(r'BlockID == bitc::(\w+)\)\s*return "([^"]*)";', blocks)
    if not m:
        raise GenError("%s: GetBlockName has no BLOCKINFO name" % BITCODE_ANALYZER)
    names.append(["bitstream", None, m.group(1), m.group(2), BITCODE_ANALYZER])
    for m in re.finditer(r'case bitc::(\w+):\s*return "([^"]*)";', blocks):
        names.append(["ir", None, m.group(1), m.group(2), BITCODE_ANALYZER])

    codes = between(text, "GetCodeName(", "#undef STRINGIFY_CODE", BITCODE_ANALYZER)
    standard, _, rest = codes.partition("Check to see if we have a blockinfo record")
    if not rest:
        raise GenError("%s: GetCodeName changed shape" % BITCODE_ANALYZER)
    m = re.search(r"BlockID == bitc::(\w+)\)", standard)
    if not m:
        raise GenError("%s: GetCodeName has no BLOCKINFO switch" % BITCODE_ANALYZER)
    for c in re.finditer(r'case bitc::(\w+):\s*return "([^"]*)";', standard):
        names.append(["bitstream", m.group(1), c.group(1), c.group(2), BITCODE_ANALYZER])

    body = rest[rest.find("switch (BlockID)", rest.find("#define STRINGIFY_CODE")) :]
    if not body:
        raise GenError("%s: GetCodeName has no switch over the block id" % BITCODE_ANALYZER)
    group, group_open, pending = [], False, None
    for line in body.splitlines():
        outer = re.match(r"^  case bitc::(\w+):\s*$", line)
        if outer:
            if not group_open:
                group = []
            group.append(outer.group(1))
            group_open = True
            continue
        if line.strip():
            group_open = False
        inner = re.match(r"^\s{4,}case bitc::(\w+):\s*$", line)
        if inner:
            pending = inner.group(1)
            continue
        ret = re.match(r'^\s*return "([^"]*)";', line)
        if ret and pending:
            for b in group:
                names.append(["ir", b, pending, ret.group(1), BITCODE_ANALYZER])
            pending = None
            continue
        for s in re.finditer(r"STRINGIFY_CODE\((\w+),\s*(\w+)\)", line):
            if not group:
                raise GenError("%s: STRINGIFY_CODE outside a block case" % BITCODE_ANALYZER)
            for b in group:
                names.append(["ir", b, s.group(1) + "_" + s.group(2), s.group(2), BITCODE_ANALYZER])
    return names


def extract_diag(text):
    names = []
    block = None
    for m in re.finditer(r'Emit(BlockID|RecordID)\(\s*(\w+),\s*"([^"]*)"', text):
        if m.group(1) == "BlockID":
            block = m.group(2)
            names.append(["diag", None, block, m.group(3), DIAG_PRINTER])
        elif block is None:
            raise GenError("%s: a record name before any block name" % DIAG_PRINTER)
        else:
            names.append(["diag", block, m.group(2), m.group(3), DIAG_PRINTER])
    if not names:
        raise GenError("%s: no EmitBlockID / EmitRecordID calls" % DIAG_PRINTER)
    return names


def extract_remarks(header, serializer):
    strings = {}
    for m in re.finditer(r'constexpr StringRef (\w+)\s*(?:=\s*StringRef)?\(\s*"([^"]*)"', header):
        strings[m.group(1)] = m.group(2)
    names = []
    for fn in re.finditer(r"^(?:static\s+)?void\s+[\w:]+\(.*?^\}", serializer, re.M | re.S):
        text = fn.group(0)
        blocks = set(re.findall(r"initBlock\(\s*(\w+),", text))
        blocks |= set(re.findall(r"EmitBlockInfoAbbrev\(\s*(\w+),", text))
        for m in re.finditer(r"initBlock\(\s*(\w+),\s*\w+,\s*\w+,\s*(\w+)\)", text):
            names.append(["remarks", None, m.group(1), lookup_string(strings, m.group(2)), REMARKS_SERIALIZER])
        records = list(re.finditer(r"setRecordName\(\s*(\w+),\s*\w+,\s*\w+,\s*(\w+)\)", text))
        if records and len(blocks) != 1:
            raise GenError("%s: cannot tell which block %s names records of" % (REMARKS_SERIALIZER, text[:60]))
        for m in records:
            names.append(["remarks", next(iter(blocks)), m.group(1), lookup_string(strings, m.group(2)), REMARKS_SERIALIZER])
    if not names:
        raise GenError("%s: no initBlock / setRecordName calls" % REMARKS_SERIALIZER)
    return names


def lookup_string(strings, name):
    if name not in strings:
        raise GenError("%s: no string constant %s" % (REMARKS_HEADER, name))
    return strings[name]


def extract_ast(enums):
    names = []
    by_name = {e[1]: e for e in enums if e[0] == "ast"}
    if "BlockIDs" not in by_name:
        raise GenError("%s: no BlockIDs" % AST_HEADER)
    for ident, _, _ in by_name["BlockIDs"][3]:
        if not ident.endswith("_ID"):
            raise GenError("%s: block id %s does not end in _ID" % (AST_HEADER, ident))
        names.append(["ast", None, ident, ident[: -len("_ID")], "ASTWriter::WriteBlockInfoBlock: BLOCK()"])
    for enum, block in AST_NAMED_RECORDS:
        if enum not in by_name:
            raise GenError("%s: no enum %s" % (AST_HEADER, enum))
        for ident, _, alias in by_name[enum][3]:
            if ident not in MARKERS and not alias:
                names.append(["ast", block, ident, ident, "ASTWriter::WriteBlockInfoBlock: RECORD()"])
    return names


def extract(src):
    env = {}
    enums = []  # [kind, enum name, source, items]
    for kind, path in ENUM_SOURCES:
        for name, items in parse_enums(read(src, path), env):
            enums.append([kind, name, path, items])
    names = extract_analyzer(read(src, BITCODE_ANALYZER))
    names += extract_diag(read(src, DIAG_PRINTER))
    names += extract_remarks(read(src, REMARKS_HEADER), read(src, REMARKS_SERIALIZER))
    names += extract_ast(enums)
    return {
        "about": "Extracted by tools/gen-ids/gen.py from the LLVM sources listed in tools/gen-ids/README.md. "
        "Do not edit: re-run the extraction, or put hand-kept facts in overlay.tsv.",
        "enums": enums,
        "names": names,
    }


def dump_json(data):
    """One enum or name per line, so that diffs stay readable."""
    out = ["{", '  "about": %s,' % json.dumps(data["about"]), '  "enums": [']
    for i, (kind, name, path, items) in enumerate(data["enums"]):
        out.append("    [%s, %s, %s, [" % (json.dumps(kind), json.dumps(name), json.dumps(path)))
        out.append(",\n".join("      " + json.dumps(it) for it in items))
        out.append("    ]]" + ("," if i + 1 < len(data["enums"]) else ""))
    out.append("  ],")
    out.append('  "names": [')
    out.append(",\n".join("    " + json.dumps(n) for n in data["names"]))
    out.append("  ]")
    out.append("}")
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------------------
# The overlay: hand-kept facts
# --------------------------------------------------------------------------------------


def read_overlay():
    """Lines of tab-separated fields ('#' starts a comment line):
    enum   KIND ENUM RUST-DOC-SOURCE            a hand-kept enum (no LLVM source)
    item   KIND ENUM ENUMERATOR VALUE           one of its enumerators
    block  KIND ENUMERATOR SPELLING WHY         a block name the sources do not give
    record KIND BLOCK ENUMERATOR SPELLING WHY   a record name the sources do not give
    extend KIND ENUM ENUMERATOR VALUE WHY       an enumerator of an extracted enum that its
                                                stored source is too old to have"""
    enums, names, extends = [], [], []
    with open(OVERLAY, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            fields = line.split("\t")
            where = "overlay.tsv:%d" % n
            if fields[0] == "enum" and len(fields) == 4:
                enums.append([fields[1], fields[2], fields[3], []])
            elif fields[0] == "item" and len(fields) == 5:
                match = [e for e in enums if e[0] == fields[1] and e[1] == fields[2]]
                if not match:
                    raise GenError("%s: item of an enum not declared above" % where)
                match[0][3].append([fields[3], int(fields[4], 0), None])
            elif fields[0] == "block" and len(fields) == 5:
                names.append([fields[1], None, fields[2], fields[3], "overlay: " + fields[4]])
            elif fields[0] == "record" and len(fields) == 6:
                names.append([fields[1], fields[2], fields[3], fields[4], "overlay: " + fields[5]])
            elif fields[0] == "extend" and len(fields) == 6:
                extends.append([fields[1], fields[2], fields[3], int(fields[4], 0), where])
            else:
                raise GenError("%s: cannot read %r" % (where, line))
    return enums, names, extends


# --------------------------------------------------------------------------------------
# Rendering
# --------------------------------------------------------------------------------------


class EnumCfg:
    def __init__(self, c_name, rust, doc, blocks=None):
        self.c_name = c_name
        self.rust = rust  # None: raw constants only
        self.doc = doc
        self.blocks = blocks or []


class KindCfg:
    def __init__(self, module, title, doc, example, enums, block_type="BlockId", record_names=True):
        self.module = module
        self.example = example
        self.title = title
        self.doc = doc
        self.enums = enums
        self.block_type = block_type
        self.record_names = record_names


KINDS = [
    KindCfg(
        "bitstream",
        "The container itself: the BLOCKINFO block, the fixed abbreviation ids, the field widths.",
        "From LLVM's `llvm/Bitstream/BitCodeEnums.h`; shared by every stream kind. Names are "
        "those `llvm-bcanalyzer` prints (`GetBlockName` / `GetCodeName`).",
        [
            'assert_eq!(bitstream::BLOCKINFO_CODE_SETRECORDNAME.to_string(), "SETRECORDNAME");',
            "assert!(bitstream::UNABBREV_RECORD == 3u32);",
            "assert_eq!(bitstream::raw::BlockIDWidth, 8);",
        ],
        [
            EnumCfg("StandardBlockIDs", "BlockId", "A standard block id (`bitc::StandardBlockIDs`): ids below 8 are "
                    "reserved for the container, and only 0 (BLOCKINFO) is used."),
            EnumCfg("BlockInfoCodes", "BlockInfoCode", "A record code of the BLOCKINFO block (`bitc::BlockInfoCodes`).",
                    ["BLOCKINFO_BLOCK_ID"]),
            EnumCfg("FixedAbbrevIDs", "AbbrevId", "An abbreviation id every block reserves (`bitc::FixedAbbrevIDs`); "
                    "ids from 4 on are defined by the stream."),
            EnumCfg("StandardWidths", None, "Field widths of ENTER_SUBBLOCK (`bitc::StandardWidths`)."),
            EnumCfg("BitstreamWrapperHeader", None, "Byte offsets of the wrapper header's fields "
                    "(`BitstreamWrapperHeader`)."),
        ],
        block_type=None,
        record_names=False,
    ),
    KindCfg(
        "ir",
        "LLVM IR bitcode (magic `BC C0 DE`).",
        "From LLVM's `llvm/Bitcode/LLVMBitCodes.h`; names from `llvm-bcanalyzer` "
        "(`llvm/lib/Bitcode/Reader/BitcodeAnalyzer.cpp`).",
        [
            "assert!(12u32 == llvm_ir::FUNCTION_BLOCK_ID);",
            'assert_eq!(llvm_ir::FunctionCode(34).to_string(), "INST_CALL");',
            "assert_eq!(llvm_ir::MetadataCode(35), llvm_ir::METADATA_STRINGS);",
            'assert_eq!(llvm_ir::ATTR_KIND_NO_UNWIND.llvm_name(), Some("ATTR_KIND_NO_UNWIND"));',
        ],
        [
            EnumCfg("BlockIDs", "BlockId", "A block id of LLVM IR bitcode (`bitc::BlockIDs`)."),
            EnumCfg("IdentificationCodes", "IdentificationCode", "A record code of the IDENTIFICATION block "
                    "(`bitc::IdentificationCodes`).", ["IDENTIFICATION_BLOCK_ID"]),
            EnumCfg("ModuleCodes", "ModuleCode", "A record code of the MODULE block (`bitc::ModuleCodes`).",
                    ["MODULE_BLOCK_ID"]),
            EnumCfg("AttributeCodes", "AttributeCode", "A record code of the PARAMATTR and PARAMATTR_GROUP blocks "
                    "(`bitc::AttributeCodes`).", ["PARAMATTR_BLOCK_ID", "PARAMATTR_GROUP_BLOCK_ID"]),
            EnumCfg("TypeCodes", "TypeCode", "A record code of the TYPE block (`bitc::TypeCodes`).",
                    ["TYPE_BLOCK_ID_NEW"]),
            EnumCfg("OperandBundleTagCode", "OperandBundleTagCode", "A record code of the OPERAND_BUNDLE_TAGS block "
                    "(`bitc::OperandBundleTagCode`).", ["OPERAND_BUNDLE_TAGS_BLOCK_ID"]),
            EnumCfg("SyncScopeNameCode", "SyncScopeNameCode", "A record code of the SYNC_SCOPE_NAMES block "
                    "(`bitc::SyncScopeNameCode`).", ["SYNC_SCOPE_NAMES_BLOCK_ID"]),
            EnumCfg("ValueSymtabCodes", "ValueSymtabCode", "A record code of the VALUE_SYMTAB block "
                    "(`bitc::ValueSymtabCodes`).", ["VALUE_SYMTAB_BLOCK_ID"]),
            EnumCfg("ModulePathSymtabCodes", "ModulePathSymtabCode", "A record code of the MODULE_STRTAB block "
                    "(`bitc::ModulePathSymtabCodes`).", ["MODULE_STRTAB_BLOCK_ID"]),
            EnumCfg("GlobalValueSummarySymtabCodes", "SummaryCode", "A record code of the per-module and full-LTO "
                    "summary blocks (`bitc::GlobalValueSummarySymtabCodes`).",
                    ["GLOBALVAL_SUMMARY_BLOCK_ID", "FULL_LTO_GLOBALVAL_SUMMARY_BLOCK_ID"]),
            EnumCfg("MetadataCodes", "MetadataCode", "A record code of the METADATA, METADATA_KIND and "
                    "METADATA_ATTACHMENT blocks (`bitc::MetadataCodes`).",
                    ["METADATA_BLOCK_ID", "METADATA_KIND_BLOCK_ID", "METADATA_ATTACHMENT_ID"]),
            EnumCfg("ConstantsCodes", "ConstantsCode", "A record code of the CONSTANTS block "
                    "(`bitc::ConstantsCodes`).", ["CONSTANTS_BLOCK_ID"]),
            EnumCfg("FunctionCodes", "FunctionCode", "A record code of the FUNCTION block (`bitc::FunctionCodes`).",
                    ["FUNCTION_BLOCK_ID"]),
            EnumCfg("UseListCodes", "UseListCode", "A record code of the USELIST block (`bitc::UseListCodes`).",
                    ["USELIST_BLOCK_ID"]),
            EnumCfg("StrtabCodes", "StrtabCode", "A record code of the STRTAB block (`bitc::StrtabCodes`).",
                    ["STRTAB_BLOCK_ID"]),
            EnumCfg("SymtabCodes", "SymtabCode", "A record code of the SYMTAB block (`bitc::SymtabCodes`).",
                    ["SYMTAB_BLOCK_ID"]),
            EnumCfg("AttributeKindCodes", "AttributeKind", "An attribute kind: an operand of PARAMATTR_GROUP "
                    "entries, not a record code (`bitc::AttributeKindCodes`)."),
            EnumCfg("ComdatSelectionKindCodes", "ComdatSelectionKind", "A comdat selection kind: an operand of "
                    "`MODULE_CODE_COMDAT`, not a record code (`bitc::ComdatSelectionKindCodes`)."),
            EnumCfg("CastOpcodes", "CastOpcode", "A cast opcode: an operand of `FUNC_CODE_INST_CAST` and "
                    "`CST_CODE_CE_CAST` (`bitc::CastOpcodes`)."),
            EnumCfg("UnaryOpcodes", "UnaryOpcode", "A unary opcode: an operand of `FUNC_CODE_INST_UNOP` and "
                    "`CST_CODE_CE_UNOP` (`bitc::UnaryOpcodes`)."),
            EnumCfg("BinaryOpcodes", "BinaryOpcode", "A binary opcode: an operand of `FUNC_CODE_INST_BINOP` and "
                    "`CST_CODE_CE_BINOP` (`bitc::BinaryOpcodes`)."),
            EnumCfg("RMWOperations", "RmwOperation", "An atomicrmw operation: an operand of "
                    "`FUNC_CODE_INST_ATOMICRMW` (`bitc::RMWOperations`)."),
            EnumCfg("AtomicOrderingCodes", "AtomicOrdering", "An atomic ordering: an operand of atomic loads, "
                    "stores, fences, cmpxchg and atomicrmw (`bitc::AtomicOrderingCodes`)."),
            EnumCfg("OverflowingBinaryOperatorOptionalFlags", None, "Bit positions of the nuw/nsw flags operand."),
            EnumCfg("TruncInstOptionalFlags", None, "Bit positions of a trunc's nuw/nsw flags operand."),
            EnumCfg("FastMathMap", None, "Masks of the fast-math flags operand."),
            EnumCfg("PossiblyNonNegInstOptionalFlags", None, "Bit position of the nneg flag."),
            EnumCfg("PossiblyExactOperatorOptionalFlags", None, "Bit position of the exact flag."),
            EnumCfg("PossiblyDisjointInstOptionalFlags", None, "Bit position of the disjoint flag."),
            EnumCfg("MetadataOperandBundleValueMarker", None, "Marks metadata among operand bundle values."),
            EnumCfg("GetElementPtrOptionalFlags", None, "Bit positions of a GEP's flags operand."),
            EnumCfg("ICmpOptionalFlags", None, "Bit position of an icmp's samesign flag."),
            EnumCfg("CallMarkersFlags", None, "Bit positions of a call's flags operand."),
        ],
    ),
    KindCfg(
        "diag",
        "Clang serialized diagnostics (`--serialize-diagnostics`, magic `DIAG`).",
        "From clang's `clang/Frontend/SerializedDiagnostics.h`; names are those clang's "
        "`SerializedDiagnosticPrinter.cpp` writes into the stream's BLOCKINFO.",
        [
            'assert_eq!(clang_diag::RecordId(2).to_string(), "DiagInfo");',
            "assert_eq!(clang_diag::BLOCK_DIAG.0, 9);",
        ],
        [
            EnumCfg("BlockIDs", "BlockId", "A block id of serialized diagnostics "
                    "(`clang::serialized_diags::BlockIDs`)."),
            EnumCfg("RecordIDs", "RecordId", "A record code of serialized diagnostics "
                    "(`clang::serialized_diags::RecordIDs`).", ["BLOCK_META", "BLOCK_DIAG"]),
        ],
    ),
    KindCfg(
        "remarks",
        "LLVM optimization remarks in bitstream form (magic `RMRK`).",
        "From LLVM's `llvm/Remarks/BitstreamRemarkContainer.h`; names are those "
        "`BitstreamRemarkSerializer.cpp` writes into the stream's BLOCKINFO.",
        [
            'assert_eq!(llvm_remarks::RECORD_REMARK_HEADER.to_string(), "Remark header");',
            'assert_eq!(llvm_remarks::block_name(llvm_remarks::BlockId(8)), Some("Meta"));',
        ],
        [
            EnumCfg("BlockIDs", "BlockId", "A block id of a remarks container (`llvm::remarks::BlockIDs`)."),
            EnumCfg("RecordIDs", "RecordId", "A record code of a remarks container (`llvm::remarks::RecordIDs`).",
                    ["META_BLOCK_ID", "REMARK_BLOCK_ID"]),
        ],
    ),
    KindCfg(
        "ast",
        "Clang AST files: PCH, PCM (magic `CPCH`).",
        "From clang's `clang/Serialization/ASTBitCodes.h`; names are those `ASTWriter::WriteBlockInfoBlock` "
        "writes into the stream's BLOCKINFO. Only the block ids and the record enums whose codes have "
        "been stable across clang releases are here.",
        [
            'assert_eq!(clang_ast::block_name(clang_ast::BlockId(15)), Some("CONTROL_BLOCK"));',
            "assert_eq!(clang_ast::SM_SLOC_FILE_ENTRY.0, 1);",
        ],
        [
            EnumCfg("BlockIDs", "BlockId", "A block id of a clang AST file (`clang::serialization::BlockIDs`)."),
            EnumCfg("SourceManagerRecordTypes", "SourceManagerRecord", "A record code of the SOURCE_MANAGER block "
                    "(`SourceManagerRecordTypes`).", ["SOURCE_MANAGER_BLOCK_ID"]),
            EnumCfg("PreprocessorDetailRecordTypes", "PreprocessorDetailRecord", "A record code of the "
                    "PREPROCESSOR_DETAIL block (`PreprocessorDetailRecordTypes`).", ["PREPROCESSOR_DETAIL_BLOCK_ID"]),
            EnumCfg("CommentRecordTypes", "CommentRecord", "A record code of the COMMENTS block "
                    "(`CommentRecordTypes`).", ["COMMENTS_BLOCK_ID"]),
            EnumCfg("InputFileRecordTypes", "InputFileRecord", "A record code of the INPUT_FILES block "
                    "(`InputFileRecordTypes`).", ["INPUT_FILES_BLOCK_ID"]),
            EnumCfg("ExtensionBlockRecordTypes", "ExtensionBlockRecord", "A record code of the EXTENSION block "
                    "(`ExtensionBlockRecordTypes`).", ["EXTENSION_BLOCK_ID"]),
        ],
    ),
    KindCfg(
        "swift",
        "Swift modules (`.swiftmodule`, `.swiftdoc`, `.swiftsourceinfo`; magic `E2 9C A8 0E`).",
        "Hand-kept in `tools/gen-ids/overlay.tsv` from Swift's `lib/Serialization/ModuleFormat.h`; names are "
        "those `Serializer::writeBlockInfoBlock` writes into the stream's BLOCKINFO. Block ids only.",
        [
            'assert_eq!(swift::block_name(swift::BlockId(96)), Some("MODULE_DOC_BLOCK"));',
        ],
        [EnumCfg("BlockID", "BlockId", "A block id of a Swift module (`swift::serialization::BlockID`).")],
        record_names=False,
    ),
]


def rust_str(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def wrap_doc(text, indent, width=116):
    """A `///` comment of `text`, wrapped to `width` columns."""
    words = text.split()
    lines, line = [], ""
    prefix = " " * indent + "/// "
    for w in words:
        if line and len(prefix) + len(line) + 1 + len(w) > width:
            lines.append(prefix + line)
            line = w
        else:
            line = w if not line else line + " " + w
    if line:
        lines.append(prefix + line)
    return lines


def render(data, overlay):
    enums = [[k, n, src, list(items)] for k, n, src, items in data["enums"]] + overlay[0]
    names = [n for n in data["names"]] + overlay[1]
    for kind, enum, ident, value, where in overlay[2]:
        match = [e for e in enums if e[0] == kind and e[1] == enum]
        if not match:
            raise GenError("%s: extends %s %s, which nothing extracted defines" % (where, kind, enum))
        if any(it[0] == ident or it[1] == value for it in match[0][3]):
            raise GenError("%s: %s = %d is in the sources already: drop the line" % (where, ident, value))
        match[0][3].append([ident, value, None])
    out = []
    w = out.append
    w("// @generated by tools/gen-ids/gen.py from tools/gen-ids/extracted.json (LLVM's sources, see")
    w("// tools/gen-ids/README.md) and tools/gen-ids/overlay.tsv. Do not edit: change those and run")
    w("// `python3 tools/gen-ids/gen.py render`.")
    for kind in KINDS:
        w("")
        render_kind(kind, enums, names, w)
    return "\n".join(out) + "\n"


# The Rust module of each kind: named for the stream kind, so that none shares its name
# with a decoding layer of the crate (`ir`, `diag`, `remarks`) a user imports beside it.
RUST_MODULES = {"ir": "llvm_ir", "diag": "clang_diag", "remarks": "llvm_remarks", "ast": "clang_ast"}


def rust_module(kind):
    return RUST_MODULES.get(kind.module, kind.module)


def render_kind(kind, enums, names, w):
    mine = {e[1]: e for e in enums if e[0] == kind.module}
    values = {}  # enumerator -> value, this kind
    for e in mine.values():
        for ident, value, _ in e[3]:
            values[ident] = value
    standard = {e[1]: e for e in enums if e[0] == "bitstream"}["StandardBlockIDs"][3]
    std_values = {ident: value for ident, value, _ in standard}
    std_spelled = {n[2]: n[3] for n in names if n[0] == "bitstream" and n[1] is None}

    # Names per enumerator (block-agnostic) and per block.
    spelled = {}  # id enumerator -> spelling
    tables = {}  # block value -> {code value: spelling}
    sources = {}  # id enumerator -> where its name comes from
    for k, block, ident, spelling, source in names:
        if k != kind.module:
            continue
        if ident not in values:
            raise GenError("%s: %s names %s, which no %s enum defines" % (source, kind.module, ident, kind.module))
        if spelled.get(ident, spelling) != spelling:
            raise GenError("%s is spelled both %r and %r" % (ident, spelled[ident], spelling))
        spelled[ident] = spelling
        sources.setdefault(ident, source)
        if block is not None:
            if block in values:
                bv = values[block]
            elif block in std_values and kind.module == "bitstream":
                bv = std_values[block]
            else:
                raise GenError("%s: block %s is not a %s block id" % (source, block, kind.module))
            table = tables.setdefault(bv, {})
            if table.get(values[ident], spelling) != spelling:
                raise GenError("block %s code %d is spelled two ways" % (block, values[ident]))
            table[values[ident]] = spelling

    w("/// " + kind.title)
    w("///")
    w("/// ```")
    w("/// use llvm_bitstream_reader::ids::%s;" % rust_module(kind))
    for line in kind.example:
        w("/// " + line)
    w("/// ```")
    w("///")
    for line in wrap_doc(kind.doc, 0):
        w(line)
    w("pub mod %s {" % rust_module(kind))
    w("    use crate::ids::Enumerator;")
    w("")
    # Raw constants.
    w("    /// Every id of this module as a bare `u32`, for `match` arms over the `u32`s the reader returns.")
    w("    pub mod raw {")
    lower = [i for cfg in kind.enums if cfg.c_name in mine for i, _, _ in mine[cfg.c_name][3] if i != i.upper()]
    if lower:
        w("        #![allow(non_upper_case_globals)] // LLVM's own spelling: %s" % ", ".join(lower[:2]) + (", ..." if len(lower) > 2 else ""))
        w("")
    first = True
    for cfg in kind.enums:
        e = mine.get(cfg.c_name)
        if e is None:
            raise GenError("%s: no enum %s in the sources" % (kind.module, cfg.c_name))
        for ident, value, alias in e[3]:
            if not first:
                w("")
            first = False
            note = " (alias of `%s`)" % alias if alias else ""
            w("        /// `%s::%s` = %d%s." % (cfg.c_name, ident, value, note))
            w("        pub const %s: u32 = %d;" % (ident, value))
    w("    }")

    # Typed constants and their types.
    for cfg in kind.enums:
        if cfg.rust is None:
            continue
        e = mine[cfg.c_name]
        w("")
        doc = cfg.doc
        if cfg.blocks:
            doc += " Used in %s." % ", ".join("[`%s`]" % b if b in values else "`%s`" % b for b in cfg.blocks)
        for line in wrap_doc(doc, 4):
            w(line)
        is_blocks = cfg.rust == "BlockId"
        if is_blocks:
            # Every kind shares one block id type, the one the reader returns; the
            # kind's names come from functions, since an id alone does not know its kind.
            w("    ///")
            w("    /// The one block id type of the crate, [`crate::BlockId`]; this kind's names are")
            w("    /// [`block_name`] and [`block_llvm_name`].")
            w("    pub use crate::ids::BlockId;")
        else:
            w("    ///")
            w("    /// `Display` prints [`name`](Self::name), else [`llvm_name`](Self::llvm_name), else the number.")
            w("    #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]")
            w("    pub struct %s(pub u32);" % cfg.rust)
            w("")
            w("    crate::ids::id_impls!(%s);" % cfg.rust)
        lookup = []  # (raw path, enumerator, spelling or None), deduplicated by value
        seen = set()
        if is_blocks:
            for ident, value, alias in standard:
                if ident not in MARKERS and not alias:
                    seen.add(value)
                    lookup.append(("crate::ids::bitstream::raw::" + ident, ident, std_spelled.get(ident)))
        for ident, value, alias in e[3]:
            if ident in MARKERS or alias or value in seen:
                continue
            seen.add(value)
            lookup.append(("raw::" + ident, ident, spelled.get(ident)))
        w("")
        if is_blocks:
            w("    /// The name `llvm-bcanalyzer -dump` prints for block `id` of this kind, if it knows one (for")
            w("    /// streams other than LLVM IR, the name the writer puts in the stream's BLOCKINFO).")
            render_match(w, "block_name", [(p, s) for p, _, s in lookup if s is not None], "id: BlockId", "id.0", 4)
            w("")
            w("    /// The enumerator LLVM's sources give block `id` of this kind, e.g. `%s`." % lookup[0][1])
            render_match(w, "block_llvm_name", [(p, i) for p, i, _ in lookup], "id: BlockId", "id.0", 4)
        else:
            w("    impl %s {" % cfg.rust)
            w("        /// The name `llvm-bcanalyzer -dump` prints for this code, if it knows one (for streams other")
            w("        /// than LLVM IR, the name the writer puts in the stream's BLOCKINFO).")
            render_match(w, "name", [(p, s) for p, _, s in lookup if s is not None])
            w("")
            w("        /// The enumerator LLVM's sources give this value, e.g. `%s`." % lookup[0][1])
            render_match(w, "llvm_name", [(p, i) for p, i, _ in lookup])
            w("    }")
        for ident, value, alias in e[3]:
            w("")
            parts = ["`%s` = %d" % (ident, value)]
            if alias:
                parts.append("an alias of [`%s`]" % alias)
            elif ident in MARKERS:
                parts.append("a boundary, not an id")
            if ident in spelled:
                parts.append("printed `%s`" % spelled[ident])
            for line in wrap_doc("; ".join(parts) + ".", 4):
                w(line)
            w("    pub const %s: %s = %s(raw::%s);" % (ident, cfg.rust, cfg.rust, ident))

    # Every enumerator, for tools and the drift test.
    w("")
    w("    /// Every constant of this module: its enum, enumerator and value, enum by enum.")
    w("    pub const ENUMERATORS: &[Enumerator] = &[")
    for cfg in kind.enums:
        for ident, value, _ in mine[cfg.c_name][3]:
            w("        Enumerator { enumeration: %s, name: %s, value: raw::%s }," % (
                rust_str(cfg.c_name), rust_str(ident), ident))
    w("    ];")

    if kind.record_names:
        w("")
        w("    /// What `llvm-bcanalyzer -dump` prints for record `code` of block `block`, if it names it.")
        w("    pub(crate) const fn record_name(block: u32, code: u32) -> Option<&'static str> {")
        groups = []  # [(blocks, table)]
        for bv in sorted(tables):
            t = tables[bv]
            for g in groups:
                if g[1] == t:
                    g[0].append(bv)
                    break
            else:
                groups.append(([bv], t))
        w("        match block {")
        for blocks, t in groups:
            w("            %s => match code {" % " | ".join(str(b) for b in blocks))
            for code in sorted(t):
                w("                %d => Some(%s)," % (code, rust_str(t[code])))
            w("                _ => None,")
            w("            },")
        w("            _ => None,")
        w("        }")
        w("    }")
    w("}")


def render_match(w, fn, arms, param="self", value="self.0", indent=8):
    pad = " " * indent
    w(pad + "#[must_use]")
    w(pad + "pub const fn %s(%s) -> Option<&'static str> {" % (fn, param))
    if not arms:
        w(pad + "    None")
        w(pad + "}")
        return
    w(pad + "    match %s {" % value)
    for path, s in arms:
        w(pad + "        %s => Some(%s)," % (path, rust_str(s)))
    w(pad + "        _ => None,")
    w(pad + "    }")
    w(pad + "}")


# --------------------------------------------------------------------------------------
# Driver
# --------------------------------------------------------------------------------------


def load_extracted():
    with open(EXTRACTED, encoding="utf-8") as f:
        return json.load(f)


def write(path, text):
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)


def main(argv):
    cmd = argv[1] if len(argv) > 1 else "all"
    src = argv[2] if len(argv) > 2 else DEFAULT_SRC
    if cmd == "extract":
        write(EXTRACTED, dump_json(extract(src)))
    elif cmd == "render":
        write(OUTPUT, render(load_extracted(), read_overlay()))
    elif cmd == "check":
        ok = True
        if os.path.isdir(src):
            if dump_json(extract(src)) != open(EXTRACTED, encoding="utf-8").read():
                print("tools/gen-ids/extracted.json differs from what the sources in %s give" % src)
                ok = False
        else:
            print("note: %s not present; extracted.json not re-extracted" % src)
        with open(OUTPUT, encoding="utf-8") as f:
            if render(load_extracted(), read_overlay()) != f.read():
                print("src/ids/generated.rs differs from what gen.py renders; run: python3 tools/gen-ids/gen.py render")
                ok = False
        return 0 if ok else 1
    elif cmd == "all":
        if os.path.isdir(src):
            write(EXTRACTED, dump_json(extract(src)))
        write(OUTPUT, render(load_extracted(), read_overlay()))
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except GenError as e:
        print("gen.py: error: %s" % e, file=sys.stderr)
        sys.exit(1)
