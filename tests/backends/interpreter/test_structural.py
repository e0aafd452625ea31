"""Data movement, contraction and reduction kernels against element-by-element
loops written straight from the spec's formulas (small inputs)."""

from __future__ import annotations

import functools
import itertools

import numpy as np
import pytest

from minixla.backends.interpreter.kernels import contraction as ct
from minixla.backends.interpreter.kernels import reduction as rd
from minixla.backends.interpreter.kernels import structural as st

rng = np.random.default_rng(0)


def test_iota_broadcast_reshape():
    assert st.iota((2, 3), 1, np.int32).tolist() == [[0, 1, 2], [0, 1, 2]]
    assert st.iota((3,), 0, np.bool_).tolist() == [False, True, True]
    assert st.iota((0, 2), 0, np.float32).shape == (0, 2)
    x = np.array([[1], [2]], np.int8)
    got = st.broadcast_in_dim(x, (3, 2, 4), (1, 2))
    for i, j, k in itertools.product(range(3), range(2), range(4)):
        assert got[i, j, k] == x[j, 0]
    assert st.broadcast_in_dim(np.array(7), (2, 2), ()).tolist() == [[7, 7], [7, 7]]


def naive_pad(x, value, lo, hi, interior):
    shape = [lo_ + (0 if d == 0 else (d - 1) * (i + 1) + 1) + hi_ for d, lo_, hi_, i in zip(x.shape, lo, hi, interior)]
    out = np.full(shape, value, x.dtype)
    for idx in np.ndindex(*x.shape):
        pos = [l + i * (s + 1) for i, l, s in zip(idx, lo, interior)]
        if all(0 <= p < n for p, n in zip(pos, shape)):
            out[tuple(pos)] = x[idx]
    return out


@pytest.mark.parametrize("lo,hi,interior", [((0, 1), (2, 0), (0, 0)), ((1, -1), (-2, 2), (1, 2)),
                                            ((-1, 0), (0, -3), (2, 1)), ((0, 0), (0, 0), (3, 0))])
def test_pad(lo, hi, interior):
    x = np.arange(12, dtype=np.int32).reshape(3, 4) + 1
    assert np.array_equal(st.pad(x, -1, lo, hi, interior), naive_pad(x, -1, lo, hi, interior))


def test_pad_spec_example_and_empty():
    x = np.array([[0, 0, 0], [0, 0, 0]])
    got = st.pad(x, 0, [0, 1], [2, 1], [1, 2])
    assert got.shape == (5, 9)
    assert st.pad(np.zeros((0, 2), np.float32), 1.0, [1, 0], [1, 0], [0, 0]).tolist() == [[1, 1], [1, 1]]
    assert st.pad(np.array(5), 0, [], [], []).tolist() == 5


def test_slices():
    x = np.arange(24).reshape(4, 6)
    assert np.array_equal(st.slice_(x, (1, 0), (4, 6), (2, 3)), x[1:4:2, 0:6:3])
    # start indices clamp to [0, dim - size]
    assert np.array_equal(st.dynamic_slice(x, (3, -2), (2, 3)), x[2:4, 0:3])
    assert np.array_equal(st.dynamic_slice(x, (1, 5), (2, 3)), x[1:3, 3:6])
    upd = st.dynamic_update_slice(x, np.full((2, 2), -1), (9, 1))
    want = x.copy()
    want[2:4, 1:3] = -1
    assert np.array_equal(upd, want) and x[3, 1] == 19
    assert np.array_equal(st.reverse(x, (0, 1)), x[::-1, ::-1])


def naive_gather(operand, indices, dn, slice_sizes):
    off, coll, obatch, sbatch, smap, ivd = dn
    idx = indices if ivd < indices.ndim else indices[..., None]
    batch_rank = idx.ndim - 1
    window = [d for d in range(operand.ndim) if d not in coll and d not in obatch]
    result_rank = batch_rank + len(window)
    batch_dims = [d for d in range(result_rank) if d not in off]
    bshape = [s for a, s in enumerate(idx.shape) if a != ivd] if ivd < indices.ndim else list(indices.shape)
    wshape = [slice_sizes[d] for d in window]
    rshape = [0] * result_rank
    for d, s in zip(batch_dims, bshape):
        rshape[d] = s
    for d, s in zip(off, wshape):
        rshape[d] = s
    out = np.zeros(rshape, operand.dtype)
    for r in np.ndindex(*rshape):
        b = [r[d] for d in batch_dims]
        sl = list(b)
        sl.insert(ivd, slice(None))
        start = indices[tuple(sl)] if ivd < indices.ndim else np.array([indices[tuple(b)]])
        full = [0] * operand.ndim
        for k, d in enumerate(smap):
            full[d] = min(max(int(start[k]), 0), operand.shape[d] - slice_sizes[d])
        for ob, sb in zip(obatch, sbatch):
            full[ob] += b[sb - (1 if sb > ivd else 0)]
        for k, d in enumerate(window):
            full[d] += r[off[k]]
        out[r] = operand[tuple(full)]
    return out


GATHERS = [
    # (operand shape, indices, (offset, collapsed, obatch, sbatch, start_index_map, ivd), slice_sizes)
    ((3, 4), [[0, 1], [2, 3], [5, -1]], ((1,), (0,), (), (), (0, 1), 1), (1, 2)),
    ((3, 4), [1, 0, 2], ((1,), (0,), (), (), (0,), 1), (1, 4)),
    ((5,), [[3], [0], [9]], ((), (0,), (), (), (0,), 1), (1,)),
    ((2, 3, 4, 2), [[[[0, 0], [1, 0], [2, 1]], [[0, 1], [1, 1], [0, 9]]],
                    [[[0, 0], [2, 1], [2, 2]], [[1, 2], [0, 1], [1, 0]]]],
     ((3, 4), (1,), (0,), (1,), (2, 1), 3), (1, 1, 2, 2)),
    ((4, 3), [[2, 0], [1, 1]], ((0, 1), (), (), (), (0, 1), 0), (2, 2)),
]


@pytest.mark.parametrize("shape,indices,dn,sizes", GATHERS)
def test_gather(shape, indices, dn, sizes):
    operand = rng.integers(-50, 50, size=shape).astype(np.int32)
    idx = np.array(indices, np.int64)
    off, coll, ob, sb, smap, ivd = dn
    got = st.gather(operand, idx, offset_dims=off, collapsed_slice_dims=coll, operand_batching_dims=ob,
                    start_indices_batching_dims=sb, start_index_map=smap, index_vector_dim=ivd, slice_sizes=sizes)
    assert np.array_equal(got, naive_gather(operand, idx, dn, sizes))


def naive_scatter(operand, indices, updates, dn, body):
    uwd, iwd, ib, sib, sdod, ivd = dn
    out = operand.copy()
    scatter_axes = [d for d in range(updates.ndim) if d not in uwd]
    window = [d for d in range(operand.ndim) if d not in iwd and d not in ib]
    for u in np.ndindex(*updates.shape):
        si = [u[d] for d in scatter_axes]
        sl = list(si)
        if ivd < indices.ndim:
            sl.insert(ivd, slice(None))
            start = indices[tuple(sl)]
        else:
            start = np.array([indices[tuple(si)]])
        full = [0] * operand.ndim
        for k, d in enumerate(sdod):
            full[d] += int(start[k])
        for a, b in zip(ib, sib):
            full[a] += si[b - (1 if b > ivd else 0)]
        for k, d in enumerate(window):
            full[d] += u[uwd[k]]
        if all(0 <= f < n for f, n in zip(full, operand.shape)):
            out[tuple(full)] = body(out[tuple(full)], updates[u])
    return out


SCATTERS = [
    # operand shape, indices, updates shape, (uwd, iwd, ib, sib, sdod, ivd)
    ((5,), [[1], [3], [1], [7], [-1]], (5,), ((), (0,), (), (), (0,), 1)),
    ((3, 4), [[0, 1], [2, 2], [0, 1], [1, 3]], (4, 2), ((1,), (0,), (), (), (0, 1), 1)),
    ((3, 4), [1, 1, 0], (3, 4), ((1,), (0,), (), (), (0,), 1)),
    ((2, 3, 4, 2), [[[[0, 0], [1, 0], [2, 1]], [[0, 1], [1, 1], [0, 9]]],
                    [[[0, 0], [2, 1], [2, 2]], [[1, 2], [0, 1], [1, 0]]]],
     (2, 2, 3, 2, 2), ((3, 4), (1,), (0,), (1,), (2, 1), 3)),
]


@pytest.mark.parametrize("shape,indices,ushape,dn", SCATTERS)
@pytest.mark.parametrize("body", ["add", "replace", "generic-add"])
def test_scatter(shape, indices, ushape, dn, body):
    operand = rng.integers(-50, 50, size=shape).astype(np.int32)
    idx = np.array(indices, np.int64)
    updates = rng.integers(-50, 50, size=ushape).astype(np.int32)
    uwd, iwd, ib, sib, sdod, ivd = dn
    targets, ok = st.scatter_targets(shape, idx, ushape, update_window_dims=uwd, inserted_window_dims=iwd,
                                     input_batching_dims=ib, scatter_indices_batching_dims=sib,
                                     scatter_dims_to_operand_dims=sdod, index_vector_dim=ivd)
    fn = {"add": lambda a, b: a + b, "generic-add": lambda a, b: a + b, "replace": lambda a, b: b}[body]
    combine = lambda acc, upd: [fn(acc[0], upd[0])]
    ufunc = np.add if body == "add" else None
    got = st.scatter_apply([operand], targets[ok], [updates.reshape(-1)[ok]], combine, ufunc)[0]
    assert np.array_equal(got, naive_scatter(operand, idx, updates, dn, fn))


def test_dot_general_matches_einsum():
    a = rng.standard_normal((2, 3, 4)).astype(np.float32)
    b = rng.standard_normal((2, 4, 5)).astype(np.float32)
    got = ct.dot_general(a, b, lhs_batching=(0,), rhs_batching=(0,), lhs_contracting=(2,), rhs_contracting=(1,))
    assert got.dtype == np.float32
    assert np.allclose(got, np.einsum("bik,bkj->bij", a.astype(np.float64), b.astype(np.float64)), rtol=1e-6)
    # contracting the first dims, free dims in order
    c = rng.integers(-5, 5, (4, 3)).astype(np.int8)
    d = rng.integers(-5, 5, (4, 2, 2)).astype(np.int8)
    got = ct.dot_general(c, d, lhs_contracting=(0,), rhs_contracting=(0,), result_dtype=np.dtype(np.int32))
    assert got.dtype == np.int32 and np.array_equal(got, np.einsum("ki,kjl->ijl", c.astype(np.int32), d))
    # outer product and empty contraction
    assert np.array_equal(ct.dot_general(np.arange(3), np.arange(2)), np.outer(np.arange(3), np.arange(2)))
    assert ct.dot_general(np.ones((2, 0)), np.ones((0, 3)), lhs_contracting=(1,), rhs_contracting=(0,)).tolist() == \
        [[0.0] * 3] * 2
    big = np.array([[100, 100]], np.int8)
    assert ct.dot_general(big, big.T.copy(), lhs_contracting=(1,), rhs_contracting=(0,)).tolist() == [[32]]


def naive_conv(x, w, stride, pad, lhs_dil, rhs_dil, fg=1, bg=1):
    """NC(spatial) input, OI(spatial) kernel, NO(spatial) output; spec formula."""
    n = x.shape[0]
    o, i = w.shape[:2]
    sp, ksp = x.shape[2:], w.shape[2:]
    dil = [(s - 1) * d + 1 if s else 0 for s, d in zip(sp, lhs_dil)]
    padded = [d + lo + hi for d, (lo, hi) in zip(dil, pad)]
    span = [(k - 1) * d + 1 for k, d in zip(ksp, rhs_dil)]
    out_sp = [max(0, (p - s) // st_ + 1) if p >= s else 0 for p, s, st_ in zip(padded, span, stride)]
    nb = n // bg
    out = np.zeros((nb, o, *out_sp))
    og = o // (fg * bg)
    for b, oo in itertools.product(range(nb), range(o)):
        g = oo // og
        bb = b + (g * nb if bg > 1 else 0)
        cs = range(g * i, (g + 1) * i) if fg > 1 else range(i)
        for pos in np.ndindex(*out_sp):
            total = 0.0
            for ci, k in itertools.product(cs, np.ndindex(*ksp)):
                src = []
                for s in range(len(sp)):
                    q = pos[s] * stride[s] + k[s] * rhs_dil[s] - pad[s][0]
                    if q < 0 or q % lhs_dil[s] or q // lhs_dil[s] >= sp[s]:
                        break
                    src.append(q // lhs_dil[s])
                else:
                    total += x[(bb, ci, *src)] * w[(oo, ci - (g * i if fg > 1 else 0), *k)]
            out[(b, oo, *pos)] = total
    return out


@pytest.mark.parametrize("stride,pad,lhs_dil,rhs_dil,fg,bg", [
    ((1, 1), ((0, 0), (0, 0)), (1, 1), (1, 1), 1, 1),
    ((2, 1), ((1, 2), (0, 1)), (1, 1), (1, 2), 1, 1),
    ((1, 2), ((-1, 1), (2, 0)), (2, 1), (1, 1), 1, 1),
    ((1, 1), ((0, 0), (1, 1)), (1, 1), (1, 1), 2, 1),
    ((1, 1), ((0, 0), (0, 0)), (1, 1), (1, 1), 1, 2),
])
def test_convolution(stride, pad, lhs_dil, rhs_dil, fg, bg):
    x = rng.standard_normal((2 * bg, 2 * fg, 5, 4))
    w = rng.standard_normal((2 * fg * bg, 2, 2, 3))
    # run with NHWC input, HWIO kernel and NHWC output layouts
    got = ct.convolution(np.transpose(x, (0, 2, 3, 1)), np.transpose(w, (2, 3, 1, 0)), window_strides=stride,
                         padding=pad, lhs_dilation=lhs_dil, rhs_dilation=rhs_dil, window_reversal=(False, False),
                         input_batch_dimension=0, input_feature_dimension=3, input_spatial_dimensions=(1, 2),
                         kernel_input_feature_dimension=2, kernel_output_feature_dimension=3,
                         kernel_spatial_dimensions=(0, 1), output_batch_dimension=0, output_feature_dimension=3,
                         output_spatial_dimensions=(1, 2), feature_group_count=fg, batch_group_count=bg)
    want = naive_conv(x, w, stride, pad, lhs_dil, rhs_dil, fg, bg)
    assert np.allclose(got, np.transpose(want, (0, 2, 3, 1)))


def test_convolution_window_reversal_and_int_accumulation():
    x = np.array([[[1, 2, 3, 4]]], np.int8)  # N C W
    w = np.array([[[1, 10]]], np.int8)  # O I W
    kw = {"window_strides": (1,), "padding": ((0, 0),), "lhs_dilation": (1,), "rhs_dilation": (1,),
          "input_batch_dimension": 0, "input_feature_dimension": 1, "input_spatial_dimensions": (2,),
          "kernel_input_feature_dimension": 1, "kernel_output_feature_dimension": 0,
          "kernel_spatial_dimensions": (2,), "output_batch_dimension": 0, "output_feature_dimension": 1,
          "output_spatial_dimensions": (2,)}
    assert ct.convolution(x, w, window_reversal=(False,), result_dtype=np.dtype(np.int32), **kw).tolist() == \
        [[[21, 32, 43]]]
    assert ct.convolution(x, w, window_reversal=(True,), **kw).tolist() == [[[12, 23, 34]]]


def test_reduce_tree_schedule_and_ufunc():
    x = rng.integers(-9, 9, (3, 5, 4)).astype(np.int32)
    add = lambda a, b: [a[0] + b[0]]
    got = rd.reduce([x], [np.array(1, np.int32)], (1,), add)[0]
    assert np.array_equal(got, x.sum(axis=1) + 1)
    assert np.array_equal(rd.reduce([x], [np.array(0, np.int32)], (0, 2), add, np.add)[0], x.sum(axis=(0, 2)))
    assert rd.reduce([x], [np.array(5, np.int32)], (), add)[0].shape == x.shape
    assert rd.reduce([np.zeros((2, 0))], [np.array(7.0)], (1,), add)[0].tolist() == [7.0, 7.0]
    # order-sensitive body (string-like concatenation via base-10 digits) keeps in-order traversal
    digits = np.array([[1, 2, 3, 4, 5, 6, 7]], np.int64)
    concat = lambda a, b: [a[0] * 10 ** np.floor(np.log10(np.maximum(b[0], 1)) + 1).astype(np.int64) + b[0]]
    assert rd.reduce([digits], [np.array(9, np.int64)], (1,), concat)[0].tolist() == [91234567]


def test_variadic_reduce_argmax():
    x = np.array([[3, 9, 9, 1], [5, 2, 7, 7]], np.int32)
    ix = np.broadcast_to(np.arange(4, dtype=np.int32), x.shape)

    def argmax(acc, new):
        (v1, i1), (v2, i2) = acc, new
        take = (v2 > v1) | ((v2 == v1) & (i2 < i1))
        return [np.where(take, v2, v1), np.where(take, i2, i1)]

    vals, idx = rd.reduce([x, ix], [np.array(np.iinfo(np.int32).min, np.int32), np.array(0, np.int32)], (1,), argmax)
    assert vals.tolist() == [9, 7] and idx.tolist() == [1, 2]


def naive_reduce_window(x, init, window, strides, bdil, wdil, pad, fn):
    padded = naive_pad(x, init, [p[0] for p in pad], [p[1] for p in pad], [b - 1 for b in bdil])
    out_shape = [(p - ((w - 1) * d + 1)) // s + 1 for p, w, d, s in zip(padded.shape, window, wdil, strides)]
    out = np.zeros(out_shape, x.dtype)
    for o in np.ndindex(*out_shape):
        vals = [padded[tuple(oi * s + k * d for oi, s, k, d in zip(o, strides, kk, wdil))] for kk in np.ndindex(*window)]
        out[o] = functools.reduce(fn, vals, init)
    return out


@pytest.mark.parametrize("window,strides,bdil,wdil,pad", [
    ((2, 2), (1, 1), (1, 1), (1, 1), ((0, 0), (0, 0))),
    ((2, 1), (2, 1), (1, 1), (1, 1), ((1, 0), (0, 1))),
    ((2, 2), (1, 2), (2, 1), (1, 2), ((0, 1), (1, 1))),
    ((3, 1), (1, 1), (1, 1), (2, 1), ((2, 1), (0, 0))),
])
def test_reduce_window(window, strides, bdil, wdil, pad):
    x = rng.integers(0, 20, (4, 5)).astype(np.int64)
    got = rd.reduce_window([x], [np.array(-1)], window_dimensions=window, window_strides=strides,
                           base_dilations=bdil, window_dilations=wdil, padding=pad,
                           combine=lambda a, b: [np.maximum(a[0], b[0])])[0]
    assert np.array_equal(got, naive_reduce_window(x, -1, window, strides, bdil, wdil, pad, max))


def test_select_and_scatter_spec_example():
    operand = np.array([[1, 5], [2, 5], [3, 6], [4, 4]], np.int32)
    source = np.array([[5, 6], [7, 8]], np.int32)
    got = rd.select_and_scatter(operand, source, np.array(0, np.int32), window_dimensions=(3, 1),
                                window_strides=(2, 1), padding=((0, 1), (0, 0)),
                                select=lambda a, b: a >= b, scatter=lambda a, b: [a[0] + b[0]])
    assert got.tolist() == [[0, 0], [0, 0], [5, 14], [7, 0]]
    got2 = rd.select_and_scatter(operand, source, np.array(0, np.int32), window_dimensions=(3, 1),
                                 window_strides=(2, 1), padding=((0, 1), (0, 0)),
                                 select=lambda a, b: a >= b, scatter=None, scatter_ufunc=np.add)
    assert got2.tolist() == got.tolist()


def test_sort_general_and_argsort():
    x = np.array([[3, 1, 2, 1], [0, -1, 5, -1]], np.int32)
    tags = np.array([[0, 1, 2, 3], [4, 5, 6, 7]], np.int32)
    less = lambda a, b: a[0] < b[0]
    keys, perm = rd.sort([x, tags], 1, less)
    assert keys.tolist() == [[1, 1, 2, 3], [-1, -1, 0, 5]]
    assert perm.tolist() == [[1, 3, 2, 0], [5, 7, 4, 6]]  # stable
    keys, perm = rd.sort([x, tags], 0, less)
    assert keys.tolist() == [[0, -1, 2, -1], [3, 1, 5, 1]]
    desc = rd.argsort_stable(np.array([1, 3, 1, 3, 2]), 0, True)
    assert desc.tolist() == [1, 3, 4, 0, 2]
    items = list(rng.integers(0, 5, 50))
    order = rd._merge_sort(len(items), lambda i, j: items[i] < items[j])
    assert order == sorted(range(len(items)), key=lambda i: items[i])
