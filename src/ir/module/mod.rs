//! Reading a MODULE_BLOCK: its own records and the small blocks that give them meaning
//! (types, attributes, the module-level value symbol table and constants), with every
//! FUNCTION_BLOCK skipped in O(1) and kept for later.

pub(crate) mod attributes;
pub(crate) mod constants;
pub(crate) mod contents;
pub(crate) mod globals;
pub(crate) mod lazy_table;
pub(crate) mod types;
pub(crate) mod walk;

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;

use crate::error::Error;
use crate::header::Magic;
use crate::ids::llvm_ir as ids_block;
use crate::ids::llvm_ir::raw as ids;
use crate::ir::module::attributes::{AttributeGroup, AttributeList, read_attribute_groups, read_attribute_lists};
use crate::ir::module::contents::{Identification, Inventory, ModuleInfo};
use crate::ir::module::globals::Visibility;
use crate::ir::module::globals::{
    Alias, Comdat, ComdatSelection, DllStorage, Function, GlobalCommon, GlobalVar, Linkage, Name, ThreadLocal,
    UnnamedAddr,
};
use crate::ir::module::lazy_table::LazyTable;
use crate::ir::module::types::{Type, TypeId, TypeTable};
use crate::ir::module::walk::{each_record, short};
use crate::ir::symbols::irsymtab::Symtab;
use crate::layout::{Field, RecordLayout, Unknown};
use crate::reader::{Bitstream, Entry, LazyBlock, Reader};
use crate::record::RecordRef;

/// Which global value a value id names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum GlobalRef {
    /// `Module::globals[i]`.
    Var(usize),
    /// `Module::functions[i]`.
    Function(usize),
    /// `Module::aliases[i]` (an alias or an ifunc).
    Alias(usize),
}

/// One IR module: its identification, its module-level records, types, attributes and
/// global values, and its function bodies left unread.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct Module<'a> {
    /// The module's position in the stream, from 0.
    pub index: usize,
    /// The producer of the IDENTIFICATION block (`LLVM14.0.6`), if there is one.
    pub producer: Option<String>,
    /// The IDENTIFICATION block's epoch.
    pub epoch: Option<u64>,
    /// MODULE_CODE_VERSION: 0 (absolute value ids), 1 (relative), 2 (names in STRTAB).
    pub version: Option<u64>,
    /// MODULE_CODE_TRIPLE.
    pub triple: Option<String>,
    /// MODULE_CODE_DATALAYOUT.
    pub datalayout: Option<String>,
    /// MODULE_CODE_ASM, one entry per record (each may hold several lines).
    pub asm: Vec<String>,
    /// The properties (`target_cpu`, `target_features`: key, value) each MODULE_CODE_ASM
    /// record of [`Self::asm`] has, by the same index: LLVM 23's MODULE_CODE_ASM_PROPERTY
    /// records before it (`Module::GlobalAsmProperties`). Empty before LLVM 23. A key
    /// LLVM 23 does not know (its reader fails) is kept as it is.
    pub asm_properties: Vec<Vec<(String, String)>>,
    /// LLVM 23's MODULE_CODE_GUIDLIST: the GUID of each module-level value, by value id
    /// (0: none given), as the reader gives them to `Module::insertGUID`. Empty before
    /// LLVM 23.
    pub guids: Vec<u64>,
    /// MODULE_CODE_SOURCE_FILENAME.
    pub source_filename: Option<String>,
    /// MODULE_CODE_HASH: five 32-bit words.
    pub hash: Option<Vec<u64>>,
    /// MODULE_CODE_SECTIONNAME, in order (globals refer to them from 1).
    pub section_names: Vec<String>,
    /// MODULE_CODE_GCNAME, in order (functions refer to them from 1).
    pub gc_names: Vec<String>,
    /// MODULE_CODE_DEPLIB (obsolete).
    pub deplibs: Vec<String>,
    /// MODULE_CODE_COMDAT, in order.
    pub comdats: Vec<Comdat<'a>>,
    /// MODULE_CODE_VSTOFFSET: the module-level VST's offset in 32-bit words, as written.
    pub vst_offset: Option<u64>,
    /// The type table.
    pub types: TypeTable,
    /// PARAMATTR_GROUP entries, read on first use.
    pub attribute_groups: LazyTable<'a, AttributeGroup>,
    /// PARAMATTR lists (referred to from 1 by globals and functions), read on first use.
    pub attribute_lists: LazyTable<'a, AttributeList>,
    /// GLOBALVAR records.
    pub globals: Vec<GlobalVar<'a>>,
    /// FUNCTION records, with their bodies.
    pub functions: Vec<Function<'a>>,
    /// ALIAS, ALIAS_OLD and IFUNC records.
    pub aliases: Vec<Alias<'a>>,
    /// Module records this crate does not interpret.
    pub unknown_records: Vec<Unknown>,
    /// FUNCTION_BLOCKs found (one per definition, in a well-formed module).
    pub function_blocks: usize,
    /// Value id → global value.
    pub values: Vec<GlobalRef>,
    /// The MODULE block, to read again.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub block: LazyBlock<'a>,
    /// The module-level CONSTANTS blocks, skipped: read when symbols need them (the
    /// `llvm.used` lists, aliasees). Their values are numbered from `constants_base`.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub(crate) constants_blocks: Vec<LazyBlock<'a>>,
    #[cfg_attr(feature = "serde", serde(skip))]
    pub(crate) constants_base: u64,
    /// The STRTAB the module's names are in (empty if it has none), for the summary's
    /// type-id names.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub(crate) strtab: &'a [u8],
    /// The module-level METADATA_BLOCK a cut falls in, as far as the input holds it: its
    /// records before the cut are read with the module's metadata.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub(crate) cut_metadata: Option<LazyBlock<'a>>,
    /// MODULE_CODE_ASM_PROPERTY records read since the last MODULE_CODE_ASM, which they
    /// apply to.
    #[cfg_attr(feature = "serde", serde(skip))]
    pending_asm_properties: Vec<(String, String)>,
}

/// Reads every module of an IR bitcode stream.
///
/// ```
/// use llvm_bitstream_reader::{Bitstream, ir};
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/llvm14_multi_module_cat.bc"))?;
/// let modules = ir::Module::parse_all(&bytes)?;
/// assert_eq!(modules.len(), 3);
/// # Ok(()) }
/// ```
impl<'a> Module<'a> {
    /// Reads the first module of an IR bitcode stream (a `.bc` file's bytes, wrapper
    /// header allowed). Use [`parse_all`](Self::parse_all) for files with several.
    pub fn parse(bytes: &'a [u8]) -> Result<Self, Error> {
        Self::parse_first(bytes).map_err(|e| e.with_block_names(Magic::LlvmIr))
    }

    fn parse_first(bytes: &'a [u8]) -> Result<Self, Error> {
        let inventory = Inventory::parse(bytes)?;
        let Some(first) = inventory.modules.first() else {
            return Err(Error::IndexOutOfRange { bit: 0, what: "module", index: 0, len: 0 });
        };
        let symtab = Symtab::from_inventory(&inventory).ok().flatten();
        Module::read_sized(first, Capacity::from_symtab(symtab.as_ref(), first.index))
    }

    /// Reads every module of an IR bitcode stream (`llvm-cat -b` and ThinLTO files hold
    /// several), in stream order.
    ///
    /// ```
    /// use llvm_bitstream_reader::ir::Module;
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/llvm14_multi_module_cat.bc"))?;
    /// let modules = Module::parse_all(&bytes)?;
    /// assert_eq!(modules.len(), 3);
    /// # Ok(()) }
    /// ```
    pub fn parse_all(bytes: &'a [u8]) -> Result<Vec<Self>, Error> {
        let all = || -> Result<Vec<Self>, Error> {
            let inventory = Inventory::parse(bytes)?;
            let symtab = Symtab::from_inventory(&inventory).ok().flatten();
            inventory
                .modules
                .iter()
                .map(|info| Module::read_sized(info, Capacity::from_symtab(symtab.as_ref(), info.index)))
                .collect()
        };
        all().map_err(|e| e.with_block_names(Magic::LlvmIr))
    }

    /// Reads what a damaged or cut file holds of its first module: everything before
    /// the break, and the error that stopped the read, if any. `None` if the input has no
    /// MODULE block to read from. [`parse_all_partial`](Self::parse_all_partial) reads
    /// every module; its notes say what a cut module keeps.
    ///
    /// ```
    /// use llvm_bitstream_reader::ir::Module;
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/llvm14_ir_globals.bc"))?;
    /// let whole = Module::parse(&bytes)?;
    /// let (module, error) = Module::parse_partial(&bytes[..bytes.len() * 3 / 4]);
    /// let module = module.expect("the cut falls after the MODULE block starts");
    /// let error = error.expect("a cut file reads with an error");
    /// assert!(error.bit_offset() <= bytes.len() as u64 * 6); // where it broke
    /// assert_eq!(module.triple, whole.triple);
    /// assert!(module.globals.len() <= whole.globals.len());
    /// # Ok(()) }
    /// ```
    pub fn parse_partial(bytes: &'a [u8]) -> (Option<Self>, Option<Error>) {
        let (mut modules, error) = Self::parse_all_partial(bytes);
        let first = (!modules.is_empty()).then(|| modules.swap_remove(0));
        // Only an error in the first module (or before it) is the first module's.
        let error = if modules.is_empty() { error } else { None };
        (first, error)
    }

    /// Reads every module a damaged or cut file holds, as far as each goes: the modules
    /// before the break whole, the one it falls in as far as its records go, and the
    /// error that stopped the read (`None` for an intact file, which reads as
    /// [`parse_all`](Self::parse_all) reads it).
    ///
    /// What a cut module keeps: every record and block before the break (the
    /// identification, triple, datalayout, types, attributes, the global variables' and
    /// functions' records, the module's constants and metadata) and every function body
    /// (FUNCTION_BLOCK) that ends before it, which [`Bodies`](crate::ir::Bodies) decode
    /// as in a whole file. A definition whose body is past the break has
    /// [`Function::body`] `None`. Since LLVM 5 names are in the STRTAB at the end of the
    /// file, so in a file cut before it every global value is unnamed, as LLVM prints
    /// unnamed values (`@0`, `@1`); debug info may still name them
    /// ([`Bodies::recovered_name`](crate::ir::Bodies::recovered_name)). The module's
    /// [`block`](Self::block) ends at the break ([`LazyBlock::cut_bit`]), so every later
    /// read of it sees only the part before.
    ///
    /// ```
    /// use llvm_bitstream_reader::ir::Module;
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/rustc_llvm22_o0_debuginfo.bc"))?;
    /// let (modules, error) = Module::parse_all_partial(&bytes[..bytes.len() * 9 / 10]);
    /// let error = error.expect("cut");
    /// assert_eq!(modules.len(), 1);
    /// let module = &modules[0];
    /// // Where the break is, in bytes and bits, and what came before it.
    /// assert_eq!(module.block.cut_bit(), Some(error.bit_offset()));
    /// let bodies = module.bodies()?;
    /// let complete = (0..module.functions.len()).filter(|&i| matches!(bodies.body(i), Ok(Some(_)))).count();
    /// assert!(complete > 100);
    /// // The STRTAB was at the end: the names are gone.
    /// assert!(module.functions.iter().all(|f| f.common.name.is_empty()));
    /// # Ok(()) }
    /// ```
    pub fn parse_all_partial(bytes: &'a [u8]) -> (Vec<Self>, Option<Error>) {
        let (modules, error) = Self::read_partial(bytes);
        (modules, error.map(|e| e.with_block_names(Magic::LlvmIr)))
    }

    fn read_partial(bytes: &'a [u8]) -> (Vec<Self>, Option<Error>) {
        let mut modules = Vec::new();
        let stream = match Bitstream::parse(bytes) {
            Ok(stream) => stream,
            Err(e) => return (modules, Some(e)),
        };
        if stream.magic() != Magic::LlvmIr {
            let found = stream.bytes().first_chunk::<4>().copied().unwrap_or_default();
            return (modules, Some(Error::WrongMagic { bit: 0, expected: "LLVM IR bitcode", found }));
        }
        // The STRTABs after the modules, where the file is whole enough to list them.
        let inventory = Inventory::of(&stream).ok();
        let strtab_of = |index: usize| inventory.as_ref().and_then(|inv| inv.modules.get(index)?.strtab);
        // Each MODULE block, entered even if the input ends inside it.
        let mut reader = stream.reader();
        reader.read_truncated_blocks(true);
        let mut identification = None;
        let mut begin_bit = None;
        loop {
            let at = reader.bit_offset();
            match reader.advance() {
                Ok(Some(Entry::EnterBlock(b))) if b.block_id == ids_block::MODULE_BLOCK_ID => {
                    let block = LazyBlock::new(stream, b, reader.blockinfo().clone());
                    let index = modules.len();
                    let mut m = Module::new(index, identification.take().as_ref(), block);
                    let strtab = strtab_of(index);
                    let mut state = ReadState {
                        partial: strtab.is_none(),
                        strtab: strtab.unwrap_or_default(),
                        begin_bit: begin_bit.take().unwrap_or(at),
                        ..ReadState::default()
                    };
                    let result = m.read_body(&mut reader, &mut state);
                    if result.is_err() {
                        // Every later walk of the block ends where this one broke.
                        m.block = m.block.clone().cut_at(state.entry_bit);
                    }
                    m.finish(state);
                    modules.push(m);
                    if let Err(e) = result {
                        return (modules, Some(e));
                    }
                }
                Ok(Some(Entry::EnterBlock(b))) if b.block_id == ids_block::IDENTIFICATION_BLOCK_ID => {
                    begin_bit = Some(at);
                    match crate::ir::module::contents::read_identification(&mut reader, b) {
                        Ok(i) => identification = Some(i),
                        Err(e) => return (modules, Some(e)),
                    }
                }
                Ok(Some(Entry::EnterBlock(_))) => {
                    if let Err(e) = reader.skip_block() {
                        return (modules, Some(e));
                    }
                }
                Ok(Some(_)) => {}
                Ok(None) if modules.is_empty() => {
                    let e = Error::ExpectedBlock { bit: reader.bit_offset(), expected: "MODULE_BLOCK", found: None };
                    return (modules, Some(e));
                }
                Ok(None) => return (modules, None),
                Err(e) => return (modules, Some(e)),
            }
        }
    }

    /// Reads one module listed by an [`Inventory`].
    pub fn from_info(info: &ModuleInfo<'a>) -> Result<Self, Error> {
        Self::read_sized(info, Capacity::default()).map_err(|e| e.with_block_names(Magic::LlvmIr))
    }

    /// An empty module of `block`, before its records are read.
    fn new(index: usize, identification: Option<&Identification>, block: LazyBlock<'a>) -> Self {
        Module {
            index,
            producer: identification.map(|i| i.producer.clone()),
            epoch: identification.and_then(|i| i.epoch),
            version: None,
            triple: None,
            datalayout: None,
            asm: Vec::new(),
            asm_properties: Vec::new(),
            guids: Vec::new(),
            source_filename: None,
            hash: None,
            section_names: Vec::new(),
            gc_names: Vec::new(),
            deplibs: Vec::new(),
            comdats: Vec::new(),
            vst_offset: None,
            types: TypeTable::default(),
            attribute_groups: LazyTable::new(read_attribute_groups),
            attribute_lists: LazyTable::new(read_attribute_lists),
            globals: Vec::new(),
            functions: Vec::new(),
            aliases: Vec::new(),
            unknown_records: Vec::new(),
            function_blocks: 0,
            values: Vec::new(),
            block,
            constants_blocks: Vec::new(),
            constants_base: 0,
            strtab: &[],
            cut_metadata: None,
            pending_asm_properties: Vec::new(),
        }
    }

    fn read_sized(info: &ModuleInfo<'a>, capacity: Capacity) -> Result<Self, Error> {
        let mut m = Module::new(info.index, info.identification.as_ref(), info.module.clone());
        let mut state =
            ReadState { strtab: info.strtab.unwrap_or(&[]), begin_bit: info.begin_bit, ..ReadState::default() };
        m.globals.reserve_exact(capacity.globals);
        m.functions.reserve_exact(capacity.functions);
        m.aliases.reserve_exact(capacity.aliases);
        m.values.reserve_exact(capacity.globals + capacity.functions + capacity.aliases);
        state.bodies.reserve_exact(capacity.functions);
        let mut reader = info.module.reader()?;
        // The block reader's first entry is the module block itself.
        reader.advance()?;
        m.read_body(&mut reader, &mut state)?;
        m.finish(state);
        Ok(m)
    }

    /// Reads the records and sub-blocks of the MODULE block just entered.
    fn read_body(&mut self, reader: &mut Reader<'a>, state: &mut ReadState<'a>) -> Result<(), Error> {
        let m = self;
        let (reader, state) = (reader, state);
        loop {
            state.entry_bit = reader.bit_offset();
            let Some(entry) = reader.advance()? else { break };
            match entry {
                Entry::EnterBlock(b) if b.block_id.0 == ids::METADATA_BLOCK_ID && reader.is_truncated_block() => {
                    // Cut inside the module's metadata: kept, to read as far as it goes.
                    let block = LazyBlock::new(reader.stream(), b, reader.blockinfo().clone());
                    m.cut_metadata = Some(block);
                    reader.skip_block()?;
                }
                Entry::EnterBlock(b) => match b.block_id.0 {
                    ids::TYPE_BLOCK_ID_NEW => types::read_block(reader, &mut m.types)?,
                    ids::PARAMATTR_GROUP_BLOCK_ID => m.attribute_groups.push_block(reader.skip_block()?),
                    ids::PARAMATTR_BLOCK_ID => m.attribute_lists.push_block(reader.skip_block()?),
                    ids::VALUE_SYMTAB_BLOCK_ID => m.read_vst(reader, state)?,
                    ids::CONSTANTS_BLOCK_ID => {
                        if m.constants_blocks.is_empty() {
                            m.constants_base = m.values.len() as u64;
                        }
                        m.constants_blocks.push(reader.skip_block()?);
                    }
                    ids::FUNCTION_BLOCK_ID => {
                        state.bodies.push(reader.skip_block()?);
                        m.function_blocks += 1;
                    }
                    _ => {
                        reader.skip_block()?;
                    }
                },
                Entry::Record { .. } => {
                    let record = reader.read_record()?;
                    m.module_record(&record, state)?;
                }
                Entry::EndBlock(_) => break,
                _ => {}
            }
        }
        Ok(())
    }

    /// The global value (variable, function, alias or ifunc) a value id names, as the
    /// fields they share ([`GlobalCommon`]: name, linkage, value type, …); `None` for an
    /// id that names no global value. [`Module::values`] says which kind it is.
    pub fn global(&self, value_id: u64) -> Option<&GlobalCommon<'a>> {
        self.common_of(*self.values.get(usize::try_from(value_id).ok()?)?)
    }

    /// The global value named `name` (a global variable, function, alias or ifunc; LLVM
    /// gives each name to one of them), without the `@`: a scan of the module's tables,
    /// so a job looking up many names builds its own map once.
    ///
    /// ```
    /// # fn main() -> Result<(), llvm_bitstream_reader::Error> {
    /// # let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/llvm14_ir_globals.bc")).unwrap();
    /// use llvm_bitstream_reader::ir::{GlobalRef, Module};
    /// let module = Module::parse(&bytes)?;
    /// let Some(GlobalRef::Function(f)) = module.lookup("impl") else { panic!("no @impl") };
    /// assert_eq!(module.functions[f].common.name_str(), "impl");
    /// assert_eq!(module.function_named("impl"), Some(f));
    /// let g = module.global_named("g_i32").expect("@g_i32");
    /// assert_eq!(module.lookup(b"g_i32"), Some(GlobalRef::Var(g)));
    /// assert_eq!(module.function_named("g_i32"), None);
    /// assert_eq!(module.lookup("no such global"), None);
    /// # Ok(()) }
    /// ```
    pub fn lookup(&self, name: impl AsRef<[u8]>) -> Option<GlobalRef> {
        let name = name.as_ref();
        let is = |common: &GlobalCommon<'_>| *common.name == *name;
        if let Some(i) = self.functions.iter().position(|f| is(&f.common)) {
            return Some(GlobalRef::Function(i));
        }
        if let Some(i) = self.globals.iter().position(|g| is(&g.common)) {
            return Some(GlobalRef::Var(i));
        }
        self.aliases.iter().position(|a| is(&a.common)).map(GlobalRef::Alias)
    }

    /// The index in [`Self::functions`] of the function named `name` ([`Self::lookup`]).
    pub fn function_named(&self, name: impl AsRef<[u8]>) -> Option<usize> {
        match self.lookup(name)? {
            GlobalRef::Function(i) => Some(i),
            _ => None,
        }
    }

    /// The index in [`Self::globals`] of the global variable named `name`
    /// ([`Self::lookup`]).
    pub fn global_named(&self, name: impl AsRef<[u8]>) -> Option<usize> {
        match self.lookup(name)? {
            GlobalRef::Var(i) => Some(i),
            _ => None,
        }
    }

    /// The fields a global value shares, by which table it is in.
    pub(crate) fn common_of(&self, global: GlobalRef) -> Option<&GlobalCommon<'a>> {
        match global {
            GlobalRef::Var(i) => self.globals.get(i).map(|g| &g.common),
            GlobalRef::Function(i) => self.functions.get(i).map(|f| &f.common),
            GlobalRef::Alias(i) => self.aliases.get(i).map(|a| &a.common),
        }
    }

    /// Function definitions (with a body record).
    pub fn definitions(&self) -> impl Iterator<Item = &Function<'a>> {
        self.functions.iter().filter(|f| !f.is_declaration)
    }

    fn module_record(&mut self, r: &RecordRef<'_, 'a>, state: &ReadState<'a>) -> Result<(), Error> {
        let ops = r.operand_slice();
        match r.code() {
            ids::MODULE_CODE_VERSION => self.version = ops.first().copied(),
            ids::MODULE_CODE_TRIPLE => self.triple = Some(r.text_from(0)),
            ids::MODULE_CODE_DATALAYOUT => self.datalayout = Some(r.text_from(0)),
            ids::MODULE_CODE_ASM => {
                self.asm.push(r.text_from(0));
                self.asm_properties.push(core::mem::take(&mut self.pending_asm_properties));
            }
            // [key, 0, value…] (LLVM 23): applies to the next MODULE_CODE_ASM.
            ids::MODULE_CODE_ASM_PROPERTY => {
                let text = r.text_from(0);
                let (key, value) = text.split_once('\0').unwrap_or((&text, ""));
                self.pending_asm_properties.push((key.into(), value.into()));
            }
            // [hi32, lo32]… (LLVM 23): a GUID per value id, across records.
            ids::MODULE_CODE_GUIDLIST => {
                self.guids.extend(ops.chunks(2).map(|p| (p[0] << 32) | p.get(1).copied().unwrap_or(0)));
            }
            ids::MODULE_CODE_SOURCE_FILENAME => self.source_filename = Some(r.text_from(0)),
            ids::MODULE_CODE_HASH => self.hash = Some(ops.to_vec()),
            ids::MODULE_CODE_SECTIONNAME => self.section_names.push(r.text_from(0)),
            ids::MODULE_CODE_GCNAME => self.gc_names.push(r.text_from(0)),
            ids::MODULE_CODE_DEPLIB => self.deplibs.push(r.text_from(0)),
            ids::MODULE_CODE_VSTOFFSET => self.vst_offset = ops.first().copied(),
            ids::MODULE_CODE_COMDAT => self.comdat_record(r, state)?,
            ids::MODULE_CODE_GLOBALVAR => self.globalvar_record(r, state)?,
            ids::MODULE_CODE_FUNCTION => self.function_record(r, state)?,
            ids::MODULE_CODE_ALIAS | ids::MODULE_CODE_ALIAS_OLD | ids::MODULE_CODE_IFUNC => {
                self.alias_record(r, state)?
            }
            code => self.unknown_records.push(Unknown::Record {
                block_id: ids_block::MODULE_BLOCK_ID,
                code,
                bit: r.bit_offset(),
                operands: ops.to_vec(),
            }),
        }
        Ok(())
    }

    fn uses_strtab(&self) -> bool {
        self.version.is_some_and(|v| v >= 2)
    }

    /// Splits off a VERSION 2 record's name (offset, size in the STRTAB).
    fn name_of<'r>(
        &self,
        r: &RecordRef<'r, 'a>,
        state: &ReadState<'a>,
        what: &'static str,
    ) -> Result<(Name<'a>, &'r [u64]), Error> {
        let ops = r.operand_slice();
        if !self.uses_strtab() {
            return Ok((Cow::Borrowed(&[]), ops));
        }
        let [offset, size, rest @ ..] = ops else {
            return Err(short(r, what, ops.len(), 2));
        };
        let name = strtab_name(r, state, "name", *offset, *size)?.unwrap_or_default();
        Ok((Cow::Borrowed(name), rest))
    }

    fn check_type(&self, r: &RecordRef<'_, '_>, index: u64) -> Result<TypeId, Error> {
        match u32::try_from(index) {
            Ok(i) if (i as usize) < self.types.len() => Ok(TypeId(i)),
            _ => Err(Error::IndexOutOfRange { bit: r.bit_offset(), what: "type", index, len: self.types.len() }),
        }
    }

    /// The pointee of a legacy pointer-typed record's type, and the pointer's address space.
    fn pointee(&self, r: &RecordRef<'_, '_>, ty: TypeId, what: &'static str) -> Result<(TypeId, u64), Error> {
        match self.types.get(ty) {
            Some(Type::Pointer { pointee: Some(p), address_space }) => Ok((*p, *address_space)),
            _ => {
                Err(Error::WrongType { what, bit: r.bit_offset(), index: u64::from(ty.0), expected: "a typed pointer" })
            }
        }
    }

    fn section(&self, r: &RecordRef<'_, '_>, id: u64) -> Result<Option<String>, Error> {
        lookup_1based(&self.section_names, id, "section", r.bit_offset())
    }

    fn comdat_record(&mut self, r: &RecordRef<'_, 'a>, state: &ReadState<'a>) -> Result<(), Error> {
        let (name, rest) = self.name_of(r, state, "COMDAT")?;
        let short = |needed| short(r, "COMDAT", rest.len(), needed);
        let selection = ComdatSelection::from_raw(*rest.first().ok_or_else(|| short(1))?);
        let name = if self.uses_strtab() {
            name
        } else {
            // v1: [selection_kind, name_size, name chars…]
            let size = *rest.get(1).ok_or_else(|| short(2))?;
            let chars = usize::try_from(size).ok().and_then(|s| rest.get(2..2usize.checked_add(s)?));
            let chars = chars.ok_or_else(|| short(2usize.saturating_add(size as usize)))?;
            Cow::Owned(chars.iter().map(|&c| c as u8).collect())
        };
        self.comdats.push(Comdat { name, selection });
        Ok(())
    }

    fn common(
        &self,
        r: &RecordRef<'_, 'a>,
        name: Name<'a>,
        value_type: TypeId,
        address_space: u64,
        raw_linkage: u64,
    ) -> GlobalCommon<'a> {
        let linkage = Linkage::from_raw(raw_linkage);
        GlobalCommon {
            name,
            value_id: self.values.len() as u64,
            linkage,
            raw_linkage,
            visibility: Visibility::Default,
            dll_storage: match raw_linkage {
                5 => DllStorage::Import,
                6 => DllStorage::Export,
                _ => DllStorage::Default,
            },
            thread_local: ThreadLocal::No,
            unnamed_addr: UnnamedAddr::None,
            dso_local: false,
            partition: None,
            value_type,
            address_space,
            bit: r.bit_offset(),
            extra_operands: Vec::new(),
        }
    }

    fn globalvar_record(&mut self, r: &RecordRef<'_, 'a>, state: &ReadState<'a>) -> Result<(), Error> {
        // [strtab offset, strtab size,] pointer type or value type, isconst|explicit<<1|addrspace<<2,
        // initid, linkage, alignment, section, visibility, threadlocal, unnamed_addr,
        // externally_initialized, dllstorageclass, comdat, attributes, dso_local,
        // partition offset, partition size, sanitizer, code model
        let (name, ops) = self.name_of(r, state, "GLOBALVAR")?;
        GLOBALVAR.fields_of(ops, None, r.bit_offset(), r.code())?;
        let ty = self.check_type(r, ops[0])?;
        let explicit = ops[1] & 2 != 0;
        let (value_type, address_space) = if explicit { (ty, ops[1] >> 2) } else { self.pointee(r, ty, "GLOBALVAR")? };
        let mut c = self.common(r, name, value_type, address_space, ops[3]);
        let get = |i: usize| ops.get(i).copied();
        if !c.linkage.is_local() {
            c.visibility = get(6).map_or(Visibility::Default, Visibility::from_raw);
            if let Some(d) = get(10) {
                c.dll_storage = DllStorage::from_raw(d);
            }
        } else if get(10).is_some() {
            c.dll_storage = DllStorage::Default;
        }
        c.thread_local = get(7).map_or(ThreadLocal::No, ThreadLocal::from_raw);
        c.unnamed_addr = get(8).map_or(UnnamedAddr::None, UnnamedAddr::from_raw);
        c.dso_local = get(13).is_some_and(|v| v != 0);
        if let (Some(off), Some(size)) = (get(14), get(15)) {
            c.partition = self.partition(r, state, off, size)?;
        }
        c.extra_operands = ops.get(18..).unwrap_or(&[]).to_vec();
        infer_dso_local(&mut c);
        let comdat = self.comdat_ref(r, get(11), c.raw_linkage)?;
        let var = GlobalVar {
            common: c,
            is_constant: ops[1] & 1 != 0,
            initializer: ops[2].checked_sub(1),
            alignment: decode_alignment(ops[4]),
            section: self.section(r, ops[5])?,
            externally_initialized: get(9).is_some_and(|v| v != 0),
            comdat,
            comdat_operand: get(11).is_some(),
            attributes: get(12).filter(|&a| a != 0),
            sanitizer: get(16).filter(|&s| s != 0),
            code_model: get(17).filter(|&m| m != 0),
        };
        self.values.push(GlobalRef::Var(self.globals.len()));
        self.globals.push(var);
        Ok(())
    }

    fn function_record(&mut self, r: &RecordRef<'_, 'a>, state: &ReadState<'a>) -> Result<(), Error> {
        // [strtab offset, strtab size,] type, callingconv, isproto, linkage, paramattr,
        // alignment, section, visibility, gc, unnamed_addr, prologuedata, dllstorageclass,
        // comdat, prefixdata, personalityfn, dso_local, addrspace, partition offset,
        // partition size, preferred alignment
        let (name, ops) = self.name_of(r, state, "FUNCTION")?;
        FUNCTION.fields_of(ops, None, r.bit_offset(), r.code())?;
        let mut ty = self.check_type(r, ops[0])?;
        let mut address_space = 0;
        if let Some(Type::Pointer { pointee: Some(p), address_space: a }) = self.types.get(ty) {
            (ty, address_space) = (*p, *a);
        }
        if !matches!(self.types.get(ty), Some(Type::Function { .. })) {
            return Err(Error::WrongType {
                what: "FUNCTION",
                bit: r.bit_offset(),
                index: u64::from(ty.0),
                expected: "a function type",
            });
        }
        let get = |i: usize| ops.get(i).copied();
        if let Some(a) = get(16) {
            address_space = a;
        }
        let mut c = self.common(r, name, ty, address_space, ops[3]);
        if !c.linkage.is_local() {
            c.visibility = Visibility::from_raw(ops[7]);
            if let Some(d) = get(11) {
                c.dll_storage = DllStorage::from_raw(d);
            }
        } else if get(11).is_some() {
            c.dll_storage = DllStorage::Default;
        }
        c.unnamed_addr = get(9).map_or(UnnamedAddr::None, UnnamedAddr::from_raw);
        c.dso_local = get(15).is_some_and(|v| v != 0);
        if let (Some(off), Some(size)) = (get(17), get(18)) {
            // LLVM ignores a function's partition that does not fit the STRTAB.
            c.partition = strtab_slice(state.strtab, off, size).filter(|n| !n.is_empty()).map(Cow::Borrowed);
        }
        c.extra_operands = ops.get(20..).unwrap_or(&[]).to_vec();
        infer_dso_local(&mut c);
        let comdat = self.comdat_ref(r, get(12), c.raw_linkage)?;
        let function = Function {
            common: c,
            calling_conv: ops[1],
            is_declaration: ops[2] != 0,
            attributes: Some(ops[4]).filter(|&a| a != 0),
            alignment: decode_alignment(ops[5]),
            section: self.section(r, ops[6])?,
            gc: lookup_1based(&self.gc_names, get(8).unwrap_or(0), "gc", r.bit_offset())?,
            prologue: get(10).and_then(|v| v.checked_sub(1)),
            comdat,
            comdat_operand: get(12).is_some(),
            prefix: get(13).and_then(|v| v.checked_sub(1)),
            personality: get(14).and_then(|v| v.checked_sub(1)),
            preferred_alignment: get(19).and_then(decode_alignment),
            body: None,
        };
        self.values.push(GlobalRef::Function(self.functions.len()));
        self.functions.push(function);
        Ok(())
    }

    fn alias_record(&mut self, r: &RecordRef<'_, 'a>, state: &ReadState<'a>) -> Result<(), Error> {
        // ALIAS_OLD: [pointer type, aliasee, linkage, visibility, dll, tls, unnamed_addr, dso_local]
        // ALIAS: [strtab offset, strtab size,] type, addrspace, aliasee, linkage, visibility,
        //        dllstorageclass, threadlocal, unnamed_addr, dso_local, partition offset, size
        // IFUNC: [strtab offset, strtab size,] type, addrspace, resolver, linkage,
        //        visibility, dso_local, partition offset, partition size
        let code = r.code();
        let what = match code {
            ids::MODULE_CODE_IFUNC => "IFUNC",
            ids::MODULE_CODE_ALIAS_OLD => "ALIAS_OLD",
            _ => "ALIAS",
        };
        let (name, ops) = self.name_of(r, state, what)?;
        let old = code == ids::MODULE_CODE_ALIAS_OLD;
        let layout = match code {
            ids::MODULE_CODE_IFUNC => &IFUNC,
            ids::MODULE_CODE_ALIAS_OLD => &ALIAS_OLD,
            _ => &ALIAS,
        };
        layout.fields_of(ops, None, r.bit_offset(), code)?;
        let ty = self.check_type(r, ops[0])?;
        let (value_type, address_space, mut i) =
            if old { (self.pointee(r, ty, what)?.0, self.pointee(r, ty, what)?.1, 1) } else { (ty, ops[1], 2) };
        let target = ops[i];
        let mut c = self.common(r, name, value_type, address_space, ops[i + 1]);
        i += 2;
        let mut next = || {
            let v = ops.get(i).copied();
            i += 1;
            v
        };
        if let Some(v) = next() {
            if !c.linkage.is_local() {
                c.visibility = Visibility::from_raw(v);
            }
        }
        if code != ids::MODULE_CODE_IFUNC {
            if let Some(d) = next() {
                c.dll_storage = if c.linkage.is_local() { DllStorage::Default } else { DllStorage::from_raw(d) };
            }
            if let Some(t) = next() {
                c.thread_local = ThreadLocal::from_raw(t);
            }
            if let Some(u) = next() {
                c.unnamed_addr = UnnamedAddr::from_raw(u);
            }
        }
        if let Some(d) = next() {
            c.dso_local = d != 0;
        }
        let (off, size) = (next(), next());
        if let (Some(off), Some(size)) = (off, size) {
            c.partition = self.partition(r, state, off, size)?;
        }
        c.extra_operands = ops.get(i.min(ops.len())..).unwrap_or(&[]).to_vec();
        infer_dso_local(&mut c);
        self.values.push(GlobalRef::Alias(self.aliases.len()));
        self.aliases.push(Alias { common: c, is_ifunc: code == ids::MODULE_CODE_IFUNC, target });
        Ok(())
    }

    /// A global's partition name; `None` for the empty name, which LLVM writes for none,
    /// and in a partial read whose STRTAB is gone.
    fn partition(
        &self,
        r: &RecordRef<'_, '_>,
        state: &ReadState<'a>,
        off: u64,
        size: u64,
    ) -> Result<Option<Name<'a>>, Error> {
        if size == 0 {
            return Ok(None);
        }
        Ok(strtab_name(r, state, "partition name", off, size)?.map(Cow::Borrowed))
    }

    /// A comdat reference (from 1; 0 is none). A record too old to have the field has an
    /// implicit comdat of its own for the legacy weak/linkonce codes: that is not one of
    /// the module's COMDAT records, so it is left out here.
    fn comdat_ref(&self, r: &RecordRef<'_, '_>, id: Option<u64>, _raw_linkage: u64) -> Result<Option<u64>, Error> {
        match id {
            None | Some(0) => Ok(None),
            Some(n) if n as usize <= self.comdats.len() && n <= usize::MAX as u64 => Ok(Some(n - 1)),
            Some(n) => {
                Err(Error::IndexOutOfRange { what: "comdat", bit: r.bit_offset(), index: n, len: self.comdats.len() })
            }
        }
    }

    fn read_vst(&mut self, reader: &mut Reader<'a>, state: &mut ReadState<'a>) -> Result<(), Error> {
        each_record(reader, |r| {
            let ops = r.operand_slice();
            let bytes = |from: usize| ops.get(from..).unwrap_or(&[]).iter().map(|&c| c as u8).collect::<Vec<u8>>();
            match (r.code(), ops) {
                (ids::VST_CODE_ENTRY, [id, ..]) => state.vst_names.push((*id, bytes(1))),
                (ids::VST_CODE_FNENTRY, [id, offset, rest @ ..]) => {
                    state.fn_offsets.push((*id, *offset));
                    if !rest.is_empty() {
                        state.vst_names.push((*id, bytes(2)));
                    }
                }
                _ => {}
            }
            Ok(())
        })
    }

    fn finish(&mut self, state: ReadState<'a>) {
        self.strtab = state.strtab;
        // Names from a module-level VST (files before VERSION 2).
        if !self.uses_strtab() {
            for (id, name) in state.vst_names {
                let common = match usize::try_from(id).ok().and_then(|i| self.values.get(i)) {
                    Some(GlobalRef::Var(i)) => self.globals.get_mut(*i).map(|g| &mut g.common),
                    Some(GlobalRef::Function(i)) => self.functions.get_mut(*i).map(|f| &mut f.common),
                    Some(GlobalRef::Alias(i)) => self.aliases.get_mut(*i).map(|a| &mut a.common),
                    None => None,
                };
                if let Some(c) = common {
                    c.name = Cow::Owned(name);
                }
            }
        }
        // Bodies: in order, as LLVM's lazy reader pairs them, then by FNENTRY offset
        // where the VST gives one that points at a body.
        let definitions: Vec<usize> =
            self.functions.iter().enumerate().filter(|(_, f)| !f.is_declaration).map(|(i, _)| i).collect();
        for (&f, body) in definitions.iter().zip(&state.bodies) {
            self.functions[f].body = Some(body.clone());
        }
        for (id, offset) in state.fn_offsets {
            let Some(GlobalRef::Function(f)) = usize::try_from(id).ok().and_then(|i| self.values.get(i)) else {
                continue;
            };
            let Some(word) = offset.checked_sub(1) else { continue };
            let bit = state.begin_bit.saturating_add(word.saturating_mul(32));
            // Bodies were found in stream order: sorted by position.
            let found = state.bodies.binary_search_by_key(&bit, |b| b.bookmark().header_bit);
            if let Some(body) = found.ok().and_then(|i| state.bodies.get(i)) {
                if let Some(func) = self.functions.get_mut(*f) {
                    func.body = Some(body.clone());
                }
            }
        }
    }
}

/// How many global variables, functions and aliases a module is expected to have: sizes
/// for its tables, so that the bulk of a module is allocated once rather than grown
/// (which copies it and faults its pages in again). Only a hint: a wrong one costs
/// growth or spare capacity, never a wrong result.
#[derive(Clone, Copy, Debug, Default)]
struct Capacity {
    globals: usize,
    functions: usize,
    aliases: usize,
}

impl Capacity {
    /// From the module's symbols in the SYMTAB blob (one per global value, plus those of
    /// module-level asm): counts of entries present in the blob, so bounded by its size.
    fn from_symtab(symtab: Option<&Symtab<'_>>, module: usize) -> Self {
        let mut capacity = Capacity::default();
        let Some((symtab, range)) = symtab.and_then(|t| Some((t, t.module(u32::try_from(module).ok()?).ok()?))) else {
            return capacity;
        };
        for index in range.begin..range.end {
            let Some((flags, has_ir_name)) = symtab.symbol_flags(index) else { break };
            if !has_ir_name {
                // Module-level asm.
            } else if flags.indirect() {
                capacity.aliases += 1;
            } else if flags.executable() {
                capacity.functions += 1;
            } else {
                capacity.globals += 1;
            }
        }
        capacity
    }
}

/// What reading one module needs beside the module.
#[derive(Default)]
struct ReadState<'a> {
    /// A partial read of a cut file: names past the (missing) STRTAB are left empty.
    partial: bool,
    strtab: &'a [u8],
    begin_bit: u64,
    /// Where the module-level entry being read began: where a partial read breaks.
    entry_bit: u64,
    bodies: Vec<LazyBlock<'a>>,
    vst_names: Vec<(u64, Vec<u8>)>,
    fn_offsets: Vec<(u64, u64)>,
}

// The module records' layouts, after the STRTAB name (offset, size) of VERSION 2 records:
// `required` is what LLVM's reader needs, the fields what LLVM 22 writes.
const GLOBALVAR: RecordLayout = RecordLayout::new("GLOBALVAR", ids_block::MODULE_BLOCK_ID, 6, &[Field::Vbr(6); 18]);
const FUNCTION: RecordLayout = RecordLayout::new("FUNCTION", ids_block::MODULE_BLOCK_ID, 8, &[Field::Vbr(6); 20]);
const ALIAS: RecordLayout = RecordLayout::new("ALIAS", ids_block::MODULE_BLOCK_ID, 4, &[Field::Vbr(6); 11]);
const ALIAS_OLD: RecordLayout = RecordLayout::new("ALIAS_OLD", ids_block::MODULE_BLOCK_ID, 3, &[Field::Vbr(6); 8]);
const IFUNC: RecordLayout = RecordLayout::new("IFUNC", ids_block::MODULE_BLOCK_ID, 4, &[Field::Vbr(6); 8]);

/// A name (offset, size) of record `r` in the module's STRTAB; `None` where a partial
/// read has lost the STRTAB, an error where a whole one does not hold it.
fn strtab_name<'a>(
    r: &RecordRef<'_, '_>,
    state: &ReadState<'a>,
    what: &'static str,
    offset: u64,
    size: u64,
) -> Result<Option<&'a [u8]>, Error> {
    match strtab_slice(state.strtab, offset, size) {
        Some(name) => Ok(Some(name)),
        None if state.partial => Ok(None),
        None => Err(Error::RangeOutOfBounds {
            bit: r.bit_offset(),
            what,
            table: "STRTAB",
            offset,
            size,
            len: state.strtab.len(),
        }),
    }
}

fn strtab_slice(strtab: &[u8], offset: u64, size: u64) -> Option<&[u8]> {
    let start = usize::try_from(offset).ok()?;
    let end = start.checked_add(usize::try_from(size).ok()?)?;
    strtab.get(start..end)
}

fn lookup_1based(table: &[String], id: u64, what: &'static str, bit: u64) -> Result<Option<String>, Error> {
    if id == 0 {
        return Ok(None);
    }
    match usize::try_from(id - 1).ok().and_then(|i| table.get(i)) {
        Some(s) => Ok(Some(s.clone())),
        None => Err(Error::IndexOutOfRange { what, bit, index: id, len: table.len() }),
    }
}

/// Alignment stored as log2 + 1 (0: none), in global values' records and in the body's
/// alloca, load, store, cmpxchg and atomicrmw records alike.
pub(crate) fn decode_alignment(v: u64) -> Option<u64> {
    match v {
        0 => None,
        v if v <= 64 => Some(1u64 << (v - 1)),
        // Past what fits: kept as the raw exponent + 1 would lose it; LLVM rejects it.
        _ => None,
    }
}

/// LLVM's `inferDSOLocal`.
fn infer_dso_local(c: &mut GlobalCommon<'_>) {
    if c.linkage.is_local() || (c.visibility != Visibility::Default && c.linkage != Linkage::ExternWeak) {
        c.dso_local = true;
    }
}
