//! Names of blocks and records for the known bitstream kinds, as `llvm-bcanalyzer -dump`
//! prints them.
//!
//! ```
//! use llvm_bitstream_reader::names::{block_name, record_name};
//! use llvm_bitstream_reader::{Magic, ids::llvm_ir};
//!
//! assert_eq!(block_name(Magic::LlvmIr, llvm_ir::raw::FUNCTION_BLOCK_ID), Some("FUNCTION_BLOCK"));
//! assert_eq!(record_name(Magic::LlvmIr, 12, 35), Some("DEBUG_LOC"));
//! // The same block id means something else in a clang AST file.
//! assert_eq!(block_name(Magic::ClangAst, 12), Some("PREPROCESSOR_DETAIL_BLOCK"));
//! assert_eq!(block_name(Magic::Unknown(*b"WXYZ"), 12), None);
//! ```
//!
//! The tables are the generated ones of [`crate::ids`]:
//!
//! * LLVM IR names follow `GetBlockName` / `GetCodeName` in LLVM's
//!   `llvm/lib/Bitcode/Reader/BitcodeAnalyzer.cpp`, with codes from `LLVMBitCodes.h`.
//!   Where LLVM 14 and the newest LLVM name a code differently, both are kept as long as
//!   they do not conflict (see [`record_name`]).
//! * Clang serialized diagnostics, LLVM remarks, Clang AST/PCH files and Swift modules carry
//!   their own names in their `BLOCKINFO_BLOCK`; `llvm-bcanalyzer` prints those. The tables
//!   here repeat what the writers put in there (clang's `SerializedDiagnosticPrinter.cpp`,
//!   LLVM's `BitstreamRemarkSerializer.cpp`, clang's `ASTWriter::WriteBlockInfoBlock`,
//!   Swift's `Serializer::writeBlockInfoBlock`). Names read from a stream's own
//!   `BLOCKINFO_BLOCK` take precedence over these: see [`resolve_block_name`] and
//!   [`resolve_record_name`].
//!
//! Everything here is `&'static str` or borrowed from the BLOCKINFO table; nothing allocates.

use crate::blockinfo::BlockInfo;
use crate::error::Error;
use crate::header::Magic;
use crate::ids::BlockId;
use crate::ids::{bitstream, clang_ast, clang_diag, llvm_ir, llvm_remarks, swift};

/// Block ids below this one are reserved for the container; only BLOCKINFO (0) has a name.
const FIRST_APPLICATION_BLOCKID: u32 = bitstream::raw::FIRST_APPLICATION_BLOCKID;

/// Name of a block id in a stream of this kind, as llvm-bcanalyzer prints it
/// (e.g. `"MODULE_BLOCK"`, `"BLOCKINFO_BLOCK"`); `None` if unknown.
///
/// Block id 0 is `"BLOCKINFO_BLOCK"` for every kind, including [`Magic::Unknown`]. Other
/// reserved ids (1..=7) have no name. `SYNC_SCOPE_NAMES_BLOCK_ID` (26) has no name because
/// llvm-bcanalyzer does not name it (it prints `UnknownBlock26`).
#[must_use]
pub fn block_name(magic: Magic, block_id: impl Into<BlockId>) -> Option<&'static str> {
    let block_id = block_id.into();
    if block_id.0 < FIRST_APPLICATION_BLOCKID {
        return bitstream::block_name(block_id);
    }
    match magic {
        Magic::LlvmIr => llvm_ir::block_name(block_id),
        Magic::ClangSerializedDiagnostics => clang_diag::block_name(block_id),
        Magic::ClangAst => clang_ast::block_name(block_id),
        Magic::LlvmRemarks => llvm_remarks::block_name(block_id),
        Magic::SwiftModule => swift::block_name(block_id),
        Magic::Unknown(_) => None,
    }
}

/// Name of record `code` inside block `block_id`, as llvm-bcanalyzer prints
/// it (e.g. `"VERSION"`, `"TRIPLE"`, `"INST_CALL"`...); `None` if unknown.
///
/// In block 0 (`BLOCKINFO_BLOCK`) the records `SETBID` (1), `BLOCKNAME` (2)
/// and `SETRECORDNAME` (3) are named for every kind.
///
/// For LLVM IR the table is the union of LLVM 14 and the newest
/// `BitcodeAnalyzer.cpp`: constants code 12 is `"CE_GEP"` as in LLVM 14 to 18
/// (newer LLVM calls it `CST_CODE_CE_GEP_OLD` and prints `UnknownCode12`),
/// and code 32 is `"CE_GEP"` as in LLVM 19 and later.
#[must_use]
pub fn record_name(magic: Magic, block_id: impl Into<BlockId>, code: u32) -> Option<&'static str> {
    let block_id = block_id.into().0;
    if block_id < FIRST_APPLICATION_BLOCKID {
        return if block_id == bitstream::raw::BLOCKINFO_BLOCK_ID {
            bitstream::BlockInfoCode(code).name()
        } else {
            None
        };
    }
    match magic {
        Magic::LlvmIr => llvm_ir::record_name(block_id, code),
        Magic::ClangSerializedDiagnostics => clang_diag::record_name(block_id, code),
        Magic::ClangAst => clang_ast::record_name(block_id, code),
        Magic::LlvmRemarks => llvm_remarks::record_name(block_id, code),
        Magic::SwiftModule | Magic::Unknown(_) => None,
    }
}

/// The name `llvm-bcanalyzer` gives block `block_id`, resolved as LLVM resolves it: the
/// reserved ids (below 8) have only their standard names, then the stream's own BLOCKINFO
/// `BLOCKNAME` (if not empty) wins, then the static table of the stream's kind.
///
/// ```
/// use llvm_bitstream_reader::{BlockId, BlockInfo, Magic};
/// use llvm_bitstream_reader::names::resolve_block_name;
/// let none = BlockInfo::new();
/// assert_eq!(resolve_block_name(&none, Magic::LlvmIr, BlockId(12)), Some("FUNCTION_BLOCK"));
/// assert_eq!(resolve_block_name(&none, Magic::LlvmIr, BlockId(0)), Some("BLOCKINFO_BLOCK"));
/// ```
#[must_use]
pub fn resolve_block_name(blockinfo: &BlockInfo, magic: Magic, block_id: impl Into<BlockId>) -> Option<&str> {
    let block_id = block_id.into();
    if block_id.0 >= FIRST_APPLICATION_BLOCKID {
        if let Some(name) = blockinfo.block_name(block_id).filter(|n| !n.is_empty()) {
            return Some(name);
        }
    }
    block_name(magic, block_id)
}

/// The name `llvm-bcanalyzer` gives record `code` of block `block_id`, resolved as LLVM
/// resolves it: reserved blocks (below 8) have only the standard BLOCKINFO record names,
/// then the first `SETRECORDNAME` the stream's BLOCKINFO gives the code wins, then the
/// static table of the stream's kind.
#[must_use]
pub fn resolve_record_name(
    blockinfo: &BlockInfo,
    magic: Magic,
    block_id: impl Into<BlockId>,
    code: u32,
) -> Option<&str> {
    let block_id = block_id.into();
    if block_id.0 >= FIRST_APPLICATION_BLOCKID {
        if let Some(name) = blockinfo.record_name(block_id, code) {
            return Some(name);
        }
    }
    record_name(magic, block_id, code)
}

// The error names the blocks it is about from these tables: the naming depends on the
// error, never the error on the naming.
impl Error {
    /// Fills in the names of the blocks the error names, from the tables of the stream
    /// kind `magic` (the reader does this before it returns an error).
    #[must_use]
    pub fn with_block_names(mut self, magic: Magic) -> Self {
        match &mut self {
            Error::InvalidAbbrevWidth { block_id, block_name: name, .. }
            | Error::BlockTooLong { block_id, block_name: name, .. }
            | Error::BlockLengthMismatch { block_id, block_name: name, .. }
            | Error::UndefinedAbbrev { block_id, block_name: name, .. }
            | Error::RecordTooShort { block_id, block_name: name, .. }
                if name.is_none() =>
            {
                *name = block_name(magic, *block_id);
            }
            _ => {}
        }
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALL_KINDS: [Magic; 6] = [
        Magic::LlvmIr,
        Magic::ClangSerializedDiagnostics,
        Magic::ClangAst,
        Magic::LlvmRemarks,
        Magic::SwiftModule,
        Magic::Unknown(*b"WXYZ"),
    ];

    #[test]
    fn blockinfo_for_every_kind() {
        for kind in ALL_KINDS {
            assert_eq!(block_name(kind, 0), Some("BLOCKINFO_BLOCK"));
            assert_eq!(record_name(kind, 0, 1), Some("SETBID"));
            assert_eq!(record_name(kind, 0, 2), Some("BLOCKNAME"));
            assert_eq!(record_name(kind, 0, 3), Some("SETRECORDNAME"));
            assert_eq!(record_name(kind, 0, 0), None);
            assert_eq!(record_name(kind, 0, 4), None);
            for id in 1..8 {
                assert_eq!(block_name(kind, id), None);
                assert_eq!(record_name(kind, id, 1), None);
            }
        }
        assert_eq!(block_name(Magic::Unknown(*b"WXYZ"), 8), None);
        assert_eq!(record_name(Magic::Unknown(*b"WXYZ"), 8, 1), None);
    }

    /// Every (block id, name) pair printed by LLVM 14.0.6
    /// `llvm-bcanalyzer -dump --non-symbolic` for modules built with
    /// `llvm-as` / `opt -module-summary` (debug info, operand bundles,
    /// atomics, blockaddress, aliases, summaries).
    #[test]
    fn llvm14_ir_block_names() {
        let expected = [
            (8, "MODULE_BLOCK"),
            (9, "PARAMATTR_BLOCK"),
            (10, "PARAMATTR_GROUP_BLOCK_ID"),
            (11, "CONSTANTS_BLOCK"),
            (12, "FUNCTION_BLOCK"),
            (13, "IDENTIFICATION_BLOCK_ID"),
            (14, "VALUE_SYMTAB"),
            (15, "METADATA_BLOCK"),
            (16, "METADATA_ATTACHMENT_BLOCK"),
            (17, "TYPE_BLOCK_ID"),
            (20, "GLOBALVAL_SUMMARY_BLOCK"),
            (21, "OPERAND_BUNDLE_TAGS_BLOCK"),
            (22, "METADATA_KIND_BLOCK"),
            (23, "STRTAB_BLOCK"),
            (25, "SYMTAB_BLOCK"),
        ];
        for (id, name) in expected {
            assert_eq!(block_name(Magic::LlvmIr, id), Some(name), "block {id}");
        }
        // LLVM 14 printed `UnknownBlock26` for SYNC_SCOPE_NAMES_BLOCK_ID and
        // `UnknownCode1` for its record.
        assert_eq!(block_name(Magic::LlvmIr, 26), None);
        assert_eq!(record_name(Magic::LlvmIr, 26, 1), None);
        assert_eq!(block_name(Magic::LlvmIr, 27), None);
    }

    /// Every (block id, code, name) triple printed by LLVM 14.0.6
    /// `llvm-bcanalyzer -dump --non-symbolic` for the same modules.
    #[test]
    fn llvm14_ir_record_names() {
        let expected: &[(u32, u32, &str)] = &[
            (8, 1, "VERSION"),
            (8, 2, "TRIPLE"),
            (8, 3, "DATALAYOUT"),
            (8, 7, "GLOBALVAR"),
            (8, 8, "FUNCTION"),
            (8, 13, "VSTOFFSET"),
            (8, 14, "ALIAS"),
            (8, 16, "SOURCE_FILENAME"),
            (9, 2, "ENTRY"),
            (10, 3, "ENTRY"),
            (11, 1, "SETTYPE"),
            (11, 2, "NULL"),
            (11, 4, "INTEGER"),
            (11, 9, "CSTRING"),
            (11, 20, "CE_INBOUNDS_GEP"),
            (11, 21, "CST_CODE_BLOCKADDRESS"),
            (11, 22, "DATA"),
            (12, 1, "DECLAREBLOCKS"),
            (12, 2, "INST_BINOP"),
            (12, 3, "INST_CAST"),
            (12, 10, "INST_RET"),
            (12, 11, "INST_BR"),
            (12, 16, "INST_PHI"),
            (12, 19, "INST_ALLOCA"),
            (12, 20, "INST_LOAD"),
            (12, 28, "INST_CMP2"),
            (12, 29, "INST_VSELECT"),
            (12, 33, "DEBUG_LOC_AGAIN"),
            (12, 34, "INST_CALL"),
            (12, 35, "DEBUG_LOC"),
            (12, 43, "INST_GEP"),
            (12, 44, "INST_STORE"),
            (12, 55, "OPERAND_BUNDLE"),
            (12, 59, "INST_ATOMICRMW"),
            (13, 1, "STRING"),
            (13, 2, "EPOCH"),
            (14, 1, "ENTRY"),
            (14, 2, "BBENTRY"),
            (14, 3, "FNENTRY"),
            (15, 2, "VALUE"),
            (15, 3, "NODE"),
            (15, 4, "NAME"),
            (15, 10, "NAMED_NODE"),
            (15, 15, "BASIC_TYPE"),
            (15, 16, "FILE"),
            (15, 19, "SUBROUTINE_TYPE"),
            (15, 20, "COMPILE_UNIT"),
            (15, 21, "SUBPROGRAM"),
            (15, 35, "STRINGS"),
            (16, 11, "ATTACHMENT"),
            (17, 1, "NUMENTRY"),
            (17, 2, "VOID"),
            (17, 3, "FLOAT"),
            (17, 5, "LABEL"),
            (17, 7, "INTEGER"),
            (17, 8, "POINTER"),
            (17, 11, "ARRAY"),
            (17, 16, "METADATA"),
            (17, 19, "STRUCT_NAME"),
            (17, 20, "STRUCT_NAMED"),
            (17, 21, "FUNCTION"),
            (20, 1, "PERMODULE"),
            (20, 3, "PERMODULE_GLOBALVAR_INIT_REFS"),
            (20, 10, "VERSION"),
            (20, 20, "FLAGS"),
            (20, 24, "BLOCK_COUNT"),
            (21, 1, "OPERAND_BUNDLE_TAG"),
            (22, 6, "KIND"),
            (23, 1, "BLOB"),
            (25, 1, "BLOB"),
        ];
        for &(block, code, name) in expected {
            assert_eq!(record_name(Magic::LlvmIr, block, code), Some(name), "block {block} code {code}");
        }
    }

    #[test]
    fn ir_names_from_newer_llvm() {
        let ir = Magic::LlvmIr;
        assert_eq!(record_name(ir, 11, 12), Some("CE_GEP"));
        assert_eq!(record_name(ir, 11, 32), Some("CE_GEP"));
        assert_eq!(record_name(ir, 11, 33), Some("PTRAUTH"));
        assert_eq!(record_name(ir, 11, 34), None);
        assert_eq!(record_name(ir, 12, 60), Some("BLOCKADDR_USERS"));
        assert_eq!(record_name(ir, 12, 66), Some("DEBUG_RECORD_DECLARE_VALUE"));
        assert_eq!(record_name(ir, 12, 38), None);
        assert_eq!(record_name(ir, 24, 30), Some("STACK_IDS"));
        assert_eq!(record_name(ir, 20, 33), Some("COMBINED_ALLOC_INFO_NO_CONTEXT"));
        assert_eq!(record_name(ir, 18, 2), Some("USELIST_CODE_BB"));
        assert_eq!(record_name(ir, 19, 2), Some("HASH"));
        assert_eq!(block_name(ir, 24), Some("FULL_LTO_GLOBALVAL_SUMMARY_BLOCK"));
        assert_eq!(block_name(ir, 18), Some("USELIST_BLOCK_ID"));
        assert_eq!(block_name(ir, 19), Some("MODULE_STRTAB_BLOCK"));
        // Codes llvm-bcanalyzer leaves unnamed.
        assert_eq!(record_name(ir, 8, 18), None); // MODULE_CODE_IFUNC
        assert_eq!(record_name(ir, 12, 58), None); // FUNC_CODE_INST_FREEZE
        assert_eq!(record_name(ir, 15, 11), None); // METADATA_ATTACHMENT
        assert_eq!(record_name(ir, 15, 40), None); // METADATA_LABEL
        assert_eq!(record_name(ir, 17, 25), None); // TYPE_CODE_OPAQUE_POINTER
    }

    /// Names LLVM 14's llvm-bcanalyzer printed from the BLOCKINFO of a
    /// clang 14 `--serialize-diagnostics` file.
    #[test]
    fn clang14_diagnostics() {
        let k = Magic::ClangSerializedDiagnostics;
        assert_eq!(block_name(k, 8), Some("Meta"));
        assert_eq!(block_name(k, 9), Some("Diag"));
        assert_eq!(block_name(k, 10), None);
        assert_eq!(record_name(k, 8, 1), Some("Version"));
        assert_eq!(record_name(k, 9, 2), Some("DiagInfo"));
        assert_eq!(record_name(k, 9, 5), Some("CatName"));
        assert_eq!(record_name(k, 9, 3), Some("SrcRange"));
        assert_eq!(record_name(k, 9, 4), Some("DiagFlag"));
        assert_eq!(record_name(k, 9, 6), Some("FileName"));
        assert_eq!(record_name(k, 9, 7), Some("FixIt"));
        assert_eq!(record_name(k, 9, 8), Some("SourceFileContents"));
        assert_eq!(record_name(k, 8, 2), None);
        assert_eq!(record_name(k, 9, 1), None);
    }

    /// Names LLVM 14's llvm-bcanalyzer printed from the BLOCKINFO of an
    /// `opt -pass-remarks-format=bitstream` remarks file.
    #[test]
    fn llvm14_remarks() {
        let k = Magic::LlvmRemarks;
        assert_eq!(block_name(k, 8), Some("Meta"));
        assert_eq!(block_name(k, 9), Some("Remark"));
        assert_eq!(record_name(k, 8, 1), Some("Container info"));
        assert_eq!(record_name(k, 8, 2), Some("Remark version"));
        assert_eq!(record_name(k, 8, 3), Some("String table"));
        assert_eq!(record_name(k, 8, 4), Some("External File"));
        assert_eq!(record_name(k, 9, 5), Some("Remark header"));
        assert_eq!(record_name(k, 9, 6), Some("Remark debug location"));
        assert_eq!(record_name(k, 9, 7), Some("Remark hotness"));
        assert_eq!(record_name(k, 9, 8), Some("Argument with debug location"));
        assert_eq!(record_name(k, 9, 9), Some("Argument"));
        assert_eq!(record_name(k, 8, 5), None);
        assert_eq!(record_name(k, 9, 1), None);
    }

    /// Names LLVM 14's llvm-bcanalyzer printed from the BLOCKINFO of a
    /// clang 14 PCH.
    #[test]
    fn clang14_ast() {
        let k = Magic::ClangAst;
        let blocks = [
            (8, "AST_BLOCK"),
            (9, "SOURCE_MANAGER_BLOCK"),
            (10, "PREPROCESSOR_BLOCK"),
            (11, "DECLTYPES_BLOCK"),
            (14, "COMMENTS_BLOCK"),
            (15, "CONTROL_BLOCK"),
            (16, "INPUT_FILES_BLOCK"),
            (17, "OPTIONS_BLOCK"),
            (19, "UNHASHED_CONTROL_BLOCK"),
        ];
        for (id, name) in blocks {
            assert_eq!(block_name(k, id), Some(name), "block {id}");
        }
        assert_eq!(record_name(k, 9, 1), Some("SM_SLOC_FILE_ENTRY"));
        assert_eq!(record_name(k, 9, 2), Some("SM_SLOC_BUFFER_ENTRY"));
        assert_eq!(record_name(k, 9, 4), Some("SM_SLOC_BUFFER_BLOB_COMPRESSED"));
        assert_eq!(record_name(k, 12, 1), Some("PPD_MACRO_DEFINITION"));
        assert_eq!(record_name(k, 14, 0), Some("COMMENTS_RAW_COMMENT"));
        assert_eq!(record_name(k, 16, 1), Some("INPUT_FILE"));
        assert_eq!(record_name(k, 16, 2), Some("INPUT_FILE_HASH"));
        assert_eq!(record_name(k, 8, 1), None);
    }

    #[test]
    fn swift_blocks() {
        let k = Magic::SwiftModule;
        assert_eq!(block_name(k, 8), Some("MODULE_BLOCK"));
        assert_eq!(block_name(k, 11), Some("DECLS_AND_TYPES_BLOCK"));
        assert_eq!(block_name(k, 96), Some("MODULE_DOC_BLOCK"));
        assert_eq!(block_name(k, 193), Some("DECL_LOCS_BLOCK"));
        assert_eq!(block_name(k, 18), None);
        assert_eq!(record_name(k, 8, 1), None);
    }

    #[test]
    fn kinds_do_not_leak_into_each_other() {
        assert_eq!(block_name(Magic::ClangAst, 15), Some("CONTROL_BLOCK"));
        assert_eq!(block_name(Magic::LlvmIr, 15), Some("METADATA_BLOCK"));
        assert_eq!(record_name(Magic::LlvmRemarks, 12, 34), None);
        assert_eq!(record_name(Magic::ClangSerializedDiagnostics, 12, 34), None);
        assert_eq!(record_name(Magic::LlvmIr, 12, 34), Some("INST_CALL"));
    }
}
