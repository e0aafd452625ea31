"""A differential fuzzer: random well-typed hlo programs, run on the reference
interpreter and on the CPU backend, compared; a mismatch is shrunk (delta
debugging) to a minimal `.mlir` that reproduces it.

    python -m minixla.tools.fuzz --n 10000 --seed 0 [--ops 10] [--out fuzz-failures/]

Programs are built through the frontend's HLO builder (its shape checks make
every program well typed): 1-3 arguments of random shapes (0- and 1-sized dims
included) and dtypes, then a chain of random ops drawn from the table below
(elementwise, compare/select/clamp, convert, broadcast, reshape, transpose,
slice, reverse, pad, concatenate, reduce, dot_general, iota), then 1-2 outputs.
Inputs are seeded per program. Floats compare with a tolerance (and NaN ==
NaN), integers exactly. The shrinker turns one op at a time into a function
argument and drops outputs while the mismatch persists.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import ml_dtypes
import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import FunctionType, ModuleOp
from xdsl.ir import Block, Region
from xdsl.printer import Printer

from minixla.backends import get_backend
from minixla.dialects.numpy_types import numpy_dtype
from minixla.frontend.builder import Spec
from minixla.frontend.builder_trace import TracingBuilder
from minixla.tools import fuzz_numeric, fuzz_structured

DTYPES = [np.dtype(np.float32), np.dtype(np.float64), np.dtype(np.int32), np.dtype(np.int64), np.dtype(bool),
          np.dtype(np.float16), np.dtype(np.int8), np.dtype(np.uint8), np.dtype(np.uint32),
          fuzz_numeric.BF16, np.dtype(np.int16), np.dtype(np.uint16), np.dtype(np.uint64)]
DIMS = [0, 1, 1, 2, 3, 3, 4, 5]
FLOAT_UNARY = ["abs", "negate", "exponential", "log", "sqrt", "tanh", "floor", "ceil", "sign", "logistic", "sine",
               "cosine", "rsqrt", "log_plus_one", "exponential_minus_one", "round_nearest_even"]
INT_UNARY = ["abs", "negate", "sign", "not"]
FLOAT_BINARY = ["add", "subtract", "multiply", "divide", "maximum", "minimum", "power", "atan2", "remainder"]
INT_BINARY = ["add", "subtract", "multiply", "maximum", "minimum", "and", "or", "xor"]
BOOL_BINARY = ["and", "or", "xor"]


def _kind(dt: np.dtype) -> str:
    k = fuzz_numeric.kind(dt)  # bf16 is a float (its numpy kind is "V")
    return "int" if k == "uint" else k


@dataclass
class Program:
    """A random program: its module (entry @main) and argument specs."""

    module: ModuleOp
    args: list[Spec]
    seed: int
    ops: list[str] = field(default_factory=list)

    def text(self) -> str:
        from io import StringIO

        out = StringIO()
        Printer(stream=out).print_op(self.module)
        return out.getvalue()


class Generator:
    """Random op chains over a pool of values (each step reads earlier values)."""

    def __init__(self, rng: np.random.Generator, n_ops: int):
        self.rng, self.n_ops = rng, n_ops
        self.n_args = 0

    def shape(self, max_rank: int = 3) -> tuple[int, ...]:
        return tuple(int(self.rng.choice(DIMS)) for _ in range(int(self.rng.integers(0, max_rank + 1))))

    def pick(self, pool: list, pred: Callable = lambda v: True):
        choices = [v for v in pool if pred(v)]
        return choices[int(self.rng.integers(len(choices)))] if choices else None

    def step(self, b: TracingBuilder, pool: list) -> tuple[str, object] | None:
        """One random op on values of `pool` (None when the drawn op does not fit)."""
        rng = self.rng
        op = str(rng.choice(["unary", "binary", "binary", "compare_select", "clamp", "convert", "broadcast",
                             "reshape", "transpose", "slice", "reverse", "pad", "concatenate", "reduce", "dot",
                             "iota", "structured", "structured", "structured", "numeric", "numeric"]))
        if op == "structured":  # control flow, gather/scatter, dynamic slices, convolution, windows, sort
            return fuzz_structured.step(rng, b, pool)
        if op == "numeric":  # integer/shift/bitcast edges, broadcasting, more reductions and dots
            return fuzz_numeric.step(rng, b, pool, pool[:self.n_args])
        x = self.pick(pool)
        k, dt, shape = _kind(np.dtype(x.dtype)), np.dtype(x.dtype), tuple(x.shape)
        if op == "unary":
            names = (FLOAT_UNARY if k == "float" else ["not", "negate"] if dt.kind == "u"
                     else INT_UNARY if k == "int" else ["not"])
            name = str(rng.choice(names))
            return name, b.unary(name, x)
        if op == "binary":
            y = self.pick(pool, lambda v: tuple(v.shape) == shape and np.dtype(v.dtype) == dt)
            names = FLOAT_BINARY if k == "float" else INT_BINARY if k == "int" else BOOL_BINARY
            name = str(rng.choice(names))
            return name, b.binary(name, x, y)
        if op == "compare_select":
            y = self.pick(pool, lambda v: tuple(v.shape) == shape and np.dtype(v.dtype) == dt)
            direction = str(rng.choice(["EQ", "NE", "LT", "LE", "GT", "GE"]))
            pred = b.compare(x, y, direction)
            return "select", b.select(pred, x, y)
        if op == "clamp" and k != "bool":
            lo, hi = b.full(shape, -2, dt), b.full(shape, 3, dt)
            return "clamp", b.clamp(lo, x, hi)
        if op == "convert":
            to = DTYPES[int(rng.integers(len(DTYPES)))]
            if k == "float" and _kind(to) == "int":  # in the target's range: defined results
                lo, hi = max(-1000, int(np.iinfo(to).min)), min(1000, int(np.iinfo(to).max))
                x = b.clamp(b.full(shape, lo, dt), x, b.full(shape, hi, dt))
                x = b.select(b.compare(x, x, "EQ"), x, b.full(shape, 0, dt))  # NaN -> 0
            return "convert", b.convert(x, to)
        if op == "broadcast" and len(shape) < 3:
            extra = int(rng.choice([1, 2, 3]))
            return "broadcast_in_dim", b.broadcast_in_dim(x, (extra, *shape), list(range(1, len(shape) + 1)))
        if op == "reshape":
            size = int(np.prod(shape)) if shape else 1
            options = [(size,), (1, size)] + ([(size // 2, 2)] if size % 2 == 0 and size else [])
            return "reshape", b.reshape(x, options[int(rng.integers(len(options)))])
        if op == "transpose" and len(shape) >= 2:
            return "transpose", b.transpose(x, [int(i) for i in rng.permutation(len(shape))])
        if op == "slice" and shape:
            start = [int(rng.integers(0, d + 1)) for d in shape]
            limit = [int(rng.integers(s, d + 1)) for s, d in zip(start, shape)]
            strides = [int(rng.integers(1, 3)) for _ in shape]
            return "slice", b.slice(x, start, limit, strides)
        if op == "reverse" and shape:
            return "reverse", b.reverse(x, [int(rng.integers(len(shape)))])
        if op == "pad" and shape:
            zero = b.scalar(0, dt)
            low = [int(rng.integers(-1, 2)) if d > 1 else int(rng.integers(0, 2)) for d in shape]
            high = [int(rng.integers(0, 2)) for _ in shape]
            interior = [int(rng.integers(0, 2)) for _ in shape]
            return "pad", b.pad(x, zero, low, high, interior)
        if op == "concatenate" and shape:
            y = self.pick(pool, lambda v: np.dtype(v.dtype) == dt and len(v.shape) == len(shape))
            dim = int(rng.integers(len(shape)))
            if all(a == c for i, (a, c) in enumerate(zip(y.shape, shape)) if i != dim):
                return "concatenate", b.concatenate([x, y], dim)
            return None
        if op == "reduce" and shape and k != "bool":
            dims = sorted({int(d) for d in rng.integers(0, len(shape), size=int(rng.integers(1, len(shape) + 1)))})
            combiner = str(rng.choice(["add", "maximum", "minimum"]))
            init = {"add": 0, "maximum": -np.inf if k == "float" else np.iinfo(dt).min,
                    "minimum": np.inf if k == "float" else np.iinfo(dt).max}[combiner]
            return "reduce", b.reduce(x, b.scalar(init, dt), dims, combiner)
        if op == "dot" and k == "float" and len(shape) in (1, 2) and shape[-1] > 0:
            n = int(rng.choice([1, 2, 3]))
            w = b.iota((shape[-1], n), 0, dt)
            return "dot_general", b.dot_general(x, w, ((len(shape) - 1,), (0,)), ((), ()))
        if op == "iota":
            s = self.shape(2) or (3,)
            return "iota", b.iota(s, int(rng.integers(len(s))), dt if k != "bool" else np.dtype(np.int32))
        return None

    def program(self, seed: int) -> Program:
        block = Block()
        b = TracingBuilder(block)
        args = [Spec(self.shape(), DTYPES[int(self.rng.integers(len(DTYPES)))])
                for _ in range(int(self.rng.integers(1, 4)))]
        pool = [b.argument(s) for s in args]
        self.n_args = len(args)
        ops = []
        attempts = 0
        while len(ops) < self.n_ops and attempts < self.n_ops * 4:
            attempts += 1
            made = self.step(b, pool)
            if made is not None:
                ops.append(made[0])
                pool.append(made[1])
        n_out = int(self.rng.integers(1, 3))
        outs = pool[-n_out:]
        block.add_op(func.ReturnOp(*[o.ssa for o in outs]))
        f = func.FuncOp("main", FunctionType.from_lists([a.ssa.type for a in pool[:len(args)]],
                                                        [o.ssa.type for o in outs]), Region(block))
        return Program(ModuleOp([f]), args, seed, ops)


def inputs_for(types, seed: int) -> list[np.ndarray]:
    """Seeded inputs for argument types (small values, some special floats)."""
    rng = np.random.default_rng(seed)
    out = []
    for t in types:
        shape, dt = tuple(t.get_shape()), numpy_dtype(t.get_element_type())
        if dt == np.dtype(bool):
            out.append(rng.random(shape) < 0.5)
        elif dt.kind in "iu":
            out.append(rng.integers(-20, 21, shape).astype(dt))
        else:
            a = (rng.standard_normal(shape) * 4).astype(dt)
            if a.size and rng.random() < 0.3:
                a.reshape(-1)[int(rng.integers(a.size))] = rng.choice([0.0, -0.0, np.inf, -np.inf, np.nan])
            out.append(a)
    return out


def same(a: np.ndarray, b: np.ndarray) -> bool:
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    if _kind(a.dtype) == "float":  # 16-bit floats: two ulps (a sum's rounding may differ in the last place)
        tol = max(1e-4, 2 * float(ml_dtypes.finfo(a.dtype).eps))
        a, b = a.astype(np.float64), b.astype(np.float64)
        return bool(np.allclose(a, b, rtol=tol, atol=max(1e-5, tol), equal_nan=True))
    return bool(np.array_equal(a, b))


def mismatch(module: ModuleOp, seed: int, check_bounds: bool = True) -> str | None:
    """Why interpreter and CPU disagree on `module` (None: they agree). With `check_bounds` the CPU
    code checks every memory access (MINIXLA_CHECK_BOUNDS=1): an out-of-bounds access is a finding."""
    fn = next(op for op in module.ops if isinstance(op, func.FuncOp))
    args = inputs_for(fn.function_type.inputs.data, seed)
    with np.errstate(all="ignore"):
        want = get_backend("interpreter").compile(module, "main")(*args)
        try:
            with _bounds_checking(check_bounds):
                compiled = get_backend("cpu").compile(module, "main")
            got = compiled(*args)
        except Exception as err:  # noqa: BLE001 -- a CPU compile/run failure is a finding
            return f"cpu failed: {type(err).__name__}: {err}"
    for i, (w, g) in enumerate(zip(want, got)):
        if not same(g, w):
            return f"output #{i}: interpreter {np.asarray(w).ravel()[:6]} vs cpu {np.asarray(g).ravel()[:6]}"
    return None


@contextmanager
def _bounds_checking(on: bool):
    saved = os.environ.get("MINIXLA_CHECK_BOUNDS")
    os.environ["MINIXLA_CHECK_BOUNDS"] = "1" if on else "0"
    try:
        yield
    finally:
        if saved is None:
            del os.environ["MINIXLA_CHECK_BOUNDS"]
        else:
            os.environ["MINIXLA_CHECK_BOUNDS"] = saved


def shrink(module: ModuleOp, seed: int, check_bounds: bool = True) -> ModuleOp:
    """Delta debugging on the IR: drop outputs, bypass ops, turn ops into arguments, while it still fails."""
    module = module.clone()
    changed = True
    while changed:
        changed = False
        fn = next(op for op in module.ops if isinstance(op, func.FuncOp))
        ret = fn.body.block.last_op
        for k in range(len(ret.operands)):  # fewer outputs
            if len(ret.operands) <= 1:
                break
            trial = _without_output(module, k)
            if trial is not None and mismatch(trial, seed, check_bounds):
                module, changed = trial, True
                break
        if changed:
            continue
        ops = [op for op in fn.body.block.ops if op is not ret]
        for i in reversed(range(len(ops))):  # an op is bypassed (its result replaced by an operand), or
            trials = [_bypassed(module, i, k) for k in range(len(ops[i].operands))]  # becomes arguments
            for trial in [*trials, _as_argument(module, i)]:
                if trial is not None and mismatch(trial, seed, check_bounds):
                    module, changed = trial, True
                    break
            if changed:
                break
    return module


def _entry(module: ModuleOp) -> func.FuncOp:
    return next(op for op in module.ops if isinstance(op, func.FuncOp))


def _without_output(module: ModuleOp, k: int) -> ModuleOp | None:
    m = module.clone()
    fn = _entry(m)
    ret = fn.body.block.last_op
    keep = [v for j, v in enumerate(ret.operands) if j != k]
    new_ret = func.ReturnOp(*keep)
    fn.body.block.insert_op_before(new_ret, ret)
    ret.detach()
    ret.erase()
    fn.function_type = FunctionType.from_lists(list(fn.function_type.inputs.data), [v.type for v in keep])
    _dce(fn)
    return m


def _bypassed(module: ModuleOp, i: int, k: int) -> ModuleOp | None:
    """Op #i's single result replaced by its operand #k (None when their types differ)."""
    ret = _entry(module).body.block.last_op
    op = [o for o in _entry(module).body.block.ops if o is not ret][i]
    if len(op.results) != 1 or op.operands[k].type != op.results[0].type:
        return None
    m = module.clone()
    fn = _entry(m)
    ret = fn.body.block.last_op
    op = [o for o in fn.body.block.ops if o is not ret][i]
    op.results[0].replace_all_uses_with(op.operands[k])
    _dce(fn)
    _drop_unused_args(fn)
    return m


def _as_argument(module: ModuleOp, i: int) -> ModuleOp | None:
    """Op #i's results (a while's, a case's: all of them) become new arguments."""
    m = module.clone()
    fn = _entry(m)
    ret = fn.body.block.last_op
    ops = [op for op in fn.body.block.ops if op is not ret]
    op = ops[i]
    if not op.results:
        return None
    for r in op.results:
        arg = fn.body.block.insert_arg(r.type, len(fn.body.block.args))
        r.replace_all_uses_with(arg)
    op.detach()
    op.erase()
    fn.function_type = FunctionType.from_lists([a.type for a in fn.body.block.args],
                                               list(fn.function_type.outputs.data))
    _dce(fn)
    _drop_unused_args(fn)
    return m


def _dce(fn: func.FuncOp) -> None:
    changed = True
    while changed:
        changed = False
        for op in reversed(list(fn.body.block.ops)):
            if op.results and all(not r.uses for r in op.results):
                op.detach()
                op.erase()
                changed = True


def _drop_unused_args(fn: func.FuncOp) -> None:
    block = fn.body.block
    for arg in reversed(list(block.args)):
        if not arg.uses and len(block.args) > 1:
            block.erase_arg(arg)
    fn.function_type = FunctionType.from_lists([a.type for a in block.args], list(fn.function_type.outputs.data))


@dataclass
class Report:
    programs: int = 0
    seconds: float = 0.0
    failures: list[tuple[int, str, str]] = field(default_factory=list)  # (seed, reason, shrunk mlir)

    @property
    def rate(self) -> float:
        return self.programs / self.seconds if self.seconds else 0.0


def run(n: int, seed: int = 0, n_ops: int = 8, out: Path | None = None, log=None,
        check_bounds: bool = True, max_failures: int | None = None) -> Report:
    """Fuzz `n` programs from `seed`; shrink and (with `out`) write every failure; stop after
    `max_failures` failures when given (one broken lowering fails many programs)."""
    report = Report()
    start = time.perf_counter()
    for k in range(n):
        program_seed = seed * 1_000_003 + k
        program = Generator(np.random.default_rng(program_seed), n_ops).program(program_seed)
        reason = mismatch(program.module, program_seed, check_bounds)
        report.programs += 1
        if reason is not None:
            small = shrink(program.module, program_seed, check_bounds)
            text = Program(small, [], program_seed).text()
            report.failures.append((program_seed, reason, text))
            if out is not None:
                out.mkdir(parents=True, exist_ok=True)
                comment = reason.replace("\n", "\n// ")  # a multi-line reason stays a comment
                (out / f"fuzz-{program_seed}.mlir").write_text(
                    f"// minixla fuzz seed {program_seed}: {comment}\n// inputs: tools.fuzz.inputs_for(types, "
                    f"{program_seed})\n{text}\n")
            if max_failures is not None and len(report.failures) >= max_failures:
                break
        if log is not None and (k + 1) % 100 == 0:
            log(f"{k + 1} programs, {len(report.failures)} mismatches, "
                f"{(k + 1) / (time.perf_counter() - start):.1f} programs/s")
    report.seconds = time.perf_counter() - start
    return report


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--n", type=int, default=1000, help="number of programs")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--max-failures", type=int, default=None, help="stop after this many shrunk failures")
    p.add_argument("--ops", type=int, default=8, help="ops per program")
    p.add_argument("--out", type=Path, default=None, help="write shrunk failing programs here")
    p.add_argument("--no-check-bounds", action="store_true",
                   help="compile without MINIXLA_CHECK_BOUNDS (about twice the programs per second)")
    args = p.parse_args(argv)
    report = run(args.n, args.seed, args.ops, args.out, log=lambda s: print(s, file=sys.stderr),
                 check_bounds=not args.no_check_bounds, max_failures=args.max_failures)
    print(f"{report.programs} programs in {report.seconds:.1f} s ({report.rate:.1f} programs/s), "
          f"{len(report.failures)} mismatches (interpreter vs cpu)")
    for s, reason, _ in report.failures[:20]:
        print(f"  seed {s}: {reason}")
    return 1 if report.failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
