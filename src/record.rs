//! Records: the one decoder, and the views handed to users.
//!
//! Every record is decoded by [`decode`], generic over where its operands go (a
//! [`Sink`]): the reader's reusable buffer ([`Reader::read_record`],
//! [`Reader::next_ref`]), nowhere ([`Reader::skip_record`]), the few operands an owned
//! [`Record`] keeps inline (the `Iterator`), or a window of operands asked for later.
//! The fast paths (operands packed in one word, vbr6 values two per refill, fixed arrays
//! skipped in O(1)) serve all of them.
//!
//! Both record views deref to [`RecordInfo`], which holds what they share: the code, the
//! abbreviation and block ids, where the record is, its blob and its array.
//!
//! [`Reader::read_record`]: crate::Reader::read_record
//! [`Reader::next_ref`]: crate::Reader::next_ref
//! [`Reader::skip_record`]: crate::Reader::skip_record

use alloc::string::String;
use alloc::sync::Arc;
use alloc::vec::Vec;
use core::ops::Deref;

use bitvec::prelude::{BitSlice, Lsb0};

use crate::abbrev::{Abbrev, ElementEncoding, Step, read_element, read_field, skip_elements};
use crate::cursor::BitCursor;
use crate::error::{Error, Result};
use crate::limits::{INLINE_OPERANDS, MAX_RECORD_OPERANDS};

/// The abbreviation id of unabbreviated records.
pub const UNABBREV_RECORD: u32 = 3;

/// Where the operands a sink did not keep are, so that they can be decoded later.
pub(crate) enum Rest<'r> {
    /// They are array elements (or unabbreviated vbr6 operands) from `bit` on.
    Elements { bit: u64 },
    /// They start among the scalar operands of a record written with this abbreviation.
    Scalars(&'r Arc<Abbrev>),
}

/// Where [`decode`] puts a record's operands.
///
/// The decoder fills runs of operands the sink has room for in bulk ([`Sink::slots`]);
/// past its room it offers them one at a time ([`Sink::slot`]) until the sink takes no
/// more, tells it where the rest are ([`Sink::spill`]), and skips them.
pub(crate) trait Sink {
    /// The sink keeps no operand at all: the decoder only finds where the record ends.
    const KEEPS_NOTHING: bool = false;

    /// The sink keeps every operand ([`Sink::room`] is unlimited).
    const KEEPS_ALL: bool = false;

    /// How many more operands the sink takes in bulk.
    fn room(&self) -> usize;

    /// `n` slots for the next operands, `n` at most [`Sink::room`].
    fn slots(&mut self, n: usize) -> &mut [u64];

    /// A slot for the next operand, or `None` if the sink takes no more.
    fn slot(&mut self) -> Option<&mut u64>;

    /// Whether [`Sink::slot`] would answer `None`.
    fn is_full(&self) -> bool;

    /// Told at the first operand the sink did not take, where the rest are.
    #[inline(always)]
    fn spill(&mut self, _rest: Rest<'_>) {}
}

/// A sink that keeps nothing: the decoder then only finds where the record ends.
pub(crate) struct Skip;

impl Sink for Skip {
    const KEEPS_NOTHING: bool = true;

    #[inline(always)]
    fn room(&self) -> usize {
        0
    }

    #[inline(always)]
    fn slots(&mut self, _n: usize) -> &mut [u64] {
        &mut []
    }

    #[inline(always)]
    fn slot(&mut self) -> Option<&mut u64> {
        None
    }

    #[inline(always)]
    fn is_full(&self) -> bool {
        true
    }
}

/// What decoding a record yields besides its operands, packed small: an owned
/// [`Record`] carries it through the `Iterator`, where every byte of the event is copied.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Parts<'a> {
    pub(crate) code: u32,
    /// Number of operands (scalars and array elements): at most
    /// [`MAX_RECORD_OPERANDS`](crate::limits::MAX_RECORD_OPERANDS).
    len: u32,
    /// The array's element count.
    array_len: u32,
    /// The array's element encoding ([`ElementEncoding`] packed; kind 0: no array).
    array_kind: u8,
    array_width: u8,
    /// Bit offset of the array's first element.
    array_bit: u64,
    pub(crate) blob: Option<&'a [u8]>,
}

impl<'a> Parts<'a> {
    fn new(code: u32, len: u64, blob: Option<&'a [u8]>) -> Self {
        // Callers checked `len` against MAX_RECORD_OPERANDS.
        Parts { code, len: len as u32, array_len: 0, array_kind: 0, array_width: 0, array_bit: 0, blob }
    }

    /// The operand count.
    #[inline(always)]
    pub(crate) fn len(&self) -> usize {
        self.len as usize
    }

    /// The array: its first element's bit, its length, its element encoding and the
    /// operand index of its first element.
    #[inline]
    fn array(&self) -> Option<(u64, usize, ElementEncoding, usize)> {
        let width = u32::from(self.array_width);
        let elem = match self.array_kind {
            1 => ElementEncoding::Fixed(width),
            2 => ElementEncoding::Vbr(width),
            3 => ElementEncoding::Char6,
            _ => return None,
        };
        let len = self.array_len as usize;
        Some((self.array_bit, len, elem, self.len() - len))
    }

    fn set_array(&mut self, bit: u64, len: u32, elem: ElementEncoding) {
        // Widths are at most 64 (`Abbrev` checks them).
        (self.array_kind, self.array_width) = match elem {
            ElementEncoding::Fixed(w) => (1, w as u8),
            ElementEncoding::Vbr(w) => (2, w as u8),
            ElementEncoding::Char6 => (3, 0),
        };
        (self.array_bit, self.array_len) = (bit, len);
    }
}

/// Decodes the record written with abbreviation `abbrev` (`None`: unabbreviated) whose
/// abbreviation id is at `start` and whose body `cursor` is at, giving its operands to
/// `sink`. The one record decoder: every API reads records through it.
#[inline(always)]
pub(crate) fn decode<'a, S: Sink>(
    cursor: &mut BitCursor<'a>,
    abbrev: Option<&Arc<Abbrev>>,
    start: u64,
    sink: &mut S,
) -> Result<Parts<'a>> {
    let mut parts = Parts::new(0, 0, None);
    decode_into(cursor, abbrev, start, sink, &mut parts)?;
    Ok(parts)
}

/// [`decode`], writing what it yields besides the operands into `parts` in place (an owned
/// record's own fields: built there, they are not copied on their way, and no later copy
/// of the record has to wait for a store of each field to reach memory).
#[inline(always)]
pub(crate) fn decode_into<'a, S: Sink>(
    cursor: &mut BitCursor<'a>,
    abbrev: Option<&Arc<Abbrev>>,
    start: u64,
    sink: &mut S,
    parts: &mut Parts<'a>,
) -> Result<()> {
    in_registers(cursor, |cursor| match abbrev {
        None => unabbreviated(cursor, sink, parts),
        Some(abbrev) => abbreviated(cursor, abbrev, start, sink, parts),
    })
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

/// A vbr6 read as LLVM's 32-bit `ReadVBR(6)` (codes, counts, blob lengths).
#[inline(always)]
fn vbr6_32(cursor: &mut BitCursor<'_>) -> Result<u32> {
    Ok(cursor.read_vbr6(32)? as u32)
}

#[inline(always)]
fn unabbreviated<'a, S: Sink>(cursor: &mut BitCursor<'a>, sink: &mut S, parts: &mut Parts<'a>) -> Result<()> {
    let code = vbr6_32(cursor)?;
    let count_bit = cursor.position();
    let count = u64::from(vbr6_32(cursor)?);
    // Each operand takes at least 6 bits.
    if count * 6 > cursor.remaining_bits() {
        return Err(Error::ImplausibleCount { bit: count_bit, what: "operand", count });
    }
    (parts.code, parts.len) = (code, count as u32);
    elements(cursor, ElementEncoding::Vbr(6), count, sink)
}

#[inline(always)]
fn abbreviated<'a, S: Sink>(
    cursor: &mut BitCursor<'a>,
    abbrev: &Arc<Abbrev>,
    start: u64,
    sink: &mut S,
    parts: &mut Parts<'a>,
) -> Result<()> {
    let plan = abbrev.plan(start)?;
    let mut blob = None;
    let packed = plan.packed.as_ref().and_then(|p| Some((p, cursor.take_packed(p.bits, p.cont)?)));
    // LLVM keeps record codes in an `unsigned`.
    let code = if let Some((packed, word)) = packed {
        let fields = &packed.fields;
        if S::KEEPS_NOTHING {
        } else if S::KEEPS_ALL || sink.room() >= fields.len() {
            for (slot, field) in sink.slots(fields.len()).iter_mut().zip(fields.iter()) {
                *slot = field.get(word);
            }
        } else {
            let mut kept = true;
            for field in fields.iter() {
                kept = kept && offer(sink, field.get(word), || Rest::Scalars(abbrev));
            }
        }
        packed.code.get(word) as u32
    } else {
        let code = read_field(cursor, plan.code)? as u32;
        if S::KEEPS_NOTHING {
            for step in plan.steps.iter() {
                match *step {
                    Step::Field(f) => drop(read_field(cursor, f)?),
                    Step::Blob => blob = Some(read_blob(cursor)?),
                }
            }
        } else if S::KEEPS_ALL || sink.room() >= plan.scalars {
            let mut slots = sink.slots(plan.scalars).iter_mut();
            for step in plan.steps.iter() {
                match *step {
                    Step::Field(f) => {
                        let v = read_field(cursor, f)?;
                        if let Some(slot) = slots.next() {
                            *slot = v;
                        }
                    }
                    // LLVM lets several blobs appear; the last one is the record's blob.
                    Step::Blob => blob = Some(read_blob(cursor)?),
                }
            }
        } else {
            let mut kept = true;
            for step in plan.steps.iter() {
                match *step {
                    Step::Field(f) => {
                        let v = read_field(cursor, f)?;
                        kept = kept && offer(sink, v, || Rest::Scalars(abbrev));
                    }
                    Step::Blob => blob = Some(read_blob(cursor)?),
                }
            }
        }
        code
    };
    (parts.code, parts.blob) = (code, blob);
    // At most a DEFINE_ABBREV's operand count (a 32-bit VBR).
    parts.len = plan.scalars as u32;
    let Some(elem) = plan.array else { return Ok(()) };
    let count_bit = cursor.position();
    let count = u64::from(vbr6_32(cursor)?);
    let min_bits = match elem {
        ElementEncoding::Fixed(w) | ElementEncoding::Vbr(w) => u64::from(w),
        ElementEncoding::Char6 => 6,
    };
    // The count must fit in the bits left before anything is decoded or kept for it.
    if count * min_bits > cursor.remaining_bits() {
        return Err(Error::ImplausibleCount { bit: count_bit, what: "array element", count });
    }
    let len = plan.scalars as u64 + count;
    if len > MAX_RECORD_OPERANDS {
        return Err(Error::ImplausibleCount { bit: count_bit, what: "operand", count: len });
    }
    parts.len = len as u32;
    parts.set_array(cursor.position(), count as u32, elem);
    elements(cursor, elem, count, sink)
}

/// Offers one operand to a sink that may be full: returns whether it was taken, and tells
/// the sink where the rest are if not.
#[inline(always)]
fn offer<'r, S: Sink>(sink: &mut S, v: u64, rest: impl FnOnce() -> Rest<'r>) -> bool {
    match sink.slot() {
        Some(slot) => {
            *slot = v;
            true
        }
        None => {
            sink.spill(rest());
            false
        }
    }
}

/// Decodes `count` elements encoded as `elem`, giving them to `sink`; the ones it does not
/// take are skipped (in O(1) when their width is fixed).
#[inline(always)]
fn elements<S: Sink>(cursor: &mut BitCursor<'_>, elem: ElementEncoding, count: u64, sink: &mut S) -> Result<()> {
    if S::KEEPS_NOTHING {
        return skip_elements(cursor, elem, count);
    }
    // `count` was checked against the input, so it fits in a usize.
    let bulk = if S::KEEPS_ALL { count as usize } else { sink.room().min(count as usize) };
    let slots = sink.slots(bulk);
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
    if S::KEEPS_ALL || bulk as u64 == count {
        Ok(())
    } else {
        elements_past_room(cursor, elem, count - bulk as u64, sink)
    }
}

/// The elements past a sink's room: given one by one while it takes them, then skipped.
#[inline(never)]
fn elements_past_room<S: Sink>(
    cursor: &mut BitCursor<'_>,
    elem: ElementEncoding,
    count: u64,
    sink: &mut S,
) -> Result<()> {
    let mut left = count;
    while left > 0 {
        if sink.is_full() {
            sink.spill(Rest::Elements { bit: cursor.position() });
            return skip_elements(cursor, elem, left);
        }
        let v = read_element(cursor, elem)?;
        if let Some(slot) = sink.slot() {
            *slot = v;
        }
        left -= 1;
    }
    Ok(())
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

/// Decodes LLVM's sign-rotated VBR encoding of signed values (`decodeSignRotatedValue`):
/// even values are `v >> 1`, odd values are `-(v >> 1)`, and `1` is `i64::MIN`.
/// The one implementation: the IR layer's constants, attributes and debug-info integers
/// and LLVM 1.x bytecode's `int64_vbr` (`legacy::decode_signed_vbr`) all use it.
#[inline]
pub const fn decode_sign_rotated(v: u64) -> i64 {
    // v >> 1 is at most 2^63 - 1: the casts are lossless.
    if v & 1 == 0 {
        (v >> 1) as i64
    } else if v != 1 {
        -((v >> 1) as i64)
    } else {
        i64::MIN
    }
}

/// Decodes the other signed encoding LLVM's metadata uses (`unrotateSign` in
/// `MetadataLoader.cpp`, written by `rotateSign`): a negative `i` is `!(i << 1)`, so odd
/// values are `!(v >> 1)` and `1` is `-1`. DISubrange's lower bound and DIEnumerator's
/// 64-bit value use it, where `decode_sign_rotated` would misread them.
#[inline]
#[cfg_attr(not(feature = "ir"), allow(dead_code))]
pub(crate) const fn unrotate_sign(v: u64) -> i64 {
    if v & 1 != 0 { !((v >> 1) as i64) } else { (v >> 1) as i64 }
}

/// The operand buffer [`Reader::read_record`](crate::Reader::read_record) decodes into.
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

    #[cold]
    #[inline(never)]
    fn grow(&mut self, len: usize) {
        self.storage.resize(len, 0);
    }
}

impl Sink for OperandBuffer {
    const KEEPS_ALL: bool = true;

    #[inline(always)]
    fn room(&self) -> usize {
        usize::MAX
    }

    #[inline(always)]
    fn slot(&mut self) -> Option<&mut u64> {
        self.slots(1).first_mut()
    }

    #[inline(always)]
    fn is_full(&self) -> bool {
        false
    }

    /// `n` slots (they hold stale values until the decoder fills them). `n` was checked
    /// against the input by the decoder: it is allocated for.
    #[inline(always)]
    fn slots(&mut self, n: usize) -> &mut [u64] {
        let start = self.len;
        let end = start + n;
        if end > self.storage.len() {
            self.grow(end);
        }
        self.len = end;
        &mut self.storage[start..end]
    }
}

/// What both record views share: everything but how the operands are held. [`Record`]
/// and [`RecordRef`] deref to it.
#[derive(Clone, Copy, Debug)]
pub struct RecordInfo<'a> {
    data: &'a [u8],
    start_bit: u64,
    end_bit: u64,
    block_id: u32,
    abbrev_id: u32,
    parts: Parts<'a>,
}

impl<'a> RecordInfo<'a> {
    /// The view of a record that `decode` read from `start_bit` to `end_bit`.
    #[inline(always)]
    pub(crate) fn new(
        data: &'a [u8],
        (start_bit, end_bit): (u64, u64),
        block_id: u32,
        abbrev_id: u32,
        parts: Parts<'a>,
    ) -> Self {
        RecordInfo { data, start_bit, end_bit, block_id, abbrev_id, parts }
    }

    /// The record code.
    #[inline]
    pub fn code(&self) -> u32 {
        self.parts.code
    }

    /// The id of the block the record is in.
    #[inline]
    pub fn block_id(&self) -> crate::ids::BlockId {
        crate::ids::BlockId(self.block_id)
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
        self.parts.len()
    }

    /// Whether the record has no operands.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.parts.len == 0
    }

    /// The blob, borrowed from the input, if the record's abbreviation has one.
    #[inline]
    pub fn blob(&self) -> Option<&'a [u8]> {
        self.parts.blob
    }

    /// The array operand, if the record's abbreviation has one: its elements are the
    /// record's last operands, from [`Array::first_operand`] on.
    pub fn array(&self) -> Option<Array<'a>> {
        self.parts.array().map(|(bit, len, elem, first)| Array { data: self.data, bit, len, elem, first })
    }

    /// Bit offset of the record's abbreviation id (from the start of the stream).
    #[inline]
    pub fn bit_offset(&self) -> u64 {
        self.start_bit
    }

    /// Bit offset just past the record.
    #[inline]
    pub fn end_bit_offset(&self) -> u64 {
        self.end_bit
    }

    /// The record's raw bits, abbreviation id included.
    pub fn bits(&self) -> &'a BitSlice<u8, Lsb0> {
        BitCursor::new(self.data).bits(self.start_bit, self.end_bit).unwrap_or_default()
    }
}

/// Operands as bytes (each truncated to 8 bits, as LLVM does for names), as lossy UTF-8.
fn text(ops: impl Iterator<Item = u64>) -> String {
    let bytes: Vec<u8> = ops.map(|v| v as u8).collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

/// A record whose operands are all decoded, borrowed from the reader's buffer: see
/// [`Reader::next_ref`](crate::Reader::next_ref) and
/// [`Reader::read_record`](crate::Reader::read_record). Every operand access is O(1);
/// the rest of the view is [`RecordInfo`]'s.
#[derive(Clone, Copy, Debug)]
pub struct RecordRef<'r, 'a> {
    pub(crate) info: RecordInfo<'a>,
    pub(crate) ops: &'r [u64],
}

impl<'a> Deref for RecordRef<'_, 'a> {
    type Target = RecordInfo<'a>;

    #[inline(always)]
    fn deref(&self) -> &RecordInfo<'a> {
        &self.info
    }
}

impl<'r> RecordRef<'r, '_> {
    /// Every operand (array elements included, code and blob not), as an iterator, as
    /// on every record view ([`Record::operands`]).
    #[inline]
    pub fn operands(&self) -> core::iter::Copied<core::slice::Iter<'r, u64>> {
        self.ops.iter().copied()
    }

    /// Every operand as a slice of the reader's buffer: what this view has that an owned
    /// [`Record`] has not.
    #[inline]
    pub fn operand_slice(&self) -> &'r [u64] {
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

    /// The array's elements, if the abbreviation has an array (the last operands).
    pub fn array_operands(&self) -> Option<&'r [u64]> {
        self.parts.array().and_then(|(_, _, _, first)| self.ops.get(first..))
    }

    /// The operands from `first` on as text (each truncated to a byte, as LLVM does for
    /// names; invalid UTF-8 replaced). Allocates.
    pub fn text_from(&self, first: usize) -> String {
        text(self.ops.get(first..).unwrap_or(&[]).iter().copied())
    }
}

/// Where the operands an owned [`Record`] does not hold inline are decoded from.
#[derive(Clone, Debug)]
enum Tail {
    /// Every operand is inline.
    None,
    /// The rest are elements from this bit on: the array's, or an unabbreviated record's
    /// vbr6 operands.
    Elements(u64),
    /// The rest start among the scalars: decode the record again, from its body, which
    /// starts this many bits (the abbreviation id's width) after the record.
    Scalars(Arc<Abbrev>, u8),
}

/// One record, owned: what the reader's `Iterator` yields. It keeps the first
/// [`INLINE_OPERANDS`] operands inline and decodes the rest again from the input when
/// asked for (the record was checked when it was read). The rest of the view is
/// [`RecordInfo`]'s.
///
/// Operands are numbered as LLVM's `readRecord` returns them: the code is not an
/// operand, array elements are operands in their place (char6 as ASCII), and a blob is
/// not an operand (see [`RecordInfo::blob`]). Access is tolerant, as bitstream formats
/// evolve by adding trailing fields: [`Record::operand`] returns `None` past the end.
#[derive(Clone, Debug)]
pub struct Record<'a> {
    info: RecordInfo<'a>,
    /// The first operands: `min(len, INLINE_OPERANDS)` of them (the sink fills every slot
    /// before it gives up an operand).
    inline: [u64; INLINE_OPERANDS],
    tail: Tail,
}

impl<'a> Deref for Record<'a> {
    type Target = RecordInfo<'a>;

    #[inline(always)]
    fn deref(&self) -> &RecordInfo<'a> {
        &self.info
    }
}

/// The sink of an owned record: its inline operands, then where the rest are.
struct Inline<'x> {
    ops: &'x mut [u64; INLINE_OPERANDS],
    len: usize,
    tail: &'x mut Tail,
    /// Width of the record's abbreviation id (at most 64).
    id_width: u8,
}

impl Sink for Inline<'_> {
    #[inline(always)]
    fn room(&self) -> usize {
        INLINE_OPERANDS - self.len
    }

    #[inline(always)]
    fn slots(&mut self, n: usize) -> &mut [u64] {
        let start = self.len;
        self.len = (start + n).min(INLINE_OPERANDS);
        &mut self.ops[start..self.len]
    }

    #[inline(always)]
    fn slot(&mut self) -> Option<&mut u64> {
        let slot = self.ops.get_mut(self.len)?;
        self.len += 1;
        Some(slot)
    }

    #[inline(always)]
    fn is_full(&self) -> bool {
        self.len == INLINE_OPERANDS
    }

    fn spill(&mut self, rest: Rest<'_>) {
        if !matches!(self.tail, Tail::None) {
            return;
        }
        *self.tail = match rest {
            Rest::Elements { bit } => Tail::Elements(bit),
            Rest::Scalars(abbrev) => Tail::Scalars(abbrev.clone(), self.id_width),
        };
    }
}

impl<'a> Record<'a> {
    /// A record of block `block_id` with abbreviation id `abbrev_id` at `start`, nothing
    /// decoded yet: [`Record::fill`] decodes it in place, so that the event that returns
    /// it is built where it is returned to rather than moved there.
    #[inline(always)]
    pub(crate) fn empty(data: &'a [u8], start: u64, block_id: u32, abbrev_id: u32) -> Self {
        Record {
            info: RecordInfo::new(data, (start, start), block_id, abbrev_id, Parts::new(0, 0, None)),
            inline: [0; INLINE_OPERANDS],
            tail: Tail::None,
        }
    }

    /// Decodes the record (from [`Record::empty`]) whose body `cursor` is at.
    #[inline(always)]
    pub(crate) fn fill(&mut self, cursor: &mut BitCursor<'a>, abbrev: Option<&Arc<Abbrev>>) -> Result<()> {
        // At most 64 (the widest abbreviation id).
        let id_width = (cursor.position() - self.info.start_bit) as u8;
        let mut sink = Inline { ops: &mut self.inline, len: 0, tail: &mut self.tail, id_width };
        decode_into(cursor, abbrev, self.info.start_bit, &mut sink, &mut self.info.parts)?;
        self.info.end_bit = cursor.position();
        Ok(())
    }

    /// The operands held inline (the first ones).
    #[inline]
    fn inline(&self) -> &[u64] {
        &self.inline[..self.len().min(INLINE_OPERANDS)]
    }

    /// How the elements of an [`Tail::Elements`] tail are encoded.
    fn tail_elements(&self) -> ElementEncoding {
        self.parts.array().map_or(ElementEncoding::Vbr(6), |(_, _, elem, _)| elem)
    }

    /// Operand `i`, or `None` if the record has no such operand.
    ///
    /// O(1) for the first [`INLINE_OPERANDS`](crate::limits::INLINE_OPERANDS) operands
    /// and for fixed-width array elements; others are decoded from the input.
    #[inline]
    pub fn operand(&self, i: usize) -> Option<u64> {
        if let Some(&v) = self.inline().get(i) {
            return Some(v);
        }
        if i >= self.len() {
            return None;
        }
        let past = (i - self.inline().len()) as u64;
        let width = match self.tail_elements() {
            ElementEncoding::Fixed(w) => u64::from(w),
            ElementEncoding::Char6 => 6,
            ElementEncoding::Vbr(_) => 0,
        };
        match self.tail {
            Tail::Elements(bit) if width > 0 => {
                let mut cursor = BitCursor::at(self.data, bit + past * width).ok()?;
                read_element(&mut cursor, self.tail_elements()).ok()
            }
            _ => self.operands().nth(i),
        }
    }

    /// Operand `i` decoded as LLVM's sign-rotated VBR (see [`decode_sign_rotated`]).
    pub fn signed_operand(&self, i: usize) -> Option<i64> {
        self.operand(i).map(decode_sign_rotated)
    }

    /// All operands, in order.
    pub fn operands(&self) -> Operands<'_, 'a> {
        Operands::new(self)
    }

    /// The operands from `first` on as text (each truncated to a byte, as LLVM does for
    /// names; invalid UTF-8 replaced). Allocates.
    pub fn text_from(&self, first: usize) -> String {
        text(self.operands().skip(first))
    }
}

/// Operands decoded again from a record's body, `WINDOW` at a time.
const WINDOW: usize = 16;

/// The sink that decodes operands `skip..skip + WINDOW` of a record again.
struct Window {
    skip: usize,
    /// Where skipped values go.
    scratch: u64,
    values: [u64; WINDOW],
    len: usize,
}

impl Sink for Window {
    /// Everything goes through [`Sink::slot`], which knows what to skip.
    fn room(&self) -> usize {
        0
    }

    fn slots(&mut self, _n: usize) -> &mut [u64] {
        &mut []
    }

    fn slot(&mut self) -> Option<&mut u64> {
        if self.skip > 0 {
            self.skip -= 1;
            return Some(&mut self.scratch);
        }
        let slot = self.values.get_mut(self.len)?;
        self.len += 1;
        Some(slot)
    }

    fn is_full(&self) -> bool {
        self.skip == 0 && self.len == WINDOW
    }
}

/// The sink that folds operands `skip..` of a record, decoded again, into an accumulator:
/// each value lands in `scratch` and is folded when the next slot is asked for (or at the
/// end, by [`Fold::finish`]).
struct Fold<B, F> {
    skip: usize,
    scratch: u64,
    pending: bool,
    acc: Option<B>,
    f: F,
}

impl<B, F: FnMut(B, u64) -> B> Fold<B, F> {
    fn flush(&mut self) {
        if core::mem::take(&mut self.pending) {
            self.acc = self.acc.take().map(|acc| (self.f)(acc, self.scratch));
        }
    }

    fn finish(mut self) -> Option<B> {
        self.flush();
        self.acc
    }
}

impl<B, F: FnMut(B, u64) -> B> Sink for Fold<B, F> {
    /// Everything goes through [`Sink::slot`], which folds.
    fn room(&self) -> usize {
        0
    }

    fn slots(&mut self, _n: usize) -> &mut [u64] {
        &mut []
    }

    fn slot(&mut self) -> Option<&mut u64> {
        self.flush();
        if self.skip > 0 {
            self.skip -= 1;
        } else {
            self.pending = true;
        }
        Some(&mut self.scratch)
    }

    fn is_full(&self) -> bool {
        false
    }
}

/// How an [`Operands`] iterator reads past the inline operands.
#[derive(Clone, Debug)]
enum TailState<'a> {
    Unstarted,
    /// Array elements, from this cursor on.
    Elements(BitCursor<'a>, ElementEncoding),
    /// Scalars: each window decodes the record again from its start.
    Scalars,
    /// Nothing more can be read.
    Done,
}

/// Iterator over a record's operands. See [`Record::operands`].
///
/// Its lower size bound is the inline operands left: the rest are decoded again from the
/// input, which was checked when the record was read, so they are expected but not
/// promised.
#[derive(Clone, Debug)]
pub struct Operands<'r, 'a> {
    record: &'r Record<'a>,
    /// The operands past the inline ones, decoded `WINDOW` at a time, so that `next` is
    /// a compare and a load for all but one call in `WINDOW` (a user taking operands one
    /// at a time otherwise paid the decoder's dispatch on the element encoding for each).
    window: [u64; WINDOW],
    /// `window[next..filled]` are decoded and not yet returned.
    next: u8,
    filled: u8,
    /// The operand index of `window[0]`, or while the inline operands are handed out, of
    /// the next one.
    base: usize,
    tail: TailState<'a>,
}

impl<'r, 'a> Operands<'r, 'a> {
    fn new(record: &'r Record<'a>) -> Self {
        Operands { record, window: [0; WINDOW], next: 0, filled: 0, base: 0, tail: TailState::Unstarted }
    }

    /// The index of the next operand.
    #[inline]
    fn index(&self) -> usize {
        self.base + usize::from(self.next)
    }

    /// Whether the next operand is an inline one (no window was decoded yet).
    #[inline]
    fn in_inline(&self) -> bool {
        matches!(self.tail, TailState::Unstarted)
    }

    /// Refills the window from the next operand on; false when nothing more can be read.
    /// Kept out of line: it runs once per `WINDOW` operands.
    #[inline(never)]
    fn refill(&mut self) -> bool {
        let r = self.record;
        let index = self.index();
        let left = r.len().saturating_sub(index);
        if left == 0 {
            return false;
        }
        if let TailState::Unstarted = self.tail {
            self.tail = match &r.tail {
                Tail::None => TailState::Done,
                Tail::Elements(bit) => match BitCursor::at(r.data, *bit) {
                    Ok(c) => TailState::Elements(c, r.tail_elements()),
                    Err(_) => TailState::Done,
                },
                Tail::Scalars(..) => TailState::Scalars,
            };
        }
        let n = left.min(WINDOW);
        let filled = match &mut self.tail {
            TailState::Unstarted | TailState::Done => 0,
            TailState::Elements(cursor, elem) => {
                let slots = &mut self.window[..n];
                let read = match *elem {
                    ElementEncoding::Vbr(6) => read_vbr6_into(cursor, slots),
                    ElementEncoding::Fixed(w) => slots.iter_mut().try_for_each(|slot| {
                        *slot = cursor.read(w)?;
                        Ok(())
                    }),
                    elem => slots.iter_mut().try_for_each(|slot| {
                        *slot = read_element(cursor, elem)?;
                        Ok(())
                    }),
                };
                if read.is_ok() { n } else { 0 }
            }
            TailState::Scalars => {
                let Tail::Scalars(abbrev, id_width) = &r.tail else { return false };
                let mut sink = Window { skip: index, scratch: 0, values: [0; WINDOW], len: 0 };
                let decoded = BitCursor::at(r.data, r.start_bit + u64::from(*id_width))
                    .and_then(|mut c| decode(&mut c, Some(abbrev), r.start_bit, &mut sink));
                if decoded.is_ok() {
                    self.window = sink.values;
                    sink.len.min(n)
                } else {
                    0
                }
            }
        };
        if filled == 0 {
            self.tail = TailState::Done;
            return false;
        }
        (self.base, self.next) = (index, 0);
        // At most WINDOW (16).
        self.filled = filled as u8;
        true
    }
}

const _: () = assert!(WINDOW <= u8::MAX as usize);

impl Operands<'_, '_> {
    /// Operands decoded (inline or in the window) and not yet returned.
    #[inline]
    fn decoded_left(&self) -> usize {
        if self.in_inline() {
            self.record.inline().len().saturating_sub(self.base)
        } else {
            usize::from(self.filled - self.next)
        }
    }
}

impl Iterator for Operands<'_, '_> {
    type Item = u64;

    #[inline]
    fn next(&mut self) -> Option<u64> {
        if self.next < self.filled {
            let v = self.window[usize::from(self.next)];
            self.next += 1;
            return Some(v);
        }
        if let (Some(&v), true) = (self.record.inline().get(self.base), self.in_inline()) {
            self.base += 1;
            return Some(v);
        }
        if !self.refill() {
            return None;
        }
        self.next = 1;
        Some(self.window[0])
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.decoded_left(), Some(self.record.len().saturating_sub(self.index())))
    }

    fn nth(&mut self, n: usize) -> Option<u64> {
        // Skip decoded operands in O(1).
        let decoded_left = self.decoded_left();
        if n < decoded_left {
            if self.in_inline() {
                self.base += n;
            } else {
                self.next += n as u8;
            }
            return self.next();
        }
        if self.in_inline() {
            self.base += decoded_left;
        } else {
            self.next = self.filled;
        }
        for _ in decoded_left..n {
            self.next()?;
        }
        self.next()
    }

    /// Sums, searches and `for_each` go through here: the inline operands as a slice, then
    /// a tail of elements in one tight loop per encoding.
    fn fold<B, F: FnMut(B, u64) -> B>(self, init: B, mut f: F) -> B {
        let r = self.record;
        let mut acc = init;
        if self.in_inline() {
            let inline = r.inline();
            for &v in inline.get(self.base..).unwrap_or(&[]) {
                acc = f(acc, v);
            }
            let index = inline.len();
            if let Tail::Elements(bit) = r.tail {
                let elem = r.tail_elements();
                let left = r.len().saturating_sub(index);
                let Ok(mut cursor) = BitCursor::at(r.data, bit) else { return acc };
                macro_rules! run {
                    ($read:expr) => {
                        for _ in 0..left {
                            match $read(&mut cursor) {
                                Ok(v) => acc = f(acc, v),
                                Err(_) => return acc,
                            }
                        }
                    };
                }
                match elem {
                    ElementEncoding::Vbr(6) => run!(|c: &mut BitCursor<'_>| c.read_vbr6(64)),
                    ElementEncoding::Fixed(w) => run!(|c: &mut BitCursor<'_>| c.read(w)),
                    _ => run!(|c: &mut BitCursor<'_>| read_element(c, elem)),
                }
                return acc;
            }
            if let Tail::Scalars(abbrev, id_width) = &r.tail {
                // One more pass of the decoder over the whole record, folding as it goes.
                let mut sink = Fold { skip: index, scratch: 0, pending: false, acc: Some(acc), f };
                if let Ok(mut cursor) = BitCursor::at(r.data, r.start_bit + u64::from(*id_width)) {
                    let _ = decode(&mut cursor, Some(abbrev), r.start_bit, &mut sink);
                }
                // The record was checked when it was read; a second decode cannot fail.
                return sink.finish().expect("the accumulator is only taken while folding");
            }
            return acc;
        }
        for v in self {
            acc = f(acc, v);
        }
        acc
    }
}

impl core::iter::FusedIterator for Operands<'_, '_> {}

/// A record's array operand. See [`RecordInfo::array`].
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

    /// The elements (char6 elements as ASCII), decoded from the input.
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
        text(self.iter())
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
///
/// Its lower size bound is 0: the elements are decoded from the input as they are asked
/// for, and a hand-placed array may end early.
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
        let v = read_element(self.cursor.as_mut()?, self.elem).ok();
        if v.is_none() {
            self.left = 0;
        }
        v
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (0, Some(self.left))
    }
}

impl core::iter::FusedIterator for ArrayIter<'_> {}
