"""minixla's mini-TensorFlow frontend: `from frontend import tf`.

Layers: `builder*` (the HLO builder API), `ops/` (the TF op registry with one
decomposition rule per op), `execute`/`graph` (eager execution and tracing),
`legalize` (the rules behind `tf-legalize-to-hlo`; the `tf` dialect is dialects/tf.py),
`function`/`compiler` (`tf.function`, jit_compile, the compile cache), and the
public API (`api`, `api_nn`, `variables`, assembled in `tf`).
"""

if __name__ != "minixla.frontend":  # the folder is mapped under the import root; see minixla/__init__.py
    raise ImportError("import minixla's frontend as `minixla.frontend` (pip install -e . from the repository root)")


import gc as _gc

# Importing creates long-lived objects (classes, functions, op definitions): the ~170 collections it
# ran (one of them full) freed nothing and took ~10% of the import. The collector is off while the
# frontend imports, and what the import made then joins the oldest generation without a scan
# (`gc.freeze()` + `gc.unfreeze()`), where a collection of the young generations would have
# traversed all of it once more. (Inline, not passes.gc_pause: importing that first builds xDSL.)
_collecting = _gc.isenabled()
_gc.disable()
try:
    from minixla.frontend import passes, tf  # noqa: F401  (passes: installs the tf-legalize-to-hlo rules)
finally:
    if _collecting:
        _frozen_before = _gc.get_freeze_count()
        _gc.freeze()
        if not _frozen_before:  # else whoever froze (passes.gc_pause.frozen_heap) unfreezes all later
            _gc.unfreeze()
        _gc.enable()
