"""minixla's dialects. `load_all(ctx)` makes a context that reads everything the
project's tools accept: our dialects plus xDSL's upstream ones."""

from __future__ import annotations

from xdsl.context import Context


def load_all(ctx: Context | None = None) -> Context:
    """Register hlo, stablehlo, check and the upstream dialects (lazily)."""
    from xdsl.dialects import get_all_dialects

    from . import xdsl_fixes  # noqa: F401
    from .check import CHECK
    from .hlo import HLO
    from .stablehlo import STABLEHLO

    ctx = ctx or Context()
    for dialect in (HLO, STABLEHLO, CHECK):
        if dialect.name not in ctx.registered_dialect_names:
            ctx.load_dialect(dialect)
    for name, factory in get_all_dialects().items():
        if name not in ctx.registered_dialect_names:
            ctx.register_dialect(name, factory)
    return ctx
