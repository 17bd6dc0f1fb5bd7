; Itanium exceptions: invoke (void and value results, calling convention, attributes,
; indirect callee, varargs, inline asm that unwinds, operand bundle), landingpad
; (cleanup, catch, filter, empty filter, several clauses), resume.
; Opaque pointers: llvm-as 19 and 22 (eh_itanium.typed.ll: llvm-as 14).

@typeinfo_int = external constant ptr
@typeinfo_char = external constant ptr

declare i32 @__gxx_personality_v0(...)
declare void @may_throw(i32)
declare fastcc i32 @may_throw_value(i32 signext)
declare i32 @may_throw_varargs(i32, ...)
declare ptr @__cxa_begin_catch(ptr)
declare void @__cxa_end_catch()

define i32 @eh_itanium(i32 %x, ptr %fn) personality ptr @__gxx_personality_v0 {
entry:
  invoke void @may_throw(i32 %x)
          to label %cont unwind label %lpad
cont:
  %v = invoke fastcc signext i32 @may_throw_value(i32 signext 1) #0
          to label %cont2 unwind label %lpad2
cont2:
  %w = invoke i32 %fn(i32 %v)
          to label %cont3 unwind label %lpad2
cont3:
  %u = invoke i32 (i32, ...) @may_throw_varargs(i32 2, double 1.000000e+00, i8 3) [ "deopt"(i32 %w) ]
          to label %cont4 unwind label %lpad2
cont4:
  invoke void asm sideeffect unwind "call may_throw", "~{dirflag},~{fpsr},~{flags}"()
          to label %ok unwind label %lpad2
ok:
  ret i32 %u
lpad:
  %lp = landingpad { ptr, i32 }
          catch ptr @typeinfo_int
          catch ptr @typeinfo_char
          catch ptr null
  %exn = extractvalue { ptr, i32 } %lp, 0
  %obj = call ptr @__cxa_begin_catch(ptr %exn)
  call void @__cxa_end_catch()
  ret i32 0
lpad2:
  %lp2 = landingpad { ptr, i32 }
          cleanup
          filter [2 x ptr] [ptr @typeinfo_int, ptr @typeinfo_char]
          filter [0 x ptr] zeroinitializer
  resume { ptr, i32 } %lp2
}

define void @cleanup_only() personality ptr @__gxx_personality_v0 {
entry:
  invoke void @may_throw(i32 0)
          to label %done unwind label %lpad
done:
  ret void
lpad:
  %lp = landingpad { ptr, i32 }
          cleanup
  %sel = extractvalue { ptr, i32 } %lp, 1
  %agg = insertvalue { ptr, i32 } poison, ptr null, 0
  %agg2 = insertvalue { ptr, i32 } %agg, i32 %sel, 1
  resume { ptr, i32 } %agg2
}

attributes #0 = { noinline }
