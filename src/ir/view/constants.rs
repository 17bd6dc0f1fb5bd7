//! Constants as LLVM N holds them: what `ConstantExpr::get*` (`ConstantFold.cpp`) and
//! the aggregate constructors (`ConstantArray::get`, `ConstantStruct::get`,
//! `ConstantVector::get`, `ConstantDataSequential::getImpl` in `Constants.cpp`) make of
//! each record, as `BitcodeReader::materializeValue` builds them, operands first.
//!
//! LLVM's writer writes constants its own folder made, so folding its files changes
//! nothing. Another writer's do change: Zig writes `getelementptr inbounds (i8, ptr @g,
//! i64 0)`, which LLVM reads as `ptr @g`, and `[2 x i8] [i8 97, i8 0]`, which it reads as
//! the data array `c"a\00"`. A constant folds either to another kind of itself (in place:
//! an aggregate of zeros is `zeroinitializer`) or to another value (a global value or
//! another constant), which every reference to it then names ([`Folded::resolve`]).
//!
//! Folded here (each as the reading version's `ConstantFold.cpp` does it):
//! - aggregates: all zero, all `undef`, all `poison` (`rangeOnlyContains` of the first
//!   element), empty ones; arrays and vectors of simple numbers become data arrays; a
//!   string or data array of zeros is `zeroinitializer`;
//! - casts of `poison` and `undef`, of a null value (but `addrspacecast`), a `bitcast` to
//!   its own type (with opaque pointers, between pointers of one address space), integer
//!   `trunc`, `zext` and `sext`, and `bitcast` between an integer and a float of its width;
//! - `getelementptr` without indices, of all-zero indices (with typed pointers, of one),
//!   of an `undef` or `poison` base, and before LLVM 19 of a null base;
//! - integer binary operators of two numbers, their identities and absorbers, `poison`
//!   and `undef` operands;
//! - `select`, `icmp` of two numbers, `fneg`, `extractelement` and the all-zero
//!   `shufflevector`, where the version still has them as constants.
//!
//! An expression the version no longer has as a constant is left as written: LLVM makes
//! it instructions unfolded (`materializeValue`).

use alloc::vec::Vec;

use crate::ids::llvm_ir::raw as ids;
use crate::ir::module::constants::{Constant, ConstantKind, ModuleConstants, OperandRange, value_operands_mut};
use crate::ir::module::types::{Type, TypeId, TypeTable};
use crate::ir::upgrade::keeps_constant_expression;

/// A constant table as LLVM holds it: see the [module documentation](self).
#[derive(Clone, Debug, Default)]
pub(crate) struct Folded {
    /// The constants, with the file's value ids: each one folded, and every operand that
    /// folded to another value naming that value.
    pub(crate) table: ModuleConstants,
    /// By constant (from `table.base`): the value it is, itself unless it folded to another
    /// value.
    forward: Vec<u64>,
    /// Whether any constant folded (or any operand named another value).
    pub(crate) changed: bool,
}

impl Folded {
    /// The value that value id `id` is as LLVM holds it: the value a constant of this
    /// table folded to, else `id` itself.
    pub(crate) fn resolve(&self, id: u64) -> u64 {
        id.checked_sub(self.table.base)
            .and_then(|i| usize::try_from(i).ok())
            .and_then(|i| self.forward.get(i))
            .copied()
            .unwrap_or(id)
    }
}

/// How to fold: the reading version, the module's types, and the module's folded table
/// when folding a function's constants.
pub(crate) struct Folder<'x> {
    pub(crate) llvm_version: u32,
    pub(crate) types: &'x TypeTable,
    /// Whether pointers are read as opaque (`ptr`): LLVM 16 and later, or a module written
    /// with opaque pointers.
    pub(crate) opaque: bool,
    /// The module's constants, when folding a function's.
    pub(crate) outer: Option<&'x Folded>,
    /// The view's `i64`, for the `ptrtoint` under an address-space `bitcast`
    /// (`UpgradeBitCastExpr`); `None`: that upgrade is not made.
    pub(crate) i64: Option<TypeId>,
}

/// Where the value ids of the constants a view's module table makes
/// ([`ModuleConstants::made`]) start; a function's table's start at
/// [`FUNCTION_MADE_BASE`]. No file has that many values.
pub(crate) const MODULE_MADE_BASE: u64 = 1 << 62;
/// Where the value ids of the constants a view's function table makes start.
pub(crate) const FUNCTION_MADE_BASE: u64 = (1 << 62) + (1 << 61);

/// What one constant folds to.
enum Outcome {
    /// As it is (its operands resolved).
    Keep,
    /// Another kind of constant, in its place.
    Kind(ConstantKind),
    /// Another value: every reference to it names that one.
    Value(u64),
    /// `inttoptr (i64 ptrtoint (operand to i64) to T)` in its place, the `ptrtoint` a
    /// constant the reader makes (`UpgradeBitCastExpr`).
    ThroughInt { operand: u64, from: TypeId, i64: TypeId },
}

impl Folder<'_> {
    /// `file` folded, operands first (each constant once; a cycle, which no valid file
    /// has, is broken where it closes).
    pub(crate) fn fold(&self, file: &ModuleConstants) -> Folded {
        let n = file.constants.len();
        let base = file.base;
        let mut out =
            Folded { table: file.clone(), forward: (0..n as u64).map(|i| base + i).collect(), changed: false };
        // 0: not yet met, 1: waiting for its operands, 2: folded.
        let mut state = alloc::vec![0u8; n];
        let mut stack: Vec<usize> = Vec::new();
        let local = |v: u64| v.checked_sub(base).and_then(|i| usize::try_from(i).ok()).filter(|&i| i < n);
        for start in 0..n {
            if state[start] != 0 {
                continue;
            }
            state[start] = 1;
            stack.push(start);
            while let Some(&top) = stack.last() {
                let before = stack.len();
                out.table.constants[top].kind.value_operands(&out.table, |v| {
                    if let Some(j) = local(v).filter(|&j| state[j] == 0) {
                        state[j] = 1;
                        stack.push(j);
                    }
                });
                if stack.len() > before {
                    continue;
                }
                stack.pop();
                self.fold_one(&mut out, top);
                state[top] = 2;
            }
        }
        out
    }

    /// The value `id` is: resolved through this table's folds, then the module's.
    fn resolve(&self, out: &Folded, id: u64) -> u64 {
        let id = out.resolve(id);
        match self.outer {
            Some(outer) => outer.resolve(id),
            None => id,
        }
    }

    fn fold_one(&self, out: &mut Folded, i: usize) {
        let mut kind = out.table.constants[i].kind;
        let mut changed = false;
        {
            let (forward, base) = (&out.forward, out.table.base);
            let outer = self.outer;
            value_operands_mut(&mut kind, &mut out.table.operands, |v| {
                let own = v.checked_sub(base).and_then(|j| usize::try_from(j).ok()).and_then(|j| forward.get(j));
                let resolved = match (own, outer) {
                    (Some(&r), _) => r,
                    (None, Some(outer)) => outer.resolve(*v),
                    (None, None) => *v,
                };
                if resolved != *v {
                    *v = resolved;
                    changed = true;
                }
            });
        }
        out.table.constants[i].kind = kind;
        let c = out.table.constants[i];
        match self.outcome(out, &c) {
            Outcome::Keep => {}
            Outcome::Kind(kind) => {
                out.table.constants[i].kind = kind;
                changed = true;
            }
            Outcome::Value(v) => {
                out.forward[i] = self.resolve(out, v);
                changed = true;
            }
            Outcome::ThroughInt { operand, from, i64 } => {
                let table = &mut out.table;
                if table.made.is_empty() {
                    table.made_base = if self.outer.is_some() { FUNCTION_MADE_BASE } else { MODULE_MADE_BASE };
                }
                let made = table.made_base + table.made.len() as u64;
                let to_int = ConstantKind::Cast { opcode: ids::CAST_PTRTOINT, operand, from };
                table.made.push(Constant { ty: i64, kind: to_int, ..c });
                table.constants[i].kind = ConstantKind::Cast { opcode: ids::CAST_INTTOPTR, operand: made, from: i64 };
                changed = true;
            }
        }
        out.changed |= changed;
    }

    /// A constant by value id: this table's (folded so far) or the module's.
    fn get<'t>(&'t self, out: &'t Folded, id: u64) -> Option<(&'t Constant, &'t ModuleConstants)> {
        if let Some(c) = out.table.get(id) {
            return Some((c, &out.table));
        }
        self.outer.and_then(|o| o.table.get(id).map(|c| (c, &o.table)))
    }

    fn outcome(&self, out: &mut Folded, c: &Constant) -> Outcome {
        // A record code the version's reader does not know reads as `undef` (the default
        // case of `parseConstants`): LLVM 13 reading LLVM 14's inline asm, which gained
        // its function type (CST_CODE_INLINEASM) in 14.
        if let ConstantKind::Other { code: ids::CST_CODE_INLINEASM, .. } = c.kind {
            if self.llvm_version < 14 {
                return Outcome::Kind(ConstantKind::Undef);
            }
        }
        let is_float = self.types.is_fp_or_fp_vector(c.ty);
        if c.kind.is_expression() && !keeps_constant_expression(&c.kind, is_float, self.llvm_version) {
            // Made instructions of, unfolded.
            return Outcome::Keep;
        }
        match c.kind {
            ConstantKind::Aggregate(r) => self.aggregate(out, c.ty, r),
            ConstantKind::String { bytes, .. } => {
                if out.table.operands(bytes).iter().all(|&b| b as u8 == 0) {
                    Outcome::Kind(ConstantKind::Null)
                } else {
                    Outcome::Keep
                }
            }
            ConstantKind::Data(r) => {
                if out.table.operands(r).iter().all(|&e| e == 0) {
                    Outcome::Kind(ConstantKind::Null)
                } else {
                    Outcome::Keep
                }
            }
            ConstantKind::Cast { opcode, operand, from } => self.cast(out, c.ty, opcode, operand, from),
            ConstantKind::Gep { flags, inrange, inrange_index, operands, .. } => {
                self.gep(out, c.ty, flags, inrange.is_some() || inrange_index.is_some(), operands)
            }
            ConstantKind::Binary { opcode, lhs, rhs, .. } if !is_float => self.binary(out, c.ty, opcode, lhs, rhs),
            ConstantKind::Select { condition, on_true, on_false } => self.select(out, condition, on_true, on_false),
            ConstantKind::Unary { operand, .. } => match self.kind(out, operand) {
                Some(ConstantKind::Undef | ConstantKind::Poison) => Outcome::Value(operand),
                _ => Outcome::Keep,
            },
            ConstantKind::Expression { code, operands } => self.expression(out, c.ty, code, operands),
            _ => Outcome::Keep,
        }
    }

    /// The kind of value `id`, if it is a constant.
    fn kind(&self, out: &Folded, id: u64) -> Option<ConstantKind> {
        self.get(out, id).map(|(c, _)| c.kind)
    }

    /// The type of value `id`, if it is a constant.
    fn type_of(&self, out: &Folded, id: u64) -> Option<TypeId> {
        self.get(out, id).map(|(c, _)| c.ty)
    }

    /// `Constant::isNullValue`: an integer 0, a null, a floating-point +0.0.
    fn is_null(&self, out: &Folded, id: u64) -> bool {
        let Some((c, _)) = self.get(out, id) else { return false };
        match c.kind {
            ConstantKind::Null => true,
            ConstantKind::Int(_) => self.int_bits(c).is_some_and(|(_, v)| v == 0),
            ConstantKind::Float { lo: 0, hi: 0 } => true,
            _ => false,
        }
    }

    /// `isa<UndefValue>`: `undef` or `poison`.
    fn is_undef(&self, out: &Folded, id: u64) -> bool {
        matches!(self.kind(out, id), Some(ConstantKind::Undef | ConstantKind::Poison))
    }

    fn is_poison(&self, out: &Folded, id: u64) -> bool {
        matches!(self.kind(out, id), Some(ConstantKind::Poison))
    }

    /// An integer constant's width and value, masked to its width (64 bits at most).
    fn int_bits(&self, c: &Constant) -> Option<(u64, u64)> {
        let Some(Type::Integer(w)) = self.types.get(c.ty) else { return None };
        let w = *w;
        let v = match c.kind {
            ConstantKind::Int(v) => v as u64,
            ConstantKind::Null => 0,
            _ => return None,
        };
        match w {
            1..=63 => Some((w, v & ((1 << w) - 1))),
            64 => Some((64, v)),
            _ => None,
        }
    }

    fn int_of(&self, out: &Folded, id: u64) -> Option<(u64, u64)> {
        self.get(out, id).and_then(|(c, _)| self.int_bits(c))
    }

    /// Whether two values are one constant as LLVM uniques them: the same id, or equal
    /// numbers, nulls, `undef`s or `poison`s of one type.
    fn same(&self, out: &Folded, a: u64, b: u64) -> bool {
        if a == b {
            return true;
        }
        let (Some((ca, _)), Some((cb, _))) = (self.get(out, a), self.get(out, b)) else { return false };
        if ca.ty != cb.ty {
            return false;
        }
        if let (Some(x), Some(y)) = (self.int_bits(ca), self.int_bits(cb)) {
            return x == y;
        }
        match (ca.kind, cb.kind) {
            (ConstantKind::Null, ConstantKind::Null)
            | (ConstantKind::Undef, ConstantKind::Undef)
            | (ConstantKind::Poison, ConstantKind::Poison) => true,
            (ConstantKind::Float { .. }, ConstantKind::Float { .. }) => ca.kind == cb.kind,
            (ConstantKind::Float { lo: 0, hi: 0 }, ConstantKind::Null)
            | (ConstantKind::Null, ConstantKind::Float { lo: 0, hi: 0 }) => true,
            _ => false,
        }
    }

    /// The raw element of a data array for an element value, if the value is a number
    /// (`getSequenceIfElementsMatch`): the integer's bits, or the float's.
    fn data_element(&self, out: &Folded, element: TypeId, id: u64) -> Option<u64> {
        let (c, _) = self.get(out, id)?;
        if c.ty != element {
            return None;
        }
        match (self.types.get(element)?, c.kind) {
            (Type::Integer(_), _) => self.int_bits(c).map(|(_, v)| v),
            (Type::Half | Type::BFloat | Type::Float | Type::Double, ConstantKind::Float { lo, .. }) => Some(lo),
            (Type::Half | Type::BFloat | Type::Float | Type::Double, ConstantKind::Null) => Some(0),
            _ => None,
        }
    }

    /// `ConstantDataSequential::isElementTypeCompatible`.
    fn data_compatible(&self, element: TypeId) -> bool {
        matches!(
            self.types.get(element),
            Some(Type::Half | Type::BFloat | Type::Float | Type::Double | Type::Integer(8 | 16 | 32 | 64))
        )
    }

    /// `ConstantArray::get`, `ConstantStruct::get`, `ConstantVector::get`.
    fn aggregate(&self, out: &mut Folded, ty: TypeId, r: OperandRange) -> Outcome {
        let elements: Vec<u64> = out.table.operands(r).to_vec();
        let (element, vector) = match self.types.get(ty) {
            Some(Type::Struct { .. }) => {
                // All zero (an empty struct too), all poison, all undef (no poison).
                if elements.iter().all(|&e| self.is_null(out, e)) {
                    return Outcome::Kind(ConstantKind::Null);
                }
                if elements.iter().all(|&e| self.is_poison(out, e)) {
                    return Outcome::Kind(ConstantKind::Poison);
                }
                if elements.iter().all(|&e| self.is_undef(out, e) && !self.is_poison(out, e)) {
                    return Outcome::Kind(ConstantKind::Undef);
                }
                return Outcome::Keep;
            }
            Some(Type::Array { element, .. }) => (*element, false),
            Some(Type::Vector { element, scalable: false, .. }) => (*element, true),
            _ => return Outcome::Keep,
        };
        let Some(&first) = elements.first() else {
            // An empty array is `zeroinitializer`.
            return if vector { Outcome::Keep } else { Outcome::Kind(ConstantKind::Null) };
        };
        let all_first = elements.iter().all(|&e| self.same(out, e, first));
        if all_first {
            if self.is_poison(out, first) {
                return Outcome::Kind(ConstantKind::Poison);
            }
            if self.is_undef(out, first) {
                return Outcome::Kind(ConstantKind::Undef);
            }
            if self.is_null(out, first) {
                return Outcome::Kind(ConstantKind::Null);
            }
        }
        if self.data_compatible(element) {
            let raw: Option<Vec<u64>> = elements.iter().map(|&e| self.data_element(out, element, e)).collect();
            if let Some(raw) = raw {
                let start = out.table.operands.len();
                out.table.operands.extend_from_slice(&raw);
                return Outcome::Kind(ConstantKind::Data(OperandRange { start: start as u32, len: raw.len() as u32 }));
            }
        }
        Outcome::Keep
    }

    /// Whether two types are one as the reader holds them: the same, or pointers of one
    /// address space when pointers are opaque.
    fn same_type(&self, a: TypeId, b: TypeId) -> bool {
        if a == b {
            return true;
        }
        match (self.types.get(a), self.types.get(b)) {
            (Some(Type::Pointer { address_space: x, .. }), Some(Type::Pointer { address_space: y, .. })) => {
                self.opaque && x == y
            }
            _ => false,
        }
    }

    /// `ConstantFoldCastInstruction`.
    fn cast(&self, out: &Folded, ty: TypeId, opcode: u32, operand: u64, from: TypeId) -> Outcome {
        // `UpgradeBitCastExpr`, before the fold: a `bitcast` between pointers of two address
        // spaces is `inttoptr (i64 ptrtoint (…))`; of `null`, `undef` or `poison` that
        // folds to what the fold below makes of the `bitcast`.
        let space = |t: TypeId| match self.types.get(t) {
            Some(Type::Pointer { address_space, .. }) => Some(*address_space),
            _ => None,
        };
        if let (ids::CAST_BITCAST, Some(i64), Some(a), Some(b)) = (opcode, self.i64, space(from), space(ty)) {
            if a != b && !self.is_null(out, operand) && !self.is_undef(out, operand) {
                return Outcome::ThroughInt { operand, from, i64 };
            }
        }
        let Some(op) = self.kind(out, operand) else {
            // A global value: a `bitcast` to its own type is the value.
            let from = self.type_of(out, operand).unwrap_or(from);
            if opcode == ids::CAST_BITCAST && self.same_type(from, ty) {
                return Outcome::Value(operand);
            }
            return Outcome::Keep;
        };
        match op {
            ConstantKind::Poison => return Outcome::Kind(ConstantKind::Poison),
            ConstantKind::Undef => {
                // zext and sext of undef are 0, as are the conversions to floating point.
                return match opcode {
                    ids::CAST_ZEXT | ids::CAST_SEXT | ids::CAST_UITOFP | ids::CAST_SITOFP => {
                        Outcome::Kind(ConstantKind::Null)
                    }
                    _ => Outcome::Kind(ConstantKind::Undef),
                };
            }
            _ => {}
        }
        if self.is_null(out, operand)
            && opcode != ids::CAST_ADDRSPACECAST
            && !matches!(self.types.get(ty), Some(Type::X86Amx))
        {
            return Outcome::Kind(ConstantKind::Null);
        }
        if opcode == ids::CAST_BITCAST && self.same_type(from, ty) {
            return Outcome::Value(operand);
        }
        let dest_width = match self.types.get(ty) {
            Some(Type::Integer(w @ 1..=64)) => Some(*w),
            _ => None,
        };
        let source = self.int_of(out, operand);
        match (opcode, source, dest_width) {
            (ids::CAST_TRUNC | ids::CAST_ZEXT, Some((_, v)), Some(w)) => Outcome::Kind(int_kind(v, w)),
            (ids::CAST_SEXT, Some((sw, v)), Some(w)) => {
                let shift = 64 - sw as u32;
                Outcome::Kind(int_kind(((v << shift) as i64 >> shift) as u64, w))
            }
            (ids::CAST_BITCAST, Some((sw, v)), None) => match self.types.get(ty) {
                Some(t @ (Type::Half | Type::BFloat | Type::Float | Type::Double)) if float_width(t) == Some(sw) => {
                    Outcome::Kind(ConstantKind::Float { lo: v, hi: 0 })
                }
                _ => Outcome::Keep,
            },
            (ids::CAST_BITCAST, None, Some(w)) => {
                match (op, self.type_of(out, operand).and_then(|t| self.types.get(t))) {
                    (ConstantKind::Float { lo, hi: 0 }, Some(t)) if float_width(t) == Some(w) => {
                        Outcome::Kind(int_kind(lo, w))
                    }
                    _ => Outcome::Keep,
                }
            }
            _ => Outcome::Keep,
        }
    }

    /// `ConstantFoldGetElementPtr`.
    fn gep(&self, out: &Folded, ty: TypeId, flags: u64, inrange: bool, r: OperandRange) -> Outcome {
        let pairs = out.table.operands(r);
        let Some(&[_, base]) = pairs.get(..2) else { return Outcome::Keep };
        let indices: Vec<u64> = pairs[2..].chunks_exact(2).map(|p| p[1]).collect();
        if indices.is_empty() {
            return Outcome::Value(base);
        }
        let scalar = matches!(self.types.get(ty), Some(Type::Pointer { .. }));
        match self.kind(out, base) {
            Some(ConstantKind::Poison) => return Outcome::Kind(ConstantKind::Poison),
            // Before LLVM 19 an `inbounds` GEP of `undef` is `poison`.
            Some(ConstantKind::Undef) if self.llvm_version < 19 && flags & 1 != 0 => {
                return Outcome::Kind(ConstantKind::Poison);
            }
            Some(ConstantKind::Undef) => return Outcome::Kind(ConstantKind::Undef),
            _ => {}
        }
        let zero = |v: &u64| self.is_null(out, *v) || self.is_undef(out, *v);
        // A typed pointer's type changes with more than one index; LLVM 19 and later keep
        // an `inrange`.
        let no_op = (self.opaque || indices.len() == 1) && !(inrange && self.llvm_version >= 19);
        let base_type = self.type_of(out, base);
        let base_scalar = base_type.is_none_or(|t| matches!(self.types.get(t), Some(Type::Pointer { .. })));
        if no_op && indices.iter().all(zero) && scalar && base_scalar {
            return Outcome::Value(base);
        }
        if self.llvm_version < 19 && self.is_null(out, base) && indices.iter().all(zero) {
            return Outcome::Kind(ConstantKind::Null);
        }
        Outcome::Keep
    }

    /// `ConstantFoldBinaryInstruction`, for integers of at most 64 bits.
    fn binary(&self, out: &Folded, ty: TypeId, opcode: u32, lhs: u64, rhs: u64) -> Outcome {
        let Some(Type::Integer(w @ 1..=64)) = self.types.get(ty) else { return Outcome::Keep };
        let w = *w;
        let mask = if w == 64 { u64::MAX } else { (1 << w) - 1 };
        let (l, r) = (self.int_of(out, lhs).map(|x| x.1), self.int_of(out, rhs).map(|x| x.1));
        // Identities: the other operand.
        let identity = match opcode {
            ids::BINOP_ADD | ids::BINOP_OR | ids::BINOP_XOR => Some((0, true)),
            ids::BINOP_MUL => Some((1, true)),
            ids::BINOP_AND => Some((mask, true)),
            ids::BINOP_SUB | ids::BINOP_SHL | ids::BINOP_LSHR | ids::BINOP_ASHR => Some((0, false)),
            ids::BINOP_UDIV | ids::BINOP_SDIV => Some((1, false)),
            _ => None,
        };
        if let Some((value, commutes)) = identity {
            if commutes && l == Some(value) {
                return Outcome::Value(rhs);
            }
            if r == Some(value) {
                return Outcome::Value(lhs);
            }
        }
        if self.is_poison(out, lhs) || self.is_poison(out, rhs) {
            return Outcome::Kind(ConstantKind::Poison);
        }
        let (lu, ru) = (self.is_undef(out, lhs), self.is_undef(out, rhs));
        if lu || ru {
            return match opcode {
                ids::BINOP_XOR if lu && ru => Outcome::Kind(ConstantKind::Null),
                ids::BINOP_ADD | ids::BINOP_SUB | ids::BINOP_XOR => Outcome::Kind(ConstantKind::Undef),
                ids::BINOP_AND if lu && ru => Outcome::Kind(ConstantKind::Undef),
                ids::BINOP_AND => Outcome::Kind(ConstantKind::Null),
                ids::BINOP_MUL if lu && ru => Outcome::Kind(ConstantKind::Undef),
                ids::BINOP_MUL if l.or(r).is_some_and(|v| v & 1 == 1) => Outcome::Kind(ConstantKind::Undef),
                ids::BINOP_MUL => Outcome::Kind(ConstantKind::Null),
                ids::BINOP_UDIV | ids::BINOP_SDIV | ids::BINOP_UREM | ids::BINOP_SREM if ru || r == Some(0) => {
                    Outcome::Kind(ConstantKind::Poison)
                }
                ids::BINOP_UDIV | ids::BINOP_SDIV | ids::BINOP_UREM | ids::BINOP_SREM => {
                    Outcome::Kind(ConstantKind::Null)
                }
                ids::BINOP_OR if lu && ru => Outcome::Kind(ConstantKind::Undef),
                ids::BINOP_OR => Outcome::Kind(int_kind(mask, w)),
                ids::BINOP_LSHR | ids::BINOP_ASHR | ids::BINOP_SHL if ru => Outcome::Kind(ConstantKind::Poison),
                ids::BINOP_LSHR | ids::BINOP_ASHR | ids::BINOP_SHL => Outcome::Kind(ConstantKind::Null),
                _ => Outcome::Keep,
            };
        }
        // Absorbers and division by zero.
        match (opcode, r) {
            (ids::BINOP_AND | ids::BINOP_MUL, Some(0)) => return Outcome::Value(rhs),
            (ids::BINOP_OR, Some(v)) if v == mask => return Outcome::Value(rhs),
            (ids::BINOP_UDIV | ids::BINOP_SDIV | ids::BINOP_UREM | ids::BINOP_SREM, Some(0)) => {
                return Outcome::Kind(ConstantKind::Poison);
            }
            (ids::BINOP_UREM | ids::BINOP_SREM, Some(1)) => return Outcome::Kind(ConstantKind::Null),
            _ => {}
        }
        let (Some(a), Some(b)) = (l, r) else { return Outcome::Keep };
        let signed = |v: u64| ((v << (64 - w)) as i64) >> (64 - w);
        let min = 1u64 << (w - 1);
        let value = match opcode {
            ids::BINOP_ADD => a.wrapping_add(b),
            ids::BINOP_SUB => a.wrapping_sub(b),
            ids::BINOP_MUL => a.wrapping_mul(b),
            ids::BINOP_UDIV => a / b,
            ids::BINOP_UREM => a % b,
            ids::BINOP_SDIV | ids::BINOP_SREM if a == min && b == mask => return Outcome::Kind(ConstantKind::Poison),
            ids::BINOP_SDIV => signed(a).wrapping_div(signed(b)) as u64,
            ids::BINOP_SREM => signed(a).wrapping_rem(signed(b)) as u64,
            ids::BINOP_AND => a & b,
            ids::BINOP_OR => a | b,
            ids::BINOP_XOR => a ^ b,
            ids::BINOP_SHL | ids::BINOP_LSHR | ids::BINOP_ASHR if b >= w => return Outcome::Kind(ConstantKind::Poison),
            ids::BINOP_SHL => a << b,
            ids::BINOP_LSHR => a >> b,
            ids::BINOP_ASHR => (signed(a) >> b) as u64,
            _ => return Outcome::Keep,
        };
        Outcome::Kind(int_kind(value & mask, w))
    }

    /// `ConstantFoldSelectInstruction`, for scalar conditions.
    fn select(&self, out: &Folded, condition: u64, on_true: u64, on_false: u64) -> Outcome {
        if self.int_of(out, condition).is_some_and(|(w, v)| w == 1 && v == 0)
            || self.kind(out, condition) == Some(ConstantKind::Null)
        {
            return Outcome::Value(on_false);
        }
        if self.int_of(out, condition).is_some_and(|(w, v)| w == 1 && v == 1) {
            return Outcome::Value(on_true);
        }
        if self.is_poison(out, condition) {
            return Outcome::Kind(ConstantKind::Poison);
        }
        if self.is_undef(out, condition) {
            return Outcome::Value(if self.is_undef(out, on_true) { on_true } else { on_false });
        }
        if self.same(out, on_true, on_false) {
            return Outcome::Value(on_true);
        }
        if self.is_poison(out, on_true) {
            return Outcome::Value(on_false);
        }
        if self.is_poison(out, on_false) {
            return Outcome::Value(on_true);
        }
        Outcome::Keep
    }

    /// Compares of two integers, `extractelement`, and the `shufflevector` of an all-zero
    /// mask.
    fn expression(&self, out: &mut Folded, ty: TypeId, code: u32, r: OperandRange) -> Outcome {
        let ops: Vec<u64> = out.table.operands(r).to_vec();
        match (code, ops.as_slice()) {
            (ids::CST_CODE_CE_CMP, &[_, lhs, rhs, predicate, ..]) => {
                if self.is_poison(out, lhs) || self.is_poison(out, rhs) {
                    return Outcome::Kind(ConstantKind::Poison);
                }
                let (Some((w, a)), Some((_, b))) = (self.int_of(out, lhs), self.int_of(out, rhs)) else {
                    return Outcome::Keep;
                };
                let signed = |v: u64| ((v << (64 - w)) as i64) >> (64 - w);
                let result = match predicate {
                    32 => a == b,
                    33 => a != b,
                    34 => a > b,
                    35 => a >= b,
                    36 => a < b,
                    37 => a <= b,
                    38 => signed(a) > signed(b),
                    39 => signed(a) >= signed(b),
                    40 => signed(a) < signed(b),
                    41 => signed(a) <= signed(b),
                    _ => return Outcome::Keep,
                };
                Outcome::Kind(ConstantKind::Int(i64::from(result)))
            }
            (ids::CST_CODE_CE_EXTRACTELT, &[_, vector, _, index]) => {
                if self.is_poison(out, vector) || self.is_undef(out, index) {
                    return Outcome::Kind(ConstantKind::Poison);
                }
                if self.is_undef(out, vector) {
                    return Outcome::Kind(ConstantKind::Undef);
                }
                let Some((_, k)) = self.int_of(out, index) else { return Outcome::Keep };
                match self.get(out, vector).map(|(c, t)| (c.ty, c.kind, t)) {
                    Some((vt, _, _)) if vector_len(self.types, vt).is_some_and(|n| k >= n) => {
                        Outcome::Kind(ConstantKind::Poison)
                    }
                    Some((_, ConstantKind::Null, _)) => Outcome::Kind(ConstantKind::Null),
                    Some((_, ConstantKind::Aggregate(r), t)) => match t.operands(r).get(k as usize) {
                        Some(&e) => Outcome::Value(e),
                        None => Outcome::Keep,
                    },
                    _ => Outcome::Keep,
                }
            }
            (ids::CST_CODE_CE_SHUFFLEVEC, &[a, _, mask]) | (ids::CST_CODE_CE_SHUFVEC_EX, &[_, a, _, mask]) => {
                let mask_zero = self.kind(out, mask) == Some(ConstantKind::Null);
                if self.kind(out, mask) == Some(ConstantKind::Poison) {
                    return Outcome::Kind(ConstantKind::Poison);
                }
                if !mask_zero {
                    return Outcome::Keep;
                }
                // A splat of element 0 of the first vector: of zero, `zeroinitializer`.
                let element = match self.get(out, a).map(|(c, t)| (c.kind, t)) {
                    Some((ConstantKind::Null, _)) => return Outcome::Kind(ConstantKind::Null),
                    Some((ConstantKind::Aggregate(r), t)) => t.operands(r).first().copied(),
                    Some((ConstantKind::Data(r), t)) => {
                        return match t.operands(r).first() {
                            Some(0) => Outcome::Kind(ConstantKind::Null),
                            _ => Outcome::Keep,
                        };
                    }
                    Some((ConstantKind::Expression { code: ids::CST_CODE_CE_INSERTELT, operands }, t)) => {
                        match t.operands(operands) {
                            &[_, e, _, i] if self.is_null(out, i) => Some(e),
                            _ => None,
                        }
                    }
                    _ => None,
                };
                match element {
                    Some(e) if self.is_null(out, e) => Outcome::Kind(ConstantKind::Null),
                    _ => {
                        let _ = ty;
                        Outcome::Keep
                    }
                }
            }
            _ => Outcome::Keep,
        }
    }
}

/// An integer constant of width `w` with (masked) value `v`, as the table keeps them:
/// sign-extended.
fn int_kind(v: u64, w: u64) -> ConstantKind {
    let shift = 64 - w.clamp(1, 64) as u32;
    ConstantKind::Int(((v << shift) as i64) >> shift)
}

/// The width of a floating-point type of at most 64 bits.
fn float_width(t: &Type) -> Option<u64> {
    match t {
        Type::Half | Type::BFloat => Some(16),
        Type::Float => Some(32),
        Type::Double => Some(64),
        _ => None,
    }
}

/// The element count of a fixed vector type.
fn vector_len(types: &TypeTable, ty: TypeId) -> Option<u64> {
    match types.get(ty) {
        Some(Type::Vector { len, scalable: false, .. }) => Some(*len),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    const I8: TypeId = TypeId(0);
    const I64: TypeId = TypeId(1);
    const PTR: TypeId = TypeId(2);
    const BYTES: TypeId = TypeId(3);
    const PAIR: TypeId = TypeId(4);

    fn types() -> TypeTable {
        TypeTable {
            types: vec![
                Type::Integer(8),
                Type::Integer(64),
                Type::Pointer { pointee: None, address_space: 0 },
                Type::Array { len: 2, element: I8 },
                Type::Struct { name: None, identified: false, packed: false, elements: Some(vec![PTR, I64]) },
            ],
            declared_len: None,
        }
    }

    /// A table of constants from value id 10 (ids below are global values).
    fn table(constants: &[(TypeId, ConstantKind)], operands: Vec<u64>) -> ModuleConstants {
        ModuleConstants {
            base: 10,
            constants: constants.iter().map(|&(ty, kind)| Constant { ty, kind, bit: 0 }).collect(),
            operands,
            ..ModuleConstants::default()
        }
    }

    fn range(start: u32, len: u32) -> OperandRange {
        OperandRange { start, len }
    }

    fn fold(version: u32, t: &ModuleConstants, types: &TypeTable) -> Folded {
        Folder { llvm_version: version, types, opaque: true, outer: None, i64: None }.fold(t)
    }

    /// clang 14's r600 and AVR label addresses: `bitcast (i8* blockaddress(…) to
    /// i8 addrspace(5)*)`, which llvm-dis 14 to 22 print as `inttoptr (i64 ptrtoint (…) to
    /// i64) to …)` (`UpgradeBitCastExpr`); of `null` it is `null`, within one address space
    /// it stays a `bitcast`.
    #[test]
    fn a_bitcast_between_address_spaces_goes_through_i64() {
        let mut types = types();
        types.types.push(Type::Pointer { pointee: Some(I8), address_space: 0 });
        types.types.push(Type::Pointer { pointee: Some(I8), address_space: 5 });
        types.types.push(Type::Pointer { pointee: Some(I64), address_space: 0 });
        let (p0, p5, p64) = (TypeId(5), TypeId(6), TypeId(7));
        let label = ConstantKind::BlockAddress { function: 3, block: 1 };
        let t = table(
            &[
                (p0, label),
                (p5, ConstantKind::Cast { opcode: ids::CAST_BITCAST, operand: 10, from: p0 }),
                (p0, ConstantKind::Null),
                (p5, ConstantKind::Cast { opcode: ids::CAST_BITCAST, operand: 12, from: p0 }),
                (p64, ConstantKind::Cast { opcode: ids::CAST_BITCAST, operand: 10, from: p0 }),
            ],
            vec![],
        );
        let folded = Folder { llvm_version: 22, types: &types, opaque: false, outer: None, i64: Some(I64) }.fold(&t);
        let made = MODULE_MADE_BASE;
        assert_eq!(
            folded.table.get(11).unwrap().kind,
            ConstantKind::Cast { opcode: ids::CAST_INTTOPTR, operand: made, from: I64 }
        );
        let to_int = folded.table.get(made).unwrap();
        assert_eq!(
            (to_int.ty, to_int.kind),
            (I64, ConstantKind::Cast { opcode: ids::CAST_PTRTOINT, operand: 10, from: p0 })
        );
        assert_eq!(folded.table.get(13).unwrap().kind, ConstantKind::Null);
        assert!(matches!(folded.table.get(14).unwrap().kind, ConstantKind::Cast { opcode: ids::CAST_BITCAST, .. }));
        assert_eq!(folded.table.made.len(), 1);
        // Without an i64 to use, as the file is.
        let kept = Folder { llvm_version: 22, types: &types, opaque: false, outer: None, i64: None }.fold(&t);
        assert!(matches!(kept.table.get(11).unwrap().kind, ConstantKind::Cast { opcode: ids::CAST_BITCAST, .. }));
    }

    /// Zig's `getelementptr inbounds (i8, ptr @g, i64 0)` is `@g` as LLVM 22 reads it, and
    /// `{ ptr, i64 } { that, i64 7 }` names `@g` (`ConstantFoldGetElementPtr`'s `IsNoOp`).
    #[test]
    fn a_gep_of_zero_indices_is_its_base() {
        let types = types();
        // 10: i64 0; 11: gep (i8, ptr @3, i64 0); 12: { ptr, i64 } { 11, 13 }; 13: i64 7.
        let t = table(
            &[
                (I64, ConstantKind::Int(0)),
                (
                    PTR,
                    ConstantKind::Gep {
                        source: Some(I8),
                        flags: 1,
                        inrange_index: None,
                        inrange: None,
                        operands: range(0, 4),
                    },
                ),
                (PAIR, ConstantKind::Aggregate(range(4, 2))),
                (I64, ConstantKind::Int(7)),
            ],
            vec![u64::from(PTR.0), 3, u64::from(I64.0), 10, 11, 13],
        );
        let folded = fold(22, &t, &types);
        assert_eq!(folded.resolve(11), 3);
        assert_eq!(folded.table.operands(range(4, 2)), [3, 13]);
        assert!(folded.changed);
        // With a non-zero index it stays.
        let mut nonzero = t.clone();
        nonzero.constants[0].kind = ConstantKind::Int(1);
        assert_eq!(fold(22, &nonzero, &types).resolve(11), 11);
    }

    /// `ConstantArray::get`: `[2 x i8] [i8 97, i8 0]` is the data array `c"a\00"`; all
    /// zero, `zeroinitializer`; all `undef`, `undef`; `undef` and `poison` mixed, an
    /// array.
    #[test]
    fn arrays_canonicalize_as_constant_array_get() {
        let types = types();
        let array = |a, b| table(&[(I8, a), (I8, b), (BYTES, ConstantKind::Aggregate(range(0, 2)))], vec![10, 11]);
        let kind = |t: &ModuleConstants| fold(22, t, &types).table.constants[2].kind;
        let folded = fold(22, &array(ConstantKind::Int(97), ConstantKind::Int(0)), &types);
        match folded.table.constants[2].kind {
            ConstantKind::Data(r) => assert_eq!(folded.table.operands(r), [97, 0]),
            k => panic!("{k:?}"),
        }
        assert_eq!(kind(&array(ConstantKind::Int(0), ConstantKind::Null)), ConstantKind::Null);
        assert_eq!(kind(&array(ConstantKind::Undef, ConstantKind::Undef)), ConstantKind::Undef);
        assert_eq!(kind(&array(ConstantKind::Poison, ConstantKind::Poison)), ConstantKind::Poison);
        assert!(matches!(kind(&array(ConstantKind::Undef, ConstantKind::Poison)), ConstantKind::Aggregate(_)));
        // A byte as -1 and as 255 are one constant: two of them are a data array of 255s.
        let folded = fold(22, &array(ConstantKind::Int(-1), ConstantKind::Int(255)), &types);
        match folded.table.constants[2].kind {
            ConstantKind::Data(r) => assert_eq!(folded.table.operands(r), [255, 255]),
            k => panic!("{k:?}"),
        }
    }

    /// `ConstantFoldCastInstruction`: `inttoptr (i64 0 to ptr)` is `null`; `zext` of
    /// `undef` is 0, `trunc` of it `undef`; `trunc (i64 300 to i8)` is 44.
    #[test]
    fn casts_fold_as_constant_fold_cast_instruction() {
        let types = types();
        let cast = |version, opcode, operand: ConstantKind, ty| {
            let t = table(&[(I64, operand), (ty, ConstantKind::Cast { opcode, operand: 10, from: I64 })], vec![]);
            fold(version, &t, &types).table.constants[1].kind
        };
        assert_eq!(cast(22, ids::CAST_INTTOPTR, ConstantKind::Int(0), PTR), ConstantKind::Null);
        assert!(matches!(cast(22, ids::CAST_INTTOPTR, ConstantKind::Int(8), PTR), ConstantKind::Cast { .. }));
        assert_eq!(cast(22, ids::CAST_TRUNC, ConstantKind::Undef, I8), ConstantKind::Undef);
        assert_eq!(cast(22, ids::CAST_TRUNC, ConstantKind::Int(300), I8), ConstantKind::Int(44));
        // zext is a constant expression up to LLVM 17, an instruction (unfolded) from 18.
        assert_eq!(cast(17, ids::CAST_ZEXT, ConstantKind::Undef, I64), ConstantKind::Null);
        assert!(matches!(cast(18, ids::CAST_ZEXT, ConstantKind::Undef, I64), ConstantKind::Cast { .. }));
    }

    /// `ConstantFoldBinaryInstruction`: numbers, identities, `poison`.
    #[test]
    fn integer_arithmetic_folds() {
        let types = types();
        // As LLVM 17 reads them: every binary operator but the divisions is a constant
        // expression there.
        let binary = |opcode, l: i64, r: ConstantKind| {
            let t = table(
                &[
                    (I8, ConstantKind::Int(l)),
                    (I8, r),
                    (I8, ConstantKind::Binary { opcode, lhs: 10, rhs: 11, flags: 0 }),
                ],
                vec![],
            );
            let f = fold(17, &t, &types);
            (f.resolve(12), f.table.constants[2].kind)
        };
        assert_eq!(binary(ids::BINOP_ADD, 100, ConstantKind::Int(100)).1, ConstantKind::Int(-56));
        assert_eq!(binary(ids::BINOP_SUB, 5, ConstantKind::Int(0)).0, 10);
        assert_eq!(binary(ids::BINOP_LSHR, -1, ConstantKind::Int(4)).1, ConstantKind::Int(15));
        assert_eq!(binary(ids::BINOP_SHL, 1, ConstantKind::Int(8)).1, ConstantKind::Poison);
        assert_eq!(binary(ids::BINOP_MUL, 3, ConstantKind::Poison).1, ConstantKind::Poison);
        // mul is not a constant expression of LLVM 20 and later: left to become an instruction.
        let t = table(
            &[
                (I8, ConstantKind::Int(2)),
                (I8, ConstantKind::Int(3)),
                (I8, ConstantKind::Binary { opcode: ids::BINOP_MUL, lhs: 10, rhs: 11, flags: 0 }),
            ],
            vec![],
        );
        assert_eq!(fold(19, &t, &types).table.constants[2].kind, ConstantKind::Int(6));
        assert!(matches!(fold(22, &t, &types).table.constants[2].kind, ConstantKind::Binary { .. }));
    }
}
