//! Damaged inputs: `bitstream-dump -dump` prints the events as it reads them and reports
//! the error where reading stops, after them, as `llvm-bcanalyzer -dump` does.
//!
//! Against `llvm-bcanalyzer` (LLVM 14): every LLVM 14 test file cut at several 4-byte
//! boundaries, and the malformed files on which both stop at an error of the stream, must
//! give the same standard output (the same events, up to the same point) and both fail.
//! On the other malformed files the two differ on purpose (see the README's "Differences
//! from LLVM, on purpose"), or `llvm-bcanalyzer` crashes, or it refuses a size that is not
//! a multiple of 4 bytes before reading anything.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::{BIN, bcanalyzer, testdata, testdata_files};
use llvm_bitstream_reader::Bitstream;

/// Malformed files on which both stop at an error of the stream with the same output.
const SAME_STOP: &[&str] = &[
    "abbrev-width-0.bin",
    "abbrev-width-65.bin",
    "array-count-2pow40.bin",
    "array-fixed32-count-past-end.bin",
    "block-id-vbr-over-32-bits.bin",
    "blockinfo-abbrev-before-setbid.bin",
    "blockinfo-record-before-setbid.bin",
    "blockinfo-setbid-without-operand.bin",
    "define-abbrev-at-top-level.bin",
    "end-block-at-top-level.bin",
    "nesting-1025-deep.bin",
    "record-at-top-level.bin",
    "wrapper-offset-inside-header.bin",
    "wrapper-offset-past-end.bin",
    "wrapper-offset-u32-max.bin",
    "wrapper-size-cuts-block.bin",
    "wrapper-size-past-end.bin",
    "wrapper-size-too-small-for-magic.bin",
];

fn run(program: &Path, args: &[&str], file: &Path) -> Output {
    Command::new(program).args(args).arg(file).output().expect("run")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The first line of our error, which must name the bit where reading stopped.
fn our_error(out: &Output, file: &Path) -> String {
    let stderr = text(&out.stderr);
    let line = stderr.lines().next().unwrap_or_default().to_string();
    assert!(
        line.starts_with("bitstream-dump: ") && line.contains(": error: ") && line.contains("bit "),
        "{}: no error with a bit offset on stderr: {stderr}",
        file.display()
    );
    line
}

/// How `-dump` on a file ended, when both programs printed the same.
struct Stop {
    /// Whether both failed (else both succeeded).
    failed: bool,
    /// llvm-bcanalyzer's standard error.
    theirs: String,
    /// The first line of our error, if we failed.
    ours: String,
    /// Whether we stopped at a blob cut by the end of the input, which llvm-bcanalyzer
    /// reads filled with zeros.
    cut_blob: bool,
}

/// Compares `-dump` on `file`: the same standard output and the same success.
fn compare(tool: &Path, file: &Path) -> Stop {
    let theirs = run(tool, &["-dump"], file);
    let ours = run(Path::new(BIN), &["-dump"], file);
    assert!(
        theirs.status.code().is_some_and(|c| c <= 1),
        "{}: llvm-bcanalyzer crashed: {}",
        file.display(),
        text(&theirs.stderr)
    );
    let (t, o) = (text(&theirs.stdout), text(&ours.stdout));
    if ignores_trailing_bytes(file) {
        // The one difference on a cut file: we end the stream there (and print the
        // statistics), llvm-bcanalyzer reads a block header and runs out of input.
        assert!(ours.status.success() && !theirs.status.success(), "{}", file.display());
        assert!(o.starts_with(&t), "{}: llvm-bcanalyzer's output is not a prefix of ours", file.display());
        return Stop { failed: false, theirs: text(&theirs.stderr), ours: String::new(), cut_blob: false };
    }
    if !ours.status.success() && text(&ours.stderr).contains("runs past the end of the input") && t != o {
        // The other: a blob cut by the end of the input. LLVM 14 fills it with zeros,
        // prints the record and reads on (README: "Blobs that run past the end are
        // errors"); we stop before the record.
        assert!(t.starts_with(&o), "{}: our output is not a prefix of llvm-bcanalyzer's", file.display());
        return Stop { failed: true, theirs: String::new(), ours: our_error(&ours, file), cut_blob: true };
    }
    if t != o {
        let (tl, ol): (Vec<&str>, Vec<&str>) = (t.lines().collect(), o.lines().collect());
        let n = tl.iter().zip(&ol).take_while(|(a, b)| a == b).count();
        panic!(
            "{}: the output differs at line {} ({} lines against {}):\n llvm-bcanalyzer: {:?}\n bitstream-dump:  {:?}\n llvm-bcanalyzer's error: {}\n our error: {}",
            file.display(),
            n + 1,
            tl.len(),
            ol.len(),
            tl.get(n).map(|l| l.chars().take(300).collect::<String>()),
            ol.get(n).map(|l| l.chars().take(300).collect::<String>()),
            text(&theirs.stderr).trim(),
            text(&ours.stderr).trim()
        );
    }
    assert_eq!(theirs.status.success(), ours.status.success(), "{}: {}", file.display(), text(&ours.stderr));
    let failed = !ours.status.success();
    let ours = if failed { our_error(&ours, file) } else { String::new() };
    Stop { failed, theirs: text(&theirs.stderr), ours, cut_blob: false }
}

/// Whether the library reads `file` to its end but for 1 to 8 bytes after the last
/// complete top-level block, which it ignores as LLVM's `getBitcodeFileContents` does
/// (README: "up to 8 trailing bytes after the last block are ignored"), and
/// `llvm-bcanalyzer` does not.
fn ignores_trailing_bytes(file: &Path) -> bool {
    let bytes = std::fs::read(file).unwrap();
    let Ok(stream) = Bitstream::parse(&bytes) else { return false };
    let mut reader = stream.reader();
    for event in reader.by_ref() {
        if event.is_err() {
            return false;
        }
    }
    reader.end_bit().is_some_and(|end| end < stream.bytes().len() as u64 * 8)
}

/// Whether our error on a cut file says what llvm-bcanalyzer's says: the input ran out
/// (an operand count, array or blob that the rest of the input cannot hold is found out
/// before reading it; a cut blob is the README's difference), or the wrapper header's
/// size is past the end.
fn same_reason(theirs: &str, ours: &str) -> bool {
    let ran_out = ["unexpected end of input", "larger than the input could hold", "past the end of the input"];
    if ours.contains("bad bitcode wrapper header") {
        return theirs.contains("Invalid bitcode wrapper header");
    }
    ran_out.iter().any(|s| ours.contains(s))
        && (theirs.is_empty()
            || ["Unexpected end of file", "Premature end of bitstream"].iter().any(|s| theirs.contains(s)))
}

fn llvm14_files() -> Vec<PathBuf> {
    testdata_files()
        .into_iter()
        .filter(|f| {
            let name = f.file_name().unwrap().to_string_lossy();
            name.starts_with("llvm14_") || name.starts_with("clang14_")
        })
        .collect()
}

/// `bytes` cut at `cuts` 4-byte boundaries spread over the file (and just after the magic).
fn cut_points(len: usize, cuts: usize) -> Vec<usize> {
    let mut points: Vec<usize> = (1..=cuts).map(|i| (len * i / (cuts + 1)) & !3).collect();
    points.push(8);
    points.sort_unstable();
    points.dedup();
    points.retain(|&p| p >= 4 && p < len);
    points
}

#[test]
fn cut_files_stop_where_llvm_bcanalyzer_stops() {
    let Some(tool) = bcanalyzer() else { return };
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cut-files");
    std::fs::create_dir_all(&dir).unwrap();
    let (mut runs, mut failed, mut trailing, mut blobs) = (0, 0, 0, 0);
    for file in llvm14_files() {
        let bytes = std::fs::read(&file).unwrap();
        for cut in cut_points(bytes.len(), 12) {
            let name = format!("{}.cut{cut}", file.file_name().unwrap().to_string_lossy());
            let path = dir.join(name);
            std::fs::write(&path, &bytes[..cut]).unwrap();
            runs += 1;
            trailing += usize::from(ignores_trailing_bytes(&path));
            let stop = compare(&tool, &path);
            if !stop.failed {
                continue;
            }
            failed += 1;
            blobs += usize::from(stop.cut_blob);
            assert!(
                same_reason(&stop.theirs, &stop.ours),
                "{}: different reasons:\n llvm-bcanalyzer: {}\n bitstream-dump: {}",
                path.display(),
                stop.theirs.trim(),
                stop.ours
            );
        }
    }
    println!(
        "{runs} cut files: {} errors with the same output as llvm-bcanalyzer up to the error; {blobs} \
         stopping at a cut blob (llvm-bcanalyzer reads it filled with zeros, then goes on); {trailing} \
         ending 1 to 8 bytes after a block (we ignore those bytes, llvm-bcanalyzer fails)",
        failed - blobs
    );
    assert!(runs >= 100 && failed * 10 >= runs * 8, "{runs} runs, {failed} errors");
}

#[test]
fn malformed_files_stop_where_llvm_bcanalyzer_stops() {
    let Some(tool) = bcanalyzer() else { return };
    for name in SAME_STOP {
        let file = testdata("malformed").join(name);
        assert!(compare(&tool, &file).failed, "{name}: no error");
    }
}

/// Without LLVM: a cut file prints what it holds, the block with the length its header
/// declares, then the error.
#[test]
fn a_cut_file_prints_its_events_then_the_error() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cut-one");
    std::fs::create_dir_all(&dir).unwrap();
    let bytes = std::fs::read(testdata("llvm14_ir_globals.bc")).unwrap();
    let path = dir.join("globals.cut2000.bc");
    std::fs::write(&path, &bytes[..2000]).unwrap();
    for args in [&["-dump"][..], &["--format", "json"]] {
        let out = run(Path::new(BIN), args, &path);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let stdout = text(&out.stdout);
        let error = our_error(&out, &path);
        assert!(error.contains("larger than the input could hold"), "{error}");
        if args == ["-dump"] {
            assert!(stdout.contains("<MODULE_BLOCK NumWords=1066 BlockCodeSize=3>"), "{stdout}");
            assert!(stdout.lines().count() > 200, "{stdout}");
            assert!(!stdout.contains("Summary of"), "no statistics after an error");
        } else {
            assert!(stdout.contains(r#""event":"enter","depth":0,"block_id":8,"block":"MODULE_BLOCK""#), "{stdout}");
        }
    }
    // The statistics need the whole stream.
    let out = run(Path::new(BIN), &[], &path);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
}

/// A block whose length word runs past the end of the input but whose END_BLOCK comes
/// first: its events are printed, then the library's error about the length.
#[test]
fn a_block_longer_than_the_input_is_an_error_after_its_events() {
    let file = testdata("malformed/block-length-past-end.bin");
    let out = run(Path::new(BIN), &["-dump"], &file);
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    assert!(stdout.starts_with("<UnknownBlock8 NumWords=1000 BlockCodeSize=3>\n"), "{stdout}");
    assert!(stdout.ends_with("</UnknownBlock8>\n"), "{stdout}");
    assert!(our_error(&out, &file).contains("declares 1000 words, running past the end"));
}
