; A subtype met twice in one struct is walked at its last place (TypeFinder marks as it
; pushes, last subtype first): %T prints after %U and %V, not before.
%A = type { %T, i32, %U, %T, [2 x %W] }
%T = type { i32 }
%U = type { %V }
%V = type { i64, %T, %W }
%W = type { i8, %T }

@g = global %A zeroinitializer
