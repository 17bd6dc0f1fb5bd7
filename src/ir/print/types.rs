//! Types printed as `llvm-dis` prints them (`{ i32, ptr }`, `%struct.Foo`, `i8*`), and the
//! struct definitions at the top of a module.

use alloc::string::String;
use core::cell::Cell;
use core::fmt;

use crate::ir::module::types::{Type, TypeId, TypeTable};
use crate::ir::print::escape::{write_escaped, write_llvm_name};

/// How many type nodes one `Display` may print before it abbreviates with `…`: type
/// graphs can be exponentially large when printed (a struct of the previous struct,
/// twice, and so on), and printing must stay bounded.
const DISPLAY_BUDGET: u32 = 20_000;

/// How deeply nested a printed type may be before the rest is abbreviated with `…`
/// (printing recurses; a file can nest pointers or arrays thousands deep).
const DISPLAY_DEPTH: u32 = 200;

impl TypeTable {
    /// Prints type `id` as `llvm-dis` does (`{ i32, ptr }`, `%struct.Foo`, `i8*`).
    pub fn display(&self, id: TypeId) -> TypeDisplay<'_> {
        TypeDisplay { table: self, id, style: Style::default(), budget: Cell::new((DISPLAY_BUDGET, 0)) }
    }

    /// Prints type `id` as an LLVM with opaque pointers only (LLVM 17 and later) prints
    /// it: every typed pointer as `ptr`.
    pub fn display_opaque(&self, id: TypeId) -> TypeDisplay<'_> {
        let style = Style { opaque: true, ..Style::default() };
        TypeDisplay { table: self, id, style, budget: Cell::new((DISPLAY_BUDGET, 0)) }
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
        (0..self.types.len()).filter_map(move |i| self.struct_definition(TypeId(i as u32), opaque_pointers, 0))
    }

    /// The definition of identified struct `id` (`%struct.Foo = type { i32 }`) as `llvm-dis`
    /// of `llvm_version` prints it (0: as written), `None` if `id` is not an identified
    /// struct.
    pub(crate) fn struct_definition(&self, id: TypeId, opaque_pointers: bool, llvm_version: u32) -> Option<String> {
        use alloc::format;
        let t = self.get(id)?;
        let Type::Struct { packed, elements, identified: true, .. } = t else { return None };
        let name = if opaque_pointers { self.display_opaque(id) } else { self.display(id) };
        Some(match elements {
            None => format!("{name} = type opaque"),
            Some(e) => {
                let mut body = String::new();
                let style = Style { opaque: opaque_pointers, mmx_as_vector: llvm_version >= 20 };
                let _ = write_struct_body(&mut body, self, e, *packed, style, &Cell::new((DISPLAY_BUDGET, 0)));
                format!("{name} = type {body}")
            }
        })
    }
}

/// A type printed as `llvm-dis` prints it; see [`TypeTable::display`].
pub struct TypeDisplay<'t> {
    table: &'t TypeTable,
    id: TypeId,
    style: Style,
    budget: Cell<(u32, u32)>,
}

/// How types print: pointers as `ptr`, and `x86_mmx` as `<1 x i64>` (what LLVM 20 and
/// later read it as).
#[derive(Clone, Copy, Debug, Default)]
struct Style {
    opaque: bool,
    mmx_as_vector: bool,
}

impl TypeDisplay<'_> {
    /// Prints as `llvm-dis` of LLVM `llvm_version`: from 20, which has no `x86_mmx`, that
    /// type is the `<1 x i64>` its reader makes of it.
    pub fn for_llvm(mut self, llvm_version: u32) -> Self {
        self.style.mmx_as_vector = llvm_version >= 20;
        self
    }
}

impl fmt::Display for TypeDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_type(f, self.table, self.id, self.style, &self.budget)
    }
}

fn write_list(
    f: &mut dyn fmt::Write,
    table: &TypeTable,
    ids: &[TypeId],
    style: Style,
    budget: &Cell<(u32, u32)>,
) -> fmt::Result {
    for (i, t) in ids.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write_type(f, table, *t, style, budget)?;
    }
    Ok(())
}

fn write_struct_body(
    f: &mut dyn fmt::Write,
    table: &TypeTable,
    elements: &[TypeId],
    packed: bool,
    style: Style,
    budget: &Cell<(u32, u32)>,
) -> fmt::Result {
    if packed {
        f.write_char('<')?;
    }
    if elements.is_empty() {
        f.write_str("{}")?;
    } else {
        f.write_str("{ ")?;
        write_list(f, table, elements, style, budget)?;
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
    style: Style,
    budget: &Cell<(u32, u32)>,
) -> fmt::Result {
    let (left, depth) = budget.get();
    if left == 0 || depth >= DISPLAY_DEPTH {
        return f.write_str("…");
    }
    budget.set((left - 1, depth + 1));
    let result = write_type_inner(f, table, id, style, budget);
    let (left, _) = budget.get();
    budget.set((left, depth));
    result
}

fn write_type_inner(
    f: &mut dyn fmt::Write,
    table: &TypeTable,
    id: TypeId,
    style: Style,
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
        Type::X86Mmx if style.mmx_as_vector => f.write_str("<1 x i64>"),
        Type::X86Mmx => f.write_str("x86_mmx"),
        Type::X86Amx => f.write_str("x86_amx"),
        Type::Token => f.write_str("token"),
        Type::Integer(w) => write!(f, "i{w}"),
        Type::Byte(w) => write!(f, "b{w}"),
        Type::Pointer { pointee: Some(p), address_space } if !style.opaque => {
            write_type(f, table, *p, style, budget)?;
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
            write_type(f, table, *ret, style, budget)?;
            f.write_str(" (")?;
            write_list(f, table, params, style, budget)?;
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
            write_struct_body(f, table, elements.as_deref().unwrap_or(&[]), *packed, style, budget)
        }
        Type::Array { len, element } => {
            write!(f, "[{len} x ")?;
            write_type(f, table, *element, style, budget)?;
            f.write_char(']')
        }
        Type::Vector { len, element, scalable } => {
            f.write_char('<')?;
            if *scalable {
                f.write_str("vscale x ")?;
            }
            write!(f, "{len} x ")?;
            write_type(f, table, *element, style, budget)?;
            f.write_char('>')
        }
        Type::TargetExt { name, types, ints } => {
            f.write_str("target(\"")?;
            write_escaped(f, name.as_bytes())?;
            f.write_char('"')?;
            for t in types {
                f.write_str(", ")?;
                write_type(f, table, *t, style, budget)?;
            }
            for i in ints {
                write!(f, ", {i}")?;
            }
            f.write_char(')')
        }
        Type::Unknown { code, .. } => write!(f, "<unknown type code {code}>"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;
    use alloc::vec;
    use alloc::vec::Vec;

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
