"""Collective ops on the interpreter's simulated process grid (`interpreter.run_parallel`),
against numpy computations of the spec's process-group strategies; failures end
every process with an error naming the process, never a hang."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from xdsl.parser import Parser

from minixla.backends import get_backend
from minixla.backends.interpreter import ops_collective
from minixla.dialects import load_all

R, P = 2, 2  # replicas x partitions
PROCS = list(itertools.product(range(R), range(P)))


def _run(body: str, fn_sig: str, result_type: str, inputs: list[np.ndarray], ret_types: str) -> list[np.ndarray]:
    """Run `body` (the per-process function) on a 2x2 grid with one input per process."""
    n = len(inputs)
    text = f"""
    func.func @proc{fn_sig} {{
      {body}
    }}
    func.func @main({", ".join(f"%i{k}: {result_type}" for k in range(n))}) -> ({ret_types}) {{
      %r:{n} = "interpreter.run_parallel"({", ".join(f"%i{k}" for k in range(n))}) {{
        programs = [[@proc, @proc], [@proc, @proc]]
      }} : ({", ".join([result_type] * n)}) -> ({ret_types})
      func.return {", ".join(f"%r#{k}" for k in range(n))} : {ret_types}
    }}"""
    module = Parser(load_all(), text).parse_module()
    return list(get_backend("interpreter").compile(module, "main")(*inputs))


def _inputs(shape=(2, 4)) -> list[np.ndarray]:
    rng = np.random.default_rng(0)
    return [rng.integers(-50, 50, shape).astype(np.int64) for _ in PROCS]


def _groups(strategy: str, ids: list[list[int]]) -> list[list[tuple[int, int]]]:
    """The spec's Python definitions of the four strategies (spec "Collective ops")."""
    if strategy == "cross_replica":
        return [[(r, p) for r in g] for g in ids for p in range(P)]
    if strategy == "cross_partition":
        return [[(r, p) for p in g] for g in ids for r in range(R)]
    if strategy == "cross_replica_and_partition":
        return [[(r, p) for p in range(P) for r in g] for g in ids]
    return [[divmod(i, P) for i in g] for g in ids]


ADD = """({
        ^bb0(%lhs: tensor<i64>, %rhs: tensor<i64>):
          %s = hlo.add %lhs, %rhs : tensor<i64>
          hlo.return %s : tensor<i64>
      })"""


@pytest.mark.parametrize("strategy,attrs,ids", [
    ("cross_replica", "replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>", [[0, 1]]),
    ("cross_replica_and_partition",
     "replica_groups = dense<[[0], [1]]> : tensor<2x1xi64>, channel_handle = #hlo.channel_handle<handle = 1, type = 1>",
     [[0], [1]]),
    ("flattened_ids", "replica_groups = dense<[[0, 3], [1, 2]]> : tensor<2x2xi64>, "
     "channel_handle = #hlo.channel_handle<handle = 1, type = 1>, use_global_device_ids", [[0, 3], [1, 2]]),
])
def test_all_reduce_groups(strategy, attrs, ids):
    xs = _inputs()
    body = f"""%r = "hlo.all_reduce"(%x) {ADD} {{{attrs}}} : (tensor<2x4xi64>) -> tensor<2x4xi64>
      func.return %r : tensor<2x4xi64>"""
    got = _run(body, "(%x: tensor<2x4xi64>) -> tensor<2x4xi64>", "tensor<2x4xi64>", xs, ", ".join(["tensor<2x4xi64>"] * 4))
    by_proc = dict(zip(PROCS, xs))
    for group in _groups(strategy, ids):
        want = sum(by_proc[p] for p in group)
        for p in group:
            np.testing.assert_array_equal(got[PROCS.index(p)], want)


def test_all_gather_and_reduce_scatter_cross_partition_grid():
    xs = _inputs()
    attrs = "replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>"
    body = f"""%g = "hlo.all_gather"(%x) {{all_gather_dim = 0 : i64, {attrs}}} : (tensor<2x4xi64>) -> tensor<4x4xi64>
      %s = "hlo.reduce_scatter"(%g) {ADD} {{scatter_dimension = 1 : i64, {attrs}}} : (tensor<4x4xi64>) -> tensor<4x2xi64>
      func.return %s : tensor<4x2xi64>"""
    got = _run(body, "(%x: tensor<2x4xi64>) -> tensor<4x2xi64>", "tensor<2x4xi64>", xs, ", ".join(["tensor<4x2xi64>"] * 4))
    by_proc = dict(zip(PROCS, xs))
    for group in _groups("cross_replica", [[0, 1]]):
        gathered = np.concatenate([by_proc[q] for q in group], axis=0)
        reduced = gathered * len(group)  # every member gathered the same tensor
        for k, p in enumerate(group):
            np.testing.assert_array_equal(got[PROCS.index(p)], np.split(reduced, len(group), axis=1)[k])


def test_all_to_all_cross_partition_and_permute():
    xs = _inputs((2, 4))
    body = """%t = "hlo.all_to_all"(%x) {split_dimension = 1 : i64, concat_dimension = 0 : i64, split_count = 2 : i64,
        replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, channel_handle = #hlo.channel_handle<handle = 2, type = 1>}
        : (tensor<2x4xi64>) -> tensor<4x2xi64>
      %p = "hlo.collective_permute"(%t) {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>}
        : (tensor<4x2xi64>) -> tensor<4x2xi64>
      func.return %p : tensor<4x2xi64>"""
    got = _run(body, "(%x: tensor<2x4xi64>) -> tensor<4x2xi64>", "tensor<2x4xi64>", xs, ", ".join(["tensor<4x2xi64>"] * 4))
    by_proc = dict(zip(PROCS, xs))
    exchanged = {}
    for group in _groups("cross_partition", [[0, 1]]):
        for k, p in enumerate(group):
            exchanged[p] = np.concatenate([np.split(by_proc[q], 2, axis=1)[k] for q in group], axis=0)
    for r, p in PROCS:  # permute across replicas (no channel): replica 0 -> replica 1, replica 0 gets zeros
        want = exchanged[(0, p)] if r == 1 else np.zeros_like(exchanged[(0, p)])
        np.testing.assert_array_equal(got[PROCS.index((r, p))], want)


def test_replica_and_partition_ids():
    body = """%r = hlo.replica_id : tensor<ui32>
      %p = hlo.partition_id : tensor<ui32>
      %c = hlo.constant dense<10> : tensor<ui32>
      %m = hlo.multiply %r, %c : tensor<ui32>
      %s = hlo.add %m, %p : tensor<ui32>
      %x2 = hlo.convert %s : (tensor<ui32>) -> tensor<i64>
      %o = hlo.add %x, %x2 : tensor<i64>
      func.return %o : tensor<i64>"""
    xs = [np.array(100 * k, np.int64) for k in range(4)]
    got = _run(body, "(%x: tensor<i64>) -> tensor<i64>", "tensor<i64>", xs, ", ".join(["tensor<i64>"] * 4))
    assert [int(g) for g in got] == [100 * k + 10 * r + p for k, (r, p) in enumerate(PROCS)]


def test_a_missing_participant_times_out_naming_it(monkeypatch):
    monkeypatch.setattr(ops_collective, "RENDEZVOUS_TIMEOUT_S", 0.5)
    text = f"""
    func.func @joins(%x: tensor<2xi64>) -> tensor<2xi64> {{
      %r = "hlo.all_reduce"(%x) {ADD} {{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}} : (tensor<2xi64>) -> tensor<2xi64>
      func.return %r : tensor<2xi64>
    }}
    func.func @skips(%x: tensor<2xi64>) -> tensor<2xi64> {{
      func.return %x : tensor<2xi64>
    }}
    func.func @main(%a: tensor<2xi64>, %b: tensor<2xi64>) -> (tensor<2xi64>, tensor<2xi64>) {{
      %r:2 = "interpreter.run_parallel"(%a, %b) {{programs = [[@joins], [@skips]]}}
        : (tensor<2xi64>, tensor<2xi64>) -> (tensor<2xi64>, tensor<2xi64>)
      func.return %r#0, %r#1 : tensor<2xi64>, tensor<2xi64>
    }}"""
    exe = get_backend("interpreter").compile(Parser(load_all(), text).parse_module(), "main")
    with pytest.raises(Exception, match=r"replica 0, partition 0.*timed out.*processes \[\(1, 0\)\]"):
        exe(np.ones(2, np.int64), np.ones(2, np.int64))


def test_a_failing_process_aborts_the_others(monkeypatch):
    monkeypatch.setattr(ops_collective, "RENDEZVOUS_TIMEOUT_S", 30.0)
    text = """
    func.func @waits(%t: !hlo.token) -> (tensor<2xi64>, !hlo.token) {
      %v, %t2 = "hlo.recv"(%t) {channel_handle = #hlo.channel_handle<handle = 7, type = 1>}
        : (!hlo.token) -> (tensor<2xi64>, !hlo.token)
      func.return %v, %t2 : tensor<2xi64>, !hlo.token
    }
    func.func @fails(%t: !hlo.token) -> (tensor<2xi64>, !hlo.token) {
      %v, %t2 = "hlo.infeed"(%t) : (!hlo.token) -> (tensor<2xi64>, !hlo.token)
      func.return %v, %t2 : tensor<2xi64>, !hlo.token
    }
    func.func @main() -> tensor<2xi64> {
      %t = hlo.after_all : !hlo.token
      %r:4 = "interpreter.run_parallel"(%t, %t) {programs = [[@waits], [@fails]]}
        : (!hlo.token, !hlo.token) -> (tensor<2xi64>, !hlo.token, tensor<2xi64>, !hlo.token)
      func.return %r#0 : tensor<2xi64>
    }"""
    import time

    exe = get_backend("interpreter").compile(Parser(load_all(), text).parse_module(), "main")
    start = time.monotonic()
    with pytest.raises(Exception, match=r"replica 1, partition 0.*infeed is empty"):
        exe()
    assert time.monotonic() - start < 10  # the waiting process was released, not left to time out


def test_broadcast_reduce_send_recv_outfeed():
    """collective_broadcast (dynamic root), collective_reduce onto the root, and a send from
    every process to its neighbour's recv (channel = receiver's flat id + 1); outfeed records."""
    xs = _inputs((3,))
    body = f"""%roots = hlo.constant dense<1> : tensor<1xi32>
      %b = "hlo.collective_broadcast"(%x, %roots) {{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>,
        has_dynamic_root}} : (tensor<3xi64>, tensor<1xi32>) -> tensor<3xi64>
      %r = "hlo.collective_reduce"(%x) {ADD} {{replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>}}
        : (tensor<3xi64>) -> tensor<3xi64>
      %sum = hlo.add %b, %r : tensor<3xi64>
      %t0 = hlo.after_all : !hlo.token
      %t1 = "hlo.outfeed"(%sum, %t0) : (tensor<3xi64>, !hlo.token) -> !hlo.token
      func.return %sum : tensor<3xi64>"""
    got = _run(body, "(%x: tensor<3xi64>) -> tensor<3xi64>", "tensor<3xi64>", xs, ", ".join(["tensor<3xi64>"] * 4))
    by_proc = dict(zip(PROCS, xs))
    for r, p in PROCS:  # cross_replica groups {(0,p), (1,p)}
        broadcast = by_proc[(1, p)]  # dynamic root 1 of group [0, 1]
        reduced = by_proc[(0, p)] + by_proc[(1, p)] if r == 1 else 0 * by_proc[(r, p)]  # root of [1, 0] is 1
        np.testing.assert_array_equal(got[PROCS.index((r, p))], broadcast + reduced)


def test_send_recv_between_processes():
    text = """
    func.func @sender(%x: tensor<2xi64>, %t: !hlo.token) -> !hlo.token {
      %t1 = "hlo.send"(%x, %t) {channel_handle = #hlo.channel_handle<handle = 5, type = 1>}
        : (tensor<2xi64>, !hlo.token) -> !hlo.token
      func.return %t1 : !hlo.token
    }
    func.func @receiver(%t: !hlo.token) -> (tensor<2xi64>, !hlo.token) {
      %v, %t1 = "hlo.recv"(%t) {channel_handle = #hlo.channel_handle<handle = 5, type = 1>}
        : (!hlo.token) -> (tensor<2xi64>, !hlo.token)
      func.return %v, %t1 : tensor<2xi64>, !hlo.token
    }
    func.func @main(%x: tensor<2xi64>) -> tensor<2xi64> {
      %t = hlo.after_all : !hlo.token
      %r:3 = "interpreter.run_parallel"(%x, %t, %t) {programs = [[@receiver], [@sender]]}
        : (tensor<2xi64>, !hlo.token, !hlo.token) -> (tensor<2xi64>, !hlo.token, !hlo.token)
      func.return %r#0 : tensor<2xi64>
    }"""
    # process order is replica-major: the receiver (replica 0) takes the first input (a token) ...
    text = text.replace('"interpreter.run_parallel"(%x, %t, %t)', '"interpreter.run_parallel"(%t, %x, %t)')
    text = text.replace(": (tensor<2xi64>, !hlo.token, !hlo.token) -> (tensor<2xi64>, !hlo.token, !hlo.token)",
                        ": (!hlo.token, tensor<2xi64>, !hlo.token) -> (tensor<2xi64>, !hlo.token, !hlo.token)")
    exe = get_backend("interpreter").compile(Parser(load_all(), text).parse_module(), "main")
    x = np.array([7, -3], np.int64)
    np.testing.assert_array_equal(exe(x)[0], x)
