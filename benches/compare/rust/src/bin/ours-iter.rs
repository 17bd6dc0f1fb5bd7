//! Comparison harness on this repository's crate, through its `Iterator` API:
//! `for event in reader`, each record an owned event. Same walk and counts as
//! `ours` (the lending walk); see that file.
#[path = "../common.rs"]
mod common;

use common::Counts;
use llvm_bitstream_reader::ids::{bitstream, llvm_ir};
use llvm_bitstream_reader::{Bitstream, Error, Event};

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

fn main() {
    let args = common::args();
    let data = common::load(&args.path);
    common::run(args.iters, || walk(&data, args.skip_functions));
}
