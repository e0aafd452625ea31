"""hlo -> Graphviz DOT (passes/hlo_dot.py), `minixla-translate --hlo-to-dot/--hlo-to-svg`
and `get_compiler_ir(stage='hlo_dot'/'optimized_hlo_dot')`: the DOT text is parsed
back and compared with the IR (nodes per op, clusters per fusion, edges per use);
rendering with `dot -Tsvg` runs when Graphviz is installed."""

from __future__ import annotations

import re
import shutil
import sys
from dataclasses import dataclass, field

import pytest
from minixla.dialects import load_all
from minixla.dialects.diagnostics import parse_and_verify
from minixla.passes import run_pipeline
from minixla.passes.hlo_dot import DotRenderError, module_to_dot, render_svg
from minixla.tools.translate import main as translate_main

PROGRAM = """func.func @main(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>, %w: tensor<8x3xf32>) -> (tensor<4xf32>, tensor<4x3xf32>) {
  %0 = hlo.add %x, %y : tensor<4x8xf32>
  %1 = hlo.multiply %0, %x : tensor<4x8xf32>
  %z = hlo.constant dense<0.0> : tensor<f32>
  %2 = hlo.reduce(%1 init: %z) applies hlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  %3 = hlo.exponential %1 : tensor<4x8xf32>
  %4 = hlo.dot_general %3, %w, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<8x3xf32>) -> tensor<4x3xf32>
  %5 = hlo.tanh %4 : tensor<4x3xf32>
  %6 = hlo.negate %5 : tensor<4x3xf32>
  func.return %2, %6 : tensor<4xf32>, tensor<4x3xf32>
}
"""


@dataclass
class Graph:
    """What the DOT text declares: nodes (id -> first label line), edges, cluster members."""

    nodes: dict[str, str] = field(default_factory=dict)
    edges: list[tuple[str, str]] = field(default_factory=list)
    clusters: dict[str, list[str]] = field(default_factory=dict)


def parse_dot(text: str) -> Graph:
    g = Graph()
    lines = text.splitlines()
    assert lines[0].startswith("digraph ") and lines[-1] == "}"
    open_clusters: list[str] = []
    for line in lines[1:-1]:
        s = line.strip()
        if m := re.fullmatch(r"subgraph (cluster_\w+) \{", s):
            open_clusters.append(m.group(1))
            g.clusters[m.group(1)] = []
        elif s == "}":
            open_clusters.pop()
        elif m := re.fullmatch(r'(n\d+) \[label="((?:[^"\\]|\\.)*)".*\];', s):
            g.nodes[m.group(1)] = m.group(2).split("\\n")[0]
            for c in open_clusters:
                g.clusters[c].append(m.group(1))
        elif m := re.fullmatch(r"(n\d+) -> (n\d+)( \[.*\])?;", s):
            g.edges.append((m.group(1), m.group(2)))
    assert not open_clusters
    return g


def _module(optimize: bool):
    module = parse_and_verify(PROGRAM, "prog.mlir", load_all())
    if optimize:
        run_pipeline(module, "hlo-optimize")
    return module


def _drawn_ops(block):
    """Ops drawn as nodes: every op of the block, fusion bodies recursively (minus hlo.return)."""
    for op in block.ops:
        if op.name == "hlo.fusion":
            yield from _drawn_ops(op.regions[0].block)
        if op.name != "hlo.return":
            yield op


@pytest.mark.parametrize("optimize", [False, True])
def test_nodes_clusters_and_edges_match_the_ir(optimize):
    module = _module(optimize)
    fn = next(iter(module.ops))
    fusions = [op for op in module.walk() if op.name == "hlo.fusion"]
    assert bool(fusions) == optimize
    g = parse_dot(module_to_dot(module))
    ops = list(_drawn_ops(fn.body.block))
    params = len(fn.body.block.args) + sum(len(f.regions[0].block.args) for f in fusions)
    assert len(g.nodes) == len(ops) + params
    assert sorted(lbl for lbl in g.nodes.values() if not lbl.startswith("parameter(")) == \
        sorted(op.name + (f" kind={op.kind.data}" if op.name == "hlo.fusion" else "") for op in ops)
    # one edge per SSA use: operands of drawn ops, fusion operands into their parameters,
    # fusion results (the body's hlo.return operands) into the fusion node
    uses = sum(len(op.operands) for op in ops if op.name != "hlo.fusion")
    uses += sum(len(f.operands) + len(f.regions[0].block.last_op.operands) for f in fusions)
    assert len(g.edges) == uses
    assert all(a in g.nodes and b in g.nodes for a, b in g.edges)
    assert sorted(g.clusters) == [f"cluster_fusion_{i}" for i in range(len(fusions))]
    for name, fusion in zip(sorted(g.clusters), fusions):
        body = fusion.regions[0].block
        members = [g.nodes[n] for n in g.clusters[name]]
        assert members.count(f"hlo.fusion kind={fusion.kind.data}") == 1
        assert sum(lbl.startswith("parameter(") for lbl in members) == len(body.args)
        assert len(members) == len(body.args) + len(list(_drawn_ops(body))) + 1


def test_edges_follow_the_dataflow():
    g = parse_dot(module_to_dot(_module(False)))
    by_label = {lbl: n for n, lbl in g.nodes.items() if not lbl.startswith("parameter")}
    sources = {lbl: sorted(g.nodes[a] for a, b in g.edges if b == n) for lbl, n in by_label.items()}
    assert sources["hlo.add"] == ["parameter(0)", "parameter(1)"]
    assert sources["hlo.multiply"] == ["hlo.add", "parameter(0)"]
    assert sources["hlo.reduce"] == ["hlo.constant", "hlo.multiply"]
    assert sources["hlo.dot_general"] == ["hlo.exponential", "parameter(2)"]
    assert sources["func.return"] == ["hlo.negate", "hlo.reduce"]


def test_labels_carry_shapes_and_region_ops():
    text = module_to_dot(_module(False))
    assert 'label="hlo.dot_general\\ntensor<4x3xf32>"' in text
    assert 'label="hlo.reduce\\napplies hlo.add\\ntensor<4xf32>"' in text


def test_several_functions_are_clusters():
    text = PROGRAM + "func.func private @g(%a: tensor<f32>) -> tensor<f32> {\n  func.return %a : tensor<f32>\n}\n"
    g = parse_dot(module_to_dot(parse_and_verify(text, "two.mlir", load_all())))
    assert sorted(g.clusters) == ["cluster_func_0", "cluster_func_1"]
    assert len(g.clusters["cluster_func_1"]) == 2


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz `dot` is not installed (apt-get install graphviz)")
def test_renders_with_dot():
    text = module_to_dot(_module(True))
    svg = render_svg(text)
    assert svg.lstrip().startswith("<?xml") and "<svg" in svg
    g = parse_dot(text)
    assert svg.count('class="node"') == len(g.nodes)
    assert svg.count('class="edge"') == len(g.edges)
    assert svg.count('class="cluster"') == len(g.clusters) >= 1


def test_translate_hlo_to_dot(tmp_path, capsys):
    path = tmp_path / "prog.mlir"
    path.write_text(PROGRAM)
    assert translate_main(["--hlo-to-dot", str(path)]) == 0
    out = capsys.readouterr().out
    assert parse_dot(out).nodes == parse_dot(module_to_dot(_module(False))).nodes


def test_translate_hlo_to_svg_without_graphviz_is_a_clear_error(tmp_path, capsys, monkeypatch):
    path = tmp_path / "prog.mlir"
    path.write_text(PROGRAM)
    monkeypatch.setattr(shutil, "which", lambda name, *a, **k: None)
    monkeypatch.setitem(sys.modules, "graphviz", None)  # import fails
    with pytest.raises(DotRenderError, match="needs Graphviz"):
        render_svg("digraph g {}")
    assert translate_main(["--hlo-to-svg", str(path)]) == 1
    err = capsys.readouterr().err
    assert "rendering SVG needs Graphviz" in err and "Traceback" not in err


def test_get_compiler_ir_dot_stages():
    from minixla import tf

    @tf.function(jit_compile=True)
    def f(x, y):
        return tf.reduce_sum(tf.exp(x * y) + y, axis=1)

    ir = f.experimental_get_compiler_ir(tf.ones([2, 3]), tf.ones([2, 3]))
    plain, optimized = parse_dot(ir(stage="hlo_dot")), parse_dot(ir(stage="optimized_hlo_dot"))
    assert not plain.clusters and optimized.clusters
    assert "hlo.exponential" in plain.nodes.values()
    assert any(lbl.startswith("hlo.fusion") for lbl in optimized.nodes.values())
    with pytest.raises(ValueError, match="Invalid stage selected: 'hlo_dots'"):
        ir(stage="hlo_dots")
