"""`hlo-legalize-structural`: rewrite the ops the loop lowering has no rule for into ops it has,
as XLA does for static programs before code generation:

* `get_tuple_element(tuple(...))` folds to the element; dead tuples go, so nothing
  tuple-typed reaches bufferization (a tuple that stays is a located error);
* `composite` becomes a `func.call` of its decomposition (the `inline` pass follows);
* `map` is inlined: its scalar body's elementwise ops applied to the whole tensors;
* `get_dimension_size` of a static dimension becomes a constant;
* a `dynamic_*` op whose shape operands are constants (or small computations on constants and
  static dimension sizes, evaluated with the constant folder's evaluator) becomes its static twin
  (iota, reshape, broadcast_in_dim, pad, gather, convolution); one whose shape stays
  dynamic is a located error (the interpreter runs those);
* `after_all` whose token nothing uses is erased (tokens that order effects stay interpreter-only).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, ModuleOp, TensorType, TupleType, i32, i64
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass

from minixla.dialects import hlo
from minixla.dialects.diagnostics import op_error
from minixla.dialects.hlo_ops.syntax import i64_array
from minixla.dialects.numpy_types import dense_attr_to_numpy

PASS = "hlo-legalize-structural"


def _fail(op: Operation, why: str):
    return op_error(op, f"{why} ({PASS}: compiled backends need static shapes and no tuples at function "
                        "boundaries; the interpreter runs this program)")


def _replace(op: Operation, values) -> None:
    for res, v in zip(op.results, values):
        res.replace_all_uses_with(v)
    op.detach()
    op.erase()


def _before(op: Operation, new: Operation) -> SSAValue:
    op.parent_block().insert_op_before(new, op)
    return new.results[0] if new.results else None


# -- tuples ---------------------------------------------------------------------


def _fold_tuples(module: ModuleOp) -> None:
    changed = True
    while changed:
        changed = False
        for gte in [o for o in module.walk() if isinstance(o, hlo.GetTupleElementOp)]:
            owner = gte.operand.owner
            if isinstance(owner, hlo.TupleOp):
                _replace(gte, [owner.operands[int(gte.index.value.data)]])
                changed = True
        for tup in [o for o in module.walk() if isinstance(o, hlo.TupleOp)]:
            if not tup.result.uses:
                tup.detach()
                tup.erase()
                changed = True
    for op in module.walk():
        if isinstance(op, func.FuncOp):
            if any(isinstance(t, TupleType) for t in (*op.function_type.inputs.data, *op.function_type.outputs.data)):
                raise _fail(op, "tuple-typed function arguments or results cannot be compiled")
        elif any(isinstance(r.type, TupleType) for r in op.results):
            raise _fail(op, "a tuple value that does not fold away (only get_tuple_element of a tuple does)")


# -- composite, map, get_dimension_size --------------------------------------------


def _composite(op: hlo.CompositeOp) -> None:
    call = func.CallOp(op.decomposition, list(op.operands), [r.type for r in op.results])
    call.location = op.location
    op.parent_block().insert_op_before(call, op)
    _replace(op, call.results)


def _is_elementwise(op: Operation) -> bool:
    return (op.name.startswith("hlo.") and not op.regions and type(op).__module__.endswith("hlo_ops.elementwise")
            and all(isinstance(r.type, TensorType) and not r.type.get_shape() for r in op.results))


def _map(op: hlo.MapOp) -> None:
    full = tuple(op.result.type.get_shape())
    block = op.computation.block
    mapping: dict[SSAValue, SSAValue] = dict(zip(block.args, op.inputs))

    def widen(v: SSAValue) -> SSAValue:
        if v in mapping:
            return mapping[v]
        if not (isinstance(v.type, TensorType) and not v.type.get_shape()):
            raise _fail(op, f"the map body uses {v.type} from outside; only 0-d tensors can be broadcast")
        b = hlo.BroadcastInDimOp.create(operands=[v], result_types=[TensorType(v.type.element_type, full)],
                                        properties={"broadcast_dimensions": i64_array([])})
        mapping[v] = _before(op, b)
        return mapping[v]

    for inner in list(block.ops):
        if inner is block.last_op:
            _replace(op, [widen(inner.operands[0])])
            return
        if isinstance(inner, hlo.ConstantOp):
            mapping[inner.output] = widen(_before(op, inner.clone()))
            continue
        if not _is_elementwise(inner):
            raise _fail(inner, "only elementwise ops and constants can be inlined from a map body")
        new = type(inner).create(operands=[widen(v) for v in inner.operands],
                                 result_types=[TensorType(r.type.element_type, full) for r in inner.results],
                                 properties=dict(inner.properties), attributes=dict(inner.attributes))
        new.location = inner.location
        _before(op, new)
        mapping.update(zip(inner.results, new.results))


def _dimension_size(op: hlo.GetDimensionSizeOp) -> None:
    size = op.operand.type.get_shape()[int(op.dimension.value.data)]
    if size < 0:
        raise _fail(op, f"dimension {int(op.dimension.value.data)} of {op.operand.type} is dynamic")
    const = hlo.ConstantOp(DenseIntOrFPElementsAttr.from_list(TensorType(i32, []), [size]))
    _replace(op, [_before(op, const)])


# -- dynamic ops ------------------------------------------------------------------


def _evaluate(value: SSAValue, depth: int = 0) -> np.ndarray | None:
    """The value of a small region-free hlo computation on constants (shape arithmetic such as
    concatenate/reshape/convert of constants and dimension sizes), with the constant folder's
    evaluator (the reference interpreter's kernels); None when it is not one."""
    from minixla.passes.hlo_opt import constant_evaluator

    owner = value.owner
    if isinstance(owner, hlo.ConstantOp):
        return np.asarray(dense_attr_to_numpy(owner.value, owner.output.type))
    if (depth > 16 or not isinstance(owner, Operation) or owner.regions
            or not owner.name.startswith("hlo.") or len(owner.results) != 1
            or not isinstance(value.type, TensorType) or any(d < 0 for d in value.type.get_shape())
            or int(np.prod(value.type.get_shape())) > 1024):
        return None
    args = [_evaluate(v, depth + 1) for v in owner.operands]
    evaluate = None if any(a is None for a in args) else constant_evaluator()
    if evaluate is None:
        return None
    try:
        with np.errstate(all="ignore"):
            out = evaluate(owner, args)
    except Exception:  # noqa: BLE001 -- a computation the kernels reject stays dynamic
        return None
    return None if out is None else np.asarray(out[0])


def _constant(op: Operation, value: SSAValue, what: str) -> list[int]:
    arr = _evaluate(value)
    if arr is None:
        raise _fail(op, f"{what} is not a constant, so the shape stays dynamic")
    return [int(v) for v in arr.reshape(-1)]


def _static_result(op: Operation) -> TensorType:
    t = op.results[0].type
    if any(d < 0 for d in t.get_shape()):
        raise _fail(op, f"result type {t} has dynamic dimensions")
    return t


def _dynamic(op: Operation) -> Operation:
    """The static twin of a dynamic op (built from its constant shape operands)."""
    r = _static_result(op)
    props = dict(op.properties)
    if isinstance(op, hlo.DynamicIotaOp):
        _constant(op, op.output_shape, "output_shape")
        return hlo.IotaOp.create(result_types=[r], properties=props)
    if isinstance(op, hlo.DynamicReshapeOp):
        _constant(op, op.output_shape, "output_shape")
        return hlo.ReshapeOp.create(operands=[op.operand], result_types=[r])
    if isinstance(op, hlo.DynamicBroadcastInDimOp):
        _constant(op, op.output_dimensions, "output_dimensions")
        return hlo.BroadcastInDimOp.create(operands=[op.operand], result_types=[r],
                                           properties={"broadcast_dimensions": op.broadcast_dimensions})
    if isinstance(op, hlo.DynamicPadOp):
        pads = {k: i64_array(_constant(op, getattr(op, k), k))
                for k in ("edge_padding_low", "edge_padding_high", "interior_padding")}
        return hlo.PadOp.create(operands=[op.operand, op.padding_value], result_types=[r], properties=pads)
    if isinstance(op, hlo.DynamicGatherOp):
        sizes = i64_array(_constant(op, op.slice_sizes, "slice_sizes"))
        return hlo.GatherOp.create(operands=[op.operand, op.start_indices], result_types=[r],
                                   properties={**props, "slice_sizes": sizes})
    assert isinstance(op, hlo.DynamicConvOp)
    pads = _constant(op, op.d_padding, "padding")
    padding = DenseIntOrFPElementsAttr.from_list(TensorType(i64, [len(pads) // 2, 2]), pads)
    return hlo.ConvolutionOp.create(operands=[op.lhs, op.rhs], result_types=[r], properties={**props, "padding": padding})


DYNAMIC_OPS = (hlo.DynamicIotaOp, hlo.DynamicReshapeOp, hlo.DynamicBroadcastInDimOp, hlo.DynamicPadOp,
               hlo.DynamicGatherOp, hlo.DynamicConvOp)


@dataclass(frozen=True)
class HloLegalizeStructural(ModulePass):
    """Tuples, composite, map, get_dimension_size and dynamic ops -> ops with loop lowerings."""

    name = PASS

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for inner in list(op.walk()):
            if isinstance(inner, hlo.CompositeOp):
                _composite(inner)
            elif isinstance(inner, hlo.GetDimensionSizeOp):
                _dimension_size(inner)
            elif isinstance(inner, DYNAMIC_OPS):
                new = _dynamic(inner)
                new.location = inner.location
                _replace(inner, [_before(inner, new)])
        # innermost maps first, so an outer map's body holds only elementwise ops
        for inner in reversed([o for o in op.walk() if isinstance(o, hlo.MapOp)]):
            _map(inner)
        _fold_tuples(op)
        # a token that orders nothing carries nothing: unused after_all chains go (last first)
        for inner in reversed([o for o in op.walk() if isinstance(o, hlo.AfterAllOp)]):
            if not inner.result.uses:
                inner.detach()
                inner.erase()
