//! The numbering `llvm-dis` gives metadata nodes (`!N`) and attribute groups (`#N`):
//! LLVM's `SlotTracker` (AsmWriter.cpp), which numbers them in the order the printer
//! meets them, not in the file's order.
//!
//! The nodes are the view's ([`MetadataGraph`]): LLVM's reader's, named by keys. This
//! module only gives them their numbers.

use alloc::collections::BTreeMap;
use alloc::vec::Vec;

use crate::ids::llvm_ir::raw as ids;
use crate::ir::body::{Bodies, Body, InstKind};
use crate::ir::view::{Listed, MetadataGraph, ModuleView, SYNTHETIC_INT};
use crate::ir::{AttrIndex, AttributeGroup, MetadataNode, Value};

/// No slot (yet).
pub(crate) const NO_SLOT: u32 = u32::MAX;

/// The slot tracker of one printed module.
#[derive(Debug, Default)]
pub(crate) struct ModuleSlots {
    /// The nodes being numbered.
    pub(crate) graph: MetadataGraph,
    /// The slot of each key, [`NO_SLOT`] if none.
    slots: Vec<u32>,
    /// The keys in slot order.
    pub(crate) order: Vec<u64>,
    /// Attribute groups in slot order (their attributes as printed), and the slot of each
    /// group key ([`function_group_key`]).
    pub(crate) groups: Vec<AttributeGroup>,
    group_slots: BTreeMap<u64, u32>,
    stack: Vec<u64>,
    refs: Vec<u64>,
    /// The type id of `metadata`, for the (type, value) pairs of pre-3.6 tuples.
    metadata_type: Option<u32>,
}

impl ModuleSlots {
    /// The tracker before any function: LLVM's `processModule` (global variables'
    /// attachments and attribute groups, named metadata, functions' attribute groups).
    pub(crate) fn new(v: &ModuleView<'_, '_, '_>) -> Self {
        let b = v.bodies();
        let module = b.module_metadata();
        let graph = MetadataGraph::new(v);
        let mut s = ModuleSlots { graph, metadata_type: b.metadata_type().map(|t| t.0), ..ModuleSlots::default() };
        s.slots.resize(s.graph.key_count(), NO_SLOT);
        let m = b.module();
        for (i, g) in m.globals.iter().enumerate() {
            // A variable LLVM's reader makes anew has no attachments or attributes.
            if v.remade_structors(i).is_some() {
                continue;
            }
            let mut pairs = s.graph.global_attachments_of(b, g.common.value_id);
            pairs.sort_by_key(|p| p.0);
            for (_, node) in pairs {
                s.create(b, None, node);
            }
            if let Some(group) = function_group(v, g.attributes.and_then(|a| a.checked_sub(1))) {
                s.create_group(v, group);
            }
        }
        for &(name, ops) in &module.named {
            let name = module.owned_bytes(name);
            if s.graph.strips_named(name) {
                continue;
            }
            for &node in module.ops(ops) {
                if let Some(key) = s.graph.named_key(name, node) {
                    s.create_key(b, key);
                }
            }
        }
        for &listed in v.function_order() {
            let Listed::Function(i) = listed else { continue };
            if let Some(key) = function_group_key(v, i) {
                s.create_group(v, key);
            }
        }
        s
    }

    /// Adds a function: its nodes to the graph, then numbers what LLVM's
    /// `processFunction` numbers. Returns the function's scope. `body` is `None` for a
    /// declaration.
    pub(crate) fn add_function(&mut self, v: &ModuleView<'_, '_, '_>, index: usize, body: Option<&Body>) -> usize {
        let b = v.bodies();
        let n = self.graph.add_function(b, body);
        self.slots.resize(self.graph.key_count(), NO_SLOT);
        self.function_attachments(v, index, n, body);
        n
    }

    fn function_attachments(&mut self, v: &ModuleView<'_, '_, '_>, index: usize, n: usize, body: Option<&Body>) {
        let b = v.bodies();
        let mut own = self.graph.function_attachments_of(b, index, body);
        own.sort_by_key(|p| p.0);
        for (_, node) in own {
            self.create(b, Some(n), node);
        }
        let Some(body) = body else { return };
        // The instructions' attachments, by instruction (the file lists them in order).
        let mut attached = body.attachments.iter().filter(|a| a.instruction.is_some()).peekable();
        let mut records = body.debug_records.iter().peekable();
        let mut pairs: Vec<(u64, u64)> = Vec::new();
        let strips = self.graph.strips_debug_info();
        for (i, inst) in body.instructions.iter().enumerate() {
            while let Some(r) = records.next_if(|r| r.before as usize <= i && !strips) {
                let md = body.literal_range(r.operands);
                // [location, variable or label, expression, value, (assign id, address, …)]
                let is_label = r.code == ids::FUNC_CODE_DEBUG_RECORD_LABEL;
                if !is_label {
                    if r.value.is_none() {
                        if let Some(&v) = md.get(3) {
                            self.create_if_tuple(b, Some(n), v);
                        }
                    }
                    if let Some(&v) = md.get(1) {
                        self.create(b, Some(n), v);
                    }
                    if r.code == ids::FUNC_CODE_DEBUG_RECORD_ASSIGN {
                        if let Some(&v) = md.get(4) {
                            self.create(b, Some(n), v);
                        }
                        // [.., assign id, address expression, address]
                        if let Some(&v) = md.get(6) {
                            self.create_if_tuple(b, Some(n), v);
                        }
                    }
                } else if let Some(&v) = md.get(1) {
                    self.create(b, Some(n), v);
                }
                if let Some(&v) = md.first() {
                    self.create(b, Some(n), v);
                }
            }
            // Metadata operands of intrinsic calls.
            if let InstKind::Call { .. } = inst.kind {
                let ops = body.operands(inst);
                let intrinsic = ops.first().is_some_and(|callee| match callee.value {
                    Value::Global(id) => b.module().global(id).is_some_and(|g| g.name.starts_with(b"llvm.")),
                    _ => false,
                });
                if intrinsic {
                    for o in ops.iter().skip(1) {
                        if let Value::Metadata(id) = o.value {
                            self.create(b, Some(n), id);
                        }
                    }
                }
            }
            // `!dbg` first, then the others by kind.
            if let Some(key) = self.graph.location_key(n, inst) {
                self.create_key(b, key);
            }
            pairs.clear();
            while let Some(a) = attached.next_if(|a| a.instruction == Some(i as u32)) {
                pairs.push((a.kind, a.node));
            }
            pairs.retain(|p| self.graph.keeps_attachment(p.0));
            pairs.sort_by_key(|p| p.0);
            for &(kind, node) in &pairs {
                if let Some(key) = self.graph.instruction_attachment_key(Some(n), kind, node) {
                    self.create_key(b, key);
                }
            }
            if let InstKind::Call { call, .. } | InstKind::Invoke(call) | InstKind::CallBr { call, .. } = &inst.kind {
                if let Some(group) = call_group_key(v, index, body.operands(inst).first(), call.attributes) {
                    self.create_group(v, group);
                }
            }
        }
    }

    /// LLVM's `CreateAttributeSetSlot`: attribute sets are uniqued by their contents, so
    /// two of the file's groups with the same attributes are one `#N`.
    pub(crate) fn create_group(&mut self, v: &ModuleView<'_, '_, '_>, key: u64) {
        if self.group_slots.contains_key(&key) {
            return;
        }
        let Some(group) = group_content(v, key) else { return };
        let slot = match self.groups.iter().position(|g| g.attributes == group.attributes) {
            Some(slot) => slot,
            None => {
                self.groups.push(group);
                self.groups.len() - 1
            }
        };
        self.group_slots.insert(key, slot as u32);
    }

    /// The `#N` of a group key.
    pub(crate) fn group_slot(&self, key: u64) -> Option<u32> {
        self.group_slots.get(&key).copied()
    }

    /// The slot of a key.
    pub(crate) fn slot(&self, key: u64) -> Option<u32> {
        self.slots.get(usize::try_from(self.graph.canonical(key)).ok()?).copied().filter(|&s| s != NO_SLOT)
    }

    /// LLVM's `CreateMetadataSlot` for id `id` seen from `scope`.
    fn create(&mut self, b: &Bodies<'_, '_>, scope: Option<usize>, id: u64) {
        if let Some(key) = self.graph.key(scope, id) {
            self.create_key(b, key);
        }
    }

    /// Numbers an empty-tuple location operand of a debug record (`!{}`): the only
    /// metadata node such an operand can be.
    fn create_if_tuple(&mut self, b: &Bodies<'_, '_>, scope: Option<usize>, id: u64) {
        if let Some(key) = self.graph.key(scope, id) {
            if let Some((_, MetadataNode::Tuple { .. })) = self.graph.node(b, key) {
                self.create_key(b, key);
            }
        }
    }

    /// Numbers `key` and, depth first, the nodes its operands are (an explicit stack:
    /// chains in a hostile file can be as long as the file).
    fn create_key(&mut self, b: &Bodies<'_, '_>, key: u64) {
        self.stack.clear();
        self.stack.push(key);
        while let Some(key) = self.stack.pop() {
            let key = self.graph.canonical(key);
            if self.slot(key).is_some() {
                continue;
            }
            let mut refs = core::mem::take(&mut self.refs);
            refs.clear();
            let Some((scope, node)) = self.graph.node(b, key) else {
                self.refs = refs;
                continue;
            };
            match node {
                MetadataNode::Tuple { operands, .. } => refs.extend_from_slice(operands),
                MetadataNode::OldTuple { pairs, .. } => {
                    for p in pairs.chunks_exact(2) {
                        if Some(p[0] as u32) == self.metadata_type {
                            refs.push(p[1].saturating_add(1));
                        }
                    }
                }
                MetadataNode::Debug { code, operands } => {
                    crate::ir::metadata::di::operands_in_llvm_order(code, operands, &mut refs)
                }
                MetadataNode::Unknown { code, .. } if code != SYNTHETIC_INT => {}
                // Not nodes, or printed inline.
                _ => {
                    self.refs = refs;
                    continue;
                }
            }
            let Some(slot) = usize::try_from(key).ok().and_then(|k| self.slots.get_mut(k)) else {
                self.refs = refs;
                continue;
            };
            *slot = self.order.len() as u32;
            self.order.push(key);
            for &r in refs.iter().rev() {
                if let Some(k) = r.checked_sub(1).and_then(|id| self.graph.key(scope, id)) {
                    self.stack.push(k);
                }
            }
            self.refs = refs;
        }
    }
}

/// The group key of attribute list `list`'s function attributes (the list's index), if
/// LLVM holds any there ([`ModuleView::attributes`]).
pub(crate) fn function_group(v: &ModuleView<'_, '_, '_>, list: Option<impl TryInto<usize>>) -> Option<u64> {
    let list = u32::try_from(list.and_then(|l| l.try_into().ok())?).ok()?;
    (!v.attributes(Some(list), AttrIndex::Function).is_empty()).then_some(u64::from(list))
}

/// A group key's bit that marks an intrinsic declaration's function attributes as the
/// reading version's intrinsic table gives them (the rest of the key is the function's
/// index); see [`function_group_key`].
const INTRINSIC_BIT: u64 = 1 << 63;

/// The group key of function `index`'s own attributes: its list's, or, for a declaration
/// of an intrinsic of the reading version, the function's index marked. LLVM's reader
/// gives an intrinsic the attributes of its own intrinsic table rather than the file's
/// ([`crate::ir::upgrade::intrinsic_attributes`]).
pub(crate) fn function_group_key(v: &ModuleView<'_, '_, '_>, index: usize) -> Option<u64> {
    if v.has_intrinsic_attributes(index) {
        let has = !v.function_attributes(index, AttrIndex::Function).is_empty();
        return has.then_some(INTRINSIC_BIT | index as u64);
    }
    let f = v.module().functions.get(index)?;
    function_group(v, f.attributes.and_then(|a| a.checked_sub(1)))
}

/// A group key's bit that marks a call's function attributes with its `strictfp` read as
/// `nobuiltin` (the rest of the key is the list's); see [`call_group_key`].
const STRICTFP_CALL_BIT: u64 = 1 << 62;

/// The group key of the function attributes (attribute list `list`) of a call of `callee`
/// in function `caller`: the list's, marked if LLVM's reader turns the call's `strictfp`
/// into `nobuiltin` ([`ModuleView::call_strictfp_is_nobuiltin`]).
pub(crate) fn call_group_key(
    v: &ModuleView<'_, '_, '_>,
    caller: usize,
    callee: Option<&crate::ir::Operand>,
    list: Option<u32>,
) -> Option<u64> {
    let group = function_group(v, list)?;
    let upgraded = v.call_strictfp_is_nobuiltin(caller, callee, list);
    Some(if upgraded { STRICTFP_CALL_BIT | group } else { group })
}

/// The attributes a group key stands for, as a function-index group.
pub(crate) fn group_content(v: &ModuleView<'_, '_, '_>, key: u64) -> Option<AttributeGroup> {
    let group = |attributes: Vec<crate::ir::Attribute>| AttributeGroup {
        id: key,
        index: AttrIndex::Function,
        attributes,
        bit: 0,
    };
    if key & STRICTFP_CALL_BIT != 0 {
        let list = u32::try_from(key & !STRICTFP_CALL_BIT).ok()?;
        // The callee was looked at when the key was made.
        return Some(group(v.strictfp_read_as_nobuiltin(Some(list))));
    }
    if key & INTRINSIC_BIT != 0 {
        let index = usize::try_from(key & !INTRINSIC_BIT).ok()?;
        return Some(group(v.function_attributes(index, AttrIndex::Function).to_vec()));
    }
    let list = u32::try_from(key).ok()?;
    Some(group(v.attributes(Some(list), AttrIndex::Function).to_vec()))
}
