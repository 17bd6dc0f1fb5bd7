//! Shared logic of the fuzz targets.
//!
//! `check` is plain Rust (no libFuzzer, no `arbitrary`); the crate's stable tests include
//! it with `#[path]` to replay `fuzz/regressions/`. `roundtrip` needs `arbitrary`.

pub mod check;
pub mod roundtrip;
