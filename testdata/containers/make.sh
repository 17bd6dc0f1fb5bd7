#!/usr/bin/env bash
# Regenerates the container test inputs in testdata/containers/ from src/a.c and
# src/b.c. Run from anywhere:  bash testdata/containers/make.sh
#
# Tools: clang-14, LLVM 14 (llvm-ar, llvm-cat, llvm-objcopy, llvm-lipo via
# llvm-config-14 --bindir) and GNU ld (binutils) for `ld -r`. Every step is
# deterministic (llvm-ar writes zero timestamps; clang's embedded command line holds
# no paths because the sources are compiled by relative name from src/).
# See README.md in this directory for what each file is.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
SRC="$HERE/src"
OUT="$HERE"

for tool in clang-14 llvm-config-14 ld; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "make.sh: $tool not found (install clang-14, llvm-14, binutils)" >&2
        exit 1
    fi
done
LLVM_BIN="$(llvm-config-14 --bindir)"
AR="$LLVM_BIN/llvm-ar"
CAT="$LLVM_BIN/llvm-cat"
OBJCOPY="$LLVM_BIN/llvm-objcopy"
LIPO="$LLVM_BIN/llvm-lipo"

TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
cd "$SRC"

cc() { clang-14 -O1 -c "$@"; }

# Objects with embedded bitcode (.llvmbc + .llvmcmd; __LLVM,__bitcode + __cmdline).
cc -target x86_64-unknown-linux-gnu -fembed-bitcode=all a.c -o "$OUT/elf_a.o"
cc -target x86_64-unknown-linux-gnu -fembed-bitcode=all b.c -o "$OUT/elf_b.o"
cc -target x86_64-apple-macos10.15 -fembed-bitcode=all a.c -o "$OUT/macho_a.o"
cc -target x86_64-pc-windows-msvc -mno-incremental-linker-compatible -fembed-bitcode=all a.c -o "$OUT/coff_a.obj"
# Objects without bitcode: plain, and with only the marker.
cc -target x86_64-unknown-linux-gnu a.c -o "$OUT/elf_plain.o"
cc -target x86_64-unknown-linux-gnu -fembed-bitcode=marker a.c -o "$OUT/elf_marker.o"

# Mach-O universal binaries of two slices (x86_64 a.c, arm64 b.c). llvm-lipo puts the
# objects' embedded bitcode (wrapped) in the slices, not the objects: macho_fat_bc.o.
# macho_fat.o, of the two objects themselves, is written by hand: a big-endian
# fat_header and two fat_archs (cputype, cpusubtype, offset, size, align 2^3).
cc -target arm64-apple-macos11 -fembed-bitcode=all b.c -o "$TMP/macho_b_arm64.o"
"$LIPO" -create "$OUT/macho_a.o" "$TMP/macho_b_arm64.o" -output "$OUT/macho_fat_bc.o"
be32() { printf '\\x%02x\\x%02x\\x%02x\\x%02x' $(($1 >> 24 & 255)) $(($1 >> 16 & 255)) $(($1 >> 8 & 255)) $(($1 & 255)); }
size0=$(wc -c <"$OUT/macho_a.o")
size1=$(wc -c <"$TMP/macho_b_arm64.o")
off0=48
off1=$(((off0 + size0 + 7) / 8 * 8))
{
    printf "$(be32 0xcafebabe)$(be32 2)"
    printf "$(be32 0x01000007)$(be32 3)$(be32 $off0)$(be32 "$size0")$(be32 3)"
    printf "$(be32 0x0100000c)$(be32 0)$(be32 $off1)$(be32 "$size1")$(be32 3)"
    cat "$OUT/macho_a.o"
    head -c $((off1 - off0 - size0)) /dev/zero
    cat "$TMP/macho_b_arm64.o"
} >"$OUT/macho_fat.o"

# Bare bitcode, and a multi-module file (two modules after one magic).
clang-14 -target x86_64-unknown-linux-gnu -O1 -c -emit-llvm a.c -o "$TMP/a.bc"
clang-14 -target x86_64-unknown-linux-gnu -O1 -c -emit-llvm b.c -o "$TMP/b.bc"
"$CAT" -b -o "$OUT/cat_ab.bc" "$TMP/a.bc" "$TMP/b.bc"

# Archives of the two ELF objects: GNU, BSD and thin (the thin one names elf_a.o and
# elf_b.o, which sit beside it).
rm -f "$OUT/gnu_ab.a" "$OUT/bsd_ab.a" "$OUT/thin_ab.a" "$OUT/mixed.a"
(cd "$OUT" && "$AR" rcs --format=gnu gnu_ab.a elf_a.o elf_b.o)
(cd "$OUT" && "$AR" rcs --format=bsd bsd_ab.a elf_a.o elf_b.o)
(cd "$OUT" && "$AR" rcsT thin_ab.a elf_a.o elf_b.o)
# An archive mixing everything: an object with bitcode, one without, a bare bitcode
# member (as ThinLTO archives hold), a Mach-O object, a text file and a nested archive.
cp "$TMP/b.bc" "$TMP/b_bare.bc"
printf 'not an object\n' >"$TMP/readme.txt"
cp "$OUT/gnu_ab.a" "$TMP/inner.a"
(cd "$OUT" && cp elf_a.o elf_plain.o macho_a.o "$TMP/")
(cd "$TMP" && "$AR" rc --format=gnu "$OUT/mixed.a" elf_a.o elf_plain.o b_bare.bc macho_a.o readme.txt inner.a)

# Linker-concatenated sections: `ld -r` of the two objects holds one .llvmbc with both
# modules one after the other.
ld -r "$OUT/elf_a.o" "$OUT/elf_b.o" -o "$OUT/elf_ld_r_ab.o"
# A section with both modules and zero padding before, between and after them.
"$OBJCOPY" --dump-section .llvmbc="$TMP/a.llvmbc" "$OUT/elf_a.o"
"$OBJCOPY" --dump-section .llvmbc="$TMP/b.llvmbc" "$OUT/elf_b.o"
{
    head -c 8 /dev/zero
    cat "$TMP/a.llvmbc"
    head -c 13 /dev/zero
    cat "$TMP/b.llvmbc"
    head -c 3 /dev/zero
} >"$TMP/padded.llvmbc"
"$OBJCOPY" --remove-section .llvmbc --add-section .llvmbc="$TMP/padded.llvmbc" "$OUT/elf_a.o" "$OUT/elf_padded_ab.o"

echo "make.sh: wrote $(cd "$OUT" && ls ./*.o ./*.obj ./*.a ./*.bc | wc -l) files to $OUT"
