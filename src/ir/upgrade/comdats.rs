//! The comdat LLVM's reader gives a function or variable written before comdats were in
//! bitcode (`hasImplicitComdat`): one with an old `weak`, `linkonce`, `weak_odr` or
//! `linkonce_odr` code and no comdat gets a comdat `any` of its own name.

/// Whether a global object of raw linkage code `raw_linkage` (the record's) and comdat
/// `comdat` (the file's) is put in an implicit comdat of its own name: old codes 1
/// (`weak`), 4 (`linkonce`), 10 (`weak_odr`) and 11 (`linkonce_odr`) without one.
pub fn has_implicit_comdat(raw_linkage: u64, comdat: Option<u64>) -> bool {
    comdat.is_none() && matches!(raw_linkage, 1 | 4 | 10 | 11)
}

#[cfg(test)]
mod tests {
    use super::has_implicit_comdat;

    /// What llvm-dis 13 to 22 print for LLVM's `linkage-types-3.2.ll.bc`.
    #[test]
    fn old_weak_and_linkonce_codes_imply_a_comdat() {
        assert!(has_implicit_comdat(4, None));
        assert!(has_implicit_comdat(11, None));
        assert!(!has_implicit_comdat(4, Some(0)));
        // The codes of LLVM 3.6 and later (`linkonce` is 18) have none.
        assert!(!has_implicit_comdat(18, None));
        assert!(!has_implicit_comdat(0, None));
    }
}
