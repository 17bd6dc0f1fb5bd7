//! Debug-info nodes printed as `AsmWriter.cpp` prints them ([`write_node`]), for
//! `llvm-dis` 14, 19 or 22, from the nodes the metadata layer decodes
//! ([`crate::ir::metadata::di`]).
//!
//! Printing knows nothing of slot numbers or of other nodes: a reference is written by
//! the caller ([`MdWriter::write_ref`]), and what `AsmWriter` asks of the node a field
//! points to (a string's bytes, a constant's value, an expression's elements) is asked
//! through the other [`MdWriter`] methods.

use core::fmt::{self, Write};

use crate::ir::metadata::di::{Apint, DiNode, IntOrMd, MdRef};
use crate::ir::print::escape::write_escaped;
use crate::ir::vocabulary::dwarf;

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
    /// The elements when `r` is a DIExpression, as LLVM reads them: `!DIGenericSubrange`
    /// prints a bound that is `DW_OP_consts N` as the number.
    fn expression(&self, r: MdRef) -> Option<alloc::borrow::Cow<'_, [u64]>>;
}

/// A field's name with the separator before it and the colon after it (`, line: `),
/// made only by [`field!`], so that a field is one write (three were 6% of `--dis` on
/// sqlite3's debug info).
#[derive(Clone, Copy)]
struct FieldName(&'static str);

/// The [`FieldName`] of a field named `$name`.
macro_rules! field {
    ($name:literal) => {
        FieldName(concat!(", ", $name, ": "))
    };
}

/// `MDFieldPrinter`: the fields of one node, separated by `, `.
struct Fields<'a> {
    f: &'a mut dyn Write,
    w: &'a dyn MdWriter,
    first: bool,
}

impl Fields<'_> {
    /// `FS << Name << ": "`, after `, ` unless it is the first field.
    fn name(&mut self, name: FieldName) -> fmt::Result {
        let text = if self.first { name.0.get(2..).unwrap_or(name.0) } else { name.0 };
        self.first = false;
        self.f.write_str(text)
    }
    /// `printString`: an MDString field, skipped when empty if `skip_empty`.
    fn string(&mut self, name: FieldName, r: MdRef, skip_empty: bool) -> fmt::Result {
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
    fn md(&mut self, name: FieldName, r: MdRef, skip_null: bool) -> fmt::Result {
        if skip_null && r.is_null() {
            return Ok(());
        }
        self.name(name)?;
        if r.is_null() { self.f.write_str("null") } else { self.w.write_ref(self.f, r) }
    }
    /// `printInt` of an unsigned field.
    fn int(&mut self, name: FieldName, v: u64, skip_zero: bool) -> fmt::Result {
        if skip_zero && v == 0 {
            return Ok(());
        }
        self.name(name)?;
        super::write_decimal(self.f, v)
    }
    /// `printInt` of a signed field.
    fn sint(&mut self, name: FieldName, v: i64, skip_zero: bool) -> fmt::Result {
        if skip_zero && v == 0 {
            return Ok(());
        }
        self.name(name)?;
        if v < 0 {
            self.f.write_char('-')?;
        }
        super::write_decimal(self.f, v.unsigned_abs())
    }
    /// `printBool`: skipped when equal to `default`.
    fn boolean(&mut self, name: FieldName, v: bool, default: Option<bool>) -> fmt::Result {
        if default == Some(v) {
            return Ok(());
        }
        self.name(name)?;
        self.f.write_str(if v { "true" } else { "false" })
    }
    /// `printDwarfEnum`: the name from `table`, or the number. LLVM 14 and 19 skip zero
    /// whatever the caller asks (`if (!Value) return;`); LLVM 22 prints it when told not
    /// to skip it (`language: 0`, `enumKind: DW_APPLE_ENUM_KIND_Closed`).
    fn dwarf(
        &mut self,
        name: FieldName,
        v: u64,
        table: fn(u64) -> Option<&'static str>,
        skip_zero: bool,
    ) -> fmt::Result {
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
        self.name(field!("tag"))?;
        match dwarf::tag_name(u64::from(tag)) {
            Some(s) => self.f.write_str(s),
            None => write!(self.f, "{tag}"),
        }
    }
    /// `printDIFlags`: `DIFlagA | DIFlagB`, the unnamed bits in decimal after them.
    fn di_flags(&mut self, name: FieldName, flags: u32) -> fmt::Result {
        if flags == 0 {
            return Ok(());
        }
        self.name(name)?;
        let version = self.w.llvm_version();
        self.flag_names(|each| dwarf::split_di_flags(flags, version, each))
    }
    /// `printDISPFlags`: always printed (no flags at all would read back as the old
    /// `isDefinition: true`), `0` when empty.
    fn sp_flags(&mut self, name: FieldName, flags: u32) -> fmt::Result {
        self.name(name)?;
        self.flag_names(|each| dwarf::split_sp_flags(flags, each))
    }
    /// The flag names `split` passes to `each`, joined by ` | `, then the bits it returns
    /// as unnamed in decimal (`0` when there is no name either).
    fn flag_names(
        &mut self,
        split: impl FnOnce(&mut dyn FnMut(&'static str) -> fmt::Result) -> Result<u32, fmt::Error>,
    ) -> fmt::Result {
        let f = &mut *self.f;
        let mut any = false;
        let rest = split(&mut |n| {
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
    fn size(&mut self, name: FieldName, v: IntOrMd) -> fmt::Result {
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
    fn bound(&mut self, name: FieldName, v: IntOrMd) -> fmt::Result {
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
    fn generic_bound(&mut self, name: FieldName, r: MdRef) -> fmt::Result {
        match self.w.expression(r).as_deref() {
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
    // `!DIKind(` in one write.
    let opening = match node {
        DiNode::Location(_) => "!DILocation(",
        DiNode::Generic(_) => "!GenericDINode(",
        DiNode::Subrange(_) => "!DISubrange(",
        DiNode::GenericSubrange(_) => "!DIGenericSubrange(",
        DiNode::Enumerator(_) => "!DIEnumerator(",
        DiNode::BasicType(_) => "!DIBasicType(",
        DiNode::FixedPointType(_) => "!DIFixedPointType(",
        DiNode::StringType(_) => "!DIStringType(",
        DiNode::DerivedType(_) => "!DIDerivedType(",
        DiNode::CompositeType(_) => "!DICompositeType(",
        DiNode::SubroutineType(_) => "!DISubroutineType(",
        DiNode::File(_) => "!DIFile(",
        DiNode::CompileUnit(_) => "!DICompileUnit(",
        DiNode::Subprogram(_) => "!DISubprogram(",
        DiNode::LexicalBlock(_) => "!DILexicalBlock(",
        DiNode::LexicalBlockFile(_) => "!DILexicalBlockFile(",
        DiNode::Namespace(_) => "!DINamespace(",
        DiNode::CommonBlock(_) => "!DICommonBlock(",
        DiNode::Macro(_) => "!DIMacro(",
        DiNode::MacroFile(_) => "!DIMacroFile(",
        DiNode::Module(_) => "!DIModule(",
        DiNode::TemplateTypeParameter(_) => "!DITemplateTypeParameter(",
        DiNode::TemplateValueParameter(_) => "!DITemplateValueParameter(",
        DiNode::GlobalVariable(_) => "!DIGlobalVariable(",
        DiNode::LocalVariable(_) => "!DILocalVariable(",
        DiNode::Label(_) => "!DILabel(",
        DiNode::GlobalVariableExpression(_) => "!DIGlobalVariableExpression(",
        DiNode::ObjCProperty(_) => "!DIObjCProperty(",
        DiNode::ImportedEntity(_) => "!DIImportedEntity(",
        DiNode::AssignId => "!DIAssignID(",
        DiNode::SubrangeType(_) => "!DISubrangeType(",
    };
    f.write_str(opening)?;
    let mut p = Fields { f, w, first: true };
    match node {
        DiNode::Location(n) => {
            // Line is always printed: 0 is a meaningful line.
            p.int(field!("line"), n.line.into(), false)?;
            p.int(field!("column"), n.column.into(), true)?;
            p.md(field!("scope"), n.scope, false)?;
            p.md(field!("inlinedAt"), n.inlined_at, true)?;
            p.boolean(field!("isImplicitCode"), n.is_implicit_code, Some(false))?;
            if v >= 21 {
                p.int(field!("atomGroup"), n.atom_group, true)?;
                p.int(field!("atomRank"), n.atom_rank.into(), true)?;
            }
        }
        DiNode::Generic(n) => {
            p.tag(n.tag)?;
            p.string(field!("header"), n.header, true)?;
            if n.num_operands > 0 {
                p.name(field!("operands"))?;
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
            p.bound(field!("count"), n.count)?;
            p.bound(field!("lowerBound"), n.lower_bound)?;
            p.bound(field!("upperBound"), IntOrMd::Md(n.upper_bound))?;
            p.bound(field!("stride"), IntOrMd::Md(n.stride))?;
        }
        DiNode::GenericSubrange(n) => {
            p.generic_bound(field!("count"), n.count)?;
            p.generic_bound(field!("lowerBound"), n.lower_bound)?;
            p.generic_bound(field!("upperBound"), n.upper_bound)?;
            p.generic_bound(field!("stride"), n.stride)?;
        }
        DiNode::Enumerator(n) => {
            p.string(field!("name"), n.name, false)?;
            p.name(field!("value"))?;
            write_apint(p.f, n.value, !n.is_unsigned)?;
            if n.is_unsigned {
                p.boolean(field!("isUnsigned"), true, None)?;
            }
        }
        DiNode::BasicType(n) => {
            if n.tag != 0x24 {
                p.tag(n.tag)?;
            }
            p.string(field!("name"), n.name, true)?;
            p.size(field!("size"), n.size)?;
            p.int(field!("align"), n.align.into(), true)?;
            if v >= 21 {
                p.int(field!("dataSize"), n.data_size.into(), true)?;
            }
            p.dwarf(field!("encoding"), n.encoding.into(), dwarf::ate_name, true)?;
            if v >= 20 {
                p.int(field!("num_extra_inhabitants"), n.num_extra_inhabitants.into(), true)?;
            }
            p.di_flags(field!("flags"), n.flags)?;
        }
        DiNode::FixedPointType(n) => {
            let b = &n.base;
            if b.tag != 0x24 {
                p.tag(b.tag)?;
            }
            p.string(field!("name"), b.name, true)?;
            p.size(field!("size"), b.size)?;
            p.int(field!("align"), b.align.into(), true)?;
            p.dwarf(field!("encoding"), b.encoding.into(), dwarf::ate_name, true)?;
            p.di_flags(field!("flags"), b.flags)?;
            p.name(field!("kind"))?;
            match n.kind {
                0 => p.f.write_str("Binary")?,
                1 => p.f.write_str("Decimal")?,
                2 => p.f.write_str("Rational")?,
                k => write!(p.f, "{k}")?,
            }
            if n.kind == 2 {
                // Signed as the encoding is (DW_ATE_signed_fixed), zero printed.
                let signed = b.encoding == 0x0d;
                p.name(field!("numerator"))?;
                write_apint(p.f, n.numerator, signed)?;
                p.name(field!("denominator"))?;
                write_apint(p.f, n.denominator, signed)?;
            } else {
                p.sint(field!("factor"), n.factor.into(), true)?;
            }
        }
        DiNode::StringType(n) => {
            if n.tag != 0x12 {
                p.tag(n.tag)?;
            }
            p.string(field!("name"), n.name, true)?;
            p.md(field!("stringLength"), n.string_length, true)?;
            p.md(field!("stringLengthExpression"), n.string_length_exp, true)?;
            p.md(field!("stringLocationExpression"), n.string_location_exp, true)?;
            p.size(field!("size"), n.size)?;
            p.int(field!("align"), n.align.into(), true)?;
            p.dwarf(field!("encoding"), n.encoding.into(), dwarf::ate_name, true)?;
        }
        DiNode::DerivedType(n) => {
            p.tag(n.tag)?;
            p.string(field!("name"), n.name, true)?;
            p.md(field!("scope"), n.scope, true)?;
            p.md(field!("file"), n.file, true)?;
            p.int(field!("line"), n.line.into(), true)?;
            p.md(field!("baseType"), n.base_type, false)?;
            p.size(field!("size"), n.size)?;
            p.int(field!("align"), n.align.into(), true)?;
            p.size(field!("offset"), n.offset)?;
            p.di_flags(field!("flags"), n.flags)?;
            p.md(field!("extraData"), n.extra_data, true)?;
            if let Some(space) = n.dwarf_address_space {
                p.int(field!("dwarfAddressSpace"), space.into(), false)?;
            }
            // LLVM 19+ reads operand 13 only when operand 14 (ptrauth) is there too.
            if v < 19 || n.has_ptr_auth_slot {
                p.md(field!("annotations"), n.annotations, true)?;
            }
            if v >= 19 && n.tag == 0x4300 {
                let d = n.ptr_auth_data;
                p.int(field!("ptrAuthKey"), (d & 0xf).into(), true)?;
                p.boolean(field!("ptrAuthIsAddressDiscriminated"), d >> 4 & 1 != 0, None)?;
                p.int(field!("ptrAuthExtraDiscriminator"), (d >> 5 & 0xffff).into(), true)?;
                p.boolean(field!("ptrAuthIsaPointer"), d >> 21 & 1 != 0, None)?;
                p.boolean(field!("ptrAuthAuthenticatesNullValues"), d >> 22 & 1 != 0, None)?;
            }
        }
        DiNode::CompositeType(n) => {
            p.tag(n.tag)?;
            p.string(field!("name"), n.name, true)?;
            p.md(field!("scope"), n.scope, true)?;
            p.md(field!("file"), n.file, true)?;
            p.int(field!("line"), n.line.into(), true)?;
            p.md(field!("baseType"), n.base_type, true)?;
            p.size(field!("size"), n.size)?;
            p.int(field!("align"), n.align.into(), true)?;
            p.size(field!("offset"), n.offset)?;
            if v >= 20 {
                p.int(field!("num_extra_inhabitants"), n.num_extra_inhabitants.into(), true)?;
            }
            p.di_flags(field!("flags"), n.flags)?;
            p.md(field!("elements"), n.elements, true)?;
            p.dwarf(field!("runtimeLang"), n.runtime_lang.into(), dwarf::lang_name, true)?;
            p.md(field!("vtableHolder"), n.vtable_holder, true)?;
            p.md(field!("templateParams"), n.template_params, true)?;
            p.string(field!("identifier"), n.identifier, true)?;
            p.md(field!("discriminator"), n.discriminator, true)?;
            p.md(field!("dataLocation"), n.data_location, true)?;
            p.md(field!("associated"), n.associated, true)?;
            p.md(field!("allocated"), n.allocated, true)?;
            match w.constant_int(n.rank) {
                Some(r) => p.sint(field!("rank"), r, false)?,
                None => p.md(field!("rank"), n.rank, true)?,
            }
            p.md(field!("annotations"), n.annotations, true)?;
            if v >= 20 {
                p.md(field!("specification"), n.specification, true)?;
            }
            if v >= 21 {
                if let Some(k) = n.enum_kind {
                    p.dwarf(field!("enumKind"), k.into(), dwarf::apple_enum_kind_name, false)?;
                }
                // Unlike `rank:`, a constant stride prints as the constant (`i32 4`).
                p.md(field!("bitStride"), n.bit_stride, true)?;
            }
        }
        DiNode::SubroutineType(n) => {
            p.di_flags(field!("flags"), n.flags)?;
            p.dwarf(field!("cc"), n.cc.into(), dwarf::cc_name, true)?;
            p.md(field!("types"), n.types, false)?;
        }
        DiNode::File(n) => {
            p.string(field!("filename"), n.filename, false)?;
            p.string(field!("directory"), n.directory, false)?;
            if let Some((kind, sum)) = n.checksum {
                p.name(field!("checksumkind"))?;
                match dwarf::checksum_kind_name(kind.into()) {
                    Some(s) => p.f.write_str(s)?,
                    None => write!(p.f, "{kind}")?,
                }
                p.string(field!("checksum"), sum, false)?;
            }
            p.string(field!("source"), n.source, true)?;
        }
        DiNode::CompileUnit(n) => {
            if n.versioned_language && v >= 22 {
                p.name(field!("sourceLanguageName"))?;
                match dwarf::lname_name(n.source_language) {
                    Some(s) => p.f.write_str(s)?,
                    None => write!(p.f, "{}", n.source_language)?,
                }
                p.int(field!("sourceLanguageVersion"), n.source_language_version.into(), true)?;
            } else {
                p.dwarf(field!("language"), n.source_language, dwarf::lang_name, false)?;
            }
            p.md(field!("file"), n.file, false)?;
            p.string(field!("producer"), n.producer, true)?;
            p.boolean(field!("isOptimized"), n.is_optimized, None)?;
            p.string(field!("flags"), n.flags, true)?;
            p.int(field!("runtimeVersion"), n.runtime_version.into(), false)?;
            p.string(field!("splitDebugFilename"), n.split_debug_filename, true)?;
            p.name(field!("emissionKind"))?;
            match dwarf::emission_kind_name(n.emission_kind.into()) {
                Some(s) => p.f.write_str(s)?,
                None => write!(p.f, "{}", n.emission_kind)?,
            }
            p.md(field!("enums"), n.enums, true)?;
            p.md(field!("retainedTypes"), n.retained_types, true)?;
            p.md(field!("globals"), n.globals, true)?;
            p.md(field!("imports"), n.imports, true)?;
            p.md(field!("macros"), n.macros, true)?;
            p.int(field!("dwoId"), n.dwo_id, true)?;
            p.boolean(field!("splitDebugInlining"), n.split_debug_inlining, Some(true))?;
            p.boolean(field!("debugInfoForProfiling"), n.debug_info_for_profiling, Some(false))?;
            if n.name_table_kind != 0 {
                p.name(field!("nameTableKind"))?;
                match dwarf::name_table_kind_name(n.name_table_kind.into()) {
                    Some(s) => p.f.write_str(s)?,
                    None => write!(p.f, "{}", n.name_table_kind)?,
                }
            }
            p.boolean(field!("rangesBaseAddress"), n.ranges_base_address, Some(false))?;
            p.string(field!("sysroot"), n.sysroot, true)?;
            p.string(field!("sdk"), n.sdk, true)?;
        }
        DiNode::Subprogram(n) => {
            p.string(field!("name"), n.name, true)?;
            p.string(field!("linkageName"), n.linkage_name, true)?;
            p.md(field!("scope"), n.scope, false)?;
            p.md(field!("file"), n.file, true)?;
            p.int(field!("line"), n.line.into(), true)?;
            p.md(field!("type"), n.type_, true)?;
            p.int(field!("scopeLine"), n.scope_line.into(), true)?;
            p.md(field!("containingType"), n.containing_type, true)?;
            if n.sp_flags & 3 != 0 || n.virtual_index != 0 {
                p.int(field!("virtualIndex"), n.virtual_index.into(), false)?;
            }
            p.sint(field!("thisAdjustment"), n.this_adjustment.into(), true)?;
            p.di_flags(field!("flags"), n.flags)?;
            p.sp_flags(field!("spFlags"), n.sp_flags)?;
            p.md(field!("unit"), n.unit, true)?;
            p.md(field!("templateParams"), n.template_params, true)?;
            p.md(field!("declaration"), n.declaration, true)?;
            p.md(field!("retainedNodes"), n.retained_nodes, true)?;
            p.md(field!("thrownTypes"), n.thrown_types, true)?;
            p.md(field!("annotations"), n.annotations, true)?;
            p.string(field!("targetFuncName"), n.target_func_name, true)?;
            if v >= 21 {
                p.boolean(field!("keyInstructions"), n.key_instructions, Some(false))?;
            }
        }
        DiNode::LexicalBlock(n) => {
            p.md(field!("scope"), n.scope, false)?;
            p.md(field!("file"), n.file, true)?;
            p.int(field!("line"), n.line.into(), true)?;
            p.int(field!("column"), n.column.into(), true)?;
        }
        DiNode::LexicalBlockFile(n) => {
            p.md(field!("scope"), n.scope, false)?;
            p.md(field!("file"), n.file, true)?;
            p.int(field!("discriminator"), n.discriminator.into(), false)?;
        }
        DiNode::Namespace(n) => {
            p.string(field!("name"), n.name, true)?;
            p.md(field!("scope"), n.scope, false)?;
            p.boolean(field!("exportSymbols"), n.export_symbols, Some(false))?;
        }
        DiNode::CommonBlock(n) => {
            p.md(field!("scope"), n.scope, false)?;
            p.md(field!("declaration"), n.declaration, false)?;
            p.string(field!("name"), n.name, true)?;
            p.md(field!("file"), n.file, true)?;
            p.int(field!("line"), n.line.into(), true)?;
        }
        DiNode::Macro(n) => {
            p.name(field!("type"))?;
            match dwarf::macinfo_name(n.macinfo_type.into()) {
                Some(s) => p.f.write_str(s)?,
                None => write!(p.f, "{}", n.macinfo_type)?,
            }
            p.int(field!("line"), n.line.into(), true)?;
            p.string(field!("name"), n.name, true)?;
            p.string(field!("value"), n.value, true)?;
        }
        DiNode::MacroFile(n) => {
            p.int(field!("line"), n.line.into(), true)?;
            p.md(field!("file"), n.file, false)?;
            p.md(field!("nodes"), n.elements, true)?;
        }
        DiNode::Module(n) => {
            p.md(field!("scope"), n.scope, false)?;
            p.string(field!("name"), n.name, true)?;
            p.string(field!("configMacros"), n.config_macros, true)?;
            p.string(field!("includePath"), n.include_path, true)?;
            p.string(field!("apinotes"), n.apinotes, true)?;
            p.md(field!("file"), n.file, true)?;
            p.int(field!("line"), n.line.into(), true)?;
            p.boolean(field!("isDecl"), n.is_decl, Some(false))?;
        }
        DiNode::TemplateTypeParameter(n) => {
            p.string(field!("name"), n.name, true)?;
            p.md(field!("type"), n.type_, false)?;
            p.boolean(field!("defaulted"), n.is_default, Some(false))?;
        }
        DiNode::TemplateValueParameter(n) => {
            if n.tag != 0x30 {
                p.tag(n.tag)?;
            }
            p.string(field!("name"), n.name, true)?;
            p.md(field!("type"), n.type_, true)?;
            p.boolean(field!("defaulted"), n.is_default, Some(false))?;
            p.md(field!("value"), n.value, false)?;
        }
        DiNode::GlobalVariable(n) => {
            p.string(field!("name"), n.name, true)?;
            p.string(field!("linkageName"), n.linkage_name, true)?;
            p.md(field!("scope"), n.scope, false)?;
            p.md(field!("file"), n.file, true)?;
            p.int(field!("line"), n.line.into(), true)?;
            p.md(field!("type"), n.type_, true)?;
            p.boolean(field!("isLocal"), n.is_local, None)?;
            p.boolean(field!("isDefinition"), n.is_definition, None)?;
            p.md(field!("declaration"), n.declaration, true)?;
            p.md(field!("templateParams"), n.template_params, true)?;
            p.int(field!("align"), n.align.into(), true)?;
            p.md(field!("annotations"), n.annotations, true)?;
        }
        DiNode::LocalVariable(n) => {
            p.string(field!("name"), n.name, true)?;
            p.int(field!("arg"), n.arg.into(), true)?;
            p.md(field!("scope"), n.scope, false)?;
            p.md(field!("file"), n.file, true)?;
            p.int(field!("line"), n.line.into(), true)?;
            p.md(field!("type"), n.type_, true)?;
            p.di_flags(field!("flags"), n.flags)?;
            p.int(field!("align"), n.align.into(), true)?;
            p.md(field!("annotations"), n.annotations, true)?;
        }
        DiNode::Label(n) => {
            p.md(field!("scope"), n.scope, false)?;
            p.string(field!("name"), n.name, true)?;
            p.md(field!("file"), n.file, true)?;
            p.int(field!("line"), n.line.into(), true)?;
            if v >= 21 {
                p.int(field!("column"), n.column.into(), true)?;
                p.boolean(field!("isArtificial"), n.is_artificial, Some(false))?;
                if let Some(i) = n.coro_suspend_idx {
                    p.int(field!("coroSuspendIdx"), i.into(), false)?;
                }
            }
        }
        DiNode::GlobalVariableExpression(n) => {
            p.md(field!("var"), n.var, true)?;
            if n.expr.is_null() {
                // The loader makes a null expression an empty one.
                p.name(field!("expr"))?;
                p.f.write_str("!DIExpression()")?;
            } else {
                p.md(field!("expr"), n.expr, true)?;
            }
        }
        DiNode::ObjCProperty(n) => {
            let (setter, getter) = if v >= 22 { (n.op4_name, n.op5_name) } else { (n.op5_name, n.op4_name) };
            p.string(field!("name"), n.name, true)?;
            p.md(field!("file"), n.file, true)?;
            p.int(field!("line"), n.line.into(), true)?;
            p.string(field!("setter"), setter, true)?;
            p.string(field!("getter"), getter, true)?;
            p.int(field!("attributes"), n.attributes.into(), true)?;
            p.md(field!("type"), n.type_, true)?;
        }
        DiNode::ImportedEntity(n) => {
            p.tag(n.tag)?;
            p.string(field!("name"), n.name, true)?;
            p.md(field!("scope"), n.scope, false)?;
            p.md(field!("entity"), n.entity, true)?;
            p.md(field!("file"), n.file, true)?;
            p.int(field!("line"), n.line.into(), true)?;
            p.md(field!("elements"), n.elements, true)?;
        }
        DiNode::AssignId => {}
        DiNode::SubrangeType(n) => {
            p.string(field!("name"), n.name, true)?;
            p.md(field!("scope"), n.scope, true)?;
            p.md(field!("file"), n.file, true)?;
            p.int(field!("line"), n.line.into(), true)?;
            p.size(field!("size"), n.size)?;
            p.int(field!("align"), n.align.into(), true)?;
            p.di_flags(field!("flags"), n.flags)?;
            p.md(field!("baseType"), n.base_type, false)?;
            p.md(field!("lowerBound"), n.lower_bound, true)?;
            p.md(field!("upperBound"), n.upper_bound, true)?;
            p.md(field!("stride"), n.stride, true)?;
            p.md(field!("bias"), n.bias, true)?;
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
    use crate::ids::llvm_ir::raw as ids;
    use crate::ir::Module;
    use crate::ir::metadata::defines_id;
    use crate::ir::metadata::di::decode;
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
                write!(f, "{}", self.constants.display(self.module, v, self.version >= 16))
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
        fn expression(&self, r: MdRef) -> Option<alloc::borrow::Cow<'_, [u64]>> {
            self.exprs.get(&r.id()?).map(|e| alloc::borrow::Cow::Borrowed(e.as_slice()))
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
        fn expression(&self, _: MdRef) -> Option<alloc::borrow::Cow<'_, [u64]>> {
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

/// `APInt::print(OS, isSigned)`: the one wide-integer writer, on the node's at most 128 bits.
fn write_apint(f: &mut dyn Write, value: Apint, signed: bool) -> fmt::Result {
    let words = [value.value as u64, (value.value >> 64) as u64];
    crate::ir::print::numbers::write_wide_int(f, &words, u64::from(value.bits), signed)
}
