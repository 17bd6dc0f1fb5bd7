"""LLVM bitcode read without LLVM.

>>> import llvm_bitstream_reader as lbr
>>> m = lbr.Module.open("module.bc")              # doctest: +SKIP
>>> [f.name for f in m.functions if not f.is_declaration]  # doctest: +SKIP
>>> m.dis(llvm_version=22)                         # doctest: +SKIP

Every object owns the bytes of its file; bodies are decoded when asked for, with the GIL
released. Errors in the input raise :class:`BitcodeError` (a :class:`ValueError`), whose
``offset`` is the byte of the input where the read broke.
"""

from . import _native
from ._native import (
    BitcodeError,
    Diagnostic,
    Function,
    Global,
    Instruction,
    Module,
    Operand,
    Remark,
    Subprogram,
    symbols,
)


def diagnostics(path_or_bytes, partial=False):
    """The diagnostics of a clang ``.dia`` file, notes after their diagnostic: an iterator
    of :class:`Diagnostic`. A damaged file raises :class:`BitcodeError`; with ``partial``
    it gives what was read before the break."""
    return iter(_native.diagnostics(path_or_bytes, partial))


def remarks(path_or_bytes):
    """The optimization remarks of an LLVM bitstream remarks file: an iterator of
    :class:`Remark`."""
    return iter(_native.remarks(path_or_bytes))


__all__ = [
    "BitcodeError",
    "Diagnostic",
    "Function",
    "Global",
    "Instruction",
    "Module",
    "Operand",
    "Remark",
    "Subprogram",
    "diagnostics",
    "remarks",
    "symbols",
]
