//! Constants printed as `llvm-dis` prints them (`i32 7`, `ptr @g`, `[2 x i8] c"a\00"`,
//! `getelementptr inbounds (…)`): [`ModuleConstants::display`], and the `Printer` that
//! the function and module printers print their operands with.

use alloc::vec::Vec;
use core::fmt;

use crate::ids::llvm_ir::raw as ids;
use crate::ir::module::constants::{Constant, ConstantKind, ModuleConstants};
use crate::ir::module::types::{Type, TypeId, TypeTable};
use crate::ir::module::{GlobalRef, Module};
use crate::ir::print::escape::{write_escaped, write_llvm_name};
use crate::ir::print::numbers::{apfloat_scientific, write_wide_int};
use crate::ir::vocabulary::opcodes::{binary_op_name, cast_op_name, predicate};
use crate::reader::Entry;

impl ModuleConstants {
    /// Value `value_id` printed as `llvm-dis` prints an operand, its type first
    /// (`i32 7`, `ptr @g`, `[2 x i8] c"a\00"`); `opaque_pointers` prints every pointer
    /// as `ptr`, as LLVM 17 and later do.
    pub fn display<'t, 'a>(
        &'t self,
        module: &'t Module<'a>,
        value_id: u64,
        opaque_pointers: bool,
    ) -> ConstantDisplay<'t, 'a> {
        ConstantDisplay { table: self, module, value_id, opaque_pointers, with_type: true }
    }

    /// The same without the type (`7`, `@g`, `c"a\00"`).
    pub fn display_value<'t, 'a>(
        &'t self,
        module: &'t Module<'a>,
        value_id: u64,
        opaque_pointers: bool,
    ) -> ConstantDisplay<'t, 'a> {
        ConstantDisplay { table: self, module, value_id, opaque_pointers, with_type: false }
    }
}

/// A value printed as `llvm-dis` prints it: see [`ModuleConstants::display`].
pub struct ConstantDisplay<'t, 'a> {
    table: &'t ModuleConstants,
    module: &'t Module<'a>,
    value_id: u64,
    opaque_pointers: bool,
    with_type: bool,
}

/// How deep nested constants are printed before `<...>` stands for the rest (a hostile
/// file may nest them without end).
const MAX_DEPTH: usize = 64;
/// How many values one display prints at least before `<...>` stands for the rest, and
/// per operand of the table beyond that: constants may share operands, so a small file
/// can describe an exponentially large tree, while a real initializer's tree is about
/// as large as the operands it is made of.
const MIN_VALUES: usize = 1 << 16;
const VALUES_PER_OPERAND: usize = 4;

impl fmt::Display for ConstantDisplay<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = Printer::new(self.table, self.module, self.opaque_pointers);
        if self.with_type { p.operand(f, self.value_id, 0) } else { p.value(f, self.value_id, 0) }
    }
}

/// A type [`Printer::ty`] writes without formatting.
#[derive(Clone, Copy)]
enum Leaf {
    Int(u64),
    Named(&'static str),
}

pub(crate) struct Printer<'t, 'a> {
    table: &'t ModuleConstants,
    /// The module as the printing version reads it, when printing its view: value ids
    /// resolved through its folds, its types, its functions' names.
    view: Option<&'t crate::ir::view::ModuleView<'t, 't, 'a>>,
    /// A function's constants, after the module's.
    local: Option<&'t ModuleConstants>,
    /// The `llvm-dis` version printed for: from 20, vectors of one repeated number
    /// print as `splat (i32 4)`; from 17, undefined shuffle-mask elements as `poison`.
    llvm_version: u32,
    module: &'t Module<'a>,
    opaque: bool,
    /// Values left to print (see [`MIN_VALUES`]).
    budget: core::cell::Cell<u32>,
    /// The slot of an unnamed basic block (function index, block index), for
    /// `blockaddress`: numbering a function's unnamed values needs its body decoded, which
    /// only a printer given the module's bodies can do.
    block_slot: Option<&'t dyn Fn(usize, u64) -> Option<u32>>,
    /// Each type's text that is not a leaf type (see [`Printer::ty`]), by type id, made
    /// once for a module printed whole.
    type_texts: Option<&'t [Option<alloc::boxed::Box<str>>]>,
}

impl<'t, 'a> Printer<'t, 'a> {
    /// The module as the printing version reads it, when printing its view.
    pub(crate) fn view(&self) -> Option<&'t crate::ir::view::ModuleView<'t, 't, 'a>> {
        self.view
    }

    pub(crate) fn new(table: &'t ModuleConstants, module: &'t Module<'a>, opaque: bool) -> Self {
        let budget = table.operands.len().saturating_mul(VALUES_PER_OPERAND).clamp(MIN_VALUES, u32::MAX as usize);
        Printer {
            table,
            view: None,
            local: None,
            llvm_version: if opaque { 22 } else { 14 },
            module,
            opaque,
            budget: core::cell::Cell::new(budget as u32),
            block_slot: None,
            type_texts: None,
        }
    }

    /// The printer of a module's constants in `llvm-dis` text as `options` asks (its
    /// version, pointers as that version reads the module), numbering `blockaddress`
    /// blocks with `block_slot`: what every whole-module and function printer starts from.
    pub(crate) fn for_dis(
        v: &'t crate::ir::view::ModuleView<'t, 't, 'a>,
        options: crate::ir::print::DisOptions,
        block_slot: &'t dyn Fn(usize, u64) -> Option<u32>,
    ) -> Self {
        let b = v.bodies();
        Printer::new(v.constants(), b.module(), options.opaque(b))
            .with_view(v)
            .for_version(options.llvm_version)
            .with_block_slots(Some(block_slot))
    }

    /// Prints view `v`'s constants (the table this prints is its table).
    pub(crate) fn with_view(mut self, v: &'t crate::ir::view::ModuleView<'t, 't, 'a>) -> Self {
        self.view = Some(v);
        self
    }

    /// The value `value_id` is as the view holds it.
    fn resolve(&self, value_id: u64) -> u64 {
        self.view.map_or(value_id, |v| v.resolve(value_id))
    }

    /// Takes the texts of types that are not leaf types from `types` (what
    /// [`Printer::composite_type`] writes; `None` where not made), made by a printer of
    /// the same settings.
    pub(crate) fn with_type_texts(mut self, types: Option<&'t [Option<alloc::boxed::Box<str>>]>) -> Self {
        self.type_texts = types;
        self
    }

    /// Numbers unnamed blocks in `blockaddress` with `block_slot` (function index, block
    /// index → slot), as `llvm-dis` does; without it, such a block prints its index.
    pub(crate) fn with_block_slots(mut self, block_slot: Option<&'t dyn Fn(usize, u64) -> Option<u32>>) -> Self {
        self.block_slot = block_slot;
        self
    }

    /// Prints as `llvm-dis` of this LLVM major version.
    pub(crate) fn for_version(mut self, llvm_version: u32) -> Self {
        self.llvm_version = llvm_version;
        self
    }

    /// `splat (T v)` for a vector constant whose elements are one number, when printing
    /// as LLVM 20 and later.
    fn write_splat(
        &self,
        f: &mut dyn fmt::Write,
        c: &Constant,
        table: &ModuleConstants,
        depth: usize,
    ) -> Option<fmt::Result> {
        if self.llvm_version < 20 {
            return None;
        }
        let Some(Type::Vector { element, .. }) = self.types().get(c.ty) else { return None };
        match c.kind {
            ConstantKind::Data(r) => {
                let elements = table.operands(r);
                let first = *elements.first()?;
                if elements.iter().any(|&e| e != first) {
                    return None;
                }
                let mut text = alloc::string::String::new();
                if self.data(&mut text, c.ty, &[first]).is_err() {
                    return None;
                }
                // `<i32 4>` -> `i32 4`.
                let inner = text.strip_prefix('<')?.strip_suffix('>')?;
                let _ = element;
                Some(write!(f, "splat ({inner})"))
            }
            // shufflevector (insertelement (poison, C, 0), poison, zeroinitializer): the
            // splat of a scalable vector, which LLVM 20 and later read as a constant.
            ConstantKind::Expression { code: ids::CST_CODE_CE_SHUFFLEVEC, operands } => {
                let &[v, _, m] = table.operands(operands) else { return None };
                let (mask, _) = self.lookup(m)?;
                let (insert, insert_table) = self.lookup(v)?;
                let ConstantKind::Expression { code: ids::CST_CODE_CE_INSERTELT, operands } = insert.kind else {
                    return None;
                };
                let &[base, scalar, _, index] = insert_table.operands(operands) else { return None };
                let zero_index = self.lookup(index)?.0.kind.is_zero();
                let poison_base = matches!(self.lookup(base)?.0.kind, ConstantKind::Poison | ConstantKind::Undef);
                let number = matches!(
                    self.lookup(scalar)?.0.kind,
                    ConstantKind::Int(_) | ConstantKind::Float { .. } | ConstantKind::Null
                );
                if !(matches!(mask.kind, ConstantKind::Null) && zero_index && poison_base && number) {
                    return None;
                }
                Some(
                    f.write_str("splat (")
                        .and_then(|()| self.operand(f, scalar, depth + 1))
                        .and_then(|()| f.write_char(')')),
                )
            }
            ConstantKind::Aggregate(r) => {
                let elements = table.operands(r);
                let first = *elements.first()?;
                if elements.iter().any(|&e| e != first) {
                    return None;
                }
                let (e, _) = self.lookup(first)?;
                if !matches!(
                    e.kind,
                    ConstantKind::Int(_)
                        | ConstantKind::Float { .. }
                        | ConstantKind::WideInt(_)
                        | ConstantKind::Byte(_)
                        | ConstantKind::WideByte(_)
                ) {
                    return None;
                }
                Some(
                    f.write_str("splat (")
                        .and_then(|()| self.operand(f, first, depth + 1))
                        .and_then(|()| f.write_char(')')),
                )
            }
            _ => None,
        }
    }

    /// A shufflevector mask as `PrintShuffleMask` prints it: `, <4 x i32> <i32 0, …>`,
    /// `zeroinitializer` or `poison` (`undef` before LLVM 17) when all elements agree.
    pub(crate) fn shuffle_mask(&self, f: &mut dyn fmt::Write, mask: u64) -> fmt::Result {
        let Some((c, table)) = self.lookup(mask) else { return f.write_str(", <bad mask>") };
        let (len, scalable) = match self.types().get(c.ty) {
            Some(Type::Vector { len, scalable, .. }) => (*len, *scalable),
            _ => return f.write_str(", <bad mask>"),
        };
        f.write_str(", <")?;
        if scalable {
            f.write_str("vscale x ")?;
        }
        write!(f, "{len} x i32> ")?;
        let undef = if self.llvm_version >= 17 { "poison" } else { "undef" };
        // Each element: Some(index), or None for undef/poison.
        let element = |i: usize| -> Option<u64> {
            match c.kind {
                ConstantKind::Null => Some(0),
                ConstantKind::Data(r) => table.operands(r).get(i).copied(),
                ConstantKind::Aggregate(r) => match self.lookup(*table.operands(r).get(i)?)?.0.kind {
                    ConstantKind::Int(v) => Some(v as u64),
                    ConstantKind::Null => Some(0),
                    _ => None,
                },
                _ => None,
            }
        };
        let count = match c.kind {
            ConstantKind::Data(r) | ConstantKind::Aggregate(r) => r.len as usize,
            // A scalable mask is zeroinitializer or undef, one element stands for all.
            _ => (len as usize).clamp(1, 1),
        };
        if (0..count).all(|i| element(i) == Some(0)) {
            return f.write_str("zeroinitializer");
        }
        if (0..count).all(|i| element(i).is_none()) {
            return f.write_str(undef);
        }
        f.write_char('<')?;
        for i in 0..count {
            if i > 0 {
                f.write_str(", ")?;
            }
            match element(i) {
                Some(v) => write!(f, "i32 {}", v as u32 as i32)?,
                None => write!(f, "i32 {undef}")?,
            }
        }
        f.write_char('>')
    }

    /// A printer of a function's operands: its constants after the module's.
    pub(crate) fn with_local(mut self, local: &'t ModuleConstants) -> Self {
        let extra = local.operands.len().saturating_mul(VALUES_PER_OPERAND);
        self.budget.set(self.budget.get().saturating_add(extra.min(u32::MAX as usize) as u32));
        self.local = Some(local);
        self
    }

    /// Whether value `value_id` prints as a constant expression (not folded away), which
    /// an alias's aliasee then prints without its type.
    pub(crate) fn prints_as_expression(&self, value_id: u64) -> bool {
        self.lookup(self.resolve(value_id)).is_some_and(|(c, _)| c.kind.is_expression())
    }

    /// A constant by value id (a function's or the module's), with the table its
    /// operand ranges point into.
    pub(crate) fn constant(&self, value_id: u64) -> Option<(&'t Constant, &'t ModuleConstants)> {
        self.lookup(value_id)
    }

    /// A constant by value id, with the table its operand ranges point into.
    fn lookup(&self, value_id: u64) -> Option<(&'t Constant, &'t ModuleConstants)> {
        if let Some(local) = self.local {
            if let Some(c) = local.get(value_id) {
                return Some((c, local));
            }
        }
        self.table.get(value_id).map(|c| (c, self.table))
    }

    pub(crate) fn types(&self) -> &TypeTable {
        match self.view {
            Some(v) => v.types(),
            None => &self.module.types,
        }
    }

    pub(crate) fn ty(&self, f: &mut dyn fmt::Write, id: TypeId) -> fmt::Result {
        // The common leaf types directly, without a `TypeDisplay` (printing bodies spends
        // much of its time on types), the others from the module's texts when there are.
        if let Some(leaf) = self.leaf_type(id) {
            return match leaf {
                Leaf::Int(w) => write_int_type(f, w),
                Leaf::Named(name) => f.write_str(name),
            };
        }
        if let Some(Some(text)) = self.type_texts.and_then(|t| t.get(id.0 as usize)) {
            return f.write_str(text);
        }
        self.composite_type(f, id)
    }

    /// Whether [`Printer::ty`] writes `id` without formatting.
    pub(crate) fn is_leaf_type(&self, id: TypeId) -> bool {
        self.leaf_type(id).is_some()
    }

    /// What [`Printer::ty`] writes for `id` without formatting, if it is a leaf type.
    fn leaf_type(&self, id: TypeId) -> Option<Leaf> {
        Some(Leaf::Named(match self.types().get(id) {
            Some(Type::Integer(w)) => return Some(Leaf::Int(*w)),
            Some(Type::Pointer { pointee: _, address_space: 0 }) if self.opaque => "ptr",
            Some(Type::Void) => "void",
            Some(Type::Float) => "float",
            Some(Type::Double) => "double",
            Some(Type::Half) => "half",
            Some(Type::Label) => "label",
            Some(Type::Metadata) => "metadata",
            Some(Type::Token) => "token",
            _ => return None,
        }))
    }

    /// A type that is not a leaf type, through its `TypeDisplay`.
    pub(crate) fn composite_type(&self, f: &mut dyn fmt::Write, id: TypeId) -> fmt::Result {
        if self.opaque {
            write!(f, "{}", self.types().display_opaque(id).for_llvm(self.llvm_version))
        } else {
            write!(f, "{}", self.types().display(id).for_llvm(self.llvm_version))
        }
    }

    /// A value's type: a constant's, or a global value's pointer to its value type
    /// (`ptr`, `ptr addrspace(N)`; `T*` with typed pointers).
    pub(crate) fn type_of(&self, f: &mut dyn fmt::Write, value_id: u64) -> fmt::Result {
        if let Some((c, _)) = self.lookup(value_id) {
            return self.ty(f, c.ty);
        }
        let Some(g) = self.module.global(value_id) else { return f.write_str("<unknown type>") };
        match (self.opaque, g.address_space) {
            (true, 0) => f.write_str("ptr"),
            (true, n) => write!(f, "ptr addrspace({n})"),
            (false, n) => {
                // A function's value type is its function type: `void ()*`.
                self.ty(f, g.value_type)?;
                if n != 0 {
                    write!(f, " addrspace({n})")?;
                }
                f.write_char('*')
            }
        }
    }

    /// `TYPE VALUE`.
    pub(crate) fn operand(&self, f: &mut dyn fmt::Write, value_id: u64, depth: usize) -> fmt::Result {
        self.type_of(f, value_id)?;
        f.write_char(' ')?;
        self.value(f, value_id, depth)
    }

    pub(crate) fn value(&self, f: &mut dyn fmt::Write, value_id: u64, depth: usize) -> fmt::Result {
        let left = self.budget.get();
        if depth > MAX_DEPTH || left == 0 {
            return f.write_str("<...>");
        }
        self.budget.set(left - 1);
        let value_id = self.resolve(value_id);
        if value_id < self.table.base {
            return self.global_name(f, value_id);
        }
        let Some((c, table)) = self.lookup(value_id) else {
            return write!(f, "<bad value id {value_id}>");
        };
        if let Some(done) = self.write_splat(f, c, table, depth) {
            return done;
        }
        let types = self.types();
        match c.kind {
            ConstantKind::Null => match types.get(c.ty) {
                Some(Type::Pointer { .. }) => f.write_str("null"),
                Some(Type::Integer(1)) => f.write_str("false"),
                // A byte type's null value is `ConstantByte` 0 (LLVM 23).
                Some(Type::Integer(_) | Type::Byte(_)) => f.write_char('0'),
                Some(Type::Half) => f.write_str("0xH0000"),
                Some(Type::BFloat) => f.write_str("0xR0000"),
                Some(Type::Float | Type::Double) => f.write_str("0.000000e+00"),
                Some(Type::X86Fp80) => f.write_str("0xK00000000000000000000"),
                Some(Type::Fp128) => f.write_str("0xL00000000000000000000000000000000"),
                Some(Type::PpcFp128) => f.write_str("0xM00000000000000000000000000000000"),
                Some(Type::Token) => f.write_str("none"),
                Some(Type::TargetExt { .. }) => f.write_str("zeroinitializer"),
                _ => f.write_str("zeroinitializer"),
            },
            ConstantKind::Undef => f.write_str("undef"),
            ConstantKind::Poison => f.write_str("poison"),
            ConstantKind::Int(v) => match types.get(c.ty) {
                Some(Type::Integer(1)) => f.write_str(if v != 0 { "true" } else { "false" }),
                Some(Type::Integer(w)) => write_sign_extended(f, v, *w),
                _ => write!(f, "{v}"),
            },
            ConstantKind::WideInt(words) => {
                let width = match types.get(c.ty) {
                    Some(Type::Integer(w)) => *w,
                    _ => 64 * words.len as u64,
                };
                write_wide_int(f, table.operands(words), width, true)
            }
            // `ConstantByte` (LLVM 23's AsmWriter): its value in signed decimal (no
            // `true`/`false`), a vector's as `splat (bN v)`.
            ConstantKind::Byte(_) | ConstantKind::WideByte(_) => {
                let (width, vector) = match types.get(c.ty) {
                    Some(Type::Vector { element, .. }) => match types.get(*element) {
                        Some(Type::Byte(w)) => (*w, Some(*element)),
                        _ => (64, Some(*element)),
                    },
                    Some(Type::Byte(w)) => (*w, None),
                    _ => (64, None),
                };
                if let Some(element) = vector {
                    f.write_str("splat (")?;
                    self.ty(f, element)?;
                    f.write_char(' ')?;
                }
                match c.kind {
                    ConstantKind::Byte(v) => write_sign_extended(f, v, width)?,
                    ConstantKind::WideByte(words) => write_wide_int(f, table.operands(words), width, true)?,
                    _ => {}
                }
                if vector.is_some() {
                    f.write_char(')')?;
                }
                Ok(())
            }
            ConstantKind::Float { lo, hi } => write_float(f, types.get(c.ty), lo, hi),
            ConstantKind::Aggregate(elements) => {
                let elements = table.operands(elements);
                let (open, close) = match types.get(c.ty) {
                    Some(Type::Struct { packed: true, .. }) => ("<{ ", " }>"),
                    Some(Type::Struct { .. }) => ("{ ", " }"),
                    Some(Type::Vector { .. }) => ("<", ">"),
                    _ => ("[", "]"),
                };
                if elements.is_empty() && open == "{ " {
                    return f.write_str("{}");
                }
                f.write_str(open)?;
                for (i, &e) in elements.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    self.operand(f, e, depth + 1)?;
                }
                f.write_str(close)
            }
            ConstantKind::String { bytes, nul } => {
                f.write_str("c\"")?;
                let bytes: Vec<u8> = table.operands(bytes).iter().map(|&b| b as u8).collect();
                write_escaped(f, &bytes)?;
                if nul {
                    f.write_str("\\00")?;
                }
                f.write_char('"')
            }
            ConstantKind::Data(elements) => self.data(f, c.ty, table.operands(elements)),
            ConstantKind::Cast { opcode, operand, .. } => {
                write!(f, "{} (", cast_op_name(opcode))?;
                self.operand(f, operand, depth + 1)?;
                f.write_str(" to ")?;
                self.ty(f, c.ty)?;
                f.write_char(')')
            }
            ConstantKind::Binary { opcode, lhs, rhs, flags } => {
                write_binary_expression_opcode(f, opcode, flags, types.is_fp_or_fp_vector(c.ty))?;
                f.write_str(" (")?;
                self.operand(f, lhs, depth + 1)?;
                f.write_str(", ")?;
                self.operand(f, rhs, depth + 1)?;
                f.write_char(')')
            }
            ConstantKind::Unary { operand, .. } => {
                f.write_str("fneg (")?;
                self.operand(f, operand, depth + 1)?;
                f.write_char(')')
            }
            ConstantKind::Gep { source, flags, inrange_index, inrange, operands } => {
                // With opaque pointers, a GEP of all-zero indices is its base pointer, and
                // LLVM folds it as it reads the typed-pointer expression.
                let pairs = table.operands(operands);
                f.write_str("getelementptr")?;
                write_gep_flags(f, flags)?;
                if let Some((lower, upper)) = inrange {
                    write!(f, " inrange({lower}, {upper})")?;
                }
                f.write_str(" (")?;
                // A GEP of LLVM before 3.7 has no source type: the reader takes the base
                // pointer's pointee (of a vector of pointers, its element's).
                let source = source.or_else(|| {
                    let base = TypeId(*pairs.first()? as u32);
                    let types = self.types();
                    match types.get(base) {
                        Some(Type::Vector { element, .. }) => types.pointee(*element),
                        _ => types.pointee(base),
                    }
                });
                if let Some(s) = source {
                    self.ty(f, s)?;
                    f.write_str(", ")?;
                }
                for (i, pair) in pairs.chunks(2).enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    // Pair 0 is the base pointer.
                    // The old `inrange` of one index: LLVM 19 and later read it as nothing.
                    if self.llvm_version < 19 && inrange_index.is_some_and(|r| r.checked_add(1) == Some(i as u64)) {
                        f.write_str("inrange ")?;
                    }
                    let &[t, v] = pair else { break };
                    self.ty(f, TypeId(t as u32))?;
                    f.write_char(' ')?;
                    self.value(f, v, depth + 1)?;
                }
                f.write_char(')')
            }
            ConstantKind::Select { condition, on_true, on_false } => {
                f.write_str("select (")?;
                for (i, v) in [condition, on_true, on_false].into_iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    self.operand(f, v, depth + 1)?;
                }
                f.write_char(')')
            }
            ConstantKind::BlockAddress { function, block } => {
                f.write_str("blockaddress(")?;
                self.value(f, function, depth + 1)?;
                f.write_str(", %")?;
                match self.block_name(function, block) {
                    Some(name) => write_llvm_name(f, &name)?,
                    // Unnamed blocks are numbered with the function's other unnamed
                    // values, which needs the body decoded; without the bodies, the
                    // block's own index.
                    None => {
                        let slot = match (self.block_slot, self.module.values.get(function as usize)) {
                            (Some(slot_of), Some(&GlobalRef::Function(i))) => slot_of(i, block),
                            _ => None,
                        };
                        write!(f, "{}", slot.map_or(block, u64::from))?
                    }
                }
                f.write_char(')')
            }
            ConstantKind::DsoLocalEquivalent(v) => {
                f.write_str("dso_local_equivalent ")?;
                self.value(f, v, depth + 1)
            }
            ConstantKind::NoCfi(v) => {
                f.write_str("no_cfi ")?;
                self.value(f, v, depth + 1)
            }
            ConstantKind::Expression { code: ids::CST_CODE_CE_CMP, operands } => {
                // [opty, lhs, rhs, pred]
                let &[_, lhs, rhs, pred, ..] = table.operands(operands) else {
                    return f.write_str("<malformed compare>");
                };
                match predicate(pred) {
                    Some((is_int, name)) => write!(f, "{} {name} (", if is_int { "icmp" } else { "fcmp" })?,
                    None => write!(f, "<unknown predicate {pred}> (")?,
                }
                self.operand(f, lhs, depth + 1)?;
                f.write_str(", ")?;
                self.operand(f, rhs, depth + 1)?;
                f.write_char(')')
            }
            ConstantKind::Other { code: ids::CST_CODE_PTRAUTH | ids::CST_CODE_PTRAUTH2, operands } => {
                // [pointer, key, discriminator, address discriminator(, deactivation
                // symbol)]: trailing null operands are not printed.
                let ops = table.operands(operands);
                let is_null = |v: u64| self.lookup(v).is_some_and(|(c, _)| c.kind.is_zero());
                let shown =
                    (2..ops.len()).filter(|&i| !is_null(ops[i])).map(|i| i + 1).max().unwrap_or(2).min(ops.len());
                f.write_str("ptrauth (")?;
                for (i, &v) in ops[..shown].iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    self.operand(f, v, depth + 1)?;
                }
                f.write_char(')')
            }
            ConstantKind::Other { .. } => write_inline_asm(f, self.view, c.inline_asm(table)),
            ConstantKind::Expression { code, operands }
                if matches!(
                    code,
                    ids::CST_CODE_CE_EXTRACTELT
                        | ids::CST_CODE_CE_INSERTELT
                        | ids::CST_CODE_CE_SHUFFLEVEC
                        | ids::CST_CODE_CE_SHUFVEC_EX
                ) =>
            {
                // EXTRACTELT [vector type, vector, index type, index]; INSERTELT [vector,
                // element, index type, index]; SHUFFLEVEC [v1, v2, mask]; SHUFVEC_EX
                // [vector type, v1, v2, mask].
                let ops = table.operands(operands);
                let (name, values, mask): (&str, &[u64], Option<u64>) = match (code, ops) {
                    (ids::CST_CODE_CE_EXTRACTELT, &[_, v, _, i, ..]) => ("extractelement", &[v, i][..], None),
                    (ids::CST_CODE_CE_INSERTELT, &[v, e, _, i, ..]) => ("insertelement", &[v, e, i][..], None),
                    (ids::CST_CODE_CE_SHUFFLEVEC, &[a, b, m, ..])
                    | (ids::CST_CODE_CE_SHUFVEC_EX, &[_, a, b, m, ..]) => ("shufflevector", &[a, b][..], Some(m)),
                    _ => return write!(f, "<malformed constant expression {code}>"),
                };
                write!(f, "{name} (")?;
                for (i, &v) in values.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    self.operand(f, v, depth + 1)?;
                }
                if let Some(m) = mask {
                    self.shuffle_mask(f, m)?;
                }
                f.write_char(')')
            }
            ConstantKind::Expression { code, .. } => {
                write!(f, "<constant code {code}>")
            }
            ConstantKind::Unknown { code, .. } => write!(f, "<unknown constant code {code}>"),
        }
    }

    /// A basic block's name, from its function body's VALUE_SYMTAB (a BBENTRY record).
    fn block_name(&self, function: u64, block: u64) -> Option<Vec<u8>> {
        let Some(&GlobalRef::Function(i)) = self.module.values.get(usize::try_from(function).ok()?) else {
            return None;
        };
        let body = self.module.functions.get(i)?.body.as_ref()?;
        let mut reader = body.reader().ok()?;
        // The function block, then its items: only the VALUE_SYMTAB is entered.
        reader.advance().ok()?;
        let mut in_vst = false;
        while let Some(entry) = reader.advance().ok()? {
            match entry {
                Entry::EnterBlock(b) if b.block_id.0 == ids::VALUE_SYMTAB_BLOCK_ID && !in_vst => in_vst = true,
                Entry::EnterBlock(_) => {
                    reader.skip_block().ok()?;
                }
                Entry::EndBlock(_) if in_vst => return None,
                Entry::Record { .. } if in_vst => {
                    let r = reader.read_record().ok()?;
                    let ops = r.operand_slice();
                    if r.code() == ids::VST_CODE_BBENTRY && ops.first() == Some(&block) {
                        return Some(ops[1..].iter().map(|&c| c as u8).collect());
                    }
                }
                _ => {}
            }
        }
        None
    }

    /// `@name`, or `@N` for an unnamed global value (numbered as `llvm-dis` numbers
    /// them: unnamed variables, then aliases, ifuncs and functions).
    pub(crate) fn global_name(&self, f: &mut dyn fmt::Write, value_id: u64) -> fmt::Result {
        let m = self.module;
        let Some(global) = m.global(value_id) else { return write!(f, "<bad value id {value_id}>") };
        f.write_char('@')?;
        if !global.name.is_empty() {
            if let (Some(&GlobalRef::Function(i)), Some(v)) = (m.values.get(value_id as usize), self.view) {
                if let Some(name) = v.upgraded_name(i) {
                    return write_llvm_name(f, name);
                }
            }
            return write_llvm_name(f, &global.name);
        }
        let unnamed_vars = m.globals.iter().filter(|g| g.common.name.is_empty()).count();
        let unnamed_aliases =
            |ifunc: bool| m.aliases.iter().filter(move |a| a.is_ifunc == ifunc && a.common.name.is_empty());
        let slot = match m.values.get(value_id as usize) {
            Some(&GlobalRef::Var(i)) => m.globals[..i].iter().filter(|g| g.common.name.is_empty()).count(),
            Some(&GlobalRef::Alias(i)) => {
                let ifunc = m.aliases[i].is_ifunc;
                let before = m.aliases[..i].iter().filter(|a| a.is_ifunc == ifunc && a.common.name.is_empty()).count();
                let aliases = if ifunc { unnamed_aliases(false).count() } else { 0 };
                unnamed_vars + aliases + before
            }
            Some(&GlobalRef::Function(i)) => {
                unnamed_vars
                    + unnamed_aliases(false).count()
                    + unnamed_aliases(true).count()
                    + m.functions[..i].iter().filter(|g| g.common.name.is_empty()).count()
            }
            None => return write!(f, "<bad value id {value_id}>"),
        };
        write!(f, "{slot}")
    }

    /// A CST_CODE_DATA array or vector: `c"…"` for arrays of i8, else the elements.
    fn data(&self, f: &mut dyn fmt::Write, ty: TypeId, elements: &[u64]) -> fmt::Result {
        let types = self.types();
        let (element, vector) = match types.get(ty) {
            Some(Type::Array { element, .. }) => (*element, false),
            Some(Type::Vector { element, .. }) => (*element, true),
            _ => return f.write_str("<data of a non-sequential type>"),
        };
        let element_type = types.get(element);
        // `isString`: an array of `i8`, or (LLVM 23) of `b8`.
        if !vector && matches!(element_type, Some(Type::Integer(8) | Type::Byte(8))) {
            f.write_str("c\"")?;
            let bytes: Vec<u8> = elements.iter().map(|&b| b as u8).collect();
            write_escaped(f, &bytes)?;
            return f.write_char('"');
        }
        f.write_str(if vector { "<" } else { "[" })?;
        for (i, &e) in elements.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            self.ty(f, element)?;
            f.write_char(' ')?;
            match element_type {
                Some(Type::Integer(w) | Type::Byte(w)) => write_sign_extended(f, e as i64, *w)?,
                t => write_float(f, t, e, 0)?,
            }
        }
        f.write_str(if vector { ">" } else { "]" })
    }
}

/// Inline asm as `AssemblyWriter` prints it: `asm sideeffect "…", "…"`
/// ([`Constant::inline_asm`]; `None`: a record too short for its sizes).
fn write_inline_asm(
    f: &mut dyn fmt::Write,
    view: Option<&crate::ir::view::ModuleView<'_, '_, '_>>,
    parts: Option<crate::ir::InlineAsm>,
) -> fmt::Result {
    let Some(crate::ir::InlineAsm { flags, asm, constraints }) = parts else {
        return f.write_str("<malformed inline asm>");
    };
    f.write_str("asm ")?;
    for (bit, word) in [(0, "sideeffect "), (1, "alignstack "), (2, "inteldialect "), (3, "unwind ")] {
        if flags & (1 << bit) != 0 {
            f.write_str(word)?;
        }
    }
    f.write_char('"')?;
    // The view's asm: the old ARC marker rewritten.
    let asm = match view {
        Some(v) => v.inline_asm(alloc::borrow::Cow::Owned(asm)),
        None => alloc::borrow::Cow::Owned(asm),
    };
    write_escaped(f, &asm)?;
    f.write_str("\", \"")?;
    write_escaped(f, &constraints)?;
    f.write_char('"')
}

/// A binary constant expression's opcode and flags (`add nuw nsw`, `lshr exact`), as a
/// constant or as the instruction LLVM's reader makes of it: `fadd` is `add` in the file,
/// the operands' type (`is_float`) tells them apart; `nuw` is bit 0 and `nsw` bit 1 of an
/// overflowing operator's flags, `exact` bit 0 of a division's or right shift's.
pub(crate) fn write_binary_expression_opcode(
    f: &mut dyn fmt::Write,
    opcode: u32,
    flags: u64,
    is_float: bool,
) -> fmt::Result {
    f.write_str(binary_op_name(opcode, is_float))?;
    if matches!(opcode, 0 | 1 | 2 | 7) {
        if flags & 1 != 0 {
            f.write_str(" nuw")?;
        }
        if flags & 2 != 0 {
            f.write_str(" nsw")?;
        }
    } else if matches!(opcode, 3 | 4 | 8 | 9) && flags & 1 != 0 {
        f.write_str(" exact")?;
    }
    Ok(())
}

/// An integer or byte value of a `width`-bit type, sign-extended from its width as
/// `APInt` prints it (a value of 64 bits or more as it is).
fn write_sign_extended(f: &mut dyn fmt::Write, v: i64, width: u64) -> fmt::Result {
    if (1..64).contains(&width) {
        let shift = 64 - width as u32;
        write!(f, "{}", (v << shift) >> shift)
    } else {
        write!(f, "{v}")
    }
}

/// `iN`, without the formatting machinery for the common widths.
fn write_int_type(f: &mut dyn fmt::Write, width: u64) -> fmt::Result {
    match width {
        1 => f.write_str("i1"),
        8 => f.write_str("i8"),
        16 => f.write_str("i16"),
        32 => f.write_str("i32"),
        64 => f.write_str("i64"),
        128 => f.write_str("i128"),
        w => write!(f, "i{w}"),
    }
}

/// A GEP's ` inbounds` (bit 0) or ` nusw` (bit 1), and ` nuw` (bit 2).
pub(crate) fn write_gep_flags(f: &mut dyn fmt::Write, flags: u64) -> fmt::Result {
    if flags & 1 != 0 {
        f.write_str(" inbounds")?;
    } else if flags & 2 != 0 {
        f.write_str(" nusw")?;
    }
    if flags & 4 != 0 {
        f.write_str(" nuw")?;
    }
    Ok(())
}

/// A floating-point constant as LLVM's `WriteAPFloatInternal` prints it: float and double
/// in six significant digits when that reads back exactly, else the double's bits in
/// hex; the other
/// formats as `0xH`, `0xR`, `0xK`, `0xL`, `0xM` and their bits.
pub(crate) fn write_float(f: &mut dyn fmt::Write, ty: Option<&Type>, lo: u64, hi: u64) -> fmt::Result {
    let as_double = match ty {
        Some(Type::Double) => f64::from_bits(lo),
        Some(Type::Float) => f64::from(f32::from_bits(lo as u32)),
        Some(Type::Half) => return write!(f, "0xH{:04X}", lo & 0xffff),
        Some(Type::BFloat) => return write!(f, "0xR{:04X}", lo & 0xffff),
        // The record holds [(w1 << 48) | (w0 >> 16), w0 & 0xffff] of the APInt words.
        Some(Type::X86Fp80) => {
            let (w0, w1) = ((hi & 0xffff) | (lo << 16), lo >> 48);
            return write!(f, "0xK{:04X}{w0:016X}", w1 & 0xffff);
        }
        Some(Type::Fp128) => return write!(f, "0xL{lo:016X}{hi:016X}"),
        Some(Type::PpcFp128) => return write!(f, "0xM{lo:016X}{hi:016X}"),
        _ => return write!(f, "<float bits {lo:#x}>"),
    };
    if as_double.is_finite() {
        // `APFloat::toString(Str, 6, 0, false)`, printed when it reads back as a double
        // equal to the value.
        let (negative, significand, exp2) = match ty {
            Some(Type::Float) => ieee_parts(lo & 0xffff_ffff, 23, 8),
            _ => ieee_parts(lo, 52, 11),
        };
        let text = apfloat_scientific(negative, significand, exp2);
        if text.as_str().parse::<f64>().is_ok_and(|v| v == as_double) {
            return f.write_str(text.as_str());
        }
    }
    // A float's hex form is that of the double it converts to (a signalling NaN keeps
    // its quiet bit clear).
    let bits = match ty {
        Some(Type::Float) => {
            let single = lo as u32;
            let mut bits = f64::from(f32::from_bits(single)).to_bits();
            let is_nan = single & 0x7f80_0000 == 0x7f80_0000 && single & 0x007f_ffff != 0;
            if is_nan && single & 0x0040_0000 == 0 {
                bits &= !(1 << 51);
            }
            bits
        }
        _ => lo,
    };
    // `format_hex(bits, 0, true)`: no leading zeros.
    f.write_str("0x")?;
    f.write_str(core::str::from_utf8(crate::text::hex_digits(bits, &mut [0; 16])).unwrap_or("?"))
}

/// The sign, the significand with its integer bit and the power of two of its last bit of
/// a finite IEEE value of `fraction_bits` and `exponent_bits`.
fn ieee_parts(bits: u64, fraction_bits: u32, exponent_bits: u32) -> (bool, u64, i32) {
    let fraction = bits & ((1 << fraction_bits) - 1);
    let biased = ((bits >> fraction_bits) & ((1 << exponent_bits) - 1)) as i32;
    let bias = (1 << (exponent_bits - 1)) - 1;
    let negative = (bits >> (fraction_bits + exponent_bits)) & 1 == 1;
    if biased == 0 {
        // Subnormal (or zero): the least exponent, no integer bit.
        (negative, fraction, 1 - bias - fraction_bits as i32)
    } else {
        (negative, fraction | (1 << fraction_bits), biased - bias - fraction_bits as i32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::String;

    fn float(ty: Type, lo: u64) -> String {
        let mut s = String::new();
        write_float(&mut s, Some(&ty), lo, 0).unwrap();
        s
    }

    #[test]
    fn floats_print_as_llvm_prints_them() {
        assert_eq!(float(Type::Double, 1.0f64.to_bits()), "1.000000e+00");
        assert_eq!(float(Type::Double, (-0.25f64).to_bits()), "-2.500000e-01");
        // 0.1 reads back from six digits as the same double; 0.1 + 2^-55 does not.
        assert_eq!(float(Type::Double, 0.1f64.to_bits()), "1.000000e-01");
        assert_eq!(float(Type::Double, 0.1f64.to_bits() + 1), "0x3FB999999999999B");
        assert_eq!(float(Type::Float, u64::from(1.5f32.to_bits())), "1.500000e+00");
        // Seven significant digits do not fit: hex, as llvm-dis prints 0.5859375.
        assert_eq!(float(Type::Float, u64::from(0.5859375f32.to_bits())), "0x3FE2C00000000000");
        assert_eq!(float(Type::Float, u64::from(0.1f32.to_bits())), "0x3FB99999A0000000");
        assert_eq!(float(Type::Double, f64::INFINITY.to_bits()), "0x7FF0000000000000");
        assert_eq!(float(Type::Double, 1e300f64.to_bits()), "1.000000e+300");
        assert_eq!(float(Type::Half, 0x3c00), "0xH3C00");
        // The smallest subnormal: six correctly rounded digits read back, the shortest
        // form (`5e-324`) is not what LLVM prints.
        assert_eq!(float(Type::Double, 1), "4.940660e-324");
        assert_eq!(float(Type::Double, (-1e-310f64).to_bits()), "-1.000000e-310");
        // LLVM cuts the exact decimal before it rounds: 0.999 (0.998999…) becomes
        // 9.989990e-01, which does not read back, and llvm-dis 14, 19 and 22 print hex.
        assert_eq!(float(Type::Double, 0.999f64.to_bits()), "0x3FEFF7CED916872B");
        assert_eq!(float(Type::Double, 0.998f64.to_bits()), "0x3FEFEF9DB22D0E56");
        assert_eq!(float(Type::Double, 1e-6f64.to_bits()), "0x3EB0C6F7A0B5ED8D");
        for (value, text) in
            [(0.9, "9.000000e-01"), (1e10, "1.000000e+10"), (4.5, "4.500000e+00"), (2e-3, "2.000000e-03")]
        {
            assert_eq!(float(Type::Double, f64::to_bits(value)), text);
        }
        assert_eq!(float(Type::Double, 0), "0.000000e+00");
        assert_eq!(float(Type::Double, (-0.0f64).to_bits()), "-0.000000e+00");
    }
}
