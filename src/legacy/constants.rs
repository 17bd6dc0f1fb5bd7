//! Values, constants and the pools that define them: the global type pool, the module and
//! function constant pools (types, strings, then one plane of constants per type).

use alloc::vec::Vec;
use core::ops::Range;

use super::bytes::ByteReader;
use super::opcode::Opcode;
use super::rules::Rules;
use super::types::{FIRST_DERIVED, Type, TypeId, TypeTable};
use super::{LegacyError, Result};

/// What an operand refers to.
///
/// Values live in "type planes": a value is named in the file by its type and its slot
/// in that type's plane. The decoder resolves those pairs to this enum.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum Value {
    /// The zero of the operand's type (slot 0 of most planes: `0`, `false`, `null`,
    /// `zeroinitializer`).
    Null,
    /// A global variable: an index into [`Module::globals`](super::Module::globals).
    Global(u32),
    /// A function: an index into [`Module::functions`](super::Module::functions).
    Function(u32),
    /// A module constant: an index into [`Module::constants`](super::Module::constants).
    Constant(u32),
    /// A function constant: an index into [`Body::constants`](super::Body::constants).
    LocalConstant(u32),
    /// The function's argument `n`.
    Argument(u32),
    /// The result of instruction `n` of the body ([`Body::instructions`](super::Body::instructions)).
    Instruction(u32),
    /// Basic block `n` of the body.
    Block(u32),
    /// A slot that names nothing the module or the body defines: a forward reference
    /// never defined, or (in [`Module::body_partial`](super::Module::body_partial)) a
    /// block past the ones read. Kept, not an error; the printer shows `<badref>`.
    Unresolved {
        /// The plane (the type as the function numbers it).
        plane: u32,
        /// The slot in it.
        slot: u32,
    },
}

/// An operand: a value and its type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Operand {
    /// Its type.
    pub ty: TypeId,
    /// What it is.
    pub value: Value,
}

/// A run of operands in an operand pool ([`Module::operand_pool`](super::Module::operand_pool),
/// [`Body::operand_pool`](super::Body::operand_pool)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Operands {
    /// Index of the first.
    pub start: u32,
    /// How many.
    pub len: u32,
}

impl Operands {
    /// The index range in the pool.
    pub fn range(self) -> Range<usize> {
        self.start as usize..self.start as usize + self.len as usize
    }
}

/// Appends a value to its type plane. Planes are numbered by type ids the caller has
/// checked against the type pool, so their number is bounded by the input.
pub(super) fn push_value(planes: &mut Vec<Vec<Value>>, plane: u32, value: Value) {
    let plane = plane as usize;
    if planes.len() <= plane {
        planes.resize_with(plane + 1, Vec::new);
    }
    planes[plane].push(value);
}

/// A constant of a constant pool.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Constant<'a> {
    /// Its type.
    pub ty: TypeId,
    /// Its value.
    pub kind: ConstantKind<'a>,
    /// Byte offset of its encoding.
    pub offset: usize,
}

/// What a constant is.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum ConstantKind<'a> {
    /// A `bool`.
    Bool(bool),
    /// A signed integer (`sbyte`, `short`, `int`, `long`).
    Int(i64),
    /// An unsigned integer (`ubyte`, `ushort`, `uint`, `ulong`).
    UInt(u64),
    /// A `float`.
    Float(f32),
    /// A `double`.
    Double(f64),
    /// A constant string of the module pool's string plane: an array of `sbyte` or
    /// `ubyte` whose bytes are borrowed from the file.
    String(&'a [u8]),
    /// An array: its elements.
    Array(Operands),
    /// A structure: its fields.
    Struct(Operands),
    /// A packed vector: its elements.
    Packed(Operands),
    /// A pointer constant of the pointer plane (a global, by its slot): bytecode kept it
    /// for backward compatibility. The one operand is the global.
    Pointer(Operands),
    /// `undef` (version 5 on).
    Undef,
    /// Inline assembler (version 5 on, LLVM 1.6+): a pointer-to-function constant.
    InlineAsm {
        /// The assembly.
        asm: &'a [u8],
        /// The constraint string.
        constraints: &'a [u8],
        /// Whether it has side effects (flag bit 0).
        side_effects: bool,
        /// The flags as written (bits other than 0 are unknown).
        flags: u32,
    },
    /// A constant expression: `cast`, `getelementptr`, `select`, a binary operator
    /// (version 6's `udiv` to `frem` among them), a shift, or the vector operators.
    Expr {
        /// The opcode.
        opcode: Opcode,
        /// The operands, with their types.
        operands: Operands,
    },
}

impl ConstantKind<'_> {
    /// The value of an integer or `bool` constant, as bits.
    pub fn as_u64(&self) -> Option<u64> {
        match *self {
            ConstantKind::Bool(b) => Some(b.into()),
            ConstantKind::Int(v) => Some(v as u64),
            ConstantKind::UInt(v) => Some(v),
            _ => None,
        }
    }
}

/// Where a pool's definitions go, and how its type slots are numbered: the module, or a
/// function body (whose compaction table renumbers types).
pub(super) trait Scope<'a> {
    fn rules(&self) -> Rules;
    fn types(&self) -> &TypeTable;
    /// Appends types read from a type pool.
    fn add_types(&mut self, types: Vec<Type>);
    /// The type a slot of this scope names.
    fn global_type(&self, local: u32, offset: usize) -> Result<TypeId>;
    /// The slot this scope gives a type.
    fn local_type(&self, global: TypeId) -> Option<u32>;
    /// Adds a constant to the plane `local`.
    fn push_constant(&mut self, local: u32, constant: Constant<'a>);
    fn operand_pool(&mut self) -> &mut Vec<Operand>;
    /// Whether this is a function's pool (no strings; types come first).
    fn is_function(&self) -> bool;
    /// Whether a compaction table renumbers the types.
    fn compacted(&self) -> bool {
        false
    }
}

/// Reads a type slot: a VBR, with version 3's `0xFFFFFF` escape, mapped to this crate's
/// numbering. The flag is the pre-1.3 "type type".
pub(super) fn read_type_slot(r: &mut ByteReader<'_>, rules: Rules) -> Result<(u32, bool)> {
    let mut id = r.read_vbr_u32()?;
    if !rules.types_32bit && id == 0x00FF_FFFF {
        id = r.read_vbr_u32()?;
    }
    Ok(rules.sanitize_type(id))
}

/// Reads a type slot that must not be the "type type".
pub(super) fn read_value_type(r: &mut ByteReader<'_>, rules: Rules) -> Result<u32> {
    let at = r.offset();
    match read_type_slot(r, rules)? {
        (_, true) => {
            Err(LegacyError::Malformed { offset: at, what: "the type type where a type was expected", value: 12 })
        }
        (id, false) => Ok(id),
    }
}

/// Reads `count` type definitions (a type pool) into the scope. Forward references are
/// allowed (they are checked once all are read).
pub(super) fn read_types<'a, S: Scope<'a>>(r: &mut ByteReader<'a>, count: u32, scope: &mut S) -> Result<()> {
    let rules = scope.rules();
    let mut types = Vec::new();
    let mut offsets = Vec::new();
    {
        let view: &S = scope;
        let next = |r: &mut ByteReader<'a>| -> Result<TypeId> {
            let at = r.offset();
            let t = read_value_type(r, rules)?;
            forward_type(view, t, at)
        };
        for _ in 0..count {
            let at = r.offset();
            let id = read_value_type(r, rules)?;
            let ty = match id {
                0..=12 => Type::Primitive(id),
                13 => {
                    let ret = next(r)?;
                    let mut params = r.read_llist(next)?;
                    let vararg = params.last() == Some(&0);
                    if vararg {
                        params.pop();
                    }
                    Type::Function { ret, params, vararg }
                }
                14 => {
                    // Not `read_zlist`: the terminator is a type slot read as LLVM reads it
                    // (an escaped 0 ends the list too).
                    let mut fields = Vec::new();
                    loop {
                        let field_at = r.offset();
                        let t = read_value_type(r, rules)?;
                        if t == 0 {
                            break;
                        }
                        fields.push(forward_type(view, t, field_at)?);
                    }
                    Type::Struct(fields)
                }
                15 | 18 => {
                    let elem = next(r)?;
                    let len = r.read_vbr_u32()?;
                    if id == 15 { Type::Array { elem, len } } else { Type::Packed { elem, len } }
                }
                16 => Type::Pointer(next(r)?),
                17 => Type::Opaque,
                other => {
                    return Err(LegacyError::Malformed { offset: at, what: "unknown type id", value: other.into() });
                }
            };
            types.push(ty);
            offsets.push(at);
        }
    }
    let limit = scope.types().len().saturating_add(types.len() as u32);
    for (ty, at) in types.iter().zip(&offsets) {
        if let Some(bad) = ty.refs().iter().find(|&&t| t >= limit) {
            return Err(LegacyError::Malformed {
                offset: *at,
                what: "type refers to an undefined type",
                value: (*bad).into(),
            });
        }
    }
    scope.add_types(types);
    Ok(())
}

/// The global type of a slot inside a type pool, which may refer past the types defined
/// so far (checked once the pool is read).
fn forward_type<'a, S: Scope<'a> + ?Sized>(scope: &S, local: u32, offset: usize) -> Result<TypeId> {
    if local < FIRST_DERIVED || !scope.compacted() { Ok(local) } else { scope.global_type(local, offset) }
}

/// Reads a constant pool block's payload into the scope.
pub(super) fn read_constant_pool<'a>(r: &mut ByteReader<'a>, scope: &mut impl Scope<'a>) -> Result<()> {
    let rules = scope.rules();
    if scope.is_function() && !rules.type_derived_from_value {
        let n = r.read_vbr_u32()?;
        read_types(r, n, scope)?;
    }
    while !r.is_at_end() {
        let count_at = r.offset();
        let count = r.read_vbr_u32()?;
        let (plane, type_type) = read_type_slot(r, rules)?;
        if count as usize > r.remaining() && !(type_type && count == 0) {
            return Err(LegacyError::ImplausibleCount {
                offset: count_at,
                what: "constant plane length",
                count: count.into(),
                remaining: r.remaining(),
            });
        }
        if type_type {
            read_types(r, count, scope)?;
        } else if plane == 0 {
            if scope.is_function() {
                return Err(LegacyError::Malformed {
                    offset: count_at,
                    what: "string constants in a function",
                    value: 0,
                });
            }
            for _ in 0..count {
                read_string_constant(r, scope)?;
            }
        } else {
            let ty = scope.global_type(plane, count_at)?;
            for _ in 0..count {
                let constant = read_constant(r, scope, plane, ty)?;
                scope.push_constant(plane, constant);
            }
        }
    }
    Ok(())
}

fn read_string_constant<'a>(r: &mut ByteReader<'a>, scope: &mut impl Scope<'a>) -> Result<()> {
    let at = r.offset();
    let plane = read_value_type(r, scope.rules())?;
    let ty = scope.global_type(plane, at)?;
    let len = match scope.types().derived(ty) {
        Some(Type::Array { elem: 2 | 3, len }) => *len,
        _ => {
            return Err(LegacyError::Malformed {
                offset: at,
                what: "string constant of a type not [N x sbyte/ubyte]",
                value: ty.into(),
            });
        }
    };
    let bytes = r.read_bytes(len as usize)?;
    scope.push_constant(plane, Constant { ty, kind: ConstantKind::String(bytes), offset: at });
    Ok(())
}

/// Pushes an operand (value to resolve later) and returns its index.
fn pending<'a>(scope: &mut impl Scope<'a>, ty: TypeId, plane: u32, slot: u32) {
    scope.operand_pool().push(Operand { ty, value: Value::Unresolved { plane, slot } });
}

fn read_constant<'a>(
    r: &mut ByteReader<'a>,
    scope: &mut impl Scope<'a>,
    plane: u32,
    ty: TypeId,
) -> Result<Constant<'a>> {
    let rules = scope.rules();
    let offset = r.offset();
    let mut n = r.read_vbr_u32()?;
    if n != 0 {
        if !rules.no_undef {
            if n == 1 {
                return Ok(Constant { ty, kind: ConstantKind::Undef, offset });
            }
            if n == u32::MAX {
                let asm = r.read_string()?;
                let constraints = r.read_string()?;
                let flags = r.read_vbr_u32()?;
                return Ok(Constant {
                    ty,
                    kind: ConstantKind::InlineAsm { asm, constraints, side_effects: flags & 1 != 0, flags },
                    offset,
                });
            }
            n -= 1;
        }
        let raw = r.read_vbr_u32()?;
        let opcode = rules.constant_opcode(raw);
        if n as usize > r.remaining() {
            return Err(LegacyError::ImplausibleCount {
                offset,
                what: "constant expression operand count",
                count: n.into(),
                remaining: r.remaining(),
            });
        }
        let start = scope.operand_pool().len() as u32;
        for _ in 0..n {
            let slot = r.read_vbr_u32()?;
            let at = r.offset();
            let arg_plane = read_value_type(r, rules)?;
            let arg_ty = scope.global_type(arg_plane, at)?;
            pending(scope, arg_ty, arg_plane, slot);
        }
        return Ok(Constant { ty, kind: ConstantKind::Expr { opcode, operands: Operands { start, len: n } }, offset });
    }
    let Some(t) = scope.types().get(ty) else {
        return Err(LegacyError::Malformed { offset, what: "constant of an undefined type", value: ty.into() });
    };
    let kind = match t {
        Type::Primitive(1) => match r.read_vbr_u32()? {
            v @ (0 | 1) => ConstantKind::Bool(v == 1),
            v => return Err(LegacyError::Malformed { offset, what: "bool constant neither 0 nor 1", value: v.into() }),
        },
        Type::Primitive(id @ (2 | 4 | 6)) => {
            let v = r.read_vbr_u32()?;
            let bits = [0, 0, 8, 0, 16, 0, 32][id as usize];
            if bits < 32 && v >> bits != 0 {
                return Err(LegacyError::Malformed {
                    offset,
                    what: "unsigned constant too large for its type",
                    value: v.into(),
                });
            }
            ConstantKind::UInt(v.into())
        }
        Type::Primitive(8) => ConstantKind::UInt(r.read_vbr_u64()?),
        Type::Primitive(id @ (3 | 5 | 7 | 9)) => {
            let v = r.read_vbr_i64()?;
            let bits = [0, 0, 0, 8, 0, 16, 0, 32, 0, 64][id as usize];
            if bits < 64 && (v < -(1i64 << (bits - 1)) || v >= 1i64 << (bits - 1)) {
                return Err(LegacyError::Malformed {
                    offset,
                    what: "signed constant out of range for its type",
                    value: v as u64,
                });
            }
            ConstantKind::Int(v)
        }
        Type::Primitive(10) => ConstantKind::Float(r.read_f32()?),
        Type::Primitive(11) => ConstantKind::Double(r.read_f64()?),
        Type::Array { elem, len } | Type::Packed { elem, len } => {
            let (elem, len, packed) = (elem, len, matches!(t, Type::Packed { .. }));
            let elem_plane = scope.local_type(elem).ok_or(LegacyError::Malformed {
                offset,
                what: "element type not in the compaction table",
                value: elem.into(),
            })?;
            let start = scope.operand_pool().len() as u32;
            for _ in 0..len {
                let slot = r.read_vbr_u32()?;
                pending(scope, elem, elem_plane, slot);
            }
            let ops = Operands { start, len };
            if packed { ConstantKind::Packed(ops) } else { ConstantKind::Array(ops) }
        }
        Type::Struct(fields) => {
            let fields = fields.clone();
            let start = scope.operand_pool().len() as u32;
            for field in &fields {
                let field_plane = scope.local_type(*field).ok_or(LegacyError::Malformed {
                    offset,
                    what: "field type not in the compaction table",
                    value: (*field).into(),
                })?;
                let slot = r.read_vbr_u32()?;
                pending(scope, *field, field_plane, slot);
            }
            ConstantKind::Struct(Operands { start, len: fields.len() as u32 })
        }
        Type::Pointer(_) => {
            let slot = r.read_vbr_u32()?;
            let start = scope.operand_pool().len() as u32;
            pending(scope, ty, plane, slot);
            ConstantKind::Pointer(Operands { start, len: 1 })
        }
        _ => {
            return Err(LegacyError::Malformed {
                offset,
                what: "constant of a type that has no constants",
                value: ty.into(),
            });
        }
    };
    Ok(Constant { ty, kind, offset })
}

/// A symbol table block, read: names of types, and of values by (plane, slot).
pub(super) struct SymbolTable<'a> {
    /// (type, name, offset of the entry).
    pub types: Vec<(TypeId, &'a [u8], usize)>,
    /// (plane, slot, name).
    pub values: Vec<(u32, u32, &'a [u8])>,
}

/// Reads a symbol table block's payload: type names (a list from version 2, a "type
/// type" plane before), then planes of value names.
pub(super) fn read_symbol_table<'a>(r: &mut ByteReader<'a>, rules: Rules) -> Result<SymbolTable<'a>> {
    let mut table = SymbolTable { types: Vec::new(), values: Vec::new() };
    if !rules.type_derived_from_value {
        table.types = r.read_llist(|r| {
            let at = r.offset();
            Ok((r.read_vbr_u32()?, r.read_string()?, at))
        })?;
    }
    while !r.is_at_end() {
        let n = r.read_vbr_u32()?;
        let (plane, type_type) = read_type_slot(r, rules)?;
        for _ in 0..n {
            let at = r.offset();
            let slot = r.read_vbr_u32()?;
            let name = r.read_string()?;
            if type_type {
                table.types.push((rules.sanitize_type(slot).0, name, at));
            } else {
                table.values.push((plane, slot, name));
            }
        }
    }
    Ok(table)
}
