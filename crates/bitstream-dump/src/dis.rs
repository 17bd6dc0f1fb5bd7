//! `--dis FILE`: a bitcode file's modules printed as `llvm-dis` prints them, function
//! bodies included (the library's `ir::Bodies::display_module`); an LLVM 1.x bytecode
//! file in the assembly of its era (`legacy::Module::display`).
//!
//! ```text
//! $ bitstream-dump --dis --llvm-dis-version 14 testdata/llvm14_ir_instructions.bc
//! ; ModuleID = 'testdata/llvm14_ir_instructions.bc'
//! source_filename = "instructions.ll"
//! ...
//! define i32 @add(i32 %a, i32 %b) {
//!   %1 = add nsw i32 %a, %b
//! ...
//! ```

use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

use llvm_bitstream_reader::container::{ContainerFile, FileFormat};
use llvm_bitstream_reader::ir::{DisOptions, Module};

use crate::{BROKEN_PIPE, io_text};

pub const USAGE: &str = "\
usage: bitstream-dump --dis [--llvm-dis-version N] [--threads N] FILE

Prints the IR modules of a bitcode file (or of the bitcode in an object, archive or rlib)
as llvm-dis prints them, byte for byte: structs, comdats, globals, functions with their
bodies, attribute groups, named metadata and every metadata node, numbered as llvm-dis
numbers them, and what LLVM's reader of that version upgrades as it reads an older file.

  --llvm-dis-version N   match llvm-dis N, 13 to 22 (13, 14, 15, 16, 19, 22 are
                         checked; the default 22): below 16, typed-pointer files
                         print their pointer types
  --threads N            print with up to N threads (the default: the machine's
                         cores); the text is the same for every N

An LLVM 1.x bytecode file (`llvm`, `llvc0`, `llvc1`, `llvc2`) is printed in LLVM 1.x
assembly (`%x = add int %a, 1`), as the llvm-dis of its time printed it.
";

/// Runs `--dis` with the command line's arguments (the flag itself among them).
pub fn main(args: &[String]) -> ExitCode {
    let mut options = DisOptions::default();
    let mut threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut file = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        // `--name=value` or `--name value`.
        let (name, inline) = match a.split_once('=') {
            Some((name, value)) if name.starts_with("--") => (name, Some(value)),
            _ => (a.as_str(), None),
        };
        let mut value = || inline.or_else(|| it.next().map(String::as_str));
        match (name, inline) {
            ("--dis" | "-dis", None) => {}
            ("-h" | "--help", None) => {
                print!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            ("--llvm-dis-version", _) => match value().and_then(|v| v.parse().ok()) {
                Some(v) => match DisOptions::for_version(v) {
                    Some(o) => options = o,
                    None => {
                        return usage_error(&format!(
                            "no llvm-dis {v} to match: {} to {}",
                            DisOptions::OLDEST_LLVM_VERSION,
                            DisOptions::NEWEST_LLVM_VERSION
                        ));
                    }
                },
                None => return usage_error("--llvm-dis-version needs a number"),
            },
            ("--threads", _) => match value().and_then(|v| v.parse().ok()).filter(|&n: &usize| n > 0) {
                Some(n) => threads = n,
                None => return usage_error("--threads needs a number above 0"),
            },
            _ if a.starts_with('-') && a.len() > 1 => return usage_error(&format!("unknown option {a}")),
            _ if file.is_none() => file = Some(a.to_string()),
            _ => return usage_error("--dis takes one FILE"),
        }
    }
    let Some(path) = file else { return usage_error("--dis needs a FILE") };
    let out = io::stdout();
    let mut out = BufWriter::with_capacity(1 << 16, out.lock());
    let result = run(&path, options, threads, &mut out).and_then(|()| out.flush().map_err(io_text));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e == BROKEN_PIPE => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("bitstream-dump: {path}: error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn usage_error(message: &str) -> ExitCode {
    eprintln!("bitstream-dump: {message}\n\n{USAGE}");
    ExitCode::from(2)
}

fn run(path: &str, options: DisOptions, threads: usize, out: &mut impl Write) -> Result<(), String> {
    let file = ContainerFile::open(path).map_err(|e| crate::error_chain(&e))?;
    let format = FileFormat::of(file.bytes());
    if let FileFormat::LegacyBytecode(_) = format {
        return crate::legacy::disassemble(path, file.bytes(), out);
    }
    // A `.bc`, or the bitcode inside an object, an archive or an rlib.
    // A cut or damaged container gives the streams before the break (the one it falls in
    // as far as it goes), then its error.
    let (streams, container_error) = file.bitstreams_partial();
    if streams.is_empty() {
        if let Some(e) = container_error {
            return Err(crate::error_chain(&e));
        }
    }
    // A bitcode file (wrapped or not) is named by its path, as llvm-dis names it; bitcode
    // inside a container by where it was found. (A bitstream of another kind has no
    // modules: reading it fails before any is named.)
    let raw = streams.len() == 1 && format.is_bitstream();
    for stream in &streams {
        // A cut or damaged stream prints what it holds before the break, then its error.
        let (modules, error) = Module::parse_all_partial(stream.bytes);
        for module in &modules {
            let bodies = module.bodies().map_err(|e| e.to_string())?;
            let id = if raw { path.to_string() } else { stream.provenance.to_string() };
            write!(out, "{}", bodies.display_module(options).with_module_id(&id).with_threads(threads))
                .map_err(io_text)?;
        }
        if let Some(e) = error {
            // The path is said once, by the caller; a stream inside a container by where.
            let text = crate::broke_at(&e);
            return Err(if raw { text } else { format!("{}: {text}", stream.provenance) });
        }
    }
    if let Some(e) = container_error {
        return Err(crate::with_sources(e.reason().to_string(), &e));
    }
    Ok(())
}
