//! Lists the symbols of an rlib, an archive, an object file or a `.bc` file as `llvm-nm`
//! lists them: one list per archive member (native symbols of objects, IR symbols of
//! bitcode), with `llvm-nm`'s letters, sorted as it sorts. Default input: the sysroot's
//! `libcore` rlib (real rustc output nobody here wrote), else a testdata archive.
//!
//! ```text
//! cargo run --example symbols -- [FILE] [14|19|22]
//! ```
//!
//! [`symbols::read`] applies every rule (which symbols, which letter, SYMTAB or module
//! records, native or bitcode by `llvm-nm` version); a caller only prints.

use std::path::PathBuf;
use std::process::ExitCode;

use llvm_bitstream_reader::container::ContainerFile;
use llvm_bitstream_reader::symbols::{self, NmVersion, Options, SortOrder};

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
    let mut args = std::env::args().skip(1);
    let path = args
        .next()
        .map(PathBuf::from)
        .or_else(sysroot_libcore)
        .unwrap_or_else(|| PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/containers/gnu_ab.a")));
    let version = args.next().and_then(|v| v.parse().ok()).and_then(NmVersion::from_major).unwrap_or_default();
    // Memory-mapped; `std::fs::read` would do as well.
    let file = match ContainerFile::open(&path) {
        Ok(file) => file,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let listed = match symbols::read(&path.display().to_string(), file.bytes(), &Options::new(version)) {
        Ok(listed) => listed,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let mut total = 0;
    for mut list in listed.lists {
        list.sort(SortOrder::Name, false);
        println!("\n{} ({} symbols):", list.name, list.source);
        for s in list.symbols.iter().filter(|s| s.listed) {
            match s.address {
                Some(address) => print!("{address:0w$x} ", w = list.address_digits),
                None if s.undefined => print!("{:w$} ", "", w = list.address_digits),
                None => print!("{} ", "-".repeat(list.address_digits)),
            }
            println!("{} {}", s.letter, s.name_str());
            total += 1;
        }
        if let Some(e) = &list.error {
            eprintln!("{}: {e}", list.name);
        }
    }
    println!("\n{total} symbols in {} as {version} lists them", path.display());
    ExitCode::SUCCESS
}
