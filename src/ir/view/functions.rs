//! The functions as LLVM N's module lists them after reading (`UpgradeIntrinsicFunction`,
//! `UpgradeCallsToIntrinsic`): an intrinsic declaration it renames takes its new name and
//! moves to the end of the list (the new declaration is appended, the old one erased); one
//! whose signature changed is declared anew with its new type, and every call of it is
//! made anew; the declarations of the debug intrinsics LLVM 19 and later read as records
//! are gone; LLVM 22's sized lifetime markers lose their size and leave a
//! `llvm.lifetime.start.i64` declaration behind.

use alloc::boxed::Box;
use alloc::collections::BTreeMap;
use alloc::vec::Vec;

use crate::ir::body::Bodies;
use crate::ir::module::types::{Type, TypeId, TypeTable};
use crate::ir::upgrade::ArgumentUpgrade;

/// A function's place in the module's list as LLVM reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Listed {
    /// Function `i` of [`Module::functions`](crate::ir::Module::functions) itself.
    Function(usize),
    /// The `declare void @llvm.lifetime.start.i64(i64)` (or `end`) LLVM 22's upgrade of
    /// sized lifetime marker `i` leaves behind: it declares the new intrinsic overloaded on
    /// the old first parameter's type, without attributes, and no call uses it.
    LifetimeLeftover(usize),
}

/// What LLVM's reader does to the calls of a function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CallUpgrade {
    /// Nothing.
    None,
    /// A debug intrinsic read as a debug record of this code (`FUNC_CODE_DEBUG_RECORD_*`).
    DebugRecord(u32),
    /// An intrinsic whose arguments changed: each call made anew with them.
    Arguments(ArgumentUpgrade),
    /// A sized lifetime marker of LLVM before 22: each call takes the `alloca` its
    /// pointer is, or is removed.
    Lifetime,
    /// Each call a `store … align 1` of its second argument to its first, the declaration
    /// erased ([`crate::ir::upgrade::becomes_aligned_store`]).
    AlignedStore,
    /// Each call made anew, without `tail` and without attributes
    /// ([`crate::ir::upgrade::rebuilds_calls`]), with its metadata (`copyMetadata`) or only
    /// its `!dbg` location.
    Rebuilt {
        /// The new call has the old one's metadata.
        keeps_metadata: bool,
    },
}

/// One function as LLVM reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ViewFunction {
    /// The name LLVM declares it with, when that is not the file's.
    pub(crate) name: Option<Box<[u8]>>,
    /// Its function type (in the view's types).
    pub(crate) ty: TypeId,
    /// What becomes of its calls.
    pub(crate) calls: CallUpgrade,
    /// How its calls' arguments change (before a debug intrinsic's call is read as a
    /// record), for a declaration whose signature changed.
    pub(crate) arguments: Option<ArgumentUpgrade>,
}

/// The type table with every type LLVM's reader makes that the file has not, looked up
/// first among the file's.
pub(crate) struct Types {
    pub(crate) table: TypeTable,
}

impl Types {
    /// The id of `ty`: the first one equal to it, else a new one.
    pub(crate) fn get_or_add(&mut self, ty: Type) -> TypeId {
        if let Some(i) = self.table.types.iter().position(|t| *t == ty) {
            return TypeId(i as u32);
        }
        self.table.types.push(ty);
        TypeId(self.table.types.len() as u32 - 1)
    }
}

/// `{ T, i1 }` for each integer and pointer type `T` of the file (`i1` in `types`): the
/// existing literal struct when the file has it, else added to `types`. O(types).
pub(crate) fn cmpxchg_pairs(types: &mut Types, i1: TypeId) -> BTreeMap<TypeId, TypeId> {
    let mut existing: BTreeMap<(TypeId, TypeId), TypeId> = BTreeMap::new();
    let mut wanted = Vec::new();
    for (i, t) in types.table.types.iter().enumerate() {
        let id = TypeId(i as u32);
        match t {
            Type::Integer(_) | Type::Pointer { .. } => wanted.push(id),
            Type::Struct { identified: false, packed: false, elements: Some(e), .. } if e.len() == 2 => {
                existing.entry((e[0], e[1])).or_insert(id);
            }
            _ => {}
        }
    }
    wanted
        .into_iter()
        .map(|t| {
            let pair = *existing.entry((t, i1)).or_insert_with(|| {
                types.table.types.push(Type::Struct {
                    name: None,
                    identified: false,
                    packed: false,
                    elements: Some(alloc::vec![t, i1]),
                });
                TypeId(types.table.types.len() as u32 - 1)
            });
            (t, pair)
        })
        .collect()
}

/// Each function of the module as LLVM `llvm_version` reads it, adding to `types` the
/// types its upgraded declarations have.
pub(crate) fn functions(b: &Bodies<'_, '_>, llvm_version: u32, types: &mut Types) -> Vec<ViewFunction> {
    let m = b.module();
    m.functions
        .iter()
        .map(|f| {
            let ty = f.common.value_type;
            let mut view = ViewFunction { name: None, ty, calls: CallUpgrade::None, arguments: None };
            if let Some(renamed) = crate::ir::upgrade::renamed_runtime_function(&f.common.name) {
                view.name = f.is_declaration.then(|| renamed.into());
                return view;
            }
            if !f.common.name.starts_with(b"llvm.") {
                return view;
            }
            let (ret, params, vararg) = match m.types.get(ty) {
                Some(Type::Function { ret, params, vararg }) => (*ret, params.clone(), *vararg),
                _ => return view,
            };
            let name = &f.common.name[..];
            if f.is_declaration {
                view.name =
                    crate::ir::upgrade::upgraded_intrinsic_name(llvm_version, name, &m.types, ty, b.typed_pointers())
                        .map(Vec::into_boxed_slice);
            }
            let function_type =
                |types: &mut Types, params: Vec<TypeId>| types.get_or_add(Type::Function { vararg, ret, params });
            if let Some(code) = crate::ir::upgrade::debug_record_code(llvm_version, name) {
                view.calls = CallUpgrade::DebugRecord(code);
            }
            if crate::ir::upgrade::becomes_aligned_store(llvm_version, name, params.len()) && f.is_declaration {
                view.calls = CallUpgrade::AlignedStore;
                return view;
            }
            if crate::ir::upgrade::lifetime_loses_size(llvm_version, name, params.len()) && f.is_declaration {
                view.calls = CallUpgrade::Lifetime;
                view.ty = function_type(types, params[1..].to_vec());
            } else if let Some(upgrade) =
                crate::ir::upgrade::upgraded_arguments(llvm_version, name, params.len()).filter(|_| f.is_declaration)
            {
                let mut new = params.clone();
                match upgrade {
                    ArgumentUpgrade::AppendFalse(n) => {
                        let i1 = types.get_or_add(Type::Integer(1));
                        new.extend((0..n).map(|_| i1));
                    }
                    _ => {
                        if let Some(i) = upgrade.dropped_argument().filter(|&i| i < new.len()) {
                            new.remove(i);
                        }
                    }
                }
                view.ty = function_type(types, new);
                view.arguments = Some(upgrade);
                // A debug intrinsic's upgraded call is then read as a record.
                if view.calls == CallUpgrade::None {
                    view.calls = CallUpgrade::Arguments(upgrade);
                }
            } else if crate::ir::upgrade::rebuilds_calls(llvm_version, name, view.name.is_some())
                && view.calls == CallUpgrade::None
            {
                // Only the masked intrinsics' calls copy their metadata.
                let keeps_metadata = name.starts_with(b"llvm.masked.");
                view.calls = CallUpgrade::Rebuilt { keeps_metadata };
            }
            view
        })
        .collect()
}

/// The functions in the order LLVM `llvm_version`'s module lists them after reading: the
/// declarations it drops (debug intrinsics read as records) left out; those of intrinsics
/// it remangles (a typed-pointer module read with opaque pointers) moved to the end, in
/// their order, once per new name (`remangleIntrinsicFunction` declares the new name,
/// which appends it, and erases the old declaration); LLVM 22's leftovers of sized
/// lifetime markers with them, and the lifetime markers without size after those (their
/// calls declare them as the bodies are read, which is later; here in the order of the
/// old declarations, not of their first calls).
pub(crate) fn order(b: &Bodies<'_, '_>, llvm_version: u32, functions: &[ViewFunction]) -> Vec<Listed> {
    let m = b.module();
    let mut kept = Vec::with_capacity(m.functions.len());
    let mut moved: Vec<(Listed, Vec<u8>)> = Vec::new();
    let mut lifetimes: Vec<(Listed, Vec<u8>)> = Vec::new();
    for (i, (f, v)) in m.functions.iter().zip(functions).enumerate() {
        if f.is_declaration
            && (crate::ir::upgrade::drops_declaration(llvm_version, &f.common.name)
                || v.calls == CallUpgrade::AlignedStore)
        {
            continue;
        }
        let name = || v.name.as_deref().unwrap_or(&f.common.name).to_vec();
        if v.calls == CallUpgrade::Lifetime {
            let base = lifetime_leftover_name(&f.common.name).unwrap_or_default();
            if !moved.iter().any(|(_, n)| *n == base) {
                moved.push((Listed::LifetimeLeftover(i), base));
            }
            let name = name();
            if !lifetimes.iter().any(|(_, n)| *n == name) {
                lifetimes.push((Listed::Function(i), name));
            }
            continue;
        }
        // A declaration whose arguments change is declared anew, under its own name.
        let declared_anew = v.name.is_some() || v.arguments.is_some();
        if !declared_anew {
            kept.push(Listed::Function(i));
            continue;
        }
        let name = name();
        if !moved.iter().any(|(_, n)| *n == name) {
            moved.push((Listed::Function(i), name));
        }
    }
    kept.extend(moved.into_iter().chain(lifetimes).map(|(l, _)| l));
    kept
}

/// The name of LLVM 22's leftover declaration of a sized lifetime marker:
/// `llvm.lifetime.start.i64`.
pub(crate) fn lifetime_leftover_name(name: &[u8]) -> Option<Vec<u8>> {
    let base = [&b"llvm.lifetime.start"[..], b"llvm.lifetime.end"].into_iter().find(|b| name.starts_with(b))?;
    let mut out = base.to_vec();
    out.extend_from_slice(b".i64");
    Some(out)
}
