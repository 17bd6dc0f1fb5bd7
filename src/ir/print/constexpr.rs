//! The instructions LLVM's reader makes of constant expressions the printing version no
//! longer has ([`keeps_constant_expression`]): each instruction operand that is one (or
//! holds one) becomes instructions placed just before the instruction, operands first,
//! named `%constexpr`, `%constexpr1`, … (`%constexpr.ins` for an aggregate built element
//! by element), and the operand prints as the last of them. As `materializeValue` in
//! LLVM's `BitcodeReader.cpp` does it: each operand on its own (the same expression used
//! twice is made twice), a sub-expression met twice within one operand made once.
//!
//! Left as they are: `phi` operands (LLVM makes them in an edge block `phi.constexpr`,
//! not done here) and `landingpad` clauses (LLVM rejects those).

use alloc::vec::Vec;
use core::fmt;

use crate::ir::body::{InstKind, Operand, Value};
use crate::ir::module::constants::{Constant, ConstantKind, ModuleConstants};
use crate::ir::module::types::{Type, TypeId};
use crate::ir::print::constants::{write_binary_expression_opcode, write_gep_flags};
use crate::ir::print::function::{BodyPrinter, MadeName};
use crate::ir::upgrade::keeps_constant_expression;
use crate::ir::vocabulary::opcodes::{cast_op_name, predicate};

/// How deep an expression is followed before it is printed as it is (a hostile file may
/// nest them without end).
const MAX_DEPTH: usize = 64;
/// How many constants one operand's test visits at most (a file can describe an
/// exponentially large tree with shared operands).
const MAX_VISITS: u32 = 4096;

/// What a value is once LLVM's reader has read it for an instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Materialized {
    /// The constant (or global value) as written.
    Kept(u64),
    /// An instruction made of it.
    Made(MadeName),
}

impl BodyPrinter<'_, '_, '_> {
    /// Whether constant `value_id`, read by the printing version, becomes instructions:
    /// an expression it no longer has, or one holding such an expression.
    pub(super) fn becomes_instructions(&self, value_id: u64) -> bool {
        if self.options.llvm_version < 15 {
            return false;
        }
        let mut visits = 0;
        self.holds_dropped_expression(value_id, 0, &mut visits)
    }

    fn holds_dropped_expression(&self, value_id: u64, depth: usize, visits: &mut u32) -> bool {
        *visits += 1;
        if depth > MAX_DEPTH || *visits > MAX_VISITS {
            return false;
        }
        let Some((c, table)) = self.constants.constant(value_id) else { return false };
        if !self.keeps(c) {
            return true;
        }
        let mut found = false;
        c.kind.value_operands(table, |v| {
            found = found || self.holds_dropped_expression(v, depth + 1, visits);
        });
        found
    }

    fn keeps(&self, c: &Constant) -> bool {
        let is_float = self.bodies.module().types.is_fp_or_fp_vector(c.ty);
        keeps_constant_expression(&c.kind, is_float, self.options.llvm_version)
    }

    /// Writes the instructions LLVM's reader makes before instruction `index` of its
    /// operands' dropped constant expressions, in the order the reader reads the
    /// operands, and notes the names those operands print as.
    pub(super) fn write_made_instructions(&self, f: &mut dyn fmt::Write, index: usize) -> fmt::Result {
        self.made_operands.borrow_mut().clear();
        if self.options.llvm_version < 15 {
            return Ok(());
        }
        let Some(inst) = self.body.instructions.get(index) else { return Ok(()) };
        if matches!(inst.kind, InstKind::Phi { .. } | InstKind::LandingPad { .. }) {
            return Ok(());
        }
        let ops = self.body.operands(inst);
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
            if !self.becomes_instructions(id) {
                continue;
            }
            let mut made = Vec::new();
            if let Materialized::Made(name) = self.materialize(f, id, &mut made, 0)? {
                self.made_operands.borrow_mut().push((inst.operands.start as usize + i, name));
            }
        }
        Ok(())
    }

    /// The name an operand prints as when the reader made instructions of it.
    pub(super) fn made_operand(&self, o: &Operand) -> Option<MadeName> {
        let made = self.made_operands.borrow();
        if made.is_empty() {
            return None;
        }
        // Which operand of the pool `o` is, by its address.
        let start = self.body.operand_pool.as_ptr() as usize;
        let offset = (o as *const Operand as usize).checked_sub(start)?;
        let index = offset / core::mem::size_of::<Operand>();
        made.iter().find(|&&(i, _)| i == index).map(|&(_, name)| name)
    }

    /// `materializeValue`: the operands first (each once), then the value, kept as a
    /// constant when the version has it and its operands stayed constants, else made an
    /// instruction (written here).
    fn materialize(
        &self,
        f: &mut dyn fmt::Write,
        value_id: u64,
        done: &mut Vec<(u64, Materialized)>,
        depth: usize,
    ) -> Result<Materialized, fmt::Error> {
        if let Some(&(_, m)) = done.iter().find(|(v, _)| *v == value_id) {
            return Ok(m);
        }
        let result = match self.constants.constant(value_id) {
            Some((c, table)) if depth <= MAX_DEPTH => {
                let mut operands = Vec::new();
                c.kind.value_operands(table, |v| operands.push(v));
                let mut parts = Vec::with_capacity(operands.len());
                for &op in &operands {
                    parts.push(self.materialize(f, op, done, depth + 1)?);
                }
                if operands.is_empty() || (self.keeps(c) && parts.iter().all(|p| matches!(p, Materialized::Kept(_)))) {
                    Materialized::Kept(value_id)
                } else {
                    self.write_made(f, value_id, c, table, &operands, &parts)?
                }
            }
            _ => Materialized::Kept(value_id),
        };
        done.push((value_id, result));
        Ok(result)
    }

    /// `TYPE VALUE` of a made instruction's operand.
    fn made_operand_text(&self, f: &mut dyn fmt::Write, value_id: u64, part: Materialized) -> fmt::Result {
        self.constants.type_of(f, value_id)?;
        f.write_char(' ')?;
        self.made_value(f, part)
    }

    fn made_value(&self, f: &mut dyn fmt::Write, part: Materialized) -> fmt::Result {
        match part {
            Materialized::Kept(v) => self.constants.value(f, v, 0),
            Materialized::Made(name) => write!(f, "{name}"),
        }
    }

    /// Writes the instruction(s) made of constant `value_id` whose operands `parts` are
    /// materialized, and gives the name of the last.
    fn write_made(
        &self,
        f: &mut dyn fmt::Write,
        value_id: u64,
        c: &Constant,
        table: &ModuleConstants,
        operands: &[u64],
        parts: &[Materialized],
    ) -> Result<Materialized, fmt::Error> {
        let types = &self.bodies.module().types;
        if let ConstantKind::Aggregate(_) = c.kind {
            // Built element by element from poison: insertvalue, or insertelement with an
            // i32 index for a vector.
            let vector = matches!(types.get(c.ty), Some(Type::Vector { .. }));
            let mut last: Option<MadeName> = None;
            for (i, (&op, &part)) in operands.iter().zip(parts).enumerate() {
                let name = self.made_names.borrow_mut().take(true);
                write!(f, "  {name} = {} ", if vector { "insertelement" } else { "insertvalue" })?;
                self.ty(f, c.ty)?;
                match last {
                    Some(prev) => write!(f, " {prev}, ")?,
                    None => f.write_str(" poison, ")?,
                }
                self.made_operand_text(f, op, part)?;
                if vector {
                    writeln!(f, ", i32 {i}")?;
                } else {
                    writeln!(f, ", {i}")?;
                }
                last = Some(name);
            }
            return Ok(last.map_or(Materialized::Kept(value_id), Materialized::Made));
        }
        let name = self.made_names.borrow_mut().take(false);
        write!(f, "  {name} = ")?;
        let op = |f: &mut dyn fmt::Write, i: usize| match (operands.get(i), parts.get(i)) {
            (Some(&v), Some(&p)) => self.made_operand_text(f, v, p),
            _ => f.write_str("<bad operand>"),
        };
        let bare = |f: &mut dyn fmt::Write, i: usize| match parts.get(i) {
            Some(&p) => self.made_value(f, p),
            None => f.write_str("<bad operand>"),
        };
        match c.kind {
            ConstantKind::Binary { opcode, flags, .. } => {
                write_binary_expression_opcode(f, opcode, flags, types.is_fp_or_fp_vector(c.ty))?;
                f.write_char(' ')?;
                op(f, 0)?;
                f.write_str(", ")?;
                bare(f, 1)?;
            }
            ConstantKind::Cast { opcode, .. } => {
                write!(f, "{} ", cast_op_name(opcode))?;
                op(f, 0)?;
                f.write_str(" to ")?;
                self.ty(f, c.ty)?;
            }
            ConstantKind::Unary { .. } => {
                f.write_str("fneg ")?;
                op(f, 0)?;
            }
            ConstantKind::Select { .. } => {
                f.write_str("select ")?;
                op(f, 0)?;
                f.write_str(", ")?;
                op(f, 1)?;
                f.write_str(", ")?;
                op(f, 2)?;
            }
            ConstantKind::Gep { source, flags, .. } => {
                f.write_str("getelementptr")?;
                write_gep_flags(f, flags)?;
                f.write_char(' ')?;
                if let Some(s) = source {
                    self.ty(f, s)?;
                    f.write_str(", ")?;
                }
                for i in 0..operands.len() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    op(f, i)?;
                }
            }
            ConstantKind::Expression { code, operands: raw } => {
                use crate::ids::llvm_ir::raw as ids;
                match code {
                    ids::CST_CODE_CE_CMP => {
                        let pred = table.operands(raw).get(3).copied().unwrap_or(u64::MAX);
                        match predicate(pred) {
                            Some((is_int, p)) => write!(f, "{} {p} ", if is_int { "icmp" } else { "fcmp" })?,
                            None => write!(f, "<unknown predicate {pred}> ")?,
                        }
                        op(f, 0)?;
                        f.write_str(", ")?;
                        bare(f, 1)?;
                    }
                    ids::CST_CODE_CE_EXTRACTELT | ids::CST_CODE_CE_INSERTELT => {
                        f.write_str(if code == ids::CST_CODE_CE_EXTRACTELT {
                            "extractelement "
                        } else {
                            "insertelement "
                        })?;
                        for i in 0..operands.len() {
                            if i > 0 {
                                f.write_str(", ")?;
                            }
                            op(f, i)?;
                        }
                    }
                    _ => {
                        // shufflevector: two vectors and the mask.
                        f.write_str("shufflevector ")?;
                        op(f, 0)?;
                        f.write_str(", ")?;
                        op(f, 1)?;
                        let mask = match (code, table.operands(raw)) {
                            (ids::CST_CODE_CE_SHUFFLEVEC, &[_, _, m, ..]) | (_, &[_, _, _, m, ..]) => Some(m),
                            _ => None,
                        };
                        if let Some(m) = mask {
                            self.constants.shuffle_mask(f, m)?;
                        }
                    }
                }
            }
            _ => f.write_str("<constant made an instruction>")?,
        }
        f.write_char('\n')?;
        Ok(Materialized::Made(name))
    }

    /// The value a value-as-metadata of a dropped constant expression becomes: `undef`
    /// (`poison` from LLVM 20), as LLVM's metadata loader cannot make instructions.
    pub(super) fn dropped_metadata_value(
        &self,
        f: &mut dyn fmt::Write,
        ty: TypeId,
        value_id: u64,
    ) -> Option<fmt::Result> {
        if !self.becomes_instructions(value_id) {
            return None;
        }
        let word = if self.options.llvm_version >= 20 { "poison" } else { "undef" };
        Some(self.ty(f, ty).and_then(|()| write!(f, " {word}")))
    }
}
