//! The `diag` module against libclang (LLVM 14): on every `.dia` file we have, the lines
//! of `Diagnostic::write_formatted`, each diagnostic followed by its notes recursively,
//! must equal byte for byte what `clang_formatDiagnostic(d,
//! clang_defaultDiagnosticDisplayOptions())` prints for the diagnostics libclang's
//! `clang_loadDiagnostics` reads (tests/libclang/format_diagnostics.c), with its children
//! from `clang_getChildDiagnostics`. Then the rules of the format, one test each, and
//! robustness: every file cut at every byte, and every malformed stream. A second
//! comparison (`--details`) checks the parts libclang gives beyond the line: category,
//! option, every range and fix-it.

#![cfg_attr(not(feature = "writer"), allow(unused_imports, dead_code))] // the tests that write files need `writer`

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use llvm_bitstream_reader::diag::{Diagnostics, Level};
use llvm_bitstream_reader::{BlockId, Error as DiagError, Unknown};

use common::{skip_or_fail, testdata_files};

fn testdata(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata").join(name)
}

/// Every `.dia` file of testdata/ that is one well-formed stream (and of
/// `EXTRA_TESTDATA_DIR`, see `common::testdata_files`).
fn dia_files() -> Vec<PathBuf> {
    let files: Vec<PathBuf> =
        testdata_files().into_iter().filter(|p| p.extension().is_some_and(|e| e == "dia")).collect();
    assert!(files.len() >= 6, "testdata/ lost its .dia files: {files:?}");
    files
}

/// The concatenated file (testdata/diag/) and the two files it was made of.
const CONCATENATED: (&str, &str, &str) =
    ("diag/clang14_diag_concatenated.dia", "clang14_diag_fatal.dia", "clang14_diag_remarks.dia");

/// Our lines for a file's bytes: what `format_diagnostics FILE` prints.
fn our_lines(bytes: &[u8]) -> Result<Vec<u8>, DiagError> {
    let diags = Diagnostics::parse(bytes)?;
    let mut out = Vec::new();
    for (_, d) in diags.walk() {
        d.write_formatted(&mut out);
        out.push(b'\n');
    }
    Ok(out)
}

/// Our lines with the parts of each diagnostic: what `format_diagnostics --details FILE`
/// prints (see tests/libclang/format_diagnostics.c).
fn our_details(bytes: &[u8]) -> Vec<u8> {
    use std::io::Write;
    fn location(out: &mut Vec<u8>, l: &llvm_bitstream_reader::diag::Location<'_>) {
        if let Some(file) = l.file {
            out.extend_from_slice(file.name.until_nul());
        }
        write!(out, ":{}:{}:{}", l.line, l.column, l.offset).unwrap();
    }
    let diags = Diagnostics::parse(bytes).unwrap();
    let mut out = Vec::new();
    for (_, d) in diags.walk() {
        d.write_formatted(&mut out);
        let (id, text) = d.category().map_or((0, &b""[..]), |c| (c.id, c.name.until_nul()));
        write!(out, "\n  category {id} ").unwrap();
        out.extend_from_slice(text);
        out.extend_from_slice(b"\n  option ");
        if let Some(flag) = d.flag().filter(|f| !f.name.until_nul().is_empty()) {
            out.extend_from_slice(b"-W");
            out.extend_from_slice(flag.name.until_nul());
        }
        out.push(b'\n');
        for r in d.ranges() {
            out.extend_from_slice(b"  range ");
            location(&mut out, &r.start);
            out.push(b' ');
            location(&mut out, &r.end);
            out.push(b'\n');
        }
        for f in d.fixits() {
            out.extend_from_slice(b"  fixit ");
            location(&mut out, &f.range.start);
            out.push(b' ');
            location(&mut out, &f.range.end);
            out.push(b' ');
            out.extend_from_slice(f.replacement.until_nul());
            out.push(b'\n');
        }
    }
    out
}

/// The libclang-14 formatter (tests/libclang/format_diagnostics.c), built once per test
/// binary; `None` after printing why (or a panic under `CI=true`) if it cannot be built.
fn libclang_formatter() -> Option<PathBuf> {
    static BUILT: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    let built = BUILT.get_or_init(|| {
        let libdir = match Command::new("llvm-config-14").arg("--libdir").output() {
            Ok(o) if o.status.success() => PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()),
            _ => PathBuf::from("/usr/lib/llvm-14/lib"),
        };
        let includedir = libdir.parent().unwrap_or(Path::new("/usr/lib/llvm-14")).join("include");
        if !includedir.join("clang-c/Index.h").exists() || !libdir.join("libclang.so").exists() {
            return Err(format!(
                "libclang 14 not found ({}/clang-c/Index.h, {}/libclang.so; apt-get install libclang-14-dev)",
                includedir.display(),
                libdir.display()
            ));
        }
        let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/libclang/format_diagnostics.c");
        let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("format_diagnostics");
        let rpath = format!("-Wl,-rpath,{}", libdir.display());
        let status = Command::new("cc")
            .arg("-O2")
            .arg(format!("-I{}", includedir.display()))
            .arg(&source)
            .arg(format!("-L{}", libdir.display()))
            .arg("-lclang")
            .arg(rpath)
            .arg("-o")
            .arg(&out)
            .output();
        match status {
            Ok(o) if o.status.success() => Ok(out),
            Ok(o) => Err(format!("building {} failed: {}", source.display(), String::from_utf8_lossy(&o.stderr))),
            Err(e) => Err(format!("cannot run cc: {e}")),
        }
    });
    match built {
        Ok(p) => Some(p.clone()),
        Err(reason) => skip_or_fail(reason),
    }
}

/// What libclang prints for `file`: `Ok(lines)`, or `Err(its error message)`. Run in an
/// empty directory: libclang's file manager looks the relative names up on disk, and a
/// name that is a real file could be printed as another name of the same file.
fn libclang_lines(formatter: &Path, file: &Path) -> Result<Vec<u8>, String> {
    libclang_run(formatter, &[], file)
}

/// `format_diagnostics ARGS FILE`, in an empty directory.
fn libclang_run(formatter: &Path, args: &[&str], file: &Path) -> Result<Vec<u8>, String> {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("libclang-cwd");
    std::fs::create_dir_all(&dir).unwrap();
    let out =
        Command::new(formatter).args(args).arg(file).current_dir(&dir).output().expect("run the libclang formatter");
    if out.status.success() { Ok(out.stdout) } else { Err(String::from_utf8_lossy(&out.stderr).into_owned()) }
}

#[test]
fn every_file_formats_as_libclang_formats_it() {
    let Some(formatter) = libclang_formatter() else { return };
    let mut lines = 0;
    for file in dia_files() {
        let theirs = libclang_lines(&formatter, &file).unwrap_or_else(|e| panic!("libclang: {e}"));
        let bytes = std::fs::read(&file).unwrap();
        let ours = our_lines(&bytes).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        for (i, (a, b)) in ours.split(|&c| c == b'\n').zip(theirs.split(|&c| c == b'\n')).enumerate() {
            assert_eq!(
                String::from_utf8_lossy(a),
                String::from_utf8_lossy(b),
                "{} line {}: ours, then libclang's",
                file.display(),
                i + 1
            );
        }
        assert_eq!(ours, theirs, "{}: ours, then libclang's", file.display());
        lines += theirs.iter().filter(|&&c| c == b'\n').count();
    }
    assert!(lines >= 60, "only {lines} lines compared");
    eprintln!("{} files, {lines} lines: identical to libclang's", dia_files().len());
}

/// Beyond the line: category, option, every range and fix-it, as libclang's accessors
/// give them.
#[test]
fn every_part_is_what_libclang_gives() {
    let Some(formatter) = libclang_formatter() else { return };
    let (mut ranges, mut fixits) = (0, 0);
    for file in dia_files() {
        let theirs = libclang_run(&formatter, &["--details"], &file).unwrap_or_else(|e| panic!("libclang: {e}"));
        let ours = our_details(&std::fs::read(&file).unwrap());
        assert_eq!(String::from_utf8_lossy(&ours), String::from_utf8_lossy(&theirs), "{}", file.display());
        let text = String::from_utf8_lossy(&theirs);
        ranges += text.lines().filter(|l| l.starts_with("  range ")).count();
        fixits += text.lines().filter(|l| l.starts_with("  fixit ")).count();
    }
    assert!(ranges >= 40 && fixits >= 10, "{ranges} ranges, {fixits} fix-its compared");
    eprintln!("{ranges} ranges and {fixits} fix-its: identical to libclang's");
}

#[test]
fn concatenated_streams_read_as_libclang_reads_each() {
    let Some(formatter) = libclang_formatter() else { return };
    let (both, first, second) = CONCATENATED;
    // libclang rejects the concatenation itself.
    assert!(libclang_lines(&formatter, &testdata(both)).is_err());
    let mut expected = libclang_lines(&formatter, &testdata(first)).unwrap();
    expected.extend(libclang_lines(&formatter, &testdata(second)).unwrap());
    let bytes = std::fs::read(testdata(both)).unwrap();
    assert_eq!(String::from_utf8_lossy(&our_lines(&bytes).unwrap()), String::from_utf8_lossy(&expected));
    assert_eq!(Diagnostics::parse(&bytes).unwrap().streams(), 2);

    // Every pair of files, concatenated in memory: the ids of the second stream are its own.
    let files = dia_files();
    for a in &files {
        for b in files.iter().step_by(3) {
            let mut bytes = std::fs::read(a).unwrap();
            bytes.extend(std::fs::read(b).unwrap());
            let mut expected = libclang_lines(&formatter, a).unwrap();
            expected.extend(libclang_lines(&formatter, b).unwrap());
            assert_eq!(our_lines(&bytes).unwrap(), expected, "{} + {}", a.display(), b.display());
        }
    }
}

/// The tree: notes are the nested DIAG blocks, in file order; the walk is pre-order.
#[test]
fn notes_nest_under_their_diagnostic() {
    let bytes = std::fs::read(testdata("clang14_diag_macros.dia")).unwrap();
    let diags = Diagnostics::parse(&bytes).unwrap();
    let shift = diags.iter().find(|d| d.flag().is_some_and(|f| f.name.as_bytes() == b"shift-count-overflow")).unwrap();
    let notes: Vec<String> = shift.children().map(|n| n.message().to_string()).collect();
    assert_eq!(notes, ["expanded from macro 'WRAP'", "expanded from macro 'INNER'"]);
    assert!(shift.children().all(|n| n.level() == Level::Note && n.flag().is_none()));
    // An include-stack note is written before the record of the diagnostic it explains,
    // and still belongs to it.
    let division = diags.iter().find(|d| d.message().as_bytes().starts_with(b"division by zero")).unwrap();
    let first_note = division.children().next().unwrap();
    assert!(first_note.record_bit_offset().unwrap() < division.record_bit_offset().unwrap());
    // The walk: every diagnostic once, depth 0 for the top-level ones.
    let top = diags.iter().count();
    assert_eq!(diags.walk().filter(|(depth, _)| *depth == 0).count(), top);
    assert_eq!(diags.walk().count(), diags.len());
    let children_total: usize = diags.walk().map(|(_, d)| d.children().count()).sum();
    assert_eq!(children_total + top, diags.len());
}

#[test]
fn a_diagnostic_without_location_has_no_file() {
    let bytes = std::fs::read(testdata("clang14_diag_macros.dia")).unwrap();
    let diags = Diagnostics::parse(&bytes).unwrap();
    let first = diags.iter().next().unwrap();
    assert!(first.location().file.is_none());
    assert_eq!(first.to_string(), "warning: unknown warning option '-Wbogus-warning-flag' [-Wunknown-warning-option]");
}

/// A location prints as the prefix libclang puts before the level (the whole line is
/// compared with libclang in `lines_equal_libclang`), and pads like a string.
#[test]
fn locations_print_as_file_line_col() {
    let mut with_file = 0;
    for name in ["clang14_diagnostics.dia", "clang14_diag_cxx.dia", "clang14_diag_macros.dia"] {
        let bytes = std::fs::read(testdata(name)).unwrap();
        let diags = Diagnostics::parse(&bytes).unwrap();
        for (_, d) in diags.walk() {
            let loc = d.location();
            if loc.file.is_none() {
                assert_eq!(loc.to_string(), "<invalid loc>");
                continue;
            }
            with_file += 1;
            let line = d.to_string();
            assert!(line.starts_with(&format!("{loc}: ")), "{line:?} vs {loc}");
            let padded = format!("{loc:<60}|");
            assert_eq!(padded.chars().count(), loc.to_string().chars().count().max(60) + 1);
        }
    }
    assert!(with_file > 10, "{with_file}");
}

#[test]
fn remarks_print_as_warnings_as_in_libclang() {
    let bytes = std::fs::read(testdata("clang14_diag_remarks.dia")).unwrap();
    let diags = Diagnostics::parse(&bytes).unwrap();
    assert_eq!(diags.len(), 3);
    assert!(diags.iter().all(|d| d.level() == Level::Remark && d.flag().unwrap().name.as_bytes() == b"pass"));
    assert!(diags.iter().any(|d| d.to_string().contains(": warning: 'add' inlined into 'sum'")));
}

#[test]
fn fixits_ranges_and_tables() {
    let bytes = std::fs::read(testdata("clang14_diagnostics.dia")).unwrap();
    let diags = Diagnostics::parse(&bytes).unwrap();
    assert_eq!(diags.version(), Some(llvm_bitstream_reader::diag::VERSION));
    // "expected ';' at end of declaration": a fix-it inserting ";" (an empty range).
    let semi = diags.iter().find(|d| d.message().as_bytes() == b"expected ';' at end of declaration").unwrap();
    let fix = semi.fixits()[0];
    assert_eq!(fix.replacement.as_bytes(), b";");
    assert_eq!(fix.range.start, fix.range.end);
    assert_eq!(fix.range.start.line, semi.location().line);
    // Every flag a diagnostic names is in the table, under the same id.
    for (_, d) in diags.walk() {
        if let Some(flag) = d.flag() {
            assert_eq!(diags.flag(flag.id).unwrap().name, flag.name);
        }
        if let Some(file) = d.location().file {
            assert_eq!(diags.file(file.id).unwrap().name, file.name);
        }
        for r in d.ranges() {
            assert!(r.start.line <= r.end.line && r.start.file.is_some());
        }
    }
    assert_eq!(diags.files().len(), 2);
    assert!(diags.categories().iter().any(|c| c.name.as_bytes() == b"Semantic Issue"));
    assert!(diags.unknown().is_empty());
}

/// Every file cut at every byte: a clean error or a partial result, never a panic, and
/// what a partial read returns is a prefix of the whole file's diagnostics.
#[test]
fn truncated_files_give_errors_or_prefixes() {
    let mut files = dia_files();
    files.push(testdata(CONCATENATED.0));
    for file in files {
        let bytes = std::fs::read(&file).unwrap();
        let whole = our_lines(&bytes).unwrap();
        for cut in 0..bytes.len() {
            let (partial, error) = Diagnostics::parse_partial(&bytes[..cut]);
            let mut lines = Vec::new();
            for (_, d) in partial.walk() {
                d.write_formatted(&mut lines);
                lines.push(b'\n');
            }
            assert!(whole.starts_with(&lines), "{} cut at {cut}: not a prefix", file.display());
            if let Some(e) = error {
                assert!(e.bit_offset() <= cut as u64 * 8 + 64, "{} cut at {cut}: {e}", file.display());
            }
        }
    }
}

/// Issue 29: a cut file gives back every diagnostic before the cut. Every `.dia` file of
/// testdata (and the concatenated one), cut at every byte: no panic; a longer prefix never
/// gives fewer diagnostics than a shorter one; the whole file gives what `parse` gives;
/// an error falls inside the prefix (its bit offset at most 8 × the prefix length).
#[test]
fn a_cut_file_gives_back_every_diagnostic_before_the_cut() {
    let mut files = dia_files();
    files.push(testdata(CONCATENATED.0));
    let mut prefixes = 0;
    for file in files {
        let name = file.display().to_string();
        let bytes = std::fs::read(&file).unwrap();
        let whole = Diagnostics::parse(&bytes).unwrap();
        let (mut last, mut most) = (0, 0);
        for cut in 0..=bytes.len() {
            let (partial, error) = Diagnostics::parse_partial(&bytes[..cut]);
            let n = partial.len();
            assert!(n >= last, "{name}: {n} diagnostics cut at {cut}, {last} at {}", cut - 1);
            last = n;
            most = most.max(n);
            if let Some(e) = &error {
                assert!(e.bit_offset() <= cut as u64 * 8, "{name} cut at {cut}: {e}");
            }
            if cut == bytes.len() {
                assert!(error.is_none(), "{name}: {error:?}");
                assert_eq!(n, whole.len(), "{name}");
                assert!(
                    partial.walk().zip(whole.walk()).all(|((da, a), (db, b))| da == db
                        && a.message() == b.message()
                        && a.location() == b.location())
                );
            }
            prefixes += 1;
        }
        eprintln!("{name}: {} prefixes, up to {most} diagnostics, monotone", bytes.len() + 1);
    }
    assert!(prefixes > 10_000, "{prefixes}");
}

/// The malformed streams of testdata/malformed, as they are and with a `DIAG` magic.
#[test]
fn malformed_streams_are_errors_not_panics() {
    let dir = testdata("malformed");
    let mut n = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "bin") {
            continue;
        }
        let mut bytes = std::fs::read(&path).unwrap();
        let _ = Diagnostics::parse_partial(&bytes);
        if bytes.len() >= 4 {
            bytes[..4].copy_from_slice(b"DIAG");
            let _ = Diagnostics::parse_partial(&bytes);
        }
        n += 1;
    }
    assert!(n >= 40);
    assert!(matches!(Diagnostics::parse(b"BC\xc0\xde\x35\x14\x00\x00"), Err(DiagError::WrongMagic { .. })));
    assert!(matches!(Diagnostics::parse(b"DI"), Err(DiagError::TooShortForMagic { .. })));
}

#[cfg(feature = "writer")]
mod written {
    //! Files written on purpose with the crate's writer, with the abbreviations clang uses.

    use super::*;
    use llvm_bitstream_reader::AbbrevOp::{self, Blob, Fixed, Literal, Vbr};
    use llvm_bitstream_reader::ids::clang_diag::raw;
    use llvm_bitstream_reader::writer::BitstreamWriter;

    const LOC: [AbbrevOp; 4] = [Fixed(10), Fixed(32), Fixed(32), Fixed(32)];

    fn diag_abbrev() -> Vec<AbbrevOp> {
        let mut a = vec![Literal(2), Fixed(3)];
        a.extend(LOC);
        a.extend([Fixed(10), Fixed(10), Vbr(16), Blob]);
        a
    }
    const FILENAME: [AbbrevOp; 6] = [Literal(6), Fixed(10), Fixed(32), Fixed(32), Fixed(16), Blob];
    const FLAG: [AbbrevOp; 4] = [Literal(4), Fixed(10), Fixed(16), Blob];
    const UNKNOWN: [AbbrevOp; 2] = [Literal(42), Fixed(8)];
    const RANGE_WITH_EXTRA: [AbbrevOp; 10] =
        [Literal(3), Fixed(10), Fixed(32), Fixed(32), Fixed(32), Fixed(10), Fixed(32), Fixed(32), Fixed(32), Fixed(8)];

    const RANGE: [AbbrevOp; 9] =
        [Literal(3), Fixed(10), Fixed(32), Fixed(32), Fixed(32), Fixed(10), Fixed(32), Fixed(32), Fixed(32)];

    /// Local abbreviations of a DIAG block, in id order from 4.
    fn define_all(w: &mut BitstreamWriter) {
        w.define_abbrev(&diag_abbrev());
        w.define_abbrev(&FILENAME);
        w.define_abbrev(&FLAG);
        w.define_abbrev(&UNKNOWN);
        w.define_abbrev(&RANGE_WITH_EXTRA);
        w.define_abbrev(&RANGE);
    }

    fn range(w: &mut BitstreamWriter, line: u64) {
        w.write_abbreviated(9, &RANGE, 3, &[1, line, 1, 0, 1, line, 5, 4], None).unwrap();
    }

    fn meta(w: &mut BitstreamWriter) {
        w.enter_block(raw::BLOCK_META, 3);
        w.define_abbrev(&[Literal(1), Fixed(32)]);
        w.write_abbreviated(4, &[Literal(1), Fixed(32)], 1, &[2], None).unwrap();
        w.end_block();
    }

    fn diag_record(w: &mut BitstreamWriter, level: u64, file: u64, line: u64, flag: u64, message: &str) {
        let ops = [level, file, line, 3, 40, 0, flag, message.len() as u64];
        w.write_abbreviated(4, &diag_abbrev(), 2, &ops, Some(message.as_bytes())).unwrap();
    }

    /// An unknown record and an unknown block inside a diagnostic, and an unknown
    /// top-level block: clang's reader passes over them, and so do we.
    fn with_unknown_parts() -> Vec<u8> {
        let mut w = BitstreamWriter::new(*b"DIAG");
        meta(&mut w);
        w.enter_block(77, 3);
        w.write_unabbrev(1, &[1, 2, 3]);
        w.end_block();
        w.enter_block(raw::BLOCK_DIAG, 4);
        define_all(&mut w);
        w.write_abbreviated(5, &FILENAME, 6, &[1, 0, 0, 5], Some(b"x.swift")).unwrap();
        w.write_abbreviated(6, &FLAG, 4, &[1, 3], Some(b"foo")).unwrap();
        w.write_abbreviated(7, &UNKNOWN, 42, &[9], None).unwrap();
        diag_record(&mut w, 2, 1, 7, 1, "a warning");
        w.enter_block(78, 3);
        w.write_unabbrev(2, &[]);
        w.end_block();
        w.enter_block(raw::BLOCK_DIAG, 4);
        define_all(&mut w);
        diag_record(&mut w, 1, 0, 0, 0, "a note without location");
        w.end_block();
        w.end_block();
        w.enter_block(raw::BLOCK_DIAG, 4);
        define_all(&mut w);
        diag_record(&mut w, 4, 1, 9, 0, "a fatal error");
        w.end_block();
        w.finish()
    }

    #[test]
    fn unknown_records_and_blocks_are_passed_over_as_libclang_does() {
        let bytes = with_unknown_parts();
        let diags = Diagnostics::parse(&bytes).unwrap();
        let skipped = diags.unknown();
        assert!(matches!(skipped[0], Unknown::Block { block_id: BlockId(77), .. }), "{skipped:?}");
        assert!(matches!(skipped[1], Unknown::Record { code: 42, .. }), "{skipped:?}");
        assert!(matches!(skipped[2], Unknown::Block { block_id: BlockId(78), .. }), "{skipped:?}");
        let ours = our_lines(&bytes).unwrap();
        assert_eq!(
            String::from_utf8_lossy(&ours),
            "x.swift:7:3: warning: a warning [-Wfoo]\nnote: a note without location\nx.swift:9:3: fatal error: a fatal error\n"
        );
        let Some(formatter) = libclang_formatter() else { return };
        let file = Path::new(env!("CARGO_TARGET_TMPDIR")).join("diag-unknown-parts.dia");
        std::fs::write(&file, &bytes).unwrap();
        assert_eq!(
            String::from_utf8_lossy(&ours),
            String::from_utf8_lossy(&libclang_lines(&formatter, &file).unwrap())
        );
    }

    /// Notes nested as deep as the reader allows: read, walked and formatted without
    /// recursion trouble.
    #[test]
    fn deeply_nested_notes() {
        let mut w = BitstreamWriter::new(*b"DIAG");
        meta(&mut w);
        let depth = 1000;
        for i in 0..depth {
            w.enter_block(raw::BLOCK_DIAG, 4);
            define_all(&mut w);
            diag_record(&mut w, if i == 0 { 3 } else { 1 }, 0, 0, 0, "deep");
        }
        for _ in 0..depth {
            w.end_block();
        }
        let bytes = w.finish();
        let diags = Diagnostics::parse(&bytes).unwrap();
        assert_eq!(diags.len(), depth);
        assert_eq!(diags.walk().last().unwrap().0, depth - 1);
        assert_eq!(diags.iter().count(), 1);
        let mut d = diags.iter().next().unwrap();
        for _ in 1..depth {
            assert_eq!(d.children().count(), 1);
            d = d.children().next().unwrap();
        }
        assert_eq!(d.to_string(), "note: deep");
        assert!(format!("{:?}", diags.iter().next().unwrap()).len() > depth);
    }

    /// A diagnostic's range written after one of its notes is still the diagnostic's, as
    /// in libclang (clang writes include-stack notes before the diagnostic's own records).
    #[test]
    fn ranges_after_a_note_belong_to_their_diagnostic() {
        let mut w = BitstreamWriter::new(*b"DIAG");
        meta(&mut w);
        w.enter_block(raw::BLOCK_DIAG, 4);
        define_all(&mut w);
        w.write_abbreviated(5, &FILENAME, 6, &[1, 0, 0, 3], Some(b"a.c")).unwrap();
        range(&mut w, 1);
        w.enter_block(raw::BLOCK_DIAG, 4);
        define_all(&mut w);
        diag_record(&mut w, 1, 1, 2, 0, "note");
        range(&mut w, 2);
        w.end_block();
        diag_record(&mut w, 3, 1, 1, 0, "error");
        range(&mut w, 3);
        w.end_block();
        let bytes = w.finish();
        let diags = Diagnostics::parse(&bytes).unwrap();
        let error = diags.iter().next().unwrap();
        let lines =
            |d: &llvm_bitstream_reader::diag::Diagnostic| d.ranges().iter().map(|r| r.start.line).collect::<Vec<_>>();
        assert_eq!(lines(&error), [1, 3]);
        assert_eq!(lines(&error.children().next().unwrap()), [2]);
        let Some(formatter) = libclang_formatter() else { return };
        let file = Path::new(env!("CARGO_TARGET_TMPDIR")).join("diag-late-range.dia");
        std::fs::write(&file, &bytes).unwrap();
        let theirs = libclang_run(&formatter, &["--details"], &file).unwrap();
        assert_eq!(String::from_utf8_lossy(&our_details(&bytes)), String::from_utf8_lossy(&theirs));
    }

    #[test]
    fn a_file_id_must_be_defined_before_it_is_used() {
        let mut w = BitstreamWriter::new(*b"DIAG");
        meta(&mut w);
        w.enter_block(raw::BLOCK_DIAG, 4);
        define_all(&mut w);
        let record_bit = w.bit_position();
        diag_record(&mut w, 3, 2, 1, 0, "which file?");
        w.end_block();
        let bytes = w.finish();
        match Diagnostics::parse(&bytes) {
            Err(e @ DiagError::IndexOutOfRange { index: 2, .. }) => assert_eq!(e.bit_offset(), record_bit),
            other => panic!("{other:?}"),
        }
        // libclang refuses the file too ("Corrupted file entry in source location").
        let Some(formatter) = libclang_formatter() else { return };
        let file = Path::new(env!("CARGO_TARGET_TMPDIR")).join("diag-unknown-file.dia");
        std::fs::write(&file, &bytes).unwrap();
        assert!(libclang_lines(&formatter, &file).unwrap_err().contains("Corrupted file entry"));
    }

    #[test]
    fn short_records_are_errors_and_extra_operands_are_noted() {
        let mut w = BitstreamWriter::new(*b"DIAG");
        meta(&mut w);
        w.enter_block(raw::BLOCK_DIAG, 4);
        define_all(&mut w);
        diag_record(&mut w, 2, 0, 0, 0, "fine");
        w.write_abbreviated(8, &RANGE_WITH_EXTRA, 3, &[0, 1, 1, 0, 0, 1, 2, 0, 7], None).unwrap();
        w.end_block();
        let good = w.clone().finish();
        let diags = Diagnostics::parse(&good).unwrap();
        assert!(matches!(diags.unknown(), [Unknown::ExtraOperands { code: 3, operands: 9, .. }]));
        assert_eq!(diags.iter().next().unwrap().ranges().len(), 1);

        w.enter_block(raw::BLOCK_DIAG, 4);
        let short_bit = w.bit_position();
        w.write_unabbrev(raw::RECORD_FIXIT, &[0, 0, 0, 0]);
        w.end_block();
        let bad = w.finish();
        match Diagnostics::parse_partial(&bad) {
            (partial, Some(e @ DiagError::RecordTooShort { found: 4, needed: 9, .. })) => {
                assert_eq!(e.bit_offset(), short_bit);
                // The complete diagnostic before the bad one is kept.
                assert_eq!(partial.len(), 1);
            }
            other => panic!("{other:?}"),
        }
    }
}
