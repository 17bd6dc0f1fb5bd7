//! Each function's calls with their callee names: `cargo run --example calls -- [FILE]`.
//! Direct calls name their callee; indirect calls and inline asm are counted apart.

use llvm_bitstream_reader::ir::{InstKind, Module, Value};

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
        let (mut indirect, mut asm) = (0, 0);
        let mut callees = Vec::new();
        for inst in &body.instructions {
            if !matches!(inst.kind, InstKind::Call { .. } | InstKind::Invoke(_) | InstKind::CallBr { .. }) {
                continue;
            }
            match body.operands(inst)[0].value {
                Value::Global(id) => {
                    callees.push(module.global(id).map(|g| g.name_str().into_owned()).unwrap_or_default())
                }
                // Inline asm is a constant of the module or of the function.
                Value::Constant(id) if bodies.constant(&body, id).is_some_and(|(c, _)| c.is_inline_asm()) => asm += 1,
                _ => indirect += 1,
            }
        }
        println!("{}: {} calls, {indirect} indirect, {asm} inline asm", function.common.name_str(), callees.len());
        for callee in callees {
            println!("    {callee}");
        }
    }
    Ok(())
}
