//! Names and strings escaped as LLVM's `AsmWriter` escapes them: every printer of
//! `llvm-dis` text quotes through these.

use core::fmt;

/// Writes a name as LLVM's `printLLVMNameWithoutPrefix` does: bare if every character
/// is one of `[-a-zA-Z._0-9]` (not `$`, which the lexer reads but the printer quotes)
/// and it does not start with a digit, else quoted with `\XX` escapes.
pub(crate) fn write_llvm_name(f: &mut dyn fmt::Write, name: &[u8]) -> fmt::Result {
    let bare = !name.is_empty()
        && !name[0].is_ascii_digit()
        && name.iter().all(|&c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'.' | b'_'));
    if bare {
        // Every byte is ASCII, so the name is its own text: one write, not one a
        // character (names were 6% of `--dis` on rustc's O3 output).
        f.write_str(core::str::from_utf8(name).map_err(|_| fmt::Error)?)
    } else {
        f.write_char('"')?;
        write_escaped(f, name)?;
        f.write_char('"')
    }
}

/// LLVM's `printEscapedString`: printable ASCII as is, except `\` and `"`, which (like
/// every other byte) are written as `\XX`.
pub(crate) fn write_escaped(f: &mut dyn fmt::Write, s: &[u8]) -> fmt::Result {
    let plain = |c: u8| (0x20..0x7f).contains(&c) && c != b'"' && c != b'\\';
    let mut rest = s;
    while !rest.is_empty() {
        // The run of bytes printed as they are, in one write (printable ASCII is UTF-8).
        let run = rest.iter().position(|&c| !plain(c)).unwrap_or(rest.len());
        if run > 0 {
            f.write_str(core::str::from_utf8(&rest[..run]).map_err(|_| fmt::Error)?)?;
        }
        let Some(&c) = rest.get(run) else { break };
        // `printEscapedString`: a backslash doubled, other unprintables and `"` in hex.
        if c == b'\\' {
            f.write_str("\\\\")?;
        } else {
            const HEX: &[u8; 16] = b"0123456789ABCDEF";
            f.write_char('\\')?;
            f.write_char(char::from(HEX[usize::from(c >> 4)]))?;
            f.write_char(char::from(HEX[usize::from(c & 15)]))?;
        }
        rest = &rest[run + 1..];
    }
    Ok(())
}
