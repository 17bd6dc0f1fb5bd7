//! The 0.2 vocabulary, checked as a user meets it: one block id type, `operands()` the
//! same on every record view, names where the stream's kind gives them, `Display` that
//! pads, errors that say where in bits and bytes and name their blocks.

#![cfg(all(feature = "ir", feature = "diag"))]

use llvm_bitstream_reader::ids::llvm_ir;
use llvm_bitstream_reader::{Bitstream, BlockId, Entry, Error, Event, EventRef, Magic, Text};

fn testdata(name: &str) -> Vec<u8> {
    std::fs::read(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata").join(name)).unwrap()
}

#[test]
fn one_block_id_type_compares_everywhere_without_dot_zero() {
    let bytes = testdata("llvm14_ir_instructions.bc");
    let mut reader = Bitstream::parse(&bytes).unwrap().reader();
    let (mut bodies, mut records_in_bodies) = (0, 0);
    while let Some(entry) = reader.advance().unwrap() {
        match entry {
            Entry::EnterBlock(b) if b.block_id == llvm_ir::FUNCTION_BLOCK_ID => bodies += 1,
            Entry::Record { .. } if reader.block_id() == Some(llvm_ir::FUNCTION_BLOCK_ID) => records_in_bodies += 1,
            _ => {}
        }
    }
    assert!(bodies > 0 && records_in_bodies > bodies);
    // The kinds' constants are the same type as the reader's ids, so they match as patterns.
    assert!(matches!(BlockId(12), llvm_ir::FUNCTION_BLOCK_ID));
    assert_eq!(llvm_ir::block_name(llvm_ir::FUNCTION_BLOCK_ID), Some("FUNCTION_BLOCK"));
}

#[test]
fn block_names_come_from_the_kind_when_blockinfo_has_none() {
    let bytes = testdata("llvm14_ir_instructions.bc");
    let mut names = Vec::new();
    for event in Bitstream::parse(&bytes).unwrap().reader() {
        if let Event::EnterBlock(b) = event.unwrap() {
            assert!(b.blockinfo_name.is_none(), "IR streams name no blocks in BLOCKINFO");
            names.push((b.block_id(), b.name().map(str::to_owned)));
        }
    }
    assert!(names.contains(&(llvm_ir::MODULE_BLOCK_ID, Some("MODULE_BLOCK".to_owned()))), "{names:?}");
    assert!(names.contains(&(llvm_ir::FUNCTION_BLOCK_ID, Some("FUNCTION_BLOCK".to_owned()))), "{names:?}");
    // A .dia names its blocks in its BLOCKINFO; that name wins.
    let dia = testdata("clang14_diagnostics.dia");
    for event in Bitstream::parse(&dia).unwrap().reader() {
        if let Event::EnterBlock(b) = event.unwrap() {
            if b.block_id() == 9u32 {
                assert_eq!(b.name(), Some("Diag"));
                assert_eq!(b.blockinfo_name.as_deref(), Some("Diag"));
            }
        }
    }
}

#[test]
fn operands_mean_the_same_on_every_record_view() {
    let bytes = testdata("rustc_llvm22_o0_debuginfo.bc");
    let stream = Bitstream::parse(&bytes).unwrap();
    let mut owned = Vec::new();
    for event in stream.reader() {
        if let Event::Record(r) = event.unwrap() {
            owned.push(r.operands().collect::<Vec<u64>>());
        }
    }
    let mut lent = Vec::new();
    let mut reader = stream.reader();
    while let Some(event) = reader.next_ref().unwrap() {
        if let EventRef::Record(r) = event {
            assert_eq!(r.operands().len(), r.operand_slice().len());
            lent.push(r.operands().collect::<Vec<u64>>());
        }
    }
    assert!(owned.len() > 1000);
    assert_eq!(owned, lent);
}

#[test]
fn advance_skipping_subblocks_reads_one_blocks_own_records() {
    let bytes = testdata("llvm14_ir_globals.bc");
    let stream = Bitstream::parse(&bytes).unwrap();
    // The module block's own record codes, by the owned walk at depth 1.
    let mut want = Vec::new();
    let mut reader = stream.reader();
    while let Some(event) = reader.next() {
        if let Event::Record(r) = event.unwrap() {
            if reader.depth() == 1 && r.block_id() == llvm_ir::MODULE_BLOCK_ID {
                want.push(r.code());
            }
        }
    }
    let (mut got, mut skipped) = (Vec::new(), Vec::new());
    let mut reader = stream.reader();
    while let Some(entry) = reader.advance().unwrap() {
        let Entry::EnterBlock(b) = entry else { continue };
        if b.block_id != llvm_ir::MODULE_BLOCK_ID {
            reader.skip_block().unwrap();
            continue;
        }
        while let Some(entry) = reader.advance_skipping_subblocks().unwrap() {
            match entry {
                Entry::Record { .. } => got.push(reader.read_record().unwrap().code()),
                Entry::SkippedBlock(sub) => skipped.push(sub.block_id),
                other => panic!("{other:?}"),
            }
        }
        // The END_BLOCK was read: the reader is back at the top level.
        assert_eq!(reader.depth(), 0);
    }
    assert_eq!(got, want);
    assert!(skipped.contains(&llvm_ir::TYPE_BLOCK_ID_NEW), "{skipped:?}");
}

#[test]
fn display_honours_width_and_alignment() {
    use llvm_bitstream_reader::diag::Level;
    use llvm_bitstream_reader::ir::{Linkage, Visibility};
    assert_eq!(format!("{:<10}|", llvm_ir::FUNC_CODE_INST_CALL), "INST_CALL |");
    assert_eq!(format!("{:>4}|", BlockId(12)), "  12|");
    assert_eq!(format!("{:<10}|", Linkage::External), "external  |");
    assert_eq!(format!("{:>8}|", Visibility::Hidden), "  hidden|");
    assert_eq!(format!("{:<9}|", Level::Warning), "warning  |");
    assert_eq!(format!("{:^7}|", Magic::LlvmIr.to_string()), format!("{:^7}|", Magic::LlvmIr));
    assert_eq!(format!("{:<6}|", Text(b"ab")), "ab    |");
    assert_eq!(format!("{:<14}|", Linkage::Unknown(99)), "linkage(99)   |");
}

#[test]
fn errors_say_where_in_bits_and_bytes_and_name_their_block() {
    let bytes = testdata("llvm14_ir_globals.bc");
    // Cut inside the module block: the length word runs past the end.
    let cut = &bytes[..bytes.len() / 2];
    let err = Bitstream::parse(cut).unwrap().reader().find_map(Result::err).expect("an error");
    assert_eq!(err.byte_offset(), err.bit_offset() / 8);
    let text = err.to_string();
    assert!(text.contains("MODULE_BLOCK (8)") || text.contains("_BLOCK"), "{text}");
    // The same from the lending walk.
    let mut reader = Bitstream::parse(cut).unwrap().reader();
    let lent = loop {
        match reader.next_ref() {
            Err(e) => break e,
            Ok(None) => panic!("no error"),
            Ok(Some(_)) => {}
        }
    };
    assert_eq!(lent, err);
    // offset_by moves it into a larger input.
    assert_eq!(err.clone().offset_by(64).bit_offset(), err.bit_offset() + 64);
    assert!(matches!(err, Error::BlockTooLong { block_name: Some("MODULE_BLOCK"), .. }), "{err:?}");
}
