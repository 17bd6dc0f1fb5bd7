//! The debug-info nodes, one Copy struct per `DI*` kind, with the fields LLVM's
//! `MetadataLoader.cpp` reads from each record ([`super::decode()`] fills them) and
//! `AsmWriter.cpp` prints; and each node's metadata operands in LLVM's `MDNode` order
//! ([`DiNode::operands`]), which the slot tracker and the type order walk.

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
    pub(super) fn or_null(op: u64) -> MdRef {
        MdRef(u32::try_from(op).unwrap_or(u32::MAX))
    }

    /// `getMD(op)`: the operand is the id itself.
    pub(super) fn raw(op: u64) -> MdRef {
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

/// An `APInt` of at most 128 bits: its width and its bits (zero above the width).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Apint {
    /// The bit width (0 to 128).
    pub(crate) bits: u8,
    /// The value, zero-extended.
    pub(crate) value: u128,
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
