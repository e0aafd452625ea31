"""minixla backends: `get_backend("interpreter").compile(module)(*arrays)`."""

if __name__ != "minixla.backends":  # the folder is mapped under the import root; see minixla/__init__.py
    raise ImportError("import minixla's backends as `minixla.backends` (pip install -e . from the repository root)")


from minixla.backends import interpreter as _interpreter  # noqa: F401  (the constant folder's evaluator)
from minixla.backends.registry import (
    Backend,
    Executable,
    available_backends,
    get_backend,
    register_backend,
)

__all__ = ["Backend", "Executable", "available_backends", "get_backend", "register_backend"]
