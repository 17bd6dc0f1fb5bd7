; The disjoint flag of or (LLVM 18), on scalars and vectors: llvm-as 19 and 22.

define i32 @or_disjoint(i32 %a, i32 %b, <2 x i16> %v) {
  %hi = shl i32 %a, 16
  %lo = and i32 %b, 65535
  %or = or disjoint i32 %hi, %lo
  %plain = or i32 %or, 1
  %vor = or disjoint <2 x i16> %v, <i16 256, i16 512>
  %e = extractelement <2 x i16> %vor, i32 0
  %z = zext i16 %e to i32
  %r = add i32 %plain, %z
  ret i32 %r
}
