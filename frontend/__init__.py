"""minixla's mini-TensorFlow frontend: `from frontend import tf`.

Layers: `builder*` (the HLO builder API), `ops/` (the TF op registry with one
decomposition rule per op), `execute`/`graph` (eager execution and tracing),
`legalize` (the rules behind `tf-legalize-to-hlo`; the `tf` dialect is dialects/tf.py),
`function`/`compiler` (`tf.function`, jit_compile, the compile cache), and the
public API (`api`, `api_nn`, `variables`, assembled in `tf`).
"""

if __name__ != "minixla.frontend":  # the folder is mapped under the import root; see minixla/__init__.py
    raise ImportError("import minixla's frontend as `minixla.frontend` (pip install -e . from the repository root)")


from minixla._importing import importing as _importing

with _importing():  # no collections, dataclass methods compiled once per text (minixla/_importing.py)
    from minixla.frontend import passes, tf  # noqa: F401  (passes: installs the tf-legalize-to-hlo rules)

__all__ = ["tf"]
