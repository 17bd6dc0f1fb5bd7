//! Walking a block: its direct sub-blocks, or its records, each handed to a closure; and
//! the error for a record shorter than its layout. Every block decoder of the module
//! (and of bodies, metadata and summaries) walks its block through these.

use crate::error::Error;
use crate::reader::{Entry, LazyBlock, Reader};
use crate::record::RecordRef;

/// Walks the direct sub-blocks of `block`: `f` is given each one's id with the reader
/// just inside it and says whether it read the block through its end (`Ok(true)`);
/// the others, and the block's own records, are skipped.
pub(crate) fn each_child_block<'a>(
    block: &LazyBlock<'a>,
    mut f: impl FnMut(crate::ids::BlockId, &mut Reader<'a>) -> Result<bool, Error>,
) -> Result<(), Error> {
    let mut reader = block.reader()?;
    reader.advance()?;
    while let Some(entry) = reader.advance()? {
        match entry {
            Entry::EnterBlock(b) if !f(b.block_id, &mut reader)? => {
                reader.skip_block()?;
            }
            Entry::Record { .. } => {
                reader.skip_record()?;
            }
            _ => {}
        }
    }
    Ok(())
}

/// Reads the records of the block just entered through its END_BLOCK, skipping nested
/// blocks, and hands each to `f`.
pub(crate) fn each_record<'a>(
    reader: &mut Reader<'a>,
    mut f: impl FnMut(&RecordRef<'_, 'a>) -> Result<(), Error>,
) -> Result<(), Error> {
    while let Some(entry) = reader.advance_skipping_subblocks()? {
        if let Entry::Record { .. } = entry {
            f(&reader.read_record()?)?;
        }
    }
    Ok(())
}

/// The one short-record error, for a record whose operands (after any STRTAB name:
/// `found`) are fewer than its layout needs.
pub(crate) fn short(r: &RecordRef<'_, '_>, what: &'static str, found: usize, needed: usize) -> Error {
    Error::RecordTooShort {
        bit: r.bit_offset(),
        block_id: r.block_id(),
        block_name: None,
        code: r.code(),
        record: Some(what),
        found,
        needed,
    }
}
