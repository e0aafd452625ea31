"""Every P0 API of the shared priority list (priority_ops.md, read at run
time; skipped where the reference is absent) resolves on our `tf` module."""

from __future__ import annotations

import re

import pytest

from minixla.frontend import tf
from tests.paths import SHARED

PRIORITY = SHARED / "reference" / "tensorflow" / "priority_ops.md"
ROW = re.compile(r"^\|\s*\d+\s*\|\s*`(tf\.[^`]+)`\s*\|\s*(P\d)\s*\|")


def _apis(prio: str) -> list[str]:
    if not PRIORITY.exists():
        return []
    return [m.group(1) for line in PRIORITY.read_text().splitlines() if (m := ROW.match(line)) and m.group(2) == prio]


def test_priority_list_parses():
    if not PRIORITY.exists():
        pytest.skip("priority_ops.md not available")
    assert len(_apis("P0")) > 100  # the list states 119 P0 rows; a format change must not pass vacuously


@pytest.mark.parametrize("api", _apis("P0") or [pytest.param(None, marks=pytest.mark.skip("no priority list"))])
def test_p0_api_resolves(api):
    obj = tf
    for part in api.split(".")[1:]:
        assert hasattr(obj, part), f"{api}: no attribute {part!r} on {obj!r}"
        obj = getattr(obj, part)
    assert callable(obj) or isinstance(obj, type), f"{api} is not callable"
