//! Criterion benchmarks of the IR layer: reading every module (`ir::Module::parse_all`: module
//! records, types, the VST; bodies, metadata and constants skipped, attribute groups and
//! lists kept for first use) and deriving its symbols (which reads the constants they
//! need), against the skip walk (every block entered and every record skipped by code,
//! FUNCTION_BLOCKs skipped in O(1)).
//!
//! Inputs: testdata/rustc_llvm22_o0_debuginfo.bc and, if present,
//! target/bench-inputs/lto-o3.bc (made by benches/inputs/make.sh).

use std::hint::black_box;
use std::path::PathBuf;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use llvm_bitstream_reader::ids::llvm_ir::raw as ids;
use llvm_bitstream_reader::{Bitstream, Entry, ir};

fn inputs() -> Vec<(String, Vec<u8>)> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut paths = vec![root.join("testdata/rustc_llvm22_o0_debuginfo.bc")];
    let lto = root.join("target/bench-inputs/lto-o3.bc");
    if lto.exists() {
        paths.push(lto);
    }
    paths
        .into_iter()
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read(&p).unwrap()))
        .collect()
}

/// Every block entered, every record skipped (its code read), function bodies skipped.
fn skip_walk(bytes: &[u8]) -> u64 {
    let mut reader = Bitstream::parse(bytes).unwrap().reader();
    let mut codes = 0u64;
    while let Some(entry) = reader.advance().unwrap() {
        match entry {
            Entry::EnterBlock(b) if b.block_id == ids::FUNCTION_BLOCK_ID => {
                black_box(reader.skip_block().unwrap());
            }
            Entry::Record { .. } => codes = codes.wrapping_add(u64::from(reader.skip_record().unwrap())),
            _ => {}
        }
    }
    codes
}

fn module_read(bytes: &[u8]) -> usize {
    let modules = ir::Module::parse_all(bytes).unwrap();
    modules.iter().map(|m| m.functions.len() + m.globals.len()).sum()
}

fn symbols(bytes: &[u8]) -> usize {
    let modules = ir::Module::parse_all(bytes).unwrap();
    modules.iter().map(|m| m.symbols().len()).sum()
}

fn ir_layer(c: &mut Criterion) {
    for (name, bytes) in inputs() {
        let mut g = c.benchmark_group("ir");
        g.throughput(Throughput::Bytes(bytes.len() as u64));
        g.sample_size(10);
        g.bench_with_input(BenchmarkId::new("skip_walk", &name), &bytes, |b, bytes| b.iter(|| skip_walk(bytes)));
        g.bench_with_input(BenchmarkId::new("module_read", &name), &bytes, |b, bytes| b.iter(|| module_read(bytes)));
        g.bench_with_input(BenchmarkId::new("module_read_and_symbols", &name), &bytes, |b, bytes| {
            b.iter(|| symbols(bytes))
        });
        g.finish();
    }
}

criterion_group!(benches, ir_layer);
criterion_main!(benches);
