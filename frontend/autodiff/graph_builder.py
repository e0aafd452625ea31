"""`GraphBuilder`: the builder whose primitives become nodes of the graph being traced.

Inside `tf.function`, recorded forward ops and the whole backward pass are
issued through this builder, so the gradient computation is part of the traced
graph (and so of the compiled executable with `jit_compile=True`). Each
primitive is one `XlaHlo` node (frontend/ops/xla_ops.py); constants are
`Const` nodes.
"""

from __future__ import annotations

import numpy as np

from ..builder import Builder
from ..ops.registry import get
from ..ops.xla_ops import encode_attrs


class GValue:
    """A graph Tensor seen through the builder API (`.shape` tuple, numpy `.dtype`)."""

    __slots__ = ("tensor", "shape", "dtype")

    def __init__(self, tensor):
        self.tensor = tensor
        self.shape = tuple(tensor._spec.shape)
        self.dtype = np.dtype(tensor._spec.dtype)

    def __repr__(self) -> str:
        return f"GValue({self.tensor!r})"


class GraphBuilder(Builder):
    def __init__(self, graph):
        self.graph = graph

    def _constant(self, array: np.ndarray) -> GValue:
        return GValue(self.graph.constant(array))

    def _apply(self, op, operands, attrs, results, body=None):
        tensors = []
        for o in operands:
            t = o.tensor
            if t._graph is not self.graph:  # an eager value used inside the trace
                t = self.graph.constant(np.asarray(t._value))
            tensors.append(t)
        outs = self.graph.add_node(get("XlaHlo"), [tensors], encode_attrs(op, attrs, results, body))
        return [GValue(t) for t in outs]
