//! `--remarks`: the optimization remarks of a bitstream remarks container, as YAML byte
//! for byte as `llvm-remarkutil bitstream2yaml` (LLVM 19) prints them, or as JSON lines
//! (`--format json`: the container's META first, then one remark per line).
//!
//! FILE may be a remarks container or an object file with a remarks section. A meta
//! container (the separate layout) is followed to the remarks file it names, as LLVM
//! does; `--remarks-with OTHER` gives the other half of a separate layout instead (the
//! meta container for a remarks file without a string table, or the remarks file for a
//! meta container).

use std::io::Write;

use llvm_bitstream_reader::Error as RemarksError;
use llvm_bitstream_reader::remarks::{self, Remarks, RemarksFile, yaml};

/// The output is flushed in pieces of about this size.
const CHUNK: usize = 1 << 16;

/// Reads `bytes` (named `name`) and writes its remarks; `with` is the other half of a
/// separate layout, if given. A cut or damaged file gives every remark read whole before
/// the break, then the error at the break (one error: the one `parse_partial` found).
pub fn run(bytes: &[u8], with: Option<&[u8]>, json: bool, out: &mut impl Write) -> Result<(), String> {
    let bytes = container_bytes(bytes)?;
    let (file, cut) = RemarksFile::parse_partial(bytes);
    let Some(file) = file else {
        return Err(cut.map_or_else(|| "not a remarks container".to_string(), |e| e.to_string()));
    };
    // The break, if there is one, is the error to report, whatever fails after it.
    let at_break = |other: String| cut.as_ref().map_or(other, ToString::to_string);
    let external;
    let other = match with {
        Some(other) => Some(RemarksFile::parse(container_bytes(other)?).map_err(|e| format!("--remarks-with: {e}"))?),
        None if file.meta().container_type.is_meta() => {
            // As LLVM: the path as written, relative to the working directory.
            let path = file.external_file().map(|p| p.to_string()).unwrap_or_default();
            external = std::fs::read(&path).map_err(|e| format!("'{path}': {e}"))?;
            Some(RemarksFile::parse(&external).map_err(|e| format!("'{path}': {e}"))?)
        }
        None => None,
    };
    let remarks = match &other {
        Some(other) if file.meta().container_type.is_meta() => RemarksFile::combine(&file, other),
        Some(other) => RemarksFile::combine(other, &file),
        None => file.remarks(),
    }
    .map_err(|e| match e {
        RemarksError::NotInStream { .. } => format!("{e} (give the other file with --remarks-with)"),
        e => e.to_string(),
    })
    .map_err(at_break)?;
    if json {
        serde_json::to_writer(&mut *out, &serde_json::json!({ "meta": file.meta() })).map_err(|e| e.to_string())?;
        out.write_all(b"\n").map_err(|e| e.to_string())?;
    }
    write_remarks(remarks, json, out).map_err(at_break)?;
    match cut {
        Some(e) => Err(e.to_string()),
        None => Ok(()),
    }
}

/// The remarks container itself, or the remarks section of an object file.
fn container_bytes(bytes: &[u8]) -> Result<&[u8], String> {
    // Empty: a remarks file without remarks, as opt-22 writes when no pass made one.
    if bytes.starts_with(b"RMRK") || bytes.is_empty() {
        return Ok(bytes);
    }
    remarks::find_in_object(bytes)
        .ok_or_else(|| "not a remarks container (RMRK), nor an object file with a remarks section".to_string())
}

fn write_remarks(mut remarks: Remarks<'_, '_>, json: bool, out: &mut impl Write) -> Result<(), String> {
    let mut buf = Vec::with_capacity(CHUNK * 2);
    let result = loop {
        match remarks.next_remark() {
            Ok(Some(remark)) => {
                if json {
                    serde_json::to_writer(&mut buf, remark).map_err(|e| e.to_string())?;
                    buf.push(b'\n');
                } else {
                    yaml::write_remark(remark, &mut buf);
                }
                if buf.len() >= CHUNK {
                    out.write_all(&buf).map_err(crate::io_text)?;
                    buf.clear();
                }
            }
            Ok(None) => break Ok(()),
            Err(e) => break Err(e),
        }
    };
    // What was read before an error is written before the error.
    out.write_all(&buf).map_err(crate::io_text)?;
    result.map_err(|e: RemarksError| e.to_string())
}
