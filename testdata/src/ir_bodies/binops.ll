; Integer binary operators with every wrap/exact flag, on scalars and vectors,
; with constant and argument operands. No pointers: llvm-as 14, 19 and 22.

define i32 @int_binops(i32 %a, i32 %b) {
entry:
  %add = add i32 %a, %b
  %add.nuw = add nuw i32 %a, 1
  %add.nsw = add nsw i32 %add, %add.nuw
  %add.both = add nuw nsw i32 %add.nsw, -1
  %sub = sub i32 %a, %b
  %sub.nuw = sub nuw i32 %sub, 7
  %sub.nsw = sub nsw i32 0, %sub.nuw
  %sub.both = sub nuw nsw i32 %sub.nsw, %a
  %mul = mul i32 %a, %b
  %mul.nuw = mul nuw i32 %mul, 3
  %mul.nsw = mul nsw i32 %mul.nuw, -3
  %mul.both = mul nuw nsw i32 %mul.nsw, %b
  %shl = shl i32 %a, 1
  %shl.nuw = shl nuw i32 %shl, %b
  %shl.nsw = shl nsw i32 %shl.nuw, 2
  %shl.both = shl nuw nsw i32 %shl.nsw, 3
  %udiv = udiv i32 %a, %b
  %udiv.exact = udiv exact i32 %udiv, 4
  %sdiv = sdiv i32 %a, -2
  %sdiv.exact = sdiv exact i32 %sdiv, %b
  %urem = urem i32 %a, 10
  %srem = srem i32 %b, %a
  %lshr = lshr i32 %a, 5
  %lshr.exact = lshr exact i32 %lshr, %b
  %ashr = ashr i32 %b, 31
  %ashr.exact = ashr exact i32 %ashr, 1
  %and = and i32 %a, 255
  %or = or i32 %and, %b
  %xor = xor i32 %or, -1
  %r1 = add i32 %add.both, %sub.both
  %r2 = add i32 %r1, %mul.both
  %r3 = add i32 %r2, %shl.both
  %r4 = add i32 %r3, %udiv.exact
  %r5 = add i32 %r4, %sdiv.exact
  %r6 = add i32 %r5, %urem
  %r7 = add i32 %r6, %srem
  %r8 = add i32 %r7, %lshr.exact
  %r9 = add i32 %r8, %ashr.exact
  %r10 = add i32 %r9, %xor
  ret i32 %r10
}

define <4 x i32> @vector_binops(<4 x i32> %a, <4 x i32> %b) {
  %1 = add nsw <4 x i32> %a, <i32 1, i32 2, i32 3, i32 4>
  %2 = sub nuw <4 x i32> %1, %b
  %3 = mul <4 x i32> %2, zeroinitializer
  %4 = shl <4 x i32> %3, <i32 1, i32 1, i32 1, i32 1>
  %5 = lshr exact <4 x i32> %4, %b
  %6 = and <4 x i32> %5, <i32 -1, i32 0, i32 undef, i32 poison>
  %7 = xor <4 x i32> %6, %a
  %8 = udiv <4 x i32> %7, <i32 1, i32 2, i32 4, i32 8>
  ret <4 x i32> %8
}

define i1 @narrow_and_wide(i1 %p, i1 %q, i8 %c, i64 %l, i128 %w) {
  %x = xor i1 %p, true
  %y = and i1 %x, %q
  %c2 = mul i8 %c, -128
  %l2 = sdiv i64 %l, -9223372036854775808
  %w2 = add i128 %w, 170141183460469231731687303715884105727
  %w3 = mul nuw i128 %w2, 18446744073709551616
  %t = trunc i128 %w3 to i1
  %z = or i1 %y, %t
  ret i1 %z
}
