//! `--summary`: per IR module, what it is and where its bits go.
//!
//! ```text
//! testdata/rustc_llvm22_o0_debuginfo.bc: module 0
//!   producer:        LLVM22.1.2-rust-1.95.0-stable
//!   target triple:   x86_64-unknown-linux-gnu
//!   datalayout:      e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128
//!   source filename: rust_sample.279c18d62e5b6ffb-cgu.0
//!   globals: 126  functions: 290  declarations: 51  aliases: 0  ifuncs: 0
//!   metadata: 2535445 bits (58.2% of the stream); debug info: 1634838 bits (37.5%)
//!   largest function bodies:
//!       337504 bits  _ZN5alloc3str17join_generic_copy17h763c8cf1cac0ad32E
//!   …
//! ```
//!
//! Definitions (the numbers are bits of the stream, block headers included):
//! - *metadata*: every METADATA block (module level and inside function bodies) and every
//!   METADATA_ATTACHMENT block;
//! - *debug info*: the debug-info records among them, DILocation and every `DI*` node
//!   (METADATA codes 7, 12–34, 37, 40–49), plus the debug locations and debug records of
//!   function bodies (FUNC_CODE_DEBUG_LOC, DEBUG_LOC_AGAIN, DEBUG_RECORD_*). Strings
//!   (METADATA_STRINGS), which debug info uses most, are metadata but not counted here.

use std::io::Write;

use llvm_bitstream_reader::Error as IrError;
use llvm_bitstream_reader::container::Embedded;
use llvm_bitstream_reader::ids::is_debug_info_body_record;
use llvm_bitstream_reader::ids::llvm_ir::raw as ids;
use llvm_bitstream_reader::ir::{Module, is_debug_info_record};
use llvm_bitstream_reader::{Entry, Magic, Reader};

use crate::{Failed, io_text};

/// How many function bodies are listed.
const LARGEST: usize = 20;

/// Bits of metadata and of debug info in a module.
#[derive(Default, Clone, Copy)]
struct DebugBits {
    metadata: u64,
    debug_info: u64,
}

/// Walks the block just entered (of id `block_id`), counting as it goes; only record
/// codes are read.
fn walk_block(reader: &mut Reader<'_>, block_id: u32, in_metadata: bool, bits: &mut DebugBits) -> Result<(), IrError> {
    while let Some(entry) = reader.advance()? {
        match entry {
            Entry::EnterBlock(b) => {
                let size = b.end_bit().saturating_sub(b.header_bit);
                match b.block_id.0 {
                    ids::METADATA_BLOCK_ID => {
                        bits.metadata += size;
                        walk_block(reader, b.block_id.0, true, bits)?;
                    }
                    ids::METADATA_ATTACHMENT_ID => {
                        bits.metadata += size;
                        reader.skip_block()?;
                    }
                    ids::FUNCTION_BLOCK_ID => walk_block(reader, b.block_id.0, false, bits)?,
                    _ => {
                        reader.skip_block()?;
                    }
                }
            }
            Entry::Record { bit, .. } => {
                let code = reader.skip_record()?;
                let debug = if in_metadata {
                    is_debug_info_record(code)
                } else {
                    block_id == ids::FUNCTION_BLOCK_ID && is_debug_info_body_record(code)
                };
                if debug {
                    bits.debug_info += reader.bit_offset().saturating_sub(bit);
                }
            }
            Entry::EndBlock(_) => break,
            _ => {}
        }
    }
    Ok(())
}

fn debug_bits(module: &Module<'_>) -> Result<DebugBits, IrError> {
    let mut bits = DebugBits::default();
    let mut reader = module.block.reader()?;
    reader.advance()?;
    walk_block(&mut reader, ids::MODULE_BLOCK_ID, false, &mut bits)?;
    Ok(bits)
}

fn percent(part: u64, whole: u64) -> f64 {
    if whole == 0 { 0.0 } else { part as f64 * 100.0 / whole as f64 }
}

/// Summarizes every module of one bitstream. A cut or damaged stream is summarized as
/// far as it goes (the modules and function bodies before the break, with the names
/// debug info gives where the file's are gone), then its error is returned.
pub fn write_summary(e: &Embedded<'_>, json: bool, out: &mut impl Write) -> Result<(), Failed> {
    let input = |err: &dyn std::fmt::Display| Failed::at(&e.provenance, err);
    let stream = e.bitstream().map_err(|err| input(&err))?;
    if stream.magic() != Magic::LlvmIr {
        return Err(input(&"not LLVM IR bitcode: no modules to summarize"));
    }
    let stream_bits = stream.bytes().len() as u64 * 8;
    let (modules, error) = Module::parse_all_partial(e.bytes);
    for m in &modules {
        let bits = debug_bits(m).map_err(|err| input(&err))?;
        let bodies = m.bodies().ok();
        let name_of = |f: &llvm_bitstream_reader::ir::Function<'_>| {
            if !f.common.name.is_empty() {
                return f.common.name_str().into_owned();
            }
            match bodies.as_ref().and_then(|b| b.recovered_name(f.common.value_id)) {
                Some(r) => format!("@{} (recovered: {})", f.common.value_id, r.name_str()),
                None => format!("@{}", f.common.value_id),
            }
        };
        let mut largest: Vec<(u64, String)> =
            m.definitions().filter_map(|f| Some((f.body_bits()?, name_of(f)))).collect();
        largest.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
        largest.truncate(LARGEST);
        let declarations = m.functions.iter().filter(|f| f.is_declaration).count();
        let aliases = m.aliases.iter().filter(|a| !a.is_ifunc).count();
        let ifuncs = m.aliases.len() - aliases;
        let module_bits = {
            let b = m.block.bookmark();
            b.end_bit().saturating_sub(b.header_bit)
        };
        // A module cut short: where, and how many definitions kept their body.
        let cut = m.block.cut_bit().map(|bit| (bit, m.definitions().filter(|f| f.body.is_some()).count()));
        if json {
            let value = serde_json::json!({
                "stream": e.provenance.to_string(),
                "module": m.index,
                "producer": m.producer,
                "target_triple": m.triple,
                "datalayout": m.datalayout,
                "source_filename": m.source_filename,
                "globals": m.globals.len(),
                "functions": m.functions.len() - declarations,
                "declarations": declarations,
                "aliases": aliases,
                "ifuncs": ifuncs,
                "module_bits": module_bits,
                "stream_bits": stream_bits,
                "metadata_bits": bits.metadata,
                "debug_info_bits": bits.debug_info,
                "largest_function_bodies": largest.iter().map(|(b, n)| serde_json::json!({"name": n, "bits": b})).collect::<Vec<_>>(),
                "cut": cut.map(|(bit, with_body)| serde_json::json!({"bit": bit, "byte": bit / 8, "definitions_with_body": with_body})),
            });
            writeln!(out, "{value}").map_err(io_text)?;
            continue;
        }
        let none = "(none)";
        writeln!(out, "{}: module {}", e.provenance, m.index).map_err(io_text)?;
        writeln!(out, "  producer:        {}", m.producer.as_deref().unwrap_or(none)).map_err(io_text)?;
        writeln!(out, "  target triple:   {}", m.triple.as_deref().unwrap_or(none)).map_err(io_text)?;
        writeln!(out, "  datalayout:      {}", m.datalayout.as_deref().unwrap_or(none)).map_err(io_text)?;
        writeln!(out, "  source filename: {}", m.source_filename.as_deref().unwrap_or(none)).map_err(io_text)?;
        writeln!(
            out,
            "  globals: {}  functions: {}  declarations: {declarations}  aliases: {aliases}  ifuncs: {ifuncs}",
            m.globals.len(),
            m.functions.len() - declarations
        )
        .map_err(io_text)?;
        writeln!(
            out,
            "  metadata: {} bits ({:.1}% of the stream); debug info: {} bits ({:.1}%)",
            bits.metadata,
            percent(bits.metadata, stream_bits),
            bits.debug_info,
            percent(bits.debug_info, stream_bits)
        )
        .map_err(io_text)?;
        if let Some((bit, with_body)) = cut {
            writeln!(
                out,
                "  cut:             at byte {} (bit {bit}); {with_body} of {} definitions have their body",
                bit / 8,
                m.functions.len() - declarations
            )
            .map_err(io_text)?;
        }
        writeln!(out, "  largest function bodies:").map_err(io_text)?;
        for (b, name) in &largest {
            writeln!(out, "  {b:>10} bits  {name}").map_err(io_text)?;
        }
    }
    match error {
        Some(err) => Err(input(&crate::broke_at(&err))),
        None => Ok(()),
    }
}
