; A callbr to inline asm as clang wrote it before LLVM 15: the indirect destinations are
; passed again as trailing blockaddress arguments with "X" constraints. LLVM 15's reader
; drops those arguments and makes their constraints labels ("!X").
define i32 @one_label(i32 %x) {
entry:
  callbr void asm "jmp ${1:l}", "r,X,~{dirflag},~{fpsr},~{flags}"(i32 %x, i8* blockaddress(@one_label, %indirect))
          to label %normal [label %indirect]

normal:
  ret i32 0

indirect:
  ret i32 1
}

define i32 @two_labels_and_an_output(i32 %x) {
entry:
  %r = callbr i32 asm "mov $1, $0; jmp ${2:l}; jmp ${3:l}", "=r,r,X,X,~{memory}"(i32 %x, i8* blockaddress(@two_labels_and_an_output, %a), i8* blockaddress(@two_labels_and_an_output, %b))
          to label %normal [label %a, label %b]

normal:
  ret i32 %r

a:
  ret i32 1

b:
  ret i32 2
}
