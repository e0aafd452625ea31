"""The `check` dialect: StableHLO's test assertions (CheckOps.td), so the
StableHLO interpreter test files run unchanged. Backends implement them; a
failed check makes `minixla-run` exit non-zero."""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, FloatAttr, IntegerAttr, StringAttr, TensorType, f64, i64
from xdsl.ir import Attribute, Dialect
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, opt_prop_def, prop_def
from xdsl.parser import Parser
from xdsl.printer import Printer

from minixla.dialects.hlo_ops.base import ELEMENT_CLASSES, require, tensor


def _float_or_complex(t: TensorType, what: str) -> None:
    require(ELEMENT_CLASSES["float_or_complex"](t.element_type),
            f"{what} must have a floating-point or complex element type, got {t}")


def _parse_tolerance(parser: Parser) -> dict[str, Attribute]:
    """`, tolerance = 0.1` with an optional `: f64`."""
    if parser.parse_optional_punctuation(",") is None:
        return {}
    parser.parse_keyword("tolerance")
    parser.parse_punctuation("=")
    value = parser.parse_float()
    return {"tolerance": FloatAttr(value, f64)}


def _print_tolerance(printer: Printer, op: IRDLOperation) -> None:
    tol = op.properties.get("tolerance")
    if tol is not None:
        printer.print_string(f", tolerance = {_float_literal(tol.value.data)}")


def _float_literal(value: float) -> str:
    """repr() may give `1e-05`; MLIR float literals need a `.` before the exponent."""
    text = repr(value)
    return text.replace("e", ".0e") if "." not in text and "e" in text else text


def _route(props: dict[str, Attribute], attrs: dict[str, Attribute]):
    """StableHLO may spell the tolerance in the attribute dictionary: make it a property."""
    attrs = dict(attrs)
    for key in ("tolerance", "max_ulp_difference", "min_ulp_difference"):
        if key in attrs:
            props[key] = attrs.pop(key)
    return props, attrs


def _parse_tail_type(parser: Parser) -> Attribute:
    """`: T`, skipping the `: f64` StableHLO may print after a tolerance."""
    parser.parse_punctuation(":")
    t = parser.parse_type()
    if t == f64 and parser.parse_optional_punctuation(":"):
        t = parser.parse_type()
    return t


@irdl_op_definition
class ExpectEqOp(IRDLOperation):
    """`check.expect_eq %a, %b : T`: exact equality."""

    name = "check.expect_eq"
    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)

    @classmethod
    def parse(cls, parser: Parser):
        a = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        b = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        t = _parse_tail_type(parser)
        return cls.create(operands=[parser.resolve_operand(a, t), parser.resolve_operand(b, t)], attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.lhs.type)

    def verify_(self) -> None:
        a, b = tensor(self.lhs.type, "lhs"), tensor(self.rhs.type, "rhs")
        require(a == b, f"operand types {a} and {b} must be equal")


@irdl_op_definition
class ExpectAlmostEqOp(IRDLOperation):
    """`check.expect_almost_eq %a, %b, tolerance = 0.001 : T` (default tolerance 1e-4)."""

    name = "check.expect_almost_eq"
    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    tolerance = opt_prop_def(FloatAttr)

    @classmethod
    def parse(cls, parser: Parser):
        a = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        b = parser.parse_unresolved_operand()
        props = _parse_tolerance(parser)
        props, attrs = _route(props, parser.parse_optional_attr_dict())
        t = _parse_tail_type(parser)
        return cls.create(operands=[parser.resolve_operand(a, t), parser.resolve_operand(b, t)],
                          properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        _print_tolerance(printer, self)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.lhs.type)

    def verify_(self) -> None:
        a, b = tensor(self.lhs.type, "lhs"), tensor(self.rhs.type, "rhs")
        require(a == b, f"operand types {a} and {b} must be equal")
        _float_or_complex(a, "operands")


class _ConstCheck(IRDLOperation):
    """`check.<op> %x, dense<...> : T`: compare against a constant of the same type."""

    lhs = operand_def(TensorType)
    value = prop_def(DenseIntOrFPElementsAttr)
    HAS_TOLERANCE: ClassVar[bool] = False

    @classmethod
    def parse(cls, parser: Parser):
        a = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        pos = parser.pos
        value = parser.parse_attribute()
        if not isinstance(value, DenseIntOrFPElementsAttr):
            parser.raise_error(f"expected a dense elements attribute, got {value}", pos, parser.pos)
        props: dict[str, Attribute] = {"value": value}
        if cls.HAS_TOLERANCE:
            props.update(_parse_tolerance(parser))
        props, attrs = _route(props, parser.parse_optional_attr_dict())
        return cls.create(operands=[parser.resolve_operand(a, value.type)], properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.lhs)
        printer.print_string(", ")
        printer.print_attribute(self.value)
        _print_tolerance(printer, self)
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        a = tensor(self.lhs.type, "lhs")
        require(self.value.type == a, f"constant type {self.value.type} must equal operand type {a}")
        if self.HAS_TOLERANCE:
            _float_or_complex(a, "operand")


@irdl_op_definition
class ExpectEqConstOp(_ConstCheck):
    name = "check.expect_eq_const"
    HAS_TOLERANCE: ClassVar[bool] = False


@irdl_op_definition
class ExpectAlmostEqConstOp(_ConstCheck):
    name = "check.expect_almost_eq_const"
    tolerance = opt_prop_def(FloatAttr)
    HAS_TOLERANCE: ClassVar[bool] = True


@irdl_op_definition
class ExpectCloseOp(IRDLOperation):
    """`check.expect_close %a, %b, max_ulp_difference = 3[, min_ulp_difference = 0] : T, T`."""

    name = "check.expect_close"
    actual = operand_def(TensorType)
    expected = operand_def(TensorType)
    max_ulp_difference = opt_prop_def(IntegerAttr)
    min_ulp_difference = opt_prop_def(IntegerAttr)

    @classmethod
    def parse(cls, parser: Parser):
        a = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        b = parser.parse_unresolved_operand()
        props: dict[str, Attribute] = {}
        while parser.parse_optional_punctuation(","):
            key = parser.parse_keyword_in(("max_ulp_difference", "min_ulp_difference"))
            parser.parse_punctuation("=")
            props[key] = IntegerAttr(parser.parse_integer(), i64)
        parser.parse_punctuation(":")
        props, attrs = _route(props, parser.parse_optional_attr_dict())
        ta = parser.parse_type()
        parser.parse_punctuation(",")
        tb = parser.parse_type()
        return cls.create(operands=[parser.resolve_operand(a, ta), parser.resolve_operand(b, tb)],
                          properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        for key in ("max_ulp_difference", "min_ulp_difference"):
            if (v := self.properties.get(key)) is not None:
                printer.print_string(f", {key} = {v.value.data}")
        printer.print_string(" :")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" ")
        printer.print_list([self.actual.type, self.expected.type], printer.print_attribute)

    def verify_(self) -> None:
        a, b = tensor(self.actual.type, "actual"), tensor(self.expected.type, "expected")
        require(a == b, f"operand types {a} and {b} must be equal")
        _float_or_complex(a, "operands")


@irdl_op_definition
class ExpectSerializedEqOp(IRDLOperation):
    """`check.expect_serialized_eq %x, probe_id = "id"[, iter = n] : T`: %x equals, bit for bit, the value
    the n-th execution (default 0) of `interpreter.probe ..., probe_id = "id"` recorded."""

    name = "check.expect_serialized_eq"
    expected = operand_def(TensorType)
    probe_id = prop_def(StringAttr)
    iter = opt_prop_def(IntegerAttr)

    @classmethod
    def parse(cls, parser: Parser):
        x = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        parser.parse_keyword("probe_id")
        parser.parse_punctuation("=")
        props: dict[str, Attribute] = {"probe_id": StringAttr(parser.parse_str_literal())}
        if parser.parse_optional_punctuation(","):
            parser.parse_keyword("iter")
            parser.parse_punctuation("=")
            props["iter"] = IntegerAttr(parser.parse_integer(allow_negative=False), i64)
        attrs = parser.parse_optional_attr_dict()
        t = _parse_tail_type(parser)
        return cls.create(operands=[parser.resolve_operand(x, t)], properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.expected)
        printer.print_string(", probe_id = ")
        printer.print_string_literal(self.probe_id.data)
        if self.iter is not None:
            printer.print_string(f", iter = {self.iter.value.data}")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.expected.type)

    def verify_(self) -> None:
        tensor(self.expected.type, "operand")


CHECK = Dialect("check", [ExpectEqOp, ExpectEqConstOp, ExpectAlmostEqOp, ExpectAlmostEqConstOp, ExpectCloseOp,
                          ExpectSerializedEqOp])
