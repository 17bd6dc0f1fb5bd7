//! Remarks printed as YAML, byte for byte as `llvm-remarkutil bitstream2yaml` (LLVM 19)
//! prints them: LLVM's `YAMLRemarkSerializer` through `llvm::yaml::Output`.
//!
//! ```
//! use llvm_bitstream_reader::remarks::{yaml, RemarksFile};
//!
//! # fn main() -> Result<(), llvm_bitstream_reader::Error> {
//! let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/llvm19_remarks_standalone.opt.bitstream")).unwrap();
//! let file = RemarksFile::parse(&bytes)?;
//! let mut out = Vec::new();
//! let mut remarks = file.remarks()?;
//! while let Some(remark) = remarks.next_remark()? {
//!     yaml::write_remark(remark, &mut out);
//! }
//! assert!(out.starts_with(b"--- !"));
//! assert!(out.ends_with(b"\n...\n"));
//! # Ok(()) }
//! ```
//!
//! What `llvm::yaml::Output` does, and so what this does:
//!
//! - one document per remark: `--- !Type`, the keys `Pass`, `Name`, `DebugLoc`,
//!   `Function`, `Hotness`, `Args` (the optional ones only when present), then `...`;
//! - a key is followed by `:` and padded with spaces to column 17 (one space for keys of
//!   16 bytes or more);
//! - scalars are quoted by `needsQuotes`: single quotes (a `'` doubled) for the empty
//!   string, `null`/`true`/numbers and the like, a leading indicator character,
//!   leading or trailing space, and any character but ASCII letters, digits and
//!   `_-^., \t`; double quotes (with `\`-escapes) for control characters, DEL and
//!   anything non-ASCII. Argument keys are quoted the same way, but numbers are not;
//! - a `DebugLoc` is a flow mapping `{ File: …, Line: …, Column: … }`, broken onto an
//!   indented next line before a key that would start past column 70;
//! - an argument value with two or more line feeds is a block scalar (`|`).
//!
//! The one approximation: in double-quoted strings, LLVM escapes the code points its
//! Unicode tables call unprintable; here that is the control, surrogate, private-use,
//! noncharacter and common format (Cf) code points, but not the unassigned ones.

use alloc::vec::Vec;

use super::{Argument, DebugLoc, Remark, Text};

/// `llvm::yaml::Output`'s wrap column for flow mappings.
const WRAP_COLUMN: usize = 70;

/// LLVM's `QuotingType`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Quoting {
    None,
    Single,
    Double,
}

/// The writer: the output, its current column (`Output::Column`) and the padding a key
/// left for its value (`Output::Padding`: written before the value on the same line, and
/// dropped if a new line comes first).
struct Out<'o> {
    buf: &'o mut Vec<u8>,
    column: usize,
    padding: usize,
}

impl Out<'_> {
    fn put(&mut self, s: &[u8]) {
        if self.padding > 0 {
            self.column += self.padding;
            self.buf.resize(self.buf.len() + self.padding, b' ');
            self.padding = 0;
        }
        self.column += s.len();
        self.buf.extend_from_slice(s);
    }

    fn newline(&mut self) {
        self.buf.push(b'\n');
        self.column = 0;
        self.padding = 0;
    }

    /// A block-mapping key at `indent` levels, with its `- ` if it opens a sequence
    /// element, and the padding that `paddedKey` leaves for the value.
    fn key(&mut self, indent: usize, dash: bool, key: &[u8]) {
        self.newline();
        for _ in 0..indent {
            self.put(b"  ");
        }
        if dash {
            self.put(b"- ");
        }
        // The fixed keys (`Pass`, `DebugLoc`, …) need no quotes; argument keys may.
        let quoting = if dash { needs_quotes(key, false) } else { Quoting::None };
        self.scalar_text(key, quoting);
        self.put(b":");
        self.padding = 16usize.saturating_sub(key.len()).max(1);
    }

    /// A scalar value (`Output::scalarString`).
    fn scalar(&mut self, s: &[u8]) {
        if s.is_empty() {
            self.put(b"''");
        } else {
            self.scalar_text(s, needs_quotes(s, true));
        }
    }

    /// `Output::output(StringRef, QuotingType)`.
    fn scalar_text(&mut self, s: &[u8], quoting: Quoting) {
        match quoting {
            Quoting::None => self.put(s),
            Quoting::Single => {
                self.put(b"'");
                if s.contains(&b'\'') {
                    for (i, part) in s.split(|&b| b == b'\'').enumerate() {
                        if i > 0 {
                            self.put(b"''");
                        }
                        self.put(part);
                    }
                } else {
                    self.put(s);
                }
                self.put(b"'");
            }
            Quoting::Double => {
                self.put(b"\"");
                let start = self.buf.len();
                escape(s, self.buf);
                // (no padding is pending after the opening quote)
                self.column += self.buf.len() - start;
                self.put(b"\"");
            }
        }
    }

    fn number(&mut self, n: u64) {
        self.put(crate::text::decimal_digits(n, &mut [0; 20]));
    }

    /// `{ File: …, Line: …, Column: … }` after a `DebugLoc` key.
    fn debug_loc(&mut self, loc: &DebugLoc<'_>) {
        self.put(b""); // the key's padding comes first
        let start = self.column;
        self.put(b"{ ");
        self.flow_key(start, b"File", true);
        self.scalar(loc.file.0);
        self.flow_key(start, b"Line", false);
        // LLVM keeps the line and column in 32-bit `unsigned`s.
        self.number(u64::from(loc.line as u32));
        self.flow_key(start, b"Column", false);
        self.number(u64::from(loc.column as u32));
        self.put(b" }");
    }

    /// `Output::flowKey`.
    fn flow_key(&mut self, flow_start: usize, key: &[u8], first: bool) {
        if !first {
            self.put(b", ");
        }
        if self.column > WRAP_COLUMN {
            self.newline();
            for _ in 0..flow_start {
                self.put(b" ");
            }
            self.put(b"  ");
        }
        self.put(key);
        self.put(b": ");
    }

    fn argument(&mut self, arg: &Argument<'_>) {
        // LLVM passes the key as a C string: it ends at a NUL (never present here, as the
        // string table splits at NULs).
        let key = arg.key.0;
        self.key(1, true, key);
        let value = arg.value.0;
        let block = value.iter().filter(|&&b| b == b'\n').count() > 1;
        if block {
            self.block_scalar(value);
        } else {
            self.scalar(value);
        }
        if let Some(loc) = &arg.loc {
            if block {
                // After a block scalar LLVM's `newLineCheck` finds no pending line feed:
                // the key lands at the start of the line, unindented (invalid YAML, but
                // what LLVM 19 prints).
                self.scalar_text(b"DebugLoc", Quoting::None);
                self.put(b":");
                self.padding = 8;
            } else {
                self.key(2, false, b"DebugLoc");
            }
            self.debug_loc(loc);
        }
    }

    /// `Output::blockScalarString` inside an argument (three levels of state deep): each
    /// line ends with a line feed, and the next key still starts a new line, so a blank
    /// line follows the block.
    fn block_scalar(&mut self, value: &[u8]) {
        self.put(b" |");
        self.newline();
        for line in lines(value) {
            for _ in 0..3 {
                self.put(b"  ");
            }
            self.put(line);
            self.newline();
        }
    }
}

/// The lines of `text` as `llvm::line_iterator` (blank lines kept) gives them: split at
/// `\n` or `\r\n`, no empty line after a final line feed.
fn lines(text: &[u8]) -> impl Iterator<Item = &[u8]> {
    let body = text.strip_suffix(b"\n").unwrap_or(text);
    let mut rest = if text.is_empty() { None } else { Some(body) };
    core::iter::from_fn(move || {
        let current = rest?;
        let line = match current.iter().position(|&b| b == b'\n') {
            Some(n) => {
                rest = Some(&current[n + 1..]);
                &current[..n]
            }
            None => {
                rest = None;
                current
            }
        };
        Some(line.strip_suffix(b"\r").unwrap_or(line))
    })
}

/// Appends one remark as a YAML document, exactly as LLVM 19's `YAMLRemarkSerializer`
/// writes it (see the module docs). A remark of type 0 gets no tag, as from LLVM 19 (whose
/// `llvm_unreachable` is compiled out); one past LLVM's last type, which LLVM's reader
/// rejects, gets the tag `!Type<N>`.
pub fn write_remark(remark: &Remark<'_>, out: &mut Vec<u8>) {
    let mut o = Out { buf: out, column: 0, padding: 0 };
    o.put(b"---");
    match (remark.remark_type.name(), remark.remark_type) {
        (Some(name), _) => {
            o.put(b" !");
            o.put(name.as_bytes());
        }
        (None, super::RemarkType::Other(n)) => {
            o.put(b" !Type");
            o.number(n);
        }
        (None, _) => {}
    }
    o.key(0, false, b"Pass");
    o.scalar(remark.pass.0);
    o.key(0, false, b"Name");
    o.scalar(remark.name.0);
    if let Some(loc) = &remark.loc {
        o.key(0, false, b"DebugLoc");
        o.debug_loc(loc);
    }
    o.key(0, false, b"Function");
    o.scalar(remark.function.0);
    if let Some(hotness) = remark.hotness {
        o.key(0, false, b"Hotness");
        o.number(hotness);
    }
    if !remark.args.is_empty() {
        o.key(0, false, b"Args");
        for arg in &remark.args {
            o.argument(arg);
        }
    }
    o.put(b"\n...\n");
}

/// `llvm::yaml::isNumeric`.
fn is_numeric(s: &[u8]) -> bool {
    fn skip_digits(s: &[u8]) -> &[u8] {
        let n = s.iter().take_while(|b| b.is_ascii_digit()).count();
        &s[n..]
    }
    if s.is_empty() || s == b"+" || s == b"-" {
        return false;
    }
    if matches!(s, b".nan" | b".NaN" | b".NAN") {
        return true;
    }
    let tail = match s[0] {
        b'-' | b'+' => &s[1..],
        _ => s,
    };
    if matches!(tail, b".inf" | b".Inf" | b".INF") {
        return true;
    }
    if let Some(octal) = s.strip_prefix(b"0o") {
        return !octal.is_empty() && octal.iter().all(|b| (b'0'..=b'7').contains(b));
    }
    if let Some(hex) = s.strip_prefix(b"0x") {
        return !hex.is_empty() && hex.iter().all(u8::is_ascii_hexdigit);
    }
    let mut s = tail;
    if s.first() == Some(&b'.') && (s.len() == 1 || !s[1].is_ascii_digit()) {
        return false;
    }
    if matches!(s.first(), Some(b'e' | b'E')) {
        return false;
    }
    s = skip_digits(s);
    if s.is_empty() {
        return true;
    }
    let mut exponent = false;
    if s[0] == b'.' {
        s = skip_digits(&s[1..]);
        if s.is_empty() {
            return true;
        }
        if matches!(s[0], b'e' | b'E') {
            exponent = true;
            s = &s[1..];
        } else {
            return false;
        }
    } else if matches!(s[0], b'e' | b'E') {
        exponent = true;
        s = &s[1..];
    }
    if !exponent {
        return false;
    }
    if s.is_empty() {
        return false;
    }
    if matches!(s[0], b'+' | b'-') {
        s = &s[1..];
        if s.is_empty() {
            return false;
        }
    }
    skip_digits(s).is_empty()
}

/// What a byte asks of a scalar holding it, in `needsQuotes`' loop: nothing
/// (alphanumerics and `_-^., \t`), single quotes, or double quotes (control characters,
/// DEL, and every byte of a non-ASCII character).
const BYTE_QUOTING: [Quoting; 256] = {
    let mut table = [Quoting::Single; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        table[c] = if b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'^' | b'.' | b',' | b' ' | b'\t') {
            Quoting::None
        } else if b <= 0x1F || b >= 0x7F {
            Quoting::Double
        } else {
            Quoting::Single
        };
        c += 1;
    }
    table
};

/// Whether a scalar starting with the byte needs quotes (YAML's indicator characters).
const INDICATOR: [bool; 256] = {
    let mut table = [false; 256];
    let indicators = b"-?:\\,[]{}#&*!|>'\"%@`";
    let mut i = 0;
    while i < indicators.len() {
        table[indicators[i] as usize] = true;
        i += 1;
    }
    table
};

/// `llvm::yaml::needsQuotes`.
fn needs_quotes(s: &[u8], force_preserve_as_string: bool) -> Quoting {
    let (Some(&first), Some(&last)) = (s.first(), s.last()) else { return Quoting::Single };
    let mut quoting = Quoting::None;
    for &c in s {
        match BYTE_QUOTING[c as usize] {
            Quoting::None => {}
            Quoting::Single => quoting = Quoting::Single,
            Quoting::Double => return Quoting::Double,
        }
    }
    if quoting == Quoting::Single {
        return quoting;
    }
    let is_space = |b: u8| matches!(b, b' ' | b'\t' | b'\n' | 0x0B | 0x0C | b'\r');
    if is_space(first) || is_space(last) || INDICATOR[first as usize] {
        return Quoting::Single;
    }
    if force_preserve_as_string
        && (matches!(s, b"null" | b"Null" | b"NULL" | b"~")
            || matches!(s, b"true" | b"True" | b"TRUE" | b"false" | b"False" | b"FALSE")
            || is_numeric(s))
    {
        return Quoting::Single;
    }
    Quoting::None
}

/// `llvm::yaml::escape(S, /*EscapePrintable=*/false)`, appended to `out`.
fn escape(s: &[u8], out: &mut Vec<u8>) {
    let mut i = 0;
    while i < s.len() {
        let c = s[i];
        match c {
            b'\\' => out.extend_from_slice(b"\\\\"),
            b'"' => out.extend_from_slice(b"\\\""),
            0 => out.extend_from_slice(b"\\0"),
            0x07 => out.extend_from_slice(b"\\a"),
            0x08 => out.extend_from_slice(b"\\b"),
            0x09 => out.extend_from_slice(b"\\t"),
            0x0A => out.extend_from_slice(b"\\n"),
            0x0B => out.extend_from_slice(b"\\v"),
            0x0C => out.extend_from_slice(b"\\f"),
            0x0D => out.extend_from_slice(b"\\r"),
            0x1B => out.extend_from_slice(b"\\e"),
            c if c < 0x20 => hex_escape(b'x', u32::from(c), 2, out),
            c if c & 0x80 != 0 => {
                let Some((scalar, len)) = decode_utf8(&s[i..]) else {
                    // LLVM writes U+FFFD and stops at the first invalid sequence.
                    out.extend_from_slice("\u{FFFD}".as_bytes());
                    return;
                };
                match scalar {
                    0x85 => out.extend_from_slice(b"\\N"),
                    0xA0 => out.extend_from_slice(b"\\_"),
                    0x2028 => out.extend_from_slice(b"\\L"),
                    0x2029 => out.extend_from_slice(b"\\P"),
                    u if is_printable(u) => out.extend_from_slice(&s[i..i + len]),
                    u if u <= 0xFF => hex_escape(b'x', u, 2, out),
                    u if u <= 0xFFFF => hex_escape(b'u', u, 4, out),
                    u => hex_escape(b'U', u, 8, out),
                }
                i += len;
                continue;
            }
            c => out.push(c),
        }
        i += 1;
    }
}

/// `\x`, `\u` or `\U` and `digits` uppercase hex digits (LLVM's `utohexstr`).
fn hex_escape(kind: u8, value: u32, digits: u32, out: &mut Vec<u8>) {
    out.push(b'\\');
    out.push(kind);
    for shift in (0..digits).rev() {
        let nibble = ((value >> (shift * 4)) & 0xF) as usize;
        out.push(b"0123456789ABCDEF"[nibble]);
    }
}

/// LLVM's `decodeUTF8`: one well-formed UTF-8 sequence (shortest form, no surrogates).
fn decode_utf8(s: &[u8]) -> Option<(u32, usize)> {
    let len = match s.first()? {
        0xC2..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF4 => 4,
        _ => return None,
    };
    let seq = s.get(..len)?;
    let c = core::str::from_utf8(seq).ok()?.chars().next()?;
    Some((u32::from(c), len))
}

/// An approximation of `llvm::sys::unicode::isPrintable` (see the module docs).
fn is_printable(u: u32) -> bool {
    !matches!(u,
        0x80..=0x9F
        | 0xAD
        | 0x600..=0x605
        | 0x61C
        | 0x6DD
        | 0x70F
        | 0x180E
        | 0x200B..=0x200F
        | 0x202A..=0x202E
        | 0x2060..=0x2064
        | 0x2066..=0x206F
        | 0xD800..=0xDFFF
        | 0xE000..=0xF8FF
        | 0xFDD0..=0xFDEF
        | 0xFEFF
        | 0xFFF9..=0xFFFB
        | 0x110BD
        | 0x1D173..=0x1D17A
        | 0xE0001
        | 0xE0020..=0xE007F
        | 0xF0000..=0x10FFFF)
        && u & 0xFFFE != 0xFFFE
}

impl Text<'_> {
    /// The string as `llvm::yaml::Output` writes a scalar value: plain, in single quotes
    /// or in double quotes with escapes.
    pub fn to_yaml(&self) -> Vec<u8> {
        let mut buf = Vec::new();
        let mut out = Out { buf: &mut buf, column: 0, padding: 0 };
        out.scalar(self.0);
        buf
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_quoted_as_llvm_quotes_them() {
        for s in ["0", "-15025", "1.5", ".5", "1e5", "1.e5", "0x1F", "0o17", ".inf", "-.Inf", ".nan"] {
            assert!(is_numeric(s.as_bytes()), "{s}");
        }
        for s in ["", "+", "-", ".", "e5", "1e", "1.5x", "0x", "0o8", "1-2", "..5"] {
            assert!(!is_numeric(s.as_bytes()), "{s}");
        }
    }

    #[test]
    fn quoting_follows_needs_quotes() {
        assert_eq!(Text(b"remarks.c").to_yaml(), b"remarks.c");
        assert_eq!(Text(b"").to_yaml(), b"''");
        assert_eq!(Text(b"'").to_yaml(), b"''''");
        assert_eq!(Text(b"/a/b").to_yaml(), b"'/a/b'");
        assert_eq!(Text(b"a\nb").to_yaml(), b"\"a\\nb\"");
        assert_eq!(Text(b"true").to_yaml(), b"'true'");
        assert_eq!(Text("é".as_bytes()).to_yaml(), "\"é\"".as_bytes());
        assert_eq!(Text(b"\x01").to_yaml(), b"\"\\x01\"");
    }

    #[test]
    fn block_scalar_lines_follow_line_iterator() {
        let got: Vec<&[u8]> = lines(b"a\n\nb\r\nc\n").collect();
        assert_eq!(got, [&b"a"[..], b"", b"b", b"c"]);
        assert_eq!(lines(b"").count(), 0);
    }
}
