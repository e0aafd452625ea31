"""The direct LLVM IR emitter (backends/cpu/emit_llvm*.py): the JIT's default path emits the MLP
training step, the running example, a while loop, a convolution and a threaded loop without falling
back, with the results of the llvm-dialect path (`MINIXLA_DIRECT_LLVM=0`; for the four small programs
its very optimized assembly) and of numpy; an op it does
not know falls back to that path, leaving the module as it was; the emitted text of a small module
has the loop, fast-math, GEP, entry-wrapper and loop-hint shapes of the old translation; a big
function is cut into a head and a tail that compile in two processes."""

import re

import llvmlite.binding as llvm
import numpy as np
import pytest

from minixla.backends import get_backend
from minixla.backends.cpu import jit, parallel_jit
from minixla.backends.cpu.compiler import compile_module
from minixla.backends.cpu.emit_llvm_module import STATS, emit_module
from minixla.backends.cpu.runtime import Signature
from minixla.dialects import load_all
from minixla.dialects.diagnostics import parse_and_verify

RUNNING_EXAMPLE = """
func.func @main(%x: tensor<512x512xf32>, %y: tensor<512x512xf32>) -> tensor<f32> {
  %c = hlo.constant dense<3.0> : tensor<512x512xf32>
  %x2 = hlo.multiply %x, %x : tensor<512x512xf32>
  %m = hlo.multiply %x2, %c : tensor<512x512xf32>
  %s = hlo.add %m, %y : tensor<512x512xf32>
  %z = hlo.constant dense<0.0> : tensor<f32>
  %r = hlo.reduce(%s init: %z) applies hlo.add across dimensions = [0, 1] : (tensor<512x512xf32>, tensor<f32>) -> tensor<f32>
  return %r : tensor<f32>
}
"""

THREADED = """
func.func @main(%x: tensor<512x512xf32>) -> tensor<512x512xf32> {
  %e = hlo.exponential %x : tensor<512x512xf32>
  %t = hlo.tanh %e : tensor<512x512xf32>
  return %t : tensor<512x512xf32>
}
"""

CONV = """
func.func @main(%x: tensor<2x3x9x8xf32>, %k: tensor<4x3x3x3xf32>) -> tensor<2x4x7x6xf32> {
  %r = hlo.convolution(%x, %k) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1], pad = [[0, 0], [0, 0]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x3x9x8xf32>, tensor<4x3x3x3xf32>) -> tensor<2x4x7x6xf32>
  return %r : tensor<2x4x7x6xf32>
}
"""

WHILE = """
func.func @main(%x: tensor<17xf32>) -> tensor<17xf32> {
  %i0 = hlo.constant dense<0> : tensor<i32>
  %one = hlo.constant dense<1> : tensor<i32>
  %n = hlo.constant dense<5> : tensor<i32>
  %h = hlo.constant dense<1.5> : tensor<17xf32>
  %r:2 = hlo.while(%i = %i0, %v = %x) : tensor<i32>, tensor<17xf32>
   cond {
    %c = hlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    hlo.return %c : tensor<i1>
  } do {
    %i1 = hlo.add %i, %one : tensor<i32>
    %v1 = hlo.multiply %v, %h : tensor<17xf32>
    %v2 = hlo.sine %v1 : tensor<17xf32>
    hlo.return %i1, %v2 : tensor<i32>, tensor<17xf32>
  }
  return %r#1 : tensor<17xf32>
}
"""



@pytest.fixture(autouse=True)
def _direct_path_on(monkeypatch):
    """These tests are about the direct path: on, whatever MINIXLA_DIRECT_LLVM the shell sets."""
    monkeypatch.delenv("MINIXLA_DIRECT_LLVM", raising=False)

def _conv_reference(x, k):
    out = np.zeros((2, 4, 7, 6))
    for i in range(3):
        for j in range(3):
            out += np.einsum("bchw,oc->bohw", x[:, :, i:i + 7, j:j + 6], k[:, :, i, j])
    return out


def _while_reference(x):
    v = x.astype(np.float32)
    for _ in range(5):
        v = np.sin(v * np.float32(1.5))
    return v


_RNG = np.random.default_rng(0)
CASES = {
    "running_example": (RUNNING_EXAMPLE, [_RNG.random((512, 512), np.float32) for _ in range(2)],
                        lambda x, y: np.sum(x.astype(np.float64) ** 2 * 3 + y)),
    "threaded": (THREADED, [_RNG.random((512, 512), np.float32)], lambda x: np.tanh(np.exp(x))),
    "conv": (CONV, [_RNG.random((2, 3, 9, 8), np.float32), _RNG.random((4, 3, 3, 3), np.float32)], _conv_reference),
    "while": (WHILE, [_RNG.random(17, np.float32)], _while_reference),
}


def _run(text: str, args, direct: bool, monkeypatch):
    monkeypatch.setenv("MINIXLA_DIRECT_LLVM", "1" if direct else "0")
    jit.clear_cache()
    before = dict(STATS)
    fn = get_backend("cpu").compile(parse_and_verify(text, "prog.mlir", load_all()), "main")
    taken = STATS["direct"] - before["direct"], STATS["fallback"] - before["fallback"]
    return np.asarray(fn(*args)[0]), taken, fn.owner.jit


@pytest.fixture
def no_disk_cache(monkeypatch):
    monkeypatch.setenv("MINIXLA_CACHE_DIR", "off")
    yield
    jit.clear_cache()


def _function_assembly(asm: str) -> dict[str, str]:
    """{function: its assembly} but the Python entries, which call the function directly on the direct
    path and through its C entry (not emitted there) on the old one."""
    out = {}
    for name, body in re.findall(r"\t\.type\t(\S+),@function\n(.*?)\.Lfunc_end\d+:", asm, re.S):
        if not name.startswith("_minixla_py_"):
            out[name] = re.sub(r"(\.L[A-Za-z]+)\d+_", r"\1_", body)  # labels without the function's number
    assert out
    return out


@pytest.mark.parametrize("name", list(CASES))
def test_direct_path_matches_old_path_and_numpy(name, monkeypatch, no_disk_cache):
    """Without loop hints (which also turn off the emitter's rotated loops) both paths give one program;
    with them (the default) the direct path's code still computes the same."""
    text, args, reference = CASES[name]
    monkeypatch.setenv("MINIXLA_LOOP_HINTS", "0")
    new, taken, new_jit = _run(text, args, True, monkeypatch)
    assert taken == (1, 0), STATS["reason"]
    old, old_taken, old_jit = _run(text, args, False, monkeypatch)
    assert old_taken == (0, 0)
    assert new_jit.llvm_ir != old_jit.llvm_ir  # two texts (names, spelling) ...
    new_code, old_code = _function_assembly(new_jit.assembly()), _function_assembly(old_jit.assembly())
    assert new_code == {k: v for k, v in old_code.items() if not k.startswith("_mlir_ciface_")}  # ... one program
    np.testing.assert_array_equal(new, old)
    np.testing.assert_allclose(new, reference(*args), rtol=2e-5, atol=1e-5)
    monkeypatch.delenv("MINIXLA_LOOP_HINTS")
    hinted, taken, hinted_jit = _run(text, args, True, monkeypatch)
    assert taken == (1, 0), STATS["reason"]
    np.testing.assert_allclose(hinted, reference(*args), rtol=2e-5, atol=1e-5)
    if name in ("running_example", "while"):  # one reduction order: the same sums
        np.testing.assert_array_equal(hinted, new)
    if name == "threaded":
        assert "minixla_parallel_for" in new_jit.llvm_ir and "__task" in new_jit.llvm_ir
        # the parallel body goes into its task before LLVM's function passes (optimized once)
        assert re.search(r'^define internal void @"\S+_par0"\(.*\) nounwind alwaysinline \{$', new_jit.llvm_ir, re.M)


def test_mlp_step_takes_the_direct_path(monkeypatch, no_disk_cache):
    """The issue's MLP training step (benchmarks/bench_training.py), split in two processes as usual."""
    from benchmarks.bench_training import data, make_step

    monkeypatch.setenv("MINIXLA_PARALLEL_JIT", "1")
    x, y = data()
    losses = []
    for direct in (True, False):
        monkeypatch.setenv("MINIXLA_DIRECT_LLVM", "1" if direct else "0")
        jit.clear_cache()
        before = dict(STATS)
        step = make_step(True)
        losses.append([float(step(x, y)) for _ in range(2)])
        assert (STATS["direct"] - before["direct"], STATS["fallback"] - before["fallback"]) == \
            ((1, 0) if direct else (0, 0)), STATS["reason"]
    np.testing.assert_allclose(losses[0], losses[1], rtol=1e-6)
    assert losses[0][1] < losses[0][0]  # the step trains


LOOPS = """
func.func @f(%a: memref<4x8xf32>, %b: memref<4x8xf32>, %out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  scf.for %i = %c0 to %c4 step %c1 {
    %s = scf.for %j = %c0 to %c8 step %c1 iter_args(%acc = %zero) -> (f32) {
      %x = memref.load %a[%i, %j] : memref<4x8xf32>
      %y = memref.load %b[%i, %j] : memref<4x8xf32>
      %p = arith.mulf %x, %y fastmath<contract> : f32
      %q = arith.addf %acc, %p fastmath<reassoc,contract> : f32
      scf.yield %q : f32
    }
    memref.store %s, %out[%i] : memref<4xf32>
  }
  func.return
}
"""


def _loops_module():
    return parse_and_verify(LOOPS, "loops.mlir", load_all())


#: FileCheck-style CHECK lines (regexes, matched in order, each on a later line than the one before);
#: both loops run at least once, so they are rotated: the test is in the latch (emit_llvm._rotated)
LOOPS_CHECKS = [
    r'define void @"f"\(ptr %a0, ptr %a1, ptr %a2\) nounwind \{',
    r"^bb0:$", r"^  br label %(bb\d+)$",
    r"^  (%t\d+) = phi i64 \[0, %bb0\], \[%t\d+, %bb\d+\]$",  # the outer loop's header: no test
    r"^  br label %bb\d+$",
    r"^  %t\d+ = phi i64 \[0, %bb\d+\], \[%t\d+, %bb\d+\]$",  # the inner one's: iv, accumulator
    r"^  %t\d+ = phi float \[0x0000000000000000, %bb\d+\], \[%t\d+, %bb\d+\]$",
    r"^  %t\d+ = mul nsw i64 %t\d+, 8$", r"^  %t\d+ = add nsw i64 %t\d+, %t\d+$",
    r"^  %t\d+ = getelementptr inbounds float, ptr %a0, i64 %t\d+$", r"^  %t\d+ = load float, ptr %t\d+$",
    r"^  %t\d+ = getelementptr inbounds float, ptr %a1, i64 %t\d+$",
    r"^  %t\d+ = fmul contract float %t\d+, %t\d+$", r"^  (%t\d+) = fadd reassoc contract float %t\d+, %t\d+$",
    r"^  (%t\d+) = add nuw nsw i64 %t\d+, 1$", r"^  %t\d+ = icmp slt i64 %t\d+, 8$",
    r"^  br i1 %t\d+, label %bb\d+, label %bb\d+, !llvm.loop !2$",  # 4 x 8 iterations: not vectorized
    r"^  %t\d+ = getelementptr inbounds float, ptr %a2, i64 %t\d+$", r"^  store float %t13, ptr %t\d+$",
    r"^  %t\d+ = add nuw nsw i64 %t1, 1$", r"^  %t\d+ = icmp slt i64 %t\d+, 4$",
    r"^  br i1 %t\d+, label %bb1, label %bb\d+, !llvm.loop !3$", r"^  ret void$", r"^}$",
    r'^define ptr @"_minixla_py_f"\(ptr %self, ptr %args, i64 %nargs\) optnone noinline \{$',  # calls @f itself: no C entry; glue: not optimized
    r"^  %d2 = load ptr, ptr %f2$", r'^  call void @"f"\(ptr %d0, ptr %d1, ptr %d2\)$',
    r'^!0 = !\{!"llvm.loop.vectorize.enable", i1 0\}$', r'^!1 = !\{!"llvm.loop.unroll.disable"\}$',
    r"^!2 = distinct !\{!2, !0, !1\}$",  # a nest of 32 iterations: neither vectorized nor unrolled
    r"^!3 = distinct !\{!3, !1\}$",  # its outer loop: not unrolled either
]


def check_lines(text: str, checks: list[str]) -> None:
    import re

    lines = text.splitlines()
    at = 0
    for pattern in checks:
        while at < len(lines) and re.search(pattern, lines[at]) is None:
            at += 1
        assert at < len(lines), f"CHECK not found after line {at}: {pattern}\n{text}"
        at += 1


def test_emitted_text_has_the_old_translation_shapes():
    module = _loops_module()
    fn = next(iter(module.ops))
    text, by_object = emit_module(module, {"f": Signature.of(fn, 1)})
    check_lines(text, LOOPS_CHECKS)
    assert by_object and "_mlir_ciface_f" not in text
    # LLVM accepts it, and it computes the row dot products
    a, b = _RNG.random((4, 8), np.float32), _RNG.random((4, 8), np.float32)
    out = compile_module(_loops_module(), num_outputs={"f": 1})["f"](a, b)[0]
    np.testing.assert_allclose(out, (a * b).sum(1), rtol=1e-6)


@pytest.mark.parametrize("hints", ["1", "0"])
def test_small_nests_are_not_unrolled(monkeypatch, hints):
    """A nest of at most loop_hints.SMALL_WORK iterations is marked "do not unroll" (all its loops), so a
    module with many of them costs LLVM no more with unrolling on than off; without hints LLVM's
    unroller flattens the 4 x 8 nest into straight-line code."""
    monkeypatch.setenv("MINIXLA_LOOP_HINTS", hints)
    module = _loops_module()
    text, _ = emit_module(module, {"f": Signature.of(next(iter(module.ops)), 1)})
    ir = llvm.parse_assembly(text)
    jit.optimize(ir, 3, unroll=True)
    body = re.split(r'define [^@]*@"?f"?\(', str(ir))[1].split("\n}")[0]
    looping = " = phi " in body  # induction variables: a loop is left
    assert looping == (hints == "1"), body


def test_c_entry_when_there_is_no_python_entry(monkeypatch):
    """Where numpy's layout is unknown there are no Python entries: the C entry reads the pointer array."""
    from minixla.backends.cpu import runtime

    monkeypatch.setattr(runtime, "ndarray_data_offset", lambda: None)
    module = _loops_module()
    text, by_object = emit_module(module, {"f": Signature.of(next(iter(module.ops)), 1)})
    assert not by_object and "_minixla_py_f" not in text
    check_lines(text, [r'^define void @"_mlir_ciface_f"\(ptr %args\) nounwind optnone noinline \{$', r"^  %s2 = load ptr, ptr %s1$",
                       r'^  call void @"f"\(ptr %s2, ptr %s4, ptr %s6\)$', r"^  ret void$"])


UNKNOWN = """
func.func @g(%x: memref<4xf32>, %out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  cf.br ^loop(%c0 : index)
^loop(%i: index):
  %more = arith.cmpi slt, %i, %c4 : index
  cf.cond_br %more, ^body, ^done
^body:
  %v = memref.load %x[%i] : memref<4xf32>
  %w = arith.addf %v, %v : f32
  memref.store %w, %out[%i] : memref<4xf32>
  %n = arith.addi %i, %c1 : index
  cf.br ^loop(%n : index)
^done:
  func.return
}
"""


def test_unknown_op_falls_back_to_the_old_path(monkeypatch, no_disk_cache):
    """A multi-block function (cf branches at the loop level) is not the emitter's: the llvm-dialect
    lowering compiles it, and the emitter's attempt leaves the module unchanged."""
    module = parse_and_verify(UNKNOWN, "unknown.mlir", load_all())
    printed = str(module)
    from minixla.backends.cpu.emit_llvm_ops import Unsupported

    with pytest.raises(Unsupported, match="blocks"):
        emit_module(module, {})
    assert str(module) == printed
    before = dict(STATS)
    x = _RNG.random(4, np.float32)
    out = compile_module(module, num_outputs={"g": 1})["g"](x)[0]
    assert STATS["fallback"] == before["fallback"] + 1 and STATS["direct"] == before["direct"]
    np.testing.assert_array_equal(out, x + x)


def test_big_function_is_cut_for_the_two_process_jit(monkeypatch, no_disk_cache):
    """With a low split threshold the running example's function is cut at a loop-nest boundary into
    a head and a `__tail`; the two objects compile in two processes and give the old path's result."""
    from minixla.backends.cpu import outline

    monkeypatch.setattr(parallel_jit, "MIN_INSTRUCTIONS", 40)
    monkeypatch.setattr(outline, "MIN_PART_OPS", 10)
    monkeypatch.setenv("MINIXLA_PARALLEL_JIT", "1")
    if not parallel_jit.enabled():
        pytest.skip("parallel compiles need os.fork and two usable cores")
    text, args, reference = CASES["conv"]
    new, taken, new_jit = _run(text, args, True, monkeypatch)
    assert taken == (1, 0)
    assert '__tail"(' in new_jit.llvm_ir and new_jit.objects == 2
    np.testing.assert_allclose(new, reference(*args), rtol=2e-5, atol=1e-5)


STRIDED_COPY = """
func.func @h(%x: memref<4x6xf32>, %out: memref<2x3xf32>) {
  %v = memref.subview %x[1, 2] [2, 3] [1, 1] : memref<4x6xf32> to memref<2x3xf32, strided<[6, 1], offset: 8>>
  "memref.copy"(%v, %out) : (memref<2x3xf32, strided<[6, 1], offset: 8>>, memref<2x3xf32>) -> ()
  func.return
}
"""


def test_strided_copy_is_an_element_loop(no_disk_cache):
    before = dict(STATS)
    x = _RNG.random((4, 6), np.float32)
    out = compile_module(parse_and_verify(STRIDED_COPY, "copy.mlir", load_all()), num_outputs={"h": 1})["h"](x)[0]
    assert (STATS["direct"] - before["direct"], STATS["fallback"] - before["fallback"]) == (1, 0), STATS["reason"]
    np.testing.assert_array_equal(out, x[1:3, 2:5])
