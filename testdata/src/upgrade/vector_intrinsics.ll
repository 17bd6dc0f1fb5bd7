; Experimental vector intrinsics LLVM has promoted since 14 (renamed declarations, moved
; to the end of the module, with the new name's attributes), and masked memory intrinsics
; with their alignment argument, in a typed-pointer module that llvm-as 14 assembles.
; LLVM 16 makes the renamed masked calls anew (no `tail`); LLVM 22 drops the alignment
; argument for an `align` on the pointer (a gather's 0: the element type's).
; (`llvm.experimental.vector.splice` is left out: LLVM 22 splits its calls into
; `llvm.vector.splice.left`/`right`, which the view does not make yet.)
target triple = "aarch64-unknown-linux-gnu"

declare <vscale x 4 x i32> @llvm.experimental.stepvector.nxv4i32()
declare <4 x i32> @llvm.experimental.vector.reverse.v4i32(<4 x i32>)
declare <2 x i32> @llvm.experimental.vector.extract.v2i32.v4i32(<4 x i32>, i64)
declare <4 x i32> @llvm.experimental.vector.insert.v4i32.v2i32(<4 x i32>, <2 x i32>, i64)
declare <4 x i32> @llvm.masked.load.v4i32.p0v4i32(<4 x i32>*, i32, <4 x i1>, <4 x i32>)
declare void @llvm.masked.store.v4i32.p0v4i32(<4 x i32>, <4 x i32>*, i32, <4 x i1>)
declare <4 x i32> @llvm.masked.gather.v4i32.v4p0i32(<4 x i32*>, i32, <4 x i1>, <4 x i32>)
declare void @llvm.masked.scatter.v4i32.v4p0i32(<4 x i32>, <4 x i32*>, i32, <4 x i1>)

define <4 x i32> @f(<4 x i32>* %p, <4 x i32*> %ps, <4 x i1> %m, <4 x i32> %v) {
  %sv = call <vscale x 4 x i32> @llvm.experimental.stepvector.nxv4i32()
  %r = call <4 x i32> @llvm.experimental.vector.reverse.v4i32(<4 x i32> %v)
  %e = call <2 x i32> @llvm.experimental.vector.extract.v2i32.v4i32(<4 x i32> %r, i64 2)
  %i = call <4 x i32> @llvm.experimental.vector.insert.v4i32.v2i32(<4 x i32> %r, <2 x i32> %e, i64 0)
  %a = tail call <4 x i32> @llvm.masked.load.v4i32.p0v4i32(<4 x i32>* %p, i32 8, <4 x i1> %m, <4 x i32> %i), !nontemporal !0
  tail call void @llvm.masked.store.v4i32.p0v4i32(<4 x i32> %a, <4 x i32>* %p, i32 16, <4 x i1> %m)
  %g = call <4 x i32> @llvm.masked.gather.v4i32.v4p0i32(<4 x i32*> %ps, i32 0, <4 x i1> %m, <4 x i32> %a)
  call void @llvm.masked.scatter.v4i32.v4p0i32(<4 x i32> %g, <4 x i32*> %ps, i32 0, <4 x i1> %m)
  ret <4 x i32> %g
}

!0 = !{i32 1}
