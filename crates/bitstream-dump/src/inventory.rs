//! `--list`: one line per bitstream (provenance, magic, size, wrapper), its embedded
//! command line, and one line per module of an LLVM IR stream.
//!
//! ```text
//! testdata/containers/gnu_ab.a(elf_a.o):.llvmbc  magic=4243c0de bytes=2548
//!   cmdline: -cc1 -triple x86_64-unknown-linux-gnu -emit-obj ... -O1
//!   module 0: source_filename="a.c" triple="x86_64-unknown-linux-gnu" producer="LLVM14.0.6" epoch=0 module_bit=256 strtab=60 bytes
//!   symtab: 184 bytes
//! ```

use std::io::Write;

use llvm_bitstream_reader::Magic;
use llvm_bitstream_reader::container::Embedded;
use llvm_bitstream_reader::ir::{Inventory, Module};

use crate::io_text;

/// Lists one bitstream; an error in it (the message says where) is returned after what
/// was listed before it.
pub fn write_inventory(e: &Embedded<'_>, out: &mut impl Write) -> Result<(), crate::Failed> {
    let input = |err: &dyn std::fmt::Display| crate::Failed::at(&e.provenance, err);
    let stream = e.bitstream().map_err(|err| input(&err))?;
    let [a, b, c, d] = stream.magic().bytes();
    write!(out, "{}  magic={a:02x}{b:02x}{c:02x}{d:02x} bytes={}", e.provenance, e.bytes.len()).map_err(io_text)?;
    if let Some(w) = stream.wrapper() {
        write!(out, " wrapper(cputype={})", w.cpu_type).map_err(io_text)?;
    }
    writeln!(out).map_err(io_text)?;
    if e.cmdline.is_some() {
        writeln!(out, "  cmdline: {}", e.cmdline_args().join(" ")).map_err(io_text)?;
    }
    if stream.magic() != Magic::LlvmIr {
        return Ok(());
    }
    let inventory = match Inventory::of(&stream) {
        Ok(inventory) => inventory,
        Err(err) => {
            // A cut or damaged stream: the modules it holds, as far as each goes.
            let (modules, error) = Module::parse_all_partial(e.bytes);
            for m in &modules {
                writeln!(
                    out,
                    "  module {}: source_filename={:?} triple={:?} producer={:?} epoch={} module_bit={} strtab=- cut_bit={}",
                    m.index,
                    m.source_filename.as_deref().unwrap_or("-"),
                    m.triple.as_deref().unwrap_or("-"),
                    m.producer.as_deref().unwrap_or("-"),
                    m.epoch.map_or("-".to_string(), |e| e.to_string()),
                    m.block.bookmark().header_bit,
                    m.block.cut_bit().map_or("-".to_string(), |b| b.to_string()),
                )
                .map_err(io_text)?;
            }
            return Err(input(&crate::broke_at(&error.unwrap_or(err))));
        }
    };
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
        )
        .map_err(io_text)?;
    }
    if let Some(symtab) = inventory.symtab {
        writeln!(out, "  symtab: {} bytes", symtab.len()).map_err(io_text)?;
    }
    Ok(())
}
