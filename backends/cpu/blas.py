"""The BLAS that compiled code calls for matrix products (`convert-linalg-to-blas`).

Matmuls and contractions that map onto gemm are 100-300x faster in a tuned
BLAS than in our generated loops (packing, register blocking, threads), and
numpy already ships one: its bundled OpenBLAS (`numpy.libs/libscipy_openblas64_*`,
ILP64, symbols `scipy_cblas_sgemm64_`/`scipy_cblas_dgemm64_`). We resolve those
with ctypes and register them for the JIT with `llvm.add_symbol` as

    void minixla_sgemm(i32 order, i32 transa, i32 transb, i64 m, i64 n, i64 k,
                       float alpha, ptr a, i64 lda, ptr b, i64 ldb, float beta, ptr c, i64 ldc)
    (minixla_dgemm: the same with double)

i.e. the CBLAS ILP64 ABI itself. Only ILP64 symbols are accepted (the pass
passes 64-bit sizes).

Which gemm (`gemm_kind()`, the one place that decides; `MINIXLA_BLAS`):

- unset, `1`/`on`/`auto`: minixla's generated gemm (`gemm_codegen.py`: an
  AVX-512 or AVX2 micro-kernel, packing shared by our threads) when the CPU
  llvmlite reports has AVX-512F or AVX2+FMA, else numpy's bundled OpenBLAS;
- `generated`: the generated gemm (an error on a CPU without those features);
- `openblas` (or `numpy`): numpy's bundled OpenBLAS, the path used before;
- `/path/lib.so`: a library exporting the ILP64 symbols;
- `0`/`off`: no gemm calls (`hlo-to-cpu` leaves contractions to loops).

`library()` is the external BLAS (numpy's OpenBLAS unless a path is given):
AOT libraries link against it, and the JIT calls it where the generated gemm
is not used.

Threads: with OpenBLAS (it has `openblas_set_num_threads_local`) the
registered symbols are the wrappers of `gemm_threads.py`, which split each
gemm over minixla's own threads and keep OpenBLAS's pool idle, so the two
pools never compete for cores (`MINIXLA_NUM_THREADS` sets both); another
BLAS is called directly and threads itself. The pass never puts a gemm call
inside a parallel loop, so the pools do not nest.
"""

from __future__ import annotations

import ctypes
import glob
import os
import threading
from dataclasses import dataclass

import llvmlite.binding as llvm

SGEMM = "minixla_sgemm"
DGEMM = "minixla_dgemm"
#: what convert-linalg-to-blas calls for products the library computes (passes/linalg_to_blas.library_sized)
LIBRARY_SGEMM, LIBRARY_DGEMM = "minixla_library_sgemm", "minixla_library_dgemm"
#: (sgemm, dgemm) symbol names tried in a library, in order: all ILP64
_SYMBOLS = (("scipy_cblas_sgemm64_", "scipy_cblas_dgemm64_"), ("cblas_sgemm64_", "cblas_dgemm64_"))

#: OpenBLAS's per-calling-thread thread count (gemm_threads.py runs gemms on our own threads with it)
_THREADS_LOCAL = "openblas_set_num_threads_local"

_LOCK = threading.RLock()  # generated_gemm() builds library_gemm() under it
_STATE: dict = {}


class BlasUnavailableError(RuntimeError):
    """Compiled code calls gemm, but no usable BLAS library was found."""


@dataclass(frozen=True)
class BlasLibrary:
    path: str
    sgemm: int  # function addresses
    dgemm: int
    symbols: tuple[str, str]
    threads_local: int = 0  # openblas_set_num_threads_local, 0 if the library has none


def _numpy_openblas() -> list[str]:
    import numpy

    site = os.path.dirname(os.path.dirname(os.path.abspath(numpy.__file__)))
    return sorted(glob.glob(os.path.join(site, "numpy.libs", "libscipy_openblas64_*.so*")))


def _load(path: str) -> BlasLibrary | None:
    try:
        lib = ctypes.CDLL(path)
    except OSError:
        return None
    for names in _SYMBOLS:
        try:
            fns = [getattr(lib, n) for n in names]
        except AttributeError:
            continue
        s, d = (ctypes.cast(f, ctypes.c_void_p).value for f in fns)
        if s and d:
            _STATE.setdefault("handles", []).append(lib)  # keep it loaded
            local = getattr(lib, _THREADS_LOCAL, None)
            return BlasLibrary(path, s, d, names, ctypes.cast(local, ctypes.c_void_p).value if local else 0)
    return None


_OFF = ("0", "off", "no", "false", "none")
_AUTO = ("", "1", "on", "yes", "true", "auto")
_GENERATED = ("generated", "minixla")
_OPENBLAS = ("openblas", "numpy")


def _setting() -> str:
    return os.environ.get("MINIXLA_BLAS", "").strip()


def _find() -> BlasLibrary | None:
    setting = _setting()
    if setting.lower() in _OFF:
        return None
    if setting.lower() not in _AUTO + _GENERATED + _OPENBLAS:
        found = _load(setting)
        if found is None:
            raise BlasUnavailableError(
                f"MINIXLA_BLAS={setting!r}: cannot load it or it exports none of the ILP64 gemm symbols "
                f"{[n for pair in _SYMBOLS for n in pair]} (use MINIXLA_BLAS=0 to compile loops instead)")
        return found
    for path in _numpy_openblas():
        found = _load(path)
        if found is not None:
            return found
    return None


def library() -> BlasLibrary | None:
    """The BLAS compiled code may call, or None (the loops path is used)."""
    if "lib" not in _STATE:
        with _LOCK:
            if "lib" not in _STATE:
                _STATE["lib"] = _find()
    return _STATE["lib"]


def gemm_kind() -> str | None:
    """"generated" (gemm_codegen.py), "library" (`library()`) or None (loops)."""
    if "kind" not in _STATE:
        setting = _setting().lower()
        if setting in _OFF:
            kind = None
        elif setting in _GENERATED + _AUTO and generated_shapes() is not None:
            kind = "generated"
        elif setting in _GENERATED:
            raise BlasUnavailableError(
                f"MINIXLA_BLAS={_setting()!r}: the generated gemm needs AVX-512F or AVX2+FMA, and this CPU "
                f"({llvm.get_host_cpu_name()}) has neither (use MINIXLA_BLAS=openblas or 0)")
        else:
            kind = "library" if library() is not None else None
        _STATE["kind"] = kind
    return _STATE["kind"]


def generated_shapes() -> dict | None:
    """The generated gemm's kernel shapes for this CPU (gemm_codegen.kernel_shapes), or None."""
    from minixla.passes.gc_pause import importing

    with importing():  # (every CPU compile asks, from its pipeline's spec)
        from minixla.backends.cpu.gemm_codegen import kernel_shapes
    from minixla.backends.cpu.target import host_target

    return kernel_shapes(host_target().features)


def available() -> bool:
    return gemm_kind() is not None


def reset() -> None:
    """Forget the decision (tests switch MINIXLA_BLAS); registered symbols stay."""
    with _LOCK:
        _STATE.pop("lib", None)
        _STATE.pop("kind", None)


def ensure_registered() -> None:
    """Make `minixla_sgemm`/`minixla_dgemm` resolvable by the JIT (to the gemm `gemm_kind()` names)."""
    kind = gemm_kind()
    if kind is None:
        raise BlasUnavailableError(
            "this module calls minixla_sgemm/minixla_dgemm but no BLAS is available (MINIXLA_BLAS is off, or "
            "numpy has no bundled ILP64 OpenBLAS); compile it with a pipeline without convert-linalg-to-blas")
    sgemm, dgemm = generated_gemm() if kind == "generated" else library_gemm()
    with _LOCK:
        if _STATE.get("registered") != (sgemm, dgemm):
            llvm.add_symbol(SGEMM, sgemm)
            llvm.add_symbol(DGEMM, dgemm)
            _STATE["registered"] = (sgemm, dgemm)


def ensure_library_registered() -> None:
    """Make `minixla_library_sgemm`/`_dgemm` resolvable: the library's gemm (over our threads), or the
    generated one where no library is loaded (`MINIXLA_BLAS=generated` without OpenBLAS). Building the
    generated gemm is not needed for these: a module calling only them compiles without it."""
    if gemm_kind() is None:
        ensure_registered()  # its clear error
    pair = library_gemm() if library() is not None else generated_gemm()
    with _LOCK:
        if _STATE.get("registered_library") != pair:
            llvm.add_symbol(LIBRARY_SGEMM, pair[0])
            llvm.add_symbol(LIBRARY_DGEMM, pair[1])
            _STATE["registered_library"] = pair


def prefetch() -> None:
    """Start building the generated gemm, if it will be needed and is not built: where a core is idle its
    LLVM code generation (~0.15 s) runs in a forked child (compile_cache.prefetch_runtime_kernel), so it
    overlaps the Python passes of the compile that asked for it; a background thread then loads it (and
    the library's wrappers it falls back to), and `ensure_registered` waits for that thread."""
    try:
        if gemm_kind() != "generated" or _PREFETCH:
            return
    except BlasUnavailableError:
        return
    try:
        from minixla.backends.cpu.compile_cache import prefetch_runtime_kernel
        from minixla.backends.cpu.gemm_driver import gemm_text
        from minixla.backends.cpu.threadpool import prefetch as prefetch_pool

        prefetch_pool()  # the gemm runs on the pool: its helper compiles in a child of its own
        prefetch_runtime_kernel(gemm_text(generated_shapes(), library() is not None))
    except Exception:  # noqa: BLE001 -- only a head start: generated_gemm compiles it and reports
        pass
    thread = threading.Thread(target=_build_quietly, name="minixla-gemm-build", daemon=True)
    _PREFETCH.append(thread)
    thread.start()


_PREFETCH: list[threading.Thread] = []


def _build_quietly() -> None:
    try:
        generated_gemm()
    except Exception:  # noqa: BLE001 -- the compile that needs it calls generated_gemm again and reports
        pass


def library_gemm() -> tuple[int, int]:
    """Addresses of (sgemm, dgemm) over `library()`: for OpenBLAS the wrappers of
    gemm_threads.py (split over our threads), else the library's own symbols."""
    lib = library()
    if lib is None:
        raise BlasUnavailableError("no BLAS library (MINIXLA_BLAS is off, or numpy has no bundled ILP64 OpenBLAS)")
    with _LOCK:
        key = ("wrappers", lib.path)
        if key not in _STATE:
            sgemm, dgemm = lib.sgemm, lib.dgemm
            if lib.threads_local:  # one thread pool: ours (gemm_threads.py says why)
                from minixla.backends.cpu.gemm_threads import compile_wrappers

                engine, sgemm, dgemm = compile_wrappers(lib.sgemm, lib.dgemm, lib.threads_local)
                _STATE.setdefault("engines", []).append(engine)
            _STATE[key] = (sgemm, dgemm)
        return _STATE[key]


def generated_gemm() -> tuple[int, int]:
    """Addresses of the generated (sgemm, dgemm) for this CPU, compiled once."""
    shapes = generated_shapes()
    if shapes is None:
        raise BlasUnavailableError("the generated gemm needs AVX-512F or AVX2+FMA")
    with _LOCK:
        lib = library()
        key = ("generated", lib.path if lib is not None else None)
        if key not in _STATE:
            from minixla.backends.cpu.gemm_driver import compile_gemm

            fallback = library_gemm() if lib is not None else None  # small/skinny products
            engine, sgemm, dgemm = compile_gemm(shapes, fallback)
            _STATE.setdefault("engines", []).append(engine)
            _STATE[key] = (sgemm, dgemm)
        return _STATE[key]


def cpu_pipeline(optimize: bool = False) -> str:
    """The pipeline the CPU backend runs: `hlo-to-cpu`, with BLAS gemms when a BLAS is available
    (the one place that decides; MINIXLA_BLAS=0 turns it off; MINIXLA_FAST_MATH_APPROX=0 keeps libm's
    f32 exp/tanh/log instead of their polynomial expansions)."""
    from minixla.passes.pipelines import hlo_to_cpu

    return hlo_to_cpu(optimize=optimize, blas=available(), check_bounds=check_bounds_enabled(),
                      math_approx=math_approx_enabled())


def math_approx_enabled() -> bool:
    """MINIXLA_FAST_MATH_APPROX=0: f32 exp/tanh/log call libm (passes/math_polynomials.py says why not)."""
    return os.environ.get("MINIXLA_FAST_MATH_APPROX", "1").strip().lower() not in ("0", "off", "false", "no")


def check_bounds_enabled() -> bool:
    """MINIXLA_CHECK_BOUNDS=1: compiled code checks every memory access (backends/cpu/bounds_report.py)."""
    return os.environ.get("MINIXLA_CHECK_BOUNDS", "") not in ("", "0")
