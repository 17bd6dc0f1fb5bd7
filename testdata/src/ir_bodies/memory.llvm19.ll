; Memory operations new in LLVM 15 to 19: atomicrmw fmax/fmin/uinc_wrap/udec_wrap,
; getelementptr nuw/nusw (with and without inbounds): llvm-as 19 and 22.

%pair = type { i32, [4 x i16] }

define ptr @new_in_19(ptr %p, ptr %fp, i32 %v, float %f, i64 %i, <2 x ptr> %vp) {
  %fmax = atomicrmw fmax ptr %fp, float %f seq_cst, align 4
  %fmin = atomicrmw fmin ptr %fp, float 2.000000e+00 monotonic, align 4
  %inc = atomicrmw uinc_wrap ptr %p, i32 %v acquire, align 4
  %dec = atomicrmw volatile udec_wrap ptr %p, i32 10 syncscope("singlethread") release, align 4
  %1 = getelementptr nuw i8, ptr %p, i64 %i
  %2 = getelementptr nusw i32, ptr %1, i64 -1
  %3 = getelementptr nusw nuw %pair, ptr %2, i64 0, i32 1, i64 %i
  %4 = getelementptr inbounds nuw i8, ptr %3, i64 4
  %5 = getelementptr inbounds i16, ptr %4, i32 %v
  %6 = getelementptr nuw i8, <2 x ptr> %vp, i64 8
  ret ptr %5
}
