"""minixla's mini-TensorFlow frontend: `from frontend import tf`.

Layers: `builder*` (the HLO builder API), `ops/` (the TF op registry with one
decomposition rule per op), `execute`/`graph` (eager execution and tracing),
`tf_dialect`/`legalize` (the `tf` dialect and `tf-legalize-to-hlo`),
`function`/`compiler` (`tf.function`, jit_compile, the compile cache), and the
public API (`api`, `api_nn`, `variables`, assembled in `tf`).
"""

if __name__ != "minixla.frontend":  # the folder is mapped under the import root; see minixla/__init__.py
    raise ImportError("import minixla's frontend as `minixla.frontend` (pip install -e . from the repository root)")


from minixla.frontend import tf  # noqa: F401

__all__ = ["tf"]
