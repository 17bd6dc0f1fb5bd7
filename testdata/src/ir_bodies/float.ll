; Floating point: every binary operator, fneg, each fast-math flag alone and `fast`,
; on operators, fcmp, select, phi and calls; fcmp with every predicate; constants of
; every floating-point type. No pointers: llvm-as 14, 19 and 22.

declare double @llvm.fma.f64(double, double, double)
declare float @llvm.fabs.f32(float)

define double @fp_binops(double %a, double %b) {
entry:
  %add = fadd double %a, %b
  %sub = fsub double %add, 1.000000e+00
  %mul = fmul double %sub, %b
  %div = fdiv double %mul, -2.500000e-01
  %rem = frem double %div, %a
  %neg = fneg double %rem
  %nnan = fadd nnan double %neg, %a
  %ninf = fsub ninf double %nnan, %b
  %nsz = fmul nsz double %ninf, %a
  %arcp = fdiv arcp double %nsz, %b
  %contract = fadd contract double %arcp, %a
  %afn = fmul afn double %contract, %a
  %reassoc = fadd reassoc double %afn, %b
  %fast = fmul fast double %reassoc, %a
  %some = fadd nnan ninf nsz double %fast, %b
  %negf = fneg fast double %some
  %fma = call fast double @llvm.fma.f64(double %negf, double %a, double %b)
  %fma2 = call reassoc nsz arcp contract afn double @llvm.fma.f64(double %fma, double 0.000000e+00, double -0.000000e+00)
  ret double %fma2
}

define float @fp_select_phi(i1 %c, float %x, float %y) {
entry:
  br i1 %c, label %then, label %join
then:
  %abs = call nnan float @llvm.fabs.f32(float %x)
  br label %join
join:
  %p = phi fast float [ %abs, %then ], [ %y, %entry ]
  %q = phi nsz float [ %x, %then ], [ 0x7FF8000000000000, %entry ]
  %s = select nnan ninf i1 %c, float %p, float %q
  %cmp = fcmp fast olt float %s, 1.000000e+00
  %r = select i1 %cmp, float %s, float 0x7FF0000000000000
  ret float %r
}

define <2 x double> @fp_vectors(<2 x double> %a, <2 x double> %b) {
  %1 = fadd <2 x double> %a, <double 1.000000e+00, double 2.000000e+00>
  %2 = fneg <2 x double> %1
  %3 = fmul arcp <2 x double> %2, %b
  %4 = frem <2 x double> %3, zeroinitializer
  ret <2 x double> %4
}

define i32 @fcmp_predicates(float %a, float %b) {
  %false = fcmp false float %a, %b
  %oeq = fcmp oeq float %a, %b
  %ogt = fcmp ogt float %a, %b
  %oge = fcmp oge float %a, %b
  %olt = fcmp olt float %a, %b
  %ole = fcmp ole float %a, %b
  %one = fcmp one float %a, %b
  %ord = fcmp ord float %a, %b
  %ueq = fcmp ueq float %a, %b
  %ugt = fcmp ugt float %a, %b
  %uge = fcmp uge float %a, %b
  %ult = fcmp ult float %a, %b
  %ule = fcmp ule float %a, %b
  %une = fcmp une float %a, %b
  %uno = fcmp uno float %a, 0.000000e+00
  %true = fcmp true float %a, %b
  %v = fcmp ninf oeq <2 x float> <float 1.000000e+00, float 2.000000e+00>, <float 3.000000e+00, float 4.000000e+00>
  %r0 = zext i1 %false to i32
  %b1 = zext i1 %oeq to i32
  %r1 = add i32 %r0, %b1
  %b2 = zext i1 %ogt to i32
  %r2 = add i32 %r1, %b2
  %b3 = zext i1 %oge to i32
  %r3 = add i32 %r2, %b3
  %b4 = zext i1 %olt to i32
  %r4 = add i32 %r3, %b4
  %b5 = zext i1 %ole to i32
  %r5 = add i32 %r4, %b5
  %b6 = zext i1 %one to i32
  %r6 = add i32 %r5, %b6
  %b7 = zext i1 %ord to i32
  %r7 = add i32 %r6, %b7
  %b8 = zext i1 %ueq to i32
  %r8 = add i32 %r7, %b8
  %b9 = zext i1 %ugt to i32
  %r9 = add i32 %r8, %b9
  %b10 = zext i1 %uge to i32
  %r10 = add i32 %r9, %b10
  %b11 = zext i1 %ult to i32
  %r11 = add i32 %r10, %b11
  %b12 = zext i1 %ule to i32
  %r12 = add i32 %r11, %b12
  %b13 = zext i1 %une to i32
  %r13 = add i32 %r12, %b13
  %b14 = zext i1 %uno to i32
  %r14 = add i32 %r13, %b14
  %b15 = zext i1 %true to i32
  %r15 = add i32 %r14, %b15
  %e = extractelement <2 x i1> %v, i32 1
  %b16 = zext i1 %e to i32
  %r16 = add i32 %r15, %b16
  ret i32 %r16
}

define void @fp_constants(half %h, bfloat %bf, float %f, double %d, x86_fp80 %x, fp128 %q, ppc_fp128 %p) {
  %h1 = fadd half %h, 0xH3C00
  %h2 = fmul half %h1, 0xH7C00
  %h3 = fsub half %h2, 0xHFE00
  %bf1 = fadd bfloat %bf, 0xR3F80
  %bf2 = fmul bfloat %bf1, 0xRFF80
  %f1 = fadd float %f, 0x3FB99999A0000000
  %f2 = fmul float %f1, 1.500000e+00
  %f3 = fdiv float %f2, 0x36A0000000000000
  %f4 = fsub float %f3, 0xFFF0000000000000
  %d1 = fadd double %d, 0x400921FB54442D18
  %d2 = fmul double %d1, 1.000000e+100
  %d3 = fdiv double %d2, 4.940660e-324
  %d4 = fsub double %d3, 0x7FF0000000000001
  %d5 = fadd double %d4, -1.250000e-01
  %x1 = fadd x86_fp80 %x, 0xK3FFF8000000000000000
  %x2 = fmul x86_fp80 %x1, 0xK4000C90FDAA22168C235
  %q1 = fadd fp128 %q, 0xL00000000000000003FFF000000000000
  %q2 = fmul fp128 %q1, 0xL0000000000000000C000000000000000
  %p1 = fadd ppc_fp128 %p, 0xM3FF00000000000000000000000000000
  %p2 = fmul ppc_fp128 %p1, 0xM3FF0000000000000BC90000000000000
  ret void
}
