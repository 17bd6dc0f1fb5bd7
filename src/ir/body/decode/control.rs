//! The instructions that name basic blocks: the terminators, calls (`call`, `invoke`,
//! `callbr`), `phi`, and the exception-handling pads.

use alloc::vec::Vec;

use super::Decoder;
use crate::error::Error;
use crate::ids::llvm_ir::raw as ids;
use crate::ir::body::type_index::{NO_TYPE, TypeKey};
use crate::ir::body::{CallInfo, InstKind, Operand, TailKind};
use crate::ir::module::types::{Type, TypeId};

impl Decoder<'_, '_, '_> {
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
