; Constants as instruction operands: integers of odd and wide widths (i128, i256),
; floating-point values of every type (special values too), undef, poison,
; zeroinitializer, structs, packed structs, arrays, vectors, strings, null and
; address-space pointers, token none, blockaddress, dso_local_equivalent, no_cfi, and
; the constant expressions that LLVM 19 and 22 both still have. Opaque pointers:
; llvm-as 19 and 22 (constants.typed.ll: llvm-as 14, with its older expressions).

%s = type { i32, float, ptr }

@g = global [4 x i32] [i32 1, i32 2, i32 3, i32 4]
@h = global i64 0
@str = private unnamed_addr constant [6 x i8] c"hello\00"

declare void @sink(...)
declare i8 @llvm.coro.suspend(token, i1)

define void @integers() {
  call void (...) @sink(i1 true, i1 false, i7 -1, i8 -128, i16 32767, i32 -2147483648, i33 -4294967296)
  call void (...) @sink(i64 9223372036854775807, i64 -9223372036854775808, i65 -18446744073709551616)
  call void (...) @sink(i128 170141183460469231731687303715884105727, i128 -170141183460469231731687303715884105728)
  call void (...) @sink(i128 18446744073709551616, i128 -1, i128 0, i128 12345678901234567890123456789)
  call void (...) @sink(i256 1606938044258990275541962092341162602522202993782792835301376, i256 -2)
  ret void
}

define void @floats() {
  call void (...) @sink(half 0xH3C00, half 0xH8000, half 0xH7C01, half 0xH0001, bfloat 0xR3F80, bfloat 0xR7FC0)
  call void (...) @sink(float 1.000000e+00, float -0.000000e+00, float 0x7FF8000000000000, float 0xFFF0000000000000, float 0x36A0000000000000, float 0x3FB99999A0000000)
  call void (...) @sink(double 0x400921FB54442D18, double 1.000000e+300, double 4.940660e-324, double 0x7FF4000000000001, double -2.000000e+00)
  call void (...) @sink(x86_fp80 0xK3FFF8000000000000000, x86_fp80 0xK7FFFC000000000000000, x86_fp80 0xK00000000000000000001)
  call void (...) @sink(fp128 0xL00000000000000003FFF000000000000, fp128 0xL00000000000000017FFF800000000000)
  call void (...) @sink(ppc_fp128 0xM3FF00000000000000000000000000000, ppc_fp128 0xM3FF0000000000000BC90000000000000)
  ret void
}

define void @undef_poison_zero() {
  call void (...) @sink(i32 undef, ptr poison, { i32, float } zeroinitializer, [2 x i8] undef, <4 x float> poison)
  call void (...) @sink([0 x i32] zeroinitializer, {} zeroinitializer, <2 x i64> zeroinitializer, double 0.000000e+00, ptr null)
  call void (...) @sink(ptr addrspace(1) null, ptr addrspace(3) undef, %s zeroinitializer, %s poison)
  %t = call i8 @llvm.coro.suspend(token none, i1 false)
  ret void
}

define void @aggregates() {
  call void (...) @sink({ i32, float } { i32 1, float 2.500000e+00 }, <{ i8, i32 }> <{ i8 1, i32 2 }>)
  call void (...) @sink([3 x i32] [i32 1, i32 2, i32 3], [2 x float] [float 1.000000e+00, float 2.000000e+00], [2 x double] [double 0.000000e+00, double 1.000000e+00])
  call void (...) @sink([2 x { i8, i8 }] [{ i8, i8 } { i8 1, i8 2 }, { i8, i8 } zeroinitializer], [2 x [2 x i16]] [[2 x i16] [i16 1, i16 2], [2 x i16] zeroinitializer])
  call void (...) @sink(<4 x i32> <i32 1, i32 undef, i32 poison, i32 -1>, <2 x double> <double 1.000000e+00, double 2.000000e+00>, <3 x i1> <i1 true, i1 false, i1 true>)
  call void (...) @sink(<2 x ptr> <ptr @g, ptr null>, [2 x ptr] [ptr @h, ptr @sink], %s { i32 7, float 0.000000e+00, ptr @str })
  call void (...) @sink([2 x i8] [i8 1, i8 undef], [4 x i16] [i16 1, i16 2, i16 3, i16 4], [3 x i64] [i64 -1, i64 0, i64 1])
  call void (...) @sink([6 x i8] c"hello\00", [5 x i8] c"\01\FF\22\\\0A", [3 x i8] zeroinitializer, [3 x i8] c"a\00b")
  call void (...) @sink(<4 x i8> <i8 0, i8 0, i8 0, i8 0>, <2 x half> <half 0xH3C00, half 0xH4000>, [1 x bfloat] [bfloat 0xR3F80])
  store [6 x i8] c"world\00", ptr @str
  store %s { i32 1, float 1.000000e+00, ptr null }, ptr @h
  ret void
}

define ptr @globals_and_blockaddress(i1 %c) {
entry:
  call void (...) @sink(ptr @g, ptr @sink, ptr @str, ptr dso_local_equivalent @sink, ptr no_cfi @sink)
  call void (...) @sink(ptr blockaddress(@globals_and_blockaddress, %other), ptr blockaddress(@later, %target))
  br i1 %c, label %other, label %done
other:
  br label %done
done:
  %p = phi ptr [ @g, %entry ], [ blockaddress(@globals_and_blockaddress, %other), %other ]
  ret ptr %p
}

define void @expressions() {
  call void (...) @sink(i64 add (i64 ptrtoint (ptr @g to i64), i64 1), i64 add nuw nsw (i64 ptrtoint (ptr @h to i64), i64 8))
  call void (...) @sink(i64 sub (i64 ptrtoint (ptr @g to i64), i64 ptrtoint (ptr @h to i64)), i64 xor (i64 ptrtoint (ptr @g to i64), i64 -1))
  call void (...) @sink(i32 trunc (i64 add (i64 ptrtoint (ptr @g to i64), i64 1) to i32), i32 ptrtoint (ptr @g to i32))
  call void (...) @sink(ptr inttoptr (i64 12345 to ptr), ptr addrspace(1) addrspacecast (ptr @g to ptr addrspace(1)))
  call void (...) @sink(<2 x i32> bitcast (i64 ptrtoint (ptr @g to i64) to <2 x i32>))
  call void (...) @sink(i32 extractelement (<2 x i32> bitcast (i64 ptrtoint (ptr @g to i64) to <2 x i32>), i32 1))
  call void (...) @sink(<vscale x 2 x i64> insertelement (<vscale x 2 x i64> poison, i64 ptrtoint (ptr @g to i64), i64 0))
  call void (...) @sink(<vscale x 2 x i64> shufflevector (<vscale x 2 x i64> insertelement (<vscale x 2 x i64> poison, i64 ptrtoint (ptr @g to i64), i64 0), <vscale x 2 x i64> poison, <vscale x 2 x i32> zeroinitializer))
  call void (...) @sink(ptr getelementptr inbounds ([4 x i32], ptr @g, i64 0, i64 2), ptr getelementptr (i8, ptr @g, i64 ptrtoint (ptr @h to i64)))
  call void (...) @sink(ptr getelementptr (%s, ptr null, i32 1), ptr getelementptr inbounds (%s, ptr @g, i64 0, i32 2))
  %v = add i64 ptrtoint (ptr @g to i64), ptrtoint (ptr getelementptr (i8, ptr @h, i64 16) to i64)
  store i64 %v, ptr getelementptr inbounds ([4 x i32], ptr @g, i64 0, i64 1)
  ret void
}

define void @later(i1 %c) {
entry:
  br i1 %c, label %target, label %exit
target:
  br label %exit
exit:
  ret void
}
