//! Where the bits go: folded stacks (`MODULE_BLOCK;FUNCTION_BLOCK;INST_CALL 1234`) and
//! the flame graph drawn from them.
//!
//! Every bit of the input is on exactly one line: a block's own line holds its header,
//! END_BLOCK and padding; its records are leaves named like the dump names them; its
//! DEFINE_ABBREVs are the leaf `DEFINE_ABBREV`. The magic, the wrapper header and any
//! bytes outside the blocks have lines of their own (`[magic]`, `[wrapper header]`,
//! `[trailing bytes]`), so the counts add up to the input's size in bits.

use std::collections::HashMap;
use std::io::{self, Write};

use llvm_bitstream_reader::RecordRef;

use crate::walk::{Frame, Names, Visitor};

/// What tells a frame's children apart.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Key {
    Block(u32),
    Record(u32),
    Named(String),
}

/// A tree of frames, each with the bits spent directly in it.
#[derive(Debug)]
pub struct Folded {
    /// (name, parent, own bits); node 0 is the root (the file).
    nodes: Vec<(String, usize, u64)>,
    children: HashMap<(usize, Key), usize>,
    /// Frame names of the stack's root, e.g. the provenance of an embedded stream.
    prefix: Option<String>,
}

impl Folded {
    /// An empty tree; with `prefix`, every line starts with that frame.
    pub fn new(prefix: Option<String>) -> Self {
        let mut f = Folded { nodes: vec![(String::new(), 0, 0)], children: HashMap::new(), prefix: None };
        if let Some(p) = prefix {
            f.nodes.push((clean(&p), 0, 0));
            f.prefix = Some(p);
        }
        f
    }

    fn root(&self) -> usize {
        if self.prefix.is_some() { 1 } else { 0 }
    }

    fn child(&mut self, parent: usize, key: Key, name: impl FnOnce() -> String) -> usize {
        let next = self.nodes.len();
        let node = *self.children.entry((parent, key)).or_insert(next);
        if node == next {
            self.nodes.push((clean(&name()), parent, 0));
        }
        node
    }

    /// Adds bits to a top-level pseudo frame such as `[magic]`.
    pub fn add_top(&mut self, name: &str, bits: u64) {
        if bits == 0 {
            return;
        }
        let root = self.root();
        let node = self.child(root, Key::Named(name.to_string()), || name.to_string());
        self.nodes[node].2 += bits;
    }

    /// Adds bits to the frame `stack` (`a;b;c`), under the root.
    pub fn add_path(&mut self, stack: &str, bits: u64) {
        let mut node = self.root();
        for frame in stack.split(';') {
            node = self.child(node, Key::Named(frame.to_string()), || frame.to_string());
        }
        self.nodes[node].2 += bits;
    }

    /// The sum of every line's count.
    pub fn total(&self) -> u64 {
        self.nodes.iter().map(|n| n.2).sum()
    }

    /// The share (0..=1) of the bits spent in debug information: under METADATA blocks,
    /// and in `DEBUG_*` records (debug locations and debug records of function bodies).
    pub fn debug_info_share(&self) -> f64 {
        let total = self.total();
        if total == 0 {
            return 0.0;
        }
        let mut debug = 0;
        for node in &self.nodes {
            let mut n = node;
            let mut is_debug = node.0.starts_with("DEBUG_");
            while !is_debug && n.1 != 0 {
                n = &self.nodes[n.1];
                is_debug = n.0.starts_with("METADATA_");
            }
            if is_debug || node.0.starts_with("METADATA_") {
                debug += node.2;
            }
        }
        debug as f64 / total as f64
    }

    /// The folded lines, `frame;frame;frame count`, sorted.
    pub fn lines(&self) -> Vec<String> {
        let mut lines = Vec::new();
        for (i, node) in self.nodes.iter().enumerate() {
            if node.2 == 0 || i == 0 {
                continue;
            }
            let mut path = vec![node.0.as_str()];
            let mut p = node.1;
            while p != 0 {
                path.push(self.nodes[p].0.as_str());
                p = self.nodes[p].1;
            }
            path.reverse();
            lines.push(format!("{} {}", path.join(";"), node.2));
        }
        lines.sort();
        lines
    }

    /// Writes the folded lines.
    pub fn write(&self, out: &mut impl Write) -> io::Result<()> {
        for line in self.lines() {
            writeln!(out, "{line}")?;
        }
        Ok(())
    }
}

/// Frame names may not hold `;` (the separator); trailing spaces would confuse the count.
fn clean(name: &str) -> String {
    name.replace(';', ":").trim_end().to_string()
}

impl Visitor for Folded {
    fn enter(&mut self, _names: &Names, stack: &[Frame], frame: &mut Frame) -> io::Result<()> {
        let parent = stack.last().map_or(self.root(), |f| f.slot);
        let id = frame.id;
        let name = frame.name.clone();
        frame.slot = self.child(parent, Key::Block(id), || name.unwrap_or_else(|| format!("UnknownBlock{id}")));
        Ok(())
    }

    fn record(&mut self, names: &Names, stack: &[Frame], r: &RecordRef<'_, '_>, end: u64) -> io::Result<()> {
        let Some(frame) = stack.last() else { return Ok(()) };
        let code = r.code();
        let node = self.child(frame.slot, Key::Record(code), || names.record_or_unknown(frame.id, code));
        self.nodes[node].2 += end - r.bit_offset();
        Ok(())
    }

    fn exit(&mut self, _names: &Names, _stack: &[Frame], frame: &Frame) -> io::Result<()> {
        self.nodes[frame.slot].2 += frame.own_bits();
        if frame.abbrev_bits > 0 {
            let node = self.child(frame.slot, Key::Named("DEFINE_ABBREV".to_string()), || "DEFINE_ABBREV".to_string());
            self.nodes[node].2 += frame.abbrev_bits;
        }
        Ok(())
    }
}

/// Draws the flame graph of `folded` as SVG.
pub fn flamegraph(folded: &Folded, title: &str, out: impl Write) -> io::Result<()> {
    let lines = folded.lines();
    let total = folded.total();
    let mut opts = inferno::flamegraph::Options::default();
    opts.title = title.to_string();
    opts.subtitle = Some(format!(
        "{} bytes; debug info (METADATA blocks, DEBUG_* records): {:.1}%",
        total / 8,
        folded.debug_info_share() * 100.0
    ));
    opts.deterministic = true;
    opts.count_name = "bits".to_string();
    opts.name_type = "Block/record:".to_string();
    opts.colors = inferno::flamegraph::color::Palette::Basic(inferno::flamegraph::color::BasicPalette::Aqua);
    opts.min_width = 0.05;
    inferno::flamegraph::from_lines(&mut opts, lines.iter().map(String::as_str), out)
}
