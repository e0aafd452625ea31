"""`GraphBuilder`: the builder whose primitives become nodes of the graph being traced.

Inside `tf.function`, recorded forward ops and the whole backward pass are
issued through this builder, so the gradient computation is part of the traced
graph (and so of the compiled executable with `jit_compile=True`). Each
primitive is one `XlaHlo` node (frontend/ops/xla_ops.py); constants are
`Const` nodes; `tf_op` (ops with their own gradient rule, host ops) adds a
node of the TF op itself.
"""

from __future__ import annotations

import numpy as np

from minixla.frontend.builder import Builder
from minixla.frontend.ops.registry import get
from minixla.frontend.ops.xla_ops import encode_attrs


class GValue:
    """A graph Tensor seen through the builder API (`.shape` tuple, or None where the static shape is
    unknown: a py_function result; numpy `.dtype`)."""

    __slots__ = ("tensor", "shape", "dtype")

    def __init__(self, tensor):
        self.tensor = tensor
        self.shape = None if tensor._spec.shape is None else tuple(tensor._spec.shape)
        self.dtype = np.dtype(tensor._spec.dtype)

    def __repr__(self) -> str:
        return f"GValue({self.tensor!r})"


class GraphBuilder(Builder):
    def __init__(self, graph):
        self.graph = graph

    def _constant(self, array: np.ndarray) -> GValue:
        return GValue(self.graph.constant(array))

    def _tensor(self, o):
        if isinstance(o, np.ndarray):  # a const input of a TF op
            return self.graph.constant(o)
        t = o.tensor
        if t._graph is not self.graph:  # an eager value used inside the trace
            t = self.graph.constant(np.asarray(t._value))
        return t

    def _apply(self, op, operands, attrs, results, body=None):
        tensors = [self._tensor(o) for o in operands]
        outs = self.graph.add_node(get("XlaHlo"), [tensors], encode_attrs(op, attrs, results, body))
        return [GValue(t) for t in outs]

    def tf_op(self, name: str, *inputs, **attrs) -> list:
        """One node of the TF op itself (host ops included), not its hlo primitives."""
        opdef = get(name)
        args = [[self._tensor(v) for v in x] if isinstance(x, list) else self._tensor(x) for x in inputs]
        return [GValue(t) for t in self.graph.add_node(opdef, args, opdef.full_attrs(attrs))]
