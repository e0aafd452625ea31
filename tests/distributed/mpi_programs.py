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


if __name__ == "__main__":
    {"cpu_collectives": cpu_collectives, "mismatched_shapes": mismatched_shapes, "dead_worker": dead_worker}[sys.argv[1]]()
