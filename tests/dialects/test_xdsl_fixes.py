"""dialects/xdsl_fixes.py patches only what the pinned xDSL still gets wrong: each fix has a probe
here that shows stock xDSL's behaviour (so the fix is dropped once xDSL is fixed) and ours."""

from __future__ import annotations

import subprocess
import sys

import numpy as np

PROBE = """
from xdsl.context import Context
from xdsl.dialects.builtin import Builtin
from xdsl.parser import Parser
ctx = Context(); ctx.load_dialect(Builtin)
attr = Parser(ctx, "dense<0x7F800000> : tensor<f32>").parse_attribute()
print(attr.get_values()[0])
"""


def test_hex_float_literals_still_need_the_fix():
    stock = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=120)
    assert stock.returncode == 0, stock.stderr
    assert float(stock.stdout) == 2139095040.0  # stock xDSL: the integer's value, not the bit pattern


def test_hex_float_literals_are_bit_patterns_with_the_fix():
    from xdsl.parser import Parser

    from minixla.dialects import load_all
    from minixla.dialects.numpy_types import dense_attr_to_numpy

    for text, want in (("dense<0x7F800000> : tensor<f32>", np.inf), ("dense<0x7C00> : tensor<f16>", np.inf),
                       ("dense<0x0001> : tensor<bf16>", 9.183549615799121e-41)):
        value = dense_attr_to_numpy(Parser(load_all(), text).parse_attribute())
        assert float(value) == want, text
