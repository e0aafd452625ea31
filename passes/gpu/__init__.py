"""The GPU half of the compiler: parallel loops -> kernels -> NVVM/LLVM.

    map-parallel-loops-to-gpu   top-level loops and scalar code -> gpu.launch (mapping.py)
    gpu-kernel-outlining     gpu.launch -> gpu.module/gpu.func + gpu.launch_func (outline.py)
    convert-gpu-to-nvvm      device side -> llvm dialect + nvvm ops (to_nvvm.py)
    convert-nvvm-to-llvm     nvvm ops -> llvm.call_intrinsic of llvm.nvvm.* (to_nvvm.py)

`hlo-to-gpu` (pipelines.py) chains them after the CPU pipeline's upper half;
backends/gpu turns the result into PTX and runs it. See docs/gpu.md.
"""
