//! A module's symbols as LLVM's `ModuleSymbolTable` and `irsymtab::Builder` derive them
//! from the module records: mangled names and [`SymbolFlags`] bit for bit.

pub(crate) mod asm;
pub(crate) mod flags;
pub(crate) mod irsymtab;
pub(crate) mod libcalls;

use alloc::borrow::Cow;
use alloc::vec::Vec;

use crate::ir::module::attributes::{AttrIndex, AttrKind, Attribute, AttributeList};
use crate::ir::module::constants::{ConstantRef, Constants};
use crate::ir::module::globals::Visibility;
use crate::ir::module::globals::{DllStorage, Linkage, ThreadLocal, UnnamedAddr};
use crate::ir::module::types::Type;
use crate::ir::module::{GlobalRef, Module};
use crate::ir::symbols::flags::SymbolFlags;
use crate::ir::vocabulary::datalayout::{DataLayout, Mangling, TypeLayout};

/// One symbol of a module, as `irsymtab` would store it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct ModuleSymbol<'m> {
    /// The mangled name (`_main` on Mach-O, `\01` names unprefixed, `__imp_` for dllimport):
    /// borrowed from the IR name where mangling adds nothing.
    #[cfg_attr(feature = "serde", serde(serialize_with = "crate::ir::module::globals::name_serde::name"))]
    pub name: Cow<'m, [u8]>,
    /// The IR name (empty for an unnamed value).
    #[cfg_attr(feature = "serde", serde(serialize_with = "crate::ir::module::globals::name_serde::bytes"))]
    pub ir_name: &'m [u8],
    /// The flags, exactly as `irsymtab::Builder::addSymbol` sets them.
    pub flags: SymbolFlags,
    /// Size of a common symbol (the value type's allocation size under the datalayout).
    pub common_size: Option<u64>,
    /// Alignment of a common symbol (0 if the variable gives none).
    pub common_align: Option<u64>,
    /// The section of the object it names (an alias: its aliasee's), if any.
    pub section: Option<&'m str>,
    /// The global value it comes from.
    pub source: GlobalRef,
}

/// How deep alias chains and constant expressions are followed.
const MAX_CHAIN: usize = 64;

impl<'a> Module<'a> {
    /// The module's symbols, in `irsymtab` order (functions, global variables, aliases,
    /// ifuncs, each in record order), with names mangled for the datalayout and flags set
    /// as `irsymtab::Builder::addSymbol` sets them.
    ///
    /// Unnamed global values are named `__unnamed_N` as `irsymtab` names them, counting
    /// every unnamed value in this order (`llvm-nm` counts only the symbols it lists:
    /// [`crate::symbols`] renumbers them so). Microsoft calling conventions decorate
    /// names as LLVM's `Mangler` does: `_f@8` for stdcall and `@f@8` for fastcall under
    /// 32-bit Windows mangling (`m:x`), `f@@8` for vectorcall on every target. The
    /// symbols of module-level inline asm are [`Module::asm_symbols`].
    pub fn symbols(&self) -> Vec<ModuleSymbol<'_>> {
        let mangling = DataLayout::new(self.datalayout.as_deref().unwrap_or("")).mangling();
        // Only the constants aliasees and the used lists need are read.
        let roots = self
            .aliases
            .iter()
            .map(|a| a.target)
            .chain(self.globals.iter().filter(|g| is_used_list(&g.common.name)).filter_map(|g| g.initializer));
        let constants = self.constants_for(roots);
        let mut used = self.used_values(&constants);
        used.sort_unstable();
        let llvm_major = self.llvm_major();
        let order = (0..self.functions.len())
            .map(GlobalRef::Function)
            .chain((0..self.globals.len()).map(GlobalRef::Var))
            .chain(self.aliases.iter().enumerate().filter(|(_, a)| !a.is_ifunc).map(|(i, _)| GlobalRef::Alias(i)))
            .chain(self.aliases.iter().enumerate().filter(|(_, a)| a.is_ifunc).map(|(i, _)| GlobalRef::Alias(i)));
        let mut unnamed = 0u64;
        let mut out = Vec::with_capacity(self.functions.len() + self.globals.len() + self.aliases.len());
        for source in order {
            let Some(sym) = self.symbol(source, mangling, &used, llvm_major, &constants, &mut unnamed) else {
                continue;
            };
            out.push(sym);
        }
        out
    }

    fn symbol(
        &self,
        source: GlobalRef,
        mangling: Mangling,
        used: &[u64],
        llvm_major: Option<u32>,
        constants: &Constants,
        unnamed: &mut u64,
    ) -> Option<ModuleSymbol<'_>> {
        let (common, is_declaration, is_var_constant, var_section) = match source {
            GlobalRef::Function(i) => {
                let f = self.functions.get(i)?;
                (&f.common, f.is_declaration, false, None)
            }
            GlobalRef::Var(i) => {
                let g = self.globals.get(i)?;
                (&g.common, g.is_declaration(), g.is_constant, g.section.as_deref())
            }
            GlobalRef::Alias(i) => (&self.aliases.get(i)?.common, false, false, None),
        };
        let linkage = common.linkage;
        let mut flags = 0u32;
        // ModuleSymbolTable::getSymbolFlags
        if linkage == Linkage::AvailableExternally || is_declaration {
            flags |= SymbolFlags::UNDEFINED;
        }
        if self.aliasee_is_executable(source, constants) {
            flags |= SymbolFlags::EXECUTABLE;
        }
        if matches!(source, GlobalRef::Alias(i) if self.aliases.get(i).is_some_and(|a| !a.is_ifunc)) {
            flags |= SymbolFlags::INDIRECT;
        }
        if linkage == Linkage::Private {
            flags |= SymbolFlags::FORMAT_SPECIFIC;
        }
        if !linkage.is_local() {
            flags |= SymbolFlags::GLOBAL;
        }
        if linkage == Linkage::Common {
            flags |= SymbolFlags::COMMON;
        }
        if linkage.is_weak_for_symbols() {
            flags |= SymbolFlags::WEAK;
        }
        if common.name.starts_with(b"llvm.") || var_section == Some("llvm.metadata") {
            flags |= SymbolFlags::FORMAT_SPECIFIC;
        }
        // irsymtab::Builder::addSymbol
        // `used` is sorted.
        if used.binary_search(&common.value_id).is_ok()
            || crate::ir::symbols::libcalls::is_preserved(&common.name, llvm_major)
        {
            flags |= SymbolFlags::USED;
        }
        if common.thread_local != ThreadLocal::No {
            flags |= SymbolFlags::TLS;
        }
        if common.unnamed_addr == UnnamedAddr::Global {
            flags |= SymbolFlags::UNNAMED_ADDR;
        }
        if can_be_omitted(linkage, common.unnamed_addr, matches!(source, GlobalRef::Var(_)), is_var_constant) {
            flags |= SymbolFlags::MAY_OMIT;
        }
        let visibility = if linkage.is_local() { Visibility::Default } else { common.visibility };
        flags |= (visibility.code() as u32) & 3;
        let (mut common_size, mut common_align) = (None, None);
        if linkage == Linkage::Common {
            if let GlobalRef::Var(i) = source {
                flags |= SymbolFlags::HAS_UNCOMMON;
                let layout = TypeLayout::new(self.datalayout.as_deref().unwrap_or(""));
                common_size = layout.alloc_size(&self.types, common.value_type, 0);
                common_align = Some(self.globals.get(i).and_then(|g| g.alignment).unwrap_or(0));
            }
        }
        // The aliasee object's section, kept in the symbol's uncommon part.
        let section = self.aliasee_object(source, constants).and_then(|o| match o {
            GlobalRef::Function(i) => self.functions.get(i).and_then(|f| f.section.as_deref()),
            GlobalRef::Var(i) => self.globals.get(i).and_then(|g| g.section.as_deref()),
            GlobalRef::Alias(_) => None,
        });
        if section.is_some_and(|s| !s.is_empty()) {
            flags |= SymbolFlags::HAS_UNCOMMON;
        }
        // Mangler::getNameWithPrefix, through ModuleSymbolTable::printSymbolName.
        let ir_name: &[u8] = &common.name;
        let import_prefix: &[u8] = if common.dll_storage == DllStorage::Import { b"__imp_" } else { b"" };
        let name = if ir_name.is_empty() {
            *unnamed += 1;
            let generated = alloc::format!("__unnamed_{unnamed}");
            mangle(import_prefix, generated.as_bytes(), linkage, mangling, None).into_owned().into()
        } else {
            let ms = self.ms_call(source, constants, mangling, ir_name);
            mangle(import_prefix, ir_name, linkage, mangling, ms.as_ref())
        };
        Some(ModuleSymbol { name, ir_name, flags: SymbolFlags(flags), common_size, common_align, section, source })
    }

    /// Value ids named in `llvm.used` and `llvm.compiler.used` (both count as used for
    /// `irsymtab`), through casts.
    fn used_values(&self, constants: &Constants) -> Vec<u64> {
        let mut out = Vec::new();
        for g in &self.globals {
            if !is_used_list(&g.common.name) {
                continue;
            }
            let Some(init) = g.initializer else { continue };
            let Some(ConstantRef::Aggregate { start, len }) = constants.get(init) else { continue };
            let elements = constants.elements.get(start..start.saturating_add(len)).unwrap_or(&[]);
            for &e in elements {
                if let Some(v) = self.strip_to_global(e, constants) {
                    out.push(v);
                }
            }
        }
        out
    }

    /// Follows casts and GEPs from a value id to a global value id.
    fn strip_to_global(&self, mut v: u64, constants: &Constants) -> Option<u64> {
        for _ in 0..MAX_CHAIN {
            if usize::try_from(v).is_ok_and(|i| i < self.values.len()) {
                return Some(v);
            }
            match constants.get(v)? {
                ConstantRef::Cast(op) | ConstantRef::Gep(op) => v = op,
                _ => return None,
            }
        }
        None
    }

    /// Whether `getAliaseeObject()` is a function or an ifunc.
    fn aliasee_is_executable(&self, source: GlobalRef, constants: &Constants) -> bool {
        match self.aliasee_object(source, constants) {
            Some(GlobalRef::Function(_)) => true,
            Some(GlobalRef::Alias(i)) => self.aliases.get(i).is_some_and(|a| a.is_ifunc),
            _ => false,
        }
    }

    /// `getAliaseeObject()`: a function, variable or ifunc is its own; an alias's is the
    /// object at the end of its aliasee (through casts, GEPs and other aliases).
    fn aliasee_object(&self, source: GlobalRef, constants: &Constants) -> Option<GlobalRef> {
        let mut current = source;
        for _ in 0..MAX_CHAIN {
            match current {
                GlobalRef::Alias(i) => {
                    let a = self.aliases.get(i)?;
                    if a.is_ifunc {
                        return Some(current);
                    }
                    let target = self.strip_to_global(a.target, constants)?;
                    current = *usize::try_from(target).ok().and_then(|t| self.values.get(t))?;
                }
                object => return Some(object),
            }
        }
        None
    }

    /// `Mangler::getNameWithPrefix`'s Microsoft decoration of a function (or an alias of
    /// one) with the stdcall, fastcall or vectorcall convention, if it gets one.
    fn ms_call(&self, source: GlobalRef, constants: &Constants, mangling: Mangling, name: &[u8]) -> Option<MsCall> {
        if name.starts_with(b"\x01") || (mangling.no_prefix_for_question_mark() && name.first() == Some(&b'?')) {
            return None;
        }
        let GlobalRef::Function(i) = self.aliasee_object(source, constants)? else { return None };
        let f = self.functions.get(i)?;
        let cc = f.calling_conv;
        if !(cc == CC_X86_VECTORCALL
            || (mangling == Mangling::WinCoffX86 && matches!(cc, CC_X86_STDCALL | CC_X86_FASTCALL)))
        {
            return None;
        }
        let (vararg, params) = match self.types.get(f.common.value_type)? {
            Type::Function { vararg, params, .. } => (*vararg, params.as_slice()),
            Type::Pointer { pointee: Some(p), .. } => match self.types.get(*p)? {
                Type::Function { vararg, params, .. } => (*vararg, params.as_slice()),
                _ => return None,
            },
            _ => return None,
        };
        let attributes = self.param_attributes(f.attributes);
        let sret = |n: u64| {
            attributes.iter().any(|(i, a)| {
                *i == n && matches!(a, Attribute::Enum(k) | Attribute::Type(k, _) if *k == ATTR_STRUCT_RET)
            })
        };
        let has_sret = sret(0) || sret(1);
        // "Pure" variadic functions get no byte count.
        let count = !vararg || params.is_empty() || (params.len() == 1 && has_sret);
        let bytes = if count {
            let layout = TypeLayout::new(self.datalayout.as_deref().unwrap_or(""));
            let pointer = (layout.pointer(0).0 / 8).max(1);
            let mut total = 0u64;
            for (n, &param) in params.iter().enumerate() {
                let n = n as u64;
                if sret(n) {
                    continue;
                }
                // byval, inalloca and preallocated pass the pointee: its size counts.
                let by_copy = attributes.iter().find_map(|(i, a)| match a {
                    Attribute::Type(k, t) if *i == n && BY_COPY.contains(k) => Some(*t),
                    _ => None,
                });
                let ty = match by_copy {
                    Some(Some(t)) => t,
                    Some(None) => match self.types.get(param)? {
                        Type::Pointer { pointee: Some(p), .. } => *p,
                        _ => param,
                    },
                    None => param,
                };
                let size = layout.alloc_size(&self.types, ty, 0)?;
                total = total.checked_add(size.checked_next_multiple_of(pointer)?)?;
            }
            Some(total)
        } else {
            None
        };
        let prefix = match cc {
            CC_X86_FASTCALL => Some(Some(b'@')),
            CC_X86_VECTORCALL => Some(None),
            _ => None,
        };
        Some(MsCall { prefix, double_at: cc == CC_X86_VECTORCALL, bytes })
    }

    /// The parameter attributes of an attribute list (a FUNCTION record's `paramattr`, 1
    /// for the first list), as (parameter index, attribute) pairs. Legacy lists give
    /// `sret` and `byval` from their raw bits.
    fn param_attributes(&self, list: Option<u64>) -> Vec<(u64, Attribute)> {
        let mut out = Vec::new();
        let Some(list) =
            list.and_then(|l| usize::try_from(l).ok()?.checked_sub(1)).and_then(|l| self.attribute_lists.get(l))
        else {
            return out;
        };
        match list {
            AttributeList::Groups(ids) => {
                for id in ids {
                    for g in self.attribute_groups.iter().filter(|g| g.id == *id) {
                        if let AttrIndex::Param(n) = g.index {
                            out.extend(g.attributes.iter().map(|a| (n, a.clone())));
                        }
                    }
                }
            }
            AttributeList::Legacy(pairs) => {
                for &(index, bits) in pairs {
                    let AttrIndex::Param(n) = AttrIndex::from_raw(index) else { continue };
                    if bits & LEGACY_STRUCT_RET != 0 {
                        out.push((n, Attribute::Enum(ATTR_STRUCT_RET)));
                    }
                    if bits & LEGACY_BY_VAL != 0 {
                        out.push((n, Attribute::Type(ATTR_BY_VAL, None)));
                    }
                }
            }
        }
        out
    }

    /// The major version of the LLVM that wrote the module, from its producer
    /// (`LLVM14.0.6`, `LLVM22.1.2-rust-1.95.0-stable`).
    pub fn llvm_major(&self) -> Option<u32> {
        let p = self.producer.as_deref()?.strip_prefix("LLVM")?;
        let digits = p.split(|c: char| !c.is_ascii_digit()).next()?;
        digits.parse().ok()
    }
}

/// `CallingConv::X86_StdCall`, `X86_FastCall` and `X86_VectorCall`.
const CC_X86_STDCALL: u64 = 64;
const CC_X86_FASTCALL: u64 = 65;
const CC_X86_VECTORCALL: u64 = 80;
/// `ATTR_KIND_STRUCT_RET`, `ATTR_KIND_BY_VAL`.
const ATTR_STRUCT_RET: AttrKind = AttrKind(29);
const ATTR_BY_VAL: AttrKind = AttrKind(3);
/// The attributes `hasPassPointeeByValueCopyAttr` asks for: byval, inalloca, preallocated.
const BY_COPY: [AttrKind; 3] = [ATTR_BY_VAL, AttrKind(38), AttrKind(65)];
/// The legacy (LLVM 3.2) raw attribute bits of `sret` and `byval`.
const LEGACY_STRUCT_RET: u64 = 1 << 4;
const LEGACY_BY_VAL: u64 = 1 << 7;

/// A Microsoft calling convention's decoration of a name.
struct MsCall {
    /// Replaces the global prefix: `Some(Some(b'@'))` for fastcall, `Some(None)` (none) for
    /// vectorcall; `None` keeps the datalayout's.
    prefix: Option<Option<u8>>,
    /// Vectorcall's `@@`.
    double_at: bool,
    /// The argument bytes of the `@N` suffix, each rounded up to the pointer size; `None`
    /// for a "pure" variadic function or a size this crate cannot compute.
    bytes: Option<u64>,
}

/// `Mangler::getNameWithPrefix`: `raw` with the dllimport prefix, the private prefix
/// and the global prefix the datalayout asks for (none for a name starting with `\01`,
/// which loses that byte instead), and a Microsoft calling convention's decoration.
/// Borrowed when nothing is added.
fn mangle<'n>(
    import_prefix: &[u8],
    raw: &'n [u8],
    linkage: Linkage,
    mangling: Mangling,
    ms: Option<&MsCall>,
) -> Cow<'n, [u8]> {
    let (private, global, raw): (&[u8], Option<u8>, &'n [u8]) = match raw.strip_prefix(b"\x01") {
        Some(stripped) => (b"", None, stripped),
        None => {
            let mut global = match ms.and_then(|m| m.prefix) {
                Some(prefix) => prefix,
                None => mangling.global_prefix(),
            };
            if mangling.no_prefix_for_question_mark() && raw.first() == Some(&b'?') {
                global = None;
            }
            let private = if linkage == Linkage::Private { mangling.private_prefix() } else { b"" };
            (private, global, raw)
        }
    };
    if import_prefix.is_empty() && private.is_empty() && global.is_none() && ms.is_none() {
        return Cow::Borrowed(raw);
    }
    let mut name = Vec::with_capacity(import_prefix.len() + private.len() + 1 + raw.len());
    name.extend_from_slice(import_prefix);
    name.extend_from_slice(private);
    name.extend(global);
    name.extend_from_slice(raw);
    if let Some(ms) = ms {
        if ms.double_at {
            name.push(b'@');
        }
        if let Some(bytes) = ms.bytes {
            name.extend_from_slice(alloc::format!("@{bytes}").as_bytes());
        }
    }
    Cow::Owned(name)
}

/// `llvm.used` or `llvm.compiler.used`: both count as used for `irsymtab`.
fn is_used_list(name: &[u8]) -> bool {
    name == b"llvm.used" || name == b"llvm.compiler.used"
}

/// `GlobalValue::canBeOmittedFromSymbolTable`.
fn can_be_omitted(linkage: Linkage, unnamed: UnnamedAddr, is_var: bool, is_constant: bool) -> bool {
    if linkage != Linkage::LinkOnceOdr {
        return false;
    }
    if unnamed == UnnamedAddr::Global {
        return true;
    }
    if is_var && !is_constant {
        return false;
    }
    unnamed == UnnamedAddr::Local
}
