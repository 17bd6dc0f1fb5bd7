; Memory: alloca (align, array size, inalloca, swifterror, scalable), load/store
; (align, volatile, atomic with every ordering, syncscope), fence, cmpxchg, atomicrmw
; (every operation LLVM 14 has), getelementptr (inbounds, structs, vector GEPs),
; pointer icmp. Opaque pointers: llvm-as 19 and 22 (memory.typed.ll: llvm-as 14).
target datalayout = "e-m:e-p:64:64-i64:64-n8:16:32:64-S128"

%pair = type { i32, [4 x i16] }
%nest = type { i8, %pair, <2 x float> }

define i32 @allocas(i32 %n) {
entry:
  %a = alloca i32
  %b = alloca i64, align 16
  %c = alloca i8, i32 %n
  %d = alloca [4 x %pair], i64 2, align 8
  %e = alloca inalloca <{ i32, i32 }>
  %f = alloca swifterror ptr, align 8
  %g = alloca <vscale x 4 x i32>
  %h = alloca %nest, i16 3
  store i32 %n, ptr %a
  %v = load i32, ptr %a
  ret i32 %v
}

define i64 @loads_stores(ptr %p, ptr %q, ptr addrspace(1) %r) {
  %1 = load i32, ptr %p, align 4
  %2 = load volatile i64, ptr %q, align 8
  %3 = load i8, ptr %p, align 1, !nontemporal !0
  %4 = load atomic i32, ptr %p unordered, align 4
  %5 = load atomic i32, ptr %p monotonic, align 4
  %6 = load atomic i32, ptr %p acquire, align 4
  %7 = load atomic i64, ptr %q seq_cst, align 8
  %8 = load atomic volatile i64, ptr %q syncscope("singlethread") acquire, align 16
  %9 = load atomic float, ptr %p syncscope("agent") monotonic, align 4
  %10 = load ptr, ptr %q, align 8, !nonnull !1
  %11 = load <4 x float>, ptr addrspace(1) %r, align 2
  %12 = load i32, ptr %p, align 4, !range !2
  %13 = load %pair, ptr %q
  store i32 %1, ptr %p, align 4
  store volatile i64 %2, ptr %q, align 8
  store atomic i32 %4, ptr %p unordered, align 4
  store atomic i32 %5, ptr %p monotonic, align 4
  store atomic i32 %6, ptr %p release, align 4
  store atomic volatile i64 %7, ptr %q seq_cst, align 8
  store atomic ptr %10, ptr %q syncscope("singlethread") release, align 8
  store <4 x float> %11, ptr addrspace(1) %r, align 16
  store %pair %13, ptr %q
  store i32 undef, ptr %p
  ret i64 %2
}

define void @fences() {
  fence acquire
  fence release
  fence acq_rel
  fence seq_cst
  fence syncscope("singlethread") seq_cst
  fence syncscope("workgroup") acquire
  ret void
}

define i32 @cmpxchgs(ptr %p, ptr %pp, i32 %old, i32 %new, ptr %a, ptr %b) {
  %1 = cmpxchg ptr %p, i32 %old, i32 %new seq_cst seq_cst
  %2 = cmpxchg weak ptr %p, i32 %old, i32 %new acq_rel acquire
  %3 = cmpxchg volatile ptr %p, i32 %old, i32 %new release monotonic
  %4 = cmpxchg weak volatile ptr %p, i32 %old, i32 %new monotonic monotonic, align 8
  %5 = cmpxchg ptr %p, i32 0, i32 1 acquire acquire
  %6 = cmpxchg ptr %p, i32 %old, i32 %new syncscope("singlethread") seq_cst monotonic
  %7 = cmpxchg ptr %pp, ptr %a, ptr %b acq_rel monotonic
  %v = extractvalue { i32, i1 } %1, 0
  %ok = extractvalue { i32, i1 } %2, 1
  %r = select i1 %ok, i32 %v, i32 0
  ret i32 %r
}

define void @atomicrmws(ptr %p, ptr %q, ptr %fp, i32 %v, float %f, ptr %x) {
  %xchg = atomicrmw xchg ptr %p, i32 %v seq_cst
  %add = atomicrmw add ptr %p, i32 1 monotonic
  %sub = atomicrmw sub ptr %p, i32 %v acquire
  %and = atomicrmw and ptr %p, i32 255 release
  %nand = atomicrmw nand ptr %p, i32 %v acq_rel
  %or = atomicrmw or ptr %p, i32 %v seq_cst, align 8
  %xor = atomicrmw volatile xor ptr %p, i32 %v seq_cst
  %max = atomicrmw max ptr %p, i32 %v syncscope("singlethread") monotonic
  %min = atomicrmw min ptr %p, i32 %v monotonic
  %umax = atomicrmw umax ptr %p, i32 %v monotonic
  %umin = atomicrmw umin ptr %p, i32 %v monotonic
  %fadd = atomicrmw fadd ptr %fp, float %f seq_cst
  %fsub = atomicrmw fsub ptr %fp, float 1.000000e+00 seq_cst
  %xchgp = atomicrmw xchg ptr %q, ptr %x acquire
  %xchgf = atomicrmw xchg ptr %fp, float %f monotonic
  %wide = atomicrmw add ptr %q, i64 -1 seq_cst, align 8
  ret void
}

define ptr @geps(ptr %p, i64 %i, i32 %j, <4 x ptr> %vp, <4 x i64> %vi) {
  %1 = getelementptr i8, ptr %p, i64 %i
  %2 = getelementptr inbounds i32, ptr %1, i32 %j
  %3 = getelementptr %pair, ptr %2, i64 1, i32 1, i64 3
  %4 = getelementptr inbounds %nest, ptr %3, i64 0, i32 1, i32 1, i32 %j
  %5 = getelementptr inbounds [10 x [20 x i8]], ptr %4, i64 0, i64 %i, i64 5
  %6 = getelementptr i32, <4 x ptr> %vp, <4 x i64> %vi
  %7 = getelementptr inbounds i32, ptr %5, <4 x i64> %vi
  %8 = getelementptr i32, <4 x ptr> %6, i64 2
  %9 = getelementptr <2 x float>, ptr %5, i64 %i, i64 1
  %10 = getelementptr i8, ptr %9
  %c = icmp eq ptr %10, null
  %d = icmp ult ptr %10, %p
  %e = icmp eq <4 x ptr> %7, %8
  %s = select i1 %c, ptr %p, ptr %10
  %t = select i1 %d, ptr %s, ptr null
  ret ptr %t
}

!0 = !{i32 1}
!1 = !{}
!2 = !{i32 0, i32 10}
