//! Every `store volatile` of a file, printed as `llvm-dis` prints it, with its function:
//! `cargo run --example volatile_stores -- [FILE]`.

use llvm_bitstream_reader::ir::{DisOptions, InstKind, Module};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/llvm14_ir_instructions.bc").into());
    let bytes = std::fs::read(&path)?;
    let module = Module::parse(&bytes)?;
    let bodies = module.bodies()?;
    for (index, function) in module.functions.iter().enumerate() {
        let Some(body) = bodies.body(index)? else { continue };
        if !body.instructions.iter().any(|i| matches!(i.kind, InstKind::Store { volatile: true, .. })) {
            continue;
        }
        // The function's text, then the lines of its volatile stores.
        let text = bodies.display_function(index, Some(&body), DisOptions::default()).to_string();
        for line in text.lines().filter(|l| {
            l.trim_start().starts_with("store volatile") || l.trim_start().starts_with("store atomic volatile")
        }) {
            println!("{}: {}", function.common.name_str(), line.trim());
        }
    }
    Ok(())
}
