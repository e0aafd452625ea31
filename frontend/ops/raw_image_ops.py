"""Image raw ops: ResizeBilinear, ResizeBilinearGrad, ResizeNearestNeighbor, ExtractImagePatches.

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
