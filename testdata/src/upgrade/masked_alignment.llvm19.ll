; LLVM 19's masked memory intrinsics, their alignment an argument, as llvm-as 19 writes
; them: LLVM 22 reads each call with the alignment as the pointer's `align` (a gather's
; or scatter's 0: the element type's ABI alignment), keeping `tail` and metadata; the
; declarations are made anew at the end of the module. AArch64's NEON `addp` on floats
; and the bf16 dot products are already renamed by llvm-as 19.
target triple = "aarch64-unknown-linux-gnu"

declare <4 x i32> @llvm.masked.load.v4i32.p0(ptr, i32, <4 x i1>, <4 x i32>)
declare void @llvm.masked.store.v4i32.p0(<4 x i32>, ptr, i32, <4 x i1>)
declare <4 x double> @llvm.masked.gather.v4f64.v4p0(<4 x ptr>, i32, <4 x i1>, <4 x double>)
declare void @llvm.masked.scatter.v4i16.v4p0(<4 x i16>, <4 x ptr>, i32, <4 x i1>)
declare <vscale x 2 x i64> @llvm.experimental.stepvector.nxv2i64()
declare ptr @llvm.invariant.start.p0(i64, ptr)
declare <4 x float> @llvm.aarch64.neon.addp.v4f32(<4 x float>, <4 x float>)

define <4 x i32> @f(ptr %p, <4 x ptr> %ps, <4 x i1> %m, <4 x i32> %v, <4 x double> %d, <4 x i16> %h, <4 x float> %x) {
  %a = tail call <4 x i32> @llvm.masked.load.v4i32.p0(ptr %p, i32 8, <4 x i1> %m, <4 x i32> %v), !nontemporal !0
  call void @llvm.masked.store.v4i32.p0(<4 x i32> %a, ptr %p, i32 4, <4 x i1> %m)
  %g = call <4 x double> @llvm.masked.gather.v4f64.v4p0(<4 x ptr> %ps, i32 0, <4 x i1> %m, <4 x double> %d)
  call void @llvm.masked.scatter.v4i16.v4p0(<4 x i16> %h, <4 x ptr> %ps, i32 0, <4 x i1> %m)
  call void @llvm.masked.scatter.v4i16.v4p0(<4 x i16> %h, <4 x ptr> %ps, i32 32, <4 x i1> %m)
  %s = call <vscale x 2 x i64> @llvm.experimental.stepvector.nxv2i64()
  %i = call ptr @llvm.invariant.start.p0(i64 4, ptr %p)
  %ad = call <4 x float> @llvm.aarch64.neon.addp.v4f32(<4 x float> %x, <4 x float> %x)
  ret <4 x i32> %a
}

!0 = !{i32 1}
