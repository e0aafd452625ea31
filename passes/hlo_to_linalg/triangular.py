"""cholesky and triangular_solve -> recursive blocked algorithms on hlo ops,
with scalar `scf.for` kernels at the leaves.

Why blocked: nearly all the flops then sit in `dot_general`s, which reach the
gemm of `convert-linalg-to-blas` (docs/cpu-pipeline.md), instead of running at
scalar-loop speed. Like XLA's cholesky/triangular_solve expanders, the ops are
expanded into core hlo ops, here translated at once (each smaller
cholesky/triangular_solve emitted is lowered by the same rules), with static
shapes: the recursion is unrolled at compile time, no runtime loop over blocks.

* Every form is reduced to one: `triangular_solve` with `left_side`, `lower`,
  `NO_TRANSPOSE` (a right-side solve transposes b and x, a transposed a is
  transposed, an upper a is reversed along both axes), `cholesky` with `lower`
  (an upper one factors the transpose). f16/bf16 compute in f32.
* n <= LEAF: scalar loops (forward substitution; column-by-column Cholesky).
* Larger: split n in two halves.
  solve:    x1 = solve(a11, b1); x2 = solve(a22, b2 - a21 x1)
  cholesky: l11 = chol(a11); l21 = a21 l11^-T (a right-side blocked solve);
            l22 = chol(a22 - l21 l21^T)
  The leaves of a blocked solve invert their diagonal block (a LEAF x LEAF
  solve against the identity) and multiply by it: a gemm instead of LEAF * m
  scalar substitutions (XLA's triangular_solve expander also multiplies by
  inverted diagonal blocks).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from xdsl.dialects import arith, scf, tensor
from xdsl.dialects.builtin import BoolAttr, Float32Type, IndexType, IntegerAttr, TensorType, i64
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue

from minixla.dialects import hlo
from minixla.dialects.hlo_ops.attrs import HLO_ATTRS, Transpose
from minixla.dialects.hlo_ops.base import is_complex
from minixla.dialects.hlo_ops.linalg import flag
from minixla.dialects.hlo_ops.syntax import i64_array
from minixla.dialects.numpy_types import numpy_dtype, numpy_to_dense_attr
from minixla.passes.hlo_to_linalg.common import Emitter, elem, is_low_float, shape_of, unsupported
from minixla.passes.hlo_to_linalg.indexing import loop_nest
from minixla.passes.hlo_to_linalg.scalar import scalar_op
from minixla.passes.hlo_to_linalg.translate import Lowerer, lowering
from minixla.passes.locations import hlo_origin

#: largest matrix handled by the scalar kernels; larger ones are split in two
LEAF = 128


# -- building hlo ops that are translated as they are made ------------------------------


class HloBuilder:
    """Makes hlo ops (in a scratch block, located at the op being lowered) and
    translates each at once through `lw`; values are hlo (old) values."""

    def __init__(self, lw: Lowerer, origin: Operation):
        self.lw = lw
        self.loc = hlo_origin(origin)
        self.scratch = Block()
        self.attrs = HLO_ATTRS

    def add(self, op: Operation) -> SSAValue:
        op.location = self.loc
        self.scratch.add_op(op)
        self.lw.translate_op(op)
        return op.results[0]

    def done(self) -> None:
        for op in reversed(list(self.scratch.ops)):
            op.drop_all_references()

    # -- shape ops on the last two dims of [batch..., rows, cols] -------------------------
    def slice(self, x: SSAValue, rows: tuple[int, int], cols: tuple[int, int]) -> SSAValue:
        s = shape_of(x)
        start, limit = [0] * (len(s) - 2) + [rows[0], cols[0]], [*s[:-2], rows[1], cols[1]]
        t = TensorType(elem(x.type), [*s[:-2], rows[1] - rows[0], cols[1] - cols[0]])
        return self.add(hlo.SliceOp.create(operands=[x], result_types=[t], properties={
            "start_indices": i64_array(start), "limit_indices": i64_array(limit), "strides": i64_array([1] * len(s))}))

    def transpose(self, x: SSAValue) -> SSAValue:
        s = shape_of(x)
        r = len(s)
        t = TensorType(elem(x.type), [*s[:-2], s[-1], s[-2]])
        return self.add(hlo.TransposeOp.create(operands=[x], result_types=[t], properties={
            "permutation": i64_array([*range(r - 2), r - 1, r - 2])}))

    def reverse(self, x: SSAValue, dims: Sequence[int]) -> SSAValue:
        r = len(shape_of(x))
        return self.add(hlo.ReverseOp.create(operands=[x], result_types=[x.type], properties={
            "dimensions": i64_array([r + d for d in dims])}))

    def concat(self, xs: Sequence[SSAValue], dim: int) -> SSAValue:
        s = list(shape_of(xs[0]))
        s[dim] = sum(shape_of(x)[dim] for x in xs)
        return self.add(hlo.ConcatenateOp.create(operands=list(xs), result_types=[TensorType(elem(xs[0].type), s)],
                                                 properties={"dimension": IntegerAttr(len(s) + dim, i64)}))

    def convert(self, x: SSAValue, et: Attribute) -> SSAValue:
        return self.add(hlo.ConvertOp.create(operands=[x], result_types=[TensorType(et, shape_of(x))]))

    def splat(self, value: np.ndarray, shape: Sequence[int], et: Attribute) -> SSAValue:
        """`value` (a matrix or a scalar) broadcast over the leading dims of `shape`."""
        c = self.add(hlo.ConstantOp(numpy_to_dense_attr(np.asarray(value, numpy_dtype(et)),
                                                        TensorType(et, list(np.shape(value))))))
        r, k = len(shape), np.ndim(value)
        return self.add(hlo.BroadcastInDimOp.create(operands=[c], result_types=[TensorType(et, list(shape))],
                                                    properties={"broadcast_dimensions": i64_array(range(r - k, r))}))

    def matmul(self, x: SSAValue, y: SSAValue, transpose_y: bool = False) -> SSAValue:
        """x @ y (or x @ y^T) per batch."""
        sx, sy = shape_of(x), shape_of(y)
        r = len(sx)
        batch = list(range(r - 2))
        n = sy[-2] if transpose_y else sy[-1]
        dn = self.attrs.dot.get(lhs_batching_dimensions=batch, rhs_batching_dimensions=batch,
                                lhs_contracting_dimensions=[r - 1],
                                rhs_contracting_dimensions=[r - 1 if transpose_y else r - 2])
        t = TensorType(elem(x.type), [*sx[:-1], n])
        return self.add(hlo.DotGeneralOp.create(operands=[x, y], result_types=[t],
                                                properties={"dot_dimension_numbers": dn}))

    def subtract(self, x: SSAValue, y: SSAValue) -> SSAValue:
        return self.add(hlo.SubtractOp(x, y))

    # -- the ops themselves ------------------------------------------------------------
    def solve(self, a: SSAValue, b: SSAValue, *, left: bool = True, lower: bool = True, unit: bool = False,
              trans: str = Transpose.NO_TRANSPOSE) -> SSAValue:
        props = {"left_side": BoolAttr.from_bool(left), "lower": BoolAttr.from_bool(lower),
                 "unit_diagonal": BoolAttr.from_bool(unit), "transpose_a": self.attrs.transpose(Transpose(trans))}
        return self.add(hlo.TriangularSolveOp.create(operands=[a, b], result_types=[b.type], properties=props))

    def cholesky(self, a: SSAValue) -> SSAValue:
        return self.add(hlo.CholeskyOp.create(operands=[a], result_types=[a.type],
                                              properties={"lower": BoolAttr.from_bool(True)}))


def _expand(lw: Lowerer, op: Operation, build: Callable[[HloBuilder], SSAValue]) -> list[SSAValue]:
    hb = HloBuilder(lw, op)
    try:
        result = build(hb)
        return [lw.v(result)]
    finally:
        hb.done()


def _real_element(op: Operation, t: Attribute) -> None:
    """Complex is refused explicitly: the rewrites above would also need conjugates (ADJOINT, an upper
    Hermitian factor), not only complex scalar arithmetic in the kernels."""
    if not isinstance(t, TensorType) or is_complex(t.element_type) or scalar_op("sqrt", t.element_type) is None:
        raise unsupported(op, f"element type {elem(t)} is not supported on this backend yet")


# -- triangular_solve ----------------------------------------------------------------


@lowering(hlo.TriangularSolveOp)
def lower_triangular_solve(lw: Lowerer, op: Operation):
    _real_element(op, op.b.type)
    left, lower, unit = flag(op.left_side), flag(op.lower), flag(op.unit_diagonal)
    trans = Transpose(op.transpose_a.data)
    et = elem(op.b.type)
    n = shape_of(op.a)[-1]
    canonical = left and lower and trans == Transpose.NO_TRANSPOSE and not is_low_float(et)
    if canonical and n <= LEAF:
        return [_solve_kernel(lw.e, lw.v(op.a), lw.v(op.b), unit)]

    def build(hb: HloBuilder) -> SSAValue:
        a, b = op.a, op.b
        if is_low_float(et):
            a, b = hb.convert(a, Float32Type()), hb.convert(b, Float32Type())
        x = _blocked_solve(hb, a, b, unit) if canonical else _canonical_solve(hb, a, b, left, lower, unit, trans)
        return hb.convert(x, et) if is_low_float(et) else x

    return _expand(lw, op, build)


def _canonical_solve(hb: HloBuilder, a, b, left: bool, lower: bool, unit: bool, trans: Transpose) -> SSAValue:
    """Any form -> one left-side, lower, NO_TRANSPOSE solve (real types: ADJOINT = TRANSPOSE)."""
    transposed = trans != Transpose.NO_TRANSPOSE
    if not left:  # x op(a) = b  <=>  op(a)^T x^T = b^T
        b, transposed = hb.transpose(b), not transposed
    if transposed:
        a, lower = hb.transpose(a), not lower
    if not lower:  # reversing rows and columns makes an upper matrix lower
        a, b = hb.reverse(a, [-2, -1]), hb.reverse(b, [-2])
    x = hb.solve(a, b, unit=unit)
    x = x if lower else hb.reverse(x, [-2])
    return x if left else hb.transpose(x)


def _blocked_solve(hb: HloBuilder, a, b, unit: bool, right: bool = False) -> SSAValue:
    """x with a x = b, or (right) x a^T = b, a lower: split a in halves, two solves and a gemm."""
    n = shape_of(a)[-1]
    if n <= LEAF:  # the leaf of a blocked solve: a gemm by the inverse
        inv = hb.solve(a, hb.splat(np.eye(n), shape_of(a), elem(a.type)), unit=unit)
        return hb.matmul(b, inv, transpose_y=True) if right else hb.matmul(inv, b)
    h = n // 2
    m = shape_of(b)[-2 if right else -1]

    def part(x, lo: int, hi: int):  # rows of b (left) or columns (right)
        return hb.slice(x, (0, m), (lo, hi)) if right else hb.slice(x, (lo, hi), (0, m))

    x1 = _blocked_solve(hb, hb.slice(a, (0, h), (0, h)), part(b, 0, h), unit, right)
    a21 = hb.slice(a, (h, n), (0, h))
    update = hb.matmul(x1, a21, transpose_y=True) if right else hb.matmul(a21, x1)
    x2 = _blocked_solve(hb, hb.slice(a, (h, n), (h, n)), hb.subtract(part(b, h, n), update), unit, right)
    return hb.concat([x1, x2], -1 if right else -2)


# -- cholesky ------------------------------------------------------------------------


@lowering(hlo.CholeskyOp)
def lower_cholesky(lw: Lowerer, op: Operation):
    _real_element(op, op.a.type)
    lower = flag(op.lower)
    et = elem(op.a.type)
    n = shape_of(op.a)[-1]
    if lower and n <= LEAF and not is_low_float(et):
        return [_cholesky_kernel(lw.e, lw.v(op.a))]

    def build(hb: HloBuilder) -> SSAValue:
        a = hb.convert(op.a, Float32Type()) if is_low_float(et) else op.a
        a = a if lower else hb.transpose(a)  # the upper triangle of a is the lower one of a^T
        low = _blocked_cholesky(hb, a) if n > LEAF else hb.cholesky(a)
        low = low if lower else hb.transpose(low)
        return hb.convert(low, et) if is_low_float(et) else low

    return _expand(lw, op, build)


def _blocked_cholesky(hb: HloBuilder, a) -> SSAValue:
    n = shape_of(a)[-1]
    h = n // 2
    l11 = hb.cholesky(hb.slice(a, (0, h), (0, h)))
    l21 = _blocked_solve(hb, l11, hb.slice(a, (h, n), (0, h)), unit=False, right=True)  # l21 l11^T = a21
    l22 = hb.cholesky(hb.subtract(hb.slice(a, (h, n), (h, n)), hb.matmul(l21, l21, transpose_y=True)))
    zeros = hb.splat(np.zeros(()), [*shape_of(a)[:-2], h, n - h], elem(a.type))
    return hb.concat([hb.concat([l11, zeros], -1), hb.concat([l21, l22], -1)], -2)


# -- scalar kernels (loops on tensors; bufferize makes the carried tensor one buffer) --------

LoopBody = Callable[[Emitter, SSAValue, list[SSAValue]], Sequence[SSAValue]]


def _for(e: Emitter, lo: SSAValue | int, hi: SSAValue | int, carried: Sequence[SSAValue], body: LoopBody) -> list[SSAValue]:
    blk = Block(arg_types=[IndexType(), *[v.type for v in carried]])
    inner = Emitter(blk)
    inner.op(scf.YieldOp(*body(inner, blk.args[0], list(blk.args[1:]))))
    lo = e.index(lo) if isinstance(lo, int) else lo
    hi = e.index(hi) if isinstance(hi, int) else hi
    return list(e.op(scf.ForOp(lo, hi, e.index(1), list(carried), Region(blk))).results)


def _get(e: Emitter, x: SSAValue, at: Sequence[SSAValue]) -> SSAValue:
    return e(tensor.ExtractOp(x, list(at), elem(x.type)))


def _put(e: Emitter, v: SSAValue, x: SSAValue, at: Sequence[SSAValue]) -> SSAValue:
    return e(tensor.InsertOp(v, x, list(at)))


def _ops(t: Attribute):
    return tuple(scalar_op(m, t) for m in ("subtract", "multiply", "divide", "sqrt"))


def _solve_kernel(e: Emitter, a: SSAValue, b: SSAValue, unit: bool) -> SSAValue:
    """Forward substitution, row by row: x[i, :] = (b[i, :] - sum_k<i a[i, k] x[k, :]) / a[i, i],
    in place in a copy of b (the innermost loop runs along a row: unit stride)."""
    t = elem(b.type)
    sub, mul, div, _ = _ops(t)
    *batch, n, m = shape_of(b)

    def per_matrix(be: Emitter, ivs, vals):
        def row(re: Emitter, i, xs):
            def update(ke: Emitter, k, ys):
                aik = _get(ke, a, [*ivs, i, k])

                def col(je: Emitter, j, zs):
                    at = [*ivs, i, j]
                    v = sub(je, [_get(je, zs[0], at), mul(je, [aik, _get(je, zs[0], [*ivs, k, j])], t)], t)
                    return [_put(je, v, zs[0], at)]

                return _for(ke, 0, m, ys, col)

            xs = _for(re, 0, i, xs, update)
            if unit:
                return xs
            aii = _get(re, a, [*ivs, i, i])
            return _for(re, 0, m, xs, lambda je, j, zs: [
                _put(je, div(je, [_get(je, zs[0], [*ivs, i, j]), aii], t), zs[0], [*ivs, i, j])])

        return _for(be, 0, n, vals, row)

    return loop_nest(e, batch, [b], per_matrix)[0]


def _cholesky_kernel(e: Emitter, a: SSAValue) -> SSAValue:
    """Left-looking Cholesky, column by column, in place in a copy of a:
    l[j, j] = sqrt(a[j, j] - sum_k<j l[j, k]^2), l[i, j] = (a[i, j] - sum_k<j l[i, k] l[j, k]) / l[j, j]
    below it, zeros above (a matrix that is not positive definite gets NaNs, as the interpreter)."""
    t = elem(a.type)
    sub, mul, div, sqrt = _ops(t)
    *batch, n, _ = shape_of(a)

    def per_matrix(be: Emitter, ivs, vals):
        def column(ce: Emitter, j, xs):
            x = xs[0]

            def dot(de: Emitter, i, x) -> SSAValue:
                """a[i, j] - sum_k<j x[i, k] x[j, k]"""
                return _for(de, 0, j, [_get(de, x, [*ivs, i, j])], lambda ke, k, s: [
                    sub(ke, [s[0], mul(ke, [_get(ke, x, [*ivs, i, k]), _get(ke, x, [*ivs, j, k])], t)], t)])[0]

            djj = sqrt(ce, [dot(ce, j, x)], t)
            x = _put(ce, djj, x, [*ivs, j, j])
            zero = ce.const(0.0, t)
            xs = _for(ce, 0, j, [x], lambda ie, i, ys: [_put(ie, zero, ys[0], [*ivs, i, j])])
            below = ce(arith.AddiOp(j, ce.index(1)))
            return _for(ce, below, n, xs, lambda ie, i, ys: [
                _put(ie, div(ie, [dot(ie, i, ys[0]), djj], t), ys[0], [*ivs, i, j])])

        return _for(be, 0, n, vals, column)

    return loop_nest(e, batch, [a], per_matrix)[0]
