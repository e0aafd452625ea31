"""Replaying a case table against goldens recorded from real TensorFlow (by
tests/golden/record_tf_goldens.py --cases <table> --out <dir>): the forward results in the three
modes and the gradients, with test_goldens.py's comparison rules. Used by the per-namespace golden
tests (tf.image, tf.linalg)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from minixla.frontend import tf
from tests.frontend.test_goldens import _close, _flat, _gradient, _gradient_traced, _inputs, _seq

__all__ = ["load", "has_gradient", "check_forward", "check_gradient", "_inputs"]


def load(golden: Path, name: str, table: str) -> dict:
    path = golden / f"{name}.npz"
    if not path.exists():
        pytest.skip(f"no golden for {name}: run tests/golden/record_tf_goldens.py --cases {table} "
                    f"--out {golden} --only {name}")
    with np.load(path, allow_pickle=False) as data:
        return {k: data[k] for k in data.files}


def has_gradient(golden: Path, name: str) -> bool:
    path = golden / f"{name}.npz"
    return path.exists() and "grad_none" in np.load(path).files


def check_forward(data: dict, fn, name: str, mode: str, tol: float, eager_stream: bool = False) -> None:
    tensors = [tf.constant(a) for a in _inputs(data)]
    if mode == "eager":
        got = fn(tf, *tensors)
    else:
        got = tf.function(lambda *a: fn(tf, *a), jit_compile=(mode == "jit"))(*tensors)
    want, _ = _seq(data, "output")
    alts = _seq(data, "jit_output")[0] if mode == "jit" and not eager_stream else []
    got = _flat(got)
    assert len(got) == len(want)
    for k, (g, w) in enumerate(zip(got, want)):
        _close(g.numpy(), w, tol, f"{name} output {k} ({mode})", alts[k] if k < len(alts) else None)


def check_gradient(data: dict, fn, name: str, mode: str, tol: float) -> None:
    inputs = _inputs(data)
    float_in = [i for i, a in enumerate(inputs) if a.dtype.kind == "f"]
    ups, _ = _seq(data, "upstream")
    grads = (_gradient(fn, inputs, float_in, ups) if mode == "eager"
             else _gradient_traced(fn, inputs, float_in, ups, jit=(mode == "jit")))
    none = set(data["grad_none"].tolist())
    for i, g in zip(float_in, grads):
        if i in none:
            assert g is None, f"{name}: TensorFlow's gradient w.r.t. input {i} is None, got {g}"
        else:
            assert g is not None, f"{name}: gradient w.r.t. input {i} is None, TensorFlow's is not"
            _close(g.numpy(), data[f"grad_{i}"], tol, f"{name} d/d input {i} ({mode})",
                   data.get(f"jit_grad_{i}") if mode == "jit" else None)
