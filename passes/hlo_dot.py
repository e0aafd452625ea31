"""hlo -> Graphviz DOT, XLA's `--xla_dump_hlo_as_dot` for minixla: one node
per op (name, result shapes/dtypes), one edge per SSA use, each `hlo.fusion`
body drawn as a `subgraph cluster_fusion_N` with its parameters, ops and the
fusion node itself. Ops with other regions (reduce, sort, while, ...) stay
one node whose label names the ops of their regions. It only reads the IR,
so the frontend (`get_compiler_ir(stage='hlo_dot')`) and the tools share it.

    text = module_to_dot(module)        # all functions with bodies
    svg = render_svg(text)              # needs Graphviz (`dot`)
"""

from __future__ import annotations

import shutil
import subprocess

from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, SSAValue

#: fill colors by op family, as in XLA's dot dumps (constants gray, fusions blue)
_COLORS = {"hlo.constant": "#eeeeee", "hlo.fusion": "#cfe2f3", "func.return": "#f4cccc",
           "hlo.dot_general": "#fff2cc", "hlo.convolution": "#fff2cc", "hlo.reduce": "#d9ead3"}


class DotRenderError(Exception):
    """Graphviz is missing or rejected the graph."""


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _label(op: Operation) -> str:
    lines = [op.name + (f" kind={op.kind.data}" if op.name == "hlo.fusion" else "")]
    if op.name != "hlo.fusion" and op.regions:
        inner = sorted({o.name for r in op.regions for o in r.walk()} - {"hlo.return", "func.return"})
        if inner:
            lines.append("applies " + ", ".join(inner))
    types = [str(r.type) for r in op.results]
    if types:
        lines.append(", ".join(types))
    return "\n".join(lines)


class _Writer:
    def __init__(self) -> None:
        self.lines: list[str] = []
        self.ids: dict[SSAValue, str] = {}
        self.count = 0
        self.fusions = 0

    def node(self, indent: str, label: str, **attrs: str) -> str:
        name = f"n{self.count}"
        self.count += 1
        extra = "".join(f", {k}={_quote(v)}" for k, v in attrs.items())
        self.lines.append(f"{indent}{name} [label={_quote(label)}{extra}];")
        return name

    def edges(self, indent: str, op: Operation, target: str) -> None:
        for k, value in enumerate(op.operands):
            source = self.ids.get(value)
            if source is not None:  # values from outside (isolated regions never have any)
                label = f', label="{k}"' if len(op.operands) > 1 else ""
                self.lines.append(f"{indent}{source} -> {target} [tooltip={_quote(str(value.type))}{label}];")

    def block(self, indent: str, ops) -> None:
        for op in ops:
            if op.name == "hlo.fusion":
                self.fusion(indent, op)
                continue
            color = _COLORS.get(op.name)
            attrs = {"style": "filled", "fillcolor": color} if color else {}
            target = self.node(indent, _label(op), **attrs)
            self.edges(indent, op, target)
            for r in op.results:
                self.ids[r] = target

    def fusion(self, indent: str, op: Operation) -> None:
        index = self.fusions
        self.fusions += 1
        self.lines.append(f"{indent}subgraph cluster_fusion_{index} {{")
        inner = indent + "  "
        self.lines.append(f'{inner}label={_quote(f"fusion {index} ({op.kind.data})")}; style="rounded,filled"; '
                          f'fillcolor="#f3f8fd";')
        body = op.regions[0].block
        for k, (arg, value) in enumerate(zip(body.args, op.operands)):
            param = self.node(inner, f"parameter({k})\n{arg.type}", shape="ellipse")
            source = self.ids.get(value)
            if source is not None:
                self.lines.append(f"{inner}{source} -> {param} [tooltip={_quote(str(value.type))}];")
            self.ids[arg] = param
        self.block(inner, [o for o in body.ops if o.name != "hlo.return"])
        fused = self.node(inner, _label(op), style="filled", fillcolor=_COLORS["hlo.fusion"], shape="box3d")
        ret = body.last_op
        if ret is not None:
            self.edges(inner, ret, fused)
        self.lines.append(f"{indent}}}")
        for r in op.results:
            self.ids[r] = fused


def module_to_dot(module: ModuleOp, name: str | None = None) -> str:
    """DOT text of every function with a body (each a cluster when several)."""
    funcs = [op for op in module.ops if isinstance(op, func.FuncOp) and op.body.blocks]
    title = name or (funcs[0].sym_name.data if len(funcs) == 1 else "module")
    w = _Writer()
    w.lines += [f"digraph {_quote(title)} {{", "  rankdir=TB;", '  node [shape=box, fontname="monospace"];']
    for i, fn in enumerate(funcs):
        indent = "  "
        if len(funcs) > 1:
            w.lines.append(f"  subgraph cluster_func_{i} {{")
            w.lines.append(f"    label={_quote('@' + fn.sym_name.data)};")
            indent = "    "
        for k, arg in enumerate(fn.body.block.args):
            w.ids[arg] = w.node(indent, f"parameter({k})\n{arg.type}", shape="ellipse")
        w.block(indent, fn.body.block.ops)
        if len(funcs) > 1:
            w.lines.append("  }")
    w.lines.append("}")
    return "\n".join(w.lines) + "\n"


def render_svg(dot_text: str) -> str:
    """SVG of `dot_text` through the `dot` binary (or the `graphviz` package)."""
    exe = shutil.which("dot")
    if exe is not None:
        done = subprocess.run([exe, "-Tsvg"], check=False, input=dot_text, capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            raise DotRenderError(f"dot -Tsvg failed: {done.stderr.strip()}")
        return done.stdout
    try:
        import graphviz  # type: ignore[import-not-found]
    except ImportError:
        raise DotRenderError("rendering SVG needs Graphviz: install the `dot` binary "
                             "(apt-get install graphviz) or emit DOT with --hlo-to-dot") from None
    try:
        return graphviz.Source(dot_text).pipe(format="svg").decode()
    except Exception as err:  # noqa: BLE001 -- the package without its binary, or a bad graph
        raise DotRenderError(f"graphviz could not render: {err}") from None
