//! The order `llvm-dis` prints a module's identified structs in: LLVM's `TypeFinder`
//! (TypeFinder.cpp), which the AsmWriter runs over the whole module before printing. It
//! meets types through global variables (value type, then initializer), aliases, ifuncs,
//! then every function (its type, its type attributes, its personality, prefix and
//! prologue, then each instruction's type, constant operands, GEP source and alloca types,
//! call attributes, non-`!dbg` attachments and debug-record values), and last the named
//! metadata. A struct nothing reaches is not printed at all.
//!
//! The walk is the same depth-first walk as LLVM's, with explicit stacks: a type is
//! marked when pushed (as `TypeFinder::incorporateType` marks it), a constant or a
//! metadata node when taken off the stack (as the recursive `incorporateValue` and
//! `incorporateMDNode` do on entry), which gives the same order.

use alloc::vec::Vec;

use crate::ids::llvm_ir::raw as ids;
use crate::ir::body::{Bodies, Body, InstKind, Operand, Value};
use crate::ir::module::constants::ConstantKind;
use crate::ir::module::types::{Type, TypeId};
use crate::ir::view::ModuleView;
use crate::ir::{AttrIndex, Attribute, MetadataNode};

/// Something left to look at: a value (by value id) or a metadata node (by id).
#[derive(Clone, Copy)]
enum Item {
    Value(u64),
    Node(u64),
}

struct Finder<'f, 'm, 'a> {
    b: &'f Bodies<'m, 'a>,
    /// The module as the printing version reads it: its constants are folded (the
    /// no-op expressions LLVM folds away are not there to be walked).
    view: &'f ModuleView<'f, 'm, 'a>,
    /// Printing with opaque pointers: a pointer type contains no pointee.
    opaque: bool,
    /// Whether LLVM's reader strips the module's debug info
    /// ([`crate::ir::upgrade::strips_debug_info`]).
    strips_debug_info: bool,
    /// Types met (marked when pushed, as LLVM marks them).
    types: Vec<bool>,
    /// Module constants met, by index from the table's base.
    module_constants: Vec<bool>,
    /// The current function's constants met.
    local_constants: Vec<bool>,
    /// Module metadata nodes met, by id.
    module_nodes: Vec<bool>,
    /// The current function's metadata nodes met, by index from its table's base.
    local_nodes: Vec<bool>,
    /// Identified structs, in the order met.
    structs: Vec<TypeId>,
    /// Identified structs not met yet: the walk stops when none is left.
    remaining: usize,
    type_stack: Vec<TypeId>,
    stack: Vec<Item>,
    /// Scratch storage, reused so that the walk allocates per module, not per operand:
    /// an item's operands, a node's references, an attribute list's groups.
    items: Vec<Item>,
    refs: Vec<u64>,
    indices: Vec<AttrIndex>,
}

/// The module's identified structs in `TypeFinder`'s order. `body` is scratch storage
/// for the function bodies, which are decoded until every identified struct is met (a
/// body that fails to decode counts for what was read of it).
pub(crate) fn struct_order(v: &ModuleView<'_, '_, '_>, body: &mut Body) -> Vec<TypeId> {
    let b = v.bodies();
    let mut finder = StructFinder::new(v);
    for (index, function) in b.module().functions.iter().enumerate() {
        if !finder.wants_bodies() {
            break;
        }
        if function.is_declaration {
            continue;
        }
        let decoded = v.body_into(index, body);
        finder.function(index, (!matches!(decoded, Ok(false))).then_some(&*body));
    }
    finder.finish()
}

/// [`struct_order`] fed from outside: the bodies come from whoever decodes them in order
/// (the printer numbering its metadata), so that a walk of the module decodes each once.
pub(crate) struct StructFinder<'f, 'm, 'a> {
    finder: Finder<'f, 'm, 'a>,
    /// The functions before this index have been looked at.
    next: usize,
}

impl<'f, 'm, 'a> StructFinder<'f, 'm, 'a> {
    /// The walk of the global variables, aliases and ifuncs made.
    pub(crate) fn new(view: &'f ModuleView<'f, 'm, 'a>) -> Self {
        let b = view.bodies();
        let m = b.module();
        let mut f = Finder {
            b,
            view,
            opaque: view.reads_opaque(),
            strips_debug_info: view.strips_debug_info(),
            types: alloc::vec![false; m.types.len()],
            module_constants: alloc::vec![false; view.constants().constants.len()],
            local_constants: Vec::new(),
            module_nodes: alloc::vec![false; b.module_metadata().entries.len()],
            local_nodes: Vec::new(),
            structs: Vec::new(),
            remaining: m.types.types.iter().filter(|t| t.is_identified_struct()).count(),
            type_stack: Vec::new(),
            stack: Vec::new(),
            items: Vec::new(),
            refs: Vec::new(),
            indices: Vec::new(),
        };
        for g in &m.globals {
            f.ty(g.common.value_type);
            if let Some(init) = g.initializer {
                f.value(view.resolve(init), None);
            }
        }
        for a in m.aliases.iter().filter(|a| !a.is_ifunc) {
            f.ty(a.common.value_type);
            f.value(view.resolve(a.target), None);
        }
        for a in m.aliases.iter().filter(|a| a.is_ifunc) {
            f.ty(a.common.value_type);
        }
        StructFinder { finder: f, next: 0 }
    }

    /// Whether a body can still show a struct not met yet.
    pub(crate) fn wants_bodies(&self) -> bool {
        self.finder.remaining > 0
    }

    /// Looks at function `index` with its decoded `body` (`None`: a declaration, or a
    /// body past the break of a cut file), and first at the functions before it not
    /// looked at yet, which have none. Indices come in increasing order.
    pub(crate) fn function(&mut self, index: usize, body: Option<&Body>) {
        let functions = &self.finder.b.module().functions;
        while self.next <= index && self.next < functions.len() {
            if self.finder.remaining == 0 {
                return;
            }
            let i = self.next;
            self.next += 1;
            let function = &functions[i];
            let f = &mut self.finder;
            f.ty(function.common.value_type);
            f.function_attributes(i);
            // Function::operands(): personality, prefix, prologue.
            for v in [function.personality, function.prefix, function.prologue].into_iter().flatten() {
                f.value(f.view.resolve(v), None);
            }
            if let Some(body) = body.filter(|_| i == index && !function.is_declaration) {
                f.function(body);
            }
        }
    }

    /// The structs in the order met, once the functions left and the named metadata
    /// have been looked at.
    pub(crate) fn finish(mut self) -> Vec<TypeId> {
        let b = self.finder.b;
        self.function(b.module().functions.len().saturating_sub(1), None);
        let f = &mut self.finder;
        if f.remaining == 0 {
            return core::mem::take(&mut f.structs);
        }
        let md = b.module_metadata();
        for &(name, ops) in &md.named {
            let name = md.owned_bytes(name);
            if f.strips_debug_info && (name.starts_with(b"llvm.dbg.") || name == b"llvm.gcov") {
                continue;
            }
            for &id in md.ops(ops) {
                f.node(id, None);
            }
        }
        core::mem::take(&mut f.structs)
    }
}

impl Finder<'_, '_, '_> {
    /// `incorporateType`.
    fn ty(&mut self, ty: TypeId) {
        let types = &self.b.module().types;
        match self.types.get_mut(ty.0 as usize) {
            Some(seen @ false) => *seen = true,
            _ => return,
        }
        self.type_stack.push(ty);
        while let Some(ty) = self.type_stack.pop() {
            let Some(t) = types.get(ty) else { continue };
            if t.is_identified_struct() {
                self.structs.push(ty);
                self.remaining = self.remaining.saturating_sub(1);
            }
            if self.opaque && matches!(t, Type::Pointer { .. }) {
                continue;
            }
            // LLVM walks the subtypes last to first, marking each as it pushes it: a
            // subtype met twice is pushed at its last place (so taken after whatever
            // lies between), and the first subtype ends on top.
            let first = self.type_stack.len();
            self.type_stack.extend(t.contained().filter(|sub| self.types.get(sub.0 as usize) == Some(&false)));
            self.type_stack[first..].reverse();
            let mut kept = first;
            for i in first..self.type_stack.len() {
                let sub = self.type_stack[i];
                if let Some(seen @ false) = self.types.get_mut(sub.0 as usize) {
                    *seen = true;
                    self.type_stack[kept] = sub;
                    kept += 1;
                }
            }
            self.type_stack.truncate(kept);
        }
    }

    /// `incorporateAttributes` of function `function`: the types of its type attributes,
    /// function attributes first, then the return value's, then each parameter's, as the
    /// reading version holds them.
    fn function_attributes(&mut self, function: usize) {
        let params = match self.view.function_type(function).and_then(|t| self.view.types().get(t)) {
            Some(Type::Function { params, .. }) => params.len(),
            _ => 0,
        };
        let indices =
            [AttrIndex::Function, AttrIndex::Return].into_iter().chain((0..params as u64).map(AttrIndex::Param));
        for index in indices {
            let set = self.view.function_attributes(function, index);
            self.type_attributes(&set);
        }
    }

    /// `incorporateAttributes` of call `inst`: the types of its type attributes
    /// (`byval(%T)`), function attributes first, then the return value's, then each
    /// argument's, as the reading version holds them.
    fn call_attributes(&mut self, body: &Body, inst: usize) {
        let view = self.view;
        let Some(site) = view.call_site(body, inst) else { return };
        let mut indices = core::mem::take(&mut self.indices);
        indices.clear();
        site.indices(&mut indices);
        for &index in &indices {
            self.type_attributes(&site.attributes(index));
        }
        self.indices = indices;
    }

    /// The types of type attributes (`byval(%T)`), in order.
    fn type_attributes(&mut self, attributes: &[Attribute]) {
        for a in attributes {
            if let Attribute::Type(_, Some(ty)) = a {
                self.ty(*ty);
            }
        }
    }

    /// One function body: its constants and metadata are its own.
    fn function(&mut self, body: &Body) {
        self.local_constants.clear();
        self.local_constants.resize(body.constants.constants.len(), false);
        self.local_nodes.clear();
        self.local_nodes.resize(body.metadata.entries.len(), false);
        let mut attachments = body.attachments.iter().filter(|a| a.instruction.is_some()).peekable();
        let mut records = body.debug_records.iter().peekable();
        let mut pairs: Vec<(u64, u64)> = Vec::new();
        for (i, inst) in body.instructions.iter().enumerate() {
            // Debug records stand before the instruction they are attached to; LLVM
            // looks at them after it.
            let before = records.clone();
            while records.next_if(|r| r.before as usize <= i).is_some() {}
            self.ty(inst.ty);
            let ops = body.operands(inst);
            let call = match &inst.kind {
                InstKind::Call { call, .. } | InstKind::Invoke(call) | InstKind::CallBr { call, .. } => Some(call),
                _ => None,
            };
            match call {
                // User::operands() of a call: arguments, bundle inputs, then the callee.
                Some(call) => {
                    let (callee, rest) = ops.split_first().map_or((None, ops), |(c, r)| (Some(c), r));
                    for o in rest {
                        self.operand(o, body);
                    }
                    for bundle in body.bundles.get(call.bundles.range()).unwrap_or(&[]) {
                        for o in body.operand_range(bundle.inputs) {
                            self.operand(o, body);
                        }
                    }
                    if let Some(o) = callee {
                        self.operand(o, body);
                    }
                }
                None => {
                    for o in ops {
                        self.operand(o, body);
                    }
                }
            }
            match &inst.kind {
                InstKind::GetElementPtr { source, .. } => self.ty(*source),
                InstKind::Alloca { allocated, .. } => self.ty(*allocated),
                _ => {}
            }
            if call.is_some() {
                self.call_attributes(body, i);
            }
            pairs.clear();
            while let Some(a) = attachments.next_if(|a| a.instruction.is_some_and(|n| n as usize <= i)) {
                if a.instruction == Some(i as u32) && a.kind != 0 {
                    pairs.push((a.kind, a.node));
                }
            }
            pairs.sort_by_key(|p| p.0);
            for &(_, node) in &pairs {
                self.node(node, Some(body));
            }
            let strips = self.strips_debug_info;
            for r in before.take_while(|r| r.before as usize <= i && !strips) {
                if r.code == ids::FUNC_CODE_DEBUG_RECORD_LABEL {
                    continue;
                }
                match r.value {
                    Some(o) => self.operand(&o, body),
                    // The location is metadata: a value as metadata or a DIArgList.
                    None => {
                        if let Some(&id) = body.literal_range(r.operands).get(3) {
                            self.metadata_value(id, body);
                        }
                    }
                }
            }
        }
    }

    /// An instruction operand: constants and metadata are looked into.
    fn operand(&mut self, o: &Operand, body: &Body) {
        match o.value {
            Value::Constant(id) => self.value(id, Some(body)),
            Value::Metadata(id) => self.metadata_value(id, body),
            _ => {}
        }
    }

    /// `incorporateValue` of a `MetadataAsValue`: a node, a value as metadata, or the
    /// values of a DIArgList.
    fn metadata_value(&mut self, id: u64, body: &Body) {
        let Some(node) = metadata_node(self.b, id, Some(body)) else { return };
        match node {
            MetadataNode::Value { value, .. } => self.value(value, Some(body)),
            MetadataNode::ArgList(args) => {
                let args: Vec<u64> = args.to_vec();
                for a in args {
                    if let Some(MetadataNode::Value { value, .. }) = metadata_node(self.b, a, Some(body)) {
                        self.value(value, Some(body));
                    }
                }
            }
            MetadataNode::String(_) => {}
            _ => self.node(id, Some(body)),
        }
    }

    /// `incorporateValue` of a constant (global values are not looked into), and what it
    /// leads to, depth first.
    fn value(&mut self, id: u64, body: Option<&Body>) {
        self.stack.clear();
        self.stack.push(Item::Value(id));
        self.walk(body);
    }

    /// `incorporateMDNode`.
    fn node(&mut self, id: u64, body: Option<&Body>) {
        self.stack.clear();
        self.stack.push(Item::Node(id));
        self.walk(body);
    }

    fn walk(&mut self, body: Option<&Body>) {
        let b = self.b;
        let module_md_len = b.module_metadata().len();
        let mut ops = core::mem::take(&mut self.items);
        let mut refs = core::mem::take(&mut self.refs);
        while let Some(item) = self.stack.pop() {
            ops.clear();
            match item {
                Item::Value(id) => {
                    // A module-level reference (a value as metadata) names what it folded to.
                    let id = self.view.resolve(id);
                    let (c, table) = match body {
                        Some(body) => match self.view.constant(body, id) {
                            Some(found) => found,
                            None => continue,
                        },
                        None => match self.view.constants().get(id) {
                            Some(c) => (c, self.view.constants()),
                            None => continue,
                        },
                    };
                    let local = body.is_some_and(|body| core::ptr::eq(table, &body.constants));
                    let seen = if local { &mut self.local_constants } else { &mut self.module_constants };
                    let Some(i) = id.checked_sub(table.base).and_then(|i| usize::try_from(i).ok()) else { continue };
                    match seen.get_mut(i) {
                        Some(s @ false) => *s = true,
                        _ => continue,
                    }
                    self.ty(c.ty);
                    if let ConstantKind::Gep { source, operands, .. } = c.kind {
                        match source {
                            Some(s) => self.ty(s),
                            // Old files: the base pointer's pointee.
                            None => {
                                if let Some(&t) = table.operands(operands).first() {
                                    if let Some(Type::Pointer { pointee: Some(p), .. }) =
                                        b.module().types.get(TypeId(t as u32))
                                    {
                                        self.ty(*p);
                                    }
                                }
                            }
                        }
                    }
                    c.kind.value_operands(table, |v| ops.push(Item::Value(v)));
                }
                Item::Node(id) => {
                    let local = id >= module_md_len;
                    let (seen, index) = if local {
                        let base = body.map_or(u64::MAX, |body| body.metadata.base);
                        (&mut self.local_nodes, id.checked_sub(base))
                    } else {
                        (&mut self.module_nodes, Some(id))
                    };
                    match index.and_then(|i| usize::try_from(i).ok()).and_then(|i| seen.get_mut(i)) {
                        Some(s @ false) => *s = true,
                        _ => continue,
                    }
                    refs.clear();
                    match metadata_node(self.b, id, body) {
                        Some(MetadataNode::Tuple { operands, .. }) => refs.extend_from_slice(operands),
                        Some(MetadataNode::Debug { code, operands }) => {
                            crate::ir::metadata::di::operands_in_llvm_order(code, operands, &mut refs)
                        }
                        Some(MetadataNode::OldTuple { pairs, .. }) => {
                            let metadata_type = b.metadata_type();
                            for p in pairs.chunks_exact(2) {
                                if Some(TypeId(p[0] as u32)) == metadata_type {
                                    refs.push(p[1].saturating_add(1));
                                } else if !matches!(b.module().types.get(TypeId(p[0] as u32)), Some(Type::Void)) {
                                    ops.push(Item::Value(p[1]));
                                }
                            }
                        }
                        _ => {}
                    }
                    for &r in &refs {
                        let Some(op) = r.checked_sub(1) else { continue };
                        match metadata_node(self.b, op, body) {
                            Some(MetadataNode::Value { value, .. }) => ops.push(Item::Value(value)),
                            Some(MetadataNode::String(_) | MetadataNode::ArgList(_)) | None => {}
                            Some(_) => ops.push(Item::Node(op)),
                        }
                    }
                }
            }
            self.stack.extend(ops.iter().rev());
        }
        self.items = ops;
        self.refs = refs;
    }
}

/// Metadata id `id`: the module's, or, past the module's ids, the function's.
fn metadata_node<'t>(b: &'t Bodies<'_, '_>, id: u64, body: Option<&'t Body>) -> Option<MetadataNode<'t>> {
    crate::ir::metadata::node_in_scope(b.module_metadata(), body.map(|body| &body.metadata), b.input(), id)
}
