"""`tf.raw_ops` entry points whose TF arguments do not map one to one onto a registry op
(frontend/raw_ops.py STATE_CALLS), each ending in the registered op of the same name:

* function-valued attributes (StatelessIf, StatelessWhile, StatelessCase, XlaIf, XlaWhile,
  PartitionedCall, StatefulPartitionedCall, XlaReduce, XlaVariadicReduce(V2), XlaVariadicSort): a
  ConcreteFunction (what TF takes), a tf.function or a plain callable is traced into a `func.func`
  with the op's operand types, as tf.cond traces its branches; eagerly the function is called;
* the stateful random kernels (RandomUniform, RandomStandardNormal, TruncatedNormal,
  RandomUniformInt, Multinomial, RandomShuffle): TF's per-kernel Philox counter, kept as
  tf.random keeps it (frontend/api/random_stateful.py), passed as the op's `offset` input;
* DynamicStitch/ParallelDynamicStitch: the indices become compile-time constants.
"""

from __future__ import annotations

import numpy as np

from minixla.frontend import control_flow as cf
from minixla.frontend import dtypes
from minixla.frontend.api import core as api
from minixla.frontend.api import random_stateful as rs
from minixla.frontend.execute import execute
from minixla.frontend.graph import current_graph, init_scope
from minixla.frontend.tensor import Tensor

# -- functions as attributes ---------------------------------------------------------------------


def _replay_concrete(concrete, args) -> list:
    """Run a ConcreteFunction's recorded ops on `args` (eagerly, or into the graph being traced)."""
    g = concrete.graph
    env = {id(p): a for p, a in zip(g.inputs[:concrete.n_args], args)}
    for var, placeholder in g.captures.items():
        env[id(placeholder)] = var.read_value() if hasattr(var, "read_value") else var
    for node in g.nodes:
        if node.opdef.name == "Const":
            outs = [api.constant(np.asarray(node.attrs["value"]))]
        else:
            ins = [[env[id(t)] for t in x] if isinstance(x, list) else env[id(x)] for x in node.inputs]
            res = execute(node.opdef.name, ins, node.attrs)
            outs = [] if res is None else [res] if isinstance(res, Tensor) else list(res)
        env.update({id(t): o for t, o in zip(node.outputs, outs)})
    return [env[id(t)] for t in concrete.outputs]


def as_callable(fn, what: str):
    """A Python callable for a function-valued attribute: ConcreteFunction, tf.function or callable."""
    from minixla.frontend.function import ConcreteFunction, Function

    if isinstance(fn, ConcreteFunction):
        return lambda *args: _replay_concrete(fn, args)
    if isinstance(fn, Function):
        return fn.python_function
    if callable(fn):
        return fn
    raise TypeError(f"{what} must be a function (a ConcreteFunction, tf.function or callable), got {type(fn).__name__}")


def _flat(result) -> list:
    if result is None:
        return []
    return list(result) if isinstance(result, (list, tuple)) else [result]


def _tensors(values) -> list:
    return [api.convert_to_tensor(v) for v in _flat(values)]


def _trace_all(graph, fns, inputs: list, names: list[str], what: str):
    """Trace each of `fns` on `inputs`' types into a private func.func; captures are shared, appended
    after the inputs. Returns (symbol refs, captured outer tensors, outputs of the first)."""
    specs = [cf._as_graph_tensor(graph, t)._spec for t in inputs]
    traced, caps = [], []
    for fn, name in zip(fns, names):
        call = as_callable(fn, what)
        g, outs, _ = cf._trace(graph, lambda *a, call=call: _flat(call(*a)), specs, seed=caps)
        caps = [outer for outer, _ in g.captured.values()]
        traced.append((g, outs, name))
    for g, _, _ in traced:
        cf._add_captures(g, caps)
    first = traced[0][1]
    for _g, outs, _name in traced[1:]:
        if [(o._spec.shape, o._spec.dtype) for o in outs] != [(o._spec.shape, o._spec.dtype) for o in first]:
            raise TypeError(f"{what}: the functions return different types: {[cf._spec_text(o) for o in first]} vs "
                            f"{[cf._spec_text(o) for o in outs]}")
    refs = [cf._finish(g, outs, name) for g, outs, name in traced]
    return refs, caps, first


def _graph_inputs(graph, values) -> list:
    return [cf._as_graph_tensor(graph, t) for t in _tensors(values)]


def _if(op: str, cond, inputs, then_branch, else_branch):
    graph = current_graph()
    if graph is None:
        pred = np.asarray(api.convert_to_tensor(cond).numpy())
        return _tensors(as_callable(then_branch if bool(pred.reshape(())) else else_branch, op)(*_tensors(inputs)))
    ins = _graph_inputs(graph, inputs)
    (t, e), caps, _ = _trace_all(graph, [then_branch, else_branch], ins, [f"{op}_then", f"{op}_else"], op)
    return _flat(execute(op, [cf._as_graph_tensor(graph, api.convert_to_tensor(cond)), ins + caps],
                         {"then_branch": t, "else_branch": e}))


def stateless_if(cond, input, Tout=None, then_branch=None, else_branch=None, output_shapes=(), **_):
    return _if("StatelessIf", cond, input, then_branch, else_branch)


def xla_if(cond, inputs, then_branch=None, else_branch=None, Tout=None, **_):
    return _if("XlaIf", cond, inputs, then_branch, else_branch)


def _while(op: str, input, cond, body):
    values = _tensors(input)
    graph = current_graph()
    c, b = as_callable(cond, op), as_callable(body, op)
    if graph is None:
        while bool(np.asarray(_flat(c(*values))[0].numpy()).reshape(())):
            values = _tensors(b(*values))
        return values
    ins = _graph_inputs(graph, values)
    specs = [t._spec for t in ins]
    cg, couts, _ = cf._trace(graph, lambda *a: _flat(c(*a)), specs)
    bg, bouts, _ = cf._trace(graph, lambda *a: _flat(b(*a)), specs, seed=[o for o, _ in cg.captured.values()])
    if [o._spec for o in bouts] != specs:
        raise ValueError(f"{op}: the body returns {[cf._spec_text(o) for o in bouts]}, the loop variables are "
                         f"{[cf._spec_text(t) for t in ins]}")
    cf._add_captures(cg, [o for o, _ in bg.captured.values()])
    caps = [o for o, _ in bg.captured.values()]
    cref = cf._finish(cg, couts, f"{op}_cond")
    bref = cf._finish(bg, bouts + [p for _, p in bg.captured.values()], f"{op}_body")
    return _flat(execute(op, [ins + caps], {"cond": cref, "body": bref}))[:len(ins)]


def stateless_while(input, cond=None, body=None, output_shapes=(), parallel_iterations=10, **_):
    return _while("StatelessWhile", input, cond, body)


def xla_while(input, cond=None, body=None, **_):
    return _while("XlaWhile", input, cond, body)


def stateless_case(branch_index, input, Tout=None, branches=(), output_shapes=(), **_):
    graph = current_graph()
    if graph is None:
        i = int(np.asarray(api.convert_to_tensor(branch_index).numpy()).reshape(()))
        fn = branches[i if 0 <= i < len(branches) else len(branches) - 1]
        return _tensors(as_callable(fn, "StatelessCase")(*_tensors(input)))
    ins = _graph_inputs(graph, input)
    refs, caps, _ = _trace_all(graph, list(branches), ins, [f"StatelessCase_{k}" for k in range(len(branches))],
                               "StatelessCase")
    return _flat(execute("StatelessCase", [cf._as_graph_tensor(graph, api.convert_to_tensor(branch_index)),
                                           ins + caps], {"branches": refs}))


def _call(op: str):
    def call(args, Tout=None, f=None, config="", config_proto="", executor_type="", **_):
        graph = current_graph()
        if graph is None:
            return _tensors(as_callable(f, op)(*_tensors(args)))
        ins = _graph_inputs(graph, args)
        (ref,), caps, _ = _trace_all(graph, [f], ins, [f"{op}_f"], op)
        return _flat(execute(op, [ins + caps], {"f": ref}))
    return call


def _computation(fn, specs: list, op: str):
    """`fn` traced on scalars of `specs`' dtypes into a func.func (eagerly too: the op's rule replays it)."""
    from minixla.frontend.builder import Spec

    call = as_callable(fn, op)
    graph = current_graph()
    g, outs, _ = cf._trace(graph, lambda *a: _flat(call(*a)), [Spec((), np.dtype(s)) for s in specs])
    if graph is not None:
        cf._add_captures(g, [])
    if g.captured:
        raise ValueError(f"{op}: the function may not capture outer tensors")
    return cf._finish(g, outs, f"{op}_computation")


def _variadic_reduce(op: str):
    def reduce(dimensions_to_reduce, reducer, **kw):
        names = ("input", "init_value") if op == "XlaVariadicReduce" else ("inputs", "init_values")
        xs, inits = _tensors(kw.pop(names[0])), _tensors(kw.pop(names[1]))
        ref = _computation(reducer, [t.dtype.np for t in inits] * 2, op)
        return _flat(execute(op, [xs + inits], {"dimensions_to_reduce": [int(d) for d in dimensions_to_reduce],
                                               "reducer": ref}))
    return reduce


def xla_reduce(input, init_value, dimensions_to_reduce, reducer, **_):
    x, init = api.convert_to_tensor(input), api.convert_to_tensor(init_value)
    ref = _computation(reducer, [init.dtype.np] * 2, "XlaReduce")
    return execute("XlaReduce", [x, init], {"dimensions_to_reduce": [int(d) for d in dimensions_to_reduce],
                                            "reducer": ref})


def xla_variadic_sort(inputs, dimension, comparator, is_stable=False, **_):
    xs = _tensors(inputs)
    ref = _computation(comparator, [t.dtype.np for t in xs for _ in (0, 1)], "XlaVariadicSort")
    return _flat(execute("XlaVariadicSort", [xs, dimension], {"comparator": ref, "is_stable": bool(is_stable)}))


# -- composite ops (tf.linalg / tf.image compositions as the op's body) ----------------------------

#: eager composites' traced bodies by (op, attributes, input types): a loop of eager calls traces once
_EAGER_BODIES: dict = {}


def _composite(op: str, fn, inputs: list, attrs: dict, cacheable: bool = True):
    """Trace `fn(*inputs)` into the op's `body` function and run the op (eagerly: its rule replays it).
    `attrs` must determine `fn` when `cacheable` (SymbolicGradient's function is not an attribute: it is not)."""
    from minixla.frontend.ops.registry import get

    xs = _tensors(inputs)
    graph = current_graph()
    specs = [cf._as_graph_tensor(graph, x)._spec if graph else x._spec for x in xs]
    key = (op, tuple(sorted(attrs.items())), tuple(specs)) if graph is None and cacheable else None
    ref = _EAGER_BODIES.get(key) if key is not None else None
    if ref is None:
        g, outs, _ = cf._trace(graph, lambda *a: _flat(fn(*a)), specs)
        if g.captured:
            raise ValueError(f"{op}: its decomposition captured outer tensors")
        ref = cf._finish(g, outs, f"{op}_body")
        if key is not None:
            _EAGER_BODIES[key] = ref
    ins = [cf._as_graph_tensor(graph, x) if graph else x for x in xs]
    return execute(op, [ins] if get(op).is_variadic(0) else ins, {**attrs, "body": ref})


def _linalg():
    from minixla.frontend.api import linalg_solvers as ls

    return ls


def _empty(dtype):
    return api.zeros([0], dtype)


def qr(input, full_matrices=False, **_):
    return _composite("Qr", lambda a: _linalg().qr(a, full_matrices=bool(full_matrices)), [input],
                      {"full_matrices": bool(full_matrices)})


def svd(input, compute_uv=True, full_matrices=False, **_):
    def fn(a):
        if compute_uv:
            return _linalg().svd(a, full_matrices=bool(full_matrices))
        return _linalg().svd(a, compute_uv=False), _empty(a.dtype), _empty(a.dtype)
    return _composite("Svd", fn, [input], {"compute_uv": bool(compute_uv), "full_matrices": bool(full_matrices)})


def self_adjoint_eig_v2(input, compute_v=True, **_):
    def fn(a):
        e, v = _linalg().eigh(a)
        return (e, v) if compute_v else (e, _empty(a.dtype))
    return _composite("SelfAdjointEigV2", fn, [input], {"compute_v": bool(compute_v)})


def xla_self_adjoint_eig(a, lower=True, max_iter=100, epsilon=1e-6, **_):
    """XLA's eigh reads the `lower` (or upper) triangle; eigenvalues ascending, as TF's XLA kernel."""
    def fn(m):
        return _linalg().eigh(m if lower else api.transpose(m, [*range(m.shape.rank - 2), m.shape.rank - 1,
                                                                   m.shape.rank - 2]))
    return _composite("XlaSelfAdjointEig", fn, [a], {"lower": bool(lower), "max_iter": int(max_iter),
                                                     "epsilon": float(epsilon)})


def xla_svd(a, max_iter=100, epsilon=1e-6, precision_config="", **_):
    """XLA's SVD (s descending, u, v with a = u diag(s) v^T) of square matrices: a non-square one needs the
    full v (XLA returns n x n), which tf.linalg.svd here does not compute."""
    from minixla.frontend.errors import UnimplementedError

    x = api.convert_to_tensor(a)
    if x.shape[-1] != x.shape[-2]:
        raise UnimplementedError(f"XlaSvd of a non-square matrix (shape {x.shape.as_list()}) is not implemented in "
                                 "minixla [Op:XlaSvd]")
    return _composite("XlaSvd", lambda m: _linalg().svd(m), [x], {"max_iter": int(max_iter),
                                                                  "epsilon": float(epsilon)})


def non_max_suppression_v4(boxes, scores, max_output_size, iou_threshold, score_threshold,
                           pad_to_max_output_size=False, **_):
    """NonMaxSuppressionV4: (indices padded with 0 to max_output_size, how many are valid); unpadded, the
    indices' number depends on the data: eager only, as tf.image.non_max_suppression."""
    from minixla.frontend.api import image_nms

    k = int(np.asarray(max_output_size.numpy() if hasattr(max_output_size, "numpy") else max_output_size))
    boxes, scores = image_nms._check_boxes(boxes, scores)

    def fn(bx, sc, iou, st):
        picked, _, count = image_nms._greedy(image_nms._iou(bx), sc, k, iou, st)
        return picked, count

    picked, count = _composite("NonMaxSuppressionV4", fn, [boxes, scores, iou_threshold, score_threshold],
                               {"max_output_size": k, "pad_to_max_output_size": bool(pad_to_max_output_size)})
    if pad_to_max_output_size:
        return picked, count
    return image_nms._unpadded("non_max_suppression (NonMaxSuppressionV4 with pad_to_max_output_size=False)",
                               picked, count)[0], count


def _binary_computation(op: str, attr: str, value_index: int):
    """Xla* ops taking one binary computation (attribute `attr`) of the scalar type of input `value_index`."""

    def call(**kw):
        from minixla.frontend.raw_ops import RawOp

        names = RawOp(op).inputs  # (at the call: reading TF's recorded API, ~0.5 MB of JSON, at import cost ~6 ms)
        dt = api.convert_to_tensor(kw[names[value_index]]).dtype.np
        fns = {a: kw.pop(a) for a in ("select", "scatter", attr) if a in kw}
        attrs = {a: _computation(fn, [dt, dt], op) for a, fn in fns.items()}
        attrs.update({k: v.decode("latin-1") if isinstance(v, bytes) else v for k, v in kw.items()
                      if k in ("dimension_numbers", "indices_are_sorted")})
        return execute(op, [kw[n] for n in names], attrs)
    return call


def symbolic_gradient(input, Tout=(), f=None, **_):
    """SymbolicGradient: f's inputs then one cotangent per f output in; the gradients w.r.t. f's inputs
    (len(Tout) of them) out, by GradientTape over f inside the op's body; unconnected ones are zeros."""
    from minixla.frontend.autodiff.gradient_tape import GradientTape

    n_in = len(_flat(Tout))
    call = as_callable(f, "SymbolicGradient")

    def grads(*args):
        xs, dys = list(args[:n_in]), list(args[n_in:])
        with GradientTape() as tape:
            for x in xs:
                tape.watch(x)
            ys = _flat(call(*xs))
        if len(ys) != len(dys):
            raise ValueError(f"SymbolicGradient: f has {len(ys)} outputs but {len(dys)} cotangents were given")
        out = tape.gradient(ys, xs, output_gradients=dys)
        return [api.zeros_like(x) if g is None else g for x, g in zip(xs, out)]

    return list(_composite("SymbolicGradient", grads, _flat(input), {}, cacheable=False))


# -- stateful random kernels ----------------------------------------------------------------------

def _seeds(seed, seed2) -> tuple[int, int]:
    s1, s2 = int(seed), int(seed2)
    if s1 == 0 and s2 == 0:  # TF: both zero draws fresh seeds from the OS entropy pool
        s1, s2 = (int(v) for v in np.random.default_rng().integers(1, 2 ** 63, 2))
    return s1, s2


def _offset(kernel: tuple, blocks: int):
    """This call's counter offset: TF's eager kernel cache (keyed by op, attributes and seeds), or, traced,
    a per-op int64 Variable read and advanced on every call."""
    if current_graph() is None:
        off = rs._KERNELS.get(kernel, 0)
        rs._KERNELS[kernel] = (off + blocks) % 2 ** 64
        return api.constant(np.array(off, np.uint64).astype(np.int64))
    with init_scope():
        var = rs.api_variable(np.int64(0))
    off = var.read_value()
    var.assign_add(np.int64(blocks))
    return off


def _dims(shape) -> list[int]:
    return [int(d) for d in np.asarray(shape.numpy() if hasattr(shape, "numpy") else shape).reshape(-1)]


def _draw(op: str):
    def draw(shape, dtype=None, seed=0, seed2=0, **_):
        dims, dt = _dims(shape), dtypes.as_dtype(dtype)
        s1, s2 = _seeds(seed, seed2)
        off = _offset((op, dt.name, s1, s2), 256 * int(np.prod(dims, dtype=np.int64)))
        return execute(op, [np.asarray(dims, np.int32), off], {"seed": s1, "seed2": s2, "dtype": dt.np})
    return draw


def random_uniform_int(shape, minval, maxval, seed=0, seed2=0, **_):
    dims = _dims(shape)
    lo, hi = api.convert_to_tensor(minval), api.convert_to_tensor(maxval)
    s1, s2 = _seeds(seed, seed2)
    off = _offset(("RandomUniformInt", lo.dtype.name, s1, s2), 256 * int(np.prod(dims, dtype=np.int64)))
    return execute("RandomUniformInt", [np.asarray(dims, np.int32), lo, hi, off], {"seed": s1, "seed2": s2})


def multinomial(logits, num_samples, seed=0, seed2=0, output_dtype=dtypes.int64, **_):
    logits = api.convert_to_tensor(logits)
    ns = int(np.asarray(num_samples.numpy() if hasattr(num_samples, "numpy") else num_samples))
    dt = dtypes.as_dtype(output_dtype)
    rows = logits.shape[0] if logits.shape.rank == 2 else 0
    s1, s2 = _seeds(seed, seed2)
    # MultinomialOp reserves 256 blocks per double (2 words) of ceil4(num_samples) per row
    off = _offset((f"Multinomial:{dt.name}", logits.dtype.name, s1, s2), 256 * rows * ((ns + 3) // 4 * 4) * 2)
    return execute("Multinomial", [logits, np.asarray(ns, np.int32), off],
                   {"seed": s1, "seed2": s2, "output_dtype": dt.np})


def random_shuffle(value, seed=0, seed2=0, **_):
    value = api.convert_to_tensor(value)
    n = int(value.shape[0]) if value.shape.rank else 0
    s1, s2 = _seeds(seed, seed2)
    off = _offset(("RandomShuffle", value.dtype.name, s1, s2), (n - 1 + 3) // 4 if n > 1 else 0)
    return execute("RandomShuffle", [value, off], {"seed": s1, "seed2": s2})


def _v1_stateless(op: str):
    """The V1 stateless ops, with Tseed taken from the seed (it decides whether XLA has a kernel)."""
    def draw(shape, seed, dtype=None, minval=None, maxval=None, **_):
        seed = api.convert_to_tensor(seed)
        bounds = op == "StatelessRandomUniformInt"
        extra = [api.convert_to_tensor(minval), api.convert_to_tensor(maxval)] if bounds else []
        attrs = {"Tseed": seed.dtype.np}
        if dtype is not None:
            attrs["dtype"] = dtypes.as_dtype(dtype).np
        return execute(op, [np.asarray(_dims(shape), np.int32), seed, *extra], attrs)
    return draw


def _state_variable(resource, op: str):
    """The Variable holding a Philox state, from its resource handle (`tf.random.Generator().state.handle`)."""
    from minixla.frontend.api.raw_state_variables import _variable

    return _variable(op, "resource", resource)


def _stateful_draw(op: str):
    """StatefulUniform & co.: draw from the state Variable's value, then store the advanced state."""
    def draw(resource, algorithm, shape, minval=None, maxval=None, dtype=None, **_):
        var = _state_variable(resource, op)
        extra = [api.convert_to_tensor(minval), api.convert_to_tensor(maxval)] if op == "StatefulUniformInt" else []
        attrs = {"dtype": dtypes.as_dtype(dtype).np} if dtype is not None else {}
        values, new = execute(op, [var.read_value(), np.asarray(algorithm, np.int64), np.asarray(_dims(shape)),
                                   *extra], attrs)
        var.assign(new)
        return values
    return draw


def rng_read_and_skip(resource, alg, delta, op="RngReadAndSkip"):
    var = _state_variable(resource, op)
    old, new = execute("RngReadAndSkip", [var.read_value(), np.asarray(alg, np.int32),
                                          api.cast(api.convert_to_tensor(delta), dtypes.uint64)], {})
    var.assign(new)
    return old


def rng_skip(resource, algorithm, delta):
    var = _state_variable(resource, "RngSkip")
    var.assign(execute("RngSkip", [var.read_value(), np.asarray(algorithm, np.int64),
                                   api.cast(api.convert_to_tensor(delta), dtypes.uint64)], {}))


def fused_conv2d(input, filter, args, host_args=(), **attrs):
    """_FusedConv2D: host_args (a GPU-only feature) must be empty; the inferred type attributes are dropped."""
    if len(_flat(host_args)):
        raise TypeError("_FusedConv2D: host_args are not supported (num_host_args must be 0)")
    attrs = {k: v for k, v in attrs.items() if k not in ("T", "TArgs", "num_args", "num_host_args")}
    return execute("_FusedConv2D", [input, filter, _tensors(args)], attrs)


# -- DynamicStitch ---------------------------------------------------------------------------------

def _stitch(op: str):
    def stitch(indices, data, **_):
        from minixla.frontend.ops.registry import get

        graph, values = current_graph(), []
        for i, ids in enumerate(indices):
            ids = api.convert_to_tensor(ids)
            if ids.dtype.np.kind not in "iu":
                raise TypeError(f"{op} indices must be int32 or int64, got {ids.dtype.name}")
            values.append(np.asarray(ids._value if ids._graph is None else graph._const_value(ids, get(op), i)))
        return execute(op, [list(data)], {"indices": tuple(values)})
    return stitch


WRAPPERS = {
    "StatelessIf": stateless_if, "XlaIf": xla_if, "StatelessWhile": stateless_while, "XlaWhile": xla_while,
    "StatelessCase": stateless_case, "PartitionedCall": _call("PartitionedCall"),
    "StatefulPartitionedCall": _call("StatefulPartitionedCall"),
    "RandomUniform": _draw("RandomUniform"), "RandomStandardNormal": _draw("RandomStandardNormal"),
    "TruncatedNormal": _draw("TruncatedNormal"), "RandomUniformInt": random_uniform_int,
    "Multinomial": multinomial, "RandomShuffle": random_shuffle,
    **{op: _v1_stateless(op) for op in ("StatelessRandomUniform", "StatelessRandomNormal", "StatelessTruncatedNormal",
                                        "StatelessRandomUniformInt", "StatelessRandomUniformFullInt")},
    "XlaReduce": xla_reduce, "XlaVariadicReduce": _variadic_reduce("XlaVariadicReduce"),
    "XlaVariadicReduceV2": _variadic_reduce("XlaVariadicReduceV2"), "XlaVariadicSort": xla_variadic_sort,
    **{op: _stateful_draw(op) for op in ("StatefulUniform", "StatefulUniformInt", "StatefulUniformFullInt",
                                         "StatefulStandardNormalV2", "StatefulTruncatedNormal")},
    "RngReadAndSkip": rng_read_and_skip, "RngSkip": rng_skip,
    "Qr": qr, "Svd": svd, "SelfAdjointEigV2": self_adjoint_eig_v2, "XlaSvd": xla_svd,
    "XlaSelfAdjointEig": xla_self_adjoint_eig, "NonMaxSuppressionV4": non_max_suppression_v4,
    "XlaReduceWindow": _binary_computation("XlaReduceWindow", "computation", 0),
    "XlaSelectAndScatter": _binary_computation("XlaSelectAndScatter", "scatter", 0),
    "XlaScatter": _binary_computation("XlaScatter", "update_computation", 0),
    "SymbolicGradient": symbolic_gradient, "_FusedConv2D": fused_conv2d,
    "DynamicStitch": _stitch("DynamicStitch"), "ParallelDynamicStitch": _stitch("ParallelDynamicStitch"),
}


def install(tf_module) -> None:
    """Route these raw ops through their wrappers (tf.raw_ops is built lazily; the table is read per call)."""
    from minixla.frontend import raw_ops

    raw_ops.STATE_CALLS.update(WRAPPERS)
