"""`lower-linalg-to-loops` (minixla's): every structured linalg op on memrefs
(`linalg.generic`, and named ops through their region and maps) becomes
loops: one `scf.parallel` over all parallel dimensions (outermost), then
`scf.for` over the reduction dimensions carrying the accumulators in
`iter_args` (loaded once before, stored once after, so they stay in
registers). Bodies are inlined with `memref.load`/`memref.store`; affine
indexing maps become index arithmetic. xDSL's upstream pass skips ops it does
not know (`linalg.broadcast`, `linalg.reduce`); this one fails loudly.

A fill (a `linalg.generic` without inputs writing one value to every element of its output) right
before a reduction that accumulates into that buffer and writes all of it is not lowered: the
reduction starts its accumulators from the value instead of loading them (`fill_into_reduction`;
MLIR's fill-into-reduction fusion). Every reduction of a training step is such a pair (9 of the MLP
step's 55 nests): one loop nest less each for the passes after this one and for LLVM.

A reduction's finalizer (the all-parallel op right after it over its parallel loops, reading its
outputs at the element just reduced: the rounding of an f64 accumulator and the epilogue's
elementwise ops of a fused reduction) runs in the reduction's nest on the final accumulators
(`reduction_epilogue`): an accumulator buffer nothing else reads goes, and so does a nest per
reduction (7 of the MLP step's, session 10).

Index constants are emitted once per scope: a nest reuses one that an earlier nest of the same
or an enclosing block emitted (the `cse` after this pass would erase the duplicate anyway, so its
output is unchanged; it and `canonicalize` just have ~250 fewer ops to look at in the MLP step).

With `collapse=true`, an all-parallel op whose operands are all contiguous (identity-layout) static
memrefs read and written through identity maps (elementwise and fused elementwise nests) becomes
one loop over the linear index: each operand is viewed through a `memref.collapse_shape` to rank 1
(a free view: the same pointer). One loop per nest instead of one per dimension for LLVM (MLIR's
linalg collapse-dimensions, XLA's elemental emission over a linear index). Broadcasts, transposes,
reductions, strided views and bodies that read `linalg.index` keep their nest. Off by default:
see docs/compile-time.md ("Session 9") for what it saves and the JIT's unroll threshold it crosses.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, memref, scf
from xdsl.dialects.linalg.ops import YieldOp
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.dialects.linalg.ops import GenericOp, IndexOp
from xdsl.dialects.builtin import ArrayAttr, IndexType, IntegerAttr, MemRefType, ModuleOp, NoneAttr, StridedLayoutAttr, i64
from xdsl.ir import Block, BlockArgument, Operation, OpResult, Region, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.ir.affine import AffineBinaryOpExpr, AffineBinaryOpKind, AffineConstantExpr, AffineDimExpr, AffineExpr
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import DiagnosticException

from minixla.passes.fast_build import like
from minixla.passes.locations import inherit

PASS_NAME = "lower-linalg-to-loops"


class Scope:
    """Index constants already emitted in a block (`consts`), and the scope of the enclosing block:
    a constant found here or in a parent scope dominates the op being lowered."""

    __slots__ = ("consts", "parent")

    def __init__(self, parent: Scope | None = None):
        self.consts: dict[int, SSAValue] = {}
        self.parent = parent


class Emit:
    def __init__(self, block: Block, scope: Scope | None = None):
        self.block = block
        self.scope = scope

    def __call__(self, op: Operation) -> SSAValue:
        self.block.add_op(op)
        return op.results[0] if op.results else None  # type: ignore[return-value]

    def index(self, v: int) -> SSAValue:
        s = self.scope
        while s is not None:
            c = s.consts.get(v)
            if c is not None:
                return c
            s = s.parent
        c = self(like(("arith.constant", "index", v), lambda: arith.ConstantOp(IntegerAttr(v, IndexType())), ()))
        if self.scope is not None:
            self.scope.consts[v] = c
        return c

    def nested(self, block: Block) -> Emit:
        """An emitter into `block`, a region of an op this one emits: it sees this one's constants."""
        return Emit(block, Scope(self.scope) if self.scope is not None else None)


class Scopes:
    """One `Scope` per block the pass lowers ops in, chained through the enclosing blocks."""

    def __init__(self) -> None:
        self._of: dict[Block, Scope] = {}

    def of(self, block: Block) -> Scope:
        scope = self._of.get(block)
        if scope is None:
            op = block.parent_op()
            above = op.parent_block() if op is not None else None
            scope = self._of[block] = Scope(self.of(above) if above is not None else None)
        return scope


def _load(memref_value: SSAValue, idx: Sequence[SSAValue]) -> Operation:
    """`memref.LoadOp.get`, less the IRDL builder after the first of each shape (passes/fast_build.py)."""
    return like(("memref.load", memref_value.type, len(idx)), lambda: memref.LoadOp.get(memref_value, idx),
                (memref_value, *idx))


def _store(value: SSAValue, memref_value: SSAValue, idx: Sequence[SSAValue]) -> Operation:
    return like(("memref.store", len(idx)), lambda: memref.StoreOp.get(value, memref_value, idx),
                (value, memref_value, *idx))


def _affine(e: Emit, expr: AffineExpr, ivs: Sequence[SSAValue]) -> SSAValue:
    if isinstance(expr, AffineDimExpr):
        return ivs[expr.position]
    if isinstance(expr, AffineConstantExpr):
        return e.index(expr.value)
    assert isinstance(expr, AffineBinaryOpExpr)
    a, b = _affine(e, expr.lhs, ivs), _affine(e, expr.rhs, ivs)
    cls = {AffineBinaryOpKind.Add: arith.AddiOp, AffineBinaryOpKind.Mul: arith.MuliOp,
           AffineBinaryOpKind.FloorDiv: arith.FloorDivSIOp, AffineBinaryOpKind.CeilDiv: arith.CeilDivSIOp,
           AffineBinaryOpKind.Mod: arith.RemSIOp}[expr.kind]
    return e(cls(a, b))


def _fail(op: Operation, why: str) -> DiagnosticException:
    return DiagnosticException(f"{PASS_NAME}: cannot lower '{op.name}': {why}")


def loop_bounds(op: Operation, maps, operands: Sequence[SSAValue], n_loops: int) -> list[int]:
    """Each loop's trip count, from an operand dimension indexed by exactly that loop."""
    bounds: list[int | None] = [None] * n_loops
    for m, v in zip(maps, operands):
        shape = v.type.get_shape()  # type: ignore[attr-defined]
        for r, size in zip(m.results, shape):
            if isinstance(r, AffineDimExpr) and bounds[r.position] is None:
                bounds[r.position] = size
    if any(b is None for b in bounds):
        raise _fail(op, "a loop dimension is not the plain index of any operand dimension")
    return bounds  # type: ignore[return-value]


def _contiguous(t: MemRefType) -> bool:
    if isinstance(t.layout, NoneAttr):
        return True
    if not isinstance(t.layout, StridedLayoutAttr):
        return False
    strides, offset = t.layout.get_strides(), t.layout.get_offset()
    shape = t.get_shape()
    expect = [1] * len(shape)
    for k in range(len(shape) - 2, -1, -1):
        expect[k] = expect[k + 1] * shape[k + 1]
    return offset == 0 and list(strides) == expect


def collapsible(op: Operation, maps, iters, operands: Sequence[SSAValue]) -> bool:
    """All loops parallel, every operand a contiguous static memref read/written through the
    identity map, and a body that does not read its loop indices: one linear loop does the same."""
    n = len(iters)
    if n < 2 or any(it != "parallel" for it in iters):
        return False
    if any(m.num_symbols or m.num_dims != n or len(m.results) != n
           or any(not isinstance(r, AffineDimExpr) or r.position != k for k, r in enumerate(m.results))
           for m in maps):
        return False
    for v in operands:
        t = v.type
        if not isinstance(t, MemRefType) or not _contiguous(t) or any(d < 0 for d in t.get_shape()):
            return False
    return not any(isinstance(o, IndexOp) for o in op.regions[0].block.ops)


def _collapse(e: Emit, v: SSAValue) -> SSAValue:
    t = v.type
    assert isinstance(t, MemRefType)
    shape = t.get_shape()
    size = 1
    for d in shape:
        size *= d
    flat = MemRefType(t.element_type, [size])
    return e(like(("memref.collapse_shape", t), lambda: memref.CollapseShapeOp.create(
        operands=[v], result_types=[flat],
        properties={"reassociation": ArrayAttr([ArrayAttr([IntegerAttr(k, i64) for k in range(len(shape))])])}),
        (v,)))


def _fill_value(op: Operation) -> SSAValue | Operation | None:
    """What a fill writes to each element: a value from outside its body, or the `arith.constant` op in
    its body that it yields; None when `op` is not a fill (a `linalg.generic` with no inputs, one output
    written through the identity map over all-parallel loops, yielding that value)."""
    if not isinstance(op, GenericOp) or op.inputs or len(op.outputs) != 1:
        return None
    if any(it.data.value != "parallel" for it in op.iterator_types):
        return None
    m = op.indexing_maps.data[0].data
    out_t = op.outputs[0].type
    if not isinstance(out_t, MemRefType) or m.num_symbols or m.num_dims != len(m.results) \
            or len(m.results) != out_t.get_num_dims() \
            or any(not isinstance(r, AffineDimExpr) or r.position != k for k, r in enumerate(m.results)):
        return None
    body = op.regions[0].block
    ops = list(body.ops)
    term = ops[-1] if ops else None
    if not isinstance(term, YieldOp) or len(term.operands) != 1:
        return None
    value = term.operands[0]
    if len(ops) == 1:
        return None if isinstance(value, BlockArgument) and value.owner is body else value
    if len(ops) == 2 and isinstance(ops[0], arith.ConstantOp) and value is ops[0].result:
        return ops[0]
    return None


_VIEWS = (memref.SubviewOp, memref.CollapseShapeOp, memref.ExpandShapeOp, memref.ReinterpretCastOp,
          memref.CastOp)


def _root(v: SSAValue) -> SSAValue:
    """The buffer `v` views (through subviews, reshapes and casts)."""
    while isinstance(v, OpResult) and isinstance(v.owner, _VIEWS):
        v = v.owner.operands[0]
    return v


def fill_into_reduction(fill: Operation) -> tuple[Operation, int, SSAValue | Operation] | None:
    """(reduction, output index, value) when `fill` (a fill, `_fill_value`) precedes a linalg op (with only
    fills of other buffers, their allocations and constants between) that accumulates into the filled buffer (an output it does not read as an input, indexed by distinct
    parallel loops only: a carried reduction) over the whole buffer: that op may start from the value."""
    value = _fill_value(fill)
    if value is None:
        return None
    buf = fill.outputs[0]  # type: ignore[attr-defined]
    red = fill.next_op
    # other fills (their buffers, constants) may come between: a reduction with several outputs has one each
    while isinstance(red, arith.ConstantOp | memref.AllocOp) or red is not None and _fill_value(red) is not None \
            and _root(red.outputs[0]) is not _root(buf):  # type: ignore[attr-defined]
        red = red.next_op
    if not isinstance(red, GenericOp):
        return None
    outs = list(red.outputs)
    if buf not in outs or outs.count(buf) != 1:
        return None
    root = _root(buf)  # a buffer of this function's own that no input of the reduction views
    if not isinstance(root.owner, memref.AllocOp | memref.AllocaOp) or any(_root(x) is root for x in red.inputs):
        return None
    j = outs.index(buf)
    iters = [it.data.value for it in red.iterator_types]
    maps = [m.data for m in red.indexing_maps]
    red_dims = {k for k, it in enumerate(iters) if it != "parallel"}
    if not red_dims or any(maps[len(red.inputs) + i].used_dims() & red_dims for i in range(len(outs))):
        return None  # not a carried reduction (_reduction_nest): the accumulator is loaded per iteration
    out_map = maps[len(red.inputs) + j]
    dims = [r.position for r in out_map.results if isinstance(r, AffineDimExpr)]
    shape = buf.type.get_shape()
    if any(n < 0 for n in shape) or out_map.num_symbols or len(dims) != len(out_map.results) or len(set(dims)) != len(dims) \
            or len(dims) != len(shape):
        return None
    bounds = loop_bounds(red, maps, [*red.inputs, *outs], len(iters))
    if any(bounds[d] != n for d, n in zip(dims, shape)):
        return None  # the reduction writes part of the buffer: the rest keeps the fill's value
    return red, j, value


def lower_structured(op: Operation, scopes: Scopes | None = None, collapse: bool = False,
                     inits: dict[int, SSAValue | Operation] | None = None, epilogue: Epilogue | None = None) -> None:
    """`op` as loops in place; `inits`: output index -> the value its accumulators start from instead
    of the buffer's (a fill folded in, `fill_into_reduction`; a detached `arith.constant` is emitted)."""
    maps = [m.data for m in op.get_indexing_maps()]  # type: ignore[attr-defined]
    iters = [it.data.value for it in op.get_iterator_types()]  # type: ignore[attr-defined]
    ins, outs = list(op.inputs), list(op.outputs)  # type: ignore[attr-defined]
    if any(not isinstance(v.type, MemRefType) for v in (*ins, *outs)):
        raise _fail(op, "operands must be memrefs (run bufferize first)")
    parent = op.parent_block()
    assert parent is not None
    outer = Block()
    e = Emit(outer, scopes.of(parent) if scopes is not None else None)
    if collapse and collapsible(op, maps, iters, (*ins, *outs)):
        ins, outs = [_collapse(e, v) for v in ins], [_collapse(e, v) for v in outs]
        iters, maps = iters[:1], [AffineMap.identity(1)] * len(maps)
    n_loops = len(iters)
    bounds = loop_bounds(op, maps, [*ins, *outs], n_loops)
    par = [k for k in range(n_loops) if iters[k] == "parallel"]
    red = [k for k in range(n_loops) if iters[k] != "parallel"]
    out_maps = maps[len(ins):]
    carried = bool(red) and all(not (m.used_dims() & set(red)) for m in out_maps)
    ivs: list[SSAValue | None] = [None] * n_loops
    inner = e
    if par:
        body = Block(arg_types=[IndexType()] * len(par))
        zero, one = e.index(0), e.index(1)
        ubs, region = [e.index(bounds[k]) for k in par], Region(body)
        n = len(par)
        e(like(("scf.parallel", n), lambda: scf.ParallelOp([zero] * n, ubs, [one] * n, region),
               [*[zero] * n, *ubs, *[one] * n], regions=[region]))
        for k, a in zip(par, body.args):
            ivs[k] = a
        inner = e.nested(body)
    # reductions innermost, in their original order
    if carried:
        _reduction_nest(op, inner, maps, ivs, red, bounds, ins, outs, inits or {}, epilogue)
    else:
        assert epilogue is None
        _plain_nest(op, inner, maps, ivs, red, bounds, ins, outs)
    if par:
        inner(like(("scf.reduce", 0), scf.ReduceOp, ()))
    inherit(outer.ops, op)
    for new in list(outer.ops):
        new.detach()
        parent.insert_op_before(new, op)
    op.detach()
    op.erase()


def inline_body(op: Operation, e: Emit, maps, ivs, ins, out_values: Sequence[SSAValue | None],
                given: dict[int, SSAValue] | None = None) -> list[SSAValue]:
    """Clone the body with loads for the inputs (input k is `given[k]` instead when there); returns the
    yielded values."""
    block = op.regions[0].block
    mapper: dict[SSAValue, SSAValue] = {}
    for k, (x, arg) in enumerate(zip(ins, block.args)):
        if given and k in given:
            mapper[arg] = given[k]
        elif arg.uses:
            idx = [_affine(e, r, ivs) for r in maps[k].results]
            mapper[arg] = e(_load(x, idx))
    for arg, v in zip(block.args[len(ins):], out_values):
        if v is not None:
            mapper[arg] = v
    for o in block.ops:
        if isinstance(o, YieldOp):
            return [mapper.get(v, v) for v in o.operands]
        if isinstance(o, IndexOp):
            mapper[o.result] = ivs[o.dim.value.data]
            continue
        new = o.clone(value_mapper=mapper)
        e.block.add_op(new)
        for a, b in zip(o.results, new.results):
            mapper[a] = b
    raise _fail(op, "body has no linalg.yield")


def _out_index(e: Emit, m, ivs) -> list[SSAValue]:
    return [_affine(e, r, ivs) for r in m.results]


def _load_outs(op, e, maps, ivs, ins, outs) -> list[SSAValue | None]:
    block = op.regions[0].block
    vals: list[SSAValue | None] = []
    for j, o in enumerate(outs):
        if block.args[len(ins) + j].uses:
            vals.append(e(_load(o, _out_index(e, maps[len(ins) + j], ivs))))
        else:
            vals.append(None)
    return vals


def _plain_nest(op, e: Emit, maps, ivs, loops, bounds, ins, outs) -> None:
    """scf.for over `loops`; outputs loaded and stored at every iteration."""
    if loops:
        k = loops[0]
        body = Block(arg_types=[IndexType()])
        e.block.add_op(scf.ForOp(e.index(0), e.index(bounds[k]), e.index(1), [], Region(body)))
        ivs[k] = body.args[0]
        inner = e.nested(body)
        _plain_nest(op, inner, maps, ivs, loops[1:], bounds, ins, outs)
        body.add_op(scf.YieldOp())
        return
    cur = _load_outs(op, e, maps, ivs, ins, outs)
    vals = inline_body(op, e, maps, ivs, ins, cur)
    for j, (o, v) in enumerate(zip(outs, vals)):
        e(_store(v, o, _out_index(e, maps[len(ins) + j], ivs)))


def _reduction_nest(op, e: Emit, maps, ivs, loops, bounds, ins, outs, inits, epilogue: Epilogue | None = None) -> None:
    """Accumulators loaded once (or started from `inits`), carried through scf.for iter_args, stored once
    (not at all for an output only `epilogue` reads: its body runs here on the final values)."""
    n_in = len(ins)
    block = op.regions[0].block
    out_idx = [_out_index(e, maps[n_in + j], ivs) for j in range(len(outs))]
    accs = []
    for j, (o, idx) in enumerate(zip(outs, out_idx)):
        init = inits.get(j)
        if init is None:
            accs.append(e(_load(o, idx)))
        elif isinstance(init, Operation):
            accs.append(e(init.clone()))
        else:
            accs.append(init)
    top = e
    fors = []
    cur = accs
    for k in loops:
        body = Block(arg_types=[IndexType(), *[a.type for a in accs]])
        loop = scf.ForOp(e.index(0), e.index(bounds[k]), e.index(1), cur, Region(body))
        e.block.add_op(loop)
        fors.append(loop)
        ivs[k] = body.args[0]
        cur = list(body.args[1:])
        e = e.nested(body)
    vals = inline_body(op, e, maps, ivs, ins, [c if block.args[n_in + j].uses else None for j, c in enumerate(cur)])
    e.block.add_op(scf.YieldOp(*vals))
    for loop in reversed(fors[:-1]):
        loop.body.block.add_op(scf.YieldOp(*fors[fors.index(loop) + 1].results))
    final = fors[0].results
    for j, (o, idx, v) in enumerate(zip(outs, out_idx, final)):
        if epilogue is None or j not in epilogue.dead:
            top(_store(v, o, idx))
    if epilogue is not None:
        par = [k for k in range(len(ivs)) if k not in loops]
        _epilogue(epilogue, top, [ivs[k] for k in par], final)


@dataclass
class Epilogue:
    """An all-parallel op right after a carried reduction, over the reduction's parallel loops, reading
    some of its outputs at the element just reduced (`reads`: its input index -> the reduction's output
    index); `dead`: those outputs no other op reads (their buffers go)."""

    op: Operation
    reads: dict[int, int]
    dead: set[int]
    allocs: list[Operation]


def _epilogue(ep: Epilogue, e: Emit, ivs: list[SSAValue], final: Sequence[SSAValue]) -> None:
    op = ep.op
    maps = [m.data for m in op.get_indexing_maps()]  # type: ignore[attr-defined]
    ins, outs = list(op.inputs), list(op.outputs)  # type: ignore[attr-defined]
    cur = _load_outs(op, e, maps, ivs, ins, outs)
    vals = inline_body(op, e, maps, ivs, ins, cur, {k: final[j] for k, j in ep.reads.items()})
    for j, (o, v) in enumerate(zip(outs, vals)):
        e(_store(v, o, _out_index(e, maps[len(ins) + j], ivs)))


def _identity(m, dims: Sequence[int]) -> bool:
    return not m.num_symbols and len(m.results) == len(dims) and all(
        isinstance(r, AffineDimExpr) and r.position == d for r, d in zip(m.results, dims))


def reduction_epilogue(red: Operation) -> Epilogue | None:
    """The op `red`'s lowering may finish with (`Epilogue`): the next op but for allocations and
    deallocations (of buffers it does not use), a `linalg.generic` whose loops are all parallel and
    exactly `red`'s parallel loops (in order), that reads outputs of `red` only through the identity map
    and writes no buffer `red` touches. Each reduction of a fusion (passes/hlo_to_linalg/fusion.py) is
    followed by its finalizer (the rounding of an f64 accumulator, the epilogue's elementwise ops): that
    loop nest goes."""
    if not isinstance(red, GenericOp):
        return None
    iters = [it.data.value for it in red.iterator_types]
    par = [k for k, it in enumerate(iters) if it == "parallel"]
    red_dims = set(range(len(iters))) - set(par)
    maps = [m.data for m in red.indexing_maps]
    outs = list(red.outputs)
    n_in = len(red.inputs)
    if not red_dims or any(not _identity(maps[n_in + j], par) for j in range(len(outs))):
        return None
    allocs, freed, nxt = [], [], red.next_op
    while isinstance(nxt, memref.AllocOp) and not nxt.operands or isinstance(nxt, memref.DeallocOp):
        (allocs if isinstance(nxt, memref.AllocOp) else freed).append(nxt)
        nxt = nxt.next_op
    if not isinstance(nxt, GenericOp) or any(it.data.value != "parallel" for it in nxt.iterator_types) \
            or len(nxt.iterator_types) != len(par):
        return None
    if {_root(d.operands[0]) for d in freed} & {_root(v) for v in nxt.operands}:
        return None  # a buffer it reads is freed before it
    touched = {_root(v) for v in (*red.inputs, *outs)}
    if any(_root(v) in touched for v in nxt.outputs):
        return None  # it would write, before the reduction ends, a buffer the reduction reads. (A result
        # buffer the caller passed is taken not to overlap an argument, as everywhere in this lowering:
        # any nest reading one at other elements than it writes the other relies on that.)
    ep_maps = [m.data for m in nxt.indexing_maps]
    reads: dict[int, int] = {}
    for k, v in enumerate(nxt.inputs):
        if v in outs:
            if not _identity(ep_maps[k], range(len(par))):
                return None
            reads[k] = outs.index(v)
        elif _root(v) in {_root(o) for o in outs}:
            return None  # another view of an output: read at other elements
    if not reads:
        return None
    try:
        ep_bounds = loop_bounds(nxt, ep_maps, [*nxt.inputs, *nxt.outputs], len(par))
        bounds = loop_bounds(red, maps, [*red.inputs, *outs], len(iters))
    except DiagnosticException:
        return None
    if ep_bounds != [bounds[k] for k in par]:
        return None
    dead = set()
    for j in set(reads.values()):
        o = outs[j]
        if isinstance(o, OpResult) and isinstance(o.owner, memref.AllocOp) and all(
                u.operation in (red, nxt) or isinstance(u.operation, memref.DeallocOp) for u in o.uses):
            dead.add(j)
    return Epilogue(nxt, reads, dead, allocs)


@dataclass(frozen=True)
class ConvertLinalgToLoops(ModulePass):
    """Structured linalg ops on memrefs -> scf.parallel / scf.for loops."""

    name = "lower-linalg-to-loops"

    collapse: bool = False
    """one linear loop for elementwise nests over contiguous buffers"""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        lower_ops([o for o in op.walk() if isinstance(o, LinalgStructuredOperation)], Scopes(), self.collapse)


def lower_ops(ops: Sequence[Operation], scopes: Scopes | None = None, collapse: bool = False) -> None:
    """`lower_structured` on each of `ops` (in order), a fill folded into the reduction after it."""
    inits: dict[Operation, dict[int, SSAValue | Operation]] = {}
    done: set[Operation] = set()
    for o in ops:
        if o in done:
            continue
        folded = fill_into_reduction(o)
        if folded is not None:
            red, j, value = folded
            inits.setdefault(red, {})[j] = value.clone() if isinstance(value, Operation) else value
            o.detach()
            o.erase()
            continue
        ep = reduction_epilogue(o)
        dead: list[SSAValue] = []
        if ep is not None:
            for a in ep.allocs:  # the epilogue's own buffers, allocated before the nest that now writes them
                a.detach()
                o.parent_block().insert_op_before(a, o)  # type: ignore[union-attr]
            dead = [v for j, v in enumerate(o.outputs) if j in ep.dead]  # type: ignore[attr-defined]
        lower_structured(o, scopes, collapse, inits.pop(o, None), ep)
        if ep is not None:
            done.add(ep.op)
            ep.op.detach()
            ep.op.erase()
            for buf in dead:  # written and read by nothing now: only its deallocation is left
                for u in list(buf.uses):
                    u.operation.detach()
                    u.operation.erase()
                buf.owner.detach()
                buf.owner.erase()
