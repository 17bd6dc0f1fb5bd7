//! The whole module as `llvm-dis` prints it ([`Bodies::display_module`]): the
//! module-level lines, structs, comdats, globals, aliases and ifuncs, every function,
//! attribute groups, named metadata, metadata nodes and the ThinLTO summary.

use alloc::borrow::Cow;
use alloc::vec::Vec;
use core::fmt::{self, Write as _};

use crate::ir::body::{Bodies, Body};
use crate::ir::module::Module;
use crate::ir::module::globals::Alias;
use crate::ir::module::types::{Type, TypeId};
use crate::ir::print::DisOptions;
use crate::ir::print::constants::Printer;
use crate::ir::print::escape::{write_escaped, write_llvm_name};
use crate::ir::print::function::{BlockSlots, FunctionDisplay};
use crate::ir::print::globals::{write_global_prefix, write_partition, write_thread_local, write_unnamed_addr};
use crate::ir::print::metadata::{write_attachments, write_md_ref, write_metadata_name, write_node};
use crate::ir::print::slot_tracker::ModuleSlots;
use crate::ir::print::slot_tracker::{Listed, lifetime_leftover_name, typed_read_as_opaque};
use crate::ir::vocabulary::datalayout::DataLayout;
use crate::ir::vocabulary::triple::Triple;

impl<'m, 'a> Bodies<'m, 'a> {
    /// The whole module as `llvm-dis` prints it, byte for byte on every file of the test
    /// corpora: the module-level lines, structs, comdats, global variables, aliases and
    /// ifuncs, every function with its body decoded here (a body that fails to decode
    /// prints as a comment with the error), attribute groups, named metadata, metadata
    /// nodes and the ThinLTO summary. [`ModuleDisplay::with_module_id`] adds the
    /// `; ModuleID` line `llvm-dis` starts with. The bodies are decoded twice: once to
    /// find the structs in use (stopping once every struct is found), once to print.
    ///
    /// ```
    /// use llvm_bitstream_reader::ir::{DisOptions, Module};
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/llvm14_ir_debuginfo.bc"))?;
    /// let module = Module::parse(&bytes)?;
    /// let bodies = module.bodies()?;
    /// let text = bodies.display_module(DisOptions { llvm_version: 14 }).with_module_id("x.bc").to_string();
    /// assert!(text.starts_with("; ModuleID = 'x.bc'\n"));
    /// assert!(text.contains("!llvm.dbg.cu = !{!2}"));
    /// assert!(text.contains("distinct !DICompileUnit("));
    /// # Ok(()) }
    /// ```
    pub fn display_module(&self, options: DisOptions) -> ModuleDisplay<'_, 'm, 'a> {
        ModuleDisplay { bodies: self, options, module_id: None }
    }
}

/// A whole module printed as `llvm-dis` prints it: see [`Bodies::display_module`].
pub struct ModuleDisplay<'d, 'm, 'a> {
    bodies: &'d Bodies<'m, 'a>,
    options: DisOptions,
    module_id: Option<&'d str>,
}

impl<'d> ModuleDisplay<'d, '_, '_> {
    /// Names the module as `llvm-dis` names it (the path it was given): printed first as
    /// `; ModuleID = '…'`, as the module's path in its ThinLTO summary, and as its
    /// `source_filename` when the file has none (LLVM's default). Without it, none of these
    /// lines names the module.
    pub fn with_module_id(mut self, id: &'d str) -> Self {
        self.module_id = Some(id);
        self
    }
}

impl fmt::Display for ModuleDisplay<'_, '_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let b = self.bodies;
        let m = b.module();
        let opaque = self.options.opaque(b);
        if let Some(id) = self.module_id {
            writeln!(f, "; ModuleID = '{id}'")?;
        }
        // A module without a SOURCE_FILENAME record takes its identifier as its source file
        // name (LLVM's `Module` constructor), so llvm-dis prints the path it was given.
        if let Some(name) = m.source_filename.as_deref().or(self.module_id) {
            f.write_str("source_filename = \"")?;
            write_escaped(f, name.as_bytes())?;
            f.write_str("\"\n")?;
        }
        if let Some(dl) = &m.datalayout {
            let dl = upgraded_datalayout(dl, m.triple.as_deref().unwrap_or(""), self.options.llvm_version);
            f.write_str("target datalayout = \"")?;
            write_escaped(f, dl.as_bytes())?;
            f.write_str("\"\n")?;
        }
        if let Some(triple) = &m.triple {
            f.write_str("target triple = \"")?;
            write_escaped(f, triple.as_bytes())?;
            f.write_str("\"\n")?;
        }
        // The last MODULE_CODE_ASM record is the module's asm (the reader sets it, not
        // appends), printed a line at a time; a final newline ends the last line.
        if let Some(asm) = m.asm.last().filter(|a| !a.is_empty()) {
            f.write_char('\n')?;
            let mut rest = asm.as_str();
            loop {
                let (line, after) = rest.split_once('\n').unwrap_or((rest, ""));
                f.write_str("module asm \"")?;
                write_escaped(f, line.as_bytes())?;
                f.write_str("\"\n")?;
                rest = after;
                if rest.is_empty() {
                    break;
                }
            }
        }
        // One body's storage, reused by every function (and by the type walk first).
        let mut body = Body::default();
        // The numbered structs (`%0 = type …`) first, by number, then the named ones in
        // the order the module uses them (AsmWriter's `printTypeIdentities`).
        let (mut numbered, named): (Vec<TypeId>, Vec<TypeId>) =
            crate::ir::print::type_order::struct_order(b, &mut body, self.options.llvm_version)
                .into_iter()
                .partition(|&t| m.types.is_numbered_struct(t));
        numbered.sort();
        if !numbered.is_empty() || !named.is_empty() {
            f.write_char('\n')?;
            for s in numbered
                .iter()
                .chain(&named)
                .filter_map(|&t| m.types.struct_definition(t, opaque, self.options.llvm_version))
            {
                writeln!(f, "{s}")?;
            }
        }
        // The comdats the module's functions, then its variables, use, in that order.
        // A comdat is its name (`getOrInsertComdat`): an implicit one of an old object
        // (`upgrade::has_implicit_comdat`, selection `any`) is one of the same name.
        let objects = m
            .functions
            .iter()
            .map(|f| (f.comdat, f.comdat_operand, &f.common))
            .chain(m.globals.iter().map(|g| (g.comdat, g.comdat_operand, &g.common)));
        let triple_bytes = m.triple.as_deref().unwrap_or("").as_bytes();
        let mut comdats: Vec<(&[u8], Option<&crate::ir::Comdat<'_>>)> = Vec::new();
        for (comdat, operand, common) in objects {
            let entry = match comdat.and_then(|c| m.comdats.get(usize::try_from(c).ok()?)) {
                Some(c) => (&c.name[..], Some(c)),
                None if crate::ir::upgrade::has_implicit_comdat(common.raw_linkage, operand, triple_bytes) => {
                    (&common.name[..], None)
                }
                None => continue,
            };
            if !comdats.iter().any(|(name, _)| *name == entry.0) {
                comdats.push(entry);
            }
        }
        for (i, (name, comdat)) in comdats.iter().enumerate() {
            f.write_str(if i == 0 { "\n$" } else { "\n\n$" })?;
            write_llvm_name(f, name)?;
            match comdat {
                Some(c) => write!(f, " = comdat {}", c.selection)?,
                None => f.write_str(" = comdat any")?,
            }
        }
        if !comdats.is_empty() {
            f.write_char('\n')?;
        }
        // A module read from a cut file: what is missing is said in comments.
        let partial = m.block.cut_bit().is_some();
        let mut slots = ModuleSlots::new(b, self.options.llvm_version);
        let block_slots = BlockSlots::new(b);
        let block_slot = |function: usize, block: u64| block_slots.slot(function, block);
        let printer = Printer::new(b.constants(), m, opaque)
            .for_version(self.options.llvm_version)
            .with_block_slots(Some(&block_slot))
            .with_typed_read_as_opaque(typed_read_as_opaque(b, self.options.llvm_version));
        if !m.globals.is_empty() {
            f.write_char('\n')?;
            // A two-field constructor array is made anew by LLVM's reader, after the others.
            let remade = |i: &usize| crate::ir::upgrade::two_field_structor_array(m, *i).is_some();
            let (mut order, last): (Vec<usize>, Vec<usize>) = (0..m.globals.len()).partition(|i| !remade(i));
            order.extend(&last);
            for (i, g) in order.into_iter().map(|i| (i, &m.globals[i])) {
                if partial {
                    write_recovered_name(f, b, &g.common, None)?;
                }
                let line = m
                    .display_global_var(i, b.constants(), opaque)
                    .for_llvm(self.options.llvm_version)
                    .with_block_slots(&block_slot)
                    .with_typed_read_as_opaque(typed_read_as_opaque(b, self.options.llvm_version));
                write!(f, "{line}")?;
                if remade(&i) {
                    f.write_char('\n')?;
                    continue;
                }
                write_attachments(
                    f,
                    b,
                    &slots,
                    None,
                    slots.global_attachments_of(b, g.common.value_id),
                    ", ",
                    &printer,
                )?;
                let list = g.attributes.and_then(|a| a.checked_sub(1));
                if let Some(slot) =
                    crate::ir::print::slot_tracker::function_group(b, list).and_then(|g| slots.group_slot(g))
                {
                    write!(f, " #{slot}")?;
                }
                f.write_char('\n')?;
            }
        }
        // Aliases, then ifuncs; an aliasee printed as a constant expression has no type
        // (one LLVM folds away, as it reads a typed module with opaque pointers, has).
        for ifunc in [false, true] {
            let mut first = true;
            for a in m.aliases.iter().filter(|a| a.is_ifunc == ifunc) {
                if core::mem::take(&mut first) {
                    f.write_char('\n')?;
                }
                printer.global_name(f, a.common.value_id)?;
                f.write_str(" = ")?;
                write_global_prefix(f, &a.common)?;
                write_thread_local(f, a.common.thread_local)?;
                write_unnamed_addr(f, a.common.unnamed_addr)?;
                f.write_str(if ifunc { "ifunc " } else { "alias " })?;
                printer.ty(f, a.common.value_type)?;
                f.write_str(", ")?;
                if ifunc && casts_resolver(&printer, m, a, self.options.llvm_version, opaque) {
                    // `bitcast (RESOLVER to T* ()*)`: see `upgrade::casts_ifunc_resolver`.
                    f.write_str("bitcast (")?;
                    printer.operand(f, a.target, 0)?;
                    f.write_str(" to ")?;
                    printer.ty(f, a.common.value_type)?;
                    f.write_str("* ()")?;
                    if a.common.address_space != 0 {
                        write!(f, " addrspace({})", a.common.address_space)?;
                    }
                    f.write_str("*)")?;
                } else if printer.prints_as_expression(a.target) {
                    printer.value(f, a.target, 0)?;
                } else {
                    printer.operand(f, a.target, 0)?;
                }
                write_partition(f, &a.common)?;
                f.write_char('\n')?;
            }
        }
        let mut text = alloc::string::String::new();
        for listed in crate::ir::print::slot_tracker::function_order(b, self.options.llvm_version) {
            f.write_char('\n')?;
            let index = match listed {
                Listed::Function(index) => index,
                Listed::LifetimeLeftover(index) => {
                    let name = lifetime_leftover_name(&m.functions[index].common.name).unwrap_or_default();
                    f.write_str("declare void @")?;
                    write_llvm_name(f, &name)?;
                    f.write_str("(i64)\n")?;
                    continue;
                }
            };
            let (defined, error) = match b.body_into(index, &mut body) {
                Ok(defined) => (defined, None),
                Err(e) => (false, Some(e)),
            };
            if partial {
                let function = &m.functions[index];
                write_recovered_name(f, b, &function.common, defined.then_some(&body))?;
                if !function.is_declaration && function.body.is_none() {
                    f.write_str("; the body of this definition is past the break of the input\n")?;
                }
            }
            if let Some(comment) = function_attrs_comment(b, index, self.options.llvm_version) {
                writeln!(f, "; Function Attrs: {comment}")?;
            }
            if is_unknown_intrinsic(b, index, self.options.llvm_version) {
                f.write_str("; Unknown intrinsic\n")?;
            }
            let scope = slots.add_function(b, index, defined.then_some(&body));
            let display = FunctionDisplay {
                bodies: b,
                index,
                body: defined.then_some(&body),
                options: self.options,
                slots: Some((&slots, scope)),
                block_slots: Some(&block_slots),
            };
            text.clear();
            display.write(&mut text)?;
            f.write_str(&text)?;
            f.write_char('\n')?;
            if let Some(e) = error {
                writeln!(f, "; error: the body of this function does not decode: {e}")?;
            }
        }
        if !slots.groups.is_empty() {
            f.write_char('\n')?;
            for (slot, g) in slots.groups.iter().enumerate() {
                writeln!(f, "attributes #{slot} = {{ {} }}", g.display(&m.types).for_llvm(self.options.llvm_version))?;
            }
        }
        let md = b.module_metadata();
        let named: Vec<_> = md.named.iter().filter(|(name, _)| !slots.strips_named(md.owned_bytes(*name))).collect();
        if !named.is_empty() {
            f.write_char('\n')?;
            for &&(name, ops) in &named {
                write_metadata_name(f, md.owned_bytes(name))?;
                f.write_str(" = !{")?;
                for (i, &id) in md.ops(ops).iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write_md_ref(f, b, &slots, slots.key(None, id), &printer)?;
                }
                f.write_str("}\n")?;
            }
        }
        if !slots.order.is_empty() {
            f.write_char('\n')?;
            let mut line = alloc::string::String::new();
            for (slot, &key) in slots.order.iter().enumerate() {
                line.clear();
                write!(line, "!{slot} = ")?;
                write_node(&mut line, b, &slots, key, &printer, self.options)?;
                line.push('\n');
                f.write_str(&line)?;
            }
        }
        match crate::ir::summary::Summary::read(m) {
            Ok(Some(summary)) => crate::ir::print::summary::write(
                f,
                m,
                &summary,
                self.module_id.unwrap_or(""),
                self.options.llvm_version,
            )?,
            Ok(None) => {}
            Err(e) => writeln!(f, "\n; error: the summary does not read: {e}")?,
        }
        Ok(())
    }
}

/// In a module read from a cut file, the comment before a global value whose name the
/// file no longer holds: the name its debug info gives (`body`: a definition's, decoded).
fn write_recovered_name(
    f: &mut fmt::Formatter<'_>,
    b: &Bodies<'_, '_>,
    common: &crate::ir::GlobalCommon<'_>,
    body: Option<&Body>,
) -> fmt::Result {
    if !common.name.is_empty() {
        return Ok(());
    }
    match b.recovered_name_with(common.value_id, body) {
        Some(r) => writeln!(f, "; recovered name (from its {}): {}", r.source, r.name_str()),
        None => Ok(()),
    }
}

/// The datalayout as the reader of LLVM `llvm_version` leaves it (`UpgradeDataLayoutString`),
/// for x86 targets: the pointer-size address spaces 270-272 added after `e-m:X` (since
/// LLVM 10), and `-i128:128` after the leading `m`/`p`/`i` components (since LLVM 18,
/// but for Intel MCU). Other targets' upgrades are not made: Debian's libclc files of
/// each version need none.
fn upgraded_datalayout<'d>(dl: &'d str, triple: &str, llvm_version: u32) -> Cow<'d, str> {
    let triple = Triple::new(triple.as_bytes());
    if triple.is_aarch64() {
        return upgraded_aarch64_datalayout(dl, llvm_version);
    }
    // LLVM upgrades every x86 triple (`Triple::isX86`), `x86_64h` and `i786` to `i986`
    // too; this printer never has upgraded those, and a refactoring keeps its output.
    let x86 = triple.is_x86() && !matches!(triple.arch(), b"x86_64h" | b"i786" | b"i886" | b"i986");
    if !x86 {
        return Cow::Borrowed(dl);
    }
    let mut specs: Vec<&str> = DataLayout::new(dl).specs().collect();
    if !dl.contains("-p270:32:32-p271:32:32-p272:64:64") {
        // `(e-m:[a-z](-p:32:32)?)(-[if]64:.*$)`, at the start.
        let mangling = |m: &&str| m.len() == 3 && m.starts_with("m:") && m.as_bytes()[2].is_ascii_lowercase();
        if specs.first() == Some(&"e") && specs.get(1).is_some_and(mangling) {
            let at = if specs.get(2) == Some(&"p:32:32") { 3 } else { 2 };
            if specs.get(at).is_some_and(|s| s.starts_with("i64:") || s.starts_with("f64:")) {
                specs.splice(at..at, ["p270:32:32", "p271:32:32", "p272:64:64"]);
            }
        }
    }
    if llvm_version >= 18 && !triple.is_iamcu() && !dl.contains("-i128:128") {
        // `^(e(-[mpi][^-]*)*)((-[^mpi][^-]*)*)$`: insert between the two runs.
        if specs.first() == Some(&"e") {
            let lead = 1 + specs[1..].iter().take_while(|p| p.starts_with(['m', 'p', 'i'])).count();
            if specs[lead..].iter().all(|p| !p.is_empty() && !p.starts_with(['m', 'p', 'i'])) {
                specs.insert(lead, "i128:128");
            }
        }
    }
    let upgraded = specs.join("-");
    if upgraded == dl { Cow::Borrowed(dl) } else { Cow::Owned(upgraded) }
}

/// An AArch64 datalayout as LLVM `llvm_version` reads it: `-Fn32` (function pointer
/// alignment) appended from LLVM 19, then, from LLVM 20, the pointer-size address spaces
/// 270-272 after a leading `e-m:X` (`-p:32:32`), as for x86. Checked with llvm-dis 16, 19
/// and 22 on LLVM's `dilocalvariable-3.9.ll.bc`; 20 and 21 are from LLVM's history.
fn upgraded_aarch64_datalayout(dl: &str, llvm_version: u32) -> Cow<'_, str> {
    if llvm_version < 19 || dl.is_empty() {
        return Cow::Borrowed(dl);
    }
    let mut specs: Vec<&str> = DataLayout::new(dl).specs().collect();
    if !dl.contains("-Fn32") {
        specs.push("Fn32");
    }
    const SPACES: &str = "-p270:32:32-p271:32:32-p272:64:64";
    let mangling = |m: &&str| m.len() == 3 && m.starts_with("m:") && m.as_bytes()[2].is_ascii_lowercase();
    if llvm_version >= 20
        && !dl.contains(SPACES)
        && matches!(specs.first(), Some(&("e" | "E")))
        && specs.get(1).is_some_and(mangling)
    {
        let at = if specs.get(2) == Some(&"p:32:32") { 3 } else { 2 };
        // The pattern wants something after the mangling.
        if at < specs.len() {
            specs.splice(at..at, ["p270:32:32", "p271:32:32", "p272:64:64"]);
        }
    }
    let upgraded = specs.join("-");
    if upgraded == dl { Cow::Borrowed(dl) } else { Cow::Owned(upgraded) }
}

/// The `; Function Attrs:` comment: the function's non-string attributes.
/// Whether function `index` is named as an intrinsic (`llvm.…`) that LLVM `llvm_version`
/// does not have, which `llvm-dis` 21 and later say above its declaration.
fn is_unknown_intrinsic(b: &Bodies<'_, '_>, index: usize, llvm_version: u32) -> bool {
    let Some(function) = b.module().functions.get(index) else { return false };
    llvm_version >= 21
        && function.common.name.starts_with(b"llvm.")
        && crate::ir::upgrade::intrinsic_attributes(llvm_version, &function.common.name).is_none()
}

fn function_attrs_comment(b: &Bodies<'_, '_>, index: usize, llvm_version: u32) -> Option<alloc::string::String> {
    let key = crate::ir::print::slot_tracker::function_group_key(b, index, llvm_version)?;
    let mut group = crate::ir::print::slot_tracker::group_content(b, key, llvm_version)?;
    group.attributes.retain(|a| !matches!(a, crate::ir::Attribute::String { .. }));
    if group.attributes.is_empty() {
        return None;
    }
    Some(alloc::format!("{}", group.display_inline(&b.module().types, false).for_llvm(llvm_version)))
}

/// Whether LLVM reads ifunc `a`'s resolver through a `bitcast` to its resolver type
/// ([`crate::ir::upgrade::casts_ifunc_resolver`]); never with opaque pointers.
fn casts_resolver(printer: &Printer<'_, '_>, m: &Module<'_>, a: &Alias<'_>, llvm_version: u32, opaque: bool) -> bool {
    if opaque {
        return false;
    }
    let types = printer.types();
    let resolver = match m.global(a.target) {
        Some(g) => Some((g.value_type, g.address_space)),
        None => printer.constant(a.target).and_then(|(c, _)| match types.get(c.ty) {
            Some(Type::Pointer { pointee: Some(p), address_space }) => Some((*p, *address_space)),
            _ => None,
        }),
    };
    resolver.is_some_and(|(function_type, resolver_space)| {
        crate::ir::upgrade::casts_ifunc_resolver(
            llvm_version,
            types,
            a.common.value_type,
            a.common.address_space,
            function_type,
            resolver_space,
        )
    })
}

#[cfg(test)]
mod tests {
    use super::upgraded_datalayout;

    /// What `llvm-dis` of each version prints for an x86-64 datalayout of LLVM 9, 14, 18.
    /// What `llvm-dis` 16, 19 and 22 print for LLVM's `dilocalvariable-3.9.ll.bc`.
    #[test]
    fn aarch64_datalayouts_upgraded_as_llvm_does() {
        let old = "e-m:e-i8:8:32-i16:16:32-i64:64-i128:128-n32:64-S128";
        let nx = "aarch64-nintendo-nx-elf";
        assert_eq!(upgraded_datalayout(old, nx, 16), old);
        assert_eq!(upgraded_datalayout(old, nx, 19), alloc::format!("{old}-Fn32"));
        assert_eq!(
            upgraded_datalayout(old, nx, 22),
            "e-m:e-p270:32:32-p271:32:32-p272:64:64-i8:8:32-i16:16:32-i64:64-i128:128-n32:64-S128-Fn32"
        );
        let new = upgraded_datalayout(old, nx, 22).into_owned();
        assert_eq!(upgraded_datalayout(&new, nx, 22), new);
        assert_eq!(upgraded_datalayout("", nx, 22), "");
    }

    #[test]
    fn x86_datalayouts_upgraded_as_llvm_does() {
        let llvm9 = "e-m:e-i64:64-f80:128-n8:16:32:64-S128";
        let llvm14 = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128";
        let llvm18 = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128";
        let linux = "x86_64-unknown-linux-gnu";
        assert_eq!(upgraded_datalayout(llvm9, linux, 14), llvm14);
        assert_eq!(upgraded_datalayout(llvm9, linux, 19), llvm18);
        assert_eq!(upgraded_datalayout(llvm14, linux, 14), llvm14);
        assert_eq!(upgraded_datalayout(llvm14, linux, 22), llvm18);
        assert_eq!(upgraded_datalayout(llvm18, linux, 22), llvm18);
        // 32-bit: after `p:32:32`.
        let i686 = "e-m:e-p:32:32-f64:32:64-f80:32-n8:16:32-S128";
        assert_eq!(
            upgraded_datalayout(i686, "i686-pc-linux-gnu", 14),
            "e-m:e-p:32:32-p270:32:32-p271:32:32-p272:64:64-f64:32:64-f80:32-n8:16:32-S128"
        );
        assert_eq!(
            upgraded_datalayout(i686, "i686-pc-linux-gnu", 19),
            "e-m:e-p:32:32-p270:32:32-p271:32:32-p272:64:64-i128:128-f64:32:64-f80:32-n8:16:32-S128"
        );
        // Intel MCU keeps its i128; other targets are left alone.
        assert_eq!(
            upgraded_datalayout(i686, "i586-intel-elfiamcu", 19),
            "e-m:e-p:32:32-p270:32:32-p271:32:32-p272:64:64-f64:32:64-f80:32-n8:16:32-S128"
        );
        let riscv = "e-m:e-p:64:64-i64:64-i128:128-n32:64-S128";
        assert_eq!(upgraded_datalayout(riscv, "riscv64-unknown-linux-gnu", 22), riscv);
        assert!(matches!(upgraded_datalayout(llvm18, linux, 22), alloc::borrow::Cow::Borrowed(_)));
    }
}
