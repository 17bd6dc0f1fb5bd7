#![no_main]
//! Raw bytes as LLVM IR bitcode, through the metadata tables and the whole-module
//! `llvm-dis` printer: every module read (`Module::parse_all`), its metadata read whole
//! (`Module::metadata`: every id's node, every string, the named metadata, the kinds and
//! the global attachments) and one node at a time through the writer's index
//! (`Module::lazy_metadata`: every id read with `LazyMetadata::node`, in order), then its
//! bodies prepared (`Module::bodies`) and the whole module printed as `llvm-dis` 14, 19
//! and 22 print it (`Bodies::display_module`), and the typed debug info asked of every id
//! and every body (`Bodies::debug_info`, `Bodies::variable_locations`). Printing goes into
//! a sink that counts bytes and stops with `fmt::Error` after 1 MiB, so a malformed module
//! cannot print without bound. Seed it with the IR testdata (`llvm14_ir_debuginfo.bc`,
//! `rustc_llvm22_o0_debuginfo.bc`, …) and small `clang -g` bitcode (see fuzz/README.md).
//! Checks: no panic, no hang; a display fails only when the sink is full (a `Display`
//! that fails by itself makes `to_string()` panic). Nothing is compared between the eager
//! and the lazy tables.
//! The checks are `ir_print` (fuzz/src/ir_print.rs), which the stable tests replay.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| llvm_bitstream_reader_fuzz::ir_print::metadata(data));
