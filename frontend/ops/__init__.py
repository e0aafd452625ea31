"""The TF op registry (`REGISTRY`), filled by the rule modules imported here."""

from . import array_ops, creation_ops, host_ops, math_ops, nn_ops, reduction_ops, xla_ops, conv_ops, control_flow_ops, index_ops, random_ops, p1_math_ops  # noqa: F401
from . import p1_nn_ops  # noqa: F401,E402  (P1 nn/random ops, wt-p1nn)
from . import p1_control_ops  # noqa: F401,E402  (P1 control ops, wt-p1ctl)
from .registry import REGISTRY, OpDef, get, register

__all__ = ["REGISTRY", "OpDef", "get", "register"]
