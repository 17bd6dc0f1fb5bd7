//! `--summary` against `llvm-dis` (LLVM 14): the triple, datalayout and source file name
//! it prints, and the numbers of `define`, `declare` and global variable lines, on every
//! single-module testdata file LLVM 14 can read; `--format json` is one object per module.

mod common;

use std::path::Path;
use std::process::Command;

use common::{BIN, testdata, testdata_files};

fn llvm_dis14() -> Option<std::path::PathBuf> {
    let out = Command::new("llvm-config-14").arg("--bindir").output().ok()?;
    let tool = Path::new(String::from_utf8_lossy(&out.stdout).trim()).join("llvm-dis");
    tool.exists().then_some(tool)
}

fn summary_json(file: &Path) -> Vec<serde_json::Value> {
    let out = Command::new(BIN).args(["--summary", "--format", "json"]).arg(file).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object a line"))
        .collect()
}

#[test]
fn summary_agrees_with_llvm_dis_14() {
    let Some(dis) = llvm_dis14() else {
        common::skip_or_fail::<()>("llvm-dis of LLVM 14 not found (llvm-config-14 --bindir)");
        return;
    };
    let mut compared = 0;
    for file in testdata_files() {
        if file.extension().is_none_or(|e| e != "bc") {
            continue;
        }
        let modules = summary_json(&file);
        if modules.len() != 1 {
            // llvm-dis would write each module to a file of its own ("-.0", "-.1", …).
            eprintln!("skipping {}: llvm-dis prints only single-module files to stdout", file.display());
            continue;
        }
        let out = Command::new(&dis).arg(&file).args(["-o", "-"]).output().unwrap();
        if !out.status.success() || out.stdout.is_empty() {
            eprintln!("skipping {}: llvm-dis 14 cannot print it to stdout", file.display());
            continue;
        }
        let text = String::from_utf8_lossy(&out.stdout);
        let m = &modules[0];
        let quoted = |prefix: &str| {
            text.lines().find_map(|l| l.strip_prefix(prefix)).map(|v| v.trim_end_matches('"').to_string())
        };
        let name = file.display();
        assert_eq!(m["target_triple"].as_str().map(str::to_string), quoted("target triple = \""), "{name}");
        assert_eq!(m["datalayout"].as_str().map(str::to_string), quoted("target datalayout = \""), "{name}");
        // Without SOURCE_FILENAME (files before LLVM 3.9) LLVM names the module after the input.
        let source = m["source_filename"].as_str().map_or_else(|| file.display().to_string(), str::to_string);
        assert_eq!(Some(source), quoted("source_filename = \""), "{name}");
        let count = |p: &str| text.lines().filter(|l| l.starts_with(p)).count() as u64;
        assert_eq!(m["functions"].as_u64(), Some(count("define ")), "{name}");
        assert_eq!(m["declarations"].as_u64(), Some(count("declare ")), "{name}");
        let globals = text
            .lines()
            .filter(|l| l.starts_with('@') && (l.contains(" global ") || l.contains(" constant ")))
            .filter(|l| !l.contains(" alias ") && !l.contains(" ifunc "))
            .count() as u64;
        assert_eq!(m["globals"].as_u64(), Some(globals), "{name}");
        let bodies = m["largest_function_bodies"].as_array().unwrap();
        assert!(bodies.windows(2).all(|w| w[0]["bits"].as_u64() >= w[1]["bits"].as_u64()), "{name}: sorted");
        assert!(bodies.len() as u64 == count("define ").min(20), "{name}");
        compared += 1;
    }
    assert!(compared >= 6, "{compared} files compared");
}

#[test]
fn summary_text_lists_each_module() {
    let out = Command::new(BIN).arg("--summary").arg(testdata("llvm14_multi_module_cat.bc")).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.matches(": module ").count(), 3);
    // Debug info: the third module (llvm14_ir_debuginfo) has some, the others none.
    let modules = summary_json(&testdata("llvm14_multi_module_cat.bc"));
    let debug: Vec<u64> = modules.iter().map(|m| m["debug_info_bits"].as_u64().unwrap()).collect();
    assert!(debug[0] == 0 && debug[2] > 0, "{debug:?}");
    for m in &modules {
        assert!(m["debug_info_bits"].as_u64() <= m["metadata_bits"].as_u64());
        assert!(m["metadata_bits"].as_u64() <= m["module_bits"].as_u64());
    }
}
