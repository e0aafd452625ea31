"""The FFT kernel's ABI and the plan that computes an n-d `hlo.fft` with it.

Compiled code (`bufferize` lowers `hlo.fft` to calls, passes/bufferize/fft.py)
and the numpy driver (backends/cpu/fft.py) share this one description:

    i32 minixla_fft_<g>(ptr src, ptr dst, i64 outer, i64 n, i64 inner, i32 kind)

transforms every line of a dense row-major [outer, len, inner] view along its
middle axis (`g` = c64 / c128; `minixla_rfft_<g>` / `minixla_irfft_<g>` are
the same function under the names whose declared buffer types are real).
An n-d transform is one call per axis, in StableHLO's order.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

#: the kernel's `kind` argument
FFT, IFFT, RFFT, IRFFT = 0, 1, 2, 3
KINDS = {"FFT": FFT, "IFFT": IFFT, "RFFT": RFFT, "IRFFT": IRFFT}


def symbol(kind: int, g: str) -> str:
    """The entry compiled code calls for `kind` on element group `g` ("c64" / "c128")."""
    return {RFFT: f"minixla_rfft_{g}", IRFFT: f"minixla_irfft_{g}"}.get(kind, f"minixla_fft_{g}")


#: every entry compiled code may call
SYMBOLS = tuple(sorted({symbol(k, g) for g in ("c64", "c128") for k in KINDS.values()}))


@dataclass(frozen=True)
class Call:
    """One kernel call: `kind` along the middle axis of a [outer, n, inner] view.
    src/dst: "in" (the operand), "out" (the result) or "tmp" (a complex scratch of the operand's shape)."""
    src: str
    dst: str
    outer: int
    n: int
    inner: int
    kind: int


def plan(kind: str, in_shape: tuple[int, ...], out_shape: tuple[int, ...], length: tuple[int, ...]) -> list[Call]:
    """The kernel calls computing `hlo.fft` (RFFT's real axis first, IRFFT's last); none without elements."""
    rank, k = len(in_shape), KINDS[kind]
    if 0 in in_shape or 0 in out_shape:
        return []
    axes = list(range(rank - len(length), rank))

    def call(src: str, dst: str, shape, axis: int, kind_: int, n: int | None = None) -> Call:
        return Call(src, dst, math.prod(shape[:axis]), shape[axis] if n is None else n,
                    math.prod(shape[axis + 1:]), kind_)

    if k in (FFT, IFFT):  # the first axis from the operand, the others in place on the result
        return [call("in" if i == 0 else "out", "out", in_shape, a, k) for i, a in enumerate(reversed(axes))]
    if k == RFFT:
        calls = [call("in", "out", in_shape, axes[-1], RFFT, n=length[-1])]
        return calls + [call("out", "out", out_shape, a, FFT) for a in reversed(axes[:-1])]
    calls = [call("in" if i == 0 else "tmp", "tmp", in_shape, a, IFFT) for i, a in enumerate(axes[:-1])]
    return calls + [call("tmp" if calls else "in", "out", in_shape, axes[-1], IRFFT, n=length[-1])]
