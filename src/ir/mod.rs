//! The LLVM IR layer: what the records of an IR bitcode module mean, read without LLVM.
//!
//! ```
//! use llvm_bitstream_reader::ir::Module;
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/rustc_llvm22_o3.bc"))?;
//! let module = Module::parse(&bytes)?;
//! assert!(module.triple.as_deref().is_some_and(|t| t.contains("linux")));
//! // Function bodies are not decoded: each definition keeps its FUNCTION_BLOCK, skipped.
//! for f in module.definitions() {
//!     println!("{} {} {} bits", f.common.linkage, f.common.name_str(), f.body_bits().unwrap_or(0));
//! }
//! // Symbols as LLVM's irsymtab derives them.
//! let symbols = module.symbols();
//! assert!(symbols.iter().any(|s| s.flags.executable() && !s.flags.undefined()));
//! # Ok(()) }
//! ```
//!
//! - [`Module`]: one module's records (identification, triple, datalayout, …), its
//!   [`TypeTable`], attribute groups, globals, functions, aliases and ifuncs, each
//!   function definition paired with its body as a [`LazyBlock`](crate::LazyBlock);
//!   [`Module::parse_all`] reads every module of a stream, [`Module::parse_partial`] what
//!   a damaged one holds before the break, [`Inventory`] lists them without reading them.
//!   Global values are flat tables whose
//!   names borrow the STRTAB; the attribute groups and lists are [`LazyTable`]s, read on
//!   first use.
//! - [`Module::constants`]: the module-level constants, decoded into a flat table and
//!   printed as `llvm-dis` prints them (global initializers, aliasees).
//! - [`Module::bodies`] → [`Bodies::body`]: a function's body decoded on demand from its
//!   skipped block, on any thread, as the newest LLVM reads it ([`Bodies::body_as_written`]:
//!   as the file has it): [`Instruction`]s whose [`Operand`]s are typed, resolved
//!   [`Value`]s, the function's constants, names, operand bundles, debug locations and
//!   records; [`Bodies::display_function`] and [`Bodies::display_module`] print them as
//!   `llvm-dis` 14, 19 or 22 does ([`DisOptions`]), a whole module on several threads
//!   with [`ModuleDisplay::with_threads`] (the same text).
//! - [`Module::symbols`]: the module's symbols, with [`SymbolFlags`] bit for bit as
//!   LLVM's `irsymtab` sets them; [`Module::asm_symbols`], those of its inline asm. For a
//!   file's symbols as `llvm-nm` lists them (bitcode, objects, archives), see
//!   [`crate::symbols`].
//!
//! # Damaged and cut files
//!
//! [`Module::parse_all_partial`] reads what a damaged or cut file holds before the break:
//! the records and blocks before it, every complete function body (decoded by
//! [`Bodies`] as in a whole file), and the error, which says where the read broke. Names
//! are in the STRTAB at the end of the file since LLVM 5, so a cut file's global values
//! are unnamed (printed `@0`, `@1` as LLVM prints unnamed values);
//! [`Bodies::recovered_name`] gives the name debug info has for each, kept apart.
//!
//! # What is read when
//!
//! [`Module::parse`] reads the module block's own records and its type table, and skips
//! every sub-block in O(1) (function bodies, constants, metadata, symbol tables).
//! [`Module::bodies`] decodes the module-level constants and the operand bundle tags and
//! sync scope names. [`Bodies::body_as_written`] decodes one FUNCTION_BLOCK; the module's
//! metadata is not read for it (only the number of its ids is counted, from the writer's
//! index, once per [`Bodies`]). [`Bodies::body`] then reads it as the newest LLVM does,
//! which works out the view once per [`Bodies`] (its attribute sets, folded constants,
//! upgraded declarations, and what the bodies take from the module's metadata). The module's metadata is read, whole and once per [`Bodies`], by
//! what asks for it: [`Bodies::debug_info`], [`Bodies::recovered_name`] and printing;
//! [`Module::metadata`] reads it for you, [`Module::lazy_metadata`] a node at a time.
//!
//! # JSON
//!
//! With the `serde` feature the decoded types implement `serde::Serialize`, with serde's
//! default shapes: a struct is an object of its public fields, an enum is externally
//! tagged (`{"Function": 3}`, a unit variant as its name: `"Default"`), `None` is `null`.
//! Names and other strings of the file are JSON strings (bytes that are not UTF-8
//! replaced), attribute kinds their LLVM names. What refers to the input without being
//! data is left out: a [`Module`]'s `block`, each [`Function`]'s `body` (serialize a
//! decoded [`Body`] for it) and a [`LazyTable`]'s blocks (its entries are written). A
//! module of `Module::parse` serializes as:
//!
//! ```text
//! {"index": 0, "producer": "LLVM22.1.2-rust-1.95.0-stable", "epoch": 0, "version": 2,
//!  "triple": "x86_64-unknown-linux-gnu", "datalayout": "e-m:e-…", "asm": [],
//!  "source_filename": "…", "hash": null, "section_names": [], "gc_names": [],
//!  "deplibs": [], "comdats": [], "vst_offset": …, "types": […], "attribute_groups": […],
//!  "attribute_lists": […], "globals": [{"common": {"name": "…", "linkage": "External",
//!  "partition": null, …}, "is_constant": true, …}], "functions": [{"common": {…},
//!  "calling_conv": 0, "is_declaration": false, …}], "aliases": [], "unknown_records": [],
//!  "function_blocks": 3, "values": [{"Var": 0}, {"Function": 0}, …]}
//! ```
//!
//! Version skew is not an error: unknown record codes, type codes, attribute kinds and
//! encodings, linkages and trailing operands are kept (`Unknown(n)`,
//! [`Module::unknown_records`] as [`crate::Unknown`]s, `extra_operands`). Only structural
//! breaks are errors ([`crate::Error`]), with their bit offsets.

// The house: decoding in a folder per sub-layer, printing on top of it (nothing under
// `module`, `body`, `metadata`, `symbols` or `summary` imports `print`), and the
// vocabulary both share in `vocabulary`. docs/REPOSITORY.md draws the tree.
mod body;
mod metadata;
mod module;
mod print;
mod summary;
mod symbols;
pub mod upgrade;
pub mod uses;
pub mod view;
mod vocabulary;

/// LLVM's irsymtab: the SYMTAB_BLOCK blob that LLVM 5 and later write beside the
/// module, read as LLVM's `irsymtab::Reader` reads it. Its types are prefixed
/// (`SymtabSymbol`, `SymtabComdat`) so that they never clash with [`ModuleSymbol`],
/// [`Comdat`] or [`crate::symbols::Symbol`] when imported together.
pub mod symtab {
    pub use super::symbols::irsymtab::*;

    /// The old name of [`SymtabComdat`].
    #[deprecated(since = "0.2.0", note = "renamed `SymtabComdat`: `Comdat` clashed with `ir::Comdat`")]
    pub type Comdat<'a> = SymtabComdat<'a>;
    /// The old name of [`SymtabSymbol`].
    #[deprecated(
        since = "0.2.0",
        note = "renamed `SymtabSymbol`: `Symbol` clashed with `symbols::Symbol` and read like `ir::ModuleSymbol`"
    )]
    pub type Symbol<'a> = SymtabSymbol<'a>;
}

pub use body::{
    Attachment, BasicBlock, Bodies, Body, Bundle, Call, CallInfo, DebugLoc, DebugRecord, InstKind, Instruction,
    LocalSlots, NO_TYPE, Operand, Ordering, TailKind, Value,
};
pub use metadata::debug_info::{
    Checksum, CompileUnit, DebugInfo, GlobalVariable, NameSource, RecoveredName, SourceFile, SourceLocation,
    Subprogram, Variable, VariableLocation, VariableLocationKind,
};
pub use metadata::strings::{MetadataStrings, MetadataStringsError};
pub use metadata::{LazyMetadata, Metadata, MetadataNode, is_debug_info_record};
pub use module::attributes::{AttrIndex, AttrKind, Attribute, AttributeGroup, AttributeList, ConstantRange};
pub use module::constants::{Constant, ConstantKind, InlineAsm, ModuleConstants, OperandRange, OperandValues};

/// The old name of [`OperandRange`].
#[deprecated(since = "0.2.0", note = "renamed `OperandRange`: `Operands` clashed with `crate::Operands`")]
pub type Operands = OperandRange;
pub use module::contents::{Identification, Inventory, ModuleInfo, ModuleNames};
pub use module::globals::{
    Alias, Comdat, ComdatSelection, DllStorage, Function, GlobalCommon, GlobalVar, Linkage, Name, ThreadLocal,
    UnnamedAddr, Visibility,
};
pub use module::lazy_table::LazyTable;
pub use module::types::{Type, TypeId, TypeTable};
pub use module::{GlobalRef, Module};
pub use print::attributes::AttributesDisplay;
pub use print::constants::ConstantDisplay;
pub use print::globals::GlobalVarDisplay;
pub use print::types::TypeDisplay;
pub use print::{DisOptions, FunctionDisplay, ModuleDisplay, PrintedInstruction, calling_conv_name};
pub use symbols::ModuleSymbol;
pub use symbols::asm::AsmSymbol;
pub use symbols::flags::SymbolFlags;
pub use view::ModuleView;
pub use vocabulary::opcodes::{binary_op_name, cast_op_name, predicate_name, rmw_op_name};
#[cfg(feature = "symbols")]
pub(crate) use vocabulary::triple::{Triple, is_darwin};
