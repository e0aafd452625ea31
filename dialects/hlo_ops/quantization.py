"""uniform_quantize and uniform_dequantize: float <-> `!quant.uniform` tensors
(dialects/quant.py), and requantization between two quantized types."""

from __future__ import annotations

from xdsl.dialects.builtin import TensorType
from xdsl.irdl import operand_def, result_def, traits_def
from xdsl.traits import Pure

from minixla.dialects.hlo_ops.base import fail, hlo_op, is_float, require, shape
from minixla.dialects.hlo_ops.pretty import PrettyOp
from minixla.dialects.quant import UniformQuantizedType


def quantized_tensor(t, what: str) -> UniformQuantizedType:
    """The element type of a statically shaped tensor of `!quant.uniform` elements."""
    if not (isinstance(t, TensorType) and isinstance(t.element_type, UniformQuantizedType)):
        fail(f"{what} must be a tensor of a quantized element type, got {t}")
    require(all(d >= 0 for d in t.get_shape()), f"{what} must have a static shape, got {t}")
    q = t.element_type
    if q.axis >= 0:
        require(q.axis < len(t.get_shape()), f"{what}: quantized dimension {q.axis} is out of range for {t}")
        require(len(q.scales.data) == t.get_shape()[q.axis],
                f"{what}: {len(q.scales.data)} scales for quantized dimension {q.axis} of size "
                f"{t.get_shape()[q.axis]}")
    return q


@hlo_op("uniform_quantize")
class UniformQuantizeOp(PrettyOp):
    """`%q = hlo.uniform_quantize %x : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 0.5:3>>`:
    round(x / scale) + zero_point, clamped to the storage range; a quantized operand is requantized."""

    FUNCTIONAL_TYPE = True
    operand = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def verify_(self) -> None:
        r = self.result.type
        q = quantized_tensor(r, "result")
        x = self.operand.type
        if isinstance(x, TensorType) and isinstance(x.element_type, UniformQuantizedType):
            quantized_tensor(x, "operand")
            require(x.element_type.expressed_type == q.expressed_type,
                    f"operand and result expressed types {x.element_type.expressed_type} and {q.expressed_type} differ")
        else:
            require(isinstance(x, TensorType) and is_float(x.element_type),
                    f"operand must be a float or quantized tensor, got {x}")
            require(x.element_type == q.expressed_type,
                    f"operand element type {x.element_type} must be the result's expressed type {q.expressed_type}")
        require(shape(x) == shape(r), f"operand shape {list(shape(x))} must equal result shape {list(shape(r))}")


@hlo_op("uniform_dequantize")
class UniformDequantizeOp(PrettyOp):
    """`%x = hlo.uniform_dequantize %q : (tensor<4x!quant.uniform<i8:f32, 0.5:3>>) -> tensor<4xf32>`:
    (stored - zero_point) * scale."""

    FUNCTIONAL_TYPE = True
    operand = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def verify_(self) -> None:
        q = quantized_tensor(self.operand.type, "operand")
        r = self.result.type
        require(isinstance(r, TensorType) and r.element_type == q.expressed_type,
                f"result must be a tensor of the expressed type {q.expressed_type}, got {r}")
        require(shape(self.operand.type) == shape(r),
                f"operand shape {list(shape(self.operand.type))} must equal result shape {list(shape(r))}")
