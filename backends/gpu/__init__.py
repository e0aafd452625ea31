"""The GPU backend: kernels outlined from parallel loops (passes/gpu), PTX
through llvmlite's NVPTX target, execution through the CUDA driver API
(cuda-python, optional: `pip install minixla[gpu]`). See docs/gpu.md.

Importing this package needs no GPU and no cuda-python.
"""

from minixla.backends.gpu.backend import GpuBackend, GpuExecutable
from minixla.backends.gpu.runtime import GpuUnavailableError, gpu_available
from minixla.backends.gpu.target import GpuToolchainError, ptxas
from minixla.backends.gpu.translate import translate_to_ptx

__all__ = ["GpuBackend", "GpuExecutable", "GpuToolchainError", "GpuUnavailableError", "gpu_available", "ptxas",
           "translate_to_ptx"]
