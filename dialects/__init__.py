"""minixla's dialects. `load_all(ctx)` makes a context that reads everything the
project's tools accept: our dialects plus xDSL's upstream ones."""


from __future__ import annotations

if __name__ != "minixla.dialects":  # the folder is mapped under the import root; see minixla/__init__.py
    raise ImportError("import minixla's dialects as `minixla.dialects` (pip install -e . from the repository root)")

from xdsl.context import Context

from minixla.dialects import abc_checks as _abc_checks
from minixla.dialects import lazy_formats as _lazy_formats
from minixla.dialects import op_definitions as _op_definitions

_lazy_formats.install()  # before any of our dialects or xDSL's lowering dialects is built
_abc_checks.install()  # isinstance(x, Operation / Attribute) without walking every subclass
_op_definitions.install()  # xDSL's OpDef.from_pyrdl without its per-field overheads

#: a unit attribute of a module: its compiled code runs with denormals flushed to zero (x86: MXCSR's FTZ
#: and DAZ set while it runs, as TensorFlow's and XLA's CPU threads have them). The `tf` frontend sets it;
#: a module without it computes IEEE denormals (what StableHLO's reference interpreter does)
FLUSH_DENORMALS = "minixla.flush_denormals"


def load_all(ctx: Context | None = None) -> Context:
    """Register hlo, stablehlo, check and the upstream dialects (lazily)."""
    from xdsl.dialects import get_all_dialects

    from minixla.dialects import xdsl_fixes  # noqa: F401
    from minixla.dialects.hlo import HLO

    ctx = ctx or Context()
    if HLO.name not in ctx.registered_dialect_names:
        ctx.load_dialect(HLO)
    # loaded when first parsed: building stablehlo's ~100 twin op classes took ~15 ms of every
    # process's first compile, which never meets a stablehlo, check or interpreter op
    for name, factory in _own_dialects().items():
        if name not in ctx.registered_dialect_names:
            ctx.register_dialect(name, factory)
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
    from minixla.dialects.plugins import entry_points_of

    def factory(ep):
        def load():
            try:
                target = ep.load()
                return target() if callable(target) and not hasattr(target, "operations") else target
            except Exception as err:  # noqa: BLE001 -- reported with the plugin's name
                raise ValueError(f"plugin dialect '{ep.name}' ({ep.value}) cannot be loaded: {err}") from err

        return load

    return {ep.name: factory(ep) for ep in entry_points_of(ENTRY_POINT_GROUP)}


def _own_dialects():
    def stablehlo():
        from minixla.dialects.stablehlo import STABLEHLO

        return STABLEHLO

    def check():
        from minixla.dialects.check import CHECK

        return CHECK

    def interpreter():
        from minixla.dialects.interpreter import INTERPRETER

        return INTERPRETER

    def quant():
        from minixla.dialects.quant import QUANT

        return QUANT

    return {"stablehlo": stablehlo, "check": check, "interpreter": interpreter, "quant": quant}


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
