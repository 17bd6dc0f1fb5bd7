//! The typed debug info (`ir::DebugInfo`) against `llvm-dis` of the file's LLVM: every
//! defined function's `!DISubprogram` (name, linkage name, file, line), every
//! instruction's `!DILocation` with its whole inlined-at chain (line and column at each
//! step), the compile units' files and producers, and the variables of every
//! `#dbg_declare`/`#dbg_value` record or `llvm.dbg.*` call, read from the text `llvm-dis`
//! prints. Files: `testdata/llvm14_ir_debuginfo.bc` (llvm-dis 14), the O0 debug build
//! `testdata/rustc_llvm22_o0_debuginfo.bc` (llvm-dis 22). And the debug-info records no
//! corpus file holds (`!DIFixedPointType`, `!GenericDINode`), assembled here by
//! `llvm-as-22` and printed whole as `llvm-dis-22` prints them.

mod common;

use std::collections::HashMap;
use std::path::Path;
use std::process::Command;

use llvm_bitstream_reader::ids::llvm_ir::raw as ids;
use llvm_bitstream_reader::ir::{DebugInfo, DebugLoc, DisOptions, MetadataNode, Module};

/// `llvm-dis` text: each `!N = …` node line by N, and each function's lines.
struct Text {
    nodes: HashMap<u64, String>,
    /// Function name → (the `define` line, its instruction lines, its debug-record lines).
    functions: HashMap<String, (String, Vec<String>, Vec<String>)>,
}

fn parse(text: &str) -> Text {
    let mut nodes = HashMap::new();
    let mut functions = HashMap::new();
    let mut current: Option<(String, String, Vec<String>, Vec<String>)> = None;
    for line in text.lines() {
        if let Some((name, define, insts, records)) = &mut current {
            if line == "}" {
                functions.insert(
                    std::mem::take(name),
                    (std::mem::take(define), std::mem::take(insts), std::mem::take(records)),
                );
                current = None;
            } else if line.starts_with("    #dbg_") {
                records.push(line.to_string());
            } else if line.trim_start().starts_with("to label ") || line.starts_with("  ]") {
                // An invoke's second line, or a switch's last: with its attachments.
                if let Some(last) = insts.last_mut() {
                    last.push_str(line);
                }
            } else if line.starts_with("  ") && !line[2..].starts_with([' ', ']']) {
                // An instruction (not a switch case, a `]` or a landingpad clause).
                insts.push(line.to_string());
            }
        } else if line.starts_with("define ") {
            let at = line.find(" @").expect("a define names its function") + 2;
            let name: String = line[at..].chars().take_while(|&c| c != '(').collect();
            current = Some((name.trim_matches('"').to_string(), line.to_string(), Vec::new(), Vec::new()));
        } else if let Some(rest) = line.strip_prefix('!') {
            if let Some((n, body)) = rest.split_once(" = ") {
                if let Ok(n) = n.parse::<u64>() {
                    nodes.insert(n, body.to_string());
                }
            }
        }
    }
    Text { nodes, functions }
}

/// The value of `field: ` in a node's text: a number, a `!N` reference or a string.
fn field<'t>(node: &'t str, name: &str) -> Option<&'t str> {
    let key = format!("{name}: ");
    let mut search = node;
    loop {
        let at = search.find(&key)?;
        // Not the tail of a longer field name (`line:` in `scopeLine:`).
        let before = search[..at].chars().last();
        search = &search[at + key.len()..];
        if matches!(before, Some('(' | ' ')) {
            break;
        }
    }
    Some(if let Some(s) = search.strip_prefix('"') {
        &s[..s.find('"').unwrap_or(s.len())]
    } else {
        &search[..search.find([',', ')']).unwrap_or(search.len())]
    })
}

fn reference(text: &str) -> Option<u64> {
    text.strip_prefix('!')?.parse().ok()
}

/// The `!dbg !N` of an instruction line.
fn dbg_of(line: &str) -> Option<u64> {
    let at = line.find("!dbg !")? + 6;
    line[at..].chars().take_while(char::is_ascii_digit).collect::<String>().parse().ok()
}

/// `(line, column)` of a location and every location it was inlined at, from the text.
fn their_chain(text: &Text, mut id: u64) -> Vec<(u32, u32)> {
    let mut chain = Vec::new();
    for _ in 0..1000 {
        let node = &text.nodes[&id];
        assert!(node.trim_start_matches("distinct ").starts_with("!DILocation("), "!{id} is {node}");
        let n = |f| field(node, f).map_or(0, |v| v.parse().unwrap());
        chain.push((n("line"), n("column")));
        match field(node, "inlinedAt").and_then(reference) {
            Some(next) => id = next,
            None => break,
        }
    }
    chain
}

fn our_chain(info: &DebugInfo<'_>, loc: DebugLoc) -> Vec<(u32, u32)> {
    info.inlining_chain(loc).map(|l| (l.line, l.column)).collect()
}

fn check(file: &Path, major: u32) {
    let Some(llvm_dis) = common::llvm_tool("llvm-dis", major) else { return };
    let out = Command::new(&llvm_dis).arg(file).arg("-o").arg("-").output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = parse(&String::from_utf8(out.stdout).unwrap());
    let bytes = std::fs::read(file).unwrap();
    let module = Module::parse(&bytes).unwrap();
    let bodies = module.bodies().unwrap();
    let metadata = module.metadata().unwrap();
    let dbg_kind = metadata.kinds().find(|(_, name)| *name == b"dbg").map(|(id, _)| id).unwrap();
    let label = file.file_name().unwrap().to_string_lossy();

    // Compile units: the file and the producer.
    let module_info = bodies.debug_info(None);
    let units: Vec<_> = module_info.compile_units().collect();
    assert!(!units.is_empty(), "{label}: no compile unit");
    for cu in &units {
        let node = text
            .nodes
            .values()
            .find(|n| n.contains("!DICompileUnit(") && field(n, "producer").map(str::as_bytes) == Some(cu.producer));
        let node = node.unwrap_or_else(|| panic!("{label}: no DICompileUnit with our producer"));
        let file_node = &text.nodes[&reference(field(node, "file").unwrap()).unwrap()];
        assert_eq!(field(file_node, "filename").unwrap().as_bytes(), cu.file.unwrap().filename, "{label}");
    }
    // The module's files, and below (`files`) the ones only a function uses, which the
    // writer puts in that function's metadata block.
    let mut files = module_info.files().count();
    let their_files = text.nodes.values().filter(|n| n.trim_start_matches("distinct ").starts_with("!DIFile(")).count();

    let (mut functions, mut locations, mut inlined, mut variables) = (0, 0, 0, 0);
    for (index, f) in module.functions.iter().enumerate() {
        if f.is_declaration {
            continue;
        }
        let name = f.common.name_str().into_owned();
        let (define, insts, records) = &text.functions[&name];
        // As LLVM 14 reads it, which llvm-dis-14 prints (`Bodies::body` is LLVM 22's).
        let body = bodies.view(14).body(index).unwrap().unwrap();
        let info = bodies.debug_info(Some(&body));
        files += info.files().filter(|&(id, _)| id >= metadata.len()).count();
        // The function's subprogram.
        if let Some(their) = dbg_of(define) {
            let node = &text.nodes[&their];
            let ours = body
                .attachments
                .iter()
                .find(|a| a.instruction.is_none() && a.kind == dbg_kind)
                .and_then(|a| info.subprogram(a.node))
                .unwrap_or_else(|| panic!("{label} @{name}: llvm-dis has !dbg, we have no subprogram"));
            assert_eq!(field(node, "name").unwrap().as_bytes(), ours.name, "{label} @{name}");
            assert_eq!(field(node, "linkageName").unwrap_or("").as_bytes(), ours.linkage_name, "{label} @{name}");
            assert_eq!(field(node, "line").unwrap().parse::<u32>().unwrap(), ours.line, "{label} @{name}");
            let file = &text.nodes[&reference(field(node, "file").unwrap()).unwrap()];
            assert_eq!(field(file, "filename").unwrap().as_bytes(), ours.file.unwrap().filename, "{label} @{name}");
            functions += 1;
        }
        // Every instruction's location and inlined-at chain.
        assert_eq!(insts.len(), body.instructions.len(), "{label} @{name}: instruction lines");
        for (line, inst) in insts.iter().zip(&body.instructions) {
            let ours = inst.debug_loc.map(|l| body.debug_locs[l as usize]);
            match (dbg_of(line), ours) {
                (None, None) => {}
                (Some(id), Some(loc)) => {
                    let theirs = their_chain(&text, id);
                    assert_eq!(theirs, our_chain(&info, loc), "{label} @{name}: {line}");
                    // The scope's subprogram is a subprogram.
                    let sp = info.subprogram_of_scope(loc.scope.unwrap()).unwrap();
                    assert!(info.subprogram(sp).is_some());
                    locations += 1;
                    inlined += usize::from(theirs.len() > 1);
                }
                (theirs, ours) => panic!("{label} @{name}: {line}: llvm-dis !dbg {theirs:?}, ours {ours:?}"),
            }
        }
        // Variables: each record's or call's variable has the name llvm-dis prints.
        let their_vars: Vec<String> = records
            .iter()
            .chain(insts.iter().filter(|l| l.contains("@llvm.dbg.")))
            .filter(|l| !l.contains("#dbg_label") && !l.contains("@llvm.dbg.label"))
            .map(|l| {
                // The first `!N` operand that is a DILocalVariable.
                let variable = l
                    .match_indices('!')
                    .filter_map(|(at, _)| {
                        l[at + 1..].chars().take_while(char::is_ascii_digit).collect::<String>().parse().ok()
                    })
                    .map(|id: u64| &text.nodes[&id])
                    .find(|n| n.trim_start_matches("distinct ").starts_with("!DILocalVariable("))
                    .unwrap_or_else(|| panic!("{label} @{name}: no variable in {l}"));
                field(variable, "name").unwrap_or("").to_string()
            })
            .collect();
        let our_vars: Vec<String> = bodies
            .variable_locations(&body)
            .iter()
            .map(|v| String::from_utf8_lossy(info.variable(v.variable).unwrap().name).into_owned())
            .collect();
        assert_eq!(their_vars, our_vars, "{label} @{name}: variables");
        variables += our_vars.len();
    }
    assert_eq!(files, their_files, "{label}: DIFile nodes");
    assert!(functions > 0 && locations > 0 && variables > 0, "{label}: nothing compared");
    eprintln!(
        "{label}: {} compile units, {files} files, {functions} subprograms, {locations} locations ({inlined} inlined), \
         {variables} variable locations identical to llvm-dis {major}",
        units.len()
    );
}

fn testdata(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata").join(name)
}

#[test]
fn debug_info_matches_llvm_dis_14() {
    check(&testdata("llvm14_ir_debuginfo.bc"), 14);
}

#[test]
fn debug_info_matches_llvm_dis_22() {
    check(&testdata("rustc_llvm22_o0_debuginfo.bc"), 22);
}

/// Debug-info nodes of the two record codes no corpus file holds: METADATA_FIXED_POINT_TYPE
/// (`!DIFixedPointType`, LLVM 21+) of each kind, and METADATA_GENERIC_DEBUG
/// (`!GenericDINode`), with and without operands.
const FIXED_POINT_LL: &str = r#"source_filename = "fixed_point.c"

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2}
!named = !{!3, !4, !5, !6, !7}

!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "hand", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "fixed_point.c", directory: "/d")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = !DIFixedPointType(name: "binary", size: 32, align: 32, encoding: DW_ATE_signed_fixed, kind: Binary, factor: -4)
!4 = !DIFixedPointType(name: "decimal", size: 16, encoding: DW_ATE_unsigned_fixed, flags: DIFlagArtificial, kind: Decimal, factor: 3)
!5 = !DIFixedPointType(name: "rational", size: 64, align: 64, encoding: DW_ATE_signed_fixed, kind: Rational, numerator: 1234, denominator: -5678)
!6 = !GenericDINode(tag: DW_TAG_entry_point, header: "some header", operands: {!1, null, !0})
!7 = !GenericDINode(tag: DW_TAG_variable)
"#;

/// Records 49 and 12 reach the debug-info decoder (they were once kept as unknown
/// records) and print as `llvm-dis-22` prints them: the whole module, byte for byte.
#[test]
fn fixed_point_and_generic_nodes_print_as_llvm_dis_22() {
    let (Some(llvm_as), Some(llvm_dis)) = (common::llvm_tool("llvm-as", 22), common::llvm_tool("llvm-dis", 22)) else {
        return;
    };
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("ir_debug_fixed_point");
    std::fs::create_dir_all(&dir).unwrap();
    let (ll, bc) = (dir.join("fixed_point.ll"), dir.join("fixed_point.bc"));
    std::fs::write(&ll, FIXED_POINT_LL).unwrap();
    let assembled = Command::new(&llvm_as).arg(&ll).arg("-o").arg(&bc).output().unwrap();
    assert!(assembled.status.success(), "llvm-as 22: {}", String::from_utf8_lossy(&assembled.stderr));
    let theirs = Command::new(&llvm_dis).arg(&bc).arg("-o").arg("-").output().unwrap();
    assert!(theirs.status.success(), "llvm-dis 22: {}", String::from_utf8_lossy(&theirs.stderr));
    let theirs = String::from_utf8(theirs.stdout).unwrap();

    let bytes = std::fs::read(&bc).unwrap();
    let module = Module::parse(&bytes).unwrap();
    let metadata = module.metadata().unwrap();
    let codes: Vec<u32> = (0..metadata.len())
        .filter_map(|id| match metadata.node(id) {
            Some(MetadataNode::Debug { code, .. }) => Some(code),
            _ => None,
        })
        .collect();
    for code in [ids::METADATA_FIXED_POINT_TYPE, ids::METADATA_GENERIC_DEBUG] {
        assert!(codes.contains(&code), "record {code} is not a debug-info node: {codes:?}");
    }
    assert_eq!(metadata.unknown_records(), 0);
    let bodies = module.bodies().unwrap();
    let module_id = bc.display().to_string();
    let ours = bodies.display_module(DisOptions { llvm_version: 22 }).with_module_id(&module_id).to_string();
    assert!(ours.contains("!DIFixedPointType(") && ours.contains("!GenericDINode("), "{ours}");
    assert_eq!(ours, theirs);
}
