"""`tf.keras.callbacks`: hooks `fit`/`evaluate`/`predict` call around epochs and batches,
and the Keras-style progress bar (`ProgbarLogger`).
"""

from __future__ import annotations

import csv
import math
import sys
import time

import numpy as np


class Callback:
    def __init__(self):
        self.model = None
        self.params: dict = {}

    def set_model(self, model) -> None:
        self.model = model

    def set_params(self, params: dict) -> None:
        self.params = params

    def on_train_begin(self, logs=None): ...
    def on_train_end(self, logs=None): ...
    def on_epoch_begin(self, epoch, logs=None): ...
    def on_epoch_end(self, epoch, logs=None): ...
    def on_train_batch_begin(self, batch, logs=None): ...
    def on_train_batch_end(self, batch, logs=None): ...
    def on_test_begin(self, logs=None): ...
    def on_test_end(self, logs=None): ...
    def on_test_batch_begin(self, batch, logs=None): ...
    def on_test_batch_end(self, batch, logs=None): ...
    def on_predict_begin(self, logs=None): ...
    def on_predict_end(self, logs=None): ...
    def on_predict_batch_begin(self, batch, logs=None): ...
    def on_predict_batch_end(self, batch, logs=None): ...


class CallbackList(Callback):
    def __init__(self, callbacks=None, model=None, add_history=False, add_progbar=False, verbose=1, **params):
        super().__init__()
        self.callbacks = list(callbacks or [])
        for c in self.callbacks:
            if not isinstance(c, Callback):
                raise TypeError(f"All callbacks must be instances of `keras.callbacks.Callback`. Received: {c!r}")
        if add_progbar and verbose and not any(isinstance(c, ProgbarLogger) for c in self.callbacks):
            self.callbacks.append(ProgbarLogger())
        self.history = None
        if add_history:
            self.history = next((c for c in self.callbacks if isinstance(c, History)), None) or History()
            if self.history not in self.callbacks:
                self.callbacks.append(self.history)
        params = dict(params, verbose=verbose)
        for c in self.callbacks:
            c.set_model(model)
            c.set_params(params)

    def __getattribute__(self, name):
        if name.startswith("on_"):
            callbacks = object.__getattribute__(self, "callbacks")

            def fan_out(*args, **kw):
                for c in callbacks:
                    getattr(c, name)(*args, **kw)

            return fan_out
        return object.__getattribute__(self, name)


class History(Callback):
    def __init__(self):
        super().__init__()
        self.history: dict[str, list] = {}
        self.epoch: list[int] = []

    def on_train_begin(self, logs=None):
        self.epoch = []

    def on_epoch_end(self, epoch, logs=None):
        self.epoch.append(epoch)
        for k, v in (logs or {}).items():
            self.history.setdefault(k, []).append(v)
        if self.model is not None:
            self.model.history = self


def _format_value(v) -> str:
    return f" {v:.4f}" if abs(v) > 1e-3 else f" {v:.4e}"


def _format_time(seconds: float) -> str:
    if seconds >= 1 or seconds == 0:
        return f" {seconds:.0f}s/step"
    if seconds >= 1e-3:
        return f" {seconds * 1e3:.0f}ms/step"
    return f" {seconds * 1e6:.0f}us/step"


class Progbar:
    """Keras' progress bar: `n/N ━━━━━━━━━━━━━━━━━━━━ 0s 3ms/step - loss: 0.6931`."""

    def __init__(self, target, width: int = 20, verbose: int = 1, stream=None):
        self.target, self.width, self.verbose = target, width, verbose
        self.stream = stream or sys.stdout
        self._start = time.time()
        self._prev_width = 0
        self._dynamic = hasattr(self.stream, "isatty") and self.stream.isatty()

    def update(self, current: int, values=None, finalize: bool | None = None) -> None:
        if finalize is None:
            finalize = self.target is not None and current >= self.target
        now = time.time()
        per_step = (now - self._start) / max(current, 1)
        metrics = "".join(f" - {k}:{_format_value(float(v))}" for k, v in (values or {}).items())
        if self.verbose == 1:
            if self.target:
                digits = int(math.log10(self.target)) + 1
                done = int(self.width * current / self.target)
                bar = f"{current:{digits}d}/{self.target} " + "━" * done + "─" * (self.width - done)
            else:
                bar = f"{current:7d}/Unknown"
            clock = (f" {now - self._start:.0f}s" if finalize or not self.target
                     else f" {per_step * (self.target - current):.0f}s")
            line = bar + clock + _format_time(per_step) + metrics
            pad = " " * max(0, self._prev_width - len(line))
            prefix = "\r" if self._dynamic else ""
            if finalize or self._dynamic:
                self.stream.write(prefix + line + pad + ("\n" if finalize else ""))
                self.stream.flush()
            self._prev_width = len(line)
        elif self.verbose == 2 and finalize:
            digits = int(math.log10(max(self.target or current, 1))) + 1
            self.stream.write(f"{current:{digits}d}/{self.target or current} - {now - self._start:.0f}s -"
                              f"{_format_time(per_step)}{metrics}\n")
            self.stream.flush()


class ProgbarLogger(Callback):
    def __init__(self):
        super().__init__()
        self.progbar = None

    def on_epoch_begin(self, epoch, logs=None):
        verbose = self.params.get("verbose", 1)
        if verbose:
            epochs = self.params.get("epochs", 1)
            if epochs > 1 or verbose:
                sys.stdout.write(f"Epoch {epoch + 1}/{epochs}\n")
            self.progbar = Progbar(self.params.get("steps"), verbose=verbose)

    def on_train_batch_end(self, batch, logs=None):
        if self.progbar is not None:
            self.progbar.update(batch + 1, logs, finalize=False)

    def on_epoch_end(self, epoch, logs=None):
        if self.progbar is not None:
            self.progbar.update(self.params.get("steps") or 0, logs, finalize=True)


def _improved(mode: str, monitor: str):
    if mode == "auto":
        mode = "max" if ("acc" in monitor or monitor.endswith("auc") or "precision" in monitor
                         or "recall" in monitor) else "min"
    return (np.less, np.inf) if mode == "min" else (np.greater, -np.inf)


class EarlyStopping(Callback):
    def __init__(self, monitor="val_loss", min_delta=0.0, patience=0, verbose=0, mode="auto", baseline=None,
                 restore_best_weights=False, start_from_epoch=0):
        super().__init__()
        if mode not in ("auto", "min", "max"):
            raise ValueError(f"EarlyStopping mode {mode} is unknown")
        self.monitor, self.patience, self.verbose = monitor, patience, verbose
        self.baseline, self.restore_best_weights = baseline, restore_best_weights
        self.start_from_epoch = start_from_epoch
        self.monitor_op, self._init_best = _improved(mode, monitor)
        self.min_delta = abs(min_delta) * (1 if self.monitor_op is np.greater else -1)
        self.stopped_epoch = 0

    def on_train_begin(self, logs=None):
        self.wait, self.stopped_epoch, self.best_weights, self.best_epoch = 0, 0, None, 0
        self.best = self._init_best

    def on_epoch_end(self, epoch, logs=None):
        current = (logs or {}).get(self.monitor)
        if current is None:
            available = ",".join(logs or {})
            sys.stderr.write(f"Early stopping conditioned on metric `{self.monitor}` which is not available. "
                             f"Available metrics are: {available}\n")
            return
        if epoch < self.start_from_epoch:
            return
        if self.restore_best_weights and self.best_weights is None:
            self.best_weights = self.model.get_weights()
        self.wait += 1
        if self.monitor_op(current - self.min_delta, self.best):
            self.best, self.best_epoch = current, epoch
            if self.restore_best_weights:
                self.best_weights = self.model.get_weights()
            if self.baseline is None or self.monitor_op(current - self.min_delta, self.baseline):
                self.wait = 0
            return
        if self.wait >= self.patience and epoch > 0:
            self.stopped_epoch = epoch
            self.model.stop_training = True

    def on_train_end(self, logs=None):
        if self.stopped_epoch > 0 and self.verbose > 0:
            sys.stdout.write(f"Epoch {self.stopped_epoch + 1}: early stopping\n")
        if self.restore_best_weights and self.best_weights is not None and self.stopped_epoch > 0:
            if self.verbose > 0:
                sys.stdout.write(f"Restoring model weights from the end of the best epoch: "
                                 f"{self.best_epoch + 1}.\n")
            self.model.set_weights(self.best_weights)


class LearningRateScheduler(Callback):
    def __init__(self, schedule, verbose=0):
        super().__init__()
        self.schedule, self.verbose = schedule, verbose

    def on_epoch_begin(self, epoch, logs=None):
        opt = self.model.optimizer
        try:
            lr = self.schedule(epoch, float(np.asarray(opt.learning_rate)))
        except TypeError:
            lr = self.schedule(epoch)
        lr = float(np.asarray(lr))
        if not isinstance(lr, float) or math.isnan(lr):
            raise ValueError(f'The output of the "schedule" function should be a float. Got: {lr}')
        opt.learning_rate = lr
        if self.verbose > 0:
            sys.stdout.write(f"\nEpoch {epoch + 1}: LearningRateScheduler setting learning rate to {lr}.\n")

    def on_epoch_end(self, epoch, logs=None):
        if logs is not None:
            logs["learning_rate"] = float(np.asarray(self.model.optimizer.learning_rate))


class ReduceLROnPlateau(Callback):
    def __init__(self, monitor="val_loss", factor=0.1, patience=10, verbose=0, mode="auto", min_delta=1e-4,
                 cooldown=0, min_lr=0.0):
        super().__init__()
        if factor >= 1.0:
            raise ValueError(f"ReduceLROnPlateau does not support a factor >= 1.0. Received factor={factor}")
        self.monitor, self.factor, self.patience, self.verbose = monitor, factor, patience, verbose
        self.min_delta, self.cooldown, self.min_lr = min_delta, cooldown, min_lr
        self.monitor_op, self._init_best = _improved(mode, monitor)

    def on_train_begin(self, logs=None):
        self.best, self.wait, self.cooldown_counter = self._init_best, 0, 0

    def on_epoch_end(self, epoch, logs=None):
        current = (logs or {}).get(self.monitor)
        if current is None:
            return
        if self.cooldown_counter > 0:
            self.cooldown_counter -= 1
            self.wait = 0
        delta = -self.min_delta if self.monitor_op is np.less else self.min_delta
        if self.monitor_op(current, self.best + delta) if np.isfinite(self.best) else True:
            self.best, self.wait = current, 0
        elif self.cooldown_counter <= 0:
            self.wait += 1
            if self.wait >= self.patience:
                old = float(np.asarray(self.model.optimizer.learning_rate))
                if old > self.min_lr:
                    self.model.optimizer.learning_rate = max(old * self.factor, self.min_lr)
                    self.cooldown_counter, self.wait = self.cooldown, 0


class LambdaCallback(Callback):
    def __init__(self, on_epoch_begin=None, on_epoch_end=None, on_train_begin=None, on_train_end=None,
                 on_train_batch_begin=None, on_train_batch_end=None, **_):
        super().__init__()
        for name, fn in (("on_epoch_begin", on_epoch_begin), ("on_epoch_end", on_epoch_end),
                         ("on_train_begin", on_train_begin), ("on_train_end", on_train_end),
                         ("on_train_batch_begin", on_train_batch_begin),
                         ("on_train_batch_end", on_train_batch_end)):
            if fn is not None:
                setattr(self, name, fn)


class TerminateOnNaN(Callback):
    def on_train_batch_end(self, batch, logs=None):
        loss = (logs or {}).get("loss")
        if loss is not None and not np.isfinite(loss):
            sys.stdout.write(f"Batch {batch}: Invalid loss, terminating training\n")
            self.model.stop_training = True


class ModelCheckpoint(Callback):
    """Saves weights (the npz format of `Model.save_weights`) after each epoch, or only the best."""

    def __init__(self, filepath, monitor="val_loss", verbose=0, save_best_only=False, save_weights_only=True,
                 mode="auto", save_freq="epoch", initial_value_threshold=None):
        super().__init__()
        self.filepath, self.monitor, self.save_best_only = str(filepath), monitor, save_best_only
        self.monitor_op, best = _improved(mode, monitor)
        self.best = best if initial_value_threshold is None else initial_value_threshold

    def on_epoch_end(self, epoch, logs=None):
        logs = logs or {}
        path = self.filepath.format(epoch=epoch + 1, **logs)
        if self.save_best_only:
            current = logs.get(self.monitor)
            if current is None or not self.monitor_op(current, self.best):
                return
            self.best = current
        self.model.save_weights(path)


class CSVLogger(Callback):
    def __init__(self, filename, separator=",", append=False):
        super().__init__()
        self.filename, self.sep, self.append = filename, separator, append

    def on_train_begin(self, logs=None):
        self._file = open(self.filename, "a" if self.append else "w", newline="")  # noqa: SIM115
        self._writer = None

    def on_epoch_end(self, epoch, logs=None):
        logs = logs or {}
        if self._writer is None:
            self._writer = csv.DictWriter(self._file, ["epoch"] + sorted(logs), delimiter=self.sep)
            self._writer.writeheader()
        self._writer.writerow({"epoch": epoch, **logs})
        self._file.flush()

    def on_train_end(self, logs=None):
        self._file.close()
