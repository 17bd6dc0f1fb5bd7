//! The alignment LLVM's reader gives a memory instruction an old file wrote none for: since
//! LLVM 11 every `load`, `store`, `alloca`, `cmpxchg` and `atomicrmw` has one, taken from
//! the datalayout (`BitcodeReader::parseFunctionBody`).

use crate::ir::module::Module;
use crate::ir::module::types::TypeId;
use crate::ir::vocabulary::datalayout::TypeLayout;

/// What an instruction does with memory, for [`explicit_alignment`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemoryAccess {
    /// `load` or `store` of the type: its ABI alignment.
    LoadOrStore,
    /// `alloca` of the type: its preferred alignment.
    Alloca,
    /// `cmpxchg` or `atomicrmw` on the type: its store size.
    Atomic,
}

/// The alignment in bytes LLVM gives an instruction of `module` that accesses `ty` as
/// `access` says, when the file wrote none (see the module documentation); `None` where
/// the type has no size.
pub fn explicit_alignment(module: &Module<'_>, access: MemoryAccess, ty: TypeId) -> Option<u64> {
    let layout = TypeLayout::new(module.datalayout.as_deref().unwrap_or(""));
    explicit_alignment_in(&layout, &module.types, access, ty)
}

/// [`explicit_alignment`] with the module's datalayout read once (`layout`).
pub(crate) fn explicit_alignment_in(
    layout: &TypeLayout<'_>,
    types: &crate::ir::module::types::TypeTable,
    access: MemoryAccess,
    ty: TypeId,
) -> Option<u64> {
    let module_types = types;
    match access {
        MemoryAccess::LoadOrStore => layout.align(module_types, ty, 0),
        MemoryAccess::Alloca => layout.pref_align(module_types, ty, 0),
        MemoryAccess::Atomic => layout.store_size(module_types, ty, 0),
    }
}
