//! Static names of blocks and records for the known bitstream kinds.
//!
//! The strings are the ones `llvm-bcanalyzer -dump` prints.
//!
//! * LLVM IR names follow `GetBlockName` / `GetCodeName` in LLVM's
//!   `llvm/lib/Bitcode/Reader/BitcodeAnalyzer.cpp` (LLVM 22 development
//!   branch), with codes taken from `llvm/include/llvm/Bitcode/LLVMBitCodes.h`.
//!   Where LLVM 14 and the newest LLVM name a code differently, both are
//!   kept as long as they do not conflict (see [`record_name`]).
//! * Clang serialized diagnostics, LLVM remarks, Clang AST/PCH files and Swift
//!   modules carry their own names in their `BLOCKINFO_BLOCK`;
//!   `llvm-bcanalyzer` prints those. The tables here repeat what the writers
//!   put in there (clang's `SerializedDiagnosticPrinter.cpp`, LLVM's
//!   `BitstreamRemarkSerializer.cpp`, clang's `ASTWriter::WriteBlockInfoBlock`,
//!   Swift's `Serializer::writeBlockInfoBlock`). Names read from a stream's
//!   own `BLOCKINFO_BLOCK` should take precedence over these.
//!
//! Everything here is `&'static str`; nothing allocates.

use crate::blockinfo::BlockInfo;
use crate::header::Magic;

/// The kind of stream, chosen from its 4-byte magic.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum StreamKind {
    /// LLVM IR bitcode: magic `BC C0 DE` (bytes `0x42 0x43 0xC0 0xDE`).
    LlvmIr,
    /// Clang serialized diagnostics (`--serialize-diagnostics`): magic `DIAG`.
    ClangSerializedDiagnostics,
    /// Clang serialized AST (PCH / PCM): magic `CPCH`.
    ClangAst,
    /// LLVM optimization remarks in bitstream format: magic `RMRK`.
    LlvmRemarks,
    /// Swift module (`.swiftmodule`, `.swiftdoc`, `.swiftsourceinfo`): magic
    /// `E2 9C A8 0E`.
    SwiftModule,
    /// Any other magic.
    Unknown,
}

impl StreamKind {
    /// From the first 4 bytes of the stream: `BC C0 DE` (bytes
    /// `0x42 0x43 0xC0 0xDE`) -> [`StreamKind::LlvmIr`], `b"DIAG"` ->
    /// [`StreamKind::ClangSerializedDiagnostics`], `b"CPCH"` ->
    /// [`StreamKind::ClangAst`], `b"RMRK"` -> [`StreamKind::LlvmRemarks`],
    /// `[0xE2, 0x9C, 0xA8, 0x0E]` -> [`StreamKind::SwiftModule`], else
    /// [`StreamKind::Unknown`].
    ///
    /// The bitcode wrapper header (magic `DE C0 17 0B`) is not recognised
    /// here; skip it first and pass the magic of the wrapped stream.
    #[must_use]
    pub const fn from_magic(magic: [u8; 4]) -> Self {
        // One table of magics: `Magic`'s.
        match Magic::from_bytes(magic) {
            Magic::LlvmIr => StreamKind::LlvmIr,
            Magic::ClangSerializedDiagnostics => StreamKind::ClangSerializedDiagnostics,
            Magic::ClangAst => StreamKind::ClangAst,
            Magic::LlvmRemarks => StreamKind::LlvmRemarks,
            Magic::SwiftModule => StreamKind::SwiftModule,
            Magic::Unknown(_) => StreamKind::Unknown,
        }
    }
}

/// Block id of the standard `BLOCKINFO_BLOCK`.
const BLOCKINFO_BLOCK_ID: u32 = 0;
/// First block id available to applications; ids below it are reserved.
const FIRST_APPLICATION_BLOCKID: u32 = 8;

/// A sorted `(code, name)` table.
type Table = &'static [(u32, &'static str)];

/// Finds `code` in a table sorted by code.
fn lookup(table: Table, code: u32) -> Option<&'static str> {
    table.binary_search_by_key(&code, |&(c, _)| c).ok().and_then(|i| table.get(i)).map(|&(_, name)| name)
}

/// Name of a block id in a stream of this kind, as llvm-bcanalyzer prints it
/// (e.g. `"MODULE_BLOCK"`, `"BLOCKINFO_BLOCK"`); `None` if unknown.
///
/// Block id 0 is `"BLOCKINFO_BLOCK"` for every kind, including
/// [`StreamKind::Unknown`]. Other reserved ids (1..=7) have no name.
/// `SYNC_SCOPE_NAMES_BLOCK_ID` (26) has no name because llvm-bcanalyzer does
/// not name it (it prints `UnknownBlock26`).
#[must_use]
pub fn block_name(kind: StreamKind, block_id: u32) -> Option<&'static str> {
    if block_id < FIRST_APPLICATION_BLOCKID {
        return if block_id == BLOCKINFO_BLOCK_ID { Some("BLOCKINFO_BLOCK") } else { None };
    }
    let table: Table = match kind {
        StreamKind::LlvmIr => ir::BLOCKS,
        StreamKind::ClangSerializedDiagnostics => diag::BLOCKS,
        StreamKind::ClangAst => ast::BLOCKS,
        StreamKind::LlvmRemarks => remarks::BLOCKS,
        StreamKind::SwiftModule => swift::BLOCKS,
        StreamKind::Unknown => return None,
    };
    lookup(table, block_id)
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
pub fn record_name(kind: StreamKind, block_id: u32, code: u32) -> Option<&'static str> {
    if block_id < FIRST_APPLICATION_BLOCKID {
        return if block_id == BLOCKINFO_BLOCK_ID { lookup(BLOCKINFO_RECORDS, code) } else { None };
    }
    let table: Table = match kind {
        StreamKind::LlvmIr => ir::records(block_id)?,
        StreamKind::ClangSerializedDiagnostics => diag::records(block_id)?,
        StreamKind::ClangAst => ast::records(block_id)?,
        StreamKind::LlvmRemarks => remarks::records(block_id)?,
        StreamKind::SwiftModule | StreamKind::Unknown => return None,
    };
    lookup(table, code)
}

/// The name `llvm-bcanalyzer` gives block `block_id`, resolved as LLVM resolves it: the
/// reserved ids (below 8) have only their standard names, then the stream's own BLOCKINFO
/// `BLOCKNAME` (if not empty) wins, then the static table of the stream's kind.
///
/// ```
/// use llvm_bitstream_reader::BlockInfo;
/// use llvm_bitstream_reader::names::{StreamKind, resolve_block_name};
/// let none = BlockInfo::new();
/// assert_eq!(resolve_block_name(&none, StreamKind::LlvmIr, 12), Some("FUNCTION_BLOCK"));
/// assert_eq!(resolve_block_name(&none, StreamKind::LlvmIr, 0), Some("BLOCKINFO_BLOCK"));
/// ```
#[must_use]
pub fn resolve_block_name(blockinfo: &BlockInfo, kind: StreamKind, block_id: u32) -> Option<&str> {
    if block_id >= FIRST_APPLICATION_BLOCKID {
        if let Some(name) = blockinfo.block_name(block_id).filter(|n| !n.is_empty()) {
            return Some(name);
        }
    }
    block_name(kind, block_id)
}

/// The name `llvm-bcanalyzer` gives record `code` of block `block_id`, resolved as LLVM
/// resolves it: reserved blocks (below 8) have only the standard BLOCKINFO record names,
/// then the first `SETRECORDNAME` the stream's BLOCKINFO gives the code wins, then the
/// static table of the stream's kind.
#[must_use]
pub fn resolve_record_name(blockinfo: &BlockInfo, kind: StreamKind, block_id: u32, code: u32) -> Option<&str> {
    if block_id >= FIRST_APPLICATION_BLOCKID {
        if let Some(name) = blockinfo.record_name(block_id, code) {
            return Some(name);
        }
    }
    record_name(kind, block_id, code)
}

impl From<Magic> for StreamKind {
    fn from(magic: Magic) -> Self {
        StreamKind::from_magic(magic.bytes())
    }
}

/// Records of the standard `BLOCKINFO_BLOCK` (`llvm/Bitstream/BitCodeEnums.h`).
const BLOCKINFO_RECORDS: Table = &[(1, "SETBID"), (2, "BLOCKNAME"), (3, "SETRECORDNAME")];

/// LLVM IR bitcode (`llvm/Bitcode/LLVMBitCodes.h`, `BitcodeAnalyzer.cpp`).
mod ir {
    use super::Table;

    /// `GetBlockName`, keyed by `bitc::BlockIDs`.
    pub(super) const BLOCKS: Table = &[
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
        (18, "USELIST_BLOCK_ID"),
        (19, "MODULE_STRTAB_BLOCK"),
        (20, "GLOBALVAL_SUMMARY_BLOCK"),
        (21, "OPERAND_BUNDLE_TAGS_BLOCK"),
        (22, "METADATA_KIND_BLOCK"),
        (23, "STRTAB_BLOCK"),
        (24, "FULL_LTO_GLOBALVAL_SUMMARY_BLOCK"),
        (25, "SYMTAB_BLOCK"),
        // 26 = SYNC_SCOPE_NAMES_BLOCK_ID: not named by llvm-bcanalyzer.
    ];

    /// `MODULE_BLOCK_ID` (8): `MODULE_CODE_*`.
    const MODULE: Table = &[
        (1, "VERSION"),
        (2, "TRIPLE"),
        (3, "DATALAYOUT"),
        (4, "ASM"),
        (5, "SECTIONNAME"),
        (6, "DEPLIB"),
        (7, "GLOBALVAR"),
        (8, "FUNCTION"),
        (11, "GCNAME"),
        (12, "COMDAT"),
        (13, "VSTOFFSET"),
        (14, "ALIAS"),
        (15, "METADATA_VALUES_UNUSED"),
        (16, "SOURCE_FILENAME"),
        (17, "HASH"),
    ];

    /// `PARAMATTR_BLOCK_ID` (9): `PARAMATTR_CODE_ENTRY_OLD`, `PARAMATTR_CODE_ENTRY`.
    const PARAMATTR: Table = &[(1, "ENTRY"), (2, "ENTRY")];

    /// `PARAMATTR_GROUP_BLOCK_ID` (10): `PARAMATTR_GRP_CODE_ENTRY`.
    const PARAMATTR_GROUP: Table = &[(3, "ENTRY")];

    /// `CONSTANTS_BLOCK_ID` (11): `CST_CODE_*`.
    const CONSTANTS: Table = &[
        (1, "SETTYPE"),
        (2, "NULL"),
        (3, "UNDEF"),
        (4, "INTEGER"),
        (5, "WIDE_INTEGER"),
        (6, "FLOAT"),
        (7, "AGGREGATE"),
        (8, "STRING"),
        (9, "CSTRING"),
        (10, "CE_BINOP"),
        (11, "CE_CAST"),
        // CST_CODE_CE_GEP up to LLVM 18 (CST_CODE_CE_GEP_OLD since LLVM 19).
        (12, "CE_GEP"),
        (13, "CE_SELECT"),
        (14, "CE_EXTRACTELT"),
        (15, "CE_INSERTELT"),
        (16, "CE_SHUFFLEVEC"),
        (17, "CE_CMP"),
        (19, "CE_SHUFVEC_EX"),
        (20, "CE_INBOUNDS_GEP"),
        (21, "CST_CODE_BLOCKADDRESS"),
        (22, "DATA"),
        (25, "CE_UNOP"),
        (27, "DSO_LOCAL_EQUIVALENT"),
        (29, "NO_CFI_VALUE"),
        (30, "INLINEASM"),
        // CST_CODE_CE_GEP since LLVM 19.
        (32, "CE_GEP"),
        (33, "PTRAUTH"),
    ];

    /// `FUNCTION_BLOCK_ID` (12): `FUNC_CODE_*`.
    const FUNCTION: Table = &[
        (1, "DECLAREBLOCKS"),
        (2, "INST_BINOP"),
        (3, "INST_CAST"),
        (4, "INST_GEP_OLD"),
        (5, "INST_SELECT"),
        (6, "INST_EXTRACTELT"),
        (7, "INST_INSERTELT"),
        (8, "INST_SHUFFLEVEC"),
        (9, "INST_CMP"),
        (10, "INST_RET"),
        (11, "INST_BR"),
        (12, "INST_SWITCH"),
        (13, "INST_INVOKE"),
        (15, "INST_UNREACHABLE"),
        (16, "INST_PHI"),
        (19, "INST_ALLOCA"),
        (20, "INST_LOAD"),
        (23, "INST_VAARG"),
        (26, "INST_EXTRACTVAL"),
        (27, "INST_INSERTVAL"),
        (28, "INST_CMP2"),
        (29, "INST_VSELECT"),
        (30, "INST_INBOUNDS_GEP_OLD"),
        (33, "DEBUG_LOC_AGAIN"),
        (34, "INST_CALL"),
        (35, "DEBUG_LOC"),
        (36, "INST_FENCE"),
        (41, "INST_LOADATOMIC"),
        (43, "INST_GEP"),
        (44, "INST_STORE"),
        (45, "INST_STOREATOMIC"),
        (46, "INST_CMPXCHG"),
        (48, "INST_CLEANUPRET"),
        (49, "INST_CATCHRET"),
        (50, "INST_CATCHPAD"),
        (55, "OPERAND_BUNDLE"),
        (56, "INST_UNOP"),
        (57, "INST_CALLBR"),
        (59, "INST_ATOMICRMW"),
        (60, "BLOCKADDR_USERS"),
        (61, "DEBUG_RECORD_VALUE"),
        (62, "DEBUG_RECORD_DECLARE"),
        (63, "DEBUG_RECORD_ASSIGN"),
        (64, "DEBUG_RECORD_VALUE_SIMPLE"),
        (65, "DEBUG_RECORD_LABEL"),
        (66, "DEBUG_RECORD_DECLARE_VALUE"),
    ];

    /// `IDENTIFICATION_BLOCK_ID` (13): `IDENTIFICATION_CODE_*`.
    const IDENTIFICATION: Table = &[(1, "STRING"), (2, "EPOCH")];

    /// `VALUE_SYMTAB_BLOCK_ID` (14): `VST_CODE_*`.
    const VALUE_SYMTAB: Table = &[(1, "ENTRY"), (2, "BBENTRY"), (3, "FNENTRY"), (5, "COMBINED_ENTRY")];

    /// `METADATA_BLOCK_ID` (15): `METADATA_*`.
    const METADATA: Table = &[
        (1, "STRING_OLD"),
        (2, "VALUE"),
        (3, "NODE"),
        (4, "NAME"),
        (5, "DISTINCT_NODE"),
        (6, "KIND"),
        (7, "LOCATION"),
        (8, "OLD_NODE"),
        (9, "OLD_FN_NODE"),
        (10, "NAMED_NODE"),
        (12, "GENERIC_DEBUG"),
        (13, "SUBRANGE"),
        (14, "ENUMERATOR"),
        (15, "BASIC_TYPE"),
        (16, "FILE"),
        (17, "DERIVED_TYPE"),
        (18, "COMPOSITE_TYPE"),
        (19, "SUBROUTINE_TYPE"),
        (20, "COMPILE_UNIT"),
        (21, "SUBPROGRAM"),
        (22, "LEXICAL_BLOCK"),
        (23, "LEXICAL_BLOCK_FILE"),
        (24, "NAMESPACE"),
        (25, "TEMPLATE_TYPE"),
        (26, "TEMPLATE_VALUE"),
        (27, "GLOBAL_VAR"),
        (28, "LOCAL_VAR"),
        (29, "EXPRESSION"),
        (30, "OBJC_PROPERTY"),
        (31, "IMPORTED_ENTITY"),
        (32, "MODULE"),
        (33, "MACRO"),
        (34, "MACRO_FILE"),
        (35, "STRINGS"),
        (36, "GLOBAL_DECL_ATTACHMENT"),
        (37, "GLOBAL_VAR_EXPR"),
        (38, "INDEX_OFFSET"),
        (39, "INDEX"),
        (46, "ARG_LIST"),
    ];

    /// `METADATA_ATTACHMENT_ID` (16): `METADATA_ATTACHMENT`.
    const METADATA_ATTACHMENT: Table = &[(11, "ATTACHMENT")];

    /// `TYPE_BLOCK_ID_NEW` (17): `TYPE_CODE_*`.
    const TYPE: Table = &[
        (1, "NUMENTRY"),
        (2, "VOID"),
        (3, "FLOAT"),
        (4, "DOUBLE"),
        (5, "LABEL"),
        (6, "OPAQUE"),
        (7, "INTEGER"),
        (8, "POINTER"),
        (10, "HALF"),
        (11, "ARRAY"),
        (12, "VECTOR"),
        (13, "X86_FP80"),
        (14, "FP128"),
        (15, "PPC_FP128"),
        (16, "METADATA"),
        (17, "X86_MMX"),
        (18, "STRUCT_ANON"),
        (19, "STRUCT_NAME"),
        (20, "STRUCT_NAMED"),
        (21, "FUNCTION"),
        (22, "TOKEN"),
        (23, "BFLOAT"),
    ];

    /// `USELIST_BLOCK_ID` (18): `USELIST_CODE_*`.
    const USELIST: Table = &[(1, "USELIST_CODE_DEFAULT"), (2, "USELIST_CODE_BB")];

    /// `MODULE_STRTAB_BLOCK_ID` (19): `MST_CODE_*`.
    const MODULE_STRTAB: Table = &[(1, "ENTRY"), (2, "HASH")];

    /// `GLOBALVAL_SUMMARY_BLOCK_ID` (20) and
    /// `FULL_LTO_GLOBALVAL_SUMMARY_BLOCK_ID` (24): `FS_*`.
    const GLOBALVAL_SUMMARY: Table = &[
        (1, "PERMODULE"),
        (2, "PERMODULE_PROFILE"),
        (3, "PERMODULE_GLOBALVAR_INIT_REFS"),
        (4, "COMBINED"),
        (5, "COMBINED_PROFILE"),
        (6, "COMBINED_GLOBALVAR_INIT_REFS"),
        (7, "ALIAS"),
        (8, "COMBINED_ALIAS"),
        (9, "COMBINED_ORIGINAL_NAME"),
        (10, "VERSION"),
        (11, "TYPE_TESTS"),
        (12, "TYPE_TEST_ASSUME_VCALLS"),
        (13, "TYPE_CHECKED_LOAD_VCALLS"),
        (14, "TYPE_TEST_ASSUME_CONST_VCALL"),
        (15, "TYPE_CHECKED_LOAD_CONST_VCALL"),
        (16, "VALUE_GUID"),
        (17, "CFI_FUNCTION_DEFS"),
        (18, "CFI_FUNCTION_DECLS"),
        (19, "PERMODULE_RELBF"),
        (20, "FLAGS"),
        (21, "TYPE_ID"),
        (22, "TYPE_ID_METADATA"),
        (23, "PERMODULE_VTABLE_GLOBALVAR_INIT_REFS"),
        (24, "BLOCK_COUNT"),
        (25, "PARAM_ACCESS"),
        (26, "PERMODULE_CALLSITE_INFO"),
        (27, "PERMODULE_ALLOC_INFO"),
        (28, "COMBINED_CALLSITE_INFO"),
        (29, "COMBINED_ALLOC_INFO"),
        (30, "STACK_IDS"),
        (31, "ALLOC_CONTEXT_IDS"),
        (32, "CONTEXT_RADIX_TREE_ARRAY"),
        (33, "COMBINED_ALLOC_INFO_NO_CONTEXT"),
    ];

    /// `OPERAND_BUNDLE_TAGS_BLOCK_ID` (21): `OPERAND_BUNDLE_TAG`.
    const OPERAND_BUNDLE_TAGS: Table = &[(1, "OPERAND_BUNDLE_TAG")];

    /// `METADATA_KIND_BLOCK_ID` (22): `METADATA_KIND`.
    const METADATA_KIND: Table = &[(6, "KIND")];

    /// `STRTAB_BLOCK_ID` (23) and `SYMTAB_BLOCK_ID` (25): `*_BLOB`.
    const BLOB: Table = &[(1, "BLOB")];

    /// The record table of an LLVM IR block id, if llvm-bcanalyzer has one.
    pub(super) fn records(block_id: u32) -> Option<Table> {
        Some(match block_id {
            8 => MODULE,
            9 => PARAMATTR,
            10 => PARAMATTR_GROUP,
            11 => CONSTANTS,
            12 => FUNCTION,
            13 => IDENTIFICATION,
            14 => VALUE_SYMTAB,
            15 => METADATA,
            16 => METADATA_ATTACHMENT,
            17 => TYPE,
            18 => USELIST,
            19 => MODULE_STRTAB,
            20 | 24 => GLOBALVAL_SUMMARY,
            21 => OPERAND_BUNDLE_TAGS,
            22 => METADATA_KIND,
            23 | 25 => BLOB,
            _ => return None,
        })
    }
}

/// Clang serialized diagnostics (`clang/Frontend/SerializedDiagnostics.h`,
/// names from `SDiagsWriter::EmitBlockInfoBlock`).
mod diag {
    use super::Table;

    /// `BLOCK_META` (8), `BLOCK_DIAG` (9).
    pub(super) const BLOCKS: Table = &[(8, "Meta"), (9, "Diag")];

    /// `BLOCK_META`: `RECORD_VERSION`.
    const META: Table = &[(1, "Version")];

    /// `BLOCK_DIAG`: `RECORD_DIAG` .. `RECORD_SOURCE_FILE_CONTENTS`.
    const DIAG: Table = &[
        (2, "DiagInfo"),
        (3, "SrcRange"),
        (4, "DiagFlag"),
        (5, "CatName"),
        (6, "FileName"),
        (7, "FixIt"),
        (8, "SourceFileContents"),
    ];

    /// The record table of a diagnostics block id.
    pub(super) fn records(block_id: u32) -> Option<Table> {
        match block_id {
            8 => Some(META),
            9 => Some(DIAG),
            _ => None,
        }
    }
}

/// LLVM bitstream remarks (`llvm/Remarks/BitstreamRemarkContainer.h`).
mod remarks {
    use super::Table;

    /// `META_BLOCK_ID` (8), `REMARK_BLOCK_ID` (9).
    pub(super) const BLOCKS: Table = &[(8, "Meta"), (9, "Remark")];

    /// `META_BLOCK_ID`: `RECORD_META_*`.
    const META: Table = &[(1, "Container info"), (2, "Remark version"), (3, "String table"), (4, "External File")];

    /// `REMARK_BLOCK_ID`: `RECORD_REMARK_*`.
    const REMARK: Table = &[
        (5, "Remark header"),
        (6, "Remark debug location"),
        (7, "Remark hotness"),
        (8, "Argument with debug location"),
        (9, "Argument"),
    ];

    /// The record table of a remarks block id.
    pub(super) fn records(block_id: u32) -> Option<Table> {
        match block_id {
            8 => Some(META),
            9 => Some(REMARK),
            _ => None,
        }
    }
}

/// Clang serialized AST / PCH (`clang/Serialization/ASTBitCodes.h`, names from
/// `ASTWriter::WriteBlockInfoBlock`).
mod ast {
    use super::Table;

    /// `serialization::BlockIDs`.
    pub(super) const BLOCKS: Table = &[
        (8, "AST_BLOCK"),
        (9, "SOURCE_MANAGER_BLOCK"),
        (10, "PREPROCESSOR_BLOCK"),
        (11, "DECLTYPES_BLOCK"),
        (12, "PREPROCESSOR_DETAIL_BLOCK"),
        (13, "SUBMODULE_BLOCK"),
        (14, "COMMENTS_BLOCK"),
        (15, "CONTROL_BLOCK"),
        (16, "INPUT_FILES_BLOCK"),
        (17, "OPTIONS_BLOCK"),
        (18, "EXTENSION_BLOCK"),
        (19, "UNHASHED_CONTROL_BLOCK"),
    ];

    /// `SOURCE_MANAGER_BLOCK_ID`: `SourceManagerRecordTypes`.
    const SOURCE_MANAGER: Table = &[
        (1, "SM_SLOC_FILE_ENTRY"),
        (2, "SM_SLOC_BUFFER_ENTRY"),
        (3, "SM_SLOC_BUFFER_BLOB"),
        (4, "SM_SLOC_BUFFER_BLOB_COMPRESSED"),
        (5, "SM_SLOC_EXPANSION_ENTRY"),
    ];

    /// `PREPROCESSOR_DETAIL_BLOCK_ID`: `PreprocessorDetailRecordTypes`.
    const PREPROCESSOR_DETAIL: Table =
        &[(0, "PPD_MACRO_EXPANSION"), (1, "PPD_MACRO_DEFINITION"), (2, "PPD_INCLUSION_DIRECTIVE")];

    /// `COMMENTS_BLOCK_ID`: `CommentRecordTypes`.
    const COMMENTS: Table = &[(0, "COMMENTS_RAW_COMMENT")];

    /// `INPUT_FILES_BLOCK_ID`: `InputFileRecordTypes`.
    const INPUT_FILES: Table = &[(1, "INPUT_FILE"), (2, "INPUT_FILE_HASH")];

    /// `EXTENSION_BLOCK_ID`: `ExtensionBlockRecordTypes`.
    const EXTENSION: Table = &[(1, "EXTENSION_METADATA")];

    /// The record table of an AST block id. Only blocks whose record codes
    /// have been stable across clang releases are covered.
    pub(super) fn records(block_id: u32) -> Option<Table> {
        match block_id {
            9 => Some(SOURCE_MANAGER),
            12 => Some(PREPROCESSOR_DETAIL),
            14 => Some(COMMENTS),
            16 => Some(INPUT_FILES),
            18 => Some(EXTENSION),
            _ => None,
        }
    }
}

/// Swift modules (`swift/lib/Serialization/ModuleFormat.h`, names from
/// `Serializer::writeBlockInfoBlock`).
mod swift {
    use super::Table;

    /// `serialization::BlockID`.
    pub(super) const BLOCKS: Table = &[
        (8, "MODULE_BLOCK"),
        (9, "CONTROL_BLOCK"),
        (10, "INPUT_BLOCK"),
        (11, "DECLS_AND_TYPES_BLOCK"),
        (12, "IDENTIFIER_DATA_BLOCK"),
        (13, "INDEX_BLOCK"),
        (14, "SIL_BLOCK"),
        (15, "SIL_INDEX_BLOCK"),
        (16, "OPTIONS_BLOCK"),
        (17, "DECL_MEMBER_TABLES_BLOCK"),
        (96, "MODULE_DOC_BLOCK"),
        (97, "COMMENT_BLOCK"),
        (192, "MODULE_SOURCEINFO_BLOCK"),
        (193, "DECL_LOCS_BLOCK"),
    ];
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALL_KINDS: [StreamKind; 6] = [
        StreamKind::LlvmIr,
        StreamKind::ClangSerializedDiagnostics,
        StreamKind::ClangAst,
        StreamKind::LlvmRemarks,
        StreamKind::SwiftModule,
        StreamKind::Unknown,
    ];

    fn assert_sorted(table: Table) {
        for w in table.windows(2) {
            if let [a, b] = w {
                assert!(a.0 < b.0, "table not strictly sorted at {a:?}, {b:?}");
            }
        }
        for &(_, name) in table {
            assert!(!name.is_empty());
        }
    }

    #[test]
    fn tables_are_sorted() {
        assert_sorted(BLOCKINFO_RECORDS);
        for t in [ir::BLOCKS, diag::BLOCKS, remarks::BLOCKS, ast::BLOCKS, swift::BLOCKS] {
            assert_sorted(t);
        }
        for id in 0..300 {
            for t in [ir::records(id), diag::records(id), remarks::records(id), ast::records(id)].into_iter().flatten()
            {
                assert_sorted(t);
            }
        }
    }

    #[test]
    fn magic() {
        const K: StreamKind = StreamKind::from_magic(*b"RMRK");
        assert_eq!(StreamKind::from_magic([0x42, 0x43, 0xC0, 0xDE]), StreamKind::LlvmIr);
        assert_eq!(StreamKind::from_magic(*b"DIAG"), StreamKind::ClangSerializedDiagnostics);
        assert_eq!(StreamKind::from_magic(*b"CPCH"), StreamKind::ClangAst);
        assert_eq!(StreamKind::from_magic(*b"RMRK"), StreamKind::LlvmRemarks);
        assert_eq!(StreamKind::from_magic([0xE2, 0x9C, 0xA8, 0x0E]), StreamKind::SwiftModule);
        assert_eq!(StreamKind::from_magic([0xDE, 0xC0, 0x17, 0x0B]), StreamKind::Unknown);
        assert_eq!(StreamKind::from_magic(*b"BC\0\0"), StreamKind::Unknown);
        assert_eq!(K, StreamKind::LlvmRemarks);
    }

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
        assert_eq!(block_name(StreamKind::Unknown, 8), None);
        assert_eq!(record_name(StreamKind::Unknown, 8, 1), None);
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
            assert_eq!(block_name(StreamKind::LlvmIr, id), Some(name), "block {id}");
        }
        // LLVM 14 printed `UnknownBlock26` for SYNC_SCOPE_NAMES_BLOCK_ID and
        // `UnknownCode1` for its record.
        assert_eq!(block_name(StreamKind::LlvmIr, 26), None);
        assert_eq!(record_name(StreamKind::LlvmIr, 26, 1), None);
        assert_eq!(block_name(StreamKind::LlvmIr, 27), None);
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
            assert_eq!(record_name(StreamKind::LlvmIr, block, code), Some(name), "block {block} code {code}");
        }
    }

    #[test]
    fn ir_names_from_newer_llvm() {
        let ir = StreamKind::LlvmIr;
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
        let k = StreamKind::ClangSerializedDiagnostics;
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
        let k = StreamKind::LlvmRemarks;
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
        let k = StreamKind::ClangAst;
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
        let k = StreamKind::SwiftModule;
        assert_eq!(block_name(k, 8), Some("MODULE_BLOCK"));
        assert_eq!(block_name(k, 11), Some("DECLS_AND_TYPES_BLOCK"));
        assert_eq!(block_name(k, 96), Some("MODULE_DOC_BLOCK"));
        assert_eq!(block_name(k, 193), Some("DECL_LOCS_BLOCK"));
        assert_eq!(block_name(k, 18), None);
        assert_eq!(record_name(k, 8, 1), None);
    }

    #[test]
    fn kinds_do_not_leak_into_each_other() {
        assert_eq!(block_name(StreamKind::ClangAst, 15), Some("CONTROL_BLOCK"));
        assert_eq!(block_name(StreamKind::LlvmIr, 15), Some("METADATA_BLOCK"));
        assert_eq!(record_name(StreamKind::LlvmRemarks, 12, 34), None);
        assert_eq!(record_name(StreamKind::ClangSerializedDiagnostics, 12, 34), None);
        assert_eq!(record_name(StreamKind::LlvmIr, 12, 34), Some("INST_CALL"));
    }
}
