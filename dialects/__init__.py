"""minixla's dialects. `load_all(ctx)` makes a context that reads everything the
project's tools accept: our dialects plus xDSL's upstream ones."""


from __future__ import annotations

if __name__ != "minixla.dialects":  # the folder is mapped under the import root; see minixla/__init__.py
    raise ImportError("import minixla's dialects as `minixla.dialects` (pip install -e . from the repository root)")

from xdsl.context import Context


def load_all(ctx: Context | None = None) -> Context:
    """Register hlo, stablehlo, check and the upstream dialects (lazily)."""
    from xdsl.dialects import get_all_dialects

    from minixla.dialects import xdsl_fixes  # noqa: F401
    from minixla.dialects.check import CHECK
    from minixla.dialects.hlo import HLO
    from minixla.dialects.interpreter import INTERPRETER
    from minixla.dialects.quant import QUANT
    from minixla.dialects.stablehlo import STABLEHLO

    ctx = ctx or Context()
    for dialect in (HLO, STABLEHLO, CHECK, INTERPRETER, QUANT):
        if dialect.name not in ctx.registered_dialect_names:
            ctx.load_dialect(dialect)
    # the `tf` graph dialect holds the TF ops registered so far (the frontend registers its table)
    for name, factory in _tf_dialects().items():
        if name not in ctx.registered_dialect_names:
            ctx.register_dialect(name, factory)
    for name, factory in get_all_dialects().items():
        if name not in ctx.registered_dialect_names:
            ctx.register_dialect(name, factory)
    if "nvvm" not in ctx.registered_dialect_names:  # ours (dialects/nvvm.py): xDSL has none
        ctx.register_dialect("nvvm", _nvvm)
    for name, factory in plugin_dialects().items():
        if name not in ctx.registered_dialect_names:
            ctx.register_dialect(name, factory)
    return ctx


ENTRY_POINT_GROUP = "minixla.dialects"


def plugin_dialects() -> dict:
    """Dialects of installed plugins (entry-point group `minixla.dialects`: name -> a Dialect or a
    function returning one), loaded when first used; a broken plugin warns instead of failing."""
    from importlib.metadata import entry_points

    def factory(ep):
        def load():
            try:
                target = ep.load()
                return target() if callable(target) and not hasattr(target, "operations") else target
            except Exception as err:  # noqa: BLE001 -- reported with the plugin's name
                raise ValueError(f"plugin dialect '{ep.name}' ({ep.value}) cannot be loaded: {err}") from err

        return load

    return {ep.name: factory(ep) for ep in entry_points(group=ENTRY_POINT_GROUP)}


def _nvvm():
    from minixla.dialects.nvvm import NVVM

    return NVVM


def _tf_dialects():
    def tf():
        from minixla.dialects.tf import tf_dialect

        return tf_dialect()

    def tf_type():
        from minixla.dialects.tf import TF_TYPE

        return TF_TYPE

    return {"tf": tf, "tf_type": tf_type}
