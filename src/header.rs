//! The start of a stream: the optional bitcode wrapper header and the 4-byte magic.

use crate::error::{Error, Result};
use crate::limits::WRAPPER_HEADER_SIZE;

/// The wrapper header's magic, `0x0B17C0DE` (bytes `DE C0 17 0B`).
pub const WRAPPER_MAGIC: u32 = 0x0B17_C0DE;

/// The first four bytes of a stream, naming the format it holds.
///
/// Unknown magics are not errors: the container is generic, and any format may use it.
///
/// `Display` prints [`Magic::name`], what `llvm-bcanalyzer` prints as "Stream type":
///
/// ```
/// use llvm_bitstream_reader::Magic;
/// assert_eq!(Magic::from_bytes(*b"DIAG").to_string(), "Clang Serialized Diagnostics");
/// assert_eq!(Magic::from_bytes([0x42, 0x43, 0xC0, 0xDE]).to_string(), "LLVM IR");
/// assert_eq!(Magic::from_bytes(*b"WXYZ").to_string(), "unknown");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Magic {
    /// LLVM IR bitcode: `BC C0 DE` (bytes `42 43 C0 DE`).
    LlvmIr,
    /// Clang serialized diagnostics: `DIAG`.
    ClangSerializedDiagnostics,
    /// Clang AST files, PCH and modules: `CPCH`.
    ClangAst,
    /// LLVM optimization remarks: `RMRK`.
    LlvmRemarks,
    /// Swift modules: `E2 9C A8 0E`.
    SwiftModule,
    /// Any other magic, kept as its bytes.
    Unknown([u8; 4]),
}

impl Magic {
    /// Names the magic given by the first four bytes of a stream.
    pub const fn from_bytes(bytes: [u8; 4]) -> Self {
        match bytes {
            [0x42, 0x43, 0xC0, 0xDE] => Magic::LlvmIr,
            [b'D', b'I', b'A', b'G'] => Magic::ClangSerializedDiagnostics,
            [b'C', b'P', b'C', b'H'] => Magic::ClangAst,
            [b'R', b'M', b'R', b'K'] => Magic::LlvmRemarks,
            [0xE2, 0x9C, 0xA8, 0x0E] => Magic::SwiftModule,
            other => Magic::Unknown(other),
        }
    }

    /// The kind's name as `llvm-bcanalyzer` prints it after "Stream type:" (`"LLVM IR"`,
    /// `"Clang Serialized Diagnostics"`, `"Clang Serialized AST"`, `"LLVM Remarks"`,
    /// `"unknown"`), and `"Swift module"` for the one kind LLVM does not know.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Magic::LlvmIr => "LLVM IR",
            Magic::ClangSerializedDiagnostics => "Clang Serialized Diagnostics",
            Magic::ClangAst => "Clang Serialized AST",
            Magic::LlvmRemarks => "LLVM Remarks",
            Magic::SwiftModule => "Swift module",
            Magic::Unknown(_) => "unknown",
        }
    }

    /// The four bytes.
    pub const fn bytes(self) -> [u8; 4] {
        match self {
            Magic::LlvmIr => [0x42, 0x43, 0xC0, 0xDE],
            Magic::ClangSerializedDiagnostics => *b"DIAG",
            Magic::ClangAst => *b"CPCH",
            Magic::LlvmRemarks => *b"RMRK",
            Magic::SwiftModule => [0xE2, 0x9C, 0xA8, 0x0E],
            Magic::Unknown(b) => b,
        }
    }
}

impl core::fmt::Display for Magic {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.pad(self.name())
    }
}

/// The bitcode wrapper header (LLVM's `BWH_*` fields), written before the stream for
/// Darwin targets. All fields are little-endian `u32`s.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct WrapperHeader {
    /// Always [`WRAPPER_MAGIC`].
    pub magic: u32,
    /// Wrapper version (0 in every file LLVM writes).
    pub version: u32,
    /// Byte offset of the stream from the start of the input.
    pub offset: u32,
    /// Byte size of the stream.
    pub size: u32,
    /// CPU type (Mach-O `CPU_TYPE_*`).
    pub cpu_type: u32,
}

impl WrapperHeader {
    /// Parses a wrapper header if `input` starts with one; `Ok(None)` if it does not.
    ///
    /// The offset and size must describe bytes inside the input, and the offset must not
    /// point into the header itself (LLVM accepts that and then fails on the magic).
    pub fn parse(input: &[u8]) -> Result<Option<Self>> {
        if !input.starts_with(&WRAPPER_MAGIC.to_le_bytes()) {
            return Ok(None);
        }
        let Some(h) = input.first_chunk::<WRAPPER_HEADER_SIZE>() else {
            return Err(Error::BadWrapper { bit: 0, reason: "input ends inside the 20-byte wrapper header" });
        };
        let field = |i: usize| u32::from_le_bytes([h[4 * i], h[4 * i + 1], h[4 * i + 2], h[4 * i + 3]]);
        let w =
            WrapperHeader { magic: field(0), version: field(1), offset: field(2), size: field(3), cpu_type: field(4) };
        if (w.offset as usize) < WRAPPER_HEADER_SIZE {
            return Err(Error::BadWrapper { bit: 64, reason: "stream offset points into the wrapper header" });
        }
        if u64::from(w.offset) + u64::from(w.size) > input.len() as u64 {
            return Err(Error::BadWrapper { bit: 96, reason: "stream offset + size run past the end of the input" });
        }
        Ok(Some(w))
    }

    /// The stream's bytes within the input the header was parsed from.
    pub fn stream<'a>(&self, input: &'a [u8]) -> Option<&'a [u8]> {
        input.get(self.offset as usize..(self.offset as usize).checked_add(self.size as usize)?)
    }
}
