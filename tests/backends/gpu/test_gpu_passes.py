"""Structure of the GPU passes: the nvvm dialect, what map-parallel-loops-to-gpu
chooses for each kind of loop, outlining's captures, and the NVVM lowering."""

from __future__ import annotations

import pytest
from xdsl.dialects import gpu, llvm
from xdsl.parser import Parser
from xdsl.utils.exceptions import VerifyException

from minixla.dialects import load_all
from minixla.passes import run_pipeline
from minixla.passes.gpu.mapping import MAPPING_ATTR
from minixla.passes.gpu.pipelines import LOOPS_TO_GPU
from tests.backends.gpu.gpu_cases import CASES


def parse(text: str):
    return Parser(load_all(), text).parse_module()


def test_nvvm_roundtrip_and_verifier():
    text = """func.func @f(%x: i32, %y: f32) -> f32 {
  %t = nvvm.read.ptx.sreg.tid.x : i32
  %w = nvvm.read.ptx.sreg.nctaid.z : i32
  nvvm.barrier0
  %m = arith.constant -1 : i32
  %v = nvvm.shfl.sync "bfly" %m, %y, %t, %w : f32 -> f32
  return %v : f32
}"""
    m = parse(text)
    m.verify()
    assert str(parse(str(m))) == str(m)
    bad = parse(text.replace('"bfly"', '"sideways"'))
    with pytest.raises(VerifyException, match="kind must be one of"):
        bad.verify()
    bad = parse(text.replace('%y, %t, %w : f32 -> f32', '%m, %t, %w : i32 -> i32').replace("-> f32 {", "-> i32 {")
                .replace("return %v : f32", "return %v : i32"))
    bad.verify()  # i32 is fine too


def mapped(case: str, upto: str = "map-parallel-loops-to-gpu"):
    from minixla.passes.pipelines import HLO_TO_LOOPS

    return run_pipeline(parse(CASES[case][0]), f"{HLO_TO_LOOPS},{upto}")


def tags(module) -> list[str]:
    return [op.attributes[MAPPING_ATTR].data for op in module.walk() if isinstance(op, gpu.LaunchOp)]


def test_mapping_choices():
    assert tags(mapped("f32_add")) == ["parallel"]
    assert tags(mapped("reduce_full_multiblock")).count("reduction-partials") == 1
    t = tags(mapped("reduce_rows_and_columns"))
    assert "row-reduction" in t and "parallel" in t
    assert "serial" in tags(mapped("while"))  # scf.while on the host level runs as a 1-thread kernel


def test_host_keeps_only_allocation_constants_and_launches():
    m = mapped("running_example", "map-parallel-loops-to-gpu,gpu-kernel-outlining")
    host = next(op for op in m.ops if op.name == "func.func")
    names = {op.name for op in host.body.block.ops}
    assert names <= {"arith.constant", "memref.alloc", "memref.dealloc", "memref.get_global", "gpu.launch_func",
                     "func.return"}, names
    kmod = next(op for op in m.ops if isinstance(op, gpu.ModuleOp))
    kernels = [op for op in kmod.body.block.ops if isinstance(op, gpu.FuncOp)]
    assert all(k.kernel is not None for k in kernels)
    assert "gpu.container_module" in m.attributes


def test_device_lowering_leaves_llvm_with_kernels_tagged():
    m = mapped("reduce_argmax_rows", "map-parallel-loops-to-gpu,canonicalize,cse,gpu-kernel-outlining,"
               "convert-gpu-to-nvvm,convert-nvvm-to-llvm")
    kmod = next(op for op in m.ops if isinstance(op, gpu.ModuleOp))
    dialects = {o.dialect_name() for op in kmod.body.block.ops for o in op.walk()}
    assert dialects == {"llvm"}, dialects
    shared = [op for op in kmod.body.block.ops if isinstance(op, llvm.GlobalOp)]
    assert shared and all(g.addr_space.value.data == 3 for g in shared)
    kernels = [op for op in kmod.body.block.ops if isinstance(op, llvm.FuncOp) and "gpu.kernel" in op.attributes]
    assert kernels and not any(op.sym_name.data.startswith("_mlir_ciface_") for op in kmod.body.block.ops
                               if isinstance(op, llvm.FuncOp))


def test_loop_level_input_and_copy_become_kernels():
    text = """func.func @main(%a: memref<4x8xf32>, %b: memref<4x8xf32>) {
  "memref.copy"(%a, %b) : (memref<4x8xf32>, memref<4x8xf32>) -> ()
  return
}"""
    m = run_pipeline(parse(text), LOOPS_TO_GPU)
    launches = [op for op in m.walk() if isinstance(op, gpu.LaunchFuncOp)]
    assert len(launches) == 1


def test_cross_kernel_scalars_are_spilled():
    m = mapped("while", "map-parallel-loops-to-gpu,gpu-kernel-outlining")
    host = next(op for op in m.ops if op.name == "func.func")
    assert not any(op.name.startswith(("scf.", "arith.addf", "memref.load")) for op in host.body.block.ops)
