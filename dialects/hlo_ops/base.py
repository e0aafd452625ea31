"""Shared machinery for the `hlo` op definitions.

Each op is written once as an *undecorated* IRDL class; `hlo_op` turns it into
the registered `hlo.<name>` op and remembers the raw class so that
`dialects.stablehlo` can register a `stablehlo.<name>` twin with the same
structure, syntax and verifier (the 1:1 interchange spelling).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar, TypeVar

from xdsl.dialects.builtin import (
    BFloat16Type,
    ComplexType,
    DenseArrayBase,
    Float16Type,
    Float32Type,
    Float64Type,
    Float4E2M1FNType,
    Float6E2M3FNType,
    Float6E3M2FNType,
    Float8E3M4Type,
    Float8E4M3B11FNUZType,
    Float8E4M3FNType,
    Float8E4M3FNUZType,
    Float8E4M3Type,
    Float8E5M2FNUZType,
    Float8E5M2Type,
    Float8E8M0FNUType,
    IntegerAttr,
    IntegerType,
    TensorType,
)
from xdsl.ir import Attribute, Operation
from xdsl.irdl import IRDLOperation, irdl_op_definition
from xdsl.pattern_rewriter import RewritePattern
from xdsl.traits import HasCanonicalizationPatternsTrait
from xdsl.utils.exceptions import VerifyException

OpT = TypeVar("OpT", bound=type[IRDLOperation])

#: op class -> its canonicalization patterns; filled by dialects/hlo_ops/canonicalization.py (which
#: builds on the op classes, so the ops find their patterns here instead of importing that module)
CANONICALIZATION_PATTERNS: dict[type, tuple[RewritePattern, ...]] = {}


@dataclass(frozen=True)
class HloCanonicalization(HasCanonicalizationPatternsTrait):
    """The trait through which xDSL's `canonicalize` (and `hlo-algebraic-simplifier`) find an
    hlo op's simplification patterns."""

    def get_patterns(self, op: type[Operation]) -> tuple[RewritePattern, ...]:
        for klass in op.__mro__:
            found = CANONICALIZATION_PATTERNS.get(klass)
            if found is not None:
                return found
        return ()

    @classmethod
    def get_canonicalization_patterns(cls) -> tuple[RewritePattern, ...]:
        return ()

#: raw (undecorated) op classes by mnemonic, in definition order
RAW_OPS: dict[str, type[IRDLOperation]] = {}
#: the registered `hlo.*` classes by mnemonic
HLO_OPS: dict[str, type[IRDLOperation]] = {}


def hlo_op(mnemonic: str) -> Callable[[OpT], OpT]:
    """Register `cls` as `hlo.<mnemonic>` (and, later, its stablehlo twin)."""

    def wrap(cls: OpT) -> OpT:
        _annotate_constants(cls)
        RAW_OPS[mnemonic] = cls
        op = irdl_op_definition(
            type(cls.__name__, (cls,), {"name": f"hlo.{mnemonic}", "__module__": cls.__module__,
                                        "__qualname__": cls.__qualname__, "__doc__": cls.__doc__})
        )
        HLO_OPS[mnemonic] = op
        return op  # type: ignore[return-value]

    return wrap


def _annotate_constants(cls: type) -> None:
    """Let subclasses override UPPERCASE class constants without repeating
    `ClassVar` annotations (IRDL rejects unannotated class fields)."""
    for klass in cls.__mro__:
        if klass.__module__.startswith("xdsl") or klass.__module__ in ("builtins", "abc", "typing"):
            continue
        notes = klass.__dict__.get("__annotations__")
        if notes is None:
            notes = {}
            klass.__annotations__ = notes
        for key in klass.__dict__:
            if key.isupper() and key not in notes:
                notes[key] = ClassVar[object]


def make_twin(mnemonic: str, prefix: str) -> type[IRDLOperation]:
    raw = RAW_OPS[mnemonic]
    return irdl_op_definition(
        type(raw.__name__, (raw,), {"name": f"{prefix}.{mnemonic}", "__module__": raw.__module__,
                                    "__qualname__": raw.__qualname__, "__doc__": raw.__doc__})
    )


# --------------------------------------------------------------------------
# Element types
# --------------------------------------------------------------------------

_INT_WIDTHS = (2, 4, 8, 16, 32, 64)
#: the fp8/fp6/fp4 types: one byte per element in memory (ml_dtypes' layout), computed in f32
NARROW_FLOAT_TYPES = (Float8E4M3FNType, Float8E5M2Type, Float8E4M3FNUZType, Float8E5M2FNUZType,
                      Float8E4M3B11FNUZType, Float8E3M4Type, Float8E4M3Type, Float8E8M0FNUType,
                      Float6E2M3FNType, Float6E3M2FNType, Float4E2M1FNType)
_FLOAT_TYPES = (Float16Type, BFloat16Type, Float32Type, Float64Type, *NARROW_FLOAT_TYPES)


def is_bool(t: Attribute) -> bool:
    return isinstance(t, IntegerType) and t.width.data == 1


def is_integer(t: Attribute) -> bool:
    """Signed/signless or unsigned integers of 2, 4, 8..64 bits (not i1)."""
    return isinstance(t, IntegerType) and t.width.data in _INT_WIDTHS


def is_unsigned(t: Attribute) -> bool:
    return isinstance(t, IntegerType) and t.signedness.data.name == "UNSIGNED"


def is_float(t: Attribute) -> bool:
    return isinstance(t, _FLOAT_TYPES)


def is_complex(t: Attribute) -> bool:
    return isinstance(t, ComplexType) and isinstance(t.element_type, (Float32Type, Float64Type))


def is_element_type(t: Attribute) -> bool:
    return is_bool(t) or is_integer(t) or is_float(t) or is_complex(t)


SUPPORTED_TYPES_TEXT = ("i1, i2, i4, i8..i64, ui2, ui4, ui8..ui64, f4/f6/f8 (E2M1FN, E2M3FN, E3M2FN, E4M3FN, E5M2, "
                        "E4M3FNUZ, E5M2FNUZ, E4M3B11FNUZ, E3M4, E4M3, E8M0FNU), f16, bf16, f32, f64, complex<f32|f64>")

# element-type classes used by the op tables
ELEMENT_CLASSES: dict[str, Callable[[Attribute], bool]] = {
    "any": is_element_type,
    "float": is_float,
    "float_or_complex": lambda t: is_float(t) or is_complex(t),
    "int": is_integer,
    "bool_or_int": lambda t: is_bool(t) or is_integer(t),
    "signed_int_float_complex": lambda t: (is_integer(t) and not is_unsigned(t)) or is_float(t) or is_complex(t),
    "numeric": lambda t: is_integer(t) or is_float(t) or is_complex(t),
    "int_or_float": lambda t: is_integer(t) or is_float(t),
}
ELEMENT_CLASS_TEXT = {
    "any": "any supported element type",
    "float": "a floating-point element type",
    "float_or_complex": "a floating-point or complex element type",
    "int": "an integer element type",
    "bool_or_int": "a boolean or integer element type",
    "signed_int_float_complex": "a signed integer, floating-point or complex element type",
    "numeric": "a numeric (non-boolean) element type",
    "int_or_float": "an integer or floating-point element type",
}


# --------------------------------------------------------------------------
# Verification helpers: every message names what is wrong and the values seen
# --------------------------------------------------------------------------


def fail(msg: str) -> None:
    raise VerifyException(msg)


def require(cond: bool, msg: str) -> None:
    if not cond:
        raise VerifyException(msg)


def tensor(value_type: Attribute, what: str) -> TensorType:
    """Check a value type is a statically shaped tensor of a supported element type."""
    if not isinstance(value_type, TensorType):
        fail(f"{what} must be a tensor, got {value_type}")
    assert isinstance(value_type, TensorType)
    if any(d < 0 for d in value_type.get_shape()):
        fail(f"{what} must have a static shape, got {value_type}")
    if not is_element_type(value_type.element_type):
        fail(f"{what} has unsupported element type {value_type.element_type} "
             f"(supported: {SUPPORTED_TYPES_TEXT})")
    return value_type


def shape(t: TensorType) -> tuple[int, ...]:
    return tuple(t.get_shape())


def ints(attr: DenseArrayBase | None) -> tuple[int, ...]:
    """Values of an `array<i64: ...>` property (empty for a missing optional one)."""
    if attr is None:
        return ()
    return tuple(int(v) for v in attr.get_values())


def int_value(attr: IntegerAttr | None, default: int = 0) -> int:
    return default if attr is None else int(attr.value.data)


def check_dims_in_range(dims: Sequence[int], rank: int, what: str) -> None:
    for d in dims:
        require(0 <= d < rank, f"{what} contains {d}, out of range for rank {rank}")
    require(len(set(dims)) == len(dims), f"{what} must not repeat dimensions, got {list(dims)}")


def same_shapes(types: Sequence[TensorType], what: str) -> None:
    """Variadic operands (reduce/sort/scatter inputs) must all have the first one's shape."""
    for i, t in enumerate(types):
        require(shape(t) == shape(types[0]),
                f"{what} #{i} shape {list(shape(t))} differs from {what} #0 {list(shape(types[0]))}")


def same_element(a: TensorType, b: TensorType, what: str) -> None:
    require(a.element_type == b.element_type,
            f"{what}: element types {a.element_type} and {b.element_type} differ")
