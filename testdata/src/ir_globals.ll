; Globals, linkages, comdats, aliases, ifuncs, TLS, sections and constants of
; many kinds. Written for LLVM 14 (typed pointers).
source_filename = "ir_globals.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

module asm ".globl module_asm_sym"
module asm "module_asm_sym = 42"

%struct.Point = type { i32, i32 }
%struct.Mixed = type { i8, i16, i32, i64, float, double, [4 x i8], %struct.Point*, <4 x i32> }
%struct.Packed = type <{ i8, i32, i8 }>
%struct.Opaque = type opaque
%struct.Node = type { i32, %struct.Node* }
%union.U = type { [2 x i64] }

$comdat_any = comdat any
$comdat_exact = comdat exactmatch
$comdat_largest = comdat largest
$comdat_nodup = comdat nodeduplicate
$comdat_same = comdat samesize

; ---- integer / float scalars ---------------------------------------------
@g_i1 = global i1 true
@g_i8 = global i8 -128
@g_i16 = internal global i16 12345
@g_i32 = dso_local global i32 -1, align 4
@g_i64 = global i64 9223372036854775807, align 8
@g_i128 = global i128 170141183460469231731687303715884105727
@g_i33 = private global i33 4294967297
@g_wide = global i256 -57896044618658097711785492504343953926634992332820282019728792003956564819968
@g_half = global half 0xH3C00
@g_bfloat = global bfloat 0xR3F80
@g_float = global float 0x400921FB60000000
@g_double = global double -2.718281828459045
@g_x86fp80 = global x86_fp80 0xK4000C90FDAA22168C235
@g_fp128 = global fp128 0xL00000000000000004000921FB54442D1
@g_ppcfp128 = global ppc_fp128 0xM3FF00000000000000000000000000000
@g_nan = global double 0x7FF8000000000000
@g_inf = global float 0x7FF0000000000000
@g_negzero = global double -0.0

; ---- aggregates -------------------------------------------------------------
@g_str = private unnamed_addr constant [14 x i8] c"hello, world!\00", align 1
@g_str2 = constant [6 x i8] c"\00\01\FF\7Fab"
@g_wstr = constant [4 x i16] [i16 104, i16 105, i16 33, i16 0]
@g_arr = global [5 x i32] [i32 1, i32 2, i32 3, i32 5, i32 8], align 16
@g_arr2d = global [2 x [3 x i8]] [[3 x i8] c"abc", [3 x i8] zeroinitializer]
@g_farr = constant [3 x float] [float 1.0, float -0.5, float 0x3FB99999A0000000]
@g_darr = constant [2 x double] [double 1.0e+100, double 5.0e-324]
@g_point = global %struct.Point { i32 3, i32 -4 }
@g_points = global [2 x %struct.Point] [%struct.Point { i32 1, i32 2 }, %struct.Point zeroinitializer]
@g_mixed = global %struct.Mixed { i8 1, i16 2, i32 3, i64 4, float 5.0, double 6.0, [4 x i8] c"wxyz", %struct.Point* @g_point, <4 x i32> <i32 0, i32 1, i32 2, i32 3> }
@g_packed = global %struct.Packed <{ i8 1, i32 2, i8 3 }>, align 1
@g_anon = global { i32, [2 x i8], { float, double } } { i32 7, [2 x i8] c"hi", { float, double } { float 1.5, double 2.5 } }
@g_vec = global <8 x i16> <i16 1, i16 2, i16 3, i16 4, i16 5, i16 6, i16 7, i16 8>
@g_vecf = global <2 x double> <double 1.0, double 2.0>
@g_vecsplat = global <4 x float> <float 1.0, float 1.0, float 1.0, float 1.0>
@g_zero = global [100 x i64] zeroinitializer
@g_undef = global i32 undef
@g_poison = global <2 x i32> <i32 poison, i32 1>
@g_null = global i8* null
@g_union = global %union.U zeroinitializer
@g_list2 = global %struct.Node { i32 2, %struct.Node* null }
@g_list1 = global %struct.Node { i32 1, %struct.Node* @g_list2 }
@g_opaque = external global %struct.Opaque

; ---- constant expressions ---------------------------------------------------
@g_gep = global i32* getelementptr inbounds ([5 x i32], [5 x i32]* @g_arr, i64 0, i64 3)
@g_gep2 = global i8* getelementptr (i8, i8* getelementptr inbounds ([14 x i8], [14 x i8]* @g_str, i32 0, i32 0), i64 7)
@g_bitcast = global i8* bitcast (%struct.Point* @g_point to i8*)
@g_ptrtoint = global i64 ptrtoint (i32* @g_i32 to i64)
@g_inttoptr = global i32* inttoptr (i64 4096 to i32*)
@g_sizeof = global i64 ptrtoint (%struct.Mixed* getelementptr (%struct.Mixed, %struct.Mixed* null, i32 1) to i64)
@g_sub = global i64 sub (i64 ptrtoint (i32* @g_i32 to i64), i64 ptrtoint (i64* @g_i64 to i64))
@g_cmp = global i1 icmp eq (i32* @g_i32, i32* null)
@g_select = global i32 select (i1 icmp ult (i32* @g_i32, i32* getelementptr ([5 x i32], [5 x i32]* @g_arr, i64 0, i64 0)), i32 10, i32 20)
@g_trunc = global i8 trunc (i64 ptrtoint (i32* @g_i32 to i64) to i8)
@g_addrspace = global i8 addrspace(1)* addrspacecast (i8* getelementptr inbounds ([14 x i8], [14 x i8]* @g_str, i32 0, i32 0) to i8 addrspace(1)*)
@g_extract = global i16 extractelement (<8 x i16> <i16 1, i16 2, i16 3, i16 4, i16 5, i16 6, i16 7, i16 8>, i32 2)
@g_fptable = global [3 x void ()*] [void ()* @f_default, void ()* @f_hidden, void ()* null]
@g_blockaddr = global i8* blockaddress(@f_blockaddr, %target)

; ---- linkages, visibility, attributes --------------------------------------
@g_common = common global i32 0, align 4
@g_weak = weak global i32 1
@g_weak_odr = weak_odr global i32 2
@g_linkonce = linkonce global i32 3
@g_linkonce_odr = linkonce_odr unnamed_addr constant i32 4
@g_available = available_externally global i32 5
@g_appending = appending global [1 x i8*] [i8* null]
@g_extern_weak = extern_weak global i32
@g_external = external global i64
@g_hidden = hidden global i32 6
@g_protected = protected global i32 7
@g_dllexport = dllexport global i32 8
@g_local_unnamed = local_unnamed_addr global i32 9
@g_ext_init = externally_initialized global i32 10
@g_addrspace_global = addrspace(3) global i32 11
@g_partition = global i32 12, partition "part1"
@g_attrs = global i32 13 #0
@g_md = global i32 14, !type !0, !custom !1

; ---- TLS -------------------------------------------------------------------
@tls_gd = thread_local global i32 1
@tls_ld = thread_local(localdynamic) global i32 2
@tls_ie = thread_local(initialexec) global i32 3
@tls_le = internal thread_local(localexec) global i64 4

; ---- sections and comdats --------------------------------------------------
@g_section = global i32 15, section ".data.custom", align 32
@g_comdat_any = linkonce_odr global i32 16, comdat($comdat_any)
@comdat_exact = weak_odr global i32 17, comdat
@g_comdat_largest = linkonce global [4 x i32] zeroinitializer, comdat($comdat_largest)
@g_comdat_nodup = global i32 18, comdat($comdat_nodup)
@g_comdat_same = linkonce_odr global i64 19, comdat($comdat_same)

; ---- ctors/dtors, used ---------------------------------------------------
@llvm.global_ctors = appending global [1 x { i32, void ()*, i8* }] [{ i32, void ()*, i8* } { i32 65535, void ()* @f_default, i8* null }]
@llvm.global_dtors = appending global [1 x { i32, void ()*, i8* }] [{ i32, void ()*, i8* } { i32 101, void ()* @f_hidden, i8* bitcast (i32* @g_i32 to i8*) }]
@llvm.used = appending global [2 x i8*] [i8* bitcast (i32* @g_hidden to i8*), i8* bitcast (void ()* @f_internal to i8*)], section "llvm.metadata"
@llvm.compiler.used = appending global [1 x i8*] [i8* bitcast (i32* @g_protected to i8*)], section "llvm.metadata"

; ---- aliases and ifuncs ----------------------------------------------------
@a_simple = alias i32, i32* @g_i32
@a_hidden = hidden alias i32, i32* @g_hidden
@a_weak = weak alias i64, i64* @g_i64
@a_internal = internal alias i32, i32* @g_i32
@a_gep = alias i32, getelementptr inbounds ([5 x i32], [5 x i32]* @g_arr, i64 0, i64 2)
@a_func = alias void (), void ()* @f_default
@a_tls = thread_local alias i32, i32* @tls_gd
@a_of_alias = alias i32, i32* @a_simple
@a_partition = alias i32, i32* @g_partition, partition "part1"

@i_func = ifunc i32 (i32), i32 (i32)* ()* @resolver
@i_internal = internal ifunc void (), void ()* ()* @resolver2

define internal i32 (i32)* @resolver() {
  ret i32 (i32)* @impl
}

define internal void ()* @resolver2() {
  ret void ()* @f_internal
}

define internal i32 @impl(i32 %x) {
  %r = mul nsw i32 %x, 3
  ret i32 %r
}

define void @f_default() {
  ret void
}

define hidden void @f_hidden() section ".text.hidden" align 16 {
  ret void
}

define internal void @f_internal() {
  ret void
}

define linkonce_odr void @f_comdat() comdat($comdat_any) {
  ret void
}

define i32 @f_blockaddr(i32 %sel) {
entry:
  %c = icmp eq i32 %sel, 0
  br i1 %c, label %target, label %other
target:
  ret i32 1
other:
  indirectbr i8* blockaddress(@f_blockaddr, %target), [label %target]
}

define i32 @uses_everything() {
  %a = load i32, i32* @a_simple
  %b = call i32 @i_func(i32 %a)
  %t = load i32, i32* @tls_ld
  %u = load i64, i64* @tls_le
  %u32 = trunc i64 %u to i32
  %s = add i32 %b, %t
  %s2 = add i32 %s, %u32
  call void @i_internal()
  call void dso_local_equivalent @f_default()
  store void ()* dso_local_equivalent @f_hidden, void ()** getelementptr inbounds ([3 x void ()*], [3 x void ()*]* @g_fptable, i64 0, i64 2)
  %p = load i8*, i8** @g_null
  %o = load i32, i32* bitcast (%struct.Opaque* @g_opaque to i32*)
  %s3 = add i32 %s2, %o
  ret i32 %s3
}

declare extern_weak void @f_extern_weak()
declare dllimport void @f_dllimport()

attributes #0 = { "bss-section"=".bss.custom" "data-section"=".data.attr" }

!0 = !{i64 0, !"typeid1"}
!1 = !{!"custom global metadata", i32 42}
