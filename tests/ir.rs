//! The IR layer against LLVM's disassemblers, and against broken and newer input.
//!
//! Differential: on every testdata IR file that `llvm-dis` of LLVM 14 (and of LLVM 19)
//! can read, the names, linkage, visibility and value types of global variables and
//! functions, the named struct definitions (`%struct.Foo = type { … }`) and the function
//! attribute groups (`attributes #N = { … }`) that `llvm-dis` prints must be what the
//! module records say. A file a given LLVM cannot read is skipped with its error.

mod common;
#[path = "common/ir_dis.rs"]
mod ir_dis;
/// The `ir_bodies` and `ir_metadata` fuzz targets' checks, replayed through the same code.
#[path = "../fuzz/src/ir_print.rs"]
mod ir_print;

use std::collections::BTreeSet;
use std::path::PathBuf;

use ir_dis::{UPGRADED_ATTRIBUTES, compare_with};
#[cfg(feature = "writer")]
use llvm_bitstream_reader::ir::Linkage;
use llvm_bitstream_reader::ir::Module;
use llvm_bitstream_reader::{Bitstream, Magic};

#[test]
fn records_agree_with_llvm_dis_14() {
    let Some(tool) = common::llvm14_tool("llvm-dis") else { return };
    let fig = compare_with(&tool, "llvm-dis 14", false, &common::testdata_files());
    eprintln!("llvm-dis 14: {fig:#?}");
    assert!(fig.files >= 7, "LLVM 14 reads its own files");
    // On the files LLVM 14 wrote, every attribute line is what the records say; on older
    // files LLVM 14 gives intrinsic declarations its own attributes (and upgrades some).
    let own: Vec<_> = fig.attribute_lines_upgraded.iter().filter(|l| l.starts_with("llvm14_")).collect();
    assert!(own.is_empty(), "{own:#?}");
    assert!(fig.names > 200 && fig.structs > 10 && fig.attribute_lines > 20);
}

#[test]
fn records_agree_with_llvm_dis_19() {
    let Some(tool) = common::llvm19_dis() else { return };
    let fig = compare_with(&tool, "llvm-dis 19", true, &common::testdata_files());
    eprintln!("llvm-dis 19: {fig:#?}");
    assert!(fig.files >= 4, "LLVM 19 reads most LLVM 14 files");
    // LLVM 19 upgrades LLVM 14's memory attributes to memory(...): a line may differ
    // only if ours holds one of them.
    for line in &fig.attribute_lines_upgraded {
        let (file, _) = line.split_once(": ").unwrap();
        let module_has_old = {
            let path = common::testdata_files().into_iter().find(|p| p.file_name().is_some_and(|n| n == file));
            let bytes = std::fs::read(path.expect("a testdata file")).unwrap();
            let m = Module::parse(&bytes).unwrap();
            m.function_attribute_sets().any(|s| UPGRADED_ATTRIBUTES.iter().any(|a| s.split(' ').any(|w| w == *a)))
        };
        assert!(module_has_old, "{line}: differs without an attribute LLVM 19 upgrades");
    }
    assert!(fig.names > 50 && fig.structs > 5);
}

/// LLVM 22's disassembler on the files LLVM 22 wrote (rustc 1.95's testdata files, and
/// Debian's libclc-22 if `.ci/run` unpacked it under `target/libclc/22`), and on every
/// other testdata file it reads. LLVM 22 reads the LLVM 14 files that LLVM 19 reads,
/// upgrading the same attributes.
#[test]
fn records_agree_with_llvm_dis_22() {
    let Some(tool) = common::llvm_tool("llvm-dis", 22) else { return };
    let mut files = common::testdata_files();
    let clc = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/libclc/22/usr/lib/clc");
    match std::fs::read_dir(&clc) {
        Ok(dir) => {
            let mut bc: Vec<PathBuf> =
                dir.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|e| e == "bc")).collect();
            bc.sort();
            files.extend(bc.into_iter().step_by(16));
        }
        Err(_) => {
            common::skip_or_fail::<()>(&format!("libclc-22 not unpacked in {} (.ci/run does it)", clc.display()));
        }
    }
    let fig = compare_with(&tool, "llvm-dis 22", true, &files);
    eprintln!("llvm-dis 22: {fig:#?}");
    // LLVM gives intrinsic declarations the attributes of its own intrinsic table
    // (22.1.8's, not those of the 22.1.2 that wrote the file); those sets (all
    // `nocallback`) may differ, no other.
    // LLVM 14's files: LLVM 22 upgrades their memory attributes as LLVM 19 does (see
    // `records_agree_with_llvm_dis_19`).
    for line in fig.attribute_lines_upgraded.iter().filter(|l| !l.starts_with("llvm14_")) {
        assert!(line.contains("nocallback"), "{line}: differs and is not an intrinsic's attribute set");
    }
    assert!(fig.files >= 4 && fig.names > 50);
    assert!(fig.attribute_lines_agreeing * 2 > fig.attribute_lines, "{fig:#?}");
}

/// A cut file gives what it holds before the cut: the module's early records equal the
/// whole file's, the globals and functions read are a prefix of the whole file's (names
/// past the cut, in the lost STRTAB, empty), and exactly one error says where it stopped.
#[test]
fn partial_modules_are_prefixes_of_the_whole() {
    let (mut checked, mut with_globals) = (0, 0);
    for path in common::testdata_files() {
        let bytes = std::fs::read(&path).unwrap();
        let Ok(whole) = Module::parse(&bytes) else { continue };
        let name = path.display();
        let (full, error) = Module::parse_partial(&bytes);
        assert!(error.is_none(), "{name}: {error:?}");
        assert_eq!(full.map(|m| m.globals.len()), Some(whole.globals.len()), "{name}");
        for tenth in 1..10 {
            let cut = &bytes[..bytes.len() * tenth / 10];
            let (module, error) = Module::parse_partial(cut);
            if let Some(error) = &error {
                assert!(error.byte_offset() <= cut.len() as u64, "{name}: {error} past the cut");
            }
            let Some(m) = module else {
                assert!(error.is_some(), "{name} cut at {tenth}/10: neither a module nor an error");
                continue;
            };
            if error.is_none() {
                // The cut fell after the MODULE block (in the STRTAB or SYMTAB): all of it.
                assert_eq!(
                    (m.globals.len(), m.functions.len()),
                    (whole.globals.len(), whole.functions.len()),
                    "{name}"
                );
            }
            checked += 1;
            // What was read is the whole file's; what came after the cut is missing.
            assert!(m.triple.is_none() || m.triple == whole.triple, "{name}");
            assert!(m.datalayout.is_none() || m.datalayout == whole.datalayout, "{name}");
            assert!(m.source_filename.is_none() || m.source_filename == whole.source_filename, "{name}");
            assert!(m.globals.len() <= whole.globals.len() && m.functions.len() <= whole.functions.len(), "{name}");
            for (got, want) in m.globals.iter().zip(&whole.globals) {
                assert_eq!(got.common.linkage, want.common.linkage, "{name}");
                assert!(got.common.name.is_empty() || got.common.name == want.common.name, "{name}");
            }
            with_globals += usize::from(!m.globals.is_empty() || !m.functions.is_empty());
        }
    }
    assert!(checked > 20 && with_globals > 10, "{checked} partial modules, {with_globals} with globals");
}

/// Every truncation of every IR testdata file reads to a clean error or a clean
/// result: never a panic. Every byte for the small files, a stride for the big ones.
#[test]
fn truncated_ir_never_panics() {
    let mut cuts = 0;
    for path in common::testdata_files() {
        let bytes = std::fs::read(&path).unwrap();
        if !bytes.starts_with(b"BC") && !bytes.starts_with(&[0xDE, 0xC0, 0x17, 0x0B]) {
            continue;
        }
        let stride = if bytes.len() > 100_000 { 997 } else { 1 };
        for len in (0..bytes.len()).step_by(stride) {
            cuts += 1;
            read_everything(&bytes[..len]);
        }
    }
    assert!(cuts > 50_000, "{cuts} cuts");
}

#[test]
fn malformed_files_never_panic() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("testdata/malformed");
    let mut n = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let bytes = std::fs::read(entry.unwrap().path()).unwrap();
        read_everything(&bytes);
        n += 1;
    }
    assert!(n > 10);
}

/// Reads every module, its symbols and every printable thing; errors are fine.
fn read_everything(bytes: &[u8]) {
    let Ok(stream) = Bitstream::parse(bytes) else { return };
    let Ok(modules) = Module::parse_all(stream.bytes()) else { return };
    for m in modules {
        let _ = m.symbols();
        let _: Vec<String> = m.types.struct_definitions(false).collect();
        let _: Vec<String> = m.function_attribute_sets().collect();
        for f in &m.functions {
            let _ = m.types.display(f.common.value_type).to_string();
            let _ = f.body_bits();
        }
        // Constants that share operands print within a bound: the regression
        // `ir-constants-shared-operands-*` printed 43 MB per initializer before.
        if let Ok(constants) = m.constants() {
            for g in &m.globals {
                if let Some(init) = g.initializer {
                    let text = constants.display(&m, init, true).to_string();
                    let bound = 64 * 1024 * 64 + constants.operands.len() * 4 * 64;
                    assert!(text.len() <= bound, "{} bytes printed for one initializer", text.len());
                }
            }
        }
    }
}

/// A module from a newer LLVM than this crate knows: attribute kind 250, a module record
/// with code 200, extra trailing operands on GLOBALVAR and FUNCTION, an unknown attribute
/// encoding and type code. All of it is kept; nothing is an error.
#[cfg(feature = "writer")]
fn skewed_module(name_offset: u64, function_type: u64) -> Vec<u8> {
    use llvm_bitstream_reader::AbbrevOp;
    use llvm_bitstream_reader::ids::llvm_ir::raw as ids;
    use llvm_bitstream_reader::writer::BitstreamWriter;

    let mut w = BitstreamWriter::new([0x42, 0x43, 0xC0, 0xDE]);
    w.enter_block(ids::IDENTIFICATION_BLOCK_ID, 5);
    w.write_unabbrev(ids::IDENTIFICATION_CODE_STRING, &b"LLVM99.0.0".map(u64::from));
    w.write_unabbrev(ids::IDENTIFICATION_CODE_EPOCH, &[0]);
    w.end_block();
    w.enter_block(ids::MODULE_BLOCK_ID, 3);
    w.write_unabbrev(ids::MODULE_CODE_VERSION, &[2]);
    w.write_unabbrev(ids::MODULE_CODE_TRIPLE, &b"x86_64-apple-macosx99".map(u64::from));
    w.write_unabbrev(ids::MODULE_CODE_DATALAYOUT, &b"e-m:o-i64:64-n32:64-S128".map(u64::from));
    w.enter_block(ids::PARAMATTR_GROUP_BLOCK_ID, 3);
    // Group 1, function index: enum 250 (unknown), nounwind, "k"="v", then encoding 9.
    w.write_unabbrev(
        ids::PARAMATTR_GRP_CODE_ENTRY,
        &[1, 0xFFFF_FFFF, 0, 250, 0, 18, 4, b'k'.into(), 0, b'v'.into(), 0, 9, 1, 2],
    );
    w.end_block();
    w.enter_block(ids::PARAMATTR_BLOCK_ID, 3);
    w.write_unabbrev(ids::PARAMATTR_CODE_ENTRY, &[1]);
    w.end_block();
    w.enter_block(ids::TYPE_BLOCK_ID_NEW, 4);
    w.write_unabbrev(ids::TYPE_CODE_NUMENTRY, &[4]);
    w.write_unabbrev(ids::TYPE_CODE_INTEGER, &[32]); // 0: i32
    w.write_unabbrev(ids::TYPE_CODE_FUNCTION, &[0, 0]); // 1: i32 ()
    w.write_unabbrev(ids::TYPE_CODE_OPAQUE_POINTER, &[0]); // 2: ptr
    w.write_unabbrev(99, &[7, 7]); // 3: a type code from the future
    w.end_block();
    // A module record code from the future.
    w.write_unabbrev(200, &[1, 2, 3]);
    // GLOBALVAR "g": i32 declaration, explicit type, external, align 4, protected, … plus
    // 3 operands past the code model.
    let mut gv = vec![name_offset, 1, 0, 2, 0, 0, 3, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
    gv.extend([41, 42, 43]);
    w.write_unabbrev(ids::MODULE_CODE_GLOBALVAR, &gv);
    // FUNCTION "f": a definition with attributes 1, hidden, linkage code 77 (unknown),
    // plus 2 operands past preferred alignment.
    let mut f = vec![1, 1, function_type, 0, 0, 77, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
    f.extend([51, 52]);
    w.write_unabbrev(ids::MODULE_CODE_FUNCTION, &f);
    w.enter_block(ids::FUNCTION_BLOCK_ID, 4);
    w.write_unabbrev(1, &[1]); // DECLAREBLOCKS
    w.write_unabbrev(10, &[]); // ret void… never decoded by the module reader
    w.end_block();
    w.end_block();
    w.enter_block(ids::STRTAB_BLOCK_ID, 3);
    let abbrev = [AbbrevOp::Literal(1), AbbrevOp::Blob];
    w.define_abbrev(&abbrev);
    w.write_abbreviated(4, &abbrev, 1, &[], Some(b"gf")).unwrap();
    w.end_block();
    w.finish()
}

#[cfg(feature = "writer")]
#[test]
fn newer_llvm_content_is_kept_not_rejected() {
    use llvm_bitstream_reader::Error;
    use llvm_bitstream_reader::ir::{AttrKind, Attribute, Type};

    let bytes = skewed_module(0, 1);
    let m = Module::parse(&bytes).expect("version skew is not an error");
    assert_eq!(m.producer.as_deref(), Some("LLVM99.0.0"));
    let group = &m.attribute_groups[0];
    assert_eq!(group.attributes[0], Attribute::Enum(AttrKind(250)));
    assert_eq!(AttrKind(250).name(), None);
    assert_eq!(group.attributes[1], Attribute::Enum(AttrKind(18)));
    assert!(matches!(group.attributes[3], Attribute::Unknown { encoding: 9, .. }));
    let printed: Vec<String> = m.function_attribute_sets().collect();
    assert_eq!(printed[0], r#"{ unknown_attr(250) nounwind "k"="v" unknown_attr_encoding(9: [1, 2]) }"#);
    assert!(matches!(m.types.types[3], Type::Unknown { code: 99, .. }));
    assert_eq!(m.unknown_records.len(), 1);
    assert!(
        matches!(&m.unknown_records[0], llvm_bitstream_reader::Unknown::Record { code: 200, operands, .. } if operands == &[1u64, 2, 3]),
        "{:?}",
        m.unknown_records
    );
    assert_eq!(&*m.globals[0].common.name, b"g");
    assert_eq!(m.globals[0].common.extra_operands, [41, 42, 43]);
    assert_eq!(m.globals[0].common.visibility.to_string(), "protected");
    let f = &m.functions[0];
    assert_eq!(&*f.common.name, b"f");
    assert_eq!(f.common.linkage, Linkage::Unknown(77));
    assert_eq!(f.common.extra_operands, [51, 52]);
    assert!(f.body_bits().is_some_and(|b| b > 0), "the body is paired, not decoded");
    // The symbols still come out, `_`-prefixed for Mach-O.
    let names: Vec<Vec<u8>> = m.symbols().into_iter().map(|s| s.name.into_owned()).collect();
    assert_eq!(names, [b"_f".to_vec(), b"_g".to_vec()]);

    // Structural breaks are errors, with the record's bit offset.
    match Module::parse(&skewed_module(5, 1)) {
        Err(Error::RangeOutOfBounds { bit, offset: 5, size: 1, len: 2, table: "STRTAB", .. }) => assert!(bit > 0),
        other => panic!("{other:?}"),
    }
    match Module::parse(&skewed_module(0, 9)) {
        Err(Error::IndexOutOfRange { bit, what: "type", index: 9, len: 4 }) => assert!(bit > 0),
        other => panic!("{other:?}"),
    }
}

/// Inputs the `ir` fuzz target found (`fuzz/regressions/ir-*`) read without a panic.
#[test]
fn ir_fuzz_regressions_replay() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fuzz/regressions");
    let mut n = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.file_name().is_some_and(|f| f.to_string_lossy().starts_with("ir-")) {
            read_everything(&std::fs::read(&path).unwrap());
            n += 1;
        }
    }
    assert!(n >= 1);
}

/// Inputs the `ir_bodies` fuzz target found (`fuzz/regressions/ir_bodies-*`): every body
/// decodes or fails, and every function (as LLVM 14 and 22 print it) and the module
/// print, without a panic and within a bound, as in the fuzz target.
#[test]
fn ir_bodies_fuzz_regressions_replay() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fuzz/regressions");
    let mut n = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.file_name().is_some_and(|f| f.to_string_lossy().starts_with("ir_bodies-")) {
            ir_print::bodies(&std::fs::read(&path).unwrap());
            n += 1;
        }
    }
    assert!(n >= 1);
}

/// The `ir_metadata` fuzz target's checks hold on every IR testdata file (metadata read
/// whole and through the index, whole modules printed within the bound, every debug-info
/// question asked): the fuzzer's seeds, replayed through its code.
#[test]
fn ir_metadata_fuzz_checks_hold_on_testdata() {
    let mut n = 0;
    for path in common::testdata_files() {
        let bytes = std::fs::read(&path).unwrap();
        let Ok(stream) = Bitstream::parse(&bytes) else { continue };
        if stream.magic() == Magic::LlvmIr {
            ir_print::metadata(stream.bytes());
            n += 1;
        }
    }
    assert!(n >= 5, "only {n} IR files");
}

/// Every function definition of every testdata module is paired with a FUNCTION_BLOCK of
/// its own (by the VST's FNENTRY offsets where the file has them, else in order), and the
/// body can be read later with the event reader.
#[test]
fn every_definition_has_its_own_body() {
    let mut bodies = 0;
    for path in common::testdata_files() {
        let bytes = std::fs::read(&path).unwrap();
        let Ok(stream) = Bitstream::parse(&bytes) else { continue };
        if stream.magic() != Magic::LlvmIr {
            continue;
        }
        for m in Module::parse_all(stream.bytes()).unwrap() {
            let mut seen = BTreeSet::new();
            for f in m.definitions() {
                let body = f
                    .body
                    .as_ref()
                    .unwrap_or_else(|| panic!("{}: {} has no body", path.display(), f.common.name_str()));
                assert!(seen.insert(body.bookmark().header_bit), "{}: two functions share a body", path.display());
                // The body reads to its end.
                let mut reader = body.reader().unwrap();
                while reader.advance().unwrap().is_some() {}
                bodies += 1;
            }
            assert_eq!(m.function_blocks, seen.len(), "{}", path.display());
        }
    }
    assert!(bodies > 300, "{bodies}");
}

/// With `serde`, names are strings and attribute kinds are their LLVM names, not arrays of
/// bytes and bare numbers.
#[cfg(feature = "serde")]
#[test]
fn serde_writes_names_as_strings_and_attribute_kinds_by_name() {
    let bytes = std::fs::read(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("testdata/rustc_llvm22_o3.bc")).unwrap();
    let module = Module::parse(&bytes).unwrap();
    let json = serde_json::to_value(&module).unwrap();
    let functions = json["functions"].as_array().unwrap();
    assert_eq!(functions.len(), module.functions.len());
    for (f, value) in module.functions.iter().zip(functions) {
        assert_eq!(value["common"]["name"], serde_json::json!(f.common.name_str()), "{value}");
    }
    let groups = serde_json::to_value(&*module.attribute_groups).unwrap().to_string();
    assert!(groups.contains("\"nounwind\""), "{groups}");
    let symbols = serde_json::to_value(module.symbols()).unwrap();
    assert!(symbols.as_array().unwrap().iter().all(|s| s["name"].is_string() && s["ir_name"].is_string()));
}

/// The JSON shape the `ir` docs describe: a module's fields, a function without its
/// body, `null` for a global without a partition, tagged value references.
#[cfg(feature = "serde")]
#[test]
fn serde_shape_is_the_documented_one() {
    let bytes = std::fs::read(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("testdata/rustc_llvm22_o3.bc")).unwrap();
    let module = Module::parse(&bytes).unwrap();
    let json = serde_json::to_value(&module).unwrap();
    for field in ["index", "producer", "triple", "datalayout", "types", "globals", "functions", "values"] {
        assert!(json.get(field).is_some(), "{field}");
    }
    assert!(json.get("block").is_none());
    let function = &json["functions"][0];
    assert!(function.get("body").is_none() && function["common"]["name"].is_string(), "{function}");
    assert!(json["globals"].as_array().unwrap().iter().all(|g| g["common"]["partition"].is_null()));
    assert!(json["values"][0].as_object().is_some_and(|v| v.contains_key("Var") || v.contains_key("Function")));
}
