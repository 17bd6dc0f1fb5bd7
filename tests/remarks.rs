//! The `remarks` module against LLVM 19's `llvm-remarkutil bitstream2yaml`: remarks that
//! `opt-19 -O2` writes for C sources, converted with `yaml2bitstream`; the clang-14
//! separate layout in testdata; remarks with every kind of awkward string, written by a
//! copy of LLVM's serializer built on the crate's writer. Also: every layout (LLVM 19 and
//! LLVM 22), the errors, and truncation at every byte.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use llvm_bitstream_reader::remarks::{
    ContainerType, Remark, RemarkStr, RemarkType, RemarksError, RemarksFile, StringTable, Unrecognized, yaml,
};

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

/// A remark to write, strings as bytes.
#[derive(Clone, Default)]
struct Synth {
    kind: u64,
    pass: Vec<u8>,
    name: Vec<u8>,
    function: Vec<u8>,
    loc: Option<(Vec<u8>, u64, u64)>,
    hotness: Option<u64>,
    args: Vec<(Vec<u8>, Vec<u8>, Option<(Vec<u8>, u64, u64)>)>,
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
