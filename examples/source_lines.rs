//! Each function's source file and line, from its `DISubprogram`:
//! `cargo run --example source_lines -- [FILE]`.
//!
//! ```text
//! /testdata/src/rust_sample.rs:12  _ZN11rust_sample…new (new)
//! ```

use llvm_bitstream_reader::ir::Module;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/rustc_llvm22_o0_debuginfo.bc").into());
    let bytes = std::fs::read(&path)?;
    let module = Module::parse(&bytes)?;
    let bodies = module.bodies()?;
    let module_info = bodies.debug_info(None);
    for (index, function) in module.functions.iter().enumerate() {
        // A definition's subprogram is its own `!dbg`; a declaration's is the module's.
        let body = bodies.body(index)?;
        let subprogram = match &body {
            Some(body) => bodies.debug_info(Some(body)).function_subprogram(),
            None => module_info.global_subprogram(function.common.value_id),
        };
        let Some(sp) = subprogram else { continue };
        let file = sp.file.map_or("??".into(), |f| f.path());
        println!("{file}:{}  {} ({})", sp.line, function.common.name_str(), sp.name_str());
    }
    Ok(())
}
