//! `llvm-bcanalyzer`'s two views, line for line: the `-dump` text and the statistics.
//!
//! The layout follows LLVM 14's `llvm/lib/Bitcode/Reader/BitcodeAnalyzer.cpp`.

use std::collections::BTreeMap;
use std::io::{self, Write};

use llvm_bitstream_reader::ids::{bitstream, llvm_ir};
use llvm_bitstream_reader::ir::{MetadataStrings, MetadataStringsError};
use llvm_bitstream_reader::limits::WRAPPER_HEADER_SIZE;
use llvm_bitstream_reader::{Magic, RecordRef, WRAPPER_MAGIC};

use crate::walk::{Frame, Names, Visitor, Walked};

/// `-dump`'s options.
#[derive(Clone, Copy, Debug, Default)]
pub struct DumpOptions {
    /// `-dump-blockinfo`: show BLOCKINFO's contents rather than `<BLOCKINFO_BLOCK/>`.
    pub blockinfo: bool,
    /// `-show-binary-blobs`: print every blob, escaped.
    pub binary_blobs: bool,
    /// `-non-symbolic`: add `BlockID=` and `codeid=` to known names.
    pub non_symbolic: bool,
}

/// Writes the wrapper header line `-dump` starts with, if `bytes` start with a wrapper
/// header. Like `llvm-bcanalyzer`, it prints the fields as they are, before they are
/// checked.
pub fn write_wrapper(bytes: &[u8], out: &mut impl Write) -> io::Result<()> {
    let Some(header) = bytes.first_chunk::<WRAPPER_HEADER_SIZE>() else { return Ok(()) };
    let field = |i: usize| u32::from_le_bytes([header[4 * i], header[4 * i + 1], header[4 * i + 2], header[4 * i + 3]]);
    if field(0) != WRAPPER_MAGIC {
        return Ok(());
    }
    writeln!(
        out,
        "<BITCODE_WRAPPER_HEADER Magic={:#010x} Version={:#010x} Offset={:#010x} Size={:#010x} CPUType={:#010x}/>",
        field(0),
        field(1),
        field(2),
        field(3),
        field(4)
    )
}

/// The `-dump` text.
pub struct Dump<W: Write> {
    out: W,
    opts: DumpOptions,
    /// Depth of a BLOCKINFO block whose contents are not shown.
    hidden: Option<usize>,
    /// Per open METADATA block: where the index should start (`METADATA_INDEX_OFFSET`).
    index_offset: Vec<u64>,
}

impl<W: Write> Dump<W> {
    /// A dump writing to `out`.
    pub fn new(out: W, opts: DumpOptions) -> Self {
        Dump { out, opts, hidden: None, index_offset: Vec::new() }
    }
}

fn indent(depth: usize) -> String {
    " ".repeat(depth * 2)
}

impl<W: Write> Visitor for Dump<W> {
    fn enter(&mut self, _names: &Names, _stack: &[Frame], frame: &mut Frame) -> io::Result<()> {
        self.index_offset.push(0);
        if self.hidden.is_some() {
            return Ok(());
        }
        let ind = indent(frame.depth);
        if frame.id == bitstream::BLOCKINFO_BLOCK_ID && !self.opts.blockinfo {
            self.hidden = Some(frame.depth);
            return writeln!(self.out, "{ind}<BLOCKINFO_BLOCK/>");
        }
        match &frame.name {
            Some(name) if self.opts.non_symbolic => write!(self.out, "{ind}<{name} BlockID={}", frame.id)?,
            Some(name) => write!(self.out, "{ind}<{name}")?,
            None => write!(self.out, "{ind}<UnknownBlock{}", frame.id)?,
        }
        writeln!(self.out, " NumWords={} BlockCodeSize={}>", frame.len_words, frame.width)
    }

    fn record(&mut self, names: &Names, stack: &[Frame], r: &RecordRef<'_, '_>, end: u64) -> io::Result<()> {
        let Some(frame) = stack.last() else { return Ok(()) };
        let code = r.code();
        if frame.id == llvm_ir::METADATA_BLOCK_ID && code == llvm_ir::METADATA_INDEX_OFFSET && r.len() == 2 {
            if let Some(slot) = self.index_offset.last_mut() {
                *slot = end.wrapping_add(r.operand_slice()[0].wrapping_add(r.operand_slice()[1] << 32));
            }
        }
        if self.hidden.is_some() {
            return Ok(());
        }
        let out = &mut self.out;
        let ind = indent(frame.depth);
        write!(out, "{ind}  <")?;
        match names.record(frame.id, code) {
            Some(name) if self.opts.non_symbolic => write!(out, "{name} codeid={code}")?,
            Some(name) => out.write_all(name.as_bytes())?,
            None => write!(out, "UnknownCode{code}")?,
        }
        if r.abbrev_id() != bitstream::UNABBREV_RECORD {
            write!(out, " abbrevid={}", r.abbrev_id())?;
        }
        let ops = r.operand_slice();
        for (i, &op) in ops.iter().enumerate() {
            write!(out, " op{i}={}", op as i64)?;
        }
        if frame.id == llvm_ir::METADATA_BLOCK_ID {
            if code == llvm_ir::METADATA_INDEX_OFFSET && ops.len() != 2 {
                out.write_all(b"(Invalid record)")?;
            }
            if code == llvm_ir::METADATA_INDEX {
                let expected = self.index_offset.last().copied().unwrap_or(0);
                let start = r.bit_offset();
                if expected == start {
                    out.write_all(b" (offset match)")?;
                } else {
                    write!(out, " (offset mismatch: {expected} vs {start})")?;
                }
            }
        }
        out.write_all(b"/>")?;
        if let Some(array) = r.array_operands() {
            // LLVM prints the operands from the array's first on, each truncated to a byte.
            if array.iter().all(|&c| is_print(c as u8)) {
                out.write_all(b" record string = '")?;
                out.write_all(&array.iter().map(|&c| c as u8).collect::<Vec<u8>>())?;
                out.write_all(b"'")?;
            }
        }
        if let Some(blob) = r.blob() {
            if frame.id == llvm_ir::METADATA_BLOCK_ID && code == llvm_ir::METADATA_STRINGS {
                write_metadata_strings(out, &ind, ops, blob, r.bit_offset())?;
            } else {
                out.write_all(b" blob data = ")?;
                if self.opts.binary_blobs {
                    out.write_all(b"'")?;
                    write_escaped(out, blob)?;
                    out.write_all(b"'")?;
                } else if blob.iter().all(|&c| is_print(c)) {
                    out.write_all(b"'")?;
                    out.write_all(blob)?;
                    out.write_all(b"'")?;
                } else {
                    write!(out, "unprintable, {} bytes.", blob.len())?;
                }
            }
        }
        out.write_all(b"\n")
    }

    fn exit(&mut self, _names: &Names, _stack: &[Frame], frame: &Frame) -> io::Result<()> {
        self.index_offset.pop();
        if let Some(depth) = self.hidden {
            if depth == frame.depth {
                self.hidden = None;
            }
            return Ok(());
        }
        let ind = indent(frame.depth);
        match &frame.name {
            Some(name) => writeln!(self.out, "{ind}</{name}>"),
            None => writeln!(self.out, "{ind}</UnknownBlock{}>", frame.id),
        }
    }

    fn stopped_in_header(&mut self, stack: &[Frame], block_id: u32) -> io::Result<()> {
        // LLVM's analyzer writes BLOCKINFO's tag as soon as it has read the block id, before
        // the rest of the header.
        if block_id == bitstream::BLOCKINFO_BLOCK_ID && !self.opts.blockinfo && self.hidden.is_none() {
            writeln!(self.out, "{}<BLOCKINFO_BLOCK/>", indent(stack.len()))?;
        }
        Ok(())
    }
}

/// LLVM's `isPrint`: 0x20..=0x7e.
fn is_print(c: u8) -> bool {
    (0x20..=0x7e).contains(&c)
}

/// LLVM's `raw_ostream::write_escaped(s, /*UseHexEscapes=*/true)`.
fn write_escaped(out: &mut impl Write, s: &[u8]) -> io::Result<()> {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut buf = Vec::with_capacity(s.len());
    for &c in s {
        match c {
            b'\\' => buf.extend_from_slice(b"\\\\"),
            b'\t' => buf.extend_from_slice(b"\\t"),
            b'\n' => buf.extend_from_slice(b"\\n"),
            b'"' => buf.extend_from_slice(b"\\\""),
            c if is_print(c) => buf.push(c),
            c => buf.extend_from_slice(&[b'\\', b'x', HEX[usize::from(c >> 4)], HEX[usize::from(c & 15)]]),
        }
    }
    out.write_all(&buf)
}

/// LLVM's `decodeMetadataStringsBlob`: the strings of a METADATA_STRINGS record (at bit
/// `bit`), one a line, read by the library's [`MetadataStrings`].
fn write_metadata_strings(out: &mut impl Write, ind: &str, ops: &[u64], blob: &[u8], bit: u64) -> io::Result<()> {
    let bad = |msg: &str| io::Error::new(io::ErrorKind::InvalidData, msg.to_string());
    if blob.is_empty() {
        return Err(bad("Cannot decode empty blob."));
    }
    let [count, offset] = ops else {
        return Err(bad("Decoding metadata strings blob needs two record entries."));
    };
    // LLVM takes both operands as 32-bit, cuts the offset to the blob, and reads strings in
    // a do-while on the count, so that a count of 0 means 2^32.
    let (count, offset) = (*count as u32, *offset as u32);
    writeln!(out, " num-strings = {count} {{")?;
    let count = if count == 0 { 1 << 32 } else { u64::from(count) };
    let offset = u64::from(offset).min(blob.len() as u64);
    let strings = MetadataStrings::new(count, offset, blob, bit).map_err(|e| bad(&e.to_string()))?;
    for string in strings {
        let string = string.map_err(|e| match e {
            MetadataStringsError::LengthsCutShort { .. } => bad("bad length"),
            MetadataStringsError::PastTheBlob { .. } => bad("truncated chars"),
            e => bad(&e.to_string()),
        })?;
        write!(out, "{ind}    '")?;
        write_escaped(out, string)?;
        out.write_all(b"'\n")?;
    }
    write!(out, "{ind}  }}")
}

/// Statistics of one record code in one block id.
#[derive(Clone, Copy, Debug, Default)]
pub struct CodeStats {
    /// Occurrences.
    pub count: u64,
    /// Bits, abbreviation ids included.
    pub bits: u64,
    /// Occurrences written with an abbreviation.
    pub abbreviated: u64,
}

/// Statistics of one block id.
#[derive(Clone, Debug, Default)]
pub struct BlockStats {
    /// Blocks with this id.
    pub instances: u64,
    /// Bits, as `llvm-bcanalyzer` counts them.
    pub bits: u64,
    /// Sub-blocks directly inside.
    pub sub_blocks: u64,
    /// DEFINE_ABBREVs.
    pub abbrevs: u64,
    /// Records.
    pub records: u64,
    /// Records written with an abbreviation.
    pub abbreviated: u64,
    /// Per record code.
    pub codes: BTreeMap<u32, CodeStats>,
}

/// `llvm-bcanalyzer`'s statistics, gathered during a walk.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    /// Per block id.
    pub blocks: BTreeMap<u32, BlockStats>,
}

impl Visitor for Stats {
    fn enter(&mut self, _names: &Names, stack: &[Frame], frame: &mut Frame) -> io::Result<()> {
        self.blocks.entry(frame.id).or_default().instances += 1;
        if let Some(parent) = stack.last() {
            self.blocks.entry(parent.id).or_default().sub_blocks += 1;
        }
        Ok(())
    }

    fn record(&mut self, _names: &Names, stack: &[Frame], r: &RecordRef<'_, '_>, end: u64) -> io::Result<()> {
        let Some(frame) = stack.last() else { return Ok(()) };
        let block = self.blocks.entry(frame.id).or_default();
        block.records += 1;
        let code = block.codes.entry(r.code()).or_default();
        code.count += 1;
        code.bits += end - r.bit_offset();
        if r.abbrev_id() != bitstream::UNABBREV_RECORD {
            code.abbreviated += 1;
            block.abbreviated += 1;
        }
        Ok(())
    }

    fn exit(&mut self, _names: &Names, _stack: &[Frame], frame: &Frame) -> io::Result<()> {
        let block = self.blocks.entry(frame.id).or_default();
        block.bits += frame.llvm_bits();
        block.abbrevs += frame.abbrevs;
        Ok(())
    }
}

/// Runs two visitors side by side.
pub struct Both<'a, A, B>(pub &'a mut A, pub &'a mut B);

impl<A: Visitor, B: Visitor> Visitor for Both<'_, A, B> {
    fn enter(&mut self, names: &Names, stack: &[Frame], frame: &mut Frame) -> io::Result<()> {
        self.0.enter(names, stack, frame)?;
        self.1.enter(names, stack, frame)
    }
    fn record(&mut self, names: &Names, stack: &[Frame], r: &RecordRef<'_, '_>, end: u64) -> io::Result<()> {
        self.0.record(names, stack, r, end)?;
        self.1.record(names, stack, r, end)
    }
    fn exit(&mut self, names: &Names, stack: &[Frame], frame: &Frame) -> io::Result<()> {
        self.0.exit(names, stack, frame)?;
        self.1.exit(names, stack, frame)
    }
    fn stopped_in_header(&mut self, stack: &[Frame], block_id: u32) -> io::Result<()> {
        self.0.stopped_in_header(stack, block_id)?;
        self.1.stopped_in_header(stack, block_id)
    }
}

/// C's `%e` (`1.500000e+00`), as LLVM's `raw_ostream << double` prints.
fn c_exp(v: f64) -> String {
    let s = format!("{v:.6e}");
    match s.split_once('e') {
        Some((mantissa, exp)) => {
            let (sign, digits) = exp.strip_prefix('-').map_or(('+', exp), |d| ('-', d));
            format!("{mantissa}e{sign}{digits:0>2}")
        }
        None => s,
    }
}

/// LLVM's `printSize(uint64_t)`.
fn size_bits(bits: u64) -> String {
    format!("{bits}b/{:.2}B/{}W", bits as f64 / 8.0, bits / 32)
}

/// LLVM's `printSize(double)`.
fn size_avg(bits: f64) -> String {
    format!("{bits:.2}/{:.2}B/{}W", bits / 8.0, (bits / 32.0) as u64)
}

/// What `Stream type:` says: LLVM knows these four kinds, and calls the rest (Swift modules
/// too) "unknown".
fn stream_type(magic: Magic) -> &'static str {
    match magic {
        Magic::LlvmIr | Magic::ClangAst | Magic::ClangSerializedDiagnostics | Magic::LlvmRemarks => magic.name(),
        _ => "unknown",
    }
}

/// Writes the statistics as `llvm-bcanalyzer` prints them (`histogram`: the record
/// histograms, off with `-disable-histogram`).
pub fn write_stats(
    out: &mut impl Write,
    filename: &str,
    stream_bytes: usize,
    walked: &Walked,
    stats: &Stats,
    histogram: bool,
) -> io::Result<()> {
    let file_bits = stream_bytes as u64 * 8;
    let names = &walked.names;
    writeln!(out, "Summary of {filename}:")?;
    writeln!(out, "         Total size: {}", size_bits(file_bits))?;
    writeln!(out, "        Stream type: {}", stream_type(names.magic))?;
    writeln!(out, "  # Toplevel Blocks: {}", walked.top_blocks)?;
    writeln!(out)?;
    writeln!(out, "Per-block Summary:")?;
    for (&id, s) in &stats.blocks {
        write!(out, "  Block ID #{id}")?;
        if let Some(name) = names.block(id) {
            write!(out, " ({name})")?;
        }
        writeln!(out, ":")?;
        writeln!(out, "      Num Instances: {}", s.instances)?;
        writeln!(out, "         Total Size: {}", size_bits(s.bits))?;
        writeln!(out, "    Percent of file: {:.4}%", s.bits as f64 * 100.0 / file_bits as f64)?;
        if s.instances > 1 {
            let n = s.instances as f64;
            writeln!(out, "       Average Size: {}", size_avg(s.bits as f64 / n))?;
            writeln!(out, "  Tot/Avg SubBlocks: {}/{}", s.sub_blocks, c_exp(s.sub_blocks as f64 / n))?;
            writeln!(out, "    Tot/Avg Abbrevs: {}/{}", s.abbrevs, c_exp(s.abbrevs as f64 / n))?;
            writeln!(out, "    Tot/Avg Records: {}/{}", s.records, c_exp(s.records as f64 / n))?;
        } else {
            writeln!(out, "      Num SubBlocks: {}", s.sub_blocks)?;
            writeln!(out, "        Num Abbrevs: {}", s.abbrevs)?;
            writeln!(out, "        Num Records: {}", s.records)?;
        }
        if s.records > 0 {
            writeln!(out, "    Percent Abbrevs: {:.4}%", s.abbreviated as f64 * 100.0 / s.records as f64)?;
        }
        writeln!(out)?;
        if histogram && !s.codes.is_empty() {
            let mut freq: Vec<(u64, u32)> = s.codes.iter().map(|(&code, c)| (c.count, code)).collect();
            freq.sort_unstable_by(|a, b| b.cmp(a));
            writeln!(out, "\tRecord Histogram:")?;
            writeln!(out, "\t\t  Count    # Bits     b/Rec   % Abv  Record Kind")?;
            for (count, code) in freq {
                let c = &s.codes[&code];
                write!(out, "\t\t{:7} {:9}", count, c.bits)?;
                if count > 1 {
                    write!(out, " {:9.1}", c.bits as f64 / count as f64)?;
                } else {
                    out.write_all(b"          ")?;
                }
                if c.abbreviated > 0 {
                    write!(out, " {:7.2}", c.abbreviated as f64 / count as f64 * 100.0)?;
                } else {
                    out.write_all(b"        ")?;
                }
                writeln!(out, "  {}", names.record_or_unknown(id, code))?;
            }
            writeln!(out)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn c_formats() {
        assert_eq!(c_exp(1.0), "1.000000e+00");
        assert_eq!(c_exp(22.666666666666668), "2.266667e+01");
        assert_eq!(c_exp(0.0), "0.000000e+00");
        assert_eq!(c_exp(0.05), "5.000000e-02");
        assert_eq!(c_exp(1e100), "1.000000e+100");
        assert_eq!(size_bits(1109), "1109b/138.62B/34W");
        assert_eq!(size_avg(8718.333333333334), "8718.33/1089.79B/272W");
    }

    #[test]
    fn escapes() {
        let mut v = Vec::new();
        write_escaped(&mut v, b"a\\b\t\n\"\x00\xff~").unwrap();
        assert_eq!(v, b"a\\\\b\\t\\n\\\"\\x00\\xFF~");
    }
}
