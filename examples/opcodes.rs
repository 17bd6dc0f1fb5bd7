//! Instructions counted by opcode over every body of a file (a crate's bitcode, an
//! rlib member extracted, an LTO module): `cargo run --example opcodes -- [FILE]`.
//! Bodies are decoded on all cores, from one `Bodies`.

use std::collections::BTreeMap;

use llvm_bitstream_reader::ir::Module;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/rustc_llvm22_o3.bc").into());
    let bytes = std::fs::read(&path)?;
    let module = Module::parse(&bytes)?;
    let bodies = module.bodies()?;
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let n = module.functions.len();
    let counts = std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads)
            .map(|t| {
                let bodies = &bodies;
                s.spawn(move || {
                    let mut counts: BTreeMap<&'static str, usize> = BTreeMap::new();
                    for index in (t..n).step_by(threads) {
                        if let Ok(Some(body)) = bodies.body(index) {
                            for inst in &body.instructions {
                                *counts.entry(body.opcode_name(inst, bodies.types())).or_default() += 1;
                            }
                        }
                    }
                    counts
                })
            })
            .collect();
        let mut all: BTreeMap<&'static str, usize> = BTreeMap::new();
        for w in workers {
            for (op, c) in w.join().expect("a worker panicked") {
                *all.entry(op).or_default() += c;
            }
        }
        all
    });
    let mut sorted: Vec<_> = counts.into_iter().collect();
    sorted.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    for (op, count) in sorted {
        println!("{count:>10} {op}");
    }
    Ok(())
}
