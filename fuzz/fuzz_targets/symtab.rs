#![no_main]
//! Raw bytes as a SYMTAB blob and its STRTAB: the view must give an error or symbols,
//! never panic, and every string it returns must lie inside STRTAB. The first byte picks
//! where the blob ends; the next chooses whether the version word is forced to a read
//! one (3 or 4), so that most inputs reach the tables.

use libfuzzer_sys::fuzz_target;
use llvm_bitstream_reader::ir::symtab::Symtab;

fuzz_target!(|data: &[u8]| {
    let [split, mode, rest @ ..] = data else { return };
    let split = (*split as usize * 4).min(rest.len());
    let (symtab, strtab) = rest.split_at(split);
    let mut forced = symtab.to_vec();
    if mode & 1 == 1 && forced.len() >= 4 {
        forced[..4].copy_from_slice(&(3 + u32::from(mode >> 1 & 1)).to_le_bytes());
    }
    check(symtab, strtab);
    check(&forced, strtab);
});

fn inside(s: &[u8], strtab: &[u8]) -> bool {
    let (range, s) = (strtab.as_ptr_range(), s.as_ptr_range());
    s.is_empty() || (range.start <= s.start && s.end <= range.end)
}

fn check(symtab: &[u8], strtab: &[u8]) {
    let view = match Symtab::new(symtab, strtab) {
        Ok(view) => view,
        Err(e) => {
            let _ = e.to_string();
            return;
        }
    };
    for s in [view.producer(), view.target_triple(), view.source_filename(), view.coff_linker_opts()] {
        assert!(inside(s, strtab));
    }
    for lib in view.dependent_libraries().flatten() {
        assert!(inside(lib, strtab));
    }
    for c in view.comdats().flatten() {
        assert!(inside(c.name, strtab));
    }
    for i in 0..view.module_count() {
        if let Ok(symbols) = view.module_symbols(i) {
            assert!(symbols.count() <= view.symbol_count() as usize);
        }
    }
    let mut n = 0;
    for s in view.symbols() {
        n += 1;
        let Ok(s) = s else { break };
        assert!(inside(s.name, strtab) && inside(s.ir_name, strtab));
        if let Some(u) = s.uncommon {
            assert!(inside(u.section_name, strtab) && inside(u.coff_weak_external_fallback, strtab));
        }
    }
    assert!(n <= view.symbol_count() as usize);
}
