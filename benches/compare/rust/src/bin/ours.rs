//! Comparison harness on this repository's crate, `llvm-bitstream-reader`.
//!
//! Walks `Bitstream::events()`; with `--skip-functions` every FUNCTION_BLOCK
//! (id 12) is skipped with `Reader::skip_block()` right after its EnterBlock.
//! The reader reports BLOCKINFO blocks as events too; each record says which block
//! it is in, so BLOCKINFO's are left out of the counts.
#[path = "../common.rs"]
mod common;

use common::Counts;
use llvm_bitstream_reader::ids::{bitstream, llvm_ir};
use llvm_bitstream_reader::{Bitstream, BlockId, Error, EventRef};

fn walk(bytes: &[u8], skip: bool) -> Result<Counts, Error> {
    let mut c = Counts::default();
    let stream = Bitstream::parse(bytes)?;
    let mut reader = stream.reader();
    // The lending walk: every operand decoded into a buffer the reader reuses.
    while let Some(event) = reader.next_ref()? {
        match event {
            EventRef::EnterBlock(block) => {
                let id = block.block_id();
                if id != bitstream::BLOCKINFO_BLOCK_ID {
                    c.blocks += 1;
                }
                if skip && id == llvm_ir::FUNCTION_BLOCK_ID {
                    reader.skip_block()?;
                }
            }
            EventRef::Record(record) if record.block_id() == bitstream::BLOCKINFO_BLOCK_ID => {}
            EventRef::Record(record) => {
                c.records += 1;
                // Sum into a local, as the C++ harness does.
                let sum = record.operand_slice().iter().fold(u64::from(record.code()), |s, &v| s.wrapping_add(v));
                c.add(sum);
                if let Some(blob) = record.blob() {
                    c.blob_bytes += blob.len() as u64;
                }
            }
            _ => {}
        }
    }
    Ok(c)
}

/// The sink rig: operands one at a time, and a stack of open blocks kept here.
fn walk_sink(bytes: &[u8], skip: bool) -> Result<Counts, Error> {
    let mut c = Counts::default();
    let stream = Bitstream::parse(bytes)?;
    let mut reader = stream.reader();
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
                } else {
                    open.push(id);
                }
            }
            EventRef::EndBlock(_) => {
                open.pop();
            }
            EventRef::Record(_) if open.last() == Some(&bitstream::BLOCKINFO_BLOCK_ID) => {}
            EventRef::Record(record) => {
                c.records += 1;
                c.sink(u64::from(record.code()));
                for &v in record.operand_slice() {
                    c.sink(v);
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
        common::run(args.iters, || walk_sink(&data, args.skip_functions));
    } else {
        common::run(args.iters, || walk(&data, args.skip_functions));
    }
}
