//! The symbols of a file as `llvm-nm` lists them: bitcode files, object files (their
//! native symbols, or those of their embedded bitcode), Mach-O universal binaries and
//! archives (`.a`, `.rlib`), member by member.
//!
//! ```
//! use llvm_bitstream_reader::symbols::{self, Options};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let path = concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/rustc_llvm22_o3.bc");
//! let bytes = std::fs::read(path)?;
//! let file = symbols::read(path, &bytes, &Options::default())?;
//! for list in &file.lists {
//!     for s in list.symbols.iter().filter(|s| s.listed && !s.undefined) {
//!         println!("{} {}", s.letter, s.name_str());
//!     }
//! }
//! assert!(file.lists[0].symbols.iter().any(|s| s.letter == 'T'));
//! # Ok(()) }
//! ```
//!
//! The rules are `llvm-nm`'s (`llvm/tools/llvm-nm/llvm-nm.cpp` and the `object` library
//! of LLVM), checked against `llvm-nm` 14, 19 and 22 by the tests:
//! - **Bitcode.** The symbols of every module of the file, in LLVM's
//!   `ModuleSymbolTable` order (functions, global variables, aliases, ifuncs, then the
//!   symbols of module-level asm), named by LLVM's `Mangler`, from the file's SYMTAB blob
//!   when it describes every module ([`crate::ir::symtab`]), else derived from the module
//!   records ([`crate::ir::Module::symbols`], [`crate::ir::Module::asm_symbols`]).
//!   Unnamed globals are numbered `__unnamed_N` in the order `llvm-nm` names them: the
//!   listed ones only, across the modules of the file.
//! - **Universal binaries.** One list per architecture, of its native symbols (`llvm-nm`
//!   opens slices without an LLVM context, so bitcode in an object slice is not read;
//!   a slice that is bitcode, which `llvm-nm` rejects, is read as bitcode). `llvm-nm`
//!   then shows only the host's slice if there is one: that choice is the caller's.
//! - **Objects.** Their native symbol tables (ELF `.symtab`, Mach-O `LC_SYMTAB`, COFF),
//!   with `llvm-nm`'s letters, addresses and sizes. An object that also embeds bitcode
//!   (`.llvmbc`, `__LLVM,__bitcode`) is listed by its bitcode where the chosen
//!   [`NmVersion`] does so: LLVM 14 for every format, later versions for Mach-O only.
//! - **Archives.** One list per member that is an object or bitcode; other members
//!   (the symbol index, `lib.rmeta`, text, nested archives) are passed over, as
//!   `llvm-nm` passes over them. A member that cannot be read gives a list with its
//!   [`SymbolList::error`], and the others are listed all the same.
//!
//! Symbols are given in file order with every symbol the file holds, including those
//! `llvm-nm` does not list ([`Symbol::listed`] is `false`: private and `llvm.*` IR
//! symbols, ELF section and file symbols, mapping symbols, ...). Sorting and filtering
//! are the caller's: [`SymbolList::sort`] sorts as `llvm-nm` does.

mod native;

use alloc::borrow::Cow;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;
use core::cmp::Ordering;
use core::fmt;

use object::FileKind;
use object::read::archive::ArchiveFile;

use crate::container::{self, ContainerError, Embedded, Provenance, Step};
use crate::ir::symtab::Symtab;
use crate::ir::{GlobalRef, Inventory, Module, SymbolFlags, Triple};

/// Which `llvm-nm` to follow where versions differ.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub enum NmVersion {
    /// LLVM 14: objects with embedded bitcode are listed by their bitcode (ELF, COFF and
    /// Mach-O); x86-32 ELF bitcode has no `_GLOBAL_OFFSET_TABLE_` symbol.
    Llvm14,
    /// LLVM 19: ELF and COFF objects are listed by their native symbols even when they
    /// embed bitcode (Mach-O objects still by their bitcode); module records of x86-32
    /// ELF bitcode add an undefined `_GLOBAL_OFFSET_TABLE_`.
    Llvm19,
    /// LLVM 22, the default: as LLVM 19.
    #[default]
    Llvm22,
}

impl NmVersion {
    /// The version for an LLVM major version: 14 up to 18 behave as 14, 19 to 21 as 19,
    /// 22 and later as 22. `None` before 14.
    pub fn from_major(major: u32) -> Option<Self> {
        match major {
            0..=13 => None,
            14..=18 => Some(NmVersion::Llvm14),
            19..=21 => Some(NmVersion::Llvm19),
            _ => Some(NmVersion::Llvm22),
        }
    }

    /// The LLVM major version.
    pub fn major(self) -> u32 {
        match self {
            NmVersion::Llvm14 => 14,
            NmVersion::Llvm19 => 19,
            NmVersion::Llvm22 => 22,
        }
    }

    /// Whether objects of this format with embedded bitcode are listed by their bitcode.
    fn lists_embedded_bitcode(self, format: object::BinaryFormat) -> bool {
        self == NmVersion::Llvm14 || format == object::BinaryFormat::MachO
    }
}

impl fmt::Display for NmVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(&format!("llvm-nm {}", self.major()))
    }
}

/// How [`read`] reads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Options {
    /// The `llvm-nm` whose behaviour to follow where versions differ.
    pub llvm_nm: NmVersion,
    /// Derive bitcode symbols from the module records even where the SYMTAB blob would
    /// give them (slower; the same symbols, and a cross-check of the two).
    pub module_records: bool,
}

impl Options {
    /// Options following the given `llvm-nm`.
    pub fn new(llvm_nm: NmVersion) -> Self {
        Options { llvm_nm, module_records: false }
    }
}

/// Where a list's symbols came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum Source {
    /// The bitcode's SYMTAB blob (LLVM 5 and later writers).
    Symtab,
    /// The bitcode's module records.
    ModuleRecords,
    /// Both: some streams of the file had a usable SYMTAB, some not.
    Mixed,
    /// The object file's native symbol table.
    Native,
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(match self {
            Source::Symtab => "symtab",
            Source::ModuleRecords => "module",
            Source::Mixed => "mixed",
            Source::Native => "native",
        })
    }
}

/// What a symbol names, as the `object` crate's `SymbolKind` says it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum SymbolKind {
    /// Not known (an undefined native symbol, an ELF `STT_NOTYPE`).
    Unknown,
    /// Code: a function, or an alias or ifunc of one.
    Text,
    /// Data.
    Data,
    /// Thread-local data.
    Tls,
    /// A section.
    Section,
    /// A source file name.
    File,
    /// A label in code or data.
    Label,
}

impl From<object::SymbolKind> for SymbolKind {
    fn from(kind: object::SymbolKind) -> Self {
        match kind {
            object::SymbolKind::Text => SymbolKind::Text,
            object::SymbolKind::Data => SymbolKind::Data,
            object::SymbolKind::Tls => SymbolKind::Tls,
            object::SymbolKind::Section => SymbolKind::Section,
            object::SymbolKind::File => SymbolKind::File,
            object::SymbolKind::Label => SymbolKind::Label,
            _ => SymbolKind::Unknown,
        }
    }
}

/// One symbol, with what `llvm-nm` prints of it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct Symbol<'a> {
    /// The name: mangled as the linker sees it (`_main` on Mach-O), borrowed from the
    /// file where nothing is added.
    #[cfg_attr(feature = "serde", serde(serialize_with = "serde_name"))]
    pub name: Cow<'a, [u8]>,
    /// `llvm-nm`'s type letter: `T`/`t` code, `D`/`d` data, `B`/`b` bss, `R`/`r`
    /// read-only data, `U` undefined, `W`/`w` weak, `V`/`v` weak object, `C` common, `A`/`a`
    /// absolute, `i` ifunc, `u` unique, `N` debug, `s` other section, `?` unknown; upper
    /// case for a global symbol.
    pub letter: char,
    /// What it names.
    pub kind: SymbolKind,
    /// The address `llvm-nm` prints (the symbol's value; a common symbol's alignment on
    /// ELF). `None` for an undefined symbol and for bitcode symbols, which have none
    /// (`llvm-nm` prints blanks or dashes).
    pub address: Option<u64>,
    /// The size (ELF symbols; a common bitcode symbol's size). `None` where the format
    /// keeps none.
    pub size: Option<u64>,
    /// Not defined here.
    pub undefined: bool,
    /// Weak (defined or undefined).
    pub weak: bool,
    /// Common (a tentative definition).
    pub common: bool,
    /// Visible outside its file (`llvm-nm -g` lists these).
    pub global: bool,
    /// Whether `llvm-nm` lists it without `--debug-syms`: `false` for what LLVM calls
    /// format-specific (private and `llvm.*` IR symbols, ELF section, file and mapping
    /// symbols, COFF section definitions, Mach-O debugging entries).
    pub listed: bool,
    /// The IR symbol's `irsymtab` flags, for bitcode symbols.
    pub ir_flags: Option<SymbolFlags>,
}

impl Symbol<'_> {
    /// The name as text, with invalid UTF-8 replaced: the crate's one spelling of
    /// "a name as text" (`GlobalCommon::name_str`, `Subprogram::name_str`, …).
    pub fn name_str(&self) -> Cow<'_, str> {
        String::from_utf8_lossy(&self.name)
    }

    /// The name as text: [`Symbol::name_str`], the name it had before 0.3.
    #[deprecated(since = "0.3.0", note = "use `name_str`, the name of this accessor everywhere in the crate")]
    pub fn name_lossy(&self) -> Cow<'_, str> {
        self.name_str()
    }

    /// Whether `llvm-nm` counts it as defined (its address column is not blank): not
    /// `U`, `w` or `v`.
    pub fn is_defined(&self) -> bool {
        !matches!(self.letter, 'U' | 'w' | 'v')
    }
}

#[cfg(feature = "serde")]
fn serde_name<S: serde::Serializer>(name: &impl AsRef<[u8]>, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&String::from_utf8_lossy(name.as_ref()))
}

/// How [`SymbolList::sort`] orders symbols: `llvm-nm`'s sort options.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SortOrder {
    /// By name, then size, then address (the default).
    #[default]
    Name,
    /// `-n`: undefined symbols first, then by address, name and size.
    Address,
    /// `--size-sort`: by size, then name and address.
    Size,
    /// `-p`: file order.
    None,
}

/// The symbols of one symbolic file: a bitcode file, an object, one architecture of a
/// universal binary, or one archive member.
#[derive(Debug)]
#[non_exhaustive]
pub struct SymbolList<'a> {
    /// What `llvm-nm` names it in a header: the file name, the member's name, or
    /// `NAME (for architecture ARCH)` for a slice of a universal binary.
    pub name: String,
    /// The archive member's name, for a member.
    pub member: Option<String>,
    /// The architecture, for a slice of a universal binary.
    pub arch: Option<String>,
    /// Where the symbols came from.
    pub source: Source,
    /// The target triple of the first module (bitcode), or empty.
    pub triple: String,
    /// How many hex digits `llvm-nm` prints an address with: 16 for a 64-bit target
    /// or object, else 8.
    pub address_digits: usize,
    /// The symbols, in file order.
    pub symbols: Vec<Symbol<'a>>,
    /// Why the list is incomplete or empty, if it is: what was read before the error is
    /// kept.
    pub error: Option<ContainerError>,
}

impl SymbolList<'_> {
    /// Sorts as `llvm-nm` does, then reverses if `reverse` (`-r`). The sort is stable:
    /// symbols that compare equal keep file order.
    pub fn sort(&mut self, order: SortOrder, reverse: bool) {
        let compare = |a: &Symbol<'_>, b: &Symbol<'_>| -> Ordering {
            let (sa, sb) = (a.size.unwrap_or(0), b.size.unwrap_or(0));
            let (aa, ab) = (a.address.unwrap_or(0), b.address.unwrap_or(0));
            match order {
                SortOrder::Name => a.name.cmp(&b.name).then(sa.cmp(&sb)).then(aa.cmp(&ab)),
                SortOrder::Address => (a.is_defined(), aa, &a.name, sa).cmp(&(b.is_defined(), ab, &b.name, sb)),
                SortOrder::Size => (sa, &a.name, aa).cmp(&(sb, &b.name, ab)),
                SortOrder::None => Ordering::Equal,
            }
        };
        if order != SortOrder::None {
            if reverse {
                self.symbols.sort_by(|a, b| compare(b, a));
            } else {
                self.symbols.sort_by(compare);
            }
        } else if reverse {
            self.symbols.reverse();
        }
    }
}

/// The symbol lists of a file.
#[derive(Debug)]
#[non_exhaustive]
pub struct FileSymbols<'a> {
    /// Whether the file is an archive (its lists are its members').
    pub archive: bool,
    /// Whether the file is a universal binary (one list per architecture).
    pub universal: bool,
    /// One list per symbolic file.
    pub lists: Vec<SymbolList<'a>>,
}

/// The symbols of `bytes`, a file named `name` (the name is used in lists' names and
/// errors): see the [module documentation](self). Fails only if the file is none of
/// bitcode, an object file, a universal binary or an archive, or its archive or
/// universal headers are malformed; a member or slice that cannot be read gives a list
/// with [`SymbolList::error`].
///
/// A thin archive's members are files of their own: each gives a list with an error
/// ([`ContainerError::ThinArchive`]); read the member files with `read` and
/// [`read_member`].
pub fn read<'a>(name: &str, bytes: &'a [u8], options: &Options) -> Result<FileSymbols<'a>, ContainerError> {
    let at = Provenance::from(vec![Step::File(name.to_string())]);
    match FileKind::parse(bytes) {
        Ok(FileKind::Archive) => {
            let archive = ArchiveFile::parse(bytes).map_err(|source| ContainerError::Object {
                at: at.clone(),
                what: "archive",
                source,
            })?;
            let mut lists = Vec::new();
            let mut after = None;
            for (index, member) in archive.members().enumerate() {
                let member = match member {
                    Ok(m) => m,
                    Err(source) => {
                        let error = ContainerError::Member { at: at.clone(), index, after: after.clone(), source };
                        lists.push(failed_list(after.clone().unwrap_or_default(), error));
                        break;
                    }
                };
                let member_name = String::from_utf8_lossy(member.name()).into_owned();
                after = Some(member_name.clone());
                let member_at = at.with(Step::Member { name: member_name.clone(), offset: member.file_range().0 });
                if member.is_thin() {
                    let error = ContainerError::ThinArchive { at: at.clone(), member: member_name.clone() };
                    let mut list = failed_list(member_name.clone(), error);
                    list.member = Some(member_name);
                    lists.push(list);
                    continue;
                }
                let data = match member.data(bytes) {
                    Ok(d) => d,
                    Err(source) => {
                        let error = ContainerError::Member { at: at.clone(), index, after: after.clone(), source };
                        lists.push(failed_list(member_name, error));
                        continue;
                    }
                };
                lists.extend(read_member(&member_name, data, &member_at, options));
            }
            Ok(FileSymbols { archive: true, universal: false, lists })
        }
        Ok(FileKind::MachOFat32 | FileKind::MachOFat64) => {
            let lists = universal(name, bytes, &at, options)?;
            Ok(FileSymbols { archive: false, universal: true, lists })
        }
        _ => {
            let list = symbolic(name, bytes, &at, options)?;
            Ok(FileSymbols { archive: false, universal: false, lists: vec![list] })
        }
    }
}

/// The symbols of one archive member (`data`, named `name`, found at `at`): no list if
/// it is not a symbolic file (`llvm-nm` passes over it), one list, or one per
/// architecture of a universal binary.
pub fn read_member<'a>(name: &str, data: &'a [u8], at: &Provenance, options: &Options) -> Vec<SymbolList<'a>> {
    let tag = |mut list: SymbolList<'a>| {
        list.member = Some(name.to_string());
        list
    };
    match FileKind::parse(data) {
        // llvm-nm lists only symbolic files; a nested archive is not one.
        Ok(FileKind::Archive) => Vec::new(),
        Ok(FileKind::MachOFat32 | FileKind::MachOFat64) => match universal(name, data, at, options) {
            Ok(lists) => lists.into_iter().map(tag).collect(),
            Err(e) => vec![tag(failed_list(name.to_string(), e))],
        },
        _ => match symbolic(name, data, at, options) {
            Ok(list) => vec![tag(list)],
            Err(ContainerError::UnknownFormat { .. } | ContainerError::Unsupported { .. }) => Vec::new(),
            Err(e) => vec![tag(failed_list(name.to_string(), e))],
        },
    }
}

fn empty_list<'a>(name: String) -> SymbolList<'a> {
    SymbolList {
        name,
        member: None,
        arch: None,
        source: Source::Native,
        triple: String::new(),
        address_digits: 16,
        symbols: Vec::new(),
        error: None,
    }
}

fn failed_list<'a>(name: String, error: ContainerError) -> SymbolList<'a> {
    SymbolList { error: Some(error), ..empty_list(name) }
}

/// One list per architecture of a Mach-O universal binary.
fn universal<'a>(
    name: &str,
    bytes: &'a [u8],
    at: &Provenance,
    options: &Options,
) -> Result<Vec<SymbolList<'a>>, ContainerError> {
    use object::read::macho::{FatArch, MachOFatFile32, MachOFatFile64};
    let arches: Vec<(u32, &'a [u8])> = match FileKind::parse(bytes) {
        Ok(FileKind::MachOFat64) => {
            let fat = MachOFatFile64::parse(bytes).map_err(|source| ContainerError::Object {
                at: at.clone(),
                what: "universal header",
                source,
            })?;
            fat.arches().iter().map(|a| (a.cputype().0, a.data(bytes))).map(|(c, d)| (c, d.unwrap_or(&[]))).collect()
        }
        _ => {
            let fat = MachOFatFile32::parse(bytes).map_err(|source| ContainerError::Object {
                at: at.clone(),
                what: "universal header",
                source,
            })?;
            fat.arches().iter().map(|a| (a.cputype().0, a.data(bytes))).map(|(c, d)| (c, d.unwrap_or(&[]))).collect()
        }
    };
    let mut lists = Vec::new();
    for (index, (cpu_type, data)) in arches.into_iter().enumerate() {
        let arch = arch_name(cpu_type);
        let slice_at = at.with(Step::Arch { index, cpu_type });
        // `llvm-nm` opens a slice without an LLVMContext: an object's native symbols, never
        // those of its bitcode. A slice that is bitcode (which `llvm-nm` cannot read that
        // way) is read as bitcode.
        let mut list = match object::File::parse(data) {
            Ok(obj) => {
                let mut list = empty_list(String::new());
                native::symbols(&obj, &mut list);
                list
            }
            Err(_) => match symbolic(name, data, &slice_at, options) {
                Ok(list) => list,
                Err(e) => failed_list(String::new(), e),
            },
        };
        list.name = format!("{name} (for architecture {arch})");
        list.arch = Some(arch.into_owned());
        lists.push(list);
    }
    Ok(lists)
}

/// `llvm-nm`'s name for a Mach-O CPU type (`MachOObjectFile::getArchTriple`'s arch name).
fn arch_name(cpu_type: u32) -> Cow<'static, str> {
    match cpu_type {
        7 => "i386".into(),
        0x0100_0007 => "x86_64".into(),
        12 => "arm".into(),
        0x0100_000c => "arm64".into(),
        0x0200_000c => "arm64_32".into(),
        18 => "ppc".into(),
        0x0100_0012 => "ppc64".into(),
        n => format!("cputype {n:#x}").into(),
    }
}

/// One bitcode file or object file.
fn symbolic<'a>(
    name: &str,
    data: &'a [u8],
    at: &Provenance,
    options: &Options,
) -> Result<SymbolList<'a>, ContainerError> {
    let mut list = empty_list(name.to_string());
    let object = match FileKind::parse(data) {
        Ok(FileKind::Elf32 | FileKind::Elf64 | FileKind::MachO32 | FileKind::MachO64 | FileKind::Coff) => {
            Some(object::File::parse(data).map_err(|source| ContainerError::Object {
                at: at.clone(),
                what: "object file",
                source,
            })?)
        }
        _ => None,
    };
    if let Some(obj) = &object {
        if !options.llvm_nm.lists_embedded_bitcode(obj.format()) {
            native::symbols(obj, &mut list);
            return Ok(list);
        }
    }
    // A cut or damaged file: the symbols of the bitcode before the break, then its error.
    let (streams, error) = container::bitstreams_partial_at(data, at.clone());
    match error {
        Some(ContainerError::NoBitcode { .. }) if object.is_some() => {
            if let Some(obj) = &object {
                native::symbols(obj, &mut list);
            }
            return Ok(list);
        }
        Some(e) if streams.is_empty() => return Err(e),
        _ => {}
    }
    bitcode_symbols(&streams, options, &mut list);
    if list.error.is_none() {
        list.error = error;
    }
    Ok(list)
}

/// The symbols of the bitstreams of one symbolic file; an error stops the list where
/// it happened and is kept in it.
fn bitcode_symbols<'a>(streams: &[Embedded<'a>], options: &Options, list: &mut SymbolList<'a>) {
    let mut source: Option<Source> = None;
    for e in streams {
        let stream_source = match stream_symbols(e, options, list) {
            Ok(s) => s,
            Err(err) => {
                list.error = Some(ContainerError::Stream { at: e.provenance.clone(), source: err });
                break;
            }
        };
        source = Some(match source {
            Some(s) if s != stream_source => Source::Mixed,
            _ => stream_source,
        });
    }
    list.source = source.unwrap_or(Source::ModuleRecords);
    number_unnamed(&mut list.symbols);
    list.address_digits = if Triple::new(list.triple.as_bytes()).is_arch_64_bit() { 16 } else { 8 };
}

/// Appends the symbols of one bitstream; returns where they came from.
fn stream_symbols<'a>(e: &Embedded<'a>, options: &Options, list: &mut SymbolList<'a>) -> Result<Source, crate::Error> {
    let stream = e.bitstream()?;
    let inventory = match Inventory::of(&stream) {
        Ok(inventory) => inventory,
        Err(_) => return partial_symbols(e, options, list),
    };
    let Some(first) = inventory.modules.first() else {
        return Err(crate::Error::MissingRecord { bit: 0, block: "the stream", record: "a MODULE_BLOCK" });
    };
    let triple = first.names()?.triple.unwrap_or_default();
    if list.triple.is_empty() && list.symbols.is_empty() {
        list.triple = triple.clone();
    }
    let symtab = if options.module_records { Ok(None) } else { Symtab::from_inventory(&inventory) };
    match symtab {
        // LLVM's table is used only when it describes every module of the file.
        Ok(Some(t)) if t.module_count() as usize == inventory.modules.len() => {
            // Darwin's letter `s` needs SF_Const, which the table does not keep: the
            // names of the constant global variables come from the module records.
            let darwin = crate::ir::is_darwin(triple.as_bytes());
            let constants = if darwin { constant_globals(&inventory)? } else { Vec::new() };
            let mut symbols = Vec::new();
            for s in t.symbols() {
                // A damaged table: the module records say the same.
                let Ok(s) = s else { return module_symbols(&inventory, options, list) };
                let constant = !s.ir_name.is_empty() && constants.binary_search(&s.ir_name.to_vec()).is_ok();
                symbols.push(ir_symbol(Cow::Borrowed(s.name), s.flags, constant, darwin, None));
            }
            list.symbols.extend(symbols);
            Ok(Source::Symtab)
        }
        // No table, one of another version, one that misses modules (files joined by
        // `llvm-cat -b`), or a damaged one: LLVM builds the table from the modules, so do
        // we, from their records.
        _ => module_symbols(&inventory, options, list),
    }
}

/// The symbols of a damaged or cut stream: those of the modules read before the break
/// ([`Module::parse_all_partial`]), named as [`push_module_symbols`] recovers them, then
/// the error.
fn partial_symbols<'a>(e: &Embedded<'a>, options: &Options, list: &mut SymbolList<'a>) -> Result<Source, crate::Error> {
    let (modules, error) = Module::parse_all_partial(e.bytes);
    for module in &modules {
        if list.triple.is_empty() {
            list.triple = module.triple.clone().unwrap_or_default();
        }
        push_module_symbols(module, options, list, true);
    }
    match error {
        Some(error) => Err(error),
        None => Ok(Source::ModuleRecords),
    }
}

/// An IR symbol (`constant`: a constant global variable, which is `s` on Darwin).
fn ir_symbol<'a>(
    name: Cow<'a, [u8]>,
    flags: SymbolFlags,
    constant: bool,
    darwin: bool,
    common_size: Option<u64>,
) -> Symbol<'a> {
    let kind = if flags.executable() {
        SymbolKind::Text
    } else if flags.tls() {
        SymbolKind::Tls
    } else if flags.undefined() {
        SymbolKind::Unknown
    } else {
        SymbolKind::Data
    };
    Symbol {
        name,
        letter: ir_letter(flags, constant, darwin),
        kind,
        address: None,
        size: common_size,
        undefined: flags.undefined(),
        weak: flags.weak(),
        common: flags.common(),
        global: flags.global(),
        listed: !flags.format_specific(),
        ir_flags: Some(flags),
    }
}

/// The IR names of the constant global variables of every module, sorted.
fn constant_globals(inventory: &Inventory<'_>) -> Result<Vec<Vec<u8>>, crate::Error> {
    let mut names = Vec::new();
    for info in &inventory.modules {
        let module = Module::from_info(info)?;
        for g in module.globals.iter().filter(|g| g.is_constant) {
            names.push(g.common.name.to_vec());
        }
    }
    names.sort();
    Ok(names)
}

/// The symbols derived from the module records: the global values
/// ([`Module::symbols`]), then those of the module's inline asm.
fn module_symbols<'a>(
    inventory: &Inventory<'a>,
    options: &Options,
    list: &mut SymbolList<'a>,
) -> Result<Source, crate::Error> {
    for info in &inventory.modules {
        push_module_symbols(&Module::from_info(info)?, options, list, false);
    }
    Ok(Source::ModuleRecords)
}

/// Appends one module's symbols: its global values ([`Module::symbols`]), then those of
/// its inline asm. With `recover` (a module of a cut file, whose STRTAB is gone), a value
/// without its name is listed under the name its debug info gives
/// ([`Bodies::recovered_name`](crate::ir::Bodies::recovered_name)), or not at all.
fn push_module_symbols(module: &Module<'_>, options: &Options, list: &mut SymbolList<'_>, recover: bool) {
    let triple = module.triple.as_deref().unwrap_or_default();
    let darwin = crate::ir::is_darwin(triple.as_bytes());
    let bodies = if recover { module.bodies().ok() } else { None };
    for s in module.symbols() {
        let constant = matches!(s.source, GlobalRef::Var(i) if module.globals.get(i).is_some_and(|g| g.is_constant));
        let name = match &bodies {
            Some(bodies) if s.ir_name.is_empty() => {
                let common = module.common_of(s.source);
                let Some(recovered) = common.and_then(|c| bodies.recovered_name(c.value_id)) else { continue };
                // The mangler's prefix of Mach-O's symbols.
                let mut name = if darwin { b"_".to_vec() } else { Vec::new() };
                name.extend_from_slice(&recovered.name);
                name
            }
            _ => s.name.into_owned(),
        };
        list.symbols.push(ir_symbol(Cow::Owned(name), s.flags, constant, darwin, s.common_size));
    }
    for a in module.asm_symbols() {
        list.symbols.push(ir_symbol(Cow::Owned(a.name), a.flags, false, darwin, None));
    }
    // LLVM 19 and later record the GOT symbol that x86-32 ELF code refers to without
    // the IR naming it (`CollectAsmSymbols`). The same for x86-64's medium and large
    // code models, which the module flags give and are not read here.
    if options.llvm_nm >= NmVersion::Llvm19 && Triple::new(triple.as_bytes()).is_x86_32_elf() {
        let flags = SymbolFlags(SymbolFlags::UNDEFINED | SymbolFlags::GLOBAL);
        list.symbols.push(ir_symbol(Cow::Borrowed(b"_GLOBAL_OFFSET_TABLE_"), flags, false, darwin, None));
    }
}

/// Renames unnamed globals `__unnamed_N` as `llvm-nm` names them: its `Mangler` numbers
/// them in the order names are asked for, which is the order of the listed symbols of
/// the whole file (irsymtab's numbers count every unnamed global, of each module).
fn number_unnamed(symbols: &mut [Symbol<'_>]) {
    let mut next = 0u64;
    for s in symbols.iter_mut().filter(|s| s.listed) {
        let Some(at) = unnamed_at(&s.name) else { continue };
        next += 1;
        let mut name = s.name[..at].to_vec();
        name.extend_from_slice(format!("__unnamed_{next}").as_bytes());
        s.name = Cow::Owned(name);
    }
}

/// Where `__unnamed_N` starts in a mangled name that ends with it.
fn unnamed_at(name: &[u8]) -> Option<usize> {
    const MARK: &[u8] = b"__unnamed_";
    let at = name.windows(MARK.len()).rposition(|w| w == MARK)?;
    let digits = &name[at + MARK.len()..];
    (!digits.is_empty() && digits.iter().all(u8::is_ascii_digit)).then_some(at)
}

/// The letter `llvm-nm` prints for an IR symbol (`getNMTypeChar` for an `IRObjectFile`).
pub(crate) fn ir_letter(flags: SymbolFlags, constant: bool, darwin: bool) -> char {
    if flags.undefined() {
        return if flags.weak() { 'w' } else { 'U' };
    }
    if flags.weak() {
        return 'W';
    }
    if flags.common() {
        return 'C';
    }
    let letter = if flags.executable() {
        't'
    } else if darwin && constant {
        's'
    } else {
        'd'
    };
    if flags.global() { letter.to_ascii_uppercase() } else { letter }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_follow_get_nm_type_char() {
        let f = SymbolFlags;
        let global = SymbolFlags::GLOBAL;
        assert_eq!(ir_letter(f(SymbolFlags::UNDEFINED | global), false, false), 'U');
        assert_eq!(ir_letter(f(SymbolFlags::UNDEFINED | SymbolFlags::WEAK | global), false, false), 'w');
        assert_eq!(ir_letter(f(SymbolFlags::WEAK | SymbolFlags::EXECUTABLE | global), false, false), 'W');
        assert_eq!(ir_letter(f(SymbolFlags::COMMON | global), false, false), 'C');
        assert_eq!(ir_letter(f(SymbolFlags::EXECUTABLE | global), false, false), 'T');
        assert_eq!(ir_letter(f(SymbolFlags::EXECUTABLE), false, false), 't');
        assert_eq!(ir_letter(f(global), true, false), 'D');
        assert_eq!(ir_letter(f(global), true, true), 'S');
        assert_eq!(ir_letter(f(0), true, true), 's');
    }

    #[test]
    fn unnamed_globals_are_numbered_in_listing_order() {
        let flags = SymbolFlags(SymbolFlags::GLOBAL);
        let private = SymbolFlags(SymbolFlags::FORMAT_SPECIFIC);
        let mut symbols = vec![
            ir_symbol(Cow::Borrowed(b".L__unnamed_1"), private, false, false, None),
            ir_symbol(Cow::Borrowed(b"_Z1fv"), flags, false, false, None),
            ir_symbol(Cow::Borrowed(b"__unnamed_2"), flags, false, false, None),
            ir_symbol(Cow::Borrowed(b"__imp___unnamed_7"), flags, false, false, None),
            ir_symbol(Cow::Borrowed(b"__unnamed_x"), flags, false, false, None),
        ];
        number_unnamed(&mut symbols);
        let names: Vec<&[u8]> = symbols.iter().map(|s| &*s.name).collect();
        assert_eq!(names, [&b".L__unnamed_1"[..], b"_Z1fv", b"__unnamed_1", b"__imp___unnamed_2", b"__unnamed_x"]);
    }

    #[test]
    fn sort_orders() {
        let sym = |name: &'static [u8], address: u64, size: u64, letter: char| Symbol {
            name: Cow::Borrowed(name),
            letter,
            kind: SymbolKind::Unknown,
            address: Some(address),
            size: Some(size),
            undefined: letter == 'U',
            weak: false,
            common: false,
            global: true,
            listed: true,
            ir_flags: None,
        };
        let mut list =
            failed_list(String::new(), ContainerError::Bitstream(crate::Error::Mismatch { bit: 0, reason: "" }));
        list.symbols = vec![sym(b"b", 1, 9, 'T'), sym(b"a", 5, 1, 'T'), sym(b"c", 0, 4, 'U')];
        let names = |l: &SymbolList<'_>| l.symbols.iter().map(|s| s.name.to_vec()).collect::<Vec<_>>();
        list.sort(SortOrder::Name, false);
        assert_eq!(names(&list), [b"a".to_vec(), b"b".to_vec(), b"c".to_vec()]);
        list.sort(SortOrder::Address, false);
        assert_eq!(names(&list), [b"c".to_vec(), b"b".to_vec(), b"a".to_vec()]);
        list.sort(SortOrder::Size, true);
        assert_eq!(names(&list), [b"b".to_vec(), b"c".to_vec(), b"a".to_vec()]);
    }
}
