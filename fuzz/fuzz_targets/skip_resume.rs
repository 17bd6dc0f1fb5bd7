#![no_main]
//! Raw bytes: a full walk, then a walk that skips every block at depth 1 (except
//! BLOCKINFO) and reads it back from its `LazyBlock`; the two must agree.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    llvm_bitstream_reader_fuzz::check::skip_resume(data);
});
