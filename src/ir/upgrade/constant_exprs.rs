//! Constant expressions LLVM no longer has: from LLVM 15 on, its reader turns each one an
//! instruction uses into instructions (named `%constexpr`, `%constexpr1`, …) placed just
//! before that instruction, or into the edge block `phi.constexpr` for a `phi`. A value
//! as metadata that is one becomes `undef` (`poison` from LLVM 20).

use crate::ids::llvm_ir::raw::CST_CODE_CE_CMP;
use crate::ir::module::constants::ConstantKind;

/// Whether LLVM `llvm_version`'s reader keeps a constant expression of this kind as a
/// constant when its operands are constants (`isConstExprSupported`); `is_float` says
/// whether a binary expression's operands are floating point (`fadd` is `add` in the
/// file). Other constants (numbers, aggregates, `blockaddress`, …) are always kept.
///
/// What each version dropped, from its release notes, checked with llvm-dis 15, 16, 19
/// and 22 on a file of every kind: `udiv`, `sdiv`, `urem`, `srem` and the floating-point
/// binary operators from 15; `fneg` from 16; `select` from 17; `and`, `or`, `lshr`,
/// `ashr`, `zext`, `sext` and the floating-point casts from 18; `shl`, `icmp` and `fcmp`
/// from 19; `mul` from 20. `add`, `sub`, `xor`, `trunc`, the pointer casts,
/// `getelementptr` and the vector expressions stay.
pub fn keeps_constant_expression(kind: &ConstantKind, is_float: bool, llvm_version: u32) -> bool {
    let dropped_in = match *kind {
        ConstantKind::Binary { .. } if is_float => 15,
        // udiv, sdiv, urem, srem
        ConstantKind::Binary { opcode: 3..=6, .. } => 15,
        // lshr, ashr, and, or
        ConstantKind::Binary { opcode: 8..=11, .. } => 18,
        // shl
        ConstantKind::Binary { opcode: 7, .. } => 19,
        // mul
        ConstantKind::Binary { opcode: 2, .. } => 20,
        // zext, sext, fptoui, fptosi, uitofp, sitofp, fptrunc, fpext
        ConstantKind::Cast { opcode: 1..=8, .. } => 18,
        ConstantKind::Unary { .. } => 16,
        ConstantKind::Select { .. } => 17,
        ConstantKind::Expression { code: CST_CODE_CE_CMP, .. } => 19,
        // add, sub, xor, trunc, the pointer casts, getelementptr, the vector expressions,
        // and every constant that is no expression.
        _ => return true,
    };
    llvm_version < dropped_in
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_drop_what_llvm_dis_expands() {
        let binary = |opcode| ConstantKind::Binary { opcode, lhs: 0, rhs: 0, flags: 0 };
        let cast = |opcode| ConstantKind::Cast { opcode, operand: 0, from: crate::ir::TypeId(0) };
        // udiv: kept by 14, expanded by 15.
        assert!(keeps_constant_expression(&binary(3), false, 14));
        assert!(!keeps_constant_expression(&binary(3), false, 15));
        // fadd from 15; add never.
        assert!(!keeps_constant_expression(&binary(0), true, 15));
        assert!(keeps_constant_expression(&binary(0), false, 22));
        // and: kept by 16, not by 19; mul kept by 19, not by 22.
        assert!(keeps_constant_expression(&binary(10), false, 16));
        assert!(!keeps_constant_expression(&binary(10), false, 19));
        assert!(keeps_constant_expression(&binary(2), false, 19));
        assert!(!keeps_constant_expression(&binary(2), false, 22));
        // sext from 18, ptrtoint always.
        assert!(!keeps_constant_expression(&cast(2), false, 19));
        assert!(keeps_constant_expression(&cast(9), false, 22));
        assert!(keeps_constant_expression(&ConstantKind::Unary { opcode: 0, operand: 0 }, false, 15));
        assert!(!keeps_constant_expression(&ConstantKind::Unary { opcode: 0, operand: 0 }, false, 16));
    }
}
