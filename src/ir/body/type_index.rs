//! The module's types by structure, for the instructions whose result type the records
//! leave out, and [`NO_TYPE`].

use alloc::collections::BTreeMap;

use crate::ir::module::types::{Type, TypeId, TypeTable};

/// Types looked up by structure (the pointer to a type, a vector of a type, …): the
/// result types of instructions that the records do not spell out.
#[derive(Debug)]
pub(super) struct TypeIndex {
    map: BTreeMap<TypeKey, TypeId>,
    pub(super) typed_pointers: bool,
    /// The types nearly every body asks for, looked up once.
    pub(super) void: TypeId,
    label: TypeId,
    token: TypeId,
    i1: TypeId,
    pub(super) metadata: TypeId,
}

/// A type by its structure: what [`TypeIndex`] is keyed by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum TypeKey {
    Void,
    Label,
    Token,
    Metadata,
    Int(u64),
    Pointer(u32, u64),
    Vector(u32, u64, bool),
    /// A literal struct of two elements: `{ T, i1 }` for cmpxchg.
    Pair(u32, u32),
}

/// The type id of nothing (a type a malformed file never defined).
pub const NO_TYPE: TypeId = TypeId(u32::MAX);

impl TypeIndex {
    pub(super) fn new(types: &TypeTable) -> Self {
        let mut index = TypeIndex {
            map: BTreeMap::new(),
            typed_pointers: false,
            void: NO_TYPE,
            label: NO_TYPE,
            token: NO_TYPE,
            i1: NO_TYPE,
            metadata: NO_TYPE,
        };
        for (i, t) in types.types.iter().enumerate() {
            let key = match t {
                Type::Void => TypeKey::Void,
                Type::Label => TypeKey::Label,
                Type::Token => TypeKey::Token,
                Type::Metadata => TypeKey::Metadata,
                Type::Integer(w) => TypeKey::Int(*w),
                Type::Pointer { pointee, address_space } => {
                    index.typed_pointers |= pointee.is_some();
                    TypeKey::Pointer(pointee.map_or(u32::MAX, |p| p.0), *address_space)
                }
                Type::Vector { len, element, scalable } => TypeKey::Vector(element.0, *len, *scalable),
                Type::Struct { identified: false, elements: Some(e), .. } if e.len() == 2 => {
                    TypeKey::Pair(e[0].0, e[1].0)
                }
                _ => continue,
            };
            index.map.entry(key).or_insert(TypeId(i as u32));
        }
        index.void = index.lookup(TypeKey::Void);
        index.label = index.lookup(TypeKey::Label);
        index.token = index.lookup(TypeKey::Token);
        index.i1 = index.lookup(TypeKey::Int(1));
        index.metadata = index.lookup(TypeKey::Metadata);
        index
    }

    fn lookup(&self, key: TypeKey) -> TypeId {
        self.map.get(&key).copied().unwrap_or(NO_TYPE)
    }

    pub(super) fn get(&self, key: TypeKey) -> TypeId {
        match key {
            TypeKey::Void => self.void,
            TypeKey::Label => self.label,
            TypeKey::Token => self.token,
            TypeKey::Int(1) => self.i1,
            key => self.lookup(key),
        }
    }

    /// The pointer to `pointee` in `address_space`: `ptr` in a file with opaque pointers.
    pub(super) fn pointer_to(&self, pointee: TypeId, address_space: u64) -> TypeId {
        let pointee = if self.typed_pointers { pointee.0 } else { u32::MAX };
        self.get(TypeKey::Pointer(pointee, address_space))
    }
}
