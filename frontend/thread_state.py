"""Per-thread state of the frontend: the stack of graphs being traced and the active gradient
tapes. As in TensorFlow, a `tf.function` trace or a `GradientTape` belongs to the thread that
opened it, so another thread's eager ops neither land in that graph nor get recorded on that tape.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any


class PerThreadList(threading.local):
    """A list whose contents are separate in each thread (the list methods the frontend uses)."""

    def __init__(self) -> None:
        self.items: list = []

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
        self.items[index] = value

    def append(self, item: Any) -> None:
        self.items.append(item)

    def pop(self, index: int = -1) -> Any:
        return self.items.pop(index)

    def remove(self, item: Any) -> None:
        self.items.remove(item)

    def clear(self) -> None:
        self.items.clear()
