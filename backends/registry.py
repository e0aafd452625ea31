"""Backends by name. A backend turns a `builtin.module` into an `Executable`;
new ones register with `register_backend` or, without touching this code, via
the `minixla.backends` entry-point group (an entry point names a factory)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, runtime_checkable

import numpy as np
from xdsl.dialects.builtin import ModuleOp

ENTRY_POINT_GROUP = "minixla.backends"


@runtime_checkable
class Executable(Protocol):
    """A compiled entry function: numpy arrays in, a tuple of arrays out."""

    def __call__(self, *args: np.ndarray) -> tuple[np.ndarray, ...]: ...


@runtime_checkable
class Backend(Protocol):
    name: str

    def compile(self, module: ModuleOp, entry: str | None = None) -> Executable: ...


BackendFactory = Callable[[], Backend]

_FACTORIES: dict[str, BackendFactory] = {}
_INSTANCES: dict[str, Backend] = {}
_entry_points_loaded = False


class UnknownBackendError(KeyError):
    def __str__(self) -> str:  # KeyError quotes its message; keep it readable
        return str(self.args[0])


def register_backend(name: str, factory: BackendFactory, *, replace: bool = False) -> None:
    """Make `get_backend(name)` build a backend with `factory()` (once, lazily)."""
    if name in _FACTORIES and not replace and _FACTORIES[name] is not factory:
        raise ValueError(f"backend '{name}' is already registered (pass replace=True to override)")
    _FACTORIES[name] = factory
    _INSTANCES.pop(name, None)


def _load_entry_points() -> None:
    """Register third-party backends from the entry-point group, once; a broken
    plugin must not break the built-in backends, so failures are skipped."""
    global _entry_points_loaded
    if _entry_points_loaded:
        return
    _entry_points_loaded = True
    from importlib.metadata import entry_points

    for ep in entry_points(group=ENTRY_POINT_GROUP):
        if ep.name in _FACTORIES:
            continue
        _FACTORIES[ep.name] = _lazy_entry_point(ep)


def _lazy_entry_point(ep) -> BackendFactory:
    def factory() -> Backend:
        target = ep.load()
        return target() if callable(target) else target

    return factory


def get_backend(name: str) -> Backend:
    """The backend registered as `name` (built on first use)."""
    if name not in _FACTORIES:
        _load_entry_points()
    if name not in _FACTORIES:
        raise UnknownBackendError(
            f"unknown backend '{name}'; available: {', '.join(available_backends()) or 'none'}")
    if name not in _INSTANCES:
        from minixla.passes.gc_pause import importing

        with importing():  # building a backend is mostly importing its modules
            _INSTANCES[name] = _FACTORIES[name]()
    return _INSTANCES[name]


def has_backend(name: str) -> bool:
    """Whether `name` is registered; plugins' entry points are read only for a name not built in
    (reading them imports importlib.metadata and scans installed distributions: ~10-15 ms)."""
    if name not in _FACTORIES:
        _load_entry_points()
    return name in _FACTORIES


def available_backends() -> list[str]:
    _load_entry_points()
    return sorted(_FACTORIES)


def _builtin(target: str) -> BackendFactory:
    """A built-in backend named by "module:Class", imported on first use; by name, like the
    entry points of plugin backends, so the registry imports none of the backends it lists."""
    module, cls = target.split(":")

    def factory() -> Backend:
        from importlib import import_module

        from minixla._importing import importing

        with importing():  # (the CPU backend's module imports llvmlite)
            backend_class = getattr(import_module(module), cls)
        return backend_class()

    return factory


register_backend("interpreter", _builtin("minixla.backends.interpreter:InterpreterBackend"))
register_backend("cpu", _builtin("minixla.backends.cpu.backend:CpuBackend"))
register_backend("gpu", _builtin("minixla.backends.gpu.backend:GpuBackend"))
