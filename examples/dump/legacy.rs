//! LLVM 1.x bytecode: what the file is and its block tree (see `llvm_bitstream_reader::legacy`).

use std::io::{self, Write};
use std::process::ExitCode;

use llvm_bitstream_reader::legacy::{self, Block, Endianness, LegacyError, Module, PointerSize, Signature};

/// Describes an LLVM 1.x bytecode file and its block tree.
pub fn dump(path: &str, bytes: &[u8], out: &mut impl Write) -> io::Result<ExitCode> {
    let Some(signature) = legacy::detect(bytes) else {
        writeln!(out, "{path}: not LLVM 1.x bytecode")?;
        return Ok(ExitCode::from(1));
    };
    writeln!(out, "{path}: LLVM 1.x bytecode (the format before the bitstream)")?;
    writeln!(out, "  signature: {signature}")?;
    let decompressed;
    let input = match signature {
        Signature::Uncompressed | Signature::Compressed(legacy::Compression::Null) => bytes,
        Signature::Compressed(_) => match decompress(bytes) {
            Ok(Some(d)) => {
                writeln!(
                    out,
                    "  decompressed: {} bytes from {} (offsets below are in the decompressed module, after \"llvm\")",
                    d.len() - 4,
                    bytes.len()
                )?;
                decompressed = d;
                &decompressed
            }
            Ok(None) => {
                writeln!(out, "  blocks: not shown (build with --features legacy-compression to decompress)")?;
                return Ok(ExitCode::SUCCESS);
            }
            Err(e) => return report(out, e),
        },
    };
    let module = match Module::parse(input) {
        Ok(module) => module,
        Err(e) => return report(out, e),
    };
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
            legacy::HeaderForm::Long => "long (32-bit type, 32-bit size)",
            legacy::HeaderForm::Short => "short (5-bit type, 27-bit size)",
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
    Ok(ExitCode::SUCCESS)
}

fn write_block(out: &mut impl Write, block: &Block<'_>) -> io::Result<()> {
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

fn report(out: &mut impl Write, e: LegacyError) -> io::Result<ExitCode> {
    writeln!(out, "  error at byte {}: {e}", e.offset())?;
    Ok(ExitCode::from(2))
}

#[cfg(feature = "legacy-compression")]
fn decompress(bytes: &[u8]) -> Result<Option<Vec<u8>>, LegacyError> {
    Module::decompress(bytes).map(Some)
}

#[cfg(not(feature = "legacy-compression"))]
fn decompress(_: &[u8]) -> Result<Option<Vec<u8>>, LegacyError> {
    Ok(None)
}
