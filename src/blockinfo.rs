//! The BLOCKINFO table: abbreviations and names that BLOCKINFO blocks give other blocks.
//!
//! Like LLVM's `BitstreamBlockInfo`, the table lives beside the cursor, not inside it: a
//! reader opened later on a skipped block only needs the bytes and this table. It is
//! immutable once built and shared through an `Arc`, so bookmarks can carry it to other
//! threads.
//!
//! **Repeated BLOCKINFO blocks** replace the table, as in LLVM (`ReadBlockInfoBlock`
//! builds a new table and its callers assign it): a second BLOCKINFO does not add to the
//! first. The new table takes effect after the BLOCKINFO block ends, for blocks entered
//! from then on; blocks already open keep the abbreviations they started with.

use alloc::boxed::Box;
use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::sync::Arc;
use alloc::vec::Vec;

use crate::abbrev::Abbrev;
use crate::ids::BlockId;
use crate::ids::bitstream::raw;

/// Id of the BLOCKINFO block (`bitc::BLOCKINFO_BLOCK_ID`, from [`crate::ids::bitstream`]).
pub const BLOCKINFO_BLOCK_ID: u32 = raw::BLOCKINFO_BLOCK_ID;
/// BLOCKINFO record: set the block id the following records describe (`BLOCKINFO_CODE_SETBID`).
pub const SETBID: u32 = raw::BLOCKINFO_CODE_SETBID;
/// BLOCKINFO record: the name of the current block id (`BLOCKINFO_CODE_BLOCKNAME`).
pub const BLOCKNAME: u32 = raw::BLOCKINFO_CODE_BLOCKNAME;
/// BLOCKINFO record: the name of one record code of the current block id
/// (`BLOCKINFO_CODE_SETRECORDNAME`).
pub const SETRECORDNAME: u32 = raw::BLOCKINFO_CODE_SETRECORDNAME;

/// The abbreviations BLOCKINFO gives one block id, shared by every block of that id.
pub(crate) type SharedAbbrevs = Arc<[Arc<Abbrev>]>;

/// What BLOCKINFO says about one block id.
#[derive(Clone, Debug, Default)]
pub struct BlockInfoEntry {
    /// `None` rather than an empty slice, which would still be an allocation.
    abbrevs: Option<SharedAbbrevs>,
    name: Option<Arc<str>>,
    record_names: Vec<(u32, Box<str>)>,
}

/// The entry of a block id that a SETBID selected and nothing described.
static EMPTY_ENTRY: BlockInfoEntry = BlockInfoEntry { abbrevs: None, name: None, record_names: Vec::new() };

impl BlockInfoEntry {
    /// The abbreviations every block of this id starts with (ids 4, 5, …).
    pub fn abbrevs(&self) -> &[Arc<Abbrev>] {
        self.abbrevs.as_deref().unwrap_or(&[])
    }

    /// The block's name (BLOCKNAME), if given.
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// The record names (SETRECORDNAME) given, as (code, name), in stream order.
    pub fn record_names(&self) -> impl Iterator<Item = (u32, &str)> {
        self.record_names.iter().map(|(c, n)| (*c, &**n))
    }
}

/// The BLOCKINFO table in effect at some point of a stream.
#[derive(Clone, Debug, Default)]
pub struct BlockInfo {
    /// Sorted by block id. An id a SETBID selected and nothing described (a hostile run of
    /// SETBIDs makes many) has no entry of its own: it costs 16 bytes here.
    entries: Vec<(u32, Option<Box<BlockInfoEntry>>)>,
}

impl BlockInfo {
    /// An empty table (what a stream starts with).
    pub fn new() -> Self {
        Self::default()
    }

    /// What the table says about `block_id`.
    pub fn entry(&self, block_id: impl Into<BlockId>) -> Option<&BlockInfoEntry> {
        let i = self.entries.binary_search_by_key(&block_id.into().0, |(id, _)| *id).ok()?;
        Some(self.entries[i].1.as_deref().unwrap_or(&EMPTY_ENTRY))
    }

    /// The abbreviations blocks of `block_id` start with.
    pub fn abbrevs(&self, block_id: impl Into<BlockId>) -> &[Arc<Abbrev>] {
        self.entry(block_id).map_or(&[], |e| e.abbrevs())
    }

    /// What a block of `block_id` starts with: its shared abbreviations (if any) and name,
    /// from one lookup.
    #[inline]
    pub(crate) fn shared(&self, block_id: u32) -> (Option<SharedAbbrevs>, Option<Arc<str>>) {
        match self.entry(BlockId(block_id)) {
            Some(e) => (e.abbrevs.clone(), e.name.clone()),
            None => (None, None),
        }
    }

    /// The name BLOCKINFO gives `block_id`.
    pub fn block_name(&self, block_id: impl Into<BlockId>) -> Option<&str> {
        self.entry(block_id)?.name()
    }

    /// The name BLOCKINFO gives record `code` of `block_id`; if several are given, the
    /// first wins, as in LLVM (`BitcodeAnalyzer`'s `GetCodeName` takes the first match).
    pub fn record_name(&self, block_id: impl Into<BlockId>, code: u32) -> Option<&str> {
        let e = self.entry(block_id)?;
        e.record_names.iter().find(|(c, _)| *c == code).map(|(_, n)| &**n)
    }

    /// The block ids the table describes, in increasing order.
    pub fn block_ids(&self) -> impl Iterator<Item = BlockId> + '_ {
        self.entries.iter().map(|(id, _)| BlockId(*id))
    }
}

/// What one SETBID section of a BLOCKINFO block under construction has said so far.
#[derive(Debug, Default)]
pub(crate) struct PendingEntry {
    abbrevs: Vec<Arc<Abbrev>>,
    name: Option<String>,
    record_names: Vec<(u32, Box<str>)>,
}

/// A BLOCKINFO table under construction, while its block is being read.
#[derive(Debug, Default)]
pub(crate) struct BlockInfoBuilder {
    /// Every block id a SETBID selected, in order (so a hostile run of SETBIDs stays
    /// O(n log n)), with what the BLOCKINFO block said about it: nothing yet costs no
    /// allocation of its own.
    entries: BTreeMap<u32, Option<Box<PendingEntry>>>,
    /// The block id the last SETBID selected.
    current: Option<u32>,
}

impl BlockInfoBuilder {
    /// SETBID: later records describe `block_id` (LLVM's `getOrCreateBlockInfo`).
    pub(crate) fn set_bid(&mut self, block_id: u32) {
        self.entries.entry(block_id).or_default();
        self.current = Some(block_id);
    }

    /// The entry the last SETBID selected, if any, to add to.
    pub(crate) fn current(&mut self) -> Option<&mut PendingEntry> {
        let entry = self.entries.get_mut(&self.current?)?;
        Some(entry.get_or_insert_with(Default::default))
    }

    pub(crate) fn finish(self) -> BlockInfo {
        let entries = self.entries.into_iter().map(|(id, pending)| {
            let entry = pending.map(|e| {
                let e = *e;
                Box::new(BlockInfoEntry {
                    abbrevs: (!e.abbrevs.is_empty()).then(|| e.abbrevs.into()),
                    name: e.name.map(Arc::from),
                    record_names: e.record_names,
                })
            });
            (id, entry)
        });
        // A BTreeMap iterates in key order: the table is sorted by block id.
        BlockInfo { entries: entries.collect() }
    }
}

impl PendingEntry {
    pub(crate) fn add_abbrev(&mut self, abbrev: Arc<Abbrev>) {
        self.abbrevs.push(abbrev);
    }

    pub(crate) fn set_name(&mut self, name: String) {
        self.name = Some(name);
    }

    pub(crate) fn add_record_name(&mut self, code: u32, name: String) {
        self.record_names.push((code, name.into_boxed_str()));
    }
}
