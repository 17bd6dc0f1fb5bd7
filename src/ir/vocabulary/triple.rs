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

    /// `Triple::isAArch64`: `aarch64`, its big-endian and ILP32 forms, and the names
    /// `parseArch` reads as them (`arm64`, `arm64e`, `arm64ec`, `arm64_32`).
    pub(crate) fn is_aarch64(self) -> bool {
        matches!(
            self.arch(),
            b"aarch64" | b"aarch64_be" | b"aarch64_32" | b"arm64" | b"arm64e" | b"arm64ec" | b"arm64_32"
        )
    }

    /// 32-bit x86 (`i386` to `i986`, `x86`).
    pub(crate) fn is_x86_32(self) -> bool {
        matches!(self.arch(), b"i386" | b"i486" | b"i586" | b"i686" | b"i786" | b"i886" | b"i986" | b"x86")
    }

    /// Whether the triple names the Intel MCU (`elfiamcu`), anywhere in it.
    pub(crate) fn is_iamcu(self) -> bool {
        self.text.windows(8).any(|w| w == b"elfiamcu")
    }

    /// `Triple::isArch64Bit`: the architecture is a 64-bit one.
    #[cfg(feature = "symbols")]
    pub(crate) fn is_arch_64_bit(self) -> bool {
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
        ARCHES_64.contains(&self.arch())
    }

    /// 32-bit x86 with ELF objects: no later component names Darwin, Windows or another
    /// object format.
    #[cfg(feature = "symbols")]
    pub(crate) fn is_x86_32_elf(self) -> bool {
        let non_elf = ["darwin", "macos", "ios", "windows", "win32", "mingw", "cygwin", "uefi", "aix", "zos"];
        self.is_x86_32()
            && !self
                .components()
                .skip(1)
                .any(|p| non_elf.iter().any(|n| p.starts_with(n.as_bytes())) || p == b"macho" || p == b"coff")
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

    #[cfg(feature = "symbols")]
    #[test]
    fn bits_and_object_formats() {
        let t = |s: &'static str| Triple::new(s.as_bytes());
        assert!(t("x86_64-unknown-linux-gnu").is_arch_64_bit() && t("arm64-apple-macosx11.0.0").is_arch_64_bit());
        assert!(
            !t("i686-pc-windows-msvc").is_arch_64_bit() && !t("").is_arch_64_bit() && !t("arm64_32").is_arch_64_bit()
        );
        assert!(t("i686-unknown-linux-gnu").is_x86_32_elf() && !t("i686-pc-windows-msvc").is_x86_32_elf());
        assert!(!t("x86_64-unknown-linux-gnu").is_x86_32_elf());
        assert!(!t("i386-apple-macosx10.4").is_x86_32_elf() && !t("i686-pc-linux-coff").is_x86_32_elf());
        assert!(t("i786-pc-linux-gnu").is_x86_32_elf());
    }
}
