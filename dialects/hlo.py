"""The `hlo` dialect: StableHLO's core ops under the `hlo.` prefix.

Semantics follow ../shared/reference/stablehlo-spec.md; the textual syntax is
StableHLO's pretty syntax (generic form always accepted). The op classes live
in `dialects/hlo_ops/` by concern; this module assembles the dialect and
re-exports every op class (e.g. `hlo.AddOp`, `hlo.ReduceOp`).
"""

from xdsl.ir import Dialect

from minixla.dialects.hlo_ops import attrs, collective, contraction, control, elementwise, indexing, reduction, shape  # noqa: F401  (registers ops)
from minixla.dialects.hlo_ops.attrs import *  # noqa: F401,F403
from minixla.dialects.hlo_ops.base import HLO_OPS
from minixla.dialects.hlo_ops.collective import *  # noqa: F401,F403
from minixla.dialects.hlo_ops.contraction import *  # noqa: F401,F403
from minixla.dialects.hlo_ops.control import *  # noqa: F401,F403
from minixla.dialects.hlo_ops.elementwise import *  # noqa: F401,F403
from minixla.dialects.hlo_ops.fusion import FusionOp  # noqa: F401  (hlo.fusion: an extra op without a stablehlo twin)
from minixla.dialects.hlo_ops.indexing import *  # noqa: F401,F403
from minixla.dialects.hlo_ops.reduction import *  # noqa: F401,F403
from minixla.dialects.hlo_ops.shape import *  # noqa: F401,F403

HLO = Dialect("hlo", [*HLO_OPS.values(), FusionOp], list(vars(attrs.HLO_ATTRS).values()))

#: mnemonic -> op class, e.g. OPS["add"] is hlo.AddOp
OPS = dict(HLO_OPS)
