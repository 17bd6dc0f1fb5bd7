//! The test helpers both packages use (the library's `tests/common` and
//! `crates/bitstream-dump/tests/common` include this file with `#[path]`): the testdata
//! listing, the CI rule for missing tools, finding an LLVM tool of a given version, and
//! the function definitions of `llvm-dis` text.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Every real (well-formed) file in `dir` (the repository's testdata/), sorted; then
/// those of the folders that `EXTRA_TESTDATA_DIR` lists (a path list, as `PATH`), if set.
/// Files made by others are not committed: this is how the tests run on them too, e.g.
/// LLVM's own `test/Bitcode` files of LLVM 3.2 to 4.0 or swift-tools-support-core's
/// `.dia` fixtures.
pub fn testdata_files_in(dir: &Path) -> Vec<PathBuf> {
    // LLVM 1.x bytecode is `.bc` too, but not a bitstream: `legacy_files` lists it.
    let bitstream_file = |p: &PathBuf| {
        p.is_file()
            && matches!(p.extension().and_then(|e| e.to_str()), Some("bc" | "dia" | "pch" | "bitstream"))
            && !is_legacy(p)
    };
    let mut files: Vec<PathBuf> =
        std::fs::read_dir(dir).expect("testdata/ exists").map(|e| e.unwrap().path()).filter(bitstream_file).collect();
    files.sort();
    assert!(files.len() >= 10, "testdata/ lost its files: {files:?}");
    if let Some(extra) = std::env::var_os("EXTRA_TESTDATA_DIR") {
        for dir in std::env::split_paths(&extra) {
            let mut more: Vec<PathBuf> = std::fs::read_dir(&dir)
                .unwrap_or_else(|e| panic!("EXTRA_TESTDATA_DIR: {}: {e}", dir.display()))
                .map(|e| e.unwrap().path())
                .filter(bitstream_file)
                .collect();
            more.sort();
            files.extend(more);
        }
    }
    files
}

/// Whether a file starts with the LLVM 1.x bytecode signature (`llvm`, `llvc`).
fn is_legacy(path: &Path) -> bool {
    use std::io::Read;
    let mut magic = [0u8; 4];
    std::fs::File::open(path).and_then(|mut f| f.read_exact(&mut magic)).is_ok()
        && (&magic == b"llvm" || &magic == b"llvc")
}

/// The LLVM 1.x bytecode files of the folders that `EXTRA_TESTDATA_DIR` lists (any name:
/// LLVM's old tests named them `*.bc`, `*.ll.bc-13`, …), sorted per folder. None are
/// committed: they were written by others.
pub fn legacy_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    if let Some(extra) = std::env::var_os("EXTRA_TESTDATA_DIR") {
        for dir in std::env::split_paths(&extra) {
            let mut more: Vec<PathBuf> = std::fs::read_dir(&dir)
                .unwrap_or_else(|e| panic!("EXTRA_TESTDATA_DIR: {}: {e}", dir.display()))
                .map(|e| e.unwrap().path())
                .filter(|p| p.is_file() && is_legacy(p))
                .collect();
            more.sort();
            files.extend(more);
        }
    }
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

/// An LLVM tool of a given major version: `<name>` in `/usr/lib/llvm-<major>/bin`, or
/// `<name>-<major>` on the `PATH`. `None` after printing why (or a panic under `CI=true`).
pub fn llvm_tool(name: &str, major: u32) -> Option<PathBuf> {
    if cfg!(miri) {
        // Miri runs no processes (and CI, where a missing tool fails, runs no Miri).
        eprintln!("skipping the comparison with {name} of LLVM {major}: Miri cannot run processes");
        return None;
    }
    let in_lib = Path::new(&format!("/usr/lib/llvm-{major}/bin")).join(name);
    if in_lib.exists() {
        return Some(in_lib);
    }
    // Some tools (llvm-lto2) answer --version with their usage and a failure: that they
    // ran is enough.
    let versioned = PathBuf::from(format!("{name}-{major}"));
    if Command::new(&versioned).arg("--version").output().is_ok() {
        return Some(versioned);
    }
    skip_or_fail(&format!("{name} of LLVM {major} not found ({name}-{major} on PATH, or /usr/lib/llvm-{major}/bin)"))
}

/// Each function definition of `llvm-dis` text, in order: the lines between its `define`
/// line and the `}` that closes it.
pub fn definitions(text: &str) -> Vec<Vec<&str>> {
    let mut out = Vec::new();
    let mut open: Option<Vec<&str>> = None;
    for line in text.lines() {
        if line.starts_with("define ") {
            open = Some(Vec::new());
        } else if line == "}" {
            out.extend(open.take());
        } else if let Some(lines) = open.as_mut() {
            lines.push(line);
        }
    }
    out
}
