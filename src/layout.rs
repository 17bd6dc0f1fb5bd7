//! Declared record layouts, read tolerantly, and what a decoder keeps but does not know.
//!
//! ```
//! use llvm_bitstream_reader::{Bitstream, Entry, Field, RecordLayout, ids::llvm_ir};
//!
//! // The module's VERSION record: one field, which every writer writes.
//! const VERSION: RecordLayout = RecordLayout::new("VERSION", llvm_ir::MODULE_BLOCK_ID, 1, &[Field::Vbr(6)]);
//!
//! # fn main() -> Result<(), llvm_bitstream_reader::Error> {
//! # let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/llvm14_ir_globals.bc")).unwrap();
//! let mut reader = Bitstream::parse(&bytes)?.reader();
//! while let Some(entry) = reader.advance()? {
//!     match entry {
//!         Entry::EnterBlock(b) if b.block_id == llvm_ir::MODULE_BLOCK_ID => {
//!             // The records of the module block itself; its sub-blocks are skipped.
//!             while let Some(entry) = reader.advance_skipping_subblocks()? {
//!                 let Entry::Record { .. } = entry else { continue }; // a skipped sub-block
//!                 let record = reader.read_record()?;
//!                 if record.code() == llvm_ir::MODULE_CODE_VERSION {
//!                     let fields = VERSION.read(&record)?; // an error if it has no operand
//!                     assert_eq!(fields.get(0), 2);
//!                     assert!(fields.extra().is_empty()); // newer writers' extra operands land here
//!                 }
//!             }
//!         }
//!         Entry::EnterBlock(_) => drop(reader.skip_block()?),
//!         _ => {}
//!     }
//! }
//! # Ok(()) }
//! ```
//!
//! Seed 002 (Swift's notes on evolving bitstream formats) asks a reader to tolerate records
//! written by newer and older writers: fields appended at the end, and fields an older
//! writer did not have. A [`RecordLayout`] declares a record's fields once; reading one
//! checks only that the fields every writer has are there ([`Error::RecordTooShort`] names
//! the record and says how many), gives the optional ones as `Option`s, and keeps trailing
//! fields it does not declare ([`Fields::extra`]). The same layout gives the writer its
//! abbreviation (with the `writer` feature).

use alloc::vec::Vec;

use crate::error::{Error, Result};
use crate::ids::BlockId;
use crate::record::RecordRef;

/// How a field of a [`RecordLayout`] is encoded when the record is abbreviated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Field {
    /// A fixed-width field of this many bits.
    Fixed(u8),
    /// A variable-width field with chunks of this many bits.
    Vbr(u8),
    /// A 6-bit character (`[a-zA-Z0-9._]`).
    Char6,
    /// The rest of the record: an array of elements encoded as the inner field
    /// (`Fixed`, `Vbr` or `Char6`). Only last.
    Array(ArrayElement),
    /// The rest of the record: a blob. Only last.
    Blob,
}

/// The element encoding of a [`Field::Array`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ArrayElement {
    /// Fixed-width elements of this many bits.
    Fixed(u8),
    /// Variable-width elements with chunks of this many bits.
    Vbr(u8),
    /// 6-bit characters.
    Char6,
}

/// A record's declared fields: its name, its block, how many of its leading fields every
/// writer writes, and how each field is encoded.
///
/// Built in `const` context, once per record kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RecordLayout {
    /// The record's name as `llvm-bcanalyzer` prints it (`VERSION`, `DiagInfo`).
    pub name: &'static str,
    /// The block it belongs to.
    pub block_id: BlockId,
    /// How many leading fields every writer writes: fewer is [`Error::RecordTooShort`].
    pub required: usize,
    /// Every declared field, in order; fields past `required` are optional.
    pub fields: &'static [Field],
}

impl RecordLayout {
    /// A layout of `fields`, the first `required` of which every writer writes.
    pub const fn new(name: &'static str, block_id: BlockId, required: usize, fields: &'static [Field]) -> Self {
        RecordLayout { name, block_id, required, fields }
    }

    /// How many operands the declared scalar fields take (an array or blob counts none).
    pub const fn scalar_fields(&self) -> usize {
        let mut n = 0;
        while n < self.fields.len() {
            if matches!(self.fields[n], Field::Array(_) | Field::Blob) {
                break;
            }
            n += 1;
        }
        n
    }

    /// Checks `record` against the layout: an error naming the record if it has fewer
    /// than [`required`](Self::required) operands; otherwise its fields, borrowed.
    pub fn read<'r, 'a>(&self, record: &RecordRef<'r, 'a>) -> Result<Fields<'r, 'a>> {
        self.fields_of(record.operand_slice(), record.blob(), record.bit_offset(), record.code())
    }

    /// [`read`](Self::read), noting extra operands (a newer writer's) in `unknown` as
    /// [`Unknown::ExtraOperands`]: what a decoder that reports what it skips calls.
    pub fn read_noting_extra<'r, 'a>(
        &self,
        record: &RecordRef<'r, 'a>,
        unknown: &mut Vec<Unknown>,
    ) -> Result<Fields<'r, 'a>> {
        let fields = self.read(record)?;
        unknown.extend(fields.extra_as_unknown());
        Ok(fields)
    }

    /// [`read`](Self::read) over operands already taken out of a record.
    pub fn fields_of<'r, 'a>(
        &self,
        operands: &'r [u64],
        blob: Option<&'a [u8]>,
        bit: u64,
        code: u32,
    ) -> Result<Fields<'r, 'a>> {
        if operands.len() < self.required {
            return Err(Error::RecordTooShort {
                bit,
                block_id: self.block_id,
                block_name: None,
                code,
                record: Some(self.name),
                found: operands.len(),
                needed: self.required,
            });
        }
        let open_ended = matches!(self.fields.last(), Some(Field::Array(_) | Field::Blob));
        Ok(Fields { operands, declared: self.scalar_fields(), open_ended, blob, bit, code, block_id: self.block_id })
    }
}

/// A record's fields as a [`RecordLayout`] reads them: borrowed, nothing copied.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fields<'r, 'a> {
    operands: &'r [u64],
    declared: usize,
    /// Whether the layout ends with an array or a blob, which takes every operand left.
    open_ended: bool,
    blob: Option<&'a [u8]>,
    bit: u64,
    code: u32,
    block_id: BlockId,
}

impl<'r, 'a> Fields<'r, 'a> {
    /// Field `i`: for a required field always there; past the record's operands, 0.
    #[inline]
    pub fn get(&self, i: usize) -> u64 {
        self.operands.get(i).copied().unwrap_or(0)
    }

    /// Field `i` if the record has it: for optional fields, which older writers leave out.
    #[inline]
    pub fn opt(&self, i: usize) -> Option<u64> {
        self.operands.get(i).copied()
    }

    /// Every operand from `i` on (an array field, or a string of characters).
    pub fn from(&self, i: usize) -> &'r [u64] {
        self.operands.get(i..).unwrap_or_default()
    }

    /// Operands past the declared scalar fields, which a newer writer added: kept, not an
    /// error. Empty when the layout ends with an array (the array takes them).
    pub fn extra(&self) -> &'r [u64] {
        if self.open_ended {
            return &[];
        }
        self.operands.get(self.declared..).unwrap_or_default()
    }

    /// The extra operands as a decoder reports them: [`Unknown::ExtraOperands`] if there
    /// are any (and the layout does not end with an array, which takes them).
    pub fn extra_as_unknown(&self) -> Option<Unknown> {
        (!self.extra().is_empty()).then_some(Unknown::ExtraOperands {
            bit: self.bit,
            block_id: self.block_id,
            code: self.code,
            operands: self.operands.len(),
        })
    }

    /// Every operand.
    pub fn operands(&self) -> &'r [u64] {
        self.operands
    }

    /// How many operands the record has.
    pub fn len(&self) -> usize {
        self.operands.len()
    }

    /// Whether the record has no operands.
    pub fn is_empty(&self) -> bool {
        self.operands.is_empty()
    }

    /// The record's blob, borrowed from the input.
    pub fn blob(&self) -> Option<&'a [u8]> {
        self.blob
    }
}

/// Content a decoder met but does not interpret, kept and reported instead of rejected:
/// the one "unknown" of every layer (IR modules, diagnostics, remarks).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub enum Unknown {
    /// A block that has no place where it was found; it was skipped.
    Block {
        /// Bit offset of its ENTER_SUBBLOCK.
        bit: u64,
        /// Its id.
        block_id: BlockId,
    },
    /// A record with a code the decoder does not know in its block, with its operands.
    Record {
        /// Bit offset of its abbreviation id.
        bit: u64,
        /// The block it is in.
        block_id: BlockId,
        /// Its code.
        code: u32,
        /// Its operands, as read.
        operands: Vec<u64>,
    },
    /// A known record with more operands than its layout declares; the extra ones are not
    /// interpreted.
    ExtraOperands {
        /// Bit offset of its abbreviation id.
        bit: u64,
        /// The block it is in.
        block_id: BlockId,
        /// Its code.
        code: u32,
        /// How many operands it has.
        operands: usize,
    },
}

impl Unknown {
    /// Where it is, in bits.
    pub fn bit_offset(&self) -> u64 {
        match *self {
            Unknown::Block { bit, .. } | Unknown::Record { bit, .. } | Unknown::ExtraOperands { bit, .. } => bit,
        }
    }

    /// The block it is (or is in).
    pub fn block_id(&self) -> BlockId {
        match *self {
            Unknown::Block { block_id, .. }
            | Unknown::Record { block_id, .. }
            | Unknown::ExtraOperands { block_id, .. } => block_id,
        }
    }
}
