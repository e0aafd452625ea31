"""Installed plugins' entry points, read once per process for every group.

Reading entry points scans the metadata of every installed distribution (~200 here: 3-8 ms a scan,
whatever the group), and a first compile asked three times (`minixla.dialects` twice, through each
`load_all`, and `minixla.passes`). `entry_points_of(group)` reads all groups in one scan, the
first time any is asked for, like the pass and backend registries, which already read theirs once
per process: a plugin installed while a process runs is seen by the next process.
"""

from __future__ import annotations

import threading

_all = None
_lock = threading.Lock()


def entry_points_of(group: str) -> list:
    """The entry points of `group`, in `importlib.metadata.entry_points(group=group)`'s order."""
    global _all
    with _lock:
        if _all is None:
            from importlib.metadata import entry_points

            _all = entry_points()  # every group (SelectableGroups before Python 3.12, EntryPoints after)
        return list(_all.select(group=group))


def forget() -> None:
    """Read the entry points again on the next call (tests)."""
    global _all
    with _lock:
        _all = None
