//! LLVM optimization remarks in bitstream form (`RMRK`), decoded: every remark's type,
//! pass, name, function, debug location, hotness and arguments, with the strings
//! borrowed from the string table.
//!
//! ```
//! use llvm_bitstream_reader::remarks::{RemarksFile, RemarkType};
//!
//! # fn main() -> Result<(), llvm_bitstream_reader::Error> {
//! let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/llvm19_remarks_standalone.opt.bitstream")).unwrap();
//! let file = RemarksFile::parse(&bytes)?;
//! let mut remarks = file.remarks()?;
//! let mut missed = 0;
//! // `next_remark` lends each remark; its argument list is a buffer reused for the next.
//! while let Some(remark) = remarks.next_remark()? {
//!     if remark.remark_type == RemarkType::Missed && remark.function == "sum_array" {
//!         missed += 1;
//!         let _why: Vec<String> = remark.args.iter().map(|a| a.value.to_string()).collect();
//!     }
//! }
//! assert!(missed > 0);
//! # Ok(()) }
//! ```
//!
//! # Layouts
//!
//! LLVM has written three kinds of remarks container, told apart by the container version
//! and type in the META block's first record (`llvm/Remarks/BitstreamRemarkContainer.h`):
//!
//! | LLVM | version | type | what the file holds |
//! |---|---|---|---|
//! | ≤ 21 | 0 | 2 [`Standalone`](ContainerType::Standalone) | META (remark version, string table), then the remarks |
//! | ≤ 21 | 0 | 0 [`SeparateRemarksMeta`](ContainerType::SeparateRemarksMeta) | META only: the string table and the path of the remarks file; the `__LLVM,__remarks` (Mach-O) or `.remarks` (ELF) section of an object |
//! | ≤ 21 | 0 | 1 [`SeparateRemarksFile`](ContainerType::SeparateRemarksFile) | META (remark version), then the remarks, whose strings live in the meta container above |
//! | ≥ 22 | 1 | 1 [`RemarksFile`](ContainerType::RemarksFile) | META (remark version), the remarks, then a late META with the string table |
//! | ≥ 22 | 1 | 0 [`RemarksFileExternal`](ContainerType::RemarksFileExternal) | META only: the path of a remarks file (which has its own string table) |
//!
//! [`RemarksFile::remarks`] reads the files that hold their own string table. For the
//! separate layout, read both files and use [`RemarksFile::combine`] (or supply any string
//! table with [`RemarksFile::remarks_with`]); without one, the error
//! ([`Error::NotInStream`]) says where the strings are, and nothing is guessed.
//!
//! `opt` (LLVM ≤ 21) with `-pass-remarks-format=bitstream` writes a separate remarks file
//! and no meta container at all: its strings are nowhere, and no reader (LLVM's
//! `llvm-remarkutil` included) can read it. The error says so, and how to get a readable
//! file (`-pass-remarks-format=yaml`, or LLVM 22, which keeps the string table in the
//! file).
//!
//! # Compared with LLVM's reader
//!
//! `llvm::remarks::BitstreamRemarkParser` rejects unknown records, blocks and extra
//! operands. Here they are kept, as [`Unknown`]s, in [`Remark::unknown`], [`Meta::unknown`]
//! and [`Remarks::unknown_blocks`], and a remark type past LLVM's last is
//! [`RemarkType::Other`]. Container versions other than 0 and 1 are an error, as in
//! LLVM 22; the remark version is reported ([`Meta::remark_version`]) but, unlike
//! LLVM 22, not required to be 0. As in LLVM, the BLOCKINFO block must come first and the
//! META block second. [`yaml`] prints remarks exactly as `llvm-remarkutil bitstream2yaml`
//! (LLVM 19) does.

pub mod yaml;

use alloc::vec::Vec;
use core::fmt;

use crate::Magic;
use crate::error::Error;
use crate::ids::bitstream::raw::BLOCKINFO_BLOCK_ID;
use crate::ids::llvm_remarks::{self as kind, raw as ids};
use crate::layout::{Field, RecordLayout, Unknown};
use crate::reader::{Bitstream, Entry, Reader};

// The records' layouts, as LLVM's `BitstreamRemarkSerializer` writes them.
const V: Field = Field::Vbr(6);
const CONTAINER_INFO: RecordLayout =
    RecordLayout::new("Container info", kind::META_BLOCK_ID, 2, &[Field::Fixed(32), Field::Fixed(2)]);
const REMARK_VERSION: RecordLayout = RecordLayout::new("Remark version", kind::META_BLOCK_ID, 1, &[Field::Fixed(32)]);
const REMARK_HEADER: RecordLayout =
    RecordLayout::new("Remark header", kind::REMARK_BLOCK_ID, 4, &[Field::Fixed(3), V, V, V]);
const REMARK_DEBUG_LOC: RecordLayout =
    RecordLayout::new("Remark debug location", kind::REMARK_BLOCK_ID, 3, &[V, Field::Fixed(32), Field::Fixed(32)]);
const REMARK_HOTNESS: RecordLayout = RecordLayout::new("Remark hotness", kind::REMARK_BLOCK_ID, 1, &[Field::Vbr(8)]);
const ARG_WITH_DEBUGLOC: RecordLayout = RecordLayout::new(
    "Argument with debug location",
    kind::REMARK_BLOCK_ID,
    5,
    &[V, V, V, Field::Fixed(32), Field::Fixed(32)],
);
const ARG_WITHOUT_DEBUGLOC: RecordLayout = RecordLayout::new("Argument", kind::REMARK_BLOCK_ID, 2, &[V, V]);

/// A remark's strings are [`Text`]: bytes borrowed from the string table (LLVM does not
/// require UTF-8), shown as text.
pub use crate::text::Text;

/// The string table of a remarks container: NUL-separated strings, indexed from 0 in
/// order (LLVM's `ParsedStringTable`). It borrows the blob; only the start of each string
/// is stored.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StringTable<'a> {
    blob: &'a [u8],
    starts: Vec<usize>,
}

impl<'a> StringTable<'a> {
    /// Splits a string-table blob.
    pub fn new(blob: &'a [u8]) -> Self {
        let mut starts = Vec::new();
        let mut at = 0;
        while at < blob.len() {
            starts.push(at);
            at += blob[at..].iter().position(|&b| b == 0).map_or(blob.len() - at, |n| n + 1);
        }
        StringTable { blob, starts }
    }

    /// The blob as stored.
    pub fn blob(&self) -> &'a [u8] {
        self.blob
    }

    /// How many strings the table has.
    pub fn len(&self) -> usize {
        self.starts.len()
    }

    /// Whether the table has no strings.
    pub fn is_empty(&self) -> bool {
        self.starts.is_empty()
    }

    /// String `index`, without its terminating NUL. Like LLVM, the last string of a blob
    /// that does not end in NUL loses its last byte.
    pub fn get(&self, index: u64) -> Option<Text<'a>> {
        let i = usize::try_from(index).ok()?;
        let start = *self.starts.get(i)?;
        let next = self.starts.get(i + 1).copied().unwrap_or(self.blob.len());
        self.blob.get(start..next.saturating_sub(1).max(start)).map(Text)
    }

    /// Every string, in index order.
    pub fn iter(&self) -> impl Iterator<Item = Text<'a>> + '_ {
        (0..self.starts.len() as u64).filter_map(|i| self.get(i))
    }

    fn lookup(&self, index: u64, bit: u64) -> Result<Text<'a>, Error> {
        self.get(index).ok_or(Error::IndexOutOfRange { bit, what: "string", index, len: self.len() })
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for StringTable<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

/// What a remark reports (`llvm::remarks::Type`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub enum RemarkType {
    /// 0: no type (LLVM's YAML writer cannot print it).
    #[default]
    Unknown,
    /// 1: an optimization was applied (`-Rpass`).
    Passed,
    /// 2: an optimization was not applied (`-Rpass-missed`).
    Missed,
    /// 3: an analysis result (`-Rpass-analysis`).
    Analysis,
    /// 4: floating-point commutativity analysis.
    AnalysisFPCommute,
    /// 5: aliasing analysis.
    AnalysisAliasing,
    /// 6: an optimization failed.
    Failure,
    /// A type past LLVM's last (which LLVM's reader rejects).
    Other(u64),
}

impl RemarkType {
    /// The type a HEADER record's operand stands for.
    pub fn from_raw(value: u64) -> Self {
        match value {
            0 => RemarkType::Unknown,
            1 => RemarkType::Passed,
            2 => RemarkType::Missed,
            3 => RemarkType::Analysis,
            4 => RemarkType::AnalysisFPCommute,
            5 => RemarkType::AnalysisAliasing,
            6 => RemarkType::Failure,
            n => RemarkType::Other(n),
        }
    }

    /// The YAML tag without `!` (`Passed`, `Missed`, …), for the types LLVM names.
    pub fn name(self) -> Option<&'static str> {
        Some(match self {
            RemarkType::Passed => "Passed",
            RemarkType::Missed => "Missed",
            RemarkType::Analysis => "Analysis",
            RemarkType::AnalysisFPCommute => "AnalysisFPCommute",
            RemarkType::AnalysisAliasing => "AnalysisAliasing",
            RemarkType::Failure => "Failure",
            RemarkType::Unknown | RemarkType::Other(_) => return None,
        })
    }
}

impl fmt::Display for RemarkType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.name(), self) {
            (Some(name), _) => f.pad(name),
            (None, RemarkType::Other(n)) => f.pad(&alloc::format!("type {n}")),
            (None, _) => f.pad("Unknown"),
        }
    }
}

/// A source location: file, line and column as the record stores them (LLVM keeps the
/// line and column as 32-bit `unsigned`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct DebugLoc<'a> {
    /// The source file's path.
    pub file: Text<'a>,
    /// The line (1-based; 0 when unknown).
    pub line: u64,
    /// The column (1-based; 0 when unknown).
    pub column: u64,
}

impl fmt::Display for DebugLoc<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.column)
    }
}

/// One argument of a remark: a key, a value and, for values naming code (a callee, an
/// instruction), where that code is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct Argument<'a> {
    /// The key, e.g. `Callee`, `String`, `Cost`.
    pub key: Text<'a>,
    /// The value, always a string (numbers too).
    pub value: Text<'a>,
    /// The value's location, if it has one.
    pub loc: Option<DebugLoc<'a>>,
}

/// One optimization remark.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct Remark<'a> {
    /// What it reports.
    pub remark_type: RemarkType,
    /// The pass that emitted it, e.g. `inline`, `loop-vectorize`.
    pub pass: Text<'a>,
    /// Its name within the pass, e.g. `NeverInline`, `MissedDetails`.
    pub name: Text<'a>,
    /// The function it is about (a mangled name).
    pub function: Text<'a>,
    /// Where in the source.
    pub loc: Option<DebugLoc<'a>>,
    /// The profile count of the code it is about, with profile data.
    pub hotness: Option<u64>,
    /// Its arguments, in order; together their values spell its message.
    pub args: Vec<Argument<'a>>,
    /// Records and blocks in its REMARK block that LLVM's reader would reject.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Vec::is_empty"))]
    pub unknown: Vec<Unknown>,
    /// Bit offset of its REMARK block's ENTER_SUBBLOCK.
    pub bit: u64,
}

impl Remark<'_> {
    /// The message: the argument values joined, as `clang -Rpass` prints it.
    pub fn message(&self) -> alloc::string::String {
        use alloc::string::ToString;
        self.args.iter().map(|a| a.value.to_string()).collect()
    }
}

/// The kind of container, from its version and type (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub enum ContainerType {
    /// LLVM ≤ 21, type 0: the string table and the path of the remarks file.
    SeparateRemarksMeta,
    /// LLVM ≤ 21, type 1: remarks without a string table.
    SeparateRemarksFile,
    /// LLVM ≤ 21, type 2: string table and remarks.
    Standalone,
    /// LLVM ≥ 22, type 0: the path of the remarks file.
    RemarksFileExternal,
    /// LLVM ≥ 22, type 1: remarks, then the string table in a late META block.
    RemarksFile,
}

impl ContainerType {
    /// The type of a container of `version` (0 or 1), or `None` if LLVM defines none.
    pub fn from_raw(version: u64, value: u64) -> Option<Self> {
        Some(match (version, value) {
            (0, 0) => ContainerType::SeparateRemarksMeta,
            (0, 1) => ContainerType::SeparateRemarksFile,
            (0, 2) => ContainerType::Standalone,
            (1, 0) => ContainerType::RemarksFileExternal,
            (1, 1) => ContainerType::RemarksFile,
            _ => return None,
        })
    }

    /// Whether the container holds remarks (rather than pointing at a file that does).
    pub fn has_remarks(self) -> bool {
        !self.is_meta()
    }

    /// Whether the container only points at an external remarks file.
    pub fn is_meta(self) -> bool {
        matches!(self, ContainerType::SeparateRemarksMeta | ContainerType::RemarksFileExternal)
    }
}

impl fmt::Display for ContainerType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(match self {
            ContainerType::SeparateRemarksMeta => "separate remarks meta (LLVM <= 21)",
            ContainerType::SeparateRemarksFile => "separate remarks file (LLVM <= 21)",
            ContainerType::Standalone => "standalone (LLVM <= 21)",
            ContainerType::RemarksFileExternal => "link to an external remarks file (LLVM >= 22)",
            ContainerType::RemarksFile => "remarks file (LLVM >= 22)",
        })
    }
}

/// The META block(s) of a container.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct Meta<'a> {
    /// The container version: 0 (LLVM ≤ 21) or 1 (LLVM ≥ 22).
    pub container_version: u64,
    /// The container type.
    pub container_type: ContainerType,
    /// The version of the remark records (0 in every LLVM so far), if the container has
    /// remarks.
    pub remark_version: Option<u64>,
    /// The string table, if this container has one (in a late META block for LLVM ≥ 22).
    pub string_table: Option<StringTable<'a>>,
    /// The path of the external remarks file, for the meta containers.
    pub external_file: Option<Text<'a>>,
    /// Records and blocks in the META blocks that LLVM's reader would reject.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Vec::is_empty"))]
    pub unknown: Vec<Unknown>,
    /// Bit offset of the (first) META block's ENTER_SUBBLOCK.
    pub bit: u64,
}

const SEPARATE_FILE_HINT: &str = "a separate remarks file (LLVM <= 21) keeps its strings in the meta container that points at it: clang puts that in the object file's __LLVM,__remarks (Mach-O) or .remarks (ELF) section; read both and combine them (RemarksFile::combine). If `opt -pass-remarks-format=bitstream` (LLVM <= 21) wrote this file, there is no such container anywhere and nothing, llvm-remarkutil included, can read its strings: write the remarks with -pass-remarks-format=yaml instead, or with LLVM 22, which keeps the string table in the file";
const LATE_TABLE_HINT: &str = "LLVM 22 writes it in a META block after the remarks, and this file ends without one (was the compiler stopped before it finished writing?)";
const META_HINT: &str =
    "it only points at an external remarks file (Meta::external_file); read that file and combine the two";

/// The remarks section of an object file: `__LLVM,__remarks` (Mach-O) or `.remarks`
/// (ELF), which holds a meta container (or, for `-fsave-optimization-record` files
/// embedded by other tools, a whole remarks file). `None` if `object` is not an object
/// file or has no such section.
#[cfg(feature = "container")]
pub fn find_in_object(object: &[u8]) -> Option<&[u8]> {
    use object::{Object, ObjectSection};
    let file = object::File::parse(object).ok()?;
    let section = file.sections().find(|s| matches!(s.name(), Ok("__remarks" | ".remarks")))?;
    section.data().ok()
}

/// A remarks container: its META block(s) read, its remarks not yet.
#[derive(Clone, Debug)]
pub struct RemarksFile<'a> {
    stream: Bitstream<'a>,
    meta: Meta<'a>,
    /// An empty input: a remarks file without remarks.
    empty: bool,
}

impl<'a> RemarksFile<'a> {
    /// Reads the magic, the BLOCKINFO block and the META block (and, for LLVM ≥ 22
    /// files, finds the late META block with the string table, skipping the remark blocks
    /// in O(1) each).
    ///
    /// Empty input is a remarks file without remarks: `opt -pass-remarks-format=bitstream`
    /// of LLVM 22 writes a 0-byte file when no pass made a remark, and
    /// `llvm-remarkutil-22 bitstream2yaml` reads it as one.
    pub fn parse(bytes: &'a [u8]) -> Result<Self, Error> {
        match Self::read(bytes, false) {
            (Some(file), None) => Ok(file),
            (_, Some(e)) => Err(e),
            // `read` gives a file or an error.
            (None, None) => Err(Error::ExpectedBlock { bit: 0, expected: "META_BLOCK", found: None }),
        }
    }

    /// Reads what a damaged or cut remarks file holds: the container, whose
    /// [`remarks`](Self::remarks) are every remark fully read before the break (and then
    /// end, without an error), and the error that marks the break, if any. `None` if the
    /// break comes before the META block ends (the container type and the string table
    /// are in it).
    ///
    /// A file without its own string table (the separate layout of LLVM ≤ 21) is checked
    /// block by block: the break is where its blocks stop being whole. An LLVM 22 file cut
    /// before its late META block has lost its string table: the container is returned
    /// (its [`Meta`] says what it is), and [`remarks`](Self::remarks) says the table is
    /// missing.
    ///
    /// ```
    /// use llvm_bitstream_reader::remarks::RemarksFile;
    /// # fn main() -> Result<(), llvm_bitstream_reader::Error> {
    /// let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/llvm19_remarks_standalone.opt.bitstream")).unwrap();
    /// let all = RemarksFile::parse(&bytes)?.remarks()?.count();
    /// let (file, error) = RemarksFile::parse_partial(&bytes[..bytes.len() - 100]);
    /// let error = error.expect("the last remark is cut");
    /// assert!(error.byte_offset() <= bytes.len() as u64 - 100);
    /// // The remarks before the cut, each whole; the walk ends without another error.
    /// let kept: Vec<_> = file.unwrap().remarks()?.collect::<Result<_, _>>()?;
    /// assert!(!kept.is_empty() && kept.len() < all);
    /// # Ok(()) }
    /// ```
    pub fn parse_partial(bytes: &'a [u8]) -> (Option<Self>, Option<Error>) {
        let (file, error) = Self::read(bytes, true);
        let Some(mut file) = file else { return (None, error) };
        if error.is_some() {
            return (Some(file), error);
        }
        match file.find_break() {
            None => (Some(file), None),
            Some((end_bit, e)) => {
                // What comes after the last whole block is left off: top-level blocks end
                // on a 32-bit boundary, so the prefix is a whole stream.
                let end = usize::try_from(end_bit / 8).unwrap_or(usize::MAX);
                if let Some(prefix) = file.stream.bytes().get(..end) {
                    if let Ok(stream) = Bitstream::parse(prefix) {
                        file.stream = stream;
                    }
                }
                (Some(file), Some(e))
            }
        }
    }

    /// Where the remarks stop being whole: the bit after the last whole top-level block,
    /// and the error after it. With its own string table every remark is decoded; without
    /// one, the blocks are walked.
    fn find_break(&self) -> Option<(u64, Error)> {
        if self.empty || self.meta.container_type.is_meta() {
            return None;
        }
        if let Ok(mut remarks) = self.remarks() {
            let mut end = remarks.reader.bit_offset();
            loop {
                match remarks.next_remark() {
                    Ok(Some(_)) => end = remarks.reader.bit_offset(),
                    Ok(None) => return None,
                    Err(e) => return Some((end, e)),
                }
            }
        }
        let mut reader = self.stream.reader();
        let leading = enter_leading_blocks(&mut reader).and_then(|_| reader.skip_block());
        if let Err(e) = leading {
            return Some((0, e));
        }
        loop {
            let end = reader.bit_offset();
            let step = match reader.advance() {
                Ok(None) => return None,
                Ok(Some(Entry::EnterBlock(_))) => reader.skip_block().map(|_| ()),
                Ok(Some(_)) => Ok(()),
                Err(e) => Err(e),
            };
            if let Err(e) = step {
                return Some((end, e));
            }
        }
    }

    /// Reads the META block(s); with `partial`, an LLVM 22 file whose late META block is
    /// cut off is returned without its string table, beside the error.
    fn read(bytes: &'a [u8], partial: bool) -> (Option<Self>, Option<Error>) {
        let mut late_error = None;
        let result = Self::read_meta(bytes, partial.then_some(&mut late_error));
        match result {
            Ok(file) => (Some(file), late_error),
            Err(e) => (None, Some(e)),
        }
    }

    fn read_meta(bytes: &'a [u8], late_error: Option<&mut Option<Error>>) -> Result<Self, Error> {
        if bytes.is_empty() {
            let meta = Meta {
                container_version: 1,
                container_type: ContainerType::RemarksFile,
                remark_version: Some(0),
                string_table: Some(StringTable::new(&[])),
                external_file: None,
                unknown: Vec::new(),
                bit: 0,
            };
            // A stream of the magic alone: no blocks to read.
            return Ok(RemarksFile { stream: Bitstream::parse(b"RMRK")?, meta, empty: true });
        }
        let stream = Bitstream::parse(bytes)?;
        if stream.magic() != Magic::LlvmRemarks {
            return Err(Error::WrongMagic { bit: 0, expected: "LLVM remarks (RMRK)", found: stream.magic().bytes() });
        }
        let mut reader = stream.reader();
        let bit = enter_leading_blocks(&mut reader)?;
        let mut records = MetaRecords::default();
        let mut unknown = Vec::new();
        read_meta_block(&mut reader, &mut records, &mut unknown)?;
        let (version, value, info_bit) =
            records.container.ok_or(Error::MissingRecord { bit, block: "META_BLOCK", record: "container info" })?;
        if version > 1 {
            let known = "0 up to LLVM 21, 1 from LLVM 22";
            return Err(Error::UnsupportedVersion { bit: info_bit, what: "remark container version", version, known });
        }
        let container_type = ContainerType::from_raw(version, value).ok_or(Error::InvalidValue {
            bit: info_bit,
            what: "remark container type (for this container version)",
            value,
        })?;
        if container_type == ContainerType::RemarksFile && records.strtab.is_none() {
            // LLVM ≥ 22 writes the string table after the remarks.
            let mut late = || -> Result<(), Error> {
                while let Some(entry) = reader.advance()? {
                    if let Entry::EnterBlock(b) = entry {
                        if b.block_id == ids::META_BLOCK_ID {
                            read_meta_block(&mut reader, &mut records, &mut unknown)?;
                        } else {
                            reader.skip_block()?;
                        }
                    }
                }
                Ok(())
            };
            match (late(), late_error) {
                (Ok(()), _) => {}
                // Partial: the container without its string table, and the error.
                (Err(e), Some(slot)) => *slot = Some(e),
                (Err(e), None) => return Err(e),
            }
        }
        if container_type.has_remarks() && records.remark_version.is_none() {
            return Err(Error::MissingRecord { bit, block: "META_BLOCK", record: "remark version" });
        }
        if container_type.is_meta() && records.external_file.is_none() {
            return Err(Error::MissingRecord { bit, block: "META_BLOCK", record: "external file" });
        }
        let meta = Meta {
            container_version: version,
            container_type,
            remark_version: records.remark_version,
            string_table: records.strtab.map(StringTable::new),
            external_file: records.external_file.map(Text),
            unknown,
            bit,
        };
        Ok(RemarksFile { stream, meta, empty: false })
    }

    /// The META block(s).
    pub fn meta(&self) -> &Meta<'a> {
        &self.meta
    }

    /// The path of the remarks file this meta container points at, if it is one.
    pub fn external_file(&self) -> Option<Text<'a>> {
        self.meta.external_file
    }

    /// The remarks, with the container's own string table. A container without one is
    /// [`Error::NotInStream`], saying where the strings are.
    pub fn remarks(&self) -> Result<Remarks<'a, 'a>, Error> {
        match &self.meta.string_table {
            Some(table) if self.meta.container_type.has_remarks() => self.remarks_with(table.clone()),
            _ => Err(Error::NotInStream {
                bit: self.meta.bit,
                what: match self.meta.container_type {
                    t if t.is_meta() => "a meta container's remarks",
                    _ => "the string table of this remarks file",
                },
                hint: match self.meta.container_type {
                    t if t.is_meta() => META_HINT,
                    ContainerType::RemarksFile => LATE_TABLE_HINT,
                    _ => SEPARATE_FILE_HINT,
                },
            }),
        }
    }

    /// The remarks, with strings from `table` (e.g. the string table of the meta container
    /// that points at this file). A meta container has no remarks: iterating it yields
    /// none.
    pub fn remarks_with<'s>(&self, table: StringTable<'s>) -> Result<Remarks<'a, 's>, Error> {
        let mut reader = self.stream.reader();
        if self.empty {
            return Ok(Remarks { reader, table, current: Remark::default(), done: true, unknown_blocks: Vec::new() });
        }
        enter_leading_blocks(&mut reader)?;
        reader.skip_block()?;
        Ok(Remarks { reader, table, current: Remark::default(), done: false, unknown_blocks: Vec::new() })
    }

    /// The remarks of a separate layout: `meta` is the container in the object's remarks
    /// section (or any [`ContainerType::is_meta`] container), `file` the remarks file it
    /// points at. Checks, as LLVM does, that the two have the same container version and
    /// that `file` is a remarks file; the strings come from `meta` (LLVM ≤ 21) or from
    /// `file` itself (LLVM ≥ 22).
    pub fn combine<'b>(meta: &RemarksFile<'b>, file: &RemarksFile<'b>) -> Result<Remarks<'b, 'b>, Error> {
        let mismatch = |reason| Err(Error::Mismatch { bit: file.meta.bit, reason });
        if !meta.meta.container_type.is_meta() {
            return mismatch("the first container is not a meta container (it points at no remarks file)");
        }
        if meta.meta.container_version != file.meta.container_version {
            return mismatch("the two containers have different container versions");
        }
        match file.meta.container_type {
            ContainerType::SeparateRemarksFile => match &meta.meta.string_table {
                Some(table) => file.remarks_with(table.clone()),
                None => Err(Error::NotInStream {
                    bit: meta.meta.bit,
                    what: "the string table of this meta container",
                    hint: "the meta container of a separate layout must hold the string table",
                }),
            },
            ContainerType::RemarksFile => file.remarks(),
            _ => mismatch("the second container is not a separate remarks file"),
        }
    }
}

/// The remarks of a container, in file order. Strings borrow the string table (`'s`).
///
/// [`Remarks::next_remark`] lends each remark and reuses its argument list: no allocation
/// per remark once the list has grown to the longest. The `Iterator` gives owned remarks.
#[derive(Debug)]
pub struct Remarks<'a, 's> {
    reader: Reader<'a>,
    table: StringTable<'s>,
    current: Remark<'s>,
    done: bool,
    unknown_blocks: Vec<Unknown>,
}

impl<'a, 's> Remarks<'a, 's> {
    /// The next remark, lent until the next call; `Ok(None)` at the end. After an error
    /// the walk is over.
    pub fn next_remark(&mut self) -> Result<Option<&Remark<'s>>, Error> {
        if self.done {
            return Ok(None);
        }
        match self.read_next() {
            Ok(true) => Ok(Some(&self.current)),
            Ok(false) => {
                self.done = true;
                Ok(None)
            }
            Err(e) => {
                self.done = true;
                Err(e)
            }
        }
    }

    /// Top-level blocks other than REMARK blocks met so far (the late META block of an
    /// LLVM ≥ 22 file is expected, and not listed).
    pub fn unknown_blocks(&self) -> &[Unknown] {
        &self.unknown_blocks
    }

    /// The string table in use.
    pub fn string_table(&self) -> &StringTable<'s> {
        &self.table
    }

    fn read_next(&mut self) -> Result<bool, Error> {
        loop {
            let Some(entry) = self.reader.advance()? else { return Ok(false) };
            let Entry::EnterBlock(block) = entry else { continue };
            if block.block_id == ids::REMARK_BLOCK_ID {
                self.read_remark_block(block.header_bit)?;
                return Ok(true);
            }
            if block.block_id != ids::META_BLOCK_ID {
                self.unknown_blocks.push(Unknown::Block { bit: block.header_bit, block_id: block.block_id });
            }
            self.reader.skip_block()?;
        }
    }

    fn read_remark_block(&mut self, bit: u64) -> Result<(), Error> {
        let remark = &mut self.current;
        remark.args.clear();
        remark.unknown.clear();
        remark.loc = None;
        remark.hotness = None;
        remark.bit = bit;
        let mut header = false;
        while let Some(entry) = self.reader.advance_skipping_subblocks()? {
            let Entry::Record { .. } = entry else {
                if let Entry::SkippedBlock(b) = entry {
                    remark.unknown.push(Unknown::Block { bit: b.header_bit, block_id: b.block_id });
                }
                continue;
            };
            let record = self.reader.read_record()?;
            let at = record.bit_offset();
            let table = &self.table;
            let unknown = &mut remark.unknown;
            match record.code() {
                ids::RECORD_REMARK_HEADER => {
                    let f = REMARK_HEADER.read_noting_extra(&record, unknown)?;
                    remark.remark_type = RemarkType::from_raw(f.get(0));
                    remark.name = table.lookup(f.get(1), at)?;
                    remark.pass = table.lookup(f.get(2), at)?;
                    remark.function = table.lookup(f.get(3), at)?;
                    header = true;
                }
                ids::RECORD_REMARK_DEBUG_LOC => {
                    let f = REMARK_DEBUG_LOC.read_noting_extra(&record, unknown)?;
                    remark.loc = Some(DebugLoc { file: table.lookup(f.get(0), at)?, line: f.get(1), column: f.get(2) });
                }
                ids::RECORD_REMARK_HOTNESS => {
                    remark.hotness = Some(REMARK_HOTNESS.read_noting_extra(&record, unknown)?.get(0));
                }
                ids::RECORD_REMARK_ARG_WITH_DEBUGLOC => {
                    let f = ARG_WITH_DEBUGLOC.read_noting_extra(&record, unknown)?;
                    remark.args.push(Argument {
                        key: table.lookup(f.get(0), at)?,
                        value: table.lookup(f.get(1), at)?,
                        loc: Some(DebugLoc { file: table.lookup(f.get(2), at)?, line: f.get(3), column: f.get(4) }),
                    });
                }
                ids::RECORD_REMARK_ARG_WITHOUT_DEBUGLOC => {
                    let f = ARG_WITHOUT_DEBUGLOC.read_noting_extra(&record, unknown)?;
                    remark.args.push(Argument {
                        key: table.lookup(f.get(0), at)?,
                        value: table.lookup(f.get(1), at)?,
                        loc: None,
                    });
                }
                code => unknown.push(Unknown::Record {
                    bit: at,
                    block_id: kind::REMARK_BLOCK_ID,
                    code,
                    operands: record.operand_slice().to_vec(),
                }),
            }
        }
        if !header {
            return Err(Error::MissingRecord { bit, block: "REMARK_BLOCK", record: "remark header" });
        }
        Ok(())
    }
}

impl<'s> Iterator for Remarks<'_, 's> {
    type Item = Result<Remark<'s>, Error>;

    fn next(&mut self) -> Option<Self::Item> {
        match self.next_remark() {
            Ok(Some(_)) => Some(Ok(core::mem::take(&mut self.current))),
            Ok(None) => None,
            Err(e) => Some(Err(e)),
        }
    }
}

impl core::iter::FusedIterator for Remarks<'_, '_> {}

/// What the META block(s) said.
#[derive(Default)]
struct MetaRecords<'a> {
    /// (version, type, bit of the record)
    container: Option<(u64, u64, u64)>,
    remark_version: Option<u64>,
    strtab: Option<&'a [u8]>,
    external_file: Option<&'a [u8]>,
}

/// Reads BLOCKINFO and enters the META block, as LLVM requires them: first and second.
/// Returns the META block's position.
fn enter_leading_blocks(reader: &mut Reader<'_>) -> Result<u64, Error> {
    let mut meta_bit = 0;
    for (expected_id, expected) in [(BLOCKINFO_BLOCK_ID, "BLOCKINFO_BLOCK"), (ids::META_BLOCK_ID, "META_BLOCK")] {
        let bit = reader.bit_offset();
        match reader.advance()? {
            Some(Entry::EnterBlock(b)) if b.block_id == expected_id => {
                if expected_id == BLOCKINFO_BLOCK_ID {
                    reader.skip_block()?;
                }
                meta_bit = b.header_bit;
            }
            Some(Entry::EnterBlock(b)) => {
                let found = Some((b.block_id, kind::block_name(b.block_id)));
                return Err(Error::ExpectedBlock { bit: b.header_bit, expected, found });
            }
            _ => return Err(Error::ExpectedBlock { bit, expected, found: None }),
        }
    }
    Ok(meta_bit)
}

/// Reads the META block just entered, to its end.
fn read_meta_block<'a>(
    reader: &mut Reader<'a>,
    records: &mut MetaRecords<'a>,
    unknown: &mut Vec<Unknown>,
) -> Result<(), Error> {
    while let Some(entry) = reader.advance_skipping_subblocks()? {
        let Entry::Record { .. } = entry else {
            if let Entry::SkippedBlock(b) = entry {
                unknown.push(Unknown::Block { bit: b.header_bit, block_id: b.block_id });
            }
            continue;
        };
        let record = reader.read_record()?;
        let bit = record.bit_offset();
        match record.code() {
            ids::RECORD_META_CONTAINER_INFO => {
                let f = CONTAINER_INFO.read_noting_extra(&record, unknown)?;
                records.container = Some((f.get(0), f.get(1), bit));
            }
            ids::RECORD_META_REMARK_VERSION => {
                records.remark_version = Some(REMARK_VERSION.read_noting_extra(&record, unknown)?.get(0));
            }
            code @ (ids::RECORD_META_STRTAB | ids::RECORD_META_EXTERNAL_FILE) => {
                let Some(blob) = record.blob() else {
                    let what = "operand count of a string table or external file record, which holds a blob only";
                    return Err(Error::InvalidValue { bit, what, value: record.len() as u64 });
                };
                if !record.is_empty() {
                    let block_id = kind::META_BLOCK_ID;
                    unknown.push(Unknown::ExtraOperands { bit, block_id, code, operands: record.len() });
                }
                if code == ids::RECORD_META_STRTAB {
                    records.strtab = Some(blob);
                } else {
                    records.external_file = Some(blob);
                }
            }
            code => unknown.push(Unknown::Record {
                bit,
                block_id: kind::META_BLOCK_ID,
                code,
                operands: record.operand_slice().to_vec(),
            }),
        }
    }
    Ok(())
}
