//! One diagnostic as one line, exactly as libclang's `clang_formatDiagnostic` prints it
//! with `clang_defaultDiagnosticDisplayOptions()` (source location, column, option).

use alloc::vec::Vec;
use core::fmt;

use super::{Diagnostic, Text};

impl<'d, 'a> Diagnostic<'d, 'a> {
    /// The line libclang's `clang_formatDiagnostic(diag, clang_defaultDiagnosticDisplayOptions())`
    /// prints, as bytes (the file's text need not be UTF-8):
    ///
    /// - `FILE:LINE:COLUMN: ` if the diagnostic has a location (nothing otherwise);
    /// - the level: `note: `, `warning: ` (remarks too: libclang has no remark severity),
    ///   `error: `, `fatal error: `;
    /// - the message;
    /// - ` [-WFLAG]` if a warning flag controls it.
    ///
    /// libclang hands strings on as C strings, so the file name, message and flag end at
    /// a NUL byte, if they hold one.
    pub fn write_formatted(&self, out: &mut Vec<u8>) {
        let location = self.location();
        if let Some(file) = location.file {
            out.extend_from_slice(file.name.until_nul());
            out.push(b':');
            push_decimal(out, location.line);
            out.push(b':');
            push_decimal(out, location.column);
            out.extend_from_slice(b": ");
        }
        out.extend_from_slice(self.level().libclang_prefix().as_bytes());
        out.extend_from_slice(self.message().until_nul());
        if let Some(flag) = self.flag() {
            let name = flag.name.until_nul();
            if !name.is_empty() {
                out.extend_from_slice(b" [-W");
                out.extend_from_slice(name);
                out.push(b']');
            }
        }
    }

    /// The libclang line as a `Display` value (invalid UTF-8 replaced); `Diagnostic`'s own
    /// `Display` is the same.
    pub fn formatted(&self) -> Formatted<'d, 'a> {
        Formatted(*self)
    }
}

/// A diagnostic's libclang line (see [`Diagnostic::write_formatted`]).
#[derive(Clone, Copy, Debug)]
pub struct Formatted<'d, 'a>(Diagnostic<'d, 'a>);

impl fmt::Display for Formatted<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut line = Vec::new();
        self.0.write_formatted(&mut line);
        fmt::Display::fmt(&Text(&line), f)
    }
}

impl fmt::Display for Diagnostic<'_, '_> {
    /// The line libclang's `clang_formatDiagnostic` prints (see
    /// [`Diagnostic::write_formatted`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.formatted(), f)
    }
}

/// Appends `n` in decimal.
fn push_decimal(out: &mut Vec<u8>, mut n: u32) {
    let mut digits = [0u8; 10];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[i..]);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimals() {
        for n in [0, 7, 10, 99, 100, 4_294_967_295] {
            let mut v = Vec::new();
            push_decimal(&mut v, n);
            assert_eq!(v, alloc::format!("{n}").into_bytes());
        }
    }
}
