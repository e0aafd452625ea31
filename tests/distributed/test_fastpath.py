"""The fast all-reduce's header (backends/mpi/fastpath.py), checked with numpy's reductions as the
oracle: it reduces to the expected value exactly when no process flags a change, for any group size
and every dtype the fast path takes."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from minixla.backends.mpi.fastpath import HEADERS

REDUCE = {"SUM": np.add, "PROD": np.multiply, "MAX": np.maximum, "MIN": np.minimum}


@pytest.mark.parametrize("reduction", sorted(HEADERS))
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int8, np.int32, np.int64, np.uint8, np.uint64])
def test_header_reduces_to_expect_only_when_nobody_changed(reduction, dtype):
    unchanged, changed, expect = (np.dtype(dtype).type(v) for v in HEADERS[reduction])
    for n in (2, 3, 8, 9):
        for flags in itertools.product([False, True], repeat=n) if n <= 3 else \
                [(False,) * n, (True,) * n, (True,) + (False,) * (n - 1), (False,) * (n - 1) + (True,)]:
            values = np.array([changed if f else unchanged for f in flags], dtype)
            with np.errstate(over="ignore"):
                got = REDUCE[reduction].reduce(values)
            assert (got == expect) == (not any(flags)), (reduction, dtype, flags, got)
