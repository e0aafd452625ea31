"""The graph-level key of whole jit compiles (frontend/compile_reuse.py): anything that changes what
legalization and compilation produce (an attribute, a constant's bits, a shape, a dtype, a baked-in
argument, a setting, the compiler's sources, a rule that is not minixla's) changes the key; a new
trace of the same program keeps it, and its hit skips legalization and returns the same results
(checked against numpy)."""

from __future__ import annotations

import dataclasses
import os

import numpy as np
import pytest

from minixla.backends.cpu import compile_cache
from minixla.frontend import compile_reuse, tf
from minixla.frontend.compiler import OPTIMIZE_PIPELINE
from minixla.frontend.ops.registry import REGISTRY


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("MINIXLA_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("MINIXLA_DISABLE_CACHE", raising=False)
    monkeypatch.delenv("MINIXLA_TF_BACKEND", raising=False)
    return tmp_path


def _key(fn, *args, consts=None, pipeline=OPTIMIZE_PIPELINE):
    cf = tf.function(fn, jit_compile=True).get_concrete_function(*args)
    return compile_reuse.graph_key(cf.module, consts or {}, pipeline)


X = np.arange(6, dtype=np.float32).reshape(2, 3)


def test_same_program_same_key_whatever_the_trace_name(cache_dir):
    def body(x):
        return tf.reduce_sum(tf.exp(x) * 2.0, axis=0)

    first = _key(body, X)
    assert first is not None and first == _key(body, X) == _key(lambda v: tf.reduce_sum(tf.exp(v) * 2.0, axis=0), X)


def test_control_flow_keeps_its_key_whatever_was_traced_before(cache_dir):
    """Branch functions are named by a process-wide counter: another program's cond traced in between
    (or a different order in another process) must not change the key; a different branch must."""
    def program(x):
        return tf.cond(tf.reduce_sum(x) > 0, lambda: x * 2.0, lambda: x - 1.0)

    first = _key(program, X)
    _key(lambda x: tf.cond(tf.reduce_sum(x) > 0, lambda: x + 5.0, lambda: x), X)  # bumps the counter
    assert first is not None and _key(program, X) == first
    assert _key(lambda x: tf.cond(tf.reduce_sum(x) > 0, lambda: x * 2.0, lambda: x - 2.0), X) != first


def test_any_change_misses(cache_dir, monkeypatch):
    base = _key(lambda x: tf.reduce_sum(x * 2.0, axis=0), X)
    others = [
        _key(lambda x: tf.reduce_sum(x * 2.0, axis=1), X),  # an attribute (axis is a const operand)
        _key(lambda x: tf.reduce_sum(x * 2.0, axis=0, keepdims=True), X),  # a boolean attribute
        _key(lambda x: tf.reduce_sum(x * 3.0, axis=0), X),  # a constant's value
        _key(lambda x: tf.reduce_sum(x * -0.0, axis=0), X),  # bits: -0.0 ...
        _key(lambda x: tf.reduce_sum(x * 0.0, axis=0), X),  # ... and 0.0 differ
        _key(lambda x: tf.reduce_sum(x * 2.0, axis=0), X.reshape(3, 2)),  # a shape
        _key(lambda x: tf.reduce_sum(x * 2.0, axis=0), X.astype(np.float64)),  # a dtype
        _key(lambda x: tf.reduce_max(x * 2.0, axis=0), X),  # an op
        _key(lambda x: tf.reduce_sum(x * 2.0, axis=0), X, pipeline="hlo-optimize,cse"),  # the pipeline
        _key(lambda x: tf.reduce_sum(x * 2.0, axis=0), X, consts={0: X}),  # an argument baked in ...
        _key(lambda x: tf.reduce_sum(x * 2.0, axis=0), X, consts={0: X + 1}),  # ... and its value
    ]
    monkeypatch.setenv("MINIXLA_CHECK_BOUNDS", "1")  # a setting that steers compilation
    others.append(_key(lambda x: tf.reduce_sum(x * 2.0, axis=0), X))
    monkeypatch.delenv("MINIXLA_CHECK_BOUNDS")
    monkeypatch.setenv("MINIXLA_LOG_COMPILE", "1")  # one that does not
    assert _key(lambda x: tf.reduce_sum(x * 2.0, axis=0), X) == base
    assert None not in others and len({base, *others}) == len(others) + 1


def test_a_rule_from_outside_minixla_gives_no_key(cache_dir, monkeypatch):
    """Its source is not fingerprinted, so an edit to it could not miss: no graph key (the legalized
    module's key still serves)."""
    assert _key(lambda x: tf.exp(x), X) is not None
    original = REGISTRY["Exp"].rule
    monkeypatch.setitem(REGISTRY, "Exp", dataclasses.replace(REGISTRY["Exp"], rule=lambda *a, **k: original(*a, **k)))
    assert _key(lambda x: tf.exp(x), X) is None


def test_no_key_with_the_cache_off(monkeypatch):
    monkeypatch.setenv("MINIXLA_CACHE_DIR", "off")
    assert _key(lambda x: tf.exp(x), X) is None


def test_sources_fingerprint_follows_every_edit(tmp_path, monkeypatch):
    """Memoised on disk by (path, size, mtime_ns), yet an edit, a new file or a removed one changes it,
    and the memo agrees with hashing the contents."""
    monkeypatch.setenv("MINIXLA_CACHE_DIR", str(tmp_path / "cache"))
    tree = tmp_path / "src"
    (tree / "sub").mkdir(parents=True)
    (tree / "a.py").write_text("x = 1\n")
    (tree / "sub" / "b.py").write_text("y = 2\n")
    (tree / "notes.txt").write_text("not a source")
    roots = (tree,)

    def fingerprint():
        compile_cache.tree_fingerprint.cache_clear()  # as a new process
        return compile_cache.tree_fingerprint(roots)

    first = fingerprint()
    assert fingerprint() == first  # from the memo
    assert compile_cache._content_hash(roots, compile_cache._stamps(roots)) == first  # hashing agrees
    seen = {first}
    st = os.stat(tree / "a.py")
    (tree / "a.py").write_text("x = 3\n")  # same size
    os.utime(tree / "a.py", ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))
    seen.add(fingerprint())
    (tree / "sub" / "c.py").write_text("")
    seen.add(fingerprint())
    (tree / "sub" / "b.py").unlink()
    seen.add(fingerprint())
    (tree / "notes.txt").write_text("edited, not a source")
    seen.add(fingerprint())
    assert len(seen) == 4


def test_sources_memo_beside_the_bytecode(tmp_path, monkeypatch):
    """An empty cache directory still finds the fingerprint memoised beside the sources' bytecode (no file
    read); a stale or garbled memo is rehashed and rewritten; nothing is written under -B."""
    tree = tmp_path / "src"
    tree.mkdir()
    (tree / "a.py").write_text("x = 1\n")
    roots = (tree,)
    hashed = []
    content_hash = compile_cache._content_hash
    monkeypatch.setattr(compile_cache, "_content_hash", lambda r, s: hashed.append(1) or content_hash(r, s))
    monkeypatch.setattr("sys.dont_write_bytecode", False)

    def fingerprint(cache: str):
        monkeypatch.setenv("MINIXLA_CACHE_DIR", str(tmp_path / cache))
        compile_cache.tree_fingerprint.cache_clear()  # as a new process
        return compile_cache.tree_fingerprint(roots)

    first = fingerprint("one")
    memo = compile_cache._memo_path(roots)
    assert memo.parent == tree / "__pycache__" and memo.is_file() and len(hashed) == 1
    assert fingerprint("two") == first and fingerprint("off") == first and len(hashed) == 1  # from the memo
    st = os.stat(tree / "a.py")
    (tree / "a.py").write_text("x = 2\n")  # same size, later mtime: the memo is stale
    os.utime(tree / "a.py", ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))
    edited = fingerprint("three")
    assert edited != first and len(hashed) == 2 and edited == content_hash(roots, compile_cache._stamps(roots))
    assert fingerprint("four") == edited and len(hashed) == 2
    memo.write_text("garbage")
    assert fingerprint("five") == edited and len(hashed) == 3
    memo.unlink()
    monkeypatch.setattr("sys.dont_write_bytecode", True)
    assert fingerprint("six") == edited and not memo.exists()


def _fresh_call(fn, *args):
    f = tf.function(fn, jit_compile=True)
    out = f(*args)
    compiled = next(iter(f._cache.values())).compiled
    return f, out, compiled


@pytest.mark.parametrize("dtype", [np.float32, np.uint8, np.complex64])
def test_graph_hit_skips_legalization_and_equals_numpy(cache_dir, dtype):
    """A second tf.function of the same program comes from the graph key without legalizing (unsigned and
    complex signatures too, whose views the signature decides); its stage text is built on demand."""
    x = (np.arange(6).reshape(2, 3) % 5).astype(dtype)
    if dtype == np.complex64:
        x = x + 1j * x[::-1]

    def body(v):
        return tf.reduce_sum(v * v + v, axis=0)

    want = (x * x + x).sum(axis=0, dtype=x.dtype)
    _, first, compiled = _fresh_call(body, x)
    assert compiled._hlo is not None
    f, second, compiled = _fresh_call(body, x)
    assert compiled._hlo is None and compiled.executable is not None  # a graph-key hit: nothing legalized
    np.testing.assert_allclose(first.numpy(), want, rtol=1e-6)
    np.testing.assert_array_equal(second.numpy(), first.numpy())
    assert second.numpy().dtype == want.dtype
    assert "hlo.multiply" in f.experimental_get_compiler_ir(x)(stage="hlo")


def test_specialized_argument_values_key_separately(cache_dir):
    """An argument feeding a must-be-constant input is baked in: another value is another compile."""
    def body(v, axis):
        return tf.reduce_sum(v, axis=axis)

    for axis in (0, 1, 0):
        got = _fresh_call(body, X, tf.constant(axis))[1]
        np.testing.assert_array_equal(got.numpy(), X.sum(axis=axis))


def test_a_broken_graph_entry_falls_back(cache_dir):
    """A graph entry naming a missing or unreadable compile is a miss, not an error."""
    def body(v):
        return tf.tanh(v) * 4.0

    _fresh_call(body, X)
    disk = compile_cache.DiskCache(cache_dir)
    pointers = [p for _, _, p in disk.entries() if p.read_bytes().find(compile_reuse._POINTER) > 0]
    assert len(pointers) == 1
    disk.put(pointers[0].name.removesuffix(".o.mx"), compile_reuse._POINTER + b"0" * 64)
    f, got, compiled = _fresh_call(body, X)
    np.testing.assert_allclose(got.numpy(), np.tanh(X) * 4.0, rtol=1e-6)
    assert compiled._hlo is not None  # legalized: the graph entry named nothing


def test_a_process_local_body_token_gives_no_key(cache_dir):
    """An `XlaHlo` region body kept in this process's table under a counter token (ops/xla_ops.py) could be
    another body in another process under the same token: no graph key."""
    from xdsl.dialects import func
    from xdsl.dialects.builtin import FunctionType, ModuleOp, StringAttr, TensorType, f32
    from xdsl.ir import Block, Region

    from minixla.dialects.tf import tf_op_class

    def module(body: str) -> ModuleOp:
        t = TensorType(f32, [2])
        block = Block(arg_types=[t])
        op = tf_op_class("XlaHlo").create(operands=[block.args[0]], result_types=[t], attributes={
            "hlo_op": StringAttr("reduce"), "hlo_attrs": StringAttr("{}"), "results": StringAttr("[((2,), 'float32')]"),
            "body": StringAttr(body)})
        block.add_ops([op, func.ReturnOp(op.results[0])])
        return ModuleOp([func.FuncOp("f", FunctionType.from_lists([t], [t]), Region(block))])

    assert compile_reuse.graph_key(module(""), {}, OPTIMIZE_PIPELINE) is not None
    assert compile_reuse.graph_key(module("('__combiner__', 'add')"), {}, OPTIMIZE_PIPELINE) is not None
    assert compile_reuse.graph_key(module("('__body__', 'body_0')"), {}, OPTIMIZE_PIPELINE) is None


def test_a_source_edit_misses(cache_dir, tmp_path, monkeypatch):
    """The graph key covers the frontend's sources (legalization rules) and the compiler's."""
    tree = tmp_path / "frontend_copy"
    tree.mkdir()
    (tree / "rules.py").write_text("RULE = 1\n")
    monkeypatch.setattr(compile_reuse, "_FRONTEND", tree)
    compile_cache.tree_fingerprint.cache_clear()

    def key():
        return _key(lambda x: tf.exp(x), X)

    before = key()
    st = os.stat(tree / "rules.py")
    (tree / "rules.py").write_text("RULE = 2\n")
    os.utime(tree / "rules.py", ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))
    compile_cache.tree_fingerprint.cache_clear()  # as a new process
    edited = key()
    monkeypatch.setattr(compile_cache, "sources_fingerprint", lambda: "another compiler")
    assert len({before, edited, key()}) == 3


def test_reuse_key_ignores_the_entry_name_and_sees_every_change(cache_dir):
    """The legalized module's key (ir_digest: no printing): two traces of one program (entry names with
    different trace counters) share it; a constant's bits, a shape or an op change it."""
    from minixla.frontend.compiler import legalize

    def key(fn, x):
        cf = tf.function(fn, jit_compile=True).get_concrete_function(x)
        return compile_reuse.reuse_key(legalize(cf.module, {}, "f"), OPTIMIZE_PIPELINE)

    base = key(lambda v: tf.exp(v) * 2.0, X)
    assert base is not None and key(lambda w: tf.exp(w) * 2.0, X) == base
    others = [key(lambda v: tf.exp(v) * -2.0, X), key(lambda v: tf.exp(v) * 2.0, X.reshape(3, 2)),
              key(lambda v: tf.tanh(v) * 2.0, X), key(lambda v: tf.exp(v) * 2.0, X.astype(np.float64))]
    assert len({base, *others}) == 5
