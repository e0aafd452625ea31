"""tf.nn.RNNCellDeviceWrapper, RNNCellDropoutWrapper and RNNCellResidualWrapper: TF's (legacy
Keras) cell wrappers around any RNN cell -- an object called as cell(inputs, state) that returns
(output, new_state), with state_size and output_size. Each wrapper changes only what goes in and
comes out of the wrapped call, so it works eagerly, in tf.function and under jit."""

from __future__ import annotations

import numbers

tf = None  # the public `tf` module, set by install()


def _map(fn, *structures):
    first = structures[0]
    if isinstance(first, (list, tuple)):
        return type(first)(_map(fn, *parts) for parts in zip(*structures)) if not hasattr(first, "_fields") \
            else type(first)(*(_map(fn, *parts) for parts in zip(*structures)))
    return fn(*structures)


class _RNNCellWrapper:
    """The shared part: delegation of sizes, variables and the initial state to the wrapped cell."""

    def __init__(self, cell, name=None, **kwargs):
        if not callable(cell) and not hasattr(cell, "call"):
            raise TypeError(f"The parameter cell is not a RNNCell: {cell!r}")
        self.cell = cell
        self.name = name or type(self).__name__.lower()
        self.built = True

    state_size = property(lambda self: self.cell.state_size)
    output_size = property(lambda self: self.cell.output_size)
    trainable_variables = property(lambda self: list(getattr(self.cell, "trainable_variables", [])))
    variables = property(lambda self: list(getattr(self.cell, "variables", [])))
    trainable_weights = trainable_variables
    weights = variables

    def _cell_call(self, inputs, state, **kwargs):
        return self.cell(inputs, state, **kwargs)

    def __call__(self, inputs, state, **kwargs):
        return self.call(inputs, state, **kwargs)

    def call(self, inputs, state, **kwargs):
        return self._call_wrapped_cell(inputs, state, self._cell_call, **kwargs)

    def zero_state(self, batch_size, dtype):
        def zeros(size):
            dims = [size] if isinstance(size, numbers.Integral) else list(size)
            return tf.zeros([batch_size] + dims, dtype)

        size = self.state_size
        return zeros(size) if isinstance(size, numbers.Integral) else _map(zeros, list(size))

    def get_initial_state(self, inputs=None, batch_size=None, dtype=None):
        if hasattr(self.cell, "get_initial_state"):
            return self.cell.get_initial_state(inputs=inputs, batch_size=batch_size, dtype=dtype)
        if inputs is not None:
            inputs = tf.convert_to_tensor(inputs)
            batch_size, dtype = inputs.shape[0], inputs.dtype
        return self.zero_state(batch_size, dtype)

    def get_config(self):
        return {"name": self.name}


class RNNCellResidualWrapper(_RNNCellWrapper):
    """output = residual_fn(inputs, cell output), by default inputs + output."""

    def __init__(self, cell, residual_fn=None, **kwargs):
        super().__init__(cell, **kwargs)
        self._residual_fn = residual_fn

    def _call_wrapped_cell(self, inputs, state, cell_call_fn, **kwargs):
        outputs, new_state = cell_call_fn(inputs, state, **kwargs)
        if self._residual_fn is not None:
            return self._residual_fn(inputs, outputs), new_state
        return _map(lambda i, o: i + o, inputs, outputs), new_state


class RNNCellDeviceWrapper(_RNNCellWrapper):
    """The cell's call (and its zero state) on `device`."""

    def __init__(self, cell, device, **kwargs):
        super().__init__(cell, **kwargs)
        self._device = device

    def zero_state(self, batch_size, dtype):
        with tf.device(self._device):
            return super().zero_state(batch_size, dtype)

    def _call_wrapped_cell(self, inputs, state, cell_call_fn, **kwargs):
        with tf.device(self._device):
            return cell_call_fn(inputs, state, **kwargs)


class RNNCellDropoutWrapper(_RNNCellWrapper):
    """Dropout (always on, as TF's legacy wrapper) on the inputs, outputs and new states, each kept
    with its own probability; a probability of exactly 1.0 adds nothing."""

    def __init__(self, cell, input_keep_prob=1.0, output_keep_prob=1.0, state_keep_prob=1.0,
                 variational_recurrent=False, input_size=None, dtype=None, seed=None,
                 dropout_state_filter_visitor=None, **kwargs):
        super().__init__(cell, **kwargs)
        if variational_recurrent:
            raise NotImplementedError("RNNCellDropoutWrapper(variational_recurrent=True) is not implemented in "
                                      "minixla")
        for prob, attr in ((input_keep_prob, "input_keep_prob"), (state_keep_prob, "state_keep_prob"),
                           (output_keep_prob, "output_keep_prob")):
            if isinstance(prob, numbers.Real) and not 0 < prob <= 1:
                raise ValueError(f"Parameter {attr} must be between 0 and 1: {prob}")
        self._input_keep_prob, self._output_keep_prob = input_keep_prob, output_keep_prob
        self._state_keep_prob = state_keep_prob
        self._seed = seed
        self._state_filter = dropout_state_filter_visitor or (lambda s: True)

    def _dropout(self, values, keep_prob):
        def drop(v):
            return tf.nn.dropout(v, rate=1 - keep_prob, seed=self._seed)

        return _map(drop, values)

    def _call_wrapped_cell(self, inputs, state, cell_call_fn, **kwargs):
        def active(p):
            return not (isinstance(p, numbers.Real) and p == 1)

        if active(self._input_keep_prob):
            inputs = self._dropout(inputs, self._input_keep_prob)
        output, new_state = cell_call_fn(inputs, state, **kwargs)
        if active(self._state_keep_prob):
            new_state = _map(lambda s: self._dropout(s, self._state_keep_prob) if self._state_filter(s) else s,
                             new_state)
        if active(self._output_keep_prob):
            output = self._dropout(output, self._output_keep_prob)
        return output, new_state


def install(tf_module) -> None:
    global tf
    tf = tf_module
    for cls in (RNNCellDeviceWrapper, RNNCellDropoutWrapper, RNNCellResidualWrapper):
        setattr(tf_module.nn, cls.__name__, cls)
