; icmp with every predicate on integers and vectors, select on scalar and vector
; conditions. No pointers: llvm-as 14, 19 and 22.

define i8 @icmp_predicates(i32 %a, i32 %b) {
  %eq = icmp eq i32 %a, %b
  %ne = icmp ne i32 %a, 0
  %ugt = icmp ugt i32 %a, %b
  %uge = icmp uge i32 %a, %b
  %ult = icmp ult i32 %a, 100
  %ule = icmp ule i32 %a, %b
  %sgt = icmp sgt i32 %a, -1
  %sge = icmp sge i32 %a, %b
  %slt = icmp slt i32 %a, %b
  %sle = icmp sle i32 %a, %b
  %v = icmp ult <4 x i16> <i16 1, i16 2, i16 3, i16 4>, zeroinitializer
  %w = icmp eq i128 -1, 18446744073709551616
  %x1 = xor i1 %eq, %ne
  %x2 = xor i1 %x1, %ugt
  %x3 = xor i1 %x2, %uge
  %x4 = xor i1 %x3, %ult
  %x5 = xor i1 %x4, %ule
  %x6 = xor i1 %x5, %sgt
  %x7 = xor i1 %x6, %sge
  %x8 = xor i1 %x7, %slt
  %x9 = xor i1 %x8, %sle
  %x10 = xor i1 %x9, %w
  %e = extractelement <4 x i1> %v, i64 0
  %x11 = xor i1 %x10, %e
  %r = select i1 %x11, i8 1, i8 -1
  ret i8 %r
}

define <2 x i64> @select_vectors(<2 x i1> %c, <2 x i64> %a, <2 x i64> %b) {
  %s = select <2 x i1> %c, <2 x i64> %a, <2 x i64> %b
  %k = select i1 true, <2 x i64> %s, <2 x i64> <i64 7, i64 8>
  %m = icmp sle <2 x i64> %k, %a
  %t = select <2 x i1> %m, <2 x i64> undef, <2 x i64> poison
  ret <2 x i64> %t
}
