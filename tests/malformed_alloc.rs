//! Memory on hostile input: walking any file of `testdata/malformed/` must not allocate
//! more than 64 KiB + 16 × the file's size at its peak. (A global allocator is per
//! binary, hence this file of its own, with a single test so nothing else allocates
//! concurrently.)

use std::alloc::{GlobalAlloc, Layout, System};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

use llvm_bitstream_reader::{Bitstream, Event};

struct Counting;

static CURRENT: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn add(n: usize) {
    let now = CURRENT.fetch_add(n, Relaxed) + n;
    PEAK.fetch_max(now, Relaxed);
}

// SAFETY: forwards to the system allocator; only counts.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: same contract as ours.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            add(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as ours.
        unsafe { System.dealloc(ptr, layout) };
        CURRENT.fetch_sub(layout.size(), Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: same contract as ours.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            // Count the moment both blocks may exist, as a copying realloc does.
            add(new_size);
            CURRENT.fetch_sub(layout.size(), Relaxed);
        }
        p
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Walks `bytes` without keeping anything: every event, operand, array element and blob.
fn walk(bytes: &[u8]) -> u64 {
    let Ok(stream) = Bitstream::parse(bytes) else { return 0 };
    let mut sum = 0u64;
    for event in stream.reader() {
        let Ok(event) = event else { break };
        if let Event::Record(r) = event {
            sum = r.operands().fold(sum, u64::wrapping_add);
            if let Some(a) = r.array() {
                sum = a.iter().fold(sum, u64::wrapping_add);
            }
            sum = sum.wrapping_add(r.blob().map_or(0, |b| b.len() as u64));
            sum = sum.wrapping_add(r.bits().len() as u64);
        }
    }
    sum
}

/// Every file, with no exception. Files that once broke the budget, and what fixed them:
///
/// - `define-abbrev-count-huge.bin` (a DEFINE_ABBREV claiming 2^31 operands, cut short
///   after 8000 4-bit ones): 197 KB for its 4 KB while the operand vector grew by
///   doubling, 16 bytes per operand. Definitions are now checked to the end before
///   anything is stored for them: 328 bytes.
/// - `blockinfo-many-setbids.bin` (valid: 1500 SETBIDs of distinct ids): 273 KB for its
///   5 KB, an 80-byte pending entry and then a 56-byte table entry (with an allocation
///   of its own) per id. An id nothing describes now costs a map slot while the block is
///   read and 16 bytes in the table: 63.6 KB.
/// - `many-tiny-abbrevs.bin` (2000 identical 16-bit definitions): fine since definitions
///   are interned, 28 KB for its 4 KB.
#[test]
fn malformed_walks_allocate_little() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("testdata/malformed");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    paths.sort();
    let mut report = Vec::new();
    let mut failures = Vec::new();
    for path in paths {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if name == "EXPECTED.txt" {
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        let base = CURRENT.load(Relaxed);
        PEAK.store(base, Relaxed);
        std::hint::black_box(walk(std::hint::black_box(&bytes)));
        let peak = PEAK.load(Relaxed) - base;
        let limit = 64 * 1024 + 16 * bytes.len();
        report.push(format!("{name}: {} bytes, peak {peak} bytes allocated (limit {limit})", bytes.len()));
        if peak >= limit {
            failures.push(format!("{name}: peak {peak} bytes >= {limit} (file {} bytes)", bytes.len()));
        }
    }
    println!("{}", report.join("\n"));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
