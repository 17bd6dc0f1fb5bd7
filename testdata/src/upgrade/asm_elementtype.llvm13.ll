; Indirect inline-asm operands as LLVM 13 wrote them, without elementtype: LLVM 14 and
; later give each elementtype(<pointee>) as they read the file (llvm-as 13 assembles this).
define i32 @f(i32* %p) {
  %v = call i32 asm "movl $1, $0", "=r,*m"(i32* %p)
  call void asm sideeffect "", "*m,~{memory}"(i32* %p)
  ret i32 %v
}
