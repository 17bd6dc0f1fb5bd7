//! Native symbols of ELF, Mach-O and COFF objects, with the flags LLVM's `object`
//! library gives them (`getSymbolFlags`) and the letters `llvm-nm` prints
//! (`getNMTypeChar` and the per-format `getSymbolNMTypeChar`).

use alloc::borrow::Cow;

use object::elf;
use object::read::elf::{ElfFile, FileHeader, SectionHeader, Sym};
use object::{Object, ObjectSection, ObjectSymbol, SectionIndex, SymbolSection};

use super::{Source, Symbol, SymbolKind, SymbolList};

/// Fills `list` with the native symbols of `obj`.
pub(super) fn symbols<'a>(obj: &object::File<'a>, list: &mut SymbolList<'a>) {
    list.source = Source::Native;
    list.address_digits = if obj.is_64() { 16 } else { 8 };
    match obj {
        object::File::Elf32(f) => elf_symbols(f, list),
        object::File::Elf64(f) => elf_symbols(f, list),
        object::File::MachO32(_) | object::File::MachO64(_) => generic_symbols(obj, list, true),
        _ => generic_symbols(obj, list, false),
    }
}

/// ELF: the `.symtab` entries after the null one.
fn elf_symbols<'a, Elf: FileHeader<Endian = object::Endianness>>(
    f: &ElfFile<'a, Elf, &'a [u8]>,
    list: &mut SymbolList<'a>,
) {
    let endian = f.endian();
    let table = f.elf_symbol_table();
    let sections = f.elf_section_table();
    let machine = f.elf_header().e_machine(endian);
    for (index, sym) in table.enumerate() {
        if index.0 == 0 {
            continue;
        }
        let st_type = sym.st_type();
        // A section symbol is named by its section (`ELFObjectFile::getSymbolName`).
        let name = if st_type == elf::STT_SECTION {
            table
                .symbol_section(endian, sym, index)
                .ok()
                .flatten()
                .and_then(|i| sections.section(i).ok())
                .and_then(|s| sections.section_name(endian, s).ok())
                .unwrap_or_default()
        } else {
            table.symbol_name(endian, sym).unwrap_or_default()
        };
        let bind = sym.st_bind();
        let shndx = sym.st_shndx(endian);
        let undefined = shndx == elf::SHN_UNDEF;
        let common = st_type == elf::STT_COMMON || shndx == elf::SHN_COMMON;
        let absolute = shndx == elf::SHN_ABS;
        let global = matches!(bind, elf::STB_GLOBAL | elf::STB_WEAK | elf::STB_GNU_UNIQUE);
        let weak = bind == elf::STB_WEAK;
        let mut format_specific = matches!(st_type, elf::STT_SECTION | elf::STT_FILE);
        // Mapping symbols mark code and data inside sections.
        if bind == elf::STB_LOCAL {
            let mapping: &[&[u8]] = match machine {
                elf::EM_ARM => &[b"$a", b"$d", b"$t"],
                elf::EM_AARCH64 | elf::EM_RISCV | elf::EM_CSKY => &[b"$d", b"$x"],
                _ => &[],
            };
            let is_mapping = |m: &&[u8]| name == *m || (name.starts_with(m) && name.get(m.len()) == Some(&b'.'));
            format_specific |= mapping.iter().any(is_mapping);
        }
        let section = if undefined || absolute || common {
            None
        } else {
            table.symbol_section(endian, sym, index).ok().flatten().and_then(|i: SectionIndex| sections.section(i).ok())
        };
        let kind = match st_type {
            elf::STT_FUNC | elf::STT_GNU_IFUNC => SymbolKind::Text,
            elf::STT_OBJECT | elf::STT_COMMON => SymbolKind::Data,
            elf::STT_TLS => SymbolKind::Tls,
            elf::STT_SECTION => SymbolKind::Section,
            elf::STT_FILE => SymbolKind::File,
            _ => SymbolKind::Unknown,
        };
        let letter = if weak {
            // `V`/`v` for a weak object, `W`/`w` otherwise; lower case if undefined.
            let c = if st_type == elf::STT_OBJECT { 'v' } else { 'w' };
            if undefined { c } else { c.to_ascii_uppercase() }
        } else if undefined {
            'U'
        } else if common {
            'C'
        } else {
            let c = if absolute {
                'a'
            } else if st_type == elf::STT_GNU_IFUNC {
                'i'
            } else if bind == elf::STB_GNU_UNIQUE {
                'u'
            } else if bind != elf::STB_GLOBAL && bind != elf::STB_LOCAL {
                '?'
            } else {
                match section {
                    Some(s) => {
                        let flags = s.sh_flags(endian).0;
                        let sh_type = s.sh_type(endian);
                        if flags & elf::SHF_EXECINSTR.0 != 0 {
                            't'
                        } else if sh_type == elf::SHT_NOBITS {
                            'b'
                        } else if flags & elf::SHF_ALLOC.0 != 0 {
                            if flags & elf::SHF_WRITE.0 != 0 { 'd' } else { 'r' }
                        } else if sections.section_name(endian, s).is_ok_and(|n| n.starts_with(b".debug")) {
                            'N'
                        } else if flags & elf::SHF_WRITE.0 == 0 {
                            'n'
                        } else {
                            '?'
                        }
                    }
                    None => '?',
                }
            };
            if global && c != 'i' && c != 'u' { c.to_ascii_uppercase() } else { c }
        };
        let value: u64 = sym.st_value(endian).into();
        list.symbols.push(Symbol {
            name: Cow::Borrowed(name),
            letter,
            kind,
            address: (!undefined).then_some(value),
            size: Some(sym.st_size(endian).into()),
            undefined,
            weak,
            common,
            global,
            listed: !format_specific,
            ir_flags: None,
        });
    }
}

/// Mach-O (the `LC_SYMTAB` entries; the `object` crate leaves out debugging entries) and
/// COFF (the symbol table's records, auxiliary records passed over), through the
/// `object` crate's symbols.
fn generic_symbols<'a>(obj: &object::File<'a>, list: &mut SymbolList<'a>, macho: bool) {
    for sym in obj.symbols() {
        let name = sym.name_bytes().unwrap_or_default();
        let section = sym.section();
        let undefined = sym.is_undefined();
        let common = section == SymbolSection::Common;
        let weak = sym.is_weak();
        let global = sym.is_global();
        let kind: SymbolKind = sym.kind().into();
        let letter = if undefined {
            if weak { 'w' } else { 'U' }
        } else if weak && !macho {
            // `getNMTypeChar` passes Mach-O's weak definitions to the section letter.
            'W'
        } else if common {
            'C'
        } else {
            let c = match section {
                SymbolSection::Absolute => 'a',
                SymbolSection::Section(i) if macho => macho_letter(obj, i),
                _ if macho => 's',
                _ => coff_letter(obj, section, name, kind),
            };
            if global { c.to_ascii_uppercase() } else { c }
        };
        list.symbols.push(Symbol {
            name: Cow::Borrowed(name),
            letter,
            kind,
            address: (!undefined).then(|| sym.address()),
            size: None,
            undefined,
            weak,
            common,
            global,
            // COFF's file and section-definition records are format-specific.
            listed: macho || !matches!(kind, SymbolKind::File | SymbolKind::Section),
            ir_flags: None,
        });
    }
}

/// Mach-O's letter for a symbol in a section (`getSymbolNMTypeChar`): by segment and
/// section name.
fn macho_letter(obj: &object::File<'_>, index: SectionIndex) -> char {
    let Ok(s) = obj.section_by_index(index) else { return 's' };
    let segment = s.segment_name_bytes().ok().flatten().unwrap_or_default();
    match (segment, s.name_bytes().unwrap_or_default()) {
        (b"__TEXT", b"__text") => 't',
        (b"__DATA", b"__data") => 'd',
        (b"__DATA", b"__bss") => 'b',
        _ => 's',
    }
}

/// COFF's letter (`getSymbolNMTypeChar`): debug names, `.idata` sections, then the
/// section's characteristics.
fn coff_letter(obj: &object::File<'_>, section: SymbolSection, name: &[u8], kind: SymbolKind) -> char {
    use object::pe;
    if name.starts_with(b".debug") || name.starts_with(b".sxdata") {
        return 'N';
    }
    let SymbolSection::Section(i) = section else { return '?' };
    let Ok(s) = obj.section_by_index(i) else { return '?' };
    let characteristics = match s.flags() {
        object::SectionFlags::Coff { characteristics } => characteristics.0,
        _ => 0,
    };
    let has = |flag: pe::SectionFlags| characteristics & flag.0 != 0;
    if s.name_bytes().is_ok_and(|n| n.starts_with(b".idata")) {
        'i'
    } else if has(pe::IMAGE_SCN_CNT_CODE) {
        't'
    } else if has(pe::IMAGE_SCN_CNT_INITIALIZED_DATA) {
        if has(pe::IMAGE_SCN_MEM_WRITE) { 'd' } else { 'r' }
    } else if has(pe::IMAGE_SCN_CNT_UNINITIALIZED_DATA) {
        'b'
    } else if has(pe::IMAGE_SCN_LNK_INFO) {
        'i'
    } else if kind == SymbolKind::Section {
        's'
    } else {
        '?'
    }
}
