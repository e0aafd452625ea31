"""`frozen_heap()`: while a compile runs, the objects that existed before it are out of the
garbage collector's sight (`gc.freeze`), and back in it afterwards (`gc.unfreeze`).

A compile allocates hundreds of thousands of short-lived IR objects, so CPython runs its
collector hundreds of times; each full (oldest-generation) collection also scans every object
the process already had (xDSL's op definitions, numpy, the user's data): two such collections
cost ~65 ms of the MLP training step's ~1 s first call. Frozen objects are not scanned, and
the young generations still collect the compile's own cyclic garbage, so memory stays bounded.
Nested uses freeze once (the outermost one unfreezes).

The youngest generation's threshold is also raised to `YOUNG_THRESHOLD` allocations for the
duration (and put back after): at CPython's default of 700, the MLP step's first call ran ~180
young and ~15 middle collections (~22 ms of CPU); at 20,000 it runs ~10 (~9 ms). The garbage
waits a little longer (at most that many container objects, a few MB; peak RSS unchanged).
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from minixla import _importing
from minixla._importing import importing  # noqa: F401 -- re-exported: our modules import inside it

_depth = 0
_lock = threading.Lock()
YOUNG_THRESHOLD = 20_000
_saved_threshold: tuple[int, ...] | None = None


@contextmanager
def frozen_heap() -> Iterator[None]:
    global _depth, _saved_threshold
    with _lock:
        _depth += 1
        _importing.frozen_depth = _depth
        if _depth == 1:
            gc.freeze()
            _saved_threshold = gc.get_threshold()
            if _saved_threshold[0] and _saved_threshold[0] < YOUNG_THRESHOLD:  # 0: automatic collection off
                gc.set_threshold(YOUNG_THRESHOLD, *_saved_threshold[1:])
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            _importing.frozen_depth = _depth
            if _depth == 0:
                gc.unfreeze()
                if _saved_threshold is not None and gc.get_threshold()[0] == max(YOUNG_THRESHOLD, _saved_threshold[0]):
                    gc.set_threshold(*_saved_threshold)  # unless someone changed it meanwhile
                _saved_threshold = None
