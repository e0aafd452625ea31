"""hlo.fft has no linalg form: it stays `hlo.fft` on tensors (stablehlo.fft becomes hlo.fft),
and `bufferize` turns it into calls of the compiled FFT kernel on its buffers
(passes/bufferize/fft.py): an O(n log n) transform is a library call, as a gemm is,
not a loop nest."""

from __future__ import annotations

from xdsl.ir import SSAValue

from minixla.dialects import hlo
from minixla.dialects.hlo_ops.attrs import HLO_ATTRS
from minixla.passes.hlo_to_linalg.translate import Lowerer, lowering


@lowering(hlo.FftOp)
def _fft(lw: Lowerer, op: hlo.FftOp) -> list[SSAValue]:
    new = hlo.FftOp.create(operands=[lw.v(op.operand)], result_types=[op.result.type],
                           properties={"fft_type": HLO_ATTRS.fft_type(op.fft_type.data),  # not #stablehlo<..>
                                       "fft_length": op.fft_length})
    lw.e.op(new)
    return [new.result]
