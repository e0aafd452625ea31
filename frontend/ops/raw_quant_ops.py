"""TF's uniform-quantized raw ops (UniformQuantize, UniformDequantize, UniformRequantize,
UniformQuantizedAdd, UniformQuantizedClipByValue, UniformQuantizedDot, UniformQuantizedConvolution) on
integer and float ops.

A qint8/qint32 tensor is carried as its storage integers (int8/int32): hlo has no quantized element
type, and these ops only need the integers. Scales and zero points are compile-time constants (TF's XLA
kernels require that too), so the fixed-point requantization multipliers are computed here in numpy, as
TF's kernels compute them on the host (tensorflow/core/kernels/uniform_quant_ops/math_utils.h):

* quantize: floor(x * (1/scale) + 0.5) + zero_point, clamped (TF's CPU kernel; TF's XLA kernel rounds
  half to even after adding the zero point, so ties can differ there; minixla gives the CPU kernel's
  result in every mode, as for the stateless random ops);
* dequantize: float(q - zero_point) * scale;
* requantize: frexp(input_scale / output_scale) as a Q31 multiplier and a shift, then
  (x * multiplier + 2^(s-1)) >> s in int64, the rounding of TF's `MultiplyByQuantizedMultiplier`.

Per-axis quantization (`quantization_axis` >= 0) broadcasts the scales and zero points along that axis.
"""

from __future__ import annotations

import numpy as np

from minixla.frontend.dtypes import QUANTIZED, as_dtype
from minixla.frontend.errors import UnimplementedError, at_user_line
from minixla.frontend.ops.registry import REQUIRED, op_error, register

_I32, _I64, _F32 = np.dtype(np.int32), np.dtype(np.int64), np.dtype(np.float32)


def storage(dtype) -> np.dtype:
    """The integers a quantized dtype is carried as (qint8 -> int8); any other dtype itself."""
    name = getattr(dtype, "name", None)
    if name in QUANTIZED:
        return np.dtype(QUANTIZED[name])
    return as_dtype(dtype).np


def _params(op: str, values, axis: int, shape, what: str) -> np.ndarray:
    """A scale/zero-point array checked against `axis`: a scalar per tensor, one per slice per axis."""
    arr = np.asarray(values)
    if axis == -1:
        if arr.ndim != 0:
            raise op_error(op, f"{what} must be a scalar for per-tensor quantization, got shape {list(arr.shape)}")
        return arr
    if not 0 <= axis < len(shape):
        raise op_error(op, f"quantization_axis {axis} is out of range for an operand of rank {len(shape)}")
    if arr.ndim != 1 or arr.shape[0] != shape[axis]:
        raise op_error(op, f"{what} must have shape [{shape[axis]}] for quantization_axis {axis}, "
                           f"got {list(arr.shape)}")
    return arr


def _along(b, values: np.ndarray, axis: int, shape, dtype):
    """A constant per tensor (scalar) or per axis, broadcast to `shape`."""
    const = b.constant(np.asarray(values), dtype)
    if np.ndim(values) == 0:
        return b.broadcast_in_dim(const, list(shape), ())
    return b.broadcast_in_dim(const, list(shape), (axis,))


def quantize_multiplier(op: str, multiplier) -> tuple[np.ndarray, np.ndarray]:
    """TF's `QuantizeMultiplier`, elementwise: a Q31 fixed-point multiplier and the shift (frexp)."""
    m = np.asarray(multiplier, np.float64)
    if not np.all(np.isfinite(m)) or np.any(m <= 0):
        raise op_error(op, f"the effective requantization multiplier must be finite and positive, got {m}")
    frac, shift = np.frexp(m)
    fixed = np.floor(frac * float(1 << 31) + 0.5).astype(np.int64)  # std::round of a positive value
    carry = fixed == (1 << 31)
    fixed, shift = np.where(carry, fixed // 2, fixed), np.where(carry, shift + 1, shift)
    tiny = shift < -31
    return np.where(tiny, 0, fixed).astype(np.int64), np.where(tiny, 0, shift).astype(np.int64)


def _multiply_by_quantized_multiplier(b, x, fixed, shift, axis):
    """(x * fixed + 2^(total-1)) >> total with total = 31 - shift, in int64, saturated to int32."""
    shape = list(x.shape)
    total = 31 - shift
    wide = b.multiply(b.convert(x, _I64), _along(b, fixed, axis, shape, _I64))
    wide = b.add(wide, _along(b, np.left_shift(np.int64(1), total - 1), axis, shape, _I64))
    wide = b.shift_right_arithmetic(wide, _along(b, total, axis, shape, _I64))
    lo, hi = np.iinfo(np.int32).min, np.iinfo(np.int32).max
    return b.convert(b.clamp(b.scalar(lo, _I64), wide, b.scalar(hi, _I64)), _I32)


def _int32(b, x):
    """A quantized operand's integers as int32; an eager tf.qint* tensor (numpy's structured qint dtype, as
    `tf.bitcast(x, tf.qint8)` makes) is read as its storage integers."""
    dt = np.dtype(x.dtype)
    if dt.names:
        if not isinstance(x, np.ndarray):
            raise UnimplementedError(at_user_line(
                f"a {dt.names[0]} tensor inside tf.function: minixla traces quantized tensors as their storage "
                f"integers (pass tf.bitcast(x, tf.{dt[0].name}) instead)"))
        x = x.view(dt[0])
    return b.convert(x, _I32)


def _clamp(b, x, lo, hi, dtype):
    return b.convert(b.clamp(b.scalar(lo, _I32), x, b.scalar(hi, _I32)), dtype)


def _requantize_centered(b, op, x, in_scales, out_scales, axis):
    """(x - in_zp) already subtracted: the value in the output scale, before the output zero point."""
    fixed, shift = quantize_multiplier(op, np.asarray(in_scales, np.float64) / np.asarray(out_scales, np.float64))
    return _multiply_by_quantized_multiplier(b, x, fixed, shift, axis)


# -- the ops ------------------------------------------------------------------------------------------

def uniform_quantize(b, input, scales, zero_points, Tin=None, Tout=REQUIRED, quantization_axis=-1,
                     quantization_min_val=REQUIRED, quantization_max_val=REQUIRED):
    op, shape = "UniformQuantize", list(input.shape)
    s = _params(op, scales, quantization_axis, shape, "scales").astype(np.float32)
    z = _params(op, zero_points, quantization_axis, shape, "zero_points")
    x = b.convert(input, _F32)
    y = b.multiply(x, _along(b, (np.float32(1) / s).astype(np.float32), quantization_axis, shape, _F32))
    r = b.convert(b.floor(b.add(y, b.full(shape, 0.5, _F32))), _I32)
    q = b.add(r, _along(b, z, quantization_axis, shape, _I32))
    return _clamp(b, q, quantization_min_val, quantization_max_val, storage(Tout))


def uniform_dequantize(b, input, scales, zero_points, Tin=None, Tout=REQUIRED, quantization_axis=-1,
                       quantization_min_val=REQUIRED, quantization_max_val=REQUIRED):
    op, shape = "UniformDequantize", list(input.shape)
    s = _params(op, scales, quantization_axis, shape, "scales").astype(np.float32)
    z = _params(op, zero_points, quantization_axis, shape, "zero_points")
    centered = b.subtract(_int32(b, input), _along(b, z, quantization_axis, shape, _I32))
    out = b.multiply(b.convert(centered, _F32), _along(b, s, quantization_axis, shape, _F32))
    return b.convert(out, storage(Tout))


def uniform_requantize(b, input, input_scales, input_zero_points, output_scales, output_zero_points, Tin=None,
                       Tout=REQUIRED, input_quantization_axis=-1, input_quantization_min_val=REQUIRED,
                       input_quantization_max_val=REQUIRED, output_quantization_axis=-1,
                       output_quantization_min_val=REQUIRED, output_quantization_max_val=REQUIRED):
    op, shape = "UniformRequantize", list(input.shape)
    if -1 not in (input_quantization_axis, output_quantization_axis) and \
            input_quantization_axis != output_quantization_axis:
        raise op_error(op, "input and output quantization_axis must be equal when both are per-axis, got "
                           f"{input_quantization_axis} and {output_quantization_axis}")
    axis = max(input_quantization_axis, output_quantization_axis)
    in_s = _params(op, input_scales, input_quantization_axis, shape, "input_scales").astype(np.float32)
    in_z = _params(op, input_zero_points, input_quantization_axis, shape, "input_zero_points")
    out_s = _params(op, output_scales, output_quantization_axis, shape, "output_scales").astype(np.float32)
    out_z = _params(op, output_zero_points, output_quantization_axis, shape, "output_zero_points")
    centered = b.subtract(_int32(b, input), _along(b, in_z, input_quantization_axis, shape, _I32))
    scaled = _requantize_centered(b, op, centered, in_s, out_s, axis)
    q = b.add(scaled, _along(b, out_z, output_quantization_axis, shape, _I32))
    return _clamp(b, q, output_quantization_min_val, output_quantization_max_val, storage(Tout))


def _operand_axis(op: str, out_axis: int, out_rank: int, operand_rank: int, own_axis: int, name: str) -> int:
    """An Add operand's quantization axis must name the output's axis (counted from the right)."""
    if own_axis == -1 or out_axis == -1:
        if own_axis != out_axis:
            raise op_error(op, f"{name} and output must both be per-tensor or both per-axis, got "
                               f"{name}_quantization_axis={own_axis}, output_quantization_axis={out_axis}")
        return -1
    if own_axis - operand_rank != out_axis - out_rank:
        raise op_error(op, f"{name}_quantization_axis {own_axis} does not match output_quantization_axis {out_axis}")
    return own_axis


def uniform_quantized_add(b, lhs, rhs, lhs_scales, lhs_zero_points, rhs_scales, rhs_zero_points, output_scales,
                          output_zero_points, lhs_quantization_axis=-1, lhs_quantization_min_val=REQUIRED,
                          lhs_quantization_max_val=REQUIRED, rhs_quantization_axis=-1,
                          rhs_quantization_min_val=REQUIRED, rhs_quantization_max_val=REQUIRED,
                          output_quantization_axis=-1, output_quantization_min_val=REQUIRED,
                          output_quantization_max_val=REQUIRED, T=None):
    """Both operands requantized to the output's scale, added, the output zero point added once."""
    from minixla.frontend.ops.registry import broadcast_shape

    op = "UniformQuantizedAdd"
    out_shape = list(broadcast_shape(op, lhs.shape, rhs.shape))
    out_axis = output_quantization_axis
    out_s = _params(op, output_scales, out_axis, out_shape, "output_scales").astype(np.float32)
    out_z = _params(op, output_zero_points, out_axis, out_shape, "output_zero_points")
    total = None
    for x, scales, zps, axis, name in ((lhs, lhs_scales, lhs_zero_points, lhs_quantization_axis, "lhs"),
                                       (rhs, rhs_scales, rhs_zero_points, rhs_quantization_axis, "rhs")):
        shape = list(x.shape)
        axis = _operand_axis(op, out_axis, len(out_shape), len(shape), axis, name)
        s = _params(op, scales, axis, shape, f"{name}_scales").astype(np.float32)
        z = _params(op, zps, axis, shape, f"{name}_zero_points")
        centered = b.subtract(_int32(b, x), _along(b, z, axis, shape, _I32))
        scaled = _requantize_centered(b, op, centered, s, out_s, axis)
        scaled = b.broadcast_in_dim(scaled, out_shape, list(range(len(out_shape) - len(shape), len(out_shape))))
        total = scaled if total is None else b.add(total, scaled)
    q = b.add(total, _along(b, out_z, out_axis, out_shape, _I32))
    return _clamp(b, q, output_quantization_min_val, output_quantization_max_val, _I32)


def uniform_quantized_clip_by_value(b, operand, min, max, scales, zero_points, T=None, quantization_axis=-1,
                                    quantization_min_val=REQUIRED, quantization_max_val=REQUIRED):
    """clamp(operand, min, max) on the quantized integers (same scale): per tensor or per axis."""
    op, shape = "UniformQuantizedClipByValue", list(operand.shape)
    _params(op, scales, quantization_axis, shape, "scales")
    _params(op, zero_points, quantization_axis, shape, "zero_points")
    x = _int32(b, operand)
    bounds = []
    for bound, what in ((min, "min"), (max, "max")):
        want = () if quantization_axis == -1 else (shape[quantization_axis],)
        if tuple(bound.shape) != want:
            raise op_error(op, f"{what} must have shape {list(want)}, got {list(bound.shape)}")
        dims = () if quantization_axis == -1 else (quantization_axis,)
        bounds.append(b.broadcast_in_dim(_int32(b, bound), shape, dims))
    return b.minimum(b.maximum(x, bounds[0]), bounds[1])


def uniform_quantized_dot(b, lhs, rhs, lhs_scales, lhs_zero_points, rhs_scales, rhs_zero_points, output_scales,
                          output_zero_points, Tin=None, Tout=REQUIRED, lhs_quantization_axis=-1,
                          lhs_quantization_min_val=REQUIRED, lhs_quantization_max_val=REQUIRED,
                          rhs_quantization_axis=-1, rhs_quantization_min_val=REQUIRED,
                          rhs_quantization_max_val=REQUIRED, output_quantization_axis=-1,
                          output_quantization_min_val=REQUIRED, output_quantization_max_val=REQUIRED):
    """[m, k] x [k, n]: the int32 sum of (lhs - lhs_zp)(rhs - rhs_zp), requantized from scale
    lhs_scale * rhs_scale to the output's (rhs and output per tensor or both per output channel)."""
    op = "UniformQuantizedDot"
    if len(lhs.shape) != 2 or len(rhs.shape) != 2 or lhs.shape[1] != rhs.shape[0]:
        raise op_error(op, f"lhs and rhs must be [m, k] and [k, n] matrices, got {list(lhs.shape)} and "
                           f"{list(rhs.shape)}")
    if lhs_quantization_axis != -1:
        raise op_error(op, f"lhs_quantization_axis must be -1 (per-tensor), got {lhs_quantization_axis}")
    if rhs_quantization_axis not in (-1, 1) or output_quantization_axis != rhs_quantization_axis:
        raise op_error(op, "rhs_quantization_axis and output_quantization_axis must both be -1 or both 1, got "
                           f"{rhs_quantization_axis} and {output_quantization_axis}")
    axis = rhs_quantization_axis
    out_shape = [lhs.shape[0], rhs.shape[1]]
    l_s = _params(op, lhs_scales, -1, list(lhs.shape), "lhs_scales").astype(np.float32)
    l_z = _params(op, lhs_zero_points, -1, list(lhs.shape), "lhs_zero_points")
    r_s = _params(op, rhs_scales, axis, list(rhs.shape), "rhs_scales").astype(np.float32)
    r_z = _params(op, rhs_zero_points, axis, list(rhs.shape), "rhs_zero_points")
    o_s = _params(op, output_scales, axis, out_shape, "output_scales").astype(np.float32)
    o_z = _params(op, output_zero_points, axis, out_shape, "output_zero_points")
    lc = b.subtract(_int32(b, lhs), _along(b, l_z, -1, list(lhs.shape), _I32))
    rc = b.subtract(_int32(b, rhs), _along(b, r_z, axis, list(rhs.shape), _I32))
    acc = b.dot_general(lc, rc, ((1,), (0,)), result_dtype=_I32)
    scaled = _requantize_centered(b, op, acc, (l_s * r_s).astype(np.float32), o_s, axis)
    q = b.add(scaled, _along(b, o_z, axis, out_shape, _I32))
    return _clamp(b, q, output_quantization_min_val, output_quantization_max_val, storage(Tout))



def _same_padding(n: int, k: int, stride: int, ld: int, rd: int) -> tuple[int, int]:
    """TF's SAME padding on the dilated operands: ceil(n / stride) outputs, the extra on the high side."""
    span_n, span_k = (n - 1) * ld + 1, (k - 1) * rd + 1
    total = max((-(-span_n // stride) - 1) * stride + span_k - span_n, 0)
    return total // 2, total - total // 2


def uniform_quantized_convolution(b, lhs, rhs, lhs_scales, lhs_zero_points, rhs_scales, rhs_zero_points,
                                  output_scales, output_zero_points, Tin=None, Tout=REQUIRED, window_strides=(),
                                  padding=REQUIRED, explicit_padding=(), lhs_dilation=(), rhs_dilation=(),
                                  batch_group_count=1, feature_group_count=1, dimension_numbers="",
                                  lhs_quantization_axis=-1, lhs_quantization_min_val=REQUIRED,
                                  lhs_quantization_max_val=REQUIRED, rhs_quantization_axis=-1,
                                  rhs_quantization_min_val=REQUIRED, rhs_quantization_max_val=REQUIRED,
                                  output_quantization_axis=-1, output_quantization_min_val=REQUIRED,
                                  output_quantization_max_val=REQUIRED):
    """The int32 convolution of (lhs - lhs_zp) and (rhs - rhs_zp) (zero padding there is padding by the zero
    point in the quantized domain), requantized from lhs_scale * rhs_scale to the output's; TF's default
    dimension numbers (lhs [b, f, spatial...], rhs [o, i, spatial...], output [b, f, spatial...]), rhs and
    output per tensor or per output feature (axes 0 and 1)."""
    op = "UniformQuantizedConvolution"
    if dimension_numbers not in ("", b"", None):
        raise UnimplementedError(at_user_line(f"{op}: only the default dimension_numbers are implemented in "
                                              f"minixla [Op:{op}]"))
    rank = len(lhs.shape)
    nsp = rank - 2
    if rank < 3 or len(rhs.shape) != rank:
        raise op_error(op, f"lhs and rhs must have the same rank >= 3, got {list(lhs.shape)} and {list(rhs.shape)}")
    strides = [int(v) for v in window_strides] or [1] * nsp
    ld = [int(v) for v in lhs_dilation] or [1] * nsp
    rd = [int(v) for v in rhs_dilation] or [1] * nsp
    if not len(strides) == len(ld) == len(rd) == nsp:
        raise op_error(op, f"window_strides, lhs_dilation and rhs_dilation must have {nsp} entries")
    padding = padding.decode() if isinstance(padding, bytes) else str(padding)
    if padding == "VALID":
        pads = [(0, 0)] * nsp
    elif padding == "SAME":
        pads = [_same_padding(lhs.shape[2 + i], rhs.shape[2 + i], strides[i], ld[i], rd[i]) for i in range(nsp)]
    elif padding == "EXPLICIT":
        flat = [int(v) for v in explicit_padding]
        if len(flat) != 2 * nsp:
            raise op_error(op, f"explicit_padding must have {2 * nsp} entries, got {len(flat)}")
        pads = list(zip(flat[0::2], flat[1::2]))
    else:
        raise op_error(op, f"padding must be SAME, VALID or EXPLICIT, got {padding!r}")
    if lhs_quantization_axis != -1:
        raise op_error(op, f"lhs_quantization_axis must be -1 (per-tensor), got {lhs_quantization_axis}")
    if (rhs_quantization_axis, output_quantization_axis) not in ((-1, -1), (0, 1)):
        raise op_error(op, "rhs_quantization_axis and output_quantization_axis must be -1 and -1, or the output "
                           f"feature axes 0 and 1, got {rhs_quantization_axis} and {output_quantization_axis}")
    l_s = _params(op, lhs_scales, -1, list(lhs.shape), "lhs_scales").astype(np.float32)
    l_z = _params(op, lhs_zero_points, -1, list(lhs.shape), "lhs_zero_points")
    r_s = _params(op, rhs_scales, rhs_quantization_axis, list(rhs.shape), "rhs_scales").astype(np.float32)
    r_z = _params(op, rhs_zero_points, rhs_quantization_axis, list(rhs.shape), "rhs_zero_points")
    lc = b.subtract(_int32(b, lhs), _along(b, l_z, -1, list(lhs.shape), _I32))
    rc = b.subtract(_int32(b, rhs), _along(b, r_z, rhs_quantization_axis, list(rhs.shape), _I32))
    sp = tuple(range(2, rank))
    acc = b.convolution(lc, rc, strides, pads, ld, rd, dn=(0, 1, sp, 1, 0, sp, 0, 1, sp),
                        feature_group_count=feature_group_count, batch_group_count=batch_group_count)
    out_shape = list(acc.shape)
    o_s = _params(op, output_scales, output_quantization_axis, out_shape, "output_scales").astype(np.float32)
    o_z = _params(op, output_zero_points, output_quantization_axis, out_shape, "output_zero_points")
    scaled = _requantize_centered(b, op, acc, (l_s * r_s).astype(np.float32), o_s, output_quantization_axis)
    q = b.add(scaled, _along(b, o_z, output_quantization_axis, out_shape, _I32))
    return _clamp(b, q, output_quantization_min_val, output_quantization_max_val, storage(Tout))


_ONE = {"quantization_axis": -1, "quantization_min_val": REQUIRED, "quantization_max_val": REQUIRED}
_SIDES = {f"{side}_{k}": v for side in ("lhs", "rhs", "output") for k, v in _ONE.items()}
_SCALES = ("scales", "zero_points")
_THREE = tuple(f"{side}_{k}" for side in ("lhs", "rhs", "output") for k in _SCALES)

register("UniformQuantize", ("input", *_SCALES), uniform_quantize, attrs={"Tin": None, "Tout": REQUIRED, **_ONE},
         const_inputs=_SCALES, typed=("input",))
register("UniformDequantize", ("input", *_SCALES), uniform_dequantize,
         attrs={"Tin": None, "Tout": REQUIRED, **_ONE}, const_inputs=_SCALES, typed=("input",))
register("UniformRequantize", ("input", *(f"{s}_{k}" for s in ("input", "output") for k in _SCALES)),
         uniform_requantize, attrs={"Tin": None, "Tout": REQUIRED,
                                    **{f"{s}_{k}": v for s in ("input", "output") for k, v in _ONE.items()}},
         const_inputs=tuple(f"{s}_{k}" for s in ("input", "output") for k in _SCALES), typed=("input",))
register("UniformQuantizedAdd", ("lhs", "rhs", *_THREE), uniform_quantized_add, attrs={**_SIDES, "T": None},
         const_inputs=_THREE, typed=("lhs", "rhs"))
register("UniformQuantizedClipByValue", ("operand", "min", "max", *_SCALES), uniform_quantized_clip_by_value,
         attrs={"T": None, **_ONE}, const_inputs=_SCALES, typed=("operand", "min", "max"))
register("UniformQuantizedDot", ("lhs", "rhs", *_THREE), uniform_quantized_dot,
         attrs={"Tin": None, "Tout": REQUIRED, **_SIDES}, const_inputs=_THREE, typed=())
register("UniformQuantizedConvolution", ("lhs", "rhs", *_THREE), uniform_quantized_convolution,
         attrs={"Tin": None, "Tout": REQUIRED, "window_strides": (), "padding": REQUIRED, "explicit_padding": (),
                "lhs_dilation": (), "rhs_dilation": (), "batch_group_count": 1, "feature_group_count": 1,
                "dimension_numbers": "", **_SIDES}, const_inputs=_THREE, typed=())
