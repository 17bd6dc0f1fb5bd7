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
        // Every byte is ASCII.
        for &c in name {
            f.write_char(char::from(c))?;
        }
        Ok(())
    } else {
        f.write_char('"')?;
        write_escaped(f, name)?;
        f.write_char('"')
    }
}

/// LLVM's `printEscapedString`: printable ASCII as is, except `\` and `"`, which (like
/// every other byte) are written as `\XX`.
pub(crate) fn write_escaped(f: &mut dyn fmt::Write, s: &[u8]) -> fmt::Result {
    for &c in s {
        // `printEscapedString`: a backslash doubled, other unprintables and `"` in hex.
        if c == b'\\' {
            f.write_str("\\\\")?;
        } else if (0x20..0x7f).contains(&c) && c != b'"' {
            f.write_char(char::from(c))?;
        } else {
            write!(f, "\\{c:02X}")?;
        }
    }
    Ok(())
}
