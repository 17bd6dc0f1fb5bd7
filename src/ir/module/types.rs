//! The type table (TYPE_BLOCK_ID_NEW): every type code LLVM 22 writes and the legacy
//! ones, printed as `llvm-dis` prints them.

use alloc::string::String;
use alloc::vec::Vec;
use core::cell::Cell;
use core::fmt;

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
    /// `x86_mmx` (LLVM 19 and later read it as `<1 x i64>`).
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

/// How many type nodes one `Display` may print before it abbreviates with `…`: type
/// graphs can be exponentially large when printed (a struct of the previous struct,
/// twice, and so on), and printing must stay bounded.
const DISPLAY_BUDGET: u32 = 20_000;

/// How deeply nested a printed type may be before the rest is abbreviated with `…`
/// (printing recurses; a file can nest pointers or arrays thousands deep).
const DISPLAY_DEPTH: u32 = 200;

impl TypeTable {
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

    /// Prints type `id` as `llvm-dis` does (`{ i32, ptr }`, `%struct.Foo`, `i8*`).
    pub fn display(&self, id: TypeId) -> TypeDisplay<'_> {
        TypeDisplay { table: self, id, opaque_pointers: false, budget: Cell::new((DISPLAY_BUDGET, 0)) }
    }

    /// Prints type `id` as an LLVM with opaque pointers only (LLVM 17 and later) prints
    /// it: every typed pointer as `ptr`.
    pub fn display_opaque(&self, id: TypeId) -> TypeDisplay<'_> {
        TypeDisplay { table: self, id, opaque_pointers: true, budget: Cell::new((DISPLAY_BUDGET, 0)) }
    }

    /// The number `llvm-dis` gives an unnamed identified struct (`%0`, `%1`, …): its
    /// position among the unnamed identified structs of the table.
    fn struct_number(&self, id: TypeId) -> usize {
        (0..id.0).filter(|&i| self.is_numbered_struct(TypeId(i))).count()
    }

    /// The identified structs with their bodies, as `llvm-dis` prints them at the top of
    /// a module: `%struct.Foo = type { i32 }`, `%T = type opaque`; in table order (which
    /// `llvm-dis` does not follow: it prints the structs in the order the module uses
    /// them, which [`Bodies::display_module`](crate::ir::Bodies::display_module) follows).
    pub fn struct_definitions(&self, opaque_pointers: bool) -> impl Iterator<Item = String> + '_ {
        (0..self.types.len()).filter_map(move |i| self.struct_definition(TypeId(i as u32), opaque_pointers))
    }

    /// The definition of identified struct `id` (`%struct.Foo = type { i32 }`), `None`
    /// if `id` is not an identified struct.
    pub(crate) fn struct_definition(&self, id: TypeId, opaque_pointers: bool) -> Option<String> {
        use alloc::format;
        let t = self.get(id)?;
        let Type::Struct { packed, elements, identified: true, .. } = t else { return None };
        let name = if opaque_pointers { self.display_opaque(id) } else { self.display(id) };
        Some(match elements {
            None => format!("{name} = type opaque"),
            Some(e) => {
                let mut body = String::new();
                let _ =
                    write_struct_body(&mut body, self, e, *packed, opaque_pointers, &Cell::new((DISPLAY_BUDGET, 0)));
                format!("{name} = type {body}")
            }
        })
    }

    /// Whether `id` is an identified struct without a name (printed `%N`).
    pub(crate) fn is_numbered_struct(&self, id: TypeId) -> bool {
        matches!(self.get(id), Some(Type::Struct { identified: true, name: None, .. }))
    }
}

/// Reads the TYPE_BLOCK_ID_NEW block just entered onto `types` (a module may hold more
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

/// A type printed as `llvm-dis` prints it; see [`TypeTable::display`].
pub struct TypeDisplay<'t> {
    table: &'t TypeTable,
    id: TypeId,
    opaque_pointers: bool,
    budget: Cell<(u32, u32)>,
}

impl fmt::Display for TypeDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_type(f, self.table, self.id, self.opaque_pointers, &self.budget)
    }
}

fn write_list(
    f: &mut dyn fmt::Write,
    table: &TypeTable,
    ids: &[TypeId],
    opaque: bool,
    budget: &Cell<(u32, u32)>,
) -> fmt::Result {
    for (i, t) in ids.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write_type(f, table, *t, opaque, budget)?;
    }
    Ok(())
}

fn write_struct_body(
    f: &mut dyn fmt::Write,
    table: &TypeTable,
    elements: &[TypeId],
    packed: bool,
    opaque: bool,
    budget: &Cell<(u32, u32)>,
) -> fmt::Result {
    if packed {
        f.write_char('<')?;
    }
    if elements.is_empty() {
        f.write_str("{}")?;
    } else {
        f.write_str("{ ")?;
        write_list(f, table, elements, opaque, budget)?;
        f.write_str(" }")?;
    }
    if packed {
        f.write_char('>')?;
    }
    Ok(())
}

fn write_type(
    f: &mut dyn fmt::Write,
    table: &TypeTable,
    id: TypeId,
    opaque: bool,
    budget: &Cell<(u32, u32)>,
) -> fmt::Result {
    let (left, depth) = budget.get();
    if left == 0 || depth >= DISPLAY_DEPTH {
        return f.write_str("…");
    }
    budget.set((left - 1, depth + 1));
    let result = write_type_inner(f, table, id, opaque, budget);
    let (left, _) = budget.get();
    budget.set((left, depth));
    result
}

fn write_type_inner(
    f: &mut dyn fmt::Write,
    table: &TypeTable,
    id: TypeId,
    opaque: bool,
    budget: &Cell<(u32, u32)>,
) -> fmt::Result {
    let Some(ty) = table.get(id) else { return write!(f, "<type #{} out of range>", id.0) };
    match ty {
        Type::Void => f.write_str("void"),
        Type::Half => f.write_str("half"),
        Type::BFloat => f.write_str("bfloat"),
        Type::Float => f.write_str("float"),
        Type::Double => f.write_str("double"),
        Type::X86Fp80 => f.write_str("x86_fp80"),
        Type::Fp128 => f.write_str("fp128"),
        Type::PpcFp128 => f.write_str("ppc_fp128"),
        Type::Label => f.write_str("label"),
        Type::Metadata => f.write_str("metadata"),
        Type::X86Mmx => f.write_str("x86_mmx"),
        Type::X86Amx => f.write_str("x86_amx"),
        Type::Token => f.write_str("token"),
        Type::Integer(w) => write!(f, "i{w}"),
        Type::Byte(w) => write!(f, "b{w}"),
        Type::Pointer { pointee: Some(p), address_space } if !opaque => {
            write_type(f, table, *p, opaque, budget)?;
            if *address_space != 0 {
                write!(f, " addrspace({address_space})")?;
            }
            f.write_char('*')
        }
        Type::Pointer { address_space, .. } => {
            f.write_str("ptr")?;
            if *address_space != 0 {
                write!(f, " addrspace({address_space})")?;
            }
            Ok(())
        }
        Type::Function { vararg, ret, params } => {
            write_type(f, table, *ret, opaque, budget)?;
            f.write_str(" (")?;
            write_list(f, table, params, opaque, budget)?;
            if *vararg {
                f.write_str(if params.is_empty() { "..." } else { ", ..." })?;
            }
            f.write_char(')')
        }
        Type::Struct { name: Some(name), identified: true, .. } => {
            f.write_char('%')?;
            write_llvm_name(f, name.as_bytes())
        }
        Type::Struct { identified: true, .. } => write!(f, "%{}", table.struct_number(id)),
        Type::Struct { packed, elements, .. } => {
            write_struct_body(f, table, elements.as_deref().unwrap_or(&[]), *packed, opaque, budget)
        }
        Type::Array { len, element } => {
            write!(f, "[{len} x ")?;
            write_type(f, table, *element, opaque, budget)?;
            f.write_char(']')
        }
        Type::Vector { len, element, scalable } => {
            f.write_char('<')?;
            if *scalable {
                f.write_str("vscale x ")?;
            }
            write!(f, "{len} x ")?;
            write_type(f, table, *element, opaque, budget)?;
            f.write_char('>')
        }
        Type::TargetExt { name, types, ints } => {
            f.write_str("target(\"")?;
            write_escaped(f, name.as_bytes())?;
            f.write_char('"')?;
            for t in types {
                f.write_str(", ")?;
                write_type(f, table, *t, opaque, budget)?;
            }
            for i in ints {
                write!(f, ", {i}")?;
            }
            f.write_char(')')
        }
        Type::Unknown { code, .. } => write!(f, "<unknown type code {code}>"),
    }
}

/// Writes a name as LLVM's `printLLVMNameWithoutPrefix` does: bare if every character
/// is one of `[-a-zA-Z._0-9]` (not `$`, which the lexer reads but the printer quotes)
/// and it does not start with a digit, else quoted with `\XX` escapes.
pub(crate) fn write_llvm_name(f: &mut dyn fmt::Write, name: &[u8]) -> fmt::Result {
    let bare = !name.is_empty()
        && !name[0].is_ascii_digit()
        && name.iter().all(|&c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'.' | b'_'));
    if bare {
        // Every byte is ASCII.
        for &c in name {
            f.write_char(char::from(c))?;
        }
        Ok(())
    } else {
        f.write_char('"')?;
        write_escaped(f, name)?;
        f.write_char('"')
    }
}

/// LLVM's `printEscapedString`: printable ASCII as is, except `\` and `"`, which (like
/// every other byte) are written as `\XX`.
pub(crate) fn write_escaped(f: &mut dyn fmt::Write, s: &[u8]) -> fmt::Result {
    for &c in s {
        // `printEscapedString`: a backslash doubled, other unprintables and `"` in hex.
        if c == b'\\' {
            f.write_str("\\\\")?;
        } else if (0x20..0x7f).contains(&c) && c != b'"' {
            f.write_char(char::from(c))?;
        } else {
            write!(f, "\\{c:02X}")?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;
    use alloc::vec;

    /// Spellings from LLVM's LangRef.
    #[test]
    fn types_print_in_llvm_syntax() {
        let t = |i| TypeId(i);
        let table = TypeTable {
            types: vec![
                Type::Integer(32),                                                                              // 0
                Type::Float,                                                                                    // 1
                Type::Vector { len: 4, element: t(1), scalable: true },                                         // 2
                Type::Struct { name: None, identified: false, packed: true, elements: Some(vec![t(0), t(1)]) }, // 3
                Type::Pointer { pointee: Some(t(0)), address_space: 3 },                                        // 4
                Type::Function { vararg: true, ret: t(0), params: vec![t(4)] },                                 // 5
                Type::Struct {
                    name: Some("struct.Foo".into()),
                    identified: true,
                    packed: false,
                    elements: Some(vec![]),
                }, // 6
                Type::Struct { name: Some("a b".into()), identified: true, packed: false, elements: None },     // 7
                Type::TargetExt { name: "spirv.Image".into(), types: vec![t(1)], ints: vec![0, 1] },            // 8
                Type::Array { len: 2, element: t(6) },                                                          // 9
                Type::Pointer { pointee: None, address_space: 1 },                                              // 10
                Type::Function { vararg: true, ret: t(11), params: vec![] }, // 11 (refers to itself only through a struct in real files)
            ],
            declared_len: None,
        };
        let shown = |i| table.display(t(i)).to_string();
        assert_eq!(shown(2), "<vscale x 4 x float>");
        assert_eq!(shown(3), "<{ i32, float }>");
        assert_eq!(shown(4), "i32 addrspace(3)*");
        assert_eq!(table.display_opaque(t(4)).to_string(), "ptr addrspace(3)");
        assert_eq!(shown(5), "i32 (i32 addrspace(3)*, ...)");
        assert_eq!(shown(6), "%struct.Foo");
        assert_eq!(shown(7), "%\"a b\"");
        assert_eq!(shown(8), "target(\"spirv.Image\", float, 0, 1)");
        assert_eq!(shown(9), "[2 x %struct.Foo]");
        assert_eq!(shown(10), "ptr addrspace(1)");
        // A malformed cycle prints, bounded.
        assert!(shown(11).ends_with("…") || shown(11).len() < 1_000_000);
        // Pointers nested 10,000 deep (each type the pointer to the one before) print
        // abbreviated, without exhausting the stack.
        let mut deep = TypeTable { types: vec![Type::Integer(8)], declared_len: None };
        for i in 0..10_000 {
            deep.types.push(Type::Pointer { pointee: Some(t(i)), address_space: 0 });
        }
        let text = deep.display(t(10_000)).to_string();
        assert!(text.starts_with("…") && text.ends_with('*') && text.len() < 1000, "{text}");
        let defs: Vec<String> = table.struct_definitions(false).collect();
        assert_eq!(defs, ["%struct.Foo = type {}", "%\"a b\" = type opaque"]);
    }
}
