//! Criterion benchmarks of the LLVM 1.x bytecode decoder (`legacy`): the module read
//! (types, globals, constants, symbol table; bodies kept), every body decoded, and the
//! whole module printed in 1.x assembly.
//!
//! Input: a module written by the tests' 1.x writer (`tests/legacy_writer`): 4,000
//! functions of 62 instructions (a chain of `add`s, a `call`, a `ret`), version 5,
//! about 1 MB. No LLVM 1.x tool runs today, so there is no peer to measure beside it;
//! the numbers track this decoder from change to change.

#[path = "../tests/legacy_writer/mod.rs"]
mod legacy_writer;

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use legacy_writer::{ModuleBuilder, c_int, insts, raw};
use llvm_bitstream_reader::legacy::Module;

fn input() -> Vec<u8> {
    let mut m = ModuleBuilder::new(5);
    let v = m.v;
    m.types = vec![v.t_fn(7, &[7], false), v.t_ptr(13)];
    let n = 4000;
    m.functions = (0..n).map(|_| v.function(14, 0, false, 0, None)).collect();
    let mut pool = v.plane(2, 7);
    pool.extend(c_int(1));
    pool.extend(c_int(2));
    m.constants = Some(vec![raw(pool)]);
    for _ in 0..n {
        // The argument is int slot 3 (after the zero and the two constants).
        let mut list = Vec::new();
        let mut last = 3;
        for i in 0..60 {
            list.push(v.inst(7, 7, &[last, 1 + (i % 2)]));
            last += 1;
        }
        list.push(v.inst(29, 14, &[1, last]));
        list.push(v.inst(1, 7, &[last + 1]));
        m.body(0, vec![(v.ids().instructions, insts(list))]);
    }
    m.build()
}

fn legacy(c: &mut Criterion) {
    let bytes = input();
    let mut g = c.benchmark_group("legacy");
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    g.sample_size(20);
    g.bench_function("module", |b| b.iter(|| Module::parse(black_box(&bytes)).unwrap().functions.len()));
    let module = Module::parse(&bytes).unwrap();
    g.bench_function("bodies", |b| {
        b.iter(|| {
            (0..module.functions.len())
                .map(|i| module.body(i).unwrap().map_or(0, |b| b.instructions.len()))
                .sum::<usize>()
        })
    });
    g.bench_function("display", |b| b.iter(|| module.display().to_string().len()));
    g.finish();
}

criterion_group!(benches, legacy);
criterion_main!(benches);
