"""`python -m benchmarks.run --quick` runs end to end and writes its report.
Timings are machine-dependent: only that they exist and are positive is checked."""

import re
import subprocess
import sys
from tests.paths import REPO_ROOT

ROOT = REPO_ROOT


def test_quick_benchmark_writes_report(tmp_path):
    out = tmp_path / "results.md"
    proc = subprocess.run([sys.executable, "-m", "benchmarks.run", "--quick", "--out", str(out)],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    text = out.read_text()
    assert text.strip() in proc.stdout
    for section in ("Read bandwidth", "Running example", "Dispatch", "Compile time", "Matmul", "Convolution", "Peak memory"):
        assert f"## {section}" in text
    assert "minixla `jit_compile=True`" in text and "numpy eager" in text
    rows = [line for line in text.splitlines() if line.startswith("| ") and not line.startswith("| ---")]
    numbers = [float(x) for line in rows for x in re.findall(r"(?<![\w.])(\d+\.\d+)(?=\s*(?:ms|us|s|x|%|\s*\|))", line)]
    assert numbers and all(v >= 0 for v in numbers)
    assert re.search(r"\*\*(\d+\.\d) GB/s\*\*", text) and float(re.search(r"\*\*(\d+\.\d) GB/s\*\*", text)[1]) > 0
    conv_row = next(line for line in text.splitlines() if line.startswith("| ") and " * 3x3x" in line)
    assert float(conv_row.rstrip(" |").rsplit("| ", 1)[1]) < 1e-4  # conv vs numpy's shifted-matmul oracle
    for ratio in re.findall(r"\| (\d+\.\d+)x \|", text):
        assert float(ratio) > 0
