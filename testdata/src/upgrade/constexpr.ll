; Constant expressions LLVM 15 and later no longer have, in a typed-pointer module that
; llvm-as 14 assembles: the reading llvm-dis makes instructions (%constexpr) of them.
@g = global i32 0
@h = global [4 x i32] zeroinitializer
define i64 @f(i64 %x, double %y, i1 %c) {
entry:
  %a1 = add i64 %x, add (i64 ptrtoint (i32* @g to i64), i64 1)
  %a2 = add i64 %x, sub (i64 ptrtoint (i32* @g to i64), i64 1)
  %a3 = add i64 %x, mul (i64 ptrtoint (i32* @g to i64), i64 3)
  %a4 = add i64 %x, xor (i64 ptrtoint (i32* @g to i64), i64 3)
  %a5 = add i64 %x, and (i64 ptrtoint (i32* @g to i64), i64 -16)
  %a6 = add i64 %x, or (i64 ptrtoint (i32* @g to i64), i64 1)
  %a7 = add i64 %x, shl (i64 ptrtoint (i32* @g to i64), i64 2)
  %a8 = add i64 %x, lshr (i64 ptrtoint (i32* @g to i64), i64 2)
  %a9 = add i64 %x, ashr exact (i64 ptrtoint (i32* @g to i64), i64 2)
  %a10 = add i64 %x, udiv (i64 ptrtoint (i32* @g to i64), i64 3)
  %a11 = add i64 %x, sext (i32 ptrtoint (i32* @g to i32) to i64)
  %a12 = add i64 %x, zext (i32 ptrtoint (i32* @g to i32) to i64)
  %a13 = add i64 %x, zext (i1 icmp eq (i32* @g, i32* null) to i64)
  %b1 = fadd double %y, sitofp (i64 ptrtoint (i32* @g to i64) to double)
  %b2 = fadd double %y, fneg (double sitofp (i64 ptrtoint (i32* @g to i64) to double))
  %c1 = and i1 %c, icmp eq (i32* @g, i32* null)
  %c2 = and i1 %c, fcmp olt (double sitofp (i64 ptrtoint (i32* @g to i64) to double), double 1.0)
  %s1 = add i64 %x, select (i1 icmp eq (i32* @g, i32* null), i64 1, i64 2)
  %t1 = add i64 %x, add nsw (i64 ptrtoint (i32* @g to i64), i64 sext (i32 ptrtoint (i32* @g to i32) to i64))
  %t2 = add i64 %x, trunc (i128 zext (i64 ptrtoint (i32* @g to i64) to i128) to i64)
  %t3 = add i64 %a1, sext (i32 ptrtoint (i32* @g to i32) to i64)
  %t4 = add i64 %t3, sext (i32 ptrtoint (i32* @g to i32) to i64)
  %u1 = add i64 %x, add (i64 mul (i64 ptrtoint (i32* @g to i64), i64 3), i64 ptrtoint (i32* getelementptr ([4 x i32], [4 x i32]* @h, i64 0, i64 ptrtoint (i32* @g to i64)) to i64))
  %u2 = add i32 1, extractelement (<2 x i32> <i32 ptrtoint (i32* @g to i32), i32 5>, i32 ptrtoint (i32* @g to i32))
  %u3 = add i64 %x, ptrtoint (i32* getelementptr inbounds ([4 x i32], [4 x i32]* @h, i64 0, i64 lshr (i64 ptrtoint (i32* @g to i64), i64 60)) to i64)
  store i64 or (i64 ptrtoint (i32* @g to i64), i64 1), i64* bitcast (i32* @g to i64*)
  ret i64 %t4
}
define void @each_kind(i64* %p, i32* %q, double* %r, float* %fp, i1* %b, <2 x i32>* %v) {
  store i64 add (i64 ptrtoint (i32* @g to i64), i64 3), i64* %p
  store i64 sub (i64 ptrtoint (i32* @g to i64), i64 3), i64* %p
  store i64 mul (i64 ptrtoint (i32* @g to i64), i64 3), i64* %p
  store i64 xor (i64 ptrtoint (i32* @g to i64), i64 3), i64* %p
  store i64 and (i64 ptrtoint (i32* @g to i64), i64 3), i64* %p
  store i64 or (i64 ptrtoint (i32* @g to i64), i64 3), i64* %p
  store i64 shl (i64 ptrtoint (i32* @g to i64), i64 3), i64* %p
  store i64 lshr (i64 ptrtoint (i32* @g to i64), i64 3), i64* %p
  store i64 ashr (i64 ptrtoint (i32* @g to i64), i64 3), i64* %p
  store i64 udiv (i64 ptrtoint (i32* @g to i64), i64 3), i64* %p
  store i64 sdiv (i64 ptrtoint (i32* @g to i64), i64 3), i64* %p
  store i64 urem (i64 ptrtoint (i32* @g to i64), i64 3), i64* %p
  store i64 srem (i64 ptrtoint (i32* @g to i64), i64 3), i64* %p
  store double fadd (double sitofp (i64 ptrtoint (i32* @g to i64) to double), double 3.0), double* %r
  store double fsub (double sitofp (i64 ptrtoint (i32* @g to i64) to double), double 3.0), double* %r
  store double fmul (double sitofp (i64 ptrtoint (i32* @g to i64) to double), double 3.0), double* %r
  store double fdiv (double sitofp (i64 ptrtoint (i32* @g to i64) to double), double 3.0), double* %r
  store double frem (double sitofp (i64 ptrtoint (i32* @g to i64) to double), double 3.0), double* %r
  store double fneg (double bitcast (i64 ptrtoint (i32* @g to i64) to double)), double* %r
  store i32 trunc (i64 ptrtoint (i32* @g to i64) to i32), i32* %q
  store i64 zext (i32 ptrtoint (i32* @g to i32) to i64), i64* %p
  store i64 sext (i32 ptrtoint (i32* @g to i32) to i64), i64* %p
  store double sitofp (i64 ptrtoint (i32* @g to i64) to double), double* %r
  store double uitofp (i64 ptrtoint (i32* @g to i64) to double), double* %r
  store i64 fptosi (double bitcast (i64 ptrtoint (i32* @g to i64) to double) to i64), i64* %p
  store i64 fptoui (double bitcast (i64 ptrtoint (i32* @g to i64) to double) to i64), i64* %p
  store float fptrunc (double bitcast (i64 ptrtoint (i32* @g to i64) to double) to float), float* %fp
  store double fpext (float bitcast (i32 ptrtoint (i32* @g to i32) to float) to double), double* %r
  store i1 icmp eq (i32* @g, i32* inttoptr (i64 7 to i32*)), i1* %b
  store i1 fcmp olt (double bitcast (i64 ptrtoint (i32* @g to i64) to double), double 1.0), i1* %b
  store i64 select (i1 icmp eq (i32* @g, i32* inttoptr (i64 7 to i32*)), i64 1, i64 2), i64* %p
  store <2 x i32> insertelement (<2 x i32> zeroinitializer, i32 ptrtoint (i32* @g to i32), i32 0), <2 x i32>* %v
  store <2 x i32> shufflevector (<2 x i32> <i32 ptrtoint (i32* @g to i32), i32 1>, <2 x i32> zeroinitializer, <2 x i32> <i32 1, i32 0>), <2 x i32>* %v
  store i32 extractvalue ({i32, i32} {i32 ptrtoint (i32* @g to i32), i32 1}, 0), i32* %q
  ret void
}
