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

/// For each argument a call to inline asm with `constraints` passes, whether its
/// constraint is indirect (`*m`, `=*m`), as LLVM's `InlineAsm::ParseConstraints` reads the
/// string: inputs and indirect outputs take an argument, direct outputs (`=r`), clobbers
/// (`~{…}`) and labels (`!i`) do not. From LLVM 14 the reader gives an indirect operand of
/// a typed pointer `elementtype(<pointee>)` (`BitcodeReader::propagateAttributeTypes`).
pub fn indirect_arguments(constraints: &[u8]) -> Vec<bool> {
    let mut out = Vec::new();
    if constraints.is_empty() {
        return out;
    }
    for code in constraints.split(|&c| c == b',') {
        let (kind, rest) = match code.first() {
            Some(b'~') | Some(b'!') => continue,
            Some(b'=') => (b'=', &code[1..]),
            _ => (b' ', code),
        };
        let indirect = rest.first() == Some(&b'*');
        if kind == b'=' && !indirect {
            continue;
        }
        out.push(indirect);
    }
    out
}

/// The constraint string of a `callbr` to inline asm whose arguments from
/// `first_block_arg` on are `blockaddress`es of its indirect destinations, as LLVM's
/// reader (15 and later) makes them label constraints: `!` before each constraint that
/// takes an argument from that one on (`"r,X"` with one block argument is `"r,!X"`).
/// `None` when the string has a label constraint already (nothing to upgrade).
pub fn label_constraints(constraints: &[u8], first_block_arg: usize) -> Option<Vec<u8>> {
    if constraints.split(|&c| c == b',').any(|code| code.first() == Some(&b'!')) {
        return None;
    }
    let mut out = Vec::with_capacity(constraints.len() + 4);
    let mut argument = 0;
    for (i, code) in constraints.split(|&c| c == b',').enumerate() {
        if i > 0 {
            out.push(b',');
        }
        // ParseConstraints' hasArg: an input, or an indirect output.
        let takes_argument = match code.first() {
            Some(b'~') => false,
            Some(b'=') => code.get(1..).is_some_and(|rest| rest.iter().find(|&&c| c != b'&') == Some(&b'*')),
            _ => true,
        };
        if takes_argument {
            if argument >= first_block_arg {
                out.push(b'!');
            }
            argument += 1;
        }
        out.extend_from_slice(code);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::{indirect_arguments, label_constraints, upgraded_inline_asm};

    #[test]
    fn block_arguments_become_label_constraints() {
        assert_eq!(label_constraints(b"r,X,~{dirflag}", 1).unwrap(), b"r,!X,~{dirflag}");
        assert_eq!(label_constraints(b"=r,=*m,r,X,X", 2).unwrap(), b"=r,=*m,r,!X,!X");
        assert_eq!(label_constraints(b"r,!i", 1), None);
    }

    #[test]
    fn outputs_clobbers_and_labels_take_no_argument() {
        assert_eq!(indirect_arguments(b"=r,=*m,r,*m,~{memory},!i"), [true, false, true]);
        assert_eq!(indirect_arguments(b""), [] as [bool; 0]);
    }

    #[test]
    fn the_arc_marker_comment_takes_a_semicolon() {
        let old = b"mov\tfp, fp\t\t# marker for objc_retainAutoreleaseReturnValue";
        let new = upgraded_inline_asm(old).unwrap();
        assert_eq!(new, b"mov\tfp, fp\t\t; marker for objc_retainAutoreleaseReturnValue");
        assert_eq!(upgraded_inline_asm(&new), None);
        assert_eq!(upgraded_inline_asm(b"movq %fs:0, %rax # marker"), None);
    }
}
