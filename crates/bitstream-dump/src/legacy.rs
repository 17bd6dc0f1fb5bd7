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

use std::io::Write;

use llvm_bitstream_reader::legacy::{self, Block, Endianness, HeaderForm, LegacyError, Module, PointerSize, Signature};

use crate::io_text;

/// Describes the LLVM 1.x bytecode `bytes` (with its `signature`) and its block tree,
/// decompressing `llvc1`/`llvc2` files. A malformed file is described up to the error,
/// which is returned.
pub fn describe(name: &str, bytes: &[u8], signature: Signature, out: &mut impl Write) -> Result<(), String> {
    writeln!(out, "LLVM 1.x bytecode (the format before the bitstream): {name}").map_err(io_text)?;
    writeln!(out, "  signature: {signature}").map_err(io_text)?;
    let decompressed;
    let input = match signature {
        Signature::Uncompressed | Signature::Compressed(legacy::Compression::Null) => bytes,
        Signature::Compressed(_) => {
            let d = Module::decompress(bytes).map_err(|e: LegacyError| e.to_string())?;
            writeln!(
                out,
                "  decompressed: {} bytes from {} (offsets below are in the decompressed module, after \"llvm\")",
                d.len().saturating_sub(4),
                bytes.len()
            )
            .map_err(io_text)?;
            decompressed = d;
            &decompressed
        }
    };
    let module = Module::parse(input).map_err(|e: LegacyError| e.to_string())?;
    write_module(&module, out).map_err(io_text)
}

fn write_module(module: &Module<'_>, out: &mut impl Write) -> std::io::Result<()> {
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
