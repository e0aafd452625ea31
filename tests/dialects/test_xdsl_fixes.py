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


COMPLEX_PROBE = """
from xdsl.context import Context
from xdsl.dialects.builtin import Builtin
from xdsl.parser import Parser
ctx = Context(); ctx.load_dialect(Builtin)
attr = Parser(ctx, "dense<(0x7FF8000000000000, 0x8000000000000000)> : tensor<complex<f64>>").parse_attribute()
print(attr.get_values()[0][0])
try:
    Parser(ctx, "dense<(0x7FF8000000000000, 1.0)> : tensor<complex<f64>>").parse_attribute()
    print("mixed ok")
except Exception:
    print("mixed rejected")
"""


def test_complex_hex_literals_still_need_the_fix():
    stock = subprocess.run([sys.executable, "-c", COMPLEX_PROBE], capture_output=True, text=True, timeout=120)
    assert stock.returncode == 0, stock.stderr
    first, mixed = stock.stdout.split("\n")[:2]
    assert float(first) == float(0x7FF8000000000000) and mixed == "mixed rejected"


def test_complex_hex_parts_are_bit_patterns_and_mix_with_decimals():
    from xdsl.parser import Parser

    from minixla.dialects import load_all
    from minixla.dialects.numpy_types import dense_attr_to_numpy

    text = "dense<[(0x7FF8000000000001, 0x8000000000000000), (0x7f800000, 2.5)]> : tensor<2xcomplex<f64>>"
    value = dense_attr_to_numpy(Parser(load_all(), text).parse_attribute())
    assert np.isnan(value[0].real) and value[0].imag == 0 and np.signbit(value[0].imag)
    assert value[1].real == np.array(0x7F800000, np.uint64).view(np.float64) and value[1].imag == 2.5  # f64 bits
    printed = str(Parser(load_all(), text).parse_attribute())  # xDSL prints NaN parts in hex: it reads back
    again = dense_attr_to_numpy(Parser(load_all(), printed).parse_attribute())
    np.testing.assert_array_equal(again.view(np.uint64), value.view(np.uint64))
