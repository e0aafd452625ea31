"""The `tf` namespace: `from frontend import tf`, then write TensorFlow.

Top-level names and the `tf.math`, `tf.nn`, `tf.linalg`, `tf.random`, `tf.io`,
`tf.strings`, `tf.dtypes`, `tf.errors` sub-namespaces are assembled here from
the API modules; nothing is implemented in this file except the host-only
conveniences (`tf.print`, `tf.py_function`).
"""

from __future__ import annotations

import builtins as _builtins
import sys as _sys
from types import SimpleNamespace as _NS

from minixla.frontend.api import core as _api
from minixla.frontend.api import nn as _nn
from minixla.frontend.api import random_stateless as _random
from minixla.frontend import dtypes as _dtypes
from minixla.frontend import errors as _errors
from minixla.frontend.dtypes import (DType, as_dtype, bfloat16, bool_ as bool, complex64, complex128, double, float16,  # noqa: F401,A004
                     float32, float64, half, int8, int16, int32, int64, uint8, uint16, uint32, uint64)
from minixla.frontend.execute import execute as _execute
from minixla.frontend.function import function  # noqa: F401
from minixla.frontend.tensor import Tensor, TensorShape  # noqa: F401
from minixla.frontend.indexed_slices import IndexedSlices  # noqa: F401
from minixla.frontend.variables import Variable  # noqa: F401
from minixla.frontend.autodiff import GradientTape, UnconnectedGradients  # noqa: F401
from minixla.frontend.graph import init_scope  # noqa: F401
from minixla.frontend.control_flow import cond, while_loop  # noqa: F401
from minixla.frontend.api import indexing as _idx
from minixla.frontend.api.indexing import argsort, einsum, gather, gather_nd, sort  # noqa: F401
from minixla.frontend import data  # noqa: F401,E402  (tf.keras: imported on first use, see __getattr__)
from minixla.frontend import distribute  # noqa: F401,E402  (tf.distribute)
from minixla.frontend.api.config import config, device, name_scope  # noqa: F401,E402
from minixla.frontend.api.debugging import Assert, debugging  # noqa: F401,E402  (tf.debugging)

string = _dtypes.string

_TOP = ["constant", "convert_to_tensor", "cast", "identity", "stop_gradient", "zeros", "ones", "zeros_like",
        "ones_like", "fill", "range", "eye", "one_hot", "shape", "size", "rank", "add", "subtract", "multiply",
        "divide", "truediv", "floordiv", "pow", "maximum", "minimum", "equal", "not_equal", "less", "less_equal",
        "greater", "greater_equal", "abs", "negative", "sign", "square", "sqrt", "exp", "tanh", "sigmoid", "round",
        "reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_prod", "reduce_all", "reduce_any",
        "reduce_logsumexp", "argmax", "argmin", "cumsum", "reshape", "transpose", "expand_dims", "squeeze",
        "concat", "stack", "unstack", "split", "tile", "broadcast_to", "pad", "slice", "strided_slice", "reverse",
        "where", "clip_by_value", "matmul", "add_n", "logical_and", "logical_or", "logical_not", "floor", "ceil",
        "cos", "sin", "log", "rsqrt", "truncatediv", "truncatemod"]
for _n in _TOP:
    setattr(_sys.modules[__name__], _n, getattr(_api, _n))

_MATH = _TOP + ["floormod", "mod", "squared_difference", "logical_xor", "expm1", "log1p", "reciprocal", "tan",
                "atan", "asin", "acos", "sinh", "cosh", "atan2", "rint", "softplus", "is_nan", "is_inf",
                "is_finite", "divide_no_nan", "multiply_no_nan", "xlogy", "xdivy", "log_sigmoid", "erf",
                "reduce_euclidean_norm", "cumprod", "scalar_mul"]
math = _NS(**{n: getattr(_api, n) for n in _MATH}, top_k=_idx.top_k)
math.where = _api.where
nn = _NS(**{n: getattr(_nn, n) for n in _nn.__all__ if not n.startswith("api")}, top_k=_idx.top_k,
         embedding_lookup=_idx.embedding_lookup)
linalg = _NS(matmul=_api.matmul, matrix_transpose=lambda a, name=None: _api.transpose(
    a, list(_builtins.range(_api.convert_to_tensor(a).ndim - 2)) + [_api.convert_to_tensor(a).ndim - 1,
                                                           _api.convert_to_tensor(a).ndim - 2]),
    eye=_api.eye, einsum=_idx.einsum)
bitwise = _NS(bitwise_and=_api.bitwise_and, bitwise_or=_api.bitwise_or, bitwise_xor=_api.bitwise_xor,
              invert=_api.invert, left_shift=_api.left_shift, right_shift=_api.right_shift)
dtypes = _NS(as_dtype=as_dtype, DType=DType, float16=float16, bfloat16=bfloat16, float32=float32, float64=float64,
             int8=int8, int16=int16, int32=int32, int64=int64, uint8=uint8, uint16=uint16, uint32=uint32,
             uint64=uint64, bool=bool, complex64=complex64, complex128=complex128, string=string,
             cast=_api.cast)
errors = _NS(**_errors.ERROR_CLASSES, **_errors.ERROR_CODES)


def _read_file(filename, name=None):
    return _execute("ReadFile", [_api.constant(filename, string) if isinstance(filename, str) else filename])


def _as_string(input, precision=-1, scientific=False, shortest=False, width=-1, fill="", name=None):
    return _execute("AsString", [input], {"precision": precision, "scientific": scientific, "shortest": shortest,
                                          "width": width, "fill": fill})


random = _NS(stateless_uniform=_random.stateless_uniform, stateless_normal=_random.stateless_normal,
             experimental=_random.experimental)
io = _NS(read_file=_read_file)
strings = _NS(as_string=_as_string)
from minixla.frontend.api import nn_conv_image as _nn_conv_image, random_stateful as _random_stateful  # noqa: E402
_nn_conv_image.install(_sys.modules[__name__])  # tf.nn convolutions, tf.image, stateless random extras
from minixla.frontend.api import image as _image, image_nms as _image_nms  # noqa: E402
_image.install(_sys.modules[__name__])  # the rest of tf.image
_image_nms.install(_sys.modules[__name__])  # tf.image non-max suppression
from minixla.frontend.api import linalg_extras as _linalg_extras  # noqa: E402
_linalg_extras.install(_sys.modules[__name__])  # tf.linalg factorizations and solvers on core ops
from minixla.frontend.api import signal as _signal  # noqa: E402
_signal.install(_sys.modules[__name__])  # tf.signal: windows, framing, DCT, MDCT, mel
_random_stateful.install(_sys.modules[__name__])  # stateful tf.random and tf.nn.dropout


def py_function(func, inp, Tout, name=None):
    """Run `func` on the host (never compiled), like TF's EagerPyFunc."""
    single = not isinstance(Tout, (list, _builtins.tuple))
    touts = [Tout] if single else list(Tout)
    out = _execute("EagerPyFunc", [list(inp)], {"func": func, "Tout": _builtins.tuple(as_dtype(t).np for t in touts)})
    return out[0] if single else list(out)


def print(*inputs, output_stream=_sys.stderr, sep=" ", end="\n", summarize=3, name=None):  # noqa: A001
    """`tf.print`: StringFormat + PrintV2 (host only)."""
    tensors = [x for x in inputs if isinstance(x, (Tensor, Variable)) or hasattr(x, "__array__")]
    template = sep.join("{}" if isinstance(x, (Tensor, Variable)) else str(x) for x in inputs)
    text = _execute("StringFormat", [[x for x in tensors if isinstance(x, (Tensor, Variable))]],
                    {"template": template, "summarize": summarize})
    stream = "stdout" if output_stream is _sys.stdout else "stderr"
    _execute("PrintV2", [text], {"output_stream": stream, "end": end})


newaxis = None
from minixla.frontend.api.math_linalg_namespaces import install as _install_math_linalg  # noqa: E402
_install_math_linalg(_sys.modules[__name__])
from minixla.frontend.api.tensor_array import TensorArray  # noqa: F401,E402
from minixla.frontend.api.control_flow import Module, case, control_dependencies, group, map_fn, no_op, scan, switch_case  # noqa: F401,E402,E501,I001
from minixla.frontend.autodiff.custom_gradient import custom_gradient, gradients  # noqa: F401,E402  (also GradientTape.jacobian)


_FROM_KERAS = ("keras", "losses", "metrics", "optimizers", "initializers")


def __getattr__(name):  # `tf.raw_ops` is built on first use (1,462 ops from the recorded TF API)
    if name == "raw_ops":
        from minixla.frontend.raw_ops import raw_ops

        return raw_ops()
    if name in _FROM_KERAS:  # ~12 ms of importing `tf` (~5%), which a program without Keras never uses
        from minixla.frontend import keras

        globals()["keras"] = keras
        for alias in _FROM_KERAS[1:]:  # tf.losses is tf.keras.losses, ...
            globals()[alias] = getattr(keras, alias)
        return globals()[name]
    raise AttributeError(f"module 'tf' has no attribute {name!r}")


def __dir__():  # with the names that __getattr__ supplies
    return sorted({*globals(), *_FROM_KERAS, "raw_ops"})
from minixla.frontend import profiler as _profiler  # noqa: E402
profiler = _NS(experimental=_NS(start=_profiler.start, stop=_profiler.stop, Trace=_profiler.Trace))
from minixla.frontend.api import top_level as _top_level, top_level_meta as _top_level_meta  # noqa: E402
_top_level_meta.install(_sys.modules[__name__])  # tf.TensorSpec, tf.nest, enums, introspection, initializers
_top_level.install(_sys.modules[__name__])  # searchsorted, sequence_mask, foldl, unique, ... on existing ops
from minixla.frontend.api import math_extras as _math_extras  # noqa: E402
_math_extras.install(_sys.modules[__name__])
from minixla.frontend.api import nn_extras as _nn_extras  # noqa: E402
_nn_extras.install(_sys.modules[__name__])  # the rest of tf.nn (nn_extras.install: also nn_ctc, nn_sampled, ...)
from minixla.frontend.api import random_extras as _random_extras  # noqa: E402
_random_extras.install(_sys.modules[__name__])  # tf.random: categorical, shuffle, gamma, poisson, split, ...
from minixla.frontend.api import random_samplers as _random_samplers  # noqa: E402
_random_samplers.install(_sys.modules[__name__])  # tf.random's candidate samplers and index shuffles
from minixla.frontend.api import sparse_ops as _sparse_ops, ragged_ops as _ragged_ops  # noqa: E402
_sparse_ops.install(_sys.modules[__name__]); _ragged_ops.install(_sys.modules[__name__])  # noqa: E702
from minixla.frontend.api import raw_state_variables as _raw_state_variables  # noqa: E402
_raw_state_variables.install(_sys.modules[__name__])  # tf.raw_ops on tf.Variable.handle (ReadVariableOp, ResourceApply*)
from minixla.frontend.api import raw_state_containers as _raw_state_containers  # noqa: E402
from minixla.frontend.api import raw_state_lists as _raw_state_lists  # noqa: E402
_raw_state_containers.install(_sys.modules[__name__])  # tf.raw_ops' TensorArray*V3 and Stack*V2 on handles
_raw_state_lists.install(_sys.modules[__name__])  # tf.raw_ops' TensorList* on variants
from minixla.frontend.api import raw_functional as _raw_functional  # noqa: E402
_raw_functional.install(_sys.modules[__name__])  # raw ops taking functions, stateful random kernels, DynamicStitch
from minixla.frontend.api import complex_math as _complex_math, signal_fft as _signal_fft  # noqa: E402
_complex_math.install(_sys.modules[__name__])  # tf.complex, tf.math.real/imag/conj/angle, tf.abs of complex
_signal_fft.install(_sys.modules[__name__])  # tf.signal's FFTs, stft and inverse_stft
from minixla.frontend.api import linear_operator_circulant as _circulant  # noqa: E402
_circulant.install(_sys.modules[__name__])  # tf.linalg.LinearOperatorCirculant{,2D,3D} on tf.signal's FFTs
from minixla.frontend.api import raw_ptn as _raw_ptn  # noqa: E402
_raw_ptn.install(_sys.modules[__name__])  # StatelessParameterizedTruncatedNormal: Tseed from the seed
from minixla.frontend.api import strings as _strings  # noqa: E402
_strings.install(_sys.modules[__name__])  # tf.strings: length, to_number, format, split, join, regex, ... (host only)
