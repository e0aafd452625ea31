"""The persistent object-code cache (backends/cpu/compile_cache.py): miss then
hit, hit in a new process, corrupted entries rebuilt, LRU eviction under the
size bound, concurrent processes; every result checked against numpy."""

import os
import re
import subprocess
import sys

import numpy as np
import pytest

from minixla.backends.cpu import compile_cache, jit
from minixla.backends.cpu.compile_cache import DiskCache, cache_directory
from tests.paths import REPO_ROOT

SCRIPT = """
import numpy as np
from minixla.frontend import tf
from minixla.backends.cpu import jit

@tf.function(jit_compile=True)
def f(x, y):
    return tf.reduce_sum(tf.tanh(x) * 3.0 + y, axis=0)

x = np.arange(12, dtype=np.float32).reshape(3, 4) / 7
y = np.ones((3, 4), np.float32)
got = f(x, y).numpy()
want = (np.tanh(x.astype(np.float64)) * 3 + y).sum(axis=0)
assert np.allclose(got, want, rtol=1e-5), (got, want)
print(got.tobytes().hex(), "from_disk", int(any(m.from_disk_cache for m in jit._CACHE.values())))
"""


def _run_script(cache_dir, full: bool = False, log: list | None = None, env: dict | None = None) -> str:
    env = dict(os.environ, PYTHONPATH=str(REPO_ROOT), MINIXLA_CACHE_DIR=str(cache_dir), MINIXLA_LOG_COMPILE="1",
               **(env or {}))
    env.pop("MINIXLA_DISABLE_CACHE", None)
    out = subprocess.run([sys.executable, "-c", SCRIPT], cwd=REPO_ROOT, env=env, capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    if log is not None:
        log.append(out.stderr)
    return out.stdout.strip() if full else out.stdout.split()[-1]


LLVM_IR = """
define double @scale(double %x) {
  %y = fmul double %x, 3.0
  %z = fadd double %y, 1.5
  ret double %z
}
"""


def _call_scale(module: jit.JitModule, x: float) -> float:
    import ctypes

    return ctypes.CFUNCTYPE(ctypes.c_double, ctypes.c_double)(module.address("scale"))(x)


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("MINIXLA_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("MINIXLA_DISABLE_CACHE", raising=False)
    return tmp_path


def test_miss_then_hit_counts_compiles(cache_dir):
    cache = compile_cache.active_cache()
    first = jit.JitModule(LLVM_IR)
    assert not first.from_disk_cache and cache.misses == 1 and cache.hits == 0
    assert len(cache.entries()) == 1
    second = jit.JitModule(LLVM_IR)  # a new engine: only the disk cache can spare the codegen
    assert second.from_disk_cache and cache.hits == 1
    for module in (first, second):
        assert _call_scale(module, 2.0) == 2.0 * 3.0 + 1.5
    # a hit never parsed the IR (an empty stand-in module carried the cached object): parsed and optimized
    # lazily when asked for
    assert second._module is None
    assert "fmul" in second.optimized_ir() and second.assembly() == first.assembly()


def test_different_opt_level_is_a_different_entry(cache_dir):
    jit.JitModule(LLVM_IR, opt_level=3)
    jit.JitModule(LLVM_IR, opt_level=1)
    assert len(compile_cache.active_cache().entries()) == 2


def test_corrupted_and_truncated_entries_are_rebuilt(cache_dir):
    cache = compile_cache.active_cache()
    jit.JitModule(LLVM_IR)
    (_, _, path), = cache.entries()
    blob = path.read_bytes()
    for damaged in (blob[:-7], blob[:-40] + b"\x00" * 40, b"garbage"):
        path.write_bytes(damaged)
        rebuilt = jit.JitModule(LLVM_IR)
        assert not rebuilt.from_disk_cache
        assert _call_scale(rebuilt, -1.0) == -1.5
        assert path.read_bytes() == blob  # written again, whole
    assert cache.corrupt == 3


def test_eviction_keeps_the_size_bound_and_the_newest(tmp_path):
    entry = len(compile_cache.MAGIC) + 32 + 1000
    cache = DiskCache(tmp_path, max_bytes=3 * entry)
    for i in range(10):
        cache.put(f"k{i}", bytes([i]) * 1000)
        os.utime(tmp_path / f"k{i}.o.mx", (i, i))  # distinct mtimes, oldest first
        assert cache.size() <= 3 * entry
    assert {p.name for _, _, p in cache.entries()} == {"k7.o.mx", "k8.o.mx", "k9.o.mx"}
    assert cache.get("k0") is None and cache.get("k9") == bytes([9]) * 1000
    assert cache.get("k7") == bytes([7]) * 1000  # a hit makes k7 the newest...
    cache.put("new", b"n" * 1000)
    names = {p.name for _, _, p in cache.entries()}
    assert names == {"k7.o.mx", "k9.o.mx", "new.o.mx"}  # ...so k8, now the oldest, goes


def test_directory_from_environment(monkeypatch, tmp_path):
    monkeypatch.delenv("MINIXLA_DISABLE_CACHE", raising=False)
    monkeypatch.setenv("MINIXLA_CACHE_DIR", "off")
    assert cache_directory() is None and compile_cache.active_cache() is None
    monkeypatch.delenv("MINIXLA_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache_directory() == tmp_path / "minixla"
    monkeypatch.setenv("MINIXLA_DISABLE_CACHE", "1")
    assert cache_directory() is None
    monkeypatch.delenv("MINIXLA_DISABLE_CACHE")
    monkeypatch.setenv("MINIXLA_CACHE_MAX_BYTES", "lots")
    with pytest.raises(ValueError, match="MINIXLA_CACHE_MAX_BYTES"):
        compile_cache.active_cache()


def test_disabled_cache_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("MINIXLA_CACHE_DIR", "off")
    module = jit.JitModule(LLVM_IR)
    assert not module.from_disk_cache and _call_scale(module, 0.0) == 1.5
    assert list(tmp_path.iterdir()) == []


def test_hit_in_a_new_process_skips_the_cpu_passes_and_llvm(tmp_path):
    logs: list[str] = []
    assert _run_script(tmp_path, log=logs) == "0"
    assert _run_script(tmp_path, log=logs) == "1"
    assert "cpu-pass" in logs[0] and "llvm-optimize" in logs[0] and "hlo-optimize" in logs[0]
    assert "cpu-pass" not in logs[1] and "llvm-optimize" not in logs[1] and "load-cached-object" in logs[1]
    # keyed before hlo-optimize (frontend/compile_reuse.py), so the hit skips it and its imports too;
    # by the traced graph, so it skips legalization too
    assert "hlo-optimize" not in logs[1] and "tf-legalize-to-hlo" in logs[0]
    assert "tf-legalize-to-hlo" not in logs[1] and "graph-key" in logs[1]


def test_changed_settings_miss_the_frontend_key(tmp_path):
    """A setting that steers compilation (here bounds checking) keys a different whole compile."""
    logs: list[str] = []
    _run_script(tmp_path, log=logs)
    env = {"MINIXLA_CHECK_BOUNDS": "1"}
    _run_script(tmp_path, log=logs, env=env)
    assert "hlo-optimize" in logs[1] and "insert-bounds-checks" in logs[1]
    _run_script(tmp_path, log=logs, env=env)
    assert "hlo-optimize" not in logs[2]


def test_optimized_stage_of_a_cache_hit_is_built_on_demand(tmp_path, monkeypatch):
    """A hit has no optimized module; asking for that stage's text runs hlo-optimize then."""
    from minixla.frontend import tf

    monkeypatch.setenv("MINIXLA_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("MINIXLA_DISABLE_CACHE", raising=False)
    x = tf.constant([[1.0, -2.0], [3.0, 4.0]])
    texts, hits = [], []
    for _ in range(2):  # a fresh tf.function each time: the second compile comes from the disk cache
        f = tf.function(lambda v: tf.reduce_sum(tf.exp(v) * 2.0), jit_compile=True, name="same_body")
        assert abs(float(f(x)) - float(2 * np.exp(x.numpy()).sum())) < 1e-4
        hits.append(f._cache[next(iter(f._cache))].compiled._optimized is None)
        texts.append(f.experimental_get_compiler_ir(x)(stage="optimized_hlo"))
    assert hits == [False, True]  # the second trace's name differs (a trace counter): no part of the key
    texts = [re.sub(r"same_body_\d+", "same_body", t) for t in texts]
    assert texts[0] == texts[1] and "hlo." in texts[0]


def test_lowered_entry_with_foreign_content_is_rebuilt(tmp_path):
    """A whole-compile entry whose checksum is right but whose content does not unpickle."""
    _run_script(tmp_path)
    cache = DiskCache(tmp_path)
    lowered = [p.name.removesuffix(".o.mx") for _, _, p in cache.entries()
               if cache.get(p.name.removesuffix(".o.mx")).startswith(b"\x80")]  # pickles, not ELF objects
    assert len(lowered) == 2  # keyed by the optimized module (backend) and before optimizing (frontend)
    for key in lowered:
        cache.put(key, b"not a pickle")
    logs: list[str] = []
    _run_script(tmp_path, log=logs)  # lowered again (its result checked against numpy in the script)
    assert "cpu-pass" in logs[0]
    _run_script(tmp_path, log=logs)  # the rewritten entry is whole again
    assert "cpu-pass" not in logs[1]


def test_concurrent_processes_share_one_directory(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(REPO_ROOT), MINIXLA_CACHE_DIR=str(tmp_path))
    env.pop("MINIXLA_DISABLE_CACHE", None)
    procs = [subprocess.Popen([sys.executable, "-c", SCRIPT], cwd=REPO_ROOT, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for _ in range(4)]
    for proc in procs:
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err[-3000:]
    cache = DiskCache(tmp_path)
    entries = cache.entries()
    assert entries and not [p for p in tmp_path.iterdir() if p.name.startswith(".tmp-")]
    for _, _, path in entries:  # every entry is whole
        assert cache.get(path.name.removesuffix(".o.mx")) is not None
    assert _run_script(tmp_path) == "1"


def test_cached_result_equals_uncached(tmp_path):
    """Same bits with the cache off, on a miss and on a hit (each checked against numpy in the script)."""
    outputs = [_run_script(setting, full=True) for setting in ("off", tmp_path, tmp_path)]
    assert [o.split()[-1] for o in outputs] == ["0", "0", "1"]
    assert len({o.split()[0] for o in outputs}) == 1
