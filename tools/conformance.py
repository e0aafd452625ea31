"""Which StableHLO interpreter test cases minixla must pass, and running them.

A chunk of a test file is *in scope* when every op it uses is one of
func.func/return/call, a `check.*` op or `stablehlo.X` for an op X that the
hlo dialect defines, and every tensor element type is one of i1, i2, i4,
i8..i64, ui2, ui4, ui8..ui64, the fp8/fp6/fp4 types, f16, bf16, f32, f64, complex<f32|f64>,
or `!quant.uniform` of those (no tokens; quantized types only through
uniform_quantize/uniform_dequantize/bitcast_convert and elementwise ops). The scan is textual, so it also classifies
chunks that do not parse.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from minixla.dialects.diagnostics import split_input

#: ../shared/reference/stablehlo-interpret relative to the repository root
REFERENCE_DIR = Path(__file__).resolve().parents[1].parent / "shared" / "reference" / "stablehlo-interpret"

ELEMENT_TYPES = frozenset({"i1", "i8", "i16", "i32", "i64", "ui8", "ui16", "ui32", "ui64",
                           "f16", "bf16", "f32", "f64"}) | frozenset({  # narrow types: ml_dtypes on both backends
    "i2", "i4", "ui2", "ui4", "f8E4M3FN", "f8E5M2", "f8E4M3FNUZ", "f8E5M2FNUZ", "f8E4M3B11FNUZ", "f8E3M4",
    "f8E4M3", "f8E8M0FNU", "f6E2M3FN", "f6E3M2FN", "f4E2M1FN"})
ELEMENT_TYPES |= {"complex<f32>", "complex<f64>"}  # complex64/complex128 (passes/complex_to_real.py on CPU)
BASE_OPS = frozenset({"func.func", "func.return", "func.call"})

_OP_AT_STATEMENT = re.compile(r"(?:^|=|[{}:])[ \t]*([a-z_][\w]*\.[a-z_][\w.]*)(?=[\s(<{\"%@:]|$)", re.MULTILINE)
_GENERIC_OP = re.compile(r"\"([a-z_][\w]*\.[a-z_][\w.]*)\"\s*\(")
_NOARG_FUNC = re.compile(r"func\.func\s+(?:public\s+)?@([\w$.-]+)\s*\(\s*\)")
_DIMS = re.compile(r"^(?:(?:\d+|\?)x)*")


#: what only the reference interpreter runs: the simulated process grid (`interpreter.run_parallel`) and
#: tokens (print and probe run on compiled backends through check outlining); compiled backends run collectives one process per replica under MPI instead (docs/distributed.md)
INTERPRETER_ONLY_OPS = frozenset({"interpreter.run_parallel"})


def allowed_ops(backend: str = "interpreter") -> frozenset[str]:
    from minixla.dialects import check, hlo
    from minixla.dialects.interpreter import INTERPRETER

    ops = BASE_OPS | {op.name for op in check.CHECK.operations} | {f"stablehlo.{m}" for m in hlo.OPS}
    ops |= {op.name for op in INTERPRETER.operations}
    return ops if backend == "interpreter" else ops - INTERPRETER_ONLY_OPS


def _strip_comments(text: str) -> str:
    return re.sub(r"//[^\n]*", "", text)


def ops_used(text: str) -> set[str]:
    code = _strip_comments(text)
    return set(_OP_AT_STATEMENT.findall(code)) | set(_GENERIC_OP.findall(code))


def _tensor_bodies(code: str):
    for m in re.finditer(r"tensor<", code):
        depth, i = 1, m.end()
        while i < len(code) and depth:
            depth += {"<": 1, ">": -1}.get(code[i], 0)
            i += 1
        yield code[m.end():i - 1]


def element_types(text: str) -> set[str]:
    """Element types of every `tensor<...>` type written in the text."""
    found = set()
    for body in _tensor_bodies(_strip_comments(text)):
        depth, cut = 0, len(body)
        for i, ch in enumerate(body):  # drop a `, #encoding`
            depth += {"<": 1, ">": -1}.get(ch, 0)
            if ch == "," and depth == 0:
                cut = i
                break
        found.add(_DIMS.sub("", body[:cut].strip()).strip())
    return found


#: ops that take or give `!quant.uniform` tensors: quantize/dequantize/bitcast_convert and the unary
#: and binary elementwise ops (dequantize-op-quantize); others on quantized types are not supported
@cache
def _quantized_ops() -> frozenset[str]:
    from minixla.dialects.hlo_ops.elementwise import BINARY_OPS, UNARY_OPS

    names = {"uniform_quantize", "uniform_dequantize", "bitcast_convert", *UNARY_OPS, *BINARY_OPS}
    return frozenset({f"{p}.{n}" for p in ("hlo", "stablehlo") for n in names} | BASE_OPS)
_QUANT = re.compile(r"^!quant\.uniform<(\w+)(?:<[-\d:]+>)?:(\w+)[:,]")


def _supported_quantized(t: str) -> bool:
    m = _QUANT.match(t)
    return m is not None and m.group(1) in ELEMENT_TYPES and m.group(2) in ELEMENT_TYPES


def scope_reasons(text: str, ops: frozenset[str] | None = None, backend: str = "interpreter") -> list[str]:
    """Why the chunk is out of scope on `backend` (empty list: in scope), ops first."""
    ops = allowed_ops(backend) if ops is None else ops
    reasons = [f"op {name}" for name in sorted(ops_used(text) - ops)]
    for t in sorted(element_types(text) - ELEMENT_TYPES):
        if _supported_quantized(t):
            continue
        reasons.append("complex element type" if t.startswith("complex") else f"element type {t}")
    code = _strip_comments(text)
    for line in code.splitlines():
        if "!quant." in line:
            reasons += [f"quantized {name}" for name in sorted(ops_used(line) - _quantized_ops())]
    # tokens that only after_all makes and consumes order nothing: compiled backends drop them
    token_ops_only = ops_used(code) <= BASE_OPS | {"stablehlo.after_all"}
    if "!stablehlo.token" in code and backend != "interpreter" and not token_ops_only:
        reasons.append("token type")
    return reasons


def in_scope(text: str, backend: str = "interpreter") -> bool:
    return not scope_reasons(text, backend=backend)


def case_names(chunk_text: str) -> list[str]:
    """Names of the cases (public functions without arguments) in a chunk."""
    return _NOARG_FUNC.findall(_strip_comments(chunk_text))


@dataclass
class ConformanceRun:
    """Results of the in-scope cases, and (file, case, reason) of the others."""

    backend: str
    results: list = field(default_factory=list)
    out_of_scope: list[tuple[str, str, str]] = field(default_factory=list)

    @property
    def passed(self) -> int:
        return sum(r.passed for r in self.results)

    @property
    def failures(self) -> list:
        return [r for r in self.results if not r.passed]

    @property
    def rate(self) -> float:
        return self.passed / len(self.results) if self.results else 0.0

    def out_of_scope_counts(self) -> Counter:
        return Counter(reason for _, _, reason in self.out_of_scope)


def reference_files(ref_dir: Path = REFERENCE_DIR) -> list[Path]:
    return sorted(ref_dir.glob("*.mlir"))


def run_conformance(backend_name: str = "interpreter", ref_dir: Path = REFERENCE_DIR) -> ConformanceRun:
    """Run every in-scope case of every reference file on one backend."""
    from minixla.backends import get_backend
    from minixla.dialects import load_all

    from minixla.tools.testfile import run_chunk

    ctx, backend, ops = load_all(), get_backend(backend_name), allowed_ops(backend_name)
    run = ConformanceRun(backend_name)
    for path in reference_files(ref_dir):
        for chunk in split_input(path.read_text()):
            names = case_names(chunk.text)
            if not names:
                continue
            reasons = scope_reasons(chunk.text, ops, backend_name)
            if reasons:
                run.out_of_scope += [(path.name, n, reasons[0]) for n in names]
                continue
            results = run_chunk(chunk, path.name, ctx, backend)
            run.results += results
    return run

