"""expand-math-polynomials (passes/math_polynomials.py): f32 exp/expm1/tanh/log/log1p compiled through the CPU
backend, against numpy float64 rounded to f32 (the oracle), in ulps of the f32 result.

The default run sweeps every f32 in a window around each expansion's worst case plus random bit
patterns over its whole domain; the slow run sweeps every f32 of the domain where results are not
constant (the figures the module docstring states)."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.parser import Parser

from minixla.backends.cpu.backend import CpuBackend
from minixla.dialects import load_all
from minixla.passes.pipelines import hlo_to_cpu

N = 1 << 20
ORACLE = {"exponential": np.exp, "exponential_minus_one": np.expm1, "tanh": np.tanh, "log": np.log,
          "log_plus_one": np.log1p}
#: max error in ulps measured over every f32 of DOMAIN (module docstring)
BOUND = {"exponential": 1.0, "exponential_minus_one": 1.6, "tanh": 1.1, "log": 1.0, "log_plus_one": 1.5}
#: where results are not constant: exp is 0 below and +inf above (expm1 -1, +inf), tanh +-1 outside
DOMAIN = {"exponential": (-104.0, 89.0), "exponential_minus_one": (-90.0, 89.0), "tanh": (-10.0, 10.0),
          "log": (0.0, float("inf")), "log_plus_one": (-1.0, float("inf"))}
#: the worst-case neighbourhoods found by the full sweep
WINDOW = {"exponential": (-81.5, -81.3), "exponential_minus_one": (0.37, 0.39), "tanh": (0.85, 0.95),
          "log": (0.70, 0.71), "log_plus_one": (-8.95e-8, -8.93e-8)}

_COMPILED: dict[str, object] = {}


def compiled(name: str):
    if name not in _COMPILED:
        text = f"""func.func @main(%x: tensor<{N}xf32>) -> tensor<{N}xf32> {{
  %0 = hlo.{name} %x : tensor<{N}xf32>
  func.return %0 : tensor<{N}xf32>
}}"""
        _COMPILED[name] = CpuBackend().compile(Parser(load_all(), text).parse_module())
    return _COMPILED[name]


def run(name: str, x: np.ndarray) -> np.ndarray:
    out = np.empty_like(x)
    for start in range(0, len(x), N):
        chunk = np.zeros(N, np.float32)
        n = len(x[start:start + N])
        chunk[:n] = x[start:start + N]
        out[start:start + n] = np.asarray(compiled(name)(chunk)[0])[:n]
    return out


def ulp_error(name: str, x: np.ndarray, got: np.ndarray) -> np.ndarray:
    with np.errstate(all="ignore"):
        want = ORACLE[name](x.astype(np.float64))
        rounded = want.astype(np.float32)
        err = np.abs(got.astype(np.float64) - want) / np.spacing(np.abs(rounded)).astype(np.float64)
    err[(got == rounded) | np.isnan(got) & np.isnan(rounded)] = 0.0
    return err


def every_float(lo: float, hi: float) -> np.ndarray:
    """Every f32 in [lo, hi) (lo, hi of one sign, or lo = 0)."""
    a, b = np.array([lo, hi], np.float32).view(np.int32)
    return np.arange(min(a, b), max(a, b), dtype=np.int32).view(np.float32)


def random_floats(lo: float, hi: float, n: int, seed: int) -> np.ndarray:
    bits = np.random.default_rng(seed).integers(0, 1 << 32, n, dtype=np.uint64).astype(np.uint32)
    x = bits.view(np.float32)
    return x[(x >= lo) & (x < hi)]


@pytest.mark.parametrize("name", list(ORACLE))
def test_error_bound(name: str):
    lo, hi = DOMAIN[name]
    x = np.concatenate([every_float(*WINDOW[name]), random_floats(lo, hi, N, 0)])
    err = ulp_error(name, x, run(name, x))
    assert err.max() <= BOUND[name], f"{name}: {err.max():.3f} ulp at x={x[err.argmax()]!r}"
    assert err.max() > 0.5  # the window holds the worst cases: the check can see an error


SPECIAL = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, -np.nan, 1.0, -1.0, 1e-45, -1e-45, 1.1754942e-38,
                    3.4028235e38, -3.4028235e38, 88.72283, 88.72284, 89.0, -87.33654, -103.972, -103.97208,
                    -104.0, -150.0, 9.0, 9.01, 9.1, -9.1, 10.0, 20.0, -20.0, -1.5, -0.99999994, 3e-8, -3e-8,
                    -87.0, -88.0, 88.8], np.float32)


@pytest.mark.parametrize("name", list(ORACLE))
def test_special_values(name: str):
    """Exact at +-0, +-inf, NaN, the overflow/underflow thresholds and tanh's saturation (sign of zero
    too); other points within the bound."""
    got = run(name, SPECIAL)
    with np.errstate(all="ignore"):
        want = ORACLE[name](SPECIAL.astype(np.float64)).astype(np.float32)
    exact = ~np.isfinite(want) | (want == 0) | (np.abs(want) == 1) | ~np.isfinite(SPECIAL) | (SPECIAL == 0)
    np.testing.assert_array_equal(got[exact], want[exact])
    signed = exact & ~np.isnan(want)  # (a NaN's sign means nothing)
    np.testing.assert_array_equal(np.signbit(got[signed]), np.signbit(want[signed]))
    assert ulp_error(name, SPECIAL, got).max() <= BOUND[name]


def test_pipeline_switch():
    """`hlo-to-cpu` runs the expansion on the final loops, after the threading decision;
    `math_approx=False` (what MINIXLA_FAST_MATH_APPROX=0 asks the CPU backend for) leaves it out."""
    assert "convert-parallel-loops-to-threads,expand-math-polynomials,arith-emulate" in hlo_to_cpu()
    assert "expand-math-polynomials" not in hlo_to_cpu(math_approx=False)


def test_env_switch(monkeypatch):
    from minixla.backends.cpu.blas import cpu_pipeline

    monkeypatch.setenv("MINIXLA_FAST_MATH_APPROX", "0")
    assert "expand-math-polynomials" not in cpu_pipeline()
    monkeypatch.delenv("MINIXLA_FAST_MATH_APPROX")
    assert "expand-math-polynomials" in cpu_pipeline()


@pytest.mark.slow
@pytest.mark.parametrize("name", list(ORACLE))
def test_every_float(name: str):
    lo, hi = DOMAIN[name]
    parts = [(lo, -0.0), (0.0, hi)] if lo < 0 else [(lo, hi)]
    worst = 0.0
    for a, b in parts:
        x = every_float(a, b)
        for start in range(0, len(x), 1 << 24):
            chunk = x[start:start + (1 << 24)]
            worst = max(worst, float(ulp_error(name, chunk, run(name, chunk)).max()))
    assert worst <= BOUND[name]
