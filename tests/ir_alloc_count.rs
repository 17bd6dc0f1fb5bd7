//! The IR layer's allocations are per module table, not per record: reading a module
//! allocates far fewer times than it has global values, and deriving an ELF module's
//! symbols borrows their names. (A counting global allocator, as in tests/alloc_count.rs.)

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use llvm_bitstream_reader::ir::Module;

struct Counting;

thread_local! {
    /// Allocations made by this thread (per thread: the tests run in parallel).
    static COUNT: Cell<u64> = const { Cell::new(0) };
}

fn allocs() -> u64 {
    COUNT.with(Cell::get)
}

fn count_one() {
    // `try_with` fails only while the thread is being torn down.
    let _ = COUNT.try_with(|c| c.set(c.get() + 1));
}

// SAFETY: forwards to the system allocator unchanged; only counts calls.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count_one();
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count_one();
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

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
