//! A bitstream writer (feature `writer`): build any stream on purpose, for tests or for
//! formats of your own.
//!
//! It is deliberately low-level, like LLVM's `BitstreamWriter`: the caller chooses
//! abbreviation ids (4, 5, … in the order abbreviations become visible in a block: the
//! BLOCKINFO ones for the block id first, then the block's own). Block lengths are
//! back-patched when a block ends.
//!
//! ```
//! use llvm_bitstream_reader::writer::BitstreamWriter;
//! use llvm_bitstream_reader::{AbbrevOp, Bitstream, Event};
//!
//! let mut w = BitstreamWriter::new(*b"DEMO");
//! w.enter_block(8, 3);
//! w.define_abbrev(&[AbbrevOp::Literal(1), AbbrevOp::Array, AbbrevOp::Char6]);
//! w.write_abbreviated(4, &[AbbrevOp::Literal(1), AbbrevOp::Array, AbbrevOp::Char6], 1, b"hello".map(u64::from).as_slice(), None).unwrap();
//! w.write_unabbrev(2, &[1, 2, 3]);
//! w.end_block();
//! let bytes = w.finish();
//!
//! let events: Vec<_> = Bitstream::parse(&bytes).unwrap().reader().collect::<Result<_, _>>().unwrap();
//! let Event::Record(r) = &events[1] else { panic!() };
//! assert_eq!(r.array().unwrap().to_text(), "hello");
//! ```

use alloc::vec::Vec;

use thiserror::Error;

use crate::abbrev::AbbrevOp;
use crate::blockinfo::{BLOCKINFO_BLOCK_ID, BLOCKNAME, SETBID, SETRECORDNAME};
use crate::header::WRAPPER_MAGIC;
use crate::limits::TOP_LEVEL_ABBREV_WIDTH;

/// A record that does not fit the abbreviation it is written with.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum WriteError {
    /// The abbreviation does not describe a writable record.
    #[error("abbreviation cannot be written: {0}")]
    BadAbbrev(&'static str),
    /// The values do not match the abbreviation.
    #[error("record does not fit its abbreviation: {0}")]
    Mismatch(&'static str),
}

/// Writes a bitstream into a `Vec<u8>`.
#[derive(Debug, Clone)]
pub struct BitstreamWriter {
    out: Vec<u8>,
    /// Bits not yet flushed to `out`, least significant first.
    cur: u64,
    cur_bits: u32,
    width: u32,
    /// Open blocks: the enclosing width and the byte offset of the length word.
    blocks: Vec<(u32, usize)>,
}

impl BitstreamWriter {
    /// A writer that starts the stream with `magic`.
    pub fn new(magic: [u8; 4]) -> Self {
        BitstreamWriter { out: magic.to_vec(), cur: 0, cur_bits: 0, width: TOP_LEVEL_ABBREV_WIDTH, blocks: Vec::new() }
    }

    /// Bits written so far (magic included).
    pub fn bit_position(&self) -> u64 {
        self.out.len() as u64 * 8 + u64::from(self.cur_bits)
    }

    /// The current abbreviation-id width.
    pub fn abbrev_width(&self) -> u32 {
        self.width
    }

    /// Writes the low `width` bits of `value` (`width` up to 64).
    pub fn write_fixed(&mut self, value: u64, width: u32) {
        let mut value = if width >= 64 { value } else { value & ((1u64 << width) - 1) };
        let mut width = width.min(64);
        while width > 0 {
            let take = width.min(32);
            let part = value & ((1u64 << take) - 1);
            self.cur |= part << self.cur_bits;
            self.cur_bits += take;
            while self.cur_bits >= 8 {
                self.out.push(self.cur as u8);
                self.cur >>= 8;
                self.cur_bits -= 8;
            }
            value = if take == 64 { 0 } else { value >> take };
            width -= take;
        }
    }

    /// Writes `value` as a VBR with `width`-bit chunks.
    ///
    /// # Panics
    ///
    /// If `width` is not in 2..=32: a 1-bit chunk carries no payload, so no value but 0
    /// could ever be written (LLVM's writer asserts the same).
    pub fn write_vbr(&mut self, mut value: u64, width: u32) {
        assert!((2..=32).contains(&width), "VBR chunk width {width} is not in 2..=32");
        let payload = width - 1;
        let hi = 1u64 << payload;
        while value >= hi {
            self.write_fixed((value & (hi - 1)) | hi, width);
            value >>= payload;
        }
        self.write_fixed(value, width);
    }

    /// Writes a character as char6; returns false (writing nothing) if it has no char6 code.
    pub fn write_char6(&mut self, c: u8) -> bool {
        let Some(v) = encode_char6(c) else { return false };
        self.write_fixed(u64::from(v), 6);
        true
    }

    /// Pads with zero bits to a multiple of 32 bits.
    pub fn align32(&mut self) {
        let pad = (32 - (self.bit_position() % 32) as u32) % 32;
        self.write_fixed(0, pad);
    }

    /// Writes an abbreviation id at the current width (for hand-made, even malformed,
    /// streams).
    pub fn write_abbrev_id(&mut self, id: u32) {
        self.write_fixed(u64::from(id), self.width);
    }

    /// ENTER_SUBBLOCK: opens block `block_id` with abbreviation ids `abbrev_width` wide.
    pub fn enter_block(&mut self, block_id: u32, abbrev_width: u32) {
        self.write_abbrev_id(1);
        self.write_vbr(u64::from(block_id), 8);
        self.write_vbr(u64::from(abbrev_width), 4);
        self.align32();
        let at = self.out.len();
        self.write_fixed(0, 32);
        self.blocks.push((self.width, at));
        self.width = abbrev_width;
    }

    /// END_BLOCK: closes the innermost block and back-patches its length word. Does
    /// nothing if no block is open.
    pub fn end_block(&mut self) {
        let Some((outer, at)) = self.blocks.pop() else { return };
        self.write_abbrev_id(0);
        self.align32();
        let words = ((self.out.len() - at - 4) / 4) as u32;
        self.out[at..at + 4].copy_from_slice(&words.to_le_bytes());
        self.width = outer;
    }

    /// DEFINE_ABBREV with `ops` (an `Array` is followed by its element operand).
    pub fn define_abbrev(&mut self, ops: &[AbbrevOp]) {
        self.write_abbrev_id(2);
        self.write_vbr(ops.len() as u64, 5);
        for op in ops {
            match *op {
                AbbrevOp::Literal(v) => {
                    self.write_fixed(1, 1);
                    self.write_vbr(v, 8);
                }
                AbbrevOp::Fixed(w) => self.write_encoding(1, Some(w)),
                AbbrevOp::Vbr(w) => self.write_encoding(2, Some(w)),
                AbbrevOp::Array => self.write_encoding(3, None),
                AbbrevOp::Char6 => self.write_encoding(4, None),
                AbbrevOp::Blob => self.write_encoding(5, None),
            }
        }
    }

    /// Writes a non-literal abbreviation operand with a raw encoding number (any 3-bit
    /// value, for malformed streams) and optional width.
    pub fn write_encoding(&mut self, encoding: u8, width: Option<u32>) {
        self.write_fixed(0, 1);
        self.write_fixed(u64::from(encoding), 3);
        if let Some(w) = width {
            self.write_vbr(u64::from(w), 5);
        }
    }

    /// An unabbreviated record.
    pub fn write_unabbrev(&mut self, code: u32, ops: &[u64]) {
        self.write_abbrev_id(3);
        self.write_vbr(u64::from(code), 6);
        self.write_vbr(ops.len() as u64, 6);
        for &op in ops {
            self.write_vbr(op, 6);
        }
    }

    /// A record with abbreviation `abbrev_id`, whose definition is `abbrev`.
    ///
    /// `ops` are the operands after the code, literals included, array elements last
    /// (char6 elements as ASCII); `blob` is the blob, if the abbreviation has one.
    pub fn write_abbreviated(
        &mut self,
        abbrev_id: u32,
        abbrev: &[AbbrevOp],
        code: u32,
        ops: &[u64],
        blob: Option<&[u8]>,
    ) -> Result<(), WriteError> {
        let (&code_op, rest) = abbrev.split_first().ok_or(WriteError::BadAbbrev("no operands"))?;
        let mut staged = self.clone();
        staged.write_abbrev_id(abbrev_id);
        staged.write_scalar(code_op, u64::from(code))?;
        let mut values = ops.iter().copied();
        let mut i = 0;
        while let Some(&op) = rest.get(i) {
            match op {
                AbbrevOp::Array => {
                    let elem = *rest.get(i + 1).ok_or(WriteError::BadAbbrev("array without element type"))?;
                    let elems: Vec<u64> = values.by_ref().collect();
                    staged.write_vbr(elems.len() as u64, 6);
                    for e in elems {
                        staged.write_scalar(elem, e)?;
                    }
                    i += 1;
                }
                AbbrevOp::Blob => {
                    let blob = blob.ok_or(WriteError::Mismatch("blob missing"))?;
                    staged.write_blob(blob);
                }
                op => staged.write_scalar(op, values.next().ok_or(WriteError::Mismatch("too few operands"))?)?,
            }
            i += 1;
        }
        if values.next().is_some() {
            return Err(WriteError::Mismatch("too many operands"));
        }
        *self = staged;
        Ok(())
    }

    fn write_scalar(&mut self, op: AbbrevOp, v: u64) -> Result<(), WriteError> {
        match op {
            AbbrevOp::Literal(l) if l == v => {}
            AbbrevOp::Literal(_) => return Err(WriteError::Mismatch("value differs from the literal")),
            AbbrevOp::Fixed(w) if w < 64 && v >> w != 0 => return Err(WriteError::Mismatch("value too wide")),
            AbbrevOp::Fixed(w) => self.write_fixed(v, w),
            AbbrevOp::Vbr(w) if w >= 2 => self.write_vbr(v, w),
            AbbrevOp::Vbr(_) => return Err(WriteError::BadAbbrev("VBR width below 2 cannot encode")),
            AbbrevOp::Char6 => {
                let c = u8::try_from(v).ok().ok_or(WriteError::Mismatch("not a char6 character"))?;
                if !self.write_char6(c) {
                    return Err(WriteError::Mismatch("not a char6 character"));
                }
            }
            AbbrevOp::Array | AbbrevOp::Blob => return Err(WriteError::BadAbbrev("array or blob in scalar position")),
        }
        Ok(())
    }

    /// A blob field: vbr6 length, alignment, bytes, padding to 32 bits.
    pub fn write_blob(&mut self, blob: &[u8]) {
        self.write_vbr(blob.len() as u64, 6);
        self.align32();
        self.out.extend_from_slice(blob);
        while self.out.len() % 4 != 0 {
            self.out.push(0);
        }
    }

    /// Opens a BLOCKINFO block (abbreviation width 2, as LLVM writes it).
    pub fn enter_blockinfo(&mut self) {
        self.enter_block(BLOCKINFO_BLOCK_ID, 2);
    }

    /// BLOCKINFO: SETBID.
    pub fn set_bid(&mut self, block_id: u32) {
        self.write_unabbrev(SETBID, &[u64::from(block_id)]);
    }

    /// BLOCKINFO: BLOCKNAME.
    pub fn block_name(&mut self, name: &str) {
        let ops: Vec<u64> = name.bytes().map(u64::from).collect();
        self.write_unabbrev(BLOCKNAME, &ops);
    }

    /// BLOCKINFO: SETRECORDNAME.
    pub fn record_name(&mut self, code: u32, name: &str) {
        let ops: Vec<u64> = core::iter::once(u64::from(code)).chain(name.bytes().map(u64::from)).collect();
        self.write_unabbrev(SETRECORDNAME, &ops);
    }

    /// Closes any open blocks, pads to 32 bits and returns the stream.
    pub fn finish(mut self) -> Vec<u8> {
        while !self.blocks.is_empty() {
            self.end_block();
        }
        self.align32();
        self.out
    }
}

/// The char6 code of `c`, if it has one.
pub fn encode_char6(c: u8) -> Option<u8> {
    match c {
        b'a'..=b'z' => Some(c - b'a'),
        b'A'..=b'Z' => Some(c - b'A' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'.' => Some(62),
        b'_' => Some(63),
        _ => None,
    }
}

/// Wraps `stream` in a bitcode wrapper header (version 0).
pub fn wrap(stream: &[u8], cpu_type: u32) -> Vec<u8> {
    let mut out = Vec::with_capacity(20 + stream.len());
    for field in [WRAPPER_MAGIC, 0, 20, stream.len() as u32, cpu_type] {
        out.extend_from_slice(&field.to_le_bytes());
    }
    out.extend_from_slice(stream);
    out
}
