"""Type stubs of the native module (python/src/lib.rs)."""

import os
from typing import Any, Dict, List, Optional, Tuple, TypedDict, Union

_Source = Union[str, "os.PathLike[str]", bytes, bytearray, memoryview]

class BitcodeError(ValueError):
    """The input is not what it claims to be; ``offset`` is the byte where the read broke."""

    offset: Optional[int]

class Global:
    """A global variable's name, linkage and value type."""

    name: str
    linkage: str
    type_text: str
    is_constant: bool
    has_initializer: bool

class Operand:
    """One operand of an instruction, as ``llvm-dis-22`` prints it in the module's text."""

    kind: str
    """``argument``, ``instruction``, ``block``, ``global``, ``constant``, ``metadata`` or ``unresolved``."""
    type_text: Optional[str]
    name: Optional[str]
    """A named local's or global's name, without ``%`` or ``@``."""
    slot: Optional[int]
    """The number of an unnamed local (``%3``: 3)."""
    text: str
    """The value as the text prints it, without its type (``%3``, ``@g``, ``getelementptr (…)``)."""

class Instruction:
    """One instruction: its opcode as ``llvm-dis`` names it, where it is, its operands."""

    index: int
    block: int
    opcode: str
    text: str
    line: Optional[int]
    column: Optional[int]
    file: Optional[str]
    callee: Optional[str]
    """The function a direct call calls, by name; None otherwise."""
    @property
    def type_text(self) -> str:
        """Its type as ``llvm-dis-22`` prints it (``void`` for none)."""
    @property
    def operands(self) -> List[Operand]:
        """Its operands as ``llvm-dis-22`` prints them (a call's callee first)."""

class Subprogram:
    """Where a function's ``DISubprogram`` says it is."""

    name: str
    file: Optional[str]
    line: int

class Function:
    """One function of a module: its signature at once, its body decoded when asked for."""

    @property
    def name(self) -> str: ...
    @property
    def linkage(self) -> str: ...
    @property
    def is_declaration(self) -> bool: ...
    @property
    def type_text(self) -> str: ...
    @property
    def instructions(self) -> List[Instruction]: ...
    @property
    def subprogram(self) -> Optional[Subprogram]: ...
    @property
    def opcode_counts(self) -> Dict[str, int]: ...
    @property
    def instruction_count(self) -> int: ...
    def cfg(self) -> List[Tuple[int, int]]:
        """The control-flow graph as ``(from, to)`` block edges (networkx takes it as it is)."""
    @property
    def successors(self) -> List[List[int]]: ...
    @property
    def predecessors(self) -> List[List[int]]:
        """Each block's predecessors, in the order ``llvm-dis`` prints ``; preds =``."""
    def dis(self, llvm_version: int = 22) -> str:
        """The function alone as ``llvm-dis`` prints it within its module."""

class Module:
    """One LLVM IR module of a bitcode file."""

    triple: Optional[str]
    datalayout: Optional[str]
    """The datalayout as LLVM 22 reads it (``UpgradeDataLayoutString``); ``None`` if empty."""
    source_filename: Optional[str]
    producer: Optional[str]
    @staticmethod
    def open(path: Union[str, "os.PathLike[str]"]) -> "Module": ...
    @staticmethod
    def parse(data: Union[bytes, bytearray, memoryview]) -> "Module": ...
    @staticmethod
    def open_all(path: Union[str, "os.PathLike[str]"]) -> List["Module"]: ...
    @staticmethod
    def parse_all(data: Union[bytes, bytearray, memoryview]) -> List["Module"]: ...
    @staticmethod
    def parse_partial(
        data: Union[bytes, bytearray, memoryview],
    ) -> Tuple[List["Module"], Optional[BitcodeError]]:
        """What a damaged or cut input holds before the break, and the error (or None)."""
    @property
    def globals(self) -> List[Global]: ...
    @property
    def functions(self) -> List[Function]: ...
    def dis(self, llvm_version: int = 22, threads: int = 1, module_id: Optional[str] = None) -> str:
        """The whole module as ``llvm-dis`` of LLVM ``llvm_version`` prints it (``module_id``:
        the ``; ModuleID`` line's, by default the path given to ``open``)."""
    def uses(self, name: str) -> List[Use]:
        """Every use of the global value ``name``, followed through constants (KeyError if none has it)."""
    def call_graph(self) -> List[Tuple[str, str]]:
        """The direct calls as ``(caller, callee)`` edges, one per pair (networkx takes it as it is)."""
    def instruction_table(self) -> Any:
        """Every instruction as a ``pyarrow.Table``: function, block, index, opcode, type, operands,
        callee, file, line, column."""
    def function_table(self) -> Any:
        """Every function as a ``pyarrow.Table``: name, linkage, declaration, type, blocks,
        instructions, calls, file, line."""

# One use of a global value (``global`` is a keyword, hence the functional form).
Use = TypedDict(
    "Use",
    {"user": str, "function": Optional[str], "instruction": Optional[int], "global": Optional[str], "via_constant": bool},
)

class Symbol(TypedDict):
    name: str
    type: str
    address: Optional[int]
    size: Optional[int]
    file: str

def symbols(path_or_bytes: _Source, llvm_nm_version: int = 22, debug_syms: bool = False) -> List[Symbol]:
    """The symbols of a file as ``llvm-nm`` of that version lists them."""

class Diagnostic:
    """One clang diagnostic of a ``.dia`` file."""

    level: str
    message: str
    file: Optional[str]
    line: int
    column: int
    category: Optional[str]
    flag: Optional[str]
    depth: int
    formatted: str

def diagnostics(path_or_bytes: _Source, partial: bool = False) -> List[Diagnostic]: ...

class Remark:
    """One LLVM optimization remark."""

    kind: str
    pass_name: str
    name: str
    function: str
    message: str
    file: Optional[str]
    line: int
    column: int
    hotness: Optional[int]

def remarks(path_or_bytes: _Source) -> List[Remark]: ...
