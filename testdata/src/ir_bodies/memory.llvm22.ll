; atomicrmw operations new in LLVM 20 and 21: usub_cond, usub_sat, fmaximum,
; fminimum: llvm-as 22.

define void @new_in_22(ptr %p, ptr %fp, i32 %v, double %d) {
  %cond = atomicrmw usub_cond ptr %p, i32 %v seq_cst, align 4
  %sat = atomicrmw usub_sat ptr %p, i32 1 acq_rel, align 4
  %fmaximum = atomicrmw fmaximum ptr %fp, double %d monotonic, align 8
  %fminimum = atomicrmw volatile fminimum ptr %fp, double 0.000000e+00 syncscope("singlethread") seq_cst, align 8
  ret void
}
