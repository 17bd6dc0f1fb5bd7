//! The error type of the [`legacy`](super) module.

use thiserror::Error;

use super::signature::Compression;

/// Everything that can be wrong with an LLVM 1.x bytecode file.
///
/// Every variant carries `offset`, the byte offset in the input given to
/// [`Bytecode::parse`](super::Bytecode::parse) (or to [`ByteReader`](super::ByteReader), plus its
/// base) at which the problem was found.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum LegacyError {
    /// The input does not start with `llvm` or `llvc` followed by a compression digit.
    #[error("not LLVM 1.x bytecode: no `llvm`, `llvc0`, `llvc1` or `llvc2` signature at byte {offset}")]
    NotLegacy {
        /// Byte offset (always 0).
        offset: usize,
    },
    /// `llvc` followed by something other than `0`, `1` or `2`.
    #[error("unknown compression kind {digit:#04x} after `llvc` at byte {offset}: expected '0', '1' or '2'")]
    UnknownCompression {
        /// Byte offset of the compression digit (always 4).
        offset: usize,
        /// The byte found.
        digit: u8,
    },
    /// The file is gzip- or bzip2-compressed; it must be decompressed before it is parsed.
    #[error(
        "{compression}-compressed bytecode at byte {offset}: decompress it first (`Bytecode::decompress`, feature `legacy-compression`)"
    )]
    Compressed {
        /// Byte offset of the compression digit (always 4).
        offset: usize,
        /// The compression used.
        compression: Compression,
    },
    /// A read ran past the end of the input or of the block being read.
    #[error("unexpected end of data at byte {offset} reading {what}: {needed} bytes needed, {available} available")]
    Truncated {
        /// Where the read started.
        offset: usize,
        /// What was being read.
        what: &'static str,
        /// Bytes the read needed.
        needed: usize,
        /// Bytes left before the end.
        available: usize,
    },
    /// A variable bit-rate value with more bits (or more bytes) than its type allows.
    #[error("{what} at byte {offset} does not fit in {bits} bits")]
    VbrOverflow {
        /// Where the value starts.
        offset: usize,
        /// What was being read.
        what: &'static str,
        /// The width of the type: 24, 32 or 64.
        bits: u32,
    },
    /// The first block is not the module block (long header with type 1).
    #[error("expected the module block (type 1) at byte {offset}, found type {id}")]
    NotModuleBlock {
        /// Byte offset of the module block header.
        offset: usize,
        /// The type found.
        id: u32,
    },
    /// The module block is larger than the input.
    #[error("module block at byte {offset} declares {size} bytes, but only {available} follow its header")]
    ModuleTooLong {
        /// Byte offset of the module block header.
        offset: usize,
        /// The declared size.
        size: u32,
        /// Bytes after the header.
        available: usize,
    },
    /// A block header with the reserved type 0.
    #[error("block at byte {offset} has the reserved type 0")]
    ReservedBlockType {
        /// Byte offset of the block header.
        offset: usize,
    },
    /// A block larger than what is left of its container.
    #[error("block of type {id} at byte {offset} declares {size} bytes, but its container has only {available} left")]
    BlockTooLong {
        /// Byte offset of the block header.
        offset: usize,
        /// The block's type as written.
        id: u32,
        /// The declared size.
        size: u32,
        /// Bytes between the end of the header and the end of the container.
        available: usize,
    },
    /// The 32-bit alignment after a block (bytecode versions 0 to 3) runs past the end of
    /// its container.
    #[error("alignment padding at byte {offset} runs past the end of its container at byte {end}")]
    AlignmentPastEnd {
        /// Where the padding starts.
        offset: usize,
        /// Where the container ends.
        end: usize,
    },
    /// A list length larger than the rest of the data could hold (every item takes a byte).
    #[error("{what} {count} at byte {offset} is larger than the {remaining} remaining bytes could hold")]
    ImplausibleCount {
        /// Where the count starts.
        offset: usize,
        /// What was being counted.
        what: &'static str,
        /// The count read.
        count: u64,
        /// Bytes left after the count.
        remaining: usize,
    },
    /// A list item decoder that consumed no bytes (it would loop forever on a zlist).
    #[error("list item at byte {offset} consumed no bytes")]
    EmptyListItem {
        /// Where the item starts.
        offset: usize,
    },
    /// The compressed data is damaged or is not in the format its signature names.
    #[error("{compression} data at byte {offset} could not be decompressed: {reason}")]
    Decompression {
        /// Byte offset of the compressed data (always 5).
        offset: usize,
        /// The compression named by the signature.
        compression: Compression,
        /// What went wrong.
        reason: &'static str,
    },
    /// The contents break a rule of the format: a type or value reference out of range,
    /// an impossible operand count, a value that does not fit its type.
    #[error("malformed bytecode at byte {offset}: {what} ({value})")]
    Malformed {
        /// Where the offending item starts.
        offset: usize,
        /// What is wrong.
        what: &'static str,
        /// The offending number (a type id, a count, an opcode).
        value: u64,
    },
    /// A bytecode version newer than the format description (above 5): its blocks walk,
    /// but its contents are not decoded.
    #[error(
        "bytecode version {version} at byte {offset} is newer than the format description (0 to 5): contents not decoded"
    )]
    UnsupportedVersion {
        /// Byte offset of the format information.
        offset: usize,
        /// The version found.
        version: u32,
    },
    /// Decompression would produce more than
    /// [`decompression_limit`](super::decompression_limit) bytes.
    #[error("decompressed data at byte {offset} exceeds the limit of {limit} bytes")]
    DecompressedTooLarge {
        /// Byte offset of the compressed data (always 5).
        offset: usize,
        /// The limit in bytes.
        limit: usize,
    },
}

impl LegacyError {
    /// The bit offset the error refers to: [`byte_offset`](Self::byte_offset) times 8
    /// (LLVM 1.x bytecode is read byte by byte), for reporting alongside the bitstream
    /// layers' [`Error::bit_offset`](crate::Error::bit_offset).
    pub fn bit_offset(&self) -> u64 {
        self.byte_offset() as u64 * 8
    }

    /// The byte offset the error refers to.
    pub fn byte_offset(&self) -> usize {
        match *self {
            LegacyError::NotLegacy { offset }
            | LegacyError::UnknownCompression { offset, .. }
            | LegacyError::Compressed { offset, .. }
            | LegacyError::Truncated { offset, .. }
            | LegacyError::VbrOverflow { offset, .. }
            | LegacyError::NotModuleBlock { offset, .. }
            | LegacyError::ModuleTooLong { offset, .. }
            | LegacyError::ReservedBlockType { offset }
            | LegacyError::BlockTooLong { offset, .. }
            | LegacyError::AlignmentPastEnd { offset, .. }
            | LegacyError::ImplausibleCount { offset, .. }
            | LegacyError::EmptyListItem { offset }
            | LegacyError::Decompression { offset, .. }
            | LegacyError::Malformed { offset, .. }
            | LegacyError::UnsupportedVersion { offset, .. }
            | LegacyError::DecompressedTooLarge { offset, .. } => offset,
        }
    }
}
