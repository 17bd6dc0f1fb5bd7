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

use llvm_bitstream_reader::ids::is_debug_info_body_record;
use llvm_bitstream_reader::ids::llvm_ir::raw as ids;
use llvm_bitstream_reader::{Magic, RecordRef};

use crate::walk::{Frame, Names, Visitor};

/// What tells a frame's children apart.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Key {
    Block(u32),
    Record(u32),
    Named(String),
}

/// One frame of the tree.
#[derive(Debug)]
struct Node {
    name: String,
    parent: usize,
    /// The bits spent directly in it.
    bits: u64,
    /// Whether its bits are debug information ([`Folded::debug_info_share`]).
    debug: bool,
}

/// A tree of frames, each with the bits spent directly in it.
#[derive(Debug)]
pub struct Folded {
    /// Node 0 is the root (the file).
    nodes: Vec<Node>,
    children: HashMap<(usize, Key), usize>,
    /// Frame names of the stack's root, e.g. the provenance of an embedded stream.
    prefix: Option<String>,
}

impl Folded {
    /// An empty tree; with `prefix`, every line starts with that frame.
    pub fn new(prefix: Option<String>) -> Self {
        let root = Node { name: String::new(), parent: 0, bits: 0, debug: false };
        let mut f = Folded { nodes: vec![root], children: HashMap::new(), prefix: None };
        if let Some(p) = prefix {
            f.nodes.push(Node { name: clean(&p), parent: 0, bits: 0, debug: false });
            f.prefix = Some(p);
        }
        f
    }

    fn root(&self) -> usize {
        if self.prefix.is_some() { 1 } else { 0 }
    }

    /// The child of `parent` that `key` names, made (with `name()` and `debug`) if new.
    fn child(&mut self, parent: usize, key: Key, debug: bool, name: impl FnOnce() -> String) -> usize {
        let next = self.nodes.len();
        let node = *self.children.entry((parent, key)).or_insert(next);
        if node == next {
            self.nodes.push(Node { name: clean(&name()), parent, bits: 0, debug });
        }
        node
    }

    /// Adds bits to a top-level pseudo frame such as `[magic]`.
    pub fn add_top(&mut self, name: &str, bits: u64) {
        if bits == 0 {
            return;
        }
        let root = self.root();
        let node = self.child(root, Key::Named(name.to_string()), false, || name.to_string());
        self.nodes[node].bits += bits;
    }

    /// Adds the frames of `other` under the root, each by its names from the top (so
    /// frames of the same names add up, as their folded lines would).
    pub fn absorb(&mut self, other: &Folded) {
        for (i, from) in other.nodes.iter().enumerate() {
            if from.bits == 0 || i == 0 {
                continue;
            }
            let mut node = self.root();
            for name in other.path(i) {
                node = self.child(node, Key::Named(name.to_string()), false, || name.to_string());
            }
            self.nodes[node].bits += from.bits;
            self.nodes[node].debug |= from.debug;
        }
    }

    /// The names of node `i` and its ancestors below the root, from the top.
    fn path(&self, i: usize) -> Vec<&str> {
        let mut path = vec![self.nodes[i].name.as_str()];
        let mut p = self.nodes[i].parent;
        while p != 0 {
            path.push(self.nodes[p].name.as_str());
            p = self.nodes[p].parent;
        }
        path.reverse();
        path
    }

    /// The sum of every line's count.
    pub fn total(&self) -> u64 {
        self.nodes.iter().map(|n| n.bits).sum()
    }

    /// The share (0..=1) of the bits spent in debug information: METADATA blocks (with
    /// everything in them), and the debug locations and debug records of function bodies
    /// ([`is_debug_info_body_record`]), which `llvm-bcanalyzer` names `DEBUG_*`.
    pub fn debug_info_share(&self) -> f64 {
        let total = self.total();
        if total == 0 {
            return 0.0;
        }
        let debug: u64 = self.nodes.iter().filter(|n| n.debug).map(|n| n.bits).sum();
        debug as f64 / total as f64
    }

    /// The folded lines, `frame;frame;frame count`, sorted.
    pub fn lines(&self) -> Vec<String> {
        let mut lines = Vec::new();
        for (i, node) in self.nodes.iter().enumerate() {
            if node.bits == 0 || i == 0 {
                continue;
            }
            lines.push(format!("{} {}", self.path(i).join(";"), node.bits));
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

/// Whether a block of LLVM IR is debug information as a whole: a METADATA block, the
/// attachments' or the kinds'.
fn is_metadata_block(id: u32) -> bool {
    matches!(id, ids::METADATA_BLOCK_ID | ids::METADATA_ATTACHMENT_ID | ids::METADATA_KIND_BLOCK_ID)
}

/// Whether a record outside METADATA blocks is debug information.
fn is_debug_info_elsewhere(block_id: u32, code: u32) -> bool {
    match block_id {
        ids::FUNCTION_BLOCK_ID => is_debug_info_body_record(code),
        // The module's METADATA_VALUES record, which no LLVM reads any more: counted
        // because the graph first told debug info by the names `llvm-bcanalyzer` prints,
        // and names this one `METADATA_VALUES_UNUSED`.
        ids::MODULE_BLOCK_ID => code == ids::MODULE_CODE_METADATA_VALUES_UNUSED,
        _ => false,
    }
}

impl Visitor for Folded {
    fn enter(&mut self, names: &Names, stack: &[Frame], frame: &mut Frame) -> io::Result<()> {
        let parent = stack.last().map_or(self.root(), |f| f.slot);
        let id = frame.id;
        let debug = self.nodes[parent].debug || (names.magic == Magic::LlvmIr && is_metadata_block(id));
        let name = frame.name.clone();
        frame.slot = self.child(parent, Key::Block(id), debug, || name.unwrap_or_else(|| format!("UnknownBlock{id}")));
        Ok(())
    }

    fn record(&mut self, names: &Names, stack: &[Frame], r: &RecordRef<'_, '_>, end: u64) -> io::Result<()> {
        let Some(frame) = stack.last() else { return Ok(()) };
        let code = r.code();
        let debug =
            self.nodes[frame.slot].debug || (names.magic == Magic::LlvmIr && is_debug_info_elsewhere(frame.id, code));
        let node = self.child(frame.slot, Key::Record(code), debug, || names.record_or_unknown(frame.id, code));
        self.nodes[node].bits += end - r.bit_offset();
        Ok(())
    }

    fn exit(&mut self, _names: &Names, _stack: &[Frame], frame: &Frame) -> io::Result<()> {
        self.nodes[frame.slot].bits += frame.own_bits();
        if frame.abbrev_bits > 0 {
            let debug = self.nodes[frame.slot].debug;
            let key = Key::Named("DEFINE_ABBREV".to_string());
            let node = self.child(frame.slot, key, debug, || "DEFINE_ABBREV".to_string());
            self.nodes[node].bits += frame.abbrev_bits;
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
