"""`stablehlo-legalize-to-hlo` / `hlo-legalize-to-stablehlo`: rename every op
and attribute of one spelling to its twin, 1:1.

The twins share their raw op class, so operands, result types, properties,
attributes and regions carry over unchanged; only the op class and the
`#prefix<...>` attribute classes (also inside arrays and dictionaries) change.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from xdsl.context import Context
from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, FunctionType, ModuleOp
from xdsl.ir import Attribute, ParametrizedAttribute
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter


@cache
def _tables(src: str, dst: str) -> tuple[dict[type, type], dict[type, type]]:
    """(op class -> twin class, attribute class -> twin class) for src -> dst."""
    from minixla.dialects import hlo, stablehlo
    from minixla.dialects.hlo_ops.attrs import define_attributes

    ops = {"hlo": hlo.OPS, "stablehlo": stablehlo.OPS}
    op_map = {cls: ops[dst][m] for m, cls in ops[src].items()}
    src_attrs, dst_attrs = vars(define_attributes(src)), vars(define_attributes(dst))
    attr_map = {cls: dst_attrs[m] for m, cls in src_attrs.items()}
    return op_map, attr_map


def convert_attr(attr: Attribute, attr_map: dict[type, type]) -> Attribute:
    """The twin of attr (recursing into arrays and dictionaries), or attr itself."""
    twin = attr_map.get(type(attr))
    if twin is not None:
        if isinstance(attr, ParametrizedAttribute):  # a parameterless type such as `!stablehlo.token`
            return twin()
        return twin(attr.data)  # type: ignore[attr-defined]
    if isinstance(attr, FunctionType):
        ins = [convert_attr(a, attr_map) for a in attr.inputs.data]
        outs = [convert_attr(a, attr_map) for a in attr.outputs.data]
        changed = any(a is not b for a, b in zip([*ins, *outs], [*attr.inputs.data, *attr.outputs.data]))
        return FunctionType.from_lists(ins, outs) if changed else attr
    if isinstance(attr, ArrayAttr):
        items = [convert_attr(a, attr_map) for a in attr.data]
        return attr if all(a is b for a, b in zip(items, attr.data)) else ArrayAttr(items)
    if isinstance(attr, DictionaryAttr):
        items = {k: convert_attr(v, attr_map) for k, v in attr.data.items()}
        return attr if all(items[k] is v for k, v in attr.data.items()) else DictionaryAttr(items)
    return attr


def _convert_dict(values: dict[str, Attribute], attr_map: dict[type, type]) -> dict[str, Attribute]:
    return {k: convert_attr(v, attr_map) for k, v in values.items()}


def convert_module(module: ModuleOp, src: str, dst: str) -> None:
    """Replace every `src.*` op with its `dst.*` twin; fix attributes everywhere."""
    op_map, attr_map = _tables(src, dst)
    _convert_value_types(module, attr_map)
    for op in list(module.walk()):
        twin = op_map.get(type(op))
        if twin is None:
            op.attributes = _convert_dict(op.attributes, attr_map)
            op.properties = _convert_dict(op.properties, attr_map)
            continue
        new = twin.create(
            operands=list(op.operands),
            result_types=[r.type for r in op.results],
            properties=_convert_dict(op.properties, attr_map),
            attributes=_convert_dict(op.attributes, attr_map),
            successors=list(op.successors),
            regions=[op.detach_region(r) for r in list(op.regions)],
        )
        new.location = op.location
        for old_res, new_res in zip(op.results, new.results):
            new_res.name_hint = old_res.name_hint
        Rewriter.replace_op(op, new)


def _convert_value_types(module: ModuleOp, attr_map: dict[type, type]) -> None:
    """Types of block arguments and results that are dialect types (`!stablehlo.token`)."""
    for op in module.walk():
        values = [*op.results, *(a for r in op.regions for b in r.blocks for a in b.args)]
        for value in values:
            new = convert_attr(value.type, attr_map)
            if new is not value.type:
                Rewriter.replace_value_with_new_type(value, new)


@dataclass(frozen=True)
class StablehloLegalizeToHlo(ModulePass):
    """Read StableHLO (JAX output, the StableHLO test suite) as minixla's hlo."""

    name = "stablehlo-legalize-to-hlo"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        convert_module(op, "stablehlo", "hlo")


@dataclass(frozen=True)
class HloLegalizeToStablehlo(ModulePass):
    """Write hlo as StableHLO, for tools that read StableHLO."""

    name = "hlo-legalize-to-stablehlo"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        convert_module(op, "hlo", "stablehlo")
