//! Comparison harness on the crates.io crates `llvm-bitstream` 0.0.3 and
//! `llvm-bitcursor` 0.0.3.
//!
//! `Bitstream::advance` yields `StreamEntry::{SubBlock, Record, EndBlock}`;
//! each `Record` owns a `Vec<u64>` of fields. The crate has NO way to skip a
//! block (the parser and its cursor are private), so `--skip-functions`
//! prints `unsupported`.
//!
//! It also flattens blobs into the field list (one u64 per byte) and does not
//! expose which abbreviation a record used, so to report blob bytes the
//! harness reclassifies the trailing fields of the three LLVM-IR records that
//! are written with a blob abbreviation: STRTAB_BLOB (block 23 code 1),
//! SYMTAB_BLOB (block 25 code 1) and METADATA_STRINGS (block 15 code 35,
//! after its two scalar fields). That is LLVM-IR specific: for any other
//! bitstream kind the checksum would treat blob bytes as operands.
//!
//! Known limitations of the crate: BLOCKINFO abbreviations accumulate (never
//! replaced), and the top level ends only at end of input.
#[path = "../common.rs"]
mod common;

use common::Counts;
use llvm_bitstream::error::Error;
use llvm_bitstream::parser::StreamEntry;
use llvm_bitstream::Bitstream;

fn blob_fields(block: u64, code: u64, abbreviated: bool) -> Option<usize> {
    match (abbreviated, block, code) {
        (true, 23, 1) | (true, 25, 1) => Some(0),
        (true, 15, 35) => Some(2),
        _ => None,
    }
}

fn walk(stream: &[u8], sink: bool) -> Result<Counts, Error> {
    let mut c = Counts::default();
    let mut bs = Bitstream::from_raw(stream)?;
    let mut stack: Vec<u64> = Vec::with_capacity(16);
    loop {
        match bs.advance() {
            Err(Error::Exhausted) => break,
            Err(e) => return Err(e),
            Ok(StreamEntry::SubBlock(b)) => {
                c.blocks += 1;
                stack.push(b.block_id);
            }
            Ok(StreamEntry::EndBlock) => {
                stack.pop();
            }
            Ok(StreamEntry::Record(rec)) => {
                c.records += 1;
                if sink {
                    c.sink(rec.code);
                } else {
                    c.add(rec.code);
                }
                let block = stack.last().copied().unwrap_or(u64::MAX);
                let scalars = match blob_fields(block, rec.code, rec.abbrev_id.is_some()) {
                    Some(n) if rec.fields.len() >= n => {
                        c.blob_bytes += (rec.fields.len() - n) as u64;
                        n
                    }
                    _ => rec.fields.len(),
                };
                if sink {
                    rec.fields[..scalars].iter().for_each(|&v| c.sink(v));
                } else {
                    rec.fields[..scalars].iter().for_each(|&v| c.add(v));
                }
            }
        }
    }
    Ok(c)
}

fn main() {
    let args = common::args();
    if args.skip_functions {
        common::unsupported("llvm-bitstream 0.0.3 has no block-skipping API");
    }
    let data = common::load(&args.path);
    let stream = common::unwrap(&data);
    common::run(args.iters, || walk(stream, args.sink));
}
