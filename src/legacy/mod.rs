//! LLVM 1.x bytecode: the byte-oriented format LLVM wrote before the bitstream, from
//! LLVM 1.0 to 1.9 (`.bc` files starting with `llvm`, or `llvc` and a compression digit).
//!
//! No bitstream reader accepts these files: they are not a bitstream at all. This module
//! recognizes them ([`detect`]), walks their blocks without copying ([`Bytecode`]), and
//! decodes what they hold ([`Module`]), shaped like the [`ir`](crate::ir) layer's: the
//! types, the global variables with their initializers, the functions with linkage,
//! alignment, section and calling convention, the constant pools (constant expressions
//! included), the symbol tables, and each function's body on demand, its instructions
//! with typed, resolved operands ([`Body`]). [`Module::display`] prints the module in the
//! assembly of its era, as LLVM 1.x's `llvm-dis` did.
//!
//! ```
//! use llvm_bitstream_reader::legacy::{self, Module, Opcode, Value};
//!
//! // `declare int %getchar()` and `int %main() { %0 = call int %getchar(); ret int %0 }`,
//! // as bytecode version 5 (LLVM 1.4 on) lays them out.
//! let file: [u8; 76] = [
//!     108, 108, 118, 109, 1, 0, 0, 0, 64, 0, 0, 0, 80, 198, 0, 0, 0, 2, 13, 7, 0, 16, 13, 69,
//!     1, 0, 0, 0, 209, 3, 193, 3, 0, 0, 0, 0, 0, 162, 1, 0, 0, 0, 7, 1, 0, 0, 117, 14, 16, 0,
//!     5, 7, 16, 0, 68, 2, 0, 0, 0, 2, 14, 1, 7, 103, 101, 116, 99, 104, 97, 114, 2, 4, 109,
//!     97, 105, 110,
//! ];
//! let module = Module::parse(&file)?;
//! assert_eq!(module.bytecode.format().version.llvm_releases(), Some("LLVM 1.4, 1.5, 1.6"));
//! let main = module.functions.iter().position(|f| f.name == Some(b"main")).unwrap();
//! let body = module.body(main)?.expect("a definition"); // decoded on demand, from its block
//! let call = &body.instructions[0];
//! assert_eq!(call.opcode, Opcode::Call);
//! assert_eq!(body.operands(call)[0].value, Value::Function(0)); // %getchar
//! assert_eq!(body.operands(&body.instructions[1])[0].value, Value::Instruction(0));
//! assert!(module.display().to_string().contains("\tcall int %getchar( )\t\t; <int>:0 [#uses=1]\n"));
//! # Ok::<(), legacy::LegacyError>(())
//! ```
//!
//! The block walk alone:
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
//! let blocks: Vec<_> = module.blocks().collect();
//! assert_eq!(blocks[0].kind, BlockKind::GlobalTypePool);
//! assert_eq!((blocks[0].offset, blocks[0].payload), (16, &[0u8][..]));
//! # Ok::<(), legacy::LegacyError>(())
//! ```
//!
//! # Versions
//!
//! Every version the format description names is decoded: 0 (LLVM 1.0, 1.1) to 5 (LLVM
//! 1.4 on). [`Rules`] holds what changed between them, one flag per entry of the
//! description's "Version Differences": block headers, alignment, 24-bit type slots, the
//! "type type" plane of 1.2 and before, explicit primitive zeros, restricted
//! `getelementptr` indices, `undef`, function flags, and the renumbering of opcodes when
//! 1.4 added `unreachable`.
//!
//! Version 6, which the description predates, is decoded too: LLVM's CVS wrote it from
//! 2006-10-26 (`div` split into `udiv`, `sdiv` and `fdiv`) to 2006-11-08 (the bump to
//! version 7), on the way to LLVM 2.0, and no release did. It is version 5 with one
//! difference, [`Rules::signed_div_rem`]: the opcodes of `include/llvm/Instruction.def`
//! of 2006-11-02, with `udiv`, `sdiv`, `fdiv`, `urem`, `srem` and `frem` at 10 to 15
//! ([`Opcode::UDiv`] to [`Opcode::FRem`]), the opcodes after them four higher, and the
//! slots 32 and 33 of 1.5's `vanext` and old `vaarg` gone (`select` is 36), in
//! instructions and constant expressions alike, as LLVM's reader of 2006-11-08 numbers
//! them. They are printed as written (`udiv uint %u, 2`), in the 1.x syntax LLVM still
//! printed then. A newer version walks ([`Bytecode`]) but is not decoded
//! ([`LegacyError::UnsupportedVersion`]). Where the description and LLVM's own reader
//! and writer disagree, this module follows LLVM's: instruction formats 1 to 3 are a
//! fixed 32-bit little-endian word (the description says `uint32_vbr`), a global's
//! extension word has its linkage in bits 1 to 3 (the description says 2 to 4), and a
//! symbol table's value planes run to the end of its block (the description says a
//! length list).
//!
//! Unknown opcodes and blocks are kept ([`Opcode::Unknown`], `unknown_blocks`), never an
//! error; a malformed file gives a [`LegacyError`] with its byte offset, and
//! [`Module::parse_partial`] keeps what was read before it.
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
//! Blocks in LLVM 1.0) and the Function Symbol Table. Other blocks are leaves, whose
//! payloads [`Bytecode`] hands over as they are and [`Module`] decodes.
//!
//! Compressed files (`llvc1`: zlib or gzip; `llvc2`: bzip2) are decompressed with
//! `Bytecode::decompress` under the `legacy-compression` feature, then parsed like any
//! other; `llvc0` (null compression) is read directly, with the module block at offset 5.

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
mod signature;
mod types;

pub use body::{BasicBlock, Body, FAST_CC, Instruction};
pub use bytecode::{
    Block, BlockKind, Blocks, Bytecode, BytecodeVersion, Endianness, FormatInfo, HeaderForm, MODULE_BLOCK_ID,
    PointerSize, Walk,
};
pub use bytes::{ByteReader, decode_signed_vbr};
pub use constants::{Constant, ConstantKind, Operand, Operands, Value};
pub use error::LegacyError;
pub use module::{Function, GlobalVar, Linkage, Module};
pub use opcode::Opcode;
pub use print::{FunctionDisplay, ModuleDisplay, TypeDisplay};
pub use rules::Rules;
pub use signature::{
    COMPRESSED_SIGNATURE, Compression, MAX_DECOMPRESSED_BYTES, MAX_DECOMPRESSION_RATIO, SIGNATURE, Signature,
    decompression_limit, detect,
};
pub use types::{BOOL, FIRST_DERIVED, INT, LABEL, LONG, SBYTE, Type, TypeId, TypeTable, UBYTE, UINT, ULONG, VOID};

type Result<T, E = LegacyError> = core::result::Result<T, E>;
