"""From a traced `tf` module to an executable: the jit_compile=True path.

1. clone the traced module and bake value-specialized arguments in as
   `tf.Const` (they stop being parameters, as in TF's constant-arg
   specialization);
2. `tf-legalize-to-hlo` (stage 'hlo'), then the hlo optimizations available
   (stage 'optimized_hlo');
3. compile on the best backend: `cpu` when registered and able to compile
   this module, else the reference `interpreter`.

With the disk cache on, a compile stored before is loaded instead: by the
traced module's key before step 1 (skipping all three; the hlo is legalized
on demand for stage text), else by the legalized module's key before
`hlo-optimize` (frontend/compile_reuse.py).

`XLA_FLAGS=--xla_dump_to=DIR` writes the module after every step and, as
XLA's per-pass dumps, after every pass of the hlo-optimize and CPU pipelines
(`module_0001.<name>.0007.cpu.after_<pass>.txt`); without the flag no IR is
printed.

`MINIXLA_LOG_COMPILE=1` prints a per-stage timing breakdown of each
first call (trace, legalize, optimize, each CPU pass, LLVM stages) to stderr.
"""

from __future__ import annotations

import os
import re
import sys
import time
import warnings
from contextlib import contextmanager
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import FunctionType, ModuleOp, UnitAttr
from xdsl.printer import Printer

from minixla.dialects import FLUSH_DENORMALS
from minixla.passes.pipeline import verify_each_pass
from minixla.passes import trace_events
from minixla.passes.trace_events import span

from minixla.frontend import compile_reuse
from minixla.frontend.legalize import legalize_module

STAGES = ("hlo", "hlo_serialized", "optimized_hlo", "optimized_hlo_serialized", "optimized_hlo_dot")
OPTIMIZE_PIPELINE = "hlo-optimize"


@contextmanager
def compile_log(name: str):
    """Under MINIXLA_LOG_COMPILE=1: record the block's spans (a private recorder unless one is
    active already) and print one line per stage, in order, with its milliseconds, to stderr."""
    if os.environ.get("MINIXLA_LOG_COMPILE", "") in ("", "0"):
        yield
        return
    own = trace_events.ACTIVE is None
    recorder = trace_events.start() if own else trace_events.ACTIVE
    first = len(recorder.events)
    started = time.perf_counter()
    try:
        yield
    finally:
        total_ms = (time.perf_counter() - started) * 1e3
        if own:
            trace_events.stop()
        events = [e for e in recorder.events[first:] if e["cat"] != "call"]
        lines = [f"minixla compile {name!r}: {total_ms:.1f} ms"]
        for e in sorted(events, key=lambda e: e["ts"]):
            lines.append(f"  {e['cat']:>9} {e['name']:<40} {e['dur'] / 1e3:9.2f} ms")
        print("\n".join(lines), file=sys.stderr)


def print_module(module: ModuleOp) -> str:
    from io import StringIO

    out = StringIO()
    Printer(stream=out).print_op(module)
    return out.getvalue() + "\n"


def specialize(module: ModuleOp, values: dict[int, np.ndarray]) -> ModuleOp:
    """A clone of `module` whose arguments in `values` are replaced by `tf.Const`."""
    from minixla.dialects.tf import tf_op_class, to_attr

    module = module.clone()
    f = next(op for op in module.ops if isinstance(op, func.FuncOp))
    block = f.body.block
    for index in sorted(values, reverse=True):
        arg = block.args[index]
        const = tf_op_class("Const").create(result_types=[arg.type], properties={"value": to_attr(values[index])})
        block.insert_op_before(const, block.first_op) if block.first_op else block.add_op(const)
        arg.replace_all_uses_with(const.results[0])
        block.erase_arg(arg)
    f.function_type = FunctionType.from_lists([a.type for a in block.args], list(f.function_type.outputs.data))
    return module


def _dump_dir() -> str | None:
    m = re.search(r"--xla_dump_to=(\S+)", os.environ.get("XLA_FLAGS", ""))
    return m.group(1) if m else None


_dump_counter = [0]


def dump(stage: str, name: str, module: ModuleOp) -> None:
    """`module` printed to DIR/module_NNNN.<name>.<stage>.txt, only under --xla_dump_to (printing
    costs compile time, so it only happens then)."""
    directory = _dump_dir()
    if directory is None:
        return
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, f"module_{_dump_counter[0]:04d}.{name}.{stage}.txt"), "w") as fh:
        fh.write(print_module(module))


class PassDumper:
    """Writes the IR after each pass of one compile, numbered in pass order (XLA's DumpPerPass names)."""

    def __init__(self, directory: str, module_id: int, name: str):
        self.directory, self.module_id, self.name, self.step = directory, module_id, name, 0

    def __call__(self, pipeline: str, pass_name: str, module: ModuleOp) -> None:
        self.step += 1
        os.makedirs(self.directory, exist_ok=True)
        path = os.path.join(self.directory, f"module_{self.module_id:04d}.{self.name}.{self.step:04d}."
                                            f"{pipeline}.after_{pass_name}.txt")
        with open(path, "w") as fh:
            fh.write(print_module(module))


def _optimize(module: ModuleOp, dumper: PassDumper | None, verify: bool) -> None:
    from minixla.passes import run_pipeline

    if dumper is None:
        run_pipeline(module, OPTIMIZE_PIPELINE, verify=verify)
        return
    from minixla.dialects import load_all
    from minixla.dialects.diagnostics import verify_module
    from minixla.passes.pipeline import build_pipeline

    def after(prev, mod, nxt) -> None:
        if prev is not None:
            if verify:
                verify_module(mod)
            dumper("hlo-optimize", prev.name, mod)

    build_pipeline(OPTIMIZE_PIPELINE, after).apply(load_all(), module)


@dataclass
class Compiled:
    """One compile-cache entry: the IR at each stage and the executable."""

    name: str
    #: None when the executable came from the persistent cache by the traced graph's key (legalized on
    #: demand, for stage text, by `_legalize`)
    _hlo: ModuleOp | None
    #: None when the executable came from the persistent cache (optimized on demand, for stage text)
    _optimized: ModuleOp | None
    executable: object = None
    backend: str = ""
    fallback_reason: str = ""
    kept_args: list[int] = field(default_factory=list)
    #: set when --xla_dump_to is: continues the per-pass dump in the backend compile
    dumper: PassDumper | None = None
    #: the persistent-cache key of `hlo` before hlo-optimize (compile_reuse.py), when the cache is on
    reuse_key: str | None = None
    #: the persistent-cache key of the traced graph (compile_reuse.graph_key), when the cache is on
    graph_key: str | None = None
    _legalize: Callable[[], ModuleOp] | None = None

    @property
    def hlo(self) -> ModuleOp:
        if self._hlo is None:
            self._hlo = self._legalize()
        return self._hlo

    @property
    def optimized(self) -> ModuleOp:
        if self._optimized is None:
            self._optimized = self.hlo.clone()
            _optimize(self._optimized, None, False)
        return self._optimized

    def __call__(self, *arrays):
        return self.executable(*arrays)


def legalize(module: ModuleOp, const_values: dict[int, np.ndarray], name: str, stacks=None, names=None) -> ModuleOp:
    """Specialize and legalize: the hlo module of traced `tf` module `module`."""
    mod = specialize(module, const_values)
    if stacks or names:  # carry the per-op records over to the clone (same order after the new consts)
        def tf_ops(m):
            return [op for op in next(o for o in m.ops if isinstance(o, func.FuncOp)).body.block.ops
                    if op.name.startswith("tf.")]

        pairs = list(zip(tf_ops(module), tf_ops(mod)[len(const_values):]))
        stacks = {new: (stacks or {}).get(old, []) for old, new in pairs}
        names = {new: (names or {}).get(old, old.name[3:]) for old, new in pairs}
    with span("tf-legalize-to-hlo", "compile", function=name):
        legalize_module(mod, stacks, names)
    # TensorFlow computes with denormals flushed to zero on the CPU (its threads set FTZ and DAZ), and so
    # does XLA's CPU runtime: compiled code of the `tf` frontend does too (backends/cpu/emit_llvm_module.py)
    mod.attributes[FLUSH_DENORMALS] = UnitAttr()
    if verify_each_pass():
        mod.verify()
    dump("tf-legalize-to-hlo", name, mod)
    return mod


def lower(module: ModuleOp, const_values: dict[int, np.ndarray], name: str, stacks=None, names=None) -> Compiled:
    """Specialize, legalize and optimize (no backend compile); with the disk cache on, a compile stored
    for the same traced graph (or the same legalized module) is loaded instead."""
    _dump_counter[0] += 1
    dump("tf", name, module)
    n_args = len(next(op for op in module.ops if isinstance(op, func.FuncOp)).body.block.args)
    kept_args = [i for i in range(n_args) if i not in const_values]
    directory = _dump_dir()
    graph_key = None
    if not directory:
        with span("graph-key", "compile", function=name):
            graph_key = compile_reuse.graph_key(module, const_values, OPTIMIZE_PIPELINE)
    if graph_key is not None:
        hit = compile_reuse.load_by_graph(graph_key, module, const_values)
        if hit is not None:
            executable, backend, reuse_key = hit
            return Compiled(name, None, None, executable, backend, kept_args=kept_args, reuse_key=reuse_key,
                            graph_key=graph_key,
                            _legalize=lambda: legalize(module, const_values, name, stacks, names))
    mod = legalize(module, const_values, name, stacks, names)
    verify = verify_each_pass()
    reuse_key = None if directory else compile_reuse.reuse_key(mod, OPTIMIZE_PIPELINE)
    if reuse_key is not None:
        hit = compile_reuse.load(reuse_key, mod)
        if hit is not None:
            executable, backend = hit
            compile_reuse.remember(graph_key, reuse_key)
            return Compiled(name, mod, None, executable, backend, kept_args=kept_args, reuse_key=reuse_key,
                            graph_key=graph_key)
    optimized = mod.clone()
    dumper = PassDumper(directory, _dump_counter[0], name) if directory else None
    try:
        with span("hlo-optimize", "compile", function=name):
            _optimize(optimized, dumper, verify)
        dump("optimized", name, optimized)
    except Exception as err:  # noqa: BLE001 -- optimization is best effort, but never silent
        if verify:  # the test suite: an optimizer crash is a bug to see, not to hide
            raise
        warnings.warn(f"minixla: hlo-optimize failed on {name!r} ({type(err).__name__}: {err}); "
                      "compiling it unoptimized (unfused)", RuntimeWarning, stacklevel=2)
        optimized = mod.clone()
    return Compiled(name, mod, optimized, kept_args=kept_args, dumper=dumper, reuse_key=reuse_key,
                    graph_key=graph_key)


def pick_backend(compiled: Compiled) -> None:
    """Compile on `cpu` if it can, else on the interpreter (the reason is kept)."""
    from minixla.backends.registry import has_backend

    forced = os.environ.get("MINIXLA_TF_BACKEND")
    order = [forced] if forced else [b for b in ("cpu", "interpreter") if has_backend(b)]
    reasons = []
    token = None
    if compiled.dumper is not None:
        from minixla.backends.cpu.compiler import AFTER_PASS

        dumper = compiled.dumper
        token = AFTER_PASS.set(lambda pass_name, module: dumper("cpu", pass_name, module))
    try:
        with span("backend-compile", "compile", function=compiled.name):
            _compile_first(compiled, order, reasons)
    finally:
        if token is not None:
            AFTER_PASS.reset(token)


def _compile_first(compiled: Compiled, order: list[str], reasons: list[str]) -> None:
    from minixla.backends.registry import get_backend

    for name in order:
        try:
            # backends that rewrite their input clone it themselves (cpu, gpu)
            compiled.executable = compile_reuse.compile_on(get_backend(name), compiled.optimized, compiled.reuse_key)
            compiled.backend = name
            compiled.fallback_reason = "; ".join(reasons)
            if name == "cpu":  # the backend stored its result under reuse_key: the graph key names it
                compile_reuse.remember(compiled.graph_key, compiled.reuse_key)
            return
        except Exception as err:  # noqa: BLE001 -- try the next backend
            reasons.append(f"{name}: {type(err).__name__}: {str(err).splitlines()[0] if str(err) else ''}")
    raise RuntimeError("no backend could compile the function: " + "; ".join(reasons))


def to_dot(module: ModuleOp) -> str:
    """Graphviz text of the module's dataflow, fusions as clusters (passes/hlo_dot.py)."""
    from minixla.passes.hlo_dot import module_to_dot

    return module_to_dot(module)


def stage_text(compiled: Compiled, stage: str):
    if stage == "hlo_dot":  # minixla's addition; TF's error text lists only its own stages
        return to_dot(compiled.hlo)
    if stage not in STAGES and stage != "hlo_no_metadata":
        raise ValueError(f"Invalid stage selected: '{stage}'. Valid values are: "
                         + ", ".join(f"'{s}'" for s in STAGES))
    if stage in ("hlo", "hlo_no_metadata"):
        return print_module(compiled.hlo)
    if stage == "hlo_serialized":
        return print_module(compiled.hlo).encode()
    if stage == "optimized_hlo":
        return print_module(compiled.optimized)
    if stage == "optimized_hlo_serialized":
        return print_module(compiled.optimized).encode()
    return to_dot(compiled.optimized)
