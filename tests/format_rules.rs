//! One test per rule of the bitstream format, named for the rule, plus the worked
//! examples of the format documents. Streams are built with the crate's writer or by hand.
#![cfg(feature = "writer")]

mod common;

use llvm_bitstream_reader::cursor::BitCursor;
use llvm_bitstream_reader::writer::{BitstreamWriter, wrap};
use llvm_bitstream_reader::{AbbrevOp, Bitstream, BlockId, Entry, Error, Event, Magic, decode_sign_rotated};

/// A comparable form of an event.
#[derive(Debug, PartialEq, Eq)]
enum Ev {
    Enter(u32, u32),
    Rec { code: u32, abbrev: u32, ops: Vec<u64>, blob: Option<Vec<u8>> },
    Exit,
}

fn events(bytes: &[u8]) -> Result<Vec<Ev>, Error> {
    let mut out = Vec::new();
    for ev in Bitstream::parse(bytes)?.reader() {
        out.push(match ev? {
            Event::EnterBlock(b) => Ev::Enter(b.block_id().0, b.abbrev_width()),
            Event::Record(r) => Ev::Rec {
                code: r.code(),
                abbrev: r.abbrev_id(),
                ops: r.operands().collect(),
                blob: r.blob().map(<[u8]>::to_vec),
            },
            Event::EndBlock(_) => Ev::Exit,
            _ => unreachable!("abbreviation definitions are not asked for"),
        });
    }
    Ok(out)
}

fn rec(code: u32, abbrev: u32, ops: &[u64]) -> Ev {
    Ev::Rec { code, abbrev, ops: ops.to_vec(), blob: None }
}

/// A stream of bits written LSB-first from (value, width) pairs, padded to 32 bits.
fn bits(fields: &[(u64, u32)]) -> Vec<u8> {
    let mut w = BitstreamWriter::new(*b"TEST");
    for &(v, n) in fields {
        w.write_fixed(v, n);
    }
    w.finish()
}

#[test]
fn vbr4_of_27_is_1011_0011() {
    // Seed 000: "the value 27 (0x1B) is encoded as 1011 0011 when emitted as a vbr4 value".
    let bytes = bits(&[(0b1011, 4), (0b0011, 4)]);
    let mut c = BitCursor::at(&bytes, 32).unwrap();
    assert_eq!(c.read_vbr(4).unwrap(), 27);
    assert_eq!(c.position(), 40);
    let mut w = BitstreamWriter::new(*b"TEST");
    w.write_vbr(27, 4);
    assert_eq!(w.finish()[4], 0b0011_1011);
}

#[test]
fn fixed_fields_are_read_least_significant_bit_first() {
    let bytes = [0b1010_1100u8, 0xff, 0, 0];
    let mut c = BitCursor::new(&bytes);
    assert_eq!(c.read(2).unwrap(), 0b00);
    assert_eq!(c.read(3).unwrap(), 0b011);
    assert_eq!(c.read(3).unwrap(), 0b101);
    assert_eq!(c.read(4).unwrap(), 0xf);
    assert_eq!(c.read(0).unwrap(), 0);
    assert_eq!(c.position(), 12);
}

#[test]
fn reads_of_64_bits_and_past_the_end() {
    let bytes: Vec<u8> = (1..=16).collect();
    let mut c = BitCursor::at(&bytes, 4).unwrap();
    let expect = u128::from_le_bytes(bytes.clone().try_into().unwrap()) >> 4;
    assert_eq!(c.read(64).unwrap(), expect as u64);
    assert!(matches!(c.read(65), Err(Error::InvalidFixedWidth { width: 65, .. })));
    assert_eq!(c.remaining_bits(), 60);
    let before = c.position();
    assert!(matches!(c.read(61), Err(Error::UnexpectedEof { needed: 61, available: 60, .. })));
    assert_eq!(c.position(), before, "a failed fixed read does not move the cursor");
    assert_eq!(c.read(60).unwrap(), (expect >> 64) as u64);
    assert!(c.at_end());
}

#[test]
fn vbr_payload_past_64_bits_is_dropped_and_a_65th_bit_chunk_is_an_error() {
    // vbr32 chunks carry 31 payload bits: 3 chunks reach bit 93 > 64, LLVM drops the top.
    let bytes = bits(&[((1 << 31) | 5, 32), ((1 << 31) | 7, 32), (3, 32)]);
    let mut c = BitCursor::at(&bytes, 32).unwrap();
    assert_eq!(c.read_vbr(32).unwrap(), 5 | (7 << 31) | (3 << 62));
    // vbr2: 1 payload bit per chunk; 64 continuation chunks never end within 64 bits.
    let fields: Vec<(u64, u32)> = (0..70).map(|_| (0b11, 2)).collect();
    let bytes = bits(&fields);
    let mut c = BitCursor::at(&bytes, 32).unwrap();
    assert!(matches!(c.read_vbr(2), Err(Error::UnterminatedVbr { bit: 32, max_bits: 64 })));
    let mut c = BitCursor::at(&bytes, 32).unwrap();
    assert!(matches!(c.read_vbr32(2), Err(Error::UnterminatedVbr { bit: 32, max_bits: 32 })));
}

#[test]
fn vbr1_reads_a_run_of_ones_as_zero_like_llvm() {
    let bytes = bits(&[(0b0111, 4)]);
    let mut c = BitCursor::at(&bytes, 32).unwrap();
    assert_eq!(c.read_vbr(1).unwrap(), 0);
    assert_eq!(c.position(), 36);
    assert!(matches!(c.read_vbr(0), Err(Error::InvalidVbrWidth { .. })));
    assert!(matches!(c.read_vbr(33), Err(Error::InvalidVbrWidth { .. })));
}

#[test]
fn char6_alphabet() {
    let bytes = bits(&[(0, 6), (25, 6), (26, 6), (51, 6), (52, 6), (61, 6), (62, 6), (63, 6)]);
    let mut c = BitCursor::at(&bytes, 32).unwrap();
    let s: Vec<u8> = (0..8).map(|_| c.read_char6().unwrap()).collect();
    assert_eq!(&s, b"azAZ09._");
}

#[test]
fn align32_skips_padding_whatever_it_holds() {
    let bytes = bits(&[(0b101, 3), (0x1fff_ffff, 29), (0xabcd, 16)]);
    let mut c = BitCursor::at(&bytes, 32).unwrap();
    c.read(3).unwrap();
    c.align32().unwrap();
    assert_eq!(c.position(), 64);
    c.align32().unwrap();
    assert_eq!(c.position(), 64, "aligned positions stay");
    assert_eq!(c.read(16).unwrap(), 0xabcd);
}

#[test]
fn triple_abbreviation_of_the_format_document_takes_37_bits() {
    // Seed 000: [0, Fixed, 4] [0, Array] [0, Char6]; record [TRIPLE=2, "abcd"] with a
    // 3-bit abbrev id width takes 3 + 4 + 6 + 4*6 = 37 bits.
    let abbrev = [AbbrevOp::Fixed(4), AbbrevOp::Array, AbbrevOp::Char6];
    let mut w = BitstreamWriter::new(*b"TEST");
    w.enter_block(8, 3);
    w.define_abbrev(&abbrev);
    let before = w.bit_position();
    w.write_abbreviated(4, &abbrev, 2, &b"abcd".map(u64::from), None).unwrap();
    assert_eq!(w.bit_position() - before, 37);
    w.end_block();
    let bytes = w.finish();
    let evs = events(&bytes).unwrap();
    assert_eq!(evs, vec![Ev::Enter(8, 3), rec(2, 4, &b"abcd".map(u64::from)), Ev::Exit]);
    let Some(Event::Record(r)) = Bitstream::parse(&bytes).unwrap().reader().nth(1).transpose().unwrap() else {
        panic!("no record")
    };
    let array = r.array().unwrap();
    assert!(array.is_text());
    assert_eq!(array.to_text(), "abcd");
    assert_eq!(r.bits().len(), 37);
}

#[test]
fn define_abbrev_walkthrough_of_the_rust_parser_post() {
    // Seed 001: [DEFINE_ABBREV, 0b00010, 0b1, 0b00001000, 0b0, 0b010, 0b01110]: two
    // operands, literal 8 and VBR(14); then record [0b010000, 0b00000011111111] with abbrev
    // id 16 at width 6 is code 8, value 255. Ids 4..=15 are defined first so 16 is next.
    let mut w = BitstreamWriter::new(*b"TEST");
    w.enter_block(9, 6);
    for _ in 4..16 {
        w.define_abbrev(&[AbbrevOp::Literal(1)]);
    }
    // Hand-written DEFINE_ABBREV, field by field as the post spells it.
    for (v, n) in [(2, 6), (0b00010, 5), (0b1, 1), (0b0000_1000, 8), (0b0, 1), (0b010, 3), (0b01110, 5)] {
        w.write_fixed(v, n);
    }
    w.write_fixed(0b010000, 6);
    w.write_fixed(0b00_0000_1111_1111, 14);
    w.end_block();
    let evs = events(&w.finish()).unwrap();
    assert_eq!(evs, vec![Ev::Enter(9, 6), rec(8, 16, &[255]), Ev::Exit]);
}

#[test]
fn unabbreviated_record_example_of_the_rust_parser_post() {
    // Seed 001: [0b000100, 0b000011, 0b010000, 0b011111, 0b000001, 0b100000] (vbr6 each,
    // 32 takes two chunks): code 4, three operands 16, 31, 32.
    let mut w = BitstreamWriter::new(*b"TEST");
    w.enter_block(9, 2);
    w.write_unabbrev(4, &[16, 31, 32]);
    w.end_block();
    assert_eq!(events(&w.finish()).unwrap(), vec![Ev::Enter(9, 2), rec(4, 3, &[16, 31, 32]), Ev::Exit]);
}

#[test]
fn fixed0_and_vbr0_become_literal_zero() {
    let mut w = BitstreamWriter::new(*b"TEST");
    w.enter_block(9, 3);
    w.define_abbrev(&[AbbrevOp::Literal(7), AbbrevOp::Fixed(0), AbbrevOp::Vbr(0), AbbrevOp::Fixed(3)]);
    w.write_abbrev_id(4);
    w.write_fixed(5, 3);
    w.end_block();
    assert_eq!(events(&w.finish()).unwrap(), vec![Ev::Enter(9, 3), rec(7, 4, &[0, 0, 5]), Ev::Exit]);
}

fn one_record_with(abbrev: &[AbbrevOp], body: impl FnOnce(&mut BitstreamWriter)) -> Result<Vec<Ev>, Error> {
    let mut w = BitstreamWriter::new(*b"TEST");
    w.enter_block(9, 3);
    w.define_abbrev(abbrev);
    w.write_abbrev_id(4);
    body(&mut w);
    w.end_block();
    events(&w.finish())
}

#[test]
fn array_of_fixed0_is_an_error_when_used() {
    let err = one_record_with(&[AbbrevOp::Literal(1), AbbrevOp::Array, AbbrevOp::Fixed(0)], |w| w.write_vbr(0, 6));
    assert!(matches!(err, Err(Error::InvalidAbbrev { reason, .. }) if reason.contains("encoding of a type")));
}

#[test]
fn array_must_be_second_to_last() {
    let err = one_record_with(&[AbbrevOp::Literal(1), AbbrevOp::Array, AbbrevOp::Fixed(3), AbbrevOp::Fixed(3)], |_| {});
    assert!(matches!(err, Err(Error::InvalidAbbrev { reason, .. }) if reason.contains("second-to-last")));
}

#[test]
fn array_of_array_or_blob_is_an_error() {
    for elem in [AbbrevOp::Array, AbbrevOp::Blob] {
        let err = one_record_with(&[AbbrevOp::Literal(1), AbbrevOp::Array, elem], |_| {});
        assert!(matches!(err, Err(Error::InvalidAbbrev { reason, .. }) if reason.contains("can't be an array")));
    }
}

#[test]
fn abbreviation_starting_with_array_or_blob_is_an_error_when_used() {
    let err = one_record_with(&[AbbrevOp::Blob], |_| {});
    assert!(matches!(err, Err(Error::InvalidAbbrev { reason, .. }) if reason.contains("starts with")));
}

#[test]
fn unused_bad_abbreviation_is_accepted_like_llvm() {
    let mut w = BitstreamWriter::new(*b"TEST");
    w.enter_block(9, 3);
    w.define_abbrev(&[AbbrevOp::Array, AbbrevOp::Fixed(1), AbbrevOp::Fixed(1)]);
    w.end_block();
    assert_eq!(events(&w.finish()).unwrap(), vec![Ev::Enter(9, 3), Ev::Exit]);
}

#[test]
fn invalid_encodings_0_6_7_are_errors() {
    for enc in [0u8, 6, 7] {
        let mut w = BitstreamWriter::new(*b"TEST");
        w.enter_block(9, 3);
        w.write_abbrev_id(2);
        w.write_vbr(1, 5);
        w.write_encoding(enc, None);
        w.end_block();
        assert!(matches!(events(&w.finish()), Err(Error::InvalidEncoding { encoding, .. }) if encoding == enc));
    }
}

#[test]
fn abbreviation_with_no_operands_is_an_error() {
    let mut w = BitstreamWriter::new(*b"TEST");
    w.enter_block(9, 3);
    w.define_abbrev(&[]);
    w.end_block();
    assert!(matches!(events(&w.finish()), Err(Error::EmptyAbbrev { .. })));
}

#[test]
fn fixed_or_vbr_wider_than_64_is_an_error() {
    for op in [AbbrevOp::Fixed(65), AbbrevOp::Vbr(65), AbbrevOp::Fixed(1000)] {
        let mut w = BitstreamWriter::new(*b"TEST");
        w.enter_block(9, 3);
        w.define_abbrev(&[AbbrevOp::Literal(1), op]);
        w.end_block();
        assert!(matches!(events(&w.finish()), Err(Error::OperandTooWide { .. })), "{op:?}");
    }
}

/// LLVM's `MaxChunkSize` is 64 on 64-bit hosts: `Fixed` fields of up to 64 bits, as
/// operands, as the record code (cut to 32 bits) and as array elements.
#[test]
fn fixed_fields_of_up_to_64_bits_are_read_like_llvm() {
    let abbrev = [
        AbbrevOp::Fixed(40),
        AbbrevOp::Fixed(40),
        AbbrevOp::Fixed(56),
        AbbrevOp::Fixed(64),
        AbbrevOp::Fixed(33),
        AbbrevOp::Array,
        AbbrevOp::Fixed(64),
    ];
    let ops = [(1 << 40) - 1, 0xAB_CDEF_0123_4567, u64::MAX, (1 << 32) | 1, u64::MAX - 1, 1 << 63, 0];
    let mut w = BitstreamWriter::new(*b"TEST");
    w.enter_block(9, 3);
    w.define_abbrev(&abbrev);
    // The code field holds 2^33 + 7: LLVM keeps the code in an `unsigned`, so it is 7.
    w.write_abbrev_id(4);
    w.write_fixed((1 << 33) | 7, 40);
    for (&op, v) in abbrev[1..5].iter().zip(ops) {
        let AbbrevOp::Fixed(width) = op else { unreachable!() };
        w.write_fixed(v, width);
    }
    w.write_vbr(3, 6);
    for v in &ops[4..] {
        w.write_fixed(*v, 64);
    }
    // The same values again, through the packed layout of a definition of 56 bits.
    let packed = [AbbrevOp::Literal(2), AbbrevOp::Fixed(40), AbbrevOp::Fixed(16)];
    w.define_abbrev(&packed);
    w.write_abbreviated(5, &packed, 2, &[(1 << 40) - 2, 0xBEEF], None).unwrap();
    w.end_block();
    let bytes = w.finish();
    assert_eq!(
        events(&bytes).unwrap(),
        vec![Ev::Enter(9, 3), rec(7, 4, &ops), rec(2, 5, &[(1 << 40) - 2, 0xBEEF]), Ev::Exit]
    );
    // The lending walk decodes the same.
    let mut reader = Bitstream::parse(&bytes).unwrap().reader();
    let mut seen = Vec::new();
    while let Some(event) = reader.next_ref().unwrap() {
        if let llvm_bitstream_reader::EventRef::Record(r) = event {
            seen.push((r.code(), r.operand_slice().to_vec()));
        }
    }
    assert_eq!(seen, vec![(7, ops.to_vec()), (2, vec![(1 << 40) - 2, 0xBEEF])]);
}

/// LLVM accepts a `VBR` operand of 33..=64 bits in a definition, but reads its chunks
/// through a 32-bit variable (see `limits::MAX_VBR_CHUNK_WIDTH`): a record using one is
/// an error here, a definition no record uses is fine.
#[test]
fn vbr_chunks_wider_than_32_are_an_error_when_used() {
    for abbrev in [[AbbrevOp::Literal(1), AbbrevOp::Vbr(33)], [AbbrevOp::Literal(1), AbbrevOp::Vbr(64)]] {
        let mut w = BitstreamWriter::new(*b"TEST");
        w.enter_block(9, 3);
        w.define_abbrev(&abbrev);
        w.end_block();
        assert_eq!(events(&w.finish()).unwrap(), vec![Ev::Enter(9, 3), Ev::Exit]);
        let err = one_record_with(&abbrev, |w| w.write_fixed(5, 64));
        assert!(matches!(err, Err(Error::InvalidAbbrev { reason, .. }) if reason.contains("VBR")), "{err:?}");
    }
    let err = one_record_with(&[AbbrevOp::Literal(1), AbbrevOp::Array, AbbrevOp::Vbr(40)], |w| w.write_vbr(0, 6));
    assert!(matches!(err, Err(Error::InvalidAbbrev { .. })), "{err:?}");
}

/// Definitions of more than 64 operands are checked to their end before they are stored
/// (so a hostile count costs no memory); they read like short ones, and fail the same way.
#[test]
fn definitions_of_many_operands_read_like_short_ones() {
    for n in [63usize, 64, 65, 200] {
        let mut abbrev = vec![AbbrevOp::Literal(1)];
        abbrev.extend((1..n).map(|i| if i % 2 == 0 { AbbrevOp::Fixed(3) } else { AbbrevOp::Vbr(4) }));
        let ops: Vec<u64> = (1..n as u64).map(|i| i % 8).collect();
        let mut w = BitstreamWriter::new(*b"TEST");
        w.enter_block(9, 3);
        w.define_abbrev(&abbrev);
        w.write_abbreviated(4, &abbrev, 1, &ops, None).unwrap();
        w.end_block();
        let bytes = w.finish();
        assert_eq!(events(&bytes).unwrap(), vec![Ev::Enter(9, 3), rec(1, 4, &ops), Ev::Exit], "{n} operands");
        // The same definition with its last operand's encoding made invalid (0).
        let mut w = BitstreamWriter::new(*b"TEST");
        w.enter_block(9, 3);
        w.define_abbrev(&abbrev[..n - 1]);
        w.write_abbrev_id(2);
        w.write_vbr(n as u64, 5);
        for op in &abbrev[..n - 1] {
            match *op {
                AbbrevOp::Literal(v) => {
                    w.write_fixed(1, 1);
                    w.write_vbr(v, 8);
                }
                AbbrevOp::Fixed(width) => w.write_encoding(1, Some(width)),
                AbbrevOp::Vbr(width) => w.write_encoding(2, Some(width)),
                _ => unreachable!(),
            }
        }
        let bad = w.bit_position();
        w.write_encoding(0, None);
        w.end_block();
        let err = events(&w.finish());
        assert!(matches!(err, Err(Error::InvalidEncoding { bit, encoding: 0 }) if bit == bad), "{n}: {err:?}");
        // And cut short in its last operands, the block's length patched to end where the
        // input now does.
        let mut w = BitstreamWriter::new(*b"TEST");
        w.enter_block(9, 3);
        w.define_abbrev(&abbrev);
        let end = (w.bit_position() / 8 - 1) as usize & !3;
        let mut cut = w.finish();
        cut.truncate(end);
        let words = (end as u32 - 12) / 4;
        cut[8..12].copy_from_slice(&words.to_le_bytes());
        let err = events(&cut);
        assert!(matches!(err, Err(Error::UnexpectedEof { .. })), "{n} operands, cut short: {err:?}");
    }
}

#[test]
fn every_operand_kind_in_one_abbreviation() {
    let abbrev = [
        AbbrevOp::Vbr(6),
        AbbrevOp::Literal(42),
        AbbrevOp::Fixed(13),
        AbbrevOp::Vbr(4),
        AbbrevOp::Char6,
        AbbrevOp::Blob,
        AbbrevOp::Fixed(1),
        AbbrevOp::Array,
        AbbrevOp::Vbr(5),
    ];
    let mut w = BitstreamWriter::new(*b"TEST");
    w.enter_block(9, 3);
    w.define_abbrev(&abbrev);
    let ops = [42, 8191, 1 << 40, u64::from(b'Z'), 1, 0, 17, u64::MAX];
    w.write_abbreviated(4, &abbrev, 1000, &ops, Some(b"blob!")).unwrap();
    w.end_block();
    let bytes = w.finish();
    assert_eq!(
        events(&bytes).unwrap(),
        vec![
            Ev::Enter(9, 3),
            Ev::Rec { code: 1000, abbrev: 4, ops: ops.to_vec(), blob: Some(b"blob!".to_vec()) },
            Ev::Exit
        ]
    );
    // The blob borrows the input: zero-copy.
    let stream = Bitstream::parse(&bytes).unwrap();
    let Some(Ok(Event::Record(r))) = stream.reader().nth(1) else { panic!() };
    let blob = r.blob().unwrap();
    let range = bytes.as_ptr_range();
    assert!(range.contains(&blob.as_ptr()));
    assert_eq!((blob.as_ptr() as usize - bytes.as_ptr() as usize) % 4, 0, "blob data is 32-bit aligned");
    let array = r.array().unwrap();
    assert_eq!((array.first_operand(), array.len()), (5, 3));
    assert_eq!(r.operand(7), Some(u64::MAX));
    assert_eq!(r.operand(8), None, "tolerant access past the end");
}

#[test]
fn records_longer_than_the_inline_operands_decode_from_the_input() {
    use llvm_bitstream_reader::limits::INLINE_OPERANDS;
    let n = INLINE_OPERANDS as u64 * 3 + 1;
    let ops: Vec<u64> = (0..n).map(|i| i * 1000).collect();
    // 40 scalar fields: the tail is decoded from the abbreviation's plan.
    let mut abbrev = vec![AbbrevOp::Literal(5)];
    abbrev.extend((0..n).map(|_| AbbrevOp::Vbr(7)));
    let mut w = BitstreamWriter::new(*b"TEST");
    w.enter_block(9, 4);
    w.define_abbrev(&abbrev);
    w.define_abbrev(&[AbbrevOp::Literal(6), AbbrevOp::Fixed(1), AbbrevOp::Array, AbbrevOp::Vbr(6)]);
    w.write_abbreviated(4, &abbrev, 5, &ops, None).unwrap();
    let mut arr = vec![1];
    arr.extend(&ops);
    w.write_abbreviated(
        5,
        &[AbbrevOp::Literal(6), AbbrevOp::Fixed(1), AbbrevOp::Array, AbbrevOp::Vbr(6)],
        6,
        &arr,
        None,
    )
    .unwrap();
    w.write_unabbrev(7, &ops);
    w.end_block();
    let evs = events(&w.finish()).unwrap();
    assert_eq!(evs, vec![Ev::Enter(9, 4), rec(5, 4, &ops), rec(6, 5, &arr), rec(7, 3, &ops), Ev::Exit]);
}

#[test]
fn record_code_is_truncated_to_32_bits_like_llvm() {
    let abbrev = [AbbrevOp::Literal((1 << 32) | 9)];
    let mut w = BitstreamWriter::new(*b"TEST");
    w.enter_block(9, 3);
    w.define_abbrev(&abbrev);
    w.write_abbrev_id(4);
    w.end_block();
    assert_eq!(events(&w.finish()).unwrap(), vec![Ev::Enter(9, 3), rec(9, 4, &[]), Ev::Exit]);
}

#[test]
fn blockinfo_abbreviations_come_before_the_blocks_own() {
    let mut w = BitstreamWriter::new(*b"TEST");
    w.enter_block(8, 3);
    w.enter_blockinfo();
    w.set_bid(9);
    w.define_abbrev(&[AbbrevOp::Literal(100)]);
    w.block_name("NINE");
    w.record_name(100, "HUNDRED");
    w.end_block();
    w.enter_block(9, 3);
    w.define_abbrev(&[AbbrevOp::Literal(200)]);
    w.write_abbrev_id(5);
    w.write_abbrev_id(4);
    w.end_block();
    // Sub-blocks do not inherit the parent's local abbreviations.
    w.define_abbrev(&[AbbrevOp::Literal(300)]);
    w.enter_block(10, 3);
    w.write_abbrev_id(4);
    w.end_block();
    w.end_block();
    let bytes = w.finish();
    let evs = events(&bytes);
    assert!(
        matches!(evs, Err(Error::UndefinedAbbrev { abbrev_id: 4, block_id: BlockId(10), defined: 0, .. })),
        "{evs:?}"
    );
    let mut reader = Bitstream::parse(&bytes).unwrap().reader();
    let mut got = Vec::new();
    while let Some(Ok(ev)) = reader.next() {
        if let Event::EnterBlock(b) = &ev {
            got.push(format!("enter {} {:?}", b.block_id(), b.blockinfo_name));
        }
        if let Event::Record(r) = &ev {
            got.push(format!("record {} {}", r.code(), r.abbrev_id()));
        }
    }
    assert_eq!(
        got,
        [
            "enter 8 None",
            "enter 0 None",
            "record 1 3",
            "record 2 3",
            "record 3 3",
            "enter 9 Some(\"NINE\")",
            "record 200 5",
            "record 100 4",
            "enter 10 None"
        ]
    );
    assert_eq!(reader.blockinfo().record_name(9, 100), Some("HUNDRED"));
    assert_eq!(reader.blockinfo().block_name(9), Some("NINE"));
}

#[test]
fn a_second_blockinfo_replaces_the_first_like_llvm() {
    let mut w = BitstreamWriter::new(*b"TEST");
    for (lit, _) in [(100, 0), (200, 1)] {
        w.enter_block(8, 3);
        w.enter_blockinfo();
        w.set_bid(9);
        w.define_abbrev(&[AbbrevOp::Literal(lit)]);
        w.end_block();
        w.enter_block(9, 3);
        w.write_abbrev_id(4);
        // Only one abbreviation for block 9: the second BLOCKINFO's, not both.
        w.end_block();
        w.end_block();
    }
    let evs = events(&w.finish()).unwrap();
    let codes: Vec<u32> = evs
        .iter()
        .filter_map(|e| match e {
            Ev::Rec { code, abbrev: 4, .. } => Some(*code),
            _ => None,
        })
        .collect();
    assert_eq!(codes, [100, 200]);
    let mut w = BitstreamWriter::new(*b"TEST");
    w.enter_block(8, 3);
    for lit in [100, 200] {
        w.enter_blockinfo();
        w.set_bid(9);
        w.define_abbrev(&[AbbrevOp::Literal(lit)]);
        w.end_block();
    }
    w.enter_block(9, 3);
    w.write_abbrev_id(5);
    w.end_block();
    w.end_block();
    assert!(matches!(events(&w.finish()), Err(Error::UndefinedAbbrev { abbrev_id: 5, defined: 1, .. })));
}

#[test]
fn blockinfo_records_before_setbid_are_errors() {
    for f in [
        (|w: &mut BitstreamWriter| w.define_abbrev(&[AbbrevOp::Literal(1)])) as fn(&mut BitstreamWriter),
        |w| w.block_name("x"),
        |w| w.record_name(1, "x"),
    ] {
        let mut w = BitstreamWriter::new(*b"TEST");
        w.enter_blockinfo();
        f(&mut w);
        w.end_block();
        assert!(matches!(events(&w.finish()), Err(Error::BadBlockInfo { .. })));
    }
}

#[test]
fn blockinfo_at_top_level_and_unknown_blockinfo_records_are_fine() {
    let mut w = BitstreamWriter::new(*b"TEST");
    w.enter_blockinfo();
    w.write_unabbrev(77, &[1, 2]);
    w.set_bid(9);
    w.define_abbrev(&[AbbrevOp::Literal(5), AbbrevOp::Fixed(8)]);
    w.end_block();
    w.enter_block(9, 3);
    w.write_abbreviated(4, &[AbbrevOp::Literal(5), AbbrevOp::Fixed(8)], 5, &[200], None).unwrap();
    w.end_block();
    let evs = events(&w.finish()).unwrap();
    assert_eq!(evs[1], rec(77, 3, &[1, 2]));
    assert_eq!(evs[5], rec(5, 4, &[200]));
}

#[test]
fn end_block_at_top_level_is_an_error() {
    let mut w = BitstreamWriter::new(*b"TEST");
    w.write_abbrev_id(0);
    w.write_fixed(0, 62);
    w.write_fixed(1, 32);
    assert!(matches!(events(&w.finish()), Err(Error::EndBlockAtTopLevel { bit: 32 })));
}

#[test]
fn records_at_top_level_are_errors() {
    let mut w = BitstreamWriter::new(*b"TEST");
    w.write_unabbrev(1, &[]);
    w.write_fixed(0, 96);
    assert!(matches!(events(&w.finish()), Err(Error::NotABlockAtTopLevel { abbrev_id: 3, bit: 32 })));
}

#[test]
fn abbreviation_width_must_be_1_to_64() {
    for width in [0u32, 65, 1000] {
        let mut w = BitstreamWriter::new(*b"TEST");
        w.write_abbrev_id(1);
        w.write_vbr(8, 8);
        w.write_vbr(u64::from(width), 4);
        w.align32();
        w.write_fixed(1, 32);
        w.write_fixed(0, 32);
        assert!(matches!(events(&w.finish()), Err(Error::InvalidAbbrevWidth { width: got, .. }) if got == width));
    }
}

/// LLVM checks the width in `EnterSubBlock` only: `SkipBlock` reads it and jumps, so a
/// skipped block may declare any width (LLVM's `invalid-inserted-value-type-mismatch.bc`
/// has a width-0 block that `llvm-nm` skips). Entering it is the error, at its header.
#[test]
fn abbreviation_width_is_checked_when_entered_not_when_skipped() {
    for width in [0u32, 65] {
        let mut w = BitstreamWriter::new(*b"TEST");
        w.write_abbrev_id(1);
        w.write_vbr(8, 8);
        w.write_vbr(2, 4);
        w.align32();
        w.write_fixed(4, 32);
        // Inside block 8 (width 2): block 9 with the bad width, one word long.
        w.write_fixed(1, 2);
        w.write_vbr(9, 8);
        w.write_vbr(u64::from(width), 4);
        w.align32();
        w.write_fixed(1, 32);
        w.write_fixed(0xFFFF_FFFF, 32);
        // END_BLOCK of block 8.
        w.write_fixed(0, 2);
        w.align32();
        let bytes = w.finish();
        let stream = Bitstream::parse(&bytes).unwrap();

        // Skipped: the walk goes on to block 8's end.
        let mut reader = stream.reader();
        assert!(matches!(reader.advance().unwrap(), Some(Entry::EnterBlock(b)) if b.block_id.0 == 8));
        let inner = match reader.advance().unwrap() {
            Some(Entry::EnterBlock(b)) => b,
            other => panic!("expected block 9, got {other:?}"),
        };
        assert_eq!((inner.block_id.0, inner.abbrev_width), (9, width));
        reader.skip_block().unwrap();
        assert!(matches!(reader.advance().unwrap(), Some(Entry::EndBlock(b)) if b.block_id.0 == 8));
        assert!(reader.advance().unwrap().is_none());

        // Entered: the next advance is the error, at the block's header.
        let mut reader = stream.reader();
        reader.advance().unwrap();
        reader.advance().unwrap();
        let error = reader.advance().unwrap_err();
        assert!(
            matches!(error, Error::InvalidAbbrevWidth { bit, width: got, .. } if got == width && bit == inner.header_bit),
            "{error:?}"
        );
    }
}

/// Blocks may use abbreviation ids of up to 64 bits (LLVM's `MaxChunkSize`). Ids are cut
/// to their low 32 bits, as LLVM's `ReadCode` returns an `unsigned`.
#[test]
fn abbreviation_ids_of_up_to_64_bits_are_read_like_llvm() {
    for width in [33, 40, 56, 57, 63, 64] {
        let mut w = BitstreamWriter::new(*b"TEST");
        w.enter_block(9, width);
        w.write_unabbrev(1, &[1, 2]);
        let abbrev = [AbbrevOp::Literal(4), AbbrevOp::Fixed(64)];
        w.define_abbrev(&abbrev);
        w.write_abbreviated(4, &abbrev, 4, &[u64::MAX], None).unwrap();
        // 2^32 + 3: an unabbreviated record once cut to 32 bits.
        w.write_fixed((1 << 32) | 3, width);
        w.write_vbr(5, 6);
        w.write_vbr(0, 6);
        // 2^32 + 4 is abbreviation 4.
        w.write_fixed((1 << 32) | 4, width);
        w.write_fixed(6, 64);
        w.enter_block(10, 64);
        w.write_unabbrev(2, &[3]);
        w.end_block();
        w.end_block();
        let bytes = w.finish();
        assert_eq!(
            events(&bytes).unwrap(),
            vec![
                Ev::Enter(9, width),
                rec(1, 3, &[1, 2]),
                rec(4, 4, &[u64::MAX]),
                rec(5, 3, &[]),
                rec(4, 4, &[6]),
                Ev::Enter(10, 64),
                rec(2, 3, &[3]),
                Ev::Exit,
                Ev::Exit,
            ],
            "width {width}"
        );
        // A block that wide can be skipped and read back from its bookmark.
        let stream = Bitstream::parse(&bytes).unwrap();
        let mut reader = stream.reader();
        let Some(Ok(Event::EnterBlock(block))) = reader.next() else { panic!("no block") };
        assert_eq!(block.abbrev_width(), width);
        let lazy = reader.skip_block().unwrap();
        assert_eq!(lazy.reader().unwrap().count(), 9);
    }
}

#[test]
fn block_length_must_match_its_end_and_fit_the_input() {
    let mut w = BitstreamWriter::new(*b"TEST");
    w.enter_block(9, 2);
    w.write_unabbrev(1, &[1]);
    w.end_block();
    let good = w.finish();
    assert!(events(&good).is_ok());
    // Length word at byte 8 (magic, then the 32-bit ENTER_SUBBLOCK header word).
    let words = u32::from_le_bytes(good[8..12].try_into().unwrap());
    for (bad_words, expect_long) in [(words + 1, true), (words - 1, false)] {
        let mut bad = good.clone();
        bad[8..12].copy_from_slice(&bad_words.to_le_bytes());
        let r = events(&bad);
        if expect_long {
            assert!(matches!(r, Err(Error::BlockTooLong { .. })), "{r:?}");
        } else {
            assert!(matches!(r, Err(Error::BlockLengthMismatch { .. })), "{r:?}");
        }
    }
}

/// LLVM's `getBitcodeFileContents` stops looking for modules once at most 8 bytes are
/// left ("garbage at the end of the bitcode stream (e.g. Apple's ar tool)"), so `llvm-dis`
/// reads a module followed by 4 or 8 stray bytes. `llvm-bcanalyzer` tolerates no trailing
/// bytes at all, but it rejects a stream whose first block header is cut short
/// ("Unexpected end of file"), where `getBitcodeFileContents` just finds no module. We
/// tolerate trailing bytes only after a complete top-level block: each case follows the
/// tool named in the table, and the table's record of both tools is checked against
/// them when LLVM 14 is installed.
#[test]
fn trailing_bytes_are_tolerated_only_after_a_complete_top_level_block() {
    use std::process::Command;

    let mut w = BitstreamWriter::new([0x42, 0x43, 0xC0, 0xDE]);
    w.enter_block(8, 3); // an empty MODULE_BLOCK, so that llvm-dis reads it
    w.end_block();
    let module = w.finish();
    assert_eq!(module.len(), 16);
    let with = |extra: usize| [&module[..], &vec![0xAA; extra][..]].concat();
    // (name, bytes, we accept, llvm-bcanalyzer accepts, llvm-dis accepts)
    let cases = [
        ("magic-only", module[..4].to_vec(), true, true, true),
        ("header-4-bytes", module[..8].to_vec(), false, false, true),
        ("header-8-bytes", module[..12].to_vec(), false, false, true),
        ("module", module.clone(), true, true, true),
        ("module-and-4-bytes", with(4), true, false, true),
        ("module-and-8-bytes", with(8), true, false, true),
        ("module-and-12-bytes", with(12), false, false, false),
    ];
    for (name, bytes, ours, _, _) in &cases {
        let got = events(bytes);
        assert_eq!(got.is_ok(), *ours, "{name}: {got:?}");
        match *name {
            "header-4-bytes" => assert!(matches!(got, Err(Error::UnexpectedEof { bit: 64, .. })), "{got:?}"),
            "header-8-bytes" => assert!(matches!(got, Err(Error::BlockTooLong { bit: 32, .. })), "{got:?}"),
            "magic-only" => assert_eq!(got.unwrap(), vec![]),
            _ => {}
        }
    }
    let (Some(analyzer), Some(dis)) = (common::llvm14_tool("llvm-bcanalyzer"), common::llvm14_tool("llvm-dis")) else {
        return;
    };
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("trailing-bytes");
    std::fs::create_dir_all(&dir).unwrap();
    for (name, bytes, ours, by_analyzer, by_dis) in &cases {
        let path = dir.join(format!("{name}.bc"));
        std::fs::write(&path, bytes).unwrap();
        let accepts = |tool: &std::path::Path, args: &[&str]| {
            Command::new(tool).args(args).arg(&path).output().expect("run an LLVM tool").status.success()
        };
        assert_eq!(accepts(&analyzer, &["-dump"]), *by_analyzer, "{name}: llvm-bcanalyzer");
        assert_eq!(accepts(&dis, &["-o", "/dev/null"]), *by_dis, "{name}: llvm-dis");
        // Cut headers follow llvm-bcanalyzer; trailing bytes after a block follow llvm-dis.
        let follows = if name.starts_with("header") { by_analyzer } else { by_dis };
        assert_eq!(ours, follows, "{name}");
    }
}

#[test]
fn several_top_level_blocks_and_up_to_8_trailing_bytes() {
    let mut w = BitstreamWriter::new([0x42, 0x43, 0xC0, 0xDE]);
    for id in [13, 8, 23, 25] {
        w.enter_block(id, 3);
        w.write_unabbrev(1, &[id.into()]);
        w.end_block();
    }
    let mut bytes = w.finish();
    let end = bytes.len() as u64 * 8;
    for extra in [0usize, 4, 8] {
        let mut b = bytes.clone();
        b.extend(std::iter::repeat_n(0xAA, extra));
        let stream = Bitstream::parse(&b).unwrap();
        assert_eq!(stream.magic(), Magic::LlvmIr);
        let mut reader = stream.reader();
        let n = reader.by_ref().filter(|e| matches!(e, Ok(Event::EnterBlock(_)))).count();
        assert_eq!(n, 4);
        assert_eq!(reader.end_bit(), Some(end), "trailing bytes are not counted");
    }
    bytes.extend([0xAA; 12]);
    assert!(events(&bytes).is_err(), "more than 8 trailing bytes must be a block");
}

#[test]
fn wrapper_header_is_parsed_and_checked() {
    let mut w = BitstreamWriter::new([0x42, 0x43, 0xC0, 0xDE]);
    w.enter_block(8, 2);
    w.end_block();
    let stream = w.finish();
    let mut wrapped = wrap(&stream, 0x0100_0007);
    wrapped.extend([0, 0, 0, 0]);
    let bs = Bitstream::parse(&wrapped).unwrap();
    let h = bs.wrapper().unwrap();
    assert_eq!((h.version, h.offset, h.size, h.cpu_type), (0, 20, stream.len() as u32, 0x0100_0007));
    assert_eq!(bs.bytes(), &stream[..]);
    assert_eq!(events(&wrapped).unwrap(), vec![Ev::Enter(8, 2), Ev::Exit]);
    let mut past = wrapped.clone();
    past[12..16].copy_from_slice(&1000u32.to_le_bytes());
    assert!(matches!(Bitstream::parse(&past), Err(Error::BadWrapper { .. })));
    let mut inside = wrapped.clone();
    inside[8..12].copy_from_slice(&4u32.to_le_bytes());
    assert!(matches!(Bitstream::parse(&inside), Err(Error::BadWrapper { .. })));
    assert!(matches!(Bitstream::parse(&wrapped[..10]), Err(Error::BadWrapper { .. })));
}

#[test]
fn magic_names_the_known_kinds_and_keeps_unknown_bytes() {
    for (bytes, magic) in [
        ([0x42, 0x43, 0xC0, 0xDE], Magic::LlvmIr),
        (*b"DIAG", Magic::ClangSerializedDiagnostics),
        (*b"CPCH", Magic::ClangAst),
        (*b"RMRK", Magic::LlvmRemarks),
        ([0xE2, 0x9C, 0xA8, 0x0E], Magic::SwiftModule),
        (*b"WXYZ", Magic::Unknown(*b"WXYZ")),
    ] {
        assert_eq!(Magic::from_bytes(bytes), magic);
        assert_eq!(magic.bytes(), bytes);
        assert_eq!(Bitstream::parse(&bytes).unwrap().magic(), magic);
    }
    assert!(matches!(Bitstream::parse(b"BC"), Err(Error::TooShortForMagic { len: 2, .. })));
}

#[test]
fn sign_rotated_values() {
    assert_eq!(decode_sign_rotated(0), 0);
    assert_eq!(decode_sign_rotated(2), 1);
    assert_eq!(decode_sign_rotated(3), -1);
    assert_eq!(decode_sign_rotated(1), i64::MIN);
    assert_eq!(decode_sign_rotated(u64::MAX), -(i64::MAX));
    assert_eq!(decode_sign_rotated(u64::MAX - 1), i64::MAX);
}

#[test]
fn skip_block_is_only_allowed_right_after_enter() {
    let mut w = BitstreamWriter::new(*b"TEST");
    w.enter_block(8, 3);
    w.write_unabbrev(1, &[]);
    w.enter_block(12, 3);
    w.write_unabbrev(2, &[5, 6]);
    w.end_block();
    w.end_block();
    let bytes = w.finish();
    let mut r = Bitstream::parse(&bytes).unwrap().reader();
    assert!(matches!(r.skip_block(), Err(Error::NotAtBlockStart { .. })));
    assert!(matches!(r.next(), Some(Ok(Event::EnterBlock(_)))));
    assert!(matches!(r.next(), Some(Ok(Event::Record(_)))));
    assert!(matches!(r.skip_block(), Err(Error::NotAtBlockStart { .. })));
    assert!(matches!(r.next(), Some(Ok(Event::EnterBlock(_)))));
    let lazy = r.skip_block().unwrap();
    assert!(matches!(r.next(), Some(Ok(Event::EndBlock(_)))));
    assert!(r.next().is_none());
    let body: Vec<_> = lazy.reader().unwrap().map(Result::unwrap).collect();
    assert_eq!(body.len(), 3);
    let Event::Record(rec) = &body[1] else { panic!() };
    assert_eq!(rec.operands().collect::<Vec<_>>(), [5, 6]);
}

mod cursor_model {
    //! The word-at-a-time cursor against a bit-by-bit reference model on `bitvec`.
    use bitvec::prelude::{BitSlice, Lsb0};
    use llvm_bitstream_reader::cursor::BitCursor;
    use proptest::prelude::*;

    struct Model<'a> {
        bits: &'a BitSlice<u8, Lsb0>,
        pos: usize,
    }

    impl Model<'_> {
        fn read(&mut self, width: u32) -> Option<u64> {
            let end = self.pos.checked_add(width as usize)?;
            let field = self.bits.get(self.pos..end)?;
            self.pos = end;
            Some(field.iter().by_vals().enumerate().fold(0, |acc, (i, b)| acc | (u64::from(b) << i)))
        }
        fn read_vbr(&mut self, width: u32) -> Option<u64> {
            let hi = 1u64 << (width - 1);
            let (mut value, mut shift) = (0u64, 0u32);
            loop {
                let piece = self.read(width)?;
                value |= (piece & (hi - 1)).checked_shl(shift).unwrap_or(0);
                if piece & hi == 0 {
                    return Some(value);
                }
                shift += width - 1;
                if shift >= 64 {
                    return None;
                }
            }
        }
    }

    #[derive(Debug, Clone)]
    enum Op {
        Fixed(u32),
        Vbr(u32),
        Align,
        Jump(usize),
    }

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            6 => (0u32..=64).prop_map(Op::Fixed),
            3 => (2u32..=32).prop_map(Op::Vbr),
            1 => Just(Op::Align),
            1 => any::<usize>().prop_map(Op::Jump),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(if cfg!(miri) { 3 } else { 2000 }))]
        // bitvec 1.x's own iteration fails Miri's Stacked Borrows checks (ferrilab/bitvec#193,
        // open; the Tree Borrows fix, PR #266, is unreleased): the report is inside bitvec.
        #[test]
        #[cfg_attr(miri, ignore = "bitvec 1.x fails Stacked Borrows: ferrilab/bitvec#193")]
        fn cursor_agrees_with_bitvec_model(data in proptest::collection::vec(any::<u8>(), 0..64), ops in proptest::collection::vec(op(), 0..64)) {
            let mut cursor = BitCursor::new(&data);
            let mut model = Model { bits: BitSlice::from_slice(&data), pos: 0 };
            for op in ops {
                match op {
                    Op::Fixed(w) => prop_assert_eq!(cursor.read(w).ok(), model.read(w)),
                    Op::Vbr(w) => {
                        let got = cursor.read_vbr(w).ok();
                        let want = model.read_vbr(w);
                        prop_assert_eq!(got, want);
                        if want.is_none() { return Ok(()); }
                    }
                    Op::Align => {
                        let target = model.pos.div_ceil(32) * 32;
                        let ok = cursor.align32().is_ok();
                        prop_assert_eq!(ok, target <= model.bits.len());
                        if ok { model.pos = target; }
                    }
                    Op::Jump(to) => {
                        let to = to % (model.bits.len() + 2);
                        let ok = cursor.jump_to(to as u64).is_ok();
                        prop_assert_eq!(ok, to <= model.bits.len());
                        if ok { model.pos = to; }
                    }
                }
                prop_assert_eq!(cursor.position(), model.pos as u64);
                prop_assert_eq!(cursor.remaining_bits(), (model.bits.len() - model.pos) as u64);
            }
        }
    }
}

#[test]
fn vbr_values_of_every_chunk_count_and_width_round_trip() {
    // Every width 2..=32, values needing 1 to many chunks, at every bit alignment.
    for width in 2u32..=32 {
        let payload = width - 1;
        let mut values = vec![0u64, 1, (1 << payload) - 1, 1 << payload, u64::MAX, u64::MAX >> 1];
        values.extend((1..64).map(|b| (1u64 << b) | 0x5555_5555_5555_5555 >> (64 - b)));
        for shift in [0u32, 1, 7, 31] {
            let mut w = BitstreamWriter::new(*b"TEST");
            w.write_fixed(0, shift);
            for &v in &values {
                w.write_vbr(v, width);
            }
            let bytes = w.finish();
            let mut c = BitCursor::at(&bytes, 32 + u64::from(shift)).unwrap();
            for &v in &values {
                let chunks = (64 - v.leading_zeros()).max(1).div_ceil(payload);
                // Values needing more than 64 payload bits' worth of chunks are errors.
                if (chunks - 1) * payload >= 64 {
                    assert!(matches!(c.read_vbr(width), Err(Error::UnterminatedVbr { .. })), "w={width} v={v:#x}");
                    break;
                }
                assert_eq!(c.read_vbr(width).unwrap(), v, "w={width} v={v:#x} shift={shift}");
            }
        }
    }
}

#[test]
#[should_panic(expected = "not in 2..=32")]
fn writer_refuses_vbr_chunks_without_payload() {
    // A 1-bit chunk has no payload bits: writing 5 would never end.
    BitstreamWriter::new(*b"TEST").write_vbr(5, 1);
}

#[test]
fn the_first_setrecordname_for_a_code_wins_like_llvm() {
    let mut w = BitstreamWriter::new(*b"TEST");
    w.enter_blockinfo();
    w.set_bid(9);
    w.record_name(4, "FIRST");
    w.record_name(4, "SECOND");
    w.end_block();
    let bytes = w.finish();
    let mut reader = Bitstream::parse(&bytes).unwrap().reader();
    for e in reader.by_ref() {
        e.unwrap();
    }
    assert_eq!(reader.blockinfo().record_name(9, 4), Some("FIRST"));
}
