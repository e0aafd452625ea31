"""The host side of a compiled GPU program, as a list of steps.

After `hlo-to-gpu` the host function holds only allocation, constants,
views and `gpu.launch_func`; rather than compiling that to native code we
read it into a `HostPlan` once and execute it against a `Device` (the CUDA
driver in runtime.py; the tests' SIMT simulator). Memrefs become device
buffers; a view passes its base buffer (the kernel's memref type carries the
static strides and offset, as on the CPU).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import prod
from typing import Any, Protocol

import numpy as np
from xdsl.dialects import arith, func, gpu, memref
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    MemRefType,
    ModuleOp,
)
from xdsl.ir import Attribute, SSAValue

from minixla.passes.lower_to_llvm.common import byte_size, static_layout

VIEWS = (memref.SubviewOp, memref.CollapseShapeOp, memref.ExpandShapeOp, memref.ReinterpretCastOp,
         memref.CastOp)


class PlanError(ValueError):
    """The host function holds an op the GPU runtime cannot execute."""


def np_dtype(t: Attribute) -> np.dtype:
    """The host array dtype of a memref element type (the CPU runtime's mapping)."""
    from minixla.backends.cpu.runtime import ArgumentError, numpy_dtype

    try:
        return numpy_dtype(t)
    except ArgumentError:
        raise PlanError(f"element type {t} is not supported by the GPU runtime") from None


def buffer_bytes(t: MemRefType) -> int:
    """Bytes spanned by a static-layout memref (at least 1)."""
    strides, offset = static_layout(t)
    shape = t.get_shape()
    if 0 in shape:
        return max(byte_size(t.element_type), 1)
    span = offset + sum((d - 1) * s for d, s in zip(shape, strides)) + 1
    return span * byte_size(t.element_type)


@dataclass(frozen=True)
class Alloc:
    slot: int
    nbytes: int


@dataclass(frozen=True)
class Free:
    slot: int


@dataclass(frozen=True)
class Global:
    slot: int
    name: str


@dataclass(frozen=True)
class Alias:
    slot: int
    source: int


@dataclass(frozen=True)
class Launch:
    kernel: str
    grid: tuple[int, int, int]
    block: tuple[int, int, int]
    args: tuple[tuple[str, Any], ...]   # ("buffer", slot) | ("scalar", (value, dtype))
    arg_types: tuple[Attribute, ...] = ()


@dataclass
class HostPlan:
    name: str
    inputs: list[MemRefType]
    outputs: list[MemRefType]
    steps: list = field(default_factory=list)
    globals: dict[str, np.ndarray] = field(default_factory=dict)
    num_slots: int = 0

    @property
    def launches(self) -> list[Launch]:
        return [s for s in self.steps if isinstance(s, Launch)]


def _global_data(op: memref.GlobalOp) -> np.ndarray:
    t = op.type
    assert isinstance(t, MemRefType)
    dt = np_dtype(t.element_type)
    n = max(prod(t.get_shape()), 1)
    value = op.initial_value
    if not isinstance(value, DenseIntOrFPElementsAttr):
        return np.zeros(n, dt)
    vals = value.get_values()
    arr = np.array([bool(v) if np.dtype(dt).kind == "b" else v for v in vals]).astype(dt)
    if arr.size == 1 and n > 1:
        arr = np.full(n, arr[0], dt)
    return arr.reshape(-1)


def build_plan(module: ModuleOp, name: str, num_outputs: int) -> HostPlan:
    fn = next((op for op in module.ops if isinstance(op, func.FuncOp) and op.sym_name.data == name), None)
    if fn is None:
        raise PlanError(f"no function @{name}")
    params = list(fn.function_type.inputs.data)
    if any(not isinstance(t, MemRefType) for t in params):
        raise PlanError("the GPU runtime takes memref parameters only (run bufferize)")
    n_in = len(params) - num_outputs
    plan = HostPlan(name, params[:n_in], params[n_in:])
    slots: dict[SSAValue, int] = {}
    consts: dict[SSAValue, Any] = {}
    for i, a in enumerate(fn.body.block.args):
        slots[a] = i
    nxt = len(params)
    gdefs = {op.sym_name.data: op for op in module.ops if isinstance(op, memref.GlobalOp)}

    def new_slot(v: SSAValue) -> int:
        nonlocal nxt
        slots[v] = nxt
        nxt += 1
        return slots[v]

    for op in fn.body.block.ops:
        if isinstance(op, arith.ConstantOp):
            consts[op.result] = op.value.value.data if hasattr(op.value, "value") else op.value
        elif isinstance(op, (memref.AllocOp, memref.AllocaOp)):
            plan.steps.append(Alloc(new_slot(op.memref), buffer_bytes(op.memref.type)))
        elif isinstance(op, memref.DeallocOp):
            plan.steps.append(Free(slots[op.memref]))
        elif isinstance(op, memref.GetGlobalOp):
            gname = op.name_.root_reference.data
            if gname not in plan.globals:
                plan.globals[gname] = _global_data(gdefs[gname])
            plan.steps.append(Global(new_slot(op.memref), gname))
        elif isinstance(op, VIEWS):
            plan.steps.append(Alias(new_slot(op.results[0]), slots[op.operands[0]]))
        elif isinstance(op, gpu.LaunchFuncOp):
            sizes = [consts.get(v) for v in (op.gridSizeX, op.gridSizeY, op.gridSizeZ,
                                             op.blockSizeX, op.blockSizeY, op.blockSizeZ)]
            if any(s is None for s in sizes):
                raise PlanError("gpu.launch_func needs constant grid and block sizes")
            args = []
            for v in op.kernelOperands:
                if isinstance(v.type, MemRefType):
                    args.append(("buffer", slots[v]))
                elif v in consts:
                    args.append(("scalar", (consts[v], np_dtype(v.type))))
                else:
                    raise PlanError(f"kernel argument of type {v.type} is not a constant")
            plan.steps.append(Launch(op.kernel.nested_references.data[-1].data, tuple(sizes[:3]),
                                     tuple(sizes[3:]), tuple(args), tuple(v.type for v in op.kernelOperands)))
        elif isinstance(op, func.ReturnOp):
            break
        else:
            raise PlanError(f"'{op.name}' left on the host: the GPU runtime executes only allocation, "
                            "constants, views and gpu.launch_func (run map-parallel-loops-to-gpu)")
    plan.num_slots = nxt
    return plan


class Device(Protocol):
    """What a plan needs from a device (handles are opaque)."""

    def alloc(self, nbytes: int) -> Any: ...
    def free(self, handle: Any) -> None: ...
    def upload(self, handle: Any, data: np.ndarray) -> None: ...
    def download(self, handle: Any, nbytes: int) -> bytes: ...
    def launch(self, launch: Launch, args: list[Any]) -> None: ...
    def synchronize(self) -> None: ...


def host_array(x, t: MemRefType) -> np.ndarray:
    arr = np.asarray(x, dtype=np_dtype(t.element_type))
    if not arr.flags.c_contiguous:  # (np.ascontiguousarray would turn 0-d into 1-d)
        arr = arr.copy(order="C")
    if tuple(arr.shape) != tuple(t.get_shape()):
        raise ValueError(f"argument of shape {arr.shape} where {t} is expected")
    return arr


def _check_dense(t: MemRefType) -> None:
    strides, offset = static_layout(t)
    expect = 1
    for d, s in zip(reversed(t.get_shape()), reversed(strides)):
        if d != 1 and s != expect:
            raise PlanError(f"entry parameters must be dense row-major: {t}")
        expect *= d
    if offset:
        raise PlanError(f"entry parameters must have offset 0: {t}")


def execute(plan: HostPlan, device: Device, args, global_cache: dict) -> tuple[np.ndarray, ...]:
    """Run the plan: upload inputs, run the steps, download the outputs.
    `global_cache` (name -> handle) keeps constants on the device across calls."""
    if len(args) != len(plan.inputs):
        raise TypeError(f"@{plan.name} takes {len(plan.inputs)} arguments, got {len(args)}")
    buffers: list[Any] = [None] * plan.num_slots
    owned: list[Any] = []
    for i, (x, t) in enumerate(zip(args, plan.inputs)):
        _check_dense(t)
        arr = host_array(x, t)
        buffers[i] = device.alloc(max(arr.nbytes, 1))
        owned.append(buffers[i])
        if arr.nbytes:
            device.upload(buffers[i], arr)
    for j, t in enumerate(plan.outputs):
        _check_dense(t)
        k = len(plan.inputs) + j
        buffers[k] = device.alloc(buffer_bytes(t))
        owned.append(buffers[k])
        device.upload(buffers[k], np.zeros(buffer_bytes(t), np.uint8))
    freed: set[int] = set()
    try:
        for step in plan.steps:
            if isinstance(step, Alloc):
                buffers[step.slot] = device.alloc(step.nbytes)
                owned.append(buffers[step.slot])
            elif isinstance(step, Free):
                h = buffers[step.slot]
                if h is not None and id(h) not in freed and step.slot >= len(plan.inputs) + len(plan.outputs):
                    device.free(h)
                    freed.add(id(h))
            elif isinstance(step, Global):
                if step.name not in global_cache:
                    data = plan.globals[step.name]
                    h = device.alloc(max(data.nbytes, 1))
                    device.upload(h, data)
                    global_cache[step.name] = h
                buffers[step.slot] = global_cache[step.name]
            elif isinstance(step, Alias):
                buffers[step.slot] = buffers[step.source]
            elif isinstance(step, Launch):
                device.launch(step, [buffers[v] if kind == "buffer" else v for kind, v in step.args])
        device.synchronize()
        outs = []
        for j, t in enumerate(plan.outputs):
            raw = device.download(buffers[len(plan.inputs) + j], buffer_bytes(t))
            dt = np_dtype(t.element_type)
            n = prod(t.get_shape())
            outs.append(np.frombuffer(raw, dtype=dt, count=n).reshape(t.get_shape()).copy())
        return tuple(outs)
    finally:
        for h in owned:
            if id(h) not in freed:
                device.free(h)
                freed.add(id(h))


__all__ = ["Alias", "Alloc", "Device", "Free", "Global", "HostPlan", "Launch", "PlanError", "build_plan",
           "buffer_bytes", "execute", "np_dtype"]
