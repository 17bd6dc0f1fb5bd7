//! Malformed inputs: every file in `testdata/malformed/` must end its walk in the error
//! `testdata/malformed/EXPECTED.txt` names for it (or `OK`), and every file in
//! `fuzz/regressions/` must pass the fuzz targets' checks.
//!
//! Regenerate the corpus with
//! `cargo test --all-features --test malformed -- --ignored regenerate_malformed_corpus`.

use std::path::{Path, PathBuf};

use llvm_bitstream_reader::{Bitstream, Error};

/// The checks of the `walk` and `skip_resume` fuzz targets, shared as plain Rust.
#[allow(dead_code)]
#[path = "../fuzz/src/check.rs"]
mod check;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn malformed_dir() -> PathBuf {
    root().join("testdata/malformed")
}

/// `UnexpectedEof { bit: .. }` -> `UnexpectedEof`.
fn variant_name(e: &Error) -> String {
    let dbg = format!("{e:?}");
    dbg.split(['{', ' ', '(']).next().unwrap_or_default().to_owned()
}

/// The full walk (every event, every operand): `Ok(())` or the error it ended with.
fn walk_result(bytes: &[u8]) -> Result<(), Error> {
    match check::full_walk(bytes) {
        None => Ok(()),
        Some(Err(e)) => Err(e),
        Some(Ok(w)) => w.error.map_or(Ok(()), Err),
    }
}

fn expected() -> Vec<(String, String)> {
    let text = std::fs::read_to_string(malformed_dir().join("EXPECTED.txt")).expect("EXPECTED.txt");
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let mut parts = l.split_whitespace();
            let file = parts.next().unwrap().to_owned();
            let want = parts.next().unwrap_or_else(|| panic!("no expectation in line {l:?}")).to_owned();
            (file, want)
        })
        .collect()
}

fn files_in(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files
}

#[test]
fn malformed_corpus_gives_expected_errors() {
    let expected = expected();
    let listed: Vec<&str> = expected.iter().map(|(f, _)| f.as_str()).collect();
    let mut failures = Vec::new();
    for path in files_in(&malformed_dir()) {
        let name = path.file_name().unwrap().to_str().unwrap();
        if name == "EXPECTED.txt" {
            continue;
        }
        assert!(listed.contains(&name), "{name} is not listed in EXPECTED.txt");
    }
    for (file, want) in &expected {
        let bytes = std::fs::read(malformed_dir().join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        let got = match walk_result(&bytes) {
            Ok(()) => "OK".to_owned(),
            Err(e) => {
                let msg = e.to_string();
                if !msg.contains("bit") {
                    failures.push(format!("{file}: message does not state a bit offset: {msg}"));
                }
                variant_name(&e)
            }
        };
        if &got != want {
            failures.push(format!("{file}: expected {want}, got {got} ({:?})", walk_result(&bytes)));
        }
        // Every API, and the skip/resume walk, must agree on every malformed file too.
        if std::panic::catch_unwind(|| check::walk(&bytes)).is_err() {
            failures.push(format!("{file}: the API cross-check (check::walk) failed (see the panic above)"));
        }
        if std::panic::catch_unwind(|| check::skip_resume(&bytes)).is_err() {
            failures.push(format!("{file}: skip/resume check failed (see the panic above)"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Blocks nested 100 000 deep (800 KB, so built here rather than committed): the depth
/// limit stops the walk long before, without recursion or unbounded memory.
#[test]
fn nesting_100000_deep() {
    let bytes = deep_nesting(100_000);
    let err = walk_result(&bytes).unwrap_err();
    assert_eq!(variant_name(&err), "TooDeep", "{err}");
    check::walk(&bytes);
    check::skip_resume(&bytes);
}

/// `depth` nested ENTER_SUBBLOCKs (block id 8, width 2), each running to the end of the
/// input, and nothing else.
fn deep_nesting(depth: usize) -> Vec<u8> {
    let len = 4 + 8 * depth;
    let mut bytes = Vec::with_capacity(len);
    bytes.extend_from_slice(b"TEST");
    for d in 0..depth {
        // abbrev id 1 (2 bits), block id 8 (vbr8), width 2 (vbr4), aligned to 32 bits.
        let header: u32 = 1 | (8 << 2) | (2 << 10);
        bytes.extend_from_slice(&header.to_le_bytes());
        let content = 4 + 8 * (d + 1);
        bytes.extend_from_slice(&(((len - content) / 4) as u32).to_le_bytes());
    }
    bytes
}

/// Every input the fuzzers kept goes through the same checks as the fuzz targets, on
/// stable, without libFuzzer. (`roundtrip-*` inputs are `arbitrary` encodings of stream
/// descriptions; they need `cargo +nightly fuzz run roundtrip <file>` to replay as such,
/// and here only get the raw-byte checks.)
#[test]
fn fuzz_regressions_replay() {
    let dir = root().join("fuzz/regressions");
    let files = files_in(&dir);
    assert!(!files.is_empty(), "no regression inputs in {}", dir.display());
    for path in files {
        let bytes = std::fs::read(&path).unwrap();
        let name = path.display().to_string();
        let outcome = std::panic::catch_unwind(|| {
            check::walk(&bytes);
            check::skip_resume(&bytes);
        });
        assert!(outcome.is_ok(), "{name} failed the fuzz checks");
    }
}

/// The seeds the fuzzers start from pass the same checks (and walk without error).
/// Under Miri only the small ones (every kind of file has one under 16 KB): the whole
/// megabyte takes Miri over an hour.
#[test]
fn testdata_passes_fuzz_checks() {
    for path in files_in(&root().join("testdata")) {
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        if !matches!(ext, "bc" | "dia" | "pch" | "bitstream") {
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        if cfg!(miri) && bytes.len() > 16 * 1024 {
            continue;
        }
        walk_result(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        check::walk(&bytes);
        check::skip_resume(&bytes);
    }
}

#[cfg(feature = "writer")]
mod generate {
    use llvm_bitstream_reader::AbbrevOp::{self, Array, Blob, Char6, Fixed, Literal, Vbr};
    use llvm_bitstream_reader::writer::{BitstreamWriter, wrap};

    fn w() -> BitstreamWriter {
        BitstreamWriter::new(*b"TEST")
    }

    /// Sets the length word of the first top-level block (bytes 8..12; its content
    /// starts at byte 12) so the block ends at or before the end of the input.
    fn fit_first_block(bytes: &mut [u8]) {
        let words = ((bytes.len() - 12) / 4) as u32;
        bytes[8..12].copy_from_slice(&words.to_le_bytes());
    }

    fn set_u32(bytes: &mut [u8], at: usize, v: u32) {
        bytes[at..at + 4].copy_from_slice(&v.to_le_bytes());
    }

    fn valid() -> Vec<u8> {
        let mut w = w();
        w.enter_block(8, 3);
        w.define_abbrev(&[Literal(1), Array, Char6]);
        w.write_abbreviated(4, &[Literal(1), Array, Char6], 1, &b"hello".map(u64::from), None).unwrap();
        w.write_unabbrev(2, &[1, 2, 3]);
        w.end_block();
        w.finish()
    }

    /// A stream whose block 8 (width 3) gets `body`, finished normally (length patched).
    fn in_block(body: impl FnOnce(&mut BitstreamWriter)) -> Vec<u8> {
        let mut w = w();
        w.enter_block(8, 3);
        body(&mut w);
        w.finish()
    }

    /// Defines `abbrev` in a block of width 3 and writes abbreviation id 4 and then
    /// 64 zero bits, so a record using it has something to read.
    fn use_abbrev(abbrev: &[AbbrevOp]) -> Vec<u8> {
        in_block(|w| {
            w.define_abbrev(abbrev);
            w.write_abbrev_id(4);
            w.write_fixed(0, 64);
        })
    }

    fn raw_define(encoding: u8, width: Option<u32>) -> Vec<u8> {
        in_block(|w| {
            w.write_abbrev_id(2);
            w.write_vbr(1, 5);
            w.write_encoding(encoding, width);
            w.write_fixed(0, 64);
        })
    }

    /// Writes the continuation-bit-set chunk `0b1..1` of a `width`-bit VBR `n` times.
    fn ones(w: &mut BitstreamWriter, width: u32, n: usize) {
        for _ in 0..n {
            w.write_fixed((1 << width) - 1, width);
        }
    }

    /// (file, bytes, expected variant or OK)
    pub fn corpus() -> Vec<(&'static str, Vec<u8>, &'static str)> {
        let mut out: Vec<(&'static str, Vec<u8>, &'static str)> = Vec::new();

        out.push(("valid-minimal.bin", valid(), "OK"));
        out.push(("magic-only.bin", b"TEST".to_vec(), "OK"));
        out.push(("too-short-for-magic.bin", b"BC".to_vec(), "TooShortForMagic"));

        // Truncations.
        {
            let mut w = w();
            w.enter_block(8, 3);
            w.write_unabbrev(1, &[1, 2]);
            w.write_abbrev_id(3);
            w.write_vbr(5, 6);
            w.write_vbr(1, 6);
            let at = w.bit_position();
            w.write_vbr(u64::MAX, 6); // 13 chunks, 78 bits
            let mut b = w.finish();
            b.truncate(((at + 30) / 8) as usize);
            fit_first_block(&mut b);
            out.push(("truncated-in-vbr.bin", b, "UnexpectedEof"));
        }
        {
            let mut w = w();
            w.enter_block(8, 3);
            w.define_abbrev(&[Literal(1), Fixed(32)]);
            w.write_abbrev_id(4);
            let at = w.bit_position();
            w.write_fixed(0xFFFF_FFFF, 32);
            let mut b = w.finish();
            b.truncate(((at + 16) / 8) as usize);
            fit_first_block(&mut b);
            out.push(("truncated-in-fixed.bin", b, "UnexpectedEof"));
        }
        {
            // Inside a block, an ENTER_SUBBLOCK whose block id (vbr8) never ends.
            let mut w = w();
            w.enter_block(8, 3);
            w.write_unabbrev(1, &[1]);
            w.write_abbrev_id(1);
            let at = w.bit_position();
            ones(&mut w, 8, 3);
            let mut b = w.finish();
            b.truncate((at / 8 + 3) as usize);
            fit_first_block(&mut b);
            out.push(("truncated-in-nested-block-header.bin", b, "UnexpectedEof"));
        }
        {
            // The first top-level block header cut after 6 bytes. At most 8 bytes remain,
            // but they are tolerated only after a complete block: llvm-bcanalyzer says
            // "Unexpected end of file" here too.
            let mut b = valid();
            b.truncate(4 + 6);
            out.push(("truncated-top-level-header-6-bytes.bin", b, "UnexpectedEof"));
        }
        {
            // VBR6 operand with continuation bits up to the end of the input (< 64 bits).
            let mut w = w();
            w.enter_block(8, 3);
            w.write_abbrev_id(3);
            w.write_vbr(1, 6);
            w.write_vbr(1, 6);
            ones(&mut w, 6, 9);
            // Fill the rest of the last byte with ones too (at most one more chunk).
            let pad = ((8 - w.bit_position() % 8) % 8) as u32;
            w.write_fixed((1 << pad) - 1, pad);
            let end = (w.bit_position() / 8) as usize;
            let mut b = w.finish();
            b.truncate(end);
            fit_first_block(&mut b);
            out.push(("vbr-never-ends.bin", b, "UnexpectedEof"));
        }
        out.push((
            "vbr-over-64-bits.bin",
            in_block(|w| {
                w.write_abbrev_id(3);
                w.write_vbr(1, 6);
                w.write_vbr(1, 6);
                ones(w, 6, 13); // 65 payload bits, still continuing
                w.write_fixed(0, 64);
            }),
            "UnterminatedVbr",
        ));
        out.push((
            "vbr32-over-32-bits.bin",
            in_block(|w| {
                w.write_abbrev_id(3);
                ones(w, 6, 7); // record code: 35 payload bits, still continuing
                w.write_fixed(0, 64);
            }),
            "UnterminatedVbr",
        ));
        out.push((
            "block-id-vbr-over-32-bits.bin",
            in_block(|w| {
                w.write_abbrev_id(1);
                ones(w, 8, 5);
                w.write_fixed(0, 64);
            }),
            "UnterminatedVbr",
        ));
        out.push((
            "abbrev-literal-vbr-over-64-bits.bin",
            in_block(|w| {
                w.write_abbrev_id(2);
                w.write_vbr(1, 5);
                w.write_fixed(1, 1); // literal, vbr8 value
                ones(w, 8, 10);
                w.write_fixed(0, 64);
            }),
            "UnterminatedVbr",
        ));

        // Block lengths.
        {
            let mut b = valid();
            set_u32(&mut b, 8, 1000);
            out.push(("block-length-past-end.bin", b, "BlockTooLong"));
        }
        {
            let mut b = valid();
            let words = u32::from_le_bytes(b[8..12].try_into().unwrap());
            set_u32(&mut b, 8, words - 1);
            out.push(("block-length-too-small.bin", b, "BlockLengthMismatch"));
        }
        {
            let mut b = valid();
            set_u32(&mut b, 8, u32::MAX);
            out.push(("block-length-u32-max.bin", b, "BlockTooLong"));
        }
        {
            // Block 9 inside block 8 runs past block 8's end, but not past the input.
            let mut w = w();
            w.enter_block(8, 3);
            w.enter_block(9, 3);
            w.write_unabbrev(1, &[1]);
            w.end_block();
            w.end_block();
            w.enter_block(10, 3);
            w.write_unabbrev(1, &[0; 40]);
            w.end_block();
            let mut b = w.finish();
            // Block 8: header 4..8, length 8..12; block 9: header 12..16, length 16..20.
            let outer = u32::from_le_bytes(b[8..12].try_into().unwrap());
            set_u32(&mut b, 16, outer);
            out.push(("nested-block-past-parent.bin", b, "BlockTooLong"));
        }

        // Abbreviation ids and widths.
        out.push((
            "abbrev-id-out-of-range.bin",
            in_block(|w| {
                w.define_abbrev(&[Fixed(3)]);
                w.write_abbrev_id(5);
                w.write_fixed(0, 64);
            }),
            "UndefinedAbbrev",
        ));
        {
            let mut w = w();
            w.enter_block(8, 32);
            w.write_abbrev_id(u32::MAX);
            w.write_fixed(0, 64);
            out.push(("abbrev-id-u32-max.bin", w.finish(), "UndefinedAbbrev"));
        }
        {
            let mut w = w();
            w.enter_block(8, 0);
            w.write_unabbrev(1, &[1]);
            out.push(("abbrev-width-0.bin", w.finish(), "InvalidAbbrevWidth"));
        }
        {
            let mut w = w();
            w.enter_block(8, 65);
            w.write_unabbrev(1, &[1]);
            out.push(("abbrev-width-65.bin", w.finish(), "InvalidAbbrevWidth"));
        }
        {
            // Up to 64 is LLVM's limit (`MaxChunkSize` on 64-bit hosts).
            let mut w = w();
            w.enter_block(8, 64);
            w.write_unabbrev(1, &[1]);
            out.push(("abbrev-width-64.bin", w.finish(), "OK"));
        }

        // DEFINE_ABBREV.
        out.push(("define-abbrev-encoding-0.bin", raw_define(0, None), "InvalidEncoding"));
        out.push(("define-abbrev-encoding-6.bin", raw_define(6, None), "InvalidEncoding"));
        out.push(("define-abbrev-encoding-7.bin", raw_define(7, None), "InvalidEncoding"));
        out.push(("fixed-operand-width-65.bin", raw_define(1, Some(65)), "OperandTooWide"));
        out.push(("vbr-operand-width-65.bin", raw_define(2, Some(65)), "OperandTooWide"));
        out.push(("fixed-operand-width-64.bin", use_abbrev(&[Literal(1), Fixed(64)]), "OK"));
        // LLVM accepts the definition but cannot read 33-bit chunks (limits::MAX_VBR_CHUNK_WIDTH).
        out.push(("vbr-operand-width-33-used.bin", use_abbrev(&[Literal(1), Vbr(33)]), "InvalidAbbrev"));
        out.push(("fixed-operand-width-u32-max.bin", raw_define(1, Some(u32::MAX)), "OperandTooWide"));
        out.push((
            "define-abbrev-no-operands.bin",
            in_block(|w| {
                w.write_abbrev_id(2);
                w.write_vbr(0, 5);
                w.write_fixed(0, 64);
            }),
            "EmptyAbbrev",
        ));
        {
            // Claims 2^31 operands, then 8000 char6 operands (4 bits each) up to the end.
            let mut w = w();
            w.enter_block(8, 3);
            w.write_abbrev_id(2);
            w.write_vbr(1 << 31, 5);
            for _ in 0..8000 {
                w.write_encoding(4, None);
            }
            let end = (w.bit_position() / 8) as usize;
            let mut b = w.finish();
            b.truncate(end);
            fit_first_block(&mut b);
            out.push(("define-abbrev-count-huge.bin", b, "UnexpectedEof"));
        }

        // Abbreviations LLVM accepts when defined and rejects when used.
        out.push(("array-not-second-to-last.bin", use_abbrev(&[Fixed(3), Array, Fixed(8), Fixed(2)]), "InvalidAbbrev"));
        out.push(("array-last.bin", use_abbrev(&[Fixed(3), Array]), "InvalidAbbrev"));
        out.push(("array-of-array.bin", use_abbrev(&[Literal(1), Array, Array]), "InvalidAbbrev"));
        out.push(("array-of-blob.bin", use_abbrev(&[Literal(1), Array, Blob]), "InvalidAbbrev"));
        out.push(("array-of-fixed0.bin", use_abbrev(&[Literal(1), Array, Fixed(0)]), "InvalidAbbrev"));
        out.push(("array-of-literal.bin", use_abbrev(&[Literal(1), Array, Literal(7)]), "InvalidAbbrev"));
        out.push(("abbrev-starts-with-array.bin", use_abbrev(&[Array, Fixed(8)]), "InvalidAbbrev"));
        out.push(("abbrev-starts-with-blob.bin", use_abbrev(&[Blob]), "InvalidAbbrev"));
        {
            // Defined but never used: fine, as in LLVM.
            let mut w = w();
            w.enter_block(8, 3);
            w.define_abbrev(&[Literal(1), Array, Array]);
            w.write_unabbrev(1, &[1]);
            out.push(("array-of-array-unused.bin", w.finish(), "OK"));
        }

        // Counts.
        out.push((
            "array-count-2pow40.bin",
            in_block(|w| {
                w.define_abbrev(&[Literal(1), Array, Fixed(8)]);
                w.write_abbrev_id(4);
                w.write_vbr(1 << 40, 6);
                w.write_fixed(0, 64);
            }),
            "UnterminatedVbr",
        ));
        out.push((
            "array-count-2pow32-minus-1.bin",
            in_block(|w| {
                w.define_abbrev(&[Literal(1), Array, Fixed(8)]);
                w.write_abbrev_id(4);
                w.write_vbr(u64::from(u32::MAX), 6);
                w.write_fixed(0, 64);
            }),
            "ImplausibleCount",
        ));
        out.push((
            "array-fixed32-count-past-end.bin",
            in_block(|w| {
                // 100 elements of 32 bits need 3200 bits; fewer than that but more than
                // 100 bits remain: the count is checked against the element width first.
                w.define_abbrev(&[Literal(1), Array, Fixed(32)]);
                w.write_abbrev_id(4);
                w.write_vbr(100, 6);
                w.write_fixed(0, 64);
                w.write_fixed(0, 64);
            }),
            "ImplausibleCount",
        ));
        out.push((
            "unabbrev-numops-huge.bin",
            in_block(|w| {
                w.write_abbrev_id(3);
                w.write_vbr(1, 6);
                w.write_vbr(u64::from(u32::MAX), 6);
                w.write_fixed(0, 64);
            }),
            "ImplausibleCount",
        ));
        out.push((
            "blob-past-end.bin",
            in_block(|w| {
                w.define_abbrev(&[Literal(1), Blob]);
                w.write_abbrev_id(4);
                w.write_vbr(1000, 6);
                w.write_fixed(0, 64);
            }),
            "BlobTooLong",
        ));
        out.push((
            "blob-length-over-32-bits.bin",
            in_block(|w| {
                w.define_abbrev(&[Literal(1), Blob]);
                w.write_abbrev_id(4);
                ones(w, 6, 7);
                w.write_fixed(0, 64);
            }),
            "UnterminatedVbr",
        ));

        // BLOCKINFO.
        {
            let mut w = w();
            w.enter_blockinfo();
            w.block_name("x");
            out.push(("blockinfo-record-before-setbid.bin", w.finish(), "BadBlockInfo"));
        }
        {
            let mut w = w();
            w.enter_blockinfo();
            w.define_abbrev(&[Fixed(3)]);
            out.push(("blockinfo-abbrev-before-setbid.bin", w.finish(), "BadBlockInfo"));
        }
        {
            let mut w = w();
            w.enter_blockinfo();
            w.write_unabbrev(1, &[]);
            out.push(("blockinfo-setbid-without-operand.bin", w.finish(), "BadBlockInfo"));
        }
        {
            let mut w = w();
            w.enter_blockinfo();
            w.set_bid(8);
            w.enter_block(8, 3);
            out.push(("blockinfo-nested-block.bin", w.finish(), "BadBlockInfo"));
        }
        {
            let mut w = w();
            w.enter_blockinfo();
            w.set_bid(8);
            w.enter_blockinfo();
            out.push(("blockinfo-nested-blockinfo.bin", w.finish(), "BadBlockInfo"));
        }

        // The top level.
        {
            let mut b = b"TEST".to_vec();
            b.extend_from_slice(&[0; 12]);
            out.push(("end-block-at-top-level.bin", b, "EndBlockAtTopLevel"));
        }
        {
            let mut b = b"TEST".to_vec();
            b.extend_from_slice(&[3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
            out.push(("record-at-top-level.bin", b, "NotABlockAtTopLevel"));
        }
        {
            let mut b = b"TEST".to_vec();
            b.extend_from_slice(&[2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
            out.push(("define-abbrev-at-top-level.bin", b, "NotABlockAtTopLevel"));
        }
        {
            let mut b = valid();
            b.extend_from_slice(&[0xFF; 9]);
            out.push(("trailing-garbage-9-bytes.bin", b, "NotABlockAtTopLevel"));
        }
        {
            let mut b = valid();
            b.extend_from_slice(&[0xFF; 8]);
            out.push(("trailing-garbage-8-bytes.bin", b, "OK"));
        }
        {
            // 1025 nested blocks: one more than MAX_BLOCK_DEPTH (each runs to the end).
            out.push(("nesting-1025-deep.bin", super::deep_nesting(1025), "TooDeep"));
        }

        // Valid but hostile: many tiny things, for the allocation budget.
        {
            // 2000 one-operand DEFINE_ABBREVs (16 bits each) in one block.
            let mut w = w();
            w.enter_block(8, 2);
            for _ in 0..2000 {
                w.define_abbrev(&[Literal(0)]);
            }
            out.push(("many-tiny-abbrevs.bin", w.finish(), "OK"));
        }
        {
            // 1500 SETBIDs of distinct block ids (the table keeps an entry per id).
            let mut w = w();
            w.enter_blockinfo();
            for id in 0..1500 {
                w.set_bid(id);
            }
            out.push(("blockinfo-many-setbids.bin", w.finish(), "OK"));
        }

        // The wrapper header.
        {
            let b = wrap(&valid(), 7);
            out.push(("wrapper-valid.bin", b, "OK"));
        }
        {
            let mut b = wrap(&valid(), 7);
            b.truncate(10);
            out.push(("wrapper-truncated.bin", b, "BadWrapper"));
        }
        {
            let mut b = wrap(&valid(), 7);
            set_u32(&mut b, 8, 1000);
            out.push(("wrapper-offset-past-end.bin", b, "BadWrapper"));
        }
        {
            let mut b = wrap(&valid(), 7);
            let len = b.len() as u32;
            set_u32(&mut b, 12, len);
            out.push(("wrapper-size-past-end.bin", b, "BadWrapper"));
        }
        {
            let mut b = wrap(&valid(), 7);
            set_u32(&mut b, 8, 8);
            out.push(("wrapper-offset-inside-header.bin", b, "BadWrapper"));
        }
        {
            let mut b = wrap(&valid(), 7);
            set_u32(&mut b, 8, u32::MAX);
            set_u32(&mut b, 12, 2);
            out.push(("wrapper-offset-u32-max.bin", b, "BadWrapper"));
        }
        {
            let mut b = wrap(&valid(), 7);
            set_u32(&mut b, 12, 2);
            out.push(("wrapper-size-too-small-for-magic.bin", b, "TooShortForMagic"));
        }
        {
            // The wrapped stream's own size cuts its block short.
            let inner = valid();
            let mut b = wrap(&inner, 7);
            set_u32(&mut b, 12, inner.len() as u32 - 4);
            out.push(("wrapper-size-cuts-block.bin", b, "BlockTooLong"));
        }
        out
    }
}

#[cfg(feature = "writer")]
#[test]
#[ignore = "writes testdata/malformed/; run on purpose"]
fn regenerate_malformed_corpus() {
    let dir = malformed_dir();
    std::fs::create_dir_all(&dir).unwrap();
    for old in files_in(&dir) {
        std::fs::remove_file(old).unwrap();
    }
    let mut expected = String::from(
        "# <file> <error variant the full walk ends with, or OK>\n\
         # Generated by `cargo test --all-features --test malformed -- --ignored regenerate_malformed_corpus`.\n",
    );
    for (name, bytes, want) in generate::corpus() {
        std::fs::write(dir.join(name), &bytes).unwrap();
        expected.push_str(&format!("{name} {want}\n"));
    }
    std::fs::write(dir.join("EXPECTED.txt"), expected).unwrap();
}

/// The committed files are exactly what the generator writes (so EXPECTED.txt and the
/// generator cannot drift apart silently).
#[cfg(feature = "writer")]
#[test]
fn malformed_corpus_is_up_to_date() {
    for (name, bytes, want) in generate::corpus() {
        let path = malformed_dir().join(name);
        let committed = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}; regenerate", path.display()));
        assert!(committed == bytes, "{name} differs from what the generator writes; regenerate");
        assert!(expected().iter().any(|(f, w)| f == name && w == want), "{name} {want} missing from EXPECTED.txt");
    }
}

#[test]
fn bitstream_new_errors_state_bits() {
    for input in [&b""[..], b"BC", &[0xDE, 0xC0, 0x17, 0x0B, 0, 0]] {
        let e = Bitstream::parse(input).unwrap_err();
        assert!(e.to_string().contains("bit"), "{e}");
    }
}

/// A block reader counts `MAX_BLOCK_DEPTH` from the block it starts at (documented on
/// `Bitstream::block_reader`: the limit bounds each reader's own scope stack). A block
/// skipped at depth 2 of a 1030-deep nest is read back until its own reader has
/// `MAX_BLOCK_DEPTH` blocks open, then stops with `TooDeep`.
#[test]
fn lazy_block_readers_count_depth_from_their_block() {
    use llvm_bitstream_reader::Event;
    use llvm_bitstream_reader::limits::MAX_BLOCK_DEPTH;
    let bytes = deep_nesting(MAX_BLOCK_DEPTH + 6);
    let mut reader = Bitstream::parse(&bytes).unwrap().reader();
    let mut lazy = None;
    while let Some(event) = reader.next() {
        if let Event::EnterBlock(_) = event.unwrap() {
            if reader.depth() == 2 {
                lazy = Some(reader.skip_block().unwrap());
                break;
            }
        }
    }
    let mut enters = 0;
    let mut err = None;
    for event in lazy.unwrap().reader().unwrap() {
        match event {
            Ok(Event::EnterBlock(_)) => enters += 1,
            Ok(_) => {}
            Err(e) => {
                err = Some(e);
                break;
            }
        }
    }
    assert!(matches!(err, Some(Error::TooDeep { .. })), "{err:?}");
    assert_eq!(enters, MAX_BLOCK_DEPTH, "blocks the block reader entered before TooDeep");
}

/// Bookmarks are plain public values, so `block_reader` must reject any of them without
/// panicking (the crate promises never to panic on input).
#[test]
fn hostile_bookmarks_do_not_panic() {
    hostile_bookmarks(&[0, 32, 64, 96, 128, 4096, 1 << 40]);
}

/// Regression: `Bookmark::end_bit` once overflowed (a debug-build panic) on a bookmark
/// near `u64::MAX`; it saturates now and `block_reader` says `BadBookmark`.
#[test]
fn hostile_bookmarks_near_u64_max_do_not_panic() {
    hostile_bookmarks(&[u64::MAX - 31, 1 << 63, u64::MAX - (u64::from(u32::MAX) * 32) + 1]);
}

fn hostile_bookmarks(content_bits: &[u64]) {
    use llvm_bitstream_reader::{BlockInfo, Bookmark};
    let bytes = deep_nesting(3);
    let stream = Bitstream::parse(&bytes).unwrap();
    for &content_bit in content_bits {
        for len_words in [0, 1, 2, u32::MAX] {
            for abbrev_width in [0, 1, 2, 32, 33, 64, 65, u32::MAX] {
                let bookmark = Bookmark {
                    block_id: llvm_bitstream_reader::BlockId(8),
                    abbrev_width,
                    len_words,
                    header_bit: 0,
                    after_id_bit: content_bit.saturating_sub(64),
                    content_bit,
                };
                let outcome = std::panic::catch_unwind(|| {
                    if let Ok(reader) = stream.block_reader(&bookmark, std::sync::Arc::new(BlockInfo::new())) {
                        reader.take(100).for_each(drop);
                    }
                });
                assert!(outcome.is_ok(), "block_reader panicked on {bookmark:?}");
            }
        }
    }
}

/// Prints every malformed file's error message (`--nocapture`), for review.
#[test]
#[ignore = "prints messages for review"]
fn print_malformed_messages() {
    for (file, _) in expected() {
        let bytes = std::fs::read(malformed_dir().join(&file)).unwrap();
        match walk_result(&bytes) {
            Ok(()) => println!("{file}: OK"),
            Err(e) => println!("{file}: {e}  [{e:?}]"),
        }
    }
}
