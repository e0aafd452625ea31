"""Elementwise ops: the unary and binary ones as one small class each over two shared
bases (UnaryElementwiseOp, BinaryElementwiseOp), plus compare, select, clamp, convert,
bitcast_convert and is_finite."""

from __future__ import annotations

import re
from typing import ClassVar

from xdsl.dialects.builtin import ComplexType, FunctionType, IntegerAttr, IntegerType, TensorType, i1, i32
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import operand_def, opt_prop_def, prop_def, result_def, traits_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure

from minixla.dialects.hlo_ops.attrs import ComparisonDirectionAttrBase, ComparisonTypeAttrBase, attributes_for
from minixla.dialects.hlo_ops.base import HloCanonicalization
from minixla.dialects.hlo_ops.base import ELEMENT_CLASS_TEXT, ELEMENT_CLASSES, hlo_op, is_bool, is_complex, is_float, is_unsigned, require, shape, tensor
from minixla.dialects.hlo_ops.pretty import PrettyOp
from minixla.dialects.quant import expressed_view, is_quantized




def _check_element_class(t: TensorType, cls_name: str, what: str, shown: Attribute | None = None) -> None:
    """`shown`: the type as written, when `t` is its expressed (dequantized) view."""
    require(ELEMENT_CLASSES[cls_name](t.element_type),
            f"{what} must have {ELEMENT_CLASS_TEXT[cls_name]}, got {shown or t}")


def _same_quantization(types) -> None:
    """Quantized operands and results (StableHLO's dequantize-op-quantize semantics, checked on the
    expressed types) must all be quantized; scales and zero points may differ."""
    quantized = [isinstance(t, TensorType) and is_quantized(t.element_type) for t in types]
    require(all(quantized) or not any(quantized),
            f"operands and result must all be quantized or none, got {', '.join(map(str, types))}")


class UnaryElementwiseOp(PrettyOp):
    """`%r = hlo.<op> %x : T`; the result has the operand's type (abs of complex: its float part)."""

    ELEMENT_CLASS: ClassVar[str] = "any"
    operand = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure(), HloCanonicalization())

    def __init__(self, operand: SSAValue, result_type: Attribute | None = None):
        super().__init__(operands=[operand], result_types=[result_type or operand.type])

    def verify_(self) -> None:
        _same_quantization([self.operand.type, self.result.type])
        x = tensor(expressed_view(self.operand.type), "operand")
        r = tensor(expressed_view(self.result.type), "result")
        _check_element_class(x, self.ELEMENT_CLASS, "operand", self.operand.type)
        expected = x
        if self.name.endswith(".abs") and is_complex(x.element_type):
            assert isinstance(x.element_type, ComplexType)
            expected = TensorType(x.element_type.element_type, shape(x))
        require(r == expected, f"result type {r} must be {expected}")


class BinaryElementwiseOp(PrettyOp):
    """`%r = hlo.<op> %a, %b : T`: operands and result share one type."""

    ELEMENT_CLASS: ClassVar[str] = "any"
    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure(), HloCanonicalization())

    def __init__(self, lhs: SSAValue, rhs: SSAValue, result_type: Attribute | None = None):
        super().__init__(operands=[lhs, rhs], result_types=[result_type or lhs.type])

    def verify_(self) -> None:
        _same_quantization([self.lhs.type, self.rhs.type, self.result.type])
        a = tensor(expressed_view(self.lhs.type), "lhs")
        b = tensor(expressed_view(self.rhs.type), "rhs")
        r = tensor(expressed_view(self.result.type), "result")
        _check_element_class(a, self.ELEMENT_CLASS, "operands", self.lhs.type)
        require(a == b == r, f"operand types {a}, {b} and result type {r} must be equal")


# -- the unary and binary ops: one plain class each (the tables below are derived from them) --

@hlo_op("abs")
class AbsOp(UnaryElementwiseOp):
    """`hlo.abs` (StableHLO semantics)."""

    ELEMENT_CLASS = "signed_int_float_complex"


@hlo_op("negate")
class NegateOp(UnaryElementwiseOp):
    """`hlo.negate` (StableHLO semantics)."""

    ELEMENT_CLASS = "numeric"


@hlo_op("exponential")
class ExpOp(UnaryElementwiseOp):
    """`hlo.exponential` (StableHLO semantics)."""

    ELEMENT_CLASS = "float_or_complex"


@hlo_op("exponential_minus_one")
class Expm1Op(UnaryElementwiseOp):
    """`hlo.exponential_minus_one` (StableHLO semantics)."""

    ELEMENT_CLASS = "float_or_complex"


@hlo_op("log")
class LogOp(UnaryElementwiseOp):
    """`hlo.log` (StableHLO semantics)."""

    ELEMENT_CLASS = "float_or_complex"


@hlo_op("log_plus_one")
class Log1pOp(UnaryElementwiseOp):
    """`hlo.log_plus_one` (StableHLO semantics)."""

    ELEMENT_CLASS = "float_or_complex"


@hlo_op("sqrt")
class SqrtOp(UnaryElementwiseOp):
    """`hlo.sqrt` (StableHLO semantics)."""

    ELEMENT_CLASS = "float_or_complex"


@hlo_op("rsqrt")
class RsqrtOp(UnaryElementwiseOp):
    """`hlo.rsqrt` (StableHLO semantics)."""

    ELEMENT_CLASS = "float_or_complex"


@hlo_op("tanh")
class TanhOp(UnaryElementwiseOp):
    """`hlo.tanh` (StableHLO semantics)."""

    ELEMENT_CLASS = "float_or_complex"


@hlo_op("logistic")
class LogisticOp(UnaryElementwiseOp):
    """`hlo.logistic` (StableHLO semantics)."""

    ELEMENT_CLASS = "float_or_complex"


@hlo_op("sine")
class SineOp(UnaryElementwiseOp):
    """`hlo.sine` (StableHLO semantics)."""

    ELEMENT_CLASS = "float_or_complex"


@hlo_op("cosine")
class CosineOp(UnaryElementwiseOp):
    """`hlo.cosine` (StableHLO semantics)."""

    ELEMENT_CLASS = "float_or_complex"


@hlo_op("floor")
class FloorOp(UnaryElementwiseOp):
    """`hlo.floor` (StableHLO semantics)."""

    ELEMENT_CLASS = "float"


@hlo_op("ceil")
class CeilOp(UnaryElementwiseOp):
    """`hlo.ceil` (StableHLO semantics)."""

    ELEMENT_CLASS = "float"


@hlo_op("round_nearest_even")
class RoundNearestEvenOp(UnaryElementwiseOp):
    """`hlo.round_nearest_even` (StableHLO semantics)."""

    ELEMENT_CLASS = "float"


@hlo_op("sign")
class SignOp(UnaryElementwiseOp):
    """`hlo.sign` (StableHLO semantics)."""

    ELEMENT_CLASS = "signed_int_float_complex"


@hlo_op("not")
class NotOp(UnaryElementwiseOp):
    """`hlo.not` (StableHLO semantics)."""

    ELEMENT_CLASS = "bool_or_int"


@hlo_op("tan")
class TanOp(UnaryElementwiseOp):
    """`hlo.tan` (StableHLO semantics)."""

    ELEMENT_CLASS = "float_or_complex"


@hlo_op("cbrt")
class CbrtOp(UnaryElementwiseOp):
    """`hlo.cbrt` (StableHLO semantics)."""

    ELEMENT_CLASS = "float_or_complex"


@hlo_op("round_nearest_afz")
class RoundNearestAfzOp(UnaryElementwiseOp):
    """`hlo.round_nearest_afz`: ties away from zero (StableHLO semantics)."""

    ELEMENT_CLASS = "float"


@hlo_op("popcnt")
class PopcntOp(UnaryElementwiseOp):
    """`hlo.popcnt`: set bits of each integer (StableHLO semantics)."""

    ELEMENT_CLASS = "int"


@hlo_op("count_leading_zeros")
class CountLeadingZerosOp(UnaryElementwiseOp):
    """`hlo.count_leading_zeros` (StableHLO semantics)."""

    ELEMENT_CLASS = "int"


@hlo_op("add")
class AddOp(BinaryElementwiseOp):
    """`hlo.add` (StableHLO semantics)."""

    ELEMENT_CLASS = "any"


@hlo_op("subtract")
class SubtractOp(BinaryElementwiseOp):
    """`hlo.subtract` (StableHLO semantics)."""

    ELEMENT_CLASS = "numeric"


@hlo_op("multiply")
class MultiplyOp(BinaryElementwiseOp):
    """`hlo.multiply` (StableHLO semantics)."""

    ELEMENT_CLASS = "any"


@hlo_op("divide")
class DivideOp(BinaryElementwiseOp):
    """`hlo.divide` (StableHLO semantics)."""

    ELEMENT_CLASS = "numeric"


@hlo_op("remainder")
class RemainderOp(BinaryElementwiseOp):
    """`hlo.remainder` (StableHLO semantics)."""

    ELEMENT_CLASS = "numeric"


@hlo_op("power")
class PowerOp(BinaryElementwiseOp):
    """`hlo.power` (StableHLO semantics)."""

    ELEMENT_CLASS = "numeric"


@hlo_op("maximum")
class MaximumOp(BinaryElementwiseOp):
    """`hlo.maximum` (StableHLO semantics)."""

    ELEMENT_CLASS = "any"


@hlo_op("minimum")
class MinimumOp(BinaryElementwiseOp):
    """`hlo.minimum` (StableHLO semantics)."""

    ELEMENT_CLASS = "any"


@hlo_op("and")
class AndOp(BinaryElementwiseOp):
    """`hlo.and` (StableHLO semantics)."""

    ELEMENT_CLASS = "bool_or_int"


@hlo_op("or")
class OrOp(BinaryElementwiseOp):
    """`hlo.or` (StableHLO semantics)."""

    ELEMENT_CLASS = "bool_or_int"


@hlo_op("xor")
class XorOp(BinaryElementwiseOp):
    """`hlo.xor` (StableHLO semantics)."""

    ELEMENT_CLASS = "bool_or_int"


@hlo_op("atan2")
class Atan2Op(BinaryElementwiseOp):
    """`hlo.atan2` (StableHLO semantics)."""

    ELEMENT_CLASS = "float_or_complex"


@hlo_op("shift_left")
class ShiftLeftOp(BinaryElementwiseOp):
    """`hlo.shift_left` (StableHLO semantics)."""

    ELEMENT_CLASS = "int"


@hlo_op("shift_right_arithmetic")
class ShiftRightArithmeticOp(BinaryElementwiseOp):
    """`hlo.shift_right_arithmetic` (StableHLO semantics)."""

    ELEMENT_CLASS = "int"


@hlo_op("shift_right_logical")
class ShiftRightLogicalOp(BinaryElementwiseOp):
    """`hlo.shift_right_logical` (StableHLO semantics)."""

    ELEMENT_CLASS = "int"


#: mnemonic -> (class name, element class of the operands), derived from the classes above
UNARY_OPS: dict[str, tuple[str, str]] = {
    "abs": ("AbsOp", AbsOp.ELEMENT_CLASS),
    "negate": ("NegateOp", NegateOp.ELEMENT_CLASS),
    "exponential": ("ExpOp", ExpOp.ELEMENT_CLASS),
    "exponential_minus_one": ("Expm1Op", Expm1Op.ELEMENT_CLASS),
    "log": ("LogOp", LogOp.ELEMENT_CLASS),
    "log_plus_one": ("Log1pOp", Log1pOp.ELEMENT_CLASS),
    "sqrt": ("SqrtOp", SqrtOp.ELEMENT_CLASS),
    "rsqrt": ("RsqrtOp", RsqrtOp.ELEMENT_CLASS),
    "tanh": ("TanhOp", TanhOp.ELEMENT_CLASS),
    "logistic": ("LogisticOp", LogisticOp.ELEMENT_CLASS),
    "sine": ("SineOp", SineOp.ELEMENT_CLASS),
    "cosine": ("CosineOp", CosineOp.ELEMENT_CLASS),
    "floor": ("FloorOp", FloorOp.ELEMENT_CLASS),
    "ceil": ("CeilOp", CeilOp.ELEMENT_CLASS),
    "round_nearest_even": ("RoundNearestEvenOp", RoundNearestEvenOp.ELEMENT_CLASS),
    "sign": ("SignOp", SignOp.ELEMENT_CLASS),
    "not": ("NotOp", NotOp.ELEMENT_CLASS),
    "tan": ("TanOp", TanOp.ELEMENT_CLASS),
    "cbrt": ("CbrtOp", CbrtOp.ELEMENT_CLASS),
    "round_nearest_afz": ("RoundNearestAfzOp", RoundNearestAfzOp.ELEMENT_CLASS),
    "popcnt": ("PopcntOp", PopcntOp.ELEMENT_CLASS),
    "count_leading_zeros": ("CountLeadingZerosOp", CountLeadingZerosOp.ELEMENT_CLASS),
}
BINARY_OPS: dict[str, tuple[str, str]] = {
    "add": ("AddOp", AddOp.ELEMENT_CLASS),
    "subtract": ("SubtractOp", SubtractOp.ELEMENT_CLASS),
    "multiply": ("MultiplyOp", MultiplyOp.ELEMENT_CLASS),
    "divide": ("DivideOp", DivideOp.ELEMENT_CLASS),
    "remainder": ("RemainderOp", RemainderOp.ELEMENT_CLASS),
    "power": ("PowerOp", PowerOp.ELEMENT_CLASS),
    "maximum": ("MaximumOp", MaximumOp.ELEMENT_CLASS),
    "minimum": ("MinimumOp", MinimumOp.ELEMENT_CLASS),
    "and": ("AndOp", AndOp.ELEMENT_CLASS),
    "or": ("OrOp", OrOp.ELEMENT_CLASS),
    "xor": ("XorOp", XorOp.ELEMENT_CLASS),
    "atan2": ("Atan2Op", Atan2Op.ELEMENT_CLASS),
    "shift_left": ("ShiftLeftOp", ShiftLeftOp.ELEMENT_CLASS),
    "shift_right_arithmetic": ("ShiftRightArithmeticOp", ShiftRightArithmeticOp.ELEMENT_CLASS),
    "shift_right_logical": ("ShiftRightLogicalOp", ShiftRightLogicalOp.ELEMENT_CLASS),
}


def default_compare_type(element_type: Attribute) -> str:
    if is_float(element_type) or is_complex(element_type):
        return "FLOAT"
    if is_bool(element_type) or is_unsigned(element_type):
        return "UNSIGNED"
    return "SIGNED"


@hlo_op("compare")
class CompareOp(PrettyOp):
    """`%r = hlo.compare LT, %a, %b, SIGNED : (T, T) -> tensor<...xi1>`."""

    PRETTY_PROPS = ("comparison_direction", "compare_type")
    FUNCTIONAL_TYPE = True
    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    result = result_def(TensorType)
    comparison_direction = prop_def(ComparisonDirectionAttrBase)
    compare_type = opt_prop_def(ComparisonTypeAttrBase)
    traits = traits_def(Pure(), HloCanonicalization())

    @classmethod
    def parse_prefix(cls, parser: Parser) -> dict[str, Attribute]:
        attrs = cls._attrs()
        direction = attrs.comparison_direction(parser.parse_str_enum(attrs.comparison_direction.enum_type))
        parser.parse_punctuation(",")
        return {"comparison_direction": direction}

    @classmethod
    def parse_middle(cls, parser: Parser) -> dict[str, Attribute]:
        if parser.parse_optional_punctuation(","):
            attrs = cls._attrs()
            return {"compare_type": attrs.comparison_type(parser.parse_str_enum(attrs.comparison_type.enum_type))}
        return {}

    @classmethod
    def _attrs(cls):
        return attributes_for(cls.name)

    def print_prefix(self, printer: Printer) -> None:
        printer.print_string(f" {self.comparison_direction.data.value},")

    def print_middle(self, printer: Printer) -> None:
        if self.compare_type is not None:
            printer.print_string(f", {self.compare_type.data.value}")

    def verify_(self) -> None:
        a = tensor(self.lhs.type, "lhs")
        b = tensor(self.rhs.type, "rhs")
        r = tensor(self.result.type, "result")
        require(a == b, f"operand types {a} and {b} must be equal")
        require(r == TensorType(i1, shape(a)), f"result type {r} must be {TensorType(i1, shape(a))}")
        if self.compare_type is not None:
            ct = self.compare_type.data.value
            et = a.element_type
            allowed = {"FLOAT"} if is_complex(et) else {"FLOAT", "TOTALORDER"} if is_float(et) \
                else {"UNSIGNED"} if is_unsigned(et) else {"SIGNED", "UNSIGNED"} if is_bool(et) else {"SIGNED"}
            require(ct in allowed or ct == "NOTYPE",
                    f"compare_type {ct} is not valid for element type {et} (expected {' or '.join(sorted(allowed))})")


@hlo_op("select")
class SelectOp(PrettyOp):
    """`%r = hlo.select %pred, %t, %f : (tensor<i1>, T, T) -> T` (or `: tensor<i1>, T`)."""

    FUNCTIONAL_TYPE = True
    pred = operand_def(TensorType)
    on_true = operand_def(TensorType)
    on_false = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure(), HloCanonicalization())

    @classmethod
    def parse_types(cls, parser: Parser, n_operands: int):
        """Also accepts StableHLO's short form `: pred_type, result_type`."""
        first = parser.parse_type()
        if isinstance(first, FunctionType):
            return list(first.inputs.data), list(first.outputs.data)
        if parser.parse_optional_punctuation(","):
            value_type = parser.parse_type()
            return [first, value_type, value_type], [value_type]
        return [first] * 3, [first]

    def verify_(self) -> None:
        p = tensor(self.pred.type, "pred")
        t = tensor(self.on_true.type, "on_true")
        f = tensor(self.on_false.type, "on_false")
        r = tensor(self.result.type, "result")
        require(p.element_type == i1, f"pred must have element type i1, got {p}")
        require(t == f == r, f"on_true {t}, on_false {f} and result {r} must have the same type")
        require(shape(p) in ((), shape(t)), f"pred shape {list(shape(p))} must be [] or the operand shape {list(shape(t))}")


@hlo_op("clamp")
class ClampOp(PrettyOp):
    """`%r = hlo.clamp %min, %x, %max : (Tmin, T, Tmax) -> T`; min/max may be scalars."""

    min = operand_def(TensorType)
    operand = operand_def(TensorType)
    max = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure(), HloCanonicalization())

    def verify_(self) -> None:
        x = tensor(self.operand.type, "operand")
        r = tensor(self.result.type, "result")
        require(r == x, f"result type {r} must equal operand type {x}")
        for name in ("min", "max"):
            b = tensor(getattr(self, name).type, name)
            require(b.element_type == x.element_type,
                    f"{name} element type {b.element_type} must equal operand element type {x.element_type}")
            require(shape(b) in ((), shape(x)),
                    f"{name} shape {list(shape(b))} must be [] or the operand shape {list(shape(x))}")


@hlo_op("convert")
class ConvertOp(PrettyOp):
    """`%r = hlo.convert %x : (tensor<..xA>) -> tensor<..xB>`: elementwise type conversion."""

    operand = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure(), HloCanonicalization())

    def __init__(self, operand: SSAValue, result_type: Attribute):
        super().__init__(operands=[operand], result_types=[result_type])

    def verify_(self) -> None:
        x = tensor(self.operand.type, "operand")
        r = tensor(self.result.type, "result")
        require(shape(x) == shape(r), f"operand shape {list(shape(x))} and result shape {list(shape(r))} must match")


def bit_width(t: Attribute) -> int:
    if isinstance(t, IntegerType):
        return t.width.data
    if isinstance(t, ComplexType):
        return 2 * bit_width(t.element_type)
    return t.bitwidth  # type: ignore[attr-defined]


@hlo_op("bitcast_convert")
class BitcastConvertOp(PrettyOp):
    """Reinterpret bits; a narrower result type adds a trailing dimension (spec C2)."""

    operand = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure(), HloCanonicalization())

    def verify_(self) -> None:
        from minixla.dialects.quant import storage_view  # quantized values are their storage integers

        x = tensor(storage_view(self.operand.type), "operand")
        r = tensor(storage_view(self.result.type), "result")
        require(is_complex(x.element_type) == is_complex(r.element_type),
                f"operand {x} and result {r} must both be complex or both not (spec C2)")
        wx, wr = bit_width(x.element_type), bit_width(r.element_type)
        sx, sr = shape(x), shape(r)
        if wx == wr:
            ok = sx == sr
        elif wx > wr:
            ok = sr == sx + (wx // wr,)
        else:
            ok = sx == sr + (wr // wx,)
        require(ok, f"operand {x} cannot be bitcast to {r}: bit widths {wx} and {wr} need "
                    "equal shapes, or a trailing dimension of their ratio on the narrower side")


@hlo_op("reduce_precision")
class ReducePrecisionOp(PrettyOp):
    """`%r = hlo.reduce_precision %x, format = e5m10 : T`: round to a float format with
    `exponent_bits` and `mantissa_bits` (nearest even; overflow to inf), kept in T."""

    PRETTY_PROPS = ("exponent_bits", "mantissa_bits")
    operand = operand_def(TensorType)
    result = result_def(TensorType)
    exponent_bits = prop_def(IntegerAttr)
    mantissa_bits = prop_def(IntegerAttr)
    traits = traits_def(Pure(), HloCanonicalization())

    @classmethod
    def parse_middle(cls, parser: Parser) -> dict[str, Attribute]:
        parser.parse_punctuation(",")
        parser.parse_keyword("format")
        parser.parse_punctuation("=")
        pos = parser.pos
        text = parser.parse_identifier()
        match = re.fullmatch(r"e(\d+)m(\d+)", text)
        if match is None:
            parser.raise_error(f"expected a format like e5m10, got {text!r}", pos, parser.pos)
        return {"exponent_bits": IntegerAttr(int(match[1]), i32), "mantissa_bits": IntegerAttr(int(match[2]), i32)}

    def print_middle(self, printer: Printer) -> None:
        printer.print_string(f", format = e{self.exponent_bits.value.data}m{self.mantissa_bits.value.data}")

    def verify_(self) -> None:
        x = tensor(self.operand.type, "operand")
        r = tensor(self.result.type, "result")
        _check_element_class(x, "float", "operand")
        require(r == x, f"result type {r} must equal operand type {x}")
        require(self.exponent_bits.value.data >= 1, f"exponent_bits must be >= 1, got {self.exponent_bits.value.data}")
        require(self.mantissa_bits.value.data >= 0, f"mantissa_bits must be >= 0, got {self.mantissa_bits.value.data}")


@hlo_op("is_finite")
class IsFiniteOp(PrettyOp):
    """`%r = hlo.is_finite %x : (tensor<..xf32>) -> tensor<..xi1>`."""

    FUNCTIONAL_TYPE = True
    x = operand_def(TensorType)
    y = result_def(TensorType)
    traits = traits_def(Pure(), HloCanonicalization())

    def verify_(self) -> None:
        x = tensor(self.x.type, "operand")
        r = tensor(self.y.type, "result")
        _check_element_class(x, "float", "operand")
        require(r == TensorType(i1, shape(x)), f"result type {r} must be {TensorType(i1, shape(x))}")
