//! Clang serialized diagnostics (`.dia` files, `clang --serialize-diagnostics FILE`),
//! decoded: every diagnostic with its level, location, category, warning flag, message,
//! source ranges and fix-its, notes nested under the diagnostic they belong to, and the
//! file, category and flag tables.
//!
//! ```
//! use llvm_bitstream_reader::diag::{Diagnostics, Level};
//!
//! # fn main() -> Result<(), llvm_bitstream_reader::diag::DiagError> {
//! let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/clang14_diagnostics.dia")).unwrap();
//! let diags = Diagnostics::read(&bytes)?;
//! for d in diags.iter().filter(|d| d.level() == Level::Warning) {
//!     // Exactly what libclang's clang_formatDiagnostic prints, e.g.
//!     // diag_errors.c:38:7: warning: unused variable 'unused_var' [-Wunused-variable]
//!     println!("{d}");
//!     for note in d.children() {
//!         println!("{note}");
//!     }
//! }
//! let unused = diags.iter().find(|d| d.flag().is_some_and(|f| f.name.as_bytes() == b"unused-variable")).unwrap();
//! assert_eq!(unused.location().line, 38);
//! assert_eq!(unused.location().file.unwrap().name.to_string(), "diag_errors.c");
//! assert!(diags.walk().any(|(_, d)| !d.fixits().is_empty()));
//! # Ok(()) }
//! ```
//!
//! # The format
//!
//! A `DIAG` magic, a BLOCKINFO block with the abbreviations of the other two blocks, a
//! META block with the format version (2), then one DIAG block per diagnostic. A DIAG
//! block holds a DIAG record (level, location, category id, flag id, message), its
//! SOURCE_RANGE and FIXIT records, and its notes as nested DIAG blocks (a note about an
//! include stack comes before the record of the diagnostic it explains). The FILENAME,
//! CATEGORY and DIAG_FLAG records that give the ids their names are written once per file,
//! inside the DIAG block of the first diagnostic that uses them.
//!
//! This reader follows clang's `SerializedDiagnosticReader` and libclang's
//! `CXLoadedDiagnostic`: ids are resolved when a diagnostic is read (a file id must have
//! been defined before it, else [`DiagError::UnknownFile`], as libclang's "Corrupted file
//! entry"; an undefined flag or category has an empty name); unknown blocks and records
//! are passed over and listed in [`Diagnostics::skipped`]. It is more lenient than clang's
//! reader where nothing is lost: unabbreviated records are read, operands after the known
//! ones are ignored (and listed), a newer version is accepted ([`Diagnostics::version`]),
//! and several streams concatenated in one file (`cat a.dia b.dia`, which libclang
//! rejects) are read one after the other, each with its own id tables.
//!
//! Each diagnostic is a [`Diagnostic`] handle into one flat table (no allocation per
//! diagnostic); its strings borrow the input.

mod format;
#[cfg(feature = "serde")]
mod serde_impls;
mod types;

use alloc::collections::BTreeMap;
use alloc::vec::Vec;

use thiserror::Error;

use crate::ids::bitstream::raw::BLOCKINFO_BLOCK_ID;
use crate::ids::diag::{RecordId, raw};
use crate::{Bitstream, Entry, Magic};

pub use format::Formatted;
pub use types::{
    Category, FileName, FixIt, Flag, Level, Location, Skipped, SourceFile, SourceFileContents, SourceRange, Text,
};

/// The serialized-diagnostics version clang writes (`serialized_diags::VersionNumber`).
pub const VERSION: u64 = 2;

/// What is wrong with a serialized-diagnostics file.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum DiagError {
    /// The input does not start with the `DIAG` magic.
    #[error("not clang serialized diagnostics: the stream starts with {magic:02x?}, not \"DIAG\" (bit {bit})")]
    NotDiagnostics {
        /// Bit offset of the magic.
        bit: u64,
        /// The first four bytes.
        magic: [u8; 4],
    },
    /// The bitstream itself is malformed.
    #[error("{source} (in the stream starting at bit {stream_bit})")]
    Stream {
        /// Bit offset of the stream's magic in the input (0 but for a concatenated file).
        stream_bit: u64,
        /// The bitstream error; its offset counts from `stream_bit`.
        source: crate::Error,
    },
    /// A known record with fewer operands than clang writes.
    #[error("{record} record at bit {bit} has {found} operands; it needs {expected}")]
    TooFewOperands {
        /// Bit offset of the record.
        bit: u64,
        /// The record.
        record: RecordId,
        /// How many it has.
        found: usize,
        /// How many clang writes.
        expected: usize,
    },
    /// A location names a file id that no FILENAME record before it defined (libclang:
    /// "Corrupted file entry in source location").
    #[error("location in the record at bit {bit} names file id {file}, which no FILENAME record before it defines")]
    UnknownFile {
        /// Bit offset of the record.
        bit: u64,
        /// The file id.
        file: u32,
    },
}

impl DiagError {
    /// The bit offset the error refers to, from the start of the input.
    pub fn bit_offset(&self) -> u64 {
        match self {
            DiagError::NotDiagnostics { bit, .. }
            | DiagError::TooFewOperands { bit, .. }
            | DiagError::UnknownFile { bit, .. } => *bit,
            DiagError::Stream { stream_bit, source } => stream_bit.saturating_add(source.bit_offset()),
        }
    }
}

/// One diagnostic as stored: the DIAG record's fields, where its ranges, fix-its and
/// descendants are in the flat tables.
#[derive(Clone, Copy, Debug)]
struct Node<'a> {
    level: Level,
    location: Location<'a>,
    category: Option<Category<'a>>,
    flag: Option<Flag<'a>>,
    message: Text<'a>,
    /// Bit offset of the DIAG block.
    block_bit: u64,
    /// Bit offset of the DIAG record (the last one, if a block has several, as libclang
    /// keeps the last); `None` if the block has none.
    record_bit: Option<u64>,
    /// Index just past the last descendant (nodes are in pre-order).
    end: u32,
    depth: u32,
    ranges: (u32, u32),
    fixits: (u32, u32),
}

/// The diagnostics of one `.dia` file, and its tables.
#[derive(Clone, Debug, Default)]
pub struct Diagnostics<'a> {
    /// Every diagnostic, in pre-order (the order of their DIAG blocks).
    nodes: Vec<Node<'a>>,
    ranges: Vec<SourceRange<'a>>,
    fixits: Vec<FixIt<'a>>,
    files: Vec<FileName<'a>>,
    categories: Vec<Category<'a>>,
    flags: Vec<Flag<'a>>,
    contents: Vec<SourceFileContents<'a>>,
    skipped: Vec<Skipped>,
    version: Option<u64>,
    streams: usize,
}

impl<'a> Diagnostics<'a> {
    /// Reads a whole `.dia` file.
    pub fn read(input: &'a [u8]) -> Result<Self, DiagError> {
        match Self::read_partial(input) {
            (diags, None) => Ok(diags),
            (_, Some(e)) => Err(e),
        }
    }

    /// Reads as much of a `.dia` file as is well-formed: every top-level diagnostic whose
    /// block was read to its end (with its notes), and the error that stopped the reading,
    /// if any. For a damaged or truncated file (a compiler killed while writing).
    pub fn read_partial(input: &'a [u8]) -> (Self, Option<DiagError>) {
        let mut builder = Builder::default();
        let mut stream_bit = 0u64;
        loop {
            let rest = input.get((stream_bit / 8) as usize..).unwrap_or(&[]);
            match builder.read_stream(rest, stream_bit) {
                Ok(()) => return (builder.finish(), None),
                // Another stream concatenated after this one: its magic where the next
                // top-level block would be.
                Err(StreamEnd::Concatenated(at)) => stream_bit = at,
                Err(StreamEnd::Error(e)) => {
                    builder.rollback();
                    return (builder.finish(), Some(e));
                }
            }
        }
    }

    /// The top-level diagnostics, in file order.
    pub fn iter(&self) -> Children<'_, 'a> {
        Children { diags: self, next: 0, end: self.nodes.len() as u32 }
    }

    /// Every diagnostic in file order, each followed by its notes (recursively), with its
    /// depth (0 for a top-level one): the order libclang's clients print them in.
    pub fn walk(&self) -> impl ExactSizeIterator<Item = (usize, Diagnostic<'_, 'a>)> + '_ {
        (0..self.nodes.len()).map(move |i| (self.nodes[i].depth as usize, Diagnostic { diags: self, index: i as u32 }))
    }

    /// How many diagnostics there are, notes included.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The version in the META block (the last one read), if any. clang writes [`VERSION`];
    /// clang's reader rejects a newer one, this one reads it.
    pub fn version(&self) -> Option<u64> {
        self.version
    }

    /// How many bitstreams the file held (1, or more if streams were concatenated).
    pub fn streams(&self) -> usize {
        self.streams
    }

    /// Every FILENAME record, in file order.
    pub fn files(&self) -> &[FileName<'a>] {
        &self.files
    }

    /// Every CATEGORY record, in file order.
    pub fn categories(&self) -> &[Category<'a>] {
        &self.categories
    }

    /// Every DIAG_FLAG record, in file order.
    pub fn flags(&self) -> &[Flag<'a>] {
        &self.flags
    }

    /// Every SOURCE_FILE_CONTENTS record, in file order.
    pub fn source_file_contents(&self) -> &[SourceFileContents<'a>] {
        &self.contents
    }

    /// The name of file `id` (the first FILENAME record for it, as libclang keeps). With
    /// concatenated streams, ids are per stream: this looks in all of them, first first.
    pub fn file(&self, id: u32) -> Option<&FileName<'a>> {
        self.files.iter().find(|f| f.id == id)
    }

    /// The name of category `id` (the last CATEGORY record for it).
    pub fn category(&self, id: u32) -> Option<&Category<'a>> {
        self.categories.iter().rev().find(|c| c.id == id)
    }

    /// The name of warning flag `id` (the last DIAG_FLAG record for it).
    pub fn flag(&self, id: u32) -> Option<&Flag<'a>> {
        self.flags.iter().rev().find(|f| f.id == id)
    }

    /// Blocks and records passed over, and operands ignored.
    pub fn skipped(&self) -> &[Skipped] {
        &self.skipped
    }

    fn node(&self, index: u32) -> &Node<'a> {
        &self.nodes[index as usize]
    }
}

/// One diagnostic: a handle into [`Diagnostics`]. `Display` prints it as libclang's
/// `clang_formatDiagnostic` does with the default options (see [`Diagnostic::formatted`]).
#[derive(Clone, Copy)]
pub struct Diagnostic<'d, 'a> {
    diags: &'d Diagnostics<'a>,
    index: u32,
}

impl<'d, 'a> Diagnostic<'d, 'a> {
    fn node(&self) -> &'d Node<'a> {
        self.diags.node(self.index)
    }

    /// The level.
    pub fn level(&self) -> Level {
        self.node().level
    }

    /// Where the diagnostic points (`file` is `None` for a diagnostic without a location).
    pub fn location(&self) -> Location<'a> {
        self.node().location
    }

    /// The category (`None` for id 0), e.g. "Semantic Issue", "Parse Issue".
    pub fn category(&self) -> Option<Category<'a>> {
        self.node().category
    }

    /// The warning flag that controls it (`None` for id 0: errors, notes, and warnings no
    /// flag controls), e.g. `unused-variable` for `-Wunused-variable`.
    pub fn flag(&self) -> Option<Flag<'a>> {
        self.node().flag
    }

    /// The message.
    pub fn message(&self) -> Text<'a> {
        self.node().message
    }

    /// The source ranges it highlights.
    pub fn ranges(&self) -> &'d [SourceRange<'a>] {
        let (start, end) = self.node().ranges;
        &self.diags.ranges[start as usize..end as usize]
    }

    /// The fix-its it suggests.
    pub fn fixits(&self) -> &'d [FixIt<'a>] {
        let (start, end) = self.node().fixits;
        &self.diags.fixits[start as usize..end as usize]
    }

    /// Its notes, in file order (each may have notes of its own).
    pub fn children(&self) -> Children<'d, 'a> {
        Children { diags: self.diags, next: self.index + 1, end: self.node().end }
    }

    /// Bit offset of its DIAG block.
    pub fn bit_offset(&self) -> u64 {
        self.node().block_bit
    }

    /// Bit offset of its DIAG record; `None` if the block has none (then the level is
    /// [`Level::Ignored`] and the rest empty, as libclang leaves them).
    pub fn record_bit_offset(&self) -> Option<u64> {
        self.node().record_bit
    }

    /// Its position among all diagnostics in [`Diagnostics::walk`] order.
    pub fn index(&self) -> usize {
        self.index as usize
    }
}

impl core::fmt::Debug for Diagnostic<'_, '_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Diagnostic")
            .field("level", &self.level())
            .field("location", &self.location())
            .field("category", &self.category())
            .field("flag", &self.flag())
            .field("message", &self.message())
            .field("ranges", &self.ranges())
            .field("fixits", &self.fixits())
            .field("children", &self.children().collect::<Vec<_>>())
            .finish()
    }
}

/// The diagnostics at one level: the top-level ones ([`Diagnostics::iter`]) or a
/// diagnostic's notes ([`Diagnostic::children`]).
#[derive(Clone, Debug)]
pub struct Children<'d, 'a> {
    diags: &'d Diagnostics<'a>,
    next: u32,
    end: u32,
}

impl<'d, 'a> Iterator for Children<'d, 'a> {
    type Item = Diagnostic<'d, 'a>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.next >= self.end {
            return None;
        }
        let d = Diagnostic { diags: self.diags, index: self.next };
        self.next = d.node().end;
        Some(d)
    }
}

impl core::iter::FusedIterator for Children<'_, '_> {}

/// Why the reading of one stream stopped.
enum StreamEnd {
    /// Another stream's magic at this bit offset of the input.
    Concatenated(u64),
    Error(DiagError),
}

impl From<DiagError> for StreamEnd {
    fn from(e: DiagError) -> Self {
        StreamEnd::Error(e)
    }
}

/// What an open block is.
#[derive(Clone, Copy)]
enum Open {
    Meta,
    /// A DIAG block: its node.
    Diag(u32),
}

/// The per-stream id tables: names as of now, resolved when a diagnostic is read, as
/// libclang resolves them.
#[derive(Default)]
struct Tables<'a> {
    /// libclang keeps the first FILENAME of an id (a `DenseMap::insert`).
    files: BTreeMap<u32, Text<'a>>,
    /// ... and the last CATEGORY and DIAG_FLAG (`operator[]` assignments).
    categories: BTreeMap<u32, Text<'a>>,
    flags: BTreeMap<u32, Text<'a>>,
}

#[derive(Default)]
struct Builder<'a> {
    out: Diagnostics<'a>,
    /// The owner (node index) of each entry of `out.ranges` / `out.fixits`.
    range_owners: Vec<u32>,
    fixit_owners: Vec<u32>,
    /// Sizes of the tables after the last complete top-level diagnostic.
    committed: [usize; 7],
}

impl<'a> Builder<'a> {
    fn commit(&mut self) {
        let o = &self.out;
        self.committed = [
            o.nodes.len(),
            o.ranges.len(),
            o.fixits.len(),
            o.files.len(),
            o.categories.len(),
            o.flags.len(),
            o.contents.len(),
        ];
    }

    /// Drops what an unfinished top-level diagnostic added.
    fn rollback(&mut self) {
        let [nodes, ranges, fixits, files, categories, flags, contents] = self.committed;
        let o = &mut self.out;
        o.nodes.truncate(nodes);
        o.ranges.truncate(ranges);
        self.range_owners.truncate(ranges);
        o.fixits.truncate(fixits);
        self.fixit_owners.truncate(fixits);
        o.files.truncate(files);
        o.categories.truncate(categories);
        o.flags.truncate(flags);
        o.contents.truncate(contents);
    }

    /// Reads one stream (`bytes` from its magic on, at `stream_bit` in the input).
    fn read_stream(&mut self, bytes: &'a [u8], stream_bit: u64) -> Result<(), StreamEnd> {
        let stream_err = |source| DiagError::Stream { stream_bit, source };
        let stream = Bitstream::parse(bytes).map_err(stream_err)?;
        if stream.magic() != Magic::ClangSerializedDiagnostics || stream.wrapper().is_some() {
            let magic = bytes.first_chunk::<4>().copied().unwrap_or_default();
            return Err(DiagError::NotDiagnostics { bit: stream_bit, magic }.into());
        }
        self.out.streams += 1;
        let mut tables = Tables::default();
        let mut open: Vec<Open> = Vec::new();
        let mut reader = stream.reader();
        loop {
            let entry = match reader.advance() {
                Ok(Some(entry)) => entry,
                Ok(None) => return Ok(()),
                Err(e) => {
                    let bit = e.bit_offset();
                    let at = usize::try_from(bit / 8).unwrap_or(usize::MAX);
                    let concatenated = open.is_empty()
                        && bit % 32 == 0
                        && matches!(
                            e,
                            crate::Error::EndBlockAtTopLevel { .. } | crate::Error::NotABlockAtTopLevel { .. }
                        )
                        && bytes.get(at..).is_some_and(|rest| rest.starts_with(b"DIAG"));
                    if concatenated {
                        return Err(StreamEnd::Concatenated(stream_bit + bit));
                    }
                    return Err(stream_err(e).into());
                }
            };
            match entry {
                Entry::EnterBlock(b) => {
                    let parent = open.last().copied();
                    match (b.block_id.0, parent) {
                        (BLOCKINFO_BLOCK_ID, None) => {
                            // Read (not jumped over) by the reader: later blocks need it.
                            reader.skip_block().map_err(stream_err)?;
                        }
                        (raw::BLOCK_META, None) => open.push(Open::Meta),
                        (raw::BLOCK_DIAG, None | Some(Open::Diag(_))) => {
                            let index = self.out.nodes.len() as u32;
                            self.out.nodes.push(Node {
                                level: Level::Ignored,
                                location: Location::default(),
                                category: None,
                                flag: None,
                                message: Text::default(),
                                block_bit: stream_bit + b.header_bit,
                                record_bit: None,
                                end: index + 1,
                                depth: open.len() as u32,
                                ranges: (0, 0),
                                fixits: (0, 0),
                            });
                            open.push(Open::Diag(index));
                        }
                        (block_id, _) => {
                            self.out.skipped.push(Skipped::Block { bit: stream_bit + b.header_bit, block_id });
                            reader.skip_block().map_err(stream_err)?;
                        }
                    }
                }
                Entry::EndBlock(_) => match open.pop() {
                    Some(Open::Diag(index)) => {
                        let end = self.out.nodes.len() as u32;
                        self.out.nodes[index as usize].end = end;
                        if open.is_empty() {
                            self.commit();
                        }
                    }
                    Some(Open::Meta) => {}
                    // Only blocks this loop entered end here (the others were skipped).
                    None => {}
                },
                Entry::Record { bit, .. } => {
                    let bit = stream_bit + bit;
                    let Some(&current) = open.last() else { continue };
                    let record = reader.read_record().map_err(stream_err)?;
                    let (code, ops, blob) =
                        (record.code(), record.operand_slice(), Text(record.blob().unwrap_or_default()));
                    match current {
                        Open::Meta => {
                            if code == raw::RECORD_VERSION {
                                let [version] = expect::<1>(&mut self.out.skipped, bit, code, ops)?;
                                self.out.version = Some(version);
                            } else {
                                self.out.skipped.push(Skipped::Record { bit, block_id: raw::BLOCK_META, code });
                            }
                        }
                        Open::Diag(index) => self.diag_record(&mut tables, index, bit, code, ops, blob)?,
                    }
                }
                Entry::DefineAbbrev(_) | Entry::SkippedBlock(_) => {}
            }
        }
    }

    /// A record of the DIAG block of node `index`.
    fn diag_record(
        &mut self,
        tables: &mut Tables<'a>,
        index: u32,
        bit: u64,
        code: u32,
        ops: &[u64],
        blob: Text<'a>,
    ) -> Result<(), DiagError> {
        let skipped = &mut self.out.skipped;
        match code {
            raw::RECORD_DIAG => {
                let ops = expect::<8>(skipped, bit, code, ops)?;
                let location = location(tables, bit, &ops[1..5])?;
                let category = match ops[5] as u32 {
                    0 => None,
                    id => Some(Category { id, name: tables.categories.get(&id).copied().unwrap_or_default() }),
                };
                let flag = match ops[6] as u32 {
                    0 => None,
                    id => Some(Flag { id, name: tables.flags.get(&id).copied().unwrap_or_default() }),
                };
                let node = &mut self.out.nodes[index as usize];
                node.level = Level::from_code(ops[0] as u32);
                node.location = location;
                node.category = category;
                node.flag = flag;
                node.message = blob;
                node.record_bit = Some(bit);
            }
            raw::RECORD_SOURCE_RANGE => {
                let ops = expect::<8>(skipped, bit, code, ops)?;
                let range = range(tables, bit, &ops)?;
                self.out.ranges.push(range);
                self.range_owners.push(index);
            }
            raw::RECORD_FIXIT => {
                let ops = expect::<9>(skipped, bit, code, ops)?;
                let range = range(tables, bit, &ops[..8])?;
                self.out.fixits.push(FixIt { range, replacement: blob });
                self.fixit_owners.push(index);
            }
            raw::RECORD_FILENAME => {
                let [id, size, modification_time, _len] = expect::<4>(skipped, bit, code, ops)?;
                let id = id as u32;
                tables.files.entry(id).or_insert(blob);
                self.out.files.push(FileName { id, name: blob, size, modification_time, bit });
            }
            raw::RECORD_CATEGORY => {
                let [id, _len] = expect::<2>(skipped, bit, code, ops)?;
                let id = id as u32;
                tables.categories.insert(id, blob);
                self.out.categories.push(Category { id, name: blob });
            }
            raw::RECORD_DIAG_FLAG => {
                let [id, _len] = expect::<2>(skipped, bit, code, ops)?;
                let id = id as u32;
                tables.flags.insert(id, blob);
                self.out.flags.push(Flag { id, name: blob });
            }
            raw::RECORD_SOURCE_FILE_CONTENTS => {
                let ops = expect::<10>(skipped, bit, code, ops)?;
                let file = source_file(tables, bit, ops[0])?.ok_or(DiagError::UnknownFile { bit, file: 0 })?;
                let original_range = range(tables, bit, &ops[1..9])?;
                self.out.contents.push(SourceFileContents { file, original_range, contents: blob, bit });
            }
            // clang's reader accepts a VERSION record in a DIAG block and does nothing with it.
            raw::RECORD_VERSION => {
                expect::<1>(skipped, bit, code, ops)?;
            }
            _ => skipped.push(Skipped::Record { bit, block_id: raw::BLOCK_DIAG, code }),
        }
        Ok(())
    }

    /// Gives each node its ranges and fix-its (grouping them by owner first, in case a
    /// diagnostic's records came after one of its notes).
    fn finish(mut self) -> Diagnostics<'a> {
        group_by_owner(&mut self.out.ranges, &mut self.range_owners);
        group_by_owner(&mut self.out.fixits, &mut self.fixit_owners);
        for (owner, span) in spans(&self.range_owners) {
            if let Some(node) = self.out.nodes.get_mut(owner as usize) {
                node.ranges = span;
            }
        }
        for (owner, span) in spans(&self.fixit_owners) {
            if let Some(node) = self.out.nodes.get_mut(owner as usize) {
                node.fixits = span;
            }
        }
        self.out
    }
}

/// Each owner in grouped `owners` with the span (start, end) of its entries.
fn spans(owners: &[u32]) -> impl Iterator<Item = (u32, (u32, u32))> + '_ {
    let mut start = 0;
    core::iter::from_fn(move || {
        let &owner = owners.get(start)?;
        let len = owners[start..].iter().take_while(|&&o| o == owner).count();
        let span = (start as u32, (start + len) as u32);
        start += len;
        Some((owner, span))
    })
}

/// Sorts `items` by `owners` (stably), if they are not sorted already.
fn group_by_owner<T: Copy>(items: &mut Vec<T>, owners: &mut Vec<u32>) {
    if owners.windows(2).all(|w| w[0] <= w[1]) {
        return;
    }
    let mut order: Vec<u32> = (0..owners.len() as u32).collect();
    order.sort_by_key(|&i| owners[i as usize]);
    *items = order.iter().map(|&i| items[i as usize]).collect();
    *owners = order.iter().map(|&i| owners[i as usize]).collect();
}

/// The first `N` operands of a record clang writes with `N`: an error if there are fewer,
/// the extra ones noted.
fn expect<const N: usize>(skipped: &mut Vec<Skipped>, bit: u64, code: u32, ops: &[u64]) -> Result<[u64; N], DiagError> {
    let Some(first) = ops.first_chunk::<N>() else {
        return Err(DiagError::TooFewOperands { bit, record: RecordId(code), found: ops.len(), expected: N });
    };
    if ops.len() > N {
        skipped.push(Skipped::ExtraOperands { bit, code, operands: ops.len() });
    }
    Ok(*first)
}

/// The file of a stored file id: `None` for 0, an error for an id not defined yet.
fn source_file<'a>(tables: &Tables<'a>, bit: u64, id: u64) -> Result<Option<SourceFile<'a>>, DiagError> {
    match id as u32 {
        0 => Ok(None),
        id => match tables.files.get(&id) {
            Some(&name) => Ok(Some(SourceFile { id, name })),
            None => Err(DiagError::UnknownFile { bit, file: id }),
        },
    }
}

/// A location from its four stored fields (file, line, column, offset).
fn location<'a>(tables: &Tables<'a>, bit: u64, ops: &[u64]) -> Result<Location<'a>, DiagError> {
    let [file, line, column, offset] = *ops.first_chunk::<4>().unwrap_or(&[0; 4]);
    Ok(Location {
        file: source_file(tables, bit, file)?,
        line: line as u32,
        column: column as u32,
        offset: offset as u32,
    })
}

/// A range from its eight stored fields.
fn range<'a>(tables: &Tables<'a>, bit: u64, ops: &[u64]) -> Result<SourceRange<'a>, DiagError> {
    let (start, end) = ops.split_at(4.min(ops.len()));
    Ok(SourceRange { start: location(tables, bit, start)?, end: location(tables, bit, end)? })
}
