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
use crate::limits::INLINE_OPERANDS;

/// The abbreviation id of unabbreviated records.
pub const UNABBREV_RECORD: u32 = 3;

/// Where the operands a sink did not keep are, so that they can be decoded later.
pub(crate) enum Rest<'r> {
    /// They are array elements (or unabbreviated vbr6 operands) from `bit` on.
    Elements { bit: u64, elem: ElementEncoding },
    /// They start among the scalar operands of a record written with this abbreviation.
    Scalars(&'r Arc<Abbrev>),
}

/// Where [`decode`] puts a record's operands.
pub(crate) trait Sink {
    /// Slots for up to `n` of the next operands. The decoder fills all of them and asks
    /// again while operands remain; an empty answer means the sink keeps no more.
    fn slots(&mut self, n: usize) -> &mut [u64];

    /// Told once, at the first operand the sink did not keep, where the rest are.
    #[inline(always)]
    fn spill(&mut self, _rest: Rest<'_>) {}
}

/// A sink that keeps nothing: the decoder then only finds where the record ends.
pub(crate) struct Skip;

impl Sink for Skip {
    #[inline(always)]
    fn slots(&mut self, _n: usize) -> &mut [u64] {
        &mut []
    }
}

/// What decoding a record yields besides its operands.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Parts<'a> {
    pub(crate) code: u32,
    /// Number of operands (scalars and array elements).
    pub(crate) len: usize,
    pub(crate) blob: Option<&'a [u8]>,
    pub(crate) array: Option<ArrayPart>,
}

/// Where a record's array is.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ArrayPart {
    /// Operand index of the first element (at most a DEFINE_ABBREV's operand count).
    first: u32,
    /// Element count (read as a 32-bit VBR).
    len: u32,
    bit: u64,
    elem: ElementEncoding,
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
    in_registers(cursor, |cursor| match abbrev {
        None => unabbreviated(cursor, sink),
        Some(abbrev) => abbreviated(cursor, abbrev, start, sink),
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
fn unabbreviated<'a, S: Sink>(cursor: &mut BitCursor<'a>, sink: &mut S) -> Result<Parts<'a>> {
    let code = vbr6_32(cursor)?;
    let count_bit = cursor.position();
    let count = u64::from(vbr6_32(cursor)?);
    // Each operand takes at least 6 bits.
    if count * 6 > cursor.remaining_bits() {
        return Err(Error::ImplausibleCount { bit: count_bit, what: "operand", count });
    }
    elements(cursor, ElementEncoding::Vbr(6), count, sink)?;
    Ok(Parts { code, len: count as usize, blob: None, array: None })
}

#[inline(always)]
fn abbreviated<'a, S: Sink>(
    cursor: &mut BitCursor<'a>,
    abbrev: &Arc<Abbrev>,
    start: u64,
    sink: &mut S,
) -> Result<Parts<'a>> {
    let plan = abbrev.plan(start)?;
    let mut blob = None;
    let packed = plan.packed.as_ref().and_then(|p| Some((p, cursor.take_packed(p.bits, p.cont)?)));
    // LLVM keeps record codes in an `unsigned`.
    let code = if let Some((packed, word)) = packed {
        let mut fields = packed.fields.iter();
        loop {
            let slots = sink.slots(fields.len());
            for (slot, field) in slots.iter_mut().zip(fields.by_ref()) {
                *slot = field.get(word);
            }
            if fields.len() == 0 {
                break;
            }
            if slots.is_empty() {
                sink.spill(Rest::Scalars(abbrev));
                break;
            }
        }
        packed.code.get(word) as u32
    } else {
        let code = read_field(cursor, plan.code)? as u32;
        let mut left = plan.scalars;
        let mut slots = sink.slots(left).iter_mut();
        let mut kept_all = true;
        for step in plan.steps.iter() {
            match *step {
                Step::Field(f) => {
                    let v = read_field(cursor, f)?;
                    if slots.len() == 0 && kept_all && left > 0 {
                        slots = sink.slots(left).iter_mut();
                        if slots.len() == 0 {
                            kept_all = false;
                            sink.spill(Rest::Scalars(abbrev));
                            slots = [].iter_mut();
                        }
                    }
                    if let Some(slot) = slots.next() {
                        *slot = v;
                    }
                    left = left.saturating_sub(1);
                }
                // LLVM lets several blobs appear; the last one is the record's blob.
                Step::Blob => blob = Some(read_blob(cursor)?),
            }
        }
        code
    };
    let mut len = plan.scalars;
    let mut array = None;
    if let Some(elem) = plan.array {
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
        // The scalar count is at most a DEFINE_ABBREV's operand count (a 32-bit VBR).
        array = Some(ArrayPart { first: len as u32, len: count as u32, bit: cursor.position(), elem });
        elements(cursor, elem, count, sink)?;
        len += count as usize;
    }
    Ok(Parts { code, len, blob, array })
}

/// Decodes `count` elements encoded as `elem`, giving them to `sink`; the ones it does not
/// keep are skipped (in O(1) when their width is fixed).
#[inline(always)]
fn elements<S: Sink>(cursor: &mut BitCursor<'_>, elem: ElementEncoding, count: u64, sink: &mut S) -> Result<()> {
    // `count` was checked against the input, so it fits in a usize.
    let mut left = count as usize;
    while left > 0 {
        let slots = sink.slots(left);
        if slots.is_empty() {
            sink.spill(Rest::Elements { bit: cursor.position(), elem });
            return skip_elements(cursor, elem, left as u64);
        }
        left -= slots.len();
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
    /// All `n` slots (they hold stale values until the decoder fills them). `n` was
    /// checked against the input by the decoder: it is allocated for.
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
    pub fn block_id(&self) -> u32 {
        self.block_id
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
        self.parts.len
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
        self.parts.array.map(|a| Array {
            data: self.data,
            bit: a.bit,
            len: a.len as usize,
            elem: a.elem,
            first: a.first as usize,
        })
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

    /// The array's elements, if the abbreviation has an array (the last operands).
    pub fn array_operands(&self) -> Option<&'r [u64]> {
        self.parts.array.and_then(|a| self.ops.get(a.first as usize..))
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
    /// The rest are elements (or unabbreviated vbr6 operands) from `bit` on.
    Elements { bit: u64, elem: ElementEncoding },
    /// The rest start among the scalars: decode the record again, from its body.
    Scalars { body_bit: u64, abbrev: Arc<Abbrev> },
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
    inline_len: u8,
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
    body_bit: u64,
}

impl Sink for Inline<'_> {
    #[inline(always)]
    fn slots(&mut self, n: usize) -> &mut [u64] {
        let start = self.len;
        self.len = (start + n).min(INLINE_OPERANDS);
        &mut self.ops[start..self.len]
    }

    fn spill(&mut self, rest: Rest<'_>) {
        if !matches!(self.tail, Tail::None) {
            return;
        }
        *self.tail = match rest {
            Rest::Elements { bit, elem } => Tail::Elements { bit, elem },
            Rest::Scalars(abbrev) => Tail::Scalars { body_bit: self.body_bit, abbrev: abbrev.clone() },
        };
    }
}

impl<'a> Record<'a> {
    /// Decodes the record whose body `cursor` is at (its abbreviation id, at `start`,
    /// already read) in block `block_id`.
    #[inline(always)]
    pub(crate) fn read(
        cursor: &mut BitCursor<'a>,
        abbrev: Option<&Arc<Abbrev>>,
        (start, block_id, abbrev_id): (u64, u32, u32),
    ) -> Result<Self> {
        let mut inline = [0; INLINE_OPERANDS];
        let mut tail = Tail::None;
        let body_bit = cursor.position();
        let mut sink = Inline { ops: &mut inline, len: 0, tail: &mut tail, body_bit };
        let parts = decode(cursor, abbrev, start, &mut sink)?;
        let inline_len = sink.len as u8;
        let info = RecordInfo::new(cursor.data(), (start, cursor.position()), block_id, abbrev_id, parts);
        Ok(Record { info, inline_len, inline, tail })
    }

    /// The operands held inline (the first ones).
    #[inline]
    fn inline(&self) -> &[u64] {
        &self.inline[..usize::from(self.inline_len)]
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
        match self.tail {
            Tail::Elements { bit, elem: elem @ (ElementEncoding::Fixed(_) | ElementEncoding::Char6) } => {
                let width = match elem {
                    ElementEncoding::Fixed(w) => u64::from(w),
                    _ => 6,
                };
                let mut cursor = BitCursor::at(self.data, bit + past * width).ok()?;
                read_element(&mut cursor, elem).ok()
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
        Operands { record: self, index: 0, tail: TailState::Unstarted }
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
    scratch: [u64; WINDOW],
    values: [u64; WINDOW],
    len: usize,
}

impl Sink for Window {
    #[inline]
    fn slots(&mut self, n: usize) -> &mut [u64] {
        if self.skip > 0 {
            let k = n.min(self.skip).min(WINDOW);
            self.skip -= k;
            return &mut self.scratch[..k];
        }
        let start = self.len;
        self.len = (start + n).min(WINDOW);
        &mut self.values[start..self.len]
    }
}

/// How an [`Operands`] iterator reads past the inline operands.
#[derive(Clone, Debug)]
enum TailState<'a> {
    Unstarted,
    /// Element by element.
    Elements(BitCursor<'a>, ElementEncoding),
    /// A window of decoded values, `values[next..len]` not yet returned.
    Window {
        values: [u64; WINDOW],
        next: usize,
        len: usize,
    },
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
    index: usize,
    tail: TailState<'a>,
}

impl<'a> Operands<'_, 'a> {
    /// The next value past the inline ones.
    fn next_from_tail(&mut self) -> Option<u64> {
        let r = self.record;
        loop {
            match &mut self.tail {
                TailState::Done => return None,
                TailState::Elements(cursor, elem) => return read_element(cursor, *elem).ok(),
                TailState::Window { values, next, len } => {
                    if *next < *len {
                        *next += 1;
                        return Some(values[*next - 1]);
                    }
                }
                TailState::Unstarted => {}
            }
            // Start, or refill the window from the current index.
            self.tail = match &r.tail {
                Tail::None => TailState::Done,
                Tail::Elements { bit, elem } => match BitCursor::at(r.data, *bit) {
                    Ok(c) => TailState::Elements(c, *elem),
                    Err(_) => TailState::Done,
                },
                Tail::Scalars { body_bit, abbrev } => {
                    let mut sink = Window { skip: self.index, scratch: [0; WINDOW], values: [0; WINDOW], len: 0 };
                    let decoded = BitCursor::at(r.data, *body_bit)
                        .and_then(|mut c| decode(&mut c, Some(abbrev), r.start_bit, &mut sink));
                    match decoded {
                        Ok(_) if sink.len > 0 => TailState::Window { values: sink.values, next: 0, len: sink.len },
                        _ => TailState::Done,
                    }
                }
            };
        }
    }
}

impl Iterator for Operands<'_, '_> {
    type Item = u64;

    #[inline]
    fn next(&mut self) -> Option<u64> {
        let r = self.record;
        if self.index >= r.len() {
            return None;
        }
        let v = match r.inline().get(self.index) {
            Some(&v) => v,
            None => self.next_from_tail()?,
        };
        self.index += 1;
        Some(v)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let inline_left = usize::from(self.record.inline_len).saturating_sub(self.index);
        (inline_left, Some(self.record.len().saturating_sub(self.index)))
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

    /// Sums, searches and `for_each` go through here: the inline operands as a slice, then
    /// a tail of elements in one tight loop per encoding.
    fn fold<B, F: FnMut(B, u64) -> B>(mut self, init: B, mut f: F) -> B {
        let r = self.record;
        let mut acc = init;
        if let (Some(rest), TailState::Unstarted) = (r.inline().get(self.index..), &self.tail) {
            for &v in rest {
                acc = f(acc, v);
            }
            self.index = r.inline().len();
            if let Tail::Elements { bit, elem } = r.tail {
                let left = r.len() - self.index;
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
