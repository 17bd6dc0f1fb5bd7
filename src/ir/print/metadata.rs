//! Metadata as `llvm-dis` prints it: references (`!N`, `!"text"`, values inline),
//! numbered nodes, attachment lists and kind names, and what the debug-info node printer
//! asks of the module ([`NodeWriter`]).

use alloc::vec::Vec;
use core::fmt;

use crate::ir::body::Bodies;
use crate::ir::print::constants::Printer;
use crate::ir::print::escape::write_escaped;
use crate::ir::print::slot_tracker::ModuleSlots;
use crate::ir::print::{DisOptions, write_decimal};
use crate::ir::view::UpgradedFlag;

/// A numbered node's body: `!{…}`, `distinct !DISubprogram(…)`.
pub(super) fn write_node(
    f: &mut dyn fmt::Write,
    b: &Bodies<'_, '_>,
    md: &ModuleSlots,
    key: u64,
    printer: &Printer<'_, '_>,
    options: DisOptions,
) -> fmt::Result {
    use crate::ir::MetadataNode as N;
    let Some((scope, node)) = md.graph.node(b, key) else { return f.write_str("<badref>") };
    let operand = |f: &mut dyn fmt::Write, plus_one: u64| match plus_one.checked_sub(1) {
        None => f.write_str("null"),
        Some(id) => write_md_ref(f, b, md, md.graph.key(scope, id), printer),
    };
    match node {
        N::Tuple { distinct, operands } => {
            if distinct {
                f.write_str("distinct ")?;
            }
            f.write_str("!{")?;
            let upgraded = md.graph.upgraded_flag(key);
            for (i, &op) in operands.iter().enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                match (upgraded, i) {
                    (Some(flag), 0) => {
                        printer.ty(f, flag.ty)?;
                        f.write_char(' ')?;
                        write_decimal(f, flag.behavior)?;
                    }
                    (Some(UpgradedFlag { renamed: Some(key), .. }), 1) => write!(f, "!\"{key}\"")?,
                    _ => operand(f, op)?,
                }
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

/// Attachments `(kind, node)` in kind order, each after `separator`: `, !tbaa !5`.
pub(super) fn write_attachments(
    f: &mut dyn fmt::Write,
    b: &Bodies<'_, '_>,
    md: &ModuleSlots,
    scope: Option<usize>,
    pairs: Vec<(u64, u64)>,
    separator: &str,
    constants: &Printer<'_, '_>,
) -> fmt::Result {
    write_keyed_attachments(
        f,
        b,
        md,
        pairs.into_iter().map(|(kind, node)| (kind, md.graph.key(scope, node))),
        separator,
        constants,
    )
}

/// Attachments `(kind, key)` in kind order, each after `separator`.
pub(super) fn write_keyed_attachments(
    f: &mut dyn fmt::Write,
    b: &Bodies<'_, '_>,
    md: &ModuleSlots,
    pairs: impl Iterator<Item = (u64, Option<u64>)>,
    separator: &str,
    constants: &Printer<'_, '_>,
) -> fmt::Result {
    let mut pairs: Vec<(u64, Option<u64>)> = pairs.collect();
    match constants.view() {
        Some(v) => pairs.sort_by_key(|p| v.attachment_kind_id(p.0)),
        None => pairs.sort_by_key(|p| p.0),
    }
    for (kind, key) in pairs {
        f.write_str(separator)?;
        write_kind(f, b, kind)?;
        f.write_char(' ')?;
        write_md_ref(f, b, md, key, constants)?;
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
pub(super) fn write_metadata_name(f: &mut dyn fmt::Write, name: &[u8]) -> fmt::Result {
    f.write_char('!')?;
    if name.is_empty() {
        return f.write_str("<empty name> ");
    }
    let ok = |c: u8, first: bool| {
        c.is_ascii_alphabetic() || b"-$._".contains(&c) || (!first && (c.is_ascii_digit() || c == b'\\'))
    };
    // Written a run of plain bytes at a time (byte by byte it was 2% of `--dis`).
    let mut rest = name;
    let mut first = true;
    while let Some(&c) = rest.first() {
        let plain = rest.iter().enumerate().take_while(|&(i, &c)| ok(c, first && i == 0)).count();
        if plain > 0 {
            // Plain bytes are ASCII.
            f.write_str(core::str::from_utf8(&rest[..plain]).map_err(|_| fmt::Error)?)?;
        } else {
            write!(f, "\\{c:02X}")?;
        }
        rest = &rest[plain.max(1)..];
        first = false;
    }
    Ok(())
}

/// A metadata operand that is not a local value: `!N` for a numbered node, `!"text"`
/// for a string, values and expressions inline.
pub(super) fn write_md_ref(
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
    match md.graph.node(b, key) {
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
        Some((_, N::Unknown { code: crate::ir::view::SYNTHETIC_INT, operands: &[width, value] })) => {
            write!(f, "i{width} {value}")
        }
        Some((_, N::Expression { .. })) => match md.graph.expression(b, key) {
            Some(elements) => crate::ir::print::dwarf_expr::write_expression(f, &elements),
            None => write!(f, "<{key}>"),
        },
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
        let key = self.md.graph.key(self.scope, u64::from(r.0.checked_sub(1)?))?;
        self.md.graph.node(self.b, key).map(|(_, n)| n)
    }
}

impl crate::ir::print::di_nodes::MdWriter for NodeWriter<'_, '_, '_, '_, '_> {
    fn write_ref(&self, f: &mut dyn fmt::Write, r: crate::ir::metadata::di::MdRef) -> fmt::Result {
        match r.0.checked_sub(1) {
            None => f.write_str("null"),
            Some(id) => write_md_ref(f, self.b, self.md, self.md.graph.key(self.scope, u64::from(id)), self.printer),
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

    fn expression(&self, r: crate::ir::metadata::di::MdRef) -> Option<alloc::borrow::Cow<'_, [u64]>> {
        let key = self.md.graph.key(self.scope, u64::from(r.0.checked_sub(1)?))?;
        self.md.graph.expression(self.b, key)
    }
}
