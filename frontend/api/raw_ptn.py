"""tf.raw_ops' parameterized truncated normal wrappers (kernels in frontend/ops/ptn_compiled_ops.py):
StatelessParameterizedTruncatedNormal with Tseed taken from the seed, since TF 2.21's XLA kernel takes int32
seeds only (jit_compile=True with an int64 seed fails as in TF); ParameterizedTruncatedNormal with its
stateful counter offset (seed, seed2 and the blocks each call reserves, as frontend/api/raw_functional.py's
other stateful kernels)."""

from __future__ import annotations

import numpy as np

from minixla.frontend.api import core as api
from minixla.frontend.execute import execute

OP = "StatelessParameterizedTruncatedNormal"


def stateless_parameterized_truncated_normal(shape, seed, means, stddevs, minvals, maxvals, **_):
    seed = api.convert_to_tensor(seed)
    return execute(OP, [shape, seed, means, stddevs, minvals, maxvals], {"Tseed": seed.dtype.np})


def install(tf_module) -> None:
    from minixla.frontend import raw_ops

    raw_ops.STATE_CALLS[OP] = stateless_parameterized_truncated_normal
    raw_ops.STATE_CALLS["ParameterizedTruncatedNormal"] = parameterized_truncated_normal


def parameterized_truncated_normal(shape, means, stdevs, minvals, maxvals, seed=0, seed2=0, **_):
    """The stateful V1 kernel: its counter offset advances by the blocks it reserves, as TF's kernel does."""
    from minixla.frontend.api.raw_functional import _offset, _seeds
    from minixla.frontend.ops.ptn_compiled_ops import STATEFUL, v1_batches

    params = [api.convert_to_tensor(v) for v in (means, stdevs, minvals, maxvals)]
    dims = [int(d) for d in np.asarray(shape.numpy() if hasattr(shape, "numpy") else shape).reshape(-1)]
    s1, s2 = _seeds(seed, seed2)
    _, _, reserved = v1_batches(dims, [p.shape.rank for p in params])
    off = _offset((STATEFUL, params[0].dtype.name, s1, s2), reserved)
    return execute(STATEFUL, [np.asarray(dims, np.int32), *params, off], {"seed": s1, "seed2": s2})
