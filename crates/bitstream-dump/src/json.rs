//! `--format json`: one JSON object per line, one per event, with names.
//!
//! ```text
//! {"event":"stream","magic":"4243c0de","kind":"LLVM IR","bytes":5300,"wrapper":null}
//! {"event":"enter","depth":0,"block_id":8,"block":"MODULE_BLOCK","abbrev_width":3,"num_words":441,"bit":64}
//! {"event":"record","depth":1,"block_id":8,"block":"MODULE_BLOCK","code":1,"name":"VERSION","abbrev_id":3,"ops":[2],"bit":128,"bits":16}
//! {"event":"exit","depth":0,"block_id":8,"block":"MODULE_BLOCK","bit":14176,"bits":14112}
//! ```
//!
//! `stream` comes first (once per bitstream); then `enter`, `record` and `exit`, one per
//! event of the library's reader. Names are `null` when unknown. A record's `string` is
//! there when its array is printable text, `blob` (hex) when it has a blob. `bit` is the
//! offset from the magic; `bits` the size (a block's from its ENTER_SUBBLOCK to its end).

use std::io::{self, Write};

use llvm_bitstream_reader::{Bitstream, RecordRef};

use crate::walk::{Frame, Names, Visitor};

/// Writes `s` as a JSON string.
pub fn write_str(out: &mut impl Write, s: &str) -> io::Result<()> {
    let mut buf = Vec::with_capacity(s.len() + 2);
    buf.push(b'"');
    for c in s.chars() {
        match c {
            '"' => buf.extend_from_slice(b"\\\""),
            '\\' => buf.extend_from_slice(b"\\\\"),
            '\n' => buf.extend_from_slice(b"\\n"),
            '\r' => buf.extend_from_slice(b"\\r"),
            '\t' => buf.extend_from_slice(b"\\t"),
            c if (c as u32) < 0x20 => buf.extend_from_slice(format!("\\u{:04x}", c as u32).as_bytes()),
            c => {
                let mut tmp = [0u8; 4];
                buf.extend_from_slice(c.encode_utf8(&mut tmp).as_bytes());
            }
        }
    }
    buf.push(b'"');
    out.write_all(&buf)
}

fn write_opt_str(out: &mut impl Write, s: Option<&str>) -> io::Result<()> {
    match s {
        Some(s) => write_str(out, s),
        None => out.write_all(b"null"),
    }
}

/// Writes the `stream` object.
pub fn write_stream(out: &mut impl Write, stream: &Bitstream<'_>, provenance: Option<&str>) -> io::Result<()> {
    let [a, b, c, d] = stream.magic().bytes();
    write!(out, "{{\"event\":\"stream\",\"magic\":\"{a:02x}{b:02x}{c:02x}{d:02x}\",\"kind\":")?;
    write_str(out, stream.magic().name())?;
    write!(out, ",\"bytes\":{}", stream.bytes().len())?;
    if let Some(p) = provenance {
        out.write_all(b",\"provenance\":")?;
        write_str(out, p)?;
    }
    match stream.wrapper() {
        Some(w) => writeln!(
            out,
            ",\"wrapper\":{{\"version\":{},\"offset\":{},\"size\":{},\"cputype\":{}}}}}",
            w.version, w.offset, w.size, w.cpu_type
        ),
        None => writeln!(out, ",\"wrapper\":null}}"),
    }
}

/// The JSON-lines writer.
pub struct Json<W: Write> {
    out: W,
}

impl<W: Write> Json<W> {
    /// Writes to `out`.
    pub fn new(out: W) -> Self {
        Json { out }
    }
}

impl<W: Write> Visitor for Json<W> {
    fn enter(&mut self, _names: &Names, _stack: &[Frame], f: &mut Frame) -> io::Result<()> {
        let out = &mut self.out;
        write!(out, "{{\"event\":\"enter\",\"depth\":{},\"block_id\":{},\"block\":", f.depth, f.id)?;
        write_opt_str(out, f.name.as_deref())?;
        writeln!(out, ",\"abbrev_width\":{},\"num_words\":{},\"bit\":{}}}", f.width, f.len_words, f.header_bit)
    }

    fn record(&mut self, names: &Names, stack: &[Frame], r: &RecordRef<'_, '_>, end: u64) -> io::Result<()> {
        let Some(f) = stack.last() else { return Ok(()) };
        let out = &mut self.out;
        write!(out, "{{\"event\":\"record\",\"depth\":{},\"block_id\":{},\"block\":", f.depth + 1, f.id)?;
        write_opt_str(out, f.name.as_deref())?;
        write!(out, ",\"code\":{},\"name\":", r.code())?;
        write_opt_str(out, names.record(f.id, r.code()))?;
        write!(out, ",\"abbrev_id\":{},\"ops\":[", r.abbrev_id())?;
        let mut line = String::new();
        for (i, op) in r.operands().iter().enumerate() {
            if i > 0 {
                line.push(',');
            }
            line.push_str(&op.to_string());
        }
        out.write_all(line.as_bytes())?;
        out.write_all(b"]")?;
        if let Some(array) = r.array_operands() {
            if !array.is_empty() && array.iter().all(|&c| (0x20..0x7f).contains(&c)) {
                let text: String = array.iter().map(|&c| c as u8 as char).collect();
                out.write_all(b",\"string\":")?;
                write_str(out, &text)?;
            }
        }
        if let Some(blob) = r.blob() {
            let mut hex = String::with_capacity(blob.len() * 2);
            for b in blob {
                hex.push_str(&format!("{b:02x}"));
            }
            write!(out, ",\"blob\":\"{hex}\"")?;
        }
        writeln!(out, ",\"bit\":{},\"bits\":{}}}", r.bit_offset(), end - r.bit_offset())
    }

    fn exit(&mut self, _names: &Names, _stack: &[Frame], f: &Frame) -> io::Result<()> {
        let out = &mut self.out;
        write!(out, "{{\"event\":\"exit\",\"depth\":{},\"block_id\":{},\"block\":", f.depth, f.id)?;
        write_opt_str(out, f.name.as_deref())?;
        writeln!(out, ",\"bit\":{},\"bits\":{}}}", f.end_bit, f.end_bit - f.header_bit)
    }
}
