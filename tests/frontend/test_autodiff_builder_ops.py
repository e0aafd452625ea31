"""The structured builder ops autodiff adds (gather, scatter, convolution,
select_and_scatter, sort, while, if): eager, emitted-IR-on-the-interpreter and
type inference agree."""

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
    outs = tuple(outs) if isinstance(outs, (tuple, list)) else (outs,)
    block.add_op(func.ReturnOp(*[o.ssa for o in outs]))
    f = func.FuncOp("main", FunctionType.from_lists([a.ssa.type for a in args], [o.ssa.type for o in outs]),
                    Region(block))
    module = ModuleOp([f])
    module.verify()
    return module


def _idx(b, values):
    return b.constant(np.array(values, dtype=np.int32))


def _count_loop(b, x):
    def cond(bb, v):
        return bb.compare(v[0], bb.scalar(3, np.int32), "LT")

    def body(bb, v):
        return [bb.add(v[0], bb.scalar(1, np.int32)), bb.multiply(v[1], bb.full(v[1].shape, 1.5, v[1].dtype))]

    return b.while_loop(cond, body, [b.scalar(0, np.int32), x])[1]


RULES = {
    "gather_rows": lambda b, x: b.gather(x, _idx(b, [[2], [0], [2]]), offset_dims=[1], collapsed_slice_dims=[0],
                                         start_index_map=[0], index_vector_dim=1, slice_sizes=[1, 4]),
    "scatter_add_rows": lambda b, x: b.scatter(x, _idx(b, [[1], [1]]), b.slice(x, [0, 0], [2, 4]),
                                               update_window_dims=[1], inserted_window_dims=[0],
                                               scatter_dims_to_operand_dims=[0], index_vector_dim=1),
    "conv_nhwc": lambda b, x: b.convolution(b.reshape(x, [1, 3, 4, 1]), b.constant(
        np.arange(4, dtype=np.float32).reshape(2, 2, 1, 1)), [1, 1], [(0, 1), (1, 0)]),
    "select_and_scatter": lambda b, x: b.select_and_scatter(
        x, b.full([2, 2], 1.0, x.dtype), b.scalar(0, x.dtype), [2, 2], [1, 2], [(0, 0), (0, 0)]),
    "sort_two": lambda b, x: b.sort([x, b.iota(x.shape, 1, np.int32)], 1),
    "while_count": _count_loop,
    "if_branch": lambda b, x: b.conditional(b.compare(b.scalar(1, np.int32), b.scalar(0, np.int32), "GT"), [x],
                                            lambda bb, o: [bb.negate(o[0])], lambda bb, o: [o[0]])[0],
}


@pytest.mark.parametrize("name", sorted(RULES))
def test_three_builders_agree(name):
    rule = RULES[name]
    x = np.random.default_rng(3).normal(size=(3, 4)).astype(np.float32)
    eager = rule(EagerBuilder(), x)
    eager = eager if isinstance(eager, list) else [eager]
    spec = rule(SpecBuilder(), Spec(x.shape, x.dtype))
    spec = spec if isinstance(spec, list) else [spec]
    for s, e in zip(spec, eager):
        assert tuple(s.shape) == e.shape and np.dtype(s.dtype) == e.dtype
    compiled = get_backend("interpreter").compile(emit(rule, x))(x)
    for c, e in zip(compiled, eager):
        np.testing.assert_allclose(c, e, rtol=1e-6)


def test_sort_matches_numpy():
    x = np.random.default_rng(0).normal(size=(3, 5)).astype(np.float32)
    out = EagerBuilder().sort([x], 1)[0]
    np.testing.assert_array_equal(out, np.sort(x, axis=1))
