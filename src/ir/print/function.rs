//! One function as `llvm-dis` prints it ([`Bodies::display_function`]): its header, its
//! blocks with their predecessors, and its instructions ([`BodyPrinter`], whose
//! instruction printing is in `instructions.rs`) numbered by local slots ([`LocalSlots`]).

use alloc::vec::Vec;
use core::fmt::{self, Write as _};

use crate::ir::AttrIndex;
use crate::ir::body::{Bodies, Body, LocalSlots, Operand, Ordering, Value};
use crate::ir::module::types::{Type, TypeId};
use crate::ir::print::calling_conv::write_cc;
use crate::ir::print::constants::Printer;
use crate::ir::print::escape::{write_escaped, write_llvm_name};
use crate::ir::print::globals::{write_comdat, write_global_prefix};
use crate::ir::print::metadata::{write_attachments, write_keyed_attachments, write_md_ref};
use crate::ir::print::slot_tracker::{ModuleSlots, NO_SLOT};
use crate::ir::print::{DisOptions, write_decimal};
use crate::ir::upgrade::ParamUpgrade;
use crate::ir::view::ModuleView;
use crate::ir::vocabulary::datalayout::DataLayout;

/// A function printed as `llvm-dis` prints it: see [`Bodies::display_function`].
pub struct FunctionDisplay<'d, 'm, 'a> {
    pub(super) bodies: &'d Bodies<'m, 'a>,
    pub(super) index: usize,
    pub(super) body: Option<&'d Body>,
    pub(super) options: DisOptions,
    /// The module's numbering and the function's scope in it, when printing the whole
    /// module; a function printed alone numbers as LLVM's `Function::print` does.
    pub(super) slots: Option<(&'d ModuleSlots, usize)>,
    /// Other functions' block slots, shared by the functions of a module printed whole.
    pub(super) block_slots: Option<&'d BlockSlots<'d, 'm, 'a>>,
    /// What a module printed whole makes once for all its functions.
    pub(super) texts: Option<&'d ModuleTexts>,
    /// The module as the printing version reads it, when printing the whole module (a
    /// function printed alone makes its own).
    pub(super) view: Option<&'d ModuleView<'d, 'm, 'a>>,
}

/// What every function of a module printed whole would otherwise work out again at each
/// reference, made once. Texts are kept only up to
/// [`MAX_KEPT_TEXT`](crate::limits::MAX_KEPT_TEXT) bytes each and
/// [`MAX_KEPT_TEXTS`](crate::limits::MAX_KEPT_TEXTS) in all (a file can make every type
/// print long, or one long group be referenced by every list); what is not kept is made
/// where it is printed, as without them.
#[derive(Debug, Default)]
pub(super) struct ModuleTexts {
    /// By attribute list: the text at each return or parameter index it has groups at,
    /// as a call site prints it when nothing of the parameter upgrades it
    /// ([`ParamUpgrade::default`]), sorted by index (`None`: not kept). Formatting (and
    /// asking the upgrade of) the same groups at every call was 9% of `--dis` on a rustc
    /// O3 module.
    attributes: Vec<Vec<(AttrIndex, Option<alloc::boxed::Box<str>>)>>,
    /// Each type's text that is not a leaf type, by type id (`<4 x float>`, `{ i32, ptr }`,
    /// `%struct.S`; `None`: a leaf type, or not kept): formatted at each use it was 5% of
    /// `--dis` on libclc.
    types: Vec<Option<alloc::boxed::Box<str>>>,
}

/// The order of a call site's attribute indices: the return value, then the parameters.
fn call_site_order(index: AttrIndex) -> Option<u64> {
    match index {
        AttrIndex::Function => None,
        AttrIndex::Return => Some(0),
        AttrIndex::Param(n) => Some(n.saturating_add(1)),
    }
}

/// A text being made for [`ModuleTexts`]: writing past its room fails.
struct KeptText {
    text: alloc::string::String,
    room: usize,
}

impl fmt::Write for KeptText {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        if s.len() > self.room - self.text.len() {
            return Err(fmt::Error);
        }
        self.text.push_str(s);
        Ok(())
    }
}

/// The text `write` makes (`""` when it says it wrote nothing), if it fits the per-text
/// limit and what is left of `budget`, which it then takes from.
fn keep(
    budget: &mut usize,
    write: impl FnOnce(&mut KeptText) -> Result<bool, fmt::Error>,
) -> Option<alloc::boxed::Box<str>> {
    let mut kept = KeptText { text: alloc::string::String::new(), room: (*budget).min(crate::limits::MAX_KEPT_TEXT) };
    let wrote = write(&mut kept).ok()?;
    *budget -= kept.text.len();
    Some(if wrote { kept.text.into_boxed_str() } else { "".into() })
}

impl ModuleTexts {
    pub(super) fn new(v: &ModuleView<'_, '_, '_>, options: DisOptions) -> Self {
        let bodies = v.bodies();
        let no_blocks = |_: usize, _: u64| None;
        let printer = Printer::for_dis(v, options, &no_blocks);
        let mut budget = crate::limits::MAX_KEPT_TEXTS;
        let types = (0..bodies.module().types.len())
            .map(|i| {
                let id = crate::ir::module::types::TypeId(i as u32);
                if printer.is_leaf_type(id) {
                    return None;
                }
                keep(&mut budget, |f| printer.composite_type(f, id).map(|()| true))
            })
            .collect();
        let mut attributes = Vec::with_capacity(bodies.module().attribute_lists.len());
        for list in 0..bodies.module().attribute_lists.len() as u32 {
            let mut indices: Vec<AttrIndex> =
                crate::ir::view::list_groups(bodies, Some(list)).map(|g| g.index).collect();
            indices.retain(|&i| call_site_order(i).is_some());
            indices.sort_by_key(|&i| call_site_order(i));
            indices.dedup();
            let texts = indices
                .into_iter()
                .map(|index| {
                    let set = v.attributes(Some(list), index);
                    let write = |f: &mut KeptText| write_set(f, v, options, set);
                    (index, keep(&mut budget, write))
                })
                .collect();
            attributes.push(texts);
        }
        ModuleTexts { attributes, types }
    }

    /// The text of `list` at `index` (a return or parameter index) with no upgrade: `""`
    /// when it has no attributes there; `None` when it was not kept.
    fn attributes(&self, list: Option<u32>, index: AttrIndex) -> Option<&str> {
        let key = call_site_order(index)?;
        let texts = list.and_then(|l| self.attributes.get(l as usize)).map_or(&[][..], Vec::as_slice);
        match texts.binary_search_by_key(&Some(key), |(i, _)| call_site_order(*i)) {
            Ok(at) => texts[at].1.as_deref(),
            // No groups at the index: nothing, as no upgrade adds any with no parameter.
            Err(_) => Some(""),
        }
    }
}

/// An attribute set as the view holds it (`set`), space-separated, as `llvm-dis` prints
/// it on a parameter, a return value or a call; whether it had any.
fn write_set(
    f: &mut dyn fmt::Write,
    v: &ModuleView<'_, '_, '_>,
    options: DisOptions,
    set: &[crate::ir::Attribute],
) -> Result<bool, fmt::Error> {
    if set.is_empty() {
        return Ok(false);
    }
    let opaque = options.opaque(v.bodies());
    write!(
        f,
        "{}",
        crate::ir::print::attributes::inline_set(set, &v.module().types, opaque).for_llvm(options.llvm_version)
    )?;
    Ok(true)
}

impl<'m, 'a> Bodies<'m, 'a> {
    /// Function `index` printed as `llvm-dis` prints it in the whole module: `declare …`
    /// for a declaration, `define … { … }` with its decoded `body` (of [`Bodies::body`],
    /// [`ModuleView::body`] of any version, or [`Bodies::body_as_written`]: it is printed as
    /// the version of `options` reads it), its metadata and
    /// attribute groups numbered as in [`display_module`](Self::display_module) (`!638`
    /// is the module print's `!638`). Without the `; Function Attrs:` comment line
    /// `llvm-dis` prints before it.
    ///
    /// Cost: that numbering needs the functions printed before this one, whose bodies
    /// are decoded for it (O(module) per call). To print many functions, print the
    /// module.
    ///
    /// ```
    /// use llvm_bitstream_reader::ir::{DisOptions, Module};
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/rustc_llvm22_o0_debuginfo.bc"))?;
    /// let module = Module::parse(&bytes)?;
    /// let bodies = module.bodies()?;
    /// let index = module.functions.iter().rposition(|f| !f.is_declaration).unwrap();
    /// let body = bodies.body(index)?;
    /// let alone = bodies.display_function(index, body.as_ref(), DisOptions::default()).to_string();
    /// let whole = bodies.display_module(DisOptions::default()).to_string();
    /// assert!(whole.contains(&alone));
    /// # Ok(()) }
    /// ```
    pub fn display_function<'d>(
        &'d self,
        index: usize,
        body: Option<&'d Body>,
        options: DisOptions,
    ) -> FunctionDisplay<'d, 'm, 'a> {
        FunctionDisplay { bodies: self, index, body, options, slots: None, block_slots: None, texts: None, view: None }
    }
}

/// The slots of other functions' unnamed blocks, which a `blockaddress` in a global's
/// initializer or in another function names (`llvm-dis` numbers the block's function for
/// it): each function's body decoded once, on first use.
pub(super) struct BlockSlots<'d, 'm, 'a> {
    view: &'d ModuleView<'d, 'm, 'a>,
    functions: core::cell::RefCell<alloc::collections::BTreeMap<usize, LocalSlots>>,
}

impl<'d, 'm, 'a> BlockSlots<'d, 'm, 'a> {
    pub(super) fn new(view: &'d ModuleView<'d, 'm, 'a>) -> Self {
        BlockSlots { view, functions: core::cell::RefCell::default() }
    }

    /// The slot of function `function`'s unnamed block `block` (`None` if the block is
    /// named, out of range, or the body does not decode).
    pub(super) fn slot(&self, function: usize, block: u64) -> Option<u32> {
        let mut functions = self.functions.borrow_mut();
        let slots = functions.entry(function).or_insert_with(|| match self.view.body(function) {
            Ok(Some(body)) => body.slots(),
            _ => LocalSlots::default(),
        });
        slots.block(u32::try_from(block).ok()?)
    }
}

pub(super) struct BodyPrinter<'d, 'm, 'a> {
    pub(super) bodies: &'d Bodies<'m, 'a>,
    pub(super) body: &'d Body,
    /// The function's index in the module.
    pub(super) function: usize,
    pub(super) constants: Printer<'d, 'a>,
    pub(super) slots: &'d LocalSlots,
    pub(super) locals: Vec<u32>,
    pub(super) options: DisOptions,
    /// The metadata numbering, and the function's scope in it.
    pub(super) md: &'d ModuleSlots,
    pub(super) scope: usize,
    /// What a module printed whole made once for all its functions.
    pub(super) texts: Option<&'d ModuleTexts>,
    /// The module as the printing version reads it.
    pub(super) view: &'d ModuleView<'d, 'm, 'a>,
}

impl BodyPrinter<'_, '_, '_> {
    pub(super) fn ty(&self, f: &mut dyn fmt::Write, ty: TypeId) -> fmt::Result {
        if self.view.types().get(ty).is_none() {
            return f.write_str("<unknown type>");
        }
        self.constants.ty(f, ty)
    }

    pub(super) fn local(&self, f: &mut dyn fmt::Write, name: Option<&[u8]>, slot: u32) -> fmt::Result {
        f.write_char('%')?;
        match name {
            Some(name) => write_llvm_name(f, name),
            None if slot == NO_SLOT => f.write_str("<badref>"),
            None => write_decimal(f, u64::from(slot)),
        }
    }

    pub(super) fn value(&self, f: &mut dyn fmt::Write, o: &Operand) -> fmt::Result {
        let body = self.body;
        match o.value {
            Value::Constant(id) | Value::Global(id) => self.constants.value(f, id, 0),
            Value::Argument(n) => self.local(f, body.argument_name(n), self.slots.argument(n).unwrap_or(NO_SLOT)),
            Value::Instruction(n) => {
                let local = self.locals.get(n as usize).copied().unwrap_or(NO_SLOT);
                let slot = self.slots.instruction(n).unwrap_or(NO_SLOT);
                self.local(f, body.local_name(local), slot)
            }
            Value::Block(n) => self.local(f, body.block_name(n), self.slots.block(n).unwrap_or(NO_SLOT)),
            Value::Metadata(id) => self.metadata(f, id),
            Value::Unresolved(_) => f.write_str("<badref>"),
            #[allow(unreachable_patterns)]
            _ => f.write_str("<badref>"),
        }
    }

    /// What metadata id `id` is, in the module's table or this function's.
    fn md_node(&self, id: u64) -> Option<crate::ir::MetadataNode<'_>> {
        let key = self.md.graph.key(Some(self.scope), id)?;
        self.md.graph.node(self.bodies, key).map(|(_, n)| n)
    }

    /// A metadata operand as `llvm-dis` prints it: values as metadata (`i32 %x`),
    /// expressions and argument lists inline (`!DIExpression()`, `!DIArgList(…)`), strings
    /// as `!"text"`, nodes as `!N`, their slot.
    fn metadata(&self, f: &mut dyn fmt::Write, id: u64) -> fmt::Result {
        use crate::ir::MetadataNode as N;
        match self.md_node(id) {
            Some(N::Value { ty, value }) => {
                let value = self.body.value_of(value, self.bodies.constants().base);
                if let Value::Constant(id) = value {
                    // A constant expression LLVM cannot make instructions of here.
                    if let Some(word) = self.view.dropped_metadata_value(self.body, id) {
                        self.ty(f, ty)?;
                        f.write_char(' ')?;
                        return f.write_str(word);
                    }
                }
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
                let key = self.md.graph.key(Some(self.scope), id);
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
        let declaration = self.body.instructions.is_empty() && self.body.attachments.is_empty();
        let body = (!declaration).then_some(self.body);
        let pairs = self.md.graph.function_attachments_of(self.bodies, self.function, body);
        write_attachments(f, self.bodies, self.md, Some(self.scope), pairs, " ", &self.constants)
    }

    /// The instruction's attachments: `, !dbg !N`, then the others by kind.
    /// Instruction `index`'s `, !dbg !N`, if it has a location.
    fn location(&self, f: &mut dyn fmt::Write, index: usize) -> fmt::Result {
        let inst = &self.body.instructions[index];
        if let Some(key) = self.md.graph.location_key(self.scope, inst) {
            f.write_str(", !dbg ")?;
            write_md_ref(f, self.bodies, self.md, Some(key), &self.constants)?;
        }
        Ok(())
    }

    /// Instruction `index`'s location, then its other attachments by kind.
    fn attachments(&self, f: &mut dyn fmt::Write, index: usize) -> fmt::Result {
        self.location(f, index)?;
        let first = self.body.attachments.partition_point(|a| a.instruction.is_none_or(|i| (i as usize) < index));
        let pairs = self.body.attachments[first..]
            .iter()
            .take_while(|a| a.instruction == Some(index as u32))
            .filter(|a| self.md.graph.keeps_attachment(a.kind))
            .map(|a| (a.kind, self.md.graph.instruction_attachment_key(Some(self.scope), a.kind, a.node)));
        write_keyed_attachments(f, self.bodies, self.md, pairs, ", ", &self.constants)
    }

    pub(super) fn operand(&self, f: &mut dyn fmt::Write, o: &Operand, with_type: bool) -> fmt::Result {
        if with_type {
            self.ty(f, o.ty)?;
            f.write_char(' ')?;
        }
        self.value(f, o)
    }

    /// The attributes of a list at one index as LLVM holds them, space-separated; `param`
    /// is what LLVM's reader knows of a parameter as it upgrades them
    /// ([`ModuleView::call_site`]). Whether there were any.
    fn attributes(
        &self,
        f: &mut dyn fmt::Write,
        list: Option<u32>,
        index: AttrIndex,
        param: ParamUpgrade,
    ) -> Result<bool, fmt::Error> {
        write_set(f, self.view, self.options, &self.view.attributes_with(list, index, param))
    }

    /// The attributes at `index` of this function's declaration as LLVM holds them
    /// ([`ModuleView::function_attributes`]). Whether there were any.
    fn declared_attributes(&self, f: &mut dyn fmt::Write, index: AttrIndex) -> Result<bool, fmt::Error> {
        write_set(f, self.view, self.options, &self.view.function_attributes(self.function, index))
    }

    /// The attributes of `list` at `index` after a space, if it has any there.
    fn spaced_attributes(
        &self,
        f: &mut dyn fmt::Write,
        list: Option<u32>,
        index: AttrIndex,
        param: ParamUpgrade,
    ) -> fmt::Result {
        let kept = self.texts.filter(|_| param == ParamUpgrade::default()).and_then(|t| t.attributes(list, index));
        if let Some(text) = kept {
            if !text.is_empty() {
                f.write_char(' ')?;
                f.write_str(text)?;
            }
            return Ok(());
        }
        let mut text = alloc::string::String::new();
        if self.attributes(&mut text, list, index, param)? {
            f.write_char(' ')?;
            f.write_str(&text)?;
        }
        Ok(())
    }

    pub(super) fn fast_math(f: &mut dyn fmt::Write, flags: u32) -> fmt::Result {
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

    pub(super) fn atomic(&self, f: &mut dyn fmt::Write, ordering: Ordering, scope: u32) -> fmt::Result {
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

    /// A call's `cc attrs type callee(args) #N [bundles]`, after `call`/`invoke`;
    /// `index` is the instruction's (for an alignment the reader made attributes of).
    pub(super) fn call(
        &self,
        f: &mut dyn fmt::Write,
        call: &crate::ir::CallInfo,
        operands: &[Operand],
        args: usize,
        index: usize,
    ) -> fmt::Result {
        let types = self.view.types();
        if call.calling_conv != 0 {
            f.write_char(' ')?;
            write_cc(f, call.calling_conv, self.options.llvm_version)?;
        }
        // What the reader knows of the call as it upgrades its attributes, once for all
        // its indices.
        let site = self.view.call_site(self.body, index);
        let source = |at: AttrIndex| site.as_ref().map_or((at, ParamUpgrade::default()), |s| s.source(at));
        let (place, param) = source(AttrIndex::Return);
        self.spaced_attributes(f, call.attributes, place, param)?;
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
        // The short form prints the return type, unless the callee is variadic. (Old LLVM
        // also printed the whole type of a call returning a pointer to a function; LLVM 13
        // and later do not.)
        self.ty(f, if vararg { call.function_type } else { ret })?;
        f.write_char(' ')?;
        self.value(f, callee)?;
        f.write_char('(')?;
        for (i, arg) in operands.iter().skip(1).take(args).enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            self.ty(f, arg.ty)?;
            let (place, param) = source(AttrIndex::Param(i as u64));
            self.spaced_attributes(f, call.attributes, place, param)?;
            f.write_char(' ')?;
            self.value(f, arg)?;
        }
        f.write_char(')')?;
        let group =
            crate::ir::print::slot_tracker::call_group_key(self.view, self.function, Some(callee), call.attributes);
        if let Some(id) = group.map(|g| self.md.group_slot(g).map_or(g, u64::from)) {
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

    /// Each block's predecessors, in the order `; preds =` lists them
    /// ([`Bodies::predecessors`]).
    fn predecessors(&self) -> Vec<Vec<u32>> {
        self.bodies.predecessors(self.body)
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

impl<'m, 'a> FunctionDisplay<'_, 'm, 'a> {
    pub(super) fn write(&self, f: &mut alloc::string::String) -> fmt::Result {
        self.with_printer(|p| self.write_with(f, p)).unwrap_or_else(|| f.write_str("; no such function"))
    }

    /// Runs `run` with the function's body printer: its body as the printing version reads
    /// it, its local slots, its constants' printer and the module's metadata numbering as
    /// the whole module's print has it (given, or made for this function alone). `None`
    /// if the module has no such function.
    pub(super) fn with_printer<R>(&self, run: impl FnOnce(&BodyPrinter<'_, 'm, 'a>) -> R) -> Option<R> {
        let b = self.bodies;
        let own_view;
        let view = match self.view {
            Some(v) => v,
            None => {
                own_view = b.view(self.options.llvm_version);
                &own_view
            }
        };
        b.module().functions.get(self.index)?;
        // A declaration has no body: an empty one, of this function (for its attachments).
        let mut empty = Body::default();
        empty.function = self.index;
        // A function printed alone is given a body as some version read it
        // (`Bodies::body`), or as the file has it: printed as this version reads it.
        let read;
        let given = match (self.view, self.body) {
            (None, Some(body)) if body.read_as != Some(view.llvm_version()) => {
                let mut body = match body.read_as {
                    None => body.clone(),
                    // Read as another version: from the file again.
                    Some(_) => b.body_as_written(self.index).ok().flatten().unwrap_or_else(|| body.clone()),
                };
                view.read_body(&mut body);
                read = body;
                Some(&read)
            }
            (_, body) => body,
        };
        let body = given.unwrap_or(&empty);
        let locals = body.instruction_locals();
        let slots = body.slots_of(&locals);
        let own_block_slots;
        let block_slots = match self.block_slots {
            Some(b) => b,
            None => {
                own_block_slots = BlockSlots::new(view);
                &own_block_slots
            }
        };
        let block_slot = |function: usize, block: u64| {
            if function == self.index && self.body.is_some() {
                u32::try_from(block).ok().and_then(|b| slots.block(b))
            } else {
                block_slots.slot(function, block)
            }
        };
        let constants = Printer::for_dis(view, self.options, &block_slot)
            .with_local(&body.constants)
            .with_type_texts(self.texts.map(|t| &t.types[..]));
        let own;
        let (md, scope) = match self.slots {
            Some(s) => s,
            None => {
                // Numbered as the whole module prints it: the functions printed before
                // this one number their metadata and call-site attribute groups first.
                let mut slots = ModuleSlots::new(view);
                let mut earlier = Body::default();
                for &listed in view.function_order() {
                    let crate::ir::view::Listed::Function(j) = listed else { continue };
                    if j == self.index {
                        break;
                    }
                    let defined = view.body_into(j, &mut earlier).unwrap_or(false);
                    slots.add_function(view, j, defined.then_some(&earlier));
                }
                let scope = slots.add_function(view, self.index, given);
                // A declaration the module print leaves out (LLVM's reader drops it) still
                // has its group numbered.
                let key = crate::ir::print::slot_tracker::function_group_key(view, self.index);
                if let Some(key) = key.filter(|&k| slots.group_slot(k).is_none()) {
                    slots.create_group(view, key);
                }
                own = slots;
                (&own, scope)
            }
        };
        let p = BodyPrinter {
            bodies: b,
            body,
            function: self.index,
            constants,
            slots: &slots,
            locals,
            options: self.options,
            md,
            scope,
            texts: self.texts,
            view,
        };
        Some(run(&p))
    }

    /// The function's text, printed by `p` ([`Self::with_printer`]).
    fn write_with(&self, f: &mut alloc::string::String, p: &BodyPrinter<'_, '_, '_>) -> fmt::Result {
        let (b, view, body, md) = (p.bodies, p.view, p.body, p.md);
        let m = b.module();
        let Some(function) = m.functions.get(self.index) else { return f.write_str("; no such function") };
        let c = &function.common;
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
        if p.declared_attributes(&mut s, AttrIndex::Return)? {
            f.write_str(&s)?;
            f.write_char(' ')?;
        }
        // The function's type as LLVM reads it (an upgraded intrinsic's new signature).
        let function_type = view.function_type(self.index).unwrap_or(c.value_type);
        let (ret, params, vararg) = match view.types().get(function_type) {
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
            if p.declared_attributes(&mut s, AttrIndex::Param(i as u64))? {
                f.write_char(' ')?;
                f.write_str(&s)?;
            }
            if self.body.is_some() {
                f.write_char(' ')?;
                let slot = p.slots.argument(i as u32).unwrap_or(NO_SLOT);
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
        let program_address_space = DataLayout::new(view.datalayout()).program_address_space();
        if c.address_space != 0 || program_address_space != 0 {
            write!(f, " addrspace({})", c.address_space)?;
        }
        if let Some(key) = crate::ir::print::slot_tracker::function_group_key(view, self.index) {
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
        let implicit = view.has_implicit_comdat(c.raw_linkage, function.comdat_operand);
        write_comdat(f, m, function.comdat, &c.name, implicit, " ")?;
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
        // An old landingpad's personality is the function's as LLVM reads it.
        if let (None, Some(o)) = (function.personality, self.body.and_then(|b| b.old_personality)) {
            f.write_str(" personality ")?;
            p.operand(f, &o, true)?;
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
            match (name, p.slots.block(bi as u32).unwrap_or(NO_SLOT)) {
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
                        let slot = p.slots.block(pred).unwrap_or(NO_SLOT);
                        p.local(f, body.block_name(pred), slot)?;
                    }
                }
            }
            f.write_char('\n')?;
            for i in block.first..block.first + block.len {
                // The records are in instruction order (the decoder appends them as it
                // meets them): a search, not a scan of them all for each instruction.
                let records = &body.debug_records;
                let first = records.partition_point(|r| r.before < i);
                for r in records[first..].iter().take_while(|r| r.before == i) {
                    write_debug_record(f, p, r)?;
                }
                p.instruction(f, i as usize)?;
                p.attachments(f, i as usize)?;
                f.write_char('\n')?;
            }
        }
        f.write_char('}')
    }
}

/// The name a debug record prints with.
fn debug_record_name(code: u32) -> &'static str {
    use crate::ids::llvm_ir::raw as ids;
    match code {
        ids::FUNC_CODE_DEBUG_RECORD_DECLARE => "dbg_declare",
        ids::FUNC_CODE_DEBUG_RECORD_ASSIGN => "dbg_assign",
        ids::FUNC_CODE_DEBUG_RECORD_LABEL => "dbg_label",
        ids::FUNC_CODE_DEBUG_RECORD_DECLARE_VALUE => "dbg_declare_value",
        _ => "dbg_value",
    }
}

fn write_debug_record(f: &mut dyn fmt::Write, p: &BodyPrinter<'_, '_, '_>, r: &crate::ir::DebugRecord) -> fmt::Result {
    use crate::ids::llvm_ir::raw as ids;
    f.write_str("    #")?;
    f.write_str(debug_record_name(r.code))?;
    f.write_char('(')?;
    let md = p.body.literal_range(r.operands);
    // The file's order is [location, variable or label, expression, value, (assign id,
    // address expression, address)]; llvm-dis prints the value first, the address before
    // its expression and the location last: the value as it is (`ptr %p`), the rest as
    // metadata operands.
    let mut items: Vec<u64> = md.iter().skip(1).copied().collect();
    if r.code == ids::FUNC_CODE_DEBUG_RECORD_ASSIGN && items.len() == 6 {
        items.swap(4, 5);
    }
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
        if *id == crate::ir::view::NO_LOCATION {
            f.write_str("null")?;
        } else {
            p.metadata(f, *id)?;
        }
    }
    f.write_str(")\n")
}
