//! The `bitstream-dump` analyzer against `llvm-bcanalyzer` (LLVM 14), line by line, and
//! its own outputs (JSON, folded stacks, flame graph).
//!
//! Parity: on every test file written by LLVM 14 (`llvm14_*`, `clang14_*`) the output of
//! `-dump` (alone and with `-dump-blockinfo`, `-show-binary-blobs`, `-non-symbolic`) and
//! of the statistics (default mode, and `-disable-histogram`) must equal
//! `llvm-bcanalyzer`'s, with no allowed difference. On the LLVM 22 files (`rustc_*`) the
//! only allowed difference is a name LLVM 14 does not know ([`NAMES_UNKNOWN_TO_LLVM14`]):
//! LLVM 14 prints `UnknownCodeN` where we print the name.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use llvm_bitstream_reader::{Bitstream, Event};

use common::{BIN, bcanalyzer, repo_root, testdata};

/// Record names of LLVM 22 that LLVM 14's `llvm-bcanalyzer` prints as `UnknownCodeN`:
/// (name, code). The only differences allowed, and only on files LLVM 14 did not write.
const NAMES_UNKNOWN_TO_LLVM14: &[(&str, u32)] = &[
    ("CE_GEP", 32),
    ("PTRAUTH", 33),
    ("BLOCKADDR_USERS", 60),
    ("DEBUG_RECORD_VALUE", 61),
    ("DEBUG_RECORD_DECLARE", 62),
    ("DEBUG_RECORD_ASSIGN", 63),
    ("DEBUG_RECORD_VALUE_SIMPLE", 64),
    ("DEBUG_RECORD_LABEL", 65),
    ("DEBUG_RECORD_DECLARE_VALUE", 66),
];

/// Differences allowed on files written by LLVM 14: none.
const ALLOWED_ON_LLVM14_FILES: &[&str] = &[];

fn written_by_llvm14(file: &Path) -> bool {
    let name = file.file_name().unwrap().to_string_lossy();
    name.starts_with("llvm14_") || name.starts_with("clang14_")
}

/// Runs a program from the repository root (so `Summary of testdata/…` matches).
fn run(program: &Path, args: &[&str], file: &Path) -> String {
    let root = repo_root();
    let rel = file.strip_prefix(&root).unwrap_or(file);
    let out = Command::new(program).args(args).arg(rel).current_dir(&root).output().expect("run");
    assert!(
        out.status.success(),
        "{} {args:?} {}: {}",
        program.display(),
        rel.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

/// Our line with the names LLVM 14 does not know put back as `UnknownCodeN`.
fn as_llvm14_would_name(line: &str) -> Option<String> {
    for &(name, code) in NAMES_UNKNOWN_TO_LLVM14 {
        let unknown = format!("UnknownCode{code}");
        for (ours, theirs) in [
            (format!("<{name} codeid={code}"), format!("<{unknown}")),
            (format!("<{name} "), format!("<{unknown} ")),
            (format!("<{name}/>"), format!("<{unknown}/>")),
        ] {
            if line.contains(&ours) {
                return Some(line.replacen(&ours, &theirs, 1));
            }
        }
        if let Some(prefix) = line.strip_suffix(&format!("  {name}")) {
            if line.starts_with("\t\t") {
                return Some(format!("{prefix}  {unknown}"));
            }
        }
    }
    None
}

#[derive(Default)]
struct Tally {
    files: usize,
    runs: usize,
    lines: usize,
    allowed: usize,
}

/// Compares our output with llvm-bcanalyzer's for `args` on `files`; panics on any
/// difference that is not allowed.
fn compare(tool: &Path, args: &[&str], files: &[PathBuf], tally: &mut Tally) {
    for file in files {
        let theirs = run(tool, args, file);
        let ours = run(Path::new(BIN), args, file);
        let (theirs, ours): (Vec<&str>, Vec<&str>) = (theirs.lines().collect(), ours.lines().collect());
        assert_eq!(theirs.len(), ours.len(), "{} {args:?}: line counts differ", file.display());
        for (n, (t, o)) in theirs.iter().zip(&ours).enumerate() {
            tally.lines += 1;
            if t == o {
                continue;
            }
            let allowed = if written_by_llvm14(file) {
                ALLOWED_ON_LLVM14_FILES.contains(o)
            } else {
                as_llvm14_would_name(o).as_deref() == Some(*t)
            };
            assert!(
                allowed,
                "{} {args:?} line {}:\n llvm-bcanalyzer: {t}\n bitstream-dump:  {o}",
                file.display(),
                n + 1
            );
            tally.allowed += 1;
        }
        tally.runs += 1;
    }
}

fn report(what: &str, files: &[PathBuf], tally: &Tally) {
    println!(
        "{what}: {} files, {} runs, {} lines compared, {} allowed differences (LLVM 22 names LLVM 14 does not know)",
        files.len(),
        tally.runs,
        tally.lines,
        tally.allowed
    );
}

#[test]
fn dump_parity_with_llvm_bcanalyzer() {
    let Some(tool) = bcanalyzer() else { return };
    let files = common::testdata_files();
    let (llvm14, newer): (Vec<PathBuf>, Vec<PathBuf>) = files.into_iter().partition(|f| written_by_llvm14(f));
    assert!(llvm14.len() >= 12 && !newer.is_empty());
    let modes: [&[&str]; 4] =
        [&["-dump"], &["-dump", "-dump-blockinfo"], &["-dump", "-show-binary-blobs"], &["-dump", "-non-symbolic"]];
    let mut t14 = Tally { files: llvm14.len(), ..Tally::default() };
    let mut t22 = Tally { files: newer.len(), ..Tally::default() };
    for args in modes {
        compare(&tool, args, &llvm14, &mut t14);
        compare(&tool, args, &newer, &mut t22);
    }
    assert_eq!(t14.allowed, 0);
    report("-dump parity, LLVM 14 files", &llvm14, &t14);
    report("-dump parity, LLVM 22 files", &newer, &t22);
    assert!(t14.files > 0 && t22.files > 0);
}

#[test]
fn statistics_parity_with_llvm_bcanalyzer() {
    let Some(tool) = bcanalyzer() else { return };
    let files = common::testdata_files();
    let mut tally = Tally { files: files.len(), ..Tally::default() };
    for args in [&[][..], &["-disable-histogram"], &["--disable-histogram"]] {
        compare(&tool, args, &files, &mut tally);
    }
    report("statistics parity, every test file", &files, &tally);
}

/// The LLVM 22 files against LLVM 22's own `llvm-bcanalyzer`, with no difference allowed:
/// rustc 1.95's testdata files and Debian's libclc-22 (statistics of every file, `-dump`
/// of four), if `.ci/run` unpacked it under `target/libclc/22`.
#[test]
fn llvm22_files_match_llvm_bcanalyzer_22() {
    let Some(tool) = common::llvm_tool("llvm-bcanalyzer", 22) else { return };
    let rustc: Vec<PathBuf> = common::testdata_files()
        .into_iter()
        .filter(|f| f.file_name().is_some_and(|n| n.to_string_lossy().starts_with("rustc_llvm22")))
        .collect();
    assert!(!rustc.is_empty());
    let clc_dir = repo_root().join("target/libclc/22/usr/lib/clc");
    let mut clc: Vec<PathBuf> = match std::fs::read_dir(&clc_dir) {
        Ok(d) => d.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|e| e == "bc")).collect(),
        Err(_) => {
            common::skip_or_fail::<()>(&format!("libclc-22 not unpacked in {} (.ci/run does it)", clc_dir.display()));
            Vec::new()
        }
    };
    clc.sort();
    let dumped: Vec<PathBuf> = rustc.iter().cloned().chain(clc.iter().step_by(31).cloned()).collect();
    let all: Vec<PathBuf> = rustc.iter().cloned().chain(clc.iter().cloned()).collect();
    let mut tally = Tally { files: all.len(), ..Tally::default() };
    for args in [&["-dump"][..], &["-dump", "-dump-blockinfo"], &["-dump", "-non-symbolic"]] {
        exact(&tool, args, &dumped, &mut tally);
    }
    exact(&tool, &[], &all, &mut tally);
    report("LLVM 22 files against llvm-bcanalyzer 22", &all, &tally);
}

/// [`compare`] with no difference allowed.
fn exact(tool: &Path, args: &[&str], files: &[PathBuf], tally: &mut Tally) {
    for file in files {
        let (theirs, ours) = (run(tool, args, file), run(Path::new(BIN), args, file));
        if theirs != ours {
            let at = theirs.lines().zip(ours.lines()).take_while(|(a, b)| a == b).count();
            panic!(
                "{} {args:?} line {}:\n llvm-bcanalyzer: {:?}\n bitstream-dump:  {:?}",
                file.display(),
                at + 1,
                theirs.lines().nth(at),
                ours.lines().nth(at)
            );
        }
        tally.lines += ours.lines().count();
        tally.runs += 1;
    }
}

/// The same options spelled with two dashes give the same output.
#[test]
fn options_with_two_dashes() {
    let file = testdata("llvm14_ir_debuginfo.bc");
    let one = run(Path::new(BIN), &["-dump", "-dump-blockinfo", "-non-symbolic", "-show-binary-blobs"], &file);
    let two = run(Path::new(BIN), &["--dump", "--dump-blockinfo", "--non-symbolic", "--show-binary-blobs"], &file);
    assert_eq!(one, two);
    assert!(one.contains("<BLOCKINFO_BLOCK BlockID=0 NumWords="));
    assert!(one.contains("num-strings = "));
}

fn library_events(bytes: &[u8]) -> (usize, usize, usize) {
    let (mut enter, mut record, mut exit) = (0, 0, 0);
    for event in Bitstream::parse(bytes).unwrap().reader() {
        match event.unwrap() {
            Event::EnterBlock(_) => enter += 1,
            Event::Record(_) => record += 1,
            Event::EndBlock(_) => exit += 1,
            _ => unreachable!("abbreviation definitions are not asked for"),
        }
    }
    (enter, record, exit)
}

#[test]
fn json_is_one_object_per_event() {
    for file in common::testdata_files() {
        let out = run(Path::new(BIN), &["--format", "json"], &file);
        let (mut enter, mut record, mut exit, mut stream) = (0, 0, 0, 0);
        for line in out.lines() {
            let v: serde_json::Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{line}: {e}"));
            match v["event"].as_str().unwrap() {
                "stream" => stream += 1,
                "enter" => {
                    enter += 1;
                    assert!(v["block_id"].is_u64() && v["num_words"].is_u64());
                }
                "record" => {
                    record += 1;
                    assert!(v["code"].is_u64() && v["ops"].is_array() && v["bits"].is_u64());
                    assert!(v["name"].is_string() || v["name"].is_null());
                }
                "exit" => exit += 1,
                other => panic!("unknown event {other}"),
            }
        }
        let bytes = std::fs::read(&file).unwrap();
        assert_eq!(stream, 1, "{}", file.display());
        assert_eq!((enter, record, exit), library_events(&bytes), "{}", file.display());
    }
    let file = testdata("llvm14_ir_globals.bc");
    let out = run(Path::new(BIN), &["--format", "json"], &file);
    assert!(out.contains(r#""name":"SOURCE_FILENAME""#), "names are in the JSON");
    assert!(out.contains(r#""block":"MODULE_BLOCK""#));
}

#[test]
fn folded_stacks_sum_to_the_file_bits() {
    for file in common::testdata_files() {
        let out = run(Path::new(BIN), &["--folded"], &file);
        let mut total = 0u64;
        for line in out.lines() {
            let (stack, count) = line.rsplit_once(' ').unwrap();
            assert!(!stack.is_empty() && !stack.contains(";;"), "{line}");
            total += count.parse::<u64>().unwrap();
        }
        let size = std::fs::metadata(&file).unwrap().len();
        assert_eq!(total, size * 8, "{}", file.display());
    }
    let file = testdata("rustc_llvm22_o0_debuginfo.bc");
    let out = run(Path::new(BIN), &["--folded"], &file);
    assert!(out.lines().any(|l| l.starts_with("MODULE_BLOCK;FUNCTION_BLOCK;METADATA_BLOCK;STRINGS ")));
    assert!(out.lines().any(|l| l.starts_with("MODULE_BLOCK;METADATA_BLOCK;DEFINE_ABBREV ")));
    assert!(out.lines().any(|l| l.starts_with("[magic] 32")));
}

#[test]
fn flamegraph_is_an_svg() {
    let dir = std::env::temp_dir().join(format!("bitstream-dump-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let svg = dir.join("flame.svg");
    let file = testdata("rustc_llvm22_o3.bc");
    run(Path::new(BIN), &["--flamegraph", svg.to_str().unwrap()], &file);
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.contains("<svg") && text.contains("FUNCTION_BLOCK") && text.contains("bits"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn objects_and_archives_show_each_stream_with_its_provenance() {
    let file = testdata("containers/gnu_ab.a");
    let out = run(Path::new(BIN), &["-dump"], &file);
    let headers: Vec<&str> = out.lines().filter(|l| l.starts_with("# ")).collect();
    assert!(headers.len() >= 2, "{headers:?}");
    assert!(headers.iter().all(|h| h.contains("gnu_ab.a(")), "{headers:?}");
    assert!(out.contains("<MODULE_BLOCK NumWords="));
}

#[test]
fn legacy_bytecode_is_described() {
    let dir = std::env::temp_dir().join(format!("bitstream-dump-legacy-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // "llvm", a module block (type 1) of 4 bytes: format information 0x50 (version 5).
    let file = dir.join("old.bc");
    std::fs::write(&file, b"llvm\x01\0\0\0\x04\0\0\0\x50\0\0\0").unwrap();
    let out = run(Path::new(BIN), &[], &file);
    assert!(out.starts_with("LLVM 1.x bytecode"), "{out}");
    assert!(out.contains("bytecode version: 5") && out.contains("Module (type 1): 4 bytes"), "{out}");
    // A damaged one: what was read, then the error.
    let bad = dir.join("bad.bc");
    std::fs::write(&bad, b"llvm\0\0\0\0\0\0\0\0").unwrap();
    let out = Command::new(BIN).arg(&bad).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("LLVM 1.x bytecode"));
    assert!(String::from_utf8_lossy(&out.stderr).contains("expected the module block (type 1) at byte 4"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `declare int %getchar()` and `int %main() { call int %getchar(); ret }` as bytecode
/// version 5 (the `legacy` module's example).
const GETCHAR_MODULE: [u8; 76] = [
    108, 108, 118, 109, 1, 0, 0, 0, 64, 0, 0, 0, 80, 198, 0, 0, 0, 2, 13, 7, 0, 16, 13, 69, 1, 0, 0, 0, 209, 3, 193, 3,
    0, 0, 0, 0, 0, 162, 1, 0, 0, 0, 7, 1, 0, 0, 117, 14, 16, 0, 5, 7, 16, 0, 68, 2, 0, 0, 0, 2, 14, 1, 7, 103, 101,
    116, 99, 104, 97, 114, 2, 4, 109, 97, 105, 110,
];

#[test]
fn legacy_bytecode_dis_prints_llvm_1_x_assembly() {
    let dir = std::env::temp_dir().join(format!("bitstream-dump-legacy-dis-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("getchar.bc");
    std::fs::write(&file, GETCHAR_MODULE).unwrap();
    let out = run(Path::new(BIN), &["--dis"], &file);
    let expected = format!(
        "; ModuleID = '{}'\ntarget endian = little\ntarget pointersize = 32\n\nimplementation   ; Functions:\n\n\
         declare int %getchar()\n\nint %main() {{\n\tcall int %getchar( )\t\t; <int>:0 [#uses=1]\n\tret int %0\n}}\n",
        file.display()
    );
    assert_eq!(out, expected);
    // Null compression (`llvc0`): the same module after five bytes.
    let null = dir.join("null.bc");
    std::fs::write(&null, [&b"llvc0"[..], &GETCHAR_MODULE[4..]].concat()).unwrap();
    let out = run(Path::new(BIN), &["--dis"], &null);
    assert_eq!(out, expected.replace(&file.display().to_string(), &null.display().to_string()));
    // A module cut short: what was read, then the error with its byte offset.
    let cut = dir.join("cut.bc");
    let mut bytes = GETCHAR_MODULE[..60].to_vec();
    bytes[8] = 48;
    std::fs::write(&cut, &bytes).unwrap();
    let out = Command::new(BIN).arg("--dis").arg(&cut).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("declare \"\"()") || stdout.contains("int \"\"()"), "{stdout}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("at byte"), "{}", String::from_utf8_lossy(&out.stderr));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// No FILE: the bundled file; `-`: standard input.
#[test]
fn no_file_reads_the_bundled_file_and_dash_reads_stdin() {
    let bundled = Command::new(BIN).output().unwrap();
    assert!(bundled.status.success());
    let bundled = String::from_utf8(bundled.stdout).unwrap();
    assert!(bundled.starts_with("Summary of testdata/rustc_llvm22_o0_debuginfo.bc:\n"), "{bundled}");
    let file = testdata("rustc_llvm22_o0_debuginfo.bc");
    assert_eq!(bundled, run(Path::new(BIN), &[], &file), "the same file, under the same name");

    let file = testdata("llvm14_ir_globals.bc");
    let mut child = Command::new(BIN)
        .args(["-dump", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), &std::fs::read(&file).unwrap()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let from_stdin = String::from_utf8(out.stdout).unwrap();
    let from_file = run(Path::new(BIN), &["-dump"], &file);
    assert!(from_stdin.contains("Summary of -:"));
    assert_eq!(
        from_stdin.replace("Summary of -:", ""),
        from_file.replace("Summary of testdata/llvm14_ir_globals.bc:", "")
    );
}

#[test]
fn list_shows_streams_modules_and_command_lines() {
    let out = run(Path::new(BIN), &["--list"], &testdata("llvm14_multi_module_cat.bc"));
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("testdata/llvm14_multi_module_cat.bc  magic=4243c0de bytes="), "{out}");
    assert_eq!(lines.iter().filter(|l| l.starts_with("  module ")).count(), 3, "{out}");
    let out = run(Path::new(BIN), &["--list"], &testdata("containers/gnu_ab.a"));
    assert_eq!(out.lines().filter(|l| l.contains("gnu_ab.a(") && l.contains("magic=4243c0de")).count(), 2, "{out}");
    assert!(out.contains("  cmdline: -cc1 "), "{out}");
    assert!(out.contains("source_filename=\"a.c\""), "{out}");
}
