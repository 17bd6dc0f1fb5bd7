#!/usr/bin/env python3
"""compare.py: how faithfully does `bitstream-dump --dis` print what llvm-dis prints?

    tools/fidelity/compare.py [--dump PATH] [--report PATH] [--versions 13,14,15,16,19,22]
                              [--jobs 2] [--bin PATH] [--timeout 120] DIR...

Walks every *.bc under each DIR (e.g. the corpus of tools/fidelity/make-corpus.sh),
finds each file's producer (the IDENTIFICATION block's string, e.g. LLVM14.0.6, through
`bitstream-dump --list`; a file without one is "unknown/old"), and for every printing
version V compares

    bitstream-dump --dis --llvm-dis-version V FILE      with      llvm-dis-V FILE -o -

* whole file: byte for byte, except the first line (`; ModuleID = '...'`);
* per function: `define ... {` .. `}` and `declare ...` (with the `; Function Attrs:`
  comment before them), keyed by name, compared after `!123` -> `!N` and `#12` -> `#N`;
  a function missing on either side counts as different.

A (file, V) pair that llvm-dis-V rejects is skipped (counted as "llvm-dis rejects"); one
where bitstream-dump exits non-zero, crashes or times out while llvm-dis succeeds is a
tool failure (listed). Every differing function and every whole-file mismatch is
classified by its first differing line pair; the report lists the top classes with an
example each. Markdown report on stdout (or --report PATH); with --dump PATH, every
differing function with a unified diff (at most 40 lines each) goes to PATH.

Standard library only.
"""

import argparse
import atexit
import collections
import difflib
import hashlib
import multiprocessing
import os
import re
import shutil
import subprocess
import tempfile
import sys
import time

DEFAULT_BIN = "/work/main/target/release/bitstream-dump"
GROUPS = ["same", "older", "newer", "unknown/old"]
GROUP_TITLES = {
    "same": "producer == printing version",
    "older": "older producer",
    "newer": "newer producer",
    "unknown/old": "unknown/old producer (no IDENTIFICATION block)",
}

# ----------------------------------------------------------------------------------------
# Running the tools


def run(cmd, timeout):
    """(status, stdout bytes, stderr tail); status: 'ok', 'exit N', 'signal N', 'timeout',
    'not found'."""
    env = dict(os.environ, LC_ALL="C")
    try:
        p = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return "timeout", b"", ""
    except FileNotFoundError:
        return "not found", b"", ""
    except OSError as e:  # e.g. ETXTBSY while the binary is being rebuilt
        return "oserror %s" % e.errno, b"", str(e)
    err = p.stderr[-600:].decode("utf-8", "replace").strip()
    if p.returncode == 0:
        return "ok", p.stdout, err
    if p.returncode < 0:
        return "signal %d" % -p.returncode, p.stdout, err
    return "exit %d" % p.returncode, p.stdout, err


def run_ours(cmd, timeout):
    """Our binary may be rebuilt under us: retry a few times when it is missing/busy."""
    for attempt in range(6):
        st, out, err = run(cmd, timeout)
        if st == "not found" or st.startswith("oserror"):
            time.sleep(5 + 5 * attempt)
            continue
        return st, out, err
    return st, out, err


PRODUCER_RE = re.compile(rb'producer="([^"]*)"')


def producer_of(args):
    path, binary, timeout = args
    st, out, err = run_ours([binary, "--list", path], timeout)
    if st != "ok" and not out:
        return path, None, "list: %s %s" % (st, err)
    m = PRODUCER_RE.search(out)
    if not m or not m.group(1):
        return path, None, None
    return path, m.group(1).decode("utf-8", "replace"), None


def major_of(producer):
    if not producer:
        return None
    m = re.match(r"(?:LLVM|APPLE_\d+_)?(\d+)\.", producer)
    return int(m.group(1)) if m else None


# ----------------------------------------------------------------------------------------
# Splitting into functions and normalising

NAME_RE = re.compile(r'@("(?:[^"\\]|\\.)*"|[-a-zA-Z$._0-9]+)\(')
MD_RE = re.compile(r"!\d+\b")
ATTR_RE = re.compile(r"(?<![\w\"])#\d+\b")


def normalise(line):
    return ATTR_RE.sub("#N", MD_RE.sub("!N", line))


def split_functions(lines):
    """{name: [lines]} for every define (up to its `}`) and declare, each with the
    `; Function Attrs:` comment line just before it."""
    funcs = collections.OrderedDict()
    i, n = 0, len(lines)
    while i < n:
        line = lines[i]
        if line.startswith("define ") or line.startswith("declare "):
            start = i - 1 if i > 0 and lines[i - 1].startswith("; Function Attrs:") else i
            m = NAME_RE.search(line)
            name = m.group(1) if m else "<unnamed@%d>" % i
            if line.startswith("define ") and line.rstrip().endswith("{"):
                j = i + 1
                while j < n and lines[j] != "}":
                    j += 1
                end = min(j, n - 1)
            else:
                end = i
            key, k = name, 1
            while key in funcs:
                k += 1
                key = "%s#%d" % (name, k)
            funcs[key] = lines[start:end + 1]
            i = end + 1
        else:
            i += 1
    return funcs


# ----------------------------------------------------------------------------------------
# Classifying a differing line pair

TOKEN_RE = re.compile(r'c?"(?:[^"\\]|\\.)*"|[%@!#]?[-\w.$]+|\S')
FLOAT_RE = re.compile(r"^-?(\d+\.\d*(e[-+]?\d+)?|inf|nan)$", re.I)
NUM_RE = re.compile(r"^-?\d+$")
HEX_RE = re.compile(r"^-?0x[KLMHR]?[0-9A-Fa-f]+$")


def abstract_token(t):
    if t.startswith('c"'):
        return 'c"S"'
    if t.startswith('"'):
        return '"S"'
    if t.startswith("%"):
        return "%v"
    if t.startswith("@"):
        return "@g"
    if t.startswith("!"):
        return "!N" if t[1:2].isdigit() or t[1:2] == '"' else t
    if t.startswith("#"):
        return "#N"
    if HEX_RE.match(t):
        return "HEX"
    if FLOAT_RE.match(t):
        return "FLT"
    if NUM_RE.match(t):
        return "N"
    if re.match(r"^\d+:$", t):
        return "N:"
    return t


def token_kind(t):
    a = abstract_token(t)
    return {"%v": "local/type name", "@g": "global name", "!N": "metadata id",
            "#N": "attribute group", "HEX": "hex constant", "FLT": "float constant",
            "N": "number", '"S"': "string", 'c"S"': "string"}.get(a, "token")


def keyword(line):
    """The instruction or keyword of a line of IR."""
    if line is None:
        return "<end>"
    s = line.strip()
    if not s:
        return "<blank>"
    if s.startswith(";"):
        if s.startswith("; Function Attrs"):
            return "; Function Attrs"
        if s.startswith("; preds") or re.match(r"^; <label>", s):
            return "; preds"
        return ";comment"
    if re.match(r"^[-\w.$\"]+:(\s|$)", s):
        return "label"
    m = re.match(r'^%[-\w.$"]+\s*=\s*(.*)$', s)
    if m:
        rest = m.group(1).split()
        if rest and rest[0] == "type":
            return "type"
        while rest and rest[0] in ("tail", "musttail", "notail"):
            rest = rest[1:]
        return rest[0] if rest else "="
    m = re.match(r"^@[-\w.$\"]+\s*=\s*(.*)$", s)
    if m:
        rest = m.group(1)
        for k in ("alias", "ifunc"):
            if re.search(r"\b%s\b" % k, rest.split("(")[0]):
                return k
        return "global"
    m = re.match(r"^!\d+\s*=\s*(distinct\s+)?(!\w+|!\{|!\")?", s)
    if m:
        return "metadata " + (m.group(2) or "")
    if s.startswith("!"):
        return "named metadata"
    toks = re.findall(r"[#%@!]?[-\w.$]+|\S", s)
    while len(toks) > 1 and toks[0] in ("tail", "musttail", "notail"):
        toks = toks[1:]
    return toks[0]


TYPEDEF_RE = re.compile(r'^(%[-\w.$]+|%"(?:[^"\\]|\\.)*") = type ')


def class_key(ours, llvm):
    kw = keyword(llvm if llvm is not None else ours)
    if ours is None:
        return "%s: line missing in ours" % kw
    if llvm is None:
        return "%s: extra line in ours (%s)" % (kw, keyword(ours))
    # Named struct types: a different name at the same place means a different order (or
    # set) of type definitions; one class for all of them.
    mo, ml = TYPEDEF_RE.match(ours), TYPEDEF_RE.match(llvm)
    if mo and ml and mo.group(1) != ml.group(1):
        return "type: definitions in another order (another type name at this line)"
    if mo and not ml:
        return "type: extra type definition in ours (llvm-dis: %s)" % keyword(llvm)
    if ml and not mo:
        return "type: type definition missing in ours (ours: %s)" % keyword(ours)
    to, tl = TOKEN_RE.findall(ours), TOKEN_RE.findall(llvm)
    ao, al = [abstract_token(t) for t in to], [abstract_token(t) for t in tl]
    if ao == al:
        # same shape: the first differing token tells what kind of thing differs
        for x, y in zip(to, tl):
            if x != y:
                return "%s: same shape, differing %s" % (kw, token_kind(y))
        return "%s: whitespace only" % kw
    sm = difflib.SequenceMatcher(None, ao, al, autojunk=False)
    for op, i1, i2, j1, j2 in sm.get_opcodes():
        if op != "equal":
            so = " ".join(ao[i1:i2][:4]) + (" …" if i2 - i1 > 4 else "")
            sl = " ".join(al[j1:j2][:4]) + (" …" if j2 - j1 > 4 else "")
            return "%s: ours '%s' / llvm-dis '%s'" % (kw, so or "∅", sl or "∅")
    return "%s: ?" % kw


def first_diff(a, b):
    """Index of the first differing element of two lists (None when equal)."""
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return i
    if len(a) != len(b):
        return min(len(a), len(b))
    return None


def udiff(ours, llvm, at, name, cap=40):
    lo = max(0, at - 3)
    d = list(difflib.unified_diff(llvm[lo:lo + 300], ours[lo:lo + 300],
                                  "llvm-dis", "bitstream-dump", n=2, lineterm=""))
    if len(d) > cap:
        d = d[:cap] + ["… (%d more diff lines)" % (len(d) - cap)]
    return "\n".join(d)


# ----------------------------------------------------------------------------------------
# One (file, version) pair


def compare_pair(args):
    path, v, binary, timeout, want_dump = args
    res = {"path": path, "v": v}
    t0 = time.time()
    st, lout, lerr = run(["llvm-dis-%d" % v, path, "-o", "-"], timeout)
    res["t_llvm"] = time.time() - t0
    if st == "timeout":
        res["status"] = "llvm-dis timeout"
        return res
    if st != "ok":
        res["status"] = "llvm-dis rejects"
        res["err"] = lerr
        return res
    t0 = time.time()
    st, oout, oerr = run_ours([binary, "--dis", "--llvm-dis-version", str(v), path], timeout)
    res["t_ours"] = time.time() - t0
    if st != "ok":
        res["status"] = "tool timeout" if st == "timeout" else "tool failure"
        res["err"] = "%s: %s" % (st, oerr)
        return res
    res["status"] = "compared"
    ltext = lout.decode("utf-8", "surrogateescape")
    otext = oout.decode("utf-8", "surrogateescape")
    del lout, oout
    llines = ltext.split("\n")
    olines = otext.split("\n")
    if llines and llines[0].startswith("; ModuleID"):
        llines = llines[1:]
    if olines and olines[0].startswith("; ModuleID"):
        olines = olines[1:]
    whole = llines == olines
    res["whole"] = whole
    if not whole:
        i = first_diff(olines, llines)
        o = olines[i] if i < len(olines) else None
        l = llines[i] if i < len(llines) else None
        res["whole_diff"] = (i + 2, o, l, class_key(o, l))
    lf, of = split_functions(llines), split_functions(olines)
    names = list(lf.keys()) + [k for k in of.keys() if k not in lf]
    res["nfunc"] = len(names)
    nident = 0
    diffs = []
    for name in names:
        lo, oo = lf.get(name), of.get(name)
        if lo is not None and oo is not None:
            ln = [normalise(x) for x in lo]
            on = [normalise(x) for x in oo]
            if ln == on:
                nident += 1
                continue
            i = first_diff(on, ln)
            o = oo[i] if i < len(oo) else None
            l = lo[i] if i < len(lo) else None
            key = class_key(on[i] if i < len(on) else None, ln[i] if i < len(ln) else None)
            d = udiff(oo, lo, i, name) if want_dump else None
            diffs.append((name, o, l, key, d))
        elif oo is None:
            head = next((x for x in lo if x.startswith(("define", "declare"))), lo[0])
            diffs.append((name, None, head, "function missing in ours",
                          "\n".join(lo[:10]) if want_dump else None))
        else:
            diffs.append((name, oo[0], None, "function missing in llvm-dis output",
                          "\n".join(oo[:10]) if want_dump else None))
    res["nident"] = nident
    res["diffs"] = diffs
    return res


# ----------------------------------------------------------------------------------------
# Driver


def bin_id(path):
    try:
        with open(path, "rb") as f:
            sha = hashlib.sha256(f.read()).hexdigest()[:16]
        mt = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(os.path.getmtime(path)))
        return "sha256 %s…, built %s" % (sha, mt)
    except OSError as e:
        return "unreadable: %s" % e


KNOWN = ("rust", "llvm-test-bitcode")


def corpus_of(path, root):
    """The first path component under DIR (c/<project> for c), also when DIR is itself a
    corpus of make-corpus.sh's layout (OUT/rust, OUT/c, OUT/c/zlib, ...)."""
    root = os.path.abspath(root)
    parts = os.path.relpath(path, root).split(os.sep)
    base, parent = os.path.basename(root), os.path.basename(os.path.dirname(root))
    if parts[0] == "c" and len(parts) > 2:
        return "c/" + parts[1]
    if parts[0] in KNOWN and len(parts) > 1:
        return parts[0]
    if base in KNOWN:
        return base
    if parent == "c":
        return "c/" + base
    if base == "c" and len(parts) > 1:
        return "c/" + parts[0]
    return parts[0] if len(parts) > 1 else base


def find_files(dirs):
    out = []
    for d in dirs:
        if os.path.isfile(d):
            out.append((os.path.abspath(d), os.path.basename(os.path.dirname(os.path.abspath(d)))))
            continue
        for root, subdirs, files in os.walk(d):
            subdirs[:] = sorted(s for s in subdirs if not s.startswith("."))
            for f in sorted(files):
                if f.endswith(".bc"):
                    p = os.path.abspath(os.path.join(root, f))
                    out.append((p, corpus_of(p, d)))
    return out


def md_escape(s, limit=160):
    if s is None:
        return "∅ (no line)"
    s = s.strip()
    if len(s) > limit:
        s = s[:limit] + "…"
    return "`" + s.replace("`", "'").replace("|", "\\|") + "`"


def pct(a, b):
    return "%.1f%%" % (100.0 * a / b) if b else "–"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dirs", nargs="+", metavar="DIR")
    ap.add_argument("--dump", metavar="PATH", help="write every differing function's diff here")
    ap.add_argument("--report", metavar="PATH", help="write the markdown report here (default: stdout)")
    ap.add_argument("--versions", default="13,14,15,16,19,22")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--bin", default=DEFAULT_BIN)
    ap.add_argument("--timeout", type=int, default=120, help="seconds per tool invocation")
    ap.add_argument("--top", type=int, default=30, help="difference classes listed")
    a = ap.parse_args()
    versions = [int(x) for x in a.versions.split(",") if x.strip()]
    t_start = time.time()
    # Run a private copy, so that a rebuild of --bin during the run cannot mix two builds.
    snapdir = tempfile.mkdtemp(prefix="fidelity-bin-")
    atexit.register(shutil.rmtree, snapdir, True)
    for attempt in range(6):
        try:
            shutil.copy2(a.bin, os.path.join(snapdir, "bitstream-dump"))
            break
        except OSError as e:
            if attempt == 5:
                sys.exit("cannot copy %s: %s" % (a.bin, e))
            time.sleep(10)
    bin_orig, a.bin = a.bin, os.path.join(snapdir, "bitstream-dump")
    bin_before = bin_id(a.bin)

    files = find_files(a.dirs)
    if not files:
        sys.exit("no .bc files under %s" % " ".join(a.dirs))
    corpus = dict(files)
    print("compare.py: %d files, versions %s, %d jobs" % (len(files), versions, a.jobs), file=sys.stderr)

    pool = multiprocessing.Pool(a.jobs)
    producers, prod_err = {}, {}
    for path, prod, err in pool.imap_unordered(producer_of, [(p, a.bin, a.timeout) for p, _ in files], 8):
        producers[path] = prod
        if err:
            prod_err[path] = err

    def group(path, v):
        m = major_of(producers.get(path))
        if m is None:
            return "unknown/old"
        return "same" if m == v else ("older" if m < v else "newer")

    # Largest files first, so that the pool's tail is short.
    tasks = sorted(((p, v, a.bin, a.timeout, bool(a.dump)) for p, _ in files for v in versions),
                   key=lambda t: -os.path.getsize(t[0]))
    stats = collections.defaultdict(collections.Counter)  # (corpus, v, group) -> counters
    classes = collections.OrderedDict()  # key -> [count_funcs, count_whole, example]
    failures, timeouts = [], []
    dump = open(a.dump, "w", encoding="utf-8", errors="surrogateescape") if a.dump else None
    done = 0
    t_tools = collections.Counter()
    for res in pool.imap_unordered(compare_pair, tasks, 1):
        done += 1
        if done % 100 == 0 or done == len(tasks):
            print("  %d/%d pairs, %.0f s" % (done, len(tasks), time.time() - t_start), file=sys.stderr)
        p, v = res["path"], res["v"]
        c = stats[(corpus[p], v, group(p, v))]
        c["files"] += 1
        st = res["status"]
        t_tools["llvm-dis"] += res.get("t_llvm", 0)
        t_tools["ours"] += res.get("t_ours", 0)
        if st == "llvm-dis rejects":
            c["rejects"] += 1
            continue
        if st == "llvm-dis timeout":
            c["timeouts"] += 1
            timeouts.append((p, v, "llvm-dis"))
            continue
        if st in ("tool failure", "tool timeout"):
            c["failures"] += 1
            if st == "tool timeout":
                c["timeouts"] += 1
                timeouts.append((p, v, "bitstream-dump"))
            failures.append((p, v, res.get("err", "")))
            continue
        c["compared"] += 1
        c["whole"] += 1 if res["whole"] else 0
        c["nfunc"] += res["nfunc"]
        c["nident"] += res["nident"]
        if not res["whole"]:
            ln, o, l, key = res["whole_diff"]
            e = classes.setdefault(key, [0, 0, None])
            e[1] += 1
            if e[2] is None:
                e[2] = (p, v, "whole file, line %d" % ln, o, l)
        for name, o, l, key, d in res["diffs"]:
            e = classes.setdefault(key, [0, 0, None])
            e[0] += 1
            if e[2] is None:
                e[2] = (p, v, "function @%s" % name, o, l)
            if dump:
                dump.write("=== %s  llvm-dis-%d  @%s\n    class: %s\n" % (p, v, name, key))
                dump.write((d or "") + "\n\n")
        if dump and not res["whole"]:
            ln, o, l, key = res["whole_diff"]
            dump.write("=== %s  llvm-dis-%d  WHOLE FILE first difference at line %d\n    class: %s\n"
                       "    ours:     %s\n    llvm-dis: %s\n\n" % (p, v, ln, key, o, l))
    pool.close()
    pool.join()
    if dump:
        dump.close()
    elapsed = time.time() - t_start

    # ------------------------------------------------------------------ report
    R = []
    bin_after = bin_id(bin_orig)
    shutil.rmtree(snapdir, ignore_errors=True)
    R.append("# bitstream-dump --dis fidelity report\n")
    R.append("- inputs: %s (%d .bc files), printing versions: %s" %
             (", ".join(a.dirs), len(files), ", ".join(map(str, versions))))
    R.append("- binary: `%s` (%s; a copy taken at the start was run)" % (bin_orig, bin_before))
    if bin_after != bin_before:
        R.append("- note: `%s` was rebuilt during the run (now %s); these results are for "
                 "the copy" % (bin_orig, bin_after))
    R.append("- run: %s, %.0f s wall with %d jobs (tool time: llvm-dis %.0f s, bitstream-dump %.0f s)"
             % (time.strftime("%Y-%m-%d %H:%M"), elapsed, a.jobs, t_tools["llvm-dis"], t_tools["ours"]))
    prods = collections.Counter(producers.values())
    R.append("- producers: " + ", ".join("%s ×%d" % (k or "none", n) for k, n in
                                          sorted(prods.items(), key=lambda kv: -kv[1])))
    R.append("- *files*: (file, version) pairs; *rejects*: llvm-dis-V refused the file (pair "
             "skipped); *compared*: pairs compared; *whole identical*: output byte-identical but "
             "for the ModuleID line; functions compared after `!N`/`#N` normalisation; "
             "*tool failures*: bitstream-dump exited non-zero, crashed or timed out while "
             "llvm-dis succeeded.\n")

    header = ("| corpus | V | producer | files | rejects | compared | whole identical | "
              "functions identical / total | % | tool failures | timeouts |")
    sep = "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"

    def row(name, v, g, c):
        return "| %s | %s | %s | %d | %d | %d | %d | %d / %d | %s | %d | %d |" % (
            name, v, g, c["files"], c["rejects"], c["compared"], c["whole"],
            c["nident"], c["nfunc"], pct(c["nident"], c["nfunc"]), c["failures"], c["timeouts"])

    R.append("## Summary (all corpora)\n")
    R.append(header)
    R.append(sep)
    tot_all = collections.Counter()
    for v in versions:
        for g in GROUPS:
            c = collections.Counter()
            for (cp, vv, gg), cc in stats.items():
                if vv == v and gg == g:
                    c.update(cc)
            if c["files"]:
                R.append(row("all", v, g, c))
                tot_all.update(c)
    R.append(row("**total**", "", "", tot_all))
    R.append("")

    R.append("## Per corpus\n")
    R.append("Producer column: *same* = %s, *older*/*newer* = %s/%s than the printing version, "
             "*unknown/old* = no producer string.\n" % (GROUP_TITLES["same"], "older", "newer"))
    R.append(header)
    R.append(sep)
    for cp in sorted({k[0] for k in stats}):
        for v in versions:
            for g in GROUPS:
                c = stats.get((cp, v, g))
                if c and c["files"]:
                    R.append(row(cp, v, g, c))
    R.append("")

    R.append("## Top %d difference classes\n" % a.top)
    R.append("Key: the keyword/instruction of the first differing line pair, then the first "
             "differing tokens after replacing names (`%%v`, `@g`), numbers (`N`, `FLT`, `HEX`), "
             "metadata ids (`!N`) and strings (`\"S\"`) by placeholders. *funcs*: differing "
             "functions whose first difference is of this class; *whole*: whole-file mismatches "
             "whose first difference is. %d classes in all.\n" % len(classes))
    R.append("| # | class | funcs | whole | example (file, V, where) | ours | llvm-dis |")
    R.append("|---:|---|---:|---:|---|---|---|")
    base = os.path.commonpath([os.path.abspath(d) if os.path.isdir(d) else os.path.dirname(os.path.abspath(d))
                               for d in a.dirs])

    def shown(p):
        return os.path.relpath(p, base)

    top = sorted(classes.items(), key=lambda kv: -(kv[1][0] + kv[1][1]))[:a.top]
    for i, (key, (nf, nw, ex)) in enumerate(top, 1):
        p, v, where, o, l = ex
        R.append("| %d | %s | %d | %d | %s, %d, %s | %s | %s |" % (
            i, md_escape(key, 200), nf, nw, md_escape(shown(p), 100), v, md_escape(where, 80),
            md_escape(o), md_escape(l)))
    R.append("")

    R.append("## Tool failures (%d)\n" % len(failures))
    for p, v, err in sorted(failures)[:200]:
        R.append("- `%s` V=%d: %s" % (p, v, (err or "").replace("\n", " ")[:300]))
    if len(failures) > 200:
        R.append("- … %d more" % (len(failures) - 200))
    R.append("")
    if timeouts:
        R.append("## Timeouts (%d, limit %d s)\n" % (len(timeouts), a.timeout))
        for p, v, who in sorted(timeouts):
            R.append("- `%s` V=%d (%s)" % (p, v, who))
        R.append("")
    if prod_err:
        R.append("## `--list` errors (%d)\n" % len(prod_err))
        for p, e in sorted(prod_err.items())[:50]:
            R.append("- `%s`: %s" % (p, e[:200]))
        R.append("")

    text = "\n".join(R) + "\n"
    if a.report:
        with open(a.report, "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(text)
        print("report written to %s (%.0f s)" % (a.report, elapsed), file=sys.stderr)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
