"""`XlaHlo`: one hlo primitive as a TF graph node (the family of tf2xla's Xla* ops).

Gradients computed inside `tf.function` are built with the builder API; a
`GraphBuilder` (frontend/autodiff/graph_builder.py) turns each primitive into
an `XlaHlo` node whose rule replays it on whatever builder legalizes or runs
the graph. Attributes are kept as text (`repr` of plain tuples) so they survive
the `tf` dialect; region bodies that are not a named combiner are kept in a
process-wide table under a token.
"""

from __future__ import annotations

import ast
import functools
import itertools
from typing import Any
from collections.abc import Callable

import numpy as np

from minixla.frontend.builder import Spec, _combiner_body
from minixla.frontend.ops.registry import register

_BODIES: dict[str, Callable] = {}
_tokens = itertools.count()


def _encode(value: Any) -> Any:
    if callable(value):
        if getattr(value, "combiner", None) and not hasattr(value, "simple"):
            return ("__combiner__", value.combiner)
        if hasattr(value, "simple"):
            return ("__simple__",) + tuple(value.simple)
        token = f"body_{next(_tokens)}"
        _BODIES[token] = value
        return ("__body__", token)
    if isinstance(value, dict):
        return {k: _encode(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_encode(v) for v in value)
    if isinstance(value, np.integer):
        return int(value)
    return value


def _decode(value: Any) -> Any:
    if isinstance(value, tuple) and value and value[0] in ("__combiner__", "__simple__", "__body__"):
        kind = value[0]
        if kind == "__combiner__":
            from minixla.frontend.builder_structured import _named_body

            return _named_body(value[1])
        if kind == "__simple__":
            key, descending = value[1], value[2]

            def comparator(b, lhs, rhs):
                return b.compare(lhs[key], rhs[key], "GT" if descending else "LT")

            comparator.simple = (key, descending)
            return comparator
        return _BODIES[value[1]]
    if isinstance(value, dict):
        return {k: _decode(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_decode(v) for v in value)
    return value


@functools.lru_cache(maxsize=256)
def _dtype_name(dtype) -> str:
    """`np.dtype(dtype).name`, memoised (numpy computes a dtype's name in Python, ~5 us a call)."""
    return np.dtype(dtype).name


def encode_attrs(op: str, attrs: dict, results: list, body) -> dict[str, str]:
    """The `XlaHlo` node attributes for one primitive."""
    specs = [(tuple(int(d) for d in r.shape), _dtype_name(r.dtype)) for r in results]
    return {"hlo_op": op, "hlo_attrs": repr(_encode(attrs)), "results": repr(specs),
            "body": repr(_encode(body)) if body is not None else ""}


@functools.lru_cache(maxsize=4096)
def _literal(text: str) -> Any:
    """`ast.literal_eval(text)`, memoised: a trace replays the same few attribute texts many times. The
    result is shared, so it is only read (`_decode` builds new containers)."""
    return ast.literal_eval(text)


def xla_hlo(b, operands, hlo_op, hlo_attrs, results, body=""):
    attrs = _decode(_literal(hlo_attrs))
    specs = [Spec(tuple(s), np.dtype(d)) for s, d in _literal(results)]
    fn = _decode(_literal(body)) if body else None
    outs = b._apply(hlo_op, list(operands), attrs, specs, fn)
    return tuple(outs) if len(outs) != 1 else outs[0]


register("XlaHlo", ("*operands",), xla_hlo, attrs={"hlo_op": None, "hlo_attrs": "{}", "results": "[]", "body": ""},
         typed=())

__all__ = ["encode_attrs", "xla_hlo", "_combiner_body"]
