//! Shared scaffolding for the comparison harnesses: argument parsing, loading
//! the file, stripping the Darwin bitcode wrapper, timing and output.
//! Included into each binary with `#[path = "../common.rs"] mod common;`.
#![allow(dead_code)]

use std::time::Instant;

/// What every reader reports; see benches/compare/README.md.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// ENTER_SUBBLOCKs, BLOCKINFO excluded (skipped blocks included).
    pub blocks: u64,
    /// Data records outside BLOCKINFO (no DEFINE_ABBREV).
    pub records: u64,
    /// Wrapping sum of record codes and all operands (arrays element-wise,
    /// char6 as ASCII, blobs excluded).
    pub opsum: u64,
    /// Total blob length.
    pub blob_bytes: u64,
}

impl Counts {
    #[inline(always)]
    pub fn add(&mut self, v: u64) {
        self.opsum = self.opsum.wrapping_add(v);
    }

    /// The sink rig's per-operand sink: each value is made opaque to the optimiser
    /// before it is added, so a walk cannot fold a record's operands as a batch (as
    /// a user who handles each operand in turn does not).
    #[inline(always)]
    pub fn sink(&mut self, v: u64) {
        self.opsum = self.opsum.wrapping_add(std::hint::black_box(v));
    }
}

pub struct Args {
    pub path: String,
    pub iters: usize,
    pub skip_functions: bool,
    /// The sink rig (`--sink`): every operand goes through [`Counts::sink`] one at a
    /// time, and the harness keeps its own stack of open block ids (BLOCKINFO is left
    /// out by the stack's top, not by what the reader says of the record).
    pub sink: bool,
}

pub fn args() -> Args {
    let mut path = None;
    let mut iters = 5usize;
    let mut skip_functions = false;
    let mut sink = false;
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        match a.as_str() {
            "--iters" => {
                iters = it.next().and_then(|n| n.parse().ok()).unwrap_or_else(|| usage());
                iters = iters.max(1);
            }
            "--skip-functions" => skip_functions = true,
            "--sink" => sink = true,
            _ if a.starts_with('-') => usage(),
            _ => path = Some(a),
        }
    }
    Args { path: path.unwrap_or_else(|| usage()), iters, skip_functions, sink }
}

fn usage() -> ! {
    eprintln!("usage: HARNESS FILE [--iters N] [--skip-functions] [--sink]");
    std::process::exit(2)
}

/// The whole file, read into memory.
pub fn load(path: &str) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| fail(&format!("cannot read {path}: {e}")))
}

/// The bitstream proper: strips the Darwin wrapper header (magic DE C0 17 0B,
/// then little-endian u32 version, offset, size, cputype) if present.
pub fn unwrap(data: &[u8]) -> &[u8] {
    let le32 = |o: usize| u32::from_le_bytes(data[o..o + 4].try_into().unwrap()) as usize;
    if data.len() >= 20 && data[..4] == [0xDE, 0xC0, 0x17, 0x0B] {
        let (off, size) = (le32(8), le32(12));
        match off.checked_add(size) {
            Some(end) if end <= data.len() => &data[off..end],
            _ => fail("bitcode wrapper: stream out of bounds"),
        }
    } else {
        data
    }
}

/// Prints `error` on stdout, the message on stderr, and exits 1.
pub fn fail(msg: &str) -> ! {
    eprintln!("error: {msg}");
    println!("error");
    std::process::exit(1)
}

/// Prints `unsupported` (the reader has no way to skip a block) and exits 0.
pub fn unsupported(why: &str) -> ! {
    eprintln!("unsupported: {why}");
    println!("unsupported");
    std::process::exit(0)
}

/// Runs `walk` `iters` times, timing each, prints `time_ms=<best> <median>`
/// on stderr and the checksum line of the last iteration on stdout.
pub fn run<E: std::fmt::Debug>(iters: usize, mut walk: impl FnMut() -> Result<Counts, E>) {
    let mut ms = Vec::with_capacity(iters);
    let mut last = Counts::default();
    for _ in 0..iters {
        let t0 = Instant::now();
        let r = walk();
        let dt = t0.elapsed().as_secs_f64() * 1e3;
        match r {
            Ok(c) => last = std::hint::black_box(c),
            Err(e) => fail(&format!("{e:?}")),
        }
        ms.push(dt);
    }
    ms.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let n = ms.len();
    let median = if n % 2 == 1 { ms[n / 2] } else { (ms[n / 2 - 1] + ms[n / 2]) / 2.0 };
    eprintln!("time_ms={:.3} {:.3}", ms[0], median);
    println!(
        "checksum blocks={} records={} opsum={} blob_bytes={}",
        last.blocks, last.records, last.opsum, last.blob_bytes
    );
}
