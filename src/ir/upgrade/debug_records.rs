//! Debug intrinsics as debug records: LLVM 19 and later read a call to `llvm.dbg.value`,
//! `llvm.dbg.declare`, `llvm.dbg.assign` or `llvm.dbg.label` as a debug record attached to
//! the next instruction (`#dbg_value(…)`), and drop the intrinsics' declarations
//! (`UpgradeIntrinsicFunction` and `UpgradeIntrinsicCall` when the reader loads debug info
//! as records, its default from LLVM 19).

use crate::ids::llvm_ir::raw as ids;

/// The first LLVM whose reader turns debug intrinsics into records.
const FIRST_RECORD_READER: u32 = 19;

/// The debug-record code (`FUNC_CODE_DEBUG_RECORD_*`) a call to `callee` becomes when LLVM
/// `llvm_version` reads it, if it is a debug intrinsic that version reads as a record.
pub fn debug_record_code(llvm_version: u32, callee: &[u8]) -> Option<u32> {
    if llvm_version < FIRST_RECORD_READER {
        return None;
    }
    Some(match callee {
        b"llvm.dbg.value" => ids::FUNC_CODE_DEBUG_RECORD_VALUE,
        b"llvm.dbg.declare" => ids::FUNC_CODE_DEBUG_RECORD_DECLARE,
        b"llvm.dbg.assign" => ids::FUNC_CODE_DEBUG_RECORD_ASSIGN,
        b"llvm.dbg.label" => ids::FUNC_CODE_DEBUG_RECORD_LABEL,
        _ => return None,
    })
}

/// Whether LLVM `llvm_version`'s reader drops the declaration of function `name` (a debug
/// intrinsic it reads calls to as records).
pub fn drops_declaration(llvm_version: u32, name: &[u8]) -> bool {
    debug_record_code(llvm_version, name).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn from_llvm_19_on() {
        assert_eq!(debug_record_code(18, b"llvm.dbg.value"), None);
        assert_eq!(debug_record_code(19, b"llvm.dbg.value"), Some(ids::FUNC_CODE_DEBUG_RECORD_VALUE));
        assert_eq!(debug_record_code(22, b"llvm.dbg.label"), Some(ids::FUNC_CODE_DEBUG_RECORD_LABEL));
        assert_eq!(debug_record_code(22, b"llvm.dbg.value.x"), None);
        assert!(drops_declaration(22, b"llvm.dbg.declare"));
        assert!(!drops_declaration(14, b"llvm.dbg.declare"));
    }
}
