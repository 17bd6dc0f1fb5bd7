//! Global values' lines as `llvm-dis` prints them: a global variable's whole line
//! ([`Module::display_global_var`]), and the parts every global value shares (linkage,
//! visibility, `thread_local`, `unnamed_addr`, partition, comdat).

use core::fmt::{self, Write as _};

use crate::ir::module::Module;
use crate::ir::module::constants::ModuleConstants;
use crate::ir::print::constants::Printer;
use crate::ir::print::escape::{write_escaped, write_llvm_name};

impl<'a> Module<'a> {
    /// Global variable `index` as `llvm-dis` prints its line (`@g = internal constant i32
    /// 7, section "s", align 4`), without the metadata attachments (`, !dbg !5`) and the
    /// attribute group (` #0`), which depend on `llvm-dis`'s own numbering.
    pub fn display_global_var<'t>(
        &'t self,
        index: usize,
        constants: &'t ModuleConstants,
        opaque_pointers: bool,
    ) -> GlobalVarDisplay<'t, 'a> {
        GlobalVarDisplay {
            module: self,
            constants,
            index,
            opaque_pointers,
            llvm_version: if opaque_pointers { 22 } else { 14 },
            block_slot: None,
            view: None,
        }
    }
}

/// A global variable's line: see [`Module::display_global_var`].
pub struct GlobalVarDisplay<'t, 'a> {
    module: &'t Module<'a>,
    constants: &'t ModuleConstants,
    index: usize,
    opaque_pointers: bool,
    llvm_version: u32,
    block_slot: Option<&'t dyn Fn(usize, u64) -> Option<u32>>,
    /// The view whose constants `constants` are, when printing it.
    view: Option<&'t crate::ir::view::ModuleView<'t, 't, 'a>>,
}

impl<'t, 'a> GlobalVarDisplay<'t, 'a> {
    /// Prints view `v`'s global (`constants` is its table).
    pub(crate) fn with_view(mut self, v: &'t crate::ir::view::ModuleView<'t, 't, 'a>) -> Self {
        self.view = Some(v);
        self
    }

    /// Numbers unnamed blocks in `blockaddress` as the module printer does.
    pub(crate) fn with_block_slots(mut self, block_slot: &'t dyn Fn(usize, u64) -> Option<u32>) -> Self {
        self.block_slot = Some(block_slot);
        self
    }

    /// Prints as `llvm-dis` of LLVM `llvm_version` prints (by default 22 with opaque
    /// pointers, 14 without): `splat (…)` from LLVM 20.
    pub fn for_llvm(mut self, llvm_version: u32) -> Self {
        self.llvm_version = llvm_version;
        self
    }
}

impl fmt::Display for GlobalVarDisplay<'_, '_> {
    /// `AssemblyWriter::printGlobal`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use crate::ir::module::globals::Linkage;
        let m = self.module;
        let Some(g) = m.globals.get(self.index) else { return f.write_str("<no such global>") };
        let c = &g.common;
        let mut p = Printer::new(self.constants, m, self.opaque_pointers)
            .for_version(self.llvm_version)
            .with_block_slots(self.block_slot);
        if let Some(v) = self.view {
            p = p.with_view(v);
        }
        p.global_name(f, c.value_id)?;
        f.write_str(" = ")?;
        if let Some(fields) = self.view.and_then(|v| v.remade_structors(self.index)) {
            return write_three_field_structors(f, &p, g, fields, self.opaque_pointers);
        }
        if g.initializer.is_none() && c.linkage == Linkage::External {
            f.write_str("external ")?;
        }
        write_global_prefix(f, c)?;
        write_thread_local(f, c.thread_local)?;
        write_unnamed_addr(f, c.unnamed_addr)?;
        if c.address_space != 0 {
            write!(f, "addrspace({}) ", c.address_space)?;
        }
        if g.externally_initialized {
            f.write_str("externally_initialized ")?;
        }
        f.write_str(if g.is_constant { "constant " } else { "global " })?;
        p.ty(f, c.value_type)?;
        if let Some(init) = g.initializer {
            f.write_char(' ')?;
            p.value(f, init, 0)?;
        }
        if let Some(section) = g.section.as_deref() {
            f.write_str(", section \"")?;
            write_escaped(f, section.as_bytes())?;
            f.write_char('"')?;
        }
        write_partition(f, c)?;
        if let Some(model) = g.code_model {
            let name = match model {
                1 => "tiny",
                2 => "small",
                3 => "kernel",
                4 => "medium",
                5 => "large",
                _ => "unknown",
            };
            write!(f, ", code_model \"{name}\"")?;
        }
        if let Some(bits) = g.sanitizer {
            for (bit, name) in [
                (1, "no_sanitize_address"),
                (2, "no_sanitize_hwaddress"),
                (4, "sanitize_memtag"),
                (8, "sanitize_address_dyninit"),
            ] {
                if bits & bit != 0 {
                    write!(f, ", {name}")?;
                }
            }
        }
        let implicit = self.view.is_some_and(|v| v.has_implicit_comdat(c.raw_linkage, g.comdat_operand));
        write_comdat(f, m, g.comdat, &c.name, implicit, ", ")?;
        if let Some(align) = g.alignment {
            write!(f, ", align {align}")?;
        }
        Ok(())
    }
}

/// A two-field constructor or destructor array as LLVM's reader makes it anew
/// ([`crate::ir::upgrade::two_field_structor_array`]), after its name: `appending global
/// [N x { i32, void ()*, i8* }] [{ … } { i32 65535, void ()* @f, i8* null }, …]`. An entry
/// all of zeros is a `zeroinitializer`, and so is an array of such entries.
fn write_three_field_structors(
    f: &mut dyn fmt::Write,
    p: &Printer<'_, '_>,
    g: &crate::ir::GlobalVar<'_>,
    fields: [crate::ir::TypeId; 2],
    opaque: bool,
) -> fmt::Result {
    use crate::ir::ConstantKind;
    let pointer = if opaque { "ptr" } else { "i8*" };
    let element_type = |f: &mut dyn fmt::Write| -> fmt::Result {
        f.write_str("{ ")?;
        p.ty(f, fields[0])?;
        f.write_str(", ")?;
        p.ty(f, fields[1])?;
        write!(f, ", {pointer} }}")
    };
    // The entries' two values each (`Init->getOperand(i)`: none for a zeroinitializer).
    let entries: alloc::vec::Vec<Option<[u64; 2]>> = match g.initializer.and_then(|i| p.constant(i)) {
        Some((c, table)) => match c.kind {
            ConstantKind::Aggregate(range) => table
                .operands(range)
                .iter()
                .map(|&e| match p.constant(e) {
                    Some((entry, t)) => match entry.kind {
                        ConstantKind::Aggregate(r) => match t.operands(r) {
                            &[a, b] => Some([a, b]),
                            _ => None,
                        },
                        _ => None,
                    },
                    None => None,
                })
                .collect(),
            _ => alloc::vec::Vec::new(),
        },
        None => alloc::vec::Vec::new(),
    };
    let is_zero = |v: u64| p.constant(v).is_some_and(|(c, _)| c.kind.is_zero());
    let zero_entry = |e: &Option<[u64; 2]>| e.is_none_or(|[a, b]| is_zero(a) && is_zero(b));
    write_global_prefix(f, &g.common)?;
    write!(f, "global [{} x ", entries.len())?;
    element_type(f)?;
    f.write_str("] ")?;
    if entries.iter().all(zero_entry) {
        return f.write_str("zeroinitializer");
    }
    f.write_char('[')?;
    for (i, entry) in entries.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        element_type(f)?;
        match entry {
            Some([a, b]) if !zero_entry(entry) => {
                f.write_str(" { ")?;
                p.operand(f, *a, 0)?;
                f.write_str(", ")?;
                p.operand(f, *b, 0)?;
                write!(f, ", {pointer} null }}")?;
            }
            _ => f.write_str(" zeroinitializer")?,
        }
    }
    f.write_char(']')
}

/// `thread_local(…) ` as `PrintThreadLocalModel` prints it, nothing if not thread-local.
pub(crate) fn write_thread_local(f: &mut dyn fmt::Write, t: crate::ir::ThreadLocal) -> fmt::Result {
    use crate::ir::ThreadLocal;
    match t {
        ThreadLocal::No => Ok(()),
        ThreadLocal::GeneralDynamic => f.write_str("thread_local "),
        ThreadLocal::LocalDynamic => f.write_str("thread_local(localdynamic) "),
        ThreadLocal::InitialExec => f.write_str("thread_local(initialexec) "),
        ThreadLocal::LocalExec => f.write_str("thread_local(localexec) "),
        ThreadLocal::Unknown(n) => write!(f, "thread_local({n}) "),
    }
}

/// `unnamed_addr ` or `local_unnamed_addr `, nothing if neither.
pub(crate) fn write_unnamed_addr(f: &mut dyn fmt::Write, u: crate::ir::UnnamedAddr) -> fmt::Result {
    match u.keyword() {
        Some(keyword) => write!(f, "{keyword} "),
        None => Ok(()),
    }
}

/// `, partition "…"` of a global value that has one.
pub(crate) fn write_partition(f: &mut dyn fmt::Write, c: &crate::ir::GlobalCommon<'_>) -> fmt::Result {
    let Some(partition) = c.partition.as_ref().filter(|p| !p.is_empty()) else { return Ok(()) };
    f.write_str(", partition \"")?;
    write_escaped(f, partition)?;
    f.write_char('"')
}

/// `linkage dso_local visibility dllstorage ` as `AssemblyWriter` prints them before a
/// global value's kind (`dso_local` unless implied: local linkage, or hidden/protected and
/// not extern_weak).
pub(crate) fn write_global_prefix(f: &mut dyn fmt::Write, c: &crate::ir::GlobalCommon<'_>) -> fmt::Result {
    if c.linkage != crate::ir::module::globals::Linkage::External {
        write!(f, "{} ", c.linkage)?;
    }
    let implied = c.linkage.is_local()
        || (c.visibility != crate::ir::module::globals::Visibility::Default
            && c.linkage != crate::ir::module::globals::Linkage::ExternWeak);
    if c.dso_local && !implied {
        f.write_str("dso_local ")?;
    }
    if c.visibility != crate::ir::module::globals::Visibility::Default {
        write!(f, "{} ", c.visibility)?;
    }
    match c.dll_storage {
        crate::ir::module::globals::DllStorage::Import => f.write_str("dllimport ")?,
        crate::ir::module::globals::DllStorage::Export => f.write_str("dllexport ")?,
        _ => {}
    }
    Ok(())
}

/// `comdat` (after `lead`), with its name when it is not the global value's own; an old
/// object without one that LLVM reads with a comdat of its own name has `implicit`
/// ([`ModuleView::has_implicit_comdat`](crate::ir::view::ModuleView::has_implicit_comdat)):
/// `maybePrintComdat`.
pub(crate) fn write_comdat(
    f: &mut dyn fmt::Write,
    m: &Module<'_>,
    comdat: Option<u64>,
    name: &[u8],
    implicit: bool,
    lead: &str,
) -> fmt::Result {
    let Some(comdat) = comdat.and_then(|i| m.comdats.get(usize::try_from(i).ok()?)) else {
        if implicit {
            f.write_str(lead)?;
            f.write_str("comdat")?;
        }
        return Ok(());
    };
    f.write_str(lead)?;
    f.write_str("comdat")?;
    if *comdat.name != *name {
        f.write_str("($")?;
        write_llvm_name(f, &comdat.name)?;
        f.write_char(')')?;
    }
    Ok(())
}
