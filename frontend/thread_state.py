"""Per-thread state of the frontend: the stack of graphs being traced and the active gradient
tapes. As in TensorFlow, a `tf.function` trace or a `GradientTape` belongs to the thread that
opened it, so another thread's eager ops neither land in that graph nor get recorded on that tape.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

from minixla.passes import trace_events


#: how many items all PerThreadLists hold, over every thread, plus one while a trace-event recorder
#: runs: while it is 0 no thread traces a graph or has a tape open and no recorder runs, which the
#: eager fast path reads in one step (a busy count makes it take the general path, which looks at
#: this thread's own lists)
OPEN = [0]
_open_lock = threading.Lock()


def _count(n: int) -> None:
    with _open_lock:
        OPEN[0] += n


trace_events.LISTENERS.append(_count)  # a trace-event recorder counts too: eager ops must be recorded


class _ReleaseAtThreadExit:
    """Held by a thread's PerThreadList state, which dies with the thread: whatever that thread left
    open (a tape it never closed) no longer counts in OPEN."""

    __slots__ = ("items",)

    def __init__(self, items: list):
        self.items = items

    def __del__(self) -> None:
        if self.items:
            _count(-len(self.items))


class PerThreadList(threading.local):
    """A list whose contents are separate in each thread (the list methods the frontend uses)."""

    def __init__(self) -> None:
        self.items: list = []
        self._release = _ReleaseAtThreadExit(self.items)

    def __bool__(self) -> bool:
        return bool(self.items)

    def __len__(self) -> int:
        return len(self.items)

    def __iter__(self) -> Iterator:
        return iter(self.items)

    def __contains__(self, item: Any) -> bool:
        return item in self.items

    def __getitem__(self, index):
        return self.items[index]

    def __setitem__(self, index, value) -> None:
        before = len(self.items)
        self.items[index] = value  # a slice assignment (tf.init_scope's restore) changes the length
        _count(len(self.items) - before)

    def append(self, item: Any) -> None:
        self.items.append(item)
        _count(1)

    def pop(self, index: int = -1) -> Any:
        item = self.items.pop(index)
        _count(-1)
        return item

    def remove(self, item: Any) -> None:
        self.items.remove(item)
        _count(-1)

    def clear(self) -> None:
        n = len(self.items)
        self.items.clear()
        _count(-n)
