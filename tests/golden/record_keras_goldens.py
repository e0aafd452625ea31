"""Record Keras goldens from real TensorFlow into tests/golden/keras/*.npz.

Run with a TensorFlow install (not needed by the tests):
    python3 -m venv /tmp/tfvenv && /tmp/tfvenv/bin/pip install tensorflow-cpu
    /tmp/tfvenv/bin/python tests/golden/record_keras_goldens.py [layers|losses|metrics|optimizers|sparse_optimizers|schedules|masked|training]
    /tmp/tfvenv/bin/python tests/golden/record_keras_goldens.py layers=lstm,gru   # only these layer cases

Each case's inputs and weights are drawn here (numpy, seeded by the case name) and stored beside
the results, so the tests replay exactly these numbers through minixla and never need TF.
Layer cases store: inputs x0.., weights w0.. (in `layer.weights` order), the forward output, the
gradients of sum(output * r) (r stored too) with respect to inputs and trainable weights.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import zlib
from pathlib import Path

import numpy as np

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import tensorflow as tf

keras = tf.keras
ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "tests" / "golden" / "keras"
_spec = importlib.util.spec_from_file_location("keras_cases", ROOT / "tests/frontend/keras/keras_cases.py")
cases = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cases)


def rng_for(name: str) -> np.random.Generator:
    return np.random.default_rng(zlib.crc32(name.encode()))


def draw_input(rng, shape, kind):
    if kind.startswith("int"):
        return rng.integers(0, int(kind[3:]), shape).astype(np.int32)
    if kind == "pos":
        return rng.uniform(0.0, 255.0, shape).astype(np.float32)
    return rng.normal(size=shape).astype(np.float32)


def draw_weight(rng, w) -> np.ndarray:
    shape = tuple(w.shape)
    if "variance" in w.name:
        return rng.uniform(0.5, 1.5, shape).astype(np.float32)
    return (rng.normal(size=shape) * 0.5).astype(np.float32)


def call_layer(layer, xs, training=None):
    name = type(layer).__name__
    if name == "MultiHeadAttention":
        return layer(xs[0], xs[1], training=training)
    if len(xs) > 1 or name in ("Attention",):
        return layer(list(xs), training=training)
    return layer(xs[0], training=training)


def record_layers(only=None) -> None:
    for name, cls, kwargs, shape, kind in cases.LAYERS:
        if only and name not in only:
            continue
        rng = rng_for(name)
        shapes = shape if isinstance(shape, list) else [shape]
        xs = [draw_input(rng, s, kind) for s in shapes]
        layer = cases.make_layer(keras.layers, cls, kwargs)
        call_layer(layer, [tf.constant(x) for x in xs])
        weights = [draw_weight(rng, w) for w in layer.weights]
        layer.set_weights(weights)
        out = {f"x{i}": x for i, x in enumerate(xs)}
        out.update({f"w{i}": w for i, w in enumerate(weights)})
        out["weight_names"] = np.array([w.path if hasattr(w, "path") else w.name for w in layer.weights])
        trainings = [False, True] if name in cases.TRAINING_LAYERS else [False]
        for training in trainings:
            suffix = "_train" if training else ""
            if training:
                layer.set_weights(weights)
            tx = [tf.constant(x) for x in xs]
            with tf.GradientTape(persistent=True) as tape:
                for t in tx:
                    if t.dtype.is_floating:
                        tape.watch(t)
                y = call_layer(layer, tx, training=training)
                r = rng_for(name + suffix + "r").normal(size=y.shape).astype(np.float32)
                s = tf.reduce_sum(y * r)
            out[f"out{suffix}"] = y.numpy()
            out[f"r{suffix}"] = r
            for i, t in enumerate(tx):
                if t.dtype.is_floating:
                    out[f"gx{i}{suffix}"] = tape.gradient(s, t).numpy()
            for i, g in enumerate(tape.gradient(s, layer.trainable_weights)):
                out[f"gw{i}{suffix}"] = (tf.convert_to_tensor(g).numpy() if g is not None
                                         else np.zeros(layer.trainable_weights[i].shape, np.float32))
            if training:
                out["weights_after_train"] = np.array(len(layer.weights))
                for i, w in enumerate(layer.weights):
                    out[f"wa{i}"] = w.numpy()
        np.savez(OUT / f"layer_{name}.npz", **out)
        print("layer", name, out["out"].shape)


def draw_pair(rng, kind, n=6, k=4):
    if kind == "reg":
        return rng.normal(size=(n, k)).astype(np.float32), rng.normal(size=(n, k)).astype(np.float32)
    if kind == "pos":
        return (rng.uniform(0.1, 2.0, (n, k)).astype(np.float32), rng.uniform(0.1, 2.0, (n, k)).astype(np.float32))
    if kind == "binary_prob":
        return (rng.integers(0, 2, (n, 2)).astype(np.float32), rng.uniform(0.05, 0.95, (n, 2)).astype(np.float32))
    if kind == "binary_logit":
        return rng.integers(0, 2, (n, 2)).astype(np.float32), (rng.normal(size=(n, 2)) * 2).astype(np.float32)
    logits = rng.normal(size=(n, k)).astype(np.float32)
    probs = (np.exp(logits) / np.exp(logits).sum(1, keepdims=True)).astype(np.float32)
    labels = rng.integers(0, k, n)
    onehot = np.eye(k, dtype=np.float32)[labels]
    if kind == "onehot_prob":
        return onehot, probs
    if kind == "onehot_logit":
        return onehot, logits
    if kind == "sparse_prob":
        return labels.astype(np.int32), probs
    if kind == "sparse_logit":
        return labels.astype(np.int32), logits
    if kind == "sparse_pred_ids":
        return rng.integers(0, 3, n).astype(np.int32), rng.integers(0, 3, n).astype(np.int32)
    raise ValueError(kind)


def record_losses() -> None:
    for name, cls, kwargs, kind in cases.LOSSES:
        rng = rng_for("loss_" + name)
        y_true, y_pred = draw_pair(rng, kind)
        sw = rng.uniform(0.0, 2.0, (len(y_true),)).astype(np.float32)
        loss = getattr(keras.losses, cls)(**kwargs)
        p = tf.constant(y_pred)
        with tf.GradientTape() as tape:
            tape.watch(p)
            value = loss(y_true, p)
        grad = tape.gradient(value, p)
        weighted = loss(y_true, y_pred, sample_weight=sw)
        np.savez(OUT / f"loss_{name}.npz", y_true=y_true, y_pred=y_pred, sample_weight=sw, value=value.numpy(),
                 grad=grad.numpy(), weighted=weighted.numpy())
        print("loss", name, value.numpy())


def record_metrics() -> None:
    for name, cls, kwargs, kind in cases.METRICS:
        rng = rng_for("metric_" + name)
        t1, p1 = draw_pair(rng, kind)
        t2, p2 = draw_pair(rng, kind)
        sw = rng.uniform(0.0, 2.0, (len(t2),)).astype(np.float32)
        metric = getattr(keras.metrics, cls)(**kwargs)
        metric.update_state(t1, p1)
        r1 = np.asarray(metric.result())
        metric.update_state(t2, p2, sample_weight=sw)
        r2 = np.asarray(metric.result())
        np.savez(OUT / f"metric_{name}.npz", t1=t1, p1=p1, t2=t2, p2=p2, sw=sw, r1=r1, r2=r2)
        print("metric", name, r1, r2)


def record_optimizers() -> None:
    for name, cls, kwargs in cases.OPTIMIZERS:
        rng = rng_for("opt_" + name)
        w0 = rng.normal(size=(3, 4)).astype(np.float32)
        b0 = rng.normal(size=(4,)).astype(np.float32)
        grads = [(rng.normal(size=(3, 4)).astype(np.float32), rng.normal(size=(4,)).astype(np.float32))
                 for _ in range(cases.OPTIMIZER_STEPS)]
        w, b = tf.Variable(w0), tf.Variable(b0)
        opt = getattr(keras.optimizers, cls)(**kwargs)
        out = {"w0": w0, "b0": b0}
        for i, (gw, gb) in enumerate(grads):
            opt.apply_gradients([(tf.constant(gw), w), (tf.constant(gb), b)])
            out[f"gw{i}"], out[f"gb{i}"] = gw, gb
            out[f"w{i + 1}"], out[f"b{i + 1}"] = w.numpy(), b.numpy()
        np.savez(OUT / f"optimizer_{name}.npz", **out)
        print("optimizer", name)


def record_sparse_optimizers() -> None:
    """Each optimizer fed a gather's gradient (IndexedSlices with repeated ids) for three steps."""
    for name, cls, kwargs in cases.OPTIMIZERS:
        rng = rng_for("sparse_opt_" + name)
        w0 = rng.normal(size=(5, 3)).astype(np.float32)
        ids = [rng.integers(0, 5, (4,)).astype(np.int32) for _ in range(cases.OPTIMIZER_STEPS)]
        ids[0][:2] = 2  # a repeated id in every case
        rs = [rng.normal(size=(4, 3)).astype(np.float32) for _ in range(cases.OPTIMIZER_STEPS)]
        w = tf.Variable(w0)
        opt = getattr(keras.optimizers, cls)(**kwargs)
        out = {"w0": w0}
        for i, (idx, r) in enumerate(zip(ids, rs)):
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(tf.gather(w, idx) ** 2 * r)
            g = tape.gradient(loss, w)
            assert isinstance(g, tf.IndexedSlices)
            opt.apply_gradients([(g, w)])
            out[f"ids{i}"], out[f"r{i}"] = idx, r
            out[f"values{i}"], out[f"w{i + 1}"] = g.values.numpy(), w.numpy()
        np.savez(OUT / f"sparse_optimizer_{name}.npz", **out)
        print("sparse optimizer", name)


def record_schedules() -> None:
    for name, cls, kwargs in cases.SCHEDULES:
        schedule = getattr(keras.optimizers.schedules, cls)(**kwargs)
        values = np.array([float(schedule(s)) for s in cases.SCHEDULE_STEPS], np.float32)
        np.savez(OUT / f"schedule_{name}.npz", steps=np.array(cases.SCHEDULE_STEPS), values=values)
        print("schedule", name, values)


def masked_input(name: str, kind: str):
    """Id sequences padded with zeros at the end (ids) or float sequences with all-zero padding steps."""
    rng = rng_for("masked_" + name)
    lengths = [6, 3, 1, 4]
    if kind == "ids":
        x = rng.integers(1, 7, (4, 6)).astype(np.int32)
        for row, n in zip(x, lengths):
            row[n:] = 0
        return x
    x = rng.normal(size=(4, 5, 2)).astype(np.float32)
    for row, n in zip(x, [5, 2, 1, 3]):
        row[n:] = 0.0
    return x


def record_masked() -> None:
    for name, (build, kind) in cases.MASKED_MODELS.items():
        x = masked_input(name, kind)
        model = build(keras)
        model(x)
        rng = rng_for("masked_w_" + name)
        weights = [draw_weight(rng, w) for w in model.weights]
        model.set_weights(weights)
        with tf.GradientTape() as tape:
            y = model(x)
            r = rng_for("masked_r_" + name).normal(size=y.shape).astype(np.float32)
            s = tf.reduce_sum(y * r)
        grads = tape.gradient(s, model.trainable_weights)
        out = {"x": x, "out": y.numpy(), "r": r}
        out.update({f"w{i}": w for i, w in enumerate(weights)})
        out.update({f"gw{i}": tf.convert_to_tensor(g).numpy() for i, g in enumerate(grads)})
        np.savez(OUT / f"masked_{name}.npz", **out)
        print("masked", name, y.shape)


def record_training(names=None) -> None:
    """The examples' small-size training curves, from weights stored in the example's init file
    (`training=transformer` records one)."""
    sys.path.insert(0, str(ROOT / "tests" / "frontend" / "keras"))
    import keras_training_cases as training

    for name in names or training.CASES:
        out = training.record(name, keras, np)
        np.savez(OUT / f"training_{name}.npz", **out)
        print("training", name, out["losses"][:3], "...", out["losses"][-1])


if __name__ == "__main__":
    OUT.mkdir(parents=True, exist_ok=True)
    which = sys.argv[1:] or ["layers", "losses", "metrics", "optimizers", "sparse_optimizers", "schedules", "masked",
                             "training"]
    for part in which:
        kind, _, names = part.partition("=")
        globals()[f"record_{kind}"](*([names.split(",")] if names else []))
