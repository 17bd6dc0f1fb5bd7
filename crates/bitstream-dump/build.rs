//! Bundles the default input (the file dumped when no FILE is given) when the repository's
//! testdata is there, so `cargo run -p bitstream-dump` shows something on a fresh clone; a
//! packaged crate has no testdata, and its program then asks for a FILE instead.

use std::path::Path;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(bundled_input)");
    let dir = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default();
    let file = Path::new(&dir).join("../../testdata/rustc_llvm22_o0_debuginfo.bc");
    println!("cargo::rerun-if-changed={}", file.display());
    if let Ok(path) = file.canonicalize() {
        println!("cargo::rustc-cfg=bundled_input");
        println!("cargo::rustc-env=BUNDLED_INPUT={}", path.display());
    }
}
