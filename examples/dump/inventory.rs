//! Containers: each embedded bitstream with its provenance, dumped or listed.

use std::io::{self, Write};

use llvm_bitstream_reader::Magic;
use llvm_bitstream_reader::container::Embedded;
use llvm_bitstream_reader::modules::Inventory;

/// Why writing one bitstream stopped.
pub enum Problem {
    /// The input is malformed (the message says where).
    Input(String),
    /// Writing the output failed.
    Output,
}

impl From<io::Error> for Problem {
    fn from(_: io::Error) -> Self {
        Problem::Output
    }
}

/// One line per bitstream, and one per module of an LLVM IR stream.
pub fn write_inventory(e: &Embedded<'_>, out: &mut impl Write) -> Result<(), Problem> {
    let input = |err: &dyn std::fmt::Display| Problem::Input(format!("{}: {err}", e.provenance));
    let stream = e.bitstream().map_err(|err| input(&err))?;
    let [a, b, c, d] = stream.magic().bytes();
    write!(out, "{}  magic={a:02x}{b:02x}{c:02x}{d:02x} bytes={}", e.provenance, e.bytes.len())?;
    if let Some(w) = stream.wrapper() {
        write!(out, " wrapper(cputype={})", w.cpu_type)?;
    }
    writeln!(out)?;
    if e.cmdline.is_some() {
        writeln!(out, "  cmdline: {}", e.cmdline_args().join(" "))?;
    }
    if stream.magic() != Magic::LlvmIr {
        return Ok(());
    }
    let inventory = Inventory::read(&stream).map_err(|err| input(&err))?;
    for m in &inventory.modules {
        let names = m.names().map_err(|err| input(&err))?;
        let (producer, epoch) = match &m.identification {
            Some(i) => (i.producer.as_str(), i.epoch.map_or("-".to_string(), |e| e.to_string())),
            None => ("-", "-".to_string()),
        };
        writeln!(
            out,
            "  module {}: source_filename={:?} triple={:?} producer={producer:?} epoch={epoch} module_bit={} strtab={}",
            m.index,
            names.source_filename.as_deref().unwrap_or("-"),
            names.triple.as_deref().unwrap_or("-"),
            m.module_bookmark().header_bit,
            m.strtab.map_or("-".to_string(), |s| format!("{} bytes", s.len())),
        )?;
    }
    if let Some(symtab) = inventory.symtab {
        writeln!(out, "  symtab: {} bytes", symtab.len())?;
    }
    Ok(())
}
