"""Random well-typed hlo programs for the differential fuzzer (tools/fuzz.py).

Programs are built through the frontend's HLO builder, whose shape checks make
every program well typed: 1-3 arguments of random shapes (0- and 1-sized dims
included) and dtypes (every float, signed/unsigned integer width and i1), then
a chain of random ops over a pool of earlier values, then 1-2 outputs.

Every op draws all its random choices *before* building: region bodies
(`while`, `if`, `case`) are called more than once by the builder (type
inference, then emission), so they must be deterministic closures. Ops whose
result StableHLO leaves undefined are steered clear of (float->int converts
are clamped into range and NaN-free first, `sort` sees no NaN, `scatter` with
`replace` gets unique indices); everything with a defined result is fair game
(integer division by zero, over-wide shifts, out-of-range gather and dynamic
slice starts, which clamp, and out-of-range scatter windows, which are skipped).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import ml_dtypes
import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import FunctionType, ModuleOp
from xdsl.ir import Block, Region
from xdsl.printer import Printer

from minixla.frontend.builder import Spec
from minixla.frontend.builder_trace import TracingBuilder

BF16 = np.dtype(ml_dtypes.bfloat16)
FLOATS = [np.dtype(np.float32), np.dtype(np.float64), np.dtype(np.float16), BF16]
INTS = [np.dtype(t) for t in (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64)]
BOOL = np.dtype(bool)
# f32, i32, i1 drawn most; every other width sometimes
DTYPES = FLOATS[:1] * 4 + FLOATS[1:] + [np.dtype(np.int32)] * 3 + INTS + [BOOL] * 2
DIMS = [0, 1, 1, 2, 3, 3, 4, 5]
FLOAT_UNARY = ["abs", "negate", "exponential", "log", "sqrt", "tanh", "floor", "ceil", "sign", "logistic", "sine",
               "cosine", "rsqrt", "log_plus_one", "exponential_minus_one", "round_nearest_even"]
INT_UNARY = ["abs", "negate", "sign", "not"]
UINT_UNARY = ["negate", "not"]
FLOAT_BINARY = ["add", "subtract", "multiply", "divide", "maximum", "minimum", "power", "atan2", "remainder"]
INT_BINARY = ["add", "subtract", "multiply", "maximum", "minimum", "and", "or", "xor", "divide", "remainder",
              "power", "shift_left", "shift_right_arithmetic", "shift_right_logical"]
BOOL_BINARY = ["and", "or", "xor", "maximum", "minimum", "add", "multiply"]
OPS = ["unary", "binary", "binary", "compare_select", "clamp", "convert", "bitcast", "broadcast", "reshape",
       "transpose", "slice", "reverse", "pad", "concatenate", "reduce", "reduce_window", "dot", "iota", "gather",
       "scatter", "convolution", "dynamic_slice", "dynamic_update_slice", "sort", "while", "if", "case"]


def kind(dt: np.dtype) -> str:
    dt = np.dtype(dt)
    return "bool" if dt == BOOL else "float" if dt.kind == "f" or dt == BF16 else "uint" if dt.kind == "u" else "int"


def unary_names(dt) -> list[str]:
    return {"float": FLOAT_UNARY, "int": INT_UNARY, "uint": UINT_UNARY, "bool": ["not"]}[kind(dt)]


def binary_names(dt) -> list[str]:
    k = kind(dt)
    return FLOAT_BINARY if k == "float" else BOOL_BINARY if k == "bool" else INT_BINARY


@dataclass
class Program:
    """A random program: its module (entry @main), argument specs and the ops drawn."""

    module: ModuleOp
    args: list[Spec]
    seed: int
    ops: list[str] = field(default_factory=list)

    def text(self) -> str:
        from io import StringIO

        out = StringIO()
        Printer(stream=out).print_op(self.module)
        return out.getvalue()


class Generator:
    """Random op chains over a pool of values (each step reads earlier values)."""

    def __init__(self, rng: np.random.Generator, n_ops: int):
        self.rng, self.n_ops = rng, n_ops
        self.n_args = 0

    # ---- random helpers ---------------------------------------------------
    def int_(self, lo: int, hi: int) -> int:
        """Uniform in [lo, hi] (inclusive)."""
        return int(self.rng.integers(lo, hi + 1))

    def choice(self, items: list):
        return items[int(self.rng.integers(len(items)))]

    def shape(self, max_rank: int = 3) -> tuple[int, ...]:
        return tuple(self.choice(DIMS) for _ in range(self.int_(0, max_rank)))

    def pick(self, pool: list, pred: Callable = lambda v: True):
        choices = [v for v in pool if pred(v)]
        return self.choice(choices) if choices else None

    def constant(self, b, shape, dt):
        """A random constant (small values, like the inputs)."""
        k = kind(dt)
        if k == "bool":
            a = self.rng.random(shape) < 0.5
        elif k in ("int", "uint"):
            a = self.rng.integers(0 if k == "uint" else -5, 6, shape)
        else:
            a = np.round(self.rng.standard_normal(shape) * 2, 2)
        return b.constant(np.asarray(a).astype(dt))

    def elementwise(self, dt) -> Callable:
        """A deterministic type-preserving function `f(b, x)` of one or two random elementwise ops."""
        steps = [(self.choice(["unary", "binary", "binary"]), self.choice(unary_names(dt)),
                  self.choice(binary_names(dt)), float(self.choice([0.5, 1, 2, -1]))) for _ in range(self.int_(1, 2))]

        def f(b, x):
            for what, un, bi, c in steps:
                if what == "unary":
                    x = b.unary(un, x)
                else:
                    value = {"float": c, "int": int(c), "uint": int(abs(c)), "bool": c > 0}[kind(dt)]
                    other = b.full(tuple(x.shape), value, dt)
                    x = b.binary(bi, x, other)
            return x

        return f

    def scalar_of(self, b, x, to=None):
        """A scalar read from `x`'s first element (a constant when `x` is empty), converted to `to`."""
        to = np.dtype(to or x.dtype)
        if int(np.prod(x.shape)) == 0:
            return b.scalar(self.int_(-1, 3) if kind(to) != "bool" else True, to)
        flat = b.reshape(x, (int(np.prod(x.shape)),))
        first = b.reshape(b.slice(flat, [0], [1]), ())
        if kind(x.dtype) == "float" and kind(to) in ("int", "uint"):
            first = self.in_range(b, first, to)
        return b.convert(first, to)

    def in_range(self, b, x, to):
        """`x` (float) clamped into the range `to` (an integer type) represents, NaN -> 0."""
        info = np.iinfo(to)
        lo, hi = max(int(info.min), -100), min(int(info.max), 100)
        shape, dt = tuple(x.shape), np.dtype(x.dtype)
        x = b.clamp(b.full(shape, lo, dt), x, b.full(shape, hi, dt))
        return b.select(b.compare(x, x, "EQ"), x, b.full(shape, 0, dt))

    def no_nan(self, b, x):
        if kind(x.dtype) != "float":
            return x
        return b.select(b.compare(x, x, "EQ"), x, b.full(tuple(x.shape), 0, np.dtype(x.dtype)))

    # ---- one op -------------------------------------------------------------
    def step(self, b: TracingBuilder, pool: list) -> tuple[str, object] | None:
        """One random op on values of `pool` (None when the drawn op does not fit)."""
        op = self.choice(OPS)
        x = self.pick(pool)
        return getattr(self, "op_" + op)(b, pool, x, np.dtype(x.dtype), tuple(x.shape))

    def op_unary(self, b, pool, x, dt, shape):
        name = self.choice(unary_names(dt))
        return name, b.unary(name, x)

    def op_binary(self, b, pool, x, dt, shape):
        y = self.pick(pool, lambda v: tuple(v.shape) == shape and np.dtype(v.dtype) == dt)
        name = self.choice(binary_names(dt))
        if name.startswith("shift") and self.rng.random() < 0.5:  # shift counts near and past the bit width
            bits = dt.itemsize * 8
            y = b.full(shape, self.choice([0, 1, bits - 1, bits, bits + 3]), dt)
        return name, b.binary(name, x, y)

    def op_compare_select(self, b, pool, x, dt, shape):
        y = self.pick(pool, lambda v: tuple(v.shape) == shape and np.dtype(v.dtype) == dt)
        pred = b.compare(x, y, self.choice(["EQ", "NE", "LT", "LE", "GT", "GE"]))
        if shape and self.rng.random() < 0.3:  # a scalar predicate
            pred = self.scalar_of(b, pred)
        return "select", b.select(pred, x, y)

    def op_clamp(self, b, pool, x, dt, shape):
        if kind(dt) == "bool":
            return None
        lo, hi = (self.int_(-3, 0), self.int_(1, 4)) if kind(dt) != "uint" else (self.int_(0, 3), self.int_(3, 9))
        bounds_shape = () if self.rng.random() < 0.5 else shape
        return "clamp", b.clamp(b.full(bounds_shape, lo, dt), x, b.full(bounds_shape, hi, dt))

    def op_convert(self, b, pool, x, dt, shape):
        to = self.choice(DTYPES)
        if kind(dt) == "float" and kind(to) in ("int", "uint"):
            x = self.in_range(b, x, to)  # defined results only
        return "convert", b.convert(x, to)

    def op_bitcast(self, b, pool, x, dt, shape):
        same = [t for t in FLOATS + INTS if t.itemsize == dt.itemsize and t != dt and dt != BOOL]
        if not same or kind(dt) == "float" and not any(x is a for a in pool[:self.n_args]):
            # float bits are compared exactly once they are integers: only from exact (argument) floats
            return None
        return "bitcast_convert", b.bitcast_convert(x, self.choice(same))

    def op_broadcast(self, b, pool, x, dt, shape):
        if len(shape) >= 3:
            return None
        # size-1 dims may grow (numpy-style broadcasting); a new leading dim is added
        out = [self.choice([1, 2, 3]) if d == 1 and self.rng.random() < 0.5 else d for d in shape]
        return "broadcast_in_dim", b.broadcast_in_dim(x, (self.choice([1, 2, 3]), *out), list(range(1, len(shape) + 1)))

    def op_reshape(self, b, pool, x, dt, shape):
        size = int(np.prod(shape)) if shape else 1
        options = [(size,), (1, size), (size, 1, 1)] + ([(size // 2, 2)] if size % 2 == 0 and size else [])
        if size == 1:
            options.append(())
        return "reshape", b.reshape(x, self.choice(options))

    def op_transpose(self, b, pool, x, dt, shape):
        if len(shape) < 2:
            return None
        return "transpose", b.transpose(x, [int(i) for i in self.rng.permutation(len(shape))])

    def op_slice(self, b, pool, x, dt, shape):
        if not shape:
            return None
        start = [self.int_(0, d) for d in shape]
        limit = [self.int_(s, d) for s, d in zip(start, shape)]
        return "slice", b.slice(x, start, limit, [self.int_(1, 2) for _ in shape])

    def op_reverse(self, b, pool, x, dt, shape):
        if not shape:
            return None
        return "reverse", b.reverse(x, sorted({self.int_(0, len(shape) - 1) for _ in range(self.int_(1, 2))}))

    def op_pad(self, b, pool, x, dt, shape):
        if not shape:
            return None
        low = [self.int_(-1, 1) if d > 1 else self.int_(0, 1) for d in shape]
        high = [self.int_(0, 1) for _ in shape]
        interior = [self.int_(0, 1) for _ in shape]
        return "pad", b.pad(x, self.constant(b, (), dt), low, high, interior)

    def op_concatenate(self, b, pool, x, dt, shape):
        if not shape:
            return None
        dim = self.int_(0, len(shape) - 1)
        y = self.pick(pool, lambda v: np.dtype(v.dtype) == dt and len(v.shape) == len(shape)
                      and all(a == c for i, (a, c) in enumerate(zip(v.shape, shape)) if i != dim))
        return "concatenate", b.concatenate([x, y], dim)

    def _reduction(self, dt):
        k = kind(dt)
        combiner = self.choice(["and", "or", "xor"] if k == "bool" else ["add", "maximum", "minimum", "multiply"])
        if k == "float":
            init = {"add": 0, "multiply": 1, "maximum": -np.inf, "minimum": np.inf}[combiner]
        elif k == "bool":
            init = combiner == "and"
        else:
            info = np.iinfo(dt)
            init = {"add": 0, "multiply": 1, "maximum": int(info.min), "minimum": int(info.max)}[combiner]
        if self.rng.random() < 0.2 and k != "bool":
            init = 1  # a non-identity init is legal and must be applied exactly once per output element
        return combiner, init

    def op_reduce(self, b, pool, x, dt, shape):
        if not shape:
            return None
        dims = sorted({self.int_(0, len(shape) - 1) for _ in range(self.int_(1, len(shape)))})
        combiner, init = self._reduction(dt)
        return "reduce", b.reduce(x, b.scalar(init, dt), dims, combiner)

    def op_reduce_window(self, b, pool, x, dt, shape):
        if not shape:
            return None
        window = [self.int_(1, min(d, 3)) if d else 1 for d in shape]
        strides = [self.int_(1, 2) for _ in shape]
        padding = [(self.int_(0, 1), self.int_(0, 1)) for _ in shape]
        combiner, init = self._reduction(dt)
        return "reduce_window", b.reduce_window(x, b.scalar(init, dt), window, strides, padding, combiner)

    def op_dot(self, b, pool, x, dt, shape):
        if kind(dt) == "bool" or len(shape) not in (1, 2, 3):
            return None
        if len(shape) == 3:  # batched: (B, M, K) x (B, K, N)
            w = self.constant(b, (shape[0], shape[2], self.int_(0, 3)), dt)
            return "dot_general", b.dot_general(x, w, ((2,), (1,)), ((0,), (0,)))
        w = self.constant(b, (shape[-1], self.int_(0, 3)), dt)
        return "dot_general", b.dot_general(x, w, ((len(shape) - 1,), (0,)), ((), ()))

    def op_iota(self, b, pool, x, dt, shape):
        s = self.shape(2) or (3,)
        return "iota", b.iota(s, self.int_(0, len(s) - 1), dt if kind(dt) != "bool" else np.dtype(np.int32))

    def op_gather(self, b, pool, x, dt, shape):
        if not shape:
            return None
        rank = len(shape)
        index_map = [int(d) for d in self.rng.permutation(rank)[:self.int_(1, rank)]]
        batch = tuple(self.choice([0, 1, 2, 3]) for _ in range(self.int_(0, 2)))
        # start indices a little out of range too: gather clamps them
        starts = np.stack([self.rng.integers(-2, shape[d] + 2, batch) for d in index_map], axis=-1)
        indices = b.constant(starts.astype(self.choice([np.int32, np.int64])))
        sizes = [self.int_(0, d) if self.rng.random() < 0.5 else min(d, 1) for d in shape]
        collapsed = [d for d in index_map if sizes[d] == 1 and self.rng.random() < 0.7]
        n_offsets = rank - len(collapsed)
        out_rank = len(batch) + n_offsets
        offset_dims = sorted(int(d) for d in self.rng.permutation(out_rank)[:n_offsets])
        return "gather", b.gather(x, indices, offset_dims, sorted(collapsed), index_map, len(batch), sizes)

    def op_scatter(self, b, pool, x, dt, shape):
        if not shape:
            return None
        rank = len(shape)
        combiner = self.choice(["add", "maximum", "minimum", "replace"] if kind(dt) != "bool" else ["or", "replace"])
        index_map = [int(d) for d in self.rng.permutation(rank)[:self.int_(1, rank)]]
        n = self.int_(0, 3)
        if combiner == "replace":  # unique, in-range starts and no overlapping windows: a defined result
            inserted = sorted(index_map)
            cells = [tuple(int(self.rng.integers(0, shape[d])) for d in index_map) for _ in range(n)
                     ] if all(shape[d] for d in index_map) else []
            cells = list(dict.fromkeys(cells))
            starts = np.array(cells, dtype=np.int64).reshape(len(cells), len(index_map))
            window = [d for d in range(rank) if d not in inserted]
            sizes = [shape[d] for d in window]
        else:  # windows may leave the operand: those updates are skipped
            inserted = sorted(d for d in index_map if self.rng.random() < 0.6)
            starts = np.stack([self.rng.integers(-1, shape[d] + 1, (n,)) for d in index_map], axis=-1)
            window = [d for d in range(rank) if d not in inserted]
            sizes = [self.int_(0, shape[d]) for d in window]
        indices = b.constant(starts.astype(np.int32))
        updates = self.constant(b, (starts.shape[0], *sizes), dt)
        return "scatter", b.scatter(x, indices, updates, list(range(1, 1 + len(window))), inserted, index_map, 1,
                                    combiner)

    def op_convolution(self, b, pool, x, dt, shape):
        if kind(dt) not in ("float", "int") or not shape or 0 in shape:
            return None
        if len(shape) == 4:  # NHWC as it is
            lhs, nsp = x, 2
        else:  # (N, W, C) from whatever shape
            size = int(np.prod(shape))
            lhs = b.reshape(x, (1, size, 1)) if len(shape) != 3 else x
            nsp = 1
        cin = lhs.shape[-1]
        groups = cin if cin > 1 and self.rng.random() < 0.3 else 1
        kernel = tuple(self.int_(1, 3) for _ in range(nsp)) + (cin // groups, self.int_(1, 2) * groups)
        rhs = self.constant(b, kernel, dt)
        return "convolution", b.convolution(
            lhs, rhs, [self.int_(1, 2) for _ in range(nsp)], [(self.int_(0, 2), self.int_(0, 1)) for _ in range(nsp)],
            [self.int_(1, 2) for _ in range(nsp)], [self.int_(1, 2) for _ in range(nsp)], feature_group_count=groups)

    def _starts(self, b, pool, shape):
        """Scalar i32 start indices, some out of range (dynamic slices clamp), some read from the data."""
        source = self.pick(pool, lambda v: kind(v.dtype) in ("int", "uint") and int(np.prod(v.shape)) > 0)
        out = []
        for d in shape:
            if source is not None and self.rng.random() < 0.3:
                out.append(self.scalar_of(b, source, np.int32))
            else:
                out.append(b.scalar(self.int_(-2, d + 2), self.choice([np.int32, np.int64])))
        if len({np.dtype(s.dtype) for s in out}) > 1:  # all starts share one type
            out = [b.convert(s, np.int32) for s in out]
        return out

    def op_dynamic_slice(self, b, pool, x, dt, shape):
        if not shape:
            return None
        return "dynamic_slice", b.dynamic_slice(x, self._starts(b, pool, shape), [self.int_(0, d) for d in shape])

    def op_dynamic_update_slice(self, b, pool, x, dt, shape):
        if not shape:
            return None
        update = self.constant(b, tuple(self.int_(0, d) for d in shape), dt)
        return "dynamic_update_slice", b.dynamic_update_slice(x, update, self._starts(b, pool, shape))

    def op_sort(self, b, pool, x, dt, shape):
        if not shape:
            return None
        dim = self.int_(0, len(shape) - 1)
        key = self.no_nan(b, x)  # NaN compares unordered: the order would be implementation-defined
        if self.rng.random() < 0.5:  # sort a second value along by the key
            other = self.pick(pool, lambda v: tuple(v.shape) == shape)
            return "sort", b.sort([key, other], dim, descending=bool(self.rng.random() < 0.5))[1]
        return "sort", b.sort([key], dim, descending=bool(self.rng.random() < 0.5))[0]

    def op_while(self, b, pool, x, dt, shape):
        body_fn = self.elementwise(dt)
        limit = self.scalar_of(b, self.pick(pool, lambda v: kind(v.dtype) != "float") or x, np.int32)
        limit = b.clamp(b.scalar(-1, np.int32), limit, b.scalar(4, np.int32))  # trip count data-dependent, small
        i32 = np.dtype(np.int32)

        def cond(bb, vals):
            return bb.compare(vals[0], vals[1], "LT")

        def body(bb, vals):
            return [bb.binary("add", vals[0], bb.scalar(1, i32)), vals[1], body_fn(bb, vals[2])]

        return "while", b.while_loop(cond, body, [b.scalar(0, i32), limit, x])[2]

    def op_if(self, b, pool, x, dt, shape):
        on_true, on_false = self.elementwise(dt), self.elementwise(dt)
        p = self.pick(pool, lambda v: kind(v.dtype) == "bool") or b.compare(x, x, "EQ")
        pred = self.scalar_of(b, p, BOOL)
        return "if", b.conditional(pred, [x], lambda bb, a: [on_true(bb, a[0])], lambda bb, a: [on_false(bb, a[0])])[0]

    def op_case(self, b, pool, x, dt, shape):
        fns = [self.elementwise(dt) for _ in range(self.int_(1, 3))]
        source = self.pick(pool, lambda v: kind(v.dtype) in ("int", "uint")) or x
        index = self.scalar_of(b, source, np.int32)  # out of range (negative too) runs the last branch
        branches = [(lambda f: lambda bb, a: [f(bb, a[0])])(f) for f in fns]
        return "case", b.case(index, [x], branches)[0]

    # ---- a whole program -----------------------------------------------------
    def program(self, seed: int) -> Program:
        block = Block()
        b = TracingBuilder(block)
        args = [Spec(self.shape(), self.choice(DTYPES)) for _ in range(self.int_(1, 3))]
        pool = [b.argument(s) for s in args]
        self.n_args = len(args)
        ops: list[str] = []
        attempts = 0
        while len(ops) < self.n_ops and attempts < self.n_ops * 4:
            attempts += 1
            made = self.step(b, pool)
            if made is not None:
                ops.append(made[0])
                pool.append(made[1])
        outs = pool[-self.int_(1, 2):]
        block.add_op(func.ReturnOp(*[o.ssa for o in outs]))
        f = func.FuncOp("main", FunctionType.from_lists([a.ssa.type for a in pool[:len(args)]],
                                                        [o.ssa.type for o in outs]), Region(block))
        return Program(ModuleOp([f]), args, seed, ops)
