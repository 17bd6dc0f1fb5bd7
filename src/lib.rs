//! A zero-copy, never-panicking reader for the LLVM bitstream container: the format
//! under LLVM bitcode (`.bc`), clang serialized diagnostics (`.dia`), clang PCH and
//! module files, LLVM optimization remarks and Swift modules, and decoders of what the
//! records mean, without LLVM.
//!
//! # Start here
//!
//! One entry point per job; bytes → value is always `parse` (`parse_partial` for a
//! damaged input: what comes before the break, and the error), a path is `open`ed. Each
//! job is also a program in the repository's `examples/`.
//!
//! | job | entry point | example |
//! |---|---|---|
//! | walk the blocks and records of any bitstream | [`Bitstream::parse`] → [`Bitstream::reader`] → [`Reader::advance`] (below) | `walk.rs` |
//! | a memory-mapped file | [`BitstreamFile::open`] → [`BitstreamFile::bitstream`] | `walk.rs` |
//! | an IR module: triple, types, globals, functions with linkage and body size | [`ir::Module::parse`], [`ir::Module::parse_all`] | `functions.rs` |
//! | a file's symbols as `llvm-nm` lists them: `.bc`, objects, archives, rlibs | [`symbols::read`] | `symbols.rs` |
//! | a module's IR symbols with `irsymtab`'s flags | [`ir::Module::symbols`] | `functions.rs` |
//! | module constants and global initializers, printed as `llvm-dis` prints them | [`ir::Module::constants`] | [`ir`] |
//! | a function's instructions with typed, resolved operands, decoded on demand | [`ir::Module::bodies`] → [`ir::Bodies::body`] | `calls.rs`, `opcodes.rs` |
//! | a function or a module as `llvm-dis` prints it | [`ir::Bodies::display_function`], [`ir::Bodies::display_module`] | `volatile_stores.rs` |
//! | debug info: where an instruction came from, a function's source name, files, variables | [`ir::Bodies::debug_info`] → [`ir::DebugInfo`], [`ir::Bodies::variable_locations`] | `debuginfo.rs` |
//! | the bitcode in objects, archives and rlibs | [`container::ContainerFile::open`] → [`bitstreams`](container::ContainerFile::bitstreams) | `symbols.rs` |
//! | clang diagnostics with their notes and fix-its | [`diag::Diagnostics::parse`] | `diagnostics.rs` |
//! | optimization remarks | [`remarks::RemarksFile::parse`] → [`remarks`](remarks::RemarksFile::remarks) | `remarks.rs` |
//! | a damaged or cut file | [`ir::Module::parse_all_partial`], [`Reader::read_truncated_blocks`], [`ir::Module::parse_partial`], [`diag::Diagnostics::parse_partial`], [`remarks::RemarksFile::parse_partial`], [`legacy::Module::parse_partial`], [`container::bitstreams_partial`] | `cut_module.rs`, `damaged.rs` |
//! | JSON of events and records | the `serde` feature | `serde_json.rs` |
//! | decode a record kind of your own format, tolerantly | [`RecordLayout`] | [`layout`] |
//! | write a bitstream | `writer::BitstreamWriter` (feature `writer`) | |
//! | LLVM 1.x bytecode: types, globals, constants, functions and their instructions, printed in 1.x assembly | [`legacy::Module::parse`] → [`legacy::Module::body`], [`legacy::Module::display`] | `legacy.rs` |
//!
//! ```
//! use llvm_bitstream_reader::{Bitstream, Entry, EventRef, ids::llvm_ir};
//!
//! # fn main() -> Result<(), llvm_bitstream_reader::Error> {
//! let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/llvm14_ir_instructions.bc")).unwrap();
//! let mut reader = Bitstream::parse(&bytes)?.reader();
//! let (mut bodies, mut records) = (Vec::new(), 0);
//! // The fastest walk: `advance` says what comes next; the caller decides what to decode.
//! while let Some(entry) = reader.advance()? {
//!     match entry {
//!         // Function bodies are skipped in O(1) and kept for later.
//!         Entry::EnterBlock(b) if b.block_id == llvm_ir::FUNCTION_BLOCK_ID => bodies.push(reader.skip_block()?),
//!         Entry::Record { .. } => {
//!             let record = reader.read_record()?; // every operand, in a buffer the reader reuses
//!             records += 1;
//!             let _first = record.operand(0); // None if the record has no operands
//!         }
//!         _ => {}
//!     }
//! }
//! // Come back to a body later, in any order, from any thread.
//! let mut body = bodies[0].reader()?;
//! while let Some(event) = body.next_ref()? {
//!     if let EventRef::Record(r) = event {
//!         let _ops: &[u64] = r.operand_slice();
//!     }
//! }
//! assert!(records > 0);
//! # Ok(()) }
//! ```
//!
//! Errors are one type, [`Error`], for the reader and every decoding layer: it says what
//! was wrong, where ([`Error::bit_offset`], [`Error::byte_offset`]), and names blocks and
//! records as `llvm-bcanalyzer` does. What a layer does not know (newer record codes,
//! operands, blocks) is kept as [`Unknown`], never an error.
//!
//! # Which API to use
//!
//! One state machine, three layers over it, like LLVM's `BitstreamCursor`. They share the
//! one record decoder and can be mixed on the same [`Reader`], call by call.
//!
//! | you want | use | a record costs |
//! |---|---|---|
//! | to choose per record what to decode: the code only, skip, or everything | [`Reader::advance`], then [`Reader::read_record`] / [`Reader::skip_record`] / [`Reader::skip_block`] | only what you ask for |
//! | every operand of many records, as fast as possible | [`Reader::next_ref`]: a [`RecordRef`] lent from a buffer the reader reuses | one decode into the buffer |
//! | owned events: `for event in reader`, iterator adapters, events kept past the next one | the `Iterator` of [`Event`]s: an owned 128-byte [`Record`] | a decode of 4 operands, the rest skipped and decoded again when asked for |
//! | the records of one block, its sub-blocks skipped | [`Reader::advance_skipping_subblocks`] | as `advance` |
//!
//! The `Iterator` is the convenient one; `next_ref` walks every operand about twice as fast
//! (see `docs/PERFORMANCE.md`), and `advance` skips what nobody asks for.
//! A record's shared view (code, block id, blob, array, position) is [`RecordInfo`], to
//! which both [`Record`] and [`RecordRef`] deref, and `operands()` is an iterator on both.
//! Every walk reports an error once, with its bit offset, then ends.
//!
//! ```
//! use llvm_bitstream_reader::{Bitstream, Event, ids::llvm_ir};
//!
//! # fn main() -> Result<(), llvm_bitstream_reader::Error> {
//! # let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/llvm14_ir_instructions.bc")).unwrap();
//! // The std `Iterator`: owned events, for adapters and for keeping events around.
//! let module_records: Vec<_> = Bitstream::parse(&bytes)?
//!     .reader()
//!     .filter_map(|event| match event {
//!         Ok(Event::Record(r)) if r.block_id() == llvm_ir::MODULE_BLOCK_ID => Some(Ok(r)),
//!         Ok(_) => None,
//!         Err(e) => Some(Err(e)),
//!     })
//!     .collect::<Result<_, _>>()?;
//! assert!(module_records.iter().any(|r| r.code() == llvm_ir::MODULE_CODE_TRIPLE));
//! # Ok(()) }
//! ```
//!
//! ```
//! use llvm_bitstream_reader::{Bitstream, Entry, ids::llvm_ir};
//!
//! # fn main() -> Result<(), llvm_bitstream_reader::Error> {
//! # let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/llvm14_ir_instructions.bc")).unwrap();
//! // Count calls per function body, reading nothing but record codes.
//! let mut reader = Bitstream::parse(&bytes)?.reader();
//! let mut calls = Vec::new();
//! while let Some(entry) = reader.advance()? {
//!     match entry {
//!         Entry::EnterBlock(b) if b.block_id == llvm_ir::FUNCTION_BLOCK_ID => calls.push(0),
//!         Entry::Record { .. } if reader.block_id() == Some(llvm_ir::FUNCTION_BLOCK_ID) => {
//!             if reader.skip_record()? == llvm_ir::FUNC_CODE_INST_CALL {
//!                 *calls.last_mut().unwrap() += 1;
//!             }
//!         }
//!         _ => {} // other records are skipped by the next `advance`
//!     }
//! }
//! assert!(calls.iter().sum::<u32>() > 0);
//! # Ok(()) }
//! ```
//!
//! # Design
//!
//! - [`cursor`]: a bit cursor that reads machine words, not bits.
//! - [`abbrev`]: DEFINE_ABBREV, checked as LLVM checks it, compiled to a decoding plan.
//! - [`blockinfo`]: the BLOCKINFO table, kept beside the cursor and shared by `Arc`.
//! - The record decoder: one, generic over where operands go (a buffer, nowhere, an owned
//!   record's inline slots); blobs borrow the input.
//! - [`Reader`]: the block/record state machine, with O(1) [`Reader::skip_block`] and
//!   [`Bookmark`]s to read skipped blocks later ([`Reader::reopen`] reuses one reader for
//!   many of them). Events say which block ended ([`Event::EndBlock`]) and records which
//!   block they are in; [`Reader::report_abbrev_definitions`] also reports DEFINE_ABBREVs.
//! - [`limits`]: every limit the reader enforces.
//! - [`ids`]: every block id and record code, with the names `llvm-bcanalyzer` prints,
//!   generated from LLVM's sources; [`names`] resolves names as `llvm-bcanalyzer` does.
//!
//! With the `serde` feature, events, records (`{code, abbrev_id, block_id, bit, end_bit,
//! operands, blob}`, the same from [`Record`] and [`RecordRef`]), bookmarks and entries
//! implement `serde::Serialize`.
//!
//! # Features
//!
//! The core (the [`Reader`], [`ids`], [`names`], [`layout`]) is always there. Each layer
//! above it is a feature, all on by default:
//!
//! | feature | default | what it adds |
//! |---|---|---|
//! | `std` | yes | [`BitstreamFile`] (memory-mapped files) and `std::error::Error` |
//! | `ir` | yes | the `ir` module: LLVM IR modules, types, attributes, globals, symbols |
//! | `diag` | yes | the `diag` module: clang serialized diagnostics (`.dia`) |
//! | `remarks` | yes | the `remarks` module: optimization remarks in the bitstream format |
//! | `legacy` | yes | the `legacy` module: LLVM 1.x bytecode (before the bitstream) |
//! | `container` | yes | the `container` module: bitcode in object files and archives (needs `std`, uses the `object` crate) |
//! | `symbols` | yes | the `symbols` module: a file's symbols as `llvm-nm` lists them, native and bitcode (needs `ir` and `container`) |
//! | `object` | no | deprecated alias of `container` (its name before 0.2) |
//! | `legacy-compression` | no | `legacy::Bytecode::decompress` for gzip/bzip2-compressed bytecode (needs `std`) |
//! | `serde` | no | `serde::Serialize` for events, records and the layers' decoded types |
//! | `writer` | no | the `writer` module: a bitstream writer |
//!
//! With `default-features = false` the crate is `no_std` + `alloc`; every feature but
//! `std`, `container`, `symbols` and `legacy-compression` keeps it so.
#![no_std]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![forbid(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs)]

extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

pub mod abbrev;
pub mod blockinfo;
#[cfg(feature = "container")]
pub mod container;
pub mod cursor;
#[cfg(feature = "diag")]
pub mod diag;
mod error;
#[cfg(feature = "std")]
mod file;
mod header;
pub mod ids;
#[cfg(feature = "ir")]
pub mod ir;
pub mod layout;
#[cfg(feature = "legacy")]
pub mod legacy;
pub mod limits;
pub mod names;
mod reader;
mod record;
#[cfg(feature = "remarks")]
pub mod remarks;
#[cfg(feature = "serde")]
mod serialize;
#[cfg(feature = "symbols")]
pub mod symbols;
mod text;
#[cfg(feature = "writer")]
pub mod writer;

pub use abbrev::{Abbrev, AbbrevOp, ElementEncoding};
pub use blockinfo::{BlockInfo, BlockInfoEntry};
pub use error::{Error, Result};
#[cfg(feature = "std")]
pub use file::BitstreamFile;
pub use header::{Magic, WRAPPER_MAGIC, WrapperHeader};
pub use ids::BlockId;
pub use layout::{ArrayElement, Field, Fields, RecordLayout, Unknown};
pub use reader::{AbbrevDefinition, Bitstream, Block, Bookmark, Entry, Event, EventRef, LazyBlock, Reader};
pub use record::{Array, ArrayIter, Operands, Record, RecordInfo, RecordRef, UNABBREV_RECORD, decode_sign_rotated};
pub use text::Text;

/// The README's example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
