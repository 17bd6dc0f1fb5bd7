//! A damaged or cut module gives back everything before the break
//! (`ir::Module::parse_all_partial`): every cut point, a byte at a time, of real modules of
//! LLVM 14, 19 and 22 (bzip2's `huffman.c` built by clang-14/19/22 at `-O0 -g` and `-O2`,
//! and rustc's LLVM 22 bitcode), read as a user would: the module, every complete
//! function body, the metadata, the names debug info recovers, and the printed module.
//! What comes back is monotone in the prefix, and the whole file reads as `parse` does.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use llvm_bitstream_reader::ir::{DisOptions, Module};

fn read_testdata(name: &str) -> Vec<u8> {
    std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata").join(name)).unwrap()
}

/// What a prefix gives back, counted; compared field by field between prefixes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
struct Recovered {
    modules: usize,
    types: usize,
    globals: usize,
    functions: usize,
    /// Function bodies that decode.
    bodies: usize,
    instructions: usize,
    metadata: u64,
    /// Global values with their own name.
    named: usize,
}

impl Recovered {
    fn fields(&self) -> [(&'static str, u64); 8] {
        [
            ("modules", self.modules as u64),
            ("types", self.types as u64),
            ("globals", self.globals as u64),
            ("functions", self.functions as u64),
            ("bodies", self.bodies as u64),
            ("instructions", self.instructions as u64),
            ("metadata", self.metadata),
            ("named", self.named as u64),
        ]
    }
}

/// Reads a prefix as a user would, checking what every read promises on the way.
fn recover(prefix: &[u8], print: bool) -> (Recovered, Option<llvm_bitstream_reader::Error>) {
    let (modules, error) = Module::parse_all_partial(prefix);
    let mut r = Recovered { modules: modules.len(), ..Recovered::default() };
    if let Some(e) = &error {
        // The break is inside the prefix (or at its end).
        assert!(e.bit_offset() <= prefix.len() as u64 * 8, "{e} past the {}-byte prefix", prefix.len());
    }
    for m in &modules {
        if let Some(cut) = m.block.cut_bit() {
            assert!(error.is_some(), "a cut module comes with its error");
            assert!(cut <= prefix.len() as u64 * 8);
        }
        r.types += m.types.len();
        r.globals += m.globals.len();
        r.functions += m.functions.len();
        let all = m.functions.iter().map(|f| &f.common).chain(m.globals.iter().map(|g| &g.common));
        r.named += all.filter(|c| !c.name.is_empty()).count();
        let bodies = m.bodies().expect("a partial module's bodies are ready to decode");
        for (index, f) in m.functions.iter().enumerate() {
            // What the file holds before the break, as written (a view reads a cut module's
            // metadata, and so its debug calls, otherwise than the whole one's).
            match bodies.body_as_written(index) {
                Ok(Some(body)) => {
                    r.bodies += 1;
                    r.instructions += body.instructions.len();
                }
                Ok(None) => assert!(f.is_declaration || f.body.is_none()),
                // Every body the module kept ended before the break: it decodes.
                Err(e) => panic!("the kept body of function {index} does not decode: {e}"),
            }
        }
        r.metadata += m.metadata().map(|md| md.len()).unwrap_or(0);
        if print {
            let text = bodies.display_module(DisOptions::default()).to_string();
            let defines = text.lines().filter(|l| l.starts_with("define ")).count();
            assert!(defines >= m.functions.iter().filter(|f| f.body.is_some()).count(), "every kept body is printed");
        }
    }
    (r, error)
}

/// Cuts `bytes` at every `step`-th length and checks what each prefix gives back.
fn every_cut(name: &str, bytes: &[u8], step: usize) -> usize {
    let whole_modules = Module::parse_all(bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
    let (whole, error) = recover(bytes, true);
    assert!(error.is_none(), "{name}: the whole file reads without error: {error:?}");
    assert_eq!(whole.modules, whole_modules.len());
    let definitions: usize = whole_modules.iter().map(|m| m.definitions().count()).sum();
    assert_eq!(whole.bodies, definitions, "{name}: every body of the whole file decodes");
    let mut last = Recovered::default();
    let mut last_len = 0;
    let mut with_bodies = 0;
    let mut partial_metadata = 0;
    for len in (0..bytes.len()).step_by(step).chain([bytes.len()]) {
        // Printing every prefix would take minutes: every 97th, and every 4-byte one at
        // the end (where the STRTAB and SYMTAB are) is enough to reach every path.
        let print = len % 97 == 0;
        let (r, error) = recover(&bytes[..len], print);
        if len < bytes.len() && r.modules > 0 {
            assert!(error.is_some() || r.named < whole.named, "{name}: a {len}-byte prefix says nothing is missing");
        }
        for ((field, now), (_, before)) in r.fields().into_iter().zip(last.fields()) {
            assert!(
                now >= before,
                "{name}: the {len}-byte prefix gives back {now} {field}, the {last_len}-byte one {before}"
            );
        }
        with_bodies += usize::from(r.bodies > 0 && r.bodies < whole.bodies);
        // A cut inside the module's metadata keeps the nodes before it.
        partial_metadata += usize::from(r.bodies == 0 && r.metadata > 0 && r.metadata < whole.metadata);
        (last, last_len) = (r, len);
    }
    assert_eq!(last, whole, "{name}: the whole file's");
    assert!(with_bodies > 0, "{name}: some prefix keeps some bodies, not all");
    assert!(partial_metadata > 0, "{name}: some prefix keeps some of the metadata, not all");
    with_bodies
}

/// bzip2's `huffman.c` (testdata/src/bzip2, real code nobody here wrote) built by
/// clang-`major` with `flags`, in the test's target directory.
fn build(major: u32, flags: &[&str]) -> Option<PathBuf> {
    let clang = common::llvm_tool("clang", major)?;
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/src/bzip2");
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("huffman-{major}{}.bc", flags.concat()));
    let status = Command::new(clang)
        .args(["-c", "-emit-llvm", "-o"])
        .arg(&out)
        .args(flags)
        .arg("-I")
        .arg(&src)
        .arg(src.join("huffman.c"))
        .status()
        .expect("clang runs");
    assert!(status.success(), "clang-{major} {flags:?} huffman.c");
    Some(out)
}

fn clang_module_cut_everywhere(major: u32) {
    for flags in [&["-O0", "-g"][..], &["-O2"][..]] {
        let Some(path) = build(major, flags) else { return };
        let bytes = std::fs::read(&path).unwrap();
        let name = format!("huffman.c by clang-{major} {flags:?}");
        let kept = every_cut(&name, &bytes, 1);
        eprintln!("{name}: {} cuts, {kept} with some of the bodies", bytes.len() + 1);
    }
}

#[test]
fn every_cut_of_a_clang_14_module_gives_back_what_precedes_it() {
    clang_module_cut_everywhere(14);
}

#[test]
fn every_cut_of_a_clang_19_module_gives_back_what_precedes_it() {
    clang_module_cut_everywhere(19);
}

#[test]
fn every_cut_of_a_clang_22_module_gives_back_what_precedes_it() {
    clang_module_cut_everywhere(22);
}

#[test]
fn every_cut_of_rustc_llvm_22_modules_gives_back_what_precedes_it() {
    let o3 = read_testdata("rustc_llvm22_o3.bc");
    every_cut("rustc_llvm22_o3.bc", &o3, 7);
    // 544 KB: every 401st byte.
    let o0 = read_testdata("rustc_llvm22_o0_debuginfo.bc");
    every_cut("rustc_llvm22_o0_debuginfo.bc", &o0, 401);
}

#[test]
fn a_cut_module_names_its_functions_from_debug_info() {
    let bytes = read_testdata("rustc_llvm22_o0_debuginfo.bc");
    let whole = Module::parse(&bytes).unwrap();
    let (module, error) = Module::parse_partial(&bytes[..bytes.len() / 2]);
    let (module, error) = (module.unwrap(), error.unwrap());
    // The error says where the break is: the cut function block, the module's cut.
    assert_eq!(module.block.cut_bit(), Some(error.bit_offset()), "{error}");
    let bodies = module.bodies().unwrap();
    let mut recovered = 0;
    for (index, f) in module.functions.iter().enumerate() {
        assert!(f.common.name.is_empty(), "the STRTAB is past the cut");
        let Some(name) = bodies.recovered_name(f.common.value_id) else { continue };
        // Debug info's name is the file's, kept apart from it.
        assert_eq!(name.name, whole.functions[index].common.name.as_ref());
        recovered += 1;
    }
    assert!(recovered > 50, "{recovered}");
    // The printed module says what it recovered, and which bodies are gone.
    let text = bodies.display_module(DisOptions::default()).to_string();
    assert!(text.contains("; recovered name (from its DISubprogram): _ZN"));
    assert!(text.contains("; the body of this definition is past the break of the input"));
}
