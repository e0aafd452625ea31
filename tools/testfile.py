"""Running programs and StableHLO-style test files on a backend.

A *test file* is split at `// -----`; every public function without
arguments in a chunk is one *case*: it passes when it runs to the end with
all its `check.*` ops satisfied. Bad input, unsupported ops and failed checks
make a case fail with a one-line reason; nothing here raises for bad input.
Shared by `minixla-run` and the conformance tests and report.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, StringAttr

from minixla.backends.check_outlining import run_case
from minixla.backends.interpreter.printing import format_tensor
from minixla.dialects.diagnostics import (
    Chunk,
    DiagnosticError,
    check_allocations,
    internal_error_message,
    parse_and_verify,
    split_input,
)

_NOARG_FUNC = re.compile(r"func\.func\s+(?:public\s+)?@([\w$.-]+)\s*\(\s*\)")


@dataclass(frozen=True)
class CaseResult:
    """The outcome of one case: `reason` says why it failed (one line)."""

    name: str
    passed: bool
    reason: str = ""
    file: str = ""
    line: int = 0

    def report(self) -> str:
        return f"PASS {self.name}" if self.passed else f"FAIL {self.name}: {self.reason}"


def load_module(text: str, filename: str, ctx: Context, line_offset: int = 0) -> ModuleOp:
    """Parse, verify, and read `stablehlo.*` as `hlo.*` (DiagnosticError on bad input)."""
    from minixla.passes import run_pipeline

    module = parse_and_verify(text, filename, ctx, line_offset)
    if "stablehlo." in text:
        run_pipeline(module, "stablehlo-legalize-to-hlo", ctx)
    check_allocations(module, filename)
    return module


def functions(module: ModuleOp) -> list[func.FuncOp]:
    """All func.func ops, including those inside nested `module @x { ... }`."""
    return [op for op in module.walk() if isinstance(op, func.FuncOp)]


def is_public(fn: func.FuncOp) -> bool:
    vis = fn.sym_visibility
    return not (isinstance(vis, StringAttr) and vis.data == "private")


def case_functions(module: ModuleOp) -> list[func.FuncOp]:
    return [f for f in functions(module)
            if is_public(f) and not f.function_type.inputs.data and f.body.blocks]


def pick_entry(module: ModuleOp, entry: str | None) -> str:
    """`entry`, else `main`, else the only public function (ValueError otherwise)."""
    names = [f.sym_name.data for f in functions(module)]
    if entry is not None:
        if entry not in names:
            raise ValueError(f"no function named @{entry} (have: {', '.join('@' + n for n in names) or 'none'})")
        return entry
    if "main" in names:
        return "main"
    public = [f.sym_name.data for f in functions(module) if is_public(f)]
    if len(public) == 1:
        return public[0]
    raise ValueError("no @main and not exactly one public function: name one with --entry")


def failure_reason(err: BaseException) -> str:
    """One line saying why a case failed, by the kind of error."""
    kinds = {c.__name__ for c in type(err).__mro__}
    first = str(err).strip().split("\n", 1)[0]
    if "CheckFailure" in kinds:
        return f"check failed: {first}"
    if "UnsupportedOpError" in kinds:
        return f"unsupported: {first}"
    if isinstance(err, DiagnosticError):
        return err.headline
    if isinstance(err, NotImplementedError):
        return f"unsupported: {first or type(err).__name__}"
    return f"error: {internal_error_message(err, 'running')}"


def _chunk_case_names(chunk: Chunk) -> list[str]:
    return _NOARG_FUNC.findall(chunk.text) or [f"chunk{chunk.index}@line{chunk.line_offset + 1}"]


def run_chunk(chunk: Chunk, filename: str, ctx: Context, backend) -> list[CaseResult]:
    """Run every case of one chunk (a chunk that does not load fails all its cases)."""
    line = chunk.line_offset + 1
    try:
        module = load_module(chunk.text, filename, ctx, chunk.line_offset)
    except Exception as err:  # noqa: BLE001 -- bad input fails the cases, it does not stop the run
        return [CaseResult(n, False, failure_reason(err), filename, line) for n in _chunk_case_names(chunk)]
    results = []
    for fn in case_functions(module):
        name = fn.sym_name.data
        loc_line = getattr(fn.location, "line", None)
        case_line = loc_line.data if loc_line is not None else line
        try:
            run_case(backend, module, name)
            results.append(CaseResult(name, True, "", filename, case_line))
        except Exception as err:  # noqa: BLE001 -- any failure of a case is that case's result
            results.append(CaseResult(name, False, failure_reason(err), filename, case_line))
    return results


def run_test_text(text: str, filename: str, ctx: Context, backend, split: bool = True) -> list[CaseResult]:
    results: list[CaseResult] = []
    for chunk in split_input(text, split):
        if not chunk.is_empty:
            results.extend(run_chunk(chunk, filename, ctx, backend))
    return results


def run_test_file(path: str | Path, ctx: Context, backend, split: bool = True) -> list[CaseResult]:
    path = Path(path)
    return run_test_text(path.read_text(), str(path), ctx, backend, split)


def summary(results: list[CaseResult]) -> str:
    passed = sum(r.passed for r in results)
    return f"{passed} passed, {len(results) - passed} failed"


# ---------------------------------------------------------------------------
# Printing results the way `stablehlo-translate --interpret` does
# ---------------------------------------------------------------------------


format_result = format_tensor  # the interpreter's printer (interpreter.print uses it too)
