"""minixla backends: `get_backend("interpreter").compile(module)(*arrays)`."""

from .registry import (
    Backend,
    Executable,
    available_backends,
    get_backend,
    register_backend,
)

__all__ = ["Backend", "Executable", "available_backends", "get_backend", "register_backend"]
