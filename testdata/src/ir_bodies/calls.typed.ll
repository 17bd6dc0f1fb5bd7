; call: tail/musttail/notail, calling conventions, parameter and return attributes,
; call-site function attributes, varargs and indirect callees, va_arg, intrinsics.
; Typed pointers: llvm-as 14 (calls.ll: llvm-as 19 and 22).
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

%big = type { [8 x i64] }
%struct.va_list = type { i32, i32, i8*, i8* }

@fmt = private unnamed_addr constant [4 x i8] c"%d\0A\00"

declare i32 @callee(i32)
declare void @sink(i8*)
declare i32 @printf(i8*, ...)
declare noalias i8* @malloc(i64)
declare zeroext i8 @get_byte(i8* nocapture readonly)
declare void @take_attrs(%big* sret(%big), i8 zeroext, i16 signext, i32 inreg, %big* byval(%big) align 8, i8* noalias nocapture, i8* nonnull dereferenceable(8), i8* dereferenceable_or_null(4), i8* align 16, i32 noundef, i8* nest)
declare i8* @ret_arg(i8* returned)
declare swiftcc void @swift_fn(i8* swiftself, i8** swifterror, i8* swiftasync)
declare void @by_ref(%big* byref(%big), %big* inalloca(%big))
declare fastcc void @fast()
declare webkit_jscc void @webkit()
declare coldcc void @cold()
declare cc10 void @ghc()
declare anyregcc void @anyreg()
declare preserve_mostcc void @pmost()
declare preserve_allcc void @pall()
declare cxx_fast_tlscc void @tls()
declare tailcc void @tail()
declare swifttailcc void @swifttail()
declare cfguard_checkcc void @cfguard()
declare x86_stdcallcc void @stdcall()
declare x86_fastcallcc void @fastcall()
declare x86_thiscallcc void @thiscall()
declare x86_vectorcallcc void @vectorcall()
declare x86_regcallcc void @regcall()
declare x86_64_sysvcc void @sysv()
declare win64cc void @win64()
declare arm_apcscc void @apcs()
declare arm_aapcscc void @aapcs()
declare arm_aapcs_vfpcc void @aapcs_vfp()
declare spir_func void @spir()
declare intel_ocl_bicc void @ocl()
declare cc 1000 void @numbered()
declare aarch64_vector_pcs void @a64_vector()
declare aarch64_sve_vector_pcs void @a64_sve()
declare hhvmcc void @hhvm()
declare hhvm_ccc void @hhvm_c()
declare avr_intrcc void @avr_intr()
declare avr_signalcc void @avr_signal()
declare msp430_intrcc void @msp430_intr()
declare ptx_device void @ptx_dev()
; Entry points: the verifier allows no calls to these.
declare amdgpu_kernel void @amdgpu_kernel()
declare amdgpu_vs void @amdgpu_vs()
declare amdgpu_ps void @amdgpu_ps()
declare amdgpu_cs void @amdgpu_cs()
declare ptx_kernel void @ptx_kernel()
declare spir_kernel void @spir_kernel()
declare x86_intrcc void @x86_intr()
declare void @llvm.va_start(i8*)
declare void @llvm.va_end(i8*)
declare void @llvm.memcpy.p0i8.p0i8.i64(i8* noalias nocapture writeonly, i8* noalias nocapture readonly, i64, i1 immarg)
declare i32 @llvm.ctpop.i32(i32)
declare { i32, i1 } @llvm.sadd.with.overflow.i32(i32, i32)

define i32 @tail_kinds(i32 %x) {
  %a = call i32 @callee(i32 %x)
  %b = tail call i32 @callee(i32 %a)
  %c = notail call i32 @callee(i32 %b)
  %d = musttail call i32 @callee(i32 %c)
  ret i32 %d
}

define void @conventions() {
  call fastcc void @fast()
  call coldcc void @cold()
  call cc10 void @ghc()
  call webkit_jscc void @webkit()
  call anyregcc void @anyreg()
  call preserve_mostcc void @pmost()
  call preserve_allcc void @pall()
  call cxx_fast_tlscc void @tls()
  tail call tailcc void @tail()
  call swifttailcc void @swifttail()
  call cfguard_checkcc void @cfguard()
  call x86_stdcallcc void @stdcall()
  call x86_fastcallcc void @fastcall()
  call x86_thiscallcc void @thiscall()
  call x86_vectorcallcc void @vectorcall()
  call x86_regcallcc void @regcall()
  call x86_64_sysvcc void @sysv()
  call win64cc void @win64()
  call arm_apcscc void @apcs()
  call arm_aapcscc void @aapcs()
  call arm_aapcs_vfpcc void @aapcs_vfp()
  call spir_func void @spir()
  call intel_ocl_bicc void @ocl()
  call cc 1000 void @numbered()
  call aarch64_vector_pcs void @a64_vector()
  call aarch64_sve_vector_pcs void @a64_sve()
  call hhvmcc void @hhvm()
  call hhvm_ccc void @hhvm_c()
  call avr_intrcc void @avr_intr()
  call avr_signalcc void @avr_signal()
  call msp430_intrcc void @msp430_intr()
  call ptx_device void @ptx_dev()
  ret void
}

define void @attributes(i8* %p, i8* %q, %big* %qb) {
  %big = alloca %big, align 8
  %ret = alloca %big, align 8
  %e = alloca swifterror i8*, align 8
  %m = call noalias i8* @malloc(i64 16) #0
  %b = call zeroext i8 @get_byte(i8* nocapture readonly %m) #1
  call void @take_attrs(%big* sret(%big) %ret, i8 zeroext %b, i16 signext -1, i32 inreg 7, %big* byval(%big) align 8 %big, i8* noalias nocapture %p, i8* nonnull dereferenceable(8) %q, i8* dereferenceable_or_null(4) null, i8* align 16 %m, i32 noundef 0, i8* nest null)
  %r = call nonnull dereferenceable(16) i8* @ret_arg(i8* returned %p) #2
  call swiftcc void @swift_fn(i8* swiftself %p, i8** swifterror %e, i8* swiftasync null)
  call void @by_ref(%big* byref(%big) %big, %big* inalloca(%big) %qb)
  call void @sink(i8* %r) #3
  call void @sink(i8* noundef %m) #4
  ret void
}

define i32 @varargs_and_indirect(i32 (i32)* %fp, i32 (i32, ...)* %vfp, i32 %n, ...) {
  %ap = alloca %struct.va_list, align 8
  %ap8 = bitcast %struct.va_list* %ap to i8*
  call void @llvm.va_start(i8* %ap8)
  %first = va_arg i8* %ap8, i32
  %second = va_arg %struct.va_list* %ap, double
  %third = va_arg i8* %ap8, i8*
  call void @llvm.va_end(i8* %ap8)
  %p = call i32 (i8*, ...) @printf(i8* getelementptr inbounds ([4 x i8], [4 x i8]* @fmt, i64 0, i64 0), i32 %first)
  %p2 = call i32 (i8*, ...) @printf(i8* nonnull getelementptr inbounds ([4 x i8], [4 x i8]* @fmt, i64 0, i64 0), double %second, i8* %third, i8 1, i128 -1)
  %cast = call i32 bitcast (i32 (i8*, ...)* @printf to i32 (i8*)*)(i8* %third)
  %i = call i32 %fp(i32 %p)
  %i2 = call fastcc i32 %fp(i32 %i) #1
  %v = call i32 (i32, ...) %vfp(i32 %i2, float 1.000000e+00)
  ret i32 %v
}

define i32 @intrinsics(i8* %d, i8* %s, i32 %x) {
  call void @llvm.memcpy.p0i8.p0i8.i64(i8* align 4 %d, i8* align 4 %s, i64 32, i1 false)
  %c = call i32 @llvm.ctpop.i32(i32 %x)
  %o = call { i32, i1 } @llvm.sadd.with.overflow.i32(i32 %c, i32 1)
  %v = extractvalue { i32, i1 } %o, 0
  ret i32 %v
}

attributes #0 = { nounwind }
attributes #1 = { cold noinline }
attributes #2 = { builtin "call-site"="yes" }
attributes #3 = { nobuiltin nounwind willreturn }
attributes #4 = { "only-string" }
