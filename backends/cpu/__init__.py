"""The CPU backend: llvm-dialect modules JIT-compiled by llvmlite for the host.

`compile_module(memref_module)["f"](*arrays)` runs a memref/scf-level module;
`CpuBackend().compile(hlo_module)` runs an hlo module through `hlo-to-cpu`.
"""

from minixla.backends.cpu.runtime import ArgumentError, CompiledFunction, CompiledModule, Signature


def __getattr__(name: str):
    """`compile_module` and `lower` on first use: importing the pass pipeline costs ~0.1 s, which a
    process whose compiles all hit the disk cache never needs."""
    if name in ("compile_module", "lower"):
        from minixla.backends.cpu import compiler

        return getattr(compiler, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = ["ArgumentError", "CompiledFunction", "CompiledModule", "Signature", "compile_module", "lower"]
