//! LLVM 1.x bytecode: what the file is and its block tree (see `llvm_bitstream_reader::legacy`).
//!
//! ```text
//! LLVM 1.x bytecode (the format before the bitstream): old.bc
//!   signature: llvm (uncompressed)
//!   bytecode version: ...
//!   endianness: ...
//!   pointer size: ...
//!   format information: ...
//!   block headers: ...; 32-bit alignment: ...
//!   @OFFSET   Module (type 1): SIZE bytes
//!   @OFFSET     BLOCK (type ID): SIZE bytes[, linkage N (NAME)]
//! ```

use std::borrow::Cow;
use std::io::Write;

use llvm_bitstream_reader::legacy::{
    self, Block, Bytecode, Endianness, HeaderForm, LegacyError, PointerSize, Signature,
};

use crate::io_text;

/// Describes the LLVM 1.x bytecode `bytes` (with its `signature`) and its block tree,
/// decompressing `llvc1`/`llvc2` files. A malformed or cut file is described up to the
/// error (every block before the first broken one), which is returned.
pub fn describe(name: &str, bytes: &[u8], signature: Signature, out: &mut impl Write) -> Result<(), String> {
    writeln!(out, "LLVM 1.x bytecode (the format before the bitstream): {name}").map_err(io_text)?;
    writeln!(out, "  signature: {signature}").map_err(io_text)?;
    let input = uncompressed(bytes)?;
    if let Cow::Owned(_) = input {
        writeln!(
            out,
            "  decompressed: {} bytes from {} (offsets below are in the decompressed module, after \"llvm\")",
            input.len().saturating_sub(4),
            bytes.len()
        )
        .map_err(io_text)?;
    }
    let (module, error) = Bytecode::parse_partial(&input);
    if let Some(module) = module {
        write_module(&module, out).map_err(io_text)?;
    }
    match error {
        Some(e) => Err(e.to_string()),
        None => Ok(()),
    }
}

/// The file's bytes, decompressed if it is `llvc1` or `llvc2`.
fn uncompressed(bytes: &[u8]) -> Result<Cow<'_, [u8]>, String> {
    match legacy::detect(bytes) {
        Some(Signature::Compressed(legacy::Compression::Gzip | legacy::Compression::Bzip2)) => {
            Ok(Cow::Owned(Bytecode::decompress(bytes).map_err(|e: LegacyError| e.to_string())?))
        }
        _ => Ok(Cow::Borrowed(bytes)),
    }
}

/// `--dis` on a 1.x file: the module in LLVM 1.x assembly. A module that breaks off is
/// printed as far as it reads, then the error is returned.
pub fn disassemble(path: &str, bytes: &[u8], out: &mut impl Write) -> Result<(), String> {
    let input = uncompressed(bytes)?;
    let (module, error) = legacy::Module::parse_partial(&input);
    if let Some(module) = module {
        write!(out, "{}", module.display().with_module_id(path)).map_err(io_text)?;
    }
    match error {
        Some(e) => Err(e.to_string()),
        None => Ok(()),
    }
}

fn write_module(module: &Bytecode<'_>, out: &mut impl Write) -> std::io::Result<()> {
    let format = module.format();
    writeln!(out, "  bytecode version: {}", format.version)?;
    let endianness = match format.endianness {
        Endianness::Little => "little-endian",
        Endianness::Big => "big-endian",
        Endianness::Unspecified => "unspecified",
    };
    let pointers = match format.pointer_size {
        PointerSize::Bits32 => "32-bit",
        PointerSize::Bits64 => "64-bit",
        PointerSize::Unspecified => "unspecified",
    };
    writeln!(out, "  endianness: {endianness}")?;
    writeln!(out, "  pointer size: {pointers}")?;
    writeln!(out, "  format information: {:#x}", format.raw)?;
    writeln!(
        out,
        "  block headers: {}; 32-bit alignment: {}",
        match module.header_form() {
            HeaderForm::Long => "long (32-bit type, 32-bit size)",
            HeaderForm::Short => "short (5-bit type, 27-bit size)",
        },
        if format.version.is_aligned() { "yes" } else { "no" }
    )?;
    writeln!(out, "  @{:<8} Module (type 1): {} bytes", module.offset(), module.size())?;
    for block in module.walk() {
        write_block(out, &block)?;
    }
    if !module.trailing().is_empty() {
        writeln!(out, "  {} trailing bytes after the module block (ignored)", module.trailing().len())?;
    }
    Ok(())
}

fn write_block(out: &mut impl Write, block: &Block<'_>) -> std::io::Result<()> {
    let indent = "  ".repeat(block.depth);
    write!(out, "  @{:<8} {indent}{} (type {:#x}): {} bytes", block.offset, block.name(), block.id, block.size())?;
    if let Some(linkage) = block.linkage() {
        let name = match linkage {
            0 => "external",
            1 => "weak",
            2 => "appending",
            3 => "internal",
            4 => "linkonce",
            _ => "unknown",
        };
        write!(out, ", linkage {linkage} ({name})")?;
    }
    writeln!(out)
}
