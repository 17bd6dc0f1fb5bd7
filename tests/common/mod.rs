//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// Every real (well-formed) file in testdata/, sorted.
pub fn testdata_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("testdata/ exists")
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.is_file() && matches!(p.extension().and_then(|e| e.to_str()), Some("bc" | "dia" | "pch" | "bitstream"))
        })
        .collect();
    files.sort();
    assert!(files.len() >= 10, "testdata/ lost its files: {files:?}");
    files
}

/// Whether a missing tool must fail the test (CI) rather than skip it.
pub fn tools_required() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true")
}

/// Skips (returns `None` after printing why) or, under `CI=true`, fails.
pub fn skip_or_fail<T>(reason: &str) -> Option<T> {
    if tools_required() {
        panic!("CI=true and a required tool is missing: {reason}");
    }
    eprintln!("SKIPPED: {reason}");
    None
}
