//! Lists the symbols of an rlib, an archive, an object with embedded bitcode or a `.bc`
//! file, module by module, with the letters `llvm-nm` prints. Default input: the sysroot's
//! `libcore` rlib (real rustc bitcode nobody here wrote), else a testdata file.
//!
//! ```text
//! cargo run --example symbols -- [FILE]
//! ```
//!
//! [`ContainerFile::open`] finds every bitstream in the file, with where it came from;
//! [`Module::parse_all`] reads each one's modules; [`Module::symbols`] derives the
//! symbols as LLVM's `irsymtab` does, flags bit for bit.

use std::path::PathBuf;
use std::process::ExitCode;

use llvm_bitstream_reader::container::ContainerFile;
use llvm_bitstream_reader::ir::Module;

/// The first `libcore-*.rlib` of the sysroot, if `rustc` is on the PATH.
fn sysroot_libcore() -> Option<PathBuf> {
    let out = std::process::Command::new("rustc").args(["--print", "sysroot"]).output().ok()?;
    let sysroot = PathBuf::from(String::from_utf8(out.stdout).ok()?.trim());
    let rustlib = std::fs::read_dir(sysroot.join("lib/rustlib")).ok()?;
    rustlib.flatten().find_map(|target| {
        let lib = std::fs::read_dir(target.path().join("lib")).ok()?;
        lib.flatten().map(|e| e.path()).find(|p| {
            p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with("libcore-") && n.ends_with(".rlib"))
        })
    })
}

fn main() -> ExitCode {
    let path = std::env::args()
        .nth(1)
        .map(PathBuf::from)
        .or_else(sysroot_libcore)
        .unwrap_or_else(|| PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/containers/gnu_ab.a")));
    let file = match ContainerFile::open(&path) {
        Ok(file) => file,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let streams = match file.bitstreams() {
        Ok(streams) => streams,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let mut total = 0;
    for embedded in &streams {
        let modules = match Module::parse_all(embedded.bytes) {
            Ok(modules) => modules,
            Err(e) => {
                eprintln!("{}: {e}", embedded.provenance);
                continue;
            }
        };
        for module in &modules {
            println!("\n{} [module {}]:", embedded.provenance, module.index);
            for symbol in module.symbols() {
                // A simplified letter from the flags (bitstream-dump --nm applies all of
                // llvm-nm's rules: common, data/bss/rodata by section, Darwin's S).
                let f = symbol.flags;
                let letter = match (f.undefined(), f.weak(), f.executable()) {
                    (true, true, _) => 'w',
                    (true, false, _) => 'U',
                    (false, true, _) => 'W',
                    (false, false, true) => 'T',
                    (false, false, false) => 'D',
                };
                let letter = if f.global() || f.undefined() { letter } else { letter.to_ascii_lowercase() };
                println!("{letter} {}", String::from_utf8_lossy(&symbol.name));
                total += 1;
            }
        }
    }
    println!("\n{total} symbols in {} bitstreams of {}", streams.len(), path.display());
    ExitCode::SUCCESS
}
