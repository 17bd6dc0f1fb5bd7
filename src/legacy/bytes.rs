//! The byte reader and the encoding primitives of LLVM 1.x bytecode.

use alloc::vec::Vec;

use super::LegacyError;

type Result<T, E = LegacyError> = core::result::Result<T, E>;

/// A position in a byte slice, with the primitive decoders of the bytecode format.
///
/// Offsets in errors and from [`offset`](Self::offset) are `base` plus the position in the
/// slice, so a reader over a block's payload reports offsets in the whole file. Reads that
/// fail leave the position where it was, except inside [`read_llist`](Self::read_llist) and
/// [`read_zlist`](Self::read_zlist), after which it is unspecified.
///
/// ```
/// use llvm_bitstream_reader::legacy::ByteReader;
///
/// // uint32_vbr 300, int64_vbr -3, string "hi"
/// let mut r = ByteReader::new(&[0xAC, 0x02, 0x07, 0x02, b'h', b'i']);
/// assert_eq!(r.read_vbr_u32()?, 300);
/// assert_eq!(r.read_vbr_i64()?, -3);
/// assert_eq!(r.read_string()?, b"hi");
/// assert!(r.is_at_end());
/// # Ok::<(), llvm_bitstream_reader::legacy::LegacyError>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct ByteReader<'a> {
    data: &'a [u8],
    pos: usize,
    base: usize,
}

impl<'a> ByteReader<'a> {
    /// A reader at the start of `data`, reporting offsets from `data`'s first byte.
    pub const fn new(data: &'a [u8]) -> Self {
        ByteReader { data, pos: 0, base: 0 }
    }

    /// A reader at the start of `data`, reporting offsets as `base` plus the position in
    /// `data` (use the offset of `data` in the file).
    pub const fn with_base(data: &'a [u8], base: usize) -> Self {
        ByteReader { data, pos: 0, base }
    }

    /// The offset of the next byte: `base` plus [`position`](Self::position).
    pub fn offset(&self) -> usize {
        self.base.saturating_add(self.pos)
    }

    /// The position of the next byte in the slice.
    pub fn position(&self) -> usize {
        self.pos
    }

    /// Bytes not yet read.
    pub fn remaining(&self) -> usize {
        self.data.len() - self.pos
    }

    /// Whether every byte has been read.
    pub fn is_at_end(&self) -> bool {
        self.pos >= self.data.len()
    }

    /// The bytes not yet read, without moving.
    pub fn rest(&self) -> &'a [u8] {
        &self.data[self.pos..]
    }

    fn truncated(&self, what: &'static str, needed: usize) -> LegacyError {
        LegacyError::Truncated { offset: self.offset(), what, needed, available: self.remaining() }
    }

    /// Reads `len` bytes (the format's `data`, or the characters of a name).
    pub fn read_bytes(&mut self, len: usize) -> Result<&'a [u8]> {
        self.take(len, "bytes")
    }

    fn take(&mut self, len: usize, what: &'static str) -> Result<&'a [u8]> {
        if len > self.remaining() {
            return Err(self.truncated(what, len));
        }
        let bytes = &self.data[self.pos..self.pos + len];
        self.pos += len;
        Ok(bytes)
    }

    fn array<const N: usize>(&mut self, what: &'static str) -> Result<[u8; N]> {
        let bytes = self.take(N, what)?;
        let mut out = [0u8; N];
        out.copy_from_slice(bytes);
        Ok(out)
    }

    /// Skips `len` bytes.
    pub fn skip(&mut self, len: usize) -> Result<()> {
        self.take(len, "skipped bytes").map(|_| ())
    }

    /// Reads a `char`: one byte.
    pub fn read_u8(&mut self) -> Result<u8> {
        Ok(self.array::<1>("char")?[0])
    }

    /// Reads an `unsigned`: a 32-bit little-endian integer, always four bytes.
    pub fn read_u32(&mut self) -> Result<u32> {
        Ok(u32::from_le_bytes(self.array("unsigned")?))
    }

    /// Reads a `float`: a 32-bit IEEE value, little-endian.
    pub fn read_f32(&mut self) -> Result<f32> {
        Ok(f32::from_le_bytes(self.array("float")?))
    }

    /// Reads a `double`: a 64-bit IEEE value, little-endian.
    pub fn read_f64(&mut self) -> Result<f64> {
        Ok(f64::from_le_bytes(self.array("double")?))
    }

    /// A VBR of at most `bits` value bits: 7 bits a byte, low bits first, high bit set on
    /// every byte but the last. Bits beyond `bits`, or more bytes than needed to hold
    /// them, are an error.
    fn read_vbr(&mut self, bits: u32, what: &'static str) -> Result<u64> {
        let start = self.pos;
        let mut pos = self.pos;
        let mut value = 0u64;
        let mut shift = 0u32;
        loop {
            let Some(&byte) = self.data.get(pos) else {
                return Err(LegacyError::Truncated {
                    offset: self.base.saturating_add(pos),
                    what,
                    needed: 1,
                    available: 0,
                });
            };
            pos += 1;
            let chunk = u64::from(byte & 0x7F);
            let room = bits.saturating_sub(shift);
            if room == 0 || (room < 7 && chunk >> room != 0) {
                return Err(LegacyError::VbrOverflow { offset: self.base.saturating_add(start), what, bits });
            }
            value |= chunk << shift;
            if byte & 0x80 == 0 {
                self.pos = pos;
                return Ok(value);
            }
            shift += 7;
        }
    }

    /// Reads a `uint24_vbr`: one to four bytes, at most 24 value bits (type slot numbers).
    pub fn read_vbr_u24(&mut self) -> Result<u32> {
        // At most 24 bits: the cast is lossless.
        self.read_vbr(24, "uint24_vbr").map(|v| v as u32)
    }

    /// Reads a `uint32_vbr`: one to five bytes.
    pub fn read_vbr_u32(&mut self) -> Result<u32> {
        // At most 32 bits: the cast is lossless.
        self.read_vbr(32, "uint32_vbr").map(|v| v as u32)
    }

    /// Reads a `uint64_vbr`: one to ten bytes (the tenth may only hold bit 63).
    pub fn read_vbr_u64(&mut self) -> Result<u64> {
        self.read_vbr(64, "uint64_vbr")
    }

    /// Reads an `int64_vbr`: a `uint64_vbr` whose low bit is the sign, so `-3` is written
    /// as `(3 << 1) | 1` and `3` as `3 << 1`. "Minus zero" (the value 1) means
    /// `i64::MIN`, as in LLVM's reader.
    pub fn read_vbr_i64(&mut self) -> Result<i64> {
        self.read_vbr(64, "int64_vbr").map(decode_signed_vbr)
    }

    /// Reads a `string`: a `uint32_vbr` length, then that many bytes, with no terminator.
    /// The bytes are returned as they are (LLVM 1.x did not require UTF-8).
    pub fn read_string(&mut self) -> Result<&'a [u8]> {
        let save = self.pos;
        let len = self.read_vbr_u32()?;
        match self.take(len as usize, "string") {
            Ok(bytes) => Ok(bytes),
            Err(e) => {
                self.pos = save;
                Err(e)
            }
        }
    }

    /// Reads an `llist(x)`: a `uint32_vbr` count, then that many items, each read by
    /// `item`. A count larger than the bytes left (every item takes at least one) and an
    /// item that reads nothing are errors, so the list is bounded by the input.
    pub fn read_llist<T, F>(&mut self, mut item: F) -> Result<Vec<T>>
    where
        F: FnMut(&mut ByteReader<'a>) -> Result<T>,
    {
        let at = self.offset();
        let count = self.read_vbr_u32()?;
        let remaining = self.remaining();
        if count as usize > remaining {
            return Err(LegacyError::ImplausibleCount {
                offset: at,
                what: "llist length",
                count: count.into(),
                remaining,
            });
        }
        let mut out = Vec::with_capacity(count as usize);
        for _ in 0..count {
            out.push(self.item(&mut item)?);
        }
        Ok(out)
    }

    /// Reads a `zlist(x)`: items read by `item` until a `uint32_vbr` 0, which is consumed.
    /// Each item is read from its first byte (the terminator test only peeks), and an
    /// item that reads nothing is an error.
    pub fn read_zlist<T, F>(&mut self, mut item: F) -> Result<Vec<T>>
    where
        F: FnMut(&mut ByteReader<'a>) -> Result<T>,
    {
        let mut out = Vec::new();
        loop {
            let mut peek = *self;
            if peek.read_vbr_u32()? == 0 {
                *self = peek;
                return Ok(out);
            }
            out.push(self.item(&mut item)?);
        }
    }

    fn item<T, F>(&mut self, item: &mut F) -> Result<T>
    where
        F: FnMut(&mut ByteReader<'a>) -> Result<T>,
    {
        let before = self.pos;
        let at = self.offset();
        let value = item(self)?;
        if self.pos <= before {
            return Err(LegacyError::EmptyListItem { offset: at });
        }
        Ok(value)
    }

    /// Skips padding to the next multiple of 4 counted from `origin` (a file offset),
    /// failing if it would pass the end.
    pub(super) fn align32(&mut self, origin: usize) -> Result<()> {
        let misalignment = self.offset().wrapping_sub(origin) % 4;
        if misalignment == 0 {
            return Ok(());
        }
        let pad = 4 - misalignment;
        if pad > self.remaining() {
            return Err(LegacyError::AlignmentPastEnd {
                offset: self.offset(),
                end: self.base.saturating_add(self.data.len()),
            });
        }
        self.pos += pad;
        Ok(())
    }

    /// Skips zero bytes up to the next multiple of 4 counted from `origin`: the padding
    /// that the format description puts after blocks. A block header never starts with a
    /// zero byte (type 0 is reserved), so this never skips part of a block.
    pub(super) fn skip_zero_padding(&mut self, origin: usize) {
        while !self.is_at_end() && self.offset().wrapping_sub(origin) % 4 != 0 && self.data[self.pos] == 0 {
            self.pos += 1;
        }
    }
}

/// Decodes a signed VBR value from its unsigned encoding: the low bit is the sign,
/// `1` (minus zero) is `i64::MIN`.
///
/// ```
/// use llvm_bitstream_reader::legacy::decode_signed_vbr;
/// assert_eq!(decode_signed_vbr(7), -3);
/// assert_eq!(decode_signed_vbr(6), 3);
/// assert_eq!(decode_signed_vbr(1), i64::MIN);
/// ```
pub const fn decode_signed_vbr(raw: u64) -> i64 {
    // The bitstream's sign-rotated VBR (`decode_sign_rotated`): the same encoding.
    crate::record::decode_sign_rotated(raw)
}
