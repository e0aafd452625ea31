"""The `hlo` dialect: StableHLO's core ops under the `hlo.` prefix.

Semantics follow ../shared/reference/stablehlo-spec.md; the textual syntax is
StableHLO's pretty syntax (generic form always accepted). The op classes live
in `dialects/hlo_ops/` by concern; this module assembles the dialect and
re-exports every op class (e.g. `hlo.AddOp`, `hlo.ReduceOp`).
"""

from xdsl.ir import Dialect

from minixla.dialects.hlo_ops import attrs
from minixla.dialects.hlo_ops.base import HLO_OPS
from minixla.dialects.hlo_ops.collective import (
    AfterAllOp, AllGatherOp, AllReduceOp, AllToAllOp, CollectiveBroadcastOp, CollectivePermuteOp,
    CollectiveReduceOp, InfeedOp, OutfeedOp, PartitionIdOp, RecvOp, ReduceScatterOp, ReplicaIdOp, SendOp,
)
from minixla.dialects.hlo_ops.complex_parts import ComplexOp, ImagOp, RealOp
from minixla.dialects.hlo_ops.contraction import (
    ConvolutionOp, DotGeneralOp,
)
from minixla.dialects.hlo_ops.control import (
    CaseOp, IfOp, OptimizationBarrierOp, ReturnOp, RngBitGeneratorOp, WhileOp,
)
from minixla.dialects.hlo_ops.elementwise import (
    AbsOp, AddOp, AndOp, Atan2Op, BitcastConvertOp, CbrtOp, CeilOp, ClampOp, CompareOp, ConvertOp, CosineOp,
    CountLeadingZerosOp, DivideOp, ExpOp, Expm1Op, FloorOp, IsFiniteOp, Log1pOp, LogOp, LogisticOp, MaximumOp,
    MinimumOp, MultiplyOp, NegateOp, NotOp, OrOp, PopcntOp, PowerOp, ReducePrecisionOp, RemainderOp,
    RoundNearestAfzOp, RoundNearestEvenOp, RsqrtOp, SelectOp, ShiftLeftOp, ShiftRightArithmeticOp,
    ShiftRightLogicalOp, SignOp, SineOp, SqrtOp, SubtractOp, TanOp, TanhOp, XorOp,
)
from minixla.dialects.hlo_ops.fft import FftOp
from minixla.dialects.hlo_ops.indexing import (
    GatherOp, ScatterOp,
)
from minixla.dialects.hlo_ops.linalg import CholeskyOp, TriangularSolveOp
from minixla.dialects.hlo_ops.reduction import (
    ReduceOp, ReduceWindowOp, SelectAndScatterOp, SortOp,
)
from minixla.dialects.hlo_ops.shape import (
    BroadcastInDimOp, ConcatenateOp, ConstantOp, DynamicSliceOp, DynamicUpdateSliceOp, IotaOp, PadOp,
    ReshapeOp, ReverseOp, SliceOp, TransposeOp,
)
from minixla.dialects.hlo_ops.structural import (
    CompositeOp, DynamicBroadcastInDimOp, DynamicConvOp, DynamicGatherOp, DynamicIotaOp, DynamicPadOp,
    DynamicReshapeOp, GetDimensionSizeOp, GetTupleElementOp, MapOp, TupleOp,
)
from minixla.dialects.hlo_ops.quantization import UniformDequantizeOp, UniformQuantizeOp
from minixla.dialects.hlo_ops import canonicalization  # noqa: F401  (registers the ops' canonicalization patterns)
from minixla.dialects.hlo_ops.fusion import FusionOp  # hlo.fusion: an extra op without a stablehlo twin

HLO = Dialect("hlo", [*HLO_OPS.values(), FusionOp], list(vars(attrs.HLO_ATTRS).values()))

#: mnemonic -> op class, e.g. OPS["add"] is hlo.AddOp
OPS = dict(HLO_OPS)

__all__ = ["HLO", "OPS", "FusionOp",
           "AbsOp",
           "AddOp",
           "AfterAllOp",
           "AllGatherOp",
           "AllReduceOp",
           "AllToAllOp",
           "AndOp",
           "Atan2Op",
           "BitcastConvertOp",
           "BroadcastInDimOp",
           "CaseOp",
           "CeilOp",
           "CholeskyOp",
           "ClampOp",
           "CollectiveBroadcastOp",
           "CollectivePermuteOp",
           "CollectiveReduceOp",
           "CompareOp",
           "ComplexOp",
           "ConcatenateOp",
           "ConstantOp",
           "ConvertOp",
           "ConvolutionOp",
           "CosineOp",
           "DivideOp",
           "DotGeneralOp",
           "DynamicSliceOp",
           "DynamicUpdateSliceOp",
           "ExpOp",
           "FftOp",
           "Expm1Op",
           "FloorOp",
           "GatherOp",
           "IfOp",
           "ImagOp",
           "InfeedOp",
           "IotaOp",
           "IsFiniteOp",
           "Log1pOp",
           "LogOp",
           "LogisticOp",
           "MaximumOp",
           "MinimumOp",
           "MultiplyOp",
           "NegateOp",
           "NotOp",
           "OptimizationBarrierOp",
           "OrOp",
           "OutfeedOp",
           "PadOp",
           "PartitionIdOp",
           "PowerOp",
           "RealOp",
           "RecvOp",
           "ReduceOp",
           "ReduceScatterOp",
           "ReduceWindowOp",
           "RemainderOp",
           "ReplicaIdOp",
           "ReshapeOp",
           "ReturnOp",
           "ReverseOp",
           "RngBitGeneratorOp",
           "RoundNearestEvenOp",
           "RsqrtOp",
           "ScatterOp",
           "SelectAndScatterOp",
           "SelectOp",
           "SendOp",
           "ShiftLeftOp",
           "ShiftRightArithmeticOp",
           "ShiftRightLogicalOp",
           "SignOp",
           "SineOp",
           "SliceOp",
           "SortOp",
           "SqrtOp",
           "SubtractOp",
           "TanhOp",
           "TransposeOp",
           "TriangularSolveOp",
           "WhileOp",
           "CbrtOp",
           "CountLeadingZerosOp",
           "PopcntOp",
           "ReducePrecisionOp",
           "RoundNearestAfzOp",
           "TanOp",
           "XorOp",
           "CompositeOp",
           "DynamicBroadcastInDimOp",
           "DynamicConvOp",
           "DynamicGatherOp",
           "DynamicIotaOp",
           "DynamicPadOp",
           "DynamicReshapeOp",
           "GetDimensionSizeOp",
           "GetTupleElementOp",
           "MapOp",
           "TupleOp",
           "UniformDequantizeOp",
           "UniformQuantizeOp",
           ]
