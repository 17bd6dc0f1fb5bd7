//! Module-level constants (`ir::Module::constants`) against `llvm-dis` of the same major
//! version: every global variable's initializer and whole line
//! (`ir::Module::display_global_var`), printed as `llvm-dis` prints them, on the
//! testdata files (LLVM 14's with llvm-dis-14, LLVM 22's with llvm-dis-22) and on Debian's
//! libclc-14 and -22 (if `.ci/run` unpacked them under `target/libclc`). Reports
//! identical / total per corpus; every initializer and line must be identical.

mod common;
#[path = "common/ir_dis.rs"]
mod ir_dis;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use llvm_bitstream_reader::ir::Module;

/// The `TYPE INIT` part of a global variable's line: after `global ` or `constant `.
fn initializer_text(line: &str) -> Option<&str> {
    let (_, rest) = line.split_once(" = ")?;
    let at = [" global ", " constant "].iter().filter_map(|k| rest.find(k).map(|i| i + k.len())).min()?;
    Some(&rest[at..])
}

/// A global variable's line without what `display_global_var` leaves out: the attribute
/// group (` #0`) and the metadata attachments (`, !dbg !5`), at its end.
fn without_numbered_suffixes(mut line: &str) -> &str {
    if let Some((head, n)) = line.rsplit_once(" #") {
        if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) {
            line = head;
        }
    }
    while let Some(i) = line.rfind(", !") {
        let tail = &line[i + 3..];
        let attachment = tail.split_once(" !").is_some_and(|(kind, id)| {
            !kind.is_empty()
                && kind.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.')
                && !id.is_empty()
                && id.bytes().all(|b| b.is_ascii_digit())
        });
        if !attachment {
            break;
        }
        line = &line[..i];
    }
    line
}

#[derive(Default)]
struct Tally {
    files: usize,
    initializers: usize,
    identical: usize,
    lines: usize,
    identical_lines: usize,
    differences: Vec<String>,
}

fn compare_file(tool: &Path, path: &Path, opaque: bool, tally: &mut Tally) {
    let bytes = std::fs::read(path).unwrap();
    let Ok(modules) = Module::parse_all(&bytes) else { return };
    let [module] = &modules[..] else { return };
    let Ok(text) = ir_dis::disassemble(tool, path, &[]) else { return };
    let lines: HashMap<&str, &str> = text
        .lines()
        .filter(|l| l.starts_with('@'))
        .filter_map(|l| l.split_once(" = ").map(|(name, _)| (name, l)))
        .collect();
    let constants = module.constants().unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    tally.files += 1;
    for (i, g) in module.globals.iter().enumerate() {
        let name = constants.display_value(module, g.common.value_id, opaque).to_string();
        let Some(line) = lines.get(name.as_str()) else { continue };
        let ours = module.display_global_var(i, &constants, opaque).to_string();
        tally.lines += 1;
        if ours == without_numbered_suffixes(line) {
            tally.identical_lines += 1;
        } else if tally.differences.len() < 20 {
            tally.differences.push(format!("{}:\n  llvm-dis: {line}\n  ours:     {ours}", path.display()));
        }
    }
    for g in &module.globals {
        let Some(init) = g.initializer else { continue };
        let name = constants.display_value(module, g.common.value_id, opaque).to_string();
        let Some(line) = lines.get(name.as_str()) else { continue };
        let Some(theirs) = initializer_text(line) else { continue };
        let ours = constants.display(module, init, opaque).to_string();
        tally.initializers += 1;
        let rest = theirs.strip_prefix(ours.as_str());
        if rest.is_some_and(|r| r.is_empty() || r.starts_with(',')) {
            tally.identical += 1;
        } else if tally.differences.len() < 20 {
            // From a little before the first byte that differs.
            let at = theirs.bytes().zip(ours.bytes()).take_while(|(a, b)| a == b).count();
            let mut from = at.saturating_sub(40);
            while !theirs.is_char_boundary(from) {
                from -= 1;
            }
            let cut = |s: &str| s.get(from..).unwrap_or("").chars().take(120).collect::<String>();
            tally.differences.push(format!(
                "{} {name} (at {at}):\n  llvm-dis: {}\n  ours:     {}",
                path.display(),
                cut(theirs),
                cut(&ours)
            ));
        }
    }
}

fn libclc(major: u32) -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("target/libclc/{major}/usr/lib/clc"));
    let Ok(entries) = std::fs::read_dir(&dir) else {
        common::skip_or_fail::<()>(&format!("libclc-{major} not unpacked in {} (.ci/run does it)", dir.display()));
        return Vec::new();
    };
    let mut files: Vec<PathBuf> =
        entries.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|e| e == "bc")).collect();
    files.sort();
    files
}

fn run(label: &str, major: u32, files: &[PathBuf], opaque: bool) -> Option<Tally> {
    let tool = common::llvm_tool("llvm-dis", major)?;
    let mut tally = Tally::default();
    for file in files {
        compare_file(&tool, file, opaque, &mut tally);
    }
    eprintln!(
        "{label}: {} files, {} of {} initializers and {} of {} global variable lines identical to llvm-dis {major}",
        tally.files, tally.identical, tally.initializers, tally.identical_lines, tally.lines
    );
    for d in &tally.differences {
        eprintln!("{d}");
    }
    Some(tally)
}

#[test]
fn llvm14_initializers_print_as_llvm_dis_14_prints_them() {
    let mut files: Vec<PathBuf> = common::testdata_files()
        .into_iter()
        .filter(|p| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("llvm14_")))
        .collect();
    files.extend(libclc(14).into_iter().step_by(3));
    let Some(t) = run("LLVM 14 files", 14, &files, false) else { return };
    assert!(t.initializers >= 20, "too few initializers compared: {}", t.initializers);
    assert_eq!(t.identical, t.initializers, "{} differ", t.initializers - t.identical);
    assert_eq!(t.identical_lines, t.lines, "{} lines differ", t.lines - t.identical_lines);
}

#[test]
fn llvm22_initializers_print_as_llvm_dis_22_prints_them() {
    let mut files: Vec<PathBuf> = common::testdata_files()
        .into_iter()
        .filter(|p| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("rustc_llvm22")))
        .collect();
    files.extend(libclc(22).into_iter().step_by(3));
    let Some(t) = run("LLVM 22 files", 22, &files, true) else { return };
    assert!(t.initializers >= 20, "too few initializers compared: {}", t.initializers);
    assert_eq!(t.identical, t.initializers, "{} differ", t.initializers - t.identical);
    assert_eq!(t.identical_lines, t.lines, "{} lines differ", t.lines - t.identical_lines);
}
