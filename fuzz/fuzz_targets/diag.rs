#![no_main]
//! Raw bytes as clang serialized diagnostics (`diag::Diagnostics`): reading never panics,
//! a partial read agrees with a whole one, the tree is consistent, and every diagnostic
//! formats. Seeds: testdata/*.dia.

use libfuzzer_sys::fuzz_target;
use llvm_bitstream_reader::diag::Diagnostics;

fuzz_target!(|data: &[u8]| {
    let (diags, error) = Diagnostics::parse_partial(data);
    match Diagnostics::parse(data) {
        Ok(whole) => {
            assert!(error.is_none());
            assert_eq!(whole.len(), diags.len());
        }
        Err(e) => {
            assert_eq!(Some(&e), error.as_ref());
            assert!(!e.to_string().is_empty());
        }
    }
    // The walk visits every diagnostic once, in pre-order: each top-level diagnostic and
    // its descendants are contiguous.
    let top: Vec<usize> = diags.iter().map(|d| d.index()).collect();
    let top_in_walk: Vec<usize> = diags.walk().filter(|(depth, _)| *depth == 0).map(|(_, d)| d.index()).collect();
    assert_eq!(top, top_in_walk);
    let mut visited = 0;
    let mut line = Vec::new();
    for (_, d) in diags.walk() {
        assert_eq!(d.index(), visited);
        visited += 1;
        // Children are contiguous: each starts where the previous one's subtree ended.
        let mut next = d.index() + 1;
        let mut children = d.children().peekable();
        while let Some(child) = children.next() {
            assert_eq!(child.index(), next);
            next = children.peek().map_or(next, |c| c.index());
        }
        line.clear();
        d.write_formatted(&mut line);
        assert_eq!(d.to_string(), String::from_utf8_lossy(&line));
        for r in d.ranges().iter().chain(d.fixits().iter().map(|f| &f.range)) {
            let _ = (r.start.file, r.end.line);
        }
    }
    assert_eq!(visited, diags.len());
    assert_eq!(diags.iter().map(|d| 1 + count(d)).sum::<usize>(), diags.len());
});

/// Descendants of `d`.
fn count(d: llvm_bitstream_reader::diag::Diagnostic<'_, '_>) -> usize {
    d.children().map(|c| 1 + count(c)).sum()
}
