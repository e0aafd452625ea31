"""tf.raw_ops on state: resource variables (`v.handle`), TensorArray, TensorList and Stack, recorded from
real TensorFlow by `record_tf_goldens.py --cases tests/frontend/raw_state_cases.py --out
tests/golden/raw_state` and replayed by tests/frontend/test_raw_state_goldens.py. Same format as
raw_cases.py; numpy only. A variable case resets its variables to the case's inputs, runs the raw op (two
steps for the optimizers) and returns the variables' values afterwards.
"""

from __future__ import annotations

import numpy as np

R = np.random.default_rng(70)
F = np.float32

_VARS: dict = {}


def _n(*shape):
    return R.standard_normal(shape).astype(F)


def _pos(*shape):
    return R.uniform(0.1, 1.0, shape).astype(F)


def _var(tf, key, value):
    """The variable `key` of this TF module (made once, outside any function), set to `value`."""
    k = (id(tf), key)
    if k not in _VARS:
        with tf.init_scope():
            _VARS[k] = tf.Variable(np.zeros(value.shape, value.dtype.as_numpy_dtype), name=key.replace("/", "_"))
    _VARS[k].assign(value)
    return _VARS[k]


def _optimizer(op, slots, scalars, steps=2, **attrs):
    """ResourceApply<op> on variables `slots` (inputs 0..k-1) with the gradient (last input)."""
    def fn(tf, *ts):
        vs = [_var(tf, f"{op}/{attrs}/{n}", t) for n, t in zip(slots, ts)]
        kw = {**dict(zip(slots, [v.handle for v in vs])), **scalars, **attrs}
        kw["delta" if op == "GradientDescent" or op == "ProximalGradientDescent" else "grad"] = ts[-1]
        for _ in range(steps):
            getattr(tf.raw_ops, f"ResourceApply{op}")(**kw)
        return [v.read_value() for v in vs]

    return fn, [_n(2, 3)] + [_pos(2, 3) for _ in slots[1:]] + [_n(2, 3)], None


_LR = {"lr": 0.1}
CASES = {
    "apply_gradient_descent": _optimizer("GradientDescent", ["var"], {"alpha": 0.3}),
    "apply_proximal_gd": _optimizer("ProximalGradientDescent", ["var"], {"alpha": 0.3, "l1": 0.05, "l2": 0.2}),
    "apply_momentum": _optimizer("Momentum", ["var", "accum"], {**_LR, "momentum": 0.9}),
    "apply_momentum_nesterov": _optimizer("Momentum", ["var", "accum"], {**_LR, "momentum": 0.9}, use_nesterov=True),
    "apply_keras_momentum": _optimizer("KerasMomentum", ["var", "accum"], {**_LR, "momentum": 0.9}),
    "apply_keras_momentum_nesterov": _optimizer("KerasMomentum", ["var", "accum"], {**_LR, "momentum": 0.9},
                                                use_nesterov=True),
    "apply_adagrad": _optimizer("Adagrad", ["var", "accum"], _LR),
    "apply_adagrad_v2": _optimizer("AdagradV2", ["var", "accum"], {**_LR, "epsilon": 1e-3}),
    "apply_proximal_adagrad": _optimizer("ProximalAdagrad", ["var", "accum"], {**_LR, "l1": 0.05, "l2": 0.2}),
    "apply_adagrad_da": _optimizer("AdagradDA", ["var", "gradient_accumulator", "gradient_squared_accumulator"],
                                   {**_LR, "l1": 0.05, "l2": 0.2, "global_step": np.int64(3)}),
    "apply_adam": _optimizer("Adam", ["var", "m", "v"], {"beta1_power": 0.9, "beta2_power": 0.999, **_LR,
                                                         "beta1": 0.9, "beta2": 0.999, "epsilon": 1e-7}),
    "apply_adam_nesterov": _optimizer("Adam", ["var", "m", "v"], {"beta1_power": 0.81, "beta2_power": 0.998, **_LR,
                                                                  "beta1": 0.9, "beta2": 0.999, "epsilon": 1e-7},
                                      use_nesterov=True),
    "apply_adamax": _optimizer("AdaMax", ["var", "m", "v"], {"beta1_power": 0.9, **_LR, "beta1": 0.9,
                                                             "beta2": 0.999, "epsilon": 1e-7}),
    "apply_adadelta": _optimizer("Adadelta", ["var", "accum", "accum_update"], {"lr": 1.0, "rho": 0.95,
                                                                                "epsilon": 1e-6}),
    "apply_add_sign": _optimizer("AddSign", ["var", "m"], {**_LR, "alpha": 1.0, "sign_decay": 0.5, "beta": 0.9}),
    "apply_power_sign": _optimizer("PowerSign", ["var", "m"], {**_LR, "logbase": 0.7, "sign_decay": 0.5,
                                                               "beta": 0.9}),
    "apply_rms_prop": _optimizer("RMSProp", ["var", "ms", "mom"], {**_LR, "rho": 0.9, "momentum": 0.5,
                                                                   "epsilon": 1e-7}),
    "apply_centered_rms_prop": _optimizer("CenteredRMSProp", ["var", "mg", "ms", "mom"],
                                          {**_LR, "rho": 0.9, "momentum": 0.5, "epsilon": 1e-3}),
    "apply_ftrl": _optimizer("Ftrl", ["var", "accum", "linear"], {**_LR, "l1": 0.05, "l2": 0.2, "lr_power": -0.5}),
    "apply_ftrl_power": _optimizer("Ftrl", ["var", "accum", "linear"], {**_LR, "l1": 0.01, "l2": 0.1,
                                                                        "lr_power": -0.3}),
    "apply_ftrl_linear_by_lr": _optimizer("Ftrl", ["var", "accum", "linear"], {**_LR, "l1": 0.05, "l2": 0.2,
                                                                               "lr_power": -0.5},
                                          multiply_linear_by_lr=True),
    "apply_ftrl_v2": _optimizer("FtrlV2", ["var", "accum", "linear"], {**_LR, "l1": 0.05, "l2": 0.2,
                                                                       "l2_shrinkage": 0.1, "lr_power": -0.5}),
}


def _assigns(tf, x, d):
    v = _var(tf, "assigns", x)
    out = [tf.raw_ops.ReadVariableOp(resource=v.handle, dtype=tf.float32)]
    tf.raw_ops.AssignAddVariableOp(resource=v.handle, value=d)
    out.append(v.read_value())
    tf.raw_ops.AssignSubVariableOp(resource=v.handle, value=d * 3.0)
    out.append(v.read_value())
    tf.raw_ops.AssignVariableOp(resource=v.handle, value=d * d)
    out.append(tf.raw_ops.ReadVariableOp(resource=v.handle, dtype=tf.float32))
    return out


def _shape_init(tf, x):
    v = _var(tf, "shape_init", x)
    return [tf.raw_ops.VariableShape(input=v.handle), tf.raw_ops.VariableShape(input=v.handle, out_type=tf.int64),
            tf.raw_ops.VarIsInitializedOp(resource=v.handle)]


def _scatter(op, indices, scalar=False):
    def fn(tf, x, u):
        v = _var(tf, f"scatter{op}", x)
        getattr(tf.raw_ops, f"ResourceScatter{op}")(resource=v.handle, indices=indices, updates=u)
        return v.read_value()

    return fn, [_pos(5, 3) + 0.5, np.float32(1.5) if scalar else _pos(len(indices), 3) + 0.5], None


def _scatter_nd(op, indices):
    def fn(tf, x, u):
        v = _var(tf, f"scatternd{op}", x)
        getattr(tf.raw_ops, f"ResourceScatterNd{op}")(ref=v.handle, indices=indices, updates=u)
        return v.read_value()

    return fn, [_n(4, 3), _n(len(indices))], None


def _gather(tf, x):
    v = _var(tf, "gather", x)
    return [tf.raw_ops.ResourceGather(resource=v.handle, indices=[[3, 0], [1, 1]], dtype=tf.float32),
            tf.raw_ops.ResourceGather(resource=v.handle, indices=2, dtype=tf.float32)]


def _int_scatter_div(tf, x, u):
    v = _var(tf, "scatter_div_int", x)
    tf.raw_ops.ResourceScatterDiv(resource=v.handle, indices=[0, 2, 0], updates=u)
    return v.read_value()


def _gather_batch(tf, x):
    v = _var(tf, "gather_batch", x)
    # (the int output keeps the recorder off TF's gradient of a batched ResourceGather, which fails in TF)
    return (tf.raw_ops.ResourceGather(resource=v.handle, indices=[[3, 0], [1, 1]], dtype=tf.float32, batch_dims=1),
            tf.shape(x))


def _strided_assign(tf, x, u):
    v = _var(tf, "strided", x)
    tf.raw_ops.ResourceStridedSliceAssign(ref=v.handle, begin=[1, 0], end=[3, 2], strides=[1, 1], value=u)
    return v.read_value()


_IDX = np.array([3, 0, 4], np.int32)
CASES.update({
    "variable_assigns": (_assigns, [_n(2, 3), _n(2, 3)], None),
    "variable_shape_initialized": (_shape_init, [_n(2, 3)], None),
    "resource_gather": (_gather, [_n(4, 3)], None),
    "resource_scatter_add": _scatter("Add", np.array([3, 0, 3], np.int32)),
    "resource_scatter_add_scalar": _scatter("Add", _IDX, scalar=True),
    "resource_scatter_sub": _scatter("Sub", _IDX),
    "resource_scatter_mul": _scatter("Mul", _IDX),
    "resource_scatter_div": _scatter("Div", np.array([3, 0, 3], np.int32)),
    "resource_scatter_div_int": (_int_scatter_div, [np.array([[7, 9], [8, -9], [-7, 5]], np.int32),
                                                    np.array([[2, 3], [3, 2], [1, -2]], np.int32)], None),
    "resource_gather_batch": (_gather_batch, [_n(2, 4, 3)], None),
    "resource_scatter_min": _scatter("Min", _IDX),
    "resource_scatter_max": _scatter("Max", _IDX),
    "resource_scatter_update": _scatter("Update", _IDX),
    "resource_scatter_nd_add": _scatter_nd("Add", np.array([[0, 1], [3, 2], [0, 1]], np.int32)),
    "resource_scatter_nd_sub": _scatter_nd("Sub", np.array([[0, 1], [3, 2]], np.int32)),
    "resource_scatter_nd_update": _scatter_nd("Update", np.array([[0, 1], [3, 2], [2, 0]], np.int32)),
    "resource_strided_slice_assign": (_strided_assign, [_n(5, 3), _n(2, 2)], None),
})


# -- TensorArray ---------------------------------------------------------------------------------------------

def _ta(tf, size, element_shape=None, **kw):
    return tf.raw_ops.TensorArrayV3(size=size, dtype=tf.float32, element_shape=element_shape, clear_after_read=False,
                                    **kw)


def _ta_write_read(tf, x):
    h, flow = _ta(tf, 3, [3])
    flow = tf.raw_ops.TensorArrayWriteV3(handle=h, index=0, value=x[0], flow_in=flow)
    flow = tf.raw_ops.TensorArrayWriteV3(handle=h, index=2, value=x[1] * 2.0, flow_in=flow)
    r = tf.raw_ops.TensorArrayReadV3(handle=h, index=2, flow_in=flow, dtype=tf.float32)
    g = tf.raw_ops.TensorArrayGatherV3(handle=h, indices=[2, 0, 1], flow_in=flow, dtype=tf.float32,
                                       element_shape=[3])
    n = tf.raw_ops.TensorArraySizeV3(handle=h, flow_in=flow)
    tf.raw_ops.TensorArrayCloseV3(handle=h)
    return r, g, n


def _ta_unknown_shape(tf, x):
    """No element_shape: the first write tells it; the flows are dropped (TF's resource keeps the writes)."""
    h, flow = _ta(tf, 2)
    tf.raw_ops.TensorArrayWriteV3(handle=h, index=1, value=x[0], flow_in=flow)
    flow = tf.raw_ops.TensorArrayWriteV3(handle=h, index=0, value=x[1] + 1.0, flow_in=flow)
    return tf.raw_ops.TensorArrayGatherV3(handle=h, indices=[0, 1], flow_in=flow, dtype=tf.float32), tf.shape(x)


def _ta_scatter_concat(tf, x, y):
    h, flow = _ta(tf, 3, [2, 2])
    flow = tf.raw_ops.TensorArrayScatterV3(handle=h, indices=[2, 0], value=x, flow_in=flow)
    value, lengths = tf.raw_ops.TensorArrayConcatV3(handle=h, flow_in=flow, dtype=tf.float32)
    h2, flow2 = _ta(tf, 3)
    flow2 = tf.raw_ops.TensorArraySplitV3(handle=h2, value=y, lengths=[2, 2, 2], flow_in=flow2)
    r = tf.raw_ops.TensorArrayReadV3(handle=h2, index=1, flow_in=flow2, dtype=tf.float32)
    return value, lengths, r


def _ta_grad_array(tf, x):
    h, flow = _ta(tf, 2, [3])
    flow = tf.raw_ops.TensorArrayWriteV3(handle=h, index=0, value=x[0], flow_in=flow)
    g, gflow = tf.raw_ops.TensorArrayGradV3(handle=h, flow_in=flow, source="gradients")
    gflow = tf.raw_ops.TensorArrayWriteV3(handle=g, index=1, value=x[1], flow_in=gflow)
    return (tf.raw_ops.TensorArrayGatherV3(handle=g, indices=[0, 1], flow_in=gflow, dtype=tf.float32),
            tf.raw_ops.TensorArraySizeV3(handle=g, flow_in=gflow))


def _ta_while(tf, x):
    """The classic use: a while loop writes row i of the array through its flow."""
    h, flow = _ta(tf, 4, [3])

    def body(i, f):
        return i + 1, tf.raw_ops.TensorArrayWriteV3(handle=h, index=i, value=tf.sin(tf.gather(x, i)) * 2.0, flow_in=f)

    _, flow = tf.while_loop(lambda i, f: i < 4, body, (tf.constant(0), flow), maximum_iterations=4)
    return tf.raw_ops.TensorArrayGatherV3(handle=h, indices=[0, 1, 2, 3], flow_in=flow, dtype=tf.float32,
                                          element_shape=[3]), tf.shape(x)


def _ta_while_unknown_shape(tf, x):
    """No element_shape: the loop's first write gives it (tf2xla runs the body once to learn it)."""
    h, flow = _ta(tf, 4)

    def body(i, f):
        return i + 1, tf.raw_ops.TensorArrayWriteV3(handle=h, index=i, value=tf.gather(x, i) * 3.0, flow_in=f)

    _, flow = tf.while_loop(lambda i, f: i < 4, body, (tf.constant(0), flow))
    return tf.raw_ops.TensorArrayGatherV3(handle=h, indices=[3, 1], flow_in=flow, dtype=tf.float32), tf.shape(x)


# -- TensorList ----------------------------------------------------------------------------------------------

def _tl_reserve(tf, x):
    lst = tf.raw_ops.TensorListReserve(element_shape=[3], num_elements=3, element_dtype=tf.float32)
    lst = tf.raw_ops.TensorListSetItem(input_handle=lst, index=1, item=x[0])
    lst = tf.raw_ops.TensorListSetItem(input_handle=lst, index=2, item=x[1] * 3.0)
    return (tf.raw_ops.TensorListStack(input_handle=lst, element_shape=[3], element_dtype=tf.float32),
            tf.raw_ops.TensorListGetItem(input_handle=lst, index=2, element_shape=[3], element_dtype=tf.float32),
            tf.raw_ops.TensorListLength(input_handle=lst),
            tf.raw_ops.TensorListElementShape(input_handle=lst, shape_type=tf.int32))


def _tl_from_tensor(tf, x, y):
    lst = tf.raw_ops.TensorListFromTensor(tensor=x, element_shape=[2])
    lst = tf.raw_ops.TensorListPushBack(input_handle=lst, tensor=y)
    lst, last = tf.raw_ops.TensorListPopBack(input_handle=lst, element_shape=[2], element_dtype=tf.float32)
    lst, prev = tf.raw_ops.TensorListPopBack(input_handle=lst, element_shape=[2], element_dtype=tf.float32)
    lst = tf.raw_ops.TensorListPushBack(input_handle=lst, tensor=prev * y)
    return (last, tf.raw_ops.TensorListGather(input_handle=lst, indices=[2, 0], element_shape=[2],
                                              element_dtype=tf.float32),
            tf.raw_ops.TensorListStack(input_handle=lst, element_shape=[2], element_dtype=tf.float32,
                                       num_elements=3))


def _tl_concat_split(tf, x):
    lst = tf.raw_ops.TensorListSplit(tensor=x, element_shape=[-1, 2], lengths=[2, 2, 2])
    lst = tf.raw_ops.TensorListSetItem(input_handle=lst, index=0, item=x[4:] * 2.0)
    value, lengths = tf.raw_ops.TensorListConcatV2(input_handle=lst, element_shape=[-1, 2], leading_dims=[],
                                                   element_dtype=tf.float32)
    return value, lengths


def _tl_empty_push(tf, x):
    lst = tf.raw_ops.EmptyTensorList(element_shape=[3], max_num_elements=2, element_dtype=tf.float32)
    lst = tf.raw_ops.TensorListPushBack(input_handle=lst, tensor=x[1])
    lst = tf.raw_ops.TensorListPushBack(input_handle=lst, tensor=tf.tanh(x[0]))
    return tf.raw_ops.TensorListStack(input_handle=lst, element_shape=[3], element_dtype=tf.float32,
                                      num_elements=2)


def _tl_while(tf, x):
    lst = tf.raw_ops.TensorListReserve(element_shape=[3], num_elements=4, element_dtype=tf.float32)

    def body(i, lst):
        item = tf.raw_ops.TensorListGetItem(input_handle=lst, index=tf.maximum(i - 1, 0), element_shape=[3],
                                            element_dtype=tf.float32)
        return i + 1, tf.raw_ops.TensorListSetItem(input_handle=lst, index=i, item=tf.gather(x, i) + item * 0.5)

    _, lst = tf.while_loop(lambda i, lst: i < 4, body, (tf.constant(0), lst), maximum_iterations=4)
    return tf.raw_ops.TensorListStack(input_handle=lst, element_shape=[3], element_dtype=tf.float32)


def _tl_gradient(tf, x, y):
    lst = tf.raw_ops.TensorListFromTensor(tensor=x, element_shape=[3])
    lst = tf.raw_ops.TensorListSetItem(input_handle=lst, index=1, item=y * x[0])
    a = tf.raw_ops.TensorListGetItem(input_handle=lst, index=1, element_shape=[3], element_dtype=tf.float32)
    s = tf.raw_ops.TensorListStack(input_handle=lst, element_shape=[3], element_dtype=tf.float32)
    return s * tf.sin(a)


# -- Stack ---------------------------------------------------------------------------------------------------

def _stack(tf, x):
    h = tf.raw_ops.StackV2(max_size=3, elem_type=tf.float32, stack_name="s")
    tf.raw_ops.StackPushV2(handle=h, elem=x[0])
    pushed = tf.raw_ops.StackPushV2(handle=h, elem=x[1] * 2.0)
    a = tf.raw_ops.StackPopV2(handle=h, elem_type=tf.float32)
    tf.raw_ops.StackPushV2(handle=h, elem=x[2])
    b = tf.raw_ops.StackPopV2(handle=h, elem_type=tf.float32)
    c = tf.raw_ops.StackPopV2(handle=h, elem_type=tf.float32)
    tf.raw_ops.StackCloseV2(handle=h)
    return pushed, a, b, c


CASES.update({
    "ta_write_read_gather": (_ta_write_read, [_n(2, 3)], None),
    "ta_unknown_shape": (_ta_unknown_shape, [_n(2, 4)], None),
    "ta_scatter_concat_split": (_ta_scatter_concat, [_n(2, 2, 2), _n(6, 3)], None),
    "ta_grad_array": (_ta_grad_array, [_n(2, 3)], None),
    "ta_while_loop": (_ta_while, [_n(4, 3)], None),
    "tl_reserve_set_get": (_tl_reserve, [_n(2, 3)], None),
    "tl_from_tensor_push_pop": (_tl_from_tensor, [_n(3, 2), _n(2)], None),
    "tl_concat_split": (_tl_concat_split, [_n(6, 2)], None),
    "tl_empty_push_back": (_tl_empty_push, [_n(2, 3)], None),
    "tl_while_loop": (_tl_while, [_n(4, 3)], None),
    "tl_gradient": (_tl_gradient, [_n(3, 3), _n(3)], None),
    "stack_push_pop": (_stack, [_n(3, 2)], None),
    "ta_while_unknown_shape": (_ta_while_unknown_shape, [_n(4, 2)], None),
})
