"""StableHLO's interpreter test suite (../shared/reference/stablehlo-interpret)
through minixla: the in-scope cases must pass at least the recorded floor
(tests/conformance_floor.json) and at a rate of at least 95%. The failing
cases and their reasons are listed in docs/conformance.md."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from minixla.tools.conformance import REFERENCE_DIR, reference_files, run_conformance

FLOORS = {k: v for k, v in json.loads((Path(__file__).parent / "conformance_floor.json").read_text()).items()
          if not k.startswith("_")}
MIN_RATE = 0.95

pytestmark = pytest.mark.skipif(not REFERENCE_DIR.is_dir() or not reference_files(),
                                reason=f"no StableHLO reference tests at {REFERENCE_DIR}")


def _available(backend: str) -> bool:
    from minixla.backends import available_backends

    return backend in available_backends()


@pytest.fixture(scope="module", params=sorted(FLOORS))
def run(request):
    if not _available(request.param):
        pytest.skip(f"backend {request.param} is not available")
    return run_conformance(request.param)


def test_pass_count_at_least_floor(run):
    failures = "\n".join(f"  {r.file} {r.name}: {r.reason}" for r in run.failures)
    assert run.passed >= FLOORS[run.backend], (
        f"{run.backend}: {run.passed} in-scope cases pass, floor is {FLOORS[run.backend]}; failing:\n{failures}")


def test_pass_rate(run):
    assert run.results, "no in-scope cases found"
    assert run.rate >= MIN_RATE, f"{run.backend}: pass rate {run.rate:.1%} < {MIN_RATE:.0%}"


def test_scope_is_not_trivial(run):
    # the scan must keep finding every case, and both kinds where there are both: the interpreter
    # runs all 513 since issue 13's types landed; compiled backends leave out run_parallel and tokens
    assert len(run.results) >= 250 and len(run.results) + len(run.out_of_scope) >= 500
    if run.backend != "interpreter":
        assert len(run.out_of_scope) >= 10
