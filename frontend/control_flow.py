"""`tf.cond` and `tf.while_loop`.

Eagerly they are plain Python control flow, as in TF 2 (the predicate is read at once).
Inside a `tf.function` each branch / the loop's cond and body is traced into a child
`Graph` (frontend/graph.py) whose outer values become extra inputs (captures); the
child becomes a private `func.func` of `tf` ops, and the parent gets one
`"tf.If"`/`"tf.While"` node naming it (frontend/ops/control_flow_ops.py), lowered by
`tf-legalize-to-hlo` to `hlo.if`/`hlo.while` with the functions inlined as regions.
"""

from __future__ import annotations

import itertools

import numpy as np
from xdsl.dialects.builtin import StringAttr, SymbolRefAttr

from minixla.frontend.builder import Spec
from minixla.frontend.execute import execute
from minixla.frontend.graph import Graph, current_graph, tracing
from minixla.frontend.ops.control_flow_ops import FUNCTIONS
from minixla.frontend.tensor import Tensor

_counter = itertools.count(1)


# -- nested structures (lists, tuples, dicts of tensors) --------------------------------

def _flatten(value, leaves: list):
    if hasattr(value, "_as_loop_leaf"):  # a tf.TensorArray (frontend/api_p1_control.py): its buffer
        leaves.append(value._as_loop_leaf())
        return ("ta", value)
    if isinstance(value, (list, tuple)):
        return (type(value), [_flatten(v, leaves) for v in value])
    if isinstance(value, dict):
        return (dict, [(k, _flatten(value[k], leaves)) for k in sorted(value)])
    leaves.append(value)
    return None

#: infers the element shapes of TensorArray loop variables before a while loop is traced;
#: installed by frontend/api/tensor_array.py, which builds on this module
LOOP_SHAPE_INFERENCE: list = [None]


def _rebuild(struct, leaves):
    it = iter(leaves)

    def go(s):
        if s is None:
            return next(it)
        kind, items = s
        if kind == "ta":
            return items._from_loop_leaf(next(it))
        if kind is dict:
            return {k: go(v) for k, v in items}
        built = [go(v) for v in items]
        return built if kind is list else (kind(*built) if hasattr(kind, "_fields") else kind(built))

    return go(struct)


def _norm(struct):
    """The structure with tuples and lists alike (TF compares them with check_types=False)."""
    if struct is None:
        return None
    kind, items = struct
    if kind == "ta":
        return ("ta",)
    if kind is dict:
        return (dict, [(k, _norm(v)) for k, v in items])
    return (list, [_norm(v) for v in items])


def _structure_text(struct) -> str:
    if struct is None:
        return "Tensor"
    kind, items = struct
    if kind == "ta":
        return "TensorArray"
    if kind is dict:
        return "{" + ", ".join(f"{k!r}: {_structure_text(v)}" for k, v in items) + "}"
    inner = ", ".join(_structure_text(v) for v in items)
    return f"[{inner}]" if kind is list else f"({inner})"


# -- tracing a child graph -----------------------------------------------------------------

def _as_graph_tensor(graph: Graph, value) -> Tensor:
    from minixla.frontend.api.core import convert_to_tensor

    if hasattr(value, "_variable_value"):
        value = value._variable_value()
    with tracing(graph):
        t = convert_to_tensor(value)
    return graph.capture(t) if t._graph is not graph else t


def _trace(parent: Graph, fn, arg_specs: list[Spec], structure=None, seed: list | None = None):
    """Trace `fn` into a child graph; returns (graph, flat outputs, output structure)."""
    g = Graph(fn.__name__ if hasattr(fn, "__name__") else "fn", parent=parent)
    args = [g.placeholder(s, f"arg{i}") for i, s in enumerate(arg_specs)]
    for outer in seed or []:
        g.capture(outer)
    with tracing(g):
        result = fn(*(_rebuild(structure, args) if structure is not None else args))
    leaves: list = []
    out_struct = _flatten(result, leaves)
    outs = [_as_graph_tensor(g, v) for v in leaves]
    return g, outs, out_struct


def _finish(g: Graph, outputs: list[Tensor], base: str) -> SymbolRefAttr:
    """Make child graph `g` a private `func.func` registered under a unique name."""
    name = f"{base}_{next(_counter)}"
    f = g.build(outputs, name)
    f.sym_visibility = StringAttr("private")
    FUNCTIONS[name] = f
    g.root().subfunctions.append(f)
    return SymbolRefAttr(name)


def _add_captures(g: Graph, outers: list[Tensor]) -> None:
    for t in outers:
        g.capture(t)


def _spec_text(t: Tensor) -> str:
    return f"{t.dtype.name}{list(t._spec.shape)}"


# -- tf.cond ----------------------------------------------------------------------------

def cond(pred, true_fn=None, false_fn=None, name=None):
    """`tf.cond`: eagerly calls the chosen branch; traced, both branches become a `tf.If`."""
    if not callable(true_fn):
        raise TypeError("true_fn must be callable.")
    if not callable(false_fn):
        raise TypeError("false_fn must be callable.")
    graph = current_graph()
    if graph is None:
        if hasattr(pred, "_variable_value"):
            pred = pred._variable_value()
        value = pred if isinstance(pred, (bool, np.bool_)) else np.asarray(
            pred.numpy() if isinstance(pred, Tensor) else pred)
        if not isinstance(value, (bool, np.bool_)) and value.size != 1:
            raise ValueError(f"The truth value of a tensor of shape {list(value.shape)} is ambiguous")
        return true_fn() if bool(np.asarray(value).reshape(())) else false_fn()
    if isinstance(pred, (bool, np.bool_)):
        raise TypeError("pred must not be a Python bool")
    p = _as_graph_tensor(graph, pred)
    if p._spec.shape != ():
        raise ValueError(f"Shape must be rank 0 but is rank {len(p._spec.shape)} for 'cond' (pred)")
    tg, touts, tstruct = _trace(graph, true_fn, [])
    t_caps = [outer for outer, _ in tg.captured.values()]
    fg, fouts, fstruct = _trace(graph, false_fn, [], seed=t_caps)
    _add_captures(tg, [outer for outer, _ in fg.captured.values()])
    if _norm(tstruct) != _norm(fstruct) or len(touts) != len(fouts) or any(
            a._spec.dtype != b._spec.dtype for a, b in zip(touts, fouts)):
        raise TypeError("true_fn and false_fn arguments to tf.cond must have the same number, type, and overall "
                        "structure of return values.\n\ntrue_fn output: "
                        f"{_structure_text(tstruct)} {[_spec_text(t) for t in touts]}\nfalse_fn output: "
                        f"{_structure_text(fstruct)} {[_spec_text(t) for t in fouts]}")
    for a, b in zip(touts, fouts):
        if a._spec.shape != b._spec.shape:
            raise ValueError(f"tf.cond branches return different shapes ({_spec_text(a)} vs {_spec_text(b)}); "
                             "minixla needs static shapes (XLA cannot compile a dynamic-shape If)")
    then_ref = _finish(tg, touts, "cond_true")
    else_ref = _finish(fg, fouts, "cond_false")
    inputs = [outer for outer, _ in fg.captured.values()]
    outs = execute("If", [p, inputs], {"then_branch": then_ref, "else_branch": else_ref}) or ()
    return _rebuild(tstruct, list(outs))


# -- tf.while_loop -----------------------------------------------------------------------

def while_loop(cond, body, loop_vars, shape_invariants=None, parallel_iterations=10, back_prop=True,
               swap_memory=False, maximum_iterations=None, name=None):
    """`tf.while_loop` (TF 2 semantics: the result has `loop_vars`' structure)."""
    if not callable(cond):
        raise TypeError("'cond' must be callable.")
    if not callable(body):
        raise TypeError("'body' must be callable.")
    packed = not isinstance(loop_vars, (list, tuple))
    user_vars = [loop_vars] if packed else loop_vars
    if maximum_iterations is not None:
        c0, b0 = cond, body

        def cond(i, lv):  # noqa: F811
            from minixla.frontend.api.core import less, logical_and

            return logical_and(less(i, maximum_iterations), c0(*lv))

        def body(i, lv):  # noqa: F811
            out = b0(*lv)
            return (i + 1, [out] if len(lv) == 1 and not isinstance(out, (list, tuple)) else out)

        user_vars = [0, list(user_vars)]
    graph = current_graph()
    if graph is None:
        values = list(user_vars)
        while cond(*values):
            out = body(*values)
            values = [out] if len(values) == 1 and not isinstance(out, (list, tuple)) else list(out)
    else:
        if LOOP_SHAPE_INFERENCE[0] is not None:  # TensorArray loop variables' shapes
            LOOP_SHAPE_INFERENCE[0](graph, body, user_vars)
        values = _traced_while(graph, cond, body, user_vars)
    if maximum_iterations is not None:
        values = values[1]
    return values[0] if packed else _same_kind(loop_vars, values)


def _same_kind(like, values):
    values = list(values)
    if isinstance(like, tuple):
        return type(like)(*values) if hasattr(like, "_fields") else tuple(values)
    return values


def _traced_while(graph: Graph, cond, body, loop_vars) -> list:
    leaves: list = []
    struct = _flatten(list(loop_vars), leaves)
    inits = [_as_graph_tensor(graph, v) for v in leaves]
    specs = [t._spec for t in inits]
    n = len(inits)

    def unpack(fn):
        def call(*flat):
            return fn(*_rebuild(struct, list(flat)))

        call.__name__ = getattr(fn, "__name__", "fn")
        return call

    cg, couts, _ = _trace(graph, unpack(cond), specs)
    if len(couts) != 1 or couts[0]._spec.shape != () or np.dtype(couts[0]._spec.dtype) != np.bool_:
        got = ", ".join(_spec_text(t) for t in couts)
        raise TypeError(f"tf.while_loop's cond must return a scalar boolean tensor, got {got}")
    c_caps = [outer for outer, _ in cg.captured.values()]
    bg, bouts, bstruct = _trace(graph, unpack(body), specs, seed=c_caps)
    flat_struct = _flatten(list(loop_vars), [])
    if len(bouts) != n or (_norm(bstruct) != _norm(flat_struct) and not (n == 1 and bstruct is None)):
        raise ValueError(f"The two structures don't have the same nested structure.\n\nFirst structure: "
                         f"{_structure_text(flat_struct)}\n\nSecond structure: {_structure_text(bstruct)}")
    for i, (a, b) in enumerate(zip(inits, bouts)):
        if a._spec != b._spec:
            what = "shape" if a._spec.shape != b._spec.shape else "dtype"
            raise ValueError(f"Input tensor '{a.name or f'loop_var_{i}'}' enters the loop with {what} "
                             f"{_spec_text(a)}, but has {what} {_spec_text(b)} after one iteration. To allow "
                             "the shape to vary across iterations, use the `shape_invariants` argument of "
                             "tf.while_loop to specify a less-specific shape (not supported under XLA).")
    _add_captures(cg, [outer for outer, _ in bg.captured.values()])
    caps = [outer for outer, _ in bg.captured.values()]
    cond_ref = _finish(cg, couts, "while_cond")
    body_ref = _finish(bg, bouts + [p for _, p in bg.captured.values()], "while_body")
    outs = execute("While", [inits + caps], {"cond": cond_ref, "body": body_ref})
    return _rebuild(struct, list(outs)[:n])
