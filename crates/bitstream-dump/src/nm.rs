//! `--nm FILE...`: the symbols of bitcode files, of objects with embedded bitcode and of
//! archives (`.a`, `.rlib`), printed as `llvm-nm` prints them.
//!
//! ```text
//! $ bitstream-dump --nm testdata/containers/gnu_ab.a
//!
//! elf_a.o:
//! ---------------- T a_add
//! ---------------- D a_counter
//! ...
//! ```
//!
//! What `llvm-nm` does, and so what this does (read from `llvm/tools/llvm-nm/llvm-nm.cpp`
//! and checked against `llvm-nm` 14 and 19 by `tests/nm.rs`):
//! - An IR symbol's letter: undefined `U` (`w` if weak), weak `W`, common `C`, else `t`
//!   for code (functions, aliases of them), `s` for constants on Darwin, `d` for other data;
//!   upper case when the symbol is global. Format-specific symbols (private linkage,
//!   `llvm.*` names, the `llvm.metadata` section) are not listed.
//! - The address column is dashes for a defined IR symbol and blanks for an undefined
//!   one, 16 wide for a 64-bit target triple and 8 otherwise.
//! - Symbols are sorted by name (bytewise); symbols of equal name keep the order of the
//!   modules.
//! - With several files, or for an archive's members, each list is preceded by an empty
//!   line and `NAME:` (a member by its own name: `lib.rmeta:`). Archive members that are
//!   not object files or bitcode (text, nested archives) are passed over in silence. An
//!   object file with no symbols at all gets its header and `NAME: no symbols` on stderr.
//! - An object file with embedded bitcode (`.llvmbc`, `__LLVM,__bitcode`) is listed by
//!   the symbols of its bitcode, as `llvm-nm` 14 does for all three formats and
//!   `llvm-nm` 19 for Mach-O (it lists the native symbols of ELF and COFF objects).
//!   Native symbols are not read here: an object without bitcode gets its header and a
//!   note on stderr.
//!
//! Symbols come from the file's SYMTAB blob ([`llvm_bitstream_reader::ir::symtab`]) when
//! its version is one the library reads and it describes every module of the file; they
//! are the symbols `llvm-nm` lists, since LLVM builds that table from the same
//! `ModuleSymbolTable`. The one thing the table lacks is whether a global variable is
//! constant, which only Darwin's letter `s` needs.

use std::borrow::Cow;
use std::io::{self, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use llvm_bitstream_reader::BitstreamFile;
use llvm_bitstream_reader::container::{self, ContainerError, Embedded};
use llvm_bitstream_reader::ir::Inventory;
use llvm_bitstream_reader::ir::symtab::Symtab;
use llvm_bitstream_reader::ir::{GlobalRef, Module, SymbolFlags};
use object::read::archive::ArchiveFile;
use object::{FileKind, Object};
use serde::Serialize;

use crate::{BROKEN_PIPE, io_text};

pub const USAGE: &str = "\
usage: bitstream-dump --nm [OPTIONS] FILE...

Lists the symbols of LLVM bitcode files, of objects with embedded bitcode and of
archives (.a, .rlib), as llvm-nm lists them. FILE \"-\" reads standard input.

  --defined-only, -U     only defined symbols
  --undefined-only, -u   only undefined symbols
  --extern-only, -g      only global (external) symbols
  --format FORMAT        text (llvm-nm's, the default) or json (one object per
                         symbol list)
  --symbols-from=module  derive the symbols from the module records even where the
                         file's SYMTAB would give them (default: auto)
  -h, --help             this text
";

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Filter {
    defined_only: bool,
    undefined_only: bool,
    extern_only: bool,
}

#[derive(Debug, PartialEq, Eq)]
struct NmOptions {
    filter: Filter,
    json: bool,
    /// `--symbols-from module`: read the module records even where a SYMTAB would do.
    from_records: bool,
    files: Vec<String>,
}

fn parse_args(args: &[String]) -> Result<Option<NmOptions>, String> {
    let mut o = NmOptions { filter: Filter::default(), json: false, from_records: false, files: Vec::new() };
    let mut args = args.iter();
    let mut only_files = false;
    while let Some(arg) = args.next() {
        if only_files || arg == "-" || !arg.starts_with('-') {
            o.files.push(arg.clone());
            continue;
        }
        match arg.as_str() {
            "--" => only_files = true,
            "--nm" | "-nm" => {}
            "--defined-only" | "-defined-only" | "-U" => o.filter.defined_only = true,
            "--undefined-only" | "-undefined-only" | "-u" => o.filter.undefined_only = true,
            "--extern-only" | "-extern-only" | "-g" => o.filter.extern_only = true,
            "--format" | "-format" => {
                o.json = format_is_json(args.next().ok_or("--format needs a value")?)?;
            }
            "--symbols-from=module" => o.from_records = true,
            "--symbols-from=auto" => o.from_records = false,
            "-h" | "--help" => return Ok(None),
            _ => match arg.strip_prefix("--format=").or_else(|| arg.strip_prefix("-format=")) {
                Some(v) => o.json = format_is_json(v)?,
                None => return Err(format!("unknown option '{arg}' with --nm")),
            },
        }
    }
    if o.filter.defined_only && o.filter.undefined_only {
        return Err("--defined-only and --undefined-only exclude each other".to_string());
    }
    if o.files.is_empty() {
        // As llvm-nm.
        o.files.push("a.out".to_string());
    }
    Ok(Some(o))
}

fn format_is_json(value: &str) -> Result<bool, String> {
    match value {
        "text" | "bsd" => Ok(false),
        "json" => Ok(true),
        other => Err(format!("unknown format '{other}' with --nm (text, json)")),
    }
}

/// `bitstream-dump --nm ...`: the exit status is 1 if any file could not be read (the
/// others are listed all the same), 2 for a usage error.
pub fn main(args: &[String]) -> ExitCode {
    let opts = match parse_args(args) {
        Ok(Some(o)) => o,
        Ok(None) => {
            print!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("bitstream-dump: {e}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(1 << 16, stdout.lock());
    let mut failed = false;
    let multiple = opts.files.len() > 1;
    for file in &opts.files {
        let mut lister = Lister { opts: &opts, out: &mut out, failed: false };
        let result = lister.file(file, multiple);
        failed |= lister.failed;
        match result {
            Ok(()) => {}
            Err(e) if e == BROKEN_PIPE => return ExitCode::SUCCESS,
            Err(e) => {
                failed = true;
                // What was listed before the error comes first.
                if out.flush().is_err() {
                    return ExitCode::SUCCESS;
                }
                eprintln!("bitstream-dump: error: {file}: {e}");
            }
        }
    }
    match out.flush() {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => ExitCode::FAILURE,
        _ if failed => ExitCode::FAILURE,
        _ => ExitCode::SUCCESS,
    }
}

/// One symbol, as `llvm-nm` sees an IR symbol.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NmSymbol<'a> {
    /// The mangled name.
    pub name: Cow<'a, [u8]>,
    /// irsymtab's flags.
    pub flags: SymbolFlags,
    /// A constant global variable (`SF_Const`), if known.
    pub constant: bool,
}

/// The symbols of one symbol file (a bitcode file, or every bitstream of an object).
#[derive(Debug, Default)]
pub struct SymbolList<'a> {
    /// In module order.
    pub symbols: Vec<NmSymbol<'a>>,
    /// The first module's target triple.
    pub triple: Vec<u8>,
    /// Where the symbols came from: `symtab` or `module`.
    pub source: &'static str,
}

/// The letter `llvm-nm` prints for an IR symbol (`getNMTypeChar` for an `IRObjectFile`).
pub fn type_char(flags: SymbolFlags, constant: bool, darwin: bool) -> char {
    if flags.undefined() {
        return if flags.weak() { 'w' } else { 'U' };
    }
    if flags.weak() {
        return 'W';
    }
    if flags.common() {
        return 'C';
    }
    let letter = if flags.executable() {
        't'
    } else if darwin && constant {
        's'
    } else {
        'd'
    };
    if flags.global() { letter.to_ascii_uppercase() } else { letter }
}

/// Whether LLVM's `Triple::isArch64Bit` holds for a triple's architecture.
pub fn triple_is_64_bit(triple: &[u8]) -> bool {
    let arch = triple.split(|&b| b == b'-').next().unwrap_or_default();
    const ARCHES_64: &[&[u8]] = &[
        b"x86_64",
        b"amd64",
        b"x86_64h",
        b"aarch64",
        b"aarch64_be",
        b"arm64",
        b"arm64e",
        b"arm64ec",
        b"powerpc64",
        b"powerpc64le",
        b"ppc64",
        b"ppc64le",
        b"riscv64",
        b"mips64",
        b"mips64el",
        b"mipsisa64r6",
        b"mipsisa64r6el",
        b"sparcv9",
        b"sparc64",
        b"s390x",
        b"systemz",
        b"wasm64",
        b"nvptx64",
        b"amdgcn",
        b"bpf",
        b"bpfel",
        b"bpfeb",
        b"loongarch64",
        b"ve",
        b"spir64",
        b"spirv64",
        b"le64",
        b"amdil64",
        b"hsail64",
        b"renderscript64",
    ];
    // `aarch64_32` and `arm64_32` are 32-bit ILP32 targets.
    if arch == b"aarch64_32" || arch == b"arm64_32" {
        return false;
    }
    ARCHES_64.contains(&arch)
}

/// Whether a triple names a Darwin OS (`Triple::isOSDarwin`).
pub fn triple_is_darwin(triple: &[u8]) -> bool {
    let os = triple.split(|&b| b == b'-').nth(2).unwrap_or_default();
    ["darwin", "macos", "ios", "tvos", "watchos", "bridgeos", "driverkit", "xros", "visionos"]
        .iter()
        .any(|d| os.starts_with(d.as_bytes()))
}

/// Reads the symbols of the bitstreams of one symbol file.
pub fn read_symbols<'a>(streams: &[Embedded<'a>], from_records: bool) -> Result<SymbolList<'a>, String> {
    let mut list = SymbolList::default();
    for e in streams {
        let stream = e.bitstream().map_err(|err| format!("{}: {err}", e.provenance))?;
        let inventory = Inventory::of(&stream).map_err(|err| format!("{}: {err}", e.provenance))?;
        let source =
            stream_symbols(&inventory, &mut list, from_records).map_err(|err| format!("{}: {err}", e.provenance))?;
        list.source = if list.source.is_empty() || list.source == source { source } else { "mixed" };
    }
    Ok(list)
}

/// Appends the symbols of one stream; returns where they came from.
fn stream_symbols<'a>(
    inventory: &Inventory<'a>,
    list: &mut SymbolList<'a>,
    from_records: bool,
) -> Result<&'static str, String> {
    let triple = match inventory.modules.first() {
        Some(m) => m.names().map_err(|e| e.to_string())?.triple.unwrap_or_default().into_bytes(),
        None => return Err("the stream holds no module".to_string()),
    };
    if list.triple.is_empty() && list.symbols.is_empty() {
        list.triple = triple.clone();
    }
    let symtab = if from_records { Ok(None) } else { Symtab::from_inventory(inventory) };
    match symtab {
        // LLVM uses the table only when it describes every module of the file.
        Ok(Some(t)) if t.module_count() as usize == inventory.modules.len() => {
            // Darwin's letter `s` needs SF_Const, which the table does not keep: the
            // names of the constant global variables come from the module records.
            let constants = if triple_is_darwin(&triple) { constant_globals(inventory)? } else { Vec::new() };
            for s in t.symbols() {
                let s = s.map_err(|e| format!("SYMTAB: {e}"))?;
                let constant = !s.ir_name.is_empty() && constants.binary_search(&s.ir_name.to_vec()).is_ok();
                list.symbols.push(NmSymbol { name: Cow::Borrowed(s.name), flags: s.flags, constant });
            }
            Ok("symtab")
        }
        // No table, one of another version, one that misses modules (files joined by
        // llvm-cat -b), or a damaged one: LLVM builds the table from the modules, so do
        // we, from their records.
        _ => module_symbols(inventory, list),
    }
}

/// The IR names of the constant global variables of every module, sorted.
fn constant_globals(inventory: &Inventory<'_>) -> Result<Vec<Vec<u8>>, String> {
    let mut names = Vec::new();
    for info in &inventory.modules {
        let module = Module::from_info(info).map_err(|e| e.to_string())?;
        for g in module.globals.iter().filter(|g| g.is_constant) {
            names.push(g.common.name.to_vec());
        }
    }
    names.sort();
    Ok(names)
}

/// The symbols derived from the module records (`Module::symbols`).
fn module_symbols<'a>(inventory: &Inventory<'a>, list: &mut SymbolList<'a>) -> Result<&'static str, String> {
    for info in &inventory.modules {
        let module = Module::from_info(info).map_err(|e| e.to_string())?;
        for s in module.symbols() {
            let constant =
                matches!(s.source, GlobalRef::Var(i) if module.globals.get(i).is_some_and(|g| g.is_constant));
            list.symbols.push(NmSymbol { name: Cow::Owned(s.name.into_owned()), flags: s.flags, constant });
        }
        let darwin = triple_is_darwin(module.triple.as_deref().unwrap_or_default().as_bytes());
        for (name, flags) in asm_symbols(&module.asm, darwin) {
            list.symbols.push(NmSymbol { name: Cow::Owned(name), flags, constant: false });
        }
        // Newer LLVM (19 does, 14 does not) records the GOT symbol that x86-32 ELF code
        // refers to without the IR naming it (`CollectAsmSymbols`). The same for x86-64's
        // medium and large code models, which the module flags give and are not read here.
        let triple = module.triple.as_deref().unwrap_or_default();
        if is_x86_32_elf(triple) {
            let flags = SymbolFlags(SymbolFlags::UNDEFINED | SymbolFlags::GLOBAL);
            list.symbols.push(NmSymbol { name: Cow::Borrowed(b"_GLOBAL_OFFSET_TABLE_"), flags, constant: false });
        }
    }
    Ok("module")
}

/// Whether a triple is 32-bit x86 with ELF objects (not Darwin, Windows or other formats).
fn is_x86_32_elf(triple: &str) -> bool {
    let mut parts = triple.split('-');
    let arch = parts.next().unwrap_or_default();
    let x86_32 = matches!(arch, "i386" | "i486" | "i586" | "i686" | "i786" | "i886" | "i986" | "x86");
    let non_elf = ["darwin", "macos", "ios", "windows", "win32", "mingw", "cygwin", "uefi", "aix", "zos"];
    x86_32 && !parts.any(|p| non_elf.iter().any(|n| p.starts_with(n)) || p == "macho" || p == "coff")
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
fn asm_symbols(asm: &[String], darwin: bool) -> Vec<(Vec<u8>, SymbolFlags)> {
    let mut scan = AsmScan { states: Vec::new(), next_tmp: 0, numeric: Vec::new(), darwin };
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
            (name, SymbolFlags(flags))
        })
        .collect()
}

/// A numeric label: its number, the symbol of its last definition (what `Nb` means) and
/// that of a forward reference not yet defined (what `Nf` means).
type NumericLabel = (u64, Option<Vec<u8>>, Option<Vec<u8>>);

/// The state of [`asm_symbols`]' reading.
struct AsmScan {
    /// Every symbol met, in order, with its state.
    states: Vec<(Vec<u8>, AsmState)>,
    /// The next `.Ltmp` number.
    next_tmp: u32,
    /// Numeric labels (`2:`) and the temporary symbols standing for them.
    numeric: Vec<NumericLabel>,
    darwin: bool,
}

impl AsmScan {
    fn mark(&mut self, name: &[u8], how: fn(Option<AsmState>) -> AsmState) {
        // `foo@PLT` is `foo` with a variant.
        let name = name.split(|&b| b == b'@').next().unwrap_or_default();
        if name.first().is_none_or(u8::is_ascii_digit) || name == b"." {
            return;
        }
        match self.states.iter_mut().find(|(n, _)| n == name) {
            Some((_, s)) => *s = how(Some(*s)),
            None => self.states.push((name.to_vec(), how(None))),
        }
    }

    /// The assembler's unnamed temporary label (all of them are one entry: LLVM keys the
    /// symbols by name).
    fn mark_unnamed(&mut self) {
        match self.states.iter_mut().find(|(n, _)| n.is_empty()) {
            Some((_, s)) => *s = Self::defined(Some(*s)),
            None => self.states.push((Vec::new(), AsmState::Defined)),
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

    fn numeric_slot(&mut self, n: u64) -> usize {
        match self.numeric.iter().position(|(m, _, _)| *m == n) {
            Some(i) => i,
            None => {
                self.numeric.push((n, None, None));
                self.numeric.len() - 1
            }
        }
    }

    /// A numeric label's definition `N:`: the symbol a forward reference made, or a new one.
    fn define_numeric(&mut self, n: u64) {
        let i = self.numeric_slot(n);
        let name = match self.numeric[i].2.take() {
            Some(name) => name,
            None => self.tmp(),
        };
        self.mark(&name, Self::defined);
        self.numeric[i].1 = Some(name);
    }

    /// A reference `Nf` (forward: made now if not yet) or `Nb` (the last definition).
    fn refer_numeric(&mut self, n: u64, forward: bool) {
        let i = self.numeric_slot(n);
        let name = if forward {
            match self.numeric[i].2.clone() {
                Some(name) => name,
                None => {
                    let name = self.tmp();
                    self.numeric[i].2 = Some(name.clone());
                    name
                }
            }
        } else {
            match self.numeric[i].1.clone() {
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

/// Lists the files given, writing to `out`.
struct Lister<'o, W: Write> {
    opts: &'o NmOptions,
    out: &'o mut W,
    /// A member failed (the listing went on).
    failed: bool,
}

/// The input's bytes: memory-mapped, or standard input read whole.
enum Input {
    Mapped(BitstreamFile),
    Read(Vec<u8>),
}

impl Input {
    fn bytes(&self) -> &[u8] {
        match self {
            Input::Mapped(f) => f.bytes(),
            Input::Read(v) => v,
        }
    }
}

/// Member headers name the member; files, their path; a universal binary's slices add
/// the architecture.
struct Names<'n> {
    /// The header line's name (without `\n` and `:`).
    header: Cow<'n, str>,
    /// The name `no symbols` is reported under (`lib.a:member` for a member).
    report: Cow<'n, str>,
}

impl<W: Write> Lister<'_, W> {
    fn file(&mut self, file: &str, multiple: bool) -> Result<(), String> {
        let input = if file == "-" {
            let mut v = Vec::new();
            io::stdin().read_to_end(&mut v).map_err(|e| e.to_string())?;
            Input::Read(v)
        } else {
            Input::Mapped(BitstreamFile::open(file).map_err(|e| e.to_string())?)
        };
        let bytes = input.bytes();
        if matches!(FileKind::parse(bytes), Ok(FileKind::Archive)) {
            return self.archive(file, bytes);
        }
        let names = Names { header: Cow::Borrowed(file), report: Cow::Borrowed(file) };
        match self.symbolic(bytes, &names, multiple)? {
            true => Ok(()),
            false => Err("The file was not recognized as a valid object file".to_string()),
        }
    }

    fn archive(&mut self, file: &str, bytes: &[u8]) -> Result<(), String> {
        let archive = ArchiveFile::parse(bytes).map_err(|e| e.to_string())?;
        let dir = Path::new(file).parent().unwrap_or(Path::new("")).to_path_buf();
        for member in archive.members() {
            let member = member.map_err(|e| e.to_string())?;
            let name = String::from_utf8_lossy(member.name()).into_owned();
            let thin;
            let data = if member.is_thin() {
                let path: PathBuf = dir.join(&name);
                thin = BitstreamFile::open(&path).map_err(|e| format!("{}: {e}", path.display()))?;
                thin.bytes()
            } else {
                member.data(bytes).map_err(|e| format!("{file}({name}): {e}"))?
            };
            // llvm-nm lists only symbolic files; a nested archive is not one.
            if matches!(FileKind::parse(data), Ok(FileKind::Archive)) {
                continue;
            }
            let names = Names { header: Cow::Borrowed(&name), report: Cow::Owned(format!("{file}:{name}")) };
            if let Err(e) = self.symbolic(data, &names, true) {
                if e == BROKEN_PIPE {
                    return Err(e);
                }
                self.out.flush().map_err(io_text)?;
                eprintln!("bitstream-dump: error: {file}({name}): {e}");
                self.failed = true;
            }
        }
        Ok(())
    }

    /// Lists one file or member that is not an archive. Returns `false` if it is neither
    /// bitcode nor an object file (an archive member then is passed over).
    fn symbolic(&mut self, data: &[u8], names: &Names<'_>, print_name: bool) -> Result<bool, String> {
        let streams = match container::bitstreams_named(&names.header, data) {
            Ok(streams) => streams,
            Err(ContainerError::UnknownFormat { .. } | ContainerError::Unsupported { .. }) => return Ok(false),
            Err(ContainerError::NoBitcode { .. }) => return self.native(data, names, print_name).map(|()| true),
            Err(e) => return Err(crate::error_chain(&e)),
        };
        // A universal binary: one list per slice, named by its architecture.
        let mut slices: Vec<(Option<u32>, Vec<Embedded<'_>>)> = Vec::new();
        for e in streams {
            let arch = e.provenance.steps().iter().find_map(|s| match s {
                container::Step::Arch { cpu_type, .. } => Some(*cpu_type),
                _ => None,
            });
            match slices.last_mut() {
                Some((a, v)) if *a == arch => v.push(e),
                _ => slices.push((arch, vec![e])),
            }
        }
        for (arch, streams) in &slices {
            let list = read_symbols(streams, self.opts.from_records)?;
            let header = match arch {
                Some(cpu) => Cow::Owned(format!("{} (for architecture {})", names.header, arch_name(*cpu))),
                None => names.header.clone(),
            };
            self.print(&list, &header, &names.report, print_name || arch.is_some())?;
        }
        Ok(true)
    }

    /// An object file without bitcode: its native symbols are not read here.
    fn native(&mut self, data: &[u8], names: &Names<'_>, print_name: bool) -> Result<(), String> {
        let empty = match object::File::parse(data) {
            Ok(obj) => obj.symbols().next().is_none(),
            Err(e) => return Err(e.to_string()),
        };
        if self.opts.json {
            let note = if empty { "no symbols" } else { "native symbols are not read" };
            let record = JsonList { name: &names.header, source: "native", triple: "", symbols: Vec::new(), note };
            serde_json::to_writer(&mut *self.out, &record).map_err(|e| e.to_string())?;
            return writeln!(self.out).map_err(io_text);
        }
        if print_name {
            write!(self.out, "\n{}:\n", names.header).map_err(io_text)?;
        }
        self.out.flush().map_err(io_text)?;
        if empty {
            eprintln!("{}: no symbols", names.report);
        } else {
            eprintln!("bitstream-dump: {}: an object without bitcode: its native symbols are not listed", names.report);
        }
        Ok(())
    }

    fn print(&mut self, list: &SymbolList<'_>, header: &str, report: &str, print_name: bool) -> Result<(), String> {
        let darwin = triple_is_darwin(&list.triple);
        let wide = triple_is_64_bit(&list.triple);
        let mut shown: Vec<&NmSymbol<'_>> = list.symbols.iter().filter(|s| self.shows(s.flags)).collect();
        // Stable: equal names keep module order (llvm-nm's sort compares names only).
        shown.sort_by(|a, b| a.name.cmp(&b.name));
        if self.opts.json {
            let symbols = shown
                .iter()
                .map(|s| JsonSymbol {
                    name: String::from_utf8_lossy(&s.name),
                    r#type: type_char(s.flags, s.constant, darwin),
                    undefined: s.flags.undefined(),
                    weak: s.flags.weak(),
                    common: s.flags.common(),
                    global: s.flags.global(),
                    executable: s.flags.executable(),
                    visibility: s.flags.visibility().to_string(),
                    flags: s.flags.bits(),
                })
                .collect();
            let record = JsonList {
                name: header,
                source: list.source,
                triple: &String::from_utf8_lossy(&list.triple),
                symbols,
                note: if list.symbols.is_empty() { "no symbols" } else { "" },
            };
            serde_json::to_writer(&mut *self.out, &record).map_err(|e| e.to_string())?;
            return writeln!(self.out).map_err(io_text);
        }
        if print_name {
            write!(self.out, "\n{header}:\n").map_err(io_text)?;
        }
        if list.symbols.is_empty() {
            self.out.flush().map_err(io_text)?;
            eprintln!("{report}: no symbols");
        }
        let (dashes, blanks) = if wide { ("----------------", "                ") } else { ("--------", "        ") };
        for s in shown {
            let address = if s.flags.undefined() { blanks } else { dashes };
            let letter = type_char(s.flags, s.constant, darwin);
            write!(self.out, "{address} {letter} ").map_err(io_text)?;
            self.out.write_all(&s.name).map_err(io_text)?;
            self.out.write_all(b"\n").map_err(io_text)?;
        }
        Ok(())
    }

    /// llvm-nm's filters: format-specific symbols never, then the three options.
    fn shows(&self, flags: SymbolFlags) -> bool {
        let f = self.opts.filter;
        !(flags.format_specific()
            || (f.defined_only && flags.undefined())
            || (f.undefined_only && !flags.undefined())
            || (f.extern_only && !flags.global()))
    }
}

/// `--format json`: one object per symbol list.
#[derive(Serialize)]
struct JsonList<'a> {
    name: &'a str,
    /// `symtab` (the SYMTAB blob), `module` (the module records), `native` (an object
    /// without bitcode, not listed).
    source: &'a str,
    triple: &'a str,
    symbols: Vec<JsonSymbol<'a>>,
    #[serde(skip_serializing_if = "str::is_empty")]
    note: &'a str,
}

#[derive(Serialize)]
struct JsonSymbol<'a> {
    name: Cow<'a, str>,
    r#type: char,
    undefined: bool,
    weak: bool,
    common: bool,
    global: bool,
    executable: bool,
    visibility: String,
    flags: u32,
}

/// llvm-nm's name for a Mach-O CPU type (`MachOObjectFile::getArchTriple`'s arch name).
fn arch_name(cpu_type: u32) -> Cow<'static, str> {
    match cpu_type {
        7 => "i386".into(),
        0x0100_0007 => "x86_64".into(),
        12 => "arm".into(),
        0x0100_000c => "arm64".into(),
        0x0200_000c => "arm64_32".into(),
        18 => "ppc".into(),
        0x0100_0012 => "ppc64".into(),
        n => format!("cputype {n:#x}").into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(a: &[&str]) -> Vec<String> {
        a.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn options_as_llvm_nm_spells_them() {
        let o = parse_args(&args(&["--nm", "-g", "--defined-only", "--format=json", "a.bc", "b.a"])).unwrap().unwrap();
        assert_eq!(o.filter, Filter { defined_only: true, undefined_only: false, extern_only: true });
        assert!(o.json);
        assert_eq!(o.files, ["a.bc", "b.a"]);
        assert_eq!(parse_args(&args(&["--nm"])).unwrap().unwrap().files, ["a.out"]);
        assert!(parse_args(&args(&["--nm", "-U", "-u", "x"])).is_err());
        assert!(parse_args(&args(&["--nm", "--bogus"])).is_err());
    }

    #[test]
    fn letters_follow_get_nm_type_char() {
        let f = |bits| SymbolFlags(bits);
        let global = SymbolFlags::GLOBAL;
        assert_eq!(type_char(f(SymbolFlags::UNDEFINED | global), false, false), 'U');
        assert_eq!(type_char(f(SymbolFlags::UNDEFINED | SymbolFlags::WEAK | global), false, false), 'w');
        assert_eq!(type_char(f(SymbolFlags::WEAK | SymbolFlags::EXECUTABLE | global), false, false), 'W');
        assert_eq!(type_char(f(SymbolFlags::COMMON | global), false, false), 'C');
        assert_eq!(type_char(f(SymbolFlags::EXECUTABLE | global), false, false), 'T');
        assert_eq!(type_char(f(SymbolFlags::EXECUTABLE), false, false), 't');
        assert_eq!(type_char(f(global), true, false), 'D');
        assert_eq!(type_char(f(global), true, true), 'S');
        assert_eq!(type_char(f(0), true, true), 's');
    }

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
        let flags = |name: &str| found.iter().find(|(n, _)| n == name.as_bytes()).map(|(_, f)| f.bits());
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
        let names: Vec<&[u8]> = found.iter().map(|(n, _)| n.as_slice()).collect();
        // `3f` is met before `2:`: it takes .Ltmp0.
        assert_eq!(names, [&b"probe"[..], b"", b".Ltmp0", b".Ltmp1", b".Lend", b"helper"]);
        let x = SymbolFlags::EXECUTABLE;
        assert_eq!(found[0].1.bits(), x | SymbolFlags::GLOBAL);
        assert!(found[1..5].iter().all(|(_, f)| f.bits() == x));
        assert_eq!(found[5].1.bits(), x | SymbolFlags::UNDEFINED | SymbolFlags::GLOBAL);
        assert_eq!(asm_symbols(&["2:".to_string()], true)[0].0, b"Ltmp0");
    }

    #[test]
    fn triples() {
        assert!(triple_is_64_bit(b"x86_64-unknown-linux-gnu") && triple_is_64_bit(b"arm64-apple-macosx11.0.0"));
        assert!(!triple_is_64_bit(b"i686-pc-windows-msvc") && !triple_is_64_bit(b"") && !triple_is_64_bit(b"arm64_32"));
        assert!(triple_is_darwin(b"x86_64-apple-macosx10.15.0") && triple_is_darwin(b"arm64-apple-ios14.0"));
        assert!(!triple_is_darwin(b"x86_64-unknown-linux-gnu"));
    }
}
