"""The `hlo` ops from Python: constructors, verification and printing, and
an in-process print/parse fixpoint over the lit round-trip inputs.

The lit tests in filecheck/dialects/ pin the printed syntax with the pipeline
`minixla-opt %s --print-op-generic | minixla-opt` (two processes per file to
keep lit fast); `test_roundtrip_fixpoint` adds what that pipeline does not
exercise -- that the *pretty* output parses back to the same text -- without
paying a process start per file.
"""

from __future__ import annotations
from tests.paths import REPO_ROOT

from io import StringIO

import pytest
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, ModuleOp, TensorType, f32, i32
from xdsl.ir import Block
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from minixla.dialects import hlo, load_all
from minixla.dialects.diagnostics import parse_and_verify
from minixla.dialects.hlo_ops.base import HLO_OPS, RAW_OPS, int_value, ints

ROOT = REPO_ROOT
CTX = load_all()
ROUNDTRIP_FILES = sorted(p for p in (ROOT / "filecheck" / "dialects").rglob("*.mlir")
                         if not p.name.startswith("invalid_"))


def _print(op, generic: bool = False) -> str:
    out = StringIO()
    Printer(stream=out, print_generic_format=generic).print_op(op)
    return out.getvalue()


def _block(*types):
    return Block(arg_types=list(types))


# -- the dialect ----------------------------------------------------------------

def test_dialect_has_102_ops_with_stablehlo_twins():
    # 64 core ops + 13 collective/communication ops (dialects/hlo_ops/collective.py)
    # + 13 structural, dynamic-shape and quantization ops (hlo_ops/structural.py, hlo_ops/quantization.py)
    # + fft (hlo_ops/fft.py) + cholesky, triangular_solve (hlo_ops/linalg.py) + complex, real, imag (complex_parts.py)
    # + tan, cbrt, round_nearest_afz, popcnt, count_leading_zeros, reduce_precision (elementwise.py)
    assert len(HLO_OPS) == 102
    assert set(HLO_OPS) == set(RAW_OPS)
    assert hlo.OPS["add"] is hlo.AddOp
    names = {op.name for op in hlo.HLO.operations}
    assert {f"hlo.{m}" for m in HLO_OPS} | {"hlo.fusion"} == names  # hlo.fusion: no stablehlo twin
    assert CTX.get_optional_op("stablehlo.dot_general") is not None


@pytest.mark.parametrize("path", ROUNDTRIP_FILES, ids=lambda p: str(p.relative_to(ROOT / "filecheck")))
def test_roundtrip_files_are_lit_tests(path):
    text = path.read_text()
    assert "// RUN: minixla-opt %s" in text and "// CHECK" in text


def test_every_op_has_a_roundtrip_file():
    """Each op has filecheck/dialects/hlo/<mnemonic>.mlir, or a checked function named after it in a file
    that round-trips several ops (one RUN line: a process start per file is lit's main cost)."""
    hlo_dir = ROOT / "filecheck" / "dialects" / "hlo"
    shared = "".join(p.read_text() for p in hlo_dir.glob("*.mlir"))
    missing = [m for m in HLO_OPS if not (hlo_dir / f"{m}.mlir").exists()
               and not (f"// CHECK-LABEL: func.func @{m}(" in shared and f"hlo.{m} " in shared)]
    assert not missing, f"ops without a round trip in filecheck/dialects/hlo: {missing}"


# -- print/parse fixpoint of the lit inputs --------------------------------------

@pytest.mark.parametrize("path", ROUNDTRIP_FILES, ids=lambda p: str(p.relative_to(ROOT / "filecheck")))
def test_roundtrip_fixpoint(path):
    module = parse_and_verify(path.read_text(), str(path), CTX)
    pretty = _print(module)
    # pretty -> parse -> pretty is the identity
    assert _print(parse_and_verify(pretty, "<pretty>", CTX)) == pretty
    # generic -> parse -> pretty gives the same pretty text
    generic = _print(module, generic=True)
    assert _print(parse_and_verify(generic, "<generic>", CTX)) == pretty
    # and generic text is itself a fixpoint
    assert _print(parse_and_verify(generic, "<generic>", CTX), generic=True) == generic


# -- builders ------------------------------------------------------------------

T = TensorType(f32, [2, 3])


def test_binary_builder_infers_result_type():
    block = _block(T, T)
    op = hlo.AddOp(block.args[0], block.args[1])
    block.add_op(op)
    op.verify()
    assert op.result.type == T
    assert _print(op) == "%0 = hlo.add %1, %2 : tensor<2x3xf32>"


def test_unary_builder_and_abs_of_complex():
    from xdsl.dialects.builtin import ComplexType, f64

    z = TensorType(ComplexType(f64), [4])
    block = _block(z)
    op = hlo.AbsOp(block.args[0], TensorType(f64, [4]))
    block.add_op(op)
    op.verify()
    bad = hlo.AbsOp(block.args[0])  # result defaults to the operand type: wrong for complex
    block.add_op(bad)
    with pytest.raises(VerifyException, match=r"result type tensor<4xcomplex<f64>> must be tensor<4xf64>"):
        bad.verify()


def test_binary_builder_rejects_mismatched_types():
    block = _block(T, TensorType(f32, [3, 2]))
    op = hlo.MultiplyOp(block.args[0], block.args[1])
    block.add_op(op)
    with pytest.raises(VerifyException, match="must be equal"):
        op.verify()


def test_constant_builder():
    value = DenseIntOrFPElementsAttr.from_list(TensorType(i32, [3]), [1, 2, 3])
    op = hlo.ConstantOp(value)
    op.verify()
    assert op.output.type == TensorType(i32, [3])
    assert "hlo.constant dense<[1, 2, 3]> : tensor<3xi32>" in _print(op)


def test_convert_builder():
    block = _block(T)
    op = hlo.ConvertOp(block.args[0], TensorType(i32, [2, 3]))
    block.add_op(op)
    op.verify()
    assert "hlo.convert" in _print(op) and "-> tensor<2x3xi32>" in _print(op)


def test_return_builder_in_if():
    src = """
    func.func @f(%p: tensor<i1>, %x: tensor<2x3xf32>) -> tensor<2x3xf32> {
      %r = "hlo.if"(%p) ({
        hlo.return %x : tensor<2x3xf32>
      }, {
        hlo.return %x : tensor<2x3xf32>
      }) : (tensor<i1>) -> tensor<2x3xf32>
      func.return %r : tensor<2x3xf32>
    }
    """
    module = parse_and_verify(src, "<if>", CTX)
    if_op = next(op for op in module.walk() if op.name == "hlo.if")
    # replace the false branch's return by a builder-made one returning the predicate
    false_block = if_op.false_branch.block
    old = false_block.last_op
    false_block.insert_op_before(hlo.ReturnOp([if_op.pred]), old)
    old.detach()
    old.erase()
    with pytest.raises(VerifyException, match=r"false_branch returns \['tensor<i1>'\]"):
        if_op.verify_()


def test_python_accessors():
    src = """
    func.func @f(%x: tensor<2x3xf32>, %z: tensor<f32>, %k: tensor<3x4xf32>) {
      %r = hlo.reduce(%x init: %z) applies hlo.add across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
      %c = hlo.compare LT, %x, %x, FLOAT : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
      %d = hlo.dot_general %x, %k, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
      %i = hlo.iota dim = 1 : tensor<2x3xi32>
      func.return
    }
    """
    module = parse_and_verify(src, "<acc>", CTX)
    ops = {op.name: op for op in module.walk()}
    assert ints(ops["hlo.reduce"].dimensions) == (1,)
    assert ops["hlo.compare"].comparison_direction.data.value == "LT"
    assert ops["hlo.compare"].compare_type.data.value == "FLOAT"
    assert ops["hlo.dot_general"].dot_dimension_numbers.lhs_contracting_dimensions == (1,)
    assert int_value(ops["hlo.iota"].iota_dimension) == 1
    assert ops["hlo.reduce"].results[0].type == TensorType(f32, [2])
    assert isinstance(module, ModuleOp)


# -- regressions: element-type rules and zero-operand printing ---------

def test_optimization_barrier_without_operands_roundtrips():
    src = '"hlo.optimization_barrier"() : () -> ()\n%a = "test.op"() : () -> tensor<f32>\n'
    module = parse_and_verify(src, "<ob>", CTX)
    assert _print(parse_and_verify(_print(module), "<ob2>", CTX)) == _print(module)


_X = '%x = "test.op"() : () -> tensor<2x3xf32>\n'
UNCHECKED = {
    "reduce_init_element_type": _X + '%z = "test.op"() : () -> tensor<i32>\n'
    '%0 = hlo.reduce(%x init: %z) applies hlo.add across dimensions = [1] : (tensor<2x3xf32>, tensor<i32>) -> tensor<2xi32>',
    "reduce_body_element_type": _X + '%z = "test.op"() : () -> tensor<f32>\n'
    '%0 = hlo.reduce(%x init: %z) across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xi32>\n'
    '  reducer(%p: tensor<i32>, %q: tensor<i32>) {\n    hlo.return %q : tensor<i32>\n  }',
    "dot_general_operand_element_types": _X + '%b = "test.op"() : () -> tensor<3x4xi8>\n'
    '%0 = hlo.dot_general %x, %b, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x4xi8>) -> tensor<2x4xbf16>',
    "convolution_window_reversal_length": '%x = "test.op"() : () -> tensor<1x8x8x3xf32>\n'
    '%k = "test.op"() : () -> tensor<3x3x3x16xf32>\n'
    '%0 = hlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {reverse = [true]} '
    '{batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x6x6x16xf32>',
    "all_reduce_computation_element_type": '%x = "test.op"() : () -> tensor<4xf32>\n'
    '%0 = "hlo.all_reduce"(%x) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> ({\n'
    '^bb0(%p: tensor<i32>, %q: tensor<i32>):\n  hlo.return %p : tensor<i32>\n}) : (tensor<4xf32>) -> tensor<4xf32>',
    "scatter_update_element_type": '%x = "test.op"() : () -> tensor<3x4xf32>\n%i = "test.op"() : () -> tensor<2x1xi32>\n'
    '%u = "test.op"() : () -> tensor<2x4xf64>\n'
    '%0 = "hlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #hlo.scatter<update_window_dims = [1], '
    'inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({\n'
    '^bb0(%p: tensor<i8>, %q: tensor<i8>):\n  hlo.return %p : tensor<i8>\n'
    '}) : (tensor<3x4xf32>, tensor<2x1xi32>, tensor<2x4xf64>) -> tensor<3x4xf32>',
}


@pytest.mark.parametrize("name", sorted(UNCHECKED))
def test_verifier_gap_rejected(name):
    from minixla.dialects.diagnostics import DiagnosticError

    with pytest.raises(DiagnosticError):
        parse_and_verify(UNCHECKED[name], f"<{name}>", CTX)
