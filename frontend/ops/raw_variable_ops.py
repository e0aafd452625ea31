"""Resource-variable raw ops in their functional form (as tf2xla compiles them: read the resource,
compute, write the resource back): ReadVariableOp, Assign*VariableOp, ResourceGather, ResourceScatter*,
ResourceStridedSliceAssign and the ResourceApply* optimizer updates.

Each rule takes the variables' current *values* where TF takes their handles and returns their new
values, in the order of `WRITES[name]`; frontend/api/raw_state_variables.py unwraps the handles, runs the
op through `execute` (so eager, tf.function and jit_compile=True share it) and assigns the results.
The optimizer formulas are TF's training_ops kernels (tf2xla's training_ops.cc).
"""

from __future__ import annotations

import numpy as np

from minixla.frontend.ops import creation_ops, index_ops, raw_array_ops, scatter_combine_ops, scatter_matrix_ops
from minixla.frontend.ops.registry import op_error, register, shape_text
from minixla.frontend.ops.scatter_matrix_ops import _scatter_nd

#: op -> the inputs that are resource handles whose variables the op writes (the rule's results, in order)
WRITES: dict[str, tuple[str, ...]] = {}
#: op -> the resource inputs it only reads
READS: dict[str, tuple[str, ...]] = {"ReadVariableOp": ("resource",), "ResourceGather": ("resource",),
                                     "VariableShape": ("input",), "VarIsInitializedOp": ("resource",)}


class _E:
    """An elementwise expression on builder values: operators broadcast scalars (hyperparameters, Python
    numbers) to the variable's shape, so the update formulas read as TF's kernels write them."""

    def __init__(self, b, v, shape, dtype):
        self.b, self.v, self.shape, self.dtype = b, v, tuple(shape), dtype

    def _lift(self, x):
        if isinstance(x, _E):
            x = x.v
        if not hasattr(x, "shape"):
            return self.b.full(self.shape, x, self.dtype)
        return x if tuple(x.shape) == self.shape else self.b.broadcast_to(x, self.shape)

    def _bin(self, op, x, swap=False):
        a, c = self.v, self._lift(x)
        return _E(self.b, getattr(self.b, op)(*((c, a) if swap else (a, c))), self.shape, self.dtype)

    def __add__(self, x):
        return self._bin("add", x)

    __radd__ = __add__

    def __sub__(self, x):
        return self._bin("subtract", x)

    def __rsub__(self, x):
        return self._bin("subtract", x, swap=True)

    def __mul__(self, x):
        return self._bin("multiply", x)

    __rmul__ = __mul__

    def __truediv__(self, x):
        return self._bin("divide", x)

    def __rtruediv__(self, x):
        return self._bin("divide", x, swap=True)

    def __neg__(self):
        return _E(self.b, self.b.negate(self.v), self.shape, self.dtype)

    def un(self, op):
        return _E(self.b, getattr(self.b, op)(self.v), self.shape, self.dtype)

    def maximum(self, x):
        return self._bin("maximum", x)

    def pow(self, x):
        return self._bin("power", x)

    def gt(self, x):
        return self.b.compare(self.v, self._lift(x), "GT")


def _exprs(b, var, *xs):
    """Every input as an expression of the variable's shape and type (AdagradDA's int64 step converted)."""
    out = []
    for x in (var, *xs):
        if np.dtype(x.dtype) != np.dtype(var.dtype):
            x = b.convert(x, var.dtype)
        out.append(_E(b, x if tuple(x.shape) == tuple(var.shape) else b.broadcast_to(x, var.shape), var.shape,
                      var.dtype))
    return out


def _check_same(op, var, *others):
    for name, x in others:
        if tuple(x.shape) != tuple(var.shape):
            raise op_error(op, f"var and {name} do not have the same shape{shape_text(var.shape)} "
                               f"{shape_text(x.shape)}")


def _optimizer(name, inputs, writes, attrs=None, typed=None):
    """Register ResourceApply<name>: `fn(b, *inputs as _E, **attrs)` returns the new values of `writes`."""
    def decorate(fn):
        def rule(b, *vals, use_locking=False, **kw):
            var = vals[0]
            _check_same(name, var, *[(n, v) for n, v in zip(inputs[1:len(writes)], vals[1:len(writes)])])
            grad = vals[inputs.index("grad")] if "grad" in inputs else vals[inputs.index("delta")]
            _check_same(name, var, ("grad", grad))
            for n, v in zip(inputs, vals):
                if n not in writes and n not in ("grad", "delta") and tuple(v.shape) != ():
                    raise op_error(name, f"{n} is not a scalar: {shape_text(v.shape)}")
            return tuple(e.v for e in fn(*_exprs(b, *vals), **kw))

        op = f"ResourceApply{name}"
        register(op, inputs, rule, attrs={"use_locking": False, **(attrs or {})}, typed=typed)
        WRITES[op] = writes
        return fn

    return decorate


@_optimizer("GradientDescent", ("var", "alpha", "delta"), ("var",))
def _gd(var, alpha, delta):
    return (var - alpha * delta,)


def _shrink(prox, lr_l1, lr_l2):
    """sign(prox) * max(|prox| - lr*l1, 0) / (1 + lr*l2): the proximal (l1/l2) step."""
    return (prox.un("sign") * (prox.un("abs") - lr_l1).maximum(0.0)) / (1.0 + lr_l2)


@_optimizer("ProximalGradientDescent", ("var", "alpha", "l1", "l2", "delta"), ("var",))
def _proximal_gd(var, alpha, l1, l2, delta):
    return (_shrink(var - alpha * delta, alpha * l1, alpha * l2),)


@_optimizer("Momentum", ("var", "accum", "lr", "grad", "momentum"), ("var", "accum"), {"use_nesterov": False})
def _momentum(var, accum, lr, grad, momentum, use_nesterov=False):
    accum = accum * momentum + grad
    return (var - (grad * lr + accum * momentum * lr) if use_nesterov else var - accum * lr), accum


@_optimizer("KerasMomentum", ("var", "accum", "lr", "grad", "momentum"), ("var", "accum"), {"use_nesterov": False})
def _keras_momentum(var, accum, lr, grad, momentum, use_nesterov=False):
    accum = accum * momentum - grad * lr
    return (var + (accum * momentum - grad * lr) if use_nesterov else var + accum), accum


@_optimizer("Adagrad", ("var", "accum", "lr", "grad"), ("var", "accum"), {"update_slots": True})
def _adagrad(var, accum, lr, grad, update_slots=True):
    if update_slots:
        accum = accum + grad * grad
    return var - lr * grad * accum.un("rsqrt"), accum


@_optimizer("AdagradV2", ("var", "accum", "lr", "epsilon", "grad"), ("var", "accum"), {"update_slots": True})
def _adagrad_v2(var, accum, lr, epsilon, grad, update_slots=True):
    if update_slots:
        accum = accum + grad * grad
    return var - lr * grad / (accum.un("sqrt") + epsilon), accum


@_optimizer("ProximalAdagrad", ("var", "accum", "lr", "l1", "l2", "grad"), ("var", "accum"))
def _proximal_adagrad(var, accum, lr, l1, l2, grad):
    accum = accum + grad * grad
    rate = lr * accum.un("rsqrt")
    return _shrink(var - grad * rate, rate * l1, rate * l2), accum


@_optimizer("AdagradDA", ("var", "gradient_accumulator", "gradient_squared_accumulator", "grad", "lr", "l1", "l2",
                          "global_step"), ("var", "gradient_accumulator", "gradient_squared_accumulator"),
            typed=("var", "gradient_accumulator", "gradient_squared_accumulator", "grad", "lr", "l1", "l2"))
def _adagrad_da(var, acc, sq, grad, lr, l1, l2, step):
    acc, sq = acc + grad, sq + grad * grad
    shrunk = acc.un("sign") * (acc.un("abs") - l1 * step).maximum(0.0)
    return -1.0 * shrunk * lr / (l2 * step * lr + sq.un("sqrt")), acc, sq


@_optimizer("Adam", ("var", "m", "v", "beta1_power", "beta2_power", "lr", "beta1", "beta2", "epsilon", "grad"),
            ("var", "m", "v"), {"use_nesterov": False})
def _adam(var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad, use_nesterov=False):
    alpha = lr * (1.0 - beta2_power).un("sqrt") / (1.0 - beta1_power)
    m = m + (grad - m) * (1.0 - beta1)
    v = v + (grad * grad - v) * (1.0 - beta2)
    step = (grad * (1.0 - beta1) + beta1 * m) if use_nesterov else m
    return var - step * alpha / (v.un("sqrt") + epsilon), m, v


@_optimizer("AdaMax", ("var", "m", "v", "beta1_power", "lr", "beta1", "beta2", "epsilon", "grad"), ("var", "m", "v"))
def _adamax(var, m, v, beta1_power, lr, beta1, beta2, epsilon, grad):
    m = m + (grad - m) * (1.0 - beta1)
    v = (beta2 * v).maximum(grad.un("abs"))
    return var - lr / (1.0 - beta1_power) * (m / (v + epsilon)), m, v


@_optimizer("Adadelta", ("var", "accum", "accum_update", "lr", "rho", "epsilon", "grad"),
            ("var", "accum", "accum_update"))
def _adadelta(var, accum, accum_update, lr, rho, epsilon, grad):
    accum = accum * rho + grad * grad * (1.0 - rho)
    update = (accum_update + epsilon).un("sqrt") * (accum + epsilon).un("rsqrt") * grad
    accum_update = accum_update * rho + update * update * (1.0 - rho)
    return var - update * lr, accum, accum_update


@_optimizer("AddSign", ("var", "m", "lr", "alpha", "sign_decay", "beta", "grad"), ("var", "m"))
def _add_sign(var, m, lr, alpha, sign_decay, beta, grad):
    m = m * beta + grad * (1.0 - beta)
    sign_gm = grad.un("sign") * m.un("sign")
    return var - lr * (alpha + sign_decay * sign_gm) * grad, m


@_optimizer("PowerSign", ("var", "m", "lr", "logbase", "sign_decay", "beta", "grad"), ("var", "m"))
def _power_sign(var, m, lr, logbase, sign_decay, beta, grad):
    m = m * beta + grad * (1.0 - beta)
    sign_gm = grad.un("sign") * m.un("sign")
    return var - lr * (logbase * sign_decay * sign_gm).un("exponential") * grad, m


@_optimizer("RMSProp", ("var", "ms", "mom", "lr", "rho", "momentum", "epsilon", "grad"), ("var", "ms", "mom"))
def _rms_prop(var, ms, mom, lr, rho, momentum, epsilon, grad):
    ms = ms + (grad * grad - ms) * (1.0 - rho)
    mom = mom * momentum + lr * grad * (ms + epsilon).un("rsqrt")
    return var - mom, ms, mom


@_optimizer("CenteredRMSProp", ("var", "mg", "ms", "mom", "lr", "rho", "momentum", "epsilon", "grad"),
            ("var", "mg", "ms", "mom"))
def _centered_rms_prop(var, mg, ms, mom, lr, rho, momentum, epsilon, grad):
    ms = ms + (grad * grad - ms) * (1.0 - rho)
    mg = mg + (grad - mg) * (1.0 - rho)
    mom = mom * momentum + lr * grad * (ms - mg * mg + epsilon).un("rsqrt")
    return var - mom, mg, ms, mom


def _ftrl(var, accum, linear, grad, lr, l1, l2, lr_power, shrinkage=None, multiply_linear_by_lr=False):
    """TF's FTRL-proximal step (ApplyFtrl / ApplyFtrlV2 with l2 shrinkage)."""
    new_accum = accum + grad * grad
    g = grad if shrinkage is None else grad + 2.0 * shrinkage * var
    sigma = new_accum.pow(-lr_power) - accum.pow(-lr_power)
    if multiply_linear_by_lr:
        linear = linear + g * lr - sigma * var
        x, y = l1 * lr * linear.un("sign") - linear, new_accum.pow(-lr_power) + 2.0 * l2 * lr
        keep = linear.un("abs").gt(l1 * lr)
    else:
        linear = linear + g - sigma / lr * var
        x, y = l1 * linear.un("sign") - linear, new_accum.pow(-lr_power) / lr + 2.0 * l2
        keep = linear.un("abs").gt(l1)
    zero = var.b.full(var.shape, 0.0, var.dtype)
    return _E(var.b, var.b.select(keep, (x / y).v, zero), var.shape, var.dtype), new_accum, linear


@_optimizer("Ftrl", ("var", "accum", "linear", "grad", "lr", "l1", "l2", "lr_power"), ("var", "accum", "linear"),
            {"multiply_linear_by_lr": False})
def _ftrl_v1(var, accum, linear, grad, lr, l1, l2, lr_power, multiply_linear_by_lr=False):
    return _ftrl(var, accum, linear, grad, lr, l1, l2, lr_power, None, multiply_linear_by_lr)


@_optimizer("FtrlV2", ("var", "accum", "linear", "grad", "lr", "l1", "l2", "l2_shrinkage", "lr_power"),
            ("var", "accum", "linear"), {"multiply_linear_by_lr": False})
def _ftrl_v2(var, accum, linear, grad, lr, l1, l2, l2_shrinkage, lr_power, multiply_linear_by_lr=False):
    return _ftrl(var, accum, linear, grad, lr, l1, l2, lr_power, l2_shrinkage, multiply_linear_by_lr)


# -- reads, assignments, scatters ---------------------------------------------------------------------------

def _assign(op, combine):
    def rule(b, resource, value, dtype=None, validate_shape=False):
        if tuple(value.shape) != tuple(resource.shape):
            raise op_error(op, f"Cannot update variable with shape {shape_text(resource.shape)} using a Tensor "
                               f"with shape {shape_text(value.shape)}, shapes must be equal.")
        return combine(b, resource, value)

    register(op, ("resource", "value"), rule, attrs={"dtype": None, "validate_shape": False})
    WRITES[op] = ("resource",)


_assign("AssignVariableOp", lambda b, r, v: v)
_assign("AssignAddVariableOp", lambda b, r, v: b.add(r, v))
_assign("AssignSubVariableOp", lambda b, r, v: b.subtract(r, v))

register("ReadVariableOp", ("resource",), lambda b, resource, dtype=None: creation_ops.identity(b, resource),
         attrs={"dtype": None})
register("VariableShape", ("input",), lambda b, input, out_type=np.int32: b.constant(
    np.array(input.shape, np.dtype(getattr(out_type, "as_numpy_dtype", out_type)))), attrs={"out_type": np.int32})
# a minixla variable always holds a value (tf.Variable requires an initial value): true, a constant
register("VarIsInitializedOp", ("resource",), lambda b, resource: b.constant(np.array(True)))
register("ResourceGather", ("resource", "indices"), lambda b, resource, indices, batch_dims=0, validate_indices=True,
         dtype=None: index_ops.gather_v2(b, resource, indices, np.int32(batch_dims), batch_dims),
         attrs={"batch_dims": 0, "validate_indices": True, "dtype": None}, typed=("resource",))


def _scatter(op, combiner):
    """ResourceScatter<op>: var[indices[i], ...] <combiner>= updates[i, ...] (updates may be a scalar)."""
    def rule(b, resource, indices, updates):
        want = tuple(indices.shape) + tuple(resource.shape[1:])
        if tuple(updates.shape) == () and want:
            updates = b.broadcast_to(updates, want)
        if tuple(updates.shape) != want:
            raise op_error(f"ResourceScatter{op}", f"updates.shape {shape_text(updates.shape)} != indices.shape "
                                                   f"{shape_text(indices.shape)} + params.shape[1:] "
                                                   f"{shape_text(resource.shape[1:])}")
        index_ops._check_range(f"ResourceScatter{op}", indices, resource.shape[0])
        idx = b.reshape(indices, list(indices.shape) + [1])
        if op == "Sub":
            updates = b.negate(updates)
        elif op == "Div":  # x / u1 / u2 ... as x / (u1 * u2) (also for integers): the divisors multiplied first
            ones = b.full(resource.shape, 1, resource.dtype)
            return b.divide(resource, _scatter_nd(b, "ResourceScatterDiv", ones, idx, updates, "multiply"))
        return _scatter_nd(b, f"ResourceScatter{op}", resource, idx, updates, combiner)

    register(f"ResourceScatter{op}", ("resource", "indices", "updates"), rule, typed=("resource", "updates"))
    WRITES[f"ResourceScatter{op}"] = ("resource",)


for _op, _comb in (("Add", "add"), ("Sub", "add"), ("Mul", "multiply"), ("Div", "multiply"), ("Min", "minimum"),
                   ("Max", "maximum"), ("Update", "replace")):
    _scatter(_op, _comb)

for _op, _rule in (("Add", scatter_matrix_ops.tensor_scatter_add), ("Sub", scatter_combine_ops.tensor_scatter_sub),
                   ("Update", scatter_matrix_ops.tensor_scatter_update)):
    register(f"ResourceScatterNd{_op}", ("ref", "indices", "updates"),
             (lambda r: lambda b, ref, indices, updates, use_locking=True: r(b, ref, indices, updates))(_rule),
             attrs={"use_locking": True}, typed=("ref", "updates"))
    WRITES[f"ResourceScatterNd{_op}"] = ("ref",)

register("ResourceStridedSliceAssign", ("ref", "begin", "end", "strides", "value"),
         raw_array_ops.tensor_strided_slice_update,
         attrs={"begin_mask": 0, "end_mask": 0, "ellipsis_mask": 0, "new_axis_mask": 0, "shrink_axis_mask": 0},
         const_inputs=("begin", "end", "strides"), typed=("ref", "value"))
WRITES["ResourceStridedSliceAssign"] = ("ref",)
