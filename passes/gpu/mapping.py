"""`map-parallel-loops-to-gpu` (minixla's): every top-level computation of a
bufferized function becomes a `gpu.launch` with a static grid; what stays on
the host is allocation, constants, views and the launches themselves.

Units, in program order:
- `scf.parallel`: the iteration space is flattened and walked by a
  grid-stride loop (256 threads a block, at most MAX_GRID blocks), so
  consecutive threads touch consecutive elements. When its body is a
  reduction nest over the contiguous dimension (a row reduction) each block
  takes one output at a time and reduces it cooperatively (block reduction).
- a top-level carried `scf.for` nest (a full reduction): each thread folds a
  grid-strided share, blocks reduce by warp shuffles and shared memory into
  one partial each, a one-block kernel combines the partials with the
  initial value (one kernel when a single block suffices).
- anything else (scalar code, `scf.while`, ...): a one-thread kernel; runs of
  such ops share one kernel.
Scalars that cross from one unit to another are spilled to rank-0 device
buffers. `memref.copy` becomes a parallel loop first. See docs/gpu.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import arith, func, gpu, memref, scf
from xdsl.dialects.builtin import IndexType, MemRefType, ModuleOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import DiagnosticException

from minixla.passes.gpu.builder import INDEX, B, ceil_div, constant_int, delinearize
from minixla.passes.fft_plan import SYMBOLS as FFT_SYMBOLS
from minixla.passes.locations import describe
from minixla.passes.gpu.reduction import (
    ReductionNest,
    analyze_nest,
    block_reduce,
    combine,
    elements,
    is_row_reduction,
    strided_fold,
)

BLOCK = 256
MAX_GRID = 1 << 16           # grid-stride beyond this
MAX_PARTIALS = 1024          # blocks of the first full-reduction kernel
HOST_OPS = (arith.ConstantOp, memref.AllocOp, memref.AllocaOp, memref.DeallocOp, memref.GetGlobalOp,
            memref.SubviewOp, memref.CollapseShapeOp, memref.ExpandShapeOp, memref.ReinterpretCastOp,
            memref.CastOp, func.ReturnOp)
MAPPING_ATTR = "minixla.gpu_mapping"


class MappingError(DiagnosticException):
    pass


@dataclass
class Unit:
    kind: str                       # "parallel" | "reduction" | "serial"
    ops: list[Operation] = field(default_factory=list)
    nest: ReductionNest | None = None


def _round_warp(n: int) -> int:
    return max(32, min(BLOCK, ceil_div(n, 32) * 32))


def _launch(at: Operation, grid: int, block: int, build, tag: str) -> gpu.LaunchOp:
    """A gpu.launch before `at`; `build(b, bid, tid, nblocks, nthreads)` fills it."""
    body = Block(arg_types=[INDEX] * 12)
    b = B(body)
    build(b, body.args[0], body.args[3], body.args[6], body.args[9])
    b(gpu.TerminatorOp())
    parent = at.parent_block()
    assert parent is not None
    sizes = []
    for v in (grid, 1, 1, block, 1, 1):
        c = arith.ConstantOp.from_int_and_width(v, IndexType())
        parent.insert_op_before(c, at)
        sizes.append(c)
    launch = gpu.LaunchOp(Region(body), sizes[:3], sizes[3:])
    from xdsl.dialects.builtin import StringAttr

    launch.attributes[MAPPING_ATTR] = StringAttr(tag)
    parent.insert_op_before(launch, at)
    return launch


# --- units -------------------------------------------------------------------

def _classify(op: Operation) -> str:
    if isinstance(op, HOST_OPS):
        return "host"
    if isinstance(op, scf.ParallelOp) and not op.initVals and _static_parallel(op) is not None:
        return "parallel"
    if isinstance(op, scf.ForOp) and analyze_nest(op) is not None:
        return "reduction"
    return "serial"


def _static_parallel(op: scf.ParallelOp):
    vals = [[constant_int(v) for v in vs] for vs in (op.lowerBound, op.upperBound, op.step)]
    if any(x is None for vs in vals for x in vs) or any(s <= 0 for s in vals[2]):
        return None
    lbs, ubs, steps = vals
    trips = [max(0, ceil_div(u - lb, s)) for lb, u, s in zip(lbs, ubs, steps)]
    return lbs, trips, steps


def _pure_scalar(op: Operation) -> bool:
    """May run redundantly in many threads before a reduction (a head op)."""
    if op.regions or op.name == "memref.store" or op.name == "func.call":
        return False
    return op.name == "memref.load" or op.dialect_name() in ("arith", "math")


def _units(block: Block) -> list[Unit]:
    units: list[Unit] = []
    for op in list(block.ops):
        kind = _classify(op)
        if kind == "host":
            continue
        last = units[-1] if units else None
        if kind == "serial" and last is not None and last.kind in ("serial", "reduction") \
                and _adjacent(last.ops[-1], op):
            last.ops.append(op)
            continue
        unit = Unit(kind, [op], analyze_nest(op) if kind == "reduction" else None)
        if kind != "serial" and last is not None and last.kind == "serial" and _adjacent(last.ops[-1], op):
            # pure scalar ops right before (e.g. init loads) used only here become the unit's head
            while last.ops and _pure_scalar(last.ops[-1]) and all(
                    _top(use.operation, block) in unit.ops for r in last.ops[-1].results for use in r.uses):
                unit.ops.insert(0, last.ops.pop())
            if not last.ops:
                units.pop()
        units.append(unit)
    return units


def _adjacent(a: Operation, b: Operation) -> bool:
    """Only host ops other than dealloc between a and b? (deallocs are sunk)"""
    op = a.next_op
    while op is not None and op is not b:
        if not isinstance(op, HOST_OPS) or isinstance(op, func.ReturnOp):
            return False
        op = op.next_op
    return op is b


def _spill(fn: func.FuncOp, units: list[Unit]) -> None:
    """Scalars defined in one unit and used in another go through memory."""
    owner = {op: u for u in units for op in u.ops}
    entry = fn.body.block
    for u in units:
        for op in list(u.ops):
            for r in op.results:
                users = [use.operation for use in r.uses]
                tops = [_top(x, entry) for x in users]
                if all(owner.get(t) is u for t in tops):
                    continue
                if isinstance(r.type, MemRefType):
                    raise MappingError(f"map-parallel-loops-to-gpu: a memref computed on the device ('{op.name}') "
                                       "is used outside its kernel")
                if any(t not in owner for t in tops):
                    raise MappingError(f"map-parallel-loops-to-gpu: host op uses a device scalar from '{op.name}'")
                slot = memref.AllocOp.get(r.type, shape=[])
                entry.insert_op_before(slot, entry.first_op)
                store = memref.StoreOp.get(r, slot, [])
                entry.insert_op_after(store, op)
                u.ops.insert(u.ops.index(op) + 1, store)
                loads: dict[int, SSAValue] = {}
                for user, top in zip(users, tops):
                    other = owner[top]
                    if other is u:
                        continue
                    if id(other) not in loads:
                        first = min(other.ops, key=lambda o: _index(entry, o))
                        load = memref.LoadOp.get(slot, [])
                        entry.insert_op_before(load, first)
                        other.ops.insert(other.ops.index(first), load)
                        loads[id(other)] = load.res
                    for i, operand in enumerate(user.operands):
                        if operand is r:
                            user.operands[i] = loads[id(other)]
                dealloc = memref.DeallocOp.get(slot)
                entry.insert_op_before(dealloc, entry.last_op)


def _top(op: Operation, entry: Block) -> Operation:
    while op.parent_block() is not entry:
        op = op.parent_op()
        assert op is not None
    return op


def _index(block: Block, op: Operation) -> int:
    for i, o in enumerate(block.ops):
        if o is op:
            return i
    raise ValueError("op not in block")


# --- kernels -------------------------------------------------------------------

def _parallel_kernel(unit: Unit) -> None:
    op = unit.ops[-1]
    assert isinstance(op, scf.ParallelOp)
    pre = unit.ops[:-1]
    lbs, trips, steps = _static_parallel(op)
    total = 1
    for t in trips:
        total *= t
    if total == 0:
        return
    body = op.body.block
    inner = [o for o in body.ops if not isinstance(o, scf.ReduceOp)]
    nest = _row_nest(inner)
    if nest is not None:
        _row_reduction_kernel(op, pre, inner, nest, lbs, trips, steps, total)
    else:
        grid = min(ceil_div(total, BLOCK), MAX_GRID)
        block = _round_warp(total) if grid == 1 else BLOCK

        def build(b: B, bid, tid, nb, nt):
            m0: dict = {}
            b.clone(pre, m0)
            start = b.add(b.mul(bid, nt), tid)
            stride = b.mul(nb, nt)

            def step(t: B, i, _):
                m = dict(m0)
                m.update(zip(body.args, delinearize(t, i, trips, lbs, steps)))
                t.clone(inner, m)
                return []

            b.for_(start, b.index(total), stride, [], step)

        _launch(op, grid, block, build, "parallel")


def _row_nest(inner: list[Operation]) -> ReductionNest | None:
    fors = [o for o in inner if isinstance(o, scf.ForOp) and o.iter_args]
    if len(fors) != 1:
        return None
    nest = analyze_nest(fors[0])
    if nest is None or nest.total < 32 or not is_row_reduction(nest):
        return None
    k = inner.index(fors[0])
    if any(not _pure_scalar(o) for o in inner[:k]):
        return None
    return nest


def _row_reduction_kernel(op, pre, inner, nest: ReductionNest, lbs, trips, steps, total) -> None:
    """One block per output (grid-strided over outputs), threads split the
    reduction, thread 0 combines with the initial value and runs the rest."""
    body = op.body.block
    k = inner.index(nest.outer)
    head, tail = inner[:k], inner[k + 1:]
    block = _round_warp(nest.total)
    grid = min(total, MAX_GRID)

    def build(b: B, bid, tid, nb, nt):
        m0: dict = {}
        b.clone(pre, m0)

        def per_output(t: B, o, _):
            m = dict(m0)
            m.update(zip(body.args, delinearize(t, o, trips, lbs, steps)))
            t.clone(head, m)
            _reduce_and_finish(t, nest, m, tid, nt, block, nest.total, None, tail)
            return []

        b.for_(bid, b.index(total), nb, [], per_output)

    _launch(op, grid, block, build, "row-reduction")


def _reduce_and_finish(b: B, nest: ReductionNest, m: dict, tid, nt, block: int, n: int, source,
                       tail: list[Operation]) -> None:
    """Threads fold a strided share of `n` elements (from `source(b, i)`, or
    the nest's own elements), reduce over the block; thread 0 combines with
    the nest's initial values and runs `tail` with the results."""

    def elem(t: B, i):
        if source is not None:
            return source(t, i)
        return elements(t, nest, delinearize(t, i, nest.trips, nest.lbs, nest.steps), m)

    vals, valid = strided_fold(b, tid, b.index(n), nt, elem,
                               lambda t, a, x: combine(t, nest, a, x, m), nest.types)
    vals, valid = block_reduce(b, nest, vals, valid, tid, block, m)
    inits = [m.get(v, v) for v in nest.outer.iter_args]

    def finish(t: B):
        res = t.if_(valid, nest.types, lambda u: combine(u, nest, inits, vals, m), lambda u: inits)
        mm = dict(m)
        mm.update(zip(nest.outer.results, res))
        t.clone(tail, mm)
        return []

    b.if_(b.cmp("eq", tid, b.index(0)), [], finish)


def _reduction_kernels(unit: Unit, fn: func.FuncOp) -> None:
    """Full reduction: partials per block, then a one-block combine."""
    nest = unit.nest
    assert nest is not None
    k = unit.ops.index(nest.outer)
    head, tail = unit.ops[:k], unit.ops[k + 1:]
    at = unit.ops[-1].next_op
    n = nest.total
    grid = min(ceil_div(n, BLOCK), MAX_PARTIALS)
    partials: list[SSAValue] = []
    if grid > 1:
        entry = fn.body.block
        for t in nest.types:
            buf = memref.AllocOp.get(t, shape=[grid])
            entry.insert_op_before(buf, unit.ops[0])
            partials.append(buf.memref)

        def first(b: B, bid, tid, nb, nt):
            m: dict = {}
            b.clone(head, m)
            vals, valid = strided_fold(
                b, b.add(b.mul(bid, nt), tid), b.index(n), b.mul(nb, nt),
                lambda t, i: elements(t, nest, delinearize(t, i, nest.trips, nest.lbs, nest.steps), m),
                lambda t, a, x: combine(t, nest, a, x, m), nest.types)
            vals, valid = block_reduce(b, nest, vals, valid, tid, BLOCK, m)

            def park(t: B):
                for v, p in zip(vals, partials):
                    t(memref.StoreOp.get(v, p, [bid]))
                return []

            b.if_(b.cmp("eq", tid, b.index(0)), [], park)

        _launch(at, grid, BLOCK, first, "reduction-partials")
    block = _round_warp(grid if grid > 1 else n)

    def final(b: B, bid, tid, nb, nt):
        m: dict = {}
        b.clone(head, m)
        source = (lambda t, i: [t(memref.LoadOp.get(p, [i])) for p in partials]) if partials else None
        _reduce_and_finish(b, nest, m, tid, nt, block, grid if partials else n, source, tail)

    _launch(at, 1, block, final, "reduction-final")
    for buf in partials:
        fn.body.block.insert_op_before(memref.DeallocOp.get(buf), at)


def _serial_kernel(unit: Unit) -> None:
    at = unit.ops[-1].next_op

    def build(b: B, *_):
        b.clone(unit.ops, {})

    _launch(at, 1, 1, build, "serial")


def _copy_to_loop(op: memref.CopyOp) -> None:
    """memref.copy -> scf.parallel of loads and stores (a kernel like any other)."""
    t = op.source.type
    assert isinstance(t, MemRefType)
    shape = t.get_shape()
    parent = op.parent_block()
    if not shape:
        load = memref.LoadOp.get(op.source, [])
        parent.insert_op_before(load, op)
        parent.insert_op_before(memref.StoreOp.get(load.res, op.destination, []), op)
        op.detach()
        op.erase()
        return
    body = Block(arg_types=[INDEX] * len(shape))
    b = B(body)
    v = b(memref.LoadOp.get(op.source, list(body.args)))
    b(memref.StoreOp.get(v, op.destination, list(body.args)))
    b(scf.ReduceOp())
    consts = [arith.ConstantOp.from_int_and_width(x, IndexType()) for x in (0, 1, *shape)]
    for c in consts:
        parent.insert_op_before(c, op)
    zero, one = consts[0], consts[1]
    parent.insert_op_before(scf.ParallelOp([zero] * len(shape), consts[2:], [one] * len(shape), Region(body)), op)
    op.detach()
    op.erase()


def map_function(fn: func.FuncOp) -> None:
    if not fn.body.blocks:
        return
    if len(fn.body.blocks) != 1:
        raise MappingError(f"map-parallel-loops-to-gpu: @{fn.sym_name.data} has several blocks; "
                           "run before lower-scf-to-cf")
    entry = fn.body.block
    for call in (o for o in fn.walk() if isinstance(o, func.CallOp) and o.callee.string_value() in FFT_SYMBOLS):
        where = describe(call.location)  # the CPU FFT kernel (hlo.fft) would end up inside a GPU kernel
        raise MappingError(f"map-parallel-loops-to-gpu: @{call.callee.string_value()} is the CPU FFT kernel"
                           f"{' (from ' + where + ')' if where else ''}; the GPU backend has no FFT yet")
    for op in [o for o in entry.ops if isinstance(o, memref.CopyOp)]:
        _copy_to_loop(op)
    units = _units(entry)
    _spill(fn, units)
    for unit in units:
        # deallocs inside a unit's span go after its launch
        first, last = unit.ops[0], unit.ops[-1]
        op = first
        while op is not None and op is not last:
            nxt = op.next_op
            if isinstance(op, memref.DeallocOp):
                op.detach()
                entry.insert_op_after(op, last)
            op = nxt
        if unit.kind == "parallel":
            _parallel_kernel(unit)
        elif unit.kind == "reduction":
            _reduction_kernels(unit, fn)
        else:
            _serial_kernel(unit)
        for o in reversed(unit.ops):
            o.detach()
            o.erase()


@dataclass(frozen=True)
class GpuMapParallelLoops(ModulePass):
    """Top-level loops and scalar code of each function -> gpu.launch kernels."""

    name = "map-parallel-loops-to-gpu"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fn in list(op.ops):
            if isinstance(fn, func.FuncOp):
                map_function(fn)
