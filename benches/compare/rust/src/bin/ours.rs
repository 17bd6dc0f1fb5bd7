//! Comparison harness on this repository's crate, `llvm-bitstream-reader`.
//!
//! The lending walk: `Bitstream::reader()` and `Reader::next_ref()`, every operand
//! decoded into a buffer the reader reuses; with `--skip-functions` every
//! FUNCTION_BLOCK (id 12) is skipped with `Reader::skip_block()` right after its
//! EnterBlock. The reader reports BLOCKINFO blocks as events too; in the fold rig
//! each record says which block it is in, in the sink rig the harness's stack of
//! open blocks does, so BLOCKINFO's are left out of the counts.
#[path = "../common.rs"]
mod common;

use common::Counts;
use llvm_bitstream_reader::ids::{bitstream, llvm_ir};
use llvm_bitstream_reader::{Bitstream, BlockId, Error, EventRef};

/// One walk; `SINK` picks the rig (see benches/compare/README.md).
fn walk<const SINK: bool>(bytes: &[u8], skip: bool) -> Result<Counts, Error> {
    let mut c = Counts::default();
    let stream = Bitstream::parse(bytes)?;
    let mut reader = stream.reader();
    // The sink rig's own stack of open blocks.
    let mut open: Vec<BlockId> = Vec::with_capacity(16);
    while let Some(event) = reader.next_ref()? {
        match event {
            EventRef::EnterBlock(block) => {
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
            EventRef::EndBlock(_) if SINK => {
                open.pop();
            }
            EventRef::Record(record) => {
                let in_blockinfo = if SINK { open.last() } else { Some(&record.block_id()) };
                if in_blockinfo == Some(&bitstream::BLOCKINFO_BLOCK_ID) {
                    continue;
                }
                c.records += 1;
                if SINK {
                    c.sink(u64::from(record.code()));
                    for &v in record.operand_slice() {
                        c.sink(v);
                    }
                } else {
                    // Sum into a local, as the C++ harness does.
                    let sum = record.operand_slice().iter().fold(u64::from(record.code()), |s, &v| s.wrapping_add(v));
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
    // The reader strips the Darwin wrapper itself, so pass the file as is.
    let data = common::load(&args.path);
    if args.sink {
        common::run(args.iters, || walk::<true>(&data, args.skip_functions));
    } else {
        common::run(args.iters, || walk::<false>(&data, args.skip_functions));
    }
}
