"""tf.raw_ops cases for frontend/ops/raw_misc_ops.py and frontend/api/raw_functional.py (random V1 and
stateful kernels, functional control flow taking ConcreteFunctions, XLA annotations, DynamicStitch, ...),
recorded from real TensorFlow by `record_tf_goldens.py --cases tests/frontend/raw_misc_cases.py --out
tests/golden/raw_misc` and replayed by tests/frontend/test_raw_misc_goldens.py. Same format as
op_cases.py; numpy only. Functions are made with `tf.function(..., input_signature=...)
.get_concrete_function()`, the form TF's raw ops take.
"""

from __future__ import annotations

import re

import numpy as np

R = np.random.default_rng(21)
F = np.float32
X = R.standard_normal(4).astype(F)
M = R.standard_normal((3, 4)).astype(F)
SEED = np.array([7, 11], np.int32)
SEED64 = np.array([-3, 2 ** 40], np.int64)
BOXES = np.array([[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, -0.1, 1, 0.9], [0, 10, 1, 11], [1, 1, 0, 0], [0, 10.5, 1, 11.5]],
                 np.float32)
SCORES = np.array([0.9, 0.75, 0.6, 0.95, 0.2, 0.5], np.float32)


def _xla(tf, op: str, **kwargs):
    """An Xla* op by its TF name: TF keeps them in gen_xla_ops, minixla's RawOp calls any recorded OpDef."""
    if tf.__name__ == "tensorflow":
        from tensorflow.compiler.tf2xla.ops import gen_xla_ops

        if hasattr(tf.raw_ops, op):  # XlaConcatND, XlaSplitND
            return getattr(tf.raw_ops, op)(**kwargs)
        return getattr(gen_xla_ops, re.sub(r"(?<!^)(?=[A-Z])", "_", op).lower())(**kwargs)
    from minixla.frontend.raw_ops import RawOp

    return RawOp(op)(**kwargs)


def _jit(tf, fn, *args):
    """Ops with only an XLA kernel in TF (XlaSetBound, ...): run compiled, also "eagerly"."""
    return tf.function(fn, jit_compile=True)(*args)


def _fn(tf, fn, *specs):
    return tf.function(fn, input_signature=[tf.TensorSpec(s, d) for s, d in specs]).get_concrete_function()


_V4 = ([4], np.float32)


def _if(tf, c, x=X, op="StatelessIf"):
    then_f = _fn(tf, lambda v: v * 2.0 + 1.0, _V4)
    else_f = _fn(tf, lambda v: tf.sin(v), _V4)
    if op == "XlaIf":
        return _jit(tf, lambda: _xla(tf, "XlaIf", cond=c, inputs=[x], then_branch=then_f, else_branch=else_f,
                                     Tout=[tf.float32]))
    return tf.raw_ops.StatelessIf(cond=c, input=[x], Tout=[tf.float32], then_branch=then_f, else_branch=else_f)


_LOOP = [([], np.int32), ([4], np.float32)]


def _while(tf, x=X, op="StatelessWhile"):
    c = _fn(tf, lambda i, v: i < 3, *_LOOP)
    b = _fn(tf, lambda i, v: (i + 1, v * 1.5 - 0.25), *_LOOP)
    if op == "XlaWhile":
        return _xla(tf, "XlaWhile", input=[np.int32(0), x], cond=c, body=b)[1]
    return tf.raw_ops.StatelessWhile(input=[np.int32(0), x], cond=c, body=b)[1]


def _case(tf, i, x=X):
    fs = [_fn(tf, lambda v: v + 1.0, _V4), _fn(tf, lambda v: v * v, _V4), _fn(tf, lambda v: -v, _V4)]
    return tf.raw_ops.StatelessCase(branch_index=i, input=[x], Tout=[tf.float32], branches=fs)


def _call(tf, x=X, y=X[::-1].copy(), op="PartitionedCall"):
    f = _fn(tf, lambda a, b: (a * b, a - b), _V4, _V4)
    return getattr(tf.raw_ops, op)(args=[x, y], Tout=[tf.float32, tf.float32], f=f)


_S = ([], np.float32)
_I = ([], np.int32)


def _xla_reduce(tf, x, dims=(1,)):
    """A sum over dims (1,), a maximum over all (XLA may combine in any order: the reducer must commute)."""
    if len(dims) == 1:
        f, init = _fn(tf, lambda a, b: a + b, _S, _S), np.float32(0)
    else:
        f, init = _fn(tf, lambda a, b: tf.maximum(a, b), _S, _S), np.float32(-np.inf)
    return _xla(tf, "XlaReduce", input=x, init_value=init, dimensions_to_reduce=list(dims), reducer=f)


def _argmax(tf, a, i, b, j):
    """A variadic reducer: the larger value and its index (the first on ties)."""
    take_a = tf.logical_or(a > b, tf.logical_and(tf.equal(a, b), i < j))
    return tf.where(take_a, a, b), tf.where(take_a, i, j)


def _xla_variadic_reduce(tf, x, op="XlaVariadicReduceV2"):
    f = _fn(tf, lambda a, i, b, j: _argmax(tf, a, i, b, j), _S, _I, _S, _I)
    idx = np.tile(np.arange(x.shape[1], dtype=np.int32), (x.shape[0], 1))
    if op == "XlaVariadicReduce":  # V1: all operands of one type
        f = _fn(tf, lambda a, b, c, d: (tf.maximum(a, c), tf.minimum(b, d)), _S, _S, _S, _S)
        return _xla(tf, op, input=[x, x * 2.0], init_value=[np.float32(-np.inf), np.float32(np.inf)],
                    dimensions_to_reduce=[0], reducer=f)
    return _xla(tf, op, inputs=[x, idx], init_values=[np.float32(-np.inf), np.int32(0)], dimensions_to_reduce=[1],
                reducer=f)


def _xla_sort(tf, x, y):
    """Descending by the first operand, ties by the second ascending."""
    cmp = _fn(tf, lambda a, b, i, j: tf.logical_or(a > b, tf.logical_and(tf.equal(a, b), i < j)), _S, _S, _I, _I)
    return _xla(tf, "XlaVariadicSort", inputs=[x, y], dimension=np.int32(1), comparator=cmp, is_stable=True)


_GENERATORS: dict = {}


def _generator_op(tf, op, **kw):
    """A Philox state Variable (one per tf module, made outside any tf.function and reset to seed 5 on each
    call) drawn from by a raw op: (the op's result, the state after)."""
    g = _GENERATORS.get(tf.__name__)
    if g is None:
        with tf.init_scope():
            g = _GENERATORS[tf.__name__] = tf.random.Generator.from_seed(0)
    g.reset_from_seed(5)
    out = getattr(tf.raw_ops, op)(resource=g.state.handle, **kw)
    return (g.state.read_value(),) if op == "RngSkip" else (out, g.state.read_value())


def _is_tf(tf) -> bool:
    return tf.__name__ == "tensorflow"


def _unary_composition(tf, x):
    """Grappler's fused chain; TF cannot call the underscore op from Python: it runs the ops one by one."""
    if _is_tf(tf):
        return tf.exp(-tf.sqrt(tf.abs(x)))
    return _xla(tf, "_UnaryOpsComposition", x=x, op_names=["Abs", "Sqrt", "Neg", "Exp"])


IMG = R.standard_normal((2, 5, 5, 3)).astype(F)
KER = R.standard_normal((3, 3, 3, 4)).astype(F)
BIAS = R.standard_normal(4).astype(F)


def _fused_conv(tf, x, w, bias, activation="Relu", padding="SAME"):
    if _is_tf(tf):
        y = tf.nn.bias_add(tf.nn.conv2d(x, w, [1, 1, 1, 1], padding), bias)
        return {"Relu": tf.nn.relu, "Relu6": tf.nn.relu6, "Elu": tf.nn.elu, "LeakyRelu": lambda v: tf.nn.leaky_relu(
            v, 0.3)}[activation](y)
    return _xla(tf, "_FusedConv2D", input=x, filter=w, args=[bias], host_args=[], num_args=1, strides=[1, 1, 1, 1],
                padding=padding, fused_ops=["BiasAdd", activation], leakyrelu_alpha=0.3)


def _fused_conv_bn(tf, x, w, scale, offset):
    mean, var = np.array([0.1, -0.2, 0.3, 0.0], F), np.array([1.0, 0.5, 2.0, 1.5], F)
    if _is_tf(tf):
        y = tf.nn.conv2d(x, w, [1, 2, 2, 1], "VALID")
        return tf.nn.relu(tf.nn.batch_normalization(y, mean, var, offset, scale, 1e-3))
    return _xla(tf, "_FusedConv2D", input=x, filter=w, args=[scale, offset, mean, var], host_args=[], num_args=4,
                strides=[1, 2, 2, 1], padding="VALID", fused_ops=["FusedBatchNorm", "Relu"], epsilon=1e-3)


def _fused_bn_ex(tf, x, side, scale, offset, y_only=False):
    """(y, batch mean, batch variance); y alone for the gradient case (TF's batch-norm gradients ignore the
    statistics' cotangents)."""
    if y_only:
        return _fused_bn_ex(tf, x, side, scale, offset)[0]
    if _is_tf(tf):
        y = tf.raw_ops.FusedBatchNormV3(x=x, scale=scale, offset=offset, mean=np.zeros(0, F), variance=np.zeros(0, F),
                                        epsilon=0.01)
        return (tf.nn.relu(y[0] + side), *y[1:3])
    y = _xla(tf, "_FusedBatchNormEx", x=x, scale=scale, offset=offset, mean=np.zeros(0, F), variance=np.zeros(0, F),
             side_input=[side], num_side_inputs=1, activation_mode="Relu", epsilon=0.01)
    return y[:3]


def _bin(tf, fn):
    return _fn(tf, fn, _S, _S)


def _reduce_window(tf, x, kind):
    f, init = {"sum": (lambda a, b: a + b, 0.0), "max": (lambda a, b: tf.maximum(a, b), -np.inf)}[kind]
    return _xla(tf, "XlaReduceWindow", input=x, init_value=np.float32(init), window_dimensions=[2, 3],
                window_strides=[1, 2], base_dilations=[1, 1], window_dilations=[1, 1], padding=[[0, 1], [1, 1]],
                computation=_bin(tf, f))


def _select_and_scatter(tf, x, src):
    return _xla(tf, "XlaSelectAndScatter", operand=x, window_dimensions=[2, 2], window_strides=[1, 2],
                padding=[[0, 0], [0, 0]], source=src, init_value=np.float32(0.0),
                select=_fn(tf, lambda a, b: a >= b, _S, _S), scatter=_bin(tf, lambda a, b: a + b))


# xla ScatterDimensionNumbers: update_window_dims=[1], inserted_window_dims=[0], scatter_dims_to_operand_dims=[0],
# index_vector_dim=1 (rows of a matrix, as tf.tensor_scatter_nd_* on a matrix)
SCATTER_DN = bytes([0x0a, 1, 1, 0x12, 1, 0, 0x1a, 1, 0, 0x20, 1])


def _scatter(tf, x, upd, kind):
    f = {"add": lambda a, b: a + b, "replace": lambda a, b: b}[kind]
    return _xla(tf, "XlaScatter", operand=x, scatter_indices=np.array([[2], [0], [2]], np.int32), updates=upd,
                update_computation=_bin(tf, f), dimension_numbers=SCATTER_DN, indices_are_sorted=False)


_TILE_VARS: dict = {}


def _variable_tiles(tf, op, tiles=None):
    """ReadVariableXlaSplitND / AssignVariableXlaConcatND on a variable made once per tf module (reset to M)."""
    v = _TILE_VARS.get(tf.__name__)
    if v is None:
        with tf.init_scope():
            v = _TILE_VARS[tf.__name__] = tf.Variable(np.zeros((3, 4), F))
    v.assign(M)
    if op == "read":
        return tf.raw_ops.ReadVariableXlaSplitND(resource=v.handle, T=tf.float32, N=4, num_splits=[2, 2],
                                                 paddings=[1, 0])
    tf.raw_ops.AssignVariableXlaConcatND(resource=v.handle, inputs=tiles, num_concats=[1, 2], paddings=[0, 0])
    return v.read_value()


def _fresh(tf):
    tf.random.set_seed(None)  # also clears the eager kernel cache: each call is a first call


def _stateful(tf, op, **kw):
    _fresh(tf)
    return getattr(tf.raw_ops, op)(**kw)


def _twice(tf, op, **kw):
    """A kernel's second call continues its stream (eagerly; each tf.function op is its own kernel)."""
    _fresh(tf)
    return getattr(tf.raw_ops, op)(**kw), getattr(tf.raw_ops, op)(**kw)


CASES = {
    # -- V1 stateless random ops and the algorithm queries ----------------------------------------
    "raw_stateless_uniform": (lambda tf, s: tf.raw_ops.StatelessRandomUniform(shape=[2, 3], seed=s), [SEED], None),
    "raw_stateless_uniform_f64": (lambda tf, s: tf.raw_ops.StatelessRandomUniform(shape=[5], seed=s, dtype=tf.float64),
                                  [SEED64], None),
    "raw_stateless_normal": (lambda tf, s: tf.raw_ops.StatelessRandomNormal(shape=[7], seed=s), [SEED], None),
    "raw_stateless_truncated_normal": (lambda tf, s: tf.raw_ops.StatelessTruncatedNormal(shape=[6], seed=s), [SEED],
                                       None),
    "raw_stateless_uniform_int": (lambda tf, s: tf.raw_ops.StatelessRandomUniformInt(
        shape=[8], seed=s, minval=np.int32(-5), maxval=np.int32(9)), [SEED], None),
    "raw_stateless_uniform_full_int": (lambda tf, s: tf.raw_ops.StatelessRandomUniformFullInt(
        shape=[4], seed=s, dtype=tf.int64), [SEED64], None),
    "raw_stateless_get_alg": (lambda tf: tf.raw_ops.StatelessRandomGetAlg(), [], None),
    "raw_stateless_get_key_counter_alg": (lambda tf, s: tf.raw_ops.StatelessRandomGetKeyCounterAlg(seed=s), [SEED64],
                                          None),
    "raw_rng_bit_generator": (lambda tf, s: _xla(tf, "XlaRngBitGenerator", algorithm=1, initial_state=s, shape=[5],
                                                 dtype=tf.uint32), [np.array([1, 2, 3], np.uint64)], None),
    "raw_random_gamma_grad": (lambda tf, a, x: tf.raw_ops.RandomGammaGrad(alpha=a, sample=x),
                              [np.array([0.3, 0.7, 1.0, 2.5, 4.0, 10.0, 0.5, 3.0, 50.0], F),
                               np.array([0.05, 0.4, 1.3, 2.0, 6.5, 9.0, 0.0, 1e-3, 48.0], F)], None),
    "raw_random_gamma_grad_f64_broadcast": (lambda tf, a, x: tf.raw_ops.RandomGammaGrad(alpha=a, sample=x),
                                            [np.array([[0.8], [5.0]]), np.array([0.2, 1.0, 7.5])], None),
    # -- stateful random kernels (TF's CPU kernels; under jit TF draws other numbers) --------------
    "raw_random_uniform": (lambda tf: _stateful(tf, "RandomUniform", shape=[2, 3], dtype=tf.float32, seed=3, seed2=4),
                           [], None),
    "raw_random_normal": (lambda tf: _stateful(tf, "RandomStandardNormal", shape=[5], dtype=tf.float64, seed=5,
                                               seed2=1), [], None),
    "raw_truncated_normal": (lambda tf: _stateful(tf, "TruncatedNormal", shape=[6], dtype=tf.float32, seed=8, seed2=2),
                             [], None),
    "raw_random_uniform_int": (lambda tf: _stateful(tf, "RandomUniformInt", shape=[7], minval=np.int32(-3),
                                                    maxval=np.int32(20), seed=2, seed2=9), [], None),
    "raw_multinomial": (lambda tf, lg: _stateful(tf, "Multinomial", logits=lg, num_samples=4, seed=6, seed2=7),
                        [np.array([[0.0, 1.0, -1.0], [2.0, 0.0, 0.5]], F)], None),
    "raw_random_shuffle": (lambda tf, v: _stateful(tf, "RandomShuffle", value=v, seed=4, seed2=3),
                           [np.arange(12, dtype=np.int32).reshape(6, 2)], None),
    "raw_random_uniform_twice": (lambda tf: _twice(tf, "RandomUniform", shape=[3], dtype=tf.float32, seed=1, seed2=2),
                                 [], None),
    "raw_random_shuffle_twice": (lambda tf, v: _twice(tf, "RandomShuffle", value=v, seed=4, seed2=5),
                                 [np.arange(7, dtype=np.int32)], None),
    # -- resource-based random kernels on a tf.random.Generator's state ---------------------------
    "raw_stateful_uniform": (lambda tf: _generator_op(tf, "StatefulUniform", algorithm=1, shape=[2, 3]), [], None),
    "raw_stateful_uniform_f64": (lambda tf: _generator_op(tf, "StatefulUniform", algorithm=1, shape=[3],
                                                          dtype=tf.float64), [], None),
    "raw_stateful_normal": (lambda tf: _generator_op(tf, "StatefulStandardNormalV2", algorithm=1, shape=[5]), [], None),
    "raw_stateful_truncated_normal": (lambda tf: _generator_op(tf, "StatefulTruncatedNormal", algorithm=1, shape=[4]),
                                      [], None),
    "raw_stateful_uniform_int": (lambda tf: _generator_op(tf, "StatefulUniformInt", algorithm=1, shape=[6],
                                                          minval=np.int64(-4), maxval=np.int64(40)), [], None),
    "raw_stateful_uniform_full_int": (lambda tf: _generator_op(tf, "StatefulUniformFullInt", algorithm=1, shape=[3]),
                                      [], None),
    "raw_rng_read_and_skip": (lambda tf: _generator_op(tf, "RngReadAndSkip", alg=1, delta=np.uint64(3)), [], None),
    "raw_rng_skip": (lambda tf: _generator_op(tf, "RngSkip", algorithm=1, delta=np.int64(2 ** 60)), [], None),
    # -- functional control flow (ConcreteFunctions as attributes) ---------------------------------
    # (the functions' inputs are constants of the cases: TF's eager gradient of these raw ops fails)
    "raw_stateless_if_true": (lambda tf: _if(tf, np.bool_(True)), [], None),
    "raw_stateless_if_false": (lambda tf: _if(tf, np.bool_(False)), [], None),
    "raw_stateless_while": (lambda tf: _while(tf), [], None),
    "raw_xla_while": (lambda tf, x: _while(tf, x, "XlaWhile"), [X], None),
    "raw_stateless_case_1": (lambda tf: _case(tf, np.int32(1)), [], None),
    "raw_stateless_case_default": (lambda tf: _case(tf, np.int32(7)), [], None),
    "raw_partitioned_call": (lambda tf, x, y: _call(tf, x, y), [X, X[::-1].copy()], None),
    "raw_stateful_partitioned_call": (lambda tf: _call(tf, op="StatefulPartitionedCall"), [], None),
    # -- Xla* ops taking a computation ---------------------------------------------------------------
    "raw_xla_reduce": (lambda tf, x: _xla_reduce(tf, x), [M], None),
    "raw_xla_reduce_all": (lambda tf, x: _xla_reduce(tf, x, (0, 1)), [M], None),
    "raw_xla_variadic_reduce_v2": (lambda tf, x: _xla_variadic_reduce(tf, x), [np.round(M * 2)], None),
    "raw_xla_variadic_reduce": (lambda tf, x: _xla_variadic_reduce(tf, x, "XlaVariadicReduce"), [M], None),
    "raw_xla_variadic_sort": (lambda tf, x, y: _xla_sort(tf, x, y), [np.round(M), np.arange(12, dtype=np.int32)
                                                                      .reshape(3, 4)[:, ::-1].copy()], None),
    # -- composites: linear algebra and non-max suppression -----------------------------------------
    "raw_qr": (lambda tf, a: tf.raw_ops.Qr(input=a), [M.T.copy()], None),
    "raw_qr_full": (lambda tf, a: tf.raw_ops.Qr(input=a, full_matrices=True), [M.T.copy()], None),
    "raw_nms_v4_padded": (lambda tf, b, s: tf.raw_ops.NonMaxSuppressionV4(
        boxes=b, scores=s, max_output_size=4, iou_threshold=np.float32(0.5), score_threshold=np.float32(0.3),
        pad_to_max_output_size=True), [BOXES, SCORES], None),
    # -- Grappler's fused ops against TF's unfused ops ------------------------------------------------
    "raw_unary_ops_composition": (lambda tf, x: _unary_composition(tf, x), [M], None),
    "raw_fused_conv2d_bias_relu": (lambda tf, x, w, b: _fused_conv(tf, x, w, b), [IMG, KER, BIAS], None),
    "raw_fused_conv2d_bias_relu6": (lambda tf, x, w, b: _fused_conv(tf, x, w, b * 4.0, "Relu6", "VALID"),
                                    [IMG, KER, BIAS], None),
    "raw_fused_conv2d_bias_leaky_relu": (lambda tf, x, w, b: _fused_conv(tf, x, w, b, "LeakyRelu"), [IMG, KER, BIAS],
                                         None),
    "raw_fused_conv2d_batch_norm_relu": (lambda tf, x, w, s, o: _fused_conv_bn(tf, x, w, s, o),
                                         [IMG, KER, np.abs(BIAS) + 0.5, BIAS[::-1].copy()], None),
    "raw_fused_batch_norm_ex": (lambda tf: _fused_bn_ex(tf, IMG, IMG[::-1].copy(), np.array([1.0, 0.5, 2.0], F),
                                                        np.array([0.1, -0.3, 0.0], F)), [], None),
    "raw_fused_batch_norm_ex_y": (lambda tf, x, side, s, o: _fused_bn_ex(tf, x, side, s, o, y_only=True),
                                  [IMG, IMG[::-1].copy(), np.array([1.0, 0.5, 2.0], F), np.array([0.1, -0.3, 0.0], F)],
                                  None),
    # -- TPU tiling, SPMD annotations, one-process collectives (XLA-only in TF: run compiled there) ------
    "raw_xla_split_nd": (lambda tf, m: _jit(tf, lambda a: _xla(tf, "XlaSplitND", input=a, N=6, num_splits=[2, 3],
                                                                     paddings=[1, 2]), m), [M], None),
    "raw_xla_concat_nd": (lambda tf, *t: _jit(tf, lambda *a: _xla(tf, "XlaConcatND", inputs=list(a),
                                                                        num_concats=[3, 2], paddings=[1, 3]), *t),
                          [R.standard_normal((2, 3)).astype(F) for _ in range(6)], None),
    "raw_read_variable_xla_split_nd": (lambda tf: _jit(tf, lambda: _variable_tiles(tf, "read")), [], None),
    # (the tiles are constants of the case: TF's gradient does not flow through an assignment)
    "raw_assign_variable_xla_concat_nd": (lambda tf: _jit(tf, lambda: _variable_tiles(
        tf, "assign", [M[:, :2].copy() * 3, M[:, 2:].copy() - 1])), [], None),
    "raw_xla_spmd_full_to_shard": (lambda tf, m: _jit(tf, lambda a: _xla(tf, "XlaSpmdFullToShardShape", input=a,
                                                                               manual_sharding=""), m), [M], None),
    "raw_xla_spmd_shard_to_full": (lambda tf, m: _jit(tf, lambda a: _xla(tf, "XlaSpmdShardToFullShape", input=a,
                                                                               manual_sharding="", full_shape=[3, 4]),
                                                      m), [M], None),
    "raw_collective_reduce_v2": (lambda tf, m: tf.raw_ops.CollectiveReduceV2(
        input=m, group_size=1, group_key=1, instance_key=1, ordering_token=[], merge_op="Add", final_op="Div"), [M],
        None),
    "raw_collective_assign_group_v2": (lambda tf: tf.raw_ops.CollectiveAssignGroupV2(
        group_assignment=[[3, 1], [0, 2]], device_index=2, base_key=7), [], None),
    # -- Xla* ops with a named-combiner computation ----------------------------------------------------
    "raw_xla_reduce_window_sum": (lambda tf, x: _reduce_window(tf, x, "sum"), [M], None),
    "raw_xla_reduce_window_max": (lambda tf, x: _reduce_window(tf, x, "max"), [M], None),
    "raw_xla_select_and_scatter": (lambda tf, x, s: _select_and_scatter(tf, x, s), [M, R.standard_normal((2, 2))
                                                                                    .astype(F)], None),
    "raw_xla_scatter_add": (lambda tf, x, u: _scatter(tf, x, u, "add"), [M, R.standard_normal((3, 4)).astype(F)], None),
    "raw_xla_scatter_replace": (lambda tf, x, u: _scatter(tf, x, u, "replace"), [M, np.arange(12, dtype=F)
                                                                                    .reshape(3, 4)], None),
    # -- XlaDequantize: four uint8 per uint32, bfloat16 results (as float32: .npz has no bfloat16) ------
    "raw_xla_dequantize": (lambda tf, q: tf.cast(_xla(tf, "XlaDequantize", input=q, min_range=-1.0, max_range=1.0,
                                                        mode="MIN_COMBINED", transpose_output=False), tf.float32),
                           [np.array([0x04030201, 0xFF80, 0x7F00FF10, 0xFFFFFFFF], np.uint32)], None),
    "raw_xla_dequantize_transposed": (lambda tf, q: tf.cast(_xla(
        tf, "XlaDequantize", input=q, min_range=0.5, max_range=3.0, mode="MIN_COMBINED", transpose_output=True),
        tf.float32),
                                      [R.integers(0, 2 ** 32, (2, 3), dtype=np.uint64).astype(np.uint32)], None),
    # -- SymbolicGradient (TF runs it compiled only) -----------------------------------------------------
    "raw_symbolic_gradient": (lambda tf, x, y: _jit(tf, lambda a, b: tf.raw_ops.SymbolicGradient(
        input=[a, b, tf.ones([4]), tf.ones([4]) * 2.0], Tout=[tf.float32, tf.float32],
        f=_fn(tf, lambda u, v: (u * v, tf.sin(u) + tf.stop_gradient(v)), _V4, _V4)), x, y), [X, X[::-1].copy()],
        None),
    # -- DynamicStitch ------------------------------------------------------------------------------
    "raw_dynamic_stitch": (lambda tf, a, b: tf.raw_ops.DynamicStitch(indices=[[0, 4, 2], [1, 3]], data=[a, b]),
                           [M[:, :2].copy(), M[:2, 2:].copy()], None),
    "raw_dynamic_stitch_overlap": (lambda tf, a, b: tf.raw_ops.DynamicStitch(indices=[[[0, 2]], [2, 1]], data=[a, b]),
                                   [M[:1, :2].copy(), M[1, :2].copy()], None),
    "raw_parallel_dynamic_stitch": (lambda tf, a, b: tf.raw_ops.ParallelDynamicStitch(
        indices=[[0, 2], [3, 1]], data=[a, b]), [M[:2], M[1:]], None),
    # -- annotations, placeholders and host/XLA differences --------------------------------------
    "raw_xla_sharding": (lambda tf: _xla(tf, "XlaSharding", input=M) * 2.0, [], None),
    "raw_xla_set_bound": (lambda tf, v: _jit(tf, lambda a: _xla(tf, "XlaSetBound", input=a, bound=np.int32(8)), v),
                          [np.int32(5)], None),
    "raw_xla_set_dynamic_dimension_size": (lambda tf, m: _jit(tf, lambda a: _xla(
        tf, "XlaSetDynamicDimensionSize", input=a, dim_index=np.int32(1), size=np.int32(3)), m), [M], None),
    "raw_xla_remove_dynamic_dimension_size": (lambda tf, m: _jit(tf, lambda a: _xla(
        tf, "XlaRemoveDynamicDimensionSize", input=a, dim_index=np.int32(0)), m), [M], None),
    "raw_fake_param": (lambda tf: _jit(tf, lambda: tf.raw_ops.FakeParam(dtype=tf.float32, shape=[2, 3])), [], None),
    "raw_device_index": (lambda tf: tf.raw_ops.DeviceIndex(device_names=["GPU", "CPU"]), [], None),
    "raw_device_index_missing": (lambda tf: tf.raw_ops.DeviceIndex(device_names=["TPU"]), [], None),
}
