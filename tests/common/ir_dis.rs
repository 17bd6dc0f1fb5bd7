//! The one comparison of `ir::Module` with `llvm-dis` output, shared by `tests/ir.rs`
//! (testdata files) and `tests/ir_old_formats.rs` (files in old layouts written here):
//! names, linkage, visibility and value types of global values, named struct lines,
//! function attribute groups, and body pairing (each definition's FUNCTION_BLOCK declares
//! as many basic blocks as `llvm-dis` prints for it). Included with `#[path]`.
#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use llvm_bitstream_reader::ids::llvm_ir::raw as ids;
use llvm_bitstream_reader::ir::{Function, Linkage, Module};
use llvm_bitstream_reader::{Bitstream, Entry, Magic};

/// One global value as `llvm-dis` prints it.
#[derive(Debug)]
pub struct DisGlobal {
    pub linkage: String,
    pub visibility: String,
    /// The text from the value type on (`i32 0, align 4`; for a function, the text before
    /// its name, which ends with the return type).
    pub rest: String,
    pub is_function: bool,
}

#[derive(Debug, Default)]
pub struct Dis {
    pub globals: BTreeMap<Vec<u8>, DisGlobal>,
    pub structs: Vec<String>,
    pub attribute_sets: Vec<String>,
    /// The number of basic blocks of each function `llvm-dis` prints a body for.
    pub blocks: BTreeMap<Vec<u8>, u64>,
}

const LINKAGES: [&str; 10] = [
    "private",
    "internal",
    "available_externally",
    "linkonce",
    "weak",
    "common",
    "appending",
    "extern_weak",
    "linkonce_odr",
    "weak_odr",
];

/// `@name` or `@"escaped name"` at the start of `s`: the name's bytes and the rest.
pub fn parse_name(s: &str) -> Option<(Vec<u8>, &str)> {
    let s = s.strip_prefix('@')?;
    if let Some(q) = s.strip_prefix('"') {
        let bytes = q.as_bytes();
        let mut out = Vec::new();
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'"' => return Some((out, &q[i + 1..])),
                b'\\' if i + 2 < bytes.len() => {
                    out.push(u8::from_str_radix(std::str::from_utf8(&bytes[i + 1..i + 3]).ok()?, 16).ok()?);
                    i += 3;
                }
                c => {
                    out.push(c);
                    i += 1;
                }
            }
        }
        None
    } else {
        let end = s.find(|c: char| !(c.is_ascii_alphanumeric() || "-$._".contains(c))).unwrap_or(s.len());
        Some((s.as_bytes()[..end].to_vec(), &s[end..]))
    }
}

pub fn parse_dis(text: &str) -> Dis {
    let mut dis = Dis::default();
    // The function whose body is being printed, and whether its first line was seen.
    let mut body: Option<(Vec<u8>, bool)> = None;
    for line in text.lines() {
        if let Some((name, seen_first)) = body.as_mut() {
            if line == "}" {
                body = None;
                continue;
            }
            // A block label (`3:`, `entry:`, `"a b":`, a comment after it) starts at the
            // margin; the entry block is printed without one unless it has a name.
            let is_label = !line.is_empty() && !line.starts_with(' ') && !line.starts_with(';');
            if is_label || (!*seen_first && !line.trim().is_empty()) {
                *dis.blocks.entry(name.clone()).or_insert(0) += 1;
            }
            if !line.trim().is_empty() && !line.trim_start().starts_with(';') {
                *seen_first = true;
            }
            continue;
        }
        if line.starts_with('%') && line.contains(" = type ") {
            dis.structs.push(line.to_string());
        } else if let Some(rest) = line.strip_prefix("attributes #") {
            if let Some(set) = rest.split_once(" = ").map(|(_, s)| s) {
                dis.attribute_sets.push(set.to_string());
            }
        } else if line.starts_with('@') {
            let Some((name, rest)) = parse_name(line) else { continue };
            let Some(rest) = rest.strip_prefix(" = ") else { continue };
            let mut words = rest.split(' ').peekable();
            let (mut linkage, mut visibility) = (String::from("external"), String::from("default"));
            let mut consumed = 0;
            while let Some(&w) = words.peek() {
                if LINKAGES.contains(&w) || w == "external" {
                    linkage = w.to_string();
                } else if w == "hidden" || w == "protected" {
                    visibility = w.to_string();
                } else if w == "global" || w == "constant" || w == "alias" || w == "ifunc" {
                    words.next();
                    consumed += w.len() + 1;
                    break;
                }
                consumed += w.len() + 1;
                words.next();
            }
            let rest = rest.get(consumed..).unwrap_or("").to_string();
            dis.globals.insert(name, DisGlobal { linkage, visibility, rest, is_function: false });
        } else if let Some(rest) = line.strip_prefix("define ").or_else(|| line.strip_prefix("declare ")) {
            let Some(at) = rest.find(" @") else { continue };
            let Some((name, _)) = parse_name(&rest[at + 1..]) else { continue };
            let head = &rest[..at + 1];
            let words: Vec<&str> = head.split(' ').collect();
            let linkage = words.iter().find(|w| LINKAGES.contains(w)).map_or("external", |w| w).to_string();
            let visibility =
                words.iter().find(|w| **w == "hidden" || **w == "protected").map_or("default", |w| w).to_string();
            if line.starts_with("define ") && line.ends_with('{') {
                body = Some((name.clone(), false));
            }
            dis.globals.insert(name, DisGlobal { linkage, visibility, rest: head.to_string(), is_function: true });
        }
    }
    dis
}

/// Runs a disassembler; `Err(reason)` if it cannot read the file.
pub fn disassemble(tool: &Path, file: &Path, extra: &[&str]) -> Result<String, String> {
    let out = Command::new(tool).args(extra).arg(file).args(["-o", "-"]).output().map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).trim().to_string());
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

#[derive(Default, Debug)]
pub struct Figures {
    pub files: usize,
    pub skipped: Vec<String>,
    pub names: usize,
    pub linkage_visibility: usize,
    pub types: usize,
    pub structs: usize,
    pub intrinsics_renamed: usize,
    pub attribute_lines: usize,
    pub attribute_lines_agreeing: usize,
    /// Definitions whose paired body declares the blocks `llvm-dis` prints for them.
    pub bodies: usize,
    /// Attribute lines that differ only because that LLVM upgrades old attributes.
    pub attribute_lines_upgraded: Vec<String>,
}

/// Attributes LLVM 16+ reads as `memory(...)`, LLVM 21+ `nocapture` as `captures(none)`.
pub const UPGRADED_ATTRIBUTES: [&str; 7] = [
    "readnone",
    "readonly",
    "writeonly",
    "argmemonly",
    "inaccessiblememonly",
    "inaccessiblemem_or_argmemonly",
    "nocapture",
];

/// Compares every single-module IR file of `paths` that `tool` reads (others are skipped,
/// with the reason printed and the file listed in `skipped`).
pub fn compare_with(tool: &Path, label: &str, opaque_pointers: bool, paths: &[PathBuf]) -> Figures {
    let mut fig = Figures::default();
    for path in paths {
        let bytes = std::fs::read(path).unwrap();
        let Ok(stream) = Bitstream::parse(&bytes) else { continue };
        if stream.magic() != Magic::LlvmIr {
            continue;
        }
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        let modules = Module::parse_all(stream.bytes()).unwrap_or_else(|e| panic!("{file}: {e}"));
        if modules.len() > 1 {
            // Its modules are the other testdata files, compared on their own.
            eprintln!("{label}: skipping {file}: llvm-dis writes only single-module files to stdout");
            fig.skipped.push(file);
            continue;
        }
        let mut text = disassemble(tool, path, &[]);
        if text.is_err() && label == "llvm-dis 14" {
            // LLVM 14 reads its own opaque-pointer files only when told to.
            text = disassemble(tool, path, &["-opaque-pointers"]);
        }
        let text = match text {
            Ok(t) => t,
            Err(reason) => {
                eprintln!("{label}: skipping {file}: it cannot read it: {}", reason.lines().next().unwrap_or(""));
                fig.skipped.push(file);
                continue;
            }
        };
        let module = &modules[0];
        let opaque = opaque_pointers || text.contains(" ptr ") && !text.contains("* ");
        let dis = parse_dis(&text);
        fig.files += 1;
        compare_module(&file, module, &dis, opaque, &mut fig);
    }
    fig
}

pub fn compare_module(file: &str, module: &Module<'_>, dis: &Dis, opaque: bool, fig: &mut Figures) {
    let ty = |id| {
        if opaque { module.types.display_opaque(id).to_string() } else { module.types.display(id).to_string() }
    };
    let mut ours = BTreeMap::new();
    for g in &module.globals {
        ours.insert(g.common.name.to_vec(), (&g.common, false, ty(g.common.value_type)));
    }
    for f in &module.functions {
        let ret = match module.types.get(f.common.value_type) {
            Some(llvm_bitstream_reader::ir::Type::Function { ret, .. }) => ty(*ret),
            _ => panic!("{file}: function type"),
        };
        ours.insert(f.common.name.to_vec(), (&f.common, true, ret));
    }
    for a in &module.aliases {
        ours.insert(a.common.name.to_vec(), (&a.common, false, String::new()));
    }
    for (name, d) in &dis.globals {
        let shown = String::from_utf8_lossy(name);
        let Some((common, is_function, value_type)) = ours.get(name) else {
            if name.starts_with(b"llvm.") {
                // An intrinsic a newer LLVM renames on reading (llvm.eh.typeid.for → .p0).
                fig.intrinsics_renamed += 1;
                continue;
            }
            panic!("{file}: llvm-dis prints @{shown}, the records have no such global value");
        };
        fig.names += 1;
        assert_eq!(*is_function, d.is_function, "{file}: @{shown}: function or not");
        let linkage = match common.linkage {
            Linkage::External => "external",
            l => l.name(),
        };
        assert_eq!(linkage, d.linkage, "{file}: @{shown}: linkage");
        assert_eq!(common.visibility.to_string(), d.visibility, "{file}: @{shown}: visibility");
        fig.linkage_visibility += 1;
        if value_type.is_empty() {
            continue;
        }
        if d.is_function {
            assert!(
                d.rest.ends_with(&format!("{value_type} ")),
                "{file}: @{shown}: `{}` ends with {value_type}",
                d.rest
            );
        } else {
            assert!(
                d.rest.starts_with(&format!("{value_type} "))
                    || d.rest.starts_with(&format!("{value_type},"))
                    || d.rest == *value_type,
                "{file}: @{shown}: `{}` starts with {value_type}",
                d.rest
            );
        }
        fig.types += 1;
    }
    // Every global value the records name is printed (unnamed ones are numbered).
    let printed: BTreeSet<_> = dis.globals.keys().collect();
    // (LLVM 19 turns the llvm.dbg.* intrinsics into debug records, and renames some.)
    for name in ours.keys().filter(|n| !n.is_empty() && !n.starts_with(b"llvm.")) {
        assert!(printed.contains(name), "{file}: @{} is not printed", String::from_utf8_lossy(name));
    }
    // Body pairing: the FUNCTION_BLOCK paired with each definition declares the blocks
    // llvm-dis prints for that function (which LLVM paired with the same block).
    for f in module.definitions() {
        let Some(&printed) = dis.blocks.get(&*f.common.name) else { continue };
        let ours = declared_blocks(f);
        assert_eq!(ours, Some(printed), "{file}: @{}: basic blocks of the paired body", f.common.name_str());
        fig.bodies += 1;
    }
    let our_structs: BTreeSet<String> = module.types.struct_definitions(opaque).collect();
    for s in &dis.structs {
        assert!(our_structs.contains(s), "{file}: llvm-dis prints `{s}`; ours: {our_structs:#?}");
        fig.structs += 1;
    }
    let our_sets: BTreeSet<String> = module.function_attribute_sets().collect();
    for set in &dis.attribute_sets {
        fig.attribute_lines += 1;
        if our_sets.contains(set) {
            fig.attribute_lines_agreeing += 1;
        } else {
            fig.attribute_lines_upgraded.push(format!("{file}: {set}"));
        }
    }
}

/// DECLAREBLOCKS of the FUNCTION_BLOCK paired with `f`, read with the event reader.
pub fn declared_blocks(f: &Function<'_>) -> Option<u64> {
    let mut reader = f.body.as_ref()?.reader().ok()?;
    reader.advance().ok()?;
    while let Some(entry) = reader.advance().ok()? {
        match entry {
            Entry::EnterBlock(_) => {
                reader.skip_block().ok()?;
            }
            Entry::Record { .. } => {
                let r = reader.read_record().ok()?;
                if r.code() == ids::FUNC_CODE_DECLAREBLOCKS {
                    return r.operand(0);
                }
            }
            Entry::EndBlock(_) => return None,
            _ => {}
        }
    }
    None
}
