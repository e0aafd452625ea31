"""Reverse accumulation over recorded primitives, and the VJP rule table.

`backprop` walks records backwards, asks each primitive's VJP rule for its
operands' cotangents and sums them per key (in forward order, as TF). Rules are builder code
(`rule(b, prim, cts) -> [cotangent or None per operand]`), so the same rule
runs eagerly, emits graph nodes inside `tf.function`, or is itself recorded by
an outer tape (higher derivatives) - whatever `b` is. A TF op recorded as
one unit (tape.py) carries its own rule in `Prim.vjp`.

The primitive rules are written for real values (g * f'(x)); on complex values TF's convention is
g * conj(f'(x)) (the conjugate Wirtinger derivative), which for the holomorphic primitives (arithmetic,
exp/log/sqrt/trig, dot_general, data movement) is conj(rule(conj(g))): `backprop` applies that. The
rules of abs, complex, real, imag and fft (not holomorphic) are written in TF's convention (TF_CONVENTION).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import numpy as np

from minixla.frontend.autodiff.tape import Prim, RValue, differentiable

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
    if v.shape is None:  # unknown static shape (inside tf.function): a ZerosLike node
        return b.tf_op("ZerosLike", v)[0]
    return b.full(v.shape, 0, v.dtype)


def add(b, x, y):
    if x.shape is None or y.shape is None:  # unknown static shapes: an AddV2 node broadcasts at run time
        return b.tf_op("AddV2", x, y)[0]
    return b.add(x, y)


#: primitives whose rules are written in TF's complex convention already (not holomorphic)
TF_CONVENTION = frozenset({"abs", "complex", "real", "imag", "fft"})


def _is_complex(v) -> bool:
    return np.dtype(v.dtype).kind == "c"


def _conj(b, v):
    return b.complex(b.real(v), b.negate(b.imag(v))) if v is not None and _is_complex(v) else v


class RowSlices:
    """The cotangent of a row gather's operand kept as its rows (values[i] belongs to row indices[i]),
    not scattered: what TF's gather gradient returns (IndexedSlices). `dense()` scatters them."""

    def __init__(self, b, parts: list):
        self.b = b
        self.parts = parts  # [(gather prim, cotangent of its result)]

    def values_and_indices(self):
        b, values, indices = self.b, [], []
        for p, ct in self.parts:
            x, idx = p.operands
            n = int(np.prod(idx.shape)) if idx.shape else 1
            values.append(b.reshape(ct, [n] + list(x.shape[1:])))
            indices.append(b.reshape(idx, [n]))
        if len(values) == 1:
            return values[0], indices[0]
        return b.concatenate(values, 0), b.concatenate(indices, 0)

    def dense(self):
        total = None
        for p, ct in self.parts:
            g = VJPS["gather"](self.b, p, [ct])[0]
            total = g if total is None else add(self.b, total, g)
        return total


def is_row_gather(p: Prim) -> bool:
    """`tf.gather(x, ids)` on axis 0: whole rows of x, one per index (TF's sparse-gradient case)."""
    if p.op != "gather" or p.operands[0].shape is None or p.operands[1].shape is None:
        return False
    x, idx = p.operands
    od, cd, obd, sbd, sim, ivd = p.attrs["dn"]
    r = len(idx.shape)
    return (list(cd) == [0] and list(sim) == [0] and not obd and not sbd and ivd == r and len(x.shape) >= 1
            and list(p.attrs["slice_sizes"]) == [1] + list(x.shape[1:])
            and list(od) == list(range(r, r + len(x.shape) - 1)))


class Cotangents:
    """Per key, the contributions of its consumers, summed in FORWARD order of the consumers (operand
    order within one) when first read: TF aggregates a tensor's gradients that way (AddN), and in
    float16 the order of the additions shows in the result. A `RowSlices` contribution stays rows
    when all of a key's contributions are rows (TF's IndexedSlices aggregation), else is scattered."""

    def __init__(self, b, seeds: dict):
        self.b = b
        self.parts: dict[int, list] = {k: [((-1, 0), v)] for k, v in seeds.items()}

    def add(self, key: int, position: tuple[int, int], g) -> None:
        self.parts.setdefault(key, []).append((position, g))

    def get(self, key: int | None, keep_rows: bool = False):
        parts = self.parts.get(key) if key is not None else None
        if not parts:
            return None
        parts.sort(key=lambda p: p[0])
        if all(isinstance(g, RowSlices) for _, g in parts):
            rows = RowSlices(self.b, [pc for _, g in parts for pc in g.parts])
            if keep_rows:
                return rows
            parts[:] = [(parts[0][0], rows.dense())]
        elif any(isinstance(g, RowSlices) for _, g in parts):
            parts[:] = [(pos, g.dense() if isinstance(g, RowSlices) else g) for pos, g in parts]
        if len(parts) > 1:
            total = parts[0][1]
            for _, g in parts[1:]:
                total = add(self.b, total, g)
            parts[:] = [(parts[0][0], total)]
        return parts[0][1]

    def totals(self, keep_rows: frozenset = frozenset()) -> dict:
        return {k: self.get(k, k in keep_rows) for k in list(self.parts)}


def reachable(records: list[Prim], sources: Iterable[int]) -> set[int]:
    """Keys that depend on `sources` through the records."""
    reach = set(sources)
    for p in records:
        if any(o.key in reach for o in p.operands if o.key is not None):
            reach.update(r.key for r in p.results if r.key is not None)
    return reach


def backprop(b, records: list[Prim], seeds: dict[int, RValue], sources: Iterable[int] | None = None,
             sparse: frozenset = frozenset()) -> dict:
    """Cotangents of every key reached from `seeds` (restricted to paths from `sources` when given).
    A key in `sparse` read only by row gathers gets a `RowSlices` (its rows, not scattered)."""
    cts = Cotangents(b, seeds)
    reach = reachable(records, sources) if sources is not None else None
    for index in range(len(records) - 1, -1, -1):
        p = records[index]
        if reach is not None and not any(r.key in reach for r in p.results if r.key is not None):
            continue
        outs = [cts.get(r.key) for r in p.results]
        if all(c is None for c in outs):
            continue
        rule = p.vjp or VJPS.get(p.op)
        if rule is None:
            raise NoGradientError(f"no gradient is defined for hlo.{p.op}")
        outs = [c if c is not None else zeros_like(b, r) for c, r in zip(outs, p.results)]
        if p.operands and p.operands[0].key in sparse and is_row_gather(p):
            if reach is None or p.operands[0].key in reach:
                cts.add(p.operands[0].key, (index, 0), RowSlices(b, [(p, outs[0])]))
            continue
        if p.vjp is None and p.op not in TF_CONVENTION and any(_is_complex(v) for v in (*p.operands, *p.results)):
            grads = [_conj(b, g) for g in rule(b, p, [_conj(b, c) for c in outs])]
        else:
            grads = rule(b, p, outs)
        for j, (o, g) in enumerate(zip(p.operands, grads)):
            if g is None or o.key is None or not differentiable(o.dtype):
                continue
            if reach is not None and o.key not in reach:
                continue
            cts.add(o.key, (index, j), g)
    return cts.totals(sparse)

