//! Attributes printed as `llvm-dis` prints them: a group's inside `attributes #N = { … }`
//! (`align=8`), or inline on a parameter, a return value or a call (`align 8`);
//! `memory(…)`, `nofpclass(…)`, `captures(…)` and the other integer attributes spelled
//! as LLVM's `Attribute::getAsString` spells them.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::{self, Write as _};

use crate::ir::module::Module;
use crate::ir::module::attributes::{AttrIndex, AttrKind, Attribute, AttributeGroup, ConstantRange};
use crate::ir::module::types::TypeTable;
use crate::ir::print::escape::write_escaped;
use crate::ir::print::numbers::write_wide_int;

impl fmt::Display for AttrKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.name() {
            Some(n) => f.pad(n),
            None => f.pad(&alloc::format!("unknown_attr({})", self.0)),
        }
    }
}

impl fmt::Display for ConstantRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConstantRange::Small { lower, upper } => write!(f, "{lower}, {upper}"),
            ConstantRange::Wide { lower, upper } => write!(f, "{lower:?}, {upper:?}"),
        }
    }
}

impl Module<'_> {
    /// The function attribute groups (index `Function`), printed as `llvm-dis` prints
    /// them after `attributes #N = `: `{ noinline nounwind "frame-pointer"="all" }`.
    pub fn function_attribute_sets(&self) -> impl Iterator<Item = String> + '_ {
        self.attribute_groups.iter().filter(|g| g.index == AttrIndex::Function).map(|g| {
            if g.attributes.is_empty() {
                String::from("{ }")
            } else {
                alloc::format!("{{ {} }}", g.display(&self.types))
            }
        })
    }
}

impl AttributeGroup {
    /// Prints the attributes as `llvm-dis` prints them inside `attributes #N = { … }`,
    /// space-separated (types are named from `types`).
    pub fn display<'t>(&'t self, types: &'t TypeTable) -> AttributesDisplay<'t> {
        AttributesDisplay {
            attributes: &self.attributes,
            types,
            in_group: true,
            opaque_pointers: false,
            llvm_version: 22,
        }
    }

    /// The attributes as `llvm-dis` prints them on a parameter, a return value or a call
    /// (`align 8`, not `align=8`), types with opaque pointers if `opaque_pointers`.
    pub fn display_inline<'t>(&'t self, types: &'t TypeTable, opaque_pointers: bool) -> AttributesDisplay<'t> {
        AttributesDisplay { attributes: &self.attributes, types, in_group: false, opaque_pointers, llvm_version: 22 }
    }
}

/// A set's attributes as `llvm-dis` prints them on a parameter, a return value or a call.
pub(crate) fn inline_set<'t>(
    attributes: &'t [Attribute],
    types: &'t TypeTable,
    opaque_pointers: bool,
) -> AttributesDisplay<'t> {
    AttributesDisplay { attributes, types, in_group: false, opaque_pointers, llvm_version: 22 }
}

impl AttributesDisplay<'_> {
    /// Prints as `llvm-dis` of LLVM `llvm_version` prints (22 unless told): `memory(…)`
    /// names the locations that LLVM knows (errnomem from 21, the target memories from 22).
    pub fn for_llvm(mut self, llvm_version: u32) -> Self {
        self.llvm_version = llvm_version;
        self
    }
}

/// A group's attributes printed as `llvm-dis` prints them; see [`AttributeGroup::display`].
pub struct AttributesDisplay<'t> {
    attributes: &'t [Attribute],
    types: &'t TypeTable,
    in_group: bool,
    opaque_pointers: bool,
    llvm_version: u32,
}

impl fmt::Display for AttributesDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, a) in self.attributes.iter().enumerate() {
            if i > 0 {
                f.write_char(' ')?;
            }
            write_attribute(f, a, self)?;
        }
        Ok(())
    }
}

fn write_attribute(f: &mut fmt::Formatter<'_>, a: &Attribute, how: &AttributesDisplay<'_>) -> fmt::Result {
    let types = how.types;
    match a {
        Attribute::Enum(k) => write!(f, "{k}"),
        Attribute::Int(k, v) => write_int_attribute(f, *k, *v, how.in_group, how.llvm_version),
        Attribute::String { key, value } => {
            f.write_char('"')?;
            write_escaped(f, key.as_bytes())?;
            f.write_char('"')?;
            if let Some(v) = value {
                f.write_str("=\"")?;
                write_escaped(f, v.as_bytes())?;
                f.write_char('"')?;
            }
            Ok(())
        }
        Attribute::Type(k, Some(t)) if how.opaque_pointers => write!(f, "{k}({})", types.display_opaque(*t)),
        Attribute::Type(k, Some(t)) => write!(f, "{k}({})", types.display(*t)),
        Attribute::Type(k, None) => write!(f, "{k}"),
        Attribute::Range { kind, bit_width, range: ConstantRange::Wide { lower, upper } } => {
            // Wide bounds: sign-rotated words, printed as signed decimals of the width.
            write!(f, "{kind}(i{bit_width} ")?;
            let words =
                |w: &[u64]| -> Vec<u64> { w.iter().map(|&v| crate::record::decode_sign_rotated(v) as u64).collect() };
            write_wide_int(f, &words(lower), *bit_width, true)?;
            f.write_str(", ")?;
            write_wide_int(f, &words(upper), *bit_width, true)?;
            f.write_char(')')
        }
        Attribute::Range { kind, bit_width, range } => write!(f, "{kind}(i{bit_width} {range})"),
        Attribute::RangeList { kind, ranges, .. } => {
            write!(f, "{kind}(")?;
            for (i, r) in ranges.iter().enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                write!(f, "({r})")?;
            }
            f.write_char(')')
        }
        Attribute::Unknown { encoding, operands } => write!(f, "unknown_attr_encoding({encoding}: {operands:?})"),
    }
}

fn mod_ref(v: u64) -> &'static str {
    ["none", "read", "write", "readwrite"][(v & 3) as usize]
}

fn write_int_attribute(
    f: &mut fmt::Formatter<'_>,
    kind: AttrKind,
    v: u64,
    in_group: bool,
    llvm_version: u32,
) -> fmt::Result {
    use crate::ids::llvm_ir::raw::*;
    let Ok(k) = u32::try_from(kind.0) else { return write!(f, "{kind}({v})") };
    match k {
        // Inside `attributes #N = { … }` LLVM writes `align=N` and `alignstack=N`.
        ATTR_KIND_ALIGNMENT if in_group => write!(f, "align={v}"),
        ATTR_KIND_STACK_ALIGNMENT if in_group => write!(f, "alignstack={v}"),
        // On a parameter, a return value or a call.
        ATTR_KIND_ALIGNMENT => write!(f, "align {v}"),
        ATTR_KIND_STACK_ALIGNMENT => write!(f, "alignstack({v})"),
        ATTR_KIND_DEREFERENCEABLE | ATTR_KIND_DEREFERENCEABLE_OR_NULL | ATTR_KIND_DEAD_ON_RETURN => {
            write!(f, "{kind}({v})")
        }
        ATTR_KIND_UW_TABLE => match v {
            0 => Ok(()),
            1 => f.write_str("uwtable(sync)"),
            _ => f.write_str("uwtable"),
        },
        ATTR_KIND_ALLOC_SIZE => {
            let (elem, num) = (v >> 32, v & 0xFFFF_FFFF);
            if num == 0xFFFF_FFFF { write!(f, "allocsize({elem})") } else { write!(f, "allocsize({elem},{num})") }
        }
        ATTR_KIND_VSCALE_RANGE => write!(f, "vscale_range({},{})", v >> 32, v & 0xFFFF_FFFF),
        ATTR_KIND_ALLOC_KIND => {
            f.write_str("allockind(\"")?;
            let names = ["alloc", "realloc", "free", "uninitialized", "zeroed", "aligned"];
            let mut first = true;
            for (bit, name) in names.iter().enumerate() {
                if v & (1 << bit) != 0 {
                    if !first {
                        f.write_char(',')?;
                    }
                    first = false;
                    f.write_str(name)?;
                }
            }
            f.write_str("\")")
        }
        ATTR_KIND_MEMORY => write_memory(f, v, llvm_version),
        ATTR_KIND_NOFPCLASS => write_nofpclass(f, v),
        ATTR_KIND_CAPTURES => write_captures(f, v),
        ATTR_KIND_DENORMAL_FPENV => write_denormal_fpenv(f, v),
        _ => write!(f, "{kind}({v})"),
    }
}

/// `denormal_fpenv(…)` (LLVM 23) as `Attribute::getAsString` prints it
/// (`DenormalFPEnv::print` with `OmitIfSame`): the value's low nibble is the default
/// mode, the next the `float` one, each output mode in bits 0-1 and input in bits 2-3
/// (`DenormalFPEnv::createFromIntValue`). A mode prints its output kind, then `|` and
/// its input kind where they differ; the `float:` mode follows where it differs from the
/// default one, which is then left out if it is `ieee`.
fn write_denormal_fpenv(f: &mut fmt::Formatter<'_>, v: u64) -> fmt::Result {
    // `DenormalMode::DenormalModeKind`: IEEE, PreserveSign, PositiveZero, Dynamic.
    const KINDS: [&str; 4] = ["ieee", "preservesign", "positivezero", "dynamic"];
    let mode = |f: &mut fmt::Formatter<'_>, nibble: u64| {
        let (output, input) = (nibble & 3, (nibble >> 2) & 3);
        f.write_str(KINDS[output as usize])?;
        if input != output {
            f.write_char('|')?;
            f.write_str(KINDS[input as usize])?;
        }
        Ok(())
    };
    let (default, float) = (v & 0xF, (v >> 4) & 0xF);
    f.write_str("denormal_fpenv(")?;
    if float == default {
        mode(f, default)?;
    } else {
        if default != 0 {
            mode(f, default)?;
            f.write_str(", ")?;
        }
        f.write_str("float: ")?;
        mode(f, float)?;
    }
    f.write_char(')')
}

/// `memory(...)` as `Attribute::getAsString` prints it: the access to "other" memory
/// first, as the default, then every location that differs. The encoding's top byte is
/// its version: 0 (LLVM 16-20) has argmem, inaccessiblemem, other; from version 1 every
/// location LLVM knows has its two bits (errnomem before other, then two target
/// memories), as LLVM 22 reads them (`MemoryEffects::createFromIntValue`). Version 0 is
/// read as LLVM 22's `BitcodeReader` reads it: errnomem as other's, the target memories
/// none. `llvm_version` says which locations are printed: argmem and inaccessiblemem,
/// errnomem from LLVM 21, the target memories from 22.
fn write_memory(f: &mut fmt::Formatter<'_>, encoded: u64, llvm_version: u32) -> fmt::Result {
    const LOCATIONS: [&str; 6] = ["argmem", "inaccessiblemem", "errnomem", "", "target_mem0", "target_mem1"];
    const OTHER: usize = 3;
    let bits = |i: u64| (encoded >> (2 * i)) & 3;
    let mut access: [u64; 6] = match encoded >> 56 {
        0 => [bits(0), bits(1), bits(2), bits(2), 0, 0],
        _ => [bits(0), bits(1), bits(2), bits(3), bits(4), bits(5)],
    };
    let known = match llvm_version {
        ..=20 => 2,
        21 => 3,
        _ => 6,
    };
    // A location the printing LLVM does not know is part of "other" there.
    for i in (known..access.len()).filter(|&i| i != OTHER) {
        access[i] = access[OTHER];
    }
    let other = access[OTHER];
    let all = access.iter().fold(0, |acc, a| acc | a);
    f.write_str("memory(")?;
    let mut first = true;
    if other != 0 || all == other {
        first = false;
        f.write_str(mod_ref(other))?;
    }
    for (loc, &a) in LOCATIONS.iter().zip(&access) {
        if loc.is_empty() || a == other {
            continue;
        }
        if !first {
            f.write_str(", ")?;
        }
        first = false;
        write!(f, "{loc}: {}", mod_ref(a))?;
    }
    f.write_char(')')
}

fn write_nofpclass(f: &mut fmt::Formatter<'_>, v: u64) -> fmt::Result {
    // LLVM's FPClassTest bits and the groups `printFPClassTest`-style output uses.
    const ALL: u64 = 0x3ff;
    let groups: [(u64, &str); 14] = [
        (ALL, "all"),
        (0x3, "nan"),
        (0x204, "inf"),
        (0x108, "norm"),
        (0x90, "sub"),
        (0x60, "zero"),
        (0x1, "snan"),
        (0x2, "qnan"),
        (0x4, "ninf"),
        (0x8, "nnorm"),
        (0x10, "nsub"),
        (0x20, "nzero"),
        (0x40, "pzero"),
        (0x80, "psub"),
    ];
    let mut left = v & ALL;
    f.write_str("nofpclass(")?;
    let mut first = true;
    let mut emit = |f: &mut fmt::Formatter<'_>, name: &str| {
        let sep = if first { "" } else { " " };
        first = false;
        write!(f, "{sep}{name}")
    };
    for (mask, name) in groups {
        if left & mask == mask && mask != 0 {
            emit(f, name)?;
            left &= !mask;
        }
    }
    for (mask, name) in [(0x100, "pnorm"), (0x200, "pinf")] {
        if left & mask != 0 {
            emit(f, name)?;
            left &= !mask;
        }
    }
    if first {
        f.write_str("none")?;
    }
    f.write_char(')')
}

/// `captures(...)` (LLVM 21): the low 4 bits are what the pointer may be captured as
/// other than through the return value, the next 4 what the return value may capture.
fn write_captures(f: &mut fmt::Formatter<'_>, v: u64) -> fmt::Result {
    fn components(c: u64) -> String {
        if c == 0 {
            return String::from("none");
        }
        let mut out = Vec::new();
        if c & 3 == 3 {
            out.push("address");
        } else if c & 1 != 0 {
            out.push("address_is_null");
        }
        if c & 0xc == 0xc {
            out.push("provenance");
        } else if c & 4 != 0 {
            out.push("read_provenance");
        }
        out.join(", ")
    }
    // `CaptureInfo::toIntValue`: the other components in the high nibble, the returned
    // value's in the low one; "all" prints as its parts (`address, provenance`).
    let (other, ret) = ((v >> 4) & 0xf, v & 0xf);
    f.write_str("captures(")?;
    if other == ret {
        f.write_str(&components(other))?;
    } else {
        if other != 0 {
            write!(f, "{}, ", components(other))?;
        }
        write!(f, "ret: {}", components(ret))?;
    }
    f.write_char(')')
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;
    use alloc::vec;

    fn shown(attributes: Vec<Attribute>) -> String {
        let group = AttributeGroup { id: 0, index: AttrIndex::Function, attributes, bit: 0 };
        group.display(&TypeTable::default()).to_string()
    }

    /// Spellings from LLVM's LangRef and `Attribute::getAsString` (inside a group).
    #[test]
    fn integer_attributes_print_as_llvm_does() {
        let k = AttrKind;
        assert_eq!(shown(vec![Attribute::Int(k(1), 8), Attribute::Int(k(25), 16)]), "align=8 alignstack=16");
        assert_eq!(shown(vec![Attribute::Int(k(33), 1), Attribute::Int(k(33), 2)]), "uwtable(sync) uwtable");
        assert_eq!(shown(vec![Attribute::Int(k(51), (1 << 32) | 0xFFFF_FFFF)]), "allocsize(1)");
        assert_eq!(shown(vec![Attribute::Int(k(51), 2)]), "allocsize(0,2)");
        assert_eq!(shown(vec![Attribute::Int(k(74), (1 << 32) | 16)]), "vscale_range(1,16)");
        assert_eq!(shown(vec![Attribute::Int(k(82), 1 | 8 | 32)]), "allockind(\"alloc,uninitialized,aligned\")");
        // memory, version 0 (argmem, inaccessiblemem, other), as LLVM 22 reads it: errnomem
        // as other, the target memories none.
        assert_eq!(shown(vec![Attribute::Int(k(86), 0)]), "memory(none)");
        // LLVM 23's DenormalFPEnv::print (FloatingPointMode.cpp), with the forms its tests use.
        assert_eq!(shown(vec![Attribute::Int(k(106), 0)]), "denormal_fpenv(ieee)");
        assert_eq!(shown(vec![Attribute::Int(k(106), 0x55)]), "denormal_fpenv(preservesign)");
        assert_eq!(shown(vec![Attribute::Int(k(106), 0xCC)]), "denormal_fpenv(ieee|dynamic)");
        assert_eq!(shown(vec![Attribute::Int(k(106), 0x50)]), "denormal_fpenv(float: preservesign)");
        assert_eq!(shown(vec![Attribute::Int(k(106), 0x1F)]), "denormal_fpenv(dynamic, float: preservesign|ieee)");
        assert_eq!(shown(vec![Attribute::Enum(k(107))]), "nooutline");
        assert_eq!(
            shown(vec![Attribute::Int(k(86), 0b01_01_01)]),
            "memory(read, target_mem0: none, target_mem1: none)"
        );
        assert_eq!(shown(vec![Attribute::Int(k(86), 0b00_00_11)]), "memory(argmem: readwrite)");
        assert_eq!(
            shown(vec![Attribute::Int(k(86), 0b11_01_00)]),
            "memory(readwrite, argmem: none, inaccessiblemem: read, target_mem0: none, target_mem1: none)"
        );
        // Version 1 (errnomem before other), as rustc 1.95's LLVM 22.1.2 writes it and
        // llvm-dis 22.1.8 prints it.
        let v1 = 1 << 56;
        assert_eq!(
            shown(vec![Attribute::Int(k(86), v1 | 0b01_01_11_11)]),
            "memory(read, argmem: readwrite, inaccessiblemem: readwrite, target_mem0: none, target_mem1: none)"
        );
        // Version 2: the target memories are in the encoding.
        assert_eq!(
            shown(vec![Attribute::Int(k(86), (2 << 56) | 0b10_00_01_01_01_01)]),
            "memory(read, target_mem0: none, target_mem1: write)"
        );
        assert_eq!(shown(vec![Attribute::Enum(k(18)), Attribute::Enum(k(9999))]), "nounwind unknown_attr(9999)");
        let s = Attribute::String { key: "a\"b".into(), value: Some("c\\d".into()) };
        // `printEscapedString`: a backslash is doubled, a quote in hex.
        assert_eq!(shown(vec![s]), r#""a\22b"="c\\d""#);
        // A range attribute (encoding 7), as a group record of `range(i8 0, 2)` decodes.
        let range = Attribute::Range { kind: k(92), bit_width: 8, range: ConstantRange::Small { lower: 0, upper: 2 } };
        assert_eq!(shown(vec![range]), "range(i8 0, 2)");
    }
}
