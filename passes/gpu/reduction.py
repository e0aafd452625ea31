"""Reductions on the GPU: splitting a reduction loop nest into its per-element
part and its combiner, and the block-level reduction (warp shuffles, then
one shared-memory slot per warp, then a last warp) the kernels use.

A carried `scf.for` nest `acc = f(acc, e(i))` (what `lower-linalg-to-loops`
makes of a reduction) is split by data flow: ops depending on the
accumulators form the combiner `f`, ops depending on the induction variables
or on memory form the element part `e`, and the values crossing from `e` to
`f` are the elements. It is usable when there is one element per accumulator
with the accumulator's type (true of every `hlo.reduce` and of contractions),
because then `f(a, b)` also combines two partial results. The combiner is
taken to be associative and commutative (StableHLO leaves the reduction
order to the implementation). No identity element is needed: every partial
carries a validity flag, so threads without elements simply do not count.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import (
    AnyFloat,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    i1,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue

from minixla.dialects.nvvm import ShflSyncOp

from minixla.passes.gpu.builder import INDEX, B, constant_int

WARP = 32
SHARED_SPACE = IntegerAttr(3, i32)  # NVVM's shared (workgroup) address space
_MEMORY_OPS = ("memref.load", "func.call")


@dataclass
class ReductionNest:
    """A perfect carried `scf.for` nest split into element part and combiner."""

    outer: scf.ForOp
    trips: list[int]
    lbs: list[int]
    steps: list[int]
    ivs: list[SSAValue]            # block argument of each loop
    hoisted: list[Operation]       # loop-invariant ops of the outer bodies (constants)
    accs: list[SSAValue]           # innermost accumulators
    invariant: list[Operation]     # innermost ops needing neither ivs, memory nor accs
    element_ops: list[Operation]   # innermost ops computing the elements
    combine_ops: list[Operation]   # innermost ops depending on the accumulators
    elements: list[SSAValue]       # element value paired with each accumulator
    results: list[SSAValue]        # what the innermost body yields

    @property
    def total(self) -> int:
        n = 1
        for t in self.trips:
            n *= t
        return n

    @property
    def types(self) -> list[Attribute]:
        return [a.type for a in self.accs]


def _shufflable(t: Attribute) -> bool:
    if isinstance(t, IndexType):
        return True
    if isinstance(t, IntegerType):
        return t.signedness.data.name == "SIGNLESS" and t.width.data in (1, 8, 16, 32, 64)
    return isinstance(t, AnyFloat) and t.bitwidth in (16, 32, 64)


def analyze_nest(outer: Operation) -> ReductionNest | None:
    """The split of a carried reduction nest, or None when it has another shape."""
    if not isinstance(outer, scf.ForOp) or not outer.iter_args:
        return None
    loops: list[scf.ForOp] = []
    hoisted: list[Operation] = []
    loop = outer
    while True:
        loops.append(loop)
        body = loop.body.block
        inner = [o for o in body.ops if isinstance(o, scf.ForOp)]
        if len(inner) != 1 or not inner[0].iter_args:
            break
        nxt = inner[0]
        others = [o for o in body.ops if o is not nxt and not isinstance(o, scf.YieldOp)]
        if any(not isinstance(o, arith.ConstantOp) for o in others):
            return None
        if list(nxt.iter_args) != list(body.args[1:]):
            return None
        term = body.last_op
        if not isinstance(term, scf.YieldOp) or list(term.operands) != list(nxt.results):
            return None
        hoisted += others
        loop = nxt
    trips, lbs, steps = [], [], []
    for lp in loops:
        lb, ub, st = (constant_int(v) for v in (lp.lb, lp.ub, lp.step))
        if lb is None or ub is None or st is None or st <= 0:
            return None
        trips.append(max(0, -(-(ub - lb) // st)))
        lbs.append(lb)
        steps.append(st)
    body = loops[-1].body.block
    accs = list(body.args[1:])
    term = body.last_op
    assert isinstance(term, scf.YieldOp)
    if not all(_shufflable(t) for t in (a.type for a in accs)):
        return None
    ops = [o for o in body.ops if o is not term]
    dep_acc: set[SSAValue] = set(accs)
    dep_elem: set[SSAValue] = {body.args[0], *(lp.body.block.args[0] for lp in loops)}
    invariant, element_ops, combine_ops = [], [], []
    for o in ops:
        if o.name == "memref.store" or any(x.name == "memref.store" for x in o.walk()):
            return None
        used = _used_values(o)
        if used & dep_acc:
            combine_ops.append(o)
            dep_acc.update(o.results)
        elif used & dep_elem or o.name in _MEMORY_OPS or any(x.name in _MEMORY_OPS for x in o.walk()):
            element_ops.append(o)
            dep_elem.update(o.results)
        else:
            invariant.append(o)
    if any(_used_values(o) & dep_elem - set(accs) and o.name in _MEMORY_OPS for o in combine_ops):
        return None
    crossing: list[SSAValue] = []
    for o in [*combine_ops, term]:
        for v in (_used_values(o) if o is not term else list(term.operands)):
            if v in dep_elem and v not in dep_acc and v not in crossing:
                crossing.append(v)
    if len(crossing) != len(accs):
        return None
    crossing.sort(key=lambda v: _position(body, v))
    if [v.type for v in crossing] != [a.type for a in accs]:
        return None
    return ReductionNest(outer, trips, lbs, steps, [lp.body.block.args[0] for lp in loops], hoisted, accs,
                         invariant, element_ops, combine_ops, crossing, list(term.operands))


def _used_values(op: Operation) -> set[SSAValue]:
    """Operands of `op` and of ops nested in it that come from outside `op`."""
    inside = {r for o in op.walk() for r in o.results} | {a for o in op.walk() for reg in o.regions
                                                         for blk in reg.blocks for a in blk.args}
    return {v for o in op.walk() for v in o.operands if v not in inside}


def _position(block: Block, v: SSAValue) -> int:
    if v.owner is block:
        return -1
    for i, o in enumerate(block.ops):
        if o is v.owner:
            return i
    return 1 << 30


def combine(b: B, nest: ReductionNest, a: Sequence[SSAValue], x: Sequence[SSAValue],
            mapper: dict[SSAValue, SSAValue]) -> list[SSAValue]:
    """Emit `f(a, x)` by cloning the combiner (invariants cloned too)."""
    m = dict(mapper)
    m.update(zip(nest.accs, a))
    m.update(zip(nest.elements, x))
    b.clone(nest.hoisted, m)
    b.clone(nest.invariant, m)
    b.clone(nest.combine_ops, m)
    return [m.get(v, v) for v in nest.results]


def elements(b: B, nest: ReductionNest, ivs: Sequence[SSAValue], mapper: dict[SSAValue, SSAValue]
             ) -> list[SSAValue]:
    """Emit the elements at loop indices `ivs`."""
    m = dict(mapper)
    m.update(zip(nest.ivs, ivs))
    b.clone(nest.hoisted, m)
    b.clone(nest.invariant, m)
    b.clone(nest.element_ops, m)
    return [m.get(v, v) for v in nest.elements]


def zero(b: B, t: Attribute) -> SSAValue:
    return b.const(t, 0)


def strided_fold(b: B, start: SSAValue, end: SSAValue, step: SSAValue, elem, comb,
                 types: Sequence[Attribute]) -> tuple[list[SSAValue], SSAValue]:
    """Fold `elem(i)` for i = start, start+step, ... < end with `comb`; the
    first element seeds the accumulator. Returns (values, valid)."""
    valid = b.cmp("ult", start, end)
    first = b.if_(valid, types, lambda t: elem(t, start), lambda e: [zero(e, ty) for ty in types])
    nxt = b.add(start, step)

    def body(t: B, i: SSAValue, acc: list[SSAValue]):
        return comb(t, acc, elem(t, i))

    return b.for_(nxt, end, step, first, body), valid


# --- shuffles of any scalar as 32-bit words --------------------------------

def _to_words(b: B, v: SSAValue) -> list[SSAValue]:
    t = v.type
    if isinstance(t, IndexType):
        v, t = b(arith.IndexCastOp(v, i64)), i64
    if isinstance(t, AnyFloat):
        t2 = IntegerType(t.bitwidth)
        v, t = b(arith.BitcastOp(v, t2)), t2
    assert isinstance(t, IntegerType)
    w = t.width.data
    if w == 32:
        return [v]
    if w < 32:
        return [b(arith.ExtUIOp(v, i32))]
    lo = b(arith.TruncIOp(v, i32))
    hi = b(arith.TruncIOp(b(arith.ShRUIOp(v, b.const(i64, 32))), i32))
    return [lo, hi]


def _from_words(b: B, words: list[SSAValue], t: Attribute) -> SSAValue:
    it = i64 if isinstance(t, IndexType) else IntegerType(t.bitwidth) if isinstance(t, AnyFloat) else t
    assert isinstance(it, IntegerType)
    w = it.width.data
    if w == 32:
        v = words[0]
    elif w < 32:
        v = b(arith.TruncIOp(words[0], it))
    else:
        lo = b(arith.ExtUIOp(words[0], i64))
        hi = b(arith.ShLIOp(b(arith.ExtUIOp(words[1], i64)), b.const(i64, 32)))
        v = b(arith.OrIOp(lo, hi))
    if isinstance(t, IndexType):
        return b(arith.IndexCastOp(v, INDEX))
    if isinstance(t, AnyFloat):
        return b(arith.BitcastOp(v, t))
    return v


def shuffle_down(b: B, v: SSAValue, offset: int) -> SSAValue:
    mask, off, clamp = b.i32(-1), b.i32(offset), b.i32(WARP - 1)
    words = [b(ShflSyncOp("down", mask, w, off, clamp)) for w in _to_words(b, v)]
    return _from_words(b, words, v.type)


def warp_reduce(b: B, nest: ReductionNest, vals: list[SSAValue], valid: SSAValue, lane: SSAValue,
                mapper: dict) -> tuple[list[SSAValue], SSAValue]:
    """Butterfly-free shfl.down tree over the 32 lanes; lane 0 ends with the
    combination of every valid lane. All 32 lanes must execute this."""
    types = [v.type for v in vals]
    for off in (16, 8, 4, 2, 1):
        other = [shuffle_down(b, v, off) for v in vals]
        ov = b.cmp("ne", shuffle_down(b, b(arith.ExtUIOp(valid, i32)), off), b.i32(0))
        in_warp = b.cmp("ult", b.add(lane, b.index(off)), b.index(WARP))
        ov = b(arith.AndIOp(ov, in_warp))
        both = b(arith.AndIOp(valid, ov))
        vals = b.if_(both, types, lambda t, v=vals, o=other: combine(t, nest, v, o, mapper),
                     lambda e, v=vals, o=other: [e(arith.SelectOp(valid, x, y)) for x, y in zip(v, o)])
        valid = b(arith.OrIOp(valid, ov))
    return vals, valid


def block_reduce(b: B, nest: ReductionNest, vals: list[SSAValue], valid: SSAValue, tid: SSAValue,
                 block_size: int, mapper: dict) -> tuple[list[SSAValue], SSAValue]:
    """Reduce over the block; the result is meaningful in thread 0 only.
    Warps reduce by shuffles, lane 0 of each parks its partial in shared
    memory, warp 0 reduces those. Ends with a barrier, so it may be reused
    in a loop."""
    types = [v.type for v in vals]
    lane = b(arith.RemUIOp(tid, b.index(WARP)))
    vals, valid = warp_reduce(b, nest, vals, valid, lane, mapper)
    n_warps = block_size // WARP
    if n_warps <= 1:
        return vals, valid
    warp = b(arith.DivUIOp(tid, b.index(WARP)))
    slots = [b(memref.AllocaOp.get(t, shape=[n_warps], memory_space=SHARED_SPACE)) for t in types]
    flags = b(memref.AllocaOp.get(i1, shape=[n_warps], memory_space=SHARED_SPACE))

    def park(t: B):
        for v, s in zip(vals, slots):
            t(memref.StoreOp.get(v, s, [warp]))
        t(memref.StoreOp.get(valid, flags, [warp]))
        return []

    b.if_(b.cmp("eq", lane, b.index(0)), [], park)
    from xdsl.dialects import gpu

    b(gpu.BarrierOp())

    def last_warp(t: B):
        has = t.cmp("ult", lane, t.index(n_warps))
        loaded = t.if_(has, [*types, i1],
                       lambda u: [*(u(memref.LoadOp.get(s, [lane])) for s in slots), u(memref.LoadOp.get(flags, [lane]))],
                       lambda u: [*(zero(u, ty) for ty in types), u.false()])
        out, ok = warp_reduce(t, nest, loaded[:-1], loaded[-1], lane, mapper)
        return [*out, ok]

    res = b.if_(b.cmp("eq", warp, b.index(0)), [*types, i1], last_warp,
                lambda e: [*vals, valid])
    b(gpu.BarrierOp())
    return res[:-1], res[-1]


def is_row_reduction(nest: ReductionNest) -> bool:
    """Does the innermost loop walk the contiguous (last) dimension of a load?
    Then a block per output reads coalesced memory (XLA's row reduction)."""
    inner = nest.ivs[-1]
    for o in nest.element_ops:
        for x in o.walk():
            if isinstance(x, memref.LoadOp) and x.indices and x.indices[-1] is inner \
                    and isinstance(x.memref.type, MemRefType):
                return True
    return False
