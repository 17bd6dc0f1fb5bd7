//! The instructions that name basic blocks: the terminators, calls (`call`, `invoke`,
//! `callbr`), `phi`, and the exception-handling pads.

use alloc::vec::Vec;

use super::Decoder;
use crate::error::Error;
use crate::ids::llvm_ir::raw as ids;
use crate::ir::body::type_index::{NO_TYPE, TypeKey};
use crate::ir::body::{CallInfo, InstKind, Operand, TailKind};
use crate::ir::module::constants::{Constant, ConstantKind, OperandRange};
use crate::ir::module::types::{Type, TypeId};
use crate::limits::MAX_CASE_RANGE_VALUES;
use crate::record::decode_sign_rotated;

/// The mark of the `switch` record of LLVM 3.2 and 3.3, whose cases are ranges of literal
/// integers, in the high bits of its first field (BitcodeReader's `SWITCH_INST_MAGIC`).
const SWITCH_INST_MAGIC: u64 = 0x4B5;

impl Decoder<'_, '_, '_> {
    /// The `switch` of LLVM 3.2 and 3.3 (`SWITCH_INST_MAGIC`), as LLVM's reader reads it:
    /// `[magic, opty, cond, default, case count, (item count, (single?, low, high if a
    /// range)…, block)…]`, each bound a wide integer (sign-rotated words, their count first
    /// when the type is wider than 64 bits). A range is one case per value of `low..=high`
    /// (compared unsigned, as LLVM does); the case values are literals, not value ids, so
    /// they become constants of the body after the file's ([`Body::constants`]).
    ///
    /// [`Body::constants`]: crate::ir::Body::constants
    fn case_range_switch(&mut self, ops: &[u64], out: &mut Vec<Operand>) -> Result<(), Error> {
        let ty = self.ty(need!(self, ops, 1))?;
        let width = match self.types().get(ty) {
            Some(Type::Integer(w)) if *w > 0 => *w,
            _ => {
                return Err(Error::WrongType {
                    what: "switch record",
                    bit: self.bit,
                    index: ty.0.into(),
                    expected: "an integer type",
                });
            }
        };
        let mut i = 2;
        let cond = self.value(ops, &mut i, ty)?;
        let default = self.block(need!(self, ops, 3))?;
        out.push(cond);
        out.push(default);
        let cases = need!(self, ops, 4);
        i = 5;
        let mut values: Vec<Vec<u64>> = Vec::new();
        for _ in 0..cases {
            values.clear();
            let items = need!(self, ops, i);
            i += 1;
            for _ in 0..items {
                let single = need!(self, ops, i) != 0;
                i += 1;
                let low = self.wide_int(ops, &mut i, width)?;
                if single {
                    values.push(low);
                    continue;
                }
                let high = self.wide_int(ops, &mut i, width)?;
                let mut v = low;
                while wide_ule(&v, &high) {
                    self.range_values += 1;
                    if self.range_values > MAX_CASE_RANGE_VALUES {
                        return Err(Error::InvalidValue {
                            bit: self.bit,
                            what: "count of switch case-range values (over limits::MAX_CASE_RANGE_VALUES)",
                            value: self.range_values,
                        });
                    }
                    values.push(v.clone());
                    if !wide_increment(&mut v, width) {
                        break;
                    }
                }
            }
            let block = self.block(need!(self, ops, i))?;
            i += 1;
            for v in &values {
                let kind = if width <= 64 {
                    ConstantKind::Int(v[0] as i64)
                } else {
                    let table = &mut self.body.constants;
                    let start = table.operands.len() as u32;
                    table.operands.extend_from_slice(v);
                    ConstantKind::WideInt(OperandRange { start, len: v.len() as u32 })
                };
                let table = &mut self.body.constants;
                let id = table.base + table.constants.len() as u64;
                table.constants.push(Constant { ty, kind, bit: self.bit });
                out.push(Operand { value: crate::ir::body::Value::Constant(id), ty });
                out.push(block);
            }
        }
        self.push(InstKind::Switch, self.void(), out);
        Ok(())
    }

    /// A bound of a case range (`readWideAPInt`): one word, or when the type is wider than
    /// 64 bits a count and that many, each sign-rotated, cut to `width` bits (little-endian
    /// words; missing high words are zero, so none is made for them).
    fn wide_int(&self, ops: &[u64], i: &mut usize, width: u64) -> Result<Vec<u64>, Error> {
        let active = if width > 64 {
            let n = need!(self, ops, *i);
            *i += 1;
            usize::try_from(n).unwrap_or(usize::MAX)
        } else {
            1
        };
        let end = match i.checked_add(active) {
            Some(end) if end <= ops.len() => end,
            _ => return Err(self.short(ops.len(), i.saturating_add(active))),
        };
        let words = usize::try_from(width.div_ceil(64)).unwrap_or(usize::MAX);
        let mut v: Vec<u64> = ops[*i..end].iter().take(words).map(|&w| decode_sign_rotated(w) as u64).collect();
        if v.is_empty() {
            v.push(0);
        }
        *i = end;
        truncate(&mut v, width);
        Ok(v)
    }

    /// Reads a terminator's, a call's, a `phi`'s or a pad's record; `false` if `code` is
    /// not one.
    pub(super) fn control_instruction(
        &mut self,
        code: u32,
        ops: &[u64],
        out: &mut Vec<Operand>,
    ) -> Result<bool, Error> {
        let mut i = 0;
        let void = self.void();
        match code {
            ids::FUNC_CODE_INST_RET => {
                self.pairs_to_end(ops, &mut i, out)?;
                self.push(InstKind::Ret, void, out);
            }
            ids::FUNC_CODE_INST_BR => {
                let t = self.block(need!(self, ops, 0))?;
                if ops.len() >= 3 {
                    let f = self.block(ops[1])?;
                    let i1 = self.bodies.index.get(TypeKey::Int(1));
                    let mut j = 2;
                    let c = self.value(ops, &mut j, i1)?;
                    self.push(InstKind::Br, void, &[c, t, f]);
                } else {
                    self.push(InstKind::Br, void, &[t]);
                }
            }
            ids::FUNC_CODE_INST_SWITCH if need!(self, ops, 0) >> 16 == SWITCH_INST_MAGIC => {
                self.case_range_switch(ops, out)?;
            }
            ids::FUNC_CODE_INST_SWITCH => {
                // [opty, cond, default, (case value id (absolute), block)…]
                let ty = self.ty(need!(self, ops, 0))?;
                i = 1;
                let cond = self.value(ops, &mut i, ty)?;
                let default = self.block(need!(self, ops, 2))?;
                out.push(cond);
                out.push(default);
                let mut j = 3;
                while j + 1 < ops.len() {
                    let case = self.operand(ops[j], ty);
                    out.push(case);
                    out.push(self.block(ops[j + 1])?);
                    j += 2;
                }
                self.push(InstKind::Switch, void, out);
            }
            ids::FUNC_CODE_INST_INDIRECTBR => {
                let ty = self.ty(need!(self, ops, 0))?;
                i = 1;
                let addr = self.value(ops, &mut i, ty)?;
                out.push(addr);
                for &b in &ops[2.min(ops.len())..] {
                    out.push(self.block(b)?);
                }
                self.push(InstKind::IndirectBr, void, out);
            }
            ids::FUNC_CODE_INST_INVOKE => {
                // [attrs, cc, normal, unwind, fnty?, callee, args…]
                let attrs = need!(self, ops, 0);
                let cc = need!(self, ops, 1);
                let normal = self.block(need!(self, ops, 2))?;
                let unwind = self.block(need!(self, ops, 3))?;
                i = 4;
                let (fn_ty, ret) = self.callee_and_args(ops, &mut i, cc & (1 << 13) != 0, out)?;
                out.push(normal);
                out.push(unwind);
                let info = self.call_info(attrs, (cc & 0x3ff) as u32, 0, fn_ty);
                self.push(InstKind::Invoke(info), ret, out);
            }
            ids::FUNC_CODE_INST_CALLBR => {
                // [attrs, cc, default, num indirect, indirect…, fnty?, callee, args…]
                let attrs = need!(self, ops, 0);
                let cc = need!(self, ops, 1);
                let default = self.block(need!(self, ops, 2))?;
                let n = need!(self, ops, 3);
                i = 4;
                let mut indirect = Vec::new();
                for _ in 0..n {
                    indirect.push(self.block(need!(self, ops, i))?);
                    i += 1;
                }
                let (fn_ty, ret) = self.callee_and_args(ops, &mut i, cc & (1 << 15) != 0, out)?;
                out.push(default);
                out.extend_from_slice(&indirect);
                let info = self.call_info(attrs, ((cc >> 1) & 0x3ff) as u32, 0, fn_ty);
                self.push(InstKind::CallBr { call: info, indirect: n as u32 }, ret, out);
            }
            ids::FUNC_CODE_INST_CALL => {
                // [attrs, cc, fmf?, fnty?, callee, args…]
                let attrs = need!(self, ops, 0);
                let cc = need!(self, ops, 1);
                i = 2;
                let fmf = if cc & (1 << 17) != 0 {
                    let v = need!(self, ops, i);
                    i += 1;
                    v as u32
                } else {
                    0
                };
                let (fn_ty, ret) = self.callee_and_args(ops, &mut i, cc & (1 << 15) != 0, out)?;
                let tail = if cc & (1 << 14) != 0 {
                    TailKind::MustTail
                } else if cc & 1 != 0 {
                    TailKind::Tail
                } else if cc & (1 << 16) != 0 {
                    TailKind::NoTail
                } else {
                    TailKind::None
                };
                let info = self.call_info(attrs, ((cc >> 1) & 0x3ff) as u32, fmf, fn_ty);
                self.push(InstKind::Call { call: info, tail }, ret, out);
            }
            ids::FUNC_CODE_INST_UNREACHABLE => self.push(InstKind::Unreachable, void, &[]),
            ids::FUNC_CODE_INST_RESUME => {
                let v = self.pair(ops, &mut i)?;
                self.push(InstKind::Resume, void, &[v]);
            }
            ids::FUNC_CODE_INST_PHI => {
                // [ty, (signed relative value, block)…, fmf?]
                let ty = self.ty(need!(self, ops, 0))?;
                let pairs = (ops.len() - 1) / 2;
                for k in 0..pairs {
                    let raw = ops[1 + 2 * k];
                    // Signed, as a value may be defined after the phi.
                    let id = if self.relative {
                        self.before_next(crate::record::decode_sign_rotated(raw) as u64)
                    } else {
                        raw
                    };
                    out.push(self.operand(id, ty));
                    out.push(self.block(ops[2 + 2 * k])?);
                }
                let flags = if ops.len() % 2 == 0 { ops[ops.len() - 1] as u32 } else { 0 };
                self.push(InstKind::Phi { flags }, ty, out);
            }
            ids::FUNC_CODE_INST_LANDINGPAD | ids::FUNC_CODE_INST_LANDINGPAD_OLD => {
                let ty = self.ty(need!(self, ops, 0))?;
                i = 1;
                if code == ids::FUNC_CODE_INST_LANDINGPAD_OLD {
                    // The personality function, the function's since LLVM 3.7.
                    let personality = self.pair(ops, &mut i)?;
                    self.body.old_personality.get_or_insert(personality);
                }
                let cleanup = need!(self, ops, i) != 0;
                let n = need!(self, ops, i + 1);
                i += 2;
                let mut kinds = Vec::new();
                for _ in 0..n {
                    kinds.push(need!(self, ops, i));
                    i += 1;
                    let o = self.pair(ops, &mut i)?;
                    out.push(o);
                }
                let clauses = self.body.push_literals(&kinds);
                self.push(InstKind::LandingPad { cleanup, clauses }, ty, out);
            }
            ids::FUNC_CODE_INST_CLEANUPRET => {
                let token = self.bodies.index.get(TypeKey::Token);
                let pad = self.value(ops, &mut i, token)?;
                out.push(pad);
                if let Some(&b) = ops.get(1) {
                    out.push(self.block(b)?);
                }
                self.push(InstKind::CleanupRet, void, out);
            }
            ids::FUNC_CODE_INST_CATCHRET => {
                let token = self.bodies.index.get(TypeKey::Token);
                let pad = self.value(ops, &mut i, token)?;
                let b = self.block(need!(self, ops, 1))?;
                self.push(InstKind::CatchRet, void, &[pad, b]);
            }
            ids::FUNC_CODE_INST_CATCHSWITCH => {
                // [parent pad, n, handlers…, unwind?]
                let token = self.bodies.index.get(TypeKey::Token);
                let parent = self.value(ops, &mut i, token)?;
                out.push(parent);
                let n = need!(self, ops, 1);
                i = 2;
                for _ in 0..n {
                    out.push(self.block(need!(self, ops, i))?);
                    i += 1;
                }
                let has_unwind = i < ops.len();
                if has_unwind {
                    out.push(self.block(ops[i])?);
                }
                self.push(InstKind::CatchSwitch { has_unwind }, token, out);
            }
            ids::FUNC_CODE_INST_CATCHPAD | ids::FUNC_CODE_INST_CLEANUPPAD => {
                // [parent pad, n, (value, type)…]
                let token = self.bodies.index.get(TypeKey::Token);
                let parent = self.value(ops, &mut i, token)?;
                out.push(parent);
                let n = need!(self, ops, 1);
                i = 2;
                for _ in 0..n {
                    let o = self.pair(ops, &mut i)?;
                    out.push(o);
                }
                let kind = if code == ids::FUNC_CODE_INST_CATCHPAD { InstKind::CatchPad } else { InstKind::CleanupPad };
                self.push(kind, token, out);
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    fn call_info(&self, attrs: u64, cc: u32, fmf: u32, fn_ty: TypeId) -> CallInfo {
        CallInfo {
            calling_conv: cc,
            attributes: attrs.checked_sub(1).map(|a| a as u32),
            function_type: fn_ty,
            fast_math: fmf,
            bundles: self.pending_bundles.unwrap_or_default(),
        }
    }

    /// The function type and return type of a callee: explicit, or the pointee of the
    /// callee's typed pointer.
    fn callee_type(&self, explicit: Option<TypeId>, callee: &Operand) -> Result<(TypeId, TypeId, bool), Error> {
        let fn_ty = match explicit {
            Some(t) => t,
            None => match self.types().get(callee.ty) {
                Some(Type::Pointer { pointee: Some(p), .. }) => *p,
                _ => NO_TYPE,
            },
        };
        match self.types().get(fn_ty) {
            Some(Type::Function { ret, vararg, .. }) => Ok((fn_ty, *ret, *vararg)),
            _ => Err(Error::WrongType {
                what: "call",
                bit: self.bit,
                index: u64::from(fn_ty.0),
                expected: "a function type",
            }),
        }
    }

    /// Call arguments: the fixed parameters by their types (labels as blocks), then
    /// variadic ones as (value, type) pairs.
    fn call_args(
        &mut self,
        ops: &[u64],
        i: &mut usize,
        fn_ty: TypeId,
        vararg: bool,
        out: &mut Vec<Operand>,
    ) -> Result<(), Error> {
        let count = match self.types().get(fn_ty) {
            Some(Type::Function { params, .. }) => params.len(),
            _ => 0,
        };
        for k in 0..count {
            let p = match self.types().get(fn_ty) {
                Some(Type::Function { params, .. }) => params[k],
                _ => NO_TYPE,
            };
            if matches!(self.types().get(p), Some(Type::Label)) {
                let raw = need!(self, ops, *i);
                *i += 1;
                out.push(self.block(raw)?);
            } else {
                out.push(self.value(ops, i, p)?);
            }
        }
        if vararg {
            self.pairs_to_end(ops, i, out)?;
        }
        Ok(())
    }

    /// A call's callee (after its explicit function type, if `explicit_type`) and
    /// arguments, onto `out`: the function type and the return type.
    fn callee_and_args(
        &mut self,
        ops: &[u64],
        i: &mut usize,
        explicit_type: bool,
        out: &mut Vec<Operand>,
    ) -> Result<(TypeId, TypeId), Error> {
        let explicit = if explicit_type {
            let t = self.ty(need!(self, ops, *i))?;
            *i += 1;
            Some(t)
        } else {
            None
        };
        let callee = self.pair(ops, i)?;
        let (fn_ty, ret, vararg) = self.callee_type(explicit, &callee)?;
        out.push(callee);
        self.call_args(ops, i, fn_ty, vararg, out)?;
        Ok((fn_ty, ret))
    }
}

/// Clears the bits of `v` (little-endian words) at and above `width`.
fn truncate(v: &mut [u64], width: u64) {
    let words = width.div_ceil(64);
    let rem = (width % 64) as u32;
    if rem != 0 && v.len() as u64 == words {
        if let Some(last) = v.last_mut() {
            *last &= (1u64 << rem) - 1;
        }
    }
}

/// `a <= b`, unsigned (`APInt::ule`); missing high words are zero.
fn wide_ule(a: &[u64], b: &[u64]) -> bool {
    let n = a.len().max(b.len());
    for k in (0..n).rev() {
        let (x, y) = (a.get(k).copied().unwrap_or(0), b.get(k).copied().unwrap_or(0));
        if x != y {
            return x < y;
        }
    }
    true
}

/// `v + 1` in `width` bits; `false` when it wraps to zero (LLVM's loop would not end).
fn wide_increment(v: &mut Vec<u64>, width: u64) -> bool {
    for w in v.iter_mut() {
        let (n, carry) = w.overflowing_add(1);
        *w = n;
        if !carry {
            truncate(v, width);
            return v.iter().any(|&w| w != 0);
        }
    }
    // Carried out of every word: a word more, if the width has it.
    if (v.len() as u64) < width.div_ceil(64) {
        v.push(1);
        truncate(v, width);
        return true;
    }
    false
}
