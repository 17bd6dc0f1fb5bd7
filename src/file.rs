//! Files: a memory-mapped input that hands out borrowed readers.

use std::fs::File;
use std::io;
use std::path::Path;

use memmap2::Mmap;

use crate::error::Result;
use crate::reader::Bitstream;

/// A file mapped into memory. Owns the mapping; [`BitstreamFile::bitstream`] borrows it.
///
/// The mapping is read-only. As with any memory map, the file must not be truncated or
/// modified by another process while it is mapped.
#[derive(Debug)]
pub struct BitstreamFile {
    map: Mmap,
}

impl BitstreamFile {
    /// Maps the file at `path`.
    pub fn open(path: impl AsRef<Path>) -> io::Result<Self> {
        let file = File::open(path)?;
        // SAFETY: the map is read-only and private to this value; we never hand out
        // mutable access. Another process truncating or writing the file while it is
        // mapped is outside what Rust can guard against; the type's docs say so, as
        // memmap2's do.
        let map = unsafe { Mmap::map(&file)? };
        Ok(BitstreamFile { map })
    }

    /// The file's bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.map
    }

    /// The bitstream in the file (parses the wrapper header and magic).
    pub fn bitstream(&self) -> Result<Bitstream<'_>> {
        Bitstream::parse(&self.map)
    }
}
