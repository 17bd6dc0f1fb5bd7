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
                let line = ModuleLine {
                    index: m.index,
                    source_filename: m.source_filename.as_deref(),
                    triple: m.triple.as_deref(),
                    producer: m.producer.as_deref(),
                    epoch: m.epoch,
                    module_bit: m.block.bookmark().header_bit,
                    strtab: None,
                    cut_bit: m.block.cut_bit(),
                };
                line.write(out)?;
            }
            return Err(input(&crate::broke_at(&error.unwrap_or(err))));
        }
    };
    for m in &inventory.modules {
        let names = m.names().map_err(|err| input(&err))?;
        let line = ModuleLine {
            index: m.index,
            source_filename: names.source_filename.as_deref(),
            triple: names.triple.as_deref(),
            producer: m.identification.as_ref().map(|i| i.producer.as_str()),
            epoch: m.identification.as_ref().and_then(|i| i.epoch),
            module_bit: m.module_bookmark().header_bit,
            strtab: m.strtab.map(<[u8]>::len),
            cut_bit: None,
        };
        line.write(out)?;
    }
    if let Some(symtab) = inventory.symtab {
        writeln!(out, "  symtab: {} bytes", symtab.len()).map_err(io_text)?;
    }
    Ok(())
}

/// One module's line of the listing.
struct ModuleLine<'s> {
    index: usize,
    source_filename: Option<&'s str>,
    triple: Option<&'s str>,
    producer: Option<&'s str>,
    epoch: Option<u64>,
    module_bit: u64,
    /// The STRTAB's size, if the module has one.
    strtab: Option<usize>,
    /// Where a module of a cut stream breaks.
    cut_bit: Option<u64>,
}

impl ModuleLine<'_> {
    fn write(&self, out: &mut impl Write) -> Result<(), crate::Failed> {
        let or_dash = |v: Option<String>| v.unwrap_or_else(|| "-".to_string());
        write!(
            out,
            "  module {}: source_filename={:?} triple={:?} producer={:?} epoch={} module_bit={} strtab={}",
            self.index,
            self.source_filename.unwrap_or("-"),
            self.triple.unwrap_or("-"),
            self.producer.unwrap_or("-"),
            or_dash(self.epoch.map(|e| e.to_string())),
            self.module_bit,
            or_dash(self.strtab.map(|n| format!("{n} bytes"))),
        )
        .map_err(io_text)?;
        if let Some(bit) = self.cut_bit {
            write!(out, " cut_bit={bit}").map_err(io_text)?;
        }
        writeln!(out).map_err(io_text)?;
        Ok(())
    }
}
