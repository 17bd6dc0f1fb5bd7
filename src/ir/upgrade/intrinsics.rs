//! The attributes LLVM's reader gives an intrinsic declaration: `UpgradeIntrinsicFunction`
//! ends with `F->setAttributes(Intrinsic::getAttributes(...))`, so whatever attributes a
//! file wrote on `declare … @llvm.memcpy.p0.p0.i64(…)`, LLVM N prints those of its own
//! intrinsic table. The tables of LLVM 13, 14, 15, 16, 19 and 22 are in
//! `intrinsic_table.rs`, generated from each version's library by
//! `tools/gen-intrinsic-attrs`.

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::intrinsic_table::{LISTS, NAME_COUNT, NAMES, RESTART, RESTARTS, VERSIONS};
use crate::ir::module::Module;
use crate::ir::module::attributes::{AttrIndex, AttrKind, Attribute, AttributeGroup, ConstantRange};
use crate::ir::module::types::{Type, TypeId, TypeTable};

/// The LLVM versions whose intrinsic tables this crate has. A reading version between
/// them uses the table of the newest one before it.
pub const INTRINSIC_TABLE_VERSIONS: [u32; 6] = VERSIONS;

/// The index of the table LLVM `llvm_version` reads with.
fn table_for(llvm_version: u32) -> Option<usize> {
    VERSIONS.iter().rposition(|&v| v <= llvm_version)
}

/// One entry of `NAMES`: the name (into `buffer`) and the entry's per-version words.
struct Entries<'b> {
    at: usize,
    name: &'b mut Vec<u8>,
}

impl Entries<'_> {
    /// Decodes the next entry into `name`; its words, or `None` past the end (or on a
    /// malformed table, which the generator does not write).
    fn next_entry(&mut self) -> Option<[u16; VERSIONS.len()]> {
        let &[shared, len] = NAMES.get(self.at..self.at + 2)? else { return None };
        let suffix = NAMES.get(self.at + 2..self.at + 2 + len as usize)?;
        self.name.truncate(shared as usize);
        self.name.extend_from_slice(suffix);
        let mut at = self.at + 2 + len as usize;
        let mut words = [0u16; VERSIONS.len()];
        for w in &mut words {
            let &[lo, hi] = NAMES.get(at..at + 2)? else { return None };
            *w = u16::from_le_bytes([lo, hi]);
            at += 2;
        }
        self.at = at;
        Some(words)
    }
}

/// The table word of the intrinsic named exactly `name` in table `table`.
fn exact(name: &[u8], table: usize, buffer: &mut Vec<u8>) -> Option<u16> {
    // The restart point whose name is the greatest at most `name`, then its entries.
    let full_name = |at: u32, buffer: &mut Vec<u8>| {
        let mut e = Entries { at: at as usize, name: buffer };
        e.next_entry().map(|_| ())
    };
    let (mut lo, mut hi) = (0, RESTARTS.len());
    while hi - lo > 1 {
        let mid = (lo + hi) / 2;
        full_name(RESTARTS[mid], buffer)?;
        if buffer.as_slice() <= name {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let start = *RESTARTS.get(lo)? as usize;
    let mut entries = Entries { at: start, name: buffer };
    for _ in 0..RESTART.min(NAME_COUNT) {
        let words = entries.next_entry()?;
        match entries.name.as_slice().cmp(name) {
            core::cmp::Ordering::Equal => return Some(words[table]).filter(|&w| w != u16::MAX),
            core::cmp::Ordering::Greater => return None,
            core::cmp::Ordering::Less => {}
        }
    }
    None
}

/// The attributes of an intrinsic in one LLVM version's table: see
/// [`intrinsic_attributes`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IntrinsicAttributes {
    list: &'static str,
    base_name_len: usize,
}

/// The attributes LLVM `llvm_version`'s reader gives a function named `name`, if that
/// version has such an intrinsic: the name itself, or, for an overloaded intrinsic, its
/// base name followed by type suffixes (`llvm.memcpy.p0.p0.i64`), the longest base name
/// that fits, as LLVM's `Intrinsic::lookupIntrinsicID` finds it. `None` for other names
/// and for versions before LLVM 13.
pub fn intrinsic_attributes(llvm_version: u32, name: &[u8]) -> Option<IntrinsicAttributes> {
    let table = table_for(llvm_version)?;
    if !name.starts_with(b"llvm.") {
        return None;
    }
    let mut buffer = Vec::new();
    // The name, then each prefix ending before a '.', longest first: the first found
    // decides (a non-overloaded intrinsic matches only exactly, as in LLVM).
    let mut end = name.len();
    loop {
        if let Some(word) = exact(&name[..end], table, &mut buffer) {
            let overloaded = word & 0x8000 != 0;
            if end != name.len() && !overloaded {
                return None;
            }
            let list = LISTS.get(usize::from(word & 0x7FFF))?;
            return Some(IntrinsicAttributes { list, base_name_len: end });
        }
        end = name[..end].iter().rposition(|&c| c == b'.')?;
        if end <= "llvm".len() {
            return None;
        }
    }
}

/// The name LLVM `llvm_version` gives the declaration of intrinsic `name` when it reads a
/// typed-pointer module with opaque pointers (LLVM 15 and later): LLVM's
/// `Intrinsic::remangleIntrinsicFunction` mangles each pointer type of the name's type
/// suffixes as `p<address space>`, without its pointee (`llvm.memcpy.p0i8.p0i8.i64` →
/// `llvm.memcpy.p0.p0.i64`, `llvm.masked.load.v4i32.p0v4i32` → `….p0`). `None` if the name
/// is not an intrinsic of that version or stays as it is.
pub fn remangled_intrinsic_name(llvm_version: u32, name: &[u8]) -> Option<Vec<u8>> {
    let base = intrinsic_attributes(llvm_version, name)?.base_name_len();
    let mut out = name.get(..base)?.to_vec();
    let mut changed = false;
    for component in name[base..].split(|&c| c == b'.').skip(1) {
        out.push(b'.');
        // `[v<n> | nxv<n>] p<digits> <pointee>`: the pointee goes.
        let vector = if let Some(rest) = component.strip_prefix(b"nxv") {
            3 + rest.iter().take_while(|c| c.is_ascii_digit()).count()
        } else if let Some(rest) = component.strip_prefix(b"v") {
            1 + rest.iter().take_while(|c| c.is_ascii_digit()).count()
        } else {
            0
        };
        let pointer = component.get(vector..).and_then(|rest| {
            let digits = rest.strip_prefix(b"p")?.iter().take_while(|c| c.is_ascii_digit()).count();
            (digits > 0).then_some(vector + 1 + digits)
        });
        match pointer {
            Some(end) if end < component.len() => {
                out.extend_from_slice(&component[..end]);
                changed = true;
            }
            _ => out.extend_from_slice(component),
        }
    }
    changed.then_some(out)
}

/// The name LLVM `llvm_version` declares intrinsic `name` with after reading it, if it
/// changes: [`renamed_intrinsic`] (with the pointer suffix of its function type
/// `function_type`), or, when it reads a typed-pointer module (`typed_pointers`) with
/// opaque pointers (LLVM 16 and later), [`remangled_intrinsic_name`]. Its reader declares
/// the new name (appended to the module) and erases the old declaration.
pub fn upgraded_intrinsic_name(
    llvm_version: u32,
    name: &[u8],
    types: &TypeTable,
    function_type: TypeId,
    typed_pointers: bool,
) -> Option<Vec<u8>> {
    let typed_read_as_opaque = typed_pointers && llvm_version >= 16;
    if !name.starts_with(b"llvm.") {
        return None;
    }
    let printed_typed = typed_pointers && llvm_version < 16;
    let suffix = pointer_suffix(types, function_type, printed_typed);
    renamed_intrinsic(llvm_version, name, suffix.as_deref())
        .or_else(|| promoted_intrinsic_name(llvm_version, name))
        .or_else(|| x86_generic_intrinsic_name(name, types, function_type))
        .or_else(|| completed_overload_name(name, types, function_type, printed_typed))
        .or_else(|| typed_read_as_opaque.then(|| remangled_intrinsic_name(llvm_version, name)).flatten())
}

/// Experimental intrinsics LLVM promoted, the version whose reader renames them, and their
/// new prefix: the type suffixes stay. Checked with llvm-dis 14 to 22 on llvm-as-14's
/// modules (`extract`, `insert` from 15, `reverse`, `splice` from 19, `stepvector` from
/// 20); `interleave2`, `deinterleave2` (19) and `partial.reduce.add` (21) from LLVM's
/// history.
const PROMOTED_INTRINSICS: [(u32, &str, &str); 8] = [
    (15, "llvm.experimental.vector.extract.", "llvm.vector.extract."),
    (15, "llvm.experimental.vector.insert.", "llvm.vector.insert."),
    (19, "llvm.experimental.vector.reverse.", "llvm.vector.reverse."),
    (19, "llvm.experimental.vector.splice.", "llvm.vector.splice."),
    (19, "llvm.experimental.vector.interleave2.", "llvm.vector.interleave2."),
    (19, "llvm.experimental.vector.deinterleave2.", "llvm.vector.deinterleave2."),
    (20, "llvm.experimental.stepvector.", "llvm.stepvector."),
    (21, "llvm.experimental.vector.partial.reduce.add.", "llvm.vector.partial.reduce.add."),
];

/// The name LLVM `llvm_version` gives an experimental intrinsic it has promoted
/// ([`PROMOTED_INTRINSICS`]; `UpgradeIntrinsicFunction`'s `experimental.vector.*` and
/// `experimental.stepvector.*`), if `name` is one.
fn promoted_intrinsic_name(llvm_version: u32, name: &[u8]) -> Option<Vec<u8>> {
    let (_, old, new) = PROMOTED_INTRINSICS
        .iter()
        .find(|(since, old, _)| llvm_version >= *since && name.starts_with(old.as_bytes()))?;
    let mut out = new.as_bytes().to_vec();
    out.extend_from_slice(&name[old.len()..]);
    Some(out)
}

/// x86 SIMD intrinsics of two operands that LLVM's reader (every version this crate prints
/// for) makes calls of generic intrinsics of (`upgradeX86AddSubSatIntrinsics` since LLVM 8,
/// `upgradeX86BinaryIntrinsics` for the minimum and maximum since 12): prefix, generic
/// base name.
const X86_GENERIC: [(&str, &str); 16] = [
    ("llvm.x86.sse2.padds.", "llvm.sadd.sat"),
    ("llvm.x86.sse2.paddus.", "llvm.uadd.sat"),
    ("llvm.x86.sse2.psubs.", "llvm.ssub.sat"),
    ("llvm.x86.sse2.psubus.", "llvm.usub.sat"),
    ("llvm.x86.avx2.padds.", "llvm.sadd.sat"),
    ("llvm.x86.avx2.paddus.", "llvm.uadd.sat"),
    ("llvm.x86.avx2.psubs.", "llvm.ssub.sat"),
    ("llvm.x86.avx2.psubus.", "llvm.usub.sat"),
    ("llvm.x86.sse2.pmaxu.", "llvm.umax"),
    ("llvm.x86.sse2.pmaxs.", "llvm.smax"),
    ("llvm.x86.sse2.pminu.", "llvm.umin"),
    ("llvm.x86.sse2.pmins.", "llvm.smin"),
    ("llvm.x86.avx2.pmaxu.", "llvm.umax"),
    ("llvm.x86.avx2.pmaxs.", "llvm.smax"),
    ("llvm.x86.avx2.pminu.", "llvm.umin"),
    ("llvm.x86.avx2.pmins.", "llvm.smin"),
];

/// SSE4.1's minimum and maximum, named without a dot before their element type.
const X86_GENERIC_SSE41: [(&str, &str); 8] = [
    ("llvm.x86.sse41.pmaxsb", "llvm.smax"),
    ("llvm.x86.sse41.pmaxsd", "llvm.smax"),
    ("llvm.x86.sse41.pmaxuw", "llvm.umax"),
    ("llvm.x86.sse41.pmaxud", "llvm.umax"),
    ("llvm.x86.sse41.pminsb", "llvm.smin"),
    ("llvm.x86.sse41.pminsd", "llvm.smin"),
    ("llvm.x86.sse41.pminuw", "llvm.umin"),
    ("llvm.x86.sse41.pminud", "llvm.umin"),
];

/// The generic intrinsic's base name for x86 intrinsic `name` ([`X86_GENERIC`],
/// [`X86_GENERIC_SSE41`]), if LLVM makes one of it.
fn x86_generic_base(name: &[u8]) -> Option<&'static str> {
    if !name.starts_with(b"llvm.x86.") {
        return None;
    }
    X86_GENERIC
        .iter()
        .find(|(prefix, _)| name.starts_with(prefix.as_bytes()))
        .or_else(|| X86_GENERIC_SSE41.iter().find(|(n, _)| name == n.as_bytes()))
        .map(|&(_, base)| base)
}

/// The generic intrinsic the calls of x86 intrinsic `name` (of function type
/// `function_type`, two operands) become ([`X86_GENERIC`]), overloaded on the vector
/// type: `llvm.x86.sse2.psubus.b` → `llvm.usub.sat.v16i8`. Each call is made anew (no
/// `tail`, no attributes, only its `!dbg` location; [`rebuilds_calls`]), the new
/// declaration appended to the module and the old one erased (Inputs/PR23310).
fn x86_generic_intrinsic_name(name: &[u8], types: &TypeTable, function_type: TypeId) -> Option<Vec<u8>> {
    let base = x86_generic_base(name)?;
    let Some(Type::Function { ret, params, .. }) = types.get(function_type) else { return None };
    if params.len() != 2 || !matches!(types.get(*ret), Some(Type::Vector { .. })) {
        return None;
    }
    let mut out = base.as_bytes().to_vec();
    out.push(b'.');
    out.extend_from_slice(mangled_type(types, *ret, false)?.as_bytes());
    Some(out)
}

/// The name LLVM's reader (every version this crate prints for) declares an intrinsic with
/// whose name lacks type suffixes it has been overloaded on since (`UpgradeIntrinsicFunction1`
/// compares the name with `Intrinsic::getName` of the overloaded types):
/// `llvm.masked.load`/`gather` on their result and pointer types, `llvm.masked.store`/
/// `scatter` on their first two parameters' (`llvm.masked.load.v2f64` →
/// `llvm.masked.load.v2f64.p0v2f64`), `llvm.objectsize` on its result and pointer types
/// (`llvm.objectsize.i32` → `llvm.objectsize.i32.p0i8`). `None` if the name is already
/// that, or for another intrinsic. Pointers are mangled with their pointee if `typed`.
fn completed_overload_name(name: &[u8], types: &TypeTable, function_type: TypeId, typed: bool) -> Option<Vec<u8>> {
    let Some(Type::Function { ret, params, .. }) = types.get(function_type) else { return None };
    let (base, overloaded): (&[u8], [Option<&TypeId>; 2]) = [
        (&b"llvm.masked.load"[..], true),
        (b"llvm.masked.gather", true),
        (b"llvm.masked.store", false),
        (b"llvm.masked.scatter", false),
        (b"llvm.objectsize", true),
    ]
    .into_iter()
    .find(|(base, _)| name.strip_prefix(*base).is_some_and(|rest| rest.starts_with(b".")))
    .map(|(base, on_result)| {
        (base, if on_result { [Some(ret), params.first()] } else { [params.first(), params.get(1)] })
    })?;
    let mut expected = base.to_vec();
    for t in overloaded {
        expected.push(b'.');
        expected.extend_from_slice(mangled_type(types, *t?, typed)?.as_bytes());
    }
    (expected != name).then_some(expected)
}

/// A type as LLVM mangles it in an overloaded intrinsic's name (`Intrinsic::getName`'s
/// `getMangledTypeStr`): `i32`, `f64`, `v4f32`, `nxv2i64`, `p0` (`p0i8` with its
/// pointee, `typed`). `None` for the types this does not mangle (aggregates, functions).
fn mangled_type(types: &TypeTable, t: TypeId, typed: bool) -> Option<String> {
    Some(match types.get(t)? {
        Type::Integer(w) => alloc::format!("i{w}"),
        Type::Half => "f16".to_string(),
        Type::BFloat => "bf16".to_string(),
        Type::Float => "f32".to_string(),
        Type::Double => "f64".to_string(),
        Type::X86Fp80 => "f80".to_string(),
        Type::Fp128 => "f128".to_string(),
        Type::PpcFp128 => "ppcf128".to_string(),
        Type::Vector { len, element, scalable } => {
            alloc::format!("{}v{len}{}", if *scalable { "nx" } else { "" }, mangled_type(types, *element, typed)?)
        }
        Type::Pointer { pointee, address_space } => match pointee {
            Some(p) if typed => alloc::format!("p{address_space}{}", mangled_type(types, *p, typed)?),
            _ => alloc::format!("p{address_space}"),
        },
        _ => return None,
    })
}

/// The type suffix of the one pointer type among a function type's result and parameters
/// (`p0`; `p0i8` with typed pointers, `typed`), as LLVM mangles an intrinsic overloaded on
/// it. `None` without exactly one distinct pointer type, or for a pointee this does not
/// mangle (only integers and floating-point types).
fn pointer_suffix(types: &TypeTable, function_type: TypeId, typed: bool) -> Option<Vec<u8>> {
    let Some(Type::Function { ret, params, .. }) = types.get(function_type) else { return None };
    let mut pointers =
        core::iter::once(ret).chain(params).filter(|&&t| matches!(types.get(t), Some(Type::Pointer { .. })));
    let &first = pointers.next()?;
    if pointers.any(|&t| t != first) {
        return None;
    }
    let Some(Type::Pointer { pointee, address_space }) = types.get(first) else { return None };
    let mut out = alloc::format!("p{address_space}").into_bytes();
    if typed {
        let mangled = match pointee.and_then(|p| types.get(p)) {
            Some(Type::Integer(w)) => alloc::format!("i{w}"),
            Some(Type::Half) => "f16".to_string(),
            Some(Type::Float) => "f32".to_string(),
            Some(Type::Double) => "f64".to_string(),
            _ => return None,
        };
        out.extend_from_slice(mangled.as_bytes());
    }
    Some(out)
}

/// The name LLVM `llvm_version` gives an intrinsic declared without the type suffix of
/// one it has made overloaded on a pointer since the file was written
/// (`remangleIntrinsicFunction`): the name is exactly the base name of an overloaded
/// intrinsic of that version's table (`llvm.frameaddress` from LLVM 9, `llvm.prefetch`,
/// `llvm.stacksave` and `llvm.stackrestore`, from 19 `llvm.va_start` and
/// `llvm.eh.typeid.for`, from 22 `llvm.thread.pointer`, …), and it takes the suffix of
/// its pointer type (`pointer_suffix`, `p0`). `None` for any other name, or without a
/// suffix.
pub fn renamed_intrinsic(llvm_version: u32, name: &[u8], pointer_suffix: Option<&[u8]>) -> Option<Vec<u8>> {
    let table = table_for(llvm_version)?;
    let suffix = pointer_suffix?;
    let mut buffer = Vec::new();
    let overloaded = exact(name, table, &mut buffer).is_some_and(|word| word & 0x8000 != 0);
    if !overloaded {
        return None;
    }
    let mut out = name.to_vec();
    out.push(b'.');
    out.extend_from_slice(suffix);
    Some(out)
}

/// The intrinsic a function that is not one becomes as LLVM's reader reads it
/// (`UpgradeARCRuntime`, every version since LLVM 8): `clang.arc.use`, which clang
/// declared before, is `llvm.objc.clang.arc.use`, whatever the module. The calls point at
/// the new declaration (appended to the module) and keep `tail`; the old one goes.
/// (The other ARC runtime calls become intrinsics only in modules with the old ARC
/// marker, which this does not do.)
pub fn renamed_runtime_function(name: &[u8]) -> Option<&'static [u8]> {
    (name == b"clang.arc.use").then_some(b"llvm.objc.clang.arc.use")
}

/// Whether LLVM `llvm_version` rebuilds each call to intrinsic `name` rather than only
/// pointing it at the renamed declaration: from LLVM 22, calls to the old, not overloaded
/// `llvm.thread.pointer` are made anew, without `tail` and without their attributes.
///
/// In LLVM 16, calls to `llvm.masked.load`, `gather`, `store` and `scatter` whose
/// declaration is renamed (`renamed`: remangled for opaque pointers, or completed with its
/// type suffixes) are made anew too (`UpgradeIntrinsicCall`'s `Builder.CreateCall`, with
/// the call's metadata copied); llvm-dis 19 keeps them (17 and 18 unchecked). So are, in
/// every version, the calls to a renamed `llvm.objectsize` (its four arguments as they
/// were; only the `!dbg` location kept): PostgreSQL 15's JIT bitcode (clang 14) read by
/// llvm-dis 16, 19 and 22; and the calls of the x86 intrinsics that become generic ones
/// (`llvm.x86.sse2.psubus.b` → `llvm.usub.sat.v16i8`).
pub fn rebuilds_calls(llvm_version: u32, name: &[u8], renamed: bool) -> bool {
    if llvm_version >= 22 && name == b"llvm.thread.pointer" {
        return true;
    }
    let masked = [&b"llvm.masked.load."[..], b"llvm.masked.gather.", b"llvm.masked.store.", b"llvm.masked.scatter."]
        .iter()
        .any(|p| name.starts_with(p));
    renamed
        && ((llvm_version == 16 && masked) || name.starts_with(b"llvm.objectsize.") || x86_generic_base(name).is_some())
}

/// How LLVM's reader changes the arguments of the calls to an intrinsic whose signature
/// changed since the file was written ([`upgraded_arguments`]). Each call is made anew
/// (`UpgradeIntrinsicCall`): without `tail`, its attributes or metadata other than its
/// `!dbg` location, and the declaration is replaced by one appended to the module.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgumentUpgrade {
    /// This many `i1 false` arguments appended: `llvm.ctlz`'s and `llvm.cttz`'s
    /// `is_zero_poison` (LLVM 3.2), `llvm.objectsize`'s `nullunknown` (5.0) and `dynamic`
    /// (8.0).
    AppendFalse(u8),
    /// The second argument dropped: `llvm.dbg.value`'s offset (LLVM 6.0). A call whose
    /// offset is not zero is deleted.
    DropOffset,
    /// The fourth argument, the alignment of `llvm.memcpy`, `llvm.memmove` and
    /// `llvm.memset` before LLVM 7, dropped: its value is the `align` of the destination
    /// (and of the source, `source`). The call keeps its attributes (the last
    /// parameter's move down one).
    AlignmentToAttributes {
        /// The source pointer gets it too (`memcpy`, `memmove`).
        source: bool,
    },
    /// The alignment argument of `llvm.masked.load`, `gather`, `store` and `scatter`
    /// (after the pointer) dropped, from LLVM 22: its value is the `align` of the pointer
    /// argument (`pointer`, 0 or 1), for a gather or scatter of alignment 0 the ABI
    /// alignment of the element type (`DataLayout::getValueOrABITypeAlignment`). The call
    /// keeps `tail` and its metadata, not its attributes.
    MaskedAlignment {
        /// The pointer argument (0 for a load or gather, 1 for a store or scatter).
        pointer: u8,
        /// A gather or scatter (alignment 0 is the element type's).
        vector_of_pointers: bool,
    },
}

impl ArgumentUpgrade {
    /// The argument (0-based) the new call does not have.
    pub fn dropped_argument(self) -> Option<usize> {
        match self {
            ArgumentUpgrade::AppendFalse(_) => None,
            ArgumentUpgrade::DropOffset => Some(1),
            ArgumentUpgrade::AlignmentToAttributes { .. } => Some(3),
            ArgumentUpgrade::MaskedAlignment { pointer, .. } => Some(pointer as usize + 1),
        }
    }

    /// Whether the new call keeps the old one's attributes.
    pub fn keeps_call_attributes(self) -> bool {
        matches!(self, ArgumentUpgrade::AlignmentToAttributes { .. })
    }

    /// Whether the new call keeps the old one's `tail` and its metadata
    /// (`setTailCallKind`, `copyMetadata`).
    pub fn keeps_tail_and_metadata(self) -> bool {
        matches!(self, ArgumentUpgrade::MaskedAlignment { .. })
    }

    /// The arguments (0-based, of the new call) that get the dropped argument's value as
    /// their `align`.
    pub fn aligned_arguments(self) -> &'static [usize] {
        match self {
            ArgumentUpgrade::AlignmentToAttributes { source: true } => &[0, 1],
            ArgumentUpgrade::AlignmentToAttributes { source: false } => &[0],
            ArgumentUpgrade::MaskedAlignment { pointer: 0, .. } => &[0],
            ArgumentUpgrade::MaskedAlignment { .. } => &[1],
            _ => &[],
        }
    }
}

/// What LLVM `llvm_version` (13 and later) does with the arguments of calls to a
/// declaration of `name` with `params` parameters ([`ArgumentUpgrade`]); `None` if
/// nothing.
pub fn upgraded_arguments(llvm_version: u32, name: &[u8], params: usize) -> Option<ArgumentUpgrade> {
    // The prefix first: this is asked of every call's callee.
    if llvm_version < 13 || !name.starts_with(b"llvm.") {
        return None;
    }
    match (name, params) {
        (n, 1) if n.starts_with(b"llvm.ctlz.") || n.starts_with(b"llvm.cttz.") => Some(ArgumentUpgrade::AppendFalse(1)),
        (n, 2 | 3) if n.starts_with(b"llvm.objectsize.") => Some(ArgumentUpgrade::AppendFalse(4 - params as u8)),
        (b"llvm.dbg.value", 4) => Some(ArgumentUpgrade::DropOffset),
        (n, 5) if n.starts_with(b"llvm.memcpy.") || n.starts_with(b"llvm.memmove.") => {
            Some(ArgumentUpgrade::AlignmentToAttributes { source: true })
        }
        (n, 5) if n.starts_with(b"llvm.memset.") => Some(ArgumentUpgrade::AlignmentToAttributes { source: false }),
        (n, 4) if llvm_version >= 22 && n.starts_with(b"llvm.masked.") => {
            let rest = &n[b"llvm.masked.".len()..];
            let (pointer, vector_of_pointers) =
                [(&b"load"[..], 0, false), (b"gather", 0, true), (b"store", 1, false), (b"scatter", 1, true)]
                    .into_iter()
                    .find(|(op, ..)| rest.starts_with(op) && rest.get(op.len()).is_none_or(|&c| c == b'.'))
                    .map(|(_, p, v)| (p, v))?;
            Some(ArgumentUpgrade::MaskedAlignment { pointer, vector_of_pointers })
        }
        _ => None,
    }
}

/// Whether LLVM `llvm_version` makes each call of x86 intrinsic `name` (with `params`
/// parameters) a `store … align 1` of its second argument to its first, and erases the
/// declaration: the unaligned stores `llvm.x86.sse.storeu.*`, `sse2.storeu.*` and
/// `avx.storeu.*` (`UpgradeIntrinsicCall`). Read with opaque pointers only (LLVM 16 and
/// later): before, the store is of a `%cast` of the pointer, named in the order LLVM's
/// `UpgradedIntrinsics` map is walked, which this does not make. The store has the call's
/// `!dbg` location only (Inputs/PR23310).
pub fn becomes_aligned_store(llvm_version: u32, name: &[u8], params: usize) -> bool {
    llvm_version >= 16
        && params == 2
        && [&b"llvm.x86.sse.storeu."[..], b"llvm.x86.sse2.storeu.", b"llvm.x86.avx.storeu."]
            .iter()
            .any(|p| name.starts_with(p))
}

/// Whether LLVM `llvm_version` reads a declaration of `name` with `params` parameters as
/// `llvm.lifetime.start`/`end` without their size: LLVM 22 dropped the size operand
/// (`(i64, ptr)` → `(ptr)`). Its reader declares the new intrinsic (appended to the
/// module), rewrites each call to take the `alloca` its pointer is, once casts and
/// zero-index GEPs are stripped, without the call's attributes, and removes the calls whose
/// pointer is no `alloca`.
pub fn lifetime_loses_size(llvm_version: u32, name: &[u8], params: usize) -> bool {
    // The prefix first: this is asked of every call's callee.
    if llvm_version < 22 || params != 2 || !name.starts_with(b"llvm.lifetime.") {
        return false;
    }
    let Some(intrinsic) = intrinsic_attributes(llvm_version, name) else { return false };
    matches!(&name[..intrinsic.base_name_len()], b"llvm.lifetime.start" | b"llvm.lifetime.end")
}

impl IntrinsicAttributes {
    /// The length of the intrinsic's base name in the name looked up.
    pub fn base_name_len(&self) -> usize {
        self.base_name_len
    }

    /// The attribute groups, function, return value and parameters, in LLVM's order
    /// within each. `bit_width(index)` gives the integer width of the return value or of
    /// a parameter, for the `range` attributes LLVM 20 and later give some (one it gives
    /// no width gets none). Group ids are 0.
    pub fn groups(&self, bit_width: impl Fn(AttrIndex) -> Option<u64>) -> Vec<AttributeGroup> {
        let mut groups = Vec::new();
        for field in self.list.split('\t').filter(|f| !f.is_empty()) {
            let Some((index, attributes)) = field.split_once(':') else { continue };
            let index = match index {
                "fn" => AttrIndex::Function,
                "ret" => AttrIndex::Return,
                n => match n.parse() {
                    Ok(n) => AttrIndex::Param(n),
                    Err(_) => continue,
                },
            };
            let width = match index {
                AttrIndex::Function => None,
                _ => bit_width(index),
            };
            let attributes = attributes.split(',').filter_map(|a| parse_attribute(a, width)).collect();
            groups.push(AttributeGroup { id: 0, index, attributes, bit: 0 });
        }
        groups
    }
}

/// One attribute of a table list: `name`, `name=N` or `name=lo:hi`.
fn parse_attribute(text: &str, width: Option<u64>) -> Option<Attribute> {
    if let Some(rest) = text.strip_prefix('"') {
        // `"key"="value"` (no intrinsic has one today).
        let (key, value) = rest.split_once("\"=\"")?;
        let value = value.strip_suffix('"')?;
        return Some(Attribute::String { key: key.to_string(), value: Some(value.to_string()) });
    }
    let (name, value) = match text.split_once('=') {
        Some((n, v)) => (n, Some(v)),
        None => (text, None),
    };
    let kind = AttrKind::from_name(name)?;
    match value {
        None => Some(Attribute::Enum(kind)),
        Some(v) => match v.split_once(':') {
            None => Some(Attribute::Int(kind, v.parse().ok()?)),
            Some((lo, hi)) => {
                let bit_width = width.filter(|&w| (1..=64).contains(&w))?;
                let truncate = |v: i64| {
                    let shift = 64 - bit_width as u32;
                    (v << shift) >> shift
                };
                let (lower, upper) = (truncate(lo.parse().ok()?), truncate(hi.parse().ok()?));
                Some(Attribute::Range { kind, bit_width, range: ConstantRange::Small { lower, upper } })
            }
        },
    }
}

impl Module<'_> {
    /// The attribute groups LLVM `llvm_version`'s reader gives function `index`, if it is
    /// a declaration of one of that version's intrinsics (see [`intrinsic_attributes`]).
    pub fn intrinsic_attribute_groups(&self, index: usize, llvm_version: u32) -> Option<Vec<AttributeGroup>> {
        let f = self.functions.get(index)?;
        if !f.is_declaration {
            return None;
        }
        let promoted = promoted_intrinsic_name(llvm_version, &f.common.name)
            .or_else(|| x86_generic_intrinsic_name(&f.common.name, &self.types, f.common.value_type));
        let name = renamed_runtime_function(&f.common.name).or(promoted.as_deref()).unwrap_or(&f.common.name);
        let table = intrinsic_attributes(llvm_version, name)?;
        let Some(Type::Function { ret, params, .. }) = self.types.get(f.common.value_type) else {
            return Some(table.groups(|_| None));
        };
        Some(table.groups(|index| {
            let ty = match index {
                AttrIndex::Return => *ret,
                AttrIndex::Param(n) => *params.get(usize::try_from(n).ok()?)?,
                AttrIndex::Function => return None,
            };
            self.types.scalar_bit_width(ty)
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::String;

    /// What llvm-dis 14 to 22 make of `testdata/src/upgrade/vector_intrinsics.ll` and
    /// `masked_alignment.llvm19.ll`.
    #[test]
    fn promoted_and_masked_intrinsics() {
        let promoted = |v, n: &str| promoted_intrinsic_name(v, n.as_bytes()).map(|n| String::from_utf8(n).unwrap());
        assert_eq!(promoted(14, "llvm.experimental.vector.extract.v2i32.v4i32"), None);
        assert_eq!(
            promoted(15, "llvm.experimental.vector.extract.v2i32.v4i32").as_deref(),
            Some("llvm.vector.extract.v2i32.v4i32")
        );
        assert_eq!(promoted(16, "llvm.experimental.vector.reverse.v4i32"), None);
        assert_eq!(
            promoted(19, "llvm.experimental.vector.reverse.v4i32").as_deref(),
            Some("llvm.vector.reverse.v4i32")
        );
        assert_eq!(promoted(19, "llvm.experimental.stepvector.nxv4i32"), None);
        assert_eq!(promoted(20, "llvm.experimental.stepvector.nxv4i32").as_deref(), Some("llvm.stepvector.nxv4i32"));
        assert_eq!(promoted(22, "llvm.stepvector.nxv4i32"), None);
        use ArgumentUpgrade::MaskedAlignment;
        let load = upgraded_arguments(22, b"llvm.masked.load.v4i32.p0", 4);
        assert_eq!(load, Some(MaskedAlignment { pointer: 0, vector_of_pointers: false }));
        assert_eq!(load.unwrap().dropped_argument(), Some(1));
        let scatter = upgraded_arguments(22, b"llvm.masked.scatter.v4i16.v4p0", 4).unwrap();
        assert_eq!((scatter.dropped_argument(), scatter.aligned_arguments()), (Some(2), &[1][..]));
        assert!(scatter.keeps_tail_and_metadata() && !scatter.keeps_call_attributes());
        assert_eq!(upgraded_arguments(21, b"llvm.masked.load.v4i32.p0", 4), None);
        assert_eq!(upgraded_arguments(22, b"llvm.masked.load.v4i32.p0", 3), None);
        assert_eq!(upgraded_arguments(22, b"llvm.masked.loadx.v4i32.p0", 4), None);
        assert_eq!(upgraded_arguments(22, b"llvm.masked.expandload.v4i32", 4), None);
        assert!(rebuilds_calls(16, b"llvm.masked.load.v4i32.p0", true));
        assert!(!rebuilds_calls(16, b"llvm.masked.load.v4i32.p0", false));
        assert!(!rebuilds_calls(19, b"llvm.masked.load.v4i32.p0", true));
        assert!(rebuilds_calls(22, b"llvm.objectsize.i64.p0i8", true));
        assert!(!rebuilds_calls(22, b"llvm.objectsize.i64.p0", false));
        assert!(becomes_aligned_store(16, b"llvm.x86.sse2.storeu.dq", 2));
        assert!(!becomes_aligned_store(15, b"llvm.x86.sse2.storeu.dq", 2));
        assert!(!becomes_aligned_store(22, b"llvm.x86.sse2.storeu.dq", 3));
    }

    /// What llvm-dis 13 to 22 make of LLVM's `auto_upgrade_intrinsics.bc`,
    /// `objectsize-upgrade-7.0.ll.bc` and `upgrade-dbg-value.ll.bc`.
    #[test]
    fn calls_of_changed_signatures_are_upgraded() {
        use ArgumentUpgrade::*;
        assert_eq!(upgraded_arguments(14, b"llvm.ctlz.i8", 1), Some(AppendFalse(1)));
        assert_eq!(upgraded_arguments(22, b"llvm.cttz.i42", 1), Some(AppendFalse(1)));
        assert_eq!(upgraded_arguments(22, b"llvm.ctlz.i8", 2), None);
        assert_eq!(upgraded_arguments(13, b"llvm.objectsize.i32.p0i8", 2), Some(AppendFalse(2)));
        assert_eq!(upgraded_arguments(13, b"llvm.objectsize.i64.p0i8", 3), Some(AppendFalse(1)));
        assert_eq!(upgraded_arguments(13, b"llvm.objectsize.i64.p0i8", 4), None);
        assert_eq!(upgraded_arguments(19, b"llvm.dbg.value", 4), Some(DropOffset));
        assert_eq!(upgraded_arguments(19, b"llvm.dbg.value", 3), None);
        assert_eq!(upgraded_arguments(19, b"ctlz.i8", 1), None);
        let memcpy = upgraded_arguments(13, b"llvm.memcpy.p0i8.p0i8.i32", 5).unwrap();
        assert_eq!(memcpy, AlignmentToAttributes { source: true });
        assert_eq!(memcpy.dropped_argument(), Some(3));
        assert!(memcpy.keeps_call_attributes());
        assert_eq!(upgraded_arguments(13, b"llvm.memset.p0i8.i64", 5), Some(AlignmentToAttributes { source: false }));
        assert_eq!(upgraded_arguments(13, b"llvm.memset.p0i8.i64", 4), None);
        assert_eq!(DropOffset.dropped_argument(), Some(1));
    }

    #[test]
    fn overloads_added_since_complete_the_name() {
        let t = |i: u32| TypeId(i);
        let types = TypeTable {
            types: alloc::vec![
                Type::Double,                                                                             // 0
                Type::Vector { len: 2, element: t(0), scalable: false }, // 1 <2 x double>
                Type::Pointer { pointee: Some(t(1)), address_space: 0 }, // 2
                Type::Integer(32),                                       // 3
                Type::Integer(1),                                        // 4
                Type::Vector { len: 2, element: t(4), scalable: false }, // 5
                Type::Function { vararg: false, ret: t(1), params: alloc::vec![t(2), t(3), t(5), t(1)] }, // 6 masked.load
                Type::Integer(8),                                                                         // 7
                Type::Pointer { pointee: Some(t(7)), address_space: 0 },                                  // 8
                Type::Function { vararg: false, ret: t(3), params: alloc::vec![t(8), t(4)] }, // 9 objectsize
            ],
            declared_len: None,
        };
        let name = |n: &[u8], f: u32, typed: bool| completed_overload_name(n, &types, t(f), typed);
        assert_eq!(name(b"llvm.masked.load.v2f64", 6, true).unwrap(), b"llvm.masked.load.v2f64.p0v2f64");
        assert_eq!(name(b"llvm.masked.load.v2f64", 6, false).unwrap(), b"llvm.masked.load.v2f64.p0");
        assert_eq!(name(b"llvm.masked.load.v2f64.p0v2f64", 6, true), None);
        assert_eq!(name(b"llvm.objectsize.i32", 9, true).unwrap(), b"llvm.objectsize.i32.p0i8");
        assert_eq!(name(b"llvm.objectsizes.i32", 9, true), None);
    }

    /// Every entry of the table decodes, in strictly increasing order, and is found by
    /// its own name: the restart points' binary search covers the whole table.
    #[test]
    fn every_name_is_found_by_itself() {
        let mut name = Vec::new();
        let mut entries = Entries { at: 0, name: &mut name };
        let mut all = Vec::new();
        while let Some(words) = entries.next_entry() {
            all.push((entries.name.clone(), words));
        }
        assert_eq!(all.len(), NAME_COUNT);
        assert!(all.windows(2).all(|w| w[0].0 < w[1].0), "names sorted and distinct");
        let mut buffer = Vec::new();
        for (name, words) in &all {
            for (table, &word) in words.iter().enumerate() {
                let expect = Some(word).filter(|&w| w != u16::MAX);
                assert_eq!(exact(name, table, &mut buffer), expect, "{}", String::from_utf8_lossy(name));
            }
        }
        assert_eq!(exact(b"llvm.zzzz", 5, &mut buffer), None);
        assert_eq!(exact(b"a", 5, &mut buffer), None);
    }

    fn names(groups: &[AttributeGroup], index: AttrIndex) -> Vec<&'static str> {
        groups
            .iter()
            .filter(|g| g.index == index)
            .flat_map(|g| g.attributes.iter().filter_map(|a| a.kind()?.name()))
            .collect()
    }

    #[test]
    fn lookups_follow_llvm() {
        // Overloaded: the base name with type suffixes; the version's own attributes.
        let lifetime = intrinsic_attributes(22, b"llvm.lifetime.start.p0").unwrap();
        let groups = lifetime.groups(|_| None);
        assert!(names(&groups, AttrIndex::Function).contains(&"nocallback"));
        assert_eq!(names(&groups, AttrIndex::Param(0)), ["captures"]);
        let lifetime = intrinsic_attributes(14, b"llvm.lifetime.start.p0i8").unwrap().groups(|_| None);
        assert!(!names(&lifetime, AttrIndex::Function).contains(&"nocallback"));
        assert_eq!(names(&lifetime, AttrIndex::Param(1)), ["nocapture"]);
        // Not overloaded: only the exact name.
        assert!(intrinsic_attributes(22, b"llvm.trap").is_some());
        assert!(intrinsic_attributes(22, b"llvm.trap.i32").is_none());
        // Not an intrinsic, or a version without a table.
        assert!(intrinsic_attributes(22, b"llvm.not.an.intrinsic").is_none());
        assert!(intrinsic_attributes(22, b"memcpy").is_none());
        assert!(intrinsic_attributes(12, b"llvm.trap").is_none());
        // A version between two tables reads with the older one.
        assert_eq!(intrinsic_attributes(18, b"llvm.trap"), intrinsic_attributes(16, b"llvm.trap"));
    }

    #[test]
    fn typed_pointer_suffixes_lose_their_pointee() {
        let remangle = |n: &str| remangled_intrinsic_name(22, n.as_bytes()).map(|v| String::from_utf8(v).unwrap());
        assert_eq!(remangle("llvm.memcpy.p0i8.p0i8.i64").as_deref(), Some("llvm.memcpy.p0.p0.i64"));
        assert_eq!(remangle("llvm.lifetime.start.p0i8").as_deref(), Some("llvm.lifetime.start.p0"));
        assert_eq!(remangle("llvm.masked.load.v4i32.p0v4i32").as_deref(), Some("llvm.masked.load.v4i32.p0"));
        assert_eq!(remangle("llvm.masked.gather.v2i32.v2p1i32").as_deref(), Some("llvm.masked.gather.v2i32.v2p1"));
        // Already opaque, no pointer, or not an intrinsic: unchanged.
        assert_eq!(remangle("llvm.memcpy.p0.p0.i64"), None);
        assert_eq!(remangle("llvm.ctlz.i32"), None);
        assert_eq!(remangle("llvm.nothing.p0i8"), None);
    }

    #[test]
    fn va_intrinsics_are_overloaded_from_llvm_19() {
        assert_eq!(renamed_intrinsic(19, b"llvm.va_start", Some(b"p0")).as_deref(), Some(&b"llvm.va_start.p0"[..]));
        assert_eq!(renamed_intrinsic(22, b"llvm.va_copy", Some(b"p0")).as_deref(), Some(&b"llvm.va_copy.p0"[..]));
        assert_eq!(renamed_intrinsic(16, b"llvm.va_start", Some(b"p0")), None);
        assert_eq!(renamed_intrinsic(22, b"llvm.va_start.p0", Some(b"p0")), None);
        assert_eq!(
            renamed_intrinsic(22, b"llvm.thread.pointer", Some(b"p0")).as_deref(),
            Some(&b"llvm.thread.pointer.p0"[..])
        );
        assert_eq!(renamed_intrinsic(19, b"llvm.thread.pointer", Some(b"p0")), None);
        // Overloaded on its result since LLVM 9: typed as LLVM 14 prints it, opaque after.
        assert_eq!(
            renamed_intrinsic(14, b"llvm.frameaddress", Some(b"p0i8")).as_deref(),
            Some(&b"llvm.frameaddress.p0i8"[..])
        );
        assert_eq!(renamed_intrinsic(14, b"llvm.frameaddress", None), None);
        assert_eq!(
            renamed_intrinsic(19, b"llvm.frameaddress", Some(b"p0")).as_deref(),
            Some(&b"llvm.frameaddress.p0"[..])
        );
        assert_eq!(
            renamed_intrinsic(19, b"llvm.eh.typeid.for", Some(b"p0")).as_deref(),
            Some(&b"llvm.eh.typeid.for.p0"[..])
        );
        assert_eq!(renamed_intrinsic(16, b"llvm.eh.typeid.for", Some(b"p0")), None);
    }

    #[test]
    fn lifetime_markers_lose_their_size_in_llvm_22() {
        assert!(lifetime_loses_size(22, b"llvm.lifetime.start.p0i8", 2));
        assert!(lifetime_loses_size(22, b"llvm.lifetime.end.p0", 2));
        assert!(!lifetime_loses_size(22, b"llvm.lifetime.end.p0", 1));
        assert!(!lifetime_loses_size(19, b"llvm.lifetime.end.p0", 2));
        assert!(!lifetime_loses_size(22, b"llvm.memcpy.p0.p0.i64", 2));
    }

    /// LLVM 20 and later give `llvm.scmp` a return range of [-1, 2), at the width of the
    /// declaration's return type.
    #[test]
    fn ranges_take_the_width_of_their_type() {
        let scmp = intrinsic_attributes(22, b"llvm.scmp.i8.i32").unwrap();
        let groups = scmp.groups(|i| (i == AttrIndex::Return).then_some(8));
        let ret = groups.iter().find(|g| g.index == AttrIndex::Return).unwrap();
        assert_eq!(
            ret.attributes,
            [Attribute::Range {
                kind: AttrKind::from_name("range").unwrap(),
                bit_width: 8,
                range: ConstantRange::Small { lower: -1, upper: 2 },
            }]
        );
        // Without a width, no range.
        assert!(scmp.groups(|_| None).iter().all(|g| g.index != AttrIndex::Return || g.attributes.is_empty()));
    }
}
