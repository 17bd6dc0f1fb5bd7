//! Debug info as the questions users ask of it: where an instruction came from (file,
//! line, column, the inlined-at chain), what a function is called in the source, which
//! files and compile units a module has, and where variables live. A [`DebugInfo`] is a
//! view over the module's metadata and, for a function, its own
//! ([`Bodies::debug_info`]); every answer is decoded from the records when asked, and
//! strings are borrowed from the input.
//!
//! ```
//! use llvm_bitstream_reader::ir::Module;
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/rustc_llvm22_o0_debuginfo.bc"))?;
//! let module = Module::parse(&bytes)?;
//! let bodies = module.bodies()?;
//! // The crate's compile unit and its source files.
//! let info = bodies.debug_info(None);
//! let unit = info.compile_units().next().expect("a debug build has one");
//! assert!(unit.producer.starts_with(b"clang LLVM (rustc version"));
//! assert!(info.files().any(|(_, file)| file.filename.ends_with(b".rs")));
//! // Where the first located instruction of the first defined function came from.
//! let index = module.functions.iter().position(|f| !f.is_declaration).unwrap();
//! let body = bodies.body(index)?.unwrap();
//! let info = bodies.debug_info(Some(&body));
//! let at = body.instructions.iter().find_map(|i| i.debug_loc).unwrap();
//! let loc = body.debug_locs[at as usize];
//! let function = info.subprogram_of_scope(loc.scope.unwrap()).and_then(|id| info.subprogram(id)).unwrap();
//! assert!(!function.name.is_empty() && loc.line > 0);
//! # Ok(()) }
//! ```

use crate::ids::llvm_ir::raw as ids;
use crate::ir::MetadataNode;
use crate::ir::body::{Bodies, Body, DebugLoc, InstKind, Operand, Value};
use crate::ir::metadata::MdTable;
use crate::ir::metadata::di::{self, DiNode, MdRef};
use crate::limits::MAX_SCOPE_DEPTH;

/// A source file (`!DIFile`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SourceFile<'b> {
    /// The file name, as the compiler gave it (relative to `directory` or absolute).
    pub filename: &'b [u8],
    /// The compilation directory.
    pub directory: &'b [u8],
    /// The checksum, if the compiler recorded one.
    pub checksum: Option<Checksum<'b>>,
}

/// A source file's checksum.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Checksum<'b> {
    /// `CSK_MD5` (1), `CSK_SHA1` (2) or `CSK_SHA256` (3); another number is kept.
    pub kind: u32,
    /// The checksum's kind name (`CSK_MD5`, …), `None` for an unknown kind.
    pub kind_name: Option<&'static str>,
    /// The checksum as the file has it (hexadecimal text).
    pub value: &'b [u8],
}

/// A compile unit (`!DICompileUnit`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CompileUnit<'b> {
    /// Its metadata id.
    pub id: u64,
    /// Its main source file.
    pub file: Option<SourceFile<'b>>,
    /// The producer (`clang version 14.0.6`, `clang LLVM (rustc version 1.95.0)`).
    pub producer: &'b [u8],
    /// The source language: a `DW_LANG_*` number (or a `DW_LNAME_*` one with
    /// `versioned_language`).
    pub language: u64,
    /// Whether `language` is a DWARF 6 language name (LLVM 22).
    pub versioned_language: bool,
    /// Whether the code was optimized.
    pub is_optimized: bool,
}

/// A function as the source names it (`!DISubprogram`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Subprogram<'b> {
    /// The source name (`main`, `fmt`).
    pub name: &'b [u8],
    /// The linkage (mangled) name, empty if none.
    pub linkage_name: &'b [u8],
    /// The file it is declared in.
    pub file: Option<SourceFile<'b>>,
    /// The line it is declared at.
    pub line: u32,
    /// The metadata id of its scope (a namespace, a type, a file), if any.
    pub scope: Option<u64>,
}

/// A source variable (`!DILocalVariable`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Variable<'b> {
    /// Its name.
    pub name: &'b [u8],
    /// The file it is declared in.
    pub file: Option<SourceFile<'b>>,
    /// The line it is declared at.
    pub line: u32,
    /// Its argument number (1 is the first parameter), 0 for a local variable.
    pub arg: u16,
    /// The metadata id of its scope.
    pub scope: Option<u64>,
}

/// How a variable location is given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VariableLocationKind {
    /// `#dbg_declare` / `llvm.dbg.declare`: the variable lives at an address.
    Declare,
    /// `#dbg_value` / `llvm.dbg.value`: the variable has a value from here on.
    Value,
    /// `#dbg_assign` / `llvm.dbg.assign`.
    Assign,
    /// `#dbg_declare_value` (LLVM 22).
    DeclareValue,
}

/// Where a variable lives from one instruction on, from a debug record (LLVM 19 and
/// later) or an `llvm.dbg.*` call (earlier writers).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VariableLocation {
    /// The instruction it stands before (a record) or is (a call).
    pub instruction: u32,
    /// Declare, value or assign.
    pub kind: VariableLocationKind,
    /// The variable's metadata id ([`DebugInfo::variable`]).
    pub variable: u64,
    /// The location's value, when it is one value (not a `DIArgList`, not poison).
    pub value: Option<Operand>,
    /// The location's metadata id, when it is given as metadata.
    pub value_metadata: Option<u64>,
    /// The `DIExpression`'s metadata id.
    pub expression: Option<u64>,
}

/// Debug info of a module, or of one function's body: see the module docs.
#[derive(Clone, Copy)]
pub struct DebugInfo<'b> {
    module: &'b MdTable,
    function: Option<&'b MdTable>,
    input: &'b [u8],
}

impl<'m, 'a> Bodies<'m, 'a> {
    /// The module's debug info, or, with `body`, the debug info one of its functions sees
    /// (the module's nodes and the function's own).
    pub fn debug_info<'s>(&'s self, body: Option<&'s Body>) -> DebugInfo<'s> {
        DebugInfo { module: self.module_metadata(), function: body.map(|b| &b.metadata), input: self.input() }
    }
}

impl<'b> DebugInfo<'b> {
    fn node(&self, id: u64) -> Option<MetadataNode<'b>> {
        crate::ir::metadata::node_in_scope(self.module, self.function, self.input, id)
    }

    fn decode(&self, id: u64) -> Option<DiNode> {
        match self.node(id)? {
            MetadataNode::Debug { code, operands } => di::decode(code, operands).map(|(_, n)| n),
            _ => None,
        }
    }

    fn id(r: MdRef) -> Option<u64> {
        u64::from(r.0).checked_sub(1)
    }

    fn string(&self, r: MdRef) -> &'b [u8] {
        match Self::id(r).and_then(|id| self.node(id)) {
            Some(MetadataNode::String(s)) => s,
            _ => b"",
        }
    }

    /// How many metadata ids it sees: the module's, and the function's after them. Asking
    /// reads the module's METADATA_BLOCK (once per [`Bodies`]).
    pub fn len(&self) -> u64 {
        self.module.len() + self.function.map_or(0, |f| f.len())
    }

    /// Whether it sees no metadata.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The `!DIFile` with metadata id `id`.
    pub fn file(&self, id: u64) -> Option<SourceFile<'b>> {
        let DiNode::File(f) = self.decode(id)? else { return None };
        Some(SourceFile {
            filename: self.string(f.filename),
            directory: self.string(f.directory),
            checksum: f.checksum.map(|(kind, value)| Checksum {
                kind,
                kind_name: crate::ir::vocabulary::dwarf::checksum_kind_name(kind.into()),
                value: self.string(value),
            }),
        })
    }

    fn file_ref(&self, r: MdRef) -> Option<SourceFile<'b>> {
        self.file(Self::id(r)?)
    }

    /// Every `!DIFile` of the module (and of the function), with its metadata id.
    pub fn files(&self) -> impl Iterator<Item = (u64, SourceFile<'b>)> + '_ {
        (0..self.len()).filter_map(move |id| Some((id, self.file(id)?)))
    }

    /// The module's compile units: the operands of `!llvm.dbg.cu`.
    pub fn compile_units(&self) -> impl Iterator<Item = CompileUnit<'b>> + '_ {
        let ids: &'b [u64] =
            self.module.named_nodes().find(|&(name, _)| name == b"llvm.dbg.cu").map_or(&[], |(_, ops)| ops);
        ids.iter().filter_map(move |&id| {
            let DiNode::CompileUnit(cu) = self.decode(id)? else { return None };
            Some(CompileUnit {
                id,
                file: self.file_ref(cu.file),
                producer: self.string(cu.producer),
                language: cu.source_language,
                versioned_language: cu.versioned_language,
                is_optimized: cu.is_optimized,
            })
        })
    }

    /// The `!DISubprogram` with metadata id `id`.
    pub fn subprogram(&self, id: u64) -> Option<Subprogram<'b>> {
        let DiNode::Subprogram(sp) = self.decode(id)? else { return None };
        Some(Subprogram {
            name: self.string(sp.name),
            linkage_name: self.string(sp.linkage_name),
            file: self.file_ref(sp.file),
            line: sp.line,
            scope: Self::id(sp.scope),
        })
    }

    /// The subprogram a scope is in: the scope itself if it is one, else the first
    /// subprogram up its chain of lexical blocks (bounded by
    /// [`MAX_SCOPE_DEPTH`](crate::limits::MAX_SCOPE_DEPTH), so a cycle in a hostile file
    /// ends).
    pub fn subprogram_of_scope(&self, mut scope: u64) -> Option<u64> {
        for _ in 0..MAX_SCOPE_DEPTH {
            scope = match self.decode(scope)? {
                DiNode::Subprogram(_) => return Some(scope),
                DiNode::LexicalBlock(b) => Self::id(b.scope)?,
                DiNode::LexicalBlockFile(b) => Self::id(b.scope)?,
                _ => return None,
            };
        }
        None
    }

    /// The `!DILocation` with metadata id `id` (an inlined-at location).
    pub fn location(&self, id: u64) -> Option<DebugLoc> {
        let DiNode::Location(l) = self.decode(id)? else { return None };
        Some(DebugLoc {
            line: l.line,
            column: u32::from(l.column),
            scope: Self::id(l.scope),
            inlined_at: Self::id(l.inlined_at),
            implicit: l.is_implicit_code,
            atom_group: l.atom_group,
            atom_rank: u64::from(l.atom_rank),
        })
    }

    /// A location and the locations it was inlined at, innermost first (at most
    /// [`MAX_SCOPE_DEPTH`](crate::limits::MAX_SCOPE_DEPTH) of them).
    pub fn inlining_chain(&self, loc: DebugLoc) -> impl Iterator<Item = DebugLoc> + '_ {
        let mut next = Some(loc);
        core::iter::from_fn(move || {
            let here = next.take()?;
            next = here.inlined_at.and_then(|id| self.location(id));
            Some(here)
        })
        .take(MAX_SCOPE_DEPTH)
    }

    /// The `!DILocalVariable` with metadata id `id`.
    pub fn variable(&self, id: u64) -> Option<Variable<'b>> {
        let DiNode::LocalVariable(v) = self.decode(id)? else { return None };
        Some(Variable {
            name: self.string(v.name),
            file: self.file_ref(v.file),
            line: v.line,
            arg: v.arg,
            scope: Self::id(v.scope),
        })
    }
}

impl Bodies<'_, '_> {
    /// Where the body's variables live: its debug records (LLVM 19 and later), then, for
    /// older writers, its calls to `llvm.dbg.declare`, `llvm.dbg.value` and
    /// `llvm.dbg.assign`, in instruction order.
    pub fn variable_locations(&self, body: &Body) -> alloc::vec::Vec<VariableLocation> {
        let mut out = alloc::vec::Vec::new();
        for r in &body.debug_records {
            let kind = match r.code {
                ids::FUNC_CODE_DEBUG_RECORD_DECLARE => VariableLocationKind::Declare,
                ids::FUNC_CODE_DEBUG_RECORD_VALUE | ids::FUNC_CODE_DEBUG_RECORD_VALUE_SIMPLE => {
                    VariableLocationKind::Value
                }
                ids::FUNC_CODE_DEBUG_RECORD_DECLARE_VALUE => VariableLocationKind::DeclareValue,
                ids::FUNC_CODE_DEBUG_RECORD_ASSIGN => VariableLocationKind::Assign,
                _ => continue,
            };
            // [location, variable, expression, value or metadata, …]
            let md = body.literal_range(r.operands);
            let Some(&variable) = md.get(1) else { continue };
            out.push(VariableLocation {
                instruction: r.before,
                kind,
                variable,
                value: r.value,
                value_metadata: if r.value.is_none() { md.get(3).copied() } else { None },
                expression: md.get(2).copied(),
            });
        }
        let m = self.module();
        for (i, inst) in body.instructions.iter().enumerate() {
            let InstKind::Call { .. } = inst.kind else { continue };
            let ops = body.operands(inst);
            let Some(Value::Global(callee)) = ops.first().map(|o| o.value) else { continue };
            let kind = match m.global(callee).map(|g| &*g.name) {
                Some(b"llvm.dbg.declare") => VariableLocationKind::Declare,
                Some(b"llvm.dbg.value") => VariableLocationKind::Value,
                Some(b"llvm.dbg.assign") => VariableLocationKind::Assign,
                _ => continue,
            };
            // (metadata location, metadata variable, metadata expression, …); LLVM 3.x
            // `llvm.dbg.value` had an offset before the variable.
            let md: alloc::vec::Vec<u64> = ops[1..]
                .iter()
                .filter_map(|o| match o.value {
                    Value::Metadata(id) => Some(id),
                    _ => None,
                })
                .collect();
            let info = self.debug_info(Some(body));
            let value_metadata = md.first().copied();
            let value = value_metadata.and_then(|id| match info.node(id)? {
                MetadataNode::Value { ty, value } => {
                    Some(Operand { value: body.value_of(value, self.constants().base), ty: crate::ir::TypeId(ty.0) })
                }
                _ => None,
            });
            let Some(&variable) = md.iter().skip(1).find(|&&id| info.variable(id).is_some()) else { continue };
            out.push(VariableLocation {
                instruction: i as u32,
                kind,
                variable,
                value,
                value_metadata,
                expression: md.get(2).copied(),
            });
        }
        out.sort_by_key(|l| l.instruction);
        out
    }
}
