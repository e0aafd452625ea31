"""tf.image.random_* (stateful): TF's stateful stream cannot be reproduced, so each result is
checked against its definition -- it must equal the deterministic adjustment for some draw in
the allowed range -- and a fixed global + op seed must repeat it."""

from __future__ import annotations

import numpy as np
import pytest

from minixla.frontend import tf

IMG = np.random.default_rng(3).uniform(0.0, 1.0, (2, 5, 6, 3)).astype(np.float32)


def _run(fn, seed=7):
    tf.random.set_seed(1234)
    return fn(tf.constant(IMG), seed).numpy()


def test_random_brightness_adds_one_delta_in_range():
    out = _run(lambda x, s: tf.image.random_brightness(x, 0.3, seed=s))
    delta = out - IMG
    assert np.ptp(delta) < 1e-6 and abs(delta.flat[0]) <= 0.3
    np.testing.assert_array_equal(out, _run(lambda x, s: tf.image.random_brightness(x, 0.3, seed=s)))


@pytest.mark.parametrize("flip, axis", [("random_flip_left_right", 2), ("random_flip_up_down", 1)])
def test_random_flips_flip_each_image_or_leave_it(flip, axis):
    seen = set()
    for seed in range(8):
        out = _run(lambda x, s: getattr(tf.image, flip)(x, seed=s), seed)
        for k in range(2):
            if np.array_equal(out[k], IMG[k]):
                seen.add("kept")
            else:
                np.testing.assert_array_equal(out[k], np.flip(IMG[k], axis - 1))
                seen.add("flipped")
    assert seen == {"kept", "flipped"}


def test_random_contrast_is_adjust_contrast_with_a_factor_in_range():
    out = _run(lambda x, s: tf.image.random_contrast(x, 0.5, 1.5, seed=s))
    mean = IMG.mean(axis=(1, 2), keepdims=True)
    factor = ((out - mean) / (IMG - mean)).ravel()
    assert 0.5 <= np.median(factor) <= 1.5
    want = tf.image.adjust_contrast(tf.constant(IMG), float(np.median(factor))).numpy()
    np.testing.assert_allclose(out, want, atol=1e-5)


def test_random_saturation_scales_saturation_by_one_factor_in_range():
    out = _run(lambda x, s: tf.image.random_saturation(x, 0.5, 1.5, seed=s))
    s_in, s_out = (tf.image.rgb_to_hsv(tf.constant(a)).numpy()[..., 1] for a in (IMG, out))
    unclipped = (s_out < 0.999) & (s_in > 0.05)
    factor = float(np.median(s_out[unclipped] / s_in[unclipped]))
    assert 0.5 <= factor <= 1.5
    np.testing.assert_allclose(out, tf.image.adjust_saturation(tf.constant(IMG), factor).numpy(), atol=1e-4)


def test_random_hue_shifts_hue_by_one_delta_in_range():
    out = _run(lambda x, s: tf.image.random_hue(x, 0.2, seed=s))
    h_in, h_out = (tf.image.rgb_to_hsv(tf.constant(a)).numpy()[..., 0] for a in (IMG, out))
    delta = float(np.median((h_out - h_in + 0.5) % 1.0 - 0.5))
    assert -0.2 <= delta <= 0.2
    np.testing.assert_allclose(out, tf.image.adjust_hue(tf.constant(IMG), delta).numpy(), atol=1e-4)


def test_random_crop_is_a_block_of_the_input():
    out = _run(lambda x, s: tf.image.random_crop(x, [2, 3, 4, 3], seed=s))
    assert out.shape == (2, 3, 4, 3)
    found = [(i, j) for i in range(3) for j in range(3) if np.array_equal(IMG[:, i:i + 3, j:j + 4], out)]
    assert len(found) == 1


def test_random_ops_validate_their_ranges():
    x = tf.constant(IMG)
    with pytest.raises(ValueError, match="upper must be > lower"):
        tf.image.random_contrast(x, 1.0, 0.5)
    with pytest.raises(ValueError, match="max_delta must be <= 0.5"):
        tf.image.random_hue(x, 0.7)
    with pytest.raises(ValueError, match="max_delta must be non-negative"):
        tf.image.random_brightness(x, -0.1)
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.image.random_crop(x, [2, 9, 4, 3])


def test_image_shape_errors_name_the_argument():
    with pytest.raises(ValueError, match="must have either 3 or 4 dimensions"):
        tf.image.rot90(tf.zeros([4, 4]))
    with pytest.raises(ValueError, match="central_fraction must be within"):
        tf.image.central_crop(tf.constant(IMG), 0.0)
    with pytest.raises(ValueError, match="width must be <= target - offset"):
        tf.image.pad_to_bounding_box(tf.constant(IMG), 0, 3, 5, 6)
