//! Lists a module's functions: linkage, name, and the size of the body (`-` for a
//! declaration), with the module's triple first. Bodies are skipped, not decoded: each
//! definition keeps its FUNCTION_BLOCK as a lazily readable block.
//!
//! ```text
//! cargo run --example functions -- [FILE.bc]
//! ```
//!
//! One entry: [`Module::parse`] (the first module; [`Module::parse_all`] for files with
//! several, [`Module::parse_partial`] for a damaged one).

use std::process::ExitCode;

use llvm_bitstream_reader::BitstreamFile;
use llvm_bitstream_reader::ir::Module;

fn main() -> ExitCode {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/rustc_llvm22_o3.bc").to_owned());
    let file = match BitstreamFile::open(&path) {
        Ok(file) => file,
        Err(e) => {
            eprintln!("{path}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let module = match Module::parse(file.bytes()) {
        Ok(module) => module,
        Err(e) => {
            // Every error says where: the bit offset, and the byte for a hex dump.
            eprintln!("{path}: {e} (byte {})", e.byte_offset());
            return ExitCode::FAILURE;
        }
    };
    println!("{path}: {}", module.triple.as_deref().unwrap_or("(no triple)"));
    for f in &module.functions {
        let size = f.body_bits().map_or_else(|| "-".to_owned(), |bits| format!("{} bytes", bits / 8));
        // `Linkage` pads like a string.
        println!("  {:<14} {:>12}  {}", f.common.linkage, size, f.common.name_str());
    }
    let defined = module.definitions().count();
    println!("{} functions, {defined} with bodies", module.functions.len());
    ExitCode::SUCCESS
}
