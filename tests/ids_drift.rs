//! The generated ids (`src/ids/generated.rs`) against what they are generated from.
//!
//! - Drift from LLVM 14: every enumerator the installed LLVM 14 headers define
//!   (`llvm/Bitcode/LLVMBitCodes.h`, and `llvm/Bitstream/BitCodes.h`, which LLVM 17 split into
//!   `BitCodeEnums.h`) must have the same value, in the same enum, among our constants. What
//!   newer LLVM renamed or renumbered is listed in [`LLVM14_DIFFERENCES`], each with its
//!   reason; any other difference, or a listed one that no longer occurs, fails.
//! - The generator: `tools/gen-ids/gen.py check` must reproduce `src/ids/generated.rs` byte
//!   for byte from the checked-in inputs.
//!
//! A missing `llvm-config-14` or `python3` skips the test with the reason printed, and fails
//! it under `CI=true`.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use llvm_bitstream_reader::ids::{self, Enumerator};

/// How LLVM 14's enumerators differ from ours, on purpose: (enumerator, what LLVM 14 says,
/// why). Every one must still occur.
const LLVM14_DIFFERENCES: &[(&str, &str, &str)] = &[
    (
        "CST_CODE_CE_GEP",
        "ConstantsCodes = 12",
        "LLVM 19 renamed code 12 CST_CODE_CE_GEP_OLD and gave CST_CODE_CE_GEP the new code 32",
    ),
    (
        "CST_CODE_CE_GEP_WITH_INRANGE_INDEX",
        "ConstantsCodes = 24",
        "LLVM 19 renamed it CST_CODE_CE_GEP_WITH_INRANGE_INDEX_OLD (still 24)",
    ),
];

/// Enums of LLVM 14's headers that are not generated, and why.
const NOT_GENERATED: &[(&str, &str)] = &[(
    "Encoding",
    "BitCodeAbbrevOp::Encoding, a class member in BitCodes.h: abbreviation operand encodings, \
     which abbrev.rs decodes (crate::AbbrevOp)",
)];

/// Strips `//` and `/* */` comments (enums hold no string literals).
fn strip_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix("//") {
            rest = after.find('\n').map_or("", |i| &after[i..]);
        } else if let Some(after) = rest.strip_prefix("/*") {
            rest = after.find("*/").map_or("", |i| &after[i + 2..]);
            out.push(' ');
        } else {
            let c = rest.chars().next().unwrap();
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    out
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Num(i64),
    Op(String),
}

/// Evaluates an enumerator's initializer: integers, names (namespace-qualified or not),
/// `+ - * << >> | &` and parentheses.
fn eval(expr: &str, env: &BTreeMap<String, i64>) -> Result<i64, String> {
    let mut toks = Vec::new();
    let b = expr.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i] as char;
        if c.is_whitespace() {
            i += 1;
        } else if c.is_ascii_digit() {
            let start = i;
            while i < b.len() && (b[i] as char).is_ascii_alphanumeric() {
                i += 1;
            }
            let lit = expr[start..i].trim_end_matches(['u', 'U', 'l', 'L']);
            let v = match lit.strip_prefix("0x").or_else(|| lit.strip_prefix("0X")) {
                Some(hex) => i64::from_str_radix(hex, 16),
                None => lit.parse(),
            }
            .map_err(|e| format!("{lit}: {e}"))?;
            toks.push(Tok::Num(v));
        } else if c.is_ascii_alphabetic() || c == '_' {
            let start = i;
            while i < b.len() && ((b[i] as char).is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b':') {
                i += 1;
            }
            let name = expr[start..i].rsplit("::").next().unwrap();
            toks.push(Tok::Num(*env.get(name).ok_or_else(|| format!("unknown name {name} in {expr:?}"))?));
        } else if expr[i..].starts_with("<<") || expr[i..].starts_with(">>") {
            toks.push(Tok::Op(expr[i..i + 2].to_string()));
            i += 2;
        } else if "+-*|&()".contains(c) {
            toks.push(Tok::Op(c.to_string()));
            i += 1;
        } else {
            return Err(format!("cannot read {expr:?}"));
        }
    }
    fn prec(op: &str) -> Option<u8> {
        Some(match op {
            "|" => 1,
            "&" => 2,
            "<<" | ">>" => 3,
            "+" | "-" => 4,
            "*" => 5,
            _ => return None,
        })
    }
    fn primary(t: &[Tok], i: &mut usize) -> Result<i64, String> {
        match t.get(*i) {
            Some(Tok::Num(v)) => {
                *i += 1;
                Ok(*v)
            }
            Some(Tok::Op(o)) if o == "(" => {
                *i += 1;
                let v = climb(t, i, 0)?;
                if t.get(*i) != Some(&Tok::Op(")".into())) {
                    return Err("unbalanced parentheses".into());
                }
                *i += 1;
                Ok(v)
            }
            Some(Tok::Op(o)) if o == "-" => {
                *i += 1;
                Ok(-primary(t, i)?)
            }
            other => Err(format!("unexpected {other:?}")),
        }
    }
    fn climb(t: &[Tok], i: &mut usize, min: u8) -> Result<i64, String> {
        let mut lhs = primary(t, i)?;
        while let Some(Tok::Op(op)) = t.get(*i) {
            let Some(p) = prec(op).filter(|&p| p >= min) else { break };
            let op = op.clone();
            *i += 1;
            let rhs = climb(t, i, p + 1)?;
            lhs = match op.as_str() {
                "|" => lhs | rhs,
                "&" => lhs & rhs,
                "<<" => lhs << rhs,
                ">>" => lhs >> rhs,
                "+" => lhs + rhs,
                "-" => lhs - rhs,
                _ => lhs * rhs,
            };
        }
        Ok(lhs)
    }
    let mut at = 0;
    let v = climb(&toks, &mut at, 0)?;
    if at != toks.len() {
        return Err(format!("trailing tokens in {expr:?}"));
    }
    Ok(v)
}

/// Every named, unscoped enum of a header, with its enumerators' values; `env` resolves
/// names from earlier headers and learns these.
fn parse_enums(text: &str, env: &mut BTreeMap<String, i64>) -> Vec<(String, Vec<(String, i64)>)> {
    let text = strip_comments(text);
    let mut out = Vec::new();
    let mut rest = text.as_str();
    while let Some(at) = rest.find("enum") {
        let before_ok = rest[..at].chars().next_back().is_none_or(|c| !(c.is_alphanumeric() || c == '_'));
        let after = &rest[at + 4..];
        rest = after;
        if !before_ok || !after.starts_with(|c: char| c.is_whitespace() || c == '{') {
            continue;
        }
        let Some(open) = after.find('{') else { break };
        let head = after[..open].trim();
        let Some(close) = after[open..].find('}') else { break };
        let body = &after[open + 1..open + close];
        rest = &after[open + close + 1..];
        let name = head.split(':').next().unwrap().trim();
        if name.is_empty() || name.starts_with("class ") || name.starts_with("struct ") || body.contains('#') {
            continue;
        }
        assert!(name.chars().all(|c| c.is_alphanumeric() || c == '_'), "cannot read enum head {head:?}");
        let mut items = Vec::new();
        let mut next = 0;
        for part in body.split(',') {
            let part = part.trim();
            if part.is_empty() {
                continue;
            }
            let (ident, value) = match part.split_once('=') {
                Some((ident, expr)) => (ident.trim(), eval(expr, env).unwrap_or_else(|e| panic!("{name}: {e}"))),
                None => (part, next),
            };
            env.insert(ident.to_string(), value);
            items.push((ident.to_string(), value));
            next = value + 1;
        }
        out.push((name.to_string(), items));
    }
    out
}

fn llvm14_includedir() -> Option<PathBuf> {
    match Command::new("llvm-config-14").arg("--includedir").output() {
        Ok(out) if out.status.success() => Some(PathBuf::from(String::from_utf8_lossy(&out.stdout).trim().to_string())),
        Ok(out) => common::skip_or_fail(&format!("llvm-config-14 --includedir failed: {:?}", out.status)),
        Err(e) => common::skip_or_fail(&format!("llvm-config-14 not found ({e}); install llvm-14-dev")),
    }
}

/// One difference between LLVM 14 and our constants.
fn describe(theirs_enum: &str, theirs: i64, ours: Option<&Enumerator>) -> Option<String> {
    match ours {
        None => Some("missing".to_string()),
        Some(o) if i64::from(o.value) != theirs => Some(format!("ours is {} = {}", o.enumeration, o.value)),
        Some(o) if o.enumeration != theirs_enum => Some(format!("ours is in {}", o.enumeration)),
        Some(_) => None,
    }
}

#[test]
fn llvm14_enumerators_have_our_values() {
    let Some(include) = llvm14_includedir() else { return };
    let bitstream = {
        let split = include.join("llvm/Bitstream/BitCodeEnums.h");
        if split.exists() { split } else { include.join("llvm/Bitstream/BitCodes.h") }
    };
    let headers: [(&Path, &[Enumerator]); 2] = [
        (&bitstream, ids::bitstream::ENUMERATORS),
        (&include.join("llvm/Bitcode/LLVMBitCodes.h"), ids::llvm_ir::ENUMERATORS),
    ];
    let mut env = BTreeMap::new();
    let mut found: Vec<(String, String)> = Vec::new();
    let (mut compared, mut enums) = (0, 0);
    for (path, ours) in headers {
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let generated: Vec<&str> = ours.iter().map(|e| e.enumeration).collect();
        for (name, items) in parse_enums(&text, &mut env) {
            if !generated.contains(&name.as_str()) {
                assert!(
                    NOT_GENERATED.iter().any(|(n, _)| *n == name),
                    "{}: LLVM 14's enum {name} is not generated and not listed in NOT_GENERATED",
                    path.display()
                );
                continue;
            }
            enums += 1;
            for (ident, value) in items {
                compared += 1;
                let ours = ours.iter().find(|e| e.name == ident);
                if let Some(what) = describe(&name, value, ours) {
                    found.push((ident.clone(), format!("{name} = {value}: {what}")));
                }
            }
        }
    }
    assert!(enums >= 20 && compared >= 300, "parsed too little of LLVM 14: {enums} enums, {compared} enumerators");
    for (ident, what) in &found {
        println!("LLVM 14 differs: {ident} ({what})");
    }
    for (ident, what) in &found {
        assert!(
            LLVM14_DIFFERENCES.iter().any(|(n, _, _)| n == ident),
            "{ident}: LLVM 14 says {what}; fix the generator or list it in LLVM14_DIFFERENCES"
        );
    }
    for (ident, theirs, why) in LLVM14_DIFFERENCES {
        let hit = found.iter().find(|(n, _)| n == ident);
        assert!(hit.is_some(), "{ident} ({why}) no longer differs from LLVM 14: drop it from LLVM14_DIFFERENCES");
        assert!(
            hit.unwrap().1.starts_with(theirs),
            "{ident}: expected LLVM 14 to say {theirs}, got {}",
            hit.unwrap().1
        );
    }
    println!("{enums} enums, {compared} enumerators of LLVM 14 compared; {} listed differences", found.len());
}

#[test]
fn the_parser_reads_what_llvm_writes() {
    let mut env = BTreeMap::from([("FIRST_APPLICATION_BLOCKID".to_string(), 8)]);
    let enums = parse_enums(
        "// enum Commented { A = 1 };\nenum BlockIDs {\n  MODULE_BLOCK_ID = FIRST_APPLICATION_BLOCKID, // x\n  \
         PARAMATTR_BLOCK_ID,\n  /* y */ LAST = 0x10U\n};\nenum class Scoped { Z };\nenum Flags { F = (1 << 3) | 1 };\n\
         enum { ANON = 0 };\nstruct Wrap { enum Encoding { Fixed = 1, VBR = 2 }; };",
        &mut env,
    );
    let names: Vec<&str> = enums.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["BlockIDs", "Flags", "Encoding"]);
    assert_eq!(enums[0].1, [("MODULE_BLOCK_ID".into(), 8), ("PARAMATTR_BLOCK_ID".into(), 9), ("LAST".into(), 16)]);
    assert_eq!(enums[1].1, [("F".to_string(), 9)]);
    assert_eq!(eval("llvm::bitc::FIRST_APPLICATION_BLOCKID + 2 * 3", &env), Ok(14));
    assert!(eval("UNKNOWN", &env).is_err());
}

#[test]
fn the_generator_reproduces_generated_rs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let python = match Command::new("python3").arg("--version").output() {
        Ok(o) if o.status.success() => "python3",
        _ => return common::skip_or_fail("python3 not found: cannot re-run tools/gen-ids/gen.py").unwrap_or(()),
    };
    let out = Command::new(python).arg("tools/gen-ids/gen.py").arg("check").current_dir(root).output().unwrap();
    let said = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    print!("{said}");
    assert!(out.status.success(), "tools/gen-ids/gen.py check failed:\n{said}");
}
