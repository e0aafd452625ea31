"""tf.sparse and tf.ragged (frontend/api/sparse_ops.py, ragged_ops.py) against real TensorFlow 2.21
(tests/golden/sparse/, recorded by `record_tf_goldens.py --cases tests/frontend/sparse_cases.py
--out tests/golden/sparse`): every case eagerly, in tf.function and under jit_compile=True, forward
and gradient w.r.t. the values.

TF has no XLA kernel for most sparse and ragged ops (SparseTensorDenseMatMul, SparseReduceSum,
RaggedTensorToTensor, ...): their recorded `jit_error` says so. minixla builds them from gathers,
scatters and segment sums with static shapes, so under jit they compile and must agree with TF's
eager result. The other way round, TF compiles `from_dense` (its Where has a dynamic XLA shape);
minixla compiles static shapes only, so that jit raises TF's unsupported-op error for `Where`.
"""

from __future__ import annotations

import numpy as np
import pytest

from minixla.frontend import tf
from tests.frontend import golden_replay as replay
from tests.frontend.sparse_cases import CASES
from tests.frontend.test_goldens import MODES, _close, _flat, _seq
from tests.paths import GOLDEN_DIR

GOLDEN = GOLDEN_DIR / "sparse"
TABLE = "tests/frontend/sparse_cases.py"
TOL = 1e-5
NAMES = sorted(CASES)
#: output size decided by the values of a traced tensor: host-side (tf.where), so jit refuses them
HOST_UNDER_JIT = {"sp_from_dense", "sp_from_dense_roundtrip", "sp_add_threshold"}
#: string inputs or results: neither TF (no XLA kernel for SparseCross/RaggedCross) nor minixla compiles them
STRINGS = {"sp_cross", "rg_cross", "sp_cross_hashed", "sp_cross_hashed_raw", "rg_cross_hashed"}


def _jit_refuses(fn, data):
    tensors = [tf.constant(a) for a in replay._inputs(data)]
    with pytest.raises(tf.errors.InvalidArgumentError, match="Detected unsupported operations") as info:
        tf.function(lambda *a: fn(tf, *a), jit_compile=True)(*tensors)
    assert "No registered 'Where' OpKernel for XLA_CPU_JIT" in str(info.value)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", NAMES)
def test_sparse_forward_against_tensorflow(name, mode):
    data = replay.load(GOLDEN, name, TABLE)
    fn = CASES[name][0]
    if mode == "jit" and name in STRINGS:
        pytest.skip("string tensors do not compile, in TF either")
    if mode == "jit" and name in HOST_UNDER_JIT:
        _jit_refuses(fn, data)
        return
    if mode == "jit" and "jit_error" in data:  # TF cannot compile it; minixla does: TF's eager result
        tensors = [tf.constant(a) for a in replay._inputs(data)]
        got = _flat(tf.function(lambda *a: fn(tf, *a), jit_compile=True)(*tensors))
        want, _ = _seq(data, "output")
        assert len(got) == len(want)
        for k, (g, w) in enumerate(zip(got, want)):
            _close(g.numpy(), w, TOL, f"{name} output {k} (jit)", None)
        return
    replay.check_forward(data, fn, name, mode, TOL)


#: TF registers no gradient for SparseConcat (None w.r.t. the values); minixla's concat is a gather of
#: the values, so it has one: test_concat_gradient_is_the_upstream_of_each_entry checks it instead
NO_TF_GRADIENT = {"sp_concat_0", "sp_concat_1", "sp_concat_expand"}
GRAD_CASES = [(n, m) for n in NAMES if replay.has_gradient(GOLDEN, n) and n not in NO_TF_GRADIENT for m in MODES
              if not (m == "jit" and n in HOST_UNDER_JIT)]


@pytest.mark.parametrize("name, mode", GRAD_CASES)
def test_sparse_gradient_against_tensorflow(name, mode):
    replay.check_gradient(replay.load(GOLDEN, name, TABLE), CASES[name][0], name, mode, 2 * TOL)


def test_concat_gradient_is_the_upstream_of_each_entry():
    a, b = tf.constant([1.0, 2.0]), tf.constant([3.0])
    up = np.arange(12, dtype=np.float32).reshape(2, 6)
    with tf.GradientTape() as tape:
        tape.watch([a, b])
        sa = tf.SparseTensor([[0, 1], [1, 2]], a, [2, 3])
        sb = tf.SparseTensor([[1, 0]], b, [2, 3])
        out = tf.sparse.to_dense(tf.sparse.concat(1, [sa, sb]))
    ga, gb = tape.gradient(out, [a, b], output_gradients=tf.constant(up))
    np.testing.assert_array_equal(ga.numpy(), [up[0, 1], up[1, 2]])
    np.testing.assert_array_equal(gb.numpy(), [up[1, 3]])
