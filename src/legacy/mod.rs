//! LLVM 1.x bytecode: the byte-oriented format LLVM wrote before the bitstream, from
//! LLVM 1.0 to 1.9 (`.bc` files starting with `llvm`, or `llvc` and a compression digit).
//!
//! No bitstream reader accepts these files: they are not a bitstream at all. This module
//! recognizes them ([`detect`]) and walks their structure without copying ([`Bytecode`]):
//! the module block's long header, the format information (endianness, pointer size,
//! bytecode version) and the nested blocks with their payloads. The primitive decoders of
//! the format (VBR integers, strings, length- and zero-terminated lists) are public on
//! [`ByteReader`], to decode the payloads.
//!
//! ```
//! use llvm_bitstream_reader::legacy::{self, BlockKind, Signature};
//!
//! // "llvm", the module block (type 1, 12 bytes), format information (version 5,
//! // little-endian, 32-bit pointers), then an empty Global Type Pool (type 6, size 1:
//! // one byte, the type count 0) and its padding.
//! let file = [
//!     b'l', b'l', b'v', b'm', //
//!     1, 0, 0, 0, 12, 0, 0, 0, //
//!     0x50, 0, 0, 0, //
//!     6 | 1 << 5, 0, 0, 0, 0, 0, 0, 0,
//! ];
//! assert_eq!(legacy::detect(&file), Some(Signature::Uncompressed));
//! let module = legacy::Bytecode::parse(&file)?;
//! assert_eq!(module.format().version.number(), 5);
//! assert_eq!(module.format().version.llvm_releases(), Some("LLVM 1.4, 1.5, 1.6"));
//! let blocks: Vec<_> = module.blocks().collect();
//! assert_eq!(blocks[0].kind, BlockKind::GlobalTypePool);
//! assert_eq!((blocks[0].offset, blocks[0].payload), (16, &[0u8][..]));
//! # Ok::<(), legacy::LegacyError>(())
//! ```
//!
//! # The layout
//!
//! A file is a 4-byte signature, then the module block. The module block always has the
//! long header: a 32-bit type (1) and a 32-bit size, both little-endian; the size counts
//! the bytes after the header (bytes after the module block are ignored, as LLVM's reader
//! ignores trailing garbage). The module's payload starts with the format information, a
//! `uint32_vbr`: bit 0 big-endian, bit 1 64-bit pointers, bit 2 no endianness, bit 3 no
//! pointer size, bits 4 and up the bytecode version. Blocks follow.
//!
//! Inside the module, each block header is
//! - bytecode versions 0 to 2 (LLVM 1.0 to 1.2.5): [long](HeaderForm::Long), a 32-bit
//!   type and a 32-bit size, with the type numbers of LLVM 1.0 to 1.2 (`0x11` Function,
//!   `0x12` Constant Pool, ..., `0x31` Basic Block, `0x32` Instruction List, `0x33`
//!   Compaction Table; see [`BlockKind::from_long_id`]);
//! - versions 3 and later (LLVM 1.3 on): [short](HeaderForm::Short), one 32-bit word with
//!   the type in the low 5 bits and the size in the high 27.
//!
//! Sizes never include the header or the padding. In versions 0 to 3 each block is
//! followed by padding to a 32-bit boundary (as is the format information), counted from
//! the start of the module block; the padding must stay inside the container. LLVM 1.4
//! (version 5) dropped that alignment; zero bytes up to a 32-bit boundary before a block
//! are still accepted in every version, since the format description asks for them and a
//! block header never starts with a zero byte.
//!
//! Nesting, from the format description: the module holds the Global Type Pool, Module
//! Globals Info, the Module Constant Pool, one Function Definition block per function
//! body and the Module Symbol Table. A Function Definition holds a `uint32_vbr` linkage,
//! then the Function Constant Pool or a Compaction Table, the Instruction List (Basic
//! Blocks in LLVM 1.0) and the Function Symbol Table. Other blocks are leaves; their
//! payloads are left to the caller.
//!
//! Compressed files (`llvc1`: zlib or gzip; `llvc2`: bzip2) are decompressed with
//! `Bytecode::decompress` under the `legacy-compression` feature; `llvc0` (null
//! compression) is read directly, with the module block at offset 5.

mod body;
mod bytecode;
mod bytes;
#[cfg(feature = "legacy-compression")]
mod compression;
mod constants;
mod error;
mod module;
mod opcode;
mod print;
mod rules;
mod types;

pub use body::{BasicBlock, Body, FAST_CC, Instruction};
pub use bytecode::{
    Block, BlockKind, Blocks, Bytecode, BytecodeVersion, COMPRESSED_SIGNATURE, Compression, Endianness, FormatInfo,
    HeaderForm, MAX_DECOMPRESSED_BYTES, MAX_DECOMPRESSION_RATIO, MODULE_BLOCK_ID, PointerSize, SIGNATURE, Signature,
    Walk, decompression_limit, detect,
};
pub use bytes::{ByteReader, decode_signed_vbr};
pub use constants::{Constant, ConstantKind, Operand, Operands, Value};
pub use error::LegacyError;
pub use module::{Function, GlobalVar, Linkage, Module};
pub use opcode::Opcode;
pub use print::{FunctionDisplay, ModuleDisplay};
pub use rules::Rules;
pub use types::{
    BOOL, FIRST_DERIVED, INT, LABEL, LONG, SBYTE, Type, TypeDisplay, TypeId, TypeTable, UBYTE, UINT, ULONG, VOID,
};

type Result<T, E = LegacyError> = core::result::Result<T, E>;
