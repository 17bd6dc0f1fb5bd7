//! The module's metadata as LLVM's reader holds it: the graph of nodes the printer, and
//! anything else that wants LLVM's nodes, reads through a [`ModuleView`].
//!
//! A file's metadata ids are per scope: the module's, then each function's own (which
//! restart after the module's in every function). The graph names a node by a *key*: the
//! module's ids are keys `0..M`, the nodes the reader makes of the module's (upgrades of old
//! debug info, `upgradeCULocals`, `UpgradeModuleFlags`) get the next ranges, and each
//! function's table the range after, with the locations its DEBUG_LOC records make (LLVM
//! builds a `DILocation` of each) appended. What LLVM's reader builds differently from
//! the file lives here:
//! - uniqued nodes of equal content are one node (`MDNode::get`): a key that is the same
//!   node as an earlier one is an alias of it;
//! - the upgrades of old debug info and TBAA (`MetadataLoader`, `UpgradeTBAANode`), of
//!   local imports (LLVM 17), and of module flags;
//! - the debug info `UpgradeDebugInfo` strips, and the attachments it drops.
//!
//! Numbering the nodes as `llvm-dis` prints them is the printer's (its slot tracker).

use alloc::borrow::Cow;
use alloc::collections::BTreeMap;
use alloc::vec::Vec;

use super::UpgradedFlag;

use crate::ids::llvm_ir::raw as ids;
use crate::ir::MetadataNode;
use crate::ir::body::{Bodies, Body, Instruction};
use crate::ir::metadata::{MdEntry, MdTable};
use crate::ir::module::constants::OperandRange;
use crate::ir::view::ModuleView;

/// The record code of a node LLVM's reader makes that no record has: an integer as
/// metadata (`i64 0` of an upgraded TBAA tag), operands `[bit width, value]`, printed
/// inline like any value.
pub(crate) const SYNTHETIC_INT: u32 = u32::MAX - 1;

/// The operands of a debug-info record that LLVM's reader reads as type references
/// (`getDITypeRefOrNull`), which LLVM 3.7 and 3.8 could write as a composite type's
/// identifier: scopes, base and containing types, `extraData`, `vtableHolder`, the
/// `type:` of variables, template parameters and properties, an imported entity.
fn type_ref_fields(code: u32, ops: &[u64]) -> &'static [usize] {
    match code {
        ids::METADATA_DERIVED_TYPE => &[5, 6, 11],
        ids::METADATA_COMPOSITE_TYPE => &[5, 6, 13],
        // Without the flags of LLVM 8: the containing type is 8 after the two it had more.
        ids::METADATA_SUBPROGRAM if ops.first().is_some_and(|v| v & 4 == 0) => &[1, 10],
        ids::METADATA_TEMPLATE_TYPE if ops.len() > 3 => &[3],
        ids::METADATA_TEMPLATE_TYPE => &[2],
        ids::METADATA_TEMPLATE_VALUE if ops.len() > 5 => &[4],
        ids::METADATA_TEMPLATE_VALUE => &[3],
        ids::METADATA_GLOBAL_VAR => &[6],
        // A tag operand when it has no alignment and more than eight operands.
        ids::METADATA_LOCAL_VAR if ops.first().is_some_and(|v| v & 2 == 0) && ops.len() > 8 => &[6],
        ids::METADATA_LOCAL_VAR => &[5],
        ids::METADATA_OBJC_PROPERTY => &[7],
        ids::METADATA_IMPORTED_ENTITY => &[3],
        _ => &[],
    }
}

/// A function's metadata: its table (with the locations of its DEBUG_LOCs appended) and
/// where its keys start.
#[derive(Debug, Default)]
pub(crate) struct Scope {
    pub(crate) first_key: u64,
    pub(crate) table: MdTable,
    /// The key of each of the body's DEBUG_LOCs.
    pub(crate) locations: Vec<u64>,
}

/// The tuples `MDTuple::get` gives the metadata upgrades (`move_local_imports`): the
/// module's uniqued tuple of the same operands, found in a map made on first use, else
/// a new one (numbered from `u64::MAX / 2`, until the new ones have their scope's ids).
struct UniqueTuples<'t> {
    module: &'t MdTable,
    existing: Option<BTreeMap<&'t [u64], u64>>,
    new: Vec<Vec<u64>>,
}

impl<'t> UniqueTuples<'t> {
    /// The operand (id + 1) of the uniqued tuple of `operands`.
    fn get(&mut self, operands: Vec<u64>) -> u64 {
        let module = self.module;
        let existing = self.existing.get_or_insert_with(|| {
            let mut map = BTreeMap::new();
            for (i, e) in module.entries.iter().enumerate().filter(|(_, e)| e.code == ids::METADATA_NODE) {
                map.entry(module.ops(e.ops)).or_insert(module.base + i as u64 + 1);
            }
            map
        });
        if let Some(&operand) = existing.get(operands.as_slice()) {
            return operand;
        }
        let i = self.new.iter().position(|t| *t == operands).unwrap_or_else(|| {
            self.new.push(operands);
            self.new.len() - 1
        });
        u64::MAX / 2 + i as u64 + 1
    }
}

/// A uniqued `DILocation`'s fields, its scope and inlined-at as canonical keys.
type LocationKey = [u64; 7];

/// The operands of a location appended to a function's table: a METADATA_LOCATION
/// record's (distinct, line, column, scope, inlined-at, implicit, atom group, atom rank).
const LOCATION_OPERANDS: usize = 8;

/// No alias: the key is its own node.
const NO_ALIAS: u64 = u64::MAX;

/// The uniqued locations met so far, by their fields: an open-addressing hash table (a
/// debug build has hundreds of thousands of locations; a `BTreeMap` of 7-word keys was a
/// tenth of `--dis`). The table holds 8-byte slots (a hash tag and an index into the dense
/// `entries`), so a probe touches one cache line until the tags match: with the 64-byte
/// entries in the table itself, this lookup was 17% of `--dis` on sqlite3 (`-O2 -g`).
#[derive(Debug, Default)]
struct LocationTable {
    /// The locations in insertion order: (fields, key).
    entries: Vec<(LocationKey, u64)>,
    /// `tag << 32 | (index + 1)`, 0 for an empty slot; the tag is the hash's high half.
    slots: Vec<u64>,
}

impl LocationTable {
    fn hash(fields: &LocationKey) -> u64 {
        let h = fields
            .iter()
            .fold(0xcbf2_9ce4_8422_2325u64, |h, &f| (h ^ f).wrapping_mul(0x0000_0100_0000_01b3).rotate_left(29));
        // Mix the high bits down: the slot index comes from the low ones.
        h ^ (h >> 31).wrapping_mul(0x9e37_79b9_7f4a_7c15)
    }

    /// The key of the location with these fields, inserting `key` if there is none.
    fn get_or_insert(&mut self, fields: LocationKey, key: u64) -> u64 {
        // Past 2^32 - 1 entries the index does not fit its half: give up uniquing (no
        // file this side of the allocation limits gets there).
        if self.entries.len() >= u32::MAX as usize - 1 {
            return key;
        }
        if (self.entries.len() + 1) * 2 > self.slots.len() {
            self.grow();
        }
        let hash = Self::hash(&fields);
        let tag = hash >> 32;
        let mask = self.slots.len() - 1;
        let mut i = hash as usize & mask;
        loop {
            let slot = self.slots[i];
            if slot == 0 {
                self.slots[i] = Self::slot(hash, self.entries.len());
                self.entries.push((fields, key));
                return key;
            }
            if slot >> 32 == tag {
                let e = &self.entries[(slot as u32 - 1) as usize];
                if e.0 == fields {
                    return e.1;
                }
            }
            i = (i + 1) & mask;
        }
    }

    /// Doubles the slots and places every entry again.
    fn grow(&mut self) {
        let len = (self.slots.len() * 2).max(64);
        self.slots.clear();
        self.slots.resize(len, 0);
        let mask = len - 1;
        for (index, (fields, _)) in self.entries.iter().enumerate() {
            let hash = Self::hash(fields);
            let mut i = hash as usize & mask;
            while self.slots[i] != 0 {
                i = (i + 1) & mask;
            }
            self.slots[i] = Self::slot(hash, index);
        }
    }

    /// The slot of entry `index`, whose fields hash to `hash`.
    fn slot(hash: u64, index: usize) -> u64 {
        (hash >> 32) << 32 | (index as u64 + 1)
    }
}

/// The module's metadata as LLVM's reader holds it, grown a function at a time
/// ([`Self::add_function`]) as a print meets them.
#[derive(Debug, Default)]
pub(crate) struct MetadataGraph {
    module_len: u64,
    /// The scopes after the module's: the reader's new nodes, then the functions'.
    scopes: Vec<Scope>,
    next_key: u64,
    /// Keys that are the same node as another (a uniqued location or tuple met twice, an
    /// upgraded node's new copy), [`NO_ALIAS`] for one that is its own.
    alias: Vec<u64>,
    locations: LocationTable,
    /// The uniqued tuples met so far, by their operands' keys ([`Self::register_tuple`]).
    tuples: BTreeMap<Vec<u64>, u64>,
    /// The new nodes LLVM's `UpgradeModuleFlags` gives `!llvm.module.flags`
    /// ([`ModuleView::upgraded_module_flags`]): (new key, the file node's key, the
    /// upgrade). A new key reads as the file's node.
    flag_nodes: Vec<(u64, u64, UpgradedFlag)>,
    /// The scope of the nodes LLVM's reader makes of old global variables
    /// ([`Self::upgrade_old_debug_info`]): module-level references past the
    /// module's ids are to it.
    upgrade_scope: Option<usize>,
    /// Global variables whose attachments LLVM's reader changes: their (kind, id) pairs.
    global_attachments: BTreeMap<u64, Vec<(u64, u64)>>,
    /// Definitions (by index) LLVM's reader attaches an old subprogram to.
    function_subprograms: BTreeMap<usize, u64>,
    /// The file's `tbaa` kind, when the module has scalar TBAA tags of before LLVM 3.4,
    /// and the key of the struct-path tag each module node makes as an instruction's
    /// `!tbaa` ([`Self::upgrade_old_debug_info`]).
    tbaa_kind: Option<u64>,
    tbaa_tags: BTreeMap<u64, u64>,
    /// The attachment kinds (the file's ids) LLVM's reader drops as it strips the debug
    /// info of a module whose `Debug Info Version` is not 3 (`UpgradeDebugInfo`,
    /// `StripDebugInfo`): `dbg`, `heapallocsite`, `DIAssignID`; empty if it keeps it.
    /// Debug-intrinsic calls and debug records go too, and `llvm.dbg.*` named metadata.
    stripped_kinds: Vec<u64>,
    /// Scratch operands of [`Self::register_tuple`].
    refs: Vec<u64>,
}

impl MetadataGraph {
    /// The module's nodes before any function's: the file's, merged where they are
    /// equal, and the nodes the reader makes of them.
    pub(crate) fn new(v: &ModuleView<'_, '_, '_>) -> Self {
        let b = v.bodies();
        let module = b.module_metadata();
        let mut g = MetadataGraph { module_len: module.len(), next_key: module.len(), ..MetadataGraph::default() };
        g.alias.resize(module.entries.len(), NO_ALIAS);
        g.stripped_kinds = v.metadata_facts().stripped_kinds.clone();
        if v.llvm_version() >= 17 {
            g.move_local_imports(b);
        }
        g.upgrade_old_debug_info(b);
        g.merge_equal_values(v);
        for (id, e) in module.entries.iter().enumerate() {
            g.register_uniqued(b, None, id as u64, *e);
        }
        for flag in v.upgraded_module_flags() {
            let Some(file_key) = g.key(None, flag.id) else { continue };
            let key = g.next_key;
            g.next_key = g.next_key.saturating_add(1);
            g.alias.push(NO_ALIAS);
            g.flag_nodes.push((key, file_key, *flag));
        }
        g
    }

    /// How many keys there are so far: every key is below.
    pub(crate) fn key_count(&self) -> usize {
        self.alias.len()
    }

    /// Adds a function's nodes: its metadata table from `body` (`None` for a declaration),
    /// with the locations of its DEBUG_LOCs appended and merged. Returns its scope.
    pub(crate) fn add_function(&mut self, b: &Bodies<'_, '_>, body: Option<&Body>) -> usize {
        let mut scope = Scope { first_key: self.next_key, ..Scope::default() };
        if let Some(body) = body {
            // With room for the locations appended below.
            let locations = body.debug_locs.len();
            scope.table = body.metadata.clone_with_room(locations, LOCATION_OPERANDS * locations);
        }
        if scope.table.entries.is_empty() {
            scope.table.base = self.module_len;
        }
        let n = self.scopes.len();
        // The DEBUG_LOCs become locations in the function's table (uniqued below).
        if let Some(body) = body {
            for loc in &body.debug_locs {
                let ops: [u64; LOCATION_OPERANDS] = loc.location_record();
                let start = scope.table.pool.len();
                scope.table.pool.extend_from_slice(&ops);
                scope.table.entries.push(MdEntry {
                    code: ids::METADATA_LOCATION,
                    ops: OperandRange { start: start as u32, len: ops.len() as u32 },
                });
            }
        }
        let len = scope.table.len();
        let local_locations = body.map_or(0, |b| b.debug_locs.len() as u64);
        self.next_key = self.next_key.saturating_add(len);
        self.alias.resize(self.alias.len() + len as usize, NO_ALIAS);
        self.scopes.push(scope);
        for i in 0..len {
            let table = &self.scopes[n].table;
            let e = table.entries[i as usize];
            let id = table.base + i;
            self.register_uniqued(b, Some(n), id, e);
        }
        let first_location = len - local_locations;
        let keys: Vec<u64> = (first_location..len).map(|i| self.canonical(self.scopes[n].first_key + i)).collect();
        self.scopes[n].locations = keys;
        n
    }

    /// Function `index`'s own attachments `(kind, id)` as LLVM's reader leaves them, in
    /// the file's order: a declaration's (`body` `None`) from the module's
    /// GLOBAL_DECL_ATTACHMENT, a definition's from its body, with the `!dbg` of an old
    /// subprogram that named it ([`Self::upgrade_old_debug_info`]); none of a kind the
    /// reader strips.
    pub(crate) fn function_attachments_of(
        &self,
        b: &Bodies<'_, '_>,
        index: usize,
        body: Option<&Body>,
    ) -> Vec<(u64, u64)> {
        let mut pairs = match body {
            None => match b.module().functions.get(index) {
                Some(f) => b.module_metadata().attachments_of(f.common.value_id),
                None => Vec::new(),
            },
            Some(body) => {
                let mut own: Vec<(u64, u64)> =
                    body.attachments.iter().filter(|a| a.instruction.is_none()).map(|a| (a.kind, a.node)).collect();
                if let Some(sp) = self.function_subprograms.get(&index).filter(|_| !own.iter().any(|p| p.0 == 0)) {
                    own.push((0, *sp));
                }
                own
            }
        };
        pairs.retain(|p| self.keeps_attachment(p.0));
        pairs
    }

    /// The metadata attachments `(kind, id)` of global variable `value_id` as LLVM's reader
    /// leaves them ([`Self::upgrade_old_debug_info`]).
    pub(crate) fn global_attachments_of(&self, b: &Bodies<'_, '_>, value_id: u64) -> Vec<(u64, u64)> {
        let mut pairs = match self.global_attachments.get(&value_id) {
            Some(pairs) => pairs.clone(),
            None => b.module_metadata().attachments_of(value_id),
        };
        pairs.retain(|p| self.keeps_attachment(p.0));
        pairs
    }

    /// `MetadataLoader`'s upgrade of the first `DIGlobalVariable` layout (version 0, LLVM
    /// 3.x and early 4.0), which had the variable or its constant value in the node, to
    /// `DIGlobalVariableExpression`s (`METADATA_GLOBAL_VAR`, then `upgradeCUVariables`):
    /// - an expression there: the id is a new distinct `DIGlobalVariableExpression` of a
    ///   copy of the variable and the expression;
    /// - an integer constant: the same, with `!DIExpression(DW_OP_constu, N,
    ///   DW_OP_stack_value)`;
    /// - a global variable: the variable gets `!dbg` a new distinct expression of the
    ///   `DIGlobalVariable` and an empty expression;
    /// - then, if any record was of that layout, each `DIGlobalVariable` in a compile
    ///   unit's `globals` and each one a global variable has as `!dbg` is replaced by a
    ///   new distinct expression of it and an empty expression.
    ///
    /// The new nodes are a scope after the module's ids, module-level references past
    /// the module's ids are to it (`upgrade_scope`), and the changed ids are aliases.
    fn upgrade_old_debug_info(&mut self, b: &Bodies<'_, '_>) {
        const COMPILE_UNIT_SUBPROGRAMS: usize = 11;
        const COMPILE_UNIT_GLOBALS: usize = 12;
        const DW_OP_CONSTU: u64 = 0x10;
        const DW_OP_STACK_VALUE: u64 = 0x9f;
        let module = b.module_metadata();
        let m = b.module();
        let entry = |id: u64| module.entry(id).map(|e| (e.code, module.ops(e.ops)));
        let old_layout = |ops: &[u64]| ops.first().is_some_and(|v| v >> 1 == 0) && ops.len() >= 11;
        // A subprogram of LLVM 3.8's layout: no unit, no flags, the function at 15.
        let with_function = |ops: &[u64]| ops.first().is_some_and(|v| v & 6 == 0) && ops.len() >= 19;
        let old_variables =
            module.entries.iter().any(|e| e.code == ids::METADATA_GLOBAL_VAR && old_layout(module.ops(e.ops)));
        let old_subprograms =
            module.entries.iter().any(|e| e.code == ids::METADATA_SUBPROGRAM && with_function(module.ops(e.ops)));
        // LLVM 3.7 and 3.8 named a composite type with an identifier by that string in type
        // fields (`DITypeRef`); the reader resolves them (`upgradeTypeRef`): the composite
        // types of the old layouts (first operand under 2) by identifier.
        let input = b.input();
        let mut identified: BTreeMap<&[u8], u64> = BTreeMap::new();
        for (id, e) in module.entries.iter().enumerate() {
            let ops = module.ops(e.ops);
            if e.code == ids::METADATA_COMPOSITE_TYPE && ops.first().is_some_and(|&v| v < 2) {
                if let Some(name) = ops.get(15).and_then(|s| s.checked_sub(1)).and_then(|s| module.string(input, s)) {
                    identified.entry(name).or_insert(id as u64);
                }
            }
        }
        let old_type_refs = !identified.is_empty()
            && module.entries.iter().any(|e| {
                type_ref_fields(e.code, module.ops(e.ops)).iter().any(|&i| {
                    module
                        .ops(e.ops)
                        .get(i)
                        .and_then(|v| v.checked_sub(1))
                        .and_then(|v| module.string(input, v))
                        .is_some()
                })
            });
        // Scalar TBAA tags of before LLVM 3.4 (`!{!"int", !parent}`): LLVM's reader makes
        // each instruction's `!tbaa` of one a struct-path tag (`UpgradeTBAANode`).
        let tbaa_kind = module.kinds.iter().find(|(_, name)| module.owned_bytes(*name) == b"tbaa").map(|&(id, _)| id);
        let string_first =
            |ops: &[u64]| ops.first().and_then(|s| s.checked_sub(1)).is_some_and(|s| module.string(input, s).is_some());
        let old_tbaa = tbaa_kind.is_some()
            && module.entries.iter().any(|e| {
                let ops = module.ops(e.ops);
                e.code == ids::METADATA_NODE
                    && ops.len() == 2
                    && string_first(ops)
                    && matches!(ops[1].checked_sub(1).and_then(entry), Some((ids::METADATA_NODE, _)))
            });
        if !old_variables && !old_subprograms && !old_type_refs && !old_tbaa {
            return;
        }
        let base = self.module_len;
        let mut table = MdTable { base, ..MdTable::default() };
        // Pushes a record; its id.
        let push = |table: &mut MdTable, code: u32, ops: &[u64]| -> u64 {
            let start = table.pool.len();
            table.pool.extend_from_slice(ops);
            table.entries.push(MdEntry { code, ops: OperandRange { start: start as u32, len: ops.len() as u32 } });
            base + table.entries.len() as u64 - 1
        };
        // `!DIExpression()`, as an operand (id + 1).
        let empty = push(&mut table, ids::METADATA_EXPRESSION, &[3 << 1]) + 1;
        let mut aliases: Vec<(u64, u64)> = Vec::new();
        let mut attachments: BTreeMap<u64, Vec<(u64, u64)>> = BTreeMap::new();
        // Module node → its struct-path tag: `!{X, X, i64 0}`, or for a scalar tag with
        // its constant flag `!{T, T, i64 0, flag}` with `T = !{name, parent}`.
        let mut tbaa_tags: BTreeMap<u64, u64> = BTreeMap::new();
        if old_tbaa {
            let zero = push(&mut table, SYNTHETIC_INT, &[64, 0]) + 1;
            let mut unique = UniqueTuples { module, existing: None, new: Vec::new() };
            for (id, e) in module.entries.iter().enumerate() {
                let ops = module.ops(e.ops);
                if e.code != ids::METADATA_NODE || !string_first(ops) {
                    continue;
                }
                let operand = id as u64 + 1;
                let tag = match ops {
                    [_] | [_, _] => push(&mut table, ids::METADATA_NODE, &[operand, operand, zero]),
                    &[name, parent, flag] => {
                        let scalar = match unique.get(alloc::vec![name, parent]) {
                            t if t <= u64::MAX / 2 => t,
                            _ => push(&mut table, ids::METADATA_NODE, &[name, parent]) + 1,
                        };
                        push(&mut table, ids::METADATA_NODE, &[scalar, scalar, zero, flag])
                    }
                    _ => continue,
                };
                tbaa_tags.insert(id as u64, tag);
            }
        }
        if old_type_refs {
            // A string operand naming an identified composite type: the type (id + 1).
            let resolved = |op: u64| -> Option<u64> {
                let name = module.string(input, op.checked_sub(1)?)?;
                identified.get(name).map(|&id| id + 1)
            };
            let mut new_tuples: Vec<(Vec<u64>, u64)> = Vec::new();
            let mut unique = UniqueTuples { module, existing: None, new: Vec::new() };
            for (id, e) in module.entries.iter().enumerate() {
                let ops = module.ops(e.ops);
                let mut record = ops.to_vec();
                let mut changed = false;
                for &i in type_ref_fields(e.code, ops) {
                    if let Some(r) = record.get(i).copied().and_then(resolved) {
                        record[i] = r;
                        changed = true;
                    }
                }
                // An old subroutine type's types: a tuple of type references
                // (`upgradeTypeRefArray`), made anew with them resolved.
                if e.code == ids::METADATA_SUBROUTINE_TYPE && ops.first().is_some_and(|&v| v < 2) {
                    let tuple = ops.get(2).and_then(|t| t.checked_sub(1)).and_then(entry);
                    if let Some((ids::METADATA_NODE, list)) = tuple {
                        if list.iter().any(|&op| resolved(op).is_some()) {
                            let list: Vec<u64> = list.iter().map(|&op| resolved(op).unwrap_or(op)).collect();
                            let operand = match unique.get(list.clone()) {
                                t if t <= u64::MAX / 2 => t,
                                _ => match new_tuples.iter().find(|(l, _)| *l == list) {
                                    Some(&(_, t)) => t,
                                    None => {
                                        let t = push(&mut table, ids::METADATA_NODE, &list) + 1;
                                        new_tuples.push((list, t));
                                        t
                                    }
                                },
                            };
                            record[2] = operand;
                            changed = true;
                        }
                    }
                }
                if changed {
                    let copy = push(&mut table, e.code, &record);
                    aliases.push((id as u64, copy));
                }
            }
        }
        for (id, e) in module.entries.iter().enumerate() {
            let ops = module.ops(e.ops);
            if e.code != ids::METADATA_GLOBAL_VAR || !old_layout(ops) {
                continue;
            }
            let id = id as u64;
            // Operand 9: the variable, its value, or an expression.
            let value = ops[9].checked_sub(1).and_then(entry);
            let (attach, expression) = match value {
                Some((ids::METADATA_VALUE, &[ty, value, ..])) => match m.values.get(value as usize) {
                    Some(crate::ir::GlobalRef::Var(_)) => (Some(value), None),
                    Some(_) => (None, None),
                    None => match b.constants().get(value).map(|c| &c.kind) {
                        Some(crate::ir::ConstantKind::Int(v)) => {
                            let width = match m.types.get(crate::ir::TypeId(ty as u32)) {
                                Some(crate::ir::Type::Integer(w)) => *w,
                                _ => 64,
                            };
                            let v = if width >= 64 { *v as u64 } else { (*v as u64) & ((1 << width) - 1) };
                            let ops = [3 << 1, DW_OP_CONSTU, v, DW_OP_STACK_VALUE];
                            (None, Some(push(&mut table, ids::METADATA_EXPRESSION, &ops) + 1))
                        }
                        _ => (None, None),
                    },
                },
                Some(_) => (None, Some(ops[9])),
                None => (None, None),
            };
            if let Some(expression) = expression {
                let variable = push(&mut table, ids::METADATA_GLOBAL_VAR, ops) + 1;
                let dgve = push(&mut table, ids::METADATA_GLOBAL_VAR_EXPR, &[1, variable, expression]);
                aliases.push((id, dgve));
            } else if let Some(value_id) = attach {
                let dgve = push(&mut table, ids::METADATA_GLOBAL_VAR_EXPR, &[1, id + 1, empty]);
                attachments.entry(value_id).or_insert_with(|| module.attachments_of(value_id)).push((0, dgve));
            }
        }
        let aliased = |id: u64| aliases.iter().find(|a| a.0 == id).map_or(id, |a| a.1);
        // A node that is a `DIGlobalVariable` once the ids are read.
        let is_variable =
            |id: u64| id < base && aliased(id) == id && matches!(entry(id), Some((ids::METADATA_GLOBAL_VAR, _)));
        let units: Vec<u64> = module
            .named_nodes()
            .filter(|(name, _)| *name == b"llvm.dbg.cu")
            .flat_map(|(_, ops)| ops.iter().copied())
            .collect();
        // Copies of module nodes: (old id, new id).
        let mut tuples: Vec<(u64, u64)> = Vec::new();
        // LLVM 3.8's subprograms: the function gets `!dbg` the subprogram (a definition's,
        // `FunctionsWithSPs`), and a subprogram in a unit's `subprograms` gets the unit
        // (`upgradeCUSubprograms`): a copy with the unit where the function was.
        let mut subprograms: BTreeMap<usize, u64> = BTreeMap::new();
        for (id, e) in module.entries.iter().enumerate() {
            let ops = module.ops(e.ops);
            if e.code != ids::METADATA_SUBPROGRAM || !with_function(ops) {
                continue;
            }
            if let Some((ids::METADATA_VALUE, &[_, value, ..])) = ops[15].checked_sub(1).and_then(entry) {
                if let Some(&crate::ir::GlobalRef::Function(index)) = m.values.get(value as usize) {
                    if m.functions.get(index).is_some_and(|f| !f.is_declaration) {
                        subprograms.insert(index, id as u64);
                    }
                }
            }
        }
        for &unit in &units {
            let Some((ids::METADATA_COMPILE_UNIT, ops)) = entry(unit) else { continue };
            let list = match ops.get(COMPILE_UNIT_SUBPROGRAMS).and_then(|l| l.checked_sub(1)).and_then(entry) {
                Some((ids::METADATA_NODE, list)) => list,
                _ => continue,
            };
            for sp in list.iter().filter_map(|op| op.checked_sub(1)) {
                let Some((ids::METADATA_SUBPROGRAM, record)) = entry(sp) else { continue };
                if !with_function(record) || tuples.iter().any(|a| a.0 == sp) {
                    continue;
                }
                let mut record = record.to_vec();
                record[0] |= 2;
                record[15] = unit + 1;
                let copy = push(&mut table, ids::METADATA_SUBPROGRAM, &record);
                tuples.push((sp, copy));
            }
        }
        for unit in units.iter().copied().filter(|_| old_variables) {
            let Some((ids::METADATA_COMPILE_UNIT, ops)) = entry(unit) else { continue };
            let Some(globals) = ops.get(COMPILE_UNIT_GLOBALS).and_then(|g| g.checked_sub(1)) else { continue };
            if tuples.iter().any(|a| a.0 == globals) {
                continue; // a tuple two units share, done
            }
            let Some((ids::METADATA_NODE, list)) = entry(globals) else { continue };
            if !list.iter().any(|op| op.checked_sub(1).is_some_and(is_variable)) {
                continue;
            }
            let list: Vec<u64> = list
                .iter()
                .map(|&op| match op.checked_sub(1) {
                    Some(v) if is_variable(v) => push(&mut table, ids::METADATA_GLOBAL_VAR_EXPR, &[1, op, empty]) + 1,
                    _ => op,
                })
                .collect();
            let tuple = push(&mut table, ids::METADATA_NODE, &list);
            tuples.push((globals, tuple));
        }
        for g in m.globals.iter().filter(|_| old_variables) {
            let value_id = g.common.value_id;
            let pairs = attachments.get(&value_id).cloned().unwrap_or_else(|| module.attachments_of(value_id));
            if !pairs.iter().any(|&(kind, node)| kind == 0 && is_variable(node)) {
                continue;
            }
            let pairs = pairs
                .into_iter()
                .map(|(kind, node)| match kind == 0 && is_variable(node) {
                    true => (kind, push(&mut table, ids::METADATA_GLOBAL_VAR_EXPR, &[1, node + 1, empty])),
                    false => (kind, node),
                })
                .collect();
            attachments.insert(value_id, pairs);
        }
        let first_key = self.next_key;
        let len = table.len();
        self.next_key = self.next_key.saturating_add(len);
        self.alias.resize(self.alias.len() + len as usize, NO_ALIAS);
        self.upgrade_scope = Some(self.scopes.len());
        self.scopes.push(Scope { first_key, table, locations: Vec::new() });
        for (old, new) in aliases.into_iter().chain(tuples) {
            if let Some(a) = usize::try_from(old).ok().and_then(|k| self.alias.get_mut(k)) {
                *a = first_key + (new - base);
            }
        }
        self.global_attachments = attachments;
        self.function_subprograms = subprograms;
        self.tbaa_kind = tbaa_kind.filter(|_| !tbaa_tags.is_empty());
        self.tbaa_tags = tbaa_tags.into_iter().map(|(id, tag)| (id, first_key + (tag - base))).collect();
    }

    /// LLVM 17's `upgradeCULocals`: an imported entity in a compile unit's `imports` whose
    /// scope is local (a subprogram or a lexical block in one) moves to its subprogram's
    /// `retainedNodes` (appended); the unit gets a new `imports` tuple without it. The
    /// changed units and subprograms, and the new tuples (or the module's equal uniqued
    /// tuple, as `MDTuple::get` finds it), are a scope of their own after the module's
    /// ids, and the old units and subprograms are aliases of their new copies.
    fn move_local_imports(&mut self, b: &Bodies<'_, '_>) {
        use crate::ir::metadata::di::{COMPILE_UNIT_IMPORTS, subprogram_retained_nodes_index};
        let module = b.module_metadata();
        let entry = |id: u64| module.entry(id).map(|e| (e.code, module.ops(e.ops)));
        // Operand `i` of a record: a node id, or none.
        let node_at = |ops: &[u64], i: usize| ops.get(i).and_then(|&v| v.checked_sub(1));
        let tuple = |id: Option<u64>| -> Vec<u64> {
            match id.and_then(entry) {
                Some((ids::METADATA_NODE, ops)) => ops.to_vec(),
                _ => Vec::new(),
            }
        };
        let enclosing_subprogram = |mut scope: u64| -> Option<u64> {
            for _ in 0..256 {
                match entry(scope)? {
                    (ids::METADATA_SUBPROGRAM, _) => return Some(scope),
                    (ids::METADATA_LEXICAL_BLOCK | ids::METADATA_LEXICAL_BLOCK_FILE, ops) => scope = node_at(ops, 1)?,
                    _ => return None,
                }
            }
            None
        };
        let is_local_scope = |scope: u64| {
            matches!(
                entry(scope),
                Some((ids::METADATA_SUBPROGRAM | ids::METADATA_LEXICAL_BLOCK | ids::METADATA_LEXICAL_BLOCK_FILE, _))
            )
        };
        let units: Vec<u64> = module
            .named_nodes()
            .filter(|(name, _)| *name == b"llvm.dbg.cu")
            .flat_map(|(_, ops)| ops.iter().copied())
            .collect();
        // (old node, new record's code and operands), and the new tuples.
        let mut copies: Vec<(u64, u32, Vec<u64>)> = Vec::new();
        let mut unique_tuples = UniqueTuples { module, existing: None, new: Vec::new() };
        let mut by_subprogram: BTreeMap<u64, Vec<u64>> = BTreeMap::new();
        for &unit in &units {
            let Some((ids::METADATA_COMPILE_UNIT, ops)) = entry(unit) else { continue };
            let imports = tuple(node_at(ops, COMPILE_UNIT_IMPORTS));
            let local = |op: &u64| {
                op.checked_sub(1).and_then(entry).is_some_and(|(code, e)| {
                    code == ids::METADATA_IMPORTED_ENTITY && node_at(e, 2).is_some_and(is_local_scope)
                })
            };
            if !imports.iter().any(local) {
                continue;
            }
            for op in imports.iter().filter(|op| local(op)) {
                let Some((_, e)) = op.checked_sub(1).and_then(entry) else { continue };
                if let Some(sp) = node_at(e, 2).and_then(enclosing_subprogram) {
                    by_subprogram.entry(sp).or_default().push(*op);
                }
            }
            let kept: Vec<u64> = imports.iter().copied().filter(|op| !local(op)).collect();
            let mut record = ops.to_vec();
            record[COMPILE_UNIT_IMPORTS] = unique_tuples.get(kept);
            copies.push((unit, ids::METADATA_COMPILE_UNIT, record));
        }
        for (sp, entities) in by_subprogram {
            let Some((code, ops)) = entry(sp) else { continue };
            let Some(index) = subprogram_retained_nodes_index(ops) else { continue };
            let mut retained = tuple(node_at(ops, index));
            retained.extend(entities);
            let mut record = ops.to_vec();
            record[index] = unique_tuples.get(retained);
            copies.push((sp, code, record));
        }
        if copies.is_empty() {
            return;
        }
        // The scope: the copies, then the tuples (ids from the module's count on).
        let mut table = MdTable { base: self.module_len, ..MdTable::default() };
        let tuple_base = self.module_len + copies.len() as u64;
        let push = |table: &mut MdTable, code: u32, ops: &[u64]| {
            let start = table.pool.len();
            table.pool.extend_from_slice(ops);
            table.entries.push(MdEntry { code, ops: OperandRange { start: start as u32, len: ops.len() as u32 } });
        };
        for (_, code, record) in &mut copies {
            // New tuples were numbered from `u64::MAX / 2`: their ids in this scope.
            for op in record.iter_mut() {
                if let Some(i) = op.checked_sub(1 + u64::MAX / 2) {
                    *op = tuple_base + i + 1;
                }
            }
            push(&mut table, *code, record);
        }
        for t in &unique_tuples.new {
            push(&mut table, ids::METADATA_NODE, t);
        }
        let first_key = self.next_key;
        let len = table.len();
        self.next_key = self.next_key.saturating_add(len);
        self.alias.resize(self.alias.len() + len as usize, NO_ALIAS);
        self.scopes.push(Scope { first_key, table, locations: Vec::new() });
        for (i, (old, _, _)) in copies.iter().enumerate() {
            if let Some(a) = usize::try_from(*old).ok().and_then(|k| self.alias.get_mut(k)) {
                *a = first_key + i as u64;
            }
        }
    }

    /// The key of instruction `inst`'s `!dbg` location in function scope `scope`.
    pub(crate) fn location_key(&self, scope: usize, inst: &Instruction) -> Option<u64> {
        if self.strips_debug_info() {
            return None;
        }
        self.scopes.get(scope)?.locations.get(inst.debug_loc? as usize).copied()
    }

    /// The key of attachment `(kind, node)` of an instruction seen from `scope`: an old
    /// scalar TBAA tag's struct-path tag as LLVM's reader makes it (`UpgradeTBAANode`).
    pub(crate) fn instruction_attachment_key(&self, scope: Option<usize>, kind: u64, node: u64) -> Option<u64> {
        if self.tbaa_kind == Some(kind) {
            if let Some(&tag) = self.tbaa_tags.get(&node) {
                return Some(tag);
            }
        }
        self.key(scope, node)
    }

    /// Whether LLVM's reader strips the module's debug info ([`Self::stripped_kinds`]).
    pub(crate) fn strips_debug_info(&self) -> bool {
        !self.stripped_kinds.is_empty()
    }

    /// Whether an attachment of kind `kind` (the file's id) is kept.
    pub(crate) fn keeps_attachment(&self, kind: u64) -> bool {
        !self.stripped_kinds.contains(&kind)
    }

    /// Whether named metadata `name` is dropped: `llvm.dbg.*` and `llvm.gcov` of a
    /// module whose debug info is stripped.
    pub(crate) fn strips_named(&self, name: &[u8]) -> bool {
        self.strips_debug_info() && (name.starts_with(b"llvm.dbg.") || name == b"llvm.gcov")
    }

    /// The key of id `id` seen from `scope` (a function's, or the module's).
    pub(crate) fn key(&self, scope: Option<usize>, id: u64) -> Option<u64> {
        if id < self.module_len {
            return Some(self.canonical(id));
        }
        let s = self.scopes.get(scope.or(self.upgrade_scope)?)?;
        let offset = id.checked_sub(s.table.base)?;
        (offset < s.table.len()).then(|| self.canonical(s.first_key + offset))
    }

    /// The key of operand `id` of named node `name`: the file's node, or for an entry of
    /// `!llvm.module.flags` the reader upgrades, the new node it lists instead.
    pub(crate) fn named_key(&self, name: &[u8], id: u64) -> Option<u64> {
        let key = self.key(None, id)?;
        if name == b"llvm.module.flags" {
            if let Some(&(new, ..)) = self.flag_nodes.iter().find(|f| f.1 == key) {
                return Some(new);
            }
        }
        Some(key)
    }

    /// For a node `UpgradeModuleFlags` made, what it changed.
    pub(crate) fn upgraded_flag(&self, key: u64) -> Option<&UpgradedFlag> {
        self.flag_nodes.iter().find(|f| f.0 == key).map(|f| &f.2)
    }

    /// The node a key is the same as: itself, or the first of its content.
    pub(crate) fn canonical(&self, key: u64) -> u64 {
        match self.alias.get(key as usize) {
            Some(&a) if a != NO_ALIAS => a,
            _ => key,
        }
    }

    /// The table a key is in, its scope and its id there.
    pub(crate) fn locate(&self, key: u64) -> Option<(Option<usize>, u64)> {
        if key < self.module_len {
            return Some((None, key));
        }
        if let Some(&(_, file_key, ..)) = self.flag_nodes.iter().find(|f| f.0 == key) {
            return self.locate(file_key);
        }
        let i = self.scopes.partition_point(|s| s.first_key <= key).checked_sub(1)?;
        let s = &self.scopes[i];
        let offset = key - s.first_key;
        (offset < s.table.len()).then_some((Some(i), s.table.base + offset))
    }

    /// The table of a scope.
    pub(crate) fn table<'t>(&'t self, b: &'t Bodies<'_, '_>, scope: Option<usize>) -> &'t MdTable {
        match scope.and_then(|s| self.scopes.get(s)) {
            Some(s) => &s.table,
            None => b.module_metadata(),
        }
    }

    /// The node a key is.
    pub(crate) fn node<'t>(&'t self, b: &'t Bodies<'_, '_>, key: u64) -> Option<(Option<usize>, MetadataNode<'t>)> {
        let (scope, id) = self.locate(key)?;
        let function = scope.and_then(|s| self.scopes.get(s)).map(|s| &s.table);
        Some((scope, crate::ir::metadata::node_in_scope(b.module_metadata(), function, b.input(), id)?))
    }

    /// The elements of DIExpression `key` as LLVM reads them: those of an older element
    /// layout upgraded ([`crate::ir::upgrade::upgraded_expression`]). `None` if `key` is
    /// not an expression.
    pub(crate) fn expression<'t>(&'t self, b: &'t Bodies<'_, '_>, key: u64) -> Option<Cow<'t, [u64]>> {
        let (_, MetadataNode::Expression { version, elements }) = self.node(b, key)? else { return None };
        Some(match crate::ir::upgrade::upgraded_expression(version, elements) {
            Some(upgraded) => Cow::Owned(upgraded),
            None => Cow::Borrowed(elements),
        })
    }

    /// A uniqued node is one node with any other of the same content, as `MDNode::get`
    /// makes it: locations (by their fields) and tuples (by their operands, each the
    /// node it is once merged). Operands come before their users in every file LLVM's
    /// writer makes, so one pass in id order merges chains too.
    fn register_uniqued(&mut self, b: &Bodies<'_, '_>, scope: Option<usize>, id: u64, e: MdEntry) {
        if e.code == ids::METADATA_NODE {
            return self.register_tuple(b, scope, id, e);
        }
        if e.code != ids::METADATA_LOCATION {
            return;
        }
        let table = self.table(b, scope);
        let ops = table.ops(e.ops);
        if ops.first().is_some_and(|d| d & 1 != 0) {
            return; // distinct
        }
        let field = |i: usize| ops.get(i).copied().unwrap_or(0);
        let scope_key = self.key(scope, field(3)).unwrap_or(u64::MAX);
        let ia_key = field(4).checked_sub(1).and_then(|ia| self.key(scope, ia)).unwrap_or(u64::MAX);
        let content = [field(1), field(2), scope_key, ia_key, field(5), field(6), field(7)];
        let Some(key) = self.key(scope, id) else { return };
        let first = self.locations.get_or_insert(content, key);
        if first != key {
            if let Some(a) = usize::try_from(key).ok().and_then(|k| self.alias.get_mut(k)) {
                *a = first;
            }
        }
    }

    /// Values as metadata (`METADATA_VALUE`) LLVM holds as one (`ValueAsMetadata::get` of
    /// one value) are one key, before the tuples naming them are registered: in a
    /// typed-pointer module read with opaque pointers, `undef`, `poison` and `null` of two
    /// pointer types of one address space are one constant, and a value the fold made
    /// another (`bitcast (%T* @g to i8*)` is `ptr @g`) is that one. So LDC's
    /// `!{%A* undef}` and `!{%B* undef}` are one `!{ptr undef}` from LLVM 15.
    fn merge_equal_values(&mut self, v: &ModuleView<'_, '_, '_>) {
        let b = v.bodies();
        if !(v.reads_opaque() && b.typed_pointers()) {
            return;
        }
        let module = b.module_metadata();
        let types = v.types();
        let mut first_of: BTreeMap<(u8, Vec<u64>), u64> = BTreeMap::new();
        for (id, e) in module.entries.iter().enumerate() {
            if e.code != ids::METADATA_VALUE {
                continue;
            }
            let &[_, value, ..] = module.ops(e.ops) else { continue };
            let resolved = v.resolve(value);
            let mut shape = Vec::new();
            let tag = match v.constants().get(resolved) {
                Some(c) if opaque_shape(types, c.ty, &mut shape, 0) => match c.kind {
                    crate::ir::ConstantKind::Undef => 1,
                    crate::ir::ConstantKind::Poison => 2,
                    crate::ir::ConstantKind::Null => 3,
                    _ => 0,
                },
                _ => 0,
            };
            if tag == 0 {
                shape.clear();
                shape.push(resolved);
            }
            let identity = (tag, shape);
            let first = *first_of.entry(identity).or_insert(id as u64);
            if first != id as u64 {
                if let Some(a) = self.alias.get_mut(id) {
                    *a = first;
                }
            }
        }
    }

    /// A uniqued tuple (`METADATA_NODE`) is one node with the first of the same operands.
    fn register_tuple(&mut self, b: &Bodies<'_, '_>, scope: Option<usize>, id: u64, e: MdEntry) {
        let Some(key) = self.key(scope, id) else { return };
        let mut content = core::mem::take(&mut self.refs);
        content.clear();
        for &op in self.table(b, scope).ops(e.ops) {
            // An operand is its id + 1, 0 for none; a merged one is its first node's key.
            content.push(op.checked_sub(1).map_or(u64::MAX, |id| self.key(scope, id).unwrap_or(u64::MAX - 1)));
        }
        let first = match self.tuples.get(&content) {
            Some(&first) => first,
            None => {
                self.tuples.insert(content.clone(), key);
                key
            }
        };
        self.refs = content;
        if first != key {
            if let Some(a) = usize::try_from(key).ok().and_then(|k| self.alias.get_mut(k)) {
                *a = first;
            }
        }
    }
}

/// Type `ty` as opaque pointers make it, written to `out` so that two types LLVM then holds
/// as one write the same: a pointer is its address space, a literal struct, array or
/// vector its elements', any other type its id (the file's types are unique). `false`
/// where it nests too deep.
fn opaque_shape(
    types: &crate::ir::module::types::TypeTable,
    ty: crate::ir::TypeId,
    out: &mut Vec<u64>,
    depth: usize,
) -> bool {
    use crate::ir::Type;
    if depth > 32 {
        return false;
    }
    match types.get(ty) {
        Some(Type::Pointer { address_space, .. }) => out.extend([1, *address_space]),
        Some(Type::Struct { identified: false, packed, elements: Some(elements), .. }) => {
            out.extend([2, u64::from(*packed), elements.len() as u64]);
            for &e in elements {
                if !opaque_shape(types, e, out, depth + 1) {
                    return false;
                }
            }
        }
        Some(Type::Array { len, element }) => {
            out.extend([3, *len]);
            return opaque_shape(types, *element, out, depth + 1);
        }
        Some(Type::Vector { len, element, scalable }) => {
            out.extend([4, *len, u64::from(*scalable)]);
            return opaque_shape(types, *element, out, depth + 1);
        }
        _ => out.extend([5, u64::from(ty.0)]),
    }
    true
}
