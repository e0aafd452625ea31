"""Image raw ops: ResizeBilinear, ResizeBilinearGrad, ResizeNearestNeighbor, ExtractImagePatches,
AdjustContrastv2 and the colour-space ops (RGBToHSV, HSVToRGB, AdjustSaturation, AdjustHue).

A resize is separable, so each is two contractions with constant [out, in] interpolation matrices built
in numpy from TF's coordinate rules (align_corners, half_pixel_centers): rows of lerp weights for
bilinear, one-hot rows for nearest. ResizeBilinearGrad contracts with the transposed matrices, which is
also what differentiating ResizeBilinear gives. ExtractImagePatches is a convolution with a one-hot
kernel that copies each window element into its own output channel (tf2xla's lowering).
"""

from __future__ import annotations

import numpy as np

from minixla.frontend.ops.conv_ops import _same
from minixla.frontend.ops.registry import is_float, op_error, register, register_gradient, shape_text


def _scale(n_in: int, n_out: int, align_corners: bool) -> float:
    return (n_in - 1) / (n_out - 1) if align_corners and n_out > 1 else n_in / n_out


def _bilinear_matrix(n_in: int, n_out: int, align_corners: bool, half_pixel: bool) -> np.ndarray:
    scale = np.float32(_scale(n_in, n_out, align_corners))
    o = np.arange(n_out, dtype=np.float32)
    src = (o + np.float32(0.5)) * scale - np.float32(0.5) if half_pixel else o * scale
    lo_f = np.floor(src)
    lo = np.clip(lo_f, 0, n_in - 1).astype(int)
    hi = np.clip(np.ceil(src), 0, n_in - 1).astype(int)
    lerp = (src - lo_f).astype(np.float64)
    m = np.zeros((n_out, n_in))
    np.add.at(m, (np.arange(n_out), lo), 1 - lerp)
    np.add.at(m, (np.arange(n_out), hi), lerp)
    return m


def _nearest_matrix(n_in: int, n_out: int, align_corners: bool, half_pixel: bool) -> np.ndarray:
    scale = np.float32(_scale(n_in, n_out, align_corners))
    o = np.arange(n_out, dtype=np.float32)
    src = (o + np.float32(0.5)) * scale if half_pixel else o * scale
    idx = np.floor(src + np.float32(0.5)) if align_corners else np.floor(src)  # C's roundf: halves go up
    idx = np.clip(idx, 0, n_in - 1).astype(int)
    m = np.zeros((n_out, n_in))
    m[np.arange(n_out), idx] = 1
    return m


def _separable(b, x, mh, mw):
    """out[n, i, j, c] = sum mh[i, h] mw[j, w] x[n, h, w, c]."""
    t = b.dot_general(b.constant(mh, x.dtype), x, ([1], [1]))  # [oh, n, w, c]
    t = b.dot_general(t, b.constant(mw, x.dtype), ([2], [1]))  # [oh, n, c, ow]
    return b.transpose(t, [1, 0, 3, 2])


def _check(op, images, align_corners, half_pixel_centers):
    if len(images.shape) != 4:
        raise op_error(op, f"input must be 4-dimensional{shape_text(images.shape)}")
    if align_corners and half_pixel_centers:
        raise op_error(op, "If half_pixel_centers is True, align_corners must be False.")


def resize_bilinear(b, images, size, align_corners=False, half_pixel_centers=False):
    _check("ResizeBilinear", images, align_corners, half_pixel_centers)
    oh, ow = (int(v) for v in np.asarray(size).reshape(-1))
    _, h, w, _ = images.shape
    x = b.convert(images, np.float32)
    return _separable(b, x, _bilinear_matrix(h, oh, align_corners, half_pixel_centers),
                      _bilinear_matrix(w, ow, align_corners, half_pixel_centers))


def resize_bilinear_grad(b, grads, original_image, align_corners=False, half_pixel_centers=False):
    _check("ResizeBilinearGrad", original_image, align_corners, half_pixel_centers)
    _, h, w, _ = original_image.shape
    _, oh, ow, _ = grads.shape
    out = _separable(b, grads, _bilinear_matrix(h, oh, align_corners, half_pixel_centers).T,
                     _bilinear_matrix(w, ow, align_corners, half_pixel_centers).T)
    return b.convert(out, original_image.dtype)


def resize_nearest(b, images, size, align_corners=False, half_pixel_centers=False):
    """One-hot contractions (exact: one nonzero term per output), in float for the dot, then back."""
    _check("ResizeNearestNeighbor", images, align_corners, half_pixel_centers)
    oh, ow = (int(v) for v in np.asarray(size).reshape(-1))
    _, h, w, _ = images.shape
    dt = np.dtype(images.dtype)
    x = images if is_float(dt) else b.convert(images, np.float64)
    out = _separable(b, x, _nearest_matrix(h, oh, align_corners, half_pixel_centers),
                     _nearest_matrix(w, ow, align_corners, half_pixel_centers))
    return b.convert(out, dt)


register("ResizeBilinear", ("images", "size"), resize_bilinear,
         attrs={"align_corners": False, "half_pixel_centers": False}, const_inputs=("size",))
register("ResizeBilinearGrad", ("grads", "original_image"), resize_bilinear_grad,
         attrs={"align_corners": False, "half_pixel_centers": False}, typed=("original_image",))


@register_gradient("ResizeBilinearGrad")
def _resize_bilinear_grad_grad(b, op, grad):
    """TF registers none: ResizeBilinearGrad is not differentiable there."""
    return [None, None]


register("ResizeNearestNeighbor", ("images", "size"), resize_nearest,
         attrs={"align_corners": False, "half_pixel_centers": False}, const_inputs=("size",))


def extract_image_patches(b, images, ksizes, strides, rates, padding):
    """[n, h, w, c] -> [n, oh, ow, kh * kw * c], each patch flattened (row, column, channel)."""
    x = images
    if len(x.shape) != 4:
        raise op_error("ExtractImagePatches", f"input must be 4-dimensional{shape_text(x.shape)}")
    _, kh, kw, _ = (int(v) for v in ksizes)
    s = [int(strides[1]), int(strides[2])]
    r = [int(rates[1]), int(rates[2])]
    c = x.shape[3]
    depth = kh * kw * c
    # kernel [kh, kw, 1, kh*kw*c] with feature groups c: channel k of window element (i, j) -> output i*kw*c + j*c + k
    kernel = np.zeros((kh, kw, 1, depth))
    for i in range(kh):
        for j in range(kw):
            for k in range(c):
                kernel[i, j, 0, k * kh * kw + i * kw + j] = 1
    pads = ([_same(x.shape[1 + d], (kh, kw)[d], s[d], r[d]) for d in range(2)] if padding == "SAME"
            else [(0, 0), (0, 0)])
    dt = np.dtype(x.dtype)
    xf = x if is_float(dt) else b.convert(x, np.float64)
    out = b.convolution(xf, b.constant(kernel, xf.dtype), s, pads, (1, 1), r, feature_group_count=c)
    # grouped output order is (channel, row, column): reorder to TF's (row, column, channel)
    n, oh, ow, _ = out.shape
    out = b.reshape(b.transpose(b.reshape(out, [n, oh, ow, c, kh * kw]), [0, 1, 2, 4, 3]), [n, oh, ow, depth])
    return b.convert(out, dt)


register("ExtractImagePatches", ("images",), extract_image_patches,
         attrs={"ksizes": None, "strides": None, "rates": None, "padding": "VALID"})


def adjust_contrast(b, images, contrast_factor):
    """(x - mean) * factor + mean, the mean per image and channel over height and width."""
    x = images
    if len(x.shape) < 3:
        raise op_error("AdjustContrastv2", f"input must be at least 3-D, got shape{shape_text(x.shape)}")
    rank = len(x.shape)
    hw = [rank - 3, rank - 2]
    n = x.shape[rank - 3] * x.shape[rank - 2]
    kept = [d for d in range(rank) if d not in hw]
    mean = b.divide(b.reduce(x, b.scalar(0, x.dtype), hw, "add"), b.full([x.shape[d] for d in kept], n, x.dtype))
    mean = b.broadcast_in_dim(mean, x.shape, kept)
    factor = b.broadcast_in_dim(b.convert(contrast_factor, x.dtype), x.shape, [])
    return b.add(b.multiply(b.subtract(x, mean), factor), mean)


register("AdjustContrastv2", ("images", "contrast_factor"), adjust_contrast, typed=("images",))


# -- colour spaces (tf2xla's formulas; the last axis holds the 3 channels) --------------------------------

def _channels(b, x):
    if not x.shape or x.shape[-1] != 3:
        raise op_error("RGBToHSV", f"input must have 3 channels but input only has {x.shape[-1] if x.shape else 0} "
                                   "channels.")
    r = len(x.shape) - 1
    out = []
    for i in range(3):
        start, limit = [0] * (r + 1), list(x.shape)
        start[r], limit[r] = i, i + 1
        out.append(b.reshape(b.slice(x, start, limit), list(x.shape[:-1])))
    return out


def _stack(b, parts):
    shape = list(parts[0].shape) + [1]
    return b.concatenate([b.reshape(p, shape) for p in parts], len(shape) - 1)


def _rgb_to_hsv(b, red, green, blue):
    def c(v):
        return b.full(red.shape, v, red.dtype)

    value = b.maximum(b.maximum(red, green), blue)
    range_ = b.subtract(value, b.minimum(b.minimum(red, green), blue))
    positive = b.compare(range_, c(0), "GT")
    saturation = b.select(b.compare(value, c(0), "GT"),
                          b.divide(range_, b.select(b.compare(value, c(0), "GT"), value, c(1))), c(0))
    norm = b.divide(c(1), b.multiply(c(6), b.select(positive, range_, c(1))))  # 1/(6 range), finite everywhere
    hue = b.select(b.compare(green, value, "EQ"), b.add(b.multiply(norm, b.subtract(blue, red)), c(2 / 6)),
                   b.add(b.multiply(norm, b.subtract(red, green)), c(4 / 6)))
    hue = b.select(b.compare(red, value, "EQ"), b.multiply(norm, b.subtract(green, blue)), hue)
    hue = b.select(positive, hue, c(0))
    hue = b.select(b.compare(hue, c(0), "LT"), b.add(hue, c(1)), hue)
    return hue, saturation, value


def _hsv_to_rgb(b, hue, saturation, value):
    def c(v):
        return b.full(hue.shape, v, hue.dtype)

    dh = b.multiply(hue, c(6))
    dr = b.clamp(b.scalar(0, hue.dtype), b.subtract(b.abs(b.subtract(dh, c(3))), c(1)), b.scalar(1, hue.dtype))
    dg = b.clamp(b.scalar(0, hue.dtype), b.subtract(c(2), b.abs(b.subtract(dh, c(2)))), b.scalar(1, hue.dtype))
    db = b.clamp(b.scalar(0, hue.dtype), b.subtract(c(2), b.abs(b.subtract(dh, c(4)))), b.scalar(1, hue.dtype))
    one_minus_s = b.subtract(c(1), saturation)
    return [b.multiply(value, b.add(one_minus_s, b.multiply(saturation, d))) for d in (dr, dg, db)]


def rgb_to_hsv(b, images):
    return _stack(b, _rgb_to_hsv(b, *_channels(b, images)))


def hsv_to_rgb(b, images):
    return _stack(b, _hsv_to_rgb(b, *_channels(b, images)))


def adjust_saturation(b, images, scale):
    h, s, v = _rgb_to_hsv(b, *_channels(b, images))
    s = b.clamp(b.scalar(0, s.dtype), b.multiply(s, b.broadcast_in_dim(scale, s.shape, [])), b.scalar(1, s.dtype))
    return _stack(b, _hsv_to_rgb(b, h, s, v))


def adjust_hue(b, images, delta):
    h, s, v = _rgb_to_hsv(b, *_channels(b, images))
    h = b.remainder(b.add(h, b.broadcast_in_dim(delta, h.shape, [])), b.full(h.shape, 1, h.dtype))
    h = b.select(b.compare(h, b.full(h.shape, 0, h.dtype), "LT"), b.add(h, b.full(h.shape, 1, h.dtype)), h)
    return _stack(b, _hsv_to_rgb(b, h, s, v))


register("RGBToHSV", ("images",), rgb_to_hsv)
register("HSVToRGB", ("images",), hsv_to_rgb)


@register_gradient("HSVToRGB")
def _hsv_to_rgb_grad(b, op, grad):
    """TF registers none."""
    return [None]
register("AdjustSaturation", ("images", "scale"), adjust_saturation)
register("AdjustHue", ("images", "delta"), adjust_hue)
