//! `bitstream-dump`: a drop-in for `llvm-bcanalyzer`, with current names, JSON, and a
//! picture of where the bits go.
//!
//! ```text
//! bitstream-dump [OPTIONS] [FILE]          (FILE "-" or absent: standard input)
//!
//! llvm-bcanalyzer's options (also spelled with --):
//!   -dump                 dump the stream as text, then the statistics
//!   -dump-blockinfo       show the contents of BLOCKINFO blocks
//!   -show-binary-blobs    print every blob, escaped
//!   -non-symbolic         add BlockID= / codeid= to known names
//!   -disable-histogram    no record histograms in the statistics
//! its own:
//!   --format FORMAT       text (llvm-bcanalyzer's view, the default), json (one object
//!                         per event), events (the library's name-free event lines),
//!                         folded (folded stacks of bits)
//!   --folded              same as --format folded
//!   --flamegraph OUT.svg  draw where the bits go
//!   --progress / --no-progress   force the progress bar on or off (default: on when
//!                         stderr is a terminal and the input is large)
//! ```
//!
//! Besides bare bitstreams and the wrapper, objects and archives are read (every
//! bitstream inside, each after a `# provenance` line), and LLVM 1.x bytecode is named.

mod folded;
mod json;
mod llvm;
mod progress;
mod walk;

use std::fs::File;
use std::io::{self, BufWriter, Read, Write};
use std::process::ExitCode;

use llvm_bitstream_reader::container::{self, ContainerFile, Embedded, Step};
use llvm_bitstream_reader::dump::{DumpError, write_events};
use llvm_bitstream_reader::legacy;
use llvm_bitstream_reader::{Bitstream, BitstreamFile, Magic};

use crate::folded::Folded;
use crate::llvm::{Both, Dump, DumpOptions, Stats};
use crate::progress::Progress;
use crate::walk::{Failure, walk};

const USAGE: &str = "\
usage: bitstream-dump [OPTIONS] [FILE]

A drop-in for llvm-bcanalyzer: FILE (default: standard input) may be a bitstream
(bitcode, its wrapper, clang diagnostics, PCH, remarks), an object file or an archive.

llvm-bcanalyzer's options (one or two dashes):
  -dump                  dump the stream as text, then the statistics
  -dump-blockinfo        show the contents of BLOCKINFO blocks
  -show-binary-blobs     print every blob, escaped
  -non-symbolic          add BlockID= / codeid= to known names
  -disable-histogram     no record histograms in the statistics
Its own:
  --format FORMAT        text (default: llvm-bcanalyzer's view), json (one JSON object
                         per event), events (the library's event lines), folded
  --folded               folded stacks of bits (same as --format folded)
  --flamegraph OUT.svg   draw where the bits go (an SVG flame graph)
  --progress, --no-progress
                         progress bar on stderr (default: when stderr is a terminal
                         and the input is at least 16 MiB)
  -h, --help             this text
";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    Text,
    Json,
    Events,
    Folded,
}

#[derive(Debug)]
struct Options {
    dump: bool,
    dump_opts: DumpOptions,
    histogram: bool,
    format: Format,
    flamegraph: Option<String>,
    progress: Option<bool>,
    input: String,
}

/// A boolean option as LLVM's command line library takes it: `-x`, `-x=true`, `-x=0`...
fn flag(value: Option<&str>) -> Result<bool, String> {
    match value {
        None | Some("true" | "TRUE" | "True" | "1") => Ok(true),
        Some("false" | "FALSE" | "False" | "0") => Ok(false),
        Some(v) => Err(format!("'{v}' is not a value for a boolean option")),
    }
}

fn parse_args(args: impl IntoIterator<Item = String>) -> Result<Option<Options>, String> {
    let mut o = Options {
        dump: false,
        dump_opts: DumpOptions::default(),
        histogram: true,
        format: Format::Text,
        flamegraph: None,
        progress: None,
        input: "-".to_string(),
    };
    let mut input = None;
    let mut args = args.into_iter();
    let mut only_files = false;
    while let Some(arg) = args.next() {
        if only_files || arg == "-" || !arg.starts_with('-') {
            if input.replace(arg).is_some() {
                return Err("more than one input file".to_string());
            }
            continue;
        }
        if arg == "--" {
            only_files = true;
            continue;
        }
        let body = arg.strip_prefix("--").unwrap_or(&arg[1..]);
        let (name, value) = match body.split_once('=') {
            Some((n, v)) => (n, Some(v)),
            None => (body, None),
        };
        let mut take = |what: &str| -> Result<String, String> {
            match value {
                Some(v) => Ok(v.to_string()),
                None => args.next().ok_or(format!("--{what} needs a value")),
            }
        };
        match name {
            "dump" => o.dump = flag(value)?,
            "dump-blockinfo" => o.dump_opts.blockinfo = flag(value)?,
            "show-binary-blobs" => o.dump_opts.binary_blobs = flag(value)?,
            "non-symbolic" => o.dump_opts.non_symbolic = flag(value)?,
            "disable-histogram" => o.histogram = !flag(value)?,
            "format" => {
                o.format = match take("format")?.as_str() {
                    "text" => Format::Text,
                    "json" => Format::Json,
                    "events" => Format::Events,
                    "folded" => Format::Folded,
                    other => return Err(format!("unknown format '{other}' (text, json, events, folded)")),
                }
            }
            "folded" => o.format = if flag(value)? { Format::Folded } else { o.format },
            "flamegraph" => o.flamegraph = Some(take("flamegraph")?),
            "progress" => o.progress = Some(flag(value)?),
            "no-progress" => o.progress = Some(!flag(value)?),
            "h" | "help" => return Ok(None),
            _ => return Err(format!("unknown option '{arg}'")),
        }
    }
    if let Some(i) = input {
        o.input = i;
    }
    Ok(Some(o))
}

fn main() -> ExitCode {
    let opts = match parse_args(std::env::args().skip(1)) {
        Ok(Some(o)) => o,
        Ok(None) => {
            print!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("bitstream-dump: {e}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(1 << 16, stdout.lock());
    let result = run(&opts, &mut out);
    let flushed = out.flush();
    match result.and(flushed.map_err(|e| e.to_string())) {
        Ok(()) => ExitCode::SUCCESS,
        // `bitstream-dump -dump x.bc | head` is not an error.
        Err(e) if e == BROKEN_PIPE => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("bitstream-dump: {}: error: {e}", opts.input);
            ExitCode::FAILURE
        }
    }
}

/// The error text of a closed standard output.
const BROKEN_PIPE: &str = "broken pipe";

/// An I/O error as text, a closed pipe as [`BROKEN_PIPE`].
fn io_text(e: io::Error) -> String {
    if e.kind() == io::ErrorKind::BrokenPipe { BROKEN_PIPE.to_string() } else { e.to_string() }
}

/// The input's bytes: memory-mapped, or standard input read whole.
enum Input {
    Mapped(BitstreamFile),
    Read(Vec<u8>),
}

impl Input {
    fn bytes(&self) -> &[u8] {
        match self {
            Input::Mapped(f) => f.bytes(),
            Input::Read(v) => v,
        }
    }
}

fn run(opts: &Options, out: &mut impl Write) -> Result<(), String> {
    let input = if opts.input == "-" {
        let mut v = Vec::new();
        io::stdin().read_to_end(&mut v).map_err(|e| e.to_string())?;
        Input::Read(v)
    } else {
        Input::Mapped(BitstreamFile::open(&opts.input).map_err(|e| e.to_string())?)
    };
    let bytes = input.bytes();
    if let Some(signature) = legacy::detect(bytes) {
        return describe_legacy(bytes, signature, out).map_err(|e| e.to_string());
    }
    let mut folded = Folded::new(None);
    // A bare bitstream (or its wrapper) is analyzed whole, as llvm-bcanalyzer does;
    // anything else is searched for the bitstreams inside.
    let known = Bitstream::new(bytes).is_ok_and(|s| s.wrapper().is_some() || !matches!(s.magic(), Magic::Unknown(_)));
    let container;
    let embedded: Vec<Embedded<'_>> = if known {
        Vec::new()
    } else if let Input::Mapped(_) = input {
        container = ContainerFile::open(&opts.input).map_err(|e| e.to_string())?;
        container.bitstreams().unwrap_or_default()
    } else {
        container::bitstreams_named("-", bytes).unwrap_or_default()
    };
    let is_self = |e: &Embedded<'_>| matches!(e.provenance.steps(), [Step::File(_)] | [Step::File(_), Step::Wrapper]);
    if embedded.is_empty() || (embedded.len() == 1 && is_self(&embedded[0])) {
        analyze(opts, bytes, &opts.input, &mut folded, out)?;
        if opts.format == Format::Folded || opts.flamegraph.is_some() {
            // Bytes outside the stream's blocks (the wrapper's padding, trailing bytes)
            // are in the file too.
            let accounted = folded.total();
            folded.add_top("[trailing bytes]", (bytes.len() as u64 * 8).saturating_sub(accounted));
        }
    } else {
        for (i, e) in embedded.iter().enumerate() {
            let name = e.provenance.to_string();
            if opts.format != Format::Json && opts.format != Format::Folded {
                if i > 0 {
                    writeln!(out).map_err(io_text)?;
                }
                writeln!(out, "# {name}").map_err(io_text)?;
            }
            let mut sub = Folded::new(Some(name.clone()));
            analyze(opts, e.bytes, &name, &mut sub, out)?;
            for line in sub.lines() {
                if let Some((stack, count)) = line.rsplit_once(' ') {
                    folded.add_path(stack, count.parse().unwrap_or(0));
                }
            }
        }
    }
    if opts.format == Format::Folded {
        folded.write(out).map_err(io_text)?;
    }
    if let Some(path) = &opts.flamegraph {
        let file = File::create(path).map_err(|e| format!("{path}: {e}"))?;
        let title = format!("Where the bits go: {}", opts.input);
        let mut w = BufWriter::new(file);
        folded::flamegraph(&folded, &title, &mut w).map_err(|e| format!("{path}: {e}"))?;
        w.flush().map_err(|e| format!("{path}: {e}"))?;
    }
    Ok(())
}

/// Analyzes one bitstream in the chosen format.
fn analyze(opts: &Options, bytes: &[u8], name: &str, folded: &mut Folded, out: &mut impl Write) -> Result<(), String> {
    let io_err = io_text;
    if opts.format == Format::Events {
        return match write_events(bytes, &mut FmtAdapter(out)) {
            Ok(()) => Ok(()),
            Err(DumpError::Output(_)) => Err(BROKEN_PIPE.to_string()),
            Err(DumpError::Input(e)) => Err(e.to_string()),
        };
    }
    let stream = Bitstream::new(bytes).map_err(|e| e.to_string())?;
    let progress = Progress::new(bytes.len(), opts.progress, name);
    let wants_folded = opts.format == Format::Folded || opts.flamegraph.is_some();
    if wants_folded {
        if stream.wrapper().is_some() {
            folded.add_top("[wrapper header]", 20 * 8);
        }
        folded.add_top("[magic]", 32);
    }
    let result = match opts.format {
        Format::Json => {
            json::write_stream(out, &stream, None).map_err(io_err)?;
            let mut j = json::Json::new(&mut *out);
            if wants_folded {
                walk(&stream, &mut Both(&mut j, folded), &progress)
            } else {
                walk(&stream, &mut j, &progress)
            }
            .map(|_| ())
        }
        Format::Folded => walk(&stream, folded, &progress).map(|_| ()),
        Format::Text | Format::Events => {
            if opts.dump {
                llvm::write_wrapper(&stream, out).map_err(io_err)?;
            }
            let mut stats = Stats::default();
            let mut dump = Dump::new(&mut *out, opts.dump_opts);
            let walked = match (opts.dump, wants_folded) {
                (true, true) => walk(&stream, &mut Both(&mut Both(&mut dump, &mut stats), folded), &progress),
                (true, false) => walk(&stream, &mut Both(&mut dump, &mut stats), &progress),
                (false, true) => walk(&stream, &mut Both(&mut stats, folded), &progress),
                (false, false) => walk(&stream, &mut stats, &progress),
            };
            match walked {
                Ok(walked) => {
                    if opts.dump {
                        out.write_all(b"\n\n").map_err(io_err)?;
                    }
                    llvm::write_stats(out, name, stream.bytes().len(), &walked, &stats, opts.histogram)
                        .map_err(io_err)?;
                    Ok(())
                }
                Err(e) => Err(e),
            }
        }
    };
    progress.finish();
    match result {
        Ok(()) => Ok(()),
        Err(Failure::Input(e)) => Err(e.to_string()),
        Err(Failure::Output(e)) => Err(io_text(e)),
    }
}

/// Adapts `io::Write` to `fmt::Write`.
struct FmtAdapter<'w, W: Write>(&'w mut W);

impl<W: Write> std::fmt::Write for FmtAdapter<'_, W> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.0.write_all(s.as_bytes()).map_err(|_| std::fmt::Error)
    }
}

/// LLVM 1.x bytecode is not a bitstream: say what it is and list its blocks.
fn describe_legacy(bytes: &[u8], signature: legacy::Signature, out: &mut impl Write) -> io::Result<()> {
    writeln!(out, "LLVM 1.x bytecode (not a bitstream): signature {signature}")?;
    match legacy::Module::parse(bytes) {
        Ok(m) => {
            let f = m.format();
            writeln!(
                out,
                "  format: version {}, {:?}, {:?} pointers; module block {} bytes",
                f.version,
                f.endianness,
                f.pointer_size,
                m.size()
            )?;
            for block in m.walk() {
                let ind = "  ".repeat(block.depth);
                writeln!(out, "{ind}<{} id={} offset={} size={}>", block.name(), block.id, block.offset, block.size())?;
            }
            Ok(())
        }
        Err(e) => writeln!(out, "  cannot read it: {e}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Options {
        parse_args(args.iter().map(|s| s.to_string())).unwrap().unwrap()
    }

    #[test]
    fn llvm_spellings() {
        let o = parse(&[
            "-dump",
            "--dump-blockinfo",
            "-show-binary-blobs=true",
            "--non-symbolic",
            "-disable-histogram",
            "x.bc",
        ]);
        assert!(o.dump && o.dump_opts.blockinfo && o.dump_opts.binary_blobs && o.dump_opts.non_symbolic);
        assert!(!o.histogram);
        assert_eq!(o.input, "x.bc");
        let o = parse(&["--format", "json", "--flamegraph=a.svg"]);
        assert_eq!(o.format, Format::Json);
        assert_eq!(o.flamegraph.as_deref(), Some("a.svg"));
        assert_eq!(o.input, "-");
        assert!(parse_args(["-bogus".to_string()]).is_err());
        assert!(parse_args(["a".to_string(), "b".to_string()]).is_err());
    }
}
