"""Installed plugins' entry points, read once per process for every group, without importlib.metadata.

The dialect and pass registries ask for plugins on every first compile (`load_all`, the pass
registry). `importlib.metadata.entry_points()` cost ~15 ms of that first call: ~8 ms importing it
(email, zipfile, csv, ...) and a scan that builds a `Distribution` per installed package. The
scan here reads the same files the same way -- each `sys.path` folder's `*.dist-info` /
`*.egg-info` entries in listing order, one per normalized distribution name (the first found wins),
their `entry_points.txt` parsed like importlib's `Sectioned` -- in ~1 ms. Where that walk would not
be importlib's (a zip file or an `.egg` on `sys.path`, or another finder that lists distributions),
it asks importlib.metadata instead. A plugin installed while a process runs is seen by the next one.
"""

from __future__ import annotations

import os
import re
import sys
import threading

_all = None
_lock = threading.Lock()
#: importlib.metadata.EntryPoint's syntax of a value: "module[:attr[.attr]] [extras]"
_VALUE = re.compile(r"(?P<module>[\w.]+)\s*(:\s*(?P<attr>[\w.]+)\s*)?((?P<extras>\[.*\])\s*)?$")


class Dist:
    """The distribution an entry point comes from: `name` is its metadata's Name (read when asked)."""

    __slots__ = ("_name", "path")

    def __init__(self, path: str) -> None:
        self.path, self._name = path, None

    @property
    def name(self) -> str:
        if self._name is None:
            self._name = _metadata_name(self.path) or os.path.basename(self.path).partition("-")[0]
        return self._name


class EntryPoint:
    """What minixla uses of `importlib.metadata.EntryPoint`: name, value, group, dist, load();
    equal to importlib's entry point of the same (name, value, group), as importlib's compare."""

    __slots__ = ("dist", "group", "name", "value")

    def __init__(self, name: str, value: str, group: str, dist: Dist | None = None) -> None:
        self.name, self.value, self.group, self.dist = name, value, group, dist

    @property
    def module(self) -> str:
        return _VALUE.match(self.value).group("module")

    @property
    def attr(self) -> str | None:
        return _VALUE.match(self.value).group("attr")

    def load(self):
        """The object the value names (importing its module), as importlib.metadata loads it."""
        from importlib import import_module

        match = _VALUE.match(self.value)
        obj = import_module(match.group("module"))
        for attr in filter(None, (match.group("attr") or "").split(".")):
            obj = getattr(obj, attr)
        return obj

    def _key(self) -> tuple[str, str, str]:
        return self.name, self.value, self.group

    def __eq__(self, other) -> bool:
        try:
            return self._key() == (other.name, other.value, other.group)
        except AttributeError:
            return NotImplemented

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"EntryPoint(name={self.name!r}, value={self.value!r}, group={self.group!r})"


def _metadata_name(info_dir: str) -> str | None:
    """The `Name:` header of a dist-info's METADATA (an egg-info's PKG-INFO)."""
    for fname in ("METADATA", "PKG-INFO"):
        try:
            with open(os.path.join(info_dir, fname), encoding="utf-8") as fh:
                for line in fh:
                    if line.startswith("Name:"):
                        return line[5:].strip()
                    if not line.strip():
                        break  # end of the headers
        except OSError:
            continue
    return None


def _normalize(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower().replace("-", "_")


def _walkable() -> bool:
    """Whether importlib.metadata would find distributions exactly where `_scan` looks."""
    from importlib.machinery import PathFinder

    if any(hasattr(f, "find_distributions") and f is not PathFinder for f in sys.meta_path):
        return False
    for entry in sys.path:
        root = entry or "."
        if root.lower().endswith(".egg") or (os.path.exists(root) and not os.path.isdir(root)):
            return False  # an egg or a zip: importlib reads those in ways not repeated here
    return True


def _parse(text: str, dist: Dist) -> list[EntryPoint]:
    """entry_points.txt as importlib's `Sectioned.section_pairs` reads it."""
    out, group = [], None
    for line in map(str.strip, text.splitlines()):
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            group = line.strip("[]")
        elif group is not None:
            name, _, value = line.partition("=")
            out.append(EntryPoint(name.strip(), value.strip(), group, dist))
    return out


def _scan() -> list:
    """Every entry point of every installed distribution, in importlib.metadata's order."""
    if not _walkable():
        from importlib.metadata import entry_points

        eps = entry_points()  # SelectableGroups before Python 3.12, EntryPoints after: both select
        return [ep for group in sorted(eps.groups) for ep in eps.select(group=group)]
    seen: set[str] = set()
    found: list[EntryPoint] = []
    for entry in sys.path:
        root = entry or "."
        try:
            children = os.listdir(root)
        except OSError:
            continue
        infos: dict[str, list[str]] = {}  # importlib's Lookup: grouped by normalized name, first-seen order
        for child in children:
            low = child.lower()
            if low.endswith((".dist-info", ".egg-info")):
                infos.setdefault(_normalize(low.rpartition(".")[0].partition("-")[0]), []).append(child)
        for children_of_name in infos.values():
            for child in children_of_name:
                stem_name = os.path.splitext(child)[0].partition("-")[0]
                key = _normalize(stem_name)
                if key in seen:
                    continue
                seen.add(key)
                path = os.path.join(entry, child) if entry else child
                try:
                    with open(os.path.join(path, "entry_points.txt"), encoding="utf-8") as fh:
                        text = fh.read()
                except OSError:  # no entry points, or an egg-info file: nothing to read
                    continue
                found.extend(_parse(text, Dist(path)))
    return found


def entry_points_of(group: str) -> list:
    """The entry points of `group`, in `importlib.metadata.entry_points(group=group)`'s order."""
    global _all
    with _lock:
        if _all is None:
            _all = _scan()
        return [ep for ep in _all if ep.group == group]


def forget() -> None:
    """Read the entry points again on the next call (tests)."""
    global _all
    with _lock:
        _all = None
