//! A zero-copy view of the SYMTAB blob: LLVM's `irsymtab`, the symbol table a bitcode
//! file carries for linkers (`llvm/Object/IRSymtab.h`), with its strings in the STRTAB
//! blob.
//!
//! ```
//! use llvm_bitstream_reader::ir::symtab::Symtab;
//! use llvm_bitstream_reader::ir::Inventory;
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/rustc_llvm22_o3.bc"))?;
//! let inventory = Inventory::parse(&bytes)?;
//! let symtab = Symtab::from_inventory(&inventory)?.expect("rustc writes a SYMTAB");
//! assert_eq!(symtab.version(), 3);
//! assert_eq!(symtab.target_triple(), b"x86_64-unknown-linux-gnu");
//! for symbol in symtab.symbols() {
//!     let symbol = symbol?;
//!     let kind = if symbol.flags.undefined() { "U" } else if symbol.flags.executable() { "T" } else { "D" };
//!     println!("{kind} {}", String::from_utf8_lossy(symbol.name));
//! }
//! # Ok(()) }
//! ```
//!
//! The layout is that of `irsymtab::storage`: little-endian 32-bit words, a header of
//! `(offset, count)` ranges into the blob itself and `(offset, size)` strings into
//! STRTAB. Two storage versions are read:
//!
//! | version | written by | change |
//! |---|---|---|
//! | 3 | LLVM 13 to 22 (LLVM 14, 19 and rustc's LLVM 22 among them) | comdats carry their selection kind |
//! | 4 | LLVM 23 (llvm-project #209085) | `Uncommon::CommonSize` widened to 64 bits |
//!
//! Any other version is [`SymtabError::UnsupportedVersion`]: LLVM itself only reads the
//! version it writes (anything else, it rebuilds the table from the module), and a reader
//! of this crate should do the same, from the module records. LLVM also rebuilds when the
//! table's module count differs from the file's (files joined by `llvm-cat -b`), see
//! [`Symtab::module_count`].
//!
//! Every range and string is checked against its blob when it is read: a malformed table
//! gives a [`SymtabError`] naming the field and its byte offset in the SYMTAB blob, never
//! a panic, and nothing is allocated.

use core::fmt;

use thiserror::Error;

use crate::ir::module::contents::Inventory;
use crate::ir::{ComdatSelection, SymbolFlags};

/// The storage versions this view reads.
pub const SUPPORTED_VERSIONS: core::ops::RangeInclusive<u32> = 3..=4;

/// Bytes in a `storage::Header` (versions 3 and 4): the version word, the producer, four
/// ranges, three strings and the dependent-libraries range.
const HEADER_BYTES: usize = 4 + 8 + 4 * 8 + 3 * 8 + 8;
/// Bytes in a `storage::Module`: `Begin`, `End`, `UncBegin`.
const MODULE_BYTES: usize = 12;
/// Bytes in a `storage::Comdat`: the name and the selection kind.
const COMDAT_BYTES: usize = 12;
/// Bytes in a `storage::Symbol`: name, IR name, comdat index, flags.
const SYMBOL_BYTES: usize = 24;
/// Bytes in a `storage::Str` (an element of the dependent-libraries range).
const STR_BYTES: usize = 8;

// Offsets in the header.
const PRODUCER_AT: usize = 4;
const MODULES_AT: usize = 12;
const COMDATS_AT: usize = 20;
const SYMBOLS_AT: usize = 28;
const UNCOMMONS_AT: usize = 36;
const TRIPLE_AT: usize = 44;
const SOURCE_FILENAME_AT: usize = 52;
const COFF_LINKER_OPTS_AT: usize = 60;
const DEPENDENT_LIBRARIES_AT: usize = 68;

/// One of the tables of the SYMTAB blob.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub enum Table {
    /// `Header::Modules`.
    Modules,
    /// `Header::Comdats`.
    Comdats,
    /// `Header::Symbols`.
    Symbols,
    /// `Header::Uncommons`.
    Uncommons,
    /// `Header::DependentLibraries`.
    DependentLibraries,
}

impl fmt::Display for Table {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Table::Modules => "the module table",
            Table::Comdats => "the comdat table",
            Table::Symbols => "the symbol table",
            Table::Uncommons => "the uncommon table",
            Table::DependentLibraries => "the dependent-library table",
        })
    }
}

/// A string field of the SYMTAB blob (an `(offset, size)` pair into STRTAB).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub enum StrField {
    /// `Header::Producer`.
    Producer,
    /// `Header::TargetTriple`.
    TargetTriple,
    /// `Header::SourceFileName`.
    SourceFileName,
    /// `Header::COFFLinkerOpts`.
    CoffLinkerOpts,
    /// An entry of `Header::DependentLibraries`.
    DependentLibrary,
    /// `Comdat::Name`.
    ComdatName,
    /// `Symbol::Name`.
    SymbolName,
    /// `Symbol::IRName`.
    SymbolIrName,
    /// `Uncommon::COFFWeakExternFallbackName`.
    CoffWeakExternalFallback,
    /// `Uncommon::SectionName`.
    SectionName,
}

impl fmt::Display for StrField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            StrField::Producer => "the producer",
            StrField::TargetTriple => "the target triple",
            StrField::SourceFileName => "the source file name",
            StrField::CoffLinkerOpts => "the COFF linker options",
            StrField::DependentLibrary => "a dependent library",
            StrField::ComdatName => "a comdat name",
            StrField::SymbolName => "a symbol name",
            StrField::SymbolIrName => "a symbol's IR name",
            StrField::CoffWeakExternalFallback => "a COFF weak-external fallback name",
            StrField::SectionName => "a section name",
        })
    }
}

/// Why a SYMTAB blob could not be read. Byte offsets (`at`) are in the SYMTAB blob.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum SymtabError {
    /// The blob is too short for the version word and the producer, or for the header.
    #[error("the SYMTAB blob has {len} bytes, fewer than the {need} its header takes")]
    Truncated {
        /// The blob's size.
        len: usize,
        /// The bytes the header needs.
        need: usize,
    },
    /// A storage version this view does not read (see [`SUPPORTED_VERSIONS`]); read the
    /// module records instead.
    #[error("SYMTAB storage version {0} is not one this crate reads (3 or 4)")]
    UnsupportedVersion(u32),
    /// A table's range runs past the end of the SYMTAB blob.
    #[error(
        "{table} ({count} entries of {entry_bytes} bytes at byte {offset}, range at byte {at}) runs past the end of the {len}-byte SYMTAB blob"
    )]
    TableOutOfRange {
        /// Which table.
        table: Table,
        /// Where the range's `(offset, count)` pair is.
        at: usize,
        /// The range's offset.
        offset: u32,
        /// Its number of entries.
        count: u32,
        /// Bytes per entry.
        entry_bytes: usize,
        /// The blob's size.
        len: usize,
    },
    /// A string runs past the end of the STRTAB blob.
    #[error(
        "{field} (at byte {at}: {size} bytes at STRTAB offset {offset}) runs past the end of the {len}-byte STRTAB blob"
    )]
    StringOutOfRange {
        /// Which string.
        field: StrField,
        /// Where its `(offset, size)` pair is.
        at: usize,
        /// The string's offset in STRTAB.
        offset: u32,
        /// Its size.
        size: u32,
        /// The STRTAB blob's size.
        len: usize,
    },
    /// A module's symbol range is reversed or runs past the symbol table.
    #[error("module {module} (at byte {at}) has symbols {begin}..{end}, but the symbol table has {symbols}")]
    ModuleOutOfRange {
        /// The module's index.
        module: usize,
        /// Where its entry is.
        at: usize,
        /// `Module::Begin`.
        begin: u32,
        /// `Module::End`.
        end: u32,
        /// Entries in the symbol table.
        symbols: u32,
    },
    /// A symbol has `FB_has_uncommon` but the uncommon table has no entry left for it.
    #[error("symbol {symbol} (at byte {at}) has an uncommon part, but the uncommon table has only {uncommons} entries")]
    UncommonMissing {
        /// The symbol's index in the symbol table.
        symbol: u32,
        /// Where its entry is.
        at: usize,
        /// Entries in the uncommon table.
        uncommons: u32,
    },
    /// An index past the end of a table (a module or comdat asked for by index, or a
    /// symbol's comdat index).
    #[error("index {index} is past the end of {table} ({count} entries)")]
    IndexOutOfRange {
        /// Which table.
        table: Table,
        /// The index.
        index: u32,
        /// Entries in the table.
        count: u32,
    },
}

/// A comdat's selection kind as irsymtab stores it: `llvm::Comdat::SelectionKind`, from
/// 0 (the bitcode COMDAT record counts from 1). A value this crate does not know is kept
/// as read in [`ComdatSelection::Unknown`].
fn selection_kind(code: u32) -> ComdatSelection {
    match code {
        0 => ComdatSelection::Any,
        1 => ComdatSelection::ExactMatch,
        2 => ComdatSelection::Largest,
        3 => ComdatSelection::NoDeduplicate,
        4 => ComdatSelection::SameSize,
        n => ComdatSelection::Unknown(u64::from(n)),
    }
}

/// One module's slice of the symbol table (`storage::Module`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct ModuleRange {
    /// Index of its first symbol.
    pub begin: u32,
    /// Index one past its last symbol.
    pub end: u32,
    /// Index of the uncommon entry of its first symbol that has one.
    pub uncommon_begin: u32,
}

/// A comdat (`storage::Comdat`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct SymtabComdat<'a> {
    /// Its name (on COFF, the mangled name of its leader).
    pub name: &'a [u8],
    /// How the linker picks one.
    pub selection_kind: ComdatSelection,
}

/// The rarely used fields of a symbol (`storage::Uncommon`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct Uncommon<'a> {
    /// A common symbol's size in bytes (32 bits wide before version 4).
    pub common_size: u64,
    /// A common symbol's alignment (0: unspecified).
    pub common_align: u32,
    /// COFF: the symbol a weak external resolves to if left undefined; empty otherwise.
    pub coff_weak_external_fallback: &'a [u8],
    /// The symbol's section, if one was specified; empty otherwise.
    pub section_name: &'a [u8],
}

/// A symbol (`storage::Symbol` and its `storage::Uncommon`, if any).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct SymtabSymbol<'a> {
    /// Its index in the symbol table.
    pub index: u32,
    /// The mangled name (as the object file will name it: `_main` on Darwin, `.L` for
    /// private symbols, `__unnamed_1` for unnamed globals).
    pub name: &'a [u8],
    /// The IR name; empty for a symbol of module-level inline assembly.
    pub ir_name: &'a [u8],
    /// The index of its comdat ([`Symtab::comdat`]), if it is in one.
    pub comdat_index: Option<u32>,
    /// The flags word.
    pub flags: SymbolFlags,
    /// Its uncommon fields, if `FB_has_uncommon` is set.
    pub uncommon: Option<Uncommon<'a>>,
}

impl<'a> SymtabSymbol<'a> {
    /// The section name ([`Uncommon::section_name`]; empty without an uncommon part).
    pub fn section_name(&self) -> &'a [u8] {
        self.uncommon.map_or(&[][..], |u| u.section_name)
    }
}

/// A table of fixed-size entries inside the SYMTAB blob: already checked to fit.
#[derive(Clone, Copy, Debug)]
struct Range<'a> {
    bytes: &'a [u8],
    /// Where `bytes` starts in the blob.
    offset: usize,
    count: u32,
    entry_bytes: usize,
}

impl<'a> Range<'a> {
    /// The `i`th entry and its offset in the blob.
    fn entry(&self, table: Table, i: u32) -> Result<(&'a [u8], usize), SymtabError> {
        let index_error = SymtabError::IndexOutOfRange { table, index: i, count: self.count };
        if i >= self.count {
            return Err(index_error);
        }
        let start = (i as usize).checked_mul(self.entry_bytes).ok_or(index_error.clone())?;
        let bytes = self.bytes.get(start..start + self.entry_bytes).ok_or(index_error)?;
        Ok((bytes, self.offset + start))
    }
}

/// The SYMTAB blob of a bitcode file, with the STRTAB blob its strings are in.
#[derive(Clone, Copy, Debug)]
pub struct Symtab<'a> {
    symtab: &'a [u8],
    strtab: &'a [u8],
    version: u32,
    modules: Range<'a>,
    comdats: Range<'a>,
    symbols: Range<'a>,
    uncommons: Range<'a>,
    dependent_libraries: Range<'a>,
    uncommon_bytes: usize,
}

/// The little-endian word at `at` (the caller has checked that it is there).
fn word(bytes: &[u8], at: usize) -> u32 {
    match bytes.get(at..at + 4) {
        Some(&[a, b, c, d]) => u32::from_le_bytes([a, b, c, d]),
        _ => 0,
    }
}

/// The little-endian double word at `at` (the caller has checked that it is there).
fn dword(bytes: &[u8], at: usize) -> u64 {
    u64::from(word(bytes, at)) | (u64::from(word(bytes, at + 4)) << 32)
}

impl<'a> Symtab<'a> {
    /// Reads the header of `symtab` (the SYMTAB blob) whose strings are in `strtab` (the
    /// STRTAB blob after it), checking every table's range and the header's strings.
    pub fn new(symtab: &'a [u8], strtab: &'a [u8]) -> Result<Self, SymtabError> {
        // The version and the producer are the only fields every version has.
        if symtab.len() < 4 {
            return Err(SymtabError::Truncated { len: symtab.len(), need: 4 });
        }
        let version = word(symtab, 0);
        if !SUPPORTED_VERSIONS.contains(&version) {
            return Err(SymtabError::UnsupportedVersion(version));
        }
        if symtab.len() < HEADER_BYTES {
            return Err(SymtabError::Truncated { len: symtab.len(), need: HEADER_BYTES });
        }
        let uncommon_bytes = if version >= 4 { 28 } else { 24 };
        let range = |table, at, entry_bytes| -> Result<Range<'a>, SymtabError> {
            let offset = word(symtab, at);
            let count = word(symtab, at + 4);
            let error = SymtabError::TableOutOfRange { table, at, offset, count, entry_bytes, len: symtab.len() };
            let size = (count as usize).checked_mul(entry_bytes).ok_or(error.clone())?;
            let start = offset as usize;
            let end = start.checked_add(size).ok_or(error.clone())?;
            let bytes = symtab.get(start..end).ok_or(error)?;
            Ok(Range { bytes, offset: start, count, entry_bytes })
        };
        let view = Symtab {
            symtab,
            strtab,
            version,
            modules: range(Table::Modules, MODULES_AT, MODULE_BYTES)?,
            comdats: range(Table::Comdats, COMDATS_AT, COMDAT_BYTES)?,
            symbols: range(Table::Symbols, SYMBOLS_AT, SYMBOL_BYTES)?,
            uncommons: range(Table::Uncommons, UNCOMMONS_AT, uncommon_bytes)?,
            dependent_libraries: range(Table::DependentLibraries, DEPENDENT_LIBRARIES_AT, STR_BYTES)?,
            uncommon_bytes,
        };
        // The header's own strings are checked now, so that their getters cannot fail.
        for (field, at) in [
            (StrField::Producer, PRODUCER_AT),
            (StrField::TargetTriple, TRIPLE_AT),
            (StrField::SourceFileName, SOURCE_FILENAME_AT),
            (StrField::CoffLinkerOpts, COFF_LINKER_OPTS_AT),
        ] {
            view.str_in(symtab, 0, at, field)?;
        }
        Ok(view)
    }

    /// The SYMTAB of an [`Inventory`] with its string table, or `None` when the file has
    /// no SYMTAB or no STRTAB after it (LLVM then builds the table from the modules).
    pub fn from_inventory(inventory: &Inventory<'a>) -> Result<Option<Self>, SymtabError> {
        match (inventory.symtab, inventory.strtab_for_symtab) {
            (Some(symtab), Some(strtab)) if !symtab.is_empty() && !strtab.is_empty() => {
                Symtab::new(symtab, strtab).map(Some)
            }
            _ => Ok(None),
        }
    }

    /// The string whose pair is at `at` in `entry`, an entry that starts at byte `base`
    /// of the blob.
    fn str_in(&self, entry: &[u8], base: usize, at: usize, field: StrField) -> Result<&'a [u8], SymtabError> {
        let offset = word(entry, at);
        let size = word(entry, at + 4);
        let error = SymtabError::StringOutOfRange { field, at: base + at, offset, size, len: self.strtab.len() };
        let start = offset as usize;
        let end = start.checked_add(size as usize).ok_or(error.clone())?;
        self.strtab.get(start..end).ok_or(error)
    }

    /// A header string (checked by [`Symtab::new`]).
    fn header_str(&self, at: usize, field: StrField) -> &'a [u8] {
        self.str_in(self.symtab, 0, at, field).unwrap_or_default()
    }

    /// The storage version (3 or 4).
    pub fn version(&self) -> u32 {
        self.version
    }

    /// The producer: `LLVM_VERSION_STRING` and the revision, e.g. `14.0.6` or
    /// `22.1.2-rust-1.95.0-stable`. LLVM rebuilds a table whose producer is not itself.
    pub fn producer(&self) -> &'a [u8] {
        self.header_str(PRODUCER_AT, StrField::Producer)
    }

    /// The first module's target triple.
    pub fn target_triple(&self) -> &'a [u8] {
        self.header_str(TRIPLE_AT, StrField::TargetTriple)
    }

    /// The first module's source file name.
    pub fn source_filename(&self) -> &'a [u8] {
        self.header_str(SOURCE_FILENAME_AT, StrField::SourceFileName)
    }

    /// COFF: the linker directives (`/include:...`, `/DEFAULTLIB:...`), each after a space.
    pub fn coff_linker_opts(&self) -> &'a [u8] {
        self.header_str(COFF_LINKER_OPTS_AT, StrField::CoffLinkerOpts)
    }

    /// ELF: the dependent libraries (`llvm.dependent-libraries`).
    pub fn dependent_libraries(&self) -> impl Iterator<Item = Result<&'a [u8], SymtabError>> + '_ {
        (0..self.dependent_libraries.count).map(move |i| {
            let (entry, at) = self.dependent_libraries.entry(Table::DependentLibraries, i)?;
            self.str_in(entry, at, 0, StrField::DependentLibrary)
        })
    }

    /// How many modules the table describes. LLVM uses the table only if this equals the
    /// number of modules in the file.
    pub fn module_count(&self) -> u32 {
        self.modules.count
    }

    /// The `i`th module's symbol range, checked against the symbol table.
    pub fn module(&self, i: u32) -> Result<ModuleRange, SymtabError> {
        let (entry, at) = self.modules.entry(Table::Modules, i)?;
        let range = ModuleRange { begin: word(entry, 0), end: word(entry, 4), uncommon_begin: word(entry, 8) };
        if range.begin > range.end || range.end > self.symbols.count {
            return Err(SymtabError::ModuleOutOfRange {
                module: i as usize,
                at,
                begin: range.begin,
                end: range.end,
                symbols: self.symbols.count,
            });
        }
        Ok(range)
    }

    /// How many comdats the table has.
    pub fn comdat_count(&self) -> u32 {
        self.comdats.count
    }

    /// The `i`th comdat.
    pub fn comdat(&self, i: u32) -> Result<SymtabComdat<'a>, SymtabError> {
        let (entry, at) = self.comdats.entry(Table::Comdats, i)?;
        Ok(SymtabComdat {
            name: self.str_in(entry, at, 0, StrField::ComdatName)?,
            selection_kind: selection_kind(word(entry, 8)),
        })
    }

    /// Every comdat, in table order.
    pub fn comdats(&self) -> impl Iterator<Item = Result<SymtabComdat<'a>, SymtabError>> + '_ {
        (0..self.comdats.count).map(move |i| self.comdat(i))
    }

    /// How many symbols the table has (all modules).
    pub fn symbol_count(&self) -> u32 {
        self.symbols.count
    }

    /// Every symbol of every module, in table order (LLVM's `Reader::symbols`).
    pub fn symbols(&self) -> Symbols<'a> {
        Symbols { symtab: *self, next: 0, end: self.symbols.count, next_uncommon: 0 }
    }

    /// The symbols of the `i`th module (LLVM's `Reader::module_symbols`).
    pub fn module_symbols(&self, i: u32) -> Result<Symbols<'a>, SymtabError> {
        let m = self.module(i)?;
        Ok(Symbols { symtab: *self, next: m.begin, end: m.end, next_uncommon: m.uncommon_begin })
    }

    /// The flags of the symbol at `index`, and whether it has an IR name (a symbol of
    /// module-level asm has none), without decoding the rest of it.
    pub(crate) fn symbol_flags(&self, index: u32) -> Option<(SymbolFlags, bool)> {
        let (entry, _) = self.symbols.entry(Table::Symbols, index).ok()?;
        Some((SymbolFlags(word(entry, 20)), word(entry, 12) != 0))
    }

    /// The symbol at `index`, whose uncommon part (if it has one) is entry `uncommon`.
    fn symbol(&self, index: u32, uncommon: u32) -> Result<SymtabSymbol<'a>, SymtabError> {
        let (entry, at) = self.symbols.entry(Table::Symbols, index)?;
        let flags = SymbolFlags(word(entry, 20));
        let comdat_index = match word(entry, 16) {
            u32::MAX => None,
            n => Some(n),
        };
        let uncommon = if flags.has(SymbolFlags::HAS_UNCOMMON) {
            let missing = SymtabError::UncommonMissing { symbol: index, at, uncommons: self.uncommons.count };
            let (u, u_at) = self.uncommons.entry(Table::Uncommons, uncommon).map_err(|_| missing)?;
            // Version 4 widened CommonSize to 64 bits; everything after it moves by 4.
            let (common_size, rest) =
                if self.uncommon_bytes == 28 { (dword(u, 0), 8) } else { (u64::from(word(u, 0)), 4) };
            Some(Uncommon {
                common_size,
                common_align: word(u, rest),
                coff_weak_external_fallback: self.str_in(u, u_at, rest + 4, StrField::CoffWeakExternalFallback)?,
                section_name: self.str_in(u, u_at, rest + 12, StrField::SectionName)?,
            })
        } else {
            None
        };
        Ok(SymtabSymbol {
            index,
            name: self.str_in(entry, at, 0, StrField::SymbolName)?,
            ir_name: self.str_in(entry, at, 8, StrField::SymbolIrName)?,
            comdat_index,
            flags,
            uncommon,
        })
    }
}

/// The symbols of a [`Symtab`] (all, or one module's), in table order. After an error
/// the iterator ends.
#[derive(Clone, Debug)]
pub struct Symbols<'a> {
    symtab: Symtab<'a>,
    next: u32,
    end: u32,
    next_uncommon: u32,
}

impl<'a> Iterator for Symbols<'a> {
    type Item = Result<SymtabSymbol<'a>, SymtabError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.next >= self.end {
            return None;
        }
        let result = self.symtab.symbol(self.next, self.next_uncommon);
        match &result {
            Ok(symbol) => {
                self.next += 1;
                if symbol.uncommon.is_some() {
                    self.next_uncommon = self.next_uncommon.saturating_add(1);
                }
            }
            Err(_) => self.next = self.end,
        }
        Some(result)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (0, Some(self.end.saturating_sub(self.next) as usize))
    }
}

#[cfg(all(test, feature = "std"))]
mod tests {
    use super::*;
    use alloc::string::ToString;
    use alloc::vec;
    use alloc::vec::Vec;

    fn testdata(name: &str) -> Vec<u8> {
        std::fs::read(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata").join(name)).unwrap()
    }

    /// A version 3 or 4 blob built field by field: `header` words, then `tables` bytes.
    fn blob(words: &[u32]) -> Vec<u8> {
        words.iter().flat_map(|w| w.to_le_bytes()).collect()
    }

    /// A header of `version` whose tables all start at `HEADER_BYTES` and are empty, and
    /// whose strings are all empty at offset 0.
    fn empty_header(version: u32) -> Vec<u32> {
        let end = HEADER_BYTES as u32;
        let mut h = vec![version, 0, 0];
        for _ in 0..4 {
            h.extend([end, 0]);
        }
        h.extend([0; 6]);
        h.extend([end, 0]);
        assert_eq!(h.len() * 4, HEADER_BYTES);
        h
    }

    #[test]
    fn rustc_llvm22_symtab_is_version_3_and_reads_through() {
        for name in ["rustc_llvm22_o3.bc", "rustc_llvm22_o0_debuginfo.bc"] {
            let bytes = testdata(name);
            let inventory = Inventory::parse(&bytes).unwrap();
            let symtab = Symtab::from_inventory(&inventory).unwrap().unwrap();
            assert_eq!(symtab.version(), 3, "{name}");
            assert!(symtab.producer().starts_with(b"22."), "{name}");
            assert_eq!(symtab.module_count() as usize, inventory.modules.len());
            let names = inventory.modules[0].names().unwrap();
            assert_eq!(Some(symtab.target_triple()), names.triple.as_deref().map(str::as_bytes));
            assert_eq!(Some(symtab.source_filename()), names.source_filename.as_deref().map(str::as_bytes));
            let all: Vec<_> = symtab.symbols().collect::<Result<_, _>>().unwrap();
            assert_eq!(all.len() as u32, symtab.symbol_count());
            let module: Vec<_> = symtab.module_symbols(0).unwrap().collect::<Result<_, _>>().unwrap();
            assert_eq!(all, module);
            // Every IR symbol's name is its IR name, or that name mangled (private `.L`).
            for s in &all {
                assert!(s.name.ends_with(s.ir_name), "{name}: {:?}", s);
                if let Some(c) = s.comdat_index {
                    symtab.comdat(c).unwrap();
                }
            }
            assert!(all.iter().any(|s| s.flags.executable() && !s.flags.undefined()), "{name}");
            assert!(all.iter().any(|s| s.flags.undefined()), "{name}");
        }
    }

    #[test]
    fn llvm14_thinlto_symtab_has_uncommons_and_comdats() {
        let bytes = testdata("llvm14_thinlto_bc_globals.bc");
        let inventory = Inventory::parse(&bytes).unwrap();
        let symtab = Symtab::from_inventory(&inventory).unwrap().unwrap();
        assert_eq!((symtab.version(), symtab.producer()), (3, &b"14.0.6"[..]));
        let all: Vec<_> = symtab.symbols().collect::<Result<_, _>>().unwrap();
        // ir_globals.c has `int g_common;` (-fcommon) and a global in `.data.custom`.
        let common = all.iter().find(|s| s.name == b"g_common").unwrap();
        assert!(common.flags.common());
        assert_eq!(common.uncommon.map(|u| (u.common_size, u.common_align)), Some((4, 4)));
        let sectioned = all.iter().find(|s| s.name == b"g_section").unwrap();
        assert_eq!(sectioned.section_name(), b".data.custom");
        let kinds: Vec<_> = symtab.comdats().map(|c| c.unwrap().selection_kind).collect();
        assert!(kinds.contains(&ComdatSelection::ExactMatch) && kinds.contains(&ComdatSelection::Largest));
    }

    #[test]
    fn every_truncation_of_a_real_blob_is_an_error_or_reads() {
        let bytes = testdata("llvm14_thinlto_bc_globals.bc");
        let inventory = Inventory::parse(&bytes).unwrap();
        let (symtab, strtab) = (inventory.symtab.unwrap(), inventory.strtab_for_symtab.unwrap());
        for len in 0..symtab.len() {
            if let Ok(view) = Symtab::new(&symtab[..len], strtab) {
                for s in view.symbols() {
                    let _ = s;
                }
            }
        }
        for len in 0..strtab.len() {
            // Whatever reads, borrows from the truncated STRTAB only.
            if let Ok(view) = Symtab::new(symtab, &strtab[..len]) {
                let end = strtab[..len].as_ptr_range().end;
                for s in view.symbols().filter_map(Result::ok) {
                    assert!(s.name.as_ptr_range().end <= end && s.ir_name.as_ptr_range().end <= end);
                }
            }
        }
    }

    #[test]
    fn versions_other_than_3_and_4_are_unsupported() {
        for version in [0, 1, 2, 5, u32::MAX] {
            let b = blob(&empty_header(version));
            assert_eq!(Symtab::new(&b, b"").unwrap_err(), SymtabError::UnsupportedVersion(version));
        }
        assert_eq!(Symtab::new(&[3, 0], b"").unwrap_err(), SymtabError::Truncated { len: 2, need: 4 });
        let b = blob(&empty_header(3));
        assert!(matches!(Symtab::new(&b[..HEADER_BYTES - 1], b""), Err(SymtabError::Truncated { .. })));
        let view = Symtab::new(&b, b"").unwrap();
        assert_eq!((view.symbol_count(), view.module_count(), view.producer()), (0, 0, &b""[..]));
    }

    #[test]
    fn a_huge_count_is_a_range_error_not_an_allocation() {
        let mut h = empty_header(3);
        h[SYMBOLS_AT / 4 + 1] = u32::MAX;
        let err = Symtab::new(&blob(&h), b"").unwrap_err();
        assert!(matches!(err, SymtabError::TableOutOfRange { table: Table::Symbols, count: u32::MAX, .. }), "{err}");
        let mut h = empty_header(4);
        h[UNCOMMONS_AT / 4] = u32::MAX;
        h[UNCOMMONS_AT / 4 + 1] = 1;
        assert!(matches!(
            Symtab::new(&blob(&h), b""),
            Err(SymtabError::TableOutOfRange { table: Table::Uncommons, .. })
        ));
    }

    #[test]
    fn a_header_string_past_strtab_is_named() {
        let mut h = empty_header(3);
        h[TRIPLE_AT / 4] = 2;
        h[TRIPLE_AT / 4 + 1] = 5;
        let err = Symtab::new(&blob(&h), b"abcdef").unwrap_err();
        assert_eq!(
            err,
            SymtabError::StringOutOfRange { field: StrField::TargetTriple, at: TRIPLE_AT, offset: 2, size: 5, len: 6 }
        );
        assert!(err.to_string().contains("target triple"));
    }

    /// A version-`version` table of one module with the given symbols (name offset, name
    /// size, flags) and uncommons.
    fn table(version: u32, symbols: &[(u32, u32, u32)], uncommons: u32, module: (u32, u32, u32)) -> Vec<u8> {
        let unc_words = if version >= 4 { 7 } else { 6 };
        let mut h = empty_header(version);
        let modules_at = HEADER_BYTES as u32;
        let symbols_at = modules_at + 12;
        let uncommons_at = symbols_at + 24 * symbols.len() as u32;
        h[MODULES_AT / 4..MODULES_AT / 4 + 2].copy_from_slice(&[modules_at, 1]);
        h[SYMBOLS_AT / 4..SYMBOLS_AT / 4 + 2].copy_from_slice(&[symbols_at, symbols.len() as u32]);
        h[UNCOMMONS_AT / 4..UNCOMMONS_AT / 4 + 2].copy_from_slice(&[uncommons_at, uncommons]);
        h.extend([module.0, module.1, module.2]);
        for &(offset, size, flags) in symbols {
            h.extend([offset, size, 0, 0, u32::MAX, flags]);
        }
        for i in 0..uncommons {
            // common size (low word first in version 4), align, fallback "", section "".
            let mut u = vec![100 + i];
            if version >= 4 {
                u.push(1);
            }
            u.extend([8, 0, 0, 0, 0]);
            assert_eq!(u.len(), unc_words);
            h.extend(u);
        }
        blob(&h)
    }

    #[test]
    fn version_4_reads_a_64_bit_common_size() {
        let flags = SymbolFlags::HAS_UNCOMMON | SymbolFlags::COMMON | SymbolFlags::GLOBAL;
        let b = table(4, &[(0, 1, flags), (1, 1, flags)], 2, (0, 2, 0));
        let view = Symtab::new(&b, b"ab").unwrap();
        let sizes: Vec<_> = view.symbols().map(|s| s.unwrap().uncommon.unwrap().common_size).collect();
        assert_eq!(sizes, [(1 << 32) + 100, (1 << 32) + 101]);
        let b = table(3, &[(0, 1, flags), (1, 1, flags)], 2, (0, 2, 0));
        let view = Symtab::new(&b, b"ab").unwrap();
        let u: Vec<_> = view.symbols().map(|s| s.unwrap().uncommon.unwrap()).collect();
        assert_eq!((u[1].common_size, u[1].common_align, u[1].section_name), (101, 8, &b""[..]));
    }

    #[test]
    fn a_missing_uncommon_ends_the_walk_with_an_error() {
        let flags = SymbolFlags::HAS_UNCOMMON;
        let b = table(3, &[(0, 1, 0), (0, 1, flags), (0, 1, flags)], 1, (0, 3, 0));
        let view = Symtab::new(&b, b"a").unwrap();
        let results: Vec<_> = view.symbols().collect();
        assert_eq!(results.len(), 3);
        assert!(results[1].is_ok());
        assert!(matches!(results[2], Err(SymtabError::UncommonMissing { symbol: 2, uncommons: 1, .. })));
        // Module 0 starts at uncommon 1: its first uncommon symbol already misses it.
        let b = table(3, &[(0, 1, flags)], 1, (0, 1, 1));
        let view = Symtab::new(&b, b"a").unwrap();
        assert!(view.module_symbols(0).unwrap().next().unwrap().is_err());
    }

    #[test]
    fn a_module_range_past_the_symbols_is_named() {
        let b = table(3, &[(0, 1, 0)], 0, (0, 2, 0));
        let view = Symtab::new(&b, b"a").unwrap();
        assert!(matches!(view.module_symbols(0), Err(SymtabError::ModuleOutOfRange { module: 0, end: 2, .. })));
        let b = table(3, &[(0, 1, 0)], 0, (1, 0, 0));
        assert!(Symtab::new(&b, b"a").unwrap().module(0).is_err());
        assert!(matches!(
            Symtab::new(&b, b"a").unwrap().module(1),
            Err(SymtabError::IndexOutOfRange { table: Table::Modules, index: 1, count: 1 })
        ));
    }

    #[test]
    fn a_symbol_name_past_strtab_is_an_error() {
        let b = table(3, &[(0, 1, 0), (u32::MAX, 2, 0)], 0, (0, 2, 0));
        let view = Symtab::new(&b, b"a").unwrap();
        let results: Vec<_> = view.symbols().collect();
        assert_eq!(results[0].as_ref().unwrap().name, b"a");
        assert!(matches!(
            results[1],
            Err(SymtabError::StringOutOfRange { field: StrField::SymbolName, offset: u32::MAX, .. })
        ));
    }
}
