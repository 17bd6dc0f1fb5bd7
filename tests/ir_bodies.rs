//! Function bodies (`ir::Bodies`): every body of the IR testdata decodes with every
//! operand resolved and typed, blocks end in terminators, decoding on threads gives what
//! decoding in order gives, a damaged file gives a clean error or a partial result, and
//! the instructions of `testdata/src/ir_instructions.ll` decode to what the source says.
//! The printed text is compared with `llvm-dis` in `crates/bitstream-dump/tests/dis.rs`.

mod common;

use llvm_bitstream_reader::ir::{Body, DisOptions, InstKind, Module, NO_TYPE, Ordering, TailKind, Value};

fn ir_files() -> Vec<std::path::PathBuf> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/testdata");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "bc"))
        .collect();
    files.sort();
    files
}

fn check_body(module: &Module<'_>, body: &Body, what: &str) {
    assert!(!body.blocks.is_empty(), "{what}: no blocks");
    for (b, block) in body.blocks.iter().enumerate() {
        let insts = body.block_instructions(b);
        assert!(!insts.is_empty(), "{what}: block {b} is empty");
        assert_eq!(insts.len(), block.len as usize);
        assert!(insts[insts.len() - 1].kind.is_terminator(), "{what}: block {b} does not end in a terminator");
        for inst in &insts[..insts.len() - 1] {
            assert!(!inst.kind.is_terminator(), "{what}: a terminator inside block {b}");
        }
    }
    for (i, inst) in body.instructions.iter().enumerate() {
        for o in body.operands(inst) {
            assert!(
                !matches!(o.value, Value::Unresolved(_)),
                "{what}: instruction {i} has an unresolved operand {o:?}"
            );
            assert_ne!(o.ty, NO_TYPE, "{what}: instruction {i} ({:?}) has an untyped operand {o:?}", inst.kind);
            assert!(module.types.get(o.ty).is_some());
            match o.value {
                Value::Instruction(n) => {
                    let def = &body.instructions[n as usize];
                    assert!(def.has_result, "{what}: operand refers to instruction {n}, which has no result");
                    assert_eq!(def.ty, o.ty, "{what}: instruction {i}'s operand type differs from its definition's");
                }
                Value::Argument(n) => assert_eq!(body.arguments[n as usize], o.ty),
                Value::Block(n) => assert!((n as usize) < body.blocks.len()),
                _ => {}
            }
        }
        if inst.has_result {
            assert_ne!(inst.ty, NO_TYPE, "{what}: instruction {i} ({:?}) has a result of unknown type", inst.kind);
        }
    }
}

#[test]
fn every_body_of_the_testdata_decodes_resolved_and_typed() {
    let (mut files, mut bodies_read, mut instructions) = (0, 0, 0);
    for path in ir_files() {
        let bytes = std::fs::read(&path).unwrap();
        let Ok(modules) = Module::parse_all(&bytes) else { continue };
        files += 1;
        for module in &modules {
            let bodies = module.bodies().unwrap();
            for (i, f) in module.functions.iter().enumerate() {
                let body =
                    bodies.body(i).unwrap_or_else(|e| panic!("{}: {}: {e}", path.display(), f.common.name_str()));
                assert_eq!(body.is_some(), f.body.is_some());
                let Some(body) = body else { continue };
                check_body(module, &body, &format!("{}: {}", path.display(), f.common.name_str()));
                bodies_read += 1;
                instructions += body.instructions.len();
            }
        }
    }
    println!("{files} files, {bodies_read} bodies, {instructions} instructions");
    assert!(files >= 8 && bodies_read >= 300 && instructions >= 10_000, "{files} {bodies_read} {instructions}");
}

#[test]
fn bodies_decode_on_threads_as_in_order() {
    let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/rustc_llvm22_o0_debuginfo.bc")).unwrap();
    let module = Module::parse(&bytes).unwrap();
    let bodies = module.bodies().unwrap();
    let n = module.functions.len();
    let in_order: Vec<Option<Body>> = (0..n).map(|i| bodies.body(i).unwrap()).collect();
    // Two threads share one `Bodies`, each taking every other function, in reverse.
    let halves: Vec<Vec<(usize, Option<Body>)>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..2)
            .map(|t| {
                let bodies = &bodies;
                s.spawn(move || (0..n).rev().filter(|i| i % 2 == t).map(|i| (i, bodies.body(i).unwrap())).collect())
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let mut count = 0;
    for (i, body) in halves.into_iter().flatten() {
        assert_eq!(body, in_order[i], "function {i}");
        count += 1;
    }
    assert_eq!(count, n);
}

/// `ModuleDisplay::with_threads` changes who prints, never what: every IR file of the
/// testdata and of LLVM's tests (old formats, upgrades, debug info), and modules cut
/// short (printed partially), give the same text on 1, 2, 3 and 8 threads. The runs the
/// threads take scale with the module, so even the small files are cut into many.
#[test]
fn a_module_prints_the_same_on_any_number_of_threads() {
    let llvm_tests = concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/llvm-tests");
    let mut files = ir_files();
    let mut more: Vec<_> = std::fs::read_dir(llvm_tests).unwrap().map(|e| e.unwrap().path()).collect();
    more.sort();
    files.extend(more.into_iter().filter(|p| p.extension().is_some_and(|e| e == "bc")));
    let mut inputs: Vec<(String, Vec<u8>)> = Vec::new();
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if name.starts_with("rustc_llvm22") {
            // Cut inside the functions and inside the module metadata.
            for cut in [bytes.len() / 3, bytes.len() * 2 / 3] {
                inputs.push((format!("{name} cut at {cut}"), bytes[..cut].to_vec()));
            }
        }
        inputs.push((name, bytes));
    }
    let mut printed = 0;
    for (name, bytes) in &inputs {
        let (modules, _) = Module::parse_all_partial(bytes);
        for module in &modules {
            let Ok(bodies) = module.bodies() else { continue };
            for version in [14, 22] {
                let options = DisOptions { llvm_version: version };
                let one = bodies.display_module(options).with_module_id("m.bc").to_string();
                for threads in [2, 3, 8] {
                    let many = bodies.display_module(options).with_module_id("m.bc").with_threads(threads).to_string();
                    assert!(one == many, "{name}, llvm-dis {version}: {threads} threads print another text");
                }
                printed += 1;
            }
        }
    }
    assert!(printed >= 2 * 80, "only {printed} modules printed");
}

/// The instructions of `testdata/src/ir_instructions.ll`, as the source writes them.
#[test]
fn instructions_decode_as_the_source_says() {
    let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/llvm14_ir_instructions.bc")).unwrap();
    let module = Module::parse(&bytes).unwrap();
    let bodies = module.bodies().unwrap();
    let body_of = |name: &str| {
        let i = module.functions.iter().position(|f| f.common.name_str() == name).unwrap();
        bodies.body(i).unwrap().unwrap()
    };
    // `%b = load atomic volatile i32, i32* %q acquire, align 4`
    let atomics = body_of("atomics");
    let load = atomics
        .instructions
        .iter()
        .find(|i| matches!(i.kind, InstKind::Load { volatile: true, ordering: Ordering::Acquire, .. }))
        .expect("the volatile acquire load");
    assert!(matches!(load.kind, InstKind::Load { align: Some(4), .. }));
    assert_eq!(atomics.operands(load)[0].value, Value::Argument(1));
    // `store volatile i32 1, i32* %q`: the value, then the pointer.
    let store = atomics.instructions.iter().find(|i| matches!(i.kind, InstKind::Store { volatile: true, .. })).unwrap();
    assert!(matches!(atomics.operands(store)[0].value, Value::Constant(_)));
    assert_eq!(atomics.operands(store)[1].value, Value::Argument(1));
    // `cmpxchg weak volatile … syncscope("singlethread") acq_rel monotonic`
    assert!(atomics.instructions.iter().any(|i| matches!(
        i.kind,
        InstKind::CmpXchg { weak: true, volatile: true, success: Ordering::AcqRel, failure: Ordering::Monotonic, .. }
    )));
    // Calls: the callee is a typed, resolved global; `@calls` calls `@classify`.
    let calls = body_of("calls");
    let callees: Vec<String> = calls
        .instructions
        .iter()
        .filter(|i| matches!(i.kind, InstKind::Call { .. }))
        .filter_map(|i| match calls.operands(i)[0].value {
            Value::Global(id) => Some(module.global(id).unwrap().name_str().into_owned()),
            _ => None,
        })
        .collect();
    assert!(!callees.is_empty());
    assert!(calls.instructions.iter().any(|i| matches!(i.kind, InstKind::Call { tail: TailKind::Tail, .. })));
    // `call i32 asm sideeffect "add $0, $1", …`: the callee is an inline-asm constant.
    let asm_calls = calls
        .instructions
        .iter()
        .filter(|i| matches!(i.kind, InstKind::Call { .. }))
        .filter(|i| match calls.operands(i)[0].value {
            Value::Constant(id) => bodies.constant(&calls, id).is_some_and(|(c, _)| c.is_inline_asm()),
            _ => false,
        })
        .count();
    assert!(asm_calls >= 1, "{asm_calls}");
    // The named values of `@classify`: arguments and blocks keep their names.
    let classify = body_of("classify");
    assert_eq!(classify.argument_name(0), Some(&b"x"[..]));
    assert!(classify.blocks.len() > 1);
    assert!(classify.instructions.iter().any(|i| matches!(i.kind, InstKind::Switch)));
}

/// Cuts of two IR files: reading what is left never panics; the bodies of what reads
/// decode or fail with an error, and print.
#[test]
fn damaged_files_give_errors_or_partial_bodies() {
    for name in ["llvm14_ir_instructions.bc", "rustc_llvm22_o3.bc"] {
        let bytes = std::fs::read(format!("{}/testdata/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap();
        // Every cut of the small file, every seventh of the larger one.
        let step = if cfg!(miri) {
            4001
        } else if name.starts_with("llvm14") {
            1
        } else {
            7
        };
        let (mut partial, mut failed_bodies) = (0, 0);
        for cut in (0..bytes.len()).step_by(step) {
            let (module, _) = Module::parse_partial(&bytes[..cut]);
            let Some(module) = module else { continue };
            let Ok(bodies) = module.bodies() else { continue };
            partial += 1;
            for i in 0..module.functions.len() {
                match bodies.body(i) {
                    Ok(body) => {
                        let text = bodies.display_function(i, body.as_ref(), DisOptions::default()).to_string();
                        assert!(!text.is_empty());
                    }
                    Err(e) => {
                        assert!(e.bit_offset() <= cut as u64 * 8 + 64, "{name} cut at {cut}: {e}");
                        failed_bodies += 1;
                    }
                }
            }
        }
        println!("{name}: {partial} cuts read in part, {failed_bodies} bodies failed cleanly");
        assert!(partial > 0);
    }
}

/// Every byte of the bodies of `llvm14_ir_instructions.bc`, changed in turn: the module
/// still reads (its records are outside the bodies), every body decodes or fails with an
/// error, and the bodies that were not changed decode as before.
#[test]
fn a_damaged_body_fails_alone() {
    let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/llvm14_ir_instructions.bc")).unwrap();
    let module = Module::parse(&bytes).unwrap();
    let bodies = module.bodies().unwrap();
    let reference: Vec<Option<Body>> = (0..module.functions.len()).map(|i| bodies.body(i).unwrap()).collect();
    // The byte range of each body, in the file.
    let ranges: Vec<(usize, std::ops::Range<usize>)> = module
        .functions
        .iter()
        .enumerate()
        .filter_map(|(i, f)| {
            let b = f.body.as_ref()?.bookmark();
            let start = (b.content_bit / 8) as usize;
            Some((i, start..start + b.len_words as usize * 4))
        })
        .collect();
    let step = if cfg!(miri) { 997 } else { 1 };
    let (mut changed, mut failed, mut differed) = (0, 0, 0);
    for (damaged, range) in &ranges {
        for at in range.clone().step_by(step) {
            let mut copy = bytes.clone();
            copy[at] ^= 0xa5;
            let Ok(m) = Module::parse(&copy) else { continue };
            let Ok(b) = m.bodies() else { continue };
            changed += 1;
            for (i, before) in reference.iter().enumerate() {
                match b.body(i) {
                    Ok(body) => {
                        let _ = b.display_function(i, body.as_ref(), DisOptions { llvm_version: 14 }).to_string();
                        if i != *damaged {
                            assert_eq!(&body, before, "byte {at} of function {damaged} changed function {i}");
                        } else if body != *before {
                            differed += 1;
                        }
                    }
                    Err(e) => {
                        assert_eq!(i, *damaged, "byte {at} of function {damaged} broke function {i}: {e}");
                        failed += 1;
                    }
                }
            }
        }
    }
    println!("{changed} bytes changed: {failed} bodies failed with an error, {differed} decoded differently");
    assert!(changed > 1000 && failed > 100, "{changed} {failed}");
}

/// Names of results, found by instruction: the same as the printer shows.
#[test]
fn instruction_names_are_the_printed_ones() {
    let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/llvm14_ir_instructions.bc")).unwrap();
    let module = Module::parse(&bytes).unwrap();
    let bodies = module.bodies().unwrap();
    let mut named = 0;
    for i in 0..module.functions.len() {
        let Some(body) = bodies.body(i).unwrap() else { continue };
        let text = bodies.display_function(i, Some(&body), DisOptions { llvm_version: 14 }).to_string();
        for (n, inst) in body.instructions.iter().enumerate() {
            if let Some(name) = body.instruction_name(n as u32) {
                assert!(inst.has_result);
                let name = String::from_utf8_lossy(name);
                assert!(text.contains(&format!("%{name} = ")), "%{name} is not printed as a result");
                named += 1;
            }
        }
    }
    assert!(named > 50, "{named}");
}

/// A function printed alone is numbered as the whole module prints it: its text is the
/// module print's, metadata ids and attribute groups included.
#[test]
fn a_function_printed_alone_is_numbered_as_in_the_module() {
    for name in ["rustc_llvm22_o0_debuginfo.bc", "llvm14_ir_debuginfo.bc", "llvm14_ir_instructions.bc"] {
        let bytes =
            std::fs::read(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata").join(name)).unwrap();
        let module = Module::parse(&bytes).unwrap();
        let bodies = module.bodies().unwrap();
        for version in [14, 22] {
            let options = DisOptions { llvm_version: version };
            let whole = bodies.display_module(options).to_string();
            let mut checked = 0;
            // Definitions: a declaration may be one LLVM's reader drops or declares anew.
            for index in (0..module.functions.len()).filter(|&i| !module.functions[i].is_declaration).step_by(5) {
                let body = bodies.body(index).unwrap();
                let alone = bodies.display_function(index, body.as_ref(), options).to_string();
                assert!(whole.contains(&alone), "{name} at {version}: function {index} alone:\n{alone}");
                checked += usize::from(body.is_some_and(|b| !b.debug_locs.is_empty()));
            }
            assert!(name != "rustc_llvm22_o0_debuginfo.bc" || checked > 20, "{checked}");
        }
    }
}

/// A module of one function `void @f(i32)` whose body is one `switch` record of LLVM
/// 3.2/3.3 (`SWITCH_INST_MAGIC`): a case of the ranges `ranges` (low, high; signed
/// values as the file writes them, sign-rotated) to block 1, default block 2.
#[cfg(feature = "writer")]
fn case_range_module(ranges: &[(i64, i64)]) -> Vec<u8> {
    use llvm_bitstream_reader::AbbrevOp;
    use llvm_bitstream_reader::ids::llvm_ir::raw as ids;
    use llvm_bitstream_reader::writer::BitstreamWriter;

    let rotated = |v: i64| if v >= 0 { (v as u64) << 1 } else { ((v.unsigned_abs()) << 1) | 1 };
    let mut w = BitstreamWriter::new([0x42, 0x43, 0xC0, 0xDE]);
    w.enter_block(ids::MODULE_BLOCK_ID, 3);
    w.write_unabbrev(ids::MODULE_CODE_VERSION, &[2]);
    w.enter_block(ids::TYPE_BLOCK_ID_NEW, 4);
    w.write_unabbrev(ids::TYPE_CODE_NUMENTRY, &[4]);
    w.write_unabbrev(ids::TYPE_CODE_INTEGER, &[32]); // 0: i32
    w.write_unabbrev(ids::TYPE_CODE_VOID, &[]); // 1: void
    w.write_unabbrev(ids::TYPE_CODE_FUNCTION, &[0, 1, 0]); // 2: void (i32)
    w.write_unabbrev(ids::TYPE_CODE_LABEL, &[]); // 3: label
    w.end_block();
    w.write_unabbrev(ids::MODULE_CODE_FUNCTION, &[0, 1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    w.enter_block(ids::FUNCTION_BLOCK_ID, 4);
    w.write_unabbrev(ids::FUNC_CODE_DECLAREBLOCKS, &[3]);
    // [magic, opty, cond (the argument, relative), default, cases, items, (single, low, high)…, block]
    let mut switch = vec![0x4B5 << 16, 0, 1, 2, 1, ranges.len() as u64];
    for &(low, high) in ranges {
        switch.extend([0, rotated(low), rotated(high)]);
    }
    switch.push(1);
    w.write_unabbrev(ids::FUNC_CODE_INST_SWITCH, &switch);
    w.write_unabbrev(ids::FUNC_CODE_INST_RET, &[]);
    w.write_unabbrev(ids::FUNC_CODE_INST_RET, &[]);
    w.end_block();
    w.end_block();
    w.enter_block(ids::STRTAB_BLOCK_ID, 3);
    let abbrev = [AbbrevOp::Literal(1), AbbrevOp::Blob];
    w.define_abbrev(&abbrev);
    w.write_abbreviated(4, &abbrev, 1, &[], Some(b"f")).unwrap();
    w.end_block();
    w.finish()
}

/// The `switch` of LLVM 3.2 and 3.3 (`SWITCH_INST_MAGIC`): a case range is a case per
/// value, `low..=high` compared unsigned (a range from -1 to 1 is empty), the values
/// literal constants of the body; a range past `limits::MAX_CASE_RANGE_VALUES` is an
/// error, not an allocation.
#[cfg(feature = "writer")]
#[test]
fn a_case_range_switch_is_a_case_per_value() {
    use llvm_bitstream_reader::Error;
    use llvm_bitstream_reader::ir::ConstantKind;

    let bytes = case_range_module(&[(-3, -1), (4, 5), (-1, 1), (7, 7)]);
    let module = Module::parse(&bytes).unwrap();
    let bodies = module.bodies().unwrap();
    let body = bodies.body(0).unwrap().unwrap();
    let switch = &body.instructions[0];
    assert_eq!(switch.kind, InstKind::Switch);
    let ops = body.operands(switch);
    assert_eq!(ops[0].value, Value::Argument(0));
    assert_eq!(ops[1].value, Value::Block(2));
    let cases: Vec<(i64, Value)> = ops[2..]
        .chunks(2)
        .map(|c| {
            let Value::Constant(id) = c[0].value else { panic!("{:?}", c[0]) };
            let Some((constant, _)) = bodies.constant(&body, id) else { panic!("{id}") };
            let ConstantKind::Int(v) = constant.kind else { panic!("{:?}", constant.kind) };
            // Held in the type's 32 bits.
            (i64::from(v as u32 as i32), c[1].value)
        })
        .collect();
    let values: Vec<i64> = cases.iter().map(|c| c.0).collect();
    assert_eq!(values, [-3, -2, -1, 4, 5, 7]);
    assert!(cases.iter().all(|c| c.1 == Value::Block(1)));
    let text = bodies.display_function(0, Some(&body), DisOptions { llvm_version: 14 }).to_string();
    assert!(text.contains("switch i32 %0, label %3 [\n    i32 -3, label %2\n    i32 -2, label %2\n"), "{text}");

    // 0..=2^16 is one value more than the limit.
    let bytes = case_range_module(&[(0, 1 << 16)]);
    let module = Module::parse(&bytes).unwrap();
    match module.bodies().unwrap().body(0) {
        Err(Error::InvalidValue { value, .. }) => assert_eq!(value, (1 << 16) + 1),
        other => panic!("{other:?}"),
    }
    // Up to the type's largest value: LLVM's loop would not end; here it is the limit.
    let bytes = case_range_module(&[(0, -1)]);
    assert!(matches!(Module::parse(&bytes).unwrap().bodies().unwrap().body(0), Err(Error::InvalidValue { .. })));
}
