"""The `tf` dialect: one generic op class per TF op that an upper layer registers.

Ops print in TensorFlow MLIR's generic form, `"tf.AddV2"(%a, %b) : (...) -> ...`,
with TF attributes as MLIR attributes (`keep_dims = false`,
`DstT = f32`, `ksize = [1, 2, 2, 1]`, `value = dense<...>`). Attributes are
free-form (TF ops carry many); `verify_` checks the operand count against the
signature that the frontend registered (`register_tf_op`: the op table lives with the
frontend's decomposition rules, which this layer must not import). `tf_type.string`
is the element type of string tensors.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from xdsl.dialects.builtin import (ArrayAttr, BoolAttr, DenseIntOrFPElementsAttr, FloatAttr, IntegerAttr,
                                   IntegerType, StringAttr, f32, i1, i64)
from xdsl.ir import Attribute, Dialect, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import (IRDLOperation, irdl_attr_definition, irdl_op_definition, opt_prop_def, var_operand_def,
                       var_result_def)
from xdsl.utils.exceptions import VerifyException

from minixla.dialects.numpy_types import dense_attr_to_numpy, element_type, numpy_dtype, numpy_to_dense_attr

#: TF op name -> its input names ("*x" marks a variadic input), registered by the frontend's op table
TF_OP_INPUTS: dict[str, tuple[str, ...]] = {}


def register_tf_op(name: str, inputs: tuple[str, ...]) -> None:
    """Declare TF op `name` (e.g. by the frontend's registry, frontend/ops/registry.py)."""
    TF_OP_INPUTS[name] = tuple(inputs)


@irdl_attr_definition
class StringType(ParametrizedAttribute, TypeAttribute):
    """`!tf_type.string`: element type of TF string tensors."""

    name = "tf_type.string"


TF_TYPE = Dialect("tf_type", [], [StringType])


class TFOp(IRDLOperation):
    """Base of the generated `tf.*` ops."""

    INPUTS: ClassVar[tuple[str, ...] | None] = None
    args = var_operand_def()
    outs = var_result_def()

    def verify_(self) -> None:
        inputs = type(self).INPUTS
        if inputs is None:
            return
        if not any(n.startswith("*") for n in inputs) and len(self.operands) != len(inputs):
            raise VerifyException(f"{self.name} takes {len(inputs)} operands "
                                  f"({', '.join(n.lstrip('*') for n in inputs)}), got {len(self.operands)}")


def _make(name: str, inputs: tuple[str, ...]) -> type[IRDLOperation]:
    body = {"name": f"tf.{name}", "__module__": __name__, "__doc__": f"TF's `{name}`.",
            "INPUTS": inputs, "__annotations__": {"INPUTS": ClassVar[Any]}}
    if name == "Const":  # TF MLIR keeps the literal as a property: "tf.Const"() <{value = ...}>
        body["value"] = opt_prop_def(Attribute)  # dense elements, or strings for string tensors
    cls = type(f"TF_{name}Op", (TFOp,), body)
    return irdl_op_definition(cls)


TF_OPS: dict[str, type[IRDLOperation]] = {}


def tf_op_class(name: str) -> type[IRDLOperation]:
    """The op class of TF op `name` (generated on first use, also for later registrations)."""
    if name not in TF_OPS:
        TF_OPS[name] = _make(name, TF_OP_INPUTS[name])
    return TF_OPS[name]


def tf_dialect() -> Dialect:
    """The ops registered so far (the frontend registers its whole table when it is imported)."""
    for name in TF_OP_INPUTS:
        tf_op_class(name)
    return Dialect("tf", list(TF_OPS.values()), [])


# -- attribute conversion -----------------------------------------------------------

def to_attr(value: Any) -> Attribute:
    """A TF attribute value as an MLIR attribute."""
    if isinstance(value, Attribute):
        return value
    if isinstance(value, (bool, np.bool_)):
        return BoolAttr.from_bool(bool(value))
    if isinstance(value, (int, np.integer)):
        return IntegerAttr(int(value), i64)
    if isinstance(value, (float, np.floating)):
        return FloatAttr(float(value), f32)
    if isinstance(value, str):
        return StringAttr(value)
    if isinstance(value, np.ndarray):
        if value.dtype == np.dtype(object):  # string tensor: a (nested) list of strings
            items = [StringAttr(v.decode() if isinstance(v, bytes) else str(v)) for v in value.reshape(-1)]
            return items[0] if value.ndim == 0 else ArrayAttr(items)
        return numpy_to_dense_attr(value)
    if isinstance(value, (list, tuple)):
        return ArrayAttr([to_attr(v) for v in value])
    if value is None:
        return StringAttr("")
    as_numpy = getattr(value, "as_numpy_dtype", None)  # a TF-style DType (frontend/dtypes.py)
    if as_numpy is not None or isinstance(value, np.dtype) or (isinstance(value, type)
                                                               and issubclass(value, np.generic)):
        dt = np.dtype(as_numpy if as_numpy is not None else value)
        full = getattr(value, "np", dt)  # a DType's structured numpy dtype: TF's quantized types (qint8, ...)
        if isinstance(full, np.dtype) and full.names and len(full.names) == 1:
            dt = full[0]  # ... are stored as their storage integers
        return StringType() if dt == np.dtype(object) else element_type(dt)
    raise TypeError(f"cannot store {value!r} as an attribute")


def from_attr(attr: Attribute) -> Any:
    """Inverse of `to_attr`."""
    if isinstance(attr, IntegerAttr):
        if isinstance(attr.type, IntegerType) and attr.type.width.data == 1:
            return bool(attr.value.data)
        return int(attr.value.data)
    if isinstance(attr, FloatAttr):
        return float(attr.value.data)
    if isinstance(attr, StringAttr):
        return attr.data
    if isinstance(attr, DenseIntOrFPElementsAttr):
        return dense_attr_to_numpy(attr)
    if isinstance(attr, ArrayAttr):
        return tuple(from_attr(a) for a in attr.data)
    if isinstance(attr, StringType):
        return np.dtype(object)
    try:
        return numpy_dtype(attr)
    except TypeError:
        return attr


__all__ = ["TF_OP_INPUTS", "TF_TYPE", "StringType", "TFOp", "from_attr", "i1", "register_tf_op", "tf_dialect",
           "tf_op_class", "to_attr"]
