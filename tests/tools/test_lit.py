"""Run the lit/FileCheck suite (filecheck/) so pytest's summary counts it."""

from __future__ import annotations
from tests.paths import REPO_ROOT

import os
import shutil
import subprocess
import sys

import pytest

ROOT = REPO_ROOT


def _lit() -> list[str] | None:
    exe = shutil.which("lit", path=os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""))
    if exe:
        return [exe]
    try:
        import lit  # noqa: F401
    except ImportError:
        return None
    return [sys.executable, "-m", "lit.main"]


@pytest.mark.skipif(_lit() is None, reason="lit is not installed")
def test_lit_suite():
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    proc = subprocess.run([*_lit(), "filecheck/", "-q"], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=1500, check=False)
    assert proc.returncode == 0, f"lit failed:\n{proc.stdout[-20000:]}\n{proc.stderr[-5000:]}"
