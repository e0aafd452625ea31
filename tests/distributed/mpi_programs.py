"""Programs the MPI tests launch with `mpiexec -n N python -m tests.distributed.mpi_programs NAME`
(each checks its own results against numpy and exits non-zero on a mismatch)."""

from __future__ import annotations

import sys

import numpy as np


def cpu_collectives() -> None:
    """Every host collective of a compiled CPU program against numpy, on this MPI world."""
    from xdsl.parser import Parser

    from minixla.backends import get_backend
    from minixla.backends.mpi import world
    from minixla.dialects import load_all

    w = world()
    n, r = w.size, w.rank
    add = """({
      ^bb0(%p: tensor<f32>, %q: tensor<f32>):
        %s = hlo.add %p, %q : tensor<f32>
        hlo.return %s : tensor<f32>
    })"""
    text = f"""
    func.func @main(%x: tensor<{n}x4xf32>) -> (tensor<{n}x4xf32>, tensor<{n * n}x4xf32>, tensor<1x4xf32>,
                                              tensor<{n}x4xf32>, tensor<{n}x4xf32>, tensor<{n}x4xf32>, tensor<ui32>) {{
      %y = hlo.multiply %x, %x : tensor<{n}x4xf32>
      %ar = "hlo.all_reduce"(%y) {add} {{replica_groups = dense<[{list(range(n))}]> : tensor<1x{n}xi64>}}
        : (tensor<{n}x4xf32>) -> tensor<{n}x4xf32>
      %ag = "hlo.all_gather"(%ar) {{all_gather_dim = 0 : i64, replica_groups = dense<[{list(range(n))}]> : tensor<1x{n}xi64>}}
        : (tensor<{n}x4xf32>) -> tensor<{n * n}x4xf32>
      %rs = "hlo.reduce_scatter"(%x) {add} {{scatter_dimension = 0 : i64, replica_groups = dense<[{list(range(n))}]> : tensor<1x{n}xi64>}}
        : (tensor<{n}x4xf32>) -> tensor<1x4xf32>
      %aa = "hlo.all_to_all"(%x) {{split_dimension = 0 : i64, concat_dimension = 0 : i64, split_count = {n} : i64,
        replica_groups = dense<[{list(range(n))}]> : tensor<1x{n}xi64>}} : (tensor<{n}x4xf32>) -> tensor<{n}x4xf32>
      %cp = "hlo.collective_permute"(%x) {{source_target_pairs = dense<{[[i, (i + 1) % n] for i in range(n)]}> : tensor<{n}x2xi64>}}
        : (tensor<{n}x4xf32>) -> tensor<{n}x4xf32>
      %bc = "hlo.collective_broadcast"(%x) {{replica_groups = dense<[{list(reversed(range(n)))}]> : tensor<1x{n}xi64>}}
        : (tensor<{n}x4xf32>) -> tensor<{n}x4xf32>
      %id = hlo.replica_id : tensor<ui32>
      func.return %ar, %ag, %rs, %aa, %cp, %bc, %id : tensor<{n}x4xf32>, tensor<{n * n}x4xf32>, tensor<1x4xf32>,
        tensor<{n}x4xf32>, tensor<{n}x4xf32>, tensor<{n}x4xf32>, tensor<ui32>
    }}"""
    module = Parser(load_all(), text).parse_module()
    xs = [np.arange(n * 4, dtype=np.float32).reshape(n, 4) * (k + 1) for k in range(n)]
    ar, ag, rs, aa, cp, bc, rid = get_backend("cpu").compile(module, "main")(xs[r])
    total = sum(x * x for x in xs)
    np.testing.assert_allclose(ar, total, rtol=1e-6)
    np.testing.assert_allclose(ag, np.concatenate([total] * n), rtol=1e-6)
    np.testing.assert_allclose(rs, sum(xs)[r:r + 1], rtol=1e-6)
    np.testing.assert_array_equal(aa, np.concatenate([x[r:r + 1] for x in xs]))
    np.testing.assert_array_equal(cp, xs[(r - 1) % n])
    np.testing.assert_array_equal(bc, xs[n - 1])
    assert int(rid) == r
    print(f"rank {r}: cpu collectives ok")


def mismatched_shapes() -> None:
    import minixla.distributed as hvd

    x = np.ones(3 if hvd.rank() == 0 else 4, np.float32)
    hvd.allreduce(x)


def dead_worker() -> None:
    import os

    import minixla.distributed as hvd

    hvd.init()
    if hvd.rank() == 1:
        os._exit(3)  # dies without a word, before the collective
    hvd.allreduce(np.ones(4, np.float32))




def conformance(path: str, chunk_index: str) -> None:
    """One StableHLO `run_parallel` interpret case with every process a real MPI process running its
    program compiled for the CPU; `main` (inputs and checks) runs on the interpreter in every process."""
    from xdsl.dialects.builtin import ModuleOp

    from minixla.backends import get_backend
    from minixla.backends.interpreter.op_table import OP_IMPLS
    from minixla.backends.mpi import world
    from minixla.dialects import load_all
    from minixla.dialects.diagnostics import split_input
    from minixla.tools.testfile import run_chunk

    w = world()
    chunk = split_input(open(path).read())[int(chunk_index)]

    def run_parallel_on_mpi(op, args, interp):
        programs = op.grid()
        flat = [name for row in programs for name in row]
        if len(flat) != w.size or len(programs[0]) != w.num_partitions:
            raise RuntimeError(f"the case's grid is {len(programs)}x{len(programs[0])}; this run has {w.size} "
                               f"processes with MINIXLA_NUM_PARTITIONS={w.num_partitions}")
        arity = [len(interp.functions[name].function_type.inputs.data) for name in flat]
        start = sum(arity[:w.rank])
        mine = flat[w.rank]
        fn = interp.functions[mine].clone()
        alone = ModuleOp([fn])
        outs = get_backend("cpu").compile(alone, mine)(*args[start:start + arity[w.rank]])
        everyone = w.comm.allgather([np.asarray(o) for o in outs])
        return [v for outs_r in everyone for v in outs_r]

    OP_IMPLS["interpreter.run_parallel"] = run_parallel_on_mpi
    results = run_chunk(chunk, path, load_all(), get_backend("interpreter"))
    bad = [f"{r.name}: {r.reason}" for r in results if not r.passed]
    if bad:
        raise SystemExit(f"rank {w.rank}: " + "; ".join(bad))
    print(f"rank {w.rank}: {len(results)} case(s) pass")


def stuck_worker(when: str = "first") -> None:
    """Rank 1 never reaches an all-reduce: the first one (checked path), or one after an agreed one
    (the one-round-trip fast path, a blocking MPI call that the watchdog ends)."""
    import time

    import minixla.distributed as hvd

    hvd.init()
    if when == "agreed":
        hvd.allreduce(np.ones(4, np.float32))
    if hvd.rank() == 1:
        time.sleep(120)  # alive, but never reaches the collective
    hvd.allreduce(np.ones(4, np.float32))


def mismatch_after_agreement(size: str = "3") -> None:
    """Shapes agree for a few calls (the fast path), then rank 1 changes: the error still names both
    (a size above fastpath.MAX_BYTES takes the overlapped fast path)."""
    import minixla.distributed as hvd

    n = int(size)
    for _ in range(3):
        hvd.allreduce(np.ones(n, np.float32))
    hvd.allreduce(np.ones(n if hvd.rank() == 0 else n + 1, np.float32))


def fast_path() -> None:
    """All-reduces through minixla.distributed and compiled code, with shapes, dtypes and reductions
    changing between calls and other collectives in between, against numpy."""
    import minixla.distributed as hvd
    from minixla import tf

    n, r = hvd.size(), hvd.rank()

    def mine(shape, dtype, rank):
        return ((np.arange(int(np.prod(shape))).reshape(shape) % 7) + 1 + 3 * rank).astype(dtype)

    def everyone(shape, dtype):
        return [mine(shape, dtype, k) for k in range(n)]

    from minixla.backends.mpi import fastpath, world

    state = fastpath.agreement(world().comm)
    calls = [((3,), np.float32, hvd.Sum)] * 3 + [((2, 5), np.float32, hvd.Sum)] * 2 + [
        ((3,), np.float32, hvd.Max), ((3,), np.float32, hvd.Min), ((3,), np.int32, hvd.Sum),
        ((3,), np.float64, hvd.Average), ((3,), np.float64, hvd.Average), ((4096,), np.float32, hvd.Sum),
        ((300000,), np.float32, hvd.Sum), ((3,), np.int64, hvd.Max), ((3,), np.int64, hvd.Max)]
    expect = {hvd.Sum: sum, hvd.Max: lambda xs: np.maximum.reduce(xs), hvd.Min: lambda xs: np.minimum.reduce(xs),
              hvd.Average: lambda xs: sum(xs) / n}
    for i, (shape, dtype, op) in enumerate(calls):
        got = hvd.allreduce(mine(shape, dtype, r), op=op).numpy()
        want = expect[op](everyone(shape, dtype)).astype(dtype)
        assert got.dtype == want.dtype and got.shape == want.shape, (i, got.dtype, got.shape)
        np.testing.assert_allclose(got, want, rtol=1e-6, err_msg=f"call {i}")
        if i == 2:  # the third call went the one-round-trip way (the second learnt that K follows K)
            assert state.hits == 1, state.hits
        if i == 4:  # another collective between two agreed all-reduces
            np.testing.assert_array_equal(hvd.broadcast(mine((2,), np.float32, r), root_rank=1).numpy(),
                                          mine((2,), np.float32, 1))

    hits = state.hits  # gradients of several shapes in a fixed order: the successor predicts each one
    for i in range(12):
        shape = [(3,), (2, 5), (40000,)][i % 3]
        got = hvd.allreduce(mine(shape, np.float32, r), op=hvd.Sum).numpy()
        np.testing.assert_allclose(got, sum(everyone(shape, np.float32)), rtol=1e-6)
    assert state.hits - hits >= 8, state.hits - hits

    hits = state.hits  # above 256 KiB: the header in its own message, overlapped with the data's
    for i in range(8):
        shape = [(300000,), (3,)][i % 2]
        got = hvd.allreduce(mine(shape, np.float32, r), op=hvd.Sum).numpy()
        np.testing.assert_allclose(got, sum(everyone(shape, np.float32)), rtol=1e-6)
    assert state.hits - hits >= 4, state.hits - hits

    for shape in [(3,), (300000,)] * 3:  # Tensor operands are read where they are, and left as they were
        t = tf.constant(mine(shape, np.float32, r))
        got = hvd.allreduce(t, op=hvd.Average).numpy()
        np.testing.assert_allclose(got, sum(everyone(shape, np.float32)) / n, rtol=1e-6)
        np.testing.assert_array_equal(t.numpy(), mine(shape, np.float32, r))

    for _ in range(3):  # a strided operand: the native call declines it, the numpy steps copy it
        got = hvd.allreduce(mine((8,), np.float32, r)[::2], op=hvd.Sum).numpy()
        np.testing.assert_allclose(got, sum(everyone((8,), np.float32))[::2], rtol=1e-6)

    @tf.function(jit_compile=True)
    def reduce(v):
        return tf.distribute.get_replica_context().all_reduce("sum", v * 2.0) + 1.0

    for shape in [(5,)] * 4 + [(300000,)] * 4:  # (v * 2.0 is the compiled program's own buffer: in place)
        hvd.allreduce(mine((3,), np.float32, r))  # the world's agreement, between the compiled program's
        got = reduce(tf.constant(mine(shape, np.float32, r))).numpy()
        np.testing.assert_allclose(got, 2 * sum(everyone(shape, np.float32)) + 1, rtol=1e-6)
    overlapped = [e for s in fastpath._AGREEMENTS.values() for e in s.succ.values() if e is not None and e.overlapped]
    assert any(e.in_place for e in overlapped) and not all(e.in_place for e in overlapped), overlapped

    @tf.function(jit_compile=True)
    def chain(v):  # all-reduces reading all-reduces; `a` is read twice, the second time after two more
        ctx = tf.distribute.get_replica_context()
        a = ctx.all_reduce("sum", v)
        b = ctx.all_reduce("sum", ctx.all_reduce("sum", a))
        c = ctx.all_reduce("sum", b * 2.0) + a
        return ctx.all_reduce("sum", c), b

    for shape in [(5,), (300000,)]:  # the staging slots / the overlapped path reducing in place
        s = sum(everyone(shape, np.float32))
        b_want = n * n * s
        c_want = n * 2 * b_want + s
        kept = [chain(tf.constant(mine(shape, np.float32, r))) for _ in range(4)]  # held across later calls
        for out, b in kept:
            np.testing.assert_allclose(b.numpy(), b_want, rtol=1e-6)
            np.testing.assert_allclose(out.numpy(), n * c_want, rtol=1e-6)
    from minixla.backends.mpi import waiting

    print(f"rank {r}: fast path ok (native {fastpath._NATIVE is not None}, spin-then-yield "
          f"{'spin_ns' in waiting._KEEP})")


def keras_fit() -> None:
    """model.fit under strategy.scope() on every process = one process fitting the global batches."""
    from minixla import tf

    rng = np.random.default_rng(0)
    x = rng.normal(size=(256, 8)).astype(np.float32)
    y = (x @ rng.normal(size=(8, 1)) + 0.1).astype(np.float32)

    def fit(strategy):
        tf.keras.utils.set_random_seed(1)
        scope = strategy.scope() if strategy is not None else __import__("contextlib").nullcontext()
        with scope:
            model = tf.keras.Sequential([tf.keras.Input((8,)), tf.keras.layers.Dense(16, activation="relu"),
                                         tf.keras.layers.Dense(1)])
            model.compile(optimizer=tf.keras.optimizers.Adam(0.01), loss="mse", jit_compile=True)
        history = model.fit(x, y, batch_size=64, epochs=3, shuffle=False, verbose=0)
        return model.get_weights(), history.history["loss"]

    weights, losses = fit(tf.distribute.MirroredStrategy())
    ref_weights, ref_losses = fit(None)
    rel = max(float(np.max(np.abs(a - b)) / np.max(np.abs(b))) for a, b in zip(weights, ref_weights))
    assert rel <= 1e-5, rel
    np.testing.assert_allclose(losses, ref_losses, rtol=1e-5)
    print(f"keras fit ok: max relative weight difference {rel:.2e}")


PROGRAMS = {"cpu_collectives": cpu_collectives, "mismatched_shapes": mismatched_shapes, "dead_worker": dead_worker,
            "stuck_worker": stuck_worker, "keras_fit": keras_fit,
            "mismatch_after_agreement": mismatch_after_agreement, "fast_path": fast_path, "conformance": conformance}


if __name__ == "__main__":
    PROGRAMS[sys.argv[1]](*sys.argv[2:])
