//! The one error type of the crate.

use thiserror::Error;

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
    /// An ENTER_SUBBLOCK declared an abbreviation width of 0 or more than 64.
    #[error("block {block_id} at bit {bit} declares abbreviation width {width}; it must be 1..=64")]
    InvalidAbbrevWidth {
        /// Where the ENTER_SUBBLOCK starts.
        bit: u64,
        /// The block's id.
        block_id: u32,
        /// The declared width.
        width: u32,
    },
    /// A block's declared length runs past the end of the input or of its parent.
    #[error(
        "block {block_id} at bit {bit} declares {words} words, running past the end of its container (bit {limit})"
    )]
    BlockTooLong {
        /// Where the ENTER_SUBBLOCK starts.
        bit: u64,
        /// The block's id.
        block_id: u32,
        /// The declared length in 32-bit words.
        words: u64,
        /// The bit where the input or the parent block ends.
        limit: u64,
    },
    /// A block's END_BLOCK is not where its length word said the block ends.
    #[error("block {block_id} ends at bit {bit}, but its length word said bit {expected}")]
    BlockLengthMismatch {
        /// Where the block actually ended (after alignment).
        bit: u64,
        /// The block's id.
        block_id: u32,
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
    #[error("abbreviation id {abbrev_id} at bit {bit} is not defined in block {block_id} ({defined} ids defined)")]
    UndefinedAbbrev {
        /// Where the abbreviation id starts.
        bit: u64,
        /// The id read.
        abbrev_id: u32,
        /// The block being read.
        block_id: u32,
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
}

impl Error {
    /// The bit offset the error refers to.
    pub fn bit_offset(&self) -> u64 {
        match *self {
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
            | Error::EndBlockAtTopLevel { bit }
            | Error::NotABlockAtTopLevel { bit, .. }
            | Error::UndefinedAbbrev { bit, .. }
            | Error::InvalidEncoding { bit, .. }
            | Error::EmptyAbbrev { bit }
            | Error::OperandTooWide { bit, .. }
            | Error::InvalidAbbrev { bit, .. }
            | Error::ImplausibleCount { bit, .. }
            | Error::BlobTooLong { bit, .. }
            | Error::BadBlockInfo { bit, .. }
            | Error::NotAtBlockStart { bit }
            | Error::NotAtRecord { bit }
            | Error::BadBookmark { bit, .. } => bit,
        }
    }
}

/// The crate's result type.
pub type Result<T, E = Error> = core::result::Result<T, E>;
