; Calls returning a pointer to a function: llvm-dis 14 prints the short form (the return
; type, `void ()*`), not the whole function type, unless the callee is variadic.
define void ()* @f(void ()* (i8*, i8*)* %p, i8* %a) {
  %r = call void ()* %p(i8* %a, i8* %a)
  %q = bitcast void ()* (i8*, i8*)* %p to void ()* (i8*)*
  %s = call void ()* %q(i8* %a)
  %v = call void ()* @f2(i8* %a, i8* %a)
  %w = call void ()* (i8*, ...) @f3(i8* %a, i32 1)
  ret void ()* %r
}

declare void ()* @f2(i8*, i8*)

declare void ()* @f3(i8*, ...)
