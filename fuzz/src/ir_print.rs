//! The checks the `ir_bodies` and `ir_metadata` fuzz targets run, as plain Rust.
//!
//! Like `check.rs`, this file depends only on `llvm_bitstream_reader`, so the crate's
//! stable test `tests/ir.rs` includes it with `#[path]` and replays
//! `fuzz/regressions/ir_bodies-*` through exactly the same code as the fuzzer.
//!
//! Printing goes into a sink that counts bytes and stops with `fmt::Error` after 1 MiB,
//! so a malformed module cannot print without bound. Checks: no panic, no hang; a display
//! fails only when the sink is full (a `Display` that fails by itself makes `to_string()`
//! panic).

use std::hint::black_box;

use llvm_bitstream_reader::ir::{DisOptions, Module};

// The sink, shared with `legacy_check` (a path relative to this file, so that the tests'
// `#[path]` includes find it too).
#[path = "sink.rs"]
mod sink;
use sink::print;

/// `ir_bodies`: every module read, its bodies prepared, every function's body decoded and
/// the function printed as `llvm-dis` 14 and 22 print it, and the whole module printed.
pub fn bodies(data: &[u8]) {
    let Ok(modules) = Module::parse_all(data) else { return };
    for module in &modules {
        let Ok(bodies) = module.bodies() else { continue };
        for i in 0..module.functions.len() {
            let Ok(body) = bodies.body(i) else { continue };
            for llvm_version in [14, 22] {
                print(bodies.display_function(i, body.as_ref(), DisOptions { llvm_version }));
            }
        }
        print(bodies.display_module(DisOptions::default()));
    }
}

/// `ir_metadata`: every module's metadata read whole and one node at a time through the
/// writer's index, the whole module printed as `llvm-dis` 14, 19 and 22 print it, and the
/// typed debug info asked of every id and every body.
pub fn metadata(data: &[u8]) {
    let Ok(modules) = Module::parse_all(data) else { return };
    for module in &modules {
        if let Ok(metadata) = module.metadata() {
            black_box(metadata.is_empty());
            for id in 0..metadata.len() {
                black_box(metadata.node(id));
                black_box(metadata.string(id));
            }
            // Past the end: `None`.
            black_box(metadata.node(metadata.len()));
            for (name, operands) in metadata.named() {
                black_box((name.len(), operands.len()));
            }
            for (kind, name) in metadata.kinds() {
                black_box(metadata.kind_name(kind));
                black_box(name.len());
            }
            for (value, pairs) in metadata.global_attachments() {
                black_box((value, pairs.len()));
            }
            black_box(metadata.unknown_records());
        }
        if let Ok(mut lazy) = module.lazy_metadata() {
            black_box(lazy.is_empty());
            for (name, operands) in lazy.named() {
                black_box((name.len(), operands.len()));
            }
            for id in 0..lazy.len() {
                black_box(lazy.string(id));
                let _ = black_box(lazy.node(id));
            }
            let _ = black_box(lazy.node(lazy.len()));
            black_box(lazy.records_read());
        }
        let Ok(bodies) = module.bodies() else { continue };
        for llvm_version in [14, 19, 22] {
            print(bodies.display_module(DisOptions { llvm_version }).with_module_id("fuzz.bc"));
        }
        // The typed debug info, of the module and of every body: every id asked as each
        // kind, every location's inlined-at chain, every variable location.
        let info = bodies.debug_info(None);
        black_box(info.compile_units().count());
        black_box(info.files().count());
        for i in 0..module.functions.len() {
            let Ok(Some(body)) = bodies.body(i) else { continue };
            let info = bodies.debug_info(Some(&body));
            for id in 0..info.len().min(4096) {
                black_box((info.subprogram(id), info.variable(id), info.location(id), info.subprogram_of_scope(id)));
            }
            for loc in &body.debug_locs {
                black_box(info.inlining_chain(*loc).count());
            }
            black_box(bodies.variable_locations(&body).len());
        }
    }
}
