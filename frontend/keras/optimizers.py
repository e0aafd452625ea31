"""`tf.keras.optimizers.SGD` and `Adam` (Keras 3 update rules).

`apply_gradients(zip(grads, vars))` updates with `assign_*`: eagerly in
place, and inside a compiled step as variable updates of the executable.
Slots and the step counter are created eagerly (`init_scope`) on first use.
"""

from __future__ import annotations

import numpy as np

from minixla.frontend.api import core as api
from minixla.frontend.graph import init_scope
from minixla.frontend.variables import Variable


class Optimizer:
    def __init__(self, learning_rate=0.001, name: str | None = None, **_):
        self.learning_rate = float(learning_rate)
        self.name = name or type(self).__name__
        self._slots: dict[tuple[int, str], Variable] = {}
        with init_scope():
            self.iterations = Variable(np.array(0, np.int64), trainable=False, name=f"{self.name}/iterations")

    def _slot(self, var, name: str) -> Variable:
        key = (id(var), name)
        if key not in self._slots:
            with init_scope():
                self._slots[key] = Variable(np.zeros(var.shape.as_list(), var.dtype.np), trainable=False,
                                            name=f"{self.name}/{name}")
        return self._slots[key]

    def apply_gradients(self, grads_and_vars, name=None):
        pairs = [(g, v) for g, v in grads_and_vars if g is not None]
        if not pairs:
            raise ValueError("No gradients provided for any variable.")
        self._prepare()
        for g, v in pairs:
            self._update(api.cast(g, v.dtype), v)
        self.iterations.assign_add(np.int64(1))
        return self.iterations

    def minimize(self, loss, var_list, tape=None):
        grads = tape.gradient(loss, var_list)
        return self.apply_gradients(zip(grads, var_list))

    def _prepare(self) -> None:
        pass

    def _update(self, g, var) -> None:
        raise NotImplementedError

    @property
    def variables(self) -> list[Variable]:
        return [self.iterations] + list(self._slots.values())


class SGD(Optimizer):
    def __init__(self, learning_rate=0.01, momentum: float = 0.0, nesterov: bool = False, **kw):
        super().__init__(learning_rate, **kw)
        self.momentum, self.nesterov = float(momentum), nesterov

    def _update(self, g, var) -> None:
        lr = np.asarray(self.learning_rate, var.dtype.np)
        if not self.momentum:
            var.assign_sub(api.multiply(g, lr))
            return
        m = self._slot(var, "momentum")
        mom = np.asarray(self.momentum, var.dtype.np)
        m.assign(api.subtract(api.multiply(m, mom), api.multiply(g, lr)))
        step = api.subtract(api.multiply(m, mom), api.multiply(g, lr)) if self.nesterov else m
        var.assign_add(step)


class Adam(Optimizer):
    def __init__(self, learning_rate=0.001, beta_1: float = 0.9, beta_2: float = 0.999, epsilon: float = 1e-7,
                 **kw):
        super().__init__(learning_rate, **kw)
        self.beta_1, self.beta_2, self.epsilon = float(beta_1), float(beta_2), float(epsilon)

    def _prepare(self) -> None:
        t = api.cast(api.add(self.iterations, np.int64(1)), "float32")
        b1 = api.pow(np.float32(self.beta_1), t)
        b2 = api.pow(np.float32(self.beta_2), t)
        self._alpha = api.divide(api.multiply(np.float32(self.learning_rate), api.sqrt(api.subtract(1.0, b2))),
                                 api.subtract(1.0, b1))

    def _update(self, g, var) -> None:
        dt = var.dtype.np
        m, v = self._slot(var, "m"), self._slot(var, "v")
        m.assign_add(api.multiply(api.subtract(g, m), np.asarray(1 - self.beta_1, dt)))
        v.assign_add(api.multiply(api.subtract(api.square(g), v), np.asarray(1 - self.beta_2, dt)))
        alpha = api.cast(self._alpha, var.dtype)
        var.assign_sub(api.divide(api.multiply(m, alpha), api.add(api.sqrt(v), np.asarray(self.epsilon, dt))))
