"""minixla benchmarks: `python -m benchmarks.run [--quick]` (see run.py)."""
