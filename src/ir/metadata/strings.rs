//! METADATA_STRINGS, the record that holds a metadata block's strings in bulk (LLVM 4.0
//! and later): `[count, offset]` and a blob. The blob starts with `count` string lengths,
//! vbr6 each, packed bit after bit; the characters start at byte `offset`, one string after
//! another. The metadata table reads its strings with [`MetadataStrings`], and so does
//! `bitstream-dump -dump`, which prints them as `llvm-bcanalyzer` does.

use core::fmt;

use crate::cursor::BitCursor;
use crate::error::Error;

/// The strings of one METADATA_STRINGS record, in order, each borrowed from the blob.
///
/// Reading allocates nothing. An error ends the iteration: the strings before it were
/// well formed. The count sizes nothing, so a count larger than the blob holds costs no
/// more than the blob's lengths take to read.
///
/// ```
/// use llvm_bitstream_reader::ir::{MetadataStrings, MetadataStringsError};
///
/// # fn main() -> Result<(), MetadataStringsError> {
/// // Lengths 3 and 5 (vbr6: 0b000011, 0b000101, packed from the lowest bit on), padded
/// // to 32 bits as LLVM writes them; the characters from byte 4.
/// let blob = b"\x43\x01\0\0foohello";
/// let strings = MetadataStrings::new(2, 4, blob, 0)?;
/// let all: Vec<&[u8]> = strings.collect::<Result<_, _>>()?;
/// assert_eq!(all, [&b"foo"[..], &b"hello"[..]]);
///
/// // A blob cut short ends with an error after the strings it does hold.
/// let mut strings = MetadataStrings::new(2, 4, &blob[..10], 0)?;
/// assert_eq!(strings.next(), Some(Ok(&b"foo"[..])));
/// assert!(matches!(strings.next(), Some(Err(MetadataStringsError::PastTheBlob { len: 5, .. }))));
/// assert_eq!(strings.next(), None);
/// # Ok(()) }
/// ```
#[derive(Clone, Debug)]
pub struct MetadataStrings<'a> {
    /// The lengths not read yet.
    lengths: BitCursor<'a>,
    /// The characters of the strings not read yet.
    chars: &'a [u8],
    /// How many strings are left to read.
    left: u64,
    /// The count the record gives, for errors.
    count: u64,
    /// The record's bit offset, for errors.
    bit: u64,
}

impl<'a> MetadataStrings<'a> {
    /// The strings of a METADATA_STRINGS record: its two operands (`count`, the number of
    /// strings, and `offset`, the byte offset of the characters in the blob), its blob,
    /// and `bit`, the record's bit offset, which errors report.
    ///
    /// An offset past the end of the blob is an error.
    pub fn new(count: u64, offset: u64, blob: &'a [u8], bit: u64) -> Result<Self, MetadataStringsError> {
        let Some(chars_at) = usize::try_from(offset).ok().filter(|&o| o <= blob.len()) else {
            return Err(MetadataStringsError::BadOffset { bit, offset });
        };
        let (lengths, chars) = blob.split_at(chars_at);
        Ok(MetadataStrings { lengths: BitCursor::new(lengths), chars, left: count, count, bit })
    }

    /// How many strings are left to read (the record's count, less those read).
    pub fn remaining(&self) -> u64 {
        self.left
    }
}

impl<'a> Iterator for MetadataStrings<'a> {
    type Item = Result<&'a [u8], MetadataStringsError>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        let bit = self.bit;
        let Ok(len) = self.lengths.read_vbr(6) else {
            self.left = 0;
            return Some(Err(MetadataStringsError::LengthsCutShort { bit, count: self.count }));
        };
        let Some(string) = usize::try_from(len).ok().and_then(|l| self.chars.get(..l)) else {
            self.left = 0;
            return Some(Err(MetadataStringsError::PastTheBlob { bit, len }));
        };
        self.chars = &self.chars[string.len()..];
        Some(Ok(string))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (0, usize::try_from(self.left).ok())
    }
}

impl core::iter::FusedIterator for MetadataStrings<'_> {}

/// What is wrong with a METADATA_STRINGS record ([`MetadataStrings`]). Each carries `bit`,
/// the record's bit offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum MetadataStringsError {
    /// The characters' offset is past the end of the blob.
    BadOffset {
        /// The record's bit offset.
        bit: u64,
        /// The offset the record gives.
        offset: u64,
    },
    /// The lengths end before the record's count of strings (`llvm-bcanalyzer`: "bad
    /// length").
    LengthsCutShort {
        /// The record's bit offset.
        bit: u64,
        /// The count the record gives.
        count: u64,
    },
    /// A string runs past the end of the blob (`llvm-bcanalyzer`: "truncated chars").
    PastTheBlob {
        /// The record's bit offset.
        bit: u64,
        /// The string's length.
        len: u64,
    },
}

impl MetadataStringsError {
    /// The record's bit offset.
    pub fn bit_offset(&self) -> u64 {
        match *self {
            MetadataStringsError::BadOffset { bit, .. }
            | MetadataStringsError::LengthsCutShort { bit, .. }
            | MetadataStringsError::PastTheBlob { bit, .. } => bit,
        }
    }
}

impl From<MetadataStringsError> for Error {
    fn from(e: MetadataStringsError) -> Self {
        let (what, value) = match e {
            MetadataStringsError::BadOffset { offset, .. } => ("METADATA_STRINGS character offset", offset),
            MetadataStringsError::LengthsCutShort { count, .. } => ("METADATA_STRINGS lengths (cut short)", count),
            MetadataStringsError::PastTheBlob { len, .. } => ("METADATA_STRINGS string length (past the blob)", len),
        };
        Error::InvalidValue { bit: e.bit_offset(), what, value }
    }
}

impl fmt::Display for MetadataStringsError {
    /// As the crate's [`Error`] says it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&Error::from(*self), f)
    }
}

impl core::error::Error for MetadataStringsError {}

#[cfg(test)]
mod tests {
    use alloc::string::ToString;
    use alloc::vec::Vec;

    use super::*;

    const BLOB: &[u8] = b"\x43\x01\0\0foohello";

    #[test]
    fn strings_borrow_the_blob() {
        let strings: Vec<&[u8]> = MetadataStrings::new(2, 4, BLOB, 7).unwrap().map(Result::unwrap).collect();
        assert_eq!(strings, [&b"foo"[..], &b"hello"[..]]);
        // Slices of the blob itself: the table keeps where each string is.
        assert_eq!(strings[1].as_ptr(), BLOB[7..].as_ptr());
    }

    #[test]
    fn no_strings_reads_nothing() {
        assert_eq!(MetadataStrings::new(0, 4, BLOB, 7).unwrap().count(), 0);
        assert_eq!(MetadataStrings::new(0, 0, b"", 7).unwrap().count(), 0);
    }

    #[test]
    fn errors_say_which_and_where() {
        assert_eq!(
            MetadataStrings::new(2, 13, BLOB, 7).unwrap_err(),
            MetadataStringsError::BadOffset { bit: 7, offset: 13 }
        );
        // 32 bits of lengths: 3, 5, then the padding reads as three more of 0; no sixth.
        let mut s = MetadataStrings::new(6, 4, BLOB, 7).unwrap();
        assert_eq!(s.remaining(), 6);
        assert_eq!(s.nth(2), Some(Ok(&b""[..])));
        assert_eq!(s.nth(1), Some(Ok(&b""[..])));
        assert_eq!(s.next(), Some(Err(MetadataStringsError::LengthsCutShort { bit: 7, count: 6 })));
        assert_eq!((s.next(), s.remaining()), (None, 0));
        // Lengths 3 and 5 with only "foohell" left for them.
        let mut s = MetadataStrings::new(2, 4, &BLOB[..11], 7).unwrap();
        assert_eq!(s.next(), Some(Ok(&b"foo"[..])));
        assert_eq!(s.next(), Some(Err(MetadataStringsError::PastTheBlob { bit: 7, len: 5 })));
        assert_eq!(s.next(), None);
    }

    #[test]
    fn errors_are_the_crates_errors() {
        let e = Error::from(MetadataStringsError::PastTheBlob { bit: 7, len: 5 });
        assert_eq!(e.bit_offset(), 7);
        assert_eq!(MetadataStringsError::PastTheBlob { bit: 7, len: 5 }.to_string(), e.to_string());
    }
}
