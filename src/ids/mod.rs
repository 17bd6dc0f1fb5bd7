//! Block ids, record codes and their names, for every bitstream format this crate knows,
//! generated from LLVM's own sources.
//!
//! ```
//! use llvm_bitstream_reader::ids::llvm_ir;
//! use llvm_bitstream_reader::{Bitstream, Event};
//!
//! # fn main() -> Result<(), llvm_bitstream_reader::Error> {
//! let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/llvm14_ir_instructions.bc")).unwrap();
//! let mut reader = Bitstream::parse(&bytes)?.reader();
//! let (mut bodies, mut calls) = (0, 0);
//! while let Some(event) = reader.next() {
//!     match event? {
//!         // Block ids are one type, `BlockId`, for the reader and every kind's constants.
//!         Event::EnterBlock(block) if block.block_id() == llvm_ir::FUNCTION_BLOCK_ID => bodies += 1,
//!         // Record codes are `u32`s (their meaning depends on the block); typed codes compare with them.
//!         Event::Record(record) if record.code() == llvm_ir::FUNC_CODE_INST_CALL => calls += 1,
//!         _ => {}
//!     }
//! }
//! assert!(bodies > 0 && calls > 0);
//!
//! // Names as llvm-bcanalyzer prints them, and as LLVM's sources spell the enumerator.
//! assert_eq!(llvm_ir::block_name(llvm_ir::FUNCTION_BLOCK_ID), Some("FUNCTION_BLOCK"));
//! assert_eq!(llvm_ir::FUNC_CODE_DEBUG_LOC.name(), Some("DEBUG_LOC"));
//! assert_eq!(llvm_ir::FunctionCode(35).llvm_name(), Some("FUNC_CODE_DEBUG_LOC"));
//! assert_eq!(llvm_ir::FunctionCode(9999).to_string(), "9999");
//!
//! // In `match` arms over a `u32`, use the `raw` constants, or wrap the `u32` first.
//! let describe = |id: u32| match id {
//!     llvm_ir::raw::FUNCTION_BLOCK_ID => "a function body",
//!     llvm_ir::raw::CONSTANTS_BLOCK_ID => "constants",
//!     _ => "something else",
//! };
//! assert_eq!(describe(12), "a function body");
//! assert!(matches!(llvm_ir::BlockId(11), llvm_ir::CONSTANTS_BLOCK_ID));
//! assert_eq!(format!("{:<10}|", llvm_ir::FUNC_CODE_INST_CALL), "INST_CALL |");
//! # Ok(()) }
//! ```
//!
//! # Layout
//!
//! One module per stream kind: [`bitstream`] (the container's own ids: BLOCKINFO, the fixed
//! abbreviation ids, field widths), [`llvm_ir`] (LLVM IR bitcode), [`clang_diag`] (clang
//! serialized diagnostics), [`llvm_remarks`] (LLVM bitstream remarks), [`clang_ast`] (clang
//! AST files: block ids and the stable record enums) and [`swift`] (Swift module block
//! ids, kept by hand). They are named for the stream kind, not `ir` or `diag`, so that
//! none shares its name with the decoding layer (`crate::ir`, `crate::diag`) a user
//! imports beside it.
//!
//! Block ids of every kind are one type, [`BlockId`], with a kind's names from its
//! `block_name` ([`llvm_ir::block_name`]). Each C enum of record codes becomes a newtype over
//! `u32` (like gimli's `DwTag`), e.g. [`llvm_ir::FunctionCode`], [`clang_diag::RecordId`], with:
//!
//! - one constant per enumerator, named exactly as in LLVM (`llvm_ir::FUNCTION_BLOCK_ID`,
//!   `llvm_ir::FUNC_CODE_INST_CALL`, `bitstream::BLOCKINFO_BLOCK_ID`), so a name found in LLVM's
//!   sources is found here;
//! - `name()`: the spelling `llvm-bcanalyzer -dump` prints (`FUNCTION_BLOCK`, `INST_CALL`,
//!   `DiagInfo`), `llvm_name()`: the enumerator (`FUNC_CODE_INST_CALL`), both `const fn`;
//! - `Display`: `name()`, else `llvm_name()`, else the number, padded as `{:<12}` asks; `Debug`: `FunctionCode(FUNC_CODE_INST_CALL)`
//!   style with the enumerator, or the number;
//! - `==` with `u32` both ways, and `From` conversions.
//!
//! # Which form to use
//!
//! - Comparing with what the reader returns: the typed constant, `block.block_id() == llvm_ir::FUNCTION_BLOCK_ID`,
//!   `reader.block_id() == Some(llvm_ir::FUNCTION_BLOCK_ID)`, `record.code() == llvm_ir::FUNC_CODE_INST_CALL`.
//! - `match` over a record code (`u32`): the parallel `raw` constants (`llvm_ir::raw::FUNCTION_BLOCK_ID: u32`), since
//!   a pattern cannot be `CONST.0`; or wrap the value, `match llvm_ir::BlockId(id) { llvm_ir::FUNCTION_BLOCK_ID => … }`.
//! - Printing: the typed value (`llvm_ir::FunctionCode(code)`), or [`crate::names`] with a stream's
//!   BLOCKINFO, which resolves names exactly as `llvm-bcanalyzer` does (a record code's meaning
//!   depends on its block, which only the caller knows).
//!
//! # Where the values come from
//!
//! `generated.rs` is written by `tools/gen-ids/gen.py` from LLVM's `LLVMBitCodes.h`,
//! `BitCodeEnums.h`, `BitcodeAnalyzer.cpp`, clang's `SerializedDiagnostics.h` and
//! `SerializedDiagnosticPrinter.cpp`, LLVM's `BitstreamRemarkContainer.h` and
//! `BitstreamRemarkSerializer.cpp` and clang's `ASTBitCodes.h` (see `tools/gen-ids/README.md`
//! for the versions), plus a few hand-kept facts in `tools/gen-ids/overlay.tsv` (names of older
//! LLVM releases, Swift). Codes that LLVM renumbered keep LLVM's newest value; the test
//! `tests/ids_drift.rs` lists every difference from the installed LLVM 14.

// Written by tools/gen-ids/gen.py, byte for byte; rustfmt would reflow it.
#[rustfmt::skip]
mod generated;

pub use generated::{bitstream, clang_ast, clang_diag, llvm_ir, llvm_remarks, swift};

/// One enumerator of the sources: which enum, its name, its value. Every kind module lists
/// its own in `ENUMERATORS` (e.g. [`llvm_ir::ENUMERATORS`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Enumerator {
    /// The C enum, e.g. `FunctionCodes`.
    pub enumeration: &'static str,
    /// The enumerator, e.g. `FUNC_CODE_INST_CALL`.
    pub name: &'static str,
    /// Its value.
    pub value: u32,
}

/// A block id, of any stream kind: what [`Reader::block_id`](crate::Reader::block_id),
/// [`Block::block_id`](crate::Block::block_id), [`Bookmark::block_id`](crate::Bookmark)
/// and [`RecordInfo::block_id`](crate::RecordInfo::block_id) return, and the type of every
/// kind's block constants ([`llvm_ir::FUNCTION_BLOCK_ID`], [`clang_diag::BLOCK_DIAG`], …), so they
/// compare with `==` and in `match` patterns.
///
/// An id alone does not say which kind of stream it is from (diagnostics' block 8 is not
/// IR's), so `Display` prints the number; names come from the block
/// ([`Block::name`](crate::Block::name)), from a kind ([`llvm_ir::block_name`]), or from
/// [`crate::names::block_name`] with the stream's magic.
///
/// ```
/// use llvm_bitstream_reader::{BlockId, ids::llvm_ir};
/// assert_eq!(llvm_ir::FUNCTION_BLOCK_ID, BlockId(12));
/// assert_eq!(llvm_ir::block_name(BlockId(12)), Some("FUNCTION_BLOCK"));
/// assert_eq!(format!("[{:>4}]", llvm_ir::FUNCTION_BLOCK_ID), "[  12]");
/// assert!(matches!(BlockId(12), llvm_ir::FUNCTION_BLOCK_ID));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(transparent))]
pub struct BlockId(pub u32);

impl From<u32> for BlockId {
    fn from(value: u32) -> Self {
        BlockId(value)
    }
}

impl From<BlockId> for u32 {
    fn from(id: BlockId) -> u32 {
        id.0
    }
}

impl PartialEq<u32> for BlockId {
    fn eq(&self, other: &u32) -> bool {
        self.0 == *other
    }
}

impl PartialEq<BlockId> for u32 {
    fn eq(&self, other: &BlockId) -> bool {
        *self == other.0
    }
}

impl core::fmt::Display for BlockId {
    /// The number; honours width, fill and alignment.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        core::fmt::Display::fmt(&self.0, f)
    }
}

impl core::fmt::Debug for BlockId {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "BlockId({})", self.0)
    }
}

/// Whether a FUNCTION_BLOCK record code is debug info: a debug location
/// (`FUNC_CODE_DEBUG_LOC`, `FUNC_CODE_DEBUG_LOC_AGAIN`) or a debug record
/// (`FUNC_CODE_DEBUG_RECORD_*`, LLVM 19 and later); `llvm-bcanalyzer` names each of them
/// `DEBUG_*`. The METADATA_BLOCK side is `ir::is_debug_info_record`. `bitstream-dump`
/// asks this for `--summary` (beside the metadata side) and for its flame graph (beside
/// whole METADATA blocks).
///
/// ```
/// use llvm_bitstream_reader::ids::{is_debug_info_body_record, llvm_ir::raw};
/// assert!(is_debug_info_body_record(raw::FUNC_CODE_DEBUG_LOC));
/// assert!(is_debug_info_body_record(raw::FUNC_CODE_DEBUG_RECORD_VALUE));
/// assert!(!is_debug_info_body_record(raw::FUNC_CODE_INST_CALL));
/// ```
pub fn is_debug_info_body_record(code: u32) -> bool {
    use llvm_ir::raw as ids;
    matches!(
        code,
        ids::FUNC_CODE_DEBUG_LOC | ids::FUNC_CODE_DEBUG_LOC_AGAIN | ids::FUNC_CODE_DEBUG_RECORD_VALUE
            ..=ids::FUNC_CODE_DEBUG_RECORD_DECLARE_VALUE
    )
}

/// The trait impls every id newtype has; `name` and `llvm_name` are generated beside it.
macro_rules! id_impls {
    ($ty:ident) => {
        impl From<u32> for $ty {
            fn from(value: u32) -> Self {
                $ty(value)
            }
        }

        impl From<$ty> for u32 {
            fn from(id: $ty) -> u32 {
                id.0
            }
        }

        impl PartialEq<u32> for $ty {
            fn eq(&self, other: &u32) -> bool {
                self.0 == *other
            }
        }

        impl PartialEq<$ty> for u32 {
            fn eq(&self, other: &$ty) -> bool {
                *self == other.0
            }
        }

        impl core::fmt::Display for $ty {
            /// Honours width, fill and alignment (`{:<12}`), like `str`'s `Display`.
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                match self.name() {
                    Some(name) => f.pad(name),
                    None => match self.llvm_name() {
                        Some(name) => f.pad(name),
                        None => core::fmt::Display::fmt(&self.0, f),
                    },
                }
            }
        }

        impl core::fmt::Debug for $ty {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                match self.llvm_name() {
                    Some(name) => write!(f, "{}({})", stringify!($ty), name),
                    None => write!(f, "{}({})", stringify!($ty), self.0),
                }
            }
        }
    };
}
pub(crate) use id_impls;

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::format;
    use alloc::string::ToString;

    #[test]
    fn typed_constants_compare_with_u32_both_ways() {
        assert!(12u32 == llvm_ir::FUNCTION_BLOCK_ID);
        assert!(llvm_ir::FUNCTION_BLOCK_ID == 12u32);
        assert!(13u32 != llvm_ir::FUNCTION_BLOCK_ID);
        assert_eq!(u32::from(llvm_ir::FUNC_CODE_INST_CALL), 34);
        assert_eq!(llvm_ir::FunctionCode::from(34), llvm_ir::FUNC_CODE_INST_CALL);
        assert_eq!(llvm_ir::FUNCTION_BLOCK_ID.0, llvm_ir::raw::FUNCTION_BLOCK_ID);
    }

    #[test]
    fn display_prefers_the_analyzer_spelling_then_the_enumerator_then_the_number() {
        assert_eq!(llvm_ir::FUNC_CODE_INST_CALL.to_string(), "INST_CALL");
        // llvm-bcanalyzer leaves FREEZE unnamed; LLVM's enumerator is the next best.
        assert_eq!(llvm_ir::FUNC_CODE_INST_FREEZE.name(), None);
        assert_eq!(llvm_ir::FUNC_CODE_INST_FREEZE.to_string(), "FUNC_CODE_INST_FREEZE");
        assert_eq!(llvm_ir::FunctionCode(14).to_string(), "14");
        assert_eq!(format!("{:?}", llvm_ir::FUNC_CODE_INST_CALL), "FunctionCode(FUNC_CODE_INST_CALL)");
        assert_eq!(format!("{:?}", llvm_ir::FunctionCode(14)), "FunctionCode(14)");
        assert_eq!(clang_diag::RECORD_DIAG.to_string(), "DiagInfo");
        assert_eq!(llvm_remarks::RECORD_REMARK_HOTNESS.to_string(), "Remark hotness");
        assert_eq!(bitstream::BLOCKINFO_CODE_SETBID.to_string(), "SETBID");
        assert_eq!(bitstream::DEFINE_ABBREV.to_string(), "DEFINE_ABBREV");
    }

    #[test]
    fn every_kind_names_blockinfo_like_llvm_bcanalyzer() {
        assert_eq!(llvm_ir::block_name(llvm_ir::BlockId(0)), Some("BLOCKINFO_BLOCK"));
        assert_eq!(clang_diag::block_name(clang_diag::BlockId(0)), Some("BLOCKINFO_BLOCK"));
        assert_eq!(llvm_remarks::block_name(llvm_remarks::BlockId(0)), Some("BLOCKINFO_BLOCK"));
        assert_eq!(clang_ast::block_name(clang_ast::BlockId(0)), Some("BLOCKINFO_BLOCK"));
        assert_eq!(swift::block_name(swift::BlockId(0)), Some("BLOCKINFO_BLOCK"));
        assert_eq!(bitstream::block_name(bitstream::BLOCKINFO_BLOCK_ID), Some("BLOCKINFO_BLOCK"));
        // FIRST_APPLICATION_BLOCKID marks a boundary: it names no block.
        assert_eq!(bitstream::block_llvm_name(bitstream::FIRST_APPLICATION_BLOCKID), None);
        assert_eq!(llvm_ir::block_name(llvm_ir::BlockId(1)), None);
    }

    #[test]
    fn aliases_and_markers_are_constants_but_not_names() {
        assert_eq!(clang_diag::RECORD_FIRST, clang_diag::RECORD_VERSION);
        assert_eq!(clang_diag::RecordId(1).llvm_name(), Some("RECORD_VERSION"));
        assert_eq!(llvm_remarks::RECORD_LAST, llvm_remarks::RECORD_REMARK_ARG_WITHOUT_DEBUGLOC);
        assert_eq!(clang_ast::FIRST_EXTENSION_RECORD_ID.0, 4);
        assert_eq!(clang_ast::ExtensionBlockRecord(4).llvm_name(), None);
    }

    #[test]
    fn renamed_codes_keep_the_newest_value_and_both_names() {
        // LLVM 19 moved CST_CODE_CE_GEP from 12 to 32; llvm-bcanalyzer calls both CE_GEP.
        assert_eq!(llvm_ir::CST_CODE_CE_GEP.0, 32);
        assert_eq!(llvm_ir::CST_CODE_CE_GEP_OLD.0, 12);
        assert_eq!(llvm_ir::CST_CODE_CE_GEP.name(), Some("CE_GEP"));
        assert_eq!(llvm_ir::CST_CODE_CE_GEP_OLD.name(), Some("CE_GEP"));
    }

    #[test]
    fn enumerator_tables_match_the_constants() {
        for table in [
            bitstream::ENUMERATORS,
            llvm_ir::ENUMERATORS,
            clang_diag::ENUMERATORS,
            llvm_remarks::ENUMERATORS,
            clang_ast::ENUMERATORS,
            swift::ENUMERATORS,
        ] {
            assert!(!table.is_empty());
            for (i, e) in table.iter().enumerate() {
                assert!(!e.name.is_empty() && !e.enumeration.is_empty());
                // Enumerator names are unique within a kind, as in C.
                assert!(table[..i].iter().all(|o| o.name != e.name), "{} twice", e.name);
            }
        }
        let find = |name: &str| llvm_ir::ENUMERATORS.iter().find(|e| e.name == name).map(|e| e.value);
        assert_eq!(find("FUNC_CODE_INST_CALL"), Some(34));
        assert_eq!(find("ATTR_KIND_NO_UNWIND"), Some(18));
        assert_eq!(find("SYNC_SCOPE_NAMES_BLOCK_ID"), Some(26));
    }

    #[test]
    fn standard_widths_are_llvms() {
        assert_eq!(bitstream::raw::BlockIDWidth, 8);
        assert_eq!(bitstream::raw::CodeLenWidth, 4);
        assert_eq!(bitstream::raw::BlockSizeWidth, 32);
        assert_eq!(bitstream::raw::BWH_HeaderSize, 20);
        assert_eq!(bitstream::UNABBREV_RECORD.0, 3);
    }
}
