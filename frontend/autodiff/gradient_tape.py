"""`tf.GradientTape`, `tf.UnconnectedGradients`.

The tape records while its `with` block runs (tape.py); `gradient` seeds the
targets' cotangents (ones, or `output_gradients`), runs `backprop` over the
records on a recording builder - numpy eagerly, graph nodes inside
`tf.function` - and returns one Tensor per source in the sources' structure.
A read of a watched variable is a source for that variable; reads are
summed. A source read only by row gathers gets `tf.IndexedSlices`, as in TF. Since the backward ops go through a recording builder, enclosing
tapes (and this one, when `gradient` is called inside its own block) record
them: nested tapes give higher derivatives.
"""

from __future__ import annotations

import enum

import numpy as np

from minixla.frontend.graph import current_graph
from minixla.frontend.autodiff import tape as _tape
from minixla.frontend.autodiff.backprop import RowSlices, backprop
from minixla.frontend.autodiff.tape import RecordingBuilder, RValue, Tape, differentiable, inner_builder, new_key, tensor_key, to_inner


class UnconnectedGradients(enum.Enum):
    NONE = "none"
    ZERO = "zero"


def _is_variable(x) -> bool:
    return hasattr(x, "_variable_value")


def _flatten(x, out: list):
    """Structure of `x` with leaves (tensors, variables) replaced by indices into `out`."""
    from minixla.frontend.tensor import Tensor

    if isinstance(x, (list, tuple)):
        return type(x), [_flatten(v, out) for v in x]
    if isinstance(x, dict):
        return dict, {k: _flatten(v, out) for k, v in x.items()}
    if x is not None and not isinstance(x, Tensor) and not _is_variable(x) and not isinstance(x, np.ndarray):
        raise ValueError(f"GradientTape.gradient: unsupported source or target {x!r}")
    out.append(x)
    return None, len(out) - 1


def _rebuild(struct, leaves):
    kind, body = struct
    if kind is None:
        return leaves[body]
    if kind is dict:
        return {k: _rebuild(v, leaves) for k, v in body.items()}
    items = [_rebuild(v, leaves) for v in body]
    return items if kind is list else tuple(items)


class GradientTape:
    """Records operations on watched tensors and variables for automatic differentiation."""

    def __init__(self, persistent: bool = False, watch_accessed_variables: bool = True):
        self._tape = Tape(persistent=persistent, watch_accessed_variables=watch_accessed_variables)
        self._used = False
        self._inside = False
        self._seen_vars: list = []
        self._dense_gradients = False  # jacobian sums a gather's rows (it stacks dense gradients)

    def __enter__(self) -> GradientTape:
        _tape.ACTIVE.append(self._tape)
        self._inside = True
        return self

    def __exit__(self, *exc) -> None:
        if self._tape in _tape.ACTIVE:
            _tape.ACTIVE.remove(self._tape)
        self._inside = False

    # ---- watching -----------------------------------------------------------------
    def watch(self, tensor) -> None:
        leaves: list = []
        _flatten(tensor, leaves)
        for t in leaves:
            if _is_variable(t):
                self._tape.watched_vars.add(t)
                continue
            if t is None:
                continue
            if not differentiable(t._spec.dtype):
                continue  # TF warns and ignores non-float tensors
            if tensor_key(t) is None:
                t._tape_key = new_key()
            self._tape.tracked.add(t._tape_key)

    def watched_variables(self) -> tuple:
        seen = self._seen_vars + [v for v in self._tape.var_keys if v not in self._seen_vars]
        return tuple(seen) + tuple(v for v in self._tape.watched_vars if v not in seen)

    def reset(self) -> None:
        self._seen_vars += [v for v in self._tape.var_keys if v not in self._seen_vars]
        self._tape.records.clear()
        self._tape.tracked.clear()
        self._tape.var_keys.clear()

    class _Stop:
        def __init__(self, tape: Tape):
            self.tape = tape

        def __enter__(self):
            self.previous, self.tape.recording = self.tape.recording, False

        def __exit__(self, *exc):
            self.tape.recording = self.previous

    def stop_recording(self):
        """`with tape.stop_recording():` ops inside are not recorded."""
        return GradientTape._Stop(self._tape)

    # ---- gradients ----------------------------------------------------------------
    def gradient(self, target, sources, output_gradients=None,
                 unconnected_gradients=UnconnectedGradients.NONE):
        if self._used and not self._tape.persistent:
            raise RuntimeError("A non-persistent GradientTape can only be used to compute one set of gradients "
                               "(or jacobians)")
        self._used = True
        unconnected = UnconnectedGradients(unconnected_gradients.value if isinstance(
            unconnected_gradients, UnconnectedGradients) else str(unconnected_gradients).lower())
        graph = current_graph()
        b = RecordingBuilder(inner_builder(graph))
        targets: list = []
        _flatten(target, targets)
        seeds_in: list = [None] * len(targets)
        if output_gradients is not None:
            seeds_in = []
            _flatten(output_gradients, seeds_in)
        from minixla.frontend.api.core import convert_to_tensor

        seeds: dict[int, RValue] = {}
        for t, s in zip(targets, seeds_in):
            t = convert_to_tensor(t)
            key = tensor_key(t)
            if key is None or key not in self._tape.tracked:
                continue
            if s is None and t._spec.shape is None:  # a py_function result inside tf.function
                seed = b.tf_op("OnesLike", RValue(to_inner(t, graph), None))[0]
            elif s is None:
                seed = b.full(t._spec.shape, 1, t._spec.dtype)
            else:
                s = convert_to_tensor(s, t.dtype)
                seed = RValue(to_inner(s, graph) if s._graph is graph or graph is None else to_inner(
                    convert_to_tensor(np.asarray(s._value)), graph), tensor_key(s))
            seeds[key] = seed if key not in seeds else b.add(seeds[key], seed)
        leaves: list = []
        struct = _flatten(sources, leaves)
        source_keys = [self._keys_of(s) for s in leaves]
        sparse = frozenset() if self._dense_gradients else frozenset(
            k for s, ks in zip(leaves, source_keys) if _static_shape(s) is not None for k in ks)
        cts = backprop(b, list(self._tape.records), seeds, {k for ks in source_keys for k in ks}, sparse)
        results = []
        for src, keys in zip(leaves, source_keys):
            got = [cts[k] for k in keys if k in cts]
            if got and all(isinstance(g, RowSlices) for g in got):  # read only by row gathers
                results.append(_indexed_slices(b, RowSlices(b, [pc for g in got for pc in g.parts]), src, graph))
            elif got:
                got = [g.dense() if isinstance(g, RowSlices) else g for g in got]
                total = got[0]
                for g in got[1:]:
                    total = b.add(total, g)
                results.append(_tape.to_tensor(b.wrap(total), graph))
            elif unconnected is UnconnectedGradients.ZERO:
                results.append(_zeros_for(src))
            else:
                results.append(None)
        if not self._tape.persistent:
            self.reset()
        return _rebuild(struct, results)

    def _keys_of(self, source) -> list[int]:
        if _is_variable(source):
            return list(self._tape.var_keys.get(source, []))
        key = tensor_key(source)
        return [key] if key is not None else []


def _indexed_slices(b, rows: RowSlices, src, graph):
    """TF's gradient of a variable read by gathers only: `tf.IndexedSlices` with one row per index."""
    from minixla.frontend.indexed_slices import IndexedSlices

    values, indices = rows.values_and_indices()
    shape = np.asarray(_static_shape(src), np.int32)
    return IndexedSlices(_tape.to_tensor(b.wrap(values), graph), _tape.to_tensor(b.wrap(indices), graph), shape)


def _static_shape(src):
    value = src._variable_value() if _is_variable(src) else src
    return getattr(getattr(value, "_spec", None), "shape", None)


def _zeros_for(src):
    from minixla.frontend.api.core import zeros_like

    return zeros_like(src._variable_value() if _is_variable(src) else src)
