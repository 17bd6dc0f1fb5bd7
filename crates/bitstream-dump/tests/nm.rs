//! `bitstream-dump --nm --llvm-nm-version N` against `llvm-nm` N (14, 19 and 22), byte for
//! byte, native and bitcode symbols alike: on every testdata bitcode file and container,
//! on archives built here from clang bitcode, on rlibs built here with rustc, on modules
//! in LLVM 3.x/4.0 layouts written here (`tests/common/old_bitcode.rs`), on a module with
//! a width-0 block; with `--defined-only`, `--undefined-only` and `--extern-only` too, and
//! the formats and sorts on some. Then the Rust sysroot's archives whole against
//! `llvm-nm` 22, and Debian's libclc 14, 19 and 22 against `llvm-nm` of each. Also the
//! SYMTAB view against `llvm-lto2 dump-symtab` (LLVM 14).
//!
//! Where an `llvm-nm` cannot read a file (LLVM 14 and opaque pointers, LLVM 19 and
//! attribute kinds of LLVM 22, LLVM 22 and LLVM 14's `icmp` constant expressions, a crash
//! on concatenated sections), the test says so and checks that we read it.

mod common;
#[path = "../../../tests/common/old_bitcode.rs"]
mod old_bitcode;

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::{BIN, llvm_tool, skip_or_fail, testdata, testdata_files};
use llvm_bitstream_reader::container::ContainerFile;
use llvm_bitstream_reader::ids::llvm_ir;
use llvm_bitstream_reader::ir::ComdatSelection;
use llvm_bitstream_reader::ir::Inventory;
use llvm_bitstream_reader::ir::symtab::Symtab;
use llvm_bitstream_reader::{Bitstream, Entry};

/// The option sets every input is listed with.
const FILTERS: [&[&str]; 4] = [&[], &["--defined-only"], &["--undefined-only"], &["--extern-only"]];

/// The option sets of the output formats and sorts, for the inputs that cover them.
/// (`-a` is only for native symbols: with it `llvm-nm` also lists the intrinsics a module
/// declares, under the names its version's auto-upgrade gives them.)
const FORMATS: [&[&str]; 11] = [
    &["-S"],
    &["-P"],
    &["-j"],
    &["-A"],
    &["-A", "-P"],
    &["-r"],
    &["-p"],
    &["-n"],
    &["--size-sort"],
    &["-S", "--size-sort"],
    &["-g", "-S", "-r"],
];

struct Run {
    ok: bool,
    stdout: Vec<u8>,
    stderr: String,
}

fn run(program: &Path, args: &[OsString]) -> Run {
    let out = Command::new(program).args(args).output().expect("the program runs");
    Run { ok: out.status.success(), stdout: out.stdout, stderr: String::from_utf8_lossy(&out.stderr).into_owned() }
}

fn ours(args: &[OsString]) -> Run {
    let mut all = vec![OsString::from("--nm")];
    all.extend(args.iter().cloned());
    run(Path::new(BIN), &all)
}

/// An nm listing cut at its headers (`\nNAME:\n`): (header, lines); the part before the
/// first header has the header "".
fn sections(out: &[u8]) -> Vec<(Vec<u8>, Vec<Vec<u8>>)> {
    let mut sections = vec![(Vec::new(), Vec::new())];
    let mut lines = out.split(|&b| b == b'\n').peekable();
    while let Some(line) = lines.next() {
        if line.is_empty() {
            match lines.peek() {
                Some(next) if next.ends_with(b":") => {
                    let header = next[..next.len() - 1].to_vec();
                    lines.next();
                    sections.push((header, Vec::new()));
                }
                _ => {}
            }
            continue;
        }
        if let Some(last) = sections.last_mut() {
            last.1.push(line.to_vec());
        }
    }
    if sections.len() > 1 && sections[0].1.is_empty() {
        sections.remove(0);
    }
    sections
}

#[derive(Default)]
struct Tally {
    compared_files: usize,
    identical_lines: usize,
    rejected: Vec<String>,
    failures: Vec<String>,
}

/// Compares our listing of `inputs` (one invocation, `--llvm-nm-version major`) with
/// `llvm-nm`'s: standard output byte for byte, native and bitcode symbols alike, and the
/// `no symbols` notes on standard error.
fn compare(llvm_nm: &Path, major: u32, inputs: &[PathBuf], filters: &[&[&str]], tally: &mut Tally) {
    let label = inputs.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(" ");
    for filter in filters {
        let mut args: Vec<OsString> = filter.iter().map(OsString::from).collect();
        args.extend(inputs.iter().map(|p| p.as_os_str().to_owned()));
        let theirs = run(llvm_nm, &args);
        let mut our_args = vec![OsString::from("--llvm-nm-version"), OsString::from(major.to_string())];
        our_args.extend(args.iter().cloned());
        let ours = ours(&our_args);
        if !theirs.ok {
            let lines = || theirs.stderr.lines().filter(|l| !l.trim().is_empty());
            let why = lines().find(|l| l.contains("error") || l.contains("ERROR")).or(lines().next());
            let why = why.unwrap_or("(no message)").to_string();
            if filter.is_empty() {
                tally.rejected.push(format!("llvm-nm {major} rejects {label}: {why}"));
            }
            // We read what llvm-nm cannot: a listing (a filter may leave it empty).
            if !ours.ok || (filter.is_empty() && ours.stdout.is_empty()) {
                tally
                    .failures
                    .push(format!("{label} {filter:?}: llvm-nm {major} fails ({why}) and so do we: {}", ours.stderr));
            }
            continue;
        }
        if !ours.ok {
            tally.failures.push(format!("{label} {filter:?}: llvm-nm {major} reads it, we fail: {}", ours.stderr));
            continue;
        }
        let (t, o) = (sections(&theirs.stdout), sections(&ours.stdout));
        let headers = |s: &[(Vec<u8>, Vec<Vec<u8>>)]| {
            s.iter().map(|(h, _)| String::from_utf8_lossy(h).into_owned()).collect::<Vec<_>>()
        };
        if headers(&t) != headers(&o) {
            tally.failures.push(format!(
                "{label} {filter:?}: headers differ from llvm-nm {major}:\n  llvm-nm: {:?}\n  ours:    {:?}",
                headers(&t),
                headers(&o)
            ));
            continue;
        }
        for ((header, their_lines), (_, our_lines)) in t.iter().zip(&o) {
            let header = String::from_utf8_lossy(header);
            if their_lines != our_lines {
                let at = their_lines.iter().zip(our_lines).take_while(|(a, b)| a == b).count();
                let show = |l: &[Vec<u8>]| l.get(at).map(|x| String::from_utf8_lossy(x).into_owned());
                tally.failures.push(format!(
                    "{label} {filter:?} [{header}]: differs from llvm-nm {major} at line {at} ({} lines against {}):\n  llvm-nm: {:?}\n  ours:    {:?}",
                    their_lines.len(),
                    our_lines.len(),
                    show(their_lines),
                    show(our_lines)
                ));
                continue;
            }
            tally.identical_lines += our_lines.len();
        }
        // "NAME: no symbols": the same files, in the same order.
        let notes =
            |stderr: &str| stderr.lines().filter(|l| l.ends_with(": no symbols")).map(String::from).collect::<Vec<_>>();
        let (their_notes, our_notes) = (notes(&theirs.stderr), notes(&ours.stderr));
        let strip =
            |n: &[String], tool: &str| n.iter().map(|l| l.trim_start_matches(tool).to_string()).collect::<Vec<_>>();
        if strip(&their_notes, "") != strip(&our_notes, "") {
            tally.failures.push(format!(
                "{label} {filter:?}: 'no symbols' notes differ:\n  llvm-nm: {their_notes:?}\n  ours:    {our_notes:?}"
            ));
        }
        if filter.is_empty() {
            tally.compared_files += 1;
        }
    }
}

/// Every bitcode file and container of testdata, one by one.
fn testdata_inputs() -> Vec<PathBuf> {
    let mut inputs: Vec<PathBuf> =
        testdata_files().into_iter().filter(|p| p.extension().is_some_and(|e| e == "bc")).collect();
    let containers = testdata("containers");
    let mut more: Vec<PathBuf> = std::fs::read_dir(&containers)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file() && matches!(p.extension().and_then(|e| e.to_str()), Some("o" | "obj" | "a" | "bc")))
        .collect();
    more.sort();
    inputs.extend(more);
    inputs
}

/// Every kind of symbol `llvm-nm` tells apart (linkages, visibilities, aliases, an ifunc,
/// unnamed and `\01` names, `llvm.used`, `llvm.metadata`, dllimport, module asm), in
/// LLVM 14's typed-pointer syntax. `llvm-as` writes no SYMTAB: the symbols come from the
/// module records.
const SYMBOL_KINDS_TYPED: &str = r#"target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"
module asm ".globl asm_defined"
module asm "asm_defined: call asm_callee"
@common_var = common global i32 0, align 4
@weak_var = weak global i32 1
@linkonce_var = linkonce_odr global i32 2
@extern_weak_var = extern_weak global i32
@hidden_var = hidden global i32 3
@protected_var = protected constant i32 4
@private_var = private global i32 5
@internal_const = internal constant [3 x i8] c"ab\00"
@available = available_externally global i32 6
@tls_var = thread_local global i32 7
@0 = global i32 8
@1 = internal global i32 9
@"\01raw_name" = global i32 10
@llvm.used = appending global [1 x i8*] [i8* bitcast (void ()* @used_fn to i8*)], section "llvm.metadata"
@meta_var = global i32 11, section "llvm.metadata"
@dllimp = external dllimport global i32
@alias_fn = alias void (), void ()* @defined_fn
@weak_alias = weak alias i32, i32* @hidden_var
@ifunc_fn = ifunc void (), void ()* ()* @resolver
define void @defined_fn() { ret void }
define internal void @used_fn() { ret void }
define void ()* @resolver() { ret void ()* @defined_fn }
define linkonce_odr void @linkonce_fn() { ret void }
define weak void @weak_fn() { ret void }
declare void @declared_fn()
declare extern_weak void @extern_weak_fn()
declare void @llvm.trap()
define void @caller() { call void @declared_fn() call void @extern_weak_fn() call void @llvm.trap() ret void }
"#;

/// The same in opaque-pointer syntax, for `llvm-as-19`.
const SYMBOL_KINDS_OPAQUE: &str = r#"target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"
module asm ".globl asm_defined"
module asm "asm_defined: call asm_callee"
@common_var = common global i32 0, align 4
@weak_var = weak global i32 1
@linkonce_var = linkonce_odr global i32 2
@extern_weak_var = extern_weak global i32
@hidden_var = hidden global i32 3
@protected_var = protected constant i32 4
@private_var = private global i32 5
@internal_const = internal constant [3 x i8] c"ab\00"
@available = available_externally global i32 6
@tls_var = thread_local global i32 7
@0 = global i32 8
@1 = internal global i32 9
@"\01raw_name" = global i32 10
@llvm.used = appending global [1 x ptr] [ptr @used_fn], section "llvm.metadata"
@meta_var = global i32 11, section "llvm.metadata"
@dllimp = external dllimport global i32
@alias_fn = alias void (), ptr @defined_fn
@weak_alias = weak alias i32, ptr @hidden_var
@ifunc_fn = ifunc void (), ptr @resolver
define void @defined_fn() { ret void }
define internal void @used_fn() { ret void }
define ptr @resolver() { ret ptr @defined_fn }
define linkonce_odr void @linkonce_fn() { ret void }
define weak void @weak_fn() { ret void }
declare void @declared_fn()
declare extern_weak void @extern_weak_fn()
declare void @llvm.trap()
define void @caller() { call void @declared_fn() call void @extern_weak_fn() call void @llvm.trap() ret void }
"#;

/// Functions with Microsoft calling conventions (stdcall, fastcall, vectorcall, and
/// vectorcall spelled `cc80`), which LLVM's `Mangler` decorates with `@N` byte counts:
/// sret, byval, varargs, `\01` and `?` names, an alias. `{PTR}` is `ptr` or a typed
/// pointer; `{DL}` and `{TRIPLE}` the target.
const CALLING_CONVENTIONS: &str = r#"target datalayout = "{DL}"
target triple = "{TRIPLE}"
%struct.S = type { i32, i32, i32 }
define x86_stdcallcc void @std0() { ret void }
define x86_stdcallcc void @std_args(i32 %a, i8 %b, double %c) { ret void }
define x86_fastcallcc void @fast_args(i32 %a, i64 %b) { ret void }
define x86_vectorcallcc void @vec_args(i32 %a, double %b, <4 x float> %v) { ret void }
define x86_stdcallcc void @std_sret({PTR_S} sret(%struct.S) %r, i32 %a) { ret void }
define x86_stdcallcc void @std_byval({PTR_S} byval(%struct.S) %s) { ret void }
define x86_fastcallcc void @fast_sret_only({PTR_S} sret(%struct.S) %r, ...) { ret void }
declare x86_stdcallcc void @std_vararg(i32, ...)
declare x86_stdcallcc void @std_vararg_only(...)
declare x86_vectorcallcc void @vec_decl(i64)
declare cc80 void @cc80_decl(i32)
define x86_stdcallcc void @"raw_std"(i32 %a) { ret void }
define x86_stdcallcc void @"?cpp_std@@YGXH@Z"(i32 %a) { ret void }
@alias_std = alias void (i32, i8, double), {PTR_F} @std_args
define void @caller() {
  call x86_stdcallcc void (i32, ...) @std_vararg(i32 1, i32 2)
  call x86_stdcallcc void (...) @std_vararg_only()
  call x86_vectorcallcc void @vec_decl(i64 1)
  call cc80 void @cc80_decl(i32 1)
  ret void
}
"#;

/// [`CALLING_CONVENTIONS`] for 32- and 64-bit x86, Windows and Linux.
fn calling_conventions(opaque: bool) -> Vec<(&'static str, String)> {
    let targets = [
        (
            "cc_win32",
            "i686-pc-windows-msvc",
            "e-m:x-p:32:32-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:32-n8:16:32-a:0:32-S32",
        ),
        (
            "cc_win64",
            "x86_64-pc-windows-msvc",
            "e-m:w-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128",
        ),
        (
            "cc_linux32",
            "i686-unknown-linux-gnu",
            "e-m:e-p:32:32-p270:32:32-p271:32:32-p272:64:64-f64:32:64-f80:32-n8:16:32-S128",
        ),
        (
            "cc_linux64",
            "x86_64-unknown-linux-gnu",
            "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128",
        ),
    ];
    let (ptr_s, ptr_f) = if opaque { ("ptr", "ptr") } else { ("%struct.S*", "void (i32, i8, double)*") };
    targets
        .iter()
        .map(|(name, triple, dl)| {
            let source = CALLING_CONVENTIONS
                .replace("{DL}", dl)
                .replace("{TRIPLE}", triple)
                .replace("{PTR_S}", ptr_s)
                .replace("{PTR_F}", ptr_f);
            (*name, source)
        })
        .collect()
}

/// `source` retargeted at Darwin (where constants are `s`, names get a `_`).
fn darwin(source: &str) -> String {
    source.replace("x86_64-unknown-linux-gnu", "x86_64-apple-macosx10.15.0").replace("e-m:e-", "e-m:o-")
}

/// `source` retargeted at 32-bit Windows (`_` prefixes, `__imp_` names, 8-wide addresses).
fn win32(source: &str) -> String {
    let dl = "e-m:x-p:32:32-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:32-n8:16:32-a:0:32-S32";
    let layout = source.lines().next().unwrap_or_default();
    source
        .replace(layout, &format!("target datalayout = \"{dl}\""))
        .replace("x86_64-unknown-linux-gnu", "i686-pc-windows-msvc")
}

/// Assembles `.ll` sources with `llvm-as` of LLVM `major`.
fn assemble(dir: &Path, major: u32, sources: &[(&str, String)]) -> Vec<PathBuf> {
    let Some(llvm_as) = llvm_tool("llvm-as", major) else { return Vec::new() };
    let mut out = Vec::new();
    for (name, text) in sources {
        let ll = dir.join(format!("{name}.ll"));
        let bc = dir.join(format!("{name}.bc"));
        std::fs::write(&ll, text).unwrap();
        let st = Command::new(&llvm_as).arg(&ll).arg("-o").arg(&bc).status().unwrap();
        assert!(st.success(), "llvm-as-{major} failed on {name}.ll");
        out.push(bc);
    }
    out
}

/// Archives and bitcode built from `testdata/containers/src` with clang-14 and
/// the llvm-ar of the LLVM compared with, and rlibs from rustc: `None` (with the reason printed) without the tools.
fn built_inputs(dir: &Path, major: u32) -> Vec<PathBuf> {
    std::fs::create_dir_all(dir).unwrap();
    let mut built = assemble(
        dir,
        14,
        &[
            ("kinds_typed", SYMBOL_KINDS_TYPED.to_string()),
            ("kinds_typed_darwin", darwin(SYMBOL_KINDS_TYPED)),
            ("kinds_typed_win32", win32(SYMBOL_KINDS_TYPED)),
        ],
    );
    if major >= 19 {
        let mut opaque = vec![
            ("kinds_opaque", SYMBOL_KINDS_OPAQUE.to_string()),
            ("kinds_opaque_darwin", darwin(SYMBOL_KINDS_OPAQUE)),
        ];
        opaque.extend(calling_conventions(true));
        built.extend(assemble(dir, major, &opaque));
    } else {
        built.extend(assemble(dir, major, &calling_conventions(false)));
    }
    let src = testdata("containers/src");
    let tools = (llvm_tool("clang", 14), llvm_tool("llvm-ar", major));
    if let (Some(clang), Some(ar)) = tools {
        let mut members = Vec::new();
        for name in ["a", "b"] {
            let out = dir.join(format!("{name}.bc"));
            let st = Command::new(&clang)
                .args(["-target", "x86_64-unknown-linux-gnu", "-O1", "-c", "-emit-llvm"])
                .arg(src.join(format!("{name}.c")))
                .arg("-o")
                .arg(&out)
                .status()
                .unwrap();
            assert!(st.success(), "clang-14 failed on {name}.c");
            members.push(out);
        }
        // The assembled files too: an archive of bare bitcode members with and without SYMTAB.
        members.extend(built.iter().cloned());
        let archive = dir.join("libab_bitcode.a");
        let _ = std::fs::remove_file(&archive);
        let st = Command::new(&ar).arg("rcs").arg(&archive).args(&members).status().unwrap();
        assert!(st.success(), "llvm-ar-{major} failed");
        built.push(archive);
        built.extend(members);
    }
    match Command::new("rustc").arg("--version").output() {
        Ok(o) if o.status.success() => {
            let source = dir.join("nm_tiny.rs");
            std::fs::write(
                &source,
                "#![crate_type = \"rlib\"]\npub fn add(a: u32, b: u32) -> u32 { a.wrapping_add(b) }\n\
                 pub static COUNTER: u32 = 7;\n#[inline(never)] pub fn twice(x: u32) -> u32 { add(x, x) }\n",
            )
            .unwrap();
            for (name, flag) in
                [("libnm_tiny_lpl.rlib", "linker-plugin-lto"), ("libnm_tiny_embed.rlib", "embed-bitcode=yes")]
            {
                let out = dir.join(name);
                let st = Command::new("rustc")
                    .args(["-O", "-C", flag, "--crate-name", "nm_tiny"])
                    .arg(&source)
                    .arg("-o")
                    .arg(&out)
                    .status()
                    .unwrap();
                assert!(st.success(), "rustc -C {flag} failed");
                built.push(out);
            }
        }
        _ => skip_or_fail::<()>("rustc not found: no rlib to list").unwrap_or(()),
    }
    built
}

fn differential(major: u32) {
    let Some(llvm_nm) = llvm_tool("llvm-nm", major) else { return };
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("nm-{major}"));
    let mut tally = Tally::default();
    let mut inputs = testdata_inputs();
    inputs.extend(built_inputs(&dir, major));
    inputs.push(width_zero_input(&dir));
    // Modules in the layouts of LLVM 3.x and 4.0 (VST names, VERSION 0, typed pointers,
    // legacy linkage codes), written here: the upgrade paths without third-party files.
    let old = old_bitcode::write_all(&dir.join("old-bitcode"));
    let old_count = old.len();
    inputs.extend(old);
    for input in &inputs {
        compare(&llvm_nm, major, std::slice::from_ref(input), &FILTERS, &mut tally);
    }
    // The assembled modules again, read from their records (mangling, calling-convention
    // suffixes, unnamed numbering and asm symbols derived here, not taken from the SYMTAB).
    for input in inputs.iter().filter(|p| {
        p.file_name().is_some_and(|n| {
            let n = n.to_string_lossy();
            n.starts_with("cc_") || n.starts_with("kinds_")
        })
    }) {
        let theirs = run(&llvm_nm, &[input.clone().into_os_string()]);
        let version = ["--llvm-nm-version".into(), major.to_string().into()];
        let records = ours(&[&version[..], &["--symbols-from=module".into(), input.clone().into_os_string()]].concat());
        if theirs.ok && theirs.stdout != records.stdout {
            tally.failures.push(format!(
                "{}: from the module records, differs from llvm-nm {major}:\n{}\n---\n{}",
                input.display(),
                String::from_utf8_lossy(&theirs.stdout),
                String::from_utf8_lossy(&records.stdout)
            ));
        }
    }
    // Several files in one invocation: `\nFILE:\n` headers.
    let several =
        [testdata("llvm14_ir_instructions.bc"), testdata("containers/gnu_ab.a"), testdata("containers/macho_a.o")];
    compare(&llvm_nm, major, &several, &FILTERS, &mut tally);
    // The formats and sorts, on an archive of objects with and without bitcode and on a
    // bitcode file.
    for input in
        [testdata("containers/mixed.a"), testdata("containers/gnu_ab.a"), testdata("llvm14_ir_instructions.bc")]
    {
        compare(&llvm_nm, major, &[input], &FORMATS, &mut tally);
    }
    eprintln!(
        "llvm-nm {major}: {} inputs compared, {} lines identical (with the filters, formats and sorts too)",
        tally.compared_files, tally.identical_lines
    );
    for r in &tally.rejected {
        eprintln!("  {r}");
    }
    assert!(tally.failures.is_empty(), "{} differences:\n{}", tally.failures.len(), tally.failures.join("\n"));
    assert!(tally.compared_files >= 8, "too few inputs compared: {}", tally.compared_files);
    let old_rejected = tally.rejected.iter().filter(|r| r.contains("old-bitcode")).count();
    assert_eq!(old_rejected, 0, "llvm-nm {major} reads every generated old-layout file");
    assert!(old_count >= 6);
}

#[test]
fn nm_matches_llvm_nm_14() {
    differential(14);
}

#[test]
fn nm_matches_llvm_nm_19() {
    differential(19);
}

#[test]
fn nm_matches_llvm_nm_22() {
    differential(22);
}

/// `llvm14_ir_globals.bc` with its first FUNCTION_BLOCK declaring abbreviation width 0,
/// as LLVM's `Inputs/invalid-inserted-value-type-mismatch.bc` has one: `llvm-nm` skips the
/// body without entering it, and so must we.
fn width_zero_input(dir: &Path) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let mut bytes = std::fs::read(testdata("llvm14_ir_globals.bc")).unwrap();
    let stream = Bitstream::parse(&bytes).unwrap();
    let mut reader = stream.reader();
    let mut parent_width = 0;
    let mut header = None;
    while let Some(entry) = reader.advance().unwrap() {
        if let Entry::EnterBlock(b) = entry {
            if b.block_id == llvm_ir::FUNCTION_BLOCK_ID {
                header = Some(b);
                break;
            }
            parent_width = b.abbrev_width;
        }
    }
    let header = header.expect("a FUNCTION_BLOCK");
    assert!(header.abbrev_width < 8, "one vbr4 chunk");
    // ENTER_SUBBLOCK (parent width), the block id (vbr8, one chunk), then the width (vbr4).
    let at = header.header_bit + u64::from(parent_width) + 8;
    for bit in at..at + 4 {
        bytes[(bit / 8) as usize] &= !(1 << (bit % 8));
    }
    let path = dir.join("width-zero-function-block.bc");
    std::fs::write(&path, &bytes).unwrap();
    // The patch is where it was meant to be: entering the block is now an error.
    let stream = Bitstream::parse(&bytes).unwrap();
    let mut reader = stream.reader();
    let error = loop {
        match reader.advance() {
            Ok(Some(_)) => {}
            Ok(None) => panic!("the patched stream walks to its end"),
            Err(e) => break e,
        }
    };
    assert!(matches!(error, llvm_bitstream_reader::Error::InvalidAbbrevWidth { width: 0, .. }), "{error}");
    path
}

/// Every rlib and static library of the Rust sysroot's x86-64 Linux target, whole
/// (native members, `lib.rmeta`, bitcode), as `llvm-nm` 22 lists them, with the filters,
/// formats and sorts.
#[test]
fn sysroot_archives_match_llvm_nm_22_whole() {
    let Some(llvm_nm) = llvm_tool("llvm-nm", 22) else { return };
    let mut inputs = common::sysroot_archives();
    if inputs.is_empty() {
        skip_or_fail::<()>("no rlibs in the sysroot");
        return;
    }
    inputs.sort();
    let mut tally = Tally::default();
    for (i, input) in inputs.iter().enumerate() {
        // Every file plainly and with the filters; the formats on every fourth.
        compare(&llvm_nm, 22, std::slice::from_ref(input), &FILTERS, &mut tally);
        if i % 4 == 0 {
            compare(&llvm_nm, 22, std::slice::from_ref(input), &FORMATS, &mut tally);
            compare(&llvm_nm, 22, std::slice::from_ref(input), &[&["-a"]], &mut tally);
        }
    }
    eprintln!("sysroot: {} archives, {} lines identical to llvm-nm 22", tally.compared_files, tally.identical_lines);
    // llvm-nm 22 lists the native symbols of the ELF members; their bitcode (`.llvmbc`),
    // cut out to `.bc` files, it lists as bitcode: so must we.
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("sysroot-bitcode");
    std::fs::create_dir_all(&dir).unwrap();
    let mut modules = 0;
    let mut bitcode = Tally::default();
    for input in &inputs {
        let file = ContainerFile::open(input).unwrap();
        let Ok(streams) = file.bitstreams() else { continue };
        let stem = input.file_stem().unwrap().to_string_lossy().into_owned();
        for (i, e) in streams.iter().enumerate() {
            let path = dir.join(format!("{stem}-{i}.bc"));
            std::fs::write(&path, e.bytes).unwrap();
            compare(&llvm_nm, 22, &[path], &[&[]], &mut bitcode);
            modules += 1;
        }
    }
    eprintln!("sysroot bitcode: {modules} modules, {} lines identical to llvm-nm 22", bitcode.identical_lines);
    tally.failures.extend(bitcode.failures);
    assert!(tally.failures.is_empty(), "{} differences:\n{}", tally.failures.len(), tally.failures.join("\n"));
    assert!(tally.rejected.is_empty() && bitcode.rejected.is_empty(), "{:?} {:?}", tally.rejected, bitcode.rejected);
    assert!(modules >= 100, "only {modules} bitcode modules in the sysroot");
}

/// Debian's libclc, 14, 19 and 22: the `.bc` libraries of each read by its own LLVM's
/// `llvm-nm`. The packages conflict with each other, so `.ci/run` unpacks them under
/// `target/libclc/<major>` (`LIBCLC_DIR` overrides where).
#[test]
fn libclc_matches_llvm_nm_of_its_version() {
    let root =
        std::env::var_os("LIBCLC_DIR").map(PathBuf::from).unwrap_or_else(|| common::repo_root().join("target/libclc"));
    for major in [14, 19, 22] {
        let dir = root.join(major.to_string()).join("usr/lib/clc");
        let Ok(entries) = std::fs::read_dir(&dir) else {
            skip_or_fail::<()>(&format!("libclc-{major} is not unpacked in {} (.ci/run does it)", dir.display()));
            continue;
        };
        let Some(llvm_nm) = llvm_tool("llvm-nm", major) else { continue };
        let mut inputs: Vec<PathBuf> =
            entries.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|e| e == "bc")).collect();
        inputs.sort();
        let mut tally = Tally::default();
        for input in &inputs {
            compare(&llvm_nm, major, std::slice::from_ref(input), &[&[]], &mut tally);
        }
        eprintln!(
            "libclc-{major}: {} files, {} lines identical to llvm-nm {major}",
            tally.compared_files, tally.identical_lines
        );
        assert!(tally.failures.is_empty(), "{} differences:\n{}", tally.failures.len(), tally.failures.join("\n"));
        assert!(tally.rejected.is_empty(), "{:?}", tally.rejected);
        assert!(tally.compared_files >= 50, "libclc-{major}: only {} files", tally.compared_files);
    }
}

/// The SYMTAB view printed as `llvm-lto2 dump-symtab` prints it (LLVM's `InputFile`
/// keeps only global, not format-specific symbols).
fn dump_symtab(path: &Path) -> Option<String> {
    let file = ContainerFile::open(path).unwrap();
    let streams = file.bitstreams().unwrap();
    let stream = Bitstream::parse(streams.first()?.bytes).unwrap();
    let inventory = Inventory::of(&stream).unwrap();
    let symtab = Symtab::from_inventory(&inventory).unwrap()?;
    let s = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    let triple = s(symtab.target_triple());
    let mut out = format!("version: {}\nproducer: {}\n", symtab.version(), s(symtab.producer()));
    out += &format!("target triple: {triple}\nsource filename: {}\n", s(symtab.source_filename()));
    if triple.contains("windows") {
        out += &format!("linker opts: {}\n", s(symtab.coff_linker_opts()));
    } else if !triple.contains("apple") {
        out += "dependent libraries:";
        for lib in symtab.dependent_libraries() {
            out += &format!(" \"{}\"", s(lib.unwrap()));
        }
        out += "\n";
    }
    for sym in symtab.symbols() {
        let sym = sym.unwrap();
        let f = sym.flags;
        if !f.global() || f.format_specific() {
            continue;
        }
        let vis = match f.visibility().code() {
            1 => 'H',
            2 => 'P',
            _ => 'D',
        };
        let b = |c: char, on: bool| if on { c } else { '-' };
        out += &format!(
            "{vis}{}{}{}{}{}{}{} {}\n",
            b('U', f.undefined()),
            b('C', f.common()),
            b('W', f.weak()),
            b('I', f.indirect()),
            b('O', f.may_omit()),
            b('T', f.tls()),
            b('X', f.executable()),
            s(sym.name)
        );
        let unc = sym.uncommon;
        if f.common() {
            let u = unc.unwrap();
            out += &format!("         size {} align {}\n", u.common_size, u.common_align);
        }
        if let Some(c) = sym.comdat_index {
            let comdat = symtab.comdat(c).unwrap();
            let kind = match comdat.selection_kind {
                ComdatSelection::Any => "any".to_string(),
                ComdatSelection::ExactMatch => "exactmatch".to_string(),
                ComdatSelection::Largest => "largest".to_string(),
                ComdatSelection::NoDeduplicate => "nodeduplicate".to_string(),
                ComdatSelection::SameSize => "samesize".to_string(),
                other => format!("{other:?}"),
            };
            out += &format!("         comdat {kind} {}\n", s(comdat.name));
        }
        if triple.contains("windows") && f.weak() && f.indirect() {
            out += &format!("         fallback {}\n", s(unc.map_or(&[][..], |u| u.coff_weak_external_fallback)));
        }
        if !sym.section_name().is_empty() {
            out += &format!("         section {}\n", s(sym.section_name()));
        }
    }
    out += "\n";
    Some(out)
}

#[test]
fn symtab_view_matches_llvm_lto2_dump_symtab_14() {
    let Some(lto2) = llvm_tool("llvm-lto2", 14) else { return };
    let mut compared = 0;
    let mut files = testdata_inputs();
    files.retain(|p| p.extension().is_some_and(|e| e == "bc"));
    for path in files {
        let Some(ours) = dump_symtab(&path) else { continue };
        let theirs = run(&lto2, &[OsString::from("dump-symtab"), path.as_os_str().to_owned()]);
        if !theirs.ok {
            eprintln!("llvm-lto2 14 rejects {}: {}", path.display(), theirs.stderr.lines().next().unwrap_or(""));
            continue;
        }
        assert_eq!(String::from_utf8_lossy(&theirs.stdout), ours, "{}", path.display());
        compared += 1;
    }
    eprintln!("SYMTAB view: {compared} files identical to llvm-lto2 14 dump-symtab");
    assert!(compared >= 4, "only {compared} files compared");
}

#[test]
fn nm_reads_what_llvm_nm_cannot() {
    // LLVM 22 bitcode (rustc 1.95): llvm-nm 14 rejects its opaque pointers, llvm-nm 19 its
    // attribute kinds; the symbols come from the SYMTAB LLVM 22 wrote.
    for name in ["rustc_llvm22_o3.bc", "rustc_llvm22_o0_debuginfo.bc"] {
        let r = ours(&[testdata(name).into_os_string()]);
        assert!(r.ok, "{name}: {}", r.stderr);
        let text = String::from_utf8_lossy(&r.stdout);
        assert!(text.lines().any(|l| l.contains(" T _ZN11rust_sample")), "{name}:\n{text}");
        assert!(text.lines().all(|l| l.starts_with("---------------- ") || l.starts_with("                 ")));
    }
}

#[test]
fn json_lists_the_same_symbols() {
    let path = testdata("containers/gnu_ab.a");
    // As llvm-nm 14 lists it: the bitcode of its ELF objects, from their SYMTABs.
    let v14 = || [OsString::from("--llvm-nm-version"), OsString::from("14")];
    let text = ours(&[&v14()[..], &[path.clone().into_os_string()]].concat());
    let json = ours(&[&v14()[..], &[OsString::from("--format=json"), path.clone().into_os_string()]].concat());
    // As llvm-nm 22 lists it (the default): native symbols.
    let native = ours(&[OsString::from("--format=json"), path.into_os_string()]);
    for line in String::from_utf8_lossy(&native.stdout).lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["source"], "native");
        assert!(v["symbols"].as_array().unwrap().iter().all(|s| s["address"].is_u64() || s["undefined"] == true));
    }
    assert!(text.ok && json.ok);
    let text_names: Vec<String> = String::from_utf8_lossy(&text.stdout)
        .lines()
        .filter(|l| l.len() > 19 && !l.ends_with(':'))
        .map(|l| l[19..].to_string())
        .collect();
    let mut json_names = Vec::new();
    for line in String::from_utf8_lossy(&json.stdout).lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["source"], "symtab");
        for s in v["symbols"].as_array().unwrap() {
            json_names.push(s["name"].as_str().unwrap().to_string());
        }
    }
    assert_eq!(text_names, json_names);
    assert!(!json_names.is_empty());
}

#[test]
fn damaged_inputs_give_an_error_never_a_panic() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("nm-damaged");
    std::fs::create_dir_all(&dir).unwrap();
    let check = |path: &Path, what: &str| {
        let out = Command::new(BIN).arg("--nm").arg(path).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{what}: {stderr}");
        assert!(matches!(out.status.code(), Some(0 | 1)), "{what}: exit status {:?}", out.status);
    };
    let mut malformed: Vec<PathBuf> =
        std::fs::read_dir(testdata("malformed")).unwrap().map(|e| e.unwrap().path()).collect();
    malformed.sort();
    for path in &malformed {
        check(path, &path.display().to_string());
    }
    // Truncations: through the SYMTAB, the module records and an archive's members.
    for name in ["rustc_llvm22_o3.bc", "llvm14_ir_globals.bc", "containers/gnu_ab.a"] {
        let bytes = std::fs::read(testdata(name)).unwrap();
        let cut = dir.join("cut");
        for len in (0..bytes.len()).step_by(bytes.len() / 120 + 1) {
            std::fs::write(&cut, &bytes[..len]).unwrap();
            check(&cut, &format!("{name} cut at {len}"));
        }
    }
}

/// Where no llvm-nm reads a file (LLVM 22 bitcode), the oracle is the SYMTAB that LLVM
/// 22 wrote: the listing from the module records (and their module asm) must equal the
/// listing from the SYMTAB, on every testdata file with a SYMTAB and on every rlib of the
/// Rust sysroot.
#[test]
fn module_records_list_what_the_symtab_lists() {
    let mut inputs = testdata_inputs();
    match Command::new("rustc").args(["--print", "sysroot"]).output() {
        Ok(o) if o.status.success() => {
            let sysroot = PathBuf::from(String::from_utf8_lossy(&o.stdout).trim());
            for dir in std::fs::read_dir(sysroot.join("lib/rustlib")).unwrap().flatten() {
                let Ok(libs) = std::fs::read_dir(dir.path().join("lib")) else { continue };
                let mut rlibs: Vec<PathBuf> =
                    libs.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|e| e == "rlib")).collect();
                rlibs.sort();
                inputs.extend(rlibs);
            }
        }
        _ => skip_or_fail::<()>("rustc not found: the sysroot's rlibs are not compared").unwrap_or(()),
    }
    let (mut files, mut lines) = (0, 0);
    // As llvm-nm 14 lists files: objects by their bitcode.
    let v14 = || vec![OsString::from("--llvm-nm-version"), OsString::from("14")];
    for input in &inputs {
        let from_symtab = ours(&[v14(), vec![input.clone().into_os_string()]].concat());
        let from_records =
            ours(&[v14(), vec![OsString::from("--symbols-from=module"), input.clone().into_os_string()]].concat());
        assert_eq!(
            from_symtab.ok,
            from_records.ok,
            "{}: {}{}",
            input.display(),
            from_symtab.stderr,
            from_records.stderr
        );
        if from_symtab.stdout != from_records.stdout {
            let (a, b) = (String::from_utf8_lossy(&from_symtab.stdout), String::from_utf8_lossy(&from_records.stdout));
            let at = a.lines().zip(b.lines()).take_while(|(x, y)| x == y).count();
            panic!(
                "{}: the records differ from the SYMTAB at line {at}:\n  SYMTAB:  {:?}\n  records: {:?}",
                input.display(),
                a.lines().nth(at),
                b.lines().nth(at)
            );
        }
        files += 1;
        lines += from_symtab.stdout.split(|&b| b == b'\n').filter(|l| l.len() > 19 && !l.ends_with(b":")).count();
    }
    eprintln!("module records against SYMTAB: {files} inputs, {lines} symbol lines identical");
    assert!(files >= 20);
}
