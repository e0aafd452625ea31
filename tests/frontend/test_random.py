"""tf.random stateless generators against an independent pure-Python oracle of
TF's eager CPU kernels (Philox-4x32-10 + random_distributions.h, written here
from the algorithm, not from the project's kernels), against the numbers real
TF 2.21 printed (captures/stateless_rng_alg.txt, read at run time when
present), plus statistical properties, eagerly, in tf.function and under
jit_compile=True."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from minixla.frontend import tf
from tests.paths import SHARED

CAPTURE = SHARED / "reference" / "tensorflow" / "captures" / "stateless_rng_alg.txt"
M32 = 0xFFFFFFFF


def philox_block(ctr: list[int], key: list[int]) -> list[int]:
    """One Philox-4x32-10 block (Salmon et al. 2011), plain Python ints."""
    c, k = list(ctr), list(key)
    for _ in range(10):
        p0, p1 = 0xD2511F53 * c[0], 0xCD9E8D57 * c[2]
        c = [(p1 >> 32) ^ c[1] ^ k[0], p1 & M32, (p0 >> 32) ^ c[3] ^ k[1], p0 & M32]
        k = [(k[0] + 0x9E3779B9) & M32, (k[1] + 0xBB67AE85) & M32]
    return c


def oracle_stream(seed, n: int) -> list[int]:
    """TF: GenerateKey(seed) then n words of PhiloxRandom(counter, key), counter += 1 per block."""
    s0, s1 = (int(v) & 0xFFFFFFFFFFFFFFFF for v in seed)
    mix = philox_block([s0 & M32, s0 >> 32, s1 & M32, s1 >> 32], [0x3EC8F720, 0x02461E29])
    key, ctr = mix[:2], mix[2] | mix[3] << 32  # counter words 0, 1 are zero
    out = []
    for blk in range(-(-n // 4)):
        c = (ctr << 64) + blk
        out += philox_block([(c >> (32 * j)) & M32 for j in range(4)], key)
    return out[:n]


def oracle_uniform_f32(seed, n):
    w = np.array(oracle_stream(seed, n), np.uint32)
    return ((w & 0x7FFFFF) | 0x3F800000).view(np.float32) - np.float32(1)


def oracle_uniform_f64(seed, n):
    w = oracle_stream(seed, 2 * n)
    bits = np.array([((w[2 * i] & 0xFFFFF) << 32 | w[2 * i + 1]) | 1023 << 52 for i in range(n)], np.uint64)
    return bits.view(np.float64) - 1.0


def oracle_normal_f32(seed, n):
    m = -(-n // 2)
    u = oracle_uniform_f32(seed, 2 * m).astype(np.float64)
    u1, v = np.maximum(u[0::2], np.float32(1e-7)), 2 * math.pi * u[1::2]
    r = np.sqrt(-2 * np.log(u1))
    return np.stack([np.sin(v) * r, np.cos(v) * r], 1).reshape(-1)[:n]


def oracle_uniform_int(seed, n, lo, hi, bits):
    w = oracle_stream(seed, n * bits // 32)
    vals = w if bits == 32 else [w[2 * i] | w[2 * i + 1] << 32 for i in range(n)]
    return np.array([lo + v % (hi - lo) for v in vals], np.int64)


MODES = ("eager", "function", "jit")


def run(mode, fn, *args):
    if mode == "eager":
        return fn(*args).numpy()
    return tf.function(fn, jit_compile=(mode == "jit"))(*args).numpy()


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("seed", [(1, 2), (-7, 123456789), (2**31 - 1, 0)])
def test_uniform_float32_is_tfs_stream(mode, seed):
    got = run(mode, lambda s: tf.random.stateless_uniform([3, 5], s), tf.constant(seed, tf.int32))
    assert got.dtype == np.float32 and got.shape == (3, 5)
    np.testing.assert_array_equal(got.reshape(-1), oracle_uniform_f32(seed, 15))


@pytest.mark.parametrize("mode", MODES)
def test_uniform_float64_minval_maxval(mode):
    got = run(mode, lambda s: tf.random.stateless_uniform([7], s, minval=-2.0, maxval=3.0, dtype=tf.float64),
              tf.constant([5, 6], tf.int64))
    np.testing.assert_allclose(got, oracle_uniform_f64((5, 6), 7) * 5.0 - 2.0, rtol=0, atol=1e-15)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dtype,bits", [(tf.int32, 32), (tf.int64, 64)])
def test_uniform_int(mode, dtype, bits):
    got = run(mode, lambda s: tf.random.stateless_uniform([9], s, minval=-5, maxval=1000, dtype=dtype),
              tf.constant([3, 4]))
    assert got.dtype == dtype.np
    np.testing.assert_array_equal(got, oracle_uniform_int((3, 4), 9, -5, 1000, bits))


@pytest.mark.parametrize("mode", MODES)
def test_normal_float32(mode):
    got = run(mode, lambda s: tf.random.stateless_normal([11], s, mean=1.0, stddev=2.0), tf.constant([9, 9]))
    # sin/cos/log are libm's eagerly and LLVM's compiled: a few ulp, not bits
    np.testing.assert_allclose(got, oracle_normal_f32((9, 9), 11) * 2 + 1, rtol=2e-6, atol=2e-6)


def test_full_int_split_and_fold_in():
    w = oracle_stream((1, 2), 4)
    np.testing.assert_array_equal(tf.random.experimental.stateless_split((1, 2)).numpy(),
                                  np.array(w, np.uint32).view(np.int32).reshape(2, 2))
    folded = tf.random.experimental.stateless_fold_in((1, 2), 7).numpy()
    np.testing.assert_array_equal(folded, [np.array(w[:1], np.uint32).view(np.int32)[0], 7])


def test_matches_tensorflow_capture():
    """Seed (1, 2) gives the key/counter and eager values TF 2.21 printed."""
    if not CAPTURE.exists():
        pytest.skip("TF capture not available")
    text = CAPTURE.read_text()
    key = int(re.search(r"GetKeyCounter eager \[array\(\[(\d+)\]", text).group(1))
    ctr = [int(v) for v in re.search(r"GetKeyCounter eager .*?array\(\[\s*(\d+),\s*(\d+)\]", text).groups()]
    want_u = np.array(re.search(r"alg=philox\s+eager=\[([^\]]*)\]", text).group(1).split(), np.float32)
    want_n = np.array(re.search(r"stateless_normal eager \[([^\]]*)\]", text).group(1).split(), np.float32)
    from minixla.frontend.execute import execute

    k, c = execute("StatelessRandomGetKeyCounter", [tf.constant([1, 2])], {"Tseed": np.dtype(np.int32)})
    assert k.numpy().tolist() == [key] and c.numpy().tolist() == ctr
    for mode in MODES:
        u = run(mode, lambda s: tf.random.stateless_uniform([4], s, alg="philox"), tf.constant([1, 2]))
        np.testing.assert_array_equal(u, want_u)
        z = run(mode, lambda s: tf.random.stateless_normal([4], s), tf.constant([1, 2]))
        np.testing.assert_allclose(z, want_n, rtol=1e-6, atol=1e-7)


def test_statistics_and_determinism():
    f = tf.function(lambda s: (tf.random.stateless_uniform([20000], s), tf.random.stateless_normal([20000], s)),
                    jit_compile=True)
    u, z = (t.numpy() for t in f(tf.constant([11, 12])))
    assert 0.0 <= u.min() and u.max() < 1.0
    assert abs(u.mean() - 0.5) < 0.01 and abs(u.std() - math.sqrt(1 / 12)) < 0.01
    assert abs(z.mean()) < 0.03 and abs(z.std() - 1.0) < 0.03
    eager_u = tf.random.stateless_uniform([20000], [11, 12]).numpy()
    np.testing.assert_array_equal(u, eager_u)  # eager == jit, bit for bit
    np.testing.assert_array_equal(eager_u, tf.random.stateless_uniform([20000], [11, 12]).numpy())
    assert (tf.random.stateless_uniform([100], [11, 13]).numpy() != eager_u[:100]).mean() > 0.9


def test_argument_errors():
    with pytest.raises(ValueError, match="minval"):
        tf.random.stateless_uniform([2], (1, 2), minval=0, dtype=tf.int32)
    with pytest.raises(ValueError, match="dtype"):
        tf.random.stateless_normal([2], (1, 2), dtype=tf.int32)
    with pytest.raises(ValueError, match="alg"):
        tf.random.stateless_uniform([2], (1, 2), alg="threefry")
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"seed must have shape \[2\], not \[3\]"):
        tf.random.stateless_uniform([2], (1, 2, 3))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Need minval < maxval"):
        tf.random.stateless_uniform([2], (1, 2), minval=3, maxval=3, dtype=tf.int32)
