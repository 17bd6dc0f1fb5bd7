; extractelement/insertelement (constant and variable indices), shufflevector (poison
; and undef mask elements, zeroinitializer masks, widening and narrowing, scalable
; vectors), extractvalue/insertvalue (nested indices, arrays, packed structs), freeze.
; No pointers: llvm-as 14, 19 and 22.

%inner = type { i8, [2 x i16] }
%outer = type { i32, %inner, <{ i8, i32 }> }

define <4 x float> @elements(<4 x float> %v, float %f, i32 %i, i64 %j) {
  %a = extractelement <4 x float> %v, i32 0
  %b = extractelement <4 x float> %v, i64 %j
  %c = insertelement <4 x float> %v, float %a, i32 3
  %d = insertelement <4 x float> %c, float %f, i32 %i
  %e = insertelement <4 x float> undef, float %b, i64 0
  %g = insertelement <4 x float> poison, float 1.000000e+00, i8 1
  %h = fadd <4 x float> %d, %e
  %k = fadd <4 x float> %h, %g
  ret <4 x float> %k
}

define <8 x i32> @shuffles(<4 x i32> %a, <4 x i32> %b, <vscale x 4 x i32> %s, i32 %x) {
  %1 = shufflevector <4 x i32> %a, <4 x i32> %b, <4 x i32> <i32 0, i32 5, i32 2, i32 7>
  %2 = shufflevector <4 x i32> %1, <4 x i32> undef, <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 undef, i32 undef, i32 3, i32 2>
  %3 = shufflevector <4 x i32> %a, <4 x i32> poison, <2 x i32> <i32 3, i32 poison>
  %4 = shufflevector <4 x i32> %b, <4 x i32> %a, <4 x i32> zeroinitializer
  %5 = insertelement <vscale x 4 x i32> poison, i32 %x, i64 0
  %6 = shufflevector <vscale x 4 x i32> %5, <vscale x 4 x i32> poison, <vscale x 4 x i32> zeroinitializer
  %7 = add <vscale x 4 x i32> %6, %s
  %8 = shufflevector <2 x i32> %3, <2 x i32> <i32 1, i32 2>, <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 0, i32 1, i32 2, i32 3>
  %9 = add <8 x i32> %2, %8
  ret <8 x i32> %9
}

define %outer @aggregates(%outer %o, [3 x i64] %arr, i8 %c) {
  %a = extractvalue %outer %o, 0
  %b = extractvalue %outer %o, 1, 1, 0
  %c2 = extractvalue %outer %o, 2
  %d = extractvalue [3 x i64] %arr, 2
  %e = insertvalue %outer %o, i32 %a, 0
  %f = insertvalue %outer %e, i16 %b, 1, 1, 1
  %g = insertvalue %outer %f, i8 %c, 2, 0
  %h = insertvalue [3 x i64] undef, i64 %d, 0
  %k = insertvalue { [3 x i64], <{ i8, i32 }> } zeroinitializer, [3 x i64] %h, 0
  %m = insertvalue { [3 x i64], <{ i8, i32 }> } %k, <{ i8, i32 }> %c2, 1
  %n = extractvalue { [3 x i64], <{ i8, i32 }> } %m, 1, 1
  %p = insertvalue %outer %g, i32 %n, 2, 1
  ret %outer %p
}

define i32 @freezes(i32 %x, <2 x double> %v, { i8, float } %s) {
  %a = freeze i32 %x
  %b = freeze <2 x double> %v
  %c = freeze { i8, float } %s
  %d = freeze i32 undef
  %e = freeze i64 poison
  %f = add i32 %a, %d
  ret i32 %f
}
