#![no_main]
//! Raw bytes as LLVM IR bitcode, through the body decoder and the `llvm-dis` printer:
//! every module read, its bodies prepared (`Module::bodies`), every function's body
//! decoded and the function printed as `llvm-dis` 14 and 22 print it, and the whole
//! module printed. Printing goes into a sink that counts bytes and stops with
//! `fmt::Error` after 1 MiB, so a malformed module cannot print without bound. Seed it
//! with the IR testdata and bitcode assembled from `testdata/src/**/*.ll` (see
//! fuzz/README.md). Checks: no panic, no hang; a display fails only when the sink is full
//! (a `Display` that fails by itself makes `to_string()` panic).
//! The checks are `ir_print` (fuzz/src/ir_print.rs), which the stable tests replay.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| llvm_bitstream_reader_fuzz::ir_print::bodies(data));
