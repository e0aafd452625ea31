"""`Conv2D` (NHWC input, HWIO filter) as one `hlo.convolution`, with TF's SAME/VALID padding."""

from __future__ import annotations

from .registry import op_error, register, shape_text


def _same(n, k, s, d):
    span = (k - 1) * d + 1
    out = -(-n // s)
    total = max((out - 1) * s + span - n, 0)
    return total // 2, total - total // 2


def conv2d(b, input, filter, strides=(1, 1, 1, 1), padding="VALID", data_format="NHWC", dilations=(1, 1, 1, 1),
           explicit_paddings=()):
    x, w = input, filter
    if len(x.shape) != 4 or len(w.shape) != 4:
        raise op_error("Conv2D", f"input and filter must be 4-D: {shape_text(x.shape)}, {shape_text(w.shape)}")
    nchw = data_format == "NCHW"
    sp = (2, 3) if nchw else (1, 2)
    feat = 1 if nchw else 3
    if x.shape[feat] % w.shape[2]:
        raise op_error("Conv2D", f"input depth must be evenly divisible by filter depth: {x.shape[feat]} vs "
                                 f"{w.shape[2]}")
    s = [strides[d] for d in sp]
    dil = [dilations[d] for d in sp]
    if padding == "SAME":
        pads = [_same(x.shape[d], w.shape[i], s[i], dil[i]) for i, d in enumerate(sp)]
    elif padding == "EXPLICIT":
        pads = [(explicit_paddings[2 * d], explicit_paddings[2 * d + 1]) for d in sp]
    else:
        pads = [(0, 0), (0, 0)]
    dn = (0, feat, sp, 2, 3, (0, 1), 0, feat, sp)
    return b.convolution(x, w, s, pads, (1, 1), dil, dn, feature_group_count=x.shape[feat] // w.shape[2])


register("Conv2D", ("input", "filter"), conv2d,
         attrs={"strides": (1, 1, 1, 1), "padding": "VALID", "data_format": "NHWC", "dilations": (1, 1, 1, 1),
                "explicit_paddings": ()})
