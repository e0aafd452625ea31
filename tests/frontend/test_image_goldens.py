"""tf.image against real TensorFlow 2.21's results (tests/golden/image/, recorded by
`record_tf_goldens.py --cases tests/frontend/image_cases.py --out tests/golden/image`): every
case eagerly, in tf.function and under jit_compile=True, forward and (where TF has a gradient)
gradient, with test_goldens.py's comparison rules.

Tolerances (rtol = atol, |got - tf| <= tol (1 + |tf|)): EXACT for data movement and exactly
rounded arithmetic; REDUCTION for ops that sum (contrast, standardization, grayscale/YIQ/YUV
dot products, Sobel, total variation, crop_and_resize's lerps); TRANSCENDENTAL for gamma, psnr,
ssim. The colour-space ops (hue, saturation, HSV) are 2e-6: TF's kernels compute hue in other
orders than TF's own XLA lowering, and both differ from ours by an ulp or two.
Non-max suppression with a data-dependent number of results runs eagerly only (the padded form
compiles). The stateless random cases are compared with TF's eager values in every mode (its XLA kernels
draw another stream; see test_goldens.EAGER_STREAM).
"""

from __future__ import annotations

import numpy as np
import pytest

from minixla.frontend import tf
from tests.frontend.image_cases import CASES, EAGER_ONLY
from tests.frontend import golden_replay as replay
from tests.frontend.test_goldens import EXACT, MODES, REDUCTION, TRANSCENDENTAL
from tests.paths import GOLDEN_DIR

GOLDEN = GOLDEN_DIR / "image"
COLOUR = 2e-6
TOLERANCE = {
    **dict.fromkeys(["img_adjust_contrast", "img_per_image_standardization", "img_rgb_to_grayscale",
                     "img_rgb_to_yiq", "img_yiq_to_rgb", "img_rgb_to_yuv", "img_yuv_to_rgb", "img_sobel_edges",
                     "img_total_variation", "img_total_variation_3d", "img_crop_and_resize",
                     "img_stateless_contrast", "img_resize_with_pad"], REDUCTION),
    **dict.fromkeys(["img_adjust_gamma", "img_psnr", "img_ssim", "img_ssim_small_filter",
                     "img_ssim_multiscale"], TRANSCENDENTAL),
    **dict.fromkeys(["img_adjust_hue", "img_adjust_hue_neg", "img_adjust_saturation", "img_rgb_to_hsv",
                     "img_hsv_to_rgb", "img_stateless_hue", "img_stateless_saturation"], COLOUR),
}
EAGER_STREAM = {name for name in CASES if name.startswith("img_stateless")}
NAMES = sorted(CASES)


TABLE = "tests/frontend/image_cases.py"


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", NAMES)
def test_image_forward_against_tensorflow(name, mode):
    data = replay.load(GOLDEN, name, TABLE)
    fn = CASES[name][0]
    if mode != "eager" and name in EAGER_ONLY:  # a data-dependent result shape: a clear error, not a wrong shape
        with pytest.raises(NotImplementedError, match="non_max_suppression_padded"):
            tf.function(lambda *a: fn(tf, *a), jit_compile=(mode == "jit"))(*[tf.constant(a) for a in
                                                                              replay._inputs(data)])
        return
    replay.check_forward(data, fn, name, mode, TOLERANCE.get(name, EXACT), eager_stream=name in EAGER_STREAM)


GRAD_NAMES = [n for n in NAMES if replay.has_gradient(GOLDEN, n)]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", GRAD_NAMES)
def test_image_gradient_against_tensorflow(name, mode):
    replay.check_gradient(replay.load(GOLDEN, name, TABLE), CASES[name][0], name, mode,
                          2 * TOLERANCE.get(name, EXACT))


@pytest.mark.parametrize("name", [n for n in NAMES if CASES[n][2] is not None])
def test_image_against_numpy(name):
    """The cases with an independent numpy reference (no golden needed)."""
    fn, inputs, want = CASES[name]
    got = fn(tf, *[tf.constant(a) for a in inputs])
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-6, atol=1e-6)


def test_every_image_case_has_a_golden():
    missing = [n for n in CASES if not (GOLDEN / f"{n}.npz").exists()]
    assert not missing, f"record them: {missing}"
