"""`tf.keras.optimizers.schedules`: learning rate as a function of the step (`optimizer.iterations`).

Each schedule is written with tensor ops so it runs inside the compiled
training step (the step counter is a variable there).
"""

from __future__ import annotations

import math

import numpy as np
from minixla.frontend.api import core as api


def _f(step):
    return api.cast(step, "float32")


class LearningRateSchedule:
    def __call__(self, step):
        raise NotImplementedError

    def get_config(self) -> dict:
        return dict(self.__dict__)


class ExponentialDecay(LearningRateSchedule):
    def __init__(self, initial_learning_rate, decay_steps, decay_rate, staircase=False, name=None):
        if decay_steps <= 0:
            raise ValueError(f"Argument `decay_steps` must be > 0. Received: decay_steps={decay_steps}")
        self.initial_learning_rate, self.decay_steps = float(initial_learning_rate), float(decay_steps)
        self.decay_rate, self.staircase = float(decay_rate), staircase

    def __call__(self, step):
        p = api.divide(_f(step), np.float32(self.decay_steps))
        if self.staircase:
            p = api.floor(p)
        return api.multiply(np.float32(self.initial_learning_rate), api.pow(np.float32(self.decay_rate), p))


class InverseTimeDecay(ExponentialDecay):
    def __call__(self, step):
        p = api.divide(_f(step), np.float32(self.decay_steps))
        if self.staircase:
            p = api.floor(p)
        return api.divide(np.float32(self.initial_learning_rate),
                          api.add(1.0, api.multiply(np.float32(self.decay_rate), p)))


class PiecewiseConstantDecay(LearningRateSchedule):
    def __init__(self, boundaries, values, name=None):
        if len(boundaries) != len(values) - 1:
            raise ValueError(f"The length of boundaries should be 1 less than the length of values. Received: "
                             f"boundaries={boundaries} of length {len(boundaries)}, and values={values} of "
                             f"length {len(values)}.")
        self.boundaries, self.values = list(boundaries), [float(v) for v in values]

    def __call__(self, step):
        step = _f(step)
        out = api.constant(np.float32(self.values[-1]))
        for b, v in reversed(list(zip(self.boundaries, self.values[:-1]))):
            out = api.where(api.less_equal(step, np.float32(b)), np.float32(v), out)
        return out


class PolynomialDecay(LearningRateSchedule):
    def __init__(self, initial_learning_rate, decay_steps, end_learning_rate=0.0001, power=1.0, cycle=False,
                 name=None):
        self.initial_learning_rate, self.decay_steps = float(initial_learning_rate), float(decay_steps)
        self.end_learning_rate, self.power, self.cycle = float(end_learning_rate), float(power), cycle

    def __call__(self, step):
        step = _f(step)
        decay_steps = np.float32(self.decay_steps)
        if self.cycle:
            mult = api.where(api.equal(step, 0.0), np.float32(1.0), api.ceil(api.divide(step, decay_steps)))
            decay_steps = api.multiply(decay_steps, mult)
        else:
            step = api.minimum(step, decay_steps)
        frac = api.subtract(1.0, api.divide(step, decay_steps))
        span = np.float32(self.initial_learning_rate - self.end_learning_rate)
        return api.add(api.multiply(span, api.pow(frac, np.float32(self.power))), np.float32(self.end_learning_rate))


class CosineDecay(LearningRateSchedule):
    def __init__(self, initial_learning_rate, decay_steps, alpha=0.0, name="CosineDecay", warmup_target=None,
                 warmup_steps=0):
        self.initial_learning_rate, self.decay_steps = float(initial_learning_rate), float(decay_steps)
        self.alpha, self.warmup_target, self.warmup_steps = float(alpha), warmup_target, float(warmup_steps)

    def _decay(self, step, decay_from):
        cosine = api.multiply(0.5, api.add(1.0, api.cos(api.multiply(
            np.float32(math.pi), api.divide(step, np.float32(self.decay_steps))))))
        return api.multiply(decay_from, api.add(api.multiply(np.float32(1 - self.alpha), cosine),
                                                np.float32(self.alpha)))

    def __call__(self, step):
        step = _f(step)
        if self.warmup_target is None:
            return self._decay(api.minimum(step, np.float32(self.decay_steps)), np.float32(self.initial_learning_rate))
        step = api.minimum(step, np.float32(self.decay_steps + self.warmup_steps))
        warm = api.add(api.multiply(np.float32(self.warmup_target - self.initial_learning_rate),
                                    api.divide(step, np.float32(max(self.warmup_steps, 1e-30)))),
                       np.float32(self.initial_learning_rate))
        decayed = self._decay(api.subtract(step, np.float32(self.warmup_steps)), np.float32(self.warmup_target))
        return api.where(api.less(step, np.float32(self.warmup_steps)), warm, decayed)


def serialize(schedule) -> dict:
    return {"class_name": type(schedule).__name__, "config": schedule.get_config()}
