//! Calling conventions by name, as `AssemblyWriter` spells them.

use core::fmt;

/// The name `AssemblyWriter` gives a calling convention (`fastcc`), or `cc N`.
pub fn calling_conv_name(cc: u32) -> Option<&'static str> {
    Some(match cc {
        8 => "fastcc",
        9 => "coldcc",
        10 => "ghccc",
        12 => "webkit_jscc",
        13 => "anyregcc",
        14 => "preserve_mostcc",
        15 => "preserve_allcc",
        16 => "swiftcc",
        17 => "cxx_fast_tlscc",
        18 => "tailcc",
        19 => "cfguard_checkcc",
        20 => "swifttailcc",
        21 => "preserve_nonecc",
        64 => "x86_stdcallcc",
        65 => "x86_fastcallcc",
        66 => "arm_apcscc",
        67 => "arm_aapcscc",
        68 => "arm_aapcs_vfpcc",
        69 => "msp430_intrcc",
        70 => "x86_thiscallcc",
        71 => "ptx_kernel",
        72 => "ptx_device",
        75 => "spir_func",
        76 => "spir_kernel",
        77 => "intel_ocl_bicc",
        78 => "x86_64_sysvcc",
        79 => "win64cc",
        80 => "x86_vectorcallcc",
        81 => "hhvmcc",
        82 => "hhvm_ccc",
        83 => "x86_intrcc",
        84 => "avr_intrcc ",
        85 => "avr_signalcc ",
        87 => "amdgpu_vs",
        88 => "amdgpu_gs",
        89 => "amdgpu_ps",
        90 => "amdgpu_cs",
        91 => "amdgpu_kernel",
        92 => "x86_regcallcc",
        93 => "amdgpu_hs",
        95 => "amdgpu_ls",
        96 => "amdgpu_es",
        97 => "aarch64_vector_pcs",
        98 => "aarch64_sve_vector_pcs",
        100 => "amdgpu_gfx",
        102 => "aarch64_sme_preservemost_from_x0",
        103 => "aarch64_sme_preservemost_from_x2",
        104 => "amdgpu_cs_chain",
        105 => "amdgpu_cs_chain_preserve",
        106 => "m68k_rtdcc",
        107 => "graalcc",
        110 => "riscv_vector_cc",
        _ => return None,
    })
}

/// The first and last LLVM versions whose `llvm-dis` names a calling convention;
/// outside them it prints `ccN`.
fn cc_named_in(cc: u32) -> (u32, u32) {
    match cc {
        12 => (0, 17),
        21 | 110 => (19, u32::MAX),
        102..=107 => (17, u32::MAX),
        _ => (0, u32::MAX),
    }
}

pub(super) fn write_cc(f: &mut dyn fmt::Write, cc: u32, llvm_version: u32) -> fmt::Result {
    let (first, last) = cc_named_in(cc);
    let named = (first..=last).contains(&llvm_version);
    match calling_conv_name(cc) {
        Some(name) if named => f.write_str(name),
        // RISCV_VLSCall_32 … _65536 (LLVM 21 and later): `riscv_vls_cc(N)`.
        _ if (112..=123).contains(&cc) && llvm_version >= 21 => write!(f, "riscv_vls_cc({})", 32u64 << (cc - 112)),
        _ => write!(f, "cc{cc}"),
    }
}
