//! Module-level constants: every record of the module's CONSTANTS_BLOCKs decoded into a
//! flat table (printed by `print::constants`).
//!
//! ```
//! use llvm_bitstream_reader::ir::Module;
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/llvm14_ir_globals.bc"))?;
//! let module = Module::parse(&bytes)?;
//! let constants = module.constants()?;
//! for g in module.globals.iter().filter(|g| g.initializer.is_some()) {
//!     let init = g.initializer.unwrap_or_default();
//!     println!("@{} = {}", g.common.name_str(), constants.display(&module, init, true));
//! }
//! # Ok(()) }
//! ```
//!
//! This is the first part of function bodies (issue 19): the module's constants, which
//! global initializers, aliasees and function bodies refer to. Value ids below
//! [`ModuleConstants::base`] are global values; ids from there on are the constants in
//! record order. Storage is flat: one [`Constant`] per value, and the operand lists of
//! aggregates, expressions and data arrays in one shared vector ([`OperandRange`]), so
//! decoding allocates per table, not per constant. Unknown record codes are kept
//! ([`ConstantKind::Unknown`]), never an error.

use alloc::vec::Vec;
use core::ops::Range;

use crate::error::Error;
use crate::ids::llvm_ir::raw as ids;
use crate::ir::module::Module;
use crate::ir::module::types::TypeId;
use crate::reader::{Entry, Reader};
use crate::record::decode_sign_rotated as decode_signed;

/// A range of [`ModuleConstants::operands`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct OperandRange {
    /// The first index.
    pub start: u32,
    /// How many.
    pub len: u32,
}

impl OperandRange {
    pub(crate) fn range(self) -> Range<usize> {
        self.start as usize..self.start as usize + self.len as usize
    }
}

/// What a constant is. Value operands are absolute value ids (module-level constants
/// refer to each other and to global values by absolute id in every bitcode version).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub enum ConstantKind {
    /// `null`, `zeroinitializer`, `0`, `0.0`: CST_CODE_NULL.
    Null,
    /// `undef`.
    Undef,
    /// `poison`.
    Poison,
    /// An integer of at most 64 bits (sign-rotated in the file, decoded).
    Int(i64),
    /// A wider integer: its 64-bit words, least significant first, in the operands.
    WideInt(OperandRange),
    /// A value of a byte type (`b8 5`; LLVM 23's CST_CODE_BYTE, LLVM's `ConstantByte`) of
    /// at most 64 bits, sign-rotated in the file, decoded; of a vector of bytes, the splat
    /// (`splat (b8 5)`).
    Byte(i64),
    /// A wider byte value (LLVM 23's CST_CODE_WIDE_BYTE): its 64-bit words, least
    /// significant first, in the operands.
    WideByte(OperandRange),
    /// A floating-point value's bits: `lo` (and `hi` for x86_fp80, fp128, ppc_fp128).
    Float {
        /// The low 64 bits (all of them for half, bfloat, float and double).
        lo: u64,
        /// The high bits of the 80- and 128-bit formats.
        hi: u64,
    },
    /// An array, struct or vector of the operand value ids.
    Aggregate(OperandRange),
    /// An array of `i8` from CST_CODE_STRING (its bytes in the operands, one per
    /// operand), or CST_CODE_CSTRING when `nul` (a terminating zero is implied).
    String {
        /// The bytes.
        bytes: OperandRange,
        /// CSTRING: followed by an implied 0.
        nul: bool,
    },
    /// CST_CODE_DATA: an array or vector of integers or floats, raw element values in the
    /// operands.
    Data(OperandRange),
    /// A cast expression (`bitcast (ptr @g to i64)`).
    Cast {
        /// The `CAST_*` opcode.
        opcode: u32,
        /// The operand's value id.
        operand: u64,
        /// The operand's type.
        from: TypeId,
    },
    /// A binary expression.
    Binary {
        /// The `BINOP_*` opcode.
        opcode: u32,
        /// The left operand.
        lhs: u64,
        /// The right operand.
        rhs: u64,
        /// `nuw`/`nsw` or `exact` bits.
        flags: u64,
    },
    /// A unary expression (`fneg`).
    Unary {
        /// The `UNOP_*` opcode.
        opcode: u32,
        /// The operand.
        operand: u64,
    },
    /// A `getelementptr` expression: operands are (type, value id) pairs, base first.
    Gep {
        /// The source element type (absent in files before LLVM 3.7).
        source: Option<TypeId>,
        /// `inbounds` (bit 0), `nusw` (bit 1), `nuw` (bit 2), as GEP flags are written.
        flags: u64,
        /// The `inrange` index of LLVM 3.9-18 (`CE_GEP_WITH_INRANGE_INDEX_OLD`).
        inrange_index: Option<u64>,
        /// The `inrange(lower, upper)` byte range of LLVM 19 and later
        /// (`CE_GEP_WITH_INRANGE`, ranges of at most 64 bits).
        inrange: Option<(i64, i64)>,
        /// (type, value id) pairs.
        operands: OperandRange,
    },
    /// `select`.
    Select {
        /// The condition.
        condition: u64,
        /// If true.
        on_true: u64,
        /// If false.
        on_false: u64,
    },
    /// `extractelement`, `insertelement`, `shufflevector`, `icmp`/`fcmp`, and the other
    /// expressions kept with their operands as recorded (code, operand values).
    Expression {
        /// The CST_CODE_CE_* code.
        code: u32,
        /// The record's operands.
        operands: OperandRange,
    },
    /// `blockaddress(@function, %block)`.
    BlockAddress {
        /// The function's value id.
        function: u64,
        /// The basic block's number in the function.
        block: u64,
    },
    /// `dso_local_equivalent @f`.
    DsoLocalEquivalent(u64),
    /// `no_cfi @f`.
    NoCfi(u64),
    /// Inline asm and `ptrauth`, kept with their operands as recorded.
    Other {
        /// The record code.
        code: u32,
        /// The record's operands.
        operands: OperandRange,
    },
    /// A record code this crate does not know, kept with its operands.
    Unknown {
        /// The record code.
        code: u32,
        /// The record's operands.
        operands: OperandRange,
    },
}

impl ConstantKind {
    /// Whether it is the zero of its type: an integer 0 or a null (`zeroinitializer`, a
    /// null pointer), as GEP indices and folds ask.
    pub(crate) fn is_zero(&self) -> bool {
        matches!(self, ConstantKind::Int(0) | ConstantKind::Byte(0) | ConstantKind::Null)
    }

    /// Whether it is a constant expression (LLVM's `ConstantExpr`: a cast, an operator,
    /// a `getelementptr`, a `select`, a compare or a vector operation), which `llvm-dis`
    /// prints without its type where an aliasee or resolver stands.
    pub fn is_expression(&self) -> bool {
        matches!(
            self,
            ConstantKind::Cast { .. }
                | ConstantKind::Binary { .. }
                | ConstantKind::Unary { .. }
                | ConstantKind::Gep { .. }
                | ConstantKind::Select { .. }
                | ConstantKind::Expression { .. }
        )
    }
}

/// One constant: its type and what it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct Constant {
    /// Its type (the CONSTANTS_BLOCK's current SETTYPE).
    pub ty: TypeId,
    /// What it is.
    pub kind: ConstantKind,
    /// The bit offset of its record.
    pub bit: u64,
}

/// The module-level constants of a module, decoded ([`Module::constants`]). Value ids
/// below [`base`](Self::base) are global values; ids from there on are the constants
/// in record order. One [`Constant`] per value, and the operand lists of aggregates,
/// expressions and data arrays in one shared vector ([`OperandRange`] ranges into it), so
/// decoding allocates per table, not per constant.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ModuleConstants {
    /// The value id of the first constant (the number of global values before it).
    pub base: u64,
    /// The constants, in value-id order from `base`.
    pub constants: Vec<Constant>,
    /// The operand lists the constants' [`OperandRange`] ranges point into.
    pub operands: Vec<u64>,
    /// Constants LLVM's reader makes that the file does not hold, in a view's table only
    /// ([`ModuleView::constants`](crate::ir::ModuleView::constants)): the `ptrtoint` it puts
    /// under an upgraded `bitcast` between address spaces. Empty in a file's table.
    pub made: Vec<Constant>,
    /// The value id of `made`'s first constant, far above the file's ids.
    pub made_base: u64,
}

impl Module<'_> {
    /// Decodes the module-level constants (every CONSTANTS_BLOCK of the module block):
    /// what global initializers, aliasees and function bodies refer to. Unknown record
    /// codes are kept ([`ConstantKind::Unknown`]); an error names the record that broke,
    /// with its bit offset.
    ///
    /// ```
    /// use llvm_bitstream_reader::ir::Module;
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/llvm14_ir_globals.bc"))?;
    /// let module = Module::parse(&bytes)?;
    /// let constants = module.constants()?;
    /// for g in &module.globals {
    ///     if let Some(init) = g.initializer {
    ///         // As llvm-dis 14 prints it: typed pointers (`i8*`).
    ///         println!("@{} = {}", g.common.name_str(), constants.display(&module, init, false));
    ///     }
    /// }
    /// # Ok(()) }
    /// ```
    pub fn constants(&self) -> Result<ModuleConstants, Error> {
        // Without a CONSTANTS_BLOCK the values after the global values are a function's.
        let base = if self.constants_blocks.is_empty() { self.values.len() as u64 } else { self.constants_base };
        let mut table = ModuleConstants { base, ..ModuleConstants::default() };
        for block in &self.constants_blocks {
            let mut reader = block.reader()?;
            reader.advance()?;
            read_block(&mut reader, &mut table)?;
        }
        Ok(table)
    }
}

fn push_ops(operands: &mut Vec<u64>, values: impl IntoIterator<Item = u64>) -> OperandRange {
    let start = operands.len();
    operands.extend(values);
    OperandRange { start: start as u32, len: (operands.len() - start) as u32 }
}

/// Reads the CONSTANTS_BLOCK just entered (the module's, or a function's) onto `table`,
/// every record decoded.
pub(crate) fn read_block(reader: &mut Reader<'_>, table: &mut ModuleConstants) -> Result<(), Error> {
    // LLVM starts each block with i32 as the current type; every block sets one first.
    let mut ty = TypeId(0);
    while let Some(entry) = reader.advance_skipping_subblocks()? {
        let Entry::Record { bit, .. } = entry else { continue };
        let r = reader.read_record()?;
        let ops = r.operand_slice();
        if r.code() == ids::CST_CODE_SETTYPE {
            ty = TypeId(ops.first().copied().unwrap_or(0) as u32);
            continue;
        }
        let kind = decode_record(r.code(), ops, &mut table.operands);
        table.constants.push(Constant { ty, kind, bit });
    }
    Ok(())
}

/// The one decoder of a CONSTANTS_BLOCK record: what the constant of record `code` with
/// operands `ops` is, its operand lists appended to `operands` (which its [`OperandRange`]
/// ranges then point into). Every record but SETTYPE is a value; SETTYPE, which sets the
/// type of those after it, is the caller's to follow.
pub(crate) fn decode_record(code: u32, ops: &[u64], operands: &mut Vec<u64>) -> ConstantKind {
    let op = |i: usize| ops.get(i).copied().unwrap_or(0);
    match code {
        ids::CST_CODE_NULL => ConstantKind::Null,
        ids::CST_CODE_UNDEF => ConstantKind::Undef,
        ids::CST_CODE_POISON => ConstantKind::Poison,
        ids::CST_CODE_INTEGER if !ops.is_empty() => ConstantKind::Int(decode_signed(op(0))),
        ids::CST_CODE_WIDE_INTEGER => {
            ConstantKind::WideInt(push_ops(operands, ops.iter().map(|&w| decode_signed(w) as u64)))
        }
        // [byteval], [n x byteval]: CST_CODE_INTEGER's layouts (LLVM 23's BitcodeReader).
        ids::CST_CODE_BYTE if !ops.is_empty() => ConstantKind::Byte(decode_signed(op(0))),
        ids::CST_CODE_WIDE_BYTE if !ops.is_empty() => {
            ConstantKind::WideByte(push_ops(operands, ops.iter().map(|&w| decode_signed(w) as u64)))
        }
        ids::CST_CODE_FLOAT if !ops.is_empty() => ConstantKind::Float { lo: op(0), hi: op(1) },
        ids::CST_CODE_AGGREGATE => ConstantKind::Aggregate(push_ops(operands, ops.iter().copied())),
        ids::CST_CODE_STRING | ids::CST_CODE_CSTRING => {
            ConstantKind::String { bytes: push_ops(operands, ops.iter().copied()), nul: code == ids::CST_CODE_CSTRING }
        }
        ids::CST_CODE_DATA => ConstantKind::Data(push_ops(operands, ops.iter().copied())),
        // [opcode, opty, opval]
        ids::CST_CODE_CE_CAST if ops.len() >= 3 => {
            ConstantKind::Cast { opcode: op(0) as u32, from: TypeId(op(1) as u32), operand: op(2) }
        }
        // [opcode, lhs, rhs, flags?]
        ids::CST_CODE_CE_BINOP if ops.len() >= 3 => {
            ConstantKind::Binary { opcode: op(0) as u32, lhs: op(1), rhs: op(2), flags: op(3) }
        }
        ids::CST_CODE_CE_UNOP if ops.len() >= 2 => ConstantKind::Unary { opcode: op(0) as u32, operand: op(1) },
        ids::CST_CODE_CE_GEP_OLD
        | ids::CST_CODE_CE_INBOUNDS_GEP
        | ids::CST_CODE_CE_GEP
        | ids::CST_CODE_CE_GEP_WITH_INRANGE_INDEX_OLD
        | ids::CST_CODE_CE_GEP_WITH_INRANGE => decode_gep(code, ops, operands),
        ids::CST_CODE_CE_SELECT if ops.len() >= 3 => {
            ConstantKind::Select { condition: op(0), on_true: op(1), on_false: op(2) }
        }
        ids::CST_CODE_BLOCKADDRESS if ops.len() >= 3 => ConstantKind::BlockAddress { function: op(1), block: op(2) },
        ids::CST_CODE_DSO_LOCAL_EQUIVALENT if ops.len() >= 2 => ConstantKind::DsoLocalEquivalent(op(1)),
        ids::CST_CODE_NO_CFI_VALUE if ops.len() >= 2 => ConstantKind::NoCfi(op(1)),
        ids::CST_CODE_CE_EXTRACTELT
        | ids::CST_CODE_CE_INSERTELT
        | ids::CST_CODE_CE_SHUFFLEVEC
        | ids::CST_CODE_CE_SHUFVEC_EX
        | ids::CST_CODE_CE_CMP => ConstantKind::Expression { code, operands: push_ops(operands, ops.iter().copied()) },
        ids::CST_CODE_INLINEASM_OLD
        | ids::CST_CODE_INLINEASM_OLD2
        | ids::CST_CODE_INLINEASM_OLD3
        | ids::CST_CODE_INLINEASM
        | ids::CST_CODE_PTRAUTH
        | ids::CST_CODE_PTRAUTH2 => ConstantKind::Other { code, operands: push_ops(operands, ops.iter().copied()) },
        // Known codes with too few operands, and codes of newer LLVMs: kept.
        _ => ConstantKind::Unknown { code, operands: push_ops(operands, ops.iter().copied()) },
    }
}

/// The GEP records: `CE_GEP_OLD`/`CE_INBOUNDS_GEP` [pointee type if the count is odd,
/// (type, value)…]; `CE_GEP_WITH_INRANGE_INDEX_OLD` [pointee type, flags, (type,
/// value)…] with the inrange index in the flags' upper bits; `CE_GEP` [pointee type,
/// flags, (type, value)…].
fn decode_gep(code: u32, ops: &[u64], operands: &mut Vec<u64>) -> ConstantKind {
    let mut inrange = None;
    let (source, flags, inrange_index, pairs) = match code {
        ids::CST_CODE_CE_GEP_OLD | ids::CST_CODE_CE_INBOUNDS_GEP => {
            let inbounds = u64::from(code == ids::CST_CODE_CE_INBOUNDS_GEP);
            if ops.len() % 2 == 1 {
                (Some(TypeId(ops[0] as u32)), inbounds, None, &ops[1..])
            } else {
                (None, inbounds, None, ops)
            }
        }
        ids::CST_CODE_CE_GEP_WITH_INRANGE_INDEX_OLD if ops.len() >= 2 => {
            let op = ops[1];
            // The writer's `(index << 1) | inbounds`: the index counts the GEP's indices,
            // the base pointer not included.
            (Some(TypeId(ops[0] as u32)), op & 1, Some(op >> 1), &ops[2..])
        }
        // [pointee type, flags, range width, lower, upper, (type, value)…]; wider ranges
        // (their words counted in one field) are kept unread.
        ids::CST_CODE_CE_GEP_WITH_INRANGE if ops.len() >= 5 && ops[2] <= 64 => {
            inrange = Some((decode_signed(ops[3]), decode_signed(ops[4])));
            (Some(TypeId(ops[0] as u32)), ops[1], None, &ops[5..])
        }
        _ if ops.len() >= 2 && code != ids::CST_CODE_CE_GEP_WITH_INRANGE => {
            let flags = ops[1];
            // CE_GEP's flags: bit 0 inbounds, bit 1 nusw, bit 2 nuw (LLVM 19); LLVM 17-18
            // wrote 0/1 for inbounds only, which reads the same.
            (Some(TypeId(ops[0] as u32)), flags, None, &ops[2..])
        }
        _ => return ConstantKind::Unknown { code, operands: push_ops(operands, ops.iter().copied()) },
    };
    ConstantKind::Gep { source, flags, inrange_index, inrange, operands: push_ops(operands, pairs.iter().copied()) }
}

/// Inline asm (a call's callee) as its record gives it: see [`Constant::inline_asm`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InlineAsm {
    /// Bit 0 `sideeffect`, bit 1 `alignstack`, bit 2 the Intel dialect, bit 3 `unwind`.
    pub flags: u64,
    /// The assembly text.
    pub asm: Vec<u8>,
    /// The constraint string (`=r,r,~{memory}`).
    pub constraints: Vec<u8>,
}

impl Constant {
    /// Its flags, text and constraints if it is inline asm, read from the layout of each
    /// of the record's versions: INLINEASM_OLD [flags, asm size, asm…, constraints size,
    /// constraints…] (OLD2 and OLD3 alike, with more flags), INLINEASM [function type,
    /// flags, …]. `None` for any other constant, or a record too short for its sizes.
    pub fn inline_asm(&self, table: &ModuleConstants) -> Option<InlineAsm> {
        let ConstantKind::Other { code, operands } = self.kind else { return None };
        if !self.is_inline_asm() {
            return None;
        }
        let ops = table.operands(operands);
        let ops = if code == ids::CST_CODE_INLINEASM { ops.get(1..).unwrap_or(&[]) } else { ops };
        let flags = ops.first().copied().unwrap_or(0);
        // A size, then that many characters, one per operand.
        let text = |start: usize| -> Option<(Vec<u8>, usize)> {
            let len = usize::try_from(*ops.get(start)?).ok()?;
            let chars = ops.get(start + 1..start.checked_add(1)?.checked_add(len)?)?;
            Some((chars.iter().map(|&c| c as u8).collect(), start + 1 + len))
        };
        let (asm, next) = text(1)?;
        let (constraints, _) = text(next)?;
        Some(InlineAsm { flags, asm, constraints })
    }

    /// Whether it is inline asm (a call's callee: `asm sideeffect "…", "…"`), in any of
    /// the record's versions.
    pub fn is_inline_asm(&self) -> bool {
        matches!(
            self.kind,
            ConstantKind::Other {
                code: ids::CST_CODE_INLINEASM_OLD
                    | ids::CST_CODE_INLINEASM_OLD2
                    | ids::CST_CODE_INLINEASM_OLD3
                    | ids::CST_CODE_INLINEASM,
                ..
            }
        )
    }
}

/// Where one of a constant's value operands is (see [`ConstantKind::operand_values`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Site {
    /// The kind's own field: a cast's or unary operator's operand (0), a binary
    /// operator's sides (0, 1), a `select`'s condition and values (0, 1, 2), the function
    /// of a `blockaddress`, `dso_local_equivalent` or `no_cfi` (0).
    Field(u8),
    /// An entry of the table's operand lists.
    List(usize),
}

/// The site of `kind`'s value operand `n` (in order), in a table of `len` operands;
/// `None` past the last. An operand list that does not fit the table has none.
fn value_operand_site(kind: &ConstantKind, len: usize, n: usize) -> Option<Site> {
    let list = |r: &OperandRange| {
        let range = r.range();
        if range.end <= len { range } else { 0..0 }
    };
    let field = |count: u8| u8::try_from(n).ok().filter(|&n| n < count).map(Site::Field);
    match kind {
        ConstantKind::Aggregate(r) => list(r).nth(n).map(Site::List),
        ConstantKind::Cast { .. }
        | ConstantKind::Unary { .. }
        | ConstantKind::BlockAddress { .. }
        | ConstantKind::DsoLocalEquivalent(_)
        | ConstantKind::NoCfi(_) => field(1),
        ConstantKind::Binary { .. } => field(2),
        ConstantKind::Select { .. } => field(3),
        // (type, value) pairs: the base, then the indices.
        ConstantKind::Gep { operands: r, .. } => list(r).skip(1).step_by(2).nth(n).map(Site::List),
        ConstantKind::Expression { code, operands: r } => {
            let range = list(r);
            // [opty, lhs, rhs, pred]; [vector type, vector, index type, index]; [vector,
            // element, index type, index]; [v1, v2, mask]; [vector type, v1, v2, mask].
            let at: &[usize] = match (*code, range.len()) {
                (ids::CST_CODE_CE_CMP, 3..) => &[1, 2],
                (ids::CST_CODE_CE_EXTRACTELT, 4..) => &[1, 3],
                (ids::CST_CODE_CE_INSERTELT, 4..) => &[0, 1, 3],
                (ids::CST_CODE_CE_SHUFFLEVEC, 2..) => &[0, 1],
                (ids::CST_CODE_CE_SHUFVEC_EX, 3..) => &[1, 2],
                _ => &[],
            };
            at.get(n).map(|&i| Site::List(range.start + i))
        }
        ConstantKind::Other { code: ids::CST_CODE_PTRAUTH | ids::CST_CODE_PTRAUTH2, operands: r } => {
            list(r).nth(n).map(Site::List)
        }
        _ => None,
    }
}

/// The field [`Site::Field`] `n` names in `kind`.
fn field(kind: &mut ConstantKind, n: u8) -> Option<&mut u64> {
    match (kind, n) {
        (
            ConstantKind::Cast { operand, .. }
            | ConstantKind::Unary { operand, .. }
            | ConstantKind::BlockAddress { function: operand, .. }
            | ConstantKind::DsoLocalEquivalent(operand)
            | ConstantKind::NoCfi(operand),
            0,
        ) => Some(operand),
        (ConstantKind::Binary { lhs, .. }, 0) => Some(lhs),
        (ConstantKind::Binary { rhs, .. }, 1) => Some(rhs),
        (ConstantKind::Select { condition, .. }, 0) => Some(condition),
        (ConstantKind::Select { on_true, .. }, 1) => Some(on_true),
        (ConstantKind::Select { on_false, .. }, 2) => Some(on_false),
        _ => None,
    }
}

/// The value ids of a constant's operands: see [`ConstantKind::operand_values`].
#[derive(Clone, Debug)]
pub struct OperandValues<'t> {
    kind: ConstantKind,
    operands: &'t [u64],
    next: usize,
}

impl Iterator for OperandValues<'_> {
    type Item = u64;

    fn next(&mut self) -> Option<u64> {
        let site = value_operand_site(&self.kind, self.operands.len(), self.next)?;
        self.next += 1;
        Some(match site {
            Site::Field(n) => field(&mut self.kind, n).map_or(0, |v| *v),
            Site::List(i) => self.operands[i],
        })
    }
}

impl ConstantKind {
    /// The value ids of the constant's operands (LLVM's `User::operands()` that are
    /// values), in order: aggregate elements; a cast's or a unary operator's operand;
    /// both sides of a binary one; a `getelementptr`'s base and indices; a `select`'s
    /// three; a compare's two; the vector operations' vectors, elements and indices (a
    /// shuffle's mask is a constant of its own, not one of them); `ptrauth`'s four; the
    /// function of a `blockaddress` (its block is a block number, not a value id),
    /// `dso_local_equivalent` and `no_cfi`. Data arrays, strings and inline asm have
    /// none. `table` holds the operand lists (the table the constant is in: a module's,
    /// a body's, or a view's).
    ///
    /// A value id below the module's [`ModuleConstants::base`] is a global value; one in
    /// a table is a constant of it, whose own operands continue the walk.
    ///
    /// ```
    /// use llvm_bitstream_reader::ir::Module;
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/llvm14_ir_globals.bc"))?;
    /// let module = Module::parse(&bytes)?;
    /// let constants = module.constants()?;
    /// // Every global an initializer names, directly or through nested constants.
    /// let mut named = std::collections::BTreeSet::new();
    /// let mut stack: Vec<u64> = module.globals.iter().filter_map(|g| g.initializer).collect();
    /// while let Some(id) = stack.pop() {
    ///     match constants.get(id) {
    ///         Some(c) => stack.extend(c.kind.operand_values(&constants)),
    ///         None if id < constants.base => {
    ///             named.insert(id);
    ///         }
    ///         None => {}
    ///     }
    /// }
    /// assert!(!named.is_empty());
    /// # Ok(()) }
    /// ```
    pub fn operand_values<'t>(&self, table: &'t ModuleConstants) -> OperandValues<'t> {
        OperandValues { kind: *self, operands: &table.operands, next: 0 }
    }

    /// [`Self::operand_values`], each given to `each`.
    pub(crate) fn value_operands(&self, table: &ModuleConstants, each: impl FnMut(u64)) {
        self.operand_values(table).for_each(each);
    }
}

/// Each value-id operand of a constant (see [`ConstantKind::operand_values`]), to read or
/// rewrite in place: fields of `kind`, or entries of `operands` (the operand lists of
/// the table the constant is in).
pub(crate) fn value_operands_mut(kind: &mut ConstantKind, operands: &mut [u64], mut each: impl FnMut(&mut u64)) {
    let shape = *kind;
    let mut n = 0;
    while let Some(site) = value_operand_site(&shape, operands.len(), n) {
        n += 1;
        match site {
            Site::Field(f) => {
                if let Some(v) = field(kind, f) {
                    each(v)
                }
            }
            Site::List(i) => each(&mut operands[i]),
        }
    }
}

impl ModuleConstants {
    /// The constant with this value id, if it is one.
    pub fn get(&self, value_id: u64) -> Option<&Constant> {
        if !self.made.is_empty() && value_id >= self.made_base {
            return self.made.get(usize::try_from(value_id - self.made_base).ok()?);
        }
        let i = usize::try_from(value_id.checked_sub(self.base)?).ok()?;
        self.constants.get(i)
    }

    /// The operands a range names.
    pub fn operands(&self, range: OperandRange) -> &[u64] {
        self.operands.get(range.range()).unwrap_or(&[])
    }
}

/// What a module-level constant is, as far as symbols need it (`llvm.used` lists,
/// aliasees): the rest is not kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ConstantRef {
    /// A cast of the value with this id.
    Cast(u64),
    /// A GEP whose base is the value with this id.
    Gep(u64),
    /// An aggregate: its element value ids are `Constants::elements[start..start+len]`.
    Aggregate { start: usize, len: usize },
    /// Anything else.
    Other,
}

impl ConstantRef {
    /// What symbols need of the record `code` with operands `ops` (not SETTYPE), decoded
    /// by [`decode_record`]: an aggregate's elements are left at the end of `elements`,
    /// any other operands it appends are taken off again.
    fn of_record(code: u32, ops: &[u64], elements: &mut Vec<u64>) -> Self {
        let before = elements.len();
        let c = match decode_record(code, ops, elements) {
            ConstantKind::Aggregate(r) => {
                return ConstantRef::Aggregate { start: r.start as usize, len: r.len as usize };
            }
            ConstantKind::Cast { operand, .. } => ConstantRef::Cast(operand),
            // The base is the first (type, value) pair's value.
            ConstantKind::Gep { operands, .. } => elements
                .get(operands.range())
                .and_then(|pairs| pairs.get(1))
                .map_or(ConstantRef::Other, |&b| ConstantRef::Gep(b)),
            _ => ConstantRef::Other,
        };
        elements.truncate(before);
        c
    }
}

/// The module-level constants symbols need (see [`Module::constants_for`]), by value id.
#[derive(Default)]
pub(crate) struct Constants {
    /// `(value id, constant)`, sorted by value id.
    pub(crate) refs: Vec<(u64, ConstantRef)>,
    pub(crate) base: u64,
    /// The element value ids of every aggregate read.
    pub(crate) elements: Vec<u64>,
}

/// How many levels of constants [`Module::constants_for`] follows (casts of GEPs of …).
const MAX_CHAIN_WALKS: usize = 64;

impl Constants {
    pub(crate) fn get(&self, value_id: u64) -> Option<ConstantRef> {
        if value_id < self.base {
            return None;
        }
        let i = self.refs.binary_search_by_key(&value_id, |&(id, _)| id).ok()?;
        self.refs.get(i).map(|&(_, c)| c)
    }
}

impl Module<'_> {
    /// Reads the module-level constants that resolving `roots` (value ids) needs: the
    /// constants blocks are skipped when the module is read, and here every record is
    /// skipped by code except those of wanted value ids, which are decoded. A cast's or
    /// GEP's operand and an aggregate's elements are wanted in turn, one walk per level
    /// (at most `MAX_CHAIN_WALKS` walks). A block that cannot be read ends the table
    /// where it broke: symbols then resolve less, nothing fails.
    pub(crate) fn constants_for(&self, roots: impl IntoIterator<Item = u64>) -> Constants {
        let mut table = Constants { base: self.constants_base, ..Constants::default() };
        let first_constant = self.values.len() as u64;
        let mut wanted: Vec<u64> = roots.into_iter().filter(|&v| v >= first_constant).collect();
        for _ in 0..=MAX_CHAIN_WALKS {
            wanted.sort_unstable();
            wanted.dedup();
            wanted.retain(|&v| table.get(v).is_none());
            if wanted.is_empty() {
                break;
            }
            let read_before = table.refs.len();
            self.read_wanted_constants(&wanted, &mut table);
            // The next level: what the constants just read refer to.
            let mut next = Vec::new();
            for &(_, c) in &table.refs[read_before..] {
                match c {
                    ConstantRef::Cast(op) | ConstantRef::Gep(op) => next.push(op),
                    ConstantRef::Aggregate { start, len } => {
                        next.extend_from_slice(table.elements.get(start..start.saturating_add(len)).unwrap_or(&[]))
                    }
                    ConstantRef::Other => {}
                }
            }
            // Ids not found stay unresolved: they are dropped, not looked for again.
            next.retain(|&v| v >= first_constant);
            wanted = next;
            table.refs.sort_unstable_by_key(|&(id, _)| id);
        }
        table
    }

    /// One walk over the constants blocks, decoding the records of the `wanted` (sorted)
    /// value ids into `table` and skipping the rest.
    fn read_wanted_constants(&self, wanted: &[u64], table: &mut Constants) {
        let mut next_id = self.constants_base;
        let mut wanted = wanted.iter().copied().peekable();
        for block in &self.constants_blocks {
            let Ok(mut reader) = block.reader() else { return };
            if reader.advance().is_err() || read_wanted_records(&mut reader, &mut next_id, &mut wanted, table).is_err()
            {
                return;
            }
            if wanted.peek().is_none() {
                return;
            }
        }
    }
}

/// The records of one constants block whose value ids are `wanted`, decoded onto
/// `table`; the others skipped by code, unread (what keeps listing symbols fast).
fn read_wanted_records(
    reader: &mut Reader<'_>,
    next_id: &mut u64,
    wanted: &mut core::iter::Peekable<impl Iterator<Item = u64>>,
    table: &mut Constants,
) -> Result<(), Error> {
    while let Some(entry) = reader.advance_skipping_subblocks()? {
        let Entry::Record { .. } = entry else { continue };
        while wanted.next_if(|&w| w < *next_id).is_some() {}
        let Some(&want) = wanted.peek() else {
            // Nothing more wanted: the rest is not walked.
            return Ok(());
        };
        if want != *next_id {
            // Every record but SETTYPE is a value.
            if reader.skip_record()? != ids::CST_CODE_SETTYPE {
                *next_id += 1;
            }
            continue;
        }
        let r = reader.read_record()?;
        if r.code() == ids::CST_CODE_SETTYPE {
            continue;
        }
        let c = ConstantRef::of_record(r.code(), r.operand_slice(), &mut table.elements);
        table.refs.push((*next_id, c));
        *next_id += 1;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    #[test]
    fn signed_values_decode_as_llvm_decodes_them() {
        assert_eq!(decode_signed(4), 2);
        assert_eq!(decode_signed(5), -2);
        assert_eq!(decode_signed(1), i64::MIN);
    }
    /// The old sparse decoder's GEP base (before the one decoder), for the codes it knew.
    fn old_gep_base(code: u32, ops: &[u64]) -> ConstantRef {
        match code {
            ids::CST_CODE_CE_GEP_OLD | ids::CST_CODE_CE_INBOUNDS_GEP if ops.len() >= 2 => {
                let base = if ops.len() % 2 == 1 { 2 } else { 1 };
                ops.get(base).map_or(ConstantRef::Other, |&b| ConstantRef::Gep(b))
            }
            ids::CST_CODE_CE_GEP_WITH_INRANGE_INDEX_OLD | ids::CST_CODE_CE_GEP if ops.len() >= 4 => {
                ConstantRef::Gep(ops[3])
            }
            _ => ConstantRef::Other,
        }
    }

    #[test]
    fn gep_bases_are_what_the_sparse_decoder_found() {
        let codes = [
            ids::CST_CODE_CE_GEP_OLD,
            ids::CST_CODE_CE_INBOUNDS_GEP,
            ids::CST_CODE_CE_GEP_WITH_INRANGE_INDEX_OLD,
            ids::CST_CODE_CE_GEP,
        ];
        for code in codes {
            for len in 0..10 {
                let ops: Vec<u64> = (100..100 + len).collect();
                let mut elements = vec![7];
                let c = ConstantRef::of_record(code, &ops, &mut elements);
                assert_eq!(c, old_gep_base(code, &ops), "code {code}, {len} operands");
                // Only aggregates keep operands.
                assert_eq!(elements, [7]);
            }
        }
    }

    /// CE_GEP_WITH_INRANGE (LLVM 19 and later): [pointee type, flags, range width, lower,
    /// upper, (type, value)…]; the base is the first pair's value, as for every GEP.
    #[test]
    fn an_inrange_gep_gives_its_base() {
        let mut elements = Vec::new();
        // `getelementptr inrange(-16, 16) ({ [4 x ptr] }, ptr @vt, i64 0, i32 0, i64 2)`,
        // @vt value 0, as llvm-as 19 writes it.
        let ops = [2, 0, 64, 33, 32, 0, 0, 6, 8, 7, 9, 6, 10];
        assert_eq!(ConstantRef::of_record(ids::CST_CODE_CE_GEP_WITH_INRANGE, &ops, &mut elements), ConstantRef::Gep(0));
        let ops = [5, 0, 64, 0, 2, 0, 1, 6, 12];
        assert_eq!(ConstantRef::of_record(ids::CST_CODE_CE_GEP_WITH_INRANGE, &ops, &mut elements), ConstantRef::Gep(1));
        // A range wider than 64 bits is not read, by either table.
        let ops = [5, 0, 128, (2 << 32) | 2, 0, 0, 0, 0, 0, 1, 6, 12];
        assert_eq!(ConstantRef::of_record(ids::CST_CODE_CE_GEP_WITH_INRANGE, &ops, &mut elements), ConstantRef::Other);
        assert!(elements.is_empty());
    }

    #[test]
    fn casts_and_aggregates_keep_what_symbols_follow() {
        let mut elements = vec![1];
        assert_eq!(ConstantRef::of_record(ids::CST_CODE_CE_CAST, &[11, 3, 42], &mut elements), ConstantRef::Cast(42));
        assert_eq!(ConstantRef::of_record(ids::CST_CODE_CE_CAST, &[11, 3], &mut elements), ConstantRef::Other);
        assert_eq!(
            ConstantRef::of_record(ids::CST_CODE_AGGREGATE, &[4, 5, 6], &mut elements),
            ConstantRef::Aggregate { start: 1, len: 3 }
        );
        assert_eq!(ConstantRef::of_record(ids::CST_CODE_STRING, &[104, 105], &mut elements), ConstantRef::Other);
        assert_eq!(elements, [1, 4, 5, 6]);
    }
}
