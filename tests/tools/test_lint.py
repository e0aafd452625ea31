"""ruff (the rule set in pyproject.toml) over the whole repository, and mypy over the modules
listed in [tool.mypy] files; both are in the `test` extra, so CI runs them."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from tests.paths import REPO_ROOT


def _tool(name: str) -> str | None:
    return shutil.which(name, path=os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""))


@pytest.mark.skipif(_tool("ruff") is None, reason="ruff is not installed (pip install -e '.[test]')")
def test_ruff_is_clean():
    proc = subprocess.run([_tool("ruff"), "check", "--output-format", "concise", "."], cwd=REPO_ROOT,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout[-6000:] + proc.stderr[-2000:]


@pytest.mark.skipif(_tool("mypy") is None, reason="mypy is not installed (pip install -e '.[test]')")
def test_mypy_is_clean_on_the_typed_modules():
    proc = subprocess.run([_tool("mypy")], cwd=REPO_ROOT, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-6000:] + proc.stderr[-2000:]
