//! Module flags LLVM's reader rewrites (`UpgradeModuleFlags`).

/// The behavior LLVM `llvm_version`'s reader gives the module flag `key` written with
/// `behavior` (the first operand of an `!llvm.module.flags` entry): `"PIC Level"` and
/// `"PIE Level"` written with `Error` (1) become `Max` (7), and from LLVM 16 `"PIC Level"`
/// with `Error` or `Max` becomes `Min` (8). Others are kept.
pub fn module_flag_behavior(llvm_version: u32, key: &[u8], behavior: u64) -> u64 {
    const ERROR: u64 = 1;
    const MAX: u64 = 7;
    const MIN: u64 = 8;
    match (key, behavior) {
        (b"PIC Level", ERROR | MAX) if llvm_version >= 16 => MIN,
        (b"PIC Level" | b"PIE Level", ERROR) => MAX,
        _ => behavior,
    }
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
}
