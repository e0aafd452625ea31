"""The eager fast path: the elementwise ops users chain most run straight on numpy, with one Python
frame between the user's call and the ufunc.

`binary_api`/`unary_api` (frontend/api/core.py builds `tf.add`, `tf.exp`, ... with them) and the
Tensor operators `install_operators` sets check inline that no GradientTape is open and no graph is
being traced in any thread and no trace-event recorder runs (one count: thread_state.OPEN), and that the operands are eager
Tensors of one dtype the op's table takes (or one side a Python number that converts to it
exactly). Then they call the table's function for that dtype -- the numpy ufunc itself where it
equals, bit for bit, the interpreter kernel the general path reaches, else that kernel -- and wrap
the result as `Tensor()` with `_value` and `_dt` alone. Anything else, and every error (numpy's broadcasting
ValueError included), takes the general path (execute.py), which makes TF's errors.

Floating point stays silent as in TF: numpy 2 keeps its error state in a context variable, and the
kernels run inside a private `contextvars.Context` where it is "ignore" (`Context.run` costs ~20 ns,
`np.errstate` ~1 µs), so the user's own numpy calls keep theirs.

Temporaries: when the first operand is a large tensor nobody else holds (`tf.multiply(x ** 2, 3)`,
`(x * 3) + y`), the result is written into its buffer, as numpy's temporary elision does, which
saves the allocation and page faults of a fresh array. The operators and the ops with a Python
number operand check for that; the API functions on two tensors, the hot path of eager loops, do not.
"""

from __future__ import annotations

import contextvars
import opcode
import sys
from math import copysign

import numpy as np
from ml_dtypes import bfloat16

from minixla.backends.interpreter.kernels import elementwise as ew
from minixla.backends.interpreter.ops_elementwise import UNARY
from minixla.frontend.ops.math_ops import SIMPLE_UNARY
from minixla.frontend.tensor import Tensor
from minixla.frontend.thread_state import OPEN

#: the types that hold an eager array in `_value`: tf.Variable adds itself (variables.py), its array
#: read in place (an op's result is always a new array)
EAGER_TYPES: list = [Tensor]
_ndarray = np.ndarray
_asarray = np.asarray
#: the dtype eager loops use most: the ops find its function by identity (~15 ns less than the table)
_F32 = np.dtype(np.float32)
_BOOL_DT = np.dtype(np.bool_)


# -- quiet floating point -----------------------------------------------------------------------

def _errstate_run(fn, *args, **kwargs):
    with np.errstate(all="ignore"):
        return fn(*args, **kwargs)


def _quiet_runner():
    """`quiet(fn, *args)`: fn called with numpy's floating-point errors ignored. A Context is entered
    by one thread at a time: another thread's call meanwhile raises RuntimeError, and the callers
    then run the op under np.errstate (`_retry`) or take the general path."""
    try:
        from numpy._core import _ufunc_config as config

        var, ignore = config._extobj_contextvar, config._make_extobj(all="ignore")
    except (ImportError, AttributeError, TypeError):  # numpy 1: the public (slower) way
        return _errstate_run
    ctx = contextvars.Context()
    ctx.run(var.set, ignore)
    return ctx.run


quiet = _quiet_runner()


# -- the tables: op -> {dtype: numpy function} ----------------------------------------------------

_WIDE = [np.dtype(np.float32), np.dtype(np.float64)]
_NARROW = [np.dtype(np.float16), np.dtype(bfloat16)]
_SIGNED = [np.dtype(t) for t in (np.int8, np.int16, np.int32, np.int64)]
_INTS = _SIGNED + [np.dtype(t) for t in (np.uint8, np.uint16, np.uint32, np.uint64)]
_BOOL = [np.dtype(np.bool_)]


def _on_arrays(kernel, dtype: np.dtype):
    """kernel(a, b) for a kernel that wants arrays (a Python number side converted, exactly)."""
    def call(a, b):
        return kernel(_asarray(a, dtype), _asarray(b, dtype))
    return call


def _ieee_pick(ufunc, kernel, is_max: bool):
    """np.maximum/np.minimum return either operand on a tie of +0.0 and -0.0, the kernel IEEE's
    (max +0.0, min -0.0). The ufunc's result stands when no tie can occur: the second side a
    nonzero scalar (clamping chains), or no zero in the result; max(a, +0.0) (ReLU) only needs its
    zeros made +0.0 (adding +0.0 does that and changes nothing else); else the kernel decides."""
    def pick(a, b):
        r = ufunc(a, b)
        if type(b) is _ndarray:
            if b.ndim:
                s = None
            elif b:  # nonzero or NaN
                return r
            else:
                s = b.item()
        elif b != 0:
            return r
        else:
            s = b
        if s is not None and is_max and copysign(1.0, s) > 0:
            return np.add(r, 0.0, out=r) if type(r) is _ndarray else r + 0.0
        if np.count_nonzero(r) == r.size:
            return r
        return kernel(_asarray(a, r.dtype), _asarray(b, r.dtype))
    return pick


def _power(dtype: np.dtype):
    """Pow on floats: x**2 is x*x (what the kernel computes for a splat 2), else the kernel on
    operands broadcast to the result's shape first, as the general path does (numpy's power
    takes a shortcut for some 0-d exponents: sqrt for 0.5 gives -0.0 for -0.0, pow +0.0)."""
    def power(a, b):
        if type(b) is not _ndarray and b == 2:
            return np.multiply(a, a)
        return ew.power(*np.broadcast_arrays(_asarray(a, dtype), _asarray(b, dtype)))
    return power


def _table(wide=None, narrow=None, ints=None, bools=None, signed=None) -> dict:
    """{dtype: fn}: `narrow` is the kernel for float16/bfloat16, called on arrays."""
    table: dict = {}
    for dts, fn in ((_WIDE, wide), (_INTS, ints), (_SIGNED, signed), (_BOOL, bools)):
        if fn is not None:
            table.update(dict.fromkeys(dts, fn))
    if narrow is not None:
        table.update({dt: _on_arrays(narrow, dt) for dt in _NARROW})
    return table


def _compare(direction: str, ufunc, bools: bool = False) -> dict:
    return _table(ufunc, lambda a, b: ew.compare(a, b, direction), ufunc, ufunc if bools else None)


BINARY_TABLES = {
    "AddV2": _table(np.add, ew.add, np.add),
    "Sub": _table(np.subtract, ew.subtract, np.subtract),
    "Mul": _table(np.multiply, ew.multiply, np.multiply),
    "RealDiv": _table(np.true_divide, ew.divide),
    "Maximum": _table(_ieee_pick(np.maximum, ew.maximum, True), ew.maximum, np.maximum),
    "Minimum": _table(_ieee_pick(np.minimum, ew.minimum, False), ew.minimum, np.minimum),
    "Pow": {dt: _power(dt) for dt in _WIDE + _NARROW},
    "Equal": _compare("EQ", np.equal, bools=True), "NotEqual": _compare("NE", np.not_equal, bools=True),
    "Less": _compare("LT", np.less), "LessEqual": _compare("LE", np.less_equal),
    "Greater": _compare("GT", np.greater), "GreaterEqual": _compare("GE", np.greater_equal),
}

#: Maximum/Minimum against a nonzero 0-d float32/float64 tensor (clamping chains): the bare ufunc
#: (`_ieee_pick`'s first shortcut, without its frame)
CLAMPS = {op: dict.fromkeys(_WIDE, ufunc) for op, ufunc in (("Maximum", np.maximum), ("Minimum", np.minimum))}


def _relu(dtype: np.dtype):
    """Relu's rule is max(0, x): numpy's max with a zero, then +0.0 so that -0.0 gives +0.0 as IEEE's
    max(+0, -0) (integers: the plain max)."""
    zero = np.zeros((), dtype)
    if dtype.kind != "f":
        return lambda a: np.maximum(a, zero)

    def relu(a):
        r = np.maximum(a, zero)
        return np.add(r, zero, out=r) if type(r) is _ndarray else r + zero
    return relu


#: float unary ops that are one hlo op each: their interpreter kernel, on every float dtype
_FLOAT_KERNELS = ("Sqrt", "Rsqrt", "Exp", "Expm1", "Log", "Log1p", "Sin", "Cos", "Tanh", "Floor", "Ceil", "Sigmoid")
#: the ones whose kernel is a numpy computation in float64, rounded once (the interpreter's
#: `_in_double`): on float32 and float64 the same numpy calls without the kernel's generic conversion
#: (exp of 16 floats 3.8 -> 1.0 µs, sigmoid 5.3 -> 2.2)
IN_DOUBLE = {"Sqrt": np.sqrt, "Exp": np.exp, "Expm1": np.expm1, "Log": np.log, "Log1p": np.log1p, "Sin": np.sin,
             "Cos": np.cos, "Tanh": np.tanh, "Rsqrt": lambda w: 1.0 / np.sqrt(w),
             "Sigmoid": lambda w: 1.0 / (1.0 + np.exp(-w))}


def _in_double32(fn):
    def kernel(a):
        return fn(a.astype(np.float64)).astype(np.float32)
    return kernel


UNARY_TABLES = {
    "Neg": {**_table(np.negative, ints=np.negative), **dict.fromkeys(_NARROW, ew.negate)},
    "Abs": {**_table(np.abs, signed=np.abs), **dict.fromkeys(_NARROW, ew.abs_)},
    "Square": {**_table(np.square, ints=np.square),
               **{dt: (lambda a: ew.multiply(a, a)) for dt in _NARROW}},
    "Relu": {dt: _relu(dt) for dt in _WIDE + _SIGNED},
    **{op: dict.fromkeys(_WIDE + _NARROW, UNARY[SIMPLE_UNARY[op]]) for op in _FLOAT_KERNELS},
}
for _op, _fn in IN_DOUBLE.items():
    UNARY_TABLES[_op].update({_F32: _in_double32(_fn), np.dtype(np.float64): _fn})
KERNELS = {**BINARY_TABLES, **UNARY_TABLES}

#: ufuncs whose result has their first operand's dtype: the ones that may write into it
_SAME_DTYPE = frozenset({np.add, np.subtract, np.multiply, np.true_divide, np.maximum, np.minimum, np.negative,
                         np.abs, np.square})


#: numpy 2 converts a Python number to the array's dtype before the op (NEP 50), what TF's conversion
#: does; numpy 1's value-based casting might compute a 0-d float32 op in float64, so it gets arrays
_WEAK_SCALARS = int(np.__version__.split(".")[0]) >= 2


def _exact_scalar(x, dtype: np.dtype) -> bool:
    """Whether Python number `x` converts to `dtype` exactly (TF's conversion would not fail or round)."""
    if type(x) is float:
        return dtype.kind == "f" and dtype.itemsize >= 4 and (abs(x) <= 3.0e38 or x != x)
    if type(x) is int:
        if dtype.kind in "iu":
            info = np.iinfo(dtype)
            return bool(info.min <= x <= info.max)
        return dtype.kind == "f" and dtype.itemsize >= 4 and abs(x) < 2 ** 24
    return False


# -- writing into a temporary ------------------------------------------------------------------------

#: numpy's threshold for eliding temporaries (NPY_MIN_ELIDE_BYTES): below it a fresh array is cheap
_ELIDE_BYTES = 256 * 1024
#: reference counts say who holds an object only on the CPython versions this was checked on
_ELISION = sys.implementation.name == "cpython" and sys.version_info[:2] in ((3, 11), (3, 12), (3, 13))
_BINARY_OP = opcode.opmap.get("BINARY_OP")
_getrefcount = sys.getrefcount


_UNARY = object()  # `_big`'s second operand for a unary op


def _big(fn, x, b, holders: int, operator_depth: int):
    """fn(a, b) (fn(a) when b is _UNARY) for x's large array a: written into a when x is a
    temporary. `holders` counts the caller frames that hold x (none may hold a: the check counts
    a's references exactly, and a reference too many only forgoes the reuse). An operator's left
    operand (`(x * 3) + y`) is also borrowed from the user's stack, one reference more: then, as
    numpy does, the user's frame (`operator_depth` frames up) must be executing that binary
    operator itself, not a call into C code that might still use the object."""
    a = x._value
    if fn in _SAME_DTYPE and _ELISION and type(x) is Tensor and type(a) is _ndarray and a.base is None \
            and a.flags.writeable:
        held = 1 + (x.__dict__.get("_const") is a)  # x's own references to a
        borrowed = 0
        if operator_depth:
            frame = sys._getframe(operator_depth)
            borrowed = int(frame.f_code.co_code[frame.f_lasti] == _BINARY_OP)
        # + 2: this frame's parameter and getrefcount's argument
        if borrowed == bool(operator_depth) and _getrefcount(x) == holders + 2 + borrowed \
                and _getrefcount(a) == held + 2:
            try:
                return quiet(fn, a, out=a) if b is _UNARY else quiet(fn, a, b, out=a)
            except Exception:  # noqa: BLE001 -- b broadcasts past a's shape: a fresh array
                pass
    args = (a,) if b is _UNARY else (a, b)
    try:
        return quiet(fn, *args)
    except RuntimeError:
        return _retry(fn, *args)
    except Exception:  # noqa: BLE001 -- the general path makes the error
        return None


def _retry(fn, *args):
    """fn(*args) under np.errstate, for when the quiet Context was busy in another thread (a
    RuntimeError: it is entered by one thread at a time); None if fn itself fails."""
    try:
        return _errstate_run(fn, *args)
    except Exception:  # noqa: BLE001 -- the general path makes the error
        return None


# -- the ops ------------------------------------------------------------------------------------

def idle() -> bool:
    """No tape or traced graph in any thread (thread_state.OPEN) and no trace-event recorder: eager
    ops need not be recorded or traced."""
    return not OPEN[0]


def try_binary(table: dict, x, y, holders: int = 1, operator_depth: int = 0):
    """The op on x and y through `table`, or None when the general path must take it. `holders`
    and `operator_depth` are `_big`'s, as seen from the caller (the frames above this one)."""
    if not idle():
        return None
    if type(x) in EAGER_TYPES:
        a = x._value
        if a is None:
            return None
        dt = a.dtype
        if type(y) in EAGER_TYPES:
            b = y._value
            if b is None or b.dtype != dt:
                return None
        elif _exact_scalar(y, dt):
            b = y if _WEAK_SCALARS else _asarray(y, dt)
        else:
            return None
    elif type(y) in EAGER_TYPES:
        b = y._value
        if b is None or not _exact_scalar(x, b.dtype):
            return None
        a, dt = x if _WEAK_SCALARS else _asarray(x, b.dtype), b.dtype
    else:
        return None
    fn = table.get(dt)
    if fn is None:
        return None
    if type(x) is Tensor and a.nbytes >= _ELIDE_BYTES:
        del a  # `_big` counts the references to it
        out = _big(fn, x, b, holders + 1, operator_depth + 1 if operator_depth else 0)
    else:
        try:
            out = quiet(fn, a, b)
        except RuntimeError:
            out = _retry(fn, a, b)
        except Exception:  # noqa: BLE001 -- the general path makes the error
            return None
    return None if out is None else wrap(out)


def wrap(out) -> Tensor:
    """An eager Tensor around a fresh kernel result (a 0-d op gives a numpy scalar)."""
    t = Tensor()
    t._value = v = out if type(out) is _ndarray else _asarray(out)
    t._dt = v.dtype
    return t


#: read-only 0-d float32 arrays of the Python numbers seen as operands of float32 ops, by value
#: (ints and floats apart: 2**24 + 1 converts exactly as a float, not as an int). numpy's ufunc takes
#: a Python float in ~460 ns (NEP 50's weak scalars), a 0-d array in ~260. No zeros (0.0 and -0.0
#: are one key) and no NaN (never equal to itself): those take the slower paths.
_FLOATS32: dict = {}
_INTS32: dict = {}
_NUMBERS_MAX = 1024


def _number32(k, x, v, reverse: bool, rdt):
    """k(x, v) (k(v, x) if reverse) for a small float32 tensor x and a Python int or float v, with v
    as a cached 0-d float32 array; None when another path must decide (another dtype, a large x
    whose buffer may be reused, a number not cached)."""
    try:
        if x._dt is not _F32:
            return None
        a = x._value
    except AttributeError:  # a tensor made without `_dt`
        return None
    if a.nbytes >= _ELIDE_BYTES:
        return None
    cache = _FLOATS32 if type(v) is float else _INTS32
    b = cache.get(v)
    if b is None:
        if not v or v != v or not _exact_scalar(v, _F32):
            return None
        if len(cache) >= _NUMBERS_MAX:
            cache.clear()
        b = cache[v] = np.array(v, np.float32)
        b.flags.writeable = False
    try:
        out = quiet(k, b, a) if reverse else quiet(k, a, b)
    except Exception:  # noqa: BLE001 -- the slower paths retry (a busy quiet Context) or make the error
        return None
    t = Tensor()
    t._value = out if type(out) is _ndarray else _asarray(out)
    t._dt = _F32 if rdt is None else rdt
    return t


def binary_api(op: str, general):
    """`general` (the TF API function of binary op `op`) with the fast path in front: two eager
    Tensors of one dtype inline (the hot path of eager loops: no large-temporary test), everything
    else through `try_binary` (which reuses a large temporary against a Python number)."""
    table = BINARY_TABLES[op]
    k32 = table[_F32]
    clamp = CLAMPS.get(op)
    if clamp is not None:
        return _named(_clamping_api(table, clamp, general), general)
    rdt = _BOOL_DT if op in COMPARISONS else None  # the result's dtype: else the operands'
    numbers = isinstance(k32, np.ufunc)  # (not Pow: its x ** 2 shortcut wants the Python number)

    def fn(x, y, name=None):
        if type(x) is Tensor and type(y) is Tensor and not OPEN[0]:
            try:  # a symbolic tensor's None value, a dtype not in the table: to try_binary
                dt = x._dt
                if y._dt is dt:  # (no size test for reusing temporaries: it costs the small ops 3%)
                    out = quiet(k32 if dt is _F32 else table[dt], x._value, y._value)
                    t = Tensor()
                    t._value = out if type(out) is _ndarray else _asarray(out)
                    t._dt = dt if rdt is None else rdt
                    return t
            except Exception:  # noqa: BLE001 -- try_binary fails alike and the general path makes the error
                pass
        elif numbers and (type(y) is float or type(y) is int) and type(x) is Tensor and not OPEN[0]:
            out = _number32(k32, x, y, False, rdt)
            if out is not None:
                return out
        out = try_binary(table, x, y)
        return general(x, y) if out is None else out

    return _named(fn, general)


def _clamping_api(table: dict, clamp: dict, general):
    """binary_api's function for Maximum/Minimum: against a nonzero 0-d tensor (clamping chains) no
    tie of zeros can occur, and the bare ufunc (`clamp`) runs."""
    k32, c32 = table[_F32], clamp[_F32]

    def fn(x, y, name=None):
        if type(x) is Tensor and type(y) is Tensor and not OPEN[0]:
            a = x._value
            b = y._value
            try:  # a symbolic tensor's None value, a dtype not in the table: to try_binary
                dt = x._dt
                if y._dt is dt:
                    if dt is _F32:
                        k = k32 if b.ndim or not b else c32
                    else:
                        k = table[dt]
                        if not b.ndim and b:
                            k = clamp.get(dt, k)
                    out = quiet(k, a, b)
                    t = Tensor()
                    t._value = out if type(out) is _ndarray else _asarray(out)
                    t._dt = dt
                    return t
            except Exception:  # noqa: BLE001 -- try_binary fails alike and the general path makes the error
                pass
            a = None  # `_big` counts the references to x's array
        elif (type(y) is float or type(y) is int) and type(x) is Tensor and not OPEN[0]:
            out = _number32(c32, x, y, False, None)  # (a cached number is nonzero: no zero tie)
            if out is not None:
                return out
        out = try_binary(table, x, y)
        return general(x, y) if out is None else out

    return fn


def _named(fn, general):
    fn.__name__ = fn.__qualname__ = general.__name__
    fn.__doc__ = general.__doc__
    fn.general = general
    return fn


def unary_api(op: str, general):
    """`general` (the TF API function of unary op `op`) with the fast path in front."""
    table = UNARY_TABLES[op]

    def fn(x, name=None):
        if (type(x) is Tensor or type(x) in EAGER_TYPES) and not OPEN[0]:
            a = x._value
            k = table.get(a.dtype) if a is not None else None
            if k is not None:
                if a.nbytes < _ELIDE_BYTES:
                    try:
                        out = quiet(k, a)
                    except RuntimeError:
                        out = _retry(k, a)
                    except Exception:  # noqa: BLE001 -- the general path makes the error
                        out = None
                else:
                    del a  # `_big` counts the references to it
                    out = _big(k, x, _UNARY, 1, 0)
                if out is not None:
                    t = Tensor()
                    t._value = v = out if type(out) is _ndarray else _asarray(out)
                    t._dt = v.dtype
                    return t
        return general(x)

    return _named(fn, general)


def run(name: str, inputs) -> Tensor | None:
    """`execute`'s fast path for op `name` (callers other than the API functions): the result or None."""
    if name in UNARY_TABLES:
        (x,) = inputs
        if type(x) is not Tensor or not idle() or x._value is None:
            return None
        fn = UNARY_TABLES[name].get(x._value.dtype)
        if fn is None:
            return None
        try:
            return wrap(quiet(fn, x._value))
        except Exception:  # noqa: BLE001 -- the general path makes the error
            return None
    return try_binary(BINARY_TABLES[name], *inputs)


# -- Tensor's operators ---------------------------------------------------------------------------

def _operator(op: str, general, reverse: bool):
    table = BINARY_TABLES[op]
    k32 = table[_F32]
    rdt = _BOOL_DT if op in COMPARISONS else None  # the result's dtype: else the operands'
    numbers = isinstance(k32, np.ufunc)  # (not Pow: its x ** 2 shortcut wants the Python number)
    if reverse:
        def method(self, other):
            if numbers and (type(other) is float or type(other) is int) and type(self) is Tensor and not OPEN[0]:
                out = _number32(k32, self, other, True, rdt)
                if out is not None:
                    return out
            out = try_binary(table, other, self, 1, 2)
            return general(other, self) if out is None else out
        return method

    def method(self, other):  # noqa: F811 -- one of the two
        if type(other) is Tensor and type(self) is Tensor and not OPEN[0]:
            a, b = self._value, other._value
            try:  # a symbolic tensor's None value, a dtype not in the table: to try_binary
                dt = self._dt
                if other._dt is dt and a.nbytes < _ELIDE_BYTES:
                    out = quiet(k32 if dt is _F32 else table[dt], a, b)
                    t = Tensor()
                    t._value = out if type(out) is _ndarray else _asarray(out)
                    t._dt = dt if rdt is None else rdt
                    return t
            except Exception:  # noqa: BLE001 -- try_binary fails alike and the general path makes the error
                pass
            a = None  # `_big` counts the references to x's array
        elif numbers and (type(other) is float or type(other) is int) and type(self) is Tensor and not OPEN[0]:
            out = _number32(k32, self, other, False, rdt)
            if out is not None:
                return out
        out = try_binary(table, self, other, 1, 2)
        return general(self, other) if out is None else out
    return method


#: Tensor operator -> (op, the API function behind it)
OPERATORS = {"add": ("AddV2", "add"), "sub": ("Sub", "subtract"), "mul": ("Mul", "multiply"),
             "truediv": ("RealDiv", "truediv"), "pow": ("Pow", "pow")}
#: the binary ops whose result is bool (the others' has their operands' dtype)
COMPARISONS = frozenset({"Equal", "NotEqual", "Less", "LessEqual", "Greater", "GreaterEqual"})
COMPARISON_OPERATORS = {"lt": ("Less", "less"), "le": ("LessEqual", "less_equal"), "gt": ("Greater", "greater"),
                        "ge": ("GreaterEqual", "greater_equal")}


def install_operators(api) -> None:
    """Tensor's arithmetic operators with the fast path in front of `api`'s functions (their
    general path: `truediv` casts integers, `pow` converts)."""
    def general(name: str):
        fn = getattr(api, name)
        return getattr(fn, "general", fn)

    for dunder, (op, name) in OPERATORS.items():
        setattr(Tensor, f"__{dunder}__", _operator(op, general(name), False))
        setattr(Tensor, f"__r{dunder}__", _operator(op, general(name), True))
    for dunder, (op, name) in COMPARISON_OPERATORS.items():
        setattr(Tensor, f"__{dunder}__", _operator(op, general(name), False))
    Tensor.__neg__ = api.negative  # a function as a method: `-t` is negative(t), one frame
    Tensor.__abs__ = api.abs
