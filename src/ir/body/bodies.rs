//! What decoding bodies needs from a module, made once ([`Module::bodies`]). The entry
//! points that decode a function's body ([`Bodies::body`], [`Bodies::body_as_written`])
//! are with the decoder.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use super::Body;
use super::type_index::{NO_TYPE, TypeIndex};
use crate::error::Error;
use crate::ids::llvm_ir as ids_block;
use crate::ir::module::Module;
use crate::ir::module::constants::{Constant, ModuleConstants};
use crate::ir::module::types::TypeId;

/// What decoding bodies needs from a module, made once ([`Module::bodies`]): the
/// module-level constants, type lookups, operand bundle tags and sync scope names.
/// `Send + Sync`: bodies decode in parallel from one `Bodies`.
#[derive(Debug)]
pub struct Bodies<'m, 'a> {
    pub(super) module: &'m Module<'a>,
    pub(super) constants: ModuleConstants,
    pub(super) index: TypeIndex,
    bundle_tags: Vec<String>,
    sync_scopes: Vec<String>,
    group_index: BTreeMap<u64, usize>,
    /// By attribute list: an old list's pairs (`PARAMATTR_CODE_ENTRY_OLD`) unpacked into
    /// one group each, as LLVM's reader builds them; empty for a list of groups.
    legacy_groups: Vec<Vec<crate::ir::AttributeGroup>>,
    /// The pointer type of each global value, by value id.
    global_types: Vec<TypeId>,
    /// The datalayout's `A<n>`: the address space of an `alloca` whose record names none.
    pub(super) alloca_address_space: u64,
    /// The module's metadata, read on first use.
    metadata: crate::ir::module::lazy_table::Once<(crate::ir::metadata::MdTable, Option<Error>)>,
    /// How many metadata ids the module defines, counted on first use without reading
    /// its nodes ([`Bodies::module_metadata_len`]).
    metadata_len: crate::ir::module::lazy_table::Once<u64>,
    /// What the newest LLVM's view works out from the module ([`Bodies::view`]), made on
    /// first use. Kept as a `dyn Any`: the view is the layer above, and this one does not
    /// name its types.
    pub(crate) newest_view: crate::ir::module::lazy_table::Once<KeptView>,
}

/// The view state [`Bodies`] keeps (see its `newest_view`); `Sync` where `Bodies` is.
#[cfg(feature = "std")]
pub(crate) type KeptView = alloc::boxed::Box<dyn core::any::Any + Send + Sync>;
/// The view state [`Bodies`] keeps (see its `newest_view`).
#[cfg(not(feature = "std"))]
pub(crate) type KeptView = alloc::boxed::Box<dyn core::any::Any>;

impl<'a> Module<'a> {
    /// Prepares decoding function bodies: decodes the module-level constants and the
    /// module's operand bundle tags and sync scope names, once. Then
    /// [`Bodies::body`] decodes any function's body, from any thread.
    pub fn bodies(&self) -> Result<Bodies<'_, 'a>, Error> {
        let constants = self.constants()?;
        let index = TypeIndex::new(&self.types);
        let (mut bundle_tags, mut sync_scopes) = (Vec::new(), Vec::new());
        crate::ir::module::walk::each_child_block(&self.block, |id, reader| {
            let out = if id == ids_block::OPERAND_BUNDLE_TAGS_BLOCK_ID {
                &mut bundle_tags
            } else if id == ids_block::SYNC_SCOPE_NAMES_BLOCK_ID {
                &mut sync_scopes
            } else {
                return Ok(false);
            };
            crate::ir::module::walk::each_record(reader, |r| {
                out.push(r.text_from(0));
                Ok(())
            })?;
            Ok(true)
        })?;
        // A group id written twice is the later group (`MAttributeGroups[GrpID] = …`).
        let group_index = self.attribute_groups.iter().enumerate().map(|(i, g)| (g.id, i)).collect();
        let legacy_groups = (0..self.attribute_lists.len())
            .map(|l| match self.attribute_lists.get(l) {
                Some(crate::ir::AttributeList::Legacy(pairs)) => {
                    pairs.iter().map(|&(index, bits)| crate::ir::upgrade::legacy_attribute_group(index, bits)).collect()
                }
                _ => Vec::new(),
            })
            .collect();
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
            legacy_groups,
            global_types,
            alloca_address_space: crate::ir::vocabulary::datalayout::DataLayout::new(
                self.datalayout.as_deref().unwrap_or(""),
            )
            .alloca_address_space(),
            metadata: crate::ir::module::lazy_table::Once::new(),
            metadata_len: crate::ir::module::lazy_table::Once::new(),
            newest_view: crate::ir::module::lazy_table::Once::new(),
        })
    }
}

impl<'m, 'a> Bodies<'m, 'a> {
    /// The module.
    pub fn module(&self) -> &'m Module<'a> {
        self.module
    }

    /// The module-level constants as the file has them (the view's, folded:
    /// [`ModuleView::constants`](crate::ir::ModuleView::constants); a body's constant by
    /// its value id, as the body was read: [`Bodies::constant`]).
    pub fn constants(&self) -> &ModuleConstants {
        &self.constants
    }

    /// Each basic block's predecessors in `body` (a body of this module's function), as
    /// LLVM's reader leaves the block's use list and `llvm-dis` prints its `; preds =`:
    /// the terminators' uses in reverse order of creation, then permuted as the
    /// function's USELIST_CODE_BB records say (a `blockaddress` of the block being one
    /// more use there). A block that two edges of one terminator reach lists it twice.
    /// See [`Body::successors`].
    pub fn predecessors(&self, body: &Body) -> Vec<Vec<u32>> {
        let mut uses: Vec<Vec<u32>> = alloc::vec![Vec::new(); body.blocks.len()];
        for b in 0..body.blocks.len() {
            for t in body.successors(b) {
                if let Some(list) = uses.get_mut(t as usize) {
                    list.push(b as u32);
                }
            }
        }
        for list in &mut uses {
            list.reverse();
        }
        // A `blockaddress` of the block is one more use, made before the terminators'
        // (when the module's or the function's constants are read), so last in the list.
        const BLOCK_ADDRESS: u32 = u32::MAX;
        let mut addressed = None;
        for &(bb, order) in &body.block_use_orders {
            let order = body.literal_range(order);
            let Some(list) = uses.get_mut(bb as usize) else { continue };
            if order.len() == list.len() + 1
                && addressed.get_or_insert_with(|| self.addressed_blocks(body)).contains(&u64::from(bb))
            {
                list.push(BLOCK_ADDRESS);
            }
            if order.len() != list.len() {
                continue;
            }
            let mut keyed: Vec<(u64, u32)> = order.iter().copied().zip(list.iter().copied()).collect();
            keyed.sort_by_key(|(k, _)| *k);
            *list = keyed.into_iter().map(|(_, p)| p).filter(|&p| p != BLOCK_ADDRESS).collect();
        }
        uses
    }

    /// The blocks of `body`'s function that a `blockaddress` constant names, in the
    /// module's constants or the function's.
    fn addressed_blocks(&self, body: &Body) -> Vec<u64> {
        let Some(function) = self.module.functions.get(body.function) else { return Vec::new() };
        let me = function.common.value_id;
        let mut blocks: Vec<u64> = [&self.constants.constants, &body.constants.constants]
            .into_iter()
            .flatten()
            .filter_map(|c| match c.kind {
                crate::ir::ConstantKind::BlockAddress { function, block } if function == me => Some(block),
                _ => None,
            })
            .collect();
        blocks.sort_unstable();
        blocks.dedup();
        blocks
    }

    /// The opcode name `llvm-dis` prints for an instruction of `body` (`add`, `fadd`,
    /// `load`, `call`, …): [`Body::opcode_name`] with the types of [`Bodies::body`]'s bodies.
    #[deprecated(note = "one opcode_name: `body.opcode_name(inst, bodies.types())` (or a view's types)")]
    pub fn opcode_name(&self, body: &Body, inst: &super::Instruction) -> &'static str {
        body.opcode_name(inst, self.types())
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
    /// The groups an old attribute list (`PARAMATTR_CODE_ENTRY_OLD`) unpacks into, one per
    /// pair; none for a list of groups.
    pub(crate) fn legacy_groups(&self, list: usize) -> &[crate::ir::AttributeGroup] {
        self.legacy_groups.get(list).map_or(&[], Vec::as_slice)
    }

    pub(crate) fn attribute_group(&self, id: u64) -> Option<&crate::ir::AttributeGroup> {
        self.module.attribute_groups.get(*self.group_index.get(&id)?)
    }

    /// The constant a [`Value::Constant`](super::Value::Constant) of `body` names, with the table its operand
    /// ranges index: the function's, or the module's as `body` was read (for a body of
    /// [`Bodies::body`], the newest LLVM's folded table, [`ModuleView::constants`](crate::ir::ModuleView::constants); for one
    /// of [`Bodies::body_as_written`], the file's, [`Bodies::constants`]). A body of
    /// another version's view resolves with that view's [`ModuleView::constant`](crate::ir::ModuleView::constant).
    ///
    /// ```
    /// # fn main() -> Result<(), llvm_bitstream_reader::Error> {
    /// # let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/llvm14_ir_instructions.bc")).unwrap();
    /// use llvm_bitstream_reader::ir::{Module, Value};
    /// let module = Module::parse(&bytes)?;
    /// let bodies = module.bodies()?;
    /// let mut constants = 0;
    /// for index in 0..module.functions.len() {
    ///     let Some(body) = bodies.body(index)? else { continue };
    ///     for inst in &body.instructions {
    ///         for operand in body.operands(inst) {
    ///             if let Value::Constant(id) = operand.value {
    ///                 assert!(bodies.constant(&body, id).is_some());
    ///                 constants += 1;
    ///             }
    ///         }
    ///     }
    /// }
    /// assert!(constants > 0);
    /// # Ok(()) }
    /// ```
    pub fn constant<'s>(&'s self, body: &'s Body, value_id: u64) -> Option<(&'s Constant, &'s ModuleConstants)> {
        if let Some(c) = body.constants.get(value_id) {
            return Some((c, &body.constants));
        }
        let table = self.module_constants_of(body);
        table.get(value_id).map(|c| (c, table))
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
            use crate::ir::metadata::MdTable;
            let error = MdTable::read_module_into(&self.module.block, &mut table)
                .and_then(|()| match &self.module.cut_metadata {
                    Some(cut) => MdTable::read_cut_block_into(cut, &mut table),
                    None => Ok(()),
                })
                .err();
            (table, error)
        })
    }

    /// How many metadata ids the module defines: where a function's own ids start.
    /// Counted from the strings' count and the writer's index, without decoding a node,
    /// so that decoding bodies does not read the module's metadata (equal to the read
    /// table's length: a test checks it on every test file).
    pub(crate) fn module_metadata_len(&self) -> u64 {
        if self.module.block.cut_bit().is_some() {
            // A cut module's table is what was read, as far as it goes: count that.
            return self.module_metadata().len();
        }
        *self.metadata_len.get_or_init(|| {
            crate::ir::metadata::MdTable::count_module_ids(&self.module.block)
                .unwrap_or_else(|_| self.module_metadata().len())
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
}
