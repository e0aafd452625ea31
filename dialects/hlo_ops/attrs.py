"""Attributes of the `hlo` dialect (and their `stablehlo` twins).

Enums print in MLIR's opaque form (`#hlo<comparison_direction LT>`); the
dimension-number structs print as `#hlo.gather<offset_dims = [1], ...>` and
`#hlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>` exactly as StableHLO
does. Every attribute is defined once and instantiated per dialect prefix by
`define_attributes(prefix)`; code that inspects attributes tests against the
prefix-independent base classes exported here.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import ClassVar

from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, Data, ParametrizedAttribute, SpacedOpaqueSyntaxAttribute, TypeAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.str_enum import StrEnum


class ComparisonDirection(StrEnum):
    EQ = "EQ"
    NE = "NE"
    GE = "GE"
    GT = "GT"
    LE = "LE"
    LT = "LT"


class ComparisonType(StrEnum):
    NOTYPE = "NOTYPE"
    FLOAT = "FLOAT"
    TOTALORDER = "TOTALORDER"
    SIGNED = "SIGNED"
    UNSIGNED = "UNSIGNED"


class Precision(StrEnum):
    DEFAULT = "DEFAULT"
    HIGH = "HIGH"
    HIGHEST = "HIGHEST"


class RngAlgorithm(StrEnum):
    DEFAULT = "DEFAULT"
    THREE_FRY = "THREE_FRY"
    PHILOX = "PHILOX"


class FftType(StrEnum):
    FFT = "FFT"
    IFFT = "IFFT"
    RFFT = "RFFT"
    IRFFT = "IRFFT"


# ---------------------------------------------------------------------------
# Base classes (prefix independent): isinstance() checks use these.
# ---------------------------------------------------------------------------


class ComparisonDirectionAttrBase(Attribute):
    """Marker base of `ComparisonDirection` enum attributes; `.data` is a `ComparisonDirection`."""

    enum_type = ComparisonDirection


class ComparisonTypeAttrBase(Attribute):
    """Marker base of `ComparisonType` enum attributes; `.data` is a `ComparisonType`."""

    enum_type = ComparisonType


class PrecisionAttrBase(Attribute):
    """Marker base of `Precision` enum attributes; `.data` is a `Precision`."""

    enum_type = Precision


class RngAlgorithmAttrBase(Attribute):
    """Marker base of `RngAlgorithm` enum attributes; `.data` is a `RngAlgorithm`."""

    enum_type = RngAlgorithm


class FftTypeAttrBase(Attribute):
    """Marker base of `FftType` enum attributes; `.data` is a `FftType`."""

    enum_type = FftType


class StructAttr(Data[tuple]):
    """A record of named integer lists / integers, printed as `<a = [1], b = 2>`.

    Subclasses list their fields in FIELDS as (name, is_list); each field is
    readable as a Python attribute (a tuple of ints, or an int).
    Fields that are empty lists are omitted when printing, as StableHLO does.
    """

    FIELDS: ClassVar[tuple[tuple[str, bool], ...]] = ()

    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        for i, (fname, _) in enumerate(cls.FIELDS):
            setattr(cls, fname, property(lambda self, i=i: self.data[i]))

    @classmethod
    def get(cls, **values):
        """Build from keyword fields; missing lists are empty, missing ints 0."""
        unknown = set(values) - {f for f, _ in cls.FIELDS}
        if unknown:
            raise TypeError(f"unknown fields {sorted(unknown)} for {cls.__name__}")
        return cls(tuple(tuple(values.get(f, ())) if is_list else int(values.get(f, 0))
                         for f, is_list in cls.FIELDS))

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> tuple:
        values: dict[str, object] = {}
        names = {f: is_list for f, is_list in cls.FIELDS}
        parser.parse_punctuation("<")

        def entry() -> None:
            pos = parser.pos
            name = parser.parse_identifier()
            if name not in names:
                parser.raise_error(
                    f"unknown field '{name}'; expected one of {', '.join(names)}", pos, parser.pos)
            if name in values:
                parser.raise_error(f"field '{name}' given twice", pos, parser.pos)
            parser.parse_punctuation("=")
            if names[name]:
                values[name] = tuple(parser.parse_comma_separated_list(
                    parser.Delimiter.SQUARE, parser.parse_integer))
            else:
                values[name] = parser.parse_integer()

        if parser.parse_optional_punctuation(">") is None:
            entry()
            while parser.parse_optional_punctuation(","):
                entry()
            parser.parse_punctuation(">")
        return tuple(values.get(f, ()) if is_list else int(values.get(f, 0))  # type: ignore[arg-type]
                     for f, is_list in cls.FIELDS)

    def print_parameter(self, printer: Printer) -> None:
        parts = []
        for (fname, is_list), v in zip(self.FIELDS, self.data):
            if is_list:
                if v:
                    parts.append(f"{fname} = [{', '.join(str(x) for x in v)}]")
            else:
                parts.append(f"{fname} = {v}")
        printer.print_string("<" + ", ".join(parts) + ">")


class GatherDimensionNumbersBase(StructAttr):
    FIELDS = (("offset_dims", True), ("collapsed_slice_dims", True), ("operand_batching_dims", True),
              ("start_indices_batching_dims", True), ("start_index_map", True), ("index_vector_dim", False))


class ScatterDimensionNumbersBase(StructAttr):
    FIELDS = (("update_window_dims", True), ("inserted_window_dims", True), ("input_batching_dims", True),
              ("scatter_indices_batching_dims", True), ("scatter_dims_to_operand_dims", True),
              ("index_vector_dim", False))


class DotDimensionNumbersBase(StructAttr):
    FIELDS = (("lhs_batching_dimensions", True), ("rhs_batching_dimensions", True),
              ("lhs_contracting_dimensions", True), ("rhs_contracting_dimensions", True))


class ChannelHandleBase(StructAttr):
    FIELDS = (("handle", False), ("type", False))


class TokenTypeBase(ParametrizedAttribute, TypeAttribute):
    """`!hlo.token`: orders side effects (send/recv, infeed/outfeed, after_all); carries no data."""


class ConvDimensionNumbersBase(Data[tuple]):
    """`[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]`: data is
    (input_batch, input_feature, input_spatial, kernel_in, kernel_out, kernel_spatial,
     output_batch, output_feature, output_spatial)."""

    FIELD_NAMES = ("input_batch_dimension", "input_feature_dimension", "input_spatial_dimensions",
                   "kernel_input_feature_dimension", "kernel_output_feature_dimension",
                   "kernel_spatial_dimensions", "output_batch_dimension", "output_feature_dimension",
                   "output_spatial_dimensions")

    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        for i, fname in enumerate(cls.FIELD_NAMES):
            setattr(cls, fname, property(lambda self, i=i: self.data[i]))

    @classmethod
    def get(cls, **values):
        return cls(tuple(tuple(values[f]) if f.endswith("dimensions") and "spatial" in f else int(values[f])
                         for f in cls.FIELD_NAMES))

    @staticmethod
    def parse_layouts(parser: AttrParser) -> tuple:
        """Parse the `[b, 0, f]x[0, i, o]->[b, 0, f]` body."""

        def layout(letters: tuple[str, str]) -> tuple[int, int, tuple[int, ...]]:
            pos = parser.pos
            items: list[str | int] = parser.parse_comma_separated_list(
                parser.Delimiter.SQUARE,
                lambda: parser.parse_optional_integer() if parser._current_token.text[0].isdigit()  # noqa: SLF001
                else parser.parse_identifier())
            a, b = letters
            if items.count(a) != 1 or items.count(b) != 1:
                parser.raise_error(f"convolution layout must name '{a}' and '{b}' exactly once", pos, parser.pos)
            spatial = [x for x in items if isinstance(x, int)]
            if len(spatial) + 2 != len(items) or sorted(spatial) != list(range(len(spatial))):
                parser.raise_error(
                    f"convolution layout must hold '{a}', '{b}' and spatial dims 0..N-1, got {items}", pos, parser.pos)
            spatial_pos = tuple(items.index(s) for s in range(len(spatial)))
            return items.index(a), items.index(b), spatial_pos

        ib, if_, isp = layout(("b", "f"))
        parser.parse_keyword("x")
        ki, ko, ksp = layout(("i", "o"))
        parser.parse_punctuation("->")
        ob, of, osp = layout(("b", "f"))
        return (ib, if_, isp, ki, ko, ksp, ob, of, osp)

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> tuple:
        parser.parse_punctuation("<")
        data = cls.parse_layouts(parser)
        parser.parse_punctuation(">")
        return data

    def layouts_text(self) -> str:
        ib, if_, isp, ki, ko, ksp, ob, of, osp = self.data

        def layout(a: int, b: int, sp: tuple[int, ...], la: str, lb: str) -> str:
            items = [""] * (len(sp) + 2)
            items[a], items[b] = la, lb
            for s, p in enumerate(sp):
                items[p] = str(s)
            return "[" + ", ".join(items) + "]"

        return (layout(ib, if_, isp, "b", "f") + "x" + layout(ki, ko, ksp, "i", "o") + "->"
                + layout(ob, of, osp, "b", "f"))

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string("<" + self.layouts_text() + ">")


class DotAlgorithmBase(Data[tuple]):
    """`<lhs_precision_type = tf32, ..., allow_imprecise_accumulation = false>`: how a
    dot_general should be computed (a precision contract, not a result change)."""

    FIELDS = (("lhs_precision_type", "type"), ("rhs_precision_type", "type"), ("accumulation_type", "type"),
              ("lhs_component_count", "int"), ("rhs_component_count", "int"),
              ("num_primitive_operations", "int"), ("allow_imprecise_accumulation", "bool"))

    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        for i, (fname, _) in enumerate(cls.FIELDS):
            setattr(cls, fname, property(lambda self, i=i: self.data[i]))

    @classmethod
    def parse_body(cls, parser: AttrParser) -> tuple:
        """The `<...>` part (also used by dot_general's pretty `algorithm = <...>`)."""
        kinds = dict(cls.FIELDS)
        values: dict[str, object] = {}
        parser.parse_punctuation("<")
        while True:
            pos = parser.pos
            name = parser.parse_identifier()
            if name not in kinds or name in values:
                parser.raise_error(f"unexpected or repeated field '{name}' in a dot algorithm", pos, parser.pos)
            parser.parse_punctuation("=")
            kind = kinds[name]
            values[name] = parser.parse_type() if kind == "type" else parser.parse_integer() if kind == "int" \
                else parser.parse_boolean()
            if parser.parse_optional_punctuation(",") is None:
                break
        parser.parse_punctuation(">")
        missing = [f for f, _ in cls.FIELDS if f not in values]
        if missing:
            parser.raise_error(f"dot algorithm is missing {', '.join(missing)}")
        return tuple(values[f] for f, _ in cls.FIELDS)

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> tuple:
        return cls.parse_body(parser)

    def body_text(self) -> str:
        def text(v, kind):
            return str(v).lower() if kind == "bool" else str(v)

        return "<" + ", ".join(f"{f} = {text(v, k)}" for (f, k), v in zip(self.FIELDS, self.data)) + ">"

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(self.body_text())


ATTR_BASES = {
    "dot_algorithm": DotAlgorithmBase,
    "comparison_direction": ComparisonDirectionAttrBase,
    "comparison_type": ComparisonTypeAttrBase,
    "precision": PrecisionAttrBase,
    "rng_algorithm": RngAlgorithmAttrBase,
    "fft_type": FftTypeAttrBase,
    "gather": GatherDimensionNumbersBase,
    "scatter": ScatterDimensionNumbersBase,
    "dot": DotDimensionNumbersBase,
    "conv": ConvDimensionNumbersBase,
    "channel_handle": ChannelHandleBase,
    "token": TokenTypeBase,
}


def _instantiate(base: type, prefix: str, mnemonic: str) -> type:
    if issubclass(base, ParametrizedAttribute):  # a type without parameters (`!hlo.token`)
        return irdl_attr_definition(type(base.__name__.replace("Base", ""), (base,),
                                         {"name": f"{prefix}.{mnemonic}", "__module__": base.__module__}))
    if not issubclass(base, Data):
        # EnumAttribute only allows direct subclasses parametrized by the enum
        enum_type = base.enum_type

        class Twin(EnumAttribute[enum_type], SpacedOpaqueSyntaxAttribute, base):  # type: ignore[valid-type]
            name = f"{prefix}.{mnemonic}"

        Twin.__name__ = Twin.__qualname__ = base.__name__.replace("Base", "")
        return irdl_attr_definition(Twin)
    twin = type(base.__name__.replace("Base", ""), (base,), {"name": f"{prefix}.{mnemonic}",
                                                            "__module__": base.__module__})
    return irdl_attr_definition(twin)


_BY_PREFIX: dict[str, SimpleNamespace] = {}


def define_attributes(prefix: str) -> SimpleNamespace:
    """All attribute classes of one dialect prefix, by mnemonic (made once per prefix)."""
    if prefix not in _BY_PREFIX:
        _BY_PREFIX[prefix] = SimpleNamespace(**{m: _instantiate(b, prefix, m) for m, b in ATTR_BASES.items()})
    return _BY_PREFIX[prefix]


def attributes_for(op_name: str) -> SimpleNamespace:
    """The attribute classes matching an op's dialect (`hlo.x` -> `#hlo...`)."""
    return define_attributes(op_name.split(".", 1)[0])


HLO_ATTRS = define_attributes("hlo")
