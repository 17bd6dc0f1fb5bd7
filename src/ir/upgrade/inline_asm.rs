//! Inline-asm text LLVM's reader rewrites (`UpgradeInlineAsmString`, LLVM 8 and later): the
//! Objective-C ARC marker that clang wrote for AArch64 before LLVM 8 with `#` starts its
//! comment with `;`.

use alloc::vec::Vec;

/// The inline-asm text `asm` as LLVM's reader reads it, if it rewrites it: text that starts
/// with `mov\tfp`, names `objc_retainAutoreleaseReturnValue` and has `# marker` gets `;` for
/// that `#`.
pub fn upgraded_inline_asm(asm: &[u8]) -> Option<Vec<u8>> {
    let contains = |needle: &[u8]| asm.windows(needle.len()).position(|w| w == needle);
    if !asm.starts_with(b"mov\tfp") || contains(b"objc_retainAutoreleaseReturnValue").is_none() {
        return None;
    }
    let at = contains(b"# marker")?;
    let mut out = asm.to_vec();
    out[at] = b';';
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::upgraded_inline_asm;

    #[test]
    fn the_arc_marker_comment_takes_a_semicolon() {
        let old = b"mov\tfp, fp\t\t# marker for objc_retainAutoreleaseReturnValue";
        let new = upgraded_inline_asm(old).unwrap();
        assert_eq!(new, b"mov\tfp, fp\t\t; marker for objc_retainAutoreleaseReturnValue");
        assert_eq!(upgraded_inline_asm(&new), None);
        assert_eq!(upgraded_inline_asm(b"movq %fs:0, %rax # marker"), None);
    }
}
