//! Printing functions, and whole modules, in `llvm-dis`'s syntax.
//!
//! ```
//! use llvm_bitstream_reader::ir::{DisOptions, Module};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/llvm14_ir_instructions.bc"))?;
//! let module = Module::parse(&bytes)?;
//! let bodies = module.bodies()?;
//! // As llvm-dis 14 prints it: typed pointers.
//! let options = DisOptions { llvm_version: 14 };
//! for (index, _) in module.functions.iter().enumerate() {
//!     let body = bodies.body(index)?;
//!     let text = bodies.display_function(index, body.as_ref(), options).to_string();
//!     assert!(text.starts_with("define ") || text.starts_with("declare "));
//! }
//! # Ok(()) }
//! ```
//!
//! What is printed is `AssemblyWriter`'s text: names quoted as LLVM quotes them, unnamed
//! values numbered as its slot tracker numbers them, constants spelled as it spells them,
//! predecessors in the order LLVM's use lists give (USELIST_BLOCK applied). A whole module
//! ([`Bodies::display_module`]) is the whole file as `llvm-dis` of the chosen version
//! prints it: structs in the order LLVM's `TypeFinder` meets them, comdats, globals,
//! aliases and ifuncs, functions with their metadata attachments and debug records,
//! attribute groups and metadata nodes numbered as LLVM's `SlotTracker` numbers them,
//! named metadata, every debug-info node, and the ThinLTO summary. A function printed
//! alone numbers metadata and attribute groups as `Function::print` does (its own
//! attachments and operands only).

pub(crate) mod attributes;
pub(crate) mod constants;
pub(crate) mod di_nodes;
pub(crate) mod dwarf_expr;
pub(crate) mod escape;
pub(crate) mod globals;
pub(crate) mod numbers;
pub(crate) mod slot_tracker;
pub(crate) mod type_order;
pub(crate) mod types;

use alloc::vec::Vec;
use core::fmt::{self, Write as _};

use crate::ir::body::{Bodies, Body, InstKind, Operand, Ordering, TailKind, Value};
use crate::ir::module::types::{Type, TypeId};
use crate::ir::print::constants::Printer;
use crate::ir::print::escape::{write_escaped, write_llvm_name};
use crate::ir::print::globals::{
    write_comdat, write_global_prefix, write_partition, write_thread_local, write_unnamed_addr,
};
use crate::ir::print::slot_tracker::{ModuleSlots, NO_SLOT};
use crate::ir::vocabulary::opcodes::{binary_op_name, cast_op_name, predicate_name, rmw_op_name};
use crate::ir::{AttrIndex, AttributeList};

/// How to print: which `llvm-dis` to match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DisOptions {
    /// The LLVM major version whose `llvm-dis` output to match (14, 19, 22, …): below 17
    /// a typed-pointer file prints its pointer types (`i32*`), from 17 on every pointer
    /// is `ptr`.
    pub llvm_version: u32,
}

impl Default for DisOptions {
    fn default() -> Self {
        DisOptions { llvm_version: 22 }
    }
}

impl DisOptions {
    /// Whether pointers print as `ptr`: from LLVM 17, and in a file whose pointers are
    /// opaque already (LLVM 14's `-opaque-pointers` files).
    fn opaque(self, b: &Bodies<'_, '_>) -> bool {
        self.llvm_version >= 17 || !b.typed_pointers()
    }
}

/// A function printed as `llvm-dis` prints it: see [`Bodies::display_function`].
pub struct FunctionDisplay<'d, 'm, 'a> {
    bodies: &'d Bodies<'m, 'a>,
    index: usize,
    body: Option<&'d Body>,
    options: DisOptions,
    /// The module's numbering and the function's scope in it, when printing the whole
    /// module; a function printed alone numbers as LLVM's `Function::print` does.
    slots: Option<(&'d ModuleSlots, usize)>,
}

impl<'m, 'a> Bodies<'m, 'a> {
    /// Function `index` printed as `llvm-dis` prints it: `declare …` for a declaration,
    /// `define … { … }` with its decoded `body`. Without the `; Function Attrs:` comment
    /// line `llvm-dis` prints before it.
    pub fn display_function<'d>(
        &'d self,
        index: usize,
        body: Option<&'d Body>,
        options: DisOptions,
    ) -> FunctionDisplay<'d, 'm, 'a> {
        FunctionDisplay { bodies: self, index, body, options, slots: None }
    }

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
    /// `; ModuleID = '…'`, and as the module's path in its ThinLTO summary. Without it,
    /// neither line names the module.
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
        if let Some(name) = &m.source_filename {
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
            crate::ir::print::type_order::struct_order(b, &mut body)
                .into_iter()
                .partition(|&t| m.types.is_numbered_struct(t));
        numbered.sort();
        if !numbered.is_empty() || !named.is_empty() {
            f.write_char('\n')?;
            for s in numbered.iter().chain(&named).filter_map(|&t| m.types.struct_definition(t, opaque)) {
                writeln!(f, "{s}")?;
            }
        }
        // The comdats the module's functions, then its variables, use, in that order.
        let mut comdats: Vec<u64> = Vec::new();
        for c in m.functions.iter().map(|f| f.comdat).chain(m.globals.iter().map(|g| g.comdat)).flatten() {
            if !comdats.contains(&c) {
                comdats.push(c);
            }
        }
        for (i, c) in comdats.iter().filter_map(|&c| m.comdats.get(usize::try_from(c).ok()?)).enumerate() {
            f.write_str(if i == 0 { "\n$" } else { "\n\n$" })?;
            write_llvm_name(f, &c.name)?;
            write!(f, " = comdat {}", c.selection)?;
        }
        if !comdats.is_empty() {
            f.write_char('\n')?;
        }
        let mut slots = ModuleSlots::new(b, self.options.llvm_version);
        let printer = Printer::new(b.constants(), m, opaque).for_version(self.options.llvm_version);
        if !m.globals.is_empty() {
            f.write_char('\n')?;
            let md = b.module_metadata();
            for (i, g) in m.globals.iter().enumerate() {
                write!(f, "{}", m.display_global_var(i, b.constants(), opaque).for_llvm(self.options.llvm_version))?;
                write_attachments(f, b, &slots, None, md.attachments_of(g.common.value_id), ", ", &printer)?;
                let list = g.attributes.and_then(|a| a.checked_sub(1));
                if let Some(slot) =
                    crate::ir::print::slot_tracker::function_group(b, list).and_then(|g| slots.group_slot(g))
                {
                    write!(f, " #{slot}")?;
                }
                f.write_char('\n')?;
            }
        }
        // Aliases, then ifuncs; an aliasee that is a constant expression has no type.
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
                let expression = b.constants().get(a.target).is_some_and(|c| c.kind.is_expression());
                if expression {
                    printer.value(f, a.target, 0)?;
                } else {
                    printer.operand(f, a.target, 0)?;
                }
                write_partition(f, &a.common)?;
                f.write_char('\n')?;
            }
        }
        let mut text = alloc::string::String::new();
        for index in 0..m.functions.len() {
            f.write_char('\n')?;
            if let Some(comment) = function_attrs_comment(b, index, self.options.llvm_version) {
                writeln!(f, "; Function Attrs: {comment}")?;
            }
            let (defined, error) = match b.body_into(index, &mut body) {
                Ok(defined) => (defined, None),
                Err(e) => (false, Some(e)),
            };
            let scope = slots.add_function(b, index, defined.then_some(&body));
            let display = FunctionDisplay {
                bodies: b,
                index,
                body: defined.then_some(&body),
                options: self.options,
                slots: Some((&slots, scope)),
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
        if !md.named.is_empty() {
            f.write_char('\n')?;
            for &(name, ops) in &md.named {
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
            Ok(Some(summary)) => {
                crate::ir::summary::write(f, m, &summary, self.module_id.unwrap_or(""), self.options.llvm_version)?
            }
            Ok(None) => {}
            Err(e) => writeln!(f, "\n; error: the summary does not read: {e}")?,
        }
        Ok(())
    }
}

/// The datalayout as the reader of LLVM `llvm_version` leaves it (`UpgradeDataLayoutString`),
/// for x86 targets: the pointer-size address spaces 270-272 added after `e-m:X` (since
/// LLVM 10), and `-i128:128` after the leading `m`/`p`/`i` components (since LLVM 18,
/// but for Intel MCU). Other targets' upgrades are not made: Debian's libclc files of
/// each version need none.
fn upgraded_datalayout<'d>(dl: &'d str, triple: &str, llvm_version: u32) -> alloc::borrow::Cow<'d, str> {
    use alloc::borrow::Cow;
    let arch = triple.split('-').next().unwrap_or("");
    let x86 = matches!(arch, "x86_64" | "amd64" | "x86" | "i386" | "i486" | "i586" | "i686");
    if !x86 {
        return Cow::Borrowed(dl);
    }
    let mut out = alloc::string::String::from(dl);
    const SPACES: &str = "-p270:32:32-p271:32:32-p272:64:64";
    if !out.contains(SPACES) {
        // `(e-m:[a-z](-p:32:32)?)(-[if]64:.*$)`, at the start.
        let b = out.as_bytes();
        if b.len() > 5 && out.starts_with("e-m:") && b[4].is_ascii_lowercase() {
            let mut at = 5;
            if out[at..].starts_with("-p:32:32") {
                at += 8;
            }
            if out[at..].starts_with("-i64:") || out[at..].starts_with("-f64:") {
                out.insert_str(at, SPACES);
            }
        }
    }
    if llvm_version >= 18 && !triple.contains("elfiamcu") && !out.contains("-i128:128") {
        // `^(e(-[mpi][^-]*)*)((-[^mpi][^-]*)*)$`: insert between the two runs.
        let parts: Vec<&str> = out.split('-').collect();
        if parts.first() == Some(&"e") {
            let lead = 1 + parts[1..].iter().take_while(|p| p.starts_with(['m', 'p', 'i'])).count();
            if parts[lead..].iter().all(|p| !p.is_empty() && !p.starts_with(['m', 'p', 'i'])) {
                let mut upgraded = parts[..lead].join("-");
                upgraded.push_str("-i128:128");
                for p in &parts[lead..] {
                    upgraded.push('-');
                    upgraded.push_str(p);
                }
                out = upgraded;
            }
        }
    }
    if out == dl { Cow::Borrowed(dl) } else { Cow::Owned(out) }
}

/// A numbered node's body: `!{…}`, `distinct !DISubprogram(…)`.
fn write_node(
    f: &mut dyn fmt::Write,
    b: &Bodies<'_, '_>,
    md: &ModuleSlots,
    key: u64,
    printer: &Printer<'_, '_>,
    options: DisOptions,
) -> fmt::Result {
    use crate::ir::MetadataNode as N;
    let Some((scope, node)) = md.node(b, key) else { return f.write_str("<badref>") };
    let operand = |f: &mut dyn fmt::Write, plus_one: u64| match plus_one.checked_sub(1) {
        None => f.write_str("null"),
        Some(id) => write_md_ref(f, b, md, md.key(scope, id), printer),
    };
    match node {
        N::Tuple { distinct, operands } => {
            if distinct {
                f.write_str("distinct ")?;
            }
            f.write_str("!{")?;
            for (i, &op) in operands.iter().enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                operand(f, op)?;
            }
            f.write_char('}')
        }
        N::OldTuple { pairs, .. } => {
            f.write_str("!{")?;
            for (i, p) in pairs.chunks_exact(2).enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                if Some(crate::ir::TypeId(p[0] as u32)) == b.metadata_type() {
                    operand(f, p[1].saturating_add(1))?;
                } else if Some(crate::ir::TypeId(p[0] as u32)) == b.void_type() {
                    f.write_str("null")?;
                } else {
                    printer.ty(f, crate::ir::TypeId(p[0] as u32))?;
                    f.write_char(' ')?;
                    printer.value(f, p[1], 0)?;
                }
            }
            f.write_char('}')
        }
        N::Debug { code, operands } => match crate::ir::metadata::di::decode(code, operands) {
            Some((distinct, node)) => {
                if distinct {
                    f.write_str("distinct ")?;
                }
                let writer = NodeWriter { b, md, scope, printer, llvm_version: options.llvm_version };
                crate::ir::print::di_nodes::write_node(f, &node, &writer)
            }
            None => write!(f, "!{{}} ; metadata record {code} with {} operands does not decode", operands.len()),
        },
        N::Unknown { code, operands } => {
            write!(f, "!{{}} ; unknown metadata record {code} with {} operands", operands.len())
        }
        _ => write_md_ref(f, b, md, Some(key), printer),
    }
}

/// The `; Function Attrs:` comment: the function's non-string attributes.
fn function_attrs_comment(b: &Bodies<'_, '_>, index: usize, llvm_version: u32) -> Option<alloc::string::String> {
    let key = crate::ir::print::slot_tracker::function_group_key(b, index, llvm_version)?;
    let mut group = crate::ir::print::slot_tracker::group_content(b, key)?;
    group.attributes.retain(|a| !matches!(a, crate::ir::Attribute::String { .. }));
    if group.attributes.is_empty() {
        return None;
    }
    Some(alloc::format!("{}", group.display_inline(&b.module().types, false).for_llvm(llvm_version)))
}

/// A number in decimal, without the formatting machinery (slots and alignments are most
/// of the numbers a body prints).
fn write_decimal(f: &mut dyn fmt::Write, n: u64) -> fmt::Result {
    let mut buf = [0; 20];
    // Only ASCII digits are written.
    f.write_str(core::str::from_utf8(crate::text::decimal_digits(n, &mut buf)).unwrap_or("?"))
}

/// The name `AssemblyWriter` gives a calling convention (`fastcc`), or `cc N`.
pub fn calling_conv_name(cc: u32) -> Option<&'static str> {
    Some(match cc {
        8 => "fastcc",
        9 => "coldcc",
        10 => "ghccc",
        12 => "webkit_jscc",
        13 => "anyregcc",
        14 => "preserve_mostcc",
        15 => "preserve_allcc",
        16 => "swiftcc",
        17 => "cxx_fast_tlscc",
        18 => "tailcc",
        19 => "cfguard_checkcc",
        20 => "swifttailcc",
        21 => "preserve_nonecc",
        64 => "x86_stdcallcc",
        65 => "x86_fastcallcc",
        66 => "arm_apcscc",
        67 => "arm_aapcscc",
        68 => "arm_aapcs_vfpcc",
        69 => "msp430_intrcc",
        70 => "x86_thiscallcc",
        71 => "ptx_kernel",
        72 => "ptx_device",
        75 => "spir_func",
        76 => "spir_kernel",
        77 => "intel_ocl_bicc",
        78 => "x86_64_sysvcc",
        79 => "win64cc",
        80 => "x86_vectorcallcc",
        81 => "hhvmcc",
        82 => "hhvm_ccc",
        83 => "x86_intrcc",
        84 => "avr_intrcc ",
        85 => "avr_signalcc ",
        87 => "amdgpu_vs",
        88 => "amdgpu_gs",
        89 => "amdgpu_ps",
        90 => "amdgpu_cs",
        91 => "amdgpu_kernel",
        92 => "x86_regcallcc",
        93 => "amdgpu_hs",
        95 => "amdgpu_ls",
        96 => "amdgpu_es",
        97 => "aarch64_vector_pcs",
        98 => "aarch64_sve_vector_pcs",
        100 => "amdgpu_gfx",
        102 => "aarch64_sme_preservemost_from_x0",
        103 => "aarch64_sme_preservemost_from_x2",
        104 => "amdgpu_cs_chain",
        105 => "amdgpu_cs_chain_preserve",
        106 => "m68k_rtdcc",
        107 => "graalcc",
        110 => "riscv_vector_cc",
        _ => return None,
    })
}

/// The first and last LLVM versions whose `llvm-dis` names a calling convention;
/// outside them it prints `ccN`.
fn cc_named_in(cc: u32) -> (u32, u32) {
    match cc {
        12 => (0, 17),
        21 | 110 => (19, u32::MAX),
        102..=107 => (17, u32::MAX),
        _ => (0, u32::MAX),
    }
}

fn write_cc(f: &mut dyn fmt::Write, cc: u32, llvm_version: u32) -> fmt::Result {
    let (first, last) = cc_named_in(cc);
    let named = (first..=last).contains(&llvm_version);
    match calling_conv_name(cc) {
        Some(name) if named => f.write_str(name),
        // RISCV_VLSCall_32 … _65536 (LLVM 21 and later): `riscv_vls_cc(N)`.
        _ if (112..=123).contains(&cc) && llvm_version >= 21 => write!(f, "riscv_vls_cc({})", 32u64 << (cc - 112)),
        _ => write!(f, "cc{cc}"),
    }
}

/// Local slot numbers, as `SlotTracker` numbers a function: unnamed arguments, then per
/// block the unnamed block and its unnamed value-producing instructions.
struct Slots {
    arguments: Vec<u32>,
    blocks: Vec<u32>,
    instructions: Vec<u32>,
}

impl Slots {
    /// `locals`: each instruction's local index ([`Body::instruction_locals`]).
    fn new(body: &Body, locals: &[u32]) -> Self {
        let mut next = 0;
        let mut take = |named: bool| {
            if named {
                NO_SLOT
            } else {
                next += 1;
                next - 1
            }
        };
        let arguments = (0..body.arguments.len() as u32).map(|a| take(body.argument_name(a).is_some())).collect();
        let mut blocks = Vec::with_capacity(body.blocks.len());
        let mut instructions = alloc::vec![NO_SLOT; body.instructions.len()];
        for (b, block) in body.blocks.iter().enumerate() {
            blocks.push(take(body.block_name(b as u32).is_some()));
            for i in block.first..block.first + block.len {
                let Some(inst) = body.instructions.get(i as usize) else { break };
                if inst.has_result {
                    let local = locals.get(i as usize).copied().unwrap_or(NO_SLOT);
                    instructions[i as usize] = take(body.local_name(local).is_some());
                }
            }
        }
        Slots { arguments, blocks, instructions }
    }
}

struct BodyPrinter<'d, 'm, 'a> {
    bodies: &'d Bodies<'m, 'a>,
    body: &'d Body,
    constants: Printer<'d, 'a>,
    slots: Slots,
    locals: Vec<u32>,
    options: DisOptions,
    /// The metadata numbering, and the function's scope in it.
    md: &'d ModuleSlots,
    scope: usize,
}

impl BodyPrinter<'_, '_, '_> {
    fn ty(&self, f: &mut dyn fmt::Write, ty: TypeId) -> fmt::Result {
        if self.bodies.module().types.get(ty).is_none() {
            return f.write_str("<unknown type>");
        }
        self.constants.ty(f, ty)
    }

    fn local(&self, f: &mut dyn fmt::Write, name: Option<&[u8]>, slot: u32) -> fmt::Result {
        f.write_char('%')?;
        match name {
            Some(name) => write_llvm_name(f, name),
            None if slot == NO_SLOT => f.write_str("<badref>"),
            None => write_decimal(f, u64::from(slot)),
        }
    }

    fn value(&self, f: &mut dyn fmt::Write, o: &Operand) -> fmt::Result {
        let body = self.body;
        match o.value {
            Value::Global(id) | Value::Constant(id) => self.constants.value(f, id, 0),
            Value::Argument(n) => {
                self.local(f, body.argument_name(n), self.slots.arguments.get(n as usize).copied().unwrap_or(NO_SLOT))
            }
            Value::Instruction(n) => {
                let local = self.locals.get(n as usize).copied().unwrap_or(NO_SLOT);
                let slot = self.slots.instructions.get(n as usize).copied().unwrap_or(NO_SLOT);
                self.local(f, body.local_name(local), slot)
            }
            Value::Block(n) => {
                self.local(f, body.block_name(n), self.slots.blocks.get(n as usize).copied().unwrap_or(NO_SLOT))
            }
            Value::Metadata(id) => self.metadata(f, id),
            Value::Unresolved(_) => f.write_str("<badref>"),
            #[allow(unreachable_patterns)]
            _ => f.write_str("<badref>"),
        }
    }

    /// What metadata id `id` is, in the module's table or this function's.
    fn md_node(&self, id: u64) -> Option<crate::ir::MetadataNode<'_>> {
        let key = self.md.key(Some(self.scope), id)?;
        self.md.node(self.bodies, key).map(|(_, n)| n)
    }

    /// A metadata operand as `llvm-dis` prints it: values as metadata (`i32 %x`),
    /// expressions and argument lists inline (`!DIExpression()`, `!DIArgList(…)`), strings
    /// as `!"text"`, nodes as `!N`, their slot.
    fn metadata(&self, f: &mut dyn fmt::Write, id: u64) -> fmt::Result {
        use crate::ir::MetadataNode as N;
        match self.md_node(id) {
            Some(N::Value { ty, value }) => {
                let value = self.body.value_of(value, self.bodies.constants().base);
                self.operand(f, &Operand { value, ty }, true)
            }
            Some(N::ArgList(args)) => {
                f.write_str("!DIArgList(")?;
                for (i, &arg) in args.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    // The arguments are values as metadata; nothing nests deeper.
                    match self.inline_value(arg) {
                        Some(o) => self.operand(f, &o, true)?,
                        None => write!(f, "!{arg}")?,
                    }
                }
                f.write_char(')')
            }
            _ => {
                let key = self.md.key(Some(self.scope), id);
                write_md_ref(f, self.bodies, self.md, key, &self.constants)
            }
        }
    }

    /// The value a value-as-metadata id stands for.
    fn inline_value(&self, id: u64) -> Option<Operand> {
        match self.md_node(id)? {
            crate::ir::MetadataNode::Value { ty, value } => {
                Some(Operand { value: self.body.value_of(value, self.bodies.constants().base), ty })
            }
            _ => None,
        }
    }

    /// The function's attachments: ` !dbg !N`, … by kind.
    fn function_attachments(&self, f: &mut dyn fmt::Write) -> fmt::Result {
        let pairs: Vec<(u64, u64)> = if self.body.instructions.is_empty() && self.body.attachments.is_empty() {
            let module = self.bodies.module_metadata();
            let function = self.bodies.module().functions.get(self.body.function);
            function.map_or_else(Vec::new, |f| module.attachments_of(f.common.value_id))
        } else {
            self.body.attachments.iter().take_while(|a| a.instruction.is_none()).map(|a| (a.kind, a.node)).collect()
        };
        write_attachments(f, self.bodies, self.md, Some(self.scope), pairs, " ", &self.constants)
    }

    /// The instruction's attachments: `, !dbg !N`, then the others by kind.
    fn attachments(&self, f: &mut dyn fmt::Write, index: usize) -> fmt::Result {
        let inst = &self.body.instructions[index];
        if let Some(&key) = inst.debug_loc.and_then(|l| self.md.scopes.get(self.scope)?.locations.get(l as usize)) {
            f.write_str(", !dbg ")?;
            write_md_ref(f, self.bodies, self.md, Some(key), &self.constants)?;
        }
        let first = self.body.attachments.partition_point(|a| a.instruction.is_none_or(|i| (i as usize) < index));
        let pairs: Vec<(u64, u64)> = self.body.attachments[first..]
            .iter()
            .take_while(|a| a.instruction == Some(index as u32))
            .map(|a| (a.kind, a.node))
            .collect();
        write_attachments(f, self.bodies, self.md, Some(self.scope), pairs, ", ", &self.constants)
    }

    fn operand(&self, f: &mut dyn fmt::Write, o: &Operand, with_type: bool) -> fmt::Result {
        if with_type {
            self.ty(f, o.ty)?;
            f.write_char(' ')?;
        }
        self.value(f, o)
    }

    fn is_float(&self, ty: TypeId) -> bool {
        let types = &self.bodies.module().types;
        match types.get(ty) {
            Some(Type::Vector { element, .. }) => self.is_float(*element),
            Some(
                Type::Half | Type::BFloat | Type::Float | Type::Double | Type::X86Fp80 | Type::Fp128 | Type::PpcFp128,
            ) => true,
            _ => false,
        }
    }

    /// Attribute groups of an attribute list at one index, space-separated.
    fn attributes(&self, f: &mut dyn fmt::Write, list: Option<u32>, index: AttrIndex) -> Result<bool, fmt::Error> {
        let m = self.bodies.module();
        let Some(AttributeList::Groups(ids)) = list.and_then(|l| m.attribute_lists.get(l as usize)) else {
            return Ok(false);
        };
        let mut any = false;
        for g in ids.iter().filter_map(|&id| self.bodies.attribute_group(id)).filter(|g| g.index == index) {
            if g.attributes.is_empty() {
                continue;
            }
            if any {
                f.write_char(' ')?;
            }
            write!(
                f,
                "{}",
                g.display_inline(&m.types, self.options.opaque(self.bodies)).for_llvm(self.options.llvm_version)
            )?;
            any = true;
        }
        Ok(any)
    }

    /// The `#N` of attribute list `list`'s function attributes, if it has any.
    fn function_group(&self, list: Option<u32>) -> Option<u64> {
        let group = crate::ir::print::slot_tracker::function_group(self.bodies, list)?;
        Some(self.md.group_slot(group).map_or(group, u64::from))
    }

    fn fast_math(f: &mut dyn fmt::Write, flags: u32) -> fmt::Result {
        // UnsafeAlgebra (bit 0, before LLVM 6) or all seven flags: `fast`.
        if flags & 1 != 0 || flags & 0xfe == 0xfe {
            return f.write_str(" fast");
        }
        for (bit, name) in
            [(7, "reassoc"), (1, "nnan"), (2, "ninf"), (3, "nsz"), (4, "arcp"), (5, "contract"), (6, "afn")]
        {
            if flags & (1 << bit) != 0 {
                write!(f, " {name}")?;
            }
        }
        Ok(())
    }

    fn atomic(&self, f: &mut dyn fmt::Write, ordering: Ordering, scope: u32) -> fmt::Result {
        if ordering == Ordering::NotAtomic {
            return Ok(());
        }
        if let Some(name) = self.bodies.sync_scope_name(scope) {
            f.write_str(" syncscope(\"")?;
            write_escaped(f, name.as_bytes())?;
            f.write_str("\")")?;
        }
        write!(f, " {}", ordering.name())
    }

    /// A call's `cc attrs type callee(args) #N [bundles]`, after `call`/`invoke`.
    fn call(
        &self,
        f: &mut dyn fmt::Write,
        call: &crate::ir::CallInfo,
        operands: &[Operand],
        args: usize,
    ) -> fmt::Result {
        let types = &self.bodies.module().types;
        if call.calling_conv != 0 {
            f.write_char(' ')?;
            write_cc(f, call.calling_conv, self.options.llvm_version)?;
        }
        let mut ret_attrs = alloc::string::String::new();
        if self.attributes(&mut ret_attrs, call.attributes, AttrIndex::Return)? {
            f.write_char(' ')?;
            f.write_str(&ret_attrs)?;
        }
        let Some(callee) = operands.first() else { return f.write_str(" <no callee>") };
        // `maybePrintCallAddrSpace`: a callee in another address space than the program's.
        if let Some(Type::Pointer { address_space, .. }) = types.get(callee.ty) {
            if *address_space != 0 {
                write!(f, " addrspace({address_space})")?;
            }
        }
        let (ret, vararg) = match types.get(call.function_type) {
            Some(Type::Function { ret, vararg, .. }) => (*ret, *vararg),
            _ => (TypeId(u32::MAX), false),
        };
        f.write_char(' ')?;
        // The short form prints the return type, unless the callee is variadic (or, in
        // LLVM 14 and before, returns a pointer to a function).
        let returns_fn_pointer = !self.options.opaque(self.bodies)
            && matches!(types.get(ret), Some(Type::Pointer { pointee: Some(p), .. })
                if matches!(types.get(*p), Some(Type::Function { .. })));
        self.ty(f, if vararg || returns_fn_pointer { call.function_type } else { ret })?;
        f.write_char(' ')?;
        self.value(f, callee)?;
        f.write_char('(')?;
        for (i, arg) in operands.iter().skip(1).take(args).enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            self.ty(f, arg.ty)?;
            let mut attrs = alloc::string::String::new();
            if self.attributes(&mut attrs, call.attributes, AttrIndex::Param(i as u64))? {
                f.write_char(' ')?;
                f.write_str(&attrs)?;
            }
            f.write_char(' ')?;
            self.value(f, arg)?;
        }
        f.write_char(')')?;
        if let Some(id) = self.function_group(call.attributes) {
            f.write_str(" #")?;
            write_decimal(f, id)?;
        }
        let bundles =
            self.body.bundles.get(call.bundles.start as usize..(call.bundles.start + call.bundles.len) as usize);
        if let Some(bundles) = bundles.filter(|b| !b.is_empty()) {
            f.write_str(" [ ")?;
            for (i, bundle) in bundles.iter().enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                f.write_char('"')?;
                let tag = self.bodies.bundle_tags().get(bundle.tag as usize).map_or("", |t| t.as_str());
                write_escaped(f, tag.as_bytes())?;
                f.write_str("\"(")?;
                for (j, input) in self.body.operand_range(bundle.inputs).iter().enumerate() {
                    if j > 0 {
                        f.write_str(", ")?;
                    }
                    self.operand(f, input, true)?;
                }
                f.write_char(')')?;
            }
            f.write_str(" ]")?;
        }
        Ok(())
    }

    fn instruction(&self, f: &mut dyn fmt::Write, index: usize) -> fmt::Result {
        let body = self.body;
        let inst = &body.instructions[index];
        let ops = body.operands(inst);
        f.write_str("  ")?;
        if inst.has_result {
            let local = self.locals.get(index).copied().unwrap_or(NO_SLOT);
            self.local(f, body.local_name(local), self.slots.instructions[index])?;
            f.write_str(" = ")?;
        }
        if let InstKind::Call { tail, .. } = inst.kind {
            match tail {
                TailKind::MustTail => f.write_str("musttail ")?,
                TailKind::Tail => f.write_str("tail ")?,
                TailKind::NoTail => f.write_str("notail ")?,
                TailKind::None => {}
            }
        }
        let first_float = ops.first().is_some_and(|o| self.is_float(o.ty));
        // The opcode, then `atomic`, `weak`, `volatile`, the optimization flags.
        match inst.kind {
            InstKind::Ret => f.write_str("ret")?,
            InstKind::Br => f.write_str("br")?,
            InstKind::Switch => f.write_str("switch")?,
            InstKind::IndirectBr => f.write_str("indirectbr")?,
            InstKind::Invoke(_) => f.write_str("invoke")?,
            InstKind::Resume => f.write_str("resume")?,
            InstKind::Unreachable => f.write_str("unreachable")?,
            InstKind::CleanupRet => f.write_str("cleanupret")?,
            InstKind::CatchRet => f.write_str("catchret")?,
            InstKind::CatchSwitch { .. } => f.write_str("catchswitch")?,
            InstKind::CallBr { .. } => f.write_str("callbr")?,
            InstKind::Unary { flags, .. } => {
                f.write_str("fneg")?;
                Self::fast_math(f, flags)?;
            }
            InstKind::Binary { opcode, flags } => {
                f.write_str(binary_op_name(opcode, first_float))?;
                if first_float {
                    Self::fast_math(f, flags)?;
                } else {
                    match opcode {
                        0 | 1 | 2 | 7 => {
                            if flags & 1 != 0 {
                                f.write_str(" nuw")?;
                            }
                            if flags & 2 != 0 {
                                f.write_str(" nsw")?;
                            }
                        }
                        3 | 4 | 8 | 9 if flags & 1 != 0 => f.write_str(" exact")?,
                        11 if flags & 1 != 0 => f.write_str(" disjoint")?,
                        _ => {}
                    }
                }
            }
            InstKind::Cast { opcode, flags } => {
                f.write_str(cast_op_name(opcode))?;
                match opcode {
                    // trunc: nuw, nsw.
                    0 => {
                        if flags & 1 != 0 {
                            f.write_str(" nuw")?;
                        }
                        if flags & 2 != 0 {
                            f.write_str(" nsw")?;
                        }
                    }
                    // zext, uitofp: nneg.
                    1 | 5 if flags & 1 != 0 => f.write_str(" nneg")?,
                    // fptrunc, fpext and the int/float conversions with fast-math
                    // flags (LLVM 18 and later).
                    3 | 4 | 6 | 7 | 8 if flags != 0 => Self::fast_math(f, flags)?,
                    _ => {}
                }
            }
            InstKind::GetElementPtr { flags, .. } => {
                f.write_str("getelementptr")?;
                crate::ir::print::constants::write_gep_flags(f, u64::from(flags))?;
            }
            InstKind::Alloca { .. } => f.write_str("alloca")?,
            InstKind::Load { volatile, ordering, .. } => {
                f.write_str("load")?;
                if ordering != Ordering::NotAtomic {
                    f.write_str(" atomic")?;
                }
                if volatile {
                    f.write_str(" volatile")?;
                }
            }
            InstKind::Store { volatile, ordering, .. } => {
                f.write_str("store")?;
                if ordering != Ordering::NotAtomic {
                    f.write_str(" atomic")?;
                }
                if volatile {
                    f.write_str(" volatile")?;
                }
            }
            InstKind::Fence { .. } => f.write_str("fence")?,
            InstKind::CmpXchg { weak, volatile, .. } => {
                f.write_str("cmpxchg")?;
                if weak {
                    f.write_str(" weak")?;
                }
                if volatile {
                    f.write_str(" volatile")?;
                }
            }
            InstKind::AtomicRmw { opcode, volatile, .. } => {
                f.write_str("atomicrmw")?;
                if volatile {
                    f.write_str(" volatile")?;
                }
                write!(f, " {}", rmw_op_name(opcode))?;
            }
            InstKind::Cmp { predicate, flags } => {
                let float = predicate < 32;
                f.write_str(if float { "fcmp" } else { "icmp" })?;
                if float {
                    Self::fast_math(f, flags)?;
                } else if flags & 1 != 0 {
                    f.write_str(" samesign")?;
                }
                write!(f, " {}", predicate_name(predicate))?;
            }
            InstKind::Phi { flags } => {
                f.write_str("phi")?;
                Self::fast_math(f, flags)?;
            }
            InstKind::Select { flags } => {
                f.write_str("select")?;
                Self::fast_math(f, flags)?;
            }
            InstKind::Call { call, .. } => {
                f.write_str("call")?;
                Self::fast_math(f, call.fast_math)?;
            }
            InstKind::VaArg => f.write_str("va_arg")?,
            InstKind::LandingPad { .. } => f.write_str("landingpad")?,
            InstKind::CleanupPad => f.write_str("cleanuppad")?,
            InstKind::CatchPad => f.write_str("catchpad")?,
            InstKind::ExtractElement => f.write_str("extractelement")?,
            InstKind::InsertElement => f.write_str("insertelement")?,
            InstKind::ShuffleVector => f.write_str("shufflevector")?,
            InstKind::ExtractValue { .. } => f.write_str("extractvalue")?,
            InstKind::InsertValue { .. } => f.write_str("insertvalue")?,
            InstKind::Freeze => f.write_str("freeze")?,
            InstKind::Unknown { code, operands } => {
                return write!(f, "; unknown instruction record {code}: {:?}", body.literal_range(operands));
            }
            #[allow(unreachable_patterns)]
            _ => f.write_str("<unknown instruction>")?,
        }
        // The operands.
        match inst.kind {
            InstKind::Br if ops.len() == 3 => {
                f.write_char(' ')?;
                for (i, o) in ops.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    self.operand(f, o, true)?;
                }
            }
            InstKind::Switch => {
                f.write_char(' ')?;
                if let [cond, default, cases @ ..] = ops {
                    self.operand(f, cond, true)?;
                    f.write_str(", ")?;
                    self.operand(f, default, true)?;
                    f.write_str(" [")?;
                    for case in cases.chunks(2) {
                        f.write_str("\n    ")?;
                        self.operand(f, &case[0], true)?;
                        if let Some(b) = case.get(1) {
                            f.write_str(", ")?;
                            self.operand(f, b, true)?;
                        }
                    }
                    f.write_str("\n  ]")?;
                }
            }
            InstKind::IndirectBr => {
                f.write_char(' ')?;
                if let [addr, blocks @ ..] = ops {
                    self.operand(f, addr, true)?;
                    f.write_str(", [")?;
                    for (i, b) in blocks.iter().enumerate() {
                        if i > 0 {
                            f.write_str(", ")?;
                        }
                        self.operand(f, b, true)?;
                    }
                    f.write_char(']')?;
                }
            }
            InstKind::Phi { .. } => {
                f.write_char(' ')?;
                self.ty(f, inst.ty)?;
                f.write_char(' ')?;
                for (i, pair) in ops.chunks(2).enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    f.write_str("[ ")?;
                    self.value(f, &pair[0])?;
                    f.write_str(", ")?;
                    if let Some(b) = pair.get(1) {
                        self.value(f, b)?;
                    }
                    f.write_str(" ]")?;
                }
            }
            InstKind::ExtractValue { indices } | InstKind::InsertValue { indices } => {
                f.write_char(' ')?;
                for (i, o) in ops.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    self.operand(f, o, true)?;
                }
                for i in body.literal_range(indices) {
                    write!(f, ", {}", *i as u32)?;
                }
            }
            InstKind::LandingPad { cleanup, clauses } => {
                f.write_char(' ')?;
                self.ty(f, inst.ty)?;
                let kinds = body.literal_range(clauses);
                if cleanup || !kinds.is_empty() {
                    f.write_char('\n')?;
                }
                if cleanup {
                    f.write_str("          cleanup")?;
                }
                for (i, (kind, o)) in kinds.iter().zip(ops).enumerate() {
                    if i != 0 || cleanup {
                        f.write_char('\n')?;
                    }
                    f.write_str(if *kind == 0 { "          catch " } else { "          filter " })?;
                    self.operand(f, o, true)?;
                }
            }
            InstKind::CatchSwitch { has_unwind } => {
                f.write_str(" within ")?;
                if let [parent, rest @ ..] = ops {
                    self.value(f, parent)?;
                    let (handlers, unwind) =
                        if has_unwind { rest.split_at(rest.len().saturating_sub(1)) } else { (rest, &[][..]) };
                    f.write_str(" [")?;
                    for (i, h) in handlers.iter().enumerate() {
                        if i > 0 {
                            f.write_str(", ")?;
                        }
                        self.operand(f, h, true)?;
                    }
                    f.write_str("] unwind ")?;
                    match unwind.first() {
                        Some(u) => self.operand(f, u, true)?,
                        None => f.write_str("to caller")?,
                    }
                }
            }
            InstKind::CleanupPad | InstKind::CatchPad => {
                f.write_str(" within ")?;
                if let [parent, args @ ..] = ops {
                    self.value(f, parent)?;
                    f.write_str(" [")?;
                    for (i, a) in args.iter().enumerate() {
                        if i > 0 {
                            f.write_str(", ")?;
                        }
                        self.operand(f, a, true)?;
                    }
                    f.write_char(']')?;
                }
            }
            InstKind::Ret if ops.is_empty() => f.write_str(" void")?,
            InstKind::CatchRet => {
                if let [pad, to] = ops {
                    f.write_str(" from ")?;
                    self.value(f, pad)?;
                    f.write_str(" to ")?;
                    self.operand(f, to, true)?;
                }
            }
            InstKind::CleanupRet => {
                if let [pad, rest @ ..] = ops {
                    f.write_str(" from ")?;
                    self.value(f, pad)?;
                    f.write_str(" unwind ")?;
                    match rest.first() {
                        Some(u) => self.operand(f, u, true)?,
                        None => f.write_str("to caller")?,
                    }
                }
            }
            InstKind::Call { call, tail } => {
                let args = ops.len().saturating_sub(1);
                self.call(f, &call, ops, args)?;
                let _ = tail;
            }
            InstKind::Invoke(call) => {
                let args = ops.len().saturating_sub(3);
                self.call(f, &call, ops, args)?;
                if let [.., normal, unwind] = ops {
                    f.write_str("\n          to ")?;
                    self.operand(f, normal, true)?;
                    f.write_str(" unwind ")?;
                    self.operand(f, unwind, true)?;
                }
            }
            InstKind::CallBr { call, indirect } => {
                let args = ops.len().saturating_sub(2 + indirect as usize);
                self.call(f, &call, ops, args)?;
                let dests = &ops[(1 + args).min(ops.len())..];
                if let [default, indirect @ ..] = dests {
                    f.write_str("\n          to ")?;
                    self.operand(f, default, true)?;
                    f.write_str(" [")?;
                    for (i, d) in indirect.iter().enumerate() {
                        if i > 0 {
                            f.write_str(", ")?;
                        }
                        self.operand(f, d, true)?;
                    }
                    f.write_char(']')?;
                }
            }
            InstKind::Alloca { allocated, align, inalloca, swifterror } => {
                f.write_char(' ')?;
                if inalloca {
                    f.write_str("inalloca ")?;
                }
                if swifterror {
                    f.write_str("swifterror ")?;
                }
                self.ty(f, allocated)?;
                if let Some(size) = ops.first() {
                    let is_i32 = matches!(self.bodies.module().types.get(size.ty), Some(Type::Integer(32)));
                    let is_one = matches!(size.value, Value::Constant(id) if self.is_constant_one(id));
                    if !is_i32 || !is_one {
                        f.write_str(", ")?;
                        self.operand(f, size, true)?;
                    }
                }
                if let Some(a) = align {
                    f.write_str(", align ")?;
                    write_decimal(f, a)?;
                }
                let address_space = match self.bodies.module().types.get(inst.ty) {
                    Some(Type::Pointer { address_space, .. }) => *address_space,
                    _ => 0,
                };
                if address_space != 0 {
                    write!(f, ", addrspace({address_space})")?;
                }
            }
            InstKind::Cast { .. } => {
                if let Some(o) = ops.first() {
                    f.write_char(' ')?;
                    self.operand(f, o, true)?;
                }
                f.write_str(" to ")?;
                self.ty(f, inst.ty)?;
            }
            InstKind::VaArg => {
                if let Some(o) = ops.first() {
                    f.write_char(' ')?;
                    self.operand(f, o, true)?;
                }
                f.write_str(", ")?;
                self.ty(f, inst.ty)?;
            }
            _ if !ops.is_empty() => {
                match inst.kind {
                    InstKind::GetElementPtr { source, .. } => {
                        f.write_char(' ')?;
                        self.ty(f, source)?;
                        f.write_char(',')?;
                    }
                    InstKind::Load { .. } => {
                        f.write_char(' ')?;
                        self.ty(f, inst.ty)?;
                        f.write_char(',')?;
                    }
                    _ => {}
                }
                let shown: &[Operand] =
                    if let InstKind::ShuffleVector = inst.kind { &ops[..2.min(ops.len())] } else { ops };
                // cmpxchg and atomicrmw print every type from LLVM 15 on.
                let atomic = matches!(inst.kind, InstKind::CmpXchg { .. } | InstKind::AtomicRmw { .. });
                let all_types = matches!(
                    inst.kind,
                    InstKind::Select { .. } | InstKind::Store { .. } | InstKind::ShuffleVector | InstKind::Ret
                ) || (atomic && self.options.llvm_version >= 15)
                    || ops.iter().any(|o| o.ty != ops[0].ty);
                if !all_types {
                    f.write_char(' ')?;
                    self.ty(f, ops[0].ty)?;
                }
                f.write_char(' ')?;
                for (i, o) in shown.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    self.operand(f, o, all_types)?;
                }
            }
            _ => {}
        }
        // Orderings, alignments, the shuffle mask.
        match inst.kind {
            InstKind::Load { align, ordering, scope, .. } | InstKind::Store { align, ordering, scope, .. } => {
                self.atomic(f, ordering, scope)?;
                if let Some(a) = align {
                    f.write_str(", align ")?;
                    write_decimal(f, a)?;
                }
            }
            InstKind::CmpXchg { success, failure, scope, align, .. } => {
                self.atomic(f, success, scope)?;
                write!(f, " {}", failure.name())?;
                if let Some(a) = align {
                    f.write_str(", align ")?;
                    write_decimal(f, a)?;
                }
            }
            InstKind::AtomicRmw { ordering, scope, align, .. } => {
                self.atomic(f, ordering, scope)?;
                if let Some(a) = align {
                    f.write_str(", align ")?;
                    write_decimal(f, a)?;
                }
            }
            InstKind::Fence { ordering, scope } => self.atomic(f, ordering, scope)?,
            InstKind::Call { .. } => self.gc_relocate_comment(f, ops)?,
            InstKind::ShuffleVector => match ops.get(2).map(|m| m.value) {
                Some(Value::Constant(id)) => self.constants.shuffle_mask(f, id)?,
                _ => f.write_str(", <bad mask>")?,
            },
            _ => {}
        }
        Ok(())
    }

    /// `printGCRelocateComment`: ` ; (%base, %derived)` after a `gc.relocate` call,
    /// the two pointers being its statepoint's `gc-live` inputs at the call's indices.
    fn gc_relocate_comment(&self, f: &mut dyn fmt::Write, ops: &[Operand]) -> fmt::Result {
        let m = self.bodies.module();
        let [callee, token, base, derived] = ops else { return Ok(()) };
        let Value::Global(id) = callee.value else { return Ok(()) };
        if !m.global(id).is_some_and(|g| g.name.starts_with(b"llvm.experimental.gc.relocate")) {
            return Ok(());
        }
        let Value::Instruction(statepoint) = token.value else { return Ok(()) };
        let Some(InstKind::Call { call, .. } | InstKind::Invoke(call)) =
            self.body.instructions.get(statepoint as usize).map(|i| i.kind)
        else {
            return Ok(());
        };
        let start = call.bundles.start as usize;
        let bundles = self.body.bundles.get(start..start + call.bundles.len as usize).unwrap_or(&[]);
        let Some(live) =
            bundles.iter().find(|b| self.bodies.bundle_tags().get(b.tag as usize).is_some_and(|t| t == "gc-live"))
        else {
            return Ok(());
        };
        let inputs = self.body.operand_range(live.inputs);
        let index = |o: &Operand| match o.value {
            Value::Constant(id) => {
                self.body.constants.get(id).or_else(|| self.bodies.constants().get(id)).and_then(|c| match c.kind {
                    crate::ir::ConstantKind::Int(v) => usize::try_from(v).ok(),
                    crate::ir::ConstantKind::Null => Some(0),
                    _ => None,
                })
            }
            _ => None,
        };
        let (Some(b), Some(d)) = (index(base).and_then(|i| inputs.get(i)), index(derived).and_then(|i| inputs.get(i)))
        else {
            return Ok(());
        };
        f.write_str(" ; (")?;
        self.value(f, b)?;
        f.write_str(", ")?;
        self.value(f, d)?;
        f.write_char(')')
    }

    fn is_constant_one(&self, id: u64) -> bool {
        let c = self.body.constants.get(id).or_else(|| self.bodies.constants().get(id));
        matches!(c.map(|c| c.kind), Some(crate::ir::ConstantKind::Int(1)))
    }

    /// Each block's predecessors, in the order of its use list: uses in reverse order of
    /// creation, then permuted as the function's USELIST_CODE_BB records say.
    fn predecessors(&self) -> Vec<Vec<u32>> {
        let body = self.body;
        let mut uses: Vec<Vec<u32>> = alloc::vec![Vec::new(); body.blocks.len()];
        for (b, block) in body.blocks.iter().enumerate() {
            let Some(last) = (block.len > 0).then(|| &body.instructions[(block.first + block.len - 1) as usize]) else {
                continue;
            };
            let ops = body.operands(last);
            let mut targets: Vec<u32> =
                ops.iter().filter_map(|o| if let Value::Block(t) = o.value { Some(t) } else { None }).collect();
            if let InstKind::CatchSwitch { has_unwind: true } = last.kind {
                // The unwind destination is set first.
                if let Some(u) = targets.pop() {
                    targets.insert(0, u);
                }
            }
            for t in targets {
                if let Some(list) = uses.get_mut(t as usize) {
                    list.push(b as u32);
                }
            }
        }
        for list in &mut uses {
            list.reverse();
        }
        for &(bb, order) in &body.block_use_orders {
            let order = body.literal_range(order);
            let Some(list) = uses.get_mut(bb as usize) else { continue };
            if order.len() != list.len() {
                continue;
            }
            let mut keyed: Vec<(u64, u32)> = order.iter().copied().zip(list.iter().copied()).collect();
            keyed.sort_by_key(|(k, _)| *k);
            *list = keyed.into_iter().map(|(_, p)| p).collect();
        }
        uses
    }
}

impl fmt::Display for FunctionDisplay<'_, '_, '_> {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Printed into one string, then written once: the text is made of many short
        // pieces, each a call through `Formatter` to the writer otherwise.
        let mut text = alloc::string::String::with_capacity(
            self.body.map_or(256, |b| b.instructions.len().saturating_mul(48).min(1 << 24)),
        );
        self.write(&mut text)?;
        out.write_str(&text)
    }
}

impl FunctionDisplay<'_, '_, '_> {
    fn write(&self, f: &mut alloc::string::String) -> fmt::Result {
        let b = self.bodies;
        let m = b.module();
        let Some(function) = m.functions.get(self.index) else { return f.write_str("; no such function") };
        let c = &function.common;
        let opaque = self.options.opaque(b);
        // A declaration has no body: an empty one, of this function (for its attachments).
        let mut empty = Body::default();
        empty.function = self.index;
        let body = self.body.unwrap_or(&empty);
        let constants =
            Printer::new(b.constants(), m, opaque).for_version(self.options.llvm_version).with_local(&body.constants);
        let locals = body.instruction_locals();
        let own;
        let (md, scope) = match self.slots {
            Some(s) => s,
            None => {
                let mut slots = ModuleSlots::new(b, self.options.llvm_version);
                let scope = slots.add_function(b, self.index, self.body);
                own = slots;
                (&own, scope)
            }
        };
        let p = BodyPrinter {
            bodies: b,
            body,
            constants,
            slots: Slots::new(body, &locals),
            locals,
            options: self.options,
            md,
            scope,
        };
        let list = function.attributes.and_then(|a| a.checked_sub(1)).map(|a| a as u32);
        if self.body.is_some() {
            f.write_str("define ")?;
        } else {
            f.write_str("declare")?;
            p.function_attachments(f)?;
            f.write_char(' ')?;
        }
        write_global_prefix(f, c)?;
        if function.calling_conv != 0 {
            write_cc(f, function.calling_conv as u32, self.options.llvm_version)?;
            f.write_char(' ')?;
        }
        let mut s = alloc::string::String::new();
        if p.attributes(&mut s, list, AttrIndex::Return)? {
            f.write_str(&s)?;
            f.write_char(' ')?;
        }
        let (ret, params, vararg) = match m.types.get(c.value_type) {
            Some(Type::Function { ret, params, vararg }) => (*ret, params.as_slice(), *vararg),
            _ => (TypeId(u32::MAX), &[][..], false),
        };
        p.ty(f, ret)?;
        f.write_char(' ')?;
        p.constants.global_name(f, c.value_id)?;
        f.write_char('(')?;
        for (i, &t) in params.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            p.ty(f, t)?;
            let mut s = alloc::string::String::new();
            if p.attributes(&mut s, list, AttrIndex::Param(i as u64))? {
                f.write_char(' ')?;
                f.write_str(&s)?;
            }
            if self.body.is_some() {
                f.write_char(' ')?;
                let slot = p.slots.arguments.get(i).copied().unwrap_or(NO_SLOT);
                p.local(f, body.argument_name(i as u32), slot)?;
            }
        }
        if vararg {
            if !params.is_empty() {
                f.write_str(", ")?;
            }
            f.write_str("...")?;
        }
        f.write_char(')')?;
        if let Some(keyword) = c.unnamed_addr.keyword() {
            write!(f, " {keyword}")?;
        }
        let program_address_space = m
            .datalayout
            .as_deref()
            .and_then(|dl| dl.split('-').find_map(|p| p.strip_prefix('P')?.parse::<u64>().ok()))
            .unwrap_or(0);
        if c.address_space != 0 || program_address_space != 0 {
            write!(f, " addrspace({})", c.address_space)?;
        }
        if let Some(key) = crate::ir::print::slot_tracker::function_group_key(b, self.index, self.options.llvm_version)
        {
            f.write_str(" #")?;
            write_decimal(f, md.group_slot(key).map_or(key, u64::from))?;
        }
        if let Some(section) = &function.section {
            f.write_str(" section \"")?;
            write_escaped(f, section.as_bytes())?;
            f.write_char('"')?;
        }
        if let Some(partition) = c.partition.as_ref().filter(|p| !p.is_empty()) {
            f.write_str(" partition \"")?;
            write_escaped(f, partition)?;
            f.write_char('"')?;
        }
        write_comdat(f, m, function.comdat, &c.name, " ")?;
        if let Some(a) = function.alignment {
            write!(f, " align {a}")?;
        }
        if let Some(a) = function.preferred_alignment {
            write!(f, " prefalign {a}")?;
        }
        if let Some(gc) = &function.gc {
            write!(f, " gc \"{gc}\"")?;
        }
        for (word, value) in
            [("prefix", function.prefix), ("prologue", function.prologue), ("personality", function.personality)]
        {
            if let Some(v) = value {
                write!(f, " {word} ")?;
                p.constants.operand(f, v, 0)?;
            }
        }
        if self.body.is_none() {
            return Ok(());
        }
        p.function_attachments(f)?;
        f.write_str(" {")?;
        let preds = p.predecessors();
        for (bi, block) in body.blocks.iter().enumerate() {
            let entry = bi == 0;
            let name = body.block_name(bi as u32);
            if name.is_some() || !entry {
                f.write_char('\n')?;
            }
            let label_start = f.len();
            match (name, p.slots.blocks[bi]) {
                (Some(name), _) => write_llvm_name(f, name)?,
                (None, _) if entry => {}
                (None, NO_SLOT) => f.write_str("<badref>")?,
                (None, slot) => write_decimal(f, u64::from(slot))?,
            }
            if name.is_some() || !entry {
                f.write_char(':')?;
            }
            if !entry {
                // `PadToColumn(50)` on the label line: to column 50, one space at least.
                let column = f.len() - label_start;
                for _ in column..50.max(column + 1) {
                    f.write_char(' ')?;
                }
                f.write_char(';')?;
                let list = &preds[bi];
                if list.is_empty() {
                    f.write_str(" No predecessors!")?;
                } else {
                    f.write_str(" preds = ")?;
                    for (i, &pred) in list.iter().enumerate() {
                        if i > 0 {
                            f.write_str(", ")?;
                        }
                        let slot = p.slots.blocks.get(pred as usize).copied().unwrap_or(NO_SLOT);
                        p.local(f, body.block_name(pred), slot)?;
                    }
                }
            }
            f.write_char('\n')?;
            for i in block.first..block.first + block.len {
                for r in body.debug_records.iter().filter(|r| r.before == i) {
                    write_debug_record(f, &p, r)?;
                }
                p.instruction(f, i as usize)?;
                p.attachments(f, i as usize)?;
                f.write_char('\n')?;
            }
        }
        f.write_char('}')
    }
}

fn write_debug_record(f: &mut dyn fmt::Write, p: &BodyPrinter<'_, '_, '_>, r: &crate::ir::DebugRecord) -> fmt::Result {
    use crate::ids::llvm_ir::raw as ids;
    let name = match r.code {
        ids::FUNC_CODE_DEBUG_RECORD_DECLARE => "dbg_declare",
        ids::FUNC_CODE_DEBUG_RECORD_ASSIGN => "dbg_assign",
        ids::FUNC_CODE_DEBUG_RECORD_LABEL => "dbg_label",
        ids::FUNC_CODE_DEBUG_RECORD_DECLARE_VALUE => "dbg_declare_value",
        _ => "dbg_value",
    };
    write!(f, "    #{name}(")?;
    let md = p.body.literal_range(r.operands);
    // The file's order is [location, variable or label, expression, value, (assign id,
    // address, address expression)]; llvm-dis prints the value first and the location
    // last: the value as it is (`ptr %p`), the rest as metadata operands.
    let mut items: Vec<u64> = md.iter().skip(1).copied().collect();
    let value = match &r.value {
        Some(v) => Some(*v),
        None if r.code != ids::FUNC_CODE_DEBUG_RECORD_LABEL && items.len() >= 3 => {
            let id = items.remove(2);
            items.insert(0, id);
            None
        }
        None => None,
    };
    let mut first = true;
    if let Some(v) = &value {
        p.operand(f, v, true)?;
        first = false;
    }
    for id in items.iter().chain(md.first()) {
        if !first {
            f.write_str(", ")?;
        }
        first = false;
        p.metadata(f, *id)?;
    }
    f.write_str(")\n")
}

/// Attachments `(kind, node)` in kind order, each after `separator`: `, !tbaa !5`.
fn write_attachments(
    f: &mut dyn fmt::Write,
    b: &Bodies<'_, '_>,
    md: &ModuleSlots,
    scope: Option<usize>,
    mut pairs: Vec<(u64, u64)>,
    separator: &str,
    constants: &Printer<'_, '_>,
) -> fmt::Result {
    pairs.sort_by_key(|p| p.0);
    for (kind, node) in pairs {
        f.write_str(separator)?;
        write_kind(f, b, kind)?;
        f.write_char(' ')?;
        write_md_ref(f, b, md, md.key(scope, node), constants)?;
    }
    Ok(())
}

/// `!name` of an attachment kind, as `printMetadataIdentifier` spells it.
fn write_kind(f: &mut dyn fmt::Write, b: &Bodies<'_, '_>, kind: u64) -> fmt::Result {
    let module = b.module_metadata();
    match module.kinds.iter().find(|(id, _)| *id == kind) {
        Some(&(_, name)) => write_metadata_name(f, module.owned_bytes(name)),
        None => write!(f, "!<unknown kind #{kind}>"),
    }
}

/// `!name` as LLVM's `printMetadataIdentifier`: `[-a-zA-Z$._][-a-zA-Z$._0-9]*` as it is,
/// any other byte as `\XX`.
fn write_metadata_name(f: &mut dyn fmt::Write, name: &[u8]) -> fmt::Result {
    f.write_char('!')?;
    if name.is_empty() {
        return f.write_str("<empty name> ");
    }
    let ok = |c: u8, first: bool| {
        c.is_ascii_alphabetic() || b"-$._".contains(&c) || (!first && (c.is_ascii_digit() || c == b'\\'))
    };
    for (i, &c) in name.iter().enumerate() {
        if ok(c, i == 0) {
            f.write_char(c as char)?;
        } else {
            write!(f, "\\{c:02X}")?;
        }
    }
    Ok(())
}

/// A metadata operand that is not a local value: `!N` for a numbered node, `!"text"`
/// for a string, values and expressions inline.
fn write_md_ref(
    f: &mut dyn fmt::Write,
    b: &Bodies<'_, '_>,
    md: &ModuleSlots,
    key: Option<u64>,
    constants: &Printer<'_, '_>,
) -> fmt::Result {
    use crate::ir::MetadataNode as N;
    let Some(key) = key else { return f.write_str("<badref>") };
    if let Some(slot) = md.slot(key) {
        f.write_char('!')?;
        return write_decimal(f, u64::from(slot));
    }
    match md.node(b, key) {
        Some((_, N::String(text))) => {
            f.write_str("!\"")?;
            write_escaped(f, text)?;
            f.write_char('"')
        }
        Some((_, N::Value { ty, value })) => {
            constants.ty(f, ty)?;
            f.write_char(' ')?;
            constants.value(f, value, 0)
        }
        Some((_, N::Expression { elements, .. })) => crate::ir::print::dwarf_expr::write_expression(f, elements),
        _ => write!(f, "<{key}>"),
    }
}

/// What the debug-info printer asks of the module: references by slot, strings, constants.
struct NodeWriter<'w, 'm, 'a, 'p, 'q> {
    b: &'w Bodies<'m, 'a>,
    md: &'w ModuleSlots,
    scope: Option<usize>,
    printer: &'w Printer<'p, 'q>,
    llvm_version: u32,
}

impl NodeWriter<'_, '_, '_, '_, '_> {
    fn node(&self, r: crate::ir::metadata::di::MdRef) -> Option<crate::ir::MetadataNode<'_>> {
        let key = self.md.key(self.scope, u64::from(r.0.checked_sub(1)?))?;
        self.md.node(self.b, key).map(|(_, n)| n)
    }
}

impl crate::ir::print::di_nodes::MdWriter for NodeWriter<'_, '_, '_, '_, '_> {
    fn write_ref(&self, f: &mut dyn fmt::Write, r: crate::ir::metadata::di::MdRef) -> fmt::Result {
        match r.0.checked_sub(1) {
            None => f.write_str("null"),
            Some(id) => write_md_ref(f, self.b, self.md, self.md.key(self.scope, u64::from(id)), self.printer),
        }
    }

    fn string(&self, r: crate::ir::metadata::di::MdRef) -> Option<&[u8]> {
        match self.node(r)? {
            crate::ir::MetadataNode::String(s) => Some(s),
            _ => None,
        }
    }

    fn llvm_version(&self) -> u32 {
        self.llvm_version
    }

    fn constant_int(&self, r: crate::ir::metadata::di::MdRef) -> Option<i64> {
        let crate::ir::MetadataNode::Value { value, .. } = self.node(r)? else { return None };
        let c = self.b.constants().get(value)?;
        match c.kind {
            crate::ir::ConstantKind::Int(v) => Some(v),
            // `i64 0` is written as a null constant.
            crate::ir::ConstantKind::Null
                if matches!(self.b.module().types.get(c.ty), Some(crate::ir::Type::Integer(_))) =>
            {
                Some(0)
            }
            _ => None,
        }
    }

    fn expression(&self, r: crate::ir::metadata::di::MdRef) -> Option<&[u64]> {
        match self.node(r)? {
            crate::ir::MetadataNode::Expression { elements, .. } => Some(elements),
            _ => None,
        }
    }
}
