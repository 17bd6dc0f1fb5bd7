; Every cast instruction, on scalars and vectors, typed pointers: llvm-as 14
; (casts.ll is the same with opaque pointers, for llvm-as 19 and 22).
target datalayout = "e-m:e-p:64:64-p1:64:64-p3:32:32-i64:64-n8:16:32:64-S128"

define void @int_casts(i32 %a, i64 %l, <4 x i32> %v) {
  %t = trunc i64 %l to i32
  %t1 = trunc i32 %a to i1
  %z = zext i32 %a to i64
  %z1 = zext i1 %t1 to i8
  %s = sext i32 %t to i64
  %s1 = sext i1 %t1 to i128
  %vt = trunc <4 x i32> %v to <4 x i8>
  %vz = zext <4 x i8> %vt to <4 x i64>
  %vs = sext <4 x i32> %v to <4 x i64>
  ret void
}

define void @fp_casts(float %f, double %d, i32 %i, i64 %l, <2 x float> %vf) {
  %ft = fptrunc double %d to float
  %ft1 = fptrunc double %d to half
  %fe = fpext float %f to double
  %fe1 = fpext float %f to x86_fp80
  %fe2 = fpext half %ft1 to fp128
  %fu = fptoui float %f to i32
  %fs = fptosi double %d to i64
  %fs1 = fptosi double %d to i1
  %uf = uitofp i32 %i to double
  %sf = sitofp i64 %l to float
  %sf1 = sitofp i1 true to bfloat
  %vfe = fpext <2 x float> %vf to <2 x double>
  %vfs = fptosi <2 x float> %vf to <2 x i32>
  %vuf = uitofp <2 x i32> %vfs to <2 x float>
  ret void
}

define void @ptr_casts(i8* %p, i64 %l, i8 addrspace(1)* %q, <2 x i8*> %vp) {
  %pi = ptrtoint i8* %p to i64
  %pi1 = ptrtoint i8* %p to i32
  %ip = inttoptr i64 %l to i8*
  %ip1 = inttoptr i64 %pi to i8 addrspace(3)*
  %bc = bitcast i64 %l to double
  %bc1 = bitcast <2 x i32> <i32 1, i32 2> to i64
  %bc2 = bitcast i8* %p to i32*
  %bc3 = bitcast <4 x i16> zeroinitializer to <2 x float>
  %as = addrspacecast i8* %p to i8 addrspace(1)*
  %as1 = addrspacecast i8 addrspace(1)* %q to i8*
  %vpi = ptrtoint <2 x i8*> %vp to <2 x i64>
  %vip = inttoptr <2 x i64> %vpi to <2 x i8*>
  %vas = addrspacecast <2 x i8*> %vip to <2 x i8 addrspace(3)*>
  ret void
}
