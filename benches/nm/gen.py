#!/usr/bin/env python3
"""Writes a large LLVM 14 (typed-pointer) .ll module for the --nm benchmark.

    gen.py FUNCTIONS BODY_INSTRUCTIONS > out.ll

Every kind of symbol llvm-nm tells apart appears, in proportions like a big C++ or
Rust program's: defined and internal functions, linkonce_odr ones, declarations, weak
and common variables, constants, aliases. Deterministic: same arguments, same bytes.
"""
import sys

n = int(sys.argv[1])
body = int(sys.argv[2])
w = sys.stdout.write
w('target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"\n')
w('target triple = "x86_64-unknown-linux-gnu"\n\n')
for i in range(n // 4):
    kind = i % 4
    if kind == 0:
        w(f"@g_{i} = global i32 {i}, align 4\n")
    elif kind == 1:
        w(f"@c_{i} = internal constant [4 x i8] c\"abc\\00\", align 1\n")
    elif kind == 2:
        w(f"@w_{i} = weak global i64 {i}, align 8\n")
    else:
        w(f"@m_{i} = common global i32 0, align 4\n")
for i in range(n // 16):
    w(f"declare i32 @ext_{i}(i32)\n")
for i in range(n // 32):
    w(f"@a_{i} = alias i32 (i32), i32 (i32)* @f_{i}\n")
for i in range(n):
    linkage = "" if i % 5 else "linkonce_odr "
    if i % 7 == 3:
        linkage = "internal "
    w(f"define {linkage}i32 @f_{i}(i32 %x0) {{\n")
    for k in range(1, body + 1):
        w(f"  %x{k} = add i32 %x{k-1}, {k * 7 + i}\n")
    if i % 16 == 0 and i // 16 < n // 16:
        w(f"  %r = call i32 @ext_{i // 16}(i32 %x{body})\n  ret i32 %r\n}}\n")
    else:
        w(f"  ret i32 %x{body}\n}}\n")
