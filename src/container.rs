//! Every bitstream in a file, wherever it sits: a bare bitstream, the Darwin wrapper,
//! `.llvmbc` sections of ELF and COFF objects and `__LLVM,__bitcode` sections of Mach-O
//! objects (with the compiler command line of `.llvmcmd` / `__LLVM,__cmdline`), Mach-O
//! universal binaries, and `ar` archives (GNU, BSD, COFF import libraries, thin archives
//! opened by path), nested to any reasonable depth (an rlib is an archive of objects with
//! sections). Several bitstreams concatenated in one section (as linkers concatenate
//! `.llvmbc`), with zero padding between them, come out one by one.
//!
//! Needs the `container` feature (on by default; `object` is its deprecated old name).
//! Nothing is copied: every [`Embedded`] borrows the input.
//!
//! ```no_run
//! use llvm_bitstream_reader::container::ContainerFile;
//! use llvm_bitstream_reader::ir::Inventory;
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let rlib = ContainerFile::open("libstd.rlib")?;
//! for embedded in rlib.bitstreams()? {
//!     let stream = embedded.bitstream()?;
//!     println!("{}: {} bytes", embedded.provenance, embedded.bytes.len());
//!     for module in Inventory::of(&stream)?.modules {
//!         println!("  {:?}", module.names()?.source_filename);
//!     }
//! }
//! # Ok(()) }
//! ```
//!
//! Which inputs are read, and what comes out:
//!
//! | input | each bitstream's [`Provenance`] |
//! |---|---|
//! | a bitstream (any known magic) | `file.bc` |
//! | the Darwin wrapper | `file.bc[wrapper]` |
//! | several bitstreams one after the other | `file.bc[module 1]` |
//! | an ELF / COFF object | `file.o:.llvmbc` |
//! | a Mach-O object | `file.o:__LLVM,__bitcode[wrapper]` |
//! | a Mach-O universal binary | `file[arch 1]:__LLVM,__bitcode` |
//! | an archive (`.a`, `.rlib`, `.lib`) | `libfoo.rlib(foo.o):.llvmbc` |
//!
//! Archive members and slices that are neither bitstreams, objects nor archives, and
//! objects without bitcode inside an archive, are passed over; if nothing at all is
//! found, [`ContainerError::NoBitcode`] says what was looked at.

use std::borrow::Cow;
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};
use std::string::{String, ToString};
use std::vec::Vec;
use std::{format, vec};

use object::read::archive::ArchiveFile;
use object::read::macho::{FatArch, MachOFatFile32, MachOFatFile64};
use object::{BinaryFormat, CompressionFormat, FileKind, Object, ObjectSection};

use crate::error::Error;
use crate::file::BitstreamFile;
use crate::header::{Magic, WRAPPER_MAGIC, WrapperHeader};
use crate::limits::TRAILING_GARBAGE_BYTES;
use crate::reader::{Bitstream, Entry};

/// How deep containers may nest (an archive in an archive in a universal binary...).
/// Real inputs nest at most 3 deep (universal binary, archive, object).
pub const MAX_NESTING: usize = 8;

/// One step on the way from the input to a bitstream.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Step {
    /// The input file (shown as given).
    File(String),
    /// An archive member, by name; `offset` is where its data starts in the archive (0 for
    /// a thin archive's member, which is a file of its own). Shown as `(name)`.
    Member {
        /// The member's name (long names resolved; lossy UTF-8).
        name: String,
        /// Byte offset of the member's data in the archive.
        offset: u64,
    },
    /// A slice of a Mach-O universal binary. Shown as `[arch index]`.
    Arch {
        /// The slice's index in the fat header.
        index: usize,
        /// Its Mach-O CPU type.
        cpu_type: u32,
    },
    /// An object-file section. Shown as `:name`.
    Section {
        /// `.llvmbc`, or `__LLVM,__bitcode` (segment and section) for Mach-O.
        name: String,
        /// Byte offset of the section's data in the object.
        offset: u64,
    },
    /// The stream is behind a bitcode wrapper header (the bytes start with the header).
    /// Shown as `[wrapper]`.
    Wrapper,
    /// One of several bitstreams found one after the other in the same bytes (a section
    /// the linker concatenated, or files concatenated with `cat`). Present only when there
    /// are several. Not to be confused with the modules inside one stream, which
    /// [`crate::ir::Inventory`] lists. Shown as `[module index]`.
    Module {
        /// The stream's position among them, from 0.
        index: usize,
        /// Byte offset of the stream in the bytes holding it.
        offset: u64,
    },
}

/// Where a bitstream came from: the steps from the input to it.
///
/// Displayed like `libfoo.rlib(foo-abc.o):.llvmbc[module 0]`; with no steps (an unnamed
/// byte slice holding a bare bitstream) as `<input>`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Provenance {
    steps: Vec<Step>,
}

impl Provenance {
    /// No steps: the bytes themselves.
    pub fn new() -> Self {
        Provenance::default()
    }

    /// The steps, outermost first.
    pub fn steps(&self) -> &[Step] {
        &self.steps
    }

    /// This provenance with one more step.
    pub fn with(&self, step: Step) -> Self {
        let mut steps = self.steps.clone();
        steps.push(step);
        Provenance { steps }
    }

    /// The innermost archive member's name, if any.
    pub fn member(&self) -> Option<&str> {
        self.steps.iter().rev().find_map(|s| match s {
            Step::Member { name, .. } => Some(name.as_str()),
            _ => None,
        })
    }

    /// The innermost section's name, if any.
    pub fn section(&self) -> Option<&str> {
        self.steps.iter().rev().find_map(|s| match s {
            Step::Section { name, .. } => Some(name.as_str()),
            _ => None,
        })
    }
}

impl From<Vec<Step>> for Provenance {
    fn from(steps: Vec<Step>) -> Self {
        Provenance { steps }
    }
}

impl fmt::Display for Provenance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.steps.is_empty() {
            return f.write_str("<input>");
        }
        for step in &self.steps {
            match step {
                Step::File(name) => f.write_str(name)?,
                Step::Member { name, .. } => write!(f, "({name})")?,
                Step::Arch { index, .. } => write!(f, "[arch {index}]")?,
                Step::Section { name, .. } => write!(f, ":{name}")?,
                Step::Wrapper => f.write_str("[wrapper]")?,
                Step::Module { index, .. } => write!(f, "[module {index}]")?,
            }
        }
        Ok(())
    }
}

/// A bitstream found in the input, borrowed from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Embedded<'a> {
    /// Where it came from.
    pub provenance: Provenance,
    /// The bitstream: from its magic (or its wrapper header) through the end of its last
    /// top-level block (or of the wrapped stream). Padding and the at most 8 trailing bytes
    /// LLVM tolerates are not included. Give it to [`Bitstream::parse`], or call [`Embedded::bitstream`].
    pub bytes: &'a [u8],
    /// The compiler command line the object file keeps beside the bitcode (`.llvmcmd` /
    /// `__LLVM,__cmdline`: arguments separated by NUL bytes), if it has that section.
    pub cmdline: Option<&'a [u8]>,
}

impl<'a> Embedded<'a> {
    /// The bitstream, ready to read.
    pub fn bitstream(&self) -> Result<Bitstream<'a>, Error> {
        Bitstream::parse(self.bytes)
    }

    /// The stream's magic (after the wrapper header, if any).
    pub fn magic(&self) -> Result<Magic, Error> {
        Ok(self.bitstream()?.magic())
    }

    /// The command line's arguments (split at NUL bytes, lossy UTF-8).
    pub fn cmdline_args(&self) -> Vec<Cow<'a, str>> {
        self.cmdline
            .unwrap_or_default()
            .split(|&b| b == 0)
            .filter(|a| !a.is_empty())
            .map(String::from_utf8_lossy)
            .collect()
    }
}

/// What an input is, from its first bytes: one bitstream to read as it is, or something
/// to look inside. The one place this is decided: [`bitstreams`] starts from it, and so
/// does `bitstream-dump` for each of its modes.
///
/// ```
/// use llvm_bitstream_reader::Magic;
/// use llvm_bitstream_reader::container::FileFormat;
///
/// assert_eq!(FileFormat::of(b"BC\xC0\xDE\x35\x14\0\0"), FileFormat::Bitstream(Magic::LlvmIr));
/// assert_eq!(FileFormat::of(b"DIAG\x01\0\0\0"), FileFormat::Bitstream(Magic::ClangSerializedDiagnostics));
/// assert_eq!(FileFormat::of(&[0xDE, 0xC0, 0x17, 0x0B, 0, 0, 0, 0]), FileFormat::Wrapper);
/// assert!(FileFormat::of(&[0xDE, 0xC0, 0x17, 0x0B]).is_bitstream());
/// assert_eq!(FileFormat::of(b"!<arch>\n/               "), FileFormat::Container);
/// assert_eq!(FileFormat::of(b"WXYZ\x01\0\0\0"), FileFormat::Unknown);
/// #[cfg(feature = "legacy")]
/// assert!(matches!(FileFormat::of(b"llvm\x01\0\0\0"), FileFormat::LegacyBytecode(_)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FileFormat {
    /// A bitstream whose magic this crate knows ([`Magic`], not [`Magic::Unknown`]).
    Bitstream(Magic),
    /// The bitcode wrapper header ([`WRAPPER_MAGIC`]), then a stream.
    Wrapper,
    /// Anything the `object` crate recognises: an object file, an archive, a Mach-O
    /// universal binary; [`bitstreams`] looks inside (and reports the formats it does not
    /// look into as [`ContainerError::Unsupported`]).
    Container,
    /// LLVM 1.x bytecode, the format before the bitstream, with its signature: see
    /// [`crate::legacy`].
    #[cfg(feature = "legacy")]
    LegacyBytecode(crate::legacy::Signature),
    /// None of these; possibly a bitstream with a magic of its own.
    Unknown,
}

impl FileFormat {
    /// What `bytes` are, from their first bytes.
    pub fn of(bytes: &[u8]) -> Self {
        if let Some(stream) = Self::of_stream(bytes) {
            return stream;
        }
        #[cfg(feature = "legacy")]
        if let Some(signature) = crate::legacy::detect(bytes) {
            return FileFormat::LegacyBytecode(signature);
        }
        match FileKind::parse(bytes) {
            Ok(_) => FileFormat::Container,
            Err(_) => FileFormat::Unknown,
        }
    }

    /// [`FileFormat::Bitstream`] or [`FileFormat::Wrapper`], if `bytes` start like one.
    fn of_stream(bytes: &[u8]) -> Option<Self> {
        let &m = bytes.first_chunk::<4>()?;
        if u32::from_le_bytes(m) == WRAPPER_MAGIC {
            return Some(FileFormat::Wrapper);
        }
        match Magic::from_bytes(m) {
            Magic::Unknown(_) => None,
            magic => Some(FileFormat::Bitstream(magic)),
        }
    }

    /// Whether the input is one bitstream, bare or wrapped: to be read as it is from its
    /// first event on, without looking for others.
    pub fn is_bitstream(self) -> bool {
        matches!(self, FileFormat::Bitstream(_) | FileFormat::Wrapper)
    }
}

/// Why the bitstreams of an input could not be listed.
///
/// Every variant but [`ContainerError::Bitstream`] names where (`at`) it happened, and
/// its message is `{at}: {reason}` ([`provenance`](Self::provenance),
/// [`reason`](Self::reason)). An underlying error (I/O, the `object` crate's, the
/// reader's) is not repeated in the message: it is the error's
/// [`source`](std::error::Error::source), with its own position (a bitstream error keeps
/// its bit offset). Print the chain to see both, as `anyhow` and the command-line tool do.
#[derive(Debug)]
#[non_exhaustive]
pub enum ContainerError {
    /// The file could not be opened or mapped.
    Io {
        /// The file.
        at: Provenance,
        /// Its path.
        path: PathBuf,
        /// The I/O error.
        source: io::Error,
    },
    /// A thin archive's member file could not be opened or mapped.
    ThinMember {
        /// The archive.
        at: Provenance,
        /// The member's name in the archive.
        member: String,
        /// Where it was looked for.
        path: PathBuf,
        /// The I/O error.
        source: io::Error,
    },
    /// A thin archive given as bytes: its members are files of their own.
    ThinArchive {
        /// The archive.
        at: Provenance,
        /// The first thin member.
        member: String,
    },
    /// Neither a bitstream with a known magic, an object file nor an archive.
    UnknownFormat {
        /// The input.
        at: Provenance,
        /// Its first bytes (up to 8).
        start: Vec<u8>,
    },
    /// An object-file format this module does not read (PE images, XCOFF, Wasm, ...).
    Unsupported {
        /// The input.
        at: Provenance,
        /// The format, as the `object` crate names it.
        format: String,
    },
    /// Nothing in the input holds a bitstream.
    NoBitcode {
        /// The input.
        at: Provenance,
        /// What was looked at, e.g. "an ELF object without a .llvmbc section".
        what: String,
    },
    /// A malformed object file, archive or section (truncated headers, a section or member
    /// running past the end, ...), as the `object` crate found it.
    Object {
        /// The object, archive or section.
        at: Provenance,
        /// What was being read.
        what: &'static str,
        /// The `object` crate's error.
        source: object::read::Error,
    },
    /// An archive member whose header is malformed or whose data runs past the end.
    Member {
        /// The archive.
        at: Provenance,
        /// The member's index among the archive's members, from 0.
        index: usize,
        /// The name of the member before it, if any.
        after: Option<String>,
        /// The `object` crate's error.
        source: object::read::Error,
    },
    /// A compressed bitcode section (ELF `SHF_COMPRESSED`): not zero-copy, not read.
    Compressed {
        /// The section.
        at: Provenance,
        /// The compression format.
        format: String,
    },
    /// A bitcode section that does not start with a bitstream magic.
    NotBitstream {
        /// The section.
        at: Provenance,
        /// Its first bytes (up to 8).
        start: Vec<u8>,
    },
    /// Bytes after the last bitstream of a section that are neither zero padding nor
    /// another bitstream (and more than the 8 bytes LLVM tolerates).
    Garbage {
        /// The section.
        at: Provenance,
        /// Where the garbage starts in the section.
        offset: usize,
        /// How many bytes are left from there.
        len: usize,
    },
    /// A malformed bitstream (or wrapper header) found while finding where it ends.
    Stream {
        /// The bitstream.
        at: Provenance,
        /// The reader's error, with its bit offset in the stream at `at`.
        source: Error,
    },
    /// Containers nested deeper than [`MAX_NESTING`].
    TooDeep {
        /// The innermost container.
        at: Provenance,
        /// The limit.
        max: usize,
    },
    /// A bitstream error without provenance: the conversion `?` applies when reading an
    /// [`Embedded`] in a function returning `ContainerError`. Shown as the error itself.
    Bitstream(Error),
}

impl From<Error> for ContainerError {
    fn from(e: Error) -> Self {
        ContainerError::Bitstream(e)
    }
}

impl ContainerError {
    /// Where it happened: the file, member, slice, section or stream. `None` for
    /// [`ContainerError::Bitstream`].
    pub fn provenance(&self) -> Option<&Provenance> {
        match self {
            ContainerError::Io { at, .. }
            | ContainerError::ThinMember { at, .. }
            | ContainerError::ThinArchive { at, .. }
            | ContainerError::UnknownFormat { at, .. }
            | ContainerError::Unsupported { at, .. }
            | ContainerError::NoBitcode { at, .. }
            | ContainerError::Object { at, .. }
            | ContainerError::Member { at, .. }
            | ContainerError::Compressed { at, .. }
            | ContainerError::NotBitstream { at, .. }
            | ContainerError::Garbage { at, .. }
            | ContainerError::Stream { at, .. }
            | ContainerError::TooDeep { at, .. } => Some(at),
            ContainerError::Bitstream(_) => None,
        }
    }

    /// The byte offset of the error in the bytes [`provenance`](Self::provenance) names
    /// (the stream, for a bitstream error; the section, for garbage after its last
    /// stream), where the variant has a position.
    pub fn byte_offset(&self) -> Option<u64> {
        match self {
            ContainerError::Stream { source, .. } | ContainerError::Bitstream(source) => Some(source.byte_offset()),
            ContainerError::Garbage { offset, .. } => Some(*offset as u64),
            _ => None,
        }
    }

    /// The bitstream error inside, if it is one (with its bit offset in the stream).
    pub fn bitstream_error(&self) -> Option<&Error> {
        match self {
            ContainerError::Stream { source, .. } | ContainerError::Bitstream(source) => Some(source),
            _ => None,
        }
    }

    /// What went wrong, without where (the message after `{at}: `) and without the
    /// source error.
    pub fn reason(&self) -> Reason<'_> {
        Reason(self)
    }
}

/// [`ContainerError::reason`]: what went wrong, as text.
#[derive(Clone, Copy, Debug)]
pub struct Reason<'a>(&'a ContainerError);

impl fmt::Display for Reason<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = match self.0 {
            ContainerError::Io { .. } => "cannot open or map the file".to_string(),
            ContainerError::ThinMember { member, path, .. } => {
                format!("cannot open or map thin archive member {member:?} ({})", path.display())
            }
            ContainerError::ThinArchive { member, .. } => format!(
                "a thin archive (member {member:?} is a separate file); open it by path with ContainerFile::open"
            ),
            ContainerError::UnknownFormat { start, .. } => {
                format!("not a bitstream, object file or archive (starts with {start:02x?})")
            }
            ContainerError::Unsupported { format, .. } => format!("{format} files are not read for bitcode"),
            ContainerError::NoBitcode { what, .. } => format!("no LLVM bitcode found: {what}"),
            ContainerError::Object { what, .. } => format!("malformed {what}"),
            ContainerError::Member { index, after, .. } => format!(
                "archive member {index}{}: bad member header",
                after.as_ref().map(|a| format!(" (after {a:?})")).unwrap_or_default()
            ),
            ContainerError::Compressed { format, .. } => format!("compressed section ({format}) is not supported"),
            ContainerError::NotBitstream { start, .. } => {
                format!("does not start with a bitstream magic (starts with {start:02x?})")
            }
            ContainerError::Garbage { offset, len, .. } => {
                format!("{len} bytes at offset {offset} after the last bitstream are not a bitstream")
            }
            ContainerError::Stream { .. } => "malformed bitstream".to_string(),
            ContainerError::TooDeep { max, .. } => format!("containers nested deeper than {max}"),
            // The error itself: it is not returned as the source.
            ContainerError::Bitstream(e) => e.to_string(),
        };
        f.pad(&text)
    }
}

impl fmt::Display for ContainerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = match self.provenance() {
            Some(at) => format!("{at}: {}", self.reason()),
            None => self.reason().to_string(),
        };
        f.pad(&text)
    }
}

impl std::error::Error for ContainerError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ContainerError::Io { source, .. } | ContainerError::ThinMember { source, .. } => Some(source),
            ContainerError::Object { source, .. } | ContainerError::Member { source, .. } => Some(source),
            ContainerError::Stream { source, .. } => Some(source),
            // Shown as itself, so its source is the error's own.
            ContainerError::Bitstream(e) => e.source(),
            _ => None,
        }
    }
}

/// Every bitstream in `input`, with provenance relative to the bytes (no file name).
pub fn bitstreams(input: &[u8]) -> Result<Vec<Embedded<'_>>, ContainerError> {
    Finder::new(None).run(input, Provenance::new())
}

/// Every bitstream in `input`, with provenance starting at `name` (a file name, say).
pub fn bitstreams_named<'a>(name: &str, input: &'a [u8]) -> Result<Vec<Embedded<'a>>, ContainerError> {
    Finder::new(None).run(input, Provenance::from(vec![Step::File(name.to_string())]))
}

/// Every bitstream `input` holds before a break, and the error that marks the break, if
/// any: for a cut or damaged object file or archive. The bitstreams found before the break
/// are handed back whole; one cut by it is handed back as far as it goes (from its magic:
/// a wrapper header whose size no longer fits is left off), for the readers'
/// `parse_partial` (e.g. [`crate::ir::Module::parse_partial`]). An archive whose last
/// member is cut gives the members before it; a section or member running past the end
/// of the input is read as far as the input goes. The error is the first one met (inside
/// a cut member or section, the error of what is in it, if it has one); with no error
/// and no bitstream, it is [`ContainerError::NoBitcode`], as from [`bitstreams`].
///
/// A Mach-O or COFF object keeps its section headers first: cut inside or after its
/// bitcode section, that section is read from the headers alone, as far as the input goes
/// (the error is then the `object` crate's, which cannot parse the object without its
/// symbol table). An ELF object keeps its section table at its end: cut anywhere, its
/// `.llvmbc` section cannot be found, and the error names the object.
///
/// ```
/// use llvm_bitstream_reader::container::{bitstreams, bitstreams_partial};
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let archive = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/containers/mixed.a"))?;
/// let whole = bitstreams(&archive)?;
/// let (found, error) = bitstreams_partial(&archive[..archive.len() / 2]);
/// assert!(error.is_some()); // names the member the cut falls in
/// assert!(!found.is_empty() && found.len() < whole.len());
/// assert_eq!(found[0].bytes, whole[0].bytes);
/// # Ok(()) }
/// ```
pub fn bitstreams_partial(input: &[u8]) -> (Vec<Embedded<'_>>, Option<ContainerError>) {
    Finder::new(None).partial().run_partial(input, Provenance::new())
}

/// [`bitstreams_partial`] of `input` found at `root` (a member of an archive, say).
#[cfg_attr(not(feature = "symbols"), allow(dead_code))]
pub(crate) fn bitstreams_partial_at(input: &[u8], root: Provenance) -> (Vec<Embedded<'_>>, Option<ContainerError>) {
    Finder::new(None).partial().run_partial(input, root)
}

/// [`bitstreams_partial`] for an input named `name` (the name is used in provenances and
/// errors), as [`bitstreams_named`] is for [`bitstreams`].
pub fn bitstreams_partial_named<'a>(name: &str, input: &'a [u8]) -> (Vec<Embedded<'a>>, Option<ContainerError>) {
    Finder::new(None).partial().run_partial(input, Provenance::from(vec![Step::File(name.to_string())]))
}

/// A file mapped into memory (and, for a thin archive, its member files), whose
/// bitstreams [`ContainerFile::bitstreams`] lists, borrowed from the mappings.
///
/// As with any memory map, the files must not be truncated or modified while mapped.
#[derive(Debug)]
pub struct ContainerFile {
    path: PathBuf,
    file: BitstreamFile,
    /// A thin archive's members: name in the archive, mapped file.
    thin: Vec<(Vec<u8>, BitstreamFile)>,
}

impl ContainerFile {
    /// Maps the file at `path`. If it is a thin archive, maps its member files too, found
    /// relative to the archive's directory (absolute member paths are used as they are).
    pub fn open(path: impl AsRef<Path>) -> Result<Self, ContainerError> {
        let path = path.as_ref().to_path_buf();
        let file = BitstreamFile::open(&path).map_err(|source| ContainerError::Io {
            at: Provenance::from(vec![Step::File(path.display().to_string())]),
            path: path.clone(),
            source,
        })?;
        let mut thin = Vec::new();
        if let Ok(FileKind::Archive) = FileKind::parse(file.bytes()) {
            if let Ok(archive) = ArchiveFile::parse(file.bytes()) {
                if archive.is_thin() {
                    let dir = path.parent().unwrap_or(Path::new(""));
                    // Malformed members are reported by `bitstreams`, with their context.
                    for member in archive.members().flatten().filter(|m| m.is_thin()) {
                        let name = String::from_utf8_lossy(member.name()).into_owned();
                        let member_path = dir.join(&name);
                        let mapped =
                            BitstreamFile::open(&member_path).map_err(|source| ContainerError::ThinMember {
                                at: Provenance::from(vec![Step::File(path.display().to_string())]),
                                member: name,
                                path: member_path,
                                source,
                            })?;
                        thin.push((member.name().to_vec(), mapped));
                    }
                }
            }
        }
        Ok(ContainerFile { path, file, thin })
    }

    /// The file's path, as given to [`ContainerFile::open`].
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The file's bytes.
    pub fn bytes(&self) -> &[u8] {
        self.file.bytes()
    }

    /// Every bitstream in the file, with provenance starting at the file's path.
    pub fn bitstreams(&self) -> Result<Vec<Embedded<'_>>, ContainerError> {
        let root = Provenance::from(vec![Step::File(self.path.display().to_string())]);
        Finder::new(Some(&self.thin)).run(self.file.bytes(), root)
    }

    /// Every bitstream of a cut or damaged file before the break, and the error that
    /// marks it, as [`bitstreams_partial`] gives them.
    ///
    /// ```
    /// use llvm_bitstream_reader::container::ContainerFile;
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let file = ContainerFile::open(concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/containers/gnu_ab.a"))?;
    /// let (found, error) = file.bitstreams_partial();
    /// assert_eq!((found.len(), error.is_none()), (2, true));
    /// # Ok(()) }
    /// ```
    pub fn bitstreams_partial(&self) -> (Vec<Embedded<'_>>, Option<ContainerError>) {
        let root = Provenance::from(vec![Step::File(self.path.display().to_string())]);
        Finder::new(Some(&self.thin)).partial().run_partial(self.file.bytes(), root)
    }
}

/// The walk over nested containers.
struct Finder<'a> {
    /// A thin archive's mapped members, if the input was opened by path.
    thin: Option<&'a [(Vec<u8>, BitstreamFile)]>,
    found: Vec<Embedded<'a>>,
    /// Hand back what comes before a break ([`bitstreams_partial`]).
    partial: bool,
    /// What was looked at without finding bitcode, for [`ContainerError::NoBitcode`].
    objects: usize,
    markers: usize,
    members: usize,
}

/// What the first bytes of an input say it is.
enum Kind {
    Bitstream,
    Archive,
    Object(&'static str),
    Fat32,
    Fat64,
    Unsupported(String),
    Unknown,
}

fn classify(data: &[u8]) -> Kind {
    if FileFormat::of_stream(data).is_some() {
        return Kind::Bitstream;
    }
    match FileKind::parse(data) {
        Ok(FileKind::Archive) => Kind::Archive,
        Ok(FileKind::Elf32 | FileKind::Elf64) => Kind::Object("ELF object"),
        Ok(FileKind::MachO32 | FileKind::MachO64) => Kind::Object("Mach-O object"),
        Ok(FileKind::Coff | FileKind::CoffBig) => Kind::Object("COFF object"),
        Ok(FileKind::MachOFat32) => Kind::Fat32,
        Ok(FileKind::MachOFat64) => Kind::Fat64,
        Ok(other) => Kind::Unsupported(format!("{other:?}")),
        Err(_) => Kind::Unknown,
    }
}

fn first_bytes(data: &[u8]) -> Vec<u8> {
    data[..data.len().min(8)].to_vec()
}

impl<'a> Finder<'a> {
    fn new(thin: Option<&'a [(Vec<u8>, BitstreamFile)]>) -> Self {
        Finder { thin, found: Vec::new(), partial: false, objects: 0, markers: 0, members: 0 }
    }

    fn partial(mut self) -> Self {
        self.partial = true;
        self
    }

    /// [`run`](Self::run), keeping what was found before an error.
    fn run_partial(mut self, data: &'a [u8], root: Provenance) -> (Vec<Embedded<'a>>, Option<ContainerError>) {
        let error = self.find(data, root).err();
        (self.found, error)
    }

    fn run(mut self, data: &'a [u8], root: Provenance) -> Result<Vec<Embedded<'a>>, ContainerError> {
        self.find(data, root)?;
        Ok(self.found)
    }

    fn find(&mut self, data: &'a [u8], root: Provenance) -> Result<(), ContainerError> {
        let kind = classify(data);
        let what = match &kind {
            Kind::Bitstream => "bitstream",
            Kind::Archive => "archive",
            Kind::Object(what) => what,
            Kind::Fat32 | Kind::Fat64 => "Mach-O universal binary",
            Kind::Unsupported(format) => {
                return Err(ContainerError::Unsupported { at: root, format: format.clone() });
            }
            Kind::Unknown => return Err(ContainerError::UnknownFormat { at: root, start: first_bytes(data) }),
        };
        self.walk(data, kind, &root, 0)?;
        if self.found.is_empty() {
            let what = match (what, self.members, self.objects, self.markers) {
                (_, _, _, m) if m > 0 => {
                    format!(
                        "{m} bitcode section(s) hold no bitstream, only a marker (-fembed-bitcode=marker) or nothing"
                    )
                }
                ("archive", members, objects, _) => {
                    format!("an archive of {members} member(s), {objects} of them object files, none with bitcode")
                }
                ("Mach-O universal binary", ..) => "no slice of the universal binary has bitcode".to_string(),
                ("Mach-O object", ..) => "a Mach-O object without a __LLVM,__bitcode section".to_string(),
                (what, ..) => {
                    format!("{} {what} without a .llvmbc section", if what.starts_with('E') { "an" } else { "a" })
                }
            };
            return Err(ContainerError::NoBitcode { at: root, what });
        }
        Ok(())
    }

    /// With [`partial`](Self::partial), what a member or section that runs past the end
    /// of `data` holds, as far as `data` goes: its bitstreams are kept, and the error is
    /// the first thing in it that breaks, else `error` (the member or section cut).
    fn salvage(
        &mut self,
        data: &'a [u8],
        (start, size): (u64, u64),
        error: ContainerError,
        walk: impl FnOnce(&mut Self, &'a [u8]) -> Result<(), ContainerError>,
    ) -> ContainerError {
        if !self.partial {
            return error;
        }
        let start = usize::try_from(start).unwrap_or(usize::MAX);
        let Some(rest) = data.get(start..) else { return error };
        let bytes = &rest[..rest.len().min(usize::try_from(size).unwrap_or(usize::MAX))];
        walk(self, bytes).err().unwrap_or(error)
    }

    fn walk(&mut self, data: &'a [u8], kind: Kind, at: &Provenance, depth: usize) -> Result<(), ContainerError> {
        if depth > MAX_NESTING {
            return Err(ContainerError::TooDeep { at: at.clone(), max: MAX_NESTING });
        }
        match kind {
            Kind::Bitstream => self.region(data, at, None),
            Kind::Archive => self.archive(data, at, depth),
            Kind::Object(what) => self.object(data, at, what),
            Kind::Fat32 => {
                let fat = MachOFatFile32::parse(data).map_err(|source| object_error(at, "universal binary", source))?;
                self.fat(data, fat.arches(), at, depth)
            }
            Kind::Fat64 => {
                let fat = MachOFatFile64::parse(data).map_err(|source| object_error(at, "universal binary", source))?;
                self.fat(data, fat.arches(), at, depth)
            }
            // Inside a container, things that are not containers are passed over.
            Kind::Unsupported(_) | Kind::Unknown => Ok(()),
        }
    }

    fn fat<F: FatArch>(
        &mut self,
        data: &'a [u8],
        arches: &[F],
        at: &Provenance,
        depth: usize,
    ) -> Result<(), ContainerError> {
        for (index, arch) in arches.iter().enumerate() {
            let at = at.with(Step::Arch { index, cpu_type: arch.cputype().0 });
            let slice = match arch.data(data) {
                Ok(slice) => slice,
                Err(source) => {
                    let error = object_error(&at, "universal binary slice", source);
                    return Err(self.salvage(data, arch.file_range(), error, |finder, bytes| {
                        finder.walk(bytes, classify(bytes), &at, depth + 1)
                    }));
                }
            };
            self.walk(slice, classify(slice), &at, depth + 1)?;
        }
        Ok(())
    }

    fn archive(&mut self, data: &'a [u8], at: &Provenance, depth: usize) -> Result<(), ContainerError> {
        let archive = ArchiveFile::parse(data).map_err(|source| object_error(at, "archive", source))?;
        let mut after: Option<String> = None;
        for (index, member) in archive.members().enumerate() {
            let member = member.map_err(|source| ContainerError::Member {
                at: at.clone(),
                index,
                after: after.clone(),
                source,
            })?;
            let name = String::from_utf8_lossy(member.name()).into_owned();
            self.members += 1;
            let offset = if member.is_thin() { 0 } else { member.file_range().0 };
            let member_at = at.with(Step::Member { name: name.clone(), offset });
            let bytes = if member.is_thin() {
                match self.thin.and_then(|t| t.iter().find(|(n, _)| n == member.name())) {
                    Some((_, file)) => file.bytes(),
                    None => return Err(ContainerError::ThinArchive { at: at.clone(), member: name }),
                }
            } else {
                match member.data(data) {
                    Ok(bytes) => bytes,
                    Err(source) => {
                        let error = object_error(&member_at, "archive member", source);
                        return Err(self.salvage(data, member.file_range(), error, |finder, bytes| {
                            finder.walk(bytes, classify(bytes), &member_at, depth + 1)
                        }));
                    }
                }
            };
            self.walk(bytes, classify(bytes), &member_at, depth + 1)?;
            after = Some(name);
        }
        Ok(())
    }

    fn object(&mut self, data: &'a [u8], at: &Provenance, what: &'static str) -> Result<(), ContainerError> {
        self.objects += 1;
        let file = match object::File::parse(data) {
            Ok(file) => file,
            Err(source) => {
                let error = object_error(at, what, source);
                // A cut Mach-O or COFF object: its headers, which come first, still say
                // where its bitcode section is.
                return match bitcode_section_from_headers(data) {
                    Some((name, offset, size)) if self.partial => {
                        let section_at = at.with(Step::Section { name: name.to_string(), offset });
                        Err(self.salvage(data, (offset, size), error, |finder, bytes| {
                            finder.region(bytes, &section_at, None)
                        }))
                    }
                    _ => Err(error),
                };
            }
        };
        let macho = file.format() == BinaryFormat::MachO;
        let (bitcode, cmdline): (&[u8], &[u8]) =
            if macho { (b"__bitcode", b"__cmdline") } else { (b".llvmbc", b".llvmcmd") };
        let mut cmd = None;
        let mut sections = Vec::new();
        for section in file.sections() {
            let name = section.name_bytes().map_err(|source| object_error(at, "section name", source))?;
            if macho && section.segment_name_bytes().ok().flatten() != Some(b"__LLVM") {
                continue;
            }
            if name != bitcode && name != cmdline {
                continue;
            }
            let shown = if macho {
                format!("__LLVM,{}", String::from_utf8_lossy(name))
            } else {
                String::from_utf8_lossy(name).into_owned()
            };
            let section_at = at.with(Step::Section { name: shown, offset: section.file_range().map_or(0, |r| r.0) });
            let range =
                section.compressed_file_range().map_err(|source| object_error(&section_at, "section", source))?;
            if range.format != CompressionFormat::None {
                return Err(ContainerError::Compressed { at: section_at, format: format!("{:?}", range.format) });
            }
            let bytes = match section.data() {
                Ok(bytes) => bytes,
                Err(source) if name == bitcode => {
                    let error = object_error(&section_at, "section", source);
                    let range = section.file_range().unwrap_or_default();
                    return Err(
                        self.salvage(data, range, error, |finder, bytes| finder.region(bytes, &section_at, cmd))
                    );
                }
                Err(source) => return Err(object_error(&section_at, "section", source)),
            };
            if name == cmdline {
                cmd.get_or_insert(bytes);
            } else {
                sections.push((section_at, bytes));
            }
        }
        for (section_at, bytes) in sections {
            self.region(bytes, &section_at, cmd)?;
        }
        Ok(())
    }

    /// Finds every bitstream in `data`: bitstreams one after the other, with zero padding
    /// between them allowed, and at most 8 bytes of garbage after the last.
    fn region(&mut self, data: &'a [u8], at: &Provenance, cmdline: Option<&'a [u8]>) -> Result<(), ContainerError> {
        let mut streams: Vec<(usize, usize, bool)> = Vec::new();
        let mut pos = 0;
        loop {
            pos += data[pos..].iter().take_while(|&&b| b == 0).count();
            let rest = &data[pos..];
            if rest.is_empty() {
                break;
            }
            let stream_at = || {
                if pos > 0 { at.with(Step::Module { index: streams.len(), offset: pos as u64 }) } else { at.clone() }
            };
            let stream_error = |source| ContainerError::Stream { at: stream_at(), source };
            if FileFormat::of_stream(rest).is_none() {
                if streams.is_empty() {
                    return Err(ContainerError::NotBitstream { at: at.clone(), start: first_bytes(rest) });
                }
                if rest.len() <= TRAILING_GARBAGE_BYTES {
                    break;
                }
                return Err(ContainerError::Garbage { at: at.clone(), offset: pos, len: rest.len() });
            }
            let wrapper = match WrapperHeader::parse(rest) {
                Ok(wrapper) => wrapper,
                Err(e) => {
                    // Cut: the stream behind the header, as far as it goes.
                    let inner = (rest.len() >= 20).then(|| u32::from_le_bytes([rest[8], rest[9], rest[10], rest[11]]));
                    match inner.map(|offset| offset as usize).filter(|&o| o >= 20 && o < rest.len()) {
                        Some(offset) if self.partial => {
                            self.push_cut(data, pos + offset, rest.len() - offset, at, &streams, cmdline);
                            return Err(ContainerError::Stream { at: stream_at(), source: e });
                        }
                        _ => return Err(stream_error(e)),
                    }
                }
            };
            if let Some(wrapper) = wrapper {
                let end = wrapper.offset as usize + wrapper.size as usize;
                Bitstream::parse(&rest[..end]).map_err(stream_error)?;
                streams.push((pos, end, true));
                pos += end;
                continue;
            }
            let (end, last) = match stream_end(rest) {
                Ok(end) => end,
                Err(e) if self.partial => {
                    // The stream the break is in, as far as it goes.
                    self.push_cut(data, pos, rest.len(), at, &streams, cmdline);
                    return Err(ContainerError::Stream { at: stream_at(), source: e });
                }
                Err(e) => return Err(stream_error(e)),
            };
            streams.push((pos, end, false));
            pos += end;
            if last {
                break;
            }
        }
        if streams.is_empty() {
            self.markers += 1;
            return Ok(());
        }
        self.push_streams(data, at, &streams, cmdline, streams.len() > 1);
        Ok(())
    }

    /// With [`partial`](Self::partial): the streams of a region found before a break, then
    /// the one the break is in (`len` bytes at `start`, from its magic).
    fn push_cut(
        &mut self,
        data: &'a [u8],
        start: usize,
        len: usize,
        at: &Provenance,
        streams: &[(usize, usize, bool)],
        cmdline: Option<&'a [u8]>,
    ) {
        let mut all = streams.to_vec();
        all.push((start, len, false));
        let several = all.len() > 1;
        self.push_streams(data, at, &all, cmdline, several);
    }

    fn push_streams(
        &mut self,
        data: &'a [u8],
        at: &Provenance,
        streams: &[(usize, usize, bool)],
        cmdline: Option<&'a [u8]>,
        several: bool,
    ) {
        for (index, &(start, len, wrapped)) in streams.iter().enumerate() {
            let mut provenance = at.clone();
            if several {
                provenance = provenance.with(Step::Module { index, offset: start as u64 });
            }
            if wrapped {
                provenance = provenance.with(Step::Wrapper);
            }
            self.found.push(Embedded { provenance, bytes: &data[start..start + len], cmdline });
        }
    }
}

/// The bitcode section of a Mach-O or COFF object, from its headers alone: (name, file
/// offset, size). Those formats put their section headers first and their symbol table
/// after the sections; a cut object, which the `object` crate does not parse (it reads the
/// symbol table), still says where its bitcode is.
fn bitcode_section_from_headers(data: &[u8]) -> Option<(&'static str, u64, u64)> {
    use object::pe::ImageFileHeader;
    use object::read::coff::CoffHeader;
    match FileKind::parse(data).ok()? {
        FileKind::MachO64 => macho_bitcode_section::<object::macho::MachHeader64<object::Endianness>>(data),
        FileKind::MachO32 => macho_bitcode_section::<object::macho::MachHeader32<object::Endianness>>(data),
        FileKind::Coff => {
            let mut offset = 0;
            let header = ImageFileHeader::parse(data, &mut offset).ok()?;
            let sections = header.sections(data, offset).ok()?;
            let section = sections.iter().find(|s| s.raw_name() == b".llvmbc")?;
            let (offset, size) = section.coff_file_range()?;
            Some((".llvmbc", offset.into(), size.into()))
        }
        _ => None,
    }
}

fn macho_bitcode_section<Mach: object::read::macho::MachHeader<Endian = object::Endianness>>(
    data: &[u8],
) -> Option<(&'static str, u64, u64)> {
    use object::read::macho::{Section, Segment};
    let header = Mach::parse(data, 0).ok()?;
    let endian = header.endian().ok()?;
    let mut commands = header.load_commands(endian, data, 0).ok()?;
    while let Ok(Some(command)) = commands.next() {
        let Ok(Some((segment, section_data))) = Mach::Segment::from_command(command) else { continue };
        for section in segment.sections(endian, section_data).ok()? {
            if section.segment_name() == b"__LLVM" && section.name() == b"__bitcode" {
                return Some(("__LLVM,__bitcode", section.offset(endian).into(), section.size(endian).into()));
            }
        }
    }
    None
}

fn object_error(at: &Provenance, what: &'static str, source: object::read::Error) -> ContainerError {
    ContainerError::Object { at: at.clone(), what, source }
}

/// Where the bitstream at the start of `data` ends, in bytes, walking its top-level
/// blocks without decoding them: before a zero byte or another magic at the top level
/// (neither can start a block), or where the reader ends. `true` if the reader ended
/// (what is left, at most 8 bytes, is tolerated garbage).
fn stream_end(data: &[u8]) -> Result<(usize, bool), Error> {
    let stream = Bitstream::parse(data)?;
    let mut reader = stream.reader();
    loop {
        // At the top level the position is always 32-bit aligned.
        let byte = (reader.bit_offset() / 8) as usize;
        let rest = &data[byte.min(data.len())..];
        if rest.first() == Some(&0) || FileFormat::of_stream(rest).is_some() {
            return Ok((byte, false));
        }
        match reader.advance()? {
            None => return Ok(((reader.end_bit().unwrap_or_default() / 8) as usize, true)),
            Some(Entry::EnterBlock(_)) => {
                reader.skip_block()?;
            }
            // The reader reports only blocks at the top level.
            Some(_) => {}
        }
    }
}
