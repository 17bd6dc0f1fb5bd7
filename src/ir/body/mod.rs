//! Function bodies: a FUNCTION_BLOCK decoded on demand into flat tables of basic blocks,
//! instructions and typed operands, with LLVM's value numbering resolved.
//!
//! ```
//! use llvm_bitstream_reader::ir::{InstKind, Module, Value};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/rustc_llvm22_o3.bc"))?;
//! let module = Module::parse(&bytes)?;
//! // Module-level constants and the lookups bodies need, decoded once.
//! let bodies = module.bodies()?;
//! let mut calls = 0;
//! for (index, function) in module.functions.iter().enumerate() {
//!     // Only the bodies asked for are decoded (each from its skipped block).
//!     let Some(body) = bodies.body(index)? else { continue };
//!     for inst in &body.instructions {
//!         if let InstKind::Call { .. } = inst.kind {
//!             // The callee is the first operand: a typed, resolved value.
//!             if let Value::Global(id) = body.operands(inst)[0].value {
//!                 let callee = module.global(id).map(|g| g.name_str().into_owned());
//!                 let _ = (function.common.name_str(), callee);
//!             }
//!             calls += 1;
//!         }
//!     }
//! }
//! assert!(calls > 0);
//! # Ok(()) }
//! ```
//!
//! Value numbering is LLVM's: global values, then the module's constants, then per
//! function its arguments, its constants and the value-producing instructions. Relative
//! operand ids (VERSION 1 and later), absolute ids (VERSION 0), forward references with
//! their explicit types, PHI's signed relative ids and basic-block ids are all resolved:
//! an [`Operand`] is a [`Value`] with its type. Storage is per body: one vector of
//! instructions, one of operands, one of literal fields (indices, clause kinds), so
//! decoding allocates per table, never per instruction. An unknown record code is kept
//! ([`InstKind::Unknown`]); a reference that cannot be resolved is an error for that body
//! only, with its bit offset.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use crate::error::Error;
use crate::ids::llvm_ir as ids_block;
use crate::ids::llvm_ir::raw as ids;
use crate::ir::module::Module;
use crate::ir::module::constants::{Constant, ConstantKind, ModuleConstants, Operands};
use crate::ir::module::types::{Type, TypeId, TypeTable};
use crate::ir::vocabulary::opcodes::{binary_op_name, cast_op_name};
use crate::layout::Unknown;
use crate::reader::{Entry, Reader};

/// A value an operand refers to, resolved from LLVM's value numbering.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub enum Value {
    /// A global value (variable, function, alias or ifunc) by its value id
    /// ([`Module::global`]).
    Global(u64),
    /// A constant by its value id: a module-level one ([`ModuleConstants`] of
    /// [`Bodies::constants`]) or one of the function's ([`Body::constants`]).
    Constant(u64),
    /// The function's argument `n`.
    Argument(u32),
    /// The result of instruction `n` of the body ([`Body::instructions`]).
    Instruction(u32),
    /// Basic block `n` of the body.
    Block(u32),
    /// A metadata operand (`metadata !N`), by the file's metadata id; decoded by the
    /// metadata layer.
    Metadata(u64),
    /// A value id that names nothing: a forward reference never defined. Only a body
    /// read with errors tolerated has one.
    Unresolved(u64),
}

/// An operand: a value and its type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Operand {
    /// What it refers to.
    pub value: Value,
    /// Its type.
    pub ty: TypeId,
}

/// An atomic ordering (`AtomicOrdering`), as the file encodes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub enum Ordering {
    /// Not atomic.
    NotAtomic,
    /// `unordered`.
    Unordered,
    /// `monotonic`.
    Monotonic,
    /// `acquire`.
    Acquire,
    /// `release`.
    Release,
    /// `acq_rel`.
    AcqRel,
    /// `seq_cst`.
    SeqCst,
    /// An encoding this crate does not know.
    Unknown(u64),
}

impl Ordering {
    /// The ordering for an encoded value.
    pub fn from_raw(v: u64) -> Self {
        match v {
            0 => Ordering::NotAtomic,
            1 => Ordering::Unordered,
            2 => Ordering::Monotonic,
            3 => Ordering::Acquire,
            4 => Ordering::Release,
            5 => Ordering::AcqRel,
            6 => Ordering::SeqCst,
            n => Ordering::Unknown(n),
        }
    }

    /// Its name in LLVM assembly (`seq_cst`); empty for `NotAtomic`.
    pub fn name(self) -> &'static str {
        match self {
            Ordering::NotAtomic => "",
            Ordering::Unordered => "unordered",
            Ordering::Monotonic => "monotonic",
            Ordering::Acquire => "acquire",
            Ordering::Release => "release",
            Ordering::AcqRel => "acq_rel",
            Ordering::SeqCst => "seq_cst",
            Ordering::Unknown(_) => "<unknown ordering>",
        }
    }
}

/// `tail`, `musttail`, `notail` or none, on a call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum TailKind {
    /// No marker.
    None,
    /// `tail`.
    Tail,
    /// `musttail`.
    MustTail,
    /// `notail`.
    NoTail,
}

/// The call-site facts shared by `call`, `invoke` and `callbr`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct CallInfo {
    /// The calling convention number (0 is C).
    pub calling_conv: u32,
    /// The call's attribute list: an index into [`Module::attribute_lists`].
    pub attributes: Option<u32>,
    /// The callee's function type.
    pub function_type: TypeId,
    /// Fast-math flags (bitcode encoding), 0 if none.
    pub fast_math: u32,
    /// The operand bundles: a range of [`Body::bundles`].
    pub bundles: Operands,
}

/// What an instruction is, with the fields that are not operands. Opcodes of
/// unary, binary, cast, compare and atomicrmw instructions are the file's numbers
/// (`BinaryOpcodes`, `CastOpcodes`, `CmpInst::Predicate`, `RMWOperations`), named by
/// [`binary_op_name`], [`cast_op_name`], [`predicate_name`] and [`rmw_op_name`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub enum InstKind {
    /// `ret` (operands: the value, if any).
    Ret,
    /// `br` (operands: the target; or the condition and both targets).
    Br,
    /// `switch` (operands: condition, default block, then (case value, block) pairs).
    Switch,
    /// `indirectbr` (operands: the address, then the possible blocks).
    IndirectBr,
    /// `invoke` (operands: callee, arguments, normal block, unwind block).
    Invoke(CallInfo),
    /// `resume` (operands: the exception value).
    Resume,
    /// `unreachable`.
    Unreachable,
    /// `cleanupret` (operands: the cleanuppad, and the unwind block if any).
    CleanupRet,
    /// `catchret` (operands: the catchpad, the target block).
    CatchRet,
    /// `catchswitch` (operands: the parent pad, the handlers, and the unwind block if
    /// `has_unwind`).
    CatchSwitch {
        /// Whether the last operand is an unwind block.
        has_unwind: bool,
    },
    /// `callbr` (operands: callee, arguments, default block, indirect blocks).
    CallBr {
        /// The call.
        call: CallInfo,
        /// How many indirect destinations end the operands.
        indirect: u32,
    },
    /// A unary operator (`fneg` is opcode 0).
    Unary {
        /// The `UnaryOpcodes` number.
        opcode: u32,
        /// Fast-math flags.
        flags: u32,
    },
    /// A binary operator.
    Binary {
        /// The `BinaryOpcodes` number (with the operand type deciding `add`/`fadd`).
        opcode: u32,
        /// `nuw`/`nsw`, `exact`, `disjoint` or fast-math flags, by the opcode.
        flags: u32,
    },
    /// A cast.
    Cast {
        /// The `CastOpcodes` number.
        opcode: u32,
        /// `nneg`, `nuw`/`nsw` or fast-math flags, by the opcode.
        flags: u32,
    },
    /// `getelementptr` (operands: the base pointer, then the indices).
    GetElementPtr {
        /// The source element type.
        source: TypeId,
        /// `inbounds` (bit 0), `nusw` (bit 1), `nuw` (bit 2).
        flags: u32,
    },
    /// `alloca` (operands: the array size).
    Alloca {
        /// The allocated type.
        allocated: TypeId,
        /// The alignment in bytes.
        align: Option<u64>,
        /// `inalloca`.
        inalloca: bool,
        /// `swifterror`.
        swifterror: bool,
    },
    /// `load` (operands: the pointer).
    Load {
        /// The alignment in bytes.
        align: Option<u64>,
        /// `volatile`.
        volatile: bool,
        /// The atomic ordering.
        ordering: Ordering,
        /// The sync scope id (see [`Bodies::sync_scope_name`]).
        scope: u32,
    },
    /// `store` (operands: the value, the pointer).
    Store {
        /// The alignment in bytes.
        align: Option<u64>,
        /// `volatile`.
        volatile: bool,
        /// The atomic ordering.
        ordering: Ordering,
        /// The sync scope id.
        scope: u32,
    },
    /// `fence`.
    Fence {
        /// The ordering.
        ordering: Ordering,
        /// The sync scope id.
        scope: u32,
    },
    /// `cmpxchg` (operands: pointer, expected, new value).
    CmpXchg {
        /// `weak`.
        weak: bool,
        /// `volatile`.
        volatile: bool,
        /// The ordering on success.
        success: Ordering,
        /// The ordering on failure.
        failure: Ordering,
        /// The sync scope id.
        scope: u32,
        /// The alignment in bytes.
        align: Option<u64>,
    },
    /// `atomicrmw` (operands: pointer, value).
    AtomicRmw {
        /// The `RMWOperations` number.
        opcode: u32,
        /// `volatile`.
        volatile: bool,
        /// The ordering.
        ordering: Ordering,
        /// The sync scope id.
        scope: u32,
        /// The alignment in bytes.
        align: Option<u64>,
    },
    /// `icmp` or `fcmp` (operands: left, right).
    Cmp {
        /// The `CmpInst::Predicate` (0-15 floating point, 32-41 integer).
        predicate: u32,
        /// Fast-math flags (`fcmp`) or `samesign` (bit 0, `icmp`).
        flags: u32,
    },
    /// `phi` (operands: (value, block) pairs).
    Phi {
        /// Fast-math flags.
        flags: u32,
    },
    /// `select` (operands: condition, true value, false value).
    Select {
        /// Fast-math flags.
        flags: u32,
    },
    /// `call` (operands: callee, then the arguments).
    Call {
        /// The call.
        call: CallInfo,
        /// `tail`, `musttail`, `notail`.
        tail: TailKind,
    },
    /// `va_arg` (operands: the va_list pointer).
    VaArg,
    /// `landingpad` (operands: the clauses; their kinds in [`Body::literals`]).
    LandingPad {
        /// `cleanup`.
        cleanup: bool,
        /// Each clause's kind (0 catch, 1 filter): a range of [`Body::literals`].
        clauses: Operands,
    },
    /// `cleanuppad` (operands: the parent pad, then the arguments).
    CleanupPad,
    /// `catchpad` (operands: the catchswitch, then the arguments).
    CatchPad,
    /// `extractelement` (operands: vector, index).
    ExtractElement,
    /// `insertelement` (operands: vector, element, index).
    InsertElement,
    /// `shufflevector` (operands: two vectors, the mask constant).
    ShuffleVector,
    /// `extractvalue` (operands: the aggregate).
    ExtractValue {
        /// The indices: a range of [`Body::literals`].
        indices: Operands,
    },
    /// `insertvalue` (operands: the aggregate, the value).
    InsertValue {
        /// The indices: a range of [`Body::literals`].
        indices: Operands,
    },
    /// `freeze` (operands: the value).
    Freeze,
    /// A record code this crate does not know as an instruction: its operands, as read,
    /// in [`Body::literals`]. It produces no value.
    Unknown {
        /// The record code.
        code: u32,
        /// The record's operands.
        operands: Operands,
    },
}

impl InstKind {
    /// Whether it ends a basic block.
    pub fn is_terminator(&self) -> bool {
        matches!(
            self,
            InstKind::Ret
                | InstKind::Br
                | InstKind::Switch
                | InstKind::IndirectBr
                | InstKind::Invoke(_)
                | InstKind::Resume
                | InstKind::Unreachable
                | InstKind::CleanupRet
                | InstKind::CatchRet
                | InstKind::CatchSwitch { .. }
                | InstKind::CallBr { .. }
        )
    }
}

/// One instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct Instruction {
    /// What it is.
    pub kind: InstKind,
    /// Its result type (the void type for instructions without a result).
    pub ty: TypeId,
    /// Whether it produces a value (a value id and, unless named, a `%N`).
    pub has_result: bool,
    /// Its operands: a range of [`Body::operands`] ([`Body::operands`] gives the slice).
    pub operands: Operands,
    /// Its source location: an index into [`Body::debug_locs`].
    pub debug_loc: Option<u32>,
    /// The bit offset of its record.
    pub bit: u64,
}

/// A basic block: a run of [`Body::instructions`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct BasicBlock {
    /// The index of its first instruction.
    pub first: u32,
    /// How many instructions it has.
    pub len: u32,
}

/// An operand bundle of a call (`[ "deopt"(i32 1) ]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Bundle {
    /// The tag id: an index into [`Bodies::bundle_tags`].
    pub tag: u32,
    /// Its inputs: a range of [`Body::operands`].
    pub inputs: Operands,
}

/// One metadata attachment: `!dbg !12` on a function, `!tbaa !5` on an instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Attachment {
    /// The instruction (an index into [`Body::instructions`]), or `None` for the function.
    pub instruction: Option<u32>,
    /// The file's attachment kind id ([`Metadata::kind_name`](crate::ir::Metadata::kind_name)).
    pub kind: u64,
    /// The metadata id attached.
    pub node: u64,
}

/// A DEBUG_LOC: line, column, and the scope and inlined-at location as metadata ids (the
/// metadata layer resolves them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct DebugLoc {
    /// The line.
    pub line: u32,
    /// The column.
    pub column: u32,
    /// The scope's metadata id.
    pub scope: Option<u64>,
    /// The inlined-at location's metadata id.
    pub inlined_at: Option<u64>,
    /// `isImplicitCode`.
    pub implicit: bool,
    /// The key-instructions atom group (LLVM 21 and later), 0 for none.
    pub atom_group: u64,
    /// The rank within the atom group, 0 for none.
    pub atom_rank: u64,
}

/// A debug record of LLVM 19 and later (`#dbg_value`, `#dbg_declare`, `#dbg_assign`,
/// `#dbg_label`), printed before instruction [`DebugRecord::before`]. Metadata operands
/// are the file's metadata ids.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct DebugRecord {
    /// The record code (FUNC_CODE_DEBUG_RECORD_*).
    pub code: u32,
    /// The instruction it stands before.
    pub before: u32,
    /// The record's operands as metadata ids, except the value of a
    /// DEBUG_RECORD_VALUE_SIMPLE, which is in `value`.
    pub operands: Operands,
    /// The location operand of VALUE_SIMPLE records, resolved.
    pub value: Option<Operand>,
}

/// A decoded function body ([`Bodies::body`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Body {
    /// The function: an index into [`Module::functions`].
    pub function: usize,
    /// The value id of the first argument (the module's value count).
    pub first_value: u64,
    /// The argument types.
    pub arguments: Vec<TypeId>,
    /// The function-level constants (value ids from `first_value + arguments.len()`).
    pub constants: ModuleConstants,
    /// The basic blocks, in order.
    pub blocks: Vec<BasicBlock>,
    /// The instructions, in order.
    pub instructions: Vec<Instruction>,
    /// The operand lists of the instructions, bundles and debug records.
    pub operand_pool: Vec<Operand>,
    /// Literal lists: extractvalue/insertvalue indices, landingpad clause kinds, unknown
    /// records' operands, debug records' metadata ids.
    pub literals: Vec<u64>,
    /// Operand bundles.
    pub bundles: Vec<Bundle>,
    /// Source locations.
    pub debug_locs: Vec<DebugLoc>,
    /// Debug records (LLVM 19 and later).
    pub debug_records: Vec<DebugRecord>,
    /// Names of arguments and instructions: (local index, name range in `name_bytes`),
    /// local index = value id - `first_value`.
    pub value_names: Vec<(u32, Operands)>,
    /// Names of basic blocks: (block, name range in `name_bytes`).
    pub block_names: Vec<(u32, Operands)>,
    /// The bytes of the names (VALUE_SYMTAB names are arrays of characters in records,
    /// not blobs, so they are copied once per body).
    pub name_bytes: Vec<u8>,
    /// USELIST_CODE_BB records: (block, permutation range in `literals`).
    pub block_use_orders: Vec<(u32, Operands)>,
    /// Records and blocks kept but not interpreted.
    pub unknown: Vec<Unknown>,
    /// The value id -> local mapping: for each local value id (from `first_value`), what
    /// it is.
    locals: Vec<Local>,
    /// The function's own metadata (its METADATA_BLOCK): ids after the module's.
    pub(crate) metadata: crate::ir::metadata::MdTable,
    /// The metadata attached to the function and its instructions (METADATA_ATTACHMENT),
    /// in the file's order.
    pub attachments: Vec<Attachment>,
    /// The type of each local value, kept for the storage's reuse.
    #[cfg_attr(feature = "serde", serde(skip))]
    local_types: Vec<TypeId>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
enum Local {
    Argument(u32),
    Constant,
    Instruction(u32),
}

impl Body {
    /// Empties every table, keeping their storage.
    fn clear(&mut self) {
        self.arguments.clear();
        self.constants.constants.clear();
        self.constants.operands.clear();
        self.blocks.clear();
        self.instructions.clear();
        self.operand_pool.clear();
        self.literals.clear();
        self.bundles.clear();
        self.debug_locs.clear();
        self.debug_records.clear();
        self.value_names.clear();
        self.block_names.clear();
        self.name_bytes.clear();
        self.block_use_orders.clear();
        self.unknown.clear();
        self.locals.clear();
        self.local_types.clear();
        self.metadata.clear(0);
        self.attachments.clear();
    }

    /// What a value id of this function names (a global, a constant, an argument, an
    /// instruction's result).
    pub(crate) fn value_of(&self, id: u64, module_constants_base: u64) -> Value {
        if id < module_constants_base {
            return Value::Global(id);
        }
        if id < self.first_value {
            return Value::Constant(id);
        }
        match usize::try_from(id - self.first_value).ok().and_then(|l| self.locals.get(l)) {
            Some(Local::Argument(a)) => Value::Argument(*a),
            Some(Local::Constant) => Value::Constant(id),
            Some(Local::Instruction(i)) => Value::Instruction(*i),
            None => Value::Unresolved(id),
        }
    }

    /// The operands of an instruction.
    pub fn operands(&self, inst: &Instruction) -> &[Operand] {
        self.operand_range(inst.operands)
    }

    /// The operands a range of [`Body::operand_pool`] names.
    pub fn operand_range(&self, range: Operands) -> &[Operand] {
        let start = range.start as usize;
        self.operand_pool.get(start..start + range.len as usize).unwrap_or(&[])
    }

    /// The literals a range of [`Body::literals`] names.
    pub fn literal_range(&self, range: Operands) -> &[u64] {
        let start = range.start as usize;
        self.literals.get(start..start + range.len as usize).unwrap_or(&[])
    }

    /// The instructions of a basic block.
    pub fn block_instructions(&self, block: usize) -> &[Instruction] {
        let Some(b) = self.blocks.get(block) else { return &[] };
        let start = b.first as usize;
        self.instructions.get(start..start + b.len as usize).unwrap_or(&[])
    }

    /// The name of argument `n`, if it has one.
    pub fn argument_name(&self, n: u32) -> Option<&[u8]> {
        self.local_name(n)
    }

    /// The name of instruction `n`'s result, if it has one.
    pub fn instruction_name(&self, n: u32) -> Option<&[u8]> {
        // Locals are the arguments, the constants, then the results in instruction order.
        let start = self.arguments.len() + self.constants.constants.len();
        let results = self.locals.get(start..)?;
        let at =
            results.binary_search_by_key(&n, |l| if let Local::Instruction(i) = l { *i } else { u32::MAX }).ok()?;
        self.local_name((start + at) as u32)
    }

    /// The name of basic block `n`, if it has one.
    pub fn block_name(&self, n: u32) -> Option<&[u8]> {
        let i = self.block_names.binary_search_by_key(&n, |(b, _)| *b).ok()?;
        self.name(self.block_names[i].1)
    }

    pub(crate) fn local_name(&self, local: u32) -> Option<&[u8]> {
        let i = self.value_names.binary_search_by_key(&local, |(v, _)| *v).ok()?;
        self.name(self.value_names[i].1)
    }

    fn name(&self, range: Operands) -> Option<&[u8]> {
        let start = range.start as usize;
        self.name_bytes.get(start..start + range.len as usize).filter(|n| !n.is_empty())
    }

    /// For each instruction with a result, its local index (value id - `first_value`):
    /// what the printer numbers.
    pub(crate) fn instruction_locals(&self) -> Vec<u32> {
        let mut out = alloc::vec![u32::MAX; self.instructions.len()];
        for (local, l) in self.locals.iter().enumerate() {
            if let Local::Instruction(i) = l {
                if let Some(slot) = out.get_mut(*i as usize) {
                    *slot = local as u32;
                }
            }
        }
        out
    }
}

/// What decoding bodies needs from a module, made once ([`Module::bodies`]): the
/// module-level constants, type lookups, operand bundle tags and sync scope names.
/// `Send + Sync`: bodies decode in parallel from one `Bodies`.
#[derive(Debug)]
pub struct Bodies<'m, 'a> {
    module: &'m Module<'a>,
    constants: ModuleConstants,
    index: TypeIndex,
    bundle_tags: Vec<String>,
    sync_scopes: Vec<String>,
    group_index: BTreeMap<u64, usize>,
    /// The pointer type of each global value, by value id.
    global_types: Vec<TypeId>,
    /// The module's metadata, read on first use.
    metadata: crate::ir::module::lazy_table::Once<(crate::ir::metadata::MdTable, Option<Error>)>,
}

/// Types looked up by structure (the pointer to a type, a vector of a type, …): the
/// result types of instructions that the records do not spell out.
#[derive(Debug)]
struct TypeIndex {
    map: BTreeMap<TypeKey, TypeId>,
    typed_pointers: bool,
    /// The types nearly every body asks for, looked up once.
    void: TypeId,
    label: TypeId,
    token: TypeId,
    i1: TypeId,
    metadata: TypeId,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum TypeKey {
    Void,
    Label,
    Token,
    Metadata,
    Int(u64),
    Pointer(u32, u64),
    Vector(u32, u64, bool),
    /// A literal struct of two elements: `{ T, i1 }` for cmpxchg.
    Pair(u32, u32),
}

/// The type id of nothing (a type a malformed file never defined).
pub const NO_TYPE: TypeId = TypeId(u32::MAX);

impl TypeIndex {
    fn new(types: &TypeTable) -> Self {
        let mut index = TypeIndex {
            map: BTreeMap::new(),
            typed_pointers: false,
            void: NO_TYPE,
            label: NO_TYPE,
            token: NO_TYPE,
            i1: NO_TYPE,
            metadata: NO_TYPE,
        };
        for (i, t) in types.types.iter().enumerate() {
            let key = match t {
                Type::Void => TypeKey::Void,
                Type::Label => TypeKey::Label,
                Type::Token => TypeKey::Token,
                Type::Metadata => TypeKey::Metadata,
                Type::Integer(w) => TypeKey::Int(*w),
                Type::Pointer { pointee, address_space } => {
                    index.typed_pointers |= pointee.is_some();
                    TypeKey::Pointer(pointee.map_or(u32::MAX, |p| p.0), *address_space)
                }
                Type::Vector { len, element, scalable } => TypeKey::Vector(element.0, *len, *scalable),
                Type::Struct { identified: false, elements: Some(e), .. } if e.len() == 2 => {
                    TypeKey::Pair(e[0].0, e[1].0)
                }
                _ => continue,
            };
            index.map.entry(key).or_insert(TypeId(i as u32));
        }
        index.void = index.lookup(TypeKey::Void);
        index.label = index.lookup(TypeKey::Label);
        index.token = index.lookup(TypeKey::Token);
        index.i1 = index.lookup(TypeKey::Int(1));
        index.metadata = index.lookup(TypeKey::Metadata);
        index
    }

    fn lookup(&self, key: TypeKey) -> TypeId {
        self.map.get(&key).copied().unwrap_or(NO_TYPE)
    }

    fn get(&self, key: TypeKey) -> TypeId {
        match key {
            TypeKey::Void => self.void,
            TypeKey::Label => self.label,
            TypeKey::Token => self.token,
            TypeKey::Int(1) => self.i1,
            key => self.lookup(key),
        }
    }

    /// The pointer to `pointee` in `address_space`: `ptr` in a file with opaque pointers.
    fn pointer_to(&self, pointee: TypeId, address_space: u64) -> TypeId {
        let pointee = if self.typed_pointers { pointee.0 } else { u32::MAX };
        self.get(TypeKey::Pointer(pointee, address_space))
    }
}

impl<'a> Module<'a> {
    /// Prepares decoding function bodies: decodes the module-level constants and the
    /// module's operand bundle tags and sync scope names, once. Then
    /// [`Bodies::body`] decodes any function's body, from any thread.
    pub fn bodies(&self) -> Result<Bodies<'_, 'a>, Error> {
        let constants = self.constants()?;
        let index = TypeIndex::new(&self.types);
        let (mut bundle_tags, mut sync_scopes) = (Vec::new(), Vec::new());
        crate::ir::module::each_child_block(&self.block, |id, reader| {
            let out = if id == ids_block::OPERAND_BUNDLE_TAGS_BLOCK_ID {
                &mut bundle_tags
            } else if id == ids_block::SYNC_SCOPE_NAMES_BLOCK_ID {
                &mut sync_scopes
            } else {
                return Ok(false);
            };
            crate::ir::module::each_record(reader, |r| {
                out.push(r.text_from(0));
                Ok(())
            })?;
            Ok(true)
        })?;
        let group_index = self.attribute_groups.iter().enumerate().map(|(i, g)| (g.id, i)).rev().collect();
        let global_types = (0..self.values.len() as u64)
            .map(|id| match self.global(id) {
                Some(g) => index.pointer_to(g.value_type, g.address_space),
                None => NO_TYPE,
            })
            .collect();
        Ok(Bodies {
            module: self,
            constants,
            index,
            bundle_tags,
            sync_scopes,
            group_index,
            global_types,
            metadata: crate::ir::module::lazy_table::Once::new(),
        })
    }
}

impl<'m, 'a> Bodies<'m, 'a> {
    /// The module.
    pub fn module(&self) -> &'m Module<'a> {
        self.module
    }

    /// The module-level constants.
    pub fn constants(&self) -> &ModuleConstants {
        &self.constants
    }

    /// The operand bundle tags of the module (`"deopt"`, `"funclet"`, …), by tag id.
    pub fn bundle_tags(&self) -> &[String] {
        &self.bundle_tags
    }

    /// A sync scope's name as `llvm-dis` prints it in `syncscope("…")`; `None` for the
    /// system scope, which is not printed.
    pub fn sync_scope_name(&self, scope: u32) -> Option<&str> {
        if self.sync_scopes.is_empty() {
            // Files before the SYNC_SCOPE_NAMES_BLOCK: 0 singlethread, 1 system.
            return (scope == 0).then_some("singlethread");
        }
        self.sync_scopes.get(scope as usize).map(String::as_str).filter(|n| !n.is_empty())
    }

    /// The attribute group with this id.
    pub(crate) fn attribute_group(&self, id: u64) -> Option<&crate::ir::AttributeGroup> {
        self.module.attribute_groups.get(*self.group_index.get(&id)?)
    }

    /// The constant a [`Value::Constant`] of `body` names, a module-level one or one of
    /// the function's, with the table its operand ranges index.
    pub fn constant<'s>(&'s self, body: &'s Body, value_id: u64) -> Option<(&'s Constant, &'s ModuleConstants)> {
        if let Some(c) = body.constants.get(value_id) {
            return Some((c, &body.constants));
        }
        self.constants.get(value_id).map(|c| (c, &self.constants))
    }

    /// The module's metadata (read on first use; a broken block keeps what was read
    /// before it).
    pub(crate) fn module_metadata(&self) -> &crate::ir::metadata::MdTable {
        &self.module_metadata_and_error().0
    }

    /// The module's metadata and the error that cut its reading short, if one did.
    pub(crate) fn module_metadata_and_error(&self) -> &(crate::ir::metadata::MdTable, Option<Error>) {
        self.metadata.get_or_init(|| {
            let mut table = crate::ir::metadata::MdTable::default();
            let error = crate::ir::metadata::MdTable::read_module_into(&self.module.block, &mut table).err();
            (table, error)
        })
    }

    /// The type id of `metadata`, if the module has it.
    pub(crate) fn metadata_type(&self) -> Option<TypeId> {
        Some(self.index.metadata).filter(|&t| t != NO_TYPE)
    }

    /// The type id of `void`, if the module has it.
    pub(crate) fn void_type(&self) -> Option<TypeId> {
        Some(self.index.void).filter(|&t| t != NO_TYPE)
    }

    /// The bytes of the stream the module is in.
    pub(crate) fn input(&self) -> &'a [u8] {
        self.module.block.stream().bytes()
    }

    /// Whether the file's pointers are typed (LLVM 14 and before).
    pub fn typed_pointers(&self) -> bool {
        self.index.typed_pointers
    }

    /// The type of a value of the module (a global value's pointer type, or a module
    /// constant's type).
    pub(crate) fn module_value_type(&self, id: u64) -> TypeId {
        if let Some(c) = self.constants.get(id) {
            return c.ty;
        }
        usize::try_from(id).ok().and_then(|i| self.global_types.get(i)).copied().unwrap_or(NO_TYPE)
    }

    /// Decodes function `function`'s body ([`Module::functions`] index); `None` for a
    /// declaration.
    pub fn body(&self, function: usize) -> Result<Option<Body>, Error> {
        let mut body = Body::default();
        Ok(self.body_into(function, &mut body)?.then_some(body))
    }

    /// Decodes function `function`'s body into `body`, reusing its tables' storage (no
    /// allocation in the steady state of a loop over many functions). `Ok(false)` for a
    /// declaration. On an error, `body` holds what was decoded before the break.
    pub fn body_into(&self, function: usize, body: &mut Body) -> Result<bool, Error> {
        let Some(f) = self.module.functions.get(function) else { return Ok(false) };
        let Some(block) = f.body.as_ref() else { return Ok(false) };
        let first_value = self.constants.base + self.constants.constants.len() as u64;
        let mut reused = core::mem::take(body);
        reused.clear();
        reused.function = function;
        reused.first_value = first_value;
        if let Some(Type::Function { params, .. }) = self.module.types.get(f.common.value_type) {
            reused.arguments.extend_from_slice(params);
        }
        let arguments = reused.arguments.len() as u32;
        reused.constants.base = first_value + u64::from(arguments);
        reused.locals.extend((0..arguments).map(Local::Argument));
        let mut local_types = core::mem::take(&mut reused.local_types);
        local_types.extend_from_slice(&reused.arguments);
        // Sized from the block's length, which the input holds (about one instruction per
        // 40 bits of body), so that the tables do not grow step by step.
        let estimate = (block.bookmark().len_words as usize).saturating_mul(32) / 40;
        reused.instructions.reserve(estimate);
        reused.operand_pool.reserve(estimate.saturating_mul(2));
        reused.locals.reserve(estimate);
        local_types.reserve(estimate);
        let mut d = Decoder {
            bodies: self,
            body: reused,
            local_types,
            relative: self.module.version.unwrap_or(0) >= 1,
            declared_blocks: 0,
            current_block_start: 0,
            last_loc: None,
            pending_bundles: None,
            bit: 0,
        };
        let read = block.reader().and_then(|mut reader| {
            reader.advance()?;
            d.read(&mut reader)
        });
        *body = d.finish();
        read.map(|()| true)
    }
}

struct Decoder<'b, 'm, 'a> {
    bodies: &'b Bodies<'m, 'a>,
    body: Body,
    /// The type of each local value id (from `first_value`).
    local_types: Vec<TypeId>,
    relative: bool,
    declared_blocks: u64,
    current_block_start: u32,
    last_loc: Option<u32>,
    pending_bundles: Option<Operands>,
    bit: u64,
}

/// Reads operand `i` of a record, or fails with the record's bit offset.
macro_rules! need {
    ($d:expr, $ops:expr, $i:expr) => {
        match $ops.get($i) {
            Some(&v) => v,
            None => return Err($d.short($ops.len(), $i + 1)),
        }
    };
}

impl Decoder<'_, '_, '_> {
    fn next_value(&self) -> u64 {
        self.body.first_value + self.local_types.len() as u64
    }

    fn short(&self, found: usize, needed: usize) -> Error {
        Error::RecordTooShort {
            bit: self.bit,
            block_id: ids_block::FUNCTION_BLOCK_ID,
            block_name: Some("FUNCTION_BLOCK"),
            code: 0,
            record: None,
            found,
            needed,
        }
    }

    fn bad(&self, what: &'static str, index: u64, len: usize) -> Error {
        Error::IndexOutOfRange { bit: self.bit, what, index, len }
    }

    fn types(&self) -> &TypeTable {
        &self.bodies.module.types
    }

    fn ty(&self, raw: u64) -> Result<TypeId, Error> {
        let len = self.types().len();
        if (raw as usize) < len { Ok(TypeId(raw as u32)) } else { Err(self.bad("type", raw, len)) }
    }

    /// The type of a value id defined so far.
    fn type_of(&self, id: u64) -> TypeId {
        if id < self.body.first_value {
            return self.bodies.module_value_type(id);
        }
        let local = (id - self.body.first_value) as usize;
        self.local_types.get(local).copied().unwrap_or(NO_TYPE)
    }

    fn absolute(&self, raw: u64) -> u64 {
        if self.relative { u64::from((self.next_value() as u32).wrapping_sub(raw as u32)) } else { raw }
    }

    /// An operand with its type: `getValueTypePair` (a forward reference carries its
    /// type in the next field).
    fn pair(&mut self, ops: &[u64], i: &mut usize) -> Result<Operand, Error> {
        let raw = need!(self, ops, *i);
        *i += 1;
        let id = self.absolute(raw);
        let ty = if id < self.next_value() {
            self.type_of(id)
        } else {
            let t = need!(self, ops, *i);
            *i += 1;
            self.ty(t)?
        };
        Ok(self.operand(id, ty))
    }

    /// An operand whose type the instruction implies: `getValue`.
    fn value(&mut self, ops: &[u64], i: &mut usize, ty: TypeId) -> Result<Operand, Error> {
        let raw = need!(self, ops, *i);
        *i += 1;
        Ok(self.operand(self.absolute(raw), ty))
    }

    fn operand(&self, id: u64, ty: TypeId) -> Operand {
        if ty == self.bodies.index.metadata {
            return Operand { value: Value::Metadata(id), ty };
        }
        let value = if id < self.bodies.constants.base {
            Value::Global(id)
        } else if id < self.body.first_value {
            Value::Constant(id)
        } else {
            // A value defined so far is resolved now; a forward reference in `finish`.
            let local = (id - self.body.first_value) as usize;
            match self.body.locals.get(local) {
                Some(Local::Argument(a)) => Value::Argument(*a),
                Some(Local::Constant) => Value::Constant(id),
                Some(Local::Instruction(i)) => Value::Instruction(*i),
                None => Value::Unresolved(id),
            }
        };
        Operand { value, ty }
    }

    fn block(&self, raw: u64) -> Result<Operand, Error> {
        if raw >= self.declared_blocks {
            return Err(self.bad("basic block", raw, self.declared_blocks as usize));
        }
        Ok(Operand { value: Value::Block(raw as u32), ty: self.bodies.index.get(TypeKey::Label) })
    }

    fn push_operands(&mut self, operands: &[Operand]) -> Operands {
        let start = self.body.operand_pool.len();
        // One by one: most lists have one to three operands, too short for `memmove`.
        for &o in operands {
            self.body.operand_pool.push(o);
        }
        Operands { start: start as u32, len: operands.len() as u32 }
    }

    fn push_literals(&mut self, values: &[u64]) -> Operands {
        let start = self.body.literals.len();
        self.body.literals.extend_from_slice(values);
        Operands { start: start as u32, len: values.len() as u32 }
    }

    fn read(&mut self, reader: &mut Reader<'_>) -> Result<(), Error> {
        let mut operands: Vec<Operand> = Vec::new();
        while let Some(entry) = reader.advance()? {
            match entry {
                Entry::EnterBlock(b) => {
                    let id = b.block_id;
                    if id == ids_block::CONSTANTS_BLOCK_ID {
                        let first = self.body.constants.constants.len();
                        crate::ir::module::constants::read_block(reader, &mut self.body.constants)?;
                        for c in &self.body.constants.constants[first..] {
                            self.local_types.push(c.ty);
                            self.body.locals.push(Local::Constant);
                        }
                    } else if id == ids_block::VALUE_SYMTAB_BLOCK_ID {
                        self.read_symtab(reader)?;
                    } else if id == ids_block::USELIST_BLOCK_ID {
                        self.read_uselists(reader)?;
                    } else if id == ids_block::METADATA_BLOCK_ID {
                        // Function-local ids follow the module's and the ones this
                        // function's earlier blocks defined.
                        let base = self.bodies.module_metadata().len();
                        if self.body.metadata.entries.is_empty() {
                            self.body.metadata.base = base;
                        }
                        let input = reader.stream().bytes();
                        self.body.metadata.read_block(reader, input)?;
                    } else if id == ids_block::METADATA_ATTACHMENT_ID {
                        let attachments = &mut self.body.attachments;
                        crate::ir::module::each_record(reader, |r| {
                            if r.code() != ids::METADATA_ATTACHMENT {
                                return Ok(());
                            }
                            // [instruction, (kind, node)…], or the function's own [(kind, node)…].
                            let ops = r.operand_slice();
                            let (instruction, pairs) = match ops.len() % 2 {
                                1 => (ops.first().map(|&i| i as u32), &ops[1..]),
                                _ => (None, ops),
                            };
                            for pair in pairs.chunks_exact(2) {
                                attachments.push(Attachment { instruction, kind: pair[0], node: pair[1] });
                            }
                            Ok(())
                        })?;
                        // The function's first, then by instruction (the writer's order
                        // already; a stable sort keeps each one's kinds as written).
                        attachments.sort_by_key(|a| a.instruction.map_or(0, |i| u64::from(i) + 1));
                    } else {
                        // Metadata, metadata attachments and blocks of newer LLVMs: the
                        // metadata layer reads them.
                        reader.skip_block()?;
                    }
                }
                Entry::Record { bit, .. } => {
                    self.bit = bit;
                    let r = reader.read_record()?;
                    let code = r.code();
                    let ops = r.operand_slice();
                    operands.clear();
                    self.record(code, ops, &mut operands).map_err(|e| match e {
                        Error::RecordTooShort { bit, block_id, block_name, found, needed, .. } => {
                            Error::RecordTooShort {
                                bit,
                                block_id,
                                block_name,
                                code,
                                record: ids_block::record_name(ids::FUNCTION_BLOCK_ID, code),
                                found,
                                needed,
                            }
                        }
                        e => e,
                    })?;
                }
                Entry::EndBlock(_) => break,
                _ => {}
            }
        }
        Ok(())
    }

    fn read_symtab(&mut self, reader: &mut Reader<'_>) -> Result<(), Error> {
        let body = &mut self.body;
        crate::ir::module::each_record(reader, |r| {
            let ops = r.operand_slice();
            let (Some(&id), Some(chars)) = (ops.first(), ops.get(1..)) else { return Ok(()) };
            let start = body.name_bytes.len();
            body.name_bytes.extend(chars.iter().map(|&c| c as u8));
            let range = Operands { start: start as u32, len: chars.len() as u32 };
            match r.code() {
                ids::VST_CODE_ENTRY if id >= body.first_value => {
                    body.value_names.push(((id - body.first_value) as u32, range));
                }
                ids::VST_CODE_BBENTRY => body.block_names.push((id as u32, range)),
                _ => {}
            }
            Ok(())
        })?;
        self.body.value_names.sort_by_key(|(v, _)| *v);
        self.body.block_names.sort_by_key(|(b, _)| *b);
        Ok(())
    }

    fn read_uselists(&mut self, reader: &mut Reader<'_>) -> Result<(), Error> {
        let body = &mut self.body;
        crate::ir::module::each_record(reader, |r| {
            if r.code() == ids::USELIST_CODE_BB {
                if let Some((&bb, order)) = r.operand_slice().split_last() {
                    let start = body.literals.len();
                    body.literals.extend_from_slice(order);
                    body.block_use_orders.push((bb as u32, Operands { start: start as u32, len: order.len() as u32 }));
                }
            }
            Ok(())
        })
    }

    /// Adds an instruction; a terminator ends the current basic block.
    fn push(&mut self, kind: InstKind, ty: TypeId, operands: &[Operand]) {
        let has_result = ty != self.bodies.index.void && ty != NO_TYPE;
        let index = self.body.instructions.len() as u32;
        let operands = self.push_operands(operands);
        self.body.instructions.push(Instruction { kind, ty, has_result, operands, debug_loc: None, bit: self.bit });
        if has_result {
            self.local_types.push(ty);
            self.body.locals.push(Local::Instruction(index));
        }
        if kind.is_terminator() {
            self.body
                .blocks
                .push(BasicBlock { first: self.current_block_start, len: index + 1 - self.current_block_start });
            self.current_block_start = index + 1;
        }
    }

    fn void(&self) -> TypeId {
        self.bodies.index.get(TypeKey::Void)
    }

    fn element_of(&self, ty: TypeId) -> TypeId {
        match self.types().get(ty) {
            Some(Type::Vector { element, .. } | Type::Array { element, .. }) => *element,
            _ => NO_TYPE,
        }
    }

    /// `i1`, or `<N x i1>` for a vector operand type.
    fn bool_like(&self, ty: TypeId) -> TypeId {
        let i1 = self.bodies.index.get(TypeKey::Int(1));
        match self.types().get(ty) {
            Some(Type::Vector { len, scalable, .. }) => self.bodies.index.get(TypeKey::Vector(i1.0, *len, *scalable)),
            _ => i1,
        }
    }

    fn call_info(&self, attrs: u64, cc: u32, fmf: u32, fn_ty: TypeId) -> CallInfo {
        CallInfo {
            calling_conv: cc,
            attributes: attrs.checked_sub(1).map(|a| a as u32),
            function_type: fn_ty,
            fast_math: fmf,
            bundles: self.pending_bundles.unwrap_or_default(),
        }
    }

    /// The function type and return type of a callee: explicit, or the pointee of the
    /// callee's typed pointer.
    fn callee_type(&self, explicit: Option<TypeId>, callee: &Operand) -> Result<(TypeId, TypeId, bool), Error> {
        let fn_ty = match explicit {
            Some(t) => t,
            None => match self.types().get(callee.ty) {
                Some(Type::Pointer { pointee: Some(p), .. }) => *p,
                _ => NO_TYPE,
            },
        };
        match self.types().get(fn_ty) {
            Some(Type::Function { ret, vararg, .. }) => Ok((fn_ty, *ret, *vararg)),
            _ => Err(Error::WrongType {
                what: "call",
                bit: self.bit,
                index: u64::from(fn_ty.0),
                expected: "a function type",
            }),
        }
    }

    /// Call arguments: the fixed parameters by their types (labels as blocks), then
    /// variadic ones as (value, type) pairs.
    fn call_args(
        &mut self,
        ops: &[u64],
        i: &mut usize,
        fn_ty: TypeId,
        vararg: bool,
        out: &mut Vec<Operand>,
    ) -> Result<(), Error> {
        let count = match self.types().get(fn_ty) {
            Some(Type::Function { params, .. }) => params.len(),
            _ => 0,
        };
        for k in 0..count {
            let p = match self.types().get(fn_ty) {
                Some(Type::Function { params, .. }) => params[k],
                _ => NO_TYPE,
            };
            if matches!(self.types().get(p), Some(Type::Label)) {
                let raw = need!(self, ops, *i);
                *i += 1;
                out.push(self.block(raw)?);
            } else {
                out.push(self.value(ops, i, p)?);
            }
        }
        if vararg {
            while *i < ops.len() {
                out.push(self.pair(ops, i)?);
            }
        }
        Ok(())
    }

    /// A call's callee (after its explicit function type, if `explicit_type`) and
    /// arguments, onto `out`: the function type and the return type.
    fn callee_and_args(
        &mut self,
        ops: &[u64],
        i: &mut usize,
        explicit_type: bool,
        out: &mut Vec<Operand>,
    ) -> Result<(TypeId, TypeId), Error> {
        let explicit = if explicit_type {
            let t = self.ty(need!(self, ops, *i))?;
            *i += 1;
            Some(t)
        } else {
            None
        };
        let callee = self.pair(ops, i)?;
        let (fn_ty, ret, vararg) = self.callee_type(explicit, &callee)?;
        out.push(callee);
        self.call_args(ops, i, fn_ty, vararg, out)?;
        Ok((fn_ty, ret))
    }

    /// A memory instruction's pointer, then its value: with its own type (`typed`, the
    /// current records) or the pointer's pointee type (the `*_OLD` records).
    fn pointer_and_value(&mut self, ops: &[u64], i: &mut usize, typed: bool) -> Result<(Operand, Operand), Error> {
        let ptr = self.pair(ops, i)?;
        let value = if typed {
            self.pair(ops, i)?
        } else {
            let pointee = self.pointee(ptr.ty);
            self.value(ops, i, pointee)?
        };
        Ok((ptr, value))
    }

    fn record(&mut self, code: u32, ops: &[u64], out: &mut Vec<Operand>) -> Result<(), Error> {
        let mut i = 0;
        match code {
            ids::FUNC_CODE_DECLAREBLOCKS => {
                self.declared_blocks = need!(self, ops, 0);
                // Sized by the instructions read, not by this count from the file.
                return Ok(());
            }
            ids::FUNC_CODE_DEBUG_LOC => {
                let line = need!(self, ops, 1);
                let loc = DebugLoc {
                    line: need!(self, ops, 0) as u32,
                    column: line as u32,
                    scope: ops.get(2).and_then(|v| v.checked_sub(1)),
                    inlined_at: ops.get(3).and_then(|v| v.checked_sub(1)),
                    implicit: ops.get(4).is_some_and(|&v| v != 0),
                    atom_group: ops.get(5).copied().unwrap_or(0),
                    atom_rank: ops.get(6).copied().unwrap_or(0),
                };
                self.body.debug_locs.push(loc);
                let index = (self.body.debug_locs.len() - 1) as u32;
                self.last_loc = Some(index);
                if let Some(inst) = self.body.instructions.last_mut() {
                    inst.debug_loc = Some(index);
                }
                return Ok(());
            }
            ids::FUNC_CODE_DEBUG_LOC_AGAIN => {
                if let Some(inst) = self.body.instructions.last_mut() {
                    inst.debug_loc = self.last_loc;
                }
                return Ok(());
            }
            ids::FUNC_CODE_OPERAND_BUNDLE => {
                let tag = need!(self, ops, 0);
                i = 1;
                while i < ops.len() {
                    let o = self.pair(ops, &mut i)?;
                    out.push(o);
                }
                let inputs = self.push_operands(out);
                self.body.bundles.push(Bundle { tag: tag as u32, inputs });
                let first = self.pending_bundles.map_or(self.body.bundles.len() - 1, |b| b.start as usize);
                self.pending_bundles =
                    Some(Operands { start: first as u32, len: (self.body.bundles.len() - first) as u32 });
                return Ok(());
            }
            ids::FUNC_CODE_BLOCKADDR_USERS => return Ok(()),
            ids::FUNC_CODE_DEBUG_RECORD_VALUE
            | ids::FUNC_CODE_DEBUG_RECORD_DECLARE
            | ids::FUNC_CODE_DEBUG_RECORD_ASSIGN
            | ids::FUNC_CODE_DEBUG_RECORD_VALUE_SIMPLE
            | ids::FUNC_CODE_DEBUG_RECORD_LABEL
            | ids::FUNC_CODE_DEBUG_RECORD_DECLARE_VALUE => {
                let before = self.body.instructions.len().saturating_sub(1) as u32;
                let (metadata, value) = if code == ids::FUNC_CODE_DEBUG_RECORD_VALUE_SIMPLE {
                    let mut j = 3;
                    let v = self.pair(ops, &mut j)?;
                    (&ops[..3.min(ops.len())], Some(v))
                } else {
                    (ops, None)
                };
                let operands = self.push_literals(metadata);
                self.body.debug_records.push(DebugRecord { code, before, operands, value });
                return Ok(());
            }
            _ => {}
        }
        let bundles_before = self.pending_bundles;
        let void = self.void();
        match code {
            ids::FUNC_CODE_INST_BINOP => {
                let lhs = self.pair(ops, &mut i)?;
                let rhs = self.value(ops, &mut i, lhs.ty)?;
                let opcode = need!(self, ops, i) as u32;
                let flags = ops.get(i + 1).copied().unwrap_or(0) as u32;
                self.push(InstKind::Binary { opcode, flags }, lhs.ty, &[lhs, rhs]);
            }
            ids::FUNC_CODE_INST_UNOP => {
                let v = self.pair(ops, &mut i)?;
                let opcode = need!(self, ops, i) as u32;
                let flags = ops.get(i + 1).copied().unwrap_or(0) as u32;
                self.push(InstKind::Unary { opcode, flags }, v.ty, &[v]);
            }
            ids::FUNC_CODE_INST_CAST => {
                let v = self.pair(ops, &mut i)?;
                let to = self.ty(need!(self, ops, i))?;
                let opcode = need!(self, ops, i + 1) as u32;
                let flags = ops.get(i + 2).copied().unwrap_or(0) as u32;
                self.push(InstKind::Cast { opcode, flags }, to, &[v]);
            }
            ids::FUNC_CODE_INST_GEP | ids::FUNC_CODE_INST_GEP_OLD | ids::FUNC_CODE_INST_INBOUNDS_GEP_OLD => {
                let (flags, source) = if code == ids::FUNC_CODE_INST_GEP {
                    i = 2;
                    (need!(self, ops, 0) as u32, Some(self.ty(need!(self, ops, 1))?))
                } else {
                    (u32::from(code == ids::FUNC_CODE_INST_INBOUNDS_GEP_OLD), None)
                };
                while i < ops.len() {
                    let o = self.pair(ops, &mut i)?;
                    out.push(o);
                }
                let Some(base) = out.first().copied() else { return Err(self.short(ops.len(), i + 1)) };
                let source = match source {
                    Some(s) => s,
                    None => self.pointee(base.ty),
                };
                let ty = self.gep_type(source, out);
                self.push(InstKind::GetElementPtr { source, flags }, ty, out);
            }
            ids::FUNC_CODE_INST_SELECT => {
                // [ty, opval, opval, opval] (old: condition i1)
                let t = self.pair(ops, &mut i)?;
                let f = self.value(ops, &mut i, t.ty)?;
                let i1 = self.bodies.index.get(TypeKey::Int(1));
                let c = self.value(ops, &mut i, i1)?;
                self.push(InstKind::Select { flags: 0 }, t.ty, &[c, t, f]);
            }
            ids::FUNC_CODE_INST_VSELECT => {
                let t = self.pair(ops, &mut i)?;
                let f = self.value(ops, &mut i, t.ty)?;
                let c = self.pair(ops, &mut i)?;
                let flags = ops.get(i).copied().unwrap_or(0) as u32;
                self.push(InstKind::Select { flags }, t.ty, &[c, t, f]);
            }
            ids::FUNC_CODE_INST_EXTRACTELT => {
                let v = self.pair(ops, &mut i)?;
                let idx = self.pair(ops, &mut i)?;
                let ty = self.element_of(v.ty);
                self.push(InstKind::ExtractElement, ty, &[v, idx]);
            }
            ids::FUNC_CODE_INST_INSERTELT => {
                let v = self.pair(ops, &mut i)?;
                let e = self.value(ops, &mut i, self.element_of(v.ty))?;
                let idx = self.pair(ops, &mut i)?;
                self.push(InstKind::InsertElement, v.ty, &[v, e, idx]);
            }
            ids::FUNC_CODE_INST_SHUFFLEVEC => {
                let a = self.pair(ops, &mut i)?;
                let b = self.value(ops, &mut i, a.ty)?;
                let mask = self.pair(ops, &mut i)?;
                let ty = match (self.types().get(a.ty), self.types().get(mask.ty)) {
                    (Some(Type::Vector { element, .. }), Some(Type::Vector { len, scalable, .. })) => {
                        self.bodies.index.get(TypeKey::Vector(element.0, *len, *scalable))
                    }
                    _ => NO_TYPE,
                };
                self.push(InstKind::ShuffleVector, ty, &[a, b, mask]);
            }
            ids::FUNC_CODE_INST_CMP | ids::FUNC_CODE_INST_CMP2 => {
                let lhs = self.pair(ops, &mut i)?;
                let rhs = self.value(ops, &mut i, lhs.ty)?;
                let predicate = need!(self, ops, i) as u32;
                let flags = ops.get(i + 1).copied().unwrap_or(0) as u32;
                let ty = self.bool_like(lhs.ty);
                self.push(InstKind::Cmp { predicate, flags }, ty, &[lhs, rhs]);
            }
            ids::FUNC_CODE_INST_RET => {
                while i < ops.len() {
                    let o = self.pair(ops, &mut i)?;
                    out.push(o);
                }
                self.push(InstKind::Ret, void, out);
            }
            ids::FUNC_CODE_INST_BR => {
                let t = self.block(need!(self, ops, 0))?;
                if ops.len() >= 3 {
                    let f = self.block(ops[1])?;
                    let i1 = self.bodies.index.get(TypeKey::Int(1));
                    let mut j = 2;
                    let c = self.value(ops, &mut j, i1)?;
                    self.push(InstKind::Br, void, &[c, t, f]);
                } else {
                    self.push(InstKind::Br, void, &[t]);
                }
            }
            ids::FUNC_CODE_INST_SWITCH => {
                // [opty, cond, default, (case value id (absolute), block)…]
                let ty = self.ty(need!(self, ops, 0))?;
                i = 1;
                let cond = self.value(ops, &mut i, ty)?;
                let default = self.block(need!(self, ops, 2))?;
                out.push(cond);
                out.push(default);
                let mut j = 3;
                while j + 1 < ops.len() {
                    let case = self.operand(ops[j], ty);
                    out.push(case);
                    out.push(self.block(ops[j + 1])?);
                    j += 2;
                }
                self.push(InstKind::Switch, void, out);
            }
            ids::FUNC_CODE_INST_INDIRECTBR => {
                let ty = self.ty(need!(self, ops, 0))?;
                i = 1;
                let addr = self.value(ops, &mut i, ty)?;
                out.push(addr);
                for &b in &ops[2.min(ops.len())..] {
                    out.push(self.block(b)?);
                }
                self.push(InstKind::IndirectBr, void, out);
            }
            ids::FUNC_CODE_INST_INVOKE => {
                // [attrs, cc, normal, unwind, fnty?, callee, args…]
                let attrs = need!(self, ops, 0);
                let cc = need!(self, ops, 1);
                let normal = self.block(need!(self, ops, 2))?;
                let unwind = self.block(need!(self, ops, 3))?;
                i = 4;
                let (fn_ty, ret) = self.callee_and_args(ops, &mut i, cc & (1 << 13) != 0, out)?;
                out.push(normal);
                out.push(unwind);
                let info = self.call_info(attrs, (cc & 0x3ff) as u32, 0, fn_ty);
                self.push(InstKind::Invoke(info), ret, out);
            }
            ids::FUNC_CODE_INST_CALLBR => {
                // [attrs, cc, default, num indirect, indirect…, fnty?, callee, args…]
                let attrs = need!(self, ops, 0);
                let cc = need!(self, ops, 1);
                let default = self.block(need!(self, ops, 2))?;
                let n = need!(self, ops, 3);
                i = 4;
                let mut indirect = Vec::new();
                for _ in 0..n {
                    indirect.push(self.block(need!(self, ops, i))?);
                    i += 1;
                }
                let (fn_ty, ret) = self.callee_and_args(ops, &mut i, cc & (1 << 15) != 0, out)?;
                out.push(default);
                out.extend_from_slice(&indirect);
                let info = self.call_info(attrs, ((cc >> 1) & 0x3ff) as u32, 0, fn_ty);
                self.push(InstKind::CallBr { call: info, indirect: n as u32 }, ret, out);
            }
            ids::FUNC_CODE_INST_CALL => {
                // [attrs, cc, fmf?, fnty?, callee, args…]
                let attrs = need!(self, ops, 0);
                let cc = need!(self, ops, 1);
                i = 2;
                let fmf = if cc & (1 << 17) != 0 {
                    let v = need!(self, ops, i);
                    i += 1;
                    v as u32
                } else {
                    0
                };
                let (fn_ty, ret) = self.callee_and_args(ops, &mut i, cc & (1 << 15) != 0, out)?;
                let tail = if cc & (1 << 14) != 0 {
                    TailKind::MustTail
                } else if cc & 1 != 0 {
                    TailKind::Tail
                } else if cc & (1 << 16) != 0 {
                    TailKind::NoTail
                } else {
                    TailKind::None
                };
                let info = self.call_info(attrs, ((cc >> 1) & 0x3ff) as u32, fmf, fn_ty);
                self.push(InstKind::Call { call: info, tail }, ret, out);
            }
            ids::FUNC_CODE_INST_UNREACHABLE => self.push(InstKind::Unreachable, void, &[]),
            ids::FUNC_CODE_INST_RESUME => {
                let v = self.pair(ops, &mut i)?;
                self.push(InstKind::Resume, void, &[v]);
            }
            ids::FUNC_CODE_INST_PHI => {
                // [ty, (signed relative value, block)…, fmf?]
                let ty = self.ty(need!(self, ops, 0))?;
                let pairs = (ops.len() - 1) / 2;
                for k in 0..pairs {
                    let raw = ops[1 + 2 * k];
                    let id = if self.relative {
                        let delta = crate::record::decode_sign_rotated(raw);
                        u64::from((self.next_value() as u32).wrapping_sub(delta as u32))
                    } else {
                        raw
                    };
                    out.push(self.operand(id, ty));
                    out.push(self.block(ops[2 + 2 * k])?);
                }
                let flags = if ops.len() % 2 == 0 { ops[ops.len() - 1] as u32 } else { 0 };
                self.push(InstKind::Phi { flags }, ty, out);
            }
            ids::FUNC_CODE_INST_LANDINGPAD | ids::FUNC_CODE_INST_LANDINGPAD_OLD => {
                let ty = self.ty(need!(self, ops, 0))?;
                i = 1;
                if code == ids::FUNC_CODE_INST_LANDINGPAD_OLD {
                    // The personality function, dropped since LLVM 3.7.
                    self.pair(ops, &mut i)?;
                }
                let cleanup = need!(self, ops, i) != 0;
                let n = need!(self, ops, i + 1);
                i += 2;
                let mut kinds = Vec::new();
                for _ in 0..n {
                    kinds.push(need!(self, ops, i));
                    i += 1;
                    let o = self.pair(ops, &mut i)?;
                    out.push(o);
                }
                let clauses = self.push_literals(&kinds);
                self.push(InstKind::LandingPad { cleanup, clauses }, ty, out);
            }
            ids::FUNC_CODE_INST_ALLOCA => {
                // [instty, opty, op (absolute), align, addrspace?]
                let mut ty = self.ty(need!(self, ops, 0))?;
                let size_ty = self.ty(need!(self, ops, 1))?;
                let size = self.operand(need!(self, ops, 2), size_ty);
                let record = need!(self, ops, 3);
                let explicit = record & (1 << 6) != 0;
                let exponent = (record & 0x1f) | (((record >> 8) & 0x7) << 5);
                let align = exponent.checked_sub(1).filter(|&e| e < 64).map(|e| 1u64 << e);
                let address_space = match ops.get(4) {
                    Some(&a) => a,
                    None => self.alloca_address_space(),
                };
                let allocated = if explicit {
                    let a = ty;
                    ty = self.bodies.index.pointer_to(a, address_space);
                    a
                } else {
                    self.pointee(ty)
                };
                let kind = InstKind::Alloca {
                    allocated,
                    align,
                    inalloca: record & (1 << 5) != 0,
                    swifterror: record & (1 << 7) != 0,
                };
                self.push(kind, ty, &[size]);
            }
            ids::FUNC_CODE_INST_LOAD | ids::FUNC_CODE_INST_LOADATOMIC => {
                // [op, ty?, align, vol, (ordering, ssid)]
                let ptr = self.pair(ops, &mut i)?;
                let extra = if code == ids::FUNC_CODE_INST_LOADATOMIC { 2 } else { 0 };
                let ty = if i + 3 + extra == ops.len() {
                    let t = self.ty(ops[i])?;
                    i += 1;
                    t
                } else {
                    self.pointee(ptr.ty)
                };
                let align = decode_align(need!(self, ops, i));
                let volatile = need!(self, ops, i + 1) != 0;
                let (ordering, scope) = if extra == 2 {
                    (Ordering::from_raw(need!(self, ops, i + 2)), need!(self, ops, i + 3) as u32)
                } else {
                    (Ordering::NotAtomic, 1)
                };
                self.push(InstKind::Load { align, volatile, ordering, scope }, ty, &[ptr]);
            }
            ids::FUNC_CODE_INST_STORE
            | ids::FUNC_CODE_INST_STORE_OLD
            | ids::FUNC_CODE_INST_STOREATOMIC
            | ids::FUNC_CODE_INST_STOREATOMIC_OLD => {
                // [ptrty, ptr, valty?, val, align, vol, (ordering, ssid)]
                let typed = matches!(code, ids::FUNC_CODE_INST_STORE | ids::FUNC_CODE_INST_STOREATOMIC);
                let (ptr, val) = self.pointer_and_value(ops, &mut i, typed)?;
                let align = decode_align(need!(self, ops, i));
                let volatile = need!(self, ops, i + 1) != 0;
                let atomic = matches!(code, ids::FUNC_CODE_INST_STOREATOMIC | ids::FUNC_CODE_INST_STOREATOMIC_OLD);
                let (ordering, scope) = if atomic {
                    (Ordering::from_raw(need!(self, ops, i + 2)), need!(self, ops, i + 3) as u32)
                } else {
                    (Ordering::NotAtomic, 1)
                };
                self.push(InstKind::Store { align, volatile, ordering, scope }, void, &[val, ptr]);
            }
            ids::FUNC_CODE_INST_FENCE => {
                let ordering = Ordering::from_raw(need!(self, ops, 0));
                let scope = need!(self, ops, 1) as u32;
                self.push(InstKind::Fence { ordering, scope }, void, &[]);
            }
            ids::FUNC_CODE_INST_CMPXCHG | ids::FUNC_CODE_INST_CMPXCHG_OLD => {
                // [ptr, cmp, new, vol, success, ssid, failure, weak, align?]
                let (ptr, cmp) = self.pointer_and_value(ops, &mut i, code == ids::FUNC_CODE_INST_CMPXCHG)?;
                let new = self.value(ops, &mut i, cmp.ty)?;
                let volatile = need!(self, ops, i) != 0;
                let success = Ordering::from_raw(need!(self, ops, i + 1));
                let scope = need!(self, ops, i + 2) as u32;
                let failure = match ops.get(i + 3) {
                    Some(&f) => Ordering::from_raw(f),
                    None => strongest_failure(success),
                };
                let weak = ops.get(i + 4).is_some_and(|&w| w != 0);
                let align = ops.get(i + 5).and_then(|&a| decode_align(a));
                let i1 = self.bodies.index.get(TypeKey::Int(1));
                // Before weak cmpxchg (LLVM 3.5) the result was the old value alone.
                let ty = if ops.len() > i + 4 { self.bodies.index.get(TypeKey::Pair(cmp.ty.0, i1.0)) } else { cmp.ty };
                let kind = InstKind::CmpXchg { weak, volatile, success, failure, scope, align };
                self.push(kind, ty, &[ptr, cmp, new]);
            }
            ids::FUNC_CODE_INST_ATOMICRMW | ids::FUNC_CODE_INST_ATOMICRMW_OLD => {
                // [ptr, val, op, vol, ordering, ssid, align?]
                let (ptr, val) = self.pointer_and_value(ops, &mut i, code == ids::FUNC_CODE_INST_ATOMICRMW)?;
                let opcode = need!(self, ops, i) as u32;
                let volatile = need!(self, ops, i + 1) != 0;
                let ordering = Ordering::from_raw(need!(self, ops, i + 2));
                let scope = need!(self, ops, i + 3) as u32;
                let align = ops.get(i + 4).and_then(|&a| decode_align(a));
                let kind = InstKind::AtomicRmw { opcode, volatile, ordering, scope, align };
                self.push(kind, val.ty, &[ptr, val]);
            }
            ids::FUNC_CODE_INST_VAARG => {
                // [valistty, valist, instty]
                let list_ty = self.ty(need!(self, ops, 0))?;
                i = 1;
                let list = self.value(ops, &mut i, list_ty)?;
                let ty = self.ty(need!(self, ops, 2))?;
                self.push(InstKind::VaArg, ty, &[list]);
            }
            ids::FUNC_CODE_INST_EXTRACTVAL => {
                let agg = self.pair(ops, &mut i)?;
                let indices = self.push_literals(&ops[i.min(ops.len())..]);
                let ty = self.indexed_type(agg.ty, self.body.literals[indices.start as usize..].iter().copied());
                self.push(InstKind::ExtractValue { indices }, ty, &[agg]);
            }
            ids::FUNC_CODE_INST_INSERTVAL => {
                let agg = self.pair(ops, &mut i)?;
                let v = self.pair(ops, &mut i)?;
                let indices = self.push_literals(&ops[i.min(ops.len())..]);
                self.push(InstKind::InsertValue { indices }, agg.ty, &[agg, v]);
            }
            ids::FUNC_CODE_INST_FREEZE => {
                let v = self.pair(ops, &mut i)?;
                self.push(InstKind::Freeze, v.ty, &[v]);
            }
            ids::FUNC_CODE_INST_CLEANUPRET => {
                let token = self.bodies.index.get(TypeKey::Token);
                let pad = self.value(ops, &mut i, token)?;
                out.push(pad);
                if let Some(&b) = ops.get(1) {
                    out.push(self.block(b)?);
                }
                self.push(InstKind::CleanupRet, void, out);
            }
            ids::FUNC_CODE_INST_CATCHRET => {
                let token = self.bodies.index.get(TypeKey::Token);
                let pad = self.value(ops, &mut i, token)?;
                let b = self.block(need!(self, ops, 1))?;
                self.push(InstKind::CatchRet, void, &[pad, b]);
            }
            ids::FUNC_CODE_INST_CATCHSWITCH => {
                // [parent pad, n, handlers…, unwind?]
                let token = self.bodies.index.get(TypeKey::Token);
                let parent = self.value(ops, &mut i, token)?;
                out.push(parent);
                let n = need!(self, ops, 1);
                i = 2;
                for _ in 0..n {
                    out.push(self.block(need!(self, ops, i))?);
                    i += 1;
                }
                let has_unwind = i < ops.len();
                if has_unwind {
                    out.push(self.block(ops[i])?);
                }
                self.push(InstKind::CatchSwitch { has_unwind }, token, out);
            }
            ids::FUNC_CODE_INST_CATCHPAD | ids::FUNC_CODE_INST_CLEANUPPAD => {
                // [parent pad, n, (value, type)…]
                let token = self.bodies.index.get(TypeKey::Token);
                let parent = self.value(ops, &mut i, token)?;
                out.push(parent);
                let n = need!(self, ops, 1);
                i = 2;
                for _ in 0..n {
                    let o = self.pair(ops, &mut i)?;
                    out.push(o);
                }
                let kind = if code == ids::FUNC_CODE_INST_CATCHPAD { InstKind::CatchPad } else { InstKind::CleanupPad };
                self.push(kind, token, out);
            }
            _ => {
                let operands = self.push_literals(ops);
                self.body.unknown.push(Unknown::Record {
                    bit: self.bit,
                    block_id: ids_block::FUNCTION_BLOCK_ID,
                    code,
                    operands: ops.to_vec(),
                });
                // Kept in place so that printing shows where it was.
                self.push(InstKind::Unknown { code, operands }, void, &[]);
                return Ok(());
            }
        }
        if bundles_before.is_some() {
            self.pending_bundles = None;
        }
        Ok(())
    }

    fn alloca_address_space(&self) -> u64 {
        // The datalayout's `A<n>`.
        let datalayout = self.bodies.module.datalayout.as_deref().unwrap_or("");
        crate::ir::vocabulary::datalayout::DataLayout::new(datalayout).alloca_address_space()
    }

    fn pointee(&self, ptr: TypeId) -> TypeId {
        match self.types().get(ptr) {
            Some(Type::Pointer { pointee: Some(p), .. }) => *p,
            Some(Type::Vector { element, .. }) => self.pointee(*element),
            _ => NO_TYPE,
        }
    }

    /// The type `indices` select inside `ty` (extractvalue).
    fn indexed_type(&self, mut ty: TypeId, indices: impl Iterator<Item = u64>) -> TypeId {
        for i in indices {
            ty = match self.types().get(ty) {
                Some(Type::Struct { elements: Some(e), .. }) => e.get(i as usize).copied().unwrap_or(NO_TYPE),
                Some(Type::Array { element, .. } | Type::Vector { element, .. }) => *element,
                _ => NO_TYPE,
            };
        }
        ty
    }

    /// A GEP's result type: a pointer (to the indexed type, with typed pointers), or a
    /// vector of them when the base or an index is a vector.
    fn gep_type(&self, source: TypeId, operands: &[Operand]) -> TypeId {
        let types = self.types();
        let vector = operands.iter().find_map(|o| match types.get(o.ty) {
            Some(Type::Vector { len, scalable, .. }) => Some((*len, *scalable)),
            _ => None,
        });
        let base_ty = match types.get(operands[0].ty) {
            Some(Type::Vector { element, .. }) => *element,
            _ => operands[0].ty,
        };
        let address_space = match types.get(base_ty) {
            Some(Type::Pointer { address_space, .. }) => *address_space,
            _ => 0,
        };
        let pointer = if self.bodies.index.typed_pointers {
            let mut ty = source;
            for o in operands.iter().skip(2) {
                ty = match types.get(ty) {
                    Some(Type::Struct { elements: Some(e), .. }) => {
                        let index = self.constant_int(o.value).unwrap_or(0);
                        e.get(index as usize).copied().unwrap_or(NO_TYPE)
                    }
                    Some(Type::Array { element, .. } | Type::Vector { element, .. }) => *element,
                    _ => NO_TYPE,
                };
            }
            self.bodies.index.pointer_to(ty, address_space)
        } else {
            self.bodies.index.pointer_to(NO_TYPE, address_space)
        };
        match vector {
            Some((len, scalable)) => self.bodies.index.get(TypeKey::Vector(pointer.0, len, scalable)),
            None => pointer,
        }
    }

    /// The value of an integer constant (a struct index).
    fn constant_int(&self, value: Value) -> Option<i64> {
        let Value::Constant(id) = value else { return None };
        let c = self.bodies.constants.get(id).or_else(|| self.body.constants.get(id))?;
        match c.kind {
            ConstantKind::Int(v) => Some(v),
            ConstantKind::Null => Some(0),
            _ => None,
        }
    }

    fn finish(mut self) -> Body {
        self.body.local_types = core::mem::take(&mut self.local_types);
        // Blocks: instructions after the last terminator form a last, unterminated block.
        let n = self.body.instructions.len() as u32;
        if self.current_block_start < n || self.body.blocks.is_empty() && self.declared_blocks > 0 {
            self.body.blocks.push(BasicBlock { first: self.current_block_start, len: n - self.current_block_start });
        }
        let first = self.body.first_value;
        let locals = &self.body.locals;
        for o in &mut self.body.operand_pool {
            if let Value::Unresolved(id) = o.value {
                if let Some(&l) = id.checked_sub(first).and_then(|l| locals.get(l as usize)) {
                    o.value = match l {
                        Local::Argument(a) => Value::Argument(a),
                        Local::Constant => Value::Constant(id),
                        Local::Instruction(i) => Value::Instruction(i),
                    };
                }
            }
        }
        for r in &mut self.body.debug_records {
            if let Some(o) = r.value.as_mut() {
                if let Value::Unresolved(id) = o.value {
                    if let Some(&l) = id.checked_sub(first).and_then(|l| locals.get(l as usize)) {
                        o.value = match l {
                            Local::Argument(a) => Value::Argument(a),
                            Local::Constant => Value::Constant(id),
                            Local::Instruction(i) => Value::Instruction(i),
                        };
                    }
                }
            }
        }
        self.body
    }
}

/// The strongest failure ordering a success ordering allows (files before LLVM 3.5).
fn strongest_failure(success: Ordering) -> Ordering {
    match success {
        Ordering::AcqRel => Ordering::Acquire,
        Ordering::Release => Ordering::Monotonic,
        o => o,
    }
}

/// A load/store alignment field: log2 + 1, 0 for none.
fn decode_align(v: u64) -> Option<u64> {
    v.checked_sub(1).filter(|&e| e < 64).map(|e| 1u64 << e)
}

impl Body {
    /// The opcode name `llvm-dis` prints for an instruction (`add`, `fadd`, `load`,
    /// `icmp`, `call`, …); `types` is the module's type table, which tells `add` from
    /// `fadd`.
    pub fn opcode_name(&self, inst: &Instruction, types: &TypeTable) -> &'static str {
        fn is_float(types: &TypeTable, ty: TypeId) -> bool {
            match types.get(ty) {
                Some(Type::Vector { element, .. }) => is_float(types, *element),
                Some(t) => matches!(
                    t,
                    Type::Half
                        | Type::BFloat
                        | Type::Float
                        | Type::Double
                        | Type::X86Fp80
                        | Type::Fp128
                        | Type::PpcFp128
                ),
                None => false,
            }
        }
        match inst.kind {
            InstKind::Ret => "ret",
            InstKind::Br => "br",
            InstKind::Switch => "switch",
            InstKind::IndirectBr => "indirectbr",
            InstKind::Invoke(_) => "invoke",
            InstKind::Resume => "resume",
            InstKind::Unreachable => "unreachable",
            InstKind::CleanupRet => "cleanupret",
            InstKind::CatchRet => "catchret",
            InstKind::CatchSwitch { .. } => "catchswitch",
            InstKind::CallBr { .. } => "callbr",
            InstKind::Unary { .. } => "fneg",
            InstKind::Binary { opcode, .. } => {
                let float = self.operands(inst).first().is_some_and(|o| is_float(types, o.ty));
                binary_op_name(opcode, float)
            }
            InstKind::Cast { opcode, .. } => cast_op_name(opcode),
            InstKind::GetElementPtr { .. } => "getelementptr",
            InstKind::Alloca { .. } => "alloca",
            InstKind::Load { .. } => "load",
            InstKind::Store { .. } => "store",
            InstKind::Fence { .. } => "fence",
            InstKind::CmpXchg { .. } => "cmpxchg",
            InstKind::AtomicRmw { .. } => "atomicrmw",
            InstKind::Cmp { predicate, .. } => {
                if predicate < 32 {
                    "fcmp"
                } else {
                    "icmp"
                }
            }
            InstKind::Phi { .. } => "phi",
            InstKind::Select { .. } => "select",
            InstKind::Call { .. } => "call",
            InstKind::VaArg => "va_arg",
            InstKind::LandingPad { .. } => "landingpad",
            InstKind::CleanupPad => "cleanuppad",
            InstKind::CatchPad => "catchpad",
            InstKind::ExtractElement => "extractelement",
            InstKind::InsertElement => "insertelement",
            InstKind::ShuffleVector => "shufflevector",
            InstKind::ExtractValue { .. } => "extractvalue",
            InstKind::InsertValue { .. } => "insertvalue",
            InstKind::Freeze => "freeze",
            InstKind::Unknown { .. } => "<unknown>",
        }
    }
}
