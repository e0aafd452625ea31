"""`hlo-legalize-quant`: uniform quantization as float math on storage integers.

    uniform_dequantize q  ->  (convert(q, expressed) - zero_point) * scale
    uniform_quantize x    ->  convert(round_nearest_even(clamp(min, x / scale + zero_point, max)), storage)

(StableHLO's `dequantize`/`quantize`, computed in the expressed type as the interpreter
does; a quantized operand is dequantized first.) Unary and binary elementwise ops on quantized
tensors become dequantize-op-quantize. Per-axis scales and zero points are
1-d constants broadcast along the quantized dimension. Afterwards every `!quant.uniform`
tensor is its storage integer tensor, and bitcast_converts between the two vanish.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from minixla.dialects import hlo
from minixla.dialects.hlo_ops.syntax import i64_array
from minixla.dialects.numpy_types import numpy_dtype, numpy_to_dense_attr
from minixla.dialects.hlo_ops.elementwise import BinaryElementwiseOp, UnaryElementwiseOp
from minixla.dialects.quant import UniformQuantizedType, expressed_view, storage_view


class _Builder:
    """Emits hlo ops before `anchor`."""

    def __init__(self, anchor: Operation):
        self.anchor = anchor

    def __call__(self, cls, operands, result_type, **props) -> SSAValue:
        op = cls.create(operands=list(operands), result_types=[result_type], properties=props)
        op.location = self.anchor.location
        self.anchor.parent_block().insert_op_before(op, self.anchor)
        return op.results[0]

    def param(self, values, axis: int, full: TensorType) -> SSAValue:
        """A constant per quantized dimension (or one), broadcast to `full`."""
        dt = numpy_dtype(full.element_type)
        arr = np.asarray(values, dtype=dt).reshape(-1 if axis >= 0 else ())
        const = self(hlo.ConstantOp, [], TensorType(full.element_type, arr.shape),
                     value=numpy_to_dense_attr(arr, TensorType(full.element_type, arr.shape)))
        return self(hlo.BroadcastInDimOp, [const], full, broadcast_dimensions=i64_array([axis] if axis >= 0 else []))

    def scalar(self, value, t) -> SSAValue:
        st = TensorType(t, [])
        return self(hlo.ConstantOp, [], st, value=numpy_to_dense_attr(np.asarray(value, numpy_dtype(t)), st))


def _dequantize(b: _Builder, x: SSAValue, q: UniformQuantizedType, shape) -> SSAValue:
    ft = TensorType(q.expressed_type, shape)
    f = b(hlo.ConvertOp, [x], ft)
    f = b(hlo.SubtractOp, [f, b.param(q.zero_point_values(), q.axis, ft)], ft)
    return b(hlo.MultiplyOp, [f, b.param(q.scale_values(), q.axis, ft)], ft)


def _quantize(b: _Builder, x: SSAValue, q: UniformQuantizedType, shape) -> SSAValue:
    ft = TensorType(q.expressed_type, shape)
    y = b(hlo.DivideOp, [x, b.param(q.scale_values(), q.axis, ft)], ft)
    y = b(hlo.AddOp, [y, b.param(q.zero_point_values(), q.axis, ft)], ft)
    lo, hi = b.scalar(q.storage_min.data, q.expressed_type), b.scalar(q.storage_max.data, q.expressed_type)
    y = b(hlo.ClampOp, [lo, y, hi], ft)
    y = b(hlo.RoundNearestEvenOp, [y], ft)
    return b(hlo.ConvertOp, [y], TensorType(q, shape))  # quantized until the retyping below: later ops read q


def _elementwise(op: Operation) -> None:
    """dequantize-op-quantize: the op on expressed-type values between a dequantize and a quantize."""
    b = _Builder(op)
    floats = [_dequantize(b, v, v.type.element_type, v.type.get_shape()) for v in op.operands]
    r = op.results[0].type
    new = b(type(op), floats, expressed_view(r), **dict(op.properties))
    _replace(op, _quantize(b, new, r.element_type, r.get_shape()))


def _replace(op: Operation, value: SSAValue) -> None:
    op.results[0].replace_all_uses_with(value)
    op.detach()
    op.erase()


@dataclass(frozen=True)
class HloLegalizeQuant(ModulePass):
    """uniform_quantize/uniform_dequantize -> convert/multiply/round/clamp on storage integers."""

    name = "hlo-legalize-quant"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if _has_quantized(op):
            _legalize(op)
        for inner in [o for o in op.walk() if isinstance(o, hlo.BitcastConvertOp)]:
            if inner.operand.type == inner.result.type:
                _replace(inner, inner.operand)


def _is_quantized(t) -> bool:
    return isinstance(t, TensorType) and isinstance(t.element_type, UniformQuantizedType)


def _has_quantized(module: ModuleOp) -> bool:
    """Whether a value or function signature has a quantized tensor type: the legalization has nothing to
    do otherwise (quantize/dequantize ops have one), and most modules have none, so one walk decides."""
    for inner in module.walk():
        if any(_is_quantized(r.type) for r in inner.results) or any(
                _is_quantized(a.type) for r in inner.regions for blk in r.blocks for a in blk.args):
            return True
        if isinstance(inner, func.FuncOp) and any(
                _is_quantized(t) for t in (*inner.function_type.inputs.data, *inner.function_type.outputs.data)):
            return True
    return False


def _legalize(op: ModuleOp) -> None:
    """Quantized ops become integer arithmetic on storage types; every quantized type its storage type."""
    for inner in list(op.walk()):
        if isinstance(inner, hlo.UniformDequantizeOp):
            src = inner.operand.type
            _replace(inner, _dequantize(_Builder(inner), inner.operand, src.element_type, src.get_shape()))
        elif isinstance(inner, hlo.UniformQuantizeOp):
            b, x, shape = _Builder(inner), inner.operand, inner.operand.type.get_shape()
            if isinstance(x.type.element_type, UniformQuantizedType):
                x = _dequantize(b, x, x.type.element_type, shape)
            _replace(inner, _quantize(b, x, inner.result.type.element_type, shape))
        elif isinstance(inner, (UnaryElementwiseOp, BinaryElementwiseOp)) and isinstance(
                inner.results[0].type.element_type, UniformQuantizedType):
            _elementwise(inner)
    for inner in op.walk():
        for value in [*inner.results, *(a for r in inner.regions for blk in r.blocks for a in blk.args)]:
            new = storage_view(value.type)
            if new is not value.type:
                Rewriter.replace_value_with_new_type(value, new)
        if isinstance(inner, func.FuncOp):
            ft = inner.function_type
            ins, outs = [storage_view(t) for t in ft.inputs.data], [storage_view(t) for t in ft.outputs.data]
            if ins != list(ft.inputs.data) or outs != list(ft.outputs.data):
                inner.function_type = func.FunctionType.from_lists(ins, outs)
