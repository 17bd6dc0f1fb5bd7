; Terminators other than the EH ones: ret (void, scalar, aggregate, vector), br
; (unconditional and conditional), switch (narrow, wide and i128 cases, no cases),
; indirectbr with blockaddress, unreachable; phi with several and repeated
; predecessors, loops. Opaque pointers: llvm-as 19 and 22 (control_flow.typed.ll:
; llvm-as 14).

define void @ret_void() {
  ret void
}

define { i32, float } @ret_aggregate(i32 %x) {
  %a = insertvalue { i32, float } undef, i32 %x, 0
  ret { i32, float } %a
}

define <2 x i8> @ret_vector() {
  ret <2 x i8> <i8 1, i8 -1>
}

define i32 @branches(i1 %c, i32 %x) {
entry:
  br i1 %c, label %then, label %else
then:
  br label %join
else:
  br i1 false, label %join, label %join
join:
  %r = phi i32 [ %x, %then ], [ 0, %else ], [ 0, %else ]
  ret i32 %r
}

define i32 @switches(i32 %x, i8 %b, i128 %w) {
entry:
  switch i32 %x, label %default [
    i32 0, label %zero
    i32 1, label %one
    i32 -2147483648, label %one
    i32 42, label %zero
  ]
zero:
  switch i8 %b, label %default [
    i8 -1, label %one
  ]
one:
  switch i128 %w, label %default [
    i128 18446744073709551616, label %zero
    i128 -170141183460469231731687303715884105728, label %default
  ]
default:
  switch i32 %x, label %done [
  ]
done:
  ret i32 %x
}

define i32 @indirect(i32 %i) {
entry:
  %t = icmp eq i32 %i, 0
  %dest = select i1 %t, ptr blockaddress(@indirect, %a), ptr blockaddress(@indirect, %b)
  indirectbr ptr %dest, [label %a, label %b]
a:
  ret i32 1
b:
  indirectbr ptr blockaddress(@indirect, %a), [label %a]
}

define i64 @loop(i64 %n) {
entry:
  br label %head
head:
  %i = phi i64 [ 0, %entry ], [ %next, %body ]
  %sum = phi i64 [ 0, %entry ], [ %acc, %body ]
  %more = icmp ult i64 %i, %n
  br i1 %more, label %body, label %exit
body:
  %acc = add i64 %sum, %i
  %next = add nuw i64 %i, 1
  br label %head
exit:
  ret i64 %sum
}

define void @dead_end(i1 %c) {
  br i1 %c, label %1, label %2
1:
  unreachable
2:
  ret void
}
