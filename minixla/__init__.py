"""minixla: a hackable XLA-style ML compiler in Python on xDSL.

The import root of the layers that live as top-level folders of the repository
(`dialects`, `passes`, `backends`, `frontend`, `tools`): pyproject maps each of
them to `minixla.<layer>`, so nothing generic is installed at top level.
`from minixla import tf` is the mini-TensorFlow frontend.
"""

from __future__ import annotations

from pathlib import Path as _Path

__version__ = "0.2.0"

# A source checkout (editable install, or running from the repository) keeps the
# layers beside this folder; an installed wheel has them inside it.
_here = _Path(__file__).resolve().parent
if not (_here / "dialects").is_dir() and (_here.parent / "dialects" / "__init__.py").is_file():
    __path__.append(str(_here.parent))  # noqa: F821 -- a package's __path__

LAYERS = ("dialects", "passes", "backends", "frontend", "tools")


def __getattr__(name: str):
    """`minixla.tf` (and the layers) load on first use, so `import minixla` stays cheap."""
    import importlib

    if name == "tf":
        return importlib.import_module("minixla.frontend.tf")
    if name in LAYERS:
        return importlib.import_module(f"minixla.{name}")
    raise AttributeError(f"module 'minixla' has no attribute {name!r}")


__all__ = ["LAYERS", "__version__", "tf"]
