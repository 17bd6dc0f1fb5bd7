; Itanium exceptions: invoke (void and value results, calling convention, attributes,
; indirect callee, varargs, inline asm that unwinds, operand bundle), landingpad
; (cleanup, catch, filter, empty filter, several clauses), resume.
; Typed pointers: llvm-as 14 (eh_itanium.ll: llvm-as 19 and 22).

@typeinfo_int = external constant i8*
@typeinfo_char = external constant i8*

declare i32 @__gxx_personality_v0(...)
declare void @may_throw(i32)
declare fastcc i32 @may_throw_value(i32 signext)
declare i32 @may_throw_varargs(i32, ...)
declare i8* @__cxa_begin_catch(i8*)
declare void @__cxa_end_catch()

define i32 @eh_itanium(i32 %x, i32 (i32)* %fn) personality i32 (...)* @__gxx_personality_v0 {
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
  %lp = landingpad { i8*, i32 }
          catch i8* bitcast (i8** @typeinfo_int to i8*)
          catch i8* bitcast (i8** @typeinfo_char to i8*)
          catch i8* null
  %exn = extractvalue { i8*, i32 } %lp, 0
  %obj = call i8* @__cxa_begin_catch(i8* %exn)
  call void @__cxa_end_catch()
  ret i32 0
lpad2:
  %lp2 = landingpad { i8*, i32 }
          cleanup
          filter [2 x i8*] [i8* bitcast (i8** @typeinfo_int to i8*), i8* bitcast (i8** @typeinfo_char to i8*)]
          filter [0 x i8*] zeroinitializer
  resume { i8*, i32 } %lp2
}

define void @cleanup_only() personality i32 (...)* @__gxx_personality_v0 {
entry:
  invoke void @may_throw(i32 0)
          to label %done unwind label %lpad
done:
  ret void
lpad:
  %lp = landingpad { i8*, i32 }
          cleanup
  %sel = extractvalue { i8*, i32 } %lp, 1
  %agg = insertvalue { i8*, i32 } poison, i8* null, 0
  %agg2 = insertvalue { i8*, i32 } %agg, i32 %sel, 1
  resume { i8*, i32 } %agg2
}

attributes #0 = { noinline }
