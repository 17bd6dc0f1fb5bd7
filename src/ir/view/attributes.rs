//! Attribute sets as LLVM N's `AttributeSet` holds them (`Attributes.cpp`): what
//! `BitcodeReader::parseAttributeGroupBlock` builds with an `AttrBuilder` from each group
//! (later attributes of a kind replacing earlier ones, a zero `align`, `alignstack`,
//! `dereferenceable`, `dereferenceable_or_null`, `vscale_range`, `uwtable` or `nofpclass`
//! dropped), the groups of a list at one index merged in list order
//! (`AttributeList::get`), LLVM's upgrades of the version applied
//! ([`crate::ir::upgrade::upgraded_attributes`]), and the result sorted as an
//! `AttributeSet` is: enum, type, integer and range kinds in the order of the version's
//! `Attribute::AttrKind` enumerators ([`super::attribute_order`]), then strings by key.
//!
//! A writer other than LLVM's writes groups in its own order, and may repeat a kind;
//! `llvm-dis` prints the set LLVM built, so the view is what is printed.

use alloc::vec::Vec;

use crate::ids::llvm_ir::raw as ids;
use crate::ir::module::attributes::{AttrIndex, AttrKind, Attribute, AttributeGroup};
use crate::ir::upgrade::{ParamUpgrade, upgraded_attributes};

/// The row of [`super::attribute_order::ORDER`] for LLVM `llvm_version`: the newest
/// tabled version not newer than it (the oldest for one older than every table).
fn order_row(llvm_version: u32) -> &'static [u8] {
    use super::attribute_order::{ORDER, VERSIONS};
    let i = VERSIONS.iter().rposition(|&v| v <= llvm_version).unwrap_or(0);
    &ORDER[i]
}

/// Where an attribute sorts in an LLVM `AttributeSet` of the version whose order row is
/// `order`: its kind's enumerator (a kind the version does not have after every kind it
/// has, by number), strings after every kind, by key then value; unknown encodings last.
fn sort_key<'x>(order: &[u8], a: &'x Attribute) -> (u8, u64, &'x str, &'x str) {
    match a {
        Attribute::String { key, value } => (1, 0, key.as_str(), value.as_deref().unwrap_or("")),
        Attribute::Unknown { .. } => (2, 0, "", ""),
        _ => {
            let kind = a.kind().map_or(u64::MAX, |k| k.0);
            let place = usize::try_from(kind).ok().and_then(|k| order.get(k)).copied().unwrap_or(0);
            let place = if place == 0 { 256u64.saturating_add(kind) } else { u64::from(place) };
            (0, place, "", "")
        }
    }
}

/// Whether two attributes are of one kind (one string key): an `AttrBuilder` holds one
/// attribute of each.
fn same_key(a: &Attribute, b: &Attribute) -> bool {
    match (a, b) {
        (Attribute::String { key: x, .. }, Attribute::String { key: y, .. }) => x == y,
        (Attribute::Unknown { .. }, _) | (_, Attribute::Unknown { .. }) => false,
        _ => a.kind().is_some() && a.kind() == b.kind(),
    }
}

/// Whether `AttrBuilder` adds nothing for this attribute: the integer attributes whose
/// zero means "none" (`addAlignmentAttr(MaybeAlign(0))`, `addDereferenceableAttr(0)`, …).
fn adds_nothing(a: &Attribute) -> bool {
    const FP_CLASS_ALL: u64 = 0x3ff;
    match *a {
        Attribute::Int(AttrKind(k), v) => match u32::try_from(k) {
            Ok(
                ids::ATTR_KIND_ALIGNMENT
                | ids::ATTR_KIND_STACK_ALIGNMENT
                | ids::ATTR_KIND_DEREFERENCEABLE
                | ids::ATTR_KIND_DEREFERENCEABLE_OR_NULL
                | ids::ATTR_KIND_VSCALE_RANGE
                | ids::ATTR_KIND_UW_TABLE,
            ) => v == 0,
            Ok(ids::ATTR_KIND_NOFPCLASS) => v & FP_CLASS_ALL == 0,
            _ => false,
        },
        _ => false,
    }
}

/// `AttrBuilder::addAttribute` of each of `attributes` into `set`: a kind already there
/// is replaced, one that adds nothing is left out.
fn add_all(set: &mut Vec<Attribute>, attributes: impl IntoIterator<Item = Attribute>) {
    for a in attributes {
        if adds_nothing(&a) {
            continue;
        }
        match set.iter_mut().find(|b| same_key(b, &a)) {
            Some(slot) => *slot = a,
            None => set.push(a),
        }
    }
}

/// Sorts a set as LLVM `llvm_version`'s `AttributeSet` is sorted.
pub(crate) fn sort(llvm_version: u32, set: &mut [Attribute]) {
    let order = order_row(llvm_version);
    // Stable: unknown encodings keep the file's order among themselves.
    set.sort_by(|a, b| sort_key(order, a).cmp(&sort_key(order, b)));
}

/// The attribute set at `index` of `groups` (the groups of one attribute list, in list
/// order) as LLVM `llvm_version` reads it: each group upgraded as it is parsed, the
/// groups merged, the parameter's own upgrades (`param`) applied, and sorted. Empty when
/// no group is at `index` and no upgrade adds one.
pub(crate) fn read_set<'g>(
    llvm_version: u32,
    groups: impl IntoIterator<Item = &'g AttributeGroup>,
    index: AttrIndex,
    param: ParamUpgrade,
) -> Vec<Attribute> {
    let mut set = Vec::new();
    for g in groups.into_iter().filter(|g| g.index == index) {
        match upgraded_attributes(llvm_version, index, &g.attributes, ParamUpgrade::default()) {
            Some(upgraded) => add_all(&mut set, upgraded),
            None => add_all(&mut set, g.attributes.iter().cloned()),
        }
    }
    if param != ParamUpgrade::default() {
        if let Some(upgraded) = upgraded_attributes(llvm_version, index, &set, param) {
            set = Vec::new();
            add_all(&mut set, upgraded);
        }
    }
    sort(llvm_version, &mut set);
    set
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    fn group(index: AttrIndex, attributes: Vec<Attribute>) -> AttributeGroup {
        AttributeGroup { id: 1, index, attributes, bit: 0 }
    }

    fn kind(name: &str) -> AttrKind {
        AttrKind::from_name(name).unwrap()
    }

    /// What `llvm-dis-22` prints for Zig's `ptr align 8 noalias sret(%T) writeonly
    /// dead_on_unwind captures(none)`: `ptr dead_on_unwind noalias writeonly sret(%T)
    /// align 8 captures(none)` (enum kinds by enumerator name, then type, then integer).
    #[test]
    fn sets_sort_as_llvm_22_sorts_them() {
        let written = vec![
            Attribute::Int(kind("align"), 8),
            Attribute::Enum(kind("noalias")),
            Attribute::Type(kind("sret"), Some(crate::ir::TypeId(3))),
            Attribute::Enum(kind("writeonly")),
            Attribute::Enum(kind("dead_on_unwind")),
            Attribute::Int(kind("captures"), 0),
        ];
        let set = read_set(22, [&group(AttrIndex::Param(0), written)], AttrIndex::Param(0), ParamUpgrade::default());
        let names: Vec<&str> = set.iter().map(|a| a.kind().and_then(|k| k.name()).unwrap()).collect();
        assert_eq!(names, ["dead_on_unwind", "noalias", "writeonly", "sret", "align", "captures"]);
    }

    /// `AttrBuilder`: a kind written twice is the later one; a zero alignment is none;
    /// two groups at one index merge, strings by key.
    #[test]
    fn repeated_kinds_merge_and_zero_alignments_go() {
        let s = |k: &str, v: &str| Attribute::String { key: k.into(), value: Some(v.into()) };
        let first = group(
            AttrIndex::Function,
            vec![s("b", "1"), Attribute::Int(kind("alignstack"), 16), Attribute::Enum(kind("nounwind"))],
        );
        let second = group(
            AttrIndex::Function,
            vec![s("a", "2"), s("b", "3"), Attribute::Int(kind("alignstack"), 0), Attribute::Enum(kind("cold"))],
        );
        let set = read_set(22, [&first, &second], AttrIndex::Function, ParamUpgrade::default());
        assert_eq!(
            set,
            [
                Attribute::Enum(kind("cold")),
                Attribute::Enum(kind("nounwind")),
                Attribute::Int(kind("alignstack"), 16),
                s("a", "2"),
                s("b", "3"),
            ]
        );
        let zero = group(AttrIndex::Param(0), vec![Attribute::Int(kind("align"), 0), Attribute::Enum(kind("nonnull"))]);
        let set = read_set(22, [&zero], AttrIndex::Param(0), ParamUpgrade::default());
        assert_eq!(set, [Attribute::Enum(kind("nonnull"))]);
        // Another index: nothing.
        assert!(read_set(22, [&zero], AttrIndex::Return, ParamUpgrade::default()).is_empty());
    }

    /// `uwtable` is an enum kind in LLVM 14 (among the enum kinds) and an integer kind
    /// from 15 (after them): `uwtable nounwind`, as a writer might put it, is
    /// `nounwind uwtable` in both, for different reasons.
    #[test]
    fn the_order_is_the_reading_versions() {
        let g = group(AttrIndex::Function, vec![Attribute::Enum(kind("uwtable")), Attribute::Enum(kind("cold"))]);
        let set = read_set(14, [&g], AttrIndex::Function, ParamUpgrade::default());
        assert_eq!(set, [Attribute::Enum(kind("cold")), Attribute::Enum(kind("uwtable"))]);
        let set = read_set(22, [&g], AttrIndex::Function, ParamUpgrade::default());
        assert_eq!(set, [Attribute::Enum(kind("cold")), Attribute::Int(kind("uwtable"), 2)]);
    }
}
