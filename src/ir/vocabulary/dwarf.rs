//! DWARF and LLVM debug-info vocabularies by number, as `AsmWriter` spells them: the
//! `dwarf::TagString`, `LanguageString`, `AttributeEncodingString`, `ConventionString`,
//! `VirtualityString` and `MacinfoString` tables (from LLVM 22's
//! `llvm/BinaryFormat/Dwarf.def`), the `DIFlag*` and `DISPFlag*` bits
//! (`llvm/IR/DebugInfoFlags.def`) and the compile unit's small enums.
//!
//! Names newer than an old `llvm-dis` are not gated: a file that uses them cannot have
//! been written for that tool. The one flag whose spelling depends on the version is
//! gated where it is printed (`DIFlagNameIsSimplified`, bit 30, LLVM 22; LLVM 14 and
//! 19 print that bit as part of the decimal remainder).

/// `DW_TAG_*` (`dwarf::TagString`).
pub(crate) fn tag_name(v: u64) -> Option<&'static str> {
    Some(match v {
        0x0 => "DW_TAG_null",
        0x1 => "DW_TAG_array_type",
        0x2 => "DW_TAG_class_type",
        0x3 => "DW_TAG_entry_point",
        0x4 => "DW_TAG_enumeration_type",
        0x5 => "DW_TAG_formal_parameter",
        0x8 => "DW_TAG_imported_declaration",
        0xa => "DW_TAG_label",
        0xb => "DW_TAG_lexical_block",
        0xd => "DW_TAG_member",
        0xf => "DW_TAG_pointer_type",
        0x10 => "DW_TAG_reference_type",
        0x11 => "DW_TAG_compile_unit",
        0x12 => "DW_TAG_string_type",
        0x13 => "DW_TAG_structure_type",
        0x15 => "DW_TAG_subroutine_type",
        0x16 => "DW_TAG_typedef",
        0x17 => "DW_TAG_union_type",
        0x18 => "DW_TAG_unspecified_parameters",
        0x19 => "DW_TAG_variant",
        0x1a => "DW_TAG_common_block",
        0x1b => "DW_TAG_common_inclusion",
        0x1c => "DW_TAG_inheritance",
        0x1d => "DW_TAG_inlined_subroutine",
        0x1e => "DW_TAG_module",
        0x1f => "DW_TAG_ptr_to_member_type",
        0x20 => "DW_TAG_set_type",
        0x21 => "DW_TAG_subrange_type",
        0x22 => "DW_TAG_with_stmt",
        0x23 => "DW_TAG_access_declaration",
        0x24 => "DW_TAG_base_type",
        0x25 => "DW_TAG_catch_block",
        0x26 => "DW_TAG_const_type",
        0x27 => "DW_TAG_constant",
        0x28 => "DW_TAG_enumerator",
        0x29 => "DW_TAG_file_type",
        0x2a => "DW_TAG_friend",
        0x2b => "DW_TAG_namelist",
        0x2c => "DW_TAG_namelist_item",
        0x2d => "DW_TAG_packed_type",
        0x2e => "DW_TAG_subprogram",
        0x2f => "DW_TAG_template_type_parameter",
        0x30 => "DW_TAG_template_value_parameter",
        0x31 => "DW_TAG_thrown_type",
        0x32 => "DW_TAG_try_block",
        0x33 => "DW_TAG_variant_part",
        0x34 => "DW_TAG_variable",
        0x35 => "DW_TAG_volatile_type",
        0x36 => "DW_TAG_dwarf_procedure",
        0x37 => "DW_TAG_restrict_type",
        0x38 => "DW_TAG_interface_type",
        0x39 => "DW_TAG_namespace",
        0x3a => "DW_TAG_imported_module",
        0x3b => "DW_TAG_unspecified_type",
        0x3c => "DW_TAG_partial_unit",
        0x3d => "DW_TAG_imported_unit",
        0x3f => "DW_TAG_condition",
        0x40 => "DW_TAG_shared_type",
        0x41 => "DW_TAG_type_unit",
        0x42 => "DW_TAG_rvalue_reference_type",
        0x43 => "DW_TAG_template_alias",
        0x44 => "DW_TAG_coarray_type",
        0x45 => "DW_TAG_generic_subrange",
        0x46 => "DW_TAG_dynamic_type",
        0x47 => "DW_TAG_atomic_type",
        0x48 => "DW_TAG_call_site",
        0x49 => "DW_TAG_call_site_parameter",
        0x4a => "DW_TAG_skeleton_unit",
        0x4b => "DW_TAG_immutable_type",
        0x4081 => "DW_TAG_MIPS_loop",
        0x4101 => "DW_TAG_format_label",
        0x4102 => "DW_TAG_function_template",
        0x4103 => "DW_TAG_class_template",
        0x4104 => "DW_TAG_GNU_BINCL",
        0x4105 => "DW_TAG_GNU_EINCL",
        0x4106 => "DW_TAG_GNU_template_template_param",
        0x4107 => "DW_TAG_GNU_template_parameter_pack",
        0x4108 => "DW_TAG_GNU_formal_parameter_pack",
        0x4109 => "DW_TAG_GNU_call_site",
        0x410a => "DW_TAG_GNU_call_site_parameter",
        0x4200 => "DW_TAG_APPLE_property",
        0x4201 => "DW_TAG_SUN_function_template",
        0x4202 => "DW_TAG_SUN_class_template",
        0x4203 => "DW_TAG_SUN_struct_template",
        0x4204 => "DW_TAG_SUN_union_template",
        0x4205 => "DW_TAG_SUN_indirect_inheritance",
        0x4206 => "DW_TAG_SUN_codeflags",
        0x4207 => "DW_TAG_SUN_memop_info",
        0x4208 => "DW_TAG_SUN_omp_child_func",
        0x4209 => "DW_TAG_SUN_rtti_descriptor",
        0x420a => "DW_TAG_SUN_dtor_info",
        0x420b => "DW_TAG_SUN_dtor",
        0x420c => "DW_TAG_SUN_f90_interface",
        0x420d => "DW_TAG_SUN_fortran_vax_structure",
        0x42ff => "DW_TAG_SUN_hi",
        0x4300 => "DW_TAG_LLVM_ptrauth_type",
        0x5101 => "DW_TAG_ALTIUM_circ_type",
        0x5102 => "DW_TAG_ALTIUM_mwa_circ_type",
        0x5103 => "DW_TAG_ALTIUM_rev_carry_type",
        0x5111 => "DW_TAG_ALTIUM_rom",
        0x6000 => "DW_TAG_LLVM_annotation",
        0x8004 => "DW_TAG_GHS_namespace",
        0x8005 => "DW_TAG_GHS_using_namespace",
        0x8006 => "DW_TAG_GHS_using_declaration",
        0x8007 => "DW_TAG_GHS_template_templ_param",
        0x8765 => "DW_TAG_UPC_shared_type",
        0x8766 => "DW_TAG_UPC_strict_type",
        0x8767 => "DW_TAG_UPC_relaxed",
        0xa000 => "DW_TAG_PGI_kanji_type",
        0xa020 => "DW_TAG_PGI_interface_block",
        0xb000 => "DW_TAG_BORLAND_property",
        0xb001 => "DW_TAG_BORLAND_Delphi_string",
        0xb002 => "DW_TAG_BORLAND_Delphi_dynamic_array",
        0xb003 => "DW_TAG_BORLAND_Delphi_set",
        0xb004 => "DW_TAG_BORLAND_Delphi_variant",
        _ => return None,
    })
}

/// `DW_LANG_*` (`dwarf::LanguageString`).
pub(crate) fn lang_name(v: u64) -> Option<&'static str> {
    Some(match v {
        0x1 => "DW_LANG_C89",
        0x2 => "DW_LANG_C",
        0x3 => "DW_LANG_Ada83",
        0x4 => "DW_LANG_C_plus_plus",
        0x5 => "DW_LANG_Cobol74",
        0x6 => "DW_LANG_Cobol85",
        0x7 => "DW_LANG_Fortran77",
        0x8 => "DW_LANG_Fortran90",
        0x9 => "DW_LANG_Pascal83",
        0xa => "DW_LANG_Modula2",
        0xb => "DW_LANG_Java",
        0xc => "DW_LANG_C99",
        0xd => "DW_LANG_Ada95",
        0xe => "DW_LANG_Fortran95",
        0xf => "DW_LANG_PLI",
        0x10 => "DW_LANG_ObjC",
        0x11 => "DW_LANG_ObjC_plus_plus",
        0x12 => "DW_LANG_UPC",
        0x13 => "DW_LANG_D",
        0x14 => "DW_LANG_Python",
        0x15 => "DW_LANG_OpenCL",
        0x16 => "DW_LANG_Go",
        0x17 => "DW_LANG_Modula3",
        0x18 => "DW_LANG_Haskell",
        0x19 => "DW_LANG_C_plus_plus_03",
        0x1a => "DW_LANG_C_plus_plus_11",
        0x1b => "DW_LANG_OCaml",
        0x1c => "DW_LANG_Rust",
        0x1d => "DW_LANG_C11",
        0x1e => "DW_LANG_Swift",
        0x1f => "DW_LANG_Julia",
        0x20 => "DW_LANG_Dylan",
        0x21 => "DW_LANG_C_plus_plus_14",
        0x22 => "DW_LANG_Fortran03",
        0x23 => "DW_LANG_Fortran08",
        0x24 => "DW_LANG_RenderScript",
        0x25 => "DW_LANG_BLISS",
        0x26 => "DW_LANG_Kotlin",
        0x27 => "DW_LANG_Zig",
        0x28 => "DW_LANG_Crystal",
        0x2a => "DW_LANG_C_plus_plus_17",
        0x2b => "DW_LANG_C_plus_plus_20",
        0x2c => "DW_LANG_C17",
        0x2d => "DW_LANG_Fortran18",
        0x2e => "DW_LANG_Ada2005",
        0x2f => "DW_LANG_Ada2012",
        0x30 => "DW_LANG_HIP",
        0x31 => "DW_LANG_Assembly",
        0x32 => "DW_LANG_C_sharp",
        0x33 => "DW_LANG_Mojo",
        0x34 => "DW_LANG_GLSL",
        0x35 => "DW_LANG_GLSL_ES",
        0x36 => "DW_LANG_HLSL",
        0x37 => "DW_LANG_OpenCL_CPP",
        0x38 => "DW_LANG_CPP_for_OpenCL",
        0x39 => "DW_LANG_SYCL",
        0x3d => "DW_LANG_Metal",
        0x40 => "DW_LANG_Ruby",
        0x41 => "DW_LANG_Move",
        0x42 => "DW_LANG_Hylo",
        0x8001 => "DW_LANG_Mips_Assembler",
        0x8e57 => "DW_LANG_GOOGLE_RenderScript",
        0xb000 => "DW_LANG_BORLAND_Delphi",
        _ => return None,
    })
}

/// `DW_LNAME_*` (`dwarf::SourceLanguageNameString`), the versioned language names of DWARF 6.
pub(crate) fn lname_name(v: u64) -> Option<&'static str> {
    Some(match v {
        0x1 => "DW_LNAME_Ada",
        0x2 => "DW_LNAME_BLISS",
        0x3 => "DW_LNAME_C",
        0x4 => "DW_LNAME_C_plus_plus",
        0x5 => "DW_LNAME_Cobol",
        0x6 => "DW_LNAME_Crystal",
        0x7 => "DW_LNAME_D",
        0x8 => "DW_LNAME_Dylan",
        0x9 => "DW_LNAME_Fortran",
        0xa => "DW_LNAME_Go",
        0xb => "DW_LNAME_Haskell",
        0xc => "DW_LNAME_Java",
        0xd => "DW_LNAME_Julia",
        0xe => "DW_LNAME_Kotlin",
        0xf => "DW_LNAME_Modula2",
        0x10 => "DW_LNAME_Modula3",
        0x11 => "DW_LNAME_ObjC",
        0x12 => "DW_LNAME_ObjC_plus_plus",
        0x13 => "DW_LNAME_OCaml",
        0x14 => "DW_LNAME_OpenCL_C",
        0x15 => "DW_LNAME_Pascal",
        0x16 => "DW_LNAME_PLI",
        0x17 => "DW_LNAME_Python",
        0x18 => "DW_LNAME_RenderScript",
        0x19 => "DW_LNAME_Rust",
        0x1a => "DW_LNAME_Swift",
        0x1b => "DW_LNAME_UPC",
        0x1c => "DW_LNAME_Zig",
        0x1d => "DW_LNAME_Assembly",
        0x1e => "DW_LNAME_C_sharp",
        0x1f => "DW_LNAME_Mojo",
        0x20 => "DW_LNAME_GLSL",
        0x21 => "DW_LNAME_GLSL_ES",
        0x22 => "DW_LNAME_HLSL",
        0x23 => "DW_LNAME_OpenCL_CPP",
        0x24 => "DW_LNAME_CPP_for_OpenCL",
        0x25 => "DW_LNAME_SYCL",
        0x26 => "DW_LNAME_Ruby",
        0x27 => "DW_LNAME_Move",
        0x28 => "DW_LNAME_Hylo",
        0x2c => "DW_LNAME_Metal",
        _ => return None,
    })
}

/// `DW_ATE_*` (`dwarf::AttributeEncodingString`).
pub(crate) fn ate_name(v: u64) -> Option<&'static str> {
    Some(match v {
        0x1 => "DW_ATE_address",
        0x2 => "DW_ATE_boolean",
        0x3 => "DW_ATE_complex_float",
        0x4 => "DW_ATE_float",
        0x5 => "DW_ATE_signed",
        0x6 => "DW_ATE_signed_char",
        0x7 => "DW_ATE_unsigned",
        0x8 => "DW_ATE_unsigned_char",
        0x9 => "DW_ATE_imaginary_float",
        0xa => "DW_ATE_packed_decimal",
        0xb => "DW_ATE_numeric_string",
        0xc => "DW_ATE_edited",
        0xd => "DW_ATE_signed_fixed",
        0xe => "DW_ATE_unsigned_fixed",
        0xf => "DW_ATE_decimal_float",
        0x10 => "DW_ATE_UTF",
        0x11 => "DW_ATE_UCS",
        0x12 => "DW_ATE_ASCII",
        0x81 => "DW_ATE_HP_complex_float",
        0x82 => "DW_ATE_HP_float128",
        0x83 => "DW_ATE_HP_complex_float128",
        0x84 => "DW_ATE_HP_floathpintel",
        0x85 => "DW_ATE_HP_imaginary_float90",
        0x86 => "DW_ATE_HP_imaginary_float128",
        _ => return None,
    })
}

/// `DW_CC_*` (`dwarf::ConventionString`).
pub(crate) fn cc_name(v: u64) -> Option<&'static str> {
    Some(match v {
        0x1 => "DW_CC_normal",
        0x2 => "DW_CC_program",
        0x3 => "DW_CC_nocall",
        0x4 => "DW_CC_pass_by_reference",
        0x5 => "DW_CC_pass_by_value",
        0x40 => "DW_CC_GNU_renesas_sh",
        0x41 => "DW_CC_GNU_borland_fastcall_i386",
        0xb0 => "DW_CC_BORLAND_safecall",
        0xb1 => "DW_CC_BORLAND_stdcall",
        0xb2 => "DW_CC_BORLAND_pascal",
        0xb3 => "DW_CC_BORLAND_msfastcall",
        0xb4 => "DW_CC_BORLAND_msreturn",
        0xb5 => "DW_CC_BORLAND_thiscall",
        0xb6 => "DW_CC_BORLAND_fastcall",
        0xc0 => "DW_CC_LLVM_vectorcall",
        0xc1 => "DW_CC_LLVM_Win64",
        0xc2 => "DW_CC_LLVM_X86_64SysV",
        0xc3 => "DW_CC_LLVM_AAPCS",
        0xc4 => "DW_CC_LLVM_AAPCS_VFP",
        0xc5 => "DW_CC_LLVM_IntelOclBicc",
        0xc6 => "DW_CC_LLVM_SpirFunction",
        0xc7 => "DW_CC_LLVM_DeviceKernel",
        0xc8 => "DW_CC_LLVM_Swift",
        0xc9 => "DW_CC_LLVM_PreserveMost",
        0xca => "DW_CC_LLVM_PreserveAll",
        0xcb => "DW_CC_LLVM_X86RegCall",
        0xcc => "DW_CC_LLVM_M68kRTD",
        0xcd => "DW_CC_LLVM_PreserveNone",
        0xce => "DW_CC_LLVM_RISCVVectorCall",
        0xcf => "DW_CC_LLVM_SwiftTail",
        0xd0 => "DW_CC_LLVM_RISCVVLSCall",
        0xff => "DW_CC_GDB_IBM_OpenCL",
        _ => return None,
    })
}

/// `DW_APPLE_ENUM_KIND_*` (`dwarf::EnumKindString`).
pub(crate) fn apple_enum_kind_name(v: u64) -> Option<&'static str> {
    Some(match v {
        0x0 => "DW_APPLE_ENUM_KIND_Closed",
        0x1 => "DW_APPLE_ENUM_KIND_Open",
        _ => return None,
    })
}

/// `DW_MACINFO_*` (`dwarf::MacinfoString`): the types a `DIMacro`/`DIMacroFile` has.
pub(crate) fn macinfo_name(v: u64) -> Option<&'static str> {
    Some(match v {
        0x01 => "DW_MACINFO_define",
        0x02 => "DW_MACINFO_undef",
        0x03 => "DW_MACINFO_start_file",
        0x04 => "DW_MACINFO_end_file",
        0xff => "DW_MACINFO_vendor_ext",
        _ => return None,
    })
}

/// `DIFile::ChecksumKind` as `getKindAsString` spells it.
pub(crate) fn checksum_kind_name(v: u64) -> Option<&'static str> {
    Some(match v {
        1 => "CSK_MD5",
        2 => "CSK_SHA1",
        3 => "CSK_SHA256",
        _ => return None,
    })
}

/// `DICompileUnit::DebugEmissionKind` (`emissionKindString`).
pub(crate) fn emission_kind_name(v: u64) -> Option<&'static str> {
    Some(match v {
        0 => "NoDebug",
        1 => "FullDebug",
        2 => "LineTablesOnly",
        3 => "DebugDirectivesOnly",
        _ => return None,
    })
}

/// `DICompileUnit::DebugNameTableKind` (`nameTableKindString`).
pub(crate) fn name_table_kind_name(v: u64) -> Option<&'static str> {
    Some(match v {
        0 => "Default",
        1 => "GNU",
        2 => "None",
        3 => "Apple",
        _ => return None,
    })
}

/// The single-bit `DIFlag*`s in `DebugInfoFlags.def` order, which is the order
/// `DINode::splitFlags` takes them out and so the order they print in. The packed fields
/// (accessibility, bits 0-1; pointer-to-member representation, bits 16-17) and
/// `DIFlagIndirectVirtualBase` (bits 2 and 5 together) are handled before this list by
/// [`split_di_flags`]. `NameIsSimplified` is LLVM 22's (older versions print the bit in
/// the remainder), so it is last and cut off by `DI_FLAGS_BEFORE_22`.
pub(crate) const DI_FLAGS: &[(u32, &str)] = &[
    (1 << 2, "DIFlagFwdDecl"),
    (1 << 3, "DIFlagAppleBlock"),
    (1 << 4, "DIFlagReservedBit4"),
    (1 << 5, "DIFlagVirtual"),
    (1 << 6, "DIFlagArtificial"),
    (1 << 7, "DIFlagExplicit"),
    (1 << 8, "DIFlagPrototyped"),
    (1 << 9, "DIFlagObjcClassComplete"),
    (1 << 10, "DIFlagObjectPointer"),
    (1 << 11, "DIFlagVector"),
    (1 << 12, "DIFlagStaticMember"),
    (1 << 13, "DIFlagLValueReference"),
    (1 << 14, "DIFlagRValueReference"),
    (1 << 15, "DIFlagExportSymbols"),
    (1 << 18, "DIFlagIntroducedVirtual"),
    (1 << 19, "DIFlagBitField"),
    (1 << 20, "DIFlagNoReturn"),
    (1 << 22, "DIFlagTypePassByValue"),
    (1 << 23, "DIFlagTypePassByReference"),
    (1 << 24, "DIFlagEnumClass"),
    (1 << 25, "DIFlagThunk"),
    (1 << 26, "DIFlagNonTrivial"),
    (1 << 27, "DIFlagBigEndian"),
    (1 << 28, "DIFlagLittleEndian"),
    (1 << 29, "DIFlagAllCallsDescribed"),
    (1 << 30, "DIFlagNameIsSimplified"),
];

/// How many of [`DI_FLAGS`] LLVM 14 and 19 know (all but `DIFlagNameIsSimplified`).
const DI_FLAGS_BEFORE_22: usize = DI_FLAGS.len() - 1;

/// `DINode::splitFlags`: the names of the flags set in `flags`, in print order, then the
/// bits no name covers (printed in decimal after them, or alone when nothing is named).
///
/// DIFlags is an `LLVM_MARK_AS_BITMASK_ENUM`, whose `~` keeps only the bits up to the
/// largest flag: once a flag has been taken out (`Flags &= ~Bit`), bits above it are
/// lost and never print. The largest is bit 29 in LLVM 14 and 19, bit 30 in LLVM 22.
pub(crate) fn split_di_flags(
    flags: u32,
    llvm_version: u32,
    mut name: impl FnMut(&'static str) -> core::fmt::Result,
) -> Result<u32, core::fmt::Error> {
    let mask: u32 = if llvm_version >= 22 { (1 << 31) - 1 } else { (1 << 30) - 1 };
    let mut rest = flags;
    let mut take = |rest: &mut u32, bits: u32, n: &'static str| {
        *rest &= !bits & mask;
        name(n)
    };
    match flags & 3 {
        0 => {}
        1 => take(&mut rest, 3, "DIFlagPrivate")?,
        2 => take(&mut rest, 3, "DIFlagProtected")?,
        _ => take(&mut rest, 3, "DIFlagPublic")?,
    }
    match flags & (3 << 16) {
        0 => {}
        0x1_0000 => take(&mut rest, 3 << 16, "DIFlagSingleInheritance")?,
        0x2_0000 => take(&mut rest, 3 << 16, "DIFlagMultipleInheritance")?,
        _ => take(&mut rest, 3 << 16, "DIFlagVirtualInheritance")?,
    }
    const INDIRECT_VIRTUAL_BASE: u32 = (1 << 2) | (1 << 5);
    if rest & INDIRECT_VIRTUAL_BASE == INDIRECT_VIRTUAL_BASE {
        take(&mut rest, INDIRECT_VIRTUAL_BASE, "DIFlagIndirectVirtualBase")?;
    }
    let known = if llvm_version >= 22 { DI_FLAGS } else { &DI_FLAGS[..DI_FLAGS_BEFORE_22] };
    for &(bit, n) in known {
        if rest & bit != 0 {
            take(&mut rest, bit, n)?;
        }
    }
    Ok(rest)
}

/// `DISubprogram::splitFlags`, as [`split_di_flags`]: the bits past the largest flag
/// (bit 11, the same in LLVM 14, 19 and 22) are lost once a flag is taken out.
pub(crate) fn split_sp_flags(
    flags: u32,
    mut name: impl FnMut(&'static str) -> core::fmt::Result,
) -> Result<u32, core::fmt::Error> {
    const MASK: u32 = (1 << 12) - 1;
    let mut rest = flags;
    for &(bit, n) in SP_FLAGS {
        if rest & bit != 0 {
            rest &= !bit & MASK;
            name(n)?;
        }
    }
    Ok(rest)
}

/// The `DISPFlag*`s in `DebugInfoFlags.def` order (`DISubprogram::splitFlags`); the same
/// in LLVM 14, 19 and 22. Virtuality (bits 0-1) needs no special case: its two values
/// are single bits.
pub(crate) const SP_FLAGS: &[(u32, &str)] = &[
    (1, "DISPFlagVirtual"),
    (2, "DISPFlagPureVirtual"),
    (1 << 2, "DISPFlagLocalToUnit"),
    (1 << 3, "DISPFlagDefinition"),
    (1 << 4, "DISPFlagOptimized"),
    (1 << 5, "DISPFlagPure"),
    (1 << 6, "DISPFlagElemental"),
    (1 << 7, "DISPFlagRecursive"),
    (1 << 8, "DISPFlagMainSubprogram"),
    (1 << 9, "DISPFlagDeleted"),
    (1 << 11, "DISPFlagObjCDirect"),
];
