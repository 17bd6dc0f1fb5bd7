//! Target triples (MODULE_CODE_TRIPLE: `arch-vendor-os-environment`), read as LLVM's
//! `Triple` answers the questions this crate asks of them: the architecture, and which
//! operating systems and object formats a triple names.

/// A target triple: `-`-separated components, the architecture first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Triple<'a> {
    text: &'a [u8],
}

impl<'a> Triple<'a> {
    /// The triple `text` (`x86_64-unknown-linux-gnu`); an empty one names nothing.
    pub(crate) fn new(text: &'a [u8]) -> Self {
        Triple { text }
    }

    /// The components, in order (the text split at `-`).
    pub(crate) fn components(self) -> impl Iterator<Item = &'a [u8]> {
        self.text.split(|&b| b == b'-')
    }

    /// The architecture, as written (`x86_64`, `arm64`, `i686`): the first component.
    pub(crate) fn arch(self) -> &'a [u8] {
        self.components().next().unwrap_or_default()
    }

    /// The operating system, as written (`linux`, `macosx11.0.0`): the third component,
    /// empty if there is none.
    pub(crate) fn os(self) -> &'a [u8] {
        self.components().nth(2).unwrap_or_default()
    }

    /// `Triple::isOSDarwin`: the OS is one of Apple's (with or without a version).
    pub(crate) fn is_darwin(self) -> bool {
        let os = self.os();
        ["darwin", "macos", "ios", "tvos", "watchos", "bridgeos", "driverkit", "xros", "visionos"]
            .iter()
            .any(|d| os.starts_with(d.as_bytes()))
    }

    /// `Triple::isX86`: 32- or 64-bit x86, by the names LLVM's `parseArch` gives them.
    pub(crate) fn is_x86(self) -> bool {
        self.is_x86_32() || matches!(self.arch(), b"x86_64" | b"amd64" | b"x86_64h")
    }

    /// 32-bit x86 (`i386` to `i986`, `x86`).
    pub(crate) fn is_x86_32(self) -> bool {
        matches!(self.arch(), b"i386" | b"i486" | b"i586" | b"i686" | b"i786" | b"i886" | b"i986" | b"x86")
    }

    /// Whether the triple names the Intel MCU (`elfiamcu`), anywhere in it.
    pub(crate) fn is_iamcu(self) -> bool {
        self.text.windows(8).any(|w| w == b"elfiamcu")
    }
}

/// Whether a triple names a Darwin OS (`Triple::isOSDarwin`), for [`crate::symbols`].
#[cfg(feature = "symbols")]
pub(crate) fn is_darwin(triple: &[u8]) -> bool {
    Triple::new(triple).is_darwin()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn components() {
        let t = Triple::new(b"x86_64-unknown-linux-gnu");
        assert_eq!(t.arch(), b"x86_64");
        assert_eq!(t.os(), b"linux");
        assert_eq!(t.components().count(), 4);
        assert_eq!(Triple::new(b"").arch(), b"");
        assert_eq!(Triple::new(b"wasm32").os(), b"");
    }

    #[test]
    fn darwin() {
        assert!(Triple::new(b"arm64-apple-macosx11.0.0").is_darwin());
        assert!(Triple::new(b"x86_64-apple-darwin19.6.0").is_darwin());
        assert!(Triple::new(b"arm64-apple-ios14.0").is_darwin());
        assert!(!Triple::new(b"x86_64-unknown-linux-gnu").is_darwin());
        // The OS is the third component only.
        assert!(!Triple::new(b"darwin").is_darwin());
        assert!(!Triple::new(b"").is_darwin());
    }

    #[test]
    fn x86() {
        for arch in ["x86_64", "amd64", "x86_64h", "i386", "i686", "i986", "x86"] {
            assert!(Triple::new(alloc::format!("{arch}-pc-linux").as_bytes()).is_x86(), "{arch}");
        }
        for arch in ["aarch64", "arm64", "i1086", "x86_32", ""] {
            assert!(!Triple::new(arch.as_bytes()).is_x86(), "{arch}");
        }
        assert!(Triple::new(b"i686-pc-windows-msvc").is_x86_32() && !Triple::new(b"x86_64").is_x86_32());
        assert!(Triple::new(b"i386-pc-elfiamcu").is_iamcu() && !Triple::new(b"i386-pc-linux").is_iamcu());
    }
}
