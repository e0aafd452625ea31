"""dialects/op_definitions.py: op definitions built on first use equal xDSL's eager ones, for every op
class of every dialect minixla loads (xDSL's and ours); parsing, verifying and printing the lit
corpus gives what it gives without the patch; other op classes keep xDSL's eager definition."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: run in a fresh process; without the patch, a stand-in module with a no-op `install` is found first
DUMP = r"""
import json, re, sys, types
if sys.argv[1] == "stock":
    sys.modules["minixla.dialects.op_definitions"] = types.SimpleNamespace(install=lambda: None)
from minixla import tf  # noqa: F401 -- registers the TF op table (the tf dialect)
from minixla.dialects import load_all
from xdsl.irdl import IRDLOperation
from xdsl.parser import Parser

ADDR = re.compile(r" at 0x[0-9a-f]+")

def r(x):
    return ADDR.sub(" at 0x", repr(x))

def defs(pairs):
    return [(n, type(d).__name__, r(getattr(d, "constr", getattr(d, "entry_args", None)))) for n, d in pairs]

def attrs(m):
    return [(n, type(d).__name__, r(d.constr), r(d.default_value)) for n, d in m.items()]

def describe(cls):
    d = cls.get_irdl_definition()
    cls_vars = [(k, type(v).__name__ if callable(v) or isinstance(v, (classmethod, staticmethod)) else r(v))
                for k, v in vars(cls).items()]
    return {"name": d.name, "operands": defs(d.operands), "results": defs(d.results),
            "attributes": attrs(d.attributes), "properties": attrs(d.properties), "regions": defs(d.regions),
            "successors": [(n, type(s).__name__) for n, s in d.successors], "options": [r(o) for o in d.options],
            "accessors": sorted(d.accessor_names.items()), "format": d.assembly_format,
            "directives": sorted(d.custom_directives), "traits": sorted(r(t) for t in d.traits),  # (a frozenset)
            "traits_are_the_class_traits": d.traits is cls.traits, "class": cls_vars,
            "same_def_again": cls.get_irdl_definition() is d}

ctx = load_all()
ops = {}
for name in sorted(ctx.registered_dialect_names):
    dialect = ctx.get_optional_dialect(name)
    for op in dialect.operations if dialect is not None else ():
        if issubclass(op, IRDLOperation):
            ops[f"{op.__module__}.{op.__qualname__}"] = describe(op)
corpus = {}
for path in sys.argv[2:]:
    for i, chunk in enumerate(open(path).read().split("// -----")):
        try:
            module = Parser(load_all(), chunk).parse_module()
            module.verify()
            out = str(module)
        except Exception as err:  # noqa: BLE001
            out = f"{type(err).__name__}: {err}"
        corpus[f"{path}#{i}"] = out
print(json.dumps({"ops": ops, "corpus": corpus}))
"""


def _dump(mode: str, files: list[str]) -> dict:
    out = subprocess.run([sys.executable, "-c", DUMP, mode, *files], cwd=ROOT, capture_output=True, text=True,
                         timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout)


def _corpus() -> list[str]:
    """The lit tests' inputs of the dialects and the CPU pipeline's passes (xDSL's lowering dialects)."""
    files = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "filecheck").rglob("*.mlir"))
    assert len(files) > 100
    return files


@pytest.fixture(scope="module")
def dumps():
    files = _corpus()
    return _dump("patched", files), _dump("stock", files)


def test_every_op_definition_equals_xdsls(dumps):
    patched, stock = dumps
    assert len(stock["ops"]) > 500 and any(k.startswith("xdsl.dialects.linalg") for k in stock["ops"])
    assert any(k.startswith("minixla.dialects.hlo") for k in stock["ops"])
    assert patched["ops"].keys() == stock["ops"].keys()
    different = [k for k in stock["ops"] if patched["ops"][k] != stock["ops"][k]]
    assert not different, (different[:5], patched["ops"][different[0]], stock["ops"][different[0]])
    assert all(d["same_def_again"] for d in patched["ops"].values())


def test_the_lit_corpus_parses_verifies_and_prints_the_same(dumps):
    patched, stock = dumps
    assert len(stock["corpus"]) > 300
    assert sum(not v.startswith(("VerifyException", "ParseError", "DiagnosticException"))
               for v in stock["corpus"].values()) > 100  # (most chunks parse and verify)
    different = [k for k in stock["corpus"] if patched["corpus"][k] != stock["corpus"][k]]
    assert not different, [(k, patched["corpus"][k][:300], stock["corpus"][k][:300]) for k in different[:3]]


def test_lowering_dialects_are_deferred_and_all_definitions_build():
    """In a fresh process: what a first compile imports is deferred; every deferred op builds."""
    probe = ("import minixla.frontend\n"
             "from minixla.dialects import op_definitions as od\n"
             "from xdsl.dialects import arith, math, memref, scf, tensor\n"
             "from xdsl.dialects.linalg import ops as linalg\n"
             "from xdsl.irdl import IRDLOperation\n"
             "mods = (arith, linalg, math, memref, scf, tensor)\n"
             "ops = [c for m in mods for c in vars(m).values() if isinstance(c, type)\n"
             "       and issubclass(c, IRDLOperation) and c.__module__ == m.__name__ and 'get_irdl_definition' in vars(c)]\n"
             "deferred = [c for c in ops if c in od.DEFERRED]\n"
             "print(len(ops), len(deferred), od.build_all() == len(od.DEFERRED))\n"
             "print(sorted({c.__module__ for c in od.FALLBACKS if c.__module__.startswith('minixla')}))")
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    counts, fallbacks = out.stdout.splitlines()
    n_ops, n_deferred, built = counts.split()
    assert int(n_ops) > 150 and int(n_deferred) >= int(n_ops) - 10 and built == "True", out.stdout
    assert fallbacks == "[]"  # all of minixla's op classes take the fast path


def test_other_op_classes_keep_the_eager_definition():
    from xdsl.dialects.builtin import i32
    from xdsl.irdl import IRDLOperation, OperandDef, irdl_op_definition, operand_def, result_def
    from xdsl.utils.exceptions import PyRDLOpDefinitionError

    from minixla.dialects import op_definitions

    @irdl_op_definition
    class Twice(IRDLOperation):
        name = "user.twice"
        x = operand_def(i32)
        y = result_def(i32)

    assert Twice not in op_definitions.DEFERRED
    d = Twice.get_irdl_definition()
    assert [n for n, _ in d.operands] == ["x"] and d.operands[0][1] == OperandDef(i32)

    with pytest.raises(PyRDLOpDefinitionError, match="neither a function"):  # xDSL's own error, eagerly
        @irdl_op_definition
        class Bad(IRDLOperation):
            name = "user.bad"
            x = 3
