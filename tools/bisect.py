"""Numerical bisection of a pass pipeline: run it pass by pass, evaluate the
IR after each pass on the same inputs with the evaluator that fits the stage,
and name the first pass whose results differ from the input's beyond
tolerance. One implementation behind `minixla-opt --bisect` and
`minixla-run --check-each-pass`.

Evaluators: hlo/stablehlo on tensors -> the reference interpreter; linalg
on tensors and loop IR on memrefs (scf/memref/arith/math/linalg, gemm calls)
-> `backends/interpreter/loop_ir.py`; the llvm dialect -> the CPU JIT.
Stages no evaluator covers (partially lowered llvm, unsupported
ops) are reported as skipped, and a
failure after skipped stages says which passes it could have been.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import MemRefType, ModuleOp, TensorType
from xdsl.passes import ModulePass

#: default (rtol, atol) by dtype kind/size; integers and bools must match exactly
_TOLERANCES = {"f2": (1e-2, 1e-2), "f4": (1e-4, 1e-5), "f8": (1e-9, 1e-12)}


class BisectError(Exception):
    """Bad input to the bisection (no entry, inputs that do not fit)."""


@dataclass
class Stage:
    """One row of the report: the IR after `pass_name` (None: the input)."""

    pass_name: str | None
    evaluator: str
    status: str  # reference | ok | MISMATCH | skipped: ... | error: ...
    max_abs: float | None = None
    max_rel: float | None = None

    @property
    def failed(self) -> bool:
        return self.status == "MISMATCH" or self.status.startswith("error")


@dataclass
class BisectReport:
    entry: str
    inputs: list[np.ndarray]
    stages: list[Stage] = field(default_factory=list)

    @property
    def first_failure(self) -> Stage | None:
        return next((s for s in self.stages if s.failed), None)

    def suspects(self) -> list[str]:
        """The failing pass and the unevaluated passes right before it."""
        bad = self.first_failure
        if bad is None:
            return []
        i = self.stages.index(bad)
        names = [bad.pass_name or "(input)"]
        while i > 1 and self.stages[i - 1].status.startswith("skipped"):
            i -= 1
            names.insert(0, self.stages[i].pass_name or "(input)")
        return names

    def format(self) -> str:
        width = max([len(s.pass_name or "(input)") for s in self.stages] + [5])
        lines = [f"// bisect @{self.entry}: {len(self.inputs)} input(s), {len(self.stages) - 1} pass(es)",
                 f"{'pass':<{width}}  {'evaluator':<11}  {'max_abs':>10}  {'max_rel':>10}  status"]
        for s in self.stages:
            num = [f"{v:10.3g}" if v is not None else f"{'-':>10}" for v in (s.max_abs, s.max_rel)]
            lines.append(f"{s.pass_name or '(input)':<{width}}  {s.evaluator:<11}  {num[0]}  {num[1]}  {s.status}")
        bad = self.first_failure
        if bad is None:
            lines.append("bisect: all evaluated stages match the input")
        else:
            suspects = self.suspects()
            lines.append(f"bisect: first failing pass: {bad.pass_name}")
            if len(suspects) > 1:
                lines.append(f"bisect: not evaluated in between, also suspect: {', '.join(suspects[:-1])}")
        return "\n".join(lines) + "\n"


def tolerance(dtype: np.dtype, rtol: float | None, atol: float | None) -> tuple[float, float]:
    """`--rtol/--atol` if given, else the dtype's default (exact for integers)."""
    default = _TOLERANCES.get(f"{dtype.kind}{dtype.itemsize}", (0.0, 0.0))
    if dtype.kind == "V" or str(dtype) == "bfloat16":
        default = (2e-2, 2e-2)
    return (default[0] if rtol is None else rtol, default[1] if atol is None else atol)


def random_inputs(fn: func.FuncOp, seed: int = 0) -> list[np.ndarray]:
    """Seeded inputs for `fn`'s tensor parameters: normal floats, small ints."""
    from minixla.backends.interpreter import numpy_dtype

    rng = np.random.default_rng(seed)
    arrays = []
    for t in fn.function_type.inputs.data:
        if not isinstance(t, TensorType | MemRefType):
            raise BisectError(f"@{fn.sym_name.data}: cannot make an input of type {t}")
        shape, dt = tuple(t.get_shape()), numpy_dtype(t.get_element_type())
        if any(d < 0 for d in shape):
            raise BisectError(f"@{fn.sym_name.data}: dynamic shape {t}; pass --inputs")
        if dt == np.bool_:
            arrays.append(rng.random(shape) < 0.5)
        elif dt.kind in "iu":
            arrays.append(rng.integers(0 if dt.kind == "u" else -8, 9, shape).astype(dt))
        else:
            arrays.append(rng.standard_normal(shape).astype(dt))
    return arrays


def load_inputs(path: str, fn: func.FuncOp) -> list[np.ndarray]:
    """Inputs from an .npz: `arg0, arg1, ...` or numpy's `arr_0, arr_1, ...`."""
    n = len(fn.function_type.inputs.data)
    try:
        loaded = np.load(path, allow_pickle=False)
    except ValueError:
        raise BisectError(f"{path}: not an .npz archive of arrays") from None
    if not isinstance(loaded, np.lib.npyio.NpzFile):
        raise BisectError(f"{path}: not an .npz archive (a single .npy holds one array)")
    with loaded as data:
        for prefix in ("arg", "arr_"):
            if all(f"{prefix}{i}" in data for i in range(n)):
                return [np.asarray(data[f"{prefix}{i}"]) for i in range(n)]
        raise BisectError(f"{path}: want arrays arg0..arg{n - 1} for @{fn.sym_name.data}, "
                          f"have {sorted(data.files)}")


#: buffers above this many elements skip the loop-IR evaluator (per-element Python)
LOOP_IR_MAX_ELEMENTS = 1 << 16


def _elements(t) -> int:
    if not isinstance(t, MemRefType | TensorType):
        return 0
    shape = t.get_shape()
    return int(np.prod(shape)) if all(d >= 0 for d in shape) else 0


def _entry_func(module: ModuleOp, entry: str) -> func.FuncOp | None:
    return next((op for op in module.ops if isinstance(op, func.FuncOp) and op.sym_name.data == entry), None)


class _StageEvaluator:
    """Picks and runs the evaluator of a stage; remembers the memref signature
    the CPU JIT needs once `convert-func-to-llvm` has erased it."""

    def __init__(self, entry: str, num_outputs: int):
        self.entry = entry
        self.num_outputs = num_outputs
        self.signature = None

    def kind(self, module: ModuleOp) -> tuple[str, str | None]:
        """(evaluator, reason to skip or None)."""
        fn = _entry_func(module, self.entry)
        dialects = {op.name.split(".")[0] for op in module.walk()}
        if fn is None or not fn.body.blocks:
            if "llvm" in dialects:
                if self.signature is None:
                    return "cpu-jit", "no memref signature seen before llvm"
                partial = any(op.name == "builtin.unrealized_conversion_cast" for op in module.walk())
                return "cpu-jit", "partially lowered (unrealized casts)" if partial else None
            return "-", f"no function @{self.entry}"
        params = fn.function_type.inputs.data
        if any(isinstance(t, TensorType) for t in params) or not params:
            if "bufferization" in dialects:
                return "-", "no evaluator for bufferization ops"
            if dialects & {"linalg", "tensor", "memref", "scf"}:
                return "loop-ir", None  # tensor-level linalg, with value semantics
            return "interpreter", None
        from minixla.backends.cpu.runtime import Signature

        self.signature = Signature.of(fn, self.num_outputs)
        gaps = sorted(dialects & {"llvm", "gpu", "omp"})
        if gaps:
            return "loop-ir", f"loop-IR evaluator lacks {', '.join(gaps)}"
        values = [v for op in module.walk() for v in (*op.results, *(a for r in op.regions for b in r.blocks
                                                                      for a in b.args))]
        biggest = max((_elements(v.type) for v in values), default=0)
        if biggest > LOOP_IR_MAX_ELEMENTS:
            return "loop-ir", f"a {biggest}-element buffer is too big for the per-element loop-IR evaluator"
        return "loop-ir", None

    def run(self, kind: str, module: ModuleOp, inputs: list[np.ndarray]) -> list[np.ndarray]:
        if kind == "interpreter":
            from minixla.backends.interpreter import InterpreterBackend

            return list(InterpreterBackend().compile(module, self.entry, verify=False)(*inputs))
        if kind == "loop-ir":
            from minixla.backends.interpreter.loop_ir import LoopEvaluator

            with np.errstate(all="ignore"):
                return LoopEvaluator(module).run(self.entry, *inputs)
        from minixla.backends.cpu.compiler import compile_lowered

        signed = [a.view(f"i{a.itemsize}") if a.dtype.kind == "u" else a for a in inputs]
        return list(compile_lowered(module.clone(), {self.entry: self.signature}, 2)[self.entry](*signed))


def compare(got: Sequence[np.ndarray], want: Sequence[np.ndarray],
            rtol: float | None, atol: float | None) -> tuple[float, float, bool]:
    """(max abs error, max rel error, within tolerance) over all outputs."""
    if len(got) != len(want):
        return float("inf"), float("inf"), False
    max_abs = max_rel = 0.0
    ok = True
    for g, w in zip(got, want):
        g = np.asarray(g)
        if g.shape != w.shape:
            return float("inf"), float("inf"), False
        if g.dtype != w.dtype and g.dtype.itemsize == w.dtype.itemsize and w.dtype.kind in "iub":
            g = g.view(w.dtype)  # signless lowered integers
        if w.dtype.kind in "iub" and rtol is None and atol is None:  # exact, without float64 rounding
            wrong = g != w
            if wrong.any():
                ok = False
                max_abs = max(max_abs, float(np.abs(g.astype(np.float64) - w.astype(np.float64)).max()))
            continue
        r, a = tolerance(w.dtype, rtol, atol)
        wide = np.complex128 if "c" in (g.dtype.kind, w.dtype.kind) else np.float64
        g64, w64 = g.astype(wide), w.astype(wide)
        both_nan = np.isnan(g64) & np.isnan(w64)
        diff = np.where(both_nan, 0.0, np.abs(g64 - w64))
        diff = np.where(np.isnan(diff), np.inf, diff)
        if diff.size:
            max_abs = max(max_abs, float(diff.max()))
            max_rel = max(max_rel, float((diff / np.maximum(np.abs(w64), np.finfo(np.float64).tiny)).max()))
            ok &= bool(np.all(diff <= a + r * np.abs(np.nan_to_num(w64))))
    return max_abs, max_rel, ok


def bisect(module: ModuleOp, spec: str, inputs: Sequence[np.ndarray] | None = None, *,
           entry: str | None = None, seed: int = 0, rtol: float | None = None, atol: float | None = None,
           ctx: Context | None = None) -> BisectReport:
    """Run `spec` on a clone of `module` pass by pass and evaluate every stage
    on the same inputs; see BisectReport.first_failure."""
    from minixla.backends.cpu.runtime import ArgumentError
    from minixla.backends.cpu.translate import TranslationError
    from minixla.backends.interpreter import (
        InterpreterError,
        UnsupportedOpError,
        pick_entry,
    )
    from minixla.dialects import load_all
    from minixla.passes import build_pipeline

    module = module.clone()
    try:
        name = pick_entry(module, entry)
    except InterpreterError as err:
        raise BisectError(str(err)) from None
    fn = _entry_func(module, name)
    args = list(inputs) if inputs is not None else random_inputs(fn, seed)
    if len(args) != len(fn.function_type.inputs.data):
        raise BisectError(f"@{name} takes {len(fn.function_type.inputs.data)} argument(s), got {len(args)}")
    evaluator = _StageEvaluator(name, len(fn.function_type.outputs.data))
    report = BisectReport(name, args)
    reference: list[np.ndarray] | None = None

    def evaluate(pass_name: str | None, mod: ModuleOp) -> None:
        nonlocal reference
        kind, skip = evaluator.kind(mod)
        if skip is not None:
            report.stages.append(Stage(pass_name, kind, f"skipped: {skip}"))
            return
        try:
            outputs = evaluator.run(kind, mod, args)
        except (NotImplementedError, UnsupportedOpError) as err:
            report.stages.append(Stage(pass_name, kind, f"skipped: {kind} lacks {err}"))
            return
        except TranslationError as err:  # llvm dialect mixed with not-yet-lowered types
            report.stages.append(Stage(pass_name, kind, f"skipped: not translatable yet: {err}"))
            return
        except ArgumentError as err:  # e.g. strided memref parameters: dense inputs do not fit the ABI
            report.stages.append(Stage(pass_name, kind, f"skipped: inputs do not fit: {err}"))
            return
        except Exception as err:  # noqa: BLE001 -- a stage that cannot run is a finding, not a crash
            report.stages.append(Stage(pass_name, kind, f"error: {type(err).__name__}: {err}".split("\n")[0]))
            return
        if reference is None:
            reference = [np.asarray(o) for o in outputs]
            report.stages.append(Stage(pass_name, kind, "reference", 0.0, 0.0))
            return
        max_abs, max_rel, ok = compare(outputs, reference, rtol, atol)
        report.stages.append(Stage(pass_name, kind, "ok" if ok else "MISMATCH", max_abs, max_rel))

    def step(prev: ModulePass | None, mod: ModuleOp, nxt: ModulePass | None) -> None:
        if prev is not None:
            mod.verify()
            evaluate(prev.name, mod)

    evaluate(None, module)
    if reference is None:
        raise BisectError(f"the input module cannot be evaluated: {report.stages[0].status}")
    pipeline = build_pipeline(spec, step)
    try:
        pipeline.apply(ctx or load_all(), module)
    except Exception as err:  # noqa: BLE001 -- the failing pass is the finding
        done = len(report.stages) - 1
        failed = pipeline.passes[done].name if done < len(pipeline.passes) else "?"
        report.stages.append(Stage(failed, "-", f"error: pass failed: {type(err).__name__}: {err}".split("\n")[0]))
    return report


def run_cli(module: ModuleOp, spec: str, inputs_path: str | None, entry: str | None, seed: int,
            rtol: float | None, atol: float | None, out) -> bool:
    """The shared body of `--bisect`/`--check-each-pass`: writes the report to
    `out`; returns True when every evaluated stage matched."""
    name = entry
    if inputs_path is not None:
        from minixla.backends.interpreter import InterpreterError, pick_entry

        try:
            name = pick_entry(module, entry)
        except InterpreterError as err:
            raise BisectError(str(err)) from None
    inputs = load_inputs(inputs_path, _entry_func(module, name)) if inputs_path else None
    report = bisect(module, spec, inputs, entry=name, seed=seed, rtol=rtol, atol=atol)
    out.write(report.format())
    return report.first_failure is None


def add_arguments(parser) -> None:
    """The options shared by both tools (the mode flag itself is the tool's)."""
    parser.add_argument("--inputs", dest="inputs_npz", default=None, help="bisect: inputs as .npz (arg0, arg1, ...); default random")
    parser.add_argument("--seed", type=int, default=0, help="bisect: seed of the random inputs (default 0)")
    parser.add_argument("--rtol", type=float, default=None, help="bisect: relative tolerance (default per dtype)")
    parser.add_argument("--atol", type=float, default=None, help="bisect: absolute tolerance (default per dtype)")
