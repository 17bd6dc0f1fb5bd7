//! An LLVM 1.x bytecode file: its functions, each body's opcodes counted, then the module
//! in 1.x assembly: `cargo run --example legacy --features legacy-compression -- [FILE]`.
//! Compressed files (`llvc1`, `llvc2`) are decompressed first. Without a FILE, a small
//! module written by hand (the `legacy` module's example).

use std::collections::BTreeMap;

use llvm_bitstream_reader::legacy::{Bytecode, Module};

/// `declare int %getchar()` and `int %main() { call int %getchar(); ret }`, version 5.
const GETCHAR_MODULE: [u8; 76] = [
    108, 108, 118, 109, 1, 0, 0, 0, 64, 0, 0, 0, 80, 198, 0, 0, 0, 2, 13, 7, 0, 16, 13, 69, 1, 0, 0, 0, 209, 3, 193, 3,
    0, 0, 0, 0, 0, 162, 1, 0, 0, 0, 7, 1, 0, 0, 117, 14, 16, 0, 5, 7, 16, 0, 68, 2, 0, 0, 0, 2, 14, 1, 7, 103, 101,
    116, 99, 104, 97, 114, 2, 4, 109, 97, 105, 110,
];

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let raw = match std::env::args().nth(1) {
        Some(path) => std::fs::read(path)?,
        None => GETCHAR_MODULE.to_vec(),
    };
    // An uncompressed file comes back as it is.
    let bytes = Bytecode::decompress(&raw)?;
    let module = Module::parse(&bytes)?;
    println!("bytecode version {}", module.bytecode.format().version);
    for (index, function) in module.functions.iter().enumerate() {
        // Declarations have no body: `None`, without reading anything.
        let Some(body) = module.body(index)? else {
            println!("{}: declaration", module.function_name(index));
            continue;
        };
        let mut opcodes = BTreeMap::new();
        for inst in &body.instructions {
            *opcodes.entry(inst.opcode.name()).or_insert(0) += 1;
        }
        println!(
            "{}: {} linkage, {} blocks, {} instructions {opcodes:?}",
            module.function_name(index),
            function.linkage,
            body.blocks.len(),
            body.instructions.len()
        );
    }
    print!("{}", module.display());
    Ok(())
}
