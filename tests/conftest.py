"""Test-session settings: verify the IR after every pass of the JIT pipeline
(off for users, where it dominates compile time; see backends/cpu/compiler.py)."""

import os

os.environ.setdefault("MINIXLA_VERIFY_EACH_PASS", "1")
os.environ["MINIXLA_CACHE_DIR"] = __import__("tempfile").mkdtemp(prefix="minixla-test-cache-")  # never the user's cache

import minixla.backends  # noqa: E402,F401  (registers the interpreter as hlo-constant-fold's evaluator)
