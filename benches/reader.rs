//! Criterion benchmarks: cursor primitives, full walk (iterator and lending), skip walk,
//! and resume (a fresh reader per body, or one reader reopened on each).
//!
//! Inputs: the largest testdata file, plus any `.bc` in `target/bench-inputs/` (made by
//! `benches/inputs/make.sh`; see benches/compare/ for the side-by-side comparison with
//! LLVM and other crates).

use std::hint::black_box;
use std::path::PathBuf;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use llvm_bitstream_reader::cursor::BitCursor;
use llvm_bitstream_reader::ids::llvm_ir;
use llvm_bitstream_reader::{Bitstream, Event, EventRef, LazyBlock};

fn inputs() -> Vec<(String, Vec<u8>)> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut paths = vec![root.join("testdata/rustc_llvm22_o0_debuginfo.bc")];
    if let Ok(dir) = std::fs::read_dir(root.join("target/bench-inputs")) {
        let mut more: Vec<PathBuf> =
            dir.map(|e| e.unwrap().path()).filter(|p| p.extension().is_some_and(|e| e == "bc")).collect();
        more.sort();
        paths.extend(more);
    }
    paths
        .into_iter()
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read(&p).unwrap()))
        .collect()
}

/// Every operand of every record and every blob, summed so nothing is optimised away.
fn full_walk(bytes: &[u8]) -> u64 {
    let mut sum = 0u64;
    for event in Bitstream::parse(bytes).unwrap().reader() {
        if let Event::Record(r) = event.unwrap() {
            sum = r.operands().fold(sum.wrapping_add(u64::from(r.code())), u64::wrapping_add);
            sum = sum.wrapping_add(r.blob().map_or(0, |b| b.len() as u64));
        }
    }
    sum
}

/// The same with the lending walk, every operand decoded into the reader's buffer.
fn full_walk_lending(bytes: &[u8]) -> u64 {
    let mut sum = 0u64;
    let mut reader = Bitstream::parse(bytes).unwrap().reader();
    while let Some(event) = reader.next_ref().unwrap() {
        if let EventRef::Record(r) = event {
            sum = r.operand_slice().iter().fold(sum.wrapping_add(u64::from(r.code())), |s, &v| s.wrapping_add(v));
            sum = sum.wrapping_add(r.blob().map_or(0, |b| b.len() as u64));
        }
    }
    sum
}

fn skip_walk(bytes: &[u8]) -> Vec<LazyBlock<'_>> {
    let mut reader = Bitstream::parse(bytes).unwrap().reader();
    let mut skipped = Vec::new();
    while let Some(event) = reader.next() {
        match event.unwrap() {
            Event::EnterBlock(b) if b.block_id() == llvm_ir::FUNCTION_BLOCK_ID => {
                skipped.push(reader.skip_block().unwrap())
            }
            Event::Record(r) => {
                black_box(r.operands().fold(0u64, u64::wrapping_add));
            }
            _ => {}
        }
    }
    skipped
}

fn walks(c: &mut Criterion) {
    for (name, bytes) in inputs() {
        let mut g = c.benchmark_group("walk");
        g.throughput(Throughput::Bytes(bytes.len() as u64));
        g.sample_size(10);
        g.bench_with_input(BenchmarkId::new("full", &name), &bytes, |b, bytes| b.iter(|| full_walk(bytes)));
        g.bench_with_input(BenchmarkId::new("full_lending", &name), &bytes, |b, bytes| {
            b.iter(|| full_walk_lending(bytes))
        });
        g.bench_with_input(BenchmarkId::new("skip_functions", &name), &bytes, |b, bytes| {
            b.iter(|| skip_walk(bytes).len())
        });
        let skipped = skip_walk(&bytes);
        g.bench_with_input(BenchmarkId::new("resume_functions", &name), &skipped, |b, skipped| {
            b.iter(|| {
                let mut n = 0u64;
                for lazy in skipped {
                    for event in lazy.reader().unwrap() {
                        if let Event::Record(r) = event.unwrap() {
                            n = r.operands().fold(n, u64::wrapping_add);
                        }
                    }
                }
                n
            })
        });
        // One reader reopened on every body, lending walk: the fast way to resume.
        g.bench_with_input(BenchmarkId::new("resume_functions_reopen", &name), &skipped, |b, skipped| {
            b.iter(|| {
                let mut n = 0u64;
                let mut reader = Bitstream::parse(bytes.as_slice()).unwrap().reader();
                for lazy in skipped {
                    reader.reopen(lazy).unwrap();
                    while let Some(event) = reader.next_ref().unwrap() {
                        if let EventRef::Record(r) = event {
                            n = r.operand_slice().iter().fold(n, |s, &v| s.wrapping_add(v));
                        }
                    }
                }
                n
            })
        });
        g.finish();
    }
}

fn cursor(c: &mut Criterion) {
    let data: Vec<u8> = (0..1u32 << 20).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
    let bits = data.len() as u64 * 8;
    let mut g = c.benchmark_group("cursor");
    g.throughput(Throughput::Bytes(data.len() as u64));
    for width in [6u32, 13, 32] {
        g.bench_function(BenchmarkId::new("fixed", width), |b| {
            b.iter(|| {
                let mut cur = BitCursor::new(&data);
                let mut s = 0u64;
                for _ in 0..bits / u64::from(width) {
                    s = s.wrapping_add(cur.read(width).unwrap());
                }
                s
            })
        });
    }
    // VBR6 streams of small (1 chunk) and large (3 chunk) values.
    for (label, value) in [("vbr6_small", 17u64), ("vbr6_large", 40_000)] {
        let mut w = llvm_bitstream_reader_writer_free::Bits::default();
        for _ in 0..(1 << 20) {
            w.vbr(value, 6);
        }
        let encoded = w.bytes;
        g.bench_function(label, |b| {
            b.iter(|| {
                let mut cur = BitCursor::new(&encoded);
                let mut s = 0u64;
                for _ in 0..(1 << 20) {
                    s = s.wrapping_add(cur.read_vbr(6).unwrap());
                }
                s
            })
        });
    }
    g.bench_function("char6", |b| {
        b.iter(|| {
            let mut cur = BitCursor::new(&data);
            let mut s = 0u64;
            for _ in 0..bits / 6 {
                s = s.wrapping_add(u64::from(cur.read_char6().unwrap()));
            }
            s
        })
    });
    g.finish();
}

/// A tiny VBR encoder, so the benchmark needs no optional feature.
mod llvm_bitstream_reader_writer_free {
    #[derive(Default)]
    pub struct Bits {
        pub bytes: Vec<u8>,
        cur: u64,
        n: u32,
    }
    impl Bits {
        fn put(&mut self, v: u64, w: u32) {
            self.cur |= v << self.n;
            self.n += w;
            while self.n >= 8 {
                self.bytes.push(self.cur as u8);
                self.cur >>= 8;
                self.n -= 8;
            }
        }
        pub fn vbr(&mut self, mut v: u64, w: u32) {
            let hi = 1 << (w - 1);
            while v >= hi {
                self.put((v & (hi - 1)) | hi, w);
                v >>= w - 1;
            }
            self.put(v, w);
        }
    }
}

criterion_group!(benches, walks, cursor);
criterion_main!(benches);
