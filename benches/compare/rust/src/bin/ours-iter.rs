//! Comparison harness on this repository's crate, through its `Iterator` API:
//! `for event in reader`, each record an owned event. Same walk and counts as
//! `ours` (the lending walk); see that file.
#[path = "../common.rs"]
mod common;

use common::Counts;
use llvm_bitstream_reader::ids::{bitstream, llvm_ir};
use llvm_bitstream_reader::{Bitstream, BlockId, Error, Event};

/// One walk; `SINK` picks the rig (see benches/compare/README.md).
fn walk<const SINK: bool>(bytes: &[u8], skip: bool) -> Result<Counts, Error> {
    let mut c = Counts::default();
    let stream = Bitstream::parse(bytes)?;
    let mut reader = stream.reader();
    // The sink rig's own stack of open blocks.
    let mut open: Vec<BlockId> = Vec::with_capacity(16);
    while let Some(event) = reader.next() {
        match event? {
            Event::EnterBlock(block) => {
                let id = block.block_id();
                if id != bitstream::BLOCKINFO_BLOCK_ID {
                    c.blocks += 1;
                }
                if skip && id == llvm_ir::FUNCTION_BLOCK_ID {
                    reader.skip_block()?;
                } else if SINK {
                    open.push(id);
                }
            }
            Event::EndBlock(_) if SINK => {
                open.pop();
            }
            Event::Record(record) => {
                let in_blockinfo = if SINK { open.last() } else { Some(&record.block_id()) };
                if in_blockinfo == Some(&bitstream::BLOCKINFO_BLOCK_ID) {
                    continue;
                }
                c.records += 1;
                if SINK {
                    c.sink(u64::from(record.code()));
                    for v in record.operands() {
                        c.sink(v);
                    }
                } else {
                    let sum = record.operands().fold(u64::from(record.code()), |s, v| s.wrapping_add(v));
                    c.add(sum);
                }
                if let Some(blob) = record.blob() {
                    c.blob_bytes += blob.len() as u64;
                }
            }
            _ => {}
        }
    }
    Ok(c)
}

fn main() {
    let args = common::args();
    let data = common::load(&args.path);
    if args.sink {
        common::run(args.iters, || walk::<true>(&data, args.skip_functions));
    } else {
        common::run(args.iters, || walk::<false>(&data, args.skip_functions));
    }
}
