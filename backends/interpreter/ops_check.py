"""The `check` dialect, with the semantics of StableHLO's checker
(stablehlo/tests/CheckOps.cpp and reference/Element.cpp):

* expect_eq / expect_eq_const: exact, IEEE equality for floats, so -0.0 == 0.0
  and NaN != NaN (StableHLO compares with APFloat `==`).
* expect_almost_eq / expect_almost_eq_const: per element (complex: per part)
  equal, or both NaN, or both finite with the same sign and |a - b| <= tolerance
  (default 1e-4); an infinity only matches itself.
* expect_close: ULP distance within [min_ulp_difference, max_ulp_difference]
  (defaults 0 and 1) for finite values; non-finite values must be bitwise
  equal or both NaN (CheckOps.td).
"""

from __future__ import annotations

import numpy as np
import ml_dtypes
from ml_dtypes import finfo as ml_finfo

from minixla.backends.interpreter.attrs import prop
from minixla.dialects.numpy_types import bfloat16, bit_width, dense_attr_to_numpy, is_complex, is_float, uint_of
from minixla.backends.interpreter.errors import CheckFailure
from minixla.backends.interpreter.op_table import impl

DEFAULT_TOLERANCE = 1e-4


def _show(x: np.ndarray) -> str:
    if x.dtype == bfloat16:
        x = x.astype(np.float32)
    return np.array2string(np.asarray(x), threshold=16, edgeitems=3, max_line_width=120, separator=", ")


def _report(op_name: str, ok: np.ndarray, actual: np.ndarray, expected: np.ndarray, what: str) -> None:
    if actual.shape != expected.shape:
        raise CheckFailure(op_name, f"shapes differ: actual {list(actual.shape)} vs expected {list(expected.shape)}")
    ok = np.broadcast_to(ok, actual.shape)
    if ok.all():
        return
    bad = np.argwhere(~ok)
    first = tuple(int(i) for i in bad[0])
    a = actual[first] if actual.ndim else actual
    e = expected[first] if expected.ndim else expected
    raise CheckFailure(
        op_name,
        f"{len(bad)} of {actual.size} elements {what}; first at index {list(first)}: "
        f"actual {_show(np.asarray(a))} vs expected {_show(np.asarray(e))}\n"
        f"  actual:   {_show(actual)}\n  expected: {_show(expected)}",
        index=first)


def equal(actual: np.ndarray, expected: np.ndarray) -> np.ndarray:
    if is_float(actual.dtype):
        return actual.astype(np.float64) == expected.astype(np.float64)
    return actual == expected


def _almost_real(a: np.ndarray, b: np.ndarray, tol: float) -> np.ndarray:
    a, b = a.astype(np.float64), b.astype(np.float64)
    both_nan = np.isnan(a) & np.isnan(b)
    finite = np.isfinite(a) & np.isfinite(b)
    same_sign = np.signbit(a) == np.signbit(b)
    with np.errstate(invalid="ignore"):  # inf - inf is masked out by `finite`
        close = finite & same_sign & (np.abs(a - b) <= tol)
    return (a == b) | both_nan | close


def almost_equal(actual: np.ndarray, expected: np.ndarray, tol: float = DEFAULT_TOLERANCE) -> np.ndarray:
    if is_complex(actual.dtype):
        return _almost_real(actual.real, expected.real, tol) & _almost_real(actual.imag, expected.imag, tol)
    return _almost_real(actual, expected, tol)


def _magnitude_bits(x: np.ndarray) -> np.ndarray:
    """|x|'s bit pattern as Python ints (object array: sums cannot overflow)."""
    u = x.view(np.uint16) if x.dtype == bfloat16 else x.view(uint_of(x.dtype))
    width = bit_width(x.dtype)  # fp6/fp4: the sign is bit 5/3 of the byte; f8E8M0FNU has none
    mask = (1 << width) - 1 if x.dtype == ml_dtypes.float8_e8m0fnu else (1 << (width - 1)) - 1
    return (u.astype(object) & mask) if u.size else np.zeros(u.shape, dtype=object)


def _ulp_real(a: np.ndarray, b: np.ndarray, lo: int, hi: int) -> np.ndarray:
    """StableHLO's ULPDifference: subnormals count as one step towards the
    smallest normal; values of opposite sign add their distances to zero."""
    tiny = np.array(ml_finfo(a.dtype).smallest_normal, dtype=a.dtype)
    z = int(_magnitude_bits(tiny.reshape(1))[0]) - 1
    ma, mb = _magnitude_bits(a), _magnitude_bits(b)

    def towards_normal(m):
        return np.where(m > z, m - z, np.where(2 * m < z, 0, 1)) if m.size else m

    wa, wb = a.astype(np.float64), b.astype(np.float64)
    sa, sb = towards_normal(ma), towards_normal(mb)
    dist = np.where(np.signbit(wa) != np.signbit(wb), sa + sb, abs(sa - sb)) if a.size else sa
    within = ((dist >= lo) & (dist <= hi)).astype(bool) if a.size else np.ones(a.shape, dtype=bool)
    finite = np.isfinite(wa) & np.isfinite(wb)
    same_bits = ma == mb
    same_bits = same_bits.astype(bool) & (np.signbit(wa) == np.signbit(wb)) if a.size else np.ones(a.shape, bool)
    return np.where(finite, within, same_bits | (np.isnan(wa) & np.isnan(wb)))


def close(actual: np.ndarray, expected: np.ndarray, max_ulp: int = 1, min_ulp: int = 0) -> np.ndarray:
    shape = actual.shape
    a, e = np.array(actual, copy=True).reshape(-1), np.array(expected, copy=True).reshape(-1)
    if is_complex(a.dtype):
        ok = _ulp_real(a.real.copy(), e.real.copy(), min_ulp, max_ulp) & \
            _ulp_real(a.imag.copy(), e.imag.copy(), min_ulp, max_ulp)
    else:
        ok = _ulp_real(a, e, min_ulp, max_ulp)
    return np.asarray(ok, dtype=bool).reshape(shape)


def _tolerance(op) -> float:
    t = prop(op, "tolerance")
    return DEFAULT_TOLERANCE if t is None else float(t.value.data)


def _const(op) -> np.ndarray:
    return dense_attr_to_numpy(prop(op, "value"), op.operands[0].type)


@impl("check.expect_eq")
def _expect_eq(op, args, interp):
    _report(op.name, equal(args[0], args[1]), args[0], args[1], "differ")


@impl("check.expect_eq_const")
def _expect_eq_const(op, args, interp):
    expected = _const(op)
    _report(op.name, equal(args[0], expected), args[0], expected, "differ")


@impl("check.expect_almost_eq")
def _expect_almost_eq(op, args, interp):
    tol = _tolerance(op)
    _report(op.name, almost_equal(args[0], args[1], tol), args[0], args[1], f"differ by more than {tol}")


@impl("check.expect_almost_eq_const")
def _expect_almost_eq_const(op, args, interp):
    expected, tol = _const(op), _tolerance(op)
    _report(op.name, almost_equal(args[0], expected, tol), args[0], expected, f"differ by more than {tol}")


@impl("check.expect_close")
def _expect_close(op, args, interp):
    hi = prop(op, "max_ulp_difference")
    lo = prop(op, "min_ulp_difference")
    hi = 1 if hi is None else int(hi.value.data)
    lo = 0 if lo is None else int(lo.value.data)
    _report(op.name, close(args[0], args[1], hi, lo), args[0], args[1],
            f"are not within [{lo}, {hi}] ULP")


# -- probes: interpreter.probe records, check.expect_serialized_eq compares bit for bit --------


def probes(interp) -> dict[str, list[np.ndarray]]:
    """probe_id -> the values recorded so far, in execution order (kept on the interpreter)."""
    return interp.__dict__.setdefault("probes", {})


@impl("interpreter.probe")
def _probe(op, args, interp):
    probes(interp).setdefault(prop(op, "probe_id").data, []).append(np.array(args[0], copy=True))
    return args[0]


def same_bits(actual: np.ndarray, expected: np.ndarray) -> np.ndarray:
    if actual.dtype != expected.dtype:
        return np.zeros(actual.shape, bool)
    if actual.shape != expected.shape:
        return np.zeros((), bool)
    a, e = (np.ascontiguousarray(x).reshape(-1).view(np.uint8).reshape(*x.shape, x.itemsize) for x in (actual, expected))
    return (a == e).all(axis=-1)


@impl("check.expect_serialized_eq")
def _expect_serialized_eq(op, args, interp):
    """args: (expected,) on the interpreter; (expected, recorded, count) for an outlined check."""
    probe_id, n = prop(op, "probe_id").data, int(prop(op, "iter").value.data) if prop(op, "iter") else 0
    if len(args) == 3:
        recorded, count = args[1], int(args[2])
    else:
        seen = probes(interp).get(probe_id, [])
        recorded, count = (seen[n] if n < len(seen) else None), len(seen)
    if n >= count:
        raise CheckFailure(op.name, f"probe '{probe_id}' recorded {count} values, no iteration {n}")
    _report(op.name, same_bits(recorded, args[0]), recorded, args[0], f"differ from probe '{probe_id}' (iter {n})")
