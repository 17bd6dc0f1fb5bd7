; A small module with a Darwin triple: llvm-as emits the bitcode wrapper
; header (magic 0x0B17C0DE) in front of the bitstream for Darwin targets.
; Written for LLVM 14 (typed pointers).
source_filename = "darwin.m"
target datalayout = "e-m:o-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-apple-macosx10.15.0"

%struct._class_t = type opaque

@.str = private unnamed_addr constant [22 x i8] c"hello from darwin %d\0A\00", align 1
@"OBJC_CLASS_$_NSObject" = external global %struct._class_t
@OBJC_CLASSLIST_REFERENCES_ = internal global %struct._class_t* @"OBJC_CLASS_$_NSObject", section "__DATA,__objc_classrefs,regular,no_dead_strip", align 8
@llvm.compiler.used = appending global [1 x i8*] [i8* bitcast (%struct._class_t** @OBJC_CLASSLIST_REFERENCES_ to i8*)], section "llvm.metadata"
@tlv = thread_local global i32 5, align 4

declare i32 @printf(i8*, ...)

define i32 @main(i32 %argc, i8** %argv) #0 {
entry:
  %t = load i32, i32* @tlv, align 4
  %s = add nsw i32 %argc, %t
  %call = call i32 (i8*, ...) @printf(i8* getelementptr inbounds ([22 x i8], [22 x i8]* @.str, i64 0, i64 0), i32 %s)
  ret i32 0
}

attributes #0 = { noinline nounwind optnone ssp uwtable "frame-pointer"="all" "target-cpu"="penryn" }

!llvm.module.flags = !{!0, !1, !2}
!0 = !{i32 2, !"SDK Version", [2 x i32] [i32 10, i32 15]}
!1 = !{i32 1, !"Objective-C Version", i32 2}
!2 = !{i32 1, !"wchar_size", i32 4}
