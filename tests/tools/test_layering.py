"""The layers import only downward (dialects <- passes <- backends <- frontend <- tools),
and no module-level import cycle exists anywhere in minixla.

Edges come from the source (ast), not from importing: `from minixla.a import b`
is an edge to `minixla.a.b` when that is a module, else to `minixla.a`.
Every import outside `if TYPE_CHECKING:`, also one inside a function (a lazy
import is still a dependency), counts: for the layer order and for cycles.
"""

from __future__ import annotations

import ast
from pathlib import Path

from tests.paths import REPO_ROOT

LAYERS = ("dialects", "passes", "backends", "frontend", "tools")
RANK = {name: i for i, name in enumerate(LAYERS)}


def _modules() -> dict[str, Path]:
    mods: dict[str, Path] = {}
    for layer in LAYERS:
        for path in (REPO_ROOT / layer).rglob("*.py"):
            parts = list(path.relative_to(REPO_ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            mods["minixla." + ".".join(parts)] = path
    return mods


MODULES = _modules()


def _target(name: str) -> str | None:
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _is_type_checking(node: ast.If) -> bool:
    t = node.test
    return (isinstance(t, ast.Name) and t.id == "TYPE_CHECKING") or (
        isinstance(t, ast.Attribute) and t.attr == "TYPE_CHECKING")


def _imports(module: str, path: Path) -> tuple[set[str], set[str]]:
    """(module-level targets, all targets) of one module."""
    tree = ast.parse(path.read_text(), str(path))
    is_pkg = path.name == "__init__.py"
    top: set[str] = set()
    every: set[str] = set()

    def visit(node: ast.AST, at_top: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child):
                continue
            names: list[str] = []
            if isinstance(child, ast.Import):
                names = [a.name for a in child.names]
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    pkg = module.split(".") if is_pkg else module.split(".")[:-1]
                    pkg = pkg[: len(pkg) - (child.level - 1)]
                    base = ".".join(pkg + ([base] if base else []))
                names = [f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base for a in child.names]
            for name in names:
                target = _target(name) if name.startswith("minixla.") else None
                if target and target != module:
                    every.add(target)
                    if at_top:
                        top.add(target)
            inner = at_top and not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            visit(child, inner)

    visit(tree, True)
    return top, every


GRAPH = {m: _imports(m, p) for m, p in MODULES.items()}


def _layer(module: str) -> str:
    return module.split(".")[1]


def test_every_layer_is_scanned():
    assert {_layer(m) for m in MODULES} == set(LAYERS)
    assert len(MODULES) > 100


def test_no_upward_imports():
    upward = sorted(f"{m} -> {t}" for m, (_, every) in GRAPH.items() for t in every
                    if RANK[_layer(t)] > RANK[_layer(m)])
    assert not upward, "imports against the layer order:\n" + "\n".join(upward)


def _cycles() -> list[list[str]]:
    """Strongly connected components of size > 1 (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    counter = [0]

    def strong(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in GRAPH[v][1]:
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    import sys

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10000))
    for v in GRAPH:
        if v not in index:
            strong(v)
    return out


def test_no_import_cycles():
    cycles = _cycles()
    assert not cycles, "import cycles:\n" + "\n".join(" <-> ".join(c) for c in cycles)


def test_no_tier_named_files():
    import re

    tiered = [str(p.relative_to(REPO_ROOT)) for p in REPO_ROOT.rglob("*.py")
              if ".venv" not in p.parts and re.search(r"(^|_)p\d(_|$)", p.stem)]
    assert not tiered, f"files named by priority tier: {tiered}"


def test_top_level_layers_refuse_a_plain_import():
    import subprocess
    import sys

    for layer in LAYERS:
        proc = subprocess.run([sys.executable, "-c", f"import {layer}"], cwd=REPO_ROOT, capture_output=True,
                              text=True)
        assert proc.returncode != 0 and f"minixla.{layer}" in proc.stderr, proc.stderr


def test_pyproject_lists_every_package():
    import tomllib

    conf = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = set(conf["packages"])
    on_disk = {m for m, p in MODULES.items() if p.name == "__init__.py"} | {"minixla"}
    assert listed == on_disk
