//! Abbreviation definitions (DEFINE_ABBREV) and the decoding plan compiled from each.
//!
//! A definition is parsed and checked the way LLVM's `ReadAbbrevRecord` does it:
//! encodings 0, 6 and 7 and empty definitions are errors, `Fixed(0)` and `VBR(0)` become
//! the literal 0, and widths over 64 are errors. Problems LLVM only notices when a record
//! *uses* the abbreviation (an array that is not second to last, an array of arrays, a
//! definition that starts with an array or blob) are kept with the definition and
//! reported when a record uses it, so we accept exactly the files LLVM accepts. VBR
//! chunks wider than 32 bits are kept the same way: LLVM cannot read them either (see
//! [`MAX_VBR_CHUNK_WIDTH`]).

use alloc::boxed::Box;
use alloc::collections::BTreeSet;
use alloc::sync::Arc;
use alloc::vec::Vec;
use core::borrow::Borrow;

use crate::cursor::BitCursor;
use crate::error::{Error, Result};
use crate::limits::{MAX_INTERNED_ABBREVS, MAX_OPERAND_WIDTH, MAX_VBR_CHUNK_WIDTH};

/// One operand of an abbreviation definition, as written in the stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum AbbrevOp {
    /// The field always has this value and takes no bits.
    Literal(u64),
    /// A fixed-width field of 1..=64 bits.
    Fixed(u32),
    /// A variable-width field with chunks of 1..=64 bits as defined; records can only use
    /// chunks of 1..=32 bits (see [`MAX_VBR_CHUNK_WIDTH`]).
    Vbr(u32),
    /// An array: a vbr6 element count, then elements encoded as the next operand.
    Array,
    /// A 6-bit character from `[a-zA-Z0-9._]`.
    Char6,
    /// A vbr6 byte count, 32-bit alignment, the bytes, and padding to 32 bits.
    Blob,
}

/// How one scalar field is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Field {
    Literal(u64),
    Fixed(u32),
    Vbr(u32),
    Char6,
}

/// How the elements of an array are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ElementEncoding {
    /// Fixed-width elements of 1..=64 bits.
    Fixed(u32),
    /// VBR elements with chunks of 1..=32 bits.
    Vbr(u32),
    /// 6-bit characters, decoded to ASCII.
    Char6,
}

/// One step of a record after its code: a scalar operand or a blob.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    Field(Field),
    Blob,
}

/// The decoding plan of a usable abbreviation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Plan {
    /// How the record code is read.
    pub(crate) code: Field,
    /// The operands after the code, in order, with blobs in their place.
    pub(crate) steps: Box<[Step]>,
    /// The trailing array's element encoding, if the abbreviation ends with an array.
    pub(crate) array: Option<ElementEncoding>,
    /// Number of scalar operands (steps that are not blobs).
    pub(crate) scalars: usize,
    /// The code and every scalar operand read from one word, when that can work.
    pub(crate) packed: Option<Packed>,
}

/// Most bits a packed layout may span: what one refill guarantees.
const PACKED_MAX_BITS: u32 = 56;

/// The layout of an abbreviation whose code and operands are all literals, fixed fields or
/// VBR fields (no blob, no char6 scalar) and fit in [`PACKED_MAX_BITS`] when every VBR
/// field is one chunk. A record whose VBR fields are indeed one chunk each (none of the
/// `cont` bits set) is then decoded from one word by independent shifts and masks, with
/// no per-field dispatch and no dependency of one field on the previous one's length.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Packed {
    /// Bits spanned by the code and the scalar operands.
    pub(crate) bits: u32,
    /// The continuation bits of the VBR fields; any set means a longer value.
    pub(crate) cont: u64,
    /// The code's extraction.
    pub(crate) code: Extract,
    /// Each scalar operand's extraction, in order.
    pub(crate) fields: Box<[Extract]>,
}

/// One field of a [`Packed`] layout: `((word >> shift) & mask) | literal`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Extract {
    pub(crate) shift: u32,
    pub(crate) mask: u64,
    pub(crate) literal: u64,
}

impl Extract {
    #[inline(always)]
    pub(crate) fn get(self, word: u64) -> u64 {
        ((word >> self.shift) & self.mask) | self.literal
    }
}

/// The packed layout of `code` and `steps`, if they have one.
fn pack(code: Field, steps: &[Step]) -> Option<Packed> {
    let mut bits = 0u32;
    let mut cont = 0u64;
    let mut place = |field: Field| -> Option<Extract> {
        let shift = bits;
        let width = match field {
            Field::Literal(_) => 0,
            Field::Fixed(w) | Field::Vbr(w) => w,
            Field::Char6 => return None,
        };
        bits = bits.checked_add(width).filter(|&b| b <= PACKED_MAX_BITS)?;
        // Widths are 1..=56 from here (wider fields cannot be packed), so the shifts are
        // defined.
        let (mask, literal) = match field {
            Field::Literal(v) => (0, v),
            Field::Fixed(w) => ((1u64 << w) - 1, 0),
            Field::Vbr(w) => {
                cont |= 1 << (shift + w - 1);
                ((1u64 << (w - 1)) - 1, 0)
            }
            Field::Char6 => return None,
        };
        Some(Extract { shift, mask, literal })
    };
    let code = place(code)?;
    // Exactly one field per step (a blob has no layout), in one allocation of its final size.
    let mut fields = Vec::with_capacity(steps.len());
    for step in steps {
        match *step {
            Step::Field(f) => fields.push(place(f)?),
            Step::Blob => return None,
        }
    }
    Some(Packed { bits, cont, code, fields: fields.into_boxed_slice() })
}

/// An abbreviation: the operand list as defined, and its decoding plan.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Abbrev {
    ops: Box<[AbbrevOp]>,
    plan: core::result::Result<Plan, &'static str>,
}

impl Abbrev {
    /// Builds an abbreviation from its operands, as DEFINE_ABBREV would after LLVM's
    /// normalisation (`Fixed(0)`/`Vbr(0)` already turned into `Literal(0)`).
    pub fn new(ops: impl Into<Box<[AbbrevOp]>>) -> Self {
        let ops = ops.into();
        let plan = compile(&ops);
        Abbrev { ops, plan }
    }

    /// The operands as defined (the first one gives the record code).
    pub fn operands(&self) -> &[AbbrevOp] {
        &self.ops
    }

    /// Why records cannot use this abbreviation, if they cannot (LLVM accepts such a
    /// definition and fails only when a record uses it).
    pub fn defect(&self) -> Option<&'static str> {
        self.plan.as_ref().err().copied()
    }

    /// The plan, or the error a record at `bit` using this abbreviation gets.
    #[inline(always)]
    pub(crate) fn plan(&self, bit: u64) -> Result<&Plan> {
        self.plan.as_ref().map_err(|&reason| Error::InvalidAbbrev { bit, reason })
    }

    /// Reads the operands of a DEFINE_ABBREV (after its abbreviation id) into `ops`, as
    /// LLVM's `ReadAbbrevRecord` does (`Fixed(0)`/`VBR(0)` become `Literal(0)`). `start` is
    /// the bit of the abbreviation id, for errors.
    ///
    /// A definition of more than [`SHORT_DEFINITION`] operands (LLVM writes none) is read
    /// twice: first only to check that it is all there and valid, then into `ops`, which
    /// grows to exactly the operand count. So a definition that claims a huge count, or
    /// is cut short, or is invalid, costs no memory, and a valid one costs 16 bytes per
    /// operand it really has (each takes at least 4 bits of input), without the slack of
    /// growth by doubling. Shorter ones are read once into room for their count.
    pub(crate) fn read_operands(cursor: &mut BitCursor<'_>, start: u64, ops: &mut Vec<AbbrevOp>) -> Result<()> {
        ops.clear();
        let count = cursor.read_vbr32(5)?;
        if count == 0 {
            return Err(Error::EmptyAbbrev { bit: start });
        }
        if count as usize > SHORT_DEFINITION {
            let mut probe = *cursor;
            for _ in 0..count {
                read_operand(&mut probe)?;
            }
            ops.reserve_exact(count as usize);
        } else {
            ops.reserve(count as usize);
        }
        for _ in 0..count {
            // Past the first pass (if any) this cannot fail: the same bits again.
            ops.push(read_operand(cursor)?);
        }
        Ok(())
    }
}

/// Operands a definition may have and still be read in one pass: room for them costs at
/// most 1 KiB, kept in the reader for the next definition. LLVM's longest (clang's AST
/// record abbreviations) have about 45.
const SHORT_DEFINITION: usize = 64;

/// Reads one operand of a DEFINE_ABBREV.
fn read_operand(cursor: &mut BitCursor<'_>) -> Result<AbbrevOp> {
    let op_bit = cursor.position();
    if cursor.read(1)? == 1 {
        return Ok(AbbrevOp::Literal(cursor.read_vbr(8)?));
    }
    let encoding = cursor.read(3)? as u8;
    Ok(match encoding {
        1 | 2 => {
            let width = cursor.read_vbr(5)?;
            if width == 0 {
                AbbrevOp::Literal(0)
            } else if width > u64::from(MAX_OPERAND_WIDTH) {
                return Err(Error::OperandTooWide { bit: op_bit, width });
            } else if encoding == 1 {
                AbbrevOp::Fixed(width as u32)
            } else {
                AbbrevOp::Vbr(width as u32)
            }
        }
        3 => AbbrevOp::Array,
        4 => AbbrevOp::Char6,
        5 => AbbrevOp::Blob,
        _ => return Err(Error::InvalidEncoding { bit: op_bit, encoding }),
    })
}

fn scalar(op: AbbrevOp) -> Option<Field> {
    match normalize(op) {
        AbbrevOp::Literal(v) => Some(Field::Literal(v)),
        AbbrevOp::Fixed(w) => Some(Field::Fixed(w)),
        AbbrevOp::Vbr(w) => Some(Field::Vbr(w)),
        AbbrevOp::Char6 => Some(Field::Char6),
        AbbrevOp::Array | AbbrevOp::Blob => None,
    }
}

/// LLVM's normalisation of a definition's operand: a zero-width field is the literal 0.
/// ([`Abbrev::new`] may be given operands no stream can hold.)
fn normalize(op: AbbrevOp) -> AbbrevOp {
    match op {
        AbbrevOp::Fixed(0) | AbbrevOp::Vbr(0) => AbbrevOp::Literal(0),
        op => op,
    }
}

/// Checks the rules LLVM's `readRecord` checks and turns the operands into a plan.
fn compile(ops: &[AbbrevOp]) -> core::result::Result<Plan, &'static str> {
    // A stream's definitions never hold wider fields (`read_operands` rejects them), but
    // `Abbrev::new` takes any operands.
    if ops.iter().any(|op| matches!(*op, AbbrevOp::Fixed(w) | AbbrevOp::Vbr(w) if w > MAX_OPERAND_WIDTH)) {
        return Err("field wider than 64 bits");
    }
    // LLVM accepts these definitions but cannot read such chunks (see MAX_VBR_CHUNK_WIDTH).
    if ops.iter().any(|op| matches!(*op, AbbrevOp::Vbr(w) if w > MAX_VBR_CHUNK_WIDTH)) {
        return Err("VBR chunks wider than 32 bits cannot be read");
    }
    let (&first, rest) = ops.split_first().ok_or("abbreviation has no operands")?;
    let code = scalar(first).ok_or("abbreviation starts with an array or a blob")?;
    // One step per operand before the array, if any: the exact size of `steps`.
    let mut steps = Vec::with_capacity(rest.iter().position(|op| *op == AbbrevOp::Array).unwrap_or(rest.len()));
    let mut array = None;
    let mut i = 0;
    while i < rest.len() {
        match rest[i] {
            AbbrevOp::Blob => steps.push(Step::Blob),
            AbbrevOp::Array => {
                if i + 2 != rest.len() {
                    return Err("array is not the second-to-last operand");
                }
                array = Some(match normalize(rest[i + 1]) {
                    AbbrevOp::Fixed(w) => ElementEncoding::Fixed(w),
                    AbbrevOp::Vbr(w) => ElementEncoding::Vbr(w),
                    AbbrevOp::Char6 => ElementEncoding::Char6,
                    AbbrevOp::Literal(_) => return Err("array element type has to be an encoding of a type"),
                    AbbrevOp::Array | AbbrevOp::Blob => return Err("array element type can't be an array or a blob"),
                });
                i += 1;
            }
            op => steps.push(Step::Field(scalar(op).unwrap_or(Field::Literal(0)))),
        }
        i += 1;
    }
    let scalars = steps.iter().filter(|s| matches!(s, Step::Field(_))).count();
    let packed = pack(code, &steps);
    Ok(Plan { code, steps: steps.into_boxed_slice(), array, scalars, packed })
}

/// Reads one scalar field.
#[inline(always)]
pub(crate) fn read_field(cursor: &mut BitCursor<'_>, field: Field) -> Result<u64> {
    match field {
        Field::Literal(v) => Ok(v),
        Field::Fixed(w) => cursor.read(w),
        Field::Vbr(w) => cursor.read_vbr_unchecked_width(w, 64),
        Field::Char6 => Ok(u64::from(crate::cursor::decode_char6(cursor.read(6)?))),
    }
}

/// Reads one array element.
#[inline(always)]
pub(crate) fn read_element(cursor: &mut BitCursor<'_>, elem: ElementEncoding) -> Result<u64> {
    match elem {
        ElementEncoding::Fixed(w) => cursor.read(w),
        ElementEncoding::Vbr(w) => cursor.read_vbr_unchecked_width(w, 64),
        ElementEncoding::Char6 => Ok(u64::from(crate::cursor::decode_char6(cursor.read(6)?))),
    }
}

/// Skips `count` array elements.
pub(crate) fn skip_elements(cursor: &mut BitCursor<'_>, elem: ElementEncoding, count: u64) -> Result<()> {
    match elem {
        ElementEncoding::Fixed(w) => cursor.skip(count * u64::from(w)),
        ElementEncoding::Char6 => cursor.skip(count * 6),
        ElementEncoding::Vbr(6) => cursor.skip_vbr6_run(count),
        ElementEncoding::Vbr(w) => {
            for _ in 0..count {
                cursor.read_vbr_unchecked_width(w, 64)?;
            }
            Ok(())
        }
    }
}

/// The abbreviations a reader has met, so that a definition repeated in block after block
/// (LLVM repeats its metadata abbreviations in every function) costs little after the
/// first time:
/// - definitions are interned by their operands, so each distinct one is compiled and
///   allocated once, and later copies cost a lookup and a reference count;
/// - each definition is also remembered by its place (block id, index among the block's
///   own definitions) with its raw bits, so when the next block of that id defines the
///   same thing in the same place, comparing at most three words replaces parsing it.
#[derive(Debug, Default)]
pub(crate) struct AbbrevCache {
    by_operands: BTreeSet<ByOperands>,
    /// By block id, then by index: what was last defined there.
    by_place: Vec<(u32, Vec<Option<Seen>>)>,
    /// The definition being read.
    scratch: Vec<AbbrevOp>,
}

/// An interned abbreviation, ordered and looked up by its operands (so the operands are
/// not stored a second time as the key).
#[derive(Debug)]
struct ByOperands(Arc<Abbrev>);

impl Borrow<[AbbrevOp]> for ByOperands {
    fn borrow(&self) -> &[AbbrevOp] {
        self.0.operands()
    }
}

impl PartialEq for ByOperands {
    fn eq(&self, other: &Self) -> bool {
        self.0.operands() == other.0.operands()
    }
}

impl Eq for ByOperands {}

impl PartialOrd for ByOperands {
    fn partial_cmp(&self, other: &Self) -> Option<core::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for ByOperands {
    fn cmp(&self, other: &Self) -> core::cmp::Ordering {
        self.0.operands().cmp(other.0.operands())
    }
}

/// A definition's raw bits (in pieces of at most 56) and what they define.
#[derive(Debug)]
struct Seen {
    bits: u32,
    pieces: [u64; SEEN_PIECES],
    abbrev: Arc<Abbrev>,
}

/// Pieces of 56 bits a remembered definition may span (168 bits: a dozen operands).
const SEEN_PIECES: usize = 3;
/// Block ids and places per id remembered; past them definitions are just parsed.
const SEEN_BLOCK_IDS: usize = 16;
const SEEN_PLACES: usize = 64;

impl Seen {
    /// Whether the bits at `cursor` are this definition's; if so, moves past them.
    fn matches(&self, cursor: &mut BitCursor<'_>) -> bool {
        let mut probe = *cursor;
        let mut left = self.bits;
        for &piece in &self.pieces {
            if left == 0 {
                break;
            }
            let width = left.min(56);
            if probe.read(width) != Ok(piece) {
                return false;
            }
            left -= width;
        }
        *cursor = probe;
        true
    }
}

impl AbbrevCache {
    /// Reads the body of a DEFINE_ABBREV (after its abbreviation id at `start`). `place`
    /// is the block id and the definition's index among the block's own, if it is a
    /// block's own (not a BLOCKINFO one).
    pub(crate) fn read(
        &mut self,
        cursor: &mut BitCursor<'_>,
        start: u64,
        place: Option<(u32, usize)>,
    ) -> Result<Arc<Abbrev>> {
        if let Some(seen) = place.and_then(|p| self.seen(p)) {
            if seen.matches(cursor) {
                return Ok(seen.abbrev.clone());
            }
        }
        let body = *cursor;
        Abbrev::read_operands(cursor, start, &mut self.scratch)?;
        let abbrev = self.intern();
        if let Some(place) = place {
            self.remember(place, body, cursor.position(), &abbrev);
        }
        Ok(abbrev)
    }

    fn seen(&self, (block_id, index): (u32, usize)) -> Option<&Seen> {
        let (_, places) = self.by_place.iter().find(|(id, _)| *id == block_id)?;
        places.get(index)?.as_ref()
    }

    /// Remembers the definition that starts at `body` and ends at bit `end`.
    fn remember(&mut self, (block_id, index): (u32, usize), body: BitCursor<'_>, end: u64, abbrev: &Arc<Abbrev>) {
        let bits = end - body.position();
        if index >= SEEN_PLACES || bits > 56 * SEEN_PIECES as u64 {
            return;
        }
        let mut pieces = [0; SEEN_PIECES];
        let (mut reader, mut left) = (body, bits as u32);
        for piece in &mut pieces {
            let width = left.min(56);
            // These bits were just read, so reading them again cannot fail.
            *piece = reader.read(width).unwrap_or(0);
            left -= width;
        }
        let places = match self.by_place.iter().position(|(id, _)| *id == block_id) {
            Some(i) => &mut self.by_place[i].1,
            None if self.by_place.len() < SEEN_BLOCK_IDS => {
                self.by_place.push((block_id, Vec::new()));
                &mut self.by_place.last_mut().expect("just pushed").1
            }
            None => return,
        };
        if places.len() <= index {
            places.resize_with(index + 1, || None);
        }
        places[index] = Some(Seen { bits: bits as u32, pieces, abbrev: abbrev.clone() });
    }

    /// The abbreviation of the operands in `scratch`.
    fn intern(&mut self) -> Arc<Abbrev> {
        if let Some(interned) = self.by_operands.get(&self.scratch[..]) {
            return interned.0.clone();
        }
        let abbrev = Arc::new(Abbrev::new(&self.scratch[..]));
        // Distinct definitions in a hostile file are bounded only by its size; past the
        // limit they are still read, just not remembered.
        if self.by_operands.len() < MAX_INTERNED_ABBREVS {
            self.by_operands.insert(ByOperands(abbrev.clone()));
        }
        abbrev
    }
}

#[cfg(test)]
mod tests {
    use super::{Abbrev, AbbrevOp, Field, Step};
    use alloc::vec;
    use alloc::vec::Vec;

    /// `Abbrev::new` takes operands no stream can hold; it treats them as LLVM's
    /// `ReadAbbrevRecord` would have: zero widths are the literal 0, wider than 64 is
    /// unusable, and so are VBR chunks wider than 32.
    #[test]
    fn hand_made_definitions_are_normalised_like_stream_ones() {
        let zero = Abbrev::new([AbbrevOp::Literal(1), AbbrevOp::Fixed(0), AbbrevOp::Vbr(0)]);
        let plan = zero.plan(0).unwrap();
        assert_eq!(&*plan.steps, &[Step::Field(Field::Literal(0)), Step::Field(Field::Literal(0))]);
        assert!(Abbrev::new([AbbrevOp::Literal(1), AbbrevOp::Fixed(64)]).defect().is_none());
        assert!(Abbrev::new([AbbrevOp::Literal(1), AbbrevOp::Fixed(65)]).defect().is_some());
        assert!(Abbrev::new([AbbrevOp::Vbr(32)]).defect().is_none());
        assert!(Abbrev::new([AbbrevOp::Vbr(33)]).defect().is_some());
        assert!(Abbrev::new([AbbrevOp::Literal(1), AbbrevOp::Array, AbbrevOp::Vbr(40)]).defect().is_some());
        // An array of a zero-width field is an array of a literal: an error when used, as in LLVM.
        assert!(Abbrev::new([AbbrevOp::Literal(1), AbbrevOp::Array, AbbrevOp::Vbr(0)]).defect().is_some());
        assert!(Abbrev::new([AbbrevOp::Literal(1), AbbrevOp::Array, AbbrevOp::Fixed(32)]).defect().is_none());
    }

    /// The packed layout of a typical instruction abbreviation, and its absence where a
    /// field cannot be packed.
    #[test]
    fn packed_layouts() {
        let load = Abbrev::new([
            AbbrevOp::Literal(20),
            AbbrevOp::Vbr(6),
            AbbrevOp::Fixed(10),
            AbbrevOp::Vbr(4),
            AbbrevOp::Fixed(1),
        ]);
        let packed = load.plan(0).unwrap().packed.as_ref().unwrap();
        assert_eq!(packed.bits, 21);
        assert_eq!(packed.cont, 1 << 5 | 1 << 19);
        // code 20; op 0 = 9 (one vbr6 chunk), op 1 = 1000, op 2 = 5 (vbr4), op 3 = 1.
        let word = 9 | 1000 << 6 | 5 << 16 | 1 << 20;
        assert_eq!(packed.code.get(word), 20);
        assert_eq!(packed.fields.iter().map(|f| f.get(word)).collect::<Vec<_>>(), [9, 1000, 5, 1]);
        for unpackable in [
            vec![AbbrevOp::Literal(1), AbbrevOp::Char6],
            vec![AbbrevOp::Literal(1), AbbrevOp::Blob],
            vec![AbbrevOp::Fixed(32), AbbrevOp::Fixed(32)],
            vec![AbbrevOp::Literal(1), AbbrevOp::Fixed(57)],
            vec![AbbrevOp::Literal(1), AbbrevOp::Fixed(64)],
        ] {
            assert!(Abbrev::new(unpackable).plan(0).unwrap().packed.is_none());
        }
        // Fields wider than 32 bits pack while the whole fits in 56 bits.
        let wide = Abbrev::new([AbbrevOp::Literal(1), AbbrevOp::Fixed(40), AbbrevOp::Fixed(16)]);
        let packed = wide.plan(0).unwrap().packed.as_ref().unwrap();
        assert_eq!(packed.bits, 56);
        let word = ((1u64 << 40) - 2) | 0xBEEF << 40;
        assert_eq!(packed.fields.iter().map(|f| f.get(word)).collect::<Vec<_>>(), [(1 << 40) - 2, 0xBEEF]);
        // An array does not stop the scalars before it from being packed.
        let array = Abbrev::new([AbbrevOp::Literal(1), AbbrevOp::Fixed(8), AbbrevOp::Array, AbbrevOp::Char6]);
        assert_eq!(array.plan(0).unwrap().packed.as_ref().unwrap().bits, 8);
    }
}
