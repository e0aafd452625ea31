"""The oracle of the eager fast-path tests: the same call taken through the general path (an open
GradientTape sends every op there once the tape's own fast recorders are emptied), compared bit for
bit. (The `taken` fixture, the kernels the fast path ran, is in conftest.py.)"""

from __future__ import annotations

import numpy as np

from minixla.frontend import tf
from minixla.frontend.autodiff import tape_fast_path


def general(fn, *args, **kwargs):
    """The same call through the general path: while a tape is open the eager fast path steps aside,
    and with its recorders emptied so does the tape's (frontend/autodiff/tape_fast_path.py)."""
    saved, tape_fast_path.RECORDERS = tape_fast_path.RECORDERS, {}
    try:
        with tf.GradientTape():
            return fn(*args, **kwargs)
    finally:
        tape_fast_path.RECORDERS = saved


def same(got, want):
    """Equal dtype, shape and bits (and each tensor's `_dt`, which the fast paths compare, its array's dtype)."""
    assert got.dtype == want.dtype and got.shape == want.shape
    assert all(t.__dict__.get("_dt") == t._value.dtype for t in (got, want))
    np.testing.assert_array_equal(*[np.atleast_1d(t._value).view(np.uint8) for t in (got, want)])
