"""Recurrent layers: SimpleRNN, LSTM, GRU (Keras 3 gate order and bias layout) and Bidirectional.

The whole sequence is one `tf.scan` over time (one hlo while loop when
compiled); gradients flow through the scan's VJP. Inputs are (batch, time,
features).
"""

from __future__ import annotations

import copy

import numpy as np
from minixla.frontend.api import core as api
from minixla.frontend.api.control_flow import scan
from minixla.frontend.keras import activations, initializers
from minixla.frontend.keras import random as krandom
from minixla.frontend.keras.layers.base import Layer, _dims


class _RNN(Layer):
    gates = 1

    def __init__(self, units: int, activation="tanh", recurrent_activation="sigmoid", use_bias: bool = True,
                 kernel_initializer="glorot_uniform", recurrent_initializer="orthogonal", bias_initializer="zeros",
                 kernel_regularizer=None, recurrent_regularizer=None, bias_regularizer=None,
                 return_sequences: bool = False, return_state: bool = False, go_backwards: bool = False,
                 stateful: bool = False, unroll: bool = False, dropout=0.0, recurrent_dropout=0.0, **kw):
        seed = kw.pop("seed", None)
        for k in ("activity_regularizer", "kernel_constraint", "recurrent_constraint", "bias_constraint",
                  "unit_forget_bias", "reset_after", "use_cudnn", "time_major", "zero_output_for_mask"):
            kw.pop(k, None)
        super().__init__(**kw)
        if units <= 0:
            raise ValueError(f"Received an invalid value for argument `units`, expected a positive integer, got "
                             f"{units}.")
        if stateful:
            raise NotImplementedError(f"{type(self).__name__}: stateful=True is not supported")
        for what, rate in (("dropout", dropout), ("recurrent_dropout", recurrent_dropout)):
            if not 0 <= rate < 1:
                raise ValueError(f"Invalid value received for argument `{what}`. Expected a float value between 0 "
                                 f"and 1. Received: {what}={rate}")
        self.dropout, self.recurrent_dropout = float(dropout), float(recurrent_dropout)
        self.seed_generator = krandom.SeedGenerator(seed, name=f"{self.name}/seed_generator") \
            if dropout or recurrent_dropout else None
        self._rec_mask = None
        self.units = int(units)
        self.activation = activations.get(activation)
        self.recurrent_activation = activations.get(recurrent_activation)
        self.use_bias = use_bias
        self.inits = (kernel_initializer, recurrent_initializer, bias_initializer)
        self.regs = (kernel_regularizer, recurrent_regularizer, bias_regularizer)
        self.return_sequences, self.return_state, self.go_backwards = return_sequences, return_state, go_backwards

    def _check_input(self, x) -> None:
        if isinstance(x, (list, tuple)):
            x = x[0]
        shape = _dims(x)
        if len(shape) != 3:
            raise ValueError(f'Input 0 of layer "{self.name}" is incompatible with the layer: expected ndim=3, '
                             f"found ndim={len(shape)}. Full shape received: {tuple(shape)}")

    def _bias_shape(self):
        return (self.gates * self.units,)

    def build(self, input_shape) -> None:
        if isinstance(input_shape, list):
            input_shape = input_shape[0]
        n = self.gates * self.units
        self.kernel = self.add_weight((input_shape[-1], n), self.inits[0], regularizer=self.regs[0], name="kernel")
        self.recurrent_kernel = self.add_weight((self.units, n), self.inits[1], regularizer=self.regs[1],
                                                name="recurrent_kernel")
        self.bias = (self.add_weight(self._bias_shape(), self._bias_init(), regularizer=self.regs[2], name="bias")
                     if self.use_bias else None)

    def _bias_init(self):
        return self.inits[2]

    def _initial_states(self, x):
        zeros = api.tile(api.zeros_like(x[:, 0, :1]), [1, self.units])  # (batch, units), batch maybe unknown
        return [zeros] * self._n_states()

    def _n_states(self) -> int:
        return 1

    def call(self, inputs, initial_state=None, training=None, mask=None):
        x = inputs
        states = list(initial_state) if initial_state is not None else self._initial_states(x)
        if training and self.dropout:  # one mask per sequence, the same at every step (Keras')
            x = api.multiply(x, api.expand_dims(self._mask_like(x[:, 0, :], self.dropout), 1))
        self._rec_mask = (self._mask_like(states[0], self.recurrent_dropout)
                          if training and self.recurrent_dropout else None)
        xs = api.transpose(x, [1, 0, 2])  # time major
        if self.go_backwards:
            xs = api.reverse(xs, [0])
        projected = self._project_inputs(xs)
        if mask is None:
            outs = scan(lambda acc, xt: self.step(xt, acc), projected, initializer=tuple(states))
        else:  # a masked step keeps the previous state (and so repeats the previous output)
            keep = api.transpose(api.cast(mask, x.dtype), [1, 0])
            if self.go_backwards:
                keep = api.reverse(keep, [0])

            def masked_step(acc, elems):
                zx, m = elems
                m = api.expand_dims(m, -1)
                return tuple(api.add(api.multiply(m, new), api.multiply(api.subtract(1.0, m), old))
                             for new, old in zip(self.step(zx, acc), acc))

            outs = scan(masked_step, (projected, keep), initializer=tuple(states))
        hs = outs[0]
        final = [o[-1] for o in outs]
        y = api.transpose(hs, [1, 0, 2]) if self.return_sequences else final[0]
        if self.return_state:
            return [y] + final
        return y

    def compute_mask(self, inputs, mask=None):
        return mask if self.return_sequences and not self.return_state else None

    def _mask_like(self, t, rate):
        return krandom.dropout(api.ones_like(t), rate, self.seed_generator)

    def _rec(self, h):
        """The state as the recurrent kernel sees it: with the recurrent-dropout mask when training."""
        return h if self._rec_mask is None else api.multiply(h, self._rec_mask)

    def _project_inputs(self, xs):
        """x @ kernel (+ bias) for every time step at once, outside the loop."""
        t, b, f = _dims(xs)
        z = api.matmul(api.reshape(xs, [-1, f]), self.kernel)
        if self.bias is not None and len(self.bias.shape.as_list()) == 1:
            z = api.add(z, self.bias)
        return api.reshape(z, [t, -1 if b is None else b, self.gates * self.units])


class SimpleRNN(_RNN):
    def __init__(self, units, activation="tanh", **kw):
        super().__init__(units, activation=activation, **kw)

    def step(self, zx, states):
        h = self.activation(api.add(zx, api.matmul(self._rec(states[0]), self.recurrent_kernel)))
        return (h,)


class LSTM(_RNN):
    gates = 4

    def __init__(self, units, unit_forget_bias: bool = True, **kw):
        super().__init__(units, **kw)
        self.unit_forget_bias = unit_forget_bias

    def _n_states(self) -> int:
        return 2

    def _bias_init(self):
        if not self.unit_forget_bias:
            return self.inits[2]
        base = initializers.get(self.inits[2])
        u = self.units

        def init(shape, dtype=None):
            return np.concatenate([base((u,), dtype), np.ones((u,), dtype or "float32"), base((2 * u,), dtype)])

        return init

    def step(self, zx, states):
        h, c = states
        z = api.add(zx, api.matmul(self._rec(h), self.recurrent_kernel))
        zi, zf, zc, zo = api.split(z, 4, axis=-1)
        i, f = self.recurrent_activation(zi), self.recurrent_activation(zf)
        c = api.add(api.multiply(f, c), api.multiply(i, self.activation(zc)))
        o = self.recurrent_activation(zo)
        return (api.multiply(o, self.activation(c)), c)


class GRU(_RNN):
    gates = 3

    def __init__(self, units, reset_after: bool = True, **kw):
        super().__init__(units, **kw)
        self.reset_after = reset_after

    def _bias_shape(self):
        return (2, 3 * self.units) if self.reset_after else (3 * self.units,)

    def _project_inputs(self, xs):
        z = super()._project_inputs(xs)
        if self.bias is not None and self.reset_after:
            z = api.add(z, self.bias[0])
        return z

    def step(self, zx, states):
        h = states[0]
        u = self.units
        x_z, x_r, x_h = api.split(zx, 3, axis=-1)
        if self.reset_after:
            inner = api.matmul(self._rec(h), self.recurrent_kernel)
            if self.bias is not None:
                inner = api.add(inner, self.bias[1])
            r_z, r_r, r_h = api.split(inner, 3, axis=-1)
            z = self.recurrent_activation(api.add(x_z, r_z))
            r = self.recurrent_activation(api.add(x_r, r_r))
            hh = self.activation(api.add(x_h, api.multiply(r, r_h)))
        else:
            rk = self.recurrent_kernel
            hd = self._rec(h)
            z = self.recurrent_activation(api.add(x_z, api.matmul(hd, rk[:, :u])))
            r = self.recurrent_activation(api.add(x_r, api.matmul(hd, rk[:, u:2 * u])))
            hh = self.activation(api.add(x_h, api.matmul(api.multiply(r, hd), rk[:, 2 * u:])))
        return (api.add(api.multiply(z, h), api.multiply(api.subtract(1.0, z), hh)),)


class Bidirectional(Layer):
    def __init__(self, layer, merge_mode="concat", weights=None, backward_layer=None, **kw):
        super().__init__(**kw)
        if not isinstance(layer, _RNN):
            raise ValueError(  # noqa: TRY004 (Keras' type)
                f"Please initialize `Bidirectional` layer with a `keras.layers.RNN` instance. "
                             f"Received: layer={layer}")
        if merge_mode not in ("sum", "mul", "ave", "concat", None):
            raise ValueError(f"Invalid merge mode. Received: {merge_mode}. Merge mode should be one of "
                             '{"sum", "mul", "ave", "concat", None}')
        self.forward_layer = layer
        if backward_layer is None:
            backward_layer = copy.copy(layer)
            object.__setattr__(backward_layer, "_own_weights", [])
            object.__setattr__(backward_layer, "_regularized", [])
            backward_layer.built = False
            backward_layer.name = "backward_" + layer.name
            backward_layer.go_backwards = not layer.go_backwards
        layer.name = "forward_" + layer.name if not layer.name.startswith("forward_") else layer.name
        self.backward_layer = backward_layer
        self.merge_mode = merge_mode
        self.return_sequences = layer.return_sequences

    def compute_mask(self, inputs, mask=None):
        return mask if self.return_sequences and self.merge_mode is not None else None

    def call(self, x, training=None):
        fw = self.forward_layer(x)
        bw = self.backward_layer(x)
        if self.return_sequences:
            bw = api.reverse(bw, [1])
        if self.merge_mode == "concat":
            return api.concat([fw, bw], -1)
        if self.merge_mode == "sum":
            return api.add(fw, bw)
        if self.merge_mode == "mul":
            return api.multiply(fw, bw)
        if self.merge_mode == "ave":
            return api.multiply(api.add(fw, bw), 0.5)
        return [fw, bw]
