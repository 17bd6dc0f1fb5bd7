//! The type table (TYPE_BLOCK_ID_NEW): every type code LLVM 22 writes and the legacy
//! ones, decoded (printed by `print::types`).

use alloc::string::String;
use alloc::vec::Vec;

use crate::error::Error;
use crate::ids::llvm_ir::raw as ids;
use crate::ir::module::walk::{each_record, short};
use crate::reader::Reader;

/// An index into a module's type table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct TypeId(pub u32);

/// One entry of the type table.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub enum Type {
    /// `void`.
    Void,
    /// `half`.
    Half,
    /// `bfloat`.
    BFloat,
    /// `float`.
    Float,
    /// `double`.
    Double,
    /// `x86_fp80`.
    X86Fp80,
    /// `fp128`.
    Fp128,
    /// `ppc_fp128`.
    PpcFp128,
    /// `label`.
    Label,
    /// `metadata`.
    Metadata,
    /// `x86_mmx` (LLVM 20 and later read it as `<1 x i64>`).
    X86Mmx,
    /// `x86_amx`.
    X86Amx,
    /// `token`.
    Token,
    /// `iN`.
    Integer(u64),
    /// `bN` (TYPE_CODE_BYTE, newer than LLVM 22).
    Byte(u64),
    /// A pointer: typed (`i32*`, legacy TYPE_CODE_POINTER) when `pointee` is given,
    /// otherwise opaque (`ptr`).
    Pointer {
        /// The pointee of a typed pointer.
        pointee: Option<TypeId>,
        /// The address space (0 by default).
        address_space: u64,
    },
    /// A function type (TYPE_CODE_FUNCTION, or the legacy FUNCTION_OLD).
    Function {
        /// `...` after the parameters.
        vararg: bool,
        /// The return type.
        ret: TypeId,
        /// The parameter types.
        params: Vec<TypeId>,
    },
    /// A struct: literal (STRUCT_ANON), identified (STRUCT_NAMED, named by the
    /// STRUCT_NAME before it, or numbered if it has none), or opaque (OPAQUE:
    /// `elements` is `None`).
    Struct {
        /// The name from STRUCT_NAME; `None` for literal and unnamed identified structs.
        name: Option<String>,
        /// Whether the struct is identified (named or numbered), not literal.
        identified: bool,
        /// `<{ … }>`.
        packed: bool,
        /// The element types; `None` for an opaque struct.
        elements: Option<Vec<TypeId>>,
    },
    /// `[N x T]`.
    Array {
        /// N.
        len: u64,
        /// T.
        element: TypeId,
    },
    /// `<N x T>` or `<vscale x N x T>`.
    Vector {
        /// N.
        len: u64,
        /// T.
        element: TypeId,
        /// `vscale x`.
        scalable: bool,
    },
    /// `target("name", types…, ints…)`.
    TargetExt {
        /// The name, from the STRUCT_NAME before it.
        name: String,
        /// Type parameters.
        types: Vec<TypeId>,
        /// Integer parameters.
        ints: Vec<u64>,
    },
    /// A type code this crate does not know, kept with its operands.
    Unknown {
        /// The record code.
        code: u32,
        /// The operands.
        operands: Vec<u64>,
    },
}

impl Type {
    /// The types this one refers to.
    pub fn contained(&self) -> impl Iterator<Item = TypeId> + '_ {
        let (one, many): (Option<TypeId>, &[TypeId]) = match self {
            Type::Pointer { pointee, .. } => (*pointee, &[]),
            Type::Function { ret, params, .. } => (Some(*ret), params),
            Type::Struct { elements: Some(e), .. } => (None, e),
            Type::Array { element, .. } | Type::Vector { element, .. } => (Some(*element), &[]),
            Type::TargetExt { types, .. } => (None, types),
            _ => (None, &[]),
        };
        one.into_iter().chain(many.iter().copied())
    }

    /// Whether it is an identified (named or numbered) struct, printed by name.
    pub fn is_identified_struct(&self) -> bool {
        matches!(self, Type::Struct { identified: true, .. })
    }
}

/// A module's type table, indexed by [`TypeId`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct TypeTable {
    /// The entries, in table order.
    pub types: Vec<Type>,
    /// TYPE_CODE_NUMENTRY, if the block gave one.
    pub declared_len: Option<u64>,
}

impl TypeTable {
    /// The pointee type of typed pointer type `id` (`None` for an opaque pointer or
    /// another type).
    pub(crate) fn pointee(&self, id: TypeId) -> Option<TypeId> {
        match self.get(id) {
            Some(Type::Pointer { pointee, .. }) => *pointee,
            _ => None,
        }
    }

    /// Whether `id` is a floating-point type or a vector of one (LLVM's
    /// `isFPOrFPVectorTy`): what tells `fadd` from `add` for the opcode's name. Vectors
    /// refer only to earlier types, so the recursion ends.
    pub(crate) fn is_fp_or_fp_vector(&self, id: TypeId) -> bool {
        match self.get(id) {
            Some(Type::Vector { element, .. }) => self.is_fp_or_fp_vector(*element),
            Some(
                Type::Half | Type::BFloat | Type::Float | Type::Double | Type::X86Fp80 | Type::Fp128 | Type::PpcFp128,
            ) => true,
            _ => false,
        }
    }

    /// The width of an integer type or of a vector of integers' elements (what LLVM's
    /// `getScalarSizeInBits` gives them); `None` for other types.
    pub(crate) fn scalar_bit_width(&self, id: TypeId) -> Option<u64> {
        match self.get(id) {
            Some(Type::Integer(width)) => Some(*width),
            Some(Type::Vector { element, .. }) => match self.get(*element) {
                Some(Type::Integer(width)) => Some(*width),
                _ => None,
            },
            _ => None,
        }
    }

    /// The type at `id`.
    pub fn get(&self, id: TypeId) -> Option<&Type> {
        self.types.get(id.0 as usize)
    }

    /// The number of types.
    pub fn len(&self) -> usize {
        self.types.len()
    }

    /// Whether the table is empty.
    pub fn is_empty(&self) -> bool {
        self.types.is_empty()
    }

    /// Whether `id` is an identified struct without a name (printed `%N`).
    pub(crate) fn is_numbered_struct(&self, id: TypeId) -> bool {
        matches!(self.get(id), Some(Type::Struct { identified: true, name: None, .. }))
    }
}

/// Reads the TYPE_BLOCK_ID_NEW block just entered onto `table` (a module may hold more
/// than one: their entries are numbered on).
pub(crate) fn read_block(reader: &mut Reader<'_>, table: &mut TypeTable) -> Result<(), Error> {
    let mut pending_name: Option<String> = None;
    // (record bit, referring entry, referenced index)
    let mut refs: Vec<(u64, usize, u64)> = Vec::new();
    let types = &mut *table;
    each_record(reader, |r| {
        let ops = r.operand_slice();
        let entry = types.types.len();
        let mut refer = |i: u64| refs.push((r.bit_offset(), entry, i));
        let tid = |v: u64| TypeId(u32::try_from(v).unwrap_or(u32::MAX));
        let ty = match r.code() {
            ids::TYPE_CODE_NUMENTRY => {
                types.declared_len = ops.first().copied();
                return Ok(());
            }
            ids::TYPE_CODE_STRUCT_NAME => {
                pending_name = Some(r.text_from(0));
                return Ok(());
            }
            ids::TYPE_CODE_VOID => Type::Void,
            ids::TYPE_CODE_HALF => Type::Half,
            ids::TYPE_CODE_BFLOAT => Type::BFloat,
            ids::TYPE_CODE_FLOAT => Type::Float,
            ids::TYPE_CODE_DOUBLE => Type::Double,
            ids::TYPE_CODE_X86_FP80 => Type::X86Fp80,
            ids::TYPE_CODE_FP128 => Type::Fp128,
            ids::TYPE_CODE_PPC_FP128 => Type::PpcFp128,
            ids::TYPE_CODE_LABEL => Type::Label,
            ids::TYPE_CODE_METADATA => Type::Metadata,
            ids::TYPE_CODE_X86_MMX => Type::X86Mmx,
            ids::TYPE_CODE_X86_AMX => Type::X86Amx,
            ids::TYPE_CODE_TOKEN => Type::Token,
            ids::TYPE_CODE_INTEGER if !ops.is_empty() => Type::Integer(ops[0]),
            ids::TYPE_CODE_BYTE if !ops.is_empty() => Type::Byte(ops[0]),
            ids::TYPE_CODE_POINTER if !ops.is_empty() => {
                refer(ops[0]);
                Type::Pointer { pointee: Some(tid(ops[0])), address_space: ops.get(1).copied().unwrap_or(0) }
            }
            ids::TYPE_CODE_OPAQUE_POINTER => {
                Type::Pointer { pointee: None, address_space: ops.first().copied().unwrap_or(0) }
            }
            ids::TYPE_CODE_FUNCTION_OLD | ids::TYPE_CODE_FUNCTION => {
                // FUNCTION_OLD: [vararg, attrid, retty, params…]; FUNCTION: [vararg, retty, params…]
                let first = if r.code() == ids::TYPE_CODE_FUNCTION { 1 } else { 2 };
                if ops.len() <= first {
                    return Err(short(r, "TYPE FUNCTION", ops.len(), first + 1));
                }
                ops[first..].iter().for_each(|&t| refer(t));
                Type::Function {
                    vararg: ops[0] != 0,
                    ret: tid(ops[first]),
                    params: ops[first + 1..].iter().map(|&t| tid(t)).collect(),
                }
            }
            ids::TYPE_CODE_STRUCT_ANON | ids::TYPE_CODE_STRUCT_NAMED if !ops.is_empty() => {
                ops[1..].iter().for_each(|&t| refer(t));
                let identified = r.code() == ids::TYPE_CODE_STRUCT_NAMED;
                Type::Struct {
                    name: if identified { pending_name.take().filter(|n| !n.is_empty()) } else { None },
                    identified,
                    packed: ops[0] != 0,
                    elements: Some(ops[1..].iter().map(|&t| tid(t)).collect()),
                }
            }
            ids::TYPE_CODE_OPAQUE => Type::Struct {
                name: pending_name.take().filter(|n| !n.is_empty()),
                identified: true,
                packed: false,
                elements: None,
            },
            ids::TYPE_CODE_ARRAY | ids::TYPE_CODE_VECTOR if ops.len() >= 2 => {
                refer(ops[1]);
                if r.code() == ids::TYPE_CODE_ARRAY {
                    Type::Array { len: ops[0], element: tid(ops[1]) }
                } else {
                    Type::Vector { len: ops[0], element: tid(ops[1]), scalable: ops.get(2).is_some_and(|&s| s != 0) }
                }
            }
            ids::TYPE_CODE_TARGET_TYPE if !ops.is_empty() => {
                let n = ops[0];
                let Some(params) = usize::try_from(n).ok().and_then(|n| ops.get(1..n.checked_add(1)?)) else {
                    return Err(short(r, "TYPE TARGET_TYPE", ops.len(), 1));
                };
                params.iter().for_each(|&t| refer(t));
                Type::TargetExt {
                    name: pending_name.take().unwrap_or_default(),
                    types: params.iter().map(|&t| tid(t)).collect(),
                    ints: ops[1 + params.len()..].to_vec(),
                }
            }
            ids::TYPE_CODE_INTEGER
            | ids::TYPE_CODE_BYTE
            | ids::TYPE_CODE_POINTER
            | ids::TYPE_CODE_STRUCT_ANON
            | ids::TYPE_CODE_STRUCT_NAMED
            | ids::TYPE_CODE_ARRAY
            | ids::TYPE_CODE_VECTOR
            | ids::TYPE_CODE_TARGET_TYPE => {
                return Err(short(r, "TYPE", ops.len(), ops.len() + 1));
            }
            code => Type::Unknown { code, operands: ops.to_vec() },
        };
        types.types.push(ty);
        Ok(())
    })?;
    // A type may refer forward only to an identified struct (printed by name), so that
    // printing a type always ends.
    for (bit, entry, index) in refs {
        let target = usize::try_from(index).ok().and_then(|i| table.types.get(i).map(|t| (i, t)));
        match target {
            Some((i, t)) if i < entry || t.is_identified_struct() => {}
            _ => return Err(Error::IndexOutOfRange { bit, what: "type", index, len: table.len() }),
        }
    }
    Ok(())
}
