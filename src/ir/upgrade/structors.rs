//! `@llvm.global_ctors` and `@llvm.global_dtors` of the old two-field form (`{ i32, void
//! ()* }`, before LLVM 3.5), which LLVM's reader makes three-field (`UpgradeGlobalVariable`,
//! every version this crate prints for): each entry gets a null `i8*` (`ptr`) associated
//! data, and the variable is made anew, appended after the module's other variables,
//! with its name, linkage and new initializer only.

use crate::ir::module::Module;
use crate::ir::module::types::{Type, TypeId};

/// The two field types of the entries of global variable `index` of `module` if LLVM's
/// reader makes it a three-field constructor or destructor array: a variable named
/// `llvm.global_ctors` or `llvm.global_dtors` with an initializer, of an array type of
/// two-field structs.
pub fn two_field_structor_array(module: &Module<'_>, index: usize) -> Option<[TypeId; 2]> {
    let g = module.globals.get(index)?;
    if !matches!(&g.common.name[..], b"llvm.global_ctors" | b"llvm.global_dtors") || g.initializer.is_none() {
        return None;
    }
    let Some(Type::Array { element, .. }) = module.types.get(g.common.value_type) else { return None };
    match module.types.get(*element) {
        Some(Type::Struct { elements: Some(fields), .. }) if fields.len() == 2 => Some([fields[0], fields[1]]),
        _ => None,
    }
}
