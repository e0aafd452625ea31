"""`tf-legalize-to-hlo`: the `tf` dialect onto `hlo`, the tf2xla bridge as a pass.

The decomposition rule of each TF op is TensorFlow's semantics and lives with the
frontend's op table (frontend/ops/, frontend/legalize.py); the frontend registers
its legalizer here when it is imported (`register_tf_legalizer`), so this pass, like
the whole passes layer, depends on nothing above it. `minixla-opt` imports the
frontend, so `-p tf-legalize-to-hlo` works there as in Python.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

#: rewrites every `tf.*` op of a module into `hlo` ops, in place
TfLegalizer = Callable[[ModuleOp], object]
_LEGALIZERS: list[TfLegalizer] = []


def register_tf_legalizer(legalize: TfLegalizer) -> None:
    """Install the TF op rules (the last registered wins)."""
    _LEGALIZERS.append(legalize)


@dataclass(frozen=True)
class TfLegalizeToHlo(ModulePass):
    """Lower the `tf` dialect to `hlo` with the registered decomposition rules."""

    name = "tf-legalize-to-hlo"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if not _LEGALIZERS:
            raise PassFailedException("tf-legalize-to-hlo needs the TF op rules: import minixla.frontend "
                                      "(minixla-opt does)")
        _LEGALIZERS[-1](op)
