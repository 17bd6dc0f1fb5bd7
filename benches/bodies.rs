//! Decoding every function body of a file, in-process: `cargo bench --bench bodies --
//! FILE [ITERS] [THREADS]` prints the median time of ITERS decodes (module read, module
//! constants, the module's metadata, every body with its own metadata, on THREADS threads
//! sharing one `Bodies`, 1 by default) and the instruction count. The bodies are read as
//! LLVM 22 reads them (`Bodies::body_into`), which is what `materializeAll` builds:
//! `benches/bodies/run.sh` runs it beside LLVM 22's `materializeAll` on the same files.

use std::time::Instant;

use llvm_bitstream_reader::ir::{Body, Module};

fn main() {
    let mut args = std::env::args().skip(1).filter(|a| !a.starts_with("--"));
    let path =
        args.next().unwrap_or_else(|| concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/rustc_llvm22_o3.bc").into());
    let iters: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(5);
    let threads: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(1).max(1);
    let bytes = std::fs::read(&path).expect("the input file");
    let mut times = Vec::new();
    let mut instructions = 0;
    let mut metadata = 0;
    for _ in 0..iters {
        let start = Instant::now();
        let mut count = 0;
        metadata = 0;
        for module in Module::parse_all(&bytes).expect("a bitcode file") {
            let bodies = module.bodies().expect("module constants");
            // The module's METADATA_BLOCK, as LLVM's materializeAll reads it.
            metadata += bodies.debug_info(None).len();
            let n = module.functions.len();
            count += std::thread::scope(|s| {
                let workers: Vec<_> = (0..threads)
                    .map(|t| {
                        let bodies = &bodies;
                        s.spawn(move || {
                            // One `Body` whose storage every function of this thread reuses.
                            let mut body = Body::default();
                            let mut count = 0;
                            for i in (t..n).step_by(threads) {
                                if bodies.body_into(i, &mut body).expect("a body") {
                                    count += body.instructions.len();
                                }
                            }
                            count
                        })
                    })
                    .collect();
                workers.into_iter().map(|w| w.join().expect("a worker")).sum::<usize>()
            });
        }
        times.push(start.elapsed().as_secs_f64() * 1e3);
        instructions = count;
    }
    times.sort_by(f64::total_cmp);
    println!("{:.3} ms median, {instructions} instructions, {metadata} module metadata ids", times[times.len() / 2]);
}
