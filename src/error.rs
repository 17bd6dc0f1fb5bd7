//! The one read error of the crate, for every layer: the bitstream, IR modules and their
//! symbol tables, clang diagnostics and remarks.
//!
//! Every variant says where, as a bit offset ([`Error::bit_offset`]; [`Error::byte_offset`]
//! for tools that think in bytes), and names blocks and records as `llvm-bcanalyzer` does
//! where the stream's kind is known. A message never repeats its source: no variant has one.

use core::fmt;

use thiserror::Error;

use crate::ids::BlockId;

/// Prints a block as errors name it: `FUNCTION_BLOCK (12)`, or `block 12` where its
/// name is not known.
struct BlockLabel<'a>(BlockId, &'a Option<&'static str>);

impl fmt::Display for BlockLabel<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.1 {
            Some(name) => write!(f, "{name} ({})", self.0),
            None => write!(f, "block {}", self.0),
        }
    }
}

/// Prints a record as errors name it: `GLOBALVAR`, or `record 7 of FUNCTION_BLOCK (12)`.
struct RecordLabel<'a>(&'a Option<&'static str>, u32, BlockId, &'a Option<&'static str>);

impl fmt::Display for RecordLabel<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(name) => write!(f, "{name} record (code {}) of {}", self.1, BlockLabel(self.2, self.3)),
            None => write!(f, "record {} of {}", self.1, BlockLabel(self.2, self.3)),
        }
    }
}

fn found_block(found: &Option<(BlockId, Option<&'static str>)>) -> alloc::string::String {
    match found {
        Some((id, name)) => alloc::format!("{}", BlockLabel(*id, name)),
        None => "the end of the stream".into(),
    }
}

/// Everything that can be wrong with an input.
///
/// Every variant carries `bit`, the offset in bits, counted from the first bit of the
/// stream's magic (after any wrapper header), at which the problem was found; for the
/// wrapper header it is counted from the start of the input.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum Error {
    /// The input is shorter than the 4-byte magic.
    #[error("input of {len} bytes is too short for a 4-byte magic (bit {bit})")]
    TooShortForMagic {
        /// Bit offset (always 0).
        bit: u64,
        /// Input length in bytes.
        len: usize,
    },
    /// A read ran past the end of the input (or of the block being read).
    #[error("unexpected end of input at bit {bit}: {needed} more bits needed, {available} available")]
    UnexpectedEof {
        /// Where the read started.
        bit: u64,
        /// Bits the read needed.
        needed: u64,
        /// Bits left before the end.
        available: u64,
    },
    /// A fixed-width read wider than 64 bits was asked for.
    #[error("fixed-width read of {width} bits at bit {bit}: at most 64 bits can be read")]
    InvalidFixedWidth {
        /// Where the read was asked for.
        bit: u64,
        /// The width asked for.
        width: u32,
    },
    /// A VBR read with a chunk width outside 1..=32 was asked for.
    #[error("VBR read with chunk width {width} at bit {bit}: chunk width must be 1..=32")]
    InvalidVbrWidth {
        /// Where the read was asked for.
        bit: u64,
        /// The chunk width asked for.
        width: u32,
    },
    /// A VBR value did not end within the bits its type allows (32 or 64).
    #[error("unterminated VBR at bit {bit}: more than {max_bits} value bits")]
    UnterminatedVbr {
        /// Where the VBR started.
        bit: u64,
        /// 32 or 64.
        max_bits: u32,
    },
    /// The wrapper header is malformed.
    #[error("bad bitcode wrapper header at bit {bit}: {reason}")]
    BadWrapper {
        /// Bit offset in the input of the offending field.
        bit: u64,
        /// What was wrong.
        reason: &'static str,
    },
    /// A block declares an abbreviation width of 0 or more than 64: reported when the
    /// block is entered (the first `advance` inside it), never when it is skipped, as in
    /// LLVM. `bit` is the block's ENTER_SUBBLOCK.
    #[error("{} at bit {bit} declares abbreviation width {width}; it must be 1..=64", BlockLabel(*block_id, block_name))]
    InvalidAbbrevWidth {
        /// Where the block's ENTER_SUBBLOCK starts.
        bit: u64,
        /// The block's id.
        block_id: BlockId,
        /// The block's name, where the stream's kind names it.
        block_name: Option<&'static str>,
        /// The declared width.
        width: u32,
    },
    /// A block's declared length runs past the end of the input or of its parent.
    #[error(
        "{} at bit {bit} declares {words} words, running past the end of its container (bit {limit})", BlockLabel(*block_id, block_name)
    )]
    BlockTooLong {
        /// Where the ENTER_SUBBLOCK starts.
        bit: u64,
        /// The block's id.
        block_id: BlockId,
        /// The block's name, where the stream's kind names it.
        block_name: Option<&'static str>,
        /// The declared length in 32-bit words.
        words: u64,
        /// The bit where the input or the parent block ends.
        limit: u64,
    },
    /// A block's END_BLOCK is not where its length word said the block ends.
    #[error("{} ends at bit {bit}, but its length word said bit {expected}", BlockLabel(*block_id, block_name))]
    BlockLengthMismatch {
        /// Where the block actually ended (after alignment).
        bit: u64,
        /// The block's id.
        block_id: BlockId,
        /// The block's name, where the stream's kind names it.
        block_name: Option<&'static str>,
        /// Where the length word said it ends.
        expected: u64,
    },
    /// Blocks nested deeper than [`MAX_BLOCK_DEPTH`](crate::limits::MAX_BLOCK_DEPTH).
    #[error("block nesting deeper than {max} at bit {bit}")]
    TooDeep {
        /// Where the ENTER_SUBBLOCK starts.
        bit: u64,
        /// The limit.
        max: usize,
    },
    /// END_BLOCK at the top level, where no block is open.
    #[error("END_BLOCK at top level at bit {bit}")]
    EndBlockAtTopLevel {
        /// Where the abbreviation id starts.
        bit: u64,
    },
    /// Something other than a block at the top level.
    #[error("abbreviation id {abbrev_id} at top level at bit {bit}: only blocks may appear there")]
    NotABlockAtTopLevel {
        /// Where the abbreviation id starts.
        bit: u64,
        /// The id read.
        abbrev_id: u32,
    },
    /// An abbreviation id that no DEFINE_ABBREV (local or from BLOCKINFO) has defined.
    #[error("abbreviation id {abbrev_id} at bit {bit} is not defined in {} ({defined} ids defined)", BlockLabel(*block_id, block_name))]
    UndefinedAbbrev {
        /// Where the abbreviation id starts.
        bit: u64,
        /// The id read.
        abbrev_id: u32,
        /// The block being read.
        block_id: BlockId,
        /// The block's name, where the stream's kind names it.
        block_name: Option<&'static str>,
        /// How many application abbreviations are defined.
        defined: usize,
    },
    /// A DEFINE_ABBREV operand with encoding 0, 6 or 7.
    #[error("DEFINE_ABBREV at bit {bit} uses invalid operand encoding {encoding}")]
    InvalidEncoding {
        /// Where the operand starts.
        bit: u64,
        /// The encoding read.
        encoding: u8,
    },
    /// A DEFINE_ABBREV with no operands.
    #[error("DEFINE_ABBREV at bit {bit} has no operands")]
    EmptyAbbrev {
        /// Where the DEFINE_ABBREV starts.
        bit: u64,
    },
    /// A `Fixed` or `VBR` operand wider than 64 bits.
    #[error("DEFINE_ABBREV at bit {bit} has a Fixed or VBR operand of width {width} (at most 64)")]
    OperandTooWide {
        /// Where the operand starts.
        bit: u64,
        /// The width read.
        width: u64,
    },
    /// A record used an abbreviation that cannot be applied (found when it is used, as in LLVM).
    #[error("record at bit {bit} uses an invalid abbreviation: {reason}")]
    InvalidAbbrev {
        /// Where the record starts.
        bit: u64,
        /// What is wrong with the abbreviation.
        reason: &'static str,
    },
    /// An operand or element count larger than the input could hold.
    #[error("{what} count {count} at bit {bit} is larger than the input could hold")]
    ImplausibleCount {
        /// Where the count was read.
        bit: u64,
        /// What was being counted.
        what: &'static str,
        /// The count read.
        count: u64,
    },
    /// A blob that runs past the end of the input.
    #[error("blob of {len} bytes at bit {bit} runs past the end of the input")]
    BlobTooLong {
        /// Where the blob's data starts.
        bit: u64,
        /// Its declared length in bytes.
        len: u64,
    },
    /// A malformed BLOCKINFO block.
    #[error("malformed BLOCKINFO block at bit {bit}: {reason}")]
    BadBlockInfo {
        /// Where the offending entry starts.
        bit: u64,
        /// What was wrong.
        reason: &'static str,
    },
    /// [`Reader::skip_block`](crate::Reader::skip_block) called other than right after a block was entered.
    #[error("skip_block at bit {bit} must directly follow an EnterBlock event")]
    NotAtBlockStart {
        /// The reader's position.
        bit: u64,
    },
    /// [`Reader::read_record`](crate::Reader::read_record) or
    /// [`Reader::skip_record`](crate::Reader::skip_record) called other than right after
    /// [`Reader::advance`](crate::Reader::advance) reported a record.
    #[error("no record to read at bit {bit}: read_record and skip_record must directly follow Entry::Record")]
    NotAtRecord {
        /// The reader's position.
        bit: u64,
    },
    /// A bookmark that does not fit the stream it is used with.
    #[error("bookmark for block at bit {bit} does not fit this stream: {reason}")]
    BadBookmark {
        /// The bookmark's content offset.
        bit: u64,
        /// What was wrong.
        reason: &'static str,
    },

    // ---- Shapes every decoding layer shares -------------------------------------------
    /// The input is not the kind of stream asked for (`Diagnostics::parse` given bitcode, …).
    #[error("not {expected}: the stream starts with {found:02x?} (bit {bit})")]
    WrongMagic {
        /// Where the magic is (0, or the start of a concatenated stream).
        bit: u64,
        /// What was asked for, e.g. `LLVM IR bitcode`.
        expected: &'static str,
        /// The first four bytes found.
        found: [u8; 4],
    },
    /// A known record with fewer operands than its layout needs (see
    /// [`RecordLayout`](crate::RecordLayout)).
    #[error("{} at bit {bit} has {found} operands; it needs at least {needed}", RecordLabel(record, *code, *block_id, block_name))]
    RecordTooShort {
        /// Where the record starts.
        bit: u64,
        /// The block it is in.
        block_id: BlockId,
        /// The block's name, where known.
        block_name: Option<&'static str>,
        /// Its code.
        code: u32,
        /// Its name, where known (`GLOBALVAR`, `DiagInfo`, …).
        record: Option<&'static str>,
        /// How many operands it has.
        found: usize,
        /// How many its layout needs.
        needed: usize,
    },
    /// A block is missing where the format always puts one.
    #[error("expected {expected} at bit {bit}, found {}", found_block(found))]
    ExpectedBlock {
        /// Where.
        bit: u64,
        /// The block expected (`MODULE_BLOCK`, `META_BLOCK`).
        expected: &'static str,
        /// The block found instead and its name; `None`: the end of the stream.
        found: Option<(BlockId, Option<&'static str>)>,
    },
    /// A block lacks a record the format needs.
    #[error("{block} at bit {bit} has no {record} record")]
    MissingRecord {
        /// Where the block starts.
        bit: u64,
        /// The block (`META_BLOCK`, `REMARK_BLOCK`).
        block: &'static str,
        /// The record (`container info`, `remark header`).
        record: &'static str,
    },
    /// A version no known writer has produced.
    #[error("unsupported {what} {version} at bit {bit} (known: {known})")]
    UnsupportedVersion {
        /// Where the version is.
        bit: u64,
        /// Which version (`remark container version`, `SYMTAB storage version`).
        what: &'static str,
        /// The version read.
        version: u64,
        /// The versions that are read, e.g. `0 up to LLVM 21, 1 from LLVM 22`.
        known: &'static str,
    },
    /// A field whose value the format does not define (and that cannot be kept as unknown
    /// because what follows depends on it).
    #[error("invalid {what} {value} at bit {bit}")]
    InvalidValue {
        /// Where the field is.
        bit: u64,
        /// What the field is.
        what: &'static str,
        /// The value read.
        value: u64,
    },
    /// A reference by index to something that does not exist: a type, a string, a file id,
    /// a section, a comdat, a module.
    #[error("{what} {index} at bit {bit} is out of range ({len} defined)")]
    IndexOutOfRange {
        /// Where the reference is.
        bit: u64,
        /// What is referred to (`type`, `string`, `file id`, `comdat`, …).
        what: &'static str,
        /// The index as written.
        index: u64,
        /// How many there are.
        len: usize,
    },
    /// A byte range (offset + size) that runs past the end of the data it points into: a
    /// name in STRTAB, a table or string of the SYMTAB blob.
    #[error("{what} at bit {bit} ({size} bytes at offset {offset}) runs past the end of the {len}-byte {table}")]
    RangeOutOfBounds {
        /// Where the reference is.
        bit: u64,
        /// What the range is (`name`, `symbol table`, `module name`, …).
        what: &'static str,
        /// The data it points into (`STRTAB`, `SYMTAB blob`).
        table: &'static str,
        /// The range's offset.
        offset: u64,
        /// Its size in bytes.
        size: u64,
        /// The size of the data.
        len: usize,
    },
    /// A value of the wrong type where the format needs a particular one.
    #[error("{what} at bit {bit}: type {index} is not {expected}")]
    WrongType {
        /// What holds the value (`GLOBALVAR record`, `FUNCTION record`).
        what: &'static str,
        /// Where.
        bit: u64,
        /// The type index.
        index: u64,
        /// What was expected (`a pointer`, `a function type`).
        expected: &'static str,
    },
    /// Data the stream points at but does not contain, and where to find it.
    #[error("{what} at bit {bit} is not in this stream: {hint}")]
    NotInStream {
        /// Where the reference is (the META block, …).
        bit: u64,
        /// What is missing (`the string table of a separate remarks file`).
        what: &'static str,
        /// Where it is, and what to do.
        hint: &'static str,
    },
    /// Two inputs given together that do not belong together.
    #[error("cannot combine these inputs (bit {bit}): {reason}")]
    Mismatch {
        /// Where in the second input.
        bit: u64,
        /// Why.
        reason: &'static str,
    },
    // ---- (layers add variants above this line, in their own groups) --------------------
}

/// The `bit` field of every variant, as `&u64` or `&mut u64` as `$error` is borrowed: the
/// one list of the variants that [`Error::bit_offset`] and [`Error::offset_by`] share.
macro_rules! bit_of {
    ($error:expr) => {
        match $error {
            Error::TooShortForMagic { bit, .. }
            | Error::UnexpectedEof { bit, .. }
            | Error::InvalidFixedWidth { bit, .. }
            | Error::InvalidVbrWidth { bit, .. }
            | Error::UnterminatedVbr { bit, .. }
            | Error::BadWrapper { bit, .. }
            | Error::InvalidAbbrevWidth { bit, .. }
            | Error::BlockTooLong { bit, .. }
            | Error::BlockLengthMismatch { bit, .. }
            | Error::TooDeep { bit, .. }
            | Error::EndBlockAtTopLevel { bit, .. }
            | Error::NotABlockAtTopLevel { bit, .. }
            | Error::UndefinedAbbrev { bit, .. }
            | Error::InvalidEncoding { bit, .. }
            | Error::EmptyAbbrev { bit, .. }
            | Error::OperandTooWide { bit, .. }
            | Error::InvalidAbbrev { bit, .. }
            | Error::ImplausibleCount { bit, .. }
            | Error::BlobTooLong { bit, .. }
            | Error::BadBlockInfo { bit, .. }
            | Error::NotAtBlockStart { bit, .. }
            | Error::NotAtRecord { bit, .. }
            | Error::BadBookmark { bit, .. }
            | Error::WrongMagic { bit, .. }
            | Error::RecordTooShort { bit, .. }
            | Error::ExpectedBlock { bit, .. }
            | Error::MissingRecord { bit, .. }
            | Error::UnsupportedVersion { bit, .. }
            | Error::InvalidValue { bit, .. }
            | Error::IndexOutOfRange { bit, .. }
            | Error::RangeOutOfBounds { bit, .. }
            | Error::WrongType { bit, .. }
            | Error::NotInStream { bit, .. }
            | Error::Mismatch { bit, .. } => bit,
        }
    };
}

impl Error {
    /// The bit offset the error refers to.
    pub fn bit_offset(&self) -> u64 {
        *bit_of!(self)
    }

    /// The byte the error refers to: [`bit_offset`](Self::bit_offset) / 8, for tools
    /// (hex dumps, `xxd -s`) that count bytes.
    pub fn byte_offset(&self) -> u64 {
        self.bit_offset() / 8
    }

    /// The same error with its offset moved `base` bits later: for a stream found inside
    /// a larger input (a concatenated file, a section of an object), so the offset counts
    /// from the start of that input.
    #[must_use]
    pub fn offset_by(mut self, base: u64) -> Self {
        match &mut self {
            Error::BlockTooLong { limit: end, .. } | Error::BlockLengthMismatch { expected: end, .. } => {
                *end = end.saturating_add(base);
            }
            _ => {}
        }
        let bit = bit_of!(&mut self);
        *bit = bit.saturating_add(base);
        self
    }
}

/// The crate's result type.
pub type Result<T, E = Error> = core::result::Result<T, E>;
