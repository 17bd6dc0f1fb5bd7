//! The instructions that reach memory: `alloca`, `load`, `store`, `fence`, `cmpxchg`,
//! `atomicrmw`, `va_arg`.

use super::Decoder;
use crate::error::Error;
use crate::ids::llvm_ir::raw as ids;
use crate::ir::body::type_index::TypeKey;
use crate::ir::body::{InstKind, Operand, Ordering};
use crate::ir::module::decode_alignment;

impl Decoder<'_, '_, '_> {
    /// Reads a memory instruction's record; `false` if `code` is not one.
    pub(super) fn memory_instruction(&mut self, code: u32, ops: &[u64]) -> Result<bool, Error> {
        let mut i = 0;
        let void = self.void();
        match code {
            ids::FUNC_CODE_INST_ALLOCA => {
                // [instty, opty, op (absolute), align, addrspace?]
                let mut ty = self.ty(need!(self, ops, 0))?;
                let size_ty = self.ty(need!(self, ops, 1))?;
                let size = self.operand(need!(self, ops, 2), size_ty);
                let record = need!(self, ops, 3);
                let explicit = record & (1 << 6) != 0;
                let exponent = (record & 0x1f) | (((record >> 8) & 0x7) << 5);
                let align = decode_alignment(exponent);
                let address_space = match ops.get(4) {
                    Some(&a) => a,
                    None => self.bodies.alloca_address_space,
                };
                let allocated = if explicit {
                    let a = ty;
                    ty = self.bodies.index.pointer_to(a, address_space);
                    a
                } else {
                    self.pointee(ty)
                };
                let kind = InstKind::Alloca {
                    allocated,
                    align,
                    inalloca: record & (1 << 5) != 0,
                    swifterror: record & (1 << 7) != 0,
                };
                self.push(kind, ty, &[size]);
            }
            ids::FUNC_CODE_INST_LOAD | ids::FUNC_CODE_INST_LOADATOMIC => {
                // [op, ty?, align, vol, (ordering, ssid)]
                let ptr = self.pair(ops, &mut i)?;
                let extra = if code == ids::FUNC_CODE_INST_LOADATOMIC { 2 } else { 0 };
                let ty = if i + 3 + extra == ops.len() {
                    let t = self.ty(ops[i])?;
                    i += 1;
                    t
                } else {
                    self.pointee(ptr.ty)
                };
                let align = decode_alignment(need!(self, ops, i));
                let volatile = need!(self, ops, i + 1) != 0;
                let (ordering, scope) = if extra == 2 {
                    (Ordering::from_raw(need!(self, ops, i + 2)), need!(self, ops, i + 3) as u32)
                } else {
                    (Ordering::NotAtomic, 1)
                };
                self.push(InstKind::Load { align, volatile, ordering, scope }, ty, &[ptr]);
            }
            ids::FUNC_CODE_INST_STORE
            | ids::FUNC_CODE_INST_STORE_OLD
            | ids::FUNC_CODE_INST_STOREATOMIC
            | ids::FUNC_CODE_INST_STOREATOMIC_OLD => {
                // [ptrty, ptr, valty?, val, align, vol, (ordering, ssid)]
                let typed = matches!(code, ids::FUNC_CODE_INST_STORE | ids::FUNC_CODE_INST_STOREATOMIC);
                let (ptr, val) = self.pointer_and_value(ops, &mut i, typed)?;
                let align = decode_alignment(need!(self, ops, i));
                let volatile = need!(self, ops, i + 1) != 0;
                let atomic = matches!(code, ids::FUNC_CODE_INST_STOREATOMIC | ids::FUNC_CODE_INST_STOREATOMIC_OLD);
                let (ordering, scope) = if atomic {
                    (Ordering::from_raw(need!(self, ops, i + 2)), need!(self, ops, i + 3) as u32)
                } else {
                    (Ordering::NotAtomic, 1)
                };
                self.push(InstKind::Store { align, volatile, ordering, scope }, void, &[val, ptr]);
            }
            ids::FUNC_CODE_INST_FENCE => {
                let ordering = Ordering::from_raw(need!(self, ops, 0));
                let scope = need!(self, ops, 1) as u32;
                self.push(InstKind::Fence { ordering, scope }, void, &[]);
            }
            ids::FUNC_CODE_INST_CMPXCHG | ids::FUNC_CODE_INST_CMPXCHG_OLD => {
                // [ptr, cmp, new, vol, success, ssid, failure, weak, align?]
                let (ptr, cmp) = self.pointer_and_value(ops, &mut i, code == ids::FUNC_CODE_INST_CMPXCHG)?;
                let new = self.value(ops, &mut i, cmp.ty)?;
                let volatile = need!(self, ops, i) != 0;
                let success = Ordering::from_raw(need!(self, ops, i + 1));
                let scope = need!(self, ops, i + 2) as u32;
                let failure = match ops.get(i + 3) {
                    Some(&f) => Ordering::from_raw(f),
                    None => strongest_failure(success),
                };
                let weak = ops.get(i + 4).is_some_and(|&w| w != 0);
                let align = ops.get(i + 5).copied().and_then(decode_alignment);
                let i1 = self.bodies.index.get(TypeKey::Int(1));
                // Before weak cmpxchg (LLVM 3.5) the result was the old value alone.
                let ty = if ops.len() > i + 4 { self.bodies.index.get(TypeKey::Pair(cmp.ty.0, i1.0)) } else { cmp.ty };
                let kind = InstKind::CmpXchg { weak, volatile, success, failure, scope, align };
                self.push(kind, ty, &[ptr, cmp, new]);
            }
            ids::FUNC_CODE_INST_ATOMICRMW | ids::FUNC_CODE_INST_ATOMICRMW_OLD => {
                // [ptr, val, op, vol, ordering, ssid, align?]
                let (ptr, val) = self.pointer_and_value(ops, &mut i, code == ids::FUNC_CODE_INST_ATOMICRMW)?;
                let opcode = need!(self, ops, i) as u32;
                let volatile = need!(self, ops, i + 1) != 0;
                let ordering = Ordering::from_raw(need!(self, ops, i + 2));
                let scope = need!(self, ops, i + 3) as u32;
                let align = ops.get(i + 4).copied().and_then(decode_alignment);
                let kind = InstKind::AtomicRmw { opcode, volatile, ordering, scope, align };
                self.push(kind, val.ty, &[ptr, val]);
            }
            ids::FUNC_CODE_INST_VAARG => {
                // [valistty, valist, instty]
                let list_ty = self.ty(need!(self, ops, 0))?;
                i = 1;
                let list = self.value(ops, &mut i, list_ty)?;
                let ty = self.ty(need!(self, ops, 2))?;
                self.push(InstKind::VaArg, ty, &[list]);
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// A memory instruction's pointer, then its value: with its own type (`typed`, the
    /// current records) or the pointer's pointee type (the `*_OLD` records).
    fn pointer_and_value(&mut self, ops: &[u64], i: &mut usize, typed: bool) -> Result<(Operand, Operand), Error> {
        let ptr = self.pair(ops, i)?;
        let value = if typed {
            self.pair(ops, i)?
        } else {
            let pointee = self.pointee(ptr.ty);
            self.value(ops, i, pointee)?
        };
        Ok((ptr, value))
    }
}

/// The strongest failure ordering a success ordering allows (files before LLVM 3.5).
fn strongest_failure(success: Ordering) -> Ordering {
    match success {
        Ordering::AcqRel => Ordering::Acquire,
        Ordering::Release => Ordering::Monotonic,
        o => o,
    }
}
