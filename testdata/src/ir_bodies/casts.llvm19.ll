; Cast flags new in LLVM 18 and 19: zext nneg, uitofp nneg, trunc nuw/nsw:
; llvm-as 19 and 22.

define i64 @cast_flags(i32 %a, i64 %l, <2 x i32> %v) {
  %z = zext nneg i32 %a to i64
  %vz = zext nneg <2 x i32> %v to <2 x i64>
  %t = trunc nuw i64 %l to i32
  %t1 = trunc nsw i64 %l to i16
  %t2 = trunc nuw nsw i64 %l to i8
  %vt = trunc nsw <2 x i32> %v to <2 x i1>
  %u = uitofp nneg i32 %t to double
  %vu = uitofp nneg <2 x i32> %v to <2 x float>
  %s = sext i8 %t2 to i64
  %r = add i64 %z, %s
  ret i64 %r
}
