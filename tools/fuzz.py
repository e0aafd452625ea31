"""A differential fuzzer: random well-typed hlo programs (tools/fuzz_gen.py), run on
the reference interpreter and on the CPU backend, compared; a mismatch is shrunk
(delta debugging, tools/fuzz_shrink.py) to a minimal `.mlir` that reproduces it.
`--tf` fuzzes random TF programs instead: eager vs jit vs numpy (tools/fuzz_tf.py).

    python -m minixla.tools.fuzz --n 10000 --seed 0 [--ops 8] [--out fuzz-failures/] [--tf]

Inputs are seeded per program (small values; floats also get 0, -0, +-inf and
NaN). Floats compare with a tolerance that fits their precision (and NaN ==
NaN), everything else exactly. The CPU code runs with bounds checks
(MINIXLA_CHECK_BOUNDS=1), so an out-of-bounds access is a finding too.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from xdsl.dialects.builtin import ModuleOp

from minixla.backends import get_backend
from minixla.dialects.numpy_types import numpy_dtype
from minixla.tools.fuzz_gen import Generator, Program, kind
from minixla.tools.fuzz_shrink import entry, shrink

# (rtol, atol) per float width: one rounding step of the narrow types is already ~1e-3
TOLERANCE = {2: (2e-2, 2e-2), 4: (1e-4, 1e-5), 8: (1e-4, 1e-5)}


def inputs_for(types, seed: int) -> list[np.ndarray]:
    """Seeded inputs for argument types (small values, some special floats)."""
    rng = np.random.default_rng(seed)
    out = []
    for t in types:
        shape, dt = tuple(t.get_shape()), numpy_dtype(t.get_element_type())
        k = kind(dt)
        if k == "bool":
            out.append(rng.random(shape) < 0.5)
        elif k in ("int", "uint"):
            out.append(rng.integers(0 if k == "uint" else -20, 21, shape).astype(dt))
        else:
            a = (rng.standard_normal(shape) * 4).astype(dt)
            if a.size and rng.random() < 0.3:
                a.reshape(-1)[int(rng.integers(a.size))] = rng.choice([0.0, -0.0, np.inf, -np.inf, np.nan])
            out.append(a)
    return out


def same(a, b) -> bool:
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    if kind(a.dtype) == "float":
        rtol, atol = TOLERANCE[a.dtype.itemsize]
        a64, b64 = a.astype(np.float64), b.astype(np.float64)
        return bool(np.allclose(a64, b64, rtol=rtol, atol=atol, equal_nan=True))
    return bool(np.array_equal(a, b))


def mismatch(module: ModuleOp, seed: int, check_bounds: bool = True) -> str | None:
    """Why interpreter and CPU disagree on `module` (None: they agree); the CPU code is
    bounds-checked unless `check_bounds` is False."""
    from minixla.backends.cpu.bounds import checking_bounds

    args = inputs_for(entry(module).function_type.inputs.data, seed)
    with np.errstate(all="ignore"):
        try:
            want = get_backend("interpreter").compile(module, "main")(*args)
        except Exception as err:  # noqa: BLE001 -- so is an interpreter failure
            return f"interpreter failed: {type(err).__name__}: {str(err).splitlines()[0] if str(err) else ''}"
        try:
            with checking_bounds(check_bounds):
                got = get_backend("cpu").compile(module, "main")(*args)
        except Exception as err:  # noqa: BLE001 -- a CPU compile/run failure is a finding
            return f"cpu failed: {type(err).__name__}: {str(err).splitlines()[0] if str(err) else ''}"
    for i, (w, g) in enumerate(zip(want, got)):
        if not same(g, w):
            return (f"output #{i}: interpreter {np.asarray(w).ravel()[:6]} vs cpu {np.asarray(g).ravel()[:6]}"
                    f" ({np.asarray(w).dtype}{list(np.shape(w))})")
    return None


def shrink_failure(module: ModuleOp, seed: int, check_bounds: bool = True) -> ModuleOp:
    """The smallest variant of `module` on which interpreter and CPU still disagree."""
    return shrink(module, lambda m: mismatch(m, seed, check_bounds) is not None)


@dataclass
class Report:
    programs: int = 0
    seconds: float = 0.0
    failures: list[tuple[int, str, str]] = field(default_factory=list)  # (seed, reason, shrunk program)
    ops: dict[str, int] = field(default_factory=dict)  # how often each op was drawn

    @property
    def rate(self) -> float:
        return self.programs / self.seconds if self.seconds else 0.0


def write_failure(out: Path, seed: int, reason: str, text: str, suffix: str = "mlir") -> None:
    out.mkdir(parents=True, exist_ok=True)
    comment = "#" if suffix == "py" else "//"
    (out / f"fuzz-{seed}.{suffix}").write_text(
        f"{comment} minixla fuzz seed {seed}: {reason}\n{comment} inputs: minixla.tools.fuzz.inputs_for(types, {seed})"
        f"\n{text}\n")


@contextmanager
def no_disk_cache() -> Iterator[None]:
    """Random programs never repeat: writing each to the compile cache would only cost time."""
    saved = os.environ.get("MINIXLA_DISABLE_CACHE")
    os.environ["MINIXLA_DISABLE_CACHE"] = "1"
    try:
        yield
    finally:
        if saved is None:
            os.environ.pop("MINIXLA_DISABLE_CACHE", None)
        else:
            os.environ["MINIXLA_DISABLE_CACHE"] = saved


def run(n: int, seed: int = 0, n_ops: int = 8, out: Path | None = None, log=None,
        check_bounds: bool = True) -> Report:
    """Fuzz `n` hlo programs from `seed`; shrink and (with `out`) write every failure."""
    with no_disk_cache():
        return _run(n, seed, n_ops, out, log, check_bounds)


def _run(n: int, seed: int, n_ops: int, out: Path | None, log, check_bounds: bool) -> Report:
    report = Report()
    start = time.perf_counter()
    for k in range(n):
        program_seed = seed * 1_000_003 + k
        program = Generator(np.random.default_rng(program_seed), n_ops).program(program_seed)
        for op in program.ops:
            report.ops[op] = report.ops.get(op, 0) + 1
        reason = mismatch(program.module, program_seed, check_bounds)
        report.programs += 1
        if reason is not None:
            text = Program(shrink_failure(program.module, program_seed, check_bounds), [], program_seed).text()
            report.failures.append((program_seed, reason, text))
            if log is not None:
                log(f"seed {program_seed}: {reason}\n{text}")
            if out is not None:
                write_failure(out, program_seed, reason, text)
        if log is not None and (k + 1) % 100 == 0:
            log(f"{k + 1} programs, {len(report.failures)} mismatches, "
                f"{(k + 1) / (time.perf_counter() - start):.1f} programs/s")
    report.seconds = time.perf_counter() - start
    return report


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--n", type=int, default=1000, help="number of programs")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--ops", type=int, default=8, help="ops per program")
    p.add_argument("--out", type=Path, default=None, help="write shrunk failing programs here")
    p.add_argument("--tf", action="store_true", help="random TF programs: eager vs jit vs numpy")
    p.add_argument("--no-check-bounds", action="store_true", help="CPU code without bounds checks (faster)")
    args = p.parse_args(argv)
    log = lambda s: print(s, file=sys.stderr, flush=True)  # noqa: E731
    if args.tf:
        from minixla.tools import fuzz_tf

        report = fuzz_tf.run(args.n, args.seed, args.ops, args.out, log=log)
        what = "eager vs jit vs numpy"
    else:
        report = run(args.n, args.seed, args.ops, args.out, log=log, check_bounds=not args.no_check_bounds)
        what = "interpreter vs cpu"
    print(f"{report.programs} programs in {report.seconds:.1f} s ({report.rate:.1f} programs/s), "
          f"{len(report.failures)} mismatches ({what})")
    print("ops drawn: " + ", ".join(f"{k} {v}" for k, v in sorted(report.ops.items())))
    for s, reason, _ in report.failures[:20]:
        print(f"  seed {s}: {reason}")
    return 1 if report.failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
