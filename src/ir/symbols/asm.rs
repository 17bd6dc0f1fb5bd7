//! The symbols of module-level inline asm, as LLVM's `ModuleSymbolTable::CollectAsmSymbols`
//! records them with its `RecordStreamer`, read without an assembler.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::ir::module::Module;
use crate::ir::symbols::flags::SymbolFlags;
use crate::ir::vocabulary::triple::Triple;

/// A symbol that module-level asm defines or uses: see [`Module::asm_symbols`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct AsmSymbol {
    /// The name as the assembler knows it (`.Ltmp0` for a numeric label; empty for the
    /// assembler's unnamed CFI label).
    #[cfg_attr(feature = "serde", serde(serialize_with = "crate::ir::module::globals::name_serde::bytes"))]
    pub name: Vec<u8>,
    /// The flags `CollectAsmSymbols` gives it: always executable; global unless only
    /// defined; undefined unless defined; weak after `.weak`.
    pub flags: SymbolFlags,
}

impl Module<'_> {
    /// The symbols of the module-level inline asm ([`Module::asm`]), in the order the
    /// assembler meets them, as LLVM's `ModuleSymbolTable::CollectAsmSymbols` flags them.
    ///
    /// LLVM runs the target's assembler; this reads the statements that make symbols:
    /// labels (`x:`), assignments (`x = e`, `.set x, e`, `.equ x, e`), `.globl`, `.global`,
    /// `.weak`, `.comm`, `.lcomm`, symbols used in data directives and (in AT&T syntax,
    /// which module asm starts in) instruction operands; numeric labels (`2:`, `2b`, `3f`)
    /// become the assembler's `.Ltmp<n>` symbols (`Ltmp<n>` on Darwin), numbered in order
    /// of creation; a `.cfi_*` directive makes the assembler's unnamed label. Macros,
    /// conditionals and includes are not expanded.
    pub fn asm_symbols(&self) -> Vec<AsmSymbol> {
        let darwin = self.triple.as_deref().is_some_and(|t| Triple::new(t.as_bytes()).is_darwin());
        asm_symbols(&self.asm, darwin)
    }
}

/// What LLVM's `RecordStreamer` records of a symbol met in module-level asm.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum AsmState {
    Defined,
    DefinedGlobal,
    DefinedWeak,
    Global,
    Used,
    UndefinedWeak,
}

/// The symbols of module-level inline asm, as LLVM's `ModuleSymbolTable::CollectAsmSymbols`
/// flags them. LLVM runs the target's assembler; this reads the statements that make
/// symbols: labels (`x:`), assignments (`x = e`, `.set x, e`, `.equ x, e`), `.globl`,
/// `.global`, `.weak`, `.comm`, `.lcomm`, symbols used in data directives and (in AT&T
/// syntax, which module asm starts in) instruction operands; numeric labels (`2:`, `2b`,
/// `3f`) become the assembler's `.Ltmp<n>` symbols, numbered in order of creation; a
/// `.cfi_*` directive makes the assembler's unnamed label. Every asm symbol is executable
/// (LLVM's FIXME says so), global unless only defined, undefined unless defined.
fn asm_symbols(asm: &[String], darwin: bool) -> Vec<AsmSymbol> {
    let mut scan =
        AsmScan { states: Vec::new(), index: BTreeMap::new(), next_tmp: 0, numeric: BTreeMap::new(), darwin };
    let mut intel = false;
    for line in asm.iter().flat_map(|l| l.lines()) {
        let line = line.split('#').next().unwrap_or_default();
        let line = line.split("//").next().unwrap_or_default();
        for statement in line.split(';') {
            scan.statement(statement.trim(), &mut intel);
        }
    }
    scan.states
        .into_iter()
        .map(|(name, state)| {
            let flags = SymbolFlags::EXECUTABLE
                | match state {
                    AsmState::DefinedGlobal => SymbolFlags::GLOBAL,
                    AsmState::Defined => 0,
                    AsmState::Global | AsmState::Used => SymbolFlags::UNDEFINED | SymbolFlags::GLOBAL,
                    AsmState::DefinedWeak => SymbolFlags::WEAK | SymbolFlags::GLOBAL,
                    AsmState::UndefinedWeak => SymbolFlags::WEAK | SymbolFlags::UNDEFINED,
                };
            AsmSymbol { name, flags: SymbolFlags(flags) }
        })
        .collect()
}

/// A numeric label's temporary symbols: that of its last definition (what `Nb` means) and
/// that of a forward reference not yet defined (what `Nf` means).
#[derive(Default)]
struct NumericLabel {
    last: Option<Vec<u8>>,
    forward: Option<Vec<u8>>,
}

/// The state of [`asm_symbols`]' reading.
struct AsmScan {
    /// Every symbol met, in order, with its state.
    states: Vec<(Vec<u8>, AsmState)>,
    /// Where each name is in `states` (LLVM keys the symbols by name; a linear search
    /// would make long asm quadratic).
    index: BTreeMap<Vec<u8>, usize>,
    /// The next `.Ltmp` number.
    next_tmp: u32,
    /// Numeric labels (`2:`) by number, and the temporary symbols standing for them.
    numeric: BTreeMap<u64, NumericLabel>,
    darwin: bool,
}

impl AsmScan {
    fn mark(&mut self, name: &[u8], how: fn(Option<AsmState>) -> AsmState) {
        // `foo@PLT` is `foo` with a variant.
        let name = name.split(|&b| b == b'@').next().unwrap_or_default();
        if name.first().is_none_or(u8::is_ascii_digit) || name == b"." {
            return;
        }
        self.update(name, how);
    }

    /// The assembler's unnamed temporary label (all of them are one entry: LLVM keys the
    /// symbols by name).
    fn mark_unnamed(&mut self) {
        self.update(b"", Self::defined);
    }

    fn update(&mut self, name: &[u8], how: fn(Option<AsmState>) -> AsmState) {
        match self.index.get(name) {
            Some(&i) => {
                if let Some((_, s)) = self.states.get_mut(i) {
                    *s = how(Some(*s));
                }
            }
            None => {
                self.index.insert(name.to_vec(), self.states.len());
                self.states.push((name.to_vec(), how(None)));
            }
        }
    }

    /// RecordStreamer::markDefined.
    fn defined(s: Option<AsmState>) -> AsmState {
        match s {
            Some(AsmState::DefinedGlobal | AsmState::Global) => AsmState::DefinedGlobal,
            Some(AsmState::DefinedWeak | AsmState::UndefinedWeak) => AsmState::DefinedWeak,
            _ => AsmState::Defined,
        }
    }

    /// RecordStreamer::markGlobal for `.globl`.
    fn global(s: Option<AsmState>) -> AsmState {
        match s {
            Some(AsmState::DefinedGlobal | AsmState::Defined) => AsmState::DefinedGlobal,
            Some(keep @ (AsmState::DefinedWeak | AsmState::UndefinedWeak)) => keep,
            _ => AsmState::Global,
        }
    }

    /// RecordStreamer::markGlobal for `.weak`.
    fn weak(s: Option<AsmState>) -> AsmState {
        match s {
            Some(AsmState::DefinedGlobal | AsmState::Defined) => AsmState::DefinedWeak,
            Some(keep @ (AsmState::DefinedWeak | AsmState::UndefinedWeak)) => keep,
            _ => AsmState::UndefinedWeak,
        }
    }

    /// RecordStreamer::markUsed.
    fn used(s: Option<AsmState>) -> AsmState {
        s.unwrap_or(AsmState::Used)
    }

    /// A new named temporary symbol, as `MCContext::createNamedTempSymbol` names it.
    fn tmp(&mut self) -> Vec<u8> {
        let prefix = if self.darwin { "Ltmp" } else { ".Ltmp" };
        let name = format!("{prefix}{}", self.next_tmp).into_bytes();
        self.next_tmp += 1;
        name
    }

    /// A numeric label's definition `N:`: the symbol a forward reference made, or a new one.
    fn define_numeric(&mut self, n: u64) {
        let forward = self.numeric.get_mut(&n).and_then(|slot| slot.forward.take());
        let name = match forward {
            Some(name) => name,
            None => self.tmp(),
        };
        self.mark(&name, Self::defined);
        self.numeric.entry(n).or_default().last = Some(name);
    }

    /// A reference `Nf` (forward: made now if not yet) or `Nb` (the last definition).
    fn refer_numeric(&mut self, n: u64, forward: bool) {
        let slot = self.numeric.get(&n);
        let name = if forward {
            match slot.and_then(|s| s.forward.clone()) {
                Some(name) => name,
                None => {
                    let name = self.tmp();
                    self.numeric.entry(n).or_default().forward = Some(name.clone());
                    name
                }
            }
        } else {
            match slot.and_then(|s| s.last.clone()) {
                Some(name) => name,
                None => return,
            }
        };
        self.mark(&name, Self::used);
    }

    /// The symbols an expression or operand list uses: identifiers (not `%registers`)
    /// when `symbols`, and numeric label references always.
    fn uses(&mut self, text: &str, symbols: bool) {
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let b = bytes[i];
            if b.is_ascii_alphabetic() || b == b'_' || b == b'.' {
                let start = i;
                while i < bytes.len()
                    && (bytes[i].is_ascii_alphanumeric() || matches!(bytes[i], b'_' | b'.' | b'$' | b'@'))
                {
                    i += 1;
                }
                let register = start > 0 && bytes[start - 1] == b'%';
                if symbols && !register {
                    self.mark(&bytes[start..i], Self::used);
                }
            } else if b.is_ascii_digit() {
                let start = i;
                while i < bytes.len() && bytes[i].is_ascii_alphanumeric() {
                    i += 1;
                }
                let token = &text[start..i];
                if let Some((digits, dir)) = token.split_at_checked(token.len().saturating_sub(1)) {
                    if let (Ok(n), "f" | "b") = (digits.parse::<u64>(), dir) {
                        self.refer_numeric(n, dir == "f");
                    }
                }
            } else {
                i += 1;
            }
        }
    }

    fn statement(&mut self, mut st: &str, intel: &mut bool) {
        // Labels, possibly several, before the statement.
        while let Some((label, rest)) = st.split_once(':') {
            let label = label.trim();
            if label.is_empty() || label.contains(|c: char| c.is_whitespace() || c == ',' || c == '(' || c == '[') {
                break;
            }
            match label.parse::<u64>() {
                Ok(n) => self.define_numeric(n),
                Err(_) => self.mark(label.as_bytes(), Self::defined),
            }
            st = rest.trim();
        }
        if st.is_empty() {
            return;
        }
        let (word, rest) = st.split_once(|c: char| c.is_whitespace()).unwrap_or((st, ""));
        let rest = rest.trim();
        let names = || rest.split(',').map(str::trim).filter(|n| !n.is_empty());
        match word {
            ".intel_syntax" => *intel = true,
            ".att_syntax" => *intel = false,
            ".globl" | ".global" => names().for_each(|n| self.mark(n.as_bytes(), Self::global)),
            ".weak" => names().for_each(|n| self.mark(n.as_bytes(), Self::weak)),
            ".comm" | ".lcomm" => {
                if let Some(n) = names().next() {
                    self.mark(n.as_bytes(), Self::defined);
                }
            }
            ".set" | ".equ" | ".equiv" => {
                let (name, value) = rest.split_once(',').unwrap_or((rest, ""));
                self.uses(value, true);
                self.mark(name.trim().as_bytes(), Self::defined);
            }
            ".long" | ".quad" | ".int" | ".word" | ".short" | ".hword" | ".byte" | ".2byte" | ".4byte" | ".8byte"
            | ".xword" | ".dc.a" => self.uses(rest, true),
            // The assembler's label for the frame's CFI, unnamed.
            w if w.starts_with(".cfi_") && w != ".cfi_sections" => self.mark_unnamed(),
            w if w.starts_with('.') => {}
            _ => match st.split_once('=') {
                Some((name, value)) if !name.trim().contains(char::is_whitespace) && !*intel => {
                    self.uses(value, true);
                    self.mark(name.trim().as_bytes(), Self::defined);
                }
                // An instruction: the symbols of its operands are used. In Intel syntax
                // registers and size keywords are bare words: only numeric labels are read.
                _ => self.uses(rest, !*intel),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn asm_symbols_as_record_streamer_marks_them() {
        let asm = [
            ".globl module_asm_sym".to_string(),
            "module_asm_sym = 42".to_string(),
            "local_label: call helper@PLT; movq %rax, data(%rip)".to_string(),
            ".weak weak_def\nweak_def:\n.weak weak_undef".to_string(),
            ".globl declared_only # a comment naming not_a_symbol".to_string(),
        ];
        let found = asm_symbols(&asm, false);
        let flags = |name: &str| found.iter().find(|s| s.name == name.as_bytes()).map(|s| s.flags.bits());
        let (x, g, u, w) = (SymbolFlags::EXECUTABLE, SymbolFlags::GLOBAL, SymbolFlags::UNDEFINED, SymbolFlags::WEAK);
        assert_eq!(flags("module_asm_sym"), Some(x | g));
        assert_eq!(flags("local_label"), Some(x));
        assert_eq!(flags("helper"), Some(x | u | g));
        assert_eq!(flags("data"), Some(x | u | g));
        assert_eq!(flags("weak_def"), Some(x | w | g));
        assert_eq!(flags("weak_undef"), Some(x | w | u));
        assert_eq!(flags("declared_only"), Some(x | u | g));
        assert_eq!(flags("not_a_symbol"), None);
        assert_eq!(flags("rax"), None);
        assert_eq!(found.len(), 7);
    }

    #[test]
    fn numeric_labels_cfi_and_intel_syntax_as_the_assembler_makes_them() {
        let asm = [".intel_syntax\n.globl probe\nprobe:\n.cfi_startproc\n  push rbp\n  cmp r11, 0x1000\n  jna 3f\n2:\n  \
                    sub rsp, 0x1000\n  test qword ptr [rsp + 8], rsp\n  ja 2b\n3:\n  ret\n.cfi_endproc\n.Lend:\n.att_syntax\n  \
                    call helper"
            .to_string()];
        let found = asm_symbols(&asm, false);
        let names: Vec<&[u8]> = found.iter().map(|s| s.name.as_slice()).collect();
        // `3f` is met before `2:`: it takes .Ltmp0.
        assert_eq!(names, [&b"probe"[..], b"", b".Ltmp0", b".Ltmp1", b".Lend", b"helper"]);
        let x = SymbolFlags::EXECUTABLE;
        assert_eq!(found[0].flags.bits(), x | SymbolFlags::GLOBAL);
        assert!(found[1..5].iter().all(|s| s.flags.bits() == x));
        assert_eq!(found[5].flags.bits(), x | SymbolFlags::UNDEFINED | SymbolFlags::GLOBAL);
        assert_eq!(asm_symbols(&["2:".to_string()], true)[0].name, b"Ltmp0");
    }
}
