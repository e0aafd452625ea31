"""P1 control-flow APIs: `tf.no_op`, `tf.group`, `tf.control_dependencies`, `tf.switch_case`, `tf.case`,
`tf.map_fn`, `tf.scan` and `tf.Module` (`tf.TensorArray`: frontend/api_tensor_array.py).

* `no_op`/`group`/`control_dependencies`: our traced graphs run in program order (every node, stateful or
  not, keeps its place), so control dependencies need no edges: eagerly they are `None` / a null context
  (calling callables, as TF does), inside `tf.function` a `NoOp` handle.
* `switch_case`: eagerly the chosen branch runs; traced, one `tf.Case` node (`hlo.case`, with its own VJP),
  out-of-range indices taking the default (the last branch without one). `case`: a chain of `tf.cond`s
  (`hlo.if`s), as TF builds it.
* `map_fn`/`scan`: eagerly a Python loop; traced one `tf.while_loop` over the leading dimension reading
  element i with `XlaDynamicSlice` and writing result i into a preallocated stacked buffer with
  `XlaDynamicUpdateSlice` (frontend/ops/p1_control_ops.py); the result specs come from a probe trace of fn
  (or `fn_output_signature`).
* `TensorArray`: a Python list eagerly and for static indices; a fixed-size buffer otherwise.
"""

from __future__ import annotations

import contextlib

import numpy as np

from minixla.frontend import control_flow as _cf
from minixla.frontend.dtypes import as_dtype
from minixla.frontend.execute import execute
from minixla.frontend.graph import current_graph
from minixla.frontend.errors import InvalidArgumentError, OpError, OutOfRangeError  # noqa: F401  (OutOfRangeError: re-exported)
from minixla.frontend.tensor import Tensor



# -- no_op / group / control_dependencies ------------------------------------------------------------

class Operation:
    """A graph operation handle (`tf.no_op()`/`tf.group()` inside `tf.function`)."""

    def __init__(self, name: str, control_inputs=()):
        self.name = name
        self.type = "NoOp"
        self.control_inputs = list(control_inputs)

    def __repr__(self) -> str:
        return f"<tf.Operation '{self.name}' type=NoOp>"


def no_op(name=None):
    """`tf.no_op`: None eagerly, a NoOp handle inside `tf.function`."""
    if current_graph() is None:
        return None
    return Operation(name or "NoOp")


def _check_control_input(c):
    from minixla.frontend.variables import Variable

    if c is None or isinstance(c, (Tensor, Operation, Variable)) or hasattr(c, "_variable_value"):
        return
    raise TypeError(f"Can not convert a {type(c).__name__} into a Tensor or Operation.")


def group(*inputs, **kwargs):
    """`tf.group`: None eagerly; inside `tf.function` a NoOp depending on `inputs` (nested lists allowed)."""
    name = kwargs.pop("name", None)
    if kwargs:
        raise TypeError("Unknown keyword arguments: " + ", ".join(kwargs.keys()))
    if current_graph() is None:
        return None
    leaves: list = []
    _cf._flatten(list(inputs), leaves)
    for c in leaves:
        _check_control_input(c)
    return Operation(name or "group_deps", [c for c in leaves if c is not None])


@contextlib.contextmanager
def _null():
    yield None


def control_dependencies(control_inputs):
    """`tf.control_dependencies`: eagerly calls callables and is a null context (as TF); inside
    `tf.function` checks the inputs (program order already orders the graph)."""
    if current_graph() is None:
        for c in control_inputs or ():
            if callable(c):
                c()
        return _null()
    from minixla.frontend.api.core import convert_to_tensor

    for c in control_inputs or ():
        if callable(c) and not isinstance(c, (Tensor, Operation)) and not hasattr(c, "_variable_value"):
            c = c()
        try:
            _check_control_input(c)
        except TypeError:
            try:  # TF converts anything tensor-like (a Python number becomes a constant)
                if not isinstance(c, (bool, int, float, complex, np.ndarray, np.generic, list, tuple)):
                    raise TypeError
                convert_to_tensor(c)
            except Exception:
                raise TypeError(f"Can not convert a {type(c).__name__} into a Tensor or Operation.") from None
    return _null()


# -- switch_case / case ---------------------------------------------------------------------------------

def _canonical_branches(branch_fns, default, branch_index):
    if not isinstance(branch_index, Tensor):
        raise TypeError(f"'branch_index' must be a Tensor, got {type(branch_index)}")
    if not np.issubdtype(np.dtype(branch_index._spec.dtype), np.integer):
        raise TypeError(f"'branch_index' must be an integer Tensor, got {as_dtype(branch_index._spec.dtype).name}")
    if not branch_fns:
        raise ValueError("Must provide at least one item in 'branch_fns'")
    if not isinstance(branch_fns, (list, tuple, dict)):
        raise TypeError("'branch_fns' must be a list, tuple, or dict")
    if isinstance(branch_fns, dict):
        branch_fns = list(branch_fns.items())
    if all(callable(fn) for fn in branch_fns):
        branch_fns = list(enumerate(branch_fns))
    for pair in branch_fns:
        if not isinstance(pair, tuple) or len(pair) != 2:
            raise TypeError(f"Each entry in 'branch_fns' must be a 2-tuple. Received {pair}.")
        key, fn = pair
        if not isinstance(key, int):
            raise TypeError(f"key must be a Python `int`, got {type(key)}")
        if not callable(fn):
            raise TypeError(f"fn for key {key} must be callable.")
    keys = [p[0] for p in branch_fns]
    if min(keys) < 0 or max(keys) >= len(keys) or len(set(keys)) != len(keys):
        raise ValueError("branch indices (keys) must form contiguous range of [0 to {}) but found {{{}}}".format(
            len(keys), ",".join(map(str, sorted(keys)))))
    actions = [p[1] for p in sorted(branch_fns, key=lambda p: p[0])]
    if default is not None:
        actions.append(default)
    return actions


def switch_case(branch_index, branch_fns, default=None, name="switch_case"):
    """`tf.switch_case`: runs `branch_fns[branch_index]`, or `default` (the last branch if None) out of range."""
    if hasattr(branch_index, "_variable_value"):
        branch_index = branch_index._variable_value()
    actions = _canonical_branches(branch_fns, default, branch_index)
    graph = current_graph()
    if graph is None:
        i = int(np.asarray(branch_index.numpy()).reshape(()))
        return actions[i if 0 <= i < len(actions) else len(actions) - 1]()
    return _traced_case(graph, branch_index, actions)


def _traced_case(graph, branch_index, actions):
    """Each branch traced into a child graph (captures shared, in one order), then one `tf.Case` node
    (`hlo.case`)."""
    idx = _cf._as_graph_tensor(graph, branch_index)
    if idx._spec.shape != ():
        raise ValueError(f"Shape must be rank 0 but is rank {len(idx._spec.shape)} for 'switch_case' "
                         "(branch_index)")
    traced, caps = [], []
    for fn in actions:
        g, outs, struct = _cf._trace(graph, fn, [], seed=caps)
        caps = [outer for outer, _ in g.captured.values()]
        traced.append((g, outs, struct))
    g0, outs0, struct0 = traced[0]
    for k, (g, outs, struct) in enumerate(traced):
        _cf._add_captures(g, caps)
        if _cf._norm(struct) != _cf._norm(struct0) or len(outs) != len(outs0) or any(
                a._spec.dtype != b._spec.dtype for a, b in zip(outs, outs0)):
            raise TypeError(f"branches[0] and branches[{k}] arguments to tf.switch_case must have the same "
                            f"number, type, and overall structure of return values.\n\nbranches[0] output: "
                            f"{_cf._structure_text(struct0)} {[_cf._spec_text(t) for t in outs0]}\n"
                            f"branches[{k}] output: {_cf._structure_text(struct)} "
                            f"{[_cf._spec_text(t) for t in outs]}")
        for a, b in zip(outs0, outs):
            if a._spec.shape != b._spec.shape:
                raise ValueError(f"tf.switch_case branches return different shapes ({_cf._spec_text(a)} vs "
                                 f"{_cf._spec_text(b)}); minixla needs static shapes")
    refs = [_cf._finish(g, outs, f"switch_case_branch{k}") for k, (g, outs, _) in enumerate(traced)]
    outs = execute("Case", [idx, caps], {"branches": refs})
    outs = [] if outs is None else [outs] if isinstance(outs, Tensor) else list(outs)
    return _cf._rebuild(struct0, outs)


def case(pred_fn_pairs, default=None, exclusive=False, strict=False, name="case"):
    """`tf.case`: the first pair whose predicate is true runs, else `default` (without one: the last pair)."""
    if not isinstance(pred_fn_pairs, (list, tuple, dict)):
        raise TypeError(f"'pred_fn_pairs' must be a list, tuple, or dict. Received: {type(pred_fn_pairs)}")
    graph = current_graph()
    if isinstance(pred_fn_pairs, dict):
        if graph is None and not exclusive:
            raise ValueError("Unordered dictionaries are not supported for the 'pred_fn_pairs' argument when "
                             "`exclusive=False` and eager mode is enabled.")
        pred_fn_pairs = list(pred_fn_pairs.items())
    for pair in pred_fn_pairs:
        if not isinstance(pair, tuple) or len(pair) != 2:
            raise TypeError(f"Each entry in 'pred_fn_pairs' must be a 2-tuple. Received {pair}.")
        pred, fn = pair
        if isinstance(pred, Tensor):
            if np.dtype(pred._spec.dtype) != np.bool_:
                raise TypeError("pred must be Tensor of type bool: %s" % (pred.name or "Tensor"))
        else:
            raise TypeError("pred must be a Tensor, got: %s" % (pred,))
        if not callable(fn):
            raise TypeError("fn for pred %s must be callable." % (pred.name or "Tensor"))
    preds = [p for p, _ in pred_fn_pairs]
    actions = [f for _, f in pred_fn_pairs]
    if graph is None:
        values = [bool(np.asarray(p.numpy()).reshape(())) for p in preds]
        if exclusive and sum(values) > 1:
            raise InvalidArgumentError("Input error: exclusive=True: more than 1 conditions evaluated as True")
        for v, fn in zip(values, actions):
            if v:
                return fn()
        if default is None:
            raise InvalidArgumentError("Input error: None of conditions evaluated as True")
        return default()
    if default is None:
        default, preds, actions = actions[-1], preds[:-1], actions[:-1]
    fn = default
    for p, act in reversed(list(zip(preds, actions))):
        fn = (lambda p, act, rest: lambda: _cf.cond(p, act, rest))(p, act, fn)
    return fn()


# -- map_fn / scan ----------------------------------------------------------------------------------------

def _leading(flat):
    ns = []
    for t in flat:
        if t._spec.shape is None or len(t._spec.shape) == 0:
            raise ValueError("Elements in elems must be 1+ dimensional Tensors, not scalars")
        ns.append(t._spec.shape[0])
    for m in ns[1:]:
        if m != ns[0]:
            raise ValueError(f"Dimensions {ns[0]} and {m} are not compatible")
    return ns[0]


def _index_vec(i, rank):
    from minixla.frontend.api.core import stack, zeros

    if rank == 1:
        return stack([i])
    return stack([i] + [zeros([], "int32")] * (rank - 1))


def _read(x, i):
    """x[i] with a run-time index i (int32 scalar tensor)."""
    from minixla.frontend.api.core import reshape

    shape = list(x._spec.shape)
    piece = execute("XlaDynamicSlice", [x, _index_vec(i, len(shape)), np.array([1] + shape[1:], np.int32)])
    return reshape(piece, shape[1:])


def _write(buf, i, value):
    from minixla.frontend.api.core import cast, expand_dims

    if value.dtype != buf.dtype:
        value = cast(value, buf.dtype)
    return execute("XlaDynamicUpdateSlice", [buf, expand_dims(value, 0), _index_vec(i, len(buf._spec.shape))])


def _to_tensors(value):
    from minixla.frontend.api.core import convert_to_tensor

    leaves: list = []
    struct = _cf._flatten(value, leaves)
    return struct, [convert_to_tensor(v._variable_value() if hasattr(v, "_variable_value") else v)
                    for v in leaves]


def _run_loop(n, step, elems, carry, reverse, out_sig=None):
    """for i in range(n) (reversed if `reverse`): carry, outs = step(carry, [e[i] for e in elems]);
    returns (carry, out structure, stacked outs). `step` works on flat lists (out structure from step)."""
    from minixla.frontend.api.core import stack, zeros

    graph = current_graph()
    order = range(n - 1, -1, -1) if reverse else range(n)
    if graph is None:
        results, struct = [], None
        for i in order:
            carry, struct, outs = step(carry, [e[i] for e in elems])
            results.append(outs)
        if reverse:
            results.reverse()
        if not results:
            raise ValueError("map_fn/scan over a leading dimension of 0 needs fn_output_signature")
        return carry, struct, [stack([r[k] for r in results]) for k in range(len(results[0]))]
    from minixla.frontend.api.core import constant

    # probe fn once for the output specs (the loop body traces it again)
    if out_sig is None:
        probe_specs = [t._spec for t in carry] + [_cf.Spec(tuple(e._spec.shape[1:]), e._spec.dtype) for e in elems]
        k = len(carry)
        _, probe_outs, _ = _cf._trace(graph, lambda *a: list(step(list(a[:k]), list(a[k:]))[2]), probe_specs)
        out_sig = [(tuple(t._spec.shape), t._spec.dtype) for t in probe_outs]
    bufs = [zeros([n] + list(s), as_dtype(d)) for s, d in out_sig]
    holder = {}
    nc = len(carry)

    def cond(i, *vals):
        from minixla.frontend.api.core import greater_equal, less

        return greater_equal(i, 0) if reverse else less(i, n)

    def body(i, *vals):
        c, bs = list(vals[:nc]), list(vals[nc:])
        c2, struct, outs = step(c, [_read(e, i) for e in elems])
        holder["struct"] = struct
        bs = [_write(b, i, o) for b, o in zip(bs, outs)]
        return [i - 1 if reverse else i + 1] + list(c2) + bs

    start = constant(n - 1 if reverse else 0, "int32")
    vals = _cf.while_loop(cond, body, [start] + list(carry) + bufs)
    return list(vals[1:1 + nc]), holder.get("struct"), list(vals[1 + nc:])


def _sig_list(fn_output_signature):
    leaves: list = []
    struct = _cf._flatten(fn_output_signature, leaves)
    out = []
    for s in leaves:
        if hasattr(s, "shape") and hasattr(s, "dtype") and not isinstance(s, Tensor):  # TensorSpec-like
            out.append((None if s.shape is None else tuple(s.shape), as_dtype(s.dtype)))
        else:
            out.append((None, as_dtype(s)))
    return struct, out


def map_fn(fn, elems, dtype=None, parallel_iterations=None, back_prop=True, swap_memory=False, infer_shape=True,
           name=None, fn_output_signature=None):
    """`tf.map_fn`: fn on each element of the leading dimension of (nested) `elems`, results stacked."""
    if not callable(fn):
        raise TypeError(f"The provided function {type(fn).__name__} is not callable.fn must be callable.")
    if fn_output_signature is None:
        fn_output_signature = dtype
    in_struct, flat = _to_tensors(elems)
    if not flat:
        raise ValueError(f"elems must be a Tensor or (possibly nested) sequence of Tensors. Got {elems}, which does "
                         "not contain any Tensors.")
    n = _leading(flat)

    in_dtypes = [t.dtype for t in flat]

    def step(carry, xs):
        out = fn(_cf._rebuild(in_struct, xs))
        struct, outs = _to_tensors(out)
        if fn_output_signature is None:  # the output must look like elems (TF checks with nest)
            if _cf._norm(struct) != _cf._norm(in_struct):
                raise ValueError("The two structures don't have the same nested structure.\n\nFirst structure: "
                                 f"{_cf._structure_text(in_struct)}\n\nSecond structure: "
                                 f"{_cf._structure_text(struct)}")
            for t, d in zip(outs, in_dtypes):
                if t.dtype != d:
                    raise InvalidArgumentError(f"TensorArray dtype is {d.name} but Op is trying to write dtype "
                                               f"{t.dtype.name} ")
        return carry, struct, outs

    if n == 0 and fn_output_signature is None:  # TF: a [0] tensor per elems leaf
        from minixla.frontend.api.core import zeros

        return _cf._rebuild(in_struct, [zeros([0], t.dtype) for t in flat])
    sig = None
    if fn_output_signature is not None and current_graph() is not None:
        sig_struct, sig = _sig_list(fn_output_signature)
        if any(s is None for s, _ in sig):
            sig = None  # shapes unknown: probe
    _, struct, stacked = _run_loop(n, step, flat, [], False, sig)
    if fn_output_signature is not None:
        sig_struct, sig_l = _sig_list(fn_output_signature)
        from minixla.frontend.api.core import cast

        stacked = [t if t.dtype == d else cast(t, d) for t, (_, d) in zip(stacked, sig_l)]
        if struct is None or len(stacked) != len(sig_l):
            struct = sig_struct
    return _cf._rebuild(struct, stacked) if struct is not None else stacked[0]


def scan(fn, elems, initializer=None, parallel_iterations=10, back_prop=True, swap_memory=False, infer_shape=True,
         reverse=False, name=None):
    """`tf.scan`: acc = fn(acc, x) over the leading dimension of (nested) `elems`; the accs stacked."""
    from minixla.frontend.api.core import stack

    if not callable(fn):
        raise TypeError(f"The provided function {type(fn).__name__} is not callable.fn must be callable.")
    in_struct, flat = _to_tensors(elems)
    n = _leading(flat)
    if initializer is None:
        first = n - 1 if reverse else 0
        a_struct = in_struct
        init = [t[first] for t in flat]
        rest = [t[:n - 1] if reverse else t[1:] for t in flat]
        m = n - 1
    else:
        a_struct, init = _to_tensors(initializer)
        rest, m = flat, n

    def step(carry, xs):
        out = fn(_cf._rebuild(a_struct, carry), _cf._rebuild(in_struct, xs))
        struct, outs = _to_tensors(out)
        if _cf._norm(struct) != _cf._norm(a_struct):
            raise ValueError("The two structures don't have the same nested structure.\n\nFirst structure: "
                             f"{_cf._structure_text(a_struct)}\n\nSecond structure: {_cf._structure_text(struct)}")
        return outs, a_struct, outs

    if m == 0:
        stacked = [stack([t]) for t in init]
    else:
        _, _, stacked = _run_loop(m, step, rest, init, reverse)
        if initializer is None:
            from minixla.frontend.api.core import concat, expand_dims

            stacked = [concat([s, expand_dims(t, 0)] if reverse else [expand_dims(t, 0), s], 0)
                       for s, t in zip(stacked, init)]
    return _cf._rebuild(a_struct, stacked)


# -- tf.Module --------------------------------------------------------------------------------------------

class Module:
    """`tf.Module`: name scoping and variable / submodule tracking through attributes."""

    def __init__(self, name=None):
        import re

        if name is None:
            name = _camel_to_snake(type(self).__name__)
        elif not re.match(r"^[A-Za-z_][A-Za-z0-9_.\-]*$", name):
            raise ValueError("'%s' is not a valid module name. Module names must be valid Python identifiers "
                             "(e.g. a valid class name)." % name)
        self._name = name
        self._scope_name = name + "/"

    @property
    def name(self):
        return self._name

    @property
    def name_scope(self):
        return _NameScope(self._scope_name)

    @property
    def variables(self):
        return tuple(self._flatten(lambda v: _is_var(v)))

    @property
    def trainable_variables(self):
        return tuple(self._flatten(lambda v: _is_var(v) and getattr(v, "trainable", False)))

    @property
    def non_trainable_variables(self):
        return tuple(self._flatten(lambda v: _is_var(v) and not getattr(v, "trainable", False)))

    @property
    def submodules(self):
        return tuple(self._flatten(lambda v: isinstance(v, Module)))

    def _flatten(self, predicate, recursive=True):
        """As TF's `_flatten_module`: this module's matching attributes (sorted by name, nested lists / tuples
        / dicts walked), then each submodule's, recursively, in the order they were found."""
        seen, out = {id(self)}, []

        def leaves(v):
            if isinstance(v, (list, tuple)):
                for x in v:
                    yield from leaves(x)
            elif isinstance(v, dict):
                for k in sorted(v, key=str):
                    yield from leaves(v[k])
            else:
                yield v

        def walk(module):
            subs = []
            for key in sorted(vars(module)):
                if key in ("_name", "_scope_name"):
                    continue
                for leaf in leaves(vars(module)[key]):
                    if id(leaf) in seen:
                        continue
                    if predicate(leaf):
                        seen.add(id(leaf))
                        out.append(leaf)
                    if recursive and isinstance(leaf, Module):
                        seen.add(id(leaf))
                        subs.append(leaf)
            for sub in subs:
                walk(sub)

        walk(self)
        return out

    @classmethod
    def with_name_scope(cls, method):
        return method

    def __repr__(self):
        return f"<{type(self).__module__}.{type(self).__name__} object at {hex(id(self))}>"


class _NameScope:
    """`Module.name_scope`: `.name` is "module_name/"; entering it changes nothing here."""

    def __init__(self, name):
        self.name = name

    def __enter__(self):
        return self.name

    def __exit__(self, *exc):
        return False


def _is_var(v) -> bool:
    from minixla.frontend.variables import Variable

    return isinstance(v, Variable)


def _camel_to_snake(value):
    import re

    return re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", re.sub(r"(.)([A-Z][a-z]+)", r"\1_\2", value)).lower()

