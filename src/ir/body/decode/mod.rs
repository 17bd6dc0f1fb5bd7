//! [`Bodies::body_as_written`]: one FUNCTION_BLOCK read into a [`Body`] by a [`Decoder`]
//! ([`Bodies::body`] reads it so, then as the newest LLVM reads it). This file
//! walks the block (its records and its nested constants, names, use lists and metadata),
//! resolves value ids to operands, and reads the records that are not instructions (debug
//! locations, operand bundles, debug records); the instructions are read by concern in
//! `operators`, `control` and `memory`.

use alloc::vec::Vec;

use super::type_index::{NO_TYPE, TypeKey};
use super::{
    Attachment, BasicBlock, Bodies, Body, Bundle, DebugLoc, DebugRecord, InstKind, Instruction, Local, Operand, Value,
    local_value,
};
use crate::error::Error;
use crate::ids::llvm_ir as ids_block;
use crate::ids::llvm_ir::raw as ids;
use crate::ir::module::constants::OperandRange;
use crate::ir::module::types::{Type, TypeId, TypeTable};
use crate::layout::Unknown;
use crate::reader::{Entry, Reader};

impl Bodies<'_, '_> {
    /// Decodes function `function`'s body as the file has it
    /// ([`Module::functions`](crate::ir::Module::functions) index): no upgrade, no
    /// folding, the file's records as instructions. `None` for a declaration.
    pub fn body_as_written(&self, function: usize) -> Result<Option<Body>, Error> {
        let mut body = Body::default();
        Ok(self.body_as_written_into(function, &mut body)?.then_some(body))
    }

    /// Decodes function `function`'s body as the file has it into `body`, reusing its
    /// tables' storage (no allocation in the steady state of a loop over many
    /// functions). `Ok(false)` for a declaration. On an error, `body` holds what was
    /// decoded before the break.
    pub fn body_as_written_into(&self, function: usize, body: &mut Body) -> Result<bool, Error> {
        let Some(f) = self.module.functions.get(function) else { return Ok(false) };
        let Some(block) = f.body.as_ref() else { return Ok(false) };
        let first_value = self.constants.base + self.constants.constants.len() as u64;
        let mut reused = core::mem::take(body);
        reused.clear();
        reused.function = function;
        reused.first_value = first_value;
        if let Some(Type::Function { params, .. }) = self.module.types.get(f.common.value_type) {
            reused.arguments.extend_from_slice(params);
        }
        let arguments = reused.arguments.len() as u32;
        reused.constants.base = first_value + u64::from(arguments);
        reused.locals.extend((0..arguments).map(Local::Argument));
        let mut local_types = core::mem::take(&mut reused.local_types);
        local_types.extend_from_slice(&reused.arguments);
        // Sized from the block's length, which the input holds (about one instruction per
        // 40 bits of body), so that the tables do not grow step by step.
        let estimate = (block.bookmark().len_words as usize).saturating_mul(32) / 40;
        reused.instructions.reserve(estimate);
        reused.operand_pool.reserve(estimate.saturating_mul(2));
        reused.locals.reserve(estimate);
        local_types.reserve(estimate);
        let mut d = Decoder::new(self, reused, local_types);
        let read = block.reader().and_then(|mut reader| {
            reader.advance()?;
            d.read(&mut reader)
        });
        *body = d.finish();
        read.map(|()| true)
    }
}

/// The state of one body's decoding: the body so far, and what the records after the
/// current one need to know (the value numbering, the open basic block, the last debug
/// location, the operand bundles of the next call).
struct Decoder<'b, 'm, 'a> {
    bodies: &'b Bodies<'m, 'a>,
    body: Body,
    /// The type of each local value id (from `first_value`).
    local_types: Vec<TypeId>,
    relative: bool,
    declared_blocks: u64,
    current_block_start: u32,
    last_loc: Option<u32>,
    pending_bundles: Option<OperandRange>,
    bit: u64,
    /// The case values old `switch` records' ranges have expanded to so far
    /// ([`limits::MAX_CASE_RANGE_VALUES`](crate::limits::MAX_CASE_RANGE_VALUES)).
    range_values: u64,
}

/// Reads operand `i` of a record, or fails with the record's bit offset.
macro_rules! need {
    ($d:expr, $ops:expr, $i:expr) => {
        match $ops.get($i) {
            Some(&v) => v,
            None => return Err($d.short($ops.len(), $i + 1)),
        }
    };
}

// After `need!`, which they use: a `macro_rules!` is seen by the code that follows it.
mod control;
mod memory;
mod operators;

impl<'b, 'm, 'a> Decoder<'b, 'm, 'a> {
    /// A decoder that fills `body`, whose arguments are set; `local_types` holds their
    /// types.
    fn new(bodies: &'b Bodies<'m, 'a>, body: Body, local_types: Vec<TypeId>) -> Self {
        Decoder {
            bodies,
            body,
            local_types,
            relative: bodies.module.version.unwrap_or(0) >= 1,
            declared_blocks: 0,
            current_block_start: 0,
            last_loc: None,
            pending_bundles: None,
            bit: 0,
            range_values: 0,
        }
    }
}

impl Decoder<'_, '_, '_> {
    fn next_value(&self) -> u64 {
        self.body.first_value + self.local_types.len() as u64
    }

    fn short(&self, found: usize, needed: usize) -> Error {
        Error::RecordTooShort {
            bit: self.bit,
            block_id: ids_block::FUNCTION_BLOCK_ID,
            block_name: Some("FUNCTION_BLOCK"),
            code: 0,
            record: None,
            found,
            needed,
        }
    }

    fn bad(&self, what: &'static str, index: u64, len: usize) -> Error {
        Error::IndexOutOfRange { bit: self.bit, what, index, len }
    }

    fn types(&self) -> &TypeTable {
        &self.bodies.module.types
    }

    fn ty(&self, raw: u64) -> Result<TypeId, Error> {
        let len = self.types().len();
        if (raw as usize) < len { Ok(TypeId(raw as u32)) } else { Err(self.bad("type", raw, len)) }
    }

    /// The type of a value id defined so far.
    fn type_of(&self, id: u64) -> TypeId {
        if id < self.body.first_value {
            return self.bodies.module_value_type(id);
        }
        let local = (id - self.body.first_value) as usize;
        self.local_types.get(local).copied().unwrap_or(NO_TYPE)
    }

    /// The value id `delta` values before the next one (relative ids, VERSION 1 and
    /// later; in 32 bits, as LLVM reads them).
    fn before_next(&self, delta: u64) -> u64 {
        u64::from((self.next_value() as u32).wrapping_sub(delta as u32))
    }

    /// The value id an operand field names: relative or absolute, by the version.
    fn absolute(&self, raw: u64) -> u64 {
        if self.relative { self.before_next(raw) } else { raw }
    }

    /// An operand with its type: `getValueTypePair` (a forward reference carries its
    /// type in the next field).
    fn pair(&mut self, ops: &[u64], i: &mut usize) -> Result<Operand, Error> {
        let raw = need!(self, ops, *i);
        *i += 1;
        let id = self.absolute(raw);
        let ty = if id < self.next_value() {
            self.type_of(id)
        } else {
            let t = need!(self, ops, *i);
            *i += 1;
            self.ty(t)?
        };
        Ok(self.operand(id, ty))
    }

    /// The operands from `i` to the end of the record, each with its type (`pair`).
    fn pairs_to_end(&mut self, ops: &[u64], i: &mut usize, out: &mut Vec<Operand>) -> Result<(), Error> {
        while *i < ops.len() {
            out.push(self.pair(ops, i)?);
        }
        Ok(())
    }

    /// An operand whose type the instruction implies: `getValue`.
    fn value(&mut self, ops: &[u64], i: &mut usize, ty: TypeId) -> Result<Operand, Error> {
        let raw = need!(self, ops, *i);
        *i += 1;
        Ok(self.operand(self.absolute(raw), ty))
    }

    fn operand(&self, id: u64, ty: TypeId) -> Operand {
        if ty == self.bodies.index.metadata {
            return Operand { value: Value::Metadata(id), ty };
        }
        // A value defined so far is resolved now; a forward reference in `finish`.
        Operand { value: self.body.value_of(id, self.bodies.constants.base), ty }
    }

    fn block(&self, raw: u64) -> Result<Operand, Error> {
        if raw >= self.declared_blocks {
            return Err(self.bad("basic block", raw, self.declared_blocks as usize));
        }
        Ok(Operand { value: Value::Block(raw as u32), ty: self.bodies.index.get(TypeKey::Label) })
    }

    fn push_operands(&mut self, operands: &[Operand]) -> OperandRange {
        let start = self.body.operand_pool.len();
        // One by one: most lists have one to three operands, too short for `memmove`.
        for &o in operands {
            self.body.operand_pool.push(o);
        }
        OperandRange { start: start as u32, len: operands.len() as u32 }
    }

    /// Reads the records and blocks of the function block, up to its end.
    fn read(&mut self, reader: &mut Reader<'_>) -> Result<(), Error> {
        let mut operands: Vec<Operand> = Vec::new();
        while let Some(entry) = reader.advance()? {
            match entry {
                Entry::EnterBlock(b) => {
                    let id = b.block_id;
                    if id == ids_block::CONSTANTS_BLOCK_ID {
                        let first = self.body.constants.constants.len();
                        crate::ir::module::constants::read_block(reader, &mut self.body.constants)?;
                        for c in &self.body.constants.constants[first..] {
                            self.local_types.push(c.ty);
                            self.body.locals.push(Local::Constant);
                        }
                    } else if id == ids_block::VALUE_SYMTAB_BLOCK_ID {
                        self.read_symtab(reader)?;
                    } else if id == ids_block::USELIST_BLOCK_ID {
                        self.read_uselists(reader)?;
                    } else if id == ids_block::METADATA_BLOCK_ID {
                        // Function-local ids follow the module's and the ones this
                        // function's earlier blocks defined.
                        let base = self.bodies.module_metadata_len();
                        if self.body.metadata.entries.is_empty() {
                            self.body.metadata.base = base;
                        }
                        let input = reader.stream().bytes();
                        self.body.metadata.read_block(reader, input)?;
                    } else if id == ids_block::METADATA_ATTACHMENT_ID {
                        let attachments = &mut self.body.attachments;
                        crate::ir::module::walk::each_record(reader, |r| {
                            if r.code() != ids::METADATA_ATTACHMENT {
                                return Ok(());
                            }
                            // [instruction, (kind, node)…], or the function's own [(kind, node)…].
                            let ops = r.operand_slice();
                            let (instruction, pairs) = match ops.len() % 2 {
                                1 => (ops.first().map(|&i| i as u32), &ops[1..]),
                                _ => (None, ops),
                            };
                            for pair in pairs.chunks_exact(2) {
                                attachments.push(Attachment { instruction, kind: pair[0], node: pair[1] });
                            }
                            Ok(())
                        })?;
                        // The function's first, then by instruction (the writer's order
                        // already; a stable sort keeps each one's kinds as written).
                        attachments.sort_by_key(|a| a.instruction.map_or(0, |i| u64::from(i) + 1));
                    } else {
                        // Metadata, metadata attachments and blocks of newer LLVMs: the
                        // metadata layer reads them.
                        reader.skip_block()?;
                    }
                }
                Entry::Record { bit, .. } => {
                    self.bit = bit;
                    let r = reader.read_record()?;
                    let code = r.code();
                    let ops = r.operand_slice();
                    operands.clear();
                    self.record(code, ops, &mut operands).map_err(|e| match e {
                        Error::RecordTooShort { bit, block_id, block_name, found, needed, .. } => {
                            Error::RecordTooShort {
                                bit,
                                block_id,
                                block_name,
                                code,
                                record: ids_block::record_name(ids::FUNCTION_BLOCK_ID, code),
                                found,
                                needed,
                            }
                        }
                        e => e,
                    })?;
                }
                Entry::EndBlock(_) => break,
                _ => {}
            }
        }
        Ok(())
    }

    fn read_symtab(&mut self, reader: &mut Reader<'_>) -> Result<(), Error> {
        let body = &mut self.body;
        crate::ir::module::walk::each_record(reader, |r| {
            let ops = r.operand_slice();
            let (Some(&id), Some(chars)) = (ops.first(), ops.get(1..)) else { return Ok(()) };
            let start = body.name_bytes.len();
            body.name_bytes.extend(chars.iter().map(|&c| c as u8));
            let range = OperandRange { start: start as u32, len: chars.len() as u32 };
            match r.code() {
                ids::VST_CODE_ENTRY if id >= body.first_value => {
                    body.value_names.push(((id - body.first_value) as u32, range));
                }
                ids::VST_CODE_BBENTRY => body.block_names.push((id as u32, range)),
                _ => {}
            }
            Ok(())
        })?;
        self.body.value_names.sort_by_key(|(v, _)| *v);
        self.body.block_names.sort_by_key(|(b, _)| *b);
        Ok(())
    }

    fn read_uselists(&mut self, reader: &mut Reader<'_>) -> Result<(), Error> {
        let body = &mut self.body;
        crate::ir::module::walk::each_record(reader, |r| {
            if r.code() == ids::USELIST_CODE_BB {
                if let Some((&bb, order)) = r.operand_slice().split_last() {
                    let order = body.push_literals(order);
                    body.block_use_orders.push((bb as u32, order));
                }
            }
            Ok(())
        })
    }

    /// Adds an instruction; a terminator ends the current basic block.
    fn push(&mut self, kind: InstKind, ty: TypeId, operands: &[Operand]) {
        let has_result = ty != self.bodies.index.void && ty != NO_TYPE;
        let index = self.body.instructions.len() as u32;
        let operands = self.push_operands(operands);
        self.body.instructions.push(Instruction { kind, ty, has_result, operands, debug_loc: None, bit: self.bit });
        if has_result {
            self.local_types.push(ty);
            self.body.locals.push(Local::Instruction(index));
        }
        if kind.is_terminator() {
            self.body
                .blocks
                .push(BasicBlock { first: self.current_block_start, len: index + 1 - self.current_block_start });
            self.current_block_start = index + 1;
        }
    }

    fn void(&self) -> TypeId {
        self.bodies.index.get(TypeKey::Void)
    }

    fn pointee(&self, ptr: TypeId) -> TypeId {
        match self.types().get(ptr) {
            Some(Type::Pointer { pointee: Some(p), .. }) => *p,
            Some(Type::Vector { element, .. }) => self.pointee(*element),
            _ => NO_TYPE,
        }
    }

    /// Reads one record of the function block: a record about the function or the last
    /// instruction (basic block count, debug location, operand bundle, debug record), or
    /// an instruction.
    fn record(&mut self, code: u32, ops: &[u64], out: &mut Vec<Operand>) -> Result<(), Error> {
        match code {
            ids::FUNC_CODE_DECLAREBLOCKS => {
                self.declared_blocks = need!(self, ops, 0);
                // Sized by the instructions read, not by this count from the file.
                return Ok(());
            }
            ids::FUNC_CODE_DEBUG_LOC => {
                let line = need!(self, ops, 1);
                let loc = DebugLoc {
                    line: need!(self, ops, 0) as u32,
                    column: line as u32,
                    scope: ops.get(2).and_then(|v| v.checked_sub(1)),
                    inlined_at: ops.get(3).and_then(|v| v.checked_sub(1)),
                    implicit: ops.get(4).is_some_and(|&v| v != 0),
                    atom_group: ops.get(5).copied().unwrap_or(0),
                    atom_rank: ops.get(6).copied().unwrap_or(0),
                };
                self.body.debug_locs.push(loc);
                let index = (self.body.debug_locs.len() - 1) as u32;
                self.last_loc = Some(index);
                if let Some(inst) = self.body.instructions.last_mut() {
                    inst.debug_loc = Some(index);
                }
                return Ok(());
            }
            ids::FUNC_CODE_DEBUG_LOC_AGAIN => {
                if let Some(inst) = self.body.instructions.last_mut() {
                    inst.debug_loc = self.last_loc;
                }
                return Ok(());
            }
            ids::FUNC_CODE_OPERAND_BUNDLE => {
                let tag = need!(self, ops, 0);
                // [tag, (value, type)…]
                let mut i = 1;
                self.pairs_to_end(ops, &mut i, out)?;
                let inputs = self.push_operands(out);
                self.body.bundles.push(Bundle { tag: tag as u32, inputs });
                let first = self.pending_bundles.map_or(self.body.bundles.len() - 1, |b| b.start as usize);
                self.pending_bundles =
                    Some(OperandRange { start: first as u32, len: (self.body.bundles.len() - first) as u32 });
                return Ok(());
            }
            ids::FUNC_CODE_BLOCKADDR_USERS => return Ok(()),
            ids::FUNC_CODE_DEBUG_RECORD_VALUE
            | ids::FUNC_CODE_DEBUG_RECORD_DECLARE
            | ids::FUNC_CODE_DEBUG_RECORD_ASSIGN
            | ids::FUNC_CODE_DEBUG_RECORD_VALUE_SIMPLE
            | ids::FUNC_CODE_DEBUG_RECORD_LABEL
            | ids::FUNC_CODE_DEBUG_RECORD_DECLARE_VALUE => {
                let before = self.body.instructions.len().saturating_sub(1) as u32;
                let (metadata, value) = if code == ids::FUNC_CODE_DEBUG_RECORD_VALUE_SIMPLE {
                    let mut j = 3;
                    let v = self.pair(ops, &mut j)?;
                    (&ops[..3.min(ops.len())], Some(v))
                } else {
                    (ops, None)
                };
                let operands = self.body.push_literals(metadata);
                self.body.debug_records.push(DebugRecord { code, before, operands, value });
                return Ok(());
            }
            _ => {}
        }
        let bundles_before = self.pending_bundles;
        // Each reader answers whether the code is one of its instructions.
        let known = self.operator_instruction(code, ops, out)?
            || self.control_instruction(code, ops, out)?
            || self.memory_instruction(code, ops)?;
        if !known {
            let operands = self.body.push_literals(ops);
            self.body.unknown.push(Unknown::Record {
                bit: self.bit,
                block_id: ids_block::FUNCTION_BLOCK_ID,
                code,
                operands: ops.to_vec(),
            });
            // Kept in place so that printing shows where it was.
            self.push(InstKind::Unknown { code, operands }, self.void(), &[]);
            return Ok(());
        }
        if bundles_before.is_some() {
            self.pending_bundles = None;
        }
        Ok(())
    }

    /// The body decoded: the last basic block closed, forward references resolved.
    fn finish(mut self) -> Body {
        self.body.local_types = core::mem::take(&mut self.local_types);
        // Blocks: instructions after the last terminator form a last, unterminated block.
        let n = self.body.instructions.len() as u32;
        if self.current_block_start < n || self.body.blocks.is_empty() && self.declared_blocks > 0 {
            self.body.blocks.push(BasicBlock { first: self.current_block_start, len: n - self.current_block_start });
        }
        // Forward references: every value is defined now.
        let (first, locals) = (self.body.first_value, &self.body.locals);
        let resolve = |o: &mut Operand| {
            if let Value::Unresolved(id) = o.value {
                if let Some(value) = local_value(locals, first, id) {
                    o.value = value;
                }
            }
        };
        for o in &mut self.body.operand_pool {
            resolve(o);
        }
        for o in self.body.debug_records.iter_mut().filter_map(|r| r.value.as_mut()) {
            resolve(o);
        }
        self.body
    }
}

impl Body {
    /// Appends to [`Body::literals`]; the range they take.
    fn push_literals(&mut self, values: &[u64]) -> OperandRange {
        let start = self.literals.len();
        self.literals.extend_from_slice(values);
        OperandRange { start: start as u32, len: values.len() as u32 }
    }
}
