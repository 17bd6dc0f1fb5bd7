//! Operands as the text prints them ([`Bodies::printed_instructions`]) against `llvm-dis`
//! of the printing version: for every instruction line of the module's text, the values it
//! references (`%x`, `%3`, `@g`, also inside constant expressions) are those of the
//! instruction's operand texts, and each typed operand prints as `type value` (typed
//! pointers at 14: `i32* %p`). Unnamed locals' texts are their [`LocalSlots`] numbers.
//! Inputs: LLVM 14's instruction, debug-info, globals and opaque-pointer test files at 14
//! and (but the globals file, which LLVM 22 refuses) 22, rustc 1.95's modules at 22.

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use llvm_bitstream_reader::ir::{Bodies, DisOptions, Module, Value};

/// A value reference at the start of `s` (`%x`, `%"a b"`, `@g`, `%3`), if one starts there.
fn reference(s: &str) -> Option<&str> {
    let rest = s.strip_prefix(['%', '@'])?;
    let len = if let Some(q) = rest.strip_prefix('"') {
        q.find('"')? + 2
    } else {
        rest.find(|c: char| !(c.is_ascii_alphanumeric() || "-_.$".contains(c))).unwrap_or(rest.len())
    };
    (len > 0).then(|| &s[..len + 1])
}

/// The value references of `text`, counted, but for the struct type names `types`.
fn references<'t>(text: &'t str, types: &[String]) -> BTreeMap<&'t str, usize> {
    let mut out = BTreeMap::new();
    let mut prev = ' ';
    for (i, c) in text.char_indices() {
        let starts = (c == '%' || c == '@') && !(prev.is_ascii_alphanumeric() || "-_.$".contains(prev));
        prev = c;
        if !starts {
            continue;
        }
        if let Some(r) = reference(&text[i..]) {
            if !types.iter().any(|t| t == r) {
                *out.entry(r).or_default() += 1;
            }
        }
    }
    out
}

/// Each definition's instruction lines (a `switch`'s case lines joined to it; debug
/// records are not instructions).
fn instruction_lines(text: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for body in common::definitions(text) {
        let mut lines: Vec<String> = Vec::new();
        for line in body {
            let Some(rest) = line.strip_prefix("  ") else { continue };
            if rest.trim_start().starts_with("#dbg_") {
                continue;
            }
            match lines.last_mut() {
                Some(last) if rest.starts_with([' ', ']']) => {
                    last.push('\n');
                    last.push_str(line);
                }
                _ => lines.push(rest.to_owned()),
            }
        }
        out.push(lines);
    }
    out
}

/// Opcodes whose text prints some operands without their type (a binary operator's and a
/// compare's second operand, a call's arguments after their attributes, a phi's incoming
/// values, an exception pad's parent pad: `within %cs`; LLVM 14 reading opaque pointers, a
/// `cmpxchg`'s values) or not at all (an `alloca` of one element).
const UNTYPED: &[&str] = &[
    "alloca",
    "catchswitch",
    "catchpad",
    "cleanuppad",
    "catchret",
    "cleanupret",
    "cmpxchg",
    "add",
    "sub",
    "mul",
    "udiv",
    "sdiv",
    "urem",
    "srem",
    "shl",
    "lshr",
    "ashr",
    "and",
    "or",
    "xor",
    "fadd",
    "fsub",
    "fmul",
    "fdiv",
    "frem",
    "icmp",
    "fcmp",
    "call",
    "invoke",
    "callbr",
    "phi",
];

/// Checks `path` at `version` against `llvm-dis` text `text`: (instructions, typed operands).
fn check(path: &Path, version: u32, text: &str) -> (usize, usize) {
    let data = std::fs::read(path).unwrap();
    let module = Module::parse(&data).unwrap();
    let bodies: Bodies<'_, '_> = module.bodies().unwrap();
    let types: Vec<String> = text
        .lines()
        .filter_map(|l| l.split_once(" = type ").map(|(name, _)| name.to_owned()))
        .filter(|name| name.starts_with('%'))
        .collect();
    let lines = instruction_lines(text);
    let (mut at, mut function, mut checked, mut typed) = (0usize, None, 0, 0);
    let mut definition = 0usize;
    bodies
        .printed_instructions(DisOptions { llvm_version: version }, |_view, p| {
            if function != Some(p.function) {
                if function.is_some() {
                    definition += 1;
                }
                function = Some(p.function);
                at = 0;
            }
            let line = &lines[definition][at];
            at += 1;
            let inst = &p.body.instructions[p.instruction as usize];
            let opcode = p.body.opcode_name(inst, _view.types());
            let defined = inst.has_result && line.starts_with('%');
            let used = if defined { line.split_once(" = ").map_or(&line[..], |(_, r)| r) } else { &line[..] };
            // A call's operand bundles (`[ "funclet"(token %cp) ]`) are not its operands
            // (`Body::bundles` holds their inputs).
            let used = match (used.find(" [ \""), used.rfind(" ]")) {
                (Some(start), Some(end)) if p.body.call(inst).is_some() => {
                    format!("{}{}", &used[..start], &used[end + 2..])
                }
                _ => used.to_owned(),
            };
            let mut printed = String::new();
            let slots = p.body.slots();
            for (n, o) in p.body.operands(inst).iter().enumerate() {
                let value = p.operand(n).unwrap();
                printed.push_str(p.operand_type(n).unwrap_or(""));
                printed.push(' ');
                printed.push_str(value);
                printed.push(' ');
                if let Some(slot) = slots.of(o.value) {
                    assert_eq!(value, format!("%{slot}"), "{}: {line}", path.display());
                }
                if let (Some(ty), false) = (p.operand_type(n), matches!(o.value, Value::Metadata(_))) {
                    if line.contains(&format!("{ty} {value}")) {
                        typed += 1;
                    } else {
                        assert!(
                            UNTYPED.contains(&opcode),
                            "{} at {version}: {line}: operand {n} {ty} {value}",
                            path.display()
                        );
                    }
                }
            }
            assert_eq!(
                references(&printed, &types),
                references(&used, &types),
                "{} at {version}: {line}",
                path.display()
            );
            assert!(!defined || p.result_type() != "void", "{line}");
            checked += 1;
        })
        .unwrap();
    assert_eq!(definition + usize::from(function.is_some()), lines.len(), "{}", path.display());
    (checked, typed)
}

#[test]
fn operand_texts_are_llvm_dis() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata");
    let old =
        ["llvm14_ir_instructions.bc", "llvm14_ir_debuginfo.bc", "llvm14_ir_globals.bc", "llvm14_ir_opaque_ptr.bc"];
    let mut runs: Vec<(std::path::PathBuf, u32)> = Vec::new();
    for name in old {
        runs.push((root.join(name), 14));
        // LLVM 22 refuses the globals file (an initializer's `icmp` expression).
        if name != "llvm14_ir_globals.bc" {
            runs.push((root.join(name), 22));
        }
    }
    for name in ["rustc_llvm22_o3.bc", "rustc_llvm22_o0_debuginfo.bc"] {
        runs.push((root.join(name), 22));
    }
    let mut total = (0, 0);
    for (path, version) in runs {
        let tool = if version == 14 { common::llvm14_tool("llvm-dis") } else { common::llvm_tool("llvm-dis", 22) };
        let Some(tool) = tool else { return };
        let mut command = std::process::Command::new(tool);
        // LLVM 14 reads opaque pointers only when told to.
        if version == 14 && path.to_string_lossy().contains("opaque_ptr") {
            command.arg("-opaque-pointers");
        }
        let out = command.arg(&path).arg("-o").arg("-").output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let (checked, typed) = check(&path, version, &String::from_utf8_lossy(&out.stdout));
        assert!(checked > 0, "{}", path.display());
        total.0 += checked;
        total.1 += typed;
    }
    eprintln!("{} instructions, {} typed operands printed as `type value`", total.0, total.1);
    assert!(total.0 > 1000 && total.1 > total.0 / 2, "{total:?}");
}
