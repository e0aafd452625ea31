"""tf.function: tracing, the compile cache and its explanations, the
retracing warning, experimental_get_compiler_ir, unsupported ops, dumps."""

from __future__ import annotations

from tests.paths import REPO_ROOT
import numpy as np
import pytest

from minixla.frontend import tf
from minixla.frontend.tracing_log import WARNING


def test_lecture_static_shapes_cache():
    """Same shapes hit the cache; a new shape recompiles."""

    @tf.function(jit_compile=True)
    def f(x, y):
        return tf.reduce_sum(x + y)

    f(tf.ones([10, 10]), tf.ones([10, 10]))
    assert f.compile_count == 1 and f.experimental_get_tracing_count() == 1
    f(tf.zeros([10, 10]), tf.zeros([10, 10]))
    assert f.why() == "cache hit" and f.compile_count == 1
    r = f(tf.ones([100, 100]), tf.ones([100, 100]))
    assert f.compile_count == 2 and float(r) == 20000.0
    assert "argument 'x' changed: tensor shape=(10, 10) dtype=float32 -> tensor shape=(100, 100)" in f.why()


def test_lecture_must_be_constant_axis():
    """argmax's axis is a compile-time constant: a new axis recompiles."""

    @tf.function(jit_compile=True)
    def f(a, axis):
        return tf.math.argmax(a, axis=axis)

    a = np.random.default_rng(0).normal(size=(10, 10)).astype(np.float32)
    np.testing.assert_array_equal(f(tf.constant(a), 0).numpy(), a.argmax(0))
    f(tf.constant(a), 0)
    assert f.why() == "cache hit" and f.compile_count == 1
    np.testing.assert_array_equal(f(tf.constant(a), 1).numpy(), a.argmax(1))
    assert f.compile_count == 2 and "argument 'axis' changed: Python value 0 -> Python value 1" in f.why()


def test_tensor_axis_is_specialized_by_value():
    """A tensor feeding a must-be-constant input is keyed by value and baked into the HLO."""

    @tf.function(jit_compile=True)
    def f(a, axis):
        return tf.math.argmax(a, axis=axis)

    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    np.testing.assert_array_equal(f(a, tf.constant(1)).numpy(), [3, 3, 3])
    np.testing.assert_array_equal(f(a, tf.constant(0)).numpy(), [2, 2, 2, 2])
    assert "must-be-constant input (compile-time constant): value 1 -> 0" in f.why()
    f(a, tf.constant(1))
    assert f.why() == "cache hit"
    hlo = f.experimental_get_compiler_ir(a, tf.constant(1))(stage="hlo")
    assert "(%0: tensor<3x4xf32>) -> tensor<3xi64>" in hlo  # axis is not a parameter


def test_reshape_shape_from_argument_is_specialized():
    @tf.function(jit_compile=True)
    def r(x, s):
        return tf.reshape(x, s)

    x = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    for shape in ([3, 2], [6, 1], [1, 6]):
        assert r(x, tf.constant(shape)).shape == shape


def test_empty_constant_shape_is_a_compile_time_constant():
    """The shape `[]` (a scalar) is an empty constant: it folds like any other, it was refused as
    "must be a compile-time constant" (an empty DenseIntOrFPElementsAttr is falsy)."""
    s = tf.constant([1, 2])
    cases = [(lambda x, s: tf.reshape(x, []), 3.0), (lambda x, s: tf.fill([], 2.0) + x[0], 5.0),
             (lambda x, s: tf.zeros([]) + x[0], 3.0), (lambda x, s: tf.broadcast_to(x[0], []), 3.0),
             (lambda x, s: tf.random.stateless_uniform([], s, minval=None, maxval=None, dtype=tf.int32), None),
             (lambda x, s: tf.random.experimental.stateless_fold_in(s, 17), None)]
    for fn, want in cases:
        x = tf.constant([3.0])
        eager = fn(x, s)
        got = tf.function(fn, jit_compile=True)(x, s)
        assert got.shape == eager.shape and got.dtype == eager.dtype
        np.testing.assert_array_equal(got.numpy(), eager.numpy())
        if want is not None:
            assert float(got) == want


def test_compile_time_constant_error():
    @tf.function(jit_compile=True)
    def g(x):
        return tf.reshape(x, tf.cast(tf.reduce_sum(x) * 0 + 6, tf.int32) * tf.ones([1], tf.int32))

    g_plain = tf.function(lambda x: x)
    g_plain(tf.ones([6]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="must be a compile-time constant"):
        g(tf.ones([2, 3]))


def test_without_jit_runs_graph_and_matches():
    def f(x, y):
        return tf.reduce_mean(tf.multiply(x ** 2, 3) + y)

    x, y = np.ones((4, 4), np.float32), np.full((4, 4), 2.0, np.float32)
    assert float(tf.function(f)(x, y)) == 5.0
    assert float(tf.function(f, jit_compile=True)(x, y)) == 5.0


def test_traced_tf_ir_is_the_tf_dialect():
    f = tf.function(lambda x, y: tf.reduce_mean(tf.multiply(x ** 2, 3) + y))
    ir = f.get_concrete_function(tf.ones([2, 3]), tf.ones([2, 3])).tf_ir
    for text in ('"tf.Pow"', '"tf.Mul"', '"tf.AddV2"', '"tf.Mean"(%6, %7) {keep_dims = false}',
                 '"tf.Const"() <{value = dense<[0, 1]> : tensor<2xi32>}>'):
        assert text in ir


def test_retracing_warning(capsys):
    def fresh():
        @tf.function
        def f(x):
            return x * 2
        return f

    for n in range(1, 7):
        fresh()(tf.ones([n]))
    err = capsys.readouterr().err
    assert "WARNING:tensorflow:5 out of the last 5 calls to <function" in err
    assert "triggered tf.function retracing. Tracing is expensive" in err
    assert WARNING.split("{}")[-1] in err


def test_no_warning_for_cache_hits(capsys):
    @tf.function
    def g(x):
        return x + 1

    for _ in range(10):
        g(tf.ones([3]))
    assert "retracing" not in capsys.readouterr().err
    assert g.experimental_get_tracing_count() == 1


def test_get_compiler_ir_stages():
    @tf.function(jit_compile=True)
    def f(x, y):
        return tf.reduce_mean(tf.multiply(x ** 2, 3) + y)

    x, y = tf.ones([2, 3]), tf.ones([2, 3])
    ir = f.experimental_get_compiler_ir(x, y)
    hlo = ir(stage="hlo")
    assert "hlo.power" in hlo and "hlo.reduce" in hlo and '"tf.' not in hlo
    assert "hlo.reduce" in ir(stage="optimized_hlo")
    dot = ir(stage="optimized_hlo_dot")
    assert dot.startswith("digraph") and "->" in dot
    assert isinstance(ir(stage="hlo_serialized"), bytes)
    with pytest.raises(ValueError) as err:
        ir(stage="bogus")
    assert str(err.value) == ("Invalid stage selected: 'bogus'. Valid values are: 'hlo', 'hlo_serialized', "
                              "'optimized_hlo', 'optimized_hlo_serialized', 'optimized_hlo_dot'")
    assert f.compile_count == 0  # inspection compiles, but does not run or fill the call cache's executables


def test_unsupported_op_under_jit(tmp_path):
    @tf.function(jit_compile=True)
    def f(x):
        return tf.strings.as_string(x)

    with pytest.raises(tf.errors.InvalidArgumentError) as err:
        f(tf.constant([1.0]))
    text = str(err.value)
    assert text.startswith("Detected unsupported operations when trying to compile graph __inference_f_")
    assert "AsString (No registered 'AsString' OpKernel for XLA_CPU_JIT devices" in text
    assert "The op is created at: \nFile " in text and "test_function.py" in text and ", in f\n" in text


def test_host_ops_run_without_jit(tmp_path, capsys):
    p = tmp_path / "hello.txt"
    p.write_bytes(b"hi")
    assert tf.io.read_file(str(p)).numpy() == b"hi"
    assert tf.function(lambda: tf.io.read_file(str(p)))().numpy() == b"hi"
    out = tf.function(lambda x: tf.py_function(lambda t: t.numpy() * 2, [x], tf.float32))(tf.constant([1.0]))
    np.testing.assert_array_equal(out.numpy(), [2.0])
    tf.function(lambda x: tf.print("x =", x))(tf.constant([1, 2]))
    assert "x = [1 2]" in capsys.readouterr().err
    assert tf.strings.as_string(tf.constant([1, 2])).numpy().tolist() == [b"1", b"2"]


@pytest.mark.parametrize("make", [lambda: tf.io.read_file("/nonexistent"),
                                  lambda: tf.print("hello")], ids=["ReadFile", "StringFormat"])
def test_more_unsupported_ops(make):
    f = tf.function(lambda: make(), jit_compile=True)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Detected unsupported operations"):
        f()


def test_xla_dump_to(tmp_path, monkeypatch):
    monkeypatch.setenv("XLA_FLAGS", f"--xla_dump_to={tmp_path}")
    tf.function(lambda x: x * 2 + 1, jit_compile=True)(tf.ones([3]))
    names = sorted(p.name for p in tmp_path.iterdir())
    assert any(n.endswith(".tf.txt") for n in names)
    assert any(n.endswith(".tf-legalize-to-hlo.txt") for n in names)
    hlo = next(tmp_path.glob("*.tf-legalize-to-hlo.txt")).read_text()
    assert "hlo.multiply" in hlo


def test_nested_structures_and_python_args():
    @tf.function
    def f(pair, scale=2):
        a, b = pair
        return {"sum": (a + b) * scale, "diff": a - b}

    out = f((tf.ones([2]), tf.ones([2])), scale=3)
    np.testing.assert_array_equal(out["sum"].numpy(), [6.0, 6.0])
    f((tf.ones([2]), tf.ones([2])), scale=4)
    assert "argument 'scale' changed: Python value 3 -> Python value 4" in f.why()


def test_running_example_script():
    import subprocess
    import sys

    root = REPO_ROOT
    proc = subprocess.run([sys.executable, "examples/running_example.py", "256"], cwd=root, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "all results agree with numpy" in proc.stdout
    assert "stage='optimized_hlo'" in proc.stdout and "hlo.reduce" in proc.stdout


def test_record_goldens_without_tensorflow():
    import subprocess
    import sys

    root = REPO_ROOT
    proc = subprocess.run([sys.executable, "tests/golden/record_tf_goldens.py", "--out", "/nonexistent-dir"], cwd=root,
                          capture_output=True, text=True, timeout=120)
    try:
        import tensorflow  # noqa: F401
    except ImportError:
        assert proc.returncode == 2 and "tensorflow is not installed" in proc.stderr


def test_jit_function_returning_none_updates_its_variable():
    """A compiled step that only assigns (returns None, or None inside a structure) compiles; the None
    stays a Python None in the result, not a value of the program."""
    v = tf.Variable(np.ones(3, np.float32))

    @tf.function(jit_compile=True)
    def add(g):
        v.assign_add(g)

    assert add(tf.constant([1.0, 2.0, 3.0])) is None
    np.testing.assert_array_equal(v.numpy(), [2.0, 3.0, 4.0])

    @tf.function(jit_compile=True)
    def sub(g):
        v.assign_sub(g)
        return None, g * 2, {"a": None, "b": g}

    for want in ([1.0, 1.0, 1.0], [0.0, -1.0, -2.0]):  # the second call replays the cached plan
        none, doubled, d = sub(tf.constant([1.0, 2.0, 3.0]))
        assert none is None and d["a"] is None
        np.testing.assert_array_equal(doubled.numpy(), [2.0, 4.0, 6.0])
        np.testing.assert_array_equal(v.numpy(), want)
