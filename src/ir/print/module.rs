//! The whole module as `llvm-dis` prints it ([`Bodies::display_module`]): the
//! module-level lines, structs, comdats, globals, aliases and ifuncs, every function,
//! attribute groups, named metadata, metadata nodes and the ThinLTO summary.

use alloc::vec::Vec;
use core::fmt::{self, Write as _};

use crate::ir::body::{Bodies, Body};
use crate::ir::module::types::TypeId;
use crate::ir::print::DisOptions;
use crate::ir::print::constants::Printer;
use crate::ir::print::escape::{write_escaped, write_llvm_name};
use crate::ir::print::function::{BlockSlots, FunctionDisplay, ModuleTexts};
use crate::ir::print::globals::{write_global_prefix, write_partition, write_thread_local, write_unnamed_addr};
use crate::ir::print::metadata::{write_attachments, write_md_ref, write_metadata_name, write_node};
use crate::ir::print::slot_tracker::ModuleSlots;
use crate::ir::view::ModuleView;
use crate::ir::view::{Listed, lifetime_leftover_name};

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
        ModuleDisplay { bodies: self, options, module_id: None, threads: 1 }
    }
}

/// A whole module printed as `llvm-dis` prints it: see [`Bodies::display_module`].
pub struct ModuleDisplay<'d, 'm, 'a> {
    bodies: &'d Bodies<'m, 'a>,
    options: DisOptions,
    module_id: Option<&'d str>,
    threads: usize,
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

    /// Lets printing use up to `threads` threads (with the `std` feature; 1, the default,
    /// prints on the caller's thread only). The text is the same for every count. From 2
    /// on, every function's metadata is numbered first, in one pass with the walk that
    /// finds the structs in use, while a helper decodes the bodies ahead of it; then runs
    /// of functions (decoded again) and runs of metadata nodes are printed by `threads`
    /// threads and written in order, a few runs held in memory at a time. On two cores
    /// that is 1.3-1.5x faster than one thread (docs/PERFORMANCE.md, 2026-11-27).
    ///
    /// ```
    /// use llvm_bitstream_reader::ir::{DisOptions, Module};
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/llvm14_ir_debuginfo.bc"))?;
    /// let module = Module::parse(&bytes)?;
    /// let bodies = module.bodies()?;
    /// let one = bodies.display_module(DisOptions::default()).to_string();
    /// let two = bodies.display_module(DisOptions::default()).with_threads(2).to_string();
    /// assert_eq!(one, two);
    /// # Ok(()) }
    /// ```
    pub fn with_threads(mut self, threads: usize) -> Self {
        self.threads = threads.max(1);
        self
    }
}

impl fmt::Display for ModuleDisplay<'_, '_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The module as the printing version reads it.
        let view = self.bodies.view(self.options.llvm_version);
        #[cfg(feature = "std")]
        if self.threads > 1 {
            return std::thread::scope(|scope| self.write(f, &view, Some(scope)));
        }
        self.write(f, &view, None)
    }
}

/// The scope helper threads are spawned in (`None`: print on the caller's thread only).
#[cfg(feature = "std")]
type Helpers<'s, 'e> = Option<&'s std::thread::Scope<'s, 'e>>;
/// Without `std` there are no threads: always `None`.
#[cfg(not(feature = "std"))]
type Helpers<'s, 'e> = Option<core::marker::PhantomData<(&'s (), &'e ())>>;

impl<'d, 'm, 'a> ModuleDisplay<'d, 'm, 'a> {
    fn write<'s, 'e>(
        &'s self,
        f: &mut fmt::Formatter<'_>,
        view: &'e ModuleView<'e, 'm, 'a>,
        helpers: Helpers<'s, 'e>,
    ) -> fmt::Result {
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
        // An empty layout prints no line (`AsmWriter`), also one the file wrote empty.
        let dl = view.datalayout();
        if !dl.is_empty() {
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
        let version = self.options.llvm_version;
        // The metadata slots before any function (LLVM's `processModule`).
        let mut slots = ModuleSlots::new(view);
        let order = view.function_order();
        // With threads, every function's metadata is numbered first (the slots are then
        // fixed, and the functions can be printed side by side), its body decoded by a
        // helper ahead of the numbering; the same pass finds the structs in use.
        let parallel = helpers.is_some();
        let (structs, scopes) = if parallel {
            let mut source = BodySource::new(view, order, helpers);
            let mut finder = crate::ir::print::type_order::StructFinder::new(view);
            let scopes: Vec<usize> = order
                .iter()
                .map(|&listed| match listed {
                    Listed::Function(index) => {
                        let decoded = source.body_into(view, index, &mut body);
                        if finder.wants_bodies() {
                            // A body that fails to decode counts for what was read of it.
                            finder.function(index, (!matches!(decoded, Ok(false))).then_some(&body));
                        }
                        slots.add_function(view, index, matches!(decoded, Ok(true)).then_some(&body))
                    }
                    Listed::LifetimeLeftover(_) => usize::MAX,
                })
                .collect();
            (finder.finish(), scopes)
        } else {
            (crate::ir::print::type_order::struct_order(view, &mut body), Vec::new())
        };
        // The numbered structs (`%0 = type …`) first, by number, then the named ones in
        // the order the module uses them (AsmWriter's `printTypeIdentities`).
        write_structs(f, b, structs, opaque, version)?;
        // The comdats the module's functions, then its variables, use, in that order.
        // A comdat is its name (`getOrInsertComdat`): an implicit one of an old object
        // (`upgrade::has_implicit_comdat`, selection `any`) is one of the same name.
        let objects = m
            .functions
            .iter()
            .map(|f| (f.comdat, f.comdat_operand, &f.common))
            .chain(m.globals.iter().map(|g| (g.comdat, g.comdat_operand, &g.common)));
        let mut comdats: Vec<(&[u8], Option<&crate::ir::Comdat<'_>>)> = Vec::new();
        for (comdat, operand, common) in objects {
            let entry = match comdat.and_then(|c| m.comdats.get(usize::try_from(c).ok()?)) {
                Some(c) => (&c.name[..], Some(c)),
                None if view.has_implicit_comdat(common.raw_linkage, operand) => (&common.name[..], None),
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
        let block_slots = BlockSlots::new(view);
        let block_slot = |function: usize, block: u64| block_slots.slot(function, block);
        let printer = Printer::for_dis(view, self.options, &block_slot);
        if !m.globals.is_empty() {
            f.write_char('\n')?;
            for (i, g) in view.global_order().into_iter().map(|i| (i, &m.globals[i])) {
                if partial {
                    write_recovered_name(f, b, &g.common, None)?;
                }
                let line = m
                    .display_global_var(i, view.constants(), opaque)
                    .with_view(view)
                    .for_llvm(self.options.llvm_version)
                    .with_block_slots(&block_slot);
                write!(f, "{line}")?;
                if view.remade_structors(i).is_some() {
                    f.write_char('\n')?;
                    continue;
                }
                write_attachments(
                    f,
                    b,
                    &slots,
                    None,
                    slots.graph.global_attachments_of(b, g.common.value_id),
                    ", ",
                    &printer,
                )?;
                let list = g.attributes.and_then(|a| a.checked_sub(1));
                if let Some(slot) =
                    crate::ir::print::slot_tracker::function_group(view, list).and_then(|g| slots.group_slot(g))
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
                if ifunc && view.casts_ifunc_resolver_of(a) {
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
        let print = FunctionPrint::new(view, self.options, partial);
        if parallel {
            print.write_parallel(f, &slots, order, &scopes, self.threads)?;
        } else {
            let mut text = alloc::string::String::new();
            for &listed in order {
                text.clear();
                let (decoded, scope) = match listed {
                    Listed::Function(index) => {
                        let decoded = view.body_into(index, &mut body);
                        let scope = slots.add_function(view, index, matches!(decoded, Ok(true)).then_some(&body));
                        (decoded, scope)
                    }
                    Listed::LifetimeLeftover(_) => (Ok(false), usize::MAX),
                };
                print.write(&mut text, &slots, &block_slots, listed, &body, decoded, scope)?;
                f.write_str(&text)?;
            }
        }
        if !slots.groups.is_empty() {
            f.write_char('\n')?;
            for (slot, g) in slots.groups.iter().enumerate() {
                writeln!(f, "attributes #{slot} = {{ {} }}", g.display(&m.types).for_llvm(self.options.llvm_version))?;
            }
        }
        let md = b.module_metadata();
        let named: Vec<_> =
            md.named.iter().filter(|(name, _)| !slots.graph.strips_named(md.owned_bytes(*name))).collect();
        if !named.is_empty() {
            f.write_char('\n')?;
            for &&(name, ops) in &named {
                let name = md.owned_bytes(name);
                write_metadata_name(f, name)?;
                f.write_str(" = !{")?;
                for (i, &id) in md.ops(ops).iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write_md_ref(f, b, &slots, slots.graph.named_key(name, id), &printer)?;
                }
                f.write_str("}\n")?;
            }
        }
        if !slots.order.is_empty() {
            f.write_char('\n')?;
            write_nodes(f, view, &slots, self.options, self.threads)?;
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

/// The struct definitions, `order` as [`struct_order`](crate::ir::print::type_order::struct_order)
/// found them: the numbered ones by number, then the named ones.
fn write_structs(
    f: &mut dyn fmt::Write,
    b: &Bodies<'_, '_>,
    order: Vec<TypeId>,
    opaque: bool,
    version: u32,
) -> fmt::Result {
    let types = &b.module().types;
    let (mut numbered, named): (Vec<TypeId>, Vec<TypeId>) =
        order.into_iter().partition(|&t| types.is_numbered_struct(t));
    numbered.sort();
    if !numbered.is_empty() || !named.is_empty() {
        f.write_char('\n')?;
        for s in numbered.iter().chain(&named).filter_map(|&t| types.struct_definition(t, opaque, version)) {
            writeln!(f, "{s}")?;
        }
    }
    Ok(())
}

/// A decoded body from a helper: its place among the functions asked for, what
/// `body_into` said, the body.
#[cfg(feature = "std")]
type AheadBody = (usize, Result<bool, crate::Error>, Body);

/// The helper's side of a [`BodySource`]: the bodies it decoded, in order, their storage
/// handed back for reuse, and the next place either side may claim.
#[cfg(feature = "std")]
struct Ahead {
    bodies: std::sync::mpsc::Receiver<AheadBody>,
    back: std::sync::mpsc::Sender<Body>,
    claimed: alloc::sync::Arc<core::sync::atomic::AtomicUsize>,
}

/// Where the bodies come from, asked for in a fixed order: decoded when asked for, or
/// shared with a helper. Each place in the order is claimed once, by whichever side gets
/// to it first: the helper decodes a few ahead; when it falls behind, the asker decodes
/// the body it needs itself instead of waiting.
struct BodySource {
    /// The next place the asker asks for.
    next: usize,
    #[cfg(feature = "std")]
    ahead: Option<Ahead>,
}

impl BodySource {
    /// How many decoded bodies the helper may hold ready.
    #[cfg(feature = "std")]
    const AHEAD: usize = 4;

    /// The bodies of `order`'s functions, asked for in that order.
    fn new<'s>(v: &'s ModuleView<'_, '_, '_>, order: &[Listed], helpers: Helpers<'s, '_>) -> Self {
        #[cfg(feature = "std")]
        if let Some(scope) = helpers {
            use core::sync::atomic::{AtomicUsize, Ordering};
            let (sender, bodies) = std::sync::mpsc::sync_channel::<AheadBody>(Self::AHEAD);
            let (back, spare) = std::sync::mpsc::channel::<Body>();
            let claimed = alloc::sync::Arc::new(AtomicUsize::new(0));
            let helper_claimed = claimed.clone();
            let order: Vec<usize> =
                order.iter().filter_map(|l| if let Listed::Function(i) = l { Some(*i) } else { None }).collect();
            scope.spawn(move || {
                loop {
                    let place = helper_claimed.fetch_add(1, Ordering::AcqRel);
                    let Some(&index) = order.get(place) else { return };
                    let mut body = spare.try_recv().unwrap_or_default();
                    let decoded = v.body_into(index, &mut body);
                    if sender.send((place, decoded, body)).is_err() {
                        return; // the asker stopped
                    }
                }
            });
            return BodySource { next: 0, ahead: Some(Ahead { bodies, back, claimed }) };
        }
        let _ = (v, order, helpers);
        BodySource {
            next: 0,
            #[cfg(feature = "std")]
            ahead: None,
        }
    }

    /// Function `index`'s body (the next of the order) in `body`, as
    /// [`ModuleView::body_into`] gives it.
    fn body_into(&mut self, v: &ModuleView<'_, '_, '_>, index: usize, body: &mut Body) -> Result<bool, crate::Error> {
        let place = self.next;
        self.next += 1;
        #[cfg(feature = "std")]
        if let Some(ahead) = &self.ahead {
            use core::sync::atomic::Ordering;
            // Unclaimed: the helper is behind, decode it here.
            if ahead.claimed.compare_exchange(place, place + 1, Ordering::AcqRel, Ordering::Acquire).is_ok() {
                return v.body_into(index, body);
            }
            // The helper claimed it, and sends its bodies in the order it claimed them.
            match ahead.bodies.recv() {
                Ok((decoded_place, decoded, mut decoded_body)) if decoded_place == place => {
                    core::mem::swap(body, &mut decoded_body);
                    let _ = ahead.back.send(decoded_body);
                    return decoded;
                }
                // Not the body asked for (never: both sides follow one order): decode
                // here from now on.
                _ => self.ahead = None,
            }
        }
        #[cfg(not(feature = "std"))]
        let _ = place;
        v.body_into(index, body)
    }
}

/// What prints one listed function: the module's bodies, and how.
struct FunctionPrint<'d, 'm, 'a> {
    b: &'d Bodies<'m, 'a>,
    /// The module as the printing version reads it.
    view: &'d ModuleView<'d, 'm, 'a>,
    options: DisOptions,
    /// The module is read from a cut file (see `write_recovered_name`).
    partial: bool,
    /// Each function's `; Function Attrs:` comment, an index into `comments` (made once
    /// per attribute group: many functions share one, and making it was 5% of `--dis`
    /// on libclc).
    comment_of: Vec<Option<u32>>,
    comments: Vec<alloc::string::String>,
    /// What every function would otherwise work out again.
    texts: ModuleTexts,
}

impl<'d, 'm, 'a> FunctionPrint<'d, 'm, 'a> {
    fn new(view: &'d ModuleView<'d, 'm, 'a>, options: DisOptions, partial: bool) -> Self {
        let b = view.bodies();
        let mut made: alloc::collections::BTreeMap<u64, Option<u32>> = alloc::collections::BTreeMap::new();
        let mut comments = Vec::new();
        let comment_of = (0..b.module().functions.len())
            .map(|index| {
                let key = crate::ir::print::slot_tracker::function_group_key(view, index)?;
                *made.entry(key).or_insert_with(|| {
                    let comment = function_attrs_comment(view, key)?;
                    comments.push(comment);
                    Some(comments.len() as u32 - 1)
                })
            })
            .collect();
        let texts = ModuleTexts::new(view, options);
        FunctionPrint { b, view, options, partial, comment_of, comments, texts }
    }

    /// How much body (in bytes of the file) one thread prints at a time: enough that a
    /// run outweighs starting a thread, small enough to keep the text held in memory low.
    const RUN_BYTES: u64 = 1 << 18;

    /// Appends `listed` as the module prints it, after a blank line: `decoded` is what
    /// [`ModuleView::body_into`] said of `body`, `scope` what the slot tracker's
    /// `add_function` gave.
    #[allow(clippy::too_many_arguments)]
    fn write(
        &self,
        f: &mut alloc::string::String,
        slots: &ModuleSlots,
        block_slots: &BlockSlots<'d, 'm, 'a>,
        listed: Listed,
        body: &Body,
        decoded: Result<bool, crate::Error>,
        scope: usize,
    ) -> fmt::Result {
        let b = self.b;
        let m = b.module();
        f.push('\n');
        let index = match listed {
            Listed::Function(index) => index,
            Listed::LifetimeLeftover(index) => {
                let name = lifetime_leftover_name(&m.functions[index].common.name).unwrap_or_default();
                f.push_str("declare void @");
                write_llvm_name(f, &name)?;
                f.push_str("(i64)");
                // A new function is in the datalayout's program address space (AVR's 1).
                let program =
                    crate::ir::vocabulary::datalayout::DataLayout::new(self.view.datalayout()).program_address_space();
                if program != 0 {
                    write!(f, " addrspace({program})")?;
                }
                f.push('\n');
                return Ok(());
            }
        };
        let (defined, error) = match decoded {
            Ok(defined) => (defined, None),
            Err(e) => (false, Some(e)),
        };
        if self.partial {
            let function = &m.functions[index];
            write_recovered_name(f, b, &function.common, defined.then_some(body))?;
            if !function.is_declaration && function.body.is_none() {
                f.push_str("; the body of this definition is past the break of the input\n");
            }
        }
        if let Some(comment) = self.comment_of.get(index).copied().flatten() {
            f.push_str("; Function Attrs: ");
            f.push_str(&self.comments[comment as usize]);
            f.push('\n');
        }
        if self.view.is_unknown_intrinsic(index) {
            f.push_str("; Unknown intrinsic\n");
        }
        let display = FunctionDisplay {
            bodies: b,
            index,
            body: defined.then_some(body),
            options: self.options,
            slots: Some((slots, scope)),
            block_slots: Some(block_slots),
            texts: Some(&self.texts),
            view: Some(self.view),
        };
        display.write(f)?;
        f.push('\n');
        if let Some(e) = error {
            writeln!(f, "; error: the body of this function does not decode: {e}")?;
        }
        Ok(())
    }

    /// Every listed function, the slots fixed (`scopes`: each one's `add_function`
    /// scope), printed by up to `threads` threads a run of functions each (each decoding
    /// its bodies again) and written in order.
    fn write_parallel(
        &self,
        f: &mut dyn fmt::Write,
        slots: &ModuleSlots,
        order: &[Listed],
        scopes: &[usize],
        threads: usize,
    ) -> fmt::Result {
        // Runs of about the same body size each, as index ranges into `order`: at most
        // RUN_BYTES, and at least eight a thread (a small module is cut small too).
        let functions = &self.b.module().functions;
        let body_bytes = |listed: &Listed| match listed {
            Listed::Function(index) => {
                functions.get(*index).and_then(|f| f.body.as_ref()).map_or(0, |b| u64::from(b.bookmark().len_words) * 4)
            }
            Listed::LifetimeLeftover(_) => 0,
        };
        let total: u64 = order.iter().map(body_bytes).sum();
        let run_bytes = (total / (threads as u64 * 8)).clamp(1, Self::RUN_BYTES);
        let mut runs: Vec<core::ops::Range<usize>> = Vec::new();
        let (mut start, mut bytes) = (0, 0u64);
        for (i, listed) in order.iter().enumerate() {
            bytes = bytes.saturating_add(body_bytes(listed));
            if bytes >= run_bytes || i + 1 == order.len() {
                runs.push(start..i + 1);
                (start, bytes) = (i + 1, 0);
            }
        }
        let run = |range: core::ops::Range<usize>| -> Result<alloc::string::String, fmt::Error> {
            let block_slots = BlockSlots::new(self.view);
            let mut body = Body::default();
            let mut text = alloc::string::String::new();
            for i in range {
                let decoded = match order[i] {
                    Listed::Function(index) => self.view.body_into(index, &mut body),
                    Listed::LifetimeLeftover(_) => Ok(false),
                };
                self.write(&mut text, slots, &block_slots, order[i], &body, decoded, scopes[i])?;
            }
            Ok(text)
        };
        in_order(f, threads, runs.len(), |r| run(runs[r].clone()))
    }
}

/// At most how many metadata nodes one thread prints at a time.
const NODE_RUN: usize = 4096;

/// The metadata nodes, `!N = …` in slot order: runs of at most [`NODE_RUN`] and at least
/// eight a thread, printed by up to `threads` threads a run each and written in order.
fn write_nodes(
    f: &mut dyn fmt::Write,
    v: &ModuleView<'_, '_, '_>,
    slots: &ModuleSlots,
    options: DisOptions,
    threads: usize,
) -> fmt::Result {
    let b = v.bodies();
    let node_run = (slots.order.len() / (threads * 8)).clamp(1, NODE_RUN);
    let run = move |first: usize| -> Result<alloc::string::String, fmt::Error> {
        let block_slots = BlockSlots::new(v);
        let block_slot = |function: usize, block: u64| block_slots.slot(function, block);
        let printer = Printer::for_dis(v, options, &block_slot);
        let mut text = alloc::string::String::new();
        for (slot, &key) in slots.order.iter().enumerate().skip(first).take(node_run) {
            text.push('!');
            super::write_decimal(&mut text, slot as u64)?;
            text.push_str(" = ");
            write_node(&mut text, b, slots, key, &printer, options)?;
            text.push('\n');
        }
        Ok(text)
    };
    in_order(f, threads, slots.order.len().div_ceil(node_run), |r| run(r * node_run))
}

/// `Sync` where there are threads (the `std` feature), anything without them.
#[cfg(feature = "std")]
trait MaybeSync: Sync {}
#[cfg(feature = "std")]
impl<T: Sync + ?Sized> MaybeSync for T {}
/// `Sync` where there are threads (the `std` feature), anything without them.
#[cfg(not(feature = "std"))]
trait MaybeSync {}
#[cfg(not(feature = "std"))]
impl<T: ?Sized> MaybeSync for T {}

/// Writes the texts `run(0)`, `run(1)`, … `run(count - 1)` in that order, made by up to
/// `threads` threads: thread `t` makes runs `t`, `t + threads`, …, at most two ahead of
/// the writer (so the text held in memory is a few runs).
fn in_order(
    f: &mut dyn fmt::Write,
    threads: usize,
    count: usize,
    run: impl Fn(usize) -> Result<alloc::string::String, fmt::Error> + MaybeSync,
) -> fmt::Result {
    #[cfg(feature = "std")]
    if threads > 1 && count > 1 {
        let workers = threads.min(count);
        return std::thread::scope(|scope| {
            let run = &run;
            let texts: Vec<_> = (0..workers)
                .map(|worker| {
                    let (sender, texts) = std::sync::mpsc::sync_channel(2);
                    scope.spawn(move || {
                        for r in (worker..count).step_by(workers) {
                            if sender.send(run(r)).is_err() {
                                return; // the writer stopped
                            }
                        }
                    });
                    texts
                })
                .collect();
            for r in 0..count {
                // A worker that stops early has panicked: the scope passes that on.
                let text = texts[r % workers].recv().map_err(|_| fmt::Error)?;
                f.write_str(&text?)?;
            }
            Ok(())
        });
    }
    let _ = threads;
    for r in 0..count {
        f.write_str(&run(r)?)?;
    }
    Ok(())
}

/// In a module read from a cut file, the comment before a global value whose name the
/// file no longer holds: the name its debug info gives (`body`: a definition's, decoded).
fn write_recovered_name(
    f: &mut dyn fmt::Write,
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

/// The `; Function Attrs:` comment of the function attribute group `key` (a slot
/// tracker group key): its attributes but the string ones, `None` if none is left.
fn function_attrs_comment(v: &ModuleView<'_, '_, '_>, key: u64) -> Option<alloc::string::String> {
    let mut group = crate::ir::print::slot_tracker::group_content(v, key)?;
    group.attributes.retain(|a| !matches!(a, crate::ir::Attribute::String { .. }));
    if group.attributes.is_empty() {
        return None;
    }
    Some(alloc::format!("{}", group.display_inline(&v.module().types, false).for_llvm(v.llvm_version())))
}
