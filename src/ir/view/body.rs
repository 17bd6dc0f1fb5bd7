//! A function body as LLVM N reads it: what `BitcodeReader::parseFunctionBody`,
//! `materializeValue` and `UpgradeIntrinsicCall` make of the file's instructions.
//!
//! - Loads, stores, allocas, `cmpxchg` and `atomicrmw` the file gave no alignment get the
//!   datalayout's (LLVM 11 and later have no alignment-less instruction).
//! - A constant expression the version no longer has is made instructions placed just
//!   before the instruction using it (`%constexpr`, `%constexpr1`, …, `%constexpr.ins` for
//!   an aggregate built element by element), as `materializeValue` makes them: each operand
//!   on its own, a sub-expression met twice within one operand made once. Left as they are:
//!   `phi` operands (LLVM makes them in an edge block `phi.constexpr`) and `landingpad`
//!   clauses (LLVM rejects those).
//! - From LLVM 19, a call of a debug intrinsic is a debug record before the next
//!   instruction (`#dbg_value`, `#dbg_declare`, `#dbg_assign`, `#dbg_label`).
//! - A call of an intrinsic whose signature changed is made anew with its new arguments
//!   (`i1 false` appended to `llvm.ctlz`, an old `llvm.dbg.value`'s offset dropped: a call
//!   with an offset not zero is deleted, `llvm.memcpy`'s alignment argument made `align`
//!   attributes), without `tail`, its attributes (but for the alignment) and its
//!   metadata but `!dbg`.
//! - LLVM 22's lifetime markers lose their size: a call takes the `alloca` its pointer is
//!   (casts and zero-index GEPs stripped), without its attributes and metadata but `!dbg`,
//!   or is removed.
//! - Calls of `llvm.thread.pointer` (22) are made anew, without `tail` and attributes.
//! - A `cmpxchg` of before LLVM 3.5, which returned the old value alone, is a `cmpxchg`
//!   of `{ T, i1 }` and an `extractvalue` of its first element, which the file's uses and
//!   name go to.
//! - A module whose debug info LLVM strips (`Debug Info Version` not 3) loses it in every
//!   body: debug-intrinsic calls and records, `!dbg` locations and the `dbg`,
//!   `heapallocsite` and `DIAssignID` attachments.

use alloc::vec::Vec;

use super::ModuleView;
use super::functions::CallUpgrade;
use crate::ids::llvm_ir::raw as ids;
use crate::ir::body::{
    Attachment, BasicBlock, Body, CallInfo, DebugRecord, InstKind, Instruction, Operand, TailKind, Value,
};
use crate::ir::metadata::MdEntry;
use crate::ir::module::GlobalRef;
use crate::ir::module::constants::{Constant, ConstantKind, OperandRange};
use crate::ir::module::types::{Type, TypeId};
use crate::ir::upgrade::{ArgumentUpgrade, MemoryAccess, keeps_constant_expression};

/// How deep an expression is followed before it is left as it is (a hostile file may
/// nest them without end).
const MAX_DEPTH: usize = 64;
/// How many constants one operand's test visits at most (a file can describe an
/// exponentially large tree with shared operands).
const MAX_VISITS: u32 = 4096;

/// The metadata id of a debug record's location when it has none (a debug-intrinsic call
/// without `!dbg`): printed `null`.
pub(crate) const NO_LOCATION: u64 = u64::MAX;

/// An operand of an instruction made of a constant expression: a value of the module or
/// the function, or an earlier made instruction (by its place among them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Part {
    Kept(u64),
    Made(u32),
}

/// An instruction made of a constant expression.
struct Made {
    kind: InstKind,
    ty: TypeId,
    operands: Vec<(Part, TypeId)>,
    name: Vec<u8>,
}

/// What becomes of one instruction of the file.
enum Fate {
    Keep,
    Erase,
    /// A debug record of this code, of these metadata arguments (the call's, upgraded).
    Record(u32, Vec<u64>),
    /// A lifetime marker on this `alloca`.
    Lifetime(Operand),
    /// A call made anew with new arguments.
    Arguments(ArgumentUpgrade),
    /// A call made anew as it was.
    Rebuilt,
    /// A call made a `store … align 1` of its second argument to its first.
    AlignedStore,
    /// An `llvm.dbg.declare` call whose expression LLVM upgrades: these elements.
    Declare(Vec<u64>),
    /// A `cmpxchg` of before LLVM 3.5, which returned the old value: made a `cmpxchg` of
    /// this `{ T, i1 }` type, unnamed, and an `extractvalue … 0` of it, which is the
    /// file's value (its name, its uses, its attachments).
    ExtractFirst(TypeId),
}

/// One instruction's plan: its fate, and the instructions made before it of its operands'
/// constant expressions (with the operands they stand for: index in its operands, made
/// instruction).
struct Plan {
    fate: Fate,
    made: Vec<Made>,
    replaced: Vec<(usize, u32)>,
}

/// The names made instructions take: `constexpr`, then `constexpr` with the function's
/// one counter (`ValueSymbolTable::makeUniqueName`'s `LastUnique`), which every clash
/// advances; `constexpr.ins` alike.
#[derive(Default)]
struct MadeNames {
    constexpr_taken: bool,
    insert_taken: bool,
    last_unique: u32,
}

impl MadeNames {
    fn take(&mut self, insert: bool) -> Vec<u8> {
        let mut name: Vec<u8> = if insert { b"constexpr.ins".to_vec() } else { b"constexpr".to_vec() };
        let taken = if insert { &mut self.insert_taken } else { &mut self.constexpr_taken };
        if !*taken {
            *taken = true;
            return name;
        }
        self.last_unique += 1;
        let mut digits = [0; 20];
        name.extend_from_slice(crate::text::decimal_digits(u64::from(self.last_unique), &mut digits));
        name
    }
}

impl ModuleView<'_, '_, '_> {
    /// Rewrites `body` (its constants folded) as LLVM reads it: see the module
    /// documentation.
    pub(crate) fn rewrite_body(&self, body: &mut Body) {
        self.fill_alignments(body);
        self.label_callbr_destinations(body);
        let strips = self.strips_debug_info();
        let mut plans: Vec<(u32, Plan)> = Vec::new();
        let mut names = MadeNames::default();
        for i in 0..body.instructions.len() {
            if let Some(plan) = self.plan(body, i, strips, &mut names) {
                plans.push((i as u32, plan));
            }
        }
        let debug_info = || {
            !body.debug_records.is_empty()
                || body.instructions.iter().any(|i| i.debug_loc.is_some())
                || body.attachments.iter().any(|a| self.stripped_kinds().contains(&a.kind))
        };
        if plans.is_empty() && !(strips && debug_info()) {
            return;
        }
        self.apply(body, plans, strips);
    }

    /// The datalayout's alignment for the memory instructions the file gave none.
    fn fill_alignments(&self, body: &mut Body) {
        let m = self.module();
        let types = &m.types;
        let layout = self.layout();
        for inst in &mut body.instructions {
            let (slot, access, ty) = match &mut inst.kind {
                InstKind::Load { align, .. } => (align, MemoryAccess::LoadOrStore, Some(inst.ty)),
                InstKind::Alloca { align, allocated, .. } => (align, MemoryAccess::Alloca, Some(*allocated)),
                InstKind::Store { align, .. } => {
                    let ty = body.operand_pool.get(inst.operands.start as usize).map(|o| o.ty);
                    (align, MemoryAccess::LoadOrStore, ty)
                }
                InstKind::CmpXchg { align, .. } | InstKind::AtomicRmw { align, .. } => {
                    let ty = body.operand_pool.get(inst.operands.start as usize + 1).map(|o| o.ty);
                    (align, MemoryAccess::Atomic, ty)
                }
                _ => continue,
            };
            if slot.is_none() {
                *slot = ty.and_then(|t| crate::ir::upgrade::explicit_alignment_in(&layout, types, access, t));
            }
        }
    }

    /// LLVM 15 and later: a `callbr` to inline asm without label constraints, which
    /// passes its indirect destinations as its last arguments (`blockaddress(@f, %dest)`,
    /// as clang wrote it before), loses those arguments, and its asm marks their
    /// constraints as labels (`"r,X"` is `"r,!X"`): `BitcodeReader`'s FUNC_CODE_INST_CALLBR.
    /// The asm with the new constraints is a constant the view makes in the body's table.
    /// A call whose last arguments are not its destinations is kept (LLVM rejects it).
    fn label_callbr_destinations(&self, body: &mut Body) {
        if self.llvm_version() < 15 || !body.instructions.iter().any(|i| matches!(i.kind, InstKind::CallBr { .. })) {
            return;
        }
        let Some(function_id) = self.module().functions.get(body.function).map(|f| f.common.value_id) else {
            return;
        };
        for i in 0..body.instructions.len() {
            let inst = body.instructions[i];
            let InstKind::CallBr { indirect, .. } = inst.kind else { continue };
            let ops = body.operands(&inst);
            let n = indirect as usize;
            // (callee, arguments…, default, indirect…)
            let Some(args) = ops.len().checked_sub(2 + n) else { continue };
            let Some(first_block_arg) = args.checked_sub(n).filter(|_| n > 0) else { continue };
            let Value::Constant(callee) = ops[0].value else { continue };
            let is_destination = |l: usize| match (ops[1 + first_block_arg + l].value, ops[2 + args + l].value) {
                (Value::Constant(c), Value::Block(b)) => matches!(
                    self.constant(body, c),
                    Some((Constant { kind: ConstantKind::BlockAddress { function, block }, .. }, _))
                        if *function == function_id && *block == u64::from(b)
                ),
                _ => false,
            };
            if !(0..n).all(is_destination) {
                continue;
            }
            let Some((asm, table)) = self.constant(body, callee) else { continue };
            let Some(parts) = asm.inline_asm(table) else { continue };
            let Some(constraints) = crate::ir::upgrade::label_constraints(&parts.constraints, first_block_arg) else {
                continue;
            };
            let ConstantKind::Other { code, operands } = asm.kind else { continue };
            // The record again, with the new constraints: [function type,] flags, the asm's
            // size and characters, the constraints' size and characters.
            let mut record: Vec<u64> = Vec::new();
            if code == ids::CST_CODE_INLINEASM {
                record.extend(table.operands(operands).first());
            }
            record.push(parts.flags);
            record.push(parts.asm.len() as u64);
            record.extend(parts.asm.iter().map(|&c| u64::from(c)));
            record.push(constraints.len() as u64);
            record.extend(constraints.iter().map(|&c| u64::from(c)));
            let made = *asm;
            let local = &mut body.constants;
            if local.made.is_empty() {
                local.made_base = super::constants::FUNCTION_MADE_BASE;
            }
            let start = local.operands.len();
            local.operands.extend_from_slice(&record);
            let kind =
                ConstantKind::Other { code, operands: OperandRange { start: start as u32, len: record.len() as u32 } };
            local.made.push(Constant { kind, ..made });
            let id = local.made_base + local.made.len() as u64 - 1;
            // Drop the block arguments: the destinations move down over them.
            let range = inst.operands.range();
            let Some(pool) = body.operand_pool.get_mut(range) else { continue };
            pool[0].value = Value::Constant(id);
            pool.copy_within(1 + args.., 1 + first_block_arg);
            body.instructions[i].operands.len -= n as u32;
        }
    }

    /// The view's function for a callee operand, if it is a function of the module.
    fn callee(&self, o: Option<&Operand>) -> Option<(usize, &super::functions::ViewFunction)> {
        let Value::Global(id) = o?.value else { return None };
        let Some(&GlobalRef::Function(i)) = self.module().values.get(usize::try_from(id).ok()?) else { return None };
        Some((i, self.state().functions.get(i)?))
    }

    /// What becomes of instruction `i`, if anything does.
    fn plan(&self, body: &Body, i: usize, strips: bool, names: &mut MadeNames) -> Option<Plan> {
        let inst = &body.instructions[i];
        let ops = body.operands(inst);
        let mut fate = Fate::Keep;
        if let InstKind::Call { .. } = inst.kind {
            let callee = self.callee(ops.first());
            let is_debug =
                callee.is_some_and(|(f, _)| self.module().functions[f].common.name.starts_with(b"llvm.dbg."));
            if strips && is_debug {
                return Some(Plan { fate: Fate::Erase, made: Vec::new(), replaced: Vec::new() });
            }
            if let Some((_, f)) = callee {
                // The arguments as the upgraded call has them.
                let dropped_offset = f.arguments == Some(ArgumentUpgrade::DropOffset);
                if dropped_offset && !ops.get(2).is_some_and(|o| self.is_zero(body, o)) {
                    return Some(Plan { fate: Fate::Erase, made: Vec::new(), replaced: Vec::new() });
                }
                fate = match f.calls {
                    CallUpgrade::None if is_debug && !strips => {
                        let args = metadata_arguments(ops);
                        match self.declare_expression(body, ids::FUNC_CODE_DEBUG_RECORD_DECLARE, &args) {
                            Some(elements)
                                if self.module().functions[callee.map_or(0, |c| c.0)].common.name[..]
                                    == *b"llvm.dbg.declare" =>
                            {
                                Fate::Declare(elements)
                            }
                            _ => Fate::Keep,
                        }
                    }
                    CallUpgrade::None => Fate::Keep,
                    CallUpgrade::DebugRecord(code) => {
                        let mut args = metadata_arguments(ops);
                        if dropped_offset && args.len() == 4 {
                            args.remove(1);
                        }
                        Fate::Record(code, args)
                    }
                    CallUpgrade::Arguments(upgrade) => Fate::Arguments(upgrade),
                    CallUpgrade::Lifetime => match self.lifetime_alloca(body, ops) {
                        Some(alloca) => Fate::Lifetime(alloca),
                        None => Fate::Erase,
                    },
                    CallUpgrade::Rebuilt { .. } => Fate::Rebuilt,
                    CallUpgrade::AlignedStore => Fate::AlignedStore,
                };
            }
        }
        if let InstKind::CmpXchg { .. } = inst.kind {
            if let Some(&pair) = self.state().cmpxchg_pairs.get(&inst.ty) {
                fate = Fate::ExtractFirst(pair);
            }
        }
        let mut made = Vec::new();
        let mut replaced = Vec::new();
        if matches!(
            fate,
            Fate::Keep
                | Fate::Arguments(_)
                | Fate::Rebuilt
                | Fate::AlignedStore
                | Fate::Declare(_)
                | Fate::ExtractFirst(_)
        ) {
            self.plan_constant_expressions(body, inst, names, &mut made, &mut replaced);
        }
        if matches!(fate, Fate::Keep) && made.is_empty() {
            return None;
        }
        Some(Plan { fate, made, replaced })
    }

    /// Whether an operand is the constant zero (an integer 0 or a null).
    fn is_zero(&self, body: &Body, o: &Operand) -> bool {
        let Value::Constant(id) = o.value else { return false };
        self.constant(body, id).is_some_and(|(c, _)| c.kind.is_zero())
    }

    /// The `alloca` a sized lifetime marker's pointer (its third operand) is once
    /// `stripPointerCasts` strips bitcasts, address-space casts and all-zero GEPs (each
    /// defined before its user, so the walk ends); `None` if it is none.
    fn lifetime_alloca(&self, body: &Body, ops: &[Operand]) -> Option<Operand> {
        let mut pointer = *ops.get(2)?;
        while let Value::Instruction(n) = pointer.value {
            let def = body.instructions.get(n as usize)?;
            let def_ops = body.operands(def);
            match def.kind {
                InstKind::Alloca { .. } => return Some(pointer),
                InstKind::Cast { opcode: ids::CAST_BITCAST | ids::CAST_ADDRSPACECAST, .. } => {}
                InstKind::GetElementPtr { .. } if def_ops.iter().skip(1).all(|o| self.is_zero(body, o)) => {}
                _ => return None,
            }
            let next = *def_ops.first()?;
            if matches!(next.value, Value::Instruction(d) if d >= n) {
                return None;
            }
            pointer = next;
        }
        None
    }

    /// Whether constant `c` is an expression the version no longer has.
    fn dropped(&self, c: &Constant) -> bool {
        let is_float = self.module().types.is_fp_or_fp_vector(c.ty);
        !keeps_constant_expression(&c.kind, is_float, self.state().llvm_version)
    }

    /// Whether constant `value_id`, read by this version, becomes instructions: an
    /// expression it no longer has, or one holding such an expression.
    pub(crate) fn becomes_instructions(&self, body: &Body, value_id: u64) -> bool {
        if self.state().llvm_version < 15 {
            return false;
        }
        let mut visits = 0;
        self.holds_dropped_expression(body, value_id, 0, &mut visits)
    }

    fn holds_dropped_expression(&self, body: &Body, value_id: u64, depth: usize, visits: &mut u32) -> bool {
        *visits += 1;
        if depth > MAX_DEPTH || *visits > MAX_VISITS {
            return false;
        }
        let Some((c, table)) = self.constant(body, value_id) else { return false };
        if self.dropped(c) {
            return true;
        }
        let mut found = false;
        c.kind.value_operands(table, |v| {
            found = found || self.holds_dropped_expression(body, v, depth + 1, visits);
        });
        found
    }

    /// What a value as metadata of constant `value_id` is when the constant is an
    /// expression the version makes instructions of: `undef` (`poison` from LLVM 20), as
    /// LLVM's metadata loader cannot make instructions; `None` for any other value.
    pub fn dropped_metadata_value(&self, body: &Body, value_id: u64) -> Option<&'static str> {
        self.becomes_instructions(body, value_id).then_some(if self.state().llvm_version >= 20 {
            "poison"
        } else {
            "undef"
        })
    }

    /// The instructions LLVM's reader makes before instruction `inst` of its operands'
    /// dropped constant expressions, in the order the reader reads the operands.
    fn plan_constant_expressions(
        &self,
        body: &Body,
        inst: &Instruction,
        names: &mut MadeNames,
        made: &mut Vec<Made>,
        replaced: &mut Vec<(usize, u32)>,
    ) {
        if self.state().llvm_version < 15 || matches!(inst.kind, InstKind::Phi { .. } | InstKind::LandingPad { .. }) {
            return;
        }
        let ops = body.operands(inst);
        let n = ops.len();
        for k in 0..n {
            // The reader reads a store's pointer before its value, and a select's values
            // before its condition.
            let i = match (inst.kind, n) {
                (InstKind::Store { .. }, 2) => 1 - k,
                (InstKind::Select { .. }, 3) => [1, 2, 0][k],
                _ => k,
            };
            let Value::Constant(id) = ops[i].value else { continue };
            if !self.becomes_instructions(body, id) {
                continue;
            }
            let mut done = Vec::new();
            if let Part::Made(m) = self.materialize(body, id, &mut done, 0, names, made) {
                replaced.push((i, m));
            }
        }
    }

    /// `materializeValue`: the operands first (each once), then the value, kept as a
    /// constant when the version has it and its operands stayed constants, else made an
    /// instruction.
    fn materialize(
        &self,
        body: &Body,
        value_id: u64,
        done: &mut Vec<(u64, Part)>,
        depth: usize,
        names: &mut MadeNames,
        made: &mut Vec<Made>,
    ) -> Part {
        if let Some(&(_, p)) = done.iter().find(|(v, _)| *v == value_id) {
            return p;
        }
        let result = match self.constant(body, value_id) {
            Some((c, table)) if depth <= MAX_DEPTH => {
                let mut operands = Vec::new();
                c.kind.value_operands(table, |v| operands.push(v));
                let parts: Vec<Part> =
                    operands.iter().map(|&op| self.materialize(body, op, done, depth + 1, names, made)).collect();
                if operands.is_empty() || (!self.dropped(c) && parts.iter().all(|p| matches!(p, Part::Kept(_)))) {
                    Part::Kept(value_id)
                } else {
                    self.make(body, value_id, c, table, &operands, &parts, names, made)
                }
            }
            _ => Part::Kept(value_id),
        };
        done.push((value_id, result));
        result
    }

    /// The type of a value of `body` by id.
    fn value_type(&self, body: &Body, id: u64) -> TypeId {
        match self.constant(body, id) {
            Some((c, _)) => c.ty,
            None => self.bodies.module_value_type(id),
        }
    }

    /// The instruction(s) made of constant `value_id` whose operands are `parts`.
    #[allow(clippy::too_many_arguments)]
    fn make(
        &self,
        body: &Body,
        value_id: u64,
        c: &Constant,
        table: &crate::ir::ModuleConstants,
        operands: &[u64],
        parts: &[Part],
        names: &mut MadeNames,
        made: &mut Vec<Made>,
    ) -> Part {
        let typed = |k: usize| (parts[k], self.value_type(body, operands[k]));
        let mut push = |made: &mut Vec<Made>, kind, ty, operands, insert| {
            made.push(Made { kind, ty, operands, name: names.take(insert) });
            Part::Made(made.len() as u32 - 1)
        };
        match c.kind {
            ConstantKind::Aggregate(_) => {
                // Built element by element from poison: insertvalue, or insertelement with
                // an i32 index for a vector.
                let vector = matches!(self.state().types.get(c.ty), Some(Type::Vector { .. }));
                let mut last = Part::Kept(POISON_OF_TYPE);
                for k in 0..parts.len() {
                    let element = typed(k);
                    let (kind, ops) = if vector {
                        (
                            InstKind::InsertElement,
                            alloc::vec![(last, c.ty), element, (Part::Kept(I32_INDEX | k as u64), self.state().i32)],
                        )
                    } else {
                        (
                            InstKind::InsertValue { indices: OperandRange { start: k as u32, len: u32::MAX } },
                            alloc::vec![(last, c.ty), element],
                        )
                    };
                    last = push(made, kind, c.ty, ops, true);
                }
                if parts.is_empty() { Part::Kept(value_id) } else { last }
            }
            ConstantKind::Binary { opcode, flags, .. } => push(
                made,
                InstKind::Binary { opcode, flags: flags as u32 },
                c.ty,
                alloc::vec![typed(0), typed(1)],
                false,
            ),
            ConstantKind::Cast { opcode, .. } => {
                push(made, InstKind::Cast { opcode, flags: 0 }, c.ty, alloc::vec![typed(0)], false)
            }
            ConstantKind::Unary { opcode, .. } => {
                push(made, InstKind::Unary { opcode, flags: 0 }, c.ty, alloc::vec![typed(0)], false)
            }
            ConstantKind::Select { .. } => {
                push(made, InstKind::Select { flags: 0 }, c.ty, alloc::vec![typed(0), typed(1), typed(2)], false)
            }
            ConstantKind::Gep { source, flags, operands: pairs, .. } => {
                let source = source
                    .or_else(|| {
                        table.operands(pairs).first().and_then(|&t| self.module().types.pointee(TypeId(t as u32)))
                    })
                    .unwrap_or(crate::ir::NO_TYPE);
                let ops = (0..parts.len()).map(typed).collect();
                push(made, InstKind::GetElementPtr { source, flags: flags as u32 }, c.ty, ops, false)
            }
            ConstantKind::Expression { code, operands: raw } => {
                let raw = table.operands(raw);
                match code {
                    ids::CST_CODE_CE_CMP => {
                        let predicate = raw.get(3).copied().unwrap_or(u64::MAX) as u32;
                        push(made, InstKind::Cmp { predicate, flags: 0 }, c.ty, alloc::vec![typed(0), typed(1)], false)
                    }
                    ids::CST_CODE_CE_EXTRACTELT => {
                        push(made, InstKind::ExtractElement, c.ty, (0..parts.len()).map(typed).collect(), false)
                    }
                    ids::CST_CODE_CE_INSERTELT => {
                        push(made, InstKind::InsertElement, c.ty, (0..parts.len()).map(typed).collect(), false)
                    }
                    _ => {
                        // shufflevector: two vectors and the mask constant.
                        let mask = match (code, raw) {
                            (ids::CST_CODE_CE_SHUFFLEVEC, &[_, _, m, ..]) | (_, &[_, _, _, m, ..]) => Some(m),
                            _ => None,
                        };
                        let mut ops: Vec<(Part, TypeId)> = (0..parts.len().min(2)).map(typed).collect();
                        if let Some(m) = mask {
                            ops.push((Part::Kept(m), self.value_type(body, m)));
                        }
                        push(made, InstKind::ShuffleVector, c.ty, ops, false)
                    }
                }
            }
            _ => Part::Kept(value_id),
        }
    }

    /// Builds the rewritten body from the plans.
    fn apply(&self, body: &mut Body, plans: Vec<(u32, Plan)>, strips: bool) {
        let n = body.instructions.len();
        // The new place of each old instruction (u32::MAX: removed).
        let mut map = alloc::vec![u32::MAX; n];
        let mut next = 0u32;
        {
            let mut p = plans.iter().peekable();
            for (i, slot) in map.iter_mut().enumerate() {
                let plan = p.next_if(|(at, _)| *at as usize == i).map(|(_, plan)| plan);
                next += plan.map_or(0, |plan| plan.made.len() as u32);
                // An old cmpxchg's new cmpxchg comes before the extractvalue it becomes.
                next += u32::from(matches!(plan.map(|p| &p.fate), Some(Fate::ExtractFirst(_))));
                let kept = !matches!(plan.map(|p| &p.fate), Some(Fate::Erase | Fate::Record(..)));
                if kept {
                    *slot = next;
                    next += 1;
                }
            }
        }
        let remap = |v: &mut Value| {
            if let Value::Instruction(s) = *v {
                *v = match map.get(s as usize) {
                    Some(&t) if t != u32::MAX => Value::Instruction(t),
                    _ => Value::Unresolved(u64::from(s)),
                };
            }
        };
        for o in &mut body.operand_pool {
            remap(&mut o.value);
        }
        for o in body.debug_records.iter_mut().filter_map(|r| r.value.as_mut()) {
            remap(&mut o.value);
        }
        // Constants made for the new instructions: `poison` of a type, `i32 k`, `i1 false`.
        let mut extra: Vec<Constant> = Vec::new();
        let base = body.constants.base + body.constants.constants.len() as u64;
        let mut constant = |body_constants: &[Constant], ty: TypeId, kind: ConstantKind| -> u64 {
            if let Some(i) = extra.iter().position(|c| c.ty == ty && c.kind == kind) {
                return base + i as u64;
            }
            let _ = body_constants;
            extra.push(Constant { ty, kind, bit: 0 });
            base + extra.len() as u64 - 1
        };
        let old = core::mem::take(&mut body.instructions);
        let old_blocks = core::mem::take(&mut body.blocks);
        let old_records = core::mem::take(&mut body.debug_records);
        let old_attachments = core::mem::take(&mut body.attachments);
        let mut old_of_new: Vec<u32> = Vec::with_capacity(next as usize);
        // The calls made stores (`AlignedStore`), by old index: their metadata but `!dbg` goes.
        let mut stores_of_calls: Vec<u32> = Vec::new();
        let mut new_names: Vec<(u32, Vec<u8>)> = Vec::new();
        let mut records: Vec<DebugRecord> = Vec::new();
        // Records waiting for the next kept instruction.
        let mut pending: Vec<DebugRecord> = Vec::new();
        let mut plans = plans.into_iter().peekable();
        let mut file_records = old_records.into_iter().peekable();
        let md_base = self.bodies.module_metadata_len();
        for block in &old_blocks {
            let start = body.instructions.len() as u32;
            for i in block.first..block.first + block.len {
                let Some(inst) = old.get(i as usize).copied() else { break };
                // The file's records stand before this instruction.
                while let Some(r) = file_records.next_if(|r| r.before <= i) {
                    if !strips {
                        pending.push(r);
                    }
                }
                let plan = plans.next_if(|(at, _)| *at == i).map(|(_, plan)| plan);
                let (fate, made, replaced) = match plan {
                    Some(Plan { fate, made, replaced }) => (fate, made, replaced),
                    None => (Fate::Keep, Vec::new(), Vec::new()),
                };
                // The made instructions first.
                let first_made = body.instructions.len() as u32;
                for m in made {
                    let start = body.operand_pool.len() as u32;
                    for (part, ty) in &m.operands {
                        let value = match *part {
                            Part::Made(k) => Value::Instruction(first_made + k),
                            Part::Kept(POISON_OF_TYPE) => {
                                Value::Constant(constant(&body.constants.constants, m.ty, ConstantKind::Poison))
                            }
                            Part::Kept(v) if v & I32_INDEX == I32_INDEX && v != u64::MAX => Value::Constant(constant(
                                &body.constants.constants,
                                self.state().i32,
                                ConstantKind::Int((v & !I32_INDEX) as i64),
                            )),
                            Part::Kept(v) => body.value_of(v, self.state().constants.table.base),
                        };
                        body.operand_pool.push(Operand { value, ty: *ty });
                    }
                    let operands = OperandRange { start, len: m.operands.len() as u32 };
                    let kind = match m.kind {
                        InstKind::InsertValue { indices: OperandRange { start: k, .. } } => {
                            let at = body.literals.len() as u32;
                            body.literals.push(u64::from(k));
                            InstKind::InsertValue { indices: OperandRange { start: at, len: 1 } }
                        }
                        k => k,
                    };
                    new_names.push((body.instructions.len() as u32, m.name));
                    body.instructions.push(Instruction {
                        kind,
                        ty: m.ty,
                        has_result: true,
                        operands,
                        debug_loc: None,
                        bit: inst.bit,
                    });
                    old_of_new.push(u32::MAX);
                }
                let mut inst = inst;
                if strips {
                    inst.debug_loc = None;
                }
                if !replaced.is_empty() {
                    let ops: Vec<Operand> = body.operands(&inst).to_vec();
                    let start = body.operand_pool.len() as u32;
                    for (k, mut o) in ops.into_iter().enumerate() {
                        if let Some(&(_, m)) = replaced.iter().find(|(at, _)| *at == k) {
                            o.value = Value::Instruction(first_made + m);
                        }
                        body.operand_pool.push(o);
                    }
                    inst.operands.start = start;
                }
                match fate {
                    Fate::Erase => continue,
                    Fate::Record(code, args) => {
                        if let Some(r) = self.record_of_call(body, &inst, code, &args, md_base) {
                            pending.push(r);
                        }
                        continue;
                    }
                    Fate::Keep => {}
                    Fate::Lifetime(alloca) => {
                        let ops = body.operands(&inst);
                        let callee = ops[0];
                        let ty = self.callee(Some(&callee)).map_or(crate::ir::NO_TYPE, |(_, f)| f.ty);
                        let start = body.operand_pool.len() as u32;
                        body.operand_pool.push(callee);
                        body.operand_pool.push(alloca);
                        inst.operands = OperandRange { start, len: 2 };
                        if let InstKind::Call { call, .. } = inst.kind {
                            let call = CallInfo {
                                attributes: None,
                                function_type: ty,
                                bundles: OperandRange::default(),
                                ..call
                            };
                            inst.kind = InstKind::Call { call, tail: TailKind::None };
                        }
                    }
                    Fate::Arguments(upgrade) => {
                        let ops: Vec<Operand> = body.operands(&inst).to_vec();
                        let callee = self.callee(ops.first());
                        let start = body.operand_pool.len() as u32;
                        let dropped = upgrade.dropped_argument();
                        for (k, o) in ops.iter().enumerate() {
                            if k > 0 && dropped == Some(k - 1) {
                                continue;
                            }
                            body.operand_pool.push(*o);
                        }
                        if let ArgumentUpgrade::AppendFalse(count) = upgrade {
                            let i1 = self.state().i1;
                            for _ in 0..count {
                                let id = constant(&body.constants.constants, i1, ConstantKind::Int(0));
                                body.operand_pool.push(Operand { value: Value::Constant(id), ty: i1 });
                            }
                        }
                        let len = body.operand_pool.len() as u32 - start;
                        inst.operands = OperandRange { start, len };
                        if let Some(d) = dropped.filter(|_| !upgrade.aligned_arguments().is_empty()) {
                            let written = ops.get(d + 1).and_then(|o| match o.value {
                                Value::Constant(id) => match self.constant(body, id).map(|(c, _)| c.kind) {
                                    Some(ConstantKind::Int(v)) => u64::try_from(v).ok().filter(|&a| a > 0),
                                    _ => None,
                                },
                                _ => None,
                            });
                            let align = match upgrade {
                                // A gather's or scatter's 0 is the element type's ABI alignment.
                                ArgumentUpgrade::MaskedAlignment { vector_of_pointers: true, pointer }
                                    if written.is_none() =>
                                {
                                    let value = if pointer == 0 { Some(inst.ty) } else { ops.get(1).map(|o| o.ty) };
                                    value.and_then(|t| self.element_abi_alignment(t))
                                }
                                _ => written,
                            };
                            // 0: none (the attributes still follow their arguments).
                            body.call_alignments.push((body.instructions.len() as u32, align.unwrap_or(0), upgrade));
                        }
                        if let InstKind::Call { call, tail } = inst.kind {
                            let attributes = if upgrade.keeps_call_attributes() { call.attributes } else { None };
                            let ty = callee.map_or(call.function_type, |(_, f)| f.ty);
                            let tail = if upgrade.keeps_tail_and_metadata() { tail } else { TailKind::None };
                            inst.kind =
                                InstKind::Call { call: CallInfo { attributes, function_type: ty, ..call }, tail };
                        }
                    }
                    Fate::AlignedStore => {
                        stores_of_calls.push(i);
                        let ops = body.operands(&inst);
                        if let (Some(&pointer), Some(&value)) = (ops.get(1), ops.get(2)) {
                            let start = body.operand_pool.len() as u32;
                            body.operand_pool.push(value);
                            body.operand_pool.push(pointer);
                            inst.operands = OperandRange { start, len: 2 };
                            inst.kind = InstKind::Store {
                                align: Some(1),
                                volatile: false,
                                ordering: crate::ir::body::Ordering::NotAtomic,
                                scope: 1,
                            };
                        }
                    }
                    Fate::Rebuilt => {
                        if let InstKind::Call { call, .. } = inst.kind {
                            inst.kind =
                                InstKind::Call { call: CallInfo { attributes: None, ..call }, tail: TailKind::None };
                        }
                    }
                    Fate::ExtractFirst(pair) => {
                        let cmpxchg = Instruction { ty: pair, debug_loc: None, ..inst };
                        let at = body.instructions.len() as u32;
                        body.instructions.push(cmpxchg);
                        old_of_new.push(u32::MAX);
                        let start = body.operand_pool.len() as u32;
                        body.operand_pool.push(Operand { value: Value::Instruction(at), ty: pair });
                        let index = body.literals.len() as u32;
                        body.literals.push(0);
                        inst.kind = InstKind::ExtractValue { indices: OperandRange { start: index, len: 1 } };
                        inst.operands = OperandRange { start, len: 1 };
                    }
                    Fate::Declare(elements) => {
                        let mut ops = alloc::vec![3 << 1];
                        ops.extend(elements);
                        let id = push_node(body, md_base, ids::METADATA_EXPRESSION, &ops);
                        let mut operands: Vec<Operand> = body.operands(&inst).to_vec();
                        if let Some(o) = operands.get_mut(3) {
                            o.value = Value::Metadata(id);
                        }
                        let start = body.operand_pool.len() as u32;
                        body.operand_pool.extend_from_slice(&operands);
                        inst.operands.start = start;
                    }
                }
                let new_index = body.instructions.len() as u32;
                for mut r in pending.drain(..) {
                    r.before = new_index;
                    records.push(r);
                }
                body.instructions.push(inst);
                old_of_new.push(i);
            }
            let len = body.instructions.len() as u32 - start;
            body.blocks.push(BasicBlock { first: start, len });
        }
        // Records after the last instruction stay at its end.
        let last = body.instructions.len().saturating_sub(1) as u32;
        for mut r in pending.drain(..).chain(file_records.filter(|_| !strips)) {
            r.before = last;
            records.push(r);
        }
        body.debug_records = records;
        // Attachments: the kept instructions', but of the calls made anew (their
        // location only), and none of the kinds a stripped module loses.
        let stripped = self.stripped_kinds();
        let rewritten: Vec<u32> = old_of_new
            .iter()
            .enumerate()
            .filter(|(_, o)| **o != u32::MAX)
            .filter(|(n, _)| {
                let inst = &body.instructions[*n];
                matches!(inst.kind, InstKind::Call { .. }) && self.remade_call(body, inst)
            })
            .map(|(_, o)| *o)
            .chain(stores_of_calls)
            .collect();
        body.attachments = old_attachments
            .into_iter()
            .filter(|a| !(strips && stripped.contains(&a.kind)))
            .filter_map(|a| match a.instruction {
                None => Some(a),
                Some(i) if rewritten.contains(&i) => None,
                Some(i) => {
                    map.get(i as usize).filter(|&&t| t != u32::MAX).map(|&t| Attachment { instruction: Some(t), ..a })
                }
            })
            .collect();
        body.constants.constants.extend(extra);
        body.renumber(&old_of_new, &new_names);
    }

    /// Whether call `inst` (rewritten) is one LLVM made anew, whose metadata but `!dbg`
    /// is gone: an upgraded intrinsic's (but those that copy it), or a lifetime marker's.
    fn remade_call(&self, body: &Body, inst: &Instruction) -> bool {
        self.callee(body.operands(inst).first()).is_some_and(|(_, f)| match f.calls {
            CallUpgrade::Arguments(upgrade) => !upgrade.keeps_tail_and_metadata(),
            CallUpgrade::Rebuilt { keeps_metadata } => !keeps_metadata,
            CallUpgrade::Lifetime | CallUpgrade::AlignedStore => true,
            _ => false,
        })
    }

    /// The ABI alignment in bytes of the element type of vector type `ty`.
    fn element_abi_alignment(&self, ty: TypeId) -> Option<u64> {
        let types = &self.module().types;
        let element = match types.get(ty)? {
            crate::ir::Type::Vector { element, .. } => *element,
            _ => ty,
        };
        self.layout().align(types, element, 0)
    }

    /// The debug record a call of a debug intrinsic becomes (`args`: its metadata
    /// arguments, upgraded): the record's operands in the file's layout, [location,
    /// variable or label, expression, value, assign id, address expression, address],
    /// its location the call's (a `DILocation` node made in the function's metadata).
    fn record_of_call(
        &self,
        body: &mut Body,
        inst: &Instruction,
        code: u32,
        args: &[u64],
        md_base: u64,
    ) -> Option<DebugRecord> {
        let location = match inst.debug_loc.and_then(|l| body.debug_locs.get(l as usize)).copied() {
            Some(loc) => push_node(body, md_base, ids::METADATA_LOCATION, &loc.location_record()),
            None => NO_LOCATION,
        };
        let arg = |k: usize| args.get(k).copied();
        let operands: Vec<u64> = if code == ids::FUNC_CODE_DEBUG_RECORD_LABEL {
            alloc::vec![location, arg(0)?]
        } else {
            let expression = match self.declare_expression(body, code, args) {
                Some(elements) => {
                    let mut ops = alloc::vec![3 << 1];
                    ops.extend(elements);
                    push_node(body, md_base, ids::METADATA_EXPRESSION, &ops)
                }
                None => arg(2)?,
            };
            let mut ops = alloc::vec![location, arg(1)?, expression, arg(0)?];
            if code == ids::FUNC_CODE_DEBUG_RECORD_ASSIGN {
                ops.extend([arg(3)?, arg(5)?, arg(4)?]);
            }
            ops
        };
        let start = body.literals.len() as u32;
        body.literals.extend_from_slice(&operands);
        Some(DebugRecord { code, before: 0, operands: OperandRange { start, len: operands.len() as u32 }, value: None })
    }

    /// The expression a `llvm.dbg.declare` of `args` is read with when LLVM's reader
    /// upgrades it ([`crate::ir::upgrade::declare_expression`]): a declare of a function
    /// argument in a module with old expression layouts, or whose own expression has one.
    fn declare_expression(&self, body: &Body, code: u32, args: &[u64]) -> Option<Vec<u64>> {
        use crate::ir::MetadataNode as N;
        if code != ids::FUNC_CODE_DEBUG_RECORD_DECLARE {
            return None;
        }
        let (&address, &expression) = (args.first()?, args.get(2)?);
        let node = |id| {
            crate::ir::metadata::node_in_scope(
                self.bodies.module_metadata(),
                Some(&body.metadata),
                self.bodies.input(),
                id,
            )
        };
        let Some(N::Value { value, .. }) = node(address) else { return None };
        if !matches!(body.value_of(value, self.state().constants.table.base), Value::Argument(_)) {
            return None;
        }
        let Some(N::Expression { version, elements }) = node(expression) else { return None };
        if !self.upgrades_declares() && !crate::ir::upgrade::upgrades_declares(version) {
            return None;
        }
        let upgraded = crate::ir::upgrade::upgraded_expression(version, elements);
        crate::ir::upgrade::declare_expression(upgraded.as_deref().unwrap_or(elements)).map(<[u64]>::to_vec)
    }
}

/// A `Part::Kept` standing for `poison` of the made instruction's type.
const POISON_OF_TYPE: u64 = u64::MAX;
/// A `Part::Kept` standing for the `i32` constant of the low bits.
const I32_INDEX: u64 = 1 << 63;

/// A call's metadata arguments (the callee left out).
fn metadata_arguments(ops: &[Operand]) -> Vec<u64> {
    ops.iter().skip(1).filter_map(|o| if let Value::Metadata(id) = o.value { Some(id) } else { None }).collect()
}

/// Appends a node to the function's metadata; its id.
fn push_node(body: &mut Body, md_base: u64, code: u32, ops: &[u64]) -> u64 {
    let md = &mut body.metadata;
    if md.entries.is_empty() {
        md.base = md_base;
    }
    let start = md.pool.len() as u32;
    md.pool.extend_from_slice(ops);
    md.entries.push(MdEntry { code, ops: OperandRange { start, len: ops.len() as u32 } });
    md.base + md.entries.len() as u64 - 1
}
