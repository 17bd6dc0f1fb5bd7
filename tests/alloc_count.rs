//! Zero heap allocations per record in steady state, shown with a counting allocator
//! over a real file. (A global allocator is per test binary, hence this file.)

#[path = "common/count_allocs.rs"]
mod count_allocs;

use count_allocs::allocs;

use llvm_bitstream_reader::{Bitstream, BlockId, Event};

#[test]
fn records_outside_blockinfo_never_allocate() {
    let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/rustc_llvm22_o0_debuginfo.bc")).unwrap();
    let stream = Bitstream::parse(&bytes).unwrap();
    let mut reader = stream.reader();
    let (mut records, mut record_allocs, mut blocks) = (0u64, 0u64, 0u64);
    let (mut after_define, mut define_allocs) = (0u64, 0u64);
    let total_before = allocs();
    let mut sum = 0u64;
    loop {
        let abbrevs_before = (reader.depth(), reader.abbrevs().count());
        let before = allocs();
        let Some(event) = reader.next() else { break };
        match event.unwrap() {
            Event::Record(r) if reader.block_id() != Some(BlockId(0)) => {
                // Touch everything a record offers: operands (inline and re-decoded), array, blob.
                sum = r.operands().fold(sum, u64::wrapping_add);
                sum = r.array().map_or(sum, |a| a.iter().fold(sum, u64::wrapping_add));
                sum = sum.wrapping_add(r.blob().map_or(0, |b| b.len() as u64));
                sum = sum.wrapping_add(r.operand(r.len().saturating_sub(1)).unwrap_or(0));
                drop(r);
                let allocs = allocs() - before;
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
    let total = allocs() - total_before;
    eprintln!(
        "{records} records, {blocks} blocks: {record_allocs} allocations while reading records; \
         {define_allocs} for the abbreviations defined before {after_define} others; {total} in the whole walk (checksum {sum})"
    );
    assert!(records > 30_000);
    assert_eq!(record_allocs, 0, "reading records allocated");
    // Abbreviation definitions and the scope stack allocate. A definition repeated in
    // block after block (as LLVM repeats its metadata abbreviations in every function) is
    // interned, so the whole walk allocates less often than it enters a block (without
    // interning this file takes about 1.4 allocations per block).
    assert!(total < blocks, "{total} allocations for {blocks} blocks");
}

/// The lending walk reuses one operand buffer: it grows a few times (doubling) to the
/// largest record and then never allocates again.
#[test]
fn lending_walk_allocates_only_to_grow_its_buffer() {
    use llvm_bitstream_reader::EventRef;
    let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/rustc_llvm22_o0_debuginfo.bc")).unwrap();
    let stream = Bitstream::parse(&bytes).unwrap();
    let mut reader = stream.reader();
    let (mut records, mut record_allocs) = (0u64, 0u64);
    loop {
        let abbrevs_before = (reader.depth(), reader.abbrevs().count());
        let before = allocs();
        let Some(event) = reader.next_ref().unwrap() else { break };
        let is_record = matches!(event, EventRef::Record(_));
        let allocs = allocs() - before;
        if is_record
            && reader.block_id() != Some(BlockId(0))
            && (reader.depth(), reader.abbrevs().count()) == abbrevs_before
        {
            records += 1;
            record_allocs += allocs;
        }
    }
    eprintln!("lending walk: {records} records, {record_allocs} allocations (buffer growth)");
    assert!(records > 30_000);
    assert!(record_allocs <= 16, "{record_allocs} allocations: more than the buffer's growth");
}
