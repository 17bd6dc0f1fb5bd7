; Constants as instruction operands: integers of odd and wide widths (i128, i256),
; floating-point values of every type (special values too), undef, poison,
; zeroinitializer, structs, packed structs, arrays, vectors, strings, null and
; address-space pointers, token none, blockaddress, dso_local_equivalent, and LLVM 14's
; constant expressions (every binary operator, icmp/fcmp, select, every cast, fneg,
; GEP with inrange). Typed pointers: llvm-as 14 (constants.ll: llvm-as 19 and 22).

%s = type { i32, float, i8* }

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
  call void (...) @sink(i32 undef, i8* poison, { i32, float } zeroinitializer, [2 x i8] undef, <4 x float> poison)
  call void (...) @sink([0 x i32] zeroinitializer, {} zeroinitializer, <2 x i64> zeroinitializer, double 0.000000e+00, i8* null)
  call void (...) @sink(i8 addrspace(1)* null, i16 addrspace(3)* undef, %s zeroinitializer, %s poison)
  %t = call i8 @llvm.coro.suspend(token none, i1 false)
  ret void
}

define void @aggregates() {
  call void (...) @sink({ i32, float } { i32 1, float 2.500000e+00 }, <{ i8, i32 }> <{ i8 1, i32 2 }>)
  call void (...) @sink([3 x i32] [i32 1, i32 2, i32 3], [2 x float] [float 1.000000e+00, float 2.000000e+00], [2 x double] [double 0.000000e+00, double 1.000000e+00])
  call void (...) @sink([2 x { i8, i8 }] [{ i8, i8 } { i8 1, i8 2 }, { i8, i8 } zeroinitializer], [2 x [2 x i16]] [[2 x i16] [i16 1, i16 2], [2 x i16] zeroinitializer])
  call void (...) @sink(<4 x i32> <i32 1, i32 undef, i32 poison, i32 -1>, <2 x double> <double 1.000000e+00, double 2.000000e+00>, <3 x i1> <i1 true, i1 false, i1 true>)
  call void (...) @sink(<2 x i8*> <i8* bitcast ([4 x i32]* @g to i8*), i8* null>, [2 x i64*] [i64* @h, i64* bitcast (void (...)* @sink to i64*)], %s { i32 7, float 0.000000e+00, i8* getelementptr inbounds ([6 x i8], [6 x i8]* @str, i32 0, i32 0) })
  call void (...) @sink([2 x i8] [i8 1, i8 undef], [4 x i16] [i16 1, i16 2, i16 3, i16 4], [3 x i64] [i64 -1, i64 0, i64 1])
  call void (...) @sink([6 x i8] c"hello\00", [5 x i8] c"\01\FF\22\\\0A", [3 x i8] zeroinitializer, [3 x i8] c"a\00b")
  call void (...) @sink(<4 x i8> <i8 0, i8 0, i8 0, i8 0>, <2 x half> <half 0xH3C00, half 0xH4000>, [1 x bfloat] [bfloat 0xR3F80])
  store [6 x i8] c"world\00", [6 x i8]* @str
  store %s { i32 1, float 1.000000e+00, i8* null }, %s* bitcast (i64* @h to %s*)
  ret void
}

define i8* @globals_and_blockaddress(i1 %c) {
entry:
  call void (...) @sink([4 x i32]* @g, void (...)* @sink, [6 x i8]* @str, void (...)* dso_local_equivalent @sink)
  call void (...) @sink(i8* blockaddress(@globals_and_blockaddress, %other), i8* blockaddress(@later, %target))
  br i1 %c, label %other, label %done
other:
  br label %done
done:
  %p = phi i8* [ bitcast ([4 x i32]* @g to i8*), %entry ], [ blockaddress(@globals_and_blockaddress, %other), %other ]
  ret i8* %p
}

define void @expressions() {
  call void (...) @sink(i64 add (i64 ptrtoint (i32* getelementptr inbounds ([4 x i32], [4 x i32]* @g, i64 0, i64 0) to i64), i64 1), i64 add nuw nsw (i64 ptrtoint (i64* @h to i64), i64 8))
  call void (...) @sink(i64 sub (i64 ptrtoint ([4 x i32]* @g to i64), i64 ptrtoint (i64* @h to i64)), i64 xor (i64 ptrtoint ([4 x i32]* @g to i64), i64 -1))
  call void (...) @sink(i64 mul nsw (i64 ptrtoint ([4 x i32]* @g to i64), i64 3), i64 shl nuw (i64 ptrtoint ([4 x i32]* @g to i64), i64 2))
  call void (...) @sink(i64 lshr exact (i64 ptrtoint ([4 x i32]* @g to i64), i64 2), i64 ashr (i64 ptrtoint ([4 x i32]* @g to i64), i64 1))
  call void (...) @sink(i64 and (i64 ptrtoint ([4 x i32]* @g to i64), i64 255), i64 or (i64 ptrtoint ([4 x i32]* @g to i64), i64 1))
  call void (...) @sink(i64 udiv exact (i64 ptrtoint ([4 x i32]* @g to i64), i64 4), i64 sdiv (i64 ptrtoint ([4 x i32]* @g to i64), i64 -4))
  call void (...) @sink(i64 urem (i64 ptrtoint ([4 x i32]* @g to i64), i64 7), i64 srem (i64 ptrtoint ([4 x i32]* @g to i64), i64 7))
  call void (...) @sink(i1 icmp eq (i64 ptrtoint ([4 x i32]* @g to i64), i64 12345), i1 icmp ult (i64 ptrtoint ([4 x i32]* @g to i64), i64 ptrtoint (i64* @h to i64)))
  call void (...) @sink(i1 fcmp olt (double sitofp (i64 ptrtoint ([4 x i32]* @g to i64) to double), double 1.000000e+00))
  call void (...) @sink(i32 select (i1 icmp eq (i64 ptrtoint ([4 x i32]* @g to i64), i64 12345), i32 1, i32 2))
  call void (...) @sink(i64 zext (i32 ptrtoint ([4 x i32]* @g to i32) to i64), i64 sext (i32 ptrtoint ([4 x i32]* @g to i32) to i64))
  call void (...) @sink(i32 trunc (i64 add (i64 ptrtoint ([4 x i32]* @g to i64), i64 1) to i32), i32 ptrtoint ([4 x i32]* @g to i32))
  call void (...) @sink(float fptrunc (double uitofp (i64 ptrtoint ([4 x i32]* @g to i64) to double) to float), fp128 fpext (double sitofp (i64 ptrtoint ([4 x i32]* @g to i64) to double) to fp128))
  call void (...) @sink(i32 fptoui (float uitofp (i64 ptrtoint ([4 x i32]* @g to i64) to float) to i32), i32 fptosi (double sitofp (i64 ptrtoint ([4 x i32]* @g to i64) to double) to i32))
  call void (...) @sink(double fneg (double sitofp (i64 ptrtoint ([4 x i32]* @g to i64) to double)))
  call void (...) @sink(i8* inttoptr (i64 12345 to i8*), i32 addrspace(1)* addrspacecast ([4 x i32]* @g to i32 addrspace(1)*), i8* bitcast (void (...)* @sink to i8*))
  call void (...) @sink(<2 x i32> bitcast (i64 ptrtoint ([4 x i32]* @g to i64) to <2 x i32>))
  call void (...) @sink(i32 extractelement (<2 x i32> bitcast (i64 ptrtoint ([4 x i32]* @g to i64) to <2 x i32>), i32 1))
  call void (...) @sink(<vscale x 2 x i64> insertelement (<vscale x 2 x i64> poison, i64 ptrtoint ([4 x i32]* @g to i64), i64 0))
  call void (...) @sink(<vscale x 2 x i64> shufflevector (<vscale x 2 x i64> insertelement (<vscale x 2 x i64> poison, i64 ptrtoint ([4 x i32]* @g to i64), i64 0), <vscale x 2 x i64> poison, <vscale x 2 x i32> zeroinitializer))
  call void (...) @sink(i32* getelementptr inbounds ([4 x i32], [4 x i32]* @g, i64 0, i64 2), i8* getelementptr (i8, i8* bitcast ([4 x i32]* @g to i8*), i64 ptrtoint (i64* @h to i64)))
  call void (...) @sink(float* getelementptr (%s, %s* null, i32 1, i32 1), i8** getelementptr inbounds (%s, %s* bitcast ([4 x i32]* @g to %s*), i64 0, i32 2))
  call void (...) @sink(i32* getelementptr inbounds ({ [4 x i32], [4 x i32] }, { [4 x i32], [4 x i32] }* bitcast ([4 x i32]* @g to { [4 x i32], [4 x i32] }*), i64 0, inrange i32 1, i64 2))
  %v = add i64 ptrtoint ([4 x i32]* @g to i64), ptrtoint (i64* getelementptr (i64, i64* @h, i64 2) to i64)
  store i64 %v, i64* bitcast (i32* getelementptr inbounds ([4 x i32], [4 x i32]* @g, i64 0, i64 2) to i64*)
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
