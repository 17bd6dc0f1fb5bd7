//! The `roundtrip` target: an `arbitrary` description of a stream (blocks, BLOCKINFO
//! sections, abbreviations valid by construction, records whose values fit them) is
//! written with the crate's writer and read back; the events must be exactly the ones
//! the description implies.

use arbitrary::Arbitrary;
use llvm_bitstream_reader::writer::{BitstreamWriter, wrap};
use llvm_bitstream_reader::{AbbrevOp, Bitstream, Event, WRAPPER_MAGIC};

/// Nested blocks deeper than this are left out of the stream.
const MAX_DEPTH: usize = 6;

const CHAR6: &[u8; 64] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._";

/// A whole stream.
#[derive(Arbitrary, Debug)]
pub struct Desc {
    magic: [u8; 4],
    top: Vec<Top>,
    wrapper: Option<u32>,
}

/// A top-level item (only blocks may appear there).
#[derive(Arbitrary, Debug)]
pub enum Top {
    /// An ordinary block.
    Block(BlockDesc),
    /// A BLOCKINFO block.
    BlockInfo(Vec<InfoItem>),
}

/// An ordinary block.
#[derive(Arbitrary, Debug)]
pub struct BlockDesc {
    /// Mapped to 8..=15.
    id: u8,
    /// Mapped to 2..=8.
    width: u8,
    items: Vec<Item>,
}

/// Content of an ordinary block.
#[derive(Arbitrary, Debug)]
pub enum Item {
    /// DEFINE_ABBREV.
    Define(AbbrevDesc),
    /// An unabbreviated record.
    Unabbrev {
        /// Code.
        code: u32,
        /// Operands.
        ops: Vec<u64>,
    },
    /// A record with one of the visible abbreviations (falls back to unabbreviated if
    /// none is visible or its id does not fit the width).
    Abbreviated {
        /// Which visible abbreviation.
        which: u8,
        /// Code (fitted to the code operand).
        code: u32,
        /// Scalar values (fitted to each operand), then array elements.
        values: Vec<u64>,
        /// Array length.
        array_len: u8,
        /// Blob bytes (for every blob operand).
        blob: Vec<u8>,
    },
    /// A nested block.
    Block(BlockDesc),
    /// A nested BLOCKINFO block.
    BlockInfo(Vec<InfoItem>),
}

/// Content of a BLOCKINFO block.
#[derive(Arbitrary, Debug)]
pub enum InfoItem {
    /// SETBID (mapped to 8..=15).
    SetBid(u8),
    /// BLOCKNAME.
    BlockName(Vec<u8>),
    /// SETRECORDNAME.
    RecordName(u32, Vec<u8>),
    /// DEFINE_ABBREV for the current block id.
    Define(AbbrevDesc),
    /// A record BLOCKINFO ignores (code mapped to 4 and up).
    Other(u32, Vec<u64>),
}

/// A scalar operand.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum Scalar {
    /// Literal.
    Literal(u64),
    /// Fixed, width mapped to 0..=64 (0 is read as the literal 0).
    Fixed(u8),
    /// VBR, width mapped to 2..=32.
    Vbr(u8),
    /// Char6.
    Char6,
    /// A blob (not allowed as the code operand: mapped to Char6 there).
    Blob,
}

/// An array element type.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum Elem {
    /// Fixed, width mapped to 1..=64.
    Fixed(u8),
    /// VBR, width mapped to 2..=32.
    Vbr(u8),
    /// Char6.
    Char6,
}

/// An abbreviation definition.
#[derive(Arbitrary, Debug, Clone)]
pub struct AbbrevDesc {
    code: Scalar,
    ops: Vec<Scalar>,
    array: Option<Elem>,
}

fn scalar_op(s: Scalar, is_code: bool) -> AbbrevOp {
    match s {
        Scalar::Literal(v) if is_code => AbbrevOp::Literal(v & u64::from(u32::MAX)),
        Scalar::Literal(v) => AbbrevOp::Literal(v),
        Scalar::Fixed(w) => AbbrevOp::Fixed(u32::from(w) % 65),
        Scalar::Vbr(w) => AbbrevOp::Vbr(2 + u32::from(w) % 31),
        Scalar::Char6 => AbbrevOp::Char6,
        Scalar::Blob if is_code => AbbrevOp::Char6,
        Scalar::Blob => AbbrevOp::Blob,
    }
}

impl AbbrevDesc {
    fn ops(&self) -> Vec<AbbrevOp> {
        let mut ops = vec![scalar_op(self.code, true)];
        ops.extend(self.ops.iter().map(|&s| scalar_op(s, false)));
        if let Some(e) = self.array {
            ops.push(AbbrevOp::Array);
            ops.push(match e {
                Elem::Fixed(w) => AbbrevOp::Fixed(1 + u32::from(w) % 64),
                Elem::Vbr(w) => AbbrevOp::Vbr(2 + u32::from(w) % 31),
                Elem::Char6 => AbbrevOp::Char6,
            });
        }
        ops
    }
}

/// How the reader reports an abbreviation operand (`Fixed(0)` is read as `Literal(0)`).
fn as_read(op: AbbrevOp) -> AbbrevOp {
    match op {
        AbbrevOp::Fixed(0) => AbbrevOp::Literal(0),
        op => op,
    }
}

/// Fits `v` to scalar operand `op`.
fn fit(op: AbbrevOp, v: u64) -> u64 {
    match op {
        AbbrevOp::Literal(l) => l,
        AbbrevOp::Fixed(w) if w >= 64 => v,
        AbbrevOp::Fixed(w) => v & ((1u64 << w) - 1),
        AbbrevOp::Vbr(_) => v,
        AbbrevOp::Char6 => u64::from(CHAR6[(v % 64) as usize]),
        AbbrevOp::Array | AbbrevOp::Blob => unreachable!(),
    }
}

fn name(bytes: &[u8]) -> String {
    bytes.iter().take(16).map(|&b| CHAR6[usize::from(b % 64)] as char).collect()
}

/// An expected (or actual) event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Exp {
    /// EnterBlock.
    Enter {
        /// Id.
        id: u32,
        /// Width.
        width: u32,
        /// Name from BLOCKINFO.
        name: Option<String>,
    },
    /// Record.
    Record {
        /// Code.
        code: u32,
        /// Abbreviation id.
        abbrev: u32,
        /// Operands.
        ops: Vec<u64>,
        /// Blob.
        blob: Option<Vec<u8>>,
    },
    /// EndBlock.
    Exit,
}

#[derive(Clone, Debug, Default)]
struct Entry {
    abbrevs: Vec<Vec<AbbrevOp>>,
    name: Option<String>,
}

#[derive(Default)]
struct Model {
    w: Option<BitstreamWriter>,
    table: Vec<(u32, Entry)>,
    exp: Vec<Exp>,
}

impl Model {
    fn w(&mut self) -> &mut BitstreamWriter {
        self.w.as_mut().unwrap()
    }

    fn entry(table: &[(u32, Entry)], id: u32) -> Option<&Entry> {
        table.iter().find(|(i, _)| *i == id).map(|(_, e)| e)
    }

    fn unabbrev(&mut self, code: u32, ops: &[u64]) {
        self.w().write_unabbrev(code, ops);
        self.exp.push(Exp::Record { code, abbrev: 3, ops: ops.to_vec(), blob: None });
    }

    fn blockinfo(&mut self, items: &[InfoItem]) {
        self.w().enter_blockinfo();
        self.exp.push(Exp::Enter { id: 0, width: 2, name: None });
        let mut building: Vec<(u32, Entry)> = Vec::new();
        let mut current: Option<usize> = None;
        for item in items {
            if current.is_none() && !matches!(item, InfoItem::SetBid(_) | InfoItem::Other(..)) {
                self.set_bid(&mut building, &mut current, 8);
            }
            match item {
                InfoItem::SetBid(id) => self.set_bid(&mut building, &mut current, 8 + u32::from(*id % 8)),
                InfoItem::BlockName(n) => {
                    let n = name(n);
                    self.w().block_name(&n);
                    self.exp.push(Exp::Record {
                        code: 2,
                        abbrev: 3,
                        ops: n.bytes().map(u64::from).collect(),
                        blob: None,
                    });
                    building[current.unwrap()].1.name = Some(n);
                }
                InfoItem::RecordName(code, n) => {
                    let n = name(n);
                    self.w().record_name(*code, &n);
                    let ops = core::iter::once(u64::from(*code)).chain(n.bytes().map(u64::from)).collect();
                    self.exp.push(Exp::Record { code: 3, abbrev: 3, ops, blob: None });
                }
                InfoItem::Define(a) => {
                    let ops = a.ops();
                    self.w().define_abbrev(&ops);
                    building[current.unwrap()].1.abbrevs.push(ops.into_iter().map(as_read).collect());
                }
                InfoItem::Other(code, ops) => {
                    let code = 4 + code % 1000;
                    self.unabbrev(code, ops);
                }
            }
        }
        self.w().end_block();
        self.exp.push(Exp::Exit);
        // A BLOCKINFO block replaces the table when it ends.
        self.table = building;
    }

    fn set_bid(&mut self, building: &mut Vec<(u32, Entry)>, current: &mut Option<usize>, id: u32) {
        self.w().set_bid(id);
        self.exp.push(Exp::Record { code: 1, abbrev: 3, ops: vec![u64::from(id)], blob: None });
        let idx = building.iter().position(|(i, _)| *i == id).unwrap_or_else(|| {
            building.push((id, Entry::default()));
            building.len() - 1
        });
        *current = Some(idx);
    }

    fn block(&mut self, b: &BlockDesc, depth: usize) {
        let id = 8 + u32::from(b.id % 8);
        let width = 2 + u32::from(b.width) % 7;
        let inherited = Self::entry(&self.table, id).cloned().unwrap_or_default();
        self.w().enter_block(id, width);
        self.exp.push(Exp::Enter { id, width, name: inherited.name.clone() });
        let mut abbrevs = inherited.abbrevs;
        for item in &b.items {
            match item {
                Item::Define(a) => {
                    let ops = a.ops();
                    self.w().define_abbrev(&ops);
                    abbrevs.push(ops.into_iter().map(as_read).collect());
                }
                Item::Unabbrev { code, ops } => self.unabbrev(*code, ops),
                Item::Abbreviated { which, code, values, array_len, blob } => {
                    let idx = usize::from(*which) % abbrevs.len().max(1);
                    let id = 4 + idx as u64;
                    if abbrevs.is_empty() || id >= 1u64 << width {
                        self.unabbrev(*code, values);
                        continue;
                    }
                    let ops = &abbrevs[idx];
                    let mut vals = values.iter().copied().chain(0..);
                    let code = fit(ops[0], u64::from(*code)) as u32;
                    let mut written = Vec::new();
                    let mut has_blob = false;
                    let mut i = 1;
                    while i < ops.len() {
                        match ops[i] {
                            AbbrevOp::Blob => has_blob = true,
                            AbbrevOp::Array => {
                                let elem = ops[i + 1];
                                for _ in 0..*array_len {
                                    written.push(fit(elem, vals.next().unwrap()));
                                }
                                i += 1;
                            }
                            op => written.push(fit(op, vals.next().unwrap())),
                        }
                        i += 1;
                    }
                    let blob = has_blob.then_some(&blob[..blob.len().min(64)]);
                    let res = self.w().write_abbreviated(id as u32, ops, code, &written, blob);
                    if let Err(e) = res {
                        panic!("writer rejected a record built to fit {ops:?}: {e} (code {code}, ops {written:?})");
                    }
                    self.exp.push(Exp::Record {
                        code,
                        abbrev: id as u32,
                        ops: written,
                        blob: blob.map(<[u8]>::to_vec),
                    });
                }
                Item::Block(inner) if depth < MAX_DEPTH => self.block(inner, depth + 1),
                Item::Block(_) => {}
                Item::BlockInfo(items) => self.blockinfo(items),
            }
        }
        self.w().end_block();
        self.exp.push(Exp::Exit);
    }
}

/// Reads `bytes` into [`Exp`] events.
pub fn read_events(bytes: &[u8]) -> Vec<Exp> {
    let stream = Bitstream::parse(bytes).unwrap_or_else(|e| panic!("Bitstream::new on a written stream: {e}"));
    let mut out = Vec::new();
    for event in stream.reader() {
        let event = event.unwrap_or_else(|e| panic!("reading a written stream failed: {e} ({e:?})"));
        out.push(match event {
            Event::EnterBlock(b) => {
                Exp::Enter { id: b.block_id().0, width: b.abbrev_width(), name: b.blockinfo_name.as_deref().map(str::to_owned) }
            }
            Event::Record(r) => Exp::Record {
                code: r.code(),
                abbrev: r.abbrev_id(),
                ops: r.operands().collect(),
                blob: r.blob().map(<[u8]>::to_vec),
            },
            Event::EndBlock(_) => Exp::Exit,
            other => panic!("abbreviation definitions are not asked for: {other:?}"),
        });
    }
    out
}

/// Writes `desc`, reads it back and compares; then runs the raw-byte checks on it too.
pub fn roundtrip(desc: &Desc) {
    let mut magic = desc.magic;
    if magic == WRAPPER_MAGIC.to_le_bytes() {
        magic[0] = b'X';
    }
    let mut m = Model { w: Some(BitstreamWriter::new(magic)), ..Model::default() };
    for top in &desc.top {
        match top {
            Top::Block(b) => m.block(b, 1),
            Top::BlockInfo(items) => m.blockinfo(items),
        }
    }
    let mut bytes = m.w.take().unwrap().finish();
    if let Some(cpu) = desc.wrapper {
        bytes = wrap(&bytes, cpu);
    }
    let got = read_events(&bytes);
    if got != m.exp {
        let at = got.iter().zip(&m.exp).position(|(a, b)| a != b).unwrap_or(got.len().min(m.exp.len()));
        panic!(
            "roundtrip mismatch at event {at}: got {:?}, expected {:?} ({} vs {} events)",
            got.get(at),
            m.exp.get(at),
            got.len(),
            m.exp.len()
        );
    }
    crate::check::walk(&bytes);
    crate::check::skip_resume(&bytes);
}
