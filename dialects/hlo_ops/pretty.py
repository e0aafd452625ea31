"""`PrettyOp`: the common pretty form `hlo.op <prefix> %a, %b<middle> {attrs} : <types>`.

Most StableHLO ops print their operands, a few keyword items and a type
signature; subclasses describe only the keyword items via the hooks below.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.ir import Attribute
from xdsl.irdl import IRDLOperation
from xdsl.parser import Parser
from xdsl.printer import Printer

from minixla.dialects.hlo_ops.syntax import i64_array, i64_attr, parse_int_list, parse_operands, parse_signature, parse_trailing, print_operands, print_signature, print_trailing, resolve, split_props


class PrettyOp(IRDLOperation):
    #: property names spelled by the prefix/middle hooks (not repeated in `{...}`)
    PRETTY_PROPS: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        if cls.KEYWORD_PROPS and not cls.PRETTY_PROPS:
            cls.PRETTY_PROPS = tuple(p for _, p, _ in cls.KEYWORD_PROPS)
    #: always print `(operand types) -> result types`
    FUNCTIONAL_TYPE: ClassVar[bool] = False
    #: `, keyword = value` items after the operands: (keyword, property, "ints" | "int")
    KEYWORD_PROPS: ClassVar[tuple[tuple[str, str, str], ...]] = ()

    @classmethod
    def parse_prefix(cls, parser: Parser) -> dict[str, Attribute]:
        return {}

    @classmethod
    def parse_middle(cls, parser: Parser) -> dict[str, Attribute]:
        props: dict[str, Attribute] = {}
        for keyword, prop, kind in cls.KEYWORD_PROPS:
            parser.parse_optional_punctuation(",")
            parser.parse_keyword(keyword)
            parser.parse_punctuation("=")
            props[prop] = i64_array(parse_int_list(parser)) if kind == "ints" else i64_attr(parser.parse_integer())
        return props

    @classmethod
    def parse_types(cls, parser: Parser, n_operands: int) -> tuple[list[Attribute], list[Attribute]]:
        return parse_signature(parser, n_operands)

    def print_prefix(self, printer: Printer) -> None:
        pass

    def print_middle(self, printer: Printer) -> None:
        for i, (keyword, prop, kind) in enumerate(self.KEYWORD_PROPS):
            value = self.properties[prop]
            text = ", ".join(str(v) for v in value.get_values()) if kind == "ints" else str(value.value.data)
            sep = "," if self.operands or i else ""
            printer.print_string(f"{sep} {keyword} = [{text}]" if kind == "ints" else f"{sep} {keyword} = {text}")

    def print_types(self, printer: Printer) -> None:
        print_signature(printer, self, functional=self.FUNCTIONAL_TYPE)

    @classmethod
    def parse(cls, parser: Parser):
        start = parser.pos
        props = cls.parse_prefix(parser)
        operands = parse_operands(parser)
        props.update(cls.parse_middle(parser))
        attrs = parse_trailing(parser, cls.PRETTY_PROPS)
        parser.parse_punctuation(":")
        in_types, out_types = cls.parse_types(parser, len(operands))
        values = resolve(parser, operands, in_types, start)
        dict_props, rest = split_props(cls, attrs)
        props.update(dict_props)
        return cls.create(operands=values, result_types=out_types, properties=props, attributes=rest)

    def print(self, printer: Printer) -> None:
        self.print_prefix(printer)
        if self.operands:
            printer.print_string(" ")
            print_operands(printer, self.operands)
        self.print_middle(printer)
        print_trailing(printer, self, self.PRETTY_PROPS)
        self.print_types(printer)
