//! Every limit the reader enforces, in one place.
//!
//! Most of these are LLVM's own (see `BitstreamReader.h`, `BitCodes.h`); the few that
//! LLVM does not have are marked as ours and say why. LLVM's own field widths come from the
//! generated [`crate::ids::bitstream::raw`].

use crate::ids::bitstream::raw;

/// Abbreviation-id width in effect at the top level of every stream (LLVM: `CurCodeSize = 2`).
pub const TOP_LEVEL_ABBREV_WIDTH: u32 = 2;

/// Largest abbreviation-id width a block may declare; 0 is also invalid.
///
/// LLVM's limit is `MaxChunkSize`, `sizeof(word_t) * 8`: 64 on the 64-bit hosts LLVM is
/// built for. An id wider than 32 bits is cut to its low 32 bits, as LLVM's `ReadCode`
/// returns an `unsigned`: at width 40, the id `2^32 + 3` is an unabbreviated record.
pub const MAX_ABBREV_WIDTH: u32 = 64;

/// Largest width a DEFINE_ABBREV may give a `Fixed` or `VBR` operand (LLVM: `MaxChunkSize`,
/// 64). Wider is an error when the definition is read, as in LLVM's `ReadAbbrevRecord`.
///
/// `Fixed` fields of up to 64 bits are read as LLVM reads them. A `VBR` operand wider than
/// [`MAX_VBR_CHUNK_WIDTH`] is accepted when defined, as LLVM accepts it, but a record
/// that uses it is an error: see there.
pub const MAX_OPERAND_WIDTH: u32 = 64;

/// Largest chunk width a VBR read accepts.
///
/// For abbreviation operands this limit is ours. LLVM accepts `VBR(33..=64)` definitions,
/// but its `ReadVBR64` keeps each chunk in a 32-bit `Piece` and tests the continuation bit
/// with `1U << (NumBits - 1)`, a shift past the width of the type (undefined behaviour in
/// C++; on x86 the shift count wraps, so LLVM tests a bit of the chunk's low 32 and
/// returns values unrelated to the bits). There is nothing well defined to match, so a
/// record that uses such an operand (as a field or as array elements) fails with
/// [`Error::InvalidAbbrev`](crate::Error::InvalidAbbrev); a definition no record uses
/// is fine, as in LLVM.
pub const MAX_VBR_CHUNK_WIDTH: u32 = 32;

/// Width of the block id in ENTER_SUBBLOCK (`BlockIDWidth`, read as vbr8).
pub const BLOCK_ID_WIDTH: u32 = raw::BlockIDWidth;

/// Width of the new abbreviation width in ENTER_SUBBLOCK (`CodeLenWidth`, read as vbr4).
pub const CODE_LEN_WIDTH: u32 = raw::CodeLenWidth;

/// Width of the block length word in ENTER_SUBBLOCK (`BlockSizeWidth`).
pub const BLOCK_SIZE_WIDTH: u32 = raw::BlockSizeWidth;

/// At the top level, after a complete block, reading stops once no more than this many
/// bytes remain, whatever they hold (LLVM's `getBitcodeFileContents`: "garbage at the end
/// ... e.g. Apple's ar tool"). Before the first block there is no such tolerance: a stream
/// whose first block header is cut short is an error, as in `llvm-bcanalyzer`.
pub const TRAILING_GARBAGE_BYTES: usize = 8;

/// Size in bytes of the bitcode wrapper header (`BWH_HeaderSize`).
pub const WRAPPER_HEADER_SIZE: usize = raw::BWH_HeaderSize as usize;

/// Deepest block nesting accepted. Ours, not LLVM's (LLVM has no limit): it bounds the
/// scope stack, so a hostile file of nested headers cannot make it grow without end.
/// Real files nest fewer than 10 deep.
pub const MAX_BLOCK_DEPTH: usize = 1024;

/// Distinct abbreviation definitions a reader remembers to share among the blocks that
/// repeat them. Ours: it bounds that memory; definitions past it are still read.
pub const MAX_INTERNED_ABBREVS: usize = 4096;

/// Operands an owned [`Record`](crate::Record) (what the `Iterator` yields) keeps decoded
/// inline; later operands are decoded again from the input when asked for. Ours: it
/// trades event size against decoding twice. Eight covers most LLVM IR records (an
/// event of 160 bytes); measured with callgrind on `syn-debug.bc` and `lto-o3.bc`, the
/// benchmark walks took 7-17% fewer instructions than with four, and 12 or 16 no fewer
/// than eight. The event is written where the caller reads it, not copied there.
pub const INLINE_OPERANDS: usize = 8;

/// Most operands one record may have (scalars plus array elements). Ours: LLVM has no
/// such limit, but a record over it needs gigabytes of input, and counting operands in a
/// `u32` keeps records small.
pub const MAX_RECORD_OPERANDS: u64 = u32::MAX as u64;

/// Most case values the case ranges of one function body's `switch` records may expand to
/// (the `SWITCH_INST_MAGIC` form of LLVM 3.2 and 3.3, whose ranges LLVM's reader makes one
/// case per value of `Low..=High`). Ours: LLVM has no limit (a range up to the type's
/// largest value never ends there), and a range is a few bits of input for any number of
/// values. Past it, the body is an [`Error::InvalidValue`](crate::Error::InvalidValue).
/// Single values are not counted: each is a field of the input.
pub const MAX_CASE_RANGE_VALUES: u64 = 1 << 16;

/// Most steps a debug-info walk takes up a scope chain or an inlined-at chain
/// ([`ir::DebugInfo`](crate::ir::DebugInfo)). Ours: LLVM trusts its verifier; a hostile
/// file can make either chain a cycle, and real ones are a few dozen long.
pub const MAX_SCOPE_DEPTH: usize = 4096;

/// How deep the LLVM 1.x printer ([`legacy`](crate::legacy)) nests a type inside a type
/// before `...` stands for the rest. Ours: a type pool can chain pointers to any depth,
/// and 1.x printed every type structurally.
pub const LEGACY_MAX_TYPE_DEPTH: usize = 64;

/// How many types one LLVM 1.x type display prints before `...`. Ours: a type pool can
/// define `T2 = { T1, T1 }`, `T3 = { T2, T2 }`, …, whose printing doubles at each step.
pub const LEGACY_MAX_TYPE_NODES: usize = 1 << 16;

/// How deep the LLVM 1.x printer nests a constant inside a constant before `...`. Ours: a
/// hostile constant pool can make a constant contain itself (LLVM's forward references
/// resolve, so its reader never saw a cycle).
pub const LEGACY_MAX_CONSTANT_DEPTH: usize = 32;

/// How many constants one operand prints, or inspects to tell whether it is all zeros,
/// before `...`. Ours: as for types, `A2 = [A1, A1]`, `A3 = [A2, A2]`, … doubles.
pub const LEGACY_MAX_CONSTANT_NODES: usize = 1 << 20;

/// How many constants one LLVM 1.x display (a module or a function) prints or inspects in
/// all, before every further constant prints as `...`. Ours: with
/// [`LEGACY_MAX_CONSTANT_NODES`] per operand, it bounds the work and the text of a display
/// whose every operand is such a doubling constant. Real 1.x modules hold a small
/// fraction of it.
pub const LEGACY_MAX_DISPLAY_CONSTANT_NODES: usize = 1 << 24;

/// Longest text (an attribute list's at one index, a type's) a whole-module print makes
/// once and keeps for every use. Ours: a longer one is made where it is printed.
pub const MAX_KEPT_TEXT: usize = 512;

/// Most bytes of such texts a whole-module print keeps. Ours: types and attribute lists
/// come from the file, so what is kept of them is bounded; past it, texts are made where
/// they are printed.
pub const MAX_KEPT_TEXTS: usize = 16 << 20;
