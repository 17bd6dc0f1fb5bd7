; Made by clang-14 -g -O0 -S -emit-llvm from:
;   namespace ns { int x; int y; }
;   using ns::y;
;   int f() { using ns::x; return x; }
;   int g(int a) { if (a) { using ns::y; return y; } return 0; }
; Function-local using-declarations sit in the compile unit's imports; LLVM 17 and later
; move them to their subprograms' retainedNodes as they read the file.
; ModuleID = 'li.cc'
source_filename = "li.cc"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@_ZN2ns1xE = dso_local global i32 0, align 4, !dbg !0
@_ZN2ns1yE = dso_local global i32 0, align 4, !dbg !5

; Function Attrs: mustprogress noinline nounwind optnone uwtable
define dso_local noundef i32 @_Z1fv() #0 !dbg !12 {
  %1 = load i32, i32* @_ZN2ns1xE, align 4, !dbg !30
  ret i32 %1, !dbg !31
}

; Function Attrs: mustprogress noinline nounwind optnone uwtable
define dso_local noundef i32 @_Z1gi(i32 noundef %0) #0 !dbg !19 {
  %2 = alloca i32, align 4
  %3 = alloca i32, align 4
  store i32 %0, i32* %3, align 4
  call void @llvm.dbg.declare(metadata i32* %3, metadata !32, metadata !DIExpression()), !dbg !33
  %4 = load i32, i32* %3, align 4, !dbg !34
  %5 = icmp ne i32 %4, 0, !dbg !34
  br i1 %5, label %6, label %8, !dbg !35

6:                                                ; preds = %1
  %7 = load i32, i32* @_ZN2ns1yE, align 4, !dbg !36
  store i32 %7, i32* %2, align 4, !dbg !37
  br label %9, !dbg !37

8:                                                ; preds = %1
  store i32 0, i32* %2, align 4, !dbg !38
  br label %9, !dbg !38

9:                                                ; preds = %8, %6
  %10 = load i32, i32* %2, align 4, !dbg !39
  ret i32 %10, !dbg !39
}

; Function Attrs: nofree nosync nounwind readnone speculatable willreturn
declare void @llvm.dbg.declare(metadata, metadata, metadata) #1

attributes #0 = { mustprogress noinline nounwind optnone uwtable "frame-pointer"="all" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { nofree nosync nounwind readnone speculatable willreturn }

!llvm.dbg.cu = !{!7}
!llvm.module.flags = !{!22, !23, !24, !25, !26, !27, !28}
!llvm.ident = !{!29}

!0 = !DIGlobalVariableExpression(var: !1, expr: !DIExpression())
!1 = distinct !DIGlobalVariable(name: "x", linkageName: "_ZN2ns1xE", scope: !2, file: !3, line: 1, type: !4, isLocal: false, isDefinition: true)
!2 = !DINamespace(name: "ns", scope: null)
!3 = !DIFile(filename: "li.cc", directory: "/tmp", checksumkind: CSK_MD5, checksum: "d9711a80931e4786e1b751344f957d78")
!4 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!5 = !DIGlobalVariableExpression(var: !6, expr: !DIExpression())
!6 = distinct !DIGlobalVariable(name: "y", linkageName: "_ZN2ns1yE", scope: !2, file: !3, line: 1, type: !4, isLocal: false, isDefinition: true)
!7 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !3, producer: "Debian clang version 14.0.6", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug, globals: !8, imports: !9, splitDebugInlining: false, nameTableKind: None)
!8 = !{!0, !5}
!9 = !{!10, !11, !16}
!10 = !DIImportedEntity(tag: DW_TAG_imported_declaration, scope: !7, entity: !6, file: !3, line: 2)
!11 = !DIImportedEntity(tag: DW_TAG_imported_declaration, scope: !12, entity: !1, file: !3, line: 3)
!12 = distinct !DISubprogram(name: "f", linkageName: "_Z1fv", scope: !3, file: !3, line: 3, type: !13, scopeLine: 3, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !7, retainedNodes: !15)
!13 = !DISubroutineType(types: !14)
!14 = !{!4}
!15 = !{}
!16 = !DIImportedEntity(tag: DW_TAG_imported_declaration, scope: !17, entity: !6, file: !3, line: 4)
!17 = distinct !DILexicalBlock(scope: !18, file: !3, line: 4, column: 23)
!18 = distinct !DILexicalBlock(scope: !19, file: !3, line: 4, column: 20)
!19 = distinct !DISubprogram(name: "g", linkageName: "_Z1gi", scope: !3, file: !3, line: 4, type: !20, scopeLine: 4, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !7, retainedNodes: !15)
!20 = !DISubroutineType(types: !21)
!21 = !{!4, !4}
!22 = !{i32 7, !"Dwarf Version", i32 5}
!23 = !{i32 2, !"Debug Info Version", i32 3}
!24 = !{i32 1, !"wchar_size", i32 4}
!25 = !{i32 7, !"PIC Level", i32 2}
!26 = !{i32 7, !"PIE Level", i32 2}
!27 = !{i32 7, !"uwtable", i32 1}
!28 = !{i32 7, !"frame-pointer", i32 2}
!29 = !{!"Debian clang version 14.0.6"}
!30 = !DILocation(line: 3, column: 31, scope: !12)
!31 = !DILocation(line: 3, column: 24, scope: !12)
!32 = !DILocalVariable(name: "a", arg: 1, scope: !19, file: !3, line: 4, type: !4)
!33 = !DILocation(line: 4, column: 11, scope: !19)
!34 = !DILocation(line: 4, column: 20, scope: !18)
!35 = !DILocation(line: 4, column: 20, scope: !19)
!36 = !DILocation(line: 4, column: 45, scope: !17)
!37 = !DILocation(line: 4, column: 38, scope: !17)
!38 = !DILocation(line: 4, column: 50, scope: !19)
!39 = !DILocation(line: 4, column: 60, scope: !19)
