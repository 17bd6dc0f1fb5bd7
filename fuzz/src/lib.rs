//! Shared logic of the fuzz targets.
//!
//! `check` and `ir_print` are plain Rust (no libFuzzer, no `arbitrary`); the crate's stable
//! tests include them with `#[path]` to replay `fuzz/regressions/`. `roundtrip` needs
//! `arbitrary`.

pub mod check;
pub mod ir_print;
pub mod roundtrip;
