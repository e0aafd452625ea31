"""`nvvm`: the few NVIDIA intrinsics the GPU pipeline needs (xDSL 0.74 has no
NVVM dialect). Names and meaning follow MLIR's NVVM dialect:

    %t = nvvm.read.ptx.sreg.tid.x : i32          // also ntid, ctaid, nctaid; x/y/z; laneid, warpsize
    nvvm.barrier0                               // __syncthreads()
    %v = nvvm.shfl.sync "down" %mask, %x, %off, %clamp : i32 -> i32

`convert-nvvm-to-llvm` turns each op into `llvm.call_intrinsic` of the
matching `llvm.nvvm.*` intrinsic (see `INTRINSIC`), which our translator and
llvmlite's NVPTX target understand.
"""

from __future__ import annotations

from xdsl.dialects.builtin import Float32Type, StringAttr, i32
from xdsl.ir import Attribute, Dialect, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
)
from xdsl.utils.exceptions import VerifyException

SHUFFLE_KINDS = ("bfly", "up", "down", "idx")


def _sreg_op(reg: str) -> type[IRDLOperation]:
    """One op class per special register, e.g. `nvvm.read.ptx.sreg.tid.x`."""

    class SregOp(IRDLOperation):
        name = f"nvvm.read.ptx.sreg.{reg}"
        res = result_def(i32)
        assembly_format = "attr-dict `:` type($res)"

        def __init__(self):
            super().__init__(result_types=[i32])

    SregOp.__name__ = SregOp.__qualname__ = "Sreg" + "".join(p.capitalize() for p in reg.split(".")) + "Op"
    return irdl_op_definition(SregOp)


SREGS = tuple(f"{r}.{d}" for r in ("tid", "ntid", "ctaid", "nctaid") for d in "xyz") + ("laneid", "warpsize")
SREG_OPS: dict[str, type[IRDLOperation]] = {reg: _sreg_op(reg) for reg in SREGS}


@irdl_op_definition
class Barrier0Op(IRDLOperation):
    """Block-wide barrier (`bar.sync 0`)."""

    name = "nvvm.barrier0"
    assembly_format = "attr-dict"

    def __init__(self):
        super().__init__()


@irdl_op_definition
class ShflSyncOp(IRDLOperation):
    """Warp shuffle of an i32/f32 among the lanes in `thread_mask`."""

    name = "nvvm.shfl.sync"
    kind = prop_def(StringAttr)
    thread_mask = operand_def(i32)
    val = operand_def()
    offset = operand_def(i32)
    mask_and_clamp = operand_def(i32)
    res = result_def()
    assembly_format = ("$kind $thread_mask `,` $val `,` $offset `,` $mask_and_clamp attr-dict "
                       "`:` type($val) `->` type($res)")

    def __init__(self, kind: str, thread_mask: SSAValue, val: SSAValue, offset: SSAValue, clamp: SSAValue):
        super().__init__(operands=[thread_mask, val, offset, clamp], result_types=[val.type],
                         properties={"kind": StringAttr(kind)})

    def verify_(self) -> None:
        if self.kind.data not in SHUFFLE_KINDS:
            raise VerifyException(f"nvvm.shfl.sync: kind must be one of {SHUFFLE_KINDS}, got '{self.kind.data}'")
        if self.val.type != i32 and not isinstance(self.val.type, Float32Type):
            raise VerifyException(f"nvvm.shfl.sync: value must be i32 or f32, got {self.val.type}")
        if self.res.type != self.val.type:
            raise VerifyException("nvvm.shfl.sync: result type must equal the value type")


def intrinsic(op: IRDLOperation) -> tuple[str, Attribute | None]:
    """The `llvm.nvvm.*` intrinsic implementing `op` and its result type."""
    if isinstance(op, ShflSyncOp):
        suffix = "i32" if op.val.type == i32 else "f32"
        return f"llvm.nvvm.shfl.sync.{op.kind.data}.{suffix}", op.res.type
    if isinstance(op, Barrier0Op):
        return "llvm.nvvm.barrier0", None
    reg = op.name.removeprefix("nvvm.read.ptx.sreg.")
    return f"llvm.nvvm.read.ptx.sreg.{reg}", i32


NVVM = Dialect("nvvm", [*SREG_OPS.values(), Barrier0Op, ShflSyncOp], [])

__all__ = ["NVVM", "SREG_OPS", "Barrier0Op", "ShflSyncOp", "intrinsic"]
