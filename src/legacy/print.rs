//! Printing in the assembly syntax of LLVM 1.x, as its `llvm-dis` (`AsmWriter.cpp`) wrote
//! it: `%x = add int %a, 1`, unnamed values numbered per type plane and shown in a
//! `; <int>:0 [#uses=1]` comment, `call int %f( int %x )`, `implementation` before the
//! functions.

use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use core::cell::Cell;
use core::fmt::{self, Write};

use super::body::{Body, Instruction};
use super::constants::{Constant, ConstantKind, Operand, Value};
use super::module::{Linkage, Module};
use super::opcode::Opcode;
use super::types::{LABEL, PRIMITIVE_NAMES, Type, TypeId, TypeTable, VOID};
use super::{Endianness, LegacyError, PointerSize};

use crate::limits::{
    LEGACY_MAX_CONSTANT_DEPTH as MAX_CONSTANT_DEPTH, LEGACY_MAX_CONSTANT_NODES as MAX_CONSTANT_NODES,
    LEGACY_MAX_DISPLAY_CONSTANT_NODES as MAX_DISPLAY_CONSTANT_NODES, LEGACY_MAX_TYPE_DEPTH as MAX_PRINT_DEPTH,
    LEGACY_MAX_TYPE_NODES as MAX_PRINT_NODES,
};

/// Writes a name as LLVM 1.x did: `%name`, or `"name"` (without `%`) when it has a
/// character outside `[a-zA-Z0-9._-]` or starts with a digit.
pub(super) fn write_name(f: &mut dyn Write, name: &[u8], prefix: bool) -> fmt::Result {
    let plain = !name.first().is_some_and(u8::is_ascii_digit)
        && name.iter().all(|&c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'.' | b'_'));
    if plain {
        if prefix {
            f.write_char('%')?;
        }
        write_lossy(f, name)
    } else {
        f.write_char('"')?;
        write_lossy(f, name)?;
        f.write_char('"')
    }
}

fn write_lossy(f: &mut dyn Write, bytes: &[u8]) -> fmt::Result {
    for chunk in bytes.utf8_chunks() {
        f.write_str(chunk.valid())?;
        if !chunk.invalid().is_empty() {
            f.write_char(char::REPLACEMENT_CHARACTER)?;
        }
    }
    Ok(())
}

/// `PrintEscapedString`: printable ASCII but `"` and `\` as is, the rest as `\XX`.
fn write_escaped(f: &mut dyn Write, bytes: &[u8]) -> fmt::Result {
    for &c in bytes {
        if (0x20..0x7F).contains(&c) && c != b'"' && c != b'\\' {
            f.write_char(c as char)?;
        } else {
            write!(f, "\\{c:02X}")?;
        }
    }
    Ok(())
}

/// A floating-point constant as LLVM 1.x printed it: `%e` with six digits when that
/// reads back exactly, else the double's bits in hexadecimal (`0x3FB999999999999A`).
fn write_fp(f: &mut dyn Write, v: f64) -> fmt::Result {
    let text = alloc::format!("{v:.6e}");
    if let Some((mantissa, exp)) = text.split_once('e') {
        if let Ok(exp) = exp.parse::<i32>() {
            let c = alloc::format!("{mantissa}e{}{:02}", if exp < 0 { '-' } else { '+' }, exp.unsigned_abs());
            if v.is_finite() && c.parse::<f64>() == Ok(v) {
                return f.write_str(&c);
            }
        }
    }
    write!(f, "0x{:X}", v.to_bits())
}

/// The calling convention as 1.x printed it before a function or call (with a trailing
/// space), empty for C.
fn calling_conv(cc: u32) -> String {
    match cc {
        0 => String::new(),
        1 => "csretcc ".into(),
        8 => "fastcc ".into(),
        9 => "coldcc ".into(),
        64 => "x86_stdcallcc ".into(),
        65 => "x86_fastcallcc ".into(),
        n => alloc::format!("cc{n} "),
    }
}

/// What a printer needs to name values: the module's numbering of unnamed globals, use
/// counts, and (inside a function) the body's names and numbers.
struct Names<'p, 'a> {
    module: &'p Module<'a>,
    /// Slot numbers of unnamed globals and functions (`%0`), per plane.
    global_slots: Vec<Option<u32>>,
    function_slots: Vec<Option<u32>>,
    /// Unnamed module values per type: where a function's numbering of that type starts.
    module_unnamed: Vec<(TypeId, u32)>,
    global_uses: Vec<u32>,
}

/// The numbering of one body's values.
struct Locals<'p, 'a> {
    body: &'p Body<'a>,
    types: &'p TypeTable,
    arg_names: Vec<Option<&'a [u8]>>,
    arg_slots: Vec<Option<u32>>,
    inst_names: Vec<Option<&'a [u8]>>,
    inst_slots: Vec<Option<u32>>,
    inst_uses: Vec<u32>,
    block_names: Vec<Option<&'a [u8]>>,
    block_slots: Vec<Option<u32>>,
    block_uses: Vec<u32>,
    /// Each block's predecessors, in the order their terminators refer to it.
    preds: Vec<Vec<u32>>,
}

impl<'p, 'a> Names<'p, 'a> {
    fn new(module: &'p Module<'a>, bodies: &[Body<'a>]) -> Self {
        let mut global_slots = vec![None; module.globals.len()];
        let mut function_slots = vec![None; module.functions.len()];
        let mut module_unnamed = Vec::new();
        for (plane, values) in module.planes.iter().enumerate() {
            let mut next = 0;
            for v in values {
                match *v {
                    Value::Global(i) if module.globals[i as usize].name.is_none() => {
                        global_slots[i as usize] = Some(next);
                        next += 1;
                    }
                    Value::Function(i) if module.functions[i as usize].name.is_none() => {
                        function_slots[i as usize] = Some(next);
                        next += 1;
                    }
                    _ => {}
                }
            }
            if next > 0 {
                module_unnamed.push((plane as TypeId, next));
            }
        }
        let mut global_uses = vec![0; module.globals.len()];
        let mut count = |op: &Operand| {
            if let Value::Global(i) = op.value {
                if let Some(n) = global_uses.get_mut(i as usize) {
                    *n += 1;
                }
            }
        };
        module.operand_pool.iter().for_each(&mut count);
        module.globals.iter().filter_map(|g| g.initializer.as_ref()).for_each(&mut count);
        for body in bodies {
            body.operand_pool.iter().for_each(&mut count);
        }
        Names { module, global_slots, function_slots, module_unnamed, global_uses }
    }

    fn locals<'b>(&self, body: &'b Body<'a>) -> Locals<'b, 'a>
    where
        'p: 'b,
    {
        let types = self.module.types_of(body);
        let mut arg_names = vec![None; body.arguments.len()];
        let mut inst_names = vec![None; body.instructions.len()];
        let mut block_names = vec![None; body.blocks.len()];
        for (value, name) in &body.names {
            let slot = match *value {
                Value::Argument(i) => arg_names.get_mut(i as usize),
                Value::Instruction(i) => inst_names.get_mut(i as usize),
                Value::Block(i) => block_names.get_mut(i as usize),
                _ => None,
            };
            if let Some(slot) = slot.filter(|_| !name.is_empty()) {
                *slot = Some(*name);
            }
        }
        let mut next: Vec<(TypeId, u32)> = self.module_unnamed.clone();
        let mut number = |ty: TypeId| -> u32 {
            match next.iter_mut().find(|(t, _)| *t == ty) {
                Some((_, n)) => {
                    *n += 1;
                    *n - 1
                }
                None => {
                    next.push((ty, 1));
                    0
                }
            }
        };
        let arg_slots = body.arguments.iter().zip(&arg_names).map(|(ty, n)| n.is_none().then(|| number(*ty))).collect();
        let mut block_slots = vec![None; body.blocks.len()];
        let mut inst_slots = vec![None; body.instructions.len()];
        for (b, block) in body.blocks.iter().enumerate() {
            if block_names[b].is_none() {
                block_slots[b] = Some(number(LABEL));
            }
            for i in block.first..block.first + block.len {
                let inst = &body.instructions[i as usize];
                if inst.has_result() && inst_names[i as usize].is_none() {
                    inst_slots[i as usize] = Some(number(inst.ty));
                }
            }
        }
        let mut inst_uses = vec![0; body.instructions.len()];
        let mut block_uses = vec![0; body.blocks.len()];
        let mut preds = vec![Vec::new(); body.blocks.len()];
        for (b, block) in body.blocks.iter().enumerate() {
            for i in block.first..block.first + block.len {
                let inst = &body.instructions[i as usize];
                for op in body.operands(inst) {
                    match op.value {
                        Value::Instruction(n) => {
                            if let Some(u) = inst_uses.get_mut(n as usize) {
                                *u += 1;
                            }
                        }
                        Value::Block(n) => {
                            if let Some(u) = block_uses.get_mut(n as usize) {
                                *u += 1;
                            }
                            if inst.opcode.is_terminator() {
                                if let Some(p) = preds.get_mut(n as usize) {
                                    p.push(b as u32);
                                }
                            }
                        }
                        _ => {}
                    }
                }
            }
        }
        Locals {
            body,
            types,
            arg_names,
            arg_slots,
            inst_names,
            inst_slots,
            inst_uses,
            block_names,
            block_slots,
            block_uses,
            preds,
        }
    }
}

/// One printing pass: the module, and the body being printed.
struct Printer<'x, 'p, 'a> {
    names: &'x Names<'p, 'a>,
    locals: Option<&'x Locals<'p, 'a>>,
    /// Constants the current operand may still print or inspect.
    budget: Cell<usize>,
    /// Constants the whole display may still print or inspect.
    total: Cell<usize>,
}

impl<'x, 'p, 'a> Printer<'x, 'p, 'a> {
    fn new(names: &'x Names<'p, 'a>, locals: Option<&'x Locals<'p, 'a>>, total: usize) -> Self {
        Printer { names, locals, budget: Cell::new(MAX_CONSTANT_NODES), total: Cell::new(total) }
    }

    fn types(&self) -> &TypeTable {
        self.locals.map_or(&self.names.module.types, |l| l.types)
    }

    fn ty(&self, f: &mut dyn Write, id: TypeId) -> fmt::Result {
        write!(f, "{}", self.types().display(id))
    }

    /// `WriteAsOperandInternal`: a space, then the value.
    fn value(&self, f: &mut dyn Write, op: &Operand) -> fmt::Result {
        f.write_char(' ')?;
        self.budget.set(MAX_CONSTANT_NODES);
        self.value_bare(f, op, 0)
    }

    /// Takes one constant from the operand's and the display's budgets; `false` once
    /// either is spent.
    fn spend(&self) -> bool {
        let (left, total) = (self.budget.get(), self.total.get());
        self.budget.set(left.saturating_sub(1));
        self.total.set(total.saturating_sub(1));
        left > 0 && total > 0
    }

    /// `writeOperand` with its type.
    fn typed(&self, f: &mut dyn Write, op: &Operand) -> fmt::Result {
        f.write_char(' ')?;
        self.ty(f, op.ty)?;
        self.value(f, op)
    }

    fn value_bare(&self, f: &mut dyn Write, op: &Operand, depth: usize) -> fmt::Result {
        fn at<T: Copy>(table: &[Option<T>], i: u32) -> Option<T> {
            table.get(i as usize).copied().flatten()
        }
        let module = self.names.module;
        let (name, slot) = match (op.value, self.locals) {
            (Value::Null, _) => return self.null(f, op.ty),
            (Value::Constant(_) | Value::LocalConstant(_), _) => {
                // Every constant printed counts, not only those inspected for zeros: a
                // constant expression that contains itself three times would otherwise
                // print 3^32 times before the depth limit.
                if !self.spend() {
                    return f.write_str("...");
                }
                return match self.constant_of(op.value) {
                    Some((c, pool)) => self.constant(f, &c.kind, c.ty, pool, depth),
                    None => f.write_str("<badref>"),
                };
            }
            (Value::Global(i), _) => {
                (module.globals.get(i as usize).and_then(|g| g.name), at(&self.names.global_slots, i))
            }
            (Value::Function(i), _) => {
                (module.functions.get(i as usize).and_then(|g| g.name), at(&self.names.function_slots, i))
            }
            (Value::Argument(i), Some(l)) => (at(&l.arg_names, i), at(&l.arg_slots, i)),
            (Value::Instruction(i), Some(l)) => (at(&l.inst_names, i), at(&l.inst_slots, i)),
            (Value::Block(i), Some(l)) => (at(&l.block_names, i), at(&l.block_slots, i)),
            _ => (None, None),
        };
        match (name, slot) {
            (Some(n), _) => write_name(f, n, true),
            (None, Some(s)) => write!(f, "%{s}"),
            (None, None) => f.write_str("<badref>"),
        }
    }

    /// The constant a value names (of the module or of the body), with the operand pool
    /// its elements are in.
    fn constant_of(&self, value: Value) -> Option<(&Constant<'_>, &[Operand])> {
        let module = self.names.module;
        match value {
            Value::Constant(i) => Some((module.constants.get(i as usize)?, &module.operand_pool)),
            Value::LocalConstant(i) => {
                let body = self.locals?.body;
                Some((body.constants.get(i as usize)?, &body.operand_pool))
            }
            _ => None,
        }
    }

    /// The zero of a type.
    fn null(&self, f: &mut dyn Write, ty: TypeId) -> fmt::Result {
        match self.types().get(ty) {
            Some(Type::Primitive(1)) => f.write_str("false"),
            Some(Type::Primitive(10 | 11)) => write_fp(f, 0.0),
            Some(Type::Primitive(_)) => f.write_str("0"),
            Some(Type::Pointer(_)) => f.write_str("null"),
            _ => f.write_str("zeroinitializer"),
        }
    }

    /// Whether a value is the zero of its type (LLVM folds an aggregate of zeros into
    /// `zeroinitializer`).
    fn is_null(&self, op: &Operand, depth: usize) -> bool {
        if depth > MAX_CONSTANT_DEPTH || !self.spend() {
            return false;
        }
        if op.value == Value::Null {
            return true;
        }
        let Some((c, pool)) = self.constant_of(op.value) else { return false };
        self.kind_is_null(&c.kind, pool, depth)
    }

    fn kind_is_null(&self, kind: &ConstantKind<'_>, pool: &[Operand], depth: usize) -> bool {
        match kind {
            ConstantKind::Bool(b) => !b,
            ConstantKind::Int(v) => *v == 0,
            ConstantKind::UInt(v) => *v == 0,
            ConstantKind::Float(v) => v.to_bits() == 0,
            ConstantKind::Double(v) => v.to_bits() == 0,
            ConstantKind::String(bytes) => bytes.iter().all(|&b| b == 0),
            ConstantKind::Array(ops) | ConstantKind::Struct(ops) | ConstantKind::Packed(ops) => {
                pool.get(ops.range()).is_some_and(|ops| ops.iter().all(|o| self.is_null(o, depth + 1)))
            }
            _ => false,
        }
    }

    fn constant(
        &self,
        f: &mut dyn Write,
        kind: &ConstantKind<'_>,
        ty: TypeId,
        pool: &[Operand],
        depth: usize,
    ) -> fmt::Result {
        if depth > MAX_CONSTANT_DEPTH {
            return f.write_str("...");
        }
        if matches!(
            kind,
            ConstantKind::String(_) | ConstantKind::Array(_) | ConstantKind::Struct(_) | ConstantKind::Packed(_)
        ) && self.kind_is_null(kind, pool, depth)
        {
            return f.write_str("zeroinitializer");
        }
        let elements = |f: &mut dyn Write, open: &str, close: &str, ops: &[Operand]| -> fmt::Result {
            f.write_str(open)?;
            for (i, op) in ops.iter().enumerate() {
                f.write_str(if i == 0 { " " } else { ", " })?;
                write!(f, "{}", self.types().display(op.ty))?;
                f.write_char(' ')?;
                self.value_bare(f, op, depth + 1)?;
            }
            f.write_str(close)
        };
        match kind {
            ConstantKind::Bool(b) => f.write_str(if *b { "true" } else { "false" }),
            ConstantKind::Int(v) => write!(f, "{v}"),
            ConstantKind::UInt(v) => write!(f, "{v}"),
            ConstantKind::Float(v) => write_fp(f, f64::from(*v)),
            ConstantKind::Double(v) => write_fp(f, *v),
            ConstantKind::String(bytes) => {
                f.write_str("c\"")?;
                write_escaped(f, bytes)?;
                f.write_char('"')
            }
            ConstantKind::Array(ops) => {
                let ops = pool.get(ops.range()).unwrap_or_default();
                let is_string = matches!(self.types().derived(ty), Some(Type::Array { elem: 2 | 3, .. }))
                    && ops.iter().all(|o| self.int_value(o).is_some());
                if is_string {
                    f.write_str("c\"")?;
                    let bytes: Vec<u8> = ops.iter().map(|o| self.int_value(o).unwrap_or(0) as u8).collect();
                    write_escaped(f, &bytes)?;
                    return f.write_char('"');
                }
                elements(f, "[", " ]", ops)
            }
            ConstantKind::Struct(ops) => elements(f, "{", " }", pool.get(ops.range()).unwrap_or_default()),
            ConstantKind::Packed(ops) => elements(f, "<", " >", pool.get(ops.range()).unwrap_or_default()),
            ConstantKind::Pointer(ops) => match pool.get(ops.range()).and_then(|o| o.first()) {
                Some(op) => self.value_bare(f, op, depth + 1),
                None => f.write_str("<badref>"),
            },
            ConstantKind::Undef => f.write_str("undef"),
            ConstantKind::InlineAsm { asm, constraints, side_effects, .. } => {
                f.write_str("asm ")?;
                if *side_effects {
                    f.write_str("sideeffect ")?;
                }
                f.write_char('"')?;
                write_escaped(f, asm)?;
                f.write_str("\", \"")?;
                write_escaped(f, constraints)?;
                f.write_char('"')
            }
            ConstantKind::Expr { opcode, operands } => {
                write!(f, "{opcode} (")?;
                let ops = pool.get(operands.range()).unwrap_or_default();
                for (i, op) in ops.iter().enumerate() {
                    write!(f, "{} ", self.types().display(op.ty))?;
                    self.value_bare(f, op, depth + 1)?;
                    if i + 1 != ops.len() {
                        f.write_str(", ")?;
                    }
                }
                if *opcode == Opcode::Cast {
                    write!(f, " to {}", self.types().display(ty))?;
                }
                f.write_char(')')
            }
        }
    }

    /// The integer value of a constant operand (for strings and array sizes).
    fn int_value(&self, op: &Operand) -> Option<u64> {
        match op.value {
            Value::Null => Some(0),
            other => self.constant_of(other)?.0.kind.as_u64(),
        }
    }

    /// `printInfoComment`: the type, the slot of an unnamed value, the use count.
    fn info(&self, f: &mut dyn Write, ty: TypeId, slot: Option<u32>, uses: u32) -> fmt::Result {
        if ty == VOID {
            return Ok(());
        }
        f.write_str("\t\t; <")?;
        self.ty(f, ty)?;
        f.write_char('>')?;
        if let Some(s) = slot {
            write!(f, ":{s}")?;
        }
        write!(f, " [#uses={uses}]")
    }

    fn instruction(&self, f: &mut dyn Write, index: usize, inst: &Instruction) -> fmt::Result {
        let Some(l) = self.locals else { return Ok(()) };
        let ops = l.body.operands(inst);
        f.write_char('\t')?;
        if let Some(name) = l.inst_names[index] {
            write_name(f, name, true)?;
            f.write_str(" = ")?;
        }
        if inst.volatile {
            f.write_str("volatile ")?;
        } else if inst.tail {
            f.write_str("tail ")?;
        }
        write!(f, "{}", inst.opcode)?;
        match inst.opcode {
            Opcode::Br if ops.len() == 3 => {
                self.typed(f, &ops[0])?;
                f.write_char(',')?;
                self.typed(f, &ops[1])?;
                f.write_char(',')?;
                self.typed(f, &ops[2])?;
            }
            Opcode::Switch if ops.len() >= 2 => {
                self.typed(f, &ops[0])?;
                f.write_char(',')?;
                self.typed(f, &ops[1])?;
                f.write_str(" [")?;
                for pair in ops[2..].chunks_exact(2) {
                    f.write_str("\n\t\t")?;
                    self.typed(f, &pair[0])?;
                    f.write_char(',')?;
                    self.typed(f, &pair[1])?;
                }
                f.write_str("\n\t]")?;
            }
            Opcode::Phi => {
                f.write_char(' ')?;
                self.ty(f, inst.ty)?;
                f.write_char(' ')?;
                for (i, pair) in ops.chunks_exact(2).enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    f.write_char('[')?;
                    self.value(f, &pair[0])?;
                    f.write_char(',')?;
                    self.value(f, &pair[1])?;
                    f.write_str(" ]")?;
                }
            }
            Opcode::Ret if ops.is_empty() => f.write_str(" void")?,
            Opcode::Call | Opcode::Invoke if !ops.is_empty() => {
                let cc = calling_conv(inst.calling_conv);
                if !cc.is_empty() {
                    write!(f, " {}", cc.trim_end())?;
                }
                let callee = &ops[0];
                let (args, blocks) = if inst.opcode == Opcode::Invoke && ops.len() >= 3 {
                    (&ops[1..ops.len() - 2], Some(&ops[ops.len() - 2..]))
                } else {
                    (&ops[1..], None)
                };
                let short = match self.types().function_of_pointer(callee.ty) {
                    Some((ret, _, false)) if self.types().function_of_pointer(ret).is_none() => Some(ret),
                    _ => None,
                };
                match short {
                    Some(ret) => {
                        f.write_char(' ')?;
                        self.ty(f, ret)?;
                        self.value(f, callee)?;
                    }
                    None => self.typed(f, callee)?,
                }
                f.write_char('(')?;
                for (i, arg) in args.iter().enumerate() {
                    if i > 0 {
                        f.write_char(',')?;
                    }
                    self.typed(f, arg)?;
                }
                f.write_str(" )")?;
                if let Some(blocks) = blocks {
                    f.write_str("\n\t\t\tto")?;
                    self.typed(f, &blocks[0])?;
                    f.write_str(" unwind")?;
                    self.typed(f, &blocks[1])?;
                }
            }
            Opcode::Malloc | Opcode::Alloca => {
                f.write_char(' ')?;
                self.ty(f, self.types().pointee(inst.ty).unwrap_or(VOID))?;
                if let Some(size) = ops.first() {
                    if self.int_value(size) != Some(1) || !is_uint(size.ty) {
                        f.write_char(',')?;
                        self.typed(f, size)?;
                    }
                }
                if inst.alignment != 0 {
                    write!(f, ", align {}", inst.alignment)?;
                }
            }
            Opcode::Cast => {
                if let Some(op) = ops.first() {
                    self.typed(f, op)?;
                }
                f.write_str(" to ")?;
                self.ty(f, inst.ty)?;
            }
            Opcode::VaArg | Opcode::VaArgOld | Opcode::VaNext => {
                if let Some(op) = ops.first() {
                    self.typed(f, op)?;
                }
                f.write_str(", ")?;
                self.ty(f, if inst.opcode == Opcode::VaNext { inst.arg_type } else { inst.ty })?;
            }
            _ if !ops.is_empty() => {
                let all_types = matches!(
                    inst.opcode,
                    Opcode::Shl | Opcode::Shr | Opcode::Select | Opcode::Store | Opcode::ShuffleVector
                ) || ops.iter().any(|o| o.ty != ops[0].ty);
                if !all_types {
                    f.write_char(' ')?;
                    self.ty(f, ops[0].ty)?;
                }
                for (i, op) in ops.iter().enumerate() {
                    if i > 0 {
                        f.write_char(',')?;
                    }
                    if all_types { self.typed(f, op)? } else { self.value(f, op)? }
                }
            }
            _ => {}
        }
        self.info(f, inst.ty, l.inst_slots[index], l.inst_uses[index])?;
        f.write_char('\n')
    }

    fn function(&self, f: &mut dyn Write, index: usize) -> fmt::Result {
        let module = self.names.module;
        let Some(func) = module.functions.get(index) else { return Ok(()) };
        f.write_char('\n')?;
        let declaration = func.is_declaration() || self.locals.is_none();
        if declaration {
            f.write_str("declare ")?;
        } else if !func.linkage.keyword().is_empty() {
            write!(f, "{} ", func.linkage.keyword())?;
        }
        f.write_str(&calling_conv(func.calling_conv))?;
        let (ret, params, vararg) = match module.types.derived(func.function_type) {
            Some(Type::Function { ret, params, vararg }) => (*ret, params.as_slice(), *vararg),
            _ => (VOID, &[][..], false),
        };
        self.ty(f, ret)?;
        f.write_char(' ')?;
        match func.name {
            Some(name) if !name.is_empty() => write_name(f, name, true)?,
            _ => f.write_str("\"\"")?,
        }
        f.write_char('(')?;
        for (i, param) in params.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            self.ty(f, *param)?;
            if let Some(name) = self.locals.and_then(|l| l.arg_names.get(i).copied().flatten()) {
                f.write_char(' ')?;
                write_name(f, name, true)?;
            }
        }
        if vararg {
            f.write_str(if params.is_empty() { "..." } else { ", ..." })?;
        }
        f.write_char(')')?;
        if let Some(section) = func.section {
            f.write_str(" section \"")?;
            write_lossy(f, section)?;
            f.write_char('"')?;
        }
        if func.alignment != 0 {
            write!(f, " align {}", func.alignment)?;
        }
        let Some(l) = self.locals.filter(|_| !declaration) else {
            return f.write_char('\n');
        };
        f.write_str(" {")?;
        for (b, block) in l.body.blocks.iter().enumerate() {
            if let Some(name) = l.block_names[b] {
                f.write_char('\n')?;
                write_name(f, name, false)?;
                f.write_char(':')?;
            } else if l.block_uses[b] > 0 {
                f.write_str("\n; <label>:")?;
                match l.block_slots[b] {
                    Some(s) => write!(f, "{s}")?,
                    None => f.write_str("<badref>")?,
                }
            }
            if b > 0 {
                f.write_str("\t\t;")?;
                if l.preds[b].is_empty() {
                    f.write_str(" No predecessors!")?;
                } else {
                    f.write_str(" preds =")?;
                    for (i, p) in l.preds[b].iter().enumerate() {
                        if i > 0 {
                            f.write_char(',')?;
                        }
                        self.value(f, &Operand { ty: LABEL, value: Value::Block(*p) })?;
                    }
                }
            }
            f.write_char('\n')?;
            for i in block.first..block.first + block.len {
                if let Some(inst) = l.body.instructions.get(i as usize) {
                    self.instruction(f, i as usize, inst)?;
                }
            }
        }
        f.write_str("}\n")
    }

    fn global(&self, f: &mut dyn Write, index: usize) -> fmt::Result {
        let module = self.names.module;
        let g = &module.globals[index];
        if let Some(name) = g.name.filter(|n| !n.is_empty()) {
            write_name(f, name, true)?;
            f.write_str(" = ")?;
        }
        match g.initializer {
            None => f.write_str("external ")?,
            Some(_) if !g.linkage.keyword().is_empty() => write!(f, "{} ", g.linkage.keyword())?,
            Some(_) => {}
        }
        f.write_str(if g.constant { "constant " } else { "global " })?;
        self.ty(f, g.value_type)?;
        if let Some(init) = &g.initializer {
            self.value(f, init)?;
        }
        if let Some(section) = g.section {
            f.write_str(", section \"")?;
            write_lossy(f, section)?;
            f.write_char('"')?;
        }
        if g.alignment != 0 {
            write!(f, ", align {}", g.alignment)?;
        }
        self.info(f, g.ty, self.names.global_slots[index], self.names.global_uses[index])?;
        f.write_char('\n')
    }
}

fn is_uint(ty: TypeId) -> bool {
    ty == super::types::UINT
}

/// A module printed in LLVM 1.x assembly (see [`Module::display`]). Every function body is
/// decoded to count uses; a body that fails to decode is printed as a declaration,
/// preceded by a comment with the error.
pub struct ModuleDisplay<'p, 'a> {
    module: &'p Module<'a>,
    id: Option<&'p str>,
}

impl<'p, 'a> ModuleDisplay<'p, 'a> {
    /// Prints `; ModuleID = 'id'` first, as `llvm-dis` did with the file name.
    pub fn with_module_id(mut self, id: &'p str) -> Self {
        self.id = Some(id);
        self
    }
}

impl fmt::Display for ModuleDisplay<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let module = self.module;
        let mut bodies = Vec::new();
        let mut errors: Vec<(usize, LegacyError)> = Vec::new();
        let mut body_of = vec![None; module.functions.len()];
        for (i, _) in module.definitions() {
            match module.body(i) {
                Ok(Some(body)) => {
                    body_of[i] = Some(bodies.len());
                    bodies.push(body);
                }
                Ok(None) => {}
                Err(e) => errors.push((i, e)),
            }
        }
        let names = Names::new(module, &bodies);
        let printer = Printer::new(&names, None, MAX_DISPLAY_CONSTANT_NODES);
        if let Some(id) = self.id.filter(|id| !id.contains('\n')) {
            writeln!(f, "; ModuleID = '{id}'")?;
        }
        let format = module.bytecode.format();
        match format.endianness {
            Endianness::Little => f.write_str("target endian = little\n")?,
            Endianness::Big => f.write_str("target endian = big\n")?,
            Endianness::Unspecified => {}
        }
        match format.pointer_size {
            PointerSize::Bits32 => f.write_str("target pointersize = 32\n")?,
            PointerSize::Bits64 => f.write_str("target pointersize = 64\n")?,
            PointerSize::Unspecified => {}
        }
        if let Some(triple) = module.triple {
            f.write_str("target triple = \"")?;
            write_lossy(f, triple)?;
            f.write_str("\"\n")?;
        }
        if let Some(asm) = module.asm {
            f.write_str("module asm \"")?;
            write_escaped(f, asm)?;
            f.write_str("\"\n")?;
        }
        if !module.dependent_libraries.is_empty() {
            f.write_str("deplibs = [ ")?;
            for (i, lib) in module.dependent_libraries.iter().enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                f.write_char('"')?;
                write_lossy(f, lib)?;
                f.write_char('"')?;
            }
            f.write_str(" ]\n")?;
        }
        let mut type_names: Vec<&(TypeId, Vec<u8>)> = module.types.names().iter().collect();
        type_names.sort_by(|a, b| a.1.cmp(&b.1));
        type_names.dedup_by(|a, b| a.1 == b.1);
        for (ty, name) in type_names {
            f.write_char('\t')?;
            write_name(f, name, true)?;
            writeln!(f, " = type {}", module.types.display_definition(*ty))?;
        }
        for i in 0..module.globals.len() {
            printer.global(f, i)?;
        }
        f.write_str("\nimplementation   ; Functions:\n")?;
        for (i, body) in body_of.iter().enumerate() {
            if let Some((_, e)) = errors.iter().find(|(at, _)| *at == i) {
                write!(f, "\n; error: {e}")?;
            }
            match *body {
                Some(b) => {
                    let locals = names.locals(&bodies[b]);
                    // The display's budget carries from function to function.
                    let function = Printer::new(&names, Some(&locals), printer.total.get());
                    function.function(f, i)?;
                    printer.total.set(function.total.get());
                }
                None => printer.function(f, i)?,
            }
        }
        Ok(())
    }
}

/// One function printed in LLVM 1.x assembly (see [`Module::display_function`]).
pub struct FunctionDisplay<'p, 'a> {
    module: &'p Module<'a>,
    body: &'p Body<'a>,
}

impl fmt::Display for FunctionDisplay<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names = Names::new(self.module, core::slice::from_ref(self.body));
        let locals = names.locals(self.body);
        Printer::new(&names, Some(&locals), MAX_DISPLAY_CONSTANT_NODES).function(f, self.body.function)
    }
}

impl<'a> Module<'a> {
    /// The module in LLVM 1.x assembly, as its `llvm-dis` printed it.
    pub fn display(&self) -> ModuleDisplay<'_, 'a> {
        ModuleDisplay { module: self, id: None }
    }

    /// One function in LLVM 1.x assembly. Use counts count this body's uses only.
    pub fn display_function<'p>(&'p self, body: &'p Body<'a>) -> FunctionDisplay<'p, 'a> {
        FunctionDisplay { module: self, body }
    }
}

impl Linkage {
    /// Whether definitions with this linkage print a keyword.
    pub fn is_printed(self) -> bool {
        !self.keyword().is_empty()
    }
}

// Types: printing reads the type table; the table knows nothing of printing.

impl TypeTable {
    /// Prints a type as LLVM 1.x did: by name where it has one, else structurally, with
    /// `\N` up-references for recursion (`{ int, \2* }`).
    pub fn display(&self, id: TypeId) -> TypeDisplay<'_> {
        TypeDisplay { table: self, id, expand_top: false }
    }

    /// Prints a type structurally even if it has a name (its definition: `%T = type { … }`).
    pub fn display_definition(&self, id: TypeId) -> TypeDisplay<'_> {
        TypeDisplay { table: self, id, expand_top: true }
    }
}

/// Prints a [`TypeId`] in LLVM 1.x syntax (see [`TypeTable::display`]).
#[derive(Clone, Copy, Debug)]
pub struct TypeDisplay<'t> {
    table: &'t TypeTable,
    id: TypeId,
    expand_top: bool,
}

impl TypeDisplay<'_> {
    fn write(
        &self,
        f: &mut fmt::Formatter<'_>,
        id: TypeId,
        stack: &mut Vec<TypeId>,
        budget: &mut usize,
    ) -> fmt::Result {
        let top = stack.is_empty();
        if stack.len() >= MAX_PRINT_DEPTH || *budget == 0 {
            return f.write_str("...");
        }
        *budget -= 1;
        if let Some(p) = PRIMITIVE_NAMES.get(id as usize) {
            return f.write_str(p);
        }
        if !top || !self.expand_top {
            if let Some(name) = self.table.name(id) {
                return write_name(f, name, true);
            }
        }
        if let Some(depth) = stack.iter().rev().position(|&t| t == id) {
            return write!(f, "\\{}", depth + 1);
        }
        let Some(ty) = self.table.derived(id) else {
            return write!(f, "<type {id}>");
        };
        stack.push(id);
        let result = self.write_derived(f, ty, stack, budget);
        stack.pop();
        result
    }

    fn write_derived(
        &self,
        f: &mut fmt::Formatter<'_>,
        ty: &Type,
        stack: &mut Vec<TypeId>,
        budget: &mut usize,
    ) -> fmt::Result {
        let mut list = |f: &mut fmt::Formatter<'_>, ids: &[TypeId]| -> fmt::Result {
            for (i, t) in ids.iter().enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                self.write(f, *t, stack, budget)?;
            }
            Ok(())
        };
        match ty {
            Type::Primitive(_) => Ok(()),
            Type::Function { ret, params, vararg } => {
                list(f, core::slice::from_ref(ret))?;
                f.write_str(" (")?;
                list(f, params)?;
                if *vararg {
                    f.write_str(if params.is_empty() { "..." } else { ", ..." })?;
                }
                f.write_str(")")
            }
            Type::Struct(fields) => {
                f.write_str("{ ")?;
                list(f, fields)?;
                f.write_str(" }")
            }
            Type::Array { elem, len } => {
                write!(f, "[{len} x ")?;
                list(f, core::slice::from_ref(elem))?;
                f.write_str("]")
            }
            Type::Packed { elem, len } => {
                write!(f, "<{len} x ")?;
                list(f, core::slice::from_ref(elem))?;
                f.write_str(">")
            }
            Type::Pointer(elem) => {
                list(f, core::slice::from_ref(elem))?;
                f.write_str("*")
            }
            Type::Opaque => f.write_str("opaque"),
        }
    }
}

impl fmt::Display for TypeDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut budget = MAX_PRINT_NODES;
        self.write(f, self.id, &mut Vec::new(), &mut budget)
    }
}
