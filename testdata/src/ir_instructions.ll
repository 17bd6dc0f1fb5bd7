; Instructions and control flow: switch/phi/select, invoke/landingpad/resume,
; Windows EH pads, GC, varargs, atomics, vectors, intrinsics, attributes,
; calling conventions, inline asm, operand bundles, fast-math flags.
; Written for LLVM 14 (typed pointers).
source_filename = "ir_instructions.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

%struct.S = type { i32, double, [3 x i8] }
%struct.va_list = type { i32, i32, i8*, i8* }
%struct.Big = type { [16 x i64] }

@typeinfo_int = external constant i8*
@counter = global i64 0
@table = constant [4 x i32] [i32 10, i32 20, i32 30, i32 40]

declare i32 @__gxx_personality_v0(...)
declare i32 @__CxxFrameHandler3(...)
declare i8* @__cxa_begin_catch(i8*)
declare void @__cxa_end_catch()
declare i32 @llvm.eh.typeid.for(i8*) nounwind readnone
declare void @may_throw(i32)
declare i32 @printf(i8* nocapture readonly, ...)
declare void @llvm.va_start(i8*)
declare void @llvm.va_end(i8*)
declare void @llvm.va_copy(i8*, i8*)
declare void @llvm.memcpy.p0i8.p0i8.i64(i8* noalias nocapture writeonly, i8* noalias nocapture readonly, i64, i1 immarg)
declare void @llvm.memset.p0i8.i64(i8* nocapture writeonly, i8, i64, i1 immarg)
declare i32 @llvm.ctpop.i32(i32)
declare i64 @llvm.bswap.i64(i64)
declare { i32, i1 } @llvm.sadd.with.overflow.i32(i32, i32)
declare double @llvm.fma.f64(double, double, double)
declare <4 x float> @llvm.sqrt.v4f32(<4 x float>)
declare i32 @llvm.vector.reduce.add.v4i32(<4 x i32>)
declare void @llvm.assume(i1)
declare i1 @llvm.expect.i1(i1, i1)
declare void @llvm.lifetime.start.p0i8(i64 immarg, i8* nocapture)
declare void @llvm.lifetime.end.p0i8(i64 immarg, i8* nocapture)
declare i8* @llvm.stacksave()
declare void @llvm.stackrestore(i8*)
declare void @llvm.trap() cold noreturn nounwind
declare void @llvm.gcroot(i8**, i8*)

; ---- switch / phi / select / loops ------------------------------------------
define i32 @classify(i32 %x) #0 {
entry:
  switch i32 %x, label %default [
    i32 0, label %zero
    i32 1, label %small
    i32 2, label %small
    i32 -7, label %neg
    i32 1000000, label %big
  ]
zero:
  br label %done
small:
  %s = shl nuw nsw i32 %x, 2
  br label %done
neg:
  %n = sub nsw i32 0, %x
  br label %done
big:
  %b = udiv exact i32 %x, 1000
  br label %done
default:
  %d = srem i32 %x, 17
  %c = icmp slt i32 %d, 0
  %sel = select i1 %c, i32 -1, i32 %d
  br label %done
done:
  %r = phi i32 [ 0, %zero ], [ %s, %small ], [ %n, %neg ], [ %b, %big ], [ %sel, %default ]
  ret i32 %r
}

define i64 @loop_sum(i32* nocapture readonly %p, i64 %n) #1 {
entry:
  %empty = icmp eq i64 %n, 0
  br i1 %empty, label %exit, label %body, !prof !10
body:
  %i = phi i64 [ 0, %entry ], [ %i.next, %body ]
  %acc = phi i64 [ 0, %entry ], [ %acc.next, %body ]
  %gep = getelementptr inbounds i32, i32* %p, i64 %i
  %v = load i32, i32* %gep, align 4, !tbaa !20
  %v64 = sext i32 %v to i64
  %acc.next = add nsw i64 %acc, %v64
  %i.next = add nuw i64 %i, 1
  %more = icmp ult i64 %i.next, %n
  br i1 %more, label %body, label %exit, !llvm.loop !30
exit:
  %res = phi i64 [ 0, %entry ], [ %acc.next, %body ]
  ret i64 %res
}

; ---- Itanium EH: invoke / landingpad / resume ---------------------------------
define i32 @eh_itanium(i32 %x) personality i8* bitcast (i32 (...)* @__gxx_personality_v0 to i8*) {
entry:
  invoke void @may_throw(i32 %x)
          to label %cont unwind label %lpad
cont:
  invoke void @may_throw(i32 1)
          to label %ok unwind label %lpad2
ok:
  ret i32 0
lpad:
  %lp = landingpad { i8*, i32 }
          catch i8* bitcast (i8** @typeinfo_int to i8*)
          catch i8* null
  %exn = extractvalue { i8*, i32 } %lp, 0
  %sel = extractvalue { i8*, i32 } %lp, 1
  %tid = call i32 @llvm.eh.typeid.for(i8* bitcast (i8** @typeinfo_int to i8*))
  %match = icmp eq i32 %sel, %tid
  br i1 %match, label %catch, label %rethrow
catch:
  %obj = call i8* @__cxa_begin_catch(i8* %exn)
  %ip = bitcast i8* %obj to i32*
  %val = load i32, i32* %ip
  call void @__cxa_end_catch()
  ret i32 %val
lpad2:
  %lp2 = landingpad { i8*, i32 }
          cleanup
          filter [1 x i8*] [i8* bitcast (i8** @typeinfo_int to i8*)]
  resume { i8*, i32 } %lp2
rethrow:
  %agg = insertvalue { i8*, i32 } undef, i8* %exn, 0
  %agg2 = insertvalue { i8*, i32 } %agg, i32 %sel, 1
  resume { i8*, i32 } %agg2
}

; ---- Windows EH: catchswitch / catchpad / cleanuppad -----------------------------
define void @eh_windows() personality i32 (...)* @__CxxFrameHandler3 {
entry:
  invoke void @may_throw(i32 2)
          to label %invoke.cont unwind label %catch.dispatch
invoke.cont:
  invoke void @may_throw(i32 3)
          to label %done unwind label %cleanup
catch.dispatch:
  %cs = catchswitch within none [label %catch] unwind to caller
catch:
  %cp = catchpad within %cs [i8* null, i32 64, i8* null]
  call void @may_throw(i32 4) [ "funclet"(token %cp) ]
  catchret from %cp to label %done
cleanup:
  %cl = cleanuppad within none []
  call void @may_throw(i32 5) [ "funclet"(token %cl) ]
  cleanupret from %cl unwind to caller
done:
  ret void
}

; ---- GC -------------------------------------------------------------------
define void @gc_func(i8* %obj) gc "shadow-stack" {
entry:
  %root = alloca i8*
  call void @llvm.gcroot(i8** %root, i8* null)
  store i8* %obj, i8** %root
  ret void
}

define void @gc_statepoint() gc "statepoint-example" {
  ret void
}

; ---- varargs -----------------------------------------------------------------
define i32 @sum_varargs(i32 %count, ...) {
entry:
  %ap = alloca %struct.va_list, align 8
  %ap2 = alloca %struct.va_list, align 8
  %ap.i8 = bitcast %struct.va_list* %ap to i8*
  %ap2.i8 = bitcast %struct.va_list* %ap2 to i8*
  call void @llvm.va_start(i8* %ap.i8)
  call void @llvm.va_copy(i8* %ap2.i8, i8* %ap.i8)
  %v = va_arg i8* %ap.i8, i32
  call void @llvm.va_end(i8* %ap2.i8)
  call void @llvm.va_end(i8* %ap.i8)
  %r = add i32 %v, %count
  %fmt = alloca [4 x i8]
  store [4 x i8] c"%d\0A\00", [4 x i8]* %fmt
  %fp = getelementptr [4 x i8], [4 x i8]* %fmt, i32 0, i32 0
  %pr = call i32 (i8*, ...) @printf(i8* %fp, i32 %r, double 1.5, i64 7)
  ret i32 %r
}

; ---- atomics -------------------------------------------------------------------
define i64 @atomics(i64* %p, i32* %q) {
  %a = load atomic i64, i64* %p seq_cst, align 8
  %b = load atomic volatile i32, i32* %q acquire, align 4
  store atomic i64 %a, i64* %p release, align 8
  store atomic i32 %b, i32* %q syncscope("singlethread") monotonic, align 4
  store volatile i32 1, i32* %q
  %x1 = atomicrmw xchg i64* %p, i64 1 seq_cst
  %x2 = atomicrmw add i64* %p, i64 2 acq_rel
  %x3 = atomicrmw sub i64* %p, i64 3 acquire
  %x4 = atomicrmw and i64* %p, i64 4 release
  %x5 = atomicrmw nand i64* %p, i64 5 monotonic
  %x6 = atomicrmw or i64* %p, i64 6 seq_cst
  %x7 = atomicrmw xor i64* %p, i64 7 seq_cst
  %x8 = atomicrmw max i64* %p, i64 8 seq_cst
  %x9 = atomicrmw min i64* %p, i64 9 seq_cst
  %x10 = atomicrmw umax i64* %p, i64 10 seq_cst
  %x11 = atomicrmw umin i64* %p, i64 11 seq_cst
  %x12 = atomicrmw volatile add i32* %q, i32 12 syncscope("singlethread") monotonic
  %fp = bitcast i64* %p to double*
  %x13 = atomicrmw fadd double* %fp, double 1.0 seq_cst
  %x14 = atomicrmw fsub double* %fp, double 2.0 seq_cst
  %cx = cmpxchg i64* %p, i64 %a, i64 42 seq_cst seq_cst
  %cx2 = cmpxchg weak volatile i32* %q, i32 0, i32 1 syncscope("singlethread") acq_rel monotonic, align 4
  %ok = extractvalue { i64, i1 } %cx, 1
  fence acquire
  fence syncscope("singlethread") seq_cst
  %r = select i1 %ok, i64 %x1, i64 %x11
  ret i64 %r
}

; ---- vectors ----------------------------------------------------------------
define <4 x float> @vectors(<4 x float> %a, <4 x float> %b, <8 x i16> %c) {
  %add = fadd fast <4 x float> %a, %b
  %mul = fmul nnan ninf <4 x float> %add, <float 2.0, float 2.0, float 2.0, float 2.0>
  %neg = fneg <4 x float> %mul
  %e = extractelement <4 x float> %neg, i32 1
  %ins = insertelement <4 x float> %a, float %e, i64 3
  %shuf = shufflevector <4 x float> %ins, <4 x float> %b, <4 x i32> <i32 0, i32 5, i32 undef, i32 7>
  %cmp = fcmp olt <4 x float> %shuf, %a
  %sel = select <4 x i1> %cmp, <4 x float> %shuf, <4 x float> %a
  %sq = call <4 x float> @llvm.sqrt.v4f32(<4 x float> %sel)
  %ci = bitcast <8 x i16> %c to <4 x i32>
  %red = call i32 @llvm.vector.reduce.add.v4i32(<4 x i32> %ci)
  %redf = sitofp i32 %red to float
  %fin = insertelement <4 x float> %sq, float %redf, i32 0
  %sc = shufflevector <4 x float> %fin, <4 x float> undef, <8 x i32> zeroinitializer
  %lo = shufflevector <8 x float> %sc, <8 x float> poison, <4 x i32> <i32 0, i32 1, i32 2, i32 3>
  ret <4 x float> %lo
}

define <vscale x 4 x i32> @scalable(<vscale x 4 x i32> %a) {
  %r = add <vscale x 4 x i32> %a, %a
  ret <vscale x 4 x i32> %r
}

; ---- conversions, arithmetic, memory --------------------------------------------
define double @arith(i32 %a, i64 %b, float %f, double %d, i8* %mem) #2 {
  %1 = zext i32 %a to i64
  %2 = mul nuw i64 %1, %b
  %3 = lshr exact i64 %2, 3
  %4 = ashr i64 %3, 1
  %5 = xor i64 %4, -1
  %6 = or i64 %5, 255
  %7 = and i64 %6, 65535
  %8 = urem i64 %7, 10
  %9 = sdiv i64 %8, 3
  %10 = uitofp i64 %9 to double
  %11 = fpext float %f to double
  %12 = fadd reassoc nsz arcp contract afn double %10, %11
  %13 = fsub double %12, %d
  %14 = fdiv double %13, 3.0
  %15 = frem double %14, 7.0
  %16 = fptrunc double %15 to float
  %17 = fptosi float %16 to i32
  %18 = fptoui double %15 to i16
  %19 = sext i16 %18 to i32
  %20 = add i32 %17, %19
  %21 = freeze i32 %20
  %22 = icmp sge i32 %21, 0
  %23 = fcmp uno double %d, %d
  %24 = or i1 %22, %23
  %25 = call i1 @llvm.expect.i1(i1 %24, i1 true)
  call void @llvm.assume(i1 true)
  %cnt = call i32 @llvm.ctpop.i32(i32 %21)
  %bs = call i64 @llvm.bswap.i64(i64 %b)
  %ov = call { i32, i1 } @llvm.sadd.with.overflow.i32(i32 %a, i32 %cnt)
  %fma = call double @llvm.fma.f64(double %d, double %d, double %15)
  %buf = alloca [64 x i8], align 16
  %bufp = getelementptr inbounds [64 x i8], [64 x i8]* %buf, i64 0, i64 0
  call void @llvm.lifetime.start.p0i8(i64 64, i8* %bufp)
  call void @llvm.memset.p0i8.i64(i8* align 16 %bufp, i8 0, i64 64, i1 false)
  call void @llvm.memcpy.p0i8.p0i8.i64(i8* %mem, i8* %bufp, i64 64, i1 true)
  call void @llvm.lifetime.end.p0i8(i64 64, i8* %bufp)
  %ss = call i8* @llvm.stacksave()
  %dyn = alloca i32, i32 %a, align 4
  call void @llvm.stackrestore(i8* %ss)
  %pi = ptrtoint i8* %mem to i64
  %ip = inttoptr i64 %pi to double*
  %ld = load double, double* %ip, align 8, !nontemporal !40, !invariant.load !41
  store double %fma, double* %ip, align 8, !nontemporal !40
  %asp = addrspacecast double* %ip to double addrspace(1)*
  %s = alloca %struct.S
  %fld = getelementptr inbounds %struct.S, %struct.S* %s, i32 0, i32 1
  store double %ld, double* %fld
  %agg = load %struct.S, %struct.S* %s
  %ext = extractvalue %struct.S %agg, 1
  br i1 %25, label %t, label %trapbb
t:
  %res = fadd double %ext, %fma
  ret double %res
trapbb:
  call void @llvm.trap()
  unreachable
}

; ---- parameter/return attributes and calling conventions -------------------------
define internal fastcc void @attrs(%struct.S* noalias nocapture sret(%struct.S) align 8 %out,
                                  %struct.Big* byval(%struct.Big) align 8 %big,
                                  i8 zeroext %z, i16 signext %s, i32 inreg %r,
                                  i32* nonnull dereferenceable(16) %nn,
                                  i8* dereferenceable_or_null(8) %dn,
                                  i8* %ret, i32 noundef %nu) #3 {
  %f = getelementptr inbounds %struct.S, %struct.S* %out, i32 0, i32 0
  %z32 = zext i8 %z to i32
  store i32 %z32, i32* %f
  ret void
}

define coldcc i32 @cold_cc() cold noinline optnone {
  ret i32 0
}

define cc 10 i32 @ghc_cc(i32 %a) {
  ret i32 %a
}

define x86_stdcallcc i32 @stdcall_cc(i32 %a) {
  ret i32 %a
}

define swiftcc void @swift_cc(i8* swiftself %self, i8** swifterror %err) {
  ret void
}

define zeroext i1 @ret_attrs(i32 %x) #4 {
  %c = icmp ne i32 %x, 0
  ret i1 %c
}

define i32 @calls(i32 %x) {
  %a = call fastcc i32 @ghc_cc_wrap(i32 %x)
  %b = tail call coldcc i32 @cold_cc()
  %c = notail call i32 @classify(i32 %x) nounwind readnone
  %d = call i32 @classify(i32 %a) [ "deopt"(i32 1, i64 2), "unknown"(i8* null) ]
  %e = call i32 asm sideeffect "add $0, $1", "=r,r,~{dirflag},~{fpsr},~{flags}"(i32 %d)
  %f = call i32 asm inteldialect "mov $0, $1", "=r,r"(i32 %e)
  call void asm sideeffect alignstack "nop", ""()
  %s1 = add i32 %a, %b
  %s2 = add i32 %s1, %c
  %s3 = add i32 %s2, %f
  ret i32 %s3
}

define internal fastcc i32 @ghc_cc_wrap(i32 %x) {
  %r = musttail call fastcc i32 @ghc_cc_wrap2(i32 %x)
  ret i32 %r
}

define internal fastcc i32 @ghc_cc_wrap2(i32 %x) {
  ret i32 %x
}

; ---- callbr, prefix/prologue data, hot/cold, misc function attrs -----------------------
define i32 @with_callbr(i32 %x) {
entry:
  callbr void asm "jmp ${1:l}", "r,X,~{dirflag},~{fpsr},~{flags}"(i32 %x, i8* blockaddress(@with_callbr, %indirect))
          to label %normal [label %indirect]
normal:
  ret i32 0
indirect:
  ret i32 1
}

define void @prefix_data() prefix i32 123456 prologue i8 144 {
  ret void
}

define void @sanitized() sanitize_address sanitize_memory sanitize_thread uwtable ssp "frame-pointer"="all" "target-cpu"="x86-64" "target-features"="+sse2,+cx16" {
  ret void
}

define void @fn_with_section() hot section ".text.special" align 64 {
  ret void
}

attributes #0 = { nounwind readnone willreturn mustprogress "no-trapping-math"="true" }
attributes #1 = { nofree norecurse nosync nounwind readonly uwtable "min-legal-vector-width"="0" }
attributes #2 = { alwaysinline inlinehint nounwind allocsize(0) }
attributes #3 = { noinline nounwind optsize minsize }
attributes #4 = { argmemonly inaccessiblememonly speculatable noreturn nounwind "custom-string-attr"="value" "flag-attr" }

!llvm.module.flags = !{!0, !1}
!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 7, !"uwtable", i32 1}
!10 = !{!"branch_weights", i32 1, i32 2000}
!20 = !{!21, !21, i64 0}
!21 = !{!"int", !22, i64 0}
!22 = !{!"omnipotent char", !23, i64 0}
!23 = !{!"Simple C/C++ TBAA"}
!30 = distinct !{!30, !31, !32}
!31 = !{!"llvm.loop.mustprogress"}
!32 = !{!"llvm.loop.unroll.count", i32 4}
!40 = !{i32 1}
!41 = !{}

define i8* @passthru(i8* returned %p, i32 %k) {
  ret i8* %p
}
