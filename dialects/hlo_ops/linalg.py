"""cholesky and triangular_solve: batched dense linear algebra on the last two
dimensions (generic form only, as StableHLO prints them)."""

from __future__ import annotations

from xdsl.dialects.builtin import BoolAttr, TensorType
from xdsl.irdl import IRDLOperation, operand_def, opt_prop_def, prop_def, result_def, traits_def
from xdsl.traits import Pure

from minixla.dialects.hlo_ops.attrs import Transpose, TransposeAttrBase
from minixla.dialects.hlo_ops.base import hlo_op, is_complex, is_float, require, shape, tensor


def _matrices(t: TensorType, what: str) -> tuple[int, ...]:
    """Shape of a batch of matrices of a floating-point or complex type."""
    require(is_float(t.element_type) or is_complex(t.element_type),
            f"{what} must have a floating-point or complex element type, got {t.element_type}")
    s = shape(t)
    require(len(s) >= 2, f"{what} must have rank >= 2 (a batch of matrices), got {t}")
    return s


def flag(attr: BoolAttr | None, default: bool = False) -> bool:
    """The value of an i1 flag property (`default` when absent)."""
    return default if attr is None else bool(attr.value.data)


@hlo_op("cholesky")
class CholeskyOp(IRDLOperation):
    """`a = l l^H` (lower) or `u^H u`: reads one triangle of each matrix of `a`."""

    a = operand_def(TensorType)
    lower = opt_prop_def(BoolAttr)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def verify_(self) -> None:
        a = tensor(self.a.type, "operand")
        r = tensor(self.result.type, "result")
        s = _matrices(a, "operand")
        require(s[-1] == s[-2], f"operand matrices must be square, got {a}")
        require(r == a, f"result type {r} must equal the operand type {a}")

    @property
    def is_lower(self) -> bool:
        return flag(self.lower)


@hlo_op("triangular_solve")
class TriangularSolveOp(IRDLOperation):
    """Solve `op(a) x = b` (left_side) or `x op(a) = b` for x, `a` triangular."""

    a = operand_def(TensorType)
    b = operand_def(TensorType)
    left_side = prop_def(BoolAttr)
    lower = prop_def(BoolAttr)
    unit_diagonal = prop_def(BoolAttr)
    transpose_a = prop_def(TransposeAttrBase)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def verify_(self) -> None:
        a = tensor(self.a.type, "a")
        b = tensor(self.b.type, "b")
        r = tensor(self.result.type, "result")
        sa, sb = _matrices(a, "a"), _matrices(b, "b")
        require(a.element_type == b.element_type,
                f"a and b element types {a.element_type} and {b.element_type} must be equal")
        require(len(sa) == len(sb), f"a and b must have the same rank, got {a} and {b}")
        require(sa[:-2] == sb[:-2], f"batch dimensions of a {list(sa[:-2])} and b {list(sb[:-2])} must be equal")
        require(sa[-1] == sa[-2], f"a's matrices must be square, got {a}")
        side, dim = ("left", -2) if flag(self.left_side) else ("right", -1)
        require(sb[dim] == sa[-1], f"with left_side = {str(side == 'left').lower()}, dimension {len(sb) + dim} of b "
                                   f"({sb[dim]}) must equal the size of a's matrices ({sa[-1]})")
        require(self.transpose_a.data != Transpose.TRANSPOSE_INVALID, "transpose_a must not be TRANSPOSE_INVALID")
        require(r == b, f"result type {r} must equal b's type {b}")
