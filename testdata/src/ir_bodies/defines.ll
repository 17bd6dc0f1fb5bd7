; Function headers: linkage, visibility, DLL storage, dso_local, calling conventions,
; unnamed_addr, address spaces, return and parameter attributes, attribute groups,
; section, partition, comdat, align, gc, prefix and prologue data; declarations with
; the same. No pointers: llvm-as 14, 19 and 22.
target triple = "x86_64-unknown-linux-gnu"

$grouped = comdat any
$own = comdat largest

declare i32 @plain_declare(i32)
declare extern_weak i32 @weak_declare(i32 signext, ...)
declare dllimport void @imported() #1
declare hidden fastcc zeroext i1 @hidden_declare(i8 zeroext, i16 inreg) #0
declare noundef i32 @attrs_declare(i32 noundef signext) #2

define internal i32 @internal_fn(i32 %x) #0 {
  ret i32 %x
}

define private void @private_fn() unnamed_addr {
  ret void
}

define linkonce_odr hidden i32 @linkonce_fn(i32 %x) local_unnamed_addr comdat($grouped) {
  ret i32 %x
}

define weak protected void @weak_fn() section ".text.weak" comdat($own) align 32 {
  ret void
}

define available_externally i32 @avail_fn(i32 %x) {
  ret i32 %x
}

define dso_local dllexport coldcc signext i8 @exported_fn(i8 signext %c, i32 %n) #1 {
  ret i8 %c
}

define weak_odr void @gc_fn() partition "part1" gc "shadow-stack" {
  ret void
}

define void @prefix_fn() prefix i32 123 {
  ret void
}

define void @prologue_fn() prologue i8 -112 {
  ret void
}

define i32 @both_fn(i32 %x) addrspace(1) #2 prefix { i32, i8 } { i32 7, i8 8 } prologue [2 x i8] c"\90\90" {
  ret i32 %x
}

define linkonce void @linkonce_plain() alwaysinline {
  ret void
}

define void @inline_attrs(i32 inreg %a, i64 zeroext %b) nounwind readnone uwtable "frame-pointer"="all" "target-cpu"="x86-64" {
  ret void
}

attributes #0 = { noinline nounwind optnone }
attributes #1 = { cold minsize optsize "no-trapping-math"="true" }
attributes #2 = { alwaysinline norecurse "a"="b" "c" }
