//! The comdat LLVM's reader gives a function or variable written before comdats were in
//! bitcode (`hasImplicitComdat`, then `recordValue` as it names it): one with an old
//! `weak`, `linkonce`, `weak_odr` or `linkonce_odr` code and no comdat gets a comdat `any`
//! of its own name, for a target whose object format has comdats (not Mach-O or XCOFF).

/// Whether a global object of raw linkage code `raw_linkage` (the record's) whose record
/// has no comdat operand (`comdat_operand`, written from LLVM 3.5, 0 for none), in a
/// module of target triple `triple`, is put in an implicit comdat of its own name: old
/// codes 1 (`weak`), 4 (`linkonce`), 10 (`weak_odr`) and 11 (`linkonce_odr`), for a
/// triple `Triple::supportsCOMDAT` (not Darwin's Mach-O, not AIX's XCOFF).
pub fn has_implicit_comdat(raw_linkage: u64, comdat_operand: bool, triple: &[u8]) -> bool {
    if comdat_operand || !matches!(raw_linkage, 1 | 4 | 10 | 11) {
        return false;
    }
    let macho_environment = triple.windows(5).any(|w| w == b"macho");
    let triple = crate::ir::vocabulary::triple::Triple::new(triple);
    !(triple.is_darwin() || triple.os().starts_with(b"aix") || macho_environment)
}

#[cfg(test)]
mod tests {
    use super::has_implicit_comdat;

    /// What llvm-dis 13 to 22 print for LLVM's `linkage-types-3.2.ll.bc` (no comdat
    /// operands) and `compatibility-3.6.ll.bc` (comdat operands of 0).
    #[test]
    fn old_weak_and_linkonce_codes_imply_a_comdat() {
        assert!(has_implicit_comdat(4, false, b""));
        assert!(has_implicit_comdat(11, false, b"x86_64-unknown-linux-gnu"));
        assert!(!has_implicit_comdat(4, true, b""));
        // Mach-O has no comdats (`compatibility-3.6.ll.bc`'s variables).
        assert!(!has_implicit_comdat(4, false, b"x86_64-apple-macosx10.10.0"));
        // The codes of LLVM 3.6 and later (`linkonce` is 18) have none.
        assert!(!has_implicit_comdat(18, false, b""));
        assert!(!has_implicit_comdat(0, false, b""));
    }
}
