//! What the view takes from the module's metadata: the facts LLVM's reader looks at
//! before it reads the bodies (`UpgradeDebugInfo`, the old expression layouts).

use alloc::vec::Vec;

use crate::ids::llvm_ir::raw as ids;
use crate::ir::body::Bodies;

/// The metadata facts the bodies are read with, found on first use.
#[derive(Debug, Default)]
pub(crate) struct MetadataFacts {
    /// Whether LLVM's reader strips the module's debug info
    /// ([`crate::ir::upgrade::strips_debug_info`]).
    pub(crate) strips_debug_info: bool,
    /// The attachment kinds (the file's ids) stripping drops: `dbg`, `heapallocsite`,
    /// `DIAssignID`.
    pub(crate) stripped_kinds: Vec<u64>,
    /// Whether the module has an expression of an old layout, for which LLVM's reader
    /// upgrades `llvm.dbg.declare` expressions ([`crate::ir::upgrade::upgrades_declares`]).
    pub(crate) upgrades_declares: bool,
    /// The module flags the reading version upgrades ([`upgraded_flags`]).
    pub(crate) upgraded_flags: Vec<UpgradedFlag>,
    /// Each attachment kind of the file (its id) with the kind id LLVM's context gives it
    /// ([`kind_ids`]), sorted by the file's id.
    pub(crate) kind_ids: Vec<(u64, u64)>,
}

/// The fixed metadata kinds of LLVM's context, by kind id (`FixedMetadataKinds.def` of
/// LLVM 22; each version appended to the list of the one before).
const FIXED_KINDS: [&[u8]; 47] = [
    b"dbg",
    b"tbaa",
    b"prof",
    b"fpmath",
    b"range",
    b"tbaa.struct",
    b"invariant.load",
    b"alias.scope",
    b"noalias",
    b"nontemporal",
    b"llvm.mem.parallel_loop_access",
    b"nonnull",
    b"dereferenceable",
    b"dereferenceable_or_null",
    b"make.implicit",
    b"unpredictable",
    b"invariant.group",
    b"align",
    b"llvm.loop",
    b"type",
    b"section_prefix",
    b"absolute_symbol",
    b"associated",
    b"callees",
    b"irr_loop",
    b"llvm.access.group",
    b"callback",
    b"llvm.preserve.access.index",
    b"vcall_visibility",
    b"noundef",
    b"annotation",
    b"nosanitize",
    b"func_sanitize",
    b"exclude",
    b"memprof",
    b"callsite",
    b"kcfi_type",
    b"pcsections",
    b"DIAssignID",
    b"coro.outside.frame",
    b"mmra",
    b"noalias.addrspace",
    b"callee_type",
    b"nofree",
    b"captures",
    b"alloc_token",
    b"implicit.ref",
];

/// The kind id LLVM's context gives each of the file's attachment kinds, as
/// `parseMetadataKinds` maps them (`getMDKindID` of the name): a fixed kind's own id, any
/// other name the next id after the fixed ones in the order the file names them. An
/// instruction's attachments print in this order (`getAllMetadata` sorts by kind id);
/// LLVM's own writer numbers kinds so, but LLVM 3.2 did not (`nontemporal` before
/// `invariant.load`). A name fixed only in a later version than the reading one counts
/// as fixed here too.
fn kind_ids(b: &Bodies<'_, '_>) -> Vec<(u64, u64)> {
    let module = b.module_metadata();
    let mut next = FIXED_KINDS.len() as u64;
    let mut out: Vec<(u64, u64)> = Vec::with_capacity(module.kinds.len());
    for &(id, name) in &module.kinds {
        let name = module.owned_bytes(name);
        let context_id = match FIXED_KINDS.iter().position(|&k| k == name) {
            Some(fixed) => fixed as u64,
            None => {
                next += 1;
                next - 1
            }
        };
        out.push((id, context_id));
    }
    out.sort_unstable();
    out
}

/// An `!llvm.module.flags` entry `!{i32 behavior, !"key", value}` whose behaviour or key
/// LLVM's `UpgradeModuleFlags` changes
/// ([`module_flag_behavior`](crate::ir::upgrade::module_flag_behavior),
/// [`renamed_module_flag`](crate::ir::upgrade::renamed_module_flag)). It sets the named
/// node's operand to `MDNode::get` of the new operands: a new node; the file's node keeps
/// its behaviour for any other user.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UpgradedFlag {
    /// The file's node (a module metadata id).
    pub id: u64,
    /// The behaviour's type (`i32`).
    pub ty: crate::ir::TypeId,
    /// The behaviour as the version reads it.
    pub behavior: u64,
    /// The key as the version reads it, where it renames the flag.
    pub renamed: Option<&'static str>,
}

impl MetadataFacts {
    pub(crate) fn new(b: &Bodies<'_, '_>, llvm_version: u32) -> Self {
        let module = b.module_metadata();
        let strips_debug_info = crate::ir::upgrade::strips_debug_info(debug_info_version(b));
        let mut stripped_kinds: Vec<u64> = Vec::new();
        if strips_debug_info {
            stripped_kinds = module
                .kinds
                .iter()
                .filter(|(_, name)| matches!(module.owned_bytes(*name), b"dbg" | b"heapallocsite" | b"DIAssignID"))
                .map(|&(id, _)| id)
                .collect();
            // A module without the kinds' records still has `dbg` as 0.
            if stripped_kinds.is_empty() {
                stripped_kinds.push(0);
            }
        }
        let upgrades_declares = module.entries.iter().any(|e| {
            e.code == ids::METADATA_EXPRESSION
                && module.ops(e.ops).first().is_some_and(|v| crate::ir::upgrade::upgrades_declares(v >> 1))
        });
        let upgraded_flags = upgraded_flags(b, llvm_version);
        MetadataFacts { strips_debug_info, stripped_kinds, upgrades_declares, upgraded_flags, kind_ids: kind_ids(b) }
    }
}

/// The entries of `!llvm.module.flags` whose behaviour LLVM `llvm_version` upgrades.
fn upgraded_flags(b: &Bodies<'_, '_>, llvm_version: u32) -> Vec<UpgradedFlag> {
    let module = b.module_metadata();
    let input = b.input();
    let mut out: Vec<UpgradedFlag> = Vec::new();
    for id in module_flag_ids(b) {
        let Some(e) = module.entry(id).filter(|e| e.code == ids::METADATA_NODE) else { continue };
        let &[behavior, name, _] = module.ops(e.ops) else { continue };
        let Some(name) = name.checked_sub(1).and_then(|k| module.string(input, k)) else { continue };
        let Some((ty, value)) = value_operand(b, behavior) else { continue };
        let Some(crate::ir::ConstantKind::Int(written)) = b.constants().get(value).map(|c| &c.kind) else { continue };
        let Ok(written) = u64::try_from(*written) else { continue };
        let upgraded = crate::ir::upgrade::module_flag_behavior(llvm_version, name, written);
        let renamed = crate::ir::upgrade::renamed_module_flag(llvm_version, name);
        if (upgraded != written || renamed.is_some()) && !out.iter().any(|f| f.id == id) {
            out.push(UpgradedFlag { id, ty: crate::ir::TypeId(ty as u32), behavior: upgraded, renamed });
        }
    }
    out
}

/// The module's `Debug Info Version` module flag (`getDebugMetadataVersionFromModule`):
/// its integer value, or `None` without one. Flags are tuples `!{i32 behavior, !"key",
/// value}`, or the (type, value) pairs of the tuples before LLVM 3.6.
pub(crate) fn debug_info_version(b: &Bodies<'_, '_>) -> Option<u64> {
    let module = b.module_metadata();
    let input = b.input();
    let int_value = |value_id: u64| match b.constants().get(value_id).map(|c| &c.kind) {
        Some(crate::ir::ConstantKind::Int(v)) => Some(*v as u64 & 0xffff_ffff),
        Some(crate::ir::ConstantKind::Null) => Some(0),
        _ => None,
    };
    for flag in module_flag_ids(b) {
        let Some(e) = module.entry(flag) else { continue };
        let ops = module.ops(e.ops);
        let (key, value) = match e.code {
            ids::METADATA_NODE => {
                let key = ops.get(1).and_then(|k| k.checked_sub(1)).and_then(|k| module.string(input, k));
                (key, ops.get(2).and_then(|&v| value_operand(b, v)).and_then(|(_, value)| int_value(value)))
            }
            ids::METADATA_OLD_NODE => {
                // [type, value] × 3; the key is metadata (a string's id).
                let key = ops.get(3).and_then(|&k| module.string(input, k));
                (key, ops.get(5).and_then(|&v| int_value(v)))
            }
            _ => continue,
        };
        if key == Some(&b"Debug Info Version"[..]) {
            return value;
        }
    }
    None
}

/// The ids of the entries of `!llvm.module.flags`, in its order.
fn module_flag_ids<'t>(b: &'t Bodies<'_, '_>) -> impl Iterator<Item = u64> + 't {
    b.module_metadata()
        .named_nodes()
        .filter(|(name, _)| *name == b"llvm.module.flags")
        .flat_map(|(_, ops)| ops.iter().copied())
}

/// A tuple operand (a module metadata id + 1) that is a value (`METADATA_VALUE`): its
/// (type, value id).
fn value_operand(b: &Bodies<'_, '_>, plus_one: u64) -> Option<(u64, u64)> {
    let module = b.module_metadata();
    let e = module.entry(plus_one.checked_sub(1)?)?;
    match (e.code, module.ops(e.ops)) {
        (ids::METADATA_VALUE, &[ty, value, ..]) => Some((ty, value)),
        _ => None,
    }
}
