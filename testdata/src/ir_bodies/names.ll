; Names: unnamed and named arguments, values and blocks mixed (numbering across
; them), unnamed functions, names that need quotes (spaces, quotes, backslashes,
; leading digits, all digits, non-ASCII bytes, \01 prefixes, and $, which llvm-dis
; quotes although llvm-as takes it bare), names with the characters that need none
; (. - _). No pointers: llvm-as 14, 19 and 22.

define i32 @0(i32, i32 %named) {
  %2 = add i32 %0, %named
  %x = mul i32 %2, 2
  %3 = sub i32 %x, %0
  br label %4
4:
  %5 = add i32 %3, 1
  br label %next
next:
  %6 = add i32 %5, %x
  br label %7
7:
  ret i32 %6
}

define i32 @1(i32 %a) {
entry:
  %r = call i32 @0(i32 %a, i32 2)
  ret i32 %r
}

define i32 @"function with spaces"(i32 %"arg one", i32 %"quote\22inside") {
"first block":
  %"a b" = add i32 %"arg one", %"quote\22inside"
  %"back\\slash" = mul i32 %"a b", 3
  %"1starts.with.digit" = sub i32 %"back\\slash", 1
  %"42" = add i32 %"1starts.with.digit", 1
  %"caf\C3\A9" = xor i32 %"42", 5
  br label %"second block"
"second block":
  %plain.name-with$chars_ok = add i32 %"caf\C3\A9", 0
  ret i32 %plain.name-with$chars_ok
}

define i32 @"\01mangled"(i32 %.dot, i32 %-dash, i32 %$dollar) {
.entry.dot:
  %r = call i32 @"function with spaces"(i32 %.dot, i32 %-dash)
  %s = add i32 %r, %$dollar
  br label %-1
-1:
  ret i32 %s
}

define i32 @named.with.dots-and$dollar_under(i32 %x) {
  %1 = call i32 @"\01mangled"(i32 %x, i32 0, i32 1)
  %2 = call i32 @1(i32 %1)
  ret i32 %2
}
