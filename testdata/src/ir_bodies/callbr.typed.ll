; callbr (asm goto): without and with a result, one and two indirect targets, the
; indirect targets also passed as blockaddress arguments ("X" constraints), as LLVM
; 14 wants them: llvm-as 14 (callbr.ll: llvm-as 19 and 22).

define i32 @asm_goto(i32 %x) {
entry:
  callbr void asm "testl $0, $0; jne ${1:l}", "r,X,~{dirflag},~{fpsr},~{flags}"(i32 %x, i8* blockaddress(@asm_goto, %indirect))
          to label %normal [label %indirect]
normal:
  %r = callbr i32 asm sideeffect "movl $1, $0; jmp ${2:l}; jmp ${3:l}", "=r,r,X,X,~{dirflag},~{fpsr},~{flags}"(i32 %x, i8* blockaddress(@asm_goto, %indirect), i8* blockaddress(@asm_goto, %other))
          to label %done [label %indirect, label %other]
indirect:
  ret i32 1
other:
  ret i32 2
done:
  ret i32 %r
}
