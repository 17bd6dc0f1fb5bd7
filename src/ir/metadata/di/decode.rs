//! The decoder: a METADATA_BLOCK record into its debug-info node ([`decode`]), as LLVM's
//! `MetadataLoader.cpp` (`parseOneMetadata`) reads it, with every older layout the loader
//! still accepts.
//!
//! A decoder takes the raw operands and never fails on odd input: a record too short
//! for its layout gives `None`; operands past the known layout are ignored (the caller
//! keeps the raw record). Numbers LLVM narrows (a line into `unsigned`, a column into
//! 16 bits) are narrowed here the same way, so the text matches what LLVM prints.

use alloc::vec::Vec;

use super::nodes::{
    Apint, DiBasicType, DiCommonBlock, DiCompileUnit, DiCompositeType, DiDerivedType, DiEnumerator, DiFile,
    DiFixedPointType, DiGenericSubrange, DiGlobalVariable, DiGlobalVariableExpression, DiImportedEntity, DiLabel,
    DiLexicalBlock, DiLexicalBlockFile, DiLocalVariable, DiLocation, DiMacro, DiMacroFile, DiModule, DiNamespace,
    DiNode, DiObjCProperty, DiStringType, DiSubprogram, DiSubrange, DiSubrangeType, DiSubroutineType,
    DiTemplateTypeParameter, DiTemplateValueParameter, GenericDiNode, IntOrMd, MdRef,
};
use crate::ids::llvm_ir::raw as ids;
use crate::record::{decode_sign_rotated, unrotate_sign as unrotate};

/// The operands of one record, read the way `parseOneMetadata` reads them.
#[derive(Clone, Copy)]
struct Ops<'a>(&'a [u64]);

impl Ops<'_> {
    /// Operand `i`, `None` past the end (the record is too short for the layout).
    fn u(self, i: usize) -> Option<u64> {
        self.0.get(i).copied()
    }
    /// Operand `i` as LLVM's `unsigned` (truncated, as the C++ conversion does).
    fn u32(self, i: usize) -> Option<u32> {
        self.u(i).map(|v| v as u32)
    }
    /// Operand `i` as a `getMDOrNull` reference.
    fn md(self, i: usize) -> Option<MdRef> {
        self.u(i).map(MdRef::or_null)
    }
    /// Operand `i` if the record has it, else 0 (an optional trailing field).
    fn opt(self, i: usize) -> u64 {
        self.u(i).unwrap_or(0)
    }
    /// Operand `i` as a reference if the record has it, else null.
    fn opt_md(self, i: usize) -> MdRef {
        MdRef::or_null(self.opt(i))
    }
    /// How many operands.
    fn len(self) -> usize {
        self.0.len()
    }
    /// `getMetadataOrConstant`: a reference when the record says sizes are metadata.
    fn size(self, is_md: bool, i: usize) -> Option<IntOrMd> {
        let v = self.u(i)?;
        Some(if is_md { IntOrMd::Md(MdRef::or_null(v)) } else { IntOrMd::Unsigned(v) })
    }
}

/// `readWideAPInt(words, bits)` for widths up to 128: the value's low 128 bits, or `None`
/// for a wider one (no node kind here keeps more).
fn wide_int(words: &[u64], bits: u64) -> Option<Apint> {
    if bits > 128 {
        return None;
    }
    // `BitcodeReader::decodeSignRotatedValue`, per word.
    let lo = words.first().map_or(0, |&w| decode_sign_rotated(w) as u64);
    let hi = words.get(1).map_or(0, |&w| decode_sign_rotated(w) as u64);
    let mut v = (u128::from(hi) << 64) | u128::from(lo);
    if bits < 128 {
        v &= (1u128 << bits) - 1;
    }
    Some(Apint { bits: bits as u8, value: v })
}

/// Decodes a METADATA_BLOCK record into a debug-info node and whether it is distinct,
/// as `parseOneMetadata` reads it. `None` for a code that is not a debug-info node
/// (METADATA_EXPRESSION and METADATA_ARG_LIST included: they print inline elsewhere) and
/// for a record too short for its layout or of a version LLVM rejects.
pub(crate) fn decode(code: u32, ops: &[u64]) -> Option<(bool, DiNode)> {
    let o = Ops(ops);
    let first = o.u(0)?;
    // Most kinds: operand 0 is "distinct" itself (any non-zero value); the versioned
    // ones use bit 0.
    let distinct = first != 0;
    let bit0 = first & 1 != 0;
    let node = match code {
        ids::METADATA_LOCATION => {
            let column = o.u32(2)?;
            let long = o.len() >= 8;
            DiNode::Location(DiLocation {
                line: o.u32(1)?,
                column: u16::try_from(column).unwrap_or(0),
                scope: MdRef::raw(o.u(3)?),
                inlined_at: o.md(4)?,
                is_implicit_code: o.opt(5) != 0,
                atom_group: if long { o.opt(6) } else { 0 },
                atom_rank: if long { (o.opt(7) & 7) as u8 } else { 0 },
            })
        }
        ids::METADATA_GENERIC_DEBUG => {
            let tag = o.u(1)?;
            if tag >= 1 << 16 || o.u(2)? != 0 || ops.len() > 8 {
                return None;
            }
            let mut operands = [MdRef::NULL; 4];
            for (slot, &v) in operands.iter_mut().zip(ops.get(4..).unwrap_or(&[])) {
                *slot = MdRef::or_null(v);
            }
            DiNode::Generic(GenericDiNode {
                tag: tag as u32,
                header: o.md(3)?,
                operands,
                num_operands: ops.len().saturating_sub(4) as u8,
            })
        }
        ids::METADATA_SUBRANGE => {
            let (version, count, lower_bound, upper_bound, stride) = match first >> 1 {
                0 => (0, IntOrMd::Signed(o.u(1)? as i64), IntOrMd::Signed(unrotate(o.u(2)?)), MdRef::NULL, MdRef::NULL),
                1 => (1, IntOrMd::Md(o.md(1)?), IntOrMd::Signed(unrotate(o.u(2)?)), MdRef::NULL, MdRef::NULL),
                2 => (2, IntOrMd::Md(o.md(1)?), IntOrMd::Md(o.md(2)?), o.md(3)?, o.md(4)?),
                _ => return None,
            };
            return Some((bit0, DiNode::Subrange(DiSubrange { version, count, lower_bound, upper_bound, stride })));
        }
        ids::METADATA_GENERIC_SUBRANGE => {
            return Some((
                bit0,
                DiNode::GenericSubrange(DiGenericSubrange {
                    count: o.md(1)?,
                    lower_bound: o.md(2)?,
                    upper_bound: o.md(3)?,
                    stride: o.md(4)?,
                }),
            ));
        }
        ids::METADATA_ENUMERATOR => {
            let is_unsigned = first & 2 != 0;
            let name = o.md(2)?;
            let value = if first & 4 != 0 {
                wide_int(ops.get(3..).unwrap_or(&[]), o.u(1)?)?
            } else {
                Apint { bits: 64, value: u128::from(unrotate(o.u(1)?) as u64) }
            };
            return Some((bit0, DiNode::Enumerator(DiEnumerator { value, is_unsigned, name })));
        }
        ids::METADATA_BASIC_TYPE => {
            return Some((bit0, DiNode::BasicType(basic_type(o, first & 2 != 0)?)));
        }
        ids::METADATA_FIXED_POINT_TYPE => {
            let mut base = basic_type(Ops(ops.get(..6)?), first & 2 != 0)?;
            base.flags = o.u32(6)?;
            let mut at = 9;
            let mut wide = || {
                let enc = o.u(at)?;
                let words = (enc >> 32) as usize;
                let start = at + 1;
                at = start.checked_add(words)?;
                wide_int(ops.get(start..at)?, enc & 0xffff_ffff)
            };
            let numerator = wide()?;
            let denominator = wide()?;
            if o.len() >= at + 3 {
                base.file = o.opt_md(at);
                base.line = o.opt(at + 1) as u32;
                base.scope = o.opt_md(at + 2);
            }
            let fixed = DiFixedPointType { base, kind: o.u32(7)?, factor: o.u(8)? as i32, numerator, denominator };
            return Some((bit0, DiNode::FixedPointType(fixed)));
        }
        ids::METADATA_STRING_TYPE => {
            let short = o.len() == 8;
            let at = if short { 5 } else { 6 };
            return Some((
                bit0,
                DiNode::StringType(DiStringType {
                    tag: o.u32(1)?,
                    name: o.md(2)?,
                    string_length: o.md(3)?,
                    string_length_exp: o.md(4)?,
                    string_location_exp: if short { MdRef::NULL } else { o.md(5)? },
                    size: o.size(first & 2 != 0, at)?,
                    align: o.u32(at + 1)?,
                    encoding: o.u32(at + 2)?,
                }),
            ));
        }
        ids::METADATA_DERIVED_TYPE => {
            let md_sizes = first & 2 != 0;
            let space = o.opt(12);
            return Some((
                bit0,
                DiNode::DerivedType(DiDerivedType {
                    tag: o.u32(1)?,
                    name: o.md(2)?,
                    file: o.md(3)?,
                    line: o.u32(4)?,
                    scope: o.md(5)?,
                    base_type: o.md(6)?,
                    size: o.size(md_sizes, 7)?,
                    align: o.u32(8)?,
                    offset: o.size(md_sizes, 9)?,
                    flags: o.u32(10)?,
                    extra_data: o.md(11)?,
                    dwarf_address_space: (space != 0).then(|| space.wrapping_sub(1) as u32),
                    annotations: o.opt_md(13),
                    has_ptr_auth_slot: o.len() > 14,
                    ptr_auth_data: o.opt(14) as u32,
                }),
            ));
        }
        ids::METADATA_COMPOSITE_TYPE => {
            let md_sizes = first & 4 != 0;
            let kind = o.opt(24);
            let t = DiCompositeType {
                tag: o.u32(1)?,
                name: o.md(2)?,
                file: o.md(3)?,
                line: o.u32(4)?,
                scope: o.md(5)?,
                base_type: o.md(6)?,
                size: o.size(md_sizes, 7)?,
                // LLVM rejects an alignment past 32 bits.
                align: u32::try_from(o.u(8)?).ok()?,
                offset: o.size(md_sizes, 9)?,
                flags: o.u32(10)?,
                elements: o.md(11)?,
                runtime_lang: o.u32(12)?,
                vtable_holder: o.md(13)?,
                template_params: o.md(14)?,
                identifier: o.md(15)?,
                discriminator: o.opt_md(16),
                data_location: o.opt_md(17),
                // LLVM reads these two only as a pair.
                associated: if o.len() > 19 { o.opt_md(18) } else { MdRef::NULL },
                allocated: o.opt_md(19),
                rank: o.opt_md(20),
                annotations: o.opt_md(21),
                num_extra_inhabitants: o.opt(22) as u32,
                specification: o.opt_md(23),
                enum_kind: (o.len() > 24 && kind != u64::from(u32::MAX)).then_some(kind as u32),
                bit_stride: o.opt_md(25),
            };
            return Some((bit0, DiNode::CompositeType(t)));
        }
        ids::METADATA_SUBROUTINE_TYPE => {
            return Some((
                bit0,
                DiNode::SubroutineType(DiSubroutineType { flags: o.u32(1)?, types: o.md(2)?, cc: o.opt(3) as u32 }),
            ));
        }
        ids::METADATA_FILE => {
            let (kind, sum) = (o.opt(3), o.opt(4));
            DiNode::File(DiFile {
                filename: o.md(1)?,
                directory: o.md(2)?,
                checksum: (o.len() > 4 && kind != 0 && sum != 0).then(|| (kind as u32, MdRef::or_null(sum))),
                source: o.opt_md(5),
            })
        }
        ids::METADATA_COMPILE_UNIT => {
            if o.len() < 14 {
                return None;
            }
            let lang = o.u(1)?;
            let cu = DiCompileUnit {
                source_language: lang & !(1 << 63),
                versioned_language: lang >> 63 != 0,
                source_language_version: o.opt(22) as u32,
                file: o.md(2)?,
                producer: o.md(3)?,
                is_optimized: o.u(4)? != 0,
                flags: o.md(5)?,
                runtime_version: o.u32(6)?,
                split_debug_filename: o.md(7)?,
                emission_kind: o.u32(8)?,
                enums: o.md(9)?,
                retained_types: o.md(10)?,
                subprograms: o.md(11)?,
                globals: o.md(12)?,
                imports: o.md(COMPILE_UNIT_IMPORTS)?,
                dwo_id: o.opt(14),
                macros: o.opt_md(15),
                split_debug_inlining: o.u(16).is_none_or(|v| v != 0),
                debug_info_for_profiling: o.opt(17) != 0,
                name_table_kind: o.opt(18) as u32,
                ranges_base_address: o.opt(19) != 0,
                sysroot: o.opt_md(20),
                sdk: o.opt_md(21),
            };
            return Some((true, DiNode::CompileUnit(cu)));
        }
        ids::METADATA_SUBPROGRAM => return subprogram(o, first),
        ids::METADATA_LEXICAL_BLOCK => DiNode::LexicalBlock(DiLexicalBlock {
            scope: o.md(1)?,
            file: o.md(2)?,
            line: o.u32(3)?,
            column: o.u(4)? as u16,
        }),
        ids::METADATA_LEXICAL_BLOCK_FILE => {
            DiNode::LexicalBlockFile(DiLexicalBlockFile { scope: o.md(1)?, file: o.md(2)?, discriminator: o.u32(3)? })
        }
        ids::METADATA_COMMON_BLOCK => {
            let b = DiCommonBlock {
                scope: o.md(1)?,
                declaration: o.md(2)?,
                name: o.md(3)?,
                file: o.md(4)?,
                line: o.u32(5)?,
            };
            return Some((bit0, DiNode::CommonBlock(b)));
        }
        ids::METADATA_NAMESPACE => {
            // The 5-operand form (LLVM < 5) had file and line before the name.
            let name = match o.len() {
                3 | 4 => o.md(2)?,
                _ => o.md(3)?,
            };
            let ns = DiNamespace { scope: o.md(1)?, name, export_symbols: first & 2 != 0 };
            return Some((bit0, DiNode::Namespace(ns)));
        }
        ids::METADATA_MACRO => {
            DiNode::Macro(DiMacro { macinfo_type: o.u32(1)?, line: o.u32(2)?, name: o.md(3)?, value: o.md(4)? })
        }
        ids::METADATA_MACRO_FILE => DiNode::MacroFile(DiMacroFile {
            macinfo_type: o.u32(1)?,
            line: o.u32(2)?,
            file: o.md(3)?,
            elements: o.md(4)?,
        }),
        ids::METADATA_MODULE => {
            if o.len() < 5 {
                return None;
            }
            let at = if o.len() >= 8 { 2 } else { 1 };
            DiNode::Module(DiModule {
                file: if o.len() >= 8 { o.opt_md(1) } else { MdRef::NULL },
                scope: o.opt_md(at),
                name: o.opt_md(at + 1),
                config_macros: o.opt_md(at + 2),
                include_path: o.opt_md(at + 3),
                apinotes: o.opt_md(at + 4),
                line: if o.len() <= 7 { 0 } else { o.opt(7) as u32 },
                is_decl: o.len() > 8 && o.opt(8) != 0,
            })
        }
        ids::METADATA_TEMPLATE_TYPE => DiNode::TemplateTypeParameter(DiTemplateTypeParameter {
            name: o.md(1)?,
            type_: o.md(2)?,
            // LLVM passes `getMDOrNull(op3)` as the bool: non-null is true.
            is_default: o.opt(3) != 0,
        }),
        ids::METADATA_TEMPLATE_VALUE => {
            let six = o.len() >= 6;
            DiNode::TemplateValueParameter(DiTemplateValueParameter {
                tag: o.u32(1)?,
                name: o.md(2)?,
                type_: o.md(3)?,
                is_default: six && o.opt(4) != 0,
                value: if six { o.md(5)? } else { o.md(4)? },
            })
        }
        ids::METADATA_GLOBAL_VAR => {
            if o.len() < 11 {
                return None;
            }
            let version = first >> 1;
            if version > 2 {
                return None;
            }
            let v2 = version == 2;
            let g = DiGlobalVariable {
                version: version as u8,
                scope: o.md(1)?,
                name: o.md(2)?,
                linkage_name: o.md(3)?,
                file: o.md(4)?,
                line: o.u32(5)?,
                type_: o.md(6)?,
                is_local: o.u(7)? != 0,
                is_definition: o.u(8)? != 0,
                declaration: if v2 { o.md(9)? } else { o.md(10)? },
                template_params: if v2 { o.md(10)? } else { MdRef::NULL },
                align: o.opt(11) as u32,
                annotations: if v2 { o.opt_md(12) } else { MdRef::NULL },
            };
            return Some((bit0, DiNode::GlobalVariable(g)));
        }
        ids::METADATA_ASSIGN_ID => {
            // Always distinct; LLVM rejects one that is not.
            return bit0.then_some((true, DiNode::AssignId));
        }
        ids::METADATA_LOCAL_VAR => {
            if o.len() < 8 {
                return None;
            }
            let has_align = first & 2 != 0;
            // The old form had a DW_TAG_auto/arg_variable in operand 1.
            let t = usize::from(!has_align && o.len() > 8);
            let v = DiLocalVariable {
                scope: o.md(1 + t)?,
                name: o.md(2 + t)?,
                file: o.md(3 + t)?,
                line: o.u32(4 + t)?,
                type_: o.md(5 + t)?,
                arg: o.u(6 + t)? as u16,
                flags: o.u32(7 + t)?,
                align: if has_align { u32::try_from(o.u(8)?).ok()? } else { 0 },
                annotations: if has_align { o.opt_md(9) } else { MdRef::NULL },
            };
            return Some((bit0, DiNode::LocalVariable(v)));
        }
        ids::METADATA_LABEL => {
            let idx = o.u(6).filter(|&i| i != u64::MAX);
            let l = DiLabel {
                scope: o.md(1)?,
                name: o.md(2)?,
                file: o.md(3)?,
                line: o.u32(4)?,
                column: o.opt(5) as u32,
                is_artificial: first & 2 != 0,
                coro_suspend_idx: match idx {
                    Some(i) => Some(u32::try_from(i).ok()?),
                    None => None,
                },
            };
            return Some((bit0, DiNode::Label(l)));
        }
        ids::METADATA_GLOBAL_VAR_EXPR => {
            DiNode::GlobalVariableExpression(DiGlobalVariableExpression { var: o.md(1)?, expr: o.md(2)? })
        }
        ids::METADATA_OBJC_PROPERTY => DiNode::ObjCProperty(DiObjCProperty {
            name: o.md(1)?,
            file: o.md(2)?,
            line: o.u32(3)?,
            op4_name: o.md(4)?,
            op5_name: o.md(5)?,
            attributes: o.u32(6)?,
            type_: o.md(7)?,
        }),
        ids::METADATA_IMPORTED_ENTITY => {
            let has_file = o.len() >= 7;
            DiNode::ImportedEntity(DiImportedEntity {
                tag: o.u32(1)?,
                scope: o.md(2)?,
                entity: o.md(3)?,
                line: if has_file { o.u32(4)? } else { 0 },
                name: o.md(5)?,
                file: o.opt_md(6),
                elements: o.opt_md(7),
            })
        }
        ids::METADATA_SUBRANGE_TYPE => {
            let t = DiSubrangeType {
                name: o.md(1)?,
                file: o.md(2)?,
                line: o.u32(3)?,
                scope: o.md(4)?,
                size: o.size(first & 2 != 0, 5)?,
                align: o.u32(6)?,
                flags: o.u32(7)?,
                base_type: o.md(8)?,
                lower_bound: o.md(9)?,
                upper_bound: o.md(10)?,
                stride: o.md(11)?,
                bias: o.md(12)?,
            };
            return Some((bit0, DiNode::SubrangeType(t)));
        }
        _ => return None,
    };
    Some((distinct, node))
}

/// METADATA_BASIC_TYPE's operands (also the first ones of a fixed-point type).
fn basic_type(o: Ops<'_>, md_size: bool) -> Option<DiBasicType> {
    let long = o.len() > 9;
    Some(DiBasicType {
        tag: o.u32(1)?,
        name: o.md(2)?,
        size: o.size(md_size, 3)?,
        align: o.u32(4)?,
        encoding: o.u32(5)?,
        flags: o.opt(6) as u32,
        num_extra_inhabitants: o.opt(7) as u32,
        data_size: o.opt(8) as u32,
        file: if long { o.opt_md(9) } else { MdRef::NULL },
        line: if long { o.opt(10) as u32 } else { 0 },
        scope: if long { o.opt_md(11) } else { MdRef::NULL },
    })
}

/// METADATA_SUBPROGRAM in all its layouts (see the version history in the loader: 1 had
/// the function in operand 15, 2 dropped it, 3 put the unit there, 4 added
/// thisAdjustment, 5 moved the booleans into SPFlags).
fn subprogram(o: Ops<'_>, first: u64) -> Option<(bool, DiNode)> {
    if o.len() < 18 {
        return None;
    }
    const MAIN_SUBPROGRAM_OLD: u32 = 1 << 21;
    const SP_DEFINITION: u32 = 1 << 3;
    let has_sp_flags = first & 4 != 0;
    let has_unit = first & 2 != 0;
    let (mut flags, mut sp_flags) = if has_sp_flags { (o.u32(11)?, o.u32(9)?) } else { (o.u32(13)?, 0) };
    let old_main = flags & MAIN_SUBPROGRAM_OLD != 0;
    flags &= !MAIN_SUBPROGRAM_OLD;
    if has_sp_flags {
        if old_main {
            sp_flags |= 1 << 8;
        }
    } else {
        // DISubprogram::toSPFlags(IsLocalToUnit, IsDefinition, IsOptimized, Virtuality,
        // IsMainSubprogram).
        sp_flags = (o.u32(11)? & 3)
            | (u32::from(o.u(7)? != 0) << 2)
            | (u32::from(o.u(8)? != 0) << 3)
            | (u32::from(o.u(14)? != 0) << 4)
            | (u32::from(old_main) << 8);
    }
    let distinct = first & 1 != 0 || sp_flags & SP_DEFINITION != 0;
    if (!has_sp_flags && has_unit && o.len() < 19) || (has_sp_flags && !has_unit) {
        return None;
    }
    let (a, mut b) = (if has_sp_flags { 0 } else { 2 }, if has_sp_flags { 0 } else { 2 });
    let (mut this_adj, mut thrown, mut annotations, mut target) = (true, true, false, false);
    let mut key_instructions = false;
    if !has_sp_flags {
        if o.len() >= 19 {
            b += 1;
        }
        this_adj = o.len() >= 20;
        thrown = o.len() >= 21;
    } else {
        annotations = o.len() >= 19;
        target = o.len() >= 20;
        key_instructions = o.len() >= 21 && o.opt(20) != 0;
    }
    let md_if = |c: bool, i: usize| if c { o.md(i) } else { Some(MdRef::NULL) };
    let sp = DiSubprogram {
        scope: o.md(1)?,
        name: o.md(2)?,
        linkage_name: o.md(3)?,
        file: o.md(4)?,
        line: o.u32(5)?,
        type_: o.md(6)?,
        scope_line: o.u32(7 + a)?,
        containing_type: o.md(8 + a)?,
        virtual_index: o.u32(10 + a)?,
        this_adjustment: if this_adj { o.u(16 + b)? as i32 } else { 0 },
        flags,
        sp_flags,
        unit: md_if(has_unit, 12 + b)?,
        template_params: o.md(13 + b)?,
        declaration: o.md(14 + b)?,
        retained_nodes: o.md(15 + b)?,
        thrown_types: md_if(thrown, 17 + b)?,
        annotations: md_if(annotations, 18 + b)?,
        target_func_name: md_if(target, 19 + b)?,
        key_instructions,
    };
    Some((distinct, DiNode::Subprogram(sp)))
}

/// The metadata operands of debug-info record `code` in LLVM's `MDNode` order
/// ([`DiNode::operands`]), appended to `out`; nothing when the record does not decode.
/// What LLVM's `SlotTracker` numbers and its `TypeFinder` walks, in that order.
/// The index of a METADATA_COMPILE_UNIT record's `imports` operand.
pub(crate) const COMPILE_UNIT_IMPORTS: usize = 13;

/// The index of a METADATA_SUBPROGRAM record's `retainedNodes` operand, which moves with
/// the record's layout (as [`decode`] reads it).
pub(crate) fn subprogram_retained_nodes_index(ops: &[u64]) -> Option<usize> {
    let first = *ops.first()?;
    let has_sp_flags = first & 4 != 0;
    let b = if has_sp_flags { 0 } else { 2 + usize::from(ops.len() >= 19) };
    let index = 15 + b;
    (index < ops.len()).then_some(index)
}

pub(crate) fn operands_in_llvm_order(code: u32, ops: &[u64], out: &mut Vec<u64>) {
    if let Some((_, node)) = decode(code, ops) {
        node.operands(out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An SPFlags record (bit 2 of the first operand) without a unit (bit 1) is one LLVM
    /// rejects.
    #[test]
    fn subprogram_with_sp_flags_and_no_unit_does_not_decode() {
        assert_eq!(decode(ids::METADATA_SUBPROGRAM, &[4; 18]), None);
    }

    /// `!DIFixedPointType(name: "fr", size: 64, align: 64, encoding: DW_ATE_signed_fixed,
    /// kind: Rational, numerator: 1234, denominator: -5678)` as `llvm-as-22` writes it:
    /// each wide integer is (words << 32 | bits) and its sign-rotated words.
    #[test]
    fn fixed_point_type() {
        let ops = [2, 36, 7, 13, 64, 13, 0, 2, 0, 1 << 32 | 11, 2468, 1 << 32 | 14, 21412];
        let Some((false, DiNode::FixedPointType(t))) = decode(ids::METADATA_FIXED_POINT_TYPE, &ops) else {
            panic!("does not decode")
        };
        assert_eq!((t.base.tag, t.base.name, t.base.encoding, t.base.align), (36, MdRef(7), 13, 64));
        // Bit 1 of the first operand: the size is a reference (to `i64 64`, LLVM 21+).
        assert_eq!(t.base.size, IntOrMd::Md(MdRef(13)));
        assert_eq!((t.kind, t.factor), (2, 0));
        // 1234 in 11 bits, -5678 (10706 zero-extended) in 14: printed signed, -814 and -5678.
        assert_eq!(t.numerator, Apint { bits: 11, value: 1234 });
        assert_eq!(t.denominator, Apint { bits: 14, value: 10706 });
    }

    /// `!GenericDINode(tag: DW_TAG_entry_point, header: "h", operands: {!1, null, !0})`:
    /// its operands in LLVM's order are the header, then the DWARF operands.
    #[test]
    fn generic_node_and_its_operands() {
        let ops = [0, 3, 0, 8, 2, 0, 1];
        let Some((false, DiNode::Generic(n))) = decode(ids::METADATA_GENERIC_DEBUG, &ops) else {
            panic!("does not decode")
        };
        assert_eq!((n.tag, n.header, n.num_operands), (3, MdRef(8), 3));
        let mut out = Vec::new();
        operands_in_llvm_order(ids::METADATA_GENERIC_DEBUG, &ops, &mut out);
        assert_eq!(out, [8, 2, 0, 1]);
        // A record that does not decode has none.
        out.clear();
        operands_in_llvm_order(ids::METADATA_SUBPROGRAM, &[4; 18], &mut out);
        assert!(out.is_empty());
    }
}
