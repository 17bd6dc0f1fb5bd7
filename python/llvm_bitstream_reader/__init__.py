"""LLVM bitcode read without LLVM.

>>> import llvm_bitstream_reader as lbr
>>> m = lbr.Module.open("module.bc")              # doctest: +SKIP
>>> [f.name for f in m.functions if not f.is_declaration]  # doctest: +SKIP
>>> m.dis(llvm_version=22)                         # doctest: +SKIP

Every object owns the bytes of its file; bodies are decoded when asked for, with the GIL
released. Errors in the input raise :class:`BitcodeError` (a :class:`ValueError`), whose
``offset`` is the byte of the input where the read broke.
"""

from ._native import (
    BitcodeError,
    Function,
    Global,
    Instruction,
    Module,
    Subprogram,
    symbols,
)

__all__ = [
    "BitcodeError",
    "Function",
    "Global",
    "Instruction",
    "Module",
    "Subprogram",
    "symbols",
]
