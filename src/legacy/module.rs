//! The decoded module: types, global variables, functions, module constants, symbol
//! table, and each function's body block, kept for [`Module::body`].

use alloc::vec::Vec;
use core::fmt;

use super::bytecode::{Block, BlockKind, Bytecode};
use super::bytes::ByteReader;
use super::constants::{
    Constant, Operand, Scope, Value, push_value, read_constant_pool, read_symbol_table, read_types,
};
use super::rules::Rules;
use super::types::{Type, TypeId, TypeTable};
use super::{LegacyError, Result};

/// A linkage, as the format numbers them (0 to 4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum Linkage {
    /// 0: visible to other modules (printed as nothing).
    External,
    /// 1: `weak`.
    Weak,
    /// 2: `appending`.
    Appending,
    /// 3: `internal`.
    Internal,
    /// 4: `linkonce`.
    LinkOnce,
    /// Any other number, kept.
    Unknown(u32),
}

impl Linkage {
    /// The linkage with this number.
    pub const fn from_number(n: u32) -> Linkage {
        match n {
            0 => Linkage::External,
            1 => Linkage::Weak,
            2 => Linkage::Appending,
            3 => Linkage::Internal,
            4 => Linkage::LinkOnce,
            other => Linkage::Unknown(other),
        }
    }

    /// The keyword LLVM 1.x printed before a definition (`""` for external).
    pub const fn keyword(self) -> &'static str {
        match self {
            Linkage::External | Linkage::Unknown(_) => "",
            Linkage::Weak => "weak",
            Linkage::Appending => "appending",
            Linkage::Internal => "internal",
            Linkage::LinkOnce => "linkonce",
        }
    }
}

impl fmt::Display for Linkage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Linkage::External => f.write_str("external"),
            Linkage::Unknown(n) => write!(f, "linkage {n}"),
            other => f.write_str(other.keyword()),
        }
    }
}

/// A global variable of the Module Global Info block.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct GlobalVar<'a> {
    /// Its name, from the module symbol table (bytes as written).
    pub name: Option<&'a [u8]>,
    /// Its type: a pointer to the variable's type.
    pub ty: TypeId,
    /// The variable's type (what [`ty`](Self::ty) points to).
    pub value_type: TypeId,
    /// `constant` rather than `global`.
    pub constant: bool,
    /// Its linkage.
    pub linkage: Linkage,
    /// Its initializer; `None` for an external declaration.
    pub initializer: Option<Operand>,
    /// Its alignment in bytes (0: unspecified); version 5's extension word.
    pub alignment: u32,
    /// Its section, from the Module Global Info block's section table.
    pub section: Option<&'a [u8]>,
    /// Byte offset of its entry.
    pub offset: usize,
}

/// A function of the Module Global Info block, with its body block if it has one.
#[derive(Clone, Copy, Debug)]
pub struct Function<'a> {
    /// Its name, from the module symbol table.
    pub name: Option<&'a [u8]>,
    /// Its type: a pointer to its function type.
    pub ty: TypeId,
    /// The function type.
    pub function_type: TypeId,
    /// The calling convention (0 C, 8 fast, 9 cold, 64 x86 stdcall, 65 x86 fastcall).
    pub calling_conv: u32,
    /// Its alignment in bytes (0: unspecified).
    pub alignment: u32,
    /// Its section.
    pub section: Option<&'a [u8]>,
    /// Its linkage: from its Function Definition block; external without one.
    pub linkage: Linkage,
    /// Its Function Definition block, read by [`Module::body`]; `None` for a declaration
    /// (version 5's external flag).
    pub block: Option<Block<'a>>,
    /// Whether it has instructions (a declaration has none, even with a block: before
    /// version 5 every function has one).
    pub has_body: bool,
    /// Byte offset of its entry.
    pub offset: usize,
}

impl Function<'_> {
    /// Whether it is a declaration: no instructions.
    pub fn is_declaration(&self) -> bool {
        !self.has_body
    }

    /// Its name as text (lossy UTF-8; empty if it has none).
    pub fn name_str(&self) -> alloc::borrow::Cow<'_, str> {
        alloc::string::String::from_utf8_lossy(self.name.unwrap_or_default())
    }
}

impl GlobalVar<'_> {
    /// Its name as text (lossy UTF-8; empty if it has none).
    pub fn name_str(&self) -> alloc::borrow::Cow<'_, str> {
        alloc::string::String::from_utf8_lossy(self.name.unwrap_or_default())
    }
}

/// A decoded LLVM 1.x module: what a bytecode file holds, read without LLVM (see the
/// [module docs](super) for an example).
///
/// Values are numbered in "type planes" in the file; the decoder resolves each operand
/// to a [`Value`] and its type. Function bodies are decoded by [`body`](Self::body), on
/// demand, from the Function Definition blocks the module keeps; `Module` is `Sync`, so
/// bodies can be decoded on several threads.
///
/// A compressed file (`llvc1`, `llvc2`) is decompressed first, with
/// `Bytecode::decompress` (feature `legacy-compression`), and the result parsed.
#[derive(Clone, Debug)]
pub struct Module<'a> {
    /// The file's blocks.
    pub bytecode: Bytecode<'a>,
    /// The encoding rules of its version.
    pub rules: Rules,
    /// The global type pool, with the names the module symbol table gives types.
    pub types: TypeTable,
    /// Global variables, in order.
    pub globals: Vec<GlobalVar<'a>>,
    /// Functions, in order.
    pub functions: Vec<Function<'a>>,
    /// The module constant pool, in order.
    pub constants: Vec<Constant<'a>>,
    /// Operands of the module's constants (elements, fields, expression operands).
    pub operand_pool: Vec<Operand>,
    /// Libraries the module depends on (version 3 on).
    pub dependent_libraries: Vec<&'a [u8]>,
    /// The target triple (version 3 on; empty means none).
    pub triple: Option<&'a [u8]>,
    /// The section names globals and functions refer to (version 5 on).
    pub section_names: Vec<&'a [u8]>,
    /// Module-level inline assembly (version 5 on).
    pub asm: Option<&'a [u8]>,
    /// Blocks of the module this decoder does not know: (type as written, byte offset).
    pub unknown_blocks: Vec<(u32, usize)>,
    /// Bytes at the end of the Module Global Info block after the fields this decoder
    /// knows (LLVM's reader ignored them too, "for future proofing").
    pub extra_global_info: &'a [u8],
    /// Names of the module symbol table that name no global (a constant, say):
    /// (plane, slot, name).
    pub unattached_names: Vec<(TypeId, u32, &'a [u8])>,
    /// The module's values by plane (type), without the implicit zeros.
    pub(super) planes: Vec<Vec<Value>>,
}

impl<'a> Module<'a> {
    /// Decodes an uncompressed (or `llvc0`) bytecode file: its blocks, types, globals,
    /// functions, constants and symbol table. Function bodies are decoded on demand
    /// ([`body`](Self::body)).
    pub fn parse(bytes: &'a [u8]) -> Result<Self> {
        match Self::parse_partial(bytes) {
            (Some(module), None) => Ok(module),
            (_, Some(e)) => Err(e),
            (None, None) => Err(LegacyError::NotLegacy { offset: 0 }),
        }
    }

    /// Decodes what it can: the module as far as it reads, and the first error. A broken
    /// block stops the decoding there, keeping everything before it. A cut file (its
    /// module block declares more bytes than follow) is read as far as its blocks are
    /// whole: the error is the first block the cut breaks, or, if the cut falls between
    /// blocks, [`LegacyError::ModuleTooLong`]. `None` if not even the module header and
    /// its format information are there.
    pub fn parse_partial(bytes: &'a [u8]) -> (Option<Self>, Option<LegacyError>) {
        let (bytecode, cut) = match Bytecode::parse_cut(bytes) {
            Ok(b) => b,
            Err(e) => return (None, Some(e)),
        };
        let version = bytecode.format().version;
        let Some(rules) = Rules::for_version(version) else {
            let e = LegacyError::UnsupportedVersion { offset: bytecode.payload_offset(), version: version.number() };
            return (None, Some(e));
        };
        let mut module = Module {
            bytecode,
            rules,
            types: TypeTable::default(),
            globals: Vec::new(),
            functions: Vec::new(),
            constants: Vec::new(),
            operand_pool: Vec::new(),
            dependent_libraries: Vec::new(),
            triple: None,
            section_names: Vec::new(),
            asm: None,
            unknown_blocks: Vec::new(),
            extra_global_info: &[],
            unattached_names: Vec::new(),
            planes: Vec::new(),
        };
        let error = module.decode().err().or(cut);
        module.resolve_constants();
        (Some(module), error)
    }

    fn decode(&mut self) -> Result<()> {
        let mut next_body = 0usize;
        let mut seen_types = false;
        let mut seen_info = false;
        let mut section_ids = Vec::new();
        for block in self.bytecode.raw_blocks() {
            let block = block?;
            let mut r = block.reader();
            match block.kind {
                BlockKind::GlobalTypePool => {
                    if seen_types {
                        return Err(LegacyError::Malformed {
                            offset: block.offset,
                            what: "a second global type pool",
                            value: 6,
                        });
                    }
                    seen_types = true;
                    if !r.is_at_end() {
                        let n = r.read_vbr_u32()?;
                        if self.rules.type_derived_from_value {
                            r.read_vbr_u32()?;
                        }
                        read_types(&mut r, n, &mut ModuleScope(self))?;
                    }
                }
                BlockKind::ModuleGlobalInfo => {
                    if seen_info {
                        return Err(LegacyError::Malformed {
                            offset: block.offset,
                            what: "a second module global info block",
                            value: 5,
                        });
                    }
                    seen_info = true;
                    self.read_global_info(&mut r, &block, &mut section_ids)?;
                }
                BlockKind::ConstantPool => read_constant_pool(&mut r, &mut ModuleScope(self))?,
                BlockKind::Function => {
                    let Some(index) =
                        self.functions.iter().enumerate().skip(next_body).find(|(_, f)| f.has_body).map(|(i, _)| i)
                    else {
                        return Err(LegacyError::Malformed {
                            offset: block.offset,
                            what: "function body without a declared function",
                            value: next_body as u64,
                        });
                    };
                    next_body = index + 1;
                    let linkage = r.read_vbr_u32()?;
                    let f = &mut self.functions[index];
                    f.linkage = Linkage::from_number(linkage);
                    f.block = Some(block);
                    f.has_body =
                        block.children().any(|c| matches!(c.kind, BlockKind::InstructionList | BlockKind::BasicBlock));
                }
                BlockKind::SymbolTable => self.read_symbol_table(&mut r)?,
                _ => self.unknown_blocks.push((block.id, block.offset)),
            }
        }
        for (index, id) in section_ids {
            let name = self.section_names.get(id as usize - 1).copied();
            match index {
                Global::Var(i) => self.globals[i].section = name,
                Global::Function(i) => self.functions[i].section = name,
            }
        }
        if let Some(f) = self.functions.iter().skip(next_body).find(|f| f.has_body && f.block.is_none()) {
            return Err(LegacyError::Malformed {
                offset: f.offset,
                what: "function declared with a body, but the module ends before it",
                value: 0,
            });
        }
        Ok(())
    }

    fn insert(&mut self, plane: TypeId, value: Value) {
        push_value(&mut self.planes, plane, value);
    }

    fn check_type(&self, id: TypeId, offset: usize) -> Result<TypeId> {
        if id < self.types.len() {
            Ok(id)
        } else {
            Err(LegacyError::Malformed { offset, what: "undefined type slot", value: id.into() })
        }
    }

    fn read_global_info(
        &mut self,
        r: &mut ByteReader<'a>,
        block: &Block<'a>,
        sections: &mut Vec<(Global, u32)>,
    ) -> Result<()> {
        let rules = self.rules;
        loop {
            let offset = r.offset();
            let word = r.read_vbr_u32()?;
            if word == 0 {
                break;
            }
            let (slot, type_type) = rules.sanitize_type(word >> 5);
            if type_type {
                return Err(LegacyError::Malformed { offset, what: "global variable of the type type", value: 12 });
            }
            let ty = self.check_type(slot, offset)?;
            let mut linkage = (word >> 2) & 7;
            let mut has_init = word & 2 != 0;
            let mut alignment = 0;
            if linkage == 3 && !has_init {
                let ext = r.read_vbr_u32()?;
                has_init = ext & 1 != 0;
                linkage = (ext >> 1) & 7;
                alignment = (1u32 << ((ext >> 4) & 31)) >> 1;
                if ext & (1 << 9) != 0 {
                    let id = r.read_vbr_u32()?;
                    if id != 0 {
                        sections.push((Global::Var(self.globals.len()), id));
                    }
                }
            }
            let Some(value_type) = self.types.pointee(ty) else {
                return Err(LegacyError::Malformed {
                    offset,
                    what: "global variable of a type not a pointer",
                    value: ty.into(),
                });
            };
            let initializer = if has_init {
                let slot = r.read_vbr_u32()?;
                Some(Operand { ty: value_type, value: Value::Unresolved { plane: value_type, slot } })
            } else {
                None
            };
            self.insert(ty, Value::Global(self.globals.len() as u32));
            self.globals.push(GlobalVar {
                name: None,
                ty,
                value_type,
                constant: word & 1 != 0,
                linkage: Linkage::from_number(linkage),
                initializer,
                alignment,
                section: None,
                offset,
            });
        }
        loop {
            let offset = r.offset();
            let mut word = r.read_vbr_u32()?;
            if rules.no_function_flags {
                word = (word << 5).wrapping_add(1);
            }
            let (slot, type_type) = rules.sanitize_type((word & (u32::MAX >> 1)) >> 5);
            if slot == 0 && !type_type {
                break;
            }
            let ty = self.check_type(slot, offset)?;
            let Some(function_type) =
                self.types.pointee(ty).filter(|&f| matches!(self.types.derived(f), Some(Type::Function { .. })))
            else {
                return Err(LegacyError::Malformed {
                    offset,
                    what: "function of a type not a pointer to a function",
                    value: ty.into(),
                });
            };
            let flags = word & 31;
            let mut cc = flags & 15;
            let mut alignment = 0;
            if word & (1 << 31) != 0 {
                let ext = r.read_vbr_u32()?;
                alignment = (1u32 << (ext & 31)) >> 1;
                cc |= ((ext >> 5) & 15) << 4;
                if ext & (1 << 10) != 0 {
                    let id = r.read_vbr_u32()?;
                    if id != 0 {
                        sections.push((Global::Function(self.functions.len()), id));
                    }
                }
            }
            self.insert(ty, Value::Function(self.functions.len() as u32));
            self.functions.push(Function {
                name: None,
                ty,
                function_type,
                calling_conv: cc.wrapping_sub(1),
                alignment,
                section: None,
                linkage: Linkage::External,
                block: None,
                has_body: flags & (1 << 4) == 0,
                offset,
            });
        }
        if rules.inconsistent_global_info {
            // Version 0 pads the block's own end; nothing else follows.
        } else if !rules.no_dependent_libraries {
            self.dependent_libraries = r.read_llist(|r| r.read_string())?;
            let triple = r.read_string()?;
            self.triple = (!triple.is_empty()).then_some(triple);
            if !rules.alignment && !r.is_at_end() {
                self.section_names = r.read_llist(|r| r.read_string())?;
            }
            if !rules.alignment && !r.is_at_end() {
                let asm = r.read_string()?;
                self.asm = (!asm.is_empty()).then_some(asm);
            }
        }
        for (_, id) in sections.iter() {
            if *id as usize > self.section_names.len() {
                return Err(LegacyError::Malformed {
                    offset: block.offset,
                    what: "section id out of range",
                    value: (*id).into(),
                });
            }
        }
        self.extra_global_info = r.rest();
        Ok(())
    }

    fn read_symbol_table(&mut self, r: &mut ByteReader<'a>) -> Result<()> {
        let table = read_symbol_table(r, self.rules)?;
        let (type_names, value_names) = (table.types, table.values);
        let mut names = Vec::with_capacity(type_names.len());
        for (ty, name, at) in type_names {
            names.push((self.check_type(ty, at)?, name.to_vec()));
        }
        self.types.add_names(names);
        for (plane, slot, name) in value_names {
            match self.resolve(plane, slot) {
                Value::Global(i) => self.globals[i as usize].name = Some(name),
                Value::Function(i) => self.functions[i as usize].name = Some(name),
                _ => self.unattached_names.push((plane, slot, name)),
            }
        }
        Ok(())
    }

    /// The value in slot `slot` of plane `plane` at module level.
    pub(super) fn resolve(&self, plane: TypeId, slot: u32) -> Value {
        self.module_slot(&self.types, plane, slot).unwrap_or(Value::Unresolved { plane, slot })
    }

    /// Slot `slot` of plane `plane` among the module's values, its implied zero first (a
    /// plane of an opaque type in `types` has none): the value, or, past them, how far
    /// past (where a function's own values of the plane start, at 0).
    pub(super) fn module_slot(&self, types: &TypeTable, plane: TypeId, slot: u32) -> core::result::Result<Value, u32> {
        let mut n = slot;
        if self.rules.has_implicit_null(plane) && !matches!(types.derived(plane), Some(Type::Opaque)) {
            if n == 0 {
                return Ok(Value::Null);
            }
            n -= 1;
        }
        let values = self.planes.get(plane as usize).map_or(&[][..], Vec::as_slice);
        values.get(n as usize).copied().ok_or_else(|| n - values.len() as u32)
    }

    fn resolve_constants(&mut self) {
        for i in 0..self.operand_pool.len() {
            if let Value::Unresolved { plane, slot } = self.operand_pool[i].value {
                self.operand_pool[i].value = self.resolve(plane, slot);
            }
        }
        for i in 0..self.globals.len() {
            if let Some(Operand { value: Value::Unresolved { plane, slot }, ty }) = self.globals[i].initializer {
                self.globals[i].initializer = Some(Operand { ty, value: self.resolve(plane, slot) });
            }
        }
    }

    /// The name of function `index` for messages: its symbol-table name (lossy UTF-8), or
    /// its number.
    pub fn function_name(&self, index: usize) -> alloc::string::String {
        match self.functions.get(index).filter(|f| f.name.is_some()) {
            Some(f) => f.name_str().into_owned(),
            None => alloc::format!("<function {index}>"),
        }
    }

    /// The functions with instructions, in order.
    pub fn definitions(&self) -> impl Iterator<Item = (usize, &Function<'a>)> {
        self.functions.iter().enumerate().filter(|(_, f)| f.has_body)
    }
}

/// A global with a section id, until the section table is read.
#[derive(Clone, Copy, Debug)]
enum Global {
    Var(usize),
    Function(usize),
}

/// The module as a pool's scope: identity type numbering, values into its planes.
struct ModuleScope<'m, 'a>(&'m mut Module<'a>);

impl<'a> Scope<'a> for ModuleScope<'_, 'a> {
    fn rules(&self) -> Rules {
        self.0.rules
    }
    fn types(&self) -> &TypeTable {
        &self.0.types
    }
    fn add_types(&mut self, types: Vec<Type>) {
        self.0.types.types.extend(types);
    }
    fn global_type(&self, local: u32, offset: usize) -> Result<TypeId> {
        self.0.check_type(local, offset)
    }
    fn local_type(&self, global: TypeId) -> Option<u32> {
        Some(global)
    }
    fn push_constant(&mut self, local: u32, constant: Constant<'a>) {
        let index = self.0.constants.len() as u32;
        self.0.constants.push(constant);
        self.0.insert(local, Value::Constant(index));
    }
    fn operand_pool(&mut self) -> &mut Vec<Operand> {
        &mut self.0.operand_pool
    }
    fn is_function(&self) -> bool {
        false
    }
}
