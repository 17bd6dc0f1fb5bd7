; Call features new in LLVM 15 to 19: preserve_nonecc, m68k_rtdcc, riscv_vector_cc,
; graalcc, aarch64_sme_preservemost_from_x0/x2, amdgpu_cs_chain;
; range, nofpclass, writable, dead_on_unwind and initializes attributes; memory(...)
; call-site attributes; the "ptrauth" and "kcfi" operand bundles: llvm-as 19 and 22.

declare preserve_nonecc void @pnone()
declare m68k_rtdcc void @rtd()
declare riscv_vector_cc void @rvv()
declare graalcc void @graal()
declare aarch64_sme_preservemost_from_x0 void @sme_x0()
declare aarch64_sme_preservemost_from_x2 void @sme_x2()
declare amdgpu_cs_chain void @cs_chain()
declare range(i32 0, 10) i32 @small(i32 range(i32 -1, 2))
declare nofpclass(nan inf) float @finite(float nofpclass(zero))
declare void @out(ptr writable dead_on_unwind initializes((0, 8)) noundef)
declare void @indirect_target()

define i32 @new_call_features(ptr %p, float %f, ptr %fp) {
  call preserve_nonecc void @pnone()
  call m68k_rtdcc void @rtd()
  call riscv_vector_cc void @rvv()
  call graalcc void @graal()
  call aarch64_sme_preservemost_from_x0 void @sme_x0()
  call aarch64_sme_preservemost_from_x2 void @sme_x2()
  %r = call range(i32 0, 5) i32 @small(i32 range(i32 -1, 2) 1)
  %g = call nofpclass(nan) float @finite(float nofpclass(zero) %f)
  call void @out(ptr writable dead_on_unwind initializes((0, 8)) %p) #0
  call void %fp() [ "ptrauth"(i32 0, i64 1234) ]
  call void %fp() [ "kcfi"(i32 12345) ]
  ret i32 %r
}

attributes #0 = { memory(argmem: readwrite, inaccessiblemem: read) }
