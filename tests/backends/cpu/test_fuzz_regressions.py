"""Programs the differential fuzzer (minixla.tools.fuzz) found, shrunk: each must compile for the
CPU and agree with the reference interpreter on the fuzzer's seeded inputs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from xdsl.parser import Parser

from minixla.dialects import load_all
from minixla.tools import fuzz

CASES = sorted((Path(__file__).parent / "fuzz_regressions").glob("*.mlir"))


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_fuzz_regression_agrees_with_the_interpreter(path):
    text = path.read_text()
    found = re.search(r"minixla fuzz seed (\d+)", text)  # the inputs the fuzzer used, when it wrote the file
    module = Parser(load_all(), text, str(path)).parse_module()
    assert fuzz.mismatch(module, seed=int(found.group(1)) if found else 0) is None
