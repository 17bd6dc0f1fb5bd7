//! Bitcode as a tree of blocks and records (what a reader gets once abbreviations are
//! applied), read from a real module and written again with the library's `writer`: the
//! generated-module test's rewrites and the LLVM 23 modules are made on it.

use std::collections::HashMap;

use llvm_bitstream_reader::ids::llvm_ir::raw as ir;
use llvm_bitstream_reader::writer::{BitstreamWriter, encode_char6};
use llvm_bitstream_reader::{AbbrevOp, Bitstream, EventRef};

/// The bitcode magic.
pub const MAGIC: [u8; 4] = [b'B', b'C', 0xC0, 0xDE];

/// The stream as a tree: what a reader gets once abbreviations are applied.
#[derive(Clone, Debug)]
pub enum Node {
    Block { id: u32, children: Vec<Node> },
    Record(Rec),
}

/// A record: its code, every operand (array elements included) and its blob.
#[derive(Clone, Debug, PartialEq)]
pub struct Rec {
    pub code: u32,
    pub ops: Vec<u64>,
    pub blob: Option<Vec<u8>>,
}

pub fn rec(code: u32, ops: Vec<u64>) -> Node {
    Node::Record(Rec { code, ops, blob: None })
}

/// Reads a stream into a tree, leaving BLOCKINFO out (its abbreviations are applied by
/// the reader; the rewritten stream defines its own).
pub fn tree(bytes: &[u8]) -> Vec<Node> {
    let stream = Bitstream::parse(bytes).expect("a real module parses");
    let mut reader = stream.reader();
    let mut stack: Vec<(u32, Vec<Node>)> = vec![(u32::MAX, Vec::new())];
    while let Some(event) = reader.next_ref().expect("a real module walks") {
        match event {
            EventRef::EnterBlock(block) => stack.push((block.bookmark.block_id.0, Vec::new())),
            EventRef::Record(r) => stack.last_mut().unwrap().1.push(Node::Record(Rec {
                code: r.code(),
                ops: r.operand_slice().to_vec(),
                blob: r.blob().map(<[u8]>::to_vec),
            })),
            EventRef::EndBlock(_) => {
                let (id, children) = stack.pop().unwrap();
                if id != 0 {
                    stack.last_mut().unwrap().1.push(Node::Block { id, children });
                }
            }
            _ => {}
        }
    }
    stack.pop().unwrap().1
}

/// xorshift64*: a fixed seed gives the same variants on every machine.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    pub fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }
}

/// How records are written.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Encoding {
    /// Every record unabbreviated (blob records under the one abbreviation they need).
    Unabbreviated,
    /// Every record under an abbreviation made for it: exact fixed widths, literals,
    /// char6 or fixed-width arrays.
    Exact,
    /// Every record under `[Fixed(32), Array, VBR(32)]` in blocks of abbreviation width
    /// 32: the widest fields LLVM 19 and later still read (their `MaxChunkSize` is 32).
    Widest,
    /// Each record one of the above, at random.
    Mixed,
}

/// Writes a tree with `encoding`, defining the abbreviations each block needs in it.
pub struct Emitter<'r> {
    w: BitstreamWriter,
    rng: &'r mut Rng,
    encoding: Encoding,
}

/// A block's abbreviations: each shape once, ids from 4.
pub struct Scope {
    pub width: u32,
    pub ids: HashMap<Vec<AbbrevOp>, u32>,
}

impl Emitter<'_> {
    fn emit(&mut self, nodes: &[Node], scope: &mut Scope) {
        let mut prepared = None;
        for (i, n) in nodes.iter().enumerate() {
            match n {
                Node::Block { id, children } => {
                    let width = match self.encoding {
                        Encoding::Unabbreviated => 4,
                        Encoding::Widest => 32,
                        _ => 5 + self.rng.below(8) as u32,
                    };
                    self.w.enter_block(*id, width);
                    let mut inner = Scope { width, ids: HashMap::new() };
                    self.emit(children, &mut inner);
                    self.w.end_block();
                }
                Node::Record(r) => {
                    let abbrev = prepared.take().unwrap_or_else(|| self.prepare(r, scope));
                    if r.code == ir::METADATA_NAME {
                        // LLVM's MetadataLoader reads the record after a name with
                        // `ReadCode` + `readRecord`: a DEFINE_ABBREV there is an "Invalid
                        // abbrev number". The named node's abbreviation goes first.
                        if let Some(Node::Record(next)) = nodes.get(i + 1) {
                            prepared = Some(self.prepare(next, scope));
                        }
                    }
                    self.write_record(r, abbrev);
                }
            }
        }
    }

    fn write_record(&mut self, r: &Rec, abbrev: Option<(u32, Vec<AbbrevOp>)>) {
        match abbrev {
            Some((id, shape)) => self
                .w
                .write_abbreviated(id, &shape, r.code, &r.ops, r.blob.as_deref())
                .expect("the shape fits its record"),
            None => self.w.write_unabbrev(r.code, &r.ops),
        }
    }

    /// The abbreviation `r` is written with (defined here if the block has no such shape
    /// yet), or `None` for an unabbreviated record.
    fn prepare(&mut self, r: &Rec, scope: &mut Scope) -> Option<(u32, Vec<AbbrevOp>)> {
        let encoding = match self.encoding {
            Encoding::Mixed => [Encoding::Unabbreviated, Encoding::Exact, Encoding::Widest][self.rng.below(3)],
            e => e,
        };
        let shape = match (encoding, &r.blob) {
            (_, Some(_)) => {
                let mut ops = vec![AbbrevOp::Literal(u64::from(r.code))];
                ops.extend(r.ops.iter().map(|_| AbbrevOp::Vbr(6)));
                ops.push(AbbrevOp::Blob);
                Some(ops)
            }
            (Encoding::Unabbreviated, None) => None,
            (Encoding::Widest, None) => Some(vec![AbbrevOp::Fixed(32), AbbrevOp::Array, AbbrevOp::Vbr(32)]),
            (_, None) => Some(self.exact_shape(r)),
        };
        let shape = shape?;
        let id = match scope.ids.get(&shape) {
            Some(&id) => id,
            None => {
                let id = 4 + scope.ids.len() as u32;
                if scope.width < 32 && u64::from(id) >= 1 << scope.width {
                    // No id left in this block: LLVM's writer would not abbreviate either.
                    assert!(r.blob.is_none(), "a blob record needs an abbreviation");
                    return None;
                }
                self.w.define_abbrev(&shape);
                scope.ids.insert(shape.clone(), id);
                id
            }
        };
        Some((id, shape))
    }

    /// An abbreviation made for one record: the code a literal, a few leading operands
    /// at their exact width (or literal), the rest an array of char6 or of the widest
    /// element's exact width.
    fn exact_shape(&mut self, r: &Rec) -> Vec<AbbrevOp> {
        let exact = |v: u64| {
            let bits = (64 - v.leading_zeros()).max(1);
            if bits <= 32 { AbbrevOp::Fixed(bits) } else { AbbrevOp::Vbr(32) }
        };
        let mut shape = vec![AbbrevOp::Literal(u64::from(r.code))];
        let scalars = if r.ops.len() > 4 { self.rng.below(3) } else { r.ops.len() };
        for &v in &r.ops[..scalars] {
            shape.push(if self.rng.chance(20) { AbbrevOp::Literal(v) } else { exact(v) });
        }
        let rest = &r.ops[scalars..];
        if !rest.is_empty() || self.rng.chance(30) {
            shape.push(AbbrevOp::Array);
            let char6 =
                !rest.is_empty() && rest.iter().all(|&v| u8::try_from(v).is_ok_and(|c| encode_char6(c).is_some()));
            shape.push(if char6 { AbbrevOp::Char6 } else { exact(rest.iter().copied().max().unwrap_or(0)) });
        }
        shape
    }
}

pub fn write(nodes: &[Node], encoding: Encoding, rng: &mut Rng) -> Vec<u8> {
    let mut emitter = Emitter { w: BitstreamWriter::new(MAGIC), rng, encoding };
    emitter.emit(nodes, &mut Scope { width: 2, ids: HashMap::new() });
    emitter.w.finish()
}

/// Module-level records and blocks whose offsets the rewrite would break, and which a
/// reader must do without: the value symbol table and its offset (LLVM then pairs bodies
/// with functions in order), the metadata index and BLOCKINFO.
pub fn drop_offsets(nodes: &mut Vec<Node>, parent: u32) {
    nodes.retain(|n| match n {
        Node::Record(r) if parent == ir::MODULE_BLOCK_ID => r.code != ir::MODULE_CODE_VSTOFFSET,
        Node::Record(r) if parent == ir::METADATA_BLOCK_ID => {
            r.code != ir::METADATA_INDEX_OFFSET && r.code != ir::METADATA_INDEX
        }
        Node::Block { id, .. } => !(parent == ir::MODULE_BLOCK_ID && *id == ir::VALUE_SYMTAB_BLOCK_ID),
        _ => true,
    });
    for n in nodes {
        if let Node::Block { id, children } = n {
            drop_offsets(children, *id);
        }
    }
}
