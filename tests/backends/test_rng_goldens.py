"""rng_bit_generator against outputs recorded from XLA (tests/golden/rng_bit_generator.json,
tests/golden/record_rng_goldens.py): the interpreter and the CPU backend give XLA's bits and new
state for Threefry and Philox, 8- to 64-bit outputs, shapes with and without an even dimension,
and a counter that carries."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from xdsl.parser import Parser

from minixla.backends import get_backend
from minixla.dialects import load_all

CASES = json.loads((Path(__file__).parent.parent / "golden" / "rng_bit_generator.json").read_text())["cases"]
MLIR_TYPES = {"uint8": "ui8", "uint16": "ui16", "uint32": "ui32", "uint64": "ui64"}


def _function(i: int, case: dict) -> str:
    shape = "x".join(map(str, case["shape"]))
    out = f"tensor<{shape + 'x' if shape else ''}{MLIR_TYPES[case['dtype']]}>"
    return (f"func.func @f{i}(%s: tensor<2xui64>) -> (tensor<2xui64>, {out}) {{\n"
            f"  %st, %r = hlo.rng_bit_generator %s, algorithm = {case['algorithm']} : "
            f"(tensor<2xui64>) -> (tensor<2xui64>, {out})\n"
            f"  func.return %st, %r : tensor<2xui64>, {out}\n}}")


def _module(cases: list[dict]):
    return Parser(load_all(), "\n".join(_function(i, c) for i, c in enumerate(cases))).parse_module()


def _check(fn, case: dict) -> None:
    new_state, out = fn(np.array([int(v) for v in case["state"]], np.uint64))
    where = f"{case['algorithm']} {case['dtype']}{case['shape']} from state {case['state']}"
    assert [int(v) for v in np.asarray(new_state).reshape(-1)] == [int(v) for v in case["new_state"]], where
    out = np.asarray(out)
    assert out.shape == tuple(case["shape"]) and out.dtype == np.dtype(case["dtype"]), where
    assert out.reshape(-1).tolist() == [int(b) for b in case["bits"]], where


def test_interpreter_matches_xla_on_every_case():
    interpreter = get_backend("interpreter")
    for case in CASES:
        _check(interpreter.compile(_module([case]), "f0"), case)


#: for the CPU backend, one case per algorithm and output width, spread over the shapes and both
#: states (each is a compile); the layout code is shared with the interpreter (dialects/rng_layout.py)
CPU_CASES = [c for c in CASES if (c["algorithm"], c["dtype"], tuple(c["shape"]), c["state"][0] != "1") in {
    ("THREE_FRY", "uint32", (3, 5), False), ("THREE_FRY", "uint8", (2, 3, 4), True),
    ("THREE_FRY", "uint16", (), False), ("THREE_FRY", "uint64", (4, 3), True),
    ("PHILOX", "uint32", (3, 1, 5), True), ("PHILOX", "uint64", (5,), False),
    ("PHILOX", "uint8", (1, 7), False), ("PHILOX", "uint16", (4, 3), True)}]


@pytest.mark.parametrize("case", CPU_CASES, ids=lambda c: f"{c['algorithm']}-{c['dtype']}-{c['shape']}")
def test_cpu_matches_xla(case):
    _check(get_backend("cpu").compile(_module([case]), "f0"), case)


def test_the_cpu_sample_covers_both_algorithms_and_every_width():
    assert len(CPU_CASES) == 8
    assert {(c["algorithm"], c["dtype"]) for c in CPU_CASES} == {(c["algorithm"], c["dtype"]) for c in CASES}
