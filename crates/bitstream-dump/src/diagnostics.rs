//! `--diagnostics`: a clang serialized-diagnostics file (`.dia`) as libclang prints it, one
//! line per diagnostic, or (`--format json`) as its full structure.

use std::io::Write;

use llvm_bitstream_reader::diag::Diagnostics;

use crate::io_text;

/// Writes every diagnostic of `bytes`: with `json`, one JSON object (tables, and the
/// diagnostics with their ranges, fix-its and notes nested); else one line each, exactly
/// as libclang's `clang_formatDiagnostic` with the default options, each followed by its
/// notes, recursively. On a damaged file what was read before the damage is written, then
/// the error is returned.
pub fn write_diagnostics(bytes: &[u8], json: bool, out: &mut impl Write) -> Result<(), String> {
    let (diags, error) = Diagnostics::parse_partial(bytes);
    if json {
        serde_json::to_writer(&mut *out, &diags).map_err(|e| io_text(e.into()))?;
        out.write_all(b"\n").map_err(io_text)?;
    } else {
        let mut line = Vec::with_capacity(256);
        for (_, d) in diags.walk() {
            line.clear();
            d.write_formatted(&mut line);
            line.push(b'\n');
            out.write_all(&line).map_err(io_text)?;
        }
    }
    match error {
        None => Ok(()),
        Some(e) => Err(e.to_string()),
    }
}
