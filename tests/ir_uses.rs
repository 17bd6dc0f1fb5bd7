//! The use index ([`ModuleView::uses`](llvm_bitstream_reader::ir::ModuleView::uses)) against `llvm-dis-22`'s text: every global value
//! is printed, outside its own definition, as often as its uses say: once per use by an
//! instruction, a bundle or a global, and once per printing of each constant using it
//! (a constant is printed inline wherever it is used, so its own uses count again).
//! Globals named in metadata and debug records are those with a metadata use, directly
//! or through constants. On real modules read as LLVM 22 reads them: rustc 1.95's two,
//! LLVM 14's instruction, opaque-pointer and debug-info test files (llvm-dis-22 rejects
//! the globals one), libclc-22's amdgcn library. The file as written
//! ([`Bodies::uses`](llvm_bitstream_reader::ir::Bodies::uses)) has the same uses where LLVM 22 wrote it (rustc's modules).

mod common;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;

use llvm_bitstream_reader::ir::uses::{UseIndex, User};
use llvm_bitstream_reader::ir::{GlobalRef, Module, ModuleConstants};

/// Whether `c` can be in an unquoted `@name`.
fn ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || b"$._-".contains(&c)
}

/// How often each `@name` occurs in `line`, the names a definition line defines left out.
fn count_names(line: &str, counts: &mut HashMap<String, u64>) {
    let bytes = line.as_bytes();
    // A definition's own name: `define … @f(`, `declare … @f(`, `@g = …`.
    let defined = if line.starts_with("define ") || line.starts_with("declare ") {
        line.find(" @").map(|i| i + 1)
    } else if line.starts_with('@') {
        Some(0)
    } else {
        None
    };
    let mut i = 0;
    while let Some(at) = line[i..].find('@').map(|j| i + j) {
        // `@name`, or `@"name"` for a name with other characters (`$`, spaces).
        let (name, end) = if bytes.get(at + 1) == Some(&b'"') {
            match line[at + 2..].find('"') {
                Some(len) => (&line[at + 2..at + 2 + len], at + 3 + len),
                None => break,
            }
        } else {
            let end = at + 1 + bytes[at + 1..].iter().take_while(|&&c| ident(c)).count();
            (&line[at + 1..end], end)
        };
        if !name.is_empty() && Some(at) != defined && (at == 0 || !ident(bytes[at - 1])) {
            *counts.entry(name.to_owned()).or_default() += 1;
        }
        i = end.max(at + 1);
    }
}

/// How often module-level value `value` is printed: see the module docs. `memo` keeps
/// each constant's count; `metadata` collects the values a metadata use reaches.
fn printed(
    index: &UseIndex,
    constants: &ModuleConstants,
    value: u64,
    memo: &mut HashMap<(Option<usize>, u64), u64>,
) -> u64 {
    printed_in(index, constants, (None, value), memo, 0)
}

fn printed_in(
    index: &UseIndex,
    constants: &ModuleConstants,
    key: (Option<usize>, u64),
    memo: &mut HashMap<(Option<usize>, u64), u64>,
    depth: usize,
) -> u64 {
    if let Some(&n) = memo.get(&key) {
        return n;
    }
    assert!(depth < 200, "constant nesting too deep at {key:?}");
    let uses = match key.0 {
        None => index.of(key.1),
        Some(f) => index.of_local(f, key.1),
    };
    let mut n = 0;
    for u in uses {
        n += match u.user {
            User::Instruction { .. } | User::Bundle { .. } | User::Global { .. } => 1,
            User::Constant { function, constant, .. } => {
                let scope = function.filter(|_| constants.get(constant).is_none());
                printed_in(index, constants, (scope, constant), memo, depth + 1)
            }
            _ => 0,
        };
    }
    memo.insert(key, n);
    n
}

/// Whether a metadata use or a debug record reaches module-level value `key`.
fn in_metadata(index: &UseIndex, constants: &ModuleConstants, key: (Option<usize>, u64), depth: usize) -> bool {
    let uses = match key.0 {
        None => index.of(key.1),
        Some(f) => index.of_local(f, key.1),
    };
    depth < 200
        && uses.iter().any(|u| match u.user {
            User::Metadata { .. } | User::DebugRecord { .. } => true,
            User::Constant { function, constant, .. } => {
                let scope = function.filter(|_| constants.get(constant).is_none());
                in_metadata(index, constants, (scope, constant), depth + 1)
            }
            _ => false,
        })
}

/// Compares one file; the number of global uses checked.
fn compare(file: &Path, text: &str) -> u64 {
    let name = file.display();
    let bytes = std::fs::read(file).unwrap();
    let module = Module::parse(&bytes).unwrap();
    let bodies = module.bodies().unwrap();
    let view = bodies.view(22);
    let index = view.uses().unwrap();
    let constants = view.constants();
    let mut code = HashMap::new();
    let mut meta = HashMap::new();
    for line in text.lines() {
        let trimmed = line.trim_start();
        if line.starts_with(';') || line.starts_with("attributes #") || line.starts_with("source_filename") {
            continue;
        }
        if line.starts_with('!') || trimmed.starts_with("#dbg_") {
            count_names(line, &mut meta);
        } else {
            count_names(line, &mut code);
        }
    }
    let mut memo = HashMap::new();
    let mut checked = 0;
    let mut differ = BTreeMap::new();
    let (mut in_md, mut md_ours) = (BTreeSet::new(), BTreeSet::new());
    // By printed name: a function is printed with the name LLVM's upgrade gives it (an
    // old intrinsic's calls name the new one), so uses add up by name.
    let mut ours_by_name: BTreeMap<String, u64> = BTreeMap::new();
    for (value, global) in module.values.iter().enumerate() {
        let value = value as u64;
        let gname = match *global {
            GlobalRef::Function(i) => String::from_utf8_lossy(view.function_name(i).unwrap()).into_owned(),
            _ => module.global(value).unwrap().name_str().into_owned(),
        };
        if gname.is_empty() || gname.bytes().any(|c| c == b'"' || c == b'\\' || !c.is_ascii_graphic()) {
            continue; // unnamed, or printed with escapes: not matched by name here
        }
        *ours_by_name.entry(gname.clone()).or_default() += printed(&index, constants, value, &mut memo);
        if meta.contains_key(&gname) {
            in_md.insert(gname.clone());
        }
        if in_metadata(&index, constants, (None, value), 0) {
            md_ours.insert(gname);
        }
    }
    for (gname, ours) in ours_by_name {
        let theirs = code.get(&gname).copied().unwrap_or(0);
        if ours != theirs {
            differ.insert(gname, (ours, theirs));
        }
        checked += ours;
    }
    assert!(differ.is_empty(), "{name}: (ours, llvm-dis-22's) use counts differ: {differ:?}");
    assert_eq!(md_ours, in_md, "{name}: globals used by metadata");
    // LLVM 22 reads what LLVM 22 wrote as written: the two indexes are the same.
    if file.file_name().unwrap().to_str().unwrap().starts_with("rustc_llvm22") {
        let written = bodies.uses().unwrap();
        assert!(written.iter().eq(index.iter()), "{name}: the file's uses differ from LLVM 22's");
    }
    checked
}

#[test]
fn global_use_counts_are_llvm_dis_22s() {
    let Some(llvm_dis) = common::llvm_tool("llvm-dis", 22) else { return };
    let files = common::testdata_and_libclc_22(&[
        "rustc_llvm22_o3.bc",
        "rustc_llvm22_o0_debuginfo.bc",
        "llvm14_ir_instructions.bc",
        "llvm14_ir_opaque_ptr.bc",
        "llvm14_ir_debuginfo.bc",
    ]);
    let mut uses = 0;
    for file in files {
        let out = std::process::Command::new(&llvm_dis).arg(&file).arg("-o").arg("-").output().unwrap();
        assert!(out.status.success(), "llvm-dis-22 {}", file.display());
        uses += compare(&file, &String::from_utf8(out.stdout).unwrap());
    }
    assert!(uses > 1000, "{uses} uses");
    eprintln!("{uses} printed uses of globals checked");
}
