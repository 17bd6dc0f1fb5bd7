//! Lists or dumps every bitstream in a file: a bare bitstream, a wrapped one, object
//! files with embedded bitcode (ELF/COFF `.llvmbc`, Mach-O `__LLVM,__bitcode`), Mach-O
//! universal binaries and `ar` archives (`.a`, `.rlib`, thin archives).
//!
//! ```text
//! cargo run --release --example inventory -- FILE [--list]
//! ```
//!
//! Without `--list`, each bitstream is dumped in the crate's event line format (see
//! `llvm_bitstream_reader::dump`), preceded by a `# <provenance>` line. With `--list`,
//! only the inventory: provenance, magic, size, the command line if the object kept one,
//! and for LLVM IR each module's producer, epoch, source file name, triple and string
//! table, as LLVM's `getBitcodeFileContents` lists them.

use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

use llvm_bitstream_reader::Magic;
use llvm_bitstream_reader::container::{ContainerFile, Embedded};
use llvm_bitstream_reader::dump::{DumpError, write_events};
use llvm_bitstream_reader::modules::Inventory;

fn main() -> ExitCode {
    let mut list = false;
    let mut path = None;
    for arg in std::env::args().skip(1) {
        match arg.as_str() {
            "--list" => list = true,
            "-h" | "--help" => return usage(""),
            _ if path.is_none() => path = Some(arg),
            _ => return usage("more than one FILE"),
        }
    }
    let Some(path) = path else { return usage("no FILE") };
    let file = match ContainerFile::open(&path) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("inventory: {e}");
            return ExitCode::FAILURE;
        }
    };
    let embedded = match file.bitstreams() {
        Ok(e) => e,
        Err(e) => {
            eprintln!("inventory: {e}");
            return ExitCode::FAILURE;
        }
    };
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let mut failed = false;
    for e in &embedded {
        let result = if list { write_inventory(e, &mut out) } else { write_dump(e, &mut out) };
        match result {
            Ok(()) => {}
            Err(Problem::Output) => return ExitCode::FAILURE,
            Err(Problem::Input(message)) => {
                failed = true;
                if writeln!(out, "error {message}").is_err() {
                    return ExitCode::FAILURE;
                }
            }
        }
    }
    if out.flush().is_err() || failed { ExitCode::FAILURE } else { ExitCode::SUCCESS }
}

fn usage(problem: &str) -> ExitCode {
    if !problem.is_empty() {
        eprintln!("inventory: {problem}");
    }
    eprintln!("usage: inventory FILE [--list]");
    if problem.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(2) }
}

enum Problem {
    /// The input is malformed (the message says where).
    Input(String),
    /// Writing the output failed.
    Output,
}

impl From<io::Error> for Problem {
    fn from(_: io::Error) -> Self {
        Problem::Output
    }
}

/// `# <provenance>`, then the events.
fn write_dump(e: &Embedded<'_>, out: &mut impl Write) -> Result<(), Problem> {
    writeln!(out, "# {}", e.provenance)?;
    let mut text = String::new();
    let result = write_events(e.bytes, &mut text);
    out.write_all(text.as_bytes())?;
    match result {
        Ok(()) => Ok(()),
        Err(DumpError::Input(err)) => Err(Problem::Input(format!("{}: {err}", e.provenance))),
        Err(DumpError::Output(_)) => Err(Problem::Output),
    }
}

/// One line per bitstream, and one per module of an LLVM IR stream.
fn write_inventory(e: &Embedded<'_>, out: &mut impl Write) -> Result<(), Problem> {
    let input = |err: &dyn std::fmt::Display| Problem::Input(format!("{}: {err}", e.provenance));
    let stream = e.bitstream().map_err(|err| input(&err))?;
    let [a, b, c, d] = stream.magic().bytes();
    write!(out, "{}  magic={a:02x}{b:02x}{c:02x}{d:02x} bytes={}", e.provenance, e.bytes.len())?;
    if let Some(w) = stream.wrapper() {
        write!(out, " wrapper(cputype={})", w.cpu_type)?;
    }
    writeln!(out)?;
    if e.cmdline.is_some() {
        writeln!(out, "  cmdline: {}", e.cmdline_args().join(" "))?;
    }
    if stream.magic() != Magic::LlvmIr {
        return Ok(());
    }
    let inventory = Inventory::read(&stream).map_err(|err| input(&err))?;
    for m in &inventory.modules {
        let names = m.names().map_err(|err| input(&err))?;
        let (producer, epoch) = match &m.identification {
            Some(i) => (i.producer.as_str(), i.epoch.map_or("-".to_string(), |e| e.to_string())),
            None => ("-", "-".to_string()),
        };
        writeln!(
            out,
            "  module {}: source_filename={:?} triple={:?} producer={producer:?} epoch={epoch} module_bit={} strtab={}",
            m.index,
            names.source_filename.as_deref().unwrap_or("-"),
            names.triple.as_deref().unwrap_or("-"),
            m.module_bookmark().header_bit,
            m.strtab.map_or("-".to_string(), |s| format!("{} bytes", s.len())),
        )?;
    }
    if let Some(symtab) = inventory.symtab {
        writeln!(out, "  symtab: {} bytes", symtab.len())?;
    }
    Ok(())
}
