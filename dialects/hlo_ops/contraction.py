"""dot_general and convolution, with StableHLO's pretty syntax
(`contracting_dims = [1] x [0]`, `dim_numbers = [b, 0, 1, f]x[...]->[...], window = {...}`)."""

from __future__ import annotations

from xdsl.dialects.builtin import (ArrayAttr, DenseArrayBase, DenseIntOrFPElementsAttr, IntegerAttr, TensorType,
                                   i1, i64)
from xdsl.ir import Attribute
from xdsl.irdl import operand_def, opt_prop_def, prop_def, result_def, traits_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure

from minixla.dialects.hlo_ops.attrs import ConvDimensionNumbersBase, DotAlgorithmBase, DotDimensionNumbersBase, attributes_for
from minixla.dialects.hlo_ops.base import hlo_op, int_value, ints, require, shape, tensor
from minixla.dialects.hlo_ops.pretty import PrettyOp
from minixla.dialects.hlo_ops.reduction import padding_pairs, windowed_shape
from minixla.dialects.hlo_ops.syntax import i64_array, parse_int_list


def _parse_precision(cls, parser: Parser) -> ArrayAttr:
    attr_cls = attributes_for(cls.name).precision
    return ArrayAttr(parser.parse_comma_separated_list(
        parser.Delimiter.SQUARE, lambda: attr_cls(parser.parse_str_enum(attr_cls.enum_type))))


def _precision_text(attr: ArrayAttr) -> str:
    return "[" + ", ".join(p.data.value for p in attr.data) + "]"


@hlo_op("dot_general")
class DotGeneralOp(PrettyOp):
    """`%r = hlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (...) -> T`."""

    PRETTY_PROPS = ("dot_dimension_numbers", "precision_config", "algorithm")
    FUNCTIONAL_TYPE = True
    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    dot_dimension_numbers = prop_def(DotDimensionNumbersBase)
    precision_config = opt_prop_def(ArrayAttr)
    algorithm = opt_prop_def(DotAlgorithmBase)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    @classmethod
    def parse_middle(cls, parser: Parser) -> dict[str, Attribute]:
        dims: dict[str, list[int]] = {}
        props: dict[str, Attribute] = {}
        while parser.parse_optional_punctuation(","):
            key = parser.parse_keyword_in(("batching_dims", "contracting_dims", "precision", "algorithm"))
            parser.parse_punctuation("=")
            if key == "algorithm":
                attr_cls = attributes_for(cls.name).dot_algorithm
                props["algorithm"] = attr_cls(attr_cls.parse_body(parser))
                continue
            if key == "precision":
                props["precision_config"] = _parse_precision(cls, parser)
                continue
            lhs = parse_int_list(parser)
            parser.parse_keyword("x")
            rhs = parse_int_list(parser)
            side = key.split("_")[0]
            dims[f"lhs_{side}_dimensions"], dims[f"rhs_{side}_dimensions"] = lhs, rhs
        props["dot_dimension_numbers"] = attributes_for(cls.name).dot.get(**dims)
        return props

    def print_middle(self, printer: Printer) -> None:
        dn = self.dot_dimension_numbers

        def pair(a, b) -> str:
            return f"[{', '.join(map(str, a))}] x [{', '.join(map(str, b))}]"

        if dn.lhs_batching_dimensions or dn.rhs_batching_dimensions:
            printer.print_string(f", batching_dims = {pair(dn.lhs_batching_dimensions, dn.rhs_batching_dimensions)}")
        printer.print_string(f", contracting_dims = {pair(dn.lhs_contracting_dimensions, dn.rhs_contracting_dimensions)}")
        if self.precision_config is not None:
            printer.print_string(f", precision = {_precision_text(self.precision_config)}")
        if self.algorithm is not None:
            printer.print_string(f", algorithm = {self.algorithm.body_text()}")

    def verify_(self) -> None:
        a, b = tensor(self.lhs.type, "lhs"), tensor(self.rhs.type, "rhs")
        r = tensor(self.result.type, "result")
        require(a.element_type == b.element_type,
                f"lhs and rhs element types {a.element_type} and {b.element_type} must be equal")
        dn = self.dot_dimension_numbers
        lb, rb, lc, rc = (dn.lhs_batching_dimensions, dn.rhs_batching_dimensions,
                          dn.lhs_contracting_dimensions, dn.rhs_contracting_dimensions)
        require(len(lb) == len(rb), f"lhs and rhs batching dims {list(lb)} and {list(rb)} differ in length")
        require(len(lc) == len(rc), f"lhs and rhs contracting dims {list(lc)} and {list(rc)} differ in length")
        for side, t, dims in (("lhs", a, lb + lc), ("rhs", b, rb + rc)):
            for d in dims:
                require(0 <= d < len(shape(t)), f"{side} dimension {d} is out of range for {t}")
            require(len(set(dims)) == len(dims), f"{side} batching and contracting dims overlap or repeat: {list(dims)}")
        for x, y in zip(lb, rb):
            require(shape(a)[x] == shape(b)[y], f"batching dims lhs {x} (size {shape(a)[x]}) and rhs {y} (size {shape(b)[y]}) differ")
        for x, y in zip(lc, rc):
            require(shape(a)[x] == shape(b)[y],
                    f"contracting dims lhs {x} (size {shape(a)[x]}) and rhs {y} (size {shape(b)[y]}) differ")
        expected = ([shape(a)[d] for d in lb] + [s for d, s in enumerate(shape(a)) if d not in lb + lc]
                    + [s for d, s in enumerate(shape(b)) if d not in rb + rc])
        require(list(shape(r)) == expected, f"result shape {list(shape(r))} must be {expected}")
        if self.precision_config is not None:
            require(len(self.precision_config.data) in (0, 2), "precision_config must have 0 or 2 entries")


_WINDOW_KEYS = {"stride": "window_strides", "pad": "padding", "lhs_dilate": "lhs_dilation",
                "rhs_dilate": "rhs_dilation", "reverse": "window_reversal"}


@hlo_op("convolution")
class ConvolutionOp(PrettyOp):
    """`%r = hlo.convolution(%x, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [2]}
    {feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (...) -> T`."""

    PRETTY_PROPS = ("dimension_numbers", "window_strides", "padding", "lhs_dilation", "rhs_dilation",
                    "window_reversal")
    FUNCTIONAL_TYPE = True
    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    window_strides = opt_prop_def(DenseArrayBase)
    padding = opt_prop_def(DenseIntOrFPElementsAttr)
    lhs_dilation = opt_prop_def(DenseArrayBase)
    rhs_dilation = opt_prop_def(DenseArrayBase)
    window_reversal = opt_prop_def(DenseArrayBase)
    dimension_numbers = prop_def(ConvDimensionNumbersBase)
    feature_group_count = prop_def(IntegerAttr)
    batch_group_count = prop_def(IntegerAttr)
    precision_config = opt_prop_def(ArrayAttr)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser):
        # operands come in parentheses: `(%lhs, %rhs)`
        start = parser.pos
        operands = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_unresolved_operand)
        parser.parse_keyword("dim_numbers")
        parser.parse_punctuation("=")
        props: dict[str, Attribute] = {
            "dimension_numbers": attributes_for(cls.name).conv(ConvDimensionNumbersBase.parse_layouts(parser))}
        if parser.parse_optional_punctuation(","):
            parser.parse_keyword("window")
            parser.parse_punctuation("=")
            parser.parse_punctuation("{")
            if parser.parse_optional_punctuation("}") is None:
                while True:
                    key = parser.parse_keyword_in(tuple(_WINDOW_KEYS))
                    parser.parse_punctuation("=")
                    props[_WINDOW_KEYS[key]] = _parse_window_value(parser, key)
                    if parser.parse_optional_punctuation(",") is None:
                        break
                parser.parse_punctuation("}")
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        sig = parser.parse_type()
        ins, outs = list(sig.inputs.data), list(sig.outputs.data)  # type: ignore[attr-defined]
        if len(ins) != len(operands):
            parser.raise_error(f"{len(operands)} operands but {len(ins)} types", start, parser.pos)
        values = [parser.resolve_operand(o, t) for o, t in zip(operands, ins)]
        prop_names = set(cls.get_irdl_definition().properties)
        props.update({k: v for k, v in attrs.items() if k in prop_names})
        rest = {k: v for k, v in attrs.items() if k not in prop_names}
        return cls.create(operands=values, result_types=outs, properties=props, attributes=rest)

    def print(self, printer: Printer) -> None:
        printer.print_string("(")
        printer.print_list(self.operands, printer.print_operand)
        printer.print_string(f") dim_numbers = {self.dimension_numbers.layouts_text()}")
        items = []
        for key, prop in _WINDOW_KEYS.items():
            value = self.properties.get(prop)
            if value is None:
                continue
            if key == "pad":
                pairs = padding_pairs(value, value.get_shape()[0])
                items.append(f"pad = [{', '.join(f'[{lo}, {hi}]' for lo, hi in pairs)}]")
            elif key == "reverse":
                items.append(f"reverse = [{', '.join('true' if v else 'false' for v in value.get_values())}]")
            else:
                items.append(f"{key} = [{', '.join(map(str, value.get_values()))}]")
        if items:
            printer.print_string(", window = {" + ", ".join(items) + "}")
        extra = {k: v for k, v in self.properties.items() if k not in self.PRETTY_PROPS}
        extra.update(self.attributes)
        if extra:
            printer.print_string(" ")
            printer.print_attr_dict(extra)
        printer.print_string(" : ")
        printer.print_function_type([o.type for o in self.operands], [r.type for r in self.results])

    def verify_(self) -> None:
        x, k = tensor(self.lhs.type, "lhs"), tensor(self.rhs.type, "rhs")
        r = tensor(self.result.type, "result")
        require(x.element_type == k.element_type,
                f"lhs and rhs element types {x.element_type} and {k.element_type} must be equal")
        dn = self.dimension_numbers
        n = len(dn.input_spatial_dimensions)
        require(len(shape(x)) == n + 2 and len(shape(k)) == n + 2 and len(shape(r)) == n + 2,
                f"lhs, rhs and result must have rank {n + 2} for {n} spatial dimensions")
        fgc, bgc = int_value(self.feature_group_count), int_value(self.batch_group_count)
        require(fgc > 0 and bgc > 0, f"feature_group_count ({fgc}) and batch_group_count ({bgc}) must be positive")
        require(fgc == 1 or bgc == 1, "feature_group_count and batch_group_count cannot both exceed 1")
        batch, feat = shape(x)[dn.input_batch_dimension], shape(x)[dn.input_feature_dimension]
        kin, kout = shape(k)[dn.kernel_input_feature_dimension], shape(k)[dn.kernel_output_feature_dimension]
        require(batch % bgc == 0, f"input batch size {batch} must be divisible by batch_group_count {bgc}")
        require(feat % fgc == 0 and feat // fgc == kin,
                f"input features ({feat}) / feature_group_count ({fgc}) must equal kernel input features ({kin})")
        require(kout % bgc == 0 and kout % fgc == 0,
                f"kernel output features ({kout}) must be divisible by both group counts ({fgc}, {bgc})")
        ones = (1,) * n
        strides = ints(self.window_strides) or ones
        lhs_dil, rhs_dil = ints(self.lhs_dilation) or ones, ints(self.rhs_dilation) or ones
        for name, vals in (("window strides", strides), ("lhs_dilation", lhs_dil), ("rhs_dilation", rhs_dil)):
            require(len(vals) == n and all(v > 0 for v in vals), f"{name} must be {n} positive values, got {list(vals)}")
        require(len(ints(self.window_reversal)) in (0, n),
                f"window_reversal needs {n} entries, got {len(ints(self.window_reversal))}")
        pads = padding_pairs(self.padding, n)
        spatial = windowed_shape(tuple(shape(x)[d] for d in dn.input_spatial_dimensions),
                                 tuple(shape(k)[d] for d in dn.kernel_spatial_dimensions), strides, lhs_dil, rhs_dil,
                                 pads)
        expected = [0] * (n + 2)
        expected[dn.output_batch_dimension] = batch // bgc
        expected[dn.output_feature_dimension] = kout
        for d, s in zip(dn.output_spatial_dimensions, spatial):
            expected[d] = s
        require(list(shape(r)) == expected, f"result shape {list(shape(r))} must be {expected}")


def _parse_window_value(parser: Parser, key: str) -> Attribute:
    if key == "pad":
        pairs = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, lambda: parse_int_list(parser))
        flat = [v for p in pairs for v in p]
        if any(len(p) != 2 for p in pairs):
            parser.raise_error("pad entries must be [low, high] pairs")
        return DenseIntOrFPElementsAttr.from_list(TensorType(i64, [len(pairs), 2]), flat)
    if key == "reverse":
        vals = parser.parse_comma_separated_list(
            parser.Delimiter.SQUARE, lambda: parser.parse_optional_boolean() if parser._current_token.text in ("true", "false")  # noqa: SLF001
            else bool(parser.parse_integer()))
        return DenseArrayBase.from_list(i1, [int(v) for v in vals])
    return i64_array(parse_int_list(parser))
