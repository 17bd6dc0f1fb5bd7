//! `--nm FILE...`: the symbols of bitcode files, object files and archives (`.a`,
//! `.rlib`), printed as `llvm-nm` prints them.
//!
//! ```text
//! $ bitstream-dump --nm testdata/containers/gnu_ab.a
//!
//! elf_a.o:
//! 0000000000000000 T a_add
//! 0000000000000000 D a_counter
//! ...
//! ```
//!
//! What is listed, with which letters, is the library's
//! ([`llvm_bitstream_reader::symbols`]): bitcode symbols from the SYMTAB or the module
//! records, native symbols of objects, archives member by member, and the behaviour of
//! the `llvm-nm` version chosen with `--llvm-nm-version` (22 by default). This file
//! only parses options, filters, sorts and prints as `llvm-nm`'s `printSymbolList` does:
//! - BSD (default): `ADDRESS LETTER NAME`, the address in 16 hex digits for a 64-bit
//!   object or target (8 otherwise), blanks for an undefined symbol and dashes for a
//!   defined bitcode symbol; `-S` adds the size after the address.
//! - `-P`/`--format=posix`: `NAME LETTER ADDRESS SIZE`, hex without padding.
//! - `-j`/`--format=just-symbols`: names only.
//! - With several files, or for archive members, each list is preceded by an empty line
//!   and `NAME:`; `-A` instead starts each line with `FILE: ` (`ARCHIVE:MEMBER: `).
//! - A list with no symbols at all gets `NAME: no symbols` on stderr.

use std::io::{self, BufWriter, Read, Write};
use std::path::Path;
use std::process::ExitCode;

use llvm_bitstream_reader::BitstreamFile;
use llvm_bitstream_reader::container::{Provenance, Step};
use llvm_bitstream_reader::symbols::{self, NmVersion, Options, SortOrder, Symbol, SymbolList};
use object::FileKind;
use object::read::archive::ArchiveFile;
use serde::Serialize;

use crate::{BROKEN_PIPE, io_text};

pub const USAGE: &str = "\
usage: bitstream-dump --nm [OPTIONS] FILE...

Lists the symbols of LLVM bitcode files, object files and archives (.a, .rlib) as
llvm-nm lists them: native symbols of objects, IR symbols of bitcode. FILE \"-\" reads
standard input.

  --defined-only, -U        only defined symbols
  --undefined-only, -u      only undefined symbols
  --extern-only, -g         only global (external) symbols
  --debug-syms, -a          also the symbols llvm-nm hides (section, file, private)
  --numeric-sort, -n        sort by address
  --size-sort               sort by size
  --no-sort, -p             file order
  --reverse-sort, -r        reverse the sort
  --print-size, -S          print sizes after addresses
  --print-file-name, -A, -o start each line with the file (and member) name
  --just-symbol-name, -j    names only (--format=just-symbols)
  --portability, -P         POSIX output (--format=posix)
  --format FORMAT           bsd (the default), posix, just-symbols, or json (one object
                            per symbol list)
  --llvm-nm-version N       follow llvm-nm N where versions differ: 14, 19 or 22
                            (default 22: ELF and COFF objects are listed by their native
                            symbols even when they embed bitcode; 14 lists the bitcode)
  --symbols-from=module     derive bitcode symbols from the module records even where the
                            file's SYMTAB would give them (default: auto)
  -h, --help                this text
";

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Format {
    #[default]
    Bsd,
    Posix,
    JustSymbols,
    Json,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Filter {
    defined_only: bool,
    undefined_only: bool,
    extern_only: bool,
    debug_syms: bool,
}

#[derive(Debug, PartialEq, Eq)]
struct NmOptions {
    filter: Filter,
    format: Format,
    order: SortOrder,
    reverse: bool,
    print_size: bool,
    print_file_name: bool,
    read: Options,
    files: Vec<String>,
}

fn parse_args(args: &[String]) -> Result<Option<NmOptions>, String> {
    let mut o = NmOptions {
        filter: Filter::default(),
        format: Format::Bsd,
        order: SortOrder::Name,
        reverse: false,
        print_size: false,
        print_file_name: false,
        read: Options::default(),
        files: Vec::new(),
    };
    let mut args = args.iter();
    let mut only_files = false;
    while let Some(arg) = args.next() {
        if only_files || arg == "-" || !arg.starts_with('-') {
            o.files.push(arg.clone());
            continue;
        }
        // `--opt=value` and `--opt value`; LLVM's tools take one or two dashes.
        let (name, inline) = match arg.split_once('=') {
            Some((n, v)) => (n, Some(v.to_string())),
            None => (arg.as_str(), None),
        };
        let mut value = |what: &str| match &inline {
            Some(v) => Ok(v.clone()),
            None => args.next().cloned().ok_or(format!("{what} needs a value")),
        };
        match name.trim_start_matches('-') {
            "" => only_files = true,
            "nm" => {}
            "defined-only" | "U" => o.filter.defined_only = true,
            "undefined-only" | "u" => o.filter.undefined_only = true,
            "extern-only" | "g" => o.filter.extern_only = true,
            "debug-syms" | "a" => o.filter.debug_syms = true,
            "numeric-sort" | "n" | "v" => o.order = SortOrder::Address,
            "size-sort" => o.order = SortOrder::Size,
            "no-sort" | "p" => o.order = SortOrder::None,
            "reverse-sort" | "r" => o.reverse = true,
            "print-size" | "S" => o.print_size = true,
            "print-file-name" | "A" | "o" => o.print_file_name = true,
            "just-symbol-name" | "j" => o.format = Format::JustSymbols,
            "portability" | "P" => o.format = Format::Posix,
            "format" | "f" => o.format = parse_format(&value("--format")?)?,
            "llvm-nm-version" => {
                let v = value("--llvm-nm-version")?;
                o.read.llvm_nm = v
                    .parse()
                    .ok()
                    .and_then(NmVersion::from_major)
                    .ok_or(format!("unknown llvm-nm version '{v}' (14, 19, 22)"))?;
            }
            "symbols-from" => match value("--symbols-from")?.as_str() {
                "module" => o.read.module_records = true,
                "auto" => o.read.module_records = false,
                v => return Err(format!("unknown --symbols-from '{v}' (auto, module)")),
            },
            "h" | "help" => return Ok(None),
            _ => return Err(format!("unknown option '{arg}' with --nm")),
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

fn parse_format(value: &str) -> Result<Format, String> {
    match value {
        "bsd" | "text" => Ok(Format::Bsd),
        "posix" => Ok(Format::Posix),
        "just-symbols" => Ok(Format::JustSymbols),
        "json" => Ok(Format::Json),
        other => Err(format!("unknown format '{other}' with --nm (bsd, posix, just-symbols, json)")),
    }
}

/// `bitstream-dump --nm ...`: the exit status is 1 if any file or member could not be
/// read (the others are listed all the same), 2 for a usage error.
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
        let mut printer = Printer { opts: &opts, out: &mut out, failed: false };
        let result = printer.file(file, multiple);
        failed |= printer.failed;
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

/// Prints the files given to `out`.
struct Printer<'o, W: Write> {
    opts: &'o NmOptions,
    out: &'o mut W,
    /// A member failed (the listing went on).
    failed: bool,
}

impl<W: Write> Printer<'_, W> {
    fn file(&mut self, file: &str, multiple: bool) -> Result<(), String> {
        let input = if file == "-" {
            let mut v = Vec::new();
            io::stdin().read_to_end(&mut v).map_err(|e| e.to_string())?;
            Input::Read(v)
        } else {
            Input::Mapped(BitstreamFile::open(file).map_err(|e| e.to_string())?)
        };
        let bytes = input.bytes();
        if is_thin_archive(bytes) {
            return self.thin_archive(file, bytes);
        }
        let listed = match symbols::read(file, bytes, &self.opts.read) {
            Ok(listed) => listed,
            Err(llvm_bitstream_reader::container::ContainerError::UnknownFormat { .. }) => {
                return Err("The file was not recognized as a valid object file".to_string());
            }
            Err(e) => return Err(crate::error_chain(&e)),
        };
        let archive = listed.archive.then_some(file);
        let mut lists = listed.lists;
        // A universal binary with a slice for this host: llvm-nm lists only that one, as
        // it would a plain object.
        if listed.universal {
            if let Some(host) = lists.iter().position(|l| l.arch.as_deref() == Some(host_arch())) {
                let mut list = lists.swap_remove(host);
                list.name = file.to_string();
                list.arch = None;
                lists = vec![list];
            }
        }
        for mut list in lists {
            let print_name = multiple || listed.archive || list.arch.is_some();
            self.list(&mut list, archive, file, print_name)?;
        }
        Ok(())
    }

    /// A thin archive: each member is a file of its own, next to the archive.
    fn thin_archive(&mut self, file: &str, bytes: &[u8]) -> Result<(), String> {
        let archive = ArchiveFile::parse(bytes).map_err(|e| e.to_string())?;
        let dir = Path::new(file).parent().unwrap_or(Path::new("")).to_path_buf();
        let at = Provenance::from(vec![Step::File(file.to_string())]);
        for member in archive.members() {
            let member = member.map_err(|e| e.to_string())?;
            let name = String::from_utf8_lossy(member.name()).into_owned();
            let path = dir.join(&name);
            let mapped = match BitstreamFile::open(&path) {
                Ok(m) => m,
                Err(e) => {
                    self.member_error(file, &name, &format!("{}: {e}", path.display()))?;
                    continue;
                }
            };
            for mut list in symbols::read_member(&name, mapped.bytes(), &at, &self.opts.read) {
                self.list(&mut list, Some(file), file, true)?;
            }
        }
        Ok(())
    }

    fn member_error(&mut self, file: &str, member: &str, e: &str) -> Result<(), String> {
        self.out.flush().map_err(io_text)?;
        eprintln!("bitstream-dump: error: {file}({member}): {e}");
        self.failed = true;
        Ok(())
    }

    /// Prints one list: its header, its symbols, then its error if it has one.
    fn list(
        &mut self,
        list: &mut SymbolList<'_>,
        archive: Option<&str>,
        file: &str,
        print_name: bool,
    ) -> Result<(), String> {
        let f = self.opts.filter;
        let shows = |s: &Symbol<'_>| {
            (s.listed || f.debug_syms)
                && !(f.defined_only && s.undefined)
                && (!f.undefined_only || s.undefined)
                && (!f.extern_only || s.global)
        };
        list.sort(self.opts.order, self.opts.reverse);
        // What `-A` and "no symbols" name: `FILE`, or `ARCHIVE:MEMBER` (`ARCHIVE[MEMBER]`
        // in the POSIX format).
        let label = match (archive, &list.member) {
            (Some(a), Some(m)) if self.opts.format == Format::Posix => format!("{a}[{m}]"),
            (Some(a), Some(m)) => format!("{a}:{m}"),
            _ => file.to_string(),
        };
        if self.opts.format == Format::Json {
            self.json(list, shows)?;
        } else {
            if print_name && !self.opts.print_file_name {
                write!(self.out, "\n{}:\n", list.name).map_err(io_text)?;
            }
            if list.symbols.is_empty() && list.error.is_none() {
                self.out.flush().map_err(io_text)?;
                eprintln!("{label}: no symbols");
            }
            let prefix = if self.opts.print_file_name { format!("{label}: ") } else { String::new() };
            for s in list.symbols.iter().filter(|s| shows(s)) {
                self.out.write_all(prefix.as_bytes()).map_err(io_text)?;
                self.symbol(s, list.address_digits)?;
            }
        }
        if let Some(e) = &list.error {
            let member = list.member.as_deref().unwrap_or(&list.name);
            let text = crate::error_chain(e);
            match archive {
                Some(a) => self.member_error(a, member, &text)?,
                // The file is named once, by the caller.
                None if e.provenance().is_some_and(|p| p.to_string() == file) => {
                    return Err(crate::with_sources(e.reason().to_string(), e));
                }
                None => return Err(text),
            }
        }
        Ok(())
    }

    /// One line of the BSD, POSIX or just-symbols formats.
    fn symbol(&mut self, s: &Symbol<'_>, digits: usize) -> Result<(), String> {
        let out = &mut *self.out;
        let bitcode = s.ir_flags.is_some();
        match self.opts.format {
            Format::JustSymbols => {}
            Format::Posix => {
                out.write_all(&s.name).map_err(io_text)?;
                let address = if s.is_defined() && bitcode {
                    "-".repeat(digits)
                } else {
                    format!("{:x}", s.address.unwrap_or(0))
                };
                writeln!(out, " {} {address} {:x}", s.letter, s.size.unwrap_or(0)).map_err(io_text)?;
                return Ok(());
            }
            _ => {
                // `--size-sort` without `-S` prints the size where the address goes.
                let size_only = self.opts.order == SortOrder::Size && !self.opts.print_size;
                let columns = if size_only || !self.opts.print_size { 1 } else { 2 };
                if !s.is_defined() {
                    for _ in 0..columns {
                        write!(out, "{:w$} ", "", w = digits).map_err(io_text)?;
                    }
                } else {
                    if !size_only {
                        match (bitcode, s.address) {
                            (true, _) => write!(out, "{} ", "-".repeat(digits)),
                            (false, a) => write!(out, "{:0w$x} ", a.unwrap_or(0), w = digits),
                        }
                        .map_err(io_text)?;
                    }
                    if self.opts.print_size || size_only {
                        write!(out, "{:0w$x} ", s.size.unwrap_or(0), w = digits).map_err(io_text)?;
                    }
                }
                write!(out, "{} ", s.letter).map_err(io_text)?;
            }
        }
        out.write_all(&s.name).map_err(io_text)?;
        out.write_all(b"\n").map_err(io_text)
    }

    fn json(&mut self, list: &SymbolList<'_>, shows: impl Fn(&Symbol<'_>) -> bool) -> Result<(), String> {
        let record = JsonList {
            name: &list.name,
            member: list.member.as_deref(),
            source: list.source.to_string(),
            triple: &list.triple,
            symbols: list.symbols.iter().filter(|s| shows(s)).collect(),
            note: if list.symbols.is_empty() { "no symbols" } else { "" },
        };
        serde_json::to_writer(&mut *self.out, &record).map_err(|e| e.to_string())?;
        writeln!(self.out).map_err(io_text)
    }
}

/// This host's architecture as Mach-O names it (`x86_64`, `arm64`, `i386`).
fn host_arch() -> &'static str {
    match std::env::consts::ARCH {
        "aarch64" => "arm64",
        "x86" => "i386",
        "powerpc" => "ppc",
        "powerpc64" => "ppc64",
        other => other,
    }
}

/// Whether `bytes` is a thin archive (`!<thin>`), whose members are files of their own.
fn is_thin_archive(bytes: &[u8]) -> bool {
    matches!(FileKind::parse(bytes), Ok(FileKind::Archive)) && bytes.starts_with(b"!<thin>\n")
}

/// `--format json`: one object per symbol list.
#[derive(Serialize)]
struct JsonList<'a> {
    name: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    member: Option<&'a str>,
    /// `symtab` (the SYMTAB blob), `module` (the module records), `native` (the object's
    /// symbol table).
    source: String,
    triple: &'a str,
    symbols: Vec<&'a Symbol<'a>>,
    #[serde(skip_serializing_if = "str::is_empty")]
    note: &'a str,
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
        assert_eq!(
            o.filter,
            Filter { defined_only: true, undefined_only: false, extern_only: true, debug_syms: false }
        );
        assert_eq!(o.format, Format::Json);
        assert_eq!(o.files, ["a.bc", "b.a"]);
        let o =
            parse_args(&args(&["--nm", "-P", "-r", "--size-sort", "--llvm-nm-version", "14", "x"])).unwrap().unwrap();
        assert_eq!(
            (o.format, o.order, o.reverse, o.read.llvm_nm),
            (Format::Posix, SortOrder::Size, true, NmVersion::Llvm14)
        );
        assert!(parse_args(&args(&["--nm", "--llvm-nm-version=9", "x"])).is_err());
        assert_eq!(parse_args(&args(&["--nm", "--", "-g"])).unwrap().unwrap().files, ["-g"]);
        assert_eq!(parse_args(&args(&["--nm"])).unwrap().unwrap().files, ["a.out"]);
        assert!(parse_args(&args(&["--nm", "-U", "-u", "x"])).is_err());
        assert!(parse_args(&args(&["--nm", "--bogus"])).is_err());
    }
}
