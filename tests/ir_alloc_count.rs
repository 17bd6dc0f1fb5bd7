//! The IR layer's allocations are per module table, not per record: reading a module
//! allocates far fewer times than it has global values, and deriving an ELF module's
//! symbols borrows their names. (The counting allocator is common/count_allocs.rs.)

#[path = "common/count_allocs.rs"]
mod count_allocs;

use count_allocs::allocs;

use llvm_bitstream_reader::ir::Module;

#[test]
fn module_read_and_symbols_allocate_per_table_not_per_record() {
    let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/rustc_llvm22_o0_debuginfo.bc")).unwrap();
    let before = allocs();
    let module = Module::parse(&bytes).unwrap();
    let read_allocs = allocs() - before;
    let values = module.globals.len() + module.functions.len() + module.aliases.len();
    assert!(values > 300, "{values} global values");
    eprintln!("read: {read_allocs} allocations, {values} global values, {} types", module.types.len());
    assert!(read_allocs < values as u64, "{read_allocs} allocations to read {values} global values");

    let before = allocs();
    let symbols = module.symbols();
    let symbol_allocs = allocs() - before;
    let prefixed = symbols.iter().filter(|s| s.name[..] != *s.ir_name).count();
    eprintln!("symbols: {symbol_allocs} allocations, {} symbols, {prefixed} prefixed", symbols.len());
    assert!(symbols.len() > 300);
    // The ELF names of the other symbols are borrowed.
    assert!(
        symbol_allocs <= prefixed as u64 + 8,
        "{symbol_allocs} allocations for {} symbols ({prefixed} with a prefix)",
        symbols.len()
    );

    // The attribute groups are read on first use, in a handful of allocations per group.
    let before = allocs();
    let groups = module.attribute_groups.len();
    assert!(groups > 0);
    assert!(allocs() - before < 8 * groups as u64 + 8);
}
