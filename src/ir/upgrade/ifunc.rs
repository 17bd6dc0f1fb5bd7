//! The resolver of an ifunc that LLVM 14 and 15 read through a `bitcast`
//! (`BitcodeReader::resolveGlobalAndIndirectSymbolInits`): LLVM 3.9 to 13 let a resolver
//! have any function pointer type (LLVM's tests wrote `i8* ()*` for a `void ()` ifunc),
//! LLVM 14 "transparently fixes up the type" to `T* ()*` for an ifunc of value type `T`.
//! From LLVM 16 a typed module is read with opaque pointers, where the cast folds away.

use crate::ir::module::types::{Type, TypeId, TypeTable};

/// Whether LLVM `llvm_version`, reading a typed module with typed pointers, casts an ifunc
/// of value type `value_type` in address space `address_space` to its resolver type when
/// the resolver is a `resolver` pointer (a pointer type, or a function type `F` for a
/// function of address space `resolver_address_space`): when the resolver is not already
/// `value_type* ()` in that address space.
pub fn casts_ifunc_resolver(
    llvm_version: u32,
    types: &TypeTable,
    value_type: TypeId,
    address_space: u64,
    resolver_function_type: TypeId,
    resolver_address_space: u64,
) -> bool {
    if !(14..=15).contains(&llvm_version) {
        return false;
    }
    let returns_value_pointer = match types.get(resolver_function_type) {
        Some(Type::Function { vararg: false, ret, params }) if params.is_empty() => {
            matches!(types.get(*ret), Some(Type::Pointer { pointee: Some(p), address_space: 0 }) if *p == value_type)
        }
        _ => false,
    };
    !(returns_value_pointer && resolver_address_space == address_space)
}

#[cfg(test)]
mod tests {
    use super::casts_ifunc_resolver;
    use crate::ir::module::types::{Type, TypeId, TypeTable};
    use alloc::vec;

    #[test]
    fn a_resolver_of_another_type_is_cast_by_14_and_15_only() {
        let t = |i: u32| TypeId(i);
        let types = TypeTable {
            types: vec![
                Type::Void,                                                  // 0
                Type::Function { vararg: false, ret: t(0), params: vec![] }, // 1: void ()
                Type::Pointer { pointee: Some(t(1)), address_space: 0 },     // 2: void ()*
                Type::Function { vararg: false, ret: t(2), params: vec![] }, // 3: void ()* ()
                Type::Integer(8),                                            // 4
                Type::Pointer { pointee: Some(t(4)), address_space: 0 },     // 5: i8*
                Type::Function { vararg: false, ret: t(5), params: vec![] }, // 6: i8* ()
            ],
            declared_len: None,
        };
        assert!(casts_ifunc_resolver(14, &types, t(1), 0, t(6), 0));
        assert!(casts_ifunc_resolver(15, &types, t(1), 0, t(6), 0));
        assert!(!casts_ifunc_resolver(13, &types, t(1), 0, t(6), 0));
        assert!(!casts_ifunc_resolver(16, &types, t(1), 0, t(6), 0));
        assert!(!casts_ifunc_resolver(14, &types, t(1), 0, t(3), 0));
        assert!(casts_ifunc_resolver(14, &types, t(1), 1, t(3), 0));
    }
}
