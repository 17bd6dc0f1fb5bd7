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

// This file holds the public value types and `Body`; `bodies` what decoding needs from
// the module (`Module::bodies`); `type_index` the result types looked up by structure;
// `decode` the FUNCTION_BLOCK records turned into instructions.
mod bodies;
mod decode;
mod type_index;

use alloc::vec::Vec;

use crate::ir::module::constants::{ModuleConstants, OperandRange};
use crate::ir::module::types::{TypeId, TypeTable};
use crate::ir::vocabulary::opcodes::{binary_op_name, cast_op_name};
use crate::layout::Unknown;

pub use bodies::Bodies;
pub use type_index::NO_TYPE;

/// A value an operand refers to, resolved from LLVM's value numbering.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub enum Value {
    /// A global value (variable, function, alias or ifunc) by its value id
    /// ([`Module::global`](crate::ir::Module::global)).
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
    /// The call's attribute list: an index into [`Module::attribute_lists`](crate::ir::Module::attribute_lists).
    pub attributes: Option<u32>,
    /// The callee's function type.
    pub function_type: TypeId,
    /// Fast-math flags (bitcode encoding), 0 if none.
    pub fast_math: u32,
    /// The operand bundles: a range of [`Body::bundles`].
    pub bundles: OperandRange,
}

/// What an instruction is, with the fields that are not operands. Opcodes of
/// unary, binary, cast, compare and atomicrmw instructions are the file's numbers
/// (`BinaryOpcodes`, `CastOpcodes`, `CmpInst::Predicate`, `RMWOperations`), named by
/// [`binary_op_name`], [`cast_op_name`], [`predicate_name`](crate::ir::predicate_name) and
/// [`rmw_op_name`](crate::ir::rmw_op_name).
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
        clauses: OperandRange,
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
        indices: OperandRange,
    },
    /// `insertvalue` (operands: the aggregate, the value).
    InsertValue {
        /// The indices: a range of [`Body::literals`].
        indices: OperandRange,
    },
    /// `freeze` (operands: the value).
    Freeze,
    /// A record code this crate does not know as an instruction: its operands, as read,
    /// in [`Body::literals`]. It produces no value.
    Unknown {
        /// The record code.
        code: u32,
        /// The record's operands.
        operands: OperandRange,
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
    pub operands: OperandRange,
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
    pub inputs: OperandRange,
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

impl DebugLoc {
    /// The operands of the uniqued METADATA_LOCATION record this location is (distinct 0,
    /// line, column, scope, inlined-at + 1, implicit, atom group, atom rank): what LLVM's
    /// reader makes of a DEBUG_LOC.
    pub(crate) fn location_record(&self) -> [u64; 8] {
        [
            0,
            u64::from(self.line),
            u64::from(self.column),
            self.scope.unwrap_or(u64::MAX),
            self.inlined_at.map_or(0, |i| i.saturating_add(1)),
            u64::from(self.implicit),
            self.atom_group,
            self.atom_rank,
        ]
    }
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
    /// The record's operands as metadata ids, in the file's order, except the value of a
    /// DEBUG_RECORD_VALUE_SIMPLE, which is in `value`: location, variable (or label),
    /// expression, value, and for DEBUG_RECORD_ASSIGN then assign id, address expression
    /// and address (`llvm-dis` prints the address before its expression).
    pub operands: OperandRange,
    /// The location operand of VALUE_SIMPLE records, resolved.
    pub value: Option<Operand>,
}

/// A decoded function body ([`Bodies::body`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Body {
    /// The function: an index into [`Module::functions`](crate::ir::Module::functions).
    pub function: usize,
    /// The value id of the first argument (the module's value count).
    pub first_value: u64,
    /// The argument types.
    pub arguments: Vec<TypeId>,
    /// The function-level constants (value ids from `first_value + arguments.len()`),
    /// then the case values of the case-range `switch` records of LLVM 3.2/3.3, which are
    /// literals in the file, not value ids (their ids follow the file's constants, so
    /// only a [`Value::Constant`] names them).
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
    pub value_names: Vec<(u32, OperandRange)>,
    /// Names of basic blocks: (block, name range in `name_bytes`).
    pub block_names: Vec<(u32, OperandRange)>,
    /// The bytes of the names (VALUE_SYMTAB names are arrays of characters in records,
    /// not blobs, so they are copied once per body).
    pub name_bytes: Vec<u8>,
    /// USELIST_CODE_BB records: (block, permutation range in `literals`).
    pub block_use_orders: Vec<(u32, OperandRange)>,
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
    /// The personality function of the first `landingpad` of the form before LLVM 3.7
    /// (LANDINGPAD_OLD), which named it; LLVM's reader makes it the function's.
    pub old_personality: Option<Operand>,
    /// The type of each local value, kept for the storage's reuse.
    #[cfg_attr(feature = "serde", serde(skip))]
    local_types: Vec<TypeId>,
    /// In a body of a [`ModuleView`](crate::ir::ModuleView): the calls the reader made anew with an alignment argument dropped (an old `llvm.memcpy`,
    /// `memmove` or `memset`, LLVM 22's `llvm.masked.*`): the instruction, the alignment
    /// the dropped argument gave (0: none), and the upgrade. A call that keeps its
    /// attribute list gives the arguments after the dropped one the attributes of their
    /// places in the file's call.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub(crate) call_alignments: Vec<(u32, u64, crate::ir::upgrade::ArgumentUpgrade)>,
    /// The LLVM version whose view read it ([`ModuleView::body`](crate::ir::ModuleView::body));
    /// `None` for a body as the file has it ([`Bodies::body_as_written`]).
    #[cfg_attr(feature = "serde", serde(skip))]
    pub(crate) read_as: Option<u32>,
}

impl Body {
    /// The LLVM version as which the body was read ([`Bodies::body`] and
    /// [`ModuleView::body`](crate::ir::ModuleView::body)), its values and types those of
    /// that version's view; `None` for a body as the file has it
    /// ([`Bodies::body_as_written`]).
    pub fn read_as(&self) -> Option<u32> {
        self.read_as
    }
}

/// What a local value id (from [`Body::first_value`]) is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
enum Local {
    Argument(u32),
    Constant,
    Instruction(u32),
}

/// What value id `id` names among `locals` (the function's values from `first_value`
/// on), if it is defined.
fn local_value(locals: &[Local], first_value: u64, id: u64) -> Option<Value> {
    let local = id.checked_sub(first_value).and_then(|l| usize::try_from(l).ok()).and_then(|l| locals.get(l))?;
    Some(match *local {
        Local::Argument(a) => Value::Argument(a),
        Local::Constant => Value::Constant(id),
        Local::Instruction(i) => Value::Instruction(i),
    })
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
        self.old_personality = None;
        self.call_alignments.clear();
        self.read_as = None;
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
        local_value(&self.locals, self.first_value, id).unwrap_or(Value::Unresolved(id))
    }

    /// The operands of an instruction.
    pub fn operands(&self, inst: &Instruction) -> &[Operand] {
        self.operand_range(inst.operands)
    }

    /// The operands a range of [`Body::operand_pool`] names.
    pub fn operand_range(&self, range: OperandRange) -> &[Operand] {
        self.operand_pool.get(range.range()).unwrap_or(&[])
    }

    /// The literals a range of [`Body::literals`] names.
    pub fn literal_range(&self, range: OperandRange) -> &[u64] {
        self.literals.get(range.range()).unwrap_or(&[])
    }

    /// The instructions of a basic block.
    pub fn block_instructions(&self, block: usize) -> &[Instruction] {
        let Some(b) = self.blocks.get(block) else { return &[] };
        let start = b.first as usize;
        self.instructions.get(start..start + b.len as usize).unwrap_or(&[])
    }

    /// The instruction that ends basic block `block`: its last, if that is a terminator
    /// (`None` for a block a damaged body left unfinished, or no such block).
    pub fn terminator(&self, block: usize) -> Option<&Instruction> {
        self.block_instructions(block).last().filter(|i| i.kind.is_terminator())
    }

    /// The blocks control goes to from basic block `block`, as LLVM's `successors(BB)`
    /// gives them: `br`'s true then false target, `switch`'s default then each case's,
    /// `invoke`'s normal then unwind destination, `catchswitch`'s unwind destination then
    /// its handlers, `callbr`'s default then indirect ones. A target named twice (two
    /// cases to one block) is there twice, as in LLVM.
    ///
    /// ```
    /// # fn main() -> Result<(), llvm_bitstream_reader::Error> {
    /// # let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/llvm14_ir_instructions.bc")).unwrap();
    /// use llvm_bitstream_reader::ir::Module;
    /// let module = Module::parse(&bytes)?;
    /// let bodies = module.bodies()?;
    /// let mut edges = 0;
    /// for index in 0..module.functions.len() {
    ///     let Some(body) = bodies.body(index)? else { continue };
    ///     let preds = bodies.predecessors(&body);
    ///     for block in 0..body.blocks.len() {
    ///         for next in body.successors(block) {
    ///             // Every edge is a predecessor of the block it goes to.
    ///             assert!(preds[next as usize].contains(&(block as u32)));
    ///             edges += 1;
    ///         }
    ///     }
    /// }
    /// assert!(edges > 0);
    /// # Ok(()) }
    /// ```
    pub fn successors(&self, block: usize) -> impl Iterator<Item = u32> + '_ {
        let terminator = self.terminator(block);
        let ops = terminator.map_or(&[][..], |t| self.operands(t));
        let targets = ops.iter().filter_map(|o| if let Value::Block(b) = o.value { Some(b) } else { None });
        // catchswitch's operands hold its handlers, then the unwind destination;
        // `CatchSwitchInst::getSuccessor(0)` is the unwind destination.
        let unwind_first = matches!(terminator.map(|t| t.kind), Some(InstKind::CatchSwitch { has_unwind: true }));
        let unwind = if unwind_first { targets.clone().next_back() } else { None };
        let count = targets.clone().count();
        unwind.into_iter().chain(targets.take(if unwind_first { count - 1 } else { count }))
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

    fn name(&self, range: OperandRange) -> Option<&[u8]> {
        self.name_bytes.get(range.range()).filter(|n| !n.is_empty())
    }

    /// Numbers the values again after the instructions changed (the view's rewriting):
    /// the arguments, the constants (some may have been appended), then the results of
    /// the instructions in their new order. `old_of_new` gives each instruction's index
    /// before the change (`u32::MAX` for a new one); names, the types of the values and
    /// the function's values as metadata follow their values, and the new instructions
    /// take the names in `new_names` (instruction, name).
    pub(crate) fn renumber(&mut self, old_of_new: &[u32], new_names: &[(u32, Vec<u8>)]) {
        let (arguments, constants) = (self.arguments.len(), self.constants.constants.len());
        // The old local of each old instruction's result, from the locals before the change.
        let mut old_local_of: alloc::collections::BTreeMap<u32, u32> = alloc::collections::BTreeMap::new();
        for (local, l) in self.locals.iter().enumerate() {
            if let Local::Instruction(i) = l {
                old_local_of.insert(*i, local as u32);
            }
        }
        // The file's constants keep their places; results come after every constant.
        let first_old_result =
            self.locals.iter().position(|l| matches!(l, Local::Instruction(_))).map_or(self.locals.len(), |p| p) as u32;
        self.locals.clear();
        self.locals.extend((0..arguments as u32).map(Local::Argument));
        self.locals.extend((0..constants).map(|_| Local::Constant));
        self.local_types.clear();
        self.local_types.extend_from_slice(&self.arguments);
        self.local_types.extend(self.constants.constants.iter().map(|c| c.ty));
        let mut new_local: alloc::collections::BTreeMap<u32, u32> = alloc::collections::BTreeMap::new();
        let mut local_of_new = alloc::vec![u32::MAX; self.instructions.len()];
        for (i, inst) in self.instructions.iter().enumerate() {
            if !inst.has_result {
                continue;
            }
            let local = self.locals.len() as u32;
            local_of_new[i] = local;
            if let Some(&old) = old_of_new.get(i).and_then(|o| old_local_of.get(o)) {
                new_local.insert(old, local);
            }
            self.locals.push(Local::Instruction(i as u32));
            self.local_types.push(inst.ty);
        }
        let mut names: Vec<(u32, OperandRange)> = Vec::with_capacity(self.value_names.len() + new_names.len());
        for &(local, range) in &self.value_names {
            let kept = if local < first_old_result { Some(local) } else { new_local.get(&local).copied() };
            if let Some(local) = kept {
                names.push((local, range));
            }
        }
        for (inst, name) in new_names {
            let Some(&local) = local_of_new.get(*inst as usize).filter(|&&l| l != u32::MAX) else { continue };
            let start = self.name_bytes.len();
            self.name_bytes.extend_from_slice(name);
            names.push((local, OperandRange { start: start as u32, len: name.len() as u32 }));
        }
        names.sort_by_key(|(l, _)| *l);
        self.value_names = names;
        // Values as metadata name values by id: the results' ids moved.
        let first = self.first_value;
        let md = &mut self.metadata;
        for e in md.entries.iter().filter(|e| e.code == crate::ids::llvm_ir::raw::METADATA_VALUE) {
            let Some(v) = md.pool.get_mut(e.ops.range()).and_then(|ops| ops.get_mut(1)) else { continue };
            let Some(local) = v.checked_sub(first).and_then(|l| u32::try_from(l).ok()) else { continue };
            if local >= first_old_result {
                if let Some(&n) = new_local.get(&local) {
                    *v = first + u64::from(n);
                }
            }
        }
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

/// The numbers `llvm-dis` gives a function's unnamed values (`%0`, `%1`, …), as LLVM's
/// `SlotTracker` numbers a function: its unnamed arguments, then, block by block, the
/// unnamed block and its unnamed instructions that produce a value. Named values and
/// instructions without a result have none. [`Body::slots`] makes it; the printer numbers
/// with it.
///
/// ```
/// # fn main() -> Result<(), llvm_bitstream_reader::Error> {
/// # let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/llvm14_ir_instructions.bc")).unwrap();
/// use llvm_bitstream_reader::ir::{DisOptions, Module};
/// let module = Module::parse(&bytes)?;
/// let bodies = module.bodies()?;
/// let index = module.functions.iter().position(|f| !f.is_declaration).unwrap();
/// let body = bodies.body(index)?.unwrap();
/// let slots = body.slots();
/// // The body as LLVM 22 reads it, printed as llvm-dis-22 prints it.
/// let text = bodies.display_function(index, Some(&body), DisOptions::default()).to_string();
/// for (i, inst) in body.instructions.iter().enumerate() {
///     if let Some(n) = slots.instruction(i as u32) {
///         // Every numbered result is defined in the text as `%N = `.
///         assert!(inst.has_result && text.contains(&format!("%{n} = ")));
///     }
/// }
/// # Ok(()) }
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LocalSlots {
    arguments: Vec<u32>,
    blocks: Vec<u32>,
    instructions: Vec<u32>,
}

impl LocalSlots {
    /// What marks a value without a number in the lists.
    const NONE: u32 = u32::MAX;

    /// The number of argument `n`, if it is unnamed.
    pub fn argument(&self, n: u32) -> Option<u32> {
        Self::get(&self.arguments, n)
    }

    /// The number of basic block `n`, if it is unnamed.
    pub fn block(&self, n: u32) -> Option<u32> {
        Self::get(&self.blocks, n)
    }

    /// The number of instruction `n`'s result, if it has an unnamed one.
    pub fn instruction(&self, n: u32) -> Option<u32> {
        Self::get(&self.instructions, n)
    }

    /// The number of a local value (an argument, an instruction's result or a block), if
    /// it has one; `None` for any other value.
    pub fn of(&self, value: Value) -> Option<u32> {
        match value {
            Value::Argument(n) => self.argument(n),
            Value::Instruction(n) => self.instruction(n),
            Value::Block(n) => self.block(n),
            _ => None,
        }
    }

    fn get(list: &[u32], n: u32) -> Option<u32> {
        list.get(n as usize).copied().filter(|&s| s != Self::NONE)
    }
}

impl Body {
    /// The numbers `llvm-dis` gives the body's unnamed values: see [`LocalSlots`].
    pub fn slots(&self) -> LocalSlots {
        self.slots_of(&self.instruction_locals())
    }

    /// [`Body::slots`], `locals` being [`Body::instruction_locals`].
    pub(crate) fn slots_of(&self, locals: &[u32]) -> LocalSlots {
        let mut next = 0;
        let mut take = |named: bool| {
            if named {
                LocalSlots::NONE
            } else {
                next += 1;
                next - 1
            }
        };
        let arguments = (0..self.arguments.len() as u32).map(|a| take(self.argument_name(a).is_some())).collect();
        let mut blocks = Vec::with_capacity(self.blocks.len());
        let mut instructions = alloc::vec![LocalSlots::NONE; self.instructions.len()];
        for (b, block) in self.blocks.iter().enumerate() {
            blocks.push(take(self.block_name(b as u32).is_some()));
            for i in block.first..block.first + block.len {
                let Some(inst) = self.instructions.get(i as usize) else { break };
                if inst.has_result {
                    let local = locals.get(i as usize).copied().unwrap_or(u32::MAX);
                    instructions[i as usize] = take(self.local_name(local).is_some());
                }
            }
        }
        LocalSlots { arguments, blocks, instructions }
    }
}

/// A call, an `invoke` or a `callbr` taken apart: [`Body::call`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Call<'b> {
    /// The callee: a function ([`Value::Global`], named by
    /// [`Module::global`](crate::ir::Module::global)), or any value for an indirect call
    /// (a loaded pointer, inline asm as a constant).
    pub callee: Operand,
    /// The arguments, in order (a variadic call's extra ones included).
    pub arguments: &'b [Operand],
    /// The calling convention, attributes, function type and operand bundles.
    pub info: CallInfo,
    /// The blocks an `invoke` or `callbr` goes to next: normal then unwind, or default
    /// then indirect ones. Empty for a `call`.
    pub destinations: &'b [Operand],
}

impl<'b> Call<'b> {
    /// The callee's value id, if it is a global value (a direct call).
    pub fn callee_global(&self) -> Option<u64> {
        match self.callee.value {
            Value::Global(id) => Some(id),
            _ => None,
        }
    }
}

impl Body {
    /// Instruction `inst` as a call, with its callee and arguments apart, if it is a
    /// `call`, an `invoke` or a `callbr`.
    ///
    /// ```
    /// use llvm_bitstream_reader::ir::Module;
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/rustc_llvm22_o3.bc"))?;
    /// let module = Module::parse(&bytes)?;
    /// let bodies = module.bodies()?;
    /// let mut direct = 0;
    /// for index in 0..module.functions.len() {
    ///     let Some(body) = bodies.body(index)? else { continue };
    ///     for inst in &body.instructions {
    ///         let Some(call) = body.call(inst) else { continue };
    ///         if let Some(callee) = call.callee_global().and_then(|id| module.global(id)) {
    ///             let _ = (callee.name_str(), call.arguments.len());
    ///             direct += 1;
    ///         }
    ///     }
    /// }
    /// assert!(direct > 0);
    /// # Ok(()) }
    /// ```
    pub fn call<'b>(&'b self, inst: &Instruction) -> Option<Call<'b>> {
        let ops = self.operands(inst);
        let (info, destinations) = match inst.kind {
            InstKind::Call { call, .. } => (call, 0),
            // (callee, arguments, normal, unwind)
            InstKind::Invoke(call) => (call, 2),
            // (callee, arguments, default, indirect…)
            InstKind::CallBr { call, indirect } => (call, 1 + indirect as usize),
            _ => return None,
        };
        let (callee, rest) = ops.split_first()?;
        let split = rest.len().checked_sub(destinations)?;
        let (arguments, destinations) = rest.split_at(split);
        Some(Call { callee: *callee, arguments, info, destinations })
    }

    /// The opcode name `llvm-dis` prints for an instruction (`add`, `fadd`, `load`,
    /// `icmp`, `call`, …); `types` is the module's type table, which tells `add` from
    /// `fadd`.
    pub fn opcode_name(&self, inst: &Instruction, types: &TypeTable) -> &'static str {
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
                let float = self.operands(inst).first().is_some_and(|o| types.is_fp_or_fp_vector(o.ty));
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
