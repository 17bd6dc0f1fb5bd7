//! `bitstream-dump --diagnostics`: the lines are the library's libclang lines (which
//! tests/diag.rs compares with libclang itself), nothing else is on standard output, and
//! `--format json` carries the same diagnostics with their ranges, fix-its and notes.

mod common;

use std::process::Command;

use llvm_bitstream_reader::diag::Diagnostics;

use common::{BIN, testdata, testdata_files};

fn dia_files() -> Vec<std::path::PathBuf> {
    let mut files: Vec<_> =
        testdata_files().into_iter().filter(|p| p.extension().is_some_and(|e| e == "dia")).collect();
    files.push(testdata("diag/clang14_diag_concatenated.dia"));
    assert!(files.len() >= 7, "testdata lost its .dia files: {files:?}");
    files
}

#[test]
fn lines_are_the_library_lines() {
    for file in dia_files() {
        let out = Command::new(BIN).arg("--diagnostics").arg(&file).output().unwrap();
        assert!(out.status.success(), "{}: {}", file.display(), String::from_utf8_lossy(&out.stderr));
        assert!(out.stderr.is_empty());
        let bytes = std::fs::read(&file).unwrap();
        let diags = Diagnostics::parse(&bytes).unwrap();
        let mut expected = Vec::new();
        for (_, d) in diags.walk() {
            d.write_formatted(&mut expected);
            expected.push(b'\n');
        }
        assert_eq!(String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&expected), "{}", file.display());
    }
}

/// Counts the diagnostics of a JSON tree, notes included, and checks what each carries.
fn count(diags: &serde_json::Value) -> usize {
    diags
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            for key in ["level", "location", "message", "ranges", "fixits", "formatted"] {
                assert!(d.get(key).is_some(), "{key} missing in {d}");
            }
            1 + count(&d["children"])
        })
        .sum()
}

#[test]
fn json_has_every_diagnostic_with_ranges_and_fixits() {
    for file in dia_files() {
        let out = Command::new(BIN).args(["--diagnostics", "--format", "json"]).arg(&file).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let lines = Command::new(BIN).arg("--diagnostics").arg(&file).output().unwrap().stdout;
        let line_count = lines.iter().filter(|&&c| c == b'\n').count();
        assert_eq!(count(&json["diagnostics"]), line_count, "{}", file.display());
        // The `formatted` fields, in pre-order, are the lines.
        fn formatted(d: &serde_json::Value, out: &mut String) {
            for d in d.as_array().unwrap() {
                out.push_str(d["formatted"].as_str().unwrap());
                out.push('\n');
                formatted(&d["children"], out);
            }
        }
        let mut text = String::new();
        formatted(&json["diagnostics"], &mut text);
        assert_eq!(text, String::from_utf8_lossy(&lines));
    }
    let out =
        Command::new(BIN).args(["--diagnostics", "--format=json"]).arg(testdata("clang14_diagnostics.dia")).output();
    let json: serde_json::Value = serde_json::from_slice(&out.unwrap().stdout).unwrap();
    let fixits: usize = json["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|d| std::iter::once(d).chain(d["children"].as_array().unwrap()))
        .map(|d| d["fixits"].as_array().unwrap().len())
        .sum();
    assert!(fixits >= 3, "{fixits} fix-its");
    assert_eq!(json["version"], 2);
    assert_eq!(json["files"][1]["name"], "./diag_helper.h");
}

#[test]
fn a_damaged_file_prints_what_was_read_then_fails() {
    let bytes = std::fs::read(testdata("clang14_diagnostics.dia")).unwrap();
    let cut = std::env::temp_dir().join(format!("bitstream-dump-cut-{}.dia", std::process::id()));
    std::fs::write(&cut, &bytes[..bytes.len() * 2 / 3]).unwrap();
    let out = Command::new(BIN).arg("--diagnostics").arg(&cut).output().unwrap();
    std::fs::remove_file(&cut).ok();
    assert!(!out.status.success());
    let whole = Command::new(BIN).arg("--diagnostics").arg(testdata("clang14_diagnostics.dia")).output().unwrap();
    assert!(!out.stdout.is_empty() && whole.stdout.starts_with(&out.stdout));
    assert!(String::from_utf8_lossy(&out.stderr).contains("bit"), "{}", String::from_utf8_lossy(&out.stderr));
}
