"""`hlo.fusion` -> one `linalg.generic` (plus a tiny finalizer for reductions).

Why: a fusion exists so that its loop nest reads every input once and keeps
every intermediate in registers. Instead of lowering op by op (one buffer per
op), the region is *evaluated symbolically per element*: `_Body.value(v, idx)`
emits the scalar ops computing value `v` at index `idx` (a tuple of affine
expressions over the generic's loop dimensions). Data movement becomes index
arithmetic: broadcast_in_dim drops/zeroes dimensions, transpose permutes,
reshape linearizes and delinearizes (floordiv/mod), iota reads the index.
Fusion parameters are read through the generic's inputs, one input per
distinct (tensor, indexing map) pair, so each input is loaded once per
iteration and shared subexpressions are computed once (memoized by
(value, index)).

Loop fusion (no reduce): one parallel generic over the roots' common shape,
one output per root. Input (reduction) fusion: every reduce in the region has
the same input shape and dimensions; one generic over the input shape
(reduced dims are `reduction` iterators) carries one accumulator per reduce
result, computing the reduce inputs' fused expression in its body. Then, if
needed, a finalizer generic over the (small) result shape rounds the
accumulators and applies the elementwise epilogue (e.g. the divide of a mean).

Accumulation order (documented in docs/fusion.md): a float add-reduction of
f32 accumulates in f64, one of f16/bf16 in f32 (as XLA does; also, LLVM's
direct f64 -> f16/bf16 truncation is a libcall the JIT cannot resolve); the
wide adds carry `reassoc`, so LLVM may split the sum into vector lanes
(partial sums combined at the end of each reduced row); the result is rounded
once. Other reductions combine in the element type in iteration order
(row-major over the reduced dimensions).

A region this module cannot express (an op outside the fusible set, nested
reductions) falls back to lowering its ops one by one: correct, unfused.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith, tensor
from xdsl.dialects.utils import FastMathFlag  # (xdsl.dialects.llvm re-exports it, at ~30 ms of import)
from xdsl.dialects.builtin import (AffineMapAttr, DenseIntOrFPElementsAttr, Float32Type, Float64Type, TensorType)
from xdsl.dialects.linalg.ops import GenericOp, IndexOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineBinaryOpExpr, AffineBinaryOpKind, AffineConstantExpr, AffineDimExpr, AffineExpr, AffineMap

from minixla.dialects import hlo
from minixla.dialects.hlo_ops.base import int_value, ints, is_float
from minixla.dialects.hlo_ops.splats import dense_splat_value

from minixla.passes.fast_build import like
from minixla.passes.hlo_to_linalg.common import (PARALLEL, REDUCTION, Emitter, amap, elem, empty, fill, linalg_yield,
                                                  shape_of, signless)
from minixla.passes.hlo_to_linalg.scalar_region import _one as scalar_op_of
from minixla.passes.hlo_to_linalg.shape import index_to_elem
from minixla.passes.hlo_to_linalg.translate import Lowerer, lowering, mnemonic

Idx = tuple[AffineExpr, ...]

#: ops computed per element by `_Body.value` (reduce is handled by the driver)
ELEMENTWISE_EXTRA = frozenset({"compare", "select", "clamp", "convert", "is_finite", "constant"})
MOVEMENT = frozenset({"broadcast_in_dim", "transpose", "reshape", "iota"})

_REASSOC = arith.FastMathFlagsAttr([FastMathFlag.REASSOC])


class NotFusible(Exception):
    """The region needs the op-by-op fallback."""


def _splat(op: Operation) -> int | float | None:
    """The single value of a splat `hlo.constant` (None if not a splat)."""
    return dense_splat_value(op.value)


class _Body:
    """Builds one generic's body; inputs are added as they are first read."""

    def __init__(self, lw: Lowerer, fusion: Operation, n_loops: int, n_outputs_types: Sequence[Attribute]):
        self.lw = lw
        self.fusion = fusion
        self.n = n_loops
        self.block = Block(arg_types=list(n_outputs_types))
        self.b = Emitter(self.block)
        self.inputs: list[SSAValue] = []
        self.maps: list[AffineMapAttr] = []
        self._input_index: dict[tuple[SSAValue, Idx], int] = {}
        self._memo: dict[tuple[SSAValue, Idx], SSAValue] = {}
        self._dims: dict[int, SSAValue] = {}
        self._outer_const: dict[SSAValue, SSAValue] = {}
        #: value -> (outer tensor read instead of computing, convert after reading)
        self.overrides: dict[SSAValue, tuple[SSAValue, Attribute | None]] = {}
        self._params = {a: lw.v(o) for a, o in zip(fusion.body.block.args, fusion.operands)}

    # -- reading tensors ---------------------------------------------------
    def read(self, t: SSAValue, idx: Idx) -> SSAValue:
        key = (t, idx)
        k = self._input_index.get(key)
        if k is None:
            k = len(self.inputs)
            self._input_index[key] = k
            self.inputs.append(t)
            self.maps.append(AffineMapAttr(AffineMap(self.n, 0, idx)))
            self.block.insert_arg(elem(t.type), k)
        return self.block.args[k]

    def index(self, expr: AffineExpr) -> SSAValue:
        b = self.b
        if isinstance(expr, AffineDimExpr):
            if expr.position not in self._dims:
                self._dims[expr.position] = b(IndexOp(expr.position))
            return self._dims[expr.position]
        if isinstance(expr, AffineConstantExpr):
            return b.index(expr.value)
        assert isinstance(expr, AffineBinaryOpExpr)
        lhs, rhs = self.index(expr.lhs), self.index(expr.rhs)
        cls = {AffineBinaryOpKind.Add: arith.AddiOp, AffineBinaryOpKind.Mul: arith.MuliOp,
               AffineBinaryOpKind.FloorDiv: arith.FloorDivSIOp, AffineBinaryOpKind.Mod: arith.RemSIOp}[expr.kind]
        return b(cls(lhs, rhs))

    # -- evaluation ----------------------------------------------------------
    def value(self, v: SSAValue, idx: Idx) -> SSAValue:
        key = (v, idx)
        hit = self._memo.get(key)
        if hit is None:
            hit = self._compute(v, idx)
            self._memo[key] = hit
        return hit

    def _compute(self, v: SSAValue, idx: Idx) -> SSAValue:
        if v in self.overrides:
            t, conv = self.overrides[v]
            x = self.read(t, idx)
            return self.b(arith.TruncFOp(x, conv)) if conv is not None else x
        if v in self._params:
            return self.read(self._params[v], idx)
        op = v.owner
        assert isinstance(op, Operation)
        m = mnemonic(op)
        rs = shape_of(v)
        if m == "constant":
            s = _splat(op)
            if s is not None:
                return self.b.const(s, signless(elem(v.type)))
            if v not in self._outer_const:
                self._outer_const[v] = self.lw.e(arith.ConstantOp(_signless_dense(op.value)))
            return self.read(self._outer_const[v], idx)
        if m == "broadcast_in_dim":
            xs = shape_of(op.operand)
            dims = ints(op.broadcast_dimensions)
            sub = tuple(AffineExpr.constant(0) if xs[i] == 1 and rs[dd] != 1 else idx[dd] for i, dd in enumerate(dims))
            return self.value(op.operand, sub)
        if m == "transpose":
            perm = ints(op.permutation)
            return self.value(op.operand, tuple(idx[perm.index(j)] for j in range(len(perm))))
        if m == "reshape":
            return self.value(op.operand, _reshape_index(idx, rs, shape_of(op.operand)))
        if m == "iota":
            return index_to_elem(self.b, self.index(idx[int_value(op.iota_dimension)]), signless(elem(v.type)))
        if m is None or m == "reduce" or not (m in ELEMENTWISE_EXTRA or _is_table_op(m)):
            raise NotFusible(f"'{op.name}' is not fusible here")
        args = [self.value(o, idx if shape_of(o) == rs else ()) for o in op.operands]
        if any(shape_of(o) not in (rs, ()) for o in op.operands):
            raise NotFusible(f"'{op.name}' mixes operand shapes")
        return scalar_op_of(self.b, op, args)

    def carriers(self, bounds: Sequence[int]) -> None:
        """linalg-to-loops takes each loop's bound from an operand dimension
        indexed by exactly that loop: add a small 1-d `tensor.empty` for any
        loop no map names (e.g. a reduction over a broadcast)."""
        named = {r.position for m in self.maps for r in m.data.results if isinstance(r, AffineDimExpr)}
        for k in range(self.n):
            if k not in named:
                t = self.lw.e(tensor.EmptyOp([], TensorType(Float64Type(), [bounds[k]])))
                self.read(t, (AffineExpr.dimension(k),))

    def emit(self, yielded: Sequence[SSAValue], outs: Sequence[SSAValue], out_maps: Sequence[AffineMapAttr],
             iterators) -> list[SSAValue]:
        self.b.op(linalg_yield(yielded))
        region, maps, result_types = Region(self.block), [*self.maps, *out_maps], [o.type for o in outs]
        key = ("linalg.generic", len(self.inputs), len(outs), tuple(maps), tuple(iterators), tuple(result_types))
        op = self.lw.e.op(like(key, lambda: GenericOp(self.inputs, list(outs), region, maps, list(iterators),
                                                      result_types), [*self.inputs, *outs], regions=[region]))
        return list(op.results)


def _is_table_op(m: str) -> bool:
    from minixla.passes.hlo_to_linalg.scalar import SCALAR_OPS

    return m in SCALAR_OPS or m == "round_nearest_afz"


def _signless_dense(value: DenseIntOrFPElementsAttr) -> DenseIntOrFPElementsAttr:
    t = signless(value.type)
    if t == value.type:
        return value
    w = elem(t).width.data
    vals = [int(x) for x in value.get_values()]
    return DenseIntOrFPElementsAttr.from_list(t, [x - (1 << w) if x >= 1 << (w - 1) else x for x in vals])


def _reshape_index(idx: Idx, rs: Sequence[int], xs: Sequence[int]) -> Idx:
    """Operand index of a reshape's element `idx`: row-major linearize, then
    delinearize (size-1 dimensions contribute nothing)."""
    linear: AffineExpr = AffineExpr.constant(0)
    stride = 1
    for e, s in zip(reversed(idx), reversed(rs)):
        if s != 1:
            linear = linear + e * stride
        stride *= s
    out: list[AffineExpr] = []
    stride = 1
    strides = []
    for s in reversed(xs):
        strides.append(stride)
        stride *= s
    strides.reverse()
    total = stride
    for s, st in zip(xs, strides):
        if s == 1:
            out.append(AffineExpr.constant(0))
            continue
        e = linear if st == 1 else linear // st
        if st * s != total:  # not the outermost non-trivial dim: wrap
            e = e % s
        out.append(e)
    return tuple(out)


def _identity_idx(n: int) -> Idx:
    return tuple(AffineExpr.dimension(k) for k in range(n))


# -- the driver ------------------------------------------------------------------

def _reduces(region: Region) -> list[Operation]:
    return [o for o in region.block.ops if mnemonic(o) == "reduce"]


def _wide_add(r: Operation) -> Attribute | None:
    """The accumulator type of a single-input float add-reduction narrower than f64 (f64 for f32, f32 for
    f16/bf16, as XLA), or None: accumulate in the element type."""
    if len(r.inputs) != 1:
        return None
    t = elem(r.inputs[0].type)
    if not is_float(t) or isinstance(t, Float64Type):
        return None
    ops = list(r.body.block.ops)
    if len(ops) != 2 or mnemonic(ops[0]) != "add":
        return None
    if set(ops[0].operands) != set(r.body.block.args) or list(ops[1].operands) != [ops[0].results[0]]:
        return None
    return Float64Type() if isinstance(t, Float32Type) else Float32Type()


@lowering(hlo.FusionOp)
def lower_fusion(lw: Lowerer, op: Operation):
    mark = list(lw.e.block.ops)
    try:
        return _lower(lw, op)
    except NotFusible:
        for new in list(lw.e.block.ops)[len(mark):]:  # drop the partial attempt
            new.detach()
            new.erase(safe_erase=False)
        return lw.translate_region_into(op.body, lw.vs(op.operands))


def _lower(lw: Lowerer, op: Operation) -> list[SSAValue]:
    roots = list(op.body.block.last_op.operands)
    reduces = _reduces(op.body)
    if not reduces:
        shape = shape_of(roots[0])
        if any(shape_of(r) != shape for r in roots):
            raise NotFusible("loop fusion roots of different shapes")
        n = len(shape)
        outs = [empty(lw.e, shape, signless(elem(r.type))) for r in roots]
        body = _Body(lw, op, n, [elem(o.type) for o in outs])
        vals = [body.value(r, _identity_idx(n)) for r in roots]
        return body.emit(vals, outs, [AffineMapAttr(AffineMap.identity(n))] * len(outs), [PARALLEL] * n)
    return _lower_reduction(lw, op, roots, reduces)


def _lower_reduction(lw: Lowerer, op: Operation, roots: list[SSAValue], reduces: list[Operation]) -> list[SSAValue]:
    in_shape = shape_of(reduces[0].inputs[0])
    dims = set(ints(reduces[0].dimensions))
    for r in reduces:
        if set(ints(r.dimensions)) != dims or any(shape_of(x) != in_shape for x in r.inputs):
            raise NotFusible("reductions of different shapes or dimensions")
    n = len(in_shape)
    kept = [k for k in range(n) if k not in dims]
    out_shape = tuple(in_shape[k] for k in kept)
    if any(shape_of(r) != out_shape for r in roots):
        raise NotFusible("roots must have the reduction's result shape")
    # accumulators: one per reduce result, filled with the init value
    outs, acc_types, wide = [], [], []
    params = dict(zip(op.body.block.args, op.operands))
    for r in reduces:
        w = _wide_add(r)
        for init in r.init_values:
            et = signless(elem(init.type))
            at = w or et
            owner = init.owner
            if isinstance(owner, Operation) and mnemonic(owner) == "constant" and _splat(owner) is not None:
                outs.append(fill(lw.e, lw.e.const(_splat(owner), at), out_shape))
            elif init in params and not w:
                outs.append(fill(lw.e, lw.v(params[init]), out_shape))
            else:
                raise NotFusible("reduction init values must be constants or fusion parameters")
            acc_types.append(at)
            wide.append(w)
    body = _Body(lw, op, n, acc_types)
    yielded: list[SSAValue] = []
    k = 0
    for r in reduces:
        m = len(r.inputs)
        xs = [body.value(x, _identity_idx(n)) for x in r.inputs]
        accs = list(body.block.args[-len(acc_types):][k:k + m])
        if wide[k]:
            x = body.b(arith.ExtFOp(xs[0], wide[k]))
            yielded.append(body.b(arith.AddfOp(accs[0], x, _REASSOC)))
        else:
            from minixla.passes.hlo_to_linalg.scalar_region import inline_scalar_region

            yielded.extend(inline_scalar_region(body.b, r.body, [*accs, *xs]))
        k += m
    body.carriers(in_shape)
    iters = [REDUCTION if i in dims else PARALLEL for i in range(n)]
    accs = body.emit(yielded, outs, [amap(n, kept)] * len(outs), iters)
    results = [res for r in reduces for res in r.results]
    if all(not w for w in wide) and all(root in results for root in roots):
        return [accs[results.index(root)] for root in roots]
    # finalizer over the result shape: round the accumulators, apply the epilogue
    m = len(out_shape)
    fin_outs = [empty(lw.e, out_shape, signless(elem(r.type))) for r in roots]
    fin = _Body(lw, op, m, [elem(o.type) for o in fin_outs])
    for res, acc, w in zip(results, accs, wide):
        fin.overrides[res] = (acc, signless(elem(res.type)) if w else None)
    vals = [fin.value(r, _identity_idx(m)) for r in roots]
    return fin.emit(vals, fin_outs, [AffineMapAttr(AffineMap.identity(m))] * len(fin_outs), [PARALLEL] * m)
