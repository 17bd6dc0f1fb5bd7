//! The module's ThinLTO summary (GLOBALVAL_SUMMARY_BLOCK, or FULL_LTO_GLOBALVAL_SUMMARY_BLOCK)
//! as `llvm-dis` prints it after the module: `^0 = module: (…)`, one `^N = gv: (…)` per
//! global value in GUID order, then `flags` and `blockcount` (AsmWriter's
//! `printModuleSummaryIndex`). Values are named by their GUID, the low 64 bits of the MD5
//! of the value's global identifier (the name, after the source file's name for a local
//! one), as `GlobalValue::getGUID` computes it.
//!
//! Per-module records only (what a compiler writes: function, variable and alias
//! summaries, their references and calls, type tests, value GUIDs); records of other codes
//! (the combined index's, memory profiles, parameter accesses, virtual-call lists) are
//! counted and named in a comment line, not printed.

use alloc::vec::Vec;
use core::fmt::{self, Write};

use crate::error::Error;
use crate::ids::llvm_ir::raw as ids;
use crate::ir::module::walk::{each_child_block, each_record};
use crate::ir::module::{GlobalRef, Module};

/// What a summary is of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
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
enum Edges {
    /// Nothing: the callee alone.
    Plain,
    /// Hotness (3 bits) and a tail-call bit (FS_PERMODULE_PROFILE).
    Profile,
    /// A relative block frequency (29 bits) and a tail-call bit (FS_PERMODULE_RELBF).
    RelBf,
    /// Version 1: a call-site count, and a profile count with a profile.
    Old { profile: bool },
}

/// One per-module summary record.
#[derive(Clone, Copy, Debug)]
struct Entry {
    value_id: u64,
    flags: u64,
    kind: Kind,
    /// The referenced value ids, in [`Summary::pool`]; the last `read_only + write_only`
    /// are the read-only then the write-only ones.
    refs: (u32, u32),
    read_only: u32,
    write_only: u32,
}

/// A module's summary, read.
#[derive(Clone, Debug, Default)]
pub(crate) struct Summary {
    version: u64,
    flags: u64,
    block_count: u64,
    entries: Vec<Entry>,
    pool: Vec<u64>,
    /// FS_VALUE_GUID: value ids the module does not define, by GUID.
    value_guids: Vec<(u64, u64)>,
    /// FS_TYPE_ID_METADATA: a type id's name (a STRTAB range) and its (offset, value id)
    /// pairs in [`Summary::pool`].
    vtables: Vec<((u64, u64), (u32, u32))>,
    /// Records of codes not printed, by code.
    skipped: Vec<u32>,
}

impl Summary {
    /// Reads the summary block of `module`, `None` if it has none.
    pub(crate) fn read(module: &Module<'_>) -> Result<Option<Summary>, Error> {
        let mut summary = None;
        each_child_block(&module.block, |id, reader| {
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
        Ok(summary)
    }

    fn push(&mut self, values: &[u64]) -> (u32, u32) {
        let start = self.pool.len() as u32;
        self.pool.extend_from_slice(values);
        (start, values.len() as u32)
    }

    fn slice(&self, (start, len): (u32, u32)) -> &[u64] {
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
                flags: get(1)?,
                kind: Kind::Alias { aliasee: get(2)? },
                refs: (0, 0),
                read_only: 0,
                write_only: 0,
            }),
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
            flags,
            kind: Kind::Variable { var_flags, vtable_funcs },
            refs,
            read_only: 0,
            write_only: 0,
        });
        Some(())
    }
}

/// A global value of the index: its GUID, its name (none for one known by GUID only) and
/// its value id.
struct Gv<'m> {
    guid: u64,
    name: Option<&'m [u8]>,
    value_id: u64,
}

/// Prints `summary` of `module` as `llvm-dis` `llvm_version` prints it, `module_id`
/// being the module's path.
pub(crate) fn write(
    f: &mut dyn Write,
    module: &Module<'_>,
    summary: &Summary,
    module_id: &str,
    llvm_version: u32,
) -> fmt::Result {
    // Every global value of the module is in the index, named, and so is every GUID the
    // summary names, in GUID order.
    let source = module.source_filename.as_deref().unwrap_or("");
    let mut gvs: Vec<Gv<'_>> = Vec::with_capacity(module.values.len() + summary.value_guids.len());
    // Not ifuncs: the summary reader names functions, variables and aliases only.
    for (id, r) in module.values.iter().enumerate() {
        if let GlobalRef::Alias(i) = *r {
            if module.aliases.get(i).is_some_and(|a| a.is_ifunc) {
                continue;
            }
        }
        let Some(g) = module.global(id as u64) else { continue };
        let guid = guid_of(&g.name, g.linkage.is_local(), source, llvm_version);
        gvs.push(Gv { guid, name: Some(&g.name), value_id: id as u64 });
    }
    for &(value_id, guid) in &summary.value_guids {
        gvs.push(Gv { guid, name: None, value_id });
    }
    // Each value id's GUID, kept before values of one GUID become one entry (one
    // `ValueInfo` in LLVM): a value's slot is its GUID's.
    let mut guid_of_value: Vec<(u64, u64)> = gvs.iter().map(|g| (g.value_id, g.guid)).collect();
    guid_of_value.sort_unstable();
    gvs.sort_by_key(|g| g.guid);
    gvs.dedup_by_key(|g| g.guid);
    let slot = |value_id: u64| -> Option<usize> {
        let i = guid_of_value.binary_search_by_key(&value_id, |p| p.0).ok()?;
        let guid = guid_of_value[i].1;
        gvs.binary_search_by_key(&guid, |g| g.guid).ok().map(|i| i + 1)
    };
    // The summaries by value id, in record order within one value.
    let mut by_value: Vec<&Entry> = summary.entries.iter().collect();
    by_value.sort_by_key(|e| e.value_id);
    let write_slot = |f: &mut dyn Write, value_id: u64| match slot(value_id) {
        Some(s) => write!(f, "^{s}"),
        None => f.write_str("null"),
    };

    f.write_str("\n^0 = module: (path: \"")?;
    crate::ir::print::escape::write_escaped(f, module_id.as_bytes())?;
    f.write_str("\", hash: (")?;
    let hash = module.hash.as_deref().unwrap_or(&[]);
    for i in 0..5 {
        if i > 0 {
            f.write_str(", ")?;
        }
        write!(f, "{}", hash.get(i).map_or(0, |&h| h as u32))?;
    }
    f.write_str("))\n")?;

    for (i, g) in gvs.iter().enumerate() {
        write!(f, "^{} = gv: (", i + 1)?;
        match g.name {
            Some(name) => {
                f.write_str("name: \"")?;
                for &c in name {
                    f.write_char(char::from(c))?;
                }
                f.write_char('"')?;
            }
            None => write!(f, "guid: {}", g.guid)?,
        }
        let first = by_value.partition_point(|e| e.value_id < g.value_id);
        let entries = &by_value[first..first + by_value[first..].partition_point(|e| e.value_id == g.value_id)];
        if !entries.is_empty() {
            f.write_str(", summaries: (")?;
            for (k, e) in entries.iter().enumerate() {
                if k > 0 {
                    f.write_str(", ")?;
                }
                write_entry(f, summary, e, &write_slot, llvm_version)?;
            }
            f.write_char(')')?;
        }
        f.write_char(')')?;
        if g.name.is_some() {
            write!(f, " ; guid = {}", g.guid)?;
        }
        f.write_char('\n')?;
    }
    let mut next = gvs.len() + 1;
    // typeidCompatibleVTable: by name (several records of one name are one entry).
    let strtab = if summary.vtables.is_empty() { &[][..] } else { strtab_of(module) };
    let mut vtables: Vec<(&[u8], Vec<u64>)> = Vec::new();
    for &((offset, size), pairs) in &summary.vtables {
        let name = usize::try_from(offset)
            .ok()
            .zip(usize::try_from(size).ok())
            .and_then(|(o, n)| strtab.get(o..o.checked_add(n)?))
            .unwrap_or(b"");
        let pairs = summary.slice(pairs);
        match vtables.iter_mut().find(|v| v.0 == name) {
            Some(v) => v.1.extend_from_slice(pairs),
            None => vtables.push((name, pairs.to_vec())),
        }
    }
    vtables.sort_by(|a, b| a.0.cmp(b.0));
    for (name, pairs) in &vtables {
        write!(f, "^{next} = typeidCompatibleVTable: (name: \"")?;
        for &c in *name {
            f.write_char(char::from(c))?;
        }
        f.write_str("\", summary: (")?;
        for (i, p) in pairs.chunks_exact(2).enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "(offset: {}, ", p[0])?;
            write_slot(f, p[1])?;
            f.write_char(')')?;
        }
        writeln!(f, ")) ; guid = {}", guid_of(name, false, "", llvm_version))?;
        next += 1;
    }
    if summary.flags != 0 {
        writeln!(f, "^{next} = flags: {}", summary.flags)?;
        next += 1;
    }
    writeln!(f, "^{next} = blockcount: {}", summary.block_count)?;
    if !summary.skipped.is_empty() {
        let mut codes = summary.skipped.clone();
        codes.sort_unstable();
        codes.dedup();
        write!(f, "; {} summary records not printed, of codes", summary.skipped.len())?;
        for c in codes {
            write!(f, " {c}")?;
        }
        f.write_char('\n')?;
    }
    Ok(())
}

/// One summary: `function: (module: ^0, flags: (…), insts: N, …)`.
fn write_entry(
    f: &mut dyn Write,
    s: &Summary,
    e: &Entry,
    slot: &dyn Fn(&mut dyn Write, u64) -> fmt::Result,
    llvm_version: u32,
) -> fmt::Result {
    let kind = match e.kind {
        Kind::Function { .. } => "function",
        Kind::Variable { .. } => "variable",
        Kind::Alias { .. } => "alias",
    };
    // getDecodedGVSummaryFlags: linkage (4 bits), then not-eligible, live, dso-local,
    // can-auto-hide; visibility at bits 8-9, import kind at bit 10.
    let raw = e.flags;
    let old = s.version < 3;
    write!(
        f,
        "{kind}: (module: ^0, flags: (linkage: {}, visibility: {}, notEligibleToImport: {}, live: {}, dsoLocal: {}, canAutoHide: {}",
        summary_linkage(raw & 0xf),
        ["default", "hidden", "protected", "default"][((raw >> 8) & 3) as usize],
        u8::from(raw & 0x10 != 0 || old),
        u8::from(raw & 0x20 != 0 || old),
        u8::from(raw & 0x40 != 0),
        u8::from(raw & 0x80 != 0),
    )?;
    if llvm_version >= 19 {
        f.write_str(if raw & 0x400 != 0 { ", importType: declaration" } else { ", importType: definition" })?;
    }
    f.write_char(')')?;
    match e.kind {
        Kind::Alias { aliasee } => {
            f.write_str(", aliasee: ")?;
            slot(f, aliasee)?;
        }
        Kind::Function { insts, fflags, calls, edges, type_tests } => {
            write!(f, ", insts: {insts}")?;
            if fflags & 0x3ff != 0 {
                const NAMES: [&str; 10] = [
                    "readNone",
                    "readOnly",
                    "noRecurse",
                    "returnDoesNotAlias",
                    "noInline",
                    "alwaysInline",
                    "noUnwind",
                    "mayThrow",
                    "hasUnknownCall",
                    "mustBeUnreachable",
                ];
                f.write_str(", funcFlags: (")?;
                for (i, name) in NAMES.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{name}: {}", (fflags >> i) & 1)?;
                }
                f.write_char(')')?;
            }
            let calls = s.slice(calls);
            let step = match edges {
                Edges::Plain => 1,
                Edges::Profile | Edges::RelBf | Edges::Old { profile: false } => 2,
                Edges::Old { profile: true } => 3,
            };
            if !calls.is_empty() {
                f.write_str(", calls: (")?;
                for (i, c) in calls.chunks(step).enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    f.write_str("(callee: ")?;
                    slot(f, c[0])?;
                    let info = c.get(1).copied().unwrap_or(0);
                    match edges {
                        Edges::Profile => {
                            const HOTNESS: [&str; 5] = ["unknown", "cold", "none", "hot", "critical"];
                            if info & 7 != 0 {
                                write!(f, ", hotness: {}", HOTNESS.get((info & 7) as usize).unwrap_or(&"unknown"))?;
                            }
                            if info & 8 != 0 {
                                f.write_str(", tail: 1")?;
                            }
                        }
                        Edges::RelBf => {
                            let relbf = info & ((1 << 29) - 1);
                            if relbf != 0 {
                                write!(f, ", relbf: {relbf}")?;
                            }
                            if info & (1 << 29) != 0 {
                                f.write_str(", tail: 1")?;
                            }
                        }
                        _ => {}
                    }
                    f.write_char(')')?;
                }
                f.write_char(')')?;
            }
            let tests = s.slice(type_tests);
            if !tests.is_empty() {
                f.write_str(", typeIdInfo: (typeTests: (")?;
                for (i, t) in tests.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{t}")?;
                }
                f.write_str("))")?;
            }
        }
        Kind::Variable { var_flags, vtable_funcs } => {
            let vtable = s.slice(vtable_funcs);
            write!(
                f,
                ", varFlags: (readonly: {}, writeonly: {}, constant: {}",
                var_flags & 1,
                (var_flags >> 1) & 1,
                (var_flags >> 2) & 1
            )?;
            if !vtable.is_empty() {
                write!(f, ", vcall_visibility: {}", var_flags >> 3)?;
            }
            f.write_char(')')?;
            if !vtable.is_empty() {
                f.write_str(", vTableFuncs: (")?;
                for (i, p) in vtable.chunks_exact(2).enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    f.write_str("(virtFunc: ")?;
                    slot(f, p[0])?;
                    write!(f, ", offset: {})", p[1])?;
                }
                f.write_char(')')?;
            }
        }
    }
    let refs = s.slice(e.refs);
    if !refs.is_empty() {
        let first_ro = refs.len() - (e.read_only + e.write_only) as usize;
        let first_wo = refs.len() - e.write_only as usize;
        f.write_str(", refs: (")?;
        for (i, &r) in refs.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            if (first_ro..first_wo).contains(&i) {
                f.write_str("readonly ")?;
            } else if i >= first_wo {
                f.write_str("writeonly ")?;
            }
            slot(f, r)?;
        }
        f.write_char(')')?;
    }
    f.write_char(')')
}

/// The module's STRTAB (empty if it has none).
fn strtab_of<'a>(module: &Module<'a>) -> &'a [u8] {
    let stream = module.block.stream();
    crate::ir::Inventory::of(&stream)
        .ok()
        .and_then(|inv| inv.modules.into_iter().find(|m| m.index == module.index).and_then(|m| m.strtab))
        .unwrap_or(&[])
}

/// The summary's linkage: LLVM's in-memory `GlobalValue::LinkageTypes`.
fn summary_linkage(v: u64) -> &'static str {
    match v {
        0 => "external",
        1 => "available_externally",
        2 => "linkonce",
        3 => "linkonce_odr",
        4 => "weak",
        5 => "weak_odr",
        6 => "appending",
        7 => "internal",
        8 => "private",
        9 => "extern_weak",
        10 => "common",
        _ => "<unknown linkage>",
    }
}

/// `GlobalValue::getGUID(getGlobalIdentifier(name, linkage, source file))`: the low 64
/// bits of the MD5 of the name (without a leading `\1`), after `file;` for a local value
/// (`file:` before LLVM 19).
fn guid_of(name: &[u8], local: bool, source: &str, llvm_version: u32) -> u64 {
    let name = name.strip_prefix(b"\x01").unwrap_or(name);
    let mut md5 = Md5::default();
    if local {
        md5.update(if source.is_empty() { b"<unknown>" } else { source.as_bytes() });
        md5.update(if llvm_version >= 19 { b";" } else { b":" });
    }
    md5.update(name);
    let digest = md5.finish();
    u64::from_le_bytes([digest[0], digest[1], digest[2], digest[3], digest[4], digest[5], digest[6], digest[7]])
}

/// MD5 (RFC 1321), for GUIDs.
struct Md5 {
    state: [u32; 4],
    buffer: [u8; 64],
    buffered: usize,
    length: u64,
}

impl Default for Md5 {
    fn default() -> Self {
        Md5 { state: [0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476], buffer: [0; 64], buffered: 0, length: 0 }
    }
}

impl Md5 {
    fn update(&mut self, mut data: &[u8]) {
        self.length = self.length.wrapping_add(data.len() as u64);
        while !data.is_empty() {
            let take = (64 - self.buffered).min(data.len());
            self.buffer[self.buffered..self.buffered + take].copy_from_slice(&data[..take]);
            self.buffered += take;
            data = &data[take..];
            if self.buffered == 64 {
                let block = self.buffer;
                self.block(&block);
                self.buffered = 0;
            }
        }
    }

    fn finish(mut self) -> [u8; 16] {
        let bits = self.length.wrapping_mul(8);
        self.update(&[0x80]);
        while self.buffered != 56 {
            self.update(&[0]);
        }
        self.update(&bits.to_le_bytes());
        let mut out = [0; 16];
        for (chunk, word) in out.chunks_exact_mut(4).zip(self.state) {
            chunk.copy_from_slice(&word.to_le_bytes());
        }
        out
    }

    fn block(&mut self, block: &[u8; 64]) {
        const S: [u32; 16] = [7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21];
        let mut m = [0u32; 16];
        for (w, c) in m.iter_mut().zip(block.chunks_exact(4)) {
            *w = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
        }
        let [mut a, mut b, mut c, mut d] = self.state;
        for i in 0..64 {
            let (f, g) = match i / 16 {
                0 => ((b & c) | (!b & d), i),
                1 => ((d & b) | (!d & c), (5 * i + 1) % 16),
                2 => (b ^ c ^ d, (3 * i + 5) % 16),
                _ => (c ^ (b | !d), (7 * i) % 16),
            };
            // K[i] = floor(abs(sin(i + 1)) * 2^32).
            let k = K[i];
            let rotated = a.wrapping_add(f).wrapping_add(k).wrapping_add(m[g]).rotate_left(S[(i / 16) * 4 + i % 4]);
            a = d;
            d = c;
            c = b;
            b = b.wrapping_add(rotated);
        }
        for (s, v) in self.state.iter_mut().zip([a, b, c, d]) {
            *s = s.wrapping_add(v);
        }
    }
}

const K: [u32; 64] = [
    0xd76a_a478,
    0xe8c7_b756,
    0x2420_70db,
    0xc1bd_ceee,
    0xf57c_0faf,
    0x4787_c62a,
    0xa830_4613,
    0xfd46_9501,
    0x6980_98d8,
    0x8b44_f7af,
    0xffff_5bb1,
    0x895c_d7be,
    0x6b90_1122,
    0xfd98_7193,
    0xa679_438e,
    0x49b4_0821,
    0xf61e_2562,
    0xc040_b340,
    0x265e_5a51,
    0xe9b6_c7aa,
    0xd62f_105d,
    0x0244_1453,
    0xd8a1_e681,
    0xe7d3_fbc8,
    0x21e1_cde6,
    0xc337_07d6,
    0xf4d5_0d87,
    0x455a_14ed,
    0xa9e3_e905,
    0xfcef_a3f8,
    0x676f_02d9,
    0x8d2a_4c8a,
    0xfffa_3942,
    0x8771_f681,
    0x6d9d_6122,
    0xfde5_380c,
    0xa4be_ea44,
    0x4bde_cfa9,
    0xf6bb_4b60,
    0xbebf_bc70,
    0x289b_7ec6,
    0xeaa1_27fa,
    0xd4ef_3085,
    0x0488_1d05,
    0xd9d4_d039,
    0xe6db_99e5,
    0x1fa2_7cf8,
    0xc4ac_5665,
    0xf429_2244,
    0x432a_ff97,
    0xab94_23a7,
    0xfc93_a039,
    0x655b_59c3,
    0x8f0c_cc92,
    0xffef_f47d,
    0x8584_5dd1,
    0x6fa8_7e4f,
    0xfe2c_e6e0,
    0xa301_4314,
    0x4e08_11a1,
    0xf753_7e82,
    0xbd3a_f235,
    0x2ad7_d2bb,
    0xeb86_d391,
];

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(d: [u8; 16]) -> alloc::string::String {
        d.iter().map(|b| alloc::format!("{b:02x}")).collect()
    }

    #[test]
    fn md5_matches_rfc_1321_test_suite() {
        for (input, digest) in [
            ("", "d41d8cd98f00b204e9800998ecf8427e"),
            ("a", "0cc175b9c0f1b6a831c399e269772661"),
            ("abc", "900150983cd24fb0d6963f7d28e17f72"),
            ("message digest", "f96b697d7cb7938d525a2f31aaf161d0"),
            ("abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"),
            (
                "12345678901234567890123456789012345678901234567890123456789012345678901234567890",
                "57edf4a22be3c955ac49da2e2107b67a",
            ),
        ] {
            let mut m = Md5::default();
            m.update(input.as_bytes());
            assert_eq!(hex(m.finish()), digest, "{input:?}");
        }
    }
}
