"""The HLO builder API that decomposition rules are written against.

A rule calls `b.add(x, y)`, `b.reduce(x, init, dims, "add")`, ... on a
`Builder`. Every method checks its operands and infers the result type here,
once, then hands off to the subclass's `_apply`:

* `EagerBuilder` (builder_eager.py): values are numpy arrays, computed at
  once with the interpreter's kernels (exact StableHLO semantics);
* `TracingBuilder` (builder_trace.py): values wrap xDSL SSA values and each
  call appends the `hlo` op to the current block;
* `SpecBuilder` (below): values are just `Spec(shape, dtype)`; used to infer
  the result types of a TF op while tracing into the `tf` dialect.

So one rule serves eager execution, IR emission and type inference, and a
shape error reads the same in all three, naming the op, the operand shapes
and the user's source line.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from minixla.dialects.hlo_ops.elementwise import BINARY_OPS, UNARY_OPS
from minixla.frontend.builder_structured import StructuredOps
from minixla.frontend.builder_types import (  # noqa: F401  (re-exported: the builder API's types)
    BINARY, COMBINERS, UNARY, _CLASSES, ShapeError, Spec, _combiner_body, _ints, _kind, type_str)


class Builder(StructuredOps):
    """The op API. Subclasses implement `_constant` and `_apply`; the structured ops
    (gather, scatter, convolution, sort, while, ...) come from StructuredOps."""

    def _spec_builder(self) -> Builder:
        """A type-inference builder (for branch bodies of conditionals)."""
        return SpecBuilder()

    # ---- hooks ------------------------------------------------------------
    def _constant(self, array: np.ndarray) -> Any:
        raise NotImplementedError

    def _apply(self, op: str, operands: list, attrs: dict, results: list[Spec],
               body: Callable | None = None) -> list:
        raise NotImplementedError

    def _one(self, op: str, operands: list, attrs: dict, result: Spec) -> Any:
        return self._apply(op, operands, attrs, [result])[0]

    # ---- whole TF ops ---------------------------------------------------------
    def tf_op(self, name: str, *inputs, **attrs) -> list:
        """Registered TF op `name` on this builder's values (const inputs as numpy arrays); its outputs
        as a list. Here its decomposition; the eager and graph builders also run host ops, and the
        recording builder records ops with their own gradient rule as one unit (autodiff/tape.py)."""
        from minixla.frontend.ops.registry import get

        opdef = get(name)
        if not opdef.compilable:
            raise TypeError(f"TF op {name} has no decomposition: {type(self).__name__} cannot run it")
        res = opdef.rule(self, *inputs, **opdef.full_attrs(attrs))
        return list(res) if isinstance(res, tuple) else [res]

    # ---- constants ----------------------------------------------------------
    def constant(self, value, dtype=None) -> Any:
        """A literal (numpy semantics for `value`, cast to `dtype`)."""
        arr = np.asarray(value)
        if dtype is not None and arr.dtype != np.dtype(dtype):
            arr = arr.astype(np.dtype(dtype))
        return self._constant(np.array(arr, copy=True))

    def scalar(self, value, dtype) -> Any:
        return self.constant(np.asarray(value).astype(np.dtype(dtype)).reshape(()))

    def full(self, shape: Sequence[int], value, dtype) -> Any:
        """`value` broadcast to `shape` (a scalar constant + broadcast_in_dim, as tf2xla emits)."""
        s = self.scalar(value, dtype)
        return s if tuple(shape) == () else self.broadcast_in_dim(s, shape, ())

    def iota(self, shape: Sequence[int], dimension: int, dtype) -> Any:
        shape = _ints(shape)
        if not 0 <= dimension < len(shape):
            raise ShapeError("iota", f"iota_dimension {dimension} out of range for shape {list(shape)}")
        return self._one("iota", [], {"dimension": dimension}, Spec(shape, np.dtype(dtype)))

    # ---- elementwise --------------------------------------------------------
    def unary(self, op: str, x) -> Any:
        cls = UNARY_OPS[op][1]
        if _kind(x.dtype) not in _CLASSES[cls]:
            raise ShapeError(op, f"element type {np.dtype(x.dtype).name} is not supported", [x])
        dt = x.dtype
        if op == "abs" and _kind(dt) == "complex":
            dt = np.dtype(np.float32 if dt == np.complex64 else np.float64)
        return self._one(op, [x], {}, Spec(tuple(x.shape), np.dtype(dt)))

    def binary(self, op: str, a, b) -> Any:
        cls = BINARY_OPS[op][1]
        if tuple(a.shape) != tuple(b.shape) or np.dtype(a.dtype) != np.dtype(b.dtype):
            raise ShapeError(op, "operands must have the same shape and element type", [a, b])
        if _kind(a.dtype) not in _CLASSES[cls]:
            raise ShapeError(op, f"element type {np.dtype(a.dtype).name} is not supported", [a, b])
        return self._one(op, [a, b], {}, Spec(tuple(a.shape), np.dtype(a.dtype)))

    def is_finite(self, x) -> Any:
        if _kind(x.dtype) != "float":
            raise ShapeError("is_finite", "operand must be floating-point", [x])
        return self._one("is_finite", [x], {}, Spec(tuple(x.shape), np.dtype(np.bool_)))

    def compare(self, a, b, direction: str, compare_type: str | None = None) -> Any:
        if tuple(a.shape) != tuple(b.shape) or np.dtype(a.dtype) != np.dtype(b.dtype):
            raise ShapeError("compare", "operands must have the same shape and element type", [a, b])
        return self._one("compare", [a, b], {"direction": direction, "compare_type": compare_type},
                         Spec(tuple(a.shape), np.dtype(np.bool_)))

    def select(self, pred, on_true, on_false) -> Any:
        if np.dtype(pred.dtype) != np.bool_:
            raise ShapeError("select", "pred must be boolean", [pred, on_true, on_false])
        if tuple(on_true.shape) != tuple(on_false.shape) or np.dtype(on_true.dtype) != np.dtype(on_false.dtype):
            raise ShapeError("select", "on_true and on_false must have the same type", [pred, on_true, on_false])
        if tuple(pred.shape) not in ((), tuple(on_true.shape)):
            raise ShapeError("select", "pred must be a scalar or have the operands' shape", [pred, on_true, on_false])
        return self._one("select", [pred, on_true, on_false], {}, Spec(tuple(on_true.shape), np.dtype(on_true.dtype)))

    def clamp(self, lo, x, hi) -> Any:
        for bound in (lo, hi):
            if np.dtype(bound.dtype) != np.dtype(x.dtype) or tuple(bound.shape) not in ((), tuple(x.shape)):
                raise ShapeError("clamp", "bounds must be scalars or match the operand", [lo, x, hi])
        return self._one("clamp", [lo, x, hi], {}, Spec(tuple(x.shape), np.dtype(x.dtype)))

    def convert(self, x, dtype) -> Any:
        dt = np.dtype(dtype)
        if np.dtype(x.dtype) == dt:
            return x
        return self._one("convert", [x], {}, Spec(tuple(x.shape), dt))

    def bitcast_convert(self, x, dtype) -> Any:
        dt = np.dtype(dtype)
        if dt.itemsize != np.dtype(x.dtype).itemsize:
            raise ShapeError("bitcast_convert", "only equal bit widths are supported", [x])
        return self._one("bitcast_convert", [x], {}, Spec(tuple(x.shape), dt))

    # ---- complex numbers and FFTs ------------------------------------------------
    def complex(self, re, im) -> Any:
        """`hlo.complex`: complex<f32|f64> from two float tensors of one type."""
        dt = np.dtype(re.dtype)
        if tuple(re.shape) != tuple(im.shape) or dt != np.dtype(im.dtype) or dt not in (np.float32, np.float64):
            raise ShapeError("complex", "operands must be f32 or f64 tensors of one shape and type", [re, im])
        return self._one("complex", [re, im], {}, Spec(tuple(re.shape), np.dtype(np.complex64 if dt == np.float32
                                                                                 else np.complex128)))

    def _part(self, op: str, x) -> Any:
        if _kind(x.dtype) not in ("float", "complex"):
            raise ShapeError(op, "operand must be floating-point or complex", [x])
        return self._one(op, [x], {}, Spec(tuple(x.shape), np.dtype(np.real(np.zeros((), x.dtype)).dtype)))

    def real(self, x) -> Any:
        """`hlo.real` (a float operand is its own real part)."""
        return self._part("real", x)

    def imag(self, x) -> Any:
        """`hlo.imag` (zeros for a float operand)."""
        return self._part("imag", x)

    def fft(self, x, fft_type: str, length: Sequence[int]) -> Any:
        """`hlo.fft` over the len(length) trailing dimensions, with the verifier's rules (no implicit
        padding or truncation: rules slice or pad first, as tf2xla does)."""
        length, shape, dt = _ints(length), tuple(x.shape), np.dtype(x.dtype)
        if not 1 <= len(length) <= min(3, len(shape)):
            raise ShapeError("fft", f"fft_length {list(length)} needs 1 to 3 entries, at most the rank", [x])
        real = np.dtype(np.float32) if dt == np.complex64 else np.dtype(np.float64)
        if fft_type in ("FFT", "IFFT", "IRFFT") and dt not in (np.complex64, np.complex128):
            raise ShapeError("fft", f"{fft_type} needs a complex64 or complex128 operand", [x])
        if fft_type == "RFFT" and dt not in (np.float32, np.float64):
            raise ShapeError("fft", "RFFT needs a float32 or float64 operand", [x])
        k = len(length)
        if fft_type in ("FFT", "IFFT"):
            want, out = length, Spec(shape, dt)
        elif fft_type == "RFFT":
            want = length
            half = length[-1] // 2 + 1 if length[-1] else 0
            out = Spec(shape[:-1] + (half,), np.dtype(np.complex64 if dt == np.float32 else np.complex128))
        elif fft_type == "IRFFT":
            want, out = length[:-1] + (length[-1] // 2 + 1,), Spec(shape[:-k] + length, real)
        else:
            raise ValueError(f"unknown fft_type {fft_type!r}")
        if shape[-k:] != want:
            raise ShapeError("fft", f"{fft_type} operand's trailing dimensions {list(shape[-k:])} must be "
                                    f"{list(want)} for fft_length {list(length)}", [x])
        return self._one("fft", [x], {"type": fft_type, "length": length}, out)

    # ---- data movement ------------------------------------------------------
    def broadcast_in_dim(self, x, shape: Sequence[int], dims: Sequence[int]) -> Any:
        shape, dims = _ints(shape), _ints(dims)
        if len(dims) != len(x.shape) or any(not 0 <= d < len(shape) for d in dims) or len(set(dims)) != len(dims):
            raise ShapeError("broadcast_in_dim", f"broadcast_dimensions {list(dims)} invalid for result shape "
                                                 f"{list(shape)}", [x])
        for i, d in enumerate(dims):
            if x.shape[i] not in (1, shape[d]):
                raise ShapeError("broadcast_in_dim", f"operand dimension {i} (size {x.shape[i]}) cannot broadcast "
                                                     f"to result dimension {d} (size {shape[d]})", [x])
        if shape == tuple(x.shape) and dims == tuple(range(len(shape))):
            return x
        return self._one("broadcast_in_dim", [x], {"dims": dims}, Spec(shape, np.dtype(x.dtype)))

    def reshape(self, x, shape: Sequence[int]) -> Any:
        shape = _ints(shape)
        if int(np.prod(shape, dtype=np.int64)) != int(np.prod(x.shape, dtype=np.int64)):
            raise ShapeError("reshape", f"cannot reshape to {list(shape)}", [x])
        if shape == tuple(x.shape):
            return x
        return self._one("reshape", [x], {}, Spec(shape, np.dtype(x.dtype)))

    def transpose(self, x, perm: Sequence[int]) -> Any:
        perm = _ints(perm)
        if sorted(perm) != list(range(len(x.shape))):
            raise ShapeError("transpose", f"{list(perm)} is not a permutation of the operand's dimensions", [x])
        if perm == tuple(range(len(perm))):
            return x
        return self._one("transpose", [x], {"perm": perm}, Spec(tuple(x.shape[p] for p in perm), np.dtype(x.dtype)))

    def slice(self, x, start: Sequence[int], limit: Sequence[int], strides: Sequence[int] | None = None) -> Any:
        start, limit = _ints(start), _ints(limit)
        strides = _ints(strides) if strides is not None else (1,) * len(start)
        rank = len(x.shape)
        if not len(start) == len(limit) == len(strides) == rank:
            raise ShapeError("slice", f"needs {rank} start/limit/stride entries", [x])
        out = []
        for d, (s, l, k) in enumerate(zip(start, limit, strides)):
            if not (0 <= s <= l <= x.shape[d]) or k <= 0:
                raise ShapeError("slice", f"dimension {d}: bad slice {s}:{l}:{k} of size {x.shape[d]}", [x])
            out.append(-(-(l - s) // k))
        if start == (0,) * rank and limit == tuple(x.shape) and strides == (1,) * rank:
            return x
        return self._one("slice", [x], {"start": start, "limit": limit, "strides": strides},
                         Spec(tuple(out), np.dtype(x.dtype)))

    def dynamic_slice(self, x, starts: Sequence[Any], sizes: Sequence[int]) -> Any:
        sizes = _ints(sizes)
        if len(starts) != len(x.shape) or len(sizes) != len(x.shape):
            raise ShapeError("dynamic_slice", "needs one start index and size per dimension", [x])
        if any(not 0 <= z <= n for z, n in zip(sizes, x.shape)):
            raise ShapeError("dynamic_slice", f"slice sizes {list(sizes)} exceed the operand", [x])
        return self._one("dynamic_slice", [x, *starts], {"sizes": sizes}, Spec(sizes, np.dtype(x.dtype)))

    def dynamic_update_slice(self, x, update, starts: Sequence[Any]) -> Any:
        if len(update.shape) != len(x.shape) or any(u > n for u, n in zip(update.shape, x.shape)):
            raise ShapeError("dynamic_update_slice", "update does not fit the operand", [x, update])
        return self._one("dynamic_update_slice", [x, update, *starts], {}, Spec(tuple(x.shape), np.dtype(x.dtype)))

    def concatenate(self, xs: Sequence[Any], dimension: int) -> Any:
        xs = list(xs)
        first = xs[0]
        rank = len(first.shape)
        if not 0 <= dimension < rank:
            raise ShapeError("concatenate", f"dimension {dimension} out of range for rank {rank}", xs)
        for x in xs:
            if (len(x.shape) != rank or np.dtype(x.dtype) != np.dtype(first.dtype)
                    or any(x.shape[k] != first.shape[k] for k in range(rank) if k != dimension)):
                raise ShapeError("concatenate", f"operands must agree except in dimension {dimension}", xs)
        if len(xs) == 1:
            return first
        shape = list(first.shape)
        shape[dimension] = sum(x.shape[dimension] for x in xs)
        return self._one("concatenate", xs, {"dimension": dimension}, Spec(tuple(shape), np.dtype(first.dtype)))

    def pad(self, x, value, low: Sequence[int], high: Sequence[int], interior: Sequence[int] | None = None) -> Any:
        low, high = _ints(low), _ints(high)
        interior = _ints(interior) if interior is not None else (0,) * len(low)
        if not len(low) == len(high) == len(interior) == len(x.shape) or tuple(value.shape) != ():
            raise ShapeError("pad", "needs one low/high/interior entry per dimension and a scalar value", [x, value])
        out = tuple(lo + hi + n + max(n - 1, 0) * i for lo, hi, n, i in zip(low, high, x.shape, interior))
        if any(o < 0 for o in out):
            raise ShapeError("pad", f"negative result shape {list(out)}", [x])
        return self._one("pad", [x, value], {"low": low, "high": high, "interior": interior},
                         Spec(out, np.dtype(x.dtype)))

    def reverse(self, x, dims: Sequence[int]) -> Any:
        dims = _ints(dims)
        if not dims:
            return x
        return self._one("reverse", [x], {"dims": dims}, Spec(tuple(x.shape), np.dtype(x.dtype)))

    def all_reduce(self, x, combiner: str) -> Any:
        """`combiner` ("add", "maximum", ...) of `x` over every replica: one `hlo.all_reduce`
        whose single group holds all replicas (with one process, the identity)."""
        if combiner not in COMBINERS:
            raise ValueError(f"unknown combiner {combiner!r}")
        return self._one("all_reduce", [x], {"combiner": combiner}, Spec(tuple(x.shape), np.dtype(x.dtype)))

    # ---- structured -----------------------------------------------------------
    def reduce(self, x, init, dimensions: Sequence[int], combiner: str) -> Any:
        """Reduce `x` over `dimensions` with the binary op named `combiner` ("add", "maximum", ...)."""
        if combiner not in COMBINERS:
            raise ValueError(f"unknown combiner {combiner!r}")
        return self.reduce_multi([x], [init], dimensions, combiner)[0]

    def reduce_multi(self, xs: Sequence[Any], inits: Sequence[Any], dimensions: Sequence[int],
                     body: str | Callable) -> list:
        """Variadic reduce; `body(b, accs, xs) -> list` builds the combiner with builder `b`."""
        xs, inits, dims = list(xs), list(inits), _ints(dimensions)
        rank = len(xs[0].shape)
        if any(not 0 <= d < rank for d in dims) or len(set(dims)) != len(dims):
            raise ShapeError("reduce", f"dimensions {list(dims)} out of range for rank {rank}", xs)
        for x, i in zip(xs, inits):
            if tuple(x.shape) != tuple(xs[0].shape) or tuple(i.shape) != () or np.dtype(i.dtype) != np.dtype(x.dtype):
                raise ShapeError("reduce", "inputs must share a shape and inits must be scalars of their type",
                                 xs + inits)
        kept = tuple(n for d, n in enumerate(xs[0].shape) if d not in dims)
        if isinstance(body, str):
            name = body
            body = _combiner_body(name)
        return self._apply("reduce", xs + inits, {"dims": dims, "n": len(xs)},
                           [Spec(kept, np.dtype(x.dtype)) for x in xs], body)

    def dot_general(self, lhs, rhs, contracting: tuple[Sequence[int], Sequence[int]],
                    batch: tuple[Sequence[int], Sequence[int]] = ((), ()), result_dtype=None) -> Any:
        lc, rc = _ints(contracting[0]), _ints(contracting[1])
        lb, rb = _ints(batch[0]), _ints(batch[1])
        if len(lc) != len(rc) or len(lb) != len(rb):
            raise ShapeError("dot_general", "lhs and rhs dimension lists differ in length", [lhs, rhs])
        for x, y in zip(lb + lc, rb + rc):
            if not (0 <= x < len(lhs.shape) and 0 <= y < len(rhs.shape)) or lhs.shape[x] != rhs.shape[y]:
                sizes = (lhs.shape[x] if 0 <= x < len(lhs.shape) else "?", rhs.shape[y] if 0 <= y < len(rhs.shape) else "?")
                raise ShapeError("dot_general", f"lhs dimension {x} (size {sizes[0]}) and rhs dimension {y} "
                                                f"(size {sizes[1]}) do not match", [lhs, rhs])
        shape = ([lhs.shape[d] for d in lb] + [n for d, n in enumerate(lhs.shape) if d not in lb + lc]
                 + [n for d, n in enumerate(rhs.shape) if d not in rb + rc])
        dt = np.dtype(result_dtype or lhs.dtype)
        return self._one("dot_general", [lhs, rhs], {"lc": lc, "rc": rc, "lb": lb, "rb": rb},
                         Spec(tuple(shape), dt))

    def reduce_window(self, x, init, window: Sequence[int], strides: Sequence[int],
                      padding: Sequence[tuple[int, int]], combiner: str) -> Any:
        window, strides = _ints(window), _ints(strides)
        pads = [(int(lo), int(hi)) for lo, hi in padding]
        if not len(window) == len(strides) == len(pads) == len(x.shape):
            raise ShapeError("reduce_window", "window, strides and padding need one entry per dimension", [x])
        out = []
        for n, w, s, (lo, hi) in zip(x.shape, window, strides, pads):
            padded = n + lo + hi
            out.append(0 if padded < w else (padded - w) // s + 1)
        return self._one("reduce_window", [x, init], {"window": window, "strides": strides, "padding": pads,
                                                      "combiner": combiner}, Spec(tuple(out), np.dtype(x.dtype)))

    # ---- conveniences used by many rules -------------------------------------
    def broadcast_to(self, x, shape: Sequence[int]) -> Any:
        """numpy-style (right-aligned) broadcast of `x` to `shape`."""
        shape = _ints(shape)
        if tuple(x.shape) == shape:
            return x
        offset = len(shape) - len(x.shape)
        if offset < 0:
            raise ShapeError("broadcast_in_dim", f"cannot broadcast to {list(shape)}", [x])
        # drop size-1 dims that must stretch, as XLA's client library does
        keep = [i for i, n in enumerate(x.shape) if not (n == 1 and shape[offset + i] != 1)]
        if len(keep) != len(x.shape):
            x = self.reshape(x, [x.shape[i] for i in keep])
        return self.broadcast_in_dim(x, shape, [offset + i for i in keep])


def _make_unary(mnemonic: str):
    def method(self, x):
        return self.unary(mnemonic, x)

    method.__name__ = mnemonic
    method.__doc__ = f"`hlo.{mnemonic}`"
    return method


def _make_binary(mnemonic: str):
    def method(self, a, b):
        return self.binary(mnemonic, a, b)

    method.__name__ = mnemonic
    method.__doc__ = f"`hlo.{mnemonic}`"
    return method


for _py, _m in UNARY.items():
    setattr(Builder, _py, _make_unary(_m))
for _py, _m in BINARY.items():
    setattr(Builder, _py, _make_binary(_m))


class SpecBuilder(Builder):
    """Type inference only: values are `Spec`s; nothing is computed."""

    def _constant(self, array: np.ndarray) -> Spec:
        return ConstSpec(tuple(array.shape), array.dtype, array)

    def _apply(self, op, operands, attrs, results, body=None):
        return list(results)


@dataclass(frozen=True)
class ConstSpec(Spec):
    """A Spec that remembers its literal."""

    value: Any = None


