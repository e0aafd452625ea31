"""`tf.keras` on minixla: layers, Sequential/functional/subclassed models with
compile/fit/evaluate/predict (the train step compiled whole with `jit_compile=True`),
losses, metrics, optimizers and schedules, callbacks, initializers, regularizers.
See docs/keras.md.
"""

from __future__ import annotations

from types import SimpleNamespace

from minixla.frontend.keras import (
           activations,
           callbacks,
           initializers,
           layers,
           losses,
           metrics,
           optimizers,
           random,
           regularizers,
           schedules,
           utils,
)
from minixla.frontend.keras.functional import Input, KerasTensor
from minixla.frontend.keras.layers.base import Layer, clear_session
from minixla.frontend.keras.models import Model, Sequential

optimizers.schedules = schedules
models = SimpleNamespace(Model=Model, Sequential=Sequential)
backend = SimpleNamespace(clear_session=clear_session, epsilon=lambda: losses.EPSILON, floatx=lambda: "float32")

__all__ = ["Input", "KerasTensor", "Layer", "Model", "Sequential", "activations", "backend", "callbacks",
           "initializers", "layers", "losses", "metrics", "models", "optimizers", "random", "regularizers",
           "schedules", "utils"]
