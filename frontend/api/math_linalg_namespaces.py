"""Installs the P1 math/shape/linalg functions (frontend/api_p1_math.py) into the `tf` namespaces.
(`l2_normalize` of all three namespaces comes from frontend/api_p1_nn.py.)"""

from __future__ import annotations

from minixla.frontend.api import math_linalg as m

_TOP = ["linspace", "roll", "repeat", "meshgrid", "identity_n", "ensure_shape", "broadcast_static_shape", "bitcast",
        "norm", "clip_by_norm", "clip_by_global_norm", "scatter_nd", "tensor_scatter_nd_update",
        "tensor_scatter_nd_add", "tensordot"]
_MATH = ["reduce_variance", "reduce_std", "count_nonzero", "unsorted_segment_sum"]
_LINALG = {"norm": m.norm, "global_norm": m.global_norm, "band_part": m.band_part,
           "diag": m.diag, "diag_part": m.diag_part, "trace": m.trace, "matvec": m.matvec,
           "tensordot": m.tensordot, "adjoint": m.adjoint}


def install(tf) -> None:
    for n in _TOP:
        setattr(tf, n, getattr(m, n))
    for n in _MATH + ["linspace", "bitcast"]:
        setattr(tf.math, n, getattr(m, n))
    for n, f in _LINALG.items():
        setattr(tf.linalg, n, f)
    tf.math.count_nonzero = m.count_nonzero
