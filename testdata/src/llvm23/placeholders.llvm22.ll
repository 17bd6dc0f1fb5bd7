; The LLVM 22 module crates/bitstream-dump/tests/llvm23.rs rewrites, record for record, into
; what LLVM 23's BitcodeWriter writes for the same module with its new content: `i7` is
; the placeholder of `b8` and `i100` of `b128` (TYPE_CODE_BYTE); their constants become
; CST_CODE_BYTE / CST_CODE_WIDE_BYTE, and the `[3 x i7]` array a CSTRING of `b8`;
; `atomicrmw fmax`/`fmin` become `fmaximumnum`/`fminimumnum` (RMW 21, 22); `cold` becomes
; `nooutline` (107) and `alignstack=16` `denormal_fpenv` (106); MODULE_CODE_ASM_PROPERTY
; and MODULE_CODE_GUIDLIST records are added. Assembled by llvm-as-22 at test time.
target triple = "x86_64-unknown-linux-gnu"

module asm "nop"

@byte = global i7 5
@byte_neg = global i7 -1
@zero = global i7 0
@splat = global <2 x i7> <i7 3, i7 3>
@wide = global i100 36893488147419103232
@string = constant [3 x i7] [i7 97, i7 98, i7 0]

define float @rmw(ptr %p, float %v) #0 {
  %max = atomicrmw fmax ptr %p, float %v seq_cst
  %min = atomicrmw fmin ptr %p, float %v seq_cst
  ret float %max
}

attributes #0 = { cold alignstack=16 }
