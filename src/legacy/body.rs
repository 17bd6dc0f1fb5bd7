//! Function bodies: the Function Definition block's constant pool or compaction table,
//! its instructions in the four formats, and its symbol table.

use alloc::rc::Rc;
use alloc::vec::Vec;
use core::ops::Deref;

use super::bytecode::{Block, BlockKind};
use super::bytes::ByteReader;
use super::constants::{
    Constant, Operand, Operands, Scope, Value, push_value, read_constant_pool, read_symbol_table, read_type_slot,
    read_value_type,
};
use super::module::{Linkage, Module};
use super::opcode::Opcode;
use super::rules::Rules;
use super::types::{BOOL, FIRST_DERIVED, LONG, Type, TypeId, TypeTable, UBYTE, UINT, VOID};
use super::{LegacyError, Result};

/// The calling convention number of `fastcc`.
pub const FAST_CC: u32 = 8;

/// An instruction with its operands resolved to typed values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Instruction {
    /// What it is (pseudo-opcodes 56-63 decoded to their base opcode).
    pub opcode: Opcode,
    /// The opcode as written in the file (before [`Rules::opcode`]'s renumbering; 56-63
    /// kept).
    pub raw_opcode: u32,
    /// The instruction format it was written in: 0 (long form), 1, 2 or 3 (packed in 32
    /// bits with 1, 2 or 3 operands).
    pub format: u8,
    /// The type of its result: [`VOID`] for an instruction without one.
    pub ty: TypeId,
    /// The instruction's type field: the type of its first operand for most opcodes,
    /// the pointer for memory operations, the callee's type for calls.
    pub type_field: TypeId,
    /// Its operands, a range of [`Body::operand_pool`] (see [`Body::operands`]), in the
    /// order LLVM 1.x printed them: `br` is condition, then the true and false blocks;
    /// `switch` the condition, the default, then (value, block) pairs; `phi` (value,
    /// block) pairs; `call` and `invoke` the callee, the arguments, then for `invoke`
    /// the normal and unwind blocks; `store` the value, then the pointer.
    pub operands: Operands,
    /// A `volatile` load or store (pseudo-opcodes 62 and 63).
    pub volatile: bool,
    /// A `tail` call.
    pub tail: bool,
    /// The calling convention of a call or invoke (0 is C).
    pub calling_conv: u32,
    /// The alignment in bytes of a `malloc` or `alloca` (0: unspecified).
    pub alignment: u32,
    /// The type operand of `vanext` (the argument type it skips); [`VOID`] otherwise.
    pub arg_type: TypeId,
    /// Byte offset of its encoding.
    pub offset: usize,
}

impl Instruction {
    /// Whether it produces a value.
    pub fn has_result(&self) -> bool {
        self.ty != VOID
    }
}

/// A basic block: a run of [`Body::instructions`], ending with a terminator.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct BasicBlock {
    /// Index of its first instruction.
    pub first: u32,
    /// How many instructions it has.
    pub len: u32,
}

/// A decoded function body.
#[derive(Clone, Debug)]
pub struct Body<'a> {
    /// The function: an index into [`Module::functions`].
    pub function: usize,
    /// The linkage its block gives.
    pub linkage: Linkage,
    /// The module's types with the function's own appended, if its constant pool defines
    /// types; `None` when the module's serve ([`Module::types_of`]).
    pub types: Option<TypeTable>,
    /// The argument types.
    pub arguments: Vec<TypeId>,
    /// The function's constant pool.
    pub constants: Vec<Constant<'a>>,
    /// The compaction table's types (module type ids), if the function has one.
    pub compaction_types: Vec<TypeId>,
    /// The compaction table's value planes, by plane: (plane, entries), each plane's
    /// entry 0 its implied zero.
    pub compaction_values: Vec<(u32, Vec<Value>)>,
    /// The basic blocks, in order.
    pub blocks: Vec<BasicBlock>,
    /// The instructions, in order.
    pub instructions: Vec<Instruction>,
    /// The operands of instructions and of the function's constants.
    pub operand_pool: Vec<Operand>,
    /// Names from the function symbol table: arguments, instructions and blocks
    /// ([`Value::Block`]).
    pub names: Vec<(Value, &'a [u8])>,
    /// Type names of the function symbol table.
    pub type_names: Vec<(TypeId, &'a [u8])>,
    /// Names that name nothing of the function: (plane, slot, name).
    pub unattached_names: Vec<(u32, u32, &'a [u8])>,
    /// Blocks this decoder does not know: (type as written, byte offset).
    pub unknown_blocks: Vec<(u32, usize)>,
}

impl<'a> Body<'a> {
    /// The operands of an instruction.
    pub fn operands(&self, inst: &Instruction) -> &[Operand] {
        self.operand_pool.get(inst.operands.range()).unwrap_or_default()
    }

    /// The instructions of a basic block.
    pub fn block_instructions(&self, block: &BasicBlock) -> &[Instruction] {
        let start = block.first as usize;
        self.instructions.get(start..start + block.len as usize).unwrap_or_default()
    }

    /// The name the symbol table gives a value of the function.
    pub fn name_of(&self, value: Value) -> Option<&'a [u8]> {
        self.names.iter().find(|(v, _)| *v == value).map(|(_, n)| *n)
    }
}

impl<'a> Module<'a> {
    /// The types a body's ids refer to: the body's own table if it has local types, else
    /// the module's.
    pub fn types_of<'s>(&'s self, body: &'s Body<'_>) -> &'s TypeTable {
        body.types.as_ref().unwrap_or(&self.types)
    }

    /// Decodes the body of function `index` ([`Module::functions`]) from its Function
    /// Definition block; `None` for a declaration (or an index past the functions).
    pub fn body(&self, index: usize) -> Result<Option<Body<'a>>> {
        match self.body_partial(index) {
            (body, None) => Ok(body),
            (_, Some(e)) => Err(e),
        }
    }

    /// Decodes what it can of a body: the body as far as it reads, and the first error.
    /// Instructions read before the break are kept, their operands resolved (a block
    /// past the last one read is [`Value::Unresolved`] in the label plane), the last basic
    /// block possibly without its terminator.
    pub fn body_partial(&self, index: usize) -> (Option<Body<'a>>, Option<LegacyError>) {
        let Some(function) = self.functions.get(index).filter(|f| f.has_body) else {
            return (None, None);
        };
        let Some(params) = (match self.types.derived(function.function_type) {
            Some(Type::Function { params, .. }) => Some(params.clone()),
            _ => None,
        }) else {
            let e =
                LegacyError::Malformed { offset: function.offset, what: "function type", value: function.ty.into() };
            return (None, Some(e));
        };
        let mut d = BodyDecoder {
            module: self,
            rules: self.rules,
            types: Types::Module(&self.types),
            planes: Vec::new(),
            compaction_planes: Vec::new(),
            params,
            args_inserted: false,
            scratch: Vec::new(),
            body: Body {
                function: index,
                linkage: function.linkage,
                types: None,
                arguments: Vec::new(),
                constants: Vec::new(),
                compaction_types: Vec::new(),
                compaction_values: Vec::new(),
                blocks: Vec::new(),
                instructions: Vec::new(),
                operand_pool: Vec::new(),
                names: Vec::new(),
                type_names: Vec::new(),
                unattached_names: Vec::new(),
                unknown_blocks: Vec::new(),
            },
        };
        let mut error = function.block.and_then(|block| d.read(&block).err());
        if let Err(e) = d.insert_arguments() {
            error.get_or_insert(e);
        }
        let (body, late) = d.finish();
        (Some(body), error.or(late))
    }
}

/// The types a body sees: the module's, or (once its constant pool defines types) its
/// own copy with them appended. Cheap to clone, so that instruction decoding can read
/// types while it pushes operands.
#[derive(Clone)]
enum Types<'m> {
    Module(&'m TypeTable),
    Own(Rc<TypeTable>),
}

impl Deref for Types<'_> {
    type Target = TypeTable;
    fn deref(&self) -> &TypeTable {
        match self {
            Types::Module(t) => t,
            Types::Own(t) => t,
        }
    }
}

impl Types<'_> {
    /// The table to append to, copied from the module's on first use.
    fn to_mut(&mut self) -> Option<&mut TypeTable> {
        if let Types::Module(t) = *self {
            *self = Types::Own(Rc::new(t.clone()));
        }
        match self {
            Types::Own(t) => Some(Rc::make_mut(t)),
            Types::Module(_) => None,
        }
    }
}

struct BodyDecoder<'m, 'a> {
    module: &'m Module<'a>,
    rules: Rules,
    types: Types<'m>,
    /// The function's values by plane (as the function numbers types).
    planes: Vec<Vec<Value>>,
    /// Compaction value planes, by plane: entry 0 is the zero.
    compaction_planes: Vec<Vec<Value>>,
    params: Vec<TypeId>,
    args_inserted: bool,
    scratch: Vec<u32>,
    body: Body<'a>,
}

impl<'m, 'a> BodyDecoder<'m, 'a> {
    fn err(offset: usize, what: &'static str, value: u64) -> LegacyError {
        LegacyError::Malformed { offset, what, value }
    }

    fn read(&mut self, block: &Block<'a>) -> Result<()> {
        // The linkage before the blocks was read with the module (`Function::linkage`).
        for child in block.raw_children() {
            let child = child?;
            let mut r = child.reader();
            match child.kind {
                BlockKind::ConstantPool => {
                    self.insert_arguments()?;
                    read_constant_pool(&mut r, self)?;
                }
                BlockKind::CompactionTable => self.read_compaction_table(&mut r)?,
                BlockKind::BasicBlock => {
                    self.insert_arguments()?;
                    let first = self.body.instructions.len() as u32;
                    while !r.is_at_end() {
                        self.read_instruction(&mut r)?;
                    }
                    let len = self.body.instructions.len() as u32 - first;
                    self.body.blocks.push(BasicBlock { first, len });
                }
                BlockKind::InstructionList => {
                    self.insert_arguments()?;
                    if !self.body.blocks.is_empty() {
                        return Err(Self::err(child.offset, "a second instruction list", 0));
                    }
                    while !r.is_at_end() {
                        let first = self.body.instructions.len() as u32;
                        let at = r.offset();
                        loop {
                            let opcode = self.read_instruction(&mut r)?;
                            if opcode.is_terminator() {
                                break;
                            }
                            if r.is_at_end() {
                                return Err(Self::err(at, "basic block without a terminator", 0));
                            }
                        }
                        let len = self.body.instructions.len() as u32 - first;
                        self.body.blocks.push(BasicBlock { first, len });
                    }
                }
                BlockKind::SymbolTable => self.read_symbol_table(&mut r)?,
                _ => self.body.unknown_blocks.push((child.id, child.offset)),
            }
        }
        Ok(())
    }

    fn insert_arguments(&mut self) -> Result<()> {
        if self.args_inserted {
            return Ok(());
        }
        self.args_inserted = true;
        for (i, ty) in core::mem::take(&mut self.params).into_iter().enumerate() {
            let plane = self.local(ty, 0)?;
            self.insert(plane, Value::Argument(i as u32));
            self.body.arguments.push(ty);
        }
        Ok(())
    }

    fn insert(&mut self, plane: u32, value: Value) {
        push_value(&mut self.planes, plane, value);
    }

    fn compacted(&self) -> bool {
        !self.body.compaction_types.is_empty()
    }

    /// The type a slot of this function names.
    fn global(&self, local: u32, offset: usize) -> Result<TypeId> {
        if local < FIRST_DERIVED {
            return Ok(local);
        }
        if self.compacted() {
            return self.body.compaction_types.get((local - FIRST_DERIVED) as usize).copied().ok_or(Self::err(
                offset,
                "type slot beyond the compaction table",
                local.into(),
            ));
        }
        if local < self.types.len() { Ok(local) } else { Err(Self::err(offset, "undefined type slot", local.into())) }
    }

    /// The slot this function gives a type.
    fn local_of(&self, global: TypeId) -> Option<u32> {
        if global < FIRST_DERIVED || !self.compacted() {
            return Some(global);
        }
        self.body.compaction_types.iter().position(|&t| t == global).map(|i| FIRST_DERIVED + i as u32)
    }

    fn local(&self, global: TypeId, offset: usize) -> Result<u32> {
        self.local_of(global).ok_or(Self::err(offset, "type missing from the compaction table", global.into()))
    }

    /// The value in slot `slot` of plane `plane`, as LLVM 1.x's reader finds it: the
    /// compaction table's plane, or the zero and the module's plane; then the function's.
    fn resolve(&self, plane: u32, slot: u32) -> Value {
        let n = match self.compaction_planes.get(plane as usize).filter(|p| !p.is_empty()) {
            Some(entries) => match entries.get(slot as usize) {
                Some(v) => return *v,
                None => slot - entries.len() as u32,
            },
            None => {
                let Ok(global) = self.global(plane, 0) else { return Value::Unresolved { plane, slot } };
                match self.module.module_slot(&self.types, global, slot) {
                    Ok(v) => return v,
                    Err(past) => past,
                }
            }
        };
        match self.planes.get(plane as usize).and_then(|p| p.get(n as usize)) {
            Some(v) => *v,
            None => Value::Unresolved { plane, slot },
        }
    }

    fn read_compaction_types(&mut self, r: &mut ByteReader<'a>, n: u32) -> Result<()> {
        for _ in 0..n {
            let at = r.offset();
            let ty = read_value_type(r, self.rules)?;
            if ty >= self.module.types.len() {
                return Err(Self::err(at, "compaction table type beyond the global type pool", ty.into()));
            }
            self.body.compaction_types.push(ty);
        }
        Ok(())
    }

    fn read_compaction_table(&mut self, r: &mut ByteReader<'a>) -> Result<()> {
        if !self.rules.type_derived_from_value {
            let n = r.read_vbr_u32()?;
            self.read_compaction_types(r, n)?;
        }
        while !r.is_at_end() {
            let at = r.offset();
            let word = r.read_vbr_u32()?;
            let (n, (plane, type_type)) = if word & 3 == 3 {
                (word >> 2, read_type_slot(r, self.rules)?)
            } else {
                (word & 3, self.rules.sanitize_type(word >> 2))
            };
            if type_type {
                self.read_compaction_types(r, n)?;
                continue;
            }
            if self.compaction_planes.get(plane as usize).is_some_and(|p| !p.is_empty()) {
                return Err(Self::err(at, "a compaction table plane given twice", plane.into()));
            }
            if n as usize > r.remaining() {
                return Err(LegacyError::ImplausibleCount {
                    offset: at,
                    what: "compaction plane length",
                    count: n.into(),
                    remaining: r.remaining(),
                });
            }
            let global = self.global(plane, at)?;
            let mut entries = Vec::new();
            entries.push(Value::Null);
            for _ in 0..n {
                let at = r.offset();
                let slot = r.read_vbr_u32()?;
                if slot == 0 {
                    entries.push(Value::Null);
                    continue;
                }
                match self.module.planes.get(global as usize).and_then(|p| p.get(slot as usize - 1)) {
                    Some(v) => entries.push(*v),
                    None => {
                        return Err(Self::err(at, "compaction table entry beyond the module's values", slot.into()));
                    }
                }
            }
            if self.compaction_planes.len() <= plane as usize {
                self.compaction_planes.resize_with(plane as usize + 1, Vec::new);
            }
            self.compaction_planes[plane as usize] = entries;
        }
        Ok(())
    }

    fn read_symbol_table(&mut self, r: &mut ByteReader<'a>) -> Result<()> {
        let table = read_symbol_table(r, self.rules)?;
        self.body.type_names = table.types.into_iter().map(|(ty, name, _)| (ty, name)).collect();
        let value_names = table.values;
        for (plane, slot, name) in value_names {
            let value = if plane == super::types::LABEL {
                if (slot as usize) < self.body.blocks.len() {
                    Value::Block(slot)
                } else {
                    Value::Unresolved { plane, slot }
                }
            } else {
                self.resolve(plane, slot)
            };
            match value {
                Value::Argument(_) | Value::Instruction(_) | Value::Block(_) => self.body.names.push((value, name)),
                _ => self.body.unattached_names.push((plane, slot, name)),
            }
        }
        Ok(())
    }

    /// Pushes an operand of type `ty` (a module-numbered type) from slot `slot`, to be
    /// resolved when the body is read.
    fn push(&mut self, ty: TypeId, slot: u32, offset: usize) -> Result<()> {
        let plane = self.local(ty, offset)?;
        self.body.operand_pool.push(Operand { ty, value: Value::Unresolved { plane, slot } });
        Ok(())
    }

    fn push_block(&mut self, block: u32) {
        self.body.operand_pool.push(Operand { ty: super::types::LABEL, value: Value::Block(block) });
    }

    /// The value of a constant integer operand (a structure index).
    fn constant_index(&self, plane: u32, slot: u32, offset: usize) -> Result<u64> {
        let kind = match self.resolve(plane, slot) {
            Value::Null => return Ok(0),
            Value::Constant(i) => self.module.constants.get(i as usize).map(|c| c.kind),
            Value::LocalConstant(i) => self.body.constants.get(i as usize).map(|c| c.kind),
            _ => None,
        };
        kind.and_then(|k| k.as_u64()).ok_or(Self::err(
            offset,
            "structure index that is not a constant integer",
            slot.into(),
        ))
    }

    /// Reads one instruction; returns its opcode.
    fn read_instruction(&mut self, r: &mut ByteReader<'a>) -> Result<Opcode> {
        let offset = r.offset();
        let first =
            *r.rest().first().ok_or(LegacyError::Truncated { offset, what: "instruction", needed: 1, available: 0 })?;
        let format = first & 3;
        let mut ops = core::mem::take(&mut self.scratch);
        ops.clear();
        let (raw, type_slot) = if format == 0 {
            let raw = r.read_vbr_u32()? >> 2;
            let ty = r.read_vbr_u32()?;
            let n = r.read_vbr_u32()?;
            if n == 0 {
                return Err(Self::err(offset, "long-form instruction without operands", raw.into()));
            }
            if n as usize > r.remaining() {
                return Err(LegacyError::ImplausibleCount {
                    offset,
                    what: "instruction operand count",
                    count: n.into(),
                    remaining: r.remaining(),
                });
            }
            for _ in 0..n {
                ops.push(r.read_vbr_u32()?);
            }
            if self.rules.alignment {
                r.align32(self.module.bytecode.origin())?;
            }
            (raw, ty)
        } else {
            let word = r.read_u32()?;
            let raw = (word >> 2) & 63;
            match format {
                1 => {
                    if (word >> 20) & 4095 != 4095 {
                        ops.push((word >> 20) & 4095);
                    }
                    (raw, (word >> 8) & 4095)
                }
                2 => {
                    ops.extend([(word >> 16) & 255, (word >> 24) & 255]);
                    (raw, (word >> 8) & 255)
                }
                _ => {
                    ops.extend([(word >> 14) & 63, (word >> 20) & 63, (word >> 26) & 63]);
                    (raw, (word >> 8) & 63)
                }
            }
        };
        let (type_slot, type_type) = self.rules.sanitize_type(type_slot);
        if type_type {
            return Err(Self::err(offset, "instruction of the type type", 12));
        }
        let number = self.rules.opcode(raw);
        let type_field = self.global(type_slot, offset)?;
        let mut inst = Instruction {
            opcode: self.rules.instruction_opcode(raw),
            raw_opcode: raw,
            format,
            ty: VOID,
            type_field,
            operands: Operands { start: self.body.operand_pool.len() as u32, len: 0 },
            volatile: false,
            tail: false,
            calling_conv: 0,
            alignment: 0,
            arg_type: VOID,
            offset,
        };
        let result = self.decode_operands(&mut inst, number, &mut ops, offset);
        self.scratch = ops;
        result?;
        inst.operands.len = self.body.operand_pool.len() as u32 - inst.operands.start;
        if inst.ty != VOID {
            let plane = if inst.ty == type_field { type_slot } else { self.local(inst.ty, offset)? };
            self.insert(plane, Value::Instruction(self.body.instructions.len() as u32));
        }
        let opcode = inst.opcode;
        self.body.instructions.push(inst);
        Ok(opcode)
    }

    fn decode_operands(
        &mut self,
        inst: &mut Instruction,
        number: u32,
        ops: &mut Vec<u32>,
        offset: usize,
    ) -> Result<()> {
        let ty = inst.type_field;
        let n = ops.len();
        let bad = |what| Err(Self::err(offset, what, number.into()));
        let types = self.types.clone();
        let types: &TypeTable = &types;
        match number {
            7..=20 => {
                if n != 2 {
                    return bad("binary operator without two operands");
                }
                self.push(ty, ops[0], offset)?;
                self.push(ty, ops[1], offset)?;
                inst.ty = if inst.opcode.is_comparison() { BOOL } else { ty };
            }
            1 => match n {
                0 => {}
                1 => self.push(ty, ops[0], offset)?,
                _ => return bad("ret with more than one operand"),
            },
            2 => match n {
                1 => self.push_block(ops[0]),
                3 => {
                    self.push(BOOL, ops[2], offset)?;
                    self.push_block(ops[0]);
                    self.push_block(ops[1]);
                }
                _ => return bad("br with neither one nor three operands"),
            },
            3 => {
                if n < 2 || n % 2 != 0 {
                    return bad("switch with an odd number of operands");
                }
                self.push(ty, ops[0], offset)?;
                self.push_block(ops[1]);
                for pair in ops[2..].chunks_exact(2) {
                    self.push(ty, pair[0], offset)?;
                    self.push_block(pair[1]);
                }
            }
            4 | 56 | 57 | 29 | 58..=61 => self.decode_call(inst, number, ops, offset, types)?,
            5 | 6 => {
                if n != 0 {
                    return bad("unwind or unreachable with operands");
                }
            }
            21 | 23 => {
                // No operand (LLVM 1.3's reader still took one): a single element.
                if n > 2 || types.pointee(ty).is_none() {
                    return bad("malloc or alloca of a non-pointer type or with a wrong operand count");
                }
                if let Some(&size) = ops.first() {
                    self.push(UINT, size, offset)?;
                }
                if n == 2 {
                    inst.alignment = 1u32.checked_shl(ops[1]).unwrap_or(0) >> 1;
                }
                inst.ty = ty;
            }
            22 => {
                if n != 1 || types.pointee(ty).is_none() {
                    return bad("free of a non-pointer");
                }
                self.push(ty, ops[0], offset)?;
            }
            24 | 62 => {
                let Some(elem) = types.pointee(ty).filter(|_| n == 1) else {
                    return bad("load of a non-pointer or with a wrong operand count");
                };
                self.push(ty, ops[0], offset)?;
                inst.opcode = Opcode::Load;
                inst.volatile = number == 62;
                inst.ty = elem;
            }
            25 | 63 => {
                let Some(elem) = types.pointee(ty).filter(|_| n == 2) else {
                    return bad("store through a non-pointer or with a wrong operand count");
                };
                self.push(elem, ops[0], offset)?;
                self.push(ty, ops[1], offset)?;
                inst.opcode = Opcode::Store;
                inst.volatile = number == 63;
            }
            26 => {
                if n == 0 || types.pointee(ty).is_none() {
                    return bad("getelementptr of a non-pointer");
                }
                self.push(ty, ops[0], offset)?;
                let mut current = ty;
                for &raw in &ops[1..] {
                    let (index_ty, slot, next) = match types.derived(current) {
                        Some(Type::Struct(fields)) => {
                            let index_ty = if self.rules.restricted_gep_types { UBYTE } else { UINT };
                            let plane = self.local(index_ty, offset)?;
                            let field = self.constant_index(plane, raw, offset)?;
                            let Some(next) = fields.get(field as usize) else {
                                return bad("getelementptr structure index out of range");
                            };
                            (index_ty, raw, *next)
                        }
                        Some(Type::Pointer(elem) | Type::Array { elem, .. } | Type::Packed { elem, .. }) => {
                            if self.rules.restricted_gep_types {
                                (LONG, raw, *elem)
                            } else {
                                (
                                    [UINT, super::types::INT, super::types::ULONG, LONG][(raw & 3) as usize],
                                    raw >> 2,
                                    *elem,
                                )
                            }
                        }
                        _ => return bad("getelementptr indexes into a type that is not composite"),
                    };
                    self.push(index_ty, slot, offset)?;
                    current = next;
                }
                inst.ty = match types.find(&Type::Pointer(current)) {
                    Some(t) => t,
                    None => return bad("getelementptr result type missing from the type table"),
                };
            }
            27 => {
                if n == 0 || n % 2 != 0 {
                    return bad("phi with an odd number of operands");
                }
                for pair in ops.chunks_exact(2) {
                    self.push(ty, pair[0], offset)?;
                    self.push_block(pair[1]);
                }
                inst.ty = ty;
            }
            28 => {
                if n != 2 {
                    return bad("cast without a value and a type");
                }
                self.push(ty, ops[0], offset)?;
                inst.ty = self.type_operand(ops[1], offset)?;
            }
            30 | 31 => {
                if n != 2 {
                    return bad("shift without two operands");
                }
                self.push(ty, ops[0], offset)?;
                self.push(UBYTE, ops[1], offset)?;
                inst.ty = ty;
            }
            32 | 33 | 37 => {
                if n != 2 {
                    return bad("vanext or vaarg without a value and a type");
                }
                self.push(ty, ops[0], offset)?;
                let arg = self.type_operand(ops[1], offset)?;
                if number == 32 {
                    inst.arg_type = arg;
                    inst.ty = ty;
                } else {
                    inst.ty = arg;
                }
            }
            34 => {
                if n != 3 {
                    return bad("select without three operands");
                }
                self.push(BOOL, ops[0], offset)?;
                self.push(ty, ops[1], offset)?;
                self.push(ty, ops[2], offset)?;
                inst.ty = ty;
            }
            38..=40 => {
                let Some(Type::Packed { elem, len }) = types.derived(ty).cloned() else {
                    return bad("vector operation on a non-packed type");
                };
                match (number, n) {
                    (38, 2) => {
                        self.push(ty, ops[0], offset)?;
                        self.push(UINT, ops[1], offset)?;
                        inst.ty = elem;
                    }
                    (39, 3) => {
                        self.push(ty, ops[0], offset)?;
                        self.push(elem, ops[1], offset)?;
                        self.push(UINT, ops[2], offset)?;
                        inst.ty = ty;
                    }
                    (40, 3) => {
                        let Some(mask) = types.find(&Type::Packed { elem: UINT, len }) else {
                            return bad("shufflevector mask type missing from the type table");
                        };
                        self.push(ty, ops[0], offset)?;
                        self.push(ty, ops[1], offset)?;
                        self.push(mask, ops[2], offset)?;
                        inst.ty = ty;
                    }
                    _ => return bad("vector operation with a wrong operand count"),
                }
            }
            _ => {
                // Unknown (or never written, like userop1): the operands are kept as slots
                // of the instruction's type, unresolved; it defines no value.
                let plane = self.local(ty, offset)?;
                for &slot in ops.iter() {
                    self.body.operand_pool.push(Operand { ty, value: Value::Unresolved { plane, slot } });
                }
            }
        }
        Ok(())
    }

    /// A type given as an operand (`cast`'s target, `vaarg`'s type).
    fn type_operand(&self, raw: u32, offset: usize) -> Result<TypeId> {
        match self.rules.sanitize_type(raw) {
            (_, true) => Err(Self::err(offset, "type operand of the type type", 12)),
            (t, false) => self.global(t, offset),
        }
    }

    fn decode_call(
        &mut self,
        inst: &mut Instruction,
        number: u32,
        ops: &mut Vec<u32>,
        offset: usize,
        types: &TypeTable,
    ) -> Result<()> {
        let invoke = matches!(number, 4 | 56 | 57);
        inst.opcode = if invoke { Opcode::Invoke } else { Opcode::Call };
        match number {
            58 => {
                let Some(word) = ops.pop() else { return Err(Self::err(offset, "call without operands", 0)) };
                inst.tail = word & 1 != 0;
                inst.calling_conv = word >> 1;
            }
            56 => {
                let Some(cc) = ops.pop() else { return Err(Self::err(offset, "invoke without operands", 0)) };
                inst.calling_conv = cc;
            }
            59 | 61 => inst.tail = true,
            _ => {}
        }
        if matches!(number, 57 | 59 | 60) {
            inst.calling_conv = FAST_CC;
        }
        let callee_ty = inst.type_field;
        let Some((ret, params, vararg)) = types.function_of_pointer(callee_ty) else {
            return Err(Self::err(offset, "call of a value that is not a pointer to a function", callee_ty.into()));
        };
        let fixed = if invoke { 3 } else { 1 };
        if ops.len() < fixed + params.len() || (!vararg && ops.len() != fixed + params.len()) {
            return Err(Self::err(offset, "call with the wrong number of arguments", ops.len() as u64));
        }
        let rest = &ops[fixed + params.len()..];
        if rest.len() % 2 != 0 {
            return Err(Self::err(offset, "variable arguments not in (type, value) pairs", rest.len() as u64));
        }
        self.push(callee_ty, ops[0], offset)?;
        for (param, slot) in params.iter().zip(&ops[fixed..]) {
            self.push(*param, *slot, offset)?;
        }
        for pair in rest.chunks_exact(2) {
            let ty = self.type_operand(pair[0], offset)?;
            self.push(ty, pair[1], offset)?;
        }
        if invoke {
            self.push_block(ops[1]);
            self.push_block(ops[2]);
        }
        inst.ty = ret;
        Ok(())
    }

    /// Resolves every operand, and closes a basic block left open by an error. A branch
    /// to a block that does not exist is the error returned (its operand is kept,
    /// unresolved).
    fn finish(mut self) -> (Body<'a>, Option<LegacyError>) {
        let covered: u32 = self.body.blocks.iter().map(|b| b.len).sum();
        let total = self.body.instructions.len() as u32;
        if covered < total {
            self.body.blocks.push(BasicBlock { first: covered, len: total - covered });
        }
        let blocks = self.body.blocks.len() as u32;
        let mut error = None;
        for i in 0..self.body.operand_pool.len() {
            match self.body.operand_pool[i].value {
                Value::Unresolved { plane, slot } => self.body.operand_pool[i].value = self.resolve(plane, slot),
                Value::Block(b) if b >= blocks => {
                    self.body.operand_pool[i].value = Value::Unresolved { plane: super::types::LABEL, slot: b };
                    if error.is_none() {
                        let at = self
                            .body
                            .instructions
                            .iter()
                            .find(|inst| inst.operands.range().contains(&i))
                            .map_or(0, |i| i.offset);
                        error = Some(Self::err(at, "branch to a basic block that does not exist", b.into()));
                    }
                }
                _ => {}
            }
        }
        self.body.compaction_values = core::mem::take(&mut self.compaction_planes)
            .into_iter()
            .enumerate()
            .filter(|(_, entries)| !entries.is_empty())
            .map(|(plane, entries)| (plane as u32, entries))
            .collect();
        if let Types::Own(types) = self.types {
            self.body.types = Some(Rc::try_unwrap(types).unwrap_or_else(|shared| (*shared).clone()));
        }
        (self.body, error)
    }
}

impl<'a> Scope<'a> for BodyDecoder<'_, 'a> {
    fn rules(&self) -> Rules {
        self.rules
    }
    fn types(&self) -> &TypeTable {
        &self.types
    }
    fn add_types(&mut self, types: Vec<Type>) {
        if let Some(table) = self.types.to_mut() {
            table.types.extend(types);
        }
    }
    fn global_type(&self, local: u32, offset: usize) -> Result<TypeId> {
        self.global(local, offset)
    }
    fn local_type(&self, global: TypeId) -> Option<u32> {
        self.local_of(global)
    }
    fn push_constant(&mut self, local: u32, constant: Constant<'a>) {
        let index = self.body.constants.len() as u32;
        self.body.constants.push(constant);
        self.insert(local, Value::LocalConstant(index));
    }
    fn operand_pool(&mut self) -> &mut Vec<Operand> {
        &mut self.body.operand_pool
    }
    fn is_function(&self) -> bool {
        true
    }
    fn compacted(&self) -> bool {
        BodyDecoder::compacted(self)
    }
}
