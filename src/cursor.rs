//! The bit cursor: least-significant-bit-first reads over a byte slice.
//!
//! Like LLVM's `SimpleBitstreamCursor`, the cursor keeps a machine word of not yet
//! consumed bits, so most reads are a compare, a mask and a shift, with no memory access.
//! The word is refilled with one unaligned 8-byte load, taking only as many whole bytes
//! as fit (the "bit reader variant 4" of Fabian Giesen's survey): after a refill at least
//! 56 bits are ready, so every read of up to 56 bits needs at most one refill.
//!
//! Every read is bounds-checked: a fixed-width read that would pass the end of the slice
//! fails with [`Error::UnexpectedEof`] and does not move the cursor (after a failed VBR
//! read the position is unspecified).

use bitvec::prelude::{BitSlice, Lsb0};

use crate::error::{Error, Result};
use crate::limits::MAX_VBR_CHUNK_WIDTH;

/// The char6 alphabet, indexed by the 6-bit value.
const CHAR6: &[u8; 64] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._";

/// Decodes a 6-bit char6 value to its ASCII byte (only the low 6 bits are used).
#[inline(always)]
pub fn decode_char6(v: u64) -> u8 {
    CHAR6[(v & 63) as usize]
}

/// For each VBR chunk width, the mask of every chunk's continuation (high) bit within a
/// 64-bit word, counting only whole chunks.
const CONTINUATION: [u64; 33] = {
    let mut table = [0u64; 33];
    let mut w = 2;
    while w <= 32 {
        let mut bit = w - 1;
        while bit < 64 {
            table[w] |= 1 << bit;
            bit += w;
        }
        w += 1;
    }
    table
};

/// `ceil(65536 / w)` for each chunk width: `(n * RECIPROCAL[w]) >> 16 == n / w` for every
/// `n < 64`, which avoids a division in the VBR decoder.
const RECIPROCAL: [u32; 33] = {
    let mut table = [0u32; 33];
    let mut w = 1;
    while w <= 32 {
        table[w] = 65536u32.div_ceil(w as u32);
        w += 1;
    }
    table
};

/// For each chunk width `w` and step `s`: the bits of the odd-numbered slots when the word
/// is cut into slots of `w << s` bits. Used to squeeze the continuation bits out of a VBR.
const ODD_SLOTS: [[u64; 6]; 33] = {
    let mut table = [[0u64; 6]; 33];
    let mut w = 2;
    while w <= 32 {
        let mut s = 0;
        while s < 6 && (w << s) < 64 {
            let slot = w << s;
            let mut bit = 0;
            while bit < 64 {
                if (bit / slot) % 2 == 1 {
                    table[w][s] |= 1 << bit;
                }
                bit += 1;
            }
            s += 1;
        }
        w += 1;
    }
    table
};

/// Mask of the `width` low bits, for `width <= 64`.
#[inline(always)]
fn low_mask_64(width: u32) -> u64 {
    if width >= 64 { u64::MAX } else { (1u64 << width) - 1 }
}

/// Mask of the `width` low bits, for `width < 64`.
#[inline(always)]
fn low_mask(width: u32) -> u64 {
    (1u64 << width) - 1
}

/// A position in a bitstream and the bits ahead of it.
///
/// Positions are bit offsets from the start of the slice the cursor was made on. The
/// cursor is `Copy`: saving and restoring a position is a plain copy.
#[derive(Clone, Copy, Debug)]
pub struct BitCursor<'a> {
    /// The readable bytes. A cursor limited to a block holds a prefix of the stream.
    data: &'a [u8],
    /// Index of the first byte not yet loaded into `buf`.
    next_byte: usize,
    /// Loaded, unconsumed bits; bit 0 is the next bit of the stream. Bits at and above
    /// `avail` are zero or the true next bits of the stream, so OR-ing a later load over
    /// them is harmless.
    buf: u64,
    /// Number of valid bits in `buf`; always at most 63.
    avail: u32,
}

impl<'a> BitCursor<'a> {
    /// A cursor at bit 0 of `data`.
    pub fn new(data: &'a [u8]) -> Self {
        BitCursor { data, next_byte: 0, buf: 0, avail: 0 }
    }

    /// A cursor over `data` placed at bit `bit`.
    pub fn at(data: &'a [u8], bit: u64) -> Result<Self> {
        let mut c = BitCursor::new(data);
        c.jump_to(bit)?;
        Ok(c)
    }

    /// The bytes the cursor reads.
    #[inline]
    pub fn data(&self) -> &'a [u8] {
        self.data
    }

    /// The bit offset of the next bit to be read.
    #[inline(always)]
    pub fn position(&self) -> u64 {
        self.next_byte as u64 * 8 - u64::from(self.avail)
    }

    /// Total number of bits in the slice.
    #[inline]
    pub fn len_bits(&self) -> u64 {
        self.data.len() as u64 * 8
    }

    /// Bits left between the position and the end.
    #[inline(always)]
    pub fn remaining_bits(&self) -> u64 {
        (self.data.len() - self.next_byte) as u64 * 8 + u64::from(self.avail)
    }

    /// Whether every bit has been read.
    #[inline]
    pub fn at_end(&self) -> bool {
        self.remaining_bits() == 0
    }

    /// Moves to bit `bit`; `bit` may equal the length (the end).
    pub fn jump_to(&mut self, bit: u64) -> Result<()> {
        if bit > self.len_bits() {
            return Err(Error::UnexpectedEof {
                bit: self.position(),
                needed: bit.saturating_sub(self.position()),
                available: self.remaining_bits(),
            });
        }
        // `bit <= len * 8`, so the byte index fits in usize.
        self.next_byte = (bit / 8) as usize;
        self.buf = 0;
        self.avail = 0;
        let sub = (bit % 8) as u32;
        if sub != 0 {
            self.refill();
            self.consume(sub);
        }
        Ok(())
    }

    /// Skips `n` bits.
    #[inline]
    pub fn skip(&mut self, n: u64) -> Result<()> {
        if n <= u64::from(self.avail) {
            self.consume(n as u32);
            return Ok(());
        }
        self.skip_far(n)
    }

    /// A skip past the bits in the word.
    #[inline(never)]
    fn skip_far(&mut self, n: u64) -> Result<()> {
        if n > self.remaining_bits() {
            return Err(self.eof(n));
        }
        self.jump_to(self.position() + n)
    }

    /// Moves to the next multiple of 32 bits (counted from the start of the slice),
    /// skipping whatever the padding bits hold, as LLVM does.
    #[inline]
    pub fn align32(&mut self) -> Result<()> {
        let pad = (32 - (self.position() % 32)) % 32;
        self.skip(pad)
    }

    /// Drops `n <= avail` bits from the word.
    #[inline(always)]
    fn consume(&mut self, n: u32) {
        debug_assert!(n <= self.avail);
        // avail <= 63, so n < 64 and the shift is defined.
        self.buf >>= n;
        self.avail -= n;
    }

    /// Loads as many whole bytes as fit into the word.
    //
    // Nothing on the hot paths takes the cursor's address (the cold helpers take and
    // return it by value), so a cursor copied into a local lives in registers: the
    // decoders of `record` rely on that.
    #[inline(always)]
    fn refill(&mut self) {
        // `next_byte <= data.len()` always, so this cannot wrap.
        if self.data.len() - self.next_byte >= 8 {
            // SAFETY: the 8 bytes at `next_byte` are in `data` (tested just above), and
            // `read_unaligned` has no alignment requirement.
            let chunk = unsafe { self.data.as_ptr().add(self.next_byte).cast::<[u8; 8]>().read_unaligned() };
            self.buf |= u64::from_le_bytes(chunk) << self.avail;
            // Take the whole bytes that fit: `7 - avail / 8` of them, which brings `avail`
            // to 56 plus its old remainder mod 8, that is `avail | 56` (avail < 64).
            self.next_byte += (7 - (self.avail >> 3)) as usize;
            self.avail |= 56;
        } else {
            *self = self.refilled_tail();
        }
    }

    /// Byte-at-a-time refill for the last 7 bytes of the slice.
    #[cold]
    #[inline(never)]
    fn refilled_tail(mut self) -> Self {
        while self.avail <= 55 {
            let Some(&b) = self.data.get(self.next_byte) else { break };
            self.buf |= u64::from(b) << self.avail;
            self.next_byte += 1;
            self.avail += 8;
        }
        self
    }

    #[cold]
    #[inline(never)]
    fn vbr_eof(self, start: u64, width: u32) -> Error {
        let read = self.position() - start;
        Error::UnexpectedEof { bit: start, needed: read + u64::from(width), available: read + self.remaining_bits() }
    }

    #[cold]
    #[inline(never)]
    fn eof(self, needed: u64) -> Error {
        Error::UnexpectedEof { bit: self.position(), needed, available: self.remaining_bits() }
    }

    /// Reads a `width`-bit field, `width` in `0..=64`, least significant bit first, as
    /// LLVM's `Read` does (it allows up to `MaxChunkSize`, 64 bits, for `Fixed` fields and
    /// abbreviation ids).
    #[inline(always)]
    pub fn read(&mut self, width: u32) -> Result<u64> {
        if width > self.avail {
            if width > 56 {
                let (cursor, v) = self.read_wide(width);
                *self = cursor;
                return v;
            }
            self.refill();
            // The refill loads at least 56 bits when that many remain.
            if width > self.avail {
                return Err(self.eof(u64::from(width)));
            }
        }
        let v = self.buf & low_mask(width);
        self.consume(width);
        Ok(v)
    }

    /// A read of more than 56 bits: a `Fixed(57..=64)` field or an abbreviation id that
    /// wide, which LLVM allows and no LLVM writer emits. Cold so that `read` stays small.
    #[cold]
    #[inline(never)]
    fn read_wide(mut self, width: u32) -> (Self, Result<u64>) {
        if width > 64 {
            return (self, Err(Error::InvalidFixedWidth { bit: self.position(), width }));
        }
        if u64::from(width) > self.remaining_bits() {
            return (self, Err(self.eof(u64::from(width))));
        }
        // Enough bits remain (checked above), so neither half can fail.
        let lo = self.read(32);
        let hi = self.read(width - 32);
        (self, lo.and_then(|lo| Ok(lo | (hi? << 32))))
    }

    /// Reads a VBR value of up to 64 bits with `width`-bit chunks (LLVM's `ReadVBR64`).
    ///
    /// `width` must be 1..=32. Payload bits beyond 64 are dropped, as LLVM drops them; a
    /// value still continuing after 64 payload bits is [`Error::UnterminatedVbr`].
    #[inline]
    pub fn read_vbr(&mut self, width: u32) -> Result<u64> {
        if width == 0 || width > MAX_VBR_CHUNK_WIDTH {
            return Err(Error::InvalidVbrWidth { bit: self.position(), width });
        }
        self.read_vbr_unchecked_width(width, 64)
    }

    /// Reads a VBR value that LLVM reads as 32 bits (`ReadVBR`): it is truncated to 32 bits,
    /// and continuing past 32 payload bits is an error.
    #[inline]
    pub fn read_vbr32(&mut self, width: u32) -> Result<u32> {
        if width == 0 || width > MAX_VBR_CHUNK_WIDTH {
            return Err(Error::InvalidVbrWidth { bit: self.position(), width });
        }
        Ok(self.read_vbr_unchecked_width(width, 32)? as u32)
    }

    /// VBR read for a width already known to be in 1..=32.
    ///
    /// When the whole value is in the word (almost always), its last chunk is found from
    /// the continuation bits at once and the payload is squeezed together in registers,
    /// with no loop over chunks; otherwise [`BitCursor::read_vbr_slow`] follows LLVM's
    /// loop chunk by chunk.
    #[inline(always)]
    pub(crate) fn read_vbr_unchecked_width(&mut self, width: u32, max_bits: u32) -> Result<u64> {
        debug_assert!((1..=32).contains(&width));
        // vbr6 is most of what LLVM writes, and has a decoder of its own.
        if width == 6 {
            return self.read_vbr6(max_bits);
        }
        if self.avail < 2 * width {
            self.refill();
        }
        let hi = 1u64 << (width - 1);
        let first = self.buf & low_mask(width);
        if first & hi == 0 && width <= self.avail {
            self.consume(width);
            return Ok(first);
        }
        if self.avail < 56 {
            self.refill();
        }
        let cont = CONTINUATION[width as usize];
        // Chunks whose high bit is clear end the value; the first one is the last chunk.
        let ends = !self.buf & cont & low_mask(self.avail);
        if ends == 0 || width == 1 {
            return self.read_vbr_slow(width, max_bits);
        }
        let used = ends.trailing_zeros() + 1;
        // used / width, by multiplying with a reciprocal (exact below 64).
        let chunks = (used * RECIPROCAL[width as usize]) >> 16;
        debug_assert_eq!(chunks * width, used);
        if (chunks - 1) * (width - 1) >= max_bits {
            return Err(self.unterminated(max_bits));
        }
        // Keep the value's chunks, drop their continuation bits, and close the gaps: at
        // step s, each odd slot of `width << s` bits moves down by `1 << s` bits.
        let mut x = self.buf & low_mask_64(used) & !cont;
        // Always five steps (enough for 2-bit chunks); a step a wider chunk does not need
        // has an all-zero mask and changes nothing. No loop, no branch.
        let odd = &ODD_SLOTS[width as usize];
        x = (x & !odd[0]) | ((x & odd[0]) >> 1);
        x = (x & !odd[1]) | ((x & odd[1]) >> 2);
        x = (x & !odd[2]) | ((x & odd[2]) >> 4);
        x = (x & !odd[3]) | ((x & odd[3]) >> 8);
        x = (x & !odd[4]) | ((x & odd[4]) >> 16);
        self.consume(used);
        Ok(if max_bits == 32 { x & u64::from(u32::MAX) } else { x })
    }

    /// Takes the next `bits` bits (`bits <= 56`) as the low bits of a word, if they are
    /// all in the input and none of the `cont` bits is set; otherwise does not move.
    /// Bits of the word at and above `bits` are unspecified.
    #[inline(always)]
    pub(crate) fn take_packed(&mut self, bits: u32, cont: u64) -> Option<u64> {
        debug_assert!(bits <= 56);
        self.refill();
        let word = self.buf;
        if bits > self.avail || word & cont != 0 {
            return None;
        }
        self.consume(bits);
        Some(word)
    }

    /// Reads a VBR6 value, the encoding of every unabbreviated operand and most
    /// abbreviated ones; `max_bits` is 64 or 32 as in [`BitCursor::read_vbr_unchecked_width`].
    ///
    /// Values of up to four chunks (20 payload bits; over 99% of real operands) are
    /// decoded with no branch on their length: the first chunk whose continuation bit is
    /// clear ends the value, and the payload is gathered with four masks and three
    /// shifts, all small immediates. Longer values take the general path.
    #[inline(always)]
    pub(crate) fn read_vbr6(&mut self, max_bits: u32) -> Result<u64> {
        self.refill();
        self.read_vbr6_in_word(max_bits)
    }

    /// Two VBR6 values after one refill (a refill leaves at least 56 bits, and a value
    /// taken from the word uses at most 24).
    #[inline(always)]
    pub(crate) fn read_vbr6_pair(&mut self) -> Result<[u64; 2]> {
        self.refill();
        let first = self.read_vbr6_in_word(64)?;
        Ok([first, self.read_vbr6_in_word(64)?])
    }

    /// Skips `count` VBR6 values without decoding them: per refill, the clear
    /// continuation bits of nine chunks mark where values end, and whole values are
    /// dropped at once. A value longer than nine chunks, and the last bytes of the input,
    /// take [`BitCursor::read_vbr6`], so errors are exactly those of reading the values.
    #[inline]
    pub(crate) fn skip_vbr6_run(&mut self, mut count: u64) -> Result<()> {
        /// The continuation bits of nine 6-bit chunks.
        const CONT9: u64 = 0x0020_8208_2082_0820;
        while count > 0 {
            self.refill();
            let ends = !self.buf & CONT9;
            if self.avail < 54 || ends == 0 {
                self.read_vbr6(64)?;
                count -= 1;
                continue;
            }
            let take = u64::from(ends.count_ones()).min(count);
            // Keep the `take`-th end (counting from the lowest) and drop through it.
            let mut last = ends;
            for _ in 1..take {
                last &= last - 1;
            }
            self.consume(last.trailing_zeros() + 1);
            count -= take;
        }
        Ok(())
    }

    /// [`BitCursor::read_vbr6`] without the refill: correct whatever is in the word (a
    /// value not wholly in it takes the general path), fast when at least 24 bits are.
    #[inline(always)]
    fn read_vbr6_in_word(&mut self, max_bits: u32) -> Result<u64> {
        /// The continuation bits of the first four 6-bit chunks.
        const CONT4: u64 = 1 << 5 | 1 << 11 | 1 << 17 | 1 << 23;
        if self.buf & 0x20 == 0 && self.avail >= 6 {
            let v = self.buf & 0x1f;
            self.consume(6);
            return Ok(v);
        }
        // 65 when none of the four chunks ends the value. Bits at and above `avail` may
        // read as ends, so a value is only taken when it lies within `avail`.
        let used = (!self.buf & CONT4).trailing_zeros() + 1;
        if used > self.avail {
            return self.read_vbr_slow(6, max_bits);
        }
        let x = self.buf & low_mask(used);
        self.consume(used);
        // At most 20 payload bits, so no 32-bit truncation can apply.
        Ok((x & 0x1f) | ((x >> 1) & 0x3e0) | ((x >> 2) & 0x7c00) | ((x >> 3) & 0xf_8000))
    }

    #[cold]
    #[inline(never)]
    fn unterminated(self, max_bits: u32) -> Error {
        Error::UnterminatedVbr { bit: self.position(), max_bits }
    }

    /// A VBR value longer than the bits in the word, near the end of the input, or with
    /// 1-bit chunks: chunk by chunk.
    #[inline(always)]
    fn read_vbr_slow(&mut self, width: u32, max_bits: u32) -> Result<u64> {
        let (cursor, v) = self.vbr_chunk_by_chunk(width, max_bits);
        *self = cursor;
        v
    }

    /// LLVM's VBR loop, exactly; by value so that no caller's cursor has its address taken.
    #[cold]
    #[inline(never)]
    fn vbr_chunk_by_chunk(mut self, width: u32, max_bits: u32) -> (Self, Result<u64>) {
        let v = self.read_vbr_loop(width, max_bits);
        (self, v)
    }

    /// The chunk-by-chunk VBR decoder behind [`BitCursor::vbr_chunk_by_chunk`].
    fn read_vbr_loop(&mut self, width: u32, max_bits: u32) -> Result<u64> {
        let start = self.position();
        let mut piece = match self.read(width) {
            Ok(p) => p,
            Err(_) => return Err(self.vbr_eof(start, width)),
        };
        let hi = 1u64 << (width - 1);
        let mut result = 0u64;
        let mut next_bit = 0u32;
        loop {
            // next_bit < max_bits <= 64, so the shift is defined; high bits fall off.
            result |= (piece & (hi - 1)) << next_bit;
            if piece & hi == 0 {
                break;
            }
            next_bit += width - 1;
            if next_bit >= max_bits {
                return Err(Error::UnterminatedVbr { bit: start, max_bits });
            }
            piece = match self.read(width) {
                Ok(p) => p,
                // Report the failure from the VBR's start: the value never finished.
                Err(_) => return Err(self.vbr_eof(start, width)),
            };
        }
        if max_bits == 32 {
            result &= u64::from(u32::MAX);
        }
        Ok(result)
    }

    /// Reads a 6-bit char6 field and decodes it to ASCII.
    #[inline]
    pub fn read_char6(&mut self) -> Result<u8> {
        Ok(decode_char6(self.read(6)?))
    }

    /// Borrows `len` bytes starting at the current position, which must be byte-aligned,
    /// without moving the cursor.
    pub fn peek_bytes(&self, len: u64) -> Option<&'a [u8]> {
        let pos = self.position();
        if pos % 8 != 0 {
            return None;
        }
        let start = usize::try_from(pos / 8).ok()?;
        let end = start.checked_add(usize::try_from(len).ok()?)?;
        self.data.get(start..end)
    }

    /// The bits `start..end` of the slice as a bit-addressed view, or `None` out of range.
    pub fn bits(&self, start: u64, end: u64) -> Option<&'a BitSlice<u8, Lsb0>> {
        let bits = BitSlice::<u8, Lsb0>::from_slice(self.data);
        bits.get(usize::try_from(start).ok()?..usize::try_from(end).ok()?)
    }
}

#[cfg(test)]
mod tests {
    use super::BitCursor;
    use crate::error::Error;
    use alloc::vec::Vec;

    /// splitmix64, for reproducible inputs without a dependency.
    fn next(state: &mut u64) -> u64 {
        *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = *state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Fixed reads of every width 1..=64 at every alignment, against a bit-by-bit reading,
    /// including the reads of 57..=64 bits that take two steps and the last bits of the
    /// input; a read past the end fails and leaves the cursor where it was.
    #[test]
    fn reads_of_every_width_up_to_64() {
        let mut state = 11u64;
        let data: Vec<u8> = (0..40).map(|_| next(&mut state) as u8).collect();
        let bit = |i: u64| u64::from(data[(i / 8) as usize] >> (i % 8) & 1);
        let len = data.len() as u64 * 8;
        let (step, sequences) = if cfg!(miri) { (13, 10) } else { (1, 200) };
        for width in 1..=64u32 {
            for start in (0..len).step_by(step) {
                let mut c = BitCursor::at(&data, start).unwrap();
                if start + u64::from(width) > len {
                    assert!(matches!(c.read(width), Err(Error::UnexpectedEof { .. })), "w={width} at {start}");
                    assert_eq!(c.position(), start);
                    continue;
                }
                let want = (0..u64::from(width)).fold(0, |v, i| v | bit(start + i) << i);
                assert_eq!(c.read(width).unwrap(), want, "w={width} at {start}");
                assert_eq!(c.position(), start + u64::from(width));
            }
        }
        // Reads one after the other, so the word holds every possible number of bits.
        for _ in 0..sequences {
            let mut c = BitCursor::new(&data);
            let mut at = 0;
            loop {
                let width = 1 + (next(&mut state) % 64) as u32;
                if at + u64::from(width) > len {
                    break;
                }
                let want = (0..u64::from(width)).fold(0, |v, i| v | bit(at + i) << i);
                assert_eq!(c.read(width).unwrap(), want, "w={width} at {at}");
                at += u64::from(width);
            }
        }
        assert!(matches!(BitCursor::new(&data).read(65), Err(Error::InvalidFixedWidth { width: 65, .. })));
    }

    /// The vbr6 fast paths (one to four chunks from the word, two values per refill)
    /// against LLVM's chunk-by-chunk loop, at every kind of position: mid-input, across
    /// refills, and in the last bytes, where the word holds fewer bits than a value needs;
    /// with both `max_bits`, and values of one to over nine chunks.
    #[test]
    fn vbr6_fast_paths_agree_with_the_chunk_loop() {
        let mut state = 7u64;
        let cases = if cfg!(miri) { 300 } else { 30_000 };
        for case in 0..cases {
            let len = (next(&mut state) % 32) as usize;
            // Bits set a quarter, half or three quarters of the time, so that values of
            // one to over nine chunks all occur.
            let byte = |state: &mut u64| {
                let (a, b) = (next(state), next(state).rotate_left(7));
                (match case % 3 {
                    0 => a & b,
                    1 => a,
                    _ => a | b,
                }) as u8
            };
            let data: Vec<u8> = (0..len).map(|_| byte(&mut state)).collect();
            let start = next(&mut state) % (len as u64 * 8 + 1);
            let at = BitCursor::at(&data, start).unwrap();
            for max_bits in [64, 32] {
                let (reference, want) = at.vbr_chunk_by_chunk(6, max_bits);
                let mut fast = at;
                let got = fast.read_vbr6(max_bits);
                assert_eq!(got.is_ok(), want.is_ok(), "{data:?} at {start}");
                if let (Ok(got), Ok(want)) = (got, want) {
                    assert_eq!(got, want);
                    assert_eq!(fast.position(), reference.position());
                }
            }
            let (after_first, first) = at.vbr_chunk_by_chunk(6, 64);
            let second = first.as_ref().ok().map(|_| after_first.vbr_chunk_by_chunk(6, 64));
            let mut pair = at;
            match (pair.read_vbr6_pair(), first, second) {
                (Ok([a, b]), Ok(first), Some((end, Ok(second)))) => {
                    assert_eq!([a, b], [first, second], "{data:?} at {start}");
                    assert_eq!(pair.position(), end.position());
                }
                (Err(_), Err(_), _) | (Err(_), Ok(_), Some((_, Err(_)))) => {}
                (got, first, second) => panic!("{data:?} at {start}: {got:?} vs {first:?}, {second:?}"),
            }
        }
    }

    /// Skipping a run of vbr6 values (nine chunks per refill) lands where reading them one
    /// by one does, and fails where reading them fails, at every kind of position:
    /// values of one to fourteen chunks (fourteen is unterminated), across refills and in
    /// the last bytes.
    #[test]
    fn vbr6_run_skip_agrees_with_reading_the_values() {
        let mut state = 11u64;
        let cases = if cfg!(miri) { 200 } else { 20_000 };
        for _ in 0..cases {
            let len = (next(&mut state) % 40) as usize;
            // Mostly short values, with long runs of set continuation bits now and then.
            let dense = next(&mut state) % 4 == 0;
            let data: Vec<u8> = (0..len)
                .map(|_| {
                    let r = next(&mut state);
                    if dense { (r | r.rotate_left(9)) as u8 } else { (r & r.rotate_left(7)) as u8 }
                })
                .collect();
            let start = next(&mut state) % (len as u64 * 8 + 1);
            let count = next(&mut state) % 12;
            let at = BitCursor::at(&data, start).unwrap();
            let mut read = at;
            let want = (0..count).try_for_each(|_| read.read_vbr6(64).map(drop));
            let mut skipped = at;
            let got = skipped.skip_vbr6_run(count);
            assert_eq!(got.is_ok(), want.is_ok(), "{data:?} at {start}, {count} values: {got:?} vs {want:?}");
            match (got, want) {
                (Ok(()), Ok(())) => assert_eq!(skipped.position(), read.position(), "{data:?} at {start}"),
                (Err(got), Err(want)) => assert_eq!(got, want, "{data:?} at {start}"),
                _ => unreachable!(),
            }
        }
    }
}
