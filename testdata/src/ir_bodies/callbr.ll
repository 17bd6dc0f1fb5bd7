; callbr (asm goto): without and with a result, one and two indirect targets, the
; indirect targets as "!i" constraints (LLVM 16 and later): llvm-as 19 and 22
; (callbr.typed.ll: LLVM 14's form, with blockaddress arguments).

define i32 @asm_goto(i32 %x) {
entry:
  callbr void asm "testl $0, $0; jne ${1:l}", "r,!i,~{dirflag},~{fpsr},~{flags}"(i32 %x)
          to label %normal [label %indirect]
normal:
  %r = callbr i32 asm sideeffect "movl $1, $0; jmp ${2:l}; jmp ${3:l}", "=r,r,!i,!i,~{dirflag},~{fpsr},~{flags}"(i32 %x)
          to label %done [label %indirect, label %other]
indirect:
  ret i32 1
other:
  ret i32 2
done:
  ret i32 %r
}
