//! The block/record state machine, and the streams and bookmarks it reads.
//!
//! [`Reader`] turns the bits into [`Event`]s. It keeps a stack of scopes (one per open
//! block: its abbreviation width, id, declared end, and abbreviations) and the BLOCKINFO
//! table beside it. Sub-blocks never inherit their parent's abbreviations, only those
//! BLOCKINFO gives their id, which is why a skipped block can be read later from a
//! [`Bookmark`] and the table alone.

use alloc::string::String;
use alloc::sync::Arc;
use alloc::vec::Vec;

use crate::abbrev::{Abbrev, AbbrevCache};
use crate::blockinfo::{BLOCKINFO_BLOCK_ID, BLOCKNAME, BlockInfo, BlockInfoBuilder, SETBID, SETRECORDNAME};
use crate::cursor::BitCursor;
use crate::error::{Error, Result};
use crate::header::{Magic, WrapperHeader};
use crate::limits::{
    BLOCK_ID_WIDTH, BLOCK_SIZE_WIDTH, CODE_LEN_WIDTH, MAX_ABBREV_WIDTH, MAX_BLOCK_DEPTH, TOP_LEVEL_ABBREV_WIDTH,
    TRAILING_GARBAGE_BYTES,
};
use crate::record::{self, OperandBuffer, Record, RecordRef, UNABBREV_RECORD};

const END_BLOCK: u32 = 0;
const ENTER_SUBBLOCK: u32 = 1;
const DEFINE_ABBREV: u32 = 2;

/// A bitstream in memory: the optional wrapper header, the magic, and the stream bytes.
///
/// Cheap to copy; it borrows the input.
#[derive(Clone, Copy, Debug)]
pub struct Bitstream<'a> {
    stream: &'a [u8],
    magic: Magic,
    wrapper: Option<WrapperHeader>,
}

impl<'a> Bitstream<'a> {
    /// Parses the wrapper header (if any) and the magic of `input`. Nothing else is read
    /// until events are asked for.
    pub fn new(input: &'a [u8]) -> Result<Self> {
        let wrapper = WrapperHeader::parse(input)?;
        let stream = match &wrapper {
            Some(w) => w.stream(input).unwrap_or_default(),
            None => input,
        };
        let Some(&magic) = stream.first_chunk::<4>() else {
            return Err(Error::TooShortForMagic { bit: 0, len: stream.len() });
        };
        Ok(Bitstream { stream, magic: Magic::from_bytes(magic), wrapper })
    }

    /// The stream's magic.
    pub fn magic(&self) -> Magic {
        self.magic
    }

    /// The wrapper header, if the input had one.
    pub fn wrapper(&self) -> Option<&WrapperHeader> {
        self.wrapper.as_ref()
    }

    /// The stream's bytes, from the magic on (bit offsets count from here).
    pub fn bytes(&self) -> &'a [u8] {
        self.stream
    }

    /// A reader of every top-level block of the stream.
    pub fn events(&self) -> Reader<'a> {
        let mut cursor = BitCursor::new(self.stream);
        // The magic is 32 bits and the stream holds at least that.
        let _ = cursor.jump_to(32);
        Reader::with_cursor(*self, cursor, Mode::Stream, Arc::new(BlockInfo::new()))
    }

    /// A reader of the one block a bookmark points at, with the abbreviations `blockinfo`
    /// gives its id. Its first event is the block's [`Event::EnterBlock`] and its last
    /// the matching [`Event::EndBlock`].
    ///
    /// The reader counts [`MAX_BLOCK_DEPTH`](crate::limits::MAX_BLOCK_DEPTH) from this
    /// block: the limit bounds each reader's own scope stack.
    pub fn block_reader(&self, bookmark: &Bookmark, blockinfo: Arc<BlockInfo>) -> Result<Reader<'a>> {
        let bad = |reason| Err(Error::BadBookmark { bit: bookmark.content_bit, reason });
        if bookmark.content_bit % 32 != 0 {
            return bad("the content offset is not 32-bit aligned");
        }
        if bookmark.abbrev_width == 0 || bookmark.abbrev_width > MAX_ABBREV_WIDTH {
            return bad("the abbreviation width is not 1..=64");
        }
        let end = bookmark.end_bit();
        if end > self.stream.len() as u64 * 8 {
            return bad("the block runs past the end of the stream");
        }
        // Limit the cursor to the block, so nothing outside it can be read.
        let limited = &self.stream[..(end / 8) as usize];
        let cursor = BitCursor::at(limited, bookmark.content_bit)?;
        let mut reader = Reader::with_cursor(*self, cursor, Mode::Block, blockinfo);
        reader.state = State::Pending(*bookmark);
        Ok(reader)
    }
}

/// Where a block is and how to read it: a plain value, cheap to keep and to send.
///
/// Offsets are in bits from the start of the stream (the first bit of the magic).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Bookmark {
    /// The block id.
    pub block_id: u32,
    /// The abbreviation-id width inside the block.
    pub abbrev_width: u32,
    /// The block's length in 32-bit words, as its length word says.
    pub len_words: u32,
    /// Bit offset of the block's ENTER_SUBBLOCK abbreviation id.
    pub header_bit: u64,
    /// Bit offset of the block's first content bit (just after the length word).
    pub content_bit: u64,
}

impl Bookmark {
    /// Bit offset just past the block (its content start plus its length); saturates
    /// rather than overflowing for a hand-made bookmark near `u64::MAX`.
    pub fn end_bit(&self) -> u64 {
        self.content_bit.saturating_add(u64::from(self.len_words) * 32)
    }
}

/// A block that was entered: where it is, and its name if BLOCKINFO gives one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    /// Where the block is; the bookmark to read it again.
    pub bookmark: Bookmark,
    /// The block's name from BLOCKINFO (BLOCKNAME), if the stream gives one.
    pub name: Option<Arc<str>>,
}

impl Block {
    /// The block id.
    #[inline]
    pub fn id(&self) -> u32 {
        self.bookmark.block_id
    }

    /// The abbreviation-id width inside the block.
    pub fn abbrev_width(&self) -> u32 {
        self.bookmark.abbrev_width
    }

    /// The block's length in 32-bit words.
    pub fn len_words(&self) -> u32 {
        self.bookmark.len_words
    }

    /// Bit offset of the block's ENTER_SUBBLOCK.
    pub fn bit_offset(&self) -> u64 {
        self.bookmark.header_bit
    }
}

/// One step of a walk over a stream.
#[derive(Clone, Debug)]
pub enum Event<'a> {
    /// A block begins. Right after this event [`Reader::skip_block`] may skip it.
    EnterBlock(Block),
    /// A record of the innermost open block (DEFINE_ABBREV is not reported as a record).
    Record(Record<'a>),
    /// The innermost open block ends.
    EndBlock,
}

/// One step of a walk, borrowing the reader: see [`Reader::next_ref`].
#[derive(Clone, Debug)]
pub enum EventRef<'r, 'a> {
    /// A block begins. Right after this event [`Reader::skip_block`] may skip it.
    EnterBlock(Block),
    /// A record, every operand decoded.
    Record(RecordRef<'r, 'a>),
    /// The innermost open block ends.
    EndBlock,
}

/// A skipped block, ready to be read later: the bookmark, the stream, and the BLOCKINFO
/// table in effect where it was skipped. `Send + Sync`; clone it freely.
#[derive(Clone, Debug)]
pub struct LazyBlock<'a> {
    stream: Bitstream<'a>,
    bookmark: Bookmark,
    blockinfo: Arc<BlockInfo>,
}

impl<'a> LazyBlock<'a> {
    /// Where the block is.
    pub fn bookmark(&self) -> Bookmark {
        self.bookmark
    }

    /// The BLOCKINFO table the block is read with.
    pub fn blockinfo(&self) -> &Arc<BlockInfo> {
        &self.blockinfo
    }

    /// A reader of just this block.
    pub fn reader(&self) -> Result<Reader<'a>> {
        self.stream.block_reader(&self.bookmark, self.blockinfo.clone())
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// Read top-level blocks until the end of the stream.
    Stream,
    /// Read one block, then stop.
    Block,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Running,
    /// The last event was EnterBlock: the block may be skipped.
    JustEntered,
    Done,
    /// A block reader that has not yet announced its block.
    Pending(Bookmark),
}

/// One open block.
#[derive(Debug)]
struct Scope {
    bookmark: Bookmark,
    /// Abbreviations BLOCKINFO gave this block id when it was entered (ids 4, 5, …).
    inherited: Option<Arc<[Arc<Abbrev>]>>,
    /// Abbreviations the block defined itself, numbered after the inherited ones.
    local: Vec<Arc<Abbrev>>,
}

/// The state machine: an iterator of [`Event`]s over a stream or a single block.
///
/// ```
/// # fn main() -> Result<(), llvm_bitstream_reader::Error> {
/// # let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/llvm14_ir_instructions.bc")).unwrap();
/// use llvm_bitstream_reader::{Bitstream, Event};
/// let mut reader = Bitstream::new(&bytes)?.events();
/// let mut skipped = Vec::new();
/// while let Some(event) = reader.next() {
///     match event? {
///         // Skip function bodies without decoding them; keep where they are.
///         Event::EnterBlock(b) if b.id() == 12 => skipped.push(reader.skip_block()?),
///         Event::Record(r) => { let _ = (r.code(), r.operand(0)); }
///         _ => {}
///     }
/// }
/// // Later, in any order (or on other threads): read a body.
/// for body in skipped.iter().rev() {
///     for event in body.reader()? {
///         let _ = event?;
///     }
/// }
/// # Ok(()) }
/// ```
#[derive(Debug)]
pub struct Reader<'a> {
    /// The whole stream (a block reader's cursor sees only a prefix of it).
    stream: Bitstream<'a>,
    cursor: BitCursor<'a>,
    mode: Mode,
    state: State,
    /// Abbreviation width of the innermost open block (cached from the scope stack).
    width: u32,
    /// Open blocks; `scopes[..depth]` are live, the rest are kept to reuse their vectors.
    scopes: Vec<Scope>,
    depth: usize,
    blockinfo: Arc<BlockInfo>,
    /// The BLOCKINFO table being built while inside a BLOCKINFO block.
    building: Option<BlockInfoBuilder>,
    /// Where the last top-level block ended, once the stream is done.
    end_bit: Option<u64>,
    /// Whether a top-level block has ended: only then are trailing bytes tolerated.
    top_level_block_read: bool,
    /// Operand buffer reused by [`Reader::next_ref`] (and for BLOCKINFO records).
    ops: OperandBuffer,
    /// Abbreviations defined so far.
    abbrevs: AbbrevCache,
}

impl<'a> Reader<'a> {
    fn with_cursor(stream: Bitstream<'a>, cursor: BitCursor<'a>, mode: Mode, blockinfo: Arc<BlockInfo>) -> Self {
        Reader {
            stream,
            cursor,
            mode,
            state: State::Running,
            width: TOP_LEVEL_ABBREV_WIDTH,
            scopes: Vec::new(),
            depth: 0,
            blockinfo,
            building: None,
            end_bit: None,
            top_level_block_read: false,
            ops: OperandBuffer::default(),
            abbrevs: AbbrevCache::default(),
        }
    }

    /// Makes this reader a reader of `block`, exactly as [`LazyBlock::reader`] would make
    /// one, but keeping the memory it has: its scope stack, its operand buffer and the
    /// abbreviations it has compiled. Decoding many skipped blocks (every function body of
    /// a module, say) with one reader per thread this way saves an allocation of each per
    /// block, and lets a definition repeated in every body be compiled once.
    ///
    /// On error (a bookmark that does not fit the stream) the reader is left finished.
    ///
    /// ```
    /// # fn main() -> Result<(), llvm_bitstream_reader::Error> {
    /// # let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/llvm14_ir_instructions.bc")).unwrap();
    /// use llvm_bitstream_reader::{Bitstream, EventRef};
    /// let stream = Bitstream::new(&bytes)?;
    /// let mut reader = stream.events();
    /// let mut bodies = Vec::new();
    /// while let Some(event) = reader.next_ref()? {
    ///     if let EventRef::EnterBlock(b) = event {
    ///         if b.id() == 12 {
    ///             bodies.push(reader.skip_block()?);
    ///         }
    ///     }
    /// }
    /// let mut body_reader = stream.events();
    /// for body in &bodies {
    ///     body_reader.reopen(body)?;
    ///     while let Some(event) = body_reader.next_ref()? {
    ///         let _ = event;
    ///     }
    /// }
    /// # Ok(()) }
    /// ```
    pub fn reopen(&mut self, block: &LazyBlock<'a>) -> Result<()> {
        self.state = State::Done;
        let mut fresh = block.reader()?;
        // Keep the memory; everything else is the fresh reader's. Scopes past its depth
        // (0) are reset when reused.
        fresh.scopes = core::mem::take(&mut self.scopes);
        fresh.ops = core::mem::take(&mut self.ops);
        fresh.ops.clear();
        fresh.abbrevs = core::mem::take(&mut self.abbrevs);
        *self = fresh;
        Ok(())
    }

    /// The current bit offset.
    pub fn bit_offset(&self) -> u64 {
        self.cursor.position()
    }

    /// How many blocks are open.
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// The id of the innermost open block, if any.
    pub fn block_id(&self) -> Option<u32> {
        self.depth.checked_sub(1).map(|d| self.scopes[d].bookmark.block_id)
    }

    /// The BLOCKINFO table in effect (it changes when a BLOCKINFO block ends).
    pub fn blockinfo(&self) -> &Arc<BlockInfo> {
        &self.blockinfo
    }

    /// Once the walk has ended without error: the bit offset just past the last block
    /// (trailing bytes LLVM tolerates are not counted).
    pub fn end_bit(&self) -> Option<u64> {
        self.end_bit
    }

    /// The stream being read.
    pub fn stream(&self) -> Bitstream<'a> {
        self.stream
    }

    /// Skips the block just entered without decoding any of it, in O(1), and returns
    /// it for reading later. Must directly follow an [`Event::EnterBlock`]. No
    /// [`Event::EndBlock`] is reported for a skipped block.
    ///
    /// A BLOCKINFO block is the exception: it is read (silently) rather than jumped over,
    /// because the abbreviations of every later block depend on it. Skipping it would
    /// make the rest of the stream unreadable, and LLVM's readers never skip it either.
    pub fn skip_block(&mut self) -> Result<LazyBlock<'a>> {
        if self.state != State::JustEntered || self.depth == 0 {
            return Err(Error::NotAtBlockStart { bit: self.cursor.position() });
        }
        let bookmark = self.scopes[self.depth - 1].bookmark;
        let lazy = LazyBlock { stream: self.stream, bookmark, blockinfo: self.blockinfo.clone() };
        if bookmark.block_id == BLOCKINFO_BLOCK_ID {
            let depth = self.depth;
            while self.depth >= depth {
                self.next_event()?;
            }
            return Ok(lazy);
        }
        // Entering checked that the block lies inside its parent and the stream.
        self.cursor.jump_to(bookmark.end_bit())?;
        self.pop();
        self.state = State::Running;
        Ok(lazy)
    }

    /// The abbreviations usable in the innermost open block, in id order from 4.
    pub fn abbrevs(&self) -> impl Iterator<Item = &Arc<Abbrev>> {
        let scope = self.depth.checked_sub(1).map(|d| &self.scopes[d]);
        let inherited = scope.and_then(|s| s.inherited.as_deref()).unwrap_or(&[]);
        let local = scope.map_or(&[][..], |s| &s.local[..]);
        inherited.iter().chain(local)
    }

    fn pop(&mut self) {
        self.depth -= 1;
        self.top_level_block_read |= self.depth == 0;
        self.width = match self.depth {
            0 => TOP_LEVEL_ABBREV_WIDTH,
            d => self.scopes[d - 1].bookmark.abbrev_width,
        };
    }

    fn finish(&mut self) {
        self.state = State::Done;
        self.end_bit = Some(self.cursor.position());
    }

    /// The next event, `Ok(None)` at the end. After an error the reader is done.
    #[inline]
    pub fn next_event(&mut self) -> Result<Option<Event<'a>>> {
        self.next().transpose()
    }

    /// Decodes the record `record` was started for (see [`Record::empty`]) into it, and
    /// applies it to the table if it belongs to a BLOCKINFO block.
    #[inline(always)]
    fn fill_record(&mut self, record: &mut Record<'a>, id: u32, start: u64) -> Result<()> {
        if id == UNABBREV_RECORD {
            record.decode_unabbreviated(&mut self.cursor)?;
        } else {
            let abbrev = lookup(&self.scopes[self.depth - 1], id, start)?;
            record.decode_abbreviated(&mut self.cursor, abbrev)?;
        }
        if self.in_blockinfo() {
            self.ops.set(record.operands());
            self.apply_to_blockinfo(record.code(), start)?;
        }
        Ok(())
    }

    /// Applies the record in `self.ops` to the BLOCKINFO table being built, if the
    /// innermost block is a BLOCKINFO block.
    #[inline(always)]
    fn apply_to_blockinfo(&mut self, code: u32, start: u64) -> Result<()> {
        if let (true, Some(builder)) = (self.in_blockinfo(), self.building.as_mut()) {
            apply_blockinfo_record(builder, code, start, self.ops.as_slice())?;
        }
        Ok(())
    }

    /// The next event, with a record's operands all decoded into a buffer the reader
    /// reuses: the fastest way to visit every operand (like LLVM's `readRecord` into a
    /// reused `SmallVector`). The event borrows the reader, so it is not an `Iterator`;
    /// use it as `while let Some(event) = reader.next_ref()? { … }`.
    ///
    /// The buffer grows to the largest record's operand count (8 bytes per operand; every
    /// operand takes at least one bit of input, and counts are checked against the input
    /// before anything is reserved). `next_ref` and [`Reader::next_event`] can be mixed.
    #[inline(always)]
    pub fn next_ref(&mut self) -> Result<Option<EventRef<'_, 'a>>> {
        /// Ends the walk on an error, as `next_event` does.
        macro_rules! tri {
            ($e:expr) => {
                match $e {
                    Ok(v) => v,
                    Err(e) => {
                        self.state = State::Done;
                        return Err(e);
                    }
                }
            };
        }
        // The common case first: a record in an open block. From its abbreviation id to
        // its end the cursor is a local, so it stays in registers; anything else is left
        // to `advance`, from the same position.
        let fast = if self.state == State::Running && self.depth > 0 {
            let mut cursor = self.cursor;
            let start = cursor.position();
            let id = tri!(cursor.read(self.width)) as u32;
            (id == UNABBREV_RECORD || id > DEFINE_ABBREV).then_some((cursor, id, start))
        } else {
            None
        };
        let (mut cursor, id, start) = match fast {
            Some(record) => record,
            None => match tri!(self.advance()) {
                Entry::Done => return Ok(None),
                Entry::Enter(block) => return Ok(Some(EventRef::EnterBlock(block))),
                Entry::End => return Ok(Some(EventRef::EndBlock)),
                Entry::Record { id, start } => (self.cursor, id, start),
            },
        };
        let parts = tri!(self.decode_record(&mut cursor, id, start));
        self.cursor = cursor;
        tri!(self.apply_to_blockinfo(parts.code, start));
        Ok(Some(EventRef::Record(RecordRef {
            data: self.cursor.data(),
            start_bit: start,
            end_bit: self.cursor.position(),
            abbrev_id: id,
            parts,
            ops: self.ops.as_slice(),
        })))
    }

    /// Decodes the record with abbreviation `id` that starts at `start` into `self.ops`.
    #[inline(always)]
    fn decode_record(&mut self, cursor: &mut BitCursor<'a>, id: u32, start: u64) -> Result<record::Parts<'a>> {
        self.ops.clear();
        if id == UNABBREV_RECORD {
            record::read_unabbreviated_into(cursor, &mut self.ops)
        } else {
            let abbrev = lookup(&self.scopes[self.depth - 1], id, start)?;
            record::read_abbreviated_into(cursor, abbrev, start, &mut self.ops)
        }
    }

    /// Moves to the next block boundary or record, like LLVM's `advance()`: blocks are
    /// entered and left, DEFINE_ABBREVs are absorbed, and a record is reported by its
    /// abbreviation id without being decoded.
    #[inline(always)]
    fn advance(&mut self) -> Result<Entry> {
        match self.state {
            State::Done => return Ok(Entry::Done),
            State::JustEntered => self.state = State::Running,
            State::Running => {}
            State::Pending(bookmark) => {
                self.state = State::Running;
                return self.push_block(bookmark).map(Entry::Enter);
            }
        }
        loop {
            if self.depth == 0 && self.at_stream_end() {
                self.finish();
                return Ok(Entry::Done);
            }
            let start = self.cursor.position();
            let id = self.cursor.read(self.width)? as u32;
            if self.depth == 0 && id != ENTER_SUBBLOCK {
                return Err(match id {
                    END_BLOCK => Error::EndBlockAtTopLevel { bit: start },
                    _ => Error::NotABlockAtTopLevel { bit: start, abbrev_id: id },
                });
            }
            match id {
                END_BLOCK => {
                    self.end_block()?;
                    return Ok(Entry::End);
                }
                ENTER_SUBBLOCK => return self.enter_block(start).map(Entry::Enter),
                DEFINE_ABBREV => self.define_abbrev(start)?,
                _ => return Ok(Entry::Record { id, start }),
            }
        }
    }

    /// At the top level: is the rest of the stream only the trailing bytes LLVM ignores?
    fn at_stream_end(&self) -> bool {
        match self.mode {
            Mode::Block => true,
            // LLVM's getBitcodeFileContents: stop when `BCBegin + 8 >= size`, but only after
            // a complete block: a cut first header is an error, as in llvm-bcanalyzer.
            Mode::Stream => match self.cursor.remaining_bits() {
                0 => true,
                left => self.top_level_block_read && left <= TRAILING_GARBAGE_BYTES as u64 * 8,
            },
        }
    }

    /// Whether the innermost open block is a BLOCKINFO block being applied.
    #[inline(always)]
    fn in_blockinfo(&self) -> bool {
        self.building.is_some() && self.depth > 0 && self.scopes[self.depth - 1].bookmark.block_id == BLOCKINFO_BLOCK_ID
    }

    fn define_abbrev(&mut self, start: u64) -> Result<()> {
        let scope = &mut self.scopes[self.depth - 1];
        let place = match scope.bookmark.block_id {
            BLOCKINFO_BLOCK_ID => None,
            id => Some((id, scope.local.len())),
        };
        let abbrev = self.abbrevs.read(&mut self.cursor, start, place)?;
        if let (BLOCKINFO_BLOCK_ID, Some(builder)) = (scope.bookmark.block_id, self.building.as_mut()) {
            let entry =
                builder.current().ok_or(Error::BadBlockInfo { bit: start, reason: "DEFINE_ABBREV before SETBID" })?;
            entry.add_abbrev(abbrev);
        } else {
            scope.local.push(abbrev);
        }
        Ok(())
    }

    fn enter_block(&mut self, start: u64) -> Result<Block> {
        // Both widths are constants in 1..=32, which `read_vbr32` would check again.
        let block_id = self.cursor.read_vbr_unchecked_width(BLOCK_ID_WIDTH, 32)? as u32;
        let width = self.cursor.read_vbr_unchecked_width(CODE_LEN_WIDTH, 32)? as u32;
        self.cursor.align32()?;
        let len_words = self.cursor.read(BLOCK_SIZE_WIDTH)? as u32;
        if width == 0 || width > MAX_ABBREV_WIDTH {
            return Err(Error::InvalidAbbrevWidth { bit: start, block_id, width });
        }
        let content_bit = self.cursor.position();
        let bookmark = Bookmark { block_id, abbrev_width: width, len_words, header_bit: start, content_bit };
        let limit = match self.depth {
            0 => self.cursor.len_bits(),
            d => self.scopes[d - 1].bookmark.end_bit(),
        };
        if bookmark.end_bit() > limit {
            return Err(Error::BlockTooLong { bit: start, block_id, words: u64::from(len_words), limit });
        }
        self.push_block(bookmark)
    }

    fn push_block(&mut self, bookmark: Bookmark) -> Result<Block> {
        if self.depth >= MAX_BLOCK_DEPTH {
            return Err(Error::TooDeep { bit: bookmark.header_bit, max: MAX_BLOCK_DEPTH });
        }
        let id = bookmark.block_id;
        if id == BLOCKINFO_BLOCK_ID {
            if self.building.is_some() {
                return Err(Error::BadBlockInfo { bit: bookmark.header_bit, reason: "a block inside BLOCKINFO" });
            }
            self.building = Some(BlockInfoBuilder::default());
        } else if self.building.is_some() {
            return Err(Error::BadBlockInfo { bit: bookmark.header_bit, reason: "a block inside BLOCKINFO" });
        }
        let (inherited, name) = self.blockinfo.shared(id);
        if let Some(scope) = self.scopes.get_mut(self.depth) {
            scope.bookmark = bookmark;
            scope.inherited = inherited;
            scope.local.clear();
        } else {
            self.scopes.push(Scope { bookmark, inherited, local: Vec::new() });
        }
        self.depth += 1;
        self.width = bookmark.abbrev_width;
        self.state = State::JustEntered;
        Ok(Block { bookmark, name })
    }

    fn end_block(&mut self) -> Result<()> {
        self.cursor.align32()?;
        let scope = &self.scopes[self.depth - 1];
        let expected = scope.bookmark.end_bit();
        let bit = self.cursor.position();
        if bit != expected {
            return Err(Error::BlockLengthMismatch { bit, block_id: scope.bookmark.block_id, expected });
        }
        if scope.bookmark.block_id == BLOCKINFO_BLOCK_ID {
            if let Some(builder) = self.building.take() {
                self.blockinfo = Arc::new(builder.finish());
            }
        }
        self.pop();
        Ok(())
    }
}

/// What [`Reader::advance`] found.
enum Entry {
    Enter(Block),
    End,
    /// A record with abbreviation id `id` starts at bit `start`; not yet decoded.
    Record {
        id: u32,
        start: u64,
    },
    Done,
}

/// Applies a record of a BLOCKINFO block to the table being built (LLVM's
/// `ReadBlockInfoBlock`; unknown records are ignored, as there).
fn apply_blockinfo_record(builder: &mut BlockInfoBuilder, code: u32, bit: u64, ops: &[u64]) -> Result<()> {
    let bad = |reason| Error::BadBlockInfo { bit, reason };
    // LLVM keeps each operand's low byte as a character.
    let text = |ops: &[u64]| String::from_utf8_lossy(&ops.iter().map(|&v| v as u8).collect::<Vec<u8>>()).into_owned();
    match code {
        SETBID => builder.set_bid(*ops.first().ok_or(bad("SETBID without a block id"))? as u32),
        BLOCKNAME => builder.current().ok_or(bad("BLOCKNAME before SETBID"))?.set_name(text(ops)),
        SETRECORDNAME => {
            let entry = builder.current().ok_or(bad("SETRECORDNAME before SETBID"))?;
            let (&code, name) = ops.split_first().ok_or(bad("SETRECORDNAME without a record code"))?;
            entry.add_record_name(code as u32, text(name));
        }
        _ => {}
    }
    Ok(())
}

/// The abbreviation `id` (at least 4) of `scope`: BLOCKINFO's first, then the block's own.
#[inline(always)]
fn lookup(scope: &Scope, id: u32, start: u64) -> Result<&Arc<Abbrev>> {
    let index = (id - 4) as usize;
    let inherited = scope.inherited.as_deref().unwrap_or(&[]);
    match inherited.get(index) {
        Some(a) => Ok(a),
        None => scope.local.get(index - inherited.len()).ok_or_else(|| Error::UndefinedAbbrev {
            bit: start,
            abbrev_id: id,
            block_id: scope.bookmark.block_id,
            defined: inherited.len() + scope.local.len(),
        }),
    }
}

impl<'a> Iterator for Reader<'a> {
    type Item = Result<Event<'a>>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        let (id, start) = match self.advance() {
            Err(e) => {
                self.state = State::Done;
                return Some(Err(e));
            }
            Ok(Entry::Done) => return None,
            Ok(Entry::Enter(block)) => return Some(Ok(Event::EnterBlock(block))),
            Ok(Entry::End) => return Some(Ok(Event::EndBlock)),
            Ok(Entry::Record { id, start }) => (id, start),
        };
        // The record is built where it is returned from, not moved there: it is large.
        let mut out = Some(Ok(Event::Record(Record::empty(self.cursor.data(), start, id))));
        if let Some(Ok(Event::Record(record))) = &mut out {
            if let Err(e) = self.fill_record(record, id, start) {
                self.state = State::Done;
                return Some(Err(e));
            }
        }
        out
    }
}

impl core::iter::FusedIterator for Reader<'_> {}
