"""The graph a `tf.function` traces: `tf` dialect IR plus a node list.

Each TF op called while tracing becomes a `"tf.X"` op in one `func.func`
block (the IR users inspect and `tf-legalize-to-hlo` lowers) and a `Node`
(the Python-side record: op definition, attributes, and where in the user's
code it was created, for error messages and for running the graph op by op).
Result types come from running the op's rule on a `SpecBuilder`, so shape
errors surface while tracing, at the user's line.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import FunctionType, TensorType, UnrankedTensorType
from xdsl.ir import Block, Operation, Region

from minixla.dialects.numpy_types import element_type

from minixla.frontend.builder import Spec, SpecBuilder
from minixla.frontend.builder_eager import EagerBuilder
from minixla.frontend.errors import InvalidArgumentError, SourceLocation, compile_time_constant_error, user_stack
from minixla.frontend.ops.registry import OpDef
from minixla.frontend.tensor import Tensor
from minixla.frontend.thread_state import PerThreadList

_FOLD_LIMIT = 4096  # fold ops whose inputs are all known and results this small


class NeedsConstant(Exception):
    """A placeholder feeds a must-be-constant input: retrace with its value known."""

    def __init__(self, arg_index: int, op: str):
        super().__init__(arg_index, op)
        self.arg_index = arg_index
        self.op = op


def value_type(spec: Spec):
    """The tensor type of `spec` (memoised: types are immutable, and building and verifying one was ~15%
    of a trace's op-adding time)."""
    key = (spec.shape, spec.dtype)
    try:
        hit = _TYPES.get(key)
    except TypeError:  # an unhashable shape (a list): no memo
        hit, key = None, None
    if hit is not None:
        return hit
    if np.dtype(spec.dtype) == np.dtype(object):
        from minixla.dialects.tf import StringType

        elem = StringType()
    else:
        elem = element_type(spec.dtype)
    made = UnrankedTensorType(elem) if spec.shape is None else TensorType(elem, list(spec.shape))
    if key is not None and len(_TYPES) < 4096:
        _TYPES[key] = made
    return made


_TYPES: dict = {}


def _attr(value, to_attr):
    """`to_attr(value)`, memoised for ints, bools, strings, flat lists/tuples of them (axes, strides,
    flags) and small numeric arrays (scalar constants, keyed by their bytes): most attributes repeat, and
    building and verifying each anew was ~30% of a trace's op-adding time. Not Python floats: 0.0 ==
    -0.0 would share an entry."""
    kind = value.__class__
    if kind in _SCALARS:
        key = (kind, value)
    elif kind is np.ndarray and value.size <= 16 and value.dtype.kind in "biuf":  # small constants, by bits
        key = (kind, value.dtype, value.shape, value.tobytes())
    elif (kind is list or kind is tuple) and all(v.__class__ in _SCALARS for v in value):
        key = (kind, tuple((v.__class__, v) for v in value))
    else:
        return to_attr(value)
    hit = _ATTRS.get(key)
    if hit is None:
        hit = to_attr(value)
        if len(_ATTRS) < 4096:
            _ATTRS[key] = hit
    return hit


_SCALARS = frozenset({bool, int, str})
_ATTRS: dict = {}


@dataclass
class Node:
    opdef: OpDef
    inputs: list  # Tensor or list[Tensor] per declared input
    attrs: dict[str, Any]
    outputs: list[Tensor]
    stack: list[SourceLocation]
    op: Operation
    name: str = ""


@dataclass
class Graph:
    name: str
    block: Block = field(default_factory=Block)
    nodes: list[Node] = field(default_factory=list)
    inputs: list[Tensor] = field(default_factory=list)
    #: Variable -> placeholder holding its value at call time
    captures: dict = field(default_factory=dict)
    #: Variable -> tensor holding its new value after the call
    updates: dict = field(default_factory=dict)
    py_funcs: dict[str, Any] = field(default_factory=dict)
    _names: dict[str, int] = field(default_factory=dict)
    #: the enclosing graph of a tf.cond branch / tf.while_loop body (None at the top)
    parent: Graph | None = None
    #: id(parent tensor) -> (parent tensor, placeholder): outer values a branch/body uses
    captured: dict = field(default_factory=dict)
    #: branch/body `func.func`s traced under this (top-level) graph
    subfunctions: list = field(default_factory=list)

    def placeholder(self, spec: Spec, name: str, const: np.ndarray | None = None) -> Tensor:
        arg = self.block.insert_arg(value_type(spec), len(self.block.args))
        t = Tensor.make(graph=self, ssa=arg, spec=spec, const=const, name=name)
        # only top-level placeholders are function arguments that can be value-specialized
        t._arg_index = len(self.inputs) if self.parent is None else None
        self.inputs.append(t)
        return t

    def root(self) -> Graph:
        return self if self.parent is None else self.parent.root()

    def encloses(self, other: Graph) -> bool:
        g = self.parent
        while g is not None:
            if g is other:
                return True
            g = g.parent
        return False

    def capture(self, t: Tensor) -> Tensor:
        """`t` (from an enclosing graph, or eager) as a value of this graph: known constants are
        re-created here, anything else becomes an extra placeholder fed by the parent."""
        if t._graph is self:
            return t
        if t._const is not None and (t._graph is None or int(np.prod(t._spec.shape)) <= _FOLD_LIMIT):
            return self.constant(np.asarray(t._const))
        if self.parent is None:
            raise ValueError(f"{t!r} belongs to another tf.function graph and cannot be used here")
        outer = t if t._graph is self.parent else self.parent.capture(t)
        hit = self.captured.get(id(outer))
        if hit is not None:
            return hit[1]
        p = self.placeholder(outer._spec, outer._name or "capture")
        p._capture_of = outer
        self.captured[id(outer)] = (outer, p)
        return p

    def _unique(self, base: str) -> str:
        n = self._names.get(base, 0)
        self._names[base] = n + 1
        return base if n == 0 else f"{base}_{n}"

    def constant(self, value: np.ndarray) -> Tensor:
        from minixla.frontend.ops.registry import get

        return self.add_node(get("Const"), [], {"value": value, "dtype": value.dtype})[0]

    def _const_value(self, t: Tensor, opdef: OpDef, i: int) -> np.ndarray:
        if t._const is not None:
            return t._const
        outer = getattr(t, "_capture_of", None)
        if outer is not None:
            return self.parent._const_value(outer, opdef, i)
        index = getattr(t, "_arg_index", None)
        if index is not None:
            raise NeedsConstant(index, opdef.name)
        raise compile_time_constant_error(i, opdef.name, opdef.name, user_stack())

    def add_node(self, opdef: OpDef, inputs: list, attrs: dict[str, Any]) -> list[Tensor]:
        """Append `opdef(inputs, attrs)`; returns the symbolic outputs."""
        spec_args, fold_args, foldable = [], [], not opdef.stateful and opdef.compilable
        has_const = bool(opdef.const_inputs)
        for i, x in enumerate(inputs):
            if has_const and opdef.is_const(i):
                v = self._const_value(x, opdef, i)
                spec_args.append(v)
                fold_args.append(v)
            elif isinstance(x, list):
                spec_args.append([t._spec for t in x])
                fold_args.append([t._const for t in x])
                foldable &= all(t._const is not None for t in x)
            else:
                spec_args.append(x._spec)
                fold_args.append(x._const)
                foldable &= x._const is not None
        if opdef.compilable and _has_unknown_shape(spec_args):
            out = _infer_unknown(opdef, spec_args, attrs)
        elif opdef.compilable:
            out = opdef.rule(SpecBuilder(), *spec_args, **attrs)
        else:
            out = opdef.infer(*spec_args, **attrs)
        specs = list(out) if isinstance(out, tuple) else [out]
        specs = [Spec(tuple(s.shape) if s.shape is not None else None, np.dtype(s.dtype)) for s in specs]
        folded: list = [None] * len(specs)
        if opdef.name == "Const":
            folded = [np.asarray(attrs["value"])]
        elif foldable and all(s.shape is not None and int(np.prod(s.shape)) <= _FOLD_LIMIT for s in specs):
            res = opdef.rule(EagerBuilder(), *fold_args, **attrs)
            folded = list(res) if isinstance(res, tuple) else [res]
        operands = [t._ssa for x in inputs for t in (x if isinstance(x, list) else [x])]
        from minixla.dialects.tf import tf_op_class, to_attr

        mlir_attrs = {}
        for k, v in attrs.items():
            if k == "dtype" and opdef.name == "Const":
                continue
            if callable(v) and not isinstance(v, type):
                token = f"pyfunc_{len(self.py_funcs)}"
                self.py_funcs[token] = v
                v = token
            if v is not None:
                mlir_attrs[k] = _attr(v, to_attr)
        props = {"value": mlir_attrs.pop("value")} if opdef.name == "Const" else {}
        op = tf_op_class(opdef.name).create(operands=operands, result_types=[value_type(s) for s in specs],
                                            attributes=mlir_attrs, properties=props)
        self.block.add_op(op)
        name = self._unique(opdef.name)
        outs = [Tensor.make(graph=self, ssa=r, spec=s, const=None if f is None else np.asarray(f),
                       name=name if len(specs) == 1 else f"{name}:{i}")
                for i, (r, s, f) in enumerate(zip(op.results, specs, folded))]
        self.nodes.append(Node(opdef, list(inputs), dict(attrs), outs, user_stack(), op, name))
        return outs

    def build(self, outputs: list[Tensor], fn_name: str) -> func.FuncOp:
        """Terminate the block with `func.return` and wrap it in `func.func @fn_name`."""
        self.block.add_op(func.ReturnOp(*[t._ssa for t in outputs]))
        ftype = FunctionType.from_lists([a.type for a in self.block.args], [t._ssa.type for t in outputs])
        return func.FuncOp(fn_name, ftype, Region(self.block))


def _has_unknown_shape(spec_args: list) -> bool:
    flat = [x for a in spec_args for x in (a if isinstance(a, list) else [a])]
    return any(isinstance(x, Spec) and x.shape is None for x in flat)


def _infer_unknown(opdef: OpDef, spec_args: list, attrs: dict):
    """Result specs of an op with an input of unknown shape (a tf.py_function result): as in TF, the
    shapes stay unknown; the dtypes (and the number of results) come from the rule run on scalar
    stand-ins, which broadcast with anything, else from the first typed input."""
    def scalar(x):
        return Spec((), x.dtype) if isinstance(x, Spec) and x.shape is None else x

    if opdef.name == "EnsureShape" and attrs.get("shape") is not None:  # TF's shape function: the checked shape
        dims = [int(d) for d in attrs["shape"]]
        return (Spec(tuple(dims) if all(d >= 0 for d in dims) else None, np.dtype(spec_args[0].dtype)),)
    stand_in = [[scalar(x) for x in a] if isinstance(a, list) else scalar(a) for a in spec_args]
    try:
        out = opdef.rule(SpecBuilder(), *stand_in, **attrs)
        outs = list(out) if isinstance(out, tuple) else [out]
    except (InvalidArgumentError, ValueError, TypeError, IndexError):
        typed = [a for n, a in zip(opdef.input_names, spec_args) if n in opdef.typed_inputs]
        first = next((x for a in typed for x in (a if isinstance(a, list) else [a]) if isinstance(x, Spec)), None)
        if first is None:
            raise
        outs = [first]
    return tuple(Spec(None, np.dtype(o.dtype)) for o in outs)


# -- the tracing stack --------------------------------------------------------------

_STACK: PerThreadList = PerThreadList()  # graphs being traced, innermost last (per thread)


def current_graph() -> Graph | None:
    return _STACK[-1] if _STACK else None


class tracing:
    """`with tracing(graph):` makes TF ops append to `graph`."""

    def __init__(self, graph: Graph):
        self.graph = graph

    def __enter__(self) -> Graph:
        _STACK.append(self.graph)
        return self.graph

    def __exit__(self, *exc) -> None:
        _STACK.pop()


class init_scope:
    """`tf.init_scope`: step out of any trace, so variables (optimizer slots, lazily built
    layer weights) are created eagerly even when first needed inside a `tf.function`."""

    def __enter__(self) -> None:
        self._saved = _STACK[:]
        _STACK.clear()

    def __exit__(self, *exc) -> None:
        _STACK[:] = self._saved
