"""The compiled FFT kernel (`fft_codegen.py`): JIT compilation, symbol registration,
and the plan that turns an n-d `hlo.fft` into one kernel call per axis.

Compiled code calls `minixla_fft_c64` / `minixla_fft_c128` the way it calls the
gemm: the symbols are registered with `llvm.add_symbol` once per process, so
a module that uses them only declares them. `fft_nd` runs the same plan from
numpy buffers (tests, benchmarks/bench_fft.py).
"""

from __future__ import annotations

import ctypes
import math
import threading
from dataclasses import dataclass

import numpy as np

from minixla.backends.cpu.fft_codegen import FFT, IFFT, IRFFT, KINDS, RFFT, fft_ir

SYMBOLS = {"c64": "minixla_fft_c64", "c128": "minixla_fft_c128"}
_LOCK = threading.Lock()
_STATE: dict = {}

_SIG = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64,
                        ctypes.c_int64, ctypes.c_int32)


def kernel_addresses() -> dict[str, int]:
    """{"c64": address, "c128": address} of the kernel, compiled once per process for the host."""
    with _LOCK:
        if "addrs" not in _STATE:
            import llvmlite.binding as llvm

            from minixla.backends.cpu.jit import optimize
            from minixla.backends.cpu.target import create_machine, host_target

            host = host_target()
            module = llvm.parse_assembly(fft_ir())
            module.triple = host.triple
            module.verify()
            optimize(module)
            engine = llvm.create_mcjit_compiler(module, create_machine(host.triple, host.cpu, host.features))
            engine.finalize_object()
            _STATE["engine"] = engine  # the code lives as long as the engine
            _STATE["addrs"] = {g: engine.get_function_address(s) for g, s in SYMBOLS.items()}
        return _STATE["addrs"]


def ensure_registered() -> None:
    """Make `minixla_fft_c64`/`_c128` resolvable by JIT-compiled modules."""
    import llvmlite.binding as llvm

    addrs = kernel_addresses()
    with _LOCK:
        if not _STATE.get("registered"):
            for g, s in SYMBOLS.items():
                llvm.add_symbol(s, addrs[g])
            _STATE["registered"] = True


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
    """The kernel calls computing `hlo.fft` (StableHLO's order: RFFT's real axis first, IRFFT's last)."""
    rank, k = len(in_shape), KINDS[kind]
    if 0 in in_shape or 0 in out_shape:
        return []
    axes = list(range(rank - len(length), rank))

    def split(shape, axis):
        return math.prod(shape[:axis]), shape[axis], math.prod(shape[axis + 1:])

    def call(src, dst, shape, axis, kind_, n=None):
        outer, len_, inner = split(shape, axis)
        return Call(src, dst, outer, n if n is not None else len_, inner, kind_)

    if k in (FFT, IFFT):  # each axis in place on the result after the first
        return [call("in" if i == 0 else "out", "out", in_shape, a, k) for i, a in enumerate(reversed(axes))]
    if k == RFFT:
        calls = [call("in", "out", in_shape, axes[-1], RFFT, n=length[-1])]
        return calls + [call("out", "out", out_shape, a, FFT) for a in reversed(axes[:-1])]
    calls = [call("in" if i == 0 else "tmp", "tmp", in_shape, a, IFFT) for i, a in enumerate(axes[:-1])]
    return calls + [call("tmp" if calls else "in", "out", in_shape, axes[-1], IRFFT, n=length[-1])]


def fft_nd(x: np.ndarray, kind: str, length: tuple[int, ...]) -> np.ndarray:
    """`hlo.fft` of a numpy array through the compiled kernel (C-contiguous copies, new result)."""
    real = np.float32 if x.dtype in (np.float32, np.complex64) else np.float64
    cplx = np.complex64 if real == np.float32 else np.complex128
    x = np.ascontiguousarray(x, dtype=real if kind == "RFFT" else cplx)
    out_shape = list(x.shape)
    if kind == "RFFT":
        out_shape[-1] = length[-1] // 2 + 1 if length[-1] else 0
    elif kind == "IRFFT":
        out_shape[-1] = length[-1]
    out = np.zeros(out_shape, real if kind == "IRFFT" else cplx)
    calls = plan(kind, x.shape, tuple(out_shape), tuple(length))
    tmp = np.empty(x.shape, cplx) if any("tmp" in (c.src, c.dst) for c in calls) else None
    bufs = {"in": x, "out": out, "tmp": tmp}
    fn = _SIG(kernel_addresses()["c64" if cplx == np.complex64 else "c128"])
    for c in calls:
        if fn(bufs[c.src].ctypes.data, bufs[c.dst].ctypes.data, c.outer, c.n, c.inner, c.kind) != 0:
            raise MemoryError(f"the FFT kernel could not allocate its scratch for n = {c.n}")
    return out
