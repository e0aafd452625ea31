"""`frozen_heap()`: while a compile runs, the objects that existed before it are out of the
garbage collector's sight (`gc.freeze`), and back in it afterwards (`gc.unfreeze`).

A compile allocates hundreds of thousands of short-lived IR objects, so CPython runs its
collector hundreds of times; each full (oldest-generation) collection also scans every object
the process already had (xDSL's op definitions, numpy, the user's data): two such collections
cost ~65 ms of the MLP training step's ~1 s first call. Frozen objects are not scanned, and
the young generations still collect the compile's own cyclic garbage, so memory stays bounded.
Nested uses freeze once (the outermost one unfreezes).
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_depth = 0
_lock = threading.Lock()


@contextmanager
def frozen_heap() -> Iterator[None]:
    global _depth
    with _lock:
        _depth += 1
        if _depth == 1:
            gc.freeze()
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0:
                gc.unfreeze()
