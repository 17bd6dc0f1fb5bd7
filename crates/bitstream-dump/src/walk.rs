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
pub fn walk(stream: &Bitstream<'_>, visitor: &mut impl Visitor, progress: &Progress) -> Result<Walked, Failure> {
    let bytes = stream.bytes();
    let mut reader = stream.events();
    reader.report_abbrev_definitions(true);
    let mut names = Names { magic: stream.magic(), blockinfo: reader.blockinfo().clone() };
    let mut stack: Vec<Frame> = Vec::new();
    let mut top_blocks = 0;
    let mut events = 0u64;
    loop {
        events += 1;
        if events % 65536 == 0 {
            progress.set(stack.last().map_or(0, |f| f.pos) / 8);
        }
        let Some(event) = reader.next_ref()? else { break };
        match event {
            EventRef::EnterBlock(block) => {
                let header_bit = block.bit_offset();
                let parent_width = match stack.last() {
                    Some(parent) => parent.width,
                    None => {
                        top_blocks += 1;
                        TOP_LEVEL_ABBREV_WIDTH
                    }
                };
                let after_id_bit = after_vbr(bytes, header_bit + u64::from(parent_width), BLOCK_ID_WIDTH)?;
                let mut frame = Frame {
                    id: block.id(),
                    name: names.block(block.id()).map(str::to_string),
                    width: block.abbrev_width(),
                    len_words: block.len_words(),
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

/// The bit just past the VBR of chunk width `width` at `bit` (a block id), read with the
/// library's cursor.
fn after_vbr(bytes: &[u8], bit: u64, width: u32) -> Result<u64, Error> {
    let mut cursor = BitCursor::at(bytes, bit)?;
    cursor.read_vbr(width)?;
    Ok(cursor.position())
}
