"""The interpreter backend end to end: parse IR, compile, call. Expected
values are computed independently (numpy / Python) or worked by hand."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.context import Context
from xdsl.parser import Parser

from minixla.backends import available_backends, get_backend, register_backend
from minixla.backends.interpreter import (
    CheckFailure,
    InterpreterBackend,
    InterpreterError,
    UnsupportedOpError,
)
from minixla.backends.registry import UnknownBackendError
from minixla.dialects import load_all

CTX = load_all(Context(allow_unregistered=True))


def compile_(src: str, entry: str | None = None):
    module = Parser(CTX, src).parse_module()
    return get_backend("interpreter").compile(module, entry)


def run(src: str, *args, entry: str | None = None):
    return compile_(src, entry)(*args)


# -- registry and executable ---------------------------------------------------

def test_registry():
    assert "interpreter" in available_backends()
    assert get_backend("interpreter") is get_backend("interpreter")
    with pytest.raises(UnknownBackendError, match="unknown backend 'nope'"):
        get_backend("nope")

    class Echo:
        name = "echo"

        def compile(self, module, entry=None):
            return lambda *a: tuple(a)

    register_backend("echo-test", Echo)
    assert get_backend("echo-test").compile(None)(1, 2) == (1, 2)
    with pytest.raises(ValueError, match="already registered"):
        register_backend("echo-test", lambda: Echo())


def test_entry_point_plugins(monkeypatch):
    import minixla.backends.registry as reg

    class FakeEP:
        name = "plugin-test"

        def load(self):
            return InterpreterBackend

    monkeypatch.setattr(reg, "_entry_points_loaded", False)
    monkeypatch.setattr("importlib.metadata.entry_points", lambda group: [FakeEP()] if group == reg.ENTRY_POINT_GROUP else [])
    assert "plugin-test" in reg.available_backends()
    assert isinstance(reg.get_backend("plugin-test"), InterpreterBackend)


def test_has_backend_reads_entry_points_only_for_names_not_built_in(monkeypatch):
    import minixla.backends.registry as reg

    scans = []

    class FakeEP:
        name = "plugin-two"

        def load(self):
            return InterpreterBackend

    def entry_points(group):
        scans.append(group)
        return [FakeEP()] if group == reg.ENTRY_POINT_GROUP else []

    monkeypatch.setattr(reg, "_entry_points_loaded", False)
    monkeypatch.setattr("importlib.metadata.entry_points", entry_points)
    assert reg.has_backend("cpu") and reg.has_backend("interpreter") and not scans
    assert reg.has_backend("plugin-two") and scans == [reg.ENTRY_POINT_GROUP]
    assert not reg.has_backend("nope")


ADD = """
func.func @main(%a: tensor<2xi32>, %b: tensor<2xi32>) -> tensor<2xi32> {
  %0 = "hlo.add"(%a, %b) : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  func.return %0 : tensor<2xi32>
}
func.func @other() -> tensor<i1> {
  %0 = "hlo.constant"() <{value = dense<true> : tensor<i1>}> : () -> tensor<i1>
  func.return %0 : tensor<i1>
}
"""


def test_entry_selection_and_argument_checks():
    out = run(ADD, np.array([1, 2], np.int32), np.array([3, 4], np.int32))
    assert isinstance(out, tuple) and out[0].tolist() == [4, 6] and out[0].dtype == np.int32
    assert run(ADD, entry="other")[0].tolist() is True
    assert run(ADD, [1, 2], [5, 5])[0].tolist() == [6, 7]  # lists are converted
    with pytest.raises(TypeError, match="expected dtype int32"):
        run(ADD, np.array([1, 2], np.int64), np.array([3, 4], np.int32))
    with pytest.raises(ValueError, match="expected shape"):
        run(ADD, np.array([1, 2, 3], np.int32), np.array([3, 4], np.int32))
    with pytest.raises(TypeError, match="takes 2 arguments"):
        run(ADD, np.array([1, 2], np.int32))
    with pytest.raises(InterpreterError, match="no function @missing"):
        compile_(ADD, "missing")
    two_public = ADD.replace("@main", "@first")
    with pytest.raises(InterpreterError, match="cannot choose an entry"):
        compile_(two_public)
    single = ADD.replace("func.func @other", "func.func private @other")
    assert run(single.replace("@main", "@f"), [1, 1], [1, 1])[0].tolist() == [2, 2]


def test_unsupported_op_is_reported_by_name():
    src = """
    func.func @main(%a: tensor<2xi32>) -> tensor<2xi32> {
      %0 = "mystery.op"(%a) : (tensor<2xi32>) -> tensor<2xi32>
      func.return %0 : tensor<2xi32>
    }"""
    with pytest.raises(UnsupportedOpError, match="'mystery.op'") as info:
        run(src, np.zeros(2, np.int32))
    assert info.value.op_name == "mystery.op"


# -- checks ------------------------------------------------------------------

def check_src(op: str, value: str, type_: str, extra: str = "") -> str:
    return f"""
    func.func @main() {{
      %0 = hlo.constant dense<{value}> : {type_}
      check.{op} %0, {extra} : {type_}
      func.return
    }}"""


def test_check_failure_message():
    src = """
    func.func @main() {
      %0 = hlo.constant dense<[1, 2, 3]> : tensor<3xi32>
      check.expect_eq_const %0, dense<[1, 5, 3]> : tensor<3xi32>
      func.return
    }"""
    with pytest.raises(CheckFailure) as info:
        run(src)
    msg = str(info.value)
    assert "check.expect_eq_const" in msg and "index [1]" in msg and "actual 2" in msg and "expected 5" in msg
    assert "Traceback" not in msg and info.value.index == (1,)


@pytest.mark.parametrize("actual,expected,ok", [
    ("[0x7FC00000, -0.0]", "[0x7FC00000, 0.0]", True),  # NaN ~ NaN, -0 ~ 0
    ("[1.0, 2.0]", "[1.00005, 2.0]", True),
    ("[1.0, 2.0]", "[1.001, 2.0]", False),
    ("[0x7F800000, 1.0]", "[0x7F800000, 1.0]", True),
    ("[0x7F800000, 1.0]", "[3.0e38, 1.0]", False),
    ("[1.0e-5, 1.0]", "[-1.0e-5, 1.0]", False),  # same sign required
])
def test_expect_almost_eq_const(actual, expected, ok):
    src = f"""
    func.func @main() {{
      %0 = hlo.constant dense<{actual}> : tensor<2xf32>
      check.expect_almost_eq_const %0, dense<{expected}> : tensor<2xf32>
      func.return
    }}"""
    if ok:
        run(src)
    else:
        with pytest.raises(CheckFailure):
            run(src)


def test_expect_eq_is_ieee_and_tolerance_is_honoured():
    nan = """
    func.func @main() {
      %0 = hlo.constant dense<0x7FC00000> : tensor<f32>
      check.expect_eq_const %0, dense<0x7FC00000> : tensor<f32>
      func.return
    }"""
    with pytest.raises(CheckFailure):  # StableHLO's checker: NaN != NaN for expect_eq
        run(nan)
    loose = """
    func.func @main() {
      %0 = hlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
      %1 = hlo.constant dense<[1.05, 2.0]> : tensor<2xf32>
      check.expect_almost_eq %0, %1, tolerance = 0.1 : tensor<2xf32>
      check.expect_almost_eq_const %0, dense<[1.05, 2.0]> : tensor<2xf32>, tolerance = 0.1
      func.return
    }"""
    run(loose)


@pytest.mark.parametrize("expected,max_ulp,ok", [("5.0", 0, True), ("5.01", 3, True), ("5.01", 1, False),
                                                 ("-5.0", 100, False), ("0x7E00", 1, False)])
def test_expect_close_ulps(expected, max_ulp, ok):
    # f16 spacing at 5.0 is 2**-8: 5.01 is 2.56 ulp away, rounded to 5.0078125 = 2 ulp
    src = f"""
    func.func @main() {{
      %0 = hlo.constant dense<5.0> : tensor<f16>
      %1 = hlo.constant dense<{expected}> : tensor<f16>
      check.expect_close %0, %1, max_ulp_difference = {max_ulp} : tensor<f16>, tensor<f16>
      func.return
    }}"""
    if ok:
        run(src)
    else:
        with pytest.raises(CheckFailure):
            run(src)


# -- control flow, calls, regions ---------------------------------------------------

WHILE = """
func.func @main(%n: tensor<i64>) -> (tensor<i64>, tensor<i64>) {
  %zero = hlo.constant dense<0> : tensor<i64>
  %one = hlo.constant dense<1> : tensor<i64>
  %r:2 = "hlo.while"(%zero, %zero) ({
  ^bb0(%i: tensor<i64>, %s: tensor<i64>):
    %c = "hlo.compare"(%i, %n) <{comparison_direction = #hlo<comparison_direction LT>}> : (tensor<i64>, tensor<i64>) -> tensor<i1>
    "hlo.return"(%c) : (tensor<i1>) -> ()
  }, {
  ^bb0(%i: tensor<i64>, %s: tensor<i64>):
    %i1 = "hlo.add"(%i, %one) : (tensor<i64>, tensor<i64>) -> tensor<i64>
    %s1 = "hlo.add"(%s, %i1) : (tensor<i64>, tensor<i64>) -> tensor<i64>
    "hlo.return"(%i1, %s1) : (tensor<i64>, tensor<i64>) -> ()
  }) : (tensor<i64>, tensor<i64>) -> (tensor<i64>, tensor<i64>)
  func.return %r#0, %r#1 : tensor<i64>, tensor<i64>
}
"""


def test_while_with_captured_values():
    i, s = run(WHILE, np.array(10, np.int64))
    assert int(i) == 10 and int(s) == sum(range(1, 11)) and s.shape == ()
    i, s = run(WHILE, np.array(-3, np.int64))
    assert int(i) == 0 and int(s) == 0


CASE = """
func.func @main(%k: tensor<i32>, %x: tensor<2xf32>) -> tensor<2xf32> {
  %r = "hlo.case"(%k) ({
    %a = "hlo.negate"(%x) : (tensor<2xf32>) -> tensor<2xf32>
    "hlo.return"(%a) : (tensor<2xf32>) -> ()
  }, {
    %b = "hlo.add"(%x, %x) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    "hlo.return"(%b) : (tensor<2xf32>) -> ()
  }) : (tensor<i32>) -> tensor<2xf32>
  func.return %r : tensor<2xf32>
}
"""


@pytest.mark.parametrize("k,want", [(0, [-1.0, -2.0]), (1, [2.0, 4.0]), (7, [2.0, 4.0]), (-1, [2.0, 4.0])])
def test_case_out_of_range_runs_last_branch(k, want):
    assert run(CASE, np.array(k, np.int32), np.array([1, 2], np.float32))[0].tolist() == want


def test_if_and_call():
    src = """
    func.func @main(%p: tensor<i1>, %x: tensor<3xi32>) -> tensor<3xi32> {
      %r = "hlo.if"(%p) ({
        %a = func.call @double(%x) : (tensor<3xi32>) -> tensor<3xi32>
        "hlo.return"(%a) : (tensor<3xi32>) -> ()
      }, {
        "hlo.return"(%x) : (tensor<3xi32>) -> ()
      }) : (tensor<i1>) -> tensor<3xi32>
      func.return %r : tensor<3xi32>
    }
    func.func private @double(%y: tensor<3xi32>) -> tensor<3xi32> {
      %0 = "hlo.add"(%y, %y) : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
      func.return %0 : tensor<3xi32>
    }"""
    x = np.array([1, -2, 3], np.int32)
    assert run(src, np.array(True), x)[0].tolist() == [2, -4, 6]
    assert run(src, np.array(False), x)[0].tolist() == [1, -2, 3]


def reduce_src(body: str, dtype: str = "f32") -> str:
    return f"""
    func.func @main(%x: tensor<3x4x{dtype}>, %init: tensor<{dtype}>) -> tensor<3x{dtype}> {{
      %r = "hlo.reduce"(%x, %init) <{{dimensions = array<i64: 1>}}> ({{
      ^bb0(%a: tensor<{dtype}>, %b: tensor<{dtype}>):
        {body}
      }}) : (tensor<3x4x{dtype}>, tensor<{dtype}>) -> tensor<3x{dtype}>
      func.return %r : tensor<3x{dtype}>
    }}"""


def test_reduce_fast_and_general_bodies():
    x = np.arange(12, dtype=np.float32).reshape(3, 4) - 5
    fast = reduce_src('%s = "hlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>\n'
                      '"hlo.return"(%s) : (tensor<f32>) -> ()')
    assert np.array_equal(run(fast, x, np.array(0.5, np.float32))[0], x.sum(1) + 0.5)
    # general body: max(|a|, |b|) is not a single op of the block arguments
    general = reduce_src('%u = "hlo.abs"(%a) : (tensor<f32>) -> tensor<f32>\n'
                         '%v = "hlo.abs"(%b) : (tensor<f32>) -> tensor<f32>\n'
                         '%m = "hlo.maximum"(%u, %v) : (tensor<f32>, tensor<f32>) -> tensor<f32>\n'
                         '"hlo.return"(%m) : (tensor<f32>) -> ()')
    assert np.array_equal(run(general, x, np.array(0, np.float32))[0], np.abs(x).max(1))
    # maximum of floats goes through the exact kernel: NaN propagates
    mx = reduce_src('%m = "hlo.maximum"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>\n'
                    '"hlo.return"(%m) : (tensor<f32>) -> ()')
    y = x.copy()
    y[1, 2] = np.nan
    got = run(mx, y, np.array(-np.inf, np.float32))[0]
    assert got[0] == x[0].max() and np.isnan(got[1]) and got[2] == x[2].max()


SORT = """
func.func @main(%k: tensor<2x5x{t}>, %v: tensor<2x5xi32>) -> (tensor<2x5x{t}>, tensor<2x5xi32>) {{
  %r:2 = "hlo.sort"(%k, %v) <{{dimension = {dim} : i64, is_stable = true}}> ({{
  ^bb0(%a: tensor<{t}>, %b: tensor<{t}>, %c: tensor<i32>, %d: tensor<i32>):
    %p = "hlo.compare"({lhs}, {rhs}) <{{comparison_direction = #hlo<comparison_direction {dir}>{ct}}}> : (tensor<{t}>, tensor<{t}>) -> tensor<i1>
    "hlo.return"(%p) : (tensor<i1>) -> ()
  }}) : (tensor<2x5x{t}>, tensor<2x5xi32>) -> (tensor<2x5x{t}>, tensor<2x5xi32>)
  func.return %r#0, %r#1 : tensor<2x5x{t}>, tensor<2x5xi32>
}}
"""


def sort_src(t="f32", dim=-1, lhs="%a", rhs="%b", dir="LT", ct=""):
    ct = f", compare_type = #hlo<comparison_type {ct}>" if ct else ""
    return SORT.format(t=t, dim=dim, lhs=lhs, rhs=rhs, dir=dir, ct=ct)


@pytest.mark.parametrize("dir,swap,descending", [("LT", False, False), ("GT", False, True),
                                                 ("LT", True, True), ("GT", True, False)])
def test_sort_fast_path_stable(dir, swap, descending):
    keys = np.array([[3, 1, 2, 1, 3], [0, -1, 5, -1, 0]], np.float32)
    vals = np.arange(10, dtype=np.int32).reshape(2, 5)
    lhs, rhs = ("%b", "%a") if swap else ("%a", "%b")
    k, v = run(sort_src(lhs=lhs, rhs=rhs, dir=dir), keys, vals)
    for row in range(2):
        order = sorted(range(5), key=lambda i: -keys[row, i] if descending else keys[row, i])  # stable
        assert k[row].tolist() == keys[row, order].tolist() and v[row].tolist() == vals[row, order].tolist()


def test_sort_nan_orderings():
    keys = np.array([[np.nan, 1, -0.0, 0.0, -np.inf], [2, np.nan, 2, 1, -1]], np.float32)
    vals = np.arange(10, dtype=np.int32).reshape(2, 5)
    k, v = run(sort_src(ct="TOTALORDER"), keys, vals)
    assert v.tolist() == [[4, 2, 3, 1, 0], [9, 8, 5, 7, 6]]
    # FLOAT comparisons with NaN: the general merge sort calls the comparator
    k, v = run(sort_src(ct="FLOAT"), keys, vals)
    assert k.shape == keys.shape and sorted(v[0].tolist()) == [0, 1, 2, 3, 4]
    # dimension 0 and signed integer keys
    ik = np.array([[1, -1, 2, 0, 5], [-2, 3, 1, 0, 4]], np.int8)
    k, v = run(sort_src(t="i8", dim=0), ik, vals)
    assert k.tolist() == [[-2, -1, 1, 0, 4], [1, 3, 2, 0, 5]]
    assert v.tolist() == [[5, 1, 7, 3, 9], [0, 6, 2, 8, 4]]


def test_scatter_and_capture_in_update_computation():
    src = """
    func.func @main(%x: tensor<5xf32>, %i: tensor<4x1xi32>, %u: tensor<4xf32>, %s: tensor<f32>) -> tensor<5xf32> {
      %r = "hlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #hlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %m = "hlo.multiply"(%b, %s) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        %t = "hlo.add"(%a, %m) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "hlo.return"(%t) : (tensor<f32>) -> ()
      }) : (tensor<5xf32>, tensor<4x1xi32>, tensor<4xf32>) -> tensor<5xf32>
      func.return %r : tensor<5xf32>
    }"""
    x = np.zeros(5, np.float32)
    idx = np.array([[1], [3], [1], [9]], np.int32)
    u = np.array([1, 2, 4, 8], np.float32)
    out = run(src, x, idx, u, np.array(10, np.float32))[0]
    assert out.tolist() == [0, 50, 0, 20, 0]


def test_stablehlo_spelling_runs_and_dtypes_round_trip():
    src = """
    func.func @main() -> (tensor<3xbf16>, tensor<2xui64>, tensor<2xcomplex<f64>>) {
      %0 = stablehlo.constant dense<[1.5, 0x7F80, -0.0]> : tensor<3xbf16>
      %1 = stablehlo.negate %0 : tensor<3xbf16>
      %2 = stablehlo.constant dense<[18446744073709551615, 1]> : tensor<2xui64>
      %3 = stablehlo.add %2, %2 : tensor<2xui64>
      %4 = stablehlo.constant dense<[(1.0, 2.0), (0.0, -1.0)]> : tensor<2xcomplex<f64>>
      %5 = stablehlo.multiply %4, %4 : tensor<2xcomplex<f64>>
      func.return %1, %3, %5 : tensor<3xbf16>, tensor<2xui64>, tensor<2xcomplex<f64>>
    }"""
    a, b, c = run(src)
    assert a.astype(np.float32).tolist()[:2] == [-1.5, -np.inf] and not np.signbit(a.astype(np.float32)[2])
    assert b.dtype == np.uint64 and b.tolist() == [2**64 - 2, 2]
    assert c.tolist() == [(1 + 2j) ** 2, -1 + 0j]


def test_rng_bit_generator_is_deterministic_and_advances():
    src = """
    func.func @main(%s: tensor<2xui64>) -> (tensor<2xui64>, tensor<3x5xui32>) {
      %st, %out = "hlo.rng_bit_generator"(%s) <{rng_algorithm = #hlo<rng_algorithm THREE_FRY>}> : (tensor<2xui64>) -> (tensor<2xui64>, tensor<3x5xui32>)
      func.return %st, %out : tensor<2xui64>, tensor<3x5xui32>
    }"""
    from minixla.backends.interpreter.kernels.rng import threefry2x32

    state = np.array([42, 7], np.uint64)
    st, out = run(src, state)
    _, out2 = run(src, state)
    assert np.array_equal(out, out2) and out.dtype == np.uint32
    assert st.tolist() == [42, 7 + 9]  # XLA: no even dimension, so the 5 is halved: 3x3 counters
    # element (r, 2h + j) is word j of threefry(counter 7 + 3r + h), key 42
    words = threefry2x32([np.arange(7, 16, dtype=np.uint64), np.zeros(9, np.uint64)], (42, 0))
    pair = np.stack([w.reshape(3, 3) for w in words], axis=2).reshape(3, 6)[:, :5]
    assert out.tolist() == pair.tolist()
    assert not np.array_equal(run(src, st)[1], out)


def test_all_reduce_and_optimization_barrier_are_identities():
    src = """
    func.func @main(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
      %r = "hlo.all_reduce"(%x) <{replica_groups = dense<[[0]]> : tensor<1x1xi64>}> ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = "hlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "hlo.return"(%s) : (tensor<f32>) -> ()
      }) : (tensor<4xf32>) -> tensor<4xf32>
      %b = "hlo.optimization_barrier"(%r) : (tensor<4xf32>) -> tensor<4xf32>
      func.return %r, %b : tensor<4xf32>, tensor<4xf32>
    }"""
    x = np.array([1, 2, 3, 4], np.float32)
    r, b = run(src, x)
    assert r.tolist() == b.tolist() == x.tolist()
