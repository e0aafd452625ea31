"""Elementwise ops: thin adapters from op objects to `kernels.elementwise`.

Implementations use only the operand arrays and the result *element* type,
never the result shape, so they also run vectorized inside region bodies.
"""

from __future__ import annotations

import numpy as np

from minixla.backends.interpreter.attrs import enum_value, prop
from minixla.dialects.numpy_types import numpy_dtype
from minixla.backends.interpreter.op_table import impl
from minixla.backends.interpreter.kernels import conversions as cv
from minixla.backends.interpreter.kernels import elementwise as ew
from minixla.backends.interpreter.kernels import narrow

UNARY = {
    "abs": ew.abs_, "negate": ew.negate, "exponential": ew.exponential,
    "exponential_minus_one": ew.exponential_minus_one, "log": ew.log, "log_plus_one": ew.log_plus_one,
    "sqrt": ew.sqrt, "rsqrt": ew.rsqrt, "tanh": ew.tanh, "logistic": ew.logistic, "sine": ew.sine,
    "cosine": ew.cosine, "tan": ew.tan, "cbrt": ew.cbrt, "floor": ew.floor, "ceil": ew.ceil,
    "sign": ew.sign, "not": ew.not_, "round_nearest_even": ew.round_nearest_even,
    "round_nearest_afz": ew.round_nearest_afz, "is_finite": ew.is_finite, "popcnt": ew.popcnt,
    "count_leading_zeros": ew.count_leading_zeros,
}

BINARY = {
    "add": ew.add, "subtract": ew.subtract, "multiply": ew.multiply, "divide": ew.divide,
    "remainder": ew.remainder, "power": ew.power, "maximum": ew.maximum, "minimum": ew.minimum,
    "and": ew.and_, "or": ew.or_, "xor": ew.xor, "atan2": ew.atan2, "shift_left": ew.shift_left,
    "shift_right_arithmetic": ew.shift_right_arithmetic, "shift_right_logical": ew.shift_right_logical,
}


def _unary(kernel):
    return lambda op, args, interp: kernel(args[0])


def _binary(kernel):
    return lambda op, args, interp: kernel(args[0], args[1])




def _sub_byte_ready(name: str, kernel):
    """i2/i4/ui2/ui4 operands: the width-aware kernel, or the kernel in int8/uint8 wrapped back."""
    return narrow.width_aware(name, kernel) if name in narrow.WIDTH_AWARE else narrow.widened(kernel)


for _name, _kernel in UNARY.items():
    impl(f"hlo.{_name}")(_unary(_sub_byte_ready(_name, _kernel)))
for _name, _kernel in BINARY.items():
    impl(f"hlo.{_name}")(_binary(_sub_byte_ready(_name, _kernel)))

_compare_kernel = narrow.widened(ew.compare)


@impl("hlo.compare")
def _compare(op, args, interp):
    return _compare_kernel(args[0], args[1], enum_value(prop(op, "comparison_direction")),
                           enum_value(prop(op, "compare_type")))


@impl("hlo.reduce_precision")
def _reduce_precision(op, args, interp):
    return narrow.reduce_precision(args[0], int(op.exponent_bits.value.data), int(op.mantissa_bits.value.data))


@impl("hlo.select")
def _select(op, args, interp):
    return ew.select(*args)


@impl("hlo.clamp")
def _clamp(op, args, interp):
    return ew.clamp(*args)


def result_dtype(op, i: int = 0) -> np.dtype:
    return numpy_dtype(op.results[i].type.get_element_type())


@impl("hlo.convert")
def _convert(op, args, interp):
    return cv.convert(args[0], result_dtype(op))


@impl("hlo.bitcast_convert")
def _bitcast_convert(op, args, interp):
    return cv.bitcast_convert(args[0], result_dtype(op))


@impl("hlo.real")
def _real(op, args, interp):
    x = args[0]
    return x.real.copy() if np.iscomplexobj(x) else x.copy()


@impl("hlo.imag")
def _imag(op, args, interp):
    x = args[0]
    return x.imag.copy() if np.iscomplexobj(x) else np.zeros_like(x)


@impl("hlo.complex")
def _complex(op, args, interp):
    out = np.empty(np.broadcast_shapes(args[0].shape, args[1].shape), dtype=result_dtype(op))
    out.real, out.imag = args[0], args[1]
    return out
