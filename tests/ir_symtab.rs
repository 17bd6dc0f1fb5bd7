//! The oracle for bitcode newer than any installed LLVM: the SYMTAB blob LLVM itself
//! wrote. Symbols derived from the module records (`ir::Module::symbols`) must equal the
//! irsymtab's, symbol for symbol: on every rustc testdata file (LLVM 22) and on every
//! bitcode module of the rustc sysroot's `.rlib` archives.

mod common;

use std::path::PathBuf;
use std::process::Command;

use llvm_bitstream_reader::Bitstream;
use llvm_bitstream_reader::container::ContainerFile;
use llvm_bitstream_reader::ir::Inventory;
use llvm_bitstream_reader::ir::symtab::Symtab;
use llvm_bitstream_reader::ir::{Module, SymbolFlags};

#[derive(Default, Debug)]
struct Tally {
    streams: usize,
    rlib_streams: usize,
    /// Symbols of module asm in the SYMTAB, not derived.
    asm_symbols: usize,
    modules: usize,
    symbols: usize,
    /// Symbols whose required flags differ.
    required_mismatches: Vec<String>,
    /// Symbols whose whole flag word matches.
    whole_word_equal: usize,
    /// Bits that differed, with a count and an example.
    differing_bits: std::collections::BTreeMap<u32, (usize, String)>,
}

const NAMED_BITS: [(u32, &str); 12] = [
    (SymbolFlags::HAS_UNCOMMON, "has_uncommon"),
    (SymbolFlags::UNDEFINED, "undefined"),
    (SymbolFlags::WEAK, "weak"),
    (SymbolFlags::COMMON, "common"),
    (SymbolFlags::INDIRECT, "indirect"),
    (SymbolFlags::USED, "used"),
    (SymbolFlags::TLS, "tls"),
    (SymbolFlags::MAY_OMIT, "may_omit"),
    (SymbolFlags::GLOBAL, "global"),
    (SymbolFlags::FORMAT_SPECIFIC, "format_specific"),
    (SymbolFlags::UNNAMED_ADDR, "unnamed_addr"),
    (SymbolFlags::EXECUTABLE, "executable"),
];

/// Compares one stream's modules with its SYMTAB; panics with the first difference in a
/// required field (name, undefined, weak, common, used, visibility).
fn compare_stream(label: &str, bytes: &[u8], tally: &mut Tally) {
    let stream = Bitstream::parse(bytes).unwrap_or_else(|e| panic!("{label}: {e}"));
    let inventory = Inventory::of(&stream).unwrap_or_else(|e| panic!("{label}: {e}"));
    let Some(symtab) = Symtab::from_inventory(&inventory).unwrap_or_else(|e| panic!("{label}: {e}")) else {
        return;
    };
    // LLVM rebuilds a table whose module count differs from the file's; so do we not compare.
    if symtab.module_count() as usize != inventory.modules.len() {
        return;
    }
    tally.streams += 1;
    for (i, info) in inventory.modules.iter().enumerate() {
        let module = Module::from_info(info).unwrap_or_else(|e| panic!("{label} module {i}: {e}"));
        let ours = module.symbols();
        let theirs: Vec<_> = symtab
            .module_symbols(i as u32)
            .unwrap_or_else(|e| panic!("{label}: {e}"))
            .collect::<Result<_, _>>()
            .unwrap_or_else(|e| panic!("{label}: {e}"));
        tally.modules += 1;
        // Symbols of module-level inline asm come last (ModuleSymbolTable::addModule) and
        // need an assembler to derive: they are counted, not compared.
        let asm_symbols = theirs.len().saturating_sub(ours.len());
        assert!(
            ours.len() == theirs.len()
                || (!module.asm.is_empty() && theirs[ours.len()..].iter().all(|s| s.ir_name.is_empty())),
            "{label} module {i}: {} symbols from the records, {} in the SYMTAB (module asm: {})",
            ours.len(),
            theirs.len(),
            module.asm.len()
        );
        tally.asm_symbols += asm_symbols;
        for (o, t) in ours.iter().zip(&theirs) {
            let name = String::from_utf8_lossy(t.name);
            assert_eq!(String::from_utf8_lossy(&o.name), name, "{label}: symbol {} name", t.index);
            assert_eq!(o.ir_name, t.ir_name, "{label}: {name}: IR name");
            let required = SymbolFlags::UNDEFINED | SymbolFlags::WEAK | SymbolFlags::COMMON | SymbolFlags::USED | 3;
            if o.flags.bits() & required != t.flags.bits() & required {
                tally.required_mismatches.push(format!("{label}: {name}: ours {:?}, SYMTAB {:?}", o.flags, t.flags));
            }
            if let Some(u) = t.uncommon.filter(|_| t.flags.common()) {
                assert_eq!(o.common_size, Some(u.common_size), "{label}: {name}: common size");
                assert_eq!(o.common_align, Some(u64::from(u.common_align)), "{label}: {name}: common align");
            }
            tally.symbols += 1;
            let diff = o.flags.bits() ^ t.flags.bits();
            if diff == 0 {
                tally.whole_word_equal += 1;
            }
            for (bit, _) in NAMED_BITS.iter().filter(|(b, _)| diff & b != 0) {
                let e = tally.differing_bits.entry(*bit).or_insert((0, String::new()));
                e.0 += 1;
                if e.1.is_empty() {
                    e.1 = format!("{label}: {name}: ours {:?}, SYMTAB {:?}", o.flags, t.flags);
                }
            }
        }
    }
}

fn report(tally: &Tally) {
    for m in &tally.required_mismatches {
        eprintln!("MISMATCH {m}");
    }
    eprintln!(
        "{} streams with a SYMTAB ({} bitcode streams looked at in rlibs), {} modules, {} symbols compared \
         ({} module-asm symbols not derived), {} with names, undefined/weak/common/used and visibility \
         different; whole flag words agree on {}",
        tally.streams,
        tally.rlib_streams,
        tally.modules,
        tally.symbols,
        tally.asm_symbols,
        tally.required_mismatches.len(),
        tally.whole_word_equal
    );
    for (bit, (n, example)) in &tally.differing_bits {
        let name = NAMED_BITS.iter().find(|(b, _)| b == bit).map_or("?", |(_, n)| n);
        eprintln!("  bit {name} differs on {n} symbols, e.g. {example}");
    }
}

#[test]
fn testdata_symbols_equal_their_symtab() {
    let mut tally = Tally::default();
    for path in common::testdata_files() {
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        if !file.starts_with("rustc_llvm22_") && !file.starts_with("llvm14_thinlto_bc") {
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        compare_stream(&file, &bytes, &mut tally);
    }
    report(&tally);
    assert!(tally.streams >= 3, "the rustc testdata files and the LLVM 14 ThinLTO file carry a SYMTAB");
    // Every bit is derived as LLVM 22 derives it.
    assert!(tally.required_mismatches.is_empty(), "{} symbols differ", tally.required_mismatches.len());
    assert!(tally.differing_bits.is_empty(), "flag bits differ: {:?}", tally.differing_bits);
}

fn sysroot_rlibs() -> Option<Vec<PathBuf>> {
    if cfg!(miri) {
        return None;
    }
    let out = Command::new("rustc").args(["--print", "sysroot"]).output().ok()?;
    let sysroot = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
    let mut rlibs = Vec::new();
    for target in std::fs::read_dir(sysroot.join("lib/rustlib")).ok()?.flatten() {
        let Ok(dir) = std::fs::read_dir(target.path().join("lib")) else { continue };
        for f in dir.flatten() {
            if f.path().extension().is_some_and(|e| e == "rlib") {
                rlibs.push(f.path());
            }
        }
    }
    rlibs.sort();
    Some(rlibs)
}

#[test]
fn sysroot_rlib_symbols_equal_their_symtab() {
    let Some(rlibs) = sysroot_rlibs().filter(|r| !r.is_empty()) else {
        common::skip_or_fail::<()>("no rustc sysroot with .rlib archives (rustc --print sysroot)");
        return;
    };
    let mut tally = Tally::default();
    for rlib in &rlibs {
        let file = ContainerFile::open(rlib).unwrap_or_else(|e| panic!("{}: {e}", rlib.display()));
        // An rlib without embedded bitcode is not an error here.
        let Ok(embedded) = file.bitstreams() else { continue };
        for e in embedded {
            tally.rlib_streams += 1;
            if e.magic().ok() != Some(llvm_bitstream_reader::Magic::LlvmIr) {
                continue;
            }
            compare_stream(&e.provenance.to_string(), e.bytes, &mut tally);
        }
    }
    report(&tally);
    assert!(tally.modules > 0, "the sysroot's rlibs carry bitcode modules");
    assert!(tally.required_mismatches.is_empty(), "{} symbols differ", tally.required_mismatches.len());
    assert!(tally.differing_bits.is_empty(), "flag bits differ: {:?}", tally.differing_bits);
}

/// An alias of an `inrange` GEP (CE_GEP_WITH_INRANGE, LLVM 19 and later) resolves to its
/// object as an alias of any other GEP does. No SYMTAB to compare with here (`llvm-as`
/// writes none): `llvm-nm` of the LLVM that assembled the file is the oracle, which lists
/// an alias of a function's GEP as text (`T`); the object's section is the alias's.
#[test]
fn aliases_of_inrange_geps_resolve_to_their_objects() {
    const SOURCE: &str = r#"target triple = "x86_64-unknown-linux-gnu"

@vt = constant { [4 x ptr] } { [4 x ptr] [ptr null, ptr null, ptr @f, ptr @g] }, section "vtables"
@vt_alias = alias ptr, getelementptr inrange(-16, 16) ({ [4 x ptr] }, ptr @vt, i64 0, i32 0, i64 2)
@f_alias = alias i8, getelementptr inrange(0, 1) (i8, ptr @f, i64 1)

define void @f() {
  ret void
}

define void @g() {
  ret void
}
"#;
    for major in [19, 22] {
        let Some(llvm_as) = common::llvm_tool("llvm-as", major) else { continue };
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
        let (ll, bc) = (dir.join(format!("inrange_alias_{major}.ll")), dir.join(format!("inrange_alias_{major}.bc")));
        std::fs::write(&ll, SOURCE).unwrap();
        let out = Command::new(&llvm_as).arg(&ll).arg("-o").arg(&bc).output().unwrap();
        assert!(out.status.success(), "llvm-as {major}: {}", String::from_utf8_lossy(&out.stderr));
        let bytes = std::fs::read(&bc).unwrap();
        let module = Module::parse(&bytes).unwrap();
        let symbols = module.symbols();
        let symbol = |name: &str| symbols.iter().find(|s| s.ir_name == name.as_bytes()).unwrap();
        assert!(symbol("f_alias").flags.executable(), "LLVM {major}: f_alias is an alias of @f");
        assert!(!symbol("vt_alias").flags.executable(), "LLVM {major}: vt_alias is an alias of @vt");
        assert_eq!(symbol("vt_alias").section, Some("vtables"), "LLVM {major}: @vt's section");
        let Some(nm) = common::llvm_tool("llvm-nm", major) else { continue };
        let out = Command::new(&nm).arg(&bc).output().unwrap();
        let listed = String::from_utf8_lossy(&out.stdout);
        assert!(listed.lines().any(|l| l.ends_with(" T f_alias")), "llvm-nm {major}:\n{listed}");
        assert!(listed.lines().any(|l| l.ends_with(" D vt_alias")), "llvm-nm {major}:\n{listed}");
    }
}
