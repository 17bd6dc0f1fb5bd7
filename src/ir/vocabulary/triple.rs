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

    /// The environment, as written (`gnu`, `msvc`): the fourth component, empty if there
    /// is none.
    pub(crate) fn environment(self) -> &'a [u8] {
        self.components().nth(3).unwrap_or_default()
    }

    /// `Triple::isSPIR`: `spir` or `spir64`.
    pub(crate) fn is_spir(self) -> bool {
        matches!(self.arch(), b"spir" | b"spir64")
    }

    /// `Triple::isSPIRV` but the logical one (`spirv`, with or without a version):
    /// `spirv32` or `spirv64`, with or without a version (`spirv64v1.2`).
    pub(crate) fn is_physical_spirv(self) -> bool {
        let arch = self.arch();
        arch.starts_with(b"spirv32") || arch.starts_with(b"spirv64")
    }

    /// `Triple::isRISCV64`.
    pub(crate) fn is_riscv64(self) -> bool {
        matches!(self.arch(), b"riscv64" | b"riscv64be")
    }

    /// `Triple::isLoongArch64`.
    pub(crate) fn is_loongarch64(self) -> bool {
        self.arch() == b"loongarch64"
    }

    /// `Triple::isAMDGCN`.
    pub(crate) fn is_amdgcn(self) -> bool {
        self.arch() == b"amdgcn"
    }

    /// `Triple::isAMDGPU`: `amdgcn` or `r600`.
    pub(crate) fn is_amdgpu(self) -> bool {
        self.is_amdgcn() || self.arch() == b"r600"
    }

    /// `Triple::isSystemZ`: `s390x` (or `systemz`).
    pub(crate) fn is_systemz(self) -> bool {
        matches!(self.arch(), b"s390x" | b"systemz")
    }

    /// `Triple::isSPARC`: `sparc`, `sparcel`, `sparcv9` (`sparc64`).
    pub(crate) fn is_sparc(self) -> bool {
        matches!(self.arch(), b"sparc" | b"sparcel" | b"sparcv9" | b"sparc64")
    }

    /// `Triple::isMIPS64`: the names `parseArch` reads as `mips64` or `mips64el`.
    pub(crate) fn is_mips64(self) -> bool {
        matches!(
            self.arch(),
            b"mips64"
                | b"mips64eb"
                | b"mipsn32"
                | b"mipsisa64r6"
                | b"mips64r6"
                | b"mipsn32r6"
                | b"mips64el"
                | b"mipsn32el"
                | b"mipsisa64r6el"
                | b"mips64r6el"
                | b"mipsn32r6el"
        )
    }

    /// `Triple::isPPC64`: the names `parseArch` reads as `ppc64` or `ppc64le`.
    pub(crate) fn is_ppc64(self) -> bool {
        matches!(self.arch(), b"powerpc64" | b"ppu" | b"ppc64" | b"powerpc64le" | b"ppc64le")
    }

    /// `Triple::isPPC`: 32- or 64-bit PowerPC, either endianness.
    pub(crate) fn is_ppc(self) -> bool {
        self.is_ppc64()
            || matches!(
                self.arch(),
                b"powerpc" | b"powerpcspe" | b"ppc" | b"ppc32" | b"powerpcle" | b"ppcle" | b"ppc32le"
            )
    }

    /// `Triple::isWasm`: `wasm32` or `wasm64`.
    pub(crate) fn is_wasm(self) -> bool {
        matches!(self.arch(), b"wasm32" | b"wasm64")
    }

    /// `Triple::isOSAIX`.
    pub(crate) fn is_aix(self) -> bool {
        self.os().starts_with(b"aix")
    }

    /// `Triple::isWindowsMSVCEnvironment`: Windows (`windows`, `win32`) with the MSVC
    /// environment or none written.
    pub(crate) fn is_windows_msvc(self) -> bool {
        let os = self.os();
        let env = self.environment();
        (os.starts_with(b"windows") || os.starts_with(b"win32")) && (env.is_empty() || env.starts_with(b"msvc"))
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
