//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

#[path = "shared.rs"]
mod shared;
#[allow(unused_imports)] // each test binary uses some of them
pub use shared::{definitions, legacy_files, llvm_tool, skip_or_fail, tools_required};

/// Every real (well-formed) file in testdata/, sorted, then those of `EXTRA_TESTDATA_DIR`
/// (see [`shared::testdata_files_in`]).
pub fn testdata_files() -> Vec<PathBuf> {
    shared::testdata_files_in(&Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata"))
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

/// LLVM 19's `llvm-dis` (Debian's `llvm-19`). `None` after printing why (or a panic under
/// `CI=true`) if it is not installed.
pub fn llvm19_dis() -> Option<PathBuf> {
    llvm_tool("llvm-dis", 19)
}

/// `testdata/` files `names`, then Debian's libclc-22 amdgcn library (clang 22's OpenCL
/// library, unpacked under `target/libclc` by `.ci/run`) where it is there (else the
/// reason is printed, or a panic under `CI=true`): real modules for the comparisons with
/// `llvm-dis-22`.
pub fn testdata_and_libclc_22(names: &[&str]) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<_> = names.iter().map(|name| root.join("testdata").join(name)).collect();
    let libclc = root.join("target/libclc/22/usr/lib/clc/amdgcn-amd-amdhsa.bc");
    if libclc.exists() {
        files.push(libclc);
    } else {
        skip_or_fail::<()>(&format!("{} is not unpacked (.ci/run does it)", libclc.display()));
    }
    files
}
