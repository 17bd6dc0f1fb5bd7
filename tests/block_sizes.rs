//! Block sizes as `llvm-bcanalyzer` counts them, from [`Bookmark::analyzer_bits`] alone:
//! per block id, the number of blocks and their "Total Size" (each block's span from just
//! past its block id, less its sub-blocks' spans), against LLVM 14's `llvm-bcanalyzer` on
//! every bitstream file of `testdata/` (bitcode, `.dia`, PCH, remarks). Function blocks are skipped and measured again from
//! the [`LazyBlock`]s the walk kept, which open the block from its bookmark alone.

mod common;

use std::collections::BTreeMap;
use std::process::Command;

use llvm_bitstream_reader::{Bitstream, Entry, LazyBlock, Reader};

/// Per block id: (instances, total size in bits).
type Sizes = BTreeMap<u32, (u64, u64)>;

/// The sizes of every block of `bytes`, with FUNCTION_BLOCKs (id 12) skipped and
/// measured from their lazy blocks.
fn our_sizes(bytes: &[u8]) -> Result<Sizes, llvm_bitstream_reader::Error> {
    let stream = Bitstream::parse(bytes)?;
    let mut sizes = Sizes::new();
    let mut skipped = Vec::new();
    add_sizes(&mut stream.reader(), &mut sizes, Some(&mut skipped))?;
    // A function block, read again from its bookmark alone: its first event enters it.
    for lazy in &skipped {
        add_sizes(&mut lazy.reader()?, &mut sizes, None)?;
    }
    Ok(sizes)
}

/// Adds the blocks `reader` walks to `sizes`; with `skip`, FUNCTION_BLOCKs are skipped
/// and kept there instead.
fn add_sizes<'a>(
    reader: &mut Reader<'a>,
    sizes: &mut Sizes,
    mut skip: Option<&mut Vec<LazyBlock<'a>>>,
) -> Result<(), llvm_bitstream_reader::Error> {
    // Per open block: its id and its span less its sub-blocks' spans so far.
    let mut open: Vec<(u32, u64)> = Vec::new();
    while let Some(entry) = reader.advance()? {
        match entry {
            Entry::EnterBlock(bookmark) => {
                if let Some(parent) = open.last_mut() {
                    parent.1 -= bookmark.analyzer_bits();
                }
                if let (12, Some(skipped)) = (bookmark.block_id.0, skip.as_deref_mut()) {
                    let lazy = reader.skip_block()?;
                    assert_eq!(lazy.bookmark(), bookmark, "a lazy block keeps its bookmark");
                    skipped.push(lazy);
                } else {
                    open.push((bookmark.block_id.0, bookmark.analyzer_bits()));
                }
            }
            Entry::EndBlock(_) => {
                let (id, bits) = open.pop().expect("an EndBlock closes an open block");
                let size = sizes.entry(id).or_default();
                *size = (size.0 + 1, size.1 + bits);
            }
            Entry::Record { .. } => {
                reader.skip_record()?;
            }
            _ => {}
        }
    }
    Ok(())
}

/// `llvm-bcanalyzer`'s per-block summary: `Block ID #N` with its `Num Instances` and
/// `Total Size: Nb`.
fn analyzer_sizes(text: &str) -> Sizes {
    let mut sizes = Sizes::new();
    let mut current = None;
    for line in text.lines().map(str::trim) {
        if let Some(rest) = line.strip_prefix("Block ID #") {
            let id: u32 = rest.split(|c: char| !c.is_ascii_digit()).next().unwrap().parse().unwrap();
            current = Some(id);
            sizes.insert(id, (0, 0));
        } else if let (Some(id), Some(n)) = (current, line.strip_prefix("Num Instances: ")) {
            sizes.get_mut(&id).unwrap().0 = n.parse().unwrap();
        } else if let (Some(id), Some(t)) = (current, line.strip_prefix("Total Size: ")) {
            sizes.get_mut(&id).unwrap().1 = t.split('b').next().unwrap().parse().unwrap();
        }
    }
    sizes
}

#[test]
fn analyzer_bits_give_llvm_bcanalyzers_block_sizes() {
    let Some(analyzer) = common::llvm14_tool("llvm-bcanalyzer") else { return };
    let mut compared = 0;
    for path in common::testdata_files() {
        let bytes = std::fs::read(&path).unwrap();
        if Bitstream::parse(&bytes).is_err() {
            continue;
        }
        let out = Command::new(&analyzer).arg(&path).output().unwrap();
        if !out.status.success() {
            continue;
        }
        let ours = our_sizes(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let theirs = analyzer_sizes(&String::from_utf8_lossy(&out.stdout));
        assert!(!theirs.is_empty(), "{}: no per-block summary", path.display());
        assert_eq!(ours, theirs, "{}", path.display());
        compared += 1;
    }
    assert!(compared >= 20, "only {compared} files compared");
    eprintln!("{compared} files: every block id's instances and total size equal llvm-bcanalyzer-14's");
}
