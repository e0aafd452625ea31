"""The `xdsl.universe` plugin: lets stock `xdsl-opt` read minixla's dialects
and run its passes (`pip install -e .` registers it from pyproject.toml)."""

from __future__ import annotations

from xdsl.ir import Dialect
from xdsl.universe import Universe

from minixla.passes import get_all_passes


def _dialect(attr: str, module: str):
    def factory() -> Dialect:
        from importlib import import_module

        import_module("minixla.dialects.xdsl_fixes")  # MLIR's hex float literals
        return getattr(import_module(module), attr)

    return factory


def _our_passes():
    """Ours minus those named like an upstream pass (xDSL rejects duplicates)."""
    from xdsl.transforms import get_all_passes as upstream

    taken = set(upstream())
    return {name: factory for name, factory in get_all_passes().items() if name not in taken}


MINIXLA_UNIVERSE = Universe(
    all_dialects={
        "hlo": _dialect("HLO", "minixla.dialects.hlo"),
        "stablehlo": _dialect("STABLEHLO", "minixla.dialects.stablehlo"),
        "check": _dialect("CHECK", "minixla.dialects.check"),
        "tf_type": _dialect("TF_TYPE", "minixla.dialects.tf"),
    },
    all_passes=_our_passes(),
)
