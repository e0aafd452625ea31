"""Test-session settings: verify the IR after every pass of the JIT pipeline
(off for users, where it dominates compile time; see backends/cpu/compiler.py)."""

import os

os.environ.setdefault("MINIXLA_VERIFY_EACH_PASS", "1")

import minixla.backends  # noqa: E402,F401  (registers the interpreter as hlo-constant-fold's evaluator)
