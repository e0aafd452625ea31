"""`Conv2D` (NHWC input, HWIO filter) as one `hlo.convolution`, with TF's SAME/VALID padding; `conv_nd`
serves Conv3D (ops/p1_nn_ops.py) too."""

from __future__ import annotations

from minixla.frontend.ops.registry import op_error, register, shape_text


def _same(n, k, s, d):
    span = (k - 1) * d + 1
    out = -(-n // s)
    total = max((out - 1) * s + span - n, 0)
    return total // 2, total - total // 2


def conv_nd(b, op, x, w, strides, padding, data_format, dilations, explicit_paddings=()):
    """TF's N-d convolution (channels last or first) as one `hlo.convolution`; `op` names errors."""
    nsp = len(x.shape) - 2
    if len(w.shape) != nsp + 2:
        raise op_error(op, f"input and filter must have the same rank: {shape_text(x.shape)}, "
                           f"{shape_text(w.shape)}")
    cf = data_format.startswith("NC")
    sp = tuple(range(2, 2 + nsp)) if cf else tuple(range(1, 1 + nsp))
    feat = 1 if cf else nsp + 1
    if x.shape[feat] % w.shape[nsp]:
        raise op_error(op, f"input depth must be evenly divisible by filter depth: {x.shape[feat]} vs "
                           f"{w.shape[nsp]}")
    s = [strides[d] for d in sp]
    dil = [dilations[d] for d in sp]
    if padding == "SAME":
        pads = [_same(x.shape[d], w.shape[i], s[i], dil[i]) for i, d in enumerate(sp)]
    elif padding == "EXPLICIT":
        pads = [(explicit_paddings[2 * d], explicit_paddings[2 * d + 1]) for d in sp]
    else:
        pads = [(0, 0)] * nsp
    dn = (0, feat, sp, nsp, nsp + 1, tuple(range(nsp)), 0, feat, sp)
    return b.convolution(x, w, s, pads, (1,) * nsp, dil, dn, feature_group_count=x.shape[feat] // w.shape[nsp])


def conv2d(b, input, filter, strides=(1, 1, 1, 1), padding="VALID", data_format="NHWC", dilations=(1, 1, 1, 1),
           explicit_paddings=()):
    x, w = input, filter
    if len(x.shape) != 4 or len(w.shape) != 4:
        raise op_error("Conv2D", f"input and filter must be 4-D: {shape_text(x.shape)}, {shape_text(w.shape)}")
    return conv_nd(b, "Conv2D", x, w, strides, padding, data_format, dilations, explicit_paddings)


register("Conv2D", ("input", "filter"), conv2d,
         attrs={"strides": (1, 1, 1, 1), "padding": "VALID", "data_format": "NHWC", "dilations": (1, 1, 1, 1),
                "explicit_paddings": ()})
