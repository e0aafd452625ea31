"""minixla's mini-TensorFlow frontend: `from frontend import tf`.

Layers: `builder*` (the HLO builder API), `ops/` (the TF op registry with one
decomposition rule per op), `execute`/`graph` (eager execution and tracing),
`tf_dialect`/`legalize` (the `tf` dialect and `tf-legalize-to-hlo`),
`function`/`compiler` (`tf.function`, jit_compile, the compile cache), and the
public API (`api`, `api_nn`, `variables`, assembled in `tf`).
"""

from . import tf  # noqa: F401

__all__ = ["tf"]
