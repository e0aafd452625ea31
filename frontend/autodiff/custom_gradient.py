"""`tf.custom_gradient`, `tf.gradients` and `tf.GradientTape.jacobian`, on the tape machinery (tape.py).

* `custom_gradient(f)`: `f(*args) -> (result, grad_fn)` runs with the tapes paused; its results are
  recorded on every tape tracking an argument as one `Prim` whose `vjp` calls the user's `grad_fn` on the
  upstream gradients as Tensors (eagerly numpy, inside `tf.function`/jit graph nodes).
* `gradients(ys, xs)` (inside `tf.function` only, as TF): the nodes of the current graph downstream of `xs`
  are replayed through `record_op` on a fresh tape tracking `xs` (the replayed forward nodes are the same
  computation: CSE merges them), then `backprop` as `GradientTape.gradient` does; the gradients of all
  `ys` are summed, as TF's.
* `jacobian`: one `gradient` per target element (one-hot upstream gradients), stacked to
  `target.shape + source.shape`; `experimental_use_pfor`/`parallel_iterations` are accepted and ignored.
"""

from __future__ import annotations

import functools
import inspect

import numpy as np

from minixla.frontend.autodiff import tape as _tape
from minixla.frontend.autodiff.backprop import backprop
from minixla.frontend.autodiff.gradient_tape import GradientTape, UnconnectedGradients, _flatten, _rebuild
from minixla.frontend.autodiff.tape import Prim, RValue, Tape, differentiable, new_key, tensor_key, to_inner


def _graph():
    from minixla.frontend.graph import current_graph

    return current_graph()


class _paused:
    """Tapes record nothing inside (TF runs the forward of a custom_gradient function unrecorded)."""

    def __enter__(self):
        self.saved = [(t, t.recording) for t in _tape.ACTIVE]
        for t, _ in self.saved:
            t.recording = False

    def __exit__(self, *exc):
        for t, r in self.saved:
            t.recording = r


def custom_gradient(f=None):
    """`@tf.custom_gradient`: `f(*x) -> (y, grad_fn)`, `grad_fn(*dy) -> dx` (one per argument)."""
    if f is None:
        return lambda fn: custom_gradient(fn)

    @functools.wraps(f)
    def decorated(*args, **kwargs):
        from minixla.frontend.api.core import convert_to_tensor, identity
        from minixla.frontend.tensor import Tensor

        graph = _graph()
        tapes = _tape.recording_tapes()
        with _paused():
            spy = Tape(watch_accessed_variables=True)  # which variables f reads (TF's VariableWatcher)
            _tape.ACTIVE.append(spy)
            try:
                result, grad_fn = f(*args, **kwargs)
            finally:
                _tape.ACTIVE.remove(spy)
            leaves: list = []
            struct = _flatten(result, leaves)
            outs = [identity(convert_to_tensor(v)) for v in leaves]
        arg_vars = {id(a) for a in args if hasattr(a, "_variable_value")}
        variables = [v for v in spy.var_keys if id(v) not in arg_vars and getattr(v, "trainable", False)]
        ins = [a._variable_value() if hasattr(a, "_variable_value") else a for a in args]
        ins = [a if isinstance(a, Tensor) else None for a in ins]
        keys = [tensor_key(a) if a is not None else None for a in ins]
        tapes = [t for t in tapes if any(t.tracks(k) for k in keys) or any(t.watches_variable(v) for v in variables)]
        params = inspect.signature(grad_fn).parameters
        takes_vars = "variables" in params or any(p.kind == p.VAR_KEYWORD for p in params.values())
        if variables and not takes_vars:
            raise TypeError("@tf.custom_gradient grad_fn must accept keyword argument 'variables', since function "
                            f"uses variables: {variables}")
        if not tapes:
            return _rebuild(struct, outs)
        operands = [RValue(to_inner(a, graph), k) for a, k in zip(ins, keys) if a is not None]
        for v in variables:
            with _paused():
                read = identity(v._variable_value())
            k = new_key()
            for t in tapes:
                if t.watches_variable(v):
                    t.var_keys.setdefault(v, []).append(k)
                    t.tracked.add(k)
            operands.append(RValue(to_inner(read, graph), k))
        positions = [i for i, a in enumerate(ins) if a is not None]
        results = [RValue(to_inner(o, graph), new_key() if differentiable(o._spec.dtype) else None) for o in outs]

        def as_rvalue(x, dtype, g):
            if x is None:
                return None
            t = convert_to_tensor(x._variable_value() if hasattr(x, "_variable_value") else x, dtype)
            return RValue(to_inner(t, g), tensor_key(t))

        def vjp(b, prim, cts):
            g = _graph()
            ups = [_tape.to_tensor(RValue(c.v if isinstance(c, RValue) else c, None), g) for c in cts]
            if variables:
                got, var_grads = grad_fn(*ups, variables=list(variables))
                var_grads = list(var_grads) if isinstance(var_grads, (list, tuple)) else [var_grads]
                if len(var_grads) != len(variables):
                    raise ValueError("Must return gradient for each variable from @custom_gradient grad_fn.")
            else:
                got, var_grads = grad_fn(*ups), []
            got = list(got) if isinstance(got, (list, tuple)) else [got]
            if len(got) != len(args):
                raise ValueError(f"custom_gradient function expected to return {len(args)} gradients, but "
                                 f"returned {len(got)} instead.")
            flat = [as_rvalue(got[i], ins[i].dtype, g) for i in positions]
            flat += [as_rvalue(vg, v.dtype, g) for vg, v in zip(var_grads, variables)]
            return flat

        prim = Prim(f"CustomGradient_{getattr(f, '__name__', 'f')}", operands, {}, results, vjp=vjp)
        for t in tapes:
            t.records.append(prim)
            t.tracked.update(r.key for r in results if r.key is not None)
        final = [_tape.to_tensor(r, graph) if graph is None else _keyed(o, r.key) for o, r in zip(outs, results)]
        return _rebuild(struct, final)

    return decorated


def _keyed(t, key):
    if key is not None:
        t._tape_key = key
    return t


# -- tf.gradients ---------------------------------------------------------------------------------------

def gradients(ys, xs, grad_ys=None, name="gradients", gate_gradients=False, aggregation_method=None,
              stop_gradients=None, unconnected_gradients=UnconnectedGradients.NONE):
    """`tf.gradients` (graph mode only): d(sum ys)/d xs through the current `tf.function` graph."""
    from minixla.frontend.api.core import convert_to_tensor, identity, zeros_like

    graph = _graph()
    if graph is None:
        raise RuntimeError("tf.gradients is not supported when eager execution is enabled. Use tf.GradientTape "
                           "instead.")
    unconnected = UnconnectedGradients(unconnected_gradients.value if isinstance(
        unconnected_gradients, UnconnectedGradients) else str(unconnected_gradients).lower())
    y_list = list(ys) if isinstance(ys, (list, tuple)) else [ys]
    x_list = list(xs) if isinstance(xs, (list, tuple)) else [xs]
    x_list = [x._variable_value() if hasattr(x, "_variable_value") else x for x in x_list]
    stops = {id(s) for s in (stop_gradients if isinstance(stop_gradients, (list, tuple)) else
                             [stop_gradients] if stop_gradients is not None else [])}
    tape = Tape()
    env: dict[int, object] = {}
    nodes = list(graph.nodes)
    with _paused():
        for x in x_list:
            rx = identity(x)
            if differentiable(rx._spec.dtype):
                rx._tape_key = new_key()
                tape.tracked.add(rx._tape_key)
            env[id(x)] = rx

    def mapped(v):
        if isinstance(v, list):
            return [env.get(id(t), t) for t in v]
        return env.get(id(v), v)

    _tape.ACTIVE.append(tape)
    try:
        for node in nodes:
            ins = [mapped(v) for v in node.inputs]
            flat = [t for v in ins for t in (v if isinstance(v, list) else [v])]
            if node.opdef.stateful or not _tape.should_record(node.opdef, flat):
                continue
            outs = _tape.record_op(node.opdef, ins, node.attrs, graph)
            for o, n in zip(node.outputs, outs):
                if id(o) not in stops:
                    env[id(o)] = n
    finally:
        _tape.ACTIVE.remove(tape)
    b = _tape.RecordingBuilder(_tape.inner_builder(graph), [])
    seeds: dict = {}
    gy = list(grad_ys) if isinstance(grad_ys, (list, tuple)) else [grad_ys] * len(y_list) if grad_ys is None \
        else [grad_ys]
    for y, s in zip(y_list, gy):
        y = mapped(convert_to_tensor(y))
        k = tensor_key(y)
        if k is None or k not in tape.tracked:
            continue
        seed = b.full(y._spec.shape, 1, y._spec.dtype) if s is None else RValue(
            to_inner(convert_to_tensor(s, y.dtype), graph), None)
        seeds[k] = seed if k not in seeds else b.add(seeds[k], seed)
    keys = [tensor_key(env[id(x)]) for x in x_list]
    cts = backprop(b, list(tape.records), seeds, {k for k in keys if k is not None}) if seeds else {}
    out = []
    for x, k in zip(x_list, keys):
        if k is not None and k in cts:
            out.append(_tape.to_tensor(RValue(cts[k].v, None), graph))
        elif unconnected is UnconnectedGradients.ZERO:
            out.append(zeros_like(x))
        else:
            out.append(None)
    return out


# -- GradientTape.jacobian -------------------------------------------------------------------------------

def jacobian(self, target, sources, unconnected_gradients=UnconnectedGradients.NONE, parallel_iterations=None,
             experimental_use_pfor=True):
    """d target / d sources: for each source, a tensor of shape target.shape + source.shape."""
    from minixla.frontend.api.core import convert_to_tensor, reshape, stack, zeros

    if self._inside and not self._tape.persistent:
        pass  # TF warns about calling jacobian inside the tape context; it still works
    if self._used and not self._tape.persistent:
        raise RuntimeError("A non-persistent GradientTape can only be used to compute one set of gradients "
                           "(or jacobians)")
    target = convert_to_tensor(target)
    shape = list(target._spec.shape)
    n = int(np.prod(shape)) if shape else 1
    leaves: list = []
    struct = _flatten(sources, leaves)
    was = self._tape.persistent
    self._tape.persistent = True
    self._dense_gradients = True
    rows = []
    try:
        for j in range(n):
            onehot = np.zeros(n, np.dtype(target._spec.dtype))
            onehot[j] = 1
            rows.append(self.gradient(target, list(leaves), output_gradients=onehot.reshape(shape),
                                      unconnected_gradients=unconnected_gradients))
    finally:
        self._tape.persistent = was
        self._dense_gradients = False
    self._used = True
    if not was:
        self.reset()
    out = []
    for i, src in enumerate(leaves):
        s = src._variable_value() if hasattr(src, "_variable_value") else convert_to_tensor(src)
        sshape = list(s._spec.shape)
        col = [r[i] for r in rows]
        if all(c is None for c in col):
            out.append(None)
            continue
        col = [zeros(sshape, s.dtype) if c is None else c for c in col]
        out.append(reshape(stack(col), shape + sshape) if n else zeros(shape + sshape, s.dtype))
    return _rebuild(struct, out)


GradientTape.jacobian = jacobian
