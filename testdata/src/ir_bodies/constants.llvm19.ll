; Constants new in LLVM 16 to 19: splat (fixed and scalable), ptrauth, GEP
; expressions with inrange(a, b), nuw and nusw, constants of target extension types:
; llvm-as 19 and 22.

@g = global [4 x i32] zeroinitializer
@vt = global { [4 x ptr] } zeroinitializer

declare void @sink(...)

define void @new_constants() {
  call void (...) @sink(<4 x i32> splat (i32 7), <vscale x 4 x float> splat (float 1.000000e+00), <2 x ptr> splat (ptr @g))
  call void (...) @sink(ptr ptrauth (ptr @g, i32 0), ptr ptrauth (ptr @sink, i32 2, i64 1234, ptr @vt))
  call void (...) @sink(ptr getelementptr inbounds inrange(-8, 8) ({ [4 x ptr] }, ptr @vt, i32 0, i32 0, i32 2))
  call void (...) @sink(ptr getelementptr nuw (i8, ptr @g, i64 4), ptr getelementptr nusw (i8, ptr @g, i64 -4), ptr getelementptr inbounds nuw ([4 x i32], ptr @g, i64 0, i64 3))
  call void (...) @sink(target("spirv.Event") zeroinitializer, target("spirv.Image", void, 1, 0) poison, target("my.type", i8, 3) undef)
  %a = add <4 x i32> splat (i32 1), <i32 1, i32 2, i32 3, i32 4>
  %b = add <vscale x 2 x i64> splat (i64 -1), zeroinitializer
  ret void
}
