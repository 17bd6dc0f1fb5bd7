#![no_main]
//! Raw bytes as LLVM IR bitcode, through the body decoder and the `llvm-dis` printer:
//! every module read, its bodies prepared (`Module::bodies`), every function's body
//! decoded and the function printed as `llvm-dis` 14 and 22 print it, and the whole
//! module printed. Printing goes into a sink that counts bytes and stops with
//! `fmt::Error` after 1 MiB, so a malformed module cannot print without bound. Seed it
//! with the IR testdata and bitcode assembled from `testdata/src/**/*.ll` (see
//! fuzz/README.md). Checks: no panic, no hang; a display fails only when the sink is full
//! (a `Display` that fails by itself makes `to_string()` panic).

use std::fmt::{self, Write};

use libfuzzer_sys::fuzz_target;
use llvm_bitstream_reader::ir::{DisOptions, Module};

/// How much one display may print before the sink stops it.
const LIMIT: usize = 1 << 20;

/// Counts what is printed; fails once more than `LIMIT` bytes came.
#[derive(Default)]
struct Sink {
    bytes: usize,
    full: bool,
}

impl Write for Sink {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.bytes += s.len();
        if self.bytes > LIMIT {
            self.full = true;
            return Err(fmt::Error);
        }
        Ok(())
    }
}

/// Prints `value` into a fresh sink: an error must come from the sink.
fn print(value: impl fmt::Display) {
    let mut sink = Sink::default();
    if write!(sink, "{value}").is_err() {
        assert!(sink.full, "Display failed after {} bytes without the sink failing", sink.bytes);
    }
}

fuzz_target!(|data: &[u8]| {
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
});
