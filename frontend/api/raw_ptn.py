"""tf.raw_ops.StatelessParameterizedTruncatedNormal's wrapper: Tseed taken from the seed, since TF 2.21's
XLA kernel takes int32 seeds only (jit_compile=True with an int64 seed fails as in TF). The kernel is
frontend/ops/ptn_compiled_ops.py."""

from __future__ import annotations

from minixla.frontend.api import core as api
from minixla.frontend.execute import execute

OP = "StatelessParameterizedTruncatedNormal"


def stateless_parameterized_truncated_normal(shape, seed, means, stddevs, minvals, maxvals, **_):
    seed = api.convert_to_tensor(seed)
    return execute(OP, [shape, seed, means, stddevs, minvals, maxvals], {"Tseed": seed.dtype.np})


def install(tf_module) -> None:
    from minixla.frontend import raw_ops

    raw_ops.STATE_CALLS[OP] = stateless_parameterized_truncated_normal
