//! The `remarks` module against LLVM 19's `llvm-remarkutil bitstream2yaml`: remarks that
//! `opt-19 -O2` writes for C sources, converted with `yaml2bitstream`; the clang-14
//! separate layout in testdata; remarks with every kind of awkward string, written by a
//! copy of LLVM's serializer built on the crate's writer. Also: every layout (LLVM 19 and
//! LLVM 22), the errors, and truncation at every byte.

#![cfg_attr(not(feature = "writer"), allow(unused_imports, dead_code))] // the tests that write files need `writer`

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use llvm_bitstream_reader::remarks::{ContainerType, Remark, RemarkType, RemarksFile, StringTable, Text, yaml};
use llvm_bitstream_reader::{BlockId, Error as RemarksError, Unknown};

fn testdata(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata").join(name)
}

/// `llvm-remarkutil-19` (Debian's llvm-19), or why not.
fn remarkutil() -> Option<PathBuf> {
    if Command::new("llvm-remarkutil-19").arg("--version").output().is_ok_and(|o| o.status.success()) {
        return Some(PathBuf::from("llvm-remarkutil-19"));
    }
    common::skip_or_fail("llvm-remarkutil-19 not found (Debian package llvm-19)")
}

/// `llvm-remarkutil-19 bitstream2yaml FILE`: its standard output, or its error.
fn llvm_yaml(tool: &Path, file: &Path) -> Result<Vec<u8>, String> {
    let out = Command::new(tool).arg("bitstream2yaml").arg(file).output().expect("run llvm-remarkutil-19");
    if out.status.success() { Ok(out.stdout) } else { Err(String::from_utf8_lossy(&out.stderr).into_owned()) }
}

/// Our YAML for a container with its own string table.
fn our_yaml(bytes: &[u8]) -> Result<Vec<u8>, RemarksError> {
    let file = RemarksFile::parse(bytes)?;
    let mut remarks = file.remarks()?;
    let mut out = Vec::new();
    while let Some(remark) = remarks.next_remark()? {
        yaml::write_remark(remark, &mut out);
    }
    Ok(out)
}

fn first_difference(a: &[u8], b: &[u8]) -> String {
    let line = a.iter().zip(b).take_while(|(x, y)| x == y).filter(|(x, _)| **x == b'\n').count();
    let show = |t: &[u8]| {
        String::from_utf8_lossy(t).lines().skip(line.saturating_sub(3)).take(6).collect::<Vec<_>>().join("\n")
    };
    format!("first difference at line {}:\n--- ours\n{}\n--- llvm\n{}", line + 1, show(a), show(b))
}

// ---------------------------------------------------------------------------------------
// A copy of LLVM's BitstreamRemarkSerializer, for files with any content.

/// A debug location to write: file, line, column.
type Loc = (Vec<u8>, u64, u64);

/// A remark to write, strings as bytes.
#[derive(Clone, Default)]
struct Synth {
    kind: u64,
    pass: Vec<u8>,
    name: Vec<u8>,
    function: Vec<u8>,
    loc: Option<Loc>,
    hotness: Option<u64>,
    /// Key, value, location.
    args: Vec<(Vec<u8>, Vec<u8>, Option<Loc>)>,
}

/// LLVM's `StringTable`: each distinct string once, in order of first use.
#[derive(Default)]
struct Strings(Vec<Vec<u8>>);

impl Strings {
    fn add(&mut self, s: &[u8]) -> u64 {
        match self.0.iter().position(|t| t == s) {
            Some(i) => i as u64,
            None => {
                self.0.push(s.to_vec());
                self.0.len() as u64 - 1
            }
        }
    }

    fn blob(&self) -> Vec<u8> {
        self.0.iter().flat_map(|s| s.iter().copied().chain([0])).collect()
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Layout {
    /// LLVM ≤ 21, container version 0, type 2.
    Standalone,
    /// LLVM ≤ 21 separate layout: (meta: version 0 type 0, file: version 0 type 1).
    Separate,
    /// LLVM ≥ 22, version 1 type 1: string table in a late META block.
    Llvm22,
}

#[cfg(feature = "writer")]
mod serializer {
    use super::*;
    use llvm_bitstream_reader::AbbrevOp::{self, Blob, Fixed, Literal, Vbr};
    use llvm_bitstream_reader::writer::BitstreamWriter;

    const META: u32 = 8;
    const REMARK: u32 = 9;
    const CONTAINER_INFO: [AbbrevOp; 3] = [Literal(1), Fixed(32), Fixed(2)];
    const REMARK_VERSION: [AbbrevOp; 2] = [Literal(2), Fixed(32)];
    const STRTAB: [AbbrevOp; 2] = [Literal(3), Blob];
    const EXTERNAL: [AbbrevOp; 2] = [Literal(4), Blob];
    const HEADER: [AbbrevOp; 5] = [Literal(5), Fixed(3), Vbr(6), Vbr(6), Vbr(6)];
    const DEBUG_LOC: [AbbrevOp; 4] = [Literal(6), Vbr(7), Vbr(6), Vbr(6)];
    const HOTNESS: [AbbrevOp; 2] = [Literal(7), Vbr(8)];
    const ARG_LOC: [AbbrevOp; 6] = [Literal(8), Vbr(7), Vbr(7), Vbr(7), Vbr(6), Vbr(6)];
    const ARG: [AbbrevOp; 3] = [Literal(9), Vbr(7), Vbr(7)];

    /// BLOCKINFO as `setupBlockInfo` writes it; returns the META abbreviation ids of the
    /// records present (in definition order from 4).
    fn blockinfo(w: &mut BitstreamWriter, meta_records: &[&[AbbrevOp]], remarks: bool) {
        w.enter_blockinfo();
        w.set_bid(META);
        w.block_name("Meta");
        for rec in meta_records {
            let Literal(code) = rec[0] else { unreachable!() };
            w.record_name(code as u32, "x");
            w.define_abbrev(rec);
        }
        if remarks {
            w.set_bid(REMARK);
            w.block_name("Remark");
            for rec in [&HEADER[..], &DEBUG_LOC, &HOTNESS, &ARG_LOC, &ARG] {
                w.define_abbrev(rec);
            }
        }
        w.end_block();
    }

    fn meta_id(meta_records: &[&[AbbrevOp]], rec: &[AbbrevOp]) -> u32 {
        4 + meta_records.iter().position(|r| *r == rec).unwrap() as u32
    }

    fn remarks(w: &mut BitstreamWriter, remarks: &[Synth], s: &mut Strings) {
        for r in remarks {
            w.enter_block(REMARK, 4);
            let ops = [r.kind, s.add(&r.name), s.add(&r.pass), s.add(&r.function)];
            w.write_abbreviated(4, &HEADER, 5, &ops, None).unwrap();
            if let Some((file, line, col)) = &r.loc {
                w.write_abbreviated(5, &DEBUG_LOC, 6, &[s.add(file), *line, *col], None).unwrap();
            }
            if let Some(h) = r.hotness {
                w.write_abbreviated(6, &HOTNESS, 7, &[h], None).unwrap();
            }
            for (key, value, loc) in &r.args {
                let (k, v) = (s.add(key), s.add(value));
                match loc {
                    Some((file, line, col)) => {
                        w.write_abbreviated(7, &ARG_LOC, 8, &[k, v, s.add(file), *line, *col], None).unwrap()
                    }
                    None => w.write_abbreviated(8, &ARG, 9, &[k, v], None).unwrap(),
                }
            }
            w.end_block();
        }
    }

    /// The container(s) of `layout` holding `list`: one file, or (meta, remarks file) for
    /// the separate layout.
    pub fn write(layout: Layout, list: &[Synth], external_path: &[u8]) -> (Vec<u8>, Option<Vec<u8>>) {
        let mut s = Strings::default();
        match layout {
            Layout::Standalone => {
                // The string table comes first, so the remarks are serialized first.
                let mut body = BitstreamWriter::new(*b"RMRK");
                remarks(&mut body, list, &mut s);
                let mut w = BitstreamWriter::new(*b"RMRK");
                let recs: [&[AbbrevOp]; 3] = [&CONTAINER_INFO, &REMARK_VERSION, &STRTAB];
                blockinfo(&mut w, &recs, true);
                w.enter_block(META, 3);
                w.write_abbreviated(meta_id(&recs, &CONTAINER_INFO), &CONTAINER_INFO, 1, &[0, 2], None).unwrap();
                w.write_abbreviated(meta_id(&recs, &REMARK_VERSION), &REMARK_VERSION, 2, &[0], None).unwrap();
                w.write_abbreviated(meta_id(&recs, &STRTAB), &STRTAB, 3, &[], Some(&s.blob())).unwrap();
                w.end_block();
                remarks(&mut w, list, &mut Strings::default());
                (w.finish(), None)
            }
            Layout::Separate => {
                let mut file = BitstreamWriter::new(*b"RMRK");
                let recs: [&[AbbrevOp]; 2] = [&CONTAINER_INFO, &REMARK_VERSION];
                blockinfo(&mut file, &recs, true);
                file.enter_block(META, 3);
                file.write_abbreviated(4, &CONTAINER_INFO, 1, &[0, 1], None).unwrap();
                file.write_abbreviated(5, &REMARK_VERSION, 2, &[0], None).unwrap();
                file.end_block();
                remarks(&mut file, list, &mut s);
                let mut meta = BitstreamWriter::new(*b"RMRK");
                let recs: [&[AbbrevOp]; 3] = [&CONTAINER_INFO, &STRTAB, &EXTERNAL];
                blockinfo(&mut meta, &recs, false);
                meta.enter_block(META, 3);
                meta.write_abbreviated(4, &CONTAINER_INFO, 1, &[0, 0], None).unwrap();
                meta.write_abbreviated(5, &STRTAB, 3, &[], Some(&s.blob())).unwrap();
                meta.write_abbreviated(6, &EXTERNAL, 4, &[], Some(external_path)).unwrap();
                meta.end_block();
                (meta.finish(), Some(file.finish()))
            }
            Layout::Llvm22 => {
                let mut w = BitstreamWriter::new(*b"RMRK");
                let recs: [&[AbbrevOp]; 3] = [&CONTAINER_INFO, &REMARK_VERSION, &STRTAB];
                blockinfo(&mut w, &recs, true);
                w.enter_block(META, 3);
                w.write_abbreviated(4, &CONTAINER_INFO, 1, &[1, 1], None).unwrap();
                w.write_abbreviated(5, &REMARK_VERSION, 2, &[0], None).unwrap();
                w.end_block();
                remarks(&mut w, list, &mut s);
                w.enter_block(META, 3);
                w.write_abbreviated(6, &STRTAB, 3, &[], Some(&s.blob())).unwrap();
                w.end_block();
                (w.finish(), None)
            }
        }
    }
}

/// Remarks with every kind of string LLVM's YAML writer treats specially.
fn awkward_remarks() -> Vec<Synth> {
    let strings: Vec<&[u8]> = vec![
        b"plain",
        b"",
        b" lead",
        b"trail ",
        b"'",
        b"''x'",
        b"a'b",
        b"null",
        b"Null",
        b"~",
        b"true",
        b"FALSE",
        b"0",
        b"-15025",
        b"+1",
        b"1.5",
        b".5",
        b"1e10",
        b"1.e5",
        b"0x1F",
        b"0xg",
        b"0o17",
        b".inf",
        b"-.Inf",
        b".nan",
        b"1-2",
        b"-",
        b"?x",
        b":x",
        b"x:y",
        b"\\back",
        b",x",
        b"[x",
        b"]",
        b"{x",
        b"}",
        b"#x",
        b"&x",
        b"*x",
        b"!x",
        b"|x",
        b">x",
        b"\"x",
        b"%x",
        b"@x",
        b"`x",
        b"x#",
        b"a/b",
        b"/usr/include/stdio.h",
        b"a b",
        b"tab\there",
        b"x\ny",
        b"x\ry",
        b"x\x7fy",
        b"\x01\x02\x1b\x07\x08\x0b\x0c\x1f",
        b"x\x00y",
        b"caf\xc3\xa9",
        "\u{85}\u{a0}\u{2028}\u{2029}".as_bytes(),
        "\u{200b}\u{feff}\u{e000}\u{1F600}".as_bytes(),
        b"bad\xffutf8",
        b"bad\xc3",
        b"\xed\xa0\x80surrogate",
        b"\xc0\x80overlong",
        b"x^y_z-w.v,u",
        b"a\"b\\c",
        b"a=b+c;d(e)<f>",
        b"two\nline\nfeeds",
        b"three\n\nblank\n",
        b"\n\nleading",
        b"crlf\r\nline\r\nx",
        b"end\n\n",
        b"0123456789012345678901234567890123456789012345678901234567890123456789.c",
    ];
    let mut list = Vec::new();
    for (i, s) in strings.iter().enumerate() {
        let s = s.to_vec();
        let i = i as u64;
        list.push(Synth {
            kind: 1 + i % 6,
            pass: s.clone(),
            name: b"Name".to_vec(),
            function: s.clone(),
            loc: (i % 3 != 0).then(|| (s.clone(), i, i * 7)),
            hotness: (i % 4 == 0).then_some(i * 1000),
            args: vec![
                (b"String".to_vec(), s.clone(), None),
                (s.clone(), b"v".to_vec(), Some((s.clone(), 1, 2))),
                (b"Callee".to_vec(), s.clone(), (i % 2 == 0).then(|| (b"f.c".to_vec(), 3, 4))),
            ],
        });
    }
    // Keys of every length around the padding column; long file names that wrap the
    // DebugLoc flow mapping at every column.
    for len in 10..20 {
        let key = vec![b'k'; len];
        list.push(Synth {
            kind: 2,
            pass: b"p".to_vec(),
            name: b"n".to_vec(),
            function: b"f".to_vec(),
            args: vec![(key, b"v".to_vec(), Some((b"f.c".to_vec(), 1, 1)))],
            ..Synth::default()
        });
    }
    for len in 35..75 {
        let file = vec![b'f'; len];
        list.push(Synth {
            kind: 3,
            pass: b"p".to_vec(),
            name: b"n".to_vec(),
            function: b"f".to_vec(),
            loc: Some((file.clone(), 123456, 7890)),
            args: vec![(b"K".to_vec(), b"v".to_vec(), Some((file, 4_000_000_000, 99)))],
            ..Synth::default()
        });
    }
    // No args, no location; huge numbers (LLVM keeps line and column in 32 bits).
    list.push(Synth { kind: 6, pass: b"p".to_vec(), name: b"n".to_vec(), function: b"f".to_vec(), ..Synth::default() });
    list.push(Synth {
        kind: 4,
        pass: b"p".to_vec(),
        name: b"n".to_vec(),
        function: b"f".to_vec(),
        loc: Some((b"x.c".to_vec(), u64::from(u32::MAX) + 5, 1 << 40)),
        hotness: Some(u64::MAX),
        ..Synth::default()
    });
    list
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("remarks").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
#[cfg(feature = "writer")]
fn awkward_strings_print_as_llvm_remarkutil_prints_them() {
    let Some(tool) = remarkutil() else { return };
    let dir = temp_dir("awkward");
    let list = awkward_remarks();
    // One file per remark, so that one remark LLVM cannot print does not hide the others.
    let mut compared = 0;
    for (i, r) in list.iter().enumerate() {
        let (bytes, _) = serializer::write(Layout::Standalone, std::slice::from_ref(r), b"");
        let path = dir.join(format!("{i}.opt.bitstream"));
        std::fs::write(&path, &bytes).unwrap();
        let ours = our_yaml(&bytes).unwrap();
        let theirs = llvm_yaml(&tool, &path).unwrap();
        assert!(ours == theirs, "remark {i} ({}): {}", path.display(), first_difference(&ours, &theirs));
        compared += 1;
    }
    assert_eq!(compared, list.len());
}

/// A C source's remarks, as opt-19 -O2 writes them in YAML, converted to bitstream with
/// yaml2bitstream; `None` if a step fails (the reason printed).
fn make_remarks(dir: &Path, source: &Path, extra_opt_args: &[&str]) -> Option<PathBuf> {
    let stem = source.file_stem().unwrap().to_string_lossy().into_owned();
    let run = |cmd: &mut Command| {
        let out = cmd.current_dir(dir).output().expect("run a tool");
        if !out.status.success() {
            eprintln!("{cmd:?} failed: {}", String::from_utf8_lossy(&out.stderr));
        }
        out.status.success()
    };
    let ir = if source.extension().is_some_and(|e| e == "c") {
        std::fs::copy(source, dir.join(source.file_name().unwrap())).unwrap();
        let ll = format!("{stem}.ll");
        let file_name = source.file_name().unwrap();
        if !run(Command::new("clang-14")
            .args(["-g", "-O1", "-Xclang", "-disable-llvm-passes", "-S", "-emit-llvm"])
            .arg(file_name)
            .args(["-o", &ll]))
        {
            return None;
        }
        dir.join(ll)
    } else {
        source.to_path_buf()
    };
    let yaml = dir.join(format!("{stem}.yaml"));
    let bitstream = dir.join(format!("{stem}.opt.bitstream"));
    let ok = run(Command::new("opt-19")
        .args(["-O2", "-pass-remarks-output"])
        .arg(&yaml)
        .args(extra_opt_args)
        .arg(&ir)
        .args(["-o", "/dev/null"]))
        && run(Command::new("llvm-remarkutil-19").arg("yaml2bitstream").arg(&yaml).arg("-o").arg(&bitstream));
    ok.then_some(bitstream)
}

#[test]
fn opt19_remarks_print_as_llvm_remarkutil_prints_them() {
    let Some(tool) = remarkutil() else { return };
    let have = |t: &str| Command::new(t).arg("--version").output().is_ok_and(|o| o.status.success());
    if !have("opt-19") || !have("clang-14") {
        common::skip_or_fail::<()>("opt-19 (llvm-19) or clang-14 not found");
        return;
    }
    let dir = temp_dir("opt19");
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/src");
    let mut sources: Vec<PathBuf> = std::fs::read_dir(&src)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.extension().is_some_and(|e| e == "ll")
                || p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("remarks"))
        })
        .collect();
    sources.sort();
    let (mut files, mut remarks, mut lines) = (0, 0, 0);
    for source in &sources {
        for extra in [&[][..], &["-pass-remarks-with-hotness"]] {
            let Some(bitstream) = make_remarks(&dir, source, extra) else { continue };
            let bytes = std::fs::read(&bitstream).unwrap();
            let theirs = llvm_yaml(&tool, &bitstream).unwrap();
            let ours = our_yaml(&bytes).unwrap();
            assert!(ours == theirs, "{}: {}", source.display(), first_difference(&ours, &theirs));
            files += 1;
            remarks += theirs.windows(4).filter(|w| w == b"--- ").count();
            lines += theirs.iter().filter(|&&b| b == b'\n').count();
        }
    }
    eprintln!("{files} files, {remarks} remarks, {lines} YAML lines identical to llvm-remarkutil-19's");
    assert!(files >= 4 && remarks >= 20, "too little compared: {files} files, {remarks} remarks");
}

/// `opt-22 -O2 -pass-remarks-format=bitstream` writes LLVM 22's standalone layout (the
/// string table at the end) directly; `llvm-remarkutil-22 bitstream2yaml` is the oracle.
/// A module no pass remarks on gives a 0-byte file, which both read as no remarks.
#[test]
fn opt22_bitstream_remarks_print_as_llvm_remarkutil_22_prints_them() {
    let Some(opt) = common::llvm_tool("opt", 22) else { return };
    let Some(tool) = common::llvm_tool("llvm-remarkutil", 22) else { return };
    let Some(clang) = common::llvm_tool("clang", 14) else { return };
    let dir = temp_dir("opt22");
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/src");
    let mut sources: Vec<PathBuf> = std::fs::read_dir(&src)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("remarks")))
        .collect();
    sources.sort();
    let empty = dir.join("no_remarks.ll");
    std::fs::write(&empty, "define void @f() {\n  ret void\n}\n").unwrap();
    let (mut files, mut remarks, mut lines, mut empties) = (0, 0, 0, 0);
    for source in sources.iter().chain([&empty]) {
        let stem = source.file_stem().unwrap().to_string_lossy().into_owned();
        let ir = if source.extension().is_some_and(|e| e == "c") {
            let ll = dir.join(format!("{stem}.ll"));
            let st = Command::new(&clang)
                .args(["-g", "-O1", "-Xclang", "-disable-llvm-passes", "-S", "-emit-llvm"])
                .arg(source)
                .arg("-o")
                .arg(&ll)
                .status()
                .unwrap();
            assert!(st.success(), "clang-14 on {}", source.display());
            ll
        } else {
            source.clone()
        };
        for extra in [&[][..], &["-pass-remarks-with-hotness"]] {
            let out = dir.join(format!("{stem}{}.opt.bitstream", extra.len()));
            let st = Command::new(&opt)
                .args(["-O2", "-pass-remarks-format=bitstream"])
                .arg(format!("-pass-remarks-output={}", out.display()))
                .args(extra)
                .arg(&ir)
                .args(["-o", "/dev/null"])
                .status()
                .unwrap();
            assert!(st.success(), "opt-22 on {}", ir.display());
            let bytes = std::fs::read(&out).unwrap();
            let theirs = llvm_yaml(&tool, &out).unwrap();
            let ours = our_yaml(&bytes).unwrap();
            assert!(ours == theirs, "{}: {}", out.display(), first_difference(&ours, &theirs));
            if bytes.is_empty() {
                empties += 1;
            }
            files += 1;
            remarks += theirs.windows(4).filter(|w| w == b"--- ").count();
            lines += theirs.iter().filter(|&&b| b == b'\n').count();
        }
    }
    eprintln!(
        "opt-22: {files} files ({empties} empty), {remarks} remarks, {lines} YAML lines identical to llvm-remarkutil-22's"
    );
    assert!(empties >= 1, "opt-22 wrote no empty file for a module without remarks");
    assert!(files >= 4 && remarks >= 20, "too little compared: {files} files, {remarks} remarks");
}

#[test]
fn committed_llvm19_files_print_as_llvm_remarkutil_prints_them() {
    let Some(tool) = remarkutil() else { return };
    for name in ["llvm19_remarks_standalone.opt.bitstream", "llvm19_remarks_hotness.opt.bitstream"] {
        let path = testdata(name);
        let ours = our_yaml(&std::fs::read(&path).unwrap()).unwrap();
        let theirs = llvm_yaml(&tool, &path).unwrap();
        assert!(ours == theirs, "{name}: {}", first_difference(&ours, &theirs));
    }
    // The hotness file has hotness on every remark.
    let bytes = std::fs::read(testdata("llvm19_remarks_hotness.opt.bitstream")).unwrap();
    let file = RemarksFile::parse(&bytes).unwrap();
    let all: Vec<Remark<'_>> = file.remarks().unwrap().collect::<Result<_, _>>().unwrap();
    assert!(!all.is_empty() && all.iter().all(|r| r.hotness.is_some()));
}

/// The separate layout clang-14 writes for Mach-O: the object's section names the
/// remarks file by absolute path. LLVM follows it; so we put the file there.
#[test]
fn clang14_separate_layout_prints_as_llvm_remarkutil_prints_it() {
    let meta_bytes = std::fs::read(testdata("clang14_remarks_section_meta.opt.bitstream")).unwrap();
    let file_bytes = std::fs::read(testdata("clang14_remarks_darwin.opt.bitstream")).unwrap();
    let meta = RemarksFile::parse(&meta_bytes).unwrap();
    let file = RemarksFile::parse(&file_bytes).unwrap();
    assert_eq!(meta.meta().container_type, ContainerType::SeparateRemarksMeta);
    assert_eq!(file.meta().container_type, ContainerType::SeparateRemarksFile);
    let external = meta.external_file().unwrap().to_string();
    assert_eq!(external, "/tmp/llvm-bitstream-reader-remarks/remarks.opt.bitstream");

    // Neither half alone has the strings; the errors say where they are.
    let err = file.remarks().unwrap_err();
    assert!(matches!(err, RemarksError::NotInStream { what: "the string table of this remarks file", .. }), "{err}");
    assert!(err.to_string().contains("__LLVM,__remarks"), "{err}");
    let err = meta.remarks().unwrap_err();
    assert!(err.to_string().contains("external remarks file"), "{err}");
    // The halves in the wrong order are refused.
    assert!(matches!(RemarksFile::combine(&file, &meta), Err(RemarksError::Mismatch { .. })));

    let mut ours = Vec::new();
    let mut count = 0;
    for remark in RemarksFile::combine(&meta, &file).unwrap() {
        yaml::write_remark(&remark.unwrap(), &mut ours);
        count += 1;
    }
    assert_eq!(count, 77);
    // A string table supplied by hand gives the same remarks.
    let table = meta.meta().string_table.clone().unwrap();
    assert_eq!(file.remarks_with(table).unwrap().count(), 77);

    let Some(tool) = remarkutil() else { return };
    let dir = Path::new(&external).parent().unwrap();
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(&external, &file_bytes).unwrap();
    let theirs = llvm_yaml(&tool, &testdata("clang14_remarks_section_meta.opt.bitstream"));
    let _ = std::fs::remove_file(&external);
    let theirs = theirs.unwrap();
    assert!(ours == theirs, "{}", first_difference(&ours, &theirs));
    // And LLVM, like us, cannot read the remarks file alone.
    let err = llvm_yaml(&tool, &testdata("clang14_remarks_darwin.opt.bitstream")).unwrap_err();
    assert!(err.contains("missing string table"), "{err}");
}

#[test]
fn opt19_bitstream_output_has_no_string_table_and_the_error_says_so() {
    let bytes = std::fs::read(testdata("llvm19_opt_no_strtab.opt.bitstream")).unwrap();
    let file = RemarksFile::parse(&bytes).unwrap();
    assert_eq!(file.meta().container_type, ContainerType::SeparateRemarksFile);
    assert_eq!(file.meta().string_table, None);
    let err = file.remarks().unwrap_err();
    // What the file is, why nobody can read it, and how to get one that can be read.
    let text = err.to_string();
    for says in [
        "separate remarks file",
        "opt -pass-remarks-format=bitstream",
        "nothing, llvm-remarkutil included, can read",
        "-pass-remarks-format=yaml",
        "LLVM 22",
    ] {
        assert!(text.contains(says), "the error should say {says:?}: {text}");
    }
    let RemarksError::NotInStream { bit, .. } = err else { panic!("{err}") };
    assert_eq!(bit, file.meta().bit);
    // The remarks are there, only their strings are missing: an empty table fails at the
    // first string index, with the record's offset.
    let err = file.remarks_with(StringTable::new(b"")).unwrap().next().unwrap().unwrap_err();
    assert!(matches!(err, RemarksError::IndexOutOfRange { what: "string", len: 0, .. }), "{err}");
}

#[test]
#[cfg(feature = "writer")]
fn every_layout_gives_the_same_remarks() {
    // A string with a NUL splits in two in the string table (in LLVM's too), which shifts
    // every later index: leave it out here.
    let mut list = awkward_remarks();
    list.retain(|r| !r.pass.contains(&0));
    let (standalone, _) = serializer::write(Layout::Standalone, &list, b"");
    let (llvm22, _) = serializer::write(Layout::Llvm22, &list, b"");
    let (meta, separate) = serializer::write(Layout::Separate, &list, b"/x/remarks.opt.bitstream");
    let separate = separate.unwrap();

    let standalone = RemarksFile::parse(&standalone).unwrap();
    let llvm22 = RemarksFile::parse(&llvm22).unwrap();
    let meta = RemarksFile::parse(&meta).unwrap();
    let separate = RemarksFile::parse(&separate).unwrap();
    assert_eq!(standalone.meta().container_type, ContainerType::Standalone);
    assert_eq!(llvm22.meta().container_type, ContainerType::RemarksFile);
    assert_eq!(llvm22.meta().container_version, 1);
    assert!(llvm22.meta().string_table.is_some(), "the late META block was found");
    assert_eq!(meta.external_file().unwrap(), "/x/remarks.opt.bitstream");

    let expected: Vec<Remark<'_>> = standalone.remarks().unwrap().collect::<Result<_, _>>().unwrap();
    assert_eq!(expected.len(), list.len());
    for (got, want) in expected.iter().zip(&list) {
        assert_eq!(got.remark_type, RemarkType::from_raw(want.kind));
        assert_eq!(got.pass.as_bytes(), want.pass);
        assert_eq!(got.function.as_bytes(), want.function);
        assert_eq!(got.hotness, want.hotness);
        assert_eq!(got.args.len(), want.args.len());
        assert_eq!(got.loc.map(|l| (l.line, l.column)), want.loc.as_ref().map(|l| (l.1, l.2)));
    }
    let from22: Vec<Remark<'_>> = llvm22.remarks().unwrap().collect::<Result<_, _>>().unwrap();
    let combined: Vec<Remark<'_>> = RemarksFile::combine(&meta, &separate).unwrap().collect::<Result<_, _>>().unwrap();
    // Everything but the bit offsets, which differ between layouts.
    fn strip<'a>(v: &[Remark<'a>]) -> Vec<Remark<'a>> {
        v.iter()
            .map(|r| {
                let mut r = r.clone();
                r.bit = 0;
                r
            })
            .collect()
    }
    assert_eq!(strip(&from22), strip(&expected));
    assert_eq!(strip(&combined), strip(&expected));
}

#[test]
#[cfg(feature = "writer")]
fn unknown_records_blocks_and_operands_are_kept_not_rejected() {
    use llvm_bitstream_reader::writer::BitstreamWriter;
    let list = &awkward_remarks()[..1];
    let (bytes, _) = serializer::write(Layout::Standalone, list, b"");
    // Re-open the stream's last REMARK block by hand: append a block with extra content.
    let mut w = BitstreamWriter::new(*b"RMRK");
    w.enter_block(9, 4);
    w.write_unabbrev(5, &[2, 0, 0, 0, 77]); // header with an extra operand
    w.write_unabbrev(42, &[1, 2, 3]); // a record code LLVM does not know
    w.enter_block(100, 2); // a sub-block
    w.write_unabbrev(1, &[]);
    w.end_block();
    w.end_block();
    w.enter_block(12, 2); // a top-level block LLVM does not know
    w.end_block();
    let extra = w.finish();
    let mut all = bytes.clone();
    all.extend_from_slice(&extra[4..]);
    let file = RemarksFile::parse(&all).unwrap();
    let mut remarks = file.remarks().unwrap();
    let first = remarks.next().unwrap().unwrap();
    assert!(first.unknown.is_empty());
    let second = remarks.next().unwrap().unwrap();
    assert_eq!(second.remark_type, RemarkType::Missed);
    let kinds: Vec<_> = second
        .unknown
        .iter()
        .map(|u| match u {
            Unknown::ExtraOperands { code, operands, .. } => format!("extra {code} {operands}"),
            Unknown::Record { code, .. } => format!("record {code}"),
            Unknown::Block { block_id, .. } => format!("block {block_id}"),
            _ => "other".to_string(),
        })
        .collect();
    assert_eq!(kinds, ["extra 5 5", "record 42", "block 100"]);
    assert!(remarks.next().is_none());
    assert!(matches!(remarks.unknown_blocks(), [Unknown::Block { block_id: BlockId(12), .. }]));
}

#[test]
#[cfg(feature = "writer")]
fn bad_content_is_a_typed_error_with_its_offset() {
    use llvm_bitstream_reader::writer::BitstreamWriter;
    let (good, _) = serializer::write(Layout::Standalone, &awkward_remarks()[..1], b"");
    let append = |f: &dyn Fn(&mut BitstreamWriter)| {
        let mut w = BitstreamWriter::new(*b"RMRK");
        f(&mut w);
        let mut all = good.clone();
        all.extend_from_slice(&w.finish()[4..]);
        all
    };
    let first_error =
        |bytes: &[u8]| RemarksFile::parse(bytes).unwrap().remarks().unwrap().find_map(Result::err).unwrap();
    let at = (good.len() * 8) as u64;

    let bytes = append(&|w| {
        w.enter_block(9, 4);
        w.write_unabbrev(5, &[1, 0, 0, 100_000]);
        w.end_block();
    });
    assert!(
        matches!(first_error(&bytes), RemarksError::IndexOutOfRange { what: "string", index: 100_000, bit, .. } if bit > at)
    );

    let bytes = append(&|w| {
        w.enter_block(9, 4);
        w.write_unabbrev(7, &[5]);
        w.end_block();
    });
    assert_eq!(
        first_error(&bytes),
        RemarksError::MissingRecord { bit: at, block: "REMARK_BLOCK", record: "remark header" }
    );

    let bytes = append(&|w| {
        w.enter_block(9, 4);
        w.write_unabbrev(6, &[0, 1]);
        w.end_block();
    });
    assert!(matches!(
        first_error(&bytes),
        RemarksError::RecordTooShort { record: Some("Remark debug location"), found: 2, needed: 3, .. }
    ));

    // A container version no LLVM writes, and a type version 1 does not define.
    let mut w = BitstreamWriter::new(*b"RMRK");
    w.enter_blockinfo();
    w.end_block();
    w.enter_block(8, 3);
    w.write_unabbrev(1, &[2, 0]);
    w.end_block();
    let bytes = w.finish();
    assert!(matches!(RemarksFile::parse(&bytes), Err(RemarksError::UnsupportedVersion { version: 2, .. })));
    let bytes = {
        let mut w = BitstreamWriter::new(*b"RMRK");
        w.enter_blockinfo();
        w.end_block();
        w.enter_block(8, 3);
        w.write_unabbrev(1, &[1, 2]);
        w.end_block();
        w.finish()
    };
    assert!(matches!(RemarksFile::parse(&bytes), Err(RemarksError::InvalidValue { value: 2, .. })));
    // Not a remarks stream; no BLOCKINFO first.
    assert!(matches!(RemarksFile::parse(b"DIAG\0\0\0\0"), Err(RemarksError::WrongMagic { .. })));
    let bytes = {
        let mut w = BitstreamWriter::new(*b"RMRK");
        w.enter_block(8, 3);
        w.end_block();
        w.finish()
    };
    assert!(matches!(
        RemarksFile::parse(&bytes),
        Err(RemarksError::ExpectedBlock { expected: "BLOCKINFO_BLOCK", found: Some((BlockId(8), _)), bit: 32 })
    ));
}

/// LLVM 19 prints a remark of type 0 without a tag, and rejects one past its last type
/// (for which we print `!Type<N>`).
#[test]
#[cfg(feature = "writer")]
fn remark_types_llvm_cannot_print() {
    for kind in [0, 7] {
        let r = Synth { kind, pass: b"p".to_vec(), name: b"n".to_vec(), function: b"f".to_vec(), ..Synth::default() };
        let (bytes, _) = serializer::write(Layout::Standalone, &[r], b"");
        let ours = our_yaml(&bytes).unwrap();
        let tag = if kind == 0 { "---\nPass:" } else { "--- !Type7\n" };
        assert!(ours.starts_with(tag.as_bytes()), "{}", String::from_utf8_lossy(&ours));
        let Some(tool) = remarkutil() else { return };
        let path = temp_dir(&format!("type{kind}")).join("t.opt.bitstream");
        std::fs::write(&path, &bytes).unwrap();
        let theirs = llvm_yaml(&tool, &path);
        if kind == 0 {
            assert_eq!(String::from_utf8_lossy(&ours), String::from_utf8_lossy(&theirs.unwrap()));
        } else {
            assert!(theirs.unwrap_err().contains("unknown remark type"));
        }
    }
}

/// Every remarks file of testdata, cut at every byte, and every malformed file: an error
/// or fewer remarks, never a panic.
#[test]
fn truncated_and_malformed_inputs_give_errors_not_panics() {
    let mut files: Vec<PathBuf> =
        common::testdata_files().into_iter().filter(|p| p.to_string_lossy().ends_with(".opt.bitstream")).collect();
    assert!(files.len() >= 5, "{files:?}");
    let meta = std::fs::read(testdata("clang14_remarks_section_meta.opt.bitstream")).unwrap();
    let meta = RemarksFile::parse(&meta).unwrap();
    let table = meta.meta().string_table.clone().unwrap();
    let read_all = |bytes: &[u8]| -> (usize, bool) {
        let Ok(file) = RemarksFile::parse(bytes) else { return (0, false) };
        let remarks = match file.remarks() {
            Ok(r) => r,
            Err(_) => file.remarks_with(table.clone()).unwrap(),
        };
        let mut n = 0;
        for r in remarks {
            match r {
                Ok(_) => n += 1,
                Err(e) => {
                    assert!(!e.to_string().is_empty());
                    return (n, false);
                }
            }
        }
        (n, true)
    };
    let mut cuts = 0;
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        let (full, ok) = read_all(&bytes);
        assert!(ok, "{} reads whole", path.display());
        for len in 0..bytes.len() {
            let (n, _) = read_all(&bytes[..len]);
            assert!(n <= full, "{} cut at {len}", path.display());
            cuts += 1;
        }
    }
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/malformed");
    files = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        let _ = read_all(&bytes);
        // Also as if the file were a remarks stream.
        if bytes.len() >= 4 {
            let mut as_remarks = b"RMRK".to_vec();
            as_remarks.extend_from_slice(&bytes[4..]);
            let _ = read_all(&as_remarks);
        }
    }
    eprintln!("{cuts} truncations and {} malformed files read without a panic", files.len());
}

/// Issue 29: a cut remarks file gives back every remark fully read before the cut. Every
/// remarks file of testdata with its own string table, cut at every byte: no panic; the
/// container `parse_partial` returns walks without an error (the error is given once, by
/// `parse_partial`); a longer prefix never gives fewer remarks; the whole file gives what
/// `parse` gives; an error falls inside the prefix (bit offset ≤ 8 × prefix length).
#[test]
fn a_cut_file_gives_back_every_remark_before_the_cut() {
    let files: Vec<PathBuf> =
        common::testdata_files().into_iter().filter(|p| p.to_string_lossy().ends_with(".opt.bitstream")).collect();
    // The separate layout clang-14 wrote: its remarks file reads with the meta container's
    // string table. The meta container, and opt-19's file without a table, are checked
    // for panics and offsets only.
    let meta = std::fs::read(testdata("clang14_remarks_section_meta.opt.bitstream")).unwrap();
    let meta = RemarksFile::parse(&meta).unwrap();
    let table = meta.meta().string_table.clone().unwrap();
    let mut checked = 0;
    for path in &files {
        let name = path.display().to_string();
        let separate = name.ends_with("clang14_remarks_darwin.opt.bitstream");
        let remarks_of = |file: &RemarksFile<'_>| {
            if separate { file.remarks_with(table.clone()) } else { file.remarks() }
                .map(|r| r.map(|r| r.map(|r| (r.name.to_string(), r.function.to_string(), r.message(), r.bit))))
                .map(Iterator::collect::<Vec<_>>)
        };
        let bytes = std::fs::read(path).unwrap();
        let whole = RemarksFile::parse(&bytes).unwrap();
        let all = remarks_of(&whole).ok().map(|v| v.into_iter().map(Result::unwrap).collect::<Vec<_>>());
        let (mut last, mut most) = (0, 0);
        for cut in 0..=bytes.len() {
            let (file, error) = RemarksFile::parse_partial(&bytes[..cut]);
            if let Some(e) = &error {
                assert!(e.bit_offset() <= cut as u64 * 8, "{name} cut at {cut}: {e}");
            }
            assert!(file.is_some() || error.is_some(), "{name} cut at {cut}: neither a file nor an error");
            let Some(all) = &all else { continue };
            let got: Vec<_> = match file.as_ref().map(remarks_of) {
                // An LLVM 22 file cut before its late string table: no remarks to read.
                Some(Err(_)) | None => Vec::new(),
                Some(Ok(remarks)) => remarks
                    .into_iter()
                    .map(|r| r.unwrap_or_else(|e| panic!("{name} cut at {cut}: a second error: {e}")))
                    .collect(),
            };
            assert!(got.len() >= last, "{name}: {} remarks cut at {cut}, {last} one byte earlier", got.len());
            assert_eq!(got[..], all[..got.len()], "{name} cut at {cut}: not the whole file's first remarks");
            last = got.len();
            most = most.max(got.len());
            if cut == bytes.len() {
                assert!(error.is_none(), "{name}: {error:?}");
                assert_eq!(got.len(), all.len(), "{name}");
            }
        }
        checked += 1;
        eprintln!("{name}: {} prefixes, up to {most} remarks, monotone", bytes.len() + 1);
    }
    assert!(checked >= 5, "{files:?}");
}

/// An LLVM 22 file, cut at every byte: the remarks before the cut are lost with the string
/// table at its end, but nothing panics, every error is inside the prefix, and the whole
/// file gives its remarks.
#[test]
#[cfg(feature = "writer")]
fn a_cut_llvm22_file_gives_its_meta_and_one_error() {
    let list = awkward_remarks();
    let (bytes, _) = serializer::write(Layout::Llvm22, &list, b"");
    for cut in 0..=bytes.len() {
        let (file, error) = RemarksFile::parse_partial(&bytes[..cut]);
        if let Some(e) = &error {
            assert!(e.bit_offset() <= cut as u64 * 8, "cut at {cut}: {e}");
        }
        match (file, cut == bytes.len()) {
            (Some(file), true) => assert_eq!(file.remarks().unwrap().count(), list.len()),
            (Some(file), false) if error.is_some() => {
                if let Ok(remarks) = file.remarks() {
                    assert!(remarks.map(Result::unwrap).count() < list.len());
                }
            }
            (_, _) => {}
        }
    }
}

/// The strings are borrowed from the input, not copied.
#[test]
fn strings_borrow_the_string_table() {
    let bytes = std::fs::read(testdata("llvm19_remarks_standalone.opt.bitstream")).unwrap();
    let file = RemarksFile::parse(&bytes).unwrap();
    let range = bytes.as_ptr_range();
    let inside = |s: Text<'_>| s.is_empty() || range.contains(&s.as_bytes().as_ptr());
    for remark in file.remarks().unwrap() {
        let remark = remark.unwrap();
        assert!(inside(remark.pass) && inside(remark.name) && inside(remark.function));
        assert!(remark.args.iter().all(|a| inside(a.key) && inside(a.value)));
    }
}

#[test]
#[cfg(feature = "serde")]
fn remarks_serialize() {
    // serde_json is not a dependency of the library: check the derive through a
    // serializer that only counts fields.
    struct Count(usize);
    impl std::fmt::Write for Count {
        fn write_str(&mut self, s: &str) -> std::fmt::Result {
            self.0 += s.len();
            Ok(())
        }
    }
    let bytes = std::fs::read(testdata("llvm19_remarks_hotness.opt.bitstream")).unwrap();
    let file = RemarksFile::parse(&bytes).unwrap();
    let remark = file.remarks().unwrap().next().unwrap().unwrap();
    fn assert_serialize<T: serde::Serialize>(_: &T) {}
    assert_serialize(&remark);
    assert_serialize(file.meta());
    let mut c = Count(0);
    std::fmt::write(&mut c, format_args!("{}", remark.pass)).unwrap();
    assert!(c.0 > 0);
}

/// The meta container is found in the Mach-O object clang-14 wrote.
#[test]
fn the_remarks_section_of_an_object_is_the_meta_container() {
    let object = std::fs::read(testdata("clang14_remarks_darwin.o")).unwrap();
    let section = llvm_bitstream_reader::remarks::find_in_object(&object).unwrap();
    assert_eq!(section, std::fs::read(testdata("clang14_remarks_section_meta.opt.bitstream")).unwrap());
    assert_eq!(llvm_bitstream_reader::remarks::find_in_object(b"RMRK not an object"), None);
    let bitcode = std::fs::read(testdata("llvm14_ir_globals.bc")).unwrap();
    assert_eq!(llvm_bitstream_reader::remarks::find_in_object(&bitcode), None);
}

/// An LLVM 22 file cut before its late META block: the error says the table is missing
/// from the end, not that it is in another file.
#[test]
#[cfg(feature = "writer")]
fn llvm22_file_without_its_late_string_table() {
    let list = &awkward_remarks()[..3];
    let (bytes, _) = serializer::write(Layout::Llvm22, list, b"");
    let file = RemarksFile::parse(&bytes).unwrap();
    assert_eq!(file.remarks().unwrap().count(), 3);
    // Cut the late META block off: the last top-level block, which starts 32-bit aligned.
    let mut reader = llvm_bitstream_reader::Bitstream::parse(&bytes).unwrap().reader();
    let mut last_meta = 0;
    while let Some(entry) = reader.advance().unwrap() {
        if let llvm_bitstream_reader::Entry::EnterBlock(b) = entry {
            if b.block_id == 8 {
                last_meta = b.header_bit;
            }
            reader.skip_block().unwrap();
        }
    }
    let file = RemarksFile::parse(&bytes[..(last_meta / 8) as usize]).unwrap();
    let err = file.remarks().unwrap_err();
    assert!(err.to_string().contains("after the remarks"), "{err}");
}
