//! The checks the `legacy` fuzz target runs on the decoded contents of LLVM 1.x bytecode,
//! as plain Rust.
//!
//! Like `check.rs`, this file depends only on `llvm_bitstream_reader`, so the crate's
//! stable test `tests/legacy_contents.rs` includes it with `#[path]` and replays
//! `fuzz/regressions/legacy-*` through exactly the same code as the fuzzer.
//!
//! Checks: no panic, no hang; every error's byte offset is inside the input; every
//! operand of a decoded body is in its pool and names an instruction, argument or block
//! the body has; every display fails only when the 1 MiB sink is full.

use llvm_bitstream_reader::legacy::{Body, Module, Value};

// The sink, shared with `ir_print` (see there).
#[path = "sink.rs"]
mod sink;
use sink::print;

/// What the `legacy` target runs on one input: [`contents`] of the bytes as they are and
/// behind an `llvm` signature and a module header (so that most inputs reach the
/// blocks).
pub fn run(data: &[u8]) {
    contents(data);
    contents(&wrapped(data));
}

/// `data` as the payload of a module block: `llvm`, type 1, its size.
pub fn wrapped(data: &[u8]) -> Vec<u8> {
    let mut out = b"llvm\x01\0\0\0".to_vec();
    out.extend_from_slice(&(data.len() as u32).to_le_bytes());
    out.extend_from_slice(data);
    out
}

/// The decoded module of `data` (as it is, uncompressed): the module as far as it reads,
/// every function's body, every function and the module printed.
pub fn contents(data: &[u8]) {
    let (module, error) = Module::parse_partial(data);
    if let Some(e) = &error {
        assert!(e.byte_offset() <= data.len(), "{e}");
        let _ = e.to_string();
    }
    let Some(module) = module else { return };
    for (i, g) in module.globals.iter().enumerate() {
        assert!(g.offset < data.len(), "global {i}");
    }
    for i in 0..module.functions.len() {
        match module.body(i) {
            Ok(None) => assert!(module.functions[i].is_declaration()),
            Ok(Some(body)) => {
                check_body(&module, &body, data);
                print(module.display_function(&body));
            }
            Err(e) => {
                assert!(e.byte_offset() <= data.len(), "{e}");
                // What was read before the break: as consistent as a whole body.
                let (partial, error) = module.body_partial(i);
                assert_eq!(error.as_ref(), Some(&e));
                if let Some(body) = partial {
                    check_body(&module, &body, data);
                    print(module.display_function(&body));
                }
            }
        }
    }
    print(module.display());
}

/// Every instruction is inside the input and its operands in the pool, naming what the
/// body and the module have; the basic blocks cover the instructions.
fn check_body(module: &Module<'_>, body: &Body<'_>, data: &[u8]) {
    for inst in &body.instructions {
        assert!(inst.offset < data.len());
        assert!(inst.operands.range().end <= body.operand_pool.len());
        for op in body.operands(inst) {
            match op.value {
                Value::Instruction(n) => assert!((n as usize) < body.instructions.len()),
                Value::Argument(n) => assert!((n as usize) < body.arguments.len()),
                Value::Block(n) => assert!((n as usize) < body.blocks.len()),
                Value::Global(n) => assert!((n as usize) < module.globals.len()),
                Value::Function(n) => assert!((n as usize) < module.functions.len()),
                Value::Constant(n) => assert!((n as usize) < module.constants.len()),
                Value::LocalConstant(n) => assert!((n as usize) < body.constants.len()),
                Value::Null | Value::Unresolved { .. } => {}
            }
        }
    }
    let covered: u32 = body.blocks.iter().map(|b| b.len).sum();
    assert_eq!(covered as usize, body.instructions.len());
}
