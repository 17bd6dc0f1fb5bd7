//! Property tests: random streams written with the writer (nested blocks, BLOCKINFO with
//! abbreviations and names, local abbreviations of every operand kind, abbreviated and
//! unabbreviated records, blobs) read back as exactly the events written; and no prefix
//! or single-bit flip of them makes the reader panic, or the skip-and-resume walk
//! disagree with the full walk.
#![cfg(feature = "writer")]

use llvm_bitstream_reader::writer::BitstreamWriter;
use llvm_bitstream_reader::{AbbrevOp, Bitstream, Error, Event, EventRef};
use proptest::prelude::*;

#[derive(Debug, Clone, PartialEq, Eq)]
enum Ev {
    Enter(u32),
    Rec(u32, u32, Vec<u64>, Option<Vec<u8>>),
    Exit,
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        // splitmix64
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    /// A value of a random size, biased to small ones as real streams are.
    fn value(&mut self) -> u64 {
        let bits = [3, 6, 12, 20, 33, 64][self.below(6) as usize];
        if bits == 64 { self.next() } else { self.next() & ((1 << bits) - 1) }
    }
}

const CHAR6: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._";

fn scalar_op(rng: &mut Rng) -> AbbrevOp {
    match rng.below(4) {
        0 => AbbrevOp::Literal(rng.value()),
        1 => AbbrevOp::Fixed(1 + rng.below(32) as u32),
        2 => AbbrevOp::Vbr(2 + rng.below(31) as u32),
        _ => AbbrevOp::Char6,
    }
}

fn random_abbrev(rng: &mut Rng) -> Vec<AbbrevOp> {
    let mut ops = vec![match rng.below(3) {
        0 => AbbrevOp::Fixed(1 + rng.below(20) as u32),
        1 => AbbrevOp::Vbr(3 + rng.below(10) as u32),
        _ => AbbrevOp::Literal(rng.below(1000)),
    }];
    for _ in 0..rng.below(5) {
        ops.push(if rng.below(8) == 0 { AbbrevOp::Blob } else { scalar_op(rng) });
    }
    if rng.below(2) == 0 {
        ops.push(AbbrevOp::Array);
        ops.push(match rng.below(3) {
            0 => AbbrevOp::Fixed(1 + rng.below(32) as u32),
            1 => AbbrevOp::Vbr(2 + rng.below(31) as u32),
            _ => AbbrevOp::Char6,
        });
    }
    ops
}

fn fits(op: AbbrevOp, rng: &mut Rng) -> u64 {
    match op {
        AbbrevOp::Literal(v) => v,
        AbbrevOp::Fixed(w) => rng.value() & ((1u64 << w) - 1),
        AbbrevOp::Vbr(_) => rng.value(),
        AbbrevOp::Char6 => u64::from(CHAR6[rng.below(64) as usize]),
        AbbrevOp::Array | AbbrevOp::Blob => 0,
    }
}

/// Writes a random record with one of `abbrevs` (ids from 4) or unabbreviated; returns
/// the event it should read back as.
fn random_record(w: &mut BitstreamWriter, abbrevs: &[Vec<AbbrevOp>], rng: &mut Rng) -> Ev {
    let choice = rng.below(abbrevs.len() as u64 + 1) as usize;
    if choice == abbrevs.len() {
        let code = rng.below(1 << 20) as u32;
        let ops: Vec<u64> = (0..rng.below(20)).map(|_| rng.value()).collect();
        w.write_unabbrev(code, &ops);
        return Ev::Rec(code, 3, ops, None);
    }
    let abbrev = &abbrevs[choice];
    let code = fits(abbrev[0], rng) as u32
        & if let AbbrevOp::Fixed(w) = abbrev[0] { ((1u64 << w) - 1) as u32 } else { u32::MAX };
    let mut ops = Vec::new();
    let mut blob = None;
    let mut i = 1;
    while i < abbrev.len() {
        match abbrev[i] {
            AbbrevOp::Array => {
                for _ in 0..rng.below(12) {
                    ops.push(fits(abbrev[i + 1], rng));
                }
                i += 1;
            }
            AbbrevOp::Blob => blob = Some((0..rng.below(40)).map(|_| rng.next() as u8).collect::<Vec<u8>>()),
            op => ops.push(fits(op, rng)),
        }
        i += 1;
    }
    w.write_abbreviated(4 + choice as u32, abbrev, code, &ops, blob.as_deref()).unwrap();
    Ev::Rec(code, 4 + choice as u32, ops, blob)
}

fn random_block(
    w: &mut BitstreamWriter,
    blockinfo: &[(u32, Vec<Vec<AbbrevOp>>)],
    depth: u32,
    rng: &mut Rng,
    out: &mut Vec<Ev>,
) {
    let id = 8 + rng.below(6) as u32;
    let mut abbrevs: Vec<Vec<AbbrevOp>> =
        blockinfo.iter().filter(|(b, _)| *b == id).flat_map(|(_, a)| a.clone()).collect();
    let local: Vec<Vec<AbbrevOp>> = (0..rng.below(4)).map(|_| random_abbrev(rng)).collect();
    // Wide enough for every abbreviation id this block will use.
    let max_id = 3 + abbrevs.len() + local.len();
    let width = (usize::BITS - max_id.leading_zeros()).max(2) + rng.below(2) as u32;
    w.enter_block(id, width);
    out.push(Ev::Enter(id));
    for a in &local {
        w.define_abbrev(a);
    }
    abbrevs.extend(local);
    for _ in 0..rng.below(12) {
        if depth < 3 && rng.below(6) == 0 {
            random_block(w, blockinfo, depth + 1, rng, out);
        } else {
            out.push(random_record(w, &abbrevs, rng));
        }
    }
    w.end_block();
    out.push(Ev::Exit);
}

/// A random stream and the events it must read back as.
fn random_stream(seed: u64) -> (Vec<u8>, Vec<Ev>) {
    let mut rng = Rng(seed);
    let mut w = BitstreamWriter::new(*b"PROP");
    let mut out = Vec::new();
    let mut blockinfo = Vec::new();
    if rng.below(2) == 0 {
        w.enter_blockinfo();
        out.push(Ev::Enter(0));
        for id in 8..8 + rng.below(4) as u32 {
            let abbrevs: Vec<Vec<AbbrevOp>> = (0..1 + rng.below(3)).map(|_| random_abbrev(&mut rng)).collect();
            w.set_bid(id);
            out.push(Ev::Rec(1, 3, vec![u64::from(id)], None));
            for a in &abbrevs {
                w.define_abbrev(a);
            }
            w.block_name("blk");
            out.push(Ev::Rec(2, 3, b"blk".map(u64::from).to_vec(), None));
            blockinfo.push((id, abbrevs));
        }
        w.end_block();
        out.push(Ev::Exit);
    }
    for _ in 0..1 + rng.below(3) {
        random_block(&mut w, &blockinfo, 0, &mut rng, &mut out);
    }
    (w.finish(), out)
}

fn read(bytes: &[u8]) -> Result<Vec<Ev>, Error> {
    let mut out = Vec::new();
    for e in Bitstream::parse(bytes)?.reader() {
        out.push(match e? {
            Event::EnterBlock(b) => Ev::Enter(b.block_id().0),
            Event::Record(r) => Ev::Rec(r.code(), r.abbrev_id(), r.operands().collect(), r.blob().map(<[u8]>::to_vec)),
            Event::EndBlock(_) => Ev::Exit,
            _ => unreachable!("abbreviation definitions are not asked for"),
        });
    }
    Ok(out)
}

/// The lending walk (`next_ref`, with its packed single-word path for abbreviations and
/// its two-values-per-refill vbr6 runs); must equal `read`, success or failure.
fn read_lending(bytes: &[u8]) -> Result<Vec<Ev>, Error> {
    let mut out = Vec::new();
    let mut reader = Bitstream::parse(bytes)?.reader();
    while let Some(e) = reader.next_ref()? {
        out.push(match e {
            EventRef::EnterBlock(b) => Ev::Enter(b.block_id().0),
            EventRef::Record(r) => {
                Ev::Rec(r.code(), r.abbrev_id(), r.operand_slice().to_vec(), r.blob().map(<[u8]>::to_vec))
            }
            EventRef::EndBlock(_) => Ev::Exit,
            _ => unreachable!("abbreviation definitions are not asked for"),
        });
    }
    Ok(out)
}

/// Skips every block below the top level and reads it back at once; must equal `read`.
fn read_skipping(bytes: &[u8]) -> Result<Vec<Ev>, Error> {
    let mut out = Vec::new();
    let mut reader = Bitstream::parse(bytes)?.reader();
    while let Some(e) = reader.next() {
        match e? {
            Event::EnterBlock(_) if reader.depth() == 2 => {
                let lazy = reader.skip_block()?;
                let mut inner = Vec::new();
                for e in lazy.reader()? {
                    inner.push(match e? {
                        Event::EnterBlock(b) => Ev::Enter(b.block_id().0),
                        Event::Record(r) => {
                            Ev::Rec(r.code(), r.abbrev_id(), r.operands().collect(), r.blob().map(<[u8]>::to_vec))
                        }
                        Event::EndBlock(_) => Ev::Exit,
                        _ => unreachable!("abbreviation definitions are not asked for"),
                    });
                }
                out.extend(inner);
            }
            Event::EnterBlock(b) => out.push(Ev::Enter(b.block_id().0)),
            Event::Record(r) => {
                out.push(Ev::Rec(r.code(), r.abbrev_id(), r.operands().collect(), r.blob().map(<[u8]>::to_vec)))
            }
            Event::EndBlock(_) => out.push(Ev::Exit),
            _ => unreachable!("abbreviation definitions are not asked for"),
        }
    }
    Ok(out)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(if cfg!(miri) { 2 } else { 300 }))]

    #[test]
    fn written_streams_read_back_exactly(seed in any::<u64>()) {
        let (bytes, expected) = random_stream(seed);
        prop_assert_eq!(read(&bytes), Ok(expected.clone()));
        prop_assert_eq!(read_lending(&bytes), Ok(expected.clone()));
        prop_assert_eq!(read_skipping(&bytes), Ok(expected));
    }

    #[test]
    fn prefixes_and_bit_flips_never_panic_and_skipping_agrees(seed in any::<u64>(), flips in proptest::collection::vec(any::<u64>(), 8)) {
        let (bytes, _) = random_stream(seed);
        for cut in (0..bytes.len()).step_by((bytes.len() / 64).max(1)) {
            let full = read(&bytes[..cut]);
            prop_assert_eq!(read_lending(&bytes[..cut]), full.clone());
            if let Ok(events) = &full {
                prop_assert_eq!(read_skipping(&bytes[..cut]), Ok(events.clone()));
            }
        }
        for f in flips {
            let mut damaged = bytes.clone();
            let bit = (f % (bytes.len() as u64 * 8)) as usize;
            damaged[bit / 8] ^= 1 << (bit % 8);
            let full = read(&damaged);
            prop_assert_eq!(read_lending(&damaged), full.clone());
            if let Ok(events) = full {
                prop_assert_eq!(read_skipping(&damaged), Ok(events));
            }
        }
    }
}
