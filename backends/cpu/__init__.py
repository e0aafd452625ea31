"""The CPU backend: llvm-dialect modules JIT-compiled by llvmlite for the host.

`compile_module(memref_module)["f"](*arrays)` runs a memref/scf-level module;
`CpuBackend().compile(hlo_module)` runs an hlo module through `hlo-to-cpu`.
"""

from minixla.backends.cpu.compiler import CompiledModule, compile_module, lower
from minixla.backends.cpu.runtime import ArgumentError, CompiledFunction, Signature

__all__ = ["ArgumentError", "CompiledFunction", "CompiledModule", "Signature", "compile_module", "lower"]
