//! Records: decoding them, and the zero-copy view handed to users.
//!
//! A [`Record`] owns nothing on the heap. The reader decodes a record once to find where
//! it ends; while doing so it keeps the first [`INLINE_OPERANDS`] operands inline, so the
//! common record is fully decoded with no second pass. Operands past those, and array
//! elements past those, are decoded again from the input when asked for (the record has
//! already been checked, so that cannot fail). Blobs are slices of the input.

use alloc::string::String;
use alloc::sync::Arc;
use alloc::vec::Vec;

use bitvec::prelude::{BitSlice, Lsb0};

use crate::abbrev::{Abbrev, ElementEncoding, Step, read_element, read_field, skip_elements};
use crate::cursor::BitCursor;
use crate::error::{Error, Result};
use crate::limits::INLINE_OPERANDS;

/// The abbreviation id of unabbreviated records.
pub const UNABBREV_RECORD: u32 = 3;

/// Where the operands that did not fit inline are decoded from.
#[derive(Clone, Debug)]
enum Tail {
    /// Every operand fits inline.
    None,
    /// Unabbreviated record: the rest are vbr6 values starting at `bit`.
    Vbr6 { bit: u64 },
    /// The rest are array elements starting at `bit`.
    Elements { bit: u64, elem: ElementEncoding },
    /// The rest start with scalar step `step` of `abbrev`'s plan, at `bit`.
    Plan { bit: u64, abbrev: Arc<Abbrev>, step: usize },
}

/// Where a record's array is.
#[derive(Clone, Copy, Debug)]
struct ArrayInfo {
    /// Operand index of the first element (at most the abbreviation's operand count, a u32).
    first: u32,
    /// Element count (read as a 32-bit VBR).
    len: u32,
    bit: u64,
    elem: ElementEncoding,
}

/// One record: its code, abbreviation id, operands, array and blob.
///
/// Operands are numbered as LLVM's `readRecord` returns them: the code is not an
/// operand, array elements are operands in their place (char6 as ASCII), and a blob is
/// not an operand (see [`Record::blob`]). Access is tolerant, as bitstream formats evolve
/// by adding trailing fields: [`Record::operand`] returns `None` past the end.
#[derive(Clone, Debug)]
pub struct Record<'a> {
    data: &'a [u8],
    start_bit: u64,
    end_bit: u64,
    code: u32,
    abbrev_id: u32,
    len: usize,
    inline_len: u8,
    inline: [u64; INLINE_OPERANDS],
    blob: Option<&'a [u8]>,
    array: Option<ArrayInfo>,
    tail: Tail,
}

impl<'a> Record<'a> {
    /// A record with abbreviation id `abbrev_id` starting at `start_bit`, nothing decoded
    /// yet: the decoders fill it in place, so that the 176-byte record is not moved on its
    /// way out of the reader.
    #[inline(always)]
    pub(crate) fn empty(data: &'a [u8], start_bit: u64, abbrev_id: u32) -> Self {
        Record {
            data,
            start_bit,
            end_bit: start_bit,
            code: 0,
            abbrev_id,
            len: 0,
            inline_len: 0,
            inline: [0; INLINE_OPERANDS],
            blob: None,
            array: None,
            tail: Tail::None,
        }
    }

    /// Stores an operand inline if there is room; returns false if it did not fit.
    #[inline(always)]
    fn push(&mut self, v: u64) -> bool {
        self.len += 1;
        if let Some(slot) = self.inline.get_mut(usize::from(self.inline_len)) {
            *slot = v;
            self.inline_len += 1;
            true
        } else {
            false
        }
    }

    /// The record code.
    #[inline]
    pub fn code(&self) -> u32 {
        self.code
    }

    /// The abbreviation id the record was written with ([`UNABBREV_RECORD`] = 3 when
    /// unabbreviated).
    #[inline]
    pub fn abbrev_id(&self) -> u32 {
        self.abbrev_id
    }

    /// Whether the record was written without an abbreviation.
    #[inline]
    pub fn is_unabbreviated(&self) -> bool {
        self.abbrev_id == UNABBREV_RECORD
    }

    /// Number of operands (array elements included, code and blob not).
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the record has no operands.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Operand `i`, or `None` if the record has no such operand.
    ///
    /// O(1) for the first [`INLINE_OPERANDS`](crate::limits::INLINE_OPERANDS) operands;
    /// later ones are decoded from the input. To visit all operands use
    /// [`Record::operands`].
    #[inline]
    pub fn operand(&self, i: usize) -> Option<u64> {
        if i < usize::from(self.inline_len) {
            Some(self.inline[i])
        } else if i < self.len {
            self.operands().nth(i)
        } else {
            None
        }
    }

    /// Operand `i` decoded as LLVM's sign-rotated VBR (see [`decode_sign_rotated`]).
    pub fn signed_operand(&self, i: usize) -> Option<i64> {
        self.operand(i).map(decode_sign_rotated)
    }

    /// All operands, in order.
    pub fn operands(&self) -> Operands<'_, 'a> {
        Operands { record: self, index: 0, tail: None }
    }

    /// The operands as bytes (each truncated to 8 bits, as LLVM does for names), from
    /// operand `first` on, as lossy UTF-8 text. Allocates.
    pub fn text_from(&self, first: usize) -> String {
        let bytes: Vec<u8> = self.operands().skip(first).map(|v| v as u8).collect();
        String::from_utf8_lossy(&bytes).into_owned()
    }

    /// The array operand, if the record's abbreviation has one.
    pub fn array(&self) -> Option<Array<'a>> {
        self.array.map(|a| Array {
            data: self.data,
            bit: a.bit,
            len: a.len as usize,
            elem: a.elem,
            first: a.first as usize,
        })
    }

    /// The blob, borrowed from the input, if the record's abbreviation has one.
    #[inline]
    pub fn blob(&self) -> Option<&'a [u8]> {
        self.blob
    }

    /// Bit offset of the record's abbreviation id (from the start of the stream).
    pub fn bit_offset(&self) -> u64 {
        self.start_bit
    }

    /// Bit offset just past the record.
    pub fn end_bit_offset(&self) -> u64 {
        self.end_bit
    }

    /// The record's raw bits, abbreviation id included.
    pub fn bits(&self) -> &'a BitSlice<u8, Lsb0> {
        BitCursor::new(self.data).bits(self.start_bit, self.end_bit).unwrap_or_default()
    }

    /// Decodes an unabbreviated record (after its abbreviation id) into `self`, which
    /// comes from [`Record::empty`].
    #[inline]
    pub(crate) fn decode_unabbreviated(&mut self, cursor: &mut BitCursor<'a>) -> Result<()> {
        in_registers(cursor, |cursor| self.unabbreviated_body(cursor))
    }

    #[inline(always)]
    fn unabbreviated_body(&mut self, cursor: &mut BitCursor<'a>) -> Result<()> {
        let rec = self;
        rec.code = vbr6_32(cursor)?;
        let count_bit = cursor.position();
        let count = u64::from(vbr6_32(cursor)?);
        // Each operand takes at least 6 bits.
        if count > cursor.remaining_bits() / 6 {
            return Err(Error::ImplausibleCount { bit: count_bit, what: "operand", count });
        }
        let mut left = count;
        while left > 0 {
            let bit = cursor.position();
            let v = cursor.read_vbr6(64)?;
            left -= 1;
            if !rec.push(v) {
                rec.tail = Tail::Vbr6 { bit };
                rec.len += left as usize;
                for _ in 0..left {
                    cursor.read_vbr6(64)?;
                }
                break;
            }
        }
        rec.end_bit = cursor.position();
        Ok(())
    }

    /// Decodes a record written with `abbrev` (after its abbreviation id) into `self`,
    /// which comes from [`Record::empty`].
    #[inline]
    pub(crate) fn decode_abbreviated(&mut self, cursor: &mut BitCursor<'a>, abbrev: &Arc<Abbrev>) -> Result<()> {
        in_registers(cursor, |cursor| self.abbreviated_body(cursor, abbrev))
    }

    #[inline(always)]
    fn abbreviated_body(&mut self, cursor: &mut BitCursor<'a>, abbrev: &Arc<Abbrev>) -> Result<()> {
        let rec = self;
        let plan = abbrev.plan(rec.start_bit)?;
        // LLVM keeps record codes in an `unsigned`.
        rec.code = read_field(cursor, plan.code)? as u32;
        let mut spilled = false;
        for (i, step) in plan.steps.iter().enumerate() {
            match *step {
                Step::Field(f) => {
                    let bit = cursor.position();
                    let v = read_field(cursor, f)?;
                    if !rec.push(v) && !spilled {
                        spilled = true;
                        rec.tail = Tail::Plan { bit, abbrev: abbrev.clone(), step: i };
                    }
                }
                // LLVM lets several blobs appear; the last one is the record's blob.
                Step::Blob => rec.blob = Some(read_blob(cursor)?),
            }
        }
        if let Some(elem) = plan.array {
            let count_bit = cursor.position();
            let count = u64::from(vbr6_32(cursor)?);
            check_array_count(cursor, elem, count, count_bit)?;
            let bit = cursor.position();
            // The scalar count is at most a DEFINE_ABBREV's operand count (a 32-bit VBR).
            rec.array = Some(ArrayInfo { first: rec.len as u32, len: count as u32, bit, elem });
            let mut left = count;
            if !spilled {
                while left > 0 && usize::from(rec.inline_len) < INLINE_OPERANDS {
                    let v = read_element(cursor, elem)?;
                    rec.push(v);
                    left -= 1;
                }
                if left > 0 {
                    rec.tail = Tail::Elements { bit: cursor.position(), elem };
                }
            }
            rec.len += left as usize;
            skip_elements(cursor, elem, left)?;
        }
        rec.end_bit = cursor.position();
        Ok(())
    }
}

/// A vbr6 read as LLVM's 32-bit `ReadVBR(6)` (codes, counts, blob lengths).
#[inline(always)]
fn vbr6_32(cursor: &mut BitCursor<'_>) -> Result<u32> {
    Ok(cursor.read_vbr6(32)? as u32)
}

/// Fewest bits one element of an array can take.
fn min_element_bits(elem: ElementEncoding) -> u64 {
    match elem {
        ElementEncoding::Fixed(w) | ElementEncoding::Vbr(w) => u64::from(w),
        ElementEncoding::Char6 => 6,
    }
}

/// An array count must fit in the bits left, before anything is decoded or reserved for it.
#[inline]
fn check_array_count(cursor: &BitCursor<'_>, elem: ElementEncoding, count: u64, bit: u64) -> Result<()> {
    if count * min_element_bits(elem) > cursor.remaining_bits() {
        return Err(Error::ImplausibleCount { bit, what: "array element", count });
    }
    Ok(())
}

/// What decoding a record into a buffer yields besides the operands.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Parts<'a> {
    pub(crate) code: u32,
    blob: Option<&'a [u8]>,
    /// Index of the first array element in the operands, and the element encoding.
    array: Option<(usize, ElementEncoding)>,
}

/// The operand buffer [`Reader::next_ref`](crate::Reader::next_ref) decodes into.
///
/// Its storage only grows, to the largest record's operand count, and is zero-filled only
/// when it grows: a record's operands are written into slots handed out in one piece, with
/// no per-operand capacity check and no clearing between records.
#[derive(Debug, Default)]
pub(crate) struct OperandBuffer {
    storage: Vec<u64>,
    /// Operands of the current record: `storage[..len]`.
    len: usize,
}

impl OperandBuffer {
    /// Forgets the current record's operands.
    #[inline(always)]
    pub(crate) fn clear(&mut self) {
        self.len = 0;
    }

    /// The current record's operands.
    #[inline(always)]
    pub(crate) fn as_slice(&self) -> &[u64] {
        self.storage.get(..self.len).unwrap_or(&[])
    }

    /// Appends `n` operands, to be filled in by the caller (they hold stale values until
    /// then). `n` must already be checked against the input: it is allocated for.
    #[inline(always)]
    pub(crate) fn append(&mut self, n: usize) -> &mut [u64] {
        let start = self.len;
        let end = start + n;
        if end > self.storage.len() {
            self.grow(end);
        }
        self.len = end;
        &mut self.storage[start..end]
    }

    #[cold]
    #[inline(never)]
    fn grow(&mut self, len: usize) {
        self.storage.resize(len, 0);
    }

    /// Replaces the contents with `ops`.
    pub(crate) fn set(&mut self, ops: impl ExactSizeIterator<Item = u64>) {
        self.clear();
        let slots = self.append(ops.len());
        for (slot, v) in slots.iter_mut().zip(ops) {
            *slot = v;
        }
    }
}

/// Decodes an unabbreviated record (after its abbreviation id), appending its operands.
#[inline]
pub(crate) fn read_unabbreviated_into<'a>(cursor: &mut BitCursor<'a>, ops: &mut OperandBuffer) -> Result<Parts<'a>> {
    in_registers(cursor, |cursor| unabbreviated_into(cursor, ops))
}

/// Runs `decode` on a copy of `cursor` held in a local, then writes the copy back.
///
/// The reader's cursor lives in memory, and the compiler cannot tell that stores into the
/// operand buffer leave it alone, so a decoder working on it directly stores and reloads
/// the bit buffer around every operand, which puts a store-to-load forwarding delay on
/// the serial chain of reads. A local whose address is never taken lives in registers.
#[inline(always)]
fn in_registers<'a, T>(cursor: &mut BitCursor<'a>, decode: impl FnOnce(&mut BitCursor<'a>) -> T) -> T {
    let mut local = *cursor;
    let out = decode(&mut local);
    *cursor = local;
    out
}

#[inline(always)]
fn unabbreviated_into<'a>(cursor: &mut BitCursor<'a>, ops: &mut OperandBuffer) -> Result<Parts<'a>> {
    let code = vbr6_32(cursor)?;
    let count_bit = cursor.position();
    let count = u64::from(vbr6_32(cursor)?);
    // Each operand takes at least 6 bits.
    if count * 6 > cursor.remaining_bits() {
        return Err(Error::ImplausibleCount { bit: count_bit, what: "operand", count });
    }
    read_vbr6_into(cursor, ops.append(count as usize))?;
    Ok(Parts { code, blob: None, array: None })
}

/// Fills `slots` with VBR6 values, two per refill.
#[inline(always)]
fn read_vbr6_into(cursor: &mut BitCursor<'_>, slots: &mut [u64]) -> Result<()> {
    let mut pairs = slots.chunks_exact_mut(2);
    for pair in &mut pairs {
        pair.copy_from_slice(&cursor.read_vbr6_pair()?);
    }
    for slot in pairs.into_remainder() {
        *slot = cursor.read_vbr6(64)?;
    }
    Ok(())
}

/// Decodes a record written with `abbrev` (after its abbreviation id at `start`),
/// appending its operands (array elements included) to `ops`.
#[inline]
pub(crate) fn read_abbreviated_into<'a>(
    cursor: &mut BitCursor<'a>,
    abbrev: &Abbrev,
    start: u64,
    ops: &mut OperandBuffer,
) -> Result<Parts<'a>> {
    in_registers(cursor, |cursor| abbreviated_into(cursor, abbrev, start, ops))
}

#[inline(always)]
fn abbreviated_into<'a>(
    cursor: &mut BitCursor<'a>,
    abbrev: &Abbrev,
    start: u64,
    ops: &mut OperandBuffer,
) -> Result<Parts<'a>> {
    let plan = abbrev.plan(start)?;
    let mut blob = None;
    let packed = plan.packed.as_ref().and_then(|p| Some((p, cursor.take_packed(p.bits, p.cont)?)));
    // LLVM keeps record codes in an `unsigned`.
    let code = if let Some((packed, word)) = packed {
        for (slot, field) in ops.append(packed.fields.len()).iter_mut().zip(packed.fields.iter()) {
            *slot = field.get(word);
        }
        packed.code.get(word) as u32
    } else {
        let code = read_field(cursor, plan.code)? as u32;
        let mut slots = ops.append(plan.scalars).iter_mut();
        for step in plan.steps.iter() {
            match *step {
                Step::Field(f) => {
                    let v = read_field(cursor, f)?;
                    if let Some(slot) = slots.next() {
                        *slot = v;
                    }
                }
                Step::Blob => blob = Some(read_blob(cursor)?),
            }
        }
        code
    };
    let mut array = None;
    if let Some(elem) = plan.array {
        let count_bit = cursor.position();
        let count = u64::from(vbr6_32(cursor)?);
        check_array_count(cursor, elem, count, count_bit)?;
        array = Some((ops.len, elem));
        let slots = ops.append(count as usize);
        match elem {
            ElementEncoding::Fixed(w) => {
                for slot in slots {
                    *slot = cursor.read(w)?;
                }
            }
            ElementEncoding::Vbr(6) => read_vbr6_into(cursor, slots)?,
            ElementEncoding::Vbr(w) => {
                for slot in slots {
                    *slot = cursor.read_vbr_unchecked_width(w, 64)?;
                }
            }
            ElementEncoding::Char6 => {
                for slot in slots {
                    *slot = u64::from(crate::cursor::decode_char6(cursor.read(6)?));
                }
            }
        }
    }
    Ok(Parts { code, blob, array })
}

/// A record whose operands are all decoded, borrowed from the reader's buffer. See
/// [`Reader::next_ref`](crate::Reader::next_ref). Operands are numbered as in
/// [`Record`]; every access is O(1).
#[derive(Clone, Copy, Debug)]
pub struct RecordRef<'r, 'a> {
    pub(crate) data: &'a [u8],
    pub(crate) start_bit: u64,
    pub(crate) end_bit: u64,
    pub(crate) abbrev_id: u32,
    pub(crate) parts: Parts<'a>,
    pub(crate) ops: &'r [u64],
}

impl<'r, 'a> RecordRef<'r, 'a> {
    /// The record code.
    #[inline]
    pub fn code(&self) -> u32 {
        self.parts.code
    }

    /// The abbreviation id the record was written with (3 when unabbreviated).
    #[inline]
    pub fn abbrev_id(&self) -> u32 {
        self.abbrev_id
    }

    /// Every operand (array elements included, code and blob not).
    #[inline]
    pub fn operands(&self) -> &'r [u64] {
        self.ops
    }

    /// Operand `i`, or `None` past the end.
    #[inline]
    pub fn operand(&self, i: usize) -> Option<u64> {
        self.ops.get(i).copied()
    }

    /// Operand `i` decoded as LLVM's sign-rotated VBR.
    pub fn signed_operand(&self, i: usize) -> Option<i64> {
        self.operand(i).map(decode_sign_rotated)
    }

    /// Number of operands.
    #[inline]
    pub fn len(&self) -> usize {
        self.ops.len()
    }

    /// Whether the record has no operands.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.ops.is_empty()
    }

    /// The array elements, if the abbreviation has an array (they are the last operands).
    pub fn array(&self) -> Option<&'r [u64]> {
        self.parts.array.and_then(|(first, _)| self.ops.get(first..))
    }

    /// How the array's elements are encoded, if there is an array.
    pub fn array_encoding(&self) -> Option<ElementEncoding> {
        self.parts.array.map(|(_, e)| e)
    }

    /// The blob, borrowed from the input.
    #[inline]
    pub fn blob(&self) -> Option<&'a [u8]> {
        self.parts.blob
    }

    /// Bit offset of the record's abbreviation id.
    pub fn bit_offset(&self) -> u64 {
        self.start_bit
    }

    /// The record's raw bits, abbreviation id included.
    pub fn bits(&self) -> &'a BitSlice<u8, Lsb0> {
        BitCursor::new(self.data).bits(self.start_bit, self.end_bit).unwrap_or_default()
    }
}

/// Reads a blob: vbr6 length, alignment to 32 bits, the bytes, padding to 32 bits.
#[inline(always)]
pub(crate) fn read_blob<'a>(cursor: &mut BitCursor<'a>) -> Result<&'a [u8]> {
    let (moved, blob) = blob_from(*cursor);
    *cursor = moved;
    blob
}

/// [`read_blob`] by value, so that the caller's cursor can stay in registers.
#[inline(never)]
fn blob_from(mut cursor: BitCursor<'_>) -> (BitCursor<'_>, Result<&[u8]>) {
    let blob = read_blob_at(&mut cursor);
    (cursor, blob)
}

/// The body of [`read_blob`].
fn read_blob_at<'a>(cursor: &mut BitCursor<'a>) -> Result<&'a [u8]> {
    let len = u64::from(vbr6_32(cursor)?);
    cursor.align32()?;
    let bit = cursor.position();
    let padded = len.div_ceil(4) * 4;
    if padded * 8 > cursor.remaining_bits() {
        return Err(Error::BlobTooLong { bit, len });
    }
    let bytes = cursor.peek_bytes(len).ok_or(Error::BlobTooLong { bit, len })?;
    cursor.skip(padded * 8)?;
    Ok(bytes)
}

/// Skips a blob (for re-decoding tails).
fn skip_blob(cursor: &mut BitCursor<'_>) -> Result<()> {
    read_blob(cursor).map(|_| ())
}

/// Decodes LLVM's sign-rotated VBR encoding of signed values (`decodeSignRotatedValue`):
/// even values are `v >> 1`, odd values are `-(v >> 1)`, and `1` is `i64::MIN`.
#[inline]
pub fn decode_sign_rotated(v: u64) -> i64 {
    if v & 1 == 0 {
        (v >> 1) as i64
    } else if v != 1 {
        -((v >> 1) as i64)
    } else {
        i64::MIN
    }
}

/// Iterator over a record's operands. See [`Record::operands`].
#[derive(Clone, Debug)]
pub struct Operands<'r, 'a> {
    record: &'r Record<'a>,
    index: usize,
    tail: Option<TailDecoder<'r, 'a>>,
}

/// Re-decodes the operands that did not fit inline.
#[derive(Clone, Debug)]
struct TailDecoder<'r, 'a> {
    cursor: BitCursor<'a>,
    /// For plan tails: the abbreviation and the next step.
    plan: Option<(&'r Abbrev, usize)>,
    /// The element encoding once the array is reached.
    elem: Option<ElementEncoding>,
    /// For vbr6 tails.
    vbr6: bool,
}

impl<'r, 'a> TailDecoder<'r, 'a> {
    fn new(record: &'r Record<'a>) -> Option<Self> {
        let (bit, plan, elem, vbr6) = match &record.tail {
            Tail::None => return None,
            Tail::Vbr6 { bit } => (*bit, None, None, true),
            Tail::Elements { bit, elem } => (*bit, None, Some(*elem), false),
            Tail::Plan { bit, abbrev, step } => (*bit, Some((&**abbrev, *step)), None, false),
        };
        let cursor = BitCursor::at(record.data, bit).ok()?;
        Some(TailDecoder { cursor, plan, elem, vbr6 })
    }

    fn next_value(&mut self) -> Result<Option<u64>> {
        if self.vbr6 {
            return self.cursor.read_vbr6(64).map(Some);
        }
        if let Some(elem) = self.elem {
            return read_element(&mut self.cursor, elem).map(Some);
        }
        let Some((abbrev, step)) = self.plan.as_mut() else { return Ok(None) };
        let plan = abbrev.plan(0)?;
        while let Some(s) = plan.steps.get(*step) {
            *step += 1;
            match *s {
                Step::Field(f) => return read_field(&mut self.cursor, f).map(Some),
                Step::Blob => skip_blob(&mut self.cursor)?,
            }
        }
        // Past the scalar steps: the array, if any.
        let Some(elem) = plan.array else { return Ok(None) };
        self.cursor.read_vbr32(6)?;
        self.elem = Some(elem);
        read_element(&mut self.cursor, elem).map(Some)
    }
}

impl Iterator for Operands<'_, '_> {
    type Item = u64;

    #[inline]
    fn next(&mut self) -> Option<u64> {
        let r = self.record;
        if self.index < usize::from(r.inline_len) {
            let v = r.inline[self.index];
            self.index += 1;
            return Some(v);
        }
        if self.index >= r.len {
            return None;
        }
        if self.tail.is_none() {
            self.tail = TailDecoder::new(r);
        }
        // The record was fully checked when it was read, so re-decoding cannot fail; if
        // it somehow did, the iterator ends rather than panicking.
        let v = self.tail.as_mut()?.next_value().ok().flatten()?;
        self.index += 1;
        Some(v)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.record.len - self.index;
        (n, Some(n))
    }

    fn nth(&mut self, n: usize) -> Option<u64> {
        // Skip inline operands in O(1).
        let inline_left = usize::from(self.record.inline_len).saturating_sub(self.index);
        if n < inline_left {
            self.index += n;
            return self.next();
        }
        self.index += inline_left;
        for _ in inline_left..n {
            self.next()?;
        }
        self.next()
    }
}

impl ExactSizeIterator for Operands<'_, '_> {}

/// A record's array operand. See [`Record::array`].
#[derive(Clone, Copy, Debug)]
pub struct Array<'a> {
    data: &'a [u8],
    bit: u64,
    len: usize,
    elem: ElementEncoding,
    first: usize,
}

impl<'a> Array<'a> {
    /// Number of elements.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the array is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// How the elements are encoded.
    pub fn encoding(&self) -> ElementEncoding {
        self.elem
    }

    /// Index of the first element among the record's operands.
    pub fn first_operand(&self) -> usize {
        self.first
    }

    /// The elements (char6 elements as ASCII).
    pub fn iter(&self) -> ArrayIter<'a> {
        ArrayIter { cursor: BitCursor::at(self.data, self.bit).ok(), left: self.len, elem: self.elem }
    }

    /// Whether the elements are characters: char6, or fixed-width of 7 or 8 bits.
    pub fn is_text(&self) -> bool {
        matches!(self.elem, ElementEncoding::Char6 | ElementEncoding::Fixed(7) | ElementEncoding::Fixed(8))
    }

    /// The elements as text (each element truncated to a byte; invalid UTF-8 replaced).
    /// Allocates.
    pub fn to_text(&self) -> String {
        let bytes: Vec<u8> = self.iter().map(|v| v as u8).collect();
        String::from_utf8_lossy(&bytes).into_owned()
    }

    /// The elements' raw bits.
    pub fn bits(&self) -> &'a BitSlice<u8, Lsb0> {
        let width = match self.elem {
            ElementEncoding::Fixed(w) => Some(u64::from(w)),
            ElementEncoding::Char6 => Some(6),
            ElementEncoding::Vbr(_) => None,
        };
        let end = match width {
            Some(w) => self.bit + w * self.len as u64,
            None => {
                let mut c = self.iter();
                for _ in c.by_ref() {}
                c.cursor.map_or(self.bit, |c| c.position())
            }
        };
        BitCursor::new(self.data).bits(self.bit, end).unwrap_or_default()
    }
}

impl<'a> IntoIterator for Array<'a> {
    type Item = u64;
    type IntoIter = ArrayIter<'a>;
    fn into_iter(self) -> ArrayIter<'a> {
        self.iter()
    }
}

/// Iterator over an array's elements. See [`Array::iter`].
#[derive(Clone, Debug)]
pub struct ArrayIter<'a> {
    cursor: Option<BitCursor<'a>>,
    left: usize,
    elem: ElementEncoding,
}

impl Iterator for ArrayIter<'_> {
    type Item = u64;

    #[inline]
    fn next(&mut self) -> Option<u64> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        read_element(self.cursor.as_mut()?, self.elem).ok()
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl ExactSizeIterator for ArrayIter<'_> {}
