"""The interpreter's op table: op name -> numpy implementation.

The `ops_*` modules fill it with `@impl("hlo.x")` when the package is imported
(backends/interpreter/__init__.py); the evaluator only reads it, so neither
imports the other.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from xdsl.ir import Operation

#: impl(op, operand_arrays, interpreter) -> array | sequence of arrays | None
OpImpl = Callable[[Operation, list[np.ndarray], Any], Any]

#: op name -> implementation; filled by the `ops_*` modules
OP_IMPLS: dict[str, OpImpl] = {}

TERMINATORS = frozenset({"func.return", "hlo.return"})

_ALIASES = {"stablehlo.": "hlo."}


def impl(*names: str) -> Callable[[OpImpl], OpImpl]:
    """Register an implementation under one or more op names."""

    def register(fn: OpImpl) -> OpImpl:
        for name in names:
            OP_IMPLS[name] = fn
        return fn

    return register


def canonical_name(name: str) -> str:
    for prefix, target in _ALIASES.items():
        if name.startswith(prefix):
            return target + name[len(prefix):]
    return name
