; icmp samesign (LLVM 20), with predicates and on vectors: llvm-as 22.

define i1 @icmp_samesign(i32 %a, i32 %b, <2 x i8> %v) {
  %ult = icmp samesign ult i32 %a, %b
  %sgt = icmp samesign sgt i32 %a, 10
  %uge = icmp samesign uge i32 %a, %b
  %eq = icmp eq i32 %a, %b
  %vec = icmp samesign ule <2 x i8> %v, <i8 1, i8 2>
  %e = extractelement <2 x i1> %vec, i32 0
  %x = and i1 %ult, %sgt
  %y = or i1 %x, %uge
  %z = xor i1 %y, %eq
  %r = select i1 %z, i1 %e, i1 false
  ret i1 %r
}
