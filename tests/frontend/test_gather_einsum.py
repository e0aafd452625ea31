"""tf.gather with batch_dims and tf.einsum with '...' against numpy oracles,
eagerly, in tf.function and under jit_compile=True."""

from __future__ import annotations

import numpy as np
import pytest

from minixla.frontend import tf

R = np.random.default_rng(7)
MODES = ("eager", "function", "jit")


def run(mode, fn, *args):
    ts = [tf.constant(a) for a in args]
    out = fn(*ts) if mode == "eager" else tf.function(fn, jit_compile=(mode == "jit"))(*ts)
    return out.numpy()


def gather_oracle(params, indices, axis, bd):
    """TF's definition: for each batch position, np.take along (axis - bd) of that batch row."""
    if bd == 0:
        return np.take(params, indices, axis=axis)
    return np.stack([gather_oracle(p, i, axis - 1, bd - 1) for p, i in zip(params, indices)])


GATHERS = [  # params shape, indices shape, axis, batch_dims
    ((2, 5), (2, 3), 1, 1),
    ((2, 3, 4), (2, 3, 2), 2, 2),
    ((2, 4, 3, 5), (2, 6), 2, 1),
    ((3, 4, 2), (3, 2, 2), 1, 1),
    ((2, 5), (2, 3), None, -1),
]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("pshape,ishape,axis,bd", GATHERS)
def test_gather_batch_dims(mode, pshape, ishape, axis, bd):
    params = R.standard_normal(pshape).astype(np.float32)
    ax = bd % len(ishape) if axis is None else axis
    nbd = bd % len(ishape)
    indices = R.integers(0, pshape[ax], ishape).astype(np.int32)
    got = run(mode, lambda p, i: tf.gather(p, i, axis=axis, batch_dims=bd), params, indices)
    np.testing.assert_array_equal(got, gather_oracle(params, indices, ax, nbd))


def test_gather_batch_dims_errors():
    p, i = tf.zeros([2, 5]), tf.zeros([3, 2], tf.int32)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"params.shape\[0\]: 2 should be equal to "
                                                             r"indices.shape\[0\]: 3"):
        tf.gather(p, i, axis=1, batch_dims=1)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"batch_dims \(2\) must be less than or equal to "
                                                             r"axis \(1\)"):
        tf.gather(tf.zeros([2, 2, 2]), tf.zeros([2, 2], tf.int32), axis=1, batch_dims=2)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"indices\[1,0\] = 7 is not in \[0, 5\)"):
        tf.gather(tf.zeros([2, 5]), tf.constant([[0], [7]]), axis=1, batch_dims=1)


EINSUMS = [  # equation, operand shapes
    ("...ij,...jk->...ik", [(2, 3, 4, 5), (2, 3, 5, 6)]),
    ("...ij,...jk", [(4, 5), (5, 2)]),  # implicit, empty ellipsis (TF refuses it when non-empty)
    ("...ij,jk", [(2, 1, 4, 5), (5, 2)]),  # implicit, '...' in one operand: output '...ik'
    ("b...d,bd", [(2, 3, 4, 5), (2, 5)]),  # implicit: output '...' (b and d are used twice)
    ("ij...,jk...->ik...", [(3, 4, 2), (4, 5, 2)]),
    ("b...d,bd->b...", [(2, 3, 4, 5), (2, 5)]),
    ("...ij->...ji", [(2, 3, 4)]),
    ("...i,...i->...", [(4, 1, 3), (5, 3)]),
    ("...", [(2, 3)]),
]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("equation,shapes", EINSUMS)
def test_einsum_ellipsis(mode, equation, shapes):
    xs = [R.standard_normal(s).astype(np.float32) for s in shapes]
    got = run(mode, lambda *a: tf.einsum(equation, *a), *xs)
    want = np.einsum(equation, *xs)
    assert got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_einsum_ellipsis_rank_error():
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"rank at least 2"):
        tf.einsum("...ij->...", tf.zeros([3]))
    no_ellipsis = r"Output contains 1 broadcasting dimension\(s\) but no ellipsis \(...\) was found"
    with pytest.raises(tf.errors.InvalidArgumentError, match=no_ellipsis):  # numpy refuses too
        tf.einsum("...ij,...jk->ik", tf.zeros([2, 3, 4]), tf.zeros([2, 4, 5]))


@pytest.mark.parametrize("mode", MODES)
def test_einsum_implicit_output_with_two_ellipses(mode):
    """TF counts '...' like a label in the implicit output: used by two operands, it is left out
    (numpy keeps it), so "...ij,...jk" refuses non-empty ellipsis dimensions, as TF 2.21 does
    ("Output contains 1 broadcasting dimension(s) but no ellipsis (...) was found in the output
    subscripts."), and is a plain matmul when they are empty."""
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Output contains 2 broadcasting dimension\(s\) "
                                                             r"but no ellipsis \(...\) was found"):
        run(mode, lambda a, b: tf.einsum("...ij,...jk", a, b), np.ones((2, 1, 3, 4), np.float32),
            np.ones((1, 3, 4, 2), np.float32))
    a, b = R.standard_normal((3, 4)).astype(np.float32), R.standard_normal((4, 2)).astype(np.float32)
    np.testing.assert_allclose(run(mode, lambda a, b: tf.einsum("...ij,...jk", a, b), a, b), a @ b, rtol=1e-5,
                               atol=1e-5)
