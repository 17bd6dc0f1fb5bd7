//! Walks the records of a file with the fastest walk, counting them per block kind and
//! record, and reads the function bodies later, on threads.
//!
//! ```text
//! cargo run --release --example walk -- [FILE] [THREADS]
//! ```
//!
//! One pass over the stream with [`Reader::advance`]: every record of a block outside
//! the function bodies is counted by its code alone ([`Reader::skip_record`] decodes no
//! operand), and every FUNCTION_BLOCK is skipped in O(1) ([`Reader::skip_block`]), kept
//! as a [`LazyBlock`]: a bookmark, the stream and the BLOCKINFO table in effect, all
//! `Send + Sync`. The bodies are then read on THREADS threads (default: all cores) with
//! [`Reader::next_ref`], every operand decoded into a buffer the reader reuses, each
//! thread with one reader that [`Reader::reopen`] moves from body to body.

use std::collections::BTreeMap;
use std::process::ExitCode;
use std::time::Instant;

use llvm_bitstream_reader::ids::llvm_ir;
use llvm_bitstream_reader::{BitstreamFile, BlockId, Entry, Error, EventRef, LazyBlock, Magic, Reader, names};

/// Records counted per (block id, record code).
type Histogram = BTreeMap<(BlockId, u32), u64>;

/// The records of `bodies` counted per block and code, and the sum of their operands
/// (which every operand must be decoded for).
///
/// One reader does every block, reopened on each: it keeps its buffers and the
/// abbreviations it has compiled, where a fresh `body.reader()` per block would start
/// from nothing each time.
fn read_bodies(bodies: &[LazyBlock<'_>]) -> Result<(Histogram, u64), Error> {
    let mut histogram = Histogram::new();
    let mut sum = 0u64;
    let mut reused: Option<Reader<'_>> = None;
    for body in bodies {
        let reader = match &mut reused {
            Some(reader) => {
                reader.reopen(body)?;
                reader
            }
            None => reused.insert(body.reader()?),
        };
        while let Some(event) = reader.next_ref()? {
            if let EventRef::Record(r) = event {
                *histogram.entry((r.block_id(), r.code())).or_default() += 1;
                sum = r.operand_slice().iter().fold(sum, |s, &v| s.wrapping_add(v));
            }
        }
    }
    Ok((histogram, sum))
}

fn run(path: &str, threads: usize) -> Result<(), Box<dyn std::error::Error>> {
    let file = BitstreamFile::open(path)?;
    let stream = file.bitstream()?;

    // The walk: codes only, function bodies skipped and kept.
    let start = Instant::now();
    let mut reader = stream.reader();
    let mut histogram = Histogram::new();
    let mut bodies = Vec::new();
    while let Some(entry) = reader.advance()? {
        match entry {
            Entry::EnterBlock(block) if block.block_id == llvm_ir::FUNCTION_BLOCK_ID => {
                bodies.push(reader.skip_block()?)
            }
            Entry::Record { .. } => {
                let code = reader.skip_record()?;
                let block_id = reader.block_id().expect("a record is inside a block");
                *histogram.entry((block_id, code)).or_default() += 1;
            }
            _ => {}
        }
    }
    let walk = start.elapsed();

    // The bodies, on threads: contiguous chunks of about equal size.
    let start = Instant::now();
    let total_bits: u64 = bodies.iter().map(|b| b.bookmark().end_bit() - b.bookmark().content_bit).sum();
    let mut chunks: Vec<&[LazyBlock<'_>]> = Vec::new();
    let (mut from, mut acc) = (0, 0u64);
    for (i, b) in bodies.iter().enumerate() {
        acc += b.bookmark().end_bit() - b.bookmark().content_bit;
        if acc * threads as u64 >= total_bits * (chunks.len() as u64 + 1) {
            chunks.push(&bodies[from..=i]);
            from = i + 1;
        }
    }
    chunks.push(&bodies[from..]);
    let results = std::thread::scope(|s| {
        let handles: Vec<_> = chunks.iter().map(|chunk| s.spawn(move || read_bodies(chunk))).collect();
        handles.into_iter().map(|h| h.join().expect("a thread panicked")).collect::<Result<Vec<_>, Error>>()
    })?;
    let threaded = start.elapsed();
    let mut checksum = 0u64;
    for (part, sum) in results {
        checksum = checksum.wrapping_add(sum);
        for (key, n) in part {
            *histogram.entry(key).or_default() += n;
        }
    }

    // Per block kind, its records by count.
    let magic = stream.magic();
    let mut blocks: BTreeMap<BlockId, Vec<(u32, u64)>> = BTreeMap::new();
    for (&(block_id, code), &n) in &histogram {
        blocks.entry(block_id).or_default().push((code, n));
    }
    for (block_id, mut records) in blocks {
        records.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let total: u64 = records.iter().map(|r| r.1).sum();
        let name = block_name(magic, block_id);
        println!("{name:<32} {total:>10} records");
        for (code, n) in records.iter().take(8) {
            let record =
                names::record_name(magic, block_id, *code).map_or_else(|| format!("code {code}"), String::from);
            println!("    {record:<36} {n:>10}");
        }
        if records.len() > 8 {
            println!("    ({} more kinds)", records.len() - 8);
        }
    }
    println!();
    println!("{} function bodies read on {threads} threads, operand checksum {checksum}", bodies.len());
    println!("walk, bodies skipped: {:8.2} ms", walk.as_secs_f64() * 1e3);
    println!("bodies on threads:    {:8.2} ms", threaded.as_secs_f64() * 1e3);
    Ok(())
}

fn block_name(magic: Magic, block_id: BlockId) -> String {
    names::block_name(magic, block_id).map_or_else(|| format!("block {}", block_id.0), String::from)
}

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let path = args
        .next()
        .unwrap_or_else(|| concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/rustc_llvm22_o0_debuginfo.bc").into());
    let threads = args
        .next()
        .and_then(|t| t.parse().ok())
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()));
    match run(&path, threads.max(1)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("walk: {e}");
            ExitCode::FAILURE
        }
    }
}
