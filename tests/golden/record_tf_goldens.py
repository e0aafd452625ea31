"""Record real TensorFlow's outputs and gradients for every op case into tests/golden/.

    /tmp/tfvenv/bin/python tests/golden/record_tf_goldens.py [--out tests/golden] [--only NAME ...] [--list]

Needs `tensorflow` (run it in a separate virtual environment where TF is
installed; nothing else in the project needs it, and this script imports none
of the project's modules except the plain-numpy case table
`tests/frontend/op_cases.py`, loaded by path so that `frontend/__init__.py` and xdsl
are never imported).

Each case of `CASES` is a function of a `tf` module: it is called with the
*real* `tensorflow` module on the case's inputs. `NAME.npz` stores

* `input_0..input_k`: the inputs (the tests replay the case on these),
* `output` (one tensor) or `output_0..output_n` (a tuple/list of tensors):
  TF's eager results,
* `jit_output`/`jit_output_0..`: the results of the same function under
  `tf.function(jit_compile=True)`, or `jit_error`: `"ErrorType: message"` when
  TF itself cannot compile it (the project must raise the same error type),
* for cases with floating outputs and floating inputs: `upstream`/`upstream_i`
  (a fixed upstream gradient, one per output), `grad_i` (TF's
  `GradientTape.gradient` w.r.t. floating input i with that upstream
  gradient), and `grad_none` (indices of floating inputs whose TF gradient is
  None, e.g. through floor/round or an unconnected path),
* `tf_version`.

`manifest.json` lists the TF/numpy versions, the date and a summary per case;
a recording with `--only` leaves those top-level fields alone and appends
its own versions, date and cases to `partial_recordings`.
The test suite (tests/frontend/test_goldens.py) replays every file eagerly
and under jit_compile=True, without TensorFlow.
"""

from __future__ import annotations

import argparse
import datetime
import importlib.util
import json
import os
import re
import sys
import zlib

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CASES_PATH = os.path.join(ROOT, "tests", "frontend", "op_cases.py")


def _print_then_add(tf, a):
    tf.print("host_print:", a)
    return a + 1.0


# Ops XLA cannot compile: they run eagerly, and under jit_compile=True TF
# raises InvalidArgumentError "Detected unsupported operations ..." naming the
# op. Same format as tests/frontend/op_cases.py; kept here (not in the decomposition
# case table) since they have no decomposition. The recorded `jit_error`
# says which error and op names the project must reproduce.
HOST_CASES = {
    "host_as_string_i": (lambda tf, a: tf.strings.as_string(a), [np.array([[3, -12], [0, 7]], np.int32)], None),
    "host_as_string_f": (lambda tf, a: tf.strings.as_string(a, precision=2),
                         [np.array([1.5, -0.125, 3.0], np.float32)], None),
    "host_py_function": (lambda tf, a: tf.py_function(lambda x: x * 2.0, [a], tf.float32),
                         [np.array([1.0, -2.5], np.float32)], None),
    # the result of a py_function has an unknown static shape inside tf.function
    "host_py_function_add": (lambda tf, a: tf.py_function(lambda x: x * 2.0, [a], tf.float32) + 1.0,
                             [np.array([1.0, -2.5], np.float32)], None),
    "host_print": (_print_then_add, [np.array([0.5, 2.0], np.float32)], None),
}


_F = np.float32
_SPECIAL = np.array([0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, 1e-30, -3.5, 100.0, -100.0], _F)
_TIES = np.array([[1.0, 3.0, 3.0, -2.0], [0.0, 0.0, 0.0, 0.0], [-1.0, 2.0, -1.0, 2.0]], _F)
_KINKS = np.array([-1.0, 0.0, 0.5, 6.0, 7.0], _F)
_IDIV_A = np.array([7, -7, 7, -7, 0, 5, -1], np.int32)
_IDIV_B = np.array([2, 2, -2, -2, 3, -5, 4], np.int32)
_FDIV_A = np.array([1.5, -1.5, 1.5, -1.5, 0.0, -0.0, 5.0, 1.0, 0.0], _F)
_FDIV_B = np.array([1.0, 1.0, -1.0, -1.0, 2.0, 2.0, -0.75, 0.0, 0.0], _F)

# Special values and ties, where TF's semantics (NaN propagation, signed
# zeros, infinities, integer rounding toward -inf, which element of a tie
# gets the gradient) are easy to get wrong. Same format as HOST_CASES.
EDGE_CASES = {
    "edge_exp_log": (lambda tf, a: tf.stack([tf.exp(a), tf.math.log(a), tf.sqrt(a)]), [_SPECIAL], None),
    "edge_tanh_sigmoid": (lambda tf, a: tf.stack([tf.tanh(a), tf.sigmoid(a), tf.math.softplus(a)]), [_SPECIAL],
                          None),
    "edge_sign_abs_neg": (lambda tf, a: tf.stack([tf.sign(a), tf.abs(a), -a, tf.square(a)]), [_SPECIAL], None),
    "edge_round_floor": (lambda tf, a: tf.stack([tf.round(a), tf.floor(a), tf.math.ceil(a)]),
                         [np.array([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 2.4999998, -0.0, np.inf, np.nan], _F)], None),
    "edge_max_min_nan": (lambda tf, a, b: tf.stack([tf.maximum(a, b), tf.minimum(a, b)]),
                         [np.array([np.nan, 1.0, np.nan, 0.0, -0.0], _F), np.array([1.0, np.nan, np.nan, -0.0, 0.0], _F)],
                         None),
    "edge_relu_nan": (lambda tf, a: tf.stack([tf.nn.relu(a), tf.nn.relu6(a)]),
                      [np.array([np.nan, -np.inf, np.inf, -0.0, 0.0], _F)], None),
    "edge_act_nan": (lambda tf, a: tf.stack([tf.nn.elu(a), tf.nn.selu(a), tf.nn.leaky_relu(a), tf.nn.softplus(a)]),
                     [np.array([np.nan, -np.inf, np.inf, -0.0, 0.0, -1.0, 2.0], _F)], None),
    "edge_sigmoid_xent_zero": (lambda tf, x, z: tf.nn.sigmoid_cross_entropy_with_logits(labels=z, logits=x),
                               [np.array([0.0, -0.0, 0.0, 3.0, -3.0, 100.0, -100.0], _F),
                                np.array([0.0, 1.0, 0.5, 1.0, 0.0, 0.0, 1.0], _F)], None),
    "edge_reduce_nan": (lambda tf, a: tf.stack([tf.reduce_max(a, 1), tf.reduce_min(a, 1), tf.reduce_sum(a, 1)]),
                        [np.array([[1.0, np.nan, 2.0], [np.inf, 1.0, -np.inf], [-np.inf, -np.inf, -1.0]], _F)], None),
    "edge_logsumexp_inf": (lambda tf, a: tf.reduce_logsumexp(a, 1),
                           [np.array([[-np.inf, -np.inf], [np.inf, 1.0], [100.0, 100.0], [-100.0, -200.0]], _F)],
                           None),
    "edge_softmax_large": (lambda tf, a: tf.stack([tf.nn.softmax(a), tf.nn.log_softmax(a)]),
                           [np.array([[1000.0, 0.0, -1000.0], [-1e4, -1e4, -1e4]], _F)], None),
    "edge_div_zero": (lambda tf, a, b: tf.stack([a / b, tf.math.floordiv(a, b), tf.math.floormod(a, b)]),
                      [_FDIV_A, _FDIV_B], None),
    "edge_idiv": (lambda tf, a, b: tf.stack([tf.math.floordiv(a, b), tf.math.floormod(a, b), a // b, a % b]),
                  [_IDIV_A, _IDIV_B], None),
    "edge_int_abs_neg": (lambda tf, a: tf.stack([tf.abs(a), -a, tf.sign(a), a * a]),
                         [np.array([np.iinfo(np.int32).min, -3, 0, 3, np.iinfo(np.int32).max], np.int32)], None),
    "edge_pow": (lambda tf, a, b: tf.pow(a, b),
                 [np.array([0.0, 0.0, -2.0, -2.0, 2.0, np.inf, 1.0, np.nan, -0.0], _F),
                  np.array([0.0, -1.0, 2.0, 0.5, -np.inf, -1.0, np.nan, 0.0, 3.0], _F)], None),
    "edge_cast": (lambda tf, a: tf.stack([tf.cast(tf.cast(a, tf.int32), tf.float32), tf.cast(tf.cast(a, tf.bool),
                                                                                              tf.float32)]),
                  [np.array([-2.7, -0.5, 0.0, -0.0, 0.9, 1e9, 2.5], _F)], None),
    "edge_argmax_ties": (lambda tf, a: tf.stack([tf.argmax(a, 1), tf.argmin(a, 1)]), [_TIES], None),
    "edge_max_ties_grad": (lambda tf, a: tf.reduce_max(a, 1), [_TIES], None),
    "edge_min_ties_grad": (lambda tf, a: tf.reduce_min(a, 0), [_TIES], None),
    "edge_maximum_ties_grad": (lambda tf, a, b: tf.maximum(a, b) + 2.0 * tf.minimum(a, b),
                               [np.array([1.0, 2.0, -1.0, 0.0], _F), np.array([1.0, 1.0, -1.0, 3.0], _F)], None),
    "edge_maxpool_ties_grad": (lambda tf, x: tf.nn.max_pool2d(x, 2, 2, "VALID"),
                               [np.array([1, 1, 0, 2, 1, 1, 2, 2, 5, 0, 3, 3, 0, 5, 3, 3], _F).reshape(1, 4, 4, 1)],
                               None),
    "edge_kinks_grad": (lambda tf, a: tf.stack([tf.nn.relu(a), tf.nn.relu6(a), tf.abs(a), tf.nn.leaky_relu(a),
                                                tf.nn.elu(a), tf.nn.selu(a), tf.clip_by_value(a, 0.0, 6.0),
                                                tf.math.softplus(a)]), [_KINKS], None),
    "edge_sqrt_zero_grad": (lambda tf, a: tf.stack([tf.sqrt(a), tf.math.rsqrt(a + 1.0), tf.math.log(a + 1.0)]),
                            [np.array([0.0, 1.0, 4.0], _F)], None),
    "edge_sort_ties": (lambda tf, a: tf.stack([tf.sort(a), tf.cast(tf.argsort(a, stable=True), tf.float32)]),
                       [np.array([[2.0, 1.0, 2.0, 1.0, -0.0, 0.0]], _F)], None),
    "edge_f64": (lambda tf, a, b: tf.stack([a / b, tf.exp(a), tf.math.floormod(a, b), tf.reduce_sum(a * b) + a]),
                 [np.array([1.0, -7.5, 1e-300, 3.0], np.float64), np.array([3.0, 2.0, 1e300, -0.5], np.float64)],
                 None),
}


_R = np.random.default_rng(2026)
_XA, _XB = _R.uniform(-2, 2, (2, 3)).astype(_F), _R.uniform(-2, 2, (2, 3)).astype(_F)
_XP = _R.uniform(0.2, 2.5, (2, 3)).astype(_F)
_XU = _R.uniform(-0.9, 0.9, (2, 3)).astype(_F)
_IMG = _R.uniform(-1, 1, (1, 5, 5, 2)).astype(_F)
_KER = _R.uniform(-1, 1, (3, 3, 2, 3)).astype(_F)

# Public APIs of the mini-TF that tests/frontend/op_cases.py does not exercise, and
# dtypes other than float32/int32 (`x_*`). Same format as HOST_CASES.
EXTRA_CASES = {
    "x_log1p_expm1": (lambda tf, a: tf.stack([tf.math.log1p(a), tf.math.expm1(a)]), [_XP], None),
    "x_hyperbolic": (lambda tf, a: tf.stack([tf.math.sinh(a), tf.math.cosh(a), tf.math.atan(a), tf.math.tan(a)]),
                     [_XU], None),
    "x_atan2": (lambda tf, a, b: tf.math.atan2(a, b), [_XA, _XB], None),
    "x_xlogy": (lambda tf, a, b: tf.math.xlogy(a, b), [np.array([0.0, 1.5, -2.0, 0.0], _F),
                                                       np.array([0.0, 2.0, 0.5, 3.0], _F)], None),
    "x_divide_no_nan": (lambda tf, a, b: tf.math.divide_no_nan(a, b), [np.array([1.0, -2.0, 0.0, 3.0], _F),
                                                                       np.array([0.0, 4.0, 0.0, -1.5], _F)], None),
    "x_truncdiv": (lambda tf, a, b: tf.stack([tf.truncatediv(a, b), tf.truncatemod(a, b)]),
                   [_IDIV_A[_IDIV_B != 0], _IDIV_B[_IDIV_B != 0]], None),
    "x_cumprod": (lambda tf, a: tf.math.cumprod(a, axis=1), [_XA], None),
    "x_euclidean_norm": (lambda tf, a: tf.math.reduce_euclidean_norm(a, 1), [_XA], None),
    "x_reverse": (lambda tf, a: tf.reverse(a, [1]), [_XA], None),
    "x_is_finite_inf": (lambda tf, a: tf.stack([tf.math.is_finite(a), tf.math.is_inf(a),
                                                tf.math.logical_xor(a > 0, a < 1)]), [_SPECIAL], None),
    "x_rint": (lambda tf, a: tf.math.rint(a), [np.array([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 0.7], _F)], None),
    "x_softsign_selu": (lambda tf, a: tf.stack([tf.nn.softsign(a), tf.nn.selu(a)]), [_XA], None),
    "x_bitwise_and": (lambda tf, a, b: tf.bitwise.bitwise_and(a, b), [np.array([12, -1, 7], np.int32),
                                                                      np.array([10, 5, -8], np.int32)], None),
    "x_conv2d_same": (lambda tf, x, k: tf.nn.conv2d(x, k, strides=1, padding="SAME"), [_IMG, _KER], None),
    "x_conv2d_valid_s2": (lambda tf, x, k: tf.nn.conv2d(x, k, strides=2, padding="VALID"), [_IMG, _KER], None),
    "x_batch_norm": (lambda tf, x, m, v: tf.nn.batch_normalization(x, m, v, None, None, 1e-3),
                     [_XA, _XA.mean(0), _XP[0]], None),
    "x_mean_int": (lambda tf, a: tf.stack([tf.reduce_mean(a, 1), tf.reduce_sum(a, 1), tf.reduce_prod(a, 1)]),
                   [np.array([[1, 2, 2], [-1, -2, -2], [7, -8, 0]], np.int32)], None),
    "x_int64": (lambda tf, a, b: tf.stack([a + b, a * b, tf.math.floordiv(a, b), tf.maximum(a, b)]),
                [np.array([2**40, -3, 2**62, 9], np.int64), np.array([3, 7, 4, -2], np.int64)], None),
    "x_uint8_wrap": (lambda tf, a, b: tf.stack([a + b, a - b, a * b, a // b]),
                     [np.array([200, 3, 255, 16], np.uint8), np.array([100, 5, 2, 3], np.uint8)], None),
    "x_cast_wrap": (lambda tf, a: tf.stack([tf.cast(tf.cast(a, tf.uint8), tf.int32), tf.cast(tf.cast(a, tf.int8),
                                                                                            tf.int32)]),
                    [np.array([300, -1, 127, 128, 255, 256], np.int32)], None),
    "x_f16": (lambda tf, a, b: tf.stack([a + b, a * b, tf.exp(a), tf.reduce_sum(tf.tile(a, [1, 40]), 1,
                                                                                 keepdims=True) * b]),
              [_XA.astype(np.float16), _XB.astype(np.float16)], None),
    "x_f64_transcendental": (lambda tf, a: tf.stack([tf.exp(a), tf.math.log(tf.abs(a)), tf.tanh(a),
                                                     tf.math.erf(a), tf.sigmoid(a)]),
                             [_XA.astype(np.float64)], None),
}


def load_cases(path: str = CASES_PATH) -> dict:
    """The case table, loaded by file path (no `frontend` package import); op_cases.py's comes
    with HOST_CASES, EDGE_CASES and EXTRA_CASES, another table (e.g. image_cases.py) alone."""
    spec = importlib.util.spec_from_file_location("_minixla_op_cases", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    if os.path.abspath(path) != os.path.abspath(CASES_PATH):
        return dict(module.CASES)
    return {**module.CASES, **HOST_CASES, **EDGE_CASES, **EXTRA_CASES}


def _flat(out):
    """A case's result as (list of arrays-or-tensors, is_single)."""
    if isinstance(out, (tuple, list)):
        return list(out), False
    return [out], True


def _put(arrays: dict, prefix: str, values, single: bool) -> None:
    if single:
        arrays[prefix] = np.asarray(values[0])
    else:
        for i, v in enumerate(values):
            arrays[f"{prefix}_{i}"] = np.asarray(v)


def _host(value) -> np.ndarray:
    """A result as a numpy array that loads without pickle (strings as bytes)."""
    value = np.asarray(value)
    return value.astype(bytes) if value.dtype == object else value


def upstream_for(name: str, k: int, value: np.ndarray) -> np.ndarray:
    """A fixed, deterministic upstream gradient for output k of case `name`."""
    rng = np.random.default_rng(zlib.crc32(f"{name}/{k}".encode()))
    return rng.uniform(-1.0, 1.0, value.shape).astype(value.dtype)


def _jit_gradients(tf, fn, inputs, float_in, ups) -> dict:
    none: list = []

    @tf.function(jit_compile=True)
    def step(*args):
        ts, up = list(args[:len(inputs)]), list(args[len(inputs):])
        with tf.GradientTape() as tape:
            tape.watch([ts[i] for i in float_in])
            outs, _ = _flat(fn(tf, *ts))
        grads = tape.gradient(outs, [ts[i] for i in float_in], output_gradients=up)
        none[:] = [k for k, g in enumerate(grads) if g is None]
        return [tf.convert_to_tensor(g) for g in grads if g is not None]

    got = list(step(*[tf.constant(a) for a in inputs], *[tf.constant(u) for u in ups]))
    return {i: np.asarray(got.pop(0).numpy()) for k, i in enumerate(float_in) if k not in none}


def _has_tf_gradient(tf, fn, inputs) -> bool:
    """False where TF has no gradient for an op of the case (AdjustHue, AdjustContrastv2, QR full_matrices)."""
    ts = [tf.constant(a) for a in inputs]
    try:
        with tf.GradientTape() as tape:
            tape.watch([t for t in ts if t.dtype.is_floating])
            outs, _ = _flat(fn(tf, *ts))
        tape.gradient(outs, [t for t in ts if t.dtype.is_floating])
    except (LookupError, NotImplementedError):  # no gradient, or TF's QrGrad for full tall matrices
        return False
    return True


class _NoJit(Exception):
    pass


def record_case(tf, name: str, fn, inputs, jit: bool = True) -> tuple[dict, dict]:
    inputs = [np.asarray(a) for a in inputs]
    arrays = {f"input_{i}": a for i, a in enumerate(inputs)}
    arrays["tf_version"] = np.array(tf.__version__)
    summary: dict = {}

    outs, single = _flat(fn(tf, *[tf.constant(a) for a in inputs]))
    outs = [_host(o.numpy()) for o in outs]
    _put(arrays, "output", outs, single)
    summary["output"] = [f"{o.dtype}{list(o.shape)}" for o in outs]

    # What XLA itself does with the case (compiles, or which error it raises).
    try:
        if not jit:  # --no-jit: TF 2.21 aborts the process (not an exception) jit-compiling some string graphs
            raise _NoJit
        jit = tf.function(lambda *a: fn(tf, *a), jit_compile=True)
        jouts, jsingle = _flat(jit(*[tf.constant(a) for a in inputs]))
        _put(arrays, "jit_output", [_host(o.numpy()) for o in jouts], jsingle)
        summary["jit"] = "compiles"
    except _NoJit:
        summary["jit"] = "not recorded (--no-jit)"
    except Exception as err:  # noqa: BLE001 -- recorded, the project must raise the same
        text = str(err).strip()
        msg = f"{type(err).__name__}: {text.splitlines()[0] if text else ''}"
        arrays["jit_error"] = np.array(msg)
        arrays["jit_unsupported_ops"] = np.array(sorted(set(re.findall(r"No registered '(\w+)' OpKernel", text))))
        summary["jit"] = msg

    # Gradients w.r.t. the floating inputs, with a fixed upstream gradient per output.
    float_in = [i for i, a in enumerate(inputs) if a.dtype.kind == "f"]
    if float_in and all(o.dtype.kind == "f" for o in outs) and _has_tf_gradient(tf, fn, inputs):
        ups = [upstream_for(name, k, o) for k, o in enumerate(outs)]
        xs = [tf.constant(inputs[i]) for i in float_in]
        ts = [tf.constant(a) for a in inputs]
        for i, x in zip(float_in, xs):
            ts[i] = x
        with tf.GradientTape() as tape:
            tape.watch(xs)
            gouts, _ = _flat(fn(tf, *ts))
        grads = tape.gradient(gouts, xs, output_gradients=[tf.constant(u) for u in ups])
        _put(arrays, "upstream", ups, single)
        none = []
        for i, g in zip(float_in, grads):
            if g is None:
                none.append(i)
            else:
                if isinstance(g, tf.IndexedSlices):
                    g = tf.convert_to_tensor(g)
                arrays[f"grad_{i}"] = np.asarray(g.numpy())
        arrays["grad_none"] = np.array(none, np.int32)
        summary["grads"] = {str(i): ("None" if i in none else "recorded") for i in float_in}
        if "jit_error" not in arrays:
            # XLA's own gradients (ties, NaNs may differ from eager TF's kernels).
            try:
                for i, g in _jit_gradients(tf, fn, inputs, float_in, ups).items():
                    arrays[f"jit_grad_{i}"] = g
            except Exception as err:  # noqa: BLE001 -- e.g. while_loop without maximum_iterations
                text = str(err).strip()
                arrays["jit_grad_error"] = np.array(f"{type(err).__name__}: {text.splitlines()[0] if text else ''}")
                summary["jit_grad"] = str(arrays["jit_grad_error"])

    # Where TF under jit disagrees with TF eagerly (ulps; NaN handling of max/min; tie and NaN gradients).
    differ = []
    for key in [k for k in arrays if k.startswith(("jit_output", "jit_grad_")) and k != "jit_grad_error"]:
        eager = arrays.get(key[len("jit_"):])
        if eager is not None and eager.dtype.kind != "S" and not np.array_equal(eager, arrays[key], equal_nan=True):
            differ.append(key[len("jit_"):])
    if differ:
        summary["tf_jit_differs_from_eager"] = differ
    return arrays, summary


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=os.path.join(ROOT, "tests", "golden"))
    parser.add_argument("--only", nargs="*", default=None)
    parser.add_argument("--list", action="store_true", help="list the cases and exit (no TF needed)")
    parser.add_argument("--no-jit", action="store_true", help="record no jit_compile=True results")
    parser.add_argument("--cases", default=CASES_PATH, help="the case table (default: tests/frontend/op_cases.py)")
    args = parser.parse_args(argv)
    cases = load_cases(args.cases)
    if args.list:
        print("\n".join(sorted(cases)))
        return 0
    try:
        import tensorflow as tf
    except ImportError:
        print("record_tf_goldens: tensorflow is not installed; nothing recorded", file=sys.stderr)
        return 2

    os.makedirs(args.out, exist_ok=True)
    manifest_path = os.path.join(args.out, "manifest.json")
    manifest = {"cases": {}}
    if os.path.exists(manifest_path):
        with open(manifest_path) as fh:
            manifest = json.load(fh)
    if args.only:
        unknown = sorted(set(args.only) - set(cases))
        if unknown:
            print(f"record_tf_goldens: no such case(s): {unknown}", file=sys.stderr)
            return 2
    run_info = {
        "tensorflow": tf.__version__,
        "numpy": np.__version__,
        "recorded": datetime.date.today().isoformat(),
        "command": "tests/golden/record_tf_goldens.py " + " ".join(argv if argv is not None else sys.argv[1:]),
    }
    if args.only:
        # A partial recording leaves the top-level fields (which describe the full recording of the
        # other cases) alone and is logged on its own, with the cases it (re)recorded.
        manifest.setdefault("partial_recordings", []).append({**run_info, "cases": sorted(set(args.only))})
    else:
        manifest.pop("partial_recordings", None)
        manifest.update(run_info)
    failed = 0
    for name, case in sorted(cases.items()):
        if args.only and name not in args.only:
            continue
        fn, inputs = case[0], case[1]
        try:
            arrays, summary = record_case(tf, name, fn, inputs, jit=not args.no_jit)
        except Exception as err:  # noqa: BLE001 -- report and continue with the other cases
            failed += 1
            print(f"FAILED {name}: {type(err).__name__}: {err}", file=sys.stderr)
            manifest["cases"][name] = {"error": f"{type(err).__name__}: {err}"}
            continue
        np.savez_compressed(os.path.join(args.out, f"{name}.npz"), **arrays)
        manifest["cases"][name] = summary
        print(f"recorded {name}: {summary}")
    # Drop manifest entries of cases that no longer exist.
    manifest["cases"] = {k: v for k, v in sorted(manifest["cases"].items()) if k in cases}
    with open(manifest_path, "w") as fh:
        json.dump(manifest, fh, indent=1, sort_keys=True)
        fh.write("\n")
    print(f"tensorflow {tf.__version__}: {failed} case(s) failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
