; Windows funclet exceptions: catchswitch (within none and within a pad, unwinding
; to the caller and to a label, several handlers), catchpad with and without
; arguments, catchret, cleanuppad (top level and nested), cleanupret (to the caller
; and to a label), calls and invokes with "funclet" bundles. Typed pointers:
; llvm-as 14 (eh_funclets.ll: llvm-as 19 and 22).
target triple = "x86_64-pc-windows-msvc"

%rtti.TypeDescriptor2 = type { i8**, i8*, [10 x i8] }

@"??_R0H@8" = linkonce_odr global %rtti.TypeDescriptor2 { i8** null, i8* null, [10 x i8] c".H\00\00\00\00\00\00\00\00" }

declare i32 @__CxxFrameHandler3(...)
declare void @may_throw(i32)

define i32 @funclets(i32 %x) personality i32 (...)* @__CxxFrameHandler3 {
entry:
  %slot = alloca i32, align 4
  invoke void @may_throw(i32 %x)
          to label %next unwind label %dispatch
next:
  invoke void @may_throw(i32 1)
          to label %done unwind label %cleanup
dispatch:
  %cs = catchswitch within none [label %catch.int, label %catch.all] unwind label %cleanup
catch.int:
  %cp = catchpad within %cs [%rtti.TypeDescriptor2* @"??_R0H@8", i32 0, i32* %slot]
  call void @may_throw(i32 2) [ "funclet"(token %cp) ]
  catchret from %cp to label %done
catch.all:
  %cp2 = catchpad within %cs [i8* null, i32 64, i8* null]
  invoke void @may_throw(i32 3) [ "funclet"(token %cp2) ]
          to label %caught unwind label %inner.dispatch
caught:
  catchret from %cp2 to label %done
inner.dispatch:
  %cs2 = catchswitch within %cp2 [label %inner.catch] unwind label %cleanup
inner.catch:
  %cp3 = catchpad within %cs2 []
  catchret from %cp3 to label %done
cleanup:
  %cl = cleanuppad within none []
  call void @may_throw(i32 4) [ "funclet"(token %cl) ]
  cleanupret from %cl unwind to caller
done:
  %v = load i32, i32* %slot, align 4
  ret i32 %v
}

define void @nested_cleanup() personality i32 (...)* @__CxxFrameHandler3 {
entry:
  invoke void @may_throw(i32 5)
          to label %done unwind label %outer
outer:
  %o = cleanuppad within none [i32 7]
  invoke void @may_throw(i32 6) [ "funclet"(token %o) ]
          to label %outer.ret unwind label %inner
outer.ret:
  cleanupret from %o unwind label %last
inner:
  %i = cleanuppad within %o []
  cleanupret from %i unwind label %last
last:
  %cs = catchswitch within none [label %h] unwind to caller
h:
  %cp = catchpad within %cs [i8* null, i32 64, i8* null]
  catchret from %cp to label %done
done:
  ret void
}
