//! Instruction opcodes of LLVM 1.x (`include/llvm/Instruction.def`), numbered as from
//! LLVM 1.4 on; [`Rules::opcode`](super::Rules::opcode) maps older files' numbers, and
//! version 6's (LLVM's CVS of late 2006), whose split `div` and `rem` have no 1.4 number
//! ([`Rules::instruction_opcode`](super::Rules::instruction_opcode)).

use core::fmt;

/// An instruction or constant-expression opcode. The numbers are LLVM 1.4's; the six
/// opcodes of version 6 that replaced `div` and `rem` have version 6's.
///
/// The pseudo-opcodes 56 to 63 of the format (a call or invoke with its calling
/// convention or `tail` folded in, a volatile load or store) are decoded to their base
/// opcode here, with the modifier on the [`Instruction`](super::Instruction).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum Opcode {
    /// 1: `ret`.
    Ret,
    /// 2: `br`.
    Br,
    /// 3: `switch`.
    Switch,
    /// 4: `invoke`.
    Invoke,
    /// 5: `unwind`.
    Unwind,
    /// 6: `unreachable` (LLVM 1.4 on).
    Unreachable,
    /// 7: `add`.
    Add,
    /// 8: `sub`.
    Sub,
    /// 9: `mul`.
    Mul,
    /// 10: `div`.
    Div,
    /// 11: `rem`.
    Rem,
    /// `udiv` (version 6: 10): `div` reading its operands as unsigned.
    UDiv,
    /// `sdiv` (version 6: 11): `div` reading its operands as signed.
    SDiv,
    /// `fdiv` (version 6: 12): floating-point `div`.
    FDiv,
    /// `urem` (version 6: 13): `rem` reading its operands as unsigned.
    URem,
    /// `srem` (version 6: 14): `rem` reading its operands as signed.
    SRem,
    /// `frem` (version 6: 15): floating-point `rem`.
    FRem,
    /// 12: `and`.
    And,
    /// 13: `or`.
    Or,
    /// 14: `xor`.
    Xor,
    /// 15: `seteq`.
    SetEq,
    /// 16: `setne`.
    SetNe,
    /// 17: `setle`.
    SetLe,
    /// 18: `setge`.
    SetGe,
    /// 19: `setlt`.
    SetLt,
    /// 20: `setgt`.
    SetGt,
    /// 21: `malloc`.
    Malloc,
    /// 22: `free`.
    Free,
    /// 23: `alloca`.
    Alloca,
    /// 24: `load`.
    Load,
    /// 25: `store`.
    Store,
    /// 26: `getelementptr`.
    GetElementPtr,
    /// 27: `phi`.
    Phi,
    /// 28: `cast`.
    Cast,
    /// 29: `call`.
    Call,
    /// 30: `shl`.
    Shl,
    /// 31: `shr`.
    Shr,
    /// 32: `vanext` (LLVM 1.5 and before: the next `va_list` after an argument).
    VaNext,
    /// 33: `vaarg` of LLVM 1.5 and before (its operand is the `va_list` itself).
    VaArgOld,
    /// 34: `select` (LLVM 1.2 on).
    Select,
    /// 35: `userop1`, never written by LLVM.
    UserOp1,
    /// 36: `userop2`, never written by LLVM.
    UserOp2,
    /// 37: `va_arg`, LLVM 1.6's new `vaarg` (its operand points to the `va_list`).
    VaArg,
    /// 38: `extractelement` (LLVM 1.7 on).
    ExtractElement,
    /// 39: `insertelement` (LLVM 1.7 on).
    InsertElement,
    /// 40: `shufflevector` (LLVM 1.7 on).
    ShuffleVector,
    /// Any other number, kept as read (after the 1.4 renumbering).
    Unknown(u32),
}

impl Opcode {
    /// The opcode with this number (LLVM 1.4's numbering; 56 to 63 are not opcodes). Never
    /// one of version 6's split `div` and `rem`, which have no 1.4 number.
    pub const fn from_number(n: u32) -> Opcode {
        use Opcode::*;
        match n {
            1 => Ret,
            2 => Br,
            3 => Switch,
            4 => Invoke,
            5 => Unwind,
            6 => Unreachable,
            7 => Add,
            8 => Sub,
            9 => Mul,
            10 => Div,
            11 => Rem,
            12 => And,
            13 => Or,
            14 => Xor,
            15 => SetEq,
            16 => SetNe,
            17 => SetLe,
            18 => SetGe,
            19 => SetLt,
            20 => SetGt,
            21 => Malloc,
            22 => Free,
            23 => Alloca,
            24 => Load,
            25 => Store,
            26 => GetElementPtr,
            27 => Phi,
            28 => Cast,
            29 => Call,
            30 => Shl,
            31 => Shr,
            32 => VaNext,
            33 => VaArgOld,
            34 => Select,
            35 => UserOp1,
            36 => UserOp2,
            37 => VaArg,
            38 => ExtractElement,
            39 => InsertElement,
            40 => ShuffleVector,
            other => Unknown(other),
        }
    }

    /// The mnemonic, as the LLVM 1.x assembly wrote it (`setlt`, `getelementptr`), and
    /// the assembly of version 6's time (`udiv`).
    pub const fn name(self) -> &'static str {
        use Opcode::*;
        match self {
            Ret => "ret",
            Br => "br",
            Switch => "switch",
            Invoke => "invoke",
            Unwind => "unwind",
            Unreachable => "unreachable",
            Add => "add",
            Sub => "sub",
            Mul => "mul",
            Div => "div",
            Rem => "rem",
            UDiv => "udiv",
            SDiv => "sdiv",
            FDiv => "fdiv",
            URem => "urem",
            SRem => "srem",
            FRem => "frem",
            And => "and",
            Or => "or",
            Xor => "xor",
            SetEq => "seteq",
            SetNe => "setne",
            SetLe => "setle",
            SetGe => "setge",
            SetLt => "setlt",
            SetGt => "setgt",
            Malloc => "malloc",
            Free => "free",
            Alloca => "alloca",
            Load => "load",
            Store => "store",
            GetElementPtr => "getelementptr",
            Phi => "phi",
            Cast => "cast",
            Call => "call",
            Shl => "shl",
            Shr => "shr",
            VaNext => "vanext",
            VaArgOld => "vaarg",
            // LLVM 1.6's `Instruction::getOpcodeName` (and its assembler) named the new
            // instruction `va_arg`; `vaarg` read as the old one.
            VaArg => "va_arg",
            Select => "select",
            UserOp1 => "userop1",
            UserOp2 => "userop2",
            ExtractElement => "extractelement",
            InsertElement => "insertelement",
            ShuffleVector => "shufflevector",
            Unknown(_) => "<unknown opcode>",
        }
    }

    /// Whether the opcode ends a basic block.
    pub const fn is_terminator(self) -> bool {
        matches!(
            self,
            Opcode::Ret | Opcode::Br | Opcode::Switch | Opcode::Invoke | Opcode::Unwind | Opcode::Unreachable
        )
    }

    /// Whether it is a binary operator (`add` to `xor`, version 6's `udiv` to `frem`, and
    /// the `set*` comparisons).
    pub const fn is_binary(self) -> bool {
        matches!(
            self,
            Opcode::Add
                | Opcode::Sub
                | Opcode::Mul
                | Opcode::Div
                | Opcode::Rem
                | Opcode::UDiv
                | Opcode::SDiv
                | Opcode::FDiv
                | Opcode::URem
                | Opcode::SRem
                | Opcode::FRem
                | Opcode::And
                | Opcode::Or
                | Opcode::Xor
                | Opcode::SetEq
                | Opcode::SetNe
                | Opcode::SetLe
                | Opcode::SetGe
                | Opcode::SetLt
                | Opcode::SetGt
        )
    }

    /// Whether it is a `set*` comparison (its result is `bool`).
    pub const fn is_comparison(self) -> bool {
        matches!(self, Opcode::SetEq | Opcode::SetNe | Opcode::SetLe | Opcode::SetGe | Opcode::SetLt | Opcode::SetGt)
    }
}

impl fmt::Display for Opcode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Opcode::Unknown(n) => write!(f, "<opcode {n}>"),
            other => f.write_str(other.name()),
        }
    }
}
