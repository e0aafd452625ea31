"""The compiled FFT kernel (`fft_codegen.py`, `fft_lines.py`, `fft_driver.py`): JIT compilation, symbol registration,
and the plan that turns an n-d `hlo.fft` into one kernel call per axis.

Compiled code calls `minixla_fft_c64` / `minixla_fft_c128` the way it calls the
gemm: the symbols are registered with `llvm.add_symbol` once per process, so
a module that uses them only declares them. `fft_nd` runs the same plan from
numpy buffers (tests, benchmarks/bench_fft.py).
"""

from __future__ import annotations

import ctypes
import threading

import numpy as np

from minixla.passes.fft_plan import SYMBOLS, plan
from minixla.backends.cpu.fft_driver import fft_ir
_LOCK = threading.Lock()
_STATE: dict = {}

_SIG = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64,
                        ctypes.c_int64, ctypes.c_int32)


def kernel_addresses() -> dict[str, int]:
    """Address of every `SYMBOLS` entry, compiled once per process for the host."""
    with _LOCK:
        if "addrs" not in _STATE:
            import llvmlite.binding as llvm

            from minixla.backends.cpu.target import create_machine, host_target
            from minixla.backends.cpu.threadpool import ensure_registered as ensure_pool

            ensure_pool()  # many lines are split over minixla_parallel_for
            host = host_target()
            module = llvm.parse_assembly(fft_ir())
            module.triple = host.triple
            module.verify()
            pto = llvm.PipelineTuningOptions(speed_level=3)  # -O3 for the host (jit.optimize; jit imports us)
            pto.loop_vectorization = pto.slp_vectorization = True
            pb = llvm.create_pass_builder(host.machine, pto)
            pb.getModulePassManager().run(module, pb)
            engine = llvm.create_mcjit_compiler(module, create_machine(host.triple, host.cpu, host.features))
            engine.finalize_object()
            _STATE["engine"] = engine  # the code lives as long as the engine
            _STATE["addrs"] = {name: engine.get_function_address(name) for name in SYMBOLS}
        return _STATE["addrs"]


def ensure_registered() -> None:
    """Make every `SYMBOLS` entry resolvable by JIT-compiled modules."""
    import llvmlite.binding as llvm

    addrs = kernel_addresses()
    with _LOCK:
        if not _STATE.get("registered"):
            for name in SYMBOLS:
                llvm.add_symbol(name, addrs[name])
            _STATE["registered"] = True


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
    fn = _SIG(kernel_addresses()["minixla_fft_c64" if cplx == np.complex64 else "minixla_fft_c128"])
    for c in calls:
        if fn(bufs[c.src].ctypes.data, bufs[c.dst].ctypes.data, c.outer, c.n, c.inner, c.kind) != 0:
            raise MemoryError(f"the FFT kernel could not allocate its scratch for n = {c.n}")
    return out
