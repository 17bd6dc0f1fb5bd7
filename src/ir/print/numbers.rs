//! Numbers as `llvm-dis` prints them: integers of any width in decimal, as LLVM's
//! `APInt::print` prints them (signed or unsigned).

use alloc::vec::Vec;
use core::fmt;

/// A wide integer, words least significant first, two's complement: in decimal.
pub(crate) fn write_wide_int(f: &mut dyn fmt::Write, words: &[u64], width: u64) -> fmt::Result {
    // `APInt(width, words)`: the words truncated to the width, or zero-extended to it
    // (then the value is not negative); printed signed.
    let needed = usize::try_from(width.div_ceil(64).max(1)).unwrap_or(usize::MAX);
    let (mut magnitude, negative) = if needed <= words.len() {
        let mut w: Vec<u64> = words[..needed].to_vec();
        let top_bits = width.saturating_sub(64 * (needed as u64 - 1)).clamp(1, 64) as u32;
        let last = w.len() - 1;
        let negative = (w[last] >> (top_bits - 1)) & 1 == 1;
        if top_bits < 64 {
            if negative {
                w[last] |= !0u64 << top_bits;
            } else {
                w[last] &= (1u64 << top_bits) - 1;
            }
        }
        (w, negative)
    } else {
        (words.to_vec(), false)
    };
    if negative {
        // Two's complement: invert and add one.
        let mut carry = true;
        for w in &mut magnitude {
            let (v, c) = (!*w).overflowing_add(u64::from(carry));
            *w = v;
            carry = c;
        }
    }
    // Repeated division by 10^18.
    const CHUNK: u64 = 1_000_000_000_000_000_000;
    if magnitude.len() > 1024 {
        // Decimal conversion is quadratic in the words; LLVM's widest integer has
        // 131,072 of them, and a hostile record can have millions.
        return write!(f, "<{}-word integer>", magnitude.len());
    }
    let mut chunks = Vec::new();
    while magnitude.iter().any(|&w| w != 0) {
        let mut rem: u128 = 0;
        for w in magnitude.iter_mut().rev() {
            let cur = (rem << 64) | u128::from(*w);
            *w = (cur / u128::from(CHUNK)) as u64;
            rem = cur % u128::from(CHUNK);
        }
        chunks.push(rem as u64);
    }
    if negative {
        f.write_char('-')?;
    }
    match chunks.split_last() {
        None => f.write_char('0'),
        Some((first, rest)) => {
            write!(f, "{first}")?;
            for c in rest.iter().rev() {
                write!(f, "{c:018}")?;
            }
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::String;

    #[test]
    fn wide_integers_print_in_decimal() {
        let mut s = String::new();
        write_wide_int(&mut s, &[0, 1], 128).unwrap();
        assert_eq!(s, "18446744073709551616");
        s.clear();
        write_wide_int(&mut s, &[u64::MAX, u64::MAX], 128).unwrap();
        assert_eq!(s, "-1");
        s.clear();
        write_wide_int(&mut s, &[0, 0], 128).unwrap();
        assert_eq!(s, "0");
        // i65 with only its sign bit set above the low word: negative.
        s.clear();
        write_wide_int(&mut s, &[0, 0x1_ffff_ffff], 65).unwrap();
        assert_eq!(s, "-18446744073709551616");
        s.clear();
        write_wide_int(&mut s, &[0, 0], 65).unwrap();
        assert_eq!(s, "0");
    }
}
