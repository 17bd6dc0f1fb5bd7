//! The signature an LLVM 1.x bytecode file starts with (`llvm`, or `llvc` and a
//! compression digit), and the bounds on decompressing one. Everything else in the module
//! reads these; they read nothing of it.

use core::fmt;

/// The uncompressed signature.
pub const SIGNATURE: [u8; 4] = *b"llvm";

/// The compressed signature, followed by a [`Compression`] digit.
pub const COMPRESSED_SIGNATURE: [u8; 4] = *b"llvc";

/// Decompressed output is limited to this many times the input's size ...
pub const MAX_DECOMPRESSION_RATIO: usize = 64;

/// ... and to this many bytes (1 GiB), whichever is smaller.
pub const MAX_DECOMPRESSED_BYTES: usize = 1 << 30;

/// The most bytes decompressing an input of `input_len` bytes may produce:
/// [`MAX_DECOMPRESSION_RATIO`] times `input_len` or [`MAX_DECOMPRESSED_BYTES`], whichever
/// is smaller.
pub const fn decompression_limit(input_len: usize) -> usize {
    let by_ratio = input_len.saturating_mul(MAX_DECOMPRESSION_RATIO);
    if by_ratio < MAX_DECOMPRESSED_BYTES { by_ratio } else { MAX_DECOMPRESSED_BYTES }
}

/// The compression named by the digit after `llvc`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Compression {
    /// `'0'`: null compression, the module follows as it is.
    Null,
    /// `'1'`: gzip (LLVM 1.4's writer used zlib's `deflate`, so zlib framing is accepted too).
    Gzip,
    /// `'2'`: bzip2.
    Bzip2,
}

impl Compression {
    /// The ASCII digit after `llvc`.
    pub const fn digit(self) -> u8 {
        match self {
            Compression::Null => b'0',
            Compression::Gzip => b'1',
            Compression::Bzip2 => b'2',
        }
    }

    /// The compression for an ASCII digit after `llvc`.
    pub const fn from_digit(digit: u8) -> Option<Self> {
        match digit {
            b'0' => Some(Compression::Null),
            b'1' => Some(Compression::Gzip),
            b'2' => Some(Compression::Bzip2),
            _ => None,
        }
    }

    /// `"null"`, `"gzip"` or `"bzip2"`.
    pub const fn name(self) -> &'static str {
        match self {
            Compression::Null => "null",
            Compression::Gzip => "gzip",
            Compression::Bzip2 => "bzip2",
        }
    }
}

impl fmt::Display for Compression {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

/// The signature of an LLVM 1.x bytecode file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Signature {
    /// `llvm`: the module block follows.
    Uncompressed,
    /// `llvc` and a digit: the rest of the file is compressed.
    Compressed(Compression),
}

impl Signature {
    /// The signature's length in bytes: 4 (`llvm`) or 5 (`llvc` and the digit).
    pub const fn byte_len(self) -> usize {
        match self {
            Signature::Uncompressed => 4,
            Signature::Compressed(_) => 5,
        }
    }

    /// The compression, if any.
    pub const fn compression(self) -> Option<Compression> {
        match self {
            Signature::Uncompressed => None,
            Signature::Compressed(c) => Some(c),
        }
    }
}

impl fmt::Display for Signature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Signature::Uncompressed => f.pad("llvm (uncompressed)"),
            Signature::Compressed(Compression::Null) => f.pad("llvc0 (null compression)"),
            Signature::Compressed(c) => f.pad(&alloc::format!("llvc{} ({c}-compressed)", c.digit() as char)),
        }
    }
}

/// Recognizes LLVM 1.x bytecode by its signature: `llvm`, or `llvc` followed by `0`, `1`
/// or `2`. Bitstream files (bitcode, its wrapper, diagnostics, PCH, remarks) never match.
///
/// ```
/// use llvm_bitstream_reader::legacy::{Compression, Signature, detect};
/// assert_eq!(detect(b"llvm\x01\0\0\0"), Some(Signature::Uncompressed));
/// assert_eq!(detect(b"llvc2BZh9"), Some(Signature::Compressed(Compression::Bzip2)));
/// assert_eq!(detect(b"BC\xC0\xDE"), None);
/// ```
pub fn detect(bytes: &[u8]) -> Option<Signature> {
    match bytes {
        [b'l', b'l', b'v', b'm', ..] => Some(Signature::Uncompressed),
        [b'l', b'l', b'v', b'c', digit, ..] => Compression::from_digit(*digit).map(Signature::Compressed),
        _ => None,
    }
}
