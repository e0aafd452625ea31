"""Elementwise ops, generated from one table each for unary and binary ops,
plus compare, select, clamp, convert, bitcast_convert and is_finite."""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import ComplexType, FunctionType, IntegerType, TensorType, i1
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import operand_def, opt_prop_def, prop_def, result_def, traits_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure

from minixla.dialects.hlo_ops.attrs import ComparisonDirectionAttrBase, ComparisonTypeAttrBase, attributes_for
from minixla.dialects.hlo_ops.base import ELEMENT_CLASS_TEXT, ELEMENT_CLASSES, hlo_op, is_bool, is_complex, is_float, is_unsigned, require, shape, tensor
from minixla.dialects.hlo_ops.pretty import PrettyOp

# mnemonic -> (class name, element class of the operands)
UNARY_OPS: dict[str, tuple[str, str]] = {
    "abs": ("AbsOp", "signed_int_float_complex"),
    "negate": ("NegateOp", "numeric"),
    "exponential": ("ExpOp", "float_or_complex"),
    "exponential_minus_one": ("Expm1Op", "float_or_complex"),
    "log": ("LogOp", "float_or_complex"),
    "log_plus_one": ("Log1pOp", "float_or_complex"),
    "sqrt": ("SqrtOp", "float_or_complex"),
    "rsqrt": ("RsqrtOp", "float_or_complex"),
    "tanh": ("TanhOp", "float_or_complex"),
    "logistic": ("LogisticOp", "float_or_complex"),
    "sine": ("SineOp", "float_or_complex"),
    "cosine": ("CosineOp", "float_or_complex"),
    "floor": ("FloorOp", "float"),
    "ceil": ("CeilOp", "float"),
    "round_nearest_even": ("RoundNearestEvenOp", "float"),
    "sign": ("SignOp", "signed_int_float_complex"),
    "not": ("NotOp", "bool_or_int"),
}

BINARY_OPS: dict[str, tuple[str, str]] = {
    "add": ("AddOp", "any"),
    "subtract": ("SubtractOp", "numeric"),
    "multiply": ("MultiplyOp", "any"),
    "divide": ("DivideOp", "numeric"),
    "remainder": ("RemainderOp", "numeric"),
    "power": ("PowerOp", "numeric"),
    "maximum": ("MaximumOp", "any"),
    "minimum": ("MinimumOp", "any"),
    "and": ("AndOp", "bool_or_int"),
    "or": ("OrOp", "bool_or_int"),
    "xor": ("XorOp", "bool_or_int"),
    "atan2": ("Atan2Op", "float_or_complex"),
    "shift_left": ("ShiftLeftOp", "int"),
    "shift_right_arithmetic": ("ShiftRightArithmeticOp", "int"),
    "shift_right_logical": ("ShiftRightLogicalOp", "int"),
}


def _check_element_class(t: TensorType, cls_name: str, what: str) -> None:
    require(ELEMENT_CLASSES[cls_name](t.element_type),
            f"{what} must have {ELEMENT_CLASS_TEXT[cls_name]}, got {t}")


class UnaryElementwiseOp(PrettyOp):
    """`%r = hlo.<op> %x : T`; the result has the operand's type (abs of complex: its float part)."""

    ELEMENT_CLASS: ClassVar[str] = "any"
    operand = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def __init__(self, operand: SSAValue, result_type: Attribute | None = None):
        super().__init__(operands=[operand], result_types=[result_type or operand.type])

    def verify_(self) -> None:
        x = tensor(self.operand.type, "operand")
        r = tensor(self.result.type, "result")
        _check_element_class(x, self.ELEMENT_CLASS, "operand")
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
    traits = traits_def(Pure())

    def __init__(self, lhs: SSAValue, rhs: SSAValue, result_type: Attribute | None = None):
        super().__init__(operands=[lhs, rhs], result_types=[result_type or lhs.type])

    def verify_(self) -> None:
        a = tensor(self.lhs.type, "lhs")
        b = tensor(self.rhs.type, "rhs")
        r = tensor(self.result.type, "result")
        _check_element_class(a, self.ELEMENT_CLASS, "operands")
        require(a == b == r, f"operand types {a}, {b} and result type {r} must be equal")


def _generate(table: dict[str, tuple[str, str]], base: type) -> dict[str, type]:
    made = {}
    for mnemonic, (cls_name, element_class) in table.items():
        raw = type(cls_name, (base,), {"ELEMENT_CLASS": element_class, "__module__": __name__,
                                       "__doc__": f"`hlo.{mnemonic}` (StableHLO semantics)."})
        made[cls_name] = hlo_op(mnemonic)(raw)
    return made


globals().update(_generate(UNARY_OPS, UnaryElementwiseOp))
globals().update(_generate(BINARY_OPS, BinaryElementwiseOp))


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
    traits = traits_def(Pure())

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
    traits = traits_def(Pure())

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
    traits = traits_def(Pure())

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
    traits = traits_def(Pure())

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
    traits = traits_def(Pure())

    def verify_(self) -> None:
        x = tensor(self.operand.type, "operand")
        r = tensor(self.result.type, "result")
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


@hlo_op("is_finite")
class IsFiniteOp(PrettyOp):
    """`%r = hlo.is_finite %x : (tensor<..xf32>) -> tensor<..xi1>`."""

    FUNCTIONAL_TYPE = True
    x = operand_def(TensorType)
    y = result_def(TensorType)
    traits = traits_def(Pure())

    def verify_(self) -> None:
        x = tensor(self.x.type, "operand")
        r = tensor(self.y.type, "result")
        _check_element_class(x, "float", "operand")
        require(r == TensorType(i1, shape(x)), f"result type {r} must be {TensorType(i1, shape(x))}")
