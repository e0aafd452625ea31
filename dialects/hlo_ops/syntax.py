"""Parsing/printing pieces of StableHLO's pretty syntax, shared by the op classes.

StableHLO prints a type signature either as one type (when every operand and
result has that type) or as a function type; `[1, 2]` integer lists after a
keyword (`dims = [1, 0]`); and an optional attribute dictionary before `:`.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import DenseArrayBase, FunctionType, IntegerAttr, i64
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer


def parse_operands(parser: Parser) -> list[UnresolvedOperand]:
    """`%a, %b, ...` (possibly empty)."""
    first = parser.parse_optional_unresolved_operand()
    if first is None:
        return []
    ops = [first]
    while True:
        before_comma = parser.pos
        if parser.parse_optional_punctuation(",") is None:
            break
        nxt = parser.parse_optional_unresolved_operand()
        if nxt is None:  # a keyword follows (e.g. `, dims = [...]`): hand the comma back
            parser._resume_from(before_comma)  # noqa: SLF001
            break
        ops.append(nxt)
    return ops


def parse_signature(parser: Parser, n_operands: int) -> tuple[list[Attribute], list[Attribute]]:
    """After `:`: a function type, or one type shared by every operand and the result,
    or a comma list of types shared pairwise by operands and results."""
    pos = parser.pos
    t = parser.parse_type()
    if isinstance(t, FunctionType):
        return list(t.inputs.data), list(t.outputs.data)
    types = [t]
    while parser.parse_optional_punctuation(","):
        types.append(parser.parse_type())
    if len(types) == 1:
        return [t] * n_operands, [t]
    if len(types) != n_operands:
        parser.raise_error(f"expected {n_operands} types, got {len(types)}", pos, parser.pos)
    return types, list(types)


def resolve(parser: Parser, operands: Sequence[UnresolvedOperand], types: Sequence[Attribute],
            pos: int) -> list[SSAValue]:
    if len(operands) != len(types):
        parser.raise_error(
            f"{len(operands)} operands but {len(types)} operand types in the signature", pos, parser.pos)
    return [parser.resolve_operand(o, t) for o, t in zip(operands, types)]


def print_signature(printer: Printer, op: Operation, *, functional: bool = False) -> None:
    """Print ` : T` when all operand/result types agree, else ` : (Ts) -> R`."""
    in_types = [o.type for o in op.operands]
    out_types = [r.type for r in op.results]
    printer.print_string(" : ")
    every = in_types + out_types
    if not functional and len(out_types) == 1 and every and all(t == every[0] for t in every):
        printer.print_attribute(every[0])
        return
    printer.print_function_type(in_types, out_types)


def print_operands(printer: Printer, values: Sequence[SSAValue]) -> None:
    printer.print_list(values, printer.print_operand)


def parse_int_list(parser: Parser) -> list[int]:
    """`[1, 2, 3]` or `[]`."""
    return parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_integer)


def print_int_list(printer: Printer, values: Sequence[int]) -> None:
    printer.print_string("[" + ", ".join(str(v) for v in values) + "]")


def parse_keyword_ints(parser: Parser, keyword: str) -> list[int]:
    """`keyword = [ints]`."""
    parser.parse_keyword(keyword)
    parser.parse_punctuation("=")
    return parse_int_list(parser)


def i64_array(values: Sequence[int]) -> DenseArrayBase:
    return DenseArrayBase.from_list(i64, list(values))


def i64_attr(value: int) -> IntegerAttr:
    return IntegerAttr(value, i64)


def parse_trailing(parser: Parser, reserved: Sequence[str] = ()) -> dict[str, Attribute]:
    """The optional attribute dictionary before the `:` of a pretty op."""
    attrs = parser.parse_optional_attr_dict_with_reserved_attr_names(reserved)
    return dict(attrs.data) if attrs is not None else {}


def print_trailing(printer: Printer, op: Operation, elided: Sequence[str]) -> None:
    """Attributes and properties not spelled by the pretty syntax go in `{...}`."""
    extra = {k: v for k, v in op.properties.items() if k not in elided}
    extra.update({k: v for k, v in op.attributes.items() if k not in elided})
    if extra:
        printer.print_string(" ")
        printer.print_attr_dict(extra)


def split_props(op_cls: type[Operation], attrs: dict[str, Attribute]) -> tuple[dict[str, Attribute], dict[str, Attribute]]:
    """Route parsed dictionary entries to properties when the op defines them."""
    prop_names = set(op_cls.get_irdl_definition().properties) if hasattr(op_cls, "get_irdl_definition") else set()
    props = {k: v for k, v in attrs.items() if k in prop_names}
    rest = {k: v for k, v in attrs.items() if k not in prop_names}
    return props, rest
