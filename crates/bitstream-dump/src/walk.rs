//! One walk over a stream, with what every output needs: each block's bit span as
//! `llvm-bcanalyzer` measures it, the DEFINE_ABBREVs (counted and sized from the reader's
//! reports), and names resolved as LLVM resolves them.

use std::io;
use std::sync::Arc;

use llvm_bitstream_reader::cursor::BitCursor;
use llvm_bitstream_reader::ids::bitstream;
use llvm_bitstream_reader::limits::{BLOCK_ID_WIDTH, TOP_LEVEL_ABBREV_WIDTH};
use llvm_bitstream_reader::names;
use llvm_bitstream_reader::{Bitstream, BlockInfo, Error, EventRef, Magic, RecordRef};

use crate::progress::Progress;

/// Names as `llvm-bcanalyzer` resolves them, with the BLOCKINFO table in effect.
pub struct Names {
    /// The stream's kind: its magic.
    pub magic: Magic,
    /// The BLOCKINFO table in effect.
    pub blockinfo: Arc<BlockInfo>,
}

impl Names {
    /// The block's name, if known.
    pub fn block(&self, id: u32) -> Option<&str> {
        names::resolve_block_name(&self.blockinfo, self.magic, id)
    }

    /// The record's name, if known.
    pub fn record(&self, block_id: u32, code: u32) -> Option<&str> {
        names::resolve_record_name(&self.blockinfo, self.magic, block_id, code)
    }

    /// The record's name, or `UnknownCode<code>`.
    pub fn record_or_unknown(&self, block_id: u32, code: u32) -> String {
        self.record(block_id, code).map_or_else(|| format!("UnknownCode{code}"), str::to_string)
    }
}

/// An open block.
#[derive(Clone, Debug)]
pub struct Frame {
    /// Block id.
    pub id: u32,
    /// Its name when it was entered, if known.
    pub name: Option<String>,
    /// Abbreviation id width inside the block.
    pub width: u32,
    /// Length in 32-bit words.
    pub len_words: u32,
    /// Bit of the ENTER_SUBBLOCK abbreviation id.
    pub header_bit: u64,
    /// Bit just after the block id (where `llvm-bcanalyzer` starts counting the block).
    pub after_id_bit: u64,
    /// Bit just past the block.
    pub end_bit: u64,
    /// Nesting depth (0 for top-level blocks).
    pub depth: usize,
    /// Next bit not yet accounted for inside the block.
    pos: u64,
    /// Sum of the sub-blocks' spans from `after_id_bit` (what LLVM subtracts).
    pub children_llvm_bits: u64,
    /// Sum of the sub-blocks' full spans (from `header_bit`).
    pub children_bits: u64,
    /// Bits of the block's records (abbreviation ids included).
    pub record_bits: u64,
    /// Bits of the block's DEFINE_ABBREVs.
    pub abbrev_bits: u64,
    /// Number of DEFINE_ABBREVs.
    pub abbrevs: u64,
    /// Free slot for a visitor (the folded-stack node).
    pub slot: usize,
}

impl Frame {
    /// The block's size as `llvm-bcanalyzer`'s statistics count it: from just after the
    /// block id to the end, less its sub-blocks (counted the same way).
    pub fn llvm_bits(&self) -> u64 {
        (self.end_bit - self.after_id_bit).saturating_sub(self.children_llvm_bits)
    }

    /// Bits of the block itself: header, END_BLOCK and padding (not records, sub-blocks or
    /// abbreviation definitions).
    pub fn own_bits(&self) -> u64 {
        (self.end_bit - self.header_bit).saturating_sub(self.children_bits + self.record_bits + self.abbrev_bits)
    }
}

/// What the walk reports.
pub trait Visitor {
    /// A block begins; `stack` holds the open blocks around it.
    fn enter(&mut self, _names: &Names, _stack: &[Frame], _frame: &mut Frame) -> io::Result<()> {
        Ok(())
    }
    /// A record of the innermost block (`stack.last()`), spanning `start..end` bits.
    fn record(&mut self, _names: &Names, _stack: &[Frame], _r: &RecordRef<'_, '_>, _end: u64) -> io::Result<()> {
        Ok(())
    }
    /// The innermost block (`frame`, already popped from `stack`) ends.
    fn exit(&mut self, _names: &Names, _stack: &[Frame], _frame: &Frame) -> io::Result<()> {
        Ok(())
    }
    /// The walk stops at an error in the header of a block inside `stack`, after the
    /// block's id (`block_id`) was read.
    fn stopped_in_header(&mut self, _stack: &[Frame], _block_id: u32) -> io::Result<()> {
        Ok(())
    }
}

/// Why a walk stopped.
#[derive(Debug)]
pub enum Failure {
    /// The input is malformed.
    Input(Error),
    /// Writing the output failed.
    Output(io::Error),
}

impl From<Error> for Failure {
    fn from(e: Error) -> Self {
        Failure::Input(e)
    }
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Self {
        Failure::Output(e)
    }
}

/// How a finished walk ended.
pub struct Walked {
    /// Names with the final BLOCKINFO table (as LLVM's statistics use it).
    pub names: Names,
    /// Number of top-level blocks.
    pub top_blocks: u64,
}

/// Walks every event of `stream`, telling `visitor`.
///
/// Events are reported as they are read, and an error ends the walk where it happens. A
/// block whose length word runs past the end of the input (a cut file) is read as far as
/// the input goes, as `llvm-bcanalyzer` reads it ([`Reader::read_truncated_blocks`]):
/// the walk then ends where reading runs out, or, if the block ends before the input
/// does, with the library's error about its length.
///
/// [`Reader::read_truncated_blocks`]: llvm_bitstream_reader::Reader::read_truncated_blocks
pub fn walk(stream: &Bitstream<'_>, visitor: &mut impl Visitor, progress: &Progress) -> Result<Walked, Failure> {
    let bytes = stream.bytes();
    let mut reader = stream.reader();
    reader.report_abbrev_definitions(true).read_truncated_blocks(true);
    let mut names = Names { magic: stream.magic(), blockinfo: reader.blockinfo().clone() };
    let mut stack: Vec<Frame> = Vec::new();
    let mut top_blocks = 0;
    // Where the next top-level item starts.
    let mut top_pos = 32;
    let mut events = 0u64;
    // The header of the innermost block entered although the input cuts it: the walk's
    // last error is its length's.
    let mut cut_header: Option<u64> = None;
    loop {
        events += 1;
        if events % 65536 == 0 {
            progress.set(stack.last().map_or(0, |f| f.pos) / 8);
        }
        let event = match reader.next_ref() {
            Ok(Some(event)) => event,
            Ok(None) => break,
            Err(error) => {
                // The error of a cut block entered earlier, not of a header just read.
                if matches!(error, Error::BlockTooLong { bit, .. } if Some(bit) == cut_header) {
                    return Err(error.into());
                }
                // The item that failed starts where the last one ended.
                let (bit, width) = stack.last().map_or((top_pos, TOP_LEVEL_ABBREV_WIDTH), |f| (f.pos, f.width));
                if let Some(block_id) = block_id_at(bytes, bit, width) {
                    visitor.stopped_in_header(&stack, block_id)?;
                }
                return Err(error.into());
            }
        };
        match event {
            EventRef::EnterBlock(block) => {
                let header_bit = block.bit_offset();
                let width = block.abbrev_width();
                if !(1..=64).contains(&width) {
                    // The reader reports the width when the block is entered, not skipped;
                    // llvm-bcanalyzer enters every block and shows nothing of this one.
                    let (bit, parent_width) =
                        stack.last().map_or((top_pos, TOP_LEVEL_ABBREV_WIDTH), |f| (f.pos, f.width));
                    if let Some(block_id) = block_id_at(bytes, bit, parent_width) {
                        visitor.stopped_in_header(&stack, block_id)?;
                    }
                    let block_id = block.block_id();
                    return Err(Error::InvalidAbbrevWidth { bit: header_bit, block_id, block_name: None, width }.into());
                }
                if stack.is_empty() {
                    top_blocks += 1;
                }
                // A cut block shows the length its header declares, not the one it was read with.
                let len_words = block.declared_len_words();
                if len_words != block.len_words() {
                    cut_header = Some(header_bit);
                }
                // Always known: a walk of the whole stream reads every header.
                let after_id_bit = block.after_id_bit();
                let mut frame = Frame {
                    id: block.block_id().0,
                    name: names.block(block.block_id().0).map(str::to_string),
                    width: block.abbrev_width(),
                    len_words,
                    header_bit,
                    after_id_bit,
                    end_bit: block.bookmark.end_bit(),
                    depth: stack.len(),
                    pos: block.bookmark.content_bit,
                    children_llvm_bits: 0,
                    children_bits: 0,
                    record_bits: 0,
                    abbrev_bits: 0,
                    abbrevs: 0,
                    slot: 0,
                };
                visitor.enter(&names, &stack, &mut frame)?;
                stack.push(frame);
            }
            EventRef::DefineAbbrev(definition) => {
                if let Some(frame) = stack.last_mut() {
                    frame.abbrevs += 1;
                    frame.abbrev_bits += definition.end_bit - definition.bit;
                    frame.pos = definition.end_bit;
                }
            }
            EventRef::Record(r) => {
                let (start, end) = (r.bit_offset(), r.end_bit_offset());
                if let Some(frame) = stack.last_mut() {
                    frame.record_bits += end - start;
                    frame.pos = end;
                }
                visitor.record(&names, &stack, &r, end)?;
            }
            EventRef::EndBlock(_) => {
                let Some(frame) = stack.pop() else { continue };
                if let Some(parent) = stack.last_mut() {
                    parent.children_llvm_bits += frame.end_bit - frame.after_id_bit;
                    parent.children_bits += frame.end_bit - frame.header_bit;
                    parent.pos = frame.end_bit;
                } else {
                    top_pos = frame.end_bit;
                }
                visitor.exit(&names, &stack, &frame)?;
                if frame.id == bitstream::BLOCKINFO_BLOCK_ID {
                    names.blockinfo = reader.blockinfo().clone();
                }
            }
            _ => {}
        }
    }
    names.blockinfo = reader.blockinfo().clone();
    Ok(Walked { names, top_blocks })
}

/// The id of the block whose ENTER_SUBBLOCK is at `bit` (abbreviation ids `width` bits
/// wide), if that much can be read.
fn block_id_at(bytes: &[u8], bit: u64, width: u32) -> Option<u32> {
    let mut cursor = BitCursor::at(bytes, bit).ok()?;
    if cursor.read(width).ok()? != u64::from(bitstream::raw::ENTER_SUBBLOCK) {
        return None;
    }
    u32::try_from(cursor.read_vbr(BLOCK_ID_WIDTH).ok()?).ok()
}
