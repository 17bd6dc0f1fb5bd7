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

/// The owned record's `operands()` by every way of taking them (`next` one at a time,
/// `fold`, `nth`, a mix) against the lending walk's slice, on files whose records have
/// every kind of tail past the inline operands: array elements of each encoding (vbr6,
/// fixed, char6) and abbreviated scalars, in windows of 16 and across them.
#[test]
fn owned_operands_iterate_alike_by_next_nth_and_fold() {
    let mut long = 0;
    for name in [
        "rustc_llvm22_o0_debuginfo.bc",
        "clang14_small.pch",
        "clang14_diag_cxx.dia",
        "llvm19_remarks_hotness.opt.bitstream",
    ] {
        long += check_operand_views(name, &testdata(name));
    }
    assert!(long > 100, "records past two windows: {long}");
}

/// As above, on abbreviated scalars past several windows, then an array or a blob.
#[cfg(feature = "writer")]
#[test]
fn owned_operands_iterate_alike_past_windows_of_scalars() {
    let mut w = llvm_bitstream_reader::writer::BitstreamWriter::new(*b"TEST");
    w.enter_block(8, 3);
    use llvm_bitstream_reader::AbbrevOp;
    let mut scalars = vec![AbbrevOp::Literal(7)];
    for i in 0..40 {
        scalars.push([AbbrevOp::Fixed(7), AbbrevOp::Vbr(5), AbbrevOp::Literal(9), AbbrevOp::Char6][i % 4]);
    }
    let with_array = [scalars.clone(), vec![AbbrevOp::Array, AbbrevOp::Fixed(3)]].concat();
    let with_blob = [scalars.clone(), vec![AbbrevOp::Blob]].concat();
    for a in [&scalars, &with_array, &with_blob] {
        w.define_abbrev(a);
    }
    let values: Vec<u64> = (0..40u64).map(|i| [i, i * 977, 9, u64::from(b'a') + i % 26][i as usize % 4]).collect();
    for n in [0, 1, 5, 16, 17, 33] {
        w.write_abbreviated(4, &scalars, 7, &values, None).unwrap();
        let with_elems: Vec<u64> = values.iter().copied().chain((0..n).map(|i| i % 8)).collect();
        w.write_abbreviated(5, &with_array, 7, &with_elems, None).unwrap();
        w.write_abbreviated(6, &with_blob, 7, &values, Some(&b"blob bytes"[..n as usize % 10])).unwrap();
    }
    w.end_block();
    assert_eq!(check_operand_views("synthetic", &w.finish()), 18);
}

/// Checks every record of `bytes` (see above); returns how many have over 20 operands.
fn check_operand_views(name: &str, bytes: &[u8]) -> usize {
    let mut long = 0;
    let stream = Bitstream::parse(bytes).unwrap();
    let mut lent = Vec::new();
    let mut reader = stream.reader();
    while let Some(event) = reader.next_ref().unwrap() {
        if let EventRef::Record(r) = event {
            lent.push(r.operand_slice().to_vec());
        }
    }
    let mut records = 0;
    for event in stream.reader() {
        let Event::Record(r) = event.unwrap() else { continue };
        let want = &lent[records];
        records += 1;
        long += usize::from(want.len() > 20);
        let mut one_by_one = Vec::new();
        let mut ops = r.operands();
        while let Some(v) = ops.next() {
            let (low, high) = ops.size_hint();
            let left = want.len() - one_by_one.len() - 1;
            assert!(low <= left && high == Some(left), "{name}: record {records} size_hint");
            one_by_one.push(v);
        }
        assert_eq!(&one_by_one, want, "{name}: record {records} by next");
        let sum = want.iter().fold(0u64, |s, &v| s.wrapping_mul(31).wrapping_add(v));
        assert_eq!(r.operands().fold(0u64, |s, v| s.wrapping_mul(31).wrapping_add(v)), sum, "{name}: fold");
        for k in [0, 1, 3, 4, 5, 15, 16, 17, 19, 20, 21, 40, want.len().saturating_sub(1), want.len()] {
            assert_eq!(r.operands().nth(k), want.get(k).copied(), "{name}: record {records} nth({k})");
            assert_eq!(r.operand(k), want.get(k).copied(), "{name}: record {records} operand({k})");
            // A few by `next`, then the rest by `fold`, then `nth` after a `nth`.
            let mut ops = r.operands();
            let taken: Vec<u64> = ops.by_ref().take(k).collect();
            let rest = ops.fold(Vec::new(), |mut v, x| {
                v.push(x);
                v
            });
            assert_eq!([taken, rest].concat(), *want, "{name}: record {records} take({k}) then fold");
            let mut ops = r.operands();
            let first = ops.nth(k / 2);
            assert_eq!(first, want.get(k / 2).copied());
            if first.is_some() {
                assert_eq!(ops.nth(k - k / 2), want.get(k + 1).copied(), "{name}: record {records} nth after nth");
            }
        }
    }
    assert_eq!(records, lent.len(), "{name}");
    long
}

/// The owned event's size is a measured trade (`limits::INLINE_OPERANDS`): growing it
/// should be a decision, not an accident.
#[test]
fn an_owned_event_stays_at_160_bytes() {
    assert!(std::mem::size_of::<Event<'_>>() <= 160, "{}", std::mem::size_of::<Event<'_>>());
    assert!(std::mem::size_of::<Option<Result<Event<'_>, Error>>>() <= 160);
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
