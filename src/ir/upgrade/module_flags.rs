//! Module flags LLVM's reader rewrites (`UpgradeModuleFlags`).

/// The behavior LLVM `llvm_version`'s reader gives the module flag `key` written with
/// `behavior` (the first operand of an `!llvm.module.flags` entry): `"PIC Level"` and
/// `"PIE Level"` written with `Error` (1) become `Max` (7), and from LLVM 16 `"PIC Level"`
/// with `Error` or `Max` becomes `Min` (8). Others are kept.
///
/// From LLVM 15 the branch-protection flags of Arm and AArch64 (`"branch-target-enforcement"`,
/// `"sign-return-address…"`) written with `Error` become `Min` too (clang 14 wrote them so).
pub fn module_flag_behavior(llvm_version: u32, key: &[u8], behavior: u64) -> u64 {
    const ERROR: u64 = 1;
    const MAX: u64 = 7;
    const MIN: u64 = 8;
    let branch_protection = key == b"branch-target-enforcement" || key.starts_with(b"sign-return-address");
    match (key, behavior) {
        (b"PIC Level", ERROR | MAX) if llvm_version >= 16 => MIN,
        (b"PIC Level" | b"PIE Level", ERROR) => MAX,
        (_, ERROR) if branch_protection && llvm_version >= 15 => MIN,
        _ => behavior,
    }
}

/// The key LLVM `llvm_version`'s reader gives the module flag `key`, if it renames it:
/// AMDGPU's `"amdgpu_code_object_version"` is `"amdhsa_code_object_version"` from
/// LLVM 19 (checked with llvm-dis 19 and 22 on clang 16's modules; 17 and 18 unchecked).
pub fn renamed_module_flag(llvm_version: u32, key: &[u8]) -> Option<&'static str> {
    (llvm_version >= 19 && key == b"amdgpu_code_object_version").then_some("amdhsa_code_object_version")
}

#[cfg(test)]
mod tests {
    use super::module_flag_behavior;

    #[test]
    fn pic_level_becomes_min_from_llvm_16() {
        assert_eq!(module_flag_behavior(15, b"PIC Level", 7), 7);
        assert_eq!(module_flag_behavior(16, b"PIC Level", 7), 8);
        assert_eq!(module_flag_behavior(22, b"PIC Level", 1), 8);
        assert_eq!(module_flag_behavior(14, b"PIC Level", 1), 7);
        assert_eq!(module_flag_behavior(22, b"PIE Level", 1), 7);
        assert_eq!(module_flag_behavior(22, b"PIE Level", 7), 7);
        assert_eq!(module_flag_behavior(22, b"uwtable", 1), 1);
    }

    /// What llvm-dis 14 to 22 print for clang 14's AArch64 and Arm modules.
    #[test]
    fn branch_protection_becomes_min_from_llvm_15() {
        assert_eq!(module_flag_behavior(14, b"branch-target-enforcement", 1), 1);
        assert_eq!(module_flag_behavior(15, b"branch-target-enforcement", 1), 8);
        assert_eq!(module_flag_behavior(22, b"sign-return-address-with-bkey", 1), 8);
        assert_eq!(module_flag_behavior(22, b"sign-return-address", 7), 7);
        assert_eq!(super::renamed_module_flag(16, b"amdgpu_code_object_version"), None);
        assert_eq!(super::renamed_module_flag(19, b"amdgpu_code_object_version"), Some("amdhsa_code_object_version"));
    }
}
