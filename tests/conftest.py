"""Test-session settings: verify the IR after every pass of the JIT pipeline
(off for users, where it dominates compile time; see backends/cpu/compiler.py)."""

import os

os.environ.setdefault("MINIXLA_VERIFY_EACH_PASS", "1")
os.environ["MINIXLA_CACHE_DIR"] = __import__("tempfile").mkdtemp(prefix="minixla-test-cache-")  # never the user's cache

import minixla.backends  # noqa: E402,F401  (hlo-constant-fold's evaluator: the interpreter, on first fold)


#: parametrized cases kept out of the default run for CI's 20-minute budget (`python -m pytest -m slow`
#: runs them): each is a jit compile of 15-50 s whose eager twin, and a smaller jit case of the same
#: layer or op, stay in the default run
SLOW_CASES = (
    "test_masking.py::test_masked_model_matches_keras[jit-embed_bidirectional_seq]",
    "test_masking.py::test_masked_model_matches_keras[jit-embed_bidirectional]",
    "test_masking.py::test_masked_model_matches_keras[jit-embed_gru_seq_pool]",
    "test_layers_golden.py::test_layer_matches_keras[jit-bidirectional_lstm]",
    "test_layers_golden.py::test_layer_matches_keras[jit-bidirectional_gru_sum]",
    "test_goldens.py::test_forward_against_tensorflow[rng_p1_trunc_normal_f16-jit]",
    "test_goldens.py::test_forward_against_tensorflow[rng_p1_trunc_normal_f64-jit]",
    "test_ops.py::test_op_against_numpy[rng_p1_trunc_normal_f16-jit]",
    "test_ops.py::test_op_against_numpy[rng_p1_trunc_normal_f64-jit]",
    "test_masking.py::test_masked_model_matches_keras[jit-embed_lstm]",
)


def pytest_collection_modifyitems(config, items):
    import pytest

    for item in items:
        if item.nodeid.endswith(SLOW_CASES):
            item.add_marker(pytest.mark.slow)
