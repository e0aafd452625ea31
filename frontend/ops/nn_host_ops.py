"""ComputeAccidentalHits (`tf.nn.compute_accidental_hits`): a host op, as in TF, which has no XLA
kernel for it -- its outputs have one entry per hit, a count known only at run time. It runs
eagerly and in tf.function; under jit_compile=True compilation fails as TF's does."""

from __future__ import annotations

import numpy as np

from minixla.frontend.builder_types import Spec
from minixla.frontend.ops.registry import op_error, register


def _compute_accidental_hits(true_classes, sampled_candidates, num_true=1, seed=0, seed2=0):
    """(row, position in sampled_candidates, -FLT_MAX) for each true class of a row that was sampled;
    a class sampled twice counts at its last position (TF's kernel's map)."""
    true_classes = np.asarray(true_classes)
    if true_classes.ndim != 2 or true_classes.shape[1] != num_true:
        raise op_error("ComputeAccidentalHits", f"true_classes must be a matrix with num_true={num_true} columns")
    position = {int(c): j for j, c in enumerate(np.asarray(sampled_candidates).reshape(-1))}
    hits = [(i, position[int(c)]) for i, row in enumerate(true_classes) for c in row if int(c) in position]
    rows = np.array([i for i, _ in hits], np.int32)
    ids = np.array([j for _, j in hits], np.int64)
    return rows, ids, np.full(len(hits), -np.finfo(np.float32).max, np.float32)


register("ComputeAccidentalHits", ("true_classes", "sampled_candidates"), None, host=_compute_accidental_hits,
         attrs={"num_true": 1, "seed": 0, "seed2": 0}, typed=(),
         infer=lambda t, s, **kw: (Spec(None, np.dtype(np.int32)), Spec(None, np.dtype(np.int64)),
                                   Spec(None, np.dtype(np.float32))))
