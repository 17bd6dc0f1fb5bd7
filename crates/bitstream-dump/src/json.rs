//! `--format json`: one JSON object per line, one per event, with names.
//!
//! ```text
//! {"event":"stream","magic":"4243c0de","kind":"LLVM IR","bytes":5300,"wrapper":null}
//! {"event":"enter","depth":0,"block_id":8,"block":"MODULE_BLOCK","abbrev_width":3,"num_words":441,"bit":64}
//! {"event":"record","depth":1,"block_id":8,"block":"MODULE_BLOCK","code":1,"name":"VERSION","abbrev_id":3,"ops":[2],"bit":128,"bits":16}
//! {"event":"exit","depth":0,"block_id":8,"block":"MODULE_BLOCK","bit":14176,"bits":14112}
//! ```
//!
//! `stream` comes first (once per bitstream; with a `provenance` when the stream was found
//! inside an object or archive); then `enter`, `record` and `exit`, one per event of the
//! library's reader. Names are `null` when unknown. A record's `string` is there when its
//! array is printable text, `blob` (hex) when it has a blob. `bit` is the offset from the
//! magic; `bits` the size (a block's from its ENTER_SUBBLOCK to its end).

use std::io::{self, Write};

use serde::Serialize;

use llvm_bitstream_reader::{Bitstream, RecordRef};

use crate::walk::{Frame, Names, Visitor};

/// One line of the output.
#[derive(Serialize)]
#[serde(tag = "event", rename_all = "lowercase")]
enum Line<'a> {
    /// The stream about to be walked.
    Stream {
        /// The magic's four bytes, in hex.
        magic: String,
        /// What the magic says the stream is.
        kind: &'a str,
        /// The stream's size in bytes (from the magic on).
        bytes: usize,
        /// Where the stream was found, for streams inside objects and archives.
        #[serde(skip_serializing_if = "Option::is_none")]
        provenance: Option<&'a str>,
        /// The wrapper header, if any.
        wrapper: Option<Wrapper>,
    },
    /// A block begins.
    Enter { depth: usize, block_id: u32, block: Option<&'a str>, abbrev_width: u32, num_words: u32, bit: u64 },
    /// A record.
    Record {
        depth: usize,
        block_id: u32,
        block: Option<&'a str>,
        code: u32,
        name: Option<&'a str>,
        abbrev_id: u32,
        ops: &'a [u64],
        /// The array as text, when every element is printable ASCII.
        #[serde(skip_serializing_if = "Option::is_none")]
        string: Option<String>,
        /// The blob in hex.
        #[serde(skip_serializing_if = "Option::is_none")]
        blob: Option<String>,
        bit: u64,
        bits: u64,
    },
    /// A block ends.
    Exit { depth: usize, block_id: u32, block: Option<&'a str>, bit: u64, bits: u64 },
}

/// The wrapper header's fields.
#[derive(Serialize)]
struct Wrapper {
    version: u32,
    offset: u32,
    size: u32,
    cputype: u32,
}

/// Writes `line` and a newline.
fn write_line(out: &mut impl Write, line: &Line<'_>) -> io::Result<()> {
    serde_json::to_writer(&mut *out, line)?;
    out.write_all(b"\n")
}

/// Writes the `stream` object (`provenance`: where an embedded stream was found).
pub fn write_stream(out: &mut impl Write, stream: &Bitstream<'_>, provenance: Option<&str>) -> io::Result<()> {
    let [a, b, c, d] = stream.magic().bytes();
    let line = Line::Stream {
        magic: format!("{a:02x}{b:02x}{c:02x}{d:02x}"),
        kind: stream.magic().name(),
        bytes: stream.bytes().len(),
        provenance,
        wrapper: stream.wrapper().map(|w| Wrapper {
            version: w.version,
            offset: w.offset,
            size: w.size,
            cputype: w.cpu_type,
        }),
    };
    write_line(out, &line)
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

/// The array as text, if it is not empty and every element is printable ASCII.
fn printable(array: Option<&[u64]>) -> Option<String> {
    let array = array?;
    let text = !array.is_empty() && array.iter().all(|&c| (0x20..0x7f).contains(&c));
    text.then(|| array.iter().map(|&c| c as u8 as char).collect())
}

fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write as _;
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(s, "{b:02x}");
    }
    s
}

impl<W: Write> Visitor for Json<W> {
    fn enter(&mut self, _names: &Names, _stack: &[Frame], f: &mut Frame) -> io::Result<()> {
        let line = Line::Enter {
            depth: f.depth,
            block_id: f.id,
            block: f.name.as_deref(),
            abbrev_width: f.width,
            num_words: f.len_words,
            bit: f.header_bit,
        };
        write_line(&mut self.out, &line)
    }

    fn record(&mut self, names: &Names, stack: &[Frame], r: &RecordRef<'_, '_>, end: u64) -> io::Result<()> {
        let Some(f) = stack.last() else { return Ok(()) };
        let line = Line::Record {
            depth: f.depth + 1,
            block_id: f.id,
            block: f.name.as_deref(),
            code: r.code(),
            name: names.record(f.id, r.code()),
            abbrev_id: r.abbrev_id(),
            ops: r.operand_slice(),
            string: printable(r.array_operands()),
            blob: r.blob().map(hex),
            bit: r.bit_offset(),
            bits: end - r.bit_offset(),
        };
        write_line(&mut self.out, &line)
    }

    fn exit(&mut self, _names: &Names, _stack: &[Frame], f: &Frame) -> io::Result<()> {
        let line = Line::Exit {
            depth: f.depth,
            block_id: f.id,
            block: f.name.as_deref(),
            bit: f.end_bit,
            bits: f.end_bit - f.header_bit,
        };
        write_line(&mut self.out, &line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_in_order_and_strings_escaped() {
        let mut out = Vec::new();
        let line = Line::Record {
            depth: 1,
            block_id: 8,
            block: Some("MODULE_BLOCK"),
            code: 16,
            name: None,
            abbrev_id: 3,
            ops: &[1, 2],
            string: Some("a\"b\\c\u{1}".to_string()),
            blob: Some(hex(&[0, 0xab])),
            bit: 128,
            bits: 16,
        };
        write_line(&mut out, &line).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            r#"{"event":"record","depth":1,"block_id":8,"block":"MODULE_BLOCK","code":16,"name":null,"abbrev_id":3,"ops":[1,2],"string":"a\"b\\c\u0001","blob":"00ab","bit":128,"bits":16}"#
                .to_string()
                + "\n"
        );
    }

    #[test]
    fn printable_arrays_only() {
        assert_eq!(printable(Some(&[104, 105])).as_deref(), Some("hi"));
        assert_eq!(printable(Some(&[])), None);
        assert_eq!(printable(Some(&[104, 0x7f])), None);
        assert_eq!(printable(None), None);
    }
}
