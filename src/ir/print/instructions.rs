//! One instruction as `llvm-dis` prints it: the opcode and its flags, the operands, the
//! orderings, alignments and masks after them.

use core::fmt;

use crate::ir::body::{InstKind, Operand, Ordering, TailKind, Value};
use crate::ir::module::types::Type;
use crate::ir::print::function::BodyPrinter;
use crate::ir::print::slot_tracker::NO_SLOT;
use crate::ir::print::write_decimal;
use crate::ir::vocabulary::opcodes::{binary_op_name, cast_op_name, predicate_name, rmw_op_name};

impl BodyPrinter<'_, '_, '_> {
    pub(super) fn instruction(&self, f: &mut dyn fmt::Write, index: usize) -> fmt::Result {
        let body = self.body;
        let inst = &body.instructions[index];
        let ops = body.operands(inst);
        f.write_str("  ")?;
        if inst.has_result {
            let local = self.locals.get(index).copied().unwrap_or(NO_SLOT);
            self.local(f, body.local_name(local), self.slots.instruction(index as u32).unwrap_or(NO_SLOT))?;
            f.write_str(" = ")?;
        }
        if let InstKind::Call { tail, .. } = inst.kind {
            match tail {
                TailKind::MustTail => f.write_str("musttail ")?,
                TailKind::Tail => f.write_str("tail ")?,
                TailKind::NoTail => f.write_str("notail ")?,
                TailKind::None => {}
            }
        }
        let first_float = ops.first().is_some_and(|o| self.view.types().is_fp_or_fp_vector(o.ty));
        // The opcode, then `atomic`, `weak`, `volatile`, the optimization flags.
        match inst.kind {
            InstKind::Ret => f.write_str("ret")?,
            InstKind::Br => f.write_str("br")?,
            InstKind::Switch => f.write_str("switch")?,
            InstKind::IndirectBr => f.write_str("indirectbr")?,
            InstKind::Invoke(_) => f.write_str("invoke")?,
            InstKind::Resume => f.write_str("resume")?,
            InstKind::Unreachable => f.write_str("unreachable")?,
            InstKind::CleanupRet => f.write_str("cleanupret")?,
            InstKind::CatchRet => f.write_str("catchret")?,
            InstKind::CatchSwitch { .. } => f.write_str("catchswitch")?,
            InstKind::CallBr { .. } => f.write_str("callbr")?,
            InstKind::Unary { flags, .. } => {
                f.write_str("fneg")?;
                Self::fast_math(f, flags)?;
            }
            InstKind::Binary { opcode, flags } => {
                f.write_str(binary_op_name(opcode, first_float))?;
                if first_float {
                    Self::fast_math(f, flags)?;
                } else {
                    match opcode {
                        0 | 1 | 2 | 7 => {
                            if flags & 1 != 0 {
                                f.write_str(" nuw")?;
                            }
                            if flags & 2 != 0 {
                                f.write_str(" nsw")?;
                            }
                        }
                        3 | 4 | 8 | 9 if flags & 1 != 0 => f.write_str(" exact")?,
                        11 if flags & 1 != 0 => f.write_str(" disjoint")?,
                        _ => {}
                    }
                }
            }
            InstKind::Cast { opcode, flags } => {
                f.write_str(cast_op_name(opcode))?;
                match opcode {
                    // trunc: nuw, nsw.
                    0 => {
                        if flags & 1 != 0 {
                            f.write_str(" nuw")?;
                        }
                        if flags & 2 != 0 {
                            f.write_str(" nsw")?;
                        }
                    }
                    // zext, uitofp: nneg.
                    1 | 5 if flags & 1 != 0 => f.write_str(" nneg")?,
                    // fptrunc, fpext and the int/float conversions with fast-math
                    // flags (LLVM 18 and later).
                    3 | 4 | 6 | 7 | 8 if flags != 0 => Self::fast_math(f, flags)?,
                    _ => {}
                }
            }
            InstKind::GetElementPtr { flags, .. } => {
                f.write_str("getelementptr")?;
                crate::ir::print::constants::write_gep_flags(f, u64::from(flags))?;
            }
            InstKind::Alloca { .. } => f.write_str("alloca")?,
            InstKind::Load { volatile, ordering, .. } => {
                f.write_str("load")?;
                if ordering != Ordering::NotAtomic {
                    f.write_str(" atomic")?;
                }
                if volatile {
                    f.write_str(" volatile")?;
                }
            }
            InstKind::Store { volatile, ordering, .. } => {
                f.write_str("store")?;
                if ordering != Ordering::NotAtomic {
                    f.write_str(" atomic")?;
                }
                if volatile {
                    f.write_str(" volatile")?;
                }
            }
            InstKind::Fence { .. } => f.write_str("fence")?,
            InstKind::CmpXchg { weak, volatile, .. } => {
                f.write_str("cmpxchg")?;
                if weak {
                    f.write_str(" weak")?;
                }
                if volatile {
                    f.write_str(" volatile")?;
                }
            }
            InstKind::AtomicRmw { opcode, volatile, .. } => {
                f.write_str("atomicrmw")?;
                if volatile {
                    f.write_str(" volatile")?;
                }
                write!(f, " {}", rmw_op_name(opcode))?;
            }
            InstKind::Cmp { predicate, flags } => {
                let float = predicate < 32;
                f.write_str(if float { "fcmp" } else { "icmp" })?;
                if float {
                    Self::fast_math(f, flags)?;
                } else if flags & 1 != 0 {
                    f.write_str(" samesign")?;
                }
                write!(f, " {}", predicate_name(predicate))?;
            }
            InstKind::Phi { flags } => {
                f.write_str("phi")?;
                Self::fast_math(f, flags)?;
            }
            InstKind::Select { flags } => {
                f.write_str("select")?;
                Self::fast_math(f, flags)?;
            }
            InstKind::Call { call, .. } => {
                f.write_str("call")?;
                Self::fast_math(f, call.fast_math)?;
            }
            InstKind::VaArg => f.write_str("va_arg")?,
            InstKind::LandingPad { .. } => f.write_str("landingpad")?,
            InstKind::CleanupPad => f.write_str("cleanuppad")?,
            InstKind::CatchPad => f.write_str("catchpad")?,
            InstKind::ExtractElement => f.write_str("extractelement")?,
            InstKind::InsertElement => f.write_str("insertelement")?,
            InstKind::ShuffleVector => f.write_str("shufflevector")?,
            InstKind::ExtractValue { .. } => f.write_str("extractvalue")?,
            InstKind::InsertValue { .. } => f.write_str("insertvalue")?,
            InstKind::Freeze => f.write_str("freeze")?,
            InstKind::Unknown { code, operands } => {
                return write!(f, "; unknown instruction record {code}: {:?}", body.literal_range(operands));
            }
            #[allow(unreachable_patterns)]
            _ => f.write_str("<unknown instruction>")?,
        }
        // The operands.
        match inst.kind {
            InstKind::Br if ops.len() == 3 => {
                f.write_char(' ')?;
                for (i, o) in ops.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    self.operand(f, o, true)?;
                }
            }
            InstKind::Switch => {
                f.write_char(' ')?;
                if let [cond, default, cases @ ..] = ops {
                    self.operand(f, cond, true)?;
                    f.write_str(", ")?;
                    self.operand(f, default, true)?;
                    f.write_str(" [")?;
                    for case in cases.chunks(2) {
                        f.write_str("\n    ")?;
                        self.operand(f, &case[0], true)?;
                        if let Some(b) = case.get(1) {
                            f.write_str(", ")?;
                            self.operand(f, b, true)?;
                        }
                    }
                    f.write_str("\n  ]")?;
                }
            }
            InstKind::IndirectBr => {
                f.write_char(' ')?;
                if let [addr, blocks @ ..] = ops {
                    self.operand(f, addr, true)?;
                    f.write_str(", [")?;
                    for (i, b) in blocks.iter().enumerate() {
                        if i > 0 {
                            f.write_str(", ")?;
                        }
                        self.operand(f, b, true)?;
                    }
                    f.write_char(']')?;
                }
            }
            InstKind::Phi { .. } => {
                f.write_char(' ')?;
                self.ty(f, inst.ty)?;
                f.write_char(' ')?;
                for (i, pair) in ops.chunks(2).enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    f.write_str("[ ")?;
                    self.value(f, &pair[0])?;
                    f.write_str(", ")?;
                    if let Some(b) = pair.get(1) {
                        self.value(f, b)?;
                    }
                    f.write_str(" ]")?;
                }
            }
            InstKind::ExtractValue { indices } | InstKind::InsertValue { indices } => {
                f.write_char(' ')?;
                for (i, o) in ops.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    self.operand(f, o, true)?;
                }
                for i in body.literal_range(indices) {
                    write!(f, ", {}", *i as u32)?;
                }
            }
            InstKind::LandingPad { cleanup, clauses } => {
                f.write_char(' ')?;
                self.ty(f, inst.ty)?;
                let kinds = body.literal_range(clauses);
                if cleanup || !kinds.is_empty() {
                    f.write_char('\n')?;
                }
                if cleanup {
                    f.write_str("          cleanup")?;
                }
                for (i, (kind, o)) in kinds.iter().zip(ops).enumerate() {
                    if i != 0 || cleanup {
                        f.write_char('\n')?;
                    }
                    f.write_str(if *kind == 0 { "          catch " } else { "          filter " })?;
                    self.operand(f, o, true)?;
                }
            }
            InstKind::CatchSwitch { has_unwind } => {
                f.write_str(" within ")?;
                if let [parent, rest @ ..] = ops {
                    self.value(f, parent)?;
                    let (handlers, unwind) =
                        if has_unwind { rest.split_at(rest.len().saturating_sub(1)) } else { (rest, &[][..]) };
                    f.write_str(" [")?;
                    for (i, h) in handlers.iter().enumerate() {
                        if i > 0 {
                            f.write_str(", ")?;
                        }
                        self.operand(f, h, true)?;
                    }
                    f.write_str("] unwind ")?;
                    match unwind.first() {
                        Some(u) => self.operand(f, u, true)?,
                        None => f.write_str("to caller")?,
                    }
                }
            }
            InstKind::CleanupPad | InstKind::CatchPad => {
                f.write_str(" within ")?;
                if let [parent, args @ ..] = ops {
                    self.value(f, parent)?;
                    f.write_str(" [")?;
                    for (i, a) in args.iter().enumerate() {
                        if i > 0 {
                            f.write_str(", ")?;
                        }
                        self.operand(f, a, true)?;
                    }
                    f.write_char(']')?;
                }
            }
            InstKind::Ret if ops.is_empty() => f.write_str(" void")?,
            InstKind::CatchRet => {
                if let [pad, to] = ops {
                    f.write_str(" from ")?;
                    self.value(f, pad)?;
                    f.write_str(" to ")?;
                    self.operand(f, to, true)?;
                }
            }
            InstKind::CleanupRet => {
                if let [pad, rest @ ..] = ops {
                    f.write_str(" from ")?;
                    self.value(f, pad)?;
                    f.write_str(" unwind ")?;
                    match rest.first() {
                        Some(u) => self.operand(f, u, true)?,
                        None => f.write_str("to caller")?,
                    }
                }
            }
            InstKind::Call { call, .. } => {
                let args = ops.len().saturating_sub(1);
                self.call(f, &call, ops, args, index)?;
            }
            InstKind::Invoke(call) => {
                let args = ops.len().saturating_sub(3);
                self.call(f, &call, ops, args, index)?;
                if let [.., normal, unwind] = ops {
                    f.write_str("\n          to ")?;
                    self.operand(f, normal, true)?;
                    f.write_str(" unwind ")?;
                    self.operand(f, unwind, true)?;
                }
            }
            InstKind::CallBr { call, indirect } => {
                let args = ops.len().saturating_sub(2 + indirect as usize);
                self.call(f, &call, ops, args, index)?;
                let dests = &ops[(1 + args).min(ops.len())..];
                if let [default, indirect @ ..] = dests {
                    f.write_str("\n          to ")?;
                    self.operand(f, default, true)?;
                    f.write_str(" [")?;
                    for (i, d) in indirect.iter().enumerate() {
                        if i > 0 {
                            f.write_str(", ")?;
                        }
                        self.operand(f, d, true)?;
                    }
                    f.write_char(']')?;
                }
            }
            InstKind::Alloca { allocated, align, inalloca, swifterror } => {
                f.write_char(' ')?;
                if inalloca {
                    f.write_str("inalloca ")?;
                }
                if swifterror {
                    f.write_str("swifterror ")?;
                }
                self.ty(f, allocated)?;
                if let Some(size) = ops.first() {
                    let is_i32 = matches!(self.view.types().get(size.ty), Some(Type::Integer(32)));
                    let is_one = matches!(size.value, Value::Constant(id) if self.is_constant_one(id));
                    if !is_i32 || !is_one {
                        f.write_str(", ")?;
                        self.operand(f, size, true)?;
                    }
                }
                if let Some(a) = align {
                    f.write_str(", align ")?;
                    write_decimal(f, a)?;
                }
                let address_space = match self.view.types().get(inst.ty) {
                    Some(Type::Pointer { address_space, .. }) => *address_space,
                    _ => 0,
                };
                if address_space != 0 {
                    write!(f, ", addrspace({address_space})")?;
                }
            }
            InstKind::Cast { .. } => {
                if let Some(o) = ops.first() {
                    f.write_char(' ')?;
                    self.operand(f, o, true)?;
                }
                f.write_str(" to ")?;
                self.ty(f, inst.ty)?;
            }
            InstKind::VaArg => {
                if let Some(o) = ops.first() {
                    f.write_char(' ')?;
                    self.operand(f, o, true)?;
                }
                f.write_str(", ")?;
                self.ty(f, inst.ty)?;
            }
            _ if !ops.is_empty() => {
                match inst.kind {
                    InstKind::GetElementPtr { source, .. } => {
                        f.write_char(' ')?;
                        self.ty(f, source)?;
                        f.write_char(',')?;
                    }
                    InstKind::Load { .. } => {
                        f.write_char(' ')?;
                        self.ty(f, inst.ty)?;
                        f.write_char(',')?;
                    }
                    _ => {}
                }
                let shown: &[Operand] =
                    if let InstKind::ShuffleVector = inst.kind { &ops[..2.min(ops.len())] } else { ops };
                // cmpxchg prints every type from LLVM 15 on, atomicrmw from 16.
                let atomic_since = match inst.kind {
                    InstKind::CmpXchg { .. } => 15,
                    InstKind::AtomicRmw { .. } => 16,
                    _ => u32::MAX,
                };
                let all_types = matches!(
                    inst.kind,
                    InstKind::Select { .. } | InstKind::Store { .. } | InstKind::ShuffleVector | InstKind::Ret
                ) || self.options.llvm_version >= atomic_since
                    || ops.iter().any(|o| o.ty != ops[0].ty);
                if !all_types {
                    f.write_char(' ')?;
                    self.ty(f, ops[0].ty)?;
                }
                f.write_char(' ')?;
                for (i, o) in shown.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    self.operand(f, o, all_types)?;
                }
            }
            _ => {}
        }
        // Orderings, alignments, the shuffle mask.
        match inst.kind {
            InstKind::Load { align, ordering, scope, .. } | InstKind::Store { align, ordering, scope, .. } => {
                self.atomic(f, ordering, scope)?;
                if let Some(a) = align {
                    f.write_str(", align ")?;
                    write_decimal(f, a)?;
                }
            }
            InstKind::CmpXchg { success, failure, scope, align, .. } => {
                self.atomic(f, success, scope)?;
                write!(f, " {}", failure.name())?;
                if let Some(a) = align {
                    f.write_str(", align ")?;
                    write_decimal(f, a)?;
                }
            }
            InstKind::AtomicRmw { ordering, scope, align, .. } => {
                self.atomic(f, ordering, scope)?;
                if let Some(a) = align {
                    f.write_str(", align ")?;
                    write_decimal(f, a)?;
                }
            }
            InstKind::Fence { ordering, scope } => self.atomic(f, ordering, scope)?,
            InstKind::Call { .. } => self.gc_relocate_comment(f, ops)?,
            InstKind::ShuffleVector => match ops.get(2).map(|m| m.value) {
                Some(Value::Constant(id)) => self.constants.shuffle_mask(f, id)?,
                _ => f.write_str(", <bad mask>")?,
            },
            _ => {}
        }
        Ok(())
    }

    /// `printGCRelocateComment`: ` ; (%base, %derived)` after a `gc.relocate` call,
    /// the two pointers being its statepoint's `gc-live` inputs at the call's indices.
    fn gc_relocate_comment(&self, f: &mut dyn fmt::Write, ops: &[Operand]) -> fmt::Result {
        let m = self.bodies.module();
        let [callee, token, base, derived] = ops else { return Ok(()) };
        let Value::Global(id) = callee.value else { return Ok(()) };
        if !m.global(id).is_some_and(|g| g.name.starts_with(b"llvm.experimental.gc.relocate")) {
            return Ok(());
        }
        let Value::Instruction(statepoint) = token.value else { return Ok(()) };
        let Some(InstKind::Call { call, .. } | InstKind::Invoke(call)) =
            self.body.instructions.get(statepoint as usize).map(|i| i.kind)
        else {
            return Ok(());
        };
        let start = call.bundles.start as usize;
        let bundles = self.body.bundles.get(start..start + call.bundles.len as usize).unwrap_or(&[]);
        let Some(live) =
            bundles.iter().find(|b| self.bodies.bundle_tags().get(b.tag as usize).is_some_and(|t| t == "gc-live"))
        else {
            return Ok(());
        };
        let inputs = self.body.operand_range(live.inputs);
        let index = |o: &Operand| match o.value {
            Value::Constant(id) => self.view.constant(self.body, id).map(|(c, _)| c).and_then(|c| match c.kind {
                crate::ir::ConstantKind::Int(v) => usize::try_from(v).ok(),
                crate::ir::ConstantKind::Null => Some(0),
                _ => None,
            }),
            _ => None,
        };
        let (Some(b), Some(d)) = (index(base).and_then(|i| inputs.get(i)), index(derived).and_then(|i| inputs.get(i)))
        else {
            return Ok(());
        };
        f.write_str(" ; (")?;
        self.value(f, b)?;
        f.write_str(", ")?;
        self.value(f, d)?;
        f.write_char(')')
    }

    fn is_constant_one(&self, id: u64) -> bool {
        let c = self.view.constant(self.body, id).map(|(c, _)| c);
        matches!(c.map(|c| c.kind), Some(crate::ir::ConstantKind::Int(1)))
    }
}
