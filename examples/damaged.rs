//! Reads a damaged file as far as it goes: a copy of a test file cut in the middle, in
//! memory. The walk prints the events before the cut, then the error where reading
//! stopped.
//!
//! ```text
//! cargo run --example damaged -- [FILE] [KEEP_PERCENT]
//! ```
//!
//! Without [`Reader::read_truncated_blocks`] nothing of the module could be read: its
//! block declares a length that runs past the end of the cut file. With it, the block is
//! entered anyway and read as far as the input goes, as `llvm-bcanalyzer` does, and the
//! walk ends with exactly one error.

use std::process::ExitCode;

use llvm_bitstream_reader::{Bitstream, EventRef, Magic, Reader, names};

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let path = args
        .next()
        .unwrap_or_else(|| concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/llvm14_ir_instructions.bc").into());
    let percent: usize = args.next().and_then(|p| p.parse().ok()).unwrap_or(50).min(100);
    let bytes = match std::fs::read(&path) {
        Ok(bytes) => bytes,
        Err(e) => {
            eprintln!("damaged: {path}: {e}");
            return ExitCode::FAILURE;
        }
    };
    // The cut copy: the first KEEP_PERCENT of the file, at a 4-byte boundary.
    let cut = &bytes[..(bytes.len() * percent / 100) & !3];
    println!("{path}: {} of {} bytes kept", cut.len(), bytes.len());

    let stream = match Bitstream::parse(cut) {
        Ok(stream) => stream,
        Err(e) => {
            println!("error: {e}");
            return ExitCode::SUCCESS;
        }
    };
    let magic = stream.magic();
    let mut reader = stream.reader();
    reader.read_truncated_blocks(true);
    let (records, error) = walk(&mut reader, magic);
    println!("{records} records read before the cut");
    match error {
        // The error says where: its bit offset, and the block by name where known.
        Some(e) => println!("error at byte {}: {e}", e.byte_offset()),
        None => println!("no error: the cut fell between top-level blocks"),
    }
    ExitCode::SUCCESS
}

/// Prints the blocks as they open and close; counts the records.
fn walk(reader: &mut Reader<'_>, magic: Magic) -> (u64, Option<llvm_bitstream_reader::Error>) {
    let mut records = 0;
    loop {
        match reader.next_ref() {
            Ok(Some(EventRef::EnterBlock(block))) => {
                let indent = "  ".repeat(reader.depth() - 1);
                let name = names::block_name(magic, block.block_id()).unwrap_or("?");
                println!("{indent}<{name} ({} words)>", block.len_words());
            }
            Ok(Some(EventRef::EndBlock(block))) => {
                let indent = "  ".repeat(reader.depth());
                println!("{indent}</{}>", names::block_name(magic, block.block_id).unwrap_or("?"));
            }
            Ok(Some(EventRef::Record(_))) => records += 1,
            Ok(Some(_)) => {}
            Ok(None) => return (records, None),
            Err(e) => return (records, Some(e)),
        }
    }
}
