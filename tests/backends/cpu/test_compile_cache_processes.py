"""Processes sharing one MINIXLA_CACHE_DIR stay consistent: several processes compile
the same and different programs into one directory at once (also under a size bound
small enough that they evict each other's entries meanwhile); every result is checked
against numpy in the child, no partial entry is ever left or read, and a later
process gets its programs from the cache."""

from __future__ import annotations

import os
import subprocess
import sys

from minixla.backends.cpu.compile_cache import DiskCache
from tests.paths import REPO_ROOT

SCRIPT = """
import sys
import numpy as np
from minixla.frontend import tf
from minixla.backends.cpu import jit

PROGRAMS = {
    0: (lambda x: tf.reduce_sum(tf.tanh(x) * 3.0, axis=0), lambda x: (np.tanh(x) * 3.0).sum(axis=0)),
    1: (lambda x: tf.exp(x) - x, lambda x: np.exp(x) - x),
    2: (lambda x: tf.reduce_max(x * x, axis=1), lambda x: (x * x).max(axis=1)),
    3: (lambda x: tf.transpose(x) + 1.0, lambda x: x.T + 1.0),
}
hits = []
for k in [int(a) for a in sys.argv[1:]]:
    fn, oracle = PROGRAMS[k]
    f = tf.function(fn, jit_compile=True)
    x = (np.arange(12, dtype=np.float32).reshape(3, 4) - 5) / 7
    got = f(x).numpy()
    assert np.allclose(got, oracle(x.astype(np.float64)), rtol=1e-5, atol=1e-6), (k, got)
hits = sum(m.from_disk_cache for m in jit._CACHE.values())
print("ok", len(jit._CACHE), hits)
"""


def _spawn(cache_dir, programs, max_bytes=None):
    env = dict(os.environ, PYTHONPATH=str(REPO_ROOT), MINIXLA_CACHE_DIR=str(cache_dir))
    env.pop("MINIXLA_DISABLE_CACHE", None)
    if max_bytes is not None:
        env["MINIXLA_CACHE_MAX_BYTES"] = str(max_bytes)
    return subprocess.Popen([sys.executable, "-c", SCRIPT, *map(str, programs)], cwd=REPO_ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _finish(procs) -> list[tuple[int, int]]:
    out = []
    for proc in procs:
        stdout, stderr = proc.communicate(timeout=400)
        assert proc.returncode == 0, stderr[-3000:]
        _, compiled, hits = stdout.split()[-3:]
        out.append((int(compiled), int(hits)))
    return out


def _assert_whole(cache_dir) -> None:
    assert not [p for p in cache_dir.iterdir() if p.name.startswith(".tmp-")]  # no partial write left
    cache = DiskCache(cache_dir)
    for _, _, path in cache.entries():
        assert cache.get(path.name.removesuffix(".o.mx")) is not None  # every entry passes its checksum


def test_processes_compile_same_and_different_programs_into_one_directory(tmp_path):
    # the same programs at once, and programs only one process compiles; each process traces in the same
    # order, because trace names carry a per-process counter (__inference_<lambda>_N) that is part of the key
    orders = [[0], [0, 1], [0, 1, 2], [0, 1, 2, 3], [0, 1, 2, 3]]
    _finish([_spawn(tmp_path, order) for order in orders])
    _assert_whole(tmp_path)
    [(compiled, hits)] = _finish([_spawn(tmp_path, [0, 1, 2, 3])])  # everything is there now
    assert (compiled, hits) == (4, 4)


def test_processes_evicting_each_other_stay_correct(tmp_path):
    # a bound of about one entry: every write evicts what the others just wrote or are reading
    _finish([_spawn(tmp_path, order, max_bytes=6000) for order in ([0, 1, 2, 3], [3, 2, 1, 0], [1, 0, 3, 2])])
    _assert_whole(tmp_path)
