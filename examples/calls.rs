//! Each call with its callee, its arguments and where it is in the source, with the
//! chain of functions it was inlined into: `cargo run --example calls -- [FILE]`.
//!
//! ```text
//! _ZN11rust_sample5stats4mean…:
//!   call _ZN4core5slice…sum (2 arguments) at /testdata/src/rust_sample.rs:42:9
//!       inlined into _ZN11rust_sample5stats4mean… at /testdata/src/rust_sample.rs:57:5
//! ```

use llvm_bitstream_reader::ir::Module;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/rustc_llvm22_o3.bc").into());
    let bytes = std::fs::read(&path)?;
    let module = Module::parse(&bytes)?;
    let bodies = module.bodies()?;
    for (index, function) in module.functions.iter().enumerate() {
        // Declarations have no body: `body` gives `None` without reading anything.
        let Some(body) = bodies.body(index)? else { continue };
        let info = bodies.debug_info(Some(&body));
        println!("{}:", function.common.name_str());
        for (i, inst) in body.instructions.iter().enumerate() {
            // A call, an invoke or a callbr, taken apart.
            let Some(call) = body.call(inst) else { continue };
            let callee = match call.callee_global().and_then(|id| module.global(id)) {
                Some(global) => global.name_str().into_owned(),
                None => "(indirect)".to_string(),
            };
            let opcode = body.opcode_name(inst, bodies.types());
            print!("  {opcode} {callee} ({} arguments)", call.arguments.len());
            // Where it is, then each place it was inlined at, innermost first.
            for (depth, at) in info.instruction_location(i).enumerate() {
                match depth {
                    0 => println!(" at {at}"),
                    _ => {
                        let into = at.function.map_or("?".into(), |f| f.symbol_str());
                        println!("      inlined into {into} at {at}");
                    }
                }
            }
            if inst.debug_loc.is_none() {
                println!();
            }
        }
    }
    Ok(())
}
