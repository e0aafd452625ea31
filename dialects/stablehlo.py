"""The `stablehlo` dialect: the interchange spelling of `hlo`.

Every `hlo` op and attribute has a `stablehlo` twin with the same structure,
syntax and verifier, so text printed by JAX (`jax.jit(f).lower(x).as_text()`)
and the StableHLO test suite parse unchanged. The passes
`stablehlo-legalize-to-hlo` and `hlo-legalize-to-stablehlo` (passes/) rename
ops and attributes 1:1.
"""

from xdsl.ir import Dialect

from minixla.dialects import hlo  # noqa: F401  (defines the raw op classes)
from minixla.dialects.hlo_ops.attrs import define_attributes
from minixla.dialects.hlo_ops.base import RAW_OPS, make_twin

STABLEHLO_ATTRS = define_attributes("stablehlo")

#: mnemonic -> stablehlo op class
OPS = {mnemonic: make_twin(mnemonic, "stablehlo") for mnemonic in RAW_OPS}

STABLEHLO = Dialect("stablehlo", list(OPS.values()), list(vars(STABLEHLO_ATTRS).values()))
