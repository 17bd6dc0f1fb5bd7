//! Types of LLVM 1.x: the primitive type ids and the derived types of the type pools.
//! Their printing in the assembly syntax of the time (`int`, `sbyte*`, `{ int, \2* }`) is in
//! `print.rs`, which reads this table.

use alloc::vec::Vec;

/// A type slot number as the decoder resolves it: `0` to `12` are the primitive types
/// ([`Type::primitive`]), `13` on index the module's global type pool, and after those the
/// function-local types of the body being read.
///
/// Compaction tables and the "type type" plane of bytecode before LLVM 1.3 are undone
/// by the decoder: a `TypeId` is always in this one numbering.
pub type TypeId = u32;

/// The first derived type id: types `0..FIRST_DERIVED` are primitive.
pub const FIRST_DERIVED: TypeId = 13;

/// `void`'s id.
pub const VOID: TypeId = 0;
/// `bool`'s id.
pub const BOOL: TypeId = 1;
/// `ubyte`'s id.
pub const UBYTE: TypeId = 2;
/// `sbyte`'s id.
pub const SBYTE: TypeId = 3;
/// `uint`'s id.
pub const UINT: TypeId = 6;
/// `int`'s id.
pub const INT: TypeId = 7;
/// `ulong`'s id.
pub const ULONG: TypeId = 8;
/// `long`'s id.
pub const LONG: TypeId = 9;
/// `label`'s id.
pub const LABEL: TypeId = 12;

/// The names of the primitive types, by id.
pub(super) const PRIMITIVE_NAMES: [&str; 13] =
    ["void", "bool", "ubyte", "sbyte", "ushort", "short", "uint", "int", "ulong", "long", "float", "double", "label"];

/// A type, as the type pools define it. Derived types refer to others by [`TypeId`],
/// forward references included (a type pool may refer to types it defines later).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum Type {
    /// One of the thirteen primitive types, by id (`0` void to `12` label).
    Primitive(TypeId),
    /// Type id 13: a function type.
    Function {
        /// The return type.
        ret: TypeId,
        /// The parameter types.
        params: Vec<TypeId>,
        /// Whether the parameter list ends with `...` (written as a last `void` parameter).
        vararg: bool,
    },
    /// Type id 14: a structure, its fields in order.
    Struct(Vec<TypeId>),
    /// Type id 15: an array.
    Array {
        /// The element type.
        elem: TypeId,
        /// The number of elements.
        len: u32,
    },
    /// Type id 16: a pointer to the element type.
    Pointer(TypeId),
    /// Type id 17: an opaque type.
    Opaque,
    /// Type id 18: a packed vector (`<4 x float>`), LLVM 1.5 on.
    Packed {
        /// The element type.
        elem: TypeId,
        /// The number of elements.
        len: u32,
    },
}

impl Type {
    /// The primitive type with this id, if `id` is below [`FIRST_DERIVED`].
    pub fn primitive(id: TypeId) -> Option<Type> {
        (id < FIRST_DERIVED).then_some(Type::Primitive(id))
    }

    /// Whether this is one of the integer types (`ubyte` to `long`; not `bool`).
    pub fn is_integer(&self) -> bool {
        matches!(self, Type::Primitive(2..=9))
    }

    /// Whether this is a signed integer type (`sbyte`, `short`, `int`, `long`).
    pub fn is_signed(&self) -> bool {
        matches!(self, Type::Primitive(3 | 5 | 7 | 9))
    }

    /// The width in bits of an integer or `bool` type.
    pub fn int_bits(&self) -> Option<u32> {
        match self {
            Type::Primitive(1) => Some(1),
            Type::Primitive(2 | 3) => Some(8),
            Type::Primitive(4 | 5) => Some(16),
            Type::Primitive(6 | 7) => Some(32),
            Type::Primitive(8 | 9) => Some(64),
            _ => None,
        }
    }

    /// The type ids this type refers to.
    pub fn refs(&self) -> &[TypeId] {
        match self {
            Type::Primitive(_) | Type::Opaque => &[],
            Type::Function { params, .. } => params,
            Type::Struct(fields) => fields,
            Type::Array { elem, .. } | Type::Pointer(elem) | Type::Packed { elem, .. } => core::slice::from_ref(elem),
        }
    }
}

/// The types of a module (its global type pool) and of the body being read (its
/// function-local types), by [`TypeId`], with the names its symbol tables give them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct TypeTable {
    /// The derived types: `types[i]` has id `FIRST_DERIVED + i`.
    pub types: Vec<Type>,
    /// Names from the symbol tables, sorted by type ([`names`](Self::names)).
    names: Vec<(TypeId, Vec<u8>)>,
}

impl TypeTable {
    /// The type with this id, primitive or derived.
    pub fn get(&self, id: TypeId) -> Option<Type> {
        Type::primitive(id).or_else(|| self.types.get((id - FIRST_DERIVED) as usize).cloned())
    }

    /// A reference to a derived type (`None` for primitives: see [`get`](Self::get)).
    pub fn derived(&self, id: TypeId) -> Option<&Type> {
        id.checked_sub(FIRST_DERIVED).and_then(|i| self.types.get(i as usize))
    }

    /// How many ids are defined: the primitives and the derived types.
    pub fn len(&self) -> u32 {
        FIRST_DERIVED.saturating_add(self.types.len() as u32)
    }

    /// Whether there are no derived types.
    pub fn is_empty(&self) -> bool {
        self.types.is_empty()
    }

    /// The pointee of a pointer type.
    pub fn pointee(&self, id: TypeId) -> Option<TypeId> {
        match self.derived(id)? {
            Type::Pointer(elem) => Some(*elem),
            _ => None,
        }
    }

    /// The function type a pointer type points to: (return type, parameters, vararg).
    pub fn function_of_pointer(&self, id: TypeId) -> Option<(TypeId, &[TypeId], bool)> {
        match self.derived(self.pointee(id)?)? {
            Type::Function { ret, params, vararg } => Some((*ret, params, *vararg)),
            _ => None,
        }
    }

    /// The first type id equal to `ty` (LLVM uniques types, so the writer wrote each
    /// once): how the decoder finds the slot of a type it computes, such as the pointer a
    /// `getelementptr` returns.
    pub fn find(&self, ty: &Type) -> Option<TypeId> {
        if let Type::Primitive(id) = ty {
            return Some(*id);
        }
        self.types.iter().position(|t| t == ty).map(|i| FIRST_DERIVED + i as TypeId)
    }

    /// The name the symbol tables give a type, if any (its first one): a binary search.
    pub fn name(&self, id: TypeId) -> Option<&[u8]> {
        let at = self.names.partition_point(|(t, _)| *t < id);
        self.names.get(at).filter(|(t, _)| *t == id).map(|(_, n)| n.as_slice())
    }

    /// Every (type, name) the symbol tables give, sorted by type (a type's names in the
    /// file's order).
    pub fn names(&self) -> &[(TypeId, Vec<u8>)] {
        &self.names
    }

    /// Adds names, keeping them sorted by type.
    pub(super) fn add_names(&mut self, names: impl IntoIterator<Item = (TypeId, Vec<u8>)>) {
        self.names.extend(names);
        self.names.sort_by_key(|(t, _)| *t);
    }
}
