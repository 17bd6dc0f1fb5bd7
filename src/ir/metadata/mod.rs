//! Metadata: the module's and each function's METADATA_BLOCK, read into one flat table per
//! scope, strings borrowed from the input, every record kept (an unknown code too), and
//! read one node at a time through the writer's index when there is one.
//!
//! ```
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! # let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/llvm14_ir_debuginfo.bc"))?;
//! use llvm_bitstream_reader::ir::{Module, MetadataNode};
//! let module = Module::parse(&bytes)?;
//! let metadata = module.metadata()?;
//! // Named metadata, then what one of its operands is.
//! let (name, operands) = metadata.named().find(|(name, _)| *name == b"llvm.dbg.cu").unwrap();
//! assert_eq!(name, b"llvm.dbg.cu");
//! let cu = operands[0];
//! assert!(matches!(metadata.node(cu), Some(MetadataNode::Debug { .. })));
//! # Ok(()) }
//! ```

pub(crate) mod debug_info;
pub(crate) mod di;
pub(crate) mod strings;

use alloc::vec::Vec;

use crate::error::Error;
use crate::ids::llvm_ir as ids_block;
use crate::ids::llvm_ir::raw as ids;
use crate::ir::module::constants::OperandRange;
use crate::ir::module::types::TypeId;
use crate::reader::{Entry as ReaderEntry, LazyBlock, Reader};
use crate::record::RecordRef;

/// The code an entry has while its record is not read yet (no metadata record has code 0).
const NOT_LOADED: u32 = 0;

/// Where an MDString's bytes are: in the input (the METADATA_STRINGS blob) or, for the
/// one-record-per-string layout before LLVM 4.0, in the table's own bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub(crate) enum StrLoc {
    /// `len` bytes of the input from byte `start`.
    Input { start: usize, len: u32 },
    /// `len` bytes of [`MdTable::owned`] from `start`.
    Owned { start: u32, len: u32 },
}

/// One metadata id: its record's code and operands (in [`MdTable::pool`]); for a string,
/// the code is METADATA_STRINGS and `ops.start` indexes [`MdTable::strings`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub(crate) struct MdEntry {
    pub(crate) code: u32,
    pub(crate) ops: OperandRange,
}

/// The records of one metadata scope: the module's METADATA_BLOCKs, or one function's
/// (whose ids follow the module's).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub(crate) struct MdTable {
    /// The first id of the scope (0 for the module, the module's count for a function).
    pub(crate) base: u64,
    /// Every id of the scope, in id order.
    pub(crate) entries: Vec<MdEntry>,
    /// The operands of every record, one after another.
    pub(crate) pool: Vec<u64>,
    pub(crate) strings: Vec<StrLoc>,
    /// Bytes of the strings, names and kinds that are not in the input as bytes.
    pub(crate) owned: Vec<u8>,
    /// Named metadata: the name (in `owned`) and its operands (ids, in `pool`).
    pub(crate) named: Vec<(OperandRange, OperandRange)>,
    /// METADATA_KIND: the file's kind id and its name (in `owned`).
    pub(crate) kinds: Vec<(u64, OperandRange)>,
    /// METADATA_GLOBAL_DECL_ATTACHMENT: the value id and its (kind, node id) pairs (in `pool`).
    pub(crate) global_attachments: Vec<(u64, OperandRange)>,
    /// Records of codes this reader does not know: kept (their entry too), and counted.
    pub(crate) unknown: u32,
    /// The writer's index (METADATA_INDEX): the bit position of each record after the
    /// strings, for reading one node on demand. Empty when the file has none.
    pub(crate) index: Vec<u64>,
    /// How many ids come from strings (they are first in a scope that has an index).
    pub(crate) string_ids: u64,
}

/// Whether a METADATA_BLOCK record defines one metadata id (all but the names, kinds, the
/// strings' bulk record, declaration attachments and the index).
pub(crate) fn defines_id(code: u32) -> bool {
    !matches!(
        code,
        ids::METADATA_NAME
            | ids::METADATA_KIND
            | ids::METADATA_NAMED_NODE
            | ids::METADATA_STRINGS
            | ids::METADATA_GLOBAL_DECL_ATTACHMENT
            | ids::METADATA_INDEX_OFFSET
            | ids::METADATA_INDEX
    )
}

/// Whether a METADATA_BLOCK record code is a debug-info record: a `DI*` node
/// (`!DILocation`, `!DISubprogram`, `!DIExpression`, …), a `!DIArgList` or a
/// `!DIAssignID`. The one place this is decided: the metadata table, the DI decoder and
/// `bitstream-dump --summary` (which counts debug-info bits) all ask it.
///
/// ```
/// use llvm_bitstream_reader::ids::llvm_ir::raw as ids;
/// use llvm_bitstream_reader::ir::is_debug_info_record;
/// assert!(is_debug_info_record(ids::METADATA_SUBPROGRAM));
/// assert!(!is_debug_info_record(ids::METADATA_NODE));
/// ```
pub fn is_debug_info_record(code: u32) -> bool {
    matches!(
        code,
        ids::METADATA_LOCATION
            | ids::METADATA_GENERIC_DEBUG..=ids::METADATA_MACRO_FILE
            | ids::METADATA_GLOBAL_VAR_EXPR
            | ids::METADATA_LABEL..=ids::METADATA_FIXED_POINT_TYPE
    )
}

/// The record codes this reader knows: the debug-info records ([`is_debug_info_record`])
/// and the others a METADATA_BLOCK holds. Any other is kept as [`MetadataNode::Unknown`].
fn is_known(code: u32) -> bool {
    is_debug_info_record(code)
        || matches!(
            code,
            ids::METADATA_STRING_OLD
                | ids::METADATA_VALUE
                | ids::METADATA_NODE
                | ids::METADATA_NAME
                | ids::METADATA_DISTINCT_NODE
                | ids::METADATA_KIND
                | ids::METADATA_OLD_NODE
                | ids::METADATA_OLD_FN_NODE
                | ids::METADATA_NAMED_NODE
                | ids::METADATA_ATTACHMENT
                | ids::METADATA_STRINGS
                | ids::METADATA_GLOBAL_DECL_ATTACHMENT
                | ids::METADATA_INDEX_OFFSET
                | ids::METADATA_INDEX
        )
}

/// What metadata id `id` is as a function sees it: one of the module's ids below the
/// module's count, else one of the function's own (`function`'s table, when there is one),
/// whose ids follow the module's. `None` for an id in neither.
pub(crate) fn node_in_scope<'t>(
    module: &'t MdTable,
    function: Option<&'t MdTable>,
    input: &'t [u8],
    id: u64,
) -> Option<MetadataNode<'t>> {
    let table = match function {
        Some(f) if id >= module.len() => f,
        _ => module,
    };
    table.node(input, id)
}

fn range_of(start: usize, len: usize) -> OperandRange {
    OperandRange { start: start as u32, len: len as u32 }
}

impl MdTable {
    /// A copy with room for `entries` more entries and `operands` more pool operands, so
    /// that appending them does not grow it a step at a time (the printer appends a
    /// function's locations to its copy: growing was 5% of `--dis` on a debug build).
    pub(crate) fn clone_with_room(&self, entries: usize, operands: usize) -> MdTable {
        let mut entry_copy = Vec::with_capacity(self.entries.len().saturating_add(entries));
        entry_copy.extend_from_slice(&self.entries);
        let mut pool_copy = Vec::with_capacity(self.pool.len().saturating_add(operands));
        pool_copy.extend_from_slice(&self.pool);
        MdTable {
            base: self.base,
            entries: entry_copy,
            pool: pool_copy,
            strings: self.strings.clone(),
            owned: self.owned.clone(),
            named: self.named.clone(),
            kinds: self.kinds.clone(),
            global_attachments: self.global_attachments.clone(),
            unknown: self.unknown,
            index: self.index.clone(),
            string_ids: self.string_ids,
        }
    }

    /// Empties the table, keeping its memory.
    pub(crate) fn clear(&mut self, base: u64) {
        self.base = base;
        self.entries.clear();
        self.pool.clear();
        self.strings.clear();
        self.owned.clear();
        self.named.clear();
        self.kinds.clear();
        self.global_attachments.clear();
        self.unknown = 0;
        self.index.clear();
        self.string_ids = 0;
    }

    /// The (kind, node id) attachments of global value `value_id`
    /// (METADATA_GLOBAL_DECL_ATTACHMENT), in the file's order.
    pub(crate) fn attachments_of(&self, value_id: u64) -> Vec<(u64, u64)> {
        self.global_attachments
            .iter()
            .filter(|(v, _)| *v == value_id)
            .flat_map(|&(_, ops)| self.ops(ops).chunks_exact(2).map(|p| (p[0], p[1])))
            .collect()
    }

    /// The number of ids the scope defines.
    pub(crate) fn len(&self) -> u64 {
        self.entries.len() as u64
    }

    /// Whether the scope defines no ids.
    fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// What id `id` is (`None` outside the scope, or not read yet).
    pub(crate) fn node<'t>(&'t self, input: &'t [u8], id: u64) -> Option<MetadataNode<'t>> {
        MetadataNode::of(self, input, self.entry(id)?)
    }

    /// Named metadata: each name and its operands' ids.
    pub(crate) fn named_nodes(&self) -> impl Iterator<Item = (&[u8], &[u64])> + '_ {
        self.named.iter().map(|&(name, ops)| (self.owned_bytes(name), self.ops(ops)))
    }

    fn push_pool(&mut self, values: &[u64]) -> OperandRange {
        let start = self.pool.len();
        self.pool.extend_from_slice(values);
        range_of(start, values.len())
    }

    fn push_owned_chars(&mut self, chars: &[u64]) -> OperandRange {
        let start = self.owned.len();
        self.owned.extend(chars.iter().map(|&c| c as u8));
        range_of(start, chars.len())
    }

    /// The operands of an entry.
    pub(crate) fn ops(&self, ops: OperandRange) -> &[u64] {
        let start = ops.start as usize;
        self.pool.get(start..start.saturating_add(ops.len as usize)).unwrap_or(&[])
    }

    /// Bytes kept in `owned`.
    pub(crate) fn owned_bytes(&self, r: OperandRange) -> &[u8] {
        let start = r.start as usize;
        self.owned.get(start..start.saturating_add(r.len as usize)).unwrap_or(&[])
    }

    /// An entry by id (`None` outside the scope).
    pub(crate) fn entry(&self, id: u64) -> Option<MdEntry> {
        let i = usize::try_from(id.checked_sub(self.base)?).ok()?;
        self.entries.get(i).copied()
    }

    /// The bytes of string `index`.
    pub(crate) fn string_bytes<'s>(&'s self, input: &'s [u8], index: u32) -> Option<&'s [u8]> {
        match *self.strings.get(index as usize)? {
            StrLoc::Input { start, len } => input.get(start..start.checked_add(len as usize)?),
            StrLoc::Owned { start, len } => self.owned.get(start as usize..(start as usize).checked_add(len as usize)?),
        }
    }

    /// The string id `id` is, if it is one.
    pub(crate) fn string<'s>(&'s self, input: &'s [u8], id: u64) -> Option<&'s [u8]> {
        let e = self.entry(id)?;
        (e.code == ids::METADATA_STRINGS).then_some(())?;
        self.string_bytes(input, e.ops.start)
    }

    /// Reads the records of a METADATA_BLOCK the reader has just entered (or is inside).
    /// `input` is the stream's bytes, which the strings' blob is a part of.
    pub(crate) fn read_block(&mut self, reader: &mut Reader<'_>, input: &[u8]) -> Result<(), Error> {
        let mut pending_name: Option<OperandRange> = None;
        while let Some(entry) = reader.advance_skipping_subblocks()? {
            let ReaderEntry::Record { bit, .. } = entry else { continue };
            let r = reader.read_record()?;
            self.record(&r, input, bit, &mut pending_name)?;
        }
        Ok(())
    }

    /// One record of a METADATA_BLOCK (or METADATA_KIND_BLOCK).
    fn record(
        &mut self,
        r: &RecordRef<'_, '_>,
        input: &[u8],
        bit: u64,
        pending_name: &mut Option<OperandRange>,
    ) -> Result<(), Error> {
        let code = r.code();
        let ops = r.operand_slice();
        match code {
            ids::METADATA_STRINGS => self.strings_record(ops, r.blob(), input, bit)?,
            ids::METADATA_STRING_OLD => {
                let chars = self.push_owned_chars(ops);
                self.strings.push(StrLoc::Owned { start: chars.start, len: chars.len });
                let index = (self.strings.len() - 1) as u32;
                self.entries.push(MdEntry { code: ids::METADATA_STRINGS, ops: range_of(index as usize, 0) });
            }
            ids::METADATA_NAME => *pending_name = Some(self.push_owned_chars(ops)),
            ids::METADATA_NAMED_NODE => {
                // A NAMED_NODE without its NAME is LLVM's "Invalid record"; kept unnamed.
                let name = pending_name.take().unwrap_or_default();
                let ops = self.push_pool(ops);
                self.named.push((name, ops));
            }
            ids::METADATA_KIND => {
                if let Some((&kind, chars)) = ops.split_first() {
                    let name = self.push_owned_chars(chars);
                    self.kinds.push((kind, name));
                }
            }
            ids::METADATA_GLOBAL_DECL_ATTACHMENT => {
                if let Some((&value, pairs)) = ops.split_first() {
                    let pairs = self.push_pool(pairs);
                    self.global_attachments.push((value, pairs));
                }
            }
            ids::METADATA_INDEX_OFFSET | ids::METADATA_INDEX => {}
            _ => {
                if !is_known(code) {
                    self.unknown = self.unknown.saturating_add(1);
                }
                let ops = self.push_pool(ops);
                self.entries.push(MdEntry { code, ops });
            }
        }
        Ok(())
    }

    /// METADATA_STRINGS: [count, offset to the characters] and a blob holding `count` vbr6
    /// lengths, then the characters.
    fn strings_record(&mut self, ops: &[u64], blob: Option<&[u8]>, input: &[u8], bit: u64) -> Result<(), Error> {
        let (Some(&count), Some(&offset), Some(blob)) = (ops.first(), ops.get(1), blob) else {
            return Err(Error::InvalidValue {
                bit,
                what: "METADATA_STRINGS record without its count, offset and blob",
                value: ops.len() as u64,
            });
        };
        for string in strings::MetadataStrings::new(count, offset, blob, bit)? {
            let string = string?;
            let start = (string.as_ptr() as usize).wrapping_sub(input.as_ptr() as usize);
            self.strings.push(StrLoc::Input { start, len: string.len() as u32 });
            let index = self.strings.len() - 1;
            self.entries.push(MdEntry { code: ids::METADATA_STRINGS, ops: range_of(index, 0) });
        }
        self.string_ids = self.string_ids.saturating_add(count);
        Ok(())
    }

    /// Reads the module's METADATA_BLOCKs and METADATA_KIND_BLOCK.
    pub(crate) fn read_module(module_block: &LazyBlock<'_>) -> Result<Self, Error> {
        let mut table = MdTable::default();
        Self::read_module_into(module_block, &mut table)?;
        Ok(table)
    }

    /// The records of the module-level METADATA_BLOCK a cut file's break falls in
    /// ([`Module::cut_metadata`](crate::ir::Module)), read into `table` as far as the
    /// input holds them; the error is the cut's.
    pub(crate) fn read_cut_block_into(cut: &LazyBlock<'_>, table: &mut MdTable) -> Result<(), Error> {
        let mut reader = cut.reader()?;
        reader.advance()?;
        table.read_block(&mut reader, cut.stream().bytes())
    }

    /// How many metadata ids the module defines, read without decoding its nodes: the
    /// strings' count, then the writer's index (METADATA_INDEX: one entry per node) where
    /// it has one, else each record's code. What numbering a function's own metadata
    /// needs; the nodes are read only when asked for.
    pub(crate) fn count_module_ids(module_block: &LazyBlock<'_>) -> Result<u64, Error> {
        let mut count = 0u64;
        crate::ir::module::walk::each_child_block(module_block, |id, reader| {
            if id != ids_block::METADATA_BLOCK_ID {
                return Ok(false);
            }
            let mut after_strings = false;
            while let Some(entry) = reader.advance_skipping_subblocks()? {
                let ReaderEntry::Record { .. } = entry else { continue };
                let r = reader.read_record()?;
                match r.code() {
                    ids::METADATA_STRINGS => {
                        count = count.saturating_add(r.operand_slice().first().copied().unwrap_or(0));
                        after_strings = true;
                        continue;
                    }
                    ids::METADATA_INDEX_OFFSET if after_strings || count == 0 => {
                        let ops = r.operand_slice();
                        let (Some(&lo), Some(&hi)) = (ops.first(), ops.get(1)) else { continue };
                        let begin = reader.bit_offset();
                        let offset = (lo & 0xffff_ffff) | (hi << 32);
                        // A bad offset: count record by record instead.
                        if reader.jump_within_block(begin.saturating_add(offset)).is_ok() {
                            if let Some(ReaderEntry::Record { .. }) = reader.advance_skipping_subblocks()? {
                                let index = reader.read_record()?;
                                if index.code() == ids::METADATA_INDEX {
                                    count = count.saturating_add(index.operand_slice().len() as u64);
                                    // The rest (names, attachments) defines no ids.
                                    while reader.advance_skipping_subblocks()?.is_some() {}
                                    return Ok(true);
                                }
                            }
                            reader.jump_within_block(begin)?;
                        }
                    }
                    code if defines_id(code) => count = count.saturating_add(1),
                    _ => {}
                }
                after_strings = false;
            }
            Ok(true)
        })?;
        Ok(count)
    }

    /// [`MdTable::read_module`] into `table`, which keeps what was read before an error.
    pub(crate) fn read_module_into(module_block: &LazyBlock<'_>, table: &mut MdTable) -> Result<(), Error> {
        let input = module_block.stream().bytes();
        crate::ir::module::walk::each_child_block(module_block, |id, reader| {
            if id == ids_block::METADATA_BLOCK_ID {
                table.read_block(reader, input)?;
                Ok(true)
            } else if id == ids_block::METADATA_KIND_BLOCK_ID {
                let mut none = None;
                while let Some(entry) = reader.advance_skipping_subblocks()? {
                    let ReaderEntry::Record { bit, .. } = entry else { continue };
                    let r = reader.read_record()?;
                    if r.code() == ids::METADATA_KIND {
                        table.record(&r, input, bit, &mut none)?;
                    }
                }
                Ok(true)
            } else {
                Ok(false)
            }
        })
    }
}

/// What one metadata id is: [`Metadata::node`].
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum MetadataNode<'m> {
    /// An MDString: `!"text"`.
    String(&'m [u8]),
    /// A tuple `!{…}` (METADATA_NODE, METADATA_DISTINCT_NODE): each operand is a metadata id
    /// plus one, 0 for `null`.
    Tuple {
        /// Whether it is `distinct`.
        distinct: bool,
        /// The operands, id + 1 each (0 is `null`).
        operands: &'m [u64],
    },
    /// A value as metadata (METADATA_VALUE): `i32 5`, `ptr @g`, a function's `ptr %x`.
    Value {
        /// The value's type.
        ty: TypeId,
        /// The value id (absolute: a function's values follow the module's).
        value: u64,
    },
    /// A tuple of the layout before LLVM 3.6 (METADATA_OLD_NODE, METADATA_OLD_FN_NODE):
    /// (type, value) pairs, a value of metadata type being a metadata id.
    OldTuple {
        /// Whether it is function-local (OLD_FN_NODE).
        function_local: bool,
        /// The (type, value) pairs, flattened.
        pairs: &'m [u64],
    },
    /// A `!DIExpression(…)`: its version and its elements.
    Expression {
        /// The element layout's version (3 today).
        version: u64,
        /// The elements: DW_OP operations and their arguments.
        elements: &'m [u64],
    },
    /// A `!DIArgList(…)`: metadata ids of values as metadata.
    ArgList(&'m [u64]),
    /// A debug-info node (`!DILocation`, `!DISubprogram`, …): its record, decoded on demand.
    Debug {
        /// The record code (`METADATA_LOCATION`, `METADATA_SUBPROGRAM`, …).
        code: u32,
        /// The record's operands as written.
        operands: &'m [u64],
    },
    /// A record of a code this reader does not know (a newer LLVM's): kept as written.
    Unknown {
        /// The record code.
        code: u32,
        /// The operands.
        operands: &'m [u64],
    },
}

impl<'m> MetadataNode<'m> {
    /// The node an entry holds.
    pub(crate) fn of(table: &'m MdTable, input: &'m [u8], e: MdEntry) -> Option<Self> {
        let ops = table.ops(e.ops);
        Some(match e.code {
            NOT_LOADED => return None,
            ids::METADATA_STRINGS => MetadataNode::String(table.string_bytes(input, e.ops.start)?),
            ids::METADATA_NODE => MetadataNode::Tuple { distinct: false, operands: ops },
            ids::METADATA_DISTINCT_NODE => MetadataNode::Tuple { distinct: true, operands: ops },
            ids::METADATA_VALUE => MetadataNode::Value { ty: TypeId(*ops.first()? as u32), value: *ops.get(1)? },
            ids::METADATA_OLD_NODE => MetadataNode::OldTuple { function_local: false, pairs: ops },
            ids::METADATA_OLD_FN_NODE => MetadataNode::OldTuple { function_local: true, pairs: ops },
            ids::METADATA_EXPRESSION => MetadataNode::Expression {
                version: ops.first().map_or(0, |v| v >> 1),
                elements: ops.get(1..).unwrap_or(&[]),
            },
            ids::METADATA_ARG_LIST => MetadataNode::ArgList(ops),
            code if is_known(code) => MetadataNode::Debug { code, operands: ops },
            code => MetadataNode::Unknown { code, operands: ops },
        })
    }
}

/// A module's metadata ([`Module::metadata`](crate::ir::Module::metadata)): every module-level
/// node, the named metadata, the kinds and the global objects' attachments. Function-local
/// nodes are in each [`Body`](crate::ir::Body).
#[derive(Clone, Debug)]
pub struct Metadata<'a> {
    pub(crate) table: MdTable,
    pub(crate) input: &'a [u8],
}

impl<'a> Metadata<'a> {
    /// How many ids the module defines (a function's local ids follow them).
    pub fn len(&self) -> u64 {
        self.table.len()
    }

    /// Whether the module has no metadata.
    pub fn is_empty(&self) -> bool {
        self.table.is_empty()
    }

    /// What id `id` is; `None` outside the module's ids.
    pub fn node(&self, id: u64) -> Option<MetadataNode<'_>> {
        self.table.node(self.input, id)
    }

    /// The MDString id `id` is, if it is one.
    pub fn string(&self, id: u64) -> Option<&[u8]> {
        self.table.string(self.input, id)
    }

    /// Named metadata (`!llvm.dbg.cu = !{!0}`): each name and its operands' ids.
    pub fn named(&self) -> impl Iterator<Item = (&[u8], &[u64])> + '_ {
        self.table.named_nodes()
    }

    /// The attachment kinds the file names (`dbg`, `tbaa`, …), with the file's kind ids.
    pub fn kinds(&self) -> impl Iterator<Item = (u64, &[u8])> + '_ {
        self.table.kinds.iter().map(|&(id, name)| (id, self.table.owned_bytes(name)))
    }

    /// The name of the file's kind `kind`.
    pub fn kind_name(&self, kind: u64) -> Option<&[u8]> {
        self.kinds().find(|&(id, _)| id == kind).map(|(_, name)| name)
    }

    /// The attachments of global variables and function declarations: each value id with
    /// its (kind, node id) pairs.
    pub fn global_attachments(&self) -> impl Iterator<Item = (u64, &[u64])> + '_ {
        self.table.global_attachments.iter().map(|&(value, pairs)| (value, self.table.ops(pairs)))
    }

    /// How many records of codes this reader does not know the module holds (each is kept
    /// as [`MetadataNode::Unknown`]).
    pub fn unknown_records(&self) -> u32 {
        self.table.unknown
    }
}

/// A module's metadata read one node at a time ([`Module::lazy_metadata`](crate::ir::Module::lazy_metadata)),
/// as LLVM's `lazyLoadOneMetadata` reads it: the strings, names, kinds and attachments are
/// read at once, each other node when asked for, through the writer's index
/// (METADATA_INDEX). A module written without an index (small, or before LLVM 4.0) is read
/// whole at once.
#[derive(Debug)]
pub struct LazyMetadata<'a> {
    table: MdTable,
    input: &'a [u8],
    /// A reader inside the METADATA_BLOCK with its abbreviations, for jumping to a record.
    reader: Option<Reader<'a>>,
    /// How many records were read on demand.
    loaded: u64,
}

impl<'a> LazyMetadata<'a> {
    pub(crate) fn open(module_block: &LazyBlock<'a>) -> Result<Self, Error> {
        let input = module_block.stream().bytes();
        let mut lazy = LazyMetadata { table: MdTable::default(), input, reader: None, loaded: 0 };
        let mut found = None;
        crate::ir::module::walk::each_child_block(module_block, |id, reader| {
            if id == ids_block::METADATA_BLOCK_ID && found.is_none() {
                found = Some(reader.skip_block()?);
                return Ok(true);
            }
            Ok(false)
        })?;
        let Some(block) = found else {
            lazy.table = MdTable::read_module(module_block)?;
            return Ok(lazy);
        };
        let mut reader = block.reader()?;
        reader.advance()?;
        let mut index_at = None;
        let mut none = None;
        // The strings, then INDEX_OFFSET; anything else first means there is no index.
        while let Some(entry) = reader.advance_skipping_subblocks()? {
            let ReaderEntry::Record { bit, .. } = entry else { break };
            let r = reader.read_record()?;
            match r.code() {
                ids::METADATA_STRINGS => lazy.table.record(&r, input, bit, &mut none)?,
                ids::METADATA_INDEX_OFFSET => {
                    let ops = r.operand_slice();
                    let (Some(&lo), Some(&hi)) = (ops.first(), ops.get(1)) else { break };
                    let offset = (lo & 0xffff_ffff) | (hi << 32);
                    index_at = Some((reader.bit_offset(), offset));
                    break;
                }
                _ => break,
            }
        }
        let Some((begin, offset)) = index_at else {
            lazy.table = MdTable::read_module(module_block)?;
            return Ok(lazy);
        };
        reader.jump_within_block(begin.saturating_add(offset))?;
        // The index record, then the names and attachments that follow it.
        let mut pending_name = None;
        while let Some(entry) = reader.advance_skipping_subblocks()? {
            let ReaderEntry::Record { bit, .. } = entry else { continue };
            let r = reader.read_record()?;
            if r.code() == ids::METADATA_INDEX {
                let mut at = begin;
                lazy.table.index.clear();
                for &delta in r.operand_slice() {
                    at = at.saturating_add(delta);
                    lazy.table.index.push(at);
                }
            } else {
                lazy.table.record(&r, input, bit, &mut pending_name)?;
            }
        }
        // The kinds are in their own block.
        crate::ir::module::walk::each_child_block(module_block, |id, reader| {
            if id != ids_block::METADATA_KIND_BLOCK_ID {
                return Ok(false);
            }
            while let Some(entry) = reader.advance_skipping_subblocks()? {
                let ReaderEntry::Record { bit, .. } = entry else { continue };
                let r = reader.read_record()?;
                if r.code() == ids::METADATA_KIND {
                    lazy.table.record(&r, input, bit, &mut none)?;
                }
            }
            Ok(true)
        })?;
        // One entry per indexed record, not loaded yet (the index's length is bounded by
        // the input, as every delta takes at least one bit).
        let empty = MdEntry { code: NOT_LOADED, ops: OperandRange::default() };
        lazy.table.entries.resize(lazy.table.entries.len() + lazy.table.index.len(), empty);
        // A reader that has seen the abbreviations the writer defines up front, before the
        // first record; records are then read by jumping to them (LLVM's `IndexCursor`).
        // (The reader above has left the block: ours never stays at a block's end.)
        let mut inner = block.reader()?;
        inner.advance()?;
        inner.advance_skipping_subblocks()?;
        lazy.reader = Some(inner);
        Ok(lazy)
    }

    /// How many ids the module defines.
    pub fn len(&self) -> u64 {
        self.table.len()
    }

    /// Whether the module has no metadata.
    pub fn is_empty(&self) -> bool {
        self.table.is_empty()
    }

    /// How many records were read on demand so far.
    pub fn records_read(&self) -> u64 {
        self.loaded
    }

    /// Reads id `id`'s record if it is not read yet.
    fn load(&mut self, id: u64) -> Result<(), Error> {
        let Some(e) = self.table.entry(id) else { return Ok(()) };
        if e.code != NOT_LOADED {
            return Ok(());
        }
        let Some(reader) = self.reader.as_mut() else { return Ok(()) };
        let slot = (id - self.table.base) as usize;
        let Some(&at) =
            usize::try_from(id.saturating_sub(self.table.string_ids)).ok().and_then(|i| self.table.index.get(i))
        else {
            return Ok(());
        };
        reader.jump_within_block(at)?;
        let Some(ReaderEntry::Record { .. }) = reader.advance_skipping_subblocks()? else {
            return Err(Error::InvalidValue { bit: at, what: "metadata index entry (no record there)", value: id });
        };
        let r = reader.read_record()?;
        let code = r.code();
        if !defines_id(code) {
            return Err(Error::InvalidValue { bit: at, what: "metadata index entry (not a node record)", value: id });
        }
        let start = self.table.pool.len();
        self.table.pool.extend_from_slice(r.operand_slice());
        if !is_known(code) {
            self.table.unknown = self.table.unknown.saturating_add(1);
        }
        self.table.entries[slot] = MdEntry { code, ops: range_of(start, self.table.pool.len() - start) };
        self.loaded += 1;
        Ok(())
    }

    /// What id `id` is, reading its record if needed.
    pub fn node(&mut self, id: u64) -> Result<Option<MetadataNode<'_>>, Error> {
        self.load(id)?;
        Ok(self.table.node(self.input, id))
    }

    /// The MDString id `id` is, if it is one (strings are read at once).
    pub fn string(&self, id: u64) -> Option<&[u8]> {
        self.table.string(self.input, id)
    }

    /// Named metadata: each name and its operands' ids.
    pub fn named(&self) -> impl Iterator<Item = (&[u8], &[u64])> + '_ {
        self.table.named_nodes()
    }
}

impl<'a> crate::ir::Module<'a> {
    /// Reads the module's metadata: every module-level node, the named metadata, the
    /// attachment kinds and the global objects' attachments. Function-local metadata comes
    /// with each function's [`Body`](crate::ir::Body).
    ///
    /// Each call reads the block again: keep the value. (The module does not cache it:
    /// `Module` sits below the metadata layer. [`Bodies`](crate::ir::Bodies) reads it once
    /// for all the functions it decodes.)
    pub fn metadata(&self) -> Result<Metadata<'a>, Error> {
        let input = self.block.stream().bytes();
        let mut table = MdTable::default();
        MdTable::read_module_into(&self.block, &mut table)?;
        if let Some(cut) = &self.cut_metadata {
            // A cut file's: the records before the cut (its error is the module's, which
            // `Module::parse_partial` returned).
            let _ = MdTable::read_cut_block_into(cut, &mut table);
        }
        Ok(Metadata { table, input })
    }

    /// The module's metadata, read one node at a time through the writer's index: see
    /// [`LazyMetadata`].
    pub fn lazy_metadata(&self) -> Result<LazyMetadata<'a>, Error> {
        LazyMetadata::open(&self.block)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The known codes are 1 to 49: before they were derived from
    /// [`is_debug_info_record`], METADATA_GENERIC_DEBUG (12) and METADATA_FIXED_POINT_TYPE
    /// (49) were left out, and never reached the debug-info decoder.
    #[test]
    fn known_codes_are_the_metadata_block_records() {
        for code in 0..256 {
            assert_eq!(is_known(code), (1..=49).contains(&code), "code {code}");
        }
        for code in [ids::METADATA_GENERIC_DEBUG, ids::METADATA_FIXED_POINT_TYPE] {
            let table =
                MdTable { entries: alloc::vec![MdEntry { code, ops: OperandRange::default() }], ..MdTable::default() };
            let node = MetadataNode::of(&table, &[], table.entries[0]);
            assert!(matches!(node, Some(MetadataNode::Debug { code: c, .. }) if c == code), "code {code}");
        }
    }
}

#[cfg(all(test, feature = "std"))]
mod counted_ids {
    use alloc::vec::Vec;

    use super::MdTable;
    use crate::ir::Module;

    /// The ids counted without reading the nodes are the ids the read table has, on every
    /// IR test file (LLVM 3.x to 22, with and without an index).
    #[test]
    fn counted_ids_are_the_read_tables_length() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata");
        let mut files: Vec<_> = [root.clone(), root.join("llvm-tests")]
            .iter()
            .flat_map(|dir| std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()))
            .filter(|p| p.extension().is_some_and(|e| e == "bc"))
            .collect();
        files.sort();
        let mut with_metadata = 0;
        for path in &files {
            let bytes = std::fs::read(path).unwrap();
            let Ok(modules) = Module::parse_all(&bytes) else { continue };
            for m in &modules {
                let Ok(table) = MdTable::read_module(&m.block) else { continue };
                let counted = MdTable::count_module_ids(&m.block).unwrap();
                assert_eq!(counted, table.len(), "{}", path.display());
                with_metadata += usize::from(!table.is_empty());
            }
        }
        assert!(with_metadata >= 40, "{with_metadata}");
    }
}
