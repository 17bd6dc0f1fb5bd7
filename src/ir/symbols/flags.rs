//! What a symbol is, in the words of LLVM's `irsymtab`: one flags word shared by the
//! symbols read from a SYMTAB blob ([`crate::ir::symtab`]) and the symbols derived from a
//! module's own records, so that the two can be compared bit for bit.

use core::fmt;

use crate::ir::module::globals::Visibility;

/// `irsymtab::storage::Symbol::Flags`: the flags word of a symbol, bit for bit as LLVM's
/// `irsymtab` stores it (`FB_visibility` is two bits at 0, then `FB_has_uncommon`,
/// `FB_undefined`, `FB_weak`, `FB_common`, `FB_indirect`, `FB_used`, `FB_tls`,
/// `FB_may_omit`, `FB_global`, `FB_format_specific`, `FB_unnamed_addr`, `FB_executable`).
/// Bits LLVM may add later are kept in [`SymbolFlags::bits`].
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SymbolFlags(pub u32);

impl SymbolFlags {
    /// `FB_has_uncommon`: the symbol has an entry in the `Uncommons` table.
    pub const HAS_UNCOMMON: u32 = 1 << 2;
    /// `FB_undefined`.
    pub const UNDEFINED: u32 = 1 << 3;
    /// `FB_weak`.
    pub const WEAK: u32 = 1 << 4;
    /// `FB_common`.
    pub const COMMON: u32 = 1 << 5;
    /// `FB_indirect`.
    pub const INDIRECT: u32 = 1 << 6;
    /// `FB_used`: named in `llvm.used`.
    pub const USED: u32 = 1 << 7;
    /// `FB_tls`.
    pub const TLS: u32 = 1 << 8;
    /// `FB_may_omit`: may be left out of the object's symbol table.
    pub const MAY_OMIT: u32 = 1 << 9;
    /// `FB_global`: not local linkage.
    pub const GLOBAL: u32 = 1 << 10;
    /// `FB_format_specific`: e.g. `llvm.*` names.
    pub const FORMAT_SPECIFIC: u32 = 1 << 11;
    /// `FB_unnamed_addr`.
    pub const UNNAMED_ADDR: u32 = 1 << 12;
    /// `FB_executable`: a function, or an alias of one.
    pub const EXECUTABLE: u32 = 1 << 13;

    /// The raw word.
    pub fn bits(self) -> u32 {
        self.0
    }
    /// Whether every bit of `mask` is set.
    pub fn has(self, mask: u32) -> bool {
        self.0 & mask == mask
    }
    /// The symbol's visibility (bits 0-1).
    pub fn visibility(self) -> Visibility {
        Visibility::from_raw(u64::from(self.0 & 3))
    }
    /// `FB_undefined`.
    pub fn undefined(self) -> bool {
        self.has(Self::UNDEFINED)
    }
    /// `FB_weak`.
    pub fn weak(self) -> bool {
        self.has(Self::WEAK)
    }
    /// `FB_common`.
    pub fn common(self) -> bool {
        self.has(Self::COMMON)
    }
    /// `FB_indirect`.
    pub fn indirect(self) -> bool {
        self.has(Self::INDIRECT)
    }
    /// `FB_used`.
    pub fn used(self) -> bool {
        self.has(Self::USED)
    }
    /// `FB_tls`.
    pub fn tls(self) -> bool {
        self.has(Self::TLS)
    }
    /// `FB_may_omit`.
    pub fn may_omit(self) -> bool {
        self.has(Self::MAY_OMIT)
    }
    /// `FB_global`.
    pub fn global(self) -> bool {
        self.has(Self::GLOBAL)
    }
    /// `FB_format_specific`.
    pub fn format_specific(self) -> bool {
        self.has(Self::FORMAT_SPECIFIC)
    }
    /// `FB_unnamed_addr`.
    pub fn unnamed_addr(self) -> bool {
        self.has(Self::UNNAMED_ADDR)
    }
    /// `FB_executable`.
    pub fn executable(self) -> bool {
        self.has(Self::EXECUTABLE)
    }
}

impl fmt::Debug for SymbolFlags {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut set = f.debug_set();
        set.entry(&format_args!("{}", self.visibility()));
        let names = [
            (Self::HAS_UNCOMMON, "has_uncommon"),
            (Self::UNDEFINED, "undefined"),
            (Self::WEAK, "weak"),
            (Self::COMMON, "common"),
            (Self::INDIRECT, "indirect"),
            (Self::USED, "used"),
            (Self::TLS, "tls"),
            (Self::MAY_OMIT, "may_omit"),
            (Self::GLOBAL, "global"),
            (Self::FORMAT_SPECIFIC, "format_specific"),
            (Self::UNNAMED_ADDR, "unnamed_addr"),
            (Self::EXECUTABLE, "executable"),
        ];
        for (bit, name) in names {
            if self.has(bit) {
                set.entry(&format_args!("{name}"));
            }
        }
        let unknown = self.0 & !((1 << 14) - 1);
        if unknown != 0 {
            set.entry(&format_args!("{unknown:#x}"));
        }
        set.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_read_irsymtab_bits() {
        let f = SymbolFlags(2 | SymbolFlags::UNDEFINED | SymbolFlags::EXECUTABLE | (1 << 20));
        assert_eq!(f.visibility(), Visibility::Protected);
        assert!(f.undefined() && f.executable() && !f.weak() && !f.global());
        assert_eq!(alloc::format!("{f:?}"), "{protected, undefined, executable, 0x100000}");
        assert_eq!(Visibility::from_raw(7), Visibility::Unknown(7));
        assert_eq!(Visibility::from_raw(1).code(), 1);
    }
}
