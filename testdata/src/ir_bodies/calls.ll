; call: tail/musttail/notail, calling conventions, parameter and return attributes,
; call-site function attributes, varargs and indirect callees, va_arg, intrinsics.
; Opaque pointers: llvm-as 19 and 22 (calls.typed.ll: llvm-as 14).
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

%big = type { [8 x i64] }
%struct.va_list = type { i32, i32, ptr, ptr }

@fmt = private unnamed_addr constant [4 x i8] c"%d\0A\00"

declare i32 @callee(i32)
declare void @sink(ptr)
declare i32 @printf(ptr, ...)
declare noalias ptr @malloc(i64)
declare zeroext i8 @get_byte(ptr nocapture readonly)
declare void @take_attrs(ptr sret(%big), i8 zeroext, i16 signext, i32 inreg, ptr byval(%big) align 8, ptr noalias nocapture, ptr nonnull dereferenceable(8), ptr dereferenceable_or_null(4), ptr align 16, i32 noundef, ptr nest)
declare ptr @ret_arg(ptr returned)
declare swiftcc void @swift_fn(ptr swiftself, ptr swifterror, ptr swiftasync)
declare void @by_ref(ptr byref(%big), ptr inalloca(%big))
declare fastcc void @fast()
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
declare void @llvm.va_start.p0(ptr)
declare void @llvm.va_end.p0(ptr)
declare void @llvm.memcpy.p0.p0.i64(ptr noalias nocapture writeonly, ptr noalias nocapture readonly, i64, i1 immarg)
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

define void @attributes(ptr %p, ptr %q) {
  %big = alloca %big, align 8
  %ret = alloca %big, align 8
  %e = alloca swifterror ptr, align 8
  %m = call noalias ptr @malloc(i64 16) #0
  %b = call zeroext i8 @get_byte(ptr nocapture readonly %m) #1
  call void @take_attrs(ptr sret(%big) %ret, i8 zeroext %b, i16 signext -1, i32 inreg 7, ptr byval(%big) align 8 %big, ptr noalias nocapture %p, ptr nonnull dereferenceable(8) %q, ptr dereferenceable_or_null(4) null, ptr align 16 %m, i32 noundef 0, ptr nest null)
  %r = call nonnull dereferenceable(16) ptr @ret_arg(ptr returned %p) #2
  call swiftcc void @swift_fn(ptr swiftself %p, ptr swifterror %e, ptr swiftasync null)
  call void @by_ref(ptr byref(%big) %big, ptr inalloca(%big) %q)
  call void @sink(ptr %r) #3
  call void @sink(ptr noundef %m) #4
  ret void
}

define i32 @varargs_and_indirect(ptr %fp, ptr %vfp, i32 %n, ...) {
  %ap = alloca %struct.va_list, align 8
  call void @llvm.va_start.p0(ptr %ap)
  %first = va_arg ptr %ap, i32
  %second = va_arg ptr %ap, double
  %third = va_arg ptr %ap, ptr
  call void @llvm.va_end.p0(ptr %ap)
  %p = call i32 (ptr, ...) @printf(ptr @fmt, i32 %first)
  %p2 = call i32 (ptr, ...) @printf(ptr nonnull @fmt, double %second, ptr %third, i8 1, i128 -1)
  %i = call i32 %fp(i32 %p)
  %i2 = call fastcc i32 %fp(i32 %i) #1
  %v = call i32 (i32, ...) %vfp(i32 %i2, float 1.000000e+00)
  ret i32 %v
}

define i32 @intrinsics(ptr %d, ptr %s, i32 %x) {
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %d, ptr align 4 %s, i64 32, i1 false)
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
