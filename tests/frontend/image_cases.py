"""tf.image cases, recorded from real TensorFlow by tests/golden/record_image_goldens.py into
tests/golden/image/ and replayed by tests/frontend/test_image_goldens.py (eager, tf.function,
jit_compile=True, and gradients). Same format as op_cases.py: name -> (function of tf, inputs,
numpy reference or None); this file must import nothing but numpy (the recorder loads it by path).
"""

from __future__ import annotations

import numpy as np

R = np.random.default_rng(7)

RGB = R.uniform(0.0, 1.0, (2, 5, 6, 3)).astype(np.float32)
RGB3 = RGB[0]
U8 = R.integers(0, 256, (2, 5, 6, 3)).astype(np.uint8)
GRAY = R.uniform(0.0, 1.0, (2, 5, 6, 1)).astype(np.float32)
BIG = R.uniform(0.0, 1.0, (2, 16, 14, 2)).astype(np.float32)
BIG2 = np.clip(BIG + R.normal(0.0, 0.1, BIG.shape), 0, 1).astype(np.float32)
HSV = np.stack([R.uniform(0, 1, (4, 5)), R.uniform(0, 1, (4, 5)), R.uniform(0, 1, (4, 5))], -1).astype(np.float32)
BOXES = np.array([[0.1, 0.2, 0.8, 0.9], [0.0, 0.0, 1.0, 1.0], [-0.2, 0.3, 0.6, 1.2]], np.float32)
BOX_IDX = np.array([0, 1, 1], np.int32)

CASES = {
    "img_convert_u8_to_f32": (lambda tf, x: tf.image.convert_image_dtype(x, tf.float32), [U8], U8 / np.float32(255)),
    "img_convert_f32_to_u8": (lambda tf, x: tf.image.convert_image_dtype(x, tf.uint8), [RGB], None),
    "img_convert_f32_to_u8_sat": (lambda tf, x: tf.image.convert_image_dtype(x * 1.5 - 0.2, tf.uint8, saturate=True),
                                  [RGB], None),
    "img_convert_u8_to_i32": (lambda tf, x: tf.image.convert_image_dtype(x, tf.int32), [U8], None),
    "img_convert_f32_to_f16": (lambda tf, x: tf.image.convert_image_dtype(x, tf.float16), [RGB], RGB.astype(np.float16)),
    "img_adjust_brightness": (lambda tf, x: tf.image.adjust_brightness(x, 0.2), [RGB], RGB + np.float32(0.2)),
    "img_adjust_brightness_u8": (lambda tf, x: tf.image.adjust_brightness(x, -0.3), [U8], None),
    "img_adjust_contrast": (lambda tf, x: tf.image.adjust_contrast(x, 1.7), [RGB], None),
    "img_adjust_gamma": (lambda tf, x: tf.image.adjust_gamma(x, 0.8, 1.2), [RGB], None),
    "img_adjust_hue": (lambda tf, x: tf.image.adjust_hue(x, 0.3), [RGB], None),
    "img_adjust_hue_neg": (lambda tf, x: tf.image.adjust_hue(x, -0.45), [RGB3], None),
    "img_adjust_saturation": (lambda tf, x: tf.image.adjust_saturation(x, 1.6), [RGB], None),
    "img_per_image_standardization": (lambda tf, x: tf.image.per_image_standardization(x), [RGB], None),
    "img_rgb_to_hsv": (lambda tf, x: tf.image.rgb_to_hsv(x), [RGB], None),
    "img_hsv_to_rgb": (lambda tf, x: tf.image.hsv_to_rgb(x), [HSV], None),
    "img_rgb_to_yiq": (lambda tf, x: tf.image.rgb_to_yiq(x), [RGB], None),
    "img_yiq_to_rgb": (lambda tf, x: tf.image.yiq_to_rgb(x), [RGB], None),
    "img_rgb_to_yuv": (lambda tf, x: tf.image.rgb_to_yuv(x), [RGB], None),
    "img_yuv_to_rgb": (lambda tf, x: tf.image.yuv_to_rgb(x), [RGB], None),
    "img_rgb_to_grayscale": (lambda tf, x: tf.image.rgb_to_grayscale(x), [RGB], None),
    "img_rgb_to_grayscale_u8": (lambda tf, x: tf.image.rgb_to_grayscale(x), [U8], None),
    "img_grayscale_to_rgb": (lambda tf, x: tf.image.grayscale_to_rgb(x), [GRAY], np.tile(GRAY, (1, 1, 1, 3))),
    "img_transpose": (lambda tf, x: tf.image.transpose(x), [RGB], RGB.transpose(0, 2, 1, 3)),
    "img_rot90_1": (lambda tf, x: tf.image.rot90(x), [RGB], np.rot90(RGB, 1, axes=(1, 2))),
    "img_rot90_2": (lambda tf, x: tf.image.rot90(x, 2), [RGB3], np.rot90(RGB3, 2)),
    "img_rot90_3": (lambda tf, x: tf.image.rot90(x, k=3), [RGB], np.rot90(RGB, 3, axes=(1, 2))),
    "img_pad_to_bounding_box": (lambda tf, x: tf.image.pad_to_bounding_box(x, 1, 2, 8, 9), [RGB],
                                np.pad(RGB, [(0, 0), (1, 2), (2, 1), (0, 0)])),
    "img_central_crop": (lambda tf, x: tf.image.central_crop(x, 0.5), [RGB], None),
    "img_resize_with_crop_or_pad": (lambda tf, x: tf.image.resize_with_crop_or_pad(x, 3, 9), [RGB], None),
    "img_resize_with_crop_or_pad_3d": (lambda tf, x: tf.image.resize_with_crop_or_pad(x, 8, 4), [RGB3], None),
    "img_resize_with_pad": (lambda tf, x: tf.image.resize_with_pad(x, 7, 10), [RGB], None),
    "img_extract_patches_valid": (lambda tf, x: tf.image.extract_patches(x, [1, 2, 3, 1], [1, 2, 1, 1], [1, 1, 1, 1],
                                                                         "VALID"), [RGB], None),
    "img_extract_patches_same_rate": (lambda tf, x: tf.image.extract_patches(x, [1, 2, 2, 1], [1, 3, 2, 1],
                                                                             [1, 2, 1, 1], "SAME"), [RGB], None),
    "img_crop_and_resize": (lambda tf, x, b, i: tf.image.crop_and_resize(x, b, i, [4, 3]), [RGB, BOXES, BOX_IDX], None),
    "img_crop_and_resize_nearest": (lambda tf, x, b, i: tf.image.crop_and_resize(x, b, i, [3, 5], method="nearest",
                                                                                 extrapolation_value=-1.0),
                                    [RGB, BOXES, BOX_IDX], None),
    "img_image_gradients": (lambda tf, x: tf.image.image_gradients(x), [RGB], None),
    "img_sobel_edges": (lambda tf, x: tf.image.sobel_edges(x), [RGB], None),
    "img_total_variation": (lambda tf, x: tf.image.total_variation(x), [RGB], None),
    "img_total_variation_3d": (lambda tf, x: tf.image.total_variation(x), [RGB3], None),
    "img_psnr": (lambda tf, a, b: tf.image.psnr(a, b, max_val=1.0), [BIG, BIG2], None),
    "img_ssim": (lambda tf, a, b: tf.image.ssim(a, b, max_val=1.0), [BIG, BIG2], None),
    "img_ssim_small_filter": (lambda tf, a, b: tf.image.ssim(a, b, 1.0, filter_size=5, filter_sigma=0.8), [BIG, BIG2],
                              None),
    "img_ssim_multiscale": (lambda tf, a, b: tf.image.ssim_multiscale(a, b, 1.0, power_factors=(0.3, 0.7),
                                                                      filter_size=5), [BIG, BIG2], None),
    "img_stateless_brightness": (lambda tf, x: tf.image.stateless_random_brightness(x, 0.4, (3, 11)), [RGB], None),
    "img_stateless_contrast": (lambda tf, x: tf.image.stateless_random_contrast(x, 0.5, 1.5, (3, 11)), [RGB], None),
    "img_stateless_saturation": (lambda tf, x: tf.image.stateless_random_saturation(x, 0.5, 1.5, (3, 11)), [RGB],
                                 None),
    "img_stateless_hue": (lambda tf, x: tf.image.stateless_random_hue(x, 0.2, (3, 11)), [RGB], None),
    "img_stateless_flip_lr": (lambda tf, x: tf.image.stateless_random_flip_left_right(x, (3, 11)), [RGB], None),
    "img_stateless_flip_ud": (lambda tf, x: tf.image.stateless_random_flip_up_down(x, (3, 11)), [RGB3], None),
    "img_stateless_crop": (lambda tf, x: tf.image.stateless_random_crop(x, [2, 3, 4, 3], (3, 11)), [RGB], None),
}

_NB = 12
_CORNERS = R.uniform(0.0, 1.0, (_NB, 2)).astype(np.float32)
NMS_BOXES = np.concatenate([_CORNERS, _CORNERS + R.uniform(0.1, 0.5, (_NB, 2)).astype(np.float32)], 1)
NMS_BOXES[3] = NMS_BOXES[3][[2, 3, 0, 1]]  # corners given the other way round
NMS_SCORES = R.permutation(np.linspace(0.05, 0.95, _NB)).astype(np.float32)  # no ties
OVERLAPS = R.uniform(0.0, 1.0, (_NB, _NB)).astype(np.float32)

#: results with a data-dependent shape: eager only here (tf.function raises, pointing at the padded form)
EAGER_ONLY = {"img_nms", "img_nms_score_threshold", "img_nms_with_scores_soft", "img_nms_overlaps"}

CASES.update({
    "img_nms": (lambda tf, b, s: tf.image.non_max_suppression(b, s, 6, iou_threshold=0.2), [NMS_BOXES, NMS_SCORES],
                None),
    "img_nms_score_threshold": (lambda tf, b, s: tf.image.non_max_suppression(b, s, 10, 0.4, score_threshold=0.5),
                                [NMS_BOXES, NMS_SCORES], None),
    "img_nms_with_scores_soft": (lambda tf, b, s: tf.image.non_max_suppression_with_scores(
        b, s, 8, iou_threshold=0.9, score_threshold=0.1, soft_nms_sigma=0.5), [NMS_BOXES, NMS_SCORES], None),
    "img_nms_overlaps": (lambda tf, o, s: tf.image.non_max_suppression_overlaps(o, s, 5, overlap_threshold=0.6),
                         [OVERLAPS, NMS_SCORES], None),
    "img_nms_padded": (lambda tf, b, s: tf.image.non_max_suppression_padded(b, s, 8, 0.3, pad_to_max_output_size=True),
                       [NMS_BOXES, NMS_SCORES], None),
})
