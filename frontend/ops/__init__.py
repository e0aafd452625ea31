"""The TF op registry (`REGISTRY`), filled by the rule modules imported here."""

from minixla.frontend.ops import (  # noqa: F401  (each module registers its ops)
    array_ops, collective_ops, conv3d_random_ops, conv_ops, control_flow_ops, creation_ops, dynamic_slice_ops, host_ops, index_ops,
    host_unique_ops, math_ops, nn_ops, random_ops, reduction_ops, scatter_combine_ops, scatter_matrix_ops, xla_ops)
from minixla.frontend.ops import (  # noqa: F401,E402  (more raw ops)
    raw_alias_ops, raw_array_ops, raw_grad_ops, raw_igamma_ops, raw_image_ops, raw_linalg_ops, raw_math_ops, raw_nn_ops,
    raw_xla_ops)
from minixla.frontend.ops import raw_container_ops, raw_variable_ops  # noqa: F401,E402  (ops on state's values)
from minixla.frontend.ops import raw_misc_ops, raw_stateful_random_ops, raw_xla_misc_ops  # noqa: F401,E402,E501
from minixla.frontend.ops import raw_complex_ops  # noqa: F401,E402  (complex parts and FFTs)
from minixla.frontend.ops.registry import REGISTRY, OpDef, get, register

__all__ = ["REGISTRY", "OpDef", "get", "register"]
from minixla.frontend.ops import raw_quant_ops  # noqa: F401,E402  (uniform-quantized ops on their storage integers)
from minixla.frontend.ops import xla_call_module_ops  # noqa: F401,E402  (StableHLO modules from jax2tf)
from minixla.frontend.ops import ptn_compiled_ops  # noqa: F401,E402  (a compiled parameterized truncated normal)
from minixla.frontend.ops import string_ops  # noqa: F401,E402  (tf.strings: host-only string ops)
from minixla.frontend.ops import unicode_ops  # noqa: F401,E402  (tf.strings.unicode_*: host only)
