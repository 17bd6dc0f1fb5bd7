//! Decodes function bodies in parallel from their bookmarks.
//!
//! ```text
//! cargo run --release --example parallel -- FILE [THREADS]
//! ```
//!
//! One pass reads the module and skips every FUNCTION_BLOCK in O(1), keeping a
//! `LazyBlock` for each: a bookmark, the stream and the BLOCKINFO table in effect, all
//! `Send + Sync`. The bodies are then decoded on THREADS threads (default: all cores),
//! each with one reader that `Reader::reopen` moves from body to body. The same work is
//! done on one thread first, and the two checksums must agree.

use std::process::ExitCode;
use std::time::Instant;

use llvm_bitstream_reader::ids::ir;
use llvm_bitstream_reader::{BitstreamFile, Error, EventRef, LazyBlock, Reader};

/// Sum of every code and operand of the blocks, and their record count.
///
/// One reader does every block, reopened on each: it keeps its buffers and the
/// abbreviations it has compiled, where a fresh `body.reader()` per block would start
/// from nothing each time.
fn decode(bodies: &[LazyBlock<'_>]) -> Result<(u64, u64), Error> {
    let (mut sum, mut records) = (0u64, 0u64);
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
                records += 1;
                sum = r.operand_slice().iter().fold(sum.wrapping_add(u64::from(r.code())), |s, &v| s.wrapping_add(v));
            }
        }
    }
    Ok((sum, records))
}

fn run(path: &str, threads: usize) -> Result<(), Box<dyn std::error::Error>> {
    let file = BitstreamFile::open(path)?;
    let stream = file.bitstream()?;

    let start = Instant::now();
    let mut reader = stream.reader();
    let mut bodies = Vec::new();
    while let Some(event) = reader.next_ref()? {
        if let EventRef::EnterBlock(block) = event {
            if block.block_id() == ir::FUNCTION_BLOCK_ID {
                bodies.push(reader.skip_block()?);
            }
        }
    }
    let scan = start.elapsed();

    // Once untimed: the file is memory-mapped, and the first pass over the bodies pays
    // their page faults, which would flatter whichever run came second.
    decode(&bodies)?;
    let start = Instant::now();
    let serial = decode(&bodies)?;
    let one = start.elapsed();

    let start = Instant::now();
    // Contiguous chunks of about equal bytes, so each thread gets a similar share.
    let total_bits: u64 = bodies.iter().map(|b| u64::from(b.bookmark().len_words) * 32).sum();
    let mut chunks: Vec<&[LazyBlock<'_>]> = Vec::new();
    let (mut from, mut acc) = (0, 0u64);
    for (i, b) in bodies.iter().enumerate() {
        acc += u64::from(b.bookmark().len_words) * 32;
        if acc * threads as u64 >= total_bits * (chunks.len() as u64 + 1) {
            chunks.push(&bodies[from..=i]);
            from = i + 1;
        }
    }
    chunks.push(&bodies[from..]);
    let parallel = std::thread::scope(|s| {
        let handles: Vec<_> = chunks.iter().map(|chunk| s.spawn(move || decode(chunk))).collect();
        handles.into_iter().try_fold((0u64, 0u64), |(sum, n), h| {
            let (s2, n2) = h.join().expect("a decoding thread panicked")?;
            Ok::<_, Error>((sum.wrapping_add(s2), n + n2))
        })
    })?;
    let many = start.elapsed();

    if serial != parallel {
        return Err(format!("checksums differ: serial {serial:?}, parallel {parallel:?}").into());
    }
    println!("{} function bodies, {} records, checksum {}", bodies.len(), serial.1, serial.0);
    println!("scan, skipping bodies:  {:8.2} ms", scan.as_secs_f64() * 1e3);
    println!("decode on 1 thread:     {:8.2} ms", one.as_secs_f64() * 1e3);
    println!(
        "decode on {threads} threads:    {:8.2} ms  (speedup {:.2}x)",
        many.as_secs_f64() * 1e3,
        one.as_secs_f64() / many.as_secs_f64()
    );
    Ok(())
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
            eprintln!("parallel: {e}");
            ExitCode::FAILURE
        }
    }
}
