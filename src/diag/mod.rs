//! Clang serialized diagnostics (`.dia` files, `clang --serialize-diagnostics FILE`),
//! decoded: every diagnostic with its level, location, category, warning flag, message,
//! source ranges and fix-its, notes nested under the diagnostic they belong to, and the
//! file, category and flag tables.
//!
//! ```
//! use llvm_bitstream_reader::diag::{Diagnostics, Level};
//!
//! # fn main() -> Result<(), llvm_bitstream_reader::Error> {
//! let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/clang14_diagnostics.dia")).unwrap();
//! let diags = Diagnostics::parse(&bytes)?;
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
//! been defined before it, else [`Error::IndexOutOfRange`] naming the file id, as
//! libclang's "Corrupted file entry"; an undefined flag or category has an empty name);
//! unknown blocks and records are passed over and listed in [`Diagnostics::unknown`]. It is more lenient than clang's
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

use crate::error::Error;
use crate::ids::bitstream::raw::BLOCKINFO_BLOCK_ID;
use crate::ids::clang_diag::{self as ids, raw};
use crate::layout::{Field, RecordLayout, Unknown};
use crate::{Bitstream, Entry, Magic};

pub use format::Formatted;
pub use types::{Category, FileName, FixIt, Flag, Level, Location, SourceFile, SourceFileContents, SourceRange, Text};

/// The serialized-diagnostics version clang writes (`serialized_diags::VersionNumber`).
pub const VERSION: u64 = 2;

// The records' layouts, as clang's `SerializedDiagnosticPrinter` writes them: every field
// is required (clang's reader rejects fewer); more are kept as `Unknown::ExtraOperands`.
const V6: Field = Field::Vbr(6);
const VERSION_RECORD: RecordLayout = RecordLayout::new("Version", ids::BLOCK_META, 1, &[Field::Fixed(32)]);
const DIAG: RecordLayout =
    RecordLayout::new("DiagInfo", ids::BLOCK_DIAG, 8, &[V6, V6, V6, V6, V6, V6, V6, V6, Field::Blob]);
const SOURCE_RANGE: RecordLayout = RecordLayout::new("SrcRange", ids::BLOCK_DIAG, 8, &[V6; 8]);
const FIXIT: RecordLayout =
    RecordLayout::new("FixIt", ids::BLOCK_DIAG, 9, &[V6, V6, V6, V6, V6, V6, V6, V6, V6, Field::Blob]);
const FILENAME: RecordLayout = RecordLayout::new("FileName", ids::BLOCK_DIAG, 4, &[V6, V6, V6, V6, Field::Blob]);
const CATEGORY: RecordLayout = RecordLayout::new("CatName", ids::BLOCK_DIAG, 2, &[V6, V6, Field::Blob]);
const DIAG_FLAG: RecordLayout = RecordLayout::new("DiagFlag", ids::BLOCK_DIAG, 2, &[V6, V6, Field::Blob]);
const SOURCE_FILE_CONTENTS: RecordLayout = RecordLayout::new(
    "SourceFileContents",
    ids::BLOCK_DIAG,
    10,
    &[V6, V6, V6, V6, V6, V6, V6, V6, V6, V6, Field::Blob],
);

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
    unknown: Vec<Unknown>,
    version: Option<u64>,
    streams: usize,
}

impl<'a> Diagnostics<'a> {
    /// Reads a whole `.dia` file.
    pub fn parse(input: &'a [u8]) -> Result<Self, Error> {
        match Self::parse_partial(input) {
            (diags, None) => Ok(diags),
            (_, Some(e)) => Err(e),
        }
    }

    /// Reads as much of a `.dia` file as is well-formed: every top-level diagnostic whose
    /// block was read to its end (with its notes), and the error that stopped the reading,
    /// if any. For a damaged or truncated file (a compiler killed while writing).
    ///
    /// ```
    /// use llvm_bitstream_reader::diag::Diagnostics;
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/clang14_diagnostics.dia"))?;
    /// let whole = Diagnostics::parse(&bytes)?;
    /// let (diags, error) = Diagnostics::parse_partial(&bytes[..bytes.len() / 2]);
    /// // The diagnostics before the cut, then where it broke.
    /// assert!(diags.len() > 0 && diags.len() < whole.len());
    /// assert!(error.expect("cut").bit_offset() <= bytes.len() as u64 * 4);
    /// # Ok(()) }
    /// ```
    pub fn parse_partial(input: &'a [u8]) -> (Self, Option<Error>) {
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
                    return (builder.finish(), Some(e.with_block_names(Magic::ClangSerializedDiagnostics)));
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
    pub fn unknown(&self) -> &[Unknown] {
        &self.unknown
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
    Error(Error),
}

impl From<Error> for StreamEnd {
    fn from(e: Error) -> Self {
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

    /// Reads one stream (`bytes` from its magic on, at `stream_bit` in the input). Offsets
    /// in what it reports count from the start of the input.
    fn read_stream(&mut self, bytes: &'a [u8], stream_bit: u64) -> Result<(), StreamEnd> {
        let at_input = |e: Error| e.offset_by(stream_bit);
        let stream = Bitstream::parse(bytes).map_err(at_input)?;
        if stream.magic() != Magic::ClangSerializedDiagnostics || stream.wrapper().is_some() {
            let found = bytes.first_chunk::<4>().copied().unwrap_or_default();
            return Err(Error::WrongMagic { bit: stream_bit, expected: "clang serialized diagnostics", found }.into());
        }
        self.out.streams += 1;
        let mut tables = Tables::default();
        let mut open: Vec<Open> = Vec::new();
        let mut reader = stream.reader();
        loop {
            if open.is_empty() {
                // Between top-level blocks: another stream concatenated after this one
                // starts with its magic where the next block would (`cat a.dia b.dia`).
                let bit = reader.bit_offset();
                let rest = usize::try_from(bit / 8).ok().and_then(|at| bytes.get(at..)).unwrap_or_default();
                if bit > 32 && bit % 32 == 0 && rest.starts_with(b"DIAG") {
                    return Err(StreamEnd::Concatenated(stream_bit + bit));
                }
            }
            let Some(entry) = reader.advance().map_err(at_input)? else { return Ok(()) };
            match entry {
                Entry::EnterBlock(b) => {
                    let parent = open.last().copied();
                    match (b.block_id.0, parent) {
                        (BLOCKINFO_BLOCK_ID, None) => {
                            // Read (not jumped over) by the reader: later blocks need it.
                            reader.skip_block().map_err(at_input)?;
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
                        (_, _) => {
                            self.out
                                .unknown
                                .push(Unknown::Block { bit: stream_bit + b.header_bit, block_id: b.block_id });
                            reader.skip_block().map_err(at_input)?;
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
                    let record = reader.read_record().map_err(at_input)?;
                    let (code, ops, blob) =
                        (record.code(), record.operand_slice(), Text(record.blob().unwrap_or_default()));
                    match current {
                        Open::Meta if code == raw::RECORD_VERSION => {
                            let version = self.fields(&VERSION_RECORD, bit, code, ops)?;
                            self.out.version = Some(version[0]);
                        }
                        Open::Meta => self.out.unknown.push(Unknown::Record {
                            bit,
                            block_id: ids::BLOCK_META,
                            code,
                            operands: ops.to_vec(),
                        }),
                        Open::Diag(index) => self.diag_record(&mut tables, index, bit, code, ops, blob)?,
                    }
                }
                Entry::DefineAbbrev(_) | Entry::SkippedBlock(_) => {}
            }
        }
    }

    /// A record's operands checked against its layout (a short record is an error), the
    /// extra ones noted as unknown.
    fn fields<'r>(&mut self, layout: &RecordLayout, bit: u64, code: u32, ops: &'r [u64]) -> Result<&'r [u64], Error> {
        let fields = layout.fields_of(ops, None, bit, code)?;
        self.out.unknown.extend(fields.extra_as_unknown());
        Ok(ops)
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
    ) -> Result<(), Error> {
        match code {
            raw::RECORD_DIAG => {
                let ops = self.fields(&DIAG, bit, code, ops)?;
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
                node.level = Level::from_raw(ops[0] as u32);
                node.location = location;
                node.category = category;
                node.flag = flag;
                node.message = blob;
                node.record_bit = Some(bit);
            }
            raw::RECORD_SOURCE_RANGE => {
                let ops = self.fields(&SOURCE_RANGE, bit, code, ops)?;
                let range = range(tables, bit, &ops[..8])?;
                self.out.ranges.push(range);
                self.range_owners.push(index);
            }
            raw::RECORD_FIXIT => {
                let ops = self.fields(&FIXIT, bit, code, ops)?;
                let range = range(tables, bit, &ops[..8])?;
                self.out.fixits.push(FixIt { range, replacement: blob });
                self.fixit_owners.push(index);
            }
            raw::RECORD_FILENAME => {
                let ops = self.fields(&FILENAME, bit, code, ops)?;
                let (id, size, modification_time) = (ops[0] as u32, ops[1], ops[2]);
                tables.files.entry(id).or_insert(blob);
                self.out.files.push(FileName { id, name: blob, size, modification_time, bit });
            }
            raw::RECORD_CATEGORY => {
                let id = self.fields(&CATEGORY, bit, code, ops)?[0] as u32;
                tables.categories.insert(id, blob);
                self.out.categories.push(Category { id, name: blob });
            }
            raw::RECORD_DIAG_FLAG => {
                let id = self.fields(&DIAG_FLAG, bit, code, ops)?[0] as u32;
                tables.flags.insert(id, blob);
                self.out.flags.push(Flag { id, name: blob });
            }
            raw::RECORD_SOURCE_FILE_CONTENTS => {
                let ops = self.fields(&SOURCE_FILE_CONTENTS, bit, code, ops)?;
                let file = source_file(tables, bit, ops[0])?.ok_or(unknown_file(tables, bit, 0))?;
                let original_range = range(tables, bit, &ops[1..9])?;
                self.out.contents.push(SourceFileContents { file, original_range, contents: blob, bit });
            }
            // clang's reader accepts a VERSION record in a DIAG block and does nothing with it.
            raw::RECORD_VERSION => {
                self.fields(&VERSION_RECORD, bit, code, ops)?;
            }
            _ => {
                self.out.unknown.push(Unknown::Record { bit, block_id: ids::BLOCK_DIAG, code, operands: ops.to_vec() })
            }
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

/// A file id no FILENAME record before it defined (libclang: "Corrupted file entry in
/// source location").
fn unknown_file(tables: &Tables<'_>, bit: u64, id: u32) -> Error {
    Error::IndexOutOfRange {
        bit,
        what: "file id (no FILENAME record before it defines it)",
        index: u64::from(id),
        len: tables.files.len(),
    }
}

/// The file of a stored file id: `None` for 0, an error for an id not defined yet.
fn source_file<'a>(tables: &Tables<'a>, bit: u64, id: u64) -> Result<Option<SourceFile<'a>>, Error> {
    match id as u32 {
        0 => Ok(None),
        id => match tables.files.get(&id) {
            Some(&name) => Ok(Some(SourceFile { id, name })),
            None => Err(unknown_file(tables, bit, id)),
        },
    }
}

/// A location from its four stored fields (file, line, column, offset).
fn location<'a>(tables: &Tables<'a>, bit: u64, ops: &[u64]) -> Result<Location<'a>, Error> {
    let [file, line, column, offset] = *ops.first_chunk::<4>().unwrap_or(&[0; 4]);
    Ok(Location {
        file: source_file(tables, bit, file)?,
        line: line as u32,
        column: column as u32,
        offset: offset as u32,
    })
}

/// A range from its eight stored fields.
fn range<'a>(tables: &Tables<'a>, bit: u64, ops: &[u64]) -> Result<SourceRange<'a>, Error> {
    let (start, end) = ops.split_at(4.min(ops.len()));
    Ok(SourceRange { start: location(tables, bit, start)?, end: location(tables, bit, end)? })
}
