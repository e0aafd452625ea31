"""`compile`, `fit`, `evaluate`, `predict`, and the overridable `train_step`/`test_step`.

With `jit_compile=True` (the default, as Keras' "auto" on XLA) the whole step
(forward, loss, gradients, optimizer update, metric updates) is one
`tf.function(jit_compile=True)`: traced once per batch shape, then each batch
is one call of the compiled executable, whose variable updates are written
back. `run_eagerly=True` runs the same Python step op by op.
"""

from __future__ import annotations

import numpy as np

from minixla.frontend import distribute
from minixla.frontend.api import core as api
from minixla.frontend.autodiff import GradientTape
from minixla.frontend.indexed_slices import densify
from minixla.frontend.function import function as tf_function
from minixla.frontend.keras import callbacks as callbacks_module
from minixla.frontend.keras import data_adapter
from minixla.frontend.keras import losses as losses_module
from minixla.frontend.keras import metrics as metrics_module
from minixla.frontend.keras import optimizers as optimizers_module


def _mean_over_replicas(logs: dict, replicas: int) -> dict:
    """Every process logs the mean over the replicas of its shard's metrics (equal shards: the global value)."""
    if replicas == 1:
        return logs
    from minixla.frontend import distributed

    return {k: float(distributed.allreduce(np.float64(v)).numpy()) if np.ndim(v) == 0 else v for k, v in logs.items()}


def _shard(batch, replicas: int):
    """This process's contiguous part of a global batch (np.array_split: sizes differ by at most one)."""
    if replicas == 1:
        return batch
    from minixla.backends.mpi.runtime import world

    rank = world().rank
    if isinstance(batch, (list, tuple)):
        return type(batch)(_shard(b, replicas) for b in batch)
    if isinstance(batch, dict):
        return {k: _shard(v, replicas) for k, v in batch.items()}
    if batch is None or np.ndim(batch) == 0:
        return batch
    return np.array_split(np.asarray(batch), replicas)[rank]


def _to_float(v):
    v = np.asarray(v.numpy() if hasattr(v, "numpy") else v)
    return float(v) if v.size == 1 else v


class TrainingMixin:
    def _init_training(self) -> None:
        self.optimizer = None
        self.loss = None
        self.compiled = False
        self._loss_tracker = None
        self._compiled_metrics: list = []
        self.train_function = self.test_function = self.predict_function = None

    # ---- compile ------------------------------------------------------------
    def compile(self, optimizer="rmsprop", loss=None, loss_weights=None, metrics=None, weighted_metrics=None,
                run_eagerly: bool = False, steps_per_execution: int = 1, jit_compile="auto", **_) -> None:
        self.optimizer = optimizers_module.get(optimizer)
        self.loss = loss
        self._loss_tracker = metrics_module.Mean(name="loss")
        self._per_output = None
        if isinstance(loss, (list, tuple, dict)):
            self._loss_fn = None
            self._compile_per_output(loss, loss_weights, metrics)
            metrics = None
        else:
            self._loss_fn = losses_module.get(loss) if loss is not None else None
        self._compiled_metrics = [metrics_module.get(m, self._loss_fn) for m in _as_list(metrics)]
        self._weighted_metrics = [metrics_module.get(m, self._loss_fn) for m in _as_list(weighted_metrics)]
        self.run_eagerly = bool(run_eagerly)
        self.jit_compile = (not run_eagerly) if jit_compile == "auto" else bool(jit_compile)
        # compiled inside `strategy.scope()`: data-parallel over the strategy's replicas (one per process)
        self._distribute_strategy = distribute.get_strategy() if distribute.has_strategy() else None
        if run_eagerly and self.jit_compile:
            raise ValueError("You cannot set `jit_compile=True` and `run_eagerly=True` at the same time.")
        self.compiled = True
        self.train_function = self.test_function = self.predict_function = None

    def _output_names(self) -> list[str]:
        outputs = getattr(self, "outputs", None) or []
        return [t.node.layer.name for t in outputs]

    def _compile_per_output(self, loss, loss_weights, metrics) -> None:
        """A loss (and metrics, loss weight) per output of a multi-output model, by position or name."""
        names = self._output_names()
        if not names:
            raise ValueError("A list or dict of losses needs a functional model with named outputs.")

        def per_name(spec, what):
            if isinstance(spec, dict):
                unknown = set(spec) - set(names)
                if unknown:
                    raise ValueError(f"In the dict argument `{what}`, key '{min(unknown)}' does not "
                                     f"correspond to any model output. Received:\n{what}={spec}")
                return [spec.get(n) for n in names]
            spec = list(spec)
            if len(spec) != len(names):
                raise ValueError(f"For a model with multiple outputs, when providing the `{what}` argument as a "
                                 f"list, it should have as many entries as the model has outputs. Received:\n"
                                 f"{what}={spec}\nof length {len(spec)} whereas the model has {len(names)} "
                                 "outputs.")
            return spec

        losses = [losses_module.get(x) if x is not None else None for x in per_name(loss, "loss")]
        weights = per_name(loss_weights, "loss_weights") if loss_weights is not None else [1.0] * len(names)
        metric_specs = per_name(metrics, "metrics") if isinstance(metrics, dict) or (
            isinstance(metrics, (list, tuple)) and metrics and isinstance(metrics[0], (list, tuple))) \
            else [metrics] * len(names) if metrics else [None] * len(names)
        self._per_output = []
        for i, (name, fn, weight, ms) in enumerate(zip(names, losses, weights, metric_specs)):
            tracker = metrics_module.Mean(name=f"{name}_loss") if fn is not None else None
            objs = []
            for m in _as_list(ms):
                obj = metrics_module.get(m, fn)
                obj.name = f"{name}_{obj.name}"
                objs.append(obj)
            self._per_output.append((i, name, fn, float(weight if weight is not None else 1.0), tracker, objs))

    @staticmethod
    def _as_output_list(v, names):
        if isinstance(v, dict):
            return [v[n] for n in names]
        return list(v) if isinstance(v, (list, tuple)) else [v]

    @property
    def metrics(self) -> list:
        out = [self._loss_tracker] if self._loss_tracker is not None else []
        for _, _, _, _, tracker, objs in self._per_output or []:
            out += ([tracker] if tracker is not None else []) + objs
        return out + self._compiled_metrics + self._weighted_metrics

    @property
    def metrics_names(self) -> list[str]:
        return [m.name for m in self.metrics]

    def reset_metrics(self) -> None:
        for m in self.metrics:
            m.reset_state()

    def _assert_compiled(self) -> None:
        if not self.compiled:
            raise ValueError("You must call `compile()` before using the model.")

    # ---- the steps a subclass may override ----------------------------------
    def compute_loss(self, x=None, y=None, y_pred=None, sample_weight=None, training=True):
        losses = []
        if self._loss_fn is not None:
            losses = [self._loss_fn(y, y_pred, sample_weight)]
        elif getattr(self, "_per_output", None):
            names = [p[1] for p in self._per_output]
            ys, preds = self._as_output_list(y, names), self._as_output_list(y_pred, names)
            for i, _, fn, weight, tracker, _ in self._per_output:
                if fn is None:
                    continue
                value = fn(ys[i], preds[i], sample_weight)
                if x is not None:
                    tracker.update_state(value, sample_weight=self._batch_size(x))
                losses.append(value if weight == 1.0 else api.multiply(value, weight))
        losses += [api.cast(v, "float32") for v in self.losses]
        if not losses:
            raise ValueError("No loss to compute. Provide a `loss` argument in `compile()`.")
        total = losses[0] if len(losses) == 1 else api.add_n(losses)
        return total

    def compute_metrics(self, x, y, y_pred, sample_weight=None):
        if getattr(self, "_per_output", None):
            names = [p[1] for p in self._per_output]
            ys, preds = self._as_output_list(y, names), self._as_output_list(y_pred, names)
            for i, _, _, _, _, objs in self._per_output:
                for m in objs:
                    m.update_state(ys[i], preds[i])
        for m in self._compiled_metrics:
            m.update_state(y, y_pred)
        for m in self._weighted_metrics:
            m.update_state(y, y_pred, sample_weight)
        return self.get_metrics_result()

    def get_metrics_result(self) -> dict:
        out = {}
        for m in self.metrics:
            r = m.result()
            if isinstance(r, dict):
                out.update(r)
            else:
                out[m.name] = r
        return out

    def _ordered(self, logs: dict) -> dict:
        names = [n for n in self.metrics_names if n in logs]
        return {n: logs[n] for n in names + [n for n in logs if n not in names]}

    def _batch_size(self, x):
        first = x[0] if isinstance(x, (list, tuple)) else next(iter(x.values())) if isinstance(x, dict) else x
        return api.cast(api.shape(first)[0], "float32")

    def train_step(self, data):
        x, y, sample_weight = data_adapter.unpack_x_y_sample_weight(data)
        self._clear_losses()
        with GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = self.compute_loss(x, y, y_pred, sample_weight, training=True)
        self._loss_tracker.update_state(loss, sample_weight=self._batch_size(x))
        variables = self.trainable_variables
        grads = tape.gradient(loss, variables)
        if self._replicas() > 1:  # each replica saw its shard: the mean gradient is the global batch's
            grads = distribute.get_replica_context().all_reduce(distribute.ReduceOp.MEAN,
                                                                [densify(g) for g in grads])
        self.optimizer.apply_gradients(zip(grads, variables))
        return self.compute_metrics(x, y, y_pred, sample_weight)

    def _replicas(self) -> int:
        strategy = getattr(self, "_distribute_strategy", None)
        return strategy.num_replicas_in_sync if strategy is not None else 1

    def _replica_step(self, step):
        """`step` run as this process's replica when the model was compiled under a strategy."""
        strategy = getattr(self, "_distribute_strategy", None)
        if strategy is None:
            return step
        return lambda data: strategy.run(step, args=(data,))

    def test_step(self, data):
        x, y, sample_weight = data_adapter.unpack_x_y_sample_weight(data)
        self._clear_losses()
        y_pred = self(x, training=False)
        loss = self.compute_loss(x, y, y_pred, sample_weight, training=False)
        self._loss_tracker.update_state(loss, sample_weight=self._batch_size(x))
        return self.compute_metrics(x, y, y_pred, sample_weight)

    def predict_step(self, data):
        x, _, _ = data_adapter.unpack_x_y_sample_weight(data)
        return self(x, training=False)

    # ---- step functions -----------------------------------------------------
    def _wrap(self, step):
        if getattr(self, "run_eagerly", False):
            return step
        return tf_function(step, jit_compile=bool(getattr(self, "jit_compile", True)))

    def make_train_function(self, force: bool = False):
        if self.train_function is None or force:
            self.train_function = self._wrap(self._replica_step(lambda data: self.train_step(data)))
        return self.train_function

    def make_test_function(self, force: bool = False):
        if self.test_function is None or force:
            self.test_function = self._wrap(lambda data: self.test_step(data))
        return self.test_function

    def make_predict_function(self, force: bool = False):
        if self.predict_function is None or force:
            self.predict_function = self._wrap(lambda data: self.predict_step(data))
        return self.predict_function

    def _build_before_tracing(self, batch) -> None:
        """Create weights and optimizer slots eagerly, outside the first trace."""
        x, _, _ = data_adapter.unpack_x_y_sample_weight(batch)
        if not self.built or not all(getattr(s, "built", True) for s in self.layers):
            self(x, training=False)
            self._clear_losses()

    # ---- fit / evaluate / predict ------------------------------------------
    def fit(self, x=None, y=None, batch_size=None, epochs: int = 1, verbose="auto", callbacks=None,
            validation_split: float = 0.0, validation_data=None, shuffle: bool = True, class_weight=None,
            sample_weight=None, initial_epoch: int = 0, steps_per_epoch=None, validation_steps=None,
            validation_batch_size=None, validation_freq: int = 1):
        self._assert_compiled()
        if validation_split and validation_data is None:
            (x, y, sample_weight), validation_data = data_adapter.train_validation_split(
                (x, y, sample_weight), validation_split)
        data = data_adapter.DataHandler(x, y, sample_weight, batch_size, steps_per_epoch, shuffle,
                                        class_weight=class_weight)
        verbose = 1 if verbose == "auto" else int(verbose)
        cbs = callbacks_module.CallbackList(callbacks, model=self, add_history=True, add_progbar=verbose != 0,
                                            verbose=verbose, epochs=epochs, steps=data.steps)
        train_function = self.make_train_function()
        self.stop_training = False
        cbs.on_train_begin()
        logs: dict = {}
        for epoch in range(initial_epoch, epochs):
            self.reset_metrics()
            cbs.on_epoch_begin(epoch)
            for step, batch in data.epoch():
                if step == 0:
                    self._build_before_tracing(batch)
                cbs.on_train_batch_begin(step)
                batch = _shard(batch, self._replicas())
                logs = _mean_over_replicas(self._ordered({k: _to_float(v) for k, v in train_function(batch).items()}),
                                           self._replicas())
                cbs.on_train_batch_end(step, logs)
                if self.stop_training:
                    break
            epoch_logs = dict(logs)
            if validation_data is not None and (epoch + 1) % validation_freq == 0:
                vx, vy, vsw = data_adapter.unpack_x_y_sample_weight(validation_data)
                val = self.evaluate(vx, vy, sample_weight=vsw, batch_size=validation_batch_size or batch_size,
                                    steps=validation_steps, verbose=0, return_dict=True, _in_fit=True)
                epoch_logs.update({f"val_{k}": v for k, v in val.items()})
            cbs.on_epoch_end(epoch, epoch_logs)
            if self.stop_training:
                break
        cbs.on_train_end(logs)
        return cbs.history

    def evaluate(self, x=None, y=None, batch_size=None, verbose="auto", sample_weight=None, steps=None,
                 callbacks=None, return_dict: bool = False, _in_fit: bool = False, **_):
        self._assert_compiled()
        data = data_adapter.DataHandler(x, y, sample_weight, batch_size, steps, shuffle=False)
        verbose = 1 if verbose == "auto" else int(verbose)
        cbs = callbacks_module.CallbackList(callbacks, model=self, verbose=verbose, steps=data.steps)
        test_function = self.make_test_function()
        self.reset_metrics()
        cbs.on_test_begin()
        logs: dict = {}
        for step, batch in data.epoch():
            if step == 0:
                self._build_before_tracing(batch)
            cbs.on_test_batch_begin(step)
            logs = {k: _to_float(v) for k, v in test_function(batch).items()}
            cbs.on_test_batch_end(step, logs)
        if verbose and not _in_fit:
            callbacks_module.Progbar(data.steps, verbose=verbose).update(data.steps or 0, logs, finalize=True)
        cbs.on_test_end(logs)
        order = [n for n in self.metrics_names if n in logs] + [n for n in logs if n not in self.metrics_names]
        logs = {n: logs[n] for n in order}  # Keras' order: loss first, then the compiled metrics
        if return_dict:
            return logs
        values = list(logs.values())
        return values[0] if len(values) == 1 else values

    def predict(self, x, batch_size=None, verbose="auto", steps=None, callbacks=None):
        data = data_adapter.DataHandler(x, None, None, batch_size, steps, shuffle=False)
        predict_function = self.make_predict_function()
        outs = []
        for step, batch in data.epoch():
            if step == 0:
                self._build_before_tracing(batch)
            outs.append(predict_function(batch))
        if not outs:
            raise ValueError("Unexpected result of `predict_function` (Empty batch_outputs). Please use "
                             "`Model.compile(..., run_eagerly=True)`, or `tf.config.run_functions_eagerly(True)` "
                             "for more information of where went wrong, or file a issue/bug to `tf.keras`.")
        if isinstance(outs[0], (list, tuple)):
            return [np.concatenate([np.asarray(o[i]) for o in outs]) for i in range(len(outs[0]))]
        if isinstance(outs[0], dict):
            return {k: np.concatenate([np.asarray(o[k]) for o in outs]) for k in outs[0]}
        return np.concatenate([np.asarray(o) for o in outs])

    def train_on_batch(self, x, y=None, sample_weight=None, return_dict: bool = False):
        self._assert_compiled()
        batch = (x, y, sample_weight) if sample_weight is not None else (x, y)
        batch = data_adapter.to_tensors(batch)
        self._build_before_tracing(batch)
        logs = {k: _to_float(v) for k, v in self.make_train_function()(batch).items()}
        return logs if return_dict else (list(logs.values()) if len(logs) > 1 else next(iter(logs.values())))

    def test_on_batch(self, x, y=None, sample_weight=None, return_dict: bool = False):
        self._assert_compiled()
        self.reset_metrics()
        batch = data_adapter.to_tensors((x, y) if sample_weight is None else (x, y, sample_weight))
        self._build_before_tracing(batch)
        logs = {k: _to_float(v) for k, v in self.make_test_function()(batch).items()}
        return logs if return_dict else (list(logs.values()) if len(logs) > 1 else next(iter(logs.values())))

    def predict_on_batch(self, x):
        return np.asarray(self(data_adapter.to_tensors(x), training=False))


def _as_list(x) -> list:
    if x is None:
        return []
    return list(x) if isinstance(x, (list, tuple)) else [x]
