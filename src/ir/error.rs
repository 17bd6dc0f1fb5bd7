//! Why a module could not be read: only structural breaks. Version skew (unknown codes,
//! kinds, linkages, extra operands) is never an error.

use thiserror::Error;

use crate::error::Error;
use crate::modules::InventoryError;

/// A structural break in a module, with the bit offset where it was found.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum IrError {
    /// The bitstream itself is malformed.
    #[error(transparent)]
    Stream(#[from] Error),
    /// The stream's modules could not be listed.
    #[error(transparent)]
    Inventory(#[from] InventoryError),
    /// A record has fewer operands than its layout needs.
    #[error("{what} record at bit {bit} has {len} operands, needs at least {needed}")]
    RecordTooShort {
        /// The record (`GLOBALVAR`, `FUNCTION`, …).
        what: &'static str,
        /// Bit offset of the record.
        bit: u64,
        /// Its operand count.
        len: usize,
        /// The least its layout takes.
        needed: usize,
    },
    /// A name (offset + size) reaches past the string table.
    #[error("name at bit {bit} (offset {offset}, size {size}) is past the {strtab_len}-byte STRTAB")]
    NameOutOfStrtab {
        /// Bit offset of the record.
        bit: u64,
        /// The name's offset.
        offset: u64,
        /// The name's size.
        size: u64,
        /// The string table's size (0 if there is none).
        strtab_len: usize,
    },
    /// A type index is not in the type table (or a non-struct type refers forward).
    #[error("type index {index} at bit {bit} is out of range (the table has {len} types)")]
    TypeOutOfRange {
        /// Bit offset of the record.
        bit: u64,
        /// The index.
        index: u64,
        /// The table's size.
        len: usize,
    },
    /// A 1-based reference to a section, GC name or comdat is out of range.
    #[error("{what} {index} at bit {bit} is out of range ({len} defined)")]
    BadReference {
        /// What is referred to (`section`, `gc`, `comdat`).
        what: &'static str,
        /// Bit offset of the record.
        bit: u64,
        /// The reference as written.
        index: u64,
        /// How many there are.
        len: usize,
    },
    /// A legacy record's type is not a pointer (the value type is its pointee), or a
    /// function's type is not a function type.
    #[error("{what} record at bit {bit}: type {index} is not {expected}")]
    WrongType {
        /// The record.
        what: &'static str,
        /// Bit offset of the record.
        bit: u64,
        /// The type index.
        index: u64,
        /// What was expected (`a pointer`, `a function type`).
        expected: &'static str,
    },
    /// The module index asked for does not exist.
    #[error("the stream has {count} modules, not {index}")]
    NoSuchModule {
        /// The index asked for.
        index: usize,
        /// How many there are.
        count: usize,
    },
}
