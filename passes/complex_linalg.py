"""Complex `triangular_solve` and `cholesky` as complex hlo ops that `hlo-complex-to-real` lowers.

The real types have blocked kernels (passes/hlo_to_linalg/triangular.py); complex ones are
rare, so here clarity wins over speed: each op becomes an `hlo.while` over rows (solve) or
columns (cholesky) of dynamic slices, one `dot_general` and complex arithmetic per step, which
passes/complex_to_real.py then converts like any other complex ops. The math follows the
interpreter, our oracle (backends/interpreter/kernels/linalg.py): complex<f32> runs in
complex<f64> and rounds once, only the triangle StableHLO says is read is read, and a
cholesky result's other triangle is zero.

* triangular_solve: every form becomes left-side, lower, NO_TRANSPOSE (ADJOINT is TRANSPOSE
  of conj(a); a right-side solve transposes b and x; an upper a is reversed along both axes),
  then forward substitution x_i = (b_i - a_i,<i x_<i) / a_ii.
* cholesky (lower; an upper one is the adjoint of the lower factor of a^H): column j is
  l_jj = sqrt(re(a_jj) - |l_j,<j|^2), l_>j,j = (a_>j,j - l_>j,<j conj(l_j,<j)) / l_jj.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import ComplexType, DenseIntOrFPElementsAttr, TensorType, f64, i64
from xdsl.ir import Block, Operation, Region, SSAValue

from minixla.dialects import hlo
from minixla.dialects.hlo_ops.attrs import HLO_ATTRS, Transpose
from minixla.dialects.hlo_ops.linalg import flag
from minixla.dialects.hlo_ops.syntax import i64_array, i64_attr
from minixla.dialects.numpy_types import numpy_dtype, numpy_to_dense_attr
from minixla.passes.complex_math import Builder

WIDE = ComplexType(f64)


class BlockBuilder(Builder):
    """A Builder appending to the end of `block` (a loop region being filled)."""

    def __init__(self, block: Block):
        super().__init__(None)  # type: ignore[arg-type]
        self.block = block

    def insert(self, op: Operation) -> SSAValue:
        self.block.add_op(op)
        return op.results[0] if op.results else None  # type: ignore[return-value]


def _shape(x: SSAValue) -> list[int]:
    return list(x.type.get_shape())


def _typed(x: SSAValue, shape, elem=None) -> TensorType:
    return TensorType(elem or x.type.element_type, list(shape))


def _zeros(b: Builder, t: TensorType) -> SSAValue:
    return b.insert(hlo.ConstantOp(numpy_to_dense_attr(np.zeros(t.get_shape(), numpy_dtype(t.element_type)), t)))


def _index(b: Builder, k: int) -> SSAValue:
    return b.insert(hlo.ConstantOp(DenseIntOrFPElementsAttr.from_list(TensorType(i64, []), [k])))


def _transpose(b: Builder, x: SSAValue) -> SSAValue:
    """Swap the last two dims."""
    s, r = _shape(x), len(_shape(x))
    return b.op("transpose", x, result_type=_typed(x, [*s[:-2], s[-1], s[-2]]),
                permutation=i64_array([*range(r - 2), r - 1, r - 2]))


def _reverse(b: Builder, x: SSAValue, dims) -> SSAValue:
    r = len(_shape(x))
    return b.op("reverse", x, dimensions=i64_array([r + d for d in dims]))


def _conj(b: Builder, x: SSAValue) -> SSAValue:
    part = _typed(x, _shape(x), x.type.element_type.element_type)
    re, im = b.op("real", x, result_type=part), b.op("imag", x, result_type=part)
    return b.op("complex", re, b.neg(im), result_type=x.type)


def _strictly(b: Builder, x: SSAValue, direction: str) -> SSAValue:
    """x where row `direction` column (GT: strictly lower, EQ: diagonal), else 0."""
    s, r = _shape(x), len(_shape(x))
    it = TensorType(i64, s)
    rows = b.insert(hlo.IotaOp.create(result_types=[it], properties={"iota_dimension": i64_attr(r - 2)}))
    cols = b.insert(hlo.IotaOp.create(result_types=[it], properties={"iota_dimension": i64_attr(r - 1)}))
    return b.select(b.cmp(direction, rows, cols), x, _zeros(b, x.type))


def _matmul(b: Builder, x: SSAValue, y: SSAValue, transpose_y: bool = False) -> SSAValue:
    """x @ y (or x @ y^T) per batch."""
    sx, sy, r = _shape(x), _shape(y), len(_shape(x))
    batch = list(range(r - 2))
    dn = HLO_ATTRS.dot.get(lhs_batching_dimensions=batch, rhs_batching_dimensions=batch,
                           lhs_contracting_dimensions=[r - 1],
                           rhs_contracting_dimensions=[r - 1 if transpose_y else r - 2])
    n = sy[-2] if transpose_y else sy[-1]
    return b.op("dot_general", x, y, result_type=_typed(x, [*sx[:-1], n]), dot_dimension_numbers=dn)


def _loop(b: Builder, n: int, init: SSAValue, step) -> SSAValue:
    """`init` carried through `step(body_builder, i, value) -> value` for i in [0, n)."""
    ti = TensorType(i64, [])
    cond, body = Block(arg_types=[ti, init.type]), Block(arg_types=[ti, init.type])
    cb = BlockBuilder(cond)
    cb.insert(hlo.ReturnOp([cb.cmp("LT", cond.args[0], _index(cb, n))]))
    bb = BlockBuilder(body)
    i, x = body.args
    new = step(bb, i, x)
    bb.insert(hlo.ReturnOp([bb.add(i, _index(bb, 1)), new]))
    loop = hlo.WhileOp.create(operands=[_index(b, 0), init], result_types=[ti, init.type],
                              regions=[Region(cond), Region(body)])
    b.insert(loop)
    return loop.results[1]


def _at(b: Builder, x: SSAValue, row: SSAValue, col: SSAValue, sizes) -> SSAValue:
    """x[..., row:row+sizes[0], col:col+sizes[1]] (a dynamic slice over every batch)."""
    s = _shape(x)
    zero = _index(b, 0)
    sizes = [*s[:-2], *sizes]
    return b.op("dynamic_slice", x, *([zero] * (len(s) - 2)), row, col, result_type=_typed(x, sizes),
                slice_sizes=i64_array(sizes))


def _put(b: Builder, x: SSAValue, update: SSAValue, row: SSAValue, col: SSAValue) -> SSAValue:
    zero = _index(b, 0)
    return b.op("dynamic_update_slice", x, update, *([zero] * (len(_shape(x)) - 2)), row, col, result_type=x.type)


def _widened(b: Builder, op: Operation, build) -> SSAValue:
    """`build` on the operands in complex<f64>, the result rounded back to the op's type."""
    t = op.results[0].type
    args = [b.convert(v, _typed(v, _shape(v), WIDE)) for v in op.operands]
    return b.convert(build(*args), t)


def triangular_solve(b: Builder, op: Operation) -> SSAValue:
    """The complex `hlo.triangular_solve` `op` as complex hlo ops before it; its result."""
    left, lower, unit = flag(op.left_side), flag(op.lower), flag(op.unit_diagonal)
    trans = Transpose(op.transpose_a.data)

    def build(a: SSAValue, rhs: SSAValue) -> SSAValue:
        nonlocal lower
        if trans == Transpose.ADJOINT:
            a = _conj(b, a)
        transposed = trans != Transpose.NO_TRANSPOSE
        if not left:  # x op(a) = b  <=>  op(a)^T x^T = b^T
            rhs, transposed = _transpose(b, rhs), not transposed
        if transposed:
            a, lower = _transpose(b, a), not lower
        if not lower:  # reversing rows and columns makes an upper matrix lower
            a, rhs = _reverse(b, a, [-2, -1]), _reverse(b, rhs, [-2])
        x = _forward(b, a, rhs, unit)
        x = x if lower else _reverse(b, x, [-2])
        return x if left else _transpose(b, x)

    return _widened(b, op, build)


def _forward(b: Builder, a: SSAValue, rhs: SSAValue, unit: bool) -> SSAValue:
    """x with a x = rhs, a lower: row i of x from the rows above it (still zero below i)."""
    n, m = _shape(a)[-1], _shape(rhs)[-1]
    strict = _strictly(b, a, "GT")

    def step(bb: Builder, i: SSAValue, x: SSAValue) -> SSAValue:
        zero = _index(bb, 0)
        v = bb.sub(_at(bb, rhs, i, zero, [1, m]), _matmul(bb, _at(bb, strict, i, zero, [1, n]), x))
        if not unit:
            d = _at(bb, a, i, i, [1, 1])
            r = len(_shape(d))
            v = bb.div(v, bb.op("broadcast_in_dim", d, result_type=v.type, broadcast_dimensions=i64_array(range(r))))
        return _put(bb, x, v, i, zero)

    return _loop(b, n, _zeros(b, rhs.type), step)


def cholesky(b: Builder, op: Operation) -> SSAValue:
    """The complex `hlo.cholesky` `op` as complex hlo ops before it; its result."""
    lower = flag(op.lower)

    def build(a: SSAValue) -> SSAValue:
        a = a if lower else _conj(b, _transpose(b, a))  # the upper triangle of a is the lower one of a^H
        low = _columns(b, a)
        return low if lower else _conj(b, _transpose(b, low))

    return _widened(b, op, build)


def _columns(b: Builder, a: SSAValue) -> SSAValue:
    """The lower factor, column by column (columns right of j still zero at step j)."""
    s = _shape(a)
    n = s[-1]
    part = _typed(a, s[:-2] + [1, 1], f64)

    def step(bb: Builder, j: SSAValue, low: SSAValue) -> SSAValue:
        zero = _index(bb, 0)
        row = _at(bb, low, j, zero, [1, n])  # l_j,<j (zero from j on)
        norm = bb.op("real", _matmul(bb, row, _conj(bb, row), transpose_y=True), result_type=part)
        d = bb.sub(bb.op("real", _at(bb, a, j, j, [1, 1]), result_type=part), norm)
        djj = bb.op("complex", bb.op("sqrt", d), bb.const(0.0, d), result_type=_typed(a, s[:-2] + [1, 1]))
        col = bb.sub(_at(bb, a, zero, j, [n, 1]), _matmul(bb, low, _conj(bb, row), transpose_y=True))
        r = len(s)
        diag = bb.op("broadcast_in_dim", djj, result_type=col.type, broadcast_dimensions=i64_array(range(r)))
        rows = bb.insert(hlo.IotaOp.create(result_types=[TensorType(i64, _shape(col))],
                                           properties={"iota_dimension": i64_attr(r - 2)}))
        js = bb.op("broadcast_in_dim", j, result_type=rows.type, broadcast_dimensions=i64_array([]))
        below = bb.select(bb.cmp("GT", rows, js), bb.div(col, diag), _zeros(bb, col.type))
        return _put(bb, low, bb.select(bb.cmp("EQ", rows, js), diag, below), zero, j)

    return _loop(b, n, _zeros(b, a.type), step)


#: the ops expanded here, by mnemonic
EXPANSIONS = {"triangular_solve": triangular_solve, "cholesky": cholesky}
