//! The stable, name-free event line format (`--format events`), for golden files and
//! differential tests. The library's tests include this file by path.
//!
//! ```text
//! wrapper version=<v> offset=<o> size=<s> cputype=<c>   (only with a wrapper header)
//! magic 42 43 c0 de                                    (lowercase hex)
//! enter <block id> width=<abbrev width> words=<length in 32-bit words>
//! record <code> abbrev=<abbrev id> ops=[<operands, comma-separated>] blob=<hex, or ->
//! exit
//! end bits=<bit just past the last top-level block, counted from the magic>
//! ```
//!
//! Numbers are decimal but for the magic and the blob. `ops` excludes the code and the
//! blob and flattens arrays (char6 as ASCII). BLOCKINFO shows as `enter 0 …`, its
//! SETBID/BLOCKNAME/SETRECORDNAME records, and `exit`; DEFINE_ABBREV is never shown.

use std::fmt::{self, Write};

use llvm_bitstream_reader::{Bitstream, Error, Event};

/// Why [`write_events`] stopped early.
#[derive(Debug)]
pub enum DumpError {
    /// The input is malformed; the lines before it were written.
    Input(Error),
    /// The output refused a write.
    Output(fmt::Error),
}

impl From<Error> for DumpError {
    fn from(e: Error) -> Self {
        DumpError::Input(e)
    }
}

impl From<fmt::Error> for DumpError {
    fn from(e: fmt::Error) -> Self {
        DumpError::Output(e)
    }
}

/// Writes every event of `input` in the line format, one line per event. On malformed
/// input the lines read so far are written, then the error is returned (the caller prints
/// `error <message>`).
pub fn write_events(input: &[u8], out: &mut impl Write) -> Result<(), DumpError> {
    let stream = Bitstream::parse(input)?;
    if let Some(w) = stream.wrapper() {
        writeln!(out, "wrapper version={} offset={} size={} cputype={}", w.version, w.offset, w.size, w.cpu_type)?;
    }
    let [a, b, c, d] = stream.magic().bytes();
    writeln!(out, "magic {a:02x} {b:02x} {c:02x} {d:02x}")?;
    let mut reader = stream.reader();
    while let Some(event) = reader.next_event()? {
        match event {
            // This format enters every block, and entering one whose abbreviation width
            // is outside 1..=64 is the error (`EnterSubBlock`; skipping it would not be):
            // the next event reports it, and LLVM shows no line for the block.
            Event::EnterBlock(b) if !(1..=64).contains(&b.abbrev_width()) => {
                reader.next_event()?;
            }
            Event::EnterBlock(b) => {
                writeln!(out, "enter {} width={} words={}", b.block_id(), b.abbrev_width(), b.len_words())?
            }
            Event::Record(r) => {
                write!(out, "record {} abbrev={} ops=[", r.code(), r.abbrev_id())?;
                for (i, op) in r.operands().enumerate() {
                    if i > 0 {
                        out.write_char(',')?;
                    }
                    write!(out, "{op}")?;
                }
                out.write_str("] blob=")?;
                match r.blob() {
                    Some(blob) => blob.iter().try_for_each(|b| write!(out, "{b:02x}"))?,
                    None => out.write_char('-')?,
                }
                out.write_char('\n')?;
            }
            Event::EndBlock(_) => out.write_str("exit\n")?,
            // Not asked for.
            _ => {}
        }
    }
    writeln!(out, "end bits={}", reader.end_bit().unwrap_or_default())?;
    Ok(())
}
