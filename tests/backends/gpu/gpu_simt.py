"""A SIMT simulator for the outlined kernels (gpu dialect, before NVVM), so
the GPU mapping is checked numerically without a GPU.

It runs a compiled GPU program's host plan (backends/gpu/plan.py) against a
numpy "device": each launch runs its blocks one after another, and the
threads of a block as Python threads, each interpreting the `gpu.func` with
the loop-IR evaluator of tests/passes/loop_ir_eval.py. `gpu.barrier` is a real
barrier over the block, `nvvm.shfl.sync` a real exchange within the warp,
shared `memref.alloca`s (address space 3) are one array per block. So grid-
stride loops, block reductions, warp shuffles and the partials/final combine
all run as they would on a GPU (slowly: keep shapes small).
"""

from __future__ import annotations

import threading
from types import SimpleNamespace

import numpy as np
from xdsl.dialects import gpu
from xdsl.dialects.builtin import IntegerAttr, MemRefType

from minixla.backends.gpu.plan import Launch, execute, np_dtype
from minixla.passes.lower_to_llvm.common import static_layout

from tests.passes.loop_ir_eval import LoopEvaluator, Return, _u, _wrap

WARP = 32
TIMEOUT = 60


class _Warp:
    def __init__(self, parties: int):
        self.slots = [0] * WARP
        self.barrier = threading.Barrier(parties, timeout=TIMEOUT)

    def exchange(self, lane: int, value, src: int):
        self.slots[lane] = value
        self.barrier.wait()
        out = self.slots[src]
        self.barrier.wait()
        return out


class _Block:
    def __init__(self, bid: int, grid: int, nthreads: int):
        self.bid, self.grid, self.nthreads = bid, grid, nthreads
        self.barrier = threading.Barrier(nthreads, timeout=TIMEOUT)
        self.warps = [_Warp(min(WARP, nthreads - w * WARP)) for w in range(-(-nthreads // WARP))]
        self.shared: dict[int, np.ndarray] = {}
        self.lock = threading.Lock()


class ThreadEvaluator(LoopEvaluator):
    """One GPU thread: the loop evaluator plus ids, barriers, shuffles, shared memory."""

    def __init__(self, module, block: _Block, tid: int):
        super().__init__(module)
        self.blk, self.tid = block, tid

    def op(self, op, env):
        name = op.name
        if name in ("gpu.thread_id", "gpu.block_id", "gpu.block_dim", "gpu.grid_dim"):
            dim = op.dimension.data.value
            value = {"gpu.thread_id": self.tid, "gpu.block_id": self.blk.bid,
                     "gpu.block_dim": self.blk.nthreads, "gpu.grid_dim": self.blk.grid}[name]
            return [value if dim == "x" else (0 if name in ("gpu.thread_id", "gpu.block_id") else 1)]
        if name == "gpu.barrier":
            self.blk.barrier.wait()
            return None
        if name == "gpu.return":
            raise Return([])
        if name == "nvvm.shfl.sync":
            mask, value, offset, clamp = (env[v] for v in op.operands)
            assert op.kind.data == "down" and _u(mask, 32) == 0xFFFFFFFF and clamp == WARP - 1
            lane = self.tid % WARP
            src = lane + offset if lane + offset < WARP else lane
            return [self.blk.warps[self.tid // WARP].exchange(lane, value, src)]
        if name == "memref.alloca":
            t = op.results[0].type
            space = t.memory_space
            if isinstance(space, IntegerAttr) and space.value.data == 3:
                with self.blk.lock:
                    arr = self.blk.shared.setdefault(id(op), np.zeros(t.get_shape(), np_dtype(t.element_type)))
                return [arr]
        return super().op(op, env)


class SimDevice:
    """The plan's Device protocol on numpy byte buffers."""

    def __init__(self, kernels_module):
        kmods = [op for op in kernels_module.ops if isinstance(op, gpu.ModuleOp)]
        self.module = kmods[0] if kmods else None
        self.funcs = {op.sym_name.data: op for op in (self.module.body.block.ops if self.module else [])
                      if isinstance(op, gpu.FuncOp)}
        self.launches: list[Launch] = []
        self.scope = SimpleNamespace(ops=list(self.module.body.block.ops) if self.module else [])

    def alloc(self, nbytes):
        return np.zeros(max(int(nbytes), 1), np.uint8)

    def free(self, handle):
        pass

    def upload(self, handle, data):
        raw = np.ascontiguousarray(data).view(np.uint8).reshape(-1)
        handle[:raw.size] = raw

    def download(self, handle, nbytes):
        return handle[:nbytes].tobytes()

    def synchronize(self):
        pass

    @staticmethod
    def _view(buf: np.ndarray, t: MemRefType) -> np.ndarray:
        dt = np_dtype(t.element_type)
        strides, offset = static_layout(t)
        return np.ndarray(t.get_shape(), dt, buffer=buf, offset=offset * dt.itemsize,
                          strides=[s * dt.itemsize for s in strides])

    def launch(self, launch: Launch, args):
        self.launches.append(launch)
        fn = self.funcs[launch.kernel]
        values = []
        for a, t in zip(args, fn.function_type.inputs.data):
            if isinstance(t, MemRefType):
                values.append(self._view(a, t))
            else:
                value, _ = a
                values.append(value)
        grid, nthreads = launch.grid[0], launch.block[0]
        assert launch.grid[1:] == (1, 1) and launch.block[1:] == (1, 1)
        for bid in range(grid):
            block = _Block(bid, grid, nthreads)
            errors: list[BaseException] = []

            def run(tid: int, block=block):
                try:
                    ThreadEvaluator(self.scope, block, tid).call(fn, values)
                except BaseException as err:  # noqa: BLE001
                    errors.append(err)
                    block.barrier.abort()
                    for w in block.warps:
                        w.barrier.abort()

            threads = [threading.Thread(target=run, args=(t,)) for t in range(nthreads)]
            for th in threads:
                th.start()
            for th in threads:
                th.join()
            real = [e for e in errors if not isinstance(e, threading.BrokenBarrierError)]
            if real or errors:
                raise (real or errors)[0]


def simulate(executable, *args):
    """Run a `GpuExecutable` on the simulator; returns its outputs."""
    dev = SimDevice(executable.kernels)
    return execute(executable.plan, dev, args, {}), dev


__all__ = ["SimDevice", "simulate", "_wrap"]
