; Inline asm calls (sideeffect, alignstack, inteldialect and their combinations,
; several outputs, tied and memory constraints, escapes in the asm string, tail calls)
; and operand bundles (deopt, custom tags, several bundles, empty ones, cfguardtarget,
; assume bundles, clang.arc.attachedcall, preallocated, gc-live with a statepoint).
; Opaque pointers: llvm-as 19 and 22 (asm_bundles.typed.ll: llvm-as 14).
target triple = "x86_64-unknown-linux-gnu"

declare void @f()
declare void @g(ptr)
declare ptr @make()
declare ptr @objc_retainAutoreleasedReturnValue(ptr)
declare void @use_pre(ptr preallocated(i32))
declare void @llvm.assume(i1)
declare token @llvm.call.preallocated.setup(i32)
declare ptr @llvm.call.preallocated.arg(token, i32)
declare token @llvm.experimental.gc.statepoint.p0(i64, i32, ptr, i32, i32, ...)
declare ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token, i32, i32)

define i32 @inline_asm(i32 %x, ptr %p) {
  call void asm sideeffect "nop", ""()
  call void asm alignstack "nop", "~{memory}"()
  %a = call i32 asm inteldialect "mov $0, $1", "=r,r"(i32 %x)
  call void asm sideeffect alignstack "pause", "~{dirflag},~{fpsr},~{flags}"()
  call void asm sideeffect inteldialect "nop", ""()
  %b = call i32 asm sideeffect alignstack inteldialect "lea $0, [$1 + 1]", "=r,r"(i32 %a)
  %pair = call { i32, i32 } asm "xchgl $0, $1", "=r,=r,0,1,~{dirflag},~{fpsr},~{flags}"(i32 %a, i32 %b)
  %c = extractvalue { i32, i32 } %pair, 0
  call void asm sideeffect "movl $1, $0", "=*m,r,~{dirflag},~{fpsr},~{flags}"(ptr elementtype(i32) %p, i32 %c)
  %d = tail call i32 asm "# tab\09newline\0Aquote\22 dollar$$ $0", "=r,0"(i32 %c) #0
  ret i32 %d
}

define void @bundles(ptr %p, ptr addrspace(1) %obj) gc "statepoint-example" {
  call void @f() [ "deopt"(i32 1, i64 2, ptr %p) ]
  call void @f() [ "deopt"() ]
  call void @f() [ "deopt"(i32 0), "custom"(ptr %p, float 1.000000e+00), "empty"() ]
  call void @g(ptr %p) [ "cfguardtarget"(ptr %p) ]
  call void @llvm.assume(i1 true) [ "align"(ptr %p, i64 16), "nonnull"(ptr %p) ]
  %o = call ptr @make() [ "clang.arc.attachedcall"(ptr @objc_retainAutoreleasedReturnValue) ]
  %t = call token @llvm.call.preallocated.setup(i32 1)
  %a = call ptr @llvm.call.preallocated.arg(token %t, i32 0) preallocated(i32)
  call void @use_pre(ptr preallocated(i32) %a) [ "preallocated"(token %t) ]
  %s = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 0, i32 0, ptr elementtype(void ()) @f, i32 0, i32 0, i32 0, i32 0) [ "gc-live"(ptr addrspace(1) %obj) ]
  %r = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %s, i32 0, i32 0)
  ret void
}

attributes #0 = { nounwind readnone }
