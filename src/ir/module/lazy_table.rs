//! Tables of a module that [`Module::parse`](crate::ir::Module::parse) skips and that are read
//! on first use: the attribute groups and lists, whose records (strings of attribute
//! groups included) are a large part of a module's records and that symbols and most
//! users never look at.

use alloc::vec::Vec;
use core::fmt;
use core::ops::Deref;

use crate::error::Error;
use crate::reader::{LazyBlock, Reader};

#[cfg(feature = "std")]
pub(crate) type Once<T> = std::sync::OnceLock<T>;
#[cfg(not(feature = "std"))]
pub(crate) type Once<T> = core::cell::OnceCell<T>;

/// Reads one block's entries (the reader is just inside it) onto the vector.
pub(crate) type DecodeBlock<'a, T> = fn(&mut Reader<'a>, &mut Vec<T>) -> Result<(), Error>;

/// A table of a module read on first use (dereferencing it, as a slice, reads it): the
/// blocks that hold it are kept skipped until then. Reading stops at the first
/// structural break, keeping the entries before it; [`LazyTable::error`] tells what
/// broke. (`Sync` with the `std` feature; without it, a `core::cell::OnceCell` holds the
/// entries.)
pub struct LazyTable<'a, T> {
    blocks: Vec<LazyBlock<'a>>,
    decode: DecodeBlock<'a, T>,
    table: Once<(Vec<T>, Option<Error>)>,
}

impl<'a, T> LazyTable<'a, T> {
    pub(crate) fn new(decode: DecodeBlock<'a, T>) -> Self {
        LazyTable { blocks: Vec::new(), decode, table: Once::new() }
    }

    pub(crate) fn push_block(&mut self, block: LazyBlock<'a>) {
        self.blocks.push(block);
        self.table = Once::new();
    }

    /// The blocks the table is read from, in stream order.
    pub fn blocks(&self) -> &[LazyBlock<'a>] {
        &self.blocks
    }

    /// The structural break that ended reading the table early, if one did (reading it
    /// first, if it was not yet read).
    pub fn error(&self) -> Option<&Error> {
        self.read().1.as_ref()
    }

    fn read(&self) -> &(Vec<T>, Option<Error>) {
        self.table.get_or_init(|| {
            let mut entries = Vec::new();
            for block in &self.blocks {
                let read = block.reader().and_then(|mut reader| {
                    // The block reader's first entry is the block itself.
                    reader.advance()?;
                    (self.decode)(&mut reader, &mut entries)
                });
                if let Err(e) = read {
                    return (entries, Some(e));
                }
            }
            (entries, None)
        })
    }
}

impl<T> Deref for LazyTable<'_, T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        &self.read().0
    }
}

impl<'t, T> IntoIterator for &'t LazyTable<'_, T> {
    type Item = &'t T;
    type IntoIter = core::slice::Iter<'t, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<T: Clone> Clone for LazyTable<'_, T> {
    fn clone(&self) -> Self {
        LazyTable { blocks: self.blocks.clone(), decode: self.decode, table: self.table.clone() }
    }
}

impl<T: fmt::Debug> fmt::Debug for LazyTable<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

#[cfg(feature = "serde")]
impl<T: serde::Serialize> serde::Serialize for LazyTable<'_, T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        (**self).serialize(serializer)
    }
}
