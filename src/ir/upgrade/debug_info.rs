//! Debug-info metadata LLVM's reader rewrites (`MetadataLoader`): the elements of a
//! `!DIExpression` written in an older layout (`upgradeDIExpression`), and the
//! `llvm.dbg.declare` expressions of a module that had such layouts
//! (`upgradeDeclareExpressions`). Every version this crate prints for does both.

use alloc::vec::Vec;

const DW_OP_DEREF: u64 = 0x06;
const DW_OP_CONSTU: u64 = 0x10;
const DW_OP_MINUS: u64 = 0x1c;
const DW_OP_PLUS: u64 = 0x22;
const DW_OP_PLUS_UCONST: u64 = 0x23;
const DW_OP_BIT_PIECE: u64 = 0x9d;
const DW_OP_LLVM_FRAGMENT: u64 = 0x1000;

/// The elements of a `!DIExpression` of layout `version` (the record's first operand
/// shifted right once) as LLVM reads them, if they change; `None` for the current layout
/// (3) or an unknown one.
/// - version 0: a `DW_OP_bit_piece` three from the end is a `DW_OP_LLVM_fragment`;
/// - version 1 (and 0): a leading `DW_OP_deref` moves to the end, before a fragment;
/// - version 2 (and older): `DW_OP_plus N` is `DW_OP_plus_uconst N`, `DW_OP_minus N` is
///   `DW_OP_constu N, DW_OP_minus`; other operations keep the operand counts of that
///   layout (`constu` 1, `LLVM_fragment` 2, the rest none).
pub fn upgraded_expression(version: u64, elements: &[u64]) -> Option<Vec<u64>> {
    if version > 2 {
        return None;
    }
    let mut expr = elements.to_vec();
    let n = expr.len();
    if version == 0 && n >= 3 && expr[n - 3] == DW_OP_BIT_PIECE {
        expr[n - 3] = DW_OP_LLVM_FRAGMENT;
    }
    if version <= 1 && expr.first() == Some(&DW_OP_DEREF) {
        let end = if n >= 3 && expr[n - 3] == DW_OP_LLVM_FRAGMENT { n - 3 } else { n };
        // `end` is at least 1: the deref is there.
        expr[..end].rotate_left(1);
        expr[end - 1] = DW_OP_DEREF;
    }
    let mut out = Vec::with_capacity(expr.len() + 2);
    let mut rest = &expr[..];
    while let Some(&op) = rest.first() {
        let size = match op {
            DW_OP_CONSTU | DW_OP_MINUS | DW_OP_PLUS => 2,
            DW_OP_LLVM_FRAGMENT => 3,
            _ => 1,
        }
        .min(rest.len());
        let args = &rest[1..size];
        match op {
            DW_OP_PLUS => out.push(DW_OP_PLUS_UCONST),
            DW_OP_MINUS => out.push(DW_OP_CONSTU),
            _ => out.push(op),
        }
        out.extend_from_slice(args);
        if op == DW_OP_MINUS {
            out.push(DW_OP_MINUS);
        }
        rest = &rest[size..];
    }
    Some(out)
}

/// Whether a module whose expressions include one of layout `version` has its
/// `llvm.dbg.declare` expressions upgraded: layouts 0 and 1 kept a variable's address
/// without a `DW_OP_deref` that the declare of an argument (an aggregate returned through
/// `sret`) had, so a declare of a function argument whose expression starts with
/// `DW_OP_deref` loses it ([`declare_expression`]).
pub fn upgrades_declares(version: u64) -> bool {
    version <= 1
}

/// The expression of an `llvm.dbg.declare` of a function argument in a module that
/// [`upgrades_declares`]: without its leading `DW_OP_deref`; `None` if it has none.
pub fn declare_expression(elements: &[u64]) -> Option<&[u64]> {
    elements.strip_prefix(&[DW_OP_DEREF])
}

/// Whether LLVM's reader strips the debug info of a module whose `Debug Info Version`
/// module flag is `version` (`UpgradeDebugInfo`): unless it is 3 (`None`, no flag, reads
/// as 0). Stripping (`StripDebugInfo`) drops the `llvm.dbg.*` and `llvm.gcov` named
/// metadata, every `!dbg` of functions, instructions and variables, the
/// `heapallocsite` and `DIAssignID` attachments, debug intrinsics' calls and debug
/// records. (LLVM also strips a module its verifier finds broken debug info in; that is
/// not checked here.)
pub fn strips_debug_info(version: Option<u64>) -> bool {
    version != Some(3)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What llvm-dis 13 to 22 print for LLVM's `DIExpression-deref.ll.bc` and
    /// `DIExpression-minus-upgrade.ll.bc`.
    #[test]
    fn old_layouts_read_as_llvm_reads_them() {
        assert_eq!(
            upgraded_expression(1, &[6, 34, 0, 4096, 8, 8]).unwrap(),
            [DW_OP_PLUS_UCONST, 0, DW_OP_DEREF, DW_OP_LLVM_FRAGMENT, 8, 8]
        );
        assert_eq!(upgraded_expression(1, &[6, 34, 0]).unwrap(), [DW_OP_PLUS_UCONST, 0, DW_OP_DEREF]);
        assert_eq!(upgraded_expression(1, &[34, 1, 6]).unwrap(), [DW_OP_PLUS_UCONST, 1, DW_OP_DEREF]);
        assert_eq!(upgraded_expression(2, &[28, 42]).unwrap(), [DW_OP_CONSTU, 42, DW_OP_MINUS]);
        assert_eq!(upgraded_expression(0, &[157, 8, 8]).unwrap(), [DW_OP_LLVM_FRAGMENT, 8, 8]);
        // Truncated: no more elements than were there.
        assert_eq!(upgraded_expression(2, &[34]).unwrap(), [DW_OP_PLUS_UCONST]);
        assert_eq!(upgraded_expression(3, &[34, 1]), None);
        assert_eq!(declare_expression(&[6]), Some(&[][..]));
        assert_eq!(declare_expression(&[35, 8]), None);
    }
}
