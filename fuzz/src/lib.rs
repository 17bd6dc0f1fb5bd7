//! Shared logic of the fuzz targets.
//!
//! `check`, `ir_print` and `legacy_check` are plain Rust (no libFuzzer, no `arbitrary`); the crate's stable
//! tests include them with `#[path]` to replay `fuzz/regressions/`. `roundtrip` needs
//! `arbitrary`.

pub mod check;
pub mod ir_print;
pub mod legacy_check;
pub mod roundtrip;
