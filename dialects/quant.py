"""The `quant` dialect's uniform quantized type, in MLIR's (and StableHLO's) syntax.

    !quant.uniform<i8:f32, 0.1:-30>                     per-tensor: scale 0.1, zero point -30
    !quant.uniform<i8<-127:127>:f32:0, {0.1:-30, 0.5}>  per-axis along dimension 0

xDSL has no quant dialect, so the type lives here. Values of this type are held as their
storage integers (interpreter and CPU alike); `real = (stored - zero_point) * scale`.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import ArrayAttr, FloatData, IntAttr, IntegerType, TensorType
from xdsl.ir import Attribute, Dialect, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import irdl_attr_definition, param_def
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException


def _num(value: float) -> str:
    text = repr(float(value))
    return text if "e" in text or "." in text else text + ".0"


@irdl_attr_definition
class UniformQuantizedType(ParametrizedAttribute, TypeAttribute):
    """`!quant.uniform<storage[<min:max>]:expressed[:axis], scale[:zp] | {scale[:zp], ...}>`;
    axis is -1 for a per-tensor type."""

    name = "quant.uniform"

    storage_type: IntegerType = param_def()
    storage_min: IntAttr = param_def()
    storage_max: IntAttr = param_def()
    expressed_type: Attribute = param_def()
    quantized_dimension: IntAttr = param_def()
    scales: ArrayAttr[FloatData] = param_def()
    zero_points: ArrayAttr[IntAttr] = param_def()

    @staticmethod
    def get(storage: IntegerType, expressed: Attribute, scales: Sequence[float], zero_points: Sequence[int],
            axis: int = -1, storage_range: tuple[int, int] | None = None) -> UniformQuantizedType:
        lo, hi = storage_range if storage_range is not None else storage_limits(storage)
        return UniformQuantizedType(storage, IntAttr(lo), IntAttr(hi), expressed, IntAttr(axis),
                                    ArrayAttr([FloatData(float(s)) for s in scales]),
                                    ArrayAttr([IntAttr(int(z)) for z in zero_points]))

    @property
    def axis(self) -> int:
        return self.quantized_dimension.data

    def scale_values(self) -> list[float]:
        return [s.data for s in self.scales.data]

    def zero_point_values(self) -> list[int]:
        return [z.data for z in self.zero_points.data]

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            storage = parser.parse_type()
            if not isinstance(storage, IntegerType):
                parser.raise_error(f"quantized storage type must be an integer type, got {storage}")
            lo, hi = storage_limits(storage)
            if parser.parse_optional_punctuation("<"):
                lo = parser.parse_integer()
                parser.parse_punctuation(":")
                hi = parser.parse_integer()
                parser.parse_punctuation(">")
            parser.parse_punctuation(":")
            expressed = parser.parse_type()
            axis = -1
            if parser.parse_optional_punctuation(":"):
                axis = parser.parse_integer(allow_negative=False)
            parser.parse_punctuation(",")

            def scale_zp() -> tuple[float, int]:
                pos = parser.pos
                scale = float(parser.parse_number())
                if not (0 < scale < float("inf")):
                    parser.raise_error(f"quantized scale must be positive and finite, got {scale}", pos, parser.pos)
                zp = parser.parse_integer() if parser.parse_optional_punctuation(":") else 0
                return scale, zp

            if axis >= 0:
                items = parser.parse_comma_separated_list(parser.Delimiter.BRACES, scale_zp)
            else:
                items = [scale_zp()]
        return (storage, IntAttr(lo), IntAttr(hi), expressed, IntAttr(axis),
                ArrayAttr([FloatData(s) for s, _ in items]), ArrayAttr([IntAttr(z) for _, z in items]))

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        printer.print_attribute(self.storage_type)
        if (self.storage_min.data, self.storage_max.data) != storage_limits(self.storage_type):
            printer.print_string(f"<{self.storage_min.data}:{self.storage_max.data}>")
        printer.print_string(":")
        printer.print_attribute(self.expressed_type)
        pairs = [f"{_num(s)}" + (f":{z}" if z else "") for s, z in zip(self.scale_values(), self.zero_point_values())]
        if self.axis >= 0:
            printer.print_string(f":{self.axis}, {{{','.join(pairs)}}}>")
        else:
            printer.print_string(f", {pairs[0]}>")

    def verify(self) -> None:
        from minixla.dialects.hlo_ops.base import is_float

        if not is_float(self.expressed_type):
            raise VerifyException(f"quantized expressed type must be a float type, got {self.expressed_type}")
        lo, hi = storage_limits(self.storage_type)
        if not lo <= self.storage_min.data <= self.storage_max.data <= hi:
            raise VerifyException(f"quantized storage range [{self.storage_min.data}, {self.storage_max.data}] "
                                  f"must lie within {self.storage_type}'s [{lo}, {hi}]")
        if len(self.scales.data) != len(self.zero_points.data) or not self.scales.data:
            raise VerifyException("quantized type needs one zero point per scale")
        if self.axis < 0 and len(self.scales.data) != 1:
            raise VerifyException("a per-tensor quantized type has exactly one scale")
        for s in self.scale_values():
            if not (s > 0 and s != float("inf")):
                raise VerifyException(f"quantized scale must be positive and finite, got {s}")
        for z in self.zero_point_values():
            if not self.storage_min.data <= z <= self.storage_max.data:
                raise VerifyException(f"zero point {z} is outside the storage range "
                                      f"[{self.storage_min.data}, {self.storage_max.data}]")


def storage_limits(t: IntegerType) -> tuple[int, int]:
    w = t.width.data
    if t.signedness.data.name == "UNSIGNED":
        return 0, 2 ** w - 1
    return -(2 ** (w - 1)), 2 ** (w - 1) - 1


def is_quantized(t: Attribute) -> bool:
    return isinstance(t, UniformQuantizedType)


def storage_view(t: Attribute) -> Attribute:
    """A tensor type with its quantized element type replaced by the storage type (others unchanged)."""
    if isinstance(t, TensorType) and isinstance(t.element_type, UniformQuantizedType):
        return TensorType(t.element_type.storage_type, t.get_shape())
    return t


def expressed_view(t: Attribute) -> Attribute:
    """A tensor type with its quantized element type replaced by the expressed float type."""
    if isinstance(t, TensorType) and isinstance(t.element_type, UniformQuantizedType):
        return TensorType(t.element_type.expressed_type, t.get_shape())
    return t


QUANT = Dialect("quant", [], [UniformQuantizedType])
