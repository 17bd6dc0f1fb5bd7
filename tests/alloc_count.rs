//! Zero heap allocations per record in steady state, shown with a counting allocator
//! over a real file. (A global allocator is per test binary, hence this file.)

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use llvm_bitstream_reader::{Bitstream, Event};

struct Counting;
static ALLOCS: AtomicU64 = AtomicU64::new(0);

// SAFETY: forwards to the system allocator unchanged; only counts calls.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCS.fetch_add(1, Relaxed);
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCS.fetch_add(1, Relaxed);
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn records_outside_blockinfo_never_allocate() {
    let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/rustc_llvm22_o0_debuginfo.bc")).unwrap();
    let stream = Bitstream::new(&bytes).unwrap();
    let mut reader = stream.events();
    let (mut records, mut record_allocs, mut blocks) = (0u64, 0u64, 0u64);
    let (mut after_define, mut define_allocs) = (0u64, 0u64);
    let total_before = ALLOCS.load(Relaxed);
    let mut sum = 0u64;
    loop {
        let abbrevs_before = (reader.depth(), reader.abbrevs().count());
        let before = ALLOCS.load(Relaxed);
        let Some(event) = reader.next() else { break };
        match event.unwrap() {
            Event::Record(r) if reader.block_id() != Some(0) => {
                // Touch everything a record offers: operands (inline and re-decoded), array, blob.
                sum = r.operands().fold(sum, u64::wrapping_add);
                sum = r.array().map_or(sum, |a| a.iter().fold(sum, u64::wrapping_add));
                sum = sum.wrapping_add(r.blob().map_or(0, |b| b.len() as u64));
                sum = sum.wrapping_add(r.operand(r.len().saturating_sub(1)).unwrap_or(0));
                drop(r);
                let allocs = ALLOCS.load(Relaxed) - before;
                if (reader.depth(), reader.abbrevs().count()) == abbrevs_before {
                    records += 1;
                    record_allocs += allocs;
                } else {
                    // DEFINE_ABBREVs were read on the way to this record: they allocate.
                    after_define += 1;
                    define_allocs += allocs;
                }
            }
            Event::EnterBlock(_) => blocks += 1,
            _ => {}
        }
    }
    let total = ALLOCS.load(Relaxed) - total_before;
    eprintln!(
        "{records} records, {blocks} blocks: {record_allocs} allocations while reading records; \
         {define_allocs} for the abbreviations defined before {after_define} others; {total} in the whole walk (checksum {sum})"
    );
    assert!(records > 30_000);
    assert_eq!(record_allocs, 0, "reading records allocated");
    // Abbreviation definitions and the scope stack allocate; a few per block at most.
    assert!(total < blocks * 4 + 100, "{total} allocations for {blocks} blocks");
}
