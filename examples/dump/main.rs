//! Dumps bitstream files, and whatever holds them.
//!
//! ```text
//! cargo run --release --example dump -- [--format text|events] [--list] [FILE]
//! ```
//!
//! With no FILE it dumps a bundled test file. `text` (the default) is laid out like
//! `llvm-bcanalyzer -dump`; `events` is the crate's stable, name-free line format used by
//! golden files and the differential tests against LLVM.
//!
//! FILE may be a bare bitstream (any magic, with or without the wrapper header), an
//! object file or archive with embedded bitcode (each stream is printed after a
//! `# <provenance>` line), or LLVM 1.x bytecode (described, with its block tree).
//! `--list` prints only the inventory: provenance, magic, size, command line and modules.

mod inventory;
mod legacy;

use std::fmt::Write as _;
use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

use llvm_bitstream_reader::container::{ContainerError, ContainerFile, Embedded, Step};
use llvm_bitstream_reader::dump::{DumpError, write_events};
use llvm_bitstream_reader::names;
use llvm_bitstream_reader::{Bitstream, Error, Event, Magic, Reader, Record};

const DEFAULT_FILE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/llvm14_ir_instructions.bc");

#[derive(Clone, Copy, PartialEq)]
enum Format {
    Text,
    Events,
}

fn main() -> ExitCode {
    let mut format = Format::Text;
    let mut list = false;
    let mut path = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--format" => match args.next().as_deref() {
                Some("text") => format = Format::Text,
                Some("events") => format = Format::Events,
                other => return usage(&format!("unknown format {other:?}")),
            },
            "--list" => list = true,
            "-h" | "--help" => return usage(""),
            _ if path.is_none() => path = Some(arg),
            _ => return usage("more than one FILE"),
        }
    }
    let path = path.unwrap_or_else(|| DEFAULT_FILE.to_string());
    let file = match ContainerFile::open(&path) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("dump: {e}");
            return ExitCode::FAILURE;
        }
    };
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let code = run(&path, &file, format, list, &mut out);
    if out.flush().is_err() { ExitCode::FAILURE } else { code }
}

fn run(path: &str, file: &ContainerFile, format: Format, list: bool, out: &mut impl Write) -> ExitCode {
    if llvm_bitstream_reader::legacy::detect(file.bytes()).is_some() {
        return legacy::dump(path, file.bytes(), out).unwrap_or(ExitCode::FAILURE);
    }
    let embedded = match file.bitstreams() {
        Ok(e) => e,
        // Not an object or archive we know: the container is generic, so read the bytes
        // as a bitstream of whatever magic they start with.
        Err(ContainerError::UnknownFormat { .. }) => {
            let bare = Embedded { provenance: Default::default(), bytes: file.bytes(), cmdline: None };
            vec![bare]
        }
        Err(e) => {
            let _ = writeln!(out, "error {e}");
            return ExitCode::FAILURE;
        }
    };
    if embedded.is_empty() {
        let _ = writeln!(out, "error {path}: no bitstream found");
        return ExitCode::FAILURE;
    }
    // Headers only where there is something to say: nesting, or several streams.
    let headers = embedded.len() > 1
        || embedded.iter().any(|e| e.provenance.steps().iter().any(|s| !matches!(s, Step::File(_) | Step::Wrapper)));
    let mut failed = false;
    for e in &embedded {
        let result = if list {
            inventory::write_inventory(e, out)
        } else {
            if headers && writeln!(out, "# {}", e.provenance).is_err() {
                return ExitCode::FAILURE;
            }
            match format {
                Format::Events => dump_events(e.bytes, out),
                Format::Text => dump_text(e.bytes, out),
            }
            .map_err(|err| inventory::Problem::Input(err.to_string()))
        };
        match result {
            Ok(()) => {}
            Err(inventory::Problem::Output) => return ExitCode::FAILURE,
            Err(inventory::Problem::Input(message)) => {
                failed = true;
                if writeln!(out, "error {message}").is_err() {
                    return ExitCode::FAILURE;
                }
            }
        }
    }
    if failed { ExitCode::FAILURE } else { ExitCode::SUCCESS }
}

fn usage(problem: &str) -> ExitCode {
    if !problem.is_empty() {
        eprintln!("dump: {problem}");
    }
    eprintln!("usage: dump [--format text|events] [--list] [FILE]");
    if problem.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(2) }
}

/// The stable line format (see `llvm_bitstream_reader::dump`).
fn dump_events(bytes: &[u8], out: &mut impl Write) -> Result<(), Error> {
    /// Adapts `io::Write` to `fmt::Write`, keeping the I/O error.
    struct Adapter<'w, W: Write>(&'w mut W);
    impl<W: Write> std::fmt::Write for Adapter<'_, W> {
        fn write_str(&mut self, s: &str) -> std::fmt::Result {
            self.0.write_all(s.as_bytes()).map_err(|_| std::fmt::Error)
        }
    }
    match write_events(bytes, &mut Adapter(out)) {
        Err(DumpError::Input(e)) => Err(e),
        _ => Ok(()),
    }
}

/// Text laid out like `llvm-bcanalyzer -dump`.
fn dump_text(bytes: &[u8], out: &mut impl Write) -> Result<(), Error> {
    let stream = Bitstream::new(bytes)?;
    if let Some(w) = stream.wrapper() {
        let _ = writeln!(
            out,
            "<BITCODE_WRAPPER_HEADER Magic={:#010x} Version={:#010x} Offset={:#010x} Size={:#010x} CPUType={:#010x}/>",
            w.magic, w.version, w.offset, w.size, w.cpu_type
        );
    }
    let magic = stream.magic();
    let mut reader = stream.events();
    let mut stack: Vec<(u32, String)> = Vec::new();
    while let Some(event) = reader.next_event()? {
        let indent = "  ".repeat(stack.len());
        match event {
            Event::EnterBlock(b) => {
                let name = names::resolve_block_name(reader.blockinfo(), magic, b.id())
                    .map_or_else(|| format!("UnknownBlock{}", b.id()), str::to_string);
                let _ = writeln!(out, "{indent}<{name} NumWords={} BlockCodeSize={}>", b.len_words(), b.abbrev_width());
                stack.push((b.id(), name));
            }
            Event::Record(r) => {
                let block = stack.last().map_or(u32::MAX, |s| s.0);
                let _ = writeln!(out, "{indent}{}", record_line(&reader, magic, block, &r));
            }
            Event::EndBlock(_) => {
                let (_, name) = stack.pop().unwrap_or_default();
                let indent = "  ".repeat(stack.len());
                let _ = writeln!(out, "{indent}</{name}>");
            }
            _ => {}
        }
    }
    Ok(())
}

fn record_line(reader: &Reader<'_>, magic: Magic, block: u32, r: &Record<'_>) -> String {
    let code = r.code();
    let name = names::resolve_record_name(reader.blockinfo(), magic, block, code)
        .map_or_else(|| format!("UnknownCode{code}"), str::to_string);
    let mut line = format!("<{name}");
    if !r.is_unabbreviated() {
        let _ = write!(line, " abbrevid={}", r.abbrev_id());
    }
    for (i, op) in r.operands().enumerate() {
        let _ = write!(line, " op{i}={}", op as i64);
    }
    line.push_str("/>");
    if let Some(array) = r.array() {
        let text: Vec<u64> = array.iter().collect();
        if text.iter().all(|&c| (0x20..0x7f).contains(&c)) {
            let s: String = text.iter().map(|&c| c as u8 as char).collect();
            let _ = write!(line, " record string = '{s}'");
        }
    }
    if let Some(blob) = r.blob() {
        if blob.iter().all(|&c| (0x20..0x7f).contains(&c)) {
            let _ = write!(line, " blob data = '{}'", String::from_utf8_lossy(blob));
        } else {
            let _ = write!(line, " blob data = unprintable, {} bytes.", blob.len());
        }
    }
    line
}
