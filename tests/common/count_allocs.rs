//! A global allocator that counts this thread's allocations (and reallocations), for the
//! tests that show what allocates; included with `#[path]`. A global allocator is per
//! test binary, hence one file per such test.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

struct Counting;

thread_local! {
    /// Allocations made by this thread. Per thread, because the tests run in parallel;
    /// const-initialised, so reading it never allocates.
    static COUNT: Cell<u64> = const { Cell::new(0) };
}

/// This thread's allocations so far.
pub fn allocs() -> u64 {
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
