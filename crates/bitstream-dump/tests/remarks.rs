//! `bitstream-dump --remarks` against `llvm-remarkutil-19 bitstream2yaml` (Debian llvm-19),
//! whole outputs byte for byte; the separate layout; JSON; the errors.

mod common;

use std::process::{Command, Output};

use common::{BIN, skip_or_fail, testdata};

fn dump(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().expect("run bitstream-dump")
}

fn remarkutil_yaml(file: &str) -> Option<Vec<u8>> {
    match Command::new("llvm-remarkutil-19").arg("bitstream2yaml").arg(testdata(file)).output() {
        Ok(out) if out.status.success() => Some(out.stdout),
        Ok(out) => panic!("llvm-remarkutil-19 failed on {file}: {}", String::from_utf8_lossy(&out.stderr)),
        Err(_) => skip_or_fail("llvm-remarkutil-19 not found (Debian package llvm-19)"),
    }
}

#[test]
fn yaml_is_llvm_remarkutils() {
    for file in ["llvm19_remarks_standalone.opt.bitstream", "llvm19_remarks_hotness.opt.bitstream"] {
        let ours = dump(&["--remarks", testdata(file).to_str().unwrap()]);
        assert!(ours.status.success(), "{}", String::from_utf8_lossy(&ours.stderr));
        let Some(theirs) = remarkutil_yaml(file) else { return };
        assert!(ours.stdout == theirs, "{file}: the outputs differ");
    }
}

#[test]
fn separate_layout_with_remarks_with_in_either_order() {
    let meta = testdata("clang14_remarks_section_meta.opt.bitstream");
    let file = testdata("clang14_remarks_darwin.opt.bitstream");
    let a = dump(&["--remarks", file.to_str().unwrap(), "--remarks-with", meta.to_str().unwrap()]);
    let b = dump(&["--remarks", meta.to_str().unwrap(), "--remarks-with", file.to_str().unwrap()]);
    assert!(a.status.success() && b.status.success(), "{}", String::from_utf8_lossy(&a.stderr));
    assert_eq!(a.stdout, b.stdout);
    assert_eq!(a.stdout.windows(5).filter(|w| w == b"\n--- ").count() + 1, 77);

    // Alone, the remarks file has no strings, and the error says where they are.
    let alone = dump(&["--remarks", file.to_str().unwrap()]);
    assert_eq!(alone.status.code(), Some(1));
    let err = String::from_utf8_lossy(&alone.stderr);
    assert!(
        err.contains("string table") && err.contains("not in this stream") && err.contains("--remarks-with"),
        "{err}"
    );
    assert!(alone.stdout.is_empty());
}

#[test]
fn json_lines_have_the_meta_then_each_remark() {
    let file = testdata("llvm19_remarks_hotness.opt.bitstream");
    let out = dump(&["--remarks", "--format", "json", file.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<serde_json::Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines[0]["meta"]["container_type"], "Standalone");
    assert!(lines.len() > 2);
    for remark in &lines[1..] {
        assert!(remark["hotness"].as_u64().is_some(), "{remark}");
        assert!(remark["pass"].is_string() && remark["args"].is_array());
    }
}

#[test]
fn a_damaged_file_prints_what_was_read_then_the_error() {
    let bytes = std::fs::read(testdata("llvm19_remarks_standalone.opt.bitstream")).unwrap();
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("remarks-cli");
    std::fs::create_dir_all(&dir).unwrap();
    let cut = dir.join("cut.opt.bitstream");
    std::fs::write(&cut, &bytes[..bytes.len() - 40]).unwrap();
    let out = dump(&["--remarks", cut.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.starts_with(b"--- !") && out.stdout.ends_with(b"\n...\n"));
    assert!(String::from_utf8_lossy(&out.stderr).contains("bit "), "{}", String::from_utf8_lossy(&out.stderr));
}
