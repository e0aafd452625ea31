"""Random TF programs run three ways -- eagerly, under `tf.function(jit_compile=True)` and in
numpy -- and compared (the frontend half of the differential fuzzer).

    python -m minixla.tools.fuzz_tf --n 1000 --seed 0

A program is a plan: random float32 or int32 inputs, then a chain of steps drawn from OPS, each
naming its inputs by position, with parameters drawn once so the three runs do the same thing.
numpy is the oracle; inputs stay in ranges where the ops are defined (logs and divisions get
positive operands; integer division by |b| + 1). Floats compare with rtol 1e-4 / atol 1e-4 and
NaN == NaN, integers exactly. A failing plan is shrunk: the shortest failing prefix, then every
step that can be replaced by its value is (`shrink`); the report lists the steps left.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass, field

import numpy as np

Step = tuple[str, tuple[int, ...], dict]

UNARY = {
    "abs": (lambda tf, x: tf.abs(x), np.abs),
    "negative": (lambda tf, x: tf.negative(x), np.negative),
    "square": (lambda tf, x: tf.square(x), np.square),
    "tanh": (lambda tf, x: tf.tanh(x), np.tanh),
    "sin": (lambda tf, x: tf.sin(x), np.sin),
    "cos": (lambda tf, x: tf.cos(x), np.cos),
    "sigmoid": (lambda tf, x: tf.sigmoid(x), lambda x: (1 / (1 + np.exp(-x))).astype(np.float32)),
    "relu": (lambda tf, x: tf.nn.relu(x), lambda x: np.maximum(x, np.float32(0))),
    "floor": (lambda tf, x: tf.floor(x), np.floor),
    "ceil": (lambda tf, x: tf.math.ceil(x), np.ceil),
    "exp_clipped": (lambda tf, x: tf.exp(tf.clip_by_value(x, -5.0, 5.0)), lambda x: np.exp(np.clip(x, -5, 5))),
    "log_abs1": (lambda tf, x: tf.math.log(tf.abs(x) + 1.0), lambda x: np.log(np.abs(x) + np.float32(1))),
}
BINARY = {
    "add": (lambda tf, a, b: tf.add(a, b), np.add),
    "subtract": (lambda tf, a, b: tf.subtract(a, b), np.subtract),
    "multiply": (lambda tf, a, b: tf.multiply(a, b), np.multiply),
    "maximum": (lambda tf, a, b: tf.maximum(a, b), np.maximum),
    "minimum": (lambda tf, a, b: tf.minimum(a, b), np.minimum),
    "divide_pos": (lambda tf, a, b: tf.divide(a, tf.abs(b) + 1.0), lambda a, b: a / (np.abs(b) + np.float32(1))),
    "where_pos": (lambda tf, a, b: tf.where(a > 0, a, b), lambda a, b: np.where(a > 0, a, b)),
}


# integer programs: these names, looked up in UNARY/BINARY first, then in INT_ONLY
INT_UNARY = ["abs", "negative", "square", "relu", "sign"]
INT_BINARY = ["add", "subtract", "multiply", "maximum", "minimum", "where_pos", "floordiv_pos", "floormod_pos",
              "truncatediv_pos"]
INT_ONLY = {
    "sign": (lambda tf, x: tf.sign(x), np.sign),
    "floordiv_pos": (lambda tf, a, b: tf.math.floordiv(a, tf.abs(b) + 1), lambda a, b: a // (np.abs(b) + 1)),
    "floormod_pos": (lambda tf, a, b: tf.math.floormod(a, tf.abs(b) + 1), lambda a, b: a % (np.abs(b) + 1)),
    "truncatediv_pos": (lambda tf, a, b: tf.truncatediv(a, tf.abs(b) + 1),
                        lambda a, b: np.trunc(a / (np.abs(b) + 1)).astype(a.dtype)),
}


def _fns(name: str) -> tuple | None:
    """(tf, numpy) of an elementwise step, read at call time (so a patched entry is what runs)."""
    return UNARY.get(name) or BINARY.get(name) or INT_ONLY.get(name)


def _reduce(name):
    np_fn = {"reduce_sum": np.sum, "reduce_mean": np.mean, "reduce_max": np.max, "reduce_min": np.min}[name]
    return (lambda tf, x, axis, keepdims: getattr(tf, name)(x, axis=axis, keepdims=keepdims),
            lambda x, axis, keepdims: np_fn(x, axis=axis, keepdims=keepdims).astype(np.float32))


REDUCTIONS = {n: _reduce(n) for n in ("reduce_sum", "reduce_mean", "reduce_max", "reduce_min")}


class Plan:
    """Generates steps and runs them on any `ops(name, args, params)` implementation."""

    def __init__(self, rng: np.random.Generator, n_ops: int):
        self.rng, self.n_ops = rng, n_ops
        self.dtype = np.dtype(np.int32 if rng.random() < 0.3 else np.float32)
        self.inputs = [self._array() for _ in range(int(rng.integers(1, 4)))]
        self.steps: list[Step] = []
        values = list(self.inputs)
        while len(self.steps) < n_ops:
            step = self._draw(values)
            if step is not None:
                values.append(_numpy(step, values))
                self.steps.append(step)

    def _array(self) -> np.ndarray:
        shape = tuple(int(d) for d in self.rng.choice([1, 2, 3, 4], size=int(self.rng.integers(1, 4))))
        if self.dtype.kind == "i":
            return self.rng.integers(-9, 10, shape).astype(self.dtype)
        return (self.rng.standard_normal(shape) * 2).astype(np.float32)

    def with_steps(self, steps: list[Step]) -> Plan:
        """The same inputs with other steps (for shrinking)."""
        plan = Plan.__new__(Plan)
        plan.rng, plan.n_ops, plan.dtype, plan.inputs, plan.steps = self.rng, len(steps), self.dtype, self.inputs, steps
        return plan

    def _draw(self, values) -> Step | None:
        rng = self.rng
        i = int(rng.integers(len(values)))
        x = values[i]
        kind = str(rng.choice(["unary", "binary", "binary", "reduce", "transpose", "reshape", "concat", "matmul",
                               "cumsum", "slice", "tile"]))
        integer = self.dtype.kind == "i"
        if kind == "unary":
            return str(rng.choice(list(INT_UNARY if integer else UNARY))), (i,), {}
        if kind == "binary":  # numpy broadcasting: any pair that broadcasts
            j = int(rng.integers(len(values)))
            try:
                np.broadcast_shapes(x.shape, values[j].shape)
            except ValueError:
                return None
            return str(rng.choice(list(INT_BINARY if integer else BINARY))), (i, j), {}
        if kind == "reduce" and x.ndim:
            axis = int(rng.integers(-x.ndim, x.ndim))
            names = [n for n in REDUCTIONS if not (integer and n == "reduce_mean")]  # TF's integer mean truncates
            return str(rng.choice(names)), (i,), {"axis": axis, "keepdims": bool(rng.random() < 0.5)}
        if kind == "transpose" and x.ndim >= 2:
            return "transpose", (i,), {"perm": [int(p) for p in rng.permutation(x.ndim)]}
        if kind == "reshape":
            return "reshape", (i,), {"shape": [-1] if rng.random() < 0.5 else [1, x.size]}
        if kind == "concat" and x.ndim:
            j = int(rng.integers(len(values)))
            axis = int(rng.integers(x.ndim))
            y = values[j]
            if y.ndim == x.ndim and all(a == b for k, (a, b) in enumerate(zip(x.shape, y.shape)) if k != axis):
                return "concat", (i, j), {"axis": axis}
            return None
        if kind == "matmul" and x.ndim == 2:
            w_shape = (x.shape[1], int(rng.integers(1, 4)))
            w = (rng.integers(-3, 4, w_shape) if integer else rng.standard_normal(w_shape) * 0.5).astype(self.dtype)
            return "matmul", (i,), {"w": w}
        if kind == "cumsum" and x.ndim:
            return "cumsum", (i,), {"axis": int(rng.integers(x.ndim)), "reverse": bool(rng.random() < 0.5)}
        if kind == "slice" and x.ndim:
            begin = [int(rng.integers(0, d)) for d in x.shape]
            size = [int(rng.integers(1, d - b + 1)) for d, b in zip(x.shape, begin)]
            return "slice", (i,), {"begin": begin, "size": size}
        if kind == "tile" and x.ndim:
            return "tile", (i,), {"multiples": [int(m) for m in rng.integers(1, 3, x.ndim)]}
        return None


def _numpy(step: Step, values) -> np.ndarray:
    name, idx, p = step
    if name == "const":  # a step the shrinker replaced by its value
        return p["value"]
    args = [values[i] for i in idx]
    dt = args[0].dtype
    with np.errstate(all="ignore"):
        if _fns(name) is not None:
            return np.asarray(_fns(name)[1](*args)).astype(dt)
        if name in REDUCTIONS:
            return np.asarray(REDUCTIONS[name][1](args[0], p["axis"], p["keepdims"])).astype(dt)
        x = args[0]
        if name == "transpose":
            return np.transpose(x, p["perm"])
        if name == "reshape":
            return x.reshape(p["shape"])
        if name == "concat":
            return np.concatenate(args, p["axis"])
        if name == "matmul":
            return (x @ p["w"]).astype(dt)
        if name == "cumsum":
            ax = p["axis"]
            return (np.flip(np.cumsum(np.flip(x, ax), ax), ax) if p["reverse"] else np.cumsum(x, ax)).astype(dt)
        if name == "slice":
            return x[tuple(slice(b, b + s) for b, s in zip(p["begin"], p["size"]))]
        if name == "tile":
            return np.tile(x, p["multiples"])
    raise ValueError(name)


def _tf_step(tf, step: Step, values):
    name, idx, p = step
    if name == "const":
        return tf.constant(p["value"])
    args = [values[i] for i in idx]
    if _fns(name) is not None:
        return _fns(name)[0](tf, *args)
    if name in REDUCTIONS:
        return REDUCTIONS[name][0](tf, args[0], p["axis"], p["keepdims"])
    x = args[0]
    if name == "transpose":
        return tf.transpose(x, p["perm"])
    if name == "reshape":
        return tf.reshape(x, p["shape"])
    if name == "concat":
        return tf.concat(args, p["axis"])
    if name == "matmul":
        return tf.matmul(x, tf.constant(p["w"]))
    if name == "cumsum":
        return tf.math.cumsum(x, axis=p["axis"], reverse=p["reverse"])
    if name == "slice":
        return tf.slice(x, p["begin"], p["size"])
    if name == "tile":
        return tf.tile(x, p["multiples"])
    raise ValueError(name)


def run_tf(tf, plan: Plan, *tensors):
    values = list(tensors)
    for step in plan.steps:
        values.append(_tf_step(tf, step, values))
    return values[-1]


def _close(got, want) -> bool:
    got = np.asarray(got)
    if got.shape != want.shape or got.dtype != want.dtype:
        return False
    if want.dtype.kind != "f":
        return bool(np.array_equal(got, want))
    return bool(np.allclose(got, want, rtol=1e-4, atol=1e-4, equal_nan=True))


def shrink(plan: Plan) -> Plan:
    """Delta debugging on the steps: the shortest failing prefix, then each step replaced by its
    (numpy) value while the mismatch persists; what is left are the ops that matter."""
    for j in range(1, len(plan.steps)):
        prefix = plan.with_steps(plan.steps[:j])
        if mismatch(prefix) is not None:
            plan = prefix
            break
    values = list(plan.inputs)
    for step in plan.steps:
        values.append(_numpy(step, values))
    steps = list(plan.steps)
    for k in reversed(range(len(steps) - 1)):  # the last step stays: it is the output
        if steps[k][0] == "const":
            continue
        trial = steps[:k] + [("const", (), {"value": values[len(plan.inputs) + k]})] + steps[k + 1:]
        if mismatch(plan.with_steps(trial)) is not None:
            steps = trial
    return plan.with_steps(steps)


def mismatch(plan: Plan) -> str | None:
    """Why eager, jit and numpy disagree on `plan` (None: they agree)."""
    from minixla import tf

    values = list(plan.inputs)
    for step in plan.steps:
        values.append(_numpy(step, values))
    want = values[-1]
    tensors = [tf.constant(a) for a in plan.inputs]
    for mode in ("eager", "jit"):
        try:
            if mode == "eager":
                got = run_tf(tf, plan, *tensors)
            else:
                got = tf.function(lambda *a: run_tf(tf, plan, *a), jit_compile=True)(*tensors)
        except Exception as err:  # noqa: BLE001 -- a failure is a finding
            return f"{mode} failed: {type(err).__name__}: {err}"
        if not _close(got.numpy(), want):
            return f"{mode} vs numpy: {np.asarray(got.numpy()).ravel()[:4]} vs {want.ravel()[:4]}"
    return None


@dataclass
class Report:
    programs: int = 0
    seconds: float = 0.0
    failures: list[tuple[int, str, list]] = field(default_factory=list)  # (seed, reason, steps)


def run(n: int, seed: int = 0, n_ops: int = 6, log=None) -> Report:
    import logging

    from minixla import tf  # noqa: F401 -- imported first: it sets up the "tensorflow" logger

    logging.getLogger("tensorflow").setLevel(logging.ERROR)  # every program is a new tf.function: no retracing warning
    report = Report()
    start = time.perf_counter()
    for k in range(n):
        program_seed = seed * 1_000_003 + k
        plan = Plan(np.random.default_rng(program_seed), n_ops)
        reason = mismatch(plan)
        report.programs += 1
        if reason is not None:
            small = shrink(plan)  # the steps that still fail, the others replaced by constants
            report.failures.append((program_seed, reason, [(s[0], s[1]) for s in small.steps if s[0] != "const"]))
        if log is not None and (k + 1) % 100 == 0:
            log(f"{k + 1} programs, {len(report.failures)} mismatches, "
                f"{(k + 1) / (time.perf_counter() - start):.1f} programs/s")
    report.seconds = time.perf_counter() - start
    return report


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--n", type=int, default=1000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--ops", type=int, default=6)
    args = p.parse_args(argv)
    report = run(args.n, args.seed, args.ops, log=lambda s: print(s, file=sys.stderr))
    rate = report.programs / report.seconds if report.seconds else 0.0
    print(f"{report.programs} TF programs in {report.seconds:.1f} s ({rate:.1f} programs/s), "
          f"{len(report.failures)} mismatches (eager / jit vs numpy)")
    for s, reason, steps in report.failures[:20]:
        print(f"  seed {s}: {reason}\n    steps: {steps}")
    return 1 if report.failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
