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

/// A short text built on the stack (a formatted number); what does not fit is cut.
pub(crate) struct StackText {
    bytes: [u8; 64],
    len: usize,
}

impl Default for StackText {
    fn default() -> Self {
        StackText { bytes: [0; 64], len: 0 }
    }
}

impl StackText {
    /// The text written so far.
    pub(crate) fn as_str(&self) -> &str {
        core::str::from_utf8(&self.bytes[..self.len]).unwrap_or("")
    }

    fn push(&mut self, c: u8) {
        if let Some(slot) = self.bytes.get_mut(self.len) {
            *slot = c;
            self.len += 1;
        }
    }
}

impl fmt::Write for StackText {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let end = self.len + s.len();
        let Some(room) = self.bytes.get_mut(self.len..end) else { return Err(fmt::Error) };
        room.copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

/// The digits LLVM keeps of a float or double it prints in decimal.
const SIX_DIGITS: usize = 6;

/// The text `APFloat::toString(Str, 6, 0, false)` makes of an IEEE single or double:
/// `negative`, the `significand` with its integer bit (none for a subnormal) and the
/// power of two of its last bit, `exp2`. This is LLVM's algorithm step for step, its inexact steps included: the
/// exact decimal value is first cut (not rounded) to about six digits by a power of ten
/// estimated from the bit count, and only then rounded half up to six. So 0.999 prints as
/// `9.989990e-01`, which does not read back, and LLVM falls back to hex where the correctly
/// rounded `9.990000e-01` would have. Zero is `0.000000e+00`.
pub(crate) fn apfloat_scientific(negative: bool, significand: u64, exp2: i32) -> StackText {
    let mut text = StackText::default();
    if negative {
        text.push(b'-');
    }
    if significand == 0 {
        let _ = fmt::Write::write_str(&mut text, "0.000000e+00");
        return text;
    }
    // Trailing binary zeros are dropped, then 2^exp2 becomes 10^exp10: N * 2^e is shifted,
    // N * 2^-e is N * 5^e * 10^-e.
    let zeros = significand.trailing_zeros();
    let mut big = BigNat::from_u64(significand >> zeros);
    let mut exp2 = exp2 + zeros as i32;
    let mut exp10: i32 = 0;
    if exp2 > 0 {
        big.shl(exp2.unsigned_abs());
        exp2 = 0;
    }
    if exp2 < 0 {
        exp10 = exp2;
        let mut five_powers = exp2.unsigned_abs();
        while five_powers > 0 {
            let step = five_powers.min(27);
            big.mul_small(5u64.pow(step));
            five_powers -= step;
        }
    }
    // AdjustToPrecision(APInt): drop as many tens as 196/59 (a slight overestimate of
    // log2(10)) says the bits above the 20 that six digits need hold; a truncation.
    let bits = big.active_bits();
    let bits_required = (SIX_DIGITS as u32 * 196).div_ceil(59);
    if bits > bits_required {
        let tens = (bits - bits_required) * 59 / 196;
        exp10 += tens as i32;
        let mut left = tens;
        while left > 0 {
            let step = left.min(19);
            big.div_small(10u64.pow(step));
            left -= step;
        }
    }
    // What is left has about 20 bits, seven digits at most; trailing zeros are dropped.
    let mut value = big.to_u64();
    while value != 0 && value % 10 == 0 {
        value /= 10;
        exp10 += 1;
    }
    let mut digits = [0u8; 20];
    let mut count = 0;
    let mut rest = value;
    while rest != 0 && count < digits.len() {
        digits[count] = (rest % 10) as u8;
        rest /= 10;
        count += 1;
    }
    digits[..count].reverse();
    if count == 0 {
        let _ = fmt::Write::write_str(&mut text, "0.000000e+00");
        return text;
    }
    // AdjustToPrecision(buffer): round half up to six digits; carried nines are dropped.
    if count > SIX_DIGITS {
        let mut kept = SIX_DIGITS;
        if digits[SIX_DIGITS] < 5 {
            while kept > 1 && digits[kept - 1] == 0 {
                kept -= 1;
            }
        } else {
            while kept > 0 {
                if digits[kept - 1] == 9 {
                    kept -= 1;
                } else {
                    digits[kept - 1] += 1;
                    break;
                }
            }
            if kept == 0 {
                // All nines carried: the single digit 1, `exp += N`.
                digits[0] = 1;
                return write_scientific(text, &digits[..1], exp10 + count as i32);
            }
        }
        exp10 += (count - kept) as i32;
        count = kept;
    }
    write_scientific(text, &digits[..count], exp10)
}

/// `d.ddddddde±XX` from digits (most significant first, at most six) and the power of
/// ten of the last one.
fn write_scientific(mut text: StackText, digits: &[u8], exp10: i32) -> StackText {
    let exponent = exp10 + digits.len() as i32 - 1;
    text.push(b'0' + digits[0]);
    text.push(b'.');
    for &d in &digits[1..] {
        text.push(b'0' + d);
    }
    for _ in digits.len()..=SIX_DIGITS {
        text.push(b'0');
    }
    text.push(b'e');
    text.push(if exponent < 0 { b'-' } else { b'+' });
    // Two digits at least, three at most (a double's power of ten is within ±324).
    let e = exponent.unsigned_abs();
    if e >= 100 {
        text.push(b'0' + (e / 100 % 10) as u8);
    }
    text.push(b'0' + (e / 10 % 10) as u8);
    text.push(b'0' + (e % 10) as u8);
    text
}

/// A natural number of up to 2,560 bits on the stack: a double's exact decimal
/// significand (N * 5^1074 for the smallest subnormal) fits.
struct BigNat {
    limbs: [u64; 40],
    len: usize,
}

impl BigNat {
    fn from_u64(v: u64) -> Self {
        let mut n = BigNat { limbs: [0; 40], len: 1 };
        n.limbs[0] = v;
        n.trim();
        n
    }

    fn trim(&mut self) {
        while self.len > 0 && self.limbs[self.len - 1] == 0 {
            self.len -= 1;
        }
    }

    fn mul_small(&mut self, m: u64) {
        let mut carry = 0u128;
        for limb in &mut self.limbs[..self.len] {
            let p = u128::from(*limb) * u128::from(m) + carry;
            *limb = p as u64;
            carry = p >> 64;
        }
        if carry != 0 && self.len < self.limbs.len() {
            self.limbs[self.len] = carry as u64;
            self.len += 1;
        }
    }

    fn div_small(&mut self, d: u64) {
        let mut rem = 0u128;
        for limb in self.limbs[..self.len].iter_mut().rev() {
            let cur = (rem << 64) | u128::from(*limb);
            *limb = (cur / u128::from(d)) as u64;
            rem = cur % u128::from(d);
        }
        self.trim();
    }

    fn shl(&mut self, by: u32) {
        for _ in 0..by / 64 {
            if self.len == self.limbs.len() {
                return;
            }
            self.limbs.copy_within(0..self.len, 1);
            self.limbs[0] = 0;
            self.len += 1;
        }
        let bits = by % 64;
        if bits > 0 {
            let mut carry = 0u64;
            for limb in &mut self.limbs[..self.len] {
                let next = *limb >> (64 - bits);
                *limb = (*limb << bits) | carry;
                carry = next;
            }
            if carry != 0 && self.len < self.limbs.len() {
                self.limbs[self.len] = carry;
                self.len += 1;
            }
        }
    }

    fn active_bits(&self) -> u32 {
        match self.len {
            0 => 0,
            n => (n as u32 - 1) * 64 + (64 - self.limbs[n - 1].leading_zeros()),
        }
    }

    fn to_u64(&self) -> u64 {
        self.limbs[0]
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
