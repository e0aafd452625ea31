"""The `hlo-to-gpu` pipeline: the CPU pipeline's upper half (hlo -> loops over
memrefs), then mapping, outlining and the device lowering. The result holds
the host function (memref ops + `gpu.launch_func`) and a `gpu.module` in the
llvm dialect that `minixla-translate --mlir-to-ptx` turns into PTX."""

from __future__ import annotations

GPU_PASSES = ("map-parallel-loops-to-gpu", "canonicalize", "cse", "gpu-kernel-outlining",
              "convert-gpu-to-nvvm", "convert-nvvm-to-llvm")

#: loops over memrefs -> host launches + device llvm dialect
LOOPS_TO_GPU = ",".join(GPU_PASSES)


def hlo_to_gpu(optimize: bool = False) -> str:
    """The `hlo-to-gpu` pipeline; `optimize=True` first runs the hlo
    optimizations (fusion) when passes/pipelines.py provides them, so fused
    loop nests (e.g. the running example as one reduction over x and y)
    become single kernels."""
    from minixla.passes import pipelines

    pre = getattr(pipelines, "HLO_OPTIMIZE", None) if optimize else None
    return ",".join(filter(None, [pre, pipelines.HLO_TO_LOOPS, LOOPS_TO_GPU]))
