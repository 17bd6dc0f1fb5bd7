//! The modules of an LLVM IR bitcode stream, listed the way LLVM's
//! `getBitcodeFileContents` lists them.
//!
//! One bitcode stream may hold several modules: `llvm-cat -b` and ThinLTO write several
//! IDENTIFICATION + MODULE groups after one magic, each followed (or not) by a STRTAB,
//! with at most one SYMTAB that LLVM uses. [`Inventory::read`] walks only the top level
//! of the stream: module blocks are skipped in O(1) (kept as [`LazyBlock`]s to read
//! later), and only the small IDENTIFICATION, STRTAB and SYMTAB blocks are decoded.
//! [`Module::parse_all`](crate::ir::Module::parse_all) reads every module it lists.
//!
//! ```
//! use llvm_bitstream_reader::ir::Inventory;
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/llvm14_multi_module_cat.bc"))?;
//! let inventory = Inventory::parse(&bytes)?;
//! assert_eq!(inventory.modules.len(), 3);
//! for module in &inventory.modules {
//!     let producer = module.identification.as_ref().map(|i| i.producer.as_str());
//!     let names = module.names()?; // reads the module block's own records, skipping its sub-blocks
//!     println!("{:?} {:?} {:?}", producer, names.source_filename, module.strtab.map(<[u8]>::len));
//! }
//! # Ok(()) }
//! ```

use alloc::string::String;
use alloc::vec::Vec;

use crate::error::Error;
use crate::header::Magic;
use crate::ids::llvm_ir;
use crate::ids::llvm_ir::raw::{IDENTIFICATION_BLOCK_ID, MODULE_BLOCK_ID, STRTAB_BLOCK_ID, SYMTAB_BLOCK_ID};
use crate::reader::{Bitstream, Bookmark, Entry, LazyBlock, Reader};

/// The IDENTIFICATION block of a module.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Identification {
    /// Where the block is.
    pub block: Bookmark,
    /// The producer string (IDENTIFICATION_CODE_STRING), e.g. `LLVM14.0.6`; empty if absent.
    pub producer: String,
    /// The bitcode epoch (IDENTIFICATION_CODE_EPOCH), if the block gives one.
    pub epoch: Option<u64>,
}

/// One module of a bitcode stream, as LLVM's `BitcodeModule` sees it.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct ModuleInfo<'a> {
    /// The module's position in the stream, from 0.
    pub index: usize,
    /// Bit offset where the module's group begins (its IDENTIFICATION block, or its MODULE
    /// block if it has none): LLVM's `BCBegin`.
    pub begin_bit: u64,
    /// The IDENTIFICATION block just before the module, if any.
    pub identification: Option<Identification>,
    /// The MODULE block, skipped; read it with [`LazyBlock::reader`].
    pub module: LazyBlock<'a>,
    /// The string table that serves this module: that of the first STRTAB block after it
    /// (a STRTAB serves every preceding module without one of its own). `None` for old
    /// bitcode that keeps its names in the module.
    pub strtab: Option<&'a [u8]>,
    /// Where that STRTAB block is.
    pub strtab_block: Option<Bookmark>,
}

/// Names read from a module block's own records (sub-blocks are skipped).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ModuleNames {
    /// MODULE_CODE_TRIPLE.
    pub triple: Option<String>,
    /// MODULE_CODE_SOURCE_FILENAME (rustc writes the codegen unit's name here).
    pub source_filename: Option<String>,
}

impl ModuleInfo<'_> {
    /// Where the MODULE block is.
    pub fn module_bookmark(&self) -> Bookmark {
        self.module.bookmark()
    }

    /// Reads the module block's own records up to MODULE_CODE_SOURCE_FILENAME (written
    /// early, after the triple), skipping every sub-block, for the triple and the source
    /// file name.
    pub fn names(&self) -> Result<ModuleNames, Error> {
        let mut names = ModuleNames::default();
        let mut reader = self.module.reader()?;
        // The block reader's first entry is the module block itself.
        reader.advance()?;
        while let Some(entry) = reader.advance_skipping_subblocks()? {
            let Entry::Record { .. } = entry else { continue };
            let r = reader.read_record()?;
            match r.code() {
                llvm_ir::raw::MODULE_CODE_TRIPLE => names.triple = Some(r.text_from(0)),
                llvm_ir::raw::MODULE_CODE_SOURCE_FILENAME => {
                    names.source_filename = Some(r.text_from(0));
                    break;
                }
                _ => {}
            }
        }
        Ok(names)
    }
}

/// Every module of a bitcode stream, with the file's symbol table.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Inventory<'a> {
    /// The modules, in stream order.
    pub modules: Vec<ModuleInfo<'a>>,
    /// The first SYMTAB block's blob (LLVM ignores later ones).
    pub symtab: Option<&'a [u8]>,
    /// Where that SYMTAB block is.
    pub symtab_block: Option<Bookmark>,
    /// The string table the symbol table uses: the first STRTAB after it.
    pub strtab_for_symtab: Option<&'a [u8]>,
}

impl<'a> Inventory<'a> {
    /// Lists the modules of an LLVM IR stream as LLVM's `getBitcodeFileContents` does.
    ///
    /// Only top-level blocks are visited; MODULE blocks and unknown blocks are skipped
    /// without decoding. Up to 8 trailing bytes of garbage are tolerated, as LLVM does.
    /// Unlike LLVM, the small IDENTIFICATION block is decoded (for the producer and epoch),
    /// so a malformed one is an error here.
    pub fn parse(bytes: &'a [u8]) -> Result<Self, Error> {
        Self::of(&Bitstream::parse(bytes)?)
    }

    /// [`parse`](Self::parse) for a stream already parsed (an
    /// [`Embedded`](crate::container::Embedded) one, say).
    pub fn of(stream: &Bitstream<'a>) -> Result<Self, Error> {
        if stream.magic() != Magic::LlvmIr {
            let found = stream.bytes().first_chunk::<4>().copied().unwrap_or_default();
            return Err(Error::WrongMagic { bit: 0, expected: "LLVM IR bitcode", found });
        }
        let mut inventory =
            Inventory { modules: Vec::new(), symtab: None, symtab_block: None, strtab_for_symtab: None };
        let mut reader = stream.reader();
        loop {
            let begin_bit = reader.bit_offset();
            // At the top level the reader only reports blocks.
            let Some(entry) = reader.advance()? else { break };
            let Entry::EnterBlock(block) = entry else { continue };
            match block.block_id.0 {
                IDENTIFICATION_BLOCK_ID => {
                    let identification = read_identification(&mut reader, block)?;
                    let bit = block.header_bit;
                    match reader.advance()? {
                        Some(Entry::EnterBlock(b)) if b.block_id == MODULE_BLOCK_ID => {}
                        next => {
                            let found = match next {
                                Some(Entry::EnterBlock(b)) => Some((b.block_id, llvm_ir::block_name(b.block_id))),
                                _ => None,
                            };
                            return Err(Error::ExpectedBlock {
                                bit,
                                expected: "MODULE_BLOCK after IDENTIFICATION_BLOCK_ID",
                                found,
                            });
                        }
                    }
                    inventory.push_module(&mut reader, begin_bit, Some(identification))?;
                }
                MODULE_BLOCK_ID => inventory.push_module(&mut reader, begin_bit, None)?,
                STRTAB_BLOCK_ID => {
                    let blob = read_blob(&mut reader)?;
                    for module in inventory.modules.iter_mut().rev() {
                        if module.strtab.is_some_and(|s| !s.is_empty()) {
                            break;
                        }
                        module.strtab = Some(blob);
                        module.strtab_block = Some(block);
                    }
                    if inventory.symtab.is_some_and(|s| !s.is_empty())
                        && inventory.strtab_for_symtab.is_none_or(|s| s.is_empty())
                    {
                        inventory.strtab_for_symtab = Some(blob);
                    }
                }
                SYMTAB_BLOCK_ID => {
                    let blob = read_blob(&mut reader)?;
                    if inventory.symtab.is_none_or(|s| s.is_empty()) {
                        inventory.symtab = Some(blob);
                        inventory.symtab_block = Some(block);
                    }
                }
                _ => {
                    reader.skip_block()?;
                }
            }
        }
        Ok(inventory)
    }

    fn push_module(
        &mut self,
        reader: &mut Reader<'a>,
        begin_bit: u64,
        identification: Option<Identification>,
    ) -> Result<(), Error> {
        let module = reader.skip_block()?;
        self.modules.push(ModuleInfo {
            index: self.modules.len(),
            begin_bit,
            identification,
            module,
            strtab: None,
            strtab_block: None,
        });
        Ok(())
    }
}

/// Reads the IDENTIFICATION block just entered, through its END_BLOCK.
pub(super) fn read_identification(reader: &mut Reader<'_>, block: Bookmark) -> Result<Identification, Error> {
    let mut identification = Identification { block, producer: String::new(), epoch: None };
    while let Some(entry) = reader.advance_skipping_subblocks()? {
        let Entry::Record { .. } = entry else { continue };
        let r = reader.read_record()?;
        match r.code() {
            llvm_ir::raw::IDENTIFICATION_CODE_STRING => identification.producer = r.text_from(0),
            llvm_ir::raw::IDENTIFICATION_CODE_EPOCH => identification.epoch = r.operand(0),
            _ => {}
        }
    }
    Ok(identification)
}

/// Reads the STRTAB or SYMTAB block just entered, through its END_BLOCK: the blob of its
/// last BLOB record (LLVM's `readBlobInRecord`), empty if there is none.
fn read_blob<'a>(reader: &mut Reader<'a>) -> Result<&'a [u8], Error> {
    let mut blob: &'a [u8] = &[];
    while let Some(entry) = reader.advance_skipping_subblocks()? {
        let Entry::Record { .. } = entry else { continue };
        let r = reader.read_record()?;
        // STRTAB_BLOB and SYMTAB_BLOB are both 1.
        if r.code() == llvm_ir::STRTAB_BLOB || r.code() == llvm_ir::SYMTAB_BLOB {
            blob = r.blob().unwrap_or_default();
        }
    }
    Ok(blob)
}
