"""Small raw ops over existing rules: TF's V1 stateless random ops (a seed instead of key/counter),
the algorithm queries, functional control flow under its other names (StatelessIf, XlaWhile,
PartitionedCall, ...), XLA's identity-like annotations (XlaSharding, XlaSetBound, ...), FakeParam,
NoOp/ControlTrigger, Assert, DeviceIndex and XlaRngBitGenerator.

Ops whose result differs between TF's host kernel and its XLA kernel (Assert raises on the host and is
a no-op in XLA, DeviceIndex finds "CPU" on the host and no device under XLA, FakeParam is uninitialized
memory on the host and zeros in XLA) take the host meaning when their inputs are numpy values (eager and
tf.function without jit) and XLA's when compiled, as `CheckNumerics` does.
"""

from __future__ import annotations

import numpy as np

from minixla.frontend.errors import UnimplementedError, at_user_line
from minixla.frontend.ops import random_ops
from minixla.frontend.ops.conv3d_random_ops import truncated_normal
from minixla.frontend.ops.control_flow_ops import if_, while_
from minixla.frontend.ops.dynamic_slice_ops import case_
from minixla.frontend.ops.registry import GRADIENTS, REQUIRED, op_error, register, register_gradient

_PHILOX = np.int32(random_ops.PHILOX)


def _np(dtype):
    """A dtype attribute (a tf.DType from the raw-op call, or numpy) as numpy's."""
    return np.dtype(getattr(dtype, "as_numpy_dtype", dtype))


# -- V1 stateless random ops: the V2 kernels on StatelessRandomGetKeyCounter(seed) -----------------

def _v1(draw):
    def rule(b, shape, seed, *rest, dtype=np.float32, T=None, Tseed=None):
        key, counter = random_ops.get_key_counter(b, seed)
        return draw(b, shape, key, counter, _PHILOX, *rest, dtype=_np(dtype))
    return rule


def _uniform_int(b, shape, key, counter, alg, minval, maxval, dtype=None):
    return random_ops.uniform_int(b, shape, key, counter, alg, minval, maxval)


_V1 = {"StatelessRandomUniform": (random_ops.uniform, np.float32),
       "StatelessRandomNormal": (random_ops.normal, np.float32),
       "StatelessTruncatedNormal": (truncated_normal, np.float32),
       "StatelessRandomUniformFullInt": (random_ops.uniform_full_int, np.int32)}


def _int32_seed(attrs) -> bool:
    """TF 2.21 registers the V1 ops' XLA kernels for int32 seeds only (jit with int64 seeds: "Detected
    unsupported operations", as in TF); the raw-op wrapper sets Tseed from the seed."""
    return np.dtype(attrs.get("Tseed") or np.int32) == np.int32


for _name, (_draw, _dt) in _V1.items():
    register(_name, ("shape", "seed"), _v1(_draw), attrs={"dtype": _dt, "T": None, "Tseed": None},
             const_inputs=("shape",), typed=(), xla_kernel=_int32_seed)
register("StatelessRandomUniformInt", ("shape", "seed", "minval", "maxval"), _v1(_uniform_int),
         attrs={"dtype": None, "T": None, "Tseed": None}, const_inputs=("shape",), typed=("minval", "maxval"),
         xla_kernel=_int32_seed)


def get_alg(b):
    """The counter-based algorithm the stateless kernels use here: Philox (TF's choice on CPU and GPU)."""
    return b.constant(_PHILOX)


def get_key_counter_alg(b, seed, Tseed=None):
    key, counter = random_ops.get_key_counter(b, seed)
    return key, counter, get_alg(b)


register("StatelessRandomGetAlg", (), get_alg)
register("StatelessRandomGetKeyCounterAlg", ("seed",), get_key_counter_alg, attrs={"Tseed": None}, typed=())

_ALGS = {0: "DEFAULT", 1: "PHILOX", 2: "THREE_FRY"}  # xla::RandomAlgorithm


def rng_bit_generator(b, algorithm, initial_state, shape, dtype=np.uint64, Tshape=None):
    """XlaRngBitGenerator: (new state, bits) of hlo.rng_bit_generator; TF's algorithm ids are XLA's."""
    alg = _ALGS.get(int(np.asarray(algorithm)))
    if alg is None:
        raise op_error("XlaRngBitGenerator", f"Unknown RNG algorithm {int(np.asarray(algorithm))}")
    words = tuple(initial_state.shape)
    if words != (2,) and not (alg != "THREE_FRY" and words == (3,)):
        # XLA's layouts (tests/golden/rng_bit_generator.json): Threefry [key, counter], Philox [key, counter_lo]
        # (the key doubles as counter_hi) or [key, counter_lo, counter_hi]
        raise UnimplementedError(at_user_line(
            f"XlaRngBitGenerator: algorithm {alg} takes a state of 2 words{'' if alg == 'THREE_FRY' else ' or 3'}, "
            f"got state shape {list(words)} [Op:XlaRngBitGenerator]"))
    dims = [int(d) for d in np.asarray(shape).reshape(-1)]
    state, bits = b.rng_bit_generator(initial_state, alg, dims, _np(dtype))
    return state, bits


register("XlaRngBitGenerator", ("algorithm", "initial_state", "shape"), rng_bit_generator,
         attrs={"dtype": np.uint64, "Tshape": None}, const_inputs=("algorithm", "shape"), typed=())


# -- functional control flow under TF's other names -------------------------------------------------

def _if(b, cond, input, then_branch, else_branch, Tcond=None, Tin=None, Tout=None, output_shapes=(), **_):
    return if_(b, cond, input, then_branch, else_branch)


def _while(b, input, cond, body, T=None, output_shapes=(), parallel_iterations=10, **_):
    return while_(b, input, cond, body)


def _case(b, branch_index, input, branches, Tin=None, Tout=None, output_shapes=()):
    return case_(b, branch_index, input, branches)


def partitioned_call(b, args, f, Tin=None, Tout=None, config="", config_proto="", executor_type=""):
    """Call function `f` on `args`: its ops replayed in place (XLA inlines calls too)."""
    from minixla.frontend.ops.control_flow_ops import lookup, replay

    return tuple(replay(b, lookup(f), list(args)))


_IF = {"then_branch": REQUIRED, "else_branch": REQUIRED, "Tcond": None, "Tin": None, "Tout": None}
register("StatelessIf", ("cond", "*input"), _if, attrs={**_IF, "output_shapes": ()}, typed=())
register("XlaIf", ("cond", "*inputs"), _if, attrs=_IF, typed=())
register("StatelessWhile", ("*input",), _while, attrs={"cond": REQUIRED, "body": REQUIRED, "T": None,
                                                        "output_shapes": (), "parallel_iterations": 10}, typed=())
register("XlaWhile", ("*input",), _while, attrs={"cond": REQUIRED, "body": REQUIRED, "T": None}, typed=())
register("StatelessCase", ("branch_index", "*input"), _case,
         attrs={"branches": REQUIRED, "Tin": None, "Tout": None, "output_shapes": ()}, typed=())
_CALL = {"f": REQUIRED, "Tin": None, "Tout": None, "config": "", "config_proto": "", "executor_type": ""}
register("PartitionedCall", ("*args",), partitioned_call, attrs=_CALL, typed=())
register("StatefulPartitionedCall", ("*args",), partitioned_call, attrs=_CALL, typed=(), stateful=True)


# -- no-ops, annotations and host/XLA differences ---------------------------------------------------

def _nothing(b):
    return ()


register("NoOp", (), _nothing, stateful=True)
register("ControlTrigger", (), _nothing, stateful=True)


def _one(x) -> str:
    if np.dtype(x.dtype).kind == "f":
        return f"{x:.{6 if np.dtype(x.dtype).itemsize <= 4 else 15}g}"
    return str(int(x)) if np.dtype(x.dtype).kind in "iub" else str(x)


def summarize(a: np.ndarray, limit: int) -> str:
    """TF's Tensor::SummarizeValue: the first `limit` elements, nested as the shape, "..." if cut."""
    flat, shape = a.reshape(-1), a.shape
    if not shape:
        return "[" + _one(flat[0]) + "]"
    pos = [0]

    def dim(d: int) -> str:
        out = ""
        if pos[0] >= limit:
            return out
        for i in range(shape[d]):
            if d == len(shape) - 1:
                if pos[0] >= limit:
                    return out + ("..." if d else "")
                out += (" " if i else "") + _one(flat[pos[0]])
                pos[0] += 1
            elif pos[0] < limit:
                out += "[" + dim(d + 1) + "]"
        return out

    return "[" + dim(0) + ("..." if flat.size > limit else "") + "]"


def assert_(b, condition, data, summarize_=3):
    """Eagerly (numpy values) raises TF's "assertion failed: [...]"; compiled, a no-op as tf2xla's kernel."""
    if isinstance(condition, np.ndarray) and all(isinstance(d, np.ndarray) for d in data):
        if condition.shape != ():
            raise op_error("Assert", f"In[0] should be a scalar: {list(condition.shape)}")
        if not bool(condition):
            raise op_error("Assert", "assertion failed: " + " ".join(summarize(d, summarize_) for d in data))
    return ()


def _assert_rule(b, condition, data, summarize=3, T=None):
    return assert_(b, condition, data, summarize)


register("Assert", ("condition", "*data"), _assert_rule, attrs={"summarize": 3, "T": None}, typed=(), stateful=True)


def device_index(b, device_names=()):
    """The index of this device's type in `device_names` (the host kernel: "CPU"); tf2xla's kernel
    knows no device and answers len(device_names), the switch's default branch."""
    names = [n.decode() if isinstance(n, bytes) else str(n) for n in device_names]
    eager = type(b).__name__ == "EagerBuilder"
    return b.constant(np.int32(names.index("CPU") if eager and "CPU" in names else len(names)))


register("DeviceIndex", (), device_index, attrs={"device_names": ()}, stateful=True)  # not folded: host != XLA


def fake_param(b, dtype=np.float32, shape=()):
    """A placeholder value for a function argument that is never read: zeros, as XLA's FakeParam (TF's host
    kernel leaves the memory uninitialized)."""
    dims = [int(d) for d in shape]
    if any(d < 0 for d in dims):
        raise op_error("FakeParam", f"FakeParam needs a fully defined shape, got {dims}")
    return b.full(dims, 0, _np(dtype))


register("FakeParam", (), fake_param, attrs={"dtype": np.float32, "shape": ()})


def _identity(b, input, *_, **__):
    return input


register("_EagerConst", ("input",), _identity)

register("XlaSharding", ("input",), _identity, attrs={"sharding": "", "unspecified_dims": ()})
register("XlaSetBound", ("input", "bound"), _identity, typed=("input",))
register("XlaRemoveDynamicDimensionSize", ("input", "dim_index"), _identity, const_inputs=("dim_index",))


def set_dynamic_dimension_size(b, input, dim_index, size):
    """Dimension `dim_index` becomes `size` long: the leading `size` entries (XLA's padded-shape view)."""
    d, n = int(np.asarray(dim_index)), int(np.asarray(size))
    if not 0 <= d < len(input.shape) or not 0 <= n <= input.shape[d]:
        raise op_error("XlaSetDynamicDimensionSize", f"dim_index {d} / size {n} out of range for shape "
                                                     f"{list(input.shape)}")
    return b.slice(input, [0] * len(input.shape), [n if k == d else s for k, s in enumerate(input.shape)])


register("XlaSetDynamicDimensionSize", ("input", "dim_index", "size"), set_dynamic_dimension_size,
         const_inputs=("dim_index", "size"))


# -- stateful random kernels, their state made an input --------------------------------------------
# TF's CPU kernels own a Philox generator keyed by (seed, seed2): key = seed, counter = (offset, seed2),
# the offset advancing per call (frontend/api/random_stateful.py). The raw-op wrapper
# (frontend/api/raw_functional.py) keeps that offset and passes it as the trailing `offset` input; the
# seeds arrive already drawn when both were 0.

def _kc(b, seed, seed2, offset):
    key = b.constant(np.array([seed], np.uint64))
    off = b.reshape(b.bitcast_convert(b.convert(offset, np.int64), np.uint64), [1])
    return key, b.concatenate([off, b.constant(np.array([seed2], np.uint64))], 0)


def _stateful(draw):
    def rule(b, shape, offset, seed=0, seed2=0, dtype=np.float32, T=None):
        key, counter = _kc(b, seed, seed2, offset)
        return draw(b, shape, key, counter, _PHILOX, dtype=_np(dtype))
    return rule


_STATEFUL = {"RandomUniform": random_ops.uniform, "RandomStandardNormal": random_ops.normal,
             "TruncatedNormal": truncated_normal}
for _name, _draw in _STATEFUL.items():
    register(_name, ("shape", "offset"), _stateful(_draw),
             attrs={"seed": 0, "seed2": 0, "dtype": np.float32, "T": None}, const_inputs=("shape",), typed=(),
             stateful=True)


def random_uniform_int(b, shape, minval, maxval, offset, seed=0, seed2=0, Tout=None, T=None):
    key, counter = _kc(b, seed, seed2, offset)
    return random_ops.uniform_int(b, shape, key, counter, _PHILOX, minval, maxval)


register("RandomUniformInt", ("shape", "minval", "maxval", "offset"), random_uniform_int,
         attrs={"seed": 0, "seed2": 0, "Tout": None, "T": None}, const_inputs=("shape",), typed=("minval", "maxval"),
         stateful=True)


def multinomial(b, logits, num_samples, offset, seed=0, seed2=0, output_dtype=np.int64, T=None):
    from minixla.frontend.ops.random_extra_ops import multinomial as draw

    key, counter = _kc(b, seed, seed2, offset)
    return draw(b, logits, num_samples, key, counter, _PHILOX, output_dtype=_np(output_dtype))


register("Multinomial", ("logits", "num_samples", "offset"), multinomial,
         attrs={"seed": 0, "seed2": 0, "output_dtype": np.int64, "T": None}, const_inputs=("num_samples",),
         typed=("logits",), stateful=True)


def random_shuffle(b, value, offset, seed=0, seed2=0, T=None):
    """Fisher-Yates over the leading dimension (RandomShuffle's words), then a row gather."""
    from minixla.frontend.ops.index_ops import gather_v2
    from minixla.frontend.ops.random_extra_ops import shuffle_indices

    if not value.shape:
        raise op_error("RandomShuffle", "Shape must be at least rank 1 but is rank 0")
    n = int(value.shape[0])
    if n <= 1 or int(np.prod(value.shape)) <= 1:
        return value
    key, counter = _kc(b, seed, seed2, offset)
    return gather_v2(b, value, shuffle_indices(b, key, counter, _PHILOX, n), np.int32(0))


register("RandomShuffle", ("value", "offset"), random_shuffle, attrs={"seed": 0, "seed2": 0, "T": None},
         typed=("value",), stateful=True)


# -- DynamicStitch: XLA needs the indices at compile time, so they travel as an attribute ---------------

def _stitch(b, data, indices=(), N=None, T=None):
    from minixla.frontend.ops.scatter_combine_ops import dynamic_stitch

    return dynamic_stitch(b, data, indices)


for _name in ("DynamicStitch", "ParallelDynamicStitch"):
    register(_name, ("*data",), _stitch, attrs={"indices": (), "N": None, "T": None})
    register_gradient(_name)(lambda b, op, grad: GRADIENTS["MinixlaDynamicStitch"](b, op, grad))


# -- Xla* ops taking an XLA computation (a traced func.func, replayed as the region body) -------------

def _dims_list(op, dims, rank):
    out = [int(d) for d in dims]
    if any(not 0 <= d < rank for d in out) or len(set(out)) != len(out):
        raise op_error(op, f"Invalid dimensions_to_reduce {out} for an input of rank {rank}")
    return out


def variadic_reduce(b, operands, dimensions_to_reduce=(), reducer=REQUIRED, N=None, T=None):
    """hlo.reduce whose body is `reducer(accumulators..., values...)`. The inputs and then the init values
    arrive as one list (the tf dialect has one variadic operand group per op)."""
    from minixla.frontend.ops.control_flow_ops import lookup, replay

    op = "XlaVariadicReduce"
    operands = list(operands)
    if len(operands) % 2:
        raise op_error(op, f"{len(operands)} operands: needs as many init values as inputs")
    xs, inits = operands[:len(operands) // 2], operands[len(operands) // 2:]
    f = lookup(reducer)
    dims = _dims_list(op, dimensions_to_reduce, len(xs[0].shape))
    return tuple(b.reduce_multi(xs, inits, dims, lambda bb, accs, vals: replay(bb, f, list(accs) + list(vals))))


def xla_reduce(b, input, init_value, dimensions_to_reduce=(), reducer=REQUIRED, T=None):
    return variadic_reduce(b, [input, init_value], dimensions_to_reduce, reducer)[0]


register("XlaReduce", ("input", "init_value"), xla_reduce,
         attrs={"dimensions_to_reduce": REQUIRED, "reducer": REQUIRED, "T": None})
register("XlaVariadicReduce", ("*input_and_init_value",), variadic_reduce,
         attrs={"dimensions_to_reduce": REQUIRED, "reducer": REQUIRED, "N": None, "T": None})
register("XlaVariadicReduceV2", ("*inputs_and_init_values",), variadic_reduce,
         attrs={"dimensions_to_reduce": REQUIRED, "reducer": REQUIRED, "T": None}, typed=())


@register_gradient("XlaVariadicReduce")
def _no_gradient(b, op, *grads):
    """TF declares XlaVariadicReduce not differentiable: its inputs' gradients are None."""
    return [[None] * len(op.inputs[0])]


def variadic_sort(b, inputs, dimension, comparator=REQUIRED, is_stable=False, T=None):
    """hlo.sort whose comparator takes (lhs_0, rhs_0, lhs_1, rhs_1, ...), as XLA's does."""
    from minixla.frontend.ops.control_flow_ops import lookup, replay

    f = lookup(comparator)
    xs = list(inputs)
    if any(tuple(x.shape) != tuple(xs[0].shape) for x in xs):
        raise op_error("XlaVariadicSort", "all inputs must have the same shape")
    d = int(np.asarray(dimension))
    if not -len(xs[0].shape) <= d < len(xs[0].shape):
        raise op_error("XlaVariadicSort", f"dimension {d} out of range for rank {len(xs[0].shape)}")

    def compare(bb, lhs, rhs):
        return replay(bb, f, [v for pair in zip(lhs, rhs) for v in pair])[0]

    return tuple(b.sort(xs, d, compare))


register("XlaVariadicSort", ("*inputs", "dimension"), variadic_sort,
         attrs={"comparator": REQUIRED, "is_stable": False, "T": None}, const_inputs=("dimension",), typed=())


# -- composite ops: the decomposition is a traced function -----------------------------------------
# Qr, Svd, SelfAdjointEigV2, XlaSvd, XlaSelfAdjointEig and NonMaxSuppressionV4 are built by tf.linalg /
# tf.image from other TF ops (Householder, Jacobi sweeps, a greedy loop); SymbolicGradient by GradientTape.
# Their raw-op wrappers (frontend/api/raw_functional.py) trace that composition into a func.func named by
# the `body` attribute; the rule replays it, as PartitionedCall does, so eager, tf.function and jit share
# one decomposition.

def composite(b, *inputs, body=REQUIRED, **_):
    from minixla.frontend.ops.control_flow_ops import lookup, replay

    flat = [x for group in inputs for x in (group if isinstance(group, list) else [group])]
    return tuple(replay(b, lookup(body), flat))


_COMPOSITES = {
    "Qr": (("input",), {"full_matrices": False, "T": None}),
    "Svd": (("input",), {"compute_uv": True, "full_matrices": False, "T": None}),
    "SelfAdjointEigV2": (("input",), {"compute_v": True, "T": None}),
    "XlaSvd": (("a",), {"max_iter": None, "epsilon": None, "precision_config": "", "T": None}),
    "XlaSelfAdjointEig": (("a",), {"lower": True, "max_iter": None, "epsilon": None, "T": None}),
    "NonMaxSuppressionV4": (("boxes", "scores", "iou_threshold", "score_threshold"),
                            {"max_output_size": 0, "pad_to_max_output_size": True, "T": None, "T_threshold": None}),
}
_COMPOSITES["SymbolicGradient"] = (("*input",), {"Tin": None, "Tout": None, "f": None})
for _name, (_inputs, _attrs) in _COMPOSITES.items():
    register(_name, _inputs, composite, attrs={**_attrs, "body": REQUIRED}, typed=())
