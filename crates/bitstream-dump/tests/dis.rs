//! `bitstream-dump --dis --llvm-dis-version V` against `llvm-dis` V (13, 14, 15, 16, 19 and 22), whole
//! file and function by function, on these corpora:
//! - `ir_bodies`: `testdata/src/ir_bodies/*.ll`, assembled here with `llvm-as` V (which file
//!   each version takes: [`assembled_by`], and that folder's README);
//! - `testdata`: the committed `testdata/llvm14_*.bc` (V = 14) and `testdata/rustc_llvm22_*.bc`
//!   (V = 22);
//! - `libclc`: Debian's libclc-V, `target/libclc/V/usr/lib/clc/*.bc`, links followed once
//!   (`.ci/run` unpacks them; `LIBCLC_DIR` overrides where, as in `nm.rs`);
//! - `extra` (V = 14): the `.bc` files of the folders `EXTRA_TESTDATA_DIR` lists (files
//!   nobody here wrote, e.g. LLVM's own `test/Bitcode` files of LLVM 3.x: older than the
//!   oldest LLVM installed, so they go to `llvm-dis` 14, whose upgrades are its own);
//!   reported, not held to a floor;
//! - `clang`: the C sources of `testdata/src` that compile (among them `dis_cases.c`:
//!   computed gotos, `#dbg_assign`, intrinsic declarations), built here by clang-V at -O0,
//!   -O2 and -O1 -g (clang writes use-list orders, so predecessors are checked in the order
//!   LLVM permutes them to); `clang14` and `clang19`: the same sources built by an older
//!   clang, read by 19 and 22 (LLVM's upgrades: intrinsic attributes and names, debug
//!   records, lifetime markers, memory attributes, opaque pointers);
//! - `upgrade`: `testdata/src/upgrade/*.ll`, typed-pointer modules assembled by `llvm-as`
//!   14 and read by each V: what the reader of a newer version rewrites (constant
//!   expressions it no longer has made instructions, `%constexpr`);
//! - `llvm-tests`: `testdata/llvm-tests/*.bc`, inputs of LLVM's own `test/Bitcode` written
//!   by LLVM 3.2 to 7 (see that folder's README), each read by every V;
//! - `sysroot` (V = 22): the bitcode of every member of the Rust sysroot's x86-64 rlibs
//!   (rustc 1.95 writes LLVM 22 bitcode), cut out of the objects' `.llvmbc` sections;
//! - `zig` (V = 22): `testdata/src/zig`'s programs, built here by Zig 0.17's own bitcode
//!   writer (not LLVM's) for eight targets ([`zig_bitcode`]): what LLVM's reader builds
//!   from a file no LLVM wrote (attribute sets sorted and merged, constants folded).
//!
//! Each file's two listings are compared whole, byte for byte: the module header, structs,
//! comdats, globals, functions, attribute groups, named metadata, every metadata node with
//! llvm-dis's numbering, and the ThinLTO summary. Both are also cut into functions (from a
//! line starting `define ` to the line `}`) and declarations (`declare ` lines), paired by
//! name and compared exactly, numbers and attachments included ([`exact_listing`]). Each
//! corpus and version reports whole files, functions and declarations identical / total,
//! and the first differing line of up to five of each. The test fails if our tool crashes
//! on any file or fails on one `llvm-dis` reads, if any file, function or declaration
//! differs (but in `extra`), or if fewer are identical than [`FLOORS`] says.
//!
//! The normalizing cut ([`listing`]: `#N`/`!N` numbers, attachments dropped) is kept for
//! the harness's own check: llvm-dis against its renumbered re-assembly.

mod common;

use std::collections::BTreeMap;
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::process::Command;

use common::{BIN, llvm_tool, repo_root, skip_or_fail, testdata_files};

/// The least number of functions and declarations that must be identical, per corpus and
/// LLVM version: (corpus, version, functions, declarations), so that a corpus cannot shrink
/// unnoticed. Measured on 2026-11-25 (the clang corpora of 19 and 22, and `dis_cases.c`, on
/// 2026-11-27), when every one was identical; the libclc and sysroot
/// floors sit a little below the counts then (100891, 104491, 87672 and 3714 functions),
/// so that a new Debian or Rust release does not fail them by itself. Besides, every
/// function and declaration of every corpus but `extra` must be identical.
const FLOORS: [(&str, u32, usize, usize); 16] = [
    ("clang", 14, 65, 44),
    ("clang", 19, 65, 36),
    ("clang", 22, 65, 39),
    ("clang14", 19, 65, 36),
    ("clang14", 22, 65, 44),
    ("clang19", 22, 65, 44),
    ("ir_bodies", 14, 70, 81),
    ("ir_bodies", 19, 75, 91),
    ("ir_bodies", 22, 80, 96),
    ("testdata", 14, 72, 61),
    ("testdata", 22, 313, 87),
    ("libclc", 14, 95_000, 2_000),
    ("libclc", 19, 98_000, 3_000),
    ("libclc", 22, 80_000, 4_500),
    ("sysroot", 22, 3_000, 1_400),
    // 22,417 functions and 1,685 declarations on 2026-12-02 (Zig 0.17.1).
    ("zig", 22, 20_000, 1_500),
];

/// How many differing functions (and declarations) each corpus shows.
const SHOWN: usize = 5;

/// A listing cut into what is compared, normalized: each function's lines from `define` to
/// `}`, and each `declare` line, by function name.
#[derive(Debug, Default, PartialEq)]
struct Listing {
    functions: BTreeMap<String, Vec<String>>,
    declarations: BTreeMap<String, String>,
}

/// Cuts `llvm-dis` text (or ours) into a [`Listing`] and normalizes it, the same on both
/// sides: `#<digits>` → `#N` and `!<digits>` → `!N` everywhere; metadata attachments dropped
/// (`, !kind !N` at the end of an instruction line, ` !kind !N` before the `{` of a `define`
/// line and after the `declare` of a declaration, where LLVM prints them). Nothing else is
/// touched.
fn listing(text: &str) -> Listing {
    cut(text, true)
}

/// Cuts a listing into functions and declarations as they are: metadata and attribute
/// group numbers and attachments included (the whole-module comparison).
fn exact_listing(text: &str) -> Listing {
    cut(text, false)
}

/// [`listing`] (`normalize`) or [`exact_listing`].
fn cut(text: &str, normalize: bool) -> Listing {
    /// `#12` → `#N`, `!3` → `!N`.
    fn renumbered(line: &str) -> String {
        let mut out = String::with_capacity(line.len());
        let mut chars = line.chars().peekable();
        while let Some(c) = chars.next() {
            out.push(c);
            if (c == '#' || c == '!') && chars.peek().is_some_and(char::is_ascii_digit) {
                out.push('N');
                while chars.next_if(char::is_ascii_digit).is_some() {}
            }
        }
        out
    }
    /// `line` without its trailing `<separator>!kind !N` attachments.
    fn without_attachments<'a>(mut line: &'a str, separator: &str) -> &'a str {
        while let Some(head) = line.strip_suffix(" !N") {
            match head.rfind(separator) {
                Some(at) if is_kind(&head[at + separator.len()..]) => line = &head[..at],
                _ => break,
            }
        }
        line
    }
    /// `!dbg`, `!llvm.loop`, `!"odd kind"`: a metadata kind as llvm-dis prints it.
    fn is_kind(s: &str) -> bool {
        let Some(kind) = s.strip_prefix('!') else { return false };
        let bare = !kind.is_empty() && kind.bytes().all(|b| b.is_ascii_alphanumeric() || b"$._-".contains(&b));
        bare || (kind.len() >= 2 && kind.starts_with('"') && kind.ends_with('"') && !kind.contains(' '))
    }
    /// `declare !kind !N !kind !N rest` without its attachments (they follow `declare`).
    fn declare_without_attachments(line: &str) -> String {
        let mut rest = &line["declare".len()..];
        while let Some((kind, after)) = rest.strip_prefix(' ').and_then(|r| r.split_once(' ')) {
            match after.strip_prefix("!N") {
                Some(tail) if is_kind(kind) && tail.starts_with(' ') => rest = tail,
                _ => break,
            }
        }
        format!("declare{rest}")
    }
    /// The function's name: after the first `@`, bare or quoted (unescaped).
    fn function_name(line: &str) -> String {
        let Some((_, rest)) = line.split_once('@') else { return String::new() };
        let Some(quoted) = rest.strip_prefix('"') else {
            let end = rest.find(|c: char| !(c.is_ascii_alphanumeric() || "$._-".contains(c))).unwrap_or(rest.len());
            return rest[..end].to_string();
        };
        let bytes = quoted.as_bytes();
        let mut name = Vec::new();
        let mut i = 0;
        while i < bytes.len() && bytes[i] != b'"' {
            let hex = bytes.get(i + 1..i + 3).and_then(|h| u8::from_str_radix(std::str::from_utf8(h).ok()?, 16).ok());
            if bytes[i] == b'\\' && bytes.get(i + 1) == Some(&b'\\') {
                name.push(b'\\');
                i += 2;
            } else if let (b'\\', Some(byte)) = (bytes[i], hex) {
                name.push(byte);
                i += 3;
            } else {
                name.push(bytes[i]);
                i += 1;
            }
        }
        String::from_utf8_lossy(&name).into_owned()
    }

    let mut out = Listing::default();
    let mut function: Option<(String, Vec<String>)> = None;
    for line in text.lines() {
        if let Some((_, lines)) = &mut function {
            lines.push(if normalize {
                without_attachments(&renumbered(line), ", ").to_string()
            } else {
                line.to_string()
            });
            if line == "}" {
                let (name, lines) = function.take().unwrap();
                out.functions.insert(name, lines);
            }
        } else if line.starts_with("define ") {
            if !normalize {
                function = Some((function_name(line), vec![line.to_string()]));
                continue;
            }
            let line = renumbered(line);
            let define = match line.strip_suffix(" {") {
                Some(head) => format!("{} {{", without_attachments(head, " ")),
                None => line.clone(),
            };
            function = Some((function_name(&line), vec![define]));
        } else if line.starts_with("declare ") {
            if !normalize {
                out.declarations.insert(function_name(line), line.to_string());
                continue;
            }
            let line = renumbered(line);
            out.declarations.insert(function_name(&line), declare_without_attachments(&line));
        }
    }
    if let Some((name, lines)) = function {
        out.functions.insert(name, lines); // cut short: compared as it is
    }
    out
}

/// What a run of a program gave.
struct Run {
    /// `None`: killed by a signal.
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

impl Run {
    fn ok(&self) -> bool {
        self.code == Some(0)
    }

    /// A signal or a Rust panic (exit code 101), not an error message.
    fn crashed(&self) -> bool {
        matches!(self.code, None | Some(101))
    }

    /// The first line of its standard error.
    fn why(&self) -> &str {
        self.stderr.lines().find(|l| !l.trim().is_empty()).unwrap_or("(nothing on stderr)")
    }
}

/// Runs `program` with `args` (absolute paths), in a scratch folder: given several modules
/// and `-o -`, llvm-dis writes `-.0`, `-.1`, … where it runs.
fn run<S: AsRef<OsStr>>(program: &Path, args: &[S]) -> Run {
    let scratch = Path::new(env!("CARGO_TARGET_TMPDIR")).join("dis-cwd");
    std::fs::create_dir_all(&scratch).unwrap();
    let out = Command::new(program)
        .args(args)
        .current_dir(&scratch)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", program.display()));
    Run {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// One corpus against one `llvm-dis`.
#[derive(Default)]
struct Tally {
    files: usize,
    /// Files whose whole listing is identical, byte for byte.
    identical_files: usize,
    /// The first differing line of the first [`SHOWN`] files that differ.
    shown_files: Vec<String>,
    functions: usize,
    identical_functions: usize,
    /// Functions that differ only in lines with metadata operands (`metadata …`,
    /// `#dbg_…` records), which print as the file's ids until the metadata layer.
    differ_only_in_metadata: usize,
    declarations: usize,
    identical_declarations: usize,
    /// The first differing line of the first [`SHOWN`] differing functions, then declarations.
    shown: Vec<String>,
    shown_declarations: Vec<String>,
    /// Files `llvm-dis` does not read (only a crash of ours counts there).
    rejected: Vec<String>,
    /// Our tool crashed, or failed on a file `llvm-dis` reads.
    failures: Vec<String>,
    /// Function bodies of the typed API's view ([`typed_api_agrees`]) and how many of
    /// them have the text's opcodes, in its order.
    typed_functions: usize,
    typed_identical: usize,
    /// The first of those that differ.
    typed_shown: Vec<String>,
}

impl Tally {
    /// Pairs `ours` with `theirs` by name and counts what is identical.
    fn compare(&mut self, file: &str, theirs: &Listing, ours: &Listing) {
        for (name, their_lines) in &theirs.functions {
            self.functions += 1;
            let Some(our_lines) = ours.functions.get(name) else {
                if self.shown.len() < SHOWN {
                    let ours = ours.declarations.get(name).map_or("(nothing)".to_string(), |l| format!("{l:?}"));
                    self.shown.push(format!("{file} @{name}: not a definition in our listing\n    ours:     {ours}"));
                }
                continue;
            };
            if our_lines == their_lines {
                self.identical_functions += 1;
                continue;
            }
            let without_metadata = |lines: &[String]| -> Vec<String> {
                lines.iter().filter(|l| !l.contains("metadata ") && !l.contains("#dbg_")).cloned().collect()
            };
            if without_metadata(our_lines) == without_metadata(their_lines) {
                self.differ_only_in_metadata += 1;
            }
            if self.shown.len() < SHOWN {
                let at = their_lines.iter().zip(our_lines).take_while(|(t, o)| t == o).count();
                let line = |lines: &[String]| lines.get(at).map_or("(no line)".to_string(), |l| format!("{l:?}"));
                self.shown.push(format!(
                    "{file} @{name}, line {} of {} (ours has {}):\n    llvm-dis: {}\n    ours:     {}",
                    at + 1,
                    their_lines.len(),
                    our_lines.len(),
                    line(their_lines),
                    line(our_lines)
                ));
            }
        }
        for (name, their_line) in &theirs.declarations {
            self.declarations += 1;
            let our_line = ours.declarations.get(name);
            if our_line == Some(their_line) {
                self.identical_declarations += 1;
            } else if self.shown_declarations.len() < SHOWN {
                self.shown_declarations.push(format!(
                    "{file} @{name}:\n    llvm-dis: {their_line:?}\n    ours:     {}",
                    our_line.map_or("(none)".to_string(), |l| format!("{l:?}"))
                ));
            }
        }
    }

    fn report(&self, corpus: &str, major: u32) {
        eprintln!(
            "{corpus}, LLVM {major}: {} / {} whole files, {} / {} functions and {} / {} declarations identical to \
             llvm-dis {major} (metadata and attribute numbers and attachments included); {} more functions differ \
             only in lines with metadata operands",
            self.identical_files,
            self.files,
            self.identical_functions,
            self.functions,
            self.identical_declarations,
            self.declarations,
            self.differ_only_in_metadata
        );
        for s in self.shown_files.iter().chain(&self.shown).chain(&self.shown_declarations) {
            eprintln!("  {s}");
        }
        eprintln!(
            "{corpus}, LLVM {major}: the typed API's view has the text's instructions in {} / {} bodies",
            self.typed_identical, self.typed_functions
        );
        for s in &self.typed_shown {
            eprintln!("  {s}");
        }
        for r in &self.rejected {
            eprintln!("  {r}");
        }
    }
}

/// Disassembles `file` with both tools and compares what `llvm-dis` reads.
fn check_file(llvm_dis: &Path, major: u32, file: &Path, tally: &mut Tally) {
    let label = file.file_name().unwrap().to_string_lossy().into_owned();
    let mut theirs = run(llvm_dis, &[file.as_os_str(), OsStr::new("-o"), OsStr::new("-")]);
    if major == 14 && !theirs.ok() && theirs.stderr.contains("-opaque-pointers") {
        // LLVM 14 reads its own opaque-pointer files only when told to.
        theirs = run(llvm_dis, &[OsStr::new("-opaque-pointers"), file.as_os_str(), OsStr::new("-o"), OsStr::new("-")]);
    }
    let version = major.to_string();
    let ours = run(
        Path::new(BIN),
        &[OsStr::new("--dis"), OsStr::new("--llvm-dis-version"), OsStr::new(&version), file.as_os_str()],
    );
    if ours.code == Some(2) && ours.stderr.contains("unknown option") {
        panic!(
            "bitstream-dump does not take `--dis --llvm-dis-version {major}` (yet?): {}\n\
             (this test compares that mode with llvm-dis; it needs it)",
            ours.why()
        );
    }
    // Several modules: llvm-dis writes them to files, not to stdout, says so and exits with 0.
    if !theirs.ok() || theirs.stdout.is_empty() {
        tally.rejected.push(format!("llvm-dis {major} does not disassemble {label}: {}", theirs.why()));
        if ours.crashed() {
            tally.failures.push(format!(
                "{label}: bitstream-dump --dis crashes (exit {:?}): {}",
                ours.code,
                ours.why()
            ));
        }
        return;
    }
    if !ours.ok() {
        let how = if ours.crashed() { "crashes" } else { "fails" };
        tally.failures.push(format!(
            "{label}: llvm-dis {major} reads it, bitstream-dump --dis {how} (exit {:?}): {}",
            ours.code,
            ours.why()
        ));
        return;
    }
    tally.files += 1;
    if theirs.stdout == ours.stdout {
        tally.identical_files += 1;
    } else if tally.shown_files.len() < SHOWN {
        let (t, o): (Vec<&str>, Vec<&str>) = (theirs.stdout.lines().collect(), ours.stdout.lines().collect());
        let at = t.iter().zip(&o).take_while(|(a, b)| a == b).count();
        let line = |lines: &[&str]| lines.get(at).map_or("(no line)".to_string(), |l| format!("{l:?}"));
        tally.shown_files.push(format!(
            "{label}, line {} of {} (ours has {}):\n    llvm-dis: {}\n    ours:     {}",
            at + 1,
            t.len(),
            o.len(),
            line(&t),
            line(&o)
        ));
    }
    tally.compare(&label, &exact_listing(&theirs.stdout), &exact_listing(&ours.stdout));
    typed_api_agrees(major, file, &label, &theirs.stdout, tally);
}

/// The opcode of an instruction line of `llvm-dis` text (`%3 = tail call …`: `call`), as
/// the Python package's `llvm_dis_text.opcode_of` reads it.
fn opcode_of(line: &str) -> &str {
    let line = line.trim_start();
    // `%name = ` or `%"a name" = ` before it.
    let result_end = match line.strip_prefix("%\"") {
        Some(quoted) => quoted.find('"').map(|i| i + 3),
        None if line.starts_with('%') => line.find(' '),
        None => None,
    };
    let line = match result_end {
        Some(end) if line[end..].starts_with(" = ") => &line[end + 3..],
        _ => line,
    };
    let mut words: Vec<&str> = line.split_whitespace().collect();
    if matches!(words.first(), Some(&("tail" | "musttail" | "notail"))) {
        words.remove(0);
    }
    words.first().map_or("", |w| w.trim_end_matches(','))
}

/// Each definition's instruction opcodes in `llvm-dis` text, in the text's order: a line at
/// two spaces starts an instruction (not a `]`, a continuation further in, or a `#dbg_`
/// record, which is no instruction).
fn text_opcodes(text: &str) -> Vec<Vec<&str>> {
    let mut out = Vec::new();
    for body in common::definitions(text) {
        let mut ops = Vec::new();
        for line in body {
            let b = line.as_bytes();
            if line.starts_with("  ") && b.len() > 2 && b[2] != b' ' && b[2] != b']' && !line.starts_with("  #dbg_") {
                ops.push(opcode_of(line));
            }
        }
        out.push(ops);
    }
    out
}

/// The typed API against the text: every body of the module as LLVM `major` reads it
/// (`Bodies::view`), in the view's function order, has the instructions, by opcode, that
/// `llvm-dis`'s text of that definition has (debug calls read as records gone, constant
/// expressions expanded, lifetime markers dropped, ...).
fn typed_api_agrees(major: u32, file: &Path, label: &str, text: &str, tally: &mut Tally) {
    use llvm_bitstream_reader::ir::{Module, view::Listed};
    let bytes = std::fs::read(file).unwrap();
    // A wrapped or multi-module file: the typed API's first module is not all of the text.
    let Ok(module) = Module::parse(&bytes) else { return };
    if text.matches("\nsource_filename = ").count() > 1 {
        return;
    }
    let Ok(bodies) = module.bodies() else { return };
    let view = bodies.view(major);
    let mut definitions = text_opcodes(text).into_iter();
    for &listed in view.function_order() {
        let Listed::Function(index) = listed else { continue };
        let Ok(Some(body)) = view.body(index) else { continue };
        let ours: Vec<&str> = body.instructions.iter().map(|inst| body.opcode_name(inst, view.types())).collect();
        let theirs = definitions.next().unwrap_or_default();
        tally.typed_functions += 1;
        if ours == theirs {
            tally.typed_identical += 1;
        } else if tally.typed_shown.len() < SHOWN {
            let name = String::from_utf8_lossy(view.function_name(index).unwrap_or_default()).into_owned();
            let at = ours.iter().zip(&theirs).take_while(|(a, b)| a == b).count();
            tally.typed_shown.push(format!(
                "{label} @{name}: the view's body has {} instructions, the text {}; at {at}: view {:?}, text {:?}",
                ours.len(),
                theirs.len(),
                ours.get(at),
                theirs.get(at)
            ));
        }
    }
}

/// Whether `llvm-as` of LLVM `major` takes the `ir_bodies` source `name`: `*.typed.ll` (typed
/// pointers) 13 and 14; `*.llvm19.ll` 19 and later; `*.llvm22.ll` 22 and later; any other
/// `*.ll` 15 and later, and 13 and 14 too unless a `.typed.ll` twin stands in for it there.
fn assembled_by(major: u32, name: &str, has_typed_twin: bool) -> bool {
    if name.ends_with(".typed.ll") {
        major <= 14
    } else if name.ends_with(".llvm22.ll") {
        major >= 22
    } else if name.ends_with(".llvm19.ll") {
        major >= 19
    } else {
        major >= 15 || !has_typed_twin
    }
}

/// The `ir_bodies` sources LLVM `major` takes, assembled into a scratch folder (never
/// committed). `None` (after printing why, or a panic under `CI=true`) without `llvm-as`.
fn ir_bodies(major: u32) -> Option<Vec<PathBuf>> {
    let llvm_as = llvm_tool("llvm-as", major)?;
    let src = repo_root().join("testdata/src/ir_bodies");
    let names: Vec<String> = std::fs::read_dir(&src)
        .unwrap_or_else(|e| panic!("{}: {e}", src.display()))
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".ll"))
        .collect();
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("dis-ir-bodies-{major}"));
    std::fs::create_dir_all(&dir).unwrap();
    let mut out = Vec::new();
    for name in &names {
        let stem = name.strip_suffix(".ll").unwrap();
        let twin = names.contains(&format!("{stem}.typed.ll"));
        if !assembled_by(major, name, twin) {
            continue;
        }
        let bc = dir.join(format!("{stem}.bc"));
        let args = [src.join(name).into_os_string(), OsString::from("-o"), bc.clone().into_os_string()];
        let assembled = run(&llvm_as, &args);
        // The files are written for 14 and later; LLVM 13 takes those without newer
        // syntax (`ptr` in a typed module, operand bundles on inline asm, …).
        if major == 13 && !assembled.ok() {
            continue;
        }
        assert!(assembled.ok(), "llvm-as {major} rejects testdata/src/ir_bodies/{name}: {}", assembled.stderr.trim());
        out.push(bc);
    }
    out.sort();
    assert!(out.len() >= 10, "only {} ir_bodies files for LLVM {major}", out.len());
    Some(out)
}

/// `testdata/src/upgrade/*.ll`, typed-pointer modules of what newer versions upgrade,
/// assembled with `llvm-as` 14 (`*.llvm13.ll` with 13) for the `reader` version's test
/// (into a scratch folder). `None` (after printing why, or a panic under `CI=true`)
/// without `llvm-as` 14 and 13.
fn upgrade_inputs(reader: u32) -> Option<Vec<PathBuf>> {
    let llvm_as = llvm_tool("llvm-as", 14)?;
    let llvm_as_13 = llvm_tool("llvm-as", 13)?;
    // LLVM 19's files only for the readers that read them.
    let llvm_as_19 = if reader >= 19 { Some(llvm_tool("llvm-as", 19)?) } else { None };
    let src = repo_root().join("testdata/src/upgrade");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("dis-upgrade-for-{reader}"));
    std::fs::create_dir_all(&dir).unwrap();
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&src).unwrap_or_else(|e| panic!("{}: {e}", src.display())) {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        let Some(stem) = name.strip_suffix(".ll") else { continue };
        let bc = dir.join(format!("{stem}.bc"));
        let args = [src.join(&name).into_os_string(), OsString::from("-o"), bc.clone().into_os_string()];
        let assembler = if name.ends_with(".llvm13.ll") {
            &llvm_as_13
        } else if name.ends_with(".llvm19.ll") {
            let Some(llvm_as_19) = &llvm_as_19 else { continue };
            llvm_as_19
        } else {
            &llvm_as
        };
        let assembled = run(assembler, &args);
        assert!(assembled.ok(), "llvm-as rejects testdata/src/upgrade/{name}: {}", assembled.stderr.trim());
        out.push(bc);
    }
    out.sort();
    Some(out)
}

/// The committed bitcode of LLVM `major`: `llvm14_*.bc` or `rustc_llvm22_*.bc`.
fn committed(major: u32) -> Vec<PathBuf> {
    let prefix = match major {
        14 => "llvm14_",
        22 => "rustc_llvm22_",
        _ => return Vec::new(),
    };
    testdata_files()
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "bc"))
        .filter(|p| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with(prefix)))
        .collect()
}

/// Debian's libclc-`major` bitcode, each library once (not again through its links). `None`
/// (after printing why, or a panic under `CI=true`) if it is not unpacked.
fn libclc(major: u32) -> Option<Vec<PathBuf>> {
    let root = std::env::var_os("LIBCLC_DIR").map(PathBuf::from).unwrap_or_else(|| repo_root().join("target/libclc"));
    let dir = root.join(major.to_string()).join("usr/lib/clc");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return skip_or_fail(&format!("libclc-{major} is not unpacked in {} (.ci/run does it)", dir.display()));
    };
    // Most are links to a few libraries (one per GPU family): each library once.
    let mut files: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "bc"))
        .filter_map(|p| p.canonicalize().ok())
        .collect();
    files.sort();
    files.dedup();
    Some(files)
}

/// The C sources of `testdata/src` that clang `major` compiles, as bitcode at three
/// optimization levels. `None` (after printing why, or a panic under `CI=true`) without
/// that clang.
fn clang_bitcode(major: u32, reader: u32) -> Option<Vec<PathBuf>> {
    let clang = llvm_tool("clang", major)?;
    // One folder per reading test too: the tests of each version run at once.
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("dis-clang-{major}-for-{reader}"));
    std::fs::create_dir_all(&dir).unwrap();
    let mut out = Vec::new();
    for name in ["remarks.c", "remarks_hot.c", "remarks_more.c", "diag_remarks.c", "dis_cases.c"] {
        let src = repo_root().join("testdata/src").join(name);
        for (tag, flags) in [("O0", &["-O0"][..]), ("O2", &["-O2"][..]), ("O1g", &["-O1", "-g"][..])] {
            let bc = dir.join(format!("{name}.{tag}.bc"));
            let mut args: Vec<OsString> = flags.iter().map(OsString::from).collect();
            args.extend(["-c", "-emit-llvm", "-o"].map(OsString::from));
            args.push(bc.clone().into_os_string());
            args.push(src.clone().into_os_string());
            let built = run(&clang, &args);
            assert!(built.ok(), "clang-{major} {name} {tag}: {}", built.why());
            out.push(bc);
        }
    }
    Some(out)
}

/// The targets of the `targets` corpus, each with the first clang here that has it: a
/// reader upgrades each one's datalayout and module flags its own way
/// (`ir::upgrade::upgraded_datalayout`, `module_flag_behavior`).
const TARGETS: &[(&str, u32)] = &[
    ("x86_64-unknown-linux-gnu", 13),
    ("x86_64h-apple-macosx", 13),
    ("i686-pc-windows-msvc", 13),
    ("i786-pc-linux-gnu", 13),
    ("i386-pc-elfiamcu", 13),
    ("aarch64-unknown-linux-gnu", 13),
    ("armv7-unknown-linux-gnueabihf", 13),
    ("riscv64-unknown-linux-gnu", 13),
    ("loongarch64-unknown-linux-gnu", 16),
    ("spir-unknown-unknown", 13),
    ("spir64-unknown-unknown", 13),
    ("spirv64-unknown-unknown", 14),
    ("amdgcn-amd-amdhsa", 13),
    ("r600-unknown-unknown", 13),
    ("nvptx64-nvidia-cuda", 13),
    ("s390x-unknown-linux-gnu", 13),
    ("sparcv9-unknown-linux-gnu", 13),
    ("sparc-unknown-linux-gnu", 13),
    ("mips64el-unknown-linux-gnuabi64", 13),
    ("mips-unknown-linux-gnu", 13),
    ("powerpc64le-unknown-linux-gnu", 13),
    ("powerpc64-ibm-aix", 13),
    ("powerpc-ibm-aix", 13),
    ("wasm32-unknown-unknown", 13),
    ("avr-unknown-unknown", 13),
];

/// `testdata/src/dis_cases.c` built by clang `major` at `-O2` for each of [`TARGETS`] it
/// has (on r600 and AVR, clang writes its label addresses as a `bitcast` between address
/// spaces, which LLVM's reader makes a `ptrtoint` and an `inttoptr`). `None` (after
/// printing why, or a panic under `CI=true`) without that clang.
fn target_bitcode(major: u32, reader: u32) -> Option<Vec<PathBuf>> {
    let clang = llvm_tool("clang", major)?;
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("dis-targets-{major}-for-{reader}"));
    std::fs::create_dir_all(&dir).unwrap();
    let mut out = Vec::new();
    for &(target, _) in TARGETS.iter().filter(|t| t.1 <= major) {
        let name = "dis_cases.c";
        let src = repo_root().join("testdata/src").join(name);
        let bc = dir.join(format!("{target}.{name}.bc"));
        let mut args: Vec<OsString> = ["-O2", "-nogpulib", "-c", "-emit-llvm"].iter().map(OsString::from).collect();
        args.push(format!("--target={target}").into());
        args.extend(["-o".into(), bc.clone().into_os_string(), src.into_os_string()]);
        let built = run(&clang, &args);
        assert!(built.ok(), "clang-{major} --target {target} {name}: {}", built.why());
        out.push(bc);
    }
    Some(out)
}

/// Combined ThinLTO indexes (what a distributed ThinLTO link writes: the summaries of
/// several modules, every value by GUID, the modules' paths and hashes): `testdata/src`'s
/// C sources built by clang `major` with `-flto=thin`, thin-linked by its `llvm-lto`
/// (`--thinlto-action=thinlink`), with the modules. `None` (after printing why, or a panic
/// under `CI=true`) without those tools.
fn thinlink_bitcode(major: u32, reader: u32) -> Option<Vec<PathBuf>> {
    let clang = llvm_tool("clang", major)?;
    let llvm_lto = llvm_tool("llvm-lto", major)?;
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("dis-thinlink-{major}-for-{reader}"));
    std::fs::create_dir_all(&dir).unwrap();
    let mut modules = Vec::new();
    for name in ["remarks.c", "remarks_more.c", "dis_cases.c"] {
        let bc = dir.join(format!("{name}.bc"));
        let src = repo_root().join("testdata/src").join(name);
        let args: Vec<OsString> = ["-O2", "-flto=thin", "-c", "-o"]
            .iter()
            .map(OsString::from)
            .chain([bc.clone().into_os_string(), src.into_os_string()])
            .collect();
        let built = run(&clang, &args);
        assert!(built.ok(), "clang-{major} -flto=thin {name}: {}", built.why());
        modules.push(bc);
    }
    let index = dir.join("thinlink.index.bc");
    let mut args: Vec<OsString> = vec!["--thinlto-action=thinlink".into(), "-o".into(), index.clone().into_os_string()];
    args.extend(modules.iter().map(|m| m.clone().into_os_string()));
    let linked = run(&llvm_lto, &args);
    assert!(linked.ok(), "llvm-lto-{major} --thinlto-action=thinlink: {}", linked.why());
    modules.push(index);
    Some(modules)
}

/// Phobos, D's standard library (its sources ship with LDC), compiled by Debian's LDC 1.30
/// (LLVM 14's writer, driven by another front end): four modules at `-O0 -g` and `-O2`.
/// LDC's type-info metadata (`!{%T* undef}` per class) is what merges when a newer LLVM
/// reads the typed pointers as opaque. `None` (after printing why, or a panic under
/// `CI=true`) without `ldc2`.
fn ldc_bitcode(reader: u32) -> Option<Vec<PathBuf>> {
    let ldc = Path::new("ldc2");
    if Command::new(ldc).arg("--version").output().is_err() {
        return skip_or_fail("ldc2 (Debian's `ldc`) is not installed");
    }
    let listed = Command::new(ldc).args(["-v", "-c", "-o-", "/dev/null"]).output().ok()?;
    let imports = String::from_utf8_lossy(&listed.stdout).into_owned() + &String::from_utf8_lossy(&listed.stderr);
    let phobos = imports
        .lines()
        .filter_map(|l| {
            l.strip_prefix("import path[").and_then(|l| l.split_once("= ")).map(|(_, p)| PathBuf::from(p.trim()))
        })
        .map(|p| p.join("std"))
        .find(|p| p.join("base64.d").exists());
    let Some(phobos) = phobos else { return skip_or_fail("ldc2 names no import path with Phobos's std/") };
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("dis-ldc-for-{reader}"));
    std::fs::create_dir_all(&dir).unwrap();
    let mut out = Vec::new();
    for module in ["base64", "bitmanip", "uri", "csv"] {
        for (tag, flags) in [("O0g", &["-O0", "-g"][..]), ("O2", &["-O2"][..])] {
            let bc = dir.join(format!("std.{module}.{tag}.bc"));
            let mut args: Vec<OsString> = flags.iter().map(OsString::from).collect();
            args.extend(["-c".into(), "-output-bc".into(), format!("-of={}", bc.display()).into()]);
            args.push(phobos.join(format!("{module}.d")).into_os_string());
            let built = run(ldc, &args);
            assert!(built.ok(), "ldc2 std/{module}.d {tag}: {}", built.why());
            out.push(bc);
        }
    }
    Some(out)
}

/// PostgreSQL's JIT bitcode, where a `postgresql-*` package installed it
/// (`/usr/lib/postgresql/*/lib/bitcode`; Debian's 15 is clang 14's): every combined index
/// (`*.index.bc`, one per extension and one of the server's 700 modules) and the first 60
/// extension modules. Empty without (it is no tool this test needs).
fn postgres_bitcode() -> Vec<PathBuf> {
    let Ok(versions) = std::fs::read_dir("/usr/lib/postgresql") else { return Vec::new() };
    let mut out = Vec::new();
    for version in versions.flatten() {
        let dir = version.path().join("lib/bitcode");
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        let mut modules = Vec::new();
        for e in entries.flatten() {
            let p = e.path();
            if p.extension().is_some_and(|x| x == "bc") {
                out.push(p);
            } else if p.is_dir() && p.file_name().is_some_and(|n| n != "postgres") {
                let files = std::fs::read_dir(&p).into_iter().flatten().flatten().map(|e| e.path());
                modules.extend(files.filter(|p| p.extension().is_some_and(|x| x == "bc")));
            }
        }
        modules.sort();
        out.extend(modules.into_iter().take(60));
    }
    out.sort();
    out
}

/// The bitcode modules of the Rust sysroot's rlibs, each written to a scratch `.bc` file.
fn sysroot_bitcode() -> Vec<PathBuf> {
    use llvm_bitstream_reader::container::ContainerFile;
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("dis-sysroot");
    std::fs::create_dir_all(&dir).unwrap();
    let mut out = Vec::new();
    for archive in common::sysroot_archives() {
        let Ok(file) = ContainerFile::open(&archive) else { continue };
        let Ok(streams) = file.bitstreams() else { continue };
        let stem = archive.file_stem().unwrap().to_string_lossy().into_owned();
        for (i, e) in streams.iter().enumerate() {
            let path = dir.join(format!("{stem}-{i}.bc"));
            std::fs::write(&path, e.bytes).unwrap();
            out.push(path);
        }
    }
    out.sort();
    out
}

/// How Zig is run: `$ZIG`, `zig` on the `PATH`, or PyPI's `ziglang` (`python3 -m ziglang`,
/// which `.ci/run` installs). `None` (after printing why, or a panic under `CI=true`)
/// without any.
fn zig() -> Option<Vec<OsString>> {
    let candidates: Vec<Vec<OsString>> = [
        std::env::var_os("ZIG").map(|z| vec![z]),
        Some(vec![OsString::from("zig")]),
        Some(vec![OsString::from("python3"), OsString::from("-m"), OsString::from("ziglang")]),
    ]
    .into_iter()
    .flatten()
    .collect();
    for c in candidates {
        let ok = Command::new(&c[0]).args(&c[1..]).arg("version").output().is_ok_and(|o| o.status.success());
        if ok {
            return Some(c);
        }
    }
    skip_or_fail("Zig not found ($ZIG, zig on the PATH, or `python3 -m pip install ziglang`)")
}

/// The Zig programs of `testdata/src/zig`, each built by Zig's own bitcode writer for
/// eight targets, one optimization mode per target (rotating over the programs, so that
/// each program meets every mode): files whose attribute order, constant expressions and
/// alignments no LLVM writer makes. `tools/fidelity/make-zig-corpus.sh` builds every
/// target and mode. `None` (after printing why, or a panic under `CI=true`) without Zig.
fn zig_bitcode() -> Option<Vec<PathBuf>> {
    let zig = zig()?;
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("dis-zig");
    std::fs::create_dir_all(&dir).unwrap();
    let src_dir = repo_root().join("testdata/src/zig");
    let mut sources: Vec<PathBuf> = std::fs::read_dir(&src_dir)
        .unwrap_or_else(|e| panic!("{}: {e}", src_dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "zig"))
        .collect();
    sources.sort();
    assert!(sources.len() >= 4, "the Zig programs of {} are gone", src_dir.display());
    let targets = [
        "x86_64-linux",
        "aarch64-linux",
        "arm-linux-musleabihf",
        "riscv64-linux",
        "powerpc64le-linux",
        "wasm32-wasi",
        "x86_64-windows",
        "aarch64-macos",
    ];
    let modes = ["Debug", "ReleaseFast", "ReleaseSmall"];
    let mut out = Vec::new();
    for (i, src) in sources.iter().enumerate() {
        let stem = src.file_stem().unwrap().to_string_lossy().into_owned();
        for (j, target) in targets.iter().enumerate() {
            let mode = modes[(i + j) % modes.len()];
            let bc = dir.join(format!("{stem}-{target}-{mode}.bc"));
            let mut args: Vec<OsString> = zig[1..].to_vec();
            args.push("build-obj".into());
            let mut emit = OsString::from("-femit-llvm-bc=");
            emit.push(&bc);
            args.push(emit);
            args.extend(["-fno-emit-bin", &format!("-O{mode}"), "-target", target].map(OsString::from));
            args.push(src.clone().into_os_string());
            // Zig writes its cache beside the working directory's: the scratch folder's.
            let built = Command::new(&zig[0]).args(&args).current_dir(&dir).output().unwrap();
            assert!(
                built.status.success(),
                "zig build-obj {stem} -target {target} -O{mode}: {}",
                String::from_utf8_lossy(&built.stderr)
            );
            out.push(bc);
        }
    }
    Some(out)
}

/// Every corpus of LLVM `major` against its `llvm-dis`: reports each, then checks them.
fn differential(major: u32) {
    let Some(llvm_dis) = llvm_tool("llvm-dis", major) else { return };
    let mut corpora = Vec::new();
    if let Some(files) = ir_bodies(major) {
        corpora.push(("ir_bodies", files));
    }
    let files = committed(major);
    if !files.is_empty() {
        corpora.push(("testdata", files));
    }
    if let Some(files) = libclc(major) {
        corpora.push(("libclc", files));
    }
    if let Some(files) = clang_bitcode(major, major) {
        corpora.push(("clang", files));
    }
    if let Some(files) = upgrade_inputs(major) {
        corpora.push(("upgrade", files));
    }
    // Combined indexes of a thin link, by the reading version's tools and by LLVM 14's.
    let thin_producers = if major > 14 { vec![major, 14] } else { vec![major] };
    for producer in thin_producers {
        if let Some(files) = thinlink_bitcode(producer, major) {
            corpora.push((if producer == major { "thinlink" } else { "thinlink14" }, files));
        }
    }
    // LDC (LLVM 14) files: read by 14 and the versions that upgrade them.
    if major >= 14 {
        if let Some(files) = ldc_bitcode(major) {
            corpora.push(("ldc", files));
        }
    }
    let postgres = postgres_bitcode();
    if postgres.is_empty() {
        eprintln!("no PostgreSQL JIT bitcode under /usr/lib/postgresql/*/lib/bitcode: that corpus is not compared");
    } else {
        corpora.push(("postgres", postgres));
    }
    // Two dozen targets, by the reading version's clang and older ones.
    for producer in [major, 14, 16, 19].into_iter().filter(|&p| p <= major) {
        if let Some(files) = target_bitcode(producer, major) {
            let corpus = match producer {
                _ if producer == major => "targets",
                14 => "targets14",
                16 => "targets16",
                _ => "targets19",
            };
            corpora.push((corpus, files));
        }
    }
    let llvm_tests: Vec<PathBuf> = {
        let dir = repo_root().join("testdata/llvm-tests");
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "bc"))
            .collect();
        files.sort();
        files
    };
    corpora.push(("llvm-tests", llvm_tests));
    // Older producers, which the reading version upgrades (`ir::upgrade`): clang 14's
    // files read by 15, 16, 19 and 22, clang 19's by 22.
    for producer in [14, 19].into_iter().filter(|&p| p < major) {
        if let Some(files) = clang_bitcode(producer, major) {
            corpora.push((if producer == 14 { "clang14" } else { "clang19" }, files));
        }
    }
    if major == 14 {
        let repo = repo_root().join("testdata");
        let extra: Vec<PathBuf> = testdata_files()
            .into_iter()
            .filter(|p| !p.starts_with(&repo) && p.extension().is_some_and(|e| e == "bc"))
            .collect();
        if !extra.is_empty() {
            corpora.push(("extra", extra));
        }
    }
    if major == 22 {
        let files = sysroot_bitcode();
        if files.is_empty() {
            skip_or_fail::<()>("no bitcode in the Rust sysroot's rlibs");
        } else {
            corpora.push(("sysroot", files));
        }
        // Zig 0.17 (LLVM 22) writes its bitcode itself.
        if let Some(files) = zig_bitcode() {
            corpora.push(("zig", files));
        }
    }
    let mut problems = Vec::new();
    for (corpus, files) in &corpora {
        let mut tally = Tally::default();
        for file in files {
            check_file(&llvm_dis, major, file, &mut tally);
        }
        tally.report(corpus, major);
        problems.extend(tally.failures.iter().map(|f| format!("{corpus}: {f}")));
        if tally.files == 0 {
            problems.push(format!("{corpus}: llvm-dis {major} read none of its {} files", files.len()));
        }
        // Files of other LLVMs (`extra`) meet `llvm-dis` 14's upgrades: reported only.
        let held = *corpus != "extra";
        if held && tally.identical_files != tally.files {
            problems.push(format!(
                "{corpus}, LLVM {major}: {} of {} whole files differ",
                tally.files - tally.identical_files,
                tally.files
            ));
        }
        if held && (tally.identical_functions != tally.functions || tally.identical_declarations != tally.declarations)
        {
            problems.push(format!(
                "{corpus}, LLVM {major}: {} functions ({} of them only in lines with metadata operands) and {} declarations differ",
                tally.functions - tally.identical_functions,
                tally.differ_only_in_metadata,
                tally.declarations - tally.identical_declarations
            ));
        }
        if held && tally.typed_identical != tally.typed_functions {
            problems.push(format!(
                "{corpus}, LLVM {major}: the typed API's view differs from the text in {} of {} bodies",
                tally.typed_functions - tally.typed_identical,
                tally.typed_functions
            ));
        }
        for &(_, _, functions, declarations) in FLOORS.iter().filter(|f| f.0 == *corpus && f.1 == major) {
            if tally.identical_functions < functions || tally.identical_declarations < declarations {
                problems.push(format!(
                    "{corpus}, LLVM {major}: {} functions and {} declarations identical, below the floors {functions} and {declarations}",
                    tally.identical_functions, tally.identical_declarations
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{} problems:\n{}", problems.len(), problems.join("\n"));
}

#[test]
fn dis_matches_llvm_dis_13() {
    differential(13);
}

#[test]
fn dis_matches_llvm_dis_14() {
    differential(14);
}

#[test]
fn dis_matches_llvm_dis_15() {
    differential(15);
}

#[test]
fn dis_matches_llvm_dis_16() {
    differential(16);
}

#[test]
fn dis_matches_llvm_dis_19() {
    differential(19);
}

#[test]
fn dis_matches_llvm_dis_22() {
    differential(22);
}

// ---- The harness itself ------------------------------------------------------------------

#[test]
fn listing_normalizes_numbers_and_drops_attachments_only() {
    let text = r##"; ModuleID = 'x.bc'
@g = global i32 0, !dbg !0

; Function Attrs: nounwind
define internal fastcc i32 @"two words\22"(i32 %x) #3 personality ptr @p !dbg !12 !prof !7 {
entry:
  %a = add i32 %x, 1, !dbg !15
  %b = load i32, ptr @g, align 4, !tbaa !20, !range !21, !llvm.loop !22
  call void @llvm.dbg.value(metadata i32 %a, metadata !30, metadata !DIExpression()), !dbg !15
    #dbg_value(i32 %a, !30, !DIExpression(), !15)
  %s = call ptr @f(ptr @"#1") #12
  ret i32 %b
}

declare !dbg !40 !kind !41 void @h(i32) #0
declare i32 @plain(ptr)
define void @cut(
"##;
    let l = listing(text);
    let expected_body = [
        "define internal fastcc i32 @\"two words\\22\"(i32 %x) #N personality ptr @p {",
        "entry:",
        "  %a = add i32 %x, 1",
        "  %b = load i32, ptr @g, align 4",
        "  call void @llvm.dbg.value(metadata i32 %a, metadata !N, metadata !DIExpression())",
        "    #dbg_value(i32 %a, !N, !DIExpression(), !N)",
        "  %s = call ptr @f(ptr @\"#N\") #N",
        "  ret i32 %b",
        "}",
    ];
    assert_eq!(l.functions["two words\""], expected_body);
    assert_eq!(l.functions["cut"], ["define void @cut("]);
    assert_eq!(l.declarations["h"], "declare void @h(i32) #N");
    assert_eq!(l.declarations["plain"], "declare i32 @plain(ptr)");
    assert_eq!(l.functions.len() + l.declarations.len(), 4);
    // What differs otherwise stays different.
    let other = listing(&text.replace("add i32 %x, 1, !dbg !15", "add nsw i32 %x, 1, !dbg !16"));
    assert_ne!(other.functions["two words\""], expected_body);
    assert_eq!(listing(&text.replace("!dbg !15", "!dbg !99").replace("#3", "#0")), l);
}

/// What the harness test puts before a module's first function: a declaration with a new
/// attribute group and a global with a metadata attachment, so that `llvm-dis` numbers every
/// attribute group and most metadata one higher.
const SHIFT: &str = "@shift.the.numbers = global i8 0, !shift !1000000
declare void @shift.the.attribute.groups() #1000000
attributes #1000000 = { cold noinline \"shift\" }
!1000000 = !{!\"shift\"}
";

/// The harness on LLVM's own text: `llvm-dis` output compared with itself, and with
/// `llvm-dis` of its re-assembly with [`SHIFT`] added: function for function the same once
/// normalized, though the numbers in them differ.
fn harness_on_llvm_dis(major: u32, mut files: Vec<PathBuf>) {
    let (Some(llvm_dis), Some(llvm_as)) = (llvm_tool("llvm-dis", major), llvm_tool("llvm-as", major)) else { return };
    files.extend(ir_bodies(major).unwrap_or_default());
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("dis-harness-{major}"));
    std::fs::create_dir_all(&dir).unwrap();
    let mut tally = Tally::default();
    let mut renumbered = 0;
    for file in &files {
        let label = file.file_name().unwrap().to_string_lossy().into_owned();
        let disassemble = |bc: &Path| {
            let text = run(&llvm_dis, &[bc.as_os_str(), OsStr::new("-o"), OsStr::new("-")]);
            assert!(text.ok() && !text.stdout.is_empty(), "llvm-dis {major} {}: {}", bc.display(), text.why());
            text.stdout
        };
        let text = disassemble(file);
        let once = listing(&text);
        assert_eq!(listing(&text), once);
        let first = text.find("\ndefine ").or_else(|| text.find("\ndeclare ")).map_or(text.len(), |i| i + 1);
        let ll = dir.join(format!("{label}.ll"));
        let bc = dir.join(format!("{label}.bc"));
        std::fs::write(&ll, format!("{}{SHIFT}{}", &text[..first], &text[first..])).unwrap();
        let assembled = run(&llvm_as, &[ll.as_os_str(), OsStr::new("-o"), bc.as_os_str()]);
        assert!(assembled.ok(), "llvm-as {major} {}: {}", ll.display(), assembled.why());
        let again = disassemble(&bc);
        let body_lines = |t: &str| -> Vec<String> {
            t.lines().filter(|l| l.starts_with("define ") || l.starts_with("  ")).map(String::from).collect()
        };
        let (before, after) = (body_lines(&text), body_lines(&again));
        assert_eq!(before.len(), after.len(), "{label}: the shift changed more than numbers");
        renumbered += before.iter().zip(&after).filter(|(b, a)| b != a).count();
        tally.files += 1;
        tally.compare(&label, &once, &listing(&again));
    }
    tally.report("llvm-dis against itself, renumbered", major);
    eprintln!("  ({renumbered} lines of the functions differ before normalization)");
    assert!(tally.functions >= 100, "only {} functions", tally.functions);
    assert!(renumbered >= 20, "only {renumbered} lines renumbered: the shift did not take");
    assert_eq!(tally.identical_functions, tally.functions);
    assert_eq!(tally.identical_declarations, tally.declarations);
}

#[test]
fn harness_pairs_llvm_dis_14_with_itself() {
    let files = ["llvm14_ir_instructions.bc", "llvm14_ir_debuginfo.bc", "llvm14_ir_globals.bc"];
    harness_on_llvm_dis(14, files.iter().map(|f| common::testdata(f)).collect());
}

#[test]
fn harness_pairs_llvm_dis_22_with_itself() {
    harness_on_llvm_dis(22, vec![common::testdata("rustc_llvm22_o0_debuginfo.bc")]);
}

/// A version whose `llvm-dis` the printer does not match is refused (exit 2, the range
/// named), not printed as the newest one's text.
#[test]
fn llvm_dis_versions_not_matched_are_refused() {
    let file = repo_root().join("testdata/rustc_llvm22_o3.bc");
    for version in ["12", "23", "99"] {
        let ours = run(
            Path::new(BIN),
            &[OsStr::new("--dis"), OsStr::new("--llvm-dis-version"), OsStr::new(version), file.as_os_str()],
        );
        assert_eq!(ours.code, Some(2), "--llvm-dis-version {version}: {}", ours.why());
        assert!(ours.stderr.contains(&format!("no llvm-dis {version} to match: 13 to 22")), "{}", ours.stderr);
        assert!(ours.stdout.is_empty());
    }
    let ours = run(
        Path::new(BIN),
        &[OsStr::new("--dis"), OsStr::new("--llvm-dis-version"), OsStr::new("22"), file.as_os_str()],
    );
    assert!(ours.ok() && ours.stdout.starts_with("; ModuleID"), "{}", ours.why());
}
