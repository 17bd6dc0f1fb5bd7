; Opaque pointers ("ptr"), assembled with LLVM 14's llvm-as -opaque-pointers.
; Exercises the OPAQUE_POINTER type code and typed load/store/gep/call
; operands that opaque-pointer bitcode requires.
source_filename = "opaque.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

%pair = type { ptr, i64 }

@msg = private unnamed_addr constant [6 x i8] c"ptr!\0A\00"
@head = global %pair { ptr @msg, i64 5 }
@fnptr = global ptr @walk
@as1 = addrspace(1) global ptr addrspace(1) null

declare i32 @puts(ptr nocapture readonly)

define i64 @walk(ptr %p, i64 %n) {
entry:
  %f = getelementptr inbounds %pair, ptr %p, i64 %n, i32 1
  %v = load i64, ptr %f, align 8
  %q = load ptr, ptr %p, align 8
  %c = call i32 @puts(ptr %q)
  %fp = load ptr, ptr @fnptr
  %r = call i64 %fp(ptr %p, i64 0)
  %x = atomicrmw add ptr %f, i64 1 seq_cst
  %cx = cmpxchg ptr %p, ptr null, ptr @msg acq_rel monotonic
  %s = add i64 %v, %r
  ret i64 %s
}
