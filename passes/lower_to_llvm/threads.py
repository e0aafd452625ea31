"""Threads for the CPU pipeline (issue 5 item 3): two passes.

`convert-parallel-loops-to-threads{min_work=131072 chunks=64}` (scf level,
before `lower-scf-to-cf`):
  1. a top-level reduction nest (`scf.for` carrying accumulators, outside any
     parallel loop, each accumulator folded by one associative op: add, mul,
     max, min, and/or/xor) is split into `chunks` fixed chunks of its outer
     range: an `scf.parallel` over chunks computes one partial per chunk from
     the op's identity into a small buffer, then a sequential loop combines
     init and partials *in chunk order*. The chunking does not depend on the
     thread count, so results are the same for any `MINIXLA_NUM_THREADS`;
  2. every outermost `scf.parallel` (unit step in dimension 0, no
     reductions of its own) with at least `min_work` estimated operations
     is outlined into `func.func private @<f>_par<k>(lo, hi, captures...)`
     (the same loop over [lo, hi) of dimension 0; constants are cloned in, other
     values used inside become parameters), and the loop becomes
     `func.call @<f>_par<k>__threaded(lb, ub, captures...)`: a declaration with
     the body's signature, i.e. "run the body over [lb, ub) on threads".
     Smaller loops stay sequential: starting threads costs tens of us.

`lower-thread-dispatch` (llvm level, after `reconcile-unrealized-casts`):
each call of an `X__threaded` declaration becomes a context of the
captures (an alloca in the entry block) and
`minixla_parallel_for(@X__task, ctx, lb, ub)` (ctx: one 8-byte slot per capture), where
`void X__task(i64 lo, i64 hi, ptr ctx)` loads the captures and calls `X`.
The helper is backends/cpu/threadpool.py (pthreads, compiled once).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, func, memref, scf
from xdsl.dialects.builtin import (
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    UnitAttr,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, OpResult, Region, SSAValue
from xdsl.passes import ModulePass


THREADED_SUFFIX = "__threaded"
TASK_SUFFIX = "__task"
BODY_ATTR = "minixla.parallel_body"
RUNTIME = "minixla_parallel_for"


# ---- helpers ------------------------------------------------------------------------
def _const_int(v: SSAValue) -> int | None:
    if isinstance(v, OpResult) and isinstance(v.op, arith.ConstantOp) and isinstance(v.op.value, IntegerAttr):
        return v.op.value.value.data
    return None


def _trips(lb: SSAValue, ub: SSAValue, step: SSAValue) -> int | None:
    lo, hi, st = _const_int(lb), _const_int(ub), _const_int(step)
    if lo is None or hi is None or not st:
        return None
    return max(0, -(-(hi - lo) // st))


def estimate_work(block: Block) -> int:
    """Operations executed by one run of `block` (unknown trip counts: 16)."""
    total = 0
    for op in block.ops:
        if isinstance(op, scf.ForOp):
            total += (_trips(op.lb, op.ub, op.step) or 16) * estimate_work(op.body.block)
        elif isinstance(op, scf.ParallelOp):
            n = 1
            for lb, ub, st in zip(op.lowerBound, op.upperBound, op.step):
                n *= _trips(lb, ub, st) or 16
            total += n * estimate_work(op.body.block)
        elif op.regions:
            total += 1 + max((estimate_work(b) for r in op.regions for b in r.blocks), default=0)
        else:
            total += 1
    return total


def _inside(value: SSAValue, op: Operation) -> bool:
    owner = value.owner
    if isinstance(value, BlockArgument):
        owner = owner.parent_op()  # type: ignore[union-attr]
    return owner is not None and op.is_ancestor(owner)  # type: ignore[arg-type]


def _captures(par: scf.ParallelOp) -> list[SSAValue]:
    """Values the loop uses from outside, but its dimension-0 bounds."""
    seen: dict[SSAValue, None] = dict.fromkeys([*par.lowerBound[1:], *par.upperBound[1:], *par.step])
    for inner in par.body.walk():
        for v in inner.operands:
            if v not in seen and not _inside(v, par):
                seen[v] = None
    return list(seen)


def in_parallel_loop(op: Operation) -> bool:
    """Whether `op` sits inside an `scf.parallel` of its function (such loops are what this pass threads)."""
    p = op.parent_op()
    while p is not None and not isinstance(p, func.FuncOp):
        if isinstance(p, scf.ParallelOp):
            return True
        p = p.parent_op()
    return False


def _in_loop(op: Operation) -> bool:
    p = op.parent_op()
    while p is not None and not isinstance(p, func.FuncOp):
        if isinstance(p, (scf.ParallelOp, scf.ForOp)):
            return True
        p = p.parent_op()
    return False


# ---- 1. reductions -> chunks ----------------------------------------------------------
_COMBINERS = (arith.AddfOp, arith.MulfOp, arith.MaximumfOp, arith.MinimumfOp, arith.MaxnumfOp,
              arith.MinnumfOp, arith.AddiOp, arith.MuliOp, arith.MaxSIOp, arith.MinSIOp, arith.MaxUIOp,
              arith.MinUIOp, arith.AndIOp, arith.OrIOp, arith.XOrIOp)


#: ops a split reduction body may hold: no stores, calls or allocations, so
#: chunks can run concurrently
_PURE = (scf.ForOp, scf.YieldOp, scf.IfOp, memref.LoadOp, memref.SubviewOp, arith.ConstantOp)


def _pure(op: Operation) -> bool:
    return isinstance(op, _PURE) or op.dialect_name() in ("arith", "math")


def _identity(op: Operation, t: Attribute) -> arith.ConstantOp | None:
    if isinstance(t, IntegerType):
        w = t.width.data
        lo, hi = -(1 << (w - 1)), (1 << (w - 1)) - 1
        v = {arith.AddiOp: 0, arith.MuliOp: 1, arith.MaxSIOp: lo, arith.MinSIOp: hi, arith.MaxUIOp: 0,
             arith.MinUIOp: -1, arith.AndIOp: -1, arith.OrIOp: 0, arith.XOrIOp: 0}.get(type(op))
        return None if v is None else arith.ConstantOp(IntegerAttr(v, t))
    inf = float("inf")
    v = {arith.AddfOp: -0.0, arith.MulfOp: 1.0, arith.MaximumfOp: -inf, arith.MinimumfOp: inf,
         arith.MaxnumfOp: -inf, arith.MinnumfOp: inf}.get(type(op))
    return None if v is None else arith.ConstantOp(FloatAttr(v, t))  # type: ignore[arg-type]


def _combiner(loop: scf.ForOp, j: int) -> Operation | None:
    """The op folding iter_arg `j` of `loop` (through nested fors), if it is a
    single associative op using the accumulator exactly once."""
    acc = loop.body.block.args[1 + j]
    yielded = loop.body.block.last_op.operands[j]  # type: ignore[union-attr]
    if acc.uses.get_length() != 1:
        return None
    user = next(iter(acc.uses)).operation
    if isinstance(user, scf.ForOp) and isinstance(yielded, OpResult) and yielded.op is user:
        m = yielded.index
        if user.iter_args[m] is not acc:
            return None
        return _combiner(user, m)
    if isinstance(user, _COMBINERS) and yielded is user.results[0] and acc in user.operands \
            and not (user.operands[0] is acc and user.operands[1] is acc):
        return user
    return None


def split_reduction(loop: scf.ForOp, chunks: int) -> scf.ParallelOp | None:
    """Rewrite a reduction nest into chunks + ordered combine; returns the chunk loop."""
    n = _trips(loop.lb, loop.ub, loop.step)
    if n is None or n < 2 or _const_int(loop.lb) != 0 or _const_int(loop.step) != 1 or not loop.iter_args:
        return None
    if not all(_pure(o) for o in loop.body.walk()):
        return None
    combiners = [_combiner(loop, j) for j in range(len(loop.iter_args))]
    if any(c is None for c in combiners):
        return None
    types = [v.type for v in loop.iter_args]
    idents = [_identity(c, t) for c, t in zip(combiners, types)]  # type: ignore[arg-type]
    if any(i is None for i in idents) or not all(isinstance(t, (IntegerType,)) or t.name.startswith("f")
                                                for t in types):
        return None
    k = min(chunks, n)
    before: list[Operation] = []

    def idx(v: int) -> SSAValue:
        c = arith.ConstantOp(IntegerAttr(v, IndexType()))
        before.append(c)
        return c.result

    zero, one, kk, nn = idx(0), idx(1), idx(k), idx(n)
    parts = [memref.AllocOp.get(t, 64, [k]) for t in types]
    before += parts
    # chunk body: lo = c*n/k, hi = (c+1)*n/k
    body = Block(arg_types=[IndexType()])
    c = body.args[0]
    c_n = arith.MuliOp(c, nn)
    lo = arith.DivUIOp(c_n, kk)
    c1 = arith.AddiOp(c, one)
    c1_n = arith.MuliOp(c1, nn)
    hi = arith.DivUIOp(c1_n, kk)
    body.add_ops([c_n, lo, c1, c1_n, hi, *idents])  # type: ignore[list-item]
    inner = scf.ForOp(lo, hi, one, [i.result for i in idents], loop.body.clone())  # type: ignore[union-attr]
    body.add_op(inner)
    for p, r in zip(parts, inner.results):
        body.add_op(memref.StoreOp.get(r, p.memref, [c]))
    body.add_op(scf.ReduceOp())
    par = scf.ParallelOp([zero], [kk], [one], Region(body))
    # ordered combine: init (+) p0 (+) p1 ...
    cbody = Block(arg_types=[IndexType(), *types])
    combined = []
    for j, (p, comb) in enumerate(zip(parts, combiners)):
        load = memref.LoadOp.get(p.memref, [cbody.args[0]])
        acc = cbody.args[1 + j]
        new = comb.clone()  # type: ignore[union-attr]
        new.operands = (acc, load.res)
        cbody.add_ops([load, new])
        combined.append(new.results[0])
    cbody.add_op(scf.YieldOp(*combined))
    fold = scf.ForOp(zero, kk, one, list(loop.iter_args), Region(cbody))
    frees = [memref.DeallocOp.get(p.memref) for p in parts]
    block = loop.parent_block()
    assert block is not None
    for o in (*before, par, fold):
        block.insert_op_before(o, loop)
    for o in reversed(frees):
        block.insert_op_after(o, loop)
    for old, new in zip(loop.results, fold.results):
        old.replace_all_uses_with(new)
    loop.detach()
    loop.erase()
    return par


def _clone_region(region: Region, mapping: dict[SSAValue, SSAValue]) -> Region:
    out = Region()
    region.clone_into(out, value_mapper=dict(mapping))
    return out


# ---- 2. outlining -----------------------------------------------------------------------
def outline(par: scf.ParallelOp, fn: func.FuncOp, name: str) -> tuple[func.FuncOp, func.FuncOp]:
    """Body function + `__threaded` declaration; `par` becomes a call."""
    lb0, ub0 = par.lowerBound[0], par.upperBound[0]
    caps = _captures(par)
    consts = [v for v in caps if isinstance(v, OpResult) and isinstance(v.op, arith.ConstantOp)]
    params = [v for v in caps if v not in consts]
    entry = Block(arg_types=[IndexType(), IndexType(), *[v.type for v in params]])
    mapping: dict[SSAValue, SSAValue] = {v: a for v, a in zip(params, entry.args[2:])}
    for v in consts:
        clone = v.op.clone()  # type: ignore[union-attr]
        entry.add_op(clone)
        mapping[v] = clone.results[0]
    m = lambda v: mapping.get(v, v)  # noqa: E731
    new_par = scf.ParallelOp([entry.args[0], *map(m, par.lowerBound[1:])],
                             [entry.args[1], *map(m, par.upperBound[1:])],
                             list(map(m, par.step)), _clone_region(par.body, mapping))
    entry.add_ops([new_par, func.ReturnOp()])
    sig = ([IndexType(), IndexType(), *[v.type for v in params]], [])
    body_fn = func.FuncOp(name, sig, Region(entry), "private")
    body_fn.attributes[BODY_ATTR] = UnitAttr()
    decl = func.FuncOp.external(name + THREADED_SUFFIX, *sig)
    call = func.CallOp(name + THREADED_SUFFIX, [lb0, ub0, *params], [])
    block = par.parent_block()
    assert block is not None
    block.insert_op_before(call, par)
    par.detach()
    par.erase()
    return body_fn, decl


@dataclass(frozen=True)
class ConvertParallelLoopsToThreads(ModulePass):
    """Outermost parallel loops (and split top-level reductions) -> thread-pool calls."""

    name = "convert-parallel-loops-to-threads"
    min_work: int = 1 << 17
    chunks: int = 64

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        new_ops: list[Operation] = []
        for fn in [o for o in op.ops if isinstance(o, func.FuncOp) and o.body.blocks]:
            if BODY_ATTR in fn.attributes:
                continue
            forced: list[scf.ParallelOp] = []
            for loop in [o for o in fn.walk() if isinstance(o, scf.ForOp)]:
                if loop.parent is None or _in_loop(loop) or not loop.iter_args:
                    continue
                if (_trips(loop.lb, loop.ub, loop.step) or 0) * estimate_work(loop.body.block) >= self.min_work:
                    par = split_reduction(loop, self.chunks)
                    if par is not None:
                        forced.append(par)
            count = 0
            for par in [o for o in fn.walk() if isinstance(o, scf.ParallelOp)]:
                if in_parallel_loop(par) or par.initVals or _const_int(par.step[0]) != 1:
                    continue
                work = 1
                for lb, ub, st in zip(par.lowerBound, par.upperBound, par.step):
                    work *= _trips(lb, ub, st) or 16
                if par not in forced and work * estimate_work(par.body.block) < self.min_work:
                    continue
                new_ops += outline(par, fn, f"{fn.sym_name.data}_par{count}")
                count += 1
        for o in new_ops:
            op.body.block.add_op(o)


__all__ = ["ConvertParallelLoopsToThreads", "estimate_work", "in_parallel_loop"]
