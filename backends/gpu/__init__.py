"""The GPU backend: kernels outlined from parallel loops (passes/gpu), PTX
through llvmlite's NVPTX target, execution through the CUDA driver API
(cuda-python, optional: `pip install minixla[gpu]`). See docs/gpu.md.

Importing this package needs no GPU and no cuda-python.
"""

from .backend import GpuBackend, GpuExecutable
from .runtime import GpuUnavailableError, gpu_available
from .target import GpuToolchainError, ptxas
from .translate import translate_to_ptx

__all__ = ["GpuBackend", "GpuExecutable", "GpuToolchainError", "GpuUnavailableError", "gpu_available", "ptxas",
           "translate_to_ptx"]
