"""The disk cache's structural module digest (backends/ir_digest.py): the same module (re-parsed,
renamed SSA values) digests alike; any change a printer would show (an op, an operand's order, a
type, a shape, an attribute or property, a constant's bits, a region, a block argument, a branch
target) digests differently; a function renamed to a stand-in never collides with a literal
string; and over the hlo dialect's round-trip corpus, two functions digest alike exactly when they
print alike."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from xdsl.dialects.builtin import ModuleOp

from minixla.backends.cpu import compile_cache
from minixla.backends.ir_digest import module_digest
from minixla.dialects import load_all
from xdsl.parser import Parser
from tests.paths import REPO_ROOT


def _parse(text: str) -> ModuleOp:
    return Parser(load_all(), text).parse_module()


def _digest(module: ModuleOp, renamed=None) -> str | None:
    h = hashlib.sha256()
    return h.hexdigest() if module_digest(module, h, renamed) else None


BASE = """
func.func @f(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<3xf32> {
  %c = hlo.constant dense<2.0> : tensor<2x3xf32>
  %m = hlo.multiply %x, %c : tensor<2x3xf32>
  %s = hlo.subtract %m, %y : tensor<2x3xf32>
  %z = hlo.constant dense<0.0> : tensor<f32>
  %r = hlo.reduce(%s init: %z) applies hlo.add across dimensions = [0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<3xf32>
  func.return %r : tensor<3xf32>
}
"""

VARIANTS = [
    BASE.replace("%m, %y", "%y, %m"),  # operand order
    BASE.replace("hlo.subtract", "hlo.add"),  # an op
    BASE.replace("dense<2.0>", "dense<3.0>"),  # a constant's value
    BASE.replace("dense<0.0>", "dense<-0.0>"),  # its bits
    BASE.replace("dimensions = [0]", "dimensions = [1]").replace("tensor<3xf32>", "tensor<2xf32>"),  # attr
    BASE.replace("2x3xf32", "3x2xf32").replace("tensor<3xf32>", "tensor<2xf32>"),  # shapes
    BASE.replace("f32", "f64"),  # dtypes
    BASE.replace("%m = hlo.multiply %x, %c : tensor<2x3xf32>",
                 '%m = hlo.multiply %x, %c {tag = "x"} : tensor<2x3xf32>'),  # a discardable attribute
    BASE.replace("applies hlo.add", "applies hlo.maximum"),  # a region's body
    BASE.replace("@f", "@g"),  # a function's name (kept unless renamed)
]

BRANCHES = """
func.func @h(%p: i1, %a: i32, %b: i32) -> i32 {
  cf.cond_br %p, ^t, ^e
^t:
  func.return %a : i32
^e:
  func.return %b : i32
}
"""


def test_the_same_module_digests_alike_and_any_change_differs():
    base = _digest(_parse(BASE))
    assert base is not None and _digest(_parse(BASE.replace("%m", "%renamed"))) == base
    others = [_digest(_parse(v)) for v in VARIANTS]
    assert None not in others and len({base, *others}) == len(others) + 1


def test_successors_digest_by_target():
    first = _digest(_parse(BRANCHES))
    swapped = _digest(_parse(BRANCHES.replace("cf.cond_br %p, ^t, ^e", "cf.cond_br %p, ^e, ^t")))
    assert first is not None and swapped is not None and first != swapped
    assert _digest(_parse(BRANCHES)) == first


def test_stand_ins_never_equal_a_literal_string():
    """A function renamed to a stand-in and one whose attribute literally spells the stand-in differ."""
    named = _parse(BASE.replace('%m = hlo.multiply %x, %c :', '%m = hlo.multiply %x, %c {tag = "f"} :'))
    literal = _parse(BASE.replace('%m = hlo.multiply %x, %c :', '%m = hlo.multiply %x, %c {tag = "#0"} :'))
    assert _digest(named, {"f": "#0"}) != _digest(literal, {"f": "#0"})
    assert _digest(_parse(BASE), {"f": "#0"}) == _digest(_parse(BASE.replace("@f", "@g")), {"g": "#0"})


def test_use_before_definition_falls_back_to_printing():
    """A module the walk cannot order still gets a key, from its printed text."""
    module = _parse(BASE)
    f = next(iter(module.ops))
    ops = list(f.body.block.ops)
    ops[1].detach()
    f.body.block.add_op(ops[1])  # the multiply now comes after its use
    assert _digest(module) is None
    key = compile_cache.module_key(module, "f", 3, "p")
    assert key == compile_cache.module_key(module, "f", 3, "p")
    assert key != compile_cache.module_key(_parse(BASE), "f", 3, "p")


def _corpus_functions() -> list[ModuleOp]:
    found = []
    for path in sorted((REPO_ROOT / "filecheck" / "dialects" / "hlo").glob("*.mlir")):
        text = Path(path).read_text()
        if "-----" in text or "verify-diagnostics" in text:
            continue
        try:
            module = _parse(text)
        except Exception:  # noqa: BLE001 -- files that test parse errors
            continue
        for op in module.ops:
            if op.name == "func.func":
                op.sym_name = type(op.sym_name)("same")
                found.append(ModuleOp([op.clone()]))
    return found


def test_digest_equal_exactly_when_printed_equal_over_the_hlo_corpus():
    modules = _corpus_functions()
    assert len(modules) > 100
    by_text: dict[str, str] = {}
    by_digest: dict[str, str] = {}
    for m in modules:
        text, digest = compile_cache.printed(m), _digest(m)
        assert digest is not None
        assert by_text.setdefault(text, digest) == digest
        assert by_digest.setdefault(digest, text) == text
        assert _digest(_parse(text)) == digest  # round trip
    assert len(by_digest) > 100


@pytest.mark.parametrize("renamed", [None, {"same": "#0"}])
def test_digest_is_deterministic(renamed):
    m = _parse(BASE)
    assert _digest(m, renamed) == _digest(m.clone(), renamed)


def test_properties_attributes_and_result_counts_are_told_apart():
    generic = '''
"func.func"() <{sym_name = "f", function_type = () -> ()}> ({
  %a = "test.op"() <{k = 1 : i32}> : () -> tensor<f32>
  "func.return"() : () -> ()
}) : () -> ()
'''
    digests = {_digest(Parser(load_all(), text).parse_module(allow_implicit_module=True)) for text in (
        generic,
        generic.replace("<{k = 1 : i32}>", "{k = 1 : i32}"),  # a discardable attribute, not a property
        generic.replace("1 : i32", "1 : i64"),  # the attribute's type
        generic.replace("%a = ", "%a, %b = ").replace("-> tensor<f32>", "-> (tensor<f32>, tensor<f32>)"),
    )}
    assert None not in digests and len(digests) == 4
