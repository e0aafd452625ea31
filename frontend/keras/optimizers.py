"""`tf.keras.optimizers`: SGD, Adam, AdamW, RMSprop, Adagrad, Adadelta, Adamax, Nadam, Lion
with Keras 3's update rules, learning-rate schedules, clipnorm/clipvalue/global_clipnorm.

The learning rate is a variable (or a schedule evaluated at `iterations`), so
a callback can change it between epochs without retracing the compiled step.
`apply_gradients` updates with `assign_*`: eagerly in place, and inside a
compiled step as variable updates of the executable. Slots and the step
counter are created eagerly (`init_scope`) on first use.
"""

from __future__ import annotations

import numpy as np
from minixla.frontend.api import core as api
from minixla.frontend.graph import init_scope
from minixla.frontend.indexed_slices import IndexedSlices, densify
from minixla.frontend.keras import schedules
from minixla.frontend.variables import Variable


def _c(value, var):
    return np.asarray(value, var.dtype.np)


def _squared(g):
    """g**2, or for a gather's gradient (IndexedSlices) the sum of its squared rows per index: Keras
    squares the rows before they are added into a dense slot, so repeated ids do not share a square."""
    return g.square_rows_to_dense() if isinstance(g, IndexedSlices) else api.square(g)


def _cast_gradient(g, dtype):
    if isinstance(g, IndexedSlices):
        return g.with_values(api.cast(g.values, dtype))
    return api.cast(api.convert_to_tensor(g), dtype)


def _sum_of_squares(g):
    """What Keras' clipping norms sum: the rows of an IndexedSlices as they are, not summed per index."""
    return api.reduce_sum(api.square(g.values if isinstance(g, IndexedSlices) else g))


class Optimizer:
    def __init__(self, learning_rate=0.001, weight_decay=None, clipnorm=None, clipvalue=None,
                 global_clipnorm=None, use_ema=False, name: str | None = None, **kwargs):
        unknown = set(kwargs) - {"ema_momentum", "ema_overwrite_frequency", "loss_scale_factor",
                                 "gradient_accumulation_steps", "decay", "jit_compile"}
        if unknown:
            raise ValueError(f"Argument(s) not recognized: { {k: kwargs[k] for k in sorted(unknown)} }")
        if sum(x is not None for x in (clipnorm, clipvalue, global_clipnorm)) > 1:
            raise ValueError("Only one of `clipnorm`, `clipvalue` and `global_clipnorm` can be set. Received: "
                             f"clipnorm={clipnorm}, clipvalue={clipvalue}, global_clipnorm={global_clipnorm}")
        self.name = name or type(self).__name__.lower()
        self.weight_decay, self.clipnorm, self.clipvalue = weight_decay, clipnorm, clipvalue
        self.global_clipnorm = global_clipnorm
        self._slots: dict[tuple[int, str], Variable] = {}
        self._excluded: set[int] = set()
        self._excluded_names: list[str] = []
        with init_scope():
            self.iterations = Variable(np.array(0, np.int64), trainable=False, name=f"{self.name}/iterations")
            if isinstance(learning_rate, schedules.LearningRateSchedule) or callable(learning_rate):
                self._schedule, self._lr = learning_rate, None
            else:
                self._schedule = None
                self._lr = Variable(np.array(float(learning_rate), np.float32), trainable=False,
                                    name=f"{self.name}/learning_rate")

    # ---- learning rate ------------------------------------------------------
    @property
    def learning_rate(self):
        if self._schedule is not None:
            return self._schedule(self.iterations)
        return self._lr

    @learning_rate.setter
    def learning_rate(self, value) -> None:
        if isinstance(value, schedules.LearningRateSchedule):
            self._schedule = value
            return
        if self._schedule is not None:
            raise TypeError("This optimizer was created with a `LearningRateSchedule` object as its "
                            "`learning_rate` constructor argument, hence its learning rate is not settable.")
        self._lr.assign(np.float32(value))

    lr = learning_rate

    def _current_lr(self):
        return api.cast(self._schedule(self.iterations), "float32") if self._schedule is not None \
            else self._lr.read_value()

    # ---- slots --------------------------------------------------------------
    def _slot(self, var, name: str, init: float = 0.0) -> Variable:
        key = (id(var), name)
        if key not in self._slots:
            with init_scope():
                self._slots[key] = Variable(np.full(var.shape.as_list(), init, var.dtype.np), trainable=False,
                                            name=f"{self.name}/{getattr(var, 'name', 'var')}_{name}")
        return self._slots[key]

    def build(self, var_list) -> None:
        """Create the slots now (Keras calls this on the first `apply_gradients`)."""
        for v in var_list:
            self._create_slots(v)

    def _create_slots(self, var) -> None:
        pass

    @property
    def variables(self) -> list[Variable]:
        return [self.iterations] + ([self._lr] if self._lr is not None else []) + list(self._slots.values())

    def exclude_from_weight_decay(self, var_list=None, var_names=None) -> None:
        self._excluded |= {id(v) for v in var_list or []}
        self._excluded_names += list(var_names or [])

    # ---- the update ---------------------------------------------------------
    def _clip(self, grads):
        if self.clipnorm and self.clipnorm > 0:
            return [_clip_by_norm(g, self.clipnorm) for g in grads]
        if self.global_clipnorm and self.global_clipnorm > 0:
            norm = api.sqrt(api.add_n([_sum_of_squares(g) for g in grads]))
            scale = api.divide(np.float32(self.global_clipnorm), api.maximum(norm, np.float32(self.global_clipnorm)))
            return [api.multiply(densify(g), api.cast(scale, g.dtype)) for g in grads]
        if self.clipvalue and self.clipvalue > 0:
            return [g.with_values(api.clip_by_value(g.values, -self.clipvalue, self.clipvalue))  # row by row
                    if isinstance(g, IndexedSlices) else api.clip_by_value(g, -self.clipvalue, self.clipvalue)
                    for g in grads]
        return grads

    def apply_gradients(self, grads_and_vars, name=None):
        pairs = [(g, v) for g, v in grads_and_vars if g is not None]
        if not pairs:
            raise ValueError("No gradients provided for any variable.")
        grads = self._clip([_cast_gradient(g, v.dtype) for g, v in pairs])
        variables = [v for _, v in pairs]
        for v in variables:
            self._create_slots(v)
        lr = self._current_lr()
        if self.weight_decay:
            for v in variables:
                if id(v) not in self._excluded and not any(n in getattr(v, "name", "")
                                                           for n in self._excluded_names):
                    v.assign(api.subtract(v, api.multiply(v, api.multiply(
                        api.cast(lr, v.dtype), _c(self.weight_decay, v)))))
        self._prepare(lr)
        for g, v in zip(grads, variables):
            self._update(g, v, api.cast(lr, v.dtype))
            if getattr(v, "constraint", None) is not None:
                v.assign(v.constraint(v))
        self.iterations.assign_add(np.int64(1))
        return self.iterations

    def apply(self, grads, trainable_variables=None):
        return self.apply_gradients(zip(grads, trainable_variables))

    def minimize(self, loss, var_list, tape=None):
        if tape is None:
            raise ValueError("`tape` is required when a `Tensor` loss is passed.")
        var_list = var_list() if callable(var_list) else var_list
        grads = tape.gradient(loss, var_list)
        return self.apply_gradients(zip(grads, var_list))

    def _step(self, offset: int = 1):
        return api.cast(api.add(self.iterations, np.int64(offset)), "float32")

    def _prepare(self, lr) -> None:
        pass

    def _update(self, g, var, lr) -> None:
        """One variable's update; `g` is a Tensor or, for a gather's gradient, an IndexedSlices."""
        raise NotImplementedError


def _clip_by_norm(g, clipnorm):
    l2sum = _sum_of_squares(g)
    g = densify(g)
    positive = api.greater(l2sum, 0)
    norm = api.where(positive, api.sqrt(api.where(positive, l2sum, api.ones_like(l2sum))), l2sum)
    c = np.asarray(clipnorm, g.dtype.np)
    return api.divide(api.multiply(g, c), api.maximum(norm, c))


class SGD(Optimizer):
    def __init__(self, learning_rate=0.01, momentum: float = 0.0, nesterov: bool = False, **kw):
        super().__init__(learning_rate, **kw)
        if not 0 <= momentum <= 1:
            raise ValueError("`momentum` must be a float between [0, 1].")
        self.momentum, self.nesterov = float(momentum), nesterov

    def _create_slots(self, var) -> None:
        if self.momentum:
            self._slot(var, "momentum")

    def _update(self, g, var, lr) -> None:
        g = densify(g)
        if not self.momentum:
            var.assign_sub(api.multiply(g, lr))
            return
        m = self._slot(var, "momentum")
        mom = _c(self.momentum, var)
        m.assign(api.subtract(api.multiply(m, mom), api.multiply(g, lr)))
        step = api.subtract(api.multiply(m, mom), api.multiply(g, lr)) if self.nesterov else m
        var.assign_add(step)


class Adam(Optimizer):
    def __init__(self, learning_rate=0.001, beta_1: float = 0.9, beta_2: float = 0.999, epsilon: float = 1e-7,
                 amsgrad: bool = False, **kw):
        super().__init__(learning_rate, **kw)
        self.beta_1, self.beta_2, self.epsilon, self.amsgrad = float(beta_1), float(beta_2), float(epsilon), amsgrad

    def _create_slots(self, var) -> None:
        self._slot(var, "momentum")
        self._slot(var, "velocity")
        if self.amsgrad:
            self._slot(var, "velocity_hat")

    def _prepare(self, lr) -> None:
        t = self._step()
        b1 = api.pow(np.float32(self.beta_1), t)
        b2 = api.pow(np.float32(self.beta_2), t)
        self._alpha = api.divide(api.multiply(lr, api.sqrt(api.subtract(1.0, b2))), api.subtract(1.0, b1))

    def _update(self, g, var, lr) -> None:
        m, v = self._slot(var, "momentum"), self._slot(var, "velocity")
        g, g2 = densify(g), _squared(g)
        m.assign_add(api.multiply(api.subtract(g, m), _c(1 - self.beta_1, var)))
        v.assign_add(api.multiply(api.subtract(g2, v), _c(1 - self.beta_2, var)))
        denom_v = v
        if self.amsgrad:
            vhat = self._slot(var, "velocity_hat")
            vhat.assign(api.maximum(vhat, v))
            denom_v = vhat
        alpha = api.cast(self._alpha, var.dtype)
        var.assign_sub(api.divide(api.multiply(m, alpha), api.add(api.sqrt(denom_v), _c(self.epsilon, var))))


class AdamW(Adam):
    def __init__(self, learning_rate=0.001, weight_decay=0.004, beta_1=0.9, beta_2=0.999, epsilon=1e-7,
                 amsgrad=False, **kw):
        if weight_decay is None:
            raise ValueError("Argument `weight_decay` must be a float. Received: weight_decay=None")
        super().__init__(learning_rate, beta_1, beta_2, epsilon, amsgrad, weight_decay=weight_decay, **kw)


class RMSprop(Optimizer):
    def __init__(self, learning_rate=0.001, rho=0.9, momentum=0.0, epsilon=1e-7, centered=False, **kw):
        super().__init__(learning_rate, **kw)
        self.rho, self.momentum, self.epsilon, self.centered = float(rho), float(momentum), float(epsilon), centered

    def _create_slots(self, var) -> None:
        self._slot(var, "velocity")
        if self.momentum > 0:
            self._slot(var, "momentum")
        if self.centered:
            self._slot(var, "average_gradient")

    def _update(self, g, var, lr) -> None:
        rho = _c(self.rho, var)
        vel = self._slot(var, "velocity")
        g, g2 = densify(g), _squared(g)
        vel.assign(api.add(api.multiply(rho, vel), api.multiply(_c(1 - self.rho, var), g2)))
        if self.centered:
            avg = self._slot(var, "average_gradient")
            avg.assign(api.add(api.multiply(rho, avg), api.multiply(_c(1 - self.rho, var), g)))
            denom = api.add(api.subtract(vel, api.square(avg)), _c(self.epsilon, var))
        else:
            denom = api.add(vel, _c(self.epsilon, var))
        increment = api.divide(api.multiply(lr, g), api.sqrt(denom))
        if self.momentum > 0:
            mom = self._slot(var, "momentum")
            mom.assign(api.add(api.multiply(_c(self.momentum, var), mom), increment))
            var.assign_sub(mom)
        else:
            var.assign_sub(increment)


class Adagrad(Optimizer):
    def __init__(self, learning_rate=0.001, initial_accumulator_value=0.1, epsilon=1e-7, **kw):
        super().__init__(learning_rate, **kw)
        self.initial_accumulator_value, self.epsilon = float(initial_accumulator_value), float(epsilon)

    def _create_slots(self, var) -> None:
        self._slot(var, "accumulator", self.initial_accumulator_value)

    def _update(self, g, var, lr) -> None:
        acc = self._slot(var, "accumulator", self.initial_accumulator_value)
        g, g2 = densify(g), _squared(g)
        acc.assign_add(g2)
        var.assign_sub(api.divide(api.multiply(lr, g), api.sqrt(api.add(acc, _c(self.epsilon, var)))))


class Adadelta(Optimizer):
    def __init__(self, learning_rate=0.001, rho=0.95, epsilon=1e-7, **kw):
        super().__init__(learning_rate, **kw)
        self.rho, self.epsilon = float(rho), float(epsilon)

    def _create_slots(self, var) -> None:
        self._slot(var, "accumulated_grad")
        self._slot(var, "accumulated_delta_var")

    def _update(self, g, var, lr) -> None:
        rho, one_minus, eps = _c(self.rho, var), _c(1 - self.rho, var), _c(self.epsilon, var)
        acc_g, acc_d = self._slot(var, "accumulated_grad"), self._slot(var, "accumulated_delta_var")
        g, g2 = densify(g), _squared(g)
        acc_g.assign(api.add(api.multiply(rho, acc_g), api.multiply(one_minus, g2)))
        scale = api.divide(api.sqrt(api.add(acc_d, eps)), api.sqrt(api.add(acc_g, eps)))
        delta = api.negative(api.multiply(scale, g))
        # Keras squares delta row by row for an IndexedSlices g: scale**2 times the squared rows
        acc_d.assign(api.add(api.multiply(rho, acc_d), api.multiply(one_minus, api.multiply(api.square(scale), g2))))
        var.assign_add(api.multiply(lr, delta))


class Adamax(Optimizer):
    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7, **kw):
        super().__init__(learning_rate, **kw)
        self.beta_1, self.beta_2, self.epsilon = float(beta_1), float(beta_2), float(epsilon)

    def _create_slots(self, var) -> None:
        self._slot(var, "m")
        self._slot(var, "u")

    def _update(self, g, var, lr) -> None:
        m, u = self._slot(var, "m"), self._slot(var, "u")
        b1_power = api.pow(_c(self.beta_1, var), api.cast(self._step(), var.dtype))
        g, g_abs = densify(g), g.abs_rows_to_dense() if isinstance(g, IndexedSlices) else api.abs(g)
        m.assign_add(api.multiply(api.subtract(g, m), _c(1 - self.beta_1, var)))
        u.assign(api.maximum(api.multiply(_c(self.beta_2, var), u), g_abs))
        var.assign_sub(api.divide(api.multiply(lr, m), api.multiply(api.subtract(_c(1, var), b1_power),
                                                                    api.add(u, _c(self.epsilon, var)))))


class Nadam(Optimizer):
    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7, **kw):
        super().__init__(learning_rate, **kw)
        self.beta_1, self.beta_2, self.epsilon = float(beta_1), float(beta_2), float(epsilon)
        with init_scope():
            self._u_product = Variable(np.array(1.0, np.float32), trainable=False, name=f"{self.name}/u_product")

    def _create_slots(self, var) -> None:
        self._slot(var, "momentum")
        self._slot(var, "velocity")

    def _prepare(self, lr) -> None:
        decay_t = api.pow(np.float32(0.96), self._step(1))
        self._u_product.assign(api.multiply(self._u_product, api.multiply(
            np.float32(self.beta_1), api.subtract(1.0, api.multiply(0.5, decay_t)))))

    def _update(self, g, var, lr) -> None:
        local, nxt = api.cast(self._step(1), var.dtype), api.cast(self._step(2), var.dtype)
        b1, b2 = _c(self.beta_1, var), _c(self.beta_2, var)
        u_t = api.multiply(b1, api.subtract(1.0, api.multiply(0.5, api.pow(_c(0.96, var), local))))
        u_t_1 = api.multiply(b1, api.subtract(1.0, api.multiply(0.5, api.pow(_c(0.96, var), nxt))))
        u_product_t = api.cast(self._u_product, var.dtype)
        u_product_t_1 = api.multiply(u_product_t, u_t_1)
        b2_power = api.pow(b2, local)
        m, v = self._slot(var, "momentum"), self._slot(var, "velocity")
        g, g2 = densify(g), _squared(g)
        m.assign_add(api.multiply(api.subtract(g, m), _c(1 - self.beta_1, var)))
        v.assign_add(api.multiply(api.subtract(g2, v), _c(1 - self.beta_2, var)))
        m_hat = api.add(api.divide(api.multiply(u_t_1, m), api.subtract(1.0, u_product_t_1)),
                        api.divide(api.multiply(api.subtract(1.0, u_t), g), api.subtract(1.0, u_product_t)))
        v_hat = api.divide(v, api.subtract(1.0, b2_power))
        var.assign_sub(api.divide(api.multiply(m_hat, lr), api.add(api.sqrt(v_hat), _c(self.epsilon, var))))


class Lion(Optimizer):
    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.99, **kw):
        super().__init__(learning_rate, **kw)
        if beta_1 <= 0 or beta_1 > 1:
            raise ValueError(f"Argument `beta_1` must be in the [0, 1] range. Otherwise, the optimizer degenerates "
                             f"to SignSGD. Received: beta_1={beta_1}.")
        self.beta_1, self.beta_2 = float(beta_1), float(beta_2)

    def _create_slots(self, var) -> None:
        self._slot(var, "momentum")

    def _update(self, g, var, lr) -> None:
        m = self._slot(var, "momentum")
        b1, b2 = _c(self.beta_1, var), _c(self.beta_2, var)
        var.assign_sub(api.multiply(lr, api.sign(api.add(api.multiply(m, b1),
                                                         api.multiply(g, _c(1 - self.beta_1, var))))))
        m.assign(api.add(api.multiply(m, b2), api.multiply(g, _c(1 - self.beta_2, var))))


_BY_NAME = {c.__name__.lower(): c for c in (SGD, Adam, AdamW, RMSprop, Adagrad, Adadelta, Adamax, Nadam, Lion)}


def get(identifier) -> Optimizer:
    if isinstance(identifier, Optimizer):
        return identifier
    if isinstance(identifier, str):
        cls = _BY_NAME.get(identifier.lower())
        if cls is None:
            raise ValueError(f"Could not interpret optimizer identifier: {identifier}")
        return cls()
    if isinstance(identifier, type) and issubclass(identifier, Optimizer):
        return identifier()
    raise ValueError(f"Could not interpret optimizer identifier: {identifier}")
