"""Stateful `tf.random`: `set_seed`, `uniform`, `normal`, `truncated_normal`, and `tf.nn.dropout`.

TF's seed rules (random_seed.get_seed): with a global seed, an op without its own seed takes the next
value of `random.Random(global_seed).randint(0, 2**31 - 1)` eagerly, or a per-graph counter (0, 1, ...)
inside a tf.function; an op seed alone pairs with DEFAULT_GRAPH_SEED = 87654321; (0, 0) becomes
(0, 2**31 - 1); no seed at all draws fresh random seeds. `set_seed` also clears the kernel cache.

TF's CPU kernels (RandomUniform, RandomStandardNormal, TruncatedNormal, RandomUniformInt) own a Philox
generator built from the two seeds: key = seed, counter = (0, seed2), and every call of the same kernel
instance reserves `256 * num_elements` 128-bit blocks (ReserveRandomOutputs(n, 256)). The numbers are
drawn exactly as the stateless V2 kernels draw them from (key, counter). We reproduce that:

* eagerly, kernel instances are TF's eager kernel cache, keyed by (op, dtype, seed, seed2): the
  values match TF 2.21 eager bit for bit (first and later calls, op seed or global seed);
* inside a tf.function, each random op of a trace owns an int64 Variable (its counter offset, created
  in init_scope) read and advanced on every call, so successive calls differ as TF's graph kernels do and
  the per-graph op seeds 0, 1, ... are TF's: tf.function without jit_compile matches TF too;
* under jit_compile=True TF's XLA kernels draw a *different* stream (tf2xla's own RNG state); we keep
  the tf.function stream there, so jit results are reproducible but not TF's XLA numbers.

Without any seed TF is nondeterministic; we draw the two seeds from the OS entropy pool, as TF's New64.
"""

from __future__ import annotations

import random as _pyrandom

import numpy as np

from minixla.frontend import dtypes
from minixla.frontend.api import core as api
from minixla.frontend.execute import execute
from minixla.frontend.graph import current_graph, init_scope

_MAXINT32 = 2 ** 31 - 1
DEFAULT_GRAPH_SEED = 87654321
_STATE = {"seed": None, "rng": None}
_KERNELS: dict = {}  # eager kernel cache: (op, dtype, seed, seed2) -> counter offset of the next call
_FLOATS = (dtypes.float16, dtypes.bfloat16, dtypes.float32, dtypes.float64)


def set_seed(seed):
    if seed is not None:
        try:
            hash(seed)
        except TypeError:
            seed = int(np.array(seed))
        seed = int(seed)
    _STATE["seed"] = seed
    _STATE["rng"] = _pyrandom.Random(seed)
    _KERNELS.clear()


def get_seed(op_seed):
    """TF's `tf.compat.v1.random.get_seed`."""
    gs = _STATE["seed"]
    if gs is not None:
        if op_seed is None:
            g = current_graph()
            if g is None:
                op_seed = _STATE["rng"].randint(0, _MAXINT32)
            else:
                root = g.root()
                op_seed = getattr(root, "_p1_op_seed", 0)
                root._p1_op_seed = op_seed + 1
        seeds = gs % _MAXINT32, int(op_seed) % _MAXINT32
    elif op_seed is not None:
        seeds = DEFAULT_GRAPH_SEED, int(op_seed) % _MAXINT32
    else:
        seeds = None, None
    return (0, _MAXINT32) if seeds == (0, 0) else seeds


def _key_counter(op: str, dt, shape, seed):
    s1, s2 = get_seed(seed)
    if s1 is None:
        s1, s2 = (int(v) for v in np.random.default_rng().integers(1, 2 ** 63, 2))
    n = int(np.prod(shape, dtype=np.int64))
    key = api.constant(np.array([s1], np.uint64))
    if current_graph() is None:
        k = (op, dt.name, s1, s2)
        off = _KERNELS.get(k, 0)
        _KERNELS[k] = (off + 256 * n) % 2 ** 64
        return key, api.constant(np.array([off, s2], np.uint64))
    with init_scope():
        var = api_variable(np.int64(0))
    off = var.read_value()
    var.assign_add(np.int64(256 * n))
    counter = api.concat([api.cast(api.reshape(off, [1]), dtypes.uint64), api.constant(np.array([s2], np.uint64))],
                         0)
    return key, counter


def api_variable(value):
    from minixla.frontend.variables import Variable
    return Variable(value, trainable=False)


def _dims(shape):
    if hasattr(shape, "numpy"):
        shape = shape.numpy()
    return [int(d) for d in (np.asarray(shape).reshape(-1))]


def _draw(op: str, shape, dt, seed, extra=()):
    dims = _dims(shape)
    key, counter = _key_counter(op, dt, dims, seed)
    return execute(op, [np.asarray(dims, np.int32), key, counter, np.asarray(1, np.int32), *extra], {"dtype": dt.np})


def uniform(shape, minval=0, maxval=None, dtype=dtypes.float32, seed=None, name=None):
    dt = dtypes.as_dtype(dtype)
    if dt.is_integer:
        if maxval is None:
            raise ValueError(f"Must specify maxval for integer dtype {dt!r}")
        if dt not in (dtypes.int32, dtypes.int64):
            raise ValueError(f"Invalid dtype {dt!r}: RandomUniformInt supports int32 and int64")
        lo, hi = api.cast(minval, dt), api.cast(maxval, dt)
        return _draw("StatelessRandomUniformIntV2", shape, dt, seed, (lo, hi))
    if dt not in _FLOATS:
        raise ValueError(f"Invalid dtype {dt!r}")
    lo = api.cast(minval, dt)
    hi = api.cast(1 if maxval is None else maxval, dt)
    rnd = _draw("StatelessRandomUniformV2", shape, dt, seed)
    return api.add(api.multiply(rnd, api.subtract(hi, lo)), lo)


def _scaled_normal(op_name, shape, mean, stddev, dtype, seed):
    """mean + stddev * `op_name` draws (TF's normal and truncated_normal)."""
    dt = dtypes.as_dtype(dtype)
    if dt not in _FLOATS:
        raise ValueError(f"Invalid dtype {dt!r}")
    rnd = _draw(op_name, shape, dt, seed)
    return api.add(api.multiply(rnd, api.cast(stddev, dt)), api.cast(mean, dt))


def normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None, name=None):
    return _scaled_normal("StatelessRandomNormalV2", shape, mean, stddev, dtype, seed)


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None, name=None):
    return _scaled_normal("StatelessTruncatedNormalV2", shape, mean, stddev, dtype, seed)


def dropout(x, rate, noise_shape=None, seed=None, name=None):
    """TF's `nn.dropout` (v2): `_dropout` with `random.uniform(seed=seed)` as the sampler."""
    from minixla.frontend.api.nn_conv_image import dropout_input

    x, is_rate_number = dropout_input(x, rate)
    if is_rate_number and rate == 0:
        get_seed(seed)  # TF's dummy_rng_step
        return x
    if is_rate_number:
        ret = api.multiply(x, api.cast(1 / (1 - rate), x.dtype))
        rate_t = api.cast(rate, x.dtype)
    else:
        rate_t = api.cast(rate, x.dtype)
        ret = api.multiply(x, api.divide(api.cast(1, x.dtype), api.subtract(api.cast(1, x.dtype), rate_t)))
    shape = x.shape.as_list() if noise_shape is None else [x.shape[i] if d is None else int(d)
                                                           for i, d in enumerate(noise_shape)]
    rnd = uniform(shape, dtype=x.dtype, seed=seed)
    return api.where(api.greater_equal(rnd, rate_t), ret, api.zeros_like(ret))


# -- tf.random.Generator ---------------------------------------------------------------------

_MASK64 = (1 << 64) - 1


def _state_from_seed(seed, size=3):
    """TF's `_make_1d_state`: an int seed as little-endian 64-bit words (zero-padded), or a vector."""
    if isinstance(seed, (int, np.integer)):
        seed = int(seed)
        words = []
        for _ in range(size):
            words.append(seed & _MASK64)
            seed >>= 64
    else:
        words = [int(v) for v in np.asarray(seed).reshape(-1)][:size]
        words = [0] * (size - len(words)) + words
    return np.array([w - (1 << 64) if w >= 1 << 63 else w for w in words], np.int64)


class Generator:
    """`tf.random.Generator` (Philox): an int64[3] state Variable (counter_lo, counter_hi, key).
    Each draw reads the state and advances the counter by 256 * num_elements (TF's RngReadAndSkip), then
    runs the stateless V2 kernel on (key, counter): the numbers are TF's, eagerly and in tf.function."""

    def __init__(self, copy_from=None, state=None, alg=None):
        if copy_from is not None:
            state, alg = copy_from.state.numpy(), copy_from.algorithm
        if state is None:
            raise ValueError("When `copy_from` is None, argument `state` must not be None.")
        self._alg = _alg_int(alg)
        with init_scope():
            self._state_var = api_variable(np.asarray(state, np.int64).reshape(3))

    @classmethod
    def from_seed(cls, seed, alg=None):
        return cls(state=_state_from_seed(seed), alg=alg)

    @classmethod
    def from_non_deterministic_state(cls, alg=None):
        return cls(state=np.random.default_rng().integers(-2 ** 63, 2 ** 63 - 1, 3, dtype=np.int64), alg=alg)

    @property
    def state(self):
        return self._state_var

    @property
    def algorithm(self):
        return self._alg

    def reset_from_seed(self, seed):
        self._state_var.assign(_state_from_seed(seed))

    def skip(self, delta):
        """RngReadAndSkip: the old state; the 128-bit counter advances by 256 * delta."""
        old = self._state_var.read_value()
        u = api.cast(old, dtypes.uint64)
        lo, hi, key = (api.slice(u, [i], [1]) for i in range(3))
        d = api.cast(delta, dtypes.uint64) if not isinstance(delta, (int, np.integer)) else \
            api.constant(np.array([(256 * int(delta)) & _MASK64], np.uint64))
        if not isinstance(delta, (int, np.integer)):
            d = api.multiply(api.reshape(d, [1]), api.constant(np.array([256], np.uint64)))
        new_lo = api.add(lo, d)
        new_hi = api.add(hi, api.cast(api.less(new_lo, lo), dtypes.uint64))
        self._state_var.assign(api.cast(api.concat([new_lo, new_hi, key], 0), dtypes.int64))
        return old

    def _key_counter(self, dims):
        u = api.cast(self.skip(int(np.prod(dims, dtype=np.int64))), dtypes.uint64)
        return api.slice(u, [2], [1]), api.slice(u, [0], [2])

    def _draw(self, op, shape, dt, extra=()):
        dims = _dims(shape)
        key, counter = self._key_counter(dims)
        return execute(op, [np.asarray(dims, np.int32), key, counter, np.asarray(self._alg, np.int32), *extra],
                       {"dtype": dt.np})

    def uniform(self, shape, minval=0, maxval=None, dtype=dtypes.float32, name=None):
        dt = dtypes.as_dtype(dtype)
        if dt.is_integer:
            if (minval is None) != (maxval is None):
                raise ValueError(f"For integer dtype {dt}, minval and maxval must be both `None` or both non-`None`; "
                                 f"got minval={minval} and maxval={maxval}")
        elif maxval is None:
            maxval = 1
        if dt.is_integer and minval is None:
            return self._draw("StatelessRandomUniformFullIntV2", shape, dt)
        lo, hi = api.cast(minval, dt), api.cast(maxval, dt)
        if dt.is_integer:
            return self._draw("StatelessRandomUniformIntV2", shape, dt, (lo, hi))
        rnd = self._draw("StatelessRandomUniformV2", shape, dt)
        return api.add(api.multiply(rnd, api.subtract(hi, lo)), lo)

    def uniform_full_int(self, shape, dtype=dtypes.uint64, name=None):
        return self._draw("StatelessRandomUniformFullIntV2", shape, dtypes.as_dtype(dtype))

    def normal(self, shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None):
        dt = dtypes.as_dtype(dtype)
        rnd = self._draw("StatelessRandomNormalV2", shape, dt)
        return api.add(api.multiply(rnd, api.cast(stddev, dt)), api.cast(mean, dt))

    def truncated_normal(self, shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None):
        dt = dtypes.as_dtype(dtype)
        rnd = self._draw("StatelessTruncatedNormalV2", shape, dt)
        return api.add(api.multiply(rnd, api.cast(stddev, dt)), api.cast(mean, dt))


def _alg_int(alg) -> int:
    from minixla.frontend.api.random_stateless import _alg
    return 1 if alg is None else _alg(alg)


def create_rng_state(seed, alg):
    _alg_int(alg)
    return api.constant(_state_from_seed(seed))


def install(tf) -> None:
    tf.random.set_seed = set_seed
    tf.random.uniform = uniform
    tf.random.normal = normal
    tf.random.truncated_normal = truncated_normal
    tf.nn.dropout = dropout
    tf.random.Generator = Generator
    tf.random.create_rng_state = create_rng_state
