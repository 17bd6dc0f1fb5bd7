#!/usr/bin/env python3
"""Writes testdata/src/ir_bodies/float_decimal.ll: float and double constants for the
`--dis` differential test of when llvm-dis prints a float in decimal and when in hex.

LLVM prints `APFloat::toString(6, 0, false)` when it reads back equal, and that routine
cuts the exact decimal before it rounds, so values such as 0.999 and 1e-6 print in hex.
The values: short decimals of every magnitude (the ones that trip it), random bit
patterns, subnormals, rounded values near +-1000, and floats. Deterministic (seed 7):
`python3 tools/gen-float-cases/gen.py > testdata/src/ir_bodies/float_decimal.ll`.
"""
import random
import struct

random.seed(7)


def hex_double(v):
    return "0x%016X" % struct.unpack("<Q", struct.pack("<d", v))[0]


def finite(v):
    return v == v and v not in (float("inf"), float("-inf"))


doubles = [0.999, 0.998, 1e-6, 0.9, 1e10, -9.068e23, -741.3, 5e-324, -0.0, 0.0]
while len(doubles) < 400:
    r = random.random()
    if r < 0.4:
        v = float("%.*g" % (random.randint(1, 8), random.uniform(-1, 1) * 10 ** random.randint(-30, 30)))
    elif r < 0.6:
        v = struct.unpack("<d", struct.pack("<Q", random.getrandbits(64)))[0]
    elif r < 0.7:
        v = struct.unpack("<d", struct.pack("<Q", random.getrandbits(52)))[0]
    else:
        v = round(random.uniform(-1000, 1000), random.randint(0, 6))
    if finite(v):
        doubles.append(v)
floats = []
while len(floats) < 200:
    v = float("%.*g" % (random.randint(1, 8), random.uniform(-1, 1) * 10 ** random.randint(-30, 30)))
    try:
        floats.append(struct.unpack("<f", struct.pack("<f", v))[0])
    except OverflowError:
        pass

print("; Made by tools/gen-float-cases/gen.py: when llvm-dis prints a float in decimal, when in hex.")
print("@doubles = global [%d x double] [%s]" % (len(doubles), ", ".join("double " + hex_double(v) for v in doubles)))
print("@floats = global [%d x float] [%s]" % (len(floats), ", ".join("float " + hex_double(v) for v in floats)))
print()
print("define double @scalar(double %x, float %y) {")
print("  %c = fcmp ogt double %x, 0x3FEFF7CED916872B")
print("  %s = select i1 %c, double 0x3EB0C6F7A0B5ED8D, double 9.000000e-01")
print("  %f = fadd float %y, 0x3FB99999A0000000")
print("  ret double %s")
print("}")
