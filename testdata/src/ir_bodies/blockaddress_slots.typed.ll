; A table of blockaddresses of unnamed blocks in a global initializer: llvm-dis prints
; each block's slot (%4, %6, %8), not its index among the blocks (%2, %3, %4).
@tbl = global [3 x i8*] [i8* blockaddress(@f, %4), i8* blockaddress(@f, %6), i8* blockaddress(@f, %8)]

; A blockaddress of another function's unnamed block, inside a body.
define i8* @other() {
  ret i8* blockaddress(@f, %6)
}

define i32 @f(i8* %0, i32 %1) {
  %a = add i32 %1, 1
  br label %3
3:
  %x = phi i32 [ 0, %2 ], [ %y, %4 ], [ %z, %6 ]
  indirectbr i8* %0, [label %4, label %6, label %8]
4:
  %y = add i32 %x, 1
  %5 = icmp eq i32 %y, 3
  br i1 %5, label %8, label %3
6:
  %z = add i32 %x, 2
  %7 = icmp eq i32 %z, 4
  br i1 %7, label %3, label %8
8:
  ret i32 %x
}
