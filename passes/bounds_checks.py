"""`insert-bounds-checks`: every `memref.load`/`memref.store` checks its indices (debug mode,
`MINIXLA_CHECK_BOUNDS=1` in the CPU backend; the fuzzer turns it on).

Runs on loops over memrefs (after `lower-linalg-to-loops`, before the threads and LLVM
lowering). Each access gets a site number. An index outside its dimension (unsigned compare,
so negative ones too) makes the access harmless -- it reads/writes element 0 instead, and an
access to a zero-size memref is dropped (a load yields 0) -- and, if no violation was recorded
yet, stores the site, the dimension and the bad index into three i64 globals. Branch-free, so
threads racing on the globals only decide which violation is "first". The site descriptions
(op, memref type, function) go into a constant byte global, so a compiled module read back from
the disk cache still explains its sites; backends/cpu/bounds_report.py reads all of it after
each call and raises.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects import arith, func, memref
from xdsl.dialects.builtin import (
    BFloat16Type,
    DenseIntOrFPElementsAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    StringAttr,
    TensorType,
    UnitAttr,
    i8,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from minixla.passes.locations import describe

from minixla.passes.bounds_symbols import DIM, INDEX, SITE, TABLE  # noqa: E402,F401 -- re-exported
SCALAR = MemRefType(i64, [])


def _global(module: ModuleOp, name: str, t: MemRefType, value: DenseIntOrFPElementsAttr, constant: bool) -> None:
    glob = memref.GlobalOp.get(StringAttr(name), t, value, StringAttr("public"), UnitAttr() if constant else None,
                               64)
    block = module.body.block
    block.insert_op_before(glob, block.first_op) if block.first_op is not None else block.add_op(glob)


def _zero(t: Attribute) -> Operation:
    if isinstance(t, (Float16Type, BFloat16Type, Float32Type, Float64Type)):
        return arith.ConstantOp(FloatAttr(0.0, t))
    if isinstance(t, (IntegerType, IndexType)):
        return arith.ConstantOp(IntegerAttr(0, t))
    raise NotImplementedError(f"insert-bounds-checks: no zero for element type {t}")


class _Checker:
    def __init__(self, module: ModuleOp):
        self.module = module
        self.sites: list[str] = []

    def check(self, op: memref.LoadOp | memref.StoreOp, where: str) -> None:
        t = op.memref.type
        assert isinstance(t, MemRefType)
        shape = t.get_shape()
        if not shape:
            return
        new: list[Operation] = []

        def emit(o: Operation) -> SSAValue:
            new.append(o)
            return o.results[0]

        site = len(self.sites)
        kind = "load from" if isinstance(op, memref.LoadOp) else "store to"
        origin = describe(op.location)  # the hlo op it was lowered from (passes/locations.py)
        self.sites.append(f"{op.name} ({kind} {t}) in @{where}" + (f", from {origin}" if origin else ""))
        bad = bad_dim = bad_index = None
        safe: list[SSAValue] = []
        zero_index = emit(arith.ConstantOp(IntegerAttr(0, IndexType())))
        for k, (idx, size) in enumerate(zip(op.indices, shape)):
            out = emit(arith.CmpiOp(idx, emit(arith.ConstantOp(IntegerAttr(size, IndexType()))), "uge"))
            safe.append(emit(arith.SelectOp(out, zero_index, idx)))
            as_i64 = emit(arith.IndexCastOp(idx, i64))
            dim = emit(arith.ConstantOp(IntegerAttr(k, i64)))
            if bad is None:
                bad, bad_dim, bad_index = out, dim, as_i64
            else:  # the first bad dimension wins
                bad_dim = emit(arith.SelectOp(bad, bad_dim, dim))
                bad_index = emit(arith.SelectOp(bad, bad_index, as_i64))
                bad = emit(arith.OrIOp(bad, out))
        assert bad is not None and bad_dim is not None and bad_index is not None
        site_buf = emit(memref.GetGlobalOp(SITE, SCALAR))
        first = emit(memref.LoadOp.get(site_buf, []))
        record = emit(arith.AndIOp(bad, emit(arith.CmpiOp(first, emit(arith.ConstantOp(IntegerAttr(-1, i64))),
                                                          "eq"))))
        for name, value in ((SITE, emit(arith.ConstantOp(IntegerAttr(site, i64)))), (DIM, bad_dim),
                            (INDEX, bad_index)):
            buf = site_buf if name == SITE else emit(memref.GetGlobalOp(name, SCALAR))
            old = first if name == SITE else emit(memref.LoadOp.get(buf, []))
            new.append(memref.StoreOp.get(emit(arith.SelectOp(record, value, old)), buf, []))
        Rewriter.insert_op(new, _before(op))
        if 0 in shape:  # nothing there to touch: drop the access
            if isinstance(op, memref.LoadOp):
                zero = _zero(t.element_type)
                Rewriter.insert_op(zero, _before(op))
                op.res.replace_all_uses_with(zero.results[0])
            Rewriter.erase_op(op)
            return
        lead = 1 if isinstance(op, memref.LoadOp) else 2  # (memref) or (value, memref), then the indices
        op.operands = [*op.operands[:lead], *safe]

    def finish(self) -> None:
        for name in (SITE, DIM, INDEX):
            _global(self.module, name, SCALAR,
                    DenseIntOrFPElementsAttr.from_list(TensorType(i64, []), [-1]), constant=False)
        text = np.frombuffer("\n".join(self.sites).encode() + b"\0", np.uint8).astype(np.int64).tolist()
        table_t = MemRefType(i8, [len(text)])
        _global(self.module, TABLE, table_t,
                DenseIntOrFPElementsAttr.from_list(TensorType(i8, [len(text)]), text), constant=True)


def _before(op: Operation):
    from xdsl.rewriter import InsertPoint

    return InsertPoint.before(op)


@dataclass(frozen=True)
class InsertBoundsChecks(ModulePass):
    """Check every memref access's indices at run time; record the first violation."""

    name = "insert-bounds-checks"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if any(isinstance(o, memref.GlobalOp) and o.sym_name.data == SITE for o in op.ops):
            return  # already checked
        checker = _Checker(op)
        for fn in [o for o in op.ops if isinstance(o, func.FuncOp)]:
            accesses = [a for a in fn.walk() if isinstance(a, (memref.LoadOp, memref.StoreOp))]
            for access in accesses:
                checker.check(access, fn.sym_name.data)
        checker.finish()
