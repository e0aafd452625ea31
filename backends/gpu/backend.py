"""The `gpu` backend: `GpuBackend().compile(module)` -> `GpuExecutable`.

Compilation needs no GPU: the module goes through `hlo-to-gpu` (or only its
GPU half when it is already at the loop level), the device code becomes PTX
(`executable.ptx`, for the device's architecture when one is present, else
`sm_80`), and the host function becomes a `HostPlan`. Calling the executable
loads the PTX through the CUDA driver (cached per PTX text), runs the plan
and returns the outputs; without cuda-python, a driver or a device it raises
`GpuUnavailableError`. `executable.kernels` keeps the outlined module (gpu
dialect, before the NVVM lowering) for inspection and for simulation.
"""

from __future__ import annotations

from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp

from minixla.backends.gpu.plan import HostPlan, build_plan, execute
from minixla.backends.gpu.target import DEFAULT_ARCH
from minixla.backends.gpu.translate import translate_to_ptx

_HIGH_LEVEL = ("hlo.", "stablehlo.", "tensor.", "linalg.", "bufferization.")
_OUTLINED_AT = "gpu-kernel-outlining"


def _entry_name(module: ModuleOp, entry: str | None) -> str:
    if entry is not None:
        return entry
    names = [op.sym_name.data for op in module.ops if isinstance(op, func.FuncOp) and op.body.blocks
             and (op.sym_visibility is None or op.sym_visibility.data == "public")]
    if "main" in names:
        return "main"
    if len(names) == 1:
        return names[0]
    raise ValueError(f"cannot choose an entry function among {names}; pass entry=")


def lower_to_gpu(module: ModuleOp, keep_outlined: bool = True, optimize: bool = False
                 ) -> tuple[ModuleOp, ModuleOp | None]:
    """Run hlo-to-gpu (or its loop-level half) on `module` in place; returns
    it and a copy taken right after kernel outlining."""
    from minixla.passes import build_pipeline
    from minixla.passes.gpu.pipelines import LOOPS_TO_GPU, hlo_to_gpu
    from minixla.dialects import load_all
    from minixla.dialects.diagnostics import verify_module

    high = any(op.name.startswith(_HIGH_LEVEL) for op in module.walk())
    spec = hlo_to_gpu(optimize) if high else LOOPS_TO_GPU
    snapshot: list[ModuleOp] = []

    def step(prev, mod, nxt) -> None:
        if prev is not None:
            verify_module(mod)
            if keep_outlined and prev.name == _OUTLINED_AT:
                snapshot.append(mod.clone())

    build_pipeline(spec, step).apply(load_all(), module)
    return module, (snapshot[0] if snapshot else None)


class GpuExecutable:
    """A compiled entry function: PTX + host plan; `exe(*arrays)` runs it."""

    def __init__(self, ptx: str, arch: str, plan: HostPlan, lowered: ModuleOp, kernels: ModuleOp | None):
        self.ptx = ptx
        self.arch = arch
        self.plan = plan
        self.lowered = lowered
        self.kernels = kernels
        self._globals: dict = {}

    @property
    def kernels_mapping(self) -> dict[str, str]:
        """kernel name -> how its loops were mapped (parallel, row-reduction, ...)."""
        from minixla.passes.gpu.mapping import MAPPING_ATTR

        out = {}
        for op in self.lowered.walk():
            if op.name == "llvm.func" and MAPPING_ATTR in op.attributes:
                out[op.sym_name.data] = op.attributes[MAPPING_ATTR].data
        return out

    def __call__(self, *args):
        from minixla.backends.gpu.runtime import cuda_device

        dev = cuda_device()  # GpuUnavailableError without cuda-python / driver / device
        ptx = self.ptx if dev.arch == self.arch else self.ptx_for(dev.arch)
        dev.load(ptx)
        cache = self._globals.setdefault(dev.arch, {})
        return execute(self.plan, dev, args, cache)

    def ptx_for(self, arch: str) -> str:
        """PTX for another architecture (the PTX JIT also runs older PTX on newer GPUs)."""
        if arch == self.arch:
            return self.ptx
        try:
            return translate_to_ptx(self.lowered, arch)
        except ValueError:
            return self.ptx


class GpuBackend:
    """Kernels outlined from parallel loops, PTX by llvmlite, run by the CUDA driver."""

    name = "gpu"

    def __init__(self, arch: str | None = None, optimize: bool = False):
        self.arch = arch
        self.optimize = optimize  # hlo fusion first (opt-in, as for the CPU)

    def _arch(self) -> str:
        if self.arch is not None:
            return self.arch
        try:
            from minixla.backends.gpu.runtime import gpu_available, cuda_device

            if gpu_available()[0]:
                return cuda_device().arch
        except Exception:  # noqa: BLE001 -- compiling must work without a GPU
            pass
        return DEFAULT_ARCH

    def compile(self, module: ModuleOp, entry: str | None = None, num_outputs: int | None = None
                ) -> GpuExecutable:
        module = module.clone()
        name = _entry_name(module, entry)
        fn = next((op for op in module.ops if isinstance(op, func.FuncOp) and op.sym_name.data == name), None)
        if fn is None:
            raise ValueError(f"no function @{name} in the module")
        high = any(op.name.startswith(_HIGH_LEVEL) for op in module.walk())
        if num_outputs is None:
            num_outputs = len(fn.function_type.outputs.data) if high else 1
        lowered, outlined = lower_to_gpu(module, optimize=self.optimize)
        arch = self._arch()
        ptx = translate_to_ptx(lowered, arch)
        plan = build_plan(lowered, name, num_outputs)
        return GpuExecutable(ptx, arch, plan, lowered, outlined)

