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
from tests.frontend.test_goldens import EXACT, MODES, REDUCTION, TRANSCENDENTAL, _close, _flat, _gradient, \
    _gradient_traced, _inputs, _seq
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


def _golden(name: str) -> dict:
    path = GOLDEN / f"{name}.npz"
    if not path.exists():
        pytest.skip(f"no golden for {name}: run tests/golden/record_tf_goldens.py --cases "
                    f"tests/frontend/image_cases.py --out tests/golden/image --only {name}")
    with np.load(path, allow_pickle=False) as data:
        return {k: data[k] for k in data.files}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", NAMES)
def test_image_forward_against_tensorflow(name, mode):
    data = _golden(name)
    fn = CASES[name][0]
    tensors = [tf.constant(a) for a in _inputs(data)]
    if mode != "eager" and name in EAGER_ONLY:  # a data-dependent result shape: a clear error, not a wrong shape
        with pytest.raises(NotImplementedError, match="non_max_suppression_padded"):
            tf.function(lambda *a: fn(tf, *a), jit_compile=(mode == "jit"))(*tensors)
        return
    if mode == "eager":
        got = fn(tf, *tensors)
    else:
        got = tf.function(lambda *a: fn(tf, *a), jit_compile=(mode == "jit"))(*tensors)
    want, _ = _seq(data, "output")
    alts = _seq(data, "jit_output")[0] if mode == "jit" and name not in EAGER_STREAM else []
    got = _flat(got)
    assert len(got) == len(want)
    for k, (g, w) in enumerate(zip(got, want)):
        _close(g.numpy(), w, TOLERANCE.get(name, EXACT), f"{name} output {k} ({mode})",
               alts[k] if k < len(alts) else None)


GRAD_NAMES = [n for n in NAMES if (GOLDEN / f"{n}.npz").exists()
              and "grad_none" in np.load(GOLDEN / f"{n}.npz").files]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", GRAD_NAMES)
def test_image_gradient_against_tensorflow(name, mode):
    data = _golden(name)
    fn = CASES[name][0]
    inputs = _inputs(data)
    float_in = [i for i, a in enumerate(inputs) if a.dtype.kind == "f"]
    ups, _ = _seq(data, "upstream")
    grads = (_gradient(fn, inputs, float_in, ups) if mode == "eager"
             else _gradient_traced(fn, inputs, float_in, ups, jit=(mode == "jit")))
    none = set(data["grad_none"].tolist())
    for i, g in zip(float_in, grads):
        if i in none:
            assert g is None, f"{name}: TensorFlow's gradient w.r.t. input {i} is None, got {g}"
        else:
            assert g is not None, f"{name}: gradient w.r.t. input {i} is None, TensorFlow's is not"
            _close(g.numpy(), data[f"grad_{i}"], 2 * TOLERANCE.get(name, EXACT), f"{name} d/d input {i} ({mode})",
                   data.get(f"jit_grad_{i}") if mode == "jit" else None)


@pytest.mark.parametrize("name", [n for n in NAMES if CASES[n][2] is not None])
def test_image_against_numpy(name):
    """The cases with an independent numpy reference (no golden needed)."""
    fn, inputs, want = CASES[name]
    got = fn(tf, *[tf.constant(a) for a in inputs])
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-6, atol=1e-6)


def test_every_image_case_has_a_golden():
    missing = [n for n in CASES if not (GOLDEN / f"{n}.npz").exists()]
    assert not missing, f"record them: {missing}"
