//! The DWARF operations of `!DIExpression(…)`, printed as llvm-dis prints them.

/// A `DW_OP_*` (and `DW_OP_LLVM_*`) operation: its name and how many arguments follow it.
pub(crate) fn dwarf_op(op: u64) -> Option<(&'static str, usize)> {
    const LIT: [&str; 32] = [
        "DW_OP_lit0",
        "DW_OP_lit1",
        "DW_OP_lit2",
        "DW_OP_lit3",
        "DW_OP_lit4",
        "DW_OP_lit5",
        "DW_OP_lit6",
        "DW_OP_lit7",
        "DW_OP_lit8",
        "DW_OP_lit9",
        "DW_OP_lit10",
        "DW_OP_lit11",
        "DW_OP_lit12",
        "DW_OP_lit13",
        "DW_OP_lit14",
        "DW_OP_lit15",
        "DW_OP_lit16",
        "DW_OP_lit17",
        "DW_OP_lit18",
        "DW_OP_lit19",
        "DW_OP_lit20",
        "DW_OP_lit21",
        "DW_OP_lit22",
        "DW_OP_lit23",
        "DW_OP_lit24",
        "DW_OP_lit25",
        "DW_OP_lit26",
        "DW_OP_lit27",
        "DW_OP_lit28",
        "DW_OP_lit29",
        "DW_OP_lit30",
        "DW_OP_lit31",
    ];
    const BREG: [&str; 32] = [
        "DW_OP_breg0",
        "DW_OP_breg1",
        "DW_OP_breg2",
        "DW_OP_breg3",
        "DW_OP_breg4",
        "DW_OP_breg5",
        "DW_OP_breg6",
        "DW_OP_breg7",
        "DW_OP_breg8",
        "DW_OP_breg9",
        "DW_OP_breg10",
        "DW_OP_breg11",
        "DW_OP_breg12",
        "DW_OP_breg13",
        "DW_OP_breg14",
        "DW_OP_breg15",
        "DW_OP_breg16",
        "DW_OP_breg17",
        "DW_OP_breg18",
        "DW_OP_breg19",
        "DW_OP_breg20",
        "DW_OP_breg21",
        "DW_OP_breg22",
        "DW_OP_breg23",
        "DW_OP_breg24",
        "DW_OP_breg25",
        "DW_OP_breg26",
        "DW_OP_breg27",
        "DW_OP_breg28",
        "DW_OP_breg29",
        "DW_OP_breg30",
        "DW_OP_breg31",
    ];
    Some(match op {
        0x06 => ("DW_OP_deref", 0),
        0x10 => ("DW_OP_constu", 1),
        0x11 => ("DW_OP_consts", 1),
        0x12 => ("DW_OP_dup", 0),
        0x14 => ("DW_OP_over", 0),
        0x16 => ("DW_OP_swap", 0),
        0x18 => ("DW_OP_xderef", 0),
        0x1a => ("DW_OP_and", 0),
        0x1b => ("DW_OP_div", 0),
        0x1c => ("DW_OP_minus", 0),
        0x1d => ("DW_OP_mod", 0),
        0x1e => ("DW_OP_mul", 0),
        0x1f => ("DW_OP_neg", 0),
        0x20 => ("DW_OP_not", 0),
        0x21 => ("DW_OP_or", 0),
        0x22 => ("DW_OP_plus", 0),
        0x23 => ("DW_OP_plus_uconst", 1),
        0x24 => ("DW_OP_shl", 0),
        0x25 => ("DW_OP_shr", 0),
        0x26 => ("DW_OP_shra", 0),
        0x27 => ("DW_OP_xor", 0),
        0x29 => ("DW_OP_eq", 0),
        0x2a => ("DW_OP_ge", 0),
        0x2b => ("DW_OP_gt", 0),
        0x2c => ("DW_OP_le", 0),
        0x2d => ("DW_OP_lt", 0),
        0x2e => ("DW_OP_ne", 0),
        0x30..=0x4f => (LIT[(op - 0x30) as usize], 0),
        0x70..=0x8f => (BREG[(op - 0x70) as usize], 1),
        0x90 => ("DW_OP_regx", 1),
        0x92 => ("DW_OP_bregx", 2),
        0x94 => ("DW_OP_deref_size", 1),
        0x96 => ("DW_OP_nop", 0),
        0x97 => ("DW_OP_push_object_address", 0),
        0x9f => ("DW_OP_stack_value", 0),
        0xa3 => ("DW_OP_entry_value", 1),
        0xa8 => ("DW_OP_convert", 1),
        0xe0 => ("DW_OP_GNU_push_tls_address", 0),
        0xf3 => ("DW_OP_GNU_entry_value", 1),
        0x1000 => ("DW_OP_LLVM_fragment", 2),
        0x1001 => ("DW_OP_LLVM_convert", 2),
        0x1002 => ("DW_OP_LLVM_tag_offset", 1),
        0x1003 => ("DW_OP_LLVM_entry_value", 1),
        0x1004 => ("DW_OP_LLVM_implicit_pointer", 0),
        0x1005 => ("DW_OP_LLVM_arg", 1),
        0x1006 => ("DW_OP_LLVM_extract_bits_sext", 2),
        0x1007 => ("DW_OP_LLVM_extract_bits_zext", 2),
        _ => return None,
    })
}

/// `!DIExpression(…)` as `AsmWriter` prints it (the current element layout, version 3;
/// an expression it cannot read as operations prints its raw elements, as LLVM prints an
/// invalid one).
pub(crate) fn write_expression(f: &mut dyn core::fmt::Write, elements: &[u64]) -> core::fmt::Result {
    f.write_str("!DIExpression(")?;
    // Validate first: every operation known and its arguments present.
    let mut i = 0;
    let mut valid = true;
    while i < elements.len() {
        match dwarf_op(elements[i]) {
            Some((_, n)) if i + n < elements.len() => i += 1 + n,
            _ => {
                valid = false;
                break;
            }
        }
    }
    valid &= i == elements.len();
    let mut first = true;
    let mut sep = |f: &mut dyn core::fmt::Write| -> core::fmt::Result {
        if !first {
            f.write_str(", ")?;
        }
        first = false;
        Ok(())
    };
    if valid {
        let mut i = 0;
        while i < elements.len() {
            let Some((name, n)) = dwarf_op(elements[i]) else { break };
            sep(f)?;
            f.write_str(name)?;
            for (k, &arg) in elements[i + 1..i + 1 + n].iter().enumerate() {
                sep(f)?;
                match (elements[i], k, crate::ir::vocabulary::dwarf::ate_name(arg)) {
                    (0x1001, 1, Some(e)) => f.write_str(e)?,
                    _ => write!(f, "{arg}")?,
                }
            }
            i += 1 + n;
        }
    } else {
        for e in elements {
            sep(f)?;
            write!(f, "{e}")?;
        }
    }
    f.write_char(')')
}
