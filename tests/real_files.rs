//! Real files: every testdata file read to the end, lazy function bodies read back from
//! bookmarks, and damaged copies that must fail cleanly.

mod common;

use llvm_bitstream_reader::ids::llvm_ir;
use llvm_bitstream_reader::{Bitstream, BitstreamFile, Error, Event, EventRef, LazyBlock, Magic, Reader};

/// A comparable form of an event, with everything a record exposes.
#[derive(Debug, PartialEq, Eq, Clone)]
enum Ev {
    Enter { id: u32, width: u32, words: u32, bit: u64 },
    Rec { code: u32, abbrev: u32, ops: Vec<u64>, array: Option<Vec<u64>>, blob: Option<Vec<u8>>, bits: usize },
    Exit,
}

fn ev(event: Event<'_>) -> Ev {
    match event {
        Event::EnterBlock(b) => {
            Ev::Enter { id: b.block_id().0, width: b.abbrev_width(), words: b.len_words(), bit: b.bit_offset() }
        }
        Event::Record(r) => {
            let ops: Vec<u64> = r.operands().collect();
            assert_eq!(ops.len(), r.len());
            for (i, &op) in ops.iter().enumerate() {
                assert_eq!(r.operand(i), Some(op));
            }
            assert_eq!(r.operand(ops.len()), None);
            let array = r.array().map(|a| a.iter().collect::<Vec<_>>());
            if let (Some(a), Some(arr)) = (&array, r.array()) {
                assert_eq!(&ops[arr.first_operand()..], &a[..], "array elements are the last operands");
            }
            Ev::Rec {
                code: r.code(),
                abbrev: r.abbrev_id(),
                ops,
                array,
                blob: r.blob().map(<[u8]>::to_vec),
                bits: r.bits().len(),
            }
        }
        Event::EndBlock(_) => Ev::Exit,
        _ => unreachable!("abbreviation definitions are not asked for"),
    }
}

/// The same for an event of the lending walk.
fn ev_ref(event: EventRef<'_, '_>) -> Ev {
    match event {
        EventRef::EnterBlock(b) => {
            Ev::Enter { id: b.block_id().0, width: b.abbrev_width(), words: b.len_words(), bit: b.bit_offset() }
        }
        EventRef::Record(r) => {
            assert_eq!(r.len(), r.operands().len());
            assert_eq!(r.operand(r.len()), None);
            Ev::Rec {
                code: r.code(),
                abbrev: r.abbrev_id(),
                ops: r.operand_slice().to_vec(),
                array: r.array_operands().map(<[u64]>::to_vec),
                blob: r.blob().map(<[u8]>::to_vec),
                bits: r.bits().len(),
            }
        }
        EventRef::EndBlock(_) => Ev::Exit,
        _ => unreachable!("abbreviation definitions are not asked for"),
    }
}

fn full_walk(bytes: &[u8]) -> Result<(Vec<Ev>, u64), Error> {
    let mut reader = Bitstream::parse(bytes)?.reader();
    let events = reader.by_ref().map(|e| e.map(ev)).collect::<Result<Vec<_>, _>>()?;
    Ok((events, reader.end_bit().expect("a finished walk knows where it ended")))
}

fn read_block(lazy: &LazyBlock<'_>) -> Vec<Ev> {
    lazy.reader().unwrap().map(|e| ev(e.unwrap())).collect()
}

/// Walks skipping every block with id `skip_id`; returns the events with a placeholder
/// index where each skipped block was, and the skipped blocks.
fn skip_walk<'a>(reader: &mut Reader<'a>, skip_id: u32) -> (Vec<Result<Ev, usize>>, Vec<LazyBlock<'a>>) {
    let mut events = Vec::new();
    let mut skipped = Vec::new();
    while let Some(e) = reader.next() {
        match e.unwrap() {
            Event::EnterBlock(b) if b.block_id() == skip_id => {
                let lazy = reader.skip_block().unwrap();
                assert_eq!(lazy.bookmark(), b.bookmark);
                events.push(Err(skipped.len()));
                skipped.push(lazy);
            }
            other => events.push(Ok(ev(other))),
        }
    }
    (events, skipped)
}

#[test]
fn every_testdata_file_reads_to_the_end() {
    for file in common::testdata_files() {
        let bytes = std::fs::read(&file).unwrap();
        let (events, end) = full_walk(&bytes).unwrap_or_else(|e| panic!("{file:?}: {e}"));
        let enters = events.iter().filter(|e| matches!(e, Ev::Enter { .. })).count();
        let exits = events.iter().filter(|e| matches!(e, Ev::Exit)).count();
        assert_eq!(enters, exits, "{file:?}: unbalanced blocks");
        assert!(enters > 0 && end > 32, "{file:?}");
        // Every byte of the stream is accounted for but the tolerated trailing padding.
        let stream_bits = Bitstream::parse(&bytes).unwrap().bytes().len() as u64 * 8;
        assert!(stream_bits - end <= 64, "{file:?}: {} bits left unread", stream_bits - end);
    }
}

#[test]
fn magic_and_wrapper_of_real_files() {
    let expect = [
        ("clang14_diagnostics.dia", Magic::ClangSerializedDiagnostics, false),
        ("clang14_small.pch", Magic::ClangAst, false),
        ("clang14_remarks_darwin.opt.bitstream", Magic::LlvmRemarks, false),
        ("llvm14_darwin_wrapper.bc", Magic::LlvmIr, true),
        ("rustc_llvm22_o3.bc", Magic::LlvmIr, false),
    ];
    for (name, magic, wrapped) in expect {
        let bytes = std::fs::read(format!("{}/testdata/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap();
        let stream = Bitstream::parse(&bytes).unwrap();
        assert_eq!(stream.magic(), magic, "{name}");
        assert_eq!(stream.wrapper().is_some(), wrapped, "{name}");
    }
}

#[test]
fn clang_names_its_blocks_and_records_through_blockinfo() {
    let bytes = std::fs::read(format!("{}/testdata/clang14_diagnostics.dia", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let mut reader = Bitstream::parse(&bytes).unwrap().reader();
    let mut names = std::collections::BTreeSet::new();
    for e in reader.by_ref() {
        if let Event::EnterBlock(b) = e.unwrap() {
            names.insert(b.name().unwrap_or("-").to_string());
        }
    }
    assert!(names.contains("Meta") && names.contains("Diag"), "{names:?}");
    assert_eq!(reader.blockinfo().record_name(9, 2), Some("DiagInfo"));
}

/// The acceptance test: skip every FUNCTION_BLOCK of a real module, read
/// them back from their bookmarks in reverse order, and get exactly the full walk.
#[test]
fn skipped_function_blocks_read_back_in_reverse_equal_the_full_walk() {
    let mut checked = 0;
    for name in
        ["rustc_llvm22_o0_debuginfo.bc", "rustc_llvm22_o3.bc", "llvm14_multi_module_cat.bc", "llvm14_darwin_wrapper.bc"]
    {
        let bytes = std::fs::read(format!("{}/testdata/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap();
        let (full, _) = full_walk(&bytes).unwrap();
        let mut reader = Bitstream::parse(&bytes).unwrap().reader();
        let (events, skipped) = skip_walk(&mut reader, llvm_ir::raw::FUNCTION_BLOCK_ID);
        assert!(!skipped.is_empty(), "{name} has function blocks");
        let mut bodies = vec![Vec::new(); skipped.len()];
        for (i, lazy) in skipped.iter().enumerate().rev() {
            bodies[i] = read_block(lazy);
        }
        let rebuilt: Vec<Ev> = events
            .into_iter()
            .flat_map(|e| match e {
                Ok(ev) => vec![ev],
                Err(i) => std::mem::take(&mut bodies[i]),
            })
            .collect();
        assert_eq!(rebuilt.len(), full.len(), "{name}");
        assert!(rebuilt == full, "{name}: skip + resume differs from the full walk");
        checked += skipped.len();
    }
    assert!(checked > 100, "only {checked} function blocks");
}

/// One reader reopened on every skipped body, in reverse order, reads each exactly as a
/// fresh reader does; it starts half-way through another file, with blocks open and
/// abbreviations defined, which must not leak into the bodies.
#[test]
fn one_reader_reopened_on_every_body_reads_like_fresh_readers() {
    let other = std::fs::read(format!("{}/testdata/llvm14_ir_instructions.bc", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let mut checked = 0;
    for name in ["rustc_llvm22_o0_debuginfo.bc", "rustc_llvm22_o3.bc", "llvm14_multi_module_cat.bc"] {
        let bytes = std::fs::read(format!("{}/testdata/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap();
        let mut reader = Bitstream::parse(&bytes).unwrap().reader();
        let (_, skipped) = skip_walk(&mut reader, llvm_ir::raw::FUNCTION_BLOCK_ID);
        let mut reused = Bitstream::parse(&other).unwrap().reader();
        // Into a nested block, past some records.
        let mut records = 0;
        while reused.depth() < 2 || records < 20 {
            if let Event::Record(_) = reused.next().expect("the other file has nested blocks").unwrap() {
                records += 1;
            }
        }
        for (i, lazy) in skipped.iter().enumerate().rev() {
            reused.reopen(lazy).unwrap();
            let mut got = Vec::new();
            // Alternate the two APIs, as in `lending_walk_equals_the_iterator_walk`.
            loop {
                if got.len() % 2 == 0 {
                    match reused.next() {
                        Some(e) => got.push(ev(e.unwrap())),
                        None => break,
                    }
                } else {
                    let Some(e) = reused.next_ref().unwrap() else { break };
                    got.push(ev_ref(e));
                }
            }
            assert!(got == read_block(lazy), "{name}: body {i}");
            assert_eq!(reused.depth(), 0);
            checked += 1;
        }
    }
    assert!(checked > 100, "only {checked} bodies");
}

#[test]
fn skipped_blocks_read_on_other_threads_from_plain_bookmarks() {
    let bytes = std::fs::read(format!("{}/testdata/rustc_llvm22_o0_debuginfo.bc", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let stream = Bitstream::parse(&bytes).unwrap();
    let mut reader = stream.reader();
    let (_, skipped) = skip_walk(&mut reader, llvm_ir::raw::FUNCTION_BLOCK_ID);
    // Keep only the plain values and the table, as a user storing bookmarks would.
    let bookmarks: Vec<_> = skipped.iter().map(LazyBlock::bookmark).collect();
    let blockinfo = skipped[0].blockinfo().clone();
    let serial: Vec<Vec<Ev>> = skipped.iter().map(read_block).collect();
    let parallel: Vec<Vec<Ev>> = std::thread::scope(|s| {
        let handles: Vec<_> = bookmarks
            .chunks(bookmarks.len().div_ceil(4))
            .map(|chunk| {
                let blockinfo = blockinfo.clone();
                s.spawn(move || {
                    chunk
                        .iter()
                        .map(|b| stream.block_reader(b, blockinfo.clone()).unwrap().map(|e| ev(e.unwrap())).collect())
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().unwrap()).collect()
    });
    assert!(serial == parallel);
}

#[test]
fn bookmarks_that_do_not_fit_the_stream_are_rejected() {
    let bytes = std::fs::read(format!("{}/testdata/rustc_llvm22_o3.bc", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let stream = Bitstream::parse(&bytes).unwrap();
    let mut reader = stream.reader();
    let (_, skipped) = skip_walk(&mut reader, llvm_ir::raw::FUNCTION_BLOCK_ID);
    let good = skipped[0].bookmark();
    let info = skipped[0].blockinfo().clone();
    for bad in [
        llvm_bitstream_reader::Bookmark { content_bit: good.content_bit + 1, ..good },
        llvm_bitstream_reader::Bookmark { len_words: u32::MAX, ..good },
    ] {
        assert!(matches!(stream.block_reader(&bad, info.clone()), Err(Error::BadBookmark { .. })));
    }
    // A width outside 1..=64 is the error of entering the block, as in a whole walk: the
    // reader announces the block, then fails.
    let zero = llvm_bitstream_reader::Bookmark { abbrev_width: 0, ..good };
    let mut r = stream.block_reader(&zero, info.clone()).unwrap();
    assert!(matches!(r.next(), Some(Ok(llvm_bitstream_reader::Event::EnterBlock(_)))));
    assert!(matches!(r.next(), Some(Err(Error::InvalidAbbrevWidth { width: 0, .. }))));
    // A bookmark pointing at the wrong place fails cleanly, never panics.
    let shifted =
        llvm_bitstream_reader::Bookmark { content_bit: good.content_bit + 32, len_words: good.len_words - 1, ..good };
    let result: Result<Vec<_>, _> = stream.block_reader(&shifted, info).unwrap().collect();
    assert!(result.is_err());
}

#[test]
fn memory_mapped_file_reads_like_a_slice() {
    let path = format!("{}/testdata/rustc_llvm22_o3.bc", env!("CARGO_MANIFEST_DIR"));
    let file = BitstreamFile::open(&path).unwrap();
    let mapped = full_walk(file.bytes()).unwrap();
    let read = full_walk(&std::fs::read(&path).unwrap()).unwrap();
    assert!(mapped == read);
    assert_eq!(file.bitstream().unwrap().magic(), Magic::LlvmIr);
    assert!(BitstreamFile::open("/nonexistent/file.bc").is_err());
}

/// Walks everything, touching every operand, array element, blob and bit view, with the
/// skip-and-resume walk too; returns whether the full walk succeeded. Must never panic.
fn exercise(bytes: &[u8]) -> bool {
    let Ok(full) = full_walk(bytes) else {
        // The skip walk must fail or stop too, never panic.
        if let Ok(stream) = Bitstream::parse(bytes) {
            let mut reader = stream.reader();
            while let Some(Ok(e)) = reader.next() {
                if let Event::EnterBlock(_) = e {
                    if let Ok(lazy) = reader.skip_block() {
                        if let Ok(r) = lazy.reader() {
                            r.take_while(Result::is_ok).for_each(drop);
                        }
                    }
                }
            }
        }
        return false;
    };
    // Skip every top-level block's children and read them back.
    let mut reader = Bitstream::parse(bytes).unwrap().reader();
    let mut rebuilt = Vec::new();
    while let Some(e) = reader.next() {
        let e = e.expect("the skip walk fails where the full walk did not");
        match e {
            Event::EnterBlock(_) if reader.depth() == 2 => {
                let lazy = reader.skip_block().expect("skip");
                rebuilt.extend(read_block(&lazy));
            }
            other => rebuilt.push(ev(other)),
        }
    }
    assert!(rebuilt == full.0, "skip and resume differ from the full walk");
    true
}

#[test]
fn truncation_at_every_byte_offset_fails_cleanly() {
    let mut cuts = 0;
    for file in common::testdata_files() {
        let bytes = std::fs::read(&file).unwrap();
        // Every offset of the small files; 1500 spread offsets of the large ones.
        let step = (bytes.len() / 1500).max(1);
        for cut in (0..bytes.len()).step_by(step) {
            exercise(&bytes[..cut]);
            cuts += 1;
        }
    }
    eprintln!("{cuts} truncated copies read without panic");
}

/// A small deterministic generator, so failures reproduce.
struct XorShift(u64);
impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

#[test]
fn mutated_headers_lengths_abbrev_ids_and_vbrs_fail_cleanly() {
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    let (mut ok, mut failed) = (0, 0);
    for file in common::testdata_files() {
        let bytes = std::fs::read(&file).unwrap();
        // Collect the places that matter: block headers and length words, record starts.
        let mut places = Vec::new();
        let mut reader = Bitstream::parse(&bytes).unwrap().reader();
        let base = (bytes.len() - reader.stream().bytes().len()) as u64 * 8;
        while let Some(Ok(e)) = reader.next() {
            match e {
                Event::EnterBlock(b) => {
                    places.push(base + b.bit_offset());
                    places.push(base + b.bookmark.content_bit - 32 + rng.next() % 32);
                }
                Event::Record(r) => places.push(base + r.bit_offset() + rng.next() % 12),
                Event::EndBlock(_) => {}
                _ => unreachable!("abbreviation definitions are not asked for"),
            }
        }
        // The wrapper and magic, too.
        places.extend(0..(base + 32).min(200));
        for _ in 0..400 {
            let bit = places[(rng.next() % places.len() as u64) as usize];
            let mut damaged = bytes.clone();
            damaged[(bit / 8) as usize] ^= 1 << (bit % 8);
            if rng.next() % 4 == 0 {
                // A burst: set a few bytes to all ones (never-ending VBRs, huge counts).
                let at = (bit / 8) as usize;
                for b in damaged.iter_mut().skip(at).take(1 + (rng.next() % 6) as usize) {
                    *b = 0xff;
                }
            }
            if exercise(&damaged) { ok += 1 } else { failed += 1 }
        }
    }
    eprintln!("mutations: {ok} still readable, {failed} rejected cleanly");
    assert!(failed > 0);
}

/// The lending walk (`next_ref`, operands in a reused buffer) gives exactly the events of
/// the iterator walk, on every file, and mixing the two is fine.
#[test]
fn lending_walk_equals_the_iterator_walk() {
    for file in common::testdata_files() {
        let bytes = std::fs::read(&file).unwrap();
        let (full, end) = full_walk(&bytes).unwrap();
        let mut reader = Bitstream::parse(&bytes).unwrap().reader();
        let mut got = Vec::new();
        let mut n = 0usize;
        loop {
            // Every third event through the iterator, to show the two can be mixed.
            n += 1;
            if n % 3 == 0 {
                match reader.next() {
                    Some(e) => got.push(ev(e.unwrap())),
                    None => break,
                }
                continue;
            }
            let Some(e) = reader.next_ref().unwrap() else { break };
            got.push(ev_ref(e));
        }
        assert!(got == full, "{file:?}");
        assert_eq!(reader.end_bit(), Some(end));
    }
}
