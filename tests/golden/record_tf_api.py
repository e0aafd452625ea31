"""Record TensorFlow's API surface into frontend/tf_api_2_21.json (once, with real TF installed):
the public names of each namespace, every `tf.raw_ops` name, the ops with an XLA_CPU_JIT
(tf2xla) kernel, and the OpDef (inputs, attrs with defaults, outputs) of each of those ops.

    /tmp/tfvenv/bin/python tests/golden/record_tf_api.py [--out frontend/tf_api_2_21.json]

`tf.raw_ops` and `tools/tf_coverage.py` read the file; neither needs TensorFlow.
"""

from __future__ import annotations

import argparse
import json
import os

NAMESPACES = ["tf", "math", "nn", "linalg", "signal", "image", "random", "bitwise", "sparse", "strings", "data",
              "config", "distribute", "debugging", "dtypes", "errors", "io", "ragged", "keras.layers",
              "keras.losses", "keras.metrics", "keras.optimizers", "keras.activations", "keras.initializers",
              "keras.callbacks"]
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def python_arguments(tf, name: str) -> list[str] | None:
    """The keyword names of `tf.raw_ops.<name>` (TF renames some inputs, e.g. Sum's reduction_indices is axis)."""
    import inspect

    try:
        return [p for p in inspect.signature(getattr(tf.raw_ops, name)).parameters if p != "name"]
    except (TypeError, ValueError, AttributeError):
        return None


def record() -> dict:
    import tensorflow as tf
    from google.protobuf import text_format
    from tensorflow.core.framework import op_def_pb2
    from tensorflow.python.client import pywrap_tf_session as c_api
    from tensorflow.python.framework import kernels

    tf.function(lambda x: x + 1, jit_compile=True)(tf.constant(1.0))  # registers the XLA compilation kernels
    namespaces = {}
    for ns in NAMESPACES:
        mod = tf
        if ns != "tf":
            for part in ns.split("."):
                mod = getattr(mod, part)
        namespaces[ns] = sorted(n for n in dir(mod) if not n.startswith("_")
                                and not (ns == "tf" and type(getattr(mod, n)).__name__ == "module"))
    raw_ops = sorted(n for n in dir(tf.raw_ops) if not n.startswith("_"))
    op_list = op_def_pb2.OpList()
    op_list.ParseFromString(c_api.TF_GetBuffer(c_api.TF_GetAllOpList()))
    xla = sorted(o.name for o in op_list.op
                 if any(k.device_type == "XLA_CPU_JIT" for k in kernels.get_registered_kernels_for_op(o.name).kernel))
    wanted = set(raw_ops) | set(xla)
    defs = {}
    for o in op_list.op:
        if o.name in wanted:
            attrs = [[a.name, text_format.MessageToString(a.default_value, as_one_line=True)
                      if a.HasField("default_value") else None] for a in o.attr]
            defs[o.name] = {"inputs": [[a.name, bool(a.number_attr or a.type_list_attr)] for a in o.input_arg],
                            "attrs": attrs, "outputs": [a.name for a in o.output_arg],
                            "python_args": python_arguments(tf, o.name) if o.name in raw_ops else None}
    return {"tensorflow": tf.__version__, "namespaces": namespaces, "raw_ops": raw_ops, "xla_compilable": xla,
            "op_defs": defs, "_generated_by": f"tests/golden/record_tf_api.py with tensorflow-cpu {tf.__version__}"}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", default=os.path.join(ROOT, "frontend", "tf_api_2_21.json"))
    args = p.parse_args()
    data = record()
    with open(args.out, "w") as fh:
        json.dump(data, fh, indent=0, sort_keys=True)
    print(f"{args.out}: {len(data['raw_ops'])} raw ops, {len(data['xla_compilable'])} XLA-compilable")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
