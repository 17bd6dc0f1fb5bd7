//! Differential tests: our reading of every testdata file against LLVM 14's own
//! `BitstreamCursor` (tests/llvm-ref/events.cpp, built here with g++ and llvm-config-14),
//! in the shared event line format. Skips with a reason when the LLVM tools are missing,
//! fails under `CI=true`.

mod common;

use std::path::Path;
use std::process::Command;

/// The event line format, from the command-line tool.
#[path = "../crates/bitstream-dump/src/events.rs"]
mod events;
use events::{DumpError, write_events};

/// Our lines, and the error message if the walk failed.
fn ours(bytes: &[u8]) -> (Vec<String>, Option<String>) {
    let mut text = String::new();
    let err = match write_events(bytes, &mut text) {
        Ok(()) => None,
        Err(DumpError::Input(e)) => Some(e.to_string()),
        Err(e) => panic!("writing to a String failed: {e:?}"),
    };
    (text.lines().map(str::to_string).collect(), err)
}

/// LLVM's lines (its `error …` line split off).
fn llvm(tool: &Path, file: &Path) -> (Vec<String>, Option<String>) {
    let out = Command::new(tool).arg(file).output().expect("run llvm-events");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let err = match lines.last() {
        Some(l) if l.starts_with("error") => lines.pop(),
        _ => None,
    };
    assert_eq!(err.is_some(), !out.status.success(), "llvm-events exit status and output disagree on {file:?}");
    (lines, err)
}

#[test]
fn every_testdata_file_reads_exactly_as_llvm_14_reads_it() {
    let Some(tool) = common::llvm_events() else { return };
    let mut lines_compared = 0;
    let files = common::testdata_files();
    for file in &files {
        let bytes = std::fs::read(file).unwrap();
        let (our_lines, our_err) = ours(&bytes);
        let (llvm_lines, llvm_err) = llvm(&tool, file);
        assert_eq!(our_err, None, "{file:?}: we failed where LLVM read {} lines", llvm_lines.len());
        assert_eq!(llvm_err, None, "{file:?}: LLVM failed");
        if let Some(i) = our_lines.iter().zip(&llvm_lines).position(|(a, b)| a != b) {
            panic!("{file:?} line {}: ours {:?}, LLVM {:?}", i + 1, our_lines[i], llvm_lines[i]);
        }
        assert_eq!(our_lines.len(), llvm_lines.len(), "{file:?}: different number of lines");
        lines_compared += our_lines.len();
    }
    eprintln!("{} files, {lines_compared} event lines identical to LLVM 14", files.len());
}

/// Truncated files: where we fail, what we report before failing must be what LLVM
/// reports, and where we succeed LLVM must read the same (we may stop earlier: we check block lengths when a block is entered,
/// LLVM only when it skips one).
#[test]
fn truncated_files_fail_in_both_readers_and_agree_before_failing() {
    let Some(tool) = common::llvm_events() else { return };
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("truncated");
    std::fs::create_dir_all(&dir).unwrap();
    let mut cases = 0;
    for file in common::testdata_files() {
        let bytes = std::fs::read(&file).unwrap();
        // 24 cut points spread over the file, at 4-byte boundaries (LLVM wants whole words).
        for k in 1..24 {
            let cut = (bytes.len() * k / 24) & !3;
            if cut <= 8 {
                continue;
            }
            let path = dir.join(format!("{}-{cut}", file.file_name().unwrap().to_string_lossy()));
            std::fs::write(&path, &bytes[..cut]).unwrap();
            let (our_lines, our_err) = ours(&bytes[..cut]);
            let (llvm_lines, llvm_err) = llvm(&tool, &path);
            let name = path.display();
            if our_err.is_none() {
                // A cut on a top-level block boundary is a valid, shorter stream.
                assert_eq!(llvm_err, None, "{name}: we read it all, LLVM failed");
                assert_eq!(our_lines, llvm_lines, "{name}");
            } else {
                assert!(our_lines.len() <= llvm_lines.len(), "{name}: we reported more than LLVM");
                assert_eq!(our_lines[..], llvm_lines[..our_lines.len()], "{name}: lines before the error differ");
            }
            cases += 1;
        }
    }
    eprintln!("{cases} truncated files agree with LLVM 14 up to the error");
}

/// Hand-made streams with what LLVM 14 allows and its own writers never emit: `Fixed`
/// fields of 33..=64 bits (as operands, record codes and array elements), blocks whose
/// abbreviation ids are 33..=64 bits wide (ids cut to 32 bits), and a `VBR(40)`
/// definition no record uses. LLVM's `MaxChunkSize` is 64 on 64-bit hosts. Then streams
/// both readers must reject: a block of width 65, a `Fixed(65)` definition.
#[cfg(feature = "writer")]
#[test]
fn hand_made_wide_fields_and_ids_read_exactly_as_llvm_14_reads_them() {
    use llvm_bitstream_reader::AbbrevOp::{Array, Fixed, Literal, Vbr};
    use llvm_bitstream_reader::writer::BitstreamWriter;

    let Some(tool) = common::llvm_events() else { return };
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("hand-made-wide");
    std::fs::create_dir_all(&dir).unwrap();
    let mut good: Vec<(String, Vec<u8>)> = Vec::new();
    {
        let mut w = BitstreamWriter::new(*b"TEST");
        w.enter_block(9, 3);
        let abbrev = [Fixed(40), Fixed(40), Fixed(56), Fixed(64), Fixed(33), Array, Fixed(64)];
        w.define_abbrev(&abbrev);
        w.write_abbrev_id(4);
        w.write_fixed((1 << 33) | 7, 40); // the code: 7 once cut to 32 bits
        for (v, width) in [((1 << 40) - 1, 40), (0xAB_CDEF_0123_4567, 56), (u64::MAX, 64), ((1 << 32) | 1, 33)] {
            w.write_fixed(v, width);
        }
        w.write_vbr(3, 6);
        for v in [u64::MAX - 1, 1 << 63, 0] {
            w.write_fixed(v, 64);
        }
        let packed = [Literal(2), Fixed(40), Fixed(16)];
        w.define_abbrev(&packed);
        w.write_abbreviated(5, &packed, 2, &[(1 << 40) - 2, 0xBEEF], None).unwrap();
        let array = [Literal(3), Array, Fixed(40)];
        w.define_abbrev(&array);
        w.write_abbreviated(6, &array, 3, &[1, (1 << 40) - 1, 1 << 39], None).unwrap();
        w.define_abbrev(&[Literal(4), Vbr(40)]); // defined, never used
        w.write_unabbrev(5, &[u64::MAX]);
        w.end_block();
        good.push(("fixed-40-56-64.bc".into(), w.finish()));
    }
    for width in [33u32, 40, 64] {
        let mut w = BitstreamWriter::new(*b"TEST");
        // BLOCKINFO abbreviations for block 10, used in blocks of each width.
        w.enter_blockinfo();
        w.set_bid(10);
        let shared = [Literal(9), Fixed(64), Fixed(8)];
        w.define_abbrev(&shared);
        w.end_block();
        w.enter_block(10, width);
        w.write_unabbrev(1, &[1, 2]);
        w.write_abbreviated(4, &shared, 9, &[u64::MAX, 255], None).unwrap();
        w.write_fixed((1 << 32) | 3, width); // UNABBREV_RECORD once cut to 32 bits
        w.write_vbr(5, 6);
        w.write_vbr(1, 6);
        w.write_vbr(77, 6);
        w.write_fixed(((1 << 31) << 1) | 4, width); // abbreviation 4
        w.write_fixed(6, 64);
        w.write_fixed(7, 8);
        let own = [Literal(8), Fixed(48)];
        w.define_abbrev(&own);
        w.write_abbreviated(5, &own, 8, &[(1 << 48) - 1], None).unwrap();
        w.enter_block(11, 64);
        w.write_unabbrev(2, &[3]);
        w.end_block();
        w.end_block();
        good.push((format!("abbrev-width-{width}.bc"), w.finish()));
    }
    let mut lines_compared = 0;
    for (name, bytes) in &good {
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        let (our_lines, our_err) = ours(bytes);
        let (llvm_lines, llvm_err) = llvm(&tool, &path);
        assert_eq!((&our_err, &llvm_err), (&None, &None), "{name}");
        assert_eq!(our_lines, llvm_lines, "{name}");
        lines_compared += our_lines.len();
    }

    let mut bad: Vec<(&str, Vec<u8>)> = Vec::new();
    {
        let mut w = BitstreamWriter::new(*b"TEST");
        w.enter_block(9, 65);
        w.write_fixed(0, 64);
        bad.push(("abbrev-width-65.bc", w.finish()));
    }
    {
        let mut w = BitstreamWriter::new(*b"TEST");
        w.enter_block(9, 3);
        w.write_unabbrev(1, &[1]);
        w.define_abbrev(&[Literal(1), Fixed(65)]);
        w.end_block();
        bad.push(("fixed-65.bc", w.finish()));
    }
    for (name, bytes) in &bad {
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        let (our_lines, our_err) = ours(bytes);
        let (llvm_lines, llvm_err) = llvm(&tool, &path);
        assert!(our_err.is_some() && llvm_err.is_some(), "{name}: ours {our_err:?}, LLVM {llvm_err:?}");
        assert_eq!(our_lines, llvm_lines, "{name}: lines before the error differ");
    }
    eprintln!("{} hand-made streams, {lines_compared} event lines identical to LLVM 14", good.len());
}
