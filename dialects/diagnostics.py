"""MLIR-style diagnostics for bad input: `FILE:LINE:COL: error: 'hlo.add' op ...`.

xDSL reports parse errors relative to the parsed text (wrong lines after
`--split-input-file`) and verifier errors with a dump of the whole module and
no location. Tools read input through `parse_and_verify`, which stamps every
op with its `FileLineColLoc`, verifies op by op so the failing op is known,
and raises a `DiagnosticError` that prints as one MLIR-style line plus the
source line and a caret -- never a Python traceback.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects.builtin import FileLineColLoc, IntAttr, ModuleOp, StringAttr
from xdsl.ir import Operation
from xdsl.parser import Parser
from xdsl.traits import IsTerminator, NoTerminator
from xdsl.utils.exceptions import DiagnosticException, ParseError

from minixla.dialects import input_limits

_NOISE = re.compile(r"^(Operation does not verify: )+")
_SEPARATOR = re.compile(r"^\s*// -----")


@dataclass
class DiagnosticError(Exception):
    """One error at a source position; `str()` is the MLIR-style report."""

    filename: str
    line: int
    col: int
    message: str
    source_line: str | None = None
    notes: list[tuple[int, int, str]] = field(default_factory=list)
    op_name: str | None = None

    def __post_init__(self) -> None:
        super().__init__(self.headline)

    @property
    def headline(self) -> str:
        where = f"{self.filename}:{self.line}:{self.col}" if self.line > 0 else self.filename
        return f"{where}: error: {self.message}"

    def __str__(self) -> str:
        out = [self.headline]
        if self.source_line is not None:
            out += [self.source_line, " " * max(self.col - 1, 0) + "^"]
        out += [f"{self.filename}:{line}:{col}: note: {msg}" for line, col, msg in self.notes]
        return "\n".join(out)


@dataclass(frozen=True)
class Chunk:
    """A piece of an input file; `line_offset` lines of the file precede it."""

    text: str
    line_offset: int = 0
    index: int = 0

    @property
    def is_empty(self) -> bool:
        """No code at all (only blank lines and `//` comments)."""
        return not re.sub(r"//[^\n]*", "", self.text).strip()


def split_input(text: str, split: bool = True) -> list[Chunk]:
    """Split at lines starting with `// -----` (as mlir-opt's --split-input-file
    does), keeping whole lines so that line and column numbers stay exact."""
    if not split:
        return [Chunk(text)]
    chunks: list[Chunk] = []
    current: list[str] = []
    start = 0
    lines = text.splitlines(keepends=True)
    for i, line in enumerate(lines):
        if _SEPARATOR.match(line):
            chunks.append(Chunk("".join(current), start, len(chunks)))
            current, start = [], i + 1
        else:
            current.append(line)
    chunks.append(Chunk("".join(current), start, len(chunks)))
    return chunks


class LocatingParser(Parser):
    """A Parser that stamps every op with `FILE:LINE:COL` of its name token
    (MLIR's convention) and remembers which op it was parsing when it fails."""

    def __init__(self, ctx: Context, text: str, filename: str = "<stdin>", line_offset: int = 0):
        super().__init__(ctx, text, filename)
        self.text = text
        self.filename = filename
        self.line_offset = line_offset
        #: per op being parsed: [name position, op name]
        self.op_stack: list[list] = []
        #: first use of each value not yet defined (MLIR reports undefined values there)
        self.first_use: dict[str, int] = {}
        #: [start of the dense literal being parsed, its element type once known]
        self.dense_stack: list[list] = []

    def line_col(self, pos: int) -> tuple[int, int]:
        line_start = self.text.rfind("\n", 0, pos) + 1
        return self.text.count("\n", 0, line_start) + 1 + self.line_offset, pos - line_start + 1

    def parse_operation(self) -> Operation:
        self.op_stack.append([self._current_token.span.start, None])
        op = super().parse_operation()
        pos, _ = self.op_stack.pop()
        if not isinstance(op.location, FileLineColLoc):
            line, col = self.line_col(pos)
            op.location = FileLineColLoc(StringAttr(self.filename), IntAttr(line), IntAttr(col))
        return op

    def _parse_op_result_list(self):
        results = super()._parse_op_result_list()
        if self.op_stack:
            self.op_stack[-1][0] = self._current_token.span.start
        return results

    def resolve_operand(self, operand, type):
        if operand.operand_name not in self.ssa_values:
            self.first_use.setdefault(operand.operand_name, operand.span.start)
        return super().resolve_operand(operand, type)

    def parse_shape_dimension(self, allow_dynamic: bool = True) -> int:
        start = self._current_token.span.start
        dim = super().parse_shape_dimension(allow_dynamic)
        problem = input_limits.dimension_error(dim)
        if problem:
            self.raise_error(problem, start, self._current_token.span.start)
        return dim

    def parse_dense_int_or_fp_elements_attr(self, *args, **kwargs):
        start = self._current_token.span.start
        deep = input_limits.dense_nesting_error(self.text, start)
        if deep:
            self.raise_error(deep[1], deep[0], deep[0] + 1)
        self.dense_stack.append([start, None])
        try:
            return super().parse_dense_int_or_fp_elements_attr(*args, **kwargs)
        except (OverflowError, ValueError, MemoryError) as err:
            start, elem = self.dense_stack[-1]
            self.raise_error(_literal_message(err, elem), start, start + 1)
        finally:
            self.dense_stack.pop()

    def _parse_dense_literal_type(self):
        start = self._current_token.span.start
        type = super()._parse_dense_literal_type()
        problem = input_limits.tensor_size_error(type.get_shape(), type.get_element_type())
        if problem:
            self.raise_error(problem, start, self._current_token.span.start)
        if self.dense_stack:
            self.dense_stack[-1][1] = type.get_element_type()
        return type

    def _get_op_by_name(self, name: str):
        if self.op_stack:
            self.op_stack[-1][1] = name
        return super()._get_op_by_name(name)


def _literal_message(err: Exception, element_type) -> str:
    """Our wording for a dense literal whose values do not fit its element type."""
    type_name = str(element_type) if element_type is not None else "the element type"
    if isinstance(err, MemoryError):
        return "dense literal is too large to materialize in memory"
    found = re.search(r"Integer value (-?\d+) is out of range .* \[(-?\d+), (-?\d+)\)", str(err))
    if found:
        value, low, high = map(int, found.groups())
        return input_limits.integer_range_message(value, type_name, low, high)
    if isinstance(err, OverflowError):
        return input_limits.float_range_message(type_name)
    return f"invalid dense literal: {_clean(str(err))}"


def _source_line(text: str, line_in_chunk: int) -> str | None:
    lines = text.splitlines()
    return lines[line_in_chunk - 1] if 0 < line_in_chunk <= len(lines) else None


def _parse_failure(parser: LocatingParser, err: Exception) -> DiagnosticError:
    if isinstance(err, ParseError):
        pos, msg = err.span.start, err.msg
        undefined = [n for n in parser.forward_ssa_references if n in parser.first_use]
        if msg.startswith("values used but not defined") and undefined:
            name = min(undefined, key=parser.first_use.__getitem__)
            pos, msg = parser.first_use[name], f"use of undeclared SSA value name '%{name}'"
        else:
            pos = _after_previous_token(parser.text, pos)
    else:  # e.g. an attribute verifier raising while the parser builds it
        pos = parser._current_token.span.start
        msg = _clean(str(err)) if isinstance(err, DiagnosticException) else internal_error_message(err, "parsing")
    notes = []
    innermost = next(((p, n) for p, n in reversed(parser.op_stack) if n is not None), None)
    unknown = re.fullmatch(r"Operation (\S+) is not registered", msg)
    if unknown:  # MLIR's wording, at the op name
        msg = f"custom op '{unknown.group(1)}' is unknown (not registered)"
        if innermost is not None and innermost[1] == unknown.group(1):
            pos, innermost = innermost[0], None
    line, col = parser.line_col(pos)
    if innermost is not None:
        notes.append((*parser.line_col(innermost[0]), f"while parsing '{innermost[1]}'"))
    return DiagnosticError(parser.filename, line, col, msg,
                           _source_line(parser.text, line - parser.line_offset), notes)


def internal_error_message(err: Exception, stage: str) -> str:
    """The last resort for an exception we did not anticipate: our words, no class name."""
    if isinstance(err, RecursionError):
        return f"input nested too deeply while {stage}"
    if isinstance(err, MemoryError) or "Maximum allowed size exceeded" in str(err):
        return f"out of memory while {stage}: a tensor is too large to allocate"
    return f"internal error while {stage}: {err}".rstrip(": ")


def _after_previous_token(text: str, pos: int) -> int:
    """MLIR's rule: an error at the start of a line (or at the end of the input)
    belongs at the end of the previous token, e.g. a missing `: type`."""
    line_start = text.rfind("\n", 0, pos) + 1
    if text[line_start:pos].strip():
        return pos
    end = line_start - 1
    while end >= 0:
        start = text.rfind("\n", 0, end) + 1
        code = re.sub(r"//.*", "", text[start:end]).rstrip()
        if code:
            return start + len(code)
        end = start - 1
    return pos


def _clean(msg: str) -> str:
    """Drop xDSL's 'Operation does not verify:' prefixes and any IR dump."""
    return _NOISE.sub("", msg.strip().split("\n\n", 1)[0]).strip()


def parse(text: str, filename: str, ctx: Context, line_offset: int = 0) -> ModuleOp:
    """Parse one module (or an implicit one), raising DiagnosticError."""
    parser = LocatingParser(ctx, text, filename, line_offset)
    if Chunk(text).is_empty:
        return ModuleOp([])
    try:
        return parser.parse_module()
    except Exception as err:  # noqa: BLE001 -- any failure on bad input is a diagnostic
        raise _parse_failure(parser, err) from None


def op_position(op: Operation) -> tuple[str | None, int, int]:
    """The FileLineColLoc of op, or of its nearest located ancestor."""
    cur: Operation | None = op
    while cur is not None:
        loc = cur.location
        if isinstance(loc, FileLineColLoc):
            return loc.filename.data, loc.line.data, loc.column.data
        cur = cur.parent_op()
    return None, 0, 0


def op_error(op: Operation, message: str, default_file: str = "<unknown>") -> DiagnosticError:
    filename, line, col = op_position(op)
    return DiagnosticError(filename or default_file, line, col, f"'{op.name}' op {_clean(message)}",
                           op_name=op.name)


def _verify_structure(op: Operation) -> None:
    """The checks of `Operation.verify` other than nesting and the custom verifier."""
    from xdsl.utils.exceptions import VerifyException

    block = op.parent
    region = None if block is None else block.parent
    if op.successors and (block is None or block.last_op is not op):
        raise VerifyException("with block successors must terminate its parent block")
    for succ in op.successors:
        if succ.parent is not region:
            raise VerifyException("is branching to a block of a different region")
    if block is not None and region is not None and block.last_op is op:
        parent = region.parent
        needs = len(region.blocks) > 1 or (parent is not None and not parent.has_trait(NoTerminator))
        if needs and not op.has_trait(IsTerminator):
            raise VerifyException("terminates its block but is not a terminator")
    for reg in op.regions:
        if len(reg.blocks) == 1 and not reg.blocks[0].ops and not op.has_trait(NoTerminator):
            raise VerifyException("contains an empty block in a single-block region that expects a terminator")


def verify_module(module: Operation, filename: str = "<unknown>") -> None:
    """Verify op by op, innermost first, so the failing op is the one named;
    raise DiagnosticError for the first failure."""
    for op in list(module.walk(region_first=True)):
        try:
            _verify_structure(op)
            op.verify_()
        except DiagnosticException as err:
            raise op_error(op, str(err), filename) from None
        except Exception as err:  # noqa: BLE001 -- a verifier bug must not look like a crash of the tool
            raise op_error(op, internal_error_message(err, "verifying"), filename) from None


def check_allocations(module: Operation, filename: str = "<unknown>") -> None:
    """Before running: every op result must fit in memory; else a located error
    on the op (instead of numpy failing mid-run without a location)."""
    for op in module.walk():
        for result in op.results:
            shape = getattr(result.type, "get_shape", None)
            if shape is None or not hasattr(result.type, "get_element_type"):
                continue
            problem = input_limits.tensor_size_error(shape(), result.type.get_element_type())
            if problem:
                raise op_error(op, problem, filename)


def parse_and_verify(text: str, filename: str, ctx: Context, line_offset: int = 0) -> ModuleOp:
    """Parse and verify; any problem raises DiagnosticError with the file's own
    line numbers (`line_offset` = lines before this chunk in the file)."""
    module = parse(text, filename, ctx, line_offset)
    try:
        verify_module(module, filename)
    except DiagnosticError as err:
        if err.filename == filename and err.line > 0:
            err.source_line = _source_line(text, err.line - line_offset)
        raise
    return module
