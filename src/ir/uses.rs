//! Who uses each global value and module constant: a module's use index, built once on
//! request from every function body, constant, global and metadata node.
//!
//! ```
//! use llvm_bitstream_reader::ir::uses::User;
//! use llvm_bitstream_reader::ir::Module;
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/rustc_llvm22_o3.bc"))?;
//! let module = Module::parse(&bytes)?;
//! let bodies = module.bodies()?;
//! // As LLVM 22 reads the module: constants folded, calls upgraded.
//! let uses = bodies.view(22).uses()?;
//! for (value_id, global) in module.values.iter().enumerate() {
//!     let global_name = module.global(value_id as u64).map(|g| g.name_str());
//!     for u in uses.of(value_id as u64) {
//!         match u.user {
//!             User::Instruction { function, instruction, operand } => {
//!                 let _ = (global, &global_name, function, instruction, operand);
//!             }
//!             User::Constant { constant, .. } => {
//!                 // A constant expression or aggregate: its own uses say where it is.
//!                 let _ = uses.of(constant);
//!             }
//!             _ => {}
//!         }
//!     }
//! }
//! # Ok(()) }
//! ```
//!
//! A use is where one value is an operand of another (LLVM's `Use`): of an instruction (its
//! operands, a call's bundle inputs, a debug record's value), of a constant (an
//! aggregate's element, an expression's operand: [`ConstantKind::operand_values`]), of a
//! global value (an initializer, an aliasee or resolver, a function's personality,
//! prefix or prologue), or of metadata (a value as metadata: `!{ptr @g}`, a debug
//! record's `ptr @g`, the values a `DIArgList` lists). A use of a global inside a
//! constant expression is the expression's use; the expression's own uses follow from
//! [`UseIndex::of`] on it.
//!
//! The index is of the values a module holds once: global values and module-level
//! constants (by value id), and each function's own constants ([`UseIndex::of_local`]).
//! Uses of arguments and instruction results stay in their body ([`Body::operands`]).
//!
//! [`ModuleView::uses`] indexes the module as LLVM N reads it (what its text prints);
//! [`Bodies::uses`] the file as written. Building decodes every body once, and holds
//! one entry per use, in memory proportional to the operands decoded.

use alloc::vec::Vec;

use crate::error::Error;
use crate::ir::body::{Bodies, Body, Value};
use crate::ir::metadata::MdTable;
#[cfg(doc)]
use crate::ir::module::constants::ConstantKind;
use crate::ir::module::constants::ModuleConstants;
use crate::ir::module::types::Type;
use crate::ir::module::{GlobalRef, Module};
use crate::ir::view::ModuleView;

/// One use of a value: which value ([`Use::value`]) and where ([`Use::user`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Use {
    /// The used value's id: a global value (below the module's
    /// [`ModuleConstants::base`]), a module constant, or a constant of function
    /// [`Use::scope`].
    pub value: u64,
    /// `None` for a module-level value; the function (an index into
    /// [`Module::functions`]) whose own constant [`Use::value`] is.
    pub scope: Option<usize>,
    /// Where it is used.
    pub user: User,
}

/// Where a use is: see [`Use`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub enum User {
    /// Operand `operand` ([`Body::operands`] order) of instruction `instruction` of
    /// function `function`'s body.
    Instruction {
        /// The function: an index into [`Module::functions`].
        function: usize,
        /// The instruction: an index into [`Body::instructions`].
        instruction: u32,
        /// The operand's index among the instruction's operands.
        operand: u32,
    },
    /// Input `input` of operand bundle `bundle` (an index into [`Body::bundles`]) of a
    /// call of function `function`'s body.
    Bundle {
        /// The function.
        function: usize,
        /// The bundle: an index into [`Body::bundles`].
        bundle: u32,
        /// The input's index in the bundle.
        input: u32,
    },
    /// The value of debug record `record` (an index into [`Body::debug_records`]) of
    /// function `function`'s body (`#dbg_value(ptr @g, …)`, written as a value).
    DebugRecord {
        /// The function.
        function: usize,
        /// The record: an index into [`Body::debug_records`].
        record: u32,
    },
    /// Operand `operand` ([`ConstantKind::operand_values`] order) of constant
    /// `constant`: a module constant (`function` `None`) or one of function `function`'s.
    Constant {
        /// The function whose constant it is, `None` for a module constant.
        function: Option<usize>,
        /// The constant's value id.
        constant: u64,
        /// The operand's index among its value operands.
        operand: u32,
    },
    /// The global value with value id `global`, in the role `role`.
    Global {
        /// The global value's id ([`Module::global`]).
        global: u64,
        /// What the value is to it.
        role: GlobalRole,
    },
    /// Metadata node `node` (a value as metadata, or an old-style node's value), of the
    /// module (`function` `None`) or of function `function`'s body
    /// ([`DebugInfo::node`](crate::ir::DebugInfo::node) gives it).
    Metadata {
        /// The function whose metadata the node is, `None` for the module's.
        function: Option<usize>,
        /// The node's metadata id.
        node: u64,
    },
}

/// What a used value is to the global value using it ([`User::Global`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub enum GlobalRole {
    /// A global variable's initializer.
    Initializer,
    /// An alias's aliasee or an ifunc's resolver.
    Target,
    /// A function's personality (also one written on a `landingpad` before LLVM 3.7).
    Personality,
    /// A function's prefix data.
    Prefix,
    /// A function's prologue data.
    Prologue,
}

/// Every use of a module's global values and constants: see the [module docs](self).
#[derive(Clone, Debug, Default)]
pub struct UseIndex {
    /// Sorted by (scope, value), then in the order the build met them.
    uses: Vec<Use>,
}

impl UseIndex {
    /// The uses of module-level value `value_id` (a global value or a module constant), in
    /// the order: instructions (function by function), constants, globals, metadata.
    pub fn of(&self, value_id: u64) -> &[Use] {
        self.find(None, value_id)
    }

    /// The uses of function `function`'s own constant `value_id`.
    pub fn of_local(&self, function: usize, value_id: u64) -> &[Use] {
        self.find(Some(function), value_id)
    }

    fn find(&self, scope: Option<usize>, value: u64) -> &[Use] {
        let key = (scope, value);
        let start = self.uses.partition_point(|u| (u.scope, u.value) < key);
        let end = start + self.uses[start..].partition_point(|u| (u.scope, u.value) == key);
        &self.uses[start..end]
    }

    /// Every use, by (scope, value).
    pub fn iter(&self) -> core::slice::Iter<'_, Use> {
        self.uses.iter()
    }

    /// How many uses there are.
    pub fn len(&self) -> usize {
        self.uses.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.uses.is_empty()
    }
}

impl<'m, 'a> Bodies<'m, 'a> {
    /// The use index of the module as written (bodies from [`Bodies::body_as_written_into`],
    /// constants unfolded): see [`crate::ir::uses`]. [`ModuleView::uses`] gives the
    /// module as LLVM reads it.
    pub fn uses(&self) -> Result<UseIndex, Error> {
        build(self.module(), self.constants(), &|id| id, self.module_metadata(), &|f, body| {
            self.body_as_written_into(f, body)
        })
    }
}

impl ModuleView<'_, '_, '_> {
    /// The use index of the module as this version of LLVM reads it (bodies from
    /// [`ModuleView::body_into`], constants folded, so a folded-away expression is not a
    /// user and the value it folded to is used in its place): see [`crate::ir::uses`].
    pub fn uses(&self) -> Result<UseIndex, Error> {
        let bodies = self.bodies();
        build(bodies.module(), self.constants(), &|id| self.resolve(id), bodies.module_metadata(), &|f, body| {
            self.body_into(f, body)
        })
    }
}

/// The index of `module`, with `constants` its constant table, `resolve` naming what a
/// module-level value id is (its folded value), `metadata` its module metadata, and
/// `body_into` reading a function's body.
fn build(
    module: &Module<'_>,
    constants: &ModuleConstants,
    resolve: &dyn Fn(u64) -> u64,
    metadata: &MdTable,
    body_into: &dyn Fn(usize, &mut Body) -> Result<bool, Error>,
) -> Result<UseIndex, Error> {
    let mut uses = Vec::new();
    let mut body = Body::default();
    // The value ids a body's operands name, with their scope.
    let scoped = |body: &Body, value: Value| -> Option<(Option<usize>, u64)> {
        match value {
            Value::Global(id) => Some((None, id)),
            Value::Constant(id) if body.constants.get(id).is_some() => Some((Some(body.function), id)),
            Value::Constant(id) => Some((None, id)),
            _ => None,
        }
    };
    for function in 0..module.functions.len() {
        if !body_into(function, &mut body)? {
            continue;
        }
        for (i, inst) in body.instructions.iter().enumerate() {
            for (n, op) in body.operands(inst).iter().enumerate() {
                if let Some((scope, value)) = scoped(&body, op.value) {
                    let user = User::Instruction { function, instruction: i as u32, operand: n as u32 };
                    uses.push(Use { value, scope, user });
                }
            }
        }
        for (b, bundle) in body.bundles.iter().enumerate() {
            let inputs = body.operand_pool.get(bundle.inputs.range()).unwrap_or(&[]);
            for (n, op) in inputs.iter().enumerate() {
                if let Some((scope, value)) = scoped(&body, op.value) {
                    uses.push(Use { value, scope, user: User::Bundle { function, bundle: b as u32, input: n as u32 } });
                }
            }
        }
        for (r, record) in body.debug_records.iter().enumerate() {
            if let Some((scope, value)) = record.value.and_then(|op| scoped(&body, op.value)) {
                uses.push(Use { value, scope, user: User::DebugRecord { function, record: r as u32 } });
            }
        }
        if let Some((scope, value)) = body.old_personality.and_then(|op| scoped(&body, op.value)) {
            let global = module.functions[function].common.value_id;
            uses.push(Use { value, scope, user: User::Global { global, role: GlobalRole::Personality } });
        }
        constant_uses(&body.constants, Some(function), &mut uses);
        let module_values = constants.base + constants.constants.len() as u64;
        let local = |value: u64| match body.constants.get(value) {
            Some(_) => Some((Some(function), value)),
            None if value < module_values => Some((None, resolve(value))),
            None => None,
        };
        metadata_uses(module, &body.metadata, Some(function), &local, &mut uses);
    }
    constant_uses(constants, None, &mut uses);
    for (global, g) in module.values.iter().enumerate() {
        let global = global as u64;
        let mut add = |value: Option<u64>, role| {
            if let Some(value) = value {
                uses.push(Use { value: resolve(value), scope: None, user: User::Global { global, role } });
            }
        };
        match *g {
            GlobalRef::Var(i) => add(module.globals.get(i).and_then(|v| v.initializer), GlobalRole::Initializer),
            GlobalRef::Function(i) => {
                if let Some(f) = module.functions.get(i) {
                    add(f.personality, GlobalRole::Personality);
                    add(f.prefix, GlobalRole::Prefix);
                    add(f.prologue, GlobalRole::Prologue);
                }
            }
            GlobalRef::Alias(i) => add(module.aliases.get(i).map(|a| a.target), GlobalRole::Target),
        }
    }
    metadata_uses(module, metadata, None, &|value| Some((None, resolve(value))), &mut uses);
    // Stable: each value's uses stay in the order they were met.
    uses.sort_by_key(|u| (u.scope, u.value));
    Ok(UseIndex { uses })
}

/// The uses by the constants of `table` (a function's, with `function`, or the module's).
fn constant_uses(table: &ModuleConstants, function: Option<usize>, uses: &mut Vec<Use>) {
    let file = table.constants.iter().enumerate().map(|(i, c)| (table.base + i as u64, c));
    // The constants a view's reader makes (in a view's table only).
    let made = table.made.iter().enumerate().map(|(i, c)| (table.made_base + i as u64, c));
    for (constant, c) in file.chain(made) {
        for (n, value) in c.kind.operand_values(table).enumerate() {
            // A function's constant names its own constants and module-level values.
            let scope = function.filter(|_| table.get(value).is_some());
            let user = User::Constant { function, constant, operand: n as u32 };
            uses.push(Use { value, scope, user });
        }
    }
}

/// The uses by the values as metadata of `table` (a function's metadata, with
/// `function`, or the module's): METADATA_VALUE nodes, and the non-metadata values of
/// old-style nodes (before LLVM 3.6). `scope` says what a value id is: module-level
/// (`Some(None)`, named by its folded value), a constant of the function (`Some(Some(f))`),
/// or a value not indexed (`None`: a function's argument or instruction).
fn metadata_uses(
    module: &Module<'_>,
    table: &MdTable,
    function: Option<usize>,
    scope: &dyn Fn(u64) -> Option<(Option<usize>, u64)>,
    uses: &mut Vec<Use>,
) {
    use crate::ids::llvm_ir::raw as ids;
    for (i, entry) in table.entries.iter().enumerate() {
        let user = User::Metadata { function, node: table.base + i as u64 };
        let ops = table.ops(entry.ops);
        match (entry.code, ops) {
            (ids::METADATA_VALUE, &[_, value, ..]) => {
                if let Some((scope, value)) = scope(value) {
                    uses.push(Use { value, scope, user });
                }
            }
            (ids::METADATA_OLD_NODE | ids::METADATA_OLD_FN_NODE, pairs) => {
                for pair in pairs.chunks_exact(2) {
                    let ty = u32::try_from(pair[0]).ok().and_then(|t| module.types.get(crate::ir::TypeId(t)));
                    if !matches!(ty, Some(Type::Metadata)) {
                        if let Some((scope, value)) = scope(pair[1]) {
                            uses.push(Use { value, scope, user });
                        }
                    }
                }
            }
            _ => {}
        }
    }
}
