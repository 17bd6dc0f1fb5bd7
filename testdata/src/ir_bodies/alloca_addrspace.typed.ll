; alloca in a target whose stack lives in address space 5 (datalayout A5), with
; explicit addrspace, align and array size. Typed pointers: llvm-as 14
; (alloca_addrspace.ll: llvm-as 19 and 22).
target datalayout = "e-p:64:64-p5:32:32-A5"

define i32 @stack_in_addrspace5(i32 %n) {
  %a = alloca i32, align 4, addrspace(5)
  %b = alloca [8 x i8], i32 %n, align 16, addrspace(5)
  %c = alloca double, addrspace(5)
  store i32 %n, i32 addrspace(5)* %a, align 4
  %p = getelementptr inbounds [8 x i8], [8 x i8] addrspace(5)* %b, i32 1, i32 2
  %cast = addrspacecast i8 addrspace(5)* %p to i8*
  %v = load i32, i32 addrspace(5)* %a, align 4
  ret i32 %v
}
