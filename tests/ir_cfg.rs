//! Control flow against `llvm-dis-22`: every block's successors ([`Body::successors`])
//! are the `label` operands of its terminator in the text (in LLVM's `successors` order),
//! and its predecessors ([`Bodies::predecessors`]) are its `; preds =` list, in order, on
//! real modules (rustc 1.95's, LLVM 14's instruction test file) read as LLVM 22 reads them.

mod common;

use std::collections::HashMap;
use std::path::Path;

use llvm_bitstream_reader::ir::view::Listed;
use llvm_bitstream_reader::ir::{Bodies, Body, Module};

/// One block of a definition in the text: its label (`None` for an unnamed entry block),
/// its `; preds =` labels, the `label %x` operands of its terminator.
#[derive(Debug)]
struct TextBlock {
    label: Option<String>,
    preds: Vec<String>,
    targets: Vec<String>,
}

/// A `%name` or `%"quoted name"` at the start of `s`, and the rest.
fn local_name(s: &str) -> Option<(String, &str)> {
    let s = s.strip_prefix('%')?;
    if let Some(q) = s.strip_prefix('"') {
        let end = q.find('"')?;
        return Some((format!("\"{}\"", &q[..end]), &q[end + 1..]));
    }
    let end = s.find(|c: char| !(c.is_ascii_alphanumeric() || "-_.$".contains(c))).unwrap_or(s.len());
    Some((s[..end].to_owned(), &s[end..]))
}

/// A label line (`name:` or `"quoted":`, with its `; preds = …`), split.
fn label_line(line: &str) -> Option<(String, Vec<String>)> {
    if line.starts_with(' ') || line.starts_with(';') || line.starts_with('}') || line.is_empty() {
        return None;
    }
    let (label, rest) = if let Some(q) = line.strip_prefix('"') {
        let end = q.find("\":")?;
        (format!("\"{}\"", &q[..end]), &q[end + 2..])
    } else {
        let (label, rest) = line.split_once(':')?;
        (label.to_owned(), rest)
    };
    let mut preds = Vec::new();
    if let Some((_, list)) = rest.split_once("; preds = ") {
        let mut s = list;
        while let Some((name, rest)) = local_name(s) {
            preds.push(name);
            s = rest.strip_prefix(", ").unwrap_or("");
        }
    }
    Some((label, preds))
}

/// The definitions of a text, each as its blocks.
fn text_cfgs(text: &str) -> Vec<Vec<TextBlock>> {
    let mut out = Vec::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        if !line.starts_with("define ") {
            continue;
        }
        let mut blocks: Vec<TextBlock> = Vec::new();
        let mut terminator = String::new();
        let finish = |blocks: &mut Vec<TextBlock>, terminator: &mut String| {
            if let Some(b) = blocks.last_mut() {
                let mut s = terminator.as_str();
                while let Some(at) = s.find("label %") {
                    let (name, rest) = local_name(&s[at + 6..]).unwrap();
                    b.targets.push(name);
                    s = rest;
                }
                if terminator.trim_start().contains("catchswitch within") && terminator.contains("] unwind label") {
                    // `CatchSwitchInst::getSuccessor(0)` is the unwind destination.
                    let unwind = b.targets.pop().unwrap();
                    b.targets.insert(0, unwind);
                }
            }
            terminator.clear();
        };
        for line in lines.by_ref() {
            if line == "}" {
                finish(&mut blocks, &mut terminator);
                break;
            }
            if let Some((label, preds)) = label_line(line) {
                finish(&mut blocks, &mut terminator);
                blocks.push(TextBlock { label: Some(label), preds, targets: Vec::new() });
                continue;
            }
            if blocks.is_empty() {
                blocks.push(TextBlock { label: None, preds: Vec::new(), targets: Vec::new() });
            }
            // An instruction starts with two spaces; what follows it with more (a switch's
            // cases) or a `]` is still it. Debug records (four spaces) come before theirs.
            let starts = line.starts_with("  ") && !line.starts_with("   ") && !line.starts_with("  ]");
            if starts {
                terminator = line.to_owned();
            } else if !line.trim_start().starts_with("#dbg_") && !line.trim_start().starts_with(';') {
                terminator.push_str(line);
            }
        }
        out.push(blocks);
    }
    out
}

/// Compares one module's control flow with the text; the number of edges checked.
fn compare(file: &Path, text: &str) -> usize {
    let bytes = std::fs::read(file).unwrap();
    let module = Module::parse(&bytes).unwrap();
    let bodies = module.bodies().unwrap();
    let view = bodies.view(22);
    let mut cfgs = text_cfgs(text).into_iter();
    let mut edges = 0;
    for &listed in view.function_order() {
        let Listed::Function(index) = listed else { continue };
        let Some(body) = view.body(index).unwrap() else { continue };
        let theirs = cfgs.next().expect("as many definitions in the text");
        let what = format!("{} @{}", file.display(), String::from_utf8_lossy(view.function_name(index).unwrap()));
        edges += compare_function(&bodies, &body, &theirs, &what);
    }
    assert!(cfgs.next().is_none(), "{}: more definitions in the text", file.display());
    edges
}

fn compare_function(bodies: &Bodies<'_, '_>, body: &Body, theirs: &[TextBlock], what: &str) -> usize {
    assert_eq!(body.blocks.len(), theirs.len(), "{what}: blocks");
    let index: HashMap<&str, u32> =
        theirs.iter().enumerate().filter_map(|(i, b)| Some((b.label.as_deref()?, i as u32))).collect();
    // An unnamed entry block prints no label; the text names it by its slot (`%0`).
    let entry_slot = |n: &str| theirs[0].label.is_none() && n.bytes().all(|c| c.is_ascii_digit());
    let named = |names: &[String]| -> Vec<u32> {
        let block = |n: &String| match index.get(n.as_str()) {
            Some(&i) => i,
            None if entry_slot(n) => 0,
            None => panic!("{what}: no block {n} in {index:?}"),
        };
        names.iter().map(block).collect()
    };
    let preds = bodies.predecessors(body);
    let mut edges = 0;
    for (b, text) in theirs.iter().enumerate() {
        let successors: Vec<u32> = body.successors(b).collect();
        assert_eq!(successors, named(&text.targets), "{what}: successors of block {b} ({:?})", text.label);
        assert_eq!(preds[b], named(&text.preds), "{what}: predecessors of block {b} ({:?})", text.label);
        assert!(body.terminator(b).is_some(), "{what}: block {b} has no terminator");
        edges += successors.len();
    }
    edges
}

#[test]
fn successors_and_predecessors_are_llvm_dis_22s() {
    let Some(llvm_dis) = common::llvm_tool("llvm-dis", 22) else { return };
    let mut edges = 0;
    let files = common::testdata_and_libclc_22(&[
        "rustc_llvm22_o3.bc",
        "rustc_llvm22_o0_debuginfo.bc",
        "llvm14_ir_instructions.bc",
    ]);
    for file in files {
        let name = file.display();
        let out = std::process::Command::new(&llvm_dis).arg(&file).arg("-o").arg("-").output().unwrap();
        assert!(out.status.success(), "llvm-dis-22 {name}");
        edges += compare(&file, &String::from_utf8(out.stdout).unwrap());
    }
    // Some thousands of edges: the files have real control flow.
    assert!(edges > 1000, "{edges} edges");
    eprintln!("{edges} edges checked");
}
