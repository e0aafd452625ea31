"""minixla backends: `get_backend("interpreter").compile(module)(*arrays)`."""

if __name__ != "minixla.backends":  # the folder is mapped under the import root; see minixla/__init__.py
    raise ImportError("import minixla's backends as `minixla.backends` (pip install -e . from the repository root)")


from minixla.passes.hlo_opt import EVALUATOR_LOADERS as _EVALUATOR_LOADERS
from minixla.backends.registry import (
    Backend,
    Executable,
    available_backends,
    get_backend,
    register_backend,
)


def _load_interpreter() -> None:
    """The reference interpreter registers the constant folder's evaluator when imported."""
    from minixla.backends import interpreter  # noqa: F401


# the constant folder's evaluator, imported when a pass first folds (importing it is ~60 ms: the hlo
# dialect's numpy kernels), so a compile that folds nothing does not import the interpreter
_EVALUATOR_LOADERS.append(_load_interpreter)

__all__ = ["Backend", "Executable", "available_backends", "get_backend", "register_backend"]
