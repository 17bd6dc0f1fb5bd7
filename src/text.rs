//! Text as the formats store it: bytes borrowed from the input, usually but not always
//! UTF-8 (clang writes what its sources and messages hold; LLVM's string tables do not
//! check). One type for the diagnostics, the remarks and whatever else prints file text.
//!
//! ```
//! use llvm_bitstream_reader::Text;
//!
//! let t = Text(b"caf\xc3\xa9 \xff");
//! assert_eq!(t.to_string(), "café \u{FFFD}"); // Display replaces invalid UTF-8
//! assert!(t.to_str().is_err());
//! assert_eq!(Text(b"main"), "main");
//! assert_eq!(Text(b"a\0b").until_nul(), b"a");
//! ```

use alloc::borrow::Cow;
use alloc::string::String;
use core::fmt;

/// Bytes from the input shown as text. `Display` and the `serde` form replace invalid
/// UTF-8 with U+FFFD; [`Text::as_bytes`] gives the bytes as they are.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Text<'a>(pub &'a [u8]);

impl<'a> Text<'a> {
    /// The bytes as stored.
    pub fn as_bytes(&self) -> &'a [u8] {
        self.0
    }

    /// The text, if it is valid UTF-8.
    pub fn to_str(&self) -> Result<&'a str, core::str::Utf8Error> {
        core::str::from_utf8(self.0)
    }

    /// The text, invalid UTF-8 replaced with U+FFFD (borrowed when valid).
    pub fn to_string_lossy(&self) -> Cow<'a, str> {
        String::from_utf8_lossy(self.0)
    }

    /// The length in bytes.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether the text is empty.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The bytes before the first NUL: what a C string of the text shows (libclang's).
    pub fn until_nul(&self) -> &'a [u8] {
        match self.0.iter().position(|&b| b == 0) {
            Some(n) => &self.0[..n],
            None => self.0,
        }
    }
}

impl fmt::Display for Text<'_> {
    /// Lossy UTF-8; honours width, fill and alignment (`{:<20}`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if f.width().is_some() || f.precision().is_some() {
            return f.pad(&self.to_string_lossy());
        }
        for chunk in self.0.utf8_chunks() {
            f.write_str(chunk.valid())?;
            if !chunk.invalid().is_empty() {
                f.write_str("\u{FFFD}")?;
            }
        }
        Ok(())
    }
}

impl fmt::Debug for Text<'_> {
    /// A string literal when valid UTF-8, else a byte string literal.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.to_str() {
            Ok(s) => fmt::Debug::fmt(s, f),
            Err(_) => write!(f, "b\"{}\"", self.0.escape_ascii()),
        }
    }
}

impl PartialEq<str> for Text<'_> {
    fn eq(&self, other: &str) -> bool {
        self.0 == other.as_bytes()
    }
}

impl PartialEq<&str> for Text<'_> {
    fn eq(&self, other: &&str) -> bool {
        self.0 == other.as_bytes()
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Text<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.to_str() {
            Ok(s) => serializer.serialize_str(s),
            Err(_) => serializer.collect_str(self),
        }
    }
}

/// `n` in decimal, written into the end of `buf`: the digits, without the formatting
/// machinery (the YAML of remarks and the IR printer write many small numbers), two at a
/// time (half the divisions: numbers were 4.5% of `--dis`'s instructions on sqlite3).
#[cfg(any(feature = "remarks", feature = "ir"))]
pub(crate) fn decimal_digits(mut n: u64, buf: &mut [u8; 20]) -> &[u8] {
    const PAIRS: &[u8; 200] = b"\
        0001020304050607080910111213141516171819\
        2021222324252627282930313233343536373839\
        4041424344454647484950515253545556575859\
        6061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899";
    let mut at = buf.len();
    while n >= 100 {
        let pair = (n % 100) as usize * 2;
        n /= 100;
        at -= 2;
        buf[at..at + 2].copy_from_slice(&PAIRS[pair..pair + 2]);
    }
    if n >= 10 {
        let pair = n as usize * 2;
        at -= 2;
        buf[at..at + 2].copy_from_slice(&PAIRS[pair..pair + 2]);
    } else {
        at -= 1;
        buf[at] = b'0' + n as u8;
    }
    &buf[at..]
}

/// `n` in upper-case hexadecimal without leading zeros (`format!("{n:X}")`), written into
/// the end of `buf`: the IR printer writes every double that does not read back from six
/// digits so (`0x3FB99999A0000000`), two thirds of libclc's float constants.
#[cfg(feature = "ir")]
pub(crate) fn hex_digits(mut n: u64, buf: &mut [u8; 16]) -> &[u8] {
    let mut at = buf.len();
    loop {
        at -= 1;
        buf[at] = b"0123456789ABCDEF"[(n & 0xf) as usize];
        n >>= 4;
        if n == 0 {
            return &buf[at..];
        }
    }
}

#[cfg(all(test, any(feature = "remarks", feature = "ir")))]
mod tests {
    /// The digits are `format!`'s, at every length and at each edge of the pairs.
    #[test]
    fn decimal_digits_are_formats() {
        let mut n = 1u64;
        let mut cases = alloc::vec![0, u64::MAX, u64::MAX - 1];
        for _ in 0..20 {
            cases.extend([n - 1, n, n.saturating_add(1), n.saturating_mul(5), n.saturating_mul(9)]);
            n = n.saturating_mul(10);
        }
        for v in cases {
            let mut buf = [0; 20];
            assert_eq!(super::decimal_digits(v, &mut buf), alloc::format!("{v}").as_bytes(), "{v}");
        }
    }

    /// The digits are `format!("{:X}")`'s, at every length.
    #[cfg(feature = "ir")]
    #[test]
    fn hex_digits_are_formats() {
        let mut cases = alloc::vec![0, 1, 0xf, 0x10, u64::MAX, 0x3FB9_9999_A000_0000];
        cases.extend((0..64).map(|shift| 1u64 << shift));
        cases.extend((1..64).map(|shift| (1u64 << shift) - 1));
        for v in cases {
            let mut buf = [0; 16];
            assert_eq!(super::hex_digits(v, &mut buf), alloc::format!("{v:X}").as_bytes(), "{v:#x}");
        }
    }
}
