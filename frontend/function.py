"""`tf.function`: trace once per input signature, run the graph, or jit-compile it.

The trace key holds, per argument, the shape and dtype of tensors and the
value of Python objects; arguments found to feed a must-be-constant input
(ArgMax's axis, Reshape's shape, ...) are keyed by value too (TF specializes
the compilation on them). Each key owns one traced graph and, with
`jit_compile=True`, one compiled executable: the compile cache. `f.why()`
tells why the last call missed the cache (which argument changed, and how).
"""

from __future__ import annotations

import functools
import inspect
import itertools
import threading
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from xdsl.dialects.builtin import ModuleOp

from minixla.frontend import tracing_log
from minixla.frontend.autodiff import tape as _tape
from minixla.frontend.call_plan import ByValue, Miss, build_plan, call_key, normalizer
from minixla.frontend.builder import Spec
from minixla.frontend.compiler import Compiled, compile_log, lower, pick_backend, stage_text, STAGES
from minixla.frontend.errors import InvalidArgumentError
from minixla.frontend.api.config import _STATE as config_state
from minixla.frontend.execute import run_graph
from minixla.frontend.graph import _STACK, Graph, NeedsConstant, tracing
from minixla.frontend.thread_state import OPEN
from minixla.frontend.nest import flatten, is_tensor, rebuild
from minixla.frontend.signature import bind_signature, spec_example
from minixla.frontend.tensor import Tensor
from minixla.passes import trace_events as _trace_events

_counter = itertools.count(1)


def _leaf_key(v, specialized: bool):
    if hasattr(v, "_variable_value"):
        v = v._variable_value()
    if isinstance(v, (Tensor, np.ndarray)):
        arr = v._value if isinstance(v, Tensor) else v
        shape, dt = (tuple(v._spec.shape), np.dtype(v._spec.dtype)) if isinstance(v, Tensor) else (v.shape, v.dtype)
        if specialized and arr is not None:
            return ("tensor", shape, dt.name, ("value", repr(arr.tolist())))
        return ("tensor", shape, dt.name)
    try:
        hash(v)
        return ("python", v)
    except TypeError:
        return ("python", repr(v))


def _describe(key) -> str:
    kind = key[0]
    if kind == "tensor":
        text = f"tensor shape={key[1]} dtype={key[2]}"
        return text + (" (value-specialized)" if len(key) > 3 else "")
    return f"Python value {key[1]!r}"


def _renumber_leaves(struct, renumber: dict):
    """`struct` (nest.flatten's) with leaf i renumbered to renumber[i], or made the Python value None."""
    if isinstance(struct, tuple) and len(struct) == 2 and struct[0] == "leaf" and isinstance(struct[1], int):
        j = renumber[struct[1]]
        return ("python", None) if j is None else ("leaf", j)
    if isinstance(struct, tuple):
        return tuple(_renumber_leaves(s, renumber) for s in struct)
    return struct


@dataclass
class ConcreteFunction:
    """One trace: the graph, its `tf` module, and (jit) the compiled entry."""

    name: str
    graph: Graph
    module: ModuleOp
    structure: Any
    outputs: list[Tensor]
    n_args: int
    captures: list
    updates: list
    const_leaves: dict[int, np.ndarray] = field(default_factory=dict)
    tensor_leaves: list[int] = field(default_factory=list)
    compiled: Compiled | None = None
    #: without jit_compile: the autoclustered graph (autoclustering.py), False when it is off, None before a call
    clustered: Any = None
    #: a call ran the compiled entry (inspection alone lowers, and may reuse another function's
    #: executable through compile_reuse, without counting as this function's compile)
    ran_compiled: bool = False

    def lower(self) -> Compiled:
        if self.compiled is None:
            from minixla.frontend.legalize import Unsupported, unsupported_error

            bad = [Unsupported(n.op, n.name) for n in self.graph.nodes
                   if not (n.opdef.compilable and (n.opdef.xla_kernel(n.attrs) if callable(n.opdef.xla_kernel)
                                                              else n.opdef.xla_kernel))]
            if bad:
                raise unsupported_error(self.name, bad, {n.op: n.stack for n in self.graph.nodes})
            stacks = {n.op: n.stack for n in self.graph.nodes}
            names = {n.op: n.name for n in self.graph.nodes}
            tensor_index = {leaf: k for k, leaf in enumerate(self.tensor_leaves)}
            consts = {tensor_index[i]: v for i, v in self.const_leaves.items()}
            self.compiled = lower(self.module, consts, self.name, stacks, names)
        return self.compiled

    def run(self, leaf_values: list[np.ndarray], jit: bool) -> list[np.ndarray]:
        args = list(leaf_values) + [v._value for v in self.captures]
        if not jit:
            wanted = self.outputs + [self.graph.updates[v] for v in self.updates]
            if self.clustered is None:  # decided at the first call, as TF decides when it builds the graph
                from minixla.frontend import autoclustering

                self.clustered = autoclustering.ClusteredGraph(self.graph, wanted, self.name) \
                    if autoclustering.enabled() else False
            results = self.clustered.run(args, wanted) if self.clustered else run_graph(self.graph, args, wanted)
        else:
            compiled = self.lower()
            if compiled.executable is None:
                pick_backend(compiled)
            self.ran_compiled = True
            results = list(compiled(*[np.asarray(args[i]) for i in compiled.kept_args]))
        n = len(self.outputs)
        # the cpu executable writes each result into a fresh buffer: a variable takes its new
        # buffer over (no copy); the host paths may alias inputs, so they copy
        owned = jit and self.compiled.backend == "cpu"
        for var, value in zip(self.updates, results[n:]):
            var._value = value if owned and isinstance(value, np.ndarray) else np.array(value, copy=True)
        return results[:n]

    @property
    def tf_ir(self) -> str:
        from minixla.frontend.compiler import print_module

        return print_module(self.module)


class Function:
    """The callable returned by `tf.function`."""

    def __init__(self, python_function, jit_compile: bool | None = None, reduce_retracing: bool = False,
                 input_signature=None, name: str | None = None, autograph: bool = True, **_):
        self._python_function = python_function
        self._jit_compile = bool(jit_compile)
        self._name = name or getattr(python_function, "__name__", "function")
        self._signature = inspect.signature(python_function)
        self._cache: dict[Any, ConcreteFunction] = {}
        self._trace_lock = threading.RLock()  # one trace per signature when threads call at once
        self._specialized: set[int] = set()  # leaf indices keyed by value
        self._tracing_count = 0
        self._last_key: Any = None
        self._last_leaf_keys: tuple = ()
        self._why = "not called yet"
        self._clusters_text = ""
        self._arg_names: list[str] = []
        self._plans: dict[tuple, Any] = {}  # call key -> plan (call_plan.py)
        self._forms: dict[Any, Any] = {}  # call form -> normalizer of its arguments
        self._counter = tracing_log.counter_for(python_function)
        self._input_signature = None if input_signature is None else tuple(input_signature)
        functools.update_wrapper(self, python_function)

    # ---- keys ------------------------------------------------------------------
    def _bind(self, args, kwargs):
        bound = self._signature.bind(*args, **kwargs)
        bound.apply_defaults()
        leaves: list = []
        structure = flatten((tuple(bound.args), dict(bound.kwargs)), leaves)
        names = []
        for pname, value in bound.arguments.items():
            sub: list = []
            flatten(value, sub)
            names += [pname] if len(sub) == 1 else [f"{pname}[{i}]" for i in range(len(sub))]
        self._arg_names = names
        return structure, leaves

    def _key(self, structure, leaves):
        leaf_keys = tuple(_leaf_key(v, i in self._specialized) for i, v in enumerate(leaves))
        return (repr(structure), leaf_keys), leaf_keys

    def _explain(self, leaf_keys) -> str:
        if not self._cache:
            return "first call: nothing traced or compiled yet"
        best, best_diff = None, None
        for key in reversed(list(self._cache)):
            other = key[1]
            if len(other) != len(leaf_keys):
                continue
            diff = [i for i, (a, b) in enumerate(zip(other, leaf_keys)) if a != b]
            if best_diff is None or len(diff) < len(best_diff):
                best, best_diff = other, diff
        if best is None:
            return "the arguments have a new structure (number or nesting of arguments changed)"
        parts = []
        for i in best_diff:
            name = self._arg_names[i] if i < len(self._arg_names) else f"#{i}"
            old, new = best[i], leaf_keys[i]
            if i in self._specialized and old[:3] == new[:3]:
                parts.append(f"argument '{name}' feeds a must-be-constant input (compile-time constant): "
                             f"value {old[3][1]} -> {new[3][1]}")
            else:
                parts.append(f"argument '{name}' changed: {_describe(old)} -> {_describe(new)}")
        return "; ".join(parts)

    # ---- tracing ---------------------------------------------------------------
    def _trace(self, structure, leaves) -> ConcreteFunction:
        while True:
            try:
                with _trace_events.span("trace", "compile", function=self._name):
                    return self._trace_once(structure, leaves)
            except NeedsConstant as need:
                if need.arg_index in self._specialized:
                    raise
                self._specialized.add(need.arg_index)
                self._plans.clear()  # the trace keys now hold this argument's value: replan

    def _trace_once(self, structure, leaves) -> ConcreteFunction:
        graph = Graph(self._name)
        placeholders, consts = [], {}
        for i, v in enumerate(leaves):
            if not is_tensor(v):
                placeholders.append(v)
                continue
            t = v._variable_value() if hasattr(v, "_variable_value") else v
            arr = t._value if isinstance(t, Tensor) else np.asarray(t)
            spec = Spec(tuple(arr.shape), arr.dtype)
            const = arr if i in self._specialized else None
            if const is not None:
                consts[i] = arr
            p = graph.placeholder(spec, self._arg_names[i] if i < len(self._arg_names) else f"arg{i}", const)
            p._arg_index = i
            placeholders.append(p)
        args, kwargs = rebuild(structure, placeholders)
        with tracing(graph):
            result = self._python_function(*args, **kwargs)
        out_leaves: list = []
        out_struct = flatten(result, out_leaves)
        # a None output (a function ending in an assignment or tf.print) is part of the structure, not a
        # result the compiled program would have to produce
        renumber = {}
        for i, v in enumerate(out_leaves):
            renumber[i] = None if v is None else len(renumber) - sum(1 for j in renumber.values() if j is None)
        out_struct = _renumber_leaves(out_struct, renumber)
        with tracing(graph):
            from minixla.frontend.api.core import convert_to_tensor

            outputs = [convert_to_tensor(v) for v in out_leaves if v is not None]
        for c in graph.captures.values():
            c._arg_index = None
        updates = list(graph.updates)
        self._tracing_count += 1
        fname = f"__inference_{self._name}_{next(_counter)}"
        f = graph.build(outputs + [graph.updates[v] for v in updates], fname)
        module = ModuleOp([f, *graph.subfunctions])  # entry first, then tf.If/tf.While functions
        return ConcreteFunction(fname, graph, module, out_struct, outputs, len(leaves), list(graph.captures),
                                updates, consts, [i for i, v in enumerate(leaves) if is_tensor(v)])

    def _concrete(self, args, kwargs, count_call: bool) -> tuple[ConcreteFunction, list]:
        if self._input_signature is not None:
            args, kwargs = bind_signature(self._input_signature, self._signature, args, kwargs)
        structure, leaves = self._bind(args, kwargs)
        key, leaf_keys = self._key(structure, leaves)
        cf = self._cache.get(key)
        if cf is None:  # a miss: trace under the lock, unless another thread just did
            with self._trace_lock:
                cf = self._cache.get(key)
                if cf is None:
                    return self._trace_and_store(structure, leaves, key, leaf_keys, count_call)
        self._why = "cache hit"
        if count_call:
            tracing_log.called_without_tracing(self._python_function)
        return cf, leaves

    def _trace_and_store(self, structure, leaves, key, leaf_keys, count_call: bool) -> tuple[ConcreteFunction, list]:
        self._why = self._explain(leaf_keys)
        n_specialized = len(self._specialized)
        cf = self._trace(structure, leaves)
        if len(self._specialized) != n_specialized:  # keys now include constant values
            key, leaf_keys = self._key(structure, leaves)
            hit = self._cache.get(key)
            if hit is not None:
                self._why = "cache hit"
                return hit, leaves
            self._why = self._explain(leaf_keys)
        self._cache[key] = cf
        if count_call:
            tracing_log.called_with_tracing(self._python_function)
        return cf, leaves

    def _call_key(self, args, kwargs, arrays: list) -> tuple:
        head = (len(args), *kwargs) if kwargs else len(args)
        norm = self._forms.get(head, self._forms)
        if norm is self._forms:
            norm = self._forms[head] = normalizer(self._signature, len(args), tuple(kwargs))
        return call_key(head, args if norm is None else norm(args, kwargs), arrays)

    # ---- public API --------------------------------------------------------------
    def __call__(self, *args, **kwargs):
        if self._input_signature is not None:  # checked and converted before any cache sees them
            args, kwargs = bind_signature(self._input_signature, self._signature, args, kwargs)
        if config_state.run_eagerly:  # tf.config.run_functions_eagerly(True)
            return self._python_function(*args, **kwargs)
        if OPEN[0] and (_STACK or _tape.ACTIVE):  # (OPEN: a global count, cheaper than the per-thread lists)
            # inside another tf.function's trace, or under a recording GradientTape: the body runs inline,
            # so the outer trace contains its ops and the tape records them (gradients flow, as in TF)
            return self._python_function(*args, **kwargs)
        arrays: list = []  # the fast path: docs/frontend-call-path.md
        try:
            key = self._call_key(args, kwargs, arrays)
            plan = self._plans.get(key)
            if plan.__class__ is ByValue:
                plan = plan.get(arrays)
        except (Miss, TypeError):  # unkeyable or unhashable arguments, or a call that cannot bind
            key = plan = None
        if plan is not None:
            self._why = "cache hit"
            if _trace_events.ACTIVE is None:
                return plan(arrays)
            with _trace_events.span(self._name, "call", jit_compile=bool(self._jit_compile)):
                return plan(arrays)
        with compile_log(self._name):
            cf, leaves = self._concrete(args, kwargs, count_call=True)
            values = []
            for v in filter(is_tensor, leaves):
                t = v._variable_value() if hasattr(v, "_variable_value") else v
                values.append(t._value if isinstance(t, Tensor) else np.asarray(t))
            with _trace_events.span(self._name, "call", jit_compile=bool(self._jit_compile), first_call=True):
                results = cf.run(values, self._jit_compile)
            self._clusters_text = cf.clustered.describe(self._name) if cf.clustered else ""
        if key is not None:
            self._add_plan(key, cf, build_plan(cf, self._jit_compile, results, self._counter), values)
        return rebuild(cf.structure, [Tensor.make(r) for r in results])

    def _add_plan(self, key, cf: ConcreteFunction, plan, values: list) -> None:
        positions = [k for k, leaf in enumerate(cf.tensor_leaves) if leaf in self._specialized]
        if not positions:
            self._plans[key] = plan
            return
        by_value = self._plans.get(key)
        if by_value.__class__ is not ByValue:
            by_value = self._plans[key] = ByValue(positions)
        by_value.plans[by_value.key(values)] = plan

    def get_concrete_function(self, *args, **kwargs) -> ConcreteFunction:
        if not args and not kwargs and self._input_signature:  # trace the signature itself
            args = tuple(spec_example(spec) for spec in self._input_signature)
        return self._concrete(args, kwargs, count_call=False)[0]

    @property
    def input_signature(self):
        return self._input_signature

    def experimental_get_tracing_count(self) -> int:
        return self._tracing_count

    def why(self) -> str:
        """Why the last call retraced/recompiled ("cache hit" when it did not); under autoclustering,
        also which clusters formed and which ops stayed outside (and why)."""
        return self._why + (f"\n{self._clusters_text}" if self._clusters_text else "")

    def experimental_get_clusters(self, *args, **kwargs) -> str:
        """The autoclustering of this function's graph for these arguments (minixla's; TF dumps it with
        --tf_xla_clustering_debug), built now if no call has built it."""
        from minixla.frontend import autoclustering

        cf = self.get_concrete_function(*args, **kwargs)
        if not cf.clustered:
            wanted = cf.outputs + [cf.graph.updates[v] for v in cf.updates]
            cf.clustered = autoclustering.ClusteredGraph(cf.graph, wanted, cf.name)
        return cf.clustered.describe(self._name)

    @property
    def compile_count(self) -> int:
        """Executables built so far (one per compile-cache entry that ran)."""
        return sum(1 for cf in self._cache.values() if cf.ran_compiled)

    @property
    def python_function(self):
        return self._python_function

    def experimental_get_compiler_ir(self, *args, **kwargs):
        cf = self.get_concrete_function(*args, **kwargs)

        def compiler_ir(stage: str = "hlo", device_name=None, platform_name=None):
            if stage not in STAGES and stage not in ("hlo_no_metadata", "hlo_dot"):
                stage_text(None, stage)  # raises TF's ValueError
            try:
                compiled = cf.lower()
            except InvalidArgumentError as err:
                raise ValueError(f"Failed getting HLO text: '{err}'") from None
            return stage_text(compiled, stage)

        return compiler_ir

    def __repr__(self) -> str:
        return f"<minixla tf.function {self._name} jit_compile={self._jit_compile}>"

    def __get__(self, instance, owner):
        """A method's tf.function, one per instance (as in TF) and kept in the
        instance's `__dict__`, so its trace and compile caches outlive the call."""
        if instance is None:
            return self
        slot = f"_tf_function_{id(self)}"
        state = getattr(instance, "__dict__", None)
        bound = state.get(slot) if state is not None else None
        if bound is None:
            bound = Function(self._python_function.__get__(instance, owner), self._jit_compile, name=self._name)
            if state is not None:
                state[slot] = bound
        return bound


def function(func=None, input_signature=None, autograph=True, jit_compile=None, reduce_retracing=False,
             experimental_compile=None, name=None, **kwargs):
    """`tf.function` (usable as `@tf.function` or `@tf.function(jit_compile=True)`)."""
    jit = jit_compile if jit_compile is not None else experimental_compile

    def wrap(fn):
        return Function(fn, jit_compile=jit, reduce_retracing=reduce_retracing, input_signature=input_signature,
                        name=name)

    return wrap if func is None else wrap(func)
