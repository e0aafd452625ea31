"""AOT output (backends/cpu/aot.py): shared libraries built from hlo run, via
ctypes and from a C program, and agree with the reference interpreter; they
export only their entry points and need nothing beyond libc/libm/pthreads."""

from __future__ import annotations
from tests.paths import REPO_ROOT

import ctypes
import os
import re
import shutil
import subprocess
import sys

import numpy as np
import pytest
from xdsl.parser import Parser

from minixla.backends.cpu.aot import AotError, compile_aot, find_c_compiler
from minixla.backends.interpreter import InterpreterBackend
from minixla.dialects import load_all

ROOT = str(REPO_ROOT)


def _have_cc() -> bool:
    try:
        find_c_compiler()
    except AotError:
        return False
    return True


needs_cc = pytest.mark.skipif(not _have_cc(), reason="no C compiler (cc/gcc/clang) to link shared libraries")
needs_nm = pytest.mark.skipif(shutil.which("nm") is None, reason="nm (binutils) not installed")

ELEMENTWISE = """
func.func @scale_add(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %p = hlo.multiply %x, %y : tensor<4x8xf32>
  %r = hlo.add %p, %x : tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
func.func @wrap_add(%a: tensor<16xui8>, %b: tensor<16xui8>) -> (tensor<16xui8>, tensor<16xi1>) {
  %s = hlo.add %a, %b : tensor<16xui8>
  %c = hlo.compare LT, %s, %a : (tensor<16xui8>, tensor<16xui8>) -> tensor<16xi1>
  return %s, %c : tensor<16xui8>, tensor<16xi1>
}
"""

# the lecture's running example, tf.reduce_mean(tf.multiply(x ** 2, 3) + y), as the frontend traces it
RUNNING = """
func.func @running_example(%0: tensor<512x512xf32>, %1: tensor<512x512xf32>) -> tensor<f32> {
  %2 = hlo.constant dense<2.000000e+00> : tensor<f32>
  %3 = hlo.broadcast_in_dim %2, dims = [] : (tensor<f32>) -> tensor<512x512xf32>
  %4 = hlo.power %0, %3 : tensor<512x512xf32>
  %5 = hlo.constant dense<3.000000e+00> : tensor<f32>
  %6 = hlo.broadcast_in_dim %5, dims = [] : (tensor<f32>) -> tensor<512x512xf32>
  %7 = hlo.multiply %4, %6 : tensor<512x512xf32>
  %8 = hlo.add %7, %1 : tensor<512x512xf32>
  %9 = hlo.constant dense<0.000000e+00> : tensor<f32>
  %10 = hlo.reduce(%8 init: %9) applies hlo.add across dimensions = [0, 1] : (tensor<512x512xf32>, tensor<f32>) -> tensor<f32>
  %11 = hlo.constant dense<2.621440e+05> : tensor<f32>
  %12 = hlo.divide %10, %11 : tensor<f32>
  return %12 : tensor<f32>
}
"""

DOT = """
func.func @matmul(%a: tensor<64x48xf32>, %b: tensor<48x80xf32>) -> tensor<64x80xf32> {
  %r = hlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<64x48xf32>, tensor<48x80xf32>) -> tensor<64x80xf32>
  return %r : tensor<64x80xf32>
}
"""

WHILE = """
func.func @loop(%x: tensor<3xf64>) -> (tensor<i32>, tensor<3xf64>) {
  %i0 = hlo.constant dense<0> : tensor<i32>
  %r:2 = hlo.while(%i = %i0, %acc = %x) : tensor<i32>, tensor<3xf64>
  cond {
    %n = hlo.constant dense<5> : tensor<i32>
    %c = hlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    hlo.return %c : tensor<i1>
  } do {
    %one = hlo.constant dense<1> : tensor<i32>
    %i2 = hlo.add %i, %one : tensor<i32>
    %m = hlo.multiply %acc, %x : tensor<3xf64>
    %a2 = hlo.add %m, %x : tensor<3xf64>
    hlo.return %i2, %a2 : tensor<i32>, tensor<3xf64>
  }
  return %r#0, %r#1 : tensor<i32>, tensor<3xf64>
}
"""

# big enough for convert-parallel-loops-to-threads (tanh is a libm call or inlined)
THREADED = """
func.func @big(%x: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %t = hlo.tanh %x : tensor<1024x1024xf32>
  %e = hlo.exponential %t : tensor<1024x1024xf32>
  %r = hlo.multiply %e, %x : tensor<1024x1024xf32>
  return %r : tensor<1024x1024xf32>
}
"""


def _module(text: str):
    return Parser(load_all(), text).parse_module()


def _build(text: str, tmp_path, name: str, **kwargs):
    compiled = compile_aot(text, **kwargs)
    path = compiled.write_shared_library(str(tmp_path / f"lib{name}.so"))
    return compiled, path


def _call(path: str, compiled, entry: str, *inputs: np.ndarray) -> tuple[np.ndarray, ...]:
    """Call an exported entry point through ctypes: data pointers, outputs allocated here."""
    (ep,) = [e for e in compiled.entries if e.source == entry]
    module = _module(_source[entry])
    fn_type = next(op for op in module.ops if op.sym_name.data == entry).function_type
    from minixla.dialects.numpy_types import numpy_dtype

    outs = tuple(np.full(t.get_shape(), 0x5A, dtype=numpy_dtype(t.element_type)) for t in fn_type.outputs.data)
    lib = ctypes.CDLL(path)
    fn = getattr(lib, ep.symbol)
    fn.argtypes = [ctypes.c_void_p] * (len(inputs) + len(outs))
    fn.restype = None
    copies = [a.copy() for a in inputs]
    fn(*(np.ascontiguousarray(a).ctypes.data for a in (*inputs, *outs)))
    for a, c in zip(inputs, copies):
        np.testing.assert_array_equal(a, c)  # inputs are only read
    return outs


_source: dict[str, str] = {}


def _reference(entry: str, *inputs: np.ndarray) -> tuple[np.ndarray, ...]:
    return InterpreterBackend().compile(_module(_source[entry]), entry)(*inputs)


def _register(text: str) -> str:
    for name in re.findall(r"func\.func @(\w+)", text):
        _source[name] = text
    return text


FFT = """
func.func @spectrum(%x: tensor<3x12xf32>) -> (tensor<3x7xcomplex<f32>>, tensor<3x12xf32>) {
  %r = hlo.fft %x, type = RFFT, length = [3, 12] : (tensor<3x12xf32>) -> tensor<3x7xcomplex<f32>>
  %b = hlo.fft %r, type = IRFFT, length = [3, 12] : (tensor<3x7xcomplex<f32>>) -> tensor<3x12xf32>
  return %r, %b : tensor<3x7xcomplex<f32>>, tensor<3x12xf32>
}
"""

for _text in (ELEMENTWISE, RUNNING, DOT, WHILE, THREADED, FFT):
    _register(_text)

rng = np.random.default_rng(0)


def _symbols(path: str, *flags: str) -> list[tuple[str, str]]:
    out = subprocess.run(["nm", "-D", *flags, path], capture_output=True, text=True, check=True).stdout
    return [(line.split()[-2], line.split()[-1]) for line in out.splitlines() if line.strip()]


def _check_self_contained(path: str, compiled, extra_needed: tuple[str, ...] = ()) -> set[str]:
    """Exports are exactly the entry points + the thread setter; undefined
    symbols all come from glibc (versioned @GLIBC_) or are the usual weak ones."""
    exported = {name for kind, name in _symbols(path, "--defined-only") if kind in "TDBR"}
    assert exported == set(compiled.exports())
    undefined = {name for kind, name in _symbols(path, "--undefined-only") if kind == "U"}
    foreign = {n for n in undefined if "@GLIBC_" not in n}
    assert all(any(n.startswith(p) for p in extra_needed) for n in foreign), foreign
    if shutil.which("readelf"):
        dyn = subprocess.run(["readelf", "-d", path], capture_output=True, text=True, check=True).stdout
        needed = set(re.findall(r"\(NEEDED\)\s+Shared library: \[(.+?)\]", dyn))
        allowed = ("libc.so", "libm.so", "libpthread.so", "ld-linux", *extra_needed)
        assert all(n.startswith(allowed) for n in needed), needed
    return {n.split("@")[0] for n in undefined}


@needs_cc
@needs_nm
def test_elementwise_two_entries_unsigned_and_bool(tmp_path):
    compiled, path = _build(ELEMENTWISE, tmp_path, "ew")
    assert [e.symbol for e in compiled.entries] == ["minixla_scale_add", "minixla_wrap_add"]
    x, y = rng.standard_normal((2, 4, 8), dtype=np.float32)
    (got,) = _call(path, compiled, "scale_add", x, y)
    np.testing.assert_allclose(got, _reference("scale_add", x, y)[0], rtol=1e-6)
    a, b = (rng.integers(0, 256, 16).astype(np.uint8) for _ in range(2))
    s, c = _call(path, compiled, "wrap_add", a, b)
    want_s, want_c = _reference("wrap_add", a, b)
    np.testing.assert_array_equal(s, want_s)
    np.testing.assert_array_equal(c, want_c)  # i1: one byte, 0 or 1
    assert c.view(np.uint8).max() <= 1 and c.any()
    _check_self_contained(path, compiled)
    header = compiled.header()
    assert "void minixla_wrap_add(const uint8_t *arg0, const uint8_t *arg1, uint8_t *result0, bool *result1);" \
        in header
    assert "/* @wrap_add(ui8[16] arg0, ui8[16] arg1) -> (ui8[16] result0, i1[16] result1) */" in header


@needs_cc
@needs_nm
def test_running_example_fused_small_and_c_program(tmp_path):
    compiled, path = _build(RUNNING, tmp_path, "running")
    # hlo-optimize fused it into one threaded loop nest (unfused: the elementwise part is a loop of its own)
    assert len(re.findall(r'define internal void @"__mx_running_example_par\d+"\(', compiled.llvm_ir)) == 1
    x, y = rng.random((2, 512, 512), dtype=np.float32)
    (got,) = _call(path, compiled, "running_example", x, y)
    (want,) = _reference("running_example", x, y)
    np.testing.assert_allclose(got, want, rtol=1e-5)
    np.testing.assert_allclose(got, np.mean(x.astype(np.float64) ** 2 * 3 + y), rtol=1e-6)
    size = os.path.getsize(path)
    print(f"running example .so: {size} bytes")
    assert size < 64 * 1024, size  # small AOT binaries
    undefined = _check_self_contained(path, compiled)
    assert "pthread_create" in undefined  # 512x512 is threaded

    header = tmp_path / "running.h"
    header.write_text(compiled.header())
    main = tmp_path / "main.c"
    main.write_text(r"""
#include <stdio.h>
#include <stdlib.h>
#include "running.h"
int main(void) {
  float *x = malloc(512 * 512 * sizeof(float)), *y = malloc(512 * 512 * sizeof(float)), r = -1;
  for (int i = 0; i < 512 * 512; i++) { x[i] = (float)(i % 7) / 7.0f; y[i] = (float)(i % 3); }
  int64_t old = minixla_set_num_threads(2);
  minixla_running_example(x, y, &r);
  printf("%.6f %lld\n", r, (long long)old);
  free(x); free(y);
  return 0;
}
""")
    exe = tmp_path / "main"
    cc = find_c_compiler()
    subprocess.run([*cc, "-std=c99", "-Wall", "-Werror", "-o", str(exe), str(main), f"-I{tmp_path}",
                    f"-L{tmp_path}", "-lrunning", f"-Wl,-rpath,{tmp_path}"], check=True)
    out = subprocess.run([str(exe)], capture_output=True, text=True, check=True,
                         env={**os.environ, "MINIXLA_NUM_THREADS": "3"}).stdout.split()
    i = np.arange(512 * 512)
    xs, ys = ((i % 7) / 7.0).astype(np.float32), (i % 3).astype(np.float32)
    assert float(out[0]) == pytest.approx(np.mean(xs.astype(np.float64) ** 2 * 3 + ys), rel=1e-5)
    assert out[1] == "3"  # the count before the call: MINIXLA_NUM_THREADS


@needs_cc
@needs_nm
def test_dot_general_loops_by_default(tmp_path):
    compiled, path = _build(DOT, tmp_path, "dot")
    assert "sgemm" not in compiled.llvm_ir  # portable: loops, no OpenBLAS
    a, b = rng.standard_normal((64, 48), dtype=np.float32), rng.standard_normal((48, 80), dtype=np.float32)
    (got,) = _call(path, compiled, "matmul", a, b)
    np.testing.assert_allclose(got, _reference("matmul", a, b)[0], rtol=1e-4, atol=1e-4)
    _check_self_contained(path, compiled)


@needs_cc
@needs_nm
def test_dot_general_with_openblas(tmp_path):
    from minixla.backends.cpu import blas

    lib = blas.library()
    if lib is None:
        pytest.skip("no BLAS (MINIXLA_BLAS off or numpy without its bundled OpenBLAS)")
    compiled, path = _build(DOT, tmp_path, "dotblas", blas=True)
    assert "minixla_library_sgemm" in compiled.llvm_ir  # a product the library computes (linalg_to_blas)
    a, b = rng.standard_normal((64, 48), dtype=np.float32), rng.standard_normal((48, 80), dtype=np.float32)
    (got,) = _call(path, compiled, "matmul", a, b)
    np.testing.assert_allclose(got, _reference("matmul", a, b)[0], rtol=1e-4, atol=1e-4)
    base = os.path.basename(lib.path)
    undefined = _check_self_contained(path, compiled, extra_needed=(base, "scipy_", "openblas_", "cblas_"))
    assert lib.symbols[0] in undefined
    assert os.path.dirname(lib.path) in subprocess.run(["readelf", "-d", path], capture_output=True,
                                                       text=True, check=True).stdout  # rpath


@needs_cc
@needs_nm
def test_fft_links_the_kernel_in(tmp_path):
    compiled, path = _build(FFT, tmp_path, "fft")
    assert "minixla_rfft_c64" in compiled.llvm_ir
    x = rng.standard_normal((3, 12)).astype(np.float32)
    got = _call(path, compiled, "spectrum", x)
    for g, w in zip(got, _reference("spectrum", x)):
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-5 * np.abs(w).max())
    _check_self_contained(path, compiled)


@needs_cc
@needs_nm
def test_while_loop(tmp_path):
    compiled, path = _build(WHILE, tmp_path, "while")
    x = rng.standard_normal(3)
    got = _call(path, compiled, "loop", x)
    want = _reference("loop", x)
    assert int(got[0]) == int(want[0]) == 5
    np.testing.assert_allclose(got[1], want[1], rtol=1e-12)
    _check_self_contained(path, compiled)


@needs_cc
@needs_nm
def test_threaded_loop_same_result_for_any_thread_count(tmp_path):
    compiled = compile_aot(THREADED)
    path = compiled.write_shared_library(str(tmp_path / "libbig.so"), cpu="x86-64")  # portable build
    x = rng.standard_normal((1024, 1024), dtype=np.float32)
    setter = getattr(ctypes.CDLL(path), compiled.set_threads_symbol)
    setter.argtypes, setter.restype = [ctypes.c_int64], ctypes.c_int64
    env = os.environ.get("MINIXLA_NUM_THREADS", "")
    default = int(env) if env.isdigit() and int(env) > 0 else len(os.sched_getaffinity(0))
    assert setter(1) == default  # decided on first use, as the JIT's default_num_threads
    (one,) = _call(path, compiled, "big", x)
    assert setter(2) == 1
    (two,) = _call(path, compiled, "big", x)
    np.testing.assert_array_equal(one, two)
    np.testing.assert_allclose(two, _reference("big", x)[0], rtol=1e-5, atol=1e-6)
    undefined = _check_self_contained(path, compiled)
    assert {"pthread_create", "pthread_join"} <= undefined


def test_object_file_for_each_target_cpu():
    compiled = compile_aot(ELEMENTWISE, prefix="ew_")
    for cpu in ("host", "x86-64", "x86-64-v3"):
        obj = compiled.object_code(cpu)
        assert obj[:4] == b"\x7fELF"
        assert b"ew_scale_add" in obj and b"ew_set_num_threads" in obj
    with pytest.raises(AotError, match="unknown target CPU 'pentium'"):
        compiled.object_code("pentium")


def test_errors_are_clear(monkeypatch):
    with pytest.raises(AotError, match="no public function @nope; have @scale_add, @wrap_add"):
        compile_aot(ELEMENTWISE, entries=["nope"])
    with pytest.raises(AotError, match="clash"):
        compile_aot(ELEMENTWISE.replace("@wrap_add", "@set_num_threads"), prefix="x_").linked_module()
    monkeypatch.setenv("CC", "/nonexistent/cc")
    with pytest.raises(AotError, match="C compiler '/nonexistent/cc' not found"):
        compile_aot(ELEMENTWISE).write_shared_library("/tmp/never.so")


def test_no_c_compiler_message(monkeypatch):
    monkeypatch.delenv("CC", raising=False)
    monkeypatch.setenv("PATH", "/nonexistent")
    with pytest.raises(AotError, match="no C compiler found"):
        find_c_compiler()


@needs_cc
def test_cli_shared_library_and_header(tmp_path):
    src = tmp_path / "f.mlir"
    src.write_text(ELEMENTWISE)
    env = {**os.environ, "PYTHONPATH": ROOT}
    run = [sys.executable, "-m", "minixla.tools.translate"]
    lib, header = tmp_path / "libf.so", tmp_path / "f.h"
    proc = subprocess.run([*run, "--mlir-to-shared-library", str(src), "-o", str(lib), "--emit-header",
                           str(header), "--symbol-prefix", "f_", "--entry", "scale_add"],
                          cwd=ROOT, env=env, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert "void f_scale_add(const float *arg0, const float *arg1, float *result0);" in header.read_text()
    assert "wrap_add" not in header.read_text()
    proc = subprocess.run([*run, "--mlir-to-object", str(src), "-o", str(tmp_path / "f.o"), "--target-cpu", "z80"],
                          cwd=ROOT, env=env, capture_output=True, text=True)
    assert proc.returncode == 1 and "error: unknown target CPU 'z80'" in proc.stderr
    assert "Traceback" not in proc.stderr


COMPLEX = _register("""
func.func @cmul(%a: tensor<4xcomplex<f32>>, %b: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  %r = hlo.multiply %a, %b : tensor<4xcomplex<f32>>
  func.return %r : tensor<4xcomplex<f32>>
}
""")


@needs_cc
def test_complex_entry_takes_interleaved_pairs(tmp_path):
    """complex<f32> crosses as C99/numpy lay it out: a float array of (re, im) pairs."""
    compiled, path = _build(COMPLEX, tmp_path, "cmul")
    assert "void minixla_cmul(const float *arg0, const float *arg1, float *result0);" in compiled.header()
    assert "/* @cmul(c64[4] arg0, c64[4] arg1) -> (c64[4] result0) */" in compiled.header()
    a, b = (np.array([1 + 2j, 3 - 1j, 0.5j, -2], np.complex64), np.array([2 - 1j, 1j, 4, 1 + 1j], np.complex64))
    (got,) = _call(path, compiled, "cmul", a, b)
    np.testing.assert_array_equal(got, _reference("cmul", a, b)[0])


def test_aot_links_one_gemm_for_both_gemm_names():
    """The JIT's library-sized products call minixla_library_?gemm; AOT output links one gemm per type,
    so those calls become minixla_?gemm calls and the doubled declaration is kept once."""
    from minixla.backends.cpu.aot import _one_gemm_name

    sig = "(i32, i32, i32, i64, i64, i64, float, ptr, i64, ptr, i64, float, ptr, i64)"
    text = "\n".join([f'declare void @"minixla_sgemm"{sig}', f'declare void @"minixla_library_sgemm"{sig}',
                      "define void @f() {", '  call void @"minixla_library_sgemm"(i32 101)',
                      '  call void @"minixla_sgemm"(i32 101)', "  ret void", "}"])
    merged = _one_gemm_name(text)
    assert "library" not in merged
    assert merged.count("declare void") == 1 and merged.count('call void @"minixla_sgemm"') == 2
    assert _one_gemm_name("no gemm here") == "no gemm here"
