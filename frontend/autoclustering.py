"""Autoclustering: a `tf.function` without `jit_compile` gets its compilable subgraphs compiled.

TensorFlow's `tf.config.optimizer.set_jit('autoclustering')` (or
`TF_XLA_FLAGS=--tf_xla_auto_jit=1|2`) makes the graph runtime group the ops
that have an XLA kernel into clusters, compile each cluster with XLA, and run
everything else (tf.print, py_function, host-only ops) op by op around them.
minixla does the same on the traced graph of a non-jit `tf.function`:

* **Which ops.** A node joins a cluster when it is compilable (it has a rule
  and an XLA kernel for its attributes), is not stateful, carries no Python
  callable, is not a functional control-flow op, and all its tensors have
  known shapes and numeric dtypes.
* **How they group** (cycle-free by construction). Each node gets a *phase*:
  the largest number of non-clusterable nodes on any path from the inputs to
  it. Clusterable nodes of one phase that are connected by direct edges form
  a cluster. A path that leaves a cluster and comes back would pass through a
  non-clusterable node, which raises the phase, so it cannot come back: the
  clusters and the remaining nodes form an acyclic graph, run in topological
  order.
* **Minimum size.** As TF's `--tf_xla_min_cluster_size` (default 4), a
  cluster with fewer ops (constants not counted) stays op by op.
* **What formed.** `Function.why()` after the first call, and
  `Function.experimental_get_clusters(*args)`, name each cluster (ops,
  backend) and each op left outside with where it was created;
  `--tf_xla_clustering_debug` prints that to stderr.

A cluster is compiled exactly as a `jit_compile=True` function would be
(`lower` + `pick_backend`, so the persistent cache applies); if that fails,
its ops run op by op and the reason is reported.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field

import numpy as np
from xdsl.dialects.builtin import ModuleOp

from minixla.frontend.api.config import auto_jit_flag as _flag
from minixla.frontend.api.config import autoclustering_enabled as enabled  # noqa: F401 -- function.py asks here
from minixla.frontend.api.config import min_cluster_size
from minixla.frontend.execute import run_eager
from minixla.frontend.graph import Graph, Node
from minixla.frontend.tensor import Tensor

#: functional control flow: their bodies are separate functions of the traced module
_FUNCTIONAL = frozenset({"If", "StatelessIf", "While", "StatelessWhile", "Case", "StatelessCase",
                         "PartitionedCall", "StatefulPartitionedCall"})


def _tensors(node: Node) -> list[Tensor]:
    return [t for x in node.inputs for t in (x if isinstance(x, list) else [x])]


def _why_not(node: Node) -> str | None:
    """Why `node` cannot join a cluster, or None if it can."""
    opdef = node.opdef
    kernel = opdef.xla_kernel(node.attrs) if callable(opdef.xla_kernel) else opdef.xla_kernel
    if not (opdef.compilable and kernel):
        return "no XLA kernel"
    if opdef.stateful:
        return "stateful"
    if opdef.name in _FUNCTIONAL or any(callable(v) and not isinstance(v, type) for v in node.attrs.values()):
        return "calls a function"
    for t in _tensors(node) + node.outputs:
        if t._spec.shape is None:
            return "unknown shape"
        if np.dtype(t._spec.dtype).kind not in "biufc":
            return f"dtype {np.dtype(t._spec.dtype)}"
    return None


@dataclass
class Cluster:
    name: str
    nodes: list[Node]
    inputs: list[Tensor] = field(default_factory=list)
    outputs: list[Tensor] = field(default_factory=list)
    compiled: object = None
    failure: str = ""

    @property
    def size(self) -> int:
        return sum(n.opdef.name != "Const" for n in self.nodes)


def find_clusters(graph: Graph, results: list[Tensor], min_size: int) -> tuple[list, list[Cluster], dict]:
    """(units in execution order: Nodes and Clusters, the clusters, node -> reason it stayed out)."""
    producer = {id(t): n for n in graph.nodes for t in n.outputs}
    reasons = {id(n): _why_not(n) for n in graph.nodes}
    phase: dict[int, int] = {}
    for n in graph.nodes:  # creation order is topological
        phase[id(n)] = max([phase[id(p)] + (reasons[id(p)] is not None)
                            for p in (producer.get(id(t)) for t in _tensors(n)) if p is not None], default=0)
    parent = {id(n): id(n) for n in graph.nodes if reasons[id(n)] is None}

    def find(k: int) -> int:
        while parent[k] != k:
            parent[k] = parent[parent[k]]
            k = parent[k]
        return k

    for n in graph.nodes:
        if id(n) not in parent:
            continue
        for t in _tensors(n):
            p = producer.get(id(t))
            if p is not None and id(p) in parent and phase[id(p)] == phase[id(n)]:
                parent[find(id(p))] = find(id(n))
    groups: dict[int, list[Node]] = {}
    for n in graph.nodes:
        if id(n) in parent:
            groups.setdefault(find(id(n)), []).append(n)
    clusters = [Cluster(f"cluster_{k}", nodes) for k, nodes in enumerate(
        g for g in groups.values() if sum(n.opdef.name != "Const" for n in g) >= min_size)]
    unit_of = {id(n): c for c in clusters for n in c.nodes}
    needed = {id(t) for t in results}
    for n in graph.nodes:  # what a cluster takes from outside and gives to the rest
        for t in _tensors(n):
            p = producer.get(id(t))
            src, dst = unit_of.get(id(p)) if p is not None else None, unit_of.get(id(n))
            if src is not dst:
                needed.add(id(t))
            if dst is not None and src is not dst and all(t is not u for u in dst.inputs):
                dst.inputs.append(t)
    for c in clusters:
        c.outputs = [t for n in c.nodes for t in n.outputs if id(t) in needed]
    units = _order(graph.nodes, unit_of, producer)
    outside = {id(n): reasons[id(n)] or "cluster below --tf_xla_min_cluster_size"
               for n in graph.nodes if id(n) not in unit_of}
    return units, clusters, outside


def _order(nodes: list[Node], unit_of: dict, producer: dict) -> list:
    """Clusters and lone nodes in a topological order of the unit graph (Kahn's algorithm, stable)."""
    units: list = []
    seen: set[int] = set()
    for n in nodes:
        u = unit_of.get(id(n), n)
        if id(u) not in seen:
            seen.add(id(u))
            units.append(u)
    deps = {id(u): set() for u in units}
    for n in nodes:
        u = unit_of.get(id(n), n)
        for t in _tensors(n):
            p = producer.get(id(t))
            if p is not None and unit_of.get(id(p), p) is not u:
                deps[id(u)].add(id(unit_of.get(id(p), p)))
    ordered, done = [], set()
    while len(ordered) < len(units):
        ready = [u for u in units if id(u) not in done and deps[id(u)] <= done]
        if not ready:  # cannot happen for phase clusters; a bug must not hang the call
            raise RuntimeError("autoclustering produced a cyclic cluster graph")
        for u in ready:
            done.add(id(u))
            ordered.append(u)
    return ordered


def compile_cluster(cluster: Cluster, function_name: str, index: int) -> None:
    """Rebuild the cluster's nodes as a graph of their own and compile it as jit_compile=True would."""
    from minixla.frontend.compiler import lower, pick_backend

    sub = Graph(f"{function_name}_{cluster.name}")
    mapping: dict[int, Tensor] = {}
    args: list[Tensor] = []
    for t in cluster.inputs:
        if t._const is not None:  # known values stay known (shape/axis inputs need them)
            mapping[id(t)] = sub.constant(np.asarray(t._const))
        else:
            mapping[id(t)] = sub.placeholder(t._spec, t._name or "input")
            args.append(t)
    stacks, names = {}, {}
    for n in cluster.nodes:
        ins = [[mapping[id(t)] for t in x] if isinstance(x, list) else mapping[id(x)] for x in n.inputs]
        outs = sub.add_node(n.opdef, ins, dict(n.attrs))
        stacks[sub.nodes[-1].op], names[sub.nodes[-1].op] = n.stack, n.name
        mapping.update({id(a): b for a, b in zip(n.outputs, outs)})
    fname = f"__inference_{function_name}_{cluster.name}_{index}"
    fn = sub.build([mapping[id(t)] for t in cluster.outputs], fname)
    try:
        compiled = lower(ModuleOp([fn]), {}, fname, stacks, names)
        pick_backend(compiled)
    except Exception as err:  # noqa: BLE001 -- the ops still run, op by op, and why() says so
        cluster.failure = f"{type(err).__name__}: {str(err).splitlines()[0] if str(err) else ''}"
        return
    cluster.compiled = compiled
    cluster.inputs = args


class ClusteredGraph:
    """A traced graph run as compiled clusters plus op-by-op nodes."""

    def __init__(self, graph: Graph, results: list[Tensor], function_name: str):
        self.graph = graph
        self.units, self.clusters, self.outside = find_clusters(graph, results, min_cluster_size())
        for k, c in enumerate(self.clusters):
            compile_cluster(c, function_name, k)
        self.units = [u for c in self.units
                      for u in ([c] if not isinstance(c, Cluster) or c.compiled is not None else c.nodes)]
        if _flag("tf_xla_clustering_debug") not in (None, "false", "0"):
            print(self.describe(function_name), file=sys.stderr)

    def run(self, args: list, results: list[Tensor]) -> list[np.ndarray]:
        env: dict[int, np.ndarray] = {id(t): a for t, a in zip(self.graph.inputs, args)}
        for unit in self.units:
            if isinstance(unit, Cluster):
                outs = unit.compiled(*[np.asarray(env[id(t)]) for t in unit.inputs])
                env.update({id(t): r for t, r in zip(unit.outputs, outs)})
                continue
            ins = [[env[id(t)] for t in x] if isinstance(x, list) else env[id(x)] for x in unit.inputs]
            env.update({id(t): r for t, r in zip(unit.outputs, run_eager(unit.opdef, ins, unit.attrs))})
        return [env[id(t)] for t in results]

    def describe(self, function_name: str) -> str:
        n_outside = sum(1 for n in self.graph.nodes if id(n) in self.outside and n.opdef.name != "Const")
        lines = [f"autoclustering of {function_name}: {len([c for c in self.clusters if c.compiled])} "
                 f"compiled cluster(s), {n_outside} op(s) outside"]
        for c in self.clusters:
            what = (f"compiled on {c.compiled.backend}" if c.compiled is not None
                    else f"not compiled, runs op by op ({c.failure})")
            lines.append(f"  {c.name}: {c.size} ops ({', '.join(sorted({n.opdef.name for n in c.nodes}))}), "
                         f"{len(c.inputs)} inputs, {len(c.outputs)} outputs, {what}")
        for n in self.graph.nodes:
            reason = self.outside.get(id(n))
            if reason is not None and n.opdef.name != "Const":
                where = f" at {n.stack[-1].filename}:{n.stack[-1].lineno}" if n.stack else ""
                lines.append(f"  outside: {n.name} ({n.opdef.name}): {reason}{where}")
        return "\n".join(lines)
