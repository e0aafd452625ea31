"""`isinstance(x, SomeOp)` and `isinstance(x, SomeAttr)` answered from the class's MRO.

xDSL's `Operation` and `Attribute` are ABCs. `ABCMeta` answers a negative check that its caches do
not hold by asking every subclass in turn, recursively: the first `isinstance(a_tuple, Operation)`
(xDSL's op builders ask it of every variadic operand list) walks all ~400 op classes, and so does the
first check of each other non-op type (a location, a block, a list): ~5 ms of the running example's
first call (docs/compile-time.md, "Session 10"). Neither xDSL nor minixla registers virtual
subclasses (`ABCMeta.register`) of these classes, so the answer is exactly whether the class is in
the MRO: `install()` (run once when `minixla.dialects` is imported) gives both roots a
`__subclasshook__` that says so (tests/dialects/test_abc_checks.py checks that no class of either
hierarchy has virtual subclasses). A class with virtual subclasses of its own (a user's `register`
call) keeps ABCMeta's answer; one registered on a subclass is not seen through the root.
"""

from __future__ import annotations

import abc

from xdsl.ir import Attribute, Operation

ROOTS = (Operation, Attribute)


_registry = getattr(abc, "_get_dump", None)  # CPython's C ABCs: (registry, cache, negative cache, version)


def _from_mro(cls, subclass):
    if _registry is None or _registry(cls)[0]:  # virtual subclasses (or unknown): ABCMeta's own walk
        return NotImplemented
    return cls in getattr(subclass, "__mro__", ())


def install() -> None:
    for root in ROOTS:
        if "__subclasshook__" not in vars(root):
            root.__subclasshook__ = classmethod(_from_mro)
