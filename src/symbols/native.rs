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
        object::File::MachO32(_) | object::File::MachO64(_) => macho_symbols(obj, list),
        _ => coff_symbols(obj, list),
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

/// Mach-O: the `LC_SYMTAB` entries (the `object` crate leaves out debugging entries).
fn macho_symbols<'a>(obj: &object::File<'a>, list: &mut SymbolList<'a>) {
    for sym in obj.symbols() {
        let name = sym.name_bytes().unwrap_or_default();
        let section = sym.section();
        let undefined = sym.is_undefined();
        let common = section == SymbolSection::Common;
        let weak = sym.is_weak();
        let global = sym.is_global();
        let letter = if undefined {
            if weak { 'w' } else { 'U' }
        } else if common {
            'C'
        } else {
            let c = match section {
                SymbolSection::Absolute => 'a',
                SymbolSection::Section(i) => match obj.section_by_index(i) {
                    Ok(s) => {
                        let segment = s.segment_name_bytes().ok().flatten().unwrap_or_default();
                        match (segment, s.name_bytes().unwrap_or_default()) {
                            (b"__TEXT", b"__text") => 't',
                            (b"__DATA", b"__data") => 'd',
                            (b"__DATA", b"__bss") => 'b',
                            _ => 's',
                        }
                    }
                    Err(_) => 's',
                },
                _ => 's',
            };
            if global { c.to_ascii_uppercase() } else { c }
        };
        list.symbols.push(Symbol {
            name: Cow::Borrowed(name),
            letter,
            kind: sym.kind().into(),
            address: (!undefined).then(|| sym.address()),
            size: None,
            undefined,
            weak,
            common,
            global,
            listed: true,
            ir_flags: None,
        });
    }
}

/// COFF: the symbol table's records, auxiliary records passed over.
fn coff_symbols<'a>(obj: &object::File<'a>, list: &mut SymbolList<'a>) {
    use object::pe;
    for sym in obj.symbols() {
        let name = sym.name_bytes().unwrap_or_default();
        let section = sym.section();
        let undefined = sym.is_undefined();
        let common = section == SymbolSection::Common;
        let weak = sym.is_weak();
        let global = sym.is_global();
        let kind: SymbolKind = sym.kind().into();
        let format_specific = matches!(kind, SymbolKind::File | SymbolKind::Section);
        let letter = if undefined {
            if weak { 'w' } else { 'U' }
        } else if weak {
            'W'
        } else if common {
            'C'
        } else {
            let c = if section == SymbolSection::Absolute {
                'a'
            } else if name.starts_with(b".debug") || name.starts_with(b".sxdata") {
                'N'
            } else {
                match section {
                    SymbolSection::Section(i) => match obj.section_by_index(i) {
                        Ok(s) => {
                            let characteristics = match s.flags() {
                                object::SectionFlags::Coff { characteristics } => characteristics.0,
                                _ => 0,
                            };
                            if s.name_bytes().is_ok_and(|n| n.starts_with(b".idata")) {
                                'i'
                            } else if characteristics & pe::IMAGE_SCN_CNT_CODE.0 != 0 {
                                't'
                            } else if characteristics & pe::IMAGE_SCN_CNT_INITIALIZED_DATA.0 != 0 {
                                if characteristics & pe::IMAGE_SCN_MEM_WRITE.0 != 0 { 'd' } else { 'r' }
                            } else if characteristics & pe::IMAGE_SCN_CNT_UNINITIALIZED_DATA.0 != 0 {
                                'b'
                            } else if characteristics & pe::IMAGE_SCN_LNK_INFO.0 != 0 {
                                'i'
                            } else if kind == SymbolKind::Section {
                                's'
                            } else {
                                '?'
                            }
                        }
                        Err(_) => '?',
                    },
                    _ => '?',
                }
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
            listed: !format_specific,
            ir_flags: None,
        });
    }
}
