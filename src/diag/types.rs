//! The decoded values of a serialized-diagnostics file: levels, locations, ranges, fix-its
//! and the id tables, each a small `Copy` value borrowing the input.

use core::fmt;

pub use crate::text::Text;

/// A diagnostic's severity: clang's stable `serialized_diags::Level`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub enum Level {
    /// `Ignored` (0).
    Ignored,
    /// `Note` (1).
    Note,
    /// `Warning` (2).
    Warning,
    /// `Error` (3).
    Error,
    /// `Fatal` (4).
    Fatal,
    /// `Remark` (5).
    Remark,
    /// A level this crate does not know, as stored.
    Unknown(u32),
}

impl Level {
    /// The level for a stored value.
    pub fn from_raw(value: u32) -> Self {
        match value {
            0 => Level::Ignored,
            1 => Level::Note,
            2 => Level::Warning,
            3 => Level::Error,
            4 => Level::Fatal,
            5 => Level::Remark,
            n => Level::Unknown(n),
        }
    }

    /// The stored value.
    pub fn code(self) -> u32 {
        match self {
            Level::Ignored => 0,
            Level::Note => 1,
            Level::Warning => 2,
            Level::Error => 3,
            Level::Fatal => 4,
            Level::Remark => 5,
            Level::Unknown(n) => n,
        }
    }

    /// What `clang_formatDiagnostic` prints before the message. libclang has no remark
    /// severity and reports a remark as a warning; an ignored or unknown level is
    /// undefined behaviour there (`llvm_unreachable`), and is printed `ignored: ` and
    /// `unknown: ` here.
    pub fn libclang_prefix(self) -> &'static str {
        match self {
            Level::Note => "note: ",
            Level::Warning | Level::Remark => "warning: ",
            Level::Error => "error: ",
            Level::Fatal => "fatal error: ",
            Level::Ignored => "ignored: ",
            Level::Unknown(_) => "unknown: ",
        }
    }
}

impl fmt::Display for Level {
    /// clang's own spelling (`note`, `remark`, `warning`, `error`, `fatal error`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Level::Ignored => f.pad("ignored"),
            Level::Note => f.pad("note"),
            Level::Warning => f.pad("warning"),
            Level::Error => f.pad("error"),
            Level::Fatal => f.pad("fatal error"),
            Level::Remark => f.pad("remark"),
            Level::Unknown(n) => f.pad(&alloc::format!("level {n}")),
        }
    }
}

/// A file a location points into: its id in the file's FILENAME table and its name as
/// the table gave it when the location was read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct SourceFile<'a> {
    /// The file id (ids start at 1).
    pub id: u32,
    /// The file name, as the compiler spelled it (often relative to its directory).
    pub name: Text<'a>,
}

/// A source location. Lines and columns count from 1; `offset` is the byte offset in the
/// file. clang's reader keeps each field as an `unsigned`, so wider stored values are
/// truncated to 32 bits, as there.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct Location<'a> {
    /// The file; `None` for clang's "no location" sentinel (file id 0).
    pub file: Option<SourceFile<'a>>,
    /// The line (0 when there is no location).
    pub line: u32,
    /// The column.
    pub column: u32,
    /// The byte offset in the file.
    pub offset: u32,
}

impl fmt::Display for Location<'_> {
    /// `file:line:col`, as clang and libclang print a location; `<invalid loc>` (clang's
    /// `SourceLocation::print` spelling) where there is none (file id 0). Honours width
    /// and alignment.
    ///
    /// ```
    /// use llvm_bitstream_reader::diag::Location;
    /// assert_eq!(Location::default().to_string(), "<invalid loc>");
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.file {
            None => f.pad("<invalid loc>"),
            Some(file) if f.width().is_none() => write!(f, "{}:{}:{}", file.name, self.line, self.column),
            Some(file) => f.pad(&alloc::format!("{}:{}:{}", file.name, self.line, self.column)),
        }
    }
}

/// A source range (SOURCE_RANGE): both ends inclusive as clang writes them (the end of a
/// token range is moved past the token).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct SourceRange<'a> {
    /// The first location.
    pub start: Location<'a>,
    /// The last location.
    pub end: Location<'a>,
}

/// A fix-it hint (FIXIT): replace `range` with `replacement` (an empty range inserts, an
/// empty replacement removes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct FixIt<'a> {
    /// What to replace.
    pub range: SourceRange<'a>,
    /// The text to put there.
    pub replacement: Text<'a>,
}

/// A FILENAME record: a file id and its name. The size and modification time are legacy
/// fields clang writes as 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct FileName<'a> {
    /// The id locations use.
    pub id: u32,
    /// The name.
    pub name: Text<'a>,
    /// The file size (legacy, 0).
    pub size: u64,
    /// The modification time (legacy, 0).
    pub modification_time: u64,
    /// Bit offset of the record.
    pub bit: u64,
}

/// A CATEGORY record: a diagnostic category id and its name (e.g. "Semantic Issue").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct Category<'a> {
    /// The category id.
    pub id: u32,
    /// Its name; empty for an id no CATEGORY record defined before the diagnostic.
    pub name: Text<'a>,
}

/// A DIAG_FLAG record: the id of a warning option and its name without `-W` (e.g.
/// `unused-variable`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct Flag<'a> {
    /// The flag id.
    pub id: u32,
    /// The option name without `-W`; empty for an id no DIAG_FLAG record defined before
    /// the diagnostic.
    pub name: Text<'a>,
}

/// A SOURCE_FILE_CONTENTS record (written by Apple's and Swift's compilers for buffers
/// that exist only in memory, such as macro expansions): a file's contents and the range
/// it was expanded from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct SourceFileContents<'a> {
    /// The file whose contents these are.
    pub file: SourceFile<'a>,
    /// Where the contents came from.
    pub original_range: SourceRange<'a>,
    /// The contents.
    pub contents: Text<'a>,
    /// Bit offset of the record.
    pub bit: u64,
}
