"""`tf.keras.layers.Layer`: weights, sublayer tracking, build-on-first-call, training flag.

Weights are created eagerly (inside `init_scope`) even when the first call is
being traced, so a compiled training step captures them as variables that its
calls update. `build` marks the layer built however it is called (Keras 3
wraps it the same way), so a user's `layer.build(shape)` is not repeated.
"""

from __future__ import annotations

import collections
import functools
import inspect
import re
import threading

import numpy as np
from minixla.frontend.api import core as api
from minixla.frontend.graph import init_scope
from minixla.frontend.keras import initializers, regularizers
from minixla.frontend.keras.symbolic import KerasTensor, call_symbolic
from minixla.frontend.tensor import Tensor
from minixla.frontend.variables import Variable

_NAME_COUNTS: collections.Counter = collections.Counter()
_CONTEXT = threading.local()


def clear_session() -> None:
    """`keras.backend.clear_session`: layer names start again at `dense`, `dense_1`..."""
    _NAME_COUNTS.clear()


def unique_name(base: str) -> str:
    n = _NAME_COUNTS[base]
    _NAME_COUNTS[base] += 1
    return base if n == 0 else f"{base}_{n}"


def snake_case(name: str) -> str:
    s = re.sub(r"(.)([A-Z][a-z0-9]+)", r"\1_\2", name)  # Keras' to_snake_case
    return re.sub(r"([a-z])([A-Z])", r"\1_\2", s).lower()


def current_training():
    """The `training` flag of the enclosing model call (None outside any)."""
    return getattr(_CONTEXT, "training", None)


def _shape_of(x):
    if isinstance(x, (list, tuple)):
        return [_shape_of(v) for v in x]
    if isinstance(x, dict):
        return {k: _shape_of(v) for k, v in x.items()}
    return tuple(_dims(x))


def _dims(x):
    shape = x.shape
    if hasattr(shape, "as_list"):
        return shape.as_list()
    return list(shape)


def _wrap_build(build):
    @functools.wraps(build)
    def wrapped(self, *args, **kwargs):
        with init_scope():
            out = build(self, *args, **kwargs)
        self.built = True
        return out

    wrapped._marks_built = True
    return wrapped


_LAYER_KWARGS = {"trainable", "name", "dtype", "input_shape", "batch_input_shape", "batch_size",
                 "activity_regularizer", "input_dim", "input_length", "autocast", "dynamic"}


class Layer:
    """Base class of every layer and of `Model`."""

    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        if "build" in cls.__dict__ and not getattr(cls.__dict__["build"], "_marks_built", False):
            cls.build = _wrap_build(cls.__dict__["build"])

    def __init__(self, trainable: bool = True, name: str | None = None, dtype=None, **kwargs):
        unknown = set(kwargs) - _LAYER_KWARGS
        if unknown:
            raise ValueError(f"Unrecognized keyword arguments passed to {type(self).__name__}: "
                             f"{ {k: kwargs[k] for k in sorted(unknown)} }")
        object.__setattr__(self, "_sublayers", [])
        self._own_weights: list[Variable] = []
        self._regularized: list[tuple[Variable, object]] = []
        self._added_losses: list = []
        self.trainable = trainable
        self.name = name or unique_name(snake_case(type(self).__name__))
        self.dtype = np.dtype(dtype or "float32").name if not hasattr(dtype, "np") else dtype.np.name
        self.built = False
        self.activity_regularizer = regularizers.get(kwargs.get("activity_regularizer"))
        shape = kwargs.get("batch_input_shape")
        if shape is None and kwargs.get("input_shape") is not None:
            shape = (kwargs.get("batch_size"),) + tuple(kwargs["input_shape"])
        if shape is None and kwargs.get("input_dim") is not None:
            shape = (None, kwargs["input_dim"])
        self._batch_input_shape = tuple(shape) if shape is not None else None
        self._output_shape = None
        self._inbound_nodes: list = []

    # ---- tracking -----------------------------------------------------------
    def __setattr__(self, key, value):
        subs = self.__dict__.get("_sublayers")
        if subs is None and isinstance(value, Layer):
            raise RuntimeError(f"It looks like you are subclassing `{type(self).__name__}` and you forgot to call "
                               "`super().__init__()`. Always start with this line.")
        if subs is not None and not key.startswith("_"):
            items = value if isinstance(value, (list, tuple)) else [value]
            for v in items:
                if isinstance(v, Layer) and v is not self and all(v is not s for s in subs):
                    subs.append(v)
        object.__setattr__(self, key, value)

    def add_weight(self, shape=None, initializer=None, dtype=None, trainable: bool = True, regularizer=None,
                   constraint=None, name: str | None = None, **_):
        if isinstance(shape, str):  # the Keras 2 order: add_weight(name, shape, ...)
            name, shape = shape, initializer
            initializer = dtype if not (dtype is None or isinstance(dtype, (str, np.dtype))) or (
                isinstance(dtype, str) and dtype in initializers.NAMES) else None
            dtype = None if initializer is not None else dtype
        shape = tuple(int(d) for d in (shape or ()))
        dt = np.dtype(dtype or self.dtype)
        if initializer is None:
            initializer = "glorot_uniform" if np.issubdtype(dt, np.floating) else "zeros"
        value = initializers.get(initializer)(shape, dt)
        with init_scope():
            var = Variable(np.asarray(value, dt), trainable=trainable, name=f"{self.name}/{name or 'variable'}")
        var.regularizer = regularizers.get(regularizer)
        var.constraint = constraint
        self._own_weights.append(var)
        if var.regularizer is not None:
            self._regularized.append((var, var.regularizer))
        return var

    add_variable = add_weight

    def build(self, input_shape) -> None:
        pass

    def call(self, inputs, *args, **kwargs):
        raise NotImplementedError(f"Layer {type(self).__name__} does not have a `call()` method implemented.")

    def compute_output_shape(self, input_shape):
        return None

    supports_masking = False

    def compute_mask(self, inputs, mask=None):
        """The mask of the output (Keras' `_keras_mask`): the input's, for layers that keep the time axis."""
        if not self.supports_masking or mask is None:
            return None
        if isinstance(mask, (list, tuple)):
            masks = [m for m in mask if m is not None]
            if not masks:
                return None
            out = masks[0]
            for m in masks[1:]:
                out = api.logical_and(out, m)
            return out
        return mask

    # ---- calling ------------------------------------------------------------
    def _accepts(self, arg: str) -> bool:
        params = inspect.signature(self.call).parameters
        return arg in params or any(p.kind == p.VAR_KEYWORD for p in params.values())

    def _check_input(self, inputs) -> None:
        """Layers with an input spec raise Keras' "incompatible with the layer" error here."""

    def incompatible(self, shape, what: str) -> ValueError:
        return ValueError(f'Input 0 of layer "{self.name}" is incompatible with the layer: {what}, '
                          f"but received input with shape {tuple(shape)}")

    def __call__(self, inputs, *args, **kwargs):
        leaves = inputs if isinstance(inputs, (list, tuple)) else [inputs]
        if any(isinstance(v, KerasTensor) for v in leaves):
            return call_symbolic(self, inputs, args, kwargs)
        inputs = _convert(inputs, self.dtype)
        self._check_input(inputs)
        if not self.built:
            self._build_for(inputs)
        training = kwargs.pop("training", None)
        if training is None:
            training = current_training()
        if self._accepts("training"):
            kwargs["training"] = training
        mask = kwargs.pop("mask") if "mask" in kwargs else mask_of(inputs)
        if mask is not None and self._accepts("mask"):
            kwargs["mask"] = mask
        outer = current_training()
        _CONTEXT.training = training
        try:
            out = self.call(inputs, *args, **kwargs)
        finally:
            _CONTEXT.training = outer
        out_mask = self.compute_mask(inputs, mask)
        if out_mask is not None and isinstance(out, Tensor):
            out._keras_mask = out_mask
        if self.activity_regularizer is not None:
            self._added_losses.append(self.activity_regularizer(out))
        if self._output_shape is None and isinstance(out, (Tensor, Variable)):
            self._output_shape = (None,) + tuple(_dims(out)[1:])
        return out

    def _build_for(self, inputs) -> None:
        self.build(_shape_of(inputs))
        self.built = True

    # ---- weights ------------------------------------------------------------
    def _layers_flat(self):
        return list(self._sublayers)

    @property
    def weights(self) -> list[Variable]:
        out, seen = [], set()
        own = [v for v in self._own_weights if v.trainable] + [v for v in self._own_weights if not v.trainable]
        for v in own + [w for layer in self._layers_flat() for w in layer.weights]:
            if id(v) not in seen:
                seen.add(id(v))
                out.append(v)
        return out

    variables = weights

    @property
    def trainable_weights(self) -> list[Variable]:
        if not self.trainable:
            return []
        own = [v for v in self._own_weights if v.trainable]
        return _dedupe(own + [w for layer in self._layers_flat() for w in layer.trainable_weights])

    trainable_variables = trainable_weights

    @property
    def non_trainable_weights(self) -> list[Variable]:
        if not self.trainable:
            return self.weights
        trainable = {id(v) for v in self.trainable_weights}
        return [v for v in self.weights if id(v) not in trainable]

    non_trainable_variables = non_trainable_weights

    @property
    def losses(self) -> list:
        """Weight-regularization penalties (computed now, from the current weights) and `add_loss` terms."""
        out = [reg(v) for v, reg in self._regularized] + list(self._added_losses)
        for layer in self._layers_flat():
            out += layer.losses
        return out

    def add_loss(self, loss) -> None:
        self._added_losses.append(loss)

    def _clear_losses(self) -> None:
        self._added_losses = []
        for layer in self._layers_flat():
            layer._clear_losses()

    def count_params(self) -> int:
        return int(sum(int(np.prod(v.shape.as_list())) for v in self.weights))

    def get_weights(self) -> list[np.ndarray]:
        return [v.numpy() for v in self.weights]

    def set_weights(self, weights) -> None:
        mine = self.weights
        weights = list(weights)
        if len(weights) != len(mine):
            raise ValueError(f"You called `set_weights(weights)` on layer '{self.name}' with a weight list of "
                             f"length {len(weights)}, but the layer was expecting {len(mine)} weights.")
        for v, w in zip(mine, weights):
            w = np.asarray(w)
            if tuple(w.shape) != tuple(v.shape.as_list()):
                raise ValueError(f"Layer {self.name} weight shape {tuple(v.shape.as_list())} is not compatible "
                                 f"with provided weight shape {w.shape}.")
            v.assign(w.astype(v.dtype.np))

    @property
    def output_shape(self):
        if self._output_shape is None:
            raise AttributeError(f"The layer {self.name} has never been called and thus has no defined output "
                                 "shape.")
        return self._output_shape

    def get_config(self) -> dict:
        return {"name": self.name, "trainable": self.trainable, "dtype": self.dtype}

    def __repr__(self) -> str:
        return f"<{type(self).__name__} name={self.name}, built={self.built}>"


def mask_of(inputs):
    """The `_keras_mask` an earlier layer attached to `inputs` (a list for a list of inputs)."""
    if isinstance(inputs, (list, tuple)):
        masks = [getattr(t, "_keras_mask", None) for t in inputs]
        return masks if any(m is not None for m in masks) else None
    return getattr(inputs, "_keras_mask", None)


def _dedupe(vs):
    seen, out = set(), []
    for v in vs:
        if id(v) not in seen:
            seen.add(id(v))
            out.append(v)
    return out


def _convert(x, dtype: str):
    """Tensors of the inputs; floating ones in the layer's dtype (Keras' autocast of float64 numpy data)."""
    if isinstance(x, (list, tuple)):
        return type(x)(_convert(v, dtype) for v in x)
    if isinstance(x, dict):
        return {k: _convert(v, dtype) for k, v in x.items()}
    t = x if isinstance(x, (Tensor, Variable)) else api.convert_to_tensor(x)
    if t.dtype.is_floating and t.dtype.name != dtype:
        cast = api.cast(t, dtype)
        if hasattr(t, "_keras_mask"):
            cast._keras_mask = t._keras_mask
        return cast
    return t
