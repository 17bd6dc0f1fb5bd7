//! Prints the diagnostics of a clang serialized-diagnostics file (`clang
//! --serialize-diagnostics FILE.dia`) as libclang's `clang_formatDiagnostic` prints them,
//! notes indented under their diagnostic, each with its fix-its.
//!
//! ```text
//! cargo run --example diagnostics -- [FILE.dia]
//! ```
//!
//! One entry: [`Diagnostics::parse`] ([`Diagnostics::parse_partial`] for a damaged file:
//! the diagnostics before the break, and the error).

use std::process::ExitCode;

use llvm_bitstream_reader::diag::Diagnostics;

fn main() -> ExitCode {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/clang14_diag_cxx.dia").to_owned());
    let bytes = match std::fs::read(&path) {
        Ok(bytes) => bytes,
        Err(e) => {
            eprintln!("{path}: {e}");
            return ExitCode::FAILURE;
        }
    };
    // What the file holds up to any damage, and the error that stopped the reading.
    let (diags, error) = Diagnostics::parse_partial(&bytes);
    for (depth, d) in diags.walk() {
        println!("{:indent$}{d}", "", indent = depth * 2);
        for fix in d.fixits() {
            let (start, end) = (fix.range.start, fix.range.end);
            println!(
                "{:indent$}  fix-it: {start}-{}:{}: replace with {:?}",
                "",
                end.line,
                end.column,
                fix.replacement.to_string(),
                indent = depth * 2
            );
        }
    }
    println!("{} diagnostics, {} top-level", diags.len(), diags.iter().count());
    match error {
        Some(e) => {
            eprintln!("{path}: {e}");
            ExitCode::FAILURE
        }
        None => ExitCode::SUCCESS,
    }
}
