//! Dumps a bitstream file.
//!
//! ```text
//! cargo run --release --example dump -- [--format text|events] [FILE]
//! ```
//!
//! With no FILE it dumps a bundled test file. `text` (the default) is laid out like
//! `llvm-bcanalyzer -dump`; `events` is the crate's stable, name-free line format used by
//! golden files and the differential tests against LLVM.

use std::fmt::Write as _;
use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

use llvm_bitstream_reader::dump::{DumpError, write_events};
use llvm_bitstream_reader::names::{self, StreamKind};
use llvm_bitstream_reader::{Bitstream, BitstreamFile, Error, Event, Reader, Record};

const DEFAULT_FILE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/llvm14_ir_instructions.bc");

#[derive(Clone, Copy, PartialEq)]
enum Format {
    Text,
    Events,
}

fn main() -> ExitCode {
    let mut format = Format::Text;
    let mut path = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--format" => match args.next().as_deref() {
                Some("text") => format = Format::Text,
                Some("events") => format = Format::Events,
                other => return usage(&format!("unknown format {other:?}")),
            },
            "-h" | "--help" => return usage(""),
            _ if path.is_none() => path = Some(arg),
            _ => return usage("more than one FILE"),
        }
    }
    let path = path.unwrap_or_else(|| DEFAULT_FILE.to_string());
    let file = match BitstreamFile::open(&path) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("dump: {path}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let result = match format {
        Format::Events => dump_events(file.bytes(), &mut out),
        Format::Text => dump_text(file.bytes(), &mut out),
    };
    let code = match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let _ = writeln!(out, "error {e}");
            ExitCode::FAILURE
        }
    };
    let _ = out.flush();
    code
}

fn usage(problem: &str) -> ExitCode {
    if !problem.is_empty() {
        eprintln!("dump: {problem}");
    }
    eprintln!("usage: dump [--format text|events] [FILE]");
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
        Ok(()) | Err(DumpError::Output(_)) => Ok(()),
        Err(DumpError::Input(e)) => Err(e),
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
    let kind = StreamKind::from_magic(stream.magic().bytes());
    let mut reader = stream.events();
    let mut stack: Vec<(u32, String)> = Vec::new();
    while let Some(event) = reader.next_event()? {
        let indent = "  ".repeat(stack.len());
        match event {
            Event::EnterBlock(b) => {
                let name = b.name.as_deref().map(str::to_string).unwrap_or_else(|| block_name(kind, b.id()));
                let _ = writeln!(out, "{indent}<{name} NumWords={} BlockCodeSize={}>", b.len_words(), b.abbrev_width());
                stack.push((b.id(), name));
            }
            Event::Record(r) => {
                let block = stack.last().map_or(u32::MAX, |s| s.0);
                let _ = writeln!(out, "{indent}{}", record_line(&reader, kind, block, &r));
            }
            Event::EndBlock => {
                let (_, name) = stack.pop().unwrap_or_default();
                let indent = "  ".repeat(stack.len());
                let _ = writeln!(out, "{indent}</{name}>");
            }
        }
    }
    Ok(())
}

fn block_name(kind: StreamKind, id: u32) -> String {
    names::block_name(kind, id).map_or_else(|| format!("UnknownBlock{id}"), str::to_string)
}

fn record_line(reader: &Reader<'_>, kind: StreamKind, block: u32, r: &Record<'_>) -> String {
    let code = r.code();
    let name = reader
        .blockinfo()
        .record_name(block, code)
        .map(str::to_string)
        .or_else(|| names::record_name(kind, block, code).map(str::to_string))
        .unwrap_or_else(|| format!("UnknownCode{code}"));
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
