//! Comparison harness on this repository's crate, through its `Iterator` API:
//! `for event in reader`, each record an owned event. Same walk and counts as
//! `ours` (the lending walk); see that file.
#[path = "../common.rs"]
mod common;

use common::Counts;
use llvm_bitstream_reader::ids::{bitstream, llvm_ir};
use llvm_bitstream_reader::{Bitstream, BlockId, Error, Event};

fn walk(bytes: &[u8], skip: bool) -> Result<Counts, Error> {
    let mut c = Counts::default();
    let stream = Bitstream::parse(bytes)?;
    let mut reader = stream.reader();
    while let Some(event) = reader.next() {
        match event? {
            Event::EnterBlock(block) => {
                let id = block.block_id();
                if id != bitstream::BLOCKINFO_BLOCK_ID {
                    c.blocks += 1;
                }
                if skip && id == llvm_ir::FUNCTION_BLOCK_ID {
                    reader.skip_block()?;
                }
            }
            Event::Record(record) if record.block_id() == bitstream::BLOCKINFO_BLOCK_ID => {}
            Event::Record(record) => {
                c.records += 1;
                let sum = record.operands().fold(u64::from(record.code()), |s, v| s.wrapping_add(v));
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
    while let Some(event) = reader.next() {
        match event? {
            Event::EnterBlock(block) => {
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
            Event::EndBlock(_) => {
                open.pop();
            }
            Event::Record(_) if open.last() == Some(&bitstream::BLOCKINFO_BLOCK_ID) => {}
            Event::Record(record) => {
                c.records += 1;
                c.sink(u64::from(record.code()));
                for v in record.operands() {
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
    let data = common::load(&args.path);
    if args.sink {
        common::run(args.iters, || walk_sink(&data, args.skip_functions));
    } else {
        common::run(args.iters, || walk(&data, args.skip_functions));
    }
}
