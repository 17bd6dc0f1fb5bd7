//! Helpers shared by the tool's integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

#[path = "../../../../tests/common/shared.rs"]
mod shared;
#[allow(unused_imports)] // each test binary uses some of them
pub use shared::{definitions, llvm_tool, skip_or_fail, tools_required};

/// The `bitstream-dump` binary cargo built for these tests.
pub const BIN: &str = env!("CARGO_BIN_EXE_bitstream-dump");

/// The repository root (the library's package), where `testdata/` is.
pub fn repo_root() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    root.canonicalize().unwrap_or(root)
}

/// A file under `testdata/`.
pub fn testdata(name: &str) -> PathBuf {
    repo_root().join("testdata").join(name)
}

/// Every real (well-formed) file in testdata/, sorted, then those of `EXTRA_TESTDATA_DIR`
/// (see [`shared::testdata_files_in`]).
pub fn testdata_files() -> Vec<PathBuf> {
    shared::testdata_files_in(&repo_root().join("testdata"))
}

/// `llvm-bcanalyzer` of LLVM 14: from `llvm-config-14 --bindir`, or on the `PATH` (as
/// `llvm-bcanalyzer-14`, or `llvm-bcanalyzer` if it says version 14). `None` after printing
/// why (or a panic under `CI=true`) if it is not installed.
pub fn bcanalyzer() -> Option<PathBuf> {
    if let Ok(out) = Command::new("llvm-config-14").arg("--bindir").output() {
        let dir = String::from_utf8_lossy(&out.stdout).trim().to_string();
        let tool = Path::new(&dir).join("llvm-bcanalyzer");
        if out.status.success() && tool.exists() {
            return Some(tool);
        }
    }
    for name in ["llvm-bcanalyzer-14", "llvm-bcanalyzer"] {
        let Ok(out) = Command::new(name).arg("--version").output() else { continue };
        if out.status.success() && String::from_utf8_lossy(&out.stdout).contains("version 14.") {
            return Some(PathBuf::from(name));
        }
    }
    skip_or_fail("llvm-bcanalyzer of LLVM 14 not found (llvm-config-14 --bindir, or on PATH)")
}

/// The `.rlib` and `.a` files of the sysroot's `x86_64-unknown-linux-gnu` target.
pub fn sysroot_archives() -> Vec<PathBuf> {
    let Ok(o) = Command::new("rustc").args(["--print", "sysroot"]).output() else {
        return skip_or_fail("rustc not found").unwrap_or_default();
    };
    let lib = PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()).join("lib/rustlib/x86_64-unknown-linux-gnu/lib");
    let Ok(dir) = std::fs::read_dir(&lib) else { return Vec::new() };
    dir.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|e| e == "rlib" || e == "a")).collect()
}
pub mod tree;
