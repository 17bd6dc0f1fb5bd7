//! Attributes LLVM's reader rewrites as it reads an attribute group
//! (`BitcodeReader::parseAttributeGroupBlock`): from LLVM 16 the old memory kinds of a
//! function (`readnone`, `readonly`, `writeonly`, `argmemonly`, `inaccessiblememonly`,
//! `inaccessiblemem_or_argmemonly`) become one `memory(...)`; from LLVM 15 `uwtable`, an
//! enum attribute before, is `uwtable(async)`; from LLVM 21 `nocapture` becomes
//! `captures(none)`. And as it reads a function or a call of a typed-pointer module
//! (`parseFunctionRecord`, `propagateAttributeTypes`): a `byval`, `sret` or `inalloca`
//! written without its type (files before LLVM 12) takes the parameter's pointee type.

use alloc::vec::Vec;

use crate::ir::TypeId;
use crate::ir::module::attributes::{AttrIndex, AttrKind, Attribute};

const READ_NONE: u64 = 20;
const READ_ONLY: u64 = 21;
const WRITE_ONLY: u64 = 52;
const ARG_MEM_ONLY: u64 = 45;
const INACCESSIBLE_MEM_ONLY: u64 = 49;
const INACCESSIBLE_MEM_OR_ARG_MEM_ONLY: u64 = 50;
const NO_CAPTURE: u64 = 11;
const MEMORY: u64 = 86;
const CAPTURES: u64 = 102;
const UW_TABLE: u64 = 33;
const BY_VAL: u64 = 3;
const STRUCT_RET: u64 = 29;
const IN_ALLOCA: u64 = 38;
const ELEMENT_TYPE: u64 = 77;
const NO_BUILTIN: u64 = 10;
const ALIGN: u64 = 1;
const NULL_POINTER_IS_VALID: u64 = 67;
/// The string attributes LLVM's reader rewrites (`UpgradeAttributes`, every version this
/// crate prints for): the two old frame-pointer ones become one `"frame-pointer"`
/// (`"all"`, `"non-leaf"` or `"none"`), `"null-pointer-is-valid"="true"` the enum kind.
const OLD_STRING_KEYS: [&str; 3] = ["no-frame-pointer-elim", "no-frame-pointer-elim-non-leaf", "null-pointer-is-valid"];
const STRICT_FP: u64 = 54;

/// What LLVM's reader looks at of a parameter, beyond its attributes, as it upgrades them
/// (`propagateAttributeTypes`): the pointee type of its typed pointer type (which an
/// untyped `byval`, `sret` or `inalloca` takes), and whether it is an indirect operand of
/// an inline-asm call (`*m`), which gets `elementtype(<pointee>)` from LLVM 14.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ParamUpgrade {
    /// The pointee type of the parameter's (or the call argument's) typed pointer type.
    pub pointee: Option<TypeId>,
    /// An indirect operand of an inline-asm call.
    pub indirect_asm_operand: bool,
    /// The `align` an upgraded call sets on the parameter
    /// ([`crate::ir::upgrade::ArgumentUpgrade::AlignmentToAttributes`],
    /// [`crate::ir::upgrade::ArgumentUpgrade::MaskedAlignment`]).
    pub alignment: Option<u64>,
}
/// `uwtable(async)`, what an enum `uwtable` means from LLVM 15.
const UW_TABLE_ASYNC: u64 = 2;

/// The memory effects an old kind stands for, as LLVM 16's `MemoryEffects` encodes them:
/// two bits (1 read, 2 write) for each of argument, inaccessible and other memory.
fn old_memory_effects(kind: u64) -> Option<u64> {
    Some(match kind {
        READ_NONE => 0,
        READ_ONLY => 0b01_01_01,
        WRITE_ONLY => 0b10_10_10,
        ARG_MEM_ONLY => 0b00_00_11,
        INACCESSIBLE_MEM_ONLY => 0b00_11_00,
        INACCESSIBLE_MEM_OR_ARG_MEM_ONLY => 0b00_11_11,
        _ => return None,
    })
}

/// Whether `a` is a `byval`, `sret` or `inalloca` without its type, which LLVM's reader
/// gives the parameter's pointee type.
fn lacks_type(a: &Attribute) -> bool {
    matches!(
        a,
        Attribute::Enum(AttrKind(BY_VAL | STRUCT_RET | IN_ALLOCA))
            | Attribute::Type(AttrKind(BY_VAL | STRUCT_RET | IN_ALLOCA), None)
    )
}

/// The attributes at `index` of a group as LLVM `llvm_version` reads them, if it rewrites
/// any (see the module's documentation); `None` if they stay as written. `param` is what
/// the reader knows of a parameter of a typed-pointer module ([`ParamUpgrade`]).
pub fn upgraded_attributes(
    llvm_version: u32,
    index: AttrIndex,
    attributes: &[Attribute],
    param: ParamUpgrade,
) -> Option<Vec<Attribute>> {
    let pointee = param.pointee;
    let element_type = llvm_version >= 14
        && param.indirect_asm_operand
        && pointee.is_some()
        && !attributes.iter().any(|a| matches!(a, Attribute::Type(AttrKind(ELEMENT_TYPE), _)));
    // Asked of every group printed: nothing is built unless something changes.
    let rewritten = |a: &Attribute| match *a {
        Attribute::Enum(AttrKind(k)) => {
            (llvm_version >= 16 && index == AttrIndex::Function && old_memory_effects(k).is_some())
                || (k == UW_TABLE && llvm_version >= 15)
                || (k == NO_CAPTURE && llvm_version >= 21)
                || (pointee.is_some() && lacks_type(a))
        }
        Attribute::Type(_, None) => pointee.is_some() && lacks_type(a),
        Attribute::String { ref key, .. } => OLD_STRING_KEYS.contains(&key.as_str()),
        _ => false,
    };
    if !element_type && param.alignment.is_none() && !attributes.iter().any(rewritten) {
        return None;
    }
    let mut memory: Option<u64> = None;
    let mut captures_none = false;
    let mut uw_table = false;
    let mut frame_pointer: Option<&str> = None;
    let mut null_pointer_is_valid = false;
    let mut changed = false;
    let mut out: Vec<Attribute> = Vec::with_capacity(attributes.len());
    let mut typed: Vec<Attribute> = Vec::new();
    if element_type {
        typed.push(Attribute::Type(AttrKind(ELEMENT_TYPE), pointee));
        changed = true;
    }
    for a in attributes {
        match *a {
            Attribute::Enum(kind) | Attribute::Type(kind, None) if lacks_type(a) && pointee.is_some() => {
                typed.push(Attribute::Type(kind, pointee));
                changed = true;
            }
            Attribute::Enum(AttrKind(k))
                if llvm_version >= 16 && index == AttrIndex::Function && old_memory_effects(k).is_some() =>
            {
                // `ME &= …`, from "anything" (every bit set).
                memory = Some(memory.unwrap_or(0b11_11_11) & old_memory_effects(k).unwrap_or(0));
                changed = true;
            }
            Attribute::Enum(AttrKind(UW_TABLE)) if llvm_version >= 15 => {
                uw_table = true;
                changed = true;
            }
            Attribute::Enum(AttrKind(NO_CAPTURE)) if llvm_version >= 21 => {
                captures_none = true;
                changed = true;
            }
            Attribute::String { ref key, ref value } if OLD_STRING_KEYS.contains(&key.as_str()) => {
                let value = value.as_deref().unwrap_or("");
                match key.as_str() {
                    // "true" or "false"; it wins over the non-leaf one.
                    "no-frame-pointer-elim" => frame_pointer = Some(if value == "true" { "all" } else { "none" }),
                    // Its value is ignored.
                    "no-frame-pointer-elim-non-leaf" if frame_pointer != Some("all") => {
                        frame_pointer = Some("non-leaf");
                    }
                    "null-pointer-is-valid" => null_pointer_is_valid = value == "true",
                    _ => {}
                }
                changed = true;
            }
            _ => out.push(a.clone()),
        }
    }
    if let Some(value) = frame_pointer {
        // Where the string attributes' order (by key) puts it; `B.addAttribute` replaces
        // one the group already had.
        out.retain(|a| !matches!(a, Attribute::String { key, .. } if key == "frame-pointer"));
        let at = out
            .iter()
            .position(|a| matches!(a, Attribute::String { key, .. } if key.as_str() > "frame-pointer"))
            .unwrap_or(out.len());
        out.insert(at, Attribute::String { key: "frame-pointer".into(), value: Some(value.into()) });
    }
    if null_pointer_is_valid && !out.contains(&Attribute::Enum(AttrKind(NULL_POINTER_IS_VALID))) {
        insert_sorted(&mut out, Attribute::Enum(AttrKind(NULL_POINTER_IS_VALID)));
    }
    if let Some(align) = param.alignment {
        // `setDestAlignment`: the old `align` goes, the new one is where it sorts.
        out.retain(|a| !matches!(a, Attribute::Int(AttrKind(ALIGN), _)));
        insert_sorted(&mut out, Attribute::Int(AttrKind(ALIGN), align));
        changed = true;
    }
    for t in typed {
        insert_sorted(&mut out, t);
    }
    if uw_table {
        insert_sorted(&mut out, Attribute::Int(AttrKind(UW_TABLE), UW_TABLE_ASYNC));
    }
    if let Some(effects) = memory.map(|m| memory_in_version(m, llvm_version)) {
        // A group that also has `memory(...)` keeps the intersection.
        match out.iter_mut().find(|a| matches!(a, Attribute::Int(AttrKind(MEMORY), _))) {
            Some(Attribute::Int(_, existing)) if *existing >> 56 == effects >> 56 => *existing &= effects,
            Some(_) => {}
            None => insert_sorted(&mut out, Attribute::Int(AttrKind(MEMORY), effects)),
        }
    }
    if captures_none {
        insert_sorted(&mut out, Attribute::Int(AttrKind(CAPTURES), 0));
    }
    changed.then_some(out)
}

/// Memory effects of the three locations of LLVM 16 (argument, inaccessible, other) in
/// the encoding of the version that reads them: from LLVM 21, version 1 of the encoding,
/// with errno and the two target memories as other memory (what `MemoryEffects::readOnly()`
/// and the others are there).
fn memory_in_version(effects: u64, llvm_version: u32) -> u64 {
    if llvm_version < 21 {
        return effects;
    }
    let (arg, inaccessible, other) = (effects & 3, (effects >> 2) & 3, (effects >> 4) & 3);
    let locations = [arg, inaccessible, other, other, other, other];
    let bits = locations.iter().enumerate().fold(0, |acc, (i, &a)| acc | (a << (2 * i)));
    (1 << 56) | bits
}

/// A call's function attributes as LLVM's reader leaves them when the calling function
/// is a definition without `strictfp` (`UpgradeFunctionAttributes`'
/// `StrictFPUpgradeVisitor`, every version this crate prints for): a `strictfp` on the call
/// becomes `nobuiltin`, unless the callee is a constrained floating-point intrinsic
/// (`llvm.experimental.constrained.*`). `None` if the call has no `strictfp`.
pub fn strictfp_call_attributes(callee_name: &[u8], attributes: &[Attribute]) -> Option<Vec<Attribute>> {
    if callee_name.starts_with(b"llvm.experimental.constrained.") || !has_strictfp(attributes) {
        return None;
    }
    let mut out: Vec<Attribute> =
        attributes.iter().filter(|a| **a != Attribute::Enum(AttrKind(STRICT_FP))).cloned().collect();
    if !out.contains(&Attribute::Enum(AttrKind(NO_BUILTIN))) {
        insert_sorted(&mut out, Attribute::Enum(AttrKind(NO_BUILTIN)));
    }
    Some(out)
}

/// Whether function attributes `attributes` have `strictfp`.
pub fn has_strictfp(attributes: &[Attribute]) -> bool {
    attributes.contains(&Attribute::Enum(AttrKind(STRICT_FP)))
}

/// Inserts a type or integer attribute where LLVM's sorted order puts it: LLVM's
/// `AttrKind` lists enum, then type, then integer kinds, each group by the name of its
/// enumerator.
fn insert_sorted(out: &mut Vec<Attribute>, attribute: Attribute) {
    let rank = |a: &Attribute| match a {
        Attribute::Enum(_) => 0,
        Attribute::Type(..) => 1,
        Attribute::Int(..) => 2,
        _ => 3,
    };
    let key = |a: &Attribute| a.kind().and_then(|k| k.name()).map(enumerator_order_name);
    let Some(new) = key(&attribute) else { return out.push(attribute) };
    let new_rank = rank(&attribute);
    let at = out
        .iter()
        .position(|a| rank(a) > new_rank || (rank(a) == new_rank && key(a).is_some_and(|k| k > new)))
        .unwrap_or(out.len());
    out.insert(at, attribute);
}

/// A kind's spelling as its enumerator in LLVM's `Attribute::AttrKind` sorts (lowercase):
/// where the two differ in order.
fn enumerator_order_name(spelling: &str) -> &str {
    match spelling {
        "align" => "alignment",
        "alignstack" => "stackalignment",
        other => other,
    }
}

/// Whether `a` is an attribute a value of type `ty` cannot have, which LLVM's reader
/// removes from a function definition's return value and parameters as it materializes
/// the body (`UpgradeFunctionAttributes`, `AttributeFuncs::typeIncompatible`): `zeroext`
/// and `signext` but on integers, the pointer attributes but on pointers, `align` but on
/// pointers and vectors of pointers, `range` but on integers and their vectors,
/// `nofpclass` but on floating-point values, `noundef` on `void`. LLVM 3.3 wrote
/// `align 4` on an `i8` parameter.
pub fn type_incompatible<'t>(types: &'t crate::ir::TypeTable, ty: TypeId, a: &Attribute) -> bool {
    use crate::ids::llvm_ir::raw as ids;
    use crate::ir::Type;
    let Some(AttrKind(kind)) = a.kind() else { return false };
    let Ok(kind) = u32::try_from(kind) else { return false };
    let t = types.get(ty);
    let element = |t: Option<&'t Type>| -> Option<&'t Type> {
        match t {
            Some(Type::Vector { element, .. }) => types.get(*element),
            other => other,
        }
    };
    let is_int = matches!(t, Some(Type::Integer(_)));
    let is_int_or_vector = matches!(element(t), Some(Type::Integer(_)));
    let is_ptr = matches!(t, Some(Type::Pointer { .. }));
    let is_ptr_or_vector = matches!(element(t), Some(Type::Pointer { .. }));
    match kind {
        ids::ATTR_KIND_Z_EXT | ids::ATTR_KIND_S_EXT | ids::ATTR_KIND_ALLOC_ALIGN => !is_int,
        ids::ATTR_KIND_RANGE => !is_int_or_vector,
        ids::ATTR_KIND_NO_ALIAS
        | ids::ATTR_KIND_NO_CAPTURE
        | ids::ATTR_KIND_NON_NULL
        | ids::ATTR_KIND_READ_NONE
        | ids::ATTR_KIND_READ_ONLY
        | ids::ATTR_KIND_DEREFERENCEABLE
        | ids::ATTR_KIND_DEREFERENCEABLE_OR_NULL
        | ids::ATTR_KIND_WRITABLE
        | ids::ATTR_KIND_DEAD_ON_UNWIND
        | ids::ATTR_KIND_INITIALIZES
        | ids::ATTR_KIND_NEST
        | ids::ATTR_KIND_SWIFT_ERROR
        | ids::ATTR_KIND_PREALLOCATED
        | ids::ATTR_KIND_IN_ALLOCA
        | ids::ATTR_KIND_BY_VAL
        | ids::ATTR_KIND_STRUCT_RET
        | ids::ATTR_KIND_BYREF
        | ids::ATTR_KIND_ELEMENTTYPE
        | ids::ATTR_KIND_ALLOCATED_POINTER => !is_ptr,
        ids::ATTR_KIND_ALIGNMENT => !is_ptr_or_vector,
        ids::ATTR_KIND_NOFPCLASS => {
            // `isNoFPClassCompatibleType`: arrays looked through (bounded by the table).
            let mut id = ty;
            for _ in 0..types.types.len() {
                match types.get(id) {
                    Some(Type::Array { element, .. }) => id = *element,
                    _ => break,
                }
            }
            !types.is_fp_or_fp_vector(id)
        }
        ids::ATTR_KIND_NOUNDEF => matches!(t, Some(Type::Void)),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn k(n: u64) -> AttrKind {
        AttrKind(n)
    }

    /// `setDestAlignment` of an old memcpy's alignment argument: the old `align` goes, the
    /// new one sorts after the enum kinds (llvm-dis 13-22 on `standardCIntrinsic.3.2`).
    #[test]
    fn an_upgraded_call_sets_the_alignment() {
        let param = ParamUpgrade { alignment: Some(16), ..ParamUpgrade::default() };
        let written = [Attribute::Int(k(ALIGN), 4), Attribute::Enum(k(9))]; // align 4, noalias
        let read = upgraded_attributes(14, AttrIndex::Param(0), &written, param).unwrap();
        assert_eq!(read, [Attribute::Enum(k(9)), Attribute::Int(k(ALIGN), 16)]);
        assert_eq!(upgraded_attributes(14, AttrIndex::Param(0), &[], param).unwrap(), [Attribute::Int(k(ALIGN), 16)]);
    }

    #[test]
    fn a_strictfp_call_becomes_nobuiltin_in_place_of_the_kind_order() {
        let written = [Attribute::Enum(k(18)), Attribute::Enum(k(STRICT_FP))]; // nounwind strictfp
        let read = strictfp_call_attributes(b"f", &written).unwrap();
        assert_eq!(read, [Attribute::Enum(k(NO_BUILTIN)), Attribute::Enum(k(18))]);
        // Already `nobuiltin`: the kind once.
        let both = [Attribute::Enum(k(NO_BUILTIN)), Attribute::Enum(k(STRICT_FP))];
        assert_eq!(strictfp_call_attributes(b"f", &both).unwrap(), [Attribute::Enum(k(NO_BUILTIN))]);
        assert_eq!(strictfp_call_attributes(b"llvm.experimental.constrained.fadd.f32", &written), None);
        assert_eq!(strictfp_call_attributes(b"f", &written[..1]), None);
    }

    #[test]
    fn old_memory_kinds_become_memory_from_llvm_16() {
        let written = [
            Attribute::Enum(k(18)), // nounwind
            Attribute::Enum(k(READ_ONLY)),
            Attribute::Enum(k(ARG_MEM_ONLY)),
            Attribute::Enum(k(UW_TABLE)),
        ];
        assert_eq!(
            upgraded_attributes(15, AttrIndex::Function, &written, ParamUpgrade::default()).unwrap(),
            [
                Attribute::Enum(k(18)),
                Attribute::Enum(k(READ_ONLY)),
                Attribute::Enum(k(ARG_MEM_ONLY)),
                Attribute::Int(k(UW_TABLE), 2)
            ]
        );
        assert_eq!(upgraded_attributes(14, AttrIndex::Function, &written, ParamUpgrade::default()), None);
        assert_eq!(
            upgraded_attributes(16, AttrIndex::Function, &written, ParamUpgrade::default()).unwrap(),
            [Attribute::Enum(k(18)), Attribute::Int(k(MEMORY), 0b00_00_01), Attribute::Int(k(UW_TABLE), 2)]
        );
        // On a parameter, `readonly` stays.
        assert_eq!(upgraded_attributes(22, AttrIndex::Param(0), &written[1..2], ParamUpgrade::default()), None);
    }

    #[test]
    fn nocapture_becomes_captures_none_from_llvm_21() {
        let written = [Attribute::Enum(k(NO_CAPTURE)), Attribute::Enum(k(68)), Attribute::Enum(k(READ_ONLY))];
        assert_eq!(upgraded_attributes(19, AttrIndex::Param(0), &written, ParamUpgrade::default()), None);
        assert_eq!(
            upgraded_attributes(22, AttrIndex::Param(0), &written, ParamUpgrade::default()).unwrap(),
            [Attribute::Enum(k(68)), Attribute::Enum(k(READ_ONLY)), Attribute::Int(k(CAPTURES), 0)]
        );
    }

    #[test]
    fn byval_sret_inalloca_without_type_take_the_pointee() {
        let pointee = Some(TypeId(7));
        let typed_param = ParamUpgrade { pointee, ..ParamUpgrade::default() };
        let upgrade =
            |version, written: &[Attribute], param| upgraded_attributes(version, AttrIndex::Param(0), written, param);
        // noalias, byval (untyped), align 8: byval({ i8 }) among the type attributes.
        let written = [Attribute::Enum(k(9)), Attribute::Enum(k(BY_VAL)), Attribute::Int(k(1), 8)];
        assert_eq!(
            upgrade(14, &written, typed_param).unwrap(),
            [Attribute::Enum(k(9)), Attribute::Type(k(BY_VAL), pointee), Attribute::Int(k(1), 8)]
        );
        // Without a pointee (an opaque-pointer module) nothing changes.
        assert_eq!(upgrade(14, &written, ParamUpgrade::default()), None);
        // A typed one stays; an untyped type attribute takes the pointee.
        assert_eq!(upgrade(22, &[Attribute::Type(k(STRUCT_RET), Some(TypeId(3)))], typed_param), None);
        assert_eq!(
            upgrade(22, &[Attribute::Type(k(IN_ALLOCA), None)], typed_param).unwrap(),
            [Attribute::Type(k(IN_ALLOCA), pointee)]
        );
        // An indirect inline-asm operand gets elementtype from LLVM 14, once.
        let asm = ParamUpgrade { pointee, indirect_asm_operand: true, ..ParamUpgrade::default() };
        assert_eq!(upgrade(14, &[], asm).unwrap(), [Attribute::Type(k(ELEMENT_TYPE), pointee)]);
        assert_eq!(upgrade(13, &[], asm), None);
        assert_eq!(upgrade(19, &[Attribute::Type(k(ELEMENT_TYPE), pointee)], asm), None);
    }
}
