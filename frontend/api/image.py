"""`tf.image`: colour spaces, adjustments, crops and pads, geometry, quality metrics, random
augmentation -- written as TensorFlow's `image_ops_impl.py` writes them, on the public `tf` ops,
so every function runs eagerly, in `tf.function` and under `jit_compile=True`, and is
differentiable wherever its ops are. (flip/crop_to_bounding_box/resize live in nn_conv_image.py;
non-max suppression, which XLA cannot compile, is a host op in frontend/ops/image_ops.py.)

The functions reach ops through the `tf` module handed to `install` (no import of frontend.tf,
which imports this module).
"""

from __future__ import annotations

import numpy as np

tf = None  # the public `tf` module, set by install()


# -- dtype conversion ------------------------------------------------------------------------

def _is_int(dt) -> bool:
    return dt.is_integer


def convert_image_dtype(image, dtype, saturate=False, name=None):
    """Integers are in [0, MAX], floats in [0, 1): scale between the two ranges (TF's rules)."""
    image = tf.convert_to_tensor(image)
    dtype = tf.as_dtype(dtype)
    if not (dtype.is_floating or dtype.is_integer) or not (image.dtype.is_floating or image.dtype.is_integer):
        raise AttributeError("dtype must be either floating point or integer")
    if dtype == image.dtype:
        return tf.identity(image)
    if _is_int(image.dtype) and _is_int(dtype):
        scale_in, scale_out = image.dtype.max, dtype.max
        if scale_in > scale_out:
            scale = (scale_in + 1) // (scale_out + 1)
            scaled = tf.math.floordiv(image, tf.cast(scale, image.dtype))
            return _saturate_cast(scaled, dtype) if saturate else tf.cast(scaled, dtype)
        scale = (scale_out + 1) // (scale_in + 1)
        scaled = _saturate_cast(image, dtype) if saturate else tf.cast(image, dtype)
        return tf.multiply(scaled, tf.cast(scale, dtype))
    if image.dtype.is_floating and dtype.is_floating:
        return tf.cast(image, dtype)
    if _is_int(image.dtype):  # int -> float
        return tf.multiply(tf.cast(image, dtype), tf.cast(1.0 / image.dtype.max, dtype))
    scaled = tf.multiply(image, tf.cast(dtype.max + 0.5, image.dtype))  # float -> int
    return _saturate_cast(scaled, dtype) if saturate else tf.cast(scaled, dtype)


def _saturate_cast(value, dtype):
    """Clamp to the destination's range before casting (tf.dtypes.saturate_cast)."""
    value = tf.convert_to_tensor(value)
    if value.dtype.min < dtype.min:
        value = tf.maximum(value, tf.cast(dtype.min, value.dtype))
    if value.dtype.max > dtype.max:
        value = tf.minimum(value, tf.cast(dtype.max, value.dtype))
    return tf.cast(value, dtype)


def _as_float(image):
    """(float image, original dtype): float16/32 stay, the rest go through float32."""
    image = tf.convert_to_tensor(image)
    if image.dtype in (tf.float16, tf.float32):
        return image, image.dtype
    return convert_image_dtype(image, tf.float32), image.dtype


def _back(image, orig_dtype):
    return convert_image_dtype(image, orig_dtype, saturate=True)


def _at_least_3d(image, what="image"):
    image = tf.convert_to_tensor(image)
    if image.shape.rank is not None and image.shape.rank < 3:
        raise ValueError(f"'{what}' (shape {image.shape}) must be at least three-dimensional.")
    return image


def _rank_3_or_4(image, what="image"):
    image = tf.convert_to_tensor(image)
    if image.shape.rank not in (3, 4):
        raise ValueError(f"'{what}' (shape {image.shape}) must have either 3 or 4 dimensions.")
    return image


# -- adjustments -----------------------------------------------------------------------------

def adjust_brightness(image, delta):
    flt, orig = _as_float(image)
    return _back(tf.add(flt, tf.cast(delta, flt.dtype)), orig)


def adjust_contrast(images, contrast_factor):
    """(x - mean) * factor + mean, the mean per image and channel over height and width."""
    flt, orig = _as_float(images)
    mean = tf.reduce_mean(flt, axis=[-3, -2], keepdims=True)
    factor = tf.cast(contrast_factor, flt.dtype)
    return _back(tf.add(tf.multiply(tf.subtract(flt, mean), factor), mean), orig)


def adjust_gamma(image, gamma=1, gain=1):
    flt, orig = _as_float(image)
    if isinstance(gamma, (int, float)) and gamma < 0:
        raise ValueError("Gamma should be a non-negative real number.")
    return _back(tf.multiply(tf.cast(gain, flt.dtype), tf.pow(flt, tf.cast(gamma, flt.dtype))), orig)


def adjust_hue(image, delta, name=None):
    flt, orig = _as_float(image)
    h, s, v = tf.unstack(rgb_to_hsv(flt), axis=-1)
    h = tf.math.floormod(tf.add(h, tf.cast(delta, h.dtype)), tf.cast(1.0, h.dtype))
    return _back(_hsv_to_rgb(tf.stack([h, s, v], axis=-1)), orig)


def adjust_saturation(image, saturation_factor, name=None):
    flt, orig = _as_float(image)
    h, s, v = tf.unstack(rgb_to_hsv(flt), axis=-1)
    s = tf.clip_by_value(tf.multiply(s, tf.cast(saturation_factor, s.dtype)), 0.0, 1.0)
    return _back(_hsv_to_rgb(tf.stack([h, s, v], axis=-1)), orig)


def per_image_standardization(image):
    """(x - mean) / max(stddev, 1/sqrt(N)) over each image's pixels and channels."""
    image = tf.cast(_at_least_3d(image), tf.float32)
    dims = image.shape.as_list()[-3:]
    num_pixels = int(np.prod(dims))
    mean = tf.reduce_mean(image, axis=[-1, -2, -3], keepdims=True)
    stddev = tf.math.reduce_std(image, axis=[-1, -2, -3], keepdims=True)
    adjusted = tf.maximum(stddev, tf.math.rsqrt(tf.cast(num_pixels, tf.float32)))
    return tf.divide(tf.subtract(image, mean), adjusted)


# -- colour spaces ---------------------------------------------------------------------------

def rgb_to_hsv(images, name=None):
    """TF's RGBToHSV: hue in [0, 1), saturation = range / value (0 where value is 0)."""
    images = tf.convert_to_tensor(images)
    r, g, b = tf.unstack(images, axis=-1)
    value = tf.maximum(tf.maximum(r, g), b)
    rng = tf.subtract(value, tf.minimum(tf.minimum(r, g), b))
    zero = tf.zeros_like(value)
    saturation = tf.where(value > 0, tf.math.divide_no_nan(rng, value), zero)
    norm = tf.math.reciprocal(tf.where(rng > 0, rng, tf.ones_like(rng))) * np.float32(1 / 6)
    hue = tf.where(tf.equal(value, r), norm * (g - b),
                   tf.where(tf.equal(value, g), norm * (b - r) + np.float32(2 / 6), norm * (r - g) + np.float32(4 / 6)))
    hue = tf.where(hue < 0, hue + 1.0, hue)
    hue = tf.where(rng > 0, hue, zero)
    return tf.stack([hue, saturation, value], axis=-1)


def hsv_to_rgb(images, name=None):
    """TF's HSVToRGB, which TF declares not differentiable (its gradient is None here too)."""
    return tf.stop_gradient(_hsv_to_rgb(images))


def _hsv_to_rgb(images):
    """The hue's sextant picks which of (c, x, 0) each channel gets, plus m."""
    images = tf.convert_to_tensor(images)
    h, s, v = tf.unstack(images, axis=-1)
    c = s * v
    m = v - c
    dh = h * 6.0
    sextant = tf.cast(tf.floor(dh), tf.int32)
    x = c * (1.0 - tf.abs(tf.math.floormod(dh, 2.0) - 1.0))
    zero = tf.zeros_like(c)
    table = [(c, x, zero), (x, c, zero), (zero, c, x), (zero, x, c), (x, zero, c), (c, zero, x)]
    channels = []
    for ch in range(3):
        out = zero
        for k, row in enumerate(table):
            out = tf.where(tf.equal(sextant, k), row[ch], out)
        channels.append(out + m)
    return tf.stack(channels, axis=-1)


_RGB_TO_YIQ = [[0.299, 0.59590059, 0.2115], [0.587, -0.27455667, -0.52273617], [0.114, -0.32134392, 0.31119955]]
_YIQ_TO_RGB = [[1, 1, 1], [0.95598634, -0.27201283, -1.10674021], [0.6208248, -0.64720424, 1.70423049]]
_RGB_TO_YUV = [[0.299, -0.14714119, 0.61497538], [0.587, -0.28886916, -0.51496512], [0.114, 0.43601035, -0.10001026]]
_YUV_TO_RGB = [[1, 1, 1], [0, -0.394642334, 2.03206185], [1.13988303, -0.58062185, 0]]


def _colour_matrix(kernel):
    def convert(images, name=None):
        images = tf.convert_to_tensor(images)
        k = tf.constant(np.asarray(kernel, np.float64), dtype=images.dtype)
        return tf.tensordot(images, k, axes=[[images.shape.rank - 1], [0]])
    return convert


rgb_to_yiq = _colour_matrix(_RGB_TO_YIQ)
yiq_to_rgb = _colour_matrix(_YIQ_TO_RGB)
rgb_to_yuv = _colour_matrix(_RGB_TO_YUV)
yuv_to_rgb = _colour_matrix(_YUV_TO_RGB)


def rgb_to_grayscale(images, name=None):
    images = tf.convert_to_tensor(images)
    orig = images.dtype
    flt = convert_image_dtype(images, tf.float32)
    gray = tf.tensordot(flt, tf.constant([0.2989, 0.5870, 0.1140], tf.float32), axes=[[flt.shape.rank - 1], [0]])
    return convert_image_dtype(tf.expand_dims(gray, -1), orig)


def grayscale_to_rgb(images, name=None):
    images = tf.convert_to_tensor(images)
    if images.shape.rank is not None and images.shape.rank < 2:
        raise ValueError(f"'images' (shape {images.shape}) must be at least two-dimensional.")
    if images.shape[-1] is not None and images.shape[-1] != 1:
        raise ValueError(f"Last dimension of a grayscale image should be size 1, got {images.shape[-1]}.")
    return tf.tile(images, [1] * (images.shape.rank - 1) + [3])


# -- geometry --------------------------------------------------------------------------------

def _hw_axes(image):
    return (0, 1) if image.shape.rank == 3 else (1, 2)


def transpose(image, name=None):
    image = _rank_3_or_4(image)
    return tf.transpose(image, [1, 0, 2] if image.shape.rank == 3 else [0, 2, 1, 3])


def rot90(image, k=1, name=None):
    """Counter-clockwise by k quarter turns."""
    image = _rank_3_or_4(image)
    h, w = _hw_axes(image)
    k = int(k) % 4
    if k == 0:
        return image
    if k == 2:
        return tf.reverse(image, [h, w])
    if k == 1:
        return transpose(tf.reverse(image, [w]))
    return tf.reverse(transpose(image), [w])


def _hw(image):
    shape = image.shape.as_list()
    return shape[-3], shape[-2]


def pad_to_bounding_box(image, offset_height, offset_width, target_height, target_width):
    image = _rank_3_or_4(image)
    height, width = _hw(image)
    after_h = int(target_height) - int(offset_height) - height
    after_w = int(target_width) - int(offset_width) - width
    for ok, msg in ((int(offset_height) >= 0, "offset_height must be >= 0"),
                    (int(offset_width) >= 0, "offset_width must be >= 0"),
                    (after_w >= 0, "width must be <= target - offset"),
                    (after_h >= 0, "height must be <= target - offset")):
        if not ok:
            raise ValueError(msg)
    pads = [[int(offset_height), after_h], [int(offset_width), after_w], [0, 0]]
    return tf.pad(image, pads if image.shape.rank == 3 else [[0, 0], *pads])


def central_crop(image, central_fraction):
    image = _rank_3_or_4(image)
    if central_fraction <= 0.0 or central_fraction > 1.0:
        raise ValueError("central_fraction must be within (0, 1]")
    if central_fraction == 1.0:
        return image
    height, width = _hw(image)
    top = int((height - height * central_fraction) / 2)
    left = int((width - width * central_fraction) / 2)
    return tf.image.crop_to_bounding_box(image, top, left, height - 2 * top, width - 2 * left)


def resize_with_crop_or_pad(image, target_height, target_width):
    image = _rank_3_or_4(image)
    height, width = _hw(image)
    th, tw = int(target_height), int(target_width)
    if th <= 0 or tw <= 0:
        raise ValueError("target_height and target_width must be > 0")
    dh, dw = th - height, tw - width
    cropped = tf.image.crop_to_bounding_box(image, max(-dh // 2, 0), max(-dw // 2, 0), min(th, height), min(tw, width))
    return pad_to_bounding_box(cropped, max(dh // 2, 0), max(dw // 2, 0), th, tw)


def resize_with_pad(image, target_height, target_width, method="bilinear", antialias=False):
    """Resize keeping the aspect ratio, then pad with zeros to the target (sizes in float32, as TF)."""
    image = _rank_3_or_4(image)
    height, width = _hw(image)
    f32 = np.float32
    fh, fw, fth, ftw = f32(height), f32(width), f32(target_height), f32(target_width)
    ratio = max(fw / ftw, fh / fth)
    rh, rw = fh / ratio, fw / ratio
    resized = tf.image.resize(image, [int(np.floor(rh)), int(np.floor(rw))], method=method, antialias=antialias)
    ph = max(0, int(np.floor((fth - rh) / f32(2))))
    pw = max(0, int(np.floor((ftw - rw) / f32(2))))
    return pad_to_bounding_box(resized, ph, pw, int(target_height), int(target_width))


def extract_patches(images, sizes, strides, rates, padding, name=None):
    """ExtractImagePatches: each output pixel holds its (rows x cols x depth) patch, row-major."""
    images = tf.convert_to_tensor(images)
    if images.shape.rank != 4:
        raise ValueError(f"input must be 4-dimensional, got shape {images.shape}")
    _, h, w, _ = images.shape.as_list()
    kh, kw, sh, sw, rh, rw = sizes[1], sizes[2], strides[1], strides[2], rates[1], rates[2]
    eh, ew = kh + (kh - 1) * (rh - 1), kw + (kw - 1) * (rw - 1)
    padding = padding.upper()
    if padding == "VALID":
        oh, ow = -(-(h - eh + 1) // sh), -(-(w - ew + 1) // sw)
        top = left = 0
        x = images
    elif padding == "SAME":
        oh, ow = -(-h // sh), -(-w // sw)
        pad_h, pad_w = max((oh - 1) * sh + eh - h, 0), max((ow - 1) * sw + ew - w, 0)
        top, left = pad_h // 2, pad_w // 2
        x = tf.pad(images, [[0, 0], [top, pad_h - top], [left, pad_w - left], [0, 0]])
    else:
        raise ValueError(f"padding must be 'VALID' or 'SAME', got {padding!r}")
    if oh <= 0 or ow <= 0:
        return tf.zeros([images.shape[0], max(oh, 0), max(ow, 0), kh * kw * images.shape[3]], images.dtype)
    patches = []
    for i in range(kh):
        for j in range(kw):
            y0, x0 = i * rh, j * rw
            patches.append(tf.strided_slice(x, [0, y0, x0, 0], [x.shape[0], y0 + (oh - 1) * sh + 1,
                                                               x0 + (ow - 1) * sw + 1, x.shape[3]],
                                            [1, sh, sw, 1]))
    return tf.concat(patches, axis=-1)


def crop_and_resize(image, boxes, box_indices, crop_size, method="bilinear", extrapolation_value=0.0, name=None):
    """CropAndResize: each normalized box [y1, x1, y2, x2] of image box_indices[i], sampled on a
    crop_size grid (bilinear or nearest); samples outside the image get extrapolation_value."""
    image = tf.convert_to_tensor(image)
    if image.shape.rank != 4:
        raise ValueError(f"input image must be 4-D, got shape {image.shape}")
    image = tf.cast(image, tf.float32)
    boxes = tf.cast(tf.convert_to_tensor(boxes), tf.float32)
    box_indices = tf.cast(tf.convert_to_tensor(box_indices), tf.int32)
    _, h, w, _ = image.shape.as_list()
    ch, cw = (int(v) for v in crop_size)
    if ch <= 0 or cw <= 0:
        raise ValueError("crop dimensions must be positive")
    y1, x1, y2, x2 = tf.unstack(boxes, axis=1)

    def grid(lo, hi, n, size):
        if n > 1:
            step = (hi - lo) * float(size - 1) / float(n - 1)
            pos = lo[:, None] * float(size - 1) + tf.range(n, dtype=tf.float32)[None, :] * step[:, None]
        else:
            pos = (0.5 * (lo + hi) * float(size - 1))[:, None]
        return pos, tf.logical_and(pos >= 0.0, pos <= float(size - 1))

    ys, y_in = grid(y1, y2, ch, h)  # [n, ch]
    xs, x_in = grid(x1, x2, cw, w)  # [n, cw]
    valid = tf.logical_and(y_in[:, :, None], x_in[:, None, :])[..., None]  # [n, ch, cw, 1]
    nb = boxes.shape[0]

    def sample(img, yi, xi):  # yi [n, ch], xi [n, cw] int32 -> [n, ch, cw, depth]
        yi = tf.clip_by_value(yi, 0, h - 1)
        xi = tf.clip_by_value(xi, 0, w - 1)
        b = tf.broadcast_to(box_indices[:, None, None], [nb, ch, cw])
        yy = tf.broadcast_to(yi[:, :, None], [nb, ch, cw])
        xx = tf.broadcast_to(xi[:, None, :], [nb, ch, cw])
        return tf.gather_nd(img, tf.stack([b, yy, xx], axis=-1))

    def bilinear(img):
        top, left = tf.floor(ys), tf.floor(xs)
        ylerp, xlerp = (ys - top)[:, :, None, None], (xs - left)[:, None, :, None]
        t, b_ = tf.cast(top, tf.int32), tf.cast(tf.math.ceil(ys), tf.int32)
        lf, rt = tf.cast(left, tf.int32), tf.cast(tf.math.ceil(xs), tf.int32)
        top_row = sample(img, t, lf) + (sample(img, t, rt) - sample(img, t, lf)) * xlerp
        bottom_row = sample(img, b_, lf) + (sample(img, b_, rt) - sample(img, b_, lf)) * xlerp
        return top_row + (bottom_row - top_row) * ylerp

    if method == "nearest":
        out = sample(image, tf.cast(tf.floor(ys + 0.5), tf.int32), tf.cast(tf.floor(xs + 0.5), tf.int32))  # roundf
        # TF's CropAndResizeGradBoxes is the bilinear one whatever the method: add a zero with that gradient
        lerped = bilinear(tf.stop_gradient(image))
        out = out + (lerped - tf.stop_gradient(lerped))
    elif method == "bilinear":
        out = bilinear(image)
    else:
        raise ValueError(f"method must be 'bilinear' or 'nearest', got {method!r}")
    return tf.where(valid, out, tf.cast(extrapolation_value, tf.float32))


# -- gradients, edges, variation -------------------------------------------------------------

def image_gradients(image):
    """(dy, dx): forward differences, zero in the last row / column."""
    image = tf.convert_to_tensor(image)
    if image.shape.rank != 4:
        raise ValueError(f"image_gradients expects a 4D tensor [batch_size, h, w, d], not {image.shape}.")
    b, h, w, d = image.shape.as_list()
    dy = image[:, 1:, :, :] - image[:, :-1, :, :]
    dx = image[:, :, 1:, :] - image[:, :, :-1, :]
    dy = tf.concat([dy, tf.zeros([b, 1, w, d], image.dtype)], axis=1)
    dx = tf.concat([dx, tf.zeros([b, h, 1, d], image.dtype)], axis=2)
    return dy, dx


def sobel_edges(image):
    """[batch, h, w, d, 2]: the vertical and horizontal Sobel responses (REFLECT padding)."""
    image = tf.convert_to_tensor(image)
    kernels = np.asarray([[[-1, -2, -1], [0, 0, 0], [1, 2, 1]], [[-1, 0, 1], [-2, 0, 2], [-1, 0, 1]]])
    kernels = np.expand_dims(np.transpose(kernels, (1, 2, 0)), -2)
    depth = image.shape[-1]
    k = tf.tile(tf.constant(kernels.astype(image.dtype.as_numpy_dtype)), [1, 1, depth, 1])
    padded = tf.pad(image, [[0, 0], [1, 1], [1, 1], [0, 0]], mode="REFLECT")
    out = tf.nn.depthwise_conv2d(padded, k, [1, 1, 1, 1], "VALID")
    return tf.reshape(out, image.shape.as_list() + [2])


def total_variation(images, name=None):
    images = _rank_3_or_4(images, "images")
    if images.shape.rank == 3:
        d1 = images[1:, :, :] - images[:-1, :, :]
        d2 = images[:, 1:, :] - images[:, :-1, :]
        axis = None
    else:
        d1 = images[:, 1:, :, :] - images[:, :-1, :, :]
        d2 = images[:, :, 1:, :] - images[:, :, :-1, :]
        axis = [1, 2, 3]
    return tf.reduce_sum(tf.abs(d1), axis=axis) + tf.reduce_sum(tf.abs(d2), axis=axis)


# -- quality metrics -------------------------------------------------------------------------

def _as_float32_pair(a, b, max_val):
    a, b = tf.convert_to_tensor(a), tf.convert_to_tensor(b)
    if a.shape.as_list()[-3:] != b.shape.as_list()[-3:]:
        raise ValueError(f"Shapes must have the same height, width and depth: {a.shape} vs {b.shape}")
    max_val = convert_image_dtype(tf.cast(max_val, a.dtype), tf.float32)
    return convert_image_dtype(a, tf.float32), convert_image_dtype(b, tf.float32), max_val


def psnr(a, b, max_val, name=None):
    a, b, max_val = _as_float32_pair(a, b, max_val)
    mse = tf.reduce_mean(tf.math.squared_difference(a, b), [-3, -2, -1])
    return tf.subtract(20 * tf.math.log(max_val) / tf.math.log(10.0),
                       np.float32(10 / np.log(10)) * tf.math.log(mse))


def _gauss_kernel(size, sigma):
    coords = tf.cast(tf.range(size), tf.float32) - float(size - 1) / 2.0
    g = tf.square(coords) * (-0.5 / sigma ** 2)
    g = tf.reshape(tf.reshape(g, [1, -1]) + tf.reshape(g, [-1, 1]), [1, -1])
    return tf.reshape(tf.nn.softmax(g), [size, size, 1, 1])


def _ssim_per_channel(img1, img2, max_val, filter_size, filter_sigma, k1, k2):
    shape = img1.shape.as_list()
    if shape[-3] < filter_size or shape[-2] < filter_size:
        raise ValueError(f"image size {shape[-3:-1]} must be at least the filter size {filter_size}")
    kernel = tf.tile(_gauss_kernel(filter_size, np.float32(filter_sigma)), [1, 1, shape[-1], 1])

    def reducer(x):
        s = x.shape.as_list()
        y = tf.nn.depthwise_conv2d(tf.reshape(x, [-1, *s[-3:]]), kernel, [1, 1, 1, 1], "VALID")
        return tf.reshape(y, s[:-3] + y.shape.as_list()[1:])

    c1, c2 = (k1 * max_val) ** 2, (k2 * max_val) ** 2
    mean0, mean1 = reducer(img1), reducer(img2)
    num0 = mean0 * mean1 * 2.0
    den0 = tf.square(mean0) + tf.square(mean1)
    luminance = (num0 + c1) / (den0 + c1)
    num1 = reducer(img1 * img2) * 2.0
    den1 = reducer(tf.square(img1) + tf.square(img2))
    cs = (num1 - num0 + c2) / (den1 - den0 + c2)
    return tf.reduce_mean(luminance * cs, [-3, -2]), tf.reduce_mean(cs, [-3, -2])


def ssim(img1, img2, max_val, filter_size=11, filter_sigma=1.5, k1=0.01, k2=0.03, return_index_map=False):
    if return_index_map:
        raise NotImplementedError("tf.image.ssim(return_index_map=True) is not implemented in minixla")
    img1, img2, max_val = _as_float32_pair(img1, img2, max_val)
    per_channel, _ = _ssim_per_channel(img1, img2, max_val, filter_size, filter_sigma, k1, k2)
    return tf.reduce_mean(per_channel, [-1])


_MSSSIM_WEIGHTS = (0.0448, 0.2856, 0.3001, 0.2363, 0.1333)


def ssim_multiscale(img1, img2, max_val, power_factors=_MSSSIM_WEIGHTS, filter_size=11, filter_sigma=1.5,
                    k1=0.01, k2=0.03):
    """MS-SSIM: SSIM's contrast-structure at each 2x average-pooled scale (odd sizes padded
    SYMMETRIC first), times the full SSIM at the coarsest, weighted by power_factors."""
    img1, img2, max_val = _as_float32_pair(img1, img2, max_val)
    imgs = [img1, img2]
    head = img1.shape.as_list()[:-3]
    mcs = []
    per_channel = None
    for k in range(len(power_factors)):
        if k > 0:
            tail = imgs[0].shape.as_list()[-3:]
            flat = [tf.reshape(x, [-1, *tail]) for x in imgs]
            rem_h, rem_w = tail[0] % 2, tail[1] % 2
            if rem_h or rem_w:
                flat = [tf.pad(x, [[0, 0], [0, rem_h], [0, rem_w], [0, 0]], mode="SYMMETRIC") for x in flat]
            down = [tf.nn.avg_pool2d(x, [1, 2, 2, 1], [1, 2, 2, 1], "VALID") for x in flat]
            imgs = [tf.reshape(x, head + x.shape.as_list()[1:]) for x in down]
        per_channel, cs = _ssim_per_channel(imgs[0], imgs[1], max_val, filter_size, filter_sigma, k1, k2)
        mcs.append(tf.nn.relu(cs))
    mcs.pop()
    stacked = tf.stack(mcs + [tf.nn.relu(per_channel)], axis=-1)
    ms = tf.reduce_prod(tf.pow(stacked, tf.constant(np.asarray(power_factors, np.float32))), [-1])
    return tf.reduce_mean(ms, [-1])


# -- random augmentation ---------------------------------------------------------------------

def _flip_random(image, axis, draw):
    """One draw for a single image (flip if < 0.5); one per image of a batch (flip if it rounds to 1)."""
    image = _rank_3_or_4(image)
    if image.shape.rank == 3:
        return tf.where(draw([]) < 0.5, tf.reverse(image, [axis]), image)
    n = image.shape[0]
    flips = tf.cast(tf.round(tf.reshape(draw([n]), [n, 1, 1, 1])), image.dtype)
    return flips * tf.reverse(image, [axis + 1]) + (1 - flips) * image


def _stateless(seed):
    return lambda shape, minval=0.0, maxval=1.0, dtype=tf.float32: tf.random.stateless_uniform(
        shape, seed=seed, minval=minval, maxval=maxval, dtype=dtype)


def _stateful(seed):
    return lambda shape, minval=0.0, maxval=1.0, dtype=tf.float32: tf.random.uniform(
        shape, minval=minval, maxval=maxval, dtype=dtype, seed=seed)


def _check_range(lower, upper):
    if upper <= lower:
        raise ValueError("upper must be > lower.")
    if lower < 0:
        raise ValueError("lower must be non-negative.")


def _random_crop(value, size, draw):
    value = tf.convert_to_tensor(value)
    size = [int(s) for s in (size.numpy() if hasattr(size, "numpy") else size)]
    shape = value.shape.as_list()
    if len(size) != len(shape) or any(s > d for s, d in zip(size, shape)):
        raise tf.errors.InvalidArgumentError(None, None, f"Need value.shape >= size, got {shape} vs {size}")
    limit = tf.constant([d - s + 1 for d, s in zip(shape, size)], tf.int32)
    offset = tf.math.floormod(draw([len(shape)], minval=0, maxval=np.iinfo(np.int32).max, dtype=tf.int32), limit)
    return tf.slice(value, offset, size)


def _hue_delta_check(max_delta):
    if max_delta > 0.5:
        raise ValueError("max_delta must be <= 0.5.")
    if max_delta < 0:
        raise ValueError("max_delta must be non-negative.")


def _augmenters(make_draw):
    """The random_* (or stateless_random_*) family over one way of drawing uniforms."""
    def brightness(image, max_delta, seed=None):
        if max_delta < 0:
            raise ValueError("max_delta must be non-negative.")
        return adjust_brightness(image, make_draw(seed)([], -max_delta, max_delta))

    def contrast(image, lower, upper, seed=None):
        _check_range(lower, upper)
        return adjust_contrast(image, make_draw(seed)([], lower, upper))

    def saturation(image, lower, upper, seed=None):
        _check_range(lower, upper)
        return adjust_saturation(image, make_draw(seed)([], lower, upper))

    def hue(image, max_delta, seed=None):
        _hue_delta_check(max_delta)
        return adjust_hue(image, make_draw(seed)([], -max_delta, max_delta))

    def flip_left_right(image, seed=None):
        return _flip_random(image, 1, make_draw(seed))

    def flip_up_down(image, seed=None):
        return _flip_random(image, 0, make_draw(seed))

    def crop(value, size, seed=None, name=None):
        return _random_crop(value, size, make_draw(seed))

    return {"brightness": brightness, "contrast": contrast, "saturation": saturation, "hue": hue,
            "flip_left_right": flip_left_right, "flip_up_down": flip_up_down, "crop": crop}


def install(tf_module) -> None:
    """Add these functions to `tf.image` (created by nn_conv_image.install)."""
    global tf
    tf = tf_module
    image = tf_module.image
    for name in ("convert_image_dtype", "adjust_brightness", "adjust_contrast", "adjust_gamma", "adjust_hue",
                 "adjust_saturation", "per_image_standardization", "rgb_to_hsv", "hsv_to_rgb", "rgb_to_yiq",
                 "yiq_to_rgb", "rgb_to_yuv", "yuv_to_rgb", "rgb_to_grayscale", "grayscale_to_rgb", "transpose",
                 "rot90", "pad_to_bounding_box", "central_crop", "resize_with_crop_or_pad", "resize_with_pad",
                 "extract_patches", "crop_and_resize", "image_gradients", "sobel_edges", "total_variation",
                 "psnr", "ssim", "ssim_multiscale"):
        setattr(image, name, globals()[name])
    for prefix, make_draw in (("random_", _stateful), ("stateless_random_", _stateless)):
        for name, fn in _augmenters(make_draw).items():
            fn.__name__ = fn.__qualname__ = prefix + name
            setattr(image, prefix + name, fn)
