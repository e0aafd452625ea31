"""Pass pipelines from text specs (`"a,b{opt=1}"`), shared by the Python API
and `minixla-opt -p`, so both run the very same code."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from importlib import import_module

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass, PassPipeline, PassPipelineCallbackType

from minixla.passes.gc_pause import importing


_PASSES: dict[str, Callable[[], type[ModulePass]]] = {}


def register(name: str, target: str) -> None:
    """Register pass `name` as "module:Class" (a leading "." is relative to minixla.passes);
    the class is imported only when the pass is used, so the CLI starts fast."""
    module, cls = target.split(":")

    def factory() -> type[ModulePass]:
        with importing():
            return getattr(import_module(module, "minixla.passes"), cls)

    _PASSES[name] = factory


ENTRY_POINT_GROUP = "minixla.passes"
#: pass name -> distribution that provides it, for the passes that plugins add
PLUGIN_PASSES: dict[str, str] = {}
_plugins_loaded = False


def _load_plugin_passes() -> None:
    """Passes of installed plugins (entry-point group `minixla.passes`: name = "module:Class"),
    registered once and imported only when used; a broken plugin warns and is skipped."""
    global _plugins_loaded
    if _plugins_loaded:
        return
    _plugins_loaded = True
    import warnings

    from minixla.dialects.plugins import entry_points_of

    for ep in entry_points_of(ENTRY_POINT_GROUP):  # one scan shared with the dialect plugins
        if ep.name in _PASSES:
            warnings.warn(f"plugin pass '{ep.name}' ({ep.value}) is named like one of ours; ignored", stacklevel=2)
            continue

        def factory(ep=ep) -> type[ModulePass]:
            try:
                return ep.load()
            except Exception as err:  # noqa: BLE001 -- a plugin's failure is reported, not raised from deep inside
                raise ValueError(f"plugin pass '{ep.name}' ({ep.value}) cannot be loaded: {err}") from err

        _PASSES[ep.name] = factory
        PLUGIN_PASSES[ep.name] = ep.dist.name if ep.dist is not None else ep.value


def get_all_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """name -> factory returning the pass class (xDSL's registry convention); ours and plugins'."""
    _load_plugin_passes()
    return dict(_PASSES)


def available_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """xDSL's upstream passes plus ours (ours win on a name clash); each imports its module inside
    `importing()`, as ours do."""
    with importing():
        from xdsl.transforms import get_all_passes as upstream

        ours = get_all_passes()  # (the plugin scan imports its reader the first time)
    return {**{name: _importing_factory(factory) for name, factory in upstream().items()}, **ours}


def _importing_factory(factory: Callable[[], type[ModulePass]]) -> Callable[[], type[ModulePass]]:
    def load() -> type[ModulePass]:
        with importing():
            return factory()

    return load


#: pipeline name -> function returning its spec (expanded where the name is used)
PIPELINES: dict[str, Callable[[], str]] = {}


def register_pipeline(name: str, target: str) -> None:
    """Register a named pipeline as "module:function" (relative to `passes`)."""
    module, fn = target.split(":")

    def spec() -> str:
        with importing():
            return getattr(import_module(module, "minixla.passes"), fn)()

    PIPELINES[name] = spec


def _split_top_level(spec: str) -> list[str]:
    items, depth, start = [], 0, 0
    for i, ch in enumerate(spec):
        depth += {"{": 1, "}": -1}.get(ch, 0)
        if ch == "," and depth == 0:
            items.append(spec[start:i])
            start = i + 1
    items.append(spec[start:])
    return [item.strip() for item in items if item.strip()]


def expand_spec(spec: str, _depth: int = 0) -> str:
    """Replace named pipelines in a spec by their passes."""
    if _depth > 8:
        raise ValueError(f"named pipelines nest too deeply in '{spec}'")
    items = [expand_spec(PIPELINES[i](), _depth + 1) if i in PIPELINES else i for i in _split_top_level(spec)]
    return ",".join(items)


def build_pipeline(spec: str, callback: PassPipelineCallbackType | None = None) -> PassPipeline:
    """Parse a pipeline spec; unknown passes or bad options raise ValueError."""
    from xdsl.utils.exceptions import ArgSpecParseError

    from minixla.passes.trace_events import traced_pipeline_callback

    try:  # each pass is a span of the active trace (passes/trace_events.py), if any
        return parse_spec(available_passes(), expand_spec(spec), traced_pipeline_callback(callback))
    except ArgSpecParseError as err:  # a BaseException in xDSL: make it catchable
        raise ValueError(str(err)) from None


def parse_spec(available: dict[str, Callable[[], type[ModulePass]]], spec: str,
               callback: PassPipelineCallbackType | None = None) -> PassPipeline:
    """xDSL's `PassPipeline.parse_spec` (same passes, same errors), with `_from_spec` building each pass."""
    from xdsl.utils.arg_spec import parse_pipeline

    specs = tuple(parse_pipeline(spec))
    unrecognised = tuple(p.name for p in specs if p.name not in available)
    if unrecognised:
        raise ValueError(f"Unrecognized passes: {list(unrecognised)}")
    return PassPipeline(tuple(_from_spec(available[p.name](), p) for p in specs), callback)


def _from_spec(cls: type[ModulePass], spec) -> ModulePass:
    """`cls.from_pass_spec(spec)`, but for a spec without arguments (every pass of the CPU pipeline) what
    xDSL's `from_spec` does then, without its `get_type_hints(cls)`: the field types only convert given
    arguments, and evaluating the annotations (ForwardRefs compiled and evaluated) was ~2/3 of parsing a
    pipeline (~50 us a pass, on every compile)."""
    from xdsl.utils.arg_spec import ArgSpecConvertible, _get_default

    def unbound(method):  # the function behind a classmethod (attribute access that mypy cannot type)
        return getattr(method, "__func__", None)

    if spec.parameters or unbound(cls.from_spec) is not unbound(ArgSpecConvertible.from_spec) \
            or unbound(cls.from_pass_spec) is not unbound(ModulePass.from_pass_spec):
        return cls.from_pass_spec(spec)
    if spec.name != cls.name:
        raise ValueError(f"Spec name mismatch: got '{spec.name}', expected '{cls.name}'.")
    required = cls.required_fields()
    args = {}
    for op_field in dataclasses.fields(cls):
        if op_field.name == "name" or not op_field.init:
            continue
        if op_field.name in required:
            raise ValueError(f'{cls.name} requires argument "{op_field.name}"')
        args[op_field.name] = _get_default(op_field)
    return cls(**args)


def verify_each_pass() -> bool:
    """MINIXLA_VERIFY_EACH_PASS=1 (the test suite sets it): the jit paths verify
    the IR after every pass; by default they do not (compile time: xDSL's
    verifier is slow on big modules, and LLVM verifies what we finally emit)."""
    import os

    return os.environ.get("MINIXLA_VERIFY_EACH_PASS", "") not in ("", "0")


def run_pipeline(module: ModuleOp, spec: str, ctx: Context | None = None, verify: bool = True) -> ModuleOp:
    """Run `spec` on `module` in place (and return it), verifying after each
    pass with MLIR-style diagnostics (`dialects.diagnostics.DiagnosticError`)."""
    from minixla.dialects import load_all
    from minixla.dialects.diagnostics import verify_module

    def check(prev: ModulePass | None, mod: ModuleOp, nxt: ModulePass | None) -> None:
        if verify and prev is not None:
            verify_module(mod)

    from minixla.passes.gc_pause import frozen_heap

    with frozen_heap():
        build_pipeline(spec, check).apply(ctx or load_all(), module)
    return module
