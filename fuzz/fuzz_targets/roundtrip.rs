#![no_main]
//! Structured input: a description of a stream, written with the writer and read back.

use libfuzzer_sys::fuzz_target;
use llvm_bitstream_reader_fuzz::roundtrip::{Desc, roundtrip};

fuzz_target!(|desc: Desc| {
    roundtrip(&desc);
});
