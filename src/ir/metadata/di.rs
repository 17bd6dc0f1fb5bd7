//! Debug-info metadata nodes: the METADATA_BLOCK records LLVM's `MetadataLoader.cpp`
//! (`parseOneMetadata`) reads into `DI*` nodes, decoded into one Copy struct per kind
//! ([`decode`]) with every older layout the loader still accepts, and printed as
//! `AsmWriter.cpp` prints them ([`write_node`]), for `llvm-dis` 14, 19 or 22.
//!
//! A decoder takes the raw operands and never fails on odd input: a record too short
//! for its layout gives `None`; operands past the known layout are ignored (the caller
//! keeps the raw record). Numbers LLVM narrows (a line into `unsigned`, a column into
//! 16 bits) are narrowed here the same way, so the text matches what LLVM prints.
//!
//! Printing knows nothing of slot numbers or of other nodes: a reference is written by
//! the caller ([`MdWriter::write_ref`]), and what `AsmWriter` asks of the node a field
//! points to (a string's bytes, a constant's value, an expression's elements) is asked
//! through the other [`MdWriter`] methods.

use core::fmt::{self, Write};

use crate::ids::llvm_ir::raw as ids;
use crate::ir::print::escape::write_escaped;
use crate::ir::vocabulary::dwarf;
use crate::record::{decode_sign_rotated, unrotate_sign as unrotate};

/// A metadata reference as the records store most of them: 0 is null, n is id n-1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub(crate) struct MdRef(pub(crate) u32);

impl MdRef {
    /// The null reference.
    pub(crate) const NULL: MdRef = MdRef(0);

    /// Whether this is the null reference.
    pub(crate) fn is_null(self) -> bool {
        self.0 == 0
    }

    /// The metadata id this refers to, `None` for null.
    #[cfg(test)]
    pub(crate) fn id(self) -> Option<u32> {
        self.0.checked_sub(1)
    }

    /// `getMDOrNull(op)`: the operand is already id + 1. An operand past `u32` (LLVM
    /// would truncate it) becomes the last ref, which no file defines: it prints as
    /// whatever the caller prints for an unknown id.
    fn or_null(op: u64) -> MdRef {
        MdRef(u32::try_from(op).unwrap_or(u32::MAX))
    }

    /// `getMD(op)`: the operand is the id itself.
    fn raw(op: u64) -> MdRef {
        MdRef(u32::try_from(op).ok().and_then(|v| v.checked_add(1)).unwrap_or(u32::MAX))
    }
}

/// A field that is an integer in some layouts and a metadata reference in others
/// (sizes and offsets since LLVM 21, subrange bounds since DISubrange version 1/2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum IntOrMd {
    /// An unsigned constant stored in the record (LLVM wraps it in a ConstantAsMetadata).
    Unsigned(u64),
    /// A signed constant stored in the record.
    Signed(i64),
    /// A reference (null when absent).
    Md(MdRef),
}

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

/// An `APInt` of at most 128 bits: its width and its bits (zero above the width).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Apint {
    /// The bit width (0 to 128).
    pub(crate) bits: u8,
    /// The value, zero-extended.
    pub(crate) value: u128,
}

impl Apint {
    /// `APInt::print(OS, isSigned)`.
    fn write(self, f: &mut dyn Write, signed: bool) -> fmt::Result {
        let words = [self.value as u64, (self.value >> 64) as u64];
        crate::ir::print::numbers::write_wide_int(f, &words, u64::from(self.bits), signed)
    }
}

/// `!DILocation` (METADATA_LOCATION).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct DiLocation {
    /// Line (0 is a valid, printed line).
    pub(crate) line: u32,
    /// Column; LLVM keeps 16 bits and makes a larger one 0 (`adjustColumn`).
    pub(crate) column: u16,
    /// The scope, never null in valid IR (read with `getMD`).
    pub(crate) scope: MdRef,
    /// The DILocation this one was inlined at.
    pub(crate) inlined_at: MdRef,
    /// `isImplicitCode` (6th operand, LLVM 8+).
    pub(crate) is_implicit_code: bool,
    /// Key Instructions atom group (8-operand form, LLVM 21+).
    pub(crate) atom_group: u64,
    /// Key Instructions atom rank (8-operand form; LLVM keeps 3 bits in a `uint8_t`).
    pub(crate) atom_rank: u8,
}

/// `!GenericDINode` (METADATA_GENERIC_DEBUG); decoded only with up to four DWARF
/// operands, which is all the printer keeps without allocating.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct GenericDiNode {
    /// The DWARF tag.
    pub(crate) tag: u32,
    /// The header string.
    pub(crate) header: MdRef,
    /// The DWARF operands (the first `num_operands`).
    pub(crate) operands: [MdRef; 4],
    /// How many DWARF operands.
    pub(crate) num_operands: u8,
}

/// `!DISubrange` (METADATA_SUBRANGE, versions 0, 1 and 2 in the first operand).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct DiSubrange {
    /// The layout version: 0 (count and lower bound inline), 1 (count a reference),
    /// 2 (all four references).
    pub(crate) version: u8,
    /// `count:`.
    pub(crate) count: IntOrMd,
    /// `lowerBound:`.
    pub(crate) lower_bound: IntOrMd,
    /// `upperBound:` (version 2).
    pub(crate) upper_bound: MdRef,
    /// `stride:` (version 2).
    pub(crate) stride: MdRef,
}

/// `!DIGenericSubrange` (METADATA_GENERIC_SUBRANGE).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct DiGenericSubrange {
    /// `count:`.
    pub(crate) count: MdRef,
    /// `lowerBound:`.
    pub(crate) lower_bound: MdRef,
    /// `upperBound:`.
    pub(crate) upper_bound: MdRef,
    /// `stride:`.
    pub(crate) stride: MdRef,
}

/// `!DIEnumerator` (METADATA_ENUMERATOR): a 64-bit value before LLVM 12, an APInt of
/// any width since (the "big int" bit 2 of the first operand); decoded up to 128 bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct DiEnumerator {
    /// The value.
    pub(crate) value: Apint,
    /// `isUnsigned` (bit 1 of the first operand): how the value prints.
    pub(crate) is_unsigned: bool,
    /// The name.
    pub(crate) name: MdRef,
}

/// `!DIBasicType` (METADATA_BASIC_TYPE).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct DiBasicType {
    /// The tag (`DW_TAG_base_type` unless said).
    pub(crate) tag: u32,
    /// The name.
    pub(crate) name: MdRef,
    /// Size in bits (a reference when bit 1 of the first operand says so, LLVM 21+).
    pub(crate) size: IntOrMd,
    /// Alignment in bits.
    pub(crate) align: u32,
    /// `DW_ATE_*` encoding.
    pub(crate) encoding: u32,
    /// DIFlags (7th operand, LLVM 8+).
    pub(crate) flags: u32,
    /// `num_extra_inhabitants` (LLVM 20+).
    pub(crate) num_extra_inhabitants: u32,
    /// `dataSize` in bits (LLVM 21+).
    pub(crate) data_size: u32,
    /// File (12-operand form, newer than LLVM 22's printer).
    pub(crate) file: MdRef,
    /// Line (12-operand form).
    pub(crate) line: u32,
    /// Scope (12-operand form).
    pub(crate) scope: MdRef,
}

/// `!DIFixedPointType` (METADATA_FIXED_POINT_TYPE, LLVM 21+).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct DiFixedPointType {
    /// The basic type part (tag, name, size, align, encoding, flags, file, line, scope).
    pub(crate) base: DiBasicType,
    /// `kind:`: 0 Binary, 1 Decimal, 2 Rational.
    pub(crate) kind: u32,
    /// `factor:` (signed).
    pub(crate) factor: i32,
    /// `numerator:` (rational kind).
    pub(crate) numerator: Apint,
    /// `denominator:` (rational kind).
    pub(crate) denominator: Apint,
}

/// `!DIStringType` (METADATA_STRING_TYPE).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct DiStringType {
    /// The tag.
    pub(crate) tag: u32,
    /// The name.
    pub(crate) name: MdRef,
    /// `stringLength:`.
    pub(crate) string_length: MdRef,
    /// `stringLengthExpression:`.
    pub(crate) string_length_exp: MdRef,
    /// `stringLocationExpression:` (9-operand form).
    pub(crate) string_location_exp: MdRef,
    /// Size in bits.
    pub(crate) size: IntOrMd,
    /// Alignment in bits.
    pub(crate) align: u32,
    /// `DW_ATE_*` encoding.
    pub(crate) encoding: u32,
}

/// `!DIDerivedType` (METADATA_DERIVED_TYPE).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct DiDerivedType {
    /// The tag.
    pub(crate) tag: u32,
    /// The name.
    pub(crate) name: MdRef,
    /// File.
    pub(crate) file: MdRef,
    /// Line.
    pub(crate) line: u32,
    /// Scope.
    pub(crate) scope: MdRef,
    /// `baseType:` (printed even when null).
    pub(crate) base_type: MdRef,
    /// Size in bits.
    pub(crate) size: IntOrMd,
    /// Alignment in bits.
    pub(crate) align: u32,
    /// Offset in bits.
    pub(crate) offset: IntOrMd,
    /// DIFlags.
    pub(crate) flags: u32,
    /// `extraData:`.
    pub(crate) extra_data: MdRef,
    /// `dwarfAddressSpace:` (13th operand, stored + 1; 0 is none).
    pub(crate) dwarf_address_space: Option<u32>,
    /// The 14th operand: annotations. LLVM 14-18 read it from a 14-operand record; LLVM
    /// 19+ only when the record also has the 15th (pointer authentication).
    pub(crate) annotations: MdRef,
    /// Whether the record has the 15th operand (LLVM 19+ layout).
    pub(crate) has_ptr_auth_slot: bool,
    /// The packed `PtrAuthData` (15th operand); printed for `DW_TAG_LLVM_ptrauth_type`.
    pub(crate) ptr_auth_data: u32,
}

/// `!DICompositeType` (METADATA_COMPOSITE_TYPE).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct DiCompositeType {
    /// The tag.
    pub(crate) tag: u32,
    /// The name.
    pub(crate) name: MdRef,
    /// File.
    pub(crate) file: MdRef,
    /// Line.
    pub(crate) line: u32,
    /// Scope.
    pub(crate) scope: MdRef,
    /// `baseType:`.
    pub(crate) base_type: MdRef,
    /// Size in bits (a reference when bit 2 of the first operand says so).
    pub(crate) size: IntOrMd,
    /// Alignment in bits.
    pub(crate) align: u32,
    /// Offset in bits.
    pub(crate) offset: IntOrMd,
    /// DIFlags.
    pub(crate) flags: u32,
    /// `elements:`.
    pub(crate) elements: MdRef,
    /// `runtimeLang:` (a `DW_LANG_*`).
    pub(crate) runtime_lang: u32,
    /// `vtableHolder:`.
    pub(crate) vtable_holder: MdRef,
    /// `templateParams:`.
    pub(crate) template_params: MdRef,
    /// `identifier:` (the ODR name).
    pub(crate) identifier: MdRef,
    /// `discriminator:` (17th operand).
    pub(crate) discriminator: MdRef,
    /// `dataLocation:` (18th).
    pub(crate) data_location: MdRef,
    /// `associated:` (19th, with `allocated`).
    pub(crate) associated: MdRef,
    /// `allocated:` (20th).
    pub(crate) allocated: MdRef,
    /// `rank:` (21st).
    pub(crate) rank: MdRef,
    /// `annotations:` (22nd).
    pub(crate) annotations: MdRef,
    /// `num_extra_inhabitants:` (23rd).
    pub(crate) num_extra_inhabitants: u32,
    /// `specification:` (24th).
    pub(crate) specification: MdRef,
    /// `enumKind:` (25th; `DW_APPLE_ENUM_KIND_invalid`, `u32::MAX`, is none).
    pub(crate) enum_kind: Option<u32>,
    /// `bitStride:` (26th).
    pub(crate) bit_stride: MdRef,
}

/// `!DISubroutineType` (METADATA_SUBROUTINE_TYPE).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct DiSubroutineType {
    /// DIFlags.
    pub(crate) flags: u32,
    /// `cc:` (a `DW_CC_*`, 4th operand).
    pub(crate) cc: u32,
    /// `types:` (printed even when null).
    pub(crate) types: MdRef,
}

/// `!DIFile` (METADATA_FILE).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct DiFile {
    /// `filename:`.
    pub(crate) filename: MdRef,
    /// `directory:`.
    pub(crate) directory: MdRef,
    /// The checksum kind (`CSK_*`) and value, when both operands are non-zero.
    pub(crate) checksum: Option<(u32, MdRef)>,
    /// `source:` (6th operand).
    pub(crate) source: MdRef,
}

/// `!DICompileUnit` (METADATA_COMPILE_UNIT; always distinct).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct DiCompileUnit {
    /// The language: a `DW_LANG_*`, or with `versioned_language` a `DW_LNAME_*`.
    pub(crate) source_language: u64,
    /// Whether operand 1 had its top bit set: a DWARF 6 language name (LLVM 22).
    pub(crate) versioned_language: bool,
    /// The language version (23rd operand) of a versioned name.
    pub(crate) source_language_version: u32,
    /// `file:` (printed even when null).
    pub(crate) file: MdRef,
    /// `producer:`.
    pub(crate) producer: MdRef,
    /// `isOptimized:`.
    pub(crate) is_optimized: bool,
    /// `flags:` (a string).
    pub(crate) flags: MdRef,
    /// `runtimeVersion:`.
    pub(crate) runtime_version: u32,
    /// `splitDebugFilename:`.
    pub(crate) split_debug_filename: MdRef,
    /// `emissionKind:`.
    pub(crate) emission_kind: u32,
    /// `enums:`.
    pub(crate) enums: MdRef,
    /// `retainedTypes:`.
    pub(crate) retained_types: MdRef,
    /// The 12th operand: the subprograms of LLVM 3.x, which LLVM moves to the
    /// subprograms' `unit:` and never prints.
    pub(crate) subprograms: MdRef,
    /// `globals:`.
    pub(crate) globals: MdRef,
    /// `imports:`.
    pub(crate) imports: MdRef,
    /// `dwoId:`.
    pub(crate) dwo_id: u64,
    /// `macros:`.
    pub(crate) macros: MdRef,
    /// `splitDebugInlining:` (default true).
    pub(crate) split_debug_inlining: bool,
    /// `debugInfoForProfiling:`.
    pub(crate) debug_info_for_profiling: bool,
    /// `nameTableKind:`.
    pub(crate) name_table_kind: u32,
    /// `rangesBaseAddress:`.
    pub(crate) ranges_base_address: bool,
    /// `sysroot:`.
    pub(crate) sysroot: MdRef,
    /// `sdk:`.
    pub(crate) sdk: MdRef,
}

/// `!DISubprogram` (METADATA_SUBPROGRAM), every layout from LLVM 3.9's on: without
/// SPFlags (version bits in operand 0 below 4, flags in operand 13) and with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct DiSubprogram {
    /// Scope (printed even when null).
    pub(crate) scope: MdRef,
    /// `name:`.
    pub(crate) name: MdRef,
    /// `linkageName:`.
    pub(crate) linkage_name: MdRef,
    /// `file:`.
    pub(crate) file: MdRef,
    /// `line:`.
    pub(crate) line: u32,
    /// `type:`.
    pub(crate) type_: MdRef,
    /// `scopeLine:`.
    pub(crate) scope_line: u32,
    /// `containingType:`.
    pub(crate) containing_type: MdRef,
    /// `virtualIndex:`.
    pub(crate) virtual_index: u32,
    /// `thisAdjustment:`.
    pub(crate) this_adjustment: i32,
    /// DIFlags (the old `DIFlagMainSubprogram`, bit 21, moved to the SPFlags).
    pub(crate) flags: u32,
    /// DISPFlags (built from the old booleans for the old layouts); virtuality is bits
    /// 0-1.
    pub(crate) sp_flags: u32,
    /// `unit:`.
    pub(crate) unit: MdRef,
    /// `templateParams:`.
    pub(crate) template_params: MdRef,
    /// `declaration:`.
    pub(crate) declaration: MdRef,
    /// `retainedNodes:`.
    pub(crate) retained_nodes: MdRef,
    /// `thrownTypes:`.
    pub(crate) thrown_types: MdRef,
    /// `annotations:`.
    pub(crate) annotations: MdRef,
    /// `targetFuncName:`.
    pub(crate) target_func_name: MdRef,
    /// `keyInstructions:` (21st operand, LLVM 21+).
    pub(crate) key_instructions: bool,
}

/// `!DILexicalBlock` (METADATA_LEXICAL_BLOCK).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct DiLexicalBlock {
    /// Scope.
    pub(crate) scope: MdRef,
    /// File.
    pub(crate) file: MdRef,
    /// Line.
    pub(crate) line: u32,
    /// Column (LLVM keeps 16 bits).
    pub(crate) column: u16,
}

/// `!DILexicalBlockFile` (METADATA_LEXICAL_BLOCK_FILE).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct DiLexicalBlockFile {
    /// Scope.
    pub(crate) scope: MdRef,
    /// File.
    pub(crate) file: MdRef,
    /// `discriminator:` (printed even when 0).
    pub(crate) discriminator: u32,
}

/// `!DINamespace` (METADATA_NAMESPACE; the 5-operand form of LLVM < 5 had file and
/// line, which LLVM drops).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct DiNamespace {
    /// Scope.
    pub(crate) scope: MdRef,
    /// Name.
    pub(crate) name: MdRef,
    /// `exportSymbols:` (bit 1 of the first operand).
    pub(crate) export_symbols: bool,
}

/// `!DICommonBlock` (METADATA_COMMON_BLOCK).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct DiCommonBlock {
    /// Scope.
    pub(crate) scope: MdRef,
    /// `declaration:`.
    pub(crate) declaration: MdRef,
    /// Name.
    pub(crate) name: MdRef,
    /// File.
    pub(crate) file: MdRef,
    /// Line.
    pub(crate) line: u32,
}

/// `!DIMacro` (METADATA_MACRO).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct DiMacro {
    /// `type:` (a `DW_MACINFO_*`).
    pub(crate) macinfo_type: u32,
    /// Line.
    pub(crate) line: u32,
    /// Name.
    pub(crate) name: MdRef,
    /// Value.
    pub(crate) value: MdRef,
}

/// `!DIMacroFile` (METADATA_MACRO_FILE).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct DiMacroFile {
    /// `type:` (a `DW_MACINFO_*`, `start_file` in practice; not printed).
    pub(crate) macinfo_type: u32,
    /// Line.
    pub(crate) line: u32,
    /// File.
    pub(crate) file: MdRef,
    /// `nodes:`.
    pub(crate) elements: MdRef,
}

/// `!DIModule` (METADATA_MODULE).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct DiModule {
    /// File (8+-operand form).
    pub(crate) file: MdRef,
    /// Scope.
    pub(crate) scope: MdRef,
    /// Name.
    pub(crate) name: MdRef,
    /// `configMacros:`.
    pub(crate) config_macros: MdRef,
    /// `includePath:`.
    pub(crate) include_path: MdRef,
    /// `apinotes:` (the old `isysroot:` slot).
    pub(crate) apinotes: MdRef,
    /// Line.
    pub(crate) line: u32,
    /// `isDecl:`.
    pub(crate) is_decl: bool,
}

/// `!DITemplateTypeParameter` (METADATA_TEMPLATE_TYPE).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct DiTemplateTypeParameter {
    /// Name.
    pub(crate) name: MdRef,
    /// `type:` (printed even when null).
    pub(crate) type_: MdRef,
    /// `defaulted:` (4th operand, LLVM 11+).
    pub(crate) is_default: bool,
}

/// `!DITemplateValueParameter` (METADATA_TEMPLATE_VALUE).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct DiTemplateValueParameter {
    /// The tag (printed unless `DW_TAG_template_value_parameter`).
    pub(crate) tag: u32,
    /// Name.
    pub(crate) name: MdRef,
    /// `type:`.
    pub(crate) type_: MdRef,
    /// `defaulted:` (6-operand form).
    pub(crate) is_default: bool,
    /// `value:` (printed even when null).
    pub(crate) value: MdRef,
}

/// `!DIGlobalVariable` (METADATA_GLOBAL_VAR, versions 0, 1 and 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct DiGlobalVariable {
    /// The layout version (bits 1+ of the first operand). Version 0 (LLVM < 4) kept the
    /// variable or a constant in operand 9; LLVM upgrades that into a
    /// DIGlobalVariableExpression it makes up, which is not reproduced here.
    pub(crate) version: u8,
    /// Scope.
    pub(crate) scope: MdRef,
    /// Name.
    pub(crate) name: MdRef,
    /// `linkageName:`.
    pub(crate) linkage_name: MdRef,
    /// File.
    pub(crate) file: MdRef,
    /// Line.
    pub(crate) line: u32,
    /// `type:`.
    pub(crate) type_: MdRef,
    /// `isLocal:`.
    pub(crate) is_local: bool,
    /// `isDefinition:`.
    pub(crate) is_definition: bool,
    /// `declaration:` (static data member declaration).
    pub(crate) declaration: MdRef,
    /// `templateParams:` (version 2).
    pub(crate) template_params: MdRef,
    /// `align:`.
    pub(crate) align: u32,
    /// `annotations:` (version 2, 13th operand).
    pub(crate) annotations: MdRef,
}

/// `!DILocalVariable` (METADATA_LOCAL_VAR; the old form had a tag in operand 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct DiLocalVariable {
    /// Scope.
    pub(crate) scope: MdRef,
    /// Name.
    pub(crate) name: MdRef,
    /// File.
    pub(crate) file: MdRef,
    /// Line.
    pub(crate) line: u32,
    /// `type:`.
    pub(crate) type_: MdRef,
    /// `arg:` (LLVM keeps 16 bits).
    pub(crate) arg: u16,
    /// DIFlags.
    pub(crate) flags: u32,
    /// `align:` (when bit 1 of the first operand says the record has it).
    pub(crate) align: u32,
    /// `annotations:`.
    pub(crate) annotations: MdRef,
}

/// `!DILabel` (METADATA_LABEL).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct DiLabel {
    /// Scope.
    pub(crate) scope: MdRef,
    /// Name.
    pub(crate) name: MdRef,
    /// File.
    pub(crate) file: MdRef,
    /// Line.
    pub(crate) line: u32,
    /// Column (LLVM 21+).
    pub(crate) column: u32,
    /// `isArtificial:` (bit 1 of the first operand).
    pub(crate) is_artificial: bool,
    /// `coroSuspendIdx:` (7th operand; `u64::MAX` is none).
    pub(crate) coro_suspend_idx: Option<u32>,
}

/// `!DIGlobalVariableExpression` (METADATA_GLOBAL_VAR_EXPR).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct DiGlobalVariableExpression {
    /// `var:`.
    pub(crate) var: MdRef,
    /// `expr:`; null reads as an empty `!DIExpression()`.
    pub(crate) expr: MdRef,
}

/// `!DIObjCProperty` (METADATA_OBJC_PROPERTY).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct DiObjCProperty {
    /// Name.
    pub(crate) name: MdRef,
    /// File.
    pub(crate) file: MdRef,
    /// Line.
    pub(crate) line: u32,
    /// Operand 4: the setter name as the writer stores it; LLVM < 22 read it as the
    /// getter.
    pub(crate) op4_name: MdRef,
    /// Operand 5: the getter name; LLVM < 22 read it as the setter.
    pub(crate) op5_name: MdRef,
    /// `attributes:`.
    pub(crate) attributes: u32,
    /// `type:`.
    pub(crate) type_: MdRef,
}

/// `!DIImportedEntity` (METADATA_IMPORTED_ENTITY).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct DiImportedEntity {
    /// The tag.
    pub(crate) tag: u32,
    /// Scope.
    pub(crate) scope: MdRef,
    /// `entity:`.
    pub(crate) entity: MdRef,
    /// File (7th operand; without it LLVM drops the line too).
    pub(crate) file: MdRef,
    /// Line.
    pub(crate) line: u32,
    /// Name.
    pub(crate) name: MdRef,
    /// `elements:` (8th operand).
    pub(crate) elements: MdRef,
}

/// `!DISubrangeType` (METADATA_SUBRANGE_TYPE, LLVM 21+).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct DiSubrangeType {
    /// Name.
    pub(crate) name: MdRef,
    /// File.
    pub(crate) file: MdRef,
    /// Line.
    pub(crate) line: u32,
    /// Scope.
    pub(crate) scope: MdRef,
    /// Size in bits.
    pub(crate) size: IntOrMd,
    /// Alignment in bits.
    pub(crate) align: u32,
    /// DIFlags.
    pub(crate) flags: u32,
    /// `baseType:`.
    pub(crate) base_type: MdRef,
    /// `lowerBound:`.
    pub(crate) lower_bound: MdRef,
    /// `upperBound:`.
    pub(crate) upper_bound: MdRef,
    /// `stride:`.
    pub(crate) stride: MdRef,
    /// `bias:`.
    pub(crate) bias: MdRef,
}

/// One debug-info node, by kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum DiNode {
    /// METADATA_LOCATION.
    Location(DiLocation),
    /// METADATA_GENERIC_DEBUG.
    Generic(GenericDiNode),
    /// METADATA_SUBRANGE.
    Subrange(DiSubrange),
    /// METADATA_GENERIC_SUBRANGE.
    GenericSubrange(DiGenericSubrange),
    /// METADATA_ENUMERATOR.
    Enumerator(DiEnumerator),
    /// METADATA_BASIC_TYPE.
    BasicType(DiBasicType),
    /// METADATA_FIXED_POINT_TYPE.
    FixedPointType(DiFixedPointType),
    /// METADATA_STRING_TYPE.
    StringType(DiStringType),
    /// METADATA_DERIVED_TYPE.
    DerivedType(DiDerivedType),
    /// METADATA_COMPOSITE_TYPE.
    CompositeType(DiCompositeType),
    /// METADATA_SUBROUTINE_TYPE.
    SubroutineType(DiSubroutineType),
    /// METADATA_FILE.
    File(DiFile),
    /// METADATA_COMPILE_UNIT.
    CompileUnit(DiCompileUnit),
    /// METADATA_SUBPROGRAM.
    Subprogram(DiSubprogram),
    /// METADATA_LEXICAL_BLOCK.
    LexicalBlock(DiLexicalBlock),
    /// METADATA_LEXICAL_BLOCK_FILE.
    LexicalBlockFile(DiLexicalBlockFile),
    /// METADATA_NAMESPACE.
    Namespace(DiNamespace),
    /// METADATA_COMMON_BLOCK.
    CommonBlock(DiCommonBlock),
    /// METADATA_MACRO.
    Macro(DiMacro),
    /// METADATA_MACRO_FILE.
    MacroFile(DiMacroFile),
    /// METADATA_MODULE.
    Module(DiModule),
    /// METADATA_TEMPLATE_TYPE.
    TemplateTypeParameter(DiTemplateTypeParameter),
    /// METADATA_TEMPLATE_VALUE.
    TemplateValueParameter(DiTemplateValueParameter),
    /// METADATA_GLOBAL_VAR.
    GlobalVariable(DiGlobalVariable),
    /// METADATA_LOCAL_VAR.
    LocalVariable(DiLocalVariable),
    /// METADATA_LABEL.
    Label(DiLabel),
    /// METADATA_GLOBAL_VAR_EXPR.
    GlobalVariableExpression(DiGlobalVariableExpression),
    /// METADATA_OBJC_PROPERTY.
    ObjCProperty(DiObjCProperty),
    /// METADATA_IMPORTED_ENTITY.
    ImportedEntity(DiImportedEntity),
    /// METADATA_ASSIGN_ID (`!DIAssignID()`, always distinct).
    AssignId,
    /// METADATA_SUBRANGE_TYPE.
    SubrangeType(DiSubrangeType),
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
                imports: o.md(13)?,
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

/// What printing a node needs from the module it belongs to.
pub(crate) trait MdWriter {
    /// Writes a metadata operand as AsmWriter's writeMetadataAsOperand would: `!12`, `!"text"`,
    /// `i32 5`, `!DIExpression(DW_OP_deref)`, `!{}`... The caller knows the slot numbering.
    fn write_ref(&self, f: &mut dyn fmt::Write, r: MdRef) -> fmt::Result;
    /// The bytes of the MDString `r` refers to, if it refers to one (for string fields:
    /// name:, linkageName:, producer:, filename:, …). None for null or a non-string.
    fn string(&self, r: MdRef) -> Option<&[u8]>;
    /// The LLVM major version whose printing to follow (14, 19, 22).
    fn llvm_version(&self) -> u32;
    /// The value, sign-extended, when `r` is a ConstantAsMetadata of an integer: AsmWriter
    /// prints such a `count:`/`lowerBound:`/`rank:`/`size:` inline (`count: 5`).
    fn constant_int(&self, r: MdRef) -> Option<i64>;
    /// The elements when `r` is a DIExpression: `!DIGenericSubrange` prints a bound that
    /// is `DW_OP_consts N` as the number.
    fn expression(&self, r: MdRef) -> Option<&[u64]>;
}

/// `MDFieldPrinter`: the fields of one node, separated by `, `.
struct Fields<'a> {
    f: &'a mut dyn Write,
    w: &'a dyn MdWriter,
    first: bool,
}

impl Fields<'_> {
    /// `FS << Name << ": "`.
    fn name(&mut self, name: &str) -> fmt::Result {
        if !self.first {
            self.f.write_str(", ")?;
        }
        self.first = false;
        self.f.write_str(name)?;
        self.f.write_str(": ")
    }
    /// `printString`: an MDString field, skipped when empty if `skip_empty`.
    fn string(&mut self, name: &str, r: MdRef, skip_empty: bool) -> fmt::Result {
        let s = self.w.string(r).unwrap_or(&[]);
        if skip_empty && s.is_empty() {
            return Ok(());
        }
        self.name(name)?;
        self.f.write_char('"')?;
        write_escaped(self.f, s)?;
        self.f.write_char('"')
    }
    /// `printMetadata`: a reference, `null` when null and not skipped.
    fn md(&mut self, name: &str, r: MdRef, skip_null: bool) -> fmt::Result {
        if skip_null && r.is_null() {
            return Ok(());
        }
        self.name(name)?;
        if r.is_null() { self.f.write_str("null") } else { self.w.write_ref(self.f, r) }
    }
    /// `printInt` of an unsigned field.
    fn int(&mut self, name: &str, v: u64, skip_zero: bool) -> fmt::Result {
        if skip_zero && v == 0 {
            return Ok(());
        }
        self.name(name)?;
        write!(self.f, "{v}")
    }
    /// `printInt` of a signed field.
    fn sint(&mut self, name: &str, v: i64, skip_zero: bool) -> fmt::Result {
        if skip_zero && v == 0 {
            return Ok(());
        }
        self.name(name)?;
        write!(self.f, "{v}")
    }
    /// `printBool`: skipped when equal to `default`.
    fn boolean(&mut self, name: &str, v: bool, default: Option<bool>) -> fmt::Result {
        if default == Some(v) {
            return Ok(());
        }
        self.name(name)?;
        self.f.write_str(if v { "true" } else { "false" })
    }
    /// `printDwarfEnum`: the name from `table`, or the number. LLVM 14 and 19 skip zero
    /// whatever the caller asks (`if (!Value) return;`); LLVM 22 prints it when told not
    /// to skip it (`language: 0`, `enumKind: DW_APPLE_ENUM_KIND_Closed`).
    fn dwarf(&mut self, name: &str, v: u64, table: fn(u64) -> Option<&'static str>, skip_zero: bool) -> fmt::Result {
        if v == 0 && (skip_zero || self.w.llvm_version() <= 19) {
            return Ok(());
        }
        self.name(name)?;
        match table(v) {
            Some(s) => self.f.write_str(s),
            None => write!(self.f, "{v}"),
        }
    }
    /// `printTag`: `tag: DW_TAG_x`, or the number.
    fn tag(&mut self, tag: u32) -> fmt::Result {
        self.name("tag")?;
        match dwarf::tag_name(u64::from(tag)) {
            Some(s) => self.f.write_str(s),
            None => write!(self.f, "{tag}"),
        }
    }
    /// `printDIFlags`: `DIFlagA | DIFlagB`, the unnamed bits in decimal after them.
    fn di_flags(&mut self, name: &str, flags: u32) -> fmt::Result {
        if flags == 0 {
            return Ok(());
        }
        self.name(name)?;
        let f = &mut *self.f;
        let mut any = false;
        let rest = dwarf::split_di_flags(flags, self.w.llvm_version(), |n| {
            if any {
                f.write_str(" | ")?;
            }
            any = true;
            f.write_str(n)
        })?;
        if rest != 0 || !any {
            if any {
                f.write_str(" | ")?;
            }
            write!(f, "{rest}")?;
        }
        Ok(())
    }
    /// `printDISPFlags`: always printed (no flags at all would read back as the old
    /// `isDefinition: true`), `0` when empty.
    fn sp_flags(&mut self, name: &str, flags: u32) -> fmt::Result {
        self.name(name)?;
        let f = &mut *self.f;
        let mut any = false;
        let rest = dwarf::split_sp_flags(flags, |n| {
            if any {
                f.write_str(" | ")?;
            }
            any = true;
            f.write_str(n)
        })?;
        if rest != 0 || !any {
            if any {
                f.write_str(" | ")?;
            }
            write!(f, "{rest}")?;
        }
        Ok(())
    }
    /// A size or offset: the number (skipped at zero), or when a reference, a constant
    /// prints as its number and anything else as the reference.
    fn size(&mut self, name: &str, v: IntOrMd) -> fmt::Result {
        match v {
            IntOrMd::Unsigned(n) => self.int(name, n, true),
            IntOrMd::Signed(n) => self.sint(name, n, true),
            IntOrMd::Md(r) => match self.w.constant_int(r) {
                Some(n) => self.int(name, n as u64, true),
                None => self.md(name, r, true),
            },
        }
    }
    /// A DISubrange bound: a constant prints as the signed number even when zero, a
    /// reference to anything else as the reference (skipped when null).
    fn bound(&mut self, name: &str, v: IntOrMd) -> fmt::Result {
        match v {
            IntOrMd::Signed(n) => self.sint(name, n, false),
            IntOrMd::Unsigned(n) => self.int(name, n, false),
            IntOrMd::Md(r) => match self.w.constant_int(r) {
                Some(n) => self.sint(name, n, false),
                None => self.md(name, r, true),
            },
        }
    }
    /// A DIGenericSubrange bound: `DW_OP_consts N` (a signed constant expression,
    /// `DIExpression::isConstant`) prints as N.
    fn generic_bound(&mut self, name: &str, r: MdRef) -> fmt::Result {
        match self.w.expression(r) {
            Some(&[0x11, n]) => self.sint(name, n as i64, false),
            Some(&[0x11, n, 0x9f]) | Some(&[0x11, n, 0x9f, 0x1000, _, _]) => self.sint(name, n as i64, false),
            _ => self.md(name, r, true),
        }
    }
}

/// Writes `node` as `AsmWriter` writes it, from `!DIKind(` to `)` (without the `!N = `
/// and `distinct ` the caller prints).
pub(crate) fn write_node(f: &mut dyn Write, node: &DiNode, w: &dyn MdWriter) -> fmt::Result {
    let v = w.llvm_version();
    let kind = match node {
        DiNode::Location(_) => "DILocation",
        DiNode::Generic(_) => "GenericDINode",
        DiNode::Subrange(_) => "DISubrange",
        DiNode::GenericSubrange(_) => "DIGenericSubrange",
        DiNode::Enumerator(_) => "DIEnumerator",
        DiNode::BasicType(_) => "DIBasicType",
        DiNode::FixedPointType(_) => "DIFixedPointType",
        DiNode::StringType(_) => "DIStringType",
        DiNode::DerivedType(_) => "DIDerivedType",
        DiNode::CompositeType(_) => "DICompositeType",
        DiNode::SubroutineType(_) => "DISubroutineType",
        DiNode::File(_) => "DIFile",
        DiNode::CompileUnit(_) => "DICompileUnit",
        DiNode::Subprogram(_) => "DISubprogram",
        DiNode::LexicalBlock(_) => "DILexicalBlock",
        DiNode::LexicalBlockFile(_) => "DILexicalBlockFile",
        DiNode::Namespace(_) => "DINamespace",
        DiNode::CommonBlock(_) => "DICommonBlock",
        DiNode::Macro(_) => "DIMacro",
        DiNode::MacroFile(_) => "DIMacroFile",
        DiNode::Module(_) => "DIModule",
        DiNode::TemplateTypeParameter(_) => "DITemplateTypeParameter",
        DiNode::TemplateValueParameter(_) => "DITemplateValueParameter",
        DiNode::GlobalVariable(_) => "DIGlobalVariable",
        DiNode::LocalVariable(_) => "DILocalVariable",
        DiNode::Label(_) => "DILabel",
        DiNode::GlobalVariableExpression(_) => "DIGlobalVariableExpression",
        DiNode::ObjCProperty(_) => "DIObjCProperty",
        DiNode::ImportedEntity(_) => "DIImportedEntity",
        DiNode::AssignId => "DIAssignID",
        DiNode::SubrangeType(_) => "DISubrangeType",
    };
    f.write_char('!')?;
    f.write_str(kind)?;
    f.write_char('(')?;
    let mut p = Fields { f, w, first: true };
    match node {
        DiNode::Location(n) => {
            // Line is always printed: 0 is a meaningful line.
            p.int("line", n.line.into(), false)?;
            p.int("column", n.column.into(), true)?;
            p.md("scope", n.scope, false)?;
            p.md("inlinedAt", n.inlined_at, true)?;
            p.boolean("isImplicitCode", n.is_implicit_code, Some(false))?;
            if v >= 21 {
                p.int("atomGroup", n.atom_group, true)?;
                p.int("atomRank", n.atom_rank.into(), true)?;
            }
        }
        DiNode::Generic(n) => {
            p.tag(n.tag)?;
            p.string("header", n.header, true)?;
            if n.num_operands > 0 {
                p.name("operands")?;
                p.f.write_char('{')?;
                for (i, &r) in n.operands.iter().take(n.num_operands.into()).enumerate() {
                    if i > 0 {
                        p.f.write_str(", ")?;
                    }
                    if r.is_null() { p.f.write_str("null")? } else { w.write_ref(p.f, r)? }
                }
                p.f.write_char('}')?;
            }
        }
        DiNode::Subrange(n) => {
            p.bound("count", n.count)?;
            p.bound("lowerBound", n.lower_bound)?;
            p.bound("upperBound", IntOrMd::Md(n.upper_bound))?;
            p.bound("stride", IntOrMd::Md(n.stride))?;
        }
        DiNode::GenericSubrange(n) => {
            p.generic_bound("count", n.count)?;
            p.generic_bound("lowerBound", n.lower_bound)?;
            p.generic_bound("upperBound", n.upper_bound)?;
            p.generic_bound("stride", n.stride)?;
        }
        DiNode::Enumerator(n) => {
            p.string("name", n.name, false)?;
            p.name("value")?;
            n.value.write(p.f, !n.is_unsigned)?;
            if n.is_unsigned {
                p.boolean("isUnsigned", true, None)?;
            }
        }
        DiNode::BasicType(n) => {
            if n.tag != 0x24 {
                p.tag(n.tag)?;
            }
            p.string("name", n.name, true)?;
            p.size("size", n.size)?;
            p.int("align", n.align.into(), true)?;
            if v >= 21 {
                p.int("dataSize", n.data_size.into(), true)?;
            }
            p.dwarf("encoding", n.encoding.into(), dwarf::ate_name, true)?;
            if v >= 20 {
                p.int("num_extra_inhabitants", n.num_extra_inhabitants.into(), true)?;
            }
            p.di_flags("flags", n.flags)?;
        }
        DiNode::FixedPointType(n) => {
            let b = &n.base;
            if b.tag != 0x24 {
                p.tag(b.tag)?;
            }
            p.string("name", b.name, true)?;
            p.size("size", b.size)?;
            p.int("align", b.align.into(), true)?;
            p.dwarf("encoding", b.encoding.into(), dwarf::ate_name, true)?;
            p.di_flags("flags", b.flags)?;
            p.name("kind")?;
            match n.kind {
                0 => p.f.write_str("Binary")?,
                1 => p.f.write_str("Decimal")?,
                2 => p.f.write_str("Rational")?,
                k => write!(p.f, "{k}")?,
            }
            if n.kind == 2 {
                // Signed as the encoding is (DW_ATE_signed_fixed), zero printed.
                let signed = b.encoding == 0x0d;
                p.name("numerator")?;
                n.numerator.write(p.f, signed)?;
                p.name("denominator")?;
                n.denominator.write(p.f, signed)?;
            } else {
                p.sint("factor", n.factor.into(), true)?;
            }
        }
        DiNode::StringType(n) => {
            if n.tag != 0x12 {
                p.tag(n.tag)?;
            }
            p.string("name", n.name, true)?;
            p.md("stringLength", n.string_length, true)?;
            p.md("stringLengthExpression", n.string_length_exp, true)?;
            p.md("stringLocationExpression", n.string_location_exp, true)?;
            p.size("size", n.size)?;
            p.int("align", n.align.into(), true)?;
            p.dwarf("encoding", n.encoding.into(), dwarf::ate_name, true)?;
        }
        DiNode::DerivedType(n) => {
            p.tag(n.tag)?;
            p.string("name", n.name, true)?;
            p.md("scope", n.scope, true)?;
            p.md("file", n.file, true)?;
            p.int("line", n.line.into(), true)?;
            p.md("baseType", n.base_type, false)?;
            p.size("size", n.size)?;
            p.int("align", n.align.into(), true)?;
            p.size("offset", n.offset)?;
            p.di_flags("flags", n.flags)?;
            p.md("extraData", n.extra_data, true)?;
            if let Some(space) = n.dwarf_address_space {
                p.int("dwarfAddressSpace", space.into(), false)?;
            }
            // LLVM 19+ reads operand 13 only when operand 14 (ptrauth) is there too.
            if v < 19 || n.has_ptr_auth_slot {
                p.md("annotations", n.annotations, true)?;
            }
            if v >= 19 && n.tag == 0x4300 {
                let d = n.ptr_auth_data;
                p.int("ptrAuthKey", (d & 0xf).into(), true)?;
                p.boolean("ptrAuthIsAddressDiscriminated", d >> 4 & 1 != 0, None)?;
                p.int("ptrAuthExtraDiscriminator", (d >> 5 & 0xffff).into(), true)?;
                p.boolean("ptrAuthIsaPointer", d >> 21 & 1 != 0, None)?;
                p.boolean("ptrAuthAuthenticatesNullValues", d >> 22 & 1 != 0, None)?;
            }
        }
        DiNode::CompositeType(n) => {
            p.tag(n.tag)?;
            p.string("name", n.name, true)?;
            p.md("scope", n.scope, true)?;
            p.md("file", n.file, true)?;
            p.int("line", n.line.into(), true)?;
            p.md("baseType", n.base_type, true)?;
            p.size("size", n.size)?;
            p.int("align", n.align.into(), true)?;
            p.size("offset", n.offset)?;
            if v >= 20 {
                p.int("num_extra_inhabitants", n.num_extra_inhabitants.into(), true)?;
            }
            p.di_flags("flags", n.flags)?;
            p.md("elements", n.elements, true)?;
            p.dwarf("runtimeLang", n.runtime_lang.into(), dwarf::lang_name, true)?;
            p.md("vtableHolder", n.vtable_holder, true)?;
            p.md("templateParams", n.template_params, true)?;
            p.string("identifier", n.identifier, true)?;
            p.md("discriminator", n.discriminator, true)?;
            p.md("dataLocation", n.data_location, true)?;
            p.md("associated", n.associated, true)?;
            p.md("allocated", n.allocated, true)?;
            match w.constant_int(n.rank) {
                Some(r) => p.sint("rank", r, false)?,
                None => p.md("rank", n.rank, true)?,
            }
            p.md("annotations", n.annotations, true)?;
            if v >= 20 {
                p.md("specification", n.specification, true)?;
            }
            if v >= 21 {
                if let Some(k) = n.enum_kind {
                    p.dwarf("enumKind", k.into(), dwarf::apple_enum_kind_name, false)?;
                }
                // Unlike `rank:`, a constant stride prints as the constant (`i32 4`).
                p.md("bitStride", n.bit_stride, true)?;
            }
        }
        DiNode::SubroutineType(n) => {
            p.di_flags("flags", n.flags)?;
            p.dwarf("cc", n.cc.into(), dwarf::cc_name, true)?;
            p.md("types", n.types, false)?;
        }
        DiNode::File(n) => {
            p.string("filename", n.filename, false)?;
            p.string("directory", n.directory, false)?;
            if let Some((kind, sum)) = n.checksum {
                p.name("checksumkind")?;
                match dwarf::checksum_kind_name(kind.into()) {
                    Some(s) => p.f.write_str(s)?,
                    None => write!(p.f, "{kind}")?,
                }
                p.string("checksum", sum, false)?;
            }
            p.string("source", n.source, true)?;
        }
        DiNode::CompileUnit(n) => {
            if n.versioned_language && v >= 22 {
                p.name("sourceLanguageName")?;
                match dwarf::lname_name(n.source_language) {
                    Some(s) => p.f.write_str(s)?,
                    None => write!(p.f, "{}", n.source_language)?,
                }
                p.int("sourceLanguageVersion", n.source_language_version.into(), true)?;
            } else {
                p.dwarf("language", n.source_language, dwarf::lang_name, false)?;
            }
            p.md("file", n.file, false)?;
            p.string("producer", n.producer, true)?;
            p.boolean("isOptimized", n.is_optimized, None)?;
            p.string("flags", n.flags, true)?;
            p.int("runtimeVersion", n.runtime_version.into(), false)?;
            p.string("splitDebugFilename", n.split_debug_filename, true)?;
            p.name("emissionKind")?;
            match dwarf::emission_kind_name(n.emission_kind.into()) {
                Some(s) => p.f.write_str(s)?,
                None => write!(p.f, "{}", n.emission_kind)?,
            }
            p.md("enums", n.enums, true)?;
            p.md("retainedTypes", n.retained_types, true)?;
            p.md("globals", n.globals, true)?;
            p.md("imports", n.imports, true)?;
            p.md("macros", n.macros, true)?;
            p.int("dwoId", n.dwo_id, true)?;
            p.boolean("splitDebugInlining", n.split_debug_inlining, Some(true))?;
            p.boolean("debugInfoForProfiling", n.debug_info_for_profiling, Some(false))?;
            if n.name_table_kind != 0 {
                p.name("nameTableKind")?;
                match dwarf::name_table_kind_name(n.name_table_kind.into()) {
                    Some(s) => p.f.write_str(s)?,
                    None => write!(p.f, "{}", n.name_table_kind)?,
                }
            }
            p.boolean("rangesBaseAddress", n.ranges_base_address, Some(false))?;
            p.string("sysroot", n.sysroot, true)?;
            p.string("sdk", n.sdk, true)?;
        }
        DiNode::Subprogram(n) => {
            p.string("name", n.name, true)?;
            p.string("linkageName", n.linkage_name, true)?;
            p.md("scope", n.scope, false)?;
            p.md("file", n.file, true)?;
            p.int("line", n.line.into(), true)?;
            p.md("type", n.type_, true)?;
            p.int("scopeLine", n.scope_line.into(), true)?;
            p.md("containingType", n.containing_type, true)?;
            if n.sp_flags & 3 != 0 || n.virtual_index != 0 {
                p.int("virtualIndex", n.virtual_index.into(), false)?;
            }
            p.sint("thisAdjustment", n.this_adjustment.into(), true)?;
            p.di_flags("flags", n.flags)?;
            p.sp_flags("spFlags", n.sp_flags)?;
            p.md("unit", n.unit, true)?;
            p.md("templateParams", n.template_params, true)?;
            p.md("declaration", n.declaration, true)?;
            p.md("retainedNodes", n.retained_nodes, true)?;
            p.md("thrownTypes", n.thrown_types, true)?;
            p.md("annotations", n.annotations, true)?;
            p.string("targetFuncName", n.target_func_name, true)?;
            if v >= 21 {
                p.boolean("keyInstructions", n.key_instructions, Some(false))?;
            }
        }
        DiNode::LexicalBlock(n) => {
            p.md("scope", n.scope, false)?;
            p.md("file", n.file, true)?;
            p.int("line", n.line.into(), true)?;
            p.int("column", n.column.into(), true)?;
        }
        DiNode::LexicalBlockFile(n) => {
            p.md("scope", n.scope, false)?;
            p.md("file", n.file, true)?;
            p.int("discriminator", n.discriminator.into(), false)?;
        }
        DiNode::Namespace(n) => {
            p.string("name", n.name, true)?;
            p.md("scope", n.scope, false)?;
            p.boolean("exportSymbols", n.export_symbols, Some(false))?;
        }
        DiNode::CommonBlock(n) => {
            p.md("scope", n.scope, false)?;
            p.md("declaration", n.declaration, false)?;
            p.string("name", n.name, true)?;
            p.md("file", n.file, true)?;
            p.int("line", n.line.into(), true)?;
        }
        DiNode::Macro(n) => {
            p.name("type")?;
            match dwarf::macinfo_name(n.macinfo_type.into()) {
                Some(s) => p.f.write_str(s)?,
                None => write!(p.f, "{}", n.macinfo_type)?,
            }
            p.int("line", n.line.into(), true)?;
            p.string("name", n.name, true)?;
            p.string("value", n.value, true)?;
        }
        DiNode::MacroFile(n) => {
            p.int("line", n.line.into(), true)?;
            p.md("file", n.file, false)?;
            p.md("nodes", n.elements, true)?;
        }
        DiNode::Module(n) => {
            p.md("scope", n.scope, false)?;
            p.string("name", n.name, true)?;
            p.string("configMacros", n.config_macros, true)?;
            p.string("includePath", n.include_path, true)?;
            p.string("apinotes", n.apinotes, true)?;
            p.md("file", n.file, true)?;
            p.int("line", n.line.into(), true)?;
            p.boolean("isDecl", n.is_decl, Some(false))?;
        }
        DiNode::TemplateTypeParameter(n) => {
            p.string("name", n.name, true)?;
            p.md("type", n.type_, false)?;
            p.boolean("defaulted", n.is_default, Some(false))?;
        }
        DiNode::TemplateValueParameter(n) => {
            if n.tag != 0x30 {
                p.tag(n.tag)?;
            }
            p.string("name", n.name, true)?;
            p.md("type", n.type_, true)?;
            p.boolean("defaulted", n.is_default, Some(false))?;
            p.md("value", n.value, false)?;
        }
        DiNode::GlobalVariable(n) => {
            p.string("name", n.name, true)?;
            p.string("linkageName", n.linkage_name, true)?;
            p.md("scope", n.scope, false)?;
            p.md("file", n.file, true)?;
            p.int("line", n.line.into(), true)?;
            p.md("type", n.type_, true)?;
            p.boolean("isLocal", n.is_local, None)?;
            p.boolean("isDefinition", n.is_definition, None)?;
            p.md("declaration", n.declaration, true)?;
            p.md("templateParams", n.template_params, true)?;
            p.int("align", n.align.into(), true)?;
            p.md("annotations", n.annotations, true)?;
        }
        DiNode::LocalVariable(n) => {
            p.string("name", n.name, true)?;
            p.int("arg", n.arg.into(), true)?;
            p.md("scope", n.scope, false)?;
            p.md("file", n.file, true)?;
            p.int("line", n.line.into(), true)?;
            p.md("type", n.type_, true)?;
            p.di_flags("flags", n.flags)?;
            p.int("align", n.align.into(), true)?;
            p.md("annotations", n.annotations, true)?;
        }
        DiNode::Label(n) => {
            p.md("scope", n.scope, false)?;
            p.string("name", n.name, true)?;
            p.md("file", n.file, true)?;
            p.int("line", n.line.into(), true)?;
            if v >= 21 {
                p.int("column", n.column.into(), true)?;
                p.boolean("isArtificial", n.is_artificial, Some(false))?;
                if let Some(i) = n.coro_suspend_idx {
                    p.int("coroSuspendIdx", i.into(), false)?;
                }
            }
        }
        DiNode::GlobalVariableExpression(n) => {
            p.md("var", n.var, true)?;
            if n.expr.is_null() {
                // The loader makes a null expression an empty one.
                p.name("expr")?;
                p.f.write_str("!DIExpression()")?;
            } else {
                p.md("expr", n.expr, true)?;
            }
        }
        DiNode::ObjCProperty(n) => {
            let (setter, getter) = if v >= 22 { (n.op4_name, n.op5_name) } else { (n.op5_name, n.op4_name) };
            p.string("name", n.name, true)?;
            p.md("file", n.file, true)?;
            p.int("line", n.line.into(), true)?;
            p.string("setter", setter, true)?;
            p.string("getter", getter, true)?;
            p.int("attributes", n.attributes.into(), true)?;
            p.md("type", n.type_, true)?;
        }
        DiNode::ImportedEntity(n) => {
            p.tag(n.tag)?;
            p.string("name", n.name, true)?;
            p.md("scope", n.scope, false)?;
            p.md("entity", n.entity, true)?;
            p.md("file", n.file, true)?;
            p.int("line", n.line.into(), true)?;
            p.md("elements", n.elements, true)?;
        }
        DiNode::AssignId => {}
        DiNode::SubrangeType(n) => {
            p.string("name", n.name, true)?;
            p.md("scope", n.scope, true)?;
            p.md("file", n.file, true)?;
            p.int("line", n.line.into(), true)?;
            p.size("size", n.size)?;
            p.int("align", n.align.into(), true)?;
            p.di_flags("flags", n.flags)?;
            p.md("baseType", n.base_type, false)?;
            p.md("lowerBound", n.lower_bound, true)?;
            p.md("upperBound", n.upper_bound, true)?;
            p.md("stride", n.stride, true)?;
            p.md("bias", n.bias, true)?;
        }
    }
    p.f.write_char(')')
}

#[cfg(all(test, feature = "std"))]
mod tests {
    use super::*;
    use alloc::collections::BTreeMap;
    use alloc::string::{String, ToString};
    use alloc::vec::Vec;

    use crate::cursor::BitCursor;
    use crate::ir::Module;
    use crate::ir::metadata::defines_id;
    use crate::ir::module::constants::ModuleConstants;
    use crate::ir::print::dwarf_expr::write_expression;

    /// The module's metadata as far as printing a DI node needs it.
    struct Meta<'m, 'a> {
        strings: BTreeMap<u32, &'a [u8]>,
        values: BTreeMap<u32, u64>,
        exprs: BTreeMap<u32, Vec<u64>>,
        module: &'m Module<'a>,
        constants: ModuleConstants,
        version: u32,
    }

    impl MdWriter for Meta<'_, '_> {
        fn write_ref(&self, f: &mut dyn fmt::Write, r: MdRef) -> fmt::Result {
            let Some(id) = r.id() else { return f.write_str("null") };
            if let Some(s) = self.strings.get(&id) {
                f.write_str("!\"")?;
                write_escaped(f, s)?;
                f.write_char('"')
            } else if let Some(&v) = self.values.get(&id) {
                write!(f, "{}", self.constants.display(self.module, v, self.version >= 17))
            } else if let Some(e) = self.exprs.get(&id) {
                write_expression(f, e)
            } else {
                f.write_str("!_")
            }
        }
        fn string(&self, r: MdRef) -> Option<&[u8]> {
            self.strings.get(&r.id()?).copied()
        }
        fn llvm_version(&self) -> u32 {
            self.version
        }
        fn constant_int(&self, r: MdRef) -> Option<i64> {
            let v = *self.values.get(&r.id()?)?;
            match self.constants.get(v)?.kind {
                crate::ir::ConstantKind::Int(i) => Some(i),
                crate::ir::ConstantKind::Null => Some(0),
                _ => None,
            }
        }
        fn expression(&self, r: MdRef) -> Option<&[u64]> {
            self.exprs.get(&r.id()?).map(|e| e.as_slice())
        }
    }

    /// `!N` → `!_`, so that two numberings compare.
    fn normalize(line: &str) -> String {
        let mut out = String::new();
        let mut chars = line.chars().peekable();
        while let Some(c) = chars.next() {
            out.push(c);
            if c == '!' && chars.peek().is_some_and(|d| d.is_ascii_digit()) {
                out.push('_');
                while chars.peek().is_some_and(|d| d.is_ascii_digit()) {
                    chars.next();
                }
            }
        }
        out
    }

    /// Reads the METADATA_BLOCKs directly in `block`, ids from `id` on, and prints their
    /// DI nodes into `lines` (`distinct ` first when it is); counts records that did not
    /// decode in `failed`.
    fn walk<'a>(
        block: &crate::reader::LazyBlock<'a>,
        meta: &mut Meta<'_, 'a>,
        mut id: u32,
        lines: &mut Vec<String>,
        failed: &mut usize,
    ) -> u32 {
        let base = id;
        let mut nodes = Vec::new();
        crate::ir::module::walk::each_child_block(block, |b, reader| {
            if b != crate::ids::llvm_ir::METADATA_BLOCK_ID {
                return Ok(false);
            }
            crate::ir::module::walk::each_record(reader, |r| {
                let (code, ops) = (r.code(), r.operand_slice());
                if code == ids::METADATA_STRINGS {
                    let (count, offset) = (ops[0] as usize, ops[1] as usize);
                    let blob = r.blob().unwrap();
                    let mut lengths = BitCursor::new(&blob[..offset]);
                    let mut at = offset;
                    for _ in 0..count {
                        let len = lengths.read_vbr(6).unwrap() as usize;
                        meta.strings.insert(id, &blob[at..at + len]);
                        at += len;
                        id += 1;
                    }
                    return Ok(());
                }
                if !defines_id(code) {
                    return Ok(());
                }
                match code {
                    ids::METADATA_VALUE => {
                        meta.values.insert(id, ops[1]);
                    }
                    ids::METADATA_EXPRESSION => {
                        meta.exprs.insert(id, ops[1..].to_vec());
                    }
                    ids::METADATA_NODE | ids::METADATA_DISTINCT_NODE | ids::METADATA_ARG_LIST => {}
                    _ => match decode(code, ops) {
                        Some(n) => nodes.push(n),
                        None => *failed += 1,
                    },
                }
                id += 1;
                Ok(())
            })?;
            Ok(true)
        })
        .unwrap();
        for (distinct, n) in &nodes {
            let mut s = String::new();
            if *distinct {
                s.push_str("distinct ");
            }
            write_node(&mut s, n, meta).unwrap();
            lines.push(normalize(&s));
        }
        let _ = base;
        id
    }

    /// Every DI node of the module, the functions' own metadata included, printed; and
    /// how many records did not decode.
    fn our_lines(bytes: &[u8], version: u32) -> (Vec<String>, usize) {
        let module = Module::parse(bytes).unwrap();
        let constants = module.constants().unwrap();
        let mut meta = Meta {
            strings: BTreeMap::new(),
            values: BTreeMap::new(),
            exprs: BTreeMap::new(),
            module: &module,
            constants,
            version,
        };
        let (mut lines, mut failed) = (Vec::new(), 0);
        let module_ids = walk(&module.block, &mut meta, 0, &mut lines, &mut failed);
        for f in module.definitions() {
            if let Some(body) = &f.body {
                walk(body, &mut meta, module_ids, &mut lines, &mut failed);
                // Function-local ids are reused by the next function.
                meta.strings.retain(|&k, _| k < module_ids);
                meta.values.retain(|&k, _| k < module_ids);
                meta.exprs.retain(|&k, _| k < module_ids);
            }
        }
        (lines, failed)
    }

    /// The DI node lines of `llvm-dis` output, `!N = ` cut off.
    fn llvm_lines(ll: &str) -> Vec<String> {
        ll.lines()
            .filter_map(|l| {
                let rest = l.strip_prefix('!')?;
                let (num, rest) = rest.split_once(" = ")?;
                if !num.bytes().all(|b| b.is_ascii_digit()) {
                    return None;
                }
                let body = rest.strip_prefix("distinct ").unwrap_or(rest);
                (body.starts_with("!DI") || body.starts_with("!GenericDINode")).then(|| normalize(rest))
            })
            .collect()
    }

    fn kind(line: &str) -> &str {
        let body = line.strip_prefix("distinct ").unwrap_or(line);
        body.split('(').next().unwrap_or(body)
    }

    /// Compares our lines with `tool`'s on `file`; per kind (identical, total). Skipped
    /// (`None`) when the tool is not installed.
    fn compare(file: &str, tool: &str, version: u32) -> Option<BTreeMap<String, (usize, usize)>> {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata").join(file);
        compare_path(&path, tool, version)
    }

    fn compare_path(path: &std::path::Path, tool: &str, version: u32) -> Option<BTreeMap<String, (usize, usize)>> {
        let file = path.display();
        let out = std::process::Command::new(tool).arg(path).arg("-o").arg("-").output().ok()?;
        if !out.status.success() {
            return None;
        }
        let theirs = llvm_lines(&String::from_utf8_lossy(&out.stdout));
        let bytes = std::fs::read(path).unwrap();
        let (ours, failed) = our_lines(&bytes, version);
        assert_eq!(failed, 0, "{file}: records that did not decode");
        let mut pool: BTreeMap<&str, usize> = BTreeMap::new();
        for l in &theirs {
            *pool.entry(l.as_str()).or_default() += 1;
        }
        let mut per_kind: BTreeMap<String, (usize, usize)> = BTreeMap::new();
        let mut shown = 0;
        for l in &ours {
            let e = per_kind.entry(kind(l).to_string()).or_default();
            e.1 += 1;
            match pool.get_mut(l.as_str()) {
                Some(n) if *n > 0 => {
                    *n -= 1;
                    e.0 += 1;
                }
                _ => {
                    if shown < 15 {
                        std::eprintln!("{file} {tool}: ours only: {l}");
                        shown += 1;
                    }
                }
            }
        }
        // llvm-dis also prints the DILocations of the instructions' FUNC_CODE_DEBUG_LOC
        // records, which are no metadata records: those alone may be left over.
        let mut shown = 0;
        for (l, n) in &pool {
            if *n > 0 && kind(l) != "!DILocation" && shown < 15 {
                std::eprintln!("{file} {tool}: theirs only ({n}): {l}");
                shown += 1;
            }
        }
        let left: usize = pool.iter().filter(|(l, _)| kind(l) != "!DILocation").map(|(_, n)| n).sum();
        std::eprintln!("{file} {tool}: (identical, ours) per kind: {per_kind:?}; theirs left over: {left}");
        assert_eq!(left, 0, "{file} {tool}: nodes we did not print");
        Some(per_kind)
    }

    fn all_identical(r: Option<BTreeMap<String, (usize, usize)>>) {
        if let Some(r) = r {
            for (k, (same, total)) in r {
                assert_eq!(same, total, "{k}");
            }
        }
    }

    #[test]
    fn rustc_llvm22_nodes_print_as_llvm_dis_22() {
        all_identical(compare("rustc_llvm22_o0_debuginfo.bc", "llvm-dis-22", 22));
    }

    #[test]
    fn clang14_nodes_print_as_llvm_dis_14_19_22() {
        all_identical(compare("llvm14_ir_debuginfo.bc", "llvm-dis-14", 14));
        all_identical(compare("llvm14_ir_debuginfo.bc", "llvm-dis-19", 19));
        all_identical(compare("llvm14_ir_debuginfo.bc", "llvm-dis-22", 22));
    }

    /// `DI_CHECK="file.bc,llvm-dis-22,22;other.bc,llvm-dis-14,14"`: the same comparison on
    /// files made by hand (`llvm-as-N` of `.ll` covering every field).
    #[test]
    #[ignore]
    fn files_from_env_print_as_llvm_dis() {
        for spec in std::env::var("DI_CHECK").unwrap_or_default().split(';').filter(|s| !s.is_empty()) {
            let mut parts = spec.split(',');
            let (file, tool, version) = (parts.next().unwrap(), parts.next().unwrap(), parts.next().unwrap());
            all_identical(compare_path(std::path::Path::new(file), tool, version.parse().unwrap()));
        }
    }

    /// A writer for hand-built records: ids below 100 are strings `s<id>`, 100.. values
    /// (`i64 <id-100>`), everything else `!<id>`.
    struct Fake(u32);

    impl MdWriter for Fake {
        fn write_ref(&self, f: &mut dyn fmt::Write, r: MdRef) -> fmt::Result {
            match r.id() {
                Some(id @ 100..200) => write!(f, "i64 {}", id - 100),
                Some(id) => write!(f, "!{id}"),
                None => f.write_str("null"),
            }
        }
        fn string(&self, r: MdRef) -> Option<&[u8]> {
            const S: [&str; 6] = ["", "a.c", "/d", "f", "_f", "x\"y"];
            S.get(r.id()? as usize).map(|s| s.as_bytes())
        }
        fn llvm_version(&self) -> u32 {
            self.0
        }
        fn constant_int(&self, r: MdRef) -> Option<i64> {
            r.id().filter(|id| (100..200).contains(id)).map(|id| i64::from(id) - 100)
        }
        fn expression(&self, _: MdRef) -> Option<&[u64]> {
            None
        }
    }

    fn text(code: u32, ops: &[u64], version: u32) -> String {
        let (distinct, n) = decode(code, ops).unwrap();
        let mut s = String::new();
        if distinct {
            s.push_str("distinct ");
        }
        write_node(&mut s, &n, &Fake(version)).unwrap();
        s
    }

    /// Records as LLVM 14 and 22 write them; the text is what `llvm-dis` printed for them.
    #[test]
    fn current_layouts() {
        // [distinct, line, column, scope (raw id), inlinedAt, implicit, atomGroup, atomRank]
        assert_eq!(
            text(ids::METADATA_LOCATION, &[0, 3, 7, 8, 11, 1, 9, 2], 22),
            "!DILocation(line: 3, column: 7, scope: !8, inlinedAt: !10, isImplicitCode: true, atomGroup: 9, atomRank: 2)"
        );
        assert_eq!(text(ids::METADATA_LOCATION, &[0, 0, 0, 8, 0], 14), "!DILocation(line: 0, scope: !8)");
        assert_eq!(
            text(ids::METADATA_FILE, &[0, 2, 3, 3, 6, 2], 22),
            r#"!DIFile(filename: "a.c", directory: "/d", checksumkind: CSK_SHA256, checksum: "x\22y", source: "a.c")"#
        );
        assert_eq!(
            text(ids::METADATA_BASIC_TYPE, &[0, 0x24, 4, 32, 32, 7, 1 << 27, 3, 7], 22),
            r#"!DIBasicType(name: "f", size: 32, align: 32, dataSize: 7, encoding: DW_ATE_unsigned, num_extra_inhabitants: 3, flags: DIFlagBigEndian)"#
        );
        // Bit 30: named in LLVM 22; the remainder in 14 when nothing else is named.
        assert_eq!(
            text(ids::METADATA_BASIC_TYPE, &[0, 0x24, 4, 8, 0, 5, 1 << 30], 14),
            r#"!DIBasicType(name: "f", size: 8, encoding: DW_ATE_signed, flags: 1073741824)"#
        );
        assert_eq!(
            text(ids::METADATA_BASIC_TYPE, &[0, 0x24, 4, 8, 0, 5, 1 << 30], 22),
            r#"!DIBasicType(name: "f", size: 8, encoding: DW_ATE_signed, flags: DIFlagNameIsSimplified)"#
        );
        // ... and dropped in 14 once a named flag has been taken out.
        assert_eq!(
            text(ids::METADATA_BASIC_TYPE, &[0, 0x24, 4, 8, 0, 5, 3 | 1 << 30], 14),
            r#"!DIBasicType(name: "f", size: 8, encoding: DW_ATE_signed, flags: DIFlagPublic)"#
        );
        // A subprogram with SPFlags (version 5+): distinct as a definition.
        let sp = [7, 9, 4, 5, 2, 4, 8, 5, 10, 0b1_0001_1000, 0, 64, 1, 0, 10, 3, (-8i64) as u64, 3, 3, 2, 1];
        assert_eq!(
            text(ids::METADATA_SUBPROGRAM, &sp, 22),
            r#"distinct !DISubprogram(name: "f", linkageName: "_f", scope: !8, file: !1, line: 4, type: !7, scopeLine: 5, containingType: !9, thisAdjustment: -8, flags: DIFlagArtificial, spFlags: DISPFlagDefinition | DISPFlagOptimized | DISPFlagMainSubprogram, unit: !0, declaration: !9, retainedNodes: !2, thrownTypes: !2, annotations: !2, targetFuncName: "a.c", keyInstructions: true)"#
        );
        assert!(text(ids::METADATA_SUBPROGRAM, &sp, 14).ends_with(r#"targetFuncName: "a.c")"#));
        // Enumerators: the APInt form (width, sign-rotated words).
        assert_eq!(text(ids::METADATA_ENUMERATOR, &[4, 4, 4, 22], 22), r#"!DIEnumerator(name: "f", value: -5)"#);
        assert_eq!(
            text(ids::METADATA_ENUMERATOR, &[6, 64, 4, 3], 22),
            r#"!DIEnumerator(name: "f", value: 18446744073709551615, isUnsigned: true)"#
        );
        assert_eq!(
            text(ids::METADATA_ENUMERATOR, &[4, 128, 4, 3, (-2i64) as u64], 22),
            r#"!DIEnumerator(name: "f", value: 170141183460469231731687303715884105727)"#
        );
        // Version 2 subrange: constants print inline, a null bound not at all.
        assert_eq!(text(ids::METADATA_SUBRANGE, &[4, 106, 102, 0, 0], 22), "!DISubrange(count: 5, lowerBound: 1)");
        assert_eq!(text(ids::METADATA_SUBRANGE, &[4, 0, 101, 110, 0], 22), "!DISubrange(lowerBound: 0, upperBound: 9)");
        assert_eq!(
            text(ids::METADATA_COMPILE_UNIT, &[1, 12, 2, 4, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 2], 22),
            r#"distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "f", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug, nameTableKind: None)"#
        );
        assert_eq!(text(ids::METADATA_ASSIGN_ID, &[1], 22), "distinct !DIAssignID()");
    }

    /// The layouts only older writers made, read as the loader reads them.
    #[test]
    fn old_layouts() {
        // DISubrange version 0: count and sign-rotated lower bound inline.
        assert_eq!(text(ids::METADATA_SUBRANGE, &[0, 4, 1], 14), "!DISubrange(count: 4, lowerBound: -1)");
        // Version 1: count a reference.
        assert_eq!(text(ids::METADATA_SUBRANGE, &[2, 8, 0], 14), "!DISubrange(count: !7, lowerBound: 0)");
        // The pre-APInt enumerator: a sign-rotated 64-bit value.
        assert_eq!(text(ids::METADATA_ENUMERATOR, &[0, 5, 4], 14), r#"!DIEnumerator(name: "f", value: -3)"#);
        // DISubprogram of LLVM 4-7 (version 4: unit in operand 15, thisAdjustment): the
        // booleans become SPFlags, virtuality from operand 11.
        let sp = [3, 9, 4, 5, 2, 4, 8, 1, 1, 6, 10, 1, 2, 1 << 21, 1, 1, 0, 0, 0, 0xFFFF_FFF8];
        assert_eq!(
            text(ids::METADATA_SUBPROGRAM, &sp, 14),
            r#"distinct !DISubprogram(name: "f", linkageName: "_f", scope: !8, file: !1, line: 4, type: !7, scopeLine: 6, containingType: !9, virtualIndex: 2, thisAdjustment: -8, spFlags: DISPFlagVirtual | DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized | DISPFlagMainSubprogram, unit: !0)"#
        );
        // An SPFlags record without a unit is invalid.
        assert_eq!(decode(ids::METADATA_SUBPROGRAM, &[4; 18]), None);
        // DILocalVariable with the old tag operand.
        assert_eq!(
            text(ids::METADATA_LOCAL_VAR, &[0, 0x100, 9, 4, 2, 3, 7, 1, 64], 14),
            r#"!DILocalVariable(name: "f", arg: 1, scope: !8, file: !1, line: 3, type: !6, flags: DIFlagArtificial)"#
        );
        // DIGlobalVariable version 1: no templateParams, declaration in operand 10.
        assert_eq!(
            text(ids::METADATA_GLOBAL_VAR, &[3, 1, 4, 0, 2, 1, 7, 0, 1, 0, 10, 32], 14),
            r#"distinct !DIGlobalVariable(name: "f", scope: !0, file: !1, line: 1, type: !6, isLocal: false, isDefinition: true, declaration: !9, align: 32)"#
        );
        // DINamespace of LLVM < 5: file and line before the name, which LLVM drops.
        assert_eq!(text(ids::METADATA_NAMESPACE, &[0, 9, 2, 4, 3], 14), r#"!DINamespace(name: "f", scope: !8)"#);
        // DIImportedEntity without a file: its line is dropped too.
        assert_eq!(
            text(ids::METADATA_IMPORTED_ENTITY, &[0, 8, 1, 9, 7, 0], 14),
            "!DIImportedEntity(tag: DW_TAG_imported_declaration, scope: !0, entity: !8)"
        );
        // A null DIGlobalVariableExpression expression reads as an empty one.
        assert_eq!(
            text(ids::METADATA_GLOBAL_VAR_EXPR, &[0, 9, 0], 14),
            "!DIGlobalVariableExpression(var: !8, expr: !DIExpression())"
        );
    }

    /// Every code with every length of a few operand patterns: no panic.
    #[test]
    fn no_panic_on_any_record() {
        let patterns = [0u64, 1, 2, 3, 4, 5, 6, 7, u64::from(u32::MAX), u64::MAX, 1 << 63, 0x7fff_ffff_ffff];
        let mut ops = Vec::new();
        for code in 0..64 {
            for len in 0..30 {
                for &p in &patterns {
                    ops.clear();
                    ops.extend((0..len).map(|i| if i % 3 == 0 { p } else { p.wrapping_mul(i as u64 + 1) }));
                    for first in [0, 1, 2, 3, 4, 5, 6, 7, 8] {
                        if let Some(o) = ops.first_mut() {
                            *o = first;
                        }
                        if let Some((_, n)) = decode(code, &ops) {
                            for v in [14, 19, 22] {
                                let mut s = String::new();
                                write_node(&mut s, &n, &Fake(v)).unwrap();
                            }
                        }
                    }
                }
            }
        }
    }
}

impl DiNode {
    /// The node's metadata operands in LLVM's `MDNode` operand order (which is not the
    /// record's): the order `SlotTracker` numbers the nodes they refer to. Each as the
    /// record stores it, id + 1 (0 for none). Strings are included; they get no number.
    pub(crate) fn operands(&self, out: &mut alloc::vec::Vec<u64>) {
        let mut push = |refs: &[MdRef]| out.extend(refs.iter().map(|r| u64::from(r.0)));
        let int_or_md = |v: IntOrMd| match v {
            IntOrMd::Md(r) => r,
            _ => MdRef(0),
        };
        match self {
            DiNode::Location(n) => push(&[n.scope, n.inlined_at]),
            DiNode::Generic(n) => {
                push(&[n.header]);
                push(n.operands.get(..n.num_operands as usize).unwrap_or(&[]));
            }
            DiNode::Subrange(n) => push(&[int_or_md(n.count), int_or_md(n.lower_bound), n.upper_bound, n.stride]),
            DiNode::GenericSubrange(n) => push(&[n.count, n.lower_bound, n.upper_bound, n.stride]),
            DiNode::Enumerator(n) => push(&[n.name]),
            DiNode::BasicType(n) => push(&[n.file, n.scope, n.name]),
            DiNode::FixedPointType(n) => push(&[n.base.file, n.base.scope, n.base.name]),
            DiNode::StringType(n) => push(&[
                MdRef(0),
                MdRef(0),
                n.name,
                MdRef(0),
                n.string_length,
                n.string_length_exp,
                n.string_location_exp,
            ]),
            DiNode::DerivedType(n) => push(&[n.file, n.scope, n.name, n.base_type, n.extra_data, n.annotations]),
            DiNode::CompositeType(n) => push(&[
                n.file,
                n.scope,
                n.name,
                n.base_type,
                n.elements,
                n.vtable_holder,
                n.template_params,
                n.identifier,
                n.discriminator,
                n.data_location,
                n.associated,
                n.allocated,
                n.rank,
                n.annotations,
                n.specification,
                n.bit_stride,
            ]),
            DiNode::SubroutineType(n) => push(&[MdRef(0), MdRef(0), MdRef(0), n.types]),
            DiNode::File(n) => push(&[n.filename, n.directory, n.source]),
            DiNode::CompileUnit(n) => push(&[
                n.file,
                n.producer,
                n.flags,
                n.split_debug_filename,
                n.enums,
                n.retained_types,
                n.globals,
                n.imports,
                n.macros,
                n.sysroot,
                n.sdk,
            ]),
            DiNode::Subprogram(n) => push(&[
                n.file,
                n.scope,
                n.name,
                n.linkage_name,
                n.type_,
                n.unit,
                n.declaration,
                n.retained_nodes,
                n.containing_type,
                n.template_params,
                n.thrown_types,
                n.annotations,
                n.target_func_name,
            ]),
            DiNode::LexicalBlock(n) => push(&[n.file, n.scope]),
            DiNode::LexicalBlockFile(n) => push(&[n.file, n.scope]),
            DiNode::Namespace(n) => push(&[MdRef(0), n.scope, n.name]),
            DiNode::CommonBlock(n) => push(&[n.scope, n.declaration, n.name, n.file]),
            DiNode::Macro(n) => push(&[n.name, n.value]),
            DiNode::MacroFile(n) => push(&[n.file, n.elements]),
            DiNode::Module(n) => push(&[n.file, n.scope, n.name, n.config_macros, n.include_path, n.apinotes]),
            DiNode::TemplateTypeParameter(n) => push(&[n.name, n.type_]),
            DiNode::TemplateValueParameter(n) => push(&[n.name, n.type_, n.value]),
            DiNode::GlobalVariable(n) => push(&[
                n.scope,
                n.name,
                n.file,
                n.type_,
                n.name,
                n.linkage_name,
                n.declaration,
                n.template_params,
                n.annotations,
            ]),
            DiNode::LocalVariable(n) => push(&[n.scope, n.name, n.file, n.type_, n.annotations]),
            DiNode::Label(n) => push(&[n.scope, n.name, n.file]),
            DiNode::GlobalVariableExpression(n) => push(&[n.var, n.expr]),
            DiNode::ObjCProperty(n) => push(&[n.name, n.file, n.op4_name, n.op5_name, n.type_]),
            DiNode::ImportedEntity(n) => push(&[n.scope, n.entity, n.name, n.file, n.elements]),
            DiNode::AssignId => {}
            DiNode::SubrangeType(n) => {
                push(&[n.file, n.scope, n.name, n.base_type, n.lower_bound, n.upper_bound, n.stride, n.bias])
            }
        }
    }
}
