"""The builder API: one rule, three builders (eager numpy, hlo emission, type
inference) agree; emitted IR verifies and runs on the interpreter."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects import func
from xdsl.dialects.builtin import FunctionType, ModuleOp
from xdsl.ir import Block, Region

from minixla.backends.registry import get_backend
from minixla.frontend.builder import Spec, SpecBuilder
from minixla.frontend.builder_eager import EagerBuilder
from minixla.frontend.builder_trace import TracingBuilder


def emit(rule, *arrays):
    block = Block()
    b = TracingBuilder(block)
    args = [b.argument(Spec(a.shape, a.dtype)) for a in arrays]
    outs = rule(b, *args)
    outs = outs if isinstance(outs, tuple) else (outs,)
    block.add_op(func.ReturnOp(*[o.ssa for o in outs]))
    f = func.FuncOp("main", FunctionType.from_lists([a.ssa.type for a in args], [o.ssa.type for o in outs]),
                    Region(block))
    module = ModuleOp([f])
    module.verify()
    return module


RULES = {
    "mean_sq": (lambda b, x: b.divide(b.reduce(b.multiply(x, x), b.scalar(0, x.dtype), [0, 1], "add"),
                                      b.scalar(x.shape[0] * x.shape[1], x.dtype)), [np.float32]),
    "bcast_sub": (lambda b, x: b.subtract(x, b.broadcast_in_dim(b.reduce(x, b.scalar(-np.inf, x.dtype), [1],
                                                                         "maximum"), x.shape, [0])), [np.float32]),
    "transpose_dot": (lambda b, x: b.dot_general(b.transpose(x, [1, 0]), x, ([1], [0])), [np.float32]),
    "pad_slice_rev": (lambda b, x: b.reverse(b.slice(b.pad(x, b.scalar(7, x.dtype), [1, 0], [0, 2]), [0, 1],
                                                     [3, 5], [1, 2]), [0]), [np.float32]),
    "iota_compare_select": (lambda b, x: b.select(b.compare(b.iota(x.shape, 1, np.int32), b.full(x.shape, 1, np.int32),
                                                            "GE"), x, b.negate(x)), [np.float32]),
    "convert_concat": (lambda b, x: b.concatenate([b.convert(x, np.int32), b.convert(b.floor(x), np.int32)], 0),
                       [np.float32]),
    "clamp_window": (lambda b, x: b.reduce_window(b.clamp(b.scalar(-0.5, x.dtype), x, b.scalar(0.5, x.dtype)),
                                                  b.scalar(0, x.dtype), [1, 2], [1, 1], [(0, 0), (1, 0)], "add"),
                     [np.float32]),
}


@pytest.mark.parametrize("name", sorted(RULES))
def test_three_builders_agree(name):
    rule, _ = RULES[name]
    x = np.random.default_rng(3).normal(size=(3, 4)).astype(np.float32)
    eager = rule(EagerBuilder(), x)
    spec = rule(SpecBuilder(), Spec(x.shape, x.dtype))
    assert spec.shape == eager.shape and np.dtype(spec.dtype) == eager.dtype
    (compiled,) = get_backend("interpreter").compile(emit(rule, x))(x)
    np.testing.assert_array_equal(compiled, eager)


def test_variadic_reduce_body():
    def argmax(b, x):
        idx = b.iota(x.shape, 1, np.int32)

        def body(bb, accs, vals):
            pick = bb.compare(accs[0], vals[0], "GE")
            return [bb.select(pick, accs[0], vals[0]), bb.select(pick, accs[1], vals[1])]

        return b.reduce_multi([x, idx], [b.scalar(-np.inf, x.dtype), b.scalar(0, np.int32)], [1], body)[1]

    x = np.random.default_rng(4).normal(size=(5, 7)).astype(np.float32)
    np.testing.assert_array_equal(argmax(EagerBuilder(), x), x.argmax(1))
    (got,) = get_backend("interpreter").compile(emit(argmax, x))(x)
    np.testing.assert_array_equal(got, x.argmax(1))


def test_identity_shortcuts_emit_nothing():
    block = Block()
    b = TracingBuilder(block)
    x = b.argument(Spec((2, 3), np.dtype(np.float32)))
    assert b.reshape(x, [2, 3]) is x and b.transpose(x, [0, 1]) is x and b.convert(x, np.float32) is x
    assert not list(block.ops)
