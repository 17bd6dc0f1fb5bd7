; Memory: alloca (align, array size, inalloca, swifterror, scalable), load/store
; (align, volatile, atomic with every ordering, syncscope), fence, cmpxchg, atomicrmw
; (every operation LLVM 14 has), getelementptr (inbounds, structs, vector GEPs),
; pointer icmp. Typed pointers: llvm-as 14 (memory.ll: llvm-as 19 and 22).
target datalayout = "e-m:e-p:64:64-i64:64-n8:16:32:64-S128"

%pair = type { i32, [4 x i16] }
%nest = type { i8, %pair, <2 x float> }
%swift_error = type opaque

define i32 @allocas(i32 %n) {
entry:
  %a = alloca i32
  %b = alloca i64, align 16
  %c = alloca i8, i32 %n
  %d = alloca [4 x %pair], i64 2, align 8
  %e = alloca inalloca <{ i32, i32 }>
  %f = alloca swifterror %swift_error*, align 8
  %g = alloca <vscale x 4 x i32>
  %h = alloca %nest, i16 3
  store i32 %n, i32* %a
  %v = load i32, i32* %a
  ret i32 %v
}

define i64 @loads_stores(i32* %p, i64* %q, <4 x float> addrspace(1)* %r, i8** %pp, %pair* %ps) {
  %1 = load i32, i32* %p, align 4
  %2 = load volatile i64, i64* %q, align 8
  %p8 = bitcast i32* %p to i8*
  %3 = load i8, i8* %p8, align 1, !nontemporal !0
  %4 = load atomic i32, i32* %p unordered, align 4
  %5 = load atomic i32, i32* %p monotonic, align 4
  %6 = load atomic i32, i32* %p acquire, align 4
  %7 = load atomic i64, i64* %q seq_cst, align 8
  %8 = load atomic volatile i64, i64* %q syncscope("singlethread") acquire, align 16
  %pf = bitcast i32* %p to float*
  %9 = load atomic float, float* %pf syncscope("agent") monotonic, align 4
  %10 = load i8*, i8** %pp, align 8, !nonnull !1
  %11 = load <4 x float>, <4 x float> addrspace(1)* %r, align 2
  %12 = load i32, i32* %p, align 4, !range !2
  %13 = load %pair, %pair* %ps
  store i32 %1, i32* %p, align 4
  store volatile i64 %2, i64* %q, align 8
  store atomic i32 %4, i32* %p unordered, align 4
  store atomic i32 %5, i32* %p monotonic, align 4
  store atomic i32 %6, i32* %p release, align 4
  store atomic volatile i64 %7, i64* %q seq_cst, align 8
  store atomic i8* %10, i8** %pp syncscope("singlethread") release, align 8
  store <4 x float> %11, <4 x float> addrspace(1)* %r, align 16
  store %pair %13, %pair* %ps
  store i32 undef, i32* %p
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

define i32 @cmpxchgs(i32* %p, i8** %pp, i32 %old, i32 %new, i8* %a, i8* %b) {
  %1 = cmpxchg i32* %p, i32 %old, i32 %new seq_cst seq_cst
  %2 = cmpxchg weak i32* %p, i32 %old, i32 %new acq_rel acquire
  %3 = cmpxchg volatile i32* %p, i32 %old, i32 %new release monotonic
  %4 = cmpxchg weak volatile i32* %p, i32 %old, i32 %new monotonic monotonic, align 8
  %5 = cmpxchg i32* %p, i32 0, i32 1 acquire acquire
  %6 = cmpxchg i32* %p, i32 %old, i32 %new syncscope("singlethread") seq_cst monotonic
  %7 = cmpxchg i8** %pp, i8* %a, i8* %b acq_rel monotonic
  %v = extractvalue { i32, i1 } %1, 0
  %ok = extractvalue { i32, i1 } %2, 1
  %r = select i1 %ok, i32 %v, i32 0
  ret i32 %r
}

define void @atomicrmws(i32* %p, float* %fp, i32 %v, float %f, i64* %l) {
  %xchg = atomicrmw xchg i32* %p, i32 %v seq_cst
  %add = atomicrmw add i32* %p, i32 1 monotonic
  %sub = atomicrmw sub i32* %p, i32 %v acquire
  %and = atomicrmw and i32* %p, i32 255 release
  %nand = atomicrmw nand i32* %p, i32 %v acq_rel
  %or = atomicrmw or i32* %p, i32 %v seq_cst, align 8
  %xor = atomicrmw volatile xor i32* %p, i32 %v seq_cst
  %max = atomicrmw max i32* %p, i32 %v syncscope("singlethread") monotonic
  %min = atomicrmw min i32* %p, i32 %v monotonic
  %umax = atomicrmw umax i32* %p, i32 %v monotonic
  %umin = atomicrmw umin i32* %p, i32 %v monotonic
  %fadd = atomicrmw fadd float* %fp, float %f seq_cst
  %fsub = atomicrmw fsub float* %fp, float 1.000000e+00 seq_cst
  %xchgf = atomicrmw xchg float* %fp, float %f monotonic
  %wide = atomicrmw add i64* %l, i64 -1 seq_cst, align 8
  ret void
}

define i8* @geps(i8* %p, i64 %i, i32 %j, <4 x i32*> %vp, <4 x i64> %vi) {
  %1 = getelementptr i8, i8* %p, i64 %i
  %c1 = bitcast i8* %1 to i32*
  %2 = getelementptr inbounds i32, i32* %c1, i32 %j
  %c2 = bitcast i32* %2 to %pair*
  %3 = getelementptr %pair, %pair* %c2, i64 1, i32 1, i64 3
  %c3 = bitcast i16* %3 to %nest*
  %4 = getelementptr inbounds %nest, %nest* %c3, i64 0, i32 1, i32 1, i32 %j
  %c4 = bitcast i16* %4 to [10 x [20 x i8]]*
  %5 = getelementptr inbounds [10 x [20 x i8]], [10 x [20 x i8]]* %c4, i64 0, i64 %i, i64 5
  %6 = getelementptr i32, <4 x i32*> %vp, <4 x i64> %vi
  %c5 = bitcast i8* %5 to i32*
  %7 = getelementptr inbounds i32, i32* %c5, <4 x i64> %vi
  %8 = getelementptr i32, <4 x i32*> %6, i64 2
  %c6 = bitcast i8* %5 to <2 x float>*
  %9 = getelementptr <2 x float>, <2 x float>* %c6, i64 %i, i64 1
  %10 = getelementptr float, float* %9
  %c7 = bitcast float* %10 to i8*
  %c = icmp eq i8* %c7, null
  %d = icmp ult i8* %c7, %p
  %e = icmp eq <4 x i32*> %7, %8
  %s = select i1 %c, i8* %p, i8* %c7
  %t = select i1 %d, i8* %s, i8* null
  ret i8* %t
}

!0 = !{i32 1}
!1 = !{}
!2 = !{i32 0, i32 10}
