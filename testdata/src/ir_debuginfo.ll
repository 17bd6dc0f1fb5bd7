; Metadata and debug info: compile unit, files, subprograms, types (basic,
; derived, composite, enum, array, subroutine), local and global variables,
; lexical blocks, locations, inlined-at chains, expressions, imported
; entities, macros, named metadata, module flags and metadata attachments.
; Written for LLVM 14 (typed pointers).
source_filename = "dbg.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

%struct.pair = type { i32, float }

@gv = dso_local global i32 7, align 4, !dbg !49
@garr = dso_local global [4 x i16] [i16 1, i16 2, i16 3, i16 4], align 2, !dbg !52
@gpair = internal global %struct.pair { i32 1, float 2.0 }, align 4, !dbg !55

declare void @llvm.dbg.declare(metadata, metadata, metadata)
declare void @llvm.dbg.value(metadata, metadata, metadata)
declare void @llvm.dbg.label(metadata)

define dso_local i32 @square(i32 %x) !dbg !20 {
entry:
  call void @llvm.dbg.value(metadata i32 %x, metadata !25, metadata !DIExpression()), !dbg !26
  %m = mul nsw i32 %x, %x, !dbg !27
  ret i32 %m, !dbg !28
}

define dso_local float @use_pair(%struct.pair* %p, i32 %n) !dbg !30 {
entry:
  %p.addr = alloca %struct.pair*, align 8
  %sum = alloca float, align 4
  store %struct.pair* %p, %struct.pair** %p.addr, align 8
  call void @llvm.dbg.declare(metadata %struct.pair** %p.addr, metadata !36, metadata !DIExpression()), !dbg !40
  call void @llvm.dbg.declare(metadata float* %sum, metadata !37, metadata !DIExpression(DW_OP_plus_uconst, 0, DW_OP_deref)), !dbg !40
  %f = getelementptr inbounds %struct.pair, %struct.pair* %p, i32 0, i32 1, !dbg !41
  %v = load float, float* %f, align 4, !dbg !41
  %c = icmp sgt i32 %n, 0, !dbg !42
  br i1 %c, label %then, label %out, !dbg !42
then:
  call void @llvm.dbg.label(metadata !39), !dbg !43
  %sq = mul nsw i32 %n, %n, !dbg !65
  call void @llvm.dbg.value(metadata i32 %sq, metadata !38, metadata !DIExpression(DW_OP_LLVM_fragment, 0, 32)), !dbg !44
  call void @llvm.dbg.value(metadata i32 undef, metadata !38, metadata !DIExpression(DW_OP_constu, 4, DW_OP_minus, DW_OP_stack_value, DW_OP_LLVM_fragment, 32, 32)), !dbg !44
  %sqf = sitofp i32 %sq to float, !dbg !45
  %r = fadd float %v, %sqf, !dbg !45
  store float %r, float* %sum, align 4, !dbg !45
  br label %out, !dbg !46
out:
  %res = phi float [ %v, %entry ], [ %r, %then ], !dbg !47
  ret float %res, !dbg !47, !annotation !60
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!10, !11, !12, !13}
!llvm.ident = !{!14}
!named.extra = !{!60, !61, !62}

!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "hand-written test", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug, enums: !2, retainedTypes: !5, globals: !7, imports: !8, macros: !64, splitDebugInlining: false, nameTableKind: None)
!1 = !DIFile(filename: "dbg.c", directory: "/tmp/testdata", checksumkind: CSK_MD5, checksum: "0123456789abcdef0123456789abcdef")
!2 = !{!3}
!3 = !DICompositeType(tag: DW_TAG_enumeration_type, name: "color", file: !1, line: 3, baseType: !18, size: 32, elements: !4)
!4 = !{!15, !16, !17}
!5 = !{!19}
!7 = !{!49, !52, !55}
!8 = !{!9}
!9 = !DIImportedEntity(tag: DW_TAG_imported_declaration, scope: !0, entity: !20, file: !1, line: 2)
!10 = !{i32 7, !"Dwarf Version", i32 5}
!11 = !{i32 2, !"Debug Info Version", i32 3}
!12 = !{i32 1, !"wchar_size", i32 4}
!13 = !{i32 7, !"frame-pointer", i32 2}
!14 = !{!"clang version 14.0.6 (hand-written)"}
!15 = !DIEnumerator(name: "RED", value: 0, isUnsigned: true)
!16 = !DIEnumerator(name: "GREEN", value: 1, isUnsigned: true)
!17 = !DIEnumerator(name: "BLUE", value: 42, isUnsigned: true)
!18 = !DIBasicType(name: "unsigned int", size: 32, encoding: DW_ATE_unsigned)
!19 = !DIDerivedType(tag: DW_TAG_typedef, name: "uint", file: !1, line: 4, baseType: !18)
!20 = distinct !DISubprogram(name: "square", scope: !1, file: !1, line: 10, type: !21, scopeLine: 10, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !0, retainedNodes: !24)
!21 = !DISubroutineType(types: !22)
!22 = !{!23, !23}
!23 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!24 = !{!25}
!25 = !DILocalVariable(name: "x", arg: 1, scope: !20, file: !1, line: 10, type: !23)
!26 = !DILocation(line: 0, scope: !20)
!27 = !DILocation(line: 11, column: 12, scope: !20)
!28 = !DILocation(line: 11, column: 3, scope: !20)
!30 = distinct !DISubprogram(name: "use_pair", scope: !1, file: !1, line: 20, type: !31, scopeLine: 21, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition, unit: !0, retainedNodes: !35)
!31 = !DISubroutineType(types: !32)
!32 = !{!33, !34, !23}
!33 = !DIBasicType(name: "float", size: 32, encoding: DW_ATE_float)
!34 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !57, size: 64)
!35 = !{!36, !37, !38, !39}
!36 = !DILocalVariable(name: "p", arg: 1, scope: !30, file: !1, line: 20, type: !34)
!37 = !DILocalVariable(name: "sum", scope: !30, file: !1, line: 22, type: !33, align: 32)
!38 = !DILocalVariable(name: "sq", scope: !48, file: !1, line: 24, type: !63, flags: DIFlagArtificial)
!39 = !DILabel(scope: !48, name: "again", file: !1, line: 23)
!40 = !DILocation(line: 20, column: 30, scope: !30)
!41 = !DILocation(line: 22, column: 15, scope: !30)
!42 = !DILocation(line: 23, column: 7, scope: !30)
!43 = !DILocation(line: 23, column: 1, scope: !48)
!44 = !DILocation(line: 24, column: 9, scope: !48)
!45 = !DILocation(line: 25, column: 9, scope: !48, isImplicitCode: true)
!46 = !DILocation(line: 26, column: 5, scope: !48)
!47 = !DILocation(line: 27, column: 3, scope: !30)
!48 = distinct !DILexicalBlock(scope: !30, file: !1, line: 23, column: 14)
!49 = !DIGlobalVariableExpression(var: !50, expr: !DIExpression())
!50 = distinct !DIGlobalVariable(name: "gv", scope: !0, file: !1, line: 5, type: !23, isLocal: false, isDefinition: true)
!52 = !DIGlobalVariableExpression(var: !53, expr: !DIExpression())
!53 = distinct !DIGlobalVariable(name: "garr", scope: !0, file: !1, line: 6, type: !58, isLocal: false, isDefinition: true)
!55 = !DIGlobalVariableExpression(var: !56, expr: !DIExpression(DW_OP_constu, 1, DW_OP_stack_value))
!56 = distinct !DIGlobalVariable(name: "gpair", scope: !0, file: !1, line: 7, type: !57, isLocal: true, isDefinition: true)
!57 = distinct !DICompositeType(tag: DW_TAG_structure_type, name: "pair", file: !1, line: 1, size: 64, elements: !66, identifier: "pair_id")
!58 = !DICompositeType(tag: DW_TAG_array_type, baseType: !59, size: 64, elements: !67)
!59 = !DIBasicType(name: "short", size: 16, encoding: DW_ATE_signed)
!60 = !{!"annotation-a", !"annotation-b"}
!61 = !{i32 1, i64 -1, float 1.5, double 2.5, i1 true, !"str", null, !{}}
!62 = distinct !{!62, !61, i32* @gv}
!63 = !DIDerivedType(tag: DW_TAG_const_type, baseType: !23)
!64 = !{!68}
!65 = !DILocation(line: 11, column: 12, scope: !20, inlinedAt: !44)
!66 = !{!69, !70}
!67 = !{!71}
!68 = !DIMacroFile(file: !1, nodes: !72)
!69 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !57, file: !1, line: 1, baseType: !23, size: 32)
!70 = !DIDerivedType(tag: DW_TAG_member, name: "b", scope: !57, file: !1, line: 1, baseType: !33, size: 32, offset: 32)
!71 = !DISubrange(count: 4)
!72 = !{!73, !74}
!73 = !DIMacro(type: DW_MACINFO_define, line: 1, name: "ANSWER", value: "42")
!74 = !DIMacro(type: DW_MACINFO_undef, line: 2, name: "ANSWER")
