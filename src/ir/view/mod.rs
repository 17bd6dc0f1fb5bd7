//! The module as LLVM N reads it: what LLVM's `BitcodeReader`, `MetadataLoader` and
//! `AutoUpgrade` build in memory from the file, for a chosen version, beside the file as
//! written ([`Module`], [`Bodies::body_as_written`]). [`Bodies::body`] is the newest
//! version's view's body.
//!
//! ```
//! use llvm_bitstream_reader::ir::{AttrIndex, Module};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/rustc_llvm22_o3.bc"))?;
//! let module = Module::parse(&bytes)?;
//! let bodies = module.bodies()?;
//! // As LLVM 22 reads it.
//! let view = bodies.view(22);
//! for (index, function) in module.functions.iter().enumerate() {
//!     // The function's attributes as LLVM 22's `AttributeSet` holds them: merged, upgraded, sorted.
//!     let list = function.attributes.and_then(|a| a.checked_sub(1)).map(|a| a as u32);
//!     for attribute in view.attributes(list, AttrIndex::Function) {
//!         let _ = (index, attribute.kind());
//!     }
//! }
//! # Ok(()) }
//! ```
//!
//! LLVM does not print a file: `llvm-dis` prints the module its reader built, and building
//! it changes what the file says, whoever wrote it. An `AttributeSet` is sorted and holds
//! one attribute of a kind; an older producer's attributes, intrinsics and debug info are
//! upgraded. The printer prints this view, and the typed API gives it, so that both say
//! what `llvm-dis` of that version says. What the view holds so far:
//! - attribute sets ([`ModuleView::attributes`]): each list's groups at an index merged
//!   (a kind written twice is the later one, a zero alignment none), upgraded for the
//!   version and sorted in its `AttributeSet` order.

mod attribute_order;
mod attributes;
mod body;
mod constants;
mod functions;
mod metadata;
mod metadata_graph;
mod module;

use alloc::borrow::Cow;
use alloc::collections::BTreeMap;
use alloc::vec::Vec;

use crate::error::Error;
use crate::ir::body::{Bodies, Body, Value};
use crate::ir::module::Module;
use crate::ir::module::attributes::{AttrIndex, Attribute, AttributeGroup, AttributeList};
use crate::ir::module::constants::{Constant, ModuleConstants};
use crate::ir::upgrade::ParamUpgrade;

use crate::ir::module::types::{Type, TypeId, TypeTable};
use crate::ir::vocabulary::datalayout::TypeLayout;
pub(crate) use attributes::{read_set, sort as sort_attributes};
pub(crate) use body::NO_LOCATION;
pub(crate) use constants::Folded;
use constants::Folder;
use functions::ViewFunction;
pub(crate) use functions::lifetime_leftover_name;
pub use functions::{CallUpgrade, Listed};
use metadata::MetadataFacts;
pub use metadata::UpgradedFlag;
pub(crate) use metadata_graph::{MetadataGraph, SYNTHETIC_INT};

/// One attribute list as LLVM holds it: each index's set, merged and sorted.
type ListSets = Vec<(AttrIndex, Vec<Attribute>)>;

/// The newest LLVM whose reading the view knows: the version of [`Bodies::body`].
pub const NEWEST_LLVM_VERSION: u32 = 22;

/// The module as LLVM `llvm_version` reads it: see the [module documentation](crate::ir::view).
/// Made by [`Bodies::view`]; it borrows the [`Bodies`] it was made from (and, for the
/// newest version, the state that `Bodies` keeps for it).
#[derive(Debug)]
pub struct ModuleView<'b, 'm, 'a> {
    bodies: &'b Bodies<'m, 'a>,
    state: State<'b>,
}

/// A view's state: made for the call, or the one its [`Bodies`] keeps.
#[derive(Debug)]
enum State<'b> {
    Made(alloc::boxed::Box<ViewState>),
    Kept(&'b ViewState),
}

impl ModuleView<'_, '_, '_> {
    /// What the view worked out from the module for its version.
    fn state(&self) -> &ViewState {
        match &self.state {
            State::Made(state) => state,
            State::Kept(state) => state,
        }
    }
}

/// What a [`ModuleView`] works out from the module once, for its version: everything but
/// the [`Bodies`] it reads, so that [`Bodies`] can keep the newest version's.
#[derive(Debug)]
pub(crate) struct ViewState {
    llvm_version: u32,
    /// By attribute list (an index of [`Module::attribute_lists`]): the set at each index
    /// it has attributes at, sorted by index (function, return, parameters).
    list_sets: Vec<ListSets>,
    /// By function: a declaration of an intrinsic the version knows has its intrinsic
    /// table's groups (`Intrinsic::getAttributes`) in place of its list's, and their sets.
    intrinsics: BTreeMap<usize, (Vec<AttributeGroup>, ListSets)>,
    /// The module's constants, folded.
    constants: Folded,
    /// Whether pointers are read as opaque (`ptr`).
    opaque: bool,
    /// The types: the file's, then the ones LLVM's reader makes (upgraded declarations'
    /// function types, `i1`, `i32`).
    types: TypeTable,
    /// `i1` and `i32` in `types`.
    i1: TypeId,
    i32: TypeId,
    /// `i64` in `types`, for the constants the reader makes.
    i64: TypeId,
    /// In a module of before LLVM 3.8 (no producer), `{ T, i1 }` in `types` for each
    /// integer and pointer type `T`: the result of a `cmpxchg` of before LLVM 3.5, which
    /// returned `T` alone (the reader makes it `{ T, i1 }` and extracts the `T`).
    cmpxchg_pairs: BTreeMap<TypeId, TypeId>,
    /// By function: its name, type and calls as LLVM reads them.
    functions: Vec<ViewFunction>,
    /// The functions in the order LLVM's module lists them.
    order: Vec<Listed>,
    /// The datalayout as the reader sets it (`UpgradeDataLayoutString`): printed, and the
    /// alignments the reader fills in come from it.
    datalayout: alloc::boxed::Box<str>,
    /// What the bodies take from the module's metadata, found on first use.
    facts: crate::ir::module::lazy_table::Once<MetadataFacts>,
}

impl<'m, 'a> Bodies<'m, 'a> {
    /// The module as LLVM `llvm_version` (13, 14, …, 22) reads it: see [`ModuleView`].
    /// Made once per call, in O(the module's attribute lists); that of the newest version
    /// ([`NEWEST_LLVM_VERSION`]) is made on the first call and kept, so asking for it again
    /// is free.
    pub fn view(&self, llvm_version: u32) -> ModuleView<'_, 'm, 'a> {
        let state = if llvm_version == NEWEST_LLVM_VERSION {
            State::Kept(self.newest_view())
        } else {
            State::Made(alloc::boxed::Box::new(ViewState::new(self, llvm_version)))
        };
        ModuleView { bodies: self, state }
    }
}

impl Bodies<'_, '_> {
    /// Function `function`'s body ([`Module::functions`](crate::ir::Module::functions)
    /// index) as the newest LLVM reads it: [`ModuleView::body`] of
    /// [`Bodies::view`]`(`[`NEWEST_LLVM_VERSION`]`)`, whose types ([`Bodies::types`]) its
    /// type ids index. `None` for a declaration. The
    /// body as the file has it is [`Bodies::body_as_written`].
    pub fn body(&self, function: usize) -> Result<Option<Body>, Error> {
        let mut body = Body::default();
        Ok(self.body_into(function, &mut body)?.then_some(body))
    }

    /// [`Bodies::body`] into `body`, reusing its tables' storage (no allocation in the
    /// steady state of a loop over many functions). `Ok(false)` for a declaration. On an
    /// error, `body` holds what was decoded before the break, as LLVM reads that.
    pub fn body_into(&self, function: usize, body: &mut Body) -> Result<bool, Error> {
        self.view(NEWEST_LLVM_VERSION).body_into(function, body)
    }

    /// The types the bodies of [`Bodies::body`] name: the file's, then those the newest
    /// LLVM's reader makes ([`ModuleView::types`]).
    pub fn types(&self) -> &TypeTable {
        &self.newest_view().types
    }

    /// The module constants `body`'s values name ([`Bodies::constant`]): the newest view's
    /// (folded, with the constants only it made) for its bodies, the file's otherwise.
    pub(crate) fn module_constants_of(&self, body: &Body) -> &ModuleConstants {
        match body.read_as {
            Some(NEWEST_LLVM_VERSION) => &self.newest_view().constants.table,
            _ => self.constants(),
        }
    }

    /// The state of the newest version's view, made on first use and kept in the
    /// [`Bodies`] (as a `dyn Any`: `Bodies` is below the view and does not name its types).
    pub(crate) fn newest_view(&self) -> &ViewState {
        let kept = self.newest_view.get_or_init(|| alloc::boxed::Box::new(ViewState::new(self, NEWEST_LLVM_VERSION)));
        match kept.downcast_ref::<ViewState>() {
            Some(state) => state,
            // Only this function fills the cell, always with a `ViewState`.
            None => unreachable!("the kept view state is a ViewState"),
        }
    }
}

/// The order of an attribute index in a list's sets: the function, the return value,
/// then the parameters.
fn index_order(index: AttrIndex) -> u64 {
    match index {
        AttrIndex::Function => 0,
        AttrIndex::Return => 1,
        AttrIndex::Param(n) => n.saturating_add(2),
    }
}

impl ViewState {
    fn new(bodies: &Bodies<'_, '_>, llvm_version: u32) -> Self {
        let m = bodies.module();
        let list_sets = (0..m.attribute_lists.len())
            .map(|list| sets_of(llvm_version, list_groups(bodies, Some(list as u32))))
            .collect();
        let intrinsics = (0..m.functions.len())
            .filter_map(|i| {
                let groups = m.intrinsic_attribute_groups(i, llvm_version)?;
                let sets = sets_of(llvm_version, groups.iter());
                Some((i, (groups, sets)))
            })
            .collect();
        let opaque = reads_opaque_pointers(bodies, llvm_version);
        let mut types = functions::Types { table: m.types.clone() };
        let view_functions = functions::functions(bodies, llvm_version, &mut types);
        let order = functions::order(bodies, llvm_version, &view_functions);
        let i1 = types.get_or_add(crate::ir::Type::Integer(1));
        let i32 = types.get_or_add(crate::ir::Type::Integer(32));
        // The context's i64, for the casts `UpgradeBitCastExpr` makes.
        let i64 = types.get_or_add(crate::ir::Type::Integer(64));
        let constants =
            Folder { llvm_version, types: &types.table, opaque, outer: None, i64: Some(i64) }.fold(bodies.constants());
        let cmpxchg_pairs =
            if m.producer.is_none() { functions::cmpxchg_pairs(&mut types, i1) } else { BTreeMap::new() };
        ViewState {
            llvm_version,
            list_sets,
            intrinsics,
            constants,
            opaque,
            types: types.table,
            i1,
            i32,
            i64,
            cmpxchg_pairs,
            functions: view_functions,
            order,
            datalayout: crate::ir::upgrade::upgraded_datalayout(
                llvm_version,
                m.datalayout.as_deref().unwrap_or(""),
                m.triple.as_deref().unwrap_or("").as_bytes(),
            )
            .into(),
            facts: crate::ir::module::lazy_table::Once::new(),
        }
    }
}

impl<'b, 'm, 'a> ModuleView<'b, 'm, 'a> {
    /// The datalayout as LLVM's reader sets it (`UpgradeDataLayoutString`): the file's
    /// (empty if it wrote none) with the specifications later LLVMs added for its target
    /// ([`upgrade::upgraded_datalayout`](crate::ir::upgrade::upgraded_datalayout)).
    pub fn datalayout(&self) -> &str {
        &self.state().datalayout
    }

    /// The datalayout's sizes and alignments.
    pub(crate) fn layout(&self) -> TypeLayout<'_> {
        TypeLayout::new(&self.state().datalayout)
    }

    /// The types as LLVM holds them: the file's (with their ids), then those its reader
    /// makes (the function types of upgraded intrinsic declarations, `{ T, i1 }` of an
    /// old `cmpxchg`).
    pub fn types(&self) -> &TypeTable {
        &self.state().types
    }

    /// Function `index`'s name as LLVM declares it: an intrinsic's renamed or remangled
    /// name, else the file's.
    pub fn function_name(&self, index: usize) -> Option<&[u8]> {
        let f = self.module().functions.get(index)?;
        Some(self.state().functions.get(index).and_then(|v| v.name.as_deref()).unwrap_or(&f.common.name))
    }

    /// Whether function `index` is named (as LLVM declares it) as an intrinsic (`llvm.…`)
    /// that this LLVM does not have, which `llvm-dis` 21 and later say above its
    /// declaration (`; Unknown intrinsic`).
    pub fn is_unknown_intrinsic(&self, index: usize) -> bool {
        let Some(name) = self.function_name(index) else { return false };
        self.state().llvm_version >= 21
            && name.starts_with(b"llvm.")
            && crate::ir::upgrade::intrinsic_attributes(self.state().llvm_version, name).is_none()
    }

    /// Function `index`'s name when LLVM's reader renames it, else `None`.
    pub(crate) fn upgraded_name(&self, index: usize) -> Option<&[u8]> {
        self.state().functions.get(index).and_then(|v| v.name.as_deref())
    }

    /// Function `index`'s function type as LLVM reads it (in [`Self::types`]): an
    /// upgraded intrinsic's new signature, else the file's.
    pub fn function_type(&self, index: usize) -> Option<TypeId> {
        self.state().functions.get(index).map(|v| v.ty)
    }

    /// What LLVM's reader does to the calls of function `index`.
    pub fn call_upgrade(&self, index: usize) -> CallUpgrade {
        self.state().functions.get(index).map_or(CallUpgrade::None, |v| v.calls)
    }

    /// The functions in the order LLVM's module lists them after reading: debug
    /// intrinsics read as records gone, renamed and re-declared intrinsics at the end,
    /// LLVM 22's lifetime leftovers.
    pub fn function_order(&self) -> &[Listed] {
        &self.state().order
    }

    /// What the bodies take from the module's metadata (read on first use).
    pub(crate) fn metadata_facts(&self) -> &MetadataFacts {
        self.state().facts.get_or_init(|| MetadataFacts::new(self.bodies, self.llvm_version()))
    }

    /// Whether LLVM's reader strips the module's debug info
    /// ([`crate::ir::upgrade::strips_debug_info`]).
    pub fn strips_debug_info(&self) -> bool {
        self.metadata_facts().strips_debug_info
    }

    /// The attachment kinds stripping drops (the file's ids).
    pub(crate) fn stripped_kinds(&self) -> &[u64] {
        &self.metadata_facts().stripped_kinds
    }

    /// The `!llvm.module.flags` entries LLVM's `UpgradeModuleFlags` makes anew, with
    /// their new behaviour: the named node then lists a new node, and the file's node
    /// stays what it was for its other users.
    pub fn upgraded_module_flags(&self) -> &[UpgradedFlag] {
        &self.metadata_facts().upgraded_flags
    }

    /// The kind id LLVM's context gives attachment kind `kind` (the file's id): the order
    /// an instruction's or a function's attachments are in. A kind the file does not name
    /// keeps its id, after every named one.
    pub fn attachment_kind_id(&self, kind: u64) -> u64 {
        let ids = &self.metadata_facts().kind_ids;
        match ids.binary_search_by_key(&kind, |&(file, _)| file) {
            Ok(at) => ids[at].1,
            Err(_) => kind.saturating_add(1 << 32),
        }
    }

    /// Whether old expression layouts make LLVM upgrade `llvm.dbg.declare` expressions.
    pub(crate) fn upgrades_declares(&self) -> bool {
        self.metadata_facts().upgrades_declares
    }

    /// The LLVM version whose reading this is.
    pub fn llvm_version(&self) -> u32 {
        self.state().llvm_version
    }

    /// The function bodies' decoder of the module as written.
    pub fn bodies(&self) -> &'b Bodies<'m, 'a> {
        self.bodies
    }

    /// The module as written.
    pub fn module(&self) -> &'m Module<'a> {
        self.bodies.module()
    }

    /// The attributes at `index` of attribute list `list` (an index of
    /// [`Module::attribute_lists`], as [`CallInfo::attributes`](crate::ir::CallInfo::attributes) names one;
    /// a function's is [`Function::attributes`](crate::ir::Function::attributes) less one)
    /// as LLVM holds them: the list's groups at that index merged, upgraded and sorted.
    /// Empty for none. A parameter's upgrades that depend on its type or its call (a
    /// typed-pointer module's untyped `byval`) are not in it.
    pub fn attributes(&self, list: Option<u32>, index: AttrIndex) -> &[Attribute] {
        match list.and_then(|l| self.state().list_sets.get(l as usize)) {
            Some(sets) => set_at(sets, index),
            None => &[],
        }
    }

    /// Whether function `function` is a declaration of an intrinsic of the version, whose
    /// attributes are its intrinsic table's ([`crate::ir::upgrade::intrinsic_attributes`]),
    /// not the file's.
    pub fn has_intrinsic_attributes(&self, function: usize) -> bool {
        self.state().intrinsics.contains_key(&function)
    }

    /// The attributes at `index` of function `function` as LLVM holds them: its attribute
    /// list's ([`Self::attributes`]), or an intrinsic declaration's table's; a
    /// definition's return value and parameters without the attributes their types
    /// cannot have ([`crate::ir::upgrade::type_incompatible`]).
    pub fn function_attributes(&self, function: usize, index: AttrIndex) -> Cow<'_, [Attribute]> {
        if let AttrIndex::Param(n) = index {
            // An untyped `byval`, `sret` or `inalloca` on a typed pointer takes its pointee.
            let param_type = match self.function_type(function).and_then(|t| self.state().types.get(t)) {
                Some(Type::Function { params, .. }) => usize::try_from(n).ok().and_then(|n| params.get(n)).copied(),
                _ => None,
            };
            let pointee = param_type.and_then(|t| self.module().types.pointee(t));
            if pointee.is_some() {
                return self.function_attributes_with(
                    function,
                    index,
                    ParamUpgrade { pointee, ..ParamUpgrade::default() },
                );
            }
        }
        let set = if let Some((_, sets)) = self.state().intrinsics.get(&function) {
            set_at(sets, index)
        } else {
            let list = self.module().functions.get(function).and_then(|f| f.attributes).and_then(|a| a.checked_sub(1));
            self.attributes(list.and_then(|l| u32::try_from(l).ok()), index)
        };
        self.compatible_with_type(function, index, Cow::Borrowed(set))
    }

    /// `set` (at `index` of function `function`) without what `UpgradeFunctionAttributes`
    /// removes from a definition: the attributes the value's type cannot have.
    fn compatible_with_type<'s>(
        &self,
        function: usize,
        index: AttrIndex,
        set: Cow<'s, [Attribute]>,
    ) -> Cow<'s, [Attribute]> {
        if self.module().functions.get(function).is_none_or(|f| f.is_declaration) || index == AttrIndex::Function {
            return set;
        }
        let Some(Type::Function { ret, params, .. }) =
            self.function_type(function).and_then(|t| self.state().types.get(t))
        else {
            return set;
        };
        let ty = match index {
            AttrIndex::Return => *ret,
            AttrIndex::Param(n) => match usize::try_from(n).ok().and_then(|n| params.get(n)) {
                Some(&t) => t,
                None => return set,
            },
            AttrIndex::Function => return set,
        };
        let incompatible = |a: &Attribute| crate::ir::upgrade::type_incompatible(&self.state().types, ty, a);
        if !set.iter().any(incompatible) {
            return set;
        }
        Cow::Owned(set.iter().filter(|a| !incompatible(a)).cloned().collect())
    }

    /// The attributes at `index` of function `function` with the upgrades a parameter's
    /// type makes (`param`).
    fn function_attributes_with(&self, function: usize, index: AttrIndex, param: ParamUpgrade) -> Cow<'_, [Attribute]> {
        if param == ParamUpgrade::default() {
            return self.function_attributes(function, index);
        }
        let set = if let Some((groups, _)) = self.state().intrinsics.get(&function) {
            Cow::Owned(read_set(self.state().llvm_version, groups, index, param))
        } else {
            let list = self.module().functions.get(function).and_then(|f| f.attributes).and_then(|a| a.checked_sub(1));
            self.attributes_with(list.and_then(|l| u32::try_from(l).ok()), index, param)
        };
        self.compatible_with_type(function, index, set)
    }

    /// Whether the version reads the module's pointers as opaque (`ptr`): from LLVM 16
    /// every module; before, a module written with opaque pointers.
    pub fn reads_opaque(&self) -> bool {
        self.state().opaque
    }

    /// The module-level constants as LLVM holds them: each folded (`getelementptr (i8, ptr
    /// @g, i64 0)` is `@g`, an aggregate of zeros `zeroinitializer`, an array of bytes a data
    /// array), with the file's value ids. A constant that folded to another value is
    /// named by [`Self::resolve`]; the operands of the others name what they folded to.
    pub fn constants(&self) -> &ModuleConstants {
        &self.state().constants.table
    }

    /// The value that module-level value id `id` is as LLVM holds it: for a constant that
    /// folded to another value (a global value, or another constant), that value; else
    /// `id`. Function bodies of the view ([`Self::body`]) name these values already.
    pub fn resolve(&self, id: u64) -> u64 {
        self.state().constants.resolve(id)
    }

    /// The constant a [`Value::Constant`] of `body` (a body of this view) names: the
    /// function's or the module's, with the table its operand ranges index.
    pub fn constant<'s>(&'s self, body: &'s Body, value_id: u64) -> Option<(&'s Constant, &'s ModuleConstants)> {
        if let Some(c) = body.constants.get(value_id) {
            return Some((c, &body.constants));
        }
        self.state().constants.table.get(value_id).map(|c| (c, &self.state().constants.table))
    }

    /// For a call to inline asm (`callee` a constant of `body`, a body of this view, or of
    /// the module), whether each argument is an indirect operand
    /// ([`crate::ir::upgrade::indirect_arguments`]); `None` for any other callee.
    pub(crate) fn asm_indirect_arguments(&self, body: &Body, callee: &crate::ir::body::Operand) -> Option<Vec<bool>> {
        let Value::Constant(id) = callee.value else { return None };
        let (c, table) = self.constant(body, id)?;
        Some(crate::ir::upgrade::indirect_arguments(&c.inline_asm(table)?.constraints))
    }

    /// What LLVM's reader knows of call instruction `inst` of `body` (a body of this view)
    /// as it upgrades the call's attributes, worked out once for all its indices
    /// ([`CallSite`]); `None` if `inst` is not a call.
    pub(crate) fn call_site<'s>(&'s self, body: &'s Body, inst: usize) -> Option<CallSite<'s, 'b, 'm, 'a>> {
        let call = body.instructions.get(inst).and_then(|i| body.call(i))?;
        let remade = body.call_alignments.iter().find(|a| a.0 as usize == inst).map(|a| (a.1, a.2));
        Some(CallSite {
            view: self,
            list: call.info.attributes,
            arguments: call.arguments,
            asm_indirect: self.asm_indirect_arguments(body, &call.callee),
            alignment: remade.filter(|r| r.0 > 0),
            shifted_from: remade.filter(|r| r.1.keeps_call_attributes()).and_then(|r| r.1.dropped_argument()),
        })
    }

    /// The attributes at `index` of call instruction `inst` of `body` (a body of this
    /// view, [`Self::body`]) as LLVM holds them: the call's list read as the version reads
    /// it ([`Self::attributes`]), with what each argument adds (`byval(<pointee>)` for
    /// an untyped `byval` on a typed pointer, `elementtype` on an indirect inline-asm
    /// operand, the `align` of an alignment argument the upgrade dropped).
    pub fn call_attributes(&self, body: &Body, inst: usize, index: AttrIndex) -> Cow<'_, [Attribute]> {
        let Some((list, (place, param))) = self.call_site(body, inst).map(|site| (site.list, site.source(index)))
        else {
            return Cow::Borrowed(&[]);
        };
        self.attributes_with(list, place, param)
    }

    /// The indices of call instruction `inst` of `body` (a body of this view) that can
    /// have attributes as LLVM holds them, in `AttributeList` order (the function, the
    /// return value, the arguments), into `indices`: those the call's list has sets at,
    /// the indirect inline-asm operands, the arguments an upgrade gave an `align`.
    /// [`Self::call_attributes`] gives each one's set, which can be empty.
    pub fn call_attribute_indices(&self, body: &Body, inst: usize, indices: &mut Vec<AttrIndex>) {
        indices.clear();
        if let Some(site) = self.call_site(body, inst) {
            site.indices(indices);
        }
    }

    /// Function `function`'s body as LLVM reads it; `None` for a declaration. See
    /// [`Self::body_into`].
    pub fn body(&self, function: usize) -> Result<Option<Body>, Error> {
        let mut body = Body::default();
        Ok(self.body_into(function, &mut body)?.then_some(body))
    }

    /// Function `function`'s body as LLVM reads it, into `body` (its storage reused, as
    /// [`Bodies::body_as_written_into`] does): the function's constants folded, and every operand
    /// naming the value its constant folded to. `Ok(false)` for a declaration; on an
    /// error, `body` holds what was decoded before the break, as LLVM reads that.
    pub fn body_into(&self, function: usize, body: &mut Body) -> Result<bool, Error> {
        let decoded = self.bodies.body_as_written_into(function, body);
        self.read_body(body);
        decoded
    }

    /// Makes a body as the file has it ([`Bodies::body_as_written_into`]) the body as LLVM
    /// reads it.
    pub(crate) fn read_body(&self, body: &mut Body) {
        self.fold_body(body);
        self.rewrite_body(body);
        body.read_as = Some(self.state().llvm_version);
    }

    /// Folds a body's constants, and names what they folded to in its operands.
    fn fold_body(&self, body: &mut Body) {
        if body.constants.constants.is_empty() && !self.state().constants.changed {
            return;
        }
        let folder = Folder {
            llvm_version: self.state().llvm_version,
            types: &self.state().types,
            opaque: self.state().opaque,
            outer: Some(&self.state().constants),
            i64: Some(self.state().i64),
        };
        let folded = folder.fold(&body.constants);
        if !folded.changed && !self.state().constants.changed {
            return;
        }
        let module_base = self.state().constants.table.base;
        let resolve = |v: &mut Value| {
            if let Value::Constant(id) = *v {
                let r = self.state().constants.resolve(folded.resolve(id));
                if r != id {
                    *v = if r < module_base { Value::Global(r) } else { Value::Constant(r) };
                }
            }
        };
        for o in &mut body.operand_pool {
            resolve(&mut o.value);
        }
        for o in body.debug_records.iter_mut().filter_map(|r| r.value.as_mut()).chain(body.old_personality.as_mut()) {
            resolve(&mut o.value);
        }
        // Values as metadata in the function's own metadata: [type, value id].
        let md = &mut body.metadata;
        for e in md.entries.iter().filter(|e| e.code == crate::ids::llvm_ir::raw::METADATA_VALUE) {
            if let Some(v) = md.pool.get_mut(e.ops.range()).and_then(|ops| ops.get_mut(1)) {
                *v = self.state().constants.resolve(folded.resolve(*v));
            }
        }
        body.constants = folded.table;
    }

    /// [`Self::attributes`] with the upgrades a parameter's type or its call makes
    /// (`param`), or of other `groups` (an intrinsic's table, `Some`) in place of the
    /// list's.
    pub(crate) fn attributes_with(
        &self,
        list: Option<u32>,
        index: AttrIndex,
        param: ParamUpgrade,
    ) -> Cow<'_, [Attribute]> {
        if param == ParamUpgrade::default() {
            return Cow::Borrowed(self.attributes(list, index));
        }
        Cow::Owned(read_set(self.state().llvm_version, list_groups(self.bodies, list), index, param))
    }
}

/// A call as LLVM's reader upgrades its attributes ([`ModuleView::call_site`]): the
/// pointee each typed-pointer argument gives an untyped `byval`, `sret` or `inalloca`
/// (`propagateAttributeTypes`), the indirect inline-asm operands (`elementtype`), and what
/// an upgraded call did with a dropped alignment argument (an old memcpy's fourth, a
/// masked load's second): the `align` it gives the pointers, and, where the call keeps
/// its attributes, the later arguments keeping their places in the file's list.
pub(crate) struct CallSite<'s, 'b, 'm, 'a> {
    view: &'s ModuleView<'b, 'm, 'a>,
    list: Option<u32>,
    arguments: &'s [crate::ir::body::Operand],
    asm_indirect: Option<Vec<bool>>,
    alignment: Option<(u64, crate::ir::upgrade::ArgumentUpgrade)>,
    shifted_from: Option<usize>,
}

impl<'s> CallSite<'s, '_, '_, '_> {
    /// Where the attributes at `index` come from in the call's list, and what of the
    /// argument upgrades them.
    pub(crate) fn source(&self, index: AttrIndex) -> (AttrIndex, ParamUpgrade) {
        let AttrIndex::Param(n) = index else { return (index, ParamUpgrade::default()) };
        let Some((i, arg)) = usize::try_from(n).ok().and_then(|i| Some((i, self.arguments.get(i)?))) else {
            return (index, ParamUpgrade::default());
        };
        let place = if self.shifted_from.is_some_and(|d| i >= d) { AttrIndex::Param(n + 1) } else { index };
        let param = ParamUpgrade {
            pointee: self.view.module().types.pointee(arg.ty),
            indirect_asm_operand: self.asm_indirect.as_ref().is_some_and(|a| a.get(i) == Some(&true)),
            alignment: self.alignment.filter(|a| a.1.aligned_arguments().contains(&i)).map(|a| a.0),
        };
        (place, param)
    }

    /// The attributes at `index` as LLVM holds them ([`ModuleView::call_attributes`]).
    pub(crate) fn attributes(&self, index: AttrIndex) -> Cow<'s, [Attribute]> {
        let (place, param) = self.source(index);
        self.view.attributes_with(self.list, place, param)
    }

    /// The indices that can have attributes, in `AttributeList` order, into `indices`
    /// ([`ModuleView::call_attribute_indices`]).
    pub(crate) fn indices(&self, indices: &mut Vec<AttrIndex>) {
        for g in list_groups(self.view.bodies, self.list) {
            indices.push(match (g.index, self.shifted_from) {
                (AttrIndex::Param(n), Some(d)) if n as usize == d => continue,
                (AttrIndex::Param(n), Some(d)) if n as usize > d => AttrIndex::Param(n - 1),
                (index, _) => index,
            });
        }
        if let Some(asm) = &self.asm_indirect {
            indices.extend((0..asm.len()).filter(|&n| asm[n]).map(|n| AttrIndex::Param(n as u64)));
        }
        if let Some(a) = self.alignment {
            indices.extend(a.1.aligned_arguments().iter().map(|&n| AttrIndex::Param(n as u64)));
        }
        indices.sort_by_key(|&i| index_order(i));
        indices.dedup();
    }
}

/// Whether LLVM `llvm_version` reads the module's pointers as opaque (`ptr`): from LLVM
/// 16 every module, before it a module written with opaque pointers (LLVM 14's
/// `-opaque-pointers`).
pub(crate) fn reads_opaque_pointers(bodies: &Bodies<'_, '_>, llvm_version: u32) -> bool {
    llvm_version >= 16 || !bodies.typed_pointers()
}

/// The sets of `groups` (one list's) at each index they have attributes at, by index.
fn sets_of<'g>(llvm_version: u32, groups: impl Iterator<Item = &'g AttributeGroup>) -> ListSets {
    let groups: Vec<&AttributeGroup> = groups.collect();
    let mut indices: Vec<AttrIndex> = groups.iter().map(|g| g.index).collect();
    indices.sort_by_key(|&i| index_order(i));
    indices.dedup();
    indices
        .into_iter()
        .map(|index| (index, read_set(llvm_version, groups.iter().copied(), index, ParamUpgrade::default())))
        .filter(|(_, set)| !set.is_empty())
        .collect()
}

/// The set at `index` of sets sorted by index, empty if there is none.
fn set_at(sets: &[(AttrIndex, Vec<Attribute>)], index: AttrIndex) -> &[Attribute] {
    match sets.binary_search_by_key(&index_order(index), |(i, _)| index_order(*i)) {
        Ok(at) => &sets[at].1,
        Err(_) => &[],
    }
}

/// The groups of attribute list `list`, in the list's order: its groups by id, or the
/// groups an old list's pairs unpack into (none for a missing list).
pub(crate) fn list_groups<'g>(
    bodies: &'g Bodies<'_, '_>,
    list: Option<u32>,
) -> impl Iterator<Item = &'g AttributeGroup> + 'g {
    let at = list.map(|l| l as usize);
    let ids: &[u64] = match at.and_then(|l| bodies.module().attribute_lists.get(l)) {
        Some(AttributeList::Groups(ids)) => ids,
        _ => &[],
    };
    let legacy = at.map_or(&[][..], |l| bodies.legacy_groups(l));
    ids.iter().filter_map(|&id| bodies.attribute_group(id)).chain(legacy)
}
