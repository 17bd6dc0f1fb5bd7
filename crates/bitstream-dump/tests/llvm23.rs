//! LLVM 23 modules, written with the library's `writer` record for record as LLVM 23's
//! `BitcodeWriter` writes them (no LLVM 23 is installable here; these follow its sources):
//! `testdata/src/llvm23/placeholders.llvm22.ll`, assembled by `llvm-as-22`, with its
//! placeholders rewritten into LLVM 23's new records. The typed API decodes each with
//! nothing unknown left for it, `--dis` prints each as LLVM 23's `AsmWriter` does, and
//! `--nm`, `-dump` and `--summary` read the file where they read the LLVM 22 one.
//!
//! When `llvm-dis-23` is on the `PATH`, the rewritten module is compared with it too.

mod common;

use std::path::Path;
use std::process::Command;

use common::tree::{Encoding, Node, Rec, Rng, drop_offsets, rec, tree, write};
use common::{BIN, llvm_tool, repo_root};
use llvm_bitstream_reader::ids::llvm_ir::raw as ir;
use llvm_bitstream_reader::ir::{AttrKind, Attribute, ConstantKind, InstKind, Module, Type, rmw_op_name};

/// `target_cpu` for the module asm: `key \0 value` (BitcodeReader.cpp, MODULE_CODE_ASM_PROPERTY).
const ASM_PROPERTY: &[u8] = b"target_cpu\0x86-64-v3";
/// Two value ids' GUIDs: none for value 0, one for value 1 (`[hi32, lo32]` pairs).
const GUIDS: [u64; 4] = [0, 0, 0x1234, 0x5678];

/// The placeholder module, rewritten into LLVM 23's records (see the module docs).
fn llvm23_module(placeholders: &[u8]) -> Vec<u8> {
    let mut nodes = tree(placeholders);
    drop_offsets(&mut nodes, u32::MAX);
    let module = nodes
        .iter_mut()
        .find_map(|n| match n {
            Node::Block { id, children } if *id == ir::MODULE_BLOCK_ID => Some(children),
            _ => None,
        })
        .expect("a module block");
    // Type ids: each record of the type table but NUMENTRY defines the next.
    let mut byte8 = None;
    let mut byte128 = None;
    let mut bytes3 = None;
    for n in module.iter_mut() {
        let Node::Block { id: ir::TYPE_BLOCK_ID_NEW, children } = n else { continue };
        let mut next = 0u64;
        for c in children.iter_mut() {
            let Node::Record(r) = c else { continue };
            if r.code == ir::TYPE_CODE_NUMENTRY {
                continue;
            }
            // BYTE: [width] (BitcodeWriter.cpp writeTypeTable, Type::ByteTyID).
            if r.code == ir::TYPE_CODE_INTEGER && r.ops == [7] {
                *r = Rec { code: ir::TYPE_CODE_BYTE, ops: vec![8], blob: None };
                byte8 = Some(next);
            } else if r.code == ir::TYPE_CODE_ARRAY
                && Some(r.ops.as_slice()) == byte8.map(|b| [3, b]).as_ref().map(|a| &a[..])
            {
                bytes3 = Some(next);
            } else if r.code == ir::TYPE_CODE_INTEGER && r.ops == [100] {
                *r = Rec { code: ir::TYPE_CODE_BYTE, ops: vec![128], blob: None };
                byte128 = Some(next);
            }
            next += 1;
        }
    }
    let (byte8, byte128) = (byte8.expect("an i7 type"), byte128.expect("an i100 type"));
    let bytes3 = bytes3.expect("a [3 x i7] type");
    let mut at = 0;
    while at < module.len() {
        match &mut module[at] {
            Node::Block { id: ir::CONSTANTS_BLOCK_ID, children } => {
                // The constants of a byte type: CST_CODE_INTEGER's layouts under the byte codes.
                let mut ty = None;
                for c in children.iter_mut() {
                    let Node::Record(r) = c else { continue };
                    match r.code {
                        ir::CST_CODE_SETTYPE => ty = r.ops.first().copied(),
                        ir::CST_CODE_INTEGER if ty == Some(byte8) => r.code = ir::CST_CODE_BYTE,
                        ir::CST_CODE_WIDE_INTEGER if ty == Some(byte128) => r.code = ir::CST_CODE_WIDE_BYTE,
                        // `[3 x b8] c"ab\00"` is a ConstantDataArray that `isCString`:
                        // CSTRING [chars…] without the 0 (writeConstants).
                        ir::CST_CODE_AGGREGATE if ty == Some(bytes3) => {
                            *r = Rec { code: ir::CST_CODE_CSTRING, ops: vec![97, 98], blob: None }
                        }
                        _ => {}
                    }
                }
            }
            Node::Block { id: ir::PARAMATTR_GROUP_BLOCK_ID, children } => {
                for c in children.iter_mut() {
                    let Node::Record(r) = c else { continue };
                    // [id, index, entries…]: `cold` (enum 36) → `nooutline` (107);
                    // `alignstack=16` (int 25) → `denormal_fpenv(float: preservesign)` (106).
                    let mut i = 2;
                    while i < r.ops.len() {
                        match (r.ops[i], r.ops.get(i + 1).copied()) {
                            (0, Some(k)) => {
                                if k == u64::from(ir::ATTR_KIND_COLD) {
                                    r.ops[i + 1] = u64::from(ir::ATTR_KIND_NOOUTLINE);
                                }
                                i += 2;
                            }
                            (1, Some(k)) => {
                                if k == u64::from(ir::ATTR_KIND_STACK_ALIGNMENT) {
                                    r.ops[i + 1] = u64::from(ir::ATTR_KIND_DENORMAL_FPENV);
                                    r.ops[i + 2] = 0x50;
                                }
                                i += 3;
                            }
                            _ => panic!("the placeholder groups hold enum and int attributes only: {:?}", r.ops),
                        }
                    }
                }
            }
            Node::Record(r) if r.code == ir::MODULE_CODE_ASM => {
                // The properties go before the asm they apply to.
                module.insert(
                    at,
                    rec(ir::MODULE_CODE_ASM_PROPERTY, ASM_PROPERTY.iter().map(|&b| u64::from(b)).collect()),
                );
                at += 1;
            }
            Node::Block { id: ir::FUNCTION_BLOCK_ID, children } => {
                for c in children.iter_mut() {
                    let Node::Record(r) = c else { continue };
                    // [ptr, val, op, vol, ordering, ssid, align]: op after the relative
                    // pointer and value ids.
                    if r.code == ir::FUNC_CODE_INST_ATOMICRMW {
                        r.ops[2] = match r.ops[2] {
                            13 => u64::from(ir::RMW_FMAXIMUMNUM),
                            14 => u64::from(ir::RMW_FMINIMUMNUM),
                            op => op,
                        };
                    }
                }
            }
            _ => {}
        }
        at += 1;
    }
    // MODULE_CODE_GUIDLIST after the global values it numbers.
    let last_function = module
        .iter()
        .rposition(|n| matches!(n, Node::Record(r) if r.code == ir::MODULE_CODE_FUNCTION))
        .expect("a function record");
    module.insert(last_function + 1, rec(ir::MODULE_CODE_GUIDLIST, GUIDS.to_vec()));
    write(&nodes, Encoding::Unabbreviated, &mut Rng(1))
}

/// The placeholder module built by `llvm-as-22` into `dir`; `None` (after saying why, or
/// a panic under `CI=true`) without it.
fn placeholders(dir: &Path) -> Option<Vec<u8>> {
    let llvm_as = llvm_tool("llvm-as", 22)?;
    let source = repo_root().join("testdata/src/llvm23/placeholders.llvm22.ll");
    let out = dir.join("placeholders.bc");
    let status = Command::new(llvm_as).arg(&source).arg("-o").arg(&out).status().expect("llvm-as-22 runs");
    assert!(status.success(), "llvm-as-22 {}", source.display());
    Some(std::fs::read(out).unwrap())
}

fn run(args: &[&std::ffi::OsStr]) -> (bool, String, String) {
    let out = Command::new(BIN).args(args).output().expect("bitstream-dump runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn llvm23_records_decode_and_print_as_llvm23_does() {
    let dir = std::env::temp_dir().join(format!("llvm23-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let Some(placeholders) = placeholders(&dir) else { return };
    let bytes = llvm23_module(&placeholders);
    let file = dir.join("llvm23.bc");
    std::fs::write(&file, &bytes).unwrap();

    // The typed API: every addition decoded, nothing of it left unknown.
    let module = Module::parse(&bytes).expect("the LLVM 23 module parses");
    assert!(module.types.types.contains(&Type::Byte(8)) && module.types.types.contains(&Type::Byte(128)));
    assert_eq!(module.asm, ["nop\n"]);
    assert_eq!(module.asm_properties, [vec![("target_cpu".to_owned(), "x86-64-v3".to_owned())]]);
    assert_eq!(module.guids, [0, 0x1234_0000_5678]);
    assert!(module.unknown_records.is_empty(), "{:?}", module.unknown_records);
    let constants = module.constants().expect("the module's constants");
    let kinds: Vec<&ConstantKind> = constants.constants.iter().map(|c| &c.kind).collect();
    assert!(kinds.contains(&&ConstantKind::Byte(5)) && kinds.contains(&&ConstantKind::Byte(-1)), "{kinds:?}");
    assert!(kinds.iter().any(|k| matches!(k, ConstantKind::WideByte(_))), "{kinds:?}");
    assert!(!kinds.iter().any(|k| matches!(k, ConstantKind::Unknown { .. })), "{kinds:?}");
    let attributes: Vec<&Attribute> = module.attribute_groups.iter().flat_map(|g| &g.attributes).collect();
    assert!(attributes.contains(&&Attribute::Enum(AttrKind(u64::from(ir::ATTR_KIND_NOOUTLINE)))), "{attributes:?}");
    assert!(attributes.contains(&&Attribute::Int(AttrKind(u64::from(ir::ATTR_KIND_DENORMAL_FPENV)), 0x50)));
    assert_eq!(AttrKind(106).name(), Some("denormal_fpenv"));
    assert_eq!(AttrKind(107).name(), Some("nooutline"));
    let bodies = module.bodies().expect("bodies");
    let function = module.functions.iter().position(|f| !f.is_declaration).unwrap();
    let body = bodies.body(function).expect("the body decodes").expect("a definition");
    let ops: Vec<&str> = body
        .instructions
        .iter()
        .filter_map(|i| match i.kind {
            InstKind::AtomicRmw { opcode, .. } => Some(rmw_op_name(opcode)),
            _ => None,
        })
        .collect();
    assert_eq!(ops, ["fmaximumnum", "fminimumnum"]);

    // `--dis`: as LLVM 23's AsmWriter prints each addition (TypePrinting::print's ByteTyID,
    // writeConstantInternal's ConstantByte, AtomicRMWInst::getOperationName,
    // Attribute::getAsString's DenormalFPEnv).
    let (ok, text, err) = run(&["--dis".as_ref(), file.as_os_str()]);
    assert!(ok, "{err}");
    for line in [
        "@byte = global b8 5",
        "@byte_neg = global b8 -1",
        "@zero = global b8 0",
        "@splat = global <2 x b8> splat (b8 3)",
        "@wide = global b128 36893488147419103232",
        "@string = constant [3 x b8] c\"ab\\00\"",
        "  %max = atomicrmw fmaximumnum ptr %p, float %v seq_cst, align 4",
        "  %min = atomicrmw fminimumnum ptr %p, float %v seq_cst, align 4",
        "module asm \"nop\"",
    ] {
        assert!(text.lines().any(|l| l == line), "no line {line:?} in\n{text}");
    }
    let group = text.lines().find(|l| l.starts_with("attributes #0 = {")).expect("the group");
    assert!(group.contains(" nooutline ") && group.contains(" denormal_fpenv(float: preservesign) "), "{group}");

    // Where LLVM 23's tools are installed, the whole text is theirs.
    if let Some(llvm_dis) = which("llvm-dis-23") {
        let out = Command::new(llvm_dis).arg(&file).arg("-o").arg("-").output().unwrap();
        let theirs = String::from_utf8_lossy(&out.stdout);
        let strip = |t: &str| t.lines().filter(|l| !l.starts_with("; ModuleID")).collect::<Vec<_>>().join("\n");
        assert_eq!(strip(&theirs), strip(&text));
    } else {
        eprintln!(
            "llvm23: llvm-dis-23 is not on the PATH (no LLVM 23 is installable here): compared with LLVM 23's sources only"
        );
    }

    // The other readers take the file as they take the LLVM 22 one.
    for args in [&["--nm"][..], &["-dump"][..], &["--summary"][..]] {
        let mut all: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_ref()).collect();
        all.push(file.as_os_str());
        let (ok, out, err) = run(&all);
        assert!(ok && !out.is_empty(), "{args:?}: {err}");
    }
    let (_, nm, _) = run(&["--nm".as_ref(), file.as_os_str()]);
    for symbol in ["D byte", "D splat", "D wide", "T rmw"] {
        assert!(nm.lines().any(|l| l.ends_with(symbol)), "no {symbol:?} in\n{nm}");
    }
    if std::env::var_os("KEEP_LLVM23").is_none() {
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// A tool on the `PATH`.
fn which(name: &str) -> Option<std::path::PathBuf> {
    std::env::var_os("PATH")?.to_str()?.split(':').map(|d| Path::new(d).join(name)).find(|p| p.is_file())
}
