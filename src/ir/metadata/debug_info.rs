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

use alloc::borrow::Cow;
use alloc::string::String;
use core::fmt;

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

impl<'b> SourceFile<'b> {
    /// The file's path as text: `filename` joined to `directory` unless it is absolute
    /// (or there is no directory), as `llvm-symbolizer` prints it. Bytes that are not
    /// UTF-8 are replaced, as in every `*_str` accessor of the crate.
    ///
    /// ```
    /// use llvm_bitstream_reader::ir::SourceFile;
    /// let file = SourceFile { filename: b"src/lib.rs", directory: b"/work/x", checksum: None };
    /// assert_eq!(file.path(), "/work/x/src/lib.rs");
    /// let file = SourceFile { filename: b"/usr/include/stdio.h", directory: b"/work/x", checksum: None };
    /// assert_eq!(file.path(), "/usr/include/stdio.h");
    /// ```
    pub fn path(&self) -> Cow<'b, str> {
        let absolute = self.filename.first() == Some(&b'/') || self.filename.get(1..3) == Some(b":\\");
        if absolute || self.directory.is_empty() {
            return String::from_utf8_lossy(self.filename);
        }
        let mut path = String::from_utf8_lossy(self.directory).into_owned();
        if !path.ends_with('/') {
            path.push('/');
        }
        path.push_str(&String::from_utf8_lossy(self.filename));
        Cow::Owned(path)
    }

    /// The file name as text, as the compiler gave it (not joined to the directory).
    pub fn filename_str(&self) -> Cow<'b, str> {
        String::from_utf8_lossy(self.filename)
    }
}

/// A function as the source names it (`!DISubprogram`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Subprogram<'b> {
    /// Its metadata id.
    pub id: u64,
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

/// The name a node gives its symbol: the linkage name, or the source name where it has
/// none (C functions and variables, whose symbols are their source names).
fn symbol_name<'b>(name: &'b [u8], linkage_name: &'b [u8]) -> &'b [u8] {
    if linkage_name.is_empty() { name } else { linkage_name }
}

/// `name_str` and `symbol_str` of the named debug-info nodes.
macro_rules! source_names {
    ($($node:ident),*) => {$(
        impl<'b> $node<'b> {
            /// The source name as text.
            pub fn name_str(&self) -> Cow<'b, str> {
                String::from_utf8_lossy(self.name)
            }

            /// The symbol name as text: the linkage name, or the source name where it
            /// has none (C), which is what the symbol is called.
            pub fn symbol_str(&self) -> Cow<'b, str> {
                String::from_utf8_lossy(symbol_name(self.name, self.linkage_name))
            }
        }
    )*};
}

source_names!(Subprogram, GlobalVariable);

/// A global variable as the source names it (`!DIGlobalVariable`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GlobalVariable<'b> {
    /// Its metadata id.
    pub id: u64,
    /// The source name.
    pub name: &'b [u8],
    /// The linkage (mangled) name, empty if none.
    pub linkage_name: &'b [u8],
    /// The file it is declared in.
    pub file: Option<SourceFile<'b>>,
    /// The line it is declared at.
    pub line: u32,
    /// Whether it is local to its compile unit (`static`).
    pub is_local: bool,
}

/// Where an instruction came from: a file, line and column, in a scope of a function.
/// [`DebugInfo::instruction_location`] gives one with the locations it was inlined at;
/// `Display` prints `path:line:column`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SourceLocation<'b> {
    /// The file of the location's scope: a lexical block's own file (code from an
    /// `#include` inside a function), else its function's.
    pub file: Option<SourceFile<'b>>,
    /// The line (0: no line, compiler-generated code).
    pub line: u32,
    /// The column (0: none).
    pub column: u32,
    /// The function the location is in (the subprogram of its scope).
    pub function: Option<Subprogram<'b>>,
    /// The location as the file has it: scope and inlined-at ids.
    pub loc: DebugLoc,
}

impl fmt::Display for SourceLocation<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.file {
            Some(file) => f.write_str(&file.path())?,
            None => f.write_str("??")?,
        }
        write!(f, ":{}:{}", self.line, self.column)
    }
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
    body: Option<&'b Body>,
    input: &'b [u8],
}

impl<'m, 'a> Bodies<'m, 'a> {
    /// The module's debug info, or, with `body`, the debug info one of its functions sees
    /// (the module's nodes and the function's own).
    pub fn debug_info<'s>(&'s self, body: Option<&'s Body>) -> DebugInfo<'s> {
        DebugInfo { module: self.module_metadata(), function: body.map(|b| &b.metadata), body, input: self.input() }
    }
}

impl<'b> DebugInfo<'b> {
    /// The function's own `!dbg` attachment: the `DISubprogram` of the body this debug
    /// info was made for ([`Bodies::debug_info`] with `Some(body)`). `None` for module
    /// debug info or a function without one.
    ///
    /// ```
    /// use llvm_bitstream_reader::ir::Module;
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/rustc_llvm22_o0_debuginfo.bc"))?;
    /// let module = Module::parse(&bytes)?;
    /// let bodies = module.bodies()?;
    /// let index = module.functions.iter().position(|f| !f.is_declaration).unwrap();
    /// let body = bodies.body(index)?.unwrap();
    /// let function = bodies.debug_info(Some(&body)).function_subprogram().expect("a debug build");
    /// // The symbol its DISubprogram gives is the function's name.
    /// assert_eq!(function.symbol_str(), module.functions[index].common.name_str());
    /// let file = function.file.unwrap();
    /// assert!(file.path().ends_with(".rs") && function.line > 0);
    /// # Ok(()) }
    /// ```
    pub fn function_subprogram(&self) -> Option<Subprogram<'b>> {
        let body = self.body?;
        let dbg = self.dbg_kind()?;
        let a = body.attachments.iter().take_while(|a| a.instruction.is_none()).find(|a| a.kind == dbg)?;
        self.subprogram(a.node)
    }

    /// The `DISubprogram` attached to a function declaration (`declare … !dbg`, which
    /// optimized C/C++ builds write for the callees of call-site info), by its value id.
    pub fn global_subprogram(&self, value_id: u64) -> Option<Subprogram<'b>> {
        self.global_dbg(value_id).find_map(|node| self.subprogram(node))
    }

    /// The `DIGlobalVariable` of a global variable's `!dbg` attachment (through its
    /// `DIGlobalVariableExpression`), by the variable's value id.
    pub fn global_variable(&self, value_id: u64) -> Option<GlobalVariable<'b>> {
        self.global_dbg(value_id).find_map(|node| {
            let var = match self.decode(node)? {
                DiNode::GlobalVariableExpression(e) => Self::id(e.var)?,
                DiNode::GlobalVariable(_) => node,
                _ => return None,
            };
            let DiNode::GlobalVariable(v) = self.decode(var)? else { return None };
            Some(GlobalVariable {
                id: var,
                name: self.string(v.name),
                linkage_name: self.string(v.linkage_name),
                file: self.file_ref(v.file),
                line: v.line,
                is_local: v.is_local,
            })
        })
    }

    /// The nodes attached as `!dbg` to a global value (module-level attachments).
    fn global_dbg(&self, value_id: u64) -> impl Iterator<Item = u64> + '_ {
        let dbg = self.dbg_kind();
        let pairs = self
            .module
            .global_attachments
            .iter()
            .find(|&&(v, _)| v == value_id)
            .map_or(&[][..], |&(_, ops)| self.module.ops(ops));
        pairs.chunks_exact(2).filter(move |p| Some(p[0]) == dbg).map(|p| p[1])
    }

    /// The file's id of the `dbg` attachment kind (0 in every LLVM, but read from the
    /// kind table).
    fn dbg_kind(&self) -> Option<u64> {
        self.module.kinds.iter().find(|&&(_, name)| self.module.owned_bytes(name) == b"dbg").map(|&(id, _)| id)
    }

    /// The file of a scope: a lexical block's or a subprogram's own `file:`, else that
    /// of the scope around it (bounded by
    /// [`MAX_SCOPE_DEPTH`](crate::limits::MAX_SCOPE_DEPTH)).
    pub fn scope_file(&self, mut scope: u64) -> Option<SourceFile<'b>> {
        for _ in 0..MAX_SCOPE_DEPTH {
            let (file, outer) = match self.decode(scope)? {
                DiNode::Subprogram(sp) => (sp.file, sp.scope),
                DiNode::LexicalBlock(b) => (b.file, b.scope),
                DiNode::LexicalBlockFile(b) => (b.file, b.scope),
                DiNode::File(_) => return self.file(scope),
                _ => return None,
            };
            if let Some(file) = self.file_ref(file) {
                return Some(file);
            }
            scope = Self::id(outer)?;
        }
        None
    }

    /// A location resolved: its scope's file, its function, line and column.
    pub fn source_location(&self, loc: DebugLoc) -> SourceLocation<'b> {
        SourceLocation {
            file: loc.scope.and_then(|s| self.scope_file(s)),
            line: loc.line,
            column: loc.column,
            function: loc.scope.and_then(|s| self.subprogram_of_scope(s)).and_then(|sp| self.subprogram(sp)),
            loc,
        }
    }

    /// Where instruction `index` of the body came from, then each place it was inlined
    /// at, innermost first: `file:line:column` and the function of each (empty if the
    /// instruction has no location, or for module debug info).
    ///
    /// ```
    /// use llvm_bitstream_reader::ir::Module;
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/rustc_llvm22_o0_debuginfo.bc"))?;
    /// let module = Module::parse(&bytes)?;
    /// let bodies = module.bodies()?;
    /// let index = module.functions.iter().position(|f| !f.is_declaration).unwrap();
    /// let body = bodies.body(index)?.unwrap();
    /// let info = bodies.debug_info(Some(&body));
    /// let i = body.instructions.iter().position(|inst| inst.debug_loc.is_some()).unwrap();
    /// let chain: Vec<_> = info.instruction_location(i).collect();
    /// // Innermost first; the last is in the function the code ended up in.
    /// let (here, outermost) = (chain[0], chain[chain.len() - 1]);
    /// assert!(here.to_string().contains(".rs:")); // path:line:column
    /// assert!(here.line > 0 && outermost.function.is_some());
    /// # Ok(()) }
    /// ```
    pub fn instruction_location(&self, index: usize) -> impl Iterator<Item = SourceLocation<'b>> + '_ {
        let loc = self
            .body
            .and_then(|b| b.instructions.get(index)?.debug_loc.and_then(|l| b.debug_locs.get(l as usize)))
            .copied();
        let mut next = loc;
        core::iter::from_fn(move || {
            let here = next.take()?;
            next = here.inlined_at.and_then(|id| self.location(id));
            Some(self.source_location(here))
        })
        .take(MAX_SCOPE_DEPTH)
    }

    /// The metadata node with id `id` as this debug info sees it: a module's id, or, for
    /// a function's debug info ([`Bodies::debug_info`] with `Some(body)`), one of the ids
    /// its body's own METADATA_BLOCK defines after the module's (its `DILocation`s, its
    /// values as metadata, its `DIArgList`s). `None` past [`Self::len`].
    ///
    /// ```
    /// use llvm_bitstream_reader::ids::llvm_ir::raw::METADATA_LOCATION;
    /// use llvm_bitstream_reader::ir::{MetadataNode, Module};
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/rustc_llvm22_o0_debuginfo.bc"))?;
    /// let module = Module::parse(&bytes)?;
    /// let bodies = module.bodies()?;
    /// let index = module.functions.iter().position(|f| !f.is_declaration).unwrap();
    /// let body = bodies.body(index)?.unwrap();
    /// let function = bodies.debug_info(Some(&body));
    /// let module_ids = bodies.debug_info(None).len();
    /// // The function's own ids follow the module's: here its instructions' locations.
    /// let locations = (module_ids..function.len())
    ///     .filter(|&id| matches!(function.node(id), Some(MetadataNode::Debug { code: METADATA_LOCATION, .. })))
    ///     .count();
    /// assert!(locations > 0);
    /// assert!(function.node(function.len()).is_none());
    /// # Ok(()) }
    /// ```
    pub fn node(&self, id: u64) -> Option<MetadataNode<'b>> {
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
            id,
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

/// A global value's name as its debug info gives it, for a value whose own name the file
/// does not hold: a cut file's, whose STRTAB (where names are since LLVM 5) is gone. It
/// is the debug info's word, kept apart from the file's names
/// ([`GlobalCommon::name`](crate::ir::GlobalCommon::name) stays empty).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct RecoveredName {
    /// The global value's id.
    pub value_id: u64,
    /// The name: the linkage name where the node has one, else its source name (a C
    /// function's or variable's, which is its symbol's).
    pub name: alloc::vec::Vec<u8>,
    /// Which node gave it.
    pub source: NameSource,
}

impl RecoveredName {
    /// The name as text.
    pub fn name_str(&self) -> Cow<'_, str> {
        String::from_utf8_lossy(&self.name)
    }
}

/// Where a [`RecoveredName`] comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum NameSource {
    /// The `DISubprogram` attached to the function (`!dbg`).
    Subprogram,
    /// The `DIGlobalVariable` attached to the variable (`!dbg`).
    GlobalVariable,
}

impl fmt::Display for NameSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            NameSource::Subprogram => "DISubprogram",
            NameSource::GlobalVariable => "DIGlobalVariable",
        })
    }
}

impl Bodies<'_, '_> {
    /// The name debug info gives the global value `value_id`: the `DISubprogram` of a
    /// function (a definition's from its body, which is decoded for it; a
    /// declaration's from the module's attachments) or the `DIGlobalVariable` of a
    /// variable. `None` for an alias, or a value without `!dbg`. For the unnamed values
    /// of a cut file ([`Module::parse_partial`](crate::ir::Module::parse_partial)); it
    /// answers for any value.
    ///
    /// ```
    /// use llvm_bitstream_reader::ir::{Module, NameSource};
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/rustc_llvm22_o0_debuginfo.bc"))?;
    /// // Cut before the STRTAB: no function has its name.
    /// let (module, _error) = Module::parse_partial(&bytes[..bytes.len() * 9 / 10]);
    /// let module = module.unwrap();
    /// let bodies = module.bodies()?;
    /// let index = module.functions.iter().position(|f| f.body.is_some()).unwrap();
    /// let value_id = module.functions[index].common.value_id;
    /// let recovered = bodies.recovered_name(value_id).expect("a debug build");
    /// assert_eq!(recovered.source, NameSource::Subprogram);
    /// // What the whole file calls it.
    /// let whole = Module::parse(&bytes)?;
    /// assert_eq!(recovered.name, whole.functions[index].common.name.as_ref());
    /// # Ok(()) }
    /// ```
    pub fn recovered_name(&self, value_id: u64) -> Option<RecoveredName> {
        let body = match *self.module().values.get(usize::try_from(value_id).ok()?)? {
            crate::ir::GlobalRef::Function(i) => self.body_as_written(i).ok().flatten(),
            _ => None,
        };
        self.recovered_name_with(value_id, body.as_ref())
    }

    /// [`Bodies::recovered_name`] with a definition's body already decoded (`body`, for
    /// a function; `None` for a declaration or a value of another kind).
    pub(crate) fn recovered_name_with(&self, value_id: u64, body: Option<&Body>) -> Option<RecoveredName> {
        let info = self.debug_info(None);
        let (name, source) = match *self.module().values.get(usize::try_from(value_id).ok()?)? {
            crate::ir::GlobalRef::Var(_) => {
                let v = info.global_variable(value_id)?;
                (symbol_name(v.name, v.linkage_name).to_vec(), NameSource::GlobalVariable)
            }
            crate::ir::GlobalRef::Function(_) => {
                let sp = match body {
                    Some(body) => self.debug_info(Some(body)).function_subprogram(),
                    None => info.global_subprogram(value_id),
                }?;
                (symbol_name(sp.name, sp.linkage_name).to_vec(), NameSource::Subprogram)
            }
            crate::ir::GlobalRef::Alias(_) => return None,
        };
        (!name.is_empty()).then_some(RecoveredName { value_id, name, source })
    }

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
