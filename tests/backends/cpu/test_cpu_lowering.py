"""Structure of the *-to-llvm lowering and of the LLVM IR translation: what
each pass leaves behind, intrinsic mangling, the C wrapper, linkage,
constants, and that `minixla-translate` output is valid LLVM IR."""

from __future__ import annotations
from tests.paths import REPO_ROOT

import os
import re
import subprocess
import sys
from pathlib import Path

import llvmlite.binding as llvm
import pytest
from xdsl.dialects import llvm as llvm_d
from xdsl.dialects.builtin import ModuleOp, UnrealizedConversionCastOp
from xdsl.parser import Parser

from minixla.backends.cpu.compiler import build_pipeline
from minixla.backends.cpu.target import host_target
from minixla.backends.cpu.translate import TranslationError, translate_to_llvm_ir
from minixla.dialects import load_all
from minixla.passes.lower_to_llvm import LOWER_TO_LLVM_PIPELINE, PASSES
from minixla.tools import translate

ROOT = REPO_ROOT

PROGRAM = """
"memref.global"() <{sym_name = "k", sym_visibility = "private", type = memref<2xbf16>,
    initial_value = dense<[1.5, -2.0]> : tensor<2xbf16>, constant}> : () -> ()
func.func @main(%a: memref<2xf32>, %b: memref<2xf64>, %m: memref<2xi1>, %out: memref<2xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %k = memref.get_global @k : memref<2xbf16>
  scf.for %i = %c0 to %c2 step %c1 {
    %x = memref.load %a[%i] : memref<2xf32>
    %y = memref.load %b[%i] : memref<2xf64>
    %z = memref.load %k[%i] : memref<2xbf16>
    %sel = memref.load %m[%i] : memref<2xi1>
    %sx = math.sqrt %x : f32
    %sy = math.sqrt %y : f64
    %t = math.tanh %sy : f64
    %e = arith.extf %sx : f32 to f64
    %w = arith.extf %z : bf16 to f64
    %s = arith.addf %e, %t : f64
    %s2 = arith.addf %s, %w : f64
    %r = arith.select %sel, %s2, %y : f64
    %q = func.call @twice(%r) : (f64) -> f64
    memref.store %q, %out[%i] : memref<2xf64>
  }
  return
}
func.func private @twice(%v: f64) -> f64 {
  %0 = arith.addf %v, %v : f64
  return %0 : f64
}
"""


def parse(text: str) -> ModuleOp:
    return Parser(load_all(), text).parse_module()


def run_passes(module: ModuleOp, spec: str) -> ModuleOp:
    build_pipeline(spec).apply(load_all(), module)
    module.verify()
    return module


@pytest.fixture(scope="module")
def lowered() -> ModuleOp:
    return run_passes(parse(PROGRAM), LOWER_TO_LLVM_PIPELINE)


def test_pass_table_and_pipeline():
    assert set(PASSES) == {"arith-emulate-narrow-floats", "arith-emulate-bf16", "lower-scf-to-cf", "convert-arith-to-llvm", "convert-math-to-llvm",
                           "convert-index-to-llvm", "convert-memref-to-llvm", "convert-func-to-llvm",
                           "convert-cf-to-llvm"}
    assert LOWER_TO_LLVM_PIPELINE.split(",")[:3] == ["arith-emulate-narrow-floats", "arith-emulate-bf16",
                                                     "lower-scf-to-cf"]
    assert LOWER_TO_LLVM_PIPELINE.endswith("reconcile-unrealized-casts")
    for cls in PASSES.values():
        assert cls.__dataclass_params__.frozen


def test_pipeline_leaves_only_llvm(lowered):
    for op in lowered.walk():
        assert op is lowered or op.name.startswith("llvm."), op.name
        assert not isinstance(op, UnrealizedConversionCastOp)


def test_intrinsics_mangled_and_libm_declared_once(lowered):
    intrinsics = {op.intrin.data for op in lowered.walk() if isinstance(op, llvm_d.CallIntrinsicOp)}
    assert {"llvm.sqrt.f32", "llvm.sqrt.f64"} <= intrinsics
    decls = [op.sym_name.data for op in lowered.ops if isinstance(op, llvm_d.FuncOp) and not op.body.blocks]
    assert decls == ["tanh"]


def test_wrapper_and_linkage(lowered):
    funcs = {op.sym_name.data: op for op in lowered.ops if isinstance(op, llvm_d.FuncOp)}
    assert "_mlir_ciface_main" in funcs and "_mlir_ciface_twice" not in funcs
    assert funcs["twice"].linkage.linkage.data == "internal"
    ir_text = translate_to_llvm_ir(lowered)
    assert re.search(r'define internal double @"twice"', ir_text)
    assert re.search(r'define void @"_mlir_ciface_main"\(ptr', ir_text)


def test_translation_parses_and_sets_host_target(lowered):
    ir_text = translate_to_llvm_ir(lowered)
    host = host_target()
    assert f'target triple = "{host.triple}"' in ir_text
    assert f'target datalayout = "{host.data_layout}"' in ir_text
    assert "0xR3FC0" in ir_text  # bf16 1.5
    assert re.search(r"@\"k\" = private unnamed_addr constant \[2 x bfloat\].*align 64", ir_text)
    mod = llvm.parse_assembly(ir_text)
    mod.verify()
    names = {f.name for f in mod.functions}
    assert {"llvm.sqrt.f32", "llvm.sqrt.f64", "tanh", "main", "_mlir_ciface_main"} <= names


def test_i1_is_a_byte_in_memory(lowered):
    loads = [op for op in lowered.walk() if isinstance(op, llvm_d.LoadOp)]
    assert any(str(op.dereferenced_value.type) == "i8" for op in loads)
    assert not any(str(op.dereferenced_value.type) == "i1" for op in loads)


def test_each_pass_alone_touches_only_its_dialect():
    for name in PASSES:
        module = run_passes(parse(PROGRAM), name)
        dialect = {"lower-scf-to-cf": "scf", "convert-arith-to-llvm": "arith", "convert-math-to-llvm": "math",
                   "convert-memref-to-llvm": "memref", "convert-func-to-llvm": "func",
                   "convert-cf-to-llvm": "cf", "convert-index-to-llvm": None, "arith-emulate-bf16": None,
                   "arith-emulate-narrow-floats": None}[name]
        if dialect is not None:
            assert not any(op.name.startswith(dialect + ".") for op in module.walk()), name
        if name == "convert-index-to-llvm":
            assert not any(op.name.startswith("arith.") and "index" in str(op) for op in module.walk())


def test_no_default_fast_math_flags(lowered):
    text = translate_to_llvm_ir(lowered)
    assert not re.search(r"\b(nnan|ninf|fast|reassoc)\b", text)


def test_unlowered_module_is_a_clear_error():
    module = run_passes(parse(PROGRAM), "convert-func-to-llvm")
    with pytest.raises(TranslationError, match="unrealized_conversion_cast|no LLVM IR translation|not fully lowered"):
        translate_to_llvm_ir(module)


def test_minixla_translate_cli(tmp_path, lowered, capsys):
    src = tmp_path / "lowered.mlir"
    src.write_text(str(lowered))
    assert translate.main(["--mlir-to-llvmir", str(src)]) == 0
    out = capsys.readouterr().out
    llvm.parse_assembly(out).verify()
    bad = tmp_path / "bad.mlir"
    bad.write_text(PROGRAM)
    assert translate.main(["--mlir-to-llvmir", str(bad)]) == 1
    assert "error:" in capsys.readouterr().err


def _opt_knows_our_passes() -> bool:
    from minixla.passes import available_passes

    return set(PASSES) <= set(available_passes())


@pytest.mark.slow  # ~20 s of process start-ups; `pytest -m slow` runs it
@pytest.mark.skipif(_opt_knows_our_passes(), reason="the lit suite (test_lit.py) runs these files")
def test_filecheck_files_with_local_registry():
    """Until the passes are in the global registry, run our FileCheck files
    through minixla-opt with them registered in-process."""
    driver = ("import sys, passes\nfrom passes.lower_to_llvm import PASSES\n"
              "for n, c in PASSES.items(): passes._PASSES[n] = (lambda c=c: c)\n"
              "from minixla.tools.opt import main\nsys.exit(main())\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONHASHSEED": "0"}
    filecheck = Path(sys.executable).parent / "filecheck"
    for path in sorted((ROOT / "filecheck/passes/lower_to_llvm").glob("*.mlir")):
        for line in path.read_text().splitlines():
            m = re.match(r"// RUN: minixla-opt %s (.*) \| filecheck %s$", line)
            if not m:
                continue
            opt = subprocess.run([sys.executable, "-c", driver, str(path), *m.group(1).split()],
                                 env=env, cwd=ROOT, capture_output=True, text=True)
            assert opt.returncode == 0, f"{path.name}: {opt.stderr}"
            check = subprocess.run([str(filecheck), str(path)], input=opt.stdout, capture_output=True, text=True)
            assert check.returncode == 0, f"{path.name}:\n{check.stderr}"
