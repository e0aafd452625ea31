"""The minimal Keras the XLA lecture's training loop uses: `layers` (Dense,
Conv2D, MaxPool2D, Flatten), `losses`, `optimizers` (SGD, Adam),
`Sequential`, `utils.set_random_seed`."""

from __future__ import annotations

from types import SimpleNamespace

from minixla.frontend.keras import initializers as _init
from minixla.frontend.keras import layers as _layers
from minixla.frontend.keras import losses as _losses
from minixla.frontend.keras import optimizers as _optimizers
from minixla.frontend.keras.models import Model, Sequential

layers = SimpleNamespace(**{n: getattr(_layers, n) for n in (
    "Layer", "Dense", "Conv2D", "MaxPool2D", "MaxPooling2D", "AveragePooling2D", "AvgPool2D", "Flatten", "ReLU")})
losses = SimpleNamespace(SparseCategoricalCrossentropy=_losses.SparseCategoricalCrossentropy,
                         CategoricalCrossentropy=_losses.CategoricalCrossentropy,
                         MeanSquaredError=_losses.MeanSquaredError, Loss=_losses.Loss)
optimizers = SimpleNamespace(SGD=_optimizers.SGD, Adam=_optimizers.Adam, Optimizer=_optimizers.Optimizer)
utils = SimpleNamespace(set_random_seed=_init.set_random_seed)
initializers = SimpleNamespace(get=_init.get, glorot_uniform=_init.glorot_uniform, zeros=_init.zeros)

__all__ = ["Model", "Sequential", "initializers", "layers", "losses", "optimizers", "utils"]
