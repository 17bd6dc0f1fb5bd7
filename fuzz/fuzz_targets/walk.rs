#![no_main]
//! Raw bytes: walk every event and touch every operand, array element and blob.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    llvm_bitstream_reader_fuzz::check::walk(data);
});
