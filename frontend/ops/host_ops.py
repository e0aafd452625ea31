"""Ops that XLA cannot compile (strings, files, Python callbacks, printing).

They have no decomposition rule: they run on the host eagerly and inside
`tf.function` without jit; under `jit_compile=True` they make compilation
fail with TF's "Detected unsupported operations" error. String tensors are
numpy object arrays of `bytes`; their element type is `!tf_type.string`.
EagerPyFunc is differentiable as in TF: its gradient differentiates, under a
tape, the ops the Python function runs (autodiff/host_vjp.py).
"""

from __future__ import annotations

import sys

import numpy as np

from minixla.frontend.builder import Spec
from minixla.frontend.ops.registry import register, register_gradient

STRING = np.dtype(object)


def _read_file(filename):
    with open(_text(filename.reshape(())[()]), "rb") as fh:
        return np.array(fh.read(), dtype=object)


def _text(v) -> str:
    return v.decode() if isinstance(v, bytes) else str(v)


def _as_string(input, precision=-1, scientific=False, shortest=False, width=-1, fill=""):
    def fmt(v):
        if isinstance(v, (bool, np.bool_)):
            s = "true" if v else "false"
        elif np.issubdtype(type(v), np.floating):
            spec = "e" if scientific else ("g" if shortest else "f")
            s = f"{float(v):.{precision if precision >= 0 else 6}{spec}}"
        else:
            s = str(v)
        if width > 0:
            s = s.rjust(width, fill or " ")
        return s.encode()

    return np.vectorize(fmt, otypes=[object])(input)


def _string_format(inputs, template="{}", placeholder="{}", summarize=3):
    from minixla.frontend.ops.string_ops import summarize as show  # TF's formatting of a tensor

    parts = template.split(placeholder)
    text = parts[0]
    for value, rest in zip(inputs, parts[1:]):
        text += show(value, summarize) + rest
    out = np.empty((), dtype=object)
    out[()] = text.encode()
    return out


def _print_v2(input, output_stream="stderr", end="\n"):
    stream = sys.stdout if output_stream == "stdout" else sys.stderr
    stream.write(_text(input.reshape(())[()]) + end)
    stream.flush()
    return ()


def _py_func(inputs, func=None, Tout=(), static_shapes=()):
    from minixla.frontend.tensor import Tensor

    out = func(*[Tensor.make(x) for x in inputs])
    outs = out if isinstance(out, (list, tuple)) else [out]
    return tuple(np.asarray(o.numpy() if hasattr(o, "numpy") else o).astype(np.dtype(t))
                 for o, t in zip(outs, Tout))


register("ReadFile", ("filename",), None, host=_read_file, infer=lambda f: Spec((), STRING))
register("AsString", ("input",), None, host=_as_string,
         attrs={"precision": -1, "scientific": False, "shortest": False, "width": -1, "fill": ""},
         infer=lambda x, **kw: Spec(x.shape, STRING))
register("StringFormat", ("*inputs",), None, host=_string_format, typed=(),
         attrs={"template": "{}", "placeholder": "{}", "summarize": 3}, infer=lambda xs, **kw: Spec((), STRING))
register("PrintV2", ("input",), None, host=_print_v2, attrs={"output_stream": "stderr", "end": "\n"},
         infer=lambda x, **kw: (), stateful=True)
register("EagerPyFunc", ("*input",), None, host=_py_func, attrs={"func": None, "Tout": (), "static_shapes": ()},
         typed=(), stateful=True,
         # static_shapes: result shapes known to the caller (a host gradient has its input's shape)
         infer=lambda xs, func=None, Tout=(), static_shapes=(): tuple(
             Spec(static_shapes[i] if i < len(static_shapes) else None, np.dtype(t)) for i, t in enumerate(Tout)))


@register_gradient("EagerPyFunc")
def _py_func_grad(b, op, *grads):
    """TF's EagerPyFunc gradient: another EagerPyFunc that differentiates `func` under a tape."""
    from minixla.frontend.autodiff.host_vjp import host_vjp

    return [host_vjp(b, op.attrs["func"], list(op.inputs[0]), grads)]
