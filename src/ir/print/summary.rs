//! The module's ThinLTO summary as `llvm-dis` prints it after the module: `^0 = module:
//! (…)`, one `^N = gv: (…)` per global value in GUID order, then the type ids' vtables,
//! `flags` and `blockcount` (AsmWriter's `printModuleSummaryIndex`). Values are named by
//! their GUID ([`guid_of`]).

use alloc::vec::Vec;
use core::fmt::{self, Write};

use crate::ir::module::{GlobalRef, Module};
use crate::ir::print::escape::write_escaped;
use crate::ir::summary::guid::guid_of;
use crate::ir::summary::{Edges, Entry, Kind, Summary};

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
    // The slots: the modules' first, then the values'.
    let base = if summary.combined { summary.modules.len() } else { 1 };
    // A combined index has no module of its own: every value is known by GUID.
    let own_values = if summary.combined { &[][..] } else { &module.values[..] };
    for (id, r) in own_values.iter().enumerate() {
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
        gvs.binary_search_by_key(&guid, |g| g.guid).ok().map(|i| i + base)
    };
    // The summaries by value id, in record order within one value.
    let mut by_value: Vec<&Entry> = summary.entries.iter().collect();
    by_value.sort_by_key(|e| e.value_id);
    let write_slot = |f: &mut dyn Write, value_id: u64| match slot(value_id) {
        Some(s) => write!(f, "^{s}"),
        None => f.write_str("null"),
    };

    // The modules: this one, or a combined index's, in the slot tracker's order.
    let own_hash: Vec<u32> =
        (0..5).map(|i| module.hash.as_deref().and_then(|h| h.get(i)).map_or(0, |&h| h as u32)).collect();
    let mut modules: Vec<(&[u8], &[u32], u64)> = if summary.combined {
        summary.modules.iter().map(|m| (&m.path[..], &m.hash[..], m.id)).collect()
    } else {
        alloc::vec![(module_id.as_bytes(), &own_hash[..], 0)]
    };
    // LLVM 17 and later sort by path; before, by the file's module id (`ModuleIdToPathMap`).
    if llvm_version >= 17 {
        modules.sort_by(|a, b| a.0.cmp(b.0));
    } else {
        modules.sort_by_key(|m| m.2);
    }
    f.write_char('\n')?;
    for (slot, (path, hash, _)) in modules.iter().enumerate() {
        write!(f, "^{slot} = module: (path: \"")?;
        write_escaped(f, path)?;
        f.write_str("\", hash: (")?;
        for (i, h) in hash.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{h}")?;
        }
        f.write_str("))\n")?;
    }
    let module_slot = |id: u64| modules.iter().position(|m| m.2 == id).unwrap_or(0);

    for (i, g) in gvs.iter().enumerate() {
        write!(f, "^{} = gv: (", i + base)?;
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
                write_entry(f, summary, e, module_slot(e.module), &write_slot, llvm_version)?;
            }
            f.write_char(')')?;
        }
        f.write_char(')')?;
        if g.name.is_some() {
            write!(f, " ; guid = {}", g.guid)?;
        }
        f.write_char('\n')?;
    }
    let mut next = gvs.len() + base;
    // typeidCompatibleVTable: by name (several records of one name are one entry).
    let strtab = module.strtab;
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
    module_slot: usize,
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
        "{kind}: (module: ^{module_slot}, flags: (linkage: {}, visibility: {}, notEligibleToImport: {}, live: {}, dsoLocal: {}, canAutoHide: {}",
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
            // LLVM 13 knows the first six flags (14 added noUnwind to mustBeUnreachable).
            let known = if llvm_version >= 14 { 10 } else { 6 };
            if fflags & ((1 << known) - 1) != 0 {
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
                for (i, name) in NAMES.iter().take(known).enumerate() {
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
