//! Repairs LLVM 1.x bytecode that a line-ending conversion damaged: every CR byte (0x0d)
//! turned into LF (0x0a) and every CR LF pair into one LF. LLVM's own test files of 2004-2006
//! (`test/Bytecode/*.bc-13`, `*.bc-16`, `ver6.ll.bc`) are in its git history only in this
//! state: they were committed to CVS as text, and the conversion of that history normalized
//! their line endings. A function type, id 13, reads as 10 (`float`), so the decoder stops
//! with "function of a type not a pointer to a function".
//!
//! ```text
//! cargo run --release --example legacy_line_endings -- DAMAGED.bc REPAIRED.bc [SOURCE.ll]
//! ```
//!
//! The search is greedy, guided by the decoder: while the module does not decode cleanly
//! (every body, every operand resolved, every block ended by a terminator, every name
//! printable and naming a value, no primitive type in a type pool), it turns back into CR
//! the LF bytes nearest before the first error that move the error furthest (one, then
//! pairs), and puts back a CR before an LF while the module block is longer than the file.
//! Then it undoes every change the decoder does not need, and lists the LF bytes that could
//! be either (both decode). With `SOURCE.ll` (the assembly the file was made from), it
//! then flips, byte by byte, whatever makes the printed module share more words with it.
//! It prints the repairs (offsets in the repaired file) and writes the repaired file.
//! See `testdata/legacy/README.md` for what it found on LLVM's files.

use llvm_bitstream_reader::legacy::{Block, BlockKind, Module, Opcode, Type, Value};

/// How well a candidate decodes. Structure first: the first place where reading stops
/// (a decode error, a symbol table that stops making sense, a primitive type in a type
/// pool: LLVM's writer never wrote one), then fewer such primitives, then meaning: the
/// first name, operand or block that reads but is wrong (names nothing, is not printable,
/// is unresolved, lacks a terminator). A later offset is better; `None` is best. A table
/// that reads to its end can bring to light a wrong name before the byte that fixed it,
/// which is why meaning counts only after structure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Score {
    structure: Option<usize>,
    primitives: usize,
    meaning: Option<usize>,
}

/// Compares two first-error offsets: `Some(true)` if `a` is better (later, or none).
fn later(a: Option<usize>, b: Option<usize>) -> Option<bool> {
    match (a, b) {
        (None, None) => None,
        (None, Some(_)) => Some(true),
        (Some(_), None) => Some(false),
        (Some(x), Some(y)) => (x != y).then_some(x > y),
    }
}

impl Score {
    fn clean(&self) -> bool {
        self.primitives == 0 && self.structure.is_none() && self.meaning.is_none()
    }
    /// The first error of either kind: where the search looks.
    fn error(&self) -> Option<usize> {
        match (self.structure, self.meaning) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }
    fn better_than(&self, other: &Score) -> bool {
        if let Some(better) = later(self.structure, other.structure) {
            return better;
        }
        if self.primitives != other.primitives {
            return self.primitives < other.primitives;
        }
        later(self.meaning, other.meaning).unwrap_or(false)
    }
}

/// Names LLVM 1.x wrote are printable ASCII (identifiers from its front ends).
fn printable(name: &[u8]) -> bool {
    name.iter().all(|b| (0x20..0x7f).contains(b))
}

fn name_at(bytes: &[u8], name: &[u8]) -> usize {
    (name.as_ptr() as usize).wrapping_sub(bytes.as_ptr() as usize).min(bytes.len())
}

/// Keeps the earliest error offset.
fn note(first: &mut Option<usize>, at: usize) {
    *first = Some(first.map_or(at, |f| f.min(at)));
}

/// Decodes a candidate and scores it.
fn score(bytes: &[u8]) -> Score {
    let (module, error) = Module::parse_partial(bytes);
    let Some(module) = module else {
        return Score { structure: error.map(|e| e.byte_offset()), primitives: 0, meaning: None };
    };
    let mut structure = error.map(|e| e.byte_offset());
    let mut tables = Vec::new();
    symtabs(module.bytecode.blocks(), &mut tables);
    for at in tables.iter().filter_map(symtab_error) {
        note(&mut structure, at);
    }
    let mut primitives = module.types.types.iter().filter(|t| matches!(t, Type::Primitive(_))).count();
    if primitives > 0 {
        let pool = module.bytecode.blocks().find(|b| b.kind == BlockKind::GlobalTypePool);
        note(&mut structure, pool.map_or(0, |b| b.end()));
    }
    let mut first: Option<usize> = None;
    for (_, _, name) in &module.unattached_names {
        note(&mut first, name_at(bytes, name));
    }
    let names = module.globals.iter().filter_map(|g| g.name).chain(module.functions.iter().filter_map(|f| f.name));
    for name in names {
        if !printable(name) {
            note(&mut first, name_at(bytes, name));
        }
    }
    for (i, f) in module.definitions() {
        match module.body(i) {
            Err(e) => note(&mut structure, e.byte_offset()),
            Ok(None) => {}
            Ok(Some(body)) => {
                if let Some(types) = &body.types {
                    let n = types
                        .types
                        .iter()
                        .skip(module.types.types.len())
                        .filter(|t| matches!(t, Type::Primitive(_)))
                        .count();
                    if n > 0 {
                        primitives += n;
                        note(&mut structure, f.block.as_ref().map_or(0, |b| b.end()));
                    }
                }
                for (_, _, name) in &body.unattached_names {
                    note(&mut first, name_at(bytes, name));
                }
                for name in body.names.iter().map(|n| n.1).chain(body.type_names.iter().map(|n| n.1)) {
                    if !printable(name) {
                        note(&mut first, name_at(bytes, name));
                    }
                }
                for inst in &body.instructions {
                    let bad = matches!(inst.opcode, Opcode::Unknown(_))
                        || body.operands(inst).iter().any(|op| matches!(op.value, Value::Unresolved { .. }));
                    if bad {
                        note(&mut first, inst.offset);
                        break;
                    }
                }
                for block in &body.blocks {
                    if !body.block_instructions(block).last().is_some_and(|i| i.opcode.is_terminator()) {
                        note(&mut first, body.block_instructions(block).last().map_or(f.offset, |i| i.offset));
                        break;
                    }
                }
            }
        }
    }
    if first.is_none() && structure.is_none() {
        let text = module.display().to_string();
        if text.contains("<badref>") || text.contains("<type") {
            first = Some(bytes.len());
        }
    }
    Score { structure, primitives, meaning: first }
}

/// The lines of an assembly text after its opening comments and blank lines, without its
/// closing blank lines.
fn body_lines(text: &str) -> Vec<&str> {
    let mut lines: Vec<&str> = text.lines().skip_while(|l| l.trim().is_empty() || l.starts_with(';')).collect();
    while lines.last().is_some_and(|l| l.trim().is_empty()) {
        lines.pop();
    }
    lines
}

/// How often each word (run of non-blanks) occurs in a text.
fn words(text: &str) -> std::collections::HashMap<&str, usize> {
    let mut counts = std::collections::HashMap::new();
    for w in text.split_whitespace() {
        *counts.entry(w).or_default() += 1;
    }
    counts
}

fn vbr(p: &[u8], i: &mut usize) -> Option<u32> {
    let mut v = 0u64;
    for shift in (0..35).step_by(7) {
        let b = *p.get(*i)?;
        *i += 1;
        v |= u64::from(b & 0x7f) << shift;
        if b < 0x80 {
            return u32::try_from(v).ok();
        }
    }
    None
}

/// Where a symbol table (versions 3 on) stops making sense: the first name that is not
/// printable or runs past the block. The decoder reads a table whole, so its error comes
/// at the table's end however early a length went wrong.
fn symtab_error(block: &Block<'_>) -> Option<usize> {
    let p = block.payload;
    let base = block.payload_offset();
    let mut i = 0;
    let entry = |i: &mut usize| -> Option<()> {
        vbr(p, i)?;
        let len = vbr(p, i)? as usize;
        let name = p.get(*i..*i + len)?;
        if !printable(name) || name.is_empty() {
            return None;
        }
        *i += len;
        Some(())
    };
    let mut at = i;
    let ok = (|| -> Option<()> {
        let types = vbr(p, &mut i)?;
        for _ in 0..types {
            at = i;
            entry(&mut i)?;
        }
        while i < p.len() {
            at = i;
            let n = vbr(p, &mut i)?;
            vbr(p, &mut i)?;
            for _ in 0..n {
                at = i;
                entry(&mut i)?;
            }
        }
        Some(())
    })();
    ok.is_none().then_some(base + at)
}

fn symtabs<'a>(blocks: impl Iterator<Item = Block<'a>>, out: &mut Vec<Block<'a>>) {
    for b in blocks {
        match b.kind {
            BlockKind::SymbolTable => out.push(b),
            BlockKind::Function => symtabs(b.children(), out),
            _ => {}
        }
    }
}

/// How many bytes the module block declares past the end of the file.
fn deficit(bytes: &[u8]) -> usize {
    let at = if bytes.starts_with(b"llvc") { 5 } else { 4 };
    let Some(size) = bytes.get(at + 4..at + 8) else { return 0 };
    let size = u32::from_le_bytes(size.try_into().unwrap()) as usize;
    size.saturating_sub(bytes.len().saturating_sub(at + 8))
}

/// The bytes the search may change: every LF, and every CR it put back, but not a CR LF
/// pair it restored.
fn toggles(bytes: &[u8]) -> Vec<usize> {
    (0..bytes.len())
        .filter(|&p| match bytes[p] {
            b'\n' => p == 0 || bytes[p - 1] != b'\r',
            b'\r' => bytes.get(p + 1) != Some(&b'\n'),
            _ => false,
        })
        .collect()
}

/// Turns each LF of `set` into CR and each CR into LF. Whether the result could have
/// become the damaged file: a CR just before an LF would have become one LF with it, not
/// two, so no toggled byte may make such a pair (only a restored CR LF pair is one).
fn toggle(bytes: &mut [u8], set: &[usize]) -> bool {
    for &p in set {
        bytes[p] = if bytes[p] == b'\n' { b'\r' } else { b'\n' };
    }
    let pair = |p: usize| bytes[p] == b'\r' && bytes.get(p + 1) == Some(&b'\n');
    !set.iter().any(|&p| pair(p) || (p > 0 && pair(p - 1)))
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        eprintln!("usage: legacy_line_endings DAMAGED.bc REPAIRED.bc [SOURCE.ll]");
        std::process::exit(2);
    }
    let input = std::fs::read(&args[1]).unwrap_or_else(|e| panic!("{}: {e}", args[1]));
    let out = &args[2];
    let window: usize = 12;
    let mut cur = input.clone();
    let mut now = score(&cur);
    let mut checks = 1usize;
    let mut inserted: Vec<usize> = Vec::new();
    while !now.clean() {
        let e = now.error().unwrap_or(cur.len());
        let cands: Vec<usize> = toggles(&cur).into_iter().rev().filter(|&p| p <= e + 8).take(window).collect();
        let mut best: Option<(Vec<usize>, Score)> = None;
        let mut try_set = |set: Vec<usize>, cur: &mut Vec<u8>, best: &mut Option<(Vec<usize>, Score)>| {
            let possible = toggle(cur, &set);
            let s = if possible { score(cur) } else { now };
            checks += 1;
            toggle(cur, &set);
            if s.better_than(&now) && best.as_ref().is_none_or(|(_, b)| s.better_than(b)) {
                *best = Some((set, s));
            }
        };
        for &p in &cands {
            try_set(vec![p], &mut cur, &mut best);
        }
        if best.is_none() && deficit(&cur) > 0 {
            // A CR LF that became one LF: put the CR back before the LF.
            let mut found: Option<(usize, Score)> = None;
            for &p in &cands {
                let mut c = cur.clone();
                c.insert(p, b'\r');
                let s = score(&c);
                if s.better_than(&now) && found.as_ref().is_none_or(|(_, b)| s.better_than(b)) {
                    found = Some((p, s));
                }
            }
            if let Some((p, s)) = found {
                cur.insert(p, b'\r');
                inserted.push(p);
                now = s;
                eprintln!("CR inserted before {p}: {s:?}");
                continue;
            }
        }
        if best.is_none() {
            let far: Vec<usize> =
                toggles(&cur).into_iter().rev().filter(|&p| p <= e + 8).skip(window).take(400).collect();
            for &p in &far {
                try_set(vec![p], &mut cur, &mut best);
            }
        }
        if best.is_none() {
            for (i, &p) in cands.iter().enumerate() {
                for &q in &cands[i + 1..] {
                    try_set(vec![p, q], &mut cur, &mut best);
                }
            }
        }
        let Some((set, s)) = best else {
            eprintln!("stuck: {now:?}, candidates {cands:?}");
            break;
        };
        let _ = toggle(&mut cur, &set);
        now = s;
    }
    // Minimal change: undo every flip the decoder does not need; list what stays open. A
    // file that already has CR bytes is a repair being resumed (a damaged file has none):
    // its flips stay.
    let mut flips: Vec<usize> = toggles(&cur).into_iter().filter(|&p| cur[p] == b'\r').collect();
    let mut ambiguous = Vec::new();
    if now.clean() && !input.contains(&b'\r') {
        for &p in &flips.clone() {
            checks += 1;
            if toggle(&mut cur, &[p]) && score(&cur).clean() {
                ambiguous.push(p);
                flips.retain(|&q| q != p);
            } else {
                toggle(&mut cur, &[p]);
            }
        }
        let lfs: Vec<usize> = toggles(&cur).into_iter().filter(|&p| cur[p] == b'\n').collect();
        for p in lfs {
            checks += 1;
            if toggle(&mut cur, &[p]) && score(&cur).clean() {
                ambiguous.push(p);
            }
            toggle(&mut cur, &[p]);
        }
    }
    ambiguous.sort();
    // With the source: flip the LF and CR bytes, one at a time, that make the printed
    // module closer to the source (words shared, or words in place: see `overlap`; a byte
    // that fixes one operand of three on a line counts), until none does.
    if let (true, Some(src)) = (now.clean(), args.get(3)) {
        let source = std::fs::read_to_string(src).unwrap_or_else(|e| panic!("{src}: {e}"));
        let wanted = words(&source);
        let wanted_lines = body_lines(&source);
        // Once the printed module has the source's lines (same count: blocks and labels
        // settled), words equal in place, line by line, then words shared; before, the
        // other way round. Words shared cannot see two operands swapped; words in place
        // mean nothing while lines are missing (or for a source written by hand).
        let overlap = |bytes: &[u8]| -> (bool, usize, usize) {
            let Ok(module) = Module::parse(bytes) else { return (false, 0, 0) };
            let text = module.display().to_string();
            let shared = words(&text).iter().map(|(w, n)| (*n).min(wanted.get(w).copied().unwrap_or(0))).sum();
            let lines = body_lines(&text);
            let in_place = lines
                .iter()
                .zip(&wanted_lines)
                .map(|(a, b)| a.split_whitespace().zip(b.split_whitespace()).filter(|(x, y)| x == y).count())
                .sum();
            let aligned = lines.len() == wanted_lines.len();
            if aligned { (true, in_place, shared) } else { (false, shared, in_place) }
        };
        let mut best = overlap(&cur);
        eprintln!("words shared with the source, and in place: {best:?} of {}", wanted.values().sum::<usize>());
        loop {
            let mut changed = false;
            for p in toggles(&cur) {
                checks += 1;
                if toggle(&mut cur, &[p]) && score(&cur).clean() {
                    let m = overlap(&cur);
                    if m > best {
                        best = m;
                        changed = true;
                        continue;
                    }
                }
                toggle(&mut cur, &[p]);
            }
            eprintln!("words shared with the source, and in place: {best:?}");
            if !changed {
                break;
            }
        }
        flips = cur.iter().enumerate().filter(|(_, b)| **b == b'\r').map(|(i, _)| i).collect();
        ambiguous.retain(|&p| cur[p] == b'\n');
    }
    eprintln!(
        "{} checks; clean: {}; {} CR, {} CRLF, {} undetermined",
        checks,
        now.clean(),
        flips.len(),
        inserted.len(),
        ambiguous.len()
    );
    std::fs::write(out, &cur).unwrap();
    println!("crlf {:?}\ncr {:?}\nundetermined {:?}", inserted, flips, ambiguous);
}
