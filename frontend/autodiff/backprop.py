"""Reverse accumulation over recorded primitives, and the VJP rule table.

`backprop` walks records backwards, asks each primitive's VJP rule for its
operands' cotangents and sums them per key. Rules are builder code
(`rule(b, prim, cts) -> [cotangent or None per operand]`), so the same rule
runs eagerly, emits graph nodes inside `tf.function`, or is itself recorded by
an outer tape (higher derivatives) - whatever `b` is.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from .tape import Prim, RValue, differentiable

#: hlo op -> rule(b, prim, cotangents of its results) -> cotangents of its operands
VJPS: dict[str, Callable] = {}


def defvjp(*ops: str):
    def register(rule):
        for op in ops:
            VJPS[op] = rule
        return rule

    return register


class NoGradientError(LookupError):
    """A primitive on the path from the target to a source has no VJP rule."""


def zeros_like(b, v):
    return b.full(v.shape, 0, v.dtype)


def accumulate(b, cts: dict, key: int, g) -> None:
    cts[key] = g if key not in cts else b.add(cts[key], g)


def reachable(records: list[Prim], sources: Iterable[int]) -> set[int]:
    """Keys that depend on `sources` through the records."""
    reach = set(sources)
    for p in records:
        if any(o.key in reach for o in p.operands if o.key is not None):
            reach.update(r.key for r in p.results if r.key is not None)
    return reach


def backprop(b, records: list[Prim], seeds: dict[int, RValue], sources: Iterable[int] | None = None) -> dict:
    """Cotangents of every key reached from `seeds` (restricted to paths from `sources` when given)."""
    cts = dict(seeds)
    reach = reachable(records, sources) if sources is not None else None
    for p in reversed(records):
        if reach is not None and not any(r.key in reach for r in p.results if r.key is not None):
            continue
        outs = [cts.get(r.key) if r.key is not None else None for r in p.results]
        if all(c is None for c in outs):
            continue
        rule = VJPS.get(p.op)
        if rule is None:
            raise NoGradientError(f"no gradient is defined for hlo.{p.op}")
        outs = [c if c is not None else zeros_like(b, r) for c, r in zip(outs, p.results)]
        grads = rule(b, p, outs)
        for o, g in zip(p.operands, grads):
            if g is None or o.key is None or not differentiable(o.dtype):
                continue
            if reach is not None and o.key not in reach:
                continue
            accumulate(b, cts, o.key, g)
    return cts


from . import vjp_elementwise, vjp_shape, vjp_structured  # noqa: E402,F401  (fill VJPS)
