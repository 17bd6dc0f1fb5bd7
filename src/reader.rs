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
use crate::ids::BlockId;
use crate::limits::{
    BLOCK_ID_WIDTH, BLOCK_SIZE_WIDTH, CODE_LEN_WIDTH, MAX_ABBREV_WIDTH, MAX_BLOCK_DEPTH, TOP_LEVEL_ABBREV_WIDTH,
    TRAILING_GARBAGE_BYTES,
};
use crate::names;
use crate::record::{self, OperandBuffer, Record, RecordInfo, RecordRef, UNABBREV_RECORD};

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
    /// until a [`reader`](Self::reader) is asked for.
    pub fn parse(input: &'a [u8]) -> Result<Self> {
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

    /// Renamed [`parse`](Self::parse) in 0.2.
    #[deprecated(since = "0.2.0", note = "renamed `Bitstream::parse`")]
    pub fn new(input: &'a [u8]) -> Result<Self> {
        Self::parse(input)
    }

    /// Renamed [`reader`](Self::reader) in 0.2.
    #[deprecated(since = "0.2.0", note = "renamed `Bitstream::reader`")]
    pub fn events(&self) -> Reader<'a> {
        self.reader()
    }

    /// A reader of every top-level block of the stream: an `Iterator` of [`Event`]s, and
    /// the faster [`Reader::advance`] and [`Reader::next_ref`].
    pub fn reader(&self) -> Reader<'a> {
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
        // A width outside 1..=64 is reported when the block is entered (the first
        // `advance` after its EnterBlock), as in a walk of the whole stream.
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
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Bookmark {
    /// The block id.
    pub block_id: BlockId,
    /// The abbreviation-id width inside the block.
    pub abbrev_width: u32,
    /// The block's length in 32-bit words: what its length word says, except for a
    /// block entered although the input cuts it ([`Reader::read_truncated_blocks`]),
    /// where it is the whole words the input still holds of it
    /// ([`Block::declared_len_words`] keeps the declared length).
    pub len_words: u32,
    /// Bit offset of the block's ENTER_SUBBLOCK abbreviation id.
    pub header_bit: u64,
    /// Bit offset just past the block id in the block's header: where `llvm-bcanalyzer`
    /// starts counting the block's size ([`Bookmark::analyzer_bits`]).
    pub after_id_bit: u64,
    /// Bit offset of the block's first content bit (just after the length word).
    pub content_bit: u64,
}

impl Bookmark {
    /// Bit offset just past the block (its content start plus its length); saturates
    /// rather than overflowing for a hand-made bookmark near `u64::MAX`.
    pub fn end_bit(&self) -> u64 {
        self.content_bit.saturating_add(u64::from(self.len_words) * 32)
    }

    /// The block's size in bits as `llvm-bcanalyzer` counts it in its statistics
    /// ("Total Size"): from just past the block id ([`Bookmark::after_id_bit`]) to the
    /// block's end, sub-blocks included.
    ///
    /// ```
    /// # fn main() -> Result<(), llvm_bitstream_reader::Error> {
    /// # let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/llvm14_ir_instructions.bc")).unwrap();
    /// use llvm_bitstream_reader::{Bitstream, Event};
    /// let mut reader = Bitstream::parse(&bytes)?.reader();
    /// let Some(Event::EnterBlock(block)) = reader.next().transpose()? else { panic!("a block first") };
    /// let bookmark = block.bookmark;
    /// // At the top level: a 2-bit abbreviation id, then the block id (13) as one vbr8 chunk.
    /// assert_eq!(bookmark.after_id_bit, bookmark.header_bit + 2 + 8);
    /// assert_eq!(bookmark.analyzer_bits(), bookmark.end_bit() - bookmark.after_id_bit);
    /// # Ok(()) }
    /// ```
    pub fn analyzer_bits(&self) -> u64 {
        self.end_bit().saturating_sub(self.after_id_bit)
    }
}

/// A block that was entered: where it is, and its name.
///
/// Two `Block`s are equal when they are the same block with the same names: what the
/// header said beyond the bookmark ([`Block::declared_len_words`]) is not compared, so the
/// block a [`LazyBlock`] reopens equals the one the walk entered.
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Block {
    /// Where the block is; the bookmark to read it again.
    pub bookmark: Bookmark,
    /// The block's name from the stream's BLOCKINFO (BLOCKNAME), if it gives one.
    pub blockinfo_name: Option<Arc<str>>,
    /// The name the stream's kind gives the id (LLVM IR, diagnostics, remarks, ...), as
    /// `llvm-bcanalyzer` prints it.
    #[cfg_attr(feature = "serde", serde(skip))]
    known_name: Option<&'static str>,
    /// What the header said beyond the bookmark.
    #[cfg_attr(feature = "serde", serde(skip))]
    header: HeaderFacts,
}

impl PartialEq for Block {
    fn eq(&self, other: &Self) -> bool {
        (self.bookmark, &self.blockinfo_name, self.known_name)
            == (other.bookmark, &other.blockinfo_name, other.known_name)
    }
}

impl Eq for Block {}

/// What a block's header said that its [`Bookmark`] does not keep: its length word as
/// written (a block entered cut short has a shorter bookmark).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct HeaderFacts {
    /// The length in 32-bit words the length word says.
    declared_len_words: u32,
}

impl HeaderFacts {
    /// A block opened from its bookmark: the bookmark's length is the header's.
    fn of_bookmark(bookmark: &Bookmark) -> Self {
        HeaderFacts { declared_len_words: bookmark.len_words }
    }
}

impl Block {
    /// The block id.
    #[inline]
    pub fn block_id(&self) -> BlockId {
        self.bookmark.block_id
    }

    /// The block's name: BLOCKINFO's (BLOCKNAME) where the stream gives one, else the
    /// name its kind gives the id (`FUNCTION_BLOCK`), as `llvm-bcanalyzer` resolves it.
    pub fn name(&self) -> Option<&str> {
        match &self.blockinfo_name {
            Some(name) if !name.is_empty() && self.bookmark.block_id.0 >= 8 => Some(name),
            _ => self.known_name,
        }
    }

    /// The abbreviation-id width inside the block.
    pub fn abbrev_width(&self) -> u32 {
        self.bookmark.abbrev_width
    }

    /// The block's length in 32-bit words: as its length word says, except for a block
    /// the input cuts short, entered with [`Reader::read_truncated_blocks`], where it is
    /// the whole words the input holds of it ([`Block::declared_len_words`] is the
    /// declared length).
    pub fn len_words(&self) -> u32 {
        self.bookmark.len_words
    }

    /// The block's length in 32-bit words as its header declares it. It differs from
    /// [`Block::len_words`] only for a block the input cuts short, entered with
    /// [`Reader::read_truncated_blocks`]: the bookmark then holds the words the input has.
    ///
    /// ```
    /// # fn main() -> Result<(), llvm_bitstream_reader::Error> {
    /// # let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/llvm14_ir_instructions.bc")).unwrap();
    /// use llvm_bitstream_reader::{Bitstream, Event};
    /// let cut = &bytes[..(bytes.len() / 2) & !3];
    /// let mut reader = Bitstream::parse(cut)?.reader();
    /// reader.read_truncated_blocks(true);
    /// let mut cut_blocks = 0;
    /// while let Some(Ok(event)) = reader.next() {
    ///     if let Event::EnterBlock(block) = event {
    ///         assert!(block.declared_len_words() >= block.len_words());
    ///         cut_blocks += usize::from(block.declared_len_words() > block.len_words());
    ///     }
    /// }
    /// assert!(cut_blocks > 0); // the module block, at least
    /// # Ok(()) }
    /// ```
    pub fn declared_len_words(&self) -> u32 {
        self.header.declared_len_words
    }

    /// Bit offset of the block's ENTER_SUBBLOCK.
    pub fn bit_offset(&self) -> u64 {
        self.bookmark.header_bit
    }

    /// Bit offset just past the block id in the block's header, where `llvm-bcanalyzer`
    /// starts counting a block's size in its statistics ([`Bookmark::analyzer_bits`]).
    ///
    /// ```
    /// # fn main() -> Result<(), llvm_bitstream_reader::Error> {
    /// # let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/llvm14_ir_instructions.bc")).unwrap();
    /// use llvm_bitstream_reader::{Bitstream, Event};
    /// let mut reader = Bitstream::parse(&bytes)?.reader();
    /// let Some(Event::EnterBlock(block)) = reader.next().transpose()? else { panic!("a block first") };
    /// // At the top level: a 2-bit abbreviation id, then the block id (13) as one vbr8 chunk.
    /// assert_eq!(block.after_id_bit(), block.bit_offset() + 2 + 8);
    /// // Opened again from its bookmark, the block is the same, header facts included.
    /// let mut again = reader.skip_block()?.reader()?;
    /// let Some(Event::EnterBlock(same)) = again.next().transpose()? else { panic!("the block first") };
    /// assert_eq!((same.bookmark, same.after_id_bit()), (block.bookmark, block.after_id_bit()));
    /// # Ok(()) }
    /// ```
    pub fn after_id_bit(&self) -> u64 {
        self.bookmark.after_id_bit
    }
}

/// One step of a walk over a stream: what the `Iterator` yields.
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum Event<'a> {
    /// A block begins. Right after this event [`Reader::skip_block`] may skip it.
    EnterBlock(Block),
    /// A record of the innermost open block (DEFINE_ABBREV is not reported as a record).
    Record(Record<'a>),
    /// The innermost open block ends; the bookmark says which.
    EndBlock(Bookmark),
    /// A DEFINE_ABBREV was read and applied; only with
    /// [`Reader::report_abbrev_definitions`].
    DefineAbbrev(AbbrevDefinition),
}

/// One step of a walk, borrowing the reader: see [`Reader::next_ref`].
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum EventRef<'r, 'a> {
    /// A block begins. Right after this event [`Reader::skip_block`] may skip it.
    EnterBlock(Block),
    /// A record, every operand decoded.
    Record(RecordRef<'r, 'a>),
    /// The innermost open block ends; the bookmark says which.
    EndBlock(Bookmark),
    /// A DEFINE_ABBREV was read and applied; only with
    /// [`Reader::report_abbrev_definitions`].
    DefineAbbrev(AbbrevDefinition),
}

/// What [`Reader::advance`] found: a small `Copy` value, like LLVM's `BitstreamEntry`.
/// After a [`Entry::Record`] the caller reads the record ([`Reader::read_record`]),
/// skips it ([`Reader::skip_record`], which still gives its code), or just advances
/// (the record is then skipped). After an [`Entry::EnterBlock`] it may skip the block
/// ([`Reader::skip_block`]).
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Entry {
    /// A block was entered.
    EnterBlock(Bookmark),
    /// A record starts: nothing of it is decoded yet.
    Record {
        /// Its abbreviation id ([`UNABBREV_RECORD`](crate::UNABBREV_RECORD) = 3 when
        /// unabbreviated).
        abbrev_id: u32,
        /// Bit offset of the abbreviation id.
        bit: u64,
    },
    /// The innermost open block ended; the bookmark says which.
    EndBlock(Bookmark),
    /// A DEFINE_ABBREV was read and applied; only with
    /// [`Reader::report_abbrev_definitions`].
    DefineAbbrev(AbbrevDefinition),
    /// A sub-block that [`Reader::advance_skipping_subblocks`] skipped; the bookmark reads
    /// it later. [`Reader::advance`] never returns this.
    SkippedBlock(Bookmark),
}

/// Where a DEFINE_ABBREV was, reported on request ([`Reader::report_abbrev_definitions`],
/// like LLVM's `AF_DontAutoprocessAbbrevs`, except that the reader still applies it).
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct AbbrevDefinition {
    /// The block the definition is in (0 for BLOCKINFO, whose definitions go to the
    /// block id its last SETBID named).
    pub block_id: BlockId,
    /// Bit offset of the DEFINE_ABBREV's abbreviation id.
    pub bit: u64,
    /// Bit offset just past the definition.
    pub end_bit: u64,
}

/// A skipped block, ready to be read later: the bookmark, the stream, and the BLOCKINFO
/// table in effect where it was skipped. `Send + Sync`; clone it freely.
#[derive(Clone, Debug)]
pub struct LazyBlock<'a> {
    stream: Bitstream<'a>,
    bookmark: Bookmark,
    blockinfo: Arc<BlockInfo>,
    /// For a block recovered from a damaged or cut input: the bit offset of the first
    /// entry that could not be read. Its readers end the block there.
    cut: Option<u64>,
}

impl<'a> LazyBlock<'a> {
    /// The block `bookmark` points at in `stream`, read with `blockinfo`.
    #[cfg_attr(not(feature = "ir"), allow(dead_code))]
    pub(crate) fn new(stream: Bitstream<'a>, bookmark: Bookmark, blockinfo: Arc<BlockInfo>) -> Self {
        LazyBlock { stream, bookmark, blockinfo, cut: None }
    }

    /// The same block, read only up to bit `bit` of its own entries: where reading it
    /// broke (a cut file, a damaged record). Its readers report the block's END_BLOCK at
    /// `bit`, so every walk of the block sees the well-formed part before the break.
    #[cfg_attr(not(feature = "ir"), allow(dead_code))]
    pub(crate) fn cut_at(mut self, bit: u64) -> Self {
        self.cut = Some(bit);
        self
    }

    /// For a block recovered from a damaged or cut input (a partial module's, say
    /// [`ir::Module::parse_partial`](crate::ir::Module::parse_partial)): the bit offset
    /// of the first of its entries that could not be read. Its [`reader`](Self::reader)
    /// ends the block there, as if its END_BLOCK stood at that bit; the block's
    /// [`bookmark`](Self::bookmark) still spans what the input holds of it. `None` for
    /// a block read whole.
    pub fn cut_bit(&self) -> Option<u64> {
        self.cut
    }

    /// Where the block is.
    pub fn bookmark(&self) -> Bookmark {
        self.bookmark
    }

    /// The BLOCKINFO table the block is read with.
    pub fn blockinfo(&self) -> &Arc<BlockInfo> {
        &self.blockinfo
    }

    /// The stream the block is in.
    pub fn stream(&self) -> Bitstream<'a> {
        self.stream
    }

    /// A reader of just this block.
    pub fn reader(&self) -> Result<Reader<'a>> {
        let mut reader = self.stream.block_reader(&self.bookmark, self.blockinfo.clone())?;
        if let Some(bit) = self.cut {
            reader.stop_at = bit;
        }
        Ok(reader)
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
    /// `advance` reported a record whose abbreviation id (at `start`) was read and
    /// nothing else: it may be read or skipped.
    AtRecord {
        id: u32,
        start: u64,
    },
    Done,
    /// A block reader that has not yet announced its block.
    Pending(Bookmark),
}

/// One open block.
#[derive(Debug)]
struct Scope {
    bookmark: Bookmark,
    /// What the header said beyond the bookmark, for [`Block`].
    header: HeaderFacts,
    /// The block's name from BLOCKINFO.
    name: Option<Arc<str>>,
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
/// use llvm_bitstream_reader::{Bitstream, Event, ids::llvm_ir};
/// let mut reader = Bitstream::parse(&bytes)?.reader();
/// let mut skipped = Vec::new();
/// while let Some(event) = reader.next() {
///     match event? {
///         // Skip function bodies without decoding them; keep where they are.
///         Event::EnterBlock(b) if b.block_id() == llvm_ir::FUNCTION_BLOCK_ID => skipped.push(reader.skip_block()?),
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
    /// Id of the innermost open block (cached from the scope stack; 0 at the top level).
    block_id: u32,
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
    /// Whether `advance` reports DEFINE_ABBREVs.
    report_definitions: bool,
    /// Whether blocks cut by the end of the input are entered ([`Reader::read_truncated_blocks`]).
    read_truncated: bool,
    /// The innermost block entered truncated, if any.
    truncated: Option<alloc::boxed::Box<Truncated>>,
    /// Where the block a [`LazyBlock`] of a cut input was cut ([`LazyBlock::cut_bit`]):
    /// an entry of its starting there is read as its END_BLOCK. `u64::MAX` otherwise.
    stop_at: u64,
}

/// A block entered although its length runs past the end of the input.
#[derive(Debug)]
struct Truncated {
    /// Its depth once entered (1 for a top-level block).
    depth: usize,
    /// The error entering it would have given: the walk's last.
    error: Error,
    /// Whether it was left: the walk then ends with `error`.
    left: bool,
}

impl<'a> Reader<'a> {
    fn with_cursor(stream: Bitstream<'a>, cursor: BitCursor<'a>, mode: Mode, blockinfo: Arc<BlockInfo>) -> Self {
        Reader {
            stream,
            cursor,
            mode,
            state: State::Running,
            width: TOP_LEVEL_ABBREV_WIDTH,
            block_id: 0,
            scopes: Vec::new(),
            depth: 0,
            blockinfo,
            building: None,
            end_bit: None,
            top_level_block_read: false,
            ops: OperandBuffer::default(),
            abbrevs: AbbrevCache::default(),
            report_definitions: false,
            read_truncated: false,
            truncated: None,
            stop_at: u64::MAX,
        }
    }

    /// Makes the walk read on into a block whose declared length runs past the end of the
    /// input (a cut file), as `llvm-bcanalyzer` does; off by default, when entering such a
    /// block is an [`Error::BlockTooLong`].
    ///
    /// With it on, such a block is entered anyway, with its length cut to the whole 32-bit
    /// words the input (or the truncated block around it) still holds: [`Block::len_words`]
    /// and the bookmark say that length. The walk reports the block's events as far as
    /// they can be read, then ends with exactly one error, the one it would have given
    /// without this: where reading runs out, the error of that read; if the block's
    /// END_BLOCK comes first (so the file was not cut there, the length word is wrong),
    /// the [`Error::BlockTooLong`] of its header. [`Reader::skip_block`] on such a block
    /// returns that error itself: a cut block is not one to read later. A block whose
    /// length runs past its parent but not past the input is still an error at once.
    ///
    /// ```
    /// # fn main() -> Result<(), llvm_bitstream_reader::Error> {
    /// # let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/llvm14_ir_instructions.bc")).unwrap();
    /// use llvm_bitstream_reader::Bitstream;
    /// let cut = &bytes[..(bytes.len() / 2) & !3];
    /// let mut reader = Bitstream::parse(cut)?.reader();
    /// reader.read_truncated_blocks(true);
    /// let mut events = 0;
    /// let error = loop {
    ///     match reader.next_ref() {
    ///         Ok(Some(_)) => events += 1,
    ///         Ok(None) => unreachable!("a cut file ends with an error"),
    ///         Err(e) => break e,
    ///     }
    /// };
    /// // The events before the cut, then the error where reading ran out.
    /// assert!(events > 100 && error.bit_offset() <= cut.len() as u64 * 8);
    /// assert!(reader.next_ref()?.is_none()); // one error, then the end
    /// # Ok(()) }
    /// ```
    pub fn read_truncated_blocks(&mut self, on: bool) -> &mut Self {
        self.read_truncated = on;
        self
    }

    /// Makes the walk report each DEFINE_ABBREV ([`Entry::DefineAbbrev`],
    /// [`Event::DefineAbbrev`], [`EventRef::DefineAbbrev`]) after applying it; off by
    /// default. Tools that account for every bit (`llvm-bcanalyzer`'s statistics) want it.
    pub fn report_abbrev_definitions(&mut self, on: bool) -> &mut Self {
        self.report_definitions = on;
        self
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
    /// use llvm_bitstream_reader::{Bitstream, EventRef, ids::llvm_ir};
    /// let stream = Bitstream::parse(&bytes)?;
    /// let mut reader = stream.reader();
    /// let mut bodies = Vec::new();
    /// while let Some(event) = reader.next_ref()? {
    ///     if let EventRef::EnterBlock(b) = event {
    ///         if b.block_id() == llvm_ir::FUNCTION_BLOCK_ID {
    ///             bodies.push(reader.skip_block()?);
    ///         }
    ///     }
    /// }
    /// let mut body_reader = stream.reader();
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
        fresh.report_definitions = self.report_definitions;
        fresh.read_truncated = self.read_truncated;
        *self = fresh;
        Ok(())
    }

    /// Moves to bit `bit` of the innermost open block, keeping its abbreviations, as LLVM's
    /// `JumpToBit` does for the metadata index (`lazyLoadOneMetadata`): the next
    /// [`Reader::advance`] reads the abbreviation id at `bit`. `bit` must lie inside the
    /// block's content; anything else is an [`Error::InvalidValue`] and the reader is left
    /// where it was.
    pub fn jump_within_block(&mut self, bit: u64) -> Result<()> {
        let Some(scope) = self.depth.checked_sub(1).and_then(|d| self.scopes.get(d)) else {
            return Err(Error::InvalidValue {
                bit: self.cursor.position(),
                what: "jump target (no block is open)",
                value: bit,
            });
        };
        let bookmark = scope.bookmark;
        if bit < bookmark.content_bit || bit >= bookmark.end_bit() {
            return Err(Error::InvalidValue {
                bit: self.cursor.position(),
                what: "jump target outside the open block",
                value: bit,
            });
        }
        self.cursor.jump_to(bit)?;
        self.state = State::Running;
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
    pub fn block_id(&self) -> Option<BlockId> {
        (self.depth > 0).then_some(BlockId(self.block_id))
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
    ///
    /// A block the input cuts short, entered with [`Reader::read_truncated_blocks`], is
    /// not returned: skipping it gives its error (the [`Error::BlockTooLong`] of its
    /// header), and the walk ends there.
    pub fn skip_block(&mut self) -> Result<LazyBlock<'a>> {
        if self.state != State::JustEntered || self.depth == 0 {
            return Err(Error::NotAtBlockStart { bit: self.cursor.position() });
        }
        let bookmark = self.scopes[self.depth - 1].bookmark;
        let lazy = LazyBlock { stream: self.stream, bookmark, blockinfo: self.blockinfo.clone(), cut: None };
        if bookmark.block_id == BLOCKINFO_BLOCK_ID {
            let depth = self.depth;
            while self.depth >= depth {
                if self.advance()?.is_none() {
                    break;
                }
            }
            return Ok(lazy);
        }
        // Entering checked that the block lies inside its parent and the stream.
        self.cursor.jump_to(bookmark.end_bit())?;
        let truncated = self.truncated.is_some() && self.leaving_truncated();
        self.pop();
        if truncated {
            // A block the input cuts is not a block to read later: its error, now.
            self.state = State::Done;
            return Err(self.truncated.take().map_or(Error::NotAtBlockStart { bit: bookmark.header_bit }, |t| t.error));
        }
        self.state = State::Running;
        Ok(lazy)
    }

    /// Whether the block just entered is one the input cuts short (entered with
    /// [`Reader::read_truncated_blocks`]): its [`Block::len_words`] is what the input
    /// holds, less than its header declares.
    pub fn is_truncated_block(&self) -> bool {
        self.truncated.as_ref().is_some_and(|t| t.depth == self.depth && !t.left)
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
        (self.width, self.block_id) = match self.depth {
            0 => (TOP_LEVEL_ABBREV_WIDTH, 0),
            d => (self.scopes[d - 1].bookmark.abbrev_width, self.scopes[d - 1].bookmark.block_id.0),
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

    /// Ends the walk on an error: every API reports an error once, then `None`.
    #[inline(always)]
    fn fail<T>(&mut self, result: Result<T>) -> Result<T> {
        match result {
            Ok(v) => Ok(v),
            Err(e) => {
                self.state = State::Done;
                Err(e.with_block_names(self.stream.magic()))
            }
        }
    }

    /// Moves to the next entry, like LLVM's `BitstreamCursor::advance()`: blocks are
    /// entered and left, DEFINE_ABBREVs are applied (and reported if asked for), and a
    /// record is reported by its abbreviation id without being decoded. `Ok(None)` at
    /// the end of the stream (or of a block reader's block).
    ///
    /// The lowest layer: [`Reader::next_ref`] and the `Iterator` are built on it. A record
    /// left unread when `advance` is called again is skipped.
    ///
    /// ```
    /// # fn main() -> Result<(), llvm_bitstream_reader::Error> {
    /// # let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/llvm14_ir_instructions.bc")).unwrap();
    /// use llvm_bitstream_reader::{Bitstream, Entry, ids::llvm_ir};
    /// let mut reader = Bitstream::parse(&bytes)?.reader();
    /// let (mut operands, mut module_records) = (0, 0);
    /// while let Some(entry) = reader.advance()? {
    ///     match entry {
    ///         // Function bodies: skipped in O(1).
    ///         Entry::EnterBlock(b) if b.block_id == llvm_ir::FUNCTION_BLOCK_ID => drop(reader.skip_block()?),
    ///         // Only the code of a module record: its operands are skipped, not stored.
    ///         Entry::Record { .. } if reader.block_id() == Some(llvm_ir::MODULE_BLOCK_ID) => {
    ///             let _code = reader.skip_record()?;
    ///             module_records += 1;
    ///         }
    ///         // Every operand of the others, decoded into the reader's buffer.
    ///         Entry::Record { .. } => operands += reader.read_record()?.len(),
    ///         _ => {}
    ///     }
    /// }
    /// assert!(module_records > 0 && operands > 0);
    /// # Ok(()) }
    /// ```
    #[inline]
    pub fn advance(&mut self) -> Result<Option<Entry>> {
        let entry = self.advance_inner();
        self.fail(entry)
    }

    /// The next record of the innermost open block, skipping its sub-blocks in O(1), like
    /// LLVM's `advanceSkippingSubblocks`: the loop every decoder of a block's own records
    /// needs.
    ///
    /// Returns [`Entry::Record`] (then [`read_record`](Self::read_record) or
    /// [`skip_record`](Self::skip_record) it, or call this again to skip it), or
    /// [`Entry::SkippedBlock`] for a sub-block that was skipped (its bookmark reads it
    /// later; a decoder that keeps what it does not know lists it), and `None` once the
    /// block's END_BLOCK has been read (or, at the top level, the stream has ended).
    /// DEFINE_ABBREVs are applied and not reported.
    ///
    /// ```
    /// # fn main() -> Result<(), llvm_bitstream_reader::Error> {
    /// # let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/llvm14_ir_globals.bc")).unwrap();
    /// use llvm_bitstream_reader::{Bitstream, Entry, ids::llvm_ir};
    /// let mut reader = Bitstream::parse(&bytes)?.reader();
    /// let (mut module_records, mut sub_blocks) = (0, 0);
    /// while let Some(entry) = reader.advance()? {
    ///     if let Entry::EnterBlock(b) = entry {
    ///         if b.block_id != llvm_ir::MODULE_BLOCK_ID {
    ///             reader.skip_block()?;
    ///             continue;
    ///         }
    ///         while let Some(entry) = reader.advance_skipping_subblocks()? {
    ///             match entry {
    ///                 Entry::Record { .. } => module_records += usize::from(reader.read_record()?.code() > 0),
    ///                 Entry::SkippedBlock(_) => sub_blocks += 1,
    ///                 _ => {}
    ///             }
    ///         }
    ///     }
    /// }
    /// assert!(module_records > 0 && sub_blocks > 0);
    /// # Ok(()) }
    /// ```
    pub fn advance_skipping_subblocks(&mut self) -> Result<Option<Entry>> {
        loop {
            match self.advance()? {
                Some(Entry::EnterBlock(_)) => return Ok(Some(Entry::SkippedBlock(self.skip_block()?.bookmark()))),
                Some(Entry::DefineAbbrev(_)) => {}
                Some(Entry::EndBlock(_)) | None => return Ok(None),
                entry => return Ok(entry),
            }
        }
    }

    /// After [`Entry::Record`]: decodes the record into a buffer the reader reuses and
    /// lends it, every operand decoded (like LLVM's `readRecord`).
    #[inline]
    pub fn read_record(&mut self) -> Result<RecordRef<'_, 'a>> {
        let State::AtRecord { id, start } = self.state else {
            return Err(Error::NotAtRecord { bit: self.cursor.position() });
        };
        self.state = State::Running;
        let mut cursor = self.cursor;
        let parts = self.decode_into_buffer(&mut cursor, id, start);
        let parts = self.fail(parts)?;
        self.cursor = cursor;
        Ok(self.lend(parts, id, start))
    }

    /// After [`Entry::Record`]: skips the record, storing none of its operands, and
    /// returns its code (like LLVM's `skipRecord`). A record of a BLOCKINFO block is
    /// still applied to the table.
    #[inline]
    pub fn skip_record(&mut self) -> Result<u32> {
        let State::AtRecord { id, start } = self.state else {
            return Err(Error::NotAtRecord { bit: self.cursor.position() });
        };
        self.state = State::Running;
        let code = self.skip_record_at(id, start);
        self.fail(code)
    }

    /// Skips the record with abbreviation `id` whose body the cursor is at.
    #[inline(always)]
    fn skip_record_at(&mut self, id: u32, start: u64) -> Result<u32> {
        if self.in_blockinfo() {
            let mut cursor = self.cursor;
            let parts = self.decode_into_buffer(&mut cursor, id, start)?;
            self.cursor = cursor;
            return Ok(parts.code);
        }
        let abbrev = lookup(&self.scopes[self.depth - 1], id, start)?;
        Ok(record::decode(&mut self.cursor, abbrev, start, &mut record::Skip)?.code)
    }

    /// The record just decoded into the buffer, lent.
    #[inline(always)]
    fn lend(&self, parts: record::Parts<'a>, id: u32, start: u64) -> RecordRef<'_, 'a> {
        RecordRef {
            info: RecordInfo::new(self.cursor.data(), (start, self.cursor.position()), self.block_id, id, parts),
            ops: self.ops.as_slice(),
        }
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
    /// before anything is reserved). `next_ref`, [`Reader::advance`] and the `Iterator`
    /// can be mixed.
    #[inline(always)]
    pub fn next_ref(&mut self) -> Result<Option<EventRef<'_, 'a>>> {
        let (mut cursor, id, start) = match self.record_ahead() {
            Some(record) => record,
            None => match self.advance()? {
                None => return Ok(None),
                Some(Entry::Record { abbrev_id, bit }) => {
                    self.state = State::Running;
                    (self.cursor, abbrev_id, bit)
                }
                // `advance` never returns SkippedBlock.
                Some(Entry::EnterBlock(_) | Entry::SkippedBlock(_)) => {
                    return Ok(Some(EventRef::EnterBlock(self.current_block())));
                }
                Some(Entry::EndBlock(b)) => return Ok(Some(EventRef::EndBlock(b))),
                Some(Entry::DefineAbbrev(d)) => return Ok(Some(EventRef::DefineAbbrev(d))),
            },
        };
        let parts = self.decode_into_buffer(&mut cursor, id, start);
        let parts = self.fail(parts)?;
        self.cursor = cursor;
        Ok(Some(EventRef::Record(self.lend(parts, id, start))))
    }

    /// The common case of every walk first: a record in an open block. Its abbreviation id
    /// is read on a local cursor (which the caller keeps, so that it stays in registers
    /// to the record's end). Anything else, a failed read included, is left to `advance`,
    /// which reads the same bits again from the same position.
    #[inline(always)]
    fn record_ahead(&self) -> Option<(BitCursor<'a>, u32, u64)> {
        if self.state == State::Running && self.depth > 0 {
            let mut cursor = self.cursor;
            let start = cursor.position();
            if let Ok(id) = cursor.read(self.width) {
                let id = id as u32;
                if id == UNABBREV_RECORD || id > DEFINE_ABBREV {
                    return Some((cursor, id, start));
                }
            }
        }
        None
    }

    /// The innermost open block, as an event reports it.
    fn current_block(&self) -> Block {
        let scope = &self.scopes[self.depth - 1];
        let id = scope.bookmark.block_id;
        Block {
            bookmark: scope.bookmark,
            blockinfo_name: scope.name.clone(),
            known_name: names::block_name(self.stream.magic(), id),
            header: scope.header,
        }
    }

    /// Decodes the record with abbreviation `id` that starts at `start` into `self.ops`,
    /// and applies it to the table if it belongs to a BLOCKINFO block.
    #[inline(always)]
    fn decode_into_buffer(&mut self, cursor: &mut BitCursor<'a>, id: u32, start: u64) -> Result<record::Parts<'a>> {
        self.ops.clear();
        // One branch on the kind of record, which the decoder's own dispatch then folds.
        let parts = if id == UNABBREV_RECORD {
            record::decode(cursor, None, start, &mut self.ops)?
        } else {
            let abbrev = lookup(&self.scopes[self.depth - 1], id, start)?;
            record::decode(cursor, abbrev, start, &mut self.ops)?
        };
        self.apply_to_blockinfo(parts.code, start)?;
        Ok(parts)
    }

    /// `advance`, without ending the walk on an error.
    #[inline(always)]
    fn advance_inner(&mut self) -> Result<Option<Entry>> {
        match self.state {
            State::Done => return self.truncated_error(),
            State::JustEntered => {
                // LLVM checks the width when a block is entered (`EnterSubBlock`), not
                // when it is skipped (`SkipBlock`): a skipped block may declare any.
                if self.width == 0 || self.width > MAX_ABBREV_WIDTH {
                    return Err(self.invalid_width());
                }
                self.state = State::Running;
            }
            State::Running => {}
            State::AtRecord { id, start } => {
                self.state = State::Running;
                self.skip_record_at(id, start)?;
            }
            State::Pending(bookmark) => {
                self.state = State::Running;
                return self
                    .push_block(bookmark, HeaderFacts::of_bookmark(&bookmark))
                    .map(|b| Some(Entry::EnterBlock(b)));
            }
        }
        loop {
            if self.depth == 0 && self.at_stream_end() {
                self.finish();
                return Ok(None);
            }
            let start = self.cursor.position();
            if start >= self.stop_at {
                return self.end_at_cut(start);
            }
            let id = self.cursor.read(self.width)? as u32;
            if self.depth == 0 && id != ENTER_SUBBLOCK {
                return Err(match id {
                    END_BLOCK => Error::EndBlockAtTopLevel { bit: start },
                    _ => Error::NotABlockAtTopLevel { bit: start, abbrev_id: id },
                });
            }
            match id {
                END_BLOCK => return self.end_block().map(|b| Some(Entry::EndBlock(b))),
                ENTER_SUBBLOCK => return self.enter_block(start).map(|b| Some(Entry::EnterBlock(b))),
                DEFINE_ABBREV => {
                    let block_id = self.scopes[self.depth - 1].bookmark.block_id;
                    self.define_abbrev(start)?;
                    if self.report_definitions {
                        let end_bit = self.cursor.position();
                        return Ok(Some(Entry::DefineAbbrev(AbbrevDefinition { block_id, bit: start, end_bit })));
                    }
                }
                _ => {
                    self.state = State::AtRecord { id, start };
                    return Ok(Some(Entry::Record { abbrev_id: id, bit: start }));
                }
            }
        }
    }

    /// At the cut of a [`LazyBlock`] recovered from a cut input: its END_BLOCK. Only the
    /// block itself (depth 1) reaches the cut, which is where one of its entries began.
    #[cold]
    fn end_at_cut(&mut self, start: u64) -> Result<Option<Entry>> {
        if self.depth != 1 {
            return Err(Error::InvalidValue {
                bit: start,
                what: "entry across the cut of a recovered block",
                value: start,
            });
        }
        let bookmark = self.scopes[0].bookmark;
        self.pop();
        self.finish();
        Ok(Some(Entry::EndBlock(bookmark)))
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
        self.block_id == BLOCKINFO_BLOCK_ID && self.depth > 0 && self.building.is_some()
    }

    fn define_abbrev(&mut self, start: u64) -> Result<()> {
        let scope = &mut self.scopes[self.depth - 1];
        let place = match scope.bookmark.block_id.0 {
            BLOCKINFO_BLOCK_ID => None,
            id => Some((id, scope.local.len())),
        };
        let abbrev = self.abbrevs.read(&mut self.cursor, start, place)?;
        if let (BLOCKINFO_BLOCK_ID, Some(builder)) = (scope.bookmark.block_id.0, self.building.as_mut()) {
            let entry =
                builder.current().ok_or(Error::BadBlockInfo { bit: start, reason: "DEFINE_ABBREV before SETBID" })?;
            entry.add_abbrev(abbrev);
        } else {
            scope.local.push(abbrev);
        }
        Ok(())
    }

    fn enter_block(&mut self, start: u64) -> Result<Bookmark> {
        // Both widths are constants in 1..=32, which `read_vbr32` would check again.
        let block_id = BlockId(self.cursor.read_vbr_unchecked_width(BLOCK_ID_WIDTH, 32)? as u32);
        let after_id_bit = self.cursor.position();
        let width = self.cursor.read_vbr_unchecked_width(CODE_LEN_WIDTH, 32)? as u32;
        self.cursor.align32()?;
        let len_words = self.cursor.read(BLOCK_SIZE_WIDTH)? as u32;
        // A width outside 1..=64 is an error only if the block is entered, not skipped:
        // the next `advance` inside it reports it.
        let content_bit = self.cursor.position();
        let bookmark =
            Bookmark { block_id, abbrev_width: width, len_words, header_bit: start, after_id_bit, content_bit };
        let header = HeaderFacts { declared_len_words: len_words };
        let limit = match self.depth {
            0 => self.cursor.len_bits(),
            d => self.scopes[d - 1].bookmark.end_bit(),
        };
        if bookmark.end_bit() > limit {
            let error =
                Error::BlockTooLong { bit: start, block_id, block_name: None, words: u64::from(len_words), limit };
            return self.enter_truncated(bookmark, header, limit, error);
        }
        self.push_block(bookmark, header)
    }

    /// A block whose length runs past `limit`: entered cut to what the input holds if
    /// [`Reader::read_truncated_blocks`] asks for it and the input is cut, else `error`.
    #[cold]
    fn enter_truncated(
        &mut self,
        mut bookmark: Bookmark,
        header: HeaderFacts,
        limit: u64,
        error: Error,
    ) -> Result<Bookmark> {
        let input_end = self.cursor.len_bits();
        let available = limit.checked_sub(bookmark.content_bit).map(|bits| bits / 32);
        let (true, true, true, Some(words)) =
            (self.read_truncated, bookmark.end_bit() > input_end, self.depth < MAX_BLOCK_DEPTH, available)
        else {
            return Err(error);
        };
        bookmark.len_words = words as u32;
        // Nothing past the cut block can be read: its end is where the walk stops.
        let end = bookmark.end_bit();
        self.cursor = BitCursor::at(&self.cursor.data()[..(end / 8) as usize], bookmark.content_bit)?;
        let depth = self.depth + 1;
        self.truncated = Some(alloc::boxed::Box::new(Truncated { depth, error, left: false }));
        self.push_block(bookmark, header)
    }

    /// Whether the block being left is the one entered truncated: the walk then ends
    /// (with its error, which [`Reader::truncated_error`] reports next).
    #[cold]
    fn leaving_truncated(&mut self) -> bool {
        match &mut self.truncated {
            Some(t) if t.depth == self.depth => {
                t.left = true;
                true
            }
            _ => false,
        }
    }

    /// At the end of the walk: the error of a truncated block that was left, once.
    #[cold]
    fn truncated_error(&mut self) -> Result<Option<Entry>> {
        match self.truncated.take() {
            Some(t) if t.left => Err(t.error),
            _ => Ok(None),
        }
    }

    fn push_block(&mut self, bookmark: Bookmark, header: HeaderFacts) -> Result<Bookmark> {
        if self.depth >= MAX_BLOCK_DEPTH {
            return Err(Error::TooDeep { bit: bookmark.header_bit, max: MAX_BLOCK_DEPTH });
        }
        let id = bookmark.block_id.0;
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
            scope.header = header;
            scope.name = name;
            scope.inherited = inherited;
            scope.local.clear();
        } else {
            self.scopes.push(Scope { bookmark, header, name, inherited, local: Vec::new() });
        }
        self.depth += 1;
        self.width = bookmark.abbrev_width;
        self.block_id = id;
        self.state = State::JustEntered;
        Ok(bookmark)
    }

    /// The innermost block declares an abbreviation width outside 1..=64.
    #[cold]
    fn invalid_width(&self) -> Error {
        let bookmark = self.scopes[self.depth - 1].bookmark;
        Error::InvalidAbbrevWidth {
            bit: bookmark.header_bit,
            block_id: bookmark.block_id,
            block_name: None,
            width: bookmark.abbrev_width,
        }
    }

    fn end_block(&mut self) -> Result<Bookmark> {
        self.cursor.align32()?;
        let scope = &self.scopes[self.depth - 1];
        let expected = scope.bookmark.end_bit();
        let bit = self.cursor.position();
        if bit != expected {
            let error =
                Error::BlockLengthMismatch { bit, block_id: scope.bookmark.block_id, block_name: None, expected };
            if self.truncated.is_some() && self.leaving_truncated() {
                // The block ended before the input did: its length word was wrong.
                return Err(self.truncated.take().map_or(error, |t| t.error));
            }
            return Err(error);
        }
        let bookmark = scope.bookmark;
        if bookmark.block_id == BLOCKINFO_BLOCK_ID {
            if let Some(builder) = self.building.take() {
                self.blockinfo = Arc::new(builder.finish());
            }
        }
        let truncated = self.truncated.is_some() && self.leaving_truncated();
        self.pop();
        if truncated {
            self.state = State::Done;
        }
        Ok(bookmark)
    }
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

/// The abbreviation of abbreviation id `id` in `scope`: `None` for an unabbreviated
/// record, else BLOCKINFO's first, then the block's own (ids from 4).
#[inline(always)]
fn lookup(scope: &Scope, id: u32, start: u64) -> Result<Option<&Arc<Abbrev>>> {
    if id == UNABBREV_RECORD {
        return Ok(None);
    }
    let index = (id - 4) as usize;
    let inherited = scope.inherited.as_deref().unwrap_or(&[]);
    match inherited.get(index) {
        Some(a) => Ok(Some(a)),
        None => scope.local.get(index - inherited.len()).map(Some).ok_or_else(|| Error::UndefinedAbbrev {
            bit: start,
            abbrev_id: id,
            block_id: scope.bookmark.block_id,
            block_name: None,
            defined: inherited.len() + scope.local.len(),
        }),
    }
}

impl<'a> Reader<'a> {
    /// The `Iterator`'s step, writing the event into `out` (which holds `None`).
    //
    // Not inlined, and given the caller's slot: the event is then written once, where
    // the caller reads it. Returned by value from here, it was built in a local and
    // copied out (no return-slot elision across this function's several returns), and
    // the copy's 16-byte loads of bytes just written by narrower stores stalled on store
    // forwarding (`perf annotate` put an eighth of this function's samples on one).
    // Inlined into the caller's loop it was copied twice more.
    #[inline(never)]
    fn next_into(&mut self, out: &mut Option<Result<Event<'a>>>) {
        let (id, start) = match self.record_ahead() {
            Some((cursor, id, start)) => {
                self.cursor = cursor;
                (id, start)
            }
            None => {
                *out = match self.advance() {
                    Err(e) => Some(Err(e)),
                    Ok(None) => None,
                    Ok(Some(Entry::Record { abbrev_id, bit })) => {
                        self.state = State::Running;
                        return self.record_into(abbrev_id, bit, out);
                    }
                    // `advance` never returns SkippedBlock.
                    Ok(Some(Entry::EnterBlock(_) | Entry::SkippedBlock(_))) => {
                        Some(Ok(Event::EnterBlock(self.current_block())))
                    }
                    Ok(Some(Entry::EndBlock(b))) => Some(Ok(Event::EndBlock(b))),
                    Ok(Some(Entry::DefineAbbrev(d))) => Some(Ok(Event::DefineAbbrev(d))),
                };
                return;
            }
        };
        self.record_into(id, start, out)
    }

    /// Reads the record with abbreviation id `id` (at bit `start`) whose body the cursor
    /// is at into `out`.
    #[inline(always)]
    fn record_into(&mut self, id: u32, start: u64, out: &mut Option<Result<Event<'a>>>) {
        if self.in_blockinfo() {
            // Applied to the table from the buffer, then read again as an owned record.
            let mut cursor = self.cursor;
            if let Err(e) = self.decode_into_buffer(&mut cursor, id, start) {
                self.state = State::Done;
                *out = Some(Err(e.with_block_names(self.stream.magic())));
                return;
            }
        }
        let scope = &self.scopes[self.depth - 1];
        let abbrev = match lookup(scope, id, start) {
            Ok(abbrev) => abbrev,
            Err(e) => {
                self.state = State::Done;
                *out = Some(Err(e.with_block_names(self.stream.magic())));
                return;
            }
        };
        // The record is decoded where the caller reads it, not moved there: it is large.
        *out = Some(Ok(Event::Record(Record::empty(self.cursor.data(), start, self.block_id, id))));
        if let Some(Ok(Event::Record(record))) = out {
            if let Err(e) = record.fill(&mut self.cursor, abbrev) {
                self.state = State::Done;
                *out = Some(Err(e.with_block_names(self.stream.magic())));
            }
        }
    }
}

impl<'a> Iterator for Reader<'a> {
    type Item = Result<Event<'a>>;

    #[inline(always)]
    fn next(&mut self) -> Option<Self::Item> {
        let mut out = None;
        self.next_into(&mut out);
        out
    }
}

impl core::iter::FusedIterator for Reader<'_> {}
