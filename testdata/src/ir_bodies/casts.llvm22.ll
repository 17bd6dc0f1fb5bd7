; Casts new in LLVM 22: ptrtoaddr; fast-math flags on fptrunc and fpext:
; llvm-as 22.
target datalayout = "e-m:e-p:64:64-p1:64:64:64:32-i64:64-n8:16:32:64-S128"

define i64 @ptrtoaddr_and_fp_flags(ptr %p, ptr addrspace(1) %q, <2 x ptr> %vp, double %d, float %f) {
  %a = ptrtoaddr ptr %p to i64
  %a1 = ptrtoaddr ptr addrspace(1) %q to i32
  %va = ptrtoaddr <2 x ptr> %vp to <2 x i64>
  %ft = fptrunc nnan double %d to float
  %fe = fpext fast float %f to double
  %ft1 = fptrunc afn ninf double %fe to half
  ret i64 %a
}
