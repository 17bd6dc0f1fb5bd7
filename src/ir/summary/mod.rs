//! The module's ThinLTO summary (GLOBALVAL_SUMMARY_BLOCK, or FULL_LTO_GLOBALVAL_SUMMARY_BLOCK),
//! read: per value id its function, variable or alias summaries, the GUIDs of values the
//! module does not define, type ids' vtables. Printed by `print/summary.rs`; values are
//! named by GUID ([`guid`]).
//!
//! Per-module records (what a compiler writes: function, variable and alias summaries,
//! their references and calls, type tests, value GUIDs) and a combined index's (what a
//! ThinLTO link writes: the same summaries of several modules, each naming its module in
//! the MODULE_STRTAB_BLOCK, every value by GUID); records of other codes (memory profiles,
//! parameter accesses, virtual-call lists, type id summaries) are counted and named in a
//! comment line, not printed.

pub(crate) mod guid;

use alloc::vec::Vec;

use crate::error::Error;
use crate::ids::llvm_ir::raw as ids;
use crate::ir::module::Module;
use crate::ir::module::walk::{each_child_block, each_record};

/// What a summary is of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A function: its instruction count, function flags, and its calls (pairs of callee
    /// value id and the raw edge information) in [`Summary::pool`].
    Function { insts: u64, fflags: u64, calls: (u32, u32), edges: Edges, type_tests: (u32, u32) },
    /// A variable: its flags.
    Variable { var_flags: u64, vtable_funcs: (u32, u32) },
    /// An alias of a value id.
    Alias { aliasee: u64 },
}

/// What the second number of a call edge holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Edges {
    /// Nothing: the callee alone.
    Plain,
    /// Hotness (3 bits) and a tail-call bit (FS_PERMODULE_PROFILE).
    Profile,
    /// A relative block frequency (29 bits) and a tail-call bit (FS_PERMODULE_RELBF).
    RelBf,
    /// Version 1: a call-site count, and a profile count with a profile.
    Old { profile: bool },
}

/// One summary record.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    pub(crate) value_id: u64,
    /// The module it is of: a combined index's module id (an MST_CODE_ENTRY's), 0 in a
    /// module's own summary.
    pub(crate) module: u64,
    pub(crate) flags: u64,
    pub(crate) kind: Kind,
    /// The referenced value ids, in [`Summary::pool`]; the last `read_only + write_only`
    /// are the read-only then the write-only ones.
    pub(crate) refs: (u32, u32),
    pub(crate) read_only: u32,
    pub(crate) write_only: u32,
}

/// A module's summary, read.
#[derive(Clone, Debug, Default)]
pub(crate) struct Summary {
    pub(crate) version: u64,
    pub(crate) flags: u64,
    pub(crate) block_count: u64,
    pub(crate) entries: Vec<Entry>,
    pool: Vec<u64>,
    /// FS_VALUE_GUID: value ids the module does not define, by GUID.
    pub(crate) value_guids: Vec<(u64, u64)>,
    /// FS_TYPE_ID_METADATA: a type id's name (a STRTAB range) and its (offset, value id)
    /// pairs in [`Summary::pool`].
    pub(crate) vtables: Vec<((u64, u64), (u32, u32))>,
    /// Records of codes not printed, by code.
    pub(crate) skipped: Vec<u32>,
    /// A combined index (its summaries are FS_COMBINED* records).
    pub(crate) combined: bool,
    /// The MODULE_STRTAB_BLOCK of a combined index: each module's id, path and hash.
    pub(crate) modules: Vec<ModulePath>,
    /// A combined record in the per-module layout, reused by each.
    scratch: Vec<u64>,
}

/// A module of a combined index (MST_CODE_ENTRY, then its MST_CODE_HASH).
#[derive(Clone, Debug, Default)]
pub(crate) struct ModulePath {
    pub(crate) id: u64,
    pub(crate) path: Vec<u8>,
    pub(crate) hash: [u32; 5],
}

impl Summary {
    /// Reads the summary block of `module`, `None` if it has none.
    pub(crate) fn read(module: &Module<'_>) -> Result<Option<Summary>, Error> {
        let mut summary: Option<Summary> = None;
        let mut modules: Vec<ModulePath> = Vec::new();
        each_child_block(&module.block, |id, reader| {
            if id.0 == ids::MODULE_STRTAB_BLOCK_ID {
                each_record(reader, |r| {
                    match r.code() {
                        ids::MST_CODE_ENTRY => {
                            let mut ops = r.operands();
                            let id = ops.next().unwrap_or(0);
                            // The path's characters, one per operand (as `convertToString`).
                            let path = ops.map(|c| c as u8).collect();
                            modules.push(ModulePath { id, path, hash: [0; 5] });
                        }
                        ids::MST_CODE_HASH => {
                            if let Some(last) = modules.last_mut() {
                                for (h, v) in last.hash.iter_mut().zip(r.operands()) {
                                    *h = v as u32;
                                }
                            }
                        }
                        _ => {}
                    }
                    Ok(())
                })?;
                return Ok(true);
            }
            // A combined index of before LLVM 5 names its values' GUIDs in a value symbol
            // table after the summary (VST_CODE_COMBINED_ENTRY), not in FS_VALUE_GUID records.
            if id.0 == ids::VALUE_SYMTAB_BLOCK_ID {
                let Some(s) = summary.as_mut().filter(|s| s.combined) else { return Ok(false) };
                each_record(reader, |r| {
                    if r.code() == ids::VST_CODE_COMBINED_ENTRY {
                        let mut ops = r.operands();
                        if let (Some(value_id), Some(guid)) = (ops.next(), ops.next()) {
                            s.value_guids.push((value_id, guid));
                        }
                    }
                    Ok(())
                })?;
                return Ok(true);
            }
            if id.0 != ids::GLOBALVAL_SUMMARY_BLOCK_ID && id.0 != ids::FULL_LTO_GLOBALVAL_SUMMARY_BLOCK_ID {
                return Ok(false);
            }
            let mut s = Summary::default();
            let mut ops: Vec<u64> = Vec::new();
            let mut pending_tests: Vec<u64> = Vec::new();
            each_record(reader, |r| {
                ops.clear();
                ops.extend(r.operands());
                s.record(r.code(), &ops, &mut pending_tests);
                Ok(())
            })?;
            summary = Some(s);
            Ok(true)
        })?;
        if let Some(s) = &mut summary {
            s.modules = modules;
        }
        Ok(summary)
    }

    fn push(&mut self, values: &[u64]) -> (u32, u32) {
        let start = self.pool.len() as u32;
        self.pool.extend_from_slice(values);
        (start, values.len() as u32)
    }

    pub(crate) fn slice(&self, (start, len): (u32, u32)) -> &[u64] {
        self.pool.get(start as usize..start as usize + len as usize).unwrap_or(&[])
    }

    /// One record, as `ModuleSummaryIndexBitcodeReader::parseEntireSummary` reads it; a
    /// record too short for its layout is skipped like one of an unknown code.
    fn record(&mut self, code: u32, ops: &[u64], pending_tests: &mut Vec<u64>) {
        if self.record_known(code, ops, pending_tests).is_none() {
            self.skipped.push(code);
        }
    }

    /// `None` for a record not printed: of another code, or too short.
    fn record_known(&mut self, code: u32, ops: &[u64], pending_tests: &mut Vec<u64>) -> Option<()> {
        let get = |i: usize| ops.get(i).copied();
        match code {
            ids::FS_VERSION => self.version = get(0)?,
            ids::FS_FLAGS => self.flags = get(0)?,
            ids::FS_BLOCK_COUNT => self.block_count = get(0)?,
            ids::FS_VALUE_GUID => {
                let guid = if self.version >= 11 { (get(1)? << 32) | get(2)? } else { get(1)? };
                self.value_guids.push((get(0)?, guid));
            }
            ids::FS_TYPE_TESTS => pending_tests.extend_from_slice(ops),
            ids::FS_TYPE_ID_METADATA => {
                let [offset, size, pairs @ ..] = ops else { return None };
                let pairs = self.push(pairs);
                self.vtables.push(((*offset, *size), pairs));
            }
            ids::FS_PERMODULE | ids::FS_PERMODULE_PROFILE | ids::FS_PERMODULE_RELBF => {
                self.function(code, ops, pending_tests)?
            }
            ids::FS_PERMODULE_GLOBALVAR_INIT_REFS | ids::FS_PERMODULE_VTABLE_GLOBALVAR_INIT_REFS => {
                self.variable(code, ops)?
            }
            ids::FS_ALIAS => self.entries.push(Entry {
                value_id: get(0)?,
                module: 0,
                flags: get(1)?,
                kind: Kind::Alias { aliasee: get(2)? },
                refs: (0, 0),
                read_only: 0,
                write_only: 0,
            }),
            // The combined records: the per-module layouts with the module id second.
            ids::FS_COMBINED
            | ids::FS_COMBINED_PROFILE
            | ids::FS_COMBINED_GLOBALVAR_INIT_REFS
            | ids::FS_COMBINED_ALIAS => {
                let [value_id, module, rest @ ..] = ops else { return None };
                // The per-module layout in a buffer kept across records: the module id out,
                // and a function's entry count (after its flags, version 6 on), which a
                // module's record has not.
                let mut per_module = core::mem::take(&mut self.scratch);
                per_module.clear();
                per_module.push(*value_id);
                per_module.extend_from_slice(rest);
                let function = matches!(code, ids::FS_COMBINED | ids::FS_COMBINED_PROFILE);
                if function && self.version >= 6 && per_module.len() > 4 {
                    per_module.remove(4);
                }
                let as_module = match code {
                    ids::FS_COMBINED => ids::FS_PERMODULE,
                    ids::FS_COMBINED_PROFILE => ids::FS_PERMODULE_PROFILE,
                    ids::FS_COMBINED_GLOBALVAR_INIT_REFS => ids::FS_PERMODULE_GLOBALVAR_INIT_REFS,
                    _ => ids::FS_ALIAS,
                };
                let before = self.entries.len();
                let known = self.record_known(as_module, &per_module, pending_tests);
                self.scratch = per_module;
                known?;
                self.combined = true;
                if let Some(e) = self.entries.get_mut(before) {
                    e.module = *module;
                }
            }
            // The original (pre-promotion) name's GUID of the summary before: not printed.
            ids::FS_COMBINED_ORIGINAL_NAME => {}
            _ => return None,
        }
        Some(())
    }

    fn function(&mut self, code: u32, ops: &[u64], pending_tests: &mut Vec<u64>) -> Option<()> {
        let v = self.version;
        let (value_id, flags, insts) = (*ops.first()?, *ops.get(1)?, *ops.get(2)?);
        let (fflags, refs_count, ro, wo, refs_at) = if v >= 4 {
            let (ro, wo, at): (u64, u64, usize) = match v {
                ..=4 => (0, 0, 5),
                5 | 6 => (*ops.get(5)?, 0, 6),
                _ => (*ops.get(5)?, *ops.get(6)?, 7),
            };
            (*ops.get(3)?, *ops.get(4)?, ro, wo, at)
        } else {
            (0, *ops.get(3)?, 0, 0, 4)
        };
        let refs_end = refs_at.checked_add(usize::try_from(refs_count).ok()?)?;
        let refs = ops.get(refs_at..refs_end)?;
        let calls = ops.get(refs_end..)?;
        let edges = match code {
            _ if v == 1 => Edges::Old { profile: code == ids::FS_PERMODULE_PROFILE },
            ids::FS_PERMODULE_PROFILE => Edges::Profile,
            ids::FS_PERMODULE_RELBF => Edges::RelBf,
            _ => Edges::Plain,
        };
        let ro = u32::try_from(ro).ok()?;
        let wo = u32::try_from(wo).ok()?;
        if u64::from(ro) + u64::from(wo) > refs_count {
            return None;
        }
        let refs = self.push(refs);
        let calls = self.push(calls);
        let type_tests = self.push(pending_tests);
        pending_tests.clear();
        self.entries.push(Entry {
            value_id,
            module: 0,
            flags,
            kind: Kind::Function { insts, fflags, calls, edges, type_tests },
            refs,
            read_only: ro,
            write_only: wo,
        });
        Some(())
    }

    fn variable(&mut self, code: u32, ops: &[u64]) -> Option<()> {
        let (value_id, flags) = (*ops.first()?, *ops.get(1)?);
        let (var_flags, rest) = if self.version >= 5 { (*ops.get(2)?, ops.get(3..)?) } else { (0, ops.get(2..)?) };
        let (refs, vtable) = if code == ids::FS_PERMODULE_VTABLE_GLOBALVAR_INIT_REFS {
            let n = usize::try_from(*rest.first()?).ok()?;
            let refs = rest.get(1..n.checked_add(1)?)?;
            (refs, rest.get(n + 1..)?)
        } else {
            (rest, &[][..])
        };
        let refs = self.push(refs);
        let vtable_funcs = self.push(vtable);
        self.entries.push(Entry {
            value_id,
            module: 0,
            flags,
            kind: Kind::Variable { var_flags, vtable_funcs },
            refs,
            read_only: 0,
            write_only: 0,
        });
        Some(())
    }
}
