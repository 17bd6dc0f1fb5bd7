; The one file with debug info: !dbg locations on instructions (with inlinedAt and
; in lexical blocks), llvm.dbg.value calls (which LLVM 19 and 22 print as #dbg_value
; records), !dbg on the define line, and other metadata attachments beside !dbg.
; No pointers: llvm-as 14, 19 and 22.

declare void @llvm.dbg.value(metadata, metadata, metadata)

define internal i32 @square(i32 %x) !dbg !10 {
entry:
  call void @llvm.dbg.value(metadata i32 %x, metadata !14, metadata !DIExpression()), !dbg !15
  %m = mul nsw i32 %x, %x, !dbg !16
  ret i32 %m, !dbg !16
}

define i32 @sum_squares(i32 %a, i32 %b) !dbg !20 !prof !30 {
entry:
  call void @llvm.dbg.value(metadata i32 %a, metadata !23, metadata !DIExpression()), !dbg !25
  call void @llvm.dbg.value(metadata i32 %b, metadata !24, metadata !DIExpression(DW_OP_constu, 1, DW_OP_plus, DW_OP_stack_value)), !dbg !25
  %inl = mul nsw i32 %a, %a, !dbg !26
  %sq = call i32 @square(i32 %b), !dbg !28
  %s = add nsw i32 %inl, %sq, !dbg !29
  %c = icmp sgt i32 %s, 100, !dbg !29
  br i1 %c, label %big, label %small, !dbg !29, !prof !31
big:
  call void @llvm.dbg.value(metadata i32 undef, metadata !23, metadata !DIExpression()), !dbg !25
  ret i32 100, !dbg !32
small:
  ret i32 %s, !dbg !32
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}

!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "hand written", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug, enums: !2)
!1 = !DIFile(filename: "debuginfo.c", directory: "/testdata/src/ir_bodies")
!2 = !{}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 7, !"Dwarf Version", i32 5}
!5 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!6 = !DISubroutineType(types: !7)
!7 = !{!5, !5}
!10 = distinct !DISubprogram(name: "square", scope: !1, file: !1, line: 1, type: !6, scopeLine: 1, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !13)
!13 = !{!14}
!14 = !DILocalVariable(name: "x", arg: 1, scope: !10, file: !1, line: 1, type: !5)
!15 = !DILocation(line: 1, column: 16, scope: !10)
!16 = !DILocation(line: 1, column: 30, scope: !10)
!20 = distinct !DISubprogram(name: "sum_squares", scope: !1, file: !1, line: 3, type: !21, scopeLine: 3, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !22)
!21 = !DISubroutineType(types: !{!5, !5, !5})
!22 = !{!23, !24}
!23 = !DILocalVariable(name: "a", arg: 1, scope: !20, file: !1, line: 3, type: !5)
!24 = !DILocalVariable(name: "b", arg: 2, scope: !20, file: !1, line: 3, type: !5)
!25 = !DILocation(line: 3, column: 21, scope: !20)
!26 = !DILocation(line: 1, column: 30, scope: !10, inlinedAt: !27)
!27 = distinct !DILocation(line: 4, column: 10, scope: !20)
!28 = !DILocation(line: 4, column: 23, scope: !33)
!29 = !DILocation(line: 4, column: 21, scope: !20)
!30 = !{!"function_entry_count", i64 1000}
!31 = !{!"branch_weights", i32 1, i32 99}
!32 = !DILocation(line: 5, column: 3, scope: !20)
!33 = distinct !DILexicalBlock(scope: !20, file: !1, line: 4, column: 5)
