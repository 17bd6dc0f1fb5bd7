//! What debug info answers, without LLVM: `cargo run --example debuginfo -- [FILE [FUNCTION]]`.
//! Lists the module's compile units and source files (with checksums), then, for one
//! function (by default the first defined one with a location), symbolizes each of its
//! instructions (`file:line:column`, and where it was inlined), prints its inlining tree,
//! and says where its variables live.

use std::collections::BTreeMap;

use llvm_bitstream_reader::ir::{DebugInfo, Module, SourceFile};

fn path(file: Option<SourceFile<'_>>) -> String {
    file.map_or_else(|| "?".into(), |f| String::from_utf8_lossy(f.filename).into_owned())
}

/// The source function a location is in, and `file:line:column`.
fn at(info: &DebugInfo<'_>, line: u32, column: u32, scope: Option<u64>) -> (String, String) {
    let function = scope.and_then(|s| info.subprogram_of_scope(s)).and_then(|sp| info.subprogram(sp));
    let name = function.map_or_else(|| "?".into(), |f| String::from_utf8_lossy(f.name).into_owned());
    let place = format!("{}:{line}:{column}", path(function.and_then(|f| f.file)));
    (name, place)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path_arg = args
        .next()
        .unwrap_or_else(|| concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/rustc_llvm22_o0_debuginfo.bc").into());
    let wanted = args.next();
    let bytes = std::fs::read(&path_arg)?;
    let module = Module::parse(&bytes)?;
    let bodies = module.bodies()?;

    let info = bodies.debug_info(None);
    for cu in info.compile_units() {
        println!("compile unit: {} ({})", path(cu.file), String::from_utf8_lossy(cu.producer));
    }
    for (_, file) in info.files() {
        let checksum = file
            .checksum
            .map_or(String::new(), |c| format!(" {} {}", c.kind_name.unwrap_or("?"), String::from_utf8_lossy(c.value)));
        println!("  file {}{checksum}", String::from_utf8_lossy(file.filename));
    }

    for (index, function) in module.functions.iter().enumerate() {
        let name = function.common.name_str();
        if wanted.as_deref().is_some_and(|w| w != name) {
            continue;
        }
        let Some(body) = bodies.body(index)? else { continue };
        if body.debug_locs.is_empty() {
            continue;
        }
        let info = bodies.debug_info(Some(&body));
        println!("\n{name}:");
        // Symbolize: each instruction's location, and the places it was inlined into.
        // The inlining tree: the inlined-at chains, outermost first, counted.
        let mut tree: BTreeMap<Vec<String>, usize> = BTreeMap::new();
        for (i, inst) in body.instructions.iter().enumerate() {
            let Some(loc) = inst.debug_loc.map(|l| body.debug_locs[l as usize]) else { continue };
            let chain: Vec<(String, String)> =
                info.inlining_chain(loc).map(|l| at(&info, l.line, l.column, l.scope)).collect();
            let text: Vec<String> = chain.iter().map(|(name, place)| format!("{name} ({place})")).collect();
            println!("  #{i:<4} {}", text.join(" <- inlined into "));
            let mut path: Vec<String> = chain.into_iter().rev().map(|(name, _)| name).collect();
            while !path.is_empty() {
                *tree.entry(path.clone()).or_default() += 1;
                path.pop();
            }
        }
        println!("  inlining tree:");
        for (path, count) in &tree {
            let name = path.last().map_or("?", String::as_str);
            println!("  {:indent$}{name} ({count} instructions)", "", indent = 2 * path.len());
        }
        // Where the variables live.
        for v in bodies.variable_locations(&body) {
            let Some(var) = info.variable(v.variable) else { continue };
            println!(
                "  variable {} (line {}): {:?} before instruction #{}",
                String::from_utf8_lossy(var.name),
                var.line,
                v.kind,
                v.instruction
            );
        }
        if wanted.is_none() {
            break;
        }
    }
    Ok(())
}
