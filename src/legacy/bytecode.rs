//! The block structure of a bytecode file: signature, module block, format information,
//! nested blocks.

use core::fmt;

#[cfg(feature = "legacy-compression")]
use super::compression;
use super::signature::{Compression, Signature, detect};
use super::{ByteReader, LegacyError};

type Result<T, E = LegacyError> = core::result::Result<T, E>;

/// The type of the module block (in both header forms).
pub const MODULE_BLOCK_ID: u32 = 1;

/// The error for an input [`detect`] does not accept.
fn signature_error(bytes: &[u8]) -> LegacyError {
    match bytes {
        [b'l', b'l', b'v', b'c'] => {
            LegacyError::Truncated { offset: 4, what: "compression digit", needed: 1, available: 0 }
        }
        [b'l', b'l', b'v', b'c', digit, ..] => LegacyError::UnknownCompression { offset: 4, digit: *digit },
        _ => LegacyError::NotLegacy { offset: 0 },
    }
}

/// Byte order of the target, from the format information.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Endianness {
    /// Bit 0 clear.
    Little,
    /// Bit 0 set.
    Big,
    /// Bit 2 set: the module does not depend on byte order.
    Unspecified,
}

/// Pointer size of the target, from the format information.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PointerSize {
    /// Bit 1 clear.
    Bits32,
    /// Bit 1 set.
    Bits64,
    /// Bit 3 set: the module does not depend on pointer size.
    Unspecified,
}

/// A bytecode format version (bits 4 and up of the format information). It is not the
/// LLVM release number: see [`llvm_releases`](Self::llvm_releases).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct BytecodeVersion(pub u32);

impl BytecodeVersion {
    /// The version number.
    pub const fn number(self) -> u32 {
        self.0
    }

    /// The LLVM releases that wrote this version, from the format description (and, for
    /// version 6, which no release wrote, LLVM's history); `None` above 6.
    pub const fn llvm_releases(self) -> Option<&'static str> {
        match self.0 {
            0 => Some("LLVM 1.0, 1.1"),
            1 => Some("LLVM 1.2"),
            2 => Some("LLVM 1.2.5 (not released)"),
            3 => Some("LLVM 1.3"),
            4 => Some("LLVM 1.3.x (not released)"),
            5 => Some("LLVM 1.4, 1.5, 1.6"),
            6 => Some("LLVM CVS of 2006-10-26 to 2006-11-08 (not released)"),
            _ => None,
        }
    }

    /// Whether the format description documents this version (0 to 5). Later versions
    /// are walked with the layout of version 5.
    pub const fn is_known(self) -> bool {
        self.0 <= 5
    }

    /// The header form of the blocks inside the module: long up to version 2, short from
    /// version 3 (LLVM 1.3) on.
    pub const fn header_form(self) -> HeaderForm {
        if self.0 <= 2 { HeaderForm::Long } else { HeaderForm::Short }
    }

    /// Whether blocks (and the format information) are padded to 32 bits: versions 0 to 3.
    pub const fn is_aligned(self) -> bool {
        self.0 <= 3
    }
}

impl fmt::Display for BytecodeVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.llvm_releases() {
            Some(releases) => write!(f, "{} ({releases})", self.0),
            None => write!(f, "{} (unknown: newer than the format description)", self.0),
        }
    }
}

/// The format information at the start of the module block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FormatInfo {
    /// The `uint32_vbr` as read.
    pub raw: u32,
    /// Byte order (bits 0 and 2).
    pub endianness: Endianness,
    /// Pointer size (bits 1 and 3).
    pub pointer_size: PointerSize,
    /// Bytecode version (bits 4 to 31).
    pub version: BytecodeVersion,
}

impl FormatInfo {
    /// Splits the format information `uint32_vbr` into its fields.
    pub const fn from_raw(raw: u32) -> Self {
        let endianness = if raw & 4 != 0 {
            Endianness::Unspecified
        } else if raw & 1 != 0 {
            Endianness::Big
        } else {
            Endianness::Little
        };
        let pointer_size = if raw & 8 != 0 {
            PointerSize::Unspecified
        } else if raw & 2 != 0 {
            PointerSize::Bits64
        } else {
            PointerSize::Bits32
        };
        FormatInfo { raw, endianness, pointer_size, version: BytecodeVersion(raw >> 4) }
    }
}

/// The two forms of block header.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HeaderForm {
    /// Two 32-bit words, type then size: the module block, and every block of versions 0-2.
    Long,
    /// One 32-bit word, type in bits 0-4 and size in bits 5-31: blocks of version 3 and up.
    Short,
}

impl HeaderForm {
    /// The header's length in bytes: 8 or 4.
    pub const fn byte_len(self) -> usize {
        match self {
            HeaderForm::Long => 8,
            HeaderForm::Short => 4,
        }
    }
}

/// The type of a block, named as in the format description.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BlockKind {
    /// 0x01: the module, holding every other block.
    Module,
    /// 0x02 (long form 0x11): one function's body.
    Function,
    /// 0x03 (long form 0x12): a module or function constant pool.
    ConstantPool,
    /// 0x04 (long form 0x13): a module or function symbol table.
    SymbolTable,
    /// 0x05 (long form 0x14): global variables, function declarations, libraries, triple.
    ModuleGlobalInfo,
    /// 0x06 (long form 0x15): the global type pool.
    GlobalTypePool,
    /// 0x07 (long form 0x32): a function's instructions.
    InstructionList,
    /// 0x08 (long form 0x33): a function's slot-number compaction table.
    CompactionTable,
    /// Long form 0x16 only: dependent libraries (declared by LLVM 1.0-1.2, never written).
    DependentLibs,
    /// Long form 0x31 only: one basic block of a function (LLVM 1.0).
    BasicBlock,
    /// Any other type, as written.
    Unknown(u32),
}

impl BlockKind {
    /// The kind of a short-header type (bytecode version 3 and up): 1 to 8.
    pub const fn from_short_id(id: u32) -> Self {
        match id {
            1 => BlockKind::Module,
            2 => BlockKind::Function,
            3 => BlockKind::ConstantPool,
            4 => BlockKind::SymbolTable,
            5 => BlockKind::ModuleGlobalInfo,
            6 => BlockKind::GlobalTypePool,
            7 => BlockKind::InstructionList,
            8 => BlockKind::CompactionTable,
            other => BlockKind::Unknown(other),
        }
    }

    /// The kind of a long-header type (bytecode versions 0 to 2): LLVM 1.0-1.2's numbers
    /// (`0x11`-`0x16`, `0x31`-`0x33`). The short-form numbers 1 to 8, which LLVM's reader
    /// rejects there, are accepted too.
    pub const fn from_long_id(id: u32) -> Self {
        match id {
            0x11 => BlockKind::Function,
            0x12 => BlockKind::ConstantPool,
            0x13 => BlockKind::SymbolTable,
            0x14 => BlockKind::ModuleGlobalInfo,
            0x15 => BlockKind::GlobalTypePool,
            0x16 => BlockKind::DependentLibs,
            0x31 => BlockKind::BasicBlock,
            0x32 => BlockKind::InstructionList,
            0x33 => BlockKind::CompactionTable,
            other => BlockKind::from_short_id(other),
        }
    }

    /// The kind of a type written with the given header form.
    pub const fn from_id(id: u32, form: HeaderForm) -> Self {
        match form {
            HeaderForm::Long => BlockKind::from_long_id(id),
            HeaderForm::Short => BlockKind::from_short_id(id),
        }
    }

    /// The block's name in the format description, without its container (see
    /// [`Block::name`] for "Module Constant Pool" and the like).
    pub const fn name(self) -> &'static str {
        match self {
            BlockKind::Module => "Module",
            BlockKind::Function => "Function Definition",
            BlockKind::ConstantPool => "Constant Pool",
            BlockKind::SymbolTable => "Symbol Table",
            BlockKind::ModuleGlobalInfo => "Module Globals Info",
            BlockKind::GlobalTypePool => "Global Type Pool",
            BlockKind::InstructionList => "Instruction List",
            BlockKind::CompactionTable => "Compaction Table",
            BlockKind::DependentLibs => "Dependent Libraries",
            BlockKind::BasicBlock => "Basic Block",
            BlockKind::Unknown(_) => "Unknown",
        }
    }
}

impl fmt::Display for BlockKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BlockKind::Unknown(id) => f.pad(&alloc::format!("Unknown block type {id}")),
            other => f.pad(other.name()),
        }
    }
}

/// How blocks are laid out in one module (from its version).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Layout {
    /// Header form of blocks inside the module.
    form: HeaderForm,
    /// Whether 32-bit alignment follows each block.
    aligned: bool,
    /// File offset of the module block header: alignment is counted from there.
    origin: usize,
}

/// One block inside the module: its header and its payload, borrowed from the input.
#[derive(Clone, Copy, Debug)]
pub struct Block<'a> {
    /// The block's type, named.
    pub kind: BlockKind,
    /// The block's type as written.
    pub id: u32,
    /// Byte offset of the block header in the input.
    pub offset: usize,
    /// The header form.
    pub header: HeaderForm,
    /// The block's contents: `size` bytes after the header (no header, no padding).
    pub payload: &'a [u8],
    /// The container: [`BlockKind::Module`] or [`BlockKind::Function`].
    pub parent: BlockKind,
    /// Nesting depth: 1 for blocks directly in the module, 2 inside a function.
    pub depth: usize,
    layout: Layout,
}

impl<'a> Block<'a> {
    /// Byte offset of the payload in the input.
    pub fn payload_offset(&self) -> usize {
        self.offset + self.header.byte_len()
    }

    /// The payload's size in bytes, as the header declares it.
    pub fn size(&self) -> usize {
        self.payload.len()
    }

    /// Byte offset just past the payload (before any padding).
    pub fn end(&self) -> usize {
        self.payload_offset() + self.payload.len()
    }

    /// The block's name in the format description, with its container where the format
    /// has both ("Module Constant Pool", "Function Symbol Table").
    pub fn name(&self) -> &'static str {
        match (self.kind, self.parent) {
            (BlockKind::ConstantPool, BlockKind::Module) => "Module Constant Pool",
            (BlockKind::ConstantPool, _) => "Function Constant Pool",
            (BlockKind::SymbolTable, BlockKind::Module) => "Module Symbol Table",
            (BlockKind::SymbolTable, _) => "Function Symbol Table",
            (kind, _) => kind.name(),
        }
    }

    /// Whether the block holds blocks: a function definition directly in the module.
    pub fn has_children(&self) -> bool {
        self.kind == BlockKind::Function && self.parent == BlockKind::Module
    }

    /// A function definition's linkage, the `uint32_vbr` before its blocks (0 external,
    /// 1 weak, 2 appending, 3 internal, 4 linkonce); `None` for other blocks.
    pub fn linkage(&self) -> Option<u32> {
        if !self.has_children() {
            return None;
        }
        self.reader().read_vbr_u32().ok()
    }

    /// The blocks inside this one, in order; empty unless [`has_children`](Self::has_children).
    pub fn children(&self) -> Blocks<'a> {
        Blocks { raw: self.raw_children() }
    }

    /// The blocks inside this one, each header checked as it comes: an error ends the walk.
    pub(super) fn raw_children(&self) -> RawBlocks<'a> {
        let mut reader = self.reader();
        let ok = self.has_children() && reader.read_vbr_u32().is_ok();
        RawBlocks { reader, layout: self.layout, parent: self.kind, depth: self.depth + 1, done: !ok }
    }

    /// A [`ByteReader`] over the payload, reporting offsets in the input.
    pub fn reader(&self) -> ByteReader<'a> {
        ByteReader::with_base(self.payload, self.payload_offset())
    }
}

/// Iterates over the blocks of one container, checking each header.
#[derive(Clone, Debug)]
pub(super) struct RawBlocks<'a> {
    reader: ByteReader<'a>,
    layout: Layout,
    parent: BlockKind,
    depth: usize,
    done: bool,
}

impl<'a> RawBlocks<'a> {
    fn read_block(&mut self) -> Result<Block<'a>> {
        let offset = self.reader.offset();
        let form = self.layout.form;
        if self.reader.remaining() < form.byte_len() {
            return Err(LegacyError::Truncated {
                offset,
                what: "block header",
                needed: form.byte_len(),
                available: self.reader.remaining(),
            });
        }
        let (id, size) = match form {
            HeaderForm::Long => (self.reader.read_u32()?, self.reader.read_u32()?),
            HeaderForm::Short => {
                let word = self.reader.read_u32()?;
                (word & 0x1F, word >> 5)
            }
        };
        if id == 0 {
            return Err(LegacyError::ReservedBlockType { offset });
        }
        let available = self.reader.remaining();
        if size as usize > available {
            return Err(LegacyError::BlockTooLong { offset, id, size, available });
        }
        let payload = self.reader.read_bytes(size as usize)?;
        if self.layout.aligned {
            self.reader.align32(self.layout.origin)?;
        }
        Ok(Block {
            kind: BlockKind::from_id(id, form),
            id,
            offset,
            header: form,
            payload,
            parent: self.parent,
            depth: self.depth,
            layout: self.layout,
        })
    }
}

impl<'a> Iterator for RawBlocks<'a> {
    type Item = Result<Block<'a>>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        self.reader.skip_zero_padding(self.layout.origin);
        if self.reader.is_at_end() {
            self.done = true;
            return None;
        }
        let block = self.read_block();
        self.done = block.is_err();
        Some(block)
    }
}

/// The blocks of one container, in file order (see [`Bytecode::blocks`], [`Block::children`]).
///
/// [`Bytecode::parse`] has checked every header already, so iteration cannot fail.
#[derive(Clone, Debug)]
pub struct Blocks<'a> {
    raw: RawBlocks<'a>,
}

impl<'a> Iterator for Blocks<'a> {
    type Item = Block<'a>;

    fn next(&mut self) -> Option<Block<'a>> {
        self.raw.next().and_then(|b| b.ok())
    }
}

/// Every block of a module, depth first: each function definition is followed by the
/// blocks inside it (see [`Bytecode::walk`]).
#[derive(Clone, Debug)]
pub struct Walk<'a> {
    top: Blocks<'a>,
    inner: Option<Blocks<'a>>,
}

impl<'a> Iterator for Walk<'a> {
    type Item = Block<'a>;

    fn next(&mut self) -> Option<Block<'a>> {
        if let Some(inner) = &mut self.inner {
            if let Some(block) = inner.next() {
                return Some(block);
            }
            self.inner = None;
        }
        let block = self.top.next()?;
        if block.has_children() {
            self.inner = Some(block.children());
        }
        Some(block)
    }
}

/// An LLVM 1.x bytecode file as blocks: its signature, module block, format information
/// and the blocks inside, checked and borrowed from the input (the decoded contents are
/// [`Module`](super::Module)).
#[derive(Clone, Copy, Debug)]
pub struct Bytecode<'a> {
    input: &'a [u8],
    signature: Signature,
    offset: usize,
    size: u32,
    payload: &'a [u8],
    format: FormatInfo,
    blocks_start: usize,
    layout: Layout,
}

impl<'a> Bytecode<'a> {
    /// Parses the signature, the module block's header and format information, and checks
    /// every block header of the module and of its function definitions.
    ///
    /// Uncompressed (`llvm`) and null-compressed (`llvc0`) files are read in place.
    /// Compressed ones (`llvc1`, `llvc2`) give [`LegacyError::Compressed`]: decompress them
    /// with `Bytecode::decompress` (feature `legacy-compression`) and parse the result.
    pub fn parse(input: &'a [u8]) -> Result<Self> {
        let module = Self::parse_unchecked(input)?;
        module.check()?;
        Ok(module)
    }

    /// Reads what a damaged or cut file holds of its block tree: the module whose
    /// [`blocks`](Self::blocks) and [`walk`](Self::walk) give every block before the
    /// first broken one, and that block's error, if any. A cut file (its module block
    /// declares more bytes than follow) keeps the bytes there are as its payload
    /// ([`size`](Self::size) is still the declared size); if the cut falls between
    /// blocks, the error is [`LegacyError::ModuleTooLong`]. `None` if not even the module
    /// header and its format information are there.
    ///
    /// ```
    /// use llvm_bitstream_reader::legacy::Bytecode;
    /// // "llvm", a module block declaring 64 bytes, of which 1 follows: the format
    /// // information (version 5).
    /// let (module, error) = Bytecode::parse_partial(b"llvm\x01\0\0\0\x40\0\0\0\x50");
    /// let module = module.unwrap();
    /// assert_eq!((module.size(), module.payload().len(), module.walk().count()), (64, 1, 0));
    /// assert!(error.unwrap().byte_offset() <= 13);
    /// ```
    pub fn parse_partial(input: &'a [u8]) -> (Option<Self>, Option<LegacyError>) {
        match Self::parse_cut(input) {
            Ok((module, cut)) => {
                let error = module.check().err().or(cut);
                (Some(module), error)
            }
            Err(e) => (None, Some(e)),
        }
    }

    /// Parses the signature, the module header and the format information only; the
    /// blocks are checked as they are walked ([`raw_blocks`](Self::raw_blocks)).
    pub(super) fn parse_unchecked(input: &'a [u8]) -> Result<Self> {
        Self::parse_header(input, false).map(|(module, _)| module)
    }

    /// [`parse_unchecked`](Self::parse_unchecked), but a module block cut by the end of the
    /// input (a cut file) keeps the bytes there are as its payload, and the
    /// [`LegacyError::ModuleTooLong`] that says so is returned beside it.
    pub(super) fn parse_cut(input: &'a [u8]) -> Result<(Self, Option<LegacyError>)> {
        Self::parse_header(input, true)
    }

    fn parse_header(input: &'a [u8], allow_cut: bool) -> Result<(Self, Option<LegacyError>)> {
        let signature = detect(input).ok_or_else(|| signature_error(input))?;
        if let Signature::Compressed(compression @ (Compression::Gzip | Compression::Bzip2)) = signature {
            return Err(LegacyError::Compressed { offset: 4, compression });
        }
        let offset = signature.byte_len();
        let mut reader = ByteReader::with_base(&input[offset..], offset);
        if reader.remaining() < 8 {
            return Err(LegacyError::Truncated {
                offset,
                what: "module block header",
                needed: 8,
                available: reader.remaining(),
            });
        }
        let id = reader.read_u32()?;
        let size = reader.read_u32()?;
        if id != MODULE_BLOCK_ID {
            return Err(LegacyError::NotModuleBlock { offset, id });
        }
        let available = reader.remaining();
        let mut cut = None;
        if size as usize > available {
            let e = LegacyError::ModuleTooLong { offset, size, available };
            if !allow_cut {
                return Err(e);
            }
            cut = Some(e);
        }
        let payload_offset = reader.offset();
        let payload = reader.read_bytes((size as usize).min(available))?;
        let mut body = ByteReader::with_base(payload, payload_offset);
        let format = FormatInfo::from_raw(body.read_vbr_u32()?);
        let version = format.version;
        let layout = Layout { form: version.header_form(), aligned: version.is_aligned(), origin: offset };
        if layout.aligned {
            body.align32(offset)?;
        }
        body.skip_zero_padding(offset);
        Ok((Bytecode { input, signature, offset, size, payload, format, blocks_start: body.offset(), layout }, cut))
    }

    /// Walks every header once, returning the first error.
    fn check(&self) -> Result<()> {
        for block in self.raw_blocks() {
            let block = block?;
            if block.has_children() {
                let mut reader = block.reader();
                reader.read_vbr_u32()?;
                let raw = RawBlocks { reader, layout: self.layout, parent: block.kind, depth: 2, done: false };
                for child in raw {
                    child?;
                }
            }
        }
        Ok(())
    }

    /// The file offset alignment is counted from: the module block's.
    pub(super) fn origin(&self) -> usize {
        self.layout.origin
    }

    /// The blocks directly inside the module, each header checked as it comes: an error
    /// ends the walk.
    pub(super) fn raw_blocks(&self) -> RawBlocks<'a> {
        let start = self.blocks_start - self.payload_offset();
        RawBlocks {
            reader: ByteReader::with_base(&self.payload[start..], self.blocks_start),
            layout: self.layout,
            parent: BlockKind::Module,
            depth: 1,
            done: false,
        }
    }

    /// The input given to [`parse`](Self::parse).
    pub fn input(&self) -> &'a [u8] {
        self.input
    }

    /// The signature: [`Signature::Uncompressed`] or null compression.
    pub fn signature(&self) -> Signature {
        self.signature
    }

    /// Byte offset of the module block header: 4, or 5 after `llvc0`.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The module block's size as its header declares it (bytes after the 8-byte header).
    pub fn size(&self) -> u32 {
        self.size
    }

    /// Byte offset of the module's payload (the format information).
    pub fn payload_offset(&self) -> usize {
        self.offset + HeaderForm::Long.byte_len()
    }

    /// The module block's payload: the format information, then the blocks.
    pub fn payload(&self) -> &'a [u8] {
        self.payload
    }

    /// The format information.
    pub fn format(&self) -> FormatInfo {
        self.format
    }

    /// The header form of the blocks inside the module (from the version).
    pub fn header_form(&self) -> HeaderForm {
        self.layout.form
    }

    /// Byte offset of the first block: after the format information and its padding (or
    /// the end of the module, if it holds no block).
    pub fn blocks_offset(&self) -> usize {
        self.blocks_start
    }

    /// Bytes after the module block, ignored (LLVM's reader allows such trailing garbage).
    pub fn trailing(&self) -> &'a [u8] {
        &self.input[self.payload_offset() + self.payload.len()..]
    }

    /// The blocks directly inside the module, in file order.
    pub fn blocks(&self) -> Blocks<'a> {
        Blocks { raw: self.raw_blocks() }
    }

    /// Every block, depth first (see [`Block::depth`]).
    pub fn walk(&self) -> Walk<'a> {
        Walk { top: self.blocks(), inner: None }
    }

    /// Decompresses a compressed bytecode file into an uncompressed one: `llvm` followed by
    /// the decompressed module block, ready for [`parse`](Self::parse) (whose offsets then
    /// refer to the returned buffer). `llvc1` is inflated as gzip or zlib (both framings
    /// are tried), `llvc2` as bzip2, `llvc0` copied; an uncompressed file is returned as
    /// it is. Output beyond [`decompression_limit`](super::decompression_limit) of the
    /// input's length is refused with [`LegacyError::DecompressedTooLarge`].
    #[cfg(feature = "legacy-compression")]
    pub fn decompress(input: &[u8]) -> Result<alloc::vec::Vec<u8>> {
        let signature = detect(input).ok_or_else(|| signature_error(input))?;
        compression::decompress(input, signature)
    }
}
