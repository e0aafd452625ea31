"""passes/gc_pause.py's `importing()`: no collection while our modules import, and what they made
joins the oldest generation without a scan; it nests, keeps a disabled collector disabled, and
inside `frozen_heap` leaves the unfreezing to it."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
from pathlib import Path

import pytest

from minixla.passes.gc_pause import frozen_heap, importing

ROOT = Path(__file__).resolve().parents[2]


def _in_generation(obj, generation: int) -> bool:
    return any(o is obj for o in gc.get_objects(generation))


@pytest.fixture(autouse=True)
def _forget_probes():
    yield
    for name in [n for n in sys.modules if n.startswith("_gc_pause_probe_")]:
        del sys.modules[name]


def _import_something() -> None:
    """A new module in sys.modules (what `importing` watches for)."""
    import types

    sys.modules[f"_gc_pause_probe_{len(sys.modules)}"] = types.ModuleType("probe")


def test_no_collection_inside_and_what_an_import_made_is_oldest_after():
    assert gc.isenabled() and gc.get_freeze_count() == 0
    with importing():
        assert not gc.isenabled()
        with importing():
            made = [[] for _ in range(3)]
            _import_something()
        assert not gc.isenabled()  # the inner exit leaves the outer pause on
    assert gc.isenabled() and gc.get_freeze_count() == 0
    assert _in_generation(made, 2)


def test_without_an_import_nothing_moves():
    with importing():
        made = [[]]
    assert gc.isenabled() and not _in_generation(made, 2)


def test_a_disabled_collector_stays_disabled_and_nothing_moves():
    gc.disable()
    try:
        with importing():
            made = [[]]
            _import_something()
        assert not gc.isenabled() and _in_generation(made, 0)
    finally:
        gc.enable()


def test_inside_frozen_heap_the_objects_stay_frozen_until_its_end():
    with frozen_heap():
        with importing():
            made = [[]]
            _import_something()
        assert gc.get_freeze_count() > 0 and not _in_generation(made, 0)
    assert gc.get_freeze_count() == 0 and _in_generation(made, 2)


def test_importing_the_frontend_runs_almost_no_collection_and_restores_everything():
    code = ("import gc, sys\nruns = []\ngc.callbacks.append(lambda phase, info: runs.append(phase))\n"
            "import minixla.frontend\n"
            "import dataclasses\n"
            "print(len(runs), gc.isenabled(), gc.get_freeze_count(), 'exec' in vars(dataclasses))\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)),
                         capture_output=True, text=True, check=True).stdout.split()
    # (~170 before; the few left are the standard modules imported before the pause can start)
    assert int(out[0]) <= 3 and out[1:] == ["True", "0", "False"]


FIRST_COMPILE = """
import builtins, gc, sys
import numpy as np
from minixla.frontend import tf

outside = []  # dataclass methods built by plain exec: an import outside importing()
plain_exec = builtins.exec


def counting_exec(source, *args, **kwargs):
    if sys._getframe(1).f_code.co_filename.endswith("dataclasses.py"):
        outside.append(sys._getframe(1).f_code.co_name)
    return plain_exec(source, *args, **kwargs)


old = []
gc.callbacks.append(lambda phase, info: phase == "start" and info["generation"] == 2 and old.append(1))
builtins.exec = counting_exec
f = tf.function(lambda x, y: tf.reduce_mean(tf.multiply(x ** 2, 3) + y), jit_compile=True)
x = tf.constant(np.ones((256, 256), np.float32))
got = float(f(x, x))
builtins.exec = plain_exec
print(len(outside), len(old), got)
"""


@pytest.mark.parametrize("cache", ["off", "empty"])
def test_a_first_compile_imports_inside_importing(cache, tmp_path):
    """The modules a process's first jit compile imports (the CPU backend and llvmlite, the pass
    modules with xDSL's dialects, the kernel shapes, the cache key's host target) are imported inside
    `importing()`. What shows it: no dataclass method compiled from its source text during the call,
    and no full collection (outside, xDSL's dialects alone built ~50 dataclass classes and ran ~20
    collections, ~9 ms of the running example's first call)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), MINIXLA_CACHE_DIR="off" if cache == "off" else str(tmp_path))
    out = subprocess.run([sys.executable, "-c", FIRST_COMPILE], cwd=ROOT, env=env, capture_output=True, text=True,
                         check=True).stdout.split()
    assert out[:2] == ["0", "0"] and float(out[2]) == 4.0


def test_dataclass_methods_are_compiled_once_per_text_and_behave_the_same():
    import dataclasses

    from minixla import _importing

    def make():
        @dataclasses.dataclass(frozen=True)
        class Point:
            x: int
            y: int = 2

        return Point

    plain = make()
    with importing():
        assert vars(dataclasses)["exec"] is _importing._cached_exec
        first, second = make(), make()
    assert "exec" not in vars(dataclasses)
    assert first.__init__.__code__ is second.__init__.__code__  # one compile for both classes
    for cls in (plain, first, second):
        p = cls(1)
        assert (repr(p), p == cls(1, 2), hash(p) == hash(cls(1, 2))) == (f"{cls.__qualname__}(x=1, y=2)", True, True)
        assert cls.__init__.__annotations__ == plain.__init__.__annotations__  # (no inherited __future__ flags)
        with pytest.raises(dataclasses.FrozenInstanceError):
            p.x = 3
