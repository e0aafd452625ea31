"""Declarative assembly formats of xDSL's and our dialects compiled on first use.

xDSL compiles an op's `assembly_format` string into a parser/printer program when the op class is
defined (`irdl_op_definition`): ~40% of building a dialect's classes (~30 ms of the llvm, arith,
linalg, math, memref, tensor, cf and scf dialects that a first compile imports), although a compile
never parses or prints most of those ops. `install()` (run once when `minixla.dialects` is imported)
wraps xDSL's `get_accessors_from_op_def` so that, for op classes defined in `xdsl.dialects.*` or
`minixla.dialects.*`, the program is compiled the first time the op is parsed or printed, from the
same string with the same xDSL code. Nothing else changes: the op's `parse`/`print` give what the
eager program gave. Op classes defined anywhere else (a user's or a plugin's dialect) keep xDSL's
eager compile, so a malformed format still fails where it is written; `compile_all` compiles every
deferred program (tests/dialects/test_lazy_formats.py runs it over all dialects: none fails).
"""

from __future__ import annotations

import sys

from xdsl.irdl import operations as _operations

_SCOPE = ("xdsl.dialects.", "minixla.dialects.")
_original = _operations.get_accessors_from_op_def
#: the op classes whose program is deferred (for compile_all and tests)
DEFERRED: list[type] = []


class _LazyProgram:
    """`FormatProgram.from_str(fmt, op_def)`, built on the first parse or print, with the op class's
    definition (`cls.get_irdl_definition()`: op_definitions builds it on first use too)."""

    __slots__ = ("fmt", "cls", "program")

    def __init__(self, fmt: str, cls: type) -> None:
        self.fmt, self.cls, self.program = fmt, cls, None

    def get(self):
        if self.program is None:
            from xdsl.irdl.declarative_assembly_format import FormatProgram
            from xdsl.utils.exceptions import ParseError, PyRDLOpDefinitionError

            try:
                self.program = FormatProgram.from_str(self.fmt, self.cls.get_irdl_definition())
            except ParseError as e:  # as xDSL reports it at class definition
                raise PyRDLOpDefinitionError("Error during the parsing of the assembly format: ", e.args) from e
        return self.program


def _defining_class():
    """The class `irdl_op_definition` (our caller's caller) is defining, or None."""
    frame = sys._getframe(2)  # noqa: SLF001 -- 0: here, 1: _get_accessors, 2: irdl_op_definition (xDSL's or
    # op_definitions', which passes the definition's shape: the program is built from the full one)
    return frame.f_locals.get("cls") if frame.f_code.co_name == "irdl_op_definition" else None


def _get_accessors(op_def, custom_verify):
    fmt = op_def.assembly_format
    cls = _defining_class() if fmt is not None else None
    if cls is None or not getattr(cls, "__module__", "").startswith(_SCOPE):
        return _original(op_def, custom_verify)
    op_def.assembly_format = None  # xDSL's accessors without compiling the format ...
    try:
        attrs = _original(op_def, custom_verify)
    finally:
        op_def.assembly_format = fmt
    lazy = _LazyProgram(fmt, cls)

    @classmethod
    def parse_with_format(cls, parser):  # ... and the same parse/print through the program, once built
        return lazy.get().parse(parser, cls)

    def print_with_format(self, printer):
        return lazy.get().print(printer, self)

    parse_with_format.__func__.lazy_program = lazy
    attrs["parse"] = parse_with_format
    attrs["print"] = print_with_format
    DEFERRED.append(cls)
    return attrs


def install() -> None:
    """Defer the formats of op classes defined from now on (idempotent)."""
    _operations.get_accessors_from_op_def = _get_accessors


def compile_all() -> int:
    """Compile every deferred program now (a malformed format raises here); returns how many."""
    for cls in DEFERRED:
        cls.parse.__func__.lazy_program.get()
    return len(DEFERRED)
