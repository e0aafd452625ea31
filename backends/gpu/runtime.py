"""CUDA driver API runtime through cuda-python (optional: `pip install
minixla[gpu]`), imported only when a GPU program is first run.

One `CudaDevice` per process (device 0, its primary context) implements the
`Device` protocol of plan.py: device memory, host<->device copies and kernel
launches; loaded modules are cached by their PTX text. Anything missing (the
package, the driver library, a device) raises `GpuUnavailableError` naming
it, so callers and tests can tell "no GPU here" from a bug.
"""

from __future__ import annotations

import ctypes
import threading
from typing import Any

import numpy as np

from minixla.backends.gpu.plan import Launch, np_dtype


class GpuUnavailableError(RuntimeError):
    """No usable CUDA GPU: cuda-python, the NVIDIA driver or a device is missing."""


def _driver():
    try:
        from cuda.bindings import driver  # cuda-python >= 12.6
    except ImportError:
        try:
            from cuda import cuda as driver  # type: ignore[no-redef]  # older cuda-python
        except ImportError as err:
            raise GpuUnavailableError(
                "the gpu backend needs cuda-python to run kernels (pip install 'minixla[gpu]'); "
                f"import failed: {err}") from None
    return driver


def _check(result, what: str):
    """cuda-python calls return (CUresult, *values)."""
    err, *rest = result if isinstance(result, tuple) else (result,)
    if int(err) != 0:
        drv = _driver()
        try:
            name = drv.cuGetErrorName(err)[1].decode()
        except Exception:  # noqa: BLE001
            name = str(err)
        raise RuntimeError(f"CUDA driver error in {what}: {name}")
    if not rest:
        return None
    return rest[0] if len(rest) == 1 else tuple(rest)


class CudaDevice:
    """Device 0 through the driver API (primary context)."""

    def __init__(self):
        drv = _driver()
        self.drv = drv
        try:
            _check(drv.cuInit(0), "cuInit")
            count = _check(drv.cuDeviceGetCount(), "cuDeviceGetCount")
        except GpuUnavailableError:
            raise
        except Exception as err:  # noqa: BLE001 -- no libcuda.so, no driver, ...
            raise GpuUnavailableError(f"no usable NVIDIA driver: {err}") from None
        if not count:
            raise GpuUnavailableError("the NVIDIA driver reports no CUDA device")
        self.device = _check(drv.cuDeviceGet(0), "cuDeviceGet")
        self.context = _check(drv.cuDevicePrimaryCtxRetain(self.device), "cuDevicePrimaryCtxRetain")
        _check(drv.cuCtxSetCurrent(self.context), "cuCtxSetCurrent")
        attr = drv.CUdevice_attribute
        major = _check(drv.cuDeviceGetAttribute(attr.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, self.device),
                       "cuDeviceGetAttribute")
        minor = _check(drv.cuDeviceGetAttribute(attr.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, self.device),
                       "cuDeviceGetAttribute")
        self.arch = f"sm_{major}{minor}"
        name = _check(drv.cuDeviceGetName(256, self.device), "cuDeviceGetName")
        self.name = name.split(b"\0", 1)[0].decode() if isinstance(name, bytes) else str(name)
        self._modules: dict[str, Any] = {}
        self._functions: dict[tuple[str, str], Any] = {}
        self._current_ptx: str | None = None
        self._lock = threading.Lock()

    # --- modules -----------------------------------------------------------
    def load(self, ptx: str) -> None:
        """Load (once) the module of `ptx`; later launches look kernels up in it."""
        with self._lock:
            if ptx not in self._modules:
                _check(self.drv.cuCtxSetCurrent(self.context), "cuCtxSetCurrent")
                data = np.frombuffer(ptx.encode() + b"\0", dtype=np.uint8)
                self._modules[ptx] = _check(self.drv.cuModuleLoadData(data.ctypes.data), "cuModuleLoadData")
            self._current_ptx = ptx

    def function(self, name: str):
        assert self._current_ptx is not None, "load() a module first"
        key = (self._current_ptx, name)
        if key not in self._functions:
            self._functions[key] = _check(
                self.drv.cuModuleGetFunction(self._modules[self._current_ptx], name.encode()),
                f"cuModuleGetFunction({name})")
        return self._functions[key]

    # --- memory -------------------------------------------------------------
    def alloc(self, nbytes: int):
        return _check(self.drv.cuMemAlloc(max(int(nbytes), 1)), "cuMemAlloc")

    def free(self, handle) -> None:
        _check(self.drv.cuMemFree(handle), "cuMemFree")

    def upload(self, handle, data: np.ndarray) -> None:
        data = data if data.flags.c_contiguous else data.copy(order="C")
        _check(self.drv.cuMemcpyHtoD(handle, data.ctypes.data, data.nbytes), "cuMemcpyHtoD")

    def download(self, handle, nbytes: int) -> bytes:
        out = np.empty(nbytes, np.uint8)
        _check(self.drv.cuMemcpyDtoH(out.ctypes.data, handle, nbytes), "cuMemcpyDtoH")
        return out.tobytes()

    # --- launches ------------------------------------------------------------
    def launch(self, launch: Launch, args: list[Any]) -> None:
        fn = self.function(launch.kernel)
        holders = []
        for a in args:
            if isinstance(a, tuple):  # scalar: (value, numpy dtype)
                value, dt = a
                holders.append(np.array([value], dtype=np.int64 if dt == np.dtype(bool) else dt))
            else:
                holders.append(np.array([int(a)], dtype=np.uint64))
        params = np.array([h.ctypes.data for h in holders], dtype=np.uint64)
        _check(self.drv.cuLaunchKernel(fn, *launch.grid, *launch.block, 0, 0, params.ctypes.data, 0),
               f"cuLaunchKernel({launch.kernel})")

    def synchronize(self) -> None:
        _check(self.drv.cuCtxSynchronize(), "cuCtxSynchronize")


_DEVICE: CudaDevice | None = None
_DEVICE_ERROR: GpuUnavailableError | None = None


def cuda_device() -> CudaDevice:
    """The process's CUDA device (created on first use); GpuUnavailableError if none."""
    global _DEVICE, _DEVICE_ERROR
    if _DEVICE is None:
        if _DEVICE_ERROR is not None:
            raise _DEVICE_ERROR
        try:
            _DEVICE = CudaDevice()
        except GpuUnavailableError as err:
            _DEVICE_ERROR = err
            raise
    return _DEVICE


def gpu_available() -> tuple[bool, str]:
    """(True, device description) or (False, why not): the tests' skip probe."""
    try:
        dev = cuda_device()
    except GpuUnavailableError as err:
        return False, str(err)
    return True, f"{dev.name} ({dev.arch})"


__all__ = ["CudaDevice", "GpuUnavailableError", "cuda_device", "gpu_available", "np_dtype", "ctypes"]
