//! The names of LLVM's instruction opcodes, predicates and orderings by number, as
//! `AsmWriter` spells them: the one table each, for the body decoder's accessors, the
//! constant-expression printer and the instruction printer.

/// A `CmpInst::Predicate`: whether it is an integer predicate, and its name.
pub(crate) fn predicate(pred: u64) -> Option<(bool, &'static str)> {
    const FLOAT: [&str; 16] = [
        "false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "uno", "ueq", "ugt", "uge", "ult", "ule", "une",
        "true",
    ];
    const INT: [&str; 10] = ["eq", "ne", "ugt", "uge", "ult", "ule", "sgt", "sge", "slt", "sle"];
    match pred {
        0..=15 => Some((false, FLOAT[pred as usize])),
        32..=41 => Some((true, INT[pred as usize - 32])),
        _ => None,
    }
}

/// The name of a `CastOpcodes` number (`trunc`, `bitcast`, …), or `<unknown cast>`.
pub fn cast_op_name(opcode: u32) -> &'static str {
    match opcode {
        0 => "trunc",
        1 => "zext",
        2 => "sext",
        3 => "fptoui",
        4 => "fptosi",
        5 => "uitofp",
        6 => "sitofp",
        7 => "fptrunc",
        8 => "fpext",
        9 => "ptrtoint",
        10 => "inttoptr",
        11 => "bitcast",
        12 => "addrspacecast",
        13 => "ptrtoaddr",
        _ => "<unknown cast>",
    }
}

/// The name of a `BinaryOpcodes` number for an integer (`add`) or floating-point
/// (`fadd`) operand.
pub fn binary_op_name(opcode: u32, float: bool) -> &'static str {
    const INT: [&str; 13] =
        ["add", "sub", "mul", "udiv", "sdiv", "urem", "srem", "shl", "lshr", "ashr", "and", "or", "xor"];
    const FLOAT: [&str; 7] = ["fadd", "fsub", "fmul", "<bad>", "fdiv", "<bad>", "frem"];
    if float {
        FLOAT.get(opcode as usize).copied().unwrap_or("<unknown binop>")
    } else {
        INT.get(opcode as usize).copied().unwrap_or("<unknown binop>")
    }
}

/// The name of a `CmpInst::Predicate` (`eq`, `olt`, …).
pub fn predicate_name(code: u32) -> &'static str {
    predicate(u64::from(code)).map_or("<unknown predicate>", |(_, n)| n)
}

/// The name of an `RMWOperations` number (`xchg`, `add`, …).
pub fn rmw_op_name(opcode: u32) -> &'static str {
    const NAMES: [&str; 23] = [
        "xchg",
        "add",
        "sub",
        "and",
        "nand",
        "or",
        "xor",
        "max",
        "min",
        "umax",
        "umin",
        "fadd",
        "fsub",
        "fmax",
        "fmin",
        "uinc_wrap",
        "udec_wrap",
        "usub_cond",
        "usub_sat",
        "fmaximum",
        "fminimum",
        "fmaximumnum", // 21, LLVM 23 (`AtomicRMWInst::getOperationName`)
        "fminimumnum", // 22, LLVM 23
    ];
    NAMES.get(opcode as usize).copied().unwrap_or("<unknown atomicrmw operation>")
}
