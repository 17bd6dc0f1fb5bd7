//! `Reader::read_truncated_blocks`: a cut file is read as far as it goes, then the walk
//! ends with exactly one error.

use llvm_bitstream_reader::{Bitstream, Error, Event, EventRef, ids};

fn testdata(name: &str) -> Vec<u8> {
    std::fs::read(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata").join(name)).unwrap()
}

/// An event, without the input bytes a record's `Debug` shows.
fn describe(event: &EventRef<'_, '_>) -> String {
    match event {
        EventRef::EnterBlock(b) => format!("enter {:?} at {}", b.block_id(), b.bit_offset()),
        EventRef::EndBlock(b) => format!("end {:?} at {}", b.block_id, b.header_bit),
        EventRef::Record(r) => format!("record {} at {}: {:?}", r.code(), r.bit_offset(), r.operand_slice()),
        other => format!("{other:?}"),
    }
}

/// The header bit of the module block (after the identification block).
fn module_header(bytes: &[u8]) -> u64 {
    let mut reader = Bitstream::parse(bytes).unwrap().reader();
    while let Some(event) = reader.next_ref().unwrap() {
        if let EventRef::EnterBlock(b) = event {
            if b.block_id() == ids::llvm_ir::MODULE_BLOCK_ID {
                return b.bit_offset();
            }
        }
    }
    panic!("no module block")
}

/// Every event of a walk (as `Debug` text) and how it ended.
fn walk(bytes: &[u8], truncated: bool) -> (Vec<String>, Option<Error>) {
    let mut reader = Bitstream::parse(bytes).unwrap().reader();
    reader.read_truncated_blocks(truncated);
    let mut events = Vec::new();
    loop {
        match reader.next_ref() {
            Ok(Some(event)) => events.push(describe(&event)),
            Ok(None) => return (events, None),
            Err(e) => {
                // One error, then the end, whatever API asks next.
                assert!(matches!(reader.next_ref(), Ok(None)));
                assert!(matches!(reader.advance(), Ok(None)));
                assert!(reader.next().is_none());
                return (events, Some(e));
            }
        }
    }
}

#[test]
fn a_cut_file_gives_its_events_then_one_error() {
    let bytes = testdata("llvm14_ir_instructions.bc");
    let (whole, error) = walk(&bytes, true);
    assert!(error.is_none(), "{error:?}");
    let cut = &bytes[..(bytes.len() / 2) & !3];

    // Off (the default): the module block runs past the input, nothing of it is read.
    let module = module_header(&bytes);
    let (events, error) = walk(cut, false);
    assert!(events.iter().all(|e| !e.contains("BlockId(8)")), "{events:?}");
    assert!(matches!(error, Some(Error::BlockTooLong { bit, .. }) if bit == module), "{error:?}");

    // On: every event up to the cut, the same as in the whole file but for the cut
    // blocks' lengths, then the error where reading ran out.
    let (events, error) = walk(cut, true);
    let error = error.expect("a cut file ends with an error");
    assert!(events.len() > 100, "{}", events.len());
    assert!(events.len() < whole.len());
    let cut_bits = cut.len() as u64 * 8;
    assert!(error.bit_offset() <= cut_bits && error.bit_offset() > cut_bits / 2, "{error}");
    // The same events as the whole file's, up to the cut.
    assert_eq!(whole[..events.len()], events[..]);
    assert!(events.iter().any(|e| e.starts_with("enter BlockId(12)")), "no function body before the cut");
}

#[test]
fn a_block_that_ends_before_the_input_does_gives_its_length_error() {
    // The module block's length word made longer than the input: its END_BLOCK comes
    // first, so the file is not cut, the length is wrong.
    let mut bytes = testdata("llvm14_ir_instructions.bc");
    let stream = Bitstream::parse(&bytes).unwrap();
    let offset = bytes.len() - stream.bytes().len();
    let module = stream.reader().find_map(|e| match e.unwrap() {
        Event::EnterBlock(b) => Some(b.bookmark),
        _ => None,
    });
    // The first top-level block may be the identification block: take the last one.
    let mut reader = stream.reader();
    let mut last = module.unwrap();
    while let Some(event) = reader.next_ref().unwrap() {
        if let EventRef::EnterBlock(b) = event {
            if reader.depth() == 1 {
                last = b.bookmark;
            }
        }
    }
    let word = offset + (last.content_bit / 8) as usize - 4;
    bytes[word..word + 4].copy_from_slice(&(last.len_words + 1000).to_le_bytes());

    let (events, error) = walk(&bytes, true);
    let error = error.unwrap();
    assert!(matches!(error, Error::BlockTooLong { bit, .. } if bit == last.header_bit), "{error:?}");
    // The block was read to its END_BLOCK.
    assert!(events.last().unwrap().starts_with("end "), "{:?}", events.last());
    let (events_off, error_off) = walk(&bytes, false);
    assert!(events_off.len() < events.len());
    assert!(matches!(error_off, Some(Error::BlockTooLong { .. })));
}

#[test]
fn skipping_a_cut_block_returns_its_error() {
    let bytes = testdata("llvm14_ir_instructions.bc");
    let cut = &bytes[..(bytes.len() / 2) & !3];
    let mut reader = Bitstream::parse(cut).unwrap().reader();
    reader.read_truncated_blocks(true);
    let mut skipped = Vec::new();
    let error = loop {
        match reader.next_ref() {
            Ok(Some(EventRef::EnterBlock(_))) => {
                let cut_block = reader.is_truncated_block();
                match reader.skip_block() {
                    Ok(block) => {
                        assert!(!cut_block, "a cut block is not returned to read later");
                        skipped.push(block);
                    }
                    // The cut block's own error, from `skip_block` itself.
                    Err(e) => {
                        assert!(cut_block);
                        break e;
                    }
                }
            }
            Ok(Some(_)) => {}
            Ok(None) => panic!("no error"),
            Err(e) => panic!("the error came from the walk, not from skip_block: {e}"),
        }
    };
    assert!(matches!(error, Error::BlockTooLong { bit, .. } if bit == module_header(&bytes)), "{error:?}");
    // Every block skipped before it is whole; the walk ends with that one error.
    assert!(skipped.iter().all(|b| b.bookmark().end_bit() <= cut.len() as u64 * 8));
    assert!(reader.next_ref().unwrap().is_none());
}
