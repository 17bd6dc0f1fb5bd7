//! A cut bitcode file: `--dis`, `--summary` and `--nm` print what the library recovers,
//! exit 1, and say on one line of standard error, naming the path once, where the read
//! broke.

mod common;

use std::path::PathBuf;
use std::process::Command;

use common::{BIN, testdata};
use llvm_bitstream_reader::ir::Module;

/// `name` cut to `percent`% of its length, written to the test's target directory.
fn cut(name: &str, percent: usize) -> (PathBuf, Vec<u8>) {
    let bytes = std::fs::read(testdata(name)).unwrap();
    let kept = bytes[..bytes.len() * percent / 100].to_vec();
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("cut{percent}-{name}"));
    std::fs::write(&path, &kept).unwrap();
    (path, kept)
}

/// Runs the analyzer; returns stdout and stderr, asserting the failure exit and the one
/// line of standard error that names the path once and says where the read broke.
fn run_cut(args: &[&str], path: &PathBuf) -> String {
    let out = Command::new(BIN).args(args).arg(path).output().unwrap();
    let (stdout, stderr) = (String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap());
    assert_eq!(out.status.code(), Some(1), "{args:?} {}: {stderr}", path.display());
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 1, "{args:?}: one line of stderr, not {stderr:?}");
    let path = path.display().to_string();
    assert_eq!(lines[0].matches(&path).count(), 1, "{args:?}: the path once: {}", lines[0]);
    assert!(lines[0].starts_with("bitstream-dump: "), "{}", lines[0]);
    assert!(lines[0].contains(" bit "), "{args:?}: where: {}", lines[0]);
    stdout
}

#[test]
fn a_cut_file_prints_what_it_holds_and_fails_with_one_line() {
    for name in ["rustc_llvm22_o0_debuginfo.bc", "rustc_llvm22_o3.bc"] {
        for percent in [30, 50, 75, 90] {
            let (path, bytes) = cut(name, percent);
            let (module, error) = Module::parse_partial(&bytes);
            let (module, error) = (module.unwrap(), error.unwrap());
            let with_body = module.functions.iter().filter(|f| f.body.is_some()).count();

            // --dis: every complete function.
            let dis = run_cut(&["--dis"], &path);
            let defines = dis.lines().filter(|l| l.starts_with("define ")).count();
            assert_eq!(defines, with_body, "{name} at {percent}%: {error}");
            assert!(defines > 0 || percent < 50, "{name} at {percent}%");
            assert!(dis.contains("target triple = "));

            // --summary: the module, and where it was cut.
            let summary = run_cut(&["--summary"], &path);
            assert!(summary.contains("target triple:   x86_64"), "{summary}");
            if module.block.cut_bit().is_some() {
                assert!(summary.contains(&format!("; {with_body} of ")), "{summary}");
            }

            // --nm: the symbols it can name (debug info names the O0 file's functions).
            let nm = run_cut(&["--nm"], &path);
            if name.contains("debuginfo") && with_body > 0 {
                assert!(nm.lines().count() >= with_body, "{name} at {percent}%: {nm}");
            }
        }
    }
}

#[test]
fn a_whole_file_still_reads_without_error() {
    for args in [&["--dis"][..], &["--summary"][..], &["--nm"][..]] {
        let out = Command::new(BIN).args(args).arg(testdata("rustc_llvm22_o3.bc")).output().unwrap();
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        assert!(out.stderr.is_empty());
        assert!(!out.stdout.is_empty());
    }
}
