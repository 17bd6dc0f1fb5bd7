//! Offsets and lengths past 4 GiB: a sparse file of about 8.6 GB, read through the memory
//! map. Block A holds two blobs of almost 4 GiB each, so the first blob crosses the 4 GiB
//! mark and A's length in words needs all 32 bits. Block B lies beyond 8 GiB. LLVM's own
//! reader had 32-bit overflows exactly here (llvm-project #117363, #202410).
//!
//! The file is sparse: only a few KB are written, and the walk never touches the blob
//! pages (blobs are borrowed, not read), so this runs in milliseconds.
#![cfg(all(feature = "writer", target_pointer_width = "64", unix))]

use std::fs::File;
use std::os::unix::fs::FileExt;

use llvm_bitstream_reader::writer::BitstreamWriter;
use llvm_bitstream_reader::{AbbrevOp, BitstreamFile, Event, LazyBlock};

/// Blob length: the largest a 32-bit VBR allows, less a little.
const BLOB: u64 = u32::MAX as u64 - 5;

/// The bytes a fresh writer produces inside a width-3 block, after the block header (so
/// they line up with any 32-bit aligned place inside such a block).
fn in_block(body: impl FnOnce(&mut BitstreamWriter)) -> Vec<u8> {
    let mut w = BitstreamWriter::new(*b"TEST");
    w.enter_block(8, 3);
    body(&mut w);
    let end = (w.bit_position() / 8) as usize;
    w.finish()[12..end].to_vec()
}

/// A comparable event: blobs by length and their first and last byte only.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Ev {
    Enter(u32, u32, u64),
    Rec(u32, Vec<u64>, Option<(usize, u8, u8)>),
    Exit,
}

fn ev(e: Event<'_>) -> Ev {
    match e {
        Event::EnterBlock(b) => Ev::Enter(b.block_id().0, b.len_words(), b.bit_offset()),
        Event::Record(r) => {
            Ev::Rec(r.code(), r.operands().collect(), r.blob().map(|b| (b.len(), b[0], b[b.len() - 1])))
        }
        Event::EndBlock(_) => Ev::Exit,
        other => panic!("not asked for: {other:?}"),
    }
}

#[test]
fn blobs_and_blocks_past_4_gib_read_skip_and_resume() {
    let blob_header = in_block(|w| {
        w.write_abbrev_id(4);
        w.write_vbr(BLOB, 6);
        w.align32();
    });
    // magic, block A's header, its abbreviation, the first blob's header.
    let mut w = BitstreamWriter::new(*b"TEST");
    w.enter_block(8, 3);
    w.define_abbrev(&[AbbrevOp::Literal(1), AbbrevOp::Blob]);
    w.write_abbrev_id(4);
    w.write_vbr(BLOB, 6);
    w.align32();
    let end = (w.bit_position() / 8) as usize;
    let mut prefix = w.finish()[..end].to_vec();
    let padded = BLOB.div_ceil(4) * 4;
    let blob1 = prefix.len() as u64;
    let blob2 = blob1 + padded + blob_header.len() as u64;
    let tail = in_block(|w| {
        w.write_unabbrev(5, &[7, 8, 9]);
        w.write_abbrev_id(0);
        w.align32();
    });
    let tail_at = blob2 + padded;
    let block_b_at = tail_at + tail.len() as u64;
    let mut wb = BitstreamWriter::new(*b"TEST");
    wb.enter_block(9, 3);
    wb.write_unabbrev(6, &[42]);
    wb.end_block();
    let block_b = wb.finish()[4..].to_vec();
    let total = block_b_at + block_b.len() as u64;
    // Block A's length word (bytes 8..12): from the end of that word to the end of A.
    let words = (block_b_at - 12) / 4;
    assert!(words > 1 << 31, "the word count needs all 32 bits");
    prefix[8..12].copy_from_slice(&(words as u32).to_le_bytes());

    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("sparse-8gib.bin");
    let file = File::create(&path).unwrap();
    if let Err(e) = file.set_len(total) {
        eprintln!("SKIPPED: cannot make a sparse file of {total} bytes here: {e}");
        return;
    }
    let write = |at: u64, bytes: &[u8]| file.write_all_at(bytes, at).unwrap();
    write(0, &prefix);
    write(blob1, &[0xA1]);
    write(blob1 + BLOB - 1, &[0xA2]);
    write(blob1 + padded, &blob_header);
    write(blob2, &[0xB1]);
    write(blob2 + BLOB - 1, &[0xB2]);
    write(tail_at, &tail);
    write(block_b_at, &block_b);
    drop(file);
    assert!(blob1 < 1 << 32 && blob1 + BLOB > 1 << 32, "the first blob crosses 4 GiB");

    let mapped = BitstreamFile::open(&path).unwrap();
    let stream = mapped.bitstream().unwrap();
    let base = mapped.bytes().as_ptr() as usize;

    // The full walk.
    let mut reader = stream.reader();
    let mut full = Vec::new();
    let mut blob_offsets = Vec::new();
    for e in reader.by_ref() {
        let e = e.unwrap();
        if let Event::Record(r) = &e {
            if let Some(b) = r.blob() {
                blob_offsets.push(b.as_ptr() as usize - base);
            }
        }
        full.push(ev(e));
    }
    assert_eq!(reader.end_bit(), Some(total * 8));
    assert_eq!(blob_offsets, [blob1 as usize, blob2 as usize]);
    let blob = |first, last| Some((BLOB as usize, first, last));
    assert_eq!(
        full,
        [
            Ev::Enter(8, words as u32, 32),
            Ev::Rec(1, vec![], blob(0xA1, 0xA2)),
            Ev::Rec(1, vec![], blob(0xB1, 0xB2)),
            Ev::Rec(5, vec![7, 8, 9], None),
            Ev::Exit,
            Ev::Enter(9, (block_b.len() as u32 - 8) / 4, block_b_at * 8),
            Ev::Rec(6, vec![42], None),
            Ev::Exit,
        ]
    );

    // Skip block A (jumping over 8 GiB), then read both blocks back from bookmarks.
    let mut reader = stream.reader();
    let mut skipped: Vec<LazyBlock<'_>> = Vec::new();
    while let Some(e) = reader.next() {
        if let Event::EnterBlock(_) = e.unwrap() {
            skipped.push(reader.skip_block().unwrap());
        }
    }
    assert_eq!(skipped.len(), 2);
    assert_eq!(skipped[1].bookmark().header_bit, block_b_at * 8);
    let resumed: Vec<Ev> = skipped.iter().rev().flat_map(|l| l.reader().unwrap().map(|e| ev(e.unwrap()))).collect();
    let mut expected = full[5..].to_vec();
    expected.extend(full[..5].iter().cloned());
    assert_eq!(resumed, expected);
    drop(mapped);
    let _ = std::fs::remove_file(&path);
}
