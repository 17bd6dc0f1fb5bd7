//! Comparison harness on the crates.io crate `llvm-bitcode` 0.4.
//!
//! Uses its lowest-level public reader: `BitStreamReader::iter_bitcode` gives a
//! `BlockIter` per block; `try_next` yields nested `BlockIter`s (each on its own
//! sub-slice of the input, so dropping one unread *is* the skip facility) and
//! `RecordIter`s (scalar operands via `try_next`, the array/char6/blob payload
//! via `payload()`, which copies it into a `Vec`/`String`; there is no
//! borrowed-payload accessor that does not need the abbreviation up front).
//!
//! Known limitations of the crate (not of this harness):
//! * BLOCKINFO abbreviations are appended to a global table, never replaced,
//!   so the second module of an `llvm-cat -b` file misnumbers its abbrevs.
//! * The top level ends only at end of input (no "byte + 8 >= size" rule).
#[path = "../common.rs"]
mod common;

use common::Counts;
use llvm_bitcode::bitcode::Payload;
use llvm_bitcode::read::{BlockItem, BlockIter, Error};
use llvm_bitcode::BitStreamReader;

const FUNCTION_BLOCK: u32 = 12;

/// One block's walk; `SINK` picks the rig (see benches/compare/README.md). The sink
/// rig keeps a stack of open blocks, next to the recursion the crate's nested
/// iterators need anyway.
fn walk_block<const SINK: bool>(
    mut block: BlockIter<'_, '_>,
    c: &mut Counts,
    skip: bool,
    open: &mut Vec<u32>,
) -> Result<(), Error> {
    let add = |c: &mut Counts, v: u64| if SINK { c.sink(v) } else { c.add(v) };
    while let Some(item) = block.try_next()? {
        match item {
            BlockItem::Block(sub) => {
                c.blocks += 1;
                if skip && sub.id == FUNCTION_BLOCK {
                    drop(sub); // the parent cursor is already past it
                } else {
                    if SINK {
                        open.push(sub.id);
                    }
                    walk_block::<SINK>(sub, c, skip, open)?;
                    if SINK {
                        open.pop();
                    }
                }
            }
            BlockItem::Record(mut rec) => {
                c.records += 1;
                add(c, rec.id);
                while let Some(v) = rec.try_next()? {
                    add(c, v);
                }
                match rec.payload()? {
                    None => {}
                    Some(Payload::Array(a)) => a.iter().for_each(|&v| add(c, v)),
                    Some(Payload::Char6String(s)) => s.bytes().for_each(|b| add(c, b.into())),
                    Some(Payload::Blob(b)) => c.blob_bytes += b.len() as u64,
                }
            }
        }
    }
    Ok(())
}

fn walk(stream: &[u8], skip: bool, sink: bool) -> Result<Counts, Error> {
    if stream.len() < 4 {
        return Err(Error::Other("file too short"));
    }
    let mut c = Counts::default();
    let mut reader = BitStreamReader::new();
    let mut open = Vec::with_capacity(16);
    if sink {
        walk_block::<true>(reader.iter_bitcode(&stream[4..]), &mut c, skip, &mut open)?;
    } else {
        walk_block::<false>(reader.iter_bitcode(&stream[4..]), &mut c, skip, &mut open)?;
    }
    Ok(c)
}

fn main() {
    let args = common::args();
    let data = common::load(&args.path);
    let stream = common::unwrap(&data);
    common::run(args.iters, || walk(stream, args.skip_functions, args.sink));
}
