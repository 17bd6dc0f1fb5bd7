//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// Every real (well-formed) file in testdata/, sorted; then those of the folders that
/// `EXTRA_TESTDATA_DIR` lists (a path list, as `PATH`), if set. Files made by others are not
/// committed: this is how the tests run on them too, e.g. LLVM's own `test/Bitcode` files
/// of LLVM 3.2 to 4.0 or swift-tools-support-core's `.dia` fixtures.
pub fn testdata_files() -> Vec<PathBuf> {
    let bitstream_file = |p: &PathBuf| {
        p.is_file() && matches!(p.extension().and_then(|e| e.to_str()), Some("bc" | "dia" | "pch" | "bitstream"))
    };
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata");
    let mut files: Vec<PathBuf> =
        std::fs::read_dir(&dir).expect("testdata/ exists").map(|e| e.unwrap().path()).filter(bitstream_file).collect();
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

/// The LLVM 14 reference dumper (tests/llvm-ref/events.cpp), built once per test binary;
/// `None` after printing why (or a panic under `CI=true`) if it cannot be built.
pub fn llvm_events() -> Option<PathBuf> {
    static BUILT: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    let built = BUILT.get_or_init(|| {
        let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("llvm-ref");
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/llvm-ref/build.sh");
        match Command::new("bash").arg(&script).arg(&out).output() {
            Ok(o) if o.status.success() => Ok(out.join("llvm-events")),
            Ok(o) => {
                Err(format!("building the LLVM 14 reference dumper failed: {}", String::from_utf8_lossy(&o.stderr)))
            }
            Err(e) => Err(format!("cannot run bash: {e}")),
        }
    });
    match built {
        Ok(p) => Some(p.clone()),
        Err(reason) => skip_or_fail(reason),
    }
}

/// An LLVM 14 tool (`llvm-bcanalyzer`, `llvm-dis`, …): from `llvm-config-14 --bindir`, or
/// `<name>-14` on the `PATH`. `None` after printing why (or a panic under `CI=true`) if
/// it is not installed.
pub fn llvm14_tool(name: &str) -> Option<PathBuf> {
    if cfg!(miri) {
        // Miri runs no processes (and CI, where a missing tool fails, runs no Miri).
        eprintln!("skipping the comparison with LLVM 14's {name}: Miri cannot run processes");
        return None;
    }
    if let Ok(out) = Command::new("llvm-config-14").arg("--bindir").output() {
        let tool = Path::new(String::from_utf8_lossy(&out.stdout).trim()).join(name);
        if out.status.success() && tool.exists() {
            return Some(tool);
        }
    }
    let versioned = format!("{name}-14");
    if Command::new(&versioned).arg("--version").output().is_ok_and(|o| o.status.success()) {
        return Some(PathBuf::from(versioned));
    }
    skip_or_fail(&format!("{name} of LLVM 14 not found (llvm-config-14 --bindir, or {name}-14 on PATH)"))
}

/// LLVM 19's `llvm-dis` (Debian's `llvm-19`): `llvm-dis-19` on the `PATH`, or
/// `/usr/lib/llvm-19/bin/llvm-dis`. `None` after printing why (or a panic under
/// `CI=true`) if it is not installed.
pub fn llvm19_dis() -> Option<PathBuf> {
    if cfg!(miri) {
        eprintln!("skipping the comparison with llvm-dis-19: Miri cannot run processes");
        return None;
    }
    if Command::new("llvm-dis-19").arg("--version").output().is_ok_and(|o| o.status.success()) {
        return Some(PathBuf::from("llvm-dis-19"));
    }
    let fixed = Path::new("/usr/lib/llvm-19/bin/llvm-dis");
    if fixed.exists() {
        return Some(fixed.to_path_buf());
    }
    skip_or_fail("llvm-dis-19 not found (Debian package llvm-19)")
}
