"""Small-size training runs of the three Keras examples, shared by the golden recorder (real
TF) and tests/frontend/keras/test_examples.py (minixla): same model code (the example's
`build_model(keras)`), same data, same initial weights (drawn here with numpy), `fit` with
shuffle=False; the per-batch running loss of 50 steps is compared."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[3]
CASES = {
    # name: (example module, build kwargs, data kwargs/slice, batch size, epochs[, compile kwargs])
    "cnn": ("keras_cnn_digits", {"filters": (4, 8), "dense": 16}, 160, 16, 5),
    "lstm": ("keras_lstm", {"units": 8, "steps": 6}, {"n": 100, "steps": 6}, 10, 5),
    "transformer": ("keras_transformer", {"length": 6, "vocab": 8, "dim": 8, "heads": 2, "ffn": 16, "dropout": 0.0},
                    # the example's Adam: Embedding's gradient reaches it as IndexedSlices (one row per
                    # token), whose squared rows Adam adds into its second moment, as Keras does
                    {"n": 100, "length": 6, "vocab": 8}, 10, 5),
}
STEPS = 50


def example(module: str):
    spec = importlib.util.spec_from_file_location(module, ROOT / "examples" / f"{module}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def data(name: str):
    module, _, data_args = CASES[name][:3]
    mod = example(module)
    return mod.load_data(data_args) if isinstance(data_args, int) else mod.load_data(**data_args)


def initial_weights(model, seed: int = 0) -> list:
    """Glorot-uniform kernels/embeddings, zero biases/betas/means, unit gammas/variances."""
    rng = np.random.default_rng(seed)
    out = []
    for w in model.weights:
        name = getattr(w, "path", None) or w.name
        shape = tuple(int(d) for d in w.shape)
        if any(k in name for k in ("gamma", "moving_variance")):
            out.append(np.ones(shape, np.float32))
        elif any(k in name for k in ("bias", "beta", "moving_mean")) or len(shape) < 2:
            out.append(np.zeros(shape, np.float32))
        else:
            fan_in, fan_out = int(np.prod(shape[:-1])), shape[-1]
            limit = np.sqrt(6.0 / (fan_in + fan_out))
            out.append(rng.uniform(-limit, limit, shape).astype(np.float32))
    return out


def train(name: str, keras, weights=None, jit_compile=True):
    """Build, set weights, fit; returns (initial weights, per-batch running losses, final weights)."""
    module, build_args, _, batch_size, epochs, *compile_kwargs = CASES[name]
    mod = example(module)
    x, y = data(name)
    model = mod.build_model(keras, **build_args)
    model(x[:1])
    weights = initial_weights(model) if weights is None else weights
    model.set_weights(weights)
    mod.compile_model(keras, model, jit_compile=jit_compile, **(compile_kwargs[0] if compile_kwargs else {}))
    losses: list[float] = []
    log = keras.callbacks.LambdaCallback(on_train_batch_end=lambda batch, logs: losses.append(float(logs["loss"])))
    model.fit(x, y, batch_size=batch_size, epochs=epochs, shuffle=False, verbose=0, callbacks=[log])
    return weights, np.array(losses[:STEPS], np.float32), model.get_weights()


def record(name: str, keras, np_module) -> dict:
    weights, losses, final = train(name, keras)
    out = {f"w{i}": w for i, w in enumerate(weights)}
    out.update({f"final{i}": w for i, w in enumerate(final)})
    out["losses"] = losses
    return out
