//! Differential tests: our reading of every testdata file against LLVM 14's own
//! `BitstreamCursor` (tests/llvm-ref/events.cpp, built here with g++ and llvm-config-14),
//! in the shared event line format. Skips with a reason when the LLVM tools are missing,
//! fails under `CI=true`.

mod common;

use std::path::Path;
use std::process::Command;

use llvm_bitstream_reader::dump::{DumpError, write_events};

/// Our lines, and the error message if the walk failed.
fn ours(bytes: &[u8]) -> (Vec<String>, Option<String>) {
    let mut text = String::new();
    let err = match write_events(bytes, &mut text) {
        Ok(()) => None,
        Err(DumpError::Input(e)) => Some(e.to_string()),
        Err(DumpError::Output(e)) => panic!("writing to a String failed: {e}"),
    };
    (text.lines().map(str::to_string).collect(), err)
}

/// LLVM's lines (its `error …` line split off).
fn llvm(tool: &Path, file: &Path) -> (Vec<String>, Option<String>) {
    let out = Command::new(tool).arg(file).output().expect("run llvm-events");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let err = match lines.last() {
        Some(l) if l.starts_with("error") => lines.pop(),
        _ => None,
    };
    assert_eq!(err.is_some(), !out.status.success(), "llvm-events exit status and output disagree on {file:?}");
    (lines, err)
}

#[test]
fn every_testdata_file_reads_exactly_as_llvm_14_reads_it() {
    let Some(tool) = common::llvm_events() else { return };
    let mut lines_compared = 0;
    let files = common::testdata_files();
    for file in &files {
        let bytes = std::fs::read(file).unwrap();
        let (our_lines, our_err) = ours(&bytes);
        let (llvm_lines, llvm_err) = llvm(&tool, file);
        assert_eq!(our_err, None, "{file:?}: we failed where LLVM read {} lines", llvm_lines.len());
        assert_eq!(llvm_err, None, "{file:?}: LLVM failed");
        if let Some(i) = our_lines.iter().zip(&llvm_lines).position(|(a, b)| a != b) {
            panic!("{file:?} line {}: ours {:?}, LLVM {:?}", i + 1, our_lines[i], llvm_lines[i]);
        }
        assert_eq!(our_lines.len(), llvm_lines.len(), "{file:?}: different number of lines");
        lines_compared += our_lines.len();
    }
    eprintln!("{} files, {lines_compared} event lines identical to LLVM 14", files.len());
}

/// Truncated files: where we fail, what we report before failing must be what LLVM
/// reports, and where we succeed LLVM must read the same (we may stop earlier: we check block lengths when a block is entered,
/// LLVM only when it skips one).
#[test]
fn truncated_files_fail_in_both_readers_and_agree_before_failing() {
    let Some(tool) = common::llvm_events() else { return };
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("truncated");
    std::fs::create_dir_all(&dir).unwrap();
    let mut cases = 0;
    for file in common::testdata_files() {
        let bytes = std::fs::read(&file).unwrap();
        // 24 cut points spread over the file, at 4-byte boundaries (LLVM wants whole words).
        for k in 1..24 {
            let cut = (bytes.len() * k / 24) & !3;
            if cut <= 8 {
                continue;
            }
            let path = dir.join(format!("{}-{cut}", file.file_name().unwrap().to_string_lossy()));
            std::fs::write(&path, &bytes[..cut]).unwrap();
            let (our_lines, our_err) = ours(&bytes[..cut]);
            let (llvm_lines, llvm_err) = llvm(&tool, &path);
            let name = path.display();
            if our_err.is_none() {
                // A cut on a top-level block boundary is a valid, shorter stream.
                assert_eq!(llvm_err, None, "{name}: we read it all, LLVM failed");
                assert_eq!(our_lines, llvm_lines, "{name}");
            } else {
                assert!(our_lines.len() <= llvm_lines.len(), "{name}: we reported more than LLVM");
                assert_eq!(our_lines[..], llvm_lines[..our_lines.len()], "{name}: lines before the error differ");
            }
            cases += 1;
        }
    }
    eprintln!("{cases} truncated files agree with LLVM 14 up to the error");
}
