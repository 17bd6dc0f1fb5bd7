//! `bitstream-dump`: a drop-in for `llvm-bcanalyzer`, with current names, JSON, and a
//! picture of where the bits go.
//!
//! ```text
//! bitstream-dump [OPTIONS] [FILE]
//!
//! FILE absent: the bundled testdata/rustc_llvm22_o0_debuginfo.bc; "-": standard input.
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
//!   --list                list the bitstreams, their modules and command lines
//!   --diagnostics         a clang .dia file: one line per diagnostic, as libclang's
//!                         clang_formatDiagnostic prints it (--format json: everything)
//!   --nm FILE...          list the symbols as llvm-nm does (see `nm.rs`)
//!   --summary             per IR module: producer, triple, datalayout, counts, the
//!                         largest function bodies, metadata and debug-info bits (`summary.rs`)
//!   --progress / --no-progress   force the progress bar on or off (default: on when
//!                         stderr is a terminal and the input is large)
//! ```
//!
//! Besides bare bitstreams and the wrapper, objects and archives are read (every
//! bitstream inside, each after a `# provenance` line), and LLVM 1.x bytecode is described.
//!
//! Events are written as they are read: on a damaged stream the output stops where the
//! reading stopped and the error (with its bit offset) follows on standard error, as
//! `llvm-bcanalyzer -dump` does.

mod diagnostics;
mod dis;
mod events;
mod folded;
mod inventory;
mod json;
mod legacy;
mod llvm;
mod nm;
mod progress;
mod remarks;
mod summary;
mod walk;

use std::fs::File;
use std::io::{self, BufWriter, Read, Write};
use std::process::ExitCode;

use llvm_bitstream_reader::container::{self, ContainerError, ContainerFile, Embedded, FileFormat, Provenance, Step};
use llvm_bitstream_reader::{Bitstream, BitstreamFile, Magic};

use crate::events::{DumpError, write_events};
use crate::folded::Folded;
use crate::llvm::{Both, Dump, DumpOptions, Stats};
use crate::progress::Progress;
use crate::walk::{Failure, walk};

/// The file read when no FILE is given, under the name it has in the repository.
const BUNDLED_NAME: &str = "testdata/rustc_llvm22_o0_debuginfo.bc";
/// Its bytes, built into the program (rustc 1.95, LLVM 22, `-C opt-level=0 -g`; see
/// `testdata/README.md`) when built in the repository (`build.rs`); `None` in a packaged
/// build, which then needs a FILE.
#[cfg(bundled_input)]
const BUNDLED: Option<&[u8]> = Some(include_bytes!(env!("BUNDLED_INPUT")));
#[cfg(not(bundled_input))]
const BUNDLED: Option<&[u8]> = None;

const USAGE: &str = "\
usage: bitstream-dump [OPTIONS] [FILE]

A drop-in for llvm-bcanalyzer: FILE may be a bitstream (bitcode, its wrapper, clang
diagnostics, PCH, remarks), an object file or an archive; \"-\" reads standard input.
Without FILE, a built-in copy of testdata/rustc_llvm22_o0_debuginfo.bc (real rustc
bitcode with debug info) is read.

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
  --list                 list the bitstreams (provenance, magic, size, embedded command
                         line) and the modules of each
  --diagnostics          read FILE as clang serialized diagnostics (.dia): one line per
                         diagnostic, notes after theirs, exactly as libclang's
                         clang_formatDiagnostic prints them; with --format json, every
                         field, range and fix-it
  --remarks              print the optimization remarks of FILE (a bitstream remarks
                         container, or an object with a remarks section) as YAML, as
                         llvm-remarkutil bitstream2yaml does; with --format json, as JSON
                         lines. A meta container is followed to the file it names.
  --remarks-with OTHER   the other half of a separate remarks layout (the meta container
                         with the string table, or the remarks file)
  --nm FILE...           list the symbols as llvm-nm does (--nm --help for more)
  --summary              per IR module: producer, target triple, datalayout, source
                         file, counts of globals/functions/declarations/aliases, the 20
                         largest function bodies, metadata and debug-info bits
                         (--format json: one JSON object per module)
  --progress, --no-progress
                         progress bar on stderr (default: when stderr is a terminal
                         and the input is at least 16 MiB)
  -h, --help             this text

Events are printed as they are read; on a damaged input the error (with its bit
offset) follows them on standard error, and the exit status is 1.
";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    Text,
    Json,
    Events,
    Folded,
}

/// What to read.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Source {
    /// The built-in copy of [`BUNDLED_NAME`] (no FILE given).
    Bundled,
    /// Standard input (FILE is `-`).
    Stdin,
    /// A file.
    Path(String),
}

impl Source {
    /// The name the output and the errors call the input by.
    fn name(&self) -> &str {
        match self {
            Source::Bundled => BUNDLED_NAME,
            Source::Stdin => "-",
            Source::Path(p) => p,
        }
    }
}

#[derive(Debug)]
struct Options {
    dump: bool,
    dump_opts: DumpOptions,
    histogram: bool,
    format: Format,
    flamegraph: Option<String>,
    list: bool,
    diagnostics: bool,
    summary: bool,
    progress: Option<bool>,
    input: Source,
    remarks: bool,
    remarks_with: Option<String>,
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
        list: false,
        diagnostics: false,
        summary: false,
        progress: None,
        input: Source::Bundled,
        remarks: false,
        remarks_with: None,
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
            "list" => o.list = flag(value)?,
            "diagnostics" => o.diagnostics = flag(value)?,
            "remarks" => o.remarks = flag(value)?,
            "remarks-with" => o.remarks_with = Some(take("remarks-with")?),
            "summary" => o.summary = flag(value)?,
            "progress" => o.progress = Some(flag(value)?),
            "no-progress" => o.progress = Some(!flag(value)?),
            "h" | "help" => return Ok(None),
            _ => return Err(format!("unknown option '{arg}'")),
        }
    }
    o.input = match input {
        None => Source::Bundled,
        Some(i) if i == "-" => Source::Stdin,
        Some(path) => Source::Path(path),
    };
    Ok(Some(o))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // `--nm` is a mode of its own, with its own options and any number of files.
    if args.iter().take_while(|a| *a != "--").any(|a| a == "--nm" || a == "-nm") {
        return nm::main(&args);
    }
    // So is `--dis`.
    if args.iter().take_while(|a| *a != "--").any(|a| a == "--dis" || a == "-dis") {
        return dis::main(&args);
    }
    let opts = match parse_args(args) {
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
    // What was read before an error is printed before the error.
    let flushed = out.flush();
    match result.and(flushed.map_err(|e| Failed::from(io_text(e)))) {
        Ok(()) => ExitCode::SUCCESS,
        // `bitstream-dump -dump x.bc | head` is not an error.
        Err(e) if e.message == BROKEN_PIPE => ExitCode::SUCCESS,
        Err(Failed { at, message }) => {
            eprintln!("bitstream-dump: {}: error: {message}", at.as_deref().unwrap_or(opts.input.name()));
            ExitCode::FAILURE
        }
    }
}

/// Why `run` failed: the message, and where, if not in the input as a whole (a container
/// error names the member, section or stream).
#[derive(Debug)]
pub(crate) struct Failed {
    at: Option<String>,
    message: String,
}

impl Failed {
    /// An error of the stream or member found at `at` (a provenance).
    pub(crate) fn at(at: impl std::fmt::Display, message: impl std::fmt::Display) -> Self {
        Failed { at: Some(at.to_string()), message: message.to_string() }
    }
}

/// A read that broke (a cut or damaged input): the error, and how far the read went, in
/// bytes and bits. What was read before it has been printed.
pub(crate) fn broke_at(e: &llvm_bitstream_reader::Error) -> String {
    let bit = e.bit_offset();
    format!("{e}; read up to byte {} (bit {bit})", bit / 8)
}

impl From<String> for Failed {
    fn from(message: String) -> Self {
        Failed { at: None, message }
    }
}

impl From<ContainerError> for Failed {
    /// Where, then what went wrong and why (the error's sources, each once).
    fn from(e: ContainerError) -> Self {
        let message = with_sources(e.reason().to_string(), &e);
        Failed { at: e.provenance().map(|p| p.to_string()), message }
    }
}

/// `message`, then the sources of `e`, each once: `message: source: its source`.
pub(crate) fn with_sources(mut message: String, e: &dyn std::error::Error) -> String {
    let mut source = e.source();
    while let Some(s) = source {
        message = format!("{message}: {s}");
        source = s.source();
    }
    message
}

/// An error and its sources, as one line.
pub(crate) fn error_chain(e: &dyn std::error::Error) -> String {
    with_sources(e.to_string(), e)
}

/// The error text of a closed standard output.
const BROKEN_PIPE: &str = "broken pipe";

/// An I/O error as text, a closed pipe as [`BROKEN_PIPE`].
fn io_text(e: io::Error) -> String {
    if e.kind() == io::ErrorKind::BrokenPipe { BROKEN_PIPE.to_string() } else { e.to_string() }
}

/// The input's bytes: built in, memory-mapped, or standard input read whole.
enum Input {
    Bundled,
    Mapped(BitstreamFile),
    Read(Vec<u8>),
}

impl Input {
    fn bytes(&self) -> &[u8] {
        match self {
            Input::Bundled => BUNDLED.unwrap_or_default(),
            Input::Mapped(f) => f.bytes(),
            Input::Read(v) => v,
        }
    }
}

/// Whether an embedded stream is the whole input (a bare stream, wrapped or not).
fn is_whole_input(e: &Embedded<'_>) -> bool {
    matches!(e.provenance.steps(), [Step::File(_)] | [Step::File(_), Step::Wrapper])
}

/// The streams of an object or archive (`None`: the input is one bitstream), and the
/// error of a cut or damaged container, reported after what comes before it is shown.
type Streams<'a> = (Option<Vec<Embedded<'a>>>, Option<ContainerError>);

/// The bitstreams inside an object file or archive; `None` if the input is to be read as
/// one bitstream (`format` says it is one, or it is nothing the container reader knows).
/// A cut or damaged container gives the streams before the break, and its error.
fn embedded_streams<'a>(
    source: &Source,
    bytes: &'a [u8],
    format: FileFormat,
    container: &'a mut Option<ContainerFile>,
) -> Result<Streams<'a>, Failed> {
    // One stream, read from its first event on, without looking for others first.
    if format.is_bitstream() {
        return Ok((None, None));
    }
    let (streams, error) = match source {
        Source::Path(path) => container.insert(ContainerFile::open(path)?).bitstreams_partial(),
        _ => container::bitstreams_partial_named(source.name(), bytes),
    };
    match error {
        // Not an object or archive: a bitstream with a magic of its own.
        Some(ContainerError::UnknownFormat { .. }) => Ok((None, None)),
        Some(e) if streams.is_empty() => Err(e.into()),
        _ if streams.len() == 1 && is_whole_input(&streams[0]) => Ok((None, error)),
        _ => Ok((Some(streams), error)),
    }
}

fn run(opts: &Options, out: &mut impl Write) -> Result<(), Failed> {
    let input = match &opts.input {
        Source::Bundled if BUNDLED.is_none() => {
            return Err("no FILE given, and this build has no bundled file to show (see --help)".to_string().into());
        }
        Source::Bundled => Input::Bundled,
        Source::Stdin => {
            let mut v = Vec::new();
            io::stdin().read_to_end(&mut v).map_err(|e| e.to_string())?;
            Input::Read(v)
        }
        Source::Path(path) => Input::Mapped(BitstreamFile::open(path).map_err(|e| e.to_string())?),
    };
    let bytes = input.bytes();
    let name = opts.input.name();
    if opts.diagnostics {
        return Ok(diagnostics::write_diagnostics(bytes, opts.format == Format::Json, out)?);
    }
    if opts.remarks {
        let with = match &opts.remarks_with {
            Some(path) => Some(std::fs::read(path).map_err(|e| format!("{path}: {e}"))?),
            None => None,
        };
        return Ok(remarks::run(bytes, with.as_deref(), opts.format == Format::Json, out)?);
    }
    let format = FileFormat::of(bytes);
    if let FileFormat::LegacyBytecode(signature) = format {
        return Ok(legacy::describe(name, bytes, signature, out)?);
    }
    let mut container = None;
    let (embedded, container_error) = embedded_streams(&opts.input, bytes, format, &mut container)?;
    let shown = show_streams(opts, bytes, name, embedded.as_deref(), out);
    // The streams' own error first (it says more), else the container's.
    match (shown, container_error) {
        (Err(e), _) => Err(e),
        (Ok(()), Some(e)) => Err(e.into()),
        (Ok(()), None) => Ok(()),
    }
}

/// Shows the stream(s) of the input in the mode asked for.
fn show_streams(
    opts: &Options,
    bytes: &[u8],
    name: &str,
    embedded: Option<&[Embedded<'_>]>,
    out: &mut impl Write,
) -> Result<(), Failed> {
    if opts.list || opts.summary {
        let bare;
        let streams = match embedded {
            Some(streams) => streams,
            None => {
                let provenance = Provenance::from(vec![Step::File(name.to_string())]);
                bare = [Embedded { provenance, bytes, cmdline: None }];
                &bare[..]
            }
        };
        if opts.summary {
            let json = opts.format == Format::Json;
            return streams
                .iter()
                .filter(|e| e.magic().is_ok_and(|m| m == Magic::LlvmIr))
                .try_for_each(|e| summary::write_summary(e, json, out));
        }
        return streams.iter().try_for_each(|e| inventory::write_inventory(e, out));
    }
    let mut folded = Folded::new(None);
    match embedded {
        None => {
            analyze(opts, bytes, name, None, &mut folded, out)?;
            if opts.format == Format::Folded || opts.flamegraph.is_some() {
                // Bytes outside the stream's blocks (the wrapper's padding, trailing bytes)
                // are in the file too.
                let accounted = folded.total();
                folded.add_top("[trailing bytes]", (bytes.len() as u64 * 8).saturating_sub(accounted));
            }
        }
        Some(streams) => {
            for (i, e) in streams.iter().enumerate() {
                let name = e.provenance.to_string();
                if opts.format != Format::Json && opts.format != Format::Folded {
                    if i > 0 {
                        writeln!(out).map_err(io_text)?;
                    }
                    writeln!(out, "# {name}").map_err(io_text)?;
                }
                let mut sub = Folded::new(Some(name.clone()));
                analyze(opts, e.bytes, &name, Some(&name), &mut sub, out)?;
                folded.absorb(&sub);
            }
        }
    }
    if opts.format == Format::Folded {
        folded.write(out).map_err(io_text)?;
    }
    if let Some(path) = &opts.flamegraph {
        let file = File::create(path).map_err(|e| format!("{path}: {e}"))?;
        let title = format!("Where the bits go: {name}");
        let mut w = BufWriter::new(file);
        folded::flamegraph(&folded, &title, &mut w).map_err(|e| format!("{path}: {e}"))?;
        w.flush().map_err(|e| format!("{path}: {e}"))?;
    }
    Ok(())
}

/// Analyzes one bitstream in the chosen format (`provenance`: where an embedded stream
/// was found).
fn analyze(
    opts: &Options,
    bytes: &[u8],
    name: &str,
    provenance: Option<&str>,
    folded: &mut Folded,
    out: &mut impl Write,
) -> Result<(), String> {
    if opts.format == Format::Events {
        return match write_events(bytes, &mut FmtAdapter(out)) {
            Ok(()) => Ok(()),
            Err(DumpError::Output(_)) => Err(BROKEN_PIPE.to_string()),
            Err(DumpError::Input(e)) => Err(e.to_string()),
        };
    }
    let dump = opts.dump && opts.format == Format::Text;
    if dump {
        // Like llvm-bcanalyzer, before the wrapper's fields are checked.
        llvm::write_wrapper(bytes, out).map_err(io_text)?;
    }
    let stream = Bitstream::parse(bytes).map_err(|e| e.to_string())?;
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
            json::write_stream(out, &stream, provenance).map_err(io_text)?;
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
            let mut stats = Stats::default();
            let mut dumper = Dump::new(&mut *out, opts.dump_opts);
            let walked = match (dump, wants_folded) {
                (true, true) => walk(&stream, &mut Both(&mut Both(&mut dumper, &mut stats), folded), &progress),
                (true, false) => walk(&stream, &mut Both(&mut dumper, &mut stats), &progress),
                (false, true) => walk(&stream, &mut Both(&mut stats, folded), &progress),
                (false, false) => walk(&stream, &mut stats, &progress),
            };
            match walked {
                Ok(walked) => {
                    if dump {
                        out.write_all(b"\n\n").map_err(io_text)?;
                    }
                    llvm::write_stats(out, name, stream.bytes().len(), &walked, &stats, opts.histogram)
                        .map_err(io_text)?;
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
        assert_eq!(o.input, Source::Path("x.bc".to_string()));
        let o = parse(&["--format", "json", "--flamegraph=a.svg", "--list"]);
        assert_eq!(o.format, Format::Json);
        assert_eq!(o.flamegraph.as_deref(), Some("a.svg"));
        assert!(o.list);
        assert!(parse_args(["-bogus".to_string()]).is_err());
        assert!(parse_args(["a".to_string(), "b".to_string()]).is_err());
    }

    #[test]
    fn no_file_is_the_bundled_one_and_dash_is_stdin() {
        assert_eq!(parse(&[]).input, Source::Bundled);
        assert_eq!(parse(&["-dump"]).input.name(), "testdata/rustc_llvm22_o0_debuginfo.bc");
        assert_eq!(parse(&["-"]).input, Source::Stdin);
        assert_eq!(parse(&["--", "-dump"]).input, Source::Path("-dump".to_string()));
        assert!(FileFormat::of(BUNDLED.expect("built in the repository")).is_bitstream());
    }
}
