//! What a cut bitcode file still holds: `cargo run --example cut_module -- [FILE] [KEEP_PERCENT]`.
//! The file is cut in memory; its module is read as far as it goes, its complete function
//! bodies decoded, and the functions named from debug info where the cut took their names
//! (the STRTAB is at the end of the file).

use llvm_bitstream_reader::ir::Module;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args
        .next()
        .unwrap_or_else(|| concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/rustc_llvm22_o0_debuginfo.bc").into());
    let percent: usize = args.next().and_then(|p| p.parse().ok()).unwrap_or(50).min(100);
    let bytes = std::fs::read(&path)?;
    let cut = &bytes[..bytes.len() * percent / 100];
    println!("{path}: {} of {} bytes kept", cut.len(), bytes.len());

    let (modules, error) = Module::parse_all_partial(cut);
    if let Some(e) = &error {
        // Where the read broke, in bytes and bits.
        println!("the read broke at byte {} (bit {}): {e}", e.byte_offset(), e.bit_offset());
    }
    for module in &modules {
        println!("module {}: triple {:?}", module.index, module.triple.as_deref().unwrap_or("-"));
        let with_body = module.definitions().filter(|f| f.body.is_some()).count();
        let definitions = module.definitions().count();
        println!(
            "  {} globals, {} functions; {with_body} of {definitions} bodies complete",
            module.globals.len(),
            module.functions.len()
        );
        let bodies = module.bodies()?;
        for (index, function) in module.functions.iter().enumerate() {
            let Some(body) = bodies.body(index)? else { continue };
            let name = if function.common.name.is_empty() {
                // The file's name is gone: debug info's, kept apart.
                match bodies.recovered_name(function.common.value_id) {
                    Some(r) => format!("@{} (named {} by its {})", function.common.value_id, r.name_str(), r.source),
                    None => format!("@{}", function.common.value_id),
                }
            } else {
                function.common.name_str().into_owned()
            };
            println!("  {name}: {} instructions", body.instructions.len());
        }
    }
    Ok(())
}
