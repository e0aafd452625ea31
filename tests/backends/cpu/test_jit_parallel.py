"""Parallel code generation (backends/cpu/parallel_jit.py, outline.py): a big module compiled as two objects,
one in a forked child, gives the same results as the in-process compile (both checked against numpy) on an
MLP training step, a convolution, a while loop with a sort and a module with private helper functions;
the two objects round-trip through the disk cache; a failing or hanging child falls back to compiling
in-process with a warning; MINIXLA_PARALLEL_JIT=0 and MPI turn it off."""

import os
import sys

import numpy as np
import pytest

from minixla.backends import get_backend
from minixla.backends.cpu import compile_cache, jit, outline, parallel_jit
from minixla.dialects import load_all
from minixla.dialects.diagnostics import parse_and_verify


@pytest.fixture
def small_split(monkeypatch):
    """Split modules of a few hundred instructions (the default threshold is for whole training steps)."""
    monkeypatch.setattr(parallel_jit, "MIN_INSTRUCTIONS", 60)
    monkeypatch.setattr(outline, "MIN_PART_OPS", 20)
    monkeypatch.setenv("MINIXLA_DISABLE_CACHE", "1")
    monkeypatch.setenv("MINIXLA_PARALLEL_JIT", "1")  # also when the load average says no core is idle
    if not parallel_jit.enabled():
        pytest.skip("parallel compiles need os.fork and two usable cores")
    jit.clear_cache()
    yield
    jit.clear_cache()


def _compile(text: str, entry: str, parallel: bool, monkeypatch):
    monkeypatch.setenv("MINIXLA_PARALLEL_JIT", "1" if parallel else "0")
    jit.clear_cache()
    fn = get_backend("cpu").compile(parse_and_verify(text, "prog.mlir", load_all()), entry)
    assert fn.owner.jit.objects == (2 if parallel else 1)
    return fn


CONV = """
func.func @main(%x: tensor<2x3x9x8xf32>, %k: tensor<4x3x3x3xf32>) -> tensor<2x4x7x6xf32> {
  %r = hlo.convolution(%x, %k) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1], pad = [[0, 0], [0, 0]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x3x9x8xf32>, tensor<4x3x3x3xf32>) -> tensor<2x4x7x6xf32>
  %t = hlo.tanh %r : tensor<2x4x7x6xf32>
  %e = hlo.exponential %t : tensor<2x4x7x6xf32>
  %s = hlo.add %e, %r : tensor<2x4x7x6xf32>
  return %s : tensor<2x4x7x6xf32>
}
"""


def _conv_reference(x, k):
    out = np.zeros((2, 4, 7, 6))
    for i in range(3):
        for j in range(3):
            out += np.einsum("bchw,oc->bohw", x[:, :, i:i + 7, j:j + 6], k[:, :, i, j])
    return np.exp(np.tanh(out)) + out


WHILE_SORT = """
func.func @main(%x: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %i0 = hlo.constant dense<0> : tensor<i32>
  %r:2 = hlo.while(%i = %i0, %acc = %x) : tensor<i32>, tensor<16xf32>
  cond {
    %n = hlo.constant dense<3> : tensor<i32>
    %c = hlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    hlo.return %c : tensor<i1>
  } do {
    %one = hlo.constant dense<1> : tensor<i32>
    %i2 = hlo.add %i, %one : tensor<i32>
    %m = hlo.multiply %acc, %x : tensor<16xf32>
    %a2 = hlo.add %m, %x : tensor<16xf32>
    hlo.return %i2, %a2 : tensor<i32>, tensor<16xf32>
  }
  %s = "hlo.sort"(%r#1) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %lt = hlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    hlo.return %lt : tensor<i1>
  }) : (tensor<16xf32>) -> tensor<16xf32>
  %e = hlo.exponential %s : tensor<16xf32>
  return %s, %e : tensor<16xf32>, tensor<16xf32>
}
"""

HELPERS = """
func.func private @scale(%x: tensor<64xf32>) -> tensor<64xf32> {
  %c = hlo.constant dense<1.5> : tensor<64xf32>
  %y = hlo.multiply %x, %c : tensor<64xf32>
  %t = hlo.tanh %y : tensor<64xf32>
  return %t : tensor<64xf32>
}
func.func private @shift(%x: tensor<64xf32>) -> tensor<64xf32> {
  %c = hlo.constant dense<-0.25> : tensor<64xf32>
  %y = hlo.add %x, %c : tensor<64xf32>
  %e = hlo.exponential %y : tensor<64xf32>
  return %e : tensor<64xf32>
}
func.func @first(%x: tensor<64xf32>) -> tensor<64xf32> {
  %a = func.call @scale(%x) : (tensor<64xf32>) -> tensor<64xf32>
  %b = func.call @shift(%a) : (tensor<64xf32>) -> tensor<64xf32>
  return %b : tensor<64xf32>
}
func.func @second(%x: tensor<64xf32>) -> tensor<64xf32> {
  %a = func.call @shift(%x) : (tensor<64xf32>) -> tensor<64xf32>
  %b = func.call @scale(%a) : (tensor<64xf32>) -> tensor<64xf32>
  %c = hlo.sqrt %b : tensor<64xf32>
  return %c : tensor<64xf32>
}
"""


def test_conv_while_sort_and_helpers_match_the_in_process_compile(small_split, monkeypatch):
    rng = np.random.default_rng(0)
    x, k = rng.standard_normal((2, 3, 9, 8)).astype(np.float32), rng.standard_normal((4, 3, 3, 3)).astype(np.float32)
    v = rng.standard_normal(16).astype(np.float32) * 0.5
    h = rng.standard_normal(64).astype(np.float32)
    loop = v.astype(np.float64)
    for _ in range(3):
        loop = loop * v + v
    cases = [
        (CONV, "main", (x, k), [_conv_reference(x.astype(np.float64), k.astype(np.float64))]),
        (WHILE_SORT, "main", (v,), [np.sort(loop), np.exp(np.sort(loop))]),
        (HELPERS, "first", (h,), [np.exp(np.tanh(h * 1.5) - 0.25)]),
        (HELPERS, "second", (h,), [np.sqrt(np.tanh(np.exp(h - 0.25) * 1.5))]),
    ]
    for text, entry, args, want in cases:
        serial = _compile(text, entry, False, monkeypatch)(*args)
        parallel = _compile(text, entry, True, monkeypatch)(*args)
        for s, p, w in zip(serial, parallel, want, strict=True):
            np.testing.assert_allclose(p, w, rtol=2e-5, atol=2e-5)
            np.testing.assert_allclose(p, s, rtol=1e-6, atol=1e-6)


def test_mlp_training_step_is_cut_in_two_and_matches(monkeypatch):
    """The real threshold: the MLP step's one big function is cut (outline.py) and compiled in two processes."""
    monkeypatch.setenv("MINIXLA_DISABLE_CACHE", "1")
    monkeypatch.setenv("MINIXLA_PARALLEL_JIT", "1")
    if not parallel_jit.enabled():
        pytest.skip("parallel compiles need os.fork and two usable cores")
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", ".."))
    from benchmarks.bench_training import data, make_step

    x, y = data()
    losses, modules = {}, {}
    for mode in ("0", "1"):
        monkeypatch.setenv("MINIXLA_PARALLEL_JIT", mode)
        jit.clear_cache()
        step = make_step(True)
        losses[mode] = [float(step(x, y)) for _ in range(3)]
        modules[mode] = [m for m in jit._CACHE.values()]
    assert [m.objects for m in modules["1"]] == [2] and "__tail" in modules["1"][0].llvm_ir
    assert [m.objects for m in modules["0"]] == [1] and "__tail" not in modules["0"][0].llvm_ir
    np.testing.assert_allclose(losses["1"], losses["0"], rtol=1e-6)
    eager = make_step(None)  # the op-by-op (numpy-backed) path as the oracle
    want = [float(eager(x, y)) for _ in range(3)]
    np.testing.assert_allclose(losses["1"], want, rtol=1e-4)
    jit.clear_cache()


def test_two_objects_round_trip_through_the_disk_cache(small_split, monkeypatch, tmp_path):
    monkeypatch.delenv("MINIXLA_DISABLE_CACHE")
    monkeypatch.setenv("MINIXLA_CACHE_DIR", str(tmp_path))
    h = np.linspace(-1, 1, 64, dtype=np.float32)
    want = np.exp(np.tanh(h * 1.5) - 0.25)
    first = _compile(HELPERS, "first", True, monkeypatch)
    np.testing.assert_allclose(first(h)[0], want, rtol=2e-6)
    payloads = [p.read_bytes() for p in tmp_path.glob("*.o.mx")]
    assert any(compile_cache.MULTI_MAGIC in p for p in payloads)
    again = _compile(HELPERS, "first", True, monkeypatch)
    assert again.owner.jit.from_disk_cache
    np.testing.assert_allclose(again(h)[0], want, rtol=2e-6)
    # an entry whose checksum holds but whose object list does not add up is counted corrupt and rebuilt
    disk = compile_cache.active_cache()
    key = compile_cache.object_key(again.owner.jit.llvm_ir, 3)
    disk.put(key, compile_cache.MULTI_MAGIC + b"\x02\x00\x00\x00garbage")
    corrupt = disk.corrupt
    rebuilt = _compile(HELPERS, "first", True, monkeypatch)
    assert not rebuilt.owner.jit.from_disk_cache and disk.corrupt == corrupt + 1
    np.testing.assert_allclose(rebuilt(h)[0], want, rtol=2e-6)


def test_pack_and_unpack_objects():
    parts = [b"\x7fELF-one", b"", b"\x7fELF-three"]
    assert compile_cache.unpack_objects(compile_cache.pack_objects(parts)) == parts
    assert compile_cache.unpack_objects(b"\x7fELF plain") == [b"\x7fELF plain"]
    with pytest.raises(ValueError):
        compile_cache.unpack_objects(compile_cache.pack_objects(parts)[:-1])
    with pytest.raises(ValueError):
        compile_cache.unpack_objects(compile_cache.MULTI_MAGIC + b"\x01")


@pytest.mark.parametrize("failure", ["raises", "dies", "hangs"])
def test_a_failing_child_falls_back_to_compiling_in_process(small_split, monkeypatch, failure):
    parent = os.getpid()
    real = parallel_jit.emit_object

    def flaky(text, opt_level, optimize):  # the forked child inherits this
        if os.getpid() != parent:
            if failure == "raises":
                raise RuntimeError("simulated LLVM failure")
            if failure == "dies":
                os._exit(3)
            import time

            time.sleep(60)
        return real(text, opt_level, optimize)

    monkeypatch.setattr(parallel_jit, "emit_object", flaky)
    monkeypatch.setattr(parallel_jit, "child_timeout", lambda _seconds: 0.5)
    h = np.linspace(-1, 1, 64, dtype=np.float32)
    with pytest.warns(parallel_jit.ParallelJitWarning) as caught:
        fn = _compile(HELPERS, "second", True, monkeypatch)
    message = str(caught[0].message)
    assert {"raises": "simulated LLVM failure", "dies": "status", "hangs": "no answer"}[failure] in message
    np.testing.assert_allclose(fn(h)[0], np.sqrt(np.tanh(np.exp(h - 0.25) * 1.5)), rtol=2e-6)


def test_no_fork_to_be_had_compiles_in_process(small_split, monkeypatch):
    def refuse():
        raise OSError(12, "Cannot allocate memory")

    monkeypatch.setattr(os, "fork", refuse)
    h = np.linspace(-1, 1, 64, dtype=np.float32)
    monkeypatch.setenv("MINIXLA_PARALLEL_JIT", "1")
    jit.clear_cache()
    fn = get_backend("cpu").compile(parse_and_verify(HELPERS, "prog.mlir", load_all()), "second")
    assert fn.owner.jit.objects == 1
    np.testing.assert_allclose(fn(h)[0], np.sqrt(np.tanh(np.exp(h - 0.25) * 1.5)), rtol=2e-6)


def test_switches(monkeypatch):
    monkeypatch.delenv("MINIXLA_PARALLEL_JIT", raising=False)
    for var in ("OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "MPI_LOCALNRANKS"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.delitem(sys.modules, "mpi4py.MPI", raising=False)
    base = parallel_jit.enabled()
    monkeypatch.setenv("MINIXLA_PARALLEL_JIT", "0")
    assert not parallel_jit.enabled() and parallel_jit.split_threshold() is None
    monkeypatch.setenv("MINIXLA_PARALLEL_JIT", "1")
    assert parallel_jit.enabled() == base
    monkeypatch.setenv("OMPI_COMM_WORLD_SIZE", "2")  # launched by mpiexec: never fork
    assert not parallel_jit.enabled()
    monkeypatch.delenv("OMPI_COMM_WORLD_SIZE")
    monkeypatch.setitem(sys.modules, "mpi4py.MPI", object())
    assert not parallel_jit.enabled()
    monkeypatch.delitem(sys.modules, "mpi4py.MPI")
    monkeypatch.setattr(os, "getloadavg", lambda: (5.0, 5.0, 5.0))  # a saturated machine
    monkeypatch.setattr(os, "sched_getaffinity", lambda _pid: {0, 1})
    assert parallel_jit.core_idle()  # MINIXLA_PARALLEL_JIT=1: regardless of load
    monkeypatch.delenv("MINIXLA_PARALLEL_JIT")  # auto
    assert not parallel_jit.core_idle()
    monkeypatch.setattr(os, "getloadavg", lambda: (1.7, 1.0, 1.0))  # this process's compile and a little more
    assert parallel_jit.core_idle()
    monkeypatch.setattr(os, "getloadavg", lambda: (2.0, 1.0, 1.0))
    assert not parallel_jit.core_idle()


SPLIT_IR = """target triple = "x86_64-unknown-linux-gnu"
@"k" = private unnamed_addr constant [1 x float] [float 1.0], align 64
@"ext" = external global i8
declare float @"tanhf"(float)

define internal float @"helper<lambda>"(float %".1") nounwind
{
bb0:
  %".2" = call float @"tanhf"(float %".1")
  %".3" = load float, ptr @"k"
  %".4" = fadd float %".2", %".3"
  ret float %".4"
}
define float @"a"(float %".1") nounwind
{
bb0:
  %".2" = call float @"helper<lambda>"(float %".1")
  %".3" = fmul float %".2", %".2"
  %".4" = fmul float %".3", %".2"
  ret float %".4"
}
define float @"b"(float %".1") nounwind
{
bb0:
  %".2" = call float @"helper<lambda>"(float %".1")
  %".3" = call float @"a"(float %".2")
  %".4" = fadd float %".3", %".2"
  ret float %".4"
}
"""


def test_split_module_declares_across_and_copies_internal_helpers():
    import llvmlite.binding as llvm

    from minixla.backends.cpu.target import host_target

    host_target()
    light, heavy = parallel_jit.split_module(SPLIT_IR)
    defined = []
    for text in (light, heavy):
        module = llvm.parse_assembly(text)
        module.verify()
        defined.append({f.name for f in module.functions if not f.is_declaration})
    helper = "helper<lambda>"
    assert all(helper in names for names in defined)  # a private copy in each group
    assert {"a", "b"} == (defined[0] | defined[1]) - {helper} and not defined[0] & defined[1] - {helper}
    assert 'declare float @"a"' in (heavy if "b" in defined[1] else light)
    mutable = SPLIT_IR.replace('@"k" = private unnamed_addr constant', '@"k" = internal global')
    assert parallel_jit.split_module(mutable) is None  # state must not be duplicated


_NEST = """
  scf.for %i{k} = %c0 to %c8 step %c1 {{
    %x{k} = memref.load %a[%i{k}] : memref<8xf32>
    %y{k} = arith.mulf %x{k}, %x{k} : f32
    memref.store %y{k}, %a[%i{k}] : memref<8xf32>
  }}"""
_CONSTANTS = """
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index"""
CALLS_HELPER = ("func.func private @helper(%a: memref<8xf32>) {" + _CONSTANTS
                + "".join(_NEST.format(k=k) for k in range(12)) + "\n  return\n}\n"
                "func.func @f(%a: memref<8xf32>) {" + _CONSTANTS + "".join(_NEST.format(k=k) for k in range(8))
                + "\n  func.call @helper(%a) : (memref<8xf32>) -> ()" + "".join(_NEST.format(k=k) for k in range(20, 22))
                + "\n  return\n}\n")


def test_the_cut_weighs_internal_functions_with_the_blocks_that_use_them(monkeypatch):
    """@f's last loop nests call a big private helper: the helper goes to the tail's group, so the cut is
    later than an operation count alone would put it, and the translated tail calls the helper."""
    from xdsl.dialects import llvm as llvm_dialect

    from minixla.backends.cpu.translate import translate_module
    from tests.backends.cpu.test_jit_loop_hints import _llvm_func

    monkeypatch.setattr(outline, "MIN_PART_OPS", 10)
    module, fn = _llvm_func(CALLS_HELPER)
    funcs = [op for op in module.ops if isinstance(op, llvm_dialect.FuncOp)]
    big, cut = outline.plan_cut(funcs, 50)
    assert big is fn
    blocks = list(fn.body.blocks)
    calls = [i for i, b in enumerate(blocks) if any(op.name == "llvm.call" for op in b.ops)]
    assert cut <= calls[0] and cut > outline.choose_cut(fn, outline.op_count(fn) // 2)
    text = str(translate_module(module, split_above=50))
    light, heavy = parallel_jit.split_module(text)
    tail_group = light if 'define void @"f__tail"' in light else heavy
    assert 'define internal void @"helper"' in tail_group and "call void @\"helper\"" in tail_group
    assert 'define internal void @"helper"' not in (heavy if tail_group is light else light)


KERNEL = """; a runtime kernel for the background compile
define double @minixla_test_kernel(double %x) {
  %y = fmul double %x, %x
  %z = fadd double %y, 1.0
  ret double %z
}
"""


def _call_kernel(engine) -> float:
    import ctypes

    return ctypes.CFUNCTYPE(ctypes.c_double, ctypes.c_double)(engine.get_function_address("minixla_test_kernel"))(3.0)


def test_a_runtime_kernel_compiles_in_a_background_child(monkeypatch, tmp_path):
    """prefetch_runtime_kernel forks the child; runtime_kernel_engine takes its object, stores it in the
    disk cache (the next process loads it from there) and the engine runs it."""
    monkeypatch.setenv("MINIXLA_PARALLEL_JIT", "1")
    monkeypatch.setenv("MINIXLA_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("MINIXLA_DISABLE_CACHE", raising=False)
    if not parallel_jit.enabled():
        pytest.skip("background compiles need os.fork and two usable cores")
    text = KERNEL + f"; {tmp_path}\n"  # a text no other test compiled
    assert compile_cache.prefetch_runtime_kernel(text)
    assert not compile_cache.prefetch_runtime_kernel(text)  # one child per kernel
    child = compile_cache._BACKGROUND[text]
    assert _call_kernel(compile_cache.runtime_kernel_engine(text)) == 10.0
    assert text not in compile_cache._BACKGROUND and child.error == ""
    assert compile_cache.cached_object(text) is not None
    assert not compile_cache.prefetch_runtime_kernel(text)  # stored: nothing to compile


def test_a_failing_background_child_compiles_the_kernel_here(monkeypatch):
    parent = os.getpid()
    real = parallel_jit.emit_object

    def dies(text, opt_level, optimize):
        if os.getpid() != parent:
            os._exit(3)
        return real(text, opt_level, optimize)

    monkeypatch.setattr(parallel_jit, "emit_object", dies)
    monkeypatch.setenv("MINIXLA_PARALLEL_JIT", "1")
    monkeypatch.setenv("MINIXLA_CACHE_DIR", "off")
    if not parallel_jit.enabled():
        pytest.skip("background compiles need os.fork and two usable cores")
    text = KERNEL + "; failing child\n"
    assert compile_cache.prefetch_runtime_kernel(text)
    with pytest.warns(parallel_jit.ParallelJitWarning, match="runtime kernel failed .*status"):
        engine = compile_cache.runtime_kernel_engine(text)
    assert _call_kernel(engine) == 10.0


def test_no_background_kernel_compile_when_forking_is_off(monkeypatch):
    monkeypatch.setenv("MINIXLA_PARALLEL_JIT", "0")
    assert not compile_cache.prefetch_runtime_kernel(KERNEL + "; off\n")
    assert (KERNEL + "; off\n") not in compile_cache._BACKGROUND
