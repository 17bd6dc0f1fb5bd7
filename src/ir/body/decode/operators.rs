//! The instructions that compute a value from values: unary and binary operators,
//! casts, comparisons, `select`, `getelementptr`, vector and aggregate element access,
//! `freeze`.

use alloc::vec::Vec;

use super::Decoder;
use crate::error::Error;
use crate::ids::llvm_ir::raw as ids;
use crate::ir::body::type_index::{NO_TYPE, TypeKey};
use crate::ir::body::{InstKind, Operand, Value};
use crate::ir::module::constants::ConstantKind;
use crate::ir::module::types::{Type, TypeId};

impl Decoder<'_, '_, '_> {
    /// Reads an operator's record; `false` if `code` is not one.
    pub(super) fn operator_instruction(
        &mut self,
        code: u32,
        ops: &[u64],
        out: &mut Vec<Operand>,
    ) -> Result<bool, Error> {
        let mut i = 0;
        match code {
            ids::FUNC_CODE_INST_BINOP => {
                let lhs = self.pair(ops, &mut i)?;
                let rhs = self.value(ops, &mut i, lhs.ty)?;
                let opcode = need!(self, ops, i) as u32;
                let flags = ops.get(i + 1).copied().unwrap_or(0) as u32;
                self.push(InstKind::Binary { opcode, flags }, lhs.ty, &[lhs, rhs]);
            }
            ids::FUNC_CODE_INST_UNOP => {
                let v = self.pair(ops, &mut i)?;
                let opcode = need!(self, ops, i) as u32;
                let flags = ops.get(i + 1).copied().unwrap_or(0) as u32;
                self.push(InstKind::Unary { opcode, flags }, v.ty, &[v]);
            }
            ids::FUNC_CODE_INST_CAST => {
                let v = self.pair(ops, &mut i)?;
                let to = self.ty(need!(self, ops, i))?;
                let opcode = need!(self, ops, i + 1) as u32;
                let flags = ops.get(i + 2).copied().unwrap_or(0) as u32;
                self.push(InstKind::Cast { opcode, flags }, to, &[v]);
            }
            ids::FUNC_CODE_INST_GEP | ids::FUNC_CODE_INST_GEP_OLD | ids::FUNC_CODE_INST_INBOUNDS_GEP_OLD => {
                let (flags, source) = if code == ids::FUNC_CODE_INST_GEP {
                    i = 2;
                    (need!(self, ops, 0) as u32, Some(self.ty(need!(self, ops, 1))?))
                } else {
                    (u32::from(code == ids::FUNC_CODE_INST_INBOUNDS_GEP_OLD), None)
                };
                self.pairs_to_end(ops, &mut i, out)?;
                let Some(base) = out.first().copied() else { return Err(self.short(ops.len(), i + 1)) };
                let source = match source {
                    Some(s) => s,
                    None => self.pointee(base.ty),
                };
                let ty = self.gep_type(source, out);
                self.push(InstKind::GetElementPtr { source, flags }, ty, out);
            }
            ids::FUNC_CODE_INST_SELECT => {
                // [ty, opval, opval, opval] (old: condition i1)
                let t = self.pair(ops, &mut i)?;
                let f = self.value(ops, &mut i, t.ty)?;
                let i1 = self.bodies.index.get(TypeKey::Int(1));
                let c = self.value(ops, &mut i, i1)?;
                self.push(InstKind::Select { flags: 0 }, t.ty, &[c, t, f]);
            }
            ids::FUNC_CODE_INST_VSELECT => {
                let t = self.pair(ops, &mut i)?;
                let f = self.value(ops, &mut i, t.ty)?;
                let c = self.pair(ops, &mut i)?;
                let flags = ops.get(i).copied().unwrap_or(0) as u32;
                self.push(InstKind::Select { flags }, t.ty, &[c, t, f]);
            }
            ids::FUNC_CODE_INST_EXTRACTELT => {
                let v = self.pair(ops, &mut i)?;
                let idx = self.pair(ops, &mut i)?;
                let ty = self.element_of(v.ty);
                self.push(InstKind::ExtractElement, ty, &[v, idx]);
            }
            ids::FUNC_CODE_INST_INSERTELT => {
                let v = self.pair(ops, &mut i)?;
                let e = self.value(ops, &mut i, self.element_of(v.ty))?;
                let idx = self.pair(ops, &mut i)?;
                self.push(InstKind::InsertElement, v.ty, &[v, e, idx]);
            }
            ids::FUNC_CODE_INST_SHUFFLEVEC => {
                let a = self.pair(ops, &mut i)?;
                let b = self.value(ops, &mut i, a.ty)?;
                let mask = self.pair(ops, &mut i)?;
                let ty = match (self.types().get(a.ty), self.types().get(mask.ty)) {
                    (Some(Type::Vector { element, .. }), Some(Type::Vector { len, scalable, .. })) => {
                        self.bodies.index.get(TypeKey::Vector(element.0, *len, *scalable))
                    }
                    _ => NO_TYPE,
                };
                self.push(InstKind::ShuffleVector, ty, &[a, b, mask]);
            }
            ids::FUNC_CODE_INST_CMP | ids::FUNC_CODE_INST_CMP2 => {
                let lhs = self.pair(ops, &mut i)?;
                let rhs = self.value(ops, &mut i, lhs.ty)?;
                let predicate = need!(self, ops, i) as u32;
                let flags = ops.get(i + 1).copied().unwrap_or(0) as u32;
                let ty = self.bool_like(lhs.ty);
                self.push(InstKind::Cmp { predicate, flags }, ty, &[lhs, rhs]);
            }
            ids::FUNC_CODE_INST_EXTRACTVAL => {
                let agg = self.pair(ops, &mut i)?;
                let indices = self.body.push_literals(&ops[i.min(ops.len())..]);
                let ty = self.indexed_type(agg.ty, self.body.literals[indices.start as usize..].iter().copied());
                self.push(InstKind::ExtractValue { indices }, ty, &[agg]);
            }
            ids::FUNC_CODE_INST_INSERTVAL => {
                let agg = self.pair(ops, &mut i)?;
                let v = self.pair(ops, &mut i)?;
                let indices = self.body.push_literals(&ops[i.min(ops.len())..]);
                self.push(InstKind::InsertValue { indices }, agg.ty, &[agg, v]);
            }
            ids::FUNC_CODE_INST_FREEZE => {
                let v = self.pair(ops, &mut i)?;
                self.push(InstKind::Freeze, v.ty, &[v]);
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    fn element_of(&self, ty: TypeId) -> TypeId {
        match self.types().get(ty) {
            Some(Type::Vector { element, .. } | Type::Array { element, .. }) => *element,
            _ => NO_TYPE,
        }
    }

    /// `i1`, or `<N x i1>` for a vector operand type.
    fn bool_like(&self, ty: TypeId) -> TypeId {
        let i1 = self.bodies.index.get(TypeKey::Int(1));
        match self.types().get(ty) {
            Some(Type::Vector { len, scalable, .. }) => self.bodies.index.get(TypeKey::Vector(i1.0, *len, *scalable)),
            _ => i1,
        }
    }

    /// The type `indices` select inside `ty` (extractvalue).
    fn indexed_type(&self, mut ty: TypeId, indices: impl Iterator<Item = u64>) -> TypeId {
        for i in indices {
            ty = match self.types().get(ty) {
                Some(Type::Struct { elements: Some(e), .. }) => e.get(i as usize).copied().unwrap_or(NO_TYPE),
                Some(Type::Array { element, .. } | Type::Vector { element, .. }) => *element,
                _ => NO_TYPE,
            };
        }
        ty
    }

    /// A GEP's result type: a pointer (to the indexed type, with typed pointers), or a
    /// vector of them when the base or an index is a vector.
    fn gep_type(&self, source: TypeId, operands: &[Operand]) -> TypeId {
        let types = self.types();
        let vector = operands.iter().find_map(|o| match types.get(o.ty) {
            Some(Type::Vector { len, scalable, .. }) => Some((*len, *scalable)),
            _ => None,
        });
        let base_ty = match types.get(operands[0].ty) {
            Some(Type::Vector { element, .. }) => *element,
            _ => operands[0].ty,
        };
        let address_space = match types.get(base_ty) {
            Some(Type::Pointer { address_space, .. }) => *address_space,
            _ => 0,
        };
        let pointer = if self.bodies.index.typed_pointers {
            let mut ty = source;
            for o in operands.iter().skip(2) {
                ty = match types.get(ty) {
                    Some(Type::Struct { elements: Some(e), .. }) => {
                        let index = self.constant_int(o.value).unwrap_or(0);
                        e.get(index as usize).copied().unwrap_or(NO_TYPE)
                    }
                    Some(Type::Array { element, .. } | Type::Vector { element, .. }) => *element,
                    _ => NO_TYPE,
                };
            }
            self.bodies.index.pointer_to(ty, address_space)
        } else {
            self.bodies.index.pointer_to(NO_TYPE, address_space)
        };
        match vector {
            Some((len, scalable)) => self.bodies.index.get(TypeKey::Vector(pointer.0, len, scalable)),
            None => pointer,
        }
    }

    /// The value of an integer constant (a struct index).
    fn constant_int(&self, value: Value) -> Option<i64> {
        let Value::Constant(id) = value else { return None };
        let (c, _) = self.bodies.constant(&self.body, id)?;
        match c.kind {
            ConstantKind::Int(v) => Some(v),
            ConstantKind::Null => Some(0),
            _ => None,
        }
    }
}
