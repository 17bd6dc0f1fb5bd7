//! Numbers as `llvm-dis` prints them: integers of any width in decimal, as LLVM's
//! `APInt::print` prints them (signed or unsigned).

use alloc::vec::Vec;
use core::fmt;

/// An integer of `width` bits in decimal, as LLVM's `APInt::print(OS, signed)` prints
/// it: `words` least significant first, as `APInt(width, words)` reads them (truncated to
/// the width, or zero-extended to it, and then not negative), two's complement when
/// `signed`. Constants, attribute ranges and debug-info nodes all print through it.
pub(crate) fn write_wide_int(f: &mut dyn fmt::Write, words: &[u64], width: u64, signed: bool) -> fmt::Result {
    let needed = usize::try_from(width.div_ceil(64).max(1)).unwrap_or(usize::MAX);
    if needed <= 2 {
        // At most 128 bits, the common case: printed as an `i128` or `u128`, without
        // allocating.
        let bits = width.clamp(1, 128) as u32;
        let mut value = 0u128;
        for (i, &w) in words.iter().take(needed).enumerate() {
            value |= u128::from(w) << (64 * i);
        }
        let negative = signed && needed <= words.len() && (value >> (bits - 1)) & 1 == 1;
        if bits < 128 {
            if negative {
                value |= u128::MAX << bits;
            } else {
                value &= (1u128 << bits) - 1;
            }
        }
        return if negative { write!(f, "{}", value as i128) } else { write!(f, "{value}") };
    }
    let (mut magnitude, negative) = if needed <= words.len() {
        let mut w: Vec<u64> = words[..needed].to_vec();
        let top_bits = width.saturating_sub(64 * (needed as u64 - 1)).clamp(1, 64) as u32;
        let last = w.len() - 1;
        let negative = signed && (w[last] >> (top_bits - 1)) & 1 == 1;
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
    use alloc::string::{String, ToString};

    #[test]
    fn wide_integers_print_in_decimal() {
        let mut s = String::new();
        write_wide_int(&mut s, &[0, 1], 128, true).unwrap();
        assert_eq!(s, "18446744073709551616");
        s.clear();
        write_wide_int(&mut s, &[u64::MAX, u64::MAX], 128, true).unwrap();
        assert_eq!(s, "-1");
        s.clear();
        write_wide_int(&mut s, &[0, 0], 128, true).unwrap();
        assert_eq!(s, "0");
        // i65 with only its sign bit set above the low word: negative.
        s.clear();
        write_wide_int(&mut s, &[0, 0x1_ffff_ffff], 65, true).unwrap();
        assert_eq!(s, "-18446744073709551616");
        s.clear();
        write_wide_int(&mut s, &[0, 0], 65, true).unwrap();
        assert_eq!(s, "0");
    }
    fn shown(words: &[u64], width: u64, signed: bool) -> String {
        let mut s = String::new();
        write_wide_int(&mut s, words, width, signed).unwrap();
        s
    }

    #[test]
    fn unsigned_and_wider_than_128_bits() {
        assert_eq!(shown(&[0xff], 8, false), "255");
        assert_eq!(shown(&[0xff], 8, true), "-1");
        assert_eq!(shown(&[u64::MAX, u64::MAX], 128, false), u128::MAX.to_string());
        // Fewer words than the width: zero-extended, so not negative.
        assert_eq!(shown(&[u64::MAX], 128, true), u64::MAX.to_string());
        assert_eq!(shown(&[], 32, true), "0");
        // Past 128 bits, by repeated division.
        assert_eq!(shown(&[0, 0, 1], 192, true), "340282366920938463463374607431768211456");
        assert_eq!(shown(&[u64::MAX; 3], 192, true), "-1");
        assert_eq!(shown(&[u64::MAX; 3], 192, false), "6277101735386680763835789423207666416102355444464034512895");
        assert_eq!(shown(&[0, 0, 1 << 63], 192, true), "-3138550867693340381917894711603833208051177722232017256448");
    }

    /// Up to 128 bits the digits are those of the value sign-extended into an `i128` (or
    /// zero-extended into a `u128`), as debug-info nodes printed them before they printed
    /// through here.
    #[test]
    fn up_to_128_bits_as_i128_and_u128() {
        let values =
            [0u128, 1, 2, 0x7f, 0x80, 0xff, u128::from(u64::MAX), 1 << 64, u128::MAX >> 1, 1 << 127, u128::MAX];
        for bits in [1u32, 7, 8, 32, 63, 64, 65, 100, 127, 128] {
            for &v in &values {
                let v = if bits < 128 { v & ((1u128 << bits) - 1) } else { v };
                let words = [v as u64, (v >> 64) as u64];
                let negative = v >> (bits - 1) & 1 == 1;
                let signed = if negative && bits < 128 { (v | (u128::MAX << bits)) as i128 } else { v as i128 };
                assert_eq!(shown(&words, u64::from(bits), true), signed.to_string(), "i{bits} {v:#x}");
                assert_eq!(shown(&words, u64::from(bits), false), v.to_string(), "u{bits} {v:#x}");
            }
        }
    }
}
