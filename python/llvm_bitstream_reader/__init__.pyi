"""LLVM bitcode read without LLVM (see the package docstring)."""

from typing import Iterator

from ._native import (
    BitcodeError as BitcodeError,
    Diagnostic as Diagnostic,
    Function as Function,
    Global as Global,
    Instruction as Instruction,
    Module as Module,
    Operand as Operand,
    Remark as Remark,
    Subprogram as Subprogram,
    _Source,
    symbols as symbols,
)

def diagnostics(path_or_bytes: _Source, partial: bool = False) -> Iterator[Diagnostic]: ...
def remarks(path_or_bytes: _Source) -> Iterator[Remark]: ...
