//! The reader's layers, rule by rule: `advance` and what may follow it, the context events
//! carry, and the reported abbreviation definitions; each checked on every real file
//! against the lending walk.

mod common;

use llvm_bitstream_reader::ids::{bitstream, llvm_ir};
use llvm_bitstream_reader::{Bitstream, Bookmark, Entry, Error, EventRef, Reader};

/// Every bitstream file of testdata (containers are read elsewhere), with its bytes.
fn real_files() -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> =
        common::testdata_files().into_iter().map(|p| (p.display().to_string(), std::fs::read(&p).unwrap())).collect();
    // Under Miri, which runs far slower, the files under 16 KB (one of each kind).
    if cfg!(miri) {
        files.retain(|(_, bytes)| bytes.len() < 16 * 1024);
    }
    files
}

/// What a walk saw, comparable across APIs.
#[derive(Debug, PartialEq, Eq)]
enum Seen {
    Enter(Bookmark),
    Record { bit: u64, block: u32, code: u32, ops: Option<Vec<u64>> },
    Exit(Bookmark),
}

/// The lending walk, every operand.
fn lending(bytes: &[u8]) -> Result<Vec<Seen>, Error> {
    let mut reader = Bitstream::parse(bytes)?.reader();
    let mut seen = Vec::new();
    while let Some(event) = reader.next_ref()? {
        seen.push(match event {
            EventRef::EnterBlock(b) => Seen::Enter(b.bookmark),
            EventRef::Record(r) => Seen::Record {
                bit: r.bit_offset(),
                block: r.block_id().0,
                code: r.code(),
                ops: Some(r.operand_slice().to_vec()),
            },
            EventRef::EndBlock(b) => Seen::Exit(b),
            other => panic!("not asked for: {other:?}"),
        });
    }
    Ok(seen)
}

/// `advance`, then `read_record` for records whose bit offset is even, `skip_record` for the
/// others: the same records, in the same places, with the same codes.
fn layered(bytes: &[u8]) -> Result<Vec<Seen>, Error> {
    let mut reader = Bitstream::parse(bytes)?.reader();
    let mut seen = Vec::new();
    while let Some(entry) = reader.advance()? {
        seen.push(match entry {
            Entry::EnterBlock(b) => Seen::Enter(b),
            Entry::Record { bit, .. } if bit % 2 == 0 => {
                let r = reader.read_record()?;
                assert_eq!(r.bit_offset(), bit);
                Seen::Record { bit, block: r.block_id().0, code: r.code(), ops: Some(r.operand_slice().to_vec()) }
            }
            Entry::Record { bit, .. } => {
                let block = reader.block_id().unwrap();
                Seen::Record { bit, block: block.0, code: reader.skip_record()?, ops: None }
            }
            Entry::EndBlock(b) => Seen::Exit(b),
            other => panic!("not asked for: {other:?}"),
        });
    }
    Ok(seen)
}

#[test]
fn advance_read_and_skip_agree_with_the_lending_walk() {
    for (name, bytes) in real_files() {
        let want = lending(&bytes).unwrap();
        let got = layered(&bytes).unwrap();
        assert_eq!(want.len(), got.len(), "{name}");
        for (w, g) in want.iter().zip(&got) {
            match (w, g) {
                (Seen::Record { ops: Some(_), .. }, Seen::Record { ops: None, bit, block, code }) => {
                    let Seen::Record { bit: b, block: k, code: c, .. } = w else { unreachable!() };
                    assert_eq!((b, k, c), (bit, block, code), "{name}: a skipped record");
                }
                _ => assert_eq!(w, g, "{name}"),
            }
        }
    }
}

#[test]
fn records_left_unread_are_skipped_by_the_next_advance() {
    for (name, bytes) in real_files() {
        let want: Vec<Seen> =
            lending(&bytes).unwrap().into_iter().filter(|s| !matches!(s, Seen::Record { .. })).collect();
        let mut reader = Bitstream::parse(&bytes).unwrap().reader();
        let mut got = Vec::new();
        let mut records = 0;
        while let Some(entry) = reader.advance().unwrap() {
            match entry {
                Entry::EnterBlock(b) => got.push(Seen::Enter(b)),
                Entry::EndBlock(b) => got.push(Seen::Exit(b)),
                _ => records += 1,
            }
        }
        assert_eq!(want, got, "{name}");
        assert!(records > 0, "{name}");
    }
}

#[test]
fn read_or_skip_record_without_a_record_is_an_error() {
    let (_, bytes) = real_files().into_iter().find(|(n, _)| n.ends_with("llvm14_ir_instructions.bc")).unwrap();
    let mut reader = Bitstream::parse(&bytes).unwrap().reader();
    assert!(matches!(reader.read_record(), Err(Error::NotAtRecord { bit: 32 })));
    assert!(matches!(reader.advance(), Ok(Some(Entry::EnterBlock(_)))));
    assert!(matches!(reader.skip_record(), Err(Error::NotAtRecord { .. })));
    // A misuse is the caller's mistake, not the input's: the walk goes on.
    while let Some(entry) = reader.advance().unwrap() {
        if let Entry::Record { .. } = entry {
            reader.skip_record().unwrap();
            assert!(matches!(reader.skip_record(), Err(Error::NotAtRecord { .. })), "a record is read once");
            break;
        }
    }
}

/// Every EndBlock names the block its EnterBlock opened, and every record the innermost
/// open block, in all three APIs.
#[test]
fn events_carry_their_block() {
    for (name, bytes) in real_files() {
        let stream = Bitstream::parse(&bytes).unwrap();
        let mut open: Vec<Bookmark> = Vec::new();
        for event in stream.reader() {
            match event.unwrap() {
                llvm_bitstream_reader::Event::EnterBlock(b) => open.push(b.bookmark),
                llvm_bitstream_reader::Event::EndBlock(b) => assert_eq!(open.pop(), Some(b), "{name}"),
                llvm_bitstream_reader::Event::Record(r) => {
                    assert_eq!(Some(r.block_id()), open.last().map(|b| b.block_id))
                }
                other => panic!("not asked for: {other:?}"),
            }
        }
        assert!(open.is_empty(), "{name}");
        for seen in lending(&bytes).unwrap() {
            match seen {
                Seen::Enter(b) => open.push(b),
                Seen::Exit(b) => assert_eq!(open.pop(), Some(b), "{name}"),
                Seen::Record { block, .. } => assert_eq!(Some(block), open.last().map(|b| b.block_id.0), "{name}"),
            }
        }
    }
}

/// With `report_abbrev_definitions`, a block's content is exactly tiled by its
/// definitions, records, sub-blocks and its END_BLOCK: each entry starts where the one
/// before it ended (a definition's `end_bit`, a record's end, a sub-block's end).
#[test]
fn reported_definitions_tile_the_blocks_with_the_records() {
    for (name, bytes) in real_files() {
        let stream = Bitstream::parse(&bytes).unwrap();
        let mut reader: Reader<'_> = stream.reader();
        reader.report_abbrev_definitions(true);
        // Where the next entry of each open block must start.
        let mut next: Vec<u64> = Vec::new();
        let (mut definitions, mut in_blockinfo) = (0, 0);
        while let Some(event) = reader.next_ref().unwrap() {
            match event {
                EventRef::EnterBlock(b) => {
                    if let Some(at) = next.last() {
                        assert_eq!(b.bit_offset(), *at, "{name}: a block starts where the entry before it ended");
                    }
                    next.push(b.bookmark.content_bit);
                }
                EventRef::DefineAbbrev(d) => {
                    assert_eq!(Some(&d.bit), next.last(), "{name}");
                    assert!(d.end_bit > d.bit);
                    *next.last_mut().unwrap() = d.end_bit;
                    definitions += 1;
                    in_blockinfo += usize::from(d.block_id == bitstream::BLOCKINFO_BLOCK_ID.0);
                }
                EventRef::Record(r) => {
                    assert_eq!(Some(&r.bit_offset()), next.last(), "{name}");
                    *next.last_mut().unwrap() = r.end_bit_offset();
                }
                EventRef::EndBlock(b) => {
                    let at = next.pop().unwrap();
                    // END_BLOCK is read from where the last entry ended, then aligned.
                    assert!(at < b.end_bit() && b.end_bit() - at <= 32 + 64, "{name}");
                    if let Some(parent) = next.last_mut() {
                        *parent = b.end_bit();
                    }
                }
                other => panic!("unknown event {other:?}"),
            }
        }
        if name.ends_with(".bc") && !cfg!(miri) {
            assert!(definitions > 0 && in_blockinfo > 0, "{name}: LLVM bitcode defines abbreviations in BLOCKINFO");
        }
    }
}

/// The records of a skipped function body, read back with `advance`, are the records the
/// lending walk saw there.
#[test]
fn skipped_bodies_read_back_through_advance() {
    for (name, bytes) in real_files() {
        let stream = Bitstream::parse(&bytes).unwrap();
        let mut reader = stream.reader();
        let mut bodies = Vec::new();
        while let Some(entry) = reader.advance().unwrap() {
            if let Entry::EnterBlock(b) = entry {
                if b.block_id == llvm_ir::FUNCTION_BLOCK_ID {
                    bodies.push(reader.skip_block().unwrap());
                }
            }
        }
        let whole = lending(&bytes).unwrap();
        for body in &bodies {
            let mut r = body.reader().unwrap();
            let mut codes = Vec::new();
            while let Some(entry) = r.advance().unwrap() {
                if let Entry::Record { bit, .. } = entry {
                    codes.push((bit, r.read_record().unwrap().code()));
                }
            }
            let bm = body.bookmark();
            let want: Vec<(u64, u32)> = whole
                .iter()
                .filter_map(|s| match s {
                    Seen::Record { bit, code, .. } if (bm.content_bit..bm.end_bit()).contains(bit) => {
                        Some((*bit, *code))
                    }
                    _ => None,
                })
                .collect();
            assert_eq!(codes, want, "{name}: body at bit {}", bm.header_bit);
        }
    }
}

/// With `serde`, the owned and the lent events serialize alike, event for event, and a
/// record's JSON holds its decoded operands and its blob.
#[cfg(feature = "serde")]
#[test]
fn owned_and_lent_events_serialize_alike() {
    // Under Miri, the first events of each file: JSON values allocate a great deal.
    let limit = if cfg!(miri) { 200 } else { usize::MAX };
    for (name, bytes) in real_files() {
        let stream = Bitstream::parse(&bytes).unwrap();
        let owned: Vec<serde_json::Value> =
            stream.reader().take(limit).map(|e| serde_json::to_value(e.unwrap()).unwrap()).collect();
        let mut lent = Vec::new();
        let mut reader = stream.reader();
        while lent.len() < limit {
            let Some(event) = reader.next_ref().unwrap() else { break };
            lent.push(serde_json::to_value(&event).unwrap());
        }
        assert_eq!(owned, lent, "{name}");
        // One record checked field by field against the lending walk's view.
        let mut reader = stream.reader();
        while let Some(event) = reader.next_ref().unwrap() {
            if let EventRef::Record(r) = event {
                if r.len() > 4 || r.blob().is_some() {
                    let v = serde_json::to_value(r).unwrap();
                    assert_eq!(v["code"], r.code(), "{name}");
                    assert_eq!(v["operands"], serde_json::json!(r.operand_slice()), "{name}");
                    assert_eq!(v["blob"], serde_json::json!(r.blob()), "{name}");
                    break;
                }
            }
        }
    }
}
