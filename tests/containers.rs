//! Bitstreams inside containers: object-file sections, archives, wrappers, universal
//! binaries, concatenated sections, multi-module files (`container` and `modules`).
//!
//! Inputs: the small files in testdata/containers/ (made by its make.sh with clang-14
//! and LLVM 14 tools), and the Rust standard library's rlibs from the sysroot. What we
//! find is checked against the sections extracted by `objcopy` / `llvm-objcopy`, and the
//! events we read against LLVM 14's own reader (tests/llvm-ref). Missing tools or rlibs
//! skip with a reason, and fail under `CI=true`.
#![cfg(feature = "container")]

mod common;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

use llvm_bitstream_reader::container::{self, ContainerError, ContainerFile, Embedded, Step};
use llvm_bitstream_reader::{Bitstream, Error};
/// The event line format, from the command-line tool.
#[path = "../crates/bitstream-dump/src/events.rs"]
mod events;
use events::{DumpError, write_events};
use llvm_bitstream_reader::ir::Inventory;

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/containers")
}

fn read(name: &str) -> Vec<u8> {
    std::fs::read(dir().join(name)).unwrap_or_else(|e| panic!("testdata/containers/{name}: {e}"))
}

/// The provenance of each bitstream in `name`, shown relative to the file name.
fn provenances(name: &str) -> Vec<String> {
    let bytes = read(name);
    match container::bitstreams_named(name, &bytes) {
        Ok(found) => found.iter().map(|e| e.provenance.to_string()).collect(),
        Err(e) => panic!("{name}: {e}"),
    }
}

/// Reads every event of a bitstream to the end; panics on error.
fn walk_to_end(e: &Embedded<'_>) -> usize {
    let stream = e.bitstream().unwrap_or_else(|err| panic!("{}: {err}", e.provenance));
    let mut events = 0;
    for event in stream.reader() {
        event.unwrap_or_else(|err| panic!("{}: {err}", e.provenance));
        events += 1;
    }
    events
}

/// Our event lines for `bytes`, and the error if the walk failed.
fn our_events(bytes: &[u8]) -> (String, Option<String>) {
    let mut text = String::new();
    match write_events(bytes, &mut text) {
        Ok(()) => (text, None),
        Err(DumpError::Input(e)) => (text, Some(e.to_string())),
        Err(e) => panic!("writing to a String failed: {e:?}"),
    }
}

// --- what is found, and where it came from ---------------------------------------

#[test]
fn every_committed_container_yields_its_bitstreams_with_provenance() {
    let cases: &[(&str, &[&str])] = &[
        ("elf_a.o", &["elf_a.o:.llvmbc"]),
        ("coff_a.obj", &["coff_a.obj:.llvmbc"]),
        ("macho_a.o", &["macho_a.o:__LLVM,__bitcode[wrapper]"]),
        (
            "macho_fat.o",
            &["macho_fat.o[arch 0]:__LLVM,__bitcode[wrapper]", "macho_fat.o[arch 1]:__LLVM,__bitcode[wrapper]"],
        ),
        ("macho_fat_bc.o", &["macho_fat_bc.o[arch 0][wrapper]", "macho_fat_bc.o[arch 1][wrapper]"]),
        ("gnu_ab.a", &["gnu_ab.a(elf_a.o):.llvmbc", "gnu_ab.a(elf_b.o):.llvmbc"]),
        ("bsd_ab.a", &["bsd_ab.a(elf_a.o):.llvmbc", "bsd_ab.a(elf_b.o):.llvmbc"]),
        ("elf_ld_r_ab.o", &["elf_ld_r_ab.o:.llvmbc[module 0]", "elf_ld_r_ab.o:.llvmbc[module 1]"]),
        ("elf_padded_ab.o", &["elf_padded_ab.o:.llvmbc[module 0]", "elf_padded_ab.o:.llvmbc[module 1]"]),
        ("cat_ab.bc", &["cat_ab.bc"]),
        (
            "mixed.a",
            &[
                "mixed.a(elf_a.o):.llvmbc",
                "mixed.a(b_bare.bc)",
                "mixed.a(macho_a.o):__LLVM,__bitcode[wrapper]",
                "mixed.a(inner.a)(elf_a.o):.llvmbc",
                "mixed.a(inner.a)(elf_b.o):.llvmbc",
            ],
        ),
    ];
    for (name, expected) in cases {
        assert_eq!(provenances(name), *expected, "{name}");
        let bytes = read(name);
        for e in container::bitstreams_named(name, &bytes).unwrap() {
            // Zero-copy: the bytes are the input's.
            let range = bytes.as_ptr_range();
            assert!(range.contains(&e.bytes.as_ptr()) && e.bytes.len() <= bytes.len(), "{}", e.provenance);
            assert!(walk_to_end(&e) > 10, "{}", e.provenance);
            let inventory = Inventory::of(&e.bitstream().unwrap()).unwrap();
            assert!(!inventory.modules.is_empty(), "{}", e.provenance);
            // Objects keep the command line beside the bitcode; bare bitcode has none.
            let in_object = e.provenance.section().is_some();
            assert_eq!(e.cmdline.is_some(), in_object, "{}", e.provenance);
            if in_object {
                assert!(e.cmdline_args().iter().any(|a| a == "-cc1"), "{}: {:?}", e.provenance, e.cmdline_args());
            }
        }
    }
}

#[test]
fn provenance_steps_carry_names_and_offsets() {
    let bytes = read("gnu_ab.a");
    let found = container::bitstreams(&bytes).unwrap();
    let steps = found[1].provenance.steps();
    let [Step::Member { name, offset: member }, Step::Section { name: section, offset: within }] = steps else {
        panic!("unexpected steps {steps:?}");
    };
    assert_eq!((name.as_str(), section.as_str()), ("elf_b.o", ".llvmbc"));
    // The offsets locate the bytes: member data in the archive, section in the member.
    let at = (*member + *within) as usize;
    assert_eq!(&bytes[at..at + found[1].bytes.len()], found[1].bytes);
    assert_eq!(found[1].provenance.member(), Some("elf_b.o"));
    // Unnamed input: no file step.
    assert_eq!(found[0].provenance.to_string(), "(elf_a.o):.llvmbc");
    let bare = std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/llvm14_ir_globals.bc")).unwrap();
    let found = container::bitstreams(&bare).unwrap();
    assert_eq!(found[0].provenance.to_string(), "<input>");
    assert_eq!(found[0].bytes, &bare[..]);
}

#[test]
fn path_entry_point_reads_thin_archives_whose_members_exist() {
    let file = ContainerFile::open(dir().join("thin_ab.a")).unwrap();
    let found = file.bitstreams().unwrap();
    let names: Vec<_> = found.iter().map(|e| e.provenance.member().unwrap().to_string()).collect();
    assert_eq!(names, ["elf_a.o", "elf_b.o"]);
    // The members' bitstreams are those of the objects themselves.
    for (e, object) in found.iter().zip(["elf_a.o", "elf_b.o"]) {
        let bytes = read(object);
        assert_eq!(e.bytes, container::bitstreams(&bytes).unwrap()[0].bytes);
        assert!(e.provenance.to_string().ends_with(&format!("thin_ab.a({object}):.llvmbc")));
        walk_to_end(e);
    }
    // As bytes, a thin archive's members cannot be reached.
    let err = container::bitstreams(&read("thin_ab.a")).unwrap_err();
    assert!(matches!(err, ContainerError::ThinArchive { .. }), "{err}");
    // A thin archive whose members are missing says which.
    let lonely = Path::new(env!("CARGO_TARGET_TMPDIR")).join("thin-alone");
    std::fs::create_dir_all(&lonely).unwrap();
    std::fs::write(lonely.join("thin_ab.a"), read("thin_ab.a")).unwrap();
    let err = ContainerFile::open(lonely.join("thin_ab.a")).unwrap_err();
    assert!(matches!(&err, ContainerError::ThinMember { member, .. } if member == "elf_a.o"), "{err}");
}

#[test]
fn concatenated_and_padded_sections_split_into_the_original_modules() {
    let a = container::bitstreams(&read("elf_a.o")).unwrap()[0].bytes.to_vec();
    let b = container::bitstreams(&read("elf_b.o")).unwrap()[0].bytes.to_vec();
    for name in ["elf_ld_r_ab.o", "elf_padded_ab.o"] {
        let bytes = read(name);
        let found = container::bitstreams(&bytes).unwrap();
        let pieces: Vec<&[u8]> = found.iter().map(|e| e.bytes).collect();
        assert_eq!(pieces, [&a[..], &b[..]], "{name}");
        let Some(Step::Module { index: 1, offset }) = found[1].provenance.steps().last() else {
            panic!("{name}: {:?}", found[1].provenance)
        };
        // In the padded section, b starts after 8 zeros, a, and 13 zeros.
        if name == "elf_padded_ab.o" {
            assert_eq!(*offset as usize, 8 + a.len() + 13);
        }
    }
    // Two bare bitstreams one after the other, zero-padded, and up to 8 bytes of garbage.
    let mut joined = a.clone();
    joined.extend_from_slice(&[0; 5]);
    joined.extend_from_slice(&b);
    joined.extend_from_slice(b"garbage!");
    let found = container::bitstreams(&joined).unwrap();
    assert_eq!(found.iter().map(|e| e.bytes).collect::<Vec<_>>(), [&a[..], &b[..]]);
    assert_eq!(found[1].provenance.to_string(), "[module 1]");
    // Nine bytes of garbage are more than LLVM tolerates: the reader tries them as a block.
    joined.push(b'!');
    let err = container::bitstreams(&joined).unwrap_err();
    assert!(matches!(err, ContainerError::Stream { .. }), "{err}");
    assert_eq!(err.to_string(), "[module 1]: malformed bitstream");
    let source = err.bitstream_error().unwrap();
    assert!(source.to_string().starts_with("abbreviation id 3 at top level"), "{source}");
    assert_eq!(err.byte_offset(), Some(source.byte_offset()));
    // Garbage after zero padding is not another bitstream.
    let mut padded = a.clone();
    padded.extend_from_slice(&[0; 4]);
    padded.extend_from_slice(b"not bitcode");
    let err = container::bitstreams(&padded).unwrap_err();
    assert!(matches!(err, ContainerError::Garbage { len: 11, .. }), "{err}");
}

// --- clear errors --------------------------------------------------------------------

#[test]
fn inputs_without_bitcode_say_so() {
    let message = |name: &str| container::bitstreams_named(name, &read(name)).unwrap_err().to_string();
    assert_eq!(message("elf_plain.o"), "elf_plain.o: no LLVM bitcode found: an ELF object without a .llvmbc section");
    assert!(message("elf_marker.o").contains("-fembed-bitcode=marker"), "{}", message("elf_marker.o"));
    let text = b"just some text, not an object\n";
    let err = container::bitstreams_named("notes.txt", text).unwrap_err();
    assert!(matches!(err, ContainerError::UnknownFormat { .. }), "{err}");
    assert!(err.to_string().starts_with("notes.txt: not a bitstream, object file or archive"), "{err}");
    let err = container::bitstreams(&[]).unwrap_err();
    assert!(matches!(err, ContainerError::UnknownFormat { .. }), "{err}");
    // An archive of objects without bitcode.
    let mut archive = b"!<arch>\n".to_vec();
    let plain = read("elf_plain.o");
    archive.extend_from_slice(
        format!("{:<16}{:<12}{:<6}{:<6}{:<8}{:<10}`\n", "plain.o/", 0, 0, 0, 644, plain.len()).as_bytes(),
    );
    archive.extend_from_slice(&plain);
    let err = container::bitstreams_named("libplain.a", &archive).unwrap_err();
    assert_eq!(
        err.to_string(),
        "libplain.a: no LLVM bitcode found: an archive of 1 member(s), 1 of them object files, none with bitcode"
    );
}

/// ELF64 little-endian section headers: (name, file offset of the header).
fn elf_section_headers(elf: &[u8]) -> Vec<(String, usize)> {
    let u16_at = |o: usize| u16::from_le_bytes(elf[o..o + 2].try_into().unwrap()) as usize;
    let u64_at = |o: usize| u64::from_le_bytes(elf[o..o + 8].try_into().unwrap()) as usize;
    let (shoff, shentsize, shnum, shstrndx) = (u64_at(0x28), u16_at(0x3A), u16_at(0x3C), u16_at(0x3E));
    let strtab = u64_at(shoff + shstrndx * shentsize + 0x18);
    (0..shnum)
        .map(|i| {
            let header = shoff + i * shentsize;
            let name_at = strtab + u32::from_le_bytes(elf[header..header + 4].try_into().unwrap()) as usize;
            let end = elf[name_at..].iter().position(|&b| b == 0).unwrap();
            (String::from_utf8_lossy(&elf[name_at..name_at + end]).into_owned(), header)
        })
        .collect()
}

fn llvmbc_header(elf: &[u8]) -> usize {
    elf_section_headers(elf).into_iter().find(|(n, _)| n == ".llvmbc").unwrap().1
}

#[test]
fn corrupted_objects_fail_cleanly_naming_the_section() {
    let elf = read("elf_a.o");
    // Truncated section table (it is at the end of the file).
    let err = container::bitstreams_named("elf_a.o", &elf[..elf.len() - 10]).unwrap_err();
    assert!(matches!(err, ContainerError::Object { what: "ELF object", .. }), "{err}");
    assert!(err.to_string().starts_with("elf_a.o: malformed ELF object"), "{err}");

    let header = llvmbc_header(&elf);
    // A section pointing past the end of the file.
    let mut past_end = elf.clone();
    past_end[header + 0x18..header + 0x20].copy_from_slice(&0xFFFF_FF00u64.to_le_bytes());
    let err = container::bitstreams_named("elf_a.o", &past_end).unwrap_err();
    assert!(matches!(err, ContainerError::Object { what: "section", .. }), "{err}");
    assert!(err.to_string().starts_with("elf_a.o:.llvmbc: malformed section"), "{err}");

    // A section cut short: the module block runs past its end.
    let size = u64::from_le_bytes(elf[header + 0x20..header + 0x28].try_into().unwrap());
    let mut short = elf.clone();
    short[header + 0x20..header + 0x28].copy_from_slice(&(size / 2).to_le_bytes());
    let err = container::bitstreams_named("elf_a.o", &short).unwrap_err();
    assert!(matches!(err, ContainerError::Stream { .. }), "{err}");
    // The message says where and what; the reader's error (with its bit offset) is the
    // source, not repeated in the message.
    assert_eq!(err.to_string(), "elf_a.o:.llvmbc: malformed bitstream");
    let source = std::error::Error::source(&err).unwrap().to_string();
    assert!(source.starts_with("MODULE_BLOCK (8) at bit 256"), "{source}");
    let inner = err.bitstream_error().unwrap();
    assert_eq!(err.byte_offset(), Some(inner.byte_offset()));
    assert!(inner.bit_offset() > 0);
    assert_eq!(err.provenance().unwrap().section(), Some(".llvmbc"));

    // A section too long: it takes in the .llvmcmd bytes after it, which read as a block.
    let mut long = elf.clone();
    long[header + 0x20..header + 0x28].copy_from_slice(&(size + 40).to_le_bytes());
    let err = container::bitstreams_named("elf_a.o", &long).unwrap_err();
    assert!(matches!(err, ContainerError::Stream { .. }), "{err}");
    assert!(err.to_string().starts_with("elf_a.o:.llvmbc: malformed bitstream"), "{err}");

    // A section that is not bitcode at all.
    let mut garbage = elf.clone();
    let offset = u64::from_le_bytes(elf[header + 0x18..header + 0x20].try_into().unwrap()) as usize;
    garbage[offset..offset + 4].copy_from_slice(b"\x7fELF");
    let err = container::bitstreams_named("elf_a.o", &garbage).unwrap_err();
    assert!(matches!(err, ContainerError::NotBitstream { .. }), "{err}");
    assert!(err.to_string().starts_with("elf_a.o:.llvmbc: does not start with a bitstream magic"), "{err}");
}

#[test]
fn corrupted_archives_fail_cleanly_naming_the_member() {
    let archive = read("gnu_ab.a");
    let found = container::bitstreams(&archive).unwrap();
    let Step::Member { offset: b_data, .. } = found[1].provenance.steps()[0] else { panic!() };
    let b_header = b_data as usize - 60;
    assert_eq!(&archive[b_header..b_header + 8], b"elf_b.o/");

    // A bad member header (its terminator is not "`\n").
    let mut bad = archive.clone();
    bad[b_header + 58] = b'X';
    let err = container::bitstreams_named("gnu_ab.a", &bad).unwrap_err();
    assert!(matches!(&err, ContainerError::Member { index: 1, after: Some(a), .. } if a == "elf_a.o"), "{err}");
    assert!(err.to_string().starts_with("gnu_ab.a: archive member 1 (after \"elf_a.o\"): bad member header"), "{err}");

    // Truncated inside the second member: its size runs past the end.
    let err = container::bitstreams_named("gnu_ab.a", &archive[..b_data as usize + 100]).unwrap_err();
    assert!(matches!(&err, ContainerError::Object { what: "archive member", .. }), "{err}");
    assert!(err.to_string().starts_with("gnu_ab.a(elf_b.o): malformed archive member"), "{err}");
    // A size field that is not a number.
    let mut bad_size = archive.clone();
    bad_size[b_header + 48..b_header + 52].copy_from_slice(b"12x4");
    let err = container::bitstreams_named("gnu_ab.a", &bad_size).unwrap_err();
    assert!(matches!(&err, ContainerError::Member { index: 1, .. }), "{err}");

    // A member whose object is truncated is named.
    let mut cut_object = archive.clone();
    let a_data = match found[0].provenance.steps()[0] {
        Step::Member { offset, .. } => offset as usize,
        _ => panic!(),
    };
    // Shrink elf_a.o's section-table offset beyond the member: the member, not the archive, is malformed.
    cut_object[a_data + 0x28..a_data + 0x30].copy_from_slice(&0xFFFF_0000u64.to_le_bytes());
    let err = container::bitstreams_named("gnu_ab.a", &cut_object).unwrap_err();
    assert!(err.to_string().starts_with("gnu_ab.a(elf_a.o): malformed ELF object"), "{err}");
}

/// Tiny deterministic generator for the mutation tests.
struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        self.0 >> 33
    }
}

/// Finds the bitstreams and reads every one to the end; any outcome but a panic is fine.
fn exercise(bytes: &[u8]) {
    if let Ok(found) = container::bitstreams(bytes) {
        for e in found {
            if let Ok(stream) = e.bitstream() {
                for event in stream.reader() {
                    if event.is_err() {
                        break;
                    }
                }
                if let Ok(inventory) = Inventory::of(&stream) {
                    for m in &inventory.modules {
                        let _ = m.names();
                    }
                }
            }
        }
    }
}

#[test]
fn truncated_and_mutated_containers_never_panic() {
    let mut cases = 0;
    for entry in std::fs::read_dir(dir()).unwrap() {
        let path = entry.unwrap().path();
        if !matches!(path.extension().and_then(|e| e.to_str()), Some("o" | "obj" | "a" | "bc")) {
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        // Every prefix for the headers, then every 7th.
        for cut in (0..bytes.len()).filter(|&c| c < 512 || c % 7 == 0) {
            exercise(&bytes[..cut]);
            cases += 1;
        }
        let mut rng = Lcg(bytes.len() as u64);
        for _ in 0..1500 {
            let mut mutated = bytes.clone();
            for _ in 0..1 + rng.next() % 4 {
                let at = (rng.next() as usize) % mutated.len();
                mutated[at] = match rng.next() % 4 {
                    0 => 0,
                    1 => 0xFF,
                    _ => rng.next() as u8,
                };
            }
            exercise(&mutated);
            cases += 1;
        }
    }
    eprintln!("{cases} truncated or mutated containers, no panic");
}

/// Issue 29: a cut container gives back the bitstreams before the cut, and the one the cut
/// is in as far as it goes. Every container of testdata/containers cut at every byte: no
/// panic; a longer prefix never gives back fewer bitstreams, nor fewer globals and
/// functions (read by `ir::Module::parse_partial` from each) than a shorter one; the whole
/// file gives what `bitstreams` gives, without an error; a bitstream error falls inside the
/// prefix (the stream's position in the input plus its byte offset).
#[test]
fn a_cut_container_gives_back_the_bitstreams_before_the_cut() {
    use llvm_bitstream_reader::ir::Module;
    let items = |found: &[Embedded<'_>]| -> usize {
        found.iter().map(|e| Module::parse_partial(e.bytes).0.map_or(0, |m| m.globals.len() + m.functions.len())).sum()
    };
    let mut names: Vec<String> = std::fs::read_dir(dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| [".o", ".obj", ".a", ".bc"].iter().any(|x| n.ends_with(x)) && n != "thin_ab.a")
        .collect();
    names.sort();
    let mut prefixes = 0;
    for name in &names {
        let bytes = read(name);
        let whole = match container::bitstreams(&bytes) {
            Ok(found) => found,
            Err(ContainerError::NoBitcode { .. }) => Vec::new(),
            Err(e) => panic!("{name}: {e}"),
        };
        let (mut last_streams, mut last_items, mut kept_before_end, mut cuts_giving) = (0, 0, 0, 0);
        for cut in 0..=bytes.len() {
            let input = &bytes[..cut];
            let (found, error) = container::bitstreams_partial(input);
            if let Some(error) = &error {
                let at = error.provenance().map(ToString::to_string).unwrap_or_default();
                // The stream the error is in, if it is handed back (as far as it goes).
                let cut_stream = found.last().filter(|last| last.provenance.to_string().starts_with(&at));
                if let (Some(e), Some(last)) = (error.bitstream_error(), cut_stream) {
                    let mut start = last.bytes.as_ptr() as usize - input.as_ptr() as usize;
                    if matches!(e, Error::BadWrapper { .. }) {
                        start -= 20; // its offsets count from the wrapper header
                    }
                    assert!(start as u64 + e.byte_offset() <= cut as u64, "{name} cut at {cut}: {e}");
                }
                if let Some(offset) = error.byte_offset() {
                    assert!(offset <= cut as u64, "{name} cut at {cut}: {error}");
                }
            }
            let n = items(&found);
            assert!(
                found.len() >= last_streams && n >= last_items,
                "{name} cut at {cut}: {} streams, {n} items; one byte earlier {last_streams}, {last_items}",
                found.len()
            );
            (last_streams, last_items) = (found.len(), n);
            if cut == bytes.len() {
                assert!(whole.is_empty() || error.is_none(), "{name}: {error:?}");
                assert_eq!(found.len(), whole.len(), "{name}");
                for (a, b) in found.iter().zip(&whole) {
                    assert_eq!((a.bytes, a.provenance.to_string()), (b.bytes, b.provenance.to_string()), "{name}");
                }
            } else if !found.is_empty() {
                kept_before_end = kept_before_end.max(found.len());
                cuts_giving += 1;
            }
            prefixes += 1;
        }
        eprintln!(
            "{name}: {} prefixes, {cuts_giving} of the cut ones give bitstreams back (up to {kept_before_end}); whole: {} bitstreams, {last_items} globals and functions; monotone",
            bytes.len() + 1,
            whole.len()
        );
    }
    assert!(prefixes > 50_000, "{prefixes}");
}

/// A Mach-O or COFF object cut inside its bitcode section: its headers, which come first,
/// still say where the section is, and the stream is handed back as far as it goes, for
/// `ir::Module::parse_partial` (the `object` crate cannot parse the object: its symbol
/// table, after the sections, is gone).
#[test]
fn an_object_cut_in_its_bitcode_section_gives_the_stream_as_far_as_it_goes() {
    use llvm_bitstream_reader::ir::Module;
    for name in ["macho_a.o", "coff_a.obj"] {
        let bytes = read(name);
        let whole = container::bitstreams(&bytes).unwrap();
        let section = &whole[0];
        let start = section.bytes.as_ptr() as usize - bytes.as_ptr() as usize;
        let cut = start + section.bytes.len() * 3 / 4;
        let (found, error) = container::bitstreams_partial(&bytes[..cut]);
        let error = error.unwrap_or_else(|| panic!("{name}: no error"));
        assert_eq!(found.len(), 1, "{name}: {error}");
        assert!(section.bytes.starts_with(found[0].bytes) || found[0].bytes.ends_with(&bytes[cut - 8..cut]), "{name}");
        let (module, module_error) = Module::parse_partial(found[0].bytes);
        assert!(module.is_some() && module_error.is_some(), "{name}: {module_error:?}");
        assert!(error.to_string().contains(name) || error.provenance().is_some(), "{name}: {error}");
    }
}

/// An archive whose last member is cut still gives the members before it, whole, and
/// the error names the cut member.
#[test]
fn an_archive_cut_in_its_last_member_gives_the_members_before_it() {
    for name in ["gnu_ab.a", "bsd_ab.a", "mixed.a"] {
        let bytes = read(name);
        let whole = container::bitstreams(&bytes).unwrap();
        let last_member = whole.last().unwrap();
        let start = last_member.bytes.as_ptr() as usize - bytes.as_ptr() as usize;
        let (found, error) = container::bitstreams_partial(&bytes[..start + 40]);
        let error = error.unwrap_or_else(|| panic!("{name}: no error"));
        assert!(found.len() >= whole.len() - 1, "{name}: {} of {}", found.len(), whole.len());
        for (a, b) in found.iter().zip(&whole[..whole.len() - 1]) {
            assert_eq!(a.bytes, b.bytes, "{name}");
        }
        let at = error.provenance().unwrap().to_string();
        assert!(at.contains('('), "{name}: the error names no member: {error}");
        assert!(container::bitstreams(&bytes[..start + 40]).is_err());
    }
}

// --- multi-module bitcode ------------------------------------------------------------

/// The top-level blocks of a bitstream as byte ranges, after the magic.
fn top_level_blocks(bytes: &[u8]) -> Vec<(u32, std::ops::Range<usize>)> {
    let stream = Bitstream::parse(bytes).unwrap();
    let mut reader = stream.reader();
    let mut blocks = Vec::new();
    while let Some(event) = reader.next_event().unwrap() {
        if let llvm_bitstream_reader::Event::EnterBlock(b) = event {
            let lazy = reader.skip_block().unwrap();
            let bm = lazy.bookmark();
            blocks.push((b.block_id().0, (bm.header_bit / 8) as usize..(bm.end_bit() / 8) as usize));
        }
    }
    blocks
}

#[test]
fn inventory_lists_modules_as_llvm_does() {
    let bytes = read("cat_ab.bc");
    let stream = Bitstream::parse(&bytes).unwrap();
    let inventory = Inventory::of(&stream).unwrap();
    assert_eq!(inventory.modules.len(), 2);
    let blocks = top_level_blocks(&bytes);
    let ids: Vec<u32> = blocks.iter().map(|b| b.0).collect();
    for (i, m) in inventory.modules.iter().enumerate() {
        let ident = m.identification.as_ref().unwrap();
        assert_eq!((ident.producer.as_str(), ident.epoch), ("LLVM14.0.6", Some(0)));
        assert_eq!(m.names().unwrap().source_filename.as_deref(), Some(["a.c", "b.c"][i]));
        assert_eq!(m.begin_bit, ident.block.header_bit);
        assert!(m.strtab.is_some_and(|s| !s.is_empty()));
        // The module's bookmark is the MODULE block after its IDENTIFICATION.
        let k = blocks.iter().position(|b| b.1.start as u64 * 8 == m.module_bookmark().header_bit).unwrap();
        assert_eq!((ids[k - 1], ids[k]), (13, 8));
    }
    // The first module's own STRTAB holds its names (a_add ...), the second's b_twice.
    let contains = |s: &[u8], w: &[u8]| s.windows(w.len()).any(|x| x == w);
    assert!(contains(inventory.modules[0].strtab.unwrap(), b"a_add"));
    assert!(contains(inventory.modules[1].strtab.unwrap(), b"b_twice"));

    // From the bitcode of elf_a.o and elf_b.o (each [ident, module, symtab, strtab]), a
    // stream [magic, ident a, module a, ident b, module b, strtab b, symtab a, strtab a]:
    // one STRTAB serves both modules before it; the SYMTAB takes the STRTAB after it.
    let (a_obj, b_obj) = (read("elf_a.o"), read("elf_b.o"));
    let (a, b) = (container::bitstreams(&a_obj).unwrap()[0].bytes, container::bitstreams(&b_obj).unwrap()[0].bytes);
    let (a_inv, b_inv) =
        (Inventory::of(&Bitstream::parse(a).unwrap()).unwrap(), Inventory::of(&Bitstream::parse(b).unwrap()).unwrap());
    let (a_blocks, b_blocks) = (top_level_blocks(a), top_level_blocks(b));
    let ids = |blocks: &[(u32, std::ops::Range<usize>)]| blocks.iter().map(|b| b.0).collect::<Vec<_>>();
    assert_eq!(ids(&a_blocks), [13, 8, 25, 23]);
    assert_eq!(ids(&b_blocks), [13, 8, 25, 23]);
    let mut rebuilt = a[..4].to_vec();
    for part in [
        &a[a_blocks[0].1.clone()],
        &a[a_blocks[1].1.clone()],
        &b[b_blocks[0].1.clone()],
        &b[b_blocks[1].1.clone()],
        &b[b_blocks[3].1.clone()],
        &a[a_blocks[2].1.clone()],
        &a[a_blocks[3].1.clone()],
    ] {
        rebuilt.extend_from_slice(part);
    }
    rebuilt.extend_from_slice(&[0xAB; 8]); // garbage LLVM tolerates
    let inventory = Inventory::of(&Bitstream::parse(&rebuilt).unwrap()).unwrap();
    assert_eq!(inventory.modules.len(), 2);
    for m in &inventory.modules {
        assert_eq!(m.strtab, b_inv.modules[0].strtab, "module {}", m.index);
        assert_eq!(m.strtab_block.unwrap().header_bit, inventory.modules[0].strtab_block.unwrap().header_bit);
    }
    assert_eq!(inventory.modules[1].names().unwrap().source_filename.as_deref(), Some("b.c"));
    assert_eq!(inventory.symtab, a_inv.symtab);
    assert!(inventory.symtab.is_some());
    assert_eq!(inventory.strtab_for_symtab, a_inv.modules[0].strtab);
    assert_eq!(a_inv.strtab_for_symtab, a_inv.modules[0].strtab);
    // Nine bytes of garbage: LLVM (and we) try to read another block.
    rebuilt.push(0xAB);
    assert!(Inventory::of(&Bitstream::parse(&rebuilt).unwrap()).is_err());

    // An IDENTIFICATION block without its MODULE.
    let mut orphan = a[..4].to_vec();
    orphan.extend_from_slice(&a[a_blocks[0].1.clone()]);
    orphan.extend_from_slice(&a[a_blocks[3].1.clone()]);
    let err = Inventory::of(&Bitstream::parse(&orphan).unwrap()).unwrap_err();
    assert!(matches!(err, Error::ExpectedBlock { bit: 32, .. }), "{err}");
    // Not LLVM IR.
    let dia = std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/clang14_diagnostics.dia")).unwrap();
    let err = Inventory::of(&Bitstream::parse(&dia).unwrap()).unwrap_err();
    assert!(matches!(err, Error::WrongMagic { expected: "LLVM IR bitcode", .. }), "{err}");
}

#[test]
fn inventory_module_count_matches_llvm_modextract() {
    let Ok(bin) = Command::new("llvm-config-14").arg("--bindir").output() else {
        common::skip_or_fail::<()>("llvm-config-14 not found");
        return;
    };
    let modextract = Path::new(String::from_utf8_lossy(&bin.stdout).trim()).join("llvm-modextract");
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("modextract.bc");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for file in [dir().join("cat_ab.bc"), root.join("testdata/llvm14_multi_module_cat.bc")] {
        let bytes = std::fs::read(&file).unwrap();
        let n = Inventory::of(&Bitstream::parse(&bytes).unwrap()).unwrap().modules.len();
        let extract = |i: usize| {
            Command::new(&modextract).args(["-b", "-n", &i.to_string(), "-o"]).arg(&out).arg(&file).output().unwrap()
        };
        for i in 0..n {
            assert!(extract(i).status.success(), "{file:?}: llvm-modextract -n {i} failed");
            // The extracted module is ours: same producer-free bytes of the module block.
            let one = std::fs::read(&out).unwrap();
            let theirs = Inventory::of(&Bitstream::parse(&one).unwrap()).unwrap();
            assert_eq!(theirs.modules.len(), 1);
            let ours = &Inventory::of(&Bitstream::parse(&bytes).unwrap()).unwrap().modules[i];
            assert_eq!(theirs.modules[0].names().unwrap(), ours.names().unwrap(), "{file:?} module {i}");
            assert_eq!(theirs.modules[0].module_bookmark().len_words, ours.module_bookmark().len_words);
        }
        assert!(!extract(n).status.success(), "{file:?}: LLVM sees more than {n} modules");
    }
}

// --- against LLVM 14, on the committed objects and on the Rust sysroot's rlibs ----------

fn have(tool: &str) -> bool {
    Command::new(tool).arg("--version").output().is_ok_and(|o| o.status.success())
}

/// Extracts a section with objcopy (GNU `objcopy -O binary --only-section`; Mach-O
/// sections with `llvm-objcopy --dump-section`).
fn extract_section(object: &Path, section: &str, out: &Path) -> Vec<u8> {
    let status = if section.starts_with("__LLVM,") {
        Command::new("llvm-objcopy-14")
            .arg(format!("--dump-section={section}={}", out.display()))
            .arg(object)
            .arg(out.with_extension("stripped"))
            .status()
    } else {
        Command::new("objcopy")
            .args(["-O", "binary", "--only-section", section, "--set-section-flags", &format!("{section}=alloc")])
            .arg(object)
            .arg(out)
            .status()
    };
    assert!(status.is_ok_and(|s| s.success()), "extracting {section} from {object:?} failed");
    std::fs::read(out).unwrap()
}

/// LLVM's event lines for a file, or its error line.
fn llvm_lines(tool: &Path, file: &Path) -> (Vec<u8>, bool) {
    let out = Command::new(tool).arg(file).output().expect("run llvm-events");
    (out.stdout, out.status.success())
}

/// Compares our reading of `bytes` with LLVM's reading of `file` (which holds `bytes`,
/// possibly with padding after); returns the number of lines.
fn compare_with_llvm(tool: &Path, file: &Path, bytes: &[u8], what: &str) -> usize {
    let (ours, our_err) = our_events(bytes);
    assert_eq!(our_err, None, "{what}: we failed");
    let (theirs, ok) = llvm_lines(tool, file);
    if ours.as_bytes() != theirs {
        let theirs = String::from_utf8_lossy(&theirs);
        let i = ours.lines().zip(theirs.lines()).position(|(a, b)| a != b).unwrap_or(ours.lines().count());
        panic!(
            "{what} line {}: ours {:?}, LLVM {:?} (LLVM ok: {ok})",
            i + 1,
            ours.lines().nth(i),
            theirs.lines().nth(i)
        );
    }
    assert!(ok, "{what}: LLVM failed");
    ours.lines().count()
}

#[test]
fn committed_objects_read_as_llvm_reads_their_extracted_sections() {
    let Some(tool) = common::llvm_events() else { return };
    if !have("objcopy") || !have("llvm-objcopy-14") {
        common::skip_or_fail::<()>("objcopy or llvm-objcopy-14 not found");
        return;
    }
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR")).join("containers-extracted");
    std::fs::create_dir_all(&tmp).unwrap();
    let mut lines = 0;
    for (name, section) in
        [("elf_a.o", ".llvmbc"), ("elf_b.o", ".llvmbc"), ("coff_a.obj", ".llvmbc"), ("macho_a.o", "__LLVM,__bitcode")]
    {
        let bytes = read(name);
        let found = container::bitstreams(&bytes).unwrap();
        assert_eq!(found.len(), 1, "{name}");
        let out = tmp.join(format!("{name}.section"));
        let extracted = extract_section(&dir().join(name), section, &out);
        assert_eq!(found[0].bytes, &extracted[..found[0].bytes.len()], "{name}: not the section's bytes");
        assert!(extracted[found[0].bytes.len()..].iter().all(|&b| b == 0), "{name}: more than padding after");
        lines += compare_with_llvm(&tool, &out, found[0].bytes, name);
        // The command line is the .llvmcmd section.
        if section == ".llvmbc" {
            let cmd = extract_section(&dir().join(name), ".llvmcmd", &tmp.join(format!("{name}.cmd")));
            assert_eq!(found[0].cmdline, Some(&cmd[..]), "{name}");
        }
    }
    // Every piece of the concatenated sections, and the multi-module file.
    for name in ["elf_ld_r_ab.o", "elf_padded_ab.o", "mixed.a", "cat_ab.bc", "macho_fat.o"] {
        let bytes = read(name);
        for (i, e) in container::bitstreams(&bytes).unwrap().iter().enumerate() {
            let out = tmp.join(format!("{name}.{i}.bc"));
            std::fs::write(&out, e.bytes).unwrap();
            lines += compare_with_llvm(&tool, &out, e.bytes, &format!("{name}: {}", e.provenance));
        }
    }
    eprintln!("committed containers: {lines} event lines identical to LLVM 14");
}

/// The Rust standard library's rlibs for the host.
fn sysroot_rlibs() -> Result<Vec<PathBuf>, String> {
    let sysroot = Command::new("rustc").args(["--print", "sysroot"]).output().map_err(|e| format!("rustc: {e}"))?;
    let host = Command::new("rustc").args(["--print", "host-tuple"]).output().map_err(|e| format!("rustc: {e}"))?;
    let (sysroot, host) = (String::from_utf8_lossy(&sysroot.stdout), String::from_utf8_lossy(&host.stdout));
    let lib = Path::new(sysroot.trim()).join("lib/rustlib").join(host.trim()).join("lib");
    let mut rlibs: Vec<PathBuf> = std::fs::read_dir(&lib)
        .map_err(|e| format!("{}: {e}", lib.display()))?
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "rlib"))
        .collect();
    rlibs.sort();
    if rlibs.is_empty() {
        return Err(format!("no rlibs in {}", lib.display()));
    }
    Ok(rlibs)
}

#[test]
fn sysroot_rlibs_read_to_the_end_and_as_llvm_reads_them() {
    let rlibs = match sysroot_rlibs() {
        Ok(r) => r,
        Err(reason) => {
            common::skip_or_fail::<()>(&reason);
            return;
        }
    };
    // Our side needs no tools; the comparison needs ar, objcopy and the LLVM dumper.
    let llvm = if have("objcopy") && have("ar") {
        common::llvm_events()
    } else {
        common::skip_or_fail::<()>("objcopy or ar not found: not comparing with LLVM");
        None
    };
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR")).join("rlibs");
    let next = Mutex::new(rlibs.iter());
    let report = Mutex::new(Vec::new());
    let threads = std::thread::available_parallelism().map_or(4, |n| n.get()).min(8);
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                while let Some(rlib) = {
                    let mut it = next.lock().unwrap();
                    it.next()
                } {
                    let line = check_rlib(rlib, llvm.as_deref(), &tmp);
                    report.lock().unwrap().push(line);
                }
            });
        }
    });
    let mut report = report.into_inner().unwrap();
    report.sort();
    let (mut modules, mut bytes, mut lines) = (0, 0, 0);
    for r in &report {
        eprintln!("  {}: {} bitstreams, {} modules, {} bytes of bitcode, {} lines compared", r.0, r.1, r.2, r.3, r.4);
        modules += r.2;
        bytes += r.3;
        lines += r.4;
    }
    eprintln!(
        "{} rlibs: {modules} modules, {:.1} MB of bitcode, read to the end; {lines} event lines identical to LLVM 14{}",
        report.len(),
        bytes as f64 / 1e6,
        if llvm.is_some() { "" } else { " (LLVM comparison skipped)" }
    );
    assert!(modules > 0, "no module in any rlib");
}

/// Reads one rlib; returns (name, bitstreams, modules, bytes, lines compared with LLVM).
fn check_rlib(rlib: &Path, llvm: Option<&Path>, tmp: &Path) -> (String, usize, usize, usize, usize) {
    let name = rlib.file_name().unwrap().to_string_lossy().into_owned();
    let file = ContainerFile::open(rlib).unwrap();
    let found = match file.bitstreams() {
        Ok(f) => f,
        // An rlib of C objects without bitcode is fine; say so.
        Err(ContainerError::NoBitcode { what, .. }) => {
            eprintln!("  {name}: no bitcode ({what})");
            return (name, 0, 0, 0, 0);
        }
        Err(e) => panic!("{e}"),
    };
    let mut modules = 0;
    let mut bytes = 0;
    for e in &found {
        walk_to_end(e);
        let inventory = Inventory::of(&e.bitstream().unwrap()).unwrap_or_else(|err| panic!("{}: {err}", e.provenance));
        assert!(!inventory.modules.is_empty(), "{}", e.provenance);
        for m in &inventory.modules {
            let ident = m.identification.as_ref().unwrap();
            assert!(ident.producer.starts_with("LLVM"), "{}: producer {:?}", e.provenance, ident.producer);
            assert!(m.names().unwrap().source_filename.is_some(), "{}", e.provenance);
        }
        modules += inventory.modules.len();
        bytes += e.bytes.len();
    }
    let Some(tool) = llvm else { return (name, found.len(), modules, bytes, 0) };
    // LLVM's side: extract the members with ar, the sections with objcopy.
    let work = tmp.join(&name);
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).unwrap();
    let status = Command::new("ar").arg("x").arg(rlib).current_dir(&work).status().unwrap();
    assert!(status.success(), "ar x {rlib:?}");
    let mut per_member: HashMap<&str, Vec<&Embedded<'_>>> = HashMap::new();
    for e in &found {
        per_member.entry(e.provenance.member().unwrap()).or_default().push(e);
    }
    let mut lines = 0;
    for (member, embedded) in per_member {
        let section = work.join(format!("{member}.llvmbc"));
        let extracted = extract_section(&work.join(member), ".llvmbc", &section);
        if let [one] = embedded[..] {
            assert_eq!(one.bytes, &extracted[..one.bytes.len().min(extracted.len())], "{}", one.provenance);
            lines += compare_with_llvm(tool, &section, one.bytes, &one.provenance.to_string());
        } else {
            // Several modules in one section: compare each piece on its own.
            for (i, e) in embedded.iter().enumerate() {
                let piece = work.join(format!("{member}.{i}.bc"));
                std::fs::write(&piece, e.bytes).unwrap();
                lines += compare_with_llvm(tool, &piece, e.bytes, &e.provenance.to_string());
            }
        }
    }
    let _ = std::fs::remove_dir_all(&work);
    (name, found.len(), modules, bytes, lines)
}
