//! Issue 29: on a cut file, `--diagnostics`, `--remarks` and the LLVM 1.x modes print what
//! the library recovers before the cut, then fail (exit status 1) with exactly one line on
//! standard error, `bitstream-dump: PATH: error: MESSAGE`, naming the path once.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::{BIN, testdata};
use llvm_bitstream_reader::diag::Diagnostics;
use llvm_bitstream_reader::legacy;
use llvm_bitstream_reader::remarks::RemarksFile;

/// A scratch directory of this test process.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bitstream-dump-cut-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn dump(args: &[&str], file: &Path) -> Output {
    Command::new(BIN).args(args).arg(file).output().expect("run bitstream-dump")
}

/// The run failed with one line on stderr, `bitstream-dump: PATH: error: ...`, the path
/// in it once.
fn assert_one_error_line(out: &Output, file: &Path, what: &str) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    let path = file.display().to_string();
    assert_eq!(out.status.code(), Some(1), "{what}: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "{what}: not one line: {stderr}");
    assert!(stderr.ends_with('\n'), "{what}: {stderr}");
    let prefix = format!("bitstream-dump: {path}: error: ");
    assert!(stderr.starts_with(&prefix), "{what}: {stderr}");
    assert_eq!(stderr.matches(&path).count(), 1, "{what}: the path more than once: {stderr}");
    assert!(stderr.len() > prefix.len() + 1, "{what}: no message: {stderr}");
}

/// The lengths to cut `bytes` at: every `stride`-th, and the last few.
fn cuts(bytes: &[u8], stride: usize) -> impl Iterator<Item = usize> + '_ {
    (1..bytes.len()).filter(move |&c| c % stride == 0 || c + 4 > bytes.len())
}

#[test]
fn a_cut_dia_file_prints_the_diagnostics_before_the_cut_then_one_error() {
    let file = testdata("clang14_diagnostics.dia");
    let bytes = std::fs::read(&file).unwrap();
    let whole = dump(&["--diagnostics"], &file);
    assert!(whole.status.success());
    let dir = scratch("dia");
    let (mut runs, mut with_output) = (0, 0);
    for cut in cuts(&bytes, 41) {
        let (diags, error) = Diagnostics::parse_partial(&bytes[..cut]);
        let path = dir.join(format!("cut{cut}.dia"));
        std::fs::write(&path, &bytes[..cut]).unwrap();
        if error.is_none() {
            // Cut between two top-level blocks: a shorter file, whole (the format has no
            // end marker).
            assert!(dump(&["--diagnostics"], &path).status.success(), "cut at {cut}");
            continue;
        }
        for json in [false, true] {
            let args: &[&str] = if json { &["--diagnostics", "--format", "json"] } else { &["--diagnostics"] };
            let out = dump(args, &path);
            assert_one_error_line(&out, &path, &format!("cut at {cut}"));
            if !json {
                assert!(whole.stdout.starts_with(&out.stdout), "cut at {cut}: not the whole file's first lines");
                assert_eq!(out.stdout.iter().filter(|&&b| b == b'\n').count(), diags.len(), "cut at {cut}");
                if !diags.is_empty() {
                    assert!(!out.stdout.is_empty());
                    with_output += 1;
                }
            }
        }
        runs += 1;
    }
    std::fs::remove_dir_all(&dir).ok();
    assert!(runs > 50 && with_output > 20, "{runs} cuts, {with_output} with diagnostics");
}

#[test]
fn a_cut_remarks_file_prints_the_remarks_before_the_cut_then_one_error() {
    let file = testdata("llvm19_remarks_standalone.opt.bitstream");
    let bytes = std::fs::read(&file).unwrap();
    let whole = dump(&["--remarks"], &file);
    assert!(whole.status.success());
    let dir = scratch("remarks");
    let (mut runs, mut with_output) = (0, 0);
    for cut in cuts(&bytes, 23) {
        let (partial, error) = RemarksFile::parse_partial(&bytes[..cut]);
        let kept = partial.and_then(|f| f.remarks().ok()).map_or(0, |r| r.count());
        let path = dir.join(format!("cut{cut}.opt.bitstream"));
        std::fs::write(&path, &bytes[..cut]).unwrap();
        if error.is_none() {
            // Cut between two remark blocks: a shorter file, whole.
            assert!(dump(&["--remarks"], &path).status.success(), "cut at {cut}");
            continue;
        }
        for json in [false, true] {
            let args: &[&str] = if json { &["--remarks", "--format", "json"] } else { &["--remarks"] };
            let out = dump(args, &path);
            assert_one_error_line(&out, &path, &format!("cut at {cut}"));
            if !json {
                assert!(whole.stdout.starts_with(&out.stdout), "cut at {cut}: not the whole file's first remarks");
                assert_eq!(out.stdout.starts_with(b"---"), kept > 0, "cut at {cut}: {kept} remarks");
                if kept > 0 {
                    with_output += 1;
                }
            }
        }
        runs += 1;
    }
    std::fs::remove_dir_all(&dir).ok();
    assert!(runs > 50 && with_output > 10, "{runs} cuts, {with_output} with remarks");
}

/// `declare int %getchar()` and `int %main() { call int %getchar(); ret }` as bytecode
/// version 5 (the `legacy` module's example, as in analyzer.rs).
const GETCHAR_MODULE: [u8; 76] = [
    108, 108, 118, 109, 1, 0, 0, 0, 64, 0, 0, 0, 80, 198, 0, 0, 0, 2, 13, 7, 0, 16, 13, 69, 1, 0, 0, 0, 209, 3, 193, 3,
    0, 0, 0, 0, 0, 162, 1, 0, 0, 0, 7, 1, 0, 0, 117, 14, 16, 0, 5, 7, 16, 0, 68, 2, 0, 0, 0, 2, 14, 1, 7, 103, 101,
    116, 99, 104, 97, 114, 2, 4, 109, 97, 105, 110,
];

#[test]
fn a_cut_legacy_file_prints_the_blocks_before_the_cut_then_one_error() {
    let dir = scratch("legacy");
    let whole_path = dir.join("whole.bc");
    std::fs::write(&whole_path, GETCHAR_MODULE).unwrap();
    let whole = dump(&[], &whole_path);
    assert!(whole.status.success());
    let mut with_blocks = 0;
    for cut in 4..GETCHAR_MODULE.len() {
        let bytes = &GETCHAR_MODULE[..cut];
        let path = dir.join(format!("cut{cut}.bc"));
        std::fs::write(&path, bytes).unwrap();
        // The block tree: the header lines and every block before the first broken one.
        let out = dump(&[], &path);
        assert_one_error_line(&out, &path, &format!("cut at {cut}"));
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(stdout.starts_with("LLVM 1.x bytecode"), "cut at {cut}: {stdout}");
        let (module, _) = legacy::Bytecode::parse_partial(bytes);
        let blocks = module.map_or(0, |m| m.walk().count());
        assert_eq!(stdout.lines().filter(|l| l.contains(" (type 0x")).count(), blocks, "cut at {cut}: {stdout}");
        if blocks > 0 {
            with_blocks += 1;
        }
        // `--dis`: the module as far as it reads.
        let out = dump(&["--dis"], &path);
        assert_one_error_line(&out, &path, &format!("--dis cut at {cut}"));
        if legacy::Module::parse_partial(bytes).0.is_some_and(|m| !m.functions.is_empty()) {
            assert!(!out.stdout.is_empty(), "--dis cut at {cut}");
        }
    }
    std::fs::remove_dir_all(&dir).ok();
    assert!(with_blocks > 30, "{with_blocks}");
}
