; Constants new in LLVM 22: the ptrtoaddr expression: llvm-as 22.
target datalayout = "e-m:e-p:64:64-p1:64:64:64:32-i64:64-n8:16:32:64-S128"

@g = global [4 x i32] zeroinitializer
@a1 = addrspace(1) global i32 0

declare void @sink(...)

define void @ptrtoaddr_expressions() {
  call void (...) @sink(i64 ptrtoaddr (ptr @g to i64), i32 ptrtoaddr (ptr addrspace(1) @a1 to i32))
  call void (...) @sink(i64 add (i64 ptrtoaddr (ptr getelementptr (i8, ptr @g, i64 8) to i64), i64 1))
  %a = add i64 ptrtoaddr (ptr @g to i64), 1
  ret void
}
