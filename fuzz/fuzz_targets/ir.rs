#![no_main]
//! Raw bytes as LLVM IR bitcode, through the IR layer: every module read, its symbols
//! derived, every type, attribute group and struct definition printed, every body's size
//! taken, the module constants decoded and every global variable's line printed. Seed it with the IR testdata (see fuzz/README.md): mutations of real modules
//! reach the record layouts. Checks: no panic, no hang; a module's symbols are its global
//! values; an error names a bit inside the input.

use libfuzzer_sys::fuzz_target;
use llvm_bitstream_reader::Bitstream;
use llvm_bitstream_reader::{Error, ir};

fuzz_target!(|data: &[u8]| {
    let Ok(stream) = Bitstream::parse(data) else { return };
    let modules = match ir::Module::parse_all(stream.bytes()) {
        Ok(m) => m,
        Err(e) => {
            let _ = e.to_string();
            // Every error points into the input.
            assert!(e.bit_offset() <= data.len() as u64 * 8 + 64, "{e}");
            if let Error::RangeOutOfBounds { bit, .. } | Error::IndexOutOfRange { bit, .. } = e {
                assert!(bit <= data.len() as u64 * 8, "{e}");
            }
            return;
        }
    };
    for m in &modules {
        let symbols = m.symbols();
        assert_eq!(symbols.len(), m.globals.len() + m.functions.len() + m.aliases.len());
        for id in 0..m.types.len() {
            let _ = m.types.display(ir::TypeId(id as u32)).to_string();
            let _ = m.types.display_opaque(ir::TypeId(id as u32)).to_string();
        }
        let _: Vec<String> = m.types.struct_definitions(false).collect();
        let _: Vec<String> = m.function_attribute_sets().collect();
        for g in &m.attribute_groups {
            let _ = g.display(&m.types).to_string();
        }
        match m.constants() {
            Ok(constants) => {
                for (i, g) in m.globals.iter().enumerate() {
                    if let Some(init) = g.initializer {
                        let _ = constants.display(m, init, true).to_string();
                        let _ = constants.display(m, init, false).to_string();
                    }
                    let _ = m.display_global_var(i, &constants, true).to_string();
                }
                for c in &constants.constants {
                    assert!(c.bit < data.len() as u64 * 8 + 64);
                }
            }
            Err(e) => assert!(e.bit_offset() <= data.len() as u64 * 8 + 64, "{e}"),
        }
        for f in &m.functions {
            if let Some(bits) = f.body_bits() {
                assert!(bits > 0 && bits <= data.len() as u64 * 8);
            }
            let _ = f.common.name_str();
        }
    }
});
