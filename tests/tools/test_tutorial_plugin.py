"""The tutorial's plugin package (examples/tutorial, installed by the README's install command):
its own pytest and FileCheck suites, through the entry points a third-party plugin uses."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys

import pytest

from tests.paths import REPO_ROOT

TUTORIAL = REPO_ROOT / "examples" / "tutorial"
pytestmark = pytest.mark.skipif(importlib.util.find_spec("minixla_toy") is None,
                                reason="the tutorial plugin is not installed: pip install -e examples/tutorial")


def test_plugin_pytest_suite():
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(TUTORIAL / "tests")],
                          cwd=REPO_ROOT, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert " passed" in proc.stdout


def test_plugin_filecheck_suite():
    lit = shutil.which("lit", path=os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""))
    cmd = [lit] if lit else [sys.executable, "-m", "lit.main"]
    proc = subprocess.run([*cmd, "-v", str(TUTORIAL / "filecheck")], cwd=REPO_ROOT, capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert "Passed: 4" in proc.stdout or "Passed     : 4" in proc.stdout or proc.stdout.count("PASS:") == 4


def test_minixla_opt_lists_the_plugin():
    proc = subprocess.run([sys.executable, "-m", "minixla.tools.opt", "--list-passes"], capture_output=True,
                          text=True, timeout=120)
    assert "toy-fold-scales" in proc.stdout and "[minixla-toy]" in proc.stdout
