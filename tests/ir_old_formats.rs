//! The format's upgrade paths, on files written here in the layouts LLVM 3.x and 4.0
//! wrote (`tests/common/old_bitcode.rs`): no IDENTIFICATION or one, VERSION 0 (absolute
//! value ids) and 1 (relative ids), names in the module-level VALUE_SYMTAB (char6, 7-bit
//! and 8-bit arrays) with bodies paired in order or through VSTOFFSET and FNENTRY
//! offsets, typed pointers with address spaces, pointer-typed GLOBALVAR and FUNCTION
//! records, the legacy linkage codes, ALIAS_OLD, PARAMATTR_CODE_ENTRY_OLD and
//! TYPE_CODE_FUNCTION_OLD, a bitcode wrapper.
//!
//! Files written by old LLVM versions are third-party and not committed (the other IR
//! tests read them from `EXTRA_TESTDATA_DIR`); these are ours, so CI runs the upgrade
//! paths on every run. Each file is compared with what `llvm-dis` 14 (and 19) prints for
//! it, through the one comparison of `tests/common/ir_dis.rs`; the structural facts are
//! checked without any tool.
#![cfg(feature = "writer")]

mod common;
#[path = "common/ir_dis.rs"]
mod ir_dis;
#[path = "common/old_bitcode.rs"]
mod old_bitcode;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use llvm_bitstream_reader::ir::{AttributeList, DllStorage, Module, Type};
use old_bitcode::{ALIAS_NAME, FUNCTIONS, GLOBALS, LAYOUTS, Layout, Naming};

fn generated(subdir: &str) -> Vec<PathBuf> {
    old_bitcode::write_all(&Path::new(env!("CARGO_TARGET_TMPDIR")).join(subdir))
}

/// What the generated modules hold, read back without any LLVM tool.
#[test]
fn generated_modules_read_back_as_written() {
    for layout in &LAYOUTS {
        let bytes = old_bitcode::module_bytes(layout);
        let m = Module::parse(&bytes).unwrap_or_else(|e| panic!("{}: {e}", layout.name));
        let at = layout.name;
        assert_eq!(m.version, Some(layout.version), "{at}");
        assert_eq!(m.producer.as_deref(), layout.identification.then_some("LLVM4.0.0"), "{at}");
        assert_eq!(m.vst_offset.is_some(), layout.naming == Naming::VstOffsetFnEntry, "{at}");
        // Names from the VST, in record order.
        let names: Vec<&[u8]> = m.globals.iter().map(|g| &*g.common.name).collect();
        assert_eq!(names, GLOBALS.iter().map(|g| g.name).collect::<Vec<_>>(), "{at}");
        let names: Vec<&[u8]> = m.functions.iter().map(|f| &*f.common.name).collect();
        assert_eq!(names, FUNCTIONS.iter().map(|f| f.name).collect::<Vec<_>>(), "{at}");
        assert_eq!(m.aliases.len(), 1, "{at}");
        assert_eq!(&*m.aliases[0].common.name, ALIAS_NAME, "{at}");
        // The value type, whether the record held it or a pointer to it.
        assert_eq!(m.types.display(m.globals[0].common.value_type).to_string(), "i32", "{at}");
        assert_eq!(m.types.display(m.globals[11].common.value_type).to_string(), "i8 addrspace(1)*", "{at}");
        assert_eq!(m.types.display(m.globals[10].common.value_type).to_string(), "%struct.pair", "{at}");
        for (f, written) in m.functions.iter().zip(&FUNCTIONS) {
            let shown = f.common.name_str();
            assert!(matches!(m.types.get(f.common.value_type), Some(Type::Function { .. })), "{at}: @{shown}");
            assert_eq!(f.is_declaration, written.blocks.is_none(), "{at}: @{shown}");
            // Each definition has the body written for it: as many blocks as written.
            assert_eq!(ir_dis::declared_blocks(f), written.blocks, "{at}: @{shown}: paired body");
        }
        assert_eq!(m.function_blocks, FUNCTIONS.iter().filter(|f| f.blocks.is_some()).count(), "{at}");
        if layout.legacy_attributes {
            assert!(m.attribute_groups.is_empty(), "{at}");
            assert!(m.attribute_lists.iter().all(|l| matches!(l, AttributeList::Legacy(_))), "{at}");
            assert_eq!(m.attribute_lists.len(), 2, "{at}");
        } else {
            let sets: Vec<String> = m.function_attribute_sets().collect();
            assert_eq!(sets, old_bitcode::GROUP_ATTRIBUTE_SETS, "{at}");
        }
    }
}

/// `dllimport`/`dllexport` and comdats as `llvm-dis` prints them. LLVM upgrades the
/// legacy linkage codes 5 and 6 to DLL storage where the record has no DLL field; ours
/// must say the same. It also gives the old weak and linkonce codes (1, 4, 10, 11) an
/// implicit comdat named after the value where the record has no comdat field (on ELF),
/// which `ir::Module` does not model: those are counted, and every other comdat agrees.
/// Returns (values checked, implicit comdats).
fn check_storage_and_comdats(file: &str, layout: &Layout, m: &Module<'_>, text: &str) -> (usize, usize) {
    let raw_linkage: BTreeMap<&[u8], u64> =
        GLOBALS.iter().map(|g| (g.name, g.linkage)).chain(FUNCTIONS.iter().map(|f| (f.name, f.linkage))).collect();
    let mut ours = BTreeMap::new();
    for g in &m.globals {
        ours.insert(g.common.name.to_vec(), (g.common.dll_storage, g.comdat.is_some()));
    }
    for f in &m.functions {
        ours.insert(f.common.name.to_vec(), (f.common.dll_storage, f.comdat.is_some()));
    }
    let (mut checked, mut implicit) = (0, 0);
    for line in text.lines() {
        let (name, _) = if line.starts_with('@') {
            let Some(parsed) = ir_dis::parse_name(line) else { continue };
            parsed
        } else if line.starts_with("define ") || line.starts_with("declare ") {
            let Some(at) = line.find(" @") else { continue };
            let Some(parsed) = ir_dis::parse_name(&line[at + 1..]) else { continue };
            parsed
        } else {
            continue;
        };
        let Some(&(dll, comdat)) = ours.get(&name) else { continue };
        let words: Vec<&str> = line.split(' ').collect();
        let dll_printed = if words.contains(&"dllimport") {
            DllStorage::Import
        } else if words.contains(&"dllexport") {
            DllStorage::Export
        } else {
            DllStorage::Default
        };
        assert_eq!(dll, dll_printed, "{file}: {line}");
        let comdat_printed = words.iter().any(|w| w.trim_end_matches(',') == "comdat");
        let implicit_comdat = !layout.explicit_types && matches!(raw_linkage.get(&*name), Some(1 | 4 | 10 | 11));
        assert_eq!(comdat || implicit_comdat, comdat_printed, "{file}: {line}: comdat");
        implicit += usize::from(implicit_comdat);
        checked += 1;
    }
    (checked, implicit)
}

fn compare(tool: &Path, label: &str, opaque: bool, subdir: &str) -> ir_dis::Figures {
    let paths = generated(subdir);
    let fig = ir_dis::compare_with(tool, label, opaque, &paths);
    eprintln!("{label} on the generated files: {fig:#?}");
    assert!(fig.skipped.is_empty(), "{label} rejects {:?}", fig.skipped);
    assert_eq!(fig.files, LAYOUTS.len());
    let per_file = GLOBALS.len() + FUNCTIONS.len() + 1;
    assert_eq!(fig.names, LAYOUTS.len() * per_file, "every global value, in every layout");
    assert_eq!(fig.linkage_visibility, fig.names);
    let definitions = FUNCTIONS.iter().filter(|f| f.blocks.is_some()).count();
    assert_eq!(fig.bodies, LAYOUTS.len() * definitions, "every body paired as LLVM pairs it");
    assert_eq!(fig.structs, LAYOUTS.len(), "%struct.pair in every layout");
    // Attribute groups agree; the PARAMATTR_CODE_ENTRY_OLD masks are not decoded into
    // groups (their lines are the only ones that differ).
    for line in &fig.attribute_lines_upgraded {
        assert!(line.contains("_attr_old"), "{label}: {line}");
    }
    let group_layouts = LAYOUTS.iter().filter(|l| !l.legacy_attributes).count();
    assert!(fig.attribute_lines_agreeing >= group_layouts * old_bitcode::GROUP_ATTRIBUTE_SETS.len());
    let (mut storage_checked, mut implicit_comdats) = (0, 0);
    for (path, layout) in paths.iter().zip(&LAYOUTS) {
        let bytes = std::fs::read(path).unwrap();
        let m = Module::parse(&bytes).unwrap();
        let text = ir_dis::disassemble(tool, path, &[]).unwrap();
        let (checked, implicit) = check_storage_and_comdats(&path.display().to_string(), layout, &m, &text);
        storage_checked += checked;
        implicit_comdats += implicit;
    }
    eprintln!(
        "{label}: DLL storage and comdat agree on {storage_checked} global values \
         ({implicit_comdats} implicit comdats of old weak/linkonce codes not modelled)"
    );
    assert_eq!(storage_checked, LAYOUTS.len() * (GLOBALS.len() + FUNCTIONS.len()));
    fig
}

#[test]
fn generated_modules_agree_with_llvm_dis_14() {
    let Some(tool) = common::llvm14_tool("llvm-dis") else { return };
    compare(&tool, "llvm-dis 14", false, "old-bitcode-14");
}

/// LLVM 19 still reads typed-pointer bitcode (and prints `ptr`).
#[test]
fn generated_modules_agree_with_llvm_dis_19() {
    let Some(tool) = common::llvm19_dis() else { return };
    compare(&tool, "llvm-dis 19", true, "old-bitcode-19");
}

/// LLVM 14's `llvm-bcanalyzer -dump` walks every generated file without error, and
/// finds the layout's records where they were written.
#[test]
fn generated_modules_pass_llvm_bcanalyzer_14() {
    let Some(tool) = common::llvm14_tool("llvm-bcanalyzer") else { return };
    for (path, layout) in generated("old-bitcode-bcanalyzer").iter().zip(&LAYOUTS) {
        let out = std::process::Command::new(&tool).arg("-dump").arg(path).output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{}: {}", path.display(), String::from_utf8_lossy(&out.stderr));
        assert!(text.contains(&format!("<VERSION op0={}/>", layout.version)), "{}", layout.name);
        assert_eq!(text.contains("<IDENTIFICATION_BLOCK_ID"), layout.identification, "{}", layout.name);
        assert_eq!(text.contains("<VSTOFFSET"), layout.naming == Naming::VstOffsetFnEntry, "{}", layout.name);
        assert_eq!(text.matches("<FNENTRY").count(), if layout.naming == Naming::VstOffsetFnEntry { 5 } else { 0 });
        // LLVM 14's analyzer no longer names ALIAS_OLD (nor FUNCTION_OLD): code 9.
        let alias = if layout.alias_old { "<UnknownCode9 op0=6 " } else { "<ALIAS " };
        assert!(text.contains(alias), "{}", layout.name);
        assert!(!text.contains("STRTAB"), "{}", layout.name);
    }
}
