#![no_main]
//! Raw bytes as LLVM 1.x bytecode: detect, parse, walk every block and decode each payload
//! with the primitive decoders; then decode the contents (`legacy::Module`: types,
//! globals, constants, every function's body) and print every function and the module
//! (`legacy_check::contents`, replayed by the stable tests). The bytes are tried as they
//! are and behind an `llvm` signature and a module header, so that most inputs reach the
//! block walk.

use libfuzzer_sys::fuzz_target;
use llvm_bitstream_reader::legacy::{self, ByteReader, Bytecode, LegacyError};
use llvm_bitstream_reader_fuzz::legacy_check;

fuzz_target!(|data: &[u8]| {
    let _ = legacy::detect(data);
    legacy_check::run(data);
    check(data);
    check(&legacy_check::wrapped(data));
});

fn check(input: &[u8]) {
    let module = match Bytecode::parse(input) {
        Ok(module) => module,
        Err(e) => {
            assert!(e.byte_offset() <= input.len(), "{e}");
            let _ = e.to_string();
            return;
        }
    };
    assert!(legacy::detect(input).is_some());
    let _ = module.format().version.to_string();
    let end = module.payload_offset() + module.size() as usize;
    assert_eq!(&input[end..], module.trailing());
    let mut walked = 0;
    for block in module.walk() {
        walked += 1;
        assert!(block.depth == 1 || block.depth == 2);
        assert!(block.end() <= end);
        assert_eq!(&input[block.payload_offset()..block.end()], block.payload);
        let _ = (block.name(), block.linkage(), block.kind.to_string());
        if block.depth == 2 {
            assert_eq!(block.children().count(), 0);
        }
        decode(block.reader());
    }
    let top: usize = module.blocks().map(|b| 1 + b.children().count()).sum();
    assert_eq!(top, walked);
}

/// Runs every primitive over the payload, in turn, until one fails or the payload ends.
/// Each successful read consumes at least one byte, so this is bounded by the payload.
fn decode(mut r: ByteReader<'_>) {
    let mut copy = r;
    let _ = copy.read_llist(|r| r.read_vbr_u32());
    let mut copy = r;
    let _ = copy.read_zlist(|r| r.read_vbr_u24());
    let mut copy = r;
    let _ = copy.read_llist(|r| Ok((r.read_vbr_u24()?, r.read_string()?)));
    for step in 0usize.. {
        let before = r.offset();
        let result: Result<(), LegacyError> = match step % 7 {
            0 => r.read_vbr_u32().map(drop),
            1 => r.read_vbr_u64().map(drop),
            2 => r.read_vbr_i64().map(drop),
            3 => r.read_vbr_u24().map(drop),
            4 => r.read_string().map(drop),
            5 => r.read_u32().map(drop),
            _ => r.read_u8().map(drop),
        };
        match result {
            Ok(()) => assert!(r.offset() > before),
            Err(e) => {
                assert_eq!(r.offset(), before, "failed reads do not move: {e}");
                break;
            }
        }
        if r.is_at_end() {
            break;
        }
    }
}
