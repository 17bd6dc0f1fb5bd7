//! Global variables, functions, aliases and ifuncs: the fields of the GLOBALVAR,
//! FUNCTION, ALIAS(_OLD) and IFUNC records, in every layout LLVM has written.

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use crate::LazyBlock;
use crate::ir::module::types::TypeId;

/// A global value's linkage, decoded as LLVM's `getDecodedLinkage` does, legacy codes
/// included; a code LLVM does not define is kept as `Unknown` (LLVM reads it as
/// external).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub enum Linkage {
    /// `external` (0; and the obsolete 5 dllimport, 6 dllexport, 15 linkonce_odr_autohide).
    External,
    /// `appending` (2).
    Appending,
    /// `internal` (3).
    Internal,
    /// `extern_weak` (7).
    ExternWeak,
    /// `common` (8).
    Common,
    /// `private` (9; and the obsolete 13 linker_private, 14 linker_private_weak).
    Private,
    /// `available_externally` (12).
    AvailableExternally,
    /// `weak` (16; 1 is the old code with an implicit comdat).
    Weak,
    /// `weak_odr` (17; old 10).
    WeakOdr,
    /// `linkonce` (18; old 4).
    LinkOnce,
    /// `linkonce_odr` (19; old 11).
    LinkOnceOdr,
    /// A code this crate does not know.
    Unknown(u64),
}

impl Linkage {
    /// Decodes a record's linkage field.
    pub fn from_raw(code: u64) -> Self {
        match code {
            0 | 5 | 6 | 15 => Linkage::External,
            2 => Linkage::Appending,
            3 => Linkage::Internal,
            7 => Linkage::ExternWeak,
            8 => Linkage::Common,
            9 | 13 | 14 => Linkage::Private,
            12 => Linkage::AvailableExternally,
            1 | 16 => Linkage::Weak,
            10 | 17 => Linkage::WeakOdr,
            4 | 18 => Linkage::LinkOnce,
            11 | 19 => Linkage::LinkOnceOdr,
            n => Linkage::Unknown(n),
        }
    }

    /// `private` or `internal`.
    pub fn is_local(self) -> bool {
        matches!(self, Linkage::Private | Linkage::Internal)
    }

    /// `linkonce`, `linkonce_odr`, `weak`, `weak_odr` or `extern_weak`: what the symbol
    /// table calls weak.
    pub fn is_weak_for_symbols(self) -> bool {
        matches!(
            self,
            Linkage::Weak | Linkage::WeakOdr | Linkage::LinkOnce | Linkage::LinkOnceOdr | Linkage::ExternWeak
        )
    }

    /// LLVM's spelling (`external` included, which `llvm-dis` leaves out).
    pub fn name(self) -> &'static str {
        match self {
            Linkage::External => "external",
            Linkage::Appending => "appending",
            Linkage::Internal => "internal",
            Linkage::ExternWeak => "extern_weak",
            Linkage::Common => "common",
            Linkage::Private => "private",
            Linkage::AvailableExternally => "available_externally",
            Linkage::Weak => "weak",
            Linkage::WeakOdr => "weak_odr",
            Linkage::LinkOnce => "linkonce",
            Linkage::LinkOnceOdr => "linkonce_odr",
            Linkage::Unknown(_) => "unknown",
        }
    }
}

impl fmt::Display for Linkage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Linkage::Unknown(n) => f.pad(&alloc::format!("linkage({n})")),
            l => f.pad(l.name()),
        }
    }
}

/// DLL storage class (`dllimport`, `dllexport`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub enum DllStorage {
    /// None (0).
    Default,
    /// `dllimport` (1).
    Import,
    /// `dllexport` (2).
    Export,
    /// A code this crate does not know.
    Unknown(u64),
}

impl DllStorage {
    /// Decodes the field.
    pub fn from_raw(code: u64) -> Self {
        match code {
            0 => DllStorage::Default,
            1 => DllStorage::Import,
            2 => DllStorage::Export,
            n => DllStorage::Unknown(n),
        }
    }
}

/// Thread-local mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub enum ThreadLocal {
    /// Not thread-local (0).
    No,
    /// `thread_local` (1, general dynamic).
    GeneralDynamic,
    /// `thread_local(localdynamic)` (2).
    LocalDynamic,
    /// `thread_local(initialexec)` (3).
    InitialExec,
    /// `thread_local(localexec)` (4).
    LocalExec,
    /// A code this crate does not know (LLVM reads it as general dynamic).
    Unknown(u64),
}

impl ThreadLocal {
    /// Decodes the field.
    pub fn from_raw(code: u64) -> Self {
        match code {
            0 => ThreadLocal::No,
            1 => ThreadLocal::GeneralDynamic,
            2 => ThreadLocal::LocalDynamic,
            3 => ThreadLocal::InitialExec,
            4 => ThreadLocal::LocalExec,
            n => ThreadLocal::Unknown(n),
        }
    }

    /// Whether the value is thread-local at all.
    pub fn is_thread_local(self) -> bool {
        self != ThreadLocal::No
    }
}

/// `unnamed_addr` / `local_unnamed_addr`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub enum UnnamedAddr {
    /// None (0).
    None,
    /// `unnamed_addr` (1).
    Global,
    /// `local_unnamed_addr` (2).
    Local,
    /// A code this crate does not know.
    Unknown(u64),
}

impl UnnamedAddr {
    /// The keyword `llvm-dis` prints for it (`unnamed_addr`, `local_unnamed_addr`), if
    /// any.
    pub fn keyword(self) -> Option<&'static str> {
        match self {
            UnnamedAddr::Global => Some("unnamed_addr"),
            UnnamedAddr::Local => Some("local_unnamed_addr"),
            _ => None,
        }
    }

    /// Decodes the field.
    pub fn from_raw(code: u64) -> Self {
        match code {
            0 => UnnamedAddr::None,
            1 => UnnamedAddr::Global,
            2 => UnnamedAddr::Local,
            n => UnnamedAddr::Unknown(n),
        }
    }
}

/// A comdat's selection kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub enum ComdatSelection {
    /// `any` (1).
    Any,
    /// `exactmatch` (2).
    ExactMatch,
    /// `largest` (3).
    Largest,
    /// `nodeduplicate` (4; `noduplicates` before LLVM 13).
    NoDeduplicate,
    /// `samesize` (5).
    SameSize,
    /// A code this crate does not know.
    Unknown(u64),
}

impl ComdatSelection {
    /// Decodes the field.
    pub fn from_raw(code: u64) -> Self {
        match code {
            1 => ComdatSelection::Any,
            2 => ComdatSelection::ExactMatch,
            3 => ComdatSelection::Largest,
            4 => ComdatSelection::NoDeduplicate,
            5 => ComdatSelection::SameSize,
            n => ComdatSelection::Unknown(n),
        }
    }
}

impl fmt::Display for ComdatSelection {
    /// As `llvm-dis` prints it after `comdat` (`any`, `nodeduplicate`, …); an unknown code
    /// as `unknown(N)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ComdatSelection::Any => f.pad("any"),
            ComdatSelection::ExactMatch => f.pad("exactmatch"),
            ComdatSelection::Largest => f.pad("largest"),
            ComdatSelection::NoDeduplicate => f.pad("nodeduplicate"),
            ComdatSelection::SameSize => f.pad("samesize"),
            ComdatSelection::Unknown(n) => f.pad(&alloc::format!("unknown({n})")),
        }
    }
}

/// A global value's name: borrowed from the STRTAB (VERSION 2), or decoded from a
/// VALUE_SYMTAB or COMDAT record (older files). Empty for an unnamed value.
pub type Name<'a> = Cow<'a, [u8]>;

/// Serializes names as strings (UTF-8, with U+FFFD for bytes that are not), as `Text` is:
/// LLVM does not require names to be UTF-8, but every real one is.
#[cfg(feature = "serde")]
pub(crate) mod name_serde {
    use super::Name;

    pub(crate) fn name<S: serde::Serializer>(name: &Name<'_>, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&alloc::string::String::from_utf8_lossy(name))
    }

    pub(crate) fn bytes<S: serde::Serializer>(name: &impl AsRef<[u8]>, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&alloc::string::String::from_utf8_lossy(name.as_ref()))
    }

    pub(crate) fn optional<S: serde::Serializer>(name: &Option<Name<'_>>, s: S) -> Result<S::Ok, S::Error> {
        match name {
            Some(n) => s.serialize_some(&*alloc::string::String::from_utf8_lossy(n)),
            None => s.serialize_none(),
        }
    }
}

/// Fields every global value has.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct GlobalCommon<'a> {
    /// The name (empty if unnamed).
    #[cfg_attr(feature = "serde", serde(serialize_with = "name_serde::name"))]
    pub name: Name<'a>,
    /// The value id (the value's position among the module's global values).
    pub value_id: u64,
    /// The linkage.
    pub linkage: Linkage,
    /// The raw linkage code (legacy codes also imply dllimport/dllexport or a comdat).
    pub raw_linkage: u64,
    /// The visibility (LLVM ignores it for local linkage; so does this field).
    pub visibility: Visibility,
    /// DLL storage class (upgraded from the legacy linkages 5 and 6 when the record is
    /// too short to have the field).
    pub dll_storage: DllStorage,
    /// Thread-local mode.
    pub thread_local: ThreadLocal,
    /// `unnamed_addr`.
    pub unnamed_addr: UnnamedAddr,
    /// `dso_local`, as recorded or inferred (local linkage, or non-default visibility
    /// without extern_weak), as LLVM's reader does.
    pub dso_local: bool,
    /// The partition name (from the STRTAB), if any.
    #[cfg_attr(feature = "serde", serde(serialize_with = "name_serde::optional"))]
    pub partition: Option<Name<'a>>,
    /// The value type (the pointee for the legacy pointer-typed records).
    pub value_type: TypeId,
    /// The address space.
    pub address_space: u64,
    /// Bit offset of the record.
    pub bit: u64,
    /// Operands past those this crate knows, kept as read.
    pub extra_operands: Vec<u64>,
}

impl GlobalCommon<'_> {
    /// The name as text (invalid UTF-8 replaced).
    pub fn name_str(&self) -> Cow<'_, str> {
        String::from_utf8_lossy(&self.name)
    }
}

/// A MODULE_CODE_GLOBALVAR record.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct GlobalVar<'a> {
    /// The common fields.
    pub common: GlobalCommon<'a>,
    /// `constant` rather than `global`.
    pub is_constant: bool,
    /// The initializer's value id, `None` for a declaration.
    pub initializer: Option<u64>,
    /// Alignment in bytes, if given.
    pub alignment: Option<u64>,
    /// The section name, if any.
    pub section: Option<String>,
    /// `externally_initialized`.
    pub externally_initialized: bool,
    /// The comdat index (into [`crate::ir::Module::comdats`]), if any.
    pub comdat: Option<u64>,
    /// Whether the record has the comdat operand (0 for none), which LLVM 3.5 and later
    /// write: an old `weak` or `linkonce` variable without it is in a comdat of its own
    /// name as LLVM reads it ([`crate::ir::upgrade::has_implicit_comdat`]).
    pub comdat_operand: bool,
    /// The attribute list (an index into the PARAMATTR lists, from 1), if any.
    pub attributes: Option<u64>,
    /// Sanitizer metadata bits (no_address, no_hwaddress, memtag, dyninit), if given.
    pub sanitizer: Option<u64>,
    /// The code model (1 tiny … 5 large), if given.
    pub code_model: Option<u64>,
}

impl GlobalVar<'_> {
    /// A declaration: no initializer.
    pub fn is_declaration(&self) -> bool {
        self.initializer.is_none()
    }
}

/// A MODULE_CODE_FUNCTION record, with its body.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct Function<'a> {
    /// The common fields; `value_type` is the function type.
    pub common: GlobalCommon<'a>,
    /// The calling convention number (0 = C).
    pub calling_conv: u64,
    /// A declaration (no body).
    pub is_declaration: bool,
    /// The attribute list (an index into the PARAMATTR lists, from 1), if any.
    pub attributes: Option<u64>,
    /// Alignment in bytes, if given.
    pub alignment: Option<u64>,
    /// The section name, if any.
    pub section: Option<String>,
    /// The GC name, if any.
    pub gc: Option<String>,
    /// Prologue data, as a value id.
    pub prologue: Option<u64>,
    /// The comdat index, if any.
    pub comdat: Option<u64>,
    /// Whether the record has the comdat operand (see [`GlobalVar::comdat_operand`]).
    pub comdat_operand: bool,
    /// Prefix data, as a value id.
    pub prefix: Option<u64>,
    /// The personality function, as a value id.
    pub personality: Option<u64>,
    /// Preferred alignment in bytes, if given.
    pub preferred_alignment: Option<u64>,
    /// The body (FUNCTION_BLOCK), skipped, for a definition whose block was found.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub body: Option<LazyBlock<'a>>,
}

impl Function<'_> {
    /// The body's size in bits (its block, header to end), if it has one.
    pub fn body_bits(&self) -> Option<u64> {
        self.body.as_ref().map(|b| {
            let bm = b.bookmark();
            bm.end_bit().saturating_sub(bm.header_bit)
        })
    }
}

/// A MODULE_CODE_ALIAS or ALIAS_OLD record (`is_ifunc` false), or a MODULE_CODE_IFUNC
/// record (`is_ifunc` true).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct Alias<'a> {
    /// The common fields.
    pub common: GlobalCommon<'a>,
    /// An IFUNC rather than an alias.
    pub is_ifunc: bool,
    /// The aliasee (or resolver) value id.
    pub target: u64,
}

/// A MODULE_CODE_COMDAT record.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct Comdat<'a> {
    /// The name.
    #[cfg_attr(feature = "serde", serde(serialize_with = "name_serde::name"))]
    pub name: Name<'a>,
    /// The selection kind.
    pub selection: ComdatSelection,
}

/// A global value's visibility (`default`, `hidden`, `protected`), as the GLOBALVAR,
/// FUNCTION and ALIAS records and `irsymtab`'s flags encode it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum Visibility {
    /// `default` (code 0).
    Default,
    /// `hidden` (code 1).
    Hidden,
    /// `protected` (code 2).
    Protected,
    /// A code this crate does not know, kept as read.
    Unknown(u64),
}

impl Visibility {
    /// The visibility for an encoded value.
    pub fn from_raw(code: u64) -> Self {
        match code {
            0 => Visibility::Default,
            1 => Visibility::Hidden,
            2 => Visibility::Protected,
            n => Visibility::Unknown(n),
        }
    }

    /// The encoded value.
    pub fn code(self) -> u64 {
        match self {
            Visibility::Default => 0,
            Visibility::Hidden => 1,
            Visibility::Protected => 2,
            Visibility::Unknown(n) => n,
        }
    }
}

impl fmt::Display for Visibility {
    /// LLVM's textual spelling (`default`, `hidden`, `protected`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Visibility::Default => f.pad("default"),
            Visibility::Hidden => f.pad("hidden"),
            Visibility::Protected => f.pad("protected"),
            Visibility::Unknown(n) => f.pad(&alloc::format!("visibility({n})")),
        }
    }
}
